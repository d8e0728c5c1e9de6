//! The command line: one set of rules for every command and option.
//! Without options the program keeps the [contract](crate::rules::contract)
//! exactly.
//!
//! | rule | what happens |
//! |---|---|
//! | a value | `--rule exact` or `--rule=exact`; the next argument is taken whatever it looks like |
//! | a flag | takes no value: `--board=yes` and `--help=foo` are errors |
//! | short forms | only `-h` and `-V`, alone: `-hx` is an error |
//! | `-h`, `--help`, `-V`, `--version` | win wherever they stand before `--`, even over an error elsewhere; the first of them decides |
//! | an option given twice | an error, for every option and flag alike |
//! | `--` | ends the options: what follows is an argument |
//! | a subcommand | only as the first argument |
//! | an error | names the option or argument it is about, with its bytes escaped and a long value cut |
//!
//! The parser is ours rather than a framework's: the rules above and the
//! one-line, escaped error reports are the contract of this module, and a
//! framework's own rules and multi-line reports would have to be undone
//! case by case. Parsing is a few comparisons per argument, so it costs
//! nothing at start-up.

//!
//! - [`args`]: the rules above, for any list of options: the leaf every
//!   command's options build on (the conformance kit's too). It knows no
//!   command, nor the program's name.
//! - [`table`]: a command as one table, each option with its value's name,
//!   help, default and parser; the help made from it. [`values`]: those
//!   parsers, each written once whichever command uses it.
//! - [`play`]: the game's options and help.
//! - [`kit`]: the tables of `check`, `fuzz` and `cover`.
//! - [`mark`]: the table of `mark`.
//!
//! This module only sends the line to the command it names, so it is the
//! one place that knows every command and the program's name: it sits
//! above the shells it starts. `help [SUBCOMMAND]` is `--help` by another
//! name.

pub mod args;
pub mod kit;
pub mod mark;
pub mod play;
pub mod table;
pub mod values;

use std::ffi::OsString;

use thiserror::Error;

pub use args::{CliError, Spec};
pub use play::Play;

use crate::conform::mark::MarkOptions;
use crate::conform::{CheckOptions, CoverOptions, FuzzOptions, Invocation};
use crate::controller::text;
use args::{Early, early};
use table::Table;

/// The program's name, as its help and its usage errors give it.
const PROGRAM: &str = "gomoku-mist";

/// A subcommand's table, and what it reads a command line as.
type Subcommand = (
    &'static dyn Table,
    fn(&[OsString]) -> Result<Action, CliError>,
);

/// The subcommands, in the order the help lists them.
static SUBCOMMANDS: [Subcommand; 4] = [
    (&kit::CHECK, |a| {
        kit::CHECK.parse(a, setup).map(Action::Check)
    }),
    (&kit::FUZZ, |a| kit::FUZZ.parse(a, setup).map(Action::Fuzz)),
    (&kit::COVER, |a| {
        kit::COVER.parse(a, setup).map(Action::Cover)
    }),
    (&mark::MARK, |a| {
        mark::parse(a, setup).map(|o| Action::Mark(Box::new(o)))
    }),
];

/// The subcommand called `name`, if there is one.
fn subcommand(name: &OsString) -> Option<&'static Subcommand> {
    (SUBCOMMANDS.iter()).find(|(table, _)| name.to_str() == Some(table.name()))
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Action {
    /// Print this help text.
    Help(&'static str),
    /// Print the version line.
    Version,
    /// Play a game (boxed: a board is large beside the other variants).
    Play(Box<Play>),
    /// `gomoku-mist check`: check a program against cases.
    Check(CheckOptions),
    /// `gomoku-mist fuzz`: compare a program with this one.
    Fuzz(FuzzOptions),
    /// `gomoku-mist cover`: which scenarios cases exercise.
    Cover(CoverOptions),
    /// `gomoku-mist mark`: mark C submissions.
    Mark(Box<MarkOptions>),
}

/// A command line that cannot be followed, and the command it was for.
#[derive(Debug, Error)]
#[error("{error}")]
pub struct UsageError {
    /// How the command is invoked, e.g. `gomoku-mist`: the hint names it.
    pub command: String,
    /// What is wrong.
    pub error: CliError,
}

impl UsageError {
    /// The line printed after the error.
    pub fn hint(&self) -> String {
        text::usage_hint(&self.command)
    }
}

/// Reads the arguments after the program name.
///
/// # Errors
///
/// [`UsageError`] names the first problem found.
pub fn parse<I>(args: I) -> Result<Action, UsageError>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    if args.first().is_some_and(|first| first == "help") {
        return help(&args[1..]);
    }
    let sub = args.first().and_then(subcommand);
    let (command, help, args) = match sub {
        Some((table, _)) => (
            format!("{PROGRAM} {}", table.name()),
            table.help(PROGRAM),
            &args[1..],
        ),
        None => (PROGRAM.to_owned(), play::HELP, &args[..]),
    };
    match early(args) {
        Some(Early::Help) => return Ok(Action::Help(help)),
        Some(Early::Version) => return Ok(Action::Version),
        None => {}
    }
    let action = match sub {
        None => play::parse(args.to_vec()).map(|play| Action::Play(Box::new(play))),
        Some((_, parse)) => parse(args),
    };
    action.map_err(|error| usage_error(command, error))
}

/// A usage error of `command`; a subcommand's name where an argument
/// stands is said to come first.
fn usage_error(command: String, error: CliError) -> UsageError {
    let error = match error {
        CliError::UnexpectedArgument(name) if name == "help" || subcommand(&name).is_some() => {
            let usage = format!("{PROGRAM} {}", name.to_string_lossy());
            CliError::NotFirst(name, usage)
        }
        error => error,
    };
    UsageError { command, error }
}

/// `gomoku-mist help [SUBCOMMAND]`: the help `--help` prints, of the
/// program or of the subcommand named. `-h` and `-V` win here as
/// everywhere.
fn help(args: &[OsString]) -> Result<Action, UsageError> {
    match early(args) {
        Some(Early::Help) => return Ok(Action::Help(play::HELP)),
        Some(Early::Version) => return Ok(Action::Version),
        None => {}
    }
    // Its errors send the reader to the program's help, which lists the
    // subcommands.
    let error = |error| Err(usage_error(PROGRAM.to_owned(), error));
    match args {
        [] => Ok(Action::Help(play::HELP)),
        [topic] if topic == "help" => Ok(Action::Help(play::HELP)),
        [topic] => match subcommand(topic) {
            Some((table, _)) => Ok(Action::Help(table.help(PROGRAM))),
            None => {
                let known = SUBCOMMANDS.iter().map(|(table, _)| table.name());
                error(CliError::UnknownSubcommand(topic.clone(), known.collect()))
            }
        },
        [_, stray, ..] => error(CliError::UnexpectedArgument(stray.clone())),
    }
}

/// What a case's `.args` (this program's options) ask the reference of the
/// conformance kit to do: the kit is handed this function, so that it
/// reads the game's options without knowing them.
pub fn setup(args: &[OsString]) -> Invocation {
    match parse(args.iter().cloned()) {
        Ok(Action::Play(play)) => Invocation::Play {
            game: Box::new(play.game),
            settings: play.settings,
            cpu: play.cpu,
        },
        Ok(Action::Help(help)) => Invocation::Print(help),
        Ok(Action::Version) => Invocation::Print(text::VERSION),
        // A case does not run the kit itself; a usage error's message goes
        // to stderr, which is not compared.
        Ok(Action::Check(_) | Action::Fuzz(_) | Action::Cover(_) | Action::Mark(_)) | Err(_) => {
            Invocation::Refuse
        }
    }
}

#[cfg(test)]
mod tests {
    use super::args::SHOWN_MAX;
    use super::*;

    /// What `line`, split at spaces, asks for.
    fn action(line: &str) -> Action {
        parse(line.split_whitespace()).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    /// The error of `line`, split at spaces.
    fn error(line: &str) -> String {
        said(line.split_whitespace())
    }

    fn said<S: Into<OsString>>(args: impl IntoIterator<Item = S>) -> String {
        parse(args).map_or_else(|e| e.to_string(), |a| panic!("accepted: {a:?}"))
    }

    /// One command line a line, split at spaces, and its error.
    const ERRORS: &str = r#"
-- --help => unexpected argument "--help"
help bogus => no subcommand "bogus" (help knows check, fuzz, cover, mark)
help check fuzz => unexpected argument "fuzz" (a subcommand comes first: gomoku-mist fuzz …)
--board help => unexpected argument "help" (a subcommand comes first: gomoku-mist help …)
--board=yes => --board takes no value, but was given "yes"
--help=foo => --help takes no value, but was given "foo"
-hx => -h takes no value, but was given "x"
--board= => --board takes no value, but was given ""
--board --board => --board is given more than once
--rule=exact --rule exact => --rule is given more than once
--moves= --moves= => --moves is given more than once
--bogus => unknown option "--bogus"
--bord => unknown option "--bord" (did you mean --board?)
--Rule=x => unknown option "--Rule" (did you mean --rule?)
-x => unknown option "-x"
-xyz => unknown option "-xyz"
--rule => --rule needs a value: --rule <RULE>
game.in => unexpected argument "game.in"
- => unexpected argument "-"
--rule --board => --rule: "--board" is not a rule (use freestyle, exact, caro or renju)
--cpu white --level 3 --cpu-time 5 => --level and --cpu-time cannot both be given
--cpu-nodes=9 --cpu white --level 3 => --level and --cpu-nodes cannot both be given
fuzz --program p --seed abc => --seed: "abc" is not a number
fuzz --program p --seed=1 --seed 2 => --seed is given more than once
fuzz --program p --time 1 --cases 2 => --time and --cases cannot both be given
fuzz --seed 1 => --program is required
fuzz --program 'p => --program: "'p": a single quote is not closed
fuzz --program p --timeout=1000000.5 => --timeout: "1000000.5" is not a number of seconds from above 0 to 1000000
fuzz --program p --time 0 => --time: "0" is not a number of seconds from above 0 to 1000000
fuzz --program p --time 1e300 => --time: "1e300" is not a number of seconds from above 0 to 1000000
fuzz --program p --jobs 100000000 => --jobs: "100000000" is not a number from 0 to 256
fuzz --program ./p stray => unexpected argument "stray"
check --jobs=257 d => --jobs: "257" is not a number from 0 to 256
check => no PATH given
check --seed 1 x => unknown option "--seed"
check --timeout => --timeout needs a value: --timeout <SECS>
check --help=x p => --help takes no value, but was given "x"
check --format xml p => --format: "xml" is not text, json or junit
check --format xml --jobs x p => --format: "xml" is not text, json or junit
check --jobs x --format xml p => --jobs: "x" is not a number
check --memory 0 p => --memory: "0" is not a number of MiB from 1 to 1048576
cover --format=junit p => --format: "junit" is for check and fuzz only: cover writes text or json
cover => no PATH given
mark => no SUBMISSION given
mark --fuzz-time -1 a => --fuzz-time: "-1" is not a number of seconds from 0 to 1000000
mark --cc= a => --cc: "": it names no program
mark --source a/b a => --source: "a/b" is not a file name in the folder
mark --memcheck x a => --memcheck: "x" is not auto, valgrind, asan or none
mark --memory abc a => --memory: "abc" is not a number of MiB from 1 to 1048576
mark --weights tests a => --weights: "tests": "tests" is not PART=WEIGHT
mark --format gradescope a b => --format: "gradescope" is for one submission: a class's results.json files go to --out DIR
"#;

    #[test]
    fn each_mistake_gets_its_error() {
        for case in ERRORS.lines().filter(|case| !case.is_empty()) {
            let (line, said) = case.split_once(" => ").expect("LINE => ERROR");
            assert_eq!(error(line), said, "{line}");
        }
    }

    #[test]
    fn a_timeout_is_refused_alike_by_every_command_that_takes_one() {
        for value in ["0", "0.0001", "-1", "1e19"] {
            let problem = match value {
                "0.0001" => "is below a millisecond: no program starts that fast",
                _ => "is not a number of seconds from above 0 to 1000000",
            };
            for line in ["check X a", "fuzz --program ./p X", "mark X a"] {
                let line = line.replace('X', &format!("--timeout {value}"));
                assert_eq!(error(&line), format!("--timeout: \"{value}\" {problem}"));
            }
        }
    }

    #[test]
    fn help_names_the_help_it_prints() {
        let help = |line: &str| match action(line) {
            Action::Help(help) => help,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(help("help"), play::HELP);
        assert!(play::HELP.contains("\n       gomoku-mist help [check|fuzz|cover|mark] "));
        for (table, _) in &SUBCOMMANDS {
            let name = table.name();
            let usage = format!("\n       gomoku-mist {name} ");
            assert!(play::HELP.contains(&usage), "--help lacks {usage:?}");
            let pointer = format!("(see {name} --help)");
            assert!(play::HELP.contains(&pointer), "--help lacks {pointer:?}");
            assert_eq!(help(&format!("help {name}")), table.help(PROGRAM));
            assert_eq!(help(&format!("{name} --help")), table.help(PROGRAM));
        }
    }

    #[test]
    fn errors_show_arguments_escaped_and_cut() {
        assert_eq!(said(["--a\nb"]), "unknown option \"--a\\nb\"");
        assert_eq!(
            said(["--\u{1b}[31mred"]),
            "unknown option \"--\\u{1b}[31mred\""
        );
        let digits = "1".repeat(131_072);
        let cut = &digits[..SHOWN_MAX - 1];
        assert_eq!(
            error(&format!("--moves A{digits}")),
            format!(
                "--moves: move 1 \"A{cut}…\" (131073 bytes) is not a point \
                 (a column letter is followed by a row number 1 to 19, without sign or leading zero)"
            )
        );
    }

    #[cfg(unix)]
    #[test]
    fn bytes_that_are_not_utf8_are_escaped_not_replaced() {
        use std::os::unix::ffi::OsStringExt;
        let bad = OsString::from_vec(b"fr\xffe".to_vec());
        let got = said([OsString::from("--rule"), bad]);
        assert_eq!(
            got,
            "--rule: \"fr\\xffe\" is not a rule (use freestyle, exact, caro or renju)"
        );
        let bad = OsString::from_vec(b"--\xff".to_vec());
        assert_eq!(said([bad]), "unknown option \"--\\xff\"");
    }

    /// One command line a line, split at spaces, and parts of what it is
    /// read as (its `Debug`; for a game, its computer and rule), `|` apart.
    const READ: &str = r#"
--help => Help: gomoku-mist: Gomoku
--bogus --help => Help: gomoku-mist: Gomoku
--help --bogus => Help: gomoku-mist: Gomoku
--rule=bogus -h => Help: gomoku-mist: Gomoku
--moves=ZZ --help => Help: gomoku-mist: Gomoku
stray --help -V => Help: gomoku-mist: Gomoku
help help => Help: gomoku-mist: Gomoku
help --help => Help: gomoku-mist: Gomoku
help bogus -h => Help: gomoku-mist: Gomoku
check --timeout 0 -h => Help: Usage: gomoku-mist check
-V => Version
--bogus --version --help => Version
help -V => Version
mark -V => Version
--rule exact => Exact
--rule=exact => Exact
=> None Freestyle
--cpu white => level: Some(Level(10))
--cpu white --level=3 => time: None, nodes: None, level: Some(Level(3))
--cpu white --cpu-nodes 5 => time: None, nodes: Some(5), level: None
--cpu=black --cpu-nodes=5 --cpu-time=7 => time: Some(7ms), nodes: Some(5), level: None
check -- -h => program: None, paths: ["-h"], timeout: 10s | format: Text, contain: Contain { memory: 536870912, | isolate: false
fuzz --program=./p => limit: Cases(1000), out_dir: "fuzz-failures", timeout: 5s
fuzz --program=./a.out --seed 7 --time=2.5 --out d => ["./a.out"], seed: 7, limit: Time(2.5s), out_dir: "d"
mark a => source: "gitm.c", compiler: Compiler { cc: ["gcc"], cflags: ["-std=c11", "-Wall", "-Werror=vla", "-O1"] }
mark a => suite: BuiltIn | fuzz: Some(Time(30s)), seed: 1 | checker: Auto, cases: 20, timeout: 5s | limit_kib: None
mark a => weights: Weights { correctness: 8.0, tests: 2.0, memory: 0.0, decisions: false }, format: Text, out_dir: None | isolate: true
mark --jobs 3 --timeout 0.001 a => timeout: 1ms, jobs: 3, fuzz | timeout: 1ms, jobs: 3, limit | jobs: 3, contain
mark --fuzz-time 0 --tests /nonexistent/golden a => suite: Folder("/nonexistent/golden") | fuzz: None
"#;

    #[test]
    fn each_line_is_read_as_it_says() {
        for case in READ.lines().filter(|case| !case.is_empty()) {
            let (line, parts) = case.split_once("=> ").expect("LINE => PARTS");
            let read = match action(line) {
                Action::Play(play) => format!("{:?} {:?}", play.cpu, play.game.rule()),
                Action::Help(help) => format!("Help: {}", help.lines().next().unwrap_or("")),
                action => format!("{action:?}"),
            };
            for part in parts.split(" | ") {
                assert!(read.contains(part), "{line}: {part:?} not in {read}");
            }
        }
    }
}
