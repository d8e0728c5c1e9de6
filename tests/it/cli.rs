//! The command line's edges as a process sees them: arguments no golden
//! file can hold (newlines, escapes, bytes that are not UTF-8, huge
//! values), help and version that cannot be written, `help` and its
//! subcommands, a `--program` that is not found, and input left unread
//! for the next reader of a file.

use std::ffi::OsString;
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::os::unix::ffi::OsStringExt;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use predicates::prelude::*;

use crate::common::{BIN, HANG};

fn run_with(args: &[OsString], stdout: Stdio) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .expect("run the binary")
}

/// Stderr must be one error line, safe to print on a terminal, then the
/// hint: nothing that a terminal would act on, nothing that is not UTF-8.
fn assert_one_safe_error_line(args: &[OsString], expected_first_line: &str) {
    let expected =
        format!("{expected_first_line}\nTry 'gomoku-mist --help' for more information.\n");
    let safe = predicate::function(|stderr: &str| {
        !stderr
            .trim_end()
            .chars()
            .any(|c| c.is_control() && c != '\n')
    })
    .fn_name("has no control character but the newlines");
    assert_cmd::Command::new(BIN)
        .args(args)
        .timeout(HANG)
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::diff(expected).and(safe));
}

fn os(bytes: &[u8]) -> OsString {
    OsString::from_vec(bytes.to_vec())
}

#[test]
fn errors_are_one_line_with_arguments_escaped() {
    let cases: &[(&[&[u8]], &str)] = &[
        (&[b"--a\nb"], r#"gomoku-mist: unknown option "--a\nb""#),
        (
            &[b"--\x1b[31mred"],
            r#"gomoku-mist: unknown option "--\u{1b}[31mred""#,
        ),
        (&[b"--\xff"], r#"gomoku-mist: unknown option "--\xff""#),
        (
            &[b"--rule", b"\xff"],
            r#"gomoku-mist: --rule: "\xff" is not a rule (use freestyle, exact, caro or renju)"#,
        ),
        (
            &[b"--rule=ex\ract"],
            r#"gomoku-mist: --rule: "ex\ract" is not a rule (use freestyle, exact, caro or renju)"#,
        ),
        (
            &[b"--board=\x07\x08"],
            r#"gomoku-mist: --board takes no value, but was given "\u{7}\u{8}""#,
        ),
        (
            &[b"\xe2\x80\xaeevil"],
            r#"gomoku-mist: unexpected argument "\u{202e}evil""#,
        ),
        (
            &[b"--moves", b"A1\nB2"],
            r#"gomoku-mist: --moves: move 2 "\n" is not a point (a point starts with a column letter A to S)"#,
        ),
    ];
    for (args, first_line) in cases {
        let args: Vec<OsString> = args.iter().map(|a| os(a)).collect();
        assert_one_safe_error_line(&args, first_line);
    }
}

#[test]
fn a_huge_value_is_cut_with_its_length() {
    let mut value = b"\x1b".to_vec();
    value.extend(std::iter::repeat_n(b'x', 99_999));
    let expected = format!(
        "gomoku-mist: --rule: \"\\u{{1b}}{}…\" (100000 bytes) is not a rule (use freestyle, exact, caro or renju)",
        "x".repeat(39)
    );
    assert_one_safe_error_line(&[os(b"--rule"), os(&value)], &expected);
}

#[test]
fn help_and_version_report_a_failed_write() {
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        return; // not on this system
    }
    for flag in ["--help", "--version"] {
        let sink = File::options().write(true).open(full).expect("/dev/full");
        let run = run_with(&[flag.into()], Stdio::from(sink));
        assert_eq!(run.status.code(), Some(1), "{flag}");
        assert_eq!(
            String::from_utf8_lossy(&run.stderr),
            "gomoku-mist: cannot write output: No space left on device (os error 28)\n",
            "{flag}"
        );
    }
}

#[test]
fn help_and_version_stay_quiet_when_the_reader_is_gone() {
    for flag in ["--help", "--version"] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let run = run_with(&[flag.into()], Stdio::from(writer));
        assert_eq!(run.status.code(), Some(1), "{flag}");
        assert!(run.stderr.is_empty(), "{flag}: {:?}", run.stderr);
    }
}

/// Runs the binary with stdin on a file holding `input`, and returns its
/// stdout, its exit code and where it left the file's offset.
fn run_on_file(args: &[&str], input: &[u8]) -> (Vec<u8>, Option<i32>, u64) {
    // Tests run in parallel: each run gets a file of its own, removed
    // after, and no folder is left behind.
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "gomoku-mist-cli-{}-{}.in",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, input).expect("write the input");
    let mut file = File::open(&path).expect("open the input");
    let stdin = file
        .try_clone()
        .expect("a second handle on the same open file");
    let run = Command::new(BIN)
        .args(args)
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("run the binary");
    assert!(run.stderr.is_empty(), "{:?}", run.stderr);
    // The child's stdin shared this handle's offset.
    let offset = file.stream_position().expect("the offset");
    let _ = std::fs::remove_file(&path);
    (run.stdout, run.status.code(), offset)
}

#[test]
fn the_offset_is_left_after_the_last_line_answered() {
    let resign = b"who\nresign\n";
    let term = b"view\nterm\n";
    let after = b"AFTER\nplace A1\n";
    for (stop, code) in [(&resign[..], 0), (&term[..], 1)] {
        for crlf in [false, true] {
            let mut input = stop.to_vec();
            input.extend_from_slice(after);
            let args: &[&str] = if crlf { &["--crlf"] } else { &[] };
            let (_, got_code, offset) = run_on_file(args, &input);
            assert_eq!(got_code, Some(code));
            assert_eq!(offset, stop.len() as u64, "{:?}", stop.escape_ascii());
        }
    }
}

#[test]
fn the_offset_is_right_deep_in_a_long_file() {
    // The game ends in the third 64 KiB read, after a line that spans two
    // reads and a last line that has no newline after what follows.
    let mut input = b"who\n".repeat(20_000);
    input.extend(std::iter::repeat_n(b'v', 70_000));
    input.push(b'\n');
    input.extend_from_slice(&b"history\n".repeat(5_000));
    let moves = "place A1\nplace B1\nplace A2\nplace B2\nplace A3\nplace B3\nplace A4\nplace B4\nplace A5\n";
    input.extend_from_slice(moves.as_bytes());
    let end = input.len() as u64;
    input.extend_from_slice(b"who\nwho");
    let (stdout, code, offset) = run_on_file(&[], &input);
    assert_eq!(code, Some(0));
    assert!(stdout.ends_with(b"Black wins!\nA1B1A2B2A3B3A4B4A5\nThank you for playing!\n"));
    assert_eq!(offset, end);
}

#[test]
fn at_end_of_input_everything_was_read() {
    let input = b"who\nview\nwho";
    let (_, code, offset) = run_on_file(&[], input);
    assert_eq!(code, Some(1));
    assert_eq!(offset, input.len() as u64);
}

#[test]
fn the_next_reader_of_the_file_gets_the_rest() {
    let dir = std::env::temp_dir().join(format!("gomoku-mist-next-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("game.in");
    std::fs::write(&path, "who\nresign\nAFTER\nand more\n").expect("write the input");
    let script = format!("{{ '{BIN}'; cat; }} < '{}'", path.display());
    let run = Command::new("sh")
        .args(["-c", &script])
        .output()
        .expect("run sh");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "B\nWhite wins!\n\nThank you for playing!\nAFTER\nand more\n"
    );
}

#[test]
fn a_pipe_is_read_as_before() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the binary");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"who\nresign\nAFTER\n").expect("write");
    drop(stdin);
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("read");
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(0));
    assert_eq!(stdout, "B\nWhite wins!\n\nThank you for playing!\n");
    let mut stderr = String::new();
    let _ = child
        .stderr
        .take()
        .map(|mut e| e.read_to_string(&mut stderr));
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn help_with_a_subcommand_prints_what_its_help_option_prints() {
    for (help, option) in [
        (&["help"][..], &["--help"][..]),
        (&["help", "check"], &["check", "--help"]),
        (&["help", "fuzz"], &["fuzz", "--help"]),
        (&["help", "cover"], &["cover", "--help"]),
    ] {
        let by_help = run_with(
            &help.iter().map(OsString::from).collect::<Vec<_>>(),
            Stdio::piped(),
        );
        let by_option = run_with(
            &option.iter().map(OsString::from).collect::<Vec<_>>(),
            Stdio::piped(),
        );
        assert_eq!(by_help.status.code(), Some(0), "{help:?}");
        assert!(by_help.stderr.is_empty(), "{help:?}");
        assert!(!by_help.stdout.is_empty(), "{help:?}");
        assert_eq!(
            String::from_utf8_lossy(&by_help.stdout),
            String::from_utf8_lossy(&by_option.stdout),
            "{help:?} against {option:?}"
        );
    }
}

#[test]
fn the_help_lists_every_subcommand_and_help_itself() {
    let help = run_with(&["--help".into()], Stdio::piped());
    let help = String::from_utf8_lossy(&help.stdout);
    for usage in ["check ", "fuzz ", "cover ", "help "] {
        assert!(
            help.contains(&format!("\n       gomoku-mist {usage}")),
            "--help lists no `gomoku-mist {usage}…`:\n{help}"
        );
    }
}

#[test]
fn help_about_an_unknown_subcommand_is_a_usage_error() {
    assert_one_safe_error_line(
        &["help".into(), "bogus".into()],
        r#"gomoku-mist: no subcommand "bogus" (help knows check, fuzz, cover, mark)"#,
    );
    assert_one_safe_error_line(
        &["help".into(), "check".into(), "x".into()],
        r#"gomoku-mist: unexpected argument "x""#,
    );
}

/// A folder of this test's own holding `files` (executable), under the
/// system's temporary one.
fn folder_with(name: &str, files: &[&str]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gomoku-mist-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make a scratch folder");
    for file in files {
        let path = dir.join(file);
        std::fs::write(&path, "#!/bin/sh\nexit 0\n").expect("write a program");
        let mut permissions = std::fs::metadata(&path).expect("stat").permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
        std::fs::set_permissions(&path, permissions).expect("chmod");
    }
    dir
}

/// Runs `args` in `dir` with `PATH` holding only a folder that does not
/// exist: its exit code and stderr.
fn run_without_path(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("PATH", dir.join("no-such-folder"))
        .stdin(Stdio::null())
        .output()
        .expect("run the binary");
    assert!(out.stdout.is_empty(), "{args:?}: {:?}", out.stdout);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_program_not_on_path_is_named_and_the_one_here_suggested() {
    let dir = folder_with("student", &["student"]);
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/spec");
    let golden = golden.to_str().expect("a UTF-8 path");
    for (sub, args) in [
        (
            "check",
            &["check", "--program", "student --fast", golden][..],
        ),
        ("fuzz", &["fuzz", "--cases", "1", "--program=student"]),
    ] {
        let (code, stderr) = run_without_path(&dir, args);
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!(
            stderr,
            format!(
                "gomoku-mist: --program: \"student\" is not found on PATH (did you mean ./student?)\n\
                 Try 'gomoku-mist {sub} --help' for more information.\n"
            ),
            "{args:?}"
        );
    }
    // With no such file here there is nothing to suggest.
    let (code, stderr) = run_without_path(&dir, &["check", "--program", "teacher", golden]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr,
        "gomoku-mist: --program: \"teacher\" is not found on PATH\n\
         Try 'gomoku-mist check --help' for more information.\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_program_found_on_path_or_by_its_path_is_run() {
    let dir = folder_with("found", &["student"]);
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/spec");
    let golden = golden.to_str().expect("a UTF-8 path");
    // The program exits 0 at once, so every case fails: it ran.
    for program in ["./student", "student"] {
        let out = Command::new(BIN)
            .args(["check", "--program", program, golden])
            .current_dir(&dir)
            .env("PATH", &dir)
            .stdin(Stdio::null())
            .output()
            .expect("run the binary");
        let report = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{program}: {report}");
        assert!(
            report.ends_with("0 passed, 3 failed\n"),
            "{program}: {report}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
