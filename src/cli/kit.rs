//! The tables of `check`, `fuzz` and `cover`. The three set one
//! [`Draft`], so that an option two of them share is written once.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use super::table::{self, Command, Preset};
use super::values::found;
use crate::conform::sandbox::Contain;
use crate::conform::{CheckOptions, CoverOptions, Format, FuzzOptions, Limit, ReadArgs};

/// An option of `check`, `fuzz` or `cover`.
type Opt = table::Opt<Draft>;

/// What the options set; each command takes its part.
#[derive(Debug)]
pub struct Draft {
    program: Option<Vec<OsString>>,
    timeout: Duration,
    jobs: usize,
    format: Format,
    contain: Contain,
    seed: u64,
    limit: Limit,
    out: PathBuf,
    assignment_only: bool,
    read_args: ReadArgs,
}

/// Placeholders, which the presets fill.
fn start(read_args: ReadArgs) -> Draft {
    Draft {
        program: None,
        timeout: Duration::ZERO,
        jobs: 0,
        format: Format::Text,
        contain: Contain::default(),
        seed: clock_seed(),
        limit: Limit::Cases(0),
        out: PathBuf::new(),
        assignment_only: false,
        read_args,
    }
}

/// A seed for a run that was not given one; printed, so it can be given.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0, |d| d.as_nanos() as u64)
}

/// The formats of `check` and `fuzz`.
const FORMATS: &[(&str, Format)] = &[
    ("text", Format::Text),
    ("json", Format::Json),
    ("junit", Format::Junit),
];

const fn program(doc: &'static str) -> Opt {
    Opt::value("--program", "CMD", |d, v| {
        v.words().map(|w| d.program = Some(w))
    })
    .doc(doc)
}

const fn timeout(default: &'static str) -> Opt {
    Opt::value("--timeout", "SECS", |d, v| {
        v.timeout().map(|t| d.timeout = t)
    })
    .doc("kill a run still going after this long, at least 0.001")
    .preset(Preset::Value(default))
}

const JOBS: Opt = Opt::value("--jobs", "N", |d, v| v.jobs().map(|n| d.jobs = n))
    .doc("cases run at once, at most 256")
    .preset(Preset::Means("0", "twice the\nnumber of cores"));

const FORMAT: Opt = Opt::value("--format", "FORMAT", |d, v| {
    v.choice(FORMATS).map(|f| d.format = f)
})
.doc("text, junit (JUnit XML, for CI servers) or json")
.preset(Preset::Value("text"));

const MEMORY: Opt = Opt::value("--memory", "MIB", |d, v| {
    v.mib().map(|bytes| d.contain.memory = bytes)
})
.doc("kill the program when its processes hold more than\nthis many MiB of memory")
.preset(Preset::Value("512"));

const ISOLATE: Opt = Opt::flag("--isolate", |d| d.contain.isolate = true)
    .doc("refuse to run without bwrap's isolation");

/// `gomoku-mist check`.
pub static CHECK: Command<Draft, CheckOptions> = Command {
    name: "check",
    about: CHECK_ABOUT,
    arguments: Some("PATH"),
    column: 19,
    opts: &[
        program(
            "the program to check, with its arguments, split like a
shell would (quotes work) and run without one; a name
without a / is looked up on PATH, as a shell would
(./NAME for one in this folder)",
        )
        .preset(Preset::Said("this program")),
        timeout("10"),
        JOBS,
        FORMAT,
        MEMORY,
        ISOLATE,
    ],
    start,
    finish: |d, paths| {
        found(d.program.as_deref())?;
        Ok(CheckOptions {
            program: d.program,
            paths: paths.into_iter().map(PathBuf::from).collect(),
            timeout: d.timeout,
            jobs: d.jobs,
            read_args: d.read_args,
            format: d.format,
            contain: d.contain,
        })
    },
    help: std::sync::OnceLock::new(),
};

/// `gomoku-mist fuzz`.
pub static FUZZ: Command<Draft, FuzzOptions> = Command {
    name: "fuzz",
    about: FUZZ_ABOUT,
    arguments: None,
    column: 19,
    opts: &[
        program(
            "the program to test (required), split like a shell
would (quotes work) and run without one; a name without
a / is looked up on PATH (./NAME for one in this folder)",
        )
        .preset(Preset::Required),
        Opt::value("--seed", "N", |d, v| v.number().map(|n| d.seed = n))
            .doc("the same seed makes the same cases")
            .preset(Preset::Said("from the clock")),
        Opt::value("--cases", "N", |d, v| {
            v.number().map(|n| d.limit = Limit::Cases(n))
        })
        .doc("stop after N cases")
        .preset(Preset::Value("1000")),
        Opt::value("--time", "SECS", |d, v| {
            v.seconds(false).map(|t| d.limit = Limit::Time(t))
        })
        .doc(
            "stop after this long instead: the whole run, shrinking
and report included, ends within SECS and one --timeout",
        )
        .or("--cases"),
        Opt::value("--out", "DIR", |d, v| v.path().map(|p| d.out = p))
            .doc("where failing cases are written")
            .preset(Preset::Value("fuzz-failures")),
        timeout("5"),
        JOBS,
        FORMAT,
        Opt::flag("--assignment-only", |d| d.assignment_only = true).doc(
            "only sessions no decision of the contract governs:
printable ASCII, every line ended by a newline and at
most 64 bytes long, the last one `term` or the game's end",
        ),
        MEMORY,
        ISOLATE,
    ],
    start,
    finish: |d, _| {
        let program = d.program.unwrap_or_default();
        found(Some(&program))?;
        Ok(FuzzOptions {
            program,
            seed: d.seed,
            limit: d.limit,
            out_dir: d.out,
            timeout: d.timeout,
            jobs: d.jobs,
            shrink_budget: 3000,
            assignment_only: d.assignment_only,
            format: d.format,
            contain: d.contain,
        })
    },
    help: std::sync::OnceLock::new(),
};

/// `gomoku-mist cover`.
pub static COVER: Command<Draft, CoverOptions> = Command {
    name: "cover",
    about: COVER_ABOUT,
    arguments: Some("PATH"),
    column: 19,
    opts: &[
        Opt::value("--format", "FORMAT", |d, v| match v.choice(FORMATS)? {
            Format::Junit => Err(v.bad("is for check and fuzz only: cover writes text or json")),
            format => {
                d.format = format;
                Ok(())
            }
        })
        .doc("text or json")
        .preset(Preset::Value("text")),
    ],
    start,
    finish: |d, paths| {
        Ok(CoverOptions {
            paths: paths.into_iter().map(PathBuf::from).collect(),
            format: d.format,
            read_args: d.read_args,
        })
    },
    help: std::sync::OnceLock::new(),
};

/// The paragraph of `check`'s and `fuzz`'s help on how the program runs.
macro_rules! contained {
    () => {
        "\
The program runs contained: in a scratch folder of its own, removed after
each run, with only PATH, LANG, HOME and TMPDIR set (HOME and TMPDIR are
that folder), as a user of its own when this runs as root, and killed,
with the limit named, when its processes hold more than 512 MiB of
memory (--memory), when one uses more than 60 s of CPU time, when more
than 64 run at once, when it writes a file larger than 1 MiB or opens
more than 256 files. Where bwrap (bubblewrap) works it runs in a box:
no network, its own processes, and of the file system only the system's
folders and its program's, read-only, and its scratch folder.
"
    };
}

const CHECK_ABOUT: &str = concat!(
    "\n\
Runs every NAME.in under each PATH (a folder, searched recursively, or one
.in file) through a program, and compares its stdout, byte for byte, and
its exit code with NAME.out and NAME.code. Where those are missing, what
this program does is expected. A case with NAME.args (this program's
options, one a line) is skipped for any other program; so is one whose
.args run check or fuzz, and one that uses --cpu without --cpu-nodes but
lacks NAME.out or NAME.code (the computer's moves would depend on the
machine). So is a NAME.in that is not a plain file (a FIFO, a device), and
a case whose expected output the reference cannot work out in time.

Prints one line per case (pass, FAIL or skip), where each failure differs,
and `N passed, M failed` (`, K skipped`). A failure whose expected output
depends on a decision of the contract (where the assignment is silent:
end of input, a last line without a newline, odd bytes, ...) names it, so
\"wrong\" and \"decided differently\" can be told apart. Exit code 0 if all
pass, 1 if one fails or none was checked at all, 2 for a bad command line.

",
    contained!(),
    "\n",
);

const FUZZ_ABOUT: &str = concat!(
    "\n\
Makes random sessions aimed at where implementations break (wins along
edges and in corners, overlines, a full board, near-miss commands and
points, odd bytes, long lines, no final newline, no `term`), and compares
the program's stdout and exit code with this program's, for the whole
budget. Each disagreement is put on the line of the input that caused it
(the last line of the shortest start of the input that, followed by
`term`, still disagrees: a hang, a crash, a reply wrong, missing or one
too many) and named by the clause of the contract that line breaks (the
ids in brackets in the contract). Disagreements with one cause are one
group; one case of each group is shrunk, shown and written to DIR as
NAME.in, NAME.out and NAME.code, ready for `gomoku-mist check`. A program
that prints nothing at all is one finding. A case that disagrees once and
agrees when run again is reported as not reproducible, and not counted.
Groups of the assignment's rules come first, then this contract's
decisions. The last line is `N failures in K groups: A of the
assignment's rules, D of this contract's decisions`, or `0 failures`.

Exit code 0 if nothing disagrees, 1 if something does (or no case ran, or
DIR cannot be written), 2 for a bad command line.

",
    contained!(),
    "\n",
);

const COVER_ABOUT: &str = "\n\
Runs every NAME.in under each PATH (a folder, searched recursively, or one
.in file) through this program's reference, records what happened (which
replies, which kinds of invalid line, wins in which direction and on
which edge, the hole cut by which edge, how the session ended, ...), and
prints a table of scenarios, each tied to a clause of the contract: the
first case that covers it, or an input that would. The last line is
`covered X of Y scenarios`. Cases with NAME.args are not counted.

Exit code 0 if every scenario is covered, 1 if one is not (or no case
was read), 2 for a bad command line.

";
