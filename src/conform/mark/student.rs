//! The student's own tests (`tests/NAME.in` with `NAME.out`): each
//! expected output checked against the reference, a wrong one listed as
//! a wrong test, and the assignment's scenarios the right ones cover, as
//! `cover` finds them.

use std::path::Path;

use super::super::clause::Kind;
use super::super::cover::covered_by;
use super::super::model::{NotRead, Tests};
use super::super::scenario::Scenario;
use super::super::{ConformError, Invocation, case, reference, report};
use super::submission::Submission;

/// The scenarios the assignment's rules govern: the ones a student's tests
/// are judged by (the decisions of this contract are not the student's).
pub fn rule_scenarios() -> impl Iterator<Item = Scenario> {
    Scenario::ALL
        .into_iter()
        .filter(|s| s.clause().kind() == Kind::Rule)
}

/// The files a case may have beside its `.in`: one left out leaves the
/// case out.
const CASE_FILES: [&str; 5] = ["in", "out", "code", "args", "err"];

/// Reads and judges the tests in the submission's `tests/`, if it has
/// one: only its plain files are read ([`Submission`]). Each file that
/// could not be read or makes no sense (a `.code` that is no number) is
/// returned with why; its case is left out.
pub fn tests(sub: &Submission) -> (Tests, Vec<NotRead>) {
    let tests = Path::new("tests");
    let mut found = none();
    let mut unread = Vec::new();
    if !sub.is_folder(tests) {
        return (found, unread);
    }
    found.folder = Some(sub.folder().join(tests));
    let read_file = |path: &Path| -> Result<Option<Vec<u8>>, ConformError> {
        let relative = path.strip_prefix(sub.folder()).unwrap_or(path);
        if !sub.is_file(relative) {
            return Ok(None);
        }
        sub.read(relative)
            .map(Some)
            .map_err(|source| ConformError::Path {
                path: relative.to_path_buf(),
                source,
            })
    };
    let mut covered: Vec<Scenario> = Vec::new();
    let cases = sub
        .files()
        .filter(|p| p.starts_with(tests) && p.extension().is_some_and(|e| e == "in"));
    for relative in cases {
        // The file left out is named already; its case goes with it.
        if CASE_FILES
            .iter()
            .any(|e| sub.refused(&relative.with_extension(e)).is_some())
        {
            continue;
        }
        let shown = report::shown_path(relative);
        let test = match case::read_with(&sub.folder().join(relative), &read_file) {
            Ok(test) => test,
            Err(e) => {
                unread.push(not_read(e, sub.folder(), relative));
                continue;
            }
        };
        found.cases += 1;
        let Some(out) = &test.out else {
            found.no_out.push(shown);
            continue;
        };
        let expected = reference(Invocation::contract(), &test.input);
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
    found.covered.0 = rule_scenarios().filter(|s| covered.contains(s)).count();
    found.missing = missing(&covered);
    (found, unread)
}

/// No tests: every scenario missing.
pub fn none() -> Tests {
    Tests {
        covered: (0, rule_scenarios().count()),
        missing: missing(&[]),
        ..Tests::default()
    }
}

/// A file of the case `case` that could not be read or makes no sense,
/// with why.
fn not_read(e: ConformError, folder: &Path, case: &Path) -> NotRead {
    let (path, why) = match e {
        ConformError::Path { path, source } => {
            // An OS error by its kind, so that every machine words it alike.
            let why = match source.raw_os_error() {
                Some(_) => source.kind().to_string(),
                None => source.to_string(),
            };
            (path, format!("cannot be read ({why})"))
        }
        ConformError::BadCode(path) => (path, "is not an exit code".to_owned()),
        ConformError::BadArgs(path) => (path, "is not UTF-8".to_owned()),
        other => (case.to_path_buf(), other.to_string()),
    };
    NotRead {
        path: report::shown_path(path.strip_prefix(folder).unwrap_or(&path)),
        why,
    }
}

fn missing(covered: &[Scenario]) -> Vec<Scenario> {
    rule_scenarios().filter(|s| !covered.contains(s)).collect()
}
