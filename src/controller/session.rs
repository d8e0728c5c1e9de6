//! The replies: a [`Session`] holds the game and answers one line at a
//! time, as the contract says; [`stream`](super::stream) feeds it a
//! stream, the terminal front-end whole lines.
//!
//! Speed: most replies are fixed [`Block`]s chosen by the line's kind,
//! copied whole. The replies for `who`, `view` and `history` are made when
//! a stone is placed, not when they are asked for. Every buffer is sized
//! at start-up, so answering a command never allocates.
//!
//! An [`Observer`] may be told what each line was and what came of it
//! (the conformance kit's trace is one); the plain session's is `()`,
//! which the compiler removes.

use std::io::{self, Write};

use crate::controller::decode::{Decoded, Kind};
use crate::controller::opponent::Opponent;
use crate::controller::output::{BLOCK, Block, Output};
use crate::controller::text;
use crate::rules::command::Command;
use crate::rules::game::{Ending, Game, PlaceError};
use crate::rules::point::Point;

/// Ways to run a session other than the contract's plain one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Print a picture of the board after each `view`, and once more with
    /// the mist lifted when the game ends.
    pub board: bool,
    /// Drop one `\r` at the end of each line (Windows line endings).
    pub crlf: bool,
}

/// Why a session stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The game ended; its end-of-game block was printed.
    Ended(Ending),
    /// `term` was read.
    Term,
    /// The input ended with the game unfinished.
    EndOfInput,
}

impl Stop {
    /// The process exit code the contract gives this stop.
    pub const fn exit_code(self) -> u8 {
        match self {
            Stop::Ended(_) => 0,
            Stop::Term | Stop::EndOfInput => 1,
        }
    }
}

/// What a session did with one line, as its [`Observer`] is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// No command: `Invalid!`.
    NotACommand,
    /// `place` with no point: `Invalid coordinate`.
    NotAPoint,
    /// `who`.
    Who,
    /// `view`.
    View,
    /// `history`.
    History,
    /// A stone placed at the point, silently, or the game's end it made.
    Placed(Point, Option<Ending>),
    /// A `place` refused, and why.
    Refused(PlaceError),
    /// `resign`: the game's end.
    Resigned(Ending),
    /// `term`.
    Term,
}

/// Told of every line a session answers, once its reply is queued.
pub trait Observer {
    /// Line answered thus (the opponent's moves are not lines).
    fn answered(&mut self, answer: Answer);
}

/// No observer: nothing is told, and nothing costs.
impl Observer for () {
    #[inline(always)]
    fn answered(&mut self, _: Answer) {}
}

/// The game and what it takes to answer it, one line at a time.
///
/// [`run`](super::stream::run) feeds it a stream; other shells (the terminal front-end) feed it
/// whole lines with [`Session::line`] and get exactly the replies the
/// stream would have given.
pub struct Session<W: Write, O: Observer = ()> {
    game: Game,
    settings: Settings,
    out: Output<W>,
    /// The reply to each kind of line below [`Kind::FIXED`]: `Invalid!`,
    /// `Invalid coordinate`, `who`'s and `view`'s, kept ready and changed
    /// only when a stone is placed.
    fixed: [Block; Kind::FIXED],
    /// The `history` reply, newline included.
    history: Vec<u8>,
    /// Room to render a `view` line or a `--board` picture in.
    scratch: Vec<u8>,
    /// The player the program moves for itself, if any: it moves as soon
    /// as it is its turn, and its stone is placed as `place` would place it.
    opponent: Option<Box<dyn Opponent>>,
    observer: O,
}

impl<W: Write> Session<W> {
    /// A session for `game`, replying on `output`.
    pub fn new(game: Game, settings: Settings, output: W) -> Session<W> {
        let mut history = Vec::with_capacity(text::HISTORY_LINE_MAX);
        text::history_line(&mut history, game.moves());
        // In the order of `Kind`; `who`'s and `view`'s are filled in below.
        let fixed: [&[u8]; Kind::FIXED] = [text::INVALID, text::INVALID_COORDINATE, b"", b""];
        let mut session = Session {
            game,
            settings,
            out: Output::new(output),
            fixed: fixed.map(Block::new),
            history,
            scratch: Vec::with_capacity(text::BOARD_PICTURE_LEN),
            opponent: None,
            observer: (),
        };
        session.update_fixed();
        session
    }

    /// The same session with `observer` told of every line it answers.
    pub fn observed<O: Observer>(self, observer: O) -> Session<W, O> {
        Session {
            game: self.game,
            settings: self.settings,
            out: self.out,
            fixed: self.fixed,
            history: self.history,
            scratch: self.scratch,
            opponent: self.opponent,
            observer,
        }
    }
}

impl<W: Write, O: Observer> Session<W, O> {
    /// The same session with `opponent` moving for itself as soon as it is
    /// its turn.
    #[must_use]
    pub fn with_opponent(mut self, opponent: Option<Box<dyn Opponent>>) -> Session<W, O> {
        self.opponent = opponent;
        self
    }

    /// The colour the opponent plays, if there is one.
    pub fn opponent_colour(&self) -> Option<crate::rules::player::Player> {
        self.opponent.as_ref().map(|o| o.colour())
    }

    /// Takes back the last `moves` moves, as if they had never been
    /// played: the game, and every reply from now on, are those of the
    /// game without them (`history` among them); the opponent, if any,
    /// forgets what it learnt. Nothing is printed. Returns `false`, and
    /// changes nothing, if fewer moves were played.
    pub fn take_back(&mut self, moves: usize) -> bool {
        let played = self.game.moves();
        let Some(kept) = played.len().checked_sub(moves) else {
            return false;
        };
        let mut game = Game::new(self.game.rule());
        for &p in &played[..kept] {
            // Each was placed before, in this order, without ending the
            // game: each is placed again the same way.
            let _ = game.place(p);
        }
        self.game = game;
        text::history_line(&mut self.history, self.game.moves());
        self.update_fixed();
        if let Some(opponent) = self.opponent.as_deref_mut() {
            opponent.forget();
        }
        true
    }

    /// The opponent, if there is one.
    pub fn opponent(&self) -> Option<&dyn Opponent> {
        self.opponent.as_deref()
    }

    /// Renews the replies that depend on the position.
    fn update_fixed(&mut self) {
        // A `view` line always fits a block, so `Block::new` never cuts it.
        const _: () = assert!(text::VIEW_LINE_MAX <= BLOCK);
        self.fixed[Kind::Who as usize] = Block::new(text::who(self.game.to_move()));
        self.scratch.clear();
        text::view_line(&mut self.scratch, self.game.board(), self.game.centre());
        self.fixed[Kind::View as usize] = Block::new(&self.scratch);
    }

    /// Answers one whole line, without its `\n`, exactly as [`run`](super::stream::run) would
    /// (a final `\r` is dropped under [`Settings::crlf`]). The reply is
    /// queued: [`Session::flush`] writes it. `Some` says the session is
    /// over: nothing more may be fed to it.
    ///
    /// # Errors
    ///
    /// Writing the queued output failed.
    pub fn line(&mut self, line: &[u8]) -> io::Result<Option<Stop>> {
        let line = without_cr(line, self.settings.crlf);
        self.answer(Command::parse(line).into())
    }

    /// The game as it stands.
    pub const fn game(&self) -> &Game {
        &self.game
    }

    /// The observer.
    pub fn observer(&mut self) -> &mut O {
        &mut self.observer
    }

    /// The output, as far as [`Session::flush`] has written it.
    pub const fn output(&self) -> &W {
        self.out.sink()
    }

    /// Writes every queued reply and flushes the output.
    ///
    /// # Errors
    ///
    /// Writing failed.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Answers one line, known by its head and whether whitespace follows
    /// (see [`Command::parse_head`]).
    pub(super) fn head_line(&mut self, head: &[u8], rest_ws: bool) -> io::Result<Option<Stop>> {
        self.answer(Command::parse_head(head, rest_ws).into())
    }

    /// Answers one decoded line.
    #[inline(always)]
    pub(super) fn answer(&mut self, line: Decoded) -> io::Result<Option<Stop>> {
        // Most lines take a fixed reply, picked by number, not by a branch.
        if let Some(reply) = self.fixed.get(line.kind as usize) {
            self.out.block(reply)?;
            self.observer.answered(match line.kind {
                Kind::NotACommand => Answer::NotACommand,
                Kind::NotAPoint => Answer::NotAPoint,
                Kind::Who => Answer::Who,
                // The last of the `Kind::FIXED` kinds with a fixed reply.
                _ => Answer::View,
            });
            if self.settings.board && line.kind == Kind::View {
                self.write_picture(Some(self.game.centre()))?;
            }
            return Ok(None);
        }
        self.answer_other(line)
    }

    fn answer_other(&mut self, line: Decoded) -> io::Result<Option<Stop>> {
        let (answer, stop) = match line.kind {
            Kind::History => {
                self.out.bytes(&self.history)?;
                (Answer::History, None)
            }
            Kind::Place => match self.game.place(line.point) {
                Ok(ending) => {
                    self.placed(line.point);
                    let stop = match ending {
                        Some(ending) => Some(self.end(ending)?),
                        None => None,
                    };
                    (Answer::Placed(line.point, ending), stop)
                }
                Err(e) => {
                    self.out.bytes(match e {
                        PlaceError::Occupied(_) => text::OCCUPIED,
                        PlaceError::Forbidden(..) => text::FORBIDDEN,
                    })?;
                    (Answer::Refused(e), None)
                }
            },
            Kind::Resign => {
                let ending = self.game.resign();
                (Answer::Resigned(ending), Some(self.end(ending)?))
            }
            Kind::Term => (Answer::Term, Some(Stop::Term)),
            // Answered in `answer`.
            Kind::NotACommand | Kind::NotAPoint | Kind::Who | Kind::View => return Ok(None),
        };
        self.observer.answered(answer);
        match (answer, stop) {
            // The opponent answers a stone that did not end the game.
            (Answer::Placed(_, None), _) => self.opponent_moves(),
            _ => Ok(stop),
        }
    }

    /// If it is the opponent's turn, it moves; with `--board` its move is
    /// announced and the board drawn as the person now sees it. The one
    /// place the computer's move is made: the terminal front-end calls it
    /// too, to let the computer open the game.
    ///
    /// # Errors
    ///
    /// Writing failed, or the opponent chose a point the game does not
    /// allow (which [`Opponent::choose`] never does).
    pub fn opponent_moves(&mut self) -> io::Result<Option<Stop>> {
        let Some(opponent) = self.opponent.as_deref_mut() else {
            return Ok(None);
        };
        if opponent.colour() != self.game.to_move() {
            return Ok(None);
        }
        let Some(p) = opponent.choose(&self.game) else {
            // A full board has ended the game before it could be anyone's
            // turn; otherwise every point left is forbidden to the
            // computer (renju's Black), which has no pass: it resigns.
            if self.game.board().is_full() {
                return Ok(None);
            }
            return self.end(self.game.resign()).map(Some);
        };
        let mover = self.game.to_move();
        let ending = match self.game.place(p) {
            Ok(ending) => ending,
            Err(e) => return Err(io::Error::other(format!("the computer's move: {e}"))),
        };
        self.placed(p);
        if self.settings.board {
            self.scratch.clear();
            text::announcement(&mut self.scratch, mover, p);
            self.out.bytes(&self.scratch)?;
            if ending.is_none() {
                self.write_picture(Some(self.game.centre()))?;
            }
        }
        match ending {
            Some(ending) => self.end(ending).map(Some),
            None => Ok(None),
        }
    }

    fn placed(&mut self, p: Point) {
        text::extend_history_line(&mut self.history, p);
        self.update_fixed();
    }

    fn end(&mut self, ending: Ending) -> io::Result<Stop> {
        self.out.bytes(text::result(ending))?;
        self.out.bytes(&self.history)?;
        if self.settings.board {
            self.write_picture(None)?;
        }
        self.out.bytes(text::THANKS)?;
        Ok(Stop::Ended(ending))
    }

    fn write_picture(&mut self, centre: Option<Point>) -> io::Result<()> {
        self.scratch.clear();
        text::board_picture(&mut self.scratch, self.game.board(), centre);
        self.out.bytes(&self.scratch)
    }
}

/// `line` less one final `\r` if `crlf` says to drop it.
#[inline]
pub(super) fn without_cr(line: &[u8], crlf: bool) -> &[u8] {
    match crlf {
        true => line.strip_suffix(b"\r").unwrap_or(line),
        false => line,
    }
}
