//! The student's own tests (`tests/NAME.in` with `NAME.out`): each
//! expected output checked against the reference, a wrong one listed as
//! a wrong test, and the assignment's scenarios the right ones cover, as
//! `cover` finds them.

use std::path::Path;

use super::super::clause::{self, Kind};
use super::super::cover::{SCENARIOS, covered_by};
use super::super::{Setup, case, reference, report};
use super::marked::Tests;

/// The scenarios the assignment's rules govern: the ones a student's tests
/// are judged by (the decisions of this contract are not the student's).
pub fn rule_scenarios() -> impl Iterator<Item = &'static super::super::cover::Scenario> {
    SCENARIOS
        .iter()
        .filter(|s| clause::find(s.clause).is_none_or(|c| c.kind == Kind::Rule))
}

/// Reads and judges the tests in `folder/tests`, if there is one.
pub fn tests(folder: &Path) -> Tests {
    let dir = folder.join("tests");
    let total = rule_scenarios().count();
    let mut found = Tests {
        covered: (0, total),
        ..Tests::default()
    };
    if !dir.is_dir() {
        found.missing = missing(&[]);
        return found;
    }
    found.folder = Some(dir.clone());
    let paths = case::find(std::slice::from_ref(&dir)).unwrap_or_default();
    let mut covered: Vec<&'static str> = Vec::new();
    for path in &paths {
        let shown = path
            .strip_prefix(folder)
            .map_or_else(|_| report::shown_path(path), report::shown_path);
        if case::unreadable(path).is_some() {
            continue;
        }
        let Ok(test) = case::read(path) else { continue };
        found.cases += 1;
        let Some(out) = &test.out else {
            found.no_out.push(shown);
            continue;
        };
        let expected = reference(Setup::contract(), &test.input);
        let mut wrong = report::first_difference(&expected.stdout, out).unwrap_or_default();
        if let Some(code) = test.code.filter(|c| *c != expected.code) {
            wrong.push_str(&format!(
                "  exit code {code} in .code, the reference exits {}\n",
                expected.code
            ));
        }
        if wrong.is_empty() {
            covered.extend(covered_by(&test.input));
        } else {
            // Shown as the reference's output against the test's.
            found
                .wrong
                .push((shown, wrong.replace("    got      |", "    test's   |")));
        }
    }
    covered.sort_unstable();
    covered.dedup();
    found.covered.0 = rule_scenarios().filter(|s| covered.contains(&s.id)).count();
    found.missing = missing(&covered);
    found
}

fn missing(covered: &[&str]) -> Vec<(&'static str, &'static str, String)> {
    rule_scenarios()
        .filter(|s| !covered.contains(&s.id))
        .map(|s| (s.id, s.what, report::escape(s.example)))
        .collect()
}
