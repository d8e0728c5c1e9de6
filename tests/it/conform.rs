//! The conformance kit finds real bugs in a program it did not write:
//! `tests/broken/broken.rs`, a plain controller with one bug planted per
//! run (its first argument). Against this program itself and against
//! `broken none`, it finds nothing.
//!
//! Case counts bound every run, never time: the figures asserted below
//! were measured (seeds 1 to 4) and given a margin.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use gomoku_mist::conform::{self, CheckOptions, FuzzOptions, Limit, Outcome};

use crate::common::BIN;

/// The planted-bug controller, which `cargo test` builds as an example
/// next to the test binaries.
fn broken() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let debug = exe.parent().and_then(Path::parent).expect("target/debug");
    let path = debug
        .join("examples")
        .join(format!("broken{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: build it with `cargo build --example broken` (plain `cargo test` does)",
        path.display()
    );
    path
}

fn with_bug(bug: &str) -> Vec<OsString> {
    vec![broken().into_os_string(), bug.into()]
}

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
}

/// An empty folder of this test's own, under the system's temporary one.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("gomoku-mist-conform-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

/// Every file under `dir` whose name ends with `suffix`.
fn count_files(dir: &Path, suffix: &str) -> usize {
    fs::read_dir(dir)
        .expect("read the golden folder")
        .map(|entry| entry.expect("a folder entry").path())
        .map(|path| match path.is_dir() {
            true => count_files(&path, suffix),
            false => usize::from(path.to_string_lossy().ends_with(suffix)),
        })
        .sum()
}

/// Every case under `dir` whose `.args` start with `check` or `fuzz`.
fn count_kit_cases(dir: &Path) -> usize {
    fs::read_dir(dir)
        .expect("read the golden folder")
        .map(|entry| entry.expect("a folder entry").path())
        .map(|path| match path.is_dir() {
            true => count_kit_cases(&path),
            false => usize::from(
                path.extension().is_some_and(|e| e == "args")
                    && fs::read_to_string(&path)
                        .expect("read .args")
                        .lines()
                        .next()
                        .is_some_and(|first| first == "check" || first == "fuzz"),
            ),
        })
        .sum()
}

fn check(
    program: Option<Vec<OsString>>,
    paths: Vec<PathBuf>,
    timeout: Duration,
) -> (Outcome, String) {
    let opts = CheckOptions {
        program,
        paths,
        timeout,
        jobs: 2,
        read_args: gomoku_mist::cli::setup,
    };
    let mut out = Vec::new();
    let outcome = conform::check(&opts, &mut out).expect("check runs");
    (
        outcome,
        String::from_utf8(out).expect("the report is UTF-8"),
    )
}

fn fuzz(bug: &str, seed: u64, cases: u64, timeout: Duration, out_dir: &Path) -> (Outcome, String) {
    let opts = FuzzOptions {
        program: with_bug(bug),
        seed,
        limit: Limit::Cases(cases),
        out_dir: out_dir.to_path_buf(),
        timeout,
        jobs: 2,
        shrink_budget: 1500,
    };
    let mut out = Vec::new();
    let outcome = conform::fuzz(&opts, &mut out).expect("fuzz runs");
    (
        outcome,
        String::from_utf8(out).expect("the report is UTF-8"),
    )
}

/// The report's lines about one case: its `FAIL` line and the detail
/// under it.
fn block_of<'r>(report: &'r str, case: &Path) -> Option<&'r str> {
    let head = format!("FAIL  {}:", case.display());
    let start = report.find(&head)?;
    let rest = &report[start..];
    let end = rest[1..]
        .find("\npass  ")
        .into_iter()
        .chain(rest[1..].find("\nFAIL  "))
        .chain(rest[1..].find("\nskip  "))
        .min()
        .map_or(rest.len(), |at| at + 1);
    Some(&rest[..end])
}

/// The summary line's counts: passed, failed, skipped.
fn summary(report: &str) -> (usize, usize, usize) {
    let last = report.lines().last().expect("a summary line");
    let numbers: Vec<usize> = last
        .split(", ")
        .map(|part| {
            part.split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .expect("N word")
        })
        .collect();
    match numbers[..] {
        [passed, failed] => (passed, failed, 0),
        [passed, failed, skipped] => (passed, failed, skipped),
        _ => panic!("not a summary line: {last:?}"),
    }
}

#[test]
fn check_reports_each_planted_bug_with_its_diff() {
    // (bug, where to look, a case it must fail, what the diff must show)
    let table = [
        (
            "eof-loop",
            "eof",
            "eof/empty_input.in",
            "still running after 300ms: killed",
        ),
        (
            "edge",
            "",
            "win/white_edge_column_a.in",
            "expected | White wins!⏎",
        ),
        (
            "overline",
            "",
            "overline/seven_fill_gap_3_3.in",
            "expected | Black wins!⏎",
        ),
        ("mist-swap", "", "coord/valid_a10.in", "expected | M18,"),
        (
            "trim",
            "",
            "bytes/who_crlf_is_invalid.in",
            "expected | Invalid!⏎",
        ),
        (
            "exit-code",
            "",
            "eof/empty_input.in",
            "exit code 0, expected 1",
        ),
        (
            "long-line",
            "",
            "coord/long_param.in",
            "got      | Invalid!⏎",
        ),
        (
            "tie",
            "",
            "tie/full_board_last_stone_makes_five_black_wins.in",
            "got      | Wow, a tie!⏎",
        ),
        (
            "flood",
            "eof",
            "eof/empty_input.in",
            "wrote more than 1048576 bytes: killed",
        ),
    ];
    for (bug, under, case, shown) in table {
        let root = golden().join(under);
        let timeout = Duration::from_millis(if bug == "eof-loop" { 300 } else { 10_000 });
        let (outcome, report) = check(Some(with_bug(bug)), vec![root.clone()], timeout);
        assert_eq!(outcome, Outcome::Failed, "{bug}:\n{report}");
        let (_, failed, skipped) = summary(&report);
        assert!(failed > 0, "{bug}:\n{report}");
        assert_eq!(
            skipped,
            count_files(&root, ".args"),
            "{bug}: cases with options are skipped"
        );
        let block = block_of(&report, &golden().join(case))
            .unwrap_or_else(|| panic!("{bug}: {case} did not fail:\n{report}"));
        assert!(
            block.contains(shown),
            "{bug}: {case} should show {shown:?}:\n{block}"
        );
    }
}

#[test]
fn check_passes_broken_none_and_skips_cases_with_options() {
    let (outcome, report) = check(
        Some(with_bug("none")),
        vec![golden()],
        Duration::from_secs(10),
    );
    let cases = count_files(&golden(), ".in");
    let with_args = count_files(&golden(), ".args");
    assert_eq!(
        summary(&report),
        (cases - with_args, 0, with_args),
        "{report}"
    );
    assert_eq!(outcome, Outcome::Passed);
    assert!(
        report.contains("skip  ") && report.contains(": has .args"),
        "{report}"
    );
}

#[test]
fn check_binary_passes_its_own_golden_suite_in_path_order() {
    let out = Command::new(BIN)
        .arg("check")
        .arg(golden())
        .output()
        .expect("run check");
    let report = String::from_utf8(out.stdout).expect("UTF-8");
    assert_eq!(out.status.code(), Some(0), "{report}");
    // Cases of the kit's own command line are not run by the kit (the
    // golden suite runs them).
    let kit = count_kit_cases(&golden());
    assert!(kit > 0, "the golden suite has cases of check and fuzz");
    assert_eq!(
        summary(&report),
        (count_files(&golden(), ".in") - kit, 0, kit),
        "{report}"
    );
    let paths: Vec<&str> = report
        .lines()
        .filter_map(|l| l.strip_prefix("pass  "))
        .collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(paths, sorted, "cases are reported in path order");
}

#[test]
fn check_reports_a_program_that_cannot_start() {
    let missing = vec![OsString::from("./no-such-program-here")];
    let (outcome, report) = check(
        Some(missing),
        vec![golden().join("spec")],
        Duration::from_secs(10),
    );
    assert_eq!(outcome, Outcome::Failed);
    assert!(
        report.contains(": cannot start\n  cannot start: ./no-such-program-here:"),
        "{report}"
    );
}

#[test]
fn fuzz_finds_each_planted_bug_and_shrinks_it() {
    // (bug, most lines in the shrunk input): measured 0, 9, 11, 2, 1, 0,
    // 1 line (of 513 bytes) and 361 lines (a full board).
    let table = [
        ("eof-loop", 0),
        ("edge", 12),
        ("overline", 14),
        ("mist-swap", 4),
        ("trim", 2),
        ("exit-code", 1),
        ("long-line", 2),
        ("tie", 380),
    ];
    for (bug, most_lines) in table {
        let out_dir = scratch(bug);
        let timeout = Duration::from_millis(if bug == "eof-loop" { 300 } else { 10_000 });
        let (outcome, report) = fuzz(bug, 1, 200, timeout, &out_dir);
        assert_eq!(
            outcome,
            Outcome::Failed,
            "{bug}: nothing found in 200 cases:\n{report}"
        );
        let written: Vec<PathBuf> = fs::read_dir(&out_dir)
            .expect("the failure folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "in"))
            .collect();
        let [case] = &written[..] else {
            panic!("{bug}: expected one .in file, found {written:?}:\n{report}");
        };
        let input = fs::read(case).expect("read the case");
        let lines = input.split_inclusive(|&b| b == b'\n').count();
        assert!(
            lines <= most_lines,
            "{bug}: shrunk only to {lines} lines:\n{report}"
        );
        // The case is ready for `check`: the bug fails it, the reference passes.
        let (outcome, again) = check(Some(with_bug(bug)), vec![case.clone()], timeout);
        assert_eq!(
            outcome,
            Outcome::Failed,
            "{bug}: the written case passes:\n{again}"
        );
        let ours = Some(vec![OsString::from(BIN)]);
        let (outcome, ours) = check(ours, vec![case.clone()], timeout);
        assert_eq!(
            outcome,
            Outcome::Passed,
            "{bug}: the reference fails its own case:\n{ours}"
        );
        let _ = fs::remove_dir_all(&out_dir);
    }
}

#[test]
fn fuzz_finds_nothing_in_broken_none() {
    let out_dir = scratch("none");
    let (outcome, report) = fuzz("none", 5, 400, Duration::from_secs(10), &out_dir);
    assert_eq!(outcome, Outcome::Passed, "{report}");
    assert!(report.contains("400 cases in "), "{report}");
    assert!(!out_dir.exists(), "nothing is written when nothing fails");
}

#[test]
fn fuzz_same_seed_same_case() {
    let (first_dir, second_dir) = (scratch("seed-a"), scratch("seed-b"));
    let (_, first) = fuzz("overline", 3, 100, Duration::from_secs(10), &first_dir);
    let (_, second) = fuzz("overline", 3, 100, Duration::from_secs(10), &second_dir);
    let found = |report: &str| {
        let line = report.lines().find(|l| l.contains(" disagrees"));
        line.map(str::to_owned)
            .unwrap_or_else(|| panic!("nothing found:\n{report}"))
    };
    assert_eq!(found(&first), found(&second));
    let read_case = |dir: &Path| fs::read(dir.join("fuzz-3-8.in"));
    let (a, b) = (read_case(&first_dir), read_case(&second_dir));
    assert!(a.is_ok(), "{first}");
    assert_eq!(a.ok(), b.ok());
    let _ = (
        fs::remove_dir_all(first_dir),
        fs::remove_dir_all(second_dir),
    );
}

#[test]
fn fuzz_binary_agrees_with_itself_then_catches_a_bug() {
    let itself = Command::new(BIN)
        .args(["fuzz", "--seed", "11", "--cases", "300", "--program", BIN])
        .output()
        .expect("run fuzz");
    let report = String::from_utf8_lossy(&itself.stdout);
    assert_eq!(itself.status.code(), Some(0), "{report}");
    assert!(
        report.contains("300 cases in ") && report.contains("no disagreement"),
        "{report}"
    );

    let out_dir = scratch("binary");
    let program = format!("'{}' mist-swap", broken().display());
    let caught = Command::new(BIN)
        .args([
            "fuzz",
            "--seed",
            "1",
            "--cases",
            "100",
            "--program",
            &program,
            "--out",
        ])
        .arg(&out_dir)
        .output()
        .expect("run fuzz");
    let report = String::from_utf8_lossy(&caught.stdout);
    assert_eq!(caught.status.code(), Some(1), "{report}");
    assert!(report.contains("differs: stdout"), "{report}");
    let checked = Command::new(BIN)
        .args(["check", "--program", &program])
        .arg(&out_dir)
        .output()
        .expect("run check");
    let report = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(1), "{report}");
    assert!(report.ends_with("0 passed, 1 failed\n"), "{report}");
    let _ = fs::remove_dir_all(out_dir);
}

#[test]
fn subcommand_usage_errors_name_the_option_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["fuzz", "--program", "x", "--seed", "abc"],
            "--seed: \"abc\" is not a number",
        ),
        (
            &["fuzz", "--program", "x", "--seed", "1", "--seed=2"],
            "--seed is given more than once",
        ),
        (
            &["fuzz", "--program", "x", "--time", "1", "--cases", "1"],
            "--time and --cases cannot both be given",
        ),
        (&["fuzz", "--cases", "1"], "--program is required"),
        (&["check"], "no PATH given"),
        (
            &["check", "--timeout", "1e19", "."],
            "--timeout: \"1e19\" is not a number of seconds from above 0 to 1000000",
        ),
        (
            &["fuzz", "--program", "x", "--timeout", "1e19"],
            "--timeout: \"1e19\" is not a number of seconds from above 0 to 1000000",
        ),
        (
            &["fuzz", "--program", "x", "--jobs", "100000000"],
            "--jobs: \"100000000\" is not a number from 0 to 256",
        ),
    ];
    for (args, message) in cases {
        let out = Command::new(BIN).args(*args).output().expect("run");
        let sub = args[0];
        let expected = format!(
            "gomoku-mist: {message}\nTry 'gomoku-mist {sub} --help' for more information.\n"
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), expected, "{args:?}");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn subcommand_help_wins_over_other_mistakes() {
    for sub in ["check", "fuzz"] {
        let out = Command::new(BIN)
            .args([sub, "--bogus", "-h"])
            .output()
            .expect("run");
        let help = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{sub}");
        assert!(
            help.starts_with(&format!("Usage: gomoku-mist {sub}")),
            "{help}"
        );
        assert!(out.stderr.is_empty(), "{sub}");
    }
}

#[test]
fn check_expects_the_reference_where_a_case_has_no_out_file() {
    let dir = scratch("no-out");
    fs::create_dir_all(&dir).expect("make the folder");
    fs::write(dir.join("spaces.in"), b"who \n\twho\nwho\n").expect("write the case");
    let (outcome, report) = check(
        Some(with_bug("trim")),
        vec![dir.clone()],
        Duration::from_secs(10),
    );
    assert_eq!(outcome, Outcome::Failed, "{report}");
    assert!(
        report.contains("expected | Invalid!⏎\n    got      | B⏎"),
        "{report}"
    );
    let ours = Some(vec![OsString::from(BIN)]);
    let (outcome, report) = check(ours, vec![dir.clone()], Duration::from_secs(10));
    assert_eq!(outcome, Outcome::Passed, "{report}");
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn fuzz_binary_stops_after_time_when_nothing_disagrees() {
    let out = Command::new(BIN)
        .args(["fuzz", "--time", "0.3", "--seed", "2", "--program", BIN])
        .output()
        .expect("run fuzz");
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        report.starts_with("fuzzing ") && report.contains(" cases/s "),
        "{report}"
    );
    assert!(report.ends_with("no disagreement\n"), "{report}");
}

#[test]
fn fuzz_reports_a_program_that_cannot_start_without_shrinking() {
    let out_dir = scratch("cannot-start");
    let out = Command::new(BIN)
        .args([
            "fuzz",
            "--cases",
            "10",
            "--program",
            "./no-such-program-here",
            "--out",
        ])
        .arg(&out_dir)
        .output()
        .expect("run fuzz");
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains("cannot start the program: ./no-such-program-here: "),
        "{report}"
    );
    assert!(
        !out_dir.exists(),
        "no case is written for a program that never ran"
    );
}

#[test]
fn check_skips_cases_it_cannot_run_and_says_why() {
    let dir = scratch("not-run");
    fs::create_dir_all(&dir).expect("make the folder");
    let cases: &[(&str, &str, &str)] = &[
        // Would start `check` again, once a case, without end.
        (
            "kit",
            "check\n.\n",
            "its .args start the kit (check or fuzz), not a game",
        ),
        (
            "fuzz",
            "fuzz\n--program\nx\n",
            "its .args start the kit (check or fuzz), not a game",
        ),
        // The reference would think for the computer, as long as the
        // machine allows.
        (
            "cpu",
            "--cpu\nwhite\n",
            "the computer's moves depend on the machine: give .out and .code, or --cpu-nodes",
        ),
    ];
    for (name, args, _) in cases {
        fs::write(dir.join(format!("{name}.in")), b"who\n").expect("write .in");
        fs::write(dir.join(format!("{name}.args")), args).expect("write .args");
    }
    // As this program's own (`None`), so the options are understood; none
    // is run, so the test binary standing in for it never starts.
    let (outcome, report) = check(None, vec![dir.clone()], Duration::from_secs(60));
    assert_eq!(outcome, Outcome::Passed, "{report}");
    assert_eq!(summary(&report), (0, 0, cases.len()), "{report}");
    for (name, _, why) in cases {
        let line = format!(
            "skip  {}: {why}\n",
            dir.join(format!("{name}.in")).display()
        );
        assert!(report.contains(&line), "no {line:?} in:\n{report}");
    }
    let _ = fs::remove_dir_all(dir);
}
