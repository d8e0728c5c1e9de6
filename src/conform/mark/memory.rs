//! Memory: errors under valgrind's memcheck (or, without valgrind, a build
//! with AddressSanitizer), each with the case that shows it, and the peak
//! resident memory of the runs (GNU `time`'s maximum resident set size).
//!
//! A run under valgrind costs a second or so, so a sample of the suite's
//! cases is run (`--memory-cases`): the cases that failed first (crashes
//! before the others), up to half the sample, then cases spread over the
//! rest; the report says how many. A case that hung in the suite, or was
//! killed at a limit, is not run again.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::super::model::{Memory, Tool};
use super::super::run::{self, Budget};
use super::super::sandbox::{Kit, find_program};
use super::super::{case, pool};
use super::error::{CheckerError, PeakError};

/// valgrind runs a program this many times slower, or less: its runs get
/// this many times the timeout.
pub const VALGRIND_SLOWDOWN: u32 = 20;
/// Of each error, this many lines of the tool's report are kept.
const ERROR_LINES: usize = 8;
/// Errors are shown for at most this many cases.
const CASES_SHOWN: usize = 3;
/// Output cap of a run here: the suite's cases print little.
const CAP: usize = 16 << 20;

/// Which memory checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checker {
    /// valgrind where installed, else AddressSanitizer where the compiler
    /// has it, else none.
    Auto,
    /// valgrind only.
    Valgrind,
    /// AddressSanitizer only.
    Asan,
    /// No memory check.
    None,
}

/// How the memory is checked.
#[derive(Clone, Copy, Debug)]
pub struct MemoryOptions {
    /// Which checker.
    pub checker: Checker,
    /// How many of the suite's cases run under it; 0 for all.
    pub cases: usize,
    /// The suite's timeout, scaled for valgrind.
    pub timeout: Duration,
    /// How many runs at once.
    pub jobs: usize,
    /// The most resident memory allowed, in KiB: a peak above it is
    /// excessive memory.
    pub limit_kib: Option<u64>,
}

/// `run` on each case's input (with the case's number), `jobs` at a
/// time: the results in the cases' order. A case that cannot be read
/// gives `None`.
fn each_case<T: Send>(
    cases: &[PathBuf],
    jobs: usize,
    run: &(dyn Fn(usize, &[u8]) -> Option<T> + Sync),
) -> Vec<Option<T>> {
    pool::map(cases, jobs.clamp(1, super::super::MAX_JOBS), |n, path| {
        case::read(path).ok().and_then(|case| run(n, &case.input))
    })
}

/// At most `most` of `cases` (all if 0): up to half of them from
/// `first` (a subset of `cases`, in its order), the rest spread evenly
/// over the other cases.
fn sample(cases: &[PathBuf], first: &[PathBuf], most: usize) -> Vec<PathBuf> {
    if most == 0 || most >= cases.len() {
        return cases.to_vec();
    }
    let mut picked: Vec<PathBuf> = first.iter().take(most / 2).cloned().collect();
    let rest: Vec<&PathBuf> = cases.iter().filter(|c| !picked.contains(c)).collect();
    let more = most - picked.len();
    picked.extend((0..more).map(|i| rest[i * rest.len() / more].clone()));
    picked
}

/// Checks `program` on a sample of `ended`, the suite's cases that ended
/// in time, and of them those that `failed` (crashes first) before the
/// others: where memory errors are likeliest. `asan` builds it with
/// AddressSanitizer when asked; `shown` names a case as the reports do.
pub fn memory(
    kit: Option<&Kit>,
    program: &Path,
    asan: &dyn Fn() -> Option<PathBuf>,
    (ended, failed): (&[PathBuf], &[PathBuf]),
    opts: &MemoryOptions,
    scratch: &Path,
    shown: &dyn Fn(&Path) -> String,
) -> Memory {
    let cases = sample(ended, failed, opts.cases);
    let tool = checker(opts.checker, asan);
    let mut errors = Vec::new();
    let (mut with_errors, mut checked, mut killed) = (0, 0, 0);
    if let Ok((tool, checker)) = &tool {
        let found = each_case(&cases, opts.jobs, &|n, input| {
            Some(match tool {
                Tool::Valgrind => under_valgrind(kit, checker, program, input, opts, scratch, n),
                Tool::Asan => under_asan(kit, checker, input, opts),
            })
        });
        for (path, found) in cases.iter().zip(found) {
            match found {
                Some(Found::Killed) => killed += 1,
                Some(Found::Clean) => checked += 1,
                Some(Found::Errors(text)) => {
                    checked += 1;
                    with_errors += 1;
                    if with_errors <= CASES_SHOWN {
                        errors.push((shown(path), text));
                    }
                }
                None => {}
            }
        }
    }
    // The tools name the program by its path in the scratch folder, which
    // is gone by the time anyone reads the report.
    let build = format!("{}/", scratch.join("build").display());
    for (_, text) in &mut errors {
        *text = text.replace(&build, "");
    }
    if with_errors > CASES_SHOWN {
        errors.push((
            String::new(),
            format!("and {} more cases with errors", with_errors - CASES_SHOWN),
        ));
    }
    Memory {
        cases: (checked, ended.len()),
        killed,
        tool: tool.map(|(t, _)| t).map_err(|e| e.to_string()),
        errors,
        peak: peak(kit, program, &cases, opts, scratch, shown).map_err(|e| e.to_string()),
        limit_kib: opts.limit_kib,
    }
}

/// The memory checker `asked` for, and its program: valgrind, or the
/// `asan` build.
fn checker(
    asked: Checker,
    asan: &dyn Fn() -> Option<PathBuf>,
) -> Result<(Tool, PathBuf), CheckerError> {
    let asan = |otherwise| asan().map(|p| (Tool::Asan, p)).ok_or(otherwise);
    match (asked, find_program(OsStr::new("valgrind"))) {
        (Checker::None, _) => Err(CheckerError::NotAsked),
        (Checker::Auto | Checker::Valgrind, Some(v)) => Ok((Tool::Valgrind, v)),
        (Checker::Valgrind, None) => Err(CheckerError::NoValgrind),
        (Checker::Auto, None) => asan(CheckerError::NoChecker),
        (Checker::Asan, _) => asan(CheckerError::NoAsan),
    }
}

/// Runs `words` on `input`, contained, within `timeout` (working in
/// `scratch` if the kit contains nothing): the file `file` it left, as
/// text.
fn run_reading(
    kit: Option<&Kit>,
    words: &[OsString],
    input: &[u8],
    timeout: Duration,
    scratch: &Path,
    file: &str,
) -> (run::End, String) {
    let limits = Budget { timeout, cap: CAP };
    let how = run::How {
        dir: Some(scratch),
        read: Some(file),
        ..run::How::default()
    };
    let (ran, read) = run::run_as(kit, words, &[], input, limits, how);
    let text = String::from_utf8_lossy(&read.unwrap_or_default()).into_owned();
    (ran.end, text)
}

/// What one run under a checker found.
enum Found {
    /// It ended by itself, and the checker reported nothing.
    Clean,
    /// It ended by itself, and the checker reported this.
    Errors(String),
    /// It was killed at a limit, or never ran: what the checker wrote
    /// then is about the kill (valgrind's SIGXCPU), not the program.
    Killed,
}

impl Found {
    /// What a run that ended with `end` found, the checker having
    /// reported `lines`.
    fn of(end: &run::End, lines: &[&str]) -> Found {
        match end {
            run::End::Code(_) | run::End::Signal(_) if lines.is_empty() => Found::Clean,
            run::End::Code(_) | run::End::Signal(_) => Found::Errors(first_lines(lines)),
            _ => Found::Killed,
        }
    }
}

/// The errors valgrind reports for one run, if any. valgrind runs
/// contained, as the program would: its log goes to the run's own
/// folder (`scratch`, if the kit contains nothing), read back after it.
fn under_valgrind(
    kit: Option<&Kit>,
    valgrind: &Path,
    program: &Path,
    input: &[u8],
    opts: &MemoryOptions,
    scratch: &Path,
    n: usize,
) -> Found {
    let log = format!("valgrind-{n}.log");
    let words: Vec<OsString> = vec![
        valgrind.as_os_str().to_owned(),
        "--tool=memcheck".into(),
        "-q".into(),
        format!("--log-file={log}").into(),
        program.as_os_str().to_owned(),
    ];
    let timeout = opts.timeout.saturating_mul(VALGRIND_SLOWDOWN);
    let (end, text) = run_reading(kit, &words, input, timeout, scratch, &log);
    // Each line is `==PID== message`: the id says nothing to the student.
    let lines: Vec<&str> = text
        .lines()
        .map(|l| match l.strip_prefix("==") {
            Some(rest) => rest.split_once("== ").map_or(rest, |(_, m)| m),
            None => l,
        })
        .filter(|l| !l.trim().is_empty())
        .collect();
    Found::of(&end, &lines)
}

/// The errors an AddressSanitizer build reports for one run, if any.
fn under_asan(kit: Option<&Kit>, program: &Path, input: &[u8], opts: &MemoryOptions) -> Found {
    let limits = Budget {
        timeout: opts.timeout.saturating_mul(2),
        cap: CAP,
    };
    let ran = run::run(kit, &[program.as_os_str().to_owned()], &[], input, limits);
    let text = String::from_utf8_lossy(&ran.stderr);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.contains("ERROR: AddressSanitizer")
                || l.starts_with("READ")
                || l.starts_with("WRITE")
                || l.trim_start().starts_with("#0 ")
                || l.starts_with("SUMMARY")
        })
        .map(|l| {
            l.split_once("==ERROR")
                .map_or(l, |(_, m)| m.trim_start_matches(": "))
        })
        .collect();
    Found::of(&ran.end, &lines)
}

fn first_lines(lines: &[&str]) -> String {
    lines
        .iter()
        .take(ERROR_LINES)
        .flat_map(|l| [l, "\n"])
        .collect()
}

/// The largest resident memory of `program` over `cases`, run natively
/// under GNU `time`, in KiB, and the case.
fn peak(
    kit: Option<&Kit>,
    program: &Path,
    cases: &[PathBuf],
    opts: &MemoryOptions,
    scratch: &Path,
    shown: &dyn Fn(&Path) -> String,
) -> Result<(u64, String), PeakError> {
    let time = find_program(OsStr::new("time")).ok_or(PeakError::NoTime)?;
    let peaks = each_case(cases, opts.jobs, &|n, input| {
        let file = format!("peak-{n}");
        let words: Vec<OsString> = vec![
            time.as_os_str().to_owned(),
            "-f".into(),
            "%M".into(),
            "-o".into(),
            file.clone().into(),
            program.as_os_str().to_owned(),
        ];
        let (_, text) = run_reading(kit, &words, input, opts.timeout, scratch, &file);
        // A program killed by a signal gets a line of its own before the
        // number: the number is the last line.
        text.lines()
            .last()
            .and_then(|l| l.trim().parse::<u64>().ok())
    });
    let mut most: Option<(u64, String)> = None;
    for (path, kib) in cases.iter().zip(peaks) {
        if let Some(kib) = kib {
            if most.as_ref().is_none_or(|(m, _)| kib > *m) {
                most = Some((kib, shown(path)));
            }
        }
    }
    most.ok_or(PeakError::NoRun)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_is_spread_over_the_cases() {
        let cases: Vec<PathBuf> = (0..10).map(|i| PathBuf::from(i.to_string())).collect();
        let names = |picked: Vec<PathBuf>| -> Vec<String> {
            picked.iter().map(|p| p.display().to_string()).collect()
        };
        assert_eq!(names(sample(&cases, &[], 4)), ["0", "2", "5", "7"]);
        assert_eq!(sample(&cases, &[], 0).len(), 10);
        assert_eq!(sample(&cases, &[], 20).len(), 10);
        // Failing cases first, up to half the sample; the rest spread
        // over the others.
        let failed = [PathBuf::from("9"), PathBuf::from("3"), PathBuf::from("4")];
        assert_eq!(names(sample(&cases, &failed, 4)), ["9", "3", "0", "5"]);
        assert_eq!(names(sample(&cases, &failed[..1], 4)), ["9", "0", "3", "6"]);
    }
}
