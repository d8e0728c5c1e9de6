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
        Ok(Action::Help) => return print(text::HELP),
        Ok(Action::Version) => return print(text::VERSION),
        Err(e) => {
            complain(&format!("{e}\n{}", text::USAGE_HINT));
            return ExitCode::from(USAGE_ERROR);
        }
    };
    match session::run(game, settings, io::stdin().lock(), io::stdout().lock()) {
        Ok(stop) => ExitCode::from(stop.exit_code()),
        // A reader that has gone away, as `| head -1` does, is a normal end.
        Err(SessionError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::from(FAILURE)
        }
        Err(e) => {
            complain(&e.to_string());
            ExitCode::from(FAILURE)
        }
    }
}

fn print(text: &str) -> ExitCode {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(FAILURE),
    }
}

/// Writes to stderr without `eprintln!`, which panics if stderr is closed.
fn complain(message: &str) {
    let _ = writeln!(io::stderr().lock(), "{}{message}", text::ERROR_PREFIX);
}
