//! The command lines of `check` and `fuzz`, and running them: the one
//! entry point `main.rs` calls.
//!
//! Rules (shared with the rest of the program's options): `--name value`
//! or `--name=value`; `-h`/`--help` anywhere before `--` prints the help,
//! even if other arguments are wrong; an option given twice is an error;
//! every error names its option.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use lexopt::prelude::*;
use thiserror::Error;

use super::split::{SplitError, split};
use super::{CheckOptions, ConformError, FuzzOptions, Limit, check, fuzz};

/// A command line that cannot be followed: exit code 2.
pub const USAGE_ERROR: u8 = 2;

/// `gomoku-mist check --help`.
pub const CHECK_HELP: &str = "\
Usage: gomoku-mist check [--program CMD] [--timeout SECS] [--jobs N] PATH...

Runs every NAME.in under each PATH (a folder, searched recursively, or one
.in file) through a program, and compares its stdout, byte for byte, and
its exit code with NAME.out and NAME.code. Where those are missing, what
this program does is expected. A case with NAME.args (this program's
options, one a line) is skipped for any other program.

Prints one line per case (pass, FAIL or skip), where each failure differs,
and `N passed, M failed` (`, K skipped`). Exit code 0 if all pass, 1 if
not, 2 for a bad command line.

Options:
  --program CMD    the program to check, with its arguments, split like a
                   shell would (quotes work) and run without one
                   [default: this program]
  --timeout SECS   kill a run still going after this long [default: 10]
  --jobs N         cases run at once [default: twice the number of cores]
  -h, --help       print this help
";

/// `gomoku-mist fuzz --help`.
pub const FUZZ_HELP: &str = "\
Usage: gomoku-mist fuzz --program CMD [--seed N] [--time SECS | --cases N]
                        [--out DIR] [--timeout SECS] [--jobs N]

Makes random sessions aimed at where implementations break (wins along
edges and in corners, overlines, a full board, near-miss commands and
points, odd bytes, long lines, no final newline, no `term`), and compares
the program's stdout and exit code with this program's. The first
disagreement is shrunk to a small input, shown, and written to DIR as
NAME.in, NAME.out and NAME.code, ready for `gomoku-mist check`.

Exit code 0 if nothing disagrees, 1 if something does, 2 for a bad command
line.

Options:
  --program CMD    the program to test (required), split like a shell
                   would (quotes work) and run without one
  --seed N         the same seed makes the same cases [default: from the clock]
  --cases N        stop after N cases [default: 1000]
  --time SECS      stop after this long instead
  --out DIR        where a failing case is written [default: fuzz-failures]
  --timeout SECS   kill a run still going after this long [default: 5]
  --jobs N         cases run at once [default: twice the number of cores]
  -h, --help       print this help
";

/// Which subcommand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sub {
    /// `check`.
    Check,
    /// `fuzz`.
    Fuzz,
}

impl Sub {
    /// The subcommand named `name`, if it is one.
    pub fn from_name(name: &OsString) -> Option<Sub> {
        match name.to_str()? {
            "check" => Some(Sub::Check),
            "fuzz" => Some(Sub::Fuzz),
            _ => None,
        }
    }

    const fn name(self) -> &'static str {
        match self {
            Sub::Check => "check",
            Sub::Fuzz => "fuzz",
        }
    }

    const fn help(self) -> &'static str {
        match self {
            Sub::Check => CHECK_HELP,
            Sub::Fuzz => FUZZ_HELP,
        }
    }
}

/// What a command line asks for.
#[derive(Debug)]
pub enum Parsed {
    /// Print this help.
    Help(&'static str),
    /// Run `check`.
    Check(CheckOptions),
    /// Run `fuzz`.
    Fuzz(FuzzOptions),
}

/// A command line that cannot be followed.
#[derive(Debug, Error)]
pub enum ArgsError {
    /// Not an option we know, a missing value, a value for a flag.
    #[error("{0}")]
    Syntax(#[from] lexopt::Error),
    /// An option given twice.
    #[error("{0} is given more than once")]
    Repeated(&'static str),
    /// A value that is not a number of the right kind.
    #[error("{option}: {value:?} is not {what}")]
    NotANumber {
        /// The option.
        option: &'static str,
        /// Its value as given.
        value: String,
        /// What it should be.
        what: &'static str,
    },
    /// `--program` that cannot be split into words.
    #[error("--program: {0}")]
    Program(SplitError),
    /// `--program` that is not UTF-8.
    #[error("--program: not valid UTF-8")]
    ProgramNotUtf8,
    /// Both `--time` and `--cases`.
    #[error("--time and --cases cannot both be given")]
    TimeAndCases,
    /// `fuzz` without `--program`.
    #[error("--program is required")]
    NoProgram,
    /// `check` without a path.
    #[error("no PATH given")]
    NoPath,
}

/// Runs the subcommand if `args` (the arguments after the program name)
/// start with `check` or `fuzz`, and returns the exit code; `None` if they
/// do not. The report goes to `out`, a usage error to `err`.
pub fn main(args: &[OsString], out: &mut dyn Write, err: &mut dyn Write) -> Option<u8> {
    let (first, rest) = args.split_first()?;
    let sub = Sub::from_name(first)?;
    let parsed = match parse(sub, rest) {
        Ok(parsed) => parsed,
        Err(e) => {
            let _ = writeln!(
                err,
                "gomoku-mist: {e}\nTry 'gomoku-mist {} --help' for more information.",
                sub.name()
            );
            return Some(USAGE_ERROR);
        }
    };
    let result = match parsed {
        Parsed::Help(text) => {
            return Some(
                match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                    Ok(()) => 0,
                    Err(_) => 1,
                },
            );
        }
        Parsed::Check(opts) => check(&opts, out),
        Parsed::Fuzz(opts) => fuzz(&opts, out),
    };
    Some(match result {
        Ok(outcome) => outcome.exit_code(),
        // A reader that has gone away, as `| head` does, is a normal end.
        Err(ConformError::Report(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => 1,
        Err(e) => {
            let _ = writeln!(err, "gomoku-mist: {e}");
            USAGE_ERROR
        }
    })
}

/// Reads the arguments after `check` or `fuzz`.
///
/// # Errors
///
/// [`ArgsError`] names the first problem found.
pub fn parse(sub: Sub, args: &[OsString]) -> Result<Parsed, ArgsError> {
    // Help wins over any other mistake, so it is looked for first.
    let before_dashes = args.iter().take_while(|a| *a != "--");
    if before_dashes
        .into_iter()
        .any(|a| a == "-h" || a == "--help")
    {
        return Ok(Parsed::Help(sub.help()));
    }
    let mut parser = lexopt::Parser::from_args(args.iter().cloned());
    let mut program = None;
    let mut timeout = None;
    let mut jobs = None;
    let mut seed = None;
    let mut time = None;
    let mut cases = None;
    let mut out_dir = None;
    let mut paths = Vec::new();
    while let Some(arg) = parser.next()? {
        match arg {
            // Only `--help=…` gets here (a bare one was found above): the
            // value left unread makes the next call fail, naming it.
            Short('h') | Long("help") => {}
            Long("program") => {
                let value = parser.value()?;
                let line = value.to_str().ok_or(ArgsError::ProgramNotUtf8)?;
                let words = split(line).map_err(ArgsError::Program)?;
                once(&mut program, words, "--program")?;
            }
            Long("timeout") => once(
                &mut timeout,
                seconds(parser.value()?, "--timeout")?,
                "--timeout",
            )?,
            Long("jobs") => once(&mut jobs, number(parser.value()?, "--jobs")?, "--jobs")?,
            Long("seed") if sub == Sub::Fuzz => {
                once(&mut seed, number(parser.value()?, "--seed")?, "--seed")?
            }
            Long("time") if sub == Sub::Fuzz => {
                once(&mut time, seconds(parser.value()?, "--time")?, "--time")?
            }
            Long("cases") if sub == Sub::Fuzz => {
                once(&mut cases, number(parser.value()?, "--cases")?, "--cases")?
            }
            Long("out") if sub == Sub::Fuzz => {
                once(&mut out_dir, PathBuf::from(parser.value()?), "--out")?
            }
            Value(path) if sub == Sub::Check => paths.push(PathBuf::from(path)),
            _ => return Err(arg.unexpected().into()),
        }
    }
    let jobs = match jobs {
        // A run spends much of its time starting and waiting on pipes, so
        // one per core leaves the cores idle part of the time (measured:
        // 122% of two cores busy, against 178% with two per core).
        Some(0) | None => 2 * std::thread::available_parallelism().map_or(1, usize::from),
        Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
    };
    match sub {
        Sub::Check => {
            if paths.is_empty() {
                return Err(ArgsError::NoPath);
            }
            Ok(Parsed::Check(CheckOptions {
                program,
                paths,
                timeout: timeout.unwrap_or(Duration::from_secs(10)),
                jobs,
            }))
        }
        Sub::Fuzz => {
            let limit = match (time, cases) {
                (Some(_), Some(_)) => return Err(ArgsError::TimeAndCases),
                (Some(t), None) => Limit::Time(t),
                (None, Some(n)) => Limit::Cases(n),
                (None, None) => Limit::Cases(1000),
            };
            Ok(Parsed::Fuzz(FuzzOptions {
                program: program.ok_or(ArgsError::NoProgram)?,
                seed: seed.unwrap_or_else(clock_seed),
                limit,
                out_dir: out_dir.unwrap_or_else(|| PathBuf::from("fuzz-failures")),
                timeout: timeout.unwrap_or(Duration::from_secs(5)),
                jobs,
                shrink_budget: 3000,
            }))
        }
    }
}

fn once<T>(slot: &mut Option<T>, value: T, option: &'static str) -> Result<(), ArgsError> {
    match slot.replace(value) {
        Some(_) => Err(ArgsError::Repeated(option)),
        None => Ok(()),
    }
}

fn number(value: OsString, option: &'static str) -> Result<u64, ArgsError> {
    let text = value.to_string_lossy();
    text.parse().map_err(|_| ArgsError::NotANumber {
        option,
        value: text.into_owned(),
        what: "a number",
    })
}

fn seconds(value: OsString, option: &'static str) -> Result<Duration, ArgsError> {
    let text = value.to_string_lossy();
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| ArgsError::NotANumber {
            option,
            value: text.into_owned(),
            what: "a number of seconds above 0",
        })
}

/// A seed for a run that was not given one; printed, so it can be given.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_strs(sub: Sub, args: &[&str]) -> Result<Parsed, ArgsError> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        parse(sub, &args)
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
                "--program: a single quote is not closed",
            ),
            (
                Sub::Fuzz,
                &["--program", "p", "--timeout", "0"],
                "--timeout: \"0\" is not a number of seconds above 0",
            ),
            (Sub::Check, &[], "no PATH given"),
            (Sub::Check, &["--seed", "1", "x"], "invalid option '--seed'"),
            (
                Sub::Check,
                &["--timeout"],
                "missing argument for option '--timeout'",
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
    fn help_wins_before_dashes_only() {
        let help = parse_strs(Sub::Fuzz, &["--seed", "x", "--help"]);
        assert!(matches!(help, Ok(Parsed::Help(FUZZ_HELP))), "{help:?}");
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
