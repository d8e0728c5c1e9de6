//! Gradescope's `results.json` for one submission (its autograder
//! specification: `score`, `output`, and `tests`, each with `name`,
//! `score`, `max_score`, `output` and `visibility`): a test for
//! compiling, one a restriction, one a part; the page of text as the
//! output. The same command, writing this to
//! `/autograder/results/results.json`, is a Gradescope autograder.

use serde::Serialize;

use super::{json, page};
use crate::conform::model::{Kept, Marked, MemoryVerdict, Restriction};

/// Who sees the results and each test, as Gradescope names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// At once.
    #[default]
    Visible,
    /// Never (the course's staff only).
    Hidden,
    /// Once the due date has passed.
    AfterDueDate,
    /// Once the marks are published.
    AfterPublished,
}

impl Visibility {
    /// Each, with its name on the command line (Gradescope's own).
    pub const ALL: [(&'static str, Visibility); 4] = [
        ("visible", Visibility::Visible),
        ("hidden", Visibility::Hidden),
        ("after_due_date", Visibility::AfterDueDate),
        ("after_published", Visibility::AfterPublished),
    ];
}

/// What the course sets of how Gradescope shows the results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Who sees the results and the tests.
    pub visibility: Visibility,
    /// A test (worth no points: they are the correctness part's) for
    /// each case of the suite the assignment's rules decide.
    pub per_case: bool,
}

/// The whole file.
#[derive(Serialize)]
struct Results {
    score: f64,
    output: String,
    output_format: &'static str,
    visibility: Visibility,
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
    output_format: &'static str,
    visibility: Visibility,
}

/// `text` as a Markdown code block, its fence longer than any run of
/// backticks in it: Gradescope shows it as it is, never as markup.
fn fenced(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}text\n{}\n{fence}", text.trim_end_matches('\n'))
}

/// A test worth no points that passes or fails (or neither, `None`).
fn check(name: String, passed: Option<bool>, output: &str, v: Visibility) -> Test {
    Test {
        name,
        score: 0.0,
        max_score: 0.0,
        status: passed.map(|p| if p { "passed" } else { "failed" }),
        output: fenced(output),
        output_format: "md",
        visibility: v,
    }
}

/// `results.json` for `m`.
pub fn results(m: &Marked, opts: &Options) -> String {
    let v = opts.visibility;
    let build = format!("{}\n{}", m.build.command, m.build.messages);
    let mut tests = vec![check(
        "compiles".to_owned(),
        Some(m.build.compiled),
        &if m.build.compiled {
            build
        } else {
            format!("{build}\nWithout a program that compiles there is no mark.")
        },
        v,
    )];
    for rule in Restriction::ALL {
        let (passed, output) = match m.kept(rule) {
            Kept::Yes => (Some(true), "not broken".to_owned()),
            Kept::No(broken) => (
                Some(false),
                format!("BROKEN, the mark is zero:\n{}", broken.join("\n")),
            ),
            Kept::NotChecked => (None, "not checked".to_owned()),
        };
        let name = format!("restriction: {}", rule.title());
        tests.push(check(name, passed, &output, v));
    }
    for part in &m.marks.parts {
        tests.push(Test {
            name: part.id.to_owned(),
            score: m.marks.counted(part),
            max_score: part.max,
            status: None,
            output: fenced(&part.basis),
            output_format: "md",
            visibility: v,
        });
    }
    // Memory not counted is still a test of its own, its verdict its
    // status ("not checked" neither passes nor fails).
    if m.marks.score_of("memory").is_none() {
        let verdict = m.memory.as_ref().map(|mem| mem.verdict());
        let passed = match verdict {
            Some(MemoryVerdict::Ok) => Some(true),
            Some(MemoryVerdict::Errors | MemoryVerdict::OverLimit) => Some(false),
            Some(MemoryVerdict::NotChecked) | None => None,
        };
        let text = page::sections(m)
            .into_iter()
            .find(|(heading, _)| *heading == "Memory")
            .map(|(_, text)| text)
            .unwrap_or_default();
        tests.push(check("memory (not counted)".to_owned(), passed, &text, v));
    }
    if opts.per_case {
        per_case(m, v, &mut tests);
    }
    json::pretty(&Results {
        score: m.marks.total,
        output: fenced(&page::page(m)),
        output_format: "md",
        visibility: v,
        stdout_visibility: "hidden",
        tests,
        execution_time: m.took.as_secs(),
    })
}

/// A test for each case the assignment's rules decide: passed, or
/// failed with its clause and where it differs.
fn per_case(m: &Marked, v: Visibility, tests: &mut Vec<Test>) {
    let Some(c) = &m.correctness else { return };
    let passed = c
        .passed_by_rules
        .iter()
        .map(|case| check(format!("case: {case}"), Some(true), "passed", v));
    let failed = c
        .failures
        .iter()
        .filter(|f| !f.depends_on_decisions)
        .map(|f| {
            let clause = f.clause.map_or(String::new(), |c| format!(" [{}]", c.id()));
            let output = format!("{}{clause}\n{}", f.reason, f.detail);
            check(format!("case: {}", f.case), Some(false), &output, v)
        });
    // In the suite's order, passed or not.
    let mut cases: Vec<Test> = passed.chain(failed).collect();
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    tests.extend(cases);
}
