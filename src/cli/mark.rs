//! The table of `mark`.

use std::ffi::{OsStr, OsString};
use std::time::Duration;

use super::args::CliError;
use super::table::{self, Command, Preset};
use crate::conform::mark::autograder::Autograder;
use crate::conform::mark::compile::{COURSE, Compiler};
use crate::conform::mark::memory::{Checker, MemoryOptions};
use crate::conform::mark::score::{self, Weights};
use crate::conform::mark::suite::{Suite, SuiteOptions};
use crate::conform::mark::{MarkFormat, MarkOptions};
use crate::conform::report::gradescope::{self, Visibility};
use crate::conform::sandbox::Contain;
use crate::conform::{Limit, ReadArgs};

/// An option of `mark`.
type Opt = table::Opt<MarkOptions>;

/// Placeholders, which the presets fill.
fn start(read_args: ReadArgs) -> MarkOptions {
    let (timeout, jobs) = (Duration::ZERO, 0);
    MarkOptions {
        submissions: Vec::new(),
        source: String::new(),
        compiler: Compiler::course(),
        suite: SuiteOptions {
            suite: Suite::BuiltIn,
            read_args,
            timeout,
            jobs,
            fuzz: None,
            seed: 0,
        },
        memory: MemoryOptions {
            checker: Checker::Auto,
            cases: 0,
            timeout,
            jobs,
            limit_kib: None,
        },
        weights: Weights::default(),
        format: MarkFormat::Text,
        out_dir: None,
        gradescope: gradescope::Options::default(),
        given: Vec::new(),
        autograder: None,
        jobs,
        // A class's programs are untrusted: never run unprotected by
        // accident.
        contain: Contain {
            isolate: true,
            ..Contain::default()
        },
    }
}

/// The suite and the memory check each get the one `--timeout` and
/// `--jobs`.
fn finish(mut o: MarkOptions, submissions: Vec<OsString>) -> Result<MarkOptions, CliError> {
    if o.format == MarkFormat::Gradescope && submissions.len() > 1 {
        return Err(CliError::BadValue {
            option: "--format",
            value: "gradescope".into(),
            problem: "is for one submission: a class's results.json files go to --out DIR",
        });
    }
    o.submissions = submissions.into_iter().map(Into::into).collect();
    o.memory.timeout = o.suite.timeout;
    (o.suite.jobs, o.memory.jobs) = (o.jobs, o.jobs);
    Ok(o)
}

/// Reads `mark`'s command line: [`MARK`]'s table, then, for
/// `--gradescope-autograder`, the marking options to bundle.
///
/// # Errors
///
/// [`CliError`] names the first problem found.
pub fn parse(args: &[OsString], read_args: ReadArgs) -> Result<MarkOptions, CliError> {
    let mut o = MARK.parse(args, read_args)?;
    let given = MARK.given(args)?.options;
    o.given = given
        .iter()
        .flat_map(|(long, value)| std::iter::once(OsStr::new(long)).chain(value.as_deref()))
        .map(shell_word)
        .collect();
    let Some(zip) = o.autograder.as_ref().map(|a| a.zip.clone()) else {
        return Ok(o);
    };
    let mut arguments = Vec::new();
    let mut suite = None;
    for (long, value) in given {
        match (long, &o.suite.suite) {
            (AUTOGRADER, _) => continue,
            ("--format" | "--out", _) => return Err(CliError::Exclusive(AUTOGRADER, long)),
            ("--tests", Suite::Folder(folder)) => {
                suite = Some(folder.clone());
                arguments.extend(["--tests".into(), "suite".into()]);
                continue;
            }
            _ => {}
        }
        arguments.push(long.into());
        arguments.extend(value);
    }
    let compiler = o.compiler.cc.first().cloned().unwrap_or_default();
    o.autograder = Some(Autograder {
        zip,
        arguments,
        suite,
        compiler,
    });
    Ok(o)
}

/// `word` as a shell takes it back: as it is when it is plain, else in
/// single quotes (a byte that is not UTF-8 shown as U+FFFD).
fn shell_word(word: &OsStr) -> String {
    let word = word.to_string_lossy();
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.into_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The option that makes the autograder's zip instead of marking.
const AUTOGRADER: &str = "--gradescope-autograder";

/// `gomoku-mist mark`.
pub static MARK: Command<MarkOptions, MarkOptions> = Command {
    name: "mark",
    about: ABOUT,
    arguments: Some("SUBMISSION"),
    column: 21,
    opts: &[
        Opt::value("--source", "FILE", |o, v| {
            let name = v.raw.to_str().filter(|s| !s.is_empty() && !s.contains('/'));
            let name = name.ok_or_else(|| v.bad("is not a file name in the folder"))?;
            o.source = name.to_owned();
            Ok(())
        })
        .doc("the C source in each folder")
        .preset(Preset::Value("gitm.c")),
        Opt::value("--cc", "CMD", |o, v| v.words().map(|w| o.compiler.cc = w))
            .doc("the compiler, split like a shell would")
            .preset(Preset::Value(COURSE[0])),
        Opt::value("--cflags", "FLAGS", |o, v| {
            v.words().map(|w| o.compiler.cflags = w)
        })
        .doc("its flags")
        .preset(Preset::Value(COURSE[1])),
        Opt::value("--tests", "DIR", |o, v| {
            v.path().map(|p| o.suite.suite = Suite::Folder(p))
        })
        .doc("the suite to mark against")
        .preset(Preset::Said("the golden suite\nbuilt into this program")),
        Opt::value("--fuzz-time", "SECS", |o, v| {
            let time = v.seconds(true)?;
            o.suite.fuzz = (!time.is_zero()).then_some(Limit::Time(time));
            Ok(())
        })
        .doc("how long to fuzz each submission, 0 for not at all")
        .preset(Preset::Value("30"))
        .or("--fuzz-cases"),
        Opt::value("--fuzz-cases", "N", |o, v| {
            let cases = v.number()?;
            o.suite.fuzz = (cases > 0).then_some(Limit::Cases(cases));
            Ok(())
        })
        .doc("instead, fuzz each submission with N sessions, the\nsame on any machine however loaded"),
        Opt::value("--seed", "N", |o, v| v.number().map(|n| o.suite.seed = n))
            .doc("the fuzzing's seed, the same for every submission")
            .preset(Preset::Value("1")),
        Opt::value("--timeout", "SECS", |o, v| {
            v.timeout().map(|t| o.suite.timeout = t)
        })
        .doc(
            "kill a run still going after this long, at least
0.001 (under valgrind, 20 times this)",
        )
        .preset(Preset::Value("5")),
        Opt::value("--memcheck", "TOOL", |o, v| {
            v.choice(CHECKERS).map(|c| o.memory.checker = c)
        })
        .doc("auto, valgrind, asan or none")
        .preset(Preset::Means(
            "auto",
            "auto: valgrind
where installed, else AddressSanitizer",
        )),
        Opt::value("--memory-cases", "N", |o, v| {
            v.number()
                .map(|n| o.memory.cases = usize::try_from(n).unwrap_or(usize::MAX))
        })
        .doc("cases run under the memory checker, 0 for all")
        .preset(Preset::Value("20")),
        Opt::value("--peak-limit", "MIB", |o, v| {
            v.number()
                .map(|mib| o.memory.limit_kib = Some(mib.saturating_mul(1024)))
        })
        .doc(
            "a peak resident memory above this is excessive: the
memory part then scores nothing",
        )
        .preset(Preset::Said("no limit")),
        Opt::value("--weights", "WEIGHTS", |o, v| {
            let decisions = o.weights.decisions;
            v.read(Weights::parse)
                .map(|w| o.weights = Weights { decisions, ..w })
        })
        .doc("what each part is worth, 0 for not counted, e.g.\ncorrectness=8,tests=2,memory=1")
        .preset(Preset::Value(score::COURSE)),
        Opt::flag("--score-decisions", |o| o.weights.decisions = true).doc(
            "score correctness on every case, those that depend on
this contract's decisions (what to do at end of
input, odd bytes, ...) too, not only those the
assignment's rules alone decide",
        ),
        Opt::value("--format", "FORMAT", |o, v| {
            v.choice(FORMATS).map(|f| o.format = f)
        })
        .doc("text, json, gradescope (results.json, one\nsubmission), junit or csv")
        .preset(Preset::Value("text")),
        Opt::value("--visibility", "WHO", |o, v| {
            v.choice(&Visibility::ALL)
                .map(|w| o.gradescope.visibility = w)
        })
        .doc("who sees Gradescope's results.json and its tests:\nvisible, hidden, after_due_date or after_published")
        .preset(Preset::Value("visible")),
        Opt::flag("--per-case", |o| o.gradescope.per_case = true)
            .doc("in results.json, a test (worth no points) for each\ncase the assignment's rules decide"),
        Opt::value(AUTOGRADER, "FILE.zip", |o, v| {
            v.path().map(|zip| {
                o.autograder = Some(Autograder {
                    zip,
                    arguments: Vec::new(),
                    suite: None,
                    compiler: OsString::new(),
                });
            })
        })
        .doc(
            "instead of marking, write the zip of Gradescope's
autograder: it marks each submission there with the
options given here, the --tests folder bundled (no
SUBMISSION then, nor --format or --out)",
        )
        .alone(),
        Opt::value("--out", "DIR", |o, v| v.path().map(|p| o.out_dir = Some(p))).doc(
            "also write every report: DIR/NAME/report.txt,
report.html, report.json, results.json, junit.xml and
the failing cases fuzzing found; DIR/index.html (the
class page), DIR/class.csv and DIR/summary.txt",
        ),
        Opt::value("--jobs", "N", |o, v| v.jobs().map(|n| o.jobs = n))
            .doc("runs at once, over all submissions, at most 256")
            .preset(Preset::Means("0", "twice the number of cores")),
        Opt::value("--memory", "MIB", |o, v| {
            v.mib().map(|bytes| o.contain.memory = bytes)
        })
        .doc("kill a run whose processes hold more than this")
        .preset(Preset::Value("512")),
        // The default, taken and not shown.
        Opt::flag("--isolate", |_| {}),
        Opt::flag("--unisolated", |o| o.contain.isolate = false).doc(
            "mark even where bwrap cannot isolate the programs:
they could then read the suite, the other
submissions and whatever this program's user may",
        ),
    ],
    start,
    finish,
    help: std::sync::OnceLock::new(),
};

const CHECKERS: &[(&str, Checker)] = &[
    ("auto", Checker::Auto),
    ("valgrind", Checker::Valgrind),
    ("asan", Checker::Asan),
    ("none", Checker::None),
];

const FORMATS: &[(&str, MarkFormat)] = &[
    ("text", MarkFormat::Text),
    ("json", MarkFormat::Json),
    ("gradescope", MarkFormat::Gradescope),
    ("junit", MarkFormat::Junit),
    ("csv", MarkFormat::Csv),
];

const ABOUT: &str = "\n\
Marks each SUBMISSION (a folder holding the C source, and optionally the
student's tests in tests/, as NAME.in with NAME.out) along the
assignment's marking scheme, each step run where it can:

  compiles      CC CFLAGS -o gitm FILE -lm, in a scratch folder; the
                compiler's messages shown, trimmed
  restrictions  no source files beyond FILE; no variable-length arrays
                (as the compiler names them); no dynamic memory, files or
                mapped memory (malloc, free, fopen, open, mmap, ... read
                from the functions the compiled program imports)
  correctness   the cases of the suite through `check`, then `fuzz` for
                --fuzz-time (or --fuzz-cases); scored as WEIGHT x the
                mean, over the suite's folders, of the share of the
                cases passed whose expected output the assignment's
                rules alone decide
  memory        errors under valgrind's memcheck, or else a build with
                AddressSanitizer, on a sample of the cases; the peak
                resident memory of those runs (GNU time)
  tests         each .out of the student's tests checked against this
                program (a wrong one is listed), and the assignment's
                scenarios the right ones cover (`cover`); scored as
                WEIGHT x the share covered

The compiler runs contained as below, with limits of its own (1 GiB of
memory, 120 s of CPU time, 16 processes, a 64 MiB file), so a source
cannot show it a file only this program's user may read, nor make it
read a device for ever. Every run of the program it builds (under
valgrind, AddressSanitizer and GNU time too) is contained as `check`
runs it: in a scratch folder of its own, removed after each
run, with only PATH, LANG, HOME and TMPDIR set, as a user of its own
when this runs as root, and killed, with the limit named, when its
processes hold more than 512 MiB of memory (--memory), when one uses
more than 60 s of CPU time, when more than 64 run at once, when it
writes a file larger than 1 MiB or opens more than 256 files. It runs
isolated by bwrap (bubblewrap): no network, its own processes, and of
the file system only the system's folders and its own, read-only, and
its scratch folder; not the suite, not the other submissions, not this
program. Where bwrap cannot isolate it, mark refuses to run (exit 2)
unless --unisolated is given. Each page says what applied.

A submission that does not compile, or that breaks a restriction, gets 0.
Each figure says what it is based on; these are not the course's
official marks. Every report names the suite, with its number of cases
and a hash of its files (the same for the same files wherever they
are). Submissions are marked in parallel, with a progress line on
stderr when it is a terminal, and a class summary at the end.

Exit code 0 if every submission got its full mark, 1 if not, 2 for a bad
command line or a SUBMISSION or DIR that cannot be read.

";
