//! JUnit XML, the one report format CI servers read: a typed model of
//! suites and cases, and one function that writes it.
//!
//! `check`, `fuzz` and `mark` each fill the model; none writes XML by
//! hand, so escaping and the counts a suite declares cannot drift from its
//! cases. Where the three have always written it differently, a field of
//! [`Shape`] says so, and the bytes stay as they were.

use std::fmt::Write as _;

use super::page;
use super::xml;
use crate::conform::clause;
use crate::conform::model::{Checked, Fuzzed, Kept, Marked, NOT_OFFICIAL, Restriction, Verdict};

/// A whole document: `<testsuites>` and what it holds.
pub struct Document {
    /// The command that made it.
    pub name: String,
    /// How that command writes it.
    pub shape: Shape,
    /// Its suites, in order.
    pub suites: Vec<Suite>,
}

/// How one command has always written its report.
#[derive(Clone, Copy)]
pub struct Shape {
    /// Whether `<testsuites>` repeats its suites' counts and time (check,
    /// fuzz) or carries a name only (mark).
    pub totals: bool,
    /// Whether counts include `skipped` (mark never skips, and has never
    /// written it).
    pub skipped: bool,
    /// Whether a case that holds only an empty element (`<skipped/>`,
    /// `<error/>`) is written on one line (fuzz) or one line a tag (check).
    pub inline: bool,
}

/// One `<testsuite>`.
pub struct Suite {
    /// What was tested: the command, or a submission.
    pub name: String,
    /// Seconds, as the suite declares them.
    pub time: f64,
    /// Names and values that hold for the whole suite.
    pub properties: Vec<(String, String)>,
    /// Its cases, in order.
    pub cases: Vec<Case>,
    /// What the suite printed, as a person reads it.
    pub system_out: Option<String>,
}

/// One `<testcase>`.
pub struct Case {
    /// The command, as `gomoku-mist.check`.
    pub classname: &'static str,
    /// The case: a path, a finding, a step of marking.
    pub name: String,
    /// Seconds, if the case was timed.
    pub time: Option<f64>,
    /// Names and values that hold for this case.
    pub properties: Vec<(String, String)>,
    /// How it ended.
    pub outcome: Outcome,
}

/// How a case ended.
pub enum Outcome {
    /// Passed.
    Pass,
    /// Failed: why in a line, what kind, and the detail.
    Failure {
        /// The first line of why.
        message: String,
        /// What kind of failure; left out when there is no kind to give.
        kind: Option<String>,
        /// The whole detail.
        body: String,
    },
    /// Not run, and why.
    Skipped {
        /// Why.
        message: String,
    },
    /// The case could not be run at all.
    Error {
        /// Why.
        message: String,
    },
}

/// How many cases of `cases` ended each way.
struct Counts {
    tests: usize,
    failures: usize,
    skipped: usize,
    errors: usize,
}

impl Counts {
    fn of<'a>(cases: impl IntoIterator<Item = &'a Case>) -> Counts {
        let mut counts = Counts {
            tests: 0,
            failures: 0,
            skipped: 0,
            errors: 0,
        };
        for case in cases {
            counts.tests += 1;
            match case.outcome {
                Outcome::Pass => {}
                Outcome::Failure { .. } => counts.failures += 1,
                Outcome::Skipped { .. } => counts.skipped += 1,
                Outcome::Error { .. } => counts.errors += 1,
            }
        }
        counts
    }

    /// The attributes after `name`, as `shape` writes them.
    fn attributes(&self, shape: Shape, time: f64) -> String {
        let mut out = format!(r#" tests="{}" failures="{}""#, self.tests, self.failures);
        if shape.skipped {
            let _ = write!(out, r#" skipped="{}""#, self.skipped);
        }
        let _ = write!(out, r#" errors="{}" time="{time:.3}""#, self.errors);
        out
    }
}

/// `properties` as one line of XML.
fn properties(properties: &[(String, String)]) -> String {
    let mut out = String::from("<properties>");
    for (name, value) in properties {
        let _ = write!(
            out,
            r#"<property name="{}" value="{}"/>"#,
            xml(name),
            xml(value)
        );
    }
    out.push_str("</properties>");
    out
}

/// `report` as JUnit XML.
pub fn render(report: &Document) -> String {
    let shape = report.shape;
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = write!(out, r#"<testsuites name="{}""#, xml(&report.name));
    if shape.totals {
        let counts = Counts::of(report.suites.iter().flat_map(|s| &s.cases));
        let time = report.suites.iter().map(|s| s.time).sum();
        out.push_str(&counts.attributes(shape, time));
    }
    out.push_str(">\n");
    for suite in &report.suites {
        let counts = Counts::of(&suite.cases);
        let _ = writeln!(
            out,
            r#"  <testsuite name="{}"{}>"#,
            xml(&suite.name),
            counts.attributes(shape, suite.time)
        );
        if !suite.properties.is_empty() {
            let _ = writeln!(out, "    {}", properties(&suite.properties));
        }
        for case in &suite.cases {
            write_case(&mut out, shape, case);
        }
        if let Some(text) = &suite.system_out {
            let _ = writeln!(out, "    <system-out>{}</system-out>", xml(text));
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

fn write_case(out: &mut String, shape: Shape, case: &Case) {
    let _ = write!(
        out,
        r#"    <testcase classname="{}" name="{}""#,
        xml(case.classname),
        xml(&case.name)
    );
    if let Some(time) = case.time {
        let _ = write!(out, r#" time="{time:.3}""#);
    }
    let inner = match &case.outcome {
        Outcome::Pass => None,
        Outcome::Failure {
            message,
            kind,
            body,
        } => {
            let kind = kind
                .as_deref()
                .map(|k| format!(r#" type="{}""#, xml(k)))
                .unwrap_or_default();
            Some(format!(
                r#"<failure message="{}"{kind}>{}</failure>"#,
                xml(message),
                xml(body)
            ))
        }
        Outcome::Skipped { message } => Some(format!(r#"<skipped message="{}"/>"#, xml(message))),
        Outcome::Error { message } => Some(format!(r#"<error message="{}"/>"#, xml(message))),
    };
    let empty = matches!(
        case.outcome,
        Outcome::Skipped { .. } | Outcome::Error { .. }
    );
    match inner {
        None if case.properties.is_empty() => out.push_str("/>\n"),
        Some(inner) if shape.inline && empty && case.properties.is_empty() => {
            let _ = writeln!(out, ">{inner}</testcase>");
        }
        inner => {
            out.push_str(">\n");
            if !case.properties.is_empty() {
                let _ = writeln!(out, "      {}", properties(&case.properties));
            }
            if let Some(inner) = inner {
                let _ = writeln!(out, "      {inner}");
            }
            out.push_str("    </testcase>\n");
        }
    }
}

/// `check`'s report: a case a `.in` file.
pub fn check(checked: &Checked) -> String {
    let cases = checked.cases.iter().map(|c| {
        let decisions = clause::ids(&c.decisions);
        let outcome = match c.verdict {
            Verdict::Pass => Outcome::Pass,
            Verdict::Fail => Outcome::Failure {
                message: if c.on_decision() {
                    format!(
                        "{} (depends on this contract's decisions: {decisions})",
                        c.reason
                    )
                } else {
                    c.reason.clone()
                },
                kind: Some(c.clause.map_or(c.reason.as_str(), |k| k.id()).to_owned()),
                body: c.detail.clone(),
            },
            Verdict::Skip => Outcome::Skipped {
                message: c.reason.clone(),
            },
        };
        Case {
            classname: "gomoku-mist.check",
            name: c.path.clone(),
            time: Some(c.seconds),
            properties: if decisions.is_empty() {
                Vec::new()
            } else {
                vec![("decisions".to_owned(), decisions)]
            },
            outcome,
        }
    });
    render(&Document {
        name: "gomoku-mist check".to_owned(),
        shape: Shape {
            totals: true,
            skipped: true,
            inline: false,
        },
        suites: vec![Suite {
            name: "gomoku-mist check".to_owned(),
            time: checked.cases.iter().map(|c| c.seconds).sum(),
            properties: Vec::new(),
            cases: cases.collect(),
            system_out: None,
        }],
    })
}

/// `fuzz`'s report: a case a group, and one a case not reproducible.
pub fn fuzz(f: &Fuzzed) -> String {
    let case = |name: String, outcome| Case {
        classname: "gomoku-mist.fuzz",
        name,
        time: None,
        properties: Vec::new(),
        outcome,
    };
    let mut cases = Vec::new();
    if let Some(why) = &f.cannot_start {
        let message = format!("cannot start the program: {why}");
        cases.push(case("start".to_owned(), Outcome::Error { message }));
    }
    for g in &f.findings {
        cases.push(case(
            format!("[{}: {}] {}", g.clause, g.kind.word(), g.cause),
            Outcome::Failure {
                message: g.cause.clone(),
                kind: Some(g.clause.id().to_owned()),
                body: format!(
                    "{} ({}, {}); {} failing cases, first case {}\n{}input:\n{}{}written as {}\n",
                    g.clause,
                    g.kind.word(),
                    g.failure.word(),
                    g.cases,
                    g.first_case,
                    g.hint
                        .as_ref()
                        .map_or(String::new(), |h| format!("likely cause: {h}\n")),
                    g.example,
                    g.detail,
                    g.file,
                ),
            },
        ));
    }
    for flaky in &f.not_reproducible {
        let message = format!(
            "not reproducible: disagreed once and agreed when run again: {}",
            flaky.example
        );
        cases.push(case(
            format!("case {}", flaky.case),
            Outcome::Skipped { message },
        ));
    }
    render(&Document {
        name: "gomoku-mist fuzz".to_owned(),
        shape: Shape {
            totals: true,
            skipped: true,
            inline: true,
        },
        suites: vec![Suite {
            name: "gomoku-mist fuzz".to_owned(),
            time: f.seconds,
            properties: vec![
                ("seed".to_owned(), f.seed.to_string()),
                ("cases".to_owned(), f.cases.to_string()),
            ],
            cases,
            system_out: None,
        }],
    })
}

/// A failed step of marking: why in its first line, all of it as the
/// body.
fn failure(why: String) -> Outcome {
    Outcome::Failure {
        message: why.lines().next().unwrap_or_default().to_owned(),
        kind: None,
        body: why,
    }
}

/// `mark`'s report: a suite a submission, a case a check.
pub fn mark(all: &[Marked]) -> String {
    let suites = all.iter().map(|m| {
        let passed_or = |why: Option<String>| why.map_or(Outcome::Pass, failure);
        let mut cases: Vec<(String, Outcome)> = vec![(
            "compiles".into(),
            passed_or(
                (!m.build.compiled).then(|| format!("{}\n{}", m.build.command, m.build.messages)),
            ),
        )];
        for rule in Restriction::ALL {
            let name = format!("restriction: {}", rule.title());
            cases.push(match m.kept(rule) {
                Kept::Yes => (name, Outcome::Pass),
                Kept::No(broken) => (name, failure(broken.join("\n"))),
                Kept::NotChecked => (
                    name,
                    Outcome::Skipped {
                        message: "not checked".to_owned(),
                    },
                ),
            });
        }
        for part in &m.marks.parts {
            let full = part.score >= part.max && m.marks.zeroed.is_none();
            let name = format!("{} {} of {}", part.id, m.marks.counted(part), part.max);
            cases.push((name, passed_or((!full).then(|| part.basis.clone()))));
        }
        Suite {
            name: m.name.clone(),
            time: m.took.as_secs_f64(),
            properties: vec![
                ("total".to_owned(), m.marks.total.to_string()),
                ("max".to_owned(), m.marks.max.to_string()),
                ("note".to_owned(), NOT_OFFICIAL.to_owned()),
                ("suite".to_owned(), m.suite.said()),
            ],
            cases: cases
                .into_iter()
                .map(|(name, outcome)| Case {
                    classname: "gomoku-mist.mark",
                    name,
                    time: None,
                    properties: Vec::new(),
                    outcome,
                })
                .collect(),
            system_out: Some(page::page(m)),
        }
    });
    render(&Document {
        name: "gomoku-mist mark".to_owned(),
        shape: Shape {
            totals: false,
            skipped: false,
            inline: false,
        },
        suites: suites.collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str, outcome: Outcome) -> Case {
        Case {
            classname: "gomoku-mist.fuzz",
            name: name.into(),
            time: None,
            properties: Vec::new(),
            outcome,
        }
    }

    #[test]
    fn counts_follow_the_cases_and_empty_elements_go_inline_when_asked() {
        let report = Document {
            name: "n".into(),
            shape: Shape {
                totals: true,
                skipped: true,
                inline: true,
            },
            suites: vec![Suite {
                name: "n".into(),
                time: 1.5,
                properties: Vec::new(),
                cases: vec![
                    case("a", Outcome::Pass),
                    case(
                        "b",
                        Outcome::Skipped {
                            message: "<x>".into(),
                        },
                    ),
                ],
                system_out: None,
            }],
        };
        let head = r#"name="n" tests="2" failures="0" skipped="1" errors="0" time="1.500""#;
        assert_eq!(
            render(&report),
            format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites {head}>\n  <testsuite {head}>\n    <testcase classname=\"gomoku-mist.fuzz\" name=\"a\"/>\n    <testcase classname=\"gomoku-mist.fuzz\" name=\"b\"><skipped message=\"&lt;x&gt;\"/></testcase>\n  </testsuite>\n</testsuites>\n"
            )
        );
    }
}
