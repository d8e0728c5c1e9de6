//! A stdout that fails is an error in both binaries: one line on stderr
//! and exit 1, even for a game that ended in a win. Any `/dev/null` is a
//! stdout that works, however it was opened.

use std::process::Command;

use crate::common::BIN;

const BRAIN: &str = env!("CARGO_BIN_EXE_pbrain-gomoku-mist");

/// A won game for the controller; a whole game's opening for the brain.
const WON: &str =
    "place A1\nplace B1\nplace A2\nplace B2\nplace A3\nplace B3\nplace A4\nplace B4\nplace A5\n";
const BRAIN_INPUT: &str = "START 15\nBEGIN\nEND\n";

/// Runs `program` under `sh` with `input` on stdin and stdout redirected
/// as `redirect` says; its exit code and stderr.
fn run(program: &str, input: &str, redirect: &str) -> (Option<i32>, String) {
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("printf '%s' \"$1\" | \"$0\" {redirect}"))
        .arg(program)
        .arg(input)
        .output()
        .expect("run sh");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn dev_null_is_not_closed() {
    assert_eq!(run(BIN, WON, ">/dev/null"), (Some(0), String::new()));
    assert_eq!(
        run(BRAIN, BRAIN_INPUT, ">/dev/null"),
        (Some(0), String::new())
    );
}

/// Python's `subprocess.DEVNULL`, Node's `stdio: 'ignore'` and daemon(3)
/// open `/dev/null` read-write, as `1<>` does: a harness that throws the
/// replies away still gets the game's exit code.
#[test]
fn dev_null_opened_read_write_is_not_closed() {
    assert_eq!(run(BIN, WON, "1<>/dev/null"), (Some(0), String::new()));
    assert_eq!(
        run(BRAIN, BRAIN_INPUT, "1<>/dev/null"),
        (Some(0), String::new())
    );
}

#[test]
fn a_full_device_is_an_error_in_both() {
    let (code, stderr) = run(BIN, WON, ">/dev/full");
    assert_eq!(code, Some(1), "stderr: {stderr}");
    assert!(
        stderr.starts_with("gomoku-mist: cannot write output: ") && stderr.lines().count() == 1,
        "{stderr}"
    );
    let (code, stderr) = run(BRAIN, BRAIN_INPUT, ">/dev/full");
    assert_eq!(code, Some(1), "stderr: {stderr}");
    assert!(
        stderr.starts_with("pbrain-gomoku-mist: ") && stderr.lines().count() == 1,
        "{stderr}"
    );
}
