//! Each hint of the kit is given for the planted program with exactly
//! that cause (`tests/broken/broken.rs`), on a case that shows it, and
//! no hint is given where no hypothesis explains the failure.

use std::ffi::OsString;
use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use gomoku_mist::conform::hint::Hint;
use gomoku_mist::conform::{self, CheckOptions, Format, FuzzOptions, Limit, Outcome};

use crate::common::broken;

fn golden(path: &str) -> Vec<u8> {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(path);
    fs::read(&file).unwrap_or_else(|e| panic!("read {}: {e}", file.display()))
}

/// The hint `check` gives for `input` run through `broken BUG`, and the
/// clause it blames.
fn check_hint(bug: &str, input: &[u8]) -> (Option<String>, Option<String>) {
    let dir = tempfile::tempdir().expect("a folder");
    fs::write(dir.path().join("case.in"), input).expect("write the case");
    let opts = CheckOptions {
        program: Some(vec![broken().into_os_string(), OsString::from(bug)]),
        paths: vec![dir.path().to_path_buf()],
        timeout: Duration::from_secs(5),
        jobs: 2,
        read_args: gomoku_mist::cli::setup,
        format: Format::Json,
        contain: Default::default(),
    };
    let mut out = Vec::new();
    let outcome = conform::check(&opts, None, &mut out).expect("check runs");
    let json = String::from_utf8(out).expect("UTF-8");
    assert_eq!(outcome, Outcome::Failed, "broken {bug} passes:\n{json}");
    let doc: serde_json::Value = serde_json::from_str(&json).expect("check's JSON");
    let case = &doc["cases"][0];
    let text = |v: &serde_json::Value| v.as_str().map(str::to_owned);
    (text(&case["hint"]), text(&case["clause"]))
}

#[test]
fn check_gives_each_planted_cause_its_hint() {
    let overline = b"place C5\nplace C7\nplace D5\nplace D7\nplace E5\nplace E7\nplace G5\nplace G7\nplace H5\nplace H7\nplace F5\n";
    let long = [vec![b'x'; 300], b"\nwho\nterm\n".to_vec()].concat();
    let table: Vec<(&str, Vec<u8>, Hint)> = vec![
        ("nul-cut", b"who\0x\nterm\n".to_vec(), Hint::NulEndsString),
        (
            "cr-place",
            b"place M5\r\nwho\nterm\n".to_vec(),
            Hint::CrDropped,
        ),
        (
            "space-only",
            b"place A1\x0c\nterm\n".to_vec(),
            Hint::SpaceOnly,
        ),
        ("trim", b"who \nterm\n".to_vec(), Hint::Trimmed),
        ("trim", b" who\nterm\n".to_vec(), Hint::LeadingSkipped),
        ("skip-blank", b"\nwho\nterm\n".to_vec(), Hint::BlankSkipped),
        ("no-case", b"WHO\nterm\n".to_vec(), Hint::NoCase),
        (
            "no-case",
            b"place a1\nhistory\nterm\n".to_vec(),
            Hint::NoCase,
        ),
        ("eof-loop", b"who\n".to_vec(), Hint::EofLoop),
        ("flood", b"who\nplace A1\n".to_vec(), Hint::EofLoop),
        // Replies to `who` and `view` still in its buffer when it hangs.
        (
            "nul-hang",
            b"who\nview\n\0\nterm\n".to_vec(),
            Hint::Unflushed,
        ),
        (
            "tie",
            golden("tie/full_board_last_stone_makes_five_black_wins.in"),
            Hint::TieBeforeWin,
        ),
        ("overline", overline.to_vec(), Hint::ExactFive),
        (
            "overline",
            golden("overline/white_six_anti_diagonal.in"),
            Hint::ExactFive,
        ),
        ("mist-swap", golden("coord/valid_a10.in"), Hint::MistSwapped),
        // One line cannot tell 255 from its neighbours: `check` runs
        // nothing more, and says the range.
        ("buffer-256", long, Hint::Pieces { from: 151, to: 300 }),
    ];
    let mut wrong = Vec::new();
    for (bug, input, want) in table {
        let (got, clause) = check_hint(bug, &input);
        if got.as_deref() != Some(want.sentence().as_str()) {
            wrong.push(format!(
                "broken {bug} on {:?} [{clause:?}]:\n  want {:?}\n  got  {got:?}",
                String::from_utf8_lossy(&input[..input.len().min(60)]),
                want.sentence()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn check_gives_no_hint_that_no_experiment_bears_out() {
    // A missed five on an edge: no hypothesis of the kit's explains it.
    let edge = golden("win/edge_column_a.in");
    assert_eq!(check_hint("edge", &edge).0, None);
    // Hung on a NUL line with nothing due before it: nothing was lost.
    assert_eq!(check_hint("nul-hang", b"\0\nwho\nterm\n").0, None);
    // `place 0\r` is `Invalid coordinate` to a program that drops the
    // `\r` and to one that takes it for part of the point: no telling
    // from it alone, and the controls refute both (`place 0x` is answered
    // alike; `place A1\r` places a stone, as no point holding a `\r`
    // would).
    assert_eq!(check_hint("cr-place", b"place 0\r\nterm\n").0, None);
    // A program that ignores what follows a point places a stone for
    // `place J10\r`, as the reference does for `place J10`; but it does
    // for `place J10x` too: the `\r` is no more its cause than the `x`.
    let (hint, clause) = check_hint("lax-point", b"place J10\r\nwho\nterm\n");
    assert_eq!(hint, None, "[{clause:?}]");
    // A program that misses every five on an anti-diagonal misses six
    // there too, as one that takes only exactly five for a win would;
    // but it misses the same game's exactly five as well (the control):
    // six in a row is not its cause.
    // A program that cuts a point at its first whitespace byte, as
    // `sscanf("%s")` does, answers `place A1\r` as one that drops a
    // Windows line ending would; but `place A1\x0c` too, and the `\r` is
    // not what it takes for a line ending.
    let (hint, clause) = check_hint("ws-param", b"place A1\r\nwho\nterm\n");
    assert_eq!(hint, None, "[{clause:?}]");
    // The golden full board's 361st stone makes six: a program that
    // misses only six prints the tie, as one that checks the tie first
    // does; but it wins a full board whose 361st stone makes exactly
    // five (the control), and the tie is not checked first.
    let full = golden("tie/full_board_last_stone_makes_five_black_wins.in");
    let (hint, clause) = check_hint("overline", &full);
    assert_eq!(hint, None, "[{clause:?}]");
    // Its last stone made six: the overline is what it misses.
    assert_eq!(clause.as_deref(), Some("WIN-OVERLINE"));
    // The line, not its length, is what it misses: WIN-LINE.
    let six = golden("overline/white_six_anti_diagonal.in");
    let (hint, clause) = check_hint("anti-diagonal", &six);
    assert_eq!((hint, clause.as_deref()), (None, Some("WIN-LINE")));
}

#[test]
fn a_whitespace_byte_in_a_parameter_is_one_clause_whatever_the_byte() {
    // A program that takes only the space for whitespace answers each
    // as a point: one mistake, WS, whether the byte is a tab, a `\r`
    // (which it keeps, as it keeps the others), a `\v` or a `\f`.
    for input in [
        b"place J10\r\nterm\n".as_slice(),
        b"place \t\nterm\n",
        b"place A\x0b1\nterm\n",
        b"place A1\x0c\nterm\n",
    ] {
        let (hint, clause) = check_hint("space-only", input);
        assert_eq!(
            (hint, clause.as_deref()),
            (Some(Hint::SpaceOnly.sentence()), Some("WS")),
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
    // A `\r` dropped as a line ending places the stone: LINE-SPLIT.
    let (hint, clause) = check_hint("cr-place", b"place M5\r\nwho\nterm\n");
    assert_eq!(
        (hint, clause.as_deref()),
        (Some(Hint::CrDropped.sentence()), Some("LINE-SPLIT"))
    );
}

#[test]
fn a_missed_overline_on_an_edge_is_filed_under_overlines_when_its_hint_shows_it() {
    // Seven in column S: a line on an edge, where most misses are filed
    // (WIN-LINE); the hint, borne out by the same game's exactly five,
    // shows the overline is what the program misses.
    let seven = golden("overline/seven_vertical_column_s.in");
    let (hint, clause) = check_hint("overline", &seven);
    assert_eq!(hint, Some(Hint::ExactFive.sentence()));
    assert_eq!(clause.as_deref(), Some("WIN-OVERLINE"));
    // A program that misses edges misses it too, for another cause.
    let (hint, clause) = check_hint("edge", &seven);
    assert_eq!((hint, clause.as_deref()), (None, Some("WIN-LINE")));
}

/// `fuzz --format json` of `broken BUG` over `cases` cases, parsed.
fn fuzz_json(bug: &str, cases: u64) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("a folder");
    let opts = FuzzOptions {
        program: vec![broken().into_os_string(), bug.into()],
        seed: 1,
        limit: Limit::Cases(cases),
        out_dir: dir.path().to_path_buf(),
        timeout: Duration::from_secs(5),
        jobs: 2,
        shrink_budget: 500,
        assignment_only: false,
        format: Format::Json,
        contain: Default::default(),
    };
    let mut out = Vec::new();
    let outcome = conform::fuzz(&opts, None, &mut out).expect("fuzz runs");
    let json = String::from_utf8(out).expect("UTF-8");
    assert_eq!(outcome, Outcome::Failed, "{json}");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}:\n{json}"))
}

#[test]
fn fuzz_makes_one_finding_of_groups_one_cause_explains() {
    // Folding case fails `WHO` (CMD-EXACT) and `place a1` (PLACE-POINT);
    // skipping blank lines fails ` who` (CMD-EXACT) and an empty line
    // (CMD-INVALID): each one bug, one finding, its cases all counted.
    for (bug, also, cause) in [
        ("no-case", "PLACE-POINT", Hint::NoCase),
        ("skip-blank", "CMD-INVALID", Hint::BlankSkipped),
    ] {
        let doc = fuzz_json(bug, 127);
        let findings = doc["findings"].as_array().expect("findings");
        assert_eq!(findings.len(), 1, "broken {bug}: {doc:#}");
        let f = &findings[0];
        assert_eq!(
            f["also"],
            serde_json::json!([also]),
            "broken {bug}: {doc:#}"
        );
        assert_eq!(
            f["hint"],
            cause.sentence().as_str(),
            "broken {bug}: {doc:#}"
        );
        assert_eq!(f["cases"], doc["failures"], "broken {bug}: {doc:#}");
    }
}

#[test]
fn fuzz_finds_a_buffers_size_by_experiment() {
    let doc = fuzz_json("buffer-256", 200);
    let want = Hint::Pieces { from: 255, to: 255 }.sentence();
    let findings = doc["findings"].as_array().expect("findings");
    assert!(
        findings.iter().any(|f| f["hint"] == want.as_str()),
        "no finding says {want:?}:\n{doc:#}"
    );
}

#[test]
fn fuzz_tells_a_tie_called_first_from_an_overline_missed() {
    // Two mistakes among missed wins: the full board's last stone is
    // looked at after the tie, and six in a row do not win. The aimed
    // full board must not shrink into an overline, which the program
    // misses too: two findings, each with its hint.
    let doc = fuzz_json("tie,overline", 127);
    let findings = doc["findings"].as_array().expect("findings");
    let with = |clause: &str, hint: Hint| {
        findings
            .iter()
            .any(|f| f["clause"] == clause && f["hint"] == hint.sentence().as_str())
    };
    assert!(with("TIE-WIN-FIRST", Hint::TieBeforeWin), "{doc:#}");
    assert!(with("WIN-OVERLINE", Hint::ExactFive), "{doc:#}");
}

#[test]
fn no_hint_is_given_when_its_control_has_no_time_to_run() {
    // It misses six in column S and then waits at the end of the input
    // until the case's time is up: "only exactly five win" fits, but its
    // control (the same game won by exactly five) cannot be run, and a
    // hint nothing checked is not given.
    let seven = golden("overline/seven_vertical_column_s.in");
    let (hint, clause) = check_hint("overline,eof-loop", &seven);
    assert_eq!(hint, None, "[{clause:?}]");
    // With time for it, the control bears the hint out.
    let (hint, _) = check_hint("overline", &seven);
    assert_eq!(hint, Some(Hint::ExactFive.sentence()));
}
