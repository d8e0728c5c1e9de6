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

use std::ffi::{OsStr, OsString};

use thiserror::Error;

use std::time::Duration;

use crate::conform::args::{self, Parsed, Sub};
use crate::conform::{CheckOptions, FuzzOptions};
use crate::controller::opponent::Cpu;
use crate::controller::session::Settings;
use crate::controller::text;
use crate::rules::game::{Game, PlaceError};
use crate::rules::player::Player;
use crate::rules::point::{ParsePointError, Point};
use crate::rules::rule::Rule;

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
}

/// A game to play, and how.
#[derive(Debug)]
pub struct Play {
    /// The game, after any `--moves`.
    pub game: Game,
    /// `--board` and `--crlf`.
    pub settings: Settings,
    /// `--plain`: no interactive mode, even at a terminal.
    pub plain: bool,
    /// `--cpu` and its budget: the colour the computer plays.
    pub cpu: Option<Cpu>,
}

/// The computer's time for a move when neither `--cpu-time` nor
/// `--cpu-nodes` is given.
pub const DEFAULT_CPU_TIME: Duration = Duration::from_millis(1000);

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

/// What is wrong with a command line.
#[derive(Debug, Error)]
pub enum CliError {
    /// An option no command of ours has.
    #[error("unknown option {}{}", shown(.given), suggestion(*.near))]
    UnknownOption {
        /// The option as given, without any `=value`.
        given: OsString,
        /// A known option it is close to.
        near: Option<&'static str>,
    },
    /// An option that takes a value came last.
    #[error("{option} needs a value: {option} <{value}>")]
    MissingValue {
        /// The option, e.g. `--rule`.
        option: String,
        /// What the value is, e.g. `RULE`.
        value: &'static str,
    },
    /// A flag was given a value, as in `--board=yes` or `-hx`.
    #[error("{option} takes no value, but was given {}", shown(.value))]
    UnexpectedValue {
        /// The flag.
        option: String,
        /// The value given.
        value: OsString,
    },
    /// An option given twice.
    #[error("{0} is given more than once")]
    Repeated(String),
    /// An argument where none is expected.
    #[error("unexpected argument {}{}", shown(.0), subcommand_note(.0))]
    UnexpectedArgument(OsString),
    /// A value that does not mean anything to its option.
    #[error("{option}: {} {problem}", shown(.value))]
    BadValue {
        /// The option.
        option: &'static str,
        /// The value as given.
        value: OsString,
        /// What is wrong with it, ready to follow the value.
        problem: &'static str,
    },
    /// Two options that cannot be given together.
    #[error("{0} and {1} cannot both be given")]
    Exclusive(&'static str, &'static str),
    /// An option that must be given.
    #[error("{0} is required")]
    Required(&'static str),
    /// No argument where at least one is needed.
    #[error("no {0} given")]
    MissingArgument(&'static str),
    /// A value its option cannot use, and why.
    #[error("{option}: {}: {reason}", shown(.value))]
    Invalid {
        /// The option.
        option: &'static str,
        /// The value as given.
        value: OsString,
        /// Why it cannot be used.
        reason: String,
    },
    /// An option that means nothing without another.
    #[error("{0} needs {1}")]
    Needs(&'static str, &'static str),
    /// `--moves` that is not a playable sequence.
    #[error("--moves: move {number} {} {problem}", shown(.text))]
    Moves {
        /// 1 for the first move.
        number: usize,
        /// The move as given.
        text: OsString,
        /// What is wrong with it.
        problem: MoveProblem,
    },
}

/// What is wrong with one move of `--moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum MoveProblem {
    /// Not a board point.
    #[error("is not a point ({0})")]
    NotAPoint(ParsePointError),
    /// The point was taken by an earlier move.
    #[error("is already taken")]
    Taken,
    /// After it the game would be over.
    #[error("ends the game, so there would be nothing left to play")]
    EndsTheGame,
}

/// One option a command accepts.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The long name, with its `--`.
    pub long: &'static str,
    /// The one-letter form, with its `-`, if there is one.
    pub short: Option<&'static str>,
    /// What the value is called in help and errors; `None` for a flag.
    pub value: Option<&'static str>,
}

impl Spec {
    /// A flag: an option that takes no value.
    pub const fn flag(long: &'static str) -> Spec {
        Spec {
            long,
            short: None,
            value: None,
        }
    }

    /// An option that takes a value, called `value` in help and errors.
    pub const fn valued(long: &'static str, value: &'static str) -> Spec {
        Spec {
            long,
            short: None,
            value: Some(value),
        }
    }
}

/// `-h`, `--help`: every command has them.
pub const HELP: Spec = Spec {
    long: "--help",
    short: Some("-h"),
    value: None,
};
/// `-V`, `--version`: every command has them.
pub const VERSION: Spec = Spec {
    long: "--version",
    short: Some("-V"),
    value: None,
};

/// The options of a game.
const PLAY: &[Spec] = &[
    Spec::valued("--moves", "HISTORY"),
    Spec::valued("--rule", "RULE"),
    Spec::flag("--board"),
    Spec::flag("--crlf"),
    Spec::flag("--plain"),
    Spec::valued("--cpu", "COLOUR"),
    Spec::valued("--cpu-time", "MS"),
    Spec::valued("--cpu-nodes", "N"),
    HELP,
    VERSION,
];

/// The subcommands, which may only come first.
const SUBCOMMANDS: &[&str] = &["check", "fuzz"];

/// What a command line said once the shared rules were applied: each
/// option at most once, with its value if it takes one, and the arguments.
#[derive(Debug, Default)]
pub struct Given {
    options: Vec<(&'static str, Option<OsString>)>,
    /// Everything that was not an option, in order.
    pub arguments: Vec<OsString>,
}

impl Given {
    /// Whether the flag `long` was given.
    pub fn flag(&self, long: &str) -> bool {
        self.options.iter().any(|(name, _)| *name == long)
    }

    /// The value of `long`, if it was given.
    pub fn value(&self, long: &str) -> Option<&OsStr> {
        self.options
            .iter()
            .find(|(name, _)| *name == long)
            .and_then(|(_, value)| value.as_deref())
    }
}

/// How a command line starts, before its options are read.
#[derive(Debug, PartialEq, Eq)]
pub enum Early {
    /// `-h` or `--help` stands before `--` (and before any version flag).
    Help,
    /// `-V` or `--version` stands before `--` (and before any help flag).
    Version,
}

/// Looks for `-h`, `--help`, `-V` and `--version` before any `--`: they
/// win wherever they stand, so a broken line still gets its help.
pub fn early(args: &[OsString]) -> Option<Early> {
    args.iter()
        .map(|arg| arg.as_encoded_bytes())
        .take_while(|&arg| arg != b"--")
        .find_map(|arg| match arg {
            b"-h" | b"--help" => Some(Early::Help),
            b"-V" | b"--version" => Some(Early::Version),
            _ => None,
        })
}

/// Applies the shared rules to `args` for a command whose options are
/// `specs`.
///
/// # Errors
///
/// [`CliError`] for the first argument that breaks a rule.
pub fn read(specs: &'static [Spec], args: Vec<OsString>) -> Result<Given, CliError> {
    let mut given = Given::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let bytes = arg.as_encoded_bytes();
        if bytes == b"--" {
            given.arguments.extend(args);
            break;
        }
        let (name, attached) = if bytes.starts_with(b"--") {
            match bytes.iter().position(|&b| b == b'=') {
                Some(at) => (&bytes[..at], Some(os_string(&bytes[at + 1..]))),
                None => (bytes, None),
            }
        } else if bytes.len() > 1 && bytes[0] == b'-' {
            // A short option is one letter; anything after it is a value
            // it was given, as in `-hx`.
            let (name, rest) = bytes.split_at(2);
            (name, (!rest.is_empty()).then(|| os_string(rest)))
        } else {
            // Not an option; a lone `-` too, which often means stdin.
            given.arguments.push(arg);
            continue;
        };
        let Some(spec) = specs
            .iter()
            .find(|s| s.long.as_bytes() == name || s.short.is_some_and(|x| x.as_bytes() == name))
        else {
            return Err(CliError::UnknownOption {
                given: os_string(if bytes.starts_with(b"--") {
                    name
                } else {
                    bytes
                }),
                near: nearest(specs, name),
            });
        };
        let option = String::from_utf8_lossy(name).into_owned();
        let value = match (spec.value, attached) {
            (None, None) => None,
            (None, Some(value)) => return Err(CliError::UnexpectedValue { option, value }),
            (Some(_), Some(value)) => Some(value),
            (Some(value), None) => match args.next() {
                Some(next) => Some(next),
                None => return Err(CliError::MissingValue { option, value }),
            },
        };
        if given.flag(spec.long) {
            return Err(CliError::Repeated(option));
        }
        given.options.push((spec.long, value));
    }
    Ok(given)
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
    let sub = args.first().and_then(Sub::from_name);
    let (command, help, args) = match sub {
        Some(Sub::Check) => ("gomoku-mist check", Sub::Check.help(), &args[1..]),
        Some(Sub::Fuzz) => ("gomoku-mist fuzz", Sub::Fuzz.help(), &args[1..]),
        None => ("gomoku-mist", text::HELP, &args[..]),
    };
    match early(args) {
        Some(Early::Help) => return Ok(Action::Help(help)),
        Some(Early::Version) => return Ok(Action::Version),
        None => {}
    }
    let action = match sub {
        None => play(args.to_vec()),
        Some(sub) => match args::parse(sub, args) {
            Ok(Parsed::Check(options)) => Ok(Action::Check(options)),
            Ok(Parsed::Fuzz(options)) => Ok(Action::Fuzz(options)),
            Err(error) => Err(error),
        },
    };
    action.map_err(|error| UsageError { command, error })
}

fn play(args: Vec<OsString>) -> Result<Action, CliError> {
    let given = read(PLAY, args)?;
    if let Some(stray) = given.arguments.first() {
        return Err(CliError::UnexpectedArgument(stray.clone()));
    }
    let rule = match given.value("--rule") {
        None => Rule::default(),
        Some(name) => {
            name.to_str()
                .and_then(Rule::from_name)
                .ok_or_else(|| CliError::BadValue {
                    option: "--rule",
                    value: name.to_owned(),
                    problem: "is not a rule (use freestyle, exact or caro)",
                })?
        }
    };
    let mut game = Game::new(rule);
    if let Some(moves) = given.value("--moves") {
        replay(&mut game, moves.as_encoded_bytes())?;
    }
    let settings = Settings {
        board: given.flag("--board"),
        crlf: given.flag("--crlf"),
    };
    Ok(Action::Play(Box::new(Play {
        game,
        settings,
        plain: given.flag("--plain"),
        cpu: cpu(&given)?,
    })))
}

fn cpu(given: &Given) -> Result<Option<Cpu>, CliError> {
    let time = given.value("--cpu-time");
    let nodes = given.value("--cpu-nodes");
    let Some(colour) = given.value("--cpu") else {
        return match (time, nodes) {
            (Some(_), _) => Err(CliError::Needs("--cpu-time", "--cpu")),
            (_, Some(_)) => Err(CliError::Needs("--cpu-nodes", "--cpu")),
            (None, None) => Ok(None),
        };
    };
    let colour = match colour.as_encoded_bytes() {
        b"black" => Player::Black,
        b"white" => Player::White,
        _ => {
            return Err(CliError::BadValue {
                option: "--cpu",
                value: colour.to_owned(),
                problem: "is not a colour (use black or white)",
            });
        }
    };
    // A node budget alone is the same on every machine: no clock then.
    let time = match (time, nodes) {
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_CPU_TIME),
        (Some(ms), _) => Some(Duration::from_millis(number(
            "--cpu-time",
            ms,
            "is not a time in milliseconds from 1 to 3600000",
            1..=3_600_000,
        )?)),
    };
    let nodes = nodes
        .map(|n| {
            number(
                "--cpu-nodes",
                n,
                "is not a node count from 1 up",
                1..=u64::MAX,
            )
        })
        .transpose()?;
    Ok(Some(Cpu {
        colour,
        time,
        nodes,
    }))
}

/// A decimal number within `range`, digits only.
fn number(
    option: &'static str,
    value: &OsStr,
    problem: &'static str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<u64, CliError> {
    value
        .to_str()
        .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|v| v.parse().ok())
        .filter(|n| range.contains(n))
        .ok_or_else(|| CliError::BadValue {
            option,
            value: value.to_owned(),
            problem,
        })
}

/// Splits a `history` line into its moves: each is one byte, then every
/// digit after it. A well-written history splits into points; anything
/// else splits into parts that name the first mistake.
pub fn split_moves(history: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = history;
    std::iter::from_fn(move || {
        let (_, after) = rest.split_first()?;
        let digits = after.iter().take_while(|b| b.is_ascii_digit()).count();
        let (part, next) = rest.split_at(1 + digits);
        rest = next;
        Some(part)
    })
}

/// Plays `history` on `game` as `place` would, refusing anything that
/// `place` would refuse and any move after which the game is over.
///
/// # Errors
///
/// [`CliError::Moves`] for the first move that cannot be played.
pub fn replay(game: &mut Game, history: &[u8]) -> Result<(), CliError> {
    for (index, part) in split_moves(history).enumerate() {
        let problem = match Point::from_ascii(part) {
            Err(e) => Some(MoveProblem::NotAPoint(e)),
            Ok(p) => match game.place(p) {
                Ok(None) => None,
                Ok(Some(_)) => Some(MoveProblem::EndsTheGame),
                Err(PlaceError::Occupied(_)) => Some(MoveProblem::Taken),
            },
        };
        if let Some(problem) = problem {
            return Err(CliError::Moves {
                number: index + 1,
                text: os_string(part),
                problem,
            });
        }
    }
    Ok(())
}

/// The bytes of an argument as an argument again.
fn os_string(bytes: &[u8]) -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        OsStr::from_bytes(bytes).to_owned()
    }
    // Elsewhere arguments are Unicode, and every part we cut ends at an
    // ASCII byte, so nothing is lost.
    #[cfg(not(unix))]
    {
        OsString::from(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// How much of an argument an error shows before cutting it.
pub const SHOWN_MAX: usize = 40;

/// An argument as an error shows it: quoted, every byte that could upset a
/// terminal escaped (control bytes, newlines, bytes that are not UTF-8),
/// and, past [`SHOWN_MAX`] bytes, cut with a note of its length.
pub fn shown(arg: &OsStr) -> String {
    let bytes = arg.as_encoded_bytes();
    let kept = &bytes[..bytes.len().min(SHOWN_MAX)];
    let mut out = String::from("\"");
    for chunk in kept.utf8_chunks() {
        for c in chunk.valid().chars() {
            // Inside double quotes a single quote needs no escape.
            match c {
                '\'' => out.push(c),
                c => out.extend(c.escape_debug()),
            }
        }
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    if kept.len() < bytes.len() {
        out.push_str(&format!("…\" ({} bytes)", bytes.len()));
    } else {
        out.push('"');
    }
    out
}

fn suggestion(near: Option<&'static str>) -> String {
    near.map(|n| format!(" (did you mean {n}?)"))
        .unwrap_or_default()
}

fn subcommand_note(arg: &OsStr) -> String {
    match arg.to_str() {
        Some(name) if SUBCOMMANDS.contains(&name) => {
            format!(" (a subcommand comes first: gomoku-mist {name} …)")
        }
        _ => String::new(),
    }
}

/// The known option closest to `name`, if one is close: the same but for
/// case, or at most two edits away.
fn nearest(specs: &[Spec], name: &[u8]) -> Option<&'static str> {
    specs
        .iter()
        .map(|s| s.long)
        .map(|long| (distance(&name.to_ascii_lowercase(), long.as_bytes()), long))
        .filter(|&(d, _)| d <= 2)
        .min_by_key(|&(d, _)| d)
        .map(|(_, long)| long)
}

/// Edits (insert, delete, replace) that turn `a` into `b`.
fn distance(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(x != y);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

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
            "--rule: \"fr\\xffe\" is not a rule (use freestyle, exact or caro)"
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
            "--rule: \"--board\" is not a rule (use freestyle, exact or caro)"
        );
    }

    #[test]
    fn a_node_budget_alone_reads_no_clock() {
        let cpu = |line: &[&str]| match parse(args(line)) {
            Ok(Action::Play(play)) => play.cpu.map(|c| (c.time, c.nodes)),
            other => panic!("{line:?}: {other:?}"),
        };
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(
            cpu(&["--cpu", "white"]),
            Some((Some(DEFAULT_CPU_TIME), None))
        );
        assert_eq!(
            cpu(&["--cpu", "white", "--cpu-nodes", "5"]),
            Some((None, Some(5)))
        );
        assert_eq!(
            cpu(&["--cpu=black", "--cpu-nodes=5", "--cpu-time=7"]),
            Some((ms(7), Some(5)))
        );
        assert_eq!(cpu(&[]), None);
    }

    #[test]
    fn edit_distance() {
        assert_eq!(distance(b"", b"abc"), 3);
        assert_eq!(distance(b"--bord", b"--board"), 1);
        assert_eq!(distance(b"kitten", b"sitting"), 3);
    }
}
