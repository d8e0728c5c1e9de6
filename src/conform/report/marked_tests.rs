//! `mark`'s reports of a submission that compiled, calls `malloc`, and
//! has no tests: in CSV, Gradescope's JSON and JUnit.

use serde_json::Value;

use super::{csv, gradescope, junit};
use crate::conform::mark::score::{Weights, marks};
use crate::conform::model::{Build, Marked, Restriction, Tests, Violation};

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
    let results: Value =
        serde_json::from_str(&gradescope::results(&with_malloc())).expect("results.json is JSON");
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
            "tests"
        ]
    );
    for test in tests {
        for key in ["score", "max_score", "output", "visibility"] {
            assert!(!test[key].is_null(), "{test} has no {key}");
        }
    }
    assert_eq!(tests[3]["status"], "failed");
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
