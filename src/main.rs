//! The shell: arguments in, stdin and stdout to the session (or to the
//! terminal front-end when a person is typing), exit code out.

#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use gomoku_mist::cli::{self, Action};
use gomoku_mist::conform::{self, ConformError, Outcome, sandbox};
use gomoku_mist::controller::opponent::Cpu;
use gomoku_mist::controller::stream::{self, SessionError};
use gomoku_mist::controller::text;
use gomoku_mist::terminal::{self, TerminalError};

/// A command line that cannot be followed.
const USAGE_ERROR: u8 = 2;
/// `term`, end of input, or input or output that failed.
const FAILURE: u8 = 1;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    // The kit runs this program as the launcher of each program it tests.
    if args.first().is_some_and(|a| a == sandbox::LAUNCH) {
        return ExitCode::from(conform::launch::main(&args));
    }
    if args.first().is_some_and(|a| a == sandbox::INNER) {
        return ExitCode::from(conform::launch::inner(&args));
    }
    #[cfg(target_os = "linux")]
    if args.first().is_some_and(|a| a == sandbox::RUNNER) {
        return ExitCode::from(conform::boxes::runner(&args));
    }
    let action = match cli::parse(args) {
        Ok(action) => action,
        Err(e) => {
            complain(&format!("{e}\n{}", e.hint()));
            return ExitCode::from(USAGE_ERROR);
        }
    };
    // No check for a stdout closed at start (`>&-`): Rust's runtime has
    // put a read-write `/dev/null` there, which cannot be told from the
    // one Python's `subprocess.DEVNULL` or Node's `stdio: 'ignore'` pass,
    // and a harness that throws the replies away must get the game's code.
    let play = match action {
        Action::Play(play) => *play,
        Action::Help(help) => return print(help),
        Action::Version => return print(text::VERSION),
        Action::Check(options) => {
            let program = options.program.clone().unwrap_or_default();
            let kit = match contain(&options.contain, &program, ISOLATE_ADVICE) {
                Ok(kit) => kit,
                Err(code) => return code,
            };
            let outcome = conform::check(&options, Some(&kit), &mut stdout());
            conform::reap::hold();
            return conformed(outcome);
        }
        Action::Fuzz(options) => {
            let kit = match contain(&options.contain, &options.program, ISOLATE_ADVICE) {
                Ok(kit) => kit,
                Err(code) => return code,
            };
            let outcome = conform::fuzz(&options, Some(&kit), &mut stdout());
            conform::reap::hold();
            return conformed(outcome);
        }
        Action::Cover(options) => return conformed(conform::cover(&options, &mut stdout())),
        Action::Mark(options) if options.autograder.is_some() => {
            return autograder(options.autograder.as_ref());
        }
        Action::Mark(options) => {
            // The programs are built later, each in a folder like this.
            let program = [conform::mark::scratch::built_where().into_os_string()];
            let kit = match contain(&options.contain, &program, MARK_ADVICE) {
                Ok(kit) => kit,
                Err(code) => return code,
            };
            let outcome = marked(&options, &kit);
            conform::reap::hold();
            return outcome;
        }
    };
    let opponent = play.cpu.map(Cpu::opponent);
    if !play.plain && io::stdin().is_terminal() && terminal::available() {
        let options = terminal::Options {
            show_thinking: play.show_thinking,
        };
        let ended = terminal::play(play.game, play.settings, opponent, options);
        return match ended {
            Ok(stop) => ExitCode::from(stop.exit_code()),
            Err(TerminalError::Write(e)) => failed(&SessionError::Write(e)),
            Err(e) => {
                complain(&e.to_string());
                ExitCode::from(FAILURE)
            }
        };
    }
    let (stdin, stdout) = (io::stdin().lock(), io::stdout().lock());
    match stream::play(play.game, play.settings, opponent, stdin, stdout) {
        Ok(finish) => {
            leave_unread(finish.unread);
            ExitCode::from(finish.stop.exit_code())
        }
        Err(e) => failed(&e),
    }
}

/// Puts stdin's offset back over the bytes that were read but not
/// answered, so that the next reader of a file gets every line after the
/// game's last one, as after `head -n`. Stdin that cannot seek (a pipe, a
/// terminal) is left as it is: what was read from it is gone for everyone.
#[cfg(unix)]
fn leave_unread(unread: usize) {
    use std::fs::File;
    use std::io::{Seek, SeekFrom};
    use std::os::fd::AsFd;

    let Ok(unread) = i64::try_from(unread) else {
        return;
    };
    if unread == 0 {
        return;
    }
    // A second descriptor for the same open file shares its offset.
    let Ok(file) = io::stdin().as_fd().try_clone_to_owned().map(File::from) else {
        return;
    };
    if file.metadata().is_ok_and(|m| m.is_file()) {
        let _ = (&file).seek(SeekFrom::Current(-unread));
    }
}

#[cfg(not(unix))]
fn leave_unread(_: usize) {}

fn stdout() -> io::StdoutLock<'static> {
    io::stdout().lock()
}

/// The exit code of `check`, `fuzz` or `cover`: 0 all agreed, 1 not; a
/// report that cannot be written is 1, as any failed write; a PATH given
/// that cannot be read is 2, as a bad command line; anything else the kit
/// cannot do (write --out, read a malformed case) is 1, with the reason.
fn conformed(outcome: Result<Outcome, ConformError>) -> ExitCode {
    match outcome {
        Ok(outcome) => ExitCode::from(outcome.exit_code()),
        Err(ConformError::Report(e)) => failed(&SessionError::Write(e)),
        Err(e @ (ConformError::Path { .. } | ConformError::NotACase(_))) => {
            complain(&e.to_string());
            ExitCode::from(USAGE_ERROR)
        }
        Err(e) => {
            complain(&e.to_string());
            ExitCode::from(FAILURE)
        }
    }
}

/// What to do when `check --isolate` or `fuzz --isolate` cannot isolate.
const ISOLATE_ADVICE: &str = "install bubblewrap where user namespaces are allowed, or leave out \
    --isolate";

/// What to do when `mark` cannot isolate: it never marks untrusted
/// programs unprotected unless told to.
const MARK_ADVICE: &str = "mark runs every submission isolated; install bubblewrap (Debian and \
    Ubuntu: apt-get install bubblewrap) where user namespaces are allowed, or give --unisolated \
    to mark the programs unprotected";

/// Makes how the kit runs the programs it tests (the limits, the
/// launcher: this program) and makes it leave none running however it
/// ends; says once on stderr what it could not apply. `program` is the
/// one tested (empty for this program itself); `advice`, what to do when
/// isolation is required and cannot be had.
fn contain(
    contain: &sandbox::Contain,
    program: &[OsString],
    advice: &str,
) -> Result<sandbox::Kit, ExitCode> {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return Err(conformed(Err(ConformError::CurrentExe(e)))),
    };
    let program = if program.is_empty() {
        vec![exe.clone().into_os_string()]
    } else {
        program.to_vec()
    };
    // Before the guard, which kills by the ids /proc gives.
    if let Err(why) = sandbox::proc_is_ours() {
        complain(&sandbox::SandboxError::ForeignProc(why).to_string());
        return Err(ExitCode::from(USAGE_ERROR));
    }
    if let Err(e) = conform::reap::guard() {
        complain(&format!("cannot watch the programs it starts: {e}"));
        return Err(ExitCode::from(FAILURE));
    }
    match sandbox::Kit::new(contain, exe, &program, advice) {
        Ok((kit, notes)) => {
            for note in notes {
                complain(&note);
            }
            Ok(kit)
        }
        Err(e) => {
            complain(&e.to_string());
            Err(ExitCode::from(USAGE_ERROR))
        }
    }
}

/// `mark`, saying how far it is on stderr: a line overwritten on a
/// terminal, a line a submission in a log.
fn marked(options: &conform::mark::MarkOptions, kit: &sandbox::Kit) -> ExitCode {
    let mut stderr = io::stderr();
    let progress = if stderr.is_terminal() {
        conform::mark::Progress::Terminal(&mut stderr)
    } else {
        conform::mark::Progress::Lines(&mut stderr)
    };
    conformed(conform::mark::mark(
        options,
        Some(kit),
        &mut stdout(),
        progress,
    ))
}

/// Writes Gradescope's autograder zip, and one line saying what is in it.
fn autograder(autograder: Option<&conform::mark::autograder::Autograder>) -> ExitCode {
    let Some(autograder) = autograder else {
        return ExitCode::from(FAILURE);
    };
    match conform::mark::autograder::write(autograder) {
        Ok(written) => print(&conform::report::text::autograder_written(
            &autograder.zip,
            written.bytes,
            written.suite_files,
        )),
        Err(e) => conformed(Err(e)),
    }
}

fn print(text: &str) -> ExitCode {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => failed(&SessionError::Write(e)),
    }
}

/// Exit code 1, and one line on stderr unless the reader went away (as
/// `| head -1` does), which is a normal way to end.
fn failed(e: &SessionError) -> ExitCode {
    match e {
        SessionError::Write(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        e => complain(&e.to_string()),
    }
    ExitCode::from(FAILURE)
}

/// Writes to stderr without `eprintln!`, which panics if stderr is closed.
fn complain(message: &str) {
    let _ = writeln!(io::stderr().lock(), "{}{message}", text::ERROR_PREFIX);
}
