//! What the kit finds, as types: the one record each command fills and
//! every report is written from ([`super::report`]). `check` fills a
//! [`Checked`], `fuzz` a [`Fuzzed`], `cover` a [`Covered`], `mark` a
//! [`Marked`] a submission; `mark` reads `check` and `fuzz` through these
//! types, never through a report they wrote.
//!
//! Each type serializes (serde) to the JSON its command has always
//! written: field names are the reports' own, and a field is added, never
//! renamed. What only a person's report shows (the bytes of a shrunk
//! input, say) is kept beside them, skipped by serde.

pub mod marked;

use std::path::PathBuf;

use serde::Serialize;

pub use marked::*;

use super::clause::{Clause, Kind};
use super::scenario::Scenario;

/// How one case of `check` came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Its output and exit code are the expected ones.
    Pass,
    /// They are not.
    Fail,
    /// It was not run: `reason` says why.
    Skip,
}

/// One case of `check`.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    /// Its `.in` file, as reports show a path.
    pub path: String,
    /// How it came out.
    pub verdict: Verdict,
    /// For a failure, how it failed in a word or two (`stdout`, `timed
    /// out`, ...); for a skip, why; empty for a pass.
    pub reason: String,
    /// The clause of the contract a failure breaks, if one was found.
    pub clause: Option<Clause>,
    /// Whether that clause is a rule or a decision.
    pub kind: Option<Kind>,
    /// The input line to blame (from 1), as `fuzz` would blame it, if
    /// one is.
    pub line: Option<usize>,
    /// What went wrong, in a sentence, as `fuzz` would say it; `None`
    /// for a pass, a skip, or a failure no clause was found for.
    pub cause: Option<String>,
    /// A likely cause in the student's terms, checked by experiment
    /// (see [`hint`](super::hint)); `None` where there is no guess.
    pub hint: Option<String>,
    /// How it failed, where a clause was found: as `fuzz` names it.
    pub failure: Option<Class>,
    /// Where a failure differs, lines indented by two; else empty.
    pub detail: String,
    /// The decisions of the contract its expected output depends on.
    pub decisions: Vec<Clause>,
    /// How long it took.
    #[serde(serialize_with = "millis")]
    pub seconds: f64,
    /// Whether the program was still running at the timeout.
    pub timed_out: bool,
    /// Whether it was killed at any limit (the timeout, the output cap,
    /// memory, CPU time, processes): a run that did not end by itself.
    pub killed_at_limit: bool,
    /// Its `.in` file.
    #[serde(skip)]
    pub file: PathBuf,
}

impl CaseResult {
    /// Whether its failure is blamed on a decision of the contract, not a
    /// rule of the assignment: "decided differently", not "wrong".
    pub fn on_decision(&self) -> bool {
        self.kind == Some(Kind::Decision)
    }
}

/// What `check` found: every case, in path order.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Checked {
    /// Cases passed.
    pub passed: usize,
    /// Cases failed.
    pub failed: usize,
    /// Cases not run.
    pub skipped: usize,
    /// Every case found, in path order.
    pub cases: Vec<CaseResult>,
}

impl Checked {
    /// Counts `case` and keeps it.
    pub fn push(&mut self, case: CaseResult) {
        match case.verdict {
            Verdict::Pass => self.passed += 1,
            Verdict::Fail => self.failed += 1,
            Verdict::Skip => self.skipped += 1,
        }
        self.cases.push(case);
    }

    /// Whether every case run passed, and at least one ran.
    pub fn passed_all(&self) -> bool {
        self.failed == 0 && self.passed > 0
    }
}

/// One scenario of the assignment, and the first case that covers it.
#[derive(Clone, Debug, Serialize)]
pub struct ScenarioCovered {
    /// The scenario, as its id.
    pub id: Scenario,
    /// The clause it exercises.
    pub clause: Clause,
    /// Whether that clause is a rule or a decision.
    pub kind: Kind,
    /// What happens, in a few words.
    pub what: &'static str,
    /// The first case that covers it, as shown, if any does.
    pub covered_by: Option<String>,
    /// An input that covers it, escaped.
    pub example: String,
}

/// What `cover` found.
#[derive(Clone, Debug, Serialize)]
pub struct Covered {
    /// Cases read.
    pub cases: usize,
    /// Scenarios covered.
    pub covered: usize,
    /// Scenarios in all.
    pub total: usize,
    /// Every scenario, in the table's order.
    pub scenarios: Vec<ScenarioCovered>,
}

/// How a run failed, for grouping: one cause fails one way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// It was still running at the time limit.
    Hang,
    /// A signal ended it.
    Crash,
    /// It exited, with the wrong output or exit code.
    Output,
    /// It exited, having printed a reply where none is due (a win after
    /// a stone that makes no line): told from a reply missed or wrong, as
    /// a false win is from a missed one.
    Extra,
}

impl Class {
    /// As JSON and JUnit name it.
    pub const fn word(self) -> &'static str {
        match self {
            Class::Hang => "hang",
            Class::Crash => "crash",
            Class::Output => "output",
            Class::Extra => "extra",
        }
    }
}

/// How far a group's case was shrunk.
#[derive(Clone, Debug, Serialize)]
pub struct Shrunk {
    /// Lines and bytes of the case as found.
    pub from_lines: usize,
    /// Its bytes.
    pub from_bytes: usize,
    /// Lines of the case shown.
    pub lines: usize,
    /// Its bytes.
    pub bytes: usize,
    /// Runs spent shrinking.
    pub runs: usize,
    /// Time spent shrinking.
    #[serde(serialize_with = "tenths")]
    pub seconds: f64,
}

/// One group of fuzzing's disagreements: one cause, with its example.
#[derive(Clone, Debug, Serialize)]
pub struct FuzzFinding {
    /// The clause broken.
    pub clause: Clause,
    /// Rule or decision.
    pub kind: Kind,
    /// The clause's title.
    pub title: &'static str,
    /// How the program failed.
    pub failure: Class,
    /// What went wrong, in a sentence.
    pub cause: String,
    /// A likely cause in the student's terms, checked by experiment
    /// (see [`hint`](super::hint)); `None` where there is no guess.
    pub hint: Option<String>,
    /// The clauses of other groups folded into this one because one
    /// likely cause explains them all (see [`hint`](super::hint)).
    pub also: Vec<Clause>,
    /// How many cases fell in the group.
    pub cases: u64,
    /// Its case of lowest number.
    pub first_case: u64,
    /// The example, escaped, each `\n` kept a newline.
    pub example: String,
    /// How the example differs, lines indented by two.
    pub detail: String,
    /// The case file it was written as, as shown.
    pub file: String,
    /// Whether shrinking was cut short by the time or the runs allowed.
    pub shrink_cut_short: bool,
    /// How the example's run differs, in a word or two.
    pub differs: &'static str,
    /// What every case of the group shares (for a missed win: the
    /// 361st stone, an overline, ...), as scenarios in words.
    pub shared: Vec<&'static str>,
    /// How it was shrunk.
    pub shrunk: Shrunk,
    /// The example's bytes.
    #[serde(skip)]
    pub input: Vec<u8>,
}

/// A case that disagreed once and agreed when run again.
#[derive(Clone, Debug, Serialize)]
pub struct Flaky {
    /// Its number.
    pub case: u64,
    /// Its input, escaped as [`FuzzFinding::example`].
    pub example: String,
}

/// What `fuzz` found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Fuzzed {
    /// The program, as one shell line.
    pub program: String,
    /// The seed.
    pub seed: u64,
    /// Sessions run.
    pub cases: u64,
    /// The whole run's time.
    #[serde(serialize_with = "tenths")]
    pub seconds: f64,
    /// Why the program could not be started, if it could not.
    pub cannot_start: Option<String>,
    /// Failing sessions, over all groups.
    pub failures: u64,
    /// Groups.
    pub groups: usize,
    /// Groups under a rule of the assignment.
    pub rules: usize,
    /// Groups under a decision of this contract.
    pub decisions: usize,
    /// Each group, rules first.
    pub findings: Vec<FuzzFinding>,
    /// Cases that disagreed once only, in number order.
    pub not_reproducible: Vec<Flaky>,
    /// Where the findings' cases were written, as shown.
    pub out: String,
}

impl Fuzzed {
    /// Whether nothing disagreed, and something ran.
    pub fn passed(&self) -> bool {
        self.cannot_start.is_none() && self.cases > 0 && self.findings.is_empty()
    }
}

/// Seconds to the millisecond, as reports have always shown them.
fn millis<S: serde::Serializer>(seconds: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((seconds * 1000.0).round() / 1000.0)
}

/// Seconds to the tenth.
fn tenths<S: serde::Serializer>(seconds: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((seconds * 10.0).round() / 10.0)
}
