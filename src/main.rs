//! The shell: arguments in, stdin and stdout to the session, exit code out.

#![forbid(unsafe_code)]

use std::io::{self, Write};
use std::process::ExitCode;

use gomoku_mist::cli::{self, Action};
use gomoku_mist::session::{self, SessionError};
use gomoku_mist::text;

/// A command line that cannot be followed.
const USAGE_ERROR: u8 = 2;
/// `term`, end of input, or input or output that failed.
const FAILURE: u8 = 1;

fn main() -> ExitCode {
    // conform: the `check` and `fuzz` subcommands (see src/conform/args.rs).
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let (mut out, mut err) = (io::stdout().lock(), io::stderr().lock());
    if let Some(code) = gomoku_mist::conform::args::main(&args, &mut out, &mut err) {
        return ExitCode::from(code);
    }
    drop((out, err));
    // end conform
    let (game, settings) = match cli::parse(std::env::args_os().skip(1)) {
        Ok(Action::Play { game, settings }) => (*game, settings),
        Ok(Action::Help(help)) => return print(help),
        Ok(Action::Version) => return print(text::VERSION),
        Err(e) => {
            complain(&format!("{e}\n{}", e.hint()));
            return ExitCode::from(USAGE_ERROR);
        }
    };
    match session::play(game, settings, io::stdin().lock(), io::stdout().lock()) {
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
