//! The machine-read reports: the kit's own JSON, Gradescope's
//! `results.json`, JUnit XML and the class's CSV.
//!
//! Gradescope's format (its autograder specification): `score`,
//! `output`, and `tests`, each with `name`, `score`, `max_score`,
//! `output` and `visibility`; the same command, writing this to
//! `/autograder/results/results.json`, is a Gradescope autograder.

use serde_json::{Value, json};

use super::marked::{Marked, Rule, SuiteUsed};
use super::score::Marks;
use super::text::{self, NOT_OFFICIAL};
use crate::conform::junit;

/// The suite, in the kit's JSON.
fn suite(used: &SuiteUsed) -> Value {
    json!({
        "name": used.name,
        "built_in": used.built_in,
        "version": used.built_in.then_some(env!("CARGO_PKG_VERSION")),
        "cases": used.cases,
        "hash": used.hash_text(),
        "said": used.said(),
    })
}

/// The kit's JSON for one submission.
pub fn submission(m: &Marked, marks: &Marks) -> Value {
    let correctness = m.correctness.as_ref().map(|c| {
        json!({
            "suite": c.suite,
            "rules": {"passed": c.rules.0, "run": c.rules.1},
            "decisions": {"passed": c.decided.0, "run": c.decided.1},
            "skipped": c.skipped,
            "not_run_at_end_of_input": c.not_run_at_eof,
            "contained": c.contained,
            "failures": c.failures.iter().map(|f| json!({
                "case": f.case, "reason": f.reason, "clause": f.clause,
                "depends_on_decisions": f.decided, "detail": f.detail,
            })).collect::<Vec<_>>(),
            "fuzz": c.fuzz.as_ref().map(|f| json!({
                "seconds": f.time.as_secs_f64(), "seed": f.seed, "sessions": f.cases,
                "assignment_only": f.assignment_only,
                "verdict": f.verdict, "groups": f.groups,
            })),
        })
    });
    let memory = m.memory.as_ref().map(|mem| {
        json!({
            "tool": mem.tool.as_ref().map(|t| t.name()).ok(),
            "not_checked": mem.tool.as_ref().err(),
            "cases": mem.cases.0,
            "cases_ended": mem.cases.1,
            "errors": mem.errors.iter().map(|(case, text)| json!({"case": case, "report": text})).collect::<Vec<_>>(),
            "peak_kib": mem.peak.as_ref().ok().map(|p| p.0),
            "peak_case": mem.peak.as_ref().ok().map(|p| &p.1),
            "peak_not_measured": mem.peak.as_ref().err(),
            "peak_limit_kib": mem.limit_kib,
            "over_limit": mem.over_limit(),
        })
    });
    let t = &m.tests;
    json!({
        "name": m.name,
        "folder": m.folder.display().to_string(),
        "note": NOT_OFFICIAL,
        "not_read": m.not_read.iter().map(|n| json!({
            "path": if n.path.is_empty() { m.folder.display().to_string() } else { n.path.clone() },
            "reason": n.why,
        })).collect::<Vec<_>>(),
        "folder_read": m.folder_not_read().is_none(),
        "suite": suite(&m.suite),
        "compiles": m.build.compiled,
        "compiles_only_with_vla_allowed": m.build.relaxed,
        "compile_command": m.build.command,
        "compiler_messages": m.build.messages,
        "restrictions": Rule::ALL.iter().map(|r| json!({
            "id": r.id(),
            "title": r.title(),
            "broken": m.broken.iter().filter(|v| v.rule == *r).map(|v| v.what.clone()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "imports_unread": m.imports_unread,
        "correctness": correctness,
        "memory": memory,
        "tests": {
            "folder": t.folder.as_ref().map(|f| f.display().to_string()),
            "cases": t.cases,
            "wrong": t.wrong.iter().map(|(case, d)| json!({"case": case, "detail": d})).collect::<Vec<_>>(),
            "without_out": t.no_out,
            "covered": t.covered.0,
            "scenarios": t.covered.1,
            "not_covered": t.missing.iter().map(|(id, _, _)| id).collect::<Vec<_>>(),
        },
        "marks": {
            "total": marks.total,
            "max": marks.max,
            "zeroed": marks.zeroed,
            "parts": marks.parts.iter().map(|p| json!({
                "part": p.id, "score": p.score, "max": p.max, "basis": p.basis,
            })).collect::<Vec<_>>(),
        },
        "seconds": m.took.as_secs_f64(),
    })
}

/// The kit's JSON for a whole run.
pub fn all(all: &[(Marked, Marks)]) -> String {
    let doc = json!({
        "note": NOT_OFFICIAL,
        "suite": all.first().map(|(m, _)| suite(&m.suite)),
        "submissions": all.iter().map(|(m, marks)| submission(m, marks)).collect::<Vec<_>>(),
    });
    pretty(&doc)
}

fn pretty(doc: &Value) -> String {
    let mut text = serde_json::to_string_pretty(doc).unwrap_or_default();
    text.push('\n');
    text
}

/// Gradescope's `results.json` for one submission: a test for compiling,
/// one for each restriction, one a part; the page of text as the output.
pub fn gradescope(m: &Marked, marks: &Marks) -> String {
    let page = text::page(m, marks);
    let mut tests = vec![json!({
        "name": "compiles",
        "score": 0,
        "max_score": 0,
        "status": if m.build.compiled { "passed" } else { "failed" },
        "output": if m.build.compiled { format!("{}\n{}", m.build.command, m.build.messages) } else {
            format!("{}\n{}\nWithout a program that compiles there is no mark.", m.build.command, m.build.messages)
        },
        "visibility": "visible",
    })];
    for rule in Rule::ALL {
        let broken: Vec<&str> = m
            .broken
            .iter()
            .filter(|v| v.rule == rule)
            .map(|v| v.what.as_str())
            .collect();
        tests.push(json!({
            "name": format!("restriction: {}", rule.title()),
            "score": 0,
            "max_score": 0,
            "status": if broken.is_empty() { "passed" } else { "failed" },
            "output": if broken.is_empty() { "not broken".to_owned() } else {
                format!("BROKEN, the mark is zero:\n{}", broken.join("\n"))
            },
            "visibility": "visible",
        }));
    }
    for part in &marks.parts {
        tests.push(json!({
            "name": part.id,
            "score": if marks.zeroed.is_some() { 0.0 } else { part.score },
            "max_score": part.max,
            "output": part.basis,
            "visibility": "visible",
        }));
    }
    pretty(&json!({
        "score": marks.total,
        "output": page,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "execution_time": m.took.as_secs(),
    }))
}

/// JUnit XML: a test suite a submission, a test case a check.
pub fn junit(all: &[(Marked, Marks)]) -> String {
    let suites = all.iter().map(|(m, marks)| {
        let mut cases: Vec<(String, Option<String>)> = vec![(
            "compiles".into(),
            (!m.build.compiled).then(|| format!("{}\n{}", m.build.command, m.build.messages)),
        )];
        for rule in Rule::ALL {
            let broken: Vec<&str> = m
                .broken
                .iter()
                .filter(|v| v.rule == rule)
                .map(|v| v.what.as_str())
                .collect();
            cases.push((
                format!("restriction: {}", rule.title()),
                (!broken.is_empty()).then(|| broken.join("\n")),
            ));
        }
        for part in &marks.parts {
            let full = part.score >= part.max && marks.zeroed.is_none();
            cases.push((
                format!(
                    "{} {} of {}",
                    part.id,
                    if marks.zeroed.is_some() {
                        0.0
                    } else {
                        part.score
                    },
                    part.max
                ),
                (!full).then(|| part.basis.clone()),
            ));
        }
        junit::Suite {
            name: m.name.clone(),
            time: m.took.as_secs_f64(),
            properties: vec![
                ("total".to_owned(), marks.total.to_string()),
                ("max".to_owned(), marks.max.to_string()),
                ("note".to_owned(), NOT_OFFICIAL.to_owned()),
                ("suite".to_owned(), m.suite.said()),
            ],
            cases: cases
                .into_iter()
                .map(|(name, failure)| junit::Case {
                    classname: "gomoku-mist.mark",
                    name,
                    time: None,
                    properties: Vec::new(),
                    outcome: match failure {
                        None => junit::Outcome::Pass,
                        Some(why) => junit::Outcome::Failure {
                            message: why.lines().next().unwrap_or_default().to_owned(),
                            kind: None,
                            body: why,
                        },
                    },
                })
                .collect(),
            system_out: Some(text::page(m, marks)),
        }
    });
    junit::render(&junit::Report {
        name: "gomoku-mist mark".to_owned(),
        shape: junit::Shape {
            totals: false,
            skipped: false,
            inline: false,
        },
        suites: suites.collect(),
    })
}

/// A CSV field, quoted when it must be (RFC 4180).
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// The class's CSV: a header, then one row a submission.
pub fn csv(all: &[(Marked, Marks)]) -> String {
    let mut header = vec!["name".to_owned(), "compiles".to_owned()];
    header.extend(Rule::ALL.iter().map(|r| r.id().to_owned()));
    header.extend(["correctness", "tests", "memory", "total", "max"].map(str::to_owned));
    let mut out = header.join(",");
    out.push('\n');
    for (m, marks) in all {
        let part = |id: &str| {
            marks
                .parts
                .iter()
                .find(|p| p.id == id)
                .map_or(String::new(), |p| p.score.to_string())
        };
        let mut row = vec![field(&m.name), text::compiles_word(m).to_owned()];
        for rule in Rule::ALL {
            let broken: Vec<&str> = m
                .broken
                .iter()
                .filter(|v| v.rule == rule)
                .map(|v| v.what.as_str())
                .collect();
            let unchecked = match rule {
                Rule::ExtraFiles => m.folder_not_read().is_some(),
                Rule::Vla => !m.build.compiled,
                _ => !m.build.compiled || m.imports_unread.is_some(),
            };
            row.push(if !broken.is_empty() {
                field(&format!("broken: {}", broken.join("; ")))
            } else if unchecked {
                "not checked".to_owned()
            } else {
                "ok".to_owned()
            });
        }
        row.push(part("correctness"));
        row.push(part("tests"));
        row.push(text::memory_word(m).to_owned());
        row.push(marks.total.to_string());
        row.push(marks.max.to_string());
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::marked::{Build, Tests, Violation};
    use super::super::score::{Weights, marks};
    use super::*;

    /// A submission that compiled, calls `malloc`, and has no tests.
    fn with_malloc() -> Marked {
        Marked {
            name: "ann, b".into(),
            build: Build {
                command: "gcc gitm.c".into(),
                compiled: true,
                program: Some("gitm".into()),
                ..Build::default()
            },
            broken: vec![Violation {
                rule: Rule::DynamicMemory,
                what: "calls malloc".into(),
            }],
            tests: Tests {
                covered: (0, 53),
                ..Tests::default()
            },
            ..Marked::default()
        }
    }

    #[test]
    fn a_csv_row_names_each_restriction_and_quotes_what_must_be() {
        let m = with_malloc();
        let marks = marks(&m, &Weights::default());
        let csv = csv(&[(m, marks)]);
        assert_eq!(
            csv,
            "name,compiles,extra_files,vla,dynamic_memory,files,mapped_memory,correctness,tests,memory,total,max\n\
             \"ann, b\",yes,ok,ok,broken: calls malloc,ok,ok,0,0,not checked,0,10\n"
        );
    }

    #[test]
    fn gradescope_results_have_a_test_a_check_each_with_its_fields() {
        let m = with_malloc();
        let marks = marks(&m, &Weights::default());
        let results: Value =
            serde_json::from_str(&gradescope(&m, &marks)).expect("results.json is JSON");
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
        let m = with_malloc();
        let marks = marks(&m, &Weights::default());
        let xml = junit(&[(m, marks)]);
        assert!(
            xml.contains("<testsuite name=\"ann, b\" tests=\"8\" failures=\"3\""),
            "{xml}"
        );
        assert!(
            xml.contains("<failure message=\"calls malloc\">calls malloc</failure>"),
            "{xml}"
        );
    }
}
