//! The command lines of `check` and `fuzz`: their options, what they mean,
//! and their help.
//!
//! The options are read by [`args::read`], so they keep the rules
//! every command of the program keeps (values as `--name value` or
//! `--name=value`, help winning wherever it stands before `--`, each
//! option at most once, errors naming their option); this module says
//! only which options there are and what their values mean.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::time::Duration;

use super::args::{self, CliError, HELP, Spec, VERSION};
use crate::conform::mark::MarkOptions;
use crate::conform::sandbox::Contain;
use crate::conform::split::split;
use crate::conform::{CheckOptions, CoverOptions, Format, FuzzOptions, Limit, MAX_JOBS, ReadArgs};

/// The longest time any option of the kit takes, in seconds: far beyond
/// any real run, and small enough that adding it to the clock cannot
/// overflow.
pub const MAX_SECONDS: f64 = 1_000_000.0;

/// The options of `check`.
const CHECK: &[Spec] = &[
    Spec::valued("--program", "CMD"),
    Spec::valued("--timeout", "SECS"),
    Spec::valued("--jobs", "N"),
    Spec::valued("--format", "FORMAT"),
    Spec::valued("--memory", "MIB"),
    Spec::flag("--isolate"),
    HELP,
    VERSION,
];

/// The most `--memory` takes, in MiB: a TiB.
pub const MAX_MEMORY_MIB: u64 = 1 << 20;

/// The options of `cover`.
const COVER: &[Spec] = &[Spec::valued("--format", "FORMAT"), HELP, VERSION];

/// The shortest `--timeout`: below it no program could even start, and a
/// run would report every case as hung.
const MIN_TIMEOUT: Duration = Duration::from_millis(1);

/// The options of `fuzz`.
const FUZZ: &[Spec] = &[
    Spec::valued("--program", "CMD"),
    Spec::valued("--seed", "N"),
    Spec::valued("--time", "SECS"),
    Spec::valued("--cases", "N"),
    Spec::valued("--out", "DIR"),
    Spec::valued("--timeout", "SECS"),
    Spec::valued("--jobs", "N"),
    Spec::valued("--format", "FORMAT"),
    Spec::flag("--assignment-only"),
    Spec::valued("--memory", "MIB"),
    Spec::flag("--isolate"),
    HELP,
    VERSION,
];

/// Which subcommand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sub {
    /// `check`.
    Check,
    /// `fuzz`.
    Fuzz,
    /// `cover`.
    Cover,
    /// `mark`.
    Mark,
}

impl Sub {
    /// Every subcommand, in the order the help lists them.
    pub const ALL: [Sub; 4] = [Sub::Check, Sub::Fuzz, Sub::Cover, Sub::Mark];

    /// The subcommand named `name`, if it is one.
    pub fn from_name(name: &OsString) -> Option<Sub> {
        match name.to_str()? {
            "check" => Some(Sub::Check),
            "fuzz" => Some(Sub::Fuzz),
            "cover" => Some(Sub::Cover),
            "mark" => Some(Sub::Mark),
            _ => None,
        }
    }

    /// The subcommand's name.
    pub const fn name(self) -> &'static str {
        match self {
            Sub::Check => "check",
            Sub::Fuzz => "fuzz",
            Sub::Cover => "cover",
            Sub::Mark => "mark",
        }
    }

    /// How it is invoked, as its usage errors name it.
    pub const fn command(self) -> &'static str {
        match self {
            Sub::Check => "gomoku-mist check",
            Sub::Fuzz => "gomoku-mist fuzz",
            Sub::Cover => "gomoku-mist cover",
            Sub::Mark => "gomoku-mist mark",
        }
    }

    /// The subcommand's `--help`.
    pub const fn help(self) -> &'static str {
        match self {
            Sub::Check => CHECK_HELP,
            Sub::Fuzz => FUZZ_HELP,
            Sub::Cover => COVER_HELP,
            Sub::Mark => super::mark::HELP_TEXT,
        }
    }

    const fn specs(self) -> &'static [Spec] {
        match self {
            Sub::Check => CHECK,
            Sub::Fuzz => FUZZ,
            Sub::Cover => COVER,
            Sub::Mark => super::mark::SPECS,
        }
    }
}

/// What a command line asks for.
#[derive(Debug)]
pub enum Parsed {
    /// Run `check`.
    Check(CheckOptions),
    /// Run `fuzz`.
    Fuzz(FuzzOptions),
    /// Run `cover`.
    Cover(CoverOptions),
    /// Run `mark`.
    Mark(Box<MarkOptions>),
}

/// Reads the arguments after `check` or `fuzz`; `read_args` is how the
/// reference reads a case's `.args`.
///
/// # Errors
///
/// [`CliError`] names the first problem found.
pub fn parse(sub: Sub, args: &[OsString], read_args: ReadArgs) -> Result<Parsed, CliError> {
    // `--help` and `--version`, which win over any mistake, were looked for
    // by the caller. `mark`'s options are many and its own: read by their
    // own module, before the others' are looked for.
    if sub == Sub::Mark {
        return super::mark::parse(args, read_args).map(|o| Parsed::Mark(Box::new(o)));
    }
    let given = args::read(sub.specs(), args.to_vec())?;
    let program = match given.value("--program") {
        None => None,
        Some(line) => {
            let invalid = |reason: String| CliError::Invalid {
                option: "--program",
                value: line.to_owned(),
                reason,
            };
            let text = line.to_str().ok_or_else(|| invalid("not UTF-8".into()))?;
            Some(split(text).map_err(|e| invalid(e.to_string()))?)
        }
    };
    let timeout = given.value("--timeout").map(read_timeout).transpose()?;
    let format = given.value("--format").map(format).transpose()?;
    let mut contain = Contain {
        isolate: given.flag("--isolate"),
        ..Contain::default()
    };
    if let Some(mib) = given.value("--memory") {
        contain.memory = number(mib, "--memory")
            .ok()
            .filter(|n| (1..=MAX_MEMORY_MIB).contains(n))
            .ok_or_else(|| CliError::BadValue {
                option: "--memory",
                value: mib.to_owned(),
                problem: "is not a number of MiB from 1 to 1048576",
            })?
            << 20;
    }
    let jobs = match given.value("--jobs").map(jobs).transpose()? {
        // A run spends much of its time starting and waiting on pipes, so
        // one per core leaves the cores idle part of the time (measured:
        // 122% of two cores busy, against 178% with two per core).
        Some(0) | None => {
            (2 * std::thread::available_parallelism().map_or(1, usize::from)).min(MAX_JOBS)
        }
        Some(n) => n,
    };
    match sub {
        Sub::Check => {
            if given.arguments.is_empty() {
                return Err(CliError::MissingArgument("PATH"));
            }
            Ok(Parsed::Check(CheckOptions {
                program,
                paths: given.arguments.iter().map(PathBuf::from).collect(),
                timeout: timeout.unwrap_or(Duration::from_secs(10)),
                jobs,
                read_args,
                format: format.unwrap_or(Format::Text),
                contain,
            }))
        }
        Sub::Cover => {
            if given.arguments.is_empty() {
                return Err(CliError::MissingArgument("PATH"));
            }
            let format = match format {
                Some(Format::Junit) => {
                    return Err(CliError::BadValue {
                        option: "--format",
                        value: "junit".into(),
                        problem: "is for check and fuzz only: cover writes text or json",
                    });
                }
                other => other.unwrap_or(Format::Text),
            };
            Ok(Parsed::Cover(CoverOptions {
                paths: given.arguments.iter().map(PathBuf::from).collect(),
                format,
                read_args,
            }))
        }
        Sub::Mark => super::mark::parse(args, read_args).map(|o| Parsed::Mark(Box::new(o))),
        Sub::Fuzz => {
            if let Some(stray) = given.arguments.first() {
                return Err(CliError::UnexpectedArgument(stray.clone()));
            }
            let time = given
                .value("--time")
                .map(|v| seconds(v, "--time"))
                .transpose()?;
            let cases = given
                .value("--cases")
                .map(|v| number(v, "--cases"))
                .transpose()?;
            let limit = match (time, cases) {
                (Some(_), Some(_)) => return Err(CliError::Exclusive("--time", "--cases")),
                (Some(t), None) => Limit::Time(t),
                (None, Some(n)) => Limit::Cases(n),
                (None, None) => Limit::Cases(1000),
            };
            let seed = given
                .value("--seed")
                .map(|v| number(v, "--seed"))
                .transpose()?;
            Ok(Parsed::Fuzz(FuzzOptions {
                program: program.ok_or(CliError::Required("--program"))?,
                seed: seed.unwrap_or_else(clock_seed),
                limit,
                out_dir: given
                    .value("--out")
                    .map_or_else(|| PathBuf::from("fuzz-failures"), PathBuf::from),
                timeout: timeout.unwrap_or(Duration::from_secs(5)),
                jobs,
                shrink_budget: 3000,
                assignment_only: given.flag("--assignment-only"),
                format: format.unwrap_or(Format::Text),
                contain,
            }))
        }
    }
}

fn format(value: &OsStr) -> Result<Format, CliError> {
    match value.to_str() {
        Some("text") => Ok(Format::Text),
        Some("json") => Ok(Format::Json),
        Some("junit") => Ok(Format::Junit),
        _ => Err(CliError::BadValue {
            option: "--format",
            value: value.to_owned(),
            problem: "is not text, json or junit",
        }),
    }
}

fn number(value: &OsStr, option: &'static str) -> Result<u64, CliError> {
    value
        .to_str()
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| CliError::BadValue {
            option,
            value: value.to_owned(),
            problem: "is not a number",
        })
}

/// A `--jobs` value: refused above [`MAX_JOBS`] rather than clamped, so a
/// typo is seen rather than silently changed.
fn jobs(value: &OsStr) -> Result<usize, CliError> {
    number(value, "--jobs").and_then(|n| {
        usize::try_from(n)
            .ok()
            .filter(|n| *n <= MAX_JOBS)
            .ok_or_else(|| CliError::BadValue {
                option: "--jobs",
                value: value.to_owned(),
                problem: "is not a number from 0 to 256",
            })
    })
}

/// A `--timeout`'s value: `check`, `fuzz` and `mark` read theirs here, so
/// that each refuses the same values in the same words.
///
/// # Errors
///
/// [`CliError::BadValue`] for a value that is not a number of seconds in
/// range, or is below [`MIN_TIMEOUT`].
pub fn read_timeout(value: &OsStr) -> Result<Duration, CliError> {
    let timeout = seconds(value, "--timeout")?;
    if timeout < MIN_TIMEOUT {
        return Err(CliError::BadValue {
            option: "--timeout",
            value: value.to_owned(),
            problem: "is below a millisecond: no program starts that fast",
        });
    }
    Ok(timeout)
}

fn seconds(value: &OsStr, option: &'static str) -> Result<Duration, CliError> {
    value
        .to_str()
        .and_then(|t| t.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= MAX_SECONDS)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| CliError::BadValue {
            option,
            value: value.to_owned(),
            problem: "is not a number of seconds from above 0 to 1000000",
        })
}

/// A seed for a run that was not given one; printed, so it can be given.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0, |d| d.as_nanos() as u64)
}

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

/// `gomoku-mist check --help`.
pub const CHECK_HELP: &str = concat!(
    "\
Usage: gomoku-mist check [--program CMD] [--timeout SECS] [--jobs N]
                         [--format FORMAT] [--memory MIB] [--isolate]
                         PATH...

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
    "
Options:
  --program CMD    the program to check, with its arguments, split like a
                   shell would (quotes work) and run without one; a name
                   without a / is looked up on PATH, as a shell would
                   (./NAME for one in this folder) [default: this program]
  --timeout SECS   kill a run still going after this long, at least 0.001
                   [default: 10]
  --jobs N         cases run at once, at most 256 [default: twice the
                   number of cores]
  --format FORMAT  text, junit (JUnit XML, for CI servers) or json
                   [default: text]
  --memory MIB     kill the program when its processes hold more than
                   this many MiB of memory [default: 512]
  --isolate        refuse to run without bwrap's isolation
  -h, --help       print this help
  -V, --version    print the version
"
);

/// `gomoku-mist fuzz --help`.
pub const FUZZ_HELP: &str = concat!(
    "\
Usage: gomoku-mist fuzz --program CMD [--seed N] [--time SECS | --cases N]
                        [--out DIR] [--timeout SECS] [--jobs N]
                        [--format FORMAT] [--assignment-only] [--memory MIB]
                        [--isolate]

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
    "
Options:
  --program CMD    the program to test (required), split like a shell
                   would (quotes work) and run without one; a name without
                   a / is looked up on PATH (./NAME for one in this folder)
  --seed N         the same seed makes the same cases [default: from the clock]
  --cases N        stop after N cases [default: 1000]
  --time SECS      stop after this long instead: the whole run, shrinking
                   and report included, ends within SECS and one --timeout
  --out DIR        where failing cases are written [default: fuzz-failures]
  --timeout SECS   kill a run still going after this long, at least 0.001
                   [default: 5]
  --jobs N         cases run at once, at most 256 [default: twice the
                   number of cores]
  --format FORMAT  text, junit (JUnit XML, for CI servers) or json
                   [default: text]
  --assignment-only
                   only sessions no decision of the contract governs:
                   printable ASCII, every line ended by a newline and at
                   most 64 bytes long, the last one `term` or the game's end
  --memory MIB     kill the program when its processes hold more than
                   this many MiB of memory [default: 512]
  --isolate        refuse to run without bwrap's isolation
  -h, --help       print this help
  -V, --version    print the version
"
);

/// `gomoku-mist cover --help`.
pub const COVER_HELP: &str = "\
Usage: gomoku-mist cover [--format FORMAT] PATH...

Runs every NAME.in under each PATH (a folder, searched recursively, or one
.in file) through this program's reference, records what happened (which
replies, which kinds of invalid line, wins in which direction and on
which edge, the hole cut by which edge, how the session ended, ...), and
prints a table of scenarios, each tied to a clause of the contract: the
first case that covers it, or an input that would. The last line is
`covered X of Y scenarios`. Cases with NAME.args are not counted.

Exit code 0 if every scenario is covered, 1 if one is not (or no case
was read), 2 for a bad command line.

Options:
  --format FORMAT  text or json [default: text]
  -h, --help       print this help
  -V, --version    print the version
";

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_strs(sub: Sub, args: &[&str]) -> Result<Parsed, CliError> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        parse(sub, &args, crate::cli::setup)
    }

    #[test]
    fn errors_name_their_option() {
        let cases: &[(Sub, &[&str], &str)] = &[
            (
                Sub::Fuzz,
                &["--program", "p", "--seed", "abc"],
                "--seed: \"abc\" is not a number",
            ),
            (
                Sub::Fuzz,
                &["--program", "p", "--seed=1", "--seed", "2"],
                "--seed is given more than once",
            ),
            (
                Sub::Fuzz,
                &["--program", "p", "--time", "1", "--cases", "2"],
                "--time and --cases cannot both be given",
            ),
            (Sub::Fuzz, &["--seed", "1"], "--program is required"),
            (
                Sub::Fuzz,
                &["--program", "'p"],
                "--program: \"'p\": a single quote is not closed",
            ),
            (
                Sub::Fuzz,
                &["--program", "p", "--timeout", "0"],
                "--timeout: \"0\" is not a number of seconds from above 0 to 1000000",
            ),
            (
                Sub::Check,
                &["--timeout", "1e19", "d"],
                "--timeout: \"1e19\" is not a number of seconds from above 0 to 1000000",
            ),
            (
                Sub::Fuzz,
                &["--program", "p", "--timeout=1000000.5"],
                "--timeout: \"1000000.5\" is not a number of seconds from above 0 to 1000000",
            ),
            (
                Sub::Fuzz,
                &["--program", "p", "--time", "1e300"],
                "--time: \"1e300\" is not a number of seconds from above 0 to 1000000",
            ),
            (
                Sub::Fuzz,
                &["--program", "p", "--jobs", "100000000"],
                "--jobs: \"100000000\" is not a number from 0 to 256",
            ),
            (
                Sub::Check,
                &["--jobs=257", "d"],
                "--jobs: \"257\" is not a number from 0 to 256",
            ),
            (Sub::Check, &[], "no PATH given"),
            (
                Sub::Check,
                &["--seed", "1", "x"],
                "unknown option \"--seed\"",
            ),
            (
                Sub::Check,
                &["--timeout"],
                "--timeout needs a value: --timeout <SECS>",
            ),
            (
                Sub::Check,
                &["--help=x", "p"],
                "--help takes no value, but was given \"x\"",
            ),
            (
                Sub::Fuzz,
                &["--program", "p", "stray"],
                "unexpected argument \"stray\"",
            ),
        ];
        for (sub, args, want) in cases {
            match parse_strs(*sub, args) {
                Err(e) => assert_eq!(e.to_string(), *want, "{sub:?} {args:?}"),
                Ok(parsed) => panic!("{sub:?} {args:?} parsed as {parsed:?}"),
            }
        }
    }

    #[test]
    fn after_dashes_help_is_a_path() {
        let path = parse_strs(Sub::Check, &["--", "-h"]);
        assert!(
            matches!(&path, Ok(Parsed::Check(o)) if o.paths == [PathBuf::from("-h")]),
            "{path:?}"
        );
    }

    #[test]
    fn fuzz_values_both_ways() {
        let parsed = parse_strs(
            Sub::Fuzz,
            &[
                "--program=./a.out -x",
                "--seed",
                "7",
                "--time=2.5",
                "--out",
                "d",
            ],
        );
        let Ok(Parsed::Fuzz(opts)) = parsed else {
            panic!("{parsed:?}");
        };
        assert_eq!(
            opts.program,
            [OsString::from("./a.out"), OsString::from("-x")]
        );
        assert_eq!(opts.seed, 7);
        assert_eq!(opts.limit, Limit::Time(Duration::from_millis(2500)));
        assert_eq!(opts.out_dir, PathBuf::from("d"));
    }
}
