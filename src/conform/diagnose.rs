//! What a disagreement is, in the assignment's terms: the line of the
//! input to blame, the clause of that line, and how the program failed
//! on it (hung, crashed, or replied wrongly, too little or too much).
//!
//! The line is found by experiment, not by reading the program's output
//! where it first differs: a program killed while it hangs loses what it
//! had printed but not flushed (C's stdio buffers a pipe), and a program
//! that drops or adds a reply shifts every later one. So the kit runs the
//! first lines of the input followed by `term`, for ever fewer lines, and
//! blames the last line of the shortest such prefix that still
//! disagrees: the replies before it were all right, so whatever is wrong
//! began with that line. Only when no prefix followed by `term`
//! disagrees is the end of the input itself (no `term`, no final
//! newline) to blame.
//!
//! Prefixes are tried several at a time, each round narrowing the range,
//! with a guess first: the first line holding bytes the assignment does
//! not speak of, or longer than its examples, is the commonest culprit.

use std::collections::BTreeMap;
use std::thread;
use std::time::{Duration, Instant};

use super::clause::Clause;
use super::run::{End, Ran};
use super::scenario::Scenario;
use super::trace::{self, RunEnd, Step, Stop, Trace};
use super::{Expected, report};
use crate::controller::text;
use crate::rules::command::{Command, ParseCommandError};

pub use super::model::Class;

/// What findings are grouped by: one cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    /// The clause broken.
    Clause(Clause),
    /// A missed win, whichever clause (a line, an overline, the 361st
    /// stone) the win fell under: one program misses them for one
    /// reason, and the report names the clause all its misses share.
    WinMissed,
    /// An `Invalid!` line with odd whitespace (a `\r`, a tab, a space too
    /// many) that a program took for a command: a program that trims
    /// lines fails them all for one reason, and the report names the
    /// clause of the example it shows (a `\r`: `LINE-SPLIT`; a tab, or
    /// any in a `place` parameter: `WS`; else `CMD-EXACT`), as `check`
    /// names it.
    Whitespace,
}

impl Group {
    /// The clause the group is ordered under.
    pub const fn clause(self) -> Clause {
        match self {
            Group::Clause(clause) => clause,
            Group::WinMissed => Clause::WinLine,
            Group::Whitespace => Clause::LineSplit,
        }
    }
}

/// The kinds of `Invalid!` line that [`Group::Whitespace`] groups.
const WHITESPACE_KINDS: [Scenario; 5] = [
    Scenario::InvalidCr,
    Scenario::InvalidTab,
    Scenario::InvalidLeadingSpace,
    Scenario::InvalidTrailingSpace,
    Scenario::InvalidDoubleSpace,
];

/// One disagreement, explained.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The clause broken.
    pub clause: Clause,
    /// What groups it.
    pub group: Group,
    /// How the program failed.
    pub class: Class,
    /// The input line blamed (from 1), if one is.
    pub line: Option<usize>,
    /// What happened, in a sentence.
    pub cause: String,
    /// The scenarios of the line blamed (what a missed win was like).
    pub scenarios: Vec<Scenario>,
    /// An input that shows it: the lines up to the one blamed and `term`,
    /// or the input itself when its end is to blame.
    pub example: Vec<u8>,
    /// The program's run of that input.
    pub ran: Ran,
    /// Whether the end of the input is shown to be to blame: the same
    /// input ended by `term` was run and agreed.
    pub end_shown: bool,
}

impl Finding {
    /// A finding grouped by its clause, with no line, scenario or example
    /// yet: what each finding starts from.
    pub fn new(clause: Clause, class: Class, cause: String, ran: Ran) -> Finding {
        Finding {
            clause,
            group: Group::Clause(clause),
            class,
            line: None,
            cause,
            scenarios: Vec::new(),
            example: Vec::new(),
            ran,
            end_shown: false,
        }
    }
}

/// How the program takes `term` alone, learnt once: prefixes end with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TermCheck {
    /// Nothing printed, exit code 1.
    Right,
    /// Nothing printed, another exit code: codes after `term` are not
    /// compared (that one finding is made apart).
    WrongCode(i32),
    /// It hangs, crashes or prints on `term`: no prefix can be tried.
    Unusable,
}

impl TermCheck {
    /// How a run of `term\n` alone came out.
    pub fn of(ran: &Ran) -> TermCheck {
        match ran.end {
            End::Code(1) if ran.stdout.is_empty() => TermCheck::Right,
            End::Code(code) if ran.stdout.is_empty() => TermCheck::WrongCode(code),
            _ => TermCheck::Unusable,
        }
    }
}

/// A way to run the program, and how much may be spent on probes.
pub struct Prober<'a> {
    /// Runs the program on an input (with the expected output, for the
    /// output cap) for at most the given time.
    pub run: &'a (dyn Fn(&[u8], &Expected, Duration) -> Ran + Sync),
    /// The longest a probe may run.
    pub timeout: Duration,
    /// Probes run at once.
    pub jobs: usize,
    /// How the program takes `term`.
    pub term: TermCheck,
    /// No probe starts after this.
    pub deadline: Option<Instant>,
    /// Whether a probe must also end by the deadline (`check`, whose
    /// case costs at most `--timeout`), not only start before it.
    pub end_by_deadline: bool,
}

impl Prober<'_> {
    /// The time a probe started now may take; `None` if none may start.
    fn allowance(&self) -> Option<Duration> {
        let Some(deadline) = self.deadline else {
            return Some(self.timeout);
        };
        let left = deadline.checked_duration_since(Instant::now())?;
        if left.is_zero() {
            return None;
        }
        Some(if self.end_by_deadline {
            self.timeout.min(left)
        } else {
            self.timeout
        })
    }
}

/// How one run compares with the reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Agree,
    Hang,
    Crash,
    Differs,
}

// The braces match the variant whether or not it carries the signal's
// name: the run module is free to add it.
#[allow(clippy::unneeded_struct_pattern)]
fn crashed(end: &End) -> bool {
    matches!(end, End::Signal { .. })
}

fn verdict(term: TermCheck, trace: &Trace, ran: &Ran) -> Verdict {
    if matches!(ran.end, End::TimedOut(_)) {
        return Verdict::Hang;
    }
    if crashed(&ran.end) {
        return Verdict::Crash;
    }
    let code_ok = match ran.end {
        End::Code(code) => {
            code == trace.code
                || (matches!(term, TermCheck::WrongCode(c) if c == code)
                    && trace.stop == Stop::Term)
        }
        _ => false,
    };
    if code_ok && ran.stdout == trace.stdout {
        Verdict::Agree
    } else {
        Verdict::Differs
    }
}

/// The lines the reference read, without their `\n`.
fn read_lines<'i>(input: &'i [u8], trace: &Trace) -> Vec<&'i [u8]> {
    trace.steps.iter().map(|s| &input[s.line.clone()]).collect()
}

/// The first `n` lines, each with its `\n`, then `term`.
pub fn prefix(lines: &[&[u8]], n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for line in &lines[..n] {
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out.extend_from_slice(b"term\n");
    out
}

/// The lines of `input` the reference reads, ended by `term` (the last
/// `term` read, if any, left out): the session as it stands, ended as
/// the assignment ends one.
pub fn ended_by_term(input: &[u8], trace: &Trace) -> Vec<u8> {
    let lines = read_lines(input, trace);
    let m = match trace.stop {
        Stop::Term => lines.len().saturating_sub(1),
        _ => lines.len(),
    };
    prefix(&lines, m)
}

/// A line a program is likeliest to trip on: bytes the assignment does
/// not speak of, a `\r`, or longer than its examples.
fn unusual(line: &[u8]) -> bool {
    line.len() > trace::LONG_LINE
        || line
            .iter()
            .any(|&b| b == b'\r' || !(0x20..0x7f).contains(&b))
}

/// The index of the line a program is likeliest to trip on: the first
/// holding bytes the assignment does not speak of, else the first longer
/// than its examples, else the first with a `\r` or another control byte.
fn likeliest(lines: &[&[u8]]) -> Option<usize> {
    let odd = |l: &&[u8]| !l.iter().all(|&b| trace::assignment_byte(b));
    let long = |l: &&[u8]| l.len() > trace::LONG_LINE;
    lines
        .iter()
        .position(odd)
        .or_else(|| lines.iter().position(long))
        .or_else(|| lines.iter().position(|l| unusual(l)))
}

/// Explains why `ran`, a run of `input`, disagrees with the reference
/// (`trace`); `None` if it agrees.
pub fn diagnose(input: &[u8], trace: &Trace, ran: &Ran, prober: &Prober) -> Option<Finding> {
    if verdict(TermCheck::Right, trace, ran) == Verdict::Agree {
        return None;
    }
    let lines = read_lines(input, trace);
    // `term` is not among the lines tried: each prefix ends with its own.
    let m = match trace.stop {
        Stop::Term => lines.len().saturating_sub(1),
        _ => lines.len(),
    };
    if let TermCheck::WrongCode(code) = prober.term {
        if trace.stop == Stop::Term && ran.stdout == trace.stdout && ran.end == End::Code(code) {
            return Some(term_code(code));
        }
    }
    if prober.term == TermCheck::Unusable {
        return Some(end_finding(input, trace, ran));
    }
    let mut known: BTreeMap<usize, (Verdict, Ran, Trace)> = BTreeMap::new();
    let full = prefix(&lines, m);
    if full == input {
        known.insert(
            m,
            (verdict(prober.term, trace, ran), ran.clone(), trace.clone()),
        );
    }
    let mut first: Vec<usize> = Vec::new();
    if !known.contains_key(&m) {
        first.push(m);
    }
    if let Some(u) = likeliest(&lines[..m]) {
        // Line u + 1 (from 1) is the guess: the prefixes of u and u + 1 lines.
        first.extend([u, u + 1].into_iter().filter(|n| !known.contains_key(n)));
    }
    first.sort_unstable();
    first.dedup();
    probe(&lines, &first, prober, &mut known);
    let disagrees = |known: &BTreeMap<usize, (Verdict, Ran, Trace)>, n: usize| {
        known.get(&n).map(|(v, _, _)| *v != Verdict::Agree)
    };
    match disagrees(&known, m) {
        // Out of time before anything was learnt: a guess from the input.
        None => return Some(without_probes(input, trace, ran)),
        Some(false) => {
            return Some(Finding {
                end_shown: true,
                ..end_finding(input, trace, ran)
            });
        }
        Some(true) => {}
    }
    let (lo, hi) = bisect(&lines, m, prober, &mut known);
    let (v, ran_n, trace_n) = known.get(&hi)?;
    if lo < hi {
        // Out of time: hi is only the shortest prefix known to disagree.
        return Some(guess(&lines, lo, hi, *v, ran_n, trace_n));
    }
    let plain_fails = plain_fails(&lines, hi, *v, prober);
    let f = line_finding(&lines, hi, *v, ran_n, trace_n, plain_fails);
    // Bisection takes a prefix that disagrees to mean every longer one
    // does; a short example has every shorter prefix tried.
    Some(first_wrong_prefix(f, prober))
}

/// The smallest n whose prefix of `lines` disagrees, known to be in
/// `lo..=hi` from `0..=m` (prefix `m` disagrees): each round probes
/// `prober.jobs` prefixes spread evenly over the range left, until it is
/// one prefix (`lo == hi`) or the time is out (`lo < hi`).
fn bisect(
    lines: &[&[u8]],
    m: usize,
    prober: &Prober,
    known: &mut BTreeMap<usize, (Verdict, Ran, Trace)>,
) -> (usize, usize) {
    let (mut lo, mut hi) = (0, m);
    loop {
        hi = known
            .range(lo..=hi)
            .find(|(_, (v, _, _))| *v != Verdict::Agree)
            .map_or(hi, |(&n, _)| n);
        lo = known
            .range(lo..hi)
            .filter(|(_, (v, _, _))| *v == Verdict::Agree)
            .map(|(&n, _)| n + 1)
            .max()
            .unwrap_or(lo);
        if lo >= hi {
            break;
        }
        let width = hi - lo;
        let count = prober.jobs.clamp(1, width);
        // Evenly spread inside lo..hi, cutting it into count + 1 parts:
        // each round divides the range (with one job, in halves), where
        // points from lo on would, with one job, probe lo alone and walk
        // the range a line at a time.
        let points: Vec<usize> = (1..=count)
            .map(|i| lo + i * width / (count + 1))
            .filter(|n| !known.contains_key(n))
            .collect();
        if points.is_empty() || probe(lines, &points, prober, known) < points.len() {
            break;
        }
    }
    (lo, hi)
}

/// For a line blamed for a wrong reply that holds bytes the assignment
/// does not speak of: whether the same start of the session with that
/// line stripped of them still disagrees (`None` if nothing was run).
/// If it does, a rule is broken; if not, the odd bytes alone are to
/// blame, a decision.
fn plain_fails(lines: &[&[u8]], n: usize, v: Verdict, prober: &Prober) -> Option<bool> {
    let line = lines.get(n.checked_sub(1)?)?;
    if v != Verdict::Differs || line.iter().all(|&b| trace::assignment_byte(b)) {
        return None;
    }
    let plain = trace::plain(line);
    let mut changed: Vec<&[u8]> = lines[..n].to_vec();
    changed[n - 1] = &plain;
    let input = prefix(&changed, n);
    let trace = trace::trace(&input);
    let expected = trace.expected();
    let allowed = prober.allowance()?;
    let ran = (prober.run)(&input, &expected, allowed);
    match verdict(prober.term, &trace, &ran) {
        // Cut short by the deadline: nothing learnt.
        Verdict::Hang if allowed < prober.timeout => None,
        v => Some(v != Verdict::Agree),
    }
}

/// The finding when time ran out before the line was narrowed down to
/// one: the prefixes of `lo` lines and fewer agree, that of `hi`
/// disagrees. For a hang or a crash, the first line in between that
/// programs are likeliest to trip on; for output, its first difference.
fn guess(lines: &[&[u8]], lo: usize, hi: usize, v: Verdict, ran: &Ran, trace: &Trace) -> Finding {
    let example = prefix(lines, hi);
    let n = (lo.max(1)..=hi)
        .find(|&n| unusual(lines[n - 1]))
        .unwrap_or(hi)
        .max(1);
    let step = trace.steps.get(n - 1);
    let (clause, class, cause) = match (v, step) {
        (Verdict::Hang | Verdict::Crash, Some(step)) => {
            let (class, what) = match v {
                Verdict::Hang => (Class::Hang, "hangs"),
                _ => (Class::Crash, "crashes"),
            };
            let (from, shown) = (lo.max(1), quoted(lines[n - 1]));
            let cause = format!(
                "{what} on one of lines {from}-{hi}, likeliest line {n}: {shown} (time ran out before the line was found)"
            );
            (stuck_clause(step, lines[n - 1]), class, cause)
        }
        _ => {
            let b = trace::blame(&example, trace, &ran.stdout, run_end(trace, ran));
            let why = ended(ran);
            let cause = format!("{why} (time ran out before the line to blame was found)");
            (b.clause, Class::Output, cause)
        }
    };
    Finding {
        line: Some(n),
        scenarios: step.map(|s| s.scenarios.clone()).unwrap_or_default(),
        example,
        ..Finding::new(clause, class, cause, ran.clone())
    }
}

/// Runs the prefixes of `points` lines, `jobs` at a time, into `known`;
/// how many gave a verdict (fewer when time ran out).
fn probe(
    lines: &[&[u8]],
    points: &[usize],
    prober: &Prober,
    known: &mut BTreeMap<usize, (Verdict, Ran, Trace)>,
) -> usize {
    let mut ran = 0;
    for batch in points.chunks(prober.jobs.max(1)) {
        let Some(allowed) = prober.allowance() else {
            return ran;
        };
        let results: Vec<_> = thread::scope(|scope| {
            let handles: Vec<_> = batch
                .iter()
                .map(|&n| {
                    scope.spawn(move || {
                        let input = prefix(lines, n);
                        let trace = trace::trace(&input);
                        let expected = trace.expected();
                        let got = (prober.run)(&input, &expected, allowed);
                        (n, verdict(prober.term, &trace, &got), got, trace)
                    })
                })
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        for (n, v, got, trace) in results {
            // A probe cut short by the deadline proves no hang: it is as
            // if it had not run.
            if v == Verdict::Hang && allowed < prober.timeout {
                continue;
            }
            known.insert(n, (v, got, trace));
            ran += 1;
        }
    }
    ran
}

/// The finding for a program whose exit code after `term` is wrong.
fn term_code(code: i32) -> Finding {
    let ran = Ran {
        stdout: Vec::new(),
        stderr: Vec::new(),
        end: End::Code(code),
        took: Duration::ZERO,
    };
    let cause = format!("exits with code {code} after `term`, expected 1");
    Finding {
        line: Some(1),
        scenarios: vec![Scenario::TermStart],
        example: b"term\n".to_vec(),
        ..Finding::new(Clause::ExitCodes, Class::Output, cause, ran)
    }
}

/// `line` as reports quote it: escaped, and cut if long.
pub fn quoted(line: &[u8]) -> String {
    format!("`{}`", report::escape(line))
}

/// The first line of `bytes`, quoted; `nothing` when there is none, and
/// never a quote of nothing.
fn first_line(bytes: &[u8]) -> String {
    match first_line_of(bytes) {
        _ if bytes.is_empty() => "nothing".to_owned(),
        b"" => "an empty line".to_owned(),
        line => quoted(line),
    }
}

/// The first line of `bytes`, without its `\n`.
fn first_line_of(bytes: &[u8]) -> &[u8] {
    bytes.split(|&b| b == b'\n').next().unwrap_or_default()
}

/// The first line where `want` and `got` differ, in each.
fn first_differing_lines<'a>(want: &'a [u8], got: &'a [u8]) -> (&'a [u8], &'a [u8]) {
    let (want, got) = from_first_difference(want, got);
    (first_line_of(want), first_line_of(got))
}

/// `want` and `got` from the start of the first line where they differ.
fn from_first_difference<'a>(want: &'a [u8], got: &'a [u8]) -> (&'a [u8], &'a [u8]) {
    let common = want.iter().zip(got).take_while(|(a, b)| a == b).count();
    let start = want[..common]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    (&want[start..], &got[start..])
}

/// The first line of `rest` in words: quoted, or, where quoting would
/// show nothing, an empty line or the end of the output.
fn line_in_words(rest: &[u8]) -> String {
    match first_line_of(rest) {
        _ if rest.is_empty() => "the end of the output".to_owned(),
        b"" => "an empty line".to_owned(),
        line => quoted(line),
    }
}

/// The clause a line's own reply falls under: for an `Invalid!` line,
/// the rule its kind of mistake breaks (a `\r`, a tab, the case, …).
fn line_clause(step: &Step) -> Clause {
    match step.clause {
        Clause::CmdInvalid => step
            .situation()
            .map_or(Clause::CmdInvalid, Scenario::clause),
        clause => clause,
    }
}

/// For a line with bytes the assignment does not speak of, or a long
/// one, whose reply a rule of the assignment decides all the same
/// (`place A1\xff\r` is no command, for the `\r`, whatever the `\xff`
/// is; nor is `place A` and 60 tabs, whatever its length): that rule.
fn rule_beneath(line: &[u8]) -> Option<Clause> {
    let plain = trace::plain(line);
    if plain.is_empty() {
        return None;
    }
    match Command::parse(&plain) {
        Err(ParseCommandError::NotACommand) => trace::invalid_kinds(&plain)
            .first()
            .map(|kind| kind.clause()),
        _ => None,
    }
}

/// The kind of line a program may hang on that can be told from the line
/// alone: bytes the assignment does not speak of, or a long one (as
/// `stuck_clause` names them).
pub fn hang_kind(line: &[u8]) -> Option<Clause> {
    if !line.iter().all(|&b| trace::assignment_byte(b)) {
        Some(Clause::BytesAny)
    } else if line.len() > trace::LONG_LINE {
        Some(Clause::LineLong)
    } else {
        None
    }
}

/// The clause of a line a program hangs or crashes on: what it holds.
fn stuck_clause(step: &Step, line: &[u8]) -> Clause {
    hang_kind(line).unwrap_or_else(|| line_clause(step))
}

/// The finding for a disagreement that began with line `n` (from 1; 0 is
/// the `term` ending every prefix).
fn line_finding(
    lines: &[&[u8]],
    n: usize,
    v: Verdict,
    ran: &Ran,
    trace: &Trace,
    plain_fails: Option<bool>,
) -> Finding {
    let example = prefix(lines, n);
    let Some(step) = n.checked_sub(1).and_then(|i| trace.steps.get(i)) else {
        return term_finding(v, ran, example);
    };
    let blamed = Blamed {
        n,
        line: lines[n - 1],
        step,
        example,
        ran,
        trace,
    };
    let mut f = match v {
        Verdict::Hang => blamed.finding(
            stuck_clause(step, blamed.line),
            Class::Hang,
            format!("hangs after reading line {n}: {}", quoted(blamed.line)),
        ),
        Verdict::Crash => blamed.finding(
            stuck_clause(step, blamed.line),
            Class::Crash,
            format!(
                "crashes on line {n}: {} ({})",
                quoted(blamed.line),
                ended(ran)
            ),
        ),
        Verdict::Agree | Verdict::Differs => blamed.output_finding(plain_fails),
    };
    // A NUL is no whitespace look-alike: a program that takes it for the
    // end of a C string does so in any command, one decision.
    if f.clause == Clause::WsSet && blamed.line.contains(&0) {
        f.clause = Clause::BytesAny;
        f.group = Group::Clause(Clause::BytesAny);
    }
    f
}

/// The finding for a disagreement on the `term` that ends every prefix.
fn term_finding(v: Verdict, ran: &Ran, example: Vec<u8>) -> Finding {
    let (clause, class, cause) = match v {
        Verdict::Hang => (
            Clause::CmdTerm,
            Class::Hang,
            "hangs after reading `term`".to_owned(),
        ),
        Verdict::Crash => (
            Clause::CmdTerm,
            Class::Crash,
            format!("crashes on `term` ({})", ended(ran)),
        ),
        _ if !ran.stdout.is_empty() => (
            Clause::CmdTerm,
            Class::Output,
            format!("prints {} for `term`", first_line(&ran.stdout)),
        ),
        _ => (Clause::ExitCodes, Class::Output, ended(ran)),
    };
    Finding {
        line: Some(1),
        example,
        ..Finding::new(clause, class, cause, ran.clone())
    }
}

/// A line blamed for a disagreement, and the run that showed it.
struct Blamed<'a> {
    /// Its number, from 1.
    n: usize,
    line: &'a [u8],
    step: &'a Step,
    /// The lines up to it, then `term`.
    example: Vec<u8>,
    ran: &'a Ran,
    /// The reference's run of `example`.
    trace: &'a Trace,
}

impl Blamed<'_> {
    fn finding(&self, clause: Clause, class: Class, cause: String) -> Finding {
        Finding {
            line: Some(self.n),
            scenarios: self.step.scenarios.clone(),
            example: self.example.clone(),
            ..Finding::new(clause, class, cause, self.ran.clone())
        }
    }

    /// The finding for a run that exited, its output or code wrong.
    fn output_finding(&self, plain_fails: Option<bool>) -> Finding {
        let (n, shown) = (self.n, quoted(self.line));
        let (expected, got) = (&self.trace.stdout, &self.ran.stdout);
        let start = self.step.reply.start;
        let reply = &expected[self.step.reply.clone()];
        if got.get(..start) != Some(&expected[..start]) {
            // The replies before it changed from one run to the next.
            let end = run_end(self.trace, self.ran);
            let b = trace::blame(&self.example, self.trace, got, end);
            let cause = format!("line {n}: {shown}: replies before it differ from the last run");
            return self.finding(b.clause, Class::Output, cause);
        }
        let rest = &got[start..];
        if rest == reply {
            // Every reply right: the exit code is not.
            let (clause, what) = if self.trace.ended() {
                (Clause::ExitCodes, "after the game ended")
            } else {
                (line_clause(self.step), "at `term` after it")
            };
            let cause = format!("line {n}: {shown}: {} {what}", ended(self.ran));
            return self.finding(clause, Class::Output, cause);
        }
        match rest.strip_prefix(reply) {
            Some(extra) => self.extra_output(reply, extra),
            None => self.wrong_reply(reply, rest, plain_fails),
        }
    }

    /// The finding for a right reply followed by output none is due.
    fn extra_output(&self, reply: &[u8], extra: &[u8]) -> Finding {
        let (n, shown) = (self.n, quoted(self.line));
        if reply.is_empty() && self.step.clause == Clause::CmdPlace {
            let extra_line = first_line_of(extra);
            return self.finding(
                trace::spurious(extra_line).unwrap_or(Clause::CmdPlace),
                Class::Extra,
                format!(
                    "line {n}: {shown} places a stone, silently, but the program printed {}",
                    first_line(extra)
                ),
            );
        }
        let what = if reply.is_empty() {
            "no reply is due"
        } else {
            "one reply is due"
        };
        self.finding(
            line_clause(self.step),
            Class::Output,
            format!(
                "line {n}: {shown}: {what}, but the program printed {} too",
                first_line(extra)
            ),
        )
    }

    /// The finding for a reply that differs (`rest` is the program's
    /// output from where the reply is due).
    fn wrong_reply(&self, reply: &[u8], rest: &[u8], plain_fails: Option<bool>) -> Finding {
        let (n, shown) = (self.n, quoted(self.line));
        let clause = self.wrong_reply_clause(reply, rest, plain_fails);
        let (want_rest, got_rest) = from_first_difference(reply, rest);
        let cause = if rest.is_empty() {
            format!(
                "no reply to line {n}: {shown}; expected {}",
                first_line(reply)
            )
        } else {
            format!(
                "line {n}: {shown}: expected {}, got {}",
                line_in_words(want_rest),
                line_in_words(got_rest)
            )
        };
        let mut f = self.finding(clause, Class::Output, cause);
        let wins = [Clause::WinLine, Clause::WinOverline, Clause::TieWinFirst];
        let win_missed = wins.contains(&clause)
            && reply.ends_with(text::THANKS)
            && !rest.starts_with(first_line_of(reply));
        if win_missed {
            f.group = Group::WinMissed;
        }
        let kinds = trace::invalid_kinds(&trace::plain(self.line));
        if reply == text::INVALID
            && matches!(clause, Clause::LineSplit | Clause::Ws | Clause::CmdExact)
            && kinds.first().is_some_and(|k| WHITESPACE_KINDS.contains(k))
        {
            f.group = Group::Whitespace;
            f.scenarios = kinds;
        }
        f
    }

    /// The clause of a reply that differs: the line's, or what the first
    /// difference shows is broken.
    fn wrong_reply_clause(&self, reply: &[u8], rest: &[u8], plain_fails: Option<bool>) -> Clause {
        let (step, line) = (self.step, self.line);
        let got = &self.ran.stdout;
        let b = trace::blame(
            &self.example,
            self.trace,
            got,
            run_end(self.trace, self.ran),
        );
        let mut clause = if b.line == Some(self.n) {
            b.clause
        } else {
            line_clause(step)
        };
        let (want_line, got_line) = first_differing_lines(reply, rest);
        if reply.ends_with(text::THANKS) && want_line != first_line_of(reply) {
            // The result is right, the history under it is not: printed
            // wrong, or the block stops short of it (the output ends, or
            // the thanks come at once), which is the block's own rule.
            let (_, got_rest) = from_first_difference(reply, rest);
            let short = got_rest.is_empty() || got_rest.starts_with(text::THANKS);
            clause = if short {
                Clause::EndBlock
            } else {
                Clause::CmdHistory
            };
        }
        if trace::MIST.contains(&step.clause) && !got_line.contains(&b',') {
            // No hole at all where one is due: `view` itself.
            clause = Clause::CmdView;
        }
        if clause == Clause::CmdInvalid {
            clause = line_clause(step);
        }
        // A `place` whose parameter holds a tab, `\r`, `\v` or `\f` (and
        // no space) taken for a command: whatever the byte, the program
        // does not take it for whitespace. A last `\r` dropped as a line
        // ending is LINE-SPLIT only where its hint (`Hint::CrDropped`)
        // stands, its controls run on the program.
        if reply == text::INVALID
            && Clause::ODD_SPACE.contains(&clause)
            && trace::odd_space_param(line).is_some()
        {
            clause = Clause::Ws;
        }
        if clause == Clause::LineLong {
            // A reply wrong (not split in two) on a line no command could be
            // whatever its length: the rule that makes it none.
            clause = rule_beneath(line).unwrap_or(clause);
        }
        if matches!(clause, Clause::BytesAny | Clause::WsSet) {
            match plain_fails {
                // Without its odd bytes the line fails too: a rule is broken.
                Some(true) => clause = rule_beneath(line).unwrap_or_else(|| line_clause(step)),
                // Only the odd bytes make it fail (a NUL read as the end of a
                // C string, say): one decision, whichever command it was in.
                _ if line.contains(&0) => clause = Clause::BytesAny,
                _ => {}
            }
        }
        clause
    }
}

/// How a run ended, in words.
fn ended(ran: &Ran) -> String {
    match &ran.end {
        End::Code(code) => format!("exit code {code}"),
        End::TimedOut(limit) => format!("still running after {limit:?}"),
        End::TooMuchOutput(cap) => format!("more than {cap} bytes of output"),
        End::CannotStart(why) => format!("cannot start: {why}"),
        _ => report::summary(
            &Expected {
                stdout: Vec::new(),
                code: 0,
            },
            ran,
        )
        .to_owned(),
    }
}

fn run_end(trace: &Trace, ran: &Ran) -> RunEnd {
    match &ran.end {
        End::Code(code) if *code == trace.code => RunEnd::Right,
        End::TimedOut(_) => RunEnd::Hung,
        _ => RunEnd::WrongCode,
    }
}

/// The finding for a run whose every prefix ended by `term` agrees: the
/// end of its input is to blame (no `term`, no final newline, nothing at
/// all), or what follows the end of the game.
pub fn end_finding(input: &[u8], trace: &Trace, ran: &Ran) -> Finding {
    let class = if matches!(ran.end, End::TimedOut(_)) {
        Class::Hang
    } else if crashed(&ran.end) {
        Class::Crash
    } else {
        Class::Output
    };
    // What a killed program printed may be lost: only its end counts.
    let got = if class == Class::Output {
        &ran.stdout
    } else {
        &trace.stdout
    };
    let b = trace::blame(input, trace, got, run_end(trace, ran));
    let clause = end_clause(input, trace, ran, b.clause);
    let cause = end_cause(input, trace, ran, class);
    use Clause::{LineFinalNl, LineLong, LineNoNl, LineSplit};
    // A clause of how lines are read: the line is named.
    let of_lines = [LineSplit, LineNoNl, LineFinalNl, LineLong].contains(&clause);
    let line = match clause {
        // The last line, which has no newline, whatever the first
        // difference was blamed on.
        LineNoNl => trace.steps.last(),
        _ => b.line.and_then(|n| trace.steps.get(n - 1)),
    };
    let cause = match line {
        Some(step) if class == Class::Output && of_lines => format!(
            "line {}: {}: {cause}",
            step.number,
            quoted(&input[step.line.clone()])
        ),
        _ => cause,
    };
    Finding {
        scenarios: trace.session.clone(),
        example: input.to_vec(),
        ..Finding::new(clause, class, cause, ran.clone())
    }
}

/// The clause of a disagreement at the end of the input, from the one
/// the first difference is blamed on.
fn end_clause(input: &[u8], trace: &Trace, ran: &Ran, blamed: Clause) -> Clause {
    use Clause::*;
    let stuck = matches!(ran.end, End::TimedOut(_)) || crashed(&ran.end);
    let endless = stuck || matches!(ran.end, End::TooMuchOutput(_));
    let last_unended = !input.is_empty() && !input.ends_with(b"\n");
    if endless && (trace.stop == Stop::EndOfInput || last_unended) {
        // Output without end, or no end at all, once the input ends (with
        // or without a final newline, after a last line or not): one
        // cause, the end of the input.
        Clause::EofExit
    } else if last_unended
        && ([ExitCodes, TermStop, CmdTerm, LineLong, BytesAny, WsSet].contains(&blamed)
            || last_reply_wrong(trace, ran))
    {
        // The same line with a newline after it was answered right (every
        // start of the input ended by `term` agrees): what is wrong is the
        // last line without one, `term` or any other.
        Clause::LineNoNl
    } else {
        blamed
    }
}

/// Whether `ran` exited with every reply right up to the last line's,
/// and that one wrong: what the last line alone gets wrong (a spurious
/// `Invalid!` there is not the silent `place` before it).
fn last_reply_wrong(trace: &Trace, ran: &Ran) -> bool {
    let common = (trace.stdout.iter().zip(&ran.stdout))
        .take_while(|(a, b)| a == b)
        .count();
    matches!(ran.end, End::Code(_))
        && ran.stdout != trace.stdout
        && trace.steps.last().is_some_and(|s| common >= s.reply.start)
}

/// What happened at the end of the input, in a sentence.
fn end_cause(input: &[u8], trace: &Trace, ran: &Ran, class: Class) -> String {
    match (class, trace.stop) {
        (Class::Hang, Stop::EndOfInput) if !input.is_empty() => {
            "still running at end of input: the input ends without `term`, and the program waits for more".to_owned()
        }
        (Class::Hang, Stop::EndOfInput) => "still running on an empty input".to_owned(),
        (Class::Hang, Stop::Ended(_)) => "still running after the game ended".to_owned(),
        (Class::Hang, Stop::Term) => "still running after `term`".to_owned(),
        (Class::Crash, _) => format!("crashes at end of input ({})", ended(ran)),
        // What differs, in words: the diff's own first line says only
        // where.
        _ if matches!(ran.end, End::Code(_)) && ran.stdout != trace.stdout => {
            let (want, got) = from_first_difference(&trace.stdout, &ran.stdout);
            format!(
                "expected {}, got {}",
                line_in_words(want),
                line_in_words(got)
            )
        }
        _ => match report::compare(&trace.expected(), ran) {
            Some(detail) => detail.lines().next().unwrap_or_default().trim().to_owned(),
            None => "agreed when run again".to_owned(),
        },
    }
}

/// For a run that hung: the finding of a group already found, if the
/// input holds a line of the kind that group hangs on (`clauses`, by
/// `stuck_clause`), without running anything more: one cause, one
/// group, and no probe paying the timeout again.
pub fn known_hang(input: &[u8], trace: &Trace, ran: &Ran, clauses: &[Clause]) -> Option<Finding> {
    if !matches!(ran.end, End::TimedOut(_)) {
        return None;
    }
    let lines = read_lines(input, trace);
    let n = trace.steps.iter().zip(&lines).position(|(step, line)| {
        trace.stop != Stop::Term || step.number < trace.steps.len()
    } && clauses.contains(&stuck_clause(step, line)))? + 1;
    let step = &trace.steps[n - 1];
    let clause = stuck_clause(step, lines[n - 1]);
    Some(Finding {
        line: Some(n),
        scenarios: step.scenarios.clone(),
        example: prefix(&lines, n),
        ..Finding::new(
            clause,
            Class::Hang,
            format!("hangs after reading line {n}: {}", quoted(lines[n - 1])),
            ran.clone(),
        )
    })
}

/// For a run that hung, when no probe can be afforded (`check`, whose
/// case has spent its `--timeout`, or `fuzz` out of time): the end of the
/// input if the reference reached it, otherwise the first line a program
/// is likeliest to hang on, or else `term` or the game's end.
pub fn without_probes(input: &[u8], trace: &Trace, ran: &Ran) -> Finding {
    if trace.stop == Stop::EndOfInput || !matches!(ran.end, End::TimedOut(_)) {
        return end_finding(input, trace, ran);
    }
    let lines = read_lines(input, trace);
    let Some(i) = lines.iter().position(|l| unusual(l)) else {
        return end_finding(input, trace, ran);
    };
    let (n, step) = (i + 1, &trace.steps[i]);
    let clause = stuck_clause(step, lines[i]);
    Finding {
        line: Some(n),
        scenarios: step.scenarios.clone(),
        example: input.to_vec(),
        ..Finding::new(
            clause,
            Class::Hang,
            format!(
                "still running, though its input ends with `term` or the game's end: likeliest it hangs on line {n}: {}",
                quoted(lines[i])
            ),
            ran.clone(),
        )
    }
}

/// The finding for a candidate of a shrink whose culprit is its last
/// line: `body` (lines, each ended by `\n`) then `term`. `None` if it
/// agrees, or if the reference does not read its last line.
pub fn last_line_finding(body: &[u8], prober: &Prober) -> Option<Finding> {
    if !body.is_empty() && !body.ends_with(b"\n") {
        return None;
    }
    let lines: Vec<&[u8]> = body
        .split_inclusive(|&b| b == b'\n')
        .map(|l| &l[..l.len() - 1])
        .collect();
    let input = prefix(&lines, lines.len());
    let trace = trace::trace(&input);
    let read = match trace.stop {
        Stop::Term => trace.steps.len().saturating_sub(1),
        _ => trace.steps.len(),
    };
    if read != lines.len() {
        return None;
    }
    let expected = trace.expected();
    let allowed = prober.allowance()?;
    let ran = (prober.run)(&input, &expected, allowed);
    let v = verdict(prober.term, &trace, &ran);
    if v == Verdict::Agree {
        return None;
    }
    // The replies before the last line must be right, or the last line
    // is not what is to blame.
    if let Some(n) = lines.len().checked_sub(1) {
        let before = prefix(&lines, n);
        let before_trace = trace::trace(&before);
        let want = before_trace.expected();
        let allowed = prober.allowance()?;
        let ran_before = (prober.run)(&before, &want, allowed);
        if verdict(prober.term, &before_trace, &ran_before) != Verdict::Agree {
            return None;
        }
    }
    let plain_fails = plain_fails(&lines, lines.len(), v, prober);
    Some(line_finding(
        &lines,
        lines.len(),
        v,
        &ran,
        &trace,
        plain_fails,
    ))
}

/// Prefixes are all tried, shortest first, only for an example of at
/// most this many lines: every case the kit makes is shorter (a full
/// board is 361 stones and a few lines), and the walk stops at the first
/// prefix that disagrees, so a run a line is spent only on lines that
/// are right.
pub const WALK_ALL: usize = 400;

/// `f`, a finding blamed on the last line of its example (lines ended by
/// `term`), blamed instead on the first line whose prefix disagrees,
/// every shorter prefix tried: shrinking checks only the prefix one line
/// shorter, and a program can go wrong on line 1 (a NUL that makes it
/// swallow the next line) yet agree on lines 1 and 2, where line 2 needs
/// no reply. Unchanged when no shorter prefix disagrees, or the example
/// is longer than [`WALK_ALL`] lines, or time is out.
pub fn first_wrong_prefix(f: Finding, prober: &Prober) -> Finding {
    let Some(body) = f.example.strip_suffix(b"term\n") else {
        return f;
    };
    if !(body.is_empty() || body.ends_with(b"\n")) {
        return f;
    }
    let lines: Vec<&[u8]> = body
        .split_inclusive(|&b| b == b'\n')
        .map(|l| &l[..l.len() - 1])
        .collect();
    let n = lines.len();
    if f.line != Some(n) || !(2..=WALK_ALL).contains(&n) {
        return f;
    }
    let mut known = BTreeMap::new();
    let points: Vec<usize> = (1..n).collect();
    for round in points.chunks(prober.jobs.max(1)) {
        let wrong = |known: &BTreeMap<usize, (Verdict, Ran, Trace)>| {
            known.values().any(|(v, _, _)| *v != Verdict::Agree)
        };
        if probe(&lines, round, prober, &mut known) < round.len() || wrong(&known) {
            break;
        }
    }
    // Only a prefix every shorter one of which was run: one cut short by
    // the time may be where it goes wrong.
    let first = known
        .iter()
        .enumerate()
        .take_while(|(i, (k, _))| **k == i + 1)
        .map(|(_, entry)| entry)
        .find(|(_, (v, _, _))| *v != Verdict::Agree);
    match first {
        Some((&k, (v, ran, trace))) => {
            let plain_fails = plain_fails(&lines, k, *v, prober);
            line_finding(&lines, k, *v, ran, trace, plain_fails)
        }
        None => f,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(
        program: impl Fn(&[u8]) -> (Vec<u8>, End) + Sync,
    ) -> impl Fn(&[u8], &Expected, Duration) -> Ran + Sync {
        move |input, _, _| {
            let (stdout, end) = program(input);
            Ran {
                stdout,
                stderr: Vec::new(),
                end,
                took: Duration::ZERO,
            }
        }
    }

    /// A program, as a function from its input to its output and end.
    type Program = dyn Fn(&[u8]) -> (Vec<u8>, End) + Sync;

    fn diagnosed(input: &[u8], program: &Program) -> Option<Finding> {
        let run = runs(program);
        let prober = Prober {
            run: &run,
            timeout: Duration::from_secs(1),
            jobs: 3,
            term: TermCheck::Right,
            deadline: None,
            end_by_deadline: false,
        };
        let trace = trace::trace(input);
        let first = run(
            input,
            &Expected {
                stdout: Vec::new(),
                code: 0,
            },
            prober.timeout,
        );
        diagnose(input, &trace, &first, &prober)
    }

    /// The reference, but hung (with nothing printed) once it has read a
    /// line holding a NUL.
    fn hangs_on_nul(input: &[u8]) -> (Vec<u8>, End) {
        match input.split(|&b| b == b'\n').position(|l| l.contains(&0)) {
            Some(_) => (Vec::new(), End::TimedOut(Duration::from_secs(1))),
            None => {
                let t = trace::trace(input);
                (t.stdout, End::Code(t.code))
            }
        }
    }

    /// The reference, but its end block stops after its first line (an
    /// early `return` on `resign`), or has no history line.
    fn block_cut(input: &[u8], keep_thanks: bool) -> (Vec<u8>, End) {
        let t = trace::trace(input);
        let mut out = t.stdout.clone();
        let Some(at) = out.windows(4).position(|w| w == b"ins!") else {
            return (out, End::Code(t.code));
        };
        out.truncate(at + 5);
        if keep_thanks {
            out.extend_from_slice(text::THANKS);
        }
        (out, End::Code(t.code))
    }

    #[test]
    fn an_end_block_cut_short_is_the_blocks_rule_and_a_wrong_history_line_the_historys() {
        fn blamed(program: &Program) -> ((Clause, Option<usize>), String) {
            let f = diagnosed(b"place A1\nresign\n", program).expect("it disagrees");
            ((f.clause, f.line), f.cause)
        }
        for keep_thanks in [false, true] {
            let (got, cause) = blamed(&move |i: &[u8]| block_cut(i, keep_thanks));
            assert_eq!(got, (Clause::EndBlock, Some(2)), "{cause}");
        }
        // A history line printed wrong is the history's.
        let wrong = |i: &[u8]| {
            let t = trace::trace(i);
            let mut out = t.stdout.clone();
            if let Some(at) = out.windows(3).rposition(|w| w == b"A1\n") {
                out[at + 1] = b'2';
            }
            (out, End::Code(t.code))
        };
        let (got, cause) = blamed(&wrong);
        assert_eq!(got, (Clause::CmdHistory, Some(2)), "{cause}");
    }

    #[test]
    fn a_hang_is_blamed_on_the_line_it_hangs_on() {
        let input = b"who\nview\nplace A1\nhistory\nwho\0x\nview\nwho\n";
        let f = diagnosed(input, &hangs_on_nul).expect("it disagrees");
        assert_eq!(
            (f.clause, f.class, f.line),
            (Clause::BytesAny, Class::Hang, Some(5))
        );
        assert_eq!(f.cause, "hangs after reading line 5: `who\\x00x`");
        assert_eq!(f.example, b"who\nview\nplace A1\nhistory\nwho\0x\nterm\n");
    }

    /// The reference, but a line ending in `\r` is read without it.
    fn strips_cr(input: &[u8]) -> (Vec<u8>, End) {
        let fixed: Vec<u8> = input
            .split_inclusive(|&b| b == b'\n')
            .flat_map(|l| {
                l.strip_suffix(b"\r\n")
                    .map_or(l.to_vec(), |s| [s, b"\n"].concat())
            })
            .collect();
        let t = trace::trace(&fixed);
        (t.stdout, End::Code(t.code))
    }

    #[test]
    fn a_missing_reply_is_blamed_on_its_line_not_the_next() {
        let input = b"place A1\nplace M5\r\nwho\nview\nhistory\nterm\n";
        let f = diagnosed(input, &strips_cr).expect("it disagrees");
        // A whitespace byte let into a parameter: only the hint's controls,
        // run on the program, can show the `\r` was taken for a line
        // ending (LINE-SPLIT; see `hint::Hint::clause`).
        assert_eq!(
            (f.clause, f.class, f.line),
            (Clause::Ws, Class::Output, Some(2))
        );
        assert_eq!(
            f.cause,
            "no reply to line 2: `place M5\\r`; expected `Invalid!`"
        );
    }

    /// The reference, but a line holding a NUL makes it swallow the line
    /// after it, and it exits 0 at end of input.
    fn nul_swallows_next(input: &[u8]) -> (Vec<u8>, End) {
        let mut kept: Vec<u8> = Vec::new();
        let mut skip = false;
        for line in input.split_inclusive(|&b| b == b'\n') {
            if std::mem::take(&mut skip) {
                continue;
            }
            skip = line.contains(&0);
            kept.extend_from_slice(line);
        }
        let t = trace::trace(&kept);
        let code = if t.stop == Stop::EndOfInput {
            0
        } else {
            t.code
        };
        (t.stdout, End::Code(code))
    }

    #[test]
    fn every_shorter_prefix_is_tried_before_the_last_line_is_blamed() {
        let run = runs(&nul_swallows_next);
        let prober = Prober {
            run: &run,
            timeout: Duration::from_secs(1),
            jobs: 2,
            term: TermCheck::Right,
            deadline: None,
            end_by_deadline: false,
        };
        // Line 3 fails and the prefix of 2 lines agrees (the swallowed
        // `place` needs no reply), so shrinking blames line 3; but the
        // prefix of line 1 alone fails too: its `term` is swallowed.
        let body = b"who\x00\nplace A1\nhistory\n";
        let f = last_line_finding(body, &prober).expect("line 3 fails");
        assert_eq!(f.line, Some(3));
        let f = first_wrong_prefix(f, &prober);
        assert_eq!(
            (f.line, f.clause),
            (Some(1), Clause::BytesAny),
            "{}",
            f.cause
        );
        assert_eq!(f.example, b"who\x00\nterm\n");
        // A NUL line far above the line blamed, in a case of 40 moves
        // (shrinking cut short by the time): every prefix is walked,
        // shortest first, and the walk stops at the NUL line's.
        // No two stones touch: no line, and only `who` at the end shows
        // the turn that the swallowed `place S1` changed.
        let moves: Vec<u8> = (1..=19)
            .step_by(2)
            .flat_map(|row| ["A", "C", "E", "G"].map(|c| format!("place {c}{row}\n")))
            .flat_map(String::into_bytes)
            .collect();
        let body = [b"who\nhi\x00story\nplace S1\n".as_slice(), &moves, b"who\n"].concat();
        let f = last_line_finding(&body, &prober).expect("the turn changes");
        assert!(f.line > Some(32), "{:?}: {}", f.line, f.cause);
        let f = first_wrong_prefix(f, &prober);
        assert_eq!(
            (f.line, f.clause),
            (Some(2), Clause::BytesAny),
            "{}",
            f.cause
        );
        assert_eq!(f.example, b"who\nhi\x00story\nterm\n");
    }

    #[test]
    fn a_last_line_without_newline_answered_wrongly_is_that_decision_on_that_line() {
        // `strcmp(line, "who\n")`: `who` without its newline is not `who`.
        let needs_newline = |input: &[u8]| {
            let fixed = match input.strip_suffix(b"who") {
                Some(head) => [head, b"whom"].concat(),
                None => input.to_vec(),
            };
            let t = trace::trace(&fixed);
            (t.stdout, End::Code(t.code))
        };
        let f = diagnosed(b"place A1\nwho", &needs_newline).expect("it disagrees");
        assert_eq!(
            (f.clause, f.class),
            (Clause::LineNoNl, Class::Output),
            "{}",
            f.cause
        );
        assert_eq!(f.cause, "line 2: `who`: expected `W`, got `Invalid!`");
    }

    #[test]
    fn a_hang_only_at_end_of_input_is_the_decision() {
        let hangs_at_end = |input: &[u8]| {
            let t = trace::trace(input);
            match t.stop {
                Stop::EndOfInput => (Vec::new(), End::TimedOut(Duration::from_secs(1))),
                _ => (t.stdout, End::Code(t.code)),
            }
        };
        let f = diagnosed(b"who\nplace A1\n", &hangs_at_end).expect("it disagrees");
        assert_eq!(
            (f.clause, f.class, f.line),
            (Clause::EofExit, Class::Hang, None)
        );
    }
}
