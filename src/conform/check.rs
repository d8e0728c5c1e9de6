//! `check`: every case under the given paths, run through a program and
//! compared with what is expected, in parallel, reported in path order.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use super::clause::{Clause, Kind};
use super::diagnose::{self, Prober, TermCheck};
use super::report::json;
use super::run::{self, Limits};
use super::sandbox::Kit;
use super::{ConformError, Expected, Format, Outcome, case, junit, pool, report, trace};

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

/// How one case came out.
enum Verdict {
    Pass,
    /// The one-word summary and the detail (a diff).
    Fail(&'static str, String),
    Skip(String),
}

/// One case's verdict, with what a report shows beside it.
struct Judged {
    verdict: Verdict,
    /// The decisions of the contract its expected output depends on.
    decisions: Vec<&'static str>,
    /// For a failing case of the contract's game: the clause it breaks.
    blame: Option<Clause>,
    /// How long it took.
    took: Duration,
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
    let (command, ours) = match &opts.program {
        Some(command) => (command.clone(), false),
        None => {
            let exe = std::env::current_exe().map_err(ConformError::CurrentExe)?;
            (vec![exe.into_os_string()], true)
        }
    };
    let paths = case::find(&opts.paths)?;
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut all = Vec::new();
    let text = opts.format == Format::Text;
    // How the program takes `term` alone, learnt once, up front, with the
    // whole --timeout: the probes that find the line to blame end with it,
    // and a verdict learnt in what a failing case had left of its time
    // would weaken every later one.
    let term = if paths.is_empty() {
        TermCheck::Unusable
    } else {
        term_alone(kit, &command, opts.timeout)
    };
    let run = Runner {
        kit,
        command: &command,
        ours,
        term,
    };
    // Verdicts come in any order; each is printed once all before it are.
    pool::ordered(
        &paths,
        opts.jobs,
        |_, path| judge(path, &run, opts),
        |_| {},
        |index, judged| -> Result<(), ConformError> {
            let judged = judged?;
            let path = report::shown_path(&paths[index]);
            match &judged.verdict {
                Verdict::Pass => passed += 1,
                Verdict::Fail(..) => failed += 1,
                Verdict::Skip(_) => skipped += 1,
            }
            if text {
                write_text(out, &path, &judged)?;
            } else {
                all.push((path, judged));
            }
            Ok(())
        },
    )?;
    let checked = passed + failed;
    match opts.format {
        Format::Text => {
            if checked == 0 {
                writeln!(
                    out,
                    "nothing was checked: {}",
                    if paths.is_empty() {
                        "no case found"
                    } else {
                        "every case was skipped"
                    }
                )?;
            }
            write!(out, "{passed} passed, {failed} failed")?;
            if skipped > 0 {
                write!(out, ", {skipped} skipped")?;
            }
            writeln!(out)?;
        }
        Format::Junit => write_junit(out, &all)?,
        Format::Json => write_json(out, &all, (passed, failed, skipped))?,
    }
    out.flush()?;
    Ok(if failed == 0 && checked > 0 {
        Outcome::Passed
    } else {
        Outcome::Failed
    })
}

fn write_text(out: &mut dyn Write, path: &str, judged: &Judged) -> Result<(), ConformError> {
    match &judged.verdict {
        Verdict::Pass if judged.decisions.is_empty() => writeln!(out, "pass  {path}")?,
        // A program that decided otherwise where the assignment is silent
        // would fail this case without breaking any rule: say so.
        Verdict::Pass => writeln!(
            out,
            "pass  {path} (depends on this contract's decisions: {})",
            judged.decisions.join(", ")
        )?,
        Verdict::Fail(summary, detail) => {
            write!(out, "FAIL  {path}: {summary}")?;
            if let Some(clause) = judged.blame {
                // "Wrong" or "decided differently", by the clause blamed.
                write!(out, " [{clause}: {}]", clause.kind().phrase())?;
            }
            if judged.on_decision() {
                write!(
                    out,
                    " (depends on this contract's decisions: {})",
                    judged.decisions.join(", ")
                )?;
            }
            write!(out, "\n{detail}")?;
        }
        Verdict::Skip(why) => writeln!(out, "skip  {path}: {why}")?,
    }
    Ok(())
}

impl Judged {
    /// Whether the failure is blamed on a decision of the contract, not a
    /// rule of the assignment: "decided differently", not "wrong".
    fn on_decision(&self) -> bool {
        self.blame.is_some_and(|c| c.kind() == Kind::Decision)
    }
}

fn write_junit(out: &mut dyn Write, all: &[(String, Judged)]) -> Result<(), ConformError> {
    let cases = all.iter().map(|(path, judged)| {
        let decisions = judged.decisions.join(", ");
        let outcome = match &judged.verdict {
            Verdict::Pass => junit::Outcome::Pass,
            Verdict::Fail(summary, detail) => junit::Outcome::Failure {
                message: if judged.on_decision() {
                    format!("{summary} (depends on this contract's decisions: {decisions})")
                } else {
                    (*summary).to_owned()
                },
                kind: Some(judged.blame.map_or(*summary, Clause::id).to_owned()),
                body: detail.clone(),
            },
            Verdict::Skip(why) => junit::Outcome::Skipped {
                message: why.clone(),
            },
        };
        junit::Case {
            classname: "gomoku-mist.check",
            name: path.clone(),
            time: Some(judged.took.as_secs_f64()),
            properties: if decisions.is_empty() {
                Vec::new()
            } else {
                vec![("decisions".to_owned(), decisions)]
            },
            outcome,
        }
    });
    let report = junit::Report {
        name: "gomoku-mist check".to_owned(),
        shape: junit::Shape {
            totals: true,
            skipped: true,
            inline: false,
        },
        suites: vec![junit::Suite {
            name: "gomoku-mist check".to_owned(),
            time: all.iter().map(|(_, j)| j.took.as_secs_f64()).sum(),
            properties: Vec::new(),
            cases: cases.collect(),
            system_out: None,
        }],
    };
    out.write_all(junit::render(&report).as_bytes())?;
    Ok(())
}

fn write_json(
    out: &mut dyn Write,
    all: &[(String, Judged)],
    (passed, failed, skipped): (usize, usize, usize),
) -> Result<(), ConformError> {
    writeln!(out, "{{")?;
    writeln!(
        out,
        r#"  "passed": {passed}, "failed": {failed}, "skipped": {skipped},"#
    )?;
    writeln!(out, r#"  "cases": ["#)?;
    for (i, (path, judged)) in all.iter().enumerate() {
        let (verdict, summary, detail) = match &judged.verdict {
            Verdict::Pass => ("pass", "", String::new()),
            Verdict::Fail(summary, detail) => ("fail", *summary, detail.clone()),
            Verdict::Skip(why) => ("skip", why.as_str(), String::new()),
        };
        let decisions: Vec<String> = judged.decisions.iter().map(|d| json(d)).collect();
        writeln!(
            out,
            r#"    {{"path": {}, "verdict": "{verdict}", "reason": {}, "clause": {}, "kind": {}, "detail": {}, "decisions": [{}], "seconds": {:.3}}}{}"#,
            json(path),
            json(summary),
            judged
                .blame
                .map_or_else(|| "null".to_owned(), |c| json(c.id())),
            judged
                .blame
                .map_or_else(|| "null".to_owned(), |c| json(c.kind().word())),
            json(&detail),
            decisions.join(", "),
            judged.took.as_secs_f64(),
            if i + 1 < all.len() { "," } else { "" }
        )?;
    }
    writeln!(out, "  ]")?;
    writeln!(out, "}}")?;
    Ok(())
}

/// How `term\n` alone comes out of the program, run with the whole
/// `timeout`.
fn term_alone(kit: Option<&Kit>, command: &[OsString], timeout: Duration) -> TermCheck {
    let limits = Limits {
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
) -> Result<Judged, ConformError> {
    let (kit, command, ours) = (runner.kit, runner.command, runner.ours);
    let started = Instant::now();
    let judged = |verdict, decisions| Judged {
        verdict,
        decisions,
        blame: None,
        took: started.elapsed(),
    };
    if let Some(why) = case::unreadable(path) {
        return Ok(judged(Verdict::Skip(why.to_owned()), Vec::new()));
    }
    let case = case::read(path)?;
    if case.has_args && !ours {
        return Ok(judged(
            Verdict::Skip("has .args: options are this program's own".to_owned()),
            Vec::new(),
        ));
    }
    if let Some(why) = case.not_run() {
        return Ok(judged(Verdict::Skip(why.to_owned()), Vec::new()));
    }
    let Some(expected) = case.expected_within(opts.read_args, opts.timeout) else {
        return Ok(judged(
            Verdict::Skip(
                "the reference did not finish within --timeout: give .out and .code".to_owned(),
            ),
            Vec::new(),
        ));
    };
    // Only the contract's own game has clauses to name.
    let traced = (!case.has_args)
        .then(|| trace::trace(&case.input))
        .filter(|t| t.stdout == expected.stdout && t.code == expected.code);
    let decisions = traced
        .as_ref()
        .map(|t| {
            trace::decisions(&case.input, t)
                .into_iter()
                .map(Clause::id)
                .collect()
        })
        .unwrap_or_default();
    let limits = Limits {
        timeout: opts.timeout,
        cap: expected
            .stdout
            .len()
            .saturating_mul(CAP_FACTOR)
            .max(MIN_CAP),
    };
    // A session the reference ends without reading `term` is run ended
    // by `term` too, at the same time: if the program hangs at the end
    // of the input, that run still shows what it does before, within the
    // case's one --timeout.
    let twin_input = traced
        .as_ref()
        .filter(|t| t.stop != trace::Stop::Term && !case.input.is_empty())
        .map(|t| diagnose::ended_by_term(&case.input, t));
    let args = &case.args;
    let (ran, twin) = thread::scope(|scope| {
        let twin = twin_input.as_ref().map(|input| {
            scope.spawn(move || {
                let t = trace::trace(input);
                let limits = Limits {
                    timeout: opts.timeout,
                    cap: t.stdout.len().saturating_mul(CAP_FACTOR).max(MIN_CAP),
                };
                let ran = run::run(kit, command, args, input, limits);
                (t, ran)
            })
        });
        let ran = run::run(kit, command, args, &case.input, limits);
        (ran, twin.and_then(|h| h.join().ok()))
    });
    if let run::End::Unstarted(why) = &ran.end {
        return Ok(judged(
            Verdict::Skip(format!("not marked: the kit could not start it ({why})")),
            decisions,
        ));
    }
    Ok(match report::compare(&expected, &ran) {
        None => judged(Verdict::Pass, decisions),
        Some(detail) => {
            // A program that never ran broke no clause.
            let ran_at_all = !matches!(ran.end, run::End::CannotStart(_));
            let blame = traced.as_ref().filter(|_| ran_at_all).and_then(|t| {
                let hung = |r: &run::Ran| matches!(r.end, run::End::TimedOut(_));
                let (input, t, ran) = match (&twin_input, &twin) {
                    // Hung at the end of the input: what it does before.
                    (Some(input), Some((twin_trace, twin_ran)))
                        if hung(&ran) && !hung(twin_ran) =>
                    {
                        let want = Expected {
                            stdout: twin_trace.stdout.clone(),
                            code: twin_trace.code,
                        };
                        if report::compare(&want, twin_ran).is_none() {
                            return Some(diagnose::end_finding(&case.input, t, &ran).clause);
                        }
                        (input.as_slice(), twin_trace, twin_ran)
                    }
                    _ => (case.input.as_slice(), t, &ran),
                };
                let finding = if hung(ran) {
                    // The case's time is spent: no probe can be run.
                    diagnose::without_probes(input, t, ran)
                } else {
                    let probe = |input: &[u8], want: &Expected, timeout: Duration| {
                        let limits = Limits {
                            timeout,
                            cap: want.stdout.len().saturating_mul(CAP_FACTOR).max(MIN_CAP),
                        };
                        run::run(kit, command, &case.args, input, limits)
                    };
                    let prober = Prober {
                        run: &probe,
                        timeout: opts.timeout,
                        jobs: 1,
                        term: runner.term,
                        // The probes share the case's own --timeout.
                        deadline: started.checked_add(opts.timeout),
                        end_by_deadline: true,
                    };
                    diagnose::diagnose(input, t, ran, &prober)?
                };
                Some(finding.clause)
            });
            Judged {
                blame,
                ..judged(
                    Verdict::Fail(report::summary(&expected, &ran), detail),
                    decisions,
                )
            }
        }
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::conform::Setup;

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
            read_args: |_| Setup::contract(),
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
