//! The conformance kit finds real bugs in a program it did not write:
//! `tests/broken/broken.rs`, a plain controller with one bug planted per
//! run (its first argument). Against this program itself and against
//! `broken none`, it finds nothing.
//!
//! Case counts bound every run, never time: the figures asserted below
//! were measured (seeds 1 to 4) and given a margin.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use gomoku_mist::conform::{self, CheckOptions, CoverOptions, Format, FuzzOptions, Limit, Outcome};

use crate::common::{BIN, broken};

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
    check_as(program, paths, timeout, Format::Text)
}

fn check_as(
    program: Option<Vec<OsString>>,
    paths: Vec<PathBuf>,
    timeout: Duration,
    format: Format,
) -> (Outcome, String) {
    let opts = CheckOptions {
        program,
        paths,
        timeout,
        jobs: 2,
        read_args: gomoku_mist::cli::setup,
        format,
        contain: Default::default(),
    };
    let mut out = Vec::new();
    let outcome = conform::check(&opts, None, &mut out).expect("check runs");
    (
        outcome,
        String::from_utf8(out).expect("the report is UTF-8"),
    )
}

fn fuzz(bug: &str, seed: u64, cases: u64, timeout: Duration, out_dir: &Path) -> (Outcome, String) {
    fuzz_with(with_bug(bug), seed, cases, timeout, out_dir, false)
}

fn fuzz_with(
    program: Vec<OsString>,
    seed: u64,
    cases: u64,
    timeout: Duration,
    out_dir: &Path,
    assignment_only: bool,
) -> (Outcome, String) {
    let opts = FuzzOptions {
        program,
        seed,
        limit: Limit::Cases(cases),
        out_dir: out_dir.to_path_buf(),
        timeout,
        jobs: 2,
        shrink_budget: 1500,
        assignment_only,
        format: Format::Text,
        contain: Default::default(),
    };
    let mut out = Vec::new();
    let outcome = conform::fuzz(&opts, None, &mut out).expect("fuzz runs");
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
            "still running after 1s: killed",
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
        // A hang costs the whole timeout: a second, far above what any
        // run of this program takes, however loaded the machine.
        let timeout = Duration::from_secs(if bug == "eof-loop" { 1 } else { 10 });
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
    // (bug, most lines in a shrunk input): a rule's example ends with
    // `term`, and a full board takes 361 lines.
    let table = [
        ("eof-loop", 1),
        ("edge", 14),
        ("overline", 16),
        ("mist-swap", 4),
        ("trim", 3),
        ("exit-code", 1),
        ("long-line", 3),
        ("tie", 380),
    ];
    for (bug, most_lines) in table {
        let out_dir = scratch(bug);
        let timeout = Duration::from_secs(if bug == "eof-loop" { 2 } else { 10 });
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
        let groups = summary_of_fuzz(&report).1;
        assert_eq!(written.len(), groups, "{bug}: one case a group:\n{report}");
        for case in written {
            let input = fs::read(&case).expect("read the case");
            let lines = input.split_inclusive(|&b| b == b'\n').count();
            // A full board is 361 moves whatever the bug.
            let full_board = case.to_string_lossy().contains("TIE");
            assert!(
                lines <= if full_board { 380 } else { most_lines },
                "{bug}: {} shrunk only to {lines} lines:\n{report}",
                case.display()
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
        }
        let _ = fs::remove_dir_all(&out_dir);
    }
}

/// The counts of fuzz's last line: failures, groups, rules, decisions.
fn summary_of_fuzz(report: &str) -> (u64, usize, usize, usize) {
    let last = report.lines().last().expect("a last line");
    if last == "0 failures" {
        return (0, 0, 0, 0);
    }
    let numbers: Vec<u64> = last
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().expect("a number"))
        .collect();
    let [failures, groups, rules, decisions] = numbers[..] else {
        panic!("not fuzz's last line: {last:?}");
    };
    let want = format!(
        "{failures} failures in {groups} groups: {rules} of the assignment's rules, {decisions} of this contract's decisions"
    );
    assert_eq!(last, want);
    (
        failures,
        groups as usize,
        rules as usize,
        decisions as usize,
    )
}

/// The clause ids of fuzz's groups, in report order, with their kinds.
fn groups_of(report: &str) -> Vec<(String, String)> {
    report
        .lines()
        .filter(|l| l.starts_with('['))
        .map(|l| {
            let rest = l.split_once("] ").expect("[n] CLAUSE (kind)").1;
            let (id, kind) = rest.split_once(" (").expect("CLAUSE (kind)");
            let kind = kind.split_once(')').expect("(kind)").0;
            (id.to_owned(), kind.to_owned())
        })
        .collect()
}

#[test]
fn fuzz_reports_three_planted_bugs_as_three_groups_the_end_of_input_one_a_decision() {
    let out_dir = scratch("three");
    let program = with_bug("eof-loop,edge,mist-swap");
    let (outcome, report) = fuzz_with(program, 1, 200, Duration::from_secs(2), &out_dir, false);
    assert_eq!(outcome, Outcome::Failed, "{report}");
    let rule = "the assignment's rule".to_owned();
    let decision = "this contract's decision".to_owned();
    assert_eq!(
        groups_of(&report),
        [
            ("MIST-MOVE".to_owned(), rule.clone()),
            ("WIN-LINE".to_owned(), rule),
            ("EOF-EXIT".to_owned(), decision),
        ],
        "{report}"
    );
    let (failures, groups, rules, decisions) = summary_of_fuzz(&report);
    assert!(failures >= 3, "{report}");
    assert_eq!((groups, rules, decisions), (3, 2, 1), "{report}");
    assert!(
        report.contains("what all its cases share: a win touching an edge\n"),
        "{report}"
    );
    assert!(
        report.contains("still running at end of input: the input ends without `term`"),
        "{report}"
    );
    let _ = fs::remove_dir_all(out_dir);
}

/// The assignment's commonest mistakes, planted one a program: each is
/// one group, under the clause it breaks, and says what it is.
#[test]
fn fuzz_reports_each_planted_bug_as_one_group_under_its_clause() {
    let rule = "the assignment's rule";
    let decision = "this contract's decision";
    // (bug, cases, clause, kind, what the report says)
    let table = [
        (
            "nul-hang",
            100,
            "BYTES-ANY",
            decision,
            "hangs after reading line 1: `\\x00`",
        ),
        ("silent", 100, "CMD-WHO", rule, "prints nothing at all"),
        (
            "term-exit-0",
            100,
            "EXIT-CODES",
            rule,
            "exits with code 0 after `term`, expected 1",
        ),
        (
            "anti-diagonal",
            200,
            "WIN-LINE",
            rule,
            "what all its cases share: a win along an anti-diagonal\n",
        ),
        (
            "cr-place",
            200,
            "LINE-SPLIT",
            rule,
            "what all its cases share: Invalid!: a CR (Windows line ending)",
        ),
        (
            "buffer-256",
            200,
            "LINE-LONG",
            decision,
            "one reply is due, but the program printed `Invalid!` too",
        ),
    ];
    for (bug, cases, clause, kind, shown) in table {
        let out_dir = scratch(bug);
        // A hang costs the whole timeout: two seconds, far above what any
        // run of this program takes, however loaded the machine.
        let timeout = Duration::from_secs(if bug == "nul-hang" { 2 } else { 10 });
        let (outcome, report) = fuzz(bug, 1, cases, timeout, &out_dir);
        assert_eq!(outcome, Outcome::Failed, "{bug}:\n{report}");
        assert_eq!(
            groups_of(&report),
            [(clause.to_owned(), kind.to_owned())],
            "{bug}:\n{report}"
        );
        assert!(report.contains(shown), "{bug}: no {shown:?} in:\n{report}");
        if bug == "nul-hang" {
            // What it printed before it hung is never blamed: it is lost.
            assert!(
                report.contains(conform::fuzz::LOST_OUTPUT),
                "{bug}:\n{report}"
            );
        }
        let _ = fs::remove_dir_all(&out_dir);
    }
}

#[test]
fn fuzz_reports_three_planted_bugs_of_the_assignment_as_three_groups() {
    let rule = || "the assignment's rule".to_owned();
    let decision = || "this contract's decision".to_owned();
    let table = [
        (
            "nul-hang,anti-diagonal,cr-place",
            [
                ("LINE-SPLIT", rule()),
                ("WIN-LINE", rule()),
                ("BYTES-ANY", decision()),
            ],
        ),
        (
            "term-exit-0,buffer-256,anti-diagonal",
            [
                ("WIN-LINE", rule()),
                ("EXIT-CODES", rule()),
                ("LINE-LONG", decision()),
            ],
        ),
    ];
    for (bugs, want) in table {
        let out_dir = scratch(bugs);
        let (outcome, report) = fuzz_with(
            with_bug(bugs),
            1,
            120,
            Duration::from_secs(2),
            &out_dir,
            false,
        );
        assert_eq!(outcome, Outcome::Failed, "{bugs}:\n{report}");
        let want: Vec<(String, String)> =
            want.into_iter().map(|(c, k)| (c.to_owned(), k)).collect();
        assert_eq!(groups_of(&report), want, "{bugs}:\n{report}");
        let _ = fs::remove_dir_all(&out_dir);
    }
}

#[cfg(unix)]
#[test]
fn fuzz_reports_a_run_that_disagrees_once_apart_and_counts_it_not() {
    let dir = scratch("flaky");
    fs::create_dir_all(&dir).expect("make the folder");
    // Right every time but the fourth: a stray line then. Each run takes
    // the next number by making its folder, which only one run can do
    // however many run at once (a counter in a file, read and written by
    // two workers, went back to 0 and strayed twice).
    let runs = dir.join("runs");
    fs::create_dir_all(&runs).expect("make the folder");
    let script = format!(
        "i=1; while ! mkdir '{r}/'$i 2>/dev/null; do i=$((i+1)); done; \
         if [ $i = 4 ]; then echo stray; fi; exec '{b}' none",
        r = runs.display(),
        b = broken().display()
    );
    let program = ["sh", "-c", &script].map(OsString::from).to_vec();
    let (outcome, report) = fuzz_with(
        program,
        1,
        20,
        Duration::from_secs(10),
        &dir.join("out"),
        false,
    );
    assert_eq!(outcome, Outcome::Passed, "{report}");
    assert!(
        report.contains("\nnot reproducible, not counted: case"),
        "{report}"
    );
    assert!(
        report.ends_with("no disagreement\n0 failures\n"),
        "{report}"
    );
    let _ = fs::remove_dir_all(dir);
}

/// A right program on a machine too busy for the timeout: every run takes
/// 1.5 s of a 1 s timeout. Each hang is run again with four times the
/// timeout before it is filed, so none is: load alone makes no finding.
#[cfg(unix)]
#[test]
fn fuzz_files_no_hang_that_a_longer_run_does_not_prove() {
    let dir = scratch("slow");
    let script = format!("sleep 1.5; exec '{}' none", broken().display());
    let program = ["sh", "-c", &script].map(OsString::from).to_vec();
    let (outcome, report) = fuzz_with(
        program,
        1,
        2,
        Duration::from_secs(1),
        &dir.join("out"),
        false,
    );
    assert_eq!(outcome, Outcome::Passed, "{report}");
    assert!(!report.contains("END-"), "no hang filed:\n{report}");
    assert!(
        report.contains("\nnot reproducible, not counted: case"),
        "{report}"
    );
    let _ = fs::remove_dir_all(dir);
}

fn fuzz_as(bugs: &str, format: Format, out_dir: &Path) -> (Outcome, String) {
    let opts = FuzzOptions {
        program: with_bug(bugs),
        seed: 1,
        limit: Limit::Cases(100),
        out_dir: out_dir.to_path_buf(),
        timeout: Duration::from_secs(10),
        jobs: 2,
        shrink_budget: 1500,
        assignment_only: false,
        format,
        contain: Default::default(),
    };
    let mut out = Vec::new();
    let outcome = conform::fuzz(&opts, None, &mut out).expect("fuzz runs");
    (outcome, String::from_utf8(out).expect("UTF-8"))
}

#[test]
fn fuzz_json_and_junit_name_each_findings_clause_kind_cause_and_example() {
    let out_dir = scratch("formats");
    let (outcome, json) = fuzz_as("mist-swap,exit-code", Format::Json, &out_dir);
    assert_eq!(outcome, Outcome::Failed, "{json}");
    for want in [
        r#""failures": "#,
        r#""groups": 2,"#,
        r#""rules": 1,"#,
        r#""decisions": 1,"#,
        r#"{"clause": "MIST-MOVE", "kind": "rule", "#,
        r#"{"clause": "EOF-EXIT", "kind": "decision", "#,
        r#""cause": "line 2: `view`: expected `A3,"#,
        r#""example": "place L1\nview\nterm\n""#,
        r#""hint": "the mist's centre moves with the column and row swapped"#,
        r#""not_reproducible": []"#,
    ] {
        assert!(json.contains(want), "no {want:?} in:\n{json}");
    }
    assert!(json.starts_with("{\n") && json.ends_with("}\n"), "{json}");
    let (outcome, xml) = fuzz_as("mist-swap,exit-code", Format::Junit, &out_dir);
    assert_eq!(outcome, Outcome::Failed, "{xml}");
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}:\n{xml}"));
    let failures: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .map(|n| n.attribute("type").unwrap_or_default().to_owned())
        .collect();
    assert_eq!(failures, ["MIST-MOVE", "EOF-EXIT"], "{xml}");
    let _ = fs::remove_dir_all(out_dir);
}

#[test]
fn fuzz_assignment_only_finds_the_rules_behind_a_hang_at_end_of_input() {
    let out_dir = scratch("assignment-only");
    let program = with_bug("eof-loop,edge");
    let (outcome, report) = fuzz_with(program, 1, 200, Duration::from_secs(2), &out_dir, true);
    assert_eq!(outcome, Outcome::Failed, "{report}");
    assert!(
        report.starts_with("fuzzing ") && report.contains(", the assignment's rules only\n"),
        "{report}"
    );
    assert!(
        !report.contains("timed out"),
        "no session waits at end of input:\n{report}"
    );
    let groups = groups_of(&report);
    assert_eq!(
        groups,
        [("WIN-LINE".to_owned(), "the assignment's rule".to_owned())],
        "{report}"
    );
    let _ = fs::remove_dir_all(out_dir);
}

#[test]
fn fuzz_finds_nothing_in_broken_none() {
    let out_dir = scratch("none");
    let (outcome, report) = fuzz("none", 5, 400, Duration::from_secs(10), &out_dir);
    assert_eq!(outcome, Outcome::Passed, "{report}");
    assert_eq!(summary_of_fuzz(&report), (0, 0, 0, 0), "{report}");
    assert!(report.contains("400 cases in "), "{report}");
    assert!(!out_dir.exists(), "nothing is written when nothing fails");
}

#[test]
fn fuzz_same_seed_same_report() {
    let (first_dir, second_dir) = (scratch("seed-a"), scratch("seed-b"));
    let (_, first) = fuzz("overline", 3, 100, Duration::from_secs(10), &first_dir);
    let (_, second) = fuzz("overline", 3, 100, Duration::from_secs(10), &second_dir);
    // All but the lines that time or name the folder.
    let steady = |report: &str, dir: &Path| -> Vec<String> {
        report
            .lines()
            .filter(|l| !l.contains(" cases in ") && !l.contains(" runs, "))
            .map(|l| l.replace(&dir.display().to_string(), "DIR"))
            .collect()
    };
    assert_eq!(steady(&first, &first_dir), steady(&second, &second_dir));
    assert!(first.contains("WIN-OVERLINE"), "{first}");
    let files = |dir: &Path| -> Vec<(std::ffi::OsString, Vec<u8>)> {
        let mut files: Vec<_> = fs::read_dir(dir)
            .expect("the failure folder")
            .map(|e| e.expect("entry").path())
            .map(|p| {
                (
                    p.file_name().unwrap_or_default().to_owned(),
                    fs::read(&p).expect("read"),
                )
            })
            .collect();
        files.sort();
        files
    };
    assert_eq!(files(&first_dir), files(&second_dir));
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
        report.contains("300 cases in ") && report.ends_with("no disagreement\n0 failures\n"),
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
        (&["cover"], "no PATH given"),
        (
            &["cover", "--format", "junit", "."],
            "--format: \"junit\" is for check and fuzz only: cover writes text or json",
        ),
        (
            &["check", "--format=xml", "."],
            "--format: \"xml\" is not text, json or junit",
        ),
        (
            &["fuzz", "--program", "x", "--assignment-only=yes"],
            "--assignment-only takes no value, but was given \"yes\"",
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
    for sub in ["check", "fuzz", "cover"] {
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
    assert!(
        report.ends_with("no disagreement\n0 failures\n"),
        "{report}"
    );
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
    // Nothing was checked: not a pass.
    assert_eq!(outcome, Outcome::Failed, "{report}");
    assert!(
        report.contains("nothing was checked: every case was skipped\n"),
        "{report}"
    );
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

#[test]
fn check_junit_report_reads_back_as_xml_with_a_failure_per_failing_case() {
    let dir = scratch("junit");
    fs::create_dir_all(&dir).expect("make the folder");
    // Passes; fails with a diff that holds XML's own characters; skipped.
    fs::write(dir.join("a_pass.in"), b"who\nterm\n").expect("write");
    fs::write(dir.join("b_fail.in"), b"who \n<&>\"\nterm\n").expect("write");
    fs::write(dir.join("c_eof.in"), b"place A1\nplace A1\n").expect("write");
    fs::write(dir.join("d_skip.in"), b"who\n").expect("write");
    fs::write(dir.join("d_skip.args"), b"--rule\nexact\n").expect("write");
    let (outcome, xml) = check_as(
        Some(with_bug("trim,exit-code")),
        vec![dir.clone()],
        Duration::from_secs(10),
        Format::Junit,
    );
    assert_eq!(outcome, Outcome::Failed, "{xml}");
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}:\n{xml}"));
    let suite = doc
        .descendants()
        .find(|n| n.has_tag_name("testsuite"))
        .expect("a testsuite");
    assert_eq!(
        ["tests", "failures", "skipped"].map(|a| suite.attribute(a)),
        [Some("4"), Some("2"), Some("1")],
        "{xml}"
    );
    let cases: Vec<_> = suite
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    let name = |i: usize| cases[i].attribute("name").unwrap_or_default();
    assert!(
        name(0).ends_with("a_pass.in") && name(3).ends_with("d_skip.in"),
        "{xml}"
    );
    let child = |i: usize, tag: &str| cases[i].children().find(|n| n.has_tag_name(tag));
    assert!(child(0, "failure").is_none() && child(0, "skipped").is_none());
    let failure = child(1, "failure").expect("b_fail fails");
    assert!(
        failure
            .text()
            .unwrap_or_default()
            .contains("expected | Invalid!⏎"),
        "{xml}"
    );
    // The end-of-input case fails on a decision, and says so.
    let eof = child(2, "failure").expect("c_eof fails");
    assert!(
        eof.attribute("message")
            .is_some_and(|m| m.contains("decisions: LINE-FINAL-NL, EOF-EXIT")),
        "{xml}"
    );
    let skipped = child(3, "skipped").expect("d_skip is skipped");
    assert!(
        skipped
            .attribute("message")
            .is_some_and(|m| m.contains(".args"))
    );
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn check_json_report_has_a_verdict_per_case() {
    let (outcome, json) = check_as(
        Some(with_bug("none")),
        vec![golden().join("eof")],
        Duration::from_secs(10),
        Format::Json,
    );
    assert_eq!(outcome, Outcome::Passed, "{json}");
    let cases = count_files(&golden().join("eof"), ".in");
    let doc: serde_json::Value = serde_json::from_str(&json).expect("check's JSON");
    assert_eq!(
        (&doc["passed"], &doc["failed"], &doc["skipped"]),
        (&cases.into(), &0.into(), &0.into()),
        "{json}"
    );
    assert_eq!(
        json.matches(r#""verdict": "pass""#).count(),
        cases,
        "{json}"
    );
    assert!(json.contains(r#""decisions": ["INPUT-EMPTY"]"#), "{json}");
    assert!(json.trim_end().ends_with('}'), "{json}");
    // A failure names its clause and whose clause it is.
    let (_, json) = check_as(
        Some(with_bug("mist-swap")),
        vec![golden().join("coord").join("valid_a10.in")],
        Duration::from_secs(10),
        Format::Json,
    );
    assert!(
        json.contains(r#""clause": "MIST-MOVE", "kind": "rule","#),
        "{json}"
    );
}

#[test]
fn check_names_the_decision_a_failure_depends_on() {
    let (_, report) = check(
        Some(with_bug("exit-code")),
        vec![golden().join("eof").join("unfinished_game.in")],
        Duration::from_secs(10),
    );
    assert!(
        report.contains(
            "exit code [EOF-EXIT: this contract's decision] \
             (depends on this contract's decisions: LINE-FINAL-NL, EOF-EXIT)\n"
        ),
        "{report}"
    );
}

/// Every case line tells "wrong" from "decided differently": a failure
/// names the clause it breaks and whose clause it is, and a case that
/// passes says which decisions its expected output depends on.
#[test]
fn check_marks_rules_and_decisions_on_every_case() {
    let (_, report) = check(
        Some(with_bug("mist-swap")),
        vec![
            golden().join("coord").join("valid_a10.in"),
            golden().join("eof").join("empty_input.in"),
        ],
        Duration::from_secs(10),
    );
    assert!(
        report.contains("valid_a10.in: stdout [MIST-MOVE: the assignment's rule]\n"),
        "{report}"
    );
    assert!(
        report.contains("empty_input.in (depends on this contract's decisions: INPUT-EMPTY)\n"),
        "{report}"
    );
}

fn cover(paths: Vec<PathBuf>, format: Format) -> (Outcome, String) {
    let opts = CoverOptions {
        paths,
        format,
        read_args: gomoku_mist::cli::setup,
    };
    let mut out = Vec::new();
    let outcome = conform::cover(&opts, &mut out).expect("cover runs");
    (outcome, String::from_utf8(out).expect("UTF-8"))
}

#[test]
fn cover_finds_every_scenario_in_the_golden_suite() {
    let (outcome, table) = cover(vec![golden()], Format::Text);
    let total = conform::scenario::Scenario::ALL.len();
    assert!(total >= 40);
    assert!(
        table.ends_with(&format!("covered {total} of {total} scenarios\n")),
        "{table}"
    );
    assert_eq!(outcome, Outcome::Passed);
}

#[test]
fn cover_of_a_small_folder_is_its_table() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("cover");
    let (outcome, table) = cover(vec![folder.join("few")], Format::Text);
    assert_eq!(outcome, Outcome::Failed, "not everything is covered");
    let table = table.replace(&format!("{}/", folder.display()), "");
    let want = fs::read_to_string(folder.join("few.txt")).expect("read the expected table");
    if let Some(diff) = crate::common::diff(want.as_bytes(), table.as_bytes()) {
        panic!("cover's table differs from tests/cover/few.txt:\n{diff}");
    }
}

#[test]
fn cover_of_an_empty_folder_covers_nothing_and_says_so() {
    let dir = scratch("cover-empty");
    fs::create_dir_all(&dir).expect("make the folder");
    let (outcome, table) = cover(vec![dir.clone()], Format::Text);
    assert_eq!(outcome, Outcome::Failed);
    let total = conform::scenario::Scenario::ALL.len();
    assert!(
        table.ends_with(&format!(
            "no case was read: nothing is covered\ncovered 0 of {total} scenarios\n"
        )),
        "{table}"
    );
    let (_, json) = cover(vec![dir.clone()], Format::Json);
    let doc: serde_json::Value = serde_json::from_str(&json).expect("cover's JSON");
    assert_eq!(
        (&doc["cases"], &doc["covered"], &doc["total"]),
        (&0.into(), &0.into(), &total.into()),
        "{json}"
    );
    assert_eq!(
        json.matches(r#""covered_by": null"#).count(),
        total,
        "{json}"
    );
    let _ = fs::remove_dir_all(dir);
}

/// Runs the binary with `args`; its exit code, stdout and stderr.
fn kit(args: &[&OsStr]) -> (Option<i32>, String, String) {
    let out = Command::new(BIN).args(args).output().expect("run the kit");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[cfg(unix)]
#[test]
fn check_reports_hostile_cases_within_the_timeout() {
    let dir = scratch("hostile");
    fs::create_dir_all(&dir).expect("make the folder");
    let fifo = dir.join("fifo.in");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("run mkfifo");
    assert!(made.success());
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.in")).expect("link /dev/zero");
    fs::write(dir.join("nodes.in"), b"place J10\nterm\n").expect("write");
    fs::write(
        dir.join("nodes.args"),
        b"--cpu\nwhite\n--cpu-nodes\n1000000000000\n",
    )
    .expect("write");
    let (outcome, report) = check(None, vec![dir.clone()], Duration::from_millis(500));
    assert_eq!(outcome, Outcome::Failed, "nothing was checked:\n{report}");
    for (name, why) in [
        ("fifo.in", "not a plain file"),
        ("zero.in", "not a plain file"),
        ("nodes.in", "the reference did not finish within --timeout"),
    ] {
        let line = format!("skip  {}: {why}", dir.join(name).display());
        assert!(report.contains(&line), "no {line:?} in:\n{report}");
    }
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn a_run_that_checks_nothing_exits_1_and_says_so() {
    let dir = scratch("nothing");
    fs::create_dir_all(&dir).expect("make the folder");
    let (code, out, _) = kit(&["check".as_ref(), dir.as_os_str()]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.ends_with("nothing was checked: no case found\n0 passed, 0 failed\n"),
        "{out}"
    );
    let (code, out, _) = kit(&["fuzz", "--cases", "0", "--program", BIN].map(OsStr::new));
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.ends_with("no case was run: nothing was checked\n"),
        "{out}"
    );
    let (code, _, err) = kit(&["check", "--timeout", "0.0001", "."].map(OsStr::new));
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--timeout: \"0.0001\" is below a millisecond"),
        "{err}"
    );
    let _ = fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn reports_escape_paths_and_quote_them_to_paste() {
    let dir = scratch("odd name");
    let odd = dir.join("new\nline");
    fs::create_dir_all(&odd).expect("make the folder");
    fs::write(odd.join("a.in"), b"who\nterm\n").expect("write");
    let (_, report) = check(
        Some(with_bug("none")),
        vec![odd.clone()],
        Duration::from_secs(10),
    );
    assert!(report.contains("new\\nline/a.in\"\n"), "{report}");
    assert!(!report.contains("new\nline"), "{report}");
    // fuzz's "run them again" line can be pasted into a shell as it is.
    let out = dir.join("out dir");
    let (_, report) = fuzz("trim", 1, 30, Duration::from_secs(10), &out);
    let again = report
        .lines()
        .find(|l| l.starts_with("run them again with: "))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(again.ends_with(&format!("'{}'", out.display())), "{again}");
    let _ = fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn an_unwritable_out_is_exit_1_with_the_reason() {
    let dir = scratch("unwritable");
    fs::create_dir_all(&dir).expect("make the folder");
    // A file where the folder should be: no folder can be made there.
    let out = dir.join("file");
    fs::write(&out, b"").expect("write");
    let program = format!("'{}' trim", broken().display());
    let (code, _, err) = kit(&[
        "fuzz".as_ref(),
        "--cases".as_ref(),
        "30".as_ref(),
        "--seed".as_ref(),
        "1".as_ref(),
        "--program".as_ref(),
        OsStr::new(&program),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(code, Some(1), "{err}");
    // The reason is the last line; before it the kit may say once how it
    // runs programs here (as root from a folder nobody may enter, or
    // without bwrap), which depends on where the repository was cloned.
    let (said_before, reason) = err.trim_end().rsplit_once('\n').unwrap_or(("", &err));
    assert!(reason.starts_with("gomoku-mist: cannot write "), "{err}");
    assert!(
        said_before.lines().all(
            |l| l.starts_with("gomoku-mist: warning: ") || l.starts_with("gomoku-mist: note: ")
        ),
        "{err}"
    );
    let _ = fs::remove_dir_all(dir);
}

#[cfg(target_os = "linux")]
#[test]
fn fuzz_leaves_no_process_behind_when_a_program_exits_before_its_child() {
    let dir = scratch("children");
    fs::create_dir_all(&dir).expect("make the folder");
    let pids = dir.join("pids");
    let script = format!("sleep 60 & echo $! >> '{}'; echo B; exit 1", pids.display());
    let program = vec![
        OsString::from("sh"),
        OsString::from("-c"),
        OsString::from(script),
    ];
    let (outcome, report) = fuzz_with(
        program,
        1,
        6,
        Duration::from_secs(30),
        &dir.join("out"),
        true,
    );
    assert_eq!(outcome, Outcome::Failed, "{report}");
    let pids = fs::read_to_string(&pids).expect("the children's ids");
    assert!(!pids.is_empty());
    // The kill is sent when each run ends, but a signal takes effect in
    // its own time: on a loaded machine the child may still be there for
    // a moment after `fuzz` returns, so it has until HANG to be gone.
    let running = |pid: &str| {
        let stat = fs::read_to_string(format!("/proc/{pid}/stat"));
        stat.is_ok_and(|s| {
            s.rsplit_once(')')
                .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X']))
        })
    };
    let start = std::time::Instant::now();
    for pid in pids.lines() {
        while running(pid) && start.elapsed() < crate::common::HANG {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!running(pid), "sleep {pid} was left behind");
    }
    let _ = fs::remove_dir_all(dir);
}
