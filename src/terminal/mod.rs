//! The terminal front-end: a person playing at a terminal.
//!
//! Stdout stays the contract, byte for byte: every line typed goes through
//! the same [`Session`] as a piped stream, and nothing else is written
//! there. Everything for the person — greeting, prompt, line editing,
//! boards, hints — goes to the terminal side: the line [`editor`] talks to
//! `/dev/tty`, and the rest is written to stderr. When `/dev/tty` cannot
//! be opened there is no terminal side, so the caller asks [`available`]
//! first and plays the plain stream session instead.
//!
//! - [`editor`]: the line editor, raw mode, and what it shows of a line;
//!   [`keys`]: the bytes a terminal sends, as keys and pastes.
//! - [`hint`]: what was wrong with a rejected line; [`picture`]: the
//!   board for a person; [`style`]: colour or none.
//!
//! The loop itself ([`drive`]) knows neither the editor nor the process's
//! streams: it reads from a [`Keyboard`] and draws on any writer, so it is
//! tested in-process with a scripted keyboard and opponent.

#[cfg(unix)]
pub mod editor;
pub mod hint;
pub mod keys;
pub mod picture;
pub mod style;

use std::fs::OpenOptions;
use std::io::{self, IsTerminal, Write};

use thiserror::Error;

use crate::controller::opponent::Opponent;
use crate::controller::session::{Session, Settings, Stop};
use crate::controller::text;
use crate::rules::game::{Ending, Game};
use crate::rules::player::Player;

use self::style::{Paint, Style};

/// A failure of the terminal front-end.
#[derive(Debug, Error)]
pub enum TerminalError {
    /// The terminal could not be set up or read.
    #[error("cannot read the terminal: {0}")]
    Read(#[source] io::Error),
    /// Writing stdout failed (a closed pipe among others), or the computer
    /// chose a move the game refused.
    #[error("cannot write output: {0}")]
    Write(#[source] io::Error),
}

/// What the person did at the prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// A whole line, without its line end: any bytes at all.
    Line(Vec<u8>),
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

    /// The computer has just moved: a Ctrl-C typed while it thought is
    /// forgotten, other keys wait for the next prompt.
    fn thought(&mut self) {}

    /// The terminal's width in columns.
    fn width(&self) -> usize {
        80
    }
}

/// Whether the terminal itself can be talked to. Without `/dev/tty` the
/// editor has nowhere to prompt but stdout, which belongs to the contract:
/// the caller then plays without the interactive mode.
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
#[cfg(unix)]
pub fn play(
    game: Game,
    settings: Settings,
    opponent: Option<Box<dyn Opponent>>,
) -> Result<Stop, TerminalError> {
    let mut editor = editor::Editor::open().map_err(TerminalError::Read)?;
    let stderr = io::stderr();
    let style = Style::detect(
        stderr.is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    );
    let mut session = Session::new(game, settings, io::stdout().lock()).with_opponent(opponent);
    drive(&mut session, &mut editor, &mut stderr.lock(), style)
}

/// Without raw mode there is no line editor: [`available`] says no, so
/// this is never called.
///
/// # Errors
///
/// Always.
#[cfg(not(unix))]
pub fn play(_: Game, _: Settings, _: Option<Box<dyn Opponent>>) -> Result<Stop, TerminalError> {
    Err(TerminalError::Read(io::Error::other(
        "no terminal support here",
    )))
}

/// The interactive loop: prompts on `keyboard`, answers through
/// `session` (flushed after every line), and draws on `screen`: one board
/// before each prompt that follows a move, as the mist lets the person to
/// move see it. The session's opponent, if it has one, moves through the
/// session itself; its move is announced here in one line. Writing the
/// screen may fail without harm: only stdout is the contract.
///
/// # Errors
///
/// As [`play`].
pub fn drive<W: Write, K: Keyboard + ?Sized, S: Write>(
    session: &mut Session<W>,
    keyboard: &mut K,
    screen: &mut S,
    style: Style,
) -> Result<Stop, TerminalError> {
    let computer = session.opponent_colour();
    show(screen, &greeting(style, computer));
    // The computer may open the game.
    let moves = session.game().moves().len();
    let stop = session.opponent_moves();
    if let Some(stop) = after(session, stop, moves, computer, keyboard, screen, style)? {
        return Ok(stop);
    }
    let mut drawn = None;
    loop {
        let game = session.game();
        if drawn != Some(game.moves().len()) {
            show(screen, &picture::misty(game, style));
            drawn = Some(game.moves().len());
        }
        let prompt = format!(
            "{}, move {}> ",
            text::name(game.to_move()),
            game.moves().len() + 1
        );
        let line = match keyboard.read(&prompt)? {
            Typed::Line(line) => line,
            Typed::Interrupted => continue,
            // The editor has already ended the prompt's line.
            Typed::End => return Ok(Stop::EndOfInput),
        };
        let hint = hint::hint(&line, game);
        let moves = game.moves().len();
        let stop = session.line(&line);
        if let Some(stop) = after(session, stop, moves, computer, keyboard, screen, style)? {
            return Ok(stop);
        }
        if let Some(hint) = hint.filter(|_| session.game().moves().len() == moves) {
            let text = wrap(&format!("hint: {hint}"), keyboard.width());
            show(screen, &format!("{}\n", style.paint(Paint::Hint, &text)));
        }
    }
}

/// After a line (or the computer's opening move) was answered: flushes
/// stdout, so the reply is there before anything is drawn beside it;
/// announces the computer's move if it made one; and at the end of the
/// game shows the board with the mist lifted.
fn after<W: Write, K: Keyboard + ?Sized, S: Write>(
    session: &mut Session<W>,
    stop: io::Result<Option<Stop>>,
    moves: usize,
    computer: Option<Player>,
    keyboard: &mut K,
    screen: &mut S,
    style: Style,
) -> Result<Option<Stop>, TerminalError> {
    let stop = stop.map_err(TerminalError::Write)?;
    session.flush().map_err(TerminalError::Write)?;
    let game = session.game();
    let by_computer = |&(n, _): &(usize, _)| {
        let mover = if n % 2 == 0 {
            Player::Black
        } else {
            Player::White
        };
        Some(mover) == computer
    };
    if let Some((n, &p)) = game
        .moves()
        .iter()
        .enumerate()
        .skip(moves)
        .find(by_computer)
    {
        keyboard.thought();
        let mover = if n % 2 == 0 {
            Player::Black
        } else {
            Player::White
        };
        let mut line = Vec::new();
        text::announcement(&mut line, mover, p);
        let line = String::from_utf8_lossy(&line);
        show(
            screen,
            &format!("{}\n", style.paint(Paint::Strong, line.trim_end())),
        );
    }
    if let Some(stop) = stop {
        finish(session.game(), stop, screen, style);
    }
    Ok(stop)
}

/// After the end-of-game block: the board with the mist lifted.
fn finish<S: Write>(game: &Game, stop: Stop, screen: &mut S, style: Style) {
    if let Stop::Ended(ending) = stop {
        let line = picture::winning_line(game);
        show(screen, &picture::lifted(game, &line, style));
        let how = match ending {
            Ending::Win { winner } if line.is_empty() => {
                format!("{} wins by resignation.", text::name(winner))
            }
            Ending::Win { winner } => format!("{} wins with five in a row.", text::name(winner)),
            Ending::Tie => "The board is full: a tie.".to_owned(),
        };
        show(screen, &format!("{}\n", style.paint(Paint::Strong, &how)));
    }
}

/// `text` broken at spaces into lines of fewer than `width` columns; the
/// lines after the first are indented to stand under the first's text. A
/// word longer than a line stands alone on its line.
pub fn wrap(text: &str, width: usize) -> String {
    const INDENT: &str = "      ";
    let room = width.saturating_sub(1).max(INDENT.len() + 10);
    let mut out = String::new();
    let mut column = 0;
    for word in text.split(' ') {
        let cells = word.chars().count();
        if column > 0 && column + 1 + cells > room {
            out.push('\n');
            out.push_str(INDENT);
            column = INDENT.len();
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += cells;
    }
    out
}

/// What the game is, the commands, and how to stop.
pub fn greeting(style: Style, computer: Option<Player>) -> String {
    let mut out = style.paint(Paint::Strong, "Gomoku in the Mist");
    out.push_str(
        ": five or more stones in a row win, on a 19x19 board seen\n\
         through a 7x7 hole that moves after every stone. Black moves first.\n",
    );
    if let Some(colour) = computer {
        out.push_str(&format!(
            "The computer plays {}. While it thinks, Ctrl-C is ignored and what\n\
             you type waits for your prompt.\n",
            text::name(colour)
        ));
    }
    out.push_str(&format!(
        "Commands: {}.\n\
         Up and down recall commands; Ctrl-L clears the screen; Ctrl-C drops the line;\n\
         Ctrl-V then a key types that key's byte itself (e.g. Ctrl-V Tab).\n\
         To stop: term, or Ctrl-D on an empty line.\n",
        hint::COMMANDS
    ));
    out
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
    use crate::rules::point::Point;
    use crate::rules::rule::Rule;

    /// Types the given lines, then Ctrl-D.
    struct Script(std::vec::IntoIter<Typed>, Vec<String>);

    impl Script {
        fn new(lines: &[&str]) -> Script {
            let typed: Vec<Typed> = lines
                .iter()
                .map(|&l| match l {
                    "^C" => Typed::Interrupted,
                    _ => Typed::Line(l.as_bytes().to_vec()),
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
        opponent: Option<Box<dyn Opponent>>,
    ) -> (Stop, String, String, Vec<String>) {
        let mut stdout = Vec::new();
        let mut session =
            Session::new(Game::new(Rule::Freestyle), Settings::default(), &mut stdout)
                .with_opponent(opponent);
        let mut keyboard = Script::new(lines);
        let mut screen = Vec::new();
        let stop = drive(&mut session, &mut keyboard, &mut screen, Style::new(false))
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
        crate::controller::stream::run(
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
    fn hints_wrap_at_spaces_within_the_width() {
        let cases: &[(&str, usize, &str)] = &[
            ("hint: short", 80, "hint: short"),
            (
                "hint: one two three four",
                20,
                "hint: one two three\n      four",
            ),
            // A word wider than a line stands alone on its line.
            (
                "hint: abcdefghijklmnopqrstuvwxyz end",
                20,
                "hint:\n      abcdefghijklmnopqrstuvwxyz\n      end",
            ),
        ];
        for &(text, width, expected) in cases {
            assert_eq!(wrap(text, width), expected, "{text:?} in {width}");
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
        let white = Scripted(Player::White, points(&["B1", "B2", "B3", "B4"]));
        let lines = ["place A1", "place A2", "place A3", "place A4", "place A5"];
        let (stop, stdout, screen, prompts) = run(&lines, Some(Box::new(white)));
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
        let black = Scripted(Player::Black, points(&["C1", "C2", "C3", "C4", "C5"]));
        let lines = ["place D1", "place D2", "place D3", "place D4"];
        let (stop, stdout, screen, prompts) = run(&lines, Some(Box::new(black)));
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
        let white = Scripted(Player::White, points(&["A1"]));
        let mut session = Session::new(Game::new(Rule::Freestyle), Settings::default(), Vec::new())
            .with_opponent(Some(Box::new(white)));
        let mut keyboard = Script::new(&["place A1"]);
        let result = drive(
            &mut session,
            &mut keyboard,
            &mut Vec::new(),
            Style::new(false),
        );
        assert!(
            matches!(result, Err(TerminalError::Write(ref e)) if e.to_string().contains("the computer's move")),
            "{result:?}"
        );
    }
}
