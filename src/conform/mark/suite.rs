//! Correctness: the hidden-style suite run through `check`, and random
//! sessions through `fuzz`, each read back from its own report, so that a
//! mark says exactly what those commands would say to the student.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::super::run::{self, End, Limits};
use super::super::{CheckOptions, Format, FuzzOptions, Limit, ReadArgs, case, check, fuzz, trace};
use super::marked::{Correctness, Failure, Fuzzed};
use super::scratch::contained;

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

/// Runs the suite and the fuzzing on `program`, in `run_dir` with
/// [`contained`]'s limits; fuzzing's failing cases are written under
/// `fuzz_out`.
///
/// # Errors
///
/// Why the suite could not be run (a folder that cannot be read): a
/// fault of the marker's command, not of the submission.
pub fn correctness(
    program: &Path,
    opts: &SuiteOptions,
    run_dir: &Path,
    fuzz_out: &Path,
) -> Result<Correctness, String> {
    std::fs::create_dir_all(run_dir)
        .map_err(|e| format!("cannot make a folder to run it in: {e}"))?;
    let command = contained(run_dir, true, &[program.as_os_str().to_owned()]);
    let hangs = hangs_at_end_of_input(&command, opts.timeout);
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
    check(&check_opts, &mut report).map_err(|e| e.to_string())?;
    let mut found = read_check(&report)?;
    found.not_run_at_eof = not_run_at_eof;
    found.suite = super::super::report::shown_path(&opts.suite);
    found.fuzz = opts
        .fuzz_time
        .map(|time| run_fuzz(command, time, opts, fuzz_out, hangs));
    Ok(found)
}

/// Whether the program is still running `timeout` after its input, one
/// `who` and no `term`, ended: a program that does not stop at end of
/// input would cost the timeout on every case that ends mid-game.
fn hangs_at_end_of_input(command: &[OsString], timeout: Duration) -> bool {
    let limits = Limits {
        timeout,
        cap: 1 << 20,
    };
    matches!(
        run::run(command, &[], b"who\n", limits).end,
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
        format: Format::Text,
        contain: Default::default(),
    };
    let mut report = Vec::new();
    let result = fuzz(&fuzz_opts, &mut report);
    let text = String::from_utf8_lossy(&report);
    let mut fuzzed = Fuzzed {
        time,
        seed: opts.seed,
        assignment_only: hangs,
        ..Fuzzed::default()
    };
    for line in text.lines() {
        if let Some((cases, _)) = line.split_once(" cases in ") {
            fuzzed.cases = cases.parse().unwrap_or(0);
        } else if line.starts_with('[') {
            fuzzed.groups.push(line.to_owned());
        }
    }
    fuzzed.verdict = match result {
        Ok(_) => text.lines().last().unwrap_or_default().to_owned(),
        Err(e) => format!("fuzzing stopped: {e}"),
    };
    fuzzed
}

#[cfg(test)]
mod tests {
    use super::*;

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
