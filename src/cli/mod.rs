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
//! - [`args`]: the rules above, for any table of options: the leaf every
//!   command's options build on (the conformance kit's too).
//! - [`play`]: the game's options and help.
//! - [`kit`]: the options and help of `check`, `fuzz` and `cover`.
//! - [`mark`]: the options and help of `mark`.
//!
//! This module only sends the line to the command it names, so it is the
//! one place that knows every command: it sits above the shells it starts.
//! `help [SUBCOMMAND]` is `--help` by another name, and a `--program`
//! named without a `/` that is not on `PATH` is refused here, naming
//! `./NAME` when that is in the working folder, before the kit runs it.

pub mod args;
pub mod kit;
pub mod mark;
pub mod play;

use std::ffi::OsString;

use thiserror::Error;

pub use args::{CliError, Spec};
pub use play::Play;

use crate::conform::mark::MarkOptions;
use crate::conform::{CheckOptions, CoverOptions, FuzzOptions, Invocation, sandbox};
use crate::controller::text;
use args::{Early, early};
use kit::{Parsed, Sub};

/// What the command line asks for.
#[derive(Debug)]
pub enum Action {
    /// Print this help text.
    Help(&'static str),
    /// Print the version line.
    Version,
    /// Play a game (boxed: a board is large beside the other variants).
    Play(Box<Play>),
    /// Check a program against cases: `gomoku-mist check`.
    Check(CheckOptions),
    /// Compare a program with this one on random sessions:
    /// `gomoku-mist fuzz`.
    Fuzz(FuzzOptions),
    /// Tell which scenarios a folder of cases exercises:
    /// `gomoku-mist cover`.
    Cover(CoverOptions),
    /// Mark C submissions along the assignment's scheme:
    /// `gomoku-mist mark`.
    Mark(Box<MarkOptions>),
}

/// A command line that cannot be followed, and the command it was for.
#[derive(Debug, Error)]
#[error("{error}")]
pub struct UsageError {
    /// How the command is invoked, e.g. `gomoku-mist`: the hint names it.
    pub command: &'static str,
    /// What is wrong.
    pub error: CliError,
}

impl UsageError {
    /// The line printed after the error.
    pub fn hint(&self) -> String {
        text::usage_hint(self.command)
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
    let sub = args.first().and_then(Sub::from_name);
    let (command, help, args) = match sub {
        Some(sub) => (sub.command(), sub.help(), &args[1..]),
        None => ("gomoku-mist", play::HELP, &args[..]),
    };
    match early(args) {
        Some(Early::Help) => return Ok(Action::Help(help)),
        Some(Early::Version) => return Ok(Action::Version),
        None => {}
    }
    let action = match sub {
        None => play::parse(args.to_vec()).map(|play| Action::Play(Box::new(play))),
        Some(sub) => match kit::parse(sub, args, setup) {
            Ok(Parsed::Check(options)) => {
                found(options.program.as_deref()).map(|()| Action::Check(options))
            }
            Ok(Parsed::Fuzz(options)) => {
                found(Some(options.program.as_slice())).map(|()| Action::Fuzz(options))
            }
            Ok(Parsed::Cover(options)) => Ok(Action::Cover(options)),
            Ok(Parsed::Mark(options)) => Ok(Action::Mark(options)),
            Err(error) => Err(error),
        },
    };
    action.map_err(|error| UsageError { command, error })
}

/// `gomoku-mist help [SUBCOMMAND]`: the help `--help` prints, of the
/// program or of the subcommand named. `-h` and `-V` win here as
/// everywhere.
fn help(args: &[OsString]) -> Result<Action, UsageError> {
    // Its errors send the reader to the program's help, which lists the
    // subcommands.
    let command = "gomoku-mist";
    match early(args) {
        Some(Early::Help) => return Ok(Action::Help(play::HELP)),
        Some(Early::Version) => return Ok(Action::Version),
        None => {}
    }
    let error = |error| Err(UsageError { command, error });
    match args {
        [] => Ok(Action::Help(play::HELP)),
        [topic] if topic == "help" => Ok(Action::Help(play::HELP)),
        [topic] => match Sub::from_name(topic) {
            Some(sub) => Ok(Action::Help(sub.help())),
            None => error(CliError::UnknownSubcommand(topic.clone())),
        },
        [_, stray, ..] => error(CliError::UnexpectedArgument(stray.clone())),
    }
}

/// Whether the program of a `--program`, if one is given, can be found:
/// a bare name (no `/`) must be a file on `PATH`, as the system will look
/// for it there and nowhere else; a student's `student` in the working
/// directory is a common slip, so it is named. A path is left to the kit,
/// which reports a program that cannot start with the system's reason.
fn found(program: Option<&[OsString]>) -> Result<(), CliError> {
    let Some(name) = program.and_then(<[OsString]>::first) else {
        return Ok(());
    };
    if name.is_empty() || name.as_encoded_bytes().contains(&b'/') {
        return Ok(());
    }
    // With no PATH at all, what the system will do is left to the kit.
    if std::env::var_os("PATH").is_none() || sandbox::on_path(name, runnable).is_some() {
        return Ok(());
    }
    let local = std::path::Path::new(name)
        .is_file()
        .then(|| name.to_str())
        .flatten()
        .filter(|name| !name.chars().any(char::is_control))
        .map(|name| format!("./{name}"));
    Err(CliError::NotFound {
        option: "--program",
        program: name.clone(),
        local,
    })
}

/// Whether `path` is a file the system would run.
fn runnable(path: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file() || path.with_extension("exe").is_file()
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
    use std::time::Duration;

    use super::args::SHOWN_MAX;
    use super::*;
    use crate::controller::opponent::Level;
    use crate::rules::rule::Rule;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    fn error(list: &[&str]) -> String {
        match parse(args(list)) {
            Err(e) => e.to_string(),
            Ok(action) => panic!("{list:?} was accepted: {action:?}"),
        }
    }

    #[test]
    fn help_and_version_win_wherever_they_stand() {
        for line in [
            &["--help"][..],
            &["--bogus", "--help"],
            &["--help", "--bogus"],
            &["--rule=bogus", "-h"],
            &["--moves=ZZ", "--help"],
            &["stray", "--help", "-V"],
        ] {
            assert!(matches!(parse(args(line)), Ok(Action::Help(_))), "{line:?}");
        }
        for line in [&["-V"][..], &["--bogus", "--version", "--help"]] {
            assert!(matches!(parse(args(line)), Ok(Action::Version)), "{line:?}");
        }
        // After `--` they are arguments like any other.
        assert_eq!(error(&["--", "--help"]), "unexpected argument \"--help\"");
    }

    #[test]
    fn the_help_lists_every_subcommand() {
        let names: Vec<&str> = Sub::ALL.iter().map(|sub| sub.name()).collect();
        assert_eq!(names, args::SUBCOMMANDS);
        for sub in Sub::ALL {
            assert_eq!(Sub::from_name(&OsString::from(sub.name())), Some(sub));
            let usage = format!("\n       gomoku-mist {} ", sub.name());
            assert!(play::HELP.contains(&usage), "--help lacks {usage:?}");
            let pointer = format!("(see {} --help)", sub.name());
            assert!(play::HELP.contains(&pointer), "--help lacks {pointer:?}");
        }
        assert!(play::HELP.contains("\n       gomoku-mist help [check|fuzz|cover|mark] "));
    }

    #[test]
    fn help_names_the_help_it_prints() {
        let help = |line: &[&str]| match parse(args(line)) {
            Ok(Action::Help(help)) => help,
            other => panic!("{line:?}: {other:?}"),
        };
        assert_eq!(help(&["help"]), play::HELP);
        assert_eq!(help(&["help", "help"]), play::HELP);
        assert_eq!(help(&["help", "--help"]), play::HELP);
        assert_eq!(help(&["help", "bogus", "-h"]), play::HELP);
        for sub in Sub::ALL {
            assert_eq!(help(&["help", sub.name()]), sub.help());
        }
        assert!(matches!(parse(args(&["help", "-V"])), Ok(Action::Version)));
        assert_eq!(
            error(&["help", "bogus"]),
            "no subcommand \"bogus\" (help knows check, fuzz, cover, mark)"
        );
        assert_eq!(
            error(&["help", "check", "fuzz"]),
            "unexpected argument \"fuzz\" (a subcommand comes first: gomoku-mist fuzz …)"
        );
        assert_eq!(
            error(&["--board", "help"]),
            "unexpected argument \"help\" (a subcommand comes first: gomoku-mist help …)"
        );
    }

    #[test]
    fn flags_take_no_value_and_values_take_either_form() {
        assert_eq!(
            error(&["--board=yes"]),
            "--board takes no value, but was given \"yes\""
        );
        assert_eq!(
            error(&["--help=foo"]),
            "--help takes no value, but was given \"foo\""
        );
        assert_eq!(error(&["-hx"]), "-h takes no value, but was given \"x\"");
        assert_eq!(
            error(&["--board="]),
            "--board takes no value, but was given \"\""
        );
        for line in [&["--rule", "exact"][..], &["--rule=exact"]] {
            let Ok(Action::Play(play)) = parse(args(line)) else {
                panic!("{line:?}");
            };
            assert_eq!(play.game.rule(), Rule::Exact);
        }
    }

    #[test]
    fn every_option_is_given_once() {
        for line in [
            &["--board", "--board"][..],
            &["--rule=exact", "--rule", "exact"],
            &["--moves", "", "--moves="],
        ] {
            assert!(
                error(line).ends_with(" is given more than once"),
                "{line:?}"
            );
        }
    }

    #[test]
    fn unknown_options_are_named_and_near_misses_suggested() {
        assert_eq!(error(&["--bogus"]), "unknown option \"--bogus\"");
        assert_eq!(
            error(&["--bord"]),
            "unknown option \"--bord\" (did you mean --board?)"
        );
        assert_eq!(
            error(&["--Rule=x"]),
            "unknown option \"--Rule\" (did you mean --rule?)"
        );
        assert_eq!(error(&["-x"]), "unknown option \"-x\"");
        assert_eq!(error(&["-xyz"]), "unknown option \"-xyz\"");
    }

    #[test]
    fn errors_show_arguments_escaped_and_cut() {
        assert_eq!(error(&["--a\nb"]), "unknown option \"--a\\nb\"");
        assert_eq!(
            error(&["--\u{1b}[31mred"]),
            "unknown option \"--\\u{1b}[31mred\""
        );
        let digits = "1".repeat(131_072);
        assert_eq!(
            error(&["--moves", &format!("A{digits}")]),
            format!(
                "--moves: move 1 \"A{}…\" (131073 bytes) is not a point \
                 (a column letter is followed by a row number 1 to 19, without sign or leading zero)",
                &digits[..SHOWN_MAX - 1]
            )
        );
    }

    #[cfg(unix)]
    #[test]
    fn bytes_that_are_not_utf8_are_escaped_not_replaced() {
        use std::os::unix::ffi::OsStringExt;
        let bad = OsString::from_vec(b"fr\xffe".to_vec());
        let got = parse([OsString::from("--rule"), bad])
            .map(|_| ())
            .unwrap_err();
        assert_eq!(
            got.to_string(),
            "--rule: \"fr\\xffe\" is not a rule (use freestyle, exact, caro or renju)"
        );
        let bad = OsString::from_vec(b"--\xff".to_vec());
        let got = parse([bad]).map(|_| ()).unwrap_err();
        assert_eq!(got.to_string(), "unknown option \"--\\xff\"");
    }

    #[test]
    fn missing_values_and_stray_arguments() {
        assert_eq!(error(&["--rule"]), "--rule needs a value: --rule <RULE>");
        assert_eq!(error(&["game.in"]), "unexpected argument \"game.in\"");
        assert_eq!(error(&["-"]), "unexpected argument \"-\"");
        // A value is taken whatever it looks like.
        assert_eq!(
            error(&["--rule", "--board"]),
            "--rule: \"--board\" is not a rule (use freestyle, exact, caro or renju)"
        );
    }

    #[test]
    fn one_budget_only_and_the_strongest_level_by_default() {
        let cpu = |line: &[&str]| match parse(args(line)) {
            Ok(Action::Play(play)) => play.cpu.map(|c| (c.time, c.nodes, c.level)),
            other => panic!("{line:?}: {other:?}"),
        };
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(
            cpu(&["--cpu", "white"]),
            Some((None, None, Some(Level::MAX)))
        );
        assert_eq!(
            cpu(&["--cpu", "white", "--level=3"]),
            Some((None, None, Level::new(3)))
        );
        assert_eq!(
            cpu(&["--cpu", "white", "--cpu-nodes", "5"]),
            Some((None, Some(5), None))
        );
        assert_eq!(
            cpu(&["--cpu=black", "--cpu-nodes=5", "--cpu-time=7"]),
            Some((ms(7), Some(5), None))
        );
        assert_eq!(cpu(&[]), None);
        assert_eq!(
            error(&["--cpu", "white", "--level", "3", "--cpu-time", "5"]),
            "--level and --cpu-time cannot both be given"
        );
        assert_eq!(
            error(&["--cpu-nodes=9", "--cpu", "white", "--level", "3"]),
            "--level and --cpu-nodes cannot both be given"
        );
    }
}
