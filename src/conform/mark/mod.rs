//! `mark`: a student's C submission (or a class of them) marked along the
//! assignment's whole scheme, in order, each step run only where it can:
//!
//! 1. [`compile`]: the course's compiler command, its messages trimmed;
//! 2. [`restrict`]: source files beyond the scaffold's, variable-length
//!    arrays (from the compiler), and dynamic memory, files and mapped
//!    memory read from the program's imported symbols;
//! 3. [`suite`]: the hidden-style suite through `check` (the golden
//!    suite built into the program, [`golden`], unless a folder is
//!    given), and `fuzz`;
//! 4. [`memory`]: valgrind (or AddressSanitizer), and the peak memory;
//! 5. [`student`]: the student's own tests, each `.out` checked against
//!    the reference, and the scenarios they cover;
//!
//! then [`score`] turns it into marks; the record of it all is a
//! [`super::model::Marked`], which every report of
//! [`super::report`] is written from. Of a submission, only
//! its plain files are read ([`submission`]): a link, a FIFO or a file
//! the kit cannot read is named in its report and left out, and a
//! submission whose folder cannot be read is marked zero, saying why,
//! while the rest of the class is marked. Each submission is
//! built in a [`scratch`] folder of its own, by the compiler run as the
//! kit's user; every run of the program it builds (valgrind's and GNU
//! `time`'s included) is contained as the kit's `check` and `fuzz` runs
//! are ([`super::sandbox`]). One that does not compile, hangs, crashes,
//! or goes over a limit costs its own time and no other's.
//!
//! [`autograder`] does no marking here: it writes the zip with which
//! Gradescope runs this same marking for each submission.

pub mod autograder;
pub mod compile;
pub mod error;
pub mod golden;
pub mod memory;
pub mod restrict;
pub mod score;
pub mod scratch;
pub mod student;
pub mod submission;
pub mod suite;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::model::{Budget, Build, Correctness, MadeWith, Marked, MarkedClass, NotRead};
use super::report::{csv, gradescope, html, json, junit, page, text};
use compile::Compiler;
use memory::MemoryOptions;
use score::Weights;
use submission::Submission;
use suite::SuiteOptions;

use super::sandbox::Kit;
use super::{ConformError, Limit, Outcome, pool};

/// How the marks are written on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkFormat {
    /// A page a submission, then the class summary.
    Text,
    /// The kit's JSON.
    Json,
    /// Gradescope's `results.json` (one submission).
    Gradescope,
    /// JUnit XML.
    Junit,
    /// One CSV row a submission.
    Csv,
}

/// What `mark` marks, and how.
#[derive(Clone, Debug)]
pub struct MarkOptions {
    /// The submissions' folders.
    pub submissions: Vec<PathBuf>,
    /// The C source's name in each folder.
    pub source: String,
    /// The course's compiler command.
    pub compiler: Compiler,
    /// The suite, the fuzzing and the timeout (its `jobs` is set per
    /// submission).
    pub suite: SuiteOptions,
    /// The memory check.
    pub memory: MemoryOptions,
    /// The parts' weights.
    pub weights: Weights,
    /// The report on stdout.
    pub format: MarkFormat,
    /// Where every report of every submission is also written.
    pub out_dir: Option<PathBuf>,
    /// How Gradescope shows the results (`results.json`).
    pub gradescope: gradescope::Options,
    /// The options as given, each as a shell would take it back: every
    /// report records them.
    pub given: Vec<String>,
    /// Instead of marking, write Gradescope's autograder zip.
    pub autograder: Option<autograder::Autograder>,
    /// How many runs at once, over all submissions.
    pub jobs: usize,
    /// What each run of a submission's program may use: the shell makes
    /// the [`Kit`] of it that [`mark`] is given.
    pub contain: super::sandbox::Contain,
}

/// Where [`mark`] says how far it is.
pub enum Progress<'a> {
    /// A terminal: the budget, then one line, each overwriting the last,
    /// naming the submission being marked.
    Terminal(&'a mut dyn Write),
    /// A log, as a batch job's stderr is: the budget, then a line for
    /// each submission as it finishes, with the time left estimated.
    Lines(&'a mut dyn Write),
}

/// The most a submission's marking can take, from the options: every
/// run of it is killed at its limit, so no submission takes longer, save
/// for the time the machine is too busy to run it at all.
pub fn budget(opts: &MarkOptions, cases: usize) -> Budget {
    let timeout = opts.suite.timeout;
    let (fuzz, fuzz_sessions) = match opts.suite.fuzz {
        None => (Duration::ZERO, None),
        Some(Limit::Time(time)) => (time, None),
        Some(Limit::Cases(n)) => (Duration::ZERO, Some(n)),
    };
    let memory_cases = match (opts.memory.checker, opts.memory.cases) {
        (memory::Checker::None, _) => 0,
        (_, 0) => cases,
        (_, n) => n.min(cases),
    };
    Budget {
        compile: compile::COMPILE_TIMEOUT,
        cases,
        timeout,
        fuzz,
        fuzz_sessions,
        memory_cases,
        memory_run: timeout.saturating_mul(memory::VALGRIND_SLOWDOWN),
    }
}

/// Marks every submission, `jobs` at a time, and writes the reports,
/// saying how far it is in `progress`.
///
/// # Errors
///
/// [`ConformError`] if the suite cannot be read, a submission given is
/// not there at all, or a report cannot be written. A submission that
/// fails in any way, unreadable folders included, is a mark, not an error.
pub fn mark(
    opts: &MarkOptions,
    kit: Option<&Kit>,
    out: &mut dyn Write,
    mut progress: Progress<'_>,
) -> Result<Outcome, ConformError> {
    let suite = suite::Ready::new(&opts.suite.suite)?;
    all_there(&opts.submissions)?;
    let names = names(&opts.submissions);
    let total = opts.submissions.len();
    let workers = opts.jobs.clamp(1, super::MAX_JOBS).min(total.max(1));
    let inner = (opts.jobs / workers).max(1);
    let started = Instant::now();
    {
        let (Progress::Terminal(p) | Progress::Lines(p)) = &mut progress;
        let line = text::budget(&budget(opts, suite.used.cases), total, workers);
        let _ = writeln!(p, "{line}");
        let _ = p.flush();
    }
    let mut all: Vec<Marked> = Vec::new();
    let mut done = 0;
    // The submission last started: the one the line names.
    let mut current = "";
    let marked = pool::ordered(
        &opts.submissions,
        workers,
        |index, folder| mark_one(folder, &names[index], opts, kit, &suite, inner),
        |seen| {
            let finished = match seen {
                pool::Seen::Started(index) => {
                    current = names.get(index).map_or("", String::as_str);
                    None
                }
                pool::Seen::Done(index) => {
                    done += 1;
                    names.get(index)
                }
            };
            match (&mut progress, finished) {
                (Progress::Terminal(p), _) => {
                    // Each line overwrites the last: `\r`, then erase to its end.
                    let _ = write!(p, "\r\x1b[K[{done} of {total} marked] marking {current}");
                    let _ = p.flush();
                }
                (Progress::Lines(p), Some(name)) => {
                    let line = text::marked_line(done, total, name, started.elapsed());
                    let _ = writeln!(p, "{line}");
                    let _ = p.flush();
                }
                _ => {}
            }
        },
        |_, mut marked| -> Result<(), ConformError> {
            marked.marks = score::marks(&marked, &opts.weights);
            if opts.format == MarkFormat::Text {
                writeln!(out, "{}", page::page(&marked))?;
                out.flush()?;
            }
            write_files(opts, &marked)?;
            all.push(marked);
            Ok(())
        },
    );
    marked?;
    if let Progress::Terminal(p) = &mut progress {
        let _ = write!(p, "\r\x1b[K");
        let _ = p.flush();
    }
    write_class(opts, &all, out)?;
    let full = all
        .iter()
        .all(|m| m.marks.max > 0.0 && m.marks.total >= m.marks.max);
    Ok(if full {
        Outcome::Passed
    } else {
        Outcome::Failed
    })
}

/// Fails on the first submission that is not there at all: a slip of
/// the marker's, told at once; one that is there but cannot be read is
/// marked as what it is.
fn all_there(submissions: &[PathBuf]) -> Result<(), ConformError> {
    for folder in submissions {
        if let Err(source) = std::fs::symlink_metadata(folder) {
            if source.kind() == std::io::ErrorKind::NotFound {
                return Err(ConformError::Path {
                    path: folder.clone(),
                    source,
                });
            }
        }
    }
    Ok(())
}

/// The class's report on `out`, in the format asked for, and its files
/// under `--out`.
fn write_class(
    opts: &MarkOptions,
    all: &[Marked],
    out: &mut dyn Write,
) -> Result<(), ConformError> {
    match opts.format {
        MarkFormat::Text if all.len() > 1 => write!(out, "{}", page::summary(all))?,
        MarkFormat::Text => {}
        MarkFormat::Json => write!(out, "{}", json::pretty(&MarkedClass::of(all)))?,
        MarkFormat::Gradescope => {
            for m in all {
                write!(out, "{}", gradescope::results(m, &opts.gradescope))?;
            }
        }
        MarkFormat::Junit => write!(out, "{}", junit::mark(all))?,
        MarkFormat::Csv => write!(out, "{}", csv::class(all))?,
    }
    out.flush()?;
    if let Some(dir) = &opts.out_dir {
        write_file(&dir.join("class.csv"), &csv::class(all))?;
        write_file(&dir.join("summary.txt"), &page::summary(all))?;
        write_file(&dir.join("index.html"), &html::class(all))?;
    }
    Ok(())
}

/// Each submission's name: its folder's, made unique with `-2`, `-3`, ...
fn names(folders: &[PathBuf]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for folder in folders {
        // A link is named as given (`alias/` too: the components leave
        // the last slash out): it is not followed.
        let given: PathBuf = folder.components().collect();
        let link = std::fs::symlink_metadata(&given).is_ok_and(|m| m.file_type().is_symlink());
        let base = if link {
            Some(given)
        } else {
            folder.canonicalize().ok()
        }
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "submission".to_owned());
        let mut name = base.clone();
        let mut n = 1;
        while names.contains(&name) {
            n += 1;
            name = format!("{base}-{n}");
        }
        names.push(name);
    }
    names
}

/// Marks one submission against `suite`: every step that can run.
fn mark_one(
    folder: &Path,
    name: &str,
    opts: &MarkOptions,
    kit: Option<&Kit>,
    suite: &suite::Ready,
    jobs: usize,
) -> Marked {
    let start = Instant::now();
    let mut marked = Marked {
        name: name.to_owned(),
        folder: folder.to_path_buf(),
        suite: suite.used.clone(),
        made_with: MadeWith {
            program: concat!("gomoku-mist ", env!("CARGO_PKG_VERSION")).to_owned(),
            options: opts.given.clone(),
        },
        ..Marked::default()
    };
    if let Some(sub) = read(&mut marked, opts) {
        match scratch::Scratch::new(kit) {
            Ok(scratch) => build_and_run(&mut marked, &sub, opts, kit, suite, jobs, &scratch),
            Err(e) => {
                marked.build = Build {
                    messages: format!("the kit cannot make a folder to build it in: {e}\n"),
                    ..Build::default()
                };
            }
        }
    }
    marked.took = start.elapsed();
    marked
}

/// Reads the submission's folder into `marked`: what is not read, its
/// extra files, its tests; the submission, unless its folder cannot be
/// read at all (then nothing of it is, and it is not built).
fn read(marked: &mut Marked, opts: &MarkOptions) -> Option<Submission> {
    let folder = marked.folder.clone();
    let sub = match Submission::open(&folder) {
        Ok(sub) => sub,
        Err(why) => {
            let shown = super::report::shown_path(&folder);
            let said = format!("not built: {shown} {why}");
            marked.build = compile::not_built(&opts.source, &opts.compiler, &said);
            marked.not_read = vec![NotRead {
                path: String::new(),
                why: why.to_string(),
            }];
            marked.tests = student::none();
            return None;
        }
    };
    marked.not_read = sub.not_read();
    marked.broken = restrict::extra_files(&folder, &opts.source);
    let (tests, unread) = student::tests(&sub);
    marked.tests = tests;
    marked.not_read.extend(unread);
    marked.not_read.sort_by(|a, b| a.path.cmp(&b.path));
    marked.not_read.dedup_by(|a, b| a.path == b.path);
    Some(sub)
}

/// Builds the submission in `scratch` and, if it compiled, reads its
/// imports, runs the suite (and fuzz) and checks its memory.
fn build_and_run(
    marked: &mut Marked,
    sub: &Submission,
    opts: &MarkOptions,
    kit: Option<&Kit>,
    suite: &suite::Ready,
    jobs: usize,
    scratch: &scratch::Scratch,
) {
    let (build, vlas) = compile::compile(kit, sub, &opts.source, &opts.compiler, scratch.path());
    marked.build = build;
    marked.broken.extend(vlas);
    let Some(program) = marked.build.program.clone() else {
        return;
    };
    match restrict::imports(&program) {
        Ok(broken) => marked.broken.extend(broken),
        Err(why) => marked.imports_unread = Some(why.to_string()),
    }
    marked.broken.sort_by_key(|v| v.rule);
    let fuzz_out = match &opts.out_dir {
        Some(dir) => dir.join(&marked.name).join("fuzz-failures"),
        None => scratch.path().join("fuzz-failures"),
    };
    let suite_opts = SuiteOptions {
        jobs,
        ..opts.suite.clone()
    };
    let correctness = suite::correctness(kit, &program, &suite_opts, suite, &fuzz_out)
        .unwrap_or_else(|e| Correctness {
            suite: format!("(not run: {e})"),
            ..Correctness::default()
        });
    let asan = || compile::asan(kit, &opts.source, &opts.compiler, scratch.path());
    let memory_opts = MemoryOptions {
        jobs,
        ..opts.memory
    };
    marked.memory = Some(memory::memory(
        kit,
        &program,
        &asan,
        (&correctness.ended, &correctness.ended_failing),
        &memory_opts,
        scratch.path(),
        &|path| suite.shown(path),
    ));
    marked.correctness = Some(correctness);
}

fn write_file(path: &Path, text: &str) -> Result<(), ConformError> {
    let write = || -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, text)
    };
    write().map_err(|source| ConformError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Every report of one submission, under `--out`.
fn write_files(opts: &MarkOptions, m: &Marked) -> Result<(), ConformError> {
    let Some(dir) = &opts.out_dir else {
        return Ok(());
    };
    let dir = dir.join(&m.name);
    write_file(&dir.join("report.txt"), &page::page(m))?;
    write_file(&dir.join("report.html"), &html::student(m))?;
    write_file(&dir.join("report.json"), &json::pretty(m))?;
    write_file(
        &dir.join("results.json"),
        &gradescope::results(m, &opts.gradescope),
    )?;
    write_file(
        &dir.join("junit.xml"),
        &junit::mark(std::slice::from_ref(m)),
    )?;
    Ok(())
}
