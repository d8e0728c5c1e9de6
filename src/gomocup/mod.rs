//! The Gomocup brain: the Piskvork manager protocol over any reader and
//! writer, with any [`Brain`] choosing the moves.
//!
//! A Gomocup manager starts the brain as a process and talks to it through
//! its standard input and output, one command a line. This module keeps
//! the protocol apart from the thinking: [`serve`] reads commands, keeps the
//! position, the rule and the clock, and asks a [`Brain`] only "which
//! point, within these [`Limits`]?". It never does I/O but through the
//! reader and writer it is handed, so whole games are tested in-process.
//!
//! # Protocol
//!
//! `START n` (any square board from 5 to 22; `RECTSTART` is refused),
//! `RESTART`, `BEGIN`, `TURN x,y`,
//! `PLAY x,y`, `BOARD` … `x,y,field` … `DONE`, `TAKEBACK x,y`,
//! `INFO key value`, `ABOUT` and `END` are understood, in any letter case;
//! a move is answered `x,y`. A word that is no command gets `UNKNOWN`, a
//! command that cannot be followed `ERROR`, each with a reason; `INFO`
//! gets no reply. Empty lines are skipped, and `\r\n`, `\n` and a last line
//! without an ending are all lines. Each reply is flushed at once.
//!
//! # Coordinates
//!
//! Gomocup's `x,y` are zero-based from the top-left corner; our `A1` is
//! the bottom-left corner: on the 19×19 board column = `x` + 1, row =
//! 19 − `y`, so `0,0` is `A19`, `18,0` is `S19`, `0,18` is `A1` and
//! `18,18` is `S1` (see [`coord`]). The engine takes `x,y` as they are,
//! on any size.
//!
//! # Invariants
//!
//! - A reply to `BEGIN`, `TURN`, `PLAY` or `DONE` is a legal move: an empty
//!   point on the board. A brain that offers no move or a taken point is
//!   overruled with the empty point nearest the centre.
//! - A command answered `ERROR` or `UNKNOWN` changes nothing.
//! - No input makes the brain panic or wait for more than a line: at most
//!   [`MAX_LINE`] bytes of a line are kept.

pub mod clock;
pub mod coord;
pub mod parse;
pub mod protocol;

use std::io::{self, BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use thiserror::Error;

use crate::engine::{DEFAULT_MEMORY, Engine, Limits, Setup, Spot};

pub use protocol::{Flow, Protocol};

/// The longest line kept whole; only `INFO folder` could need more, and it
/// is ignored.
pub const MAX_LINE: usize = 4096;

/// Something that chooses moves.
pub trait Brain {
    /// A new game begins: forget the last one. `memory_bytes` is the most
    /// the brain may hold (`None`: no limit). Called at `START` and
    /// `RESTART`, and again before the next move when the manager changes
    /// `max_memory` (as it does after the `START` of its first game).
    fn new_game(&mut self, memory_bytes: Option<u64>);

    /// Called after [`Brain::new_game`] at `START` and `RESTART`, while
    /// the manager waits for `OK` and no turn's clock runs: work done here
    /// to be ready for the first move costs that move no time. Nothing by
    /// default.
    fn get_ready(&mut self) {}

    /// The point the side to move plays on `setup`, thinking within
    /// `budget`; `None` if the brain has none to offer.
    fn choose(&mut self, setup: &Setup, budget: Limits) -> Option<Spot>;

    /// Lines to show the manager about the last [`Brain::choose`] (each
    /// written as a `MESSAGE`, before the move): none by default.
    fn messages(&self) -> Vec<String> {
        Vec::new()
    }

    /// Whether the last [`Brain::choose`] was cut short by the halt flag
    /// [`serve`] raises at `END`.
    fn interrupted(&self) -> bool {
        false
    }
}

/// The search engine as a brain: what `pbrain-gomoku-mist` plays with.
impl Brain for Engine {
    /// An empty table (see [`Engine::reset`]: a fresh one, the old freed
    /// first so that memory never holds two, or the old one emptied in
    /// place if written and of the same size). A fresh table's pages are
    /// written by [`Brain::get_ready`] or, failing that, by the first
    /// search on more than one thread (see [`Engine::commit_table`]).
    /// Under a limit the table leaves room for the helper threads (see
    /// [`Engine::reset_within`]); with none it takes the default size.
    fn new_game(&mut self, memory_bytes: Option<u64>) {
        match memory_bytes {
            Some(limit) => self.reset_within(usize::try_from(limit).unwrap_or(usize::MAX)),
            None => self.reset(DEFAULT_MEMORY),
        }
    }

    /// Writes the table's pages while no clock runs, so that the game's
    /// first search, on any number of threads, faults none of them in
    /// (about 90 ms for a table of 256 MiB, that move's time otherwise).
    fn get_ready(&mut self) {
        self.commit_table();
    }

    fn choose(&mut self, setup: &Setup, budget: Limits) -> Option<Spot> {
        self.search(setup, budget).map(|found| found.best)
    }

    fn interrupted(&self) -> bool {
        Engine::interrupted(self)
    }

    /// One line per completed depth: depth-selective depth, the score
    /// (`ev`) or `mate N` plies, nodes, nodes a second, milliseconds and
    /// the principal variation in Gomocup coordinates.
    fn messages(&self) -> Vec<String> {
        self.reports()
            .iter()
            .map(|r| r.line(|s| format!("{},{}", s.x, s.y)))
            .collect()
    }
}

/// Why the brain stopped other than by `END` or end of input.
#[derive(Debug, Error)]
pub enum GomocupError {
    /// The manager's commands could not be read.
    #[error("cannot read the manager's commands: {0}")]
    Read(#[source] io::Error),
    /// A reply could not be written.
    #[error("cannot write a reply: {0}")]
    Write(#[source] io::Error),
}

/// The `ABOUT` reply, newline included.
pub const ABOUT: &str = concat!(
    "name=\"gomoku-mist\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"gomoku-mist developers\", country=\"n/a\", www=\"n/a\"\n"
);

/// Where `END` and the end of input stand in the stream of commands, as
/// the reader thread of [`serve`] has seen them: numbered from 1, blank
/// lines not counted.
#[derive(Debug, Default)]
struct Seen {
    /// The command being answered.
    answering: u64,
    /// The number of the `END` line, or of the end of input (one past the
    /// last command).
    end: Option<(u64, End)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Command,
    Input,
}

/// Speaks the protocol on `input` and `output` until `END` or the end of
/// input, with `brain` choosing the moves. The commands are read on a
/// thread of their own, so an `END` (or the end of input) that comes while
/// the brain thinks raises
/// `halt`, which the brain's search watches: the search stops within a
/// few hundred nodes, and after `END` nothing more is written. A brain
/// that does not watch `halt` just answers late.
///
/// # Errors
///
/// [`GomocupError`] if reading or writing fails.
pub fn serve<B, R, W>(
    brain: &mut B,
    input: R,
    mut output: W,
    halt: Arc<AtomicBool>,
) -> Result<(), GomocupError>
where
    B: Brain + ?Sized,
    R: Read + Send + 'static,
    W: Write,
{
    let seen = Arc::new(Mutex::new(Seen::default()));
    let (send, lines) = mpsc::channel::<io::Result<(Vec<u8>, bool)>>();
    {
        let seen = Arc::clone(&seen);
        let halt = Arc::clone(&halt);
        // Not joined: after END it may sit in a read the manager never
        // completes, and the process ends without it.
        std::thread::spawn(move || read_commands(input, &send, &seen, &halt));
    }
    let lock = |seen: &Mutex<Seen>| -> Seen {
        let s = seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Seen {
            answering: s.answering,
            end: s.end,
        }
    };
    let mut protocol = Protocol::new();
    let mut reply = Vec::new();
    let mut number = 0;
    for message in lines {
        let (line, whole) = message.map_err(GomocupError::Read)?;
        number += 1;
        {
            let mut s = seen
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            s.answering = number;
            // An end already read right behind this command: no time to
            // think.
            halt.store(
                s.end.is_some_and(|(at, _)| at == number + 1),
                Ordering::Relaxed,
            );
        }
        reply.clear();
        let flow = protocol.handle(&line, whole, brain, &mut reply);
        let ended = lock(&seen).end == Some((number + 1, End::Command));
        if ended && brain.interrupted() {
            break;
        }
        if !reply.is_empty() {
            output
                .write_all(&reply)
                .and_then(|()| output.flush())
                .map_err(GomocupError::Write)?;
        }
        if flow == Flow::End {
            break;
        }
    }
    Ok(())
}

/// The reader thread of [`serve`]: every command line to `send`, in
/// order; marks `END` and the end of input in `seen`, and raises `halt`
/// when one comes right behind the command being answered.
fn read_commands<R: Read>(
    input: R,
    send: &mpsc::Sender<io::Result<(Vec<u8>, bool)>>,
    seen: &Mutex<Seen>,
    halt: &AtomicBool,
) {
    let mut input = io::BufReader::new(input);
    let mut line = Vec::with_capacity(MAX_LINE);
    let mut number = 0;
    let mark = |at: u64, end: End| {
        let mut s = seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        s.end = Some((at, end));
        if s.answering + 1 == at {
            halt.store(true, Ordering::Relaxed);
        }
    };
    loop {
        match read_line(&mut input, &mut line) {
            Ok(Some(whole)) => {
                if line.trim_ascii().is_empty() {
                    continue;
                }
                number += 1;
                let is_end = matches!(parse::parse(&line), Ok(Some(parse::Command::End)));
                if is_end {
                    mark(number, End::Command);
                }
                if send.send(Ok((line.clone(), whole))).is_err() || is_end {
                    return;
                }
            }
            Ok(None) => {
                mark(number + 1, End::Input);
                return;
            }
            Err(e) => {
                let _ = send.send(Err(e));
                return;
            }
        }
    }
}

/// Reads the next line into `line`, without its `\n`, keeping at most
/// [`MAX_LINE`] bytes of it: `Some(true)` if it was kept whole, `None` at
/// the end of input.
fn read_line<R: BufRead>(input: &mut R, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let mut whole = true;
    let mut read_any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(read_any.then_some(whole));
        }
        read_any = true;
        let (part, used, done) = match memchr::memchr(b'\n', buffer) {
            Some(at) => (&buffer[..at], at + 1, true),
            None => (buffer, buffer.len(), false),
        };
        let room = MAX_LINE - line.len();
        whole &= part.len() <= room;
        line.extend_from_slice(&part[..part.len().min(room)]);
        input.consume(used);
        if done {
            return Ok(Some(whole));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<(Vec<u8>, bool)> {
        let mut input = io::BufReader::with_capacity(7, input);
        let mut line = Vec::new();
        let mut lines = Vec::new();
        while let Some(whole) = read_line(&mut input, &mut line).expect("a slice reads") {
            lines.push((line.clone(), whole));
        }
        lines
    }

    #[test]
    fn lines_end_at_newlines_and_at_the_end() {
        let got = lines(b"START 19\r\nBEGIN\n\nEND");
        let expected: Vec<(Vec<u8>, bool)> = [&b"START 19\r"[..], b"BEGIN", b"", b"END"]
            .into_iter()
            .map(|l| (l.to_vec(), true))
            .collect();
        assert_eq!(got, expected);
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"\n"), vec![(Vec::new(), true)]);
    }

    #[test]
    fn a_long_line_keeps_only_its_head() {
        let mut input = vec![b'y'; MAX_LINE * 3];
        input.extend_from_slice(b"\nEND\n");
        let got = lines(&input);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0.len(), MAX_LINE);
        assert!(!got[0].1, "the long line is marked cut");
        assert_eq!(got[1], (b"END".to_vec(), true));
        let exact = vec![b'y'; MAX_LINE];
        assert_eq!(lines(&exact), vec![(exact.clone(), true)]);
    }
}

#[cfg(test)]
mod protocol_tests;
