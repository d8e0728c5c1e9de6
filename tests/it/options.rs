//! The command line as a whole: help, version, and that naming the default
//! options changes nothing.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{self, run};

#[test]
fn help_lists_every_option_on_stdout_and_exits_0() {
    for flag in ["-h", "--help"] {
        let run = run(&[flag], b"").expect("run");
        let help = String::from_utf8(run.stdout).expect("help is UTF-8");
        assert_eq!(run.code, Some(0));
        assert!(run.stderr.is_empty());
        for option in [
            "--moves",
            "--rule",
            "--board",
            "--crlf",
            "--help",
            "--version",
        ] {
            assert!(help.contains(option), "{option} missing from:\n{help}");
        }
        for rule in ["freestyle", "exact", "caro"] {
            assert!(help.contains(rule), "rule {rule} missing from:\n{help}");
        }
        assert!(help.contains("Examples:"));
    }
}

#[test]
fn version_prints_name_and_version() {
    for flag in ["-V", "--version"] {
        let run = run(&[flag], b"who\n").expect("run");
        let expected = format!("gomoku-mist {}\n", env!("CARGO_PKG_VERSION"));
        assert_eq!(String::from_utf8_lossy(&run.stdout), expected);
        assert_eq!(run.code, Some(0));
        assert!(run.stderr.is_empty());
    }
}

fn inputs(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read the golden folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            inputs(&path, found);
        } else if path.extension().is_some_and(|e| e == "in") {
            found.push(path);
        }
    }
}

/// Every golden case that runs without options gives the same bytes with
/// the defaults named: no option changes the contract's behaviour by being
/// present at its default.
#[test]
fn naming_the_default_options_changes_no_golden_case() {
    let mut cases = Vec::new();
    inputs(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden"),
        &mut cases,
    );
    let plain: Vec<_> = cases
        .into_iter()
        .filter(|case| !case.with_extension("args").exists())
        .collect();
    assert!(
        plain.len() >= 200,
        "only {} cases without options",
        plain.len()
    );
    for case in plain {
        let input = fs::read(&case).expect("read .in");
        let expected = fs::read(case.with_extension("out")).expect("read .out");
        let code = fs::read_to_string(case.with_extension("code")).expect("read .code");
        let run = run(&["--rule", "freestyle", "--moves", ""], &input).expect("run");
        if let Some(diff) = common::diff(&expected, &run.stdout) {
            panic!("{}: stdout differs:\n{diff}", case.display());
        }
        assert_eq!(
            run.code.map(|c| format!("{c}\n")),
            Some(code),
            "{}",
            case.display()
        );
        assert!(run.stderr.is_empty(), "{}", case.display());
    }
}
