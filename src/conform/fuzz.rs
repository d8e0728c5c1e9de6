//! `fuzz`: random sessions through a program and through the reference,
//! in parallel, for the whole budget. Every disagreement is blamed on the
//! clause of the contract it breaks and the situation it broke in
//! ([`trace::blame`]); one case of each group is shrunk (keeping it in its
//! group, so a hang at end of input cannot swallow a missed win), shown
//! and written as a case for `check`. Groups of the assignment's rules
//! come first, then this contract's decisions.
//!
//! Case `i` of seed `s` is always the same input, whichever thread makes
//! it, and each group is shown by its case of lowest number: with
//! `--cases`, the same seed gives the same report. The reference runs
//! in-process, so a case costs about one process start.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::clause::{self, Kind};
use super::run::{self, End, Limits, Ran};
use super::trace::{self, Blame, RunEnd};
use super::{ConformError, Expected, Outcome, case, generate, report};
use crate::rng::Rng;

/// Output above this many times the expected size (and at least
/// [`MIN_CAP`]) is cut off.
const CAP_FACTOR: usize = 16;
/// The smallest output cap.
const MIN_CAP: usize = 1 << 20;

/// Of a long shrunk input, this many lines are shown at each end (the
/// case file has them all).
const SHOWN_LINES: usize = 20;

/// When to stop if nothing disagrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// After this many cases.
    Cases(u64),
    /// After this long.
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
    /// Only sessions whose expected output no decision of the contract
    /// affects: each ends with `term` or the game's end, every line with
    /// `\n`, and holds only bytes the assignment speaks of.
    pub assignment_only: bool,
    /// What the program may use: applied by the `gomoku-mist` binary,
    /// which installs it ([`super::sandbox::install`]).
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

/// One group of disagreements: the same clause broken in the same
/// situation.
struct Group {
    blame: Blame,
    /// How many cases fell in it.
    count: u64,
    /// Its case of lowest number, and that case's input.
    index: u64,
    input: Vec<u8>,
}

/// The key that orders groups: rules before decisions, then the clause
/// table's order, then the situation.
type Key = (Kind, usize, &'static str, &'static str);

fn key(blame: &Blame) -> Key {
    let kind = clause::find(blame.clause).map_or(Kind::Rule, |c| c.kind);
    (
        kind,
        clause::rank(blame.clause),
        blame.clause,
        blame.situation,
    )
}

/// Case `index` of the run: the same seed and index, the same bytes.
fn make_case(opts: &FuzzOptions, index: u64) -> Vec<u8> {
    let input = generate::case(&mut Rng::for_case(opts.seed, index));
    if opts.assignment_only {
        generate::assignment_only(&input)
    } else {
        input
    }
}

/// Runs random cases for the whole budget, groups the disagreements by
/// the clause they break, shrinks one case of each group and reports them.
///
/// # Errors
///
/// [`ConformError`] if the report or a failing case cannot be written.
pub fn fuzz(opts: &FuzzOptions, out: &mut dyn Write) -> Result<Outcome, ConformError> {
    let shown = shown_command(&opts.program);
    writeln!(
        out,
        "fuzzing {shown} with seed {}{}",
        opts.seed,
        if opts.assignment_only {
            ", the assignment's rules only"
        } else {
            ""
        }
    )?;
    out.flush()?;
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let groups: Mutex<BTreeMap<Key, Group>> = Mutex::new(BTreeMap::new());
    let cannot_start: Mutex<Option<String>> = Mutex::new(None);
    let mut spent = Spent::default();
    let count = workers(opts);
    thread::scope(|scope| {
        let workers: Vec<_> = (0..count)
            .map(|_| scope.spawn(|| worker(opts, start, &next, &groups, &cannot_start)))
            .collect();
        for w in workers {
            if let Ok(s) = w.join() {
                spent.add(s);
            }
        }
    });
    let wall = start.elapsed();
    let busy = (spent.generating + spent.reference + spent.program)
        .as_secs_f64()
        .max(1e-9);
    let percent = |d: Duration| 100.0 * d.as_secs_f64() / busy;
    writeln!(
        out,
        "{} cases in {:.1} s: {:.0} cases/s on {} workers (of their time: generating {:.1}%, reference {:.1}%, program {:.1}%)",
        spent.cases,
        wall.as_secs_f64(),
        spent.cases as f64 / wall.as_secs_f64().max(1e-9),
        count,
        percent(spent.generating),
        percent(spent.reference),
        percent(spent.program),
    )?;
    let cannot_start = cannot_start
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(why) = cannot_start {
        // Nothing to shrink: no input would make it start.
        writeln!(out, "cannot start the program: {why}")?;
        out.flush()?;
        return Ok(Outcome::Failed);
    }
    if spent.cases == 0 {
        writeln!(out, "no case was run: nothing was checked")?;
        out.flush()?;
        return Ok(Outcome::Failed);
    }
    let groups = groups
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if groups.is_empty() {
        writeln!(out, "no disagreement")?;
        writeln!(out, "0 failures")?;
        out.flush()?;
        return Ok(Outcome::Passed);
    }
    writeln!(
        out,
        "{} groups of disagreements; shrinking one case of each",
        groups.len()
    )?;
    let (mut failures, mut rules, mut decisions) = (0, 0, 0);
    for (number, (key, group)) in groups.iter().enumerate() {
        failures += group.count;
        match key.0 {
            Kind::Rule => rules += 1,
            Kind::Decision => decisions += 1,
        }
        report_group(opts, number + 1, group, out)?;
    }
    writeln!(
        out,
        "\nrun them again with: gomoku-mist check --program {} {}",
        quote(&shown_command(&opts.program)),
        quote(&opts.out_dir.to_string_lossy()),
    )?;
    writeln!(
        out,
        "{failures} failures in {} groups: {rules} of the assignment's rules, {decisions} of this contract's decisions",
        groups.len()
    )?;
    out.flush()?;
    Ok(Outcome::Failed)
}

fn worker(
    opts: &FuzzOptions,
    start: Instant,
    next: &AtomicU64,
    groups: &Mutex<BTreeMap<Key, Group>>,
    cannot_start: &Mutex<Option<String>>,
) -> Spent {
    let mut spent = Spent::default();
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        let go_on = match opts.limit {
            Limit::Cases(n) => index < n,
            Limit::Time(t) => start.elapsed() < t,
        };
        if !go_on {
            break;
        }
        let t0 = Instant::now();
        let input = make_case(opts, index);
        let t1 = Instant::now();
        let trace = trace::trace(&input);
        let expected = Expected {
            stdout: trace.stdout.clone(),
            code: trace.code,
        };
        let t2 = Instant::now();
        let ran = run_program(opts, &expected, &input);
        let t3 = Instant::now();
        spent.cases += 1;
        spent.generating += t1 - t0;
        spent.reference += t2 - t1;
        spent.program += t3 - t2;
        if let End::CannotStart(why) = &ran.end {
            let mut slot = cannot_start
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            slot.get_or_insert_with(|| why.clone());
            break;
        }
        let Some(blame) = blame_of(opts, &input, &trace, &expected, &ran) else {
            continue;
        };
        let mut groups = groups
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let group = groups.entry(key(&blame)).or_insert_with(|| Group {
            blame: blame.clone(),
            count: 0,
            index,
            input: input.clone(),
        });
        group.count += 1;
        // The case of lowest number stands for the group, whichever
        // worker found it first: the same seed, the same report.
        if index < group.index {
            group.index = index;
            group.input = input;
            group.blame = blame;
        }
    }
    spent
}

/// Why `ran` disagrees with the reference, or `None` if it agrees.
///
/// A program that hangs shows nothing it buffered, so its first wrong
/// byte may be a reply it never flushed. Such a run is tried once more
/// with `term` after the input: if it then agrees, the end of input was
/// the trouble; if it then disagrees, that disagreement is the one to
/// blame.
fn blame_of(
    opts: &FuzzOptions,
    input: &[u8],
    trace: &trace::Trace,
    expected: &Expected,
    ran: &Ran,
) -> Option<Blame> {
    blame_with(input, trace, expected, ran, &|input, want| {
        run_program(opts, want, input)
    })
}

/// As [`blame_of`], for any way of running the program again (`check`
/// runs it with a case's own limits).
pub(crate) fn blame_with(
    input: &[u8],
    trace: &trace::Trace,
    expected: &Expected,
    ran: &Ran,
    rerun: &dyn Fn(&[u8], &Expected) -> Ran,
) -> Option<Blame> {
    report::compare(expected, ran)?;
    let end = run_end(expected, ran);
    let prefix = expected.stdout.starts_with(&ran.stdout);
    if end == RunEnd::Hung && prefix && trace.stop != trace::Stop::Term {
        let mut ended = input.to_vec();
        if !ended.is_empty() && !ended.ends_with(b"\n") {
            ended.push(b'\n');
        }
        ended.extend_from_slice(b"term\n");
        let again = trace::trace(&ended);
        let want = Expected {
            stdout: again.stdout.clone(),
            code: again.code,
        };
        let second = rerun(&ended, &want);
        let second_end = run_end(&want, &second);
        if report::compare(&want, &second).is_none() {
            return Some(trace::blame(input, trace, &expected.stdout, RunEnd::Hung));
        }
        if second_end != RunEnd::Hung {
            return Some(trace::blame(&ended, &again, &second.stdout, second_end));
        }
    }
    Some(trace::blame(input, trace, &ran.stdout, end))
}

fn run_end(expected: &Expected, ran: &Ran) -> RunEnd {
    match &ran.end {
        End::Code(code) if *code == expected.code => RunEnd::Right,
        End::TimedOut(_) => RunEnd::Hung,
        _ => RunEnd::WrongCode,
    }
}

/// Whether `trace` can show the clause of `blame` at all: a shrinking
/// candidate that cannot is dropped without running the program.
fn can_show(input: &[u8], trace: &trace::Trace, blame: &Blame) -> bool {
    use trace::Stop;
    match blame.clause {
        "EOF-EXIT" => trace.stop == Stop::EndOfInput && !input.is_empty(),
        "INPUT-EMPTY" => input.is_empty(),
        "LINE-FINAL-NL" => trace.stop == Stop::EndOfInput && input.ends_with(b"\n"),
        "END-STOP" | "END-BLOCK" => trace.stop == Stop::Ended,
        "TERM-STOP" => trace.stop == Stop::Term,
        "VIEW-EDGE" | "VIEW-FORMAT" => trace.steps.iter().any(|s| s.clause.starts_with("MIST-")),
        "EXIT-CODES" | "CMD-TERM" | "CMD-EXACT" => true,
        clause => trace
            .steps
            .iter()
            .any(|s| s.clause == clause || s.clause == "CMD-PLACE"),
    }
}

fn run_program(opts: &FuzzOptions, expected: &Expected, input: &[u8]) -> Ran {
    let limits = Limits {
        timeout: opts.timeout,
        cap: expected
            .stdout
            .len()
            .saturating_mul(CAP_FACTOR)
            .max(MIN_CAP),
    };
    run::run(&opts.program, &[], input, limits)
}

/// Whether `input` still fails in the group of `blame`.
fn same_group(opts: &FuzzOptions, input: &[u8], blame: &Blame, assignment_only: bool) -> bool {
    let trace = trace::trace(input);
    // A rule's example ends with `term` even where the game ends before
    // it: a program that misses the end then stops at once instead of
    // waiting at end of input, and the example shows what it printed.
    if assignment_only
        && (!input.ends_with(b"\nterm\n") || !trace::decisions(input, &trace).is_empty())
    {
        return false;
    }
    if !can_show(input, &trace, blame) {
        return false;
    }
    let expected = Expected {
        stdout: trace.stdout.clone(),
        code: trace.code,
    };
    let ran = run_program(opts, &expected, input);
    blame_of(opts, input, &trace, &expected, &ran)
        .is_some_and(|b| (b.clause, b.situation) == (blame.clause, blame.situation))
}

/// The case cut after the line to blame, with `term` after it: for a
/// rule, an example no decision (end of input above all) can cloud, and
/// one that does not wait for a program that hangs at end of input.
fn cut_after_blame(input: &[u8], blame: &Blame) -> Option<Vec<u8>> {
    let line = blame.line?;
    let head: Vec<u8> = input
        .split_inclusive(|&b| b == b'\n')
        .take(line)
        .flat_map(|l| l.iter().copied())
        .collect();
    // Lines of odd bytes never place a stone: dropping them keeps the game.
    Some(generate::assignment_only(&head))
}

fn report_group(
    opts: &FuzzOptions,
    number: usize,
    group: &Group,
    out: &mut dyn Write,
) -> Result<(), ConformError> {
    let blame = &group.blame;
    let clause = clause::find(blame.clause);
    let kind = clause.map_or(Kind::Rule, |c| c.kind);
    writeln!(
        out,
        "\n[{number}] {} ({}): {}",
        blame.clause,
        kind.phrase(),
        clause.map_or("", |c| c.title)
    )?;
    writeln!(
        out,
        "  situation: {}; {} failing case{}, first case {}",
        blame.situation,
        group.count,
        if group.count == 1 { "" } else { "s" },
        group.index
    )?;
    out.flush()?;
    let started = Instant::now();
    // A rule's example is shrunk among inputs no decision affects, when
    // the case can be made one.
    let mut from = group.input.clone();
    let mut strict = false;
    if kind == Kind::Rule {
        if let Some(cut) = cut_after_blame(&group.input, blame) {
            if same_group(opts, &cut, blame, true) {
                from = cut;
                strict = true;
            }
        }
    }
    let fails = |input: &[u8]| same_group(opts, input, blame, strict);
    let shrunk = super::shrink::shrink(&from, fails, opts.jobs, opts.shrink_budget);
    let lines = |b: &[u8]| b.split_inclusive(|&c| c == b'\n').count();
    writeln!(
        out,
        "  shrunk from {} lines ({} bytes) to {} lines ({} bytes) in {} runs, {:.1} s{}",
        lines(&group.input),
        group.input.len(),
        lines(&shrunk.input),
        shrunk.input.len(),
        shrunk.tests,
        started.elapsed().as_secs_f64(),
        if shrunk.cut_short {
            " (budget spent: it may shrink further)"
        } else {
            ""
        },
    )?;
    let trace = trace::trace(&shrunk.input);
    let expected = Expected {
        stdout: trace.stdout.clone(),
        code: trace.code,
    };
    let ran = run_program(opts, &expected, &shrunk.input);
    writeln!(out, "  input:")?;
    write!(
        out,
        "{}",
        report::escape_lines(&shrunk.input, "    | ", SHOWN_LINES)
    )?;
    match report::compare(&expected, &ran) {
        Some(detail) => write!(
            out,
            "  differs: {}\n{}",
            report::summary(&expected, &ran),
            indent(&detail)
        )?,
        // It disagreed while shrinking but not now: the program is flaky.
        None => writeln!(
            out,
            "  (this input agreed when run once more: is the program deterministic?)"
        )?,
    }
    let name = format!("fuzz-{}-{}-{}", opts.seed, group.index, blame.clause);
    let path = case::write(&opts.out_dir, &name, &shrunk.input, &expected)?;
    writeln!(out, "  written as {}", report::shown_path(&path))?;
    out.flush()?;
    Ok(())
}

/// `detail` (lines indented by two) indented by two more.
fn indent(detail: &str) -> String {
    detail.lines().map(|l| format!("  {l}\n")).collect()
}

/// The command as one line, each word quoted if it needs to be.
fn shown_command(command: &[OsString]) -> String {
    command
        .iter()
        .map(|word| quote(&word.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` in single quotes, as a shell (and `--program`) reads it.
fn quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@".contains(&b))
    {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

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
                contain: Default::default(),
            };
            assert_eq!(workers(&opts), want, "jobs {jobs}, {limit:?}");
        }
    }
}
