//! The read loop: lines in from any reader, each answered by a
//! [`Session`], until the game or the input ends. It does I/O only through
//! the reader and writer it is handed.
//!
//! Speed: a short line that lies whole in the read buffer, nearly every
//! line, is found and decoded in straight-line code
//! ([`decode`](super::decode)), and answered without a branch on its bytes.
//!
//! Memory stays bounded whatever the input: any other line is answered
//! from its first [`HEAD`] bytes and a count of the whitespace after them
//! (see [`Command::parse_head`](command::Command::parse_head)).

use std::io::{self, BufRead, BufReader, Read, Write};

use memchr::memchr;
use thiserror::Error;

use super::decode::{WINDOW, decode};
use super::opponent::Opponent;
use super::session::{Session, Settings, Stop, without_cr};
use crate::rules::command;
use crate::rules::game::Game;

/// How much input is read at a time.
pub const BUFFER: usize = 64 * 1024;

/// How much of a line that spans two reads is kept: more than the longest
/// command, which is all [`Command::parse_head`](command::Command::parse_head) needs.
pub const HEAD: usize = 16;
const _: () = assert!(HEAD > command::LONGEST);

/// How a session ended, and how much input it read but did not answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finish {
    /// Why it stopped.
    pub stop: Stop,
    /// Bytes read ahead, after the last line answered, that no line was
    /// answered from: a caller can hand them back to the next reader.
    pub unread: usize,
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
    play(game, settings, None, input, output).map(|finish| finish.stop)
}

/// As [`run`], and says how many bytes it read past the last line it
/// answered.
///
/// # Errors
///
/// As [`run`].
// Kept out of `main`, so what the shell around it grows into does not change
// how the read loop is compiled.
#[inline(never)]
pub fn play<R: Read, W: Write>(
    game: Game,
    settings: Settings,
    opponent: Option<Box<dyn Opponent>>,
    input: R,
    output: W,
) -> Result<Finish, SessionError> {
    let mut input = BufReader::with_capacity(BUFFER, input);
    let mut session = Session::new(game, settings, output).with_opponent(opponent);
    // The computer may be the one to open the game.
    if let Some(stop) = session.opponent_moves().map_err(SessionError::Write)? {
        session.flush().map_err(SessionError::Write)?;
        return Ok(Finish { stop, unread: 0 });
    }
    let mut unread = 0;
    let stop = read_loop(&mut input, &mut session, settings.crlf, &mut unread)?;
    session.flush().map_err(SessionError::Write)?;
    Ok(Finish { stop, unread })
}

fn read_loop<R: BufRead, W: Write>(
    input: &mut R,
    session: &mut Session<W>,
    crlf: bool,
    unread: &mut usize,
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
            let stop = session
                .head_line(head, rest_ws)
                .map_err(SessionError::Write)?;
            return Ok(stop.unwrap_or(Stop::EndOfInput));
        }
        let mut rest = chunk;
        loop {
            // The fast path: a short line, whole in the buffer.
            if let (true, Some(window)) = (partial.is_empty(), rest.first_chunk::<WINDOW>()) {
                if let Some(at) = newline_in(window) {
                    let len = without_cr(&window[..at], crlf).len();
                    rest = &rest[at + 1..];
                    match session.answer(decode(window, len)) {
                        Ok(None) => continue,
                        Ok(Some(stop)) => {
                            *unread = rest.len();
                            return Ok(stop);
                        }
                        Err(e) => return Err(SessionError::Write(e)),
                    }
                }
            }
            let Some(at) = memchr(b'\n', rest) else {
                break;
            };
            let line = &rest[..at];
            rest = &rest[at + 1..];
            let stop = if partial.is_empty() {
                session.head_line(without_cr(line, crlf), false)
            } else {
                partial.push(line);
                let (head, rest_ws) = partial.line(crlf);
                let stop = session.head_line(head, rest_ws);
                partial = Partial::default();
                stop
            };
            if let Some(stop) = stop.map_err(SessionError::Write)? {
                *unread = rest.len();
                return Ok(stop);
            }
        }
        partial.push(rest);
        let read = chunk.len();
        input.consume(read);
        // Everything read so far is answered; the next read may block.
        session.flush().map_err(SessionError::Write)?;
    }
}

/// Where the first `\n` in `window` is, if there is one.
///
/// The bytes are tested eight at a time as one number, so finding the end
/// of a short line costs a few instructions and at most one branch.
#[inline]
fn newline_in(window: &[u8; WINDOW]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    const NEWLINES: u64 = u64::from_le_bytes([b'\n'; 8]);
    // A zero byte of `x` is a newline of the window. Subtracting one from
    // each byte sets the high bit of a zero byte; a borrow can also set it
    // in bytes above the first zero, but never below, so the lowest marked
    // byte is the first newline.
    let marks = |half: &[u8; 8]| {
        let x = u64::from_le_bytes(*half) ^ NEWLINES;
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let (low, high) = window.split_at(8);
    // A line of up to seven bytes ends in the low half; `place` lines, in
    // the high half. Which half tells what kind of line it is, so this
    // branch mispredicts where the decoder's would have.
    let low = low.first_chunk::<8>().map_or(0, marks);
    if low != 0 {
        return Some(low.trailing_zeros() as usize / 8);
    }
    let high = high.first_chunk::<8>().map_or(0, marks);
    (high != 0).then(|| 8 + high.trailing_zeros() as usize / 8)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::rule::Rule;
    use proptest::prelude::*;

    /// Lines a game is made of, and the mistakes around them.
    fn line() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            Just(b"who".to_vec()),
            Just(b"view".to_vec()),
            Just(b"history".to_vec()),
            Just(b"Who".to_vec()),
            Just(b"place A1 ".to_vec()),
            Just(b"place A01".to_vec()),
            Just(b"resign".to_vec()),
            Just(b"term".to_vec()),
            (0..19_u8, 1..=19_u8).prop_map(|(c, r)| format!(
                "place {}{r}",
                char::from(b'A' + c % 5)
            )
            .into_bytes()),
            proptest::collection::vec(any::<u8>().prop_filter("one line", |&b| b != b'\n'), 0..30),
        ]
    }

    proptest! {
        #[test]
        fn line_by_line_answers_as_the_stream_does(
            lines in proptest::collection::vec(line(), 0..60),
            board in any::<bool>(),
        ) {
            let settings = Settings { board, crlf: false };
            let input: Vec<u8> = lines.iter().flat_map(|l| l.iter().chain(b"\n")).copied().collect();
            let mut streamed = Vec::new();
            let stream_stop = run(Game::new(Rule::Freestyle), settings, &input[..], &mut streamed).unwrap();
            let mut by_line = Vec::new();
            let mut session = Session::new(Game::new(Rule::Freestyle), settings, &mut by_line);
            let mut stop = None;
            for l in &lines {
                stop = session.line(l).unwrap();
                if stop.is_some() {
                    break;
                }
            }
            session.flush().unwrap();
            drop(session);
            prop_assert_eq!(stop.unwrap_or(Stop::EndOfInput), stream_stop);
            prop_assert_eq!(by_line.escape_ascii().to_string(), streamed.escape_ascii().to_string());
        }
    }
}
