//! `check`: every case under the given paths, run through a program and
//! compared with what is expected, in parallel, reported in path order.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use super::run::{self, Limits};
use super::{ConformError, Outcome, case, report};

/// Output above this many times the expected size (and at least
/// [`MIN_CAP`]) is cut off: no correct program comes near it.
const CAP_FACTOR: usize = 16;
/// The smallest output cap.
const MIN_CAP: usize = 1 << 20;

/// What `check` runs, on what.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// The program and its arguments; `None` for this program itself.
    pub program: Option<Vec<OsString>>,
    /// Folders and `.in` files.
    pub paths: Vec<PathBuf>,
    /// A run still going after this long is killed.
    pub timeout: Duration,
    /// How many cases run at once.
    pub jobs: usize,
    /// How the reference reads a case's `.args`.
    pub read_args: super::ReadArgs,
}

/// How one case came out: its report line(s), and whether it passed.
enum Verdict {
    Pass,
    Fail(String),
    Skip(&'static str),
}

/// Runs every case and writes one line per case, a diff for each failure
/// and a summary line `N passed, M failed[, K skipped]`.
///
/// # Errors
///
/// [`ConformError`] if a path or case cannot be read, or the report
/// cannot be written. A failing program is an [`Outcome`], not an error.
pub fn check(opts: &CheckOptions, out: &mut dyn Write) -> Result<Outcome, ConformError> {
    let (command, ours) = match &opts.program {
        Some(command) => (command.clone(), false),
        None => {
            let exe = std::env::current_exe().map_err(ConformError::CurrentExe)?;
            (vec![exe.into_os_string()], true)
        }
    };
    let paths = case::find(&opts.paths)?;
    let next = AtomicUsize::new(0);
    let (send, verdicts) = mpsc::channel();
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    thread::scope(|scope| -> Result<(), ConformError> {
        for _ in 0..opts.jobs.max(1).min(paths.len().max(1)) {
            let send = send.clone();
            let (next, paths, command) = (&next, &paths, &command);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = paths.get(index) else { break };
                    let verdict = judge(path, command, ours, opts);
                    if send.send((index, verdict)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Verdicts come in any order; each is printed once all before it are.
        let mut waiting = BTreeMap::new();
        let mut printed = 0;
        for (index, verdict) in verdicts {
            waiting.insert(index, verdict);
            while let Some(verdict) = waiting.remove(&printed) {
                let path = paths[printed].display();
                match verdict? {
                    Verdict::Pass => {
                        passed += 1;
                        writeln!(out, "pass  {path}")?;
                    }
                    Verdict::Fail(detail) => {
                        failed += 1;
                        write!(out, "FAIL  {path}{detail}")?;
                    }
                    Verdict::Skip(why) => {
                        skipped += 1;
                        writeln!(out, "skip  {path}: {why}")?;
                    }
                }
                printed += 1;
            }
        }
        Ok(())
    })?;
    write!(out, "{passed} passed, {failed} failed")?;
    if skipped > 0 {
        write!(out, ", {skipped} skipped")?;
    }
    writeln!(out)?;
    out.flush()?;
    Ok(if failed == 0 {
        Outcome::Passed
    } else {
        Outcome::Failed
    })
}

fn judge(
    path: &std::path::Path,
    command: &[OsString],
    ours: bool,
    opts: &CheckOptions,
) -> Result<Verdict, ConformError> {
    let case = case::read(path)?;
    if case.has_args && !ours {
        return Ok(Verdict::Skip("has .args: options are this program's own"));
    }
    if let Some(why) = case.not_run() {
        return Ok(Verdict::Skip(why));
    }
    let expected = case.expected(opts.read_args);
    let limits = Limits {
        timeout: opts.timeout,
        cap: expected
            .stdout
            .len()
            .saturating_mul(CAP_FACTOR)
            .max(MIN_CAP),
    };
    let ran = run::run(command, &case.args, &case.input, limits);
    Ok(match report::compare(&expected, &ran) {
        None => Verdict::Pass,
        Some(detail) => Verdict::Fail(format!(": {}\n{detail}", report::summary(&expected, &ran))),
    })
}
