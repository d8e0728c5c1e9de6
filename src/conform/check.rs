//! `check`: every case under the given paths, run through a program and
//! compared with what is expected, in parallel, reported in path order.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use super::clause::Clause;
use super::diagnose::{self, Prober, TermCheck};
use super::hint::{self, Hint, Tried};
use super::model::{CaseResult, Checked, Verdict};
use super::run::{self, Budget, Ran};
use super::sandbox::Kit;
use super::{ConformError, Expected, Format, Outcome, case, pool, report, trace};

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
    /// How the report is written.
    pub format: Format,
    /// What the program may use: the shell makes the [`Kit`] of it that
    /// [`check`] is given.
    pub contain: super::sandbox::Contain,
}

/// Runs every case and writes one line per case, a diff for each failure
/// and a summary line `N passed, M failed[, K skipped]` (text), or the
/// same as JUnit XML or JSON.
///
/// # Errors
///
/// [`ConformError`] if a path or case cannot be read, or the report
/// cannot be written. A failing program is an [`Outcome`], not an error.
pub fn check(
    opts: &CheckOptions,
    kit: Option<&Kit>,
    out: &mut dyn Write,
) -> Result<Outcome, ConformError> {
    let text = opts.format == Format::Text;
    let checked = run_cases(opts, kit, &mut |case| {
        if text {
            report::text::check_case(out, case)?;
        }
        Ok(())
    })?;
    match opts.format {
        Format::Text => report::text::check_totals(out, &checked)?,
        Format::Junit => out.write_all(report::junit::check(&checked).as_bytes())?,
        Format::Json => out.write_all(report::json::rows(&checked).as_bytes())?,
    }
    out.flush()?;
    Ok(if checked.passed_all() {
        Outcome::Passed
    } else {
        Outcome::Failed
    })
}

/// Runs every case, in parallel, and gives each to `each` in path order
/// as soon as those before it are done.
///
/// # Errors
///
/// [`ConformError`] if a path or case cannot be read, or `each` fails.
pub fn run_cases(
    opts: &CheckOptions,
    kit: Option<&Kit>,
    each: &mut dyn FnMut(&CaseResult) -> Result<(), ConformError>,
) -> Result<Checked, ConformError> {
    let (command, ours) = match &opts.program {
        Some(command) => (command.clone(), false),
        None => {
            let exe = std::env::current_exe().map_err(ConformError::CurrentExe)?;
            (vec![exe.into_os_string()], true)
        }
    };
    let paths = case::find(&opts.paths)?;
    // How the program takes `term` alone, learnt once, up front, with the
    // whole --timeout: the probes that find the line to blame end with it,
    // and a verdict learnt in what a failing case had left of its time
    // would weaken every later one.
    let term = if paths.is_empty() {
        TermCheck::Unusable
    } else if ours {
        // This program is the reference: it takes `term` as the contract
        // says, and nothing need be run to learn it (a test binary that
        // stands in for it would run its whole suite again).
        TermCheck::Right
    } else {
        term_alone(kit, &command, opts.timeout)
    };
    let run = Runner {
        kit,
        command: &command,
        ours,
        term,
    };
    let mut checked = Checked::default();
    // Verdicts come in any order; each is given once all before it are.
    pool::ordered(
        &paths,
        opts.jobs,
        |_, path| judge(path, &run, opts),
        |_| {},
        |_, case| -> Result<(), ConformError> {
            let case = case?;
            each(&case)?;
            checked.push(case);
            Ok(())
        },
    )?;
    Ok(checked)
}

/// How `term\n` alone comes out of the program, run with the whole
/// `timeout`.
fn term_alone(kit: Option<&Kit>, command: &[OsString], timeout: Duration) -> TermCheck {
    let limits = Budget {
        timeout,
        cap: MIN_CAP,
    };
    TermCheck::of(&run::run(kit, command, &[], b"term\n", limits))
}

/// What every case is run with.
struct Runner<'a> {
    kit: Option<&'a Kit>,
    command: &'a [OsString],
    /// Whether the program is this one (which reads `.args`).
    ours: bool,
    /// How it takes `term` alone.
    term: TermCheck,
}

fn judge(
    path: &std::path::Path,
    runner: &Runner<'_>,
    opts: &CheckOptions,
) -> Result<CaseResult, ConformError> {
    let started = Instant::now();
    let result = |verdict, reason: String, decisions| CaseResult {
        path: report::shown_path(path),
        verdict,
        reason,
        clause: None,
        kind: None,
        line: None,
        cause: None,
        hint: None,
        failure: None,
        detail: String::new(),
        decisions,
        seconds: started.elapsed().as_secs_f64(),
        timed_out: false,
        killed_at_limit: false,
        file: path.to_path_buf(),
    };
    let skip = |why: &str| Ok(result(Verdict::Skip, why.to_owned(), Vec::new()));
    if let Some(why) = case::unreadable(path) {
        return skip(why);
    }
    let case = case::read(path)?;
    if case.has_args && !runner.ours {
        return skip("has .args: options are this program's own");
    }
    if let Some(why) = case.not_run() {
        return skip(why);
    }
    let Some(expected) = case.expected_within(opts.read_args, opts.timeout) else {
        return skip("the reference did not finish within --timeout: give .out and .code");
    };
    // Only the contract's own game has clauses to name.
    let traced = (!case.has_args)
        .then(|| trace::trace(&case.input))
        .filter(|t| t.stdout == expected.stdout && t.code == expected.code);
    let decisions = traced
        .as_ref()
        .map(|t| trace::decisions(&case.input, t))
        .unwrap_or_default();
    // A session the reference ends without reading `term` is run ended
    // by `term` too, at the same time: if the program hangs at the end
    // of the input, that run still shows what it does before, within the
    // case's one --timeout.
    let twin_input = traced
        .as_ref()
        .filter(|t| t.stop != trace::Stop::Term && !case.input.is_empty())
        .map(|t| diagnose::ended_by_term(&case.input, t));
    let (ran, twin) = runner.run_with_twin(&case, &expected, twin_input.as_deref(), opts.timeout);
    if let run::End::Unstarted(why) = &ran.end {
        let why = format!("not marked: the kit could not start it ({why})");
        return Ok(result(Verdict::Skip, why, decisions));
    }
    let Some(detail) = report::compare(&expected, &ran) else {
        return Ok(result(Verdict::Pass, String::new(), decisions));
    };
    // A program that never ran broke no clause.
    let ran_at_all = !matches!(ran.end, run::End::CannotStart(_));
    let twin = twin_input.as_deref().zip(twin.as_ref());
    let finding = traced
        .as_ref()
        .filter(|_| ran_at_all)
        .and_then(|t| runner.blame(&case, t, &ran, twin, started, opts.timeout));
    let hint = finding
        .as_ref()
        .and_then(|f| runner.hint(&case, f, started, opts.timeout));
    let clause = finding
        .as_ref()
        .map(|f| hint.map_or(f.clause, |h| h.clause(f.clause, &f.scenarios)));
    let hint = hint.and_then(Tried::given);
    let reason = report::summary(&expected, &ran).to_owned();
    Ok(CaseResult {
        clause,
        kind: clause.map(Clause::kind),
        line: finding.as_ref().and_then(|f| f.line),
        hint: hint.map(Hint::sentence),
        failure: finding.as_ref().map(|f| f.class),
        cause: finding.map(|f| f.cause),
        detail,
        timed_out: matches!(ran.end, run::End::TimedOut(_)),
        killed_at_limit: matches!(
            ran.end,
            run::End::TimedOut(_) | run::End::TooMuchOutput(_) | run::End::OverLimit(_)
        ),
        ..result(Verdict::Fail, reason, decisions)
    })
}

impl Runner<'_> {
    /// The case's run and, at the same time, its twin's (the input ended
    /// by `term`) with what the reference does with it.
    fn run_with_twin(
        &self,
        case: &case::Case,
        expected: &Expected,
        twin: Option<&[u8]>,
        timeout: Duration,
    ) -> (Ran, Option<(trace::Trace, Ran)>) {
        thread::scope(|scope| {
            let twin = twin.map(|input| {
                scope.spawn(move || {
                    let t = trace::trace(input);
                    let ran = self.run(&case.args, input, t.stdout.len(), timeout);
                    (t, ran)
                })
            });
            let ran = self.run(&case.args, &case.input, expected.stdout.len(), timeout);
            (ran, twin.and_then(|h| h.join().ok()))
        })
    }

    /// The hint for `f`, tried: refuted if the program's answer to one of
    /// the hint's controls refutes it (see [`hint::controls`]). The
    /// controls run only within what is left of the case's `timeout`;
    /// where a control has no time left to run, no hint is tried at all
    /// (none is given without its experiment: a program that hung on the
    /// case would otherwise keep a hint nothing checked).
    fn hint(
        &self,
        case: &case::Case,
        f: &diagnose::Finding,
        started: Instant,
        timeout: Duration,
    ) -> Option<Tried> {
        let h = hint::guess(f)?;
        let mut refuted = false;
        for control in hint::controls(h, &f.example) {
            let left = timeout
                .checked_sub(started.elapsed())
                .filter(|l| !l.is_zero())?;
            let expected = trace::trace(&control.input).stdout.len();
            let cap = expected.max(f.ran.stdout.len());
            let ran = self.run(&case.args, &control.input, cap, left);
            if control.refutes(&f.ran.stdout, &ran) {
                refuted = true;
                break;
            }
        }
        Some(h.tried(refuted))
    }

    /// One run of the program on `input`, its output capped far above the
    /// `expected` length.
    fn run(&self, args: &[OsString], input: &[u8], expected: usize, timeout: Duration) -> Ran {
        let limits = Budget {
            timeout,
            cap: expected.saturating_mul(CAP_FACTOR).max(MIN_CAP),
        };
        run::run(self.kit, self.command, args, input, limits)
    }

    /// The diagnosis of a failing run of `case`, if a clause is found: from
    /// the run itself, or, when it hung at the end of the input, from its
    /// `twin` ended by `term`; probes share the case's own `timeout`.
    fn blame(
        &self,
        case: &case::Case,
        t: &trace::Trace,
        ran: &Ran,
        twin: Option<(&[u8], &(trace::Trace, Ran))>,
        started: Instant,
        timeout: Duration,
    ) -> Option<diagnose::Finding> {
        let hung = |r: &Ran| matches!(r.end, run::End::TimedOut(_));
        let (input, t, ran) = match twin {
            // Hung at the end of the input: what it does before.
            Some((input, (twin_trace, twin_ran))) if hung(ran) && !hung(twin_ran) => {
                let want = twin_trace.expected();
                if report::compare(&want, twin_ran).is_none() {
                    return Some(diagnose::Finding {
                        end_shown: true,
                        ..diagnose::end_finding(&case.input, t, ran)
                    });
                }
                (input, twin_trace, twin_ran)
            }
            // Hung ended by `term` too: not for want of an end, and the
            // twin, whose input has one, says where it hangs.
            Some((input, (twin_trace, twin_ran))) if hung(ran) => (input, twin_trace, twin_ran),
            _ => (case.input.as_slice(), t, ran),
        };
        if hung(ran) {
            // The case's time is spent: no probe can be run.
            return Some(diagnose::without_probes(input, t, ran));
        }
        let probe = |input: &[u8], want: &Expected, timeout: Duration| {
            self.run(&case.args, input, want.stdout.len(), timeout)
        };
        let prober = Prober {
            run: &probe,
            timeout,
            jobs: 1,
            term: self.term,
            // The probes share the case's own --timeout.
            deadline: started.checked_add(timeout),
            end_by_deadline: true,
        };
        diagnose::diagnose(input, t, ran, &prober)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::conform::Invocation;

    /// A `.in` case `name` in `dir` with `input`.
    fn case(dir: &std::path::Path, name: &str, input: &[u8]) {
        std::fs::write(dir.join(format!("{name}.in")), input).expect("write a case");
    }

    #[test]
    fn term_alone_is_asked_up_front_with_the_whole_timeout() {
        let dir = tempfile::tempdir().expect("a folder");
        let log = dir.path().join("log");
        // Slow on `term` alone (half the timeout and more), quick and
        // wrong on anything else: asked within what a failing case had
        // left of its time, `term` alone would seem to hang.
        let script = format!(
            "input=$(cat); echo \"[$input]\" >> '{}'; \
             if [ \"$input\" = term ]; then sleep 1.5; exit 1; fi; echo wrong; exit 1",
            log.display()
        );
        let cases = dir.path().join("cases");
        std::fs::create_dir(&cases).expect("a folder");
        for name in ["a", "b", "c"] {
            case(&cases, name, b"who\nterm\n");
        }
        let timeout = Duration::from_secs(2);
        let opts = CheckOptions {
            program: Some(["sh", "-c", &script].map(OsString::from).to_vec()),
            paths: vec![cases],
            timeout,
            jobs: 3,
            read_args: |_| Invocation::contract(),
            format: Format::Json,
            contain: Default::default(),
        };
        let mut out = Vec::new();
        let outcome = check(&opts, None, &mut out).expect("check runs");
        assert_eq!(outcome, Outcome::Failed);
        let log = std::fs::read_to_string(&log).expect("the runs' log");
        // Before any case.
        assert_eq!(log.lines().next(), Some("[term]"), "{log}");
        let slow = ["sh", "-c", "sleep 1.5; exit 1"].map(OsString::from);
        assert_eq!(term_alone(None, &slow, timeout), TermCheck::Right);
    }
}
