//! What marking one submission found, part by part, and its marks: the
//! record every report of `mark` is written from. Each figure keeps what
//! it is based on, and each part that could not be checked says why.
//!
//! It serializes to the JSON `mark` has always written; where that JSON
//! shows a record otherwise than it is held (a pair as `passed` and
//! `run`, a path as text, a reason or a value), serde is told how at the
//! field, or, for the few records it cannot be told of, by an
//! implementation here that writes every field by name.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

use super::{Class, Clause, FuzzFinding, Scenario};

/// What every report of `mark` says first.
pub const NOT_OFFICIAL: &str =
    "Not the course's official mark: what this kit could check, and how.";

/// One submission, marked.
#[derive(Clone, Debug, Default)]
pub struct Marked {
    /// The submission's name: its folder's name.
    pub name: String,
    /// Its folder.
    pub folder: PathBuf,
    /// What of it was not read, with why, in path order; the folder
    /// itself alone when it was not read (then nothing of it was marked).
    pub not_read: Vec<NotRead>,
    /// The suite it was marked against.
    pub suite: SuiteUsed,
    /// The program and the options it was marked with.
    pub made_with: MadeWith,
    /// Whether and how it compiled.
    pub build: Build,
    /// Each restriction broken, in the order of [`Restriction::ALL`].
    pub broken: Vec<Violation>,
    /// Why the compiled program's imports could not be read, if they
    /// could not: then those restrictions were not checked.
    pub imports_unread: Option<String>,
    /// The hidden-style suite and the fuzzing; `None` if it did not compile.
    pub correctness: Option<Correctness>,
    /// Memory errors and peak memory; `None` if it did not compile.
    pub memory: Option<Memory>,
    /// The student's own tests.
    pub tests: Tests,
    /// How long marking it took.
    pub took: Duration,
    /// Its marks, from all of the above.
    pub marks: Marks,
}

impl Marked {
    /// Why its folder was not read, if it was not: then nothing of it was
    /// marked.
    pub fn folder_not_read(&self) -> Option<&str> {
        self.not_read
            .iter()
            .find(|n| n.path.is_empty())
            .map(|n| n.why.as_str())
    }
}

/// A file or folder of a submission that was not read, and why: a link, a
/// FIFO, one the marker cannot read
/// ([`crate::conform::mark::submission`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NotRead {
    /// Its path in the submission, as shown; empty for the submission's
    /// folder itself.
    pub path: String,
    /// Why, as a predicate: `links outside the submission`.
    #[serde(rename = "reason")]
    pub why: String,
}

/// The suite marked against, as every report states it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteUsed {
    /// Its name: `the built-in golden suite`, or its folder as given.
    pub name: String,
    /// Whether it is the one built into this program.
    pub built_in: bool,
    /// How many cases (`.in` files) it holds.
    pub cases: usize,
    /// A hash of its cases' files, the same for two suites with the same
    /// files under the same names ([`crate::conform::mark::suite::Ready`]).
    pub hash: u64,
}

impl SuiteUsed {
    /// The hash as the reports write it, named, so that another hash can
    /// replace it without being taken for this one.
    pub fn hash_text(&self) -> String {
        format!("fnv1a64:{:016x}", self.hash)
    }

    /// Which suite, in a line: the built-in one with the version of the
    /// program it is built into (the version fixes the suite).
    pub fn said(&self) -> String {
        let of = if self.built_in {
            concat!(" of gomoku-mist ", env!("CARGO_PKG_VERSION"))
        } else {
            ""
        };
        format!(
            "{}{of} ({} cases, {})",
            self.name,
            self.cases,
            self.hash_text()
        )
    }
}

/// What a report was made with: with the suite's hash, all it takes to
/// make the same marks again.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MadeWith {
    /// `gomoku-mist 0.1.0`: the version fixes every default.
    pub program: String,
    /// The options of `mark` as given, each shown as a shell would take
    /// it back; the defaults are the program's.
    pub options: Vec<String>,
}

impl MadeWith {
    /// The program and its options, in a line.
    pub fn said(&self) -> String {
        if self.options.is_empty() {
            format!("{}, the default options", self.program)
        } else {
            format!("{}, mark {}", self.program, self.options.join(" "))
        }
    }
}

/// The most a submission's marking can take, in parts
/// ([`crate::conform::mark::budget`]), for the line printed before a
/// class is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Building it (and once more with VLAs allowed, at worst).
    pub compile: Duration,
    /// The suite's cases, each run up to the timeout.
    pub cases: usize,
    /// The timeout of a run.
    pub timeout: Duration,
    /// The fuzzing's time (`--fuzz-time`); zero when it is given a
    /// number of sessions instead.
    pub fuzz: Duration,
    /// The fuzzing's sessions (`--fuzz-cases`): as long as they take,
    /// each run up to the timeout, and each failing one probed further.
    pub fuzz_sessions: Option<u64>,
    /// The runs under the memory checker.
    pub memory_cases: usize,
    /// Each one's limit.
    pub memory_run: Duration,
}

impl Budget {
    /// The whole of it.
    pub fn total(&self) -> Duration {
        let times = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let suite = self.timeout.saturating_mul(times(self.cases));
        let memory = self.memory_run.saturating_mul(times(self.memory_cases));
        self.compile.saturating_mul(2) + suite + self.fuzz + memory
    }
}

/// How the compiler did.
#[derive(Clone, Debug, Default)]
pub struct Build {
    /// The command, as a shell would show it.
    pub command: String,
    /// Whether a program came out of it.
    pub compiled: bool,
    /// Whether it came out only once variable-length arrays were allowed
    /// (`-Wno-error=vla`): the course's command refuses it.
    pub relaxed: bool,
    /// The compiler's messages, trimmed to their first lines.
    pub messages: String,
    /// The program built, when it compiled.
    pub program: Option<PathBuf>,
}

/// A restriction of the assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Restriction {
    /// Source files beyond the scaffold's.
    ExtraFiles,
    /// Variable-length arrays.
    Vla,
    /// Dynamic memory (`malloc` and its kin).
    DynamicMemory,
    /// Files.
    Files,
    /// Mapped memory.
    MappedMemory,
}

impl Restriction {
    /// Every restriction, in report order.
    pub const ALL: [Restriction; 5] = [
        Restriction::ExtraFiles,
        Restriction::Vla,
        Restriction::DynamicMemory,
        Restriction::Files,
        Restriction::MappedMemory,
    ];

    /// Its name in reports and CSV headers.
    pub const fn id(self) -> &'static str {
        match self {
            Restriction::ExtraFiles => "extra_files",
            Restriction::Vla => "vla",
            Restriction::DynamicMemory => "dynamic_memory",
            Restriction::Files => "files",
            Restriction::MappedMemory => "mapped_memory",
        }
    }

    /// What it forbids, in words.
    pub const fn title(self) -> &'static str {
        match self {
            Restriction::ExtraFiles => "no source files beyond the scaffold's",
            Restriction::Vla => "no variable-length arrays",
            Restriction::DynamicMemory => "no dynamic memory",
            Restriction::Files => "no use of files",
            Restriction::MappedMemory => "no mapped memory",
        }
    }
}

/// One restriction broken, and where: a file, a line, a symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Which restriction.
    pub rule: Restriction,
    /// What shows it.
    pub what: String,
}

/// Cases passed, of cases run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Passed.
    pub passed: usize,
    /// Run.
    pub run: usize,
}

impl Tally {
    /// Counts one case run.
    pub fn add(&mut self, passed: bool) {
        self.passed += usize::from(passed);
        self.run += 1;
    }
}

/// The hidden-style suite and the fuzzing.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Correctness {
    /// Where the cases came from, as shown.
    pub suite: String,
    /// Cases whose expected output only the assignment's rules decide.
    pub rules: Tally,
    /// Cases that depend on a decision of this contract.
    pub decisions: Tally,
    /// The same cases by topic, the folder of the suite each is in
    /// (`win`, `coord`, ...), in the order of the folders' names: each
    /// topic weighs the same in the score.
    pub topics: Vec<Topic>,
    /// Cases not run, as `check` skipped them.
    pub skipped: usize,
    /// Cases that end the input mid-game, not run because the program
    /// did not stop at end of input (each would have cost the timeout).
    pub not_run_at_end_of_input: usize,
    /// What the runs were contained by, a line each.
    pub contained: Vec<String>,
    /// The failures, in path order.
    pub failures: Vec<Failure>,
    /// The cases passed that the assignment's rules decide, as shown, in
    /// path order (for Gradescope's test a case).
    #[serde(skip)]
    pub passed_by_rules: Vec<String>,
    /// The fuzzing, if it ran.
    pub fuzz: Option<FuzzRun>,
    /// The cases that did not end in time (the memory check skips them).
    #[serde(skip)]
    pub hung: Vec<PathBuf>,
    /// The cases that ended in time, for the memory check.
    #[serde(skip)]
    pub ended: Vec<PathBuf>,
    /// Of those, the ones that failed, crashes first: where memory errors
    /// are likeliest, so the memory check runs them first.
    #[serde(skip)]
    pub ended_failing: Vec<PathBuf>,
}

impl Correctness {
    /// Whether fuzzing's `finding` is a scored group again: the same
    /// clause, and the same likely cause (or none for both) as the first
    /// scored case under it, which the page shows. One mistake, found
    /// twice, is one group on the page; the JSON keeps both.
    pub fn scored_again(&self, finding: &FuzzFinding) -> bool {
        self.failures
            .iter()
            .find(|f| {
                !f.depends_on_decisions
                    && f.group() == (Some(finding.clause), way(Some(finding.failure)))
            })
            .is_some_and(|f| f.hint == finding.hint)
    }
}

/// The cases of one topic of the suite, tallied as [`Correctness`]
/// tallies them all.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Topic {
    /// The folder of the suite, `.` for its top.
    pub topic: String,
    /// Its cases whose expected output only the assignment's rules decide.
    pub rules: Tally,
    /// Its cases that depend on a decision of this contract.
    pub decisions: Tally,
}

/// One failing case.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Failure {
    /// The `.in` file, as shown.
    pub case: String,
    /// A word on how it failed: `stdout`, `timed out`, `crashed`, ...
    pub reason: String,
    /// The clause of the contract it breaks, if one was found.
    pub clause: Option<Clause>,
    /// Whether it depends on a decision of this contract.
    pub depends_on_decisions: bool,
    /// Where it differs.
    pub detail: String,
    /// A likely cause in the student's terms, as `check` gives it; `None`
    /// where there is no guess.
    pub hint: Option<String>,
    /// How it failed, where a clause was found (a reply missed or wrong,
    /// or one where none is due: a false win is not a missed one).
    pub failure: Option<Class>,
}

impl Failure {
    /// What the page groups it by: its clause, and whether it printed a
    /// reply where none is due (a false win and a missed one are two
    /// mistakes under one clause); hangs, crashes and wrong replies are
    /// grouped together, as one mistake often shows all three.
    pub fn group(&self) -> (Option<Clause>, Class) {
        (self.clause, way(self.failure))
    }
}

/// How a failure is told from another under its clause: a reply where
/// none is due, or any other.
fn way(failure: Option<Class>) -> Class {
    match failure {
        Some(Class::Extra) => Class::Extra,
        _ => Class::Output,
    }
}

/// The fuzzing of a submission.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FuzzRun {
    /// The time it was given (`--fuzz-time`); zero when it was given a
    /// number of sessions instead.
    #[serde(rename = "seconds", serialize_with = "seconds")]
    pub time: Duration,
    /// The number of sessions it was given (`--fuzz-cases`), if it was:
    /// then the same on any machine, however loaded.
    pub cases: Option<u64>,
    /// The seed.
    pub seed: u64,
    /// How many sessions ran.
    pub sessions: u64,
    /// Whether only sessions that end with `term` or the game's end were
    /// made (for a program that does not stop at end of input).
    pub assignment_only: bool,
    /// The verdict, as `fuzz` says it: the count of failures and groups,
    /// or why nothing was checked.
    pub verdict: String,
    /// Each group's heading, as `fuzz` numbers them.
    pub groups: Vec<String>,
    /// Each group in full, with its example.
    pub findings: Vec<FuzzFinding>,
}

/// The memory tool that looked at the runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// valgrind's memcheck.
    Valgrind,
    /// A build with AddressSanitizer.
    Asan,
}

impl Tool {
    /// Its name in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Tool::Valgrind => "valgrind memcheck",
            Tool::Asan => "AddressSanitizer",
        }
    }
}

/// Memory errors and the peak.
#[derive(Clone, Debug)]
pub struct Memory {
    /// The tool, or `None` with why none could be used.
    pub tool: Result<Tool, String>,
    /// How many cases it checked (runs under it that ended by
    /// themselves), of how many that ended by themselves in the suite.
    pub cases: (usize, usize),
    /// How many runs under it were killed at a limit (time, output, CPU,
    /// processes): they check nothing, and are never memory errors.
    pub killed: usize,
    /// Each error: the case that shows it and the tool's first lines.
    pub errors: Vec<(String, String)>,
    /// The largest resident memory of the runs, in KiB, and the case;
    /// or why it was not measured.
    pub peak: Result<(u64, String), String>,
    /// The most resident memory allowed, in KiB, if the marker set one.
    pub limit_kib: Option<u64>,
}

impl Memory {
    /// Whether the peak was measured and went over the limit.
    pub fn over_limit(&self) -> bool {
        matches!((&self.peak, self.limit_kib), (Ok((kib, _)), Some(limit)) if *kib > limit)
    }

    /// What the memory part says, the same in every format: `Ok` only
    /// when some run was checked.
    pub fn verdict(&self) -> MemoryVerdict {
        if self.tool.is_err() || self.cases.0 == 0 {
            MemoryVerdict::NotChecked
        } else if !self.errors.is_empty() {
            MemoryVerdict::Errors
        } else if self.over_limit() {
            MemoryVerdict::OverLimit
        } else {
            MemoryVerdict::Ok
        }
    }
}

/// What the memory part says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryVerdict {
    /// No checker could run, or no run under it ended by itself.
    NotChecked,
    /// The checker found errors.
    Errors,
    /// No error, but the peak is over the limit.
    OverLimit,
    /// Runs were checked: no error, the peak within the limit.
    Ok,
}

impl MemoryVerdict {
    /// Its word in the class's table and the CSV.
    pub const fn word(self) -> &'static str {
        match self {
            MemoryVerdict::NotChecked => "not checked",
            MemoryVerdict::Errors => "errors",
            MemoryVerdict::OverLimit => "over limit",
            MemoryVerdict::Ok => "ok",
        }
    }
}

/// The student's own tests.
#[derive(Clone, Debug, Default)]
pub struct Tests {
    /// The folder, or `None` if the submission has none.
    pub folder: Option<PathBuf>,
    /// How many cases (`.in` files) it holds.
    pub cases: usize,
    /// The wrong ones: a case, and where its expected output differs from
    /// the reference's.
    pub wrong: Vec<(String, String)>,
    /// Cases without a `.out`: nothing they expect could be checked.
    pub no_out: Vec<String>,
    /// The assignment's scenarios their right cases cover, of how many.
    pub covered: (usize, usize),
    /// The assignment's scenarios no right case covers.
    pub missing: Vec<Scenario>,
}

/// One part's mark.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Part {
    /// `correctness`, `tests` or `memory`.
    #[serde(rename = "part")]
    pub id: &'static str,
    /// What it scored, before any zeroing for a restriction.
    pub score: f64,
    /// Its weight.
    pub max: f64,
    /// What the score is based on, in a sentence.
    pub basis: String,
}

/// The marks of a submission.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Marks {
    /// The total.
    pub total: f64,
    /// The most it could be.
    pub max: f64,
    /// Why the total is zero whatever the parts scored, if it is.
    pub zeroed: Option<String>,
    /// The parts counted (weight above 0, and checked), in report order.
    pub parts: Vec<Part>,
}

impl Marks {
    /// What `part` scored as counted: nothing once the total is zeroed.
    pub fn counted(&self, part: &Part) -> f64 {
        if self.zeroed.is_some() {
            0.0
        } else {
            part.score
        }
    }

    /// The score of the part called `id`, if it is reported.
    pub fn score_of(&self, id: &str) -> Option<f64> {
        self.parts.iter().find(|p| p.id == id).map(|p| p.score)
    }
}

/// A duration as seconds.
fn seconds<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// A path as text (one that is not UTF-8 with its odd bytes replaced,
/// where serde would refuse it).
fn shown(path: &Path) -> String {
    path.display().to_string()
}

impl Serialize for Tool {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl Serialize for SuiteUsed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut r = s.serialize_struct("SuiteUsed", 6)?;
        r.serialize_field("name", &self.name)?;
        r.serialize_field("built_in", &self.built_in)?;
        let version = self.built_in.then_some(env!("CARGO_PKG_VERSION"));
        r.serialize_field("version", &version)?;
        r.serialize_field("cases", &self.cases)?;
        r.serialize_field("hash", &self.hash_text())?;
        r.serialize_field("said", &self.said())?;
        r.end()
    }
}

/// The restrictions as the JSON lists them: each, with what breaks it.
#[derive(Serialize)]
struct RestrictionShown<'a> {
    id: &'static str,
    title: &'static str,
    broken: Vec<&'a str>,
}

impl Serialize for Marked {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let folder = shown(&self.folder);
        let not_read: Vec<NotRead> = self
            .not_read
            .iter()
            .map(|n| NotRead {
                path: if n.path.is_empty() {
                    folder.clone()
                } else {
                    n.path.clone()
                },
                why: n.why.clone(),
            })
            .collect();
        let restrictions: Vec<RestrictionShown> = Restriction::ALL
            .iter()
            .map(|&rule| RestrictionShown {
                id: rule.id(),
                title: rule.title(),
                broken: self.broken_of(rule).collect(),
            })
            .collect();
        let mut r = s.serialize_struct("Marked", 18)?;
        r.serialize_field("name", &self.name)?;
        r.serialize_field("folder", &folder)?;
        r.serialize_field("note", NOT_OFFICIAL)?;
        r.serialize_field("not_read", &not_read)?;
        r.serialize_field("folder_read", &self.folder_not_read().is_none())?;
        r.serialize_field("suite", &self.suite)?;
        r.serialize_field("made_with", &self.made_with)?;
        r.serialize_field("compiles", &self.build.compiled)?;
        r.serialize_field("compiles_only_with_vla_allowed", &self.build.relaxed)?;
        r.serialize_field("compile_command", &self.build.command)?;
        r.serialize_field("compiler_messages", &self.build.messages)?;
        r.serialize_field("restrictions", &restrictions)?;
        r.serialize_field("imports_unread", &self.imports_unread)?;
        r.serialize_field("correctness", &self.correctness)?;
        r.serialize_field("memory", &self.memory)?;
        r.serialize_field("tests", &self.tests)?;
        r.serialize_field("marks", &self.marks)?;
        r.serialize_field("seconds", &self.took.as_secs_f64())?;
        r.end()
    }
}

/// What is known of one restriction, the same in every format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kept<'a> {
    /// Checked, and not broken.
    Yes,
    /// Broken: what shows each breach.
    No(Vec<&'a str>),
    /// Not checked: what it is read from was not there (a folder not
    /// read, a program that did not compile, imports that could not be
    /// read).
    NotChecked,
}

impl Marked {
    /// Whether `rule` was kept, broken, or could not be checked.
    pub fn kept(&self, rule: Restriction) -> Kept<'_> {
        let broken: Vec<&str> = self.broken_of(rule).collect();
        let unchecked = match rule {
            Restriction::ExtraFiles => self.folder_not_read().is_some(),
            Restriction::Vla => !self.build.compiled,
            _ => !self.build.compiled || self.imports_unread.is_some(),
        };
        if !broken.is_empty() {
            Kept::No(broken)
        } else if unchecked {
            Kept::NotChecked
        } else {
            Kept::Yes
        }
    }

    /// What shows each breach of `rule`, in order.
    pub fn broken_of(&self, rule: Restriction) -> impl Iterator<Item = &str> {
        self.broken
            .iter()
            .filter(move |v| v.rule == rule)
            .map(|v| v.what.as_str())
    }
}

/// A memory error as the JSON lists it.
#[derive(Serialize)]
struct ErrorShown<'a> {
    case: &'a str,
    report: &'a str,
}

impl Serialize for Memory {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let errors: Vec<ErrorShown> = self
            .errors
            .iter()
            .map(|(case, report)| ErrorShown { case, report })
            .collect();
        let peak = self.peak.as_ref();
        let mut r = s.serialize_struct("Memory", 12)?;
        r.serialize_field("tool", &self.tool.as_ref().ok())?;
        r.serialize_field("not_checked", &self.tool.as_ref().err())?;
        r.serialize_field("cases", &self.cases.0)?;
        r.serialize_field("cases_ended", &self.cases.1)?;
        r.serialize_field("killed_at_limit", &self.killed)?;
        r.serialize_field("verdict", self.verdict().word())?;
        r.serialize_field("errors", &errors)?;
        r.serialize_field("peak_kib", &peak.ok().map(|p| p.0))?;
        r.serialize_field("peak_case", &peak.ok().map(|p| &p.1))?;
        r.serialize_field("peak_not_measured", &peak.err())?;
        r.serialize_field("peak_limit_kib", &self.limit_kib)?;
        r.serialize_field("over_limit", &self.over_limit())?;
        r.end()
    }
}

/// A wrong test as the JSON lists it.
#[derive(Serialize)]
struct WrongShown<'a> {
    case: &'a str,
    detail: &'a str,
}

impl Serialize for Tests {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let wrong: Vec<WrongShown> = self
            .wrong
            .iter()
            .map(|(case, detail)| WrongShown { case, detail })
            .collect();
        let mut r = s.serialize_struct("Tests", 7)?;
        r.serialize_field("folder", &self.folder.as_deref().map(shown))?;
        r.serialize_field("cases", &self.cases)?;
        r.serialize_field("wrong", &wrong)?;
        r.serialize_field("without_out", &self.no_out)?;
        r.serialize_field("covered", &self.covered.0)?;
        r.serialize_field("scenarios", &self.covered.1)?;
        r.serialize_field("not_covered", &self.missing)?;
        r.end()
    }
}

/// A class marked: what `mark --format json` writes.
#[derive(Serialize)]
pub struct MarkedClass<'a> {
    /// What every report says first.
    pub note: &'static str,
    /// The suite, as the first submission was marked against it.
    pub suite: Option<&'a SuiteUsed>,
    /// Every submission, in the order given.
    pub submissions: &'a [Marked],
}

impl MarkedClass<'_> {
    /// The class of `all`.
    pub fn of(all: &[Marked]) -> MarkedClass<'_> {
        MarkedClass {
            note: NOT_OFFICIAL,
            suite: all.first().map(|m| &m.suite),
            submissions: all,
        }
    }
}
