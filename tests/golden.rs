//! The golden suite: every `tests/golden/**/NAME.in` is one test.
//!
//! A case is a set of files sharing a name:
//!
//! - `NAME.in`: the bytes on stdin;
//! - `NAME.out`: the bytes expected on stdout;
//! - `NAME.code`: the exit code expected, in decimal, then a newline;
//! - `NAME.args` (optional): the command-line arguments, one a line;
//!   without it the program runs with none;
//! - `NAME.err` (optional): the bytes expected on stderr; without it,
//!   stderr must be empty.
//!
//! `GOLDEN_BLESS=1 cargo test --test golden` rewrites `.out`, `.code` and
//! `.err` from what the program does now: review the diff before you
//! commit it.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

fn golden(input_path: &Path) -> datatest_stable::Result<()> {
    let case = Case::at(input_path);
    let input = fs::read(input_path)?;
    let args = case.args()?;
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = common::run(&args, &input)?;
    let code = match run.code {
        Some(code) => format!("{code}\n"),
        None => "killed by a signal\n".to_owned(),
    };
    if std::env::var_os("GOLDEN_BLESS").is_some_and(|v| !v.is_empty()) {
        return case.bless(&run.stdout, &code, &run.stderr);
    }
    let mut failures = String::new();
    for (what, expected, actual) in [
        ("stdout", case.read("out")?, run.stdout.as_slice()),
        ("exit code", case.read("code")?, code.as_bytes()),
        ("stderr", case.read_or_empty("err")?, run.stderr.as_slice()),
    ] {
        if let Some(diff) = common::diff(&expected, actual) {
            failures.push_str(&format!("\n{what} differs:\n{diff}"));
        }
    }
    if failures.is_empty() {
        return Ok(());
    }
    Err(Box::new(Failure(format!(
        "{} failed (args {args:?}):{failures}\nIf the new output is right: \
         GOLDEN_BLESS=1 cargo test --test golden, then review the diff.",
        input_path.display()
    ))))
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

/// The files of one case, named after its `.in` file.
struct Case {
    stem: PathBuf,
}

impl Case {
    fn at(input_path: &Path) -> Case {
        Case {
            stem: input_path.with_extension(""),
        }
    }

    fn path(&self, extension: &str) -> PathBuf {
        self.stem.with_extension(extension)
    }

    fn read(&self, extension: &str) -> datatest_stable::Result<Vec<u8>> {
        let path = self.path(extension);
        fs::read(&path).map_err(|e| format!("{}: {e}", path.display()).into())
    }

    fn read_or_empty(&self, extension: &str) -> datatest_stable::Result<Vec<u8>> {
        match fs::read(self.path(extension)) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            read => Ok(read?),
        }
    }

    fn args(&self) -> datatest_stable::Result<Vec<String>> {
        let bytes = self.read_or_empty("args")?;
        let text = String::from_utf8(bytes)?;
        Ok(text.lines().map(str::to_owned).collect())
    }

    fn bless(&self, stdout: &[u8], code: &str, stderr: &[u8]) -> datatest_stable::Result<()> {
        fs::write(self.path("out"), stdout)?;
        fs::write(self.path("code"), code)?;
        let err = self.path("err");
        if stderr.is_empty() {
            if err.exists() {
                fs::remove_file(err)?;
            }
        } else {
            fs::write(err, stderr)?;
        }
        Ok(())
    }
}

datatest_stable::harness! {
    { test = golden, root = "tests/golden", pattern = r"\.in$" },
}
