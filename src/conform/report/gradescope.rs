//! Gradescope's `results.json` for one submission (its autograder
//! specification: `score`, `output`, and `tests`, each with `name`,
//! `score`, `max_score`, `output` and `visibility`): a test for
//! compiling, one a restriction, one a part; the page of text as the
//! output. The same command, writing this to
//! `/autograder/results/results.json`, is a Gradescope autograder.

use serde::Serialize;

use super::{json, page};
use crate::conform::model::{Marked, Restriction};

/// The whole file.
#[derive(Serialize)]
struct Results {
    score: f64,
    output: String,
    visibility: &'static str,
    stdout_visibility: &'static str,
    tests: Vec<Test>,
    execution_time: u64,
}

/// One test.
#[derive(Serialize)]
struct Test {
    name: String,
    score: f64,
    max_score: f64,
    /// `passed` or `failed`, for a test worth no points.
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'static str>,
    output: String,
    visibility: &'static str,
}

/// A test worth no points that passes or fails.
fn check(name: String, passed: bool, output: String) -> Test {
    Test {
        name,
        score: 0.0,
        max_score: 0.0,
        status: Some(if passed { "passed" } else { "failed" }),
        output,
        visibility: "visible",
    }
}

/// `results.json` for `m`.
pub fn results(m: &Marked) -> String {
    let build = format!("{}\n{}", m.build.command, m.build.messages);
    let mut tests = vec![check(
        "compiles".to_owned(),
        m.build.compiled,
        if m.build.compiled {
            build
        } else {
            format!("{build}\nWithout a program that compiles there is no mark.")
        },
    )];
    for rule in Restriction::ALL {
        let broken: Vec<&str> = m.broken_of(rule).collect();
        let output = if broken.is_empty() {
            "not broken".to_owned()
        } else {
            format!("BROKEN, the mark is zero:\n{}", broken.join("\n"))
        };
        let name = format!("restriction: {}", rule.title());
        tests.push(check(name, broken.is_empty(), output));
    }
    for part in &m.marks.parts {
        tests.push(Test {
            name: part.id.to_owned(),
            score: m.marks.counted(part),
            max_score: part.max,
            status: None,
            output: part.basis.clone(),
            visibility: "visible",
        });
    }
    json::pretty(&Results {
        score: m.marks.total,
        output: page::page(m),
        visibility: "visible",
        stdout_visibility: "hidden",
        tests,
        execution_time: m.took.as_secs(),
    })
}
