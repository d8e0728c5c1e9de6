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
//!   board for a person; [`think`]: what the computer thinks, as a line;
//!   [`style`]: colour or none.
//! - The function keys ask the front-end, never the game: F1 help, F2 a
//!   take-back against the computer, F3 the think line on or off.
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
pub mod think;

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
    /// A function key, F1 to F5: a request to the terminal itself, never
    /// a line. The line being typed waits for the next prompt.
    Function(u8),
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

/// What the person asked of the terminal front-end beyond the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `--show-thinking`: after each of the computer's moves, a line
    /// saying what it thinks (F3 turns it on and off).
    pub show_thinking: bool,
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
    options: Options,
) -> Result<Stop, TerminalError> {
    let mut editor = editor::Editor::open().map_err(TerminalError::Read)?;
    let stderr = io::stderr();
    let style = Style::detect(
        stderr.is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    );
    let mut session = Session::new(game, settings, io::stdout().lock()).with_opponent(opponent);
    drive(
        &mut session,
        &mut editor,
        &mut stderr.lock(),
        style,
        options,
    )
}

/// Without raw mode there is no line editor: [`available`] says no, so
/// this is never called.
///
/// # Errors
///
/// Always.
#[cfg(not(unix))]
pub fn play(
    _: Game,
    _: Settings,
    _: Option<Box<dyn Opponent>>,
    _: Options,
) -> Result<Stop, TerminalError> {
    Err(TerminalError::Read(io::Error::other(
        "no terminal support here",
    )))
}

/// F1: the help screen.
pub const HELP_KEY: u8 = 1;
/// F2: take back the person's last move and the computer's reply.
pub const TAKE_BACK_KEY: u8 = 2;
/// F3: the think line on or off.
pub const THINK_KEY: u8 = 3;

/// The interactive loop: prompts on `keyboard`, answers through
/// `session` (flushed after every line), and draws on `screen`: one board
/// before each prompt that follows a move, as the mist lets the person to
/// move see it. The session's opponent, if it has one, moves through the
/// session itself; its move is announced here in one line. Writing the
/// screen may fail without harm: only stdout is the contract.
///
/// The function keys ask the front-end, not the game: they print nothing
/// on stdout. A take-back changes the game the next lines are answered
/// in (see [`Session::take_back`]).
///
/// # Errors
///
/// As [`play`].
pub fn drive<W: Write, K: Keyboard + ?Sized, S: Write>(
    session: &mut Session<W>,
    keyboard: &mut K,
    screen: &mut S,
    style: Style,
    options: Options,
) -> Result<Stop, TerminalError> {
    let computer = session.opponent_colour();
    let mut thinking = options.show_thinking;
    show(screen, &greeting(style, computer, keyboard.width()));
    // The computer may open the game.
    let moves = session.game().moves().len();
    let stop = session.opponent_moves();
    if let Some(stop) = after(session, stop, moves, keyboard, screen, style, thinking)? {
        return Ok(stop);
    }
    // Moves before the person's first prompt cannot be taken back.
    let start = session.game().moves().len();
    let mut drawn = None;
    loop {
        let game = session.game();
        if drawn != Some(game.moves().len()) {
            show(screen, &picture::misty(game, style, keyboard.width()));
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
            Typed::Function(HELP_KEY) => {
                show(screen, &help(style, computer, keyboard.width()));
                continue;
            }
            Typed::Function(TAKE_BACK_KEY) => {
                let said = take_back(session, computer, start);
                note(screen, style, &said, keyboard.width());
                continue;
            }
            Typed::Function(THINK_KEY) => {
                let said = match computer {
                    None => {
                        "There is no computer here to think: F3 is for a game played \
                             with --cpu."
                    }
                    Some(_) => {
                        thinking = !thinking;
                        match thinking {
                            true => {
                                "The think line is on: after each move the computer \
                                     says what it thinks (F3 turns it off)."
                            }
                            false => "The think line is off (F3 turns it on).",
                        }
                    }
                };
                note(screen, style, said, keyboard.width());
                continue;
            }
            Typed::Function(_) => continue,
        };
        let hint = hint::hint(&line, game);
        let moves = game.moves().len();
        let stop = session.line(&line);
        if let Some(stop) = after(session, stop, moves, keyboard, screen, style, thinking)? {
            return Ok(stop);
        }
        if let Some(hint) = hint.filter(|_| session.game().moves().len() == moves) {
            note(screen, style, &format!("hint: {hint}"), keyboard.width());
        }
    }
}

/// F2: takes back the person's last move and the computer's reply, if
/// the person has moved since `start` moves; what happened, in a line.
fn take_back<W: Write>(session: &mut Session<W>, computer: Option<Player>, start: usize) -> String {
    let Some(colour) = computer else {
        return "Take-backs are for a game against the computer (--cpu).".to_owned();
    };
    let moves = session.game().moves();
    // At a prompt it is the person's turn, so the last move is the
    // computer's and the one before it the person's.
    let [.., mine, its] = moves else {
        return "Nothing to take back: the game stands where it began.".to_owned();
    };
    let (mine, its) = (*mine, *its);
    if moves.len() < start + 2 || !session.take_back(2) {
        return "Nothing to take back: the game stands where it began.".to_owned();
    }
    format!(
        "Taken back: your {mine} and {}'s {its}. {} to move.",
        text::name(colour),
        text::name(colour.opponent())
    )
}

/// After a line (or the computer's opening move) was answered: announces
/// the computer's move if it made one (with what it thinks, if asked),
/// then flushes stdout, so that a game the computer's move ended shows
/// that move before the result; and at the end of the game shows the
/// board with the mist lifted. The session queues its replies until
/// flushed, so nothing of this line's reply is on stdout before the
/// announcement.
fn after<W: Write, K: Keyboard + ?Sized, S: Write>(
    session: &mut Session<W>,
    stop: io::Result<Option<Stop>>,
    moves: usize,
    keyboard: &mut K,
    screen: &mut S,
    style: Style,
    thinking: bool,
) -> Result<Option<Stop>, TerminalError> {
    let stop = stop.map_err(TerminalError::Write)?;
    let game = session.game();
    let computer = session.opponent();
    let by_computer = |&(n, _): &(usize, _)| {
        let mover = if n % 2 == 0 {
            Player::Black
        } else {
            Player::White
        };
        Some(mover) == computer.map(|c| c.colour())
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
        if thinking {
            let said = think::line(mover, computer.and_then(|c| c.thought()));
            note(screen, style, &said, keyboard.width());
        }
    }
    session.flush().map_err(TerminalError::Write)?;
    if let Some(stop) = stop {
        finish(session.game(), stop, screen, style, keyboard.width());
    }
    Ok(stop)
}

/// After the end-of-game block: the board with the mist lifted.
fn finish<S: Write>(game: &Game, stop: Stop, screen: &mut S, style: Style, width: usize) {
    if let Stop::Ended(ending) = stop {
        let line = picture::winning_line(game);
        show(screen, &picture::lifted(game, &line, style, width));
        let how = match ending {
            // Under renju a Black left only forbidden points resigns,
            // or the computer does for it: say why.
            Ending::Win { winner } if line.is_empty() && no_point_allowed(game) => format!(
                "{} may play none of the points left: {} wins by resignation.",
                text::name(winner.opponent()),
                text::name(winner)
            ),
            Ending::Win { winner } if line.is_empty() => {
                format!("{} wins by resignation.", text::name(winner))
            }
            Ending::Win { winner } => format!("{} wins with five in a row.", text::name(winner)),
            Ending::Tie => "The board is full: a tie.".to_owned(),
        };
        show(screen, &format!("{}\n", style.paint(Paint::Strong, &how)));
    }
}

/// Whether the player to move may place a stone nowhere, though the
/// board has room: renju's Black, every point left forbidden.
fn no_point_allowed(game: &Game) -> bool {
    !game.board().is_full() && game.first_allowed().is_none()
}

/// A line for the person, wrapped to the terminal and painted as a hint.
fn note<S: Write>(screen: &mut S, style: Style, said: &str, width: usize) {
    let text = wrap(said, width);
    show(screen, &format!("{}\n", style.paint(Paint::Hint, &text)));
}

/// `text` broken at spaces into lines of fewer than `width` columns; the
/// lines after the first are indented to stand under the first's text. A
/// word longer than a line stands alone on its line.
pub fn wrap(text: &str, width: usize) -> String {
    wrap_indented(text, width, "      ")
}

/// As [`wrap`], with `indent` before each line after the first.
fn wrap_indented(text: &str, width: usize, indent: &str) -> String {
    let room = width.saturating_sub(1).max(indent.len() + 10);
    let mut out = String::new();
    let mut column = 0;
    for word in text.split(' ') {
        let cells = word.chars().count();
        if column > 0 && column + 1 + cells > room {
            out.push('\n');
            out.push_str(indent);
            column = indent.len();
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += cells;
    }
    out
}

/// Paragraphs, each wrapped to `width` with no indent, and to 80
/// columns on a wider terminal: longer lines are harder to read.
fn paragraphs(text: &[String], width: usize) -> String {
    text.iter()
        .map(|p| format!("{}\n", wrap_indented(p, width.min(80), "")))
        .collect()
}

/// What the game is, the commands, and how to stop and get help.
pub fn greeting(style: Style, computer: Option<Player>, width: usize) -> String {
    let mut out = style.paint(Paint::Strong, "Gomoku in the Mist");
    let mut text = vec![
        ": five or more stones in a row win, on a 19x19 board seen through a 7x7 hole \
         that moves after every stone. Black moves first."
            .to_owned(),
    ];
    if let Some(colour) = computer {
        text.push(format!(
            "The computer plays {}. While it thinks, Ctrl-C is ignored and what you type \
             waits for your prompt.",
            text::name(colour)
        ));
    }
    text.push(format!("Commands: {}.", hint::COMMANDS));
    text.push(
        "Up and down recall commands; Ctrl-L clears the screen; Ctrl-C drops the line; \
         Ctrl-V then a key types that key's byte itself (e.g. Ctrl-V Tab)."
            .to_owned(),
    );
    text.push(match computer {
        Some(_) => {
            "F1 help; F2 takes back a pair of moves; F3 shows what the computer thinks.".to_owned()
        }
        None => "F1 help.".to_owned(),
    });
    text.push("To stop: term, or Ctrl-D on an empty line.".to_owned());
    // The title's width counts in the first paragraph's wrapping.
    let first = paragraphs(&[format!("Gomoku in the Mist{}", text[0])], width);
    out.push_str(&first["Gomoku in the Mist".len()..]);
    out.push_str(&paragraphs(&text[1..], width));
    out
}

/// F1's screen: the commands, the keys, and what stdout carries.
pub fn help(style: Style, computer: Option<Player>, width: usize) -> String {
    let mut out = format!("{}\n", style.paint(Paint::Strong, "Help"));
    let mut text = vec![
        format!(
            "Commands (each answered on stdout, as the contract says): {}.",
            hint::COMMANDS
        ),
        "A point is a column letter A to S, then a row 1 to 19: J10 is the centre. The board \
         shows @ for the mist, # Black, o White, + the hole's centre, the last move in \
         brackets (a board too narrow for them names it below)."
            .to_owned(),
        "Editing: left, right, Home, End, Backspace, Delete; Ctrl-U and Ctrl-K erase before \
         and after the cursor; up and down recall lines; Ctrl-L clears the screen; Ctrl-C \
         drops the line; Ctrl-V then a key types that key's byte."
            .to_owned(),
        "F1 this help.".to_owned(),
    ];
    match computer {
        Some(colour) => {
            text.push(format!(
                "F2 takes back your last move and {}'s reply: stdout prints nothing for it, and \
                 answers from then on for the game as it now stands (history too).",
                text::name(colour)
            ));
            text.push(
                "F3 turns the think line on or off: after each of the computer's moves, its \
                 score for the position (or a win it has found, in plies) and the line of play \
                 it expects, starting with its move."
                    .to_owned(),
            );
        }
        None => text.push(
            "F2 (take back) and F3 (think line) are for a game against the computer (--cpu)."
                .to_owned(),
        ),
    }
    text.push(
        "To stop: term, or Ctrl-D on an empty line (exit code 1); resign ends the game \
         (exit code 0)."
            .to_owned(),
    );
    out.push_str(&paragraphs(&text, width));
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
                    "F1" => Typed::Function(HELP_KEY),
                    "F2" => Typed::Function(TAKE_BACK_KEY),
                    "F3" => Typed::Function(THINK_KEY),
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
        let stop = drive(
            &mut session,
            &mut keyboard,
            &mut screen,
            Style::new(false),
            Options::default(),
        )
        .expect("no I/O error in memory");
        session.flush().unwrap();
        drop(session);
        let stdout = String::from_utf8(stdout).unwrap();
        (stop, stdout, String::from_utf8(screen).unwrap(), keyboard.1)
    }

    /// Runs the loop with `options`, stdout and the screen written into
    /// one log, so that their order shows; returns the stop and the log.
    fn interleaved(
        lines: &[&str],
        opponent: Option<Box<dyn Opponent>>,
        options: Options,
    ) -> (Stop, String) {
        #[derive(Clone, Default)]
        struct Log(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
        impl Write for Log {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                self.0.borrow_mut().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let log = Log::default();
        let mut session =
            Session::new(Game::new(Rule::Freestyle), Settings::default(), log.clone())
                .with_opponent(opponent);
        let mut keyboard = Script::new(lines);
        let stop = drive(
            &mut session,
            &mut keyboard,
            &mut log.clone(),
            Style::new(false),
            options,
        )
        .expect("no I/O error in memory");
        drop(session);
        let text = String::from_utf8(log.0.borrow().clone()).unwrap();
        (stop, text)
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
    fn the_computers_winning_move_comes_before_the_result() {
        let white = Scripted(Player::White, points(&["B1", "B2", "B3", "B4", "B5"]));
        let lines = ["place A1", "place A2", "place A3", "place A4", "place S19"];
        let (stop, log) = interleaved(&lines, Some(Box::new(white)), Options::default());
        assert_eq!(
            stop,
            Stop::Ended(Ending::Win {
                winner: Player::White
            })
        );
        let at = |text: &str| {
            log.find(text)
                .unwrap_or_else(|| panic!("no {text:?} in:\n{log}"))
        };
        assert!(at("White plays B5") < at("White wins!\n"), "{log}");
        assert!(at("White wins!\n") < at("Thank you for playing!"), "{log}");
        assert!(
            at("Thank you for playing!") < at("White wins with five in a row."),
            "{log}"
        );
    }

    #[test]
    fn a_take_back_removes_a_pair_and_later_replies_are_the_games_as_it_stands() {
        let white = Scripted(Player::White, points(&["B1", "B2", "B3"]));
        let lines = [
            "F2", "place A1", "history", "F2", "history", "place A2", "F2", "F2", "place C3",
            "history", "resign",
        ];
        let (stop, stdout, screen, prompts) = run(&lines, Some(Box::new(white)));
        // Nothing on stdout for a take-back: the history lines are those
        // of the game as it stood, and so is the end-of-game block.
        assert_eq!(
            stdout,
            "A1B1\n\nC3B3\nWhite wins!\nC3B3\nThank you for playing!\n"
        );
        assert_eq!(
            stop,
            Stop::Ended(Ending::Win {
                winner: Player::White
            })
        );
        for expected in [
            "Nothing to take back: the game stands where it began.",
            "Taken back: your A1 and White's B1. Black to move.",
            "Taken back: your A2 and White's B2. Black to move.",
        ] {
            assert!(screen.contains(expected), "no {expected:?}:\n{screen}");
        }
        assert_eq!(
            screen.matches("Nothing to take back").count(),
            2,
            "{screen}"
        );
        // The prompt's move number follows the game back.
        assert_eq!(prompts[3], "Black, move 3> ", "{prompts:?}");
        assert_eq!(prompts[4], "Black, move 1> ", "{prompts:?}");
    }

    #[test]
    fn take_backs_and_thinking_need_the_computer() {
        let (stop, stdout, screen, _) = run(&["place A1", "F2", "F3", "history"], None);
        assert_eq!(stop, Stop::EndOfInput);
        assert_eq!(stdout, "A1\n");
        assert!(
            screen.contains("Take-backs are for a game against the computer"),
            "{screen}"
        );
        assert!(
            screen.contains("There is no computer here to think"),
            "{screen}"
        );
    }

    #[test]
    fn f1_shows_the_help_and_prints_nothing_on_stdout() {
        let white = Scripted(Player::White, points(&["B1"]));
        let (_, stdout, screen, prompts) = run(&["F1", "who"], Some(Box::new(white)));
        assert_eq!(stdout, "B\n");
        for expected in [
            "Help\n",
            "F2 takes back your last move and White's reply",
            "F3 turns the think line on or off",
        ] {
            assert!(screen.contains(expected), "no {expected:?}:\n{screen}");
        }
        assert_eq!(prompts, ["Black, move 1> "; 3]);
    }

    #[test]
    fn the_think_line_follows_each_computer_move_while_it_is_on() {
        use crate::controller::opponent::Computer;
        use crate::engine::Limits;
        let computer = || {
            let limits = Limits {
                nodes: Some(2_000),
                ..Limits::default()
            };
            Box::new(Computer::new(Player::White, limits))
        };
        let on = Options {
            show_thinking: true,
        };
        let (_, log) = interleaved(&["place J10", "F3", "place A1"], Some(computer()), on);
        assert_eq!(log.matches("White thinks: ").count(), 1, "{log}");
        let announced = log.find("White plays ").expect("a move");
        let thinks = log.find("White thinks: ").expect("a think line");
        assert!(announced < thinks, "{log}");
        let played = log[announced + "White plays ".len()..]
            .split_whitespace()
            .next()
            .unwrap();
        let expecting = log[thinks..]
            .split("expecting ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .expect("an expected line");
        assert_eq!(played, expecting, "the line starts with its move:\n{log}");
        assert!(log.contains("The think line is off"), "{log}");
        // Off by default; F3 turns it on.
        let (_, log) = interleaved(
            &["place J10", "F3", "place A1"],
            Some(computer()),
            Options::default(),
        );
        assert_eq!(log.matches("White thinks: ").count(), 1, "{log}");
        assert!(log.contains("The think line is on"), "{log}");
        assert!(
            log.find("The think line is on") < log.find("White thinks: "),
            "{log}"
        );
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
            Options::default(),
        );
        assert!(
            matches!(result, Err(TerminalError::Write(ref e)) if e.to_string().contains("the computer's move")),
            "{result:?}"
        );
    }
}
