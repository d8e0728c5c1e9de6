//! `mark`'s text: the page a student can act on, and the class summary.

use std::fmt::Write as _;

use crate::conform::clause::Clause;
use crate::conform::model::{Failure, Marked, MemoryVerdict, NOT_OFFICIAL, Restriction};

/// Clauses whose failures are shown, each by its first case; the rest
/// are counted.
const FAILURES_SHOWN: usize = 10;
/// Scenarios not covered shown; the rest are counted.
const MISSING_SHOWN: usize = 8;
/// Lines of a failure's detail shown.
const DETAIL_LINES: usize = 6;

/// The page for one submission.
pub fn page(m: &Marked) -> String {
    let marks = &m.marks;
    let mut out = String::new();
    let _ = writeln!(out, "== {} ({})", m.name, m.folder.display());
    let _ = writeln!(out, "{NOT_OFFICIAL}");
    let _ = writeln!(out, "suite: {}", m.suite.said());
    let _ = writeln!(out, "made with: {}", m.made_with.said());
    for (_, text) in sections(m) {
        out.push_str(&text);
    }
    let _ = writeln!(out, "mark: {} of {}", marks.total, marks.max);
    if let Some(why) = &marks.zeroed {
        let _ = writeln!(out, "  zero: {why}");
    }
    for part in &marks.parts {
        let would = if marks.zeroed.is_some() {
            " (zeroed)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  {} {} of {}{would}: {}",
            part.id, part.score, part.max, part.basis
        );
    }
    out
}

/// The page's parts between its head and its marks, each with its
/// heading, in order: the HTML page shows the same text under headings.
pub fn sections(m: &Marked) -> Vec<(&'static str, String)> {
    type Writer = fn(&mut String, &Marked);
    let parts: [(&'static str, Writer); 6] = [
        ("Not read", write_not_read),
        ("Compiling", write_build),
        ("Restrictions", write_restrictions),
        ("Correctness", write_correctness),
        ("Memory", write_memory),
        ("The student's tests", write_tests),
    ];
    parts
        .into_iter()
        .map(|(heading, write)| {
            let mut text = String::new();
            write(&mut text, m);
            (heading, text)
        })
        .collect()
}

fn write_not_read(out: &mut String, m: &Marked) {
    if let Some(why) = m.folder_not_read() {
        let _ = writeln!(
            out,
            "not read: {} {why}; nothing of it was marked",
            m.folder.display()
        );
        return;
    }
    if m.not_read.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "files not read: {} (left out of the marking)",
        m.not_read.len()
    );
    for n in &m.not_read {
        let _ = writeln!(out, "  {} {}: not read", n.path, n.why);
    }
}

fn write_build(out: &mut String, m: &Marked) {
    let b = &m.build;
    let _ = writeln!(
        out,
        "compiles: {} ({})",
        match (b.compiled, b.relaxed) {
            (true, false) => "yes",
            (true, true) => "only with variable-length arrays allowed (-Wno-error=vla)",
            (false, _) => "NO",
        },
        b.command
    );
    if !b.messages.is_empty() {
        for line in b.messages.lines() {
            let _ = writeln!(out, "  | {line}");
        }
    }
}

fn write_restrictions(out: &mut String, m: &Marked) {
    if m.folder_not_read().is_some() {
        let _ = writeln!(out, "restrictions: not checked (its folder was not read)");
        return;
    }
    if m.broken.is_empty() {
        let imports = if m.imports_unread.is_none() {
            "; dynamic memory, files and mapped memory among the functions the program imports"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "restrictions: none broken (source files; variable-length arrays{imports})"
        );
    } else {
        let _ = writeln!(out, "restrictions: BROKEN, the mark is zero");
        for rule in Restriction::ALL {
            for v in m.broken.iter().filter(|v| v.rule == rule) {
                let _ = writeln!(out, "  {}: {}", rule.title(), v.what);
            }
        }
    }
    if let Some(why) = &m.imports_unread {
        let _ = writeln!(
            out,
            "  not checked: dynamic memory, files, mapped memory ({why})"
        );
    } else if !m.build.compiled {
        let _ = writeln!(
            out,
            "  not checked: variable-length arrays, dynamic memory, files, mapped memory \
             (no program was built)"
        );
    }
}

fn write_correctness(out: &mut String, m: &Marked) {
    let Some(c) = &m.correctness else {
        let _ = writeln!(out, "correctness: not run (no program)");
        return;
    };
    // The cases skipped are the suite's own options, which a student
    // cannot act on: the JSON counts them, the page does not.
    let _ = writeln!(
        out,
        "correctness: {} of {} cases of {} passed",
        c.rules.passed + c.decisions.passed,
        c.rules.run + c.decisions.run,
        c.suite,
    );
    let _ = writeln!(
        out,
        "  the assignment's rules: {} of {} passed; this contract's decisions: {} of {} (not scored)",
        c.rules.passed, c.rules.run, c.decisions.passed, c.decisions.run
    );
    if c.not_run_at_end_of_input > 0 {
        let _ = writeln!(
            out,
            "  not run: {} cases that end the input mid-game: the program did not stop at end of \
             input (given `who` and no `term`, it was still running after the timeout)",
            c.not_run_at_end_of_input
        );
    }
    for line in &c.contained {
        let _ = writeln!(out, "  {line}");
    }
    write_failures(out, &c.failures);
    match &c.fuzz {
        None => {
            let _ = writeln!(out, "  fuzzing: not run (--fuzz-time 0 or --fuzz-cases 0)");
        }
        Some(f) => {
            let only = if f.assignment_only {
                ", sessions that end with term or the game's end"
            } else {
                ""
            };
            let _ = match f.cases {
                Some(cases) => writeln!(
                    out,
                    "  fuzzing {cases} sessions (seed {}{only}): {} run; {}",
                    f.seed, f.sessions, f.verdict
                ),
                None => writeln!(
                    out,
                    "  fuzzing for {:?} (seed {}{only}): {} sessions; {}",
                    f.time, f.seed, f.sessions, f.verdict
                ),
            };
            let mut again = Vec::new();
            for (group, finding) in f.groups.iter().zip(&f.findings) {
                if c.scored_again(finding) {
                    let cases = match finding.cases {
                        1 => "1 failing case".to_owned(),
                        n => format!("{n} failing cases"),
                    };
                    again.push(format!("[{}] {cases}", finding.clause));
                } else {
                    let _ = writeln!(out, "    {group}");
                }
            }
            if !again.is_empty() {
                let _ = writeln!(out, "    the same as a group above: {}", again.join("; "));
            }
        }
    }
}

/// The failures that cost marks first, one a clause with its count and
/// its first case, most cases first; then the unscored ones in a line.
fn write_failures(out: &mut String, failures: &[Failure]) {
    let mut groups: Vec<(Option<Clause>, usize, &Failure)> = Vec::new();
    for f in failures.iter().filter(|f| !f.depends_on_decisions) {
        match groups.iter_mut().find(|g| g.2.group() == f.group()) {
            Some(g) => g.1 += 1,
            None => groups.push((f.clause, 1, f)),
        }
    }
    // Stable: among equal counts, the suite's order.
    groups.sort_by_key(|g| std::cmp::Reverse(g.1));
    for (clause, count, f) in groups.iter().take(FAILURES_SHOWN) {
        let clause = clause.map_or(String::new(), |c| format!("[{c}] "));
        let count = match count {
            1 => String::new(),
            n => format!("{n} cases, the first "),
        };
        let _ = writeln!(out, "  FAIL {clause}{count}{}: {}", f.case, f.reason);
        for line in f.detail.lines().take(DETAIL_LINES) {
            let _ = writeln!(out, "  {line}");
        }
        if let Some(hint) = &f.hint {
            let _ = writeln!(out, "    likely cause: {hint}");
        }
    }
    if groups.len() > FAILURES_SHOWN {
        let rest: usize = groups[FAILURES_SHOWN..].iter().map(|g| g.1).sum();
        let shown: Vec<_> = groups[..FAILURES_SHOWN].iter().map(|g| g.0).collect();
        let mut more: Vec<_> = groups[FAILURES_SHOWN..].iter().map(|g| g.0).collect();
        more.sort();
        more.dedup();
        let _ = writeln!(
            out,
            "  and {rest} more failing cases under {} more clauses",
            more.iter().filter(|c| !shown.contains(c)).count()
        );
    }
    let decided = failures.iter().filter(|f| f.depends_on_decisions).count();
    if decided > 0 {
        let _ = writeln!(
            out,
            "  and {decided} failing case{} that depend{} on this contract's decisions (not scored: each is in the JSON report)",
            if decided == 1 { "" } else { "s" },
            if decided == 1 { "s" } else { "" },
        );
    }
}

fn write_memory(out: &mut String, m: &Marked) {
    let Some(mem) = &m.memory else {
        let _ = writeln!(out, "memory: not checked (no program)");
        return;
    };
    match &mem.tool {
        Err(why) => {
            let _ = writeln!(out, "memory: {why}");
        }
        Ok(tool) => {
            let _ = writeln!(
                out,
                "memory: {} on {} of the {} cases that ended in time: {}",
                tool.name(),
                mem.cases.0,
                mem.cases.1,
                match mem.verdict() {
                    MemoryVerdict::Errors => "ERRORS",
                    MemoryVerdict::NotChecked => "not checked (no run ended by itself)",
                    MemoryVerdict::Ok | MemoryVerdict::OverLimit => "no error",
                }
            );
            if mem.killed > 0 {
                let _ = writeln!(
                    out,
                    "  {} run{} under it killed at a limit: not checked, not counted as errors",
                    mem.killed,
                    if mem.killed == 1 { "" } else { "s" }
                );
            }
            for (case, text) in &mem.errors {
                if !case.is_empty() {
                    let _ = writeln!(out, "  in {case}:");
                }
                for line in text.lines() {
                    let _ = writeln!(out, "    {line}");
                }
            }
        }
    }
    match &mem.peak {
        Ok((kib, case)) => {
            let limit = match mem.limit_kib {
                Some(limit) if *kib > limit => format!("; OVER the limit of {limit} KiB"),
                Some(limit) => format!("; the limit is {limit} KiB"),
                None => String::new(),
            };
            let _ = writeln!(out, "  peak resident memory: {kib} KiB (in {case}{limit})");
        }
        Err(why) => {
            let _ = writeln!(out, "  peak resident memory: {why}");
        }
    }
}

fn write_tests(out: &mut String, m: &Marked) {
    let t = &m.tests;
    if m.folder_not_read().is_some() {
        let _ = writeln!(out, "tests: not read (its folder was not read)");
        return;
    }
    if t.folder.is_none() {
        let _ = writeln!(out, "tests: no tests/ folder");
        return;
    } else {
        let _ = writeln!(
            out,
            "tests: {} cases in tests/: {} wrong, {} without .out",
            t.cases,
            t.wrong.len(),
            t.no_out.len()
        );
        for (case, detail) in &t.wrong {
            let _ = writeln!(
                out,
                "  WRONG {case}: its expected output is not the reference's"
            );
            for line in detail.lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
        for case in &t.no_out {
            let _ = writeln!(out, "  no .out: {case}");
        }
    }
    let _ = writeln!(
        out,
        "  covered {} of the assignment's {} scenarios{}",
        t.covered.0,
        t.covered.1,
        if t.missing.is_empty() {
            ""
        } else {
            "; not covered:"
        }
    );
    for s in t.missing.iter().take(MISSING_SHOWN) {
        let (what, example) = (s.what(), super::escape(s.example()));
        let _ = writeln!(out, "    {s}: {what} (e.g. {example})");
    }
    if t.missing.len() > MISSING_SHOWN {
        let _ = writeln!(
            out,
            "    and {} more (`gomoku-mist cover` on the tests lists them all)",
            t.missing.len() - MISSING_SHOWN
        );
    }
}

/// The class summary: one line a submission, then the count.
pub fn summary(all: &[Marked]) -> String {
    let mut out = String::new();
    let width = all.iter().map(|m| m.name.len()).max().unwrap_or(4).max(4);
    let cw = all
        .iter()
        .map(|m| compiles_word(m).len())
        .max()
        .unwrap_or(8)
        .max(8);
    let _ = writeln!(
        out,
        "{:<width$}  {:<cw$}  restrictions  correctness  tests  memory       total",
        "name", "compiles"
    );
    for m in all {
        let part = |id: &str| {
            m.marks
                .score_of(id)
                .map_or("-".to_owned(), |s| s.to_string())
        };
        let broken = if !m.broken.is_empty() {
            format!("{} broken", m.broken.len())
        } else if !m.build.compiled {
            "not checked".to_owned()
        } else {
            "ok".to_owned()
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:<cw$}  {broken:<12}  {:<11}  {:<5}  {:<11}  {}",
            m.name,
            compiles_word(m),
            part("correctness"),
            part("tests"),
            memory_word(m),
            m.marks.total
        );
    }
    let max = all.first().map_or(0.0, |m| m.marks.max);
    let _ = writeln!(
        out,
        "{} submissions, each out of {max} (not the course's official marks)",
        all.len()
    );
    if let Some(m) = all.first() {
        let _ = writeln!(out, "suite: {}", m.suite.said());
        let _ = writeln!(out, "made with: {}", m.made_with.said());
    }
    out
}

/// `yes`, `no`, or `no (yes with VLAs allowed)`, for the summary and the
/// CSV.
pub fn compiles_word(m: &Marked) -> &'static str {
    match (m.build.compiled, m.build.relaxed) {
        (true, false) => "yes",
        (true, true) => "no (yes with VLAs allowed)",
        (false, _) => "no",
    }
}

/// `ok`, `errors` or `not checked`, for the summary and the CSV.
pub fn memory_word(m: &Marked) -> &'static str {
    m.memory
        .as_ref()
        .map_or("not checked", |mem| mem.verdict().word())
}
