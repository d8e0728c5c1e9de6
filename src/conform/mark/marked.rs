//! What marking one submission found, part by part: the record every
//! report format is written from. Each figure keeps what it is based on,
//! and each part that could not be checked says why.

use std::path::PathBuf;
use std::time::Duration;

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
    /// Whether and how it compiled.
    pub build: Build,
    /// Each restriction broken, in the order of [`Rule::ALL`].
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
/// ([`super::submission`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotRead {
    /// Its path in the submission, as shown; empty for the submission's
    /// folder itself.
    pub path: String,
    /// Why, as a predicate: `links outside the submission`.
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
    /// files under the same names ([`super::suite::Ready`]).
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
pub enum Rule {
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

impl Rule {
    /// Every restriction, in report order.
    pub const ALL: [Rule; 5] = [
        Rule::ExtraFiles,
        Rule::Vla,
        Rule::DynamicMemory,
        Rule::Files,
        Rule::MappedMemory,
    ];

    /// Its name in reports and CSV headers.
    pub const fn id(self) -> &'static str {
        match self {
            Rule::ExtraFiles => "extra_files",
            Rule::Vla => "vla",
            Rule::DynamicMemory => "dynamic_memory",
            Rule::Files => "files",
            Rule::MappedMemory => "mapped_memory",
        }
    }

    /// What it forbids, in words.
    pub const fn title(self) -> &'static str {
        match self {
            Rule::ExtraFiles => "no source files beyond the scaffold's",
            Rule::Vla => "no variable-length arrays",
            Rule::DynamicMemory => "no dynamic memory",
            Rule::Files => "no use of files",
            Rule::MappedMemory => "no mapped memory",
        }
    }
}

/// One restriction broken, and where: a file, a line, a symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Which restriction.
    pub rule: Rule,
    /// What shows it.
    pub what: String,
}

/// The hidden-style suite and the fuzzing.
#[derive(Clone, Debug, Default)]
pub struct Correctness {
    /// Where the cases came from, as shown.
    pub suite: String,
    /// Cases whose expected output only the assignment's rules decide:
    /// passed, and run.
    pub rules: (usize, usize),
    /// Cases that depend on a decision of this contract: passed, and run.
    pub decided: (usize, usize),
    /// Cases not run, as `check` skipped them.
    pub skipped: usize,
    /// Cases that end the input mid-game, not run because the program
    /// did not stop at end of input (each would have cost the timeout).
    pub not_run_at_eof: usize,
    /// The failures, in path order.
    pub failures: Vec<Failure>,
    /// The fuzzing, if it ran.
    pub fuzz: Option<Fuzzed>,
    /// What the runs were contained by, a line each.
    pub contained: Vec<String>,
    /// The cases that did not end in time (the memory check skips them).
    pub hung: Vec<PathBuf>,
    /// The cases that ended in time, for the memory check.
    pub ended: Vec<PathBuf>,
}

/// One failing case.
#[derive(Clone, Debug, Default)]
pub struct Failure {
    /// The `.in` file, as shown.
    pub case: String,
    /// A word on how it failed: `stdout`, `timed out`, `crashed`, ...
    pub reason: String,
    /// The clause of the contract it breaks, if one was found.
    pub clause: Option<String>,
    /// Whether it depends on a decision of this contract.
    pub decided: bool,
    /// Where it differs.
    pub detail: String,
}

/// What fuzzing found.
#[derive(Clone, Debug, Default)]
pub struct Fuzzed {
    /// The budget.
    pub time: Duration,
    /// The seed.
    pub seed: u64,
    /// Whether only sessions that end with `term` or the game's end were
    /// made (for a program that does not stop at end of input).
    pub assignment_only: bool,
    /// How many sessions ran.
    pub cases: u64,
    /// The last line of its report: the count of failures and groups.
    pub verdict: String,
    /// Each group's heading: clause, kind, title.
    pub groups: Vec<String>,
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
    /// How many cases ran under it, of how many that ended in time.
    pub cases: (usize, usize),
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
    /// The assignment's scenarios no right case covers: id, what, an
    /// example input.
    pub missing: Vec<(&'static str, &'static str, String)>,
}
