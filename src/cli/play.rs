//! The game's command line: its options, what they mean, and its help.

use std::ffi::{OsStr, OsString};
use std::time::Duration;

use thiserror::Error;

use super::args::{self, CliError, Given, Spec, os_string, read};
use crate::controller::opponent::{Cpu, Level};
use crate::controller::session::Settings;
use crate::rules::game::{Game, PlaceError};
use crate::rules::player::Player;
use crate::rules::point::{ParsePointError, Point};
use crate::rules::renju::Foul;
use crate::rules::rule::Rule;

/// The options of a game.
pub const PLAY: &[Spec] = &[
    Spec::valued("--moves", "HISTORY"),
    Spec::valued("--rule", "RULE"),
    Spec::flag("--board"),
    Spec::flag("--crlf"),
    Spec::flag("--plain"),
    Spec::valued("--cpu", "COLOUR"),
    Spec::valued("--level", "N"),
    Spec::valued("--cpu-time", "MS"),
    Spec::valued("--cpu-nodes", "N"),
    Spec::flag("--show-thinking"),
    args::HELP,
    args::VERSION,
];

/// The game's `--help`.
pub const HELP: &str = "\
gomoku-mist: Gomoku in the Mist. Reads one command a line on stdin (who, view,
history, place <C><R>, resign, term) and answers on stdout.

Usage: gomoku-mist [OPTIONS] [< FILE]
       gomoku-mist check [--program CMD] PATH...   (see check --help)
       gomoku-mist fuzz --program CMD [OPTIONS]     (see fuzz --help)
       gomoku-mist cover PATH...                    (see cover --help)
       gomoku-mist mark SUBMISSION...               (see mark --help)
       gomoku-mist help [check|fuzz|cover|mark]     this help, or a subcommand's

Options:
      --moves <HISTORY>  start after these moves, written as `history` prints them
      --rule <RULE>      which lines win: freestyle (five or more; the default),
                         exact (exactly five), caro (exactly five, not blocked
                         at both ends) or renju (Black: exactly five, and no
                         double three, double four or overline, refused with
                         Forbidden coordinate; White: five or more)
      --board            after each `view`, draw the whole board with the mist
                         as @; at the end, draw it once more with the mist lifted
      --crlf             accept Windows line endings: drop one \\r before each \\n
      --plain            at a terminal too, no prompt, editing, boards or hints:
                         only the plain replies (the default when stdin is not
                         a terminal)
      --cpu <COLOUR>     the computer plays black or white: it moves as soon as
                         it is its turn, as `place` would
      --level <N>        the computer's strength, 1 (a beginner wins) to 10 (the
                         default: about a second a move); each level a fixed
                         search budget, so a level plays alike on any machine
      --cpu-time <MS>    instead of a level, the computer's time a move, in ms
      --cpu-nodes <N>    instead of a level, the computer's search budget for a
                         move, in positions; alone, the same position always
                         gets the same move
      --show-thinking    at a terminal, after each of the computer's moves, a
                         line with its score and the line it expects (F3 at
                         the terminal turns it on and off); never on stdout
  -h, --help             print this help and exit
  -V, --version          print the version and exit

Options may come in any order, each once. A value follows its option as the
next argument or after `=` (--rule exact, --rule=exact); a flag takes none.
-h and -V win wherever they stand before `--`, which ends the options.

Examples:
  gomoku-mist < game.in                  play the commands in game.in
  gomoku-mist --moves A1B2C3             White to move, after A1, B2 and C3
  gomoku-mist --rule exact               six in a row does not win
  gomoku-mist --rule caro                five blocked at both ends does not win
  gomoku-mist --rule renju               Black may not play a double three
  gomoku-mist --board                    play at a terminal with a picture
  gomoku-mist --crlf < windows.in        a file saved with CR LF line endings
  gomoku-mist --cpu white                play Black against the computer

Exit codes: 0 the game ended; 1 term, end of input or an I/O error;
2 a bad command line.
";

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
    /// `--show-thinking`: at a terminal, the computer's think line.
    pub show_thinking: bool,
}

/// Reads the game's options.
///
/// # Errors
///
/// [`CliError`] for the first argument that cannot be followed.
pub fn parse(args: Vec<OsString>) -> Result<Play, CliError> {
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
                    problem: "is not a rule (use freestyle, exact, caro or renju)",
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
    let show_thinking = given.flag("--show-thinking");
    let cpu = cpu(&given)?;
    if show_thinking && cpu.is_none() {
        return Err(CliError::Needs("--show-thinking", "--cpu"));
    }
    Ok(Play {
        game,
        settings,
        plain: given.flag("--plain"),
        cpu,
        show_thinking,
    })
}

fn cpu(given: &Given) -> Result<Option<Cpu>, CliError> {
    let time = given.value("--cpu-time");
    let nodes = given.value("--cpu-nodes");
    let level = given.value("--level");
    let Some(colour) = given.value("--cpu") else {
        return match (time, nodes, level) {
            (Some(_), _, _) => Err(CliError::Needs("--cpu-time", "--cpu")),
            (_, Some(_), _) => Err(CliError::Needs("--cpu-nodes", "--cpu")),
            (_, _, Some(_)) => Err(CliError::Needs("--level", "--cpu")),
            (None, None, None) => Ok(None),
        };
    };
    // A level is a budget: another budget beside it would leave one of
    // them meaning nothing.
    match (level, time, nodes) {
        (Some(_), Some(_), _) => return Err(CliError::Exclusive("--level", "--cpu-time")),
        (Some(_), _, Some(_)) => return Err(CliError::Exclusive("--level", "--cpu-nodes")),
        _ => {}
    }
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
    let level = match (level, time, nodes) {
        (Some(n), _, _) => Some(
            number("--level", n, "is not a level from 1 to 10", 1..=10)
                .ok()
                .and_then(|n| u8::try_from(n).ok())
                .and_then(Level::new)
                .ok_or_else(|| CliError::BadValue {
                    option: "--level",
                    value: n.to_owned(),
                    problem: "is not a level from 1 to 10",
                })?,
        ),
        (None, None, None) => Some(Level::MAX),
        _ => None,
    };
    // A node budget alone is the same on every machine: no clock then.
    let time = time
        .map(|ms| {
            number(
                "--cpu-time",
                ms,
                "is not a time in milliseconds from 1 to 3600000",
                1..=3_600_000,
            )
            .map(Duration::from_millis)
        })
        .transpose()?;
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
        level,
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
/// [`CliError::Part`] for the first move that cannot be played.
pub fn replay(game: &mut Game, history: &[u8]) -> Result<(), CliError> {
    for (index, part) in split_moves(history).enumerate() {
        let problem = match Point::from_ascii(part) {
            Err(e) => Some(MoveProblem::NotAPoint(e)),
            Ok(p) => match game.place(p) {
                Ok(None) => None,
                Ok(Some(_)) => Some(MoveProblem::EndsTheGame),
                Err(PlaceError::Occupied(_)) => Some(MoveProblem::Taken),
                Err(PlaceError::Forbidden(_, foul)) => Some(MoveProblem::Forbidden(foul)),
            },
        };
        if let Some(problem) = problem {
            return Err(CliError::Part {
                option: "--moves",
                part: format!("move {}", index + 1),
                text: os_string(part),
                problem: problem.to_string(),
            });
        }
    }
    Ok(())
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
    /// Renju forbids it to Black.
    #[error("is forbidden to Black ({})", .0.name())]
    Forbidden(Foul),
    /// After it the game would be over.
    #[error("ends the game, so there would be nothing left to play")]
    EndsTheGame,
}
