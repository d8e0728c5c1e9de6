//! The read–reply loop: lines in, replies out, until the game or the input
//! ends. It does I/O only through the reader and writer it is handed.
//!
//! Memory stays bounded whatever the input: a line is answered straight
//! from the read buffer when it lies there whole, and otherwise from its
//! first [`HEAD`] bytes and a count of the whitespace after them (see
//! [`Command::parse_head`]). The replies for `view` and `history` are kept
//! ready-made and changed only when a stone is placed, and every buffer is
//! sized at start-up, so answering a command never allocates.

use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

use memchr::memchr;
use thiserror::Error;

use crate::command::{self, Command, ParseCommandError};
use crate::game::{Ending, Game};
use crate::point::Point;
use crate::text;

/// How much input is read, and output written, at a time.
pub const BUFFER: usize = 64 * 1024;

/// How much of a line that spans two reads is kept: more than the longest
/// command, which is all [`Command::parse_head`] needs.
pub const HEAD: usize = 16;
const _: () = assert!(HEAD > command::LONGEST);

/// Ways to run a session other than SPEC.md's plain one.
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
    /// The process exit code SPEC.md gives this stop.
    pub const fn exit_code(self) -> u8 {
        match self {
            Stop::Ended(_) => 0,
            Stop::Term | Stop::EndOfInput => 1,
        }
    }
}

/// A failure of the input or the output.
#[derive(Debug, Error)]
pub enum SessionError {
    /// Reading the input failed.
    #[error("cannot read input: {0}")]
    Read(#[source] io::Error),
    /// Writing the output failed (a closed pipe among others).
    #[error("cannot write output: {0}")]
    Write(#[source] io::Error),
}

/// Plays `game` with commands from `input`, replying on `output`, until the
/// game ends, `term` is read or the input ends.
///
/// Output is buffered and flushed whenever all input read so far has been
/// answered, so a client that waits for each reply gets it at once.
///
/// # Errors
///
/// [`SessionError`] if reading or writing fails; what was answered before
/// may or may not have been written.
pub fn run<R: Read, W: Write>(
    game: Game,
    settings: Settings,
    input: R,
    output: W,
) -> Result<Stop, SessionError> {
    let mut input = BufReader::with_capacity(BUFFER, input);
    let mut session = Session::new(game, settings, output);
    let stop = read_loop(&mut input, &mut session, settings.crlf)?;
    session.out.flush().map_err(SessionError::Write)?;
    Ok(stop)
}

fn read_loop<R: BufRead, W: Write>(
    input: &mut R,
    session: &mut Session<W>,
    crlf: bool,
) -> Result<Stop, SessionError> {
    let mut partial = Partial::default();
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(SessionError::Read(e)),
        };
        if chunk.is_empty() {
            if partial.is_empty() {
                return Ok(Stop::EndOfInput);
            }
            let (head, rest_ws) = partial.line(crlf);
            let stop = session.line(head, rest_ws).map_err(SessionError::Write)?;
            return Ok(stop.unwrap_or(Stop::EndOfInput));
        }
        let mut rest = chunk;
        while let Some(at) = memchr(b'\n', rest) {
            let line = &rest[..at];
            rest = &rest[at + 1..];
            let stop = if partial.is_empty() {
                let line = match crlf {
                    true => line.strip_suffix(b"\r").unwrap_or(line),
                    false => line,
                };
                session.line(line, false)
            } else {
                partial.push(line);
                let (head, rest_ws) = partial.line(crlf);
                let stop = session.line(head, rest_ws);
                partial = Partial::default();
                stop
            };
            if let Some(stop) = stop.map_err(SessionError::Write)? {
                return Ok(stop);
            }
        }
        partial.push(rest);
        let read = chunk.len();
        input.consume(read);
        // Everything read so far is answered; the next read may block.
        session.out.flush().map_err(SessionError::Write)?;
    }
}

/// A line that did not end within one read: its first [`HEAD`] bytes, and
/// only counts of the rest.
#[derive(Default)]
struct Partial {
    head: [u8; HEAD],
    len: usize,
    rest_whitespace: usize,
    last: u8,
}

impl Partial {
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, bytes: &[u8]) {
        let Some(&last) = bytes.last() else {
            return;
        };
        let kept = HEAD.saturating_sub(self.len).min(bytes.len());
        let (keep, rest) = bytes.split_at(kept);
        if let Some(room) = self.head.get_mut(self.len..self.len + kept) {
            room.copy_from_slice(keep);
        }
        // Only a `place` line's answer depends on the rest.
        if !rest.is_empty() && self.head.starts_with(b"place ") {
            self.rest_whitespace += rest.iter().filter(|&&b| command::is_whitespace(b)).count();
        }
        self.len = self.len.saturating_add(bytes.len());
        self.last = last;
    }

    /// The head of the line and whether whitespace follows it, once any
    /// final `\r` that `crlf` drops is gone.
    fn line(&self, crlf: bool) -> (&[u8], bool) {
        let mut len = self.len;
        let mut rest_whitespace = self.rest_whitespace;
        if crlf && self.last == b'\r' {
            if len > HEAD {
                // The `\r` itself, if the rest was counted at all.
                rest_whitespace = rest_whitespace.saturating_sub(1);
            }
            len -= 1;
        }
        (&self.head[..len.min(HEAD)], rest_whitespace > 0)
    }
}

/// The game and what it takes to answer it.
struct Session<W: Write> {
    game: Game,
    settings: Settings,
    out: BufWriter<W>,
    view: Vec<u8>,
    history: Vec<u8>,
    picture: Vec<u8>,
}

impl<W: Write> Session<W> {
    fn new(game: Game, settings: Settings, output: W) -> Session<W> {
        let mut view = Vec::with_capacity(text::VIEW_LINE_MAX);
        text::view_line(&mut view, game.board(), game.centre());
        let mut history = Vec::with_capacity(text::HISTORY_LINE_MAX);
        text::history_line(&mut history, game.moves());
        Session {
            game,
            settings,
            out: BufWriter::with_capacity(BUFFER, output),
            view,
            history,
            picture: Vec::with_capacity(text::BOARD_PICTURE_LEN),
        }
    }

    /// Answers one line, known by its head and whether whitespace follows
    /// (see [`Command::parse_head`]).
    fn line(&mut self, head: &[u8], rest_ws: bool) -> io::Result<Option<Stop>> {
        match Command::parse_head(head, rest_ws) {
            Ok(Command::Who) => self.out.write_all(text::who(self.game.to_move()))?,
            Ok(Command::View) => {
                self.out.write_all(&self.view)?;
                if self.settings.board {
                    self.write_picture(Some(self.game.centre()))?;
                }
            }
            Ok(Command::History) => self.out.write_all(&self.history)?,
            Ok(Command::Place(p)) => match self.game.place(p) {
                Ok(None) => self.placed(p),
                Ok(Some(ending)) => {
                    self.placed(p);
                    return self.end(ending).map(Some);
                }
                Err(_) => self.out.write_all(text::OCCUPIED)?,
            },
            Ok(Command::Resign) => return self.end(self.game.resign()).map(Some),
            Ok(Command::Term) => return Ok(Some(Stop::Term)),
            Err(ParseCommandError::NotACommand) => self.out.write_all(text::INVALID)?,
            Err(ParseCommandError::NotAPoint(_)) => self.out.write_all(text::INVALID_COORDINATE)?,
        }
        Ok(None)
    }

    fn placed(&mut self, p: Point) {
        text::view_line(&mut self.view, self.game.board(), self.game.centre());
        text::extend_history_line(&mut self.history, p);
    }

    fn end(&mut self, ending: Ending) -> io::Result<Stop> {
        self.out.write_all(text::result(ending))?;
        self.out.write_all(&self.history)?;
        if self.settings.board {
            self.write_picture(None)?;
        }
        self.out.write_all(text::THANKS)?;
        Ok(Stop::Ended(ending))
    }

    fn write_picture(&mut self, centre: Option<Point>) -> io::Result<()> {
        self.picture.clear();
        text::board_picture(&mut self.picture, self.game.board(), centre);
        self.out.write_all(&self.picture)
    }
}
