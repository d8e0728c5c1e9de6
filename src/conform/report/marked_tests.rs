//! `mark`'s reports of a submission that compiled, calls `malloc`, and
//! has no tests: in CSV, Gradescope's JSON and JUnit.

use serde_json::Value;

use super::{csv, gradescope, junit};
use crate::conform::clause::Clause;
use crate::conform::mark::score::{Weights, marks};
use crate::conform::model::{Build, Correctness, Failure, Marked, Restriction, Tests, Violation};

/// A submission that compiled, calls `malloc`, and has no tests.
fn with_malloc() -> Marked {
    let mut m = Marked {
        name: "ann, b".into(),
        build: Build {
            command: "gcc gitm.c".into(),
            compiled: true,
            program: Some("gitm".into()),
            ..Build::default()
        },
        broken: vec![Violation {
            rule: Restriction::DynamicMemory,
            what: "calls malloc".into(),
        }],
        tests: Tests {
            covered: (0, 53),
            ..Tests::default()
        },
        ..Marked::default()
    };
    m.marks = marks(&m, &Weights::default());
    m
}

#[test]
fn a_csv_row_names_each_restriction_and_quotes_what_must_be() {
    let csv = csv::class(&[with_malloc()]);
    assert_eq!(
        csv,
        "name,compiles,extra_files,vla,dynamic_memory,files,mapped_memory,correctness,tests,memory,total,max\n\
         \"ann, b\",yes,ok,ok,broken: calls malloc,ok,ok,0,0,not checked,0,10\n"
    );
}

#[test]
fn gradescope_results_have_a_test_a_check_each_with_its_fields() {
    let opts = gradescope::Options::default();
    let results: Value = serde_json::from_str(&gradescope::results(&with_malloc(), &opts))
        .expect("results.json is JSON");
    assert_eq!(results["score"], 0.0);
    let tests = results["tests"].as_array().expect("tests");
    let names: Vec<&str> = tests.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "compiles",
            "restriction: no source files beyond the scaffold's",
            "restriction: no variable-length arrays",
            "restriction: no dynamic memory",
            "restriction: no use of files",
            "restriction: no mapped memory",
            "correctness",
            "tests",
            "memory (not counted)"
        ]
    );
    for test in tests {
        for key in ["score", "max_score", "output", "visibility"] {
            assert!(!test[key].is_null(), "{test} has no {key}");
        }
    }
    assert_eq!(tests[3]["status"], "failed");
    // Memory not checked neither passes nor fails.
    assert!(tests[8]["status"].is_null(), "{}", tests[8]);
    // Shown as Markdown, each text in a code block: a diff's `<...>`
    // stays as it is.
    assert_eq!(results["output_format"], "md");
    assert!(tests.iter().all(|t| t["output_format"] == "md"));
    assert!(
        results["output"]
            .as_str()
            .is_some_and(|o| o.starts_with("```text\n"))
    );
    assert!(
        results["output"]
            .as_str()
            .is_some_and(|o| o.contains("no dynamic memory: calls malloc"))
    );
}

#[test]
fn junit_is_xml_with_a_failure_for_the_broken_restriction() {
    let xml = junit::mark(&[with_malloc()]);
    assert!(
        xml.contains("<testsuite name=\"ann, b\" tests=\"8\" failures=\"3\""),
        "{xml}"
    );
    assert!(
        xml.contains("<failure message=\"calls malloc\">calls malloc</failure>"),
        "{xml}"
    );
}

#[test]
fn gradescope_visibility_and_a_test_a_case_are_the_courses_to_set() {
    let mut m = with_malloc();
    m.correctness = Some(Correctness {
        passed_by_rules: vec!["suite/b.in".into()],
        failures: vec![
            Failure {
                case: "suite/a.in".into(),
                reason: "stdout".into(),
                clause: Some(Clause::CmdWho),
                depends_on_decisions: false,
                detail: "    expected | B⏎\n    got      | <W>``` ⏎\n".into(),
                hint: None,
                failure: None,
            },
            Failure {
                case: "suite/c.in".into(),
                depends_on_decisions: true,
                ..Failure::default()
            },
        ],
        ..Correctness::default()
    });
    let opts = gradescope::Options {
        visibility: gradescope::Visibility::AfterDueDate,
        per_case: true,
    };
    let results: Value =
        serde_json::from_str(&gradescope::results(&m, &opts)).expect("results.json is JSON");
    assert_eq!(results["visibility"], "after_due_date");
    let tests = results["tests"].as_array().expect("tests");
    assert!(tests.iter().all(|t| t["visibility"] == "after_due_date"));
    // A case the rules decide is a test of its own, in the suite's
    // order; one that depends on a decision is not.
    let cases: Vec<(&str, &str)> = tests
        .iter()
        .filter(|t| t["name"].as_str().is_some_and(|n| n.starts_with("case: ")))
        .map(|t| {
            (
                t["name"].as_str().unwrap_or(""),
                t["status"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        cases,
        [
            ("case: suite/a.in", "failed"),
            ("case: suite/b.in", "passed")
        ]
    );
    // The fence outlasts the backticks of the program's output.
    let failed = tests
        .iter()
        .find(|t| t["name"] == "case: suite/a.in")
        .and_then(|t| t["output"].as_str())
        .unwrap_or("");
    assert!(
        failed.starts_with("````text\nstdout [CMD-WHO]\n"),
        "{failed}"
    );
    assert!(failed.ends_with("\n````"), "{failed}");
}

#[test]
fn a_program_that_did_not_compile_has_its_restrictions_not_checked_in_every_format() {
    let mut m = with_malloc();
    m.build.compiled = false;
    m.broken.clear();
    m.marks = marks(&m, &Weights::default());
    let results: Value =
        serde_json::from_str(&gradescope::results(&m, &gradescope::Options::default()))
            .expect("results.json is JSON");
    let restrictions: Vec<&Value> = results["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter(|t| {
            t["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("restriction: "))
        })
        .collect();
    // Only the extra files are read from the folder; the rest, from the
    // program, were never checked: neither passed nor failed.
    let statuses: Vec<&Value> = restrictions.iter().map(|t| &t["status"]).collect();
    assert_eq!(statuses[0], "passed");
    assert!(statuses[1..].iter().all(|s| s.is_null()), "{statuses:?}");
    let xml = junit::mark(std::slice::from_ref(&m));
    assert_eq!(
        xml.matches(r#"<skipped message="not checked"/>"#).count(),
        4,
        "{xml}"
    );
    let csv = csv::class(std::slice::from_ref(&m));
    assert!(
        csv.contains(",no,ok,not checked,not checked,not checked,not checked,"),
        "{csv}"
    );
}

#[test]
fn a_fuzz_group_that_is_a_scored_group_again_is_named_once_on_the_page() {
    use crate::conform::model::{Class, FuzzFinding, FuzzRun, Shrunk};
    let hint = Some("only a space is whitespace".to_owned());
    let finding = |clause: Clause, hint: Option<String>| FuzzFinding {
        clause,
        kind: clause.kind(),
        title: clause.title(),
        failure: Class::Output,
        cause: String::new(),
        hint,
        also: Vec::new(),
        cases: 7,
        first_case: 3,
        example: String::new(),
        detail: String::new(),
        file: String::new(),
        shrink_cut_short: false,
        differs: "stdout",
        shared: Vec::new(),
        shrunk: Shrunk {
            from_lines: 1,
            from_bytes: 1,
            lines: 1,
            bytes: 1,
            runs: 0,
            seconds: 0.0,
        },
        input: Vec::new(),
    };
    let mut m = with_malloc();
    m.correctness = Some(Correctness {
        failures: vec![Failure {
            case: "golden/invalid/place_param_ff.in".into(),
            reason: "stdout".into(),
            clause: Some(Clause::Ws),
            hint: hint.clone(),
            ..Failure::default()
        }],
        fuzz: Some(FuzzRun {
            groups: vec![
                "[1] WS …".into(),
                "[2] WS, no hint …".into(),
                "[3] WIN-LINE …".into(),
            ],
            findings: vec![
                finding(Clause::Ws, hint),
                // Under the same clause with another likely cause (here
                // none): perhaps another mistake, so shown.
                finding(Clause::Ws, None),
                finding(Clause::WinLine, None),
            ],
            ..FuzzRun::default()
        }),
        ..Correctness::default()
    });
    let page = super::page::page(&m);
    assert!(!page.contains("[1] WS"), "{page}");
    assert!(
        page.contains("    [2] WS, no hint …\n    [3] WIN-LINE …\n"),
        "{page}"
    );
    assert!(
        page.contains("    the same as a group above: [WS] 7 failing cases\n"),
        "{page}"
    );
}

#[test]
fn a_false_win_and_a_missed_win_are_two_groups_under_one_clause() {
    use crate::conform::model::Class;
    let failure = |case: &str, failure| Failure {
        case: case.into(),
        reason: "stdout".into(),
        clause: Some(Clause::WinLine),
        failure: Some(failure),
        ..Failure::default()
    };
    let mut m = with_malloc();
    m.correctness = Some(Correctness {
        failures: vec![
            failure("golden/win/diagonal_middle.in", Class::Output),
            failure("golden/win/no_wrap_around_row_end.in", Class::Extra),
            failure("golden/win/corner_a1_diagonal.in", Class::Output),
        ],
        ..Correctness::default()
    });
    let page = super::page::page(&m);
    assert!(
        page.contains(
            "  FAIL [WIN-LINE] 2 cases, the first golden/win/diagonal_middle.in: stdout\n"
        ),
        "{page}"
    );
    assert!(
        page.contains("  FAIL [WIN-LINE] golden/win/no_wrap_around_row_end.in: stdout\n"),
        "{page}"
    );
}
