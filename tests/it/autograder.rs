//! `mark --gradescope-autograder`: the zip made, unpacked as Gradescope
//! unpacks it, its `setup.sh` run (with `apt-get` a stub that records what
//! it was asked for), and its `run_autograder` run whole under
//! `AUTOGRADER_ROOT`, on planted submissions.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use serde_json::Value;

use crate::common::BIN;
use crate::mark::{missing, scratch};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Makes the zip with `options`, and unpacks it in `ROOT/source` as
/// Gradescope does; returns ROOT.
fn unpacked(name: &str, options: &[&str]) -> PathBuf {
    let dir = scratch(name);
    fs::create_dir_all(&dir).expect("scratch folder");
    let zip = dir.join("autograder.zip");
    let made = assert_cmd::Command::new(BIN)
        .arg("mark")
        .arg("--gradescope-autograder")
        .arg(&zip)
        .args(options)
        .current_dir(root())
        .timeout(Duration::from_secs(300))
        .output()
        .expect("run gomoku-mist mark --gradescope-autograder");
    let said = String::from_utf8_lossy(&made.stdout);
    assert_eq!(
        made.status.code(),
        Some(0),
        "{said}{}",
        String::from_utf8_lossy(&made.stderr)
    );
    assert!(said.starts_with("wrote "), "{said}");
    let source = dir.join("root/source");
    let file = fs::File::open(&zip).expect("the zip is there");
    let mut archive = zip::ZipArchive::new(file).expect("a zip");
    archive.extract(&source).expect("the zip unpacks");
    dir.join("root")
}

/// Runs `source/SCRIPT` under `root`, with `apt-get` a stub first on PATH.
fn script(root: &Path, script: &str) -> Output {
    let stub = root.join("stub");
    fs::create_dir_all(&stub).expect("stub folder");
    let apt = stub.join("apt-get");
    fs::write(
        &apt,
        "#!/bin/sh\necho \"$*\" >> \"$(dirname \"$0\")/apt-get.log\"\n",
    )
    .expect("stub");
    fs::set_permissions(&apt, fs::Permissions::from_mode(0o755)).expect("stub is executable");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![stub];
    paths.extend(std::env::split_paths(&path));
    Command::new(root.join("source").join(script))
        .env("AUTOGRADER_ROOT", root)
        .env("PATH", std::env::join_paths(paths).expect("a PATH"))
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run the script")
}

/// Copies a planted submission into `root/submission`, as Gradescope puts
/// what a student uploads.
fn submit(root: &Path, planted: &str) {
    let to = root.join("submission");
    let _ = fs::remove_dir_all(&to);
    copy(&root_of_class().join(planted), &to);
}

fn root_of_class() -> PathBuf {
    root().join("tests/mark/class")
}

fn copy(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("folder");
    for entry in fs::read_dir(from).expect("planted folder") {
        let entry = entry.expect("entry");
        let path = entry.path();
        if path.is_dir() {
            copy(&path, &to.join(entry.file_name()));
        } else {
            fs::copy(&path, to.join(entry.file_name())).expect("copy");
        }
    }
}

/// Runs `run_autograder` as Gradescope does for a submission: it always
/// ends well, and leaves results.json, which is returned.
fn graded(root: &Path) -> Value {
    let run = script(root, "run_autograder");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    results(root)
}

fn results(root: &Path) -> Value {
    let text = fs::read_to_string(root.join("results/results.json")).expect("results.json");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("results.json is JSON ({e}): {text}"))
}

#[test]
fn the_autograder_zip_installs_and_marks_each_submission_under_autograder_root() {
    if let Some(why) = missing("gcc").or_else(|| missing("bash")) {
        println!("skipped: {why}");
        return;
    }
    let mut options = vec![
        "--tests",
        "tests/mark/suite",
        "--fuzz-time",
        "0",
        "--memcheck",
        "none",
        "--visibility",
        "after_due_date",
        "--cflags",
        "-std=c99 -Wall",
    ];
    options.extend(crate::common::unisolated());
    let root = unpacked("autograder", &options);
    let source = root.join("source");
    for executable in ["setup.sh", "run_autograder", "gomoku-mist"] {
        let mode = fs::metadata(source.join(executable))
            .expect("unpacked")
            .permissions()
            .mode();
        assert_eq!(
            mode & 0o111,
            0o111,
            "{executable} unpacks executable: {mode:o}"
        );
    }
    let suite: Vec<_> = fs::read_dir(source.join("suite"))
        .expect("the suite is bundled")
        .collect();
    assert_eq!(suite.len(), 27, "the nine cases' .in, .out and .code");

    // setup.sh: installs only what is missing, and checks the program runs.
    let setup = script(&root, "setup.sh");
    let said = String::from_utf8_lossy(&setup.stdout);
    assert!(
        setup.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&setup.stderr)
    );
    assert!(
        said.contains(concat!("gomoku-mist ", env!("CARGO_PKG_VERSION"))),
        "{said}"
    );
    if let Ok(asked) = fs::read_to_string(root.join("stub/apt-get.log")) {
        assert!(asked.contains("install -y"), "{asked}");
        assert!(
            !asked.contains("gcc"),
            "gcc is here, not to be installed: {asked}"
        );
    }

    // A correct submission: full marks, with the options the zip was made
    // with (the flags, the visibility, the bundled suite).
    submit(&root, "correct");
    let correct = graded(&root);
    assert_eq!(correct["score"], 10.0, "{correct:#}");
    assert_eq!(correct["visibility"], "after_due_date");
    let output = correct["output"].as_str().expect("output");
    assert!(output.contains("suite (9 cases"), "{output}");
    assert!(
        output.contains("gcc -std=c99 -Wall -o gitm gitm.c"),
        "{output}"
    );

    // One that allocates: a restriction broken, zero.
    submit(&root, "malloc");
    let malloc = graded(&root);
    assert_eq!(malloc["score"], 0.0, "{malloc:#}");

    // Nothing submitted: marking cannot be done, and results.json says so
    // to the staff alone, never a zero the student sees as a mark.
    fs::remove_dir_all(root.join("submission")).expect("submission removed");
    let failed = graded(&root);
    assert_eq!(failed["visibility"], "hidden", "{failed:#}");
    let output = failed["output"].as_str().expect("output");
    assert!(
        output.contains("could not mark this submission (exit code 2)"),
        "{output}"
    );
    assert!(output.contains("submission"), "{output}");
    let _ = fs::remove_dir_all(root.parent().expect("scratch"));
}

#[test]
fn the_autograder_zip_takes_no_submission_nor_a_format_or_folder_of_its_own() {
    for (args, said) in [
        (&["x.zip", "sub"][..], "unexpected argument"),
        (
            &["x.zip", "--format", "json"][..],
            "--gradescope-autograder and --format cannot both be given",
        ),
        (
            &["x.zip", "--out", "d"][..],
            "--gradescope-autograder and --out cannot both be given",
        ),
    ] {
        let out = assert_cmd::Command::new(BIN)
            .arg("mark")
            .arg("--gradescope-autograder")
            .args(args)
            .current_dir(std::env::temp_dir())
            .output()
            .expect("run gomoku-mist mark");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(
            !std::env::temp_dir().join("x.zip").exists(),
            "no zip written"
        );
    }
}
