//! Running the built binary, for the tests that need it: whole runs go
//! through `assert_cmd`; what it cannot do (a conversation over pipes,
//! one command and one reply at a time) is here. A difference is shown
//! as the conformance kit shows it.

#![allow(dead_code)] // each test binary uses its own part of this

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The binary under test, as Cargo built it for this test run.
pub const BIN: &str = env!("CARGO_BIN_EXE_gomoku-mist");

/// No case takes anywhere near this long; past it a run is taken to hang.
pub const HANG: Duration = Duration::from_secs(20);

/// Starts the binary with every standard stream piped, or with stdout
/// going to `stdout` if given.
pub fn spawn(stdout: Option<Stdio>) -> Child {
    Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(stdout.unwrap_or_else(Stdio::piped))
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the binary")
}

/// Everything the child wrote on stderr.
pub fn stderr_of(child: &mut Child) -> String {
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        pipe.read_to_string(&mut stderr).expect("read stderr");
    }
    stderr
}

pub use gomoku_mist::conform::report::first_difference as diff;

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Run {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// `None` if the process was killed by a signal.
    pub code: Option<i32>,
}

/// Runs the binary with `args`, feeding it `input` on stdin; killed (and
/// its code `None`) if it does not finish within [`HANG`].
pub fn run(args: &[&str], input: &[u8]) -> Result<Run, String> {
    let output = assert_cmd::Command::new(BIN)
        .args(args)
        .write_stdin(input.to_vec())
        .timeout(HANG)
        .output()
        .map_err(|e| format!("cannot run {BIN}: {e}"))?;
    Ok(Run {
        stdout: output.stdout,
        stderr: output.stderr,
        code: output.status.code(),
    })
}
