//! A stdout that is closed or fails is an error in both binaries: one
//! line on stderr and exit 1, even for a game that ended in a win.

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
fn a_closed_stdout_is_an_error_for_the_controller() {
    let (code, stderr) = run(BIN, WON, ">&-");
    assert_eq!(code, Some(1), "stderr: {stderr}");
    assert_eq!(
        stderr,
        "gomoku-mist: cannot write output: stdout is closed\n"
    );
    let (code, stderr) = run(BIN, "", "--help >&-");
    assert_eq!((code, stderr.lines().count()), (Some(1), 1), "{stderr}");
}

#[test]
fn a_closed_stdout_is_an_error_for_the_brain() {
    let (code, stderr) = run(BRAIN, BRAIN_INPUT, ">&-");
    assert_eq!(code, Some(1), "stderr: {stderr}");
    assert_eq!(
        stderr,
        "pbrain-gomoku-mist: cannot write output: stdout is closed\n"
    );
}

#[test]
fn dev_null_is_not_closed() {
    assert_eq!(run(BIN, WON, ">/dev/null"), (Some(0), String::new()));
    assert_eq!(
        run(BRAIN, BRAIN_INPUT, ">/dev/null"),
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
