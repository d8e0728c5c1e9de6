//! The command line: options for players and test authors. Without any,
//! the program is exactly SPEC.md's.

use std::ffi::OsString;

use lexopt::prelude::*;
use thiserror::Error;

use crate::game::{Game, PlaceError};
use crate::point::{ParsePointError, Point};
use crate::rule::Rule;
use crate::session::Settings;

/// What the command line asks for.
#[derive(Debug)]
pub enum Action {
    /// Print the help text.
    Help,
    /// Print the version line.
    Version,
    /// Play a game from this position with these settings.
    Play {
        /// The game, after any `--moves` (boxed: a board is large beside
        /// the other variants).
        game: Box<Game>,
        /// `--board` and `--crlf`.
        settings: Settings,
        /// `--plain`: no interactive mode even at a terminal.
        plain: bool,
    },
}

/// A command line that cannot be followed.
#[derive(Debug, Error)]
pub enum CliError {
    /// Not an option we know, a missing value, a stray argument.
    #[error("{0}")]
    Syntax(#[from] lexopt::Error),
    /// An option given twice.
    #[error("{0} is given more than once")]
    Repeated(&'static str),
    /// `--rule` with a name that is not a rule.
    #[error("--rule: unknown rule {0:?} (use freestyle, exact or caro)")]
    UnknownRule(String),
    /// `--moves` that is not a playable sequence.
    #[error("--moves: move {number} \"{text}\" {problem}")]
    Moves {
        /// 1 for the first move.
        number: usize,
        /// The move as given, non-ASCII bytes escaped.
        text: String,
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

/// Reads the arguments after the program name.
///
/// # Errors
///
/// [`CliError`] names the first problem found.
pub fn parse<I>(args: I) -> Result<Action, CliError>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    let mut parser = lexopt::Parser::from_args(args);
    let mut moves: Option<OsString> = None;
    let mut rule: Option<Rule> = None;
    let mut settings = Settings::default();
    let mut plain = false; // terminal: --plain (issue 9)
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(Action::Help),
            Short('V') | Long("version") => return Ok(Action::Version),
            Long("moves") => set_once(&mut moves, parser.value()?, "--moves")?,
            Long("rule") => {
                let name = parser.value()?.string()?;
                let parsed = Rule::from_name(&name).ok_or(CliError::UnknownRule(name))?;
                set_once(&mut rule, parsed, "--rule")?;
            }
            Long("board") => set_once_flag(&mut settings.board, "--board")?,
            Long("crlf") => set_once_flag(&mut settings.crlf, "--crlf")?,
            Long("plain") => set_once_flag(&mut plain, "--plain")?, // terminal (issue 9)
            _ => return Err(arg.unexpected().into()),
        }
    }
    let mut game = Game::new(rule.unwrap_or_default());
    if let Some(moves) = moves {
        replay(&mut game, moves.as_encoded_bytes())?;
    }
    Ok(Action::Play {
        game: Box::new(game),
        settings,
        plain,
    })
}

fn set_once<T>(slot: &mut Option<T>, value: T, option: &'static str) -> Result<(), CliError> {
    match slot.replace(value) {
        Some(_) => Err(CliError::Repeated(option)),
        None => Ok(()),
    }
}

fn set_once_flag(flag: &mut bool, option: &'static str) -> Result<(), CliError> {
    if std::mem::replace(flag, true) {
        return Err(CliError::Repeated(option));
    }
    Ok(())
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
                text: part.escape_ascii().to_string(),
                problem,
            });
        }
    }
    Ok(())
}
