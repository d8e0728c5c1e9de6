//! Correctness: the hidden-style suite run through `check`, and random
//! sessions through `fuzz`, each read back from its own report, so that a
//! mark says exactly what those commands would say to the student.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::super::run::{self, End, Limits};
use super::super::sandbox::Kit;
use super::super::{CheckOptions, Format, FuzzOptions, Limit, ReadArgs, case, check, fuzz, trace};
use super::marked::{Correctness, Failure, Fuzzed};

/// How the suite and the fuzzing run.
#[derive(Clone, Debug)]
pub struct SuiteOptions {
    /// The folder of cases.
    pub suite: PathBuf,
    /// How the reference reads a case's `.args`.
    pub read_args: ReadArgs,
    /// A run still going after this long is killed.
    pub timeout: Duration,
    /// How many runs at once.
    pub jobs: usize,
    /// How long to fuzz; `None` for not at all.
    pub fuzz_time: Option<Duration>,
    /// The fuzzing's seed: the same for every submission, so that each
    /// meets the same sessions.
    pub seed: u64,
}

/// Runs the suite and the fuzzing on `program`, each run contained by
/// `kit`; fuzzing's failing cases are written under `fuzz_out`.
///
/// # Errors
///
/// Why the suite could not be run (a folder that cannot be read): a
/// fault of the marker's command, not of the submission.
pub fn correctness(
    kit: Option<&Kit>,
    program: &Path,
    opts: &SuiteOptions,
    fuzz_out: &Path,
) -> Result<Correctness, String> {
    let command = vec![program.as_os_str().to_owned()];
    let hangs = hangs_at_end_of_input(kit, &command, opts.timeout);
    let (paths, not_run_at_eof) = if hangs {
        cases_not_ending_at_eof(&opts.suite)?
    } else {
        (vec![opts.suite.clone()], 0)
    };
    let check_opts = CheckOptions {
        program: Some(command.clone()),
        paths,
        timeout: opts.timeout,
        jobs: opts.jobs,
        read_args: opts.read_args,
        format: Format::Json,
        contain: Default::default(),
    };
    let mut report = Vec::new();
    check(&check_opts, kit, &mut report).map_err(|e| e.to_string())?;
    let mut found = read_check(&report)?;
    found.not_run_at_eof = not_run_at_eof;
    found.contained = containment(kit);
    found.suite = super::super::report::shown_path(&opts.suite);
    found.fuzz = opts
        .fuzz_time
        .map(|time| run_fuzz(kit, command, time, opts, fuzz_out, hangs));
    Ok(found)
}

/// What the runs were contained by, in a line or two for the reports.
pub fn containment(kit: Option<&Kit>) -> Vec<String> {
    kit.map_or_else(
        || {
            vec![
                "not contained: each run as the kit's user, in the kit's folder, limited only \
                 by the timeout"
                    .to_owned(),
            ]
        },
        Kit::describe,
    )
}

/// Whether the program is still running `timeout` after its input, one
/// `who` and no `term`, ended: a program that does not stop at end of
/// input would cost the timeout on every case that ends mid-game.
fn hangs_at_end_of_input(kit: Option<&Kit>, command: &[OsString], timeout: Duration) -> bool {
    let limits = Limits {
        timeout,
        cap: 1 << 20,
    };
    matches!(
        run::run(kit, command, &[], b"who\n", limits).end,
        End::TimedOut(_)
    )
}

/// The suite's cases that do not end the input mid-game (by how the
/// reference plays them), and how many do.
fn cases_not_ending_at_eof(suite: &Path) -> Result<(Vec<PathBuf>, usize), String> {
    let paths = case::find(&[suite.to_path_buf()]).map_err(|e| e.to_string())?;
    let mut kept = Vec::new();
    let mut left = 0;
    for path in paths {
        let at_eof = case::unreadable(&path).is_none()
            && case::read(&path).is_ok_and(|c| {
                !c.has_args && trace::trace(&c.input).stop == trace::Stop::EndOfInput
            });
        if at_eof {
            left += 1;
        } else {
            kept.push(path);
        }
    }
    Ok((kept, left))
}

/// The cases of `check`'s JSON report.
fn read_check(report: &[u8]) -> Result<Correctness, String> {
    let report: Value =
        serde_json::from_slice(report).map_err(|e| format!("cannot read check's report: {e}"))?;
    let cases = report["cases"].as_array().cloned().unwrap_or_default();
    let mut found = Correctness::default();
    for case in &cases {
        let text = |key: &str| case[key].as_str().unwrap_or_default().to_owned();
        let path = text("path");
        let decided = case["decisions"].as_array().is_some_and(|d| !d.is_empty());
        let tally = if decided {
            &mut found.decided
        } else {
            &mut found.rules
        };
        match case["verdict"].as_str() {
            Some("pass") => {
                tally.0 += 1;
                tally.1 += 1;
            }
            Some("fail") => {
                tally.1 += 1;
                found.failures.push(Failure {
                    case: path.clone(),
                    reason: text("reason"),
                    clause: case["clause"].as_str().map(str::to_owned),
                    decided,
                    detail: text("detail"),
                });
            }
            _ => {
                found.skipped += 1;
                continue;
            }
        }
        if text("reason") == "timed out" {
            found.hung.push(PathBuf::from(path));
        } else {
            found.ended.push(PathBuf::from(path));
        }
    }
    Ok(found)
}

/// Fuzzes for `time`; a program that `hangs` at end of input only with
/// sessions that end with `term` or the game's end (`--assignment-only`),
/// where each hang would cost the timeout and find nothing new.
fn run_fuzz(
    kit: Option<&Kit>,
    program: Vec<OsString>,
    time: Duration,
    opts: &SuiteOptions,
    out: &Path,
    hangs: bool,
) -> Fuzzed {
    let fuzz_opts = FuzzOptions {
        program,
        seed: opts.seed,
        limit: Limit::Time(time),
        out_dir: out.to_path_buf(),
        timeout: opts.timeout,
        jobs: opts.jobs,
        // Each group is named, not shrunk: shrinking a program that hangs
        // costs a timeout a step, and the budget is the marker's. The
        // student shrinks with `fuzz` and the seed shown.
        shrink_budget: 0,
        assignment_only: hangs,
        format: Format::Json,
        contain: Default::default(),
    };
    let mut report = Vec::new();
    let fuzzed = Fuzzed {
        time,
        seed: opts.seed,
        assignment_only: hangs,
        ..Fuzzed::default()
    };
    match fuzz(&fuzz_opts, kit, &mut report) {
        Ok(_) => read_fuzz(&report, fuzzed),
        Err(e) => Fuzzed {
            verdict: format!("fuzzing stopped: {e}"),
            ..fuzzed
        },
    }
}

/// The findings of `fuzz`'s JSON report, into `fuzzed`: the sessions
/// run, a verdict line as `fuzz` says it, and a heading a group.
fn read_fuzz(report: &[u8], mut fuzzed: Fuzzed) -> Fuzzed {
    let report: Value = match serde_json::from_slice(report) {
        Ok(report) => report,
        Err(e) => {
            fuzzed.verdict = format!("cannot read fuzz's report: {e}");
            return fuzzed;
        }
    };
    let number = |key: &str| report[key].as_u64().unwrap_or(0);
    fuzzed.cases = number("cases");
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    for (i, f) in findings.iter().enumerate() {
        let text = |key: &str| f[key].as_str().unwrap_or_default().to_owned();
        let kind = match f["kind"].as_str() {
            Some("decision") => "this contract's decision",
            _ => "the assignment's rule",
        };
        let cases = f["cases"].as_u64().unwrap_or(0);
        fuzzed.groups.push(format!(
            "[{}] {} ({kind}): {}: {}; {cases} failing case{}, first case {}",
            i + 1,
            text("clause"),
            text("title"),
            text("cause"),
            if cases == 1 { "" } else { "s" },
            f["first_case"].as_u64().unwrap_or(0),
        ));
    }
    fuzzed.verdict = if let Some(why) = report["cannot_start"].as_str() {
        format!("cannot start the program: {why}")
    } else if fuzzed.cases == 0 {
        "no case was run: nothing was checked".to_owned()
    } else if findings.is_empty() {
        "0 failures".to_owned()
    } else {
        format!(
            "{} failures in {} groups: {} of the assignment's rules, {} of this contract's decisions",
            number("failures"),
            findings.len(),
            number("rules"),
            number("decisions")
        )
    };
    fuzzed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzz_findings_are_read_from_its_json() {
        let report = br#"{
  "program": "./gitm", "seed": 1, "cases": 40, "seconds": 1.0,
  "cannot_start": null,
  "failures": 7, "groups": 2, "rules": 1, "decisions": 1,
  "findings": [
    {"clause": "WIN-LINE", "kind": "rule", "title": "Five in a row wins", "failure": "output", "cause": "a missed win", "cases": 6, "first_case": 3, "example": "", "detail": "", "file": "", "shrink_cut_short": false},
    {"clause": "EOF-EXIT", "kind": "decision", "title": "End of input", "failure": "crash", "cause": "wrote more than 1 MiB to a file", "cases": 1, "first_case": 9, "example": "", "detail": "", "file": "", "shrink_cut_short": false}
  ],
  "not_reproducible": []
}"#;
        let fuzzed = read_fuzz(report, Fuzzed::default());
        assert_eq!(fuzzed.cases, 40);
        assert_eq!(
            fuzzed.groups,
            [
                "[1] WIN-LINE (the assignment's rule): Five in a row wins: a missed win; 6 \
                 failing cases, first case 3",
                "[2] EOF-EXIT (this contract's decision): End of input: wrote more than 1 MiB \
                 to a file; 1 failing case, first case 9"
            ]
        );
        assert_eq!(
            fuzzed.verdict,
            "7 failures in 2 groups: 1 of the assignment's rules, 1 of this contract's decisions"
        );
        let none = br#"{"cases": 5, "cannot_start": null, "findings": []}"#;
        assert_eq!(read_fuzz(none, Fuzzed::default()).verdict, "0 failures");
        let cannot = br#"{"cases": 0, "cannot_start": "./gitm: not found", "findings": []}"#;
        assert_eq!(
            read_fuzz(cannot, Fuzzed::default()).verdict,
            "cannot start the program: ./gitm: not found"
        );
    }

    #[test]
    fn check_report_is_tallied_by_rules_and_decisions() {
        let report = br#"{
  "passed": 2, "failed": 2, "skipped": 1,
  "cases": [
    {"path": "a.in", "verdict": "pass", "reason": "", "clause": null, "detail": "", "decisions": [], "seconds": 0.001},
    {"path": "b.in", "verdict": "fail", "reason": "stdout", "clause": "WIN-LINE", "detail": "d", "decisions": [], "seconds": 0.001},
    {"path": "c.in", "verdict": "fail", "reason": "timed out", "clause": "EOF-EXIT", "detail": "", "decisions": ["EOF-EXIT"], "seconds": 1.0},
    {"path": "d.in", "verdict": "pass", "reason": "", "clause": null, "detail": "", "decisions": ["EOF-EXIT"], "seconds": 0.001},
    {"path": "e.in", "verdict": "skip", "reason": "has .args", "clause": null, "detail": "", "decisions": [], "seconds": 0.0}
  ]
}"#;
        let found = read_check(report).expect("a report of check");
        assert_eq!(
            (found.rules, found.decided, found.skipped),
            ((1, 2), (1, 2), 1)
        );
        assert_eq!(found.hung, [PathBuf::from("c.in")]);
        assert_eq!(found.ended.len(), 3);
        assert_eq!(found.failures[0].clause.as_deref(), Some("WIN-LINE"));
        assert!(found.failures[1].decided);
    }
}
