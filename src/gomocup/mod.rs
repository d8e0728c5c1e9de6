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
//! `INFO key value`, `ABOUT`, `END` and `YXSTOP` are understood, in any
//! letter case; a move is answered `x,y`. A word that is no command gets
//! `UNKNOWN`, a command that cannot be followed `ERROR`, each with a
//! reason; `INFO` gets no reply, whatever it holds (at most a `MESSAGE`
//! says it was ignored), even inside a `BOARD` block. Empty lines are
//! skipped, and `\r\n`, `\n` and a last line without an ending are all
//! lines. Each reply is flushed at once, and so is each note of the brain
//! while it thinks (the search's `MESSAGE depth …`, one as each depth
//! completes). While the brain thinks, `END`, `YXSTOP`, `RESTART` and
//! `START` are heard at once (see [`serve`]).
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
//!   overruled with the empty point nearest the centre. The one exception:
//!   a think that a new game stopped has no reply.
//! - `INFO` is never answered `ERROR` or `UNKNOWN`.
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

use crate::engine::{DEFAULT_MEMORY, Engine, Limits, MAX_SIZE, MIN_SIZE, Report, Setup, Spot};

pub use protocol::{Flow, Live, Protocol};

/// The longest line kept whole; only `INFO folder` could need more, and it
/// is ignored.
pub const MAX_LINE: usize = 4096;

/// Something that chooses moves.
pub trait Brain {
    /// A new game begins: forget the last one. `memory_bytes` is the most
    /// the brain may hold (`None`: no limit). Called at `START` and
    /// `RESTART` once the manager has said `max_memory`, while it waits for
    /// `OK` and no turn's clock runs; before that (a manager's first game)
    /// and when the manager changes `max_memory`, before the next move,
    /// whose time it then takes.
    fn new_game(&mut self, memory_bytes: Option<u64>);

    /// The point the side to move plays on `setup`, thinking within
    /// `budget`; `None` if the brain has none to offer. What it tells
    /// `notes` while it thinks (a line, without its newline) is written
    /// to the manager at once as a `MESSAGE`.
    fn choose(
        &mut self,
        setup: &Setup,
        budget: Limits,
        notes: &mut dyn FnMut(&str),
    ) -> Option<Spot>;

    /// Whether the last [`Brain::choose`] was cut short by the halt flag
    /// that [`serve`] raises.
    fn interrupted(&self) -> bool {
        false
    }
}

/// The search engine as a brain: what `pbrain-gomoku-mist` plays with.
impl Brain for Engine {
    /// An empty table (see [`Engine::reset`]: at once whatever the size;
    /// a table of a new size is made on a thread of its own, the old one
    /// freed first, while the searches use a small stand-in). Under a limit
    /// the table leaves room for the helper threads (see
    /// [`Engine::reset_within`]); with none it takes the default size.
    fn new_game(&mut self, memory_bytes: Option<u64>) {
        match memory_bytes {
            Some(limit) => self.reset_within(usize::try_from(limit).unwrap_or(usize::MAX)),
            None => self.reset(DEFAULT_MEMORY),
        }
    }

    /// Notes one line per completed depth, as it completes:
    /// depth-selective depth, the score (`ev`) or `mate N` plies, nodes,
    /// nodes a second, milliseconds and the principal variation in Gomocup
    /// coordinates.
    fn choose(
        &mut self,
        setup: &Setup,
        budget: Limits,
        notes: &mut dyn FnMut(&str),
    ) -> Option<Spot> {
        let mut report = |r: &Report| notes(&r.line(|s| format!("{},{}", s.x, s.y)));
        self.search_with(setup, budget, &mut report)
            .map(|found| found.best)
    }

    fn interrupted(&self) -> bool {
        Engine::interrupted(self)
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

/// Speaks the protocol on `input` and `output` until `END` or the end of
/// input, with `brain` choosing the moves. The commands are read on a
/// thread of their own, so that one sent while the brain thinks is heard
/// at once: the thread raises `halt`, which the brain's search watches
/// (it stops within a few hundred nodes), when one of these comes while
/// the brain is answering a command, or right behind the command:
///
/// - `END`: the session ends, and after a think it stopped nothing more is
///   written (the commands between are not answered);
/// - `YXSTOP`: the brain plays the best move it has;
/// - `RESTART`, or a `START` the brain plays: the move is dropped unwritten,
///   and the new game begins;
/// - the end of input: the brain plays the best move it has, then stops.
///
/// Lines read in one go were sent before any reply to them: they are taken
/// in order as commands, and stop nothing in front of them but a think
/// right before them, so a manager (or a file) that sends a whole session
/// at once gets every answer. The brain's notes are written as they come,
/// each flushed. A brain that does not watch `halt` just answers late.
///
/// # Errors
///
/// [`GomocupError`] if reading or writing fails.
pub fn serve<B, R, W>(
    brain: &mut B,
    input: R,
    output: W,
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
    let mut protocol = Protocol::new();
    let mut out = Out {
        output,
        seen: &seen,
        failed: None,
    };
    let mut reply = Vec::new();
    let mut number = 0;
    for message in lines {
        let (line, whole) = message.map_err(GomocupError::Read)?;
        number += 1;
        {
            let mut s = lock(&seen);
            s.answering = number;
            s.busy = true;
            s.during = During::default();
            s.halting.retain(|&at| at > number);
            halt.store(s.halting.contains(&(number + 1)), Ordering::Relaxed);
        }
        reply.clear();
        let flow = protocol.handle(&line, whole, brain, &mut reply, &mut out);
        if let Some(e) = out.failed.take() {
            return Err(GomocupError::Write(e));
        }
        let (during, end_behind) = {
            let mut s = lock(&seen);
            s.busy = false;
            (s.during, s.end == Some((number + 1, End::Command)))
        };
        if during.end || (end_behind && brain.interrupted()) {
            break;
        }
        if !reply.is_empty() {
            out.output
                .write_all(&reply)
                .and_then(|()| out.output.flush())
                .map_err(GomocupError::Write)?;
        }
        if flow == Flow::End {
            break;
        }
    }
    Ok(())
}

/// The commands as the reader thread of [`serve`] has seen them, beside
/// the one being answered: numbered from 1, blank lines not counted.
#[derive(Debug, Default)]
struct Seen {
    /// The command being answered, or the last one answered.
    answering: u64,
    /// Whether `answering` is being answered now.
    busy: bool,
    /// What came while it was.
    during: During,
    /// The `END` and `YXSTOP` lines read, and the end of input (one past
    /// the last line), that are not yet answered: each stops a think right
    /// in front of it.
    halting: Vec<u64>,
    /// The number of the `END` line, or of the end of input.
    end: Option<(u64, End)>,
}

/// What came while a command was answered.
#[derive(Clone, Copy, Debug, Default)]
struct During {
    end: bool,
    new_game: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Command,
    Input,
}

/// What a line does to a think in front of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `END`.
    End,
    /// `YXSTOP`.
    Stop,
    /// `RESTART`, or a `START` with a size the brain plays (one it does
    /// not play leaves the game as it was).
    NewGame,
    /// The end of input.
    Input,
    /// Anything else.
    Other,
}

impl Kind {
    fn of(line: &[u8]) -> Kind {
        match parse::parse(line) {
            Ok(Some(parse::Command::End)) => Kind::End,
            Ok(Some(parse::Command::Stop)) => Kind::Stop,
            Ok(Some(parse::Command::Restart)) => Kind::NewGame,
            Ok(Some(parse::Command::Start(n)))
                if u8::try_from(n).is_ok_and(|n| (MIN_SIZE..=MAX_SIZE).contains(&n)) =>
            {
                Kind::NewGame
            }
            _ => Kind::Other,
        }
    }
}

fn lock(seen: &Mutex<Seen>) -> std::sync::MutexGuard<'_, Seen> {
    seen.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The manager's end of [`serve`], as the protocol sees it while it
/// answers.
struct Out<'a, W> {
    output: W,
    seen: &'a Mutex<Seen>,
    /// The first write that failed.
    failed: Option<io::Error>,
}

impl<W: Write> Live for Out<'_, W> {
    fn send_now(&mut self, lines: &[u8]) {
        // After END, nothing.
        if self.failed.is_some() || lock(self.seen).during.end {
            return;
        }
        if let Err(e) = self
            .output
            .write_all(lines)
            .and_then(|()| self.output.flush())
        {
            self.failed = Some(e);
        }
    }

    fn move_wanted(&self) -> bool {
        !lock(self.seen).during.new_game
    }
}

/// The reader thread of [`serve`]: every command line to `send`, in
/// order, each marked in `seen` first; raises `halt` when one stops the
/// command being answered (see [`serve`]).
fn read_commands<R: Read>(
    input: R,
    send: &mpsc::Sender<io::Result<(Vec<u8>, bool)>>,
    seen: &Mutex<Seen>,
    halt: &AtomicBool,
) {
    let mut input = io::BufReader::with_capacity(READ_AHEAD, input);
    let mut line = Vec::with_capacity(MAX_LINE);
    let mut number = 0;
    // The lines read in one go, marked but not yet passed on: none of them
    // is answered before all are marked, so none stops a think before it
    // but one right before it.
    let mut taken = Vec::new();
    let pass_on =
        |taken: &mut Vec<(Vec<u8>, bool)>| taken.drain(..).all(|line| send.send(Ok(line)).is_ok());
    loop {
        if !input.buffer().contains(&b'\n') && !pass_on(&mut taken) {
            return;
        }
        match read_line(&mut input, &mut line) {
            Ok(Some(whole)) => {
                if line.trim_ascii().is_empty() {
                    continue;
                }
                number += 1;
                let kind = Kind::of(&line);
                mark(seen, halt, number, kind);
                taken.push((line.clone(), whole));
                if kind == Kind::End {
                    pass_on(&mut taken);
                    return;
                }
            }
            Ok(None) => {
                mark(seen, halt, number + 1, Kind::Input);
                pass_on(&mut taken);
                return;
            }
            Err(e) => {
                if pass_on(&mut taken) {
                    let _ = send.send(Err(e));
                }
                return;
            }
        }
    }
}

/// How much input is read in one go: more than a manager sends at once.
const READ_AHEAD: usize = 64 << 10;

/// Marks line `at` of `kind` in `seen`, and raises `halt` if it stops the
/// command being answered.
fn mark(seen: &Mutex<Seen>, halt: &AtomicBool, at: u64, kind: Kind) {
    let mut s = lock(seen);
    match kind {
        Kind::End => s.end = Some((at, End::Command)),
        Kind::Input => s.end = Some((at, End::Input)),
        Kind::Stop | Kind::NewGame | Kind::Other => {}
    }
    let halts = matches!(kind, Kind::End | Kind::Stop | Kind::Input);
    if halts {
        s.halting.push(at);
    }
    let now = s.busy && kind != Kind::Other;
    if now {
        s.during.end |= kind == Kind::End;
        s.during.new_game |= kind == Kind::NewGame;
    }
    if now || (halts && s.answering + 1 == at) {
        halt.store(true, Ordering::Relaxed);
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
