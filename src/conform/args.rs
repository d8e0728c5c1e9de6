//! The command lines of `check` and `fuzz`, and running them: the one
//! entry point `main.rs` calls.
//!
//! The options are read by [`crate::cli::read`], so they keep the rules
//! every command of the program keeps (values as `--name value` or
//! `--name=value`, help winning wherever it stands before `--`, each
//! option at most once, errors naming their option); this module says
//! only which options there are and what their values mean.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

use super::split::{SplitError, split};
use super::{CheckOptions, ConformError, FuzzOptions, Limit, check, fuzz};
use crate::cli::{self, CliError, Early, Spec};
use crate::text;

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

const fn valued(long: &'static str, value: &'static str) -> Spec {
    Spec {
        long,
        short: None,
        value: Some(value),
    }
}

/// `-h`, `--help`.
const HELP: Spec = Spec {
    long: "--help",
    short: Some("-h"),
    value: None,
};

/// The options of `check`.
const CHECK: &[Spec] = &[
    valued("--program", "CMD"),
    valued("--timeout", "SECS"),
    valued("--jobs", "N"),
    HELP,
];

/// The options of `fuzz`.
const FUZZ: &[Spec] = &[
    valued("--program", "CMD"),
    valued("--seed", "N"),
    valued("--time", "SECS"),
    valued("--cases", "N"),
    valued("--out", "DIR"),
    valued("--timeout", "SECS"),
    valued("--jobs", "N"),
    HELP,
];

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

    const fn specs(self) -> &'static [Spec] {
        match self {
            Sub::Check => CHECK,
            Sub::Fuzz => FUZZ,
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
    /// Broken by the rules every command keeps, or a value that means
    /// nothing to its option.
    #[error(transparent)]
    Cli(#[from] CliError),
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
            let hint = text::usage_hint(&format!("gomoku-mist {}", sub.name()));
            let _ = writeln!(err, "{}{e}\n{hint}", text::ERROR_PREFIX);
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
            let _ = writeln!(err, "{}{e}", text::ERROR_PREFIX);
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
    if cli::early(args) == Some(Early::Help) {
        return Ok(Parsed::Help(sub.help()));
    }
    let given = cli::read(sub.specs(), args.to_vec())?;
    let program = match given.value("--program") {
        None => None,
        Some(line) => {
            let line = line.to_str().ok_or(ArgsError::ProgramNotUtf8)?;
            Some(split(line).map_err(ArgsError::Program)?)
        }
    };
    let timeout = given
        .value("--timeout")
        .map(|v| seconds(v, "--timeout"))
        .transpose()?;
    let jobs = match given
        .value("--jobs")
        .map(|v| number(v, "--jobs"))
        .transpose()?
    {
        // A run spends much of its time starting and waiting on pipes, so
        // one per core leaves the cores idle part of the time (measured:
        // 122% of two cores busy, against 178% with two per core).
        Some(0) | None => 2 * std::thread::available_parallelism().map_or(1, usize::from),
        Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
    };
    match sub {
        Sub::Check => {
            if given.arguments.is_empty() {
                return Err(ArgsError::NoPath);
            }
            Ok(Parsed::Check(CheckOptions {
                program,
                paths: given.arguments.iter().map(PathBuf::from).collect(),
                timeout: timeout.unwrap_or(Duration::from_secs(10)),
                jobs,
            }))
        }
        Sub::Fuzz => {
            if let Some(stray) = given.arguments.first() {
                return Err(CliError::UnexpectedArgument(stray.clone()).into());
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
                (Some(_), Some(_)) => return Err(ArgsError::TimeAndCases),
                (Some(t), None) => Limit::Time(t),
                (None, Some(n)) => Limit::Cases(n),
                (None, None) => Limit::Cases(1000),
            };
            let seed = given
                .value("--seed")
                .map(|v| number(v, "--seed"))
                .transpose()?;
            Ok(Parsed::Fuzz(FuzzOptions {
                program: program.ok_or(ArgsError::NoProgram)?,
                seed: seed.unwrap_or_else(clock_seed),
                limit,
                out_dir: given
                    .value("--out")
                    .map_or_else(|| PathBuf::from("fuzz-failures"), PathBuf::from),
                timeout: timeout.unwrap_or(Duration::from_secs(5)),
                jobs,
                shrink_budget: 3000,
            }))
        }
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

fn seconds(value: &OsStr, option: &'static str) -> Result<Duration, CliError> {
    value
        .to_str()
        .and_then(|t| t.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| CliError::BadValue {
            option,
            value: value.to_owned(),
            problem: "is not a number of seconds above 0",
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
