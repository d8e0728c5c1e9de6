//! Text, for a person: `check`'s line a case and its diffs, `fuzz`'s
//! groups with their examples, `cover`'s table. Each function writes one
//! part of a report from the model, so that a long run shows each case or
//! group as soon as it is known.

use std::io::{self, Write};
use std::time::Duration;

use super::{SHOWN_LINES, escape_lines};
use crate::conform::clause::{self, Clause};
use crate::conform::model::{CaseResult, Checked, Covered, FuzzFinding, Fuzzed, Verdict};

/// The note on a case whose expected output depends on `decisions`.
fn depends(decisions: &[Clause]) -> String {
    format!(
        "(depends on this contract's decisions: {})",
        clause::ids(decisions)
    )
}

/// One case of `check`: `pass`, `FAIL` with the clause and the diff, or
/// `skip` with why.
pub fn check_case(out: &mut dyn Write, case: &CaseResult) -> io::Result<()> {
    let path = &case.path;
    match case.verdict {
        Verdict::Pass if case.decisions.is_empty() => writeln!(out, "pass  {path}"),
        // A program that decided otherwise where the assignment is silent
        // would fail this case without breaking any rule: say so.
        Verdict::Pass => writeln!(out, "pass  {path} {}", depends(&case.decisions)),
        Verdict::Fail => {
            write!(out, "FAIL  {path}: {}", case.reason)?;
            if let (Some(id), Some(kind)) = (case.clause, case.kind) {
                // "Wrong" or "decided differently", by the clause blamed.
                write!(out, " [{id}: {}]", kind.phrase())?;
            }
            if case.on_decision() {
                write!(out, " {}", depends(&case.decisions))?;
            }
            write!(out, "\n{}", case.detail)?;
            likely_cause(out, case.hint.as_deref())
        }
        Verdict::Skip => writeln!(out, "skip  {path}: {}", case.reason),
    }
}

/// A finding's hint, if it has one, on a line of its own.
fn likely_cause(out: &mut dyn Write, hint: Option<&str>) -> io::Result<()> {
    match hint {
        Some(hint) => writeln!(out, "  likely cause: {hint}"),
        None => Ok(()),
    }
}

/// `check`'s last line: `N passed, M failed[, K skipped]`, after a note
/// when nothing at all was checked.
pub fn check_totals(out: &mut dyn Write, checked: &Checked) -> io::Result<()> {
    if checked.passed + checked.failed == 0 {
        let why = if checked.cases.is_empty() {
            "no case found"
        } else {
            "every case was skipped"
        };
        writeln!(out, "nothing was checked: {why}")?;
    }
    write!(out, "{} passed, {} failed", checked.passed, checked.failed)?;
    if checked.skipped > 0 {
        write!(out, ", {} skipped", checked.skipped)?;
    }
    writeln!(out)
}

/// `cover`'s table: each scenario, its clause and the first case that
/// covers it, or an example that would.
pub fn cover(out: &mut dyn Write, covered: &Covered) -> io::Result<()> {
    writeln!(out, "{:<24}{:<16}covered by", "scenario", "clause")?;
    for s in &covered.scenarios {
        let by = match &s.covered_by {
            Some(path) => path.clone(),
            None => format!("not covered; e.g. {}", s.example),
        };
        writeln!(out, "{:<24}{:<16}{by}", s.id, s.clause)?;
    }
    if covered.cases == 0 {
        writeln!(out, "no case was read: nothing is covered")?;
    }
    writeln!(
        out,
        "covered {} of {} scenarios",
        covered.covered, covered.total
    )
}

/// A group's heading as `mark` lists it: `[N] CLAUSE (kind): title:
/// cause; K failing cases, first case I`.
pub fn finding_heading(number: usize, f: &FuzzFinding) -> String {
    format!(
        "[{number}] {} ({}): {}: {}; {}, first case {}",
        f.clause,
        f.kind.phrase(),
        f.title,
        f.cause,
        failing_cases(f.cases),
        f.first_case
    )
}

fn failing_cases(n: u64) -> String {
    format!("{n} failing case{}", if n == 1 { "" } else { "s" })
}

/// One group of `fuzz`, numbered from 1: its clause, cause, example and
/// how the program's run differs.
pub fn finding(out: &mut dyn Write, number: usize, f: &FuzzFinding) -> io::Result<()> {
    writeln!(
        out,
        "\n[{number}] {} ({}): {}",
        f.clause,
        f.kind.phrase(),
        f.title
    )?;
    writeln!(
        out,
        "  {}; {}, first case {}",
        f.cause,
        failing_cases(f.cases),
        f.first_case
    )?;
    likely_cause(out, f.hint.as_deref())?;
    if !f.also.is_empty() {
        writeln!(
            out,
            "  the same cause breaks {} too: its cases are counted here",
            clause::ids(&f.also)
        )?;
    }
    if !f.shared.is_empty() {
        writeln!(out, "  what all its cases share: {}", f.shared.join("; "))?;
    }
    let s = &f.shrunk;
    writeln!(
        out,
        "  shrunk from {} lines ({} bytes) to {} lines ({} bytes) in {} runs, {:.1} s{}",
        s.from_lines,
        s.from_bytes,
        s.lines,
        s.bytes,
        s.runs,
        s.seconds,
        if f.shrink_cut_short {
            " (time or runs spent: the smallest case so far; it may shrink further)"
        } else {
            ""
        },
    )?;
    writeln!(out, "  input:")?;
    write!(out, "{}", escape_lines(&f.input, "    | ", SHOWN_LINES))?;
    writeln!(out, "  differs: {}", f.differs)?;
    for line in f.detail.lines() {
        writeln!(out, "  {line}")?;
    }
    writeln!(out, "  written as {}", f.file)
}

/// The first line of `fuzz`'s report: the program and the seed.
pub fn fuzz_start(
    out: &mut dyn Write,
    program: &str,
    seed: u64,
    assignment_only: bool,
) -> io::Result<()> {
    let only = if assignment_only {
        ", the assignment's rules only"
    } else {
        ""
    };
    writeln!(out, "fuzzing {program} with seed {seed}{only}")?;
    out.flush()
}

/// The line once the cases are made: how many, how fast, on how many
/// workers, and what share of their time went to generating, to the
/// reference and to the program (`spent`, in that order).
pub fn fuzz_rate(
    out: &mut dyn Write,
    cases: u64,
    took: Duration,
    workers: usize,
    spent: [Duration; 3],
) -> io::Result<()> {
    let busy = spent.iter().sum::<Duration>().as_secs_f64().max(1e-9);
    let [generating, reference, program] = spent.map(|d| 100.0 * d.as_secs_f64() / busy);
    writeln!(
        out,
        "{cases} cases in {:.1} s: {:.0} cases/s on {workers} workers (of their time: generating {generating:.1}%, reference {reference:.1}%, program {program:.1}%)",
        took.as_secs_f64(),
        cases as f64 / took.as_secs_f64().max(1e-9),
    )
}

/// The verdict of a fuzzing, in a line: why nothing was checked, `0
/// failures`, or how many failures in how many groups of each kind.
pub fn fuzz_verdict(f: &Fuzzed) -> String {
    if let Some(why) = &f.cannot_start {
        format!("cannot start the program: {why}")
    } else if f.cases == 0 {
        "no case was run: nothing was checked".to_owned()
    } else if f.findings.is_empty() {
        "0 failures".to_owned()
    } else {
        format!(
            "{} failures in {} groups: {} of the assignment's rules, {} of this contract's decisions",
            f.failures, f.groups, f.rules, f.decisions
        )
    }
}

/// The end of `fuzz`'s report, after its groups: the cases that did not
/// disagree again, how to run the findings again, and the verdict.
pub fn fuzz_end(out: &mut dyn Write, f: &Fuzzed) -> io::Result<()> {
    let ran = f.cannot_start.is_none() && f.cases > 0;
    if ran && !f.not_reproducible.is_empty() {
        let cases: Vec<String> = f
            .not_reproducible
            .iter()
            .map(|c| c.case.to_string())
            .collect();
        writeln!(
            out,
            "\nnot reproducible, not counted: case{} {} disagreed once and agreed when run again (a program that is not deterministic, or a machine too busy for --timeout?)",
            if cases.len() == 1 { "" } else { "s" },
            cases.join(", ")
        )?;
    }
    if ran && f.findings.is_empty() {
        writeln!(out, "no disagreement")?;
    } else if ran {
        writeln!(
            out,
            "\nrun them again with: gomoku-mist check --program {} {}",
            super::quote(&f.program),
            super::quote(&f.out),
        )?;
    }
    writeln!(out, "{}", fuzz_verdict(f))
}

/// What `mark --gradescope-autograder` prints once the zip is written.
pub fn autograder_written(zip: &std::path::Path, bytes: u64, suite_files: usize) -> String {
    let suite = match suite_files {
        0 => "the suite built into this program".to_owned(),
        1 => "the --tests folder (1 file)".to_owned(),
        n => format!("the --tests folder ({n} files)"),
    };
    format!(
        "wrote {} ({:.1} MB): setup.sh, run_autograder, this program and {suite};\n\
         upload it as the autograder of a programming assignment on Gradescope,\n\
         on Ubuntu 22.04 or later (docs/marking.md, \"As a Gradescope autograder\")\n",
        super::shown_path(zip),
        bytes as f64 / 1e6,
    )
}

/// A time in the words of a progress line: `45 s`, `12 min 5 s`,
/// `3 h 20 min`.
pub fn duration_words(d: std::time::Duration) -> String {
    let s = d.as_secs() + u64::from(d.subsec_nanos() >= 500_000_000);
    match s {
        0..60 => format!("{s} s"),
        60..3600 if s % 60 == 0 => format!("{} min", s / 60),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ if s / 60 % 60 == 0 => format!("{} h", s / 3600),
        _ => format!("{} h {} min", s / 3600, s / 60 % 60),
    }
}

/// The line before a class is marked: how long a submission can take at
/// worst, and of what.
pub fn budget(b: &crate::conform::model::Budget, submissions: usize, at_once: usize) -> String {
    let words = duration_words;
    let mut parts = vec![
        format!("compiling {} (twice at worst)", words(b.compile)),
        format!("{} cases × {}", b.cases, words(b.timeout)),
    ];
    if !b.fuzz.is_zero() {
        parts.push(format!("fuzzing {}", words(b.fuzz)));
    }
    if b.memory_cases > 0 {
        parts.push(format!(
            "{} memory runs × {}",
            b.memory_cases,
            words(b.memory_run)
        ));
    }
    let each = if submissions == 1 {
        "1 submission".to_owned()
    } else {
        format!("{submissions} submissions, {at_once} at a time, each")
    };
    let sessions = match b.fuzz_sessions {
        Some(n) => format!("; and fuzzing {n} sessions, as long as they take"),
        None => String::new(),
    };
    format!(
        "marking {each} within {} at worst: {}{sessions}",
        words(b.total()),
        parts.join(", ")
    )
}

/// The line a log gets as a submission finishes: how far, and about how
/// long is left at the pace so far.
pub fn marked_line(done: usize, total: usize, name: &str, elapsed: std::time::Duration) -> String {
    let left = total.saturating_sub(done);
    let estimate = if left == 0 {
        "done".to_owned()
    } else {
        let pace = elapsed.div_f64(done.max(1) as f64);
        format!("about {} left", duration_words(pace.mul_f64(left as f64)))
    };
    format!(
        "[{done} of {total} marked] {name} after {}; {estimate}",
        duration_words(elapsed)
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::conform::model::Budget;

    #[test]
    fn the_budget_bounds_what_it_can_and_says_what_it_cannot() {
        let s = Duration::from_secs;
        let mut b = Budget {
            compile: s(120),
            cases: 9,
            timeout: s(5),
            fuzz: s(30),
            fuzz_sessions: None,
            memory_cases: 2,
            memory_run: s(100),
        };
        assert_eq!(
            budget(&b, 15, 2),
            "marking 15 submissions, 2 at a time, each within 8 min 35 s at worst: \
             compiling 2 min (twice at worst), 9 cases × 5 s, fuzzing 30 s, \
             2 memory runs × 1 min 40 s"
        );
        // A number of sessions takes what it takes: said, not counted.
        (b.fuzz, b.fuzz_sessions) = (Duration::ZERO, Some(500));
        assert_eq!(
            budget(&b, 1, 1),
            "marking 1 submission within 8 min 5 s at worst: compiling 2 min (twice at \
             worst), 9 cases × 5 s, 2 memory runs × 1 min 40 s; and fuzzing 500 sessions, \
             as long as they take"
        );
        assert_eq!(duration_words(s(3600)), "1 h");
        assert_eq!(duration_words(s(4110)), "1 h 8 min");
        assert_eq!(duration_words(Duration::from_millis(59_600)), "1 min");
    }
}
