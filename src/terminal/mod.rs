//! The terminal front-end: a person playing at a terminal.
//!
//! Stdout stays the contract, byte for byte: every line typed goes through
//! the same [`Session`] as a piped stream, and nothing else is written
//! there. Everything for the person — greeting, prompt, line editing,
//! boards, hints — goes to the terminal side: the line editor talks to
//! `/dev/tty`, and the rest is written to stderr. When `/dev/tty` cannot
//! be opened the editor would fall back to stdout, so the caller asks
//! [`available`] first and plays the plain stream session instead.
//!
//! The loop itself ([`drive`]) knows neither rustyline nor the process's
//! streams: it reads from a [`Keyboard`] and draws on any writer, so it is
//! tested in-process with a scripted keyboard and opponent.

pub mod hint;
pub mod picture;
pub mod style;

use std::fs::OpenOptions;
use std::io::{self, IsTerminal, Write};

use rustyline::DefaultEditor;
use rustyline::config::{Behavior, Config};
use rustyline::error::ReadlineError;
use thiserror::Error;

use crate::controller::opponent::Opponent;
use crate::controller::session::{Session, Settings, Stop};
use crate::rules::game::{Ending, Game};
use crate::rules::player::Player;
use crate::rules::point::Point;

use self::style::{Paint, Style};

/// A failure of the terminal front-end.
#[derive(Debug, Error)]
pub enum TerminalError {
    /// The line editor could not start or read.
    #[error("cannot read the terminal: {0}")]
    Read(#[source] ReadlineError),
    /// Writing stdout failed (a closed pipe among others).
    #[error("cannot write output: {0}")]
    Write(#[source] io::Error),
    /// The computer opponent chose no move, or one the game refused.
    #[error("the computer opponent chose {0}, which cannot be played")]
    Opponent(String),
}

/// What the person did at the prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// A whole line, without its newline.
    Line(String),
    /// Ctrl-C: the line being typed is abandoned.
    Interrupted,
    /// Ctrl-D on an empty line: the end of input.
    End,
}

/// Where typed lines come from.
pub trait Keyboard {
    /// Shows `prompt` and reads one line.
    ///
    /// # Errors
    ///
    /// The terminal could not be read.
    fn read(&mut self, prompt: &str) -> Result<Typed, TerminalError>;
}

impl Keyboard for DefaultEditor {
    fn read(&mut self, prompt: &str) -> Result<Typed, TerminalError> {
        match self.readline(prompt) {
            Ok(line) => Ok(Typed::Line(line)),
            Err(ReadlineError::Interrupted) => Ok(Typed::Interrupted),
            Err(ReadlineError::Eof) => Ok(Typed::End),
            Err(e) => Err(TerminalError::Read(e)),
        }
    }
}

/// Whether the terminal itself can be talked to. Without `/dev/tty` the
/// line editor would prompt on stdout, which belongs to the contract: the
/// caller then plays without the interactive mode.
pub fn available() -> bool {
    OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .is_ok()
}

/// Plays `game` with a person at the terminal, replies on stdout, and
/// moves for `opponent` on its turns.
///
/// # Errors
///
/// [`TerminalError`] if the terminal cannot be read or stdout written;
/// what was answered before has been written.
pub fn play(
    game: Game,
    settings: Settings,
    opponent: Option<&mut dyn Opponent>,
) -> Result<Stop, TerminalError> {
    let config = Config::builder()
        .behavior(Behavior::PreferTerm)
        .auto_add_history(true)
        .build();
    let mut editor = DefaultEditor::with_config(config).map_err(TerminalError::Read)?;
    let stderr = io::stderr();
    let style = Style::detect(
        stderr.is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    );
    let mut session = Session::new(game, settings, io::stdout().lock());
    drive(
        &mut session,
        &mut editor,
        &mut stderr.lock(),
        style,
        opponent,
    )
}

/// The interactive loop: prompts on `keyboard`, answers through
/// `session` (flushed after every line), and draws on `screen`. Writing
/// the screen may fail without harm: only stdout is the contract.
///
/// # Errors
///
/// As [`play`].
pub fn drive<W: Write, K: Keyboard + ?Sized, S: Write>(
    session: &mut Session<W>,
    keyboard: &mut K,
    screen: &mut S,
    style: Style,
    mut opponent: Option<&mut dyn Opponent>,
) -> Result<Stop, TerminalError> {
    let computer = opponent.as_ref().map(|o| o.colour());
    show(screen, &greeting(style, computer));
    show(screen, &picture::misty(session.game(), style));
    loop {
        if let Some(o) = opponent
            .as_deref_mut()
            .filter(|o| o.colour() == session.game().to_move())
        {
            match opponent_moves(session, o, screen, style)? {
                Some(stop) => return Ok(stop),
                None => continue,
            }
        }
        let game = session.game();
        let prompt = format!(
            "{}, move {}> ",
            name(game.to_move()),
            game.moves().len() + 1
        );
        let line = match keyboard.read(&prompt)? {
            Typed::Line(line) => line,
            Typed::Interrupted => continue,
            // The editor has already ended the prompt's line.
            Typed::End => return Ok(Stop::EndOfInput),
        };
        let hint = hint::hint(line.as_bytes(), game);
        let moves = game.moves().len();
        let stop = answer(session, line.as_bytes())?;
        if let Some(stop) = stop {
            finish(session.game(), stop, screen, style);
            return Ok(stop);
        }
        if session.game().moves().len() > moves {
            show(screen, &picture::misty(session.game(), style));
        } else if let Some(hint) = hint {
            show(
                screen,
                &format!("{}\n", style.paint(Paint::Hint, &format!("hint: {hint}"))),
            );
        }
    }
}

/// Answers `line` and flushes, so the reply is on stdout before anything
/// is drawn beside it.
fn answer<W: Write>(session: &mut Session<W>, line: &[u8]) -> Result<Option<Stop>, TerminalError> {
    let stop = session.line(line).map_err(TerminalError::Write)?;
    session.flush().map_err(TerminalError::Write)?;
    Ok(stop)
}

/// Plays the opponent's move as a `place` line, announces and draws it.
fn opponent_moves<W: Write, S: Write>(
    session: &mut Session<W>,
    opponent: &mut dyn Opponent,
    screen: &mut S,
    style: Style,
) -> Result<Option<Stop>, TerminalError> {
    let game = session.game();
    let chosen = opponent.choose(game);
    let p = chosen
        .filter(|&p| game.board().get(p).is_none())
        .ok_or_else(|| {
            TerminalError::Opponent(chosen.map_or("no move".to_owned(), |p| p.to_string()))
        })?;
    let mover = game.to_move();
    // Announced first, so it stands above any end-of-game block.
    show(
        screen,
        &format!("{}\n", style.paint(Paint::Strong, &announce(mover, p))),
    );
    let stop = answer(session, format!("place {p}").as_bytes())?;
    match stop {
        Some(stop) => {
            finish(session.game(), stop, screen, style);
            Ok(Some(stop))
        }
        None => {
            show(screen, &picture::misty(session.game(), style));
            Ok(None)
        }
    }
}

/// After the end-of-game block: the board with the mist lifted.
fn finish<S: Write>(game: &Game, stop: Stop, screen: &mut S, style: Style) {
    if let Stop::Ended(ending) = stop {
        let line = picture::winning_line(game);
        show(screen, &picture::lifted(game, &line, style));
        let how = match ending {
            Ending::Win { winner } if line.is_empty() => {
                format!("{} wins by resignation.", name(winner))
            }
            Ending::Win { winner } => format!("{} wins with five in a row.", name(winner)),
            Ending::Tie => "The board is full: a tie.".to_owned(),
        };
        show(screen, &format!("{}\n", style.paint(Paint::Strong, &how)));
    }
}

/// `White plays K11`.
pub fn announce(player: Player, p: Point) -> String {
    format!("{} plays {p}", name(player))
}

/// `Black` or `White`.
pub const fn name(player: Player) -> &'static str {
    match player {
        Player::Black => "Black",
        Player::White => "White",
    }
}

/// What the game is, the commands, and how to stop.
pub fn greeting(style: Style, computer: Option<Player>) -> String {
    let mut text = style.paint(Paint::Strong, "Gomoku in the Mist");
    text.push_str(
        ": five or more stones in a row win, on a 19x19 board seen\n\
         through a 7x7 hole that moves after every stone. Black moves first.\n",
    );
    if let Some(colour) = computer {
        text.push_str(&format!("The computer plays {}.\n", name(colour)));
    }
    text.push_str(&format!(
        "Commands: {}.\n\
         Up and down recall commands; Ctrl-L clears the screen; Ctrl-C drops the line.\n\
         To stop: term, or Ctrl-D on an empty line.\n",
        hint::COMMANDS
    ));
    text
}

fn show<S: Write>(screen: &mut S, text: &str) {
    // The screen is for the person; the contract is stdout. A screen that
    // cannot be written must not end the game.
    let _ = screen
        .write_all(text.as_bytes())
        .and_then(|()| screen.flush());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::rule::Rule;

    /// Types the given lines, then Ctrl-D.
    struct Script(std::vec::IntoIter<Typed>, Vec<String>);

    impl Script {
        fn new(lines: &[&str]) -> Script {
            let typed: Vec<Typed> = lines
                .iter()
                .map(|&l| match l {
                    "^C" => Typed::Interrupted,
                    _ => Typed::Line(l.to_owned()),
                })
                .collect();
            Script(typed.into_iter(), Vec::new())
        }
    }

    impl Keyboard for Script {
        fn read(&mut self, prompt: &str) -> Result<Typed, TerminalError> {
            self.1.push(prompt.to_owned());
            Ok(self.0.next().unwrap_or(Typed::End))
        }
    }

    /// Plays the points it is given, in order.
    struct Scripted(Player, Vec<Point>);

    impl Opponent for Scripted {
        fn colour(&self) -> Player {
            self.0
        }
        fn choose(&mut self, _: &Game) -> Option<Point> {
            (!self.1.is_empty()).then(|| self.1.remove(0))
        }
    }

    fn points(text: &[&str]) -> Vec<Point> {
        text.iter().map(|t| t.parse().unwrap()).collect()
    }

    /// Runs the loop; returns the stop, stdout, the screen and the prompts.
    fn run(
        lines: &[&str],
        opponent: Option<&mut dyn Opponent>,
    ) -> (Stop, String, String, Vec<String>) {
        let mut stdout = Vec::new();
        let mut session =
            Session::new(Game::new(Rule::Freestyle), Settings::default(), &mut stdout);
        let mut keyboard = Script::new(lines);
        let mut screen = Vec::new();
        let stop = drive(
            &mut session,
            &mut keyboard,
            &mut screen,
            Style::new(false),
            opponent,
        )
        .expect("no I/O error in memory");
        session.flush().unwrap();
        drop(session);
        let stdout = String::from_utf8(stdout).unwrap();
        (stop, stdout, String::from_utf8(screen).unwrap(), keyboard.1)
    }

    /// What the plain stream session prints for the same lines.
    fn plain(lines: &[&str]) -> String {
        let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let mut out = Vec::new();
        crate::controller::session::run(
            Game::new(Rule::Freestyle),
            Settings::default(),
            input.as_bytes(),
            &mut out,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn stdout_is_the_stream_sessions_bytes() {
        let lines = [
            "who",
            "Who",
            "place J10",
            "place j10",
            "place J10",
            "view",
            "history",
            "^C",
            "resign",
        ];
        let (stop, stdout, screen, _) = run(&lines, None);
        let typed: Vec<&str> = lines.iter().copied().filter(|&l| l != "^C").collect();
        assert_eq!(stdout, plain(&typed));
        assert_eq!(
            stop,
            Stop::Ended(Ending::Win {
                winner: Player::Black
            })
        );
        for expected in [
            "hint: commands are lower-case: who",
            "hint: columns are upper-case letters: place J10",
            "hint: J10 already holds Black's stone (#)",
            "Black wins by resignation.",
        ] {
            assert!(
                screen.contains(expected),
                "no {expected:?} on the screen:\n{screen}"
            );
        }
    }

    #[test]
    fn prompts_name_the_player_and_the_move_number() {
        let (stop, _, _, prompts) = run(&["place A1", "place A1", "place B1"], None);
        assert_eq!(stop, Stop::EndOfInput);
        assert_eq!(
            prompts,
            [
                "Black, move 1> ",
                "White, move 2> ",
                "White, move 2> ",
                "Black, move 3> "
            ]
        );
    }

    #[test]
    fn a_scripted_opponent_moves_through_the_same_session() {
        // The computer plays White; Black makes five on column A.
        let mut white = Scripted(Player::White, points(&["B1", "B2", "B3", "B4"]));
        let lines = ["place A1", "place A2", "place A3", "place A4", "place A5"];
        let (stop, stdout, screen, prompts) = run(&lines, Some(&mut white));
        assert_eq!(
            stop,
            Stop::Ended(Ending::Win {
                winner: Player::Black
            })
        );
        assert_eq!(
            stdout,
            "Black wins!\nA1B1A2B2A3B3A4B4A5\nThank you for playing!\n"
        );
        assert_eq!(prompts.len(), 5, "one prompt a Black move: {prompts:?}");
        for expected in [
            "The computer plays White.",
            "White plays B1",
            "White plays B4",
            "with five in a row",
        ] {
            assert!(
                screen.contains(expected),
                "no {expected:?} on the screen:\n{screen}"
            );
        }
        assert!(
            screen.contains(" 5[X]"),
            "winning line not marked:\n{screen}"
        );
    }

    #[test]
    fn an_opponent_playing_black_moves_first_and_can_win() {
        let mut black = Scripted(Player::Black, points(&["C1", "C2", "C3", "C4", "C5"]));
        let lines = ["place D1", "place D2", "place D3", "place D4"];
        let (stop, stdout, screen, prompts) = run(&lines, Some(&mut black));
        assert_eq!(
            stop,
            Stop::Ended(Ending::Win {
                winner: Player::Black
            })
        );
        assert_eq!(
            stdout,
            plain(&[
                "place C1", "place D1", "place C2", "place D2", "place C3", "place D3", "place C4",
                "place D4", "place C5"
            ])
        );
        assert_eq!(prompts[0], "White, move 2> ");
        assert!(screen.contains("Black plays C5"), "{screen}");
    }

    #[test]
    fn an_opponent_that_cheats_is_an_error() {
        let mut white = Scripted(Player::White, points(&["A1"]));
        let mut session = Session::new(Game::new(Rule::Freestyle), Settings::default(), Vec::new());
        let mut keyboard = Script::new(&["place A1"]);
        let result = drive(
            &mut session,
            &mut keyboard,
            &mut Vec::new(),
            Style::new(false),
            Some(&mut white),
        );
        assert!(
            matches!(result, Err(TerminalError::Opponent(ref p)) if p == "A1"),
            "{result:?}"
        );
    }
}
