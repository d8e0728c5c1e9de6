//! The command line as a whole: help, version, and that naming the default
//! options changes nothing.

use std::path::PathBuf;

use assert_cmd::Command;
use gomoku_mist::conform::case;
use predicates::prelude::*;

use crate::common::{BIN, HANG, diff};

fn gomoku() -> Command {
    let mut command = Command::new(BIN);
    command.timeout(HANG);
    command
}

#[test]
fn help_lists_every_option_on_stdout_and_exits_0() {
    let lists_everything = || {
        [
            "--moves",
            "--rule",
            "--board",
            "--crlf",
            "--plain",
            "--cpu",
            "--help",
            "--version",
            "freestyle",
            "exact",
            "caro",
            "Examples:",
        ]
        .into_iter()
        .fold(predicate::str::is_empty().not().boxed(), |all, word| {
            all.and(predicate::str::contains(word)).boxed()
        })
    };
    for flag in ["-h", "--help"] {
        gomoku()
            .arg(flag)
            .assert()
            .success()
            .stdout(lists_everything())
            .stderr(predicate::str::is_empty());
    }
}

#[test]
fn version_prints_name_and_version() {
    for flag in ["-V", "--version"] {
        gomoku()
            .arg(flag)
            .write_stdin("who\n")
            .assert()
            .code(0)
            .stdout(format!("gomoku-mist {}\n", env!("CARGO_PKG_VERSION")))
            .stderr(predicate::str::is_empty());
    }
}

/// Every golden case that runs without options gives the same bytes with
/// the defaults named: no option changes the contract's behaviour by being
/// present at its default.
#[test]
fn naming_the_default_options_changes_no_golden_case() {
    let golden = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let plain: Vec<_> = case::find(&[golden])
        .expect("the golden cases")
        .iter()
        .map(|path| case::read(path).expect("a golden case"))
        .filter(|case| !case.has_args)
        .collect();
    assert!(
        plain.len() >= 200,
        "only {} cases without options",
        plain.len()
    );
    for case in plain {
        let path = case.path.display();
        let run = gomoku()
            .args(["--rule", "freestyle", "--moves", ""])
            .write_stdin(case.input.clone())
            .output()
            .expect("run");
        let expected = case.out.expect("a .out file");
        if let Some(diff) = diff(&expected, &run.stdout) {
            panic!("{path}:\n{diff}");
        }
        assert_eq!(run.status.code(), case.code, "{path}");
        assert!(run.stderr.is_empty(), "{path}");
    }
}
