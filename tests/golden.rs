//! The golden suite: every `tests/golden/**/NAME.in` is one test.
//!
//! A case is read by the same code as `gomoku-mist check` reads it
//! ([`gomoku_mist::conform::case`]), so the suite and the kit cannot
//! disagree on the format:
//!
//! - `NAME.in`: the bytes on stdin;
//! - `NAME.out`: the bytes expected on stdout;
//! - `NAME.code`: the exit code expected, in decimal, then a newline;
//! - `NAME.args` (optional): the command-line arguments, one a line;
//!   without it the program runs with none;
//! - `NAME.err` (optional): the bytes expected on stderr; without it,
//!   stderr must be empty (`check` does not compare stderr; this suite
//!   does, since the wording of our own errors is ours to keep).
//!
//! A difference is shown as `check` shows it: the first line that differs,
//! escaped, with the lines before it.
//!
//! `GOLDEN_BLESS=1 cargo test --test golden` rewrites `.out`, `.code` and
//! `.err` from what the program does now: review the diff before you
//! commit it.

use std::fs;
use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;
use gomoku_mist::conform::case;
use gomoku_mist::conform::report::difference;

/// No case takes anywhere near this long; past it the run is killed.
const HANG: Duration = Duration::from_secs(20);

fn golden(input_path: &Path) -> datatest_stable::Result<()> {
    let case = case::read(input_path)?;
    let run = Command::new(env!("CARGO_BIN_EXE_gomoku-mist"))
        .args(&case.args)
        .write_stdin(case.input.clone())
        .timeout(HANG)
        .output()?;
    let code = match run.status.code() {
        Some(code) => format!("{code}\n"),
        None => "killed by a signal (or no end within the time limit)\n".to_owned(),
    };
    if std::env::var_os("GOLDEN_BLESS").is_some_and(|v| !v.is_empty()) {
        return bless(input_path, &run.stdout, &code, &run.stderr);
    }
    let missing = |what: &str| format!("{}: no .{what} file", input_path.display());
    let expected_code = case.code.ok_or_else(|| missing("code"))?;
    let mut failures = String::new();
    for (what, expected, actual) in [
        (
            "stdout",
            case.out.ok_or_else(|| missing("out"))?,
            &run.stdout,
        ),
        (
            "exit code",
            format!("{expected_code}\n").into_bytes(),
            &code.into_bytes(),
        ),
        ("stderr", case.err.unwrap_or_default(), &run.stderr),
    ] {
        if let Some(diff) = difference(what, &expected, actual) {
            failures.push_str(&format!("\n{diff}"));
        }
    }
    if failures.is_empty() {
        return Ok(());
    }
    Err(Box::new(Failure(format!(
        "{} failed (args {:?}):{failures}\nIf the new output is right: \
         GOLDEN_BLESS=1 cargo test --test golden, then review the diff.",
        input_path.display(),
        case.args,
    ))))
}

/// Writes what the program did as the case's expected files.
fn bless(
    input_path: &Path,
    stdout: &[u8],
    code: &str,
    stderr: &[u8],
) -> datatest_stable::Result<()> {
    fs::write(input_path.with_extension("out"), stdout)?;
    fs::write(input_path.with_extension("code"), code)?;
    let err = input_path.with_extension("err");
    if stderr.is_empty() {
        if err.exists() {
            fs::remove_file(err)?;
        }
    } else {
        fs::write(err, stderr)?;
    }
    Ok(())
}

/// A failure message shown as it is: the harness prints errors with
/// `Debug`, which would quote a `String` and escape every newline of the
/// diff.
struct Failure(String);

impl std::fmt::Debug for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failure {}

datatest_stable::harness! {
    { test = golden, root = "tests/golden", pattern = r"\.in$" },
}
