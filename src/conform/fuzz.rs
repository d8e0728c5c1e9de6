//! `fuzz`: random sessions through a program and through the reference,
//! in parallel, for the whole budget. Every disagreement is explained by
//! [`diagnose`]: the line of the input to blame (the last line of the
//! shortest prefix that, followed by `term`, still disagrees), the clause
//! of that line, and whether the program hung, crashed or replied wrongly
//! there. Disagreements with the same clause and the same way of failing
//! are one group, one cause; one case of each is shrunk (keeping it in its
//! group), shown and written as a case for `check`. Groups of the
//! assignment's rules come first, then this contract's decisions.
//!
//! Case `i` of seed `s` is always the same input, whichever thread makes
//! it, and each group is shown by its case of lowest number: with
//! `--cases`, the same seed gives the same report. The reference runs
//! in-process, so a case costs about one process start.
//!
//! With `--time`, nothing starts after the time is up: cases are made for
//! the first part of it (all of it while nothing disagrees), and the rest
//! goes to shrinking, shared fairly among the groups; a run started just
//! before the end takes at most `--timeout` more.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::clause::{Clause, Kind};
use super::diagnose::{self, Class, Finding, Group, Prober, TermCheck};
use super::hint::{self, Hint, Tried};
use super::model::{self, Flaky, FuzzFinding, Fuzzed};
use super::report::{self, text};
use super::run::{self, Budget, End, Ran};
use super::sandbox::Kit;
use super::scenario::Scenario;
use super::trace;
use super::{ConformError, Expected, Format, Outcome, case, generate};

/// Output above this many times the expected size (and at least
/// [`MIN_CAP`]) is cut off.
const CAP_FACTOR: usize = 16;
/// The smallest output cap.
const MIN_CAP: usize = 1 << 20;

/// With `--time`, the share of it spent making cases once something
/// disagrees; the rest is for shrinking.
const MAKING_SHARE: f64 = 0.6;

/// Of a group's share of the time, what shrinking may take; the rest is
/// for finding the line to blame and trying the hint.
const SHRINKING_SHARE: f64 = 0.75;

/// What a program that is killed loses, and how to keep it.
pub const LOST_OUTPUT: &str = "what the program printed but still held in its buffer is lost when it is killed: flush stdout after each reply, and stop at end of input";

/// When to stop if nothing disagrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// After this many cases.
    Cases(u64),
    /// After this long: the whole run, shrinking and report included.
    Time(Duration),
}

/// What `fuzz` runs, and for how long.
#[derive(Clone, Debug)]
pub struct FuzzOptions {
    /// The program and its arguments.
    pub program: Vec<OsString>,
    /// Where the random cases start: the same seed makes the same cases.
    pub seed: u64,
    /// When to stop.
    pub limit: Limit,
    /// Where a shrunk failure is written as a case.
    pub out_dir: PathBuf,
    /// A run still going after this long is killed.
    pub timeout: Duration,
    /// How many cases run at once.
    pub jobs: usize,
    /// At most this many runs are spent shrinking each group's case.
    pub shrink_budget: usize,
    /// Only sessions no decision of the contract governs: printable
    /// ASCII, every line ended by `\n` and no longer than
    /// [`trace::LONG_LINE`], ending with `term` or the game's end.
    pub assignment_only: bool,
    /// How the report is written.
    pub format: Format,
    /// What the program may use: the shell makes the [`Kit`] of it that
    /// [`fuzz`] is given.
    pub contain: super::sandbox::Contain,
}

/// Time spent, summed over the workers.
#[derive(Default, Clone, Copy)]
struct Spent {
    cases: u64,
    generating: Duration,
    reference: Duration,
    program: Duration,
}

impl Spent {
    fn add(&mut self, other: Spent) {
        self.cases += other.cases;
        self.generating += other.generating;
        self.reference += other.reference;
        self.program += other.program;
    }
}

/// How many workers to start: one a job, but never more than the options
/// allow or than there are cases, as an idle worker still costs a thread.
fn workers(opts: &FuzzOptions) -> usize {
    let jobs = opts.jobs.clamp(1, super::MAX_JOBS);
    match opts.limit {
        Limit::Cases(cases) => usize::try_from(cases).map_or(jobs, |cases| jobs.min(cases.max(1))),
        Limit::Time(_) => jobs,
    }
}

/// `input` without the lines `drop` picks (a last line without `\n`
/// included).
fn without_lines(input: &[u8], drop: impl Fn(&[u8]) -> bool) -> Vec<u8> {
    input
        .split_inclusive(|&b| b == b'\n')
        .filter(|l| !drop(l.strip_suffix(b"\n").unwrap_or(l)))
        .flatten()
        .copied()
        .collect()
}

/// One group of disagreements: one clause broken one way, one cause.
struct Grouped {
    /// The finding of its case of lowest number.
    finding: Finding,
    /// How many cases fell in it.
    count: u64,
    /// Its case of lowest number.
    index: u64,
    /// The scenarios the lines blamed in all its cases share (what every
    /// missed win was like).
    common: Vec<Scenario>,
    /// The clauses of other groups found to have the same cause.
    also: Vec<Clause>,
    /// The hypothesis that explains it and those other groups alike.
    cause: Option<Hint>,
}

/// The groups with groups of the same cause folded into the first of
/// them: two groups are one cause when one hypothesis of [`hint`]
/// reproduces what the program did in the examples of both (a program
/// that folds case answers `WHO` and `place a1` wrongly for one reason).
/// Lost output is no cause of its own, and is not compared.
fn one_per_cause(groups: Vec<Grouped>) -> Vec<Grouped> {
    use std::mem::discriminant;
    let mut kept: Vec<(Grouped, Vec<Hint>)> = Vec::new();
    for group in groups {
        let mut causes = hint::explaining(&group.finding);
        causes.retain(|h| *h != Hint::Unflushed);
        let shared =
            |theirs: &[Hint], h: &Hint| theirs.iter().any(|t| discriminant(t) == discriminant(h));
        let same = kept
            .iter_mut()
            .find(|(_, theirs)| causes.iter().any(|c| shared(theirs, c)));
        match same {
            Some((first, theirs)) => {
                first.count += group.count;
                first.also.push(group.finding.clause);
                theirs.retain(|t| shared(&causes, t));
                first.cause = theirs.first().copied();
            }
            None => kept.push((group, causes)),
        }
    }
    kept.into_iter().map(|(group, _)| group).collect()
}

/// The key that orders groups: rules before decisions, then the clause
/// table's order, then the way the program failed; for missed wins,
/// whether the reference explains the miss as a full board called a tie
/// before its last stone's line is looked at (not the overline or the
/// diagonal the program also misses: two mistakes, two groups). Only
/// that hint: "only exactly five win" also explains a six missed on an
/// anti-diagonal by a program that misses every anti-diagonal, which only
/// a run of the program tells apart.
type Key = (Kind, Clause, Group, Class, Option<Hint>);

fn key(f: &Finding) -> Key {
    // An empty input is the end of input at its earliest: a program that
    // takes the end wrongly takes both so, for one reason.
    let group = match f.group {
        Group::Clause(Clause::InputEmpty) => Group::Clause(Clause::EofExit),
        group => group,
    };
    let clause = group.clause();
    // At the end of the input, hanging and printing for ever are one
    // cause: the program does not stop there.
    let class = if f.line.is_none() {
        Class::Output
    } else {
        f.class
    };
    let cause = (group == Group::WinMissed)
        .then(|| hint::explaining(f))
        .filter(|all| all.contains(&Hint::TieBeforeWin))
        .map(|_| Hint::TieBeforeWin);
    (clause.kind(), clause, group, class, cause)
}

/// Case `index` of the run: the same seed and index, the same bytes; the
/// first ones aimed at every scenario, then random sessions.
fn make_case(opts: &FuzzOptions, index: u64) -> Vec<u8> {
    let input = generate::numbered(opts.seed, index);
    if opts.assignment_only {
        generate::assignment_only(&input)
    } else {
        input
    }
}

/// How the runs of the cases ended: exited, hung, crashed.
#[derive(Default, Clone, Copy)]
struct Ends {
    exited: u64,
    hung: u64,
    crashed: u64,
}

/// What the workers share.
struct Shared<'o> {
    opts: &'o FuzzOptions,
    kit: Option<&'o Kit>,
    start: Instant,
    /// Nothing starts after it (with `--time`).
    deadline: Option<Instant>,
    term: TermCheck,
    next: AtomicU64,
    groups: Mutex<BTreeMap<Key, Grouped>>,
    /// Cases that disagreed once and agreed when run again.
    flaky: Mutex<BTreeMap<u64, Vec<u8>>>,
    cannot_start: Mutex<Option<String>>,
    /// Whether any run printed anything, and any case expected it.
    printed: AtomicBool,
    expected_output: AtomicBool,
    ends: Mutex<Ends>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn inner<T>(m: Mutex<T>) -> T {
    m.into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<'o> Shared<'o> {
    /// Ready to make cases, once how the program takes `term` alone is
    /// known: every prefix tried ends with it.
    fn new(opts: &'o FuzzOptions, kit: Option<&'o Kit>) -> Shared<'o> {
        let start = Instant::now();
        let term_only = Expected {
            stdout: Vec::new(),
            code: 1,
        };
        let term_ran = run_program(opts, kit, &term_only, b"term\n", opts.timeout);
        Shared {
            opts,
            kit,
            start,
            deadline: match opts.limit {
                Limit::Time(t) => start.checked_add(t),
                Limit::Cases(_) => None,
            },
            term: TermCheck::of(&term_ran),
            next: AtomicU64::new(0),
            groups: Mutex::new(BTreeMap::new()),
            flaky: Mutex::new(BTreeMap::new()),
            cannot_start: Mutex::new(match &term_ran.end {
                End::CannotStart(why) => Some(why.clone()),
                _ => None,
            }),
            printed: AtomicBool::new(!term_ran.stdout.is_empty()),
            expected_output: AtomicBool::new(false),
            ends: Mutex::new(Ends::default()),
        }
    }

    /// What the cases found, before shrinking: the result so far, and
    /// the groups of disagreements to shrink.
    fn into_groups(self, program: String, cases: u64) -> (Fuzzed, Vec<Grouped>) {
        let (opts, kit, deadline) = (self.opts, self.kit, self.deadline);
        let flaky: BTreeMap<u64, Vec<u8>> = inner(self.flaky);
        let mut groups: Vec<Grouped> = inner(self.groups).into_values().collect();
        // A program that prints nothing at all fails every reply, but has
        // one thing to fix: it is one finding, not one a clause.
        if !groups.is_empty() && !self.printed.into_inner() && self.expected_output.into_inner() {
            groups = vec![silent(opts, kit, cases, inner(self.ends), deadline)];
        }
        let fuzzed = Fuzzed {
            program,
            seed: opts.seed,
            cases,
            cannot_start: inner(self.cannot_start),
            not_reproducible: flaky
                .iter()
                .map(|(&case, input)| Flaky {
                    case,
                    example: report::escape_keeping_newlines(input),
                })
                .collect(),
            out: opts.out_dir.to_string_lossy().into_owned(),
            ..Fuzzed::default()
        };
        (fuzzed, groups)
    }

    /// Whether case `index` is to be made.
    fn go_on(&self, index: u64) -> bool {
        match self.opts.limit {
            Limit::Cases(n) => index < n,
            Limit::Time(t) => {
                // The first case runs however late its worker starts: on a
                // loaded machine the threads may start after a short time
                // is up, and a run that checked nothing proves nothing.
                let elapsed = self.start.elapsed();
                index == 0
                    || elapsed < t.mul_f64(MAKING_SHARE)
                    || (elapsed < t && lock(&self.groups).is_empty())
            }
        }
    }

    fn run(&self, input: &[u8], expected: &Expected, timeout: Duration) -> Ran {
        run_program(self.opts, self.kit, expected, input, timeout)
    }

    fn prober<'p>(
        &self,
        run: &'p (dyn Fn(&[u8], &Expected, Duration) -> Ran + Sync),
        deadline: Option<Instant>,
    ) -> Prober<'p> {
        Prober {
            run,
            timeout: self.opts.timeout,
            jobs: self.opts.jobs.clamp(1, 4),
            term: self.term,
            deadline,
            end_by_deadline: false,
        }
    }

    /// The kinds of line (by clause) the program is known to hang on.
    fn known_hangs(&self) -> Vec<Clause> {
        lock(&self.groups)
            .values()
            .filter(|g| g.finding.class == Class::Hang && g.finding.line.is_some())
            .map(|g| g.finding.group.clause())
            .collect()
    }

    /// Why `ran` disagrees, or `None` if it agrees.
    fn explain(&self, input: &[u8], trace: &trace::Trace, ran: &Ran) -> Option<Finding> {
        let expected = trace.expected();
        report::compare(&expected, ran)?;
        let hangs = self.known_hangs();
        if let Some(known) = diagnose::known_hang(input, trace, ran, &hangs) {
            return Some(known);
        }
        let run = |input: &[u8], expected: &Expected, timeout: Duration| {
            self.run(input, expected, timeout)
        };
        diagnose::diagnose(input, trace, ran, &self.prober(&run, self.deadline))
    }

    /// Files the finding of case `index`; a new group only if the case
    /// disagrees again when run once more.
    fn file(&self, index: u64, input: &[u8], trace: &trace::Trace, finding: Finding) {
        let k = key(&finding);
        let add = |groups: &mut BTreeMap<Key, Grouped>, finding: Finding| {
            let scenarios = finding.scenarios.clone();
            let group = groups.entry(k).or_insert_with(|| Grouped {
                finding: finding.clone(),
                count: 0,
                index,
                common: scenarios.clone(),
                also: Vec::new(),
                cause: None,
            });
            group.count += 1;
            group.common.retain(|s| scenarios.contains(s));
            // The case of lowest number stands for the group, whichever
            // worker found it first: the same seed, the same report.
            if index < group.index {
                group.index = index;
                group.finding = finding;
            }
        };
        {
            let mut groups = lock(&self.groups);
            if groups.contains_key(&k) {
                add(&mut groups, finding);
                return;
            }
        }
        let expected = trace.expected();
        // A new group only for a case that disagrees again, whatever the
        // probes found: a probe that fails may itself be the one run that
        // went wrong, and when none fails the line is a guess from this
        // run alone. One run more a group is cheap.
        let before_end = self.deadline.is_none_or(|d| Instant::now() < d);
        if before_end {
            // A hang gets a longer run to prove it: a machine busy enough
            // makes a right program miss the timeout once, and load alone
            // must never make a finding.
            // Within the time left, so that the budget holds.
            let timeout = if finding.class == Class::Hang {
                let left = (self.deadline).map_or(Duration::MAX, |d| {
                    d.saturating_duration_since(Instant::now())
                });
                (self.opts.timeout.saturating_mul(HANG_PROOF))
                    .clamp(self.opts.timeout, left.max(self.opts.timeout))
            } else {
                self.opts.timeout
            };
            let again = self.run(input, &expected, timeout);
            if report::compare(&expected, &again).is_none() {
                lock(&self.flaky).insert(index, input.to_vec());
                return;
            }
        }
        add(&mut lock(&self.groups), finding);
    }
}

/// How many times the timeout a hang's second run gets, before it is
/// filed as a finding.
const HANG_PROOF: u32 = 4;

/// Runs random cases for the whole budget, explains and groups the
/// disagreements, shrinks one case of each group and reports them.
///
/// # Errors
///
/// [`ConformError`] if the report or a failing case cannot be written.
pub fn fuzz(
    opts: &FuzzOptions,
    kit: Option<&Kit>,
    out: &mut dyn Write,
) -> Result<Outcome, ConformError> {
    let fuzzed = run(opts, kit, out)?;
    write_report(opts, &fuzzed, out)
}

/// Fuzzes as [`fuzz`] does, and gives what it found; of the report, only
/// what text shows as it goes is written to `out`.
///
/// # Errors
///
/// [`ConformError`] if `out` or a failing case cannot be written.
pub fn run(
    opts: &FuzzOptions,
    kit: Option<&Kit>,
    out: &mut dyn Write,
) -> Result<Fuzzed, ConformError> {
    let text = opts.format == Format::Text;
    let shown = report::shown_command(&opts.program);
    if text {
        text::fuzz_start(out, &shown, opts.seed, opts.assignment_only)?;
    }
    let shared = Shared::new(opts, kit);
    let workers = workers(opts);
    let spent = make_cases(&shared, workers);
    if text {
        let parts = [spent.generating, spent.reference, spent.program];
        text::fuzz_rate(out, spent.cases, shared.start.elapsed(), workers, parts)?;
    }
    let (start, deadline, term) = (shared.start, shared.deadline, shared.term);
    let (mut fuzzed, groups) = shared.into_groups(shown, spent.cases);
    let groups = one_per_cause(groups);
    if fuzzed.cannot_start.is_some() || fuzzed.cases == 0 {
        fuzzed.seconds = start.elapsed().as_secs_f64();
        return Ok(fuzzed);
    }
    if text && !groups.is_empty() {
        writeln!(
            out,
            "{} groups of disagreements; shrinking one case of each",
            groups.len()
        )?;
        out.flush()?;
    }
    let total = groups.len();
    let mut shrunk: Vec<(FuzzFinding, Cause)> = Vec::new();
    for (i, group) in groups.iter().enumerate() {
        // What is left of the time, shared fairly by the groups left.
        let share = deadline.map(|d| {
            let now = Instant::now();
            let left = d.saturating_duration_since(now);
            now + left / u32::try_from(total - i).unwrap_or(u32::MAX)
        });
        let (finding, cause) = shrink_group(opts, kit, term, group, share);
        // Two groups whose shrunk examples show one cause are one
        // finding (a case first taken for a wrong view, shrunk to the NUL
        // line that made it).
        match shrunk.iter_mut().find(|(_, c)| cause.is_that_of(c)) {
            Some((first, _)) => {
                first.cases += finding.cases;
                first.first_case = first.first_case.min(finding.first_case);
                first.also.extend(finding.also);
            }
            None => shrunk.push((finding, cause)),
        }
    }
    for (i, (mut finding, _)) in shrunk.into_iter().enumerate() {
        write_case(opts, &mut finding)?;
        if text {
            text::finding(out, i + 1, &finding)?;
            out.flush()?;
        }
        fuzzed.failures += finding.cases;
        match finding.kind {
            Kind::Rule => fuzzed.rules += 1,
            Kind::Decision => fuzzed.decisions += 1,
        }
        fuzzed.findings.push(finding);
    }
    fuzzed.groups = fuzzed.findings.len();
    fuzzed.seconds = start.elapsed().as_secs_f64();
    Ok(fuzzed)
}

/// Makes and runs the cases on `workers` threads, until the options say
/// to stop or the program cannot start; what their time went to.
fn make_cases(shared: &Shared, workers: usize) -> Spent {
    let mut spent = Spent::default();
    if lock(&shared.cannot_start).is_none() {
        thread::scope(|scope| {
            let workers: Vec<_> = (0..workers)
                .map(|_| scope.spawn(|| worker(shared)))
                .collect();
            for w in workers {
                if let Ok(s) = w.join() {
                    spent.add(s);
                }
            }
        });
    }
    spent
}

fn worker(shared: &Shared) -> Spent {
    let opts = shared.opts;
    let mut spent = Spent::default();
    loop {
        let index = shared.next.fetch_add(1, Ordering::Relaxed);
        if !shared.go_on(index) {
            break;
        }
        let t0 = Instant::now();
        let mut input = make_case(opts, index);
        let hangs = shared.known_hangs();
        if !hangs.is_empty() {
            // A kind of line the program is known to hang on would cost
            // the whole --timeout again and tell nothing new: the case is
            // run without such lines (none of them places a stone).
            input = without_lines(&input, |line| {
                diagnose::hang_kind(line).is_some_and(|k| hangs.contains(&k))
            });
        }
        let t1 = Instant::now();
        let trace = trace::trace(&input);
        let expected = trace.expected();
        let t2 = Instant::now();
        let ran = shared.run(&input, &expected, opts.timeout);
        let t3 = Instant::now();
        spent.cases += 1;
        spent.generating += t1 - t0;
        spent.reference += t2 - t1;
        spent.program += t3 - t2;
        if let End::CannotStart(why) = &ran.end {
            lock(&shared.cannot_start).get_or_insert_with(|| why.clone());
            break;
        }
        // The kit could not start it, even after tries: no verdict on the
        // program, and not counted.
        if matches!(ran.end, End::Unstarted(_)) {
            spent.cases -= 1;
            continue;
        }
        if !ran.stdout.is_empty() {
            shared.printed.store(true, Ordering::Relaxed);
        }
        if !expected.stdout.is_empty() {
            shared.expected_output.store(true, Ordering::Relaxed);
        }
        {
            let mut ends = lock(&shared.ends);
            match ran.end {
                End::TimedOut(_) => ends.hung += 1,
                End::Code(_) | End::TooMuchOutput(_) | End::CannotStart(_) => ends.exited += 1,
                _ => ends.crashed += 1,
            }
        }
        if let Some(finding) = shared.explain(&input, &trace, &ran) {
            shared.file(index, &input, &trace, finding);
        }
    }
    spent
}

/// The one finding for a program that printed nothing for any input.
fn silent(
    opts: &FuzzOptions,
    kit: Option<&Kit>,
    cases: u64,
    ends: Ends,
    deadline: Option<Instant>,
) -> Grouped {
    let example = b"who\nterm\n".to_vec();
    let trace = trace::trace(&example);
    let expected = trace.expected();
    let ran = if deadline.is_none_or(|d| Instant::now() < d) {
        run_program(opts, kit, &expected, &example, opts.timeout)
    } else {
        Ran {
            stdout: Vec::new(),
            stderr: Vec::new(),
            end: End::Code(trace.code),
            took: Duration::ZERO,
        }
    };
    let mut how = Vec::new();
    for (n, what) in [
        (ends.exited, "exited"),
        (ends.hung, "were killed still running"),
        (ends.crashed, "crashed"),
    ] {
        if n > 0 {
            how.push(format!("{n} {what}"));
        }
    }
    let mut cause = format!(
        "prints nothing at all: not one byte on stdout in {cases} cases ({}), though nearly every one expects replies",
        how.join(", ")
    );
    if ends.hung > 0 || ends.crashed > 0 {
        cause.push_str(&format!("; {LOST_OUTPUT}"));
    }
    Grouped {
        finding: Finding {
            example,
            ..Finding::new(Clause::CmdWho, Class::Output, cause, ran)
        },
        count: cases,
        index: 0,
        common: Vec::new(),
        also: Vec::new(),
        cause: None,
    }
}

/// The clause a group of missed wins falls under: what all its misses
/// share (the 361st stone, six or more), or a plain line.
fn missed_win_clause(common: &[Scenario]) -> Clause {
    if common.contains(&Scenario::Win361stStone) {
        Clause::TieWinFirst
    } else if common.contains(&Scenario::WinOverline) {
        Clause::WinOverline
    } else {
        Clause::WinLine
    }
}

fn shrink_group(
    opts: &FuzzOptions,
    kit: Option<&Kit>,
    term: TermCheck,
    group: &Grouped,
    deadline: Option<Instant>,
) -> (FuzzFinding, Cause) {
    let started = Instant::now();
    // A buffer's size is narrowed down before shrinking, which may spend
    // the group's whole share of the time.
    let sized = hint::guess(&group.finding)
        .map(|h| hint::narrowed(h, |input| disagrees(opts, kit, input, deadline)));
    // Shrinking gets most of what is left, not all: the line to blame
    // and the hint are found after it, and without time for them the
    // example keeps its first guess (a NUL line that swallows the next
    // would be blamed on a win far below it).
    let shrink_by = deadline.map(|d| {
        let now = Instant::now();
        now + d.saturating_duration_since(now).mul_f64(SHRINKING_SHARE)
    });
    let (shrunk, finding) = shrink_example(opts, kit, term, group, shrink_by);
    // Shrinking checked only the prefix one line shorter.
    let run = |input: &[u8], expected: &Expected, timeout: Duration| {
        run_program(opts, kit, expected, input, timeout)
    };
    let prober = Prober {
        run: &run,
        timeout: opts.timeout,
        jobs: opts.jobs.clamp(1, 4),
        term,
        deadline,
        end_by_deadline: false,
    };
    let finding = diagnose::first_wrong_prefix(finding, &prober);
    let lines = |b: &[u8]| b.split_inclusive(|&c| c == b'\n').count();
    let from = &group.finding.example;
    let input = finding.example.clone();
    let summary = model::Shrunk {
        from_lines: lines(from),
        from_bytes: from.len(),
        lines: lines(&input),
        bytes: input.len(),
        runs: shrunk.tests,
        seconds: started.elapsed().as_secs_f64(),
    };
    let expected = trace::trace(&input).expected();
    let clause = match group.finding.group {
        Group::WinMissed => missed_win_clause(&group.common),
        // Its example's, as `check` names it: odd whitespace is a `\r`, a
        // tab or a trim by the line shown, not by what its cases share.
        Group::Whitespace | Group::Clause(_) => finding.clause,
    };
    // A group with others folded in is told the cause they share.
    let tried = (group.cause.or_else(|| hint::guess(&finding)))
        .and_then(|h| Some(h.tried(refuted(opts, kit, h, &finding, deadline)?)));
    let clause = tried.map_or(clause, |t| t.clause(clause, &finding.scenarios));
    let hint = tried.and_then(Tried::given).map(|h| h.narrowed_by(sized));
    let mut cause = Cause::of(clause, hint, &finding);
    cause.tie_refuted = matches!(tried, Some(Tried::Refuted(Hint::TieBeforeWin)));
    let finding = FuzzFinding {
        clause,
        kind: clause.kind(),
        title: clause.title(),
        failure: finding.class,
        hint: hint.map(Hint::sentence),
        cause: finding.cause,
        also: group.also.clone(),
        cases: group.count,
        first_case: group.index,
        example: report::escape_keeping_newlines(&input),
        detail: differs(finding.class, &expected, &finding.ran),
        file: String::new(),
        shrink_cut_short: shrunk.cut_short,
        differs: report::summary(&expected, &finding.ran),
        shared: shared_scenarios(group, &input),
        shrunk: summary,
        input,
    };
    (finding, cause)
}

/// What tells two shrunk findings' causes apart: the clause, the hint,
/// how the program failed, and the line blamed: for odd bytes, which
/// kinds of byte it holds (`\x00` alone and `hi\x00story` are one NUL
/// mistake; a NUL and a `\xff` may be two); else the whole example.
struct Cause {
    clause: Clause,
    hint: Option<Hint>,
    class: Class,
    shown: Vec<u8>,
    /// A full board grouped apart as a tie called first, which its
    /// control refuted: a miss of the line its last stone made, one with
    /// the other misses under that line's clause.
    tie_refuted: bool,
}

impl Cause {
    fn of(clause: Clause, hint: Option<Hint>, f: &Finding) -> Cause {
        let blamed = f
            .line
            .and_then(|n| f.example.split(|&b| b == b'\n').nth(n.checked_sub(1)?));
        let shown = match blamed {
            Some(line) if matches!(clause, Clause::BytesAny | Clause::WsSet) => {
                let mut kinds: Vec<u8> = line
                    .iter()
                    .filter(|&&b| !trace::assignment_byte(b))
                    .map(|&b| match b {
                        0 => 0,
                        1..=0x7f => 1,
                        _ => 2,
                    })
                    .collect();
                kinds.sort_unstable();
                kinds.dedup();
                kinds
            }
            _ => f.example.clone(),
        };
        Cause {
            clause,
            hint,
            class: f.class,
            shown,
            tie_refuted: false,
        }
    }

    /// Whether this cause is `other`'s: the same in all it is told apart
    /// by, or a refuted tie first under `other`'s clause.
    fn is_that_of(&self, other: &Cause) -> bool {
        let same = (self.clause, self.hint, self.class) == (other.clause, other.hint, other.class);
        (same && self.shown == other.shown)
            || (self.tie_refuted && (self.clause, self.class) == (other.clause, other.class))
    }
}

/// What every case of a group that gathers cases by what they were like
/// (missed wins, whitespace) shared and the example `shown` has too, in
/// words, in the order the trace met them; nothing for other groups.
fn shared_scenarios(group: &Grouped, shown: &[u8]) -> Vec<&'static str> {
    if !matches!(group.finding.group, Group::WinMissed | Group::Whitespace) {
        return Vec::new();
    }
    // The wins' and the `Invalid!` lines' own scenarios, each a run of
    // the table.
    let own = |s: &Scenario| {
        (Scenario::WinRow..=Scenario::Win361stStone).contains(s)
            || (Scenario::InvalidEmpty..=Scenario::InvalidUnknown).contains(s)
    };
    // Only what the example shown has too: the line describes it, and
    // never says what the student cannot see in it.
    let t = trace::trace(shown);
    let in_shown = |s: &Scenario| t.steps.iter().any(|step| step.scenarios.contains(s));
    group
        .common
        .iter()
        .filter(|s| own(s) && in_shown(s))
        .map(|s| s.what())
        .collect()
}

/// Shrinks the group's example while it fails the same way: by line
/// before a final `term` when a line is to blame, else as a whole input;
/// the shrinking's account, and the finding of the smallest example.
fn shrink_example(
    opts: &FuzzOptions,
    kit: Option<&Kit>,
    term: TermCheck,
    group: &Grouped,
    deadline: Option<Instant>,
) -> (super::shrink::Shrunk, Finding) {
    // The finding of the group's case of lowest number, and what keeps a
    // smaller case in its group: a full board called a tie first must not
    // shrink into an overline the program also misses.
    let first = &group.finding;
    let target = key(first);
    let found: Mutex<BTreeMap<Vec<u8>, Finding>> = Mutex::new(BTreeMap::new());
    let run = |input: &[u8], expected: &Expected, timeout: Duration| {
        run_program(opts, kit, expected, input, timeout)
    };
    let prober = Prober {
        run: &run,
        timeout: opts.timeout,
        jobs: 1,
        term,
        deadline,
        end_by_deadline: false,
    };
    let by_line = first.line.is_some() && first.example.ends_with(b"term\n");
    let (jobs, budget) = (opts.jobs, opts.shrink_budget);
    let shrunk = if first.group == Group::Clause(Clause::CmdWho) && first.line.is_none() {
        // The one finding of a silent program: its example is one line.
        super::shrink::Shrunk {
            input: first.example.clone(),
            tests: 0,
            cut_short: false,
        }
    } else if by_line {
        let body = &first.example[..first.example.len() - b"term\n".len()];
        let fails = |candidate: &[u8]| {
            if opts.assignment_only && !generate::is_assignment_only_body(candidate) {
                return false;
            }
            match diagnose::last_line_finding(candidate, &prober) {
                Some(f) if key(&f) == target => {
                    lock(&found).insert(candidate.to_vec(), f);
                    true
                }
                _ => false,
            }
        };
        super::shrink::shrink(body, fails, jobs, budget, deadline)
    } else {
        let fails = |candidate: &[u8]| {
            let trace = trace::trace(candidate);
            if !can_show(candidate, &trace, first.clause) {
                return false;
            }
            if opts.assignment_only && !generate::is_assignment_only(candidate) {
                return false;
            }
            let expected = trace.expected();
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return false;
            }
            let ran = run_program(opts, kit, &expected, candidate, opts.timeout);
            if report::compare(&expected, &ran).is_none() {
                return false;
            }
            let f = diagnose::end_finding(candidate, &trace, &ran);
            if key(&f) != target {
                return false;
            }
            lock(&found).insert(candidate.to_vec(), f);
            true
        };
        super::shrink::shrink(&first.example, fails, jobs, budget, deadline)
    };
    let finding = inner(found).remove(&shrunk.input);
    let finding = finding.unwrap_or_else(|| first.clone());
    // Shrinking keeps the group's way of failing, and with it what the
    // group's first case showed of the end of its input.
    let end_shown = first.end_shown;
    (
        shrunk,
        Finding {
            end_shown,
            ..finding
        },
    )
}

/// Whether `trace` can show the clause `clause` at all: a shrinking
/// candidate that cannot is dropped without running the program.
fn can_show(input: &[u8], trace: &trace::Trace, clause: Clause) -> bool {
    use trace::Stop;
    match clause {
        Clause::EofExit => trace.stop == Stop::EndOfInput && !input.is_empty(),
        Clause::InputEmpty => input.is_empty(),
        Clause::LineFinalNl => trace.stop == Stop::EndOfInput && input.ends_with(b"\n"),
        Clause::LineNoNl => !input.is_empty() && !input.ends_with(b"\n"),
        Clause::EndStop | Clause::EndBlock => trace.ended(),
        Clause::TermStop => trace.stop == Stop::Term,
        _ => true,
    }
}

fn run_program(
    opts: &FuzzOptions,
    kit: Option<&Kit>,
    expected: &Expected,
    input: &[u8],
    timeout: Duration,
) -> Ran {
    let limits = Budget {
        timeout,
        cap: expected
            .stdout
            .len()
            .saturating_mul(CAP_FACTOR)
            .max(MIN_CAP),
    };
    run::run(kit, &opts.program, &[], input, limits)
}

/// Whether the program's answer to one of the controls of `hint` refutes
/// it (see [`hint::controls`]); `None` where a control has no time left
/// to run: then no hint is tried (none is given without its experiment).
fn refuted(
    opts: &FuzzOptions,
    kit: Option<&Kit>,
    hint: Hint,
    finding: &Finding,
    deadline: Option<Instant>,
) -> Option<bool> {
    for control in hint::controls(hint, &finding.example) {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let expected = trace::trace(&control.input).expected();
        let ran = run_program(opts, kit, &expected, &control.input, opts.timeout);
        if control.refutes(&finding.ran.stdout, &ran) {
            return Some(true);
        }
    }
    Some(false)
}

/// Whether the program's run of `input` disagrees with the reference;
/// `None` if no run may start now, or it ran out of time.
fn disagrees(
    opts: &FuzzOptions,
    kit: Option<&Kit>,
    input: &[u8],
    deadline: Option<Instant>,
) -> Option<bool> {
    if deadline.is_some_and(|d| Instant::now() >= d) {
        return None;
    }
    let expected = trace::trace(input).expected();
    let ran = run_program(opts, kit, &expected, input, opts.timeout);
    match ran.end {
        End::TimedOut(_) | End::CannotStart(_) | End::Unstarted(_) => None,
        _ => Some(report::compare(&expected, &ran).is_some()),
    }
}

/// How a group's example differs, as the report shows it: for a run
/// that was killed, only how it ended, as what it printed may be lost.
fn differs(class: Class, expected: &Expected, ran: &Ran) -> String {
    let detail = report::compare(expected, ran).unwrap_or_default();
    let first = match &ran.end {
        End::TimedOut(limit) => format!("still running after {limit:?}: killed"),
        _ => detail.lines().next().unwrap_or_default().trim().to_owned(),
    };
    match class {
        Class::Hang | Class::Crash => format!("  {first}\n  ({LOST_OUTPUT})\n"),
        Class::Output | Class::Extra => detail,
    }
}

/// Writes `finding`'s example as a case for `check`, and notes where.
fn write_case(opts: &FuzzOptions, finding: &mut FuzzFinding) -> Result<(), ConformError> {
    let name = format!(
        "fuzz-{}-{}-{}",
        opts.seed, finding.first_case, finding.clause
    );
    let expected = trace::trace(&finding.input).expected();
    let path = case::write(&opts.out_dir, &name, &finding.input, &expected)?;
    finding.file = report::shown_path(&path);
    Ok(())
}

/// Writes the whole report as `opts` asks (text: only its end, the rest
/// was written as it was found).
fn write_report(
    opts: &FuzzOptions,
    fuzzed: &Fuzzed,
    out: &mut dyn Write,
) -> Result<Outcome, ConformError> {
    match opts.format {
        Format::Text => text::fuzz_end(out, fuzzed)?,
        Format::Json => out.write_all(report::json::rows(fuzzed).as_bytes())?,
        Format::Junit => out.write_all(report::junit::fuzz(fuzzed).as_bytes())?,
    }
    out.flush()?;
    Ok(if fuzzed.passed() {
        Outcome::Passed
    } else {
        Outcome::Failed
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_groups_cases_share_is_said_only_of_what_its_example_shows() {
        let ran = Ran {
            stdout: Vec::new(),
            stderr: Vec::new(),
            end: End::Code(1),
            took: Duration::ZERO,
        };
        let group = Grouped {
            finding: Finding {
                group: Group::WinMissed,
                ..Finding::new(Clause::WinLine, Class::Output, String::new(), ran)
            },
            count: 2,
            index: 0,
            // The unshrunk cases all won inside the board, and along a
            // column; the example shown wins on column A.
            common: vec![Scenario::WinColumn, Scenario::WinInside],
            also: Vec::new(),
            cause: None,
        };
        let shown = b"place A3\nplace B3\nplace A4\nplace B4\nplace A5\nplace B5\nplace A6\nplace B6\nplace A7\nterm\n";
        assert_eq!(
            shared_scenarios(&group, shown),
            [Scenario::WinColumn.what()]
        );
    }

    #[test]
    fn shrunk_examples_of_one_cause_are_one_finding() {
        let finding = |example: &[u8], line: usize| Finding {
            line: Some(line),
            example: example.to_vec(),
            ..Finding::new(
                Clause::BytesAny,
                Class::Output,
                String::new(),
                Ran {
                    stdout: Vec::new(),
                    stderr: Vec::new(),
                    end: End::Code(0),
                    took: Duration::ZERO,
                },
            )
        };
        let cause = |example: &[u8], line: usize| {
            Cause::of(Clause::BytesAny, None, &finding(example, line))
        };
        // A NUL alone and a NUL inside a command: one mistake.
        let nul = cause(b"\x00\nterm\n", 1);
        assert!(nul.is_that_of(&cause(b"who\nhi\x00story\nterm\n", 2)));
        // A byte of 128 and up may be another.
        assert!(!nul.is_that_of(&cause(b"who\xff\nterm\n", 1)));
        // Other clauses: one cause only for one example.
        let win = |example: &[u8]| Cause::of(Clause::WinLine, None, &finding(example, 1));
        assert!(!win(b"place A1\n").is_that_of(&win(b"place B1\n")));
        assert!(win(b"place A1\n").is_that_of(&win(b"place A1\n")));
        // A full board's tie-first hint refuted: any miss under its clause.
        let mut tie = win(b"place A1\n");
        tie.tie_refuted = true;
        assert!(tie.is_that_of(&win(b"place B1\n")));
    }

    #[test]
    fn workers_never_outnumber_cases_or_the_jobs_cap() {
        let cases: &[(usize, Limit, usize)] = &[
            (4, Limit::Cases(1000), 4),
            (8, Limit::Cases(3), 3),
            (8, Limit::Cases(0), 1),
            (0, Limit::Cases(10), 1),
            (100_000_000, Limit::Cases(u64::MAX), super::super::MAX_JOBS),
            (
                100_000_000,
                Limit::Time(Duration::from_secs(1)),
                super::super::MAX_JOBS,
            ),
            (3, Limit::Time(Duration::from_secs(1)), 3),
        ];
        for &(jobs, limit, want) in cases {
            let opts = FuzzOptions {
                program: Vec::new(),
                seed: 0,
                limit,
                out_dir: PathBuf::new(),
                timeout: Duration::from_secs(1),
                jobs,
                shrink_budget: 0,
                assignment_only: false,
                format: Format::Text,
                contain: Default::default(),
            };
            assert_eq!(workers(&opts), want, "jobs {jobs}, {limit:?}");
        }
    }
}
