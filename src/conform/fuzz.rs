//! `fuzz`: random sessions through a program and through the reference,
//! in parallel, until they disagree; then the disagreement is shrunk,
//! shown and written as a case for `check`.
//!
//! Case `i` of seed `s` is always the same input, whichever thread makes
//! it, and the disagreement reported is the one of lowest number: with
//! `--cases`, the same seed gives the same run. The reference runs
//! in-process, so a case costs about one process start.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::run::{self, End, Limits, Ran};
use super::{ConformError, Expected, Outcome, Setup, case, generate, reference, report};
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
    /// At most this many runs are spent shrinking.
    pub shrink_budget: usize,
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

/// The first disagreement found.
struct Found {
    index: u64,
    input: Vec<u8>,
}

/// Runs random cases until one disagrees or the limit is reached; shrinks
/// and reports a disagreement.
///
/// # Errors
///
/// [`ConformError`] if the report or the failing case cannot be written.
pub fn fuzz(opts: &FuzzOptions, out: &mut dyn Write) -> Result<Outcome, ConformError> {
    let shown = shown_command(&opts.program);
    writeln!(out, "fuzzing {shown} with seed {}", opts.seed)?;
    out.flush()?;
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let first_bad = AtomicU64::new(u64::MAX);
    let found: Mutex<Option<Found>> = Mutex::new(None);
    let mut spent = Spent::default();
    let count = workers(opts);
    thread::scope(|scope| {
        let workers: Vec<_> = (0..count)
            .map(|_| scope.spawn(|| worker(opts, start, &next, &first_bad, &found)))
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
    let found = found
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let Some(found) = found else {
        writeln!(out, "no disagreement")?;
        out.flush()?;
        return Ok(Outcome::Passed);
    };
    report_found(opts, &found, out)?;
    Ok(Outcome::Failed)
}

fn worker(
    opts: &FuzzOptions,
    start: Instant,
    next: &AtomicU64,
    first_bad: &AtomicU64,
    found: &Mutex<Option<Found>>,
) -> Spent {
    let mut spent = Spent::default();
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        // Cases after a known disagreement cannot change the report.
        if index >= first_bad.load(Ordering::Relaxed) {
            break;
        }
        let go_on = match opts.limit {
            Limit::Cases(n) => index < n,
            Limit::Time(t) => start.elapsed() < t,
        };
        if !go_on {
            break;
        }
        let t0 = Instant::now();
        let input = generate::case(&mut Rng::for_case(opts.seed, index));
        let t1 = Instant::now();
        let expected = reference(Setup::contract(), &input);
        let t2 = Instant::now();
        let ran = run_program(opts, &expected, &input);
        let t3 = Instant::now();
        spent.cases += 1;
        spent.generating += t1 - t0;
        spent.reference += t2 - t1;
        spent.program += t3 - t2;
        if report::compare(&expected, &ran).is_some() {
            first_bad.fetch_min(index, Ordering::Relaxed);
            let mut slot = found
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if slot.as_ref().is_none_or(|f| f.index > index) {
                *slot = Some(Found { index, input });
            }
        }
    }
    spent
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

fn report_found(
    opts: &FuzzOptions,
    found: &Found,
    out: &mut dyn Write,
) -> Result<(), ConformError> {
    let expected = reference(Setup::contract(), &found.input);
    if let End::CannotStart(why) = run_program(opts, &expected, &found.input).end {
        // Nothing to shrink: no input would make it start.
        writeln!(out, "cannot start the program: {why}")?;
        out.flush()?;
        return Ok(());
    }
    writeln!(out, "case {} disagrees; shrinking it", found.index)?;
    out.flush()?;
    let started = Instant::now();
    let disagrees = |input: &[u8]| {
        let expected = reference(Setup::contract(), input);
        report::compare(&expected, &run_program(opts, &expected, input)).is_some()
    };
    let shrunk = super::shrink::shrink(&found.input, disagrees, opts.jobs, opts.shrink_budget);
    let lines = |b: &[u8]| b.split_inclusive(|&c| c == b'\n').count();
    writeln!(
        out,
        "shrunk from {} lines ({} bytes) to {} lines ({} bytes) in {} runs, {:.1} s{}",
        lines(&found.input),
        found.input.len(),
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
    let expected = reference(Setup::contract(), &shrunk.input);
    let ran = run_program(opts, &expected, &shrunk.input);
    writeln!(out, "input:")?;
    write!(
        out,
        "{}",
        report::escape_lines(&shrunk.input, "  | ", SHOWN_LINES)
    )?;
    match report::compare(&expected, &ran) {
        Some(detail) => write!(
            out,
            "differs: {}\n{detail}",
            report::summary(&expected, &ran)
        )?,
        // It disagreed while shrinking but not now: the program is flaky.
        None => writeln!(
            out,
            "(this input agreed when run once more: is the program deterministic?)"
        )?,
    }
    let name = format!("fuzz-{}-{}", opts.seed, found.index);
    let path = case::write(&opts.out_dir, &name, &shrunk.input, &expected)?;
    writeln!(
        out,
        "written as {}; run it again with: gomoku-mist check --program {} {}",
        path.display(),
        quote(&shown_command(&opts.program)),
        path.display()
    )?;
    out.flush()?;
    Ok(())
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
            };
            assert_eq!(workers(&opts), want, "jobs {jobs}, {limit:?}");
        }
    }
}
