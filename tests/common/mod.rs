//! Running the built binary, for the test binaries that need it.

#![allow(dead_code)] // each test binary uses its own part of this

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
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

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Run {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// `None` if the process was killed by a signal.
    pub code: Option<i32>,
}

/// Runs the binary with `args`, feeding it `input` on stdin, and fails
/// (rather than hangs) if it does not finish within [`HANG`].
pub fn run(args: &[&str], input: &[u8]) -> Result<Run, String> {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {BIN}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin pipe")?;
    let input = input.to_vec();
    // The program may stop reading early (after `term`, or a win), so a
    // failed write here is expected, not an error.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().ok_or("no stdout pipe")?;
    let mut stderr = child.stderr.take().ok_or("no stderr pipe")?;
    let (done, finished) = mpsc::channel();
    thread::spawn(move || {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let read = stdout
            .read_to_end(&mut out)
            .and_then(|_| stderr.read_to_end(&mut err));
        let _ = done.send(read.map(|_| (out, err)));
    });
    let (stdout, stderr) = match finished.recv_timeout(HANG) {
        Ok(read) => read.map_err(|e| format!("cannot read the output: {e}"))?,
        Err(_) => {
            let _ = child.kill();
            return Err(format!("no end after {HANG:?}: killed"));
        }
    };
    let status = child.wait().map_err(|e| format!("cannot wait: {e}"))?;
    let _ = writer.join();
    Ok(Run {
        stdout,
        stderr,
        code: status.code(),
    })
}

/// Bytes as lines a person can read in a diff: every byte that is not
/// printable ASCII escaped, each `\n` shown and kept as a line break.
pub fn readable(bytes: &[u8]) -> String {
    let mut out = String::new();
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let (body, newline) = match line.strip_suffix(b"\n") {
            Some(body) => (body, "⏎\n"),
            None => (line, "   (no newline at end)\n"),
        };
        out.extend(body.escape_ascii().map(char::from));
        out.push_str(newline);
    }
    out
}

/// A unified diff of two byte strings, or `None` if they are equal.
pub fn diff(expected: &[u8], actual: &[u8]) -> Option<String> {
    if expected == actual {
        return None;
    }
    let (expected, actual) = (readable(expected), readable(actual));
    let diff = similar::TextDiff::from_lines(&expected, &actual);
    Some(
        diff.unified_diff()
            .context_radius(3)
            .header("expected", "actual")
            .to_string(),
    )
}
