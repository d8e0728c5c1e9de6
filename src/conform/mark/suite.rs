//! Correctness: the hidden-style suite run through `check`, and random
//! sessions through `fuzz`, each read back from its own report, so that a
//! mark says exactly what those commands would say to the student.
//!
//! The suite is the one built into the program ([`super::golden`]),
//! written for the run into a folder of its own, or a folder of cases
//! given; either way the reports name it, count its cases and give a
//! hash of its files ([`Ready`]), so that two reports can be told to be
//! of the same suite or not.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::super::model::{Checked, Correctness, Failure, FuzzRun, SuiteUsed, Topic, Verdict};
use super::super::report::{self, text};
use super::super::run::{self, Budget, End};
use super::super::sandbox::Kit;
use super::super::{
    CheckOptions, ConformError, Format, FuzzOptions, Limit, ReadArgs, case, check, fuzz, reap,
    trace,
};
use super::golden;

/// Where the cases come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Suite {
    /// The golden suite built into this program.
    BuiltIn,
    /// A folder of cases (`--tests DIR`), as given.
    Folder(PathBuf),
}

/// A suite ready to run: a folder of cases on disk, and what the reports
/// say of it.
#[derive(Debug)]
pub struct Ready {
    folder: PathBuf,
    unpacked: Option<Unpacked>,
    /// Which suite, its cases and its hash, as every report states them.
    pub used: SuiteUsed,
}

impl Ready {
    /// The suite on disk: a folder as given, or the built-in suite written
    /// into a folder of its own, kept until this is dropped.
    ///
    /// # Errors
    ///
    /// [`ConformError`] for a folder or a case file that cannot be read,
    /// or a built-in suite that cannot be written.
    pub fn new(suite: &Suite) -> Result<Ready, ConformError> {
        let (folder, unpacked, name) = match suite {
            Suite::Folder(folder) => {
                std::fs::read_dir(folder).map_err(|source| ConformError::Path {
                    path: folder.clone(),
                    source,
                })?;
                (folder.clone(), None, report::shown_path(folder))
            }
            Suite::BuiltIn => {
                let unpacked = Unpacked::new()?;
                let folder = golden::write(unpacked.0.path())?;
                (
                    folder,
                    Some(unpacked),
                    "the built-in golden suite".to_owned(),
                )
            }
        };
        let cases = case::find(std::slice::from_ref(&folder))?;
        let hash = hash(&folder, &cases)?;
        Ok(Ready {
            used: SuiteUsed {
                name,
                built_in: unpacked.is_some(),
                cases: cases.len(),
                hash,
            },
            folder,
            unpacked,
        })
    }

    /// The folder of cases.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// How the reports name the case at `path`, a path under the folder:
    /// a case of the built-in suite by its path in the suite
    /// (`golden/win/anti_diagonal_middle.in`), not in a scratch folder
    /// that is gone by the time anyone reads it.
    pub fn shown(&self, path: &Path) -> String {
        let inside = self
            .unpacked
            .as_ref()
            .and_then(|u| path.strip_prefix(u.0.path()).ok());
        report::shown_path(inside.unwrap_or(path))
    }
}

/// The folder the built-in suite is written into for one run: a name no
/// one can guess, readable by the kit's user only (the programs under
/// test are fed their input, and never need to read a case), removed
/// when dropped, or when the kit is stopped ([`reap`]).
#[derive(Debug)]
struct Unpacked(tempfile::TempDir);

impl Unpacked {
    fn new() -> Result<Unpacked, ConformError> {
        let dir = tempfile::Builder::new()
            .prefix("gomoku-mist-suite-")
            .tempdir()
            .map_err(|source| ConformError::Write {
                path: std::env::temp_dir(),
                source,
            })?;
        reap::keep(dir.path());
        Ok(Unpacked(dir))
    }
}

impl Drop for Unpacked {
    fn drop(&mut self) {
        reap::remove(self.0.path());
    }
}

/// 64-bit FNV-1a: a few lines, and enough to tell two suites apart. It
/// is no defence against someone making a suite with a given hash, which
/// nobody marking has a reason to do.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl io::Write for Fnv {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.add(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The hash of the files of `cases` (each `.in` file with the `.args`,
/// `.out`, `.code` and `.err` beside it), found under `folder`: of each,
/// in the order of its path under `folder` as bytes, that path, its
/// length and its own hash. So the built-in suite hashes as the folder it
/// was built from, wherever either is.
fn hash(folder: &Path, cases: &[PathBuf]) -> Result<u64, ConformError> {
    let mut files: Vec<(Vec<u8>, PathBuf)> = Vec::new();
    for case in cases {
        for extension in ["in", "args", "out", "code", "err"] {
            let path = case.with_extension(extension);
            // Only plain files: a FIFO would block the read for ever, a
            // device would never end; `check` refuses such a case anyway.
            if std::fs::metadata(&path).is_ok_and(|meta| meta.is_file()) {
                let name = path.strip_prefix(folder).unwrap_or(&path);
                files.push((name.as_os_str().as_encoded_bytes().to_vec(), path));
            }
        }
    }
    files.sort();
    let mut suite = Fnv::new();
    for (name, path) in &files {
        let io = |source| ConformError::Path {
            path: path.clone(),
            source,
        };
        let mut file = Fnv::new();
        let length = io::copy(&mut File::open(path).map_err(io)?, &mut file).map_err(io)?;
        suite.add(name);
        suite.add(&[0]);
        suite.add(&length.to_le_bytes());
        suite.add(&file.0.to_le_bytes());
    }
    Ok(suite.0)
}

/// How the suite and the fuzzing run.
#[derive(Clone, Debug)]
pub struct SuiteOptions {
    /// Where the cases come from.
    pub suite: Suite,
    /// How the reference reads a case's `.args`.
    pub read_args: ReadArgs,
    /// A run still going after this long is killed.
    pub timeout: Duration,
    /// How many runs at once.
    pub jobs: usize,
    /// How long (or how many sessions) to fuzz; `None` for not at all.
    pub fuzz: Option<Limit>,
    /// The fuzzing's seed: the same for every submission, so that each
    /// meets the same sessions.
    pub seed: u64,
}

/// Runs `suite` (made ready from `opts.suite`) and the fuzzing on
/// `program`, each run contained by `kit`; fuzzing's failing cases are
/// written under `fuzz_out`.
///
/// # Errors
///
/// Why the suite could not be run (a folder that cannot be read): a
/// fault of the marker's command, not of the submission.
pub fn correctness(
    kit: Option<&Kit>,
    program: &Path,
    opts: &SuiteOptions,
    suite: &Ready,
    fuzz_out: &Path,
) -> Result<Correctness, ConformError> {
    let command = vec![program.as_os_str().to_owned()];
    let hangs = hangs_at_end_of_input(kit, &command, opts.timeout);
    let (paths, not_run_at_eof) = if hangs {
        cases_not_ending_at_eof(suite.folder())?
    } else {
        (vec![suite.folder().to_path_buf()], 0)
    };
    let check_opts = CheckOptions {
        program: Some(command.clone()),
        paths,
        timeout: opts.timeout,
        jobs: opts.jobs,
        read_args: opts.read_args,
        format: Format::Json,
        contain: Default::default(),
    };
    let checked = check::run_cases(&check_opts, kit, &mut |_| Ok(()))?;
    let mut found = tally(&checked, &|path| suite.shown(path), &|path| {
        topic(suite.folder(), path)
    });
    found.not_run_at_end_of_input = not_run_at_eof;
    found.contained = containment(kit);
    found.suite.clone_from(&suite.used.name);
    found.fuzz = opts
        .fuzz
        .map(|limit| run_fuzz(kit, command, limit, opts, fuzz_out, hangs));
    Ok(found)
}

/// What the runs were contained by, in a line or two for the reports.
pub fn containment(kit: Option<&Kit>) -> Vec<String> {
    kit.map_or_else(
        || {
            vec![
                "not contained: each run as the kit's user, in the kit's folder, limited only \
                 by the timeout"
                    .to_owned(),
            ]
        },
        Kit::describe,
    )
}

/// Whether the program is still running `timeout` after its input, one
/// `who` and no `term`, ended: a program that does not stop at end of
/// input would cost the timeout on every case that ends mid-game.
fn hangs_at_end_of_input(kit: Option<&Kit>, command: &[OsString], timeout: Duration) -> bool {
    let limits = Budget {
        timeout,
        cap: 1 << 20,
    };
    matches!(
        run::run(kit, command, &[], b"who\n", limits).end,
        End::TimedOut(_)
    )
}

/// The suite's cases that do not end the input mid-game (by how the
/// reference plays them), and how many do.
fn cases_not_ending_at_eof(suite: &Path) -> Result<(Vec<PathBuf>, usize), ConformError> {
    let paths = case::find(&[suite.to_path_buf()])?;
    let mut kept = Vec::new();
    let mut left = 0;
    for path in paths {
        let at_eof = case::unreadable(&path).is_none()
            && case::read(&path).is_ok_and(|c| {
                !c.has_args && trace::trace(&c.input).stop == trace::Stop::EndOfInput
            });
        if at_eof {
            left += 1;
        } else {
            kept.push(path);
        }
    }
    Ok((kept, left))
}

/// The topic of the case at `path` in the suite at `folder`: the folder
/// it is in, from the suite's (`win`), `.` for the suite's own.
fn topic(folder: &Path, path: &Path) -> String {
    let inside = path.strip_prefix(folder).unwrap_or(path);
    match inside.parent() {
        Some(p) if !p.as_os_str().is_empty() => report::shown_path(p),
        _ => ".".to_owned(),
    }
}

/// `check`'s cases, tallied by rules and decisions, in all and by topic;
/// `name` gives a case's name in the suite, `topic` its topic.
fn tally(
    checked: &Checked,
    name: &dyn Fn(&Path) -> String,
    topic: &dyn Fn(&Path) -> String,
) -> Correctness {
    let mut found = Correctness::default();
    let mut topics: BTreeMap<String, Topic> = BTreeMap::new();
    let mut crashed: Vec<PathBuf> = Vec::new();
    for case in &checked.cases {
        let decided = !case.decisions.is_empty();
        if case.verdict == Verdict::Skip {
            found.skipped += 1;
            continue;
        }
        let passed = case.verdict == Verdict::Pass;
        if case.reason == "crashed" {
            crashed.push(case.file.clone());
        }
        let t = topics.entry(topic(&case.file)).or_default();
        let (tally, in_topic) = if decided {
            (&mut found.decisions, &mut t.decisions)
        } else {
            (&mut found.rules, &mut t.rules)
        };
        tally.add(passed);
        in_topic.add(passed);
        match case.verdict {
            Verdict::Pass if !decided => found.passed_by_rules.push(name(&case.file)),
            Verdict::Skip | Verdict::Pass => {}
            Verdict::Fail => {
                found.failures.push(Failure {
                    case: name(&case.file),
                    reason: case.reason.clone(),
                    clause: case.clause,
                    depends_on_decisions: decided,
                    detail: case.detail.clone(),
                    hint: case.hint.clone(),
                    failure: case.failure,
                });
            }
        }
        // Only a run that ended by itself is run again for memory: one
        // killed at a limit would be killed again, its kill taken for a
        // memory error, at the cost of the checker's slower timeout.
        if case.timed_out {
            found.hung.push(case.file.clone());
        } else if !case.killed_at_limit {
            found.ended.push(case.file.clone());
            if case.verdict == Verdict::Fail {
                found.ended_failing.push(case.file.clone());
            }
        }
    }
    // A crash is a memory error more often than not: those first.
    found
        .ended_failing
        .sort_by_key(|path| !crashed.contains(path));
    found.topics = topics
        .into_iter()
        .map(|(name, t)| Topic { topic: name, ..t })
        .collect();
    found
}

/// Fuzzes for `time`; a program that `hangs` at end of input only with
/// sessions that end with `term` or the game's end (`--assignment-only`),
/// where each hang would cost the timeout and find nothing new.
fn run_fuzz(
    kit: Option<&Kit>,
    program: Vec<OsString>,
    limit: Limit,
    opts: &SuiteOptions,
    out: &Path,
    hangs: bool,
) -> FuzzRun {
    let fuzz_opts = FuzzOptions {
        program,
        seed: opts.seed,
        limit,
        out_dir: out.to_path_buf(),
        timeout: opts.timeout,
        jobs: opts.jobs,
        // Each group is named, not shrunk: shrinking a program that hangs
        // costs a timeout a step, and the budget is the marker's. The
        // student shrinks with `fuzz` and the seed shown.
        shrink_budget: 0,
        assignment_only: hangs,
        format: Format::Json,
        contain: Default::default(),
    };
    let mut report = Vec::new();
    let (time, cases) = match limit {
        Limit::Time(time) => (time, None),
        Limit::Cases(cases) => (Duration::ZERO, Some(cases)),
    };
    let run = FuzzRun {
        time,
        cases,
        seed: opts.seed,
        assignment_only: hangs,
        ..FuzzRun::default()
    };
    match fuzz::run(&fuzz_opts, kit, &mut report) {
        Ok(fuzzed) => FuzzRun {
            sessions: fuzzed.cases,
            verdict: text::fuzz_verdict(&fuzzed),
            groups: fuzzed
                .findings
                .iter()
                .enumerate()
                .map(|(i, f)| text::finding_heading(i + 1, f))
                .collect(),
            findings: fuzzed.findings,
            ..run
        },
        Err(e) => FuzzRun {
            verdict: format!("fuzzing stopped: {e}"),
            ..run
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::clause::Clause;
    use super::super::super::model::{CaseResult, Tally};
    use super::*;

    #[test]
    fn the_built_in_suite_is_named_and_hashed_as_the_folder_it_was_built_from() {
        let built_in = Ready::new(&Suite::BuiltIn).expect("the built-in suite is written");
        let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
        let folder = Ready::new(&Suite::Folder(golden.clone())).expect("tests/golden is read");
        let cases = golden::FILES
            .iter()
            .filter(|(name, _)| name.ends_with(".in"))
            .count();
        assert_eq!(
            (built_in.used.cases, built_in.used.hash),
            (cases, folder.used.hash)
        );
        assert!(built_in.used.built_in && !folder.used.built_in);
        assert_eq!(built_in.used.name, "the built-in golden suite");
        let case = built_in.folder().join("win/anti_diagonal_middle.in");
        assert!(case.is_file(), "{}", case.display());
        assert_eq!(built_in.shown(&case), "golden/win/anti_diagonal_middle.in");
        let unpacked = built_in.folder().to_path_buf();
        drop(built_in);
        assert!(!unpacked.exists(), "{} is left", unpacked.display());
    }

    #[test]
    fn a_byte_or_a_name_changed_changes_the_hash() {
        let hash_of = |files: &[(&str, &str)]| {
            let dir = tempfile::tempdir().expect("a scratch folder");
            for (name, text) in files {
                std::fs::write(dir.path().join(name), text).expect("write a case file");
            }
            let used = Ready::new(&Suite::Folder(dir.path().to_path_buf()))
                .expect("the folder is read")
                .used;
            (used.cases, used.hash)
        };
        let one = hash_of(&[("a.in", "who\n"), ("a.out", "B\n"), ("notes.txt", "x")]);
        assert_eq!(one.0, 1);
        assert_eq!(
            one,
            hash_of(&[("a.in", "who\n"), ("a.out", "B\n")]),
            "not a case file"
        );
        assert_ne!(one, hash_of(&[("a.in", "who\n"), ("a.out", "W\n")]));
        assert_ne!(one, hash_of(&[("b.in", "who\n"), ("b.out", "B\n")]));
        assert_ne!(one, hash_of(&[("a.in", "who\nB\n"), ("a.out", "")]));
    }

    #[test]
    fn check_cases_are_tallied_by_rules_and_decisions() {
        // `killed`: 0 ended by itself, 1 timed out, 2 killed at the
        // output cap.
        let case = |name: &str, verdict, decisions: &[Clause], killed| CaseResult {
            path: name.to_owned(),
            verdict,
            reason: String::new(),
            clause: (verdict == Verdict::Fail).then_some(Clause::WinLine),
            kind: None,
            line: None,
            cause: None,
            hint: None,
            failure: None,
            detail: String::new(),
            decisions: decisions.to_vec(),
            seconds: 0.0,
            timed_out: killed == 1,
            killed_at_limit: killed > 0,
            file: PathBuf::from(name),
        };
        let mut checked = Checked::default();
        checked.push(case("a.in", Verdict::Pass, &[], 0));
        checked.push(case("b.in", Verdict::Fail, &[], 0));
        checked.push(case("c.in", Verdict::Fail, &[Clause::EofExit], 1));
        checked.push(case("d.in", Verdict::Pass, &[Clause::EofExit], 0));
        checked.push(case("e.in", Verdict::Skip, &[], 0));
        checked.push(case("f.in", Verdict::Fail, &[], 2));
        let found = tally(
            &checked,
            &|path| format!("suite/{}", path.display()),
            &|path| topic(Path::new(""), path),
        );
        let tally = |passed, run| Tally { passed, run };
        assert_eq!(
            (found.rules, found.decisions, found.skipped),
            (tally(1, 3), tally(1, 2), 1)
        );
        assert_eq!(found.hung, [PathBuf::from("c.in")]);
        // Neither the hang nor the run killed at the output cap is run
        // again for memory.
        let ended: Vec<&str> = found.ended.iter().filter_map(|p| p.to_str()).collect();
        assert_eq!(ended, ["a.in", "b.in", "d.in"]);
        assert_eq!(found.failures[0].clause, Some(Clause::WinLine));
        assert_eq!(found.failures[0].case, "suite/b.in");
        assert!(found.failures[1].depends_on_decisions);
    }
}
