//! A small line editor over `/dev/tty`, in raw mode for the whole game.
//!
//! Why not a line-editing crate: the contract's lines are bytes, and the
//! editors we tried return `String`s (rustyline ends the session on a byte
//! that is not UTF-8) and make a bracketed paste one line. This one keeps
//! every byte (control bytes by Ctrl-V, or pasted), makes each pasted line
//! a line, and, since raw mode stays on while the computer thinks, keys
//! typed then are neither echoed into the board nor turned into signals:
//! they wait for the next prompt, less any Ctrl-C.
//!
//! What it shows of a line is [`shown`]: printable text as it is, control
//! bytes as `^X`, bytes that are not UTF-8 as `\xNN`; a line wider than
//! the terminal scrolls sideways around the cursor.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::thread;
use std::time::Duration;

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::termios::{self, InputModes, LocalModes, OptionalActions, SpecialCodeIndex, Termios};
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;
use signal_hook::low_level::emulate_default_handler;

use unicode_width::UnicodeWidthStr;

use super::keys::{ESCAPE_WAIT, Key, Keys};
use super::{Keyboard, TerminalError, Typed};

/// Turns on bracketed paste: the terminal marks where a paste starts and ends.
const PASTE_ON: &[u8] = b"\x1b[?2004h";
const PASTE_OFF: &[u8] = b"\x1b[?2004l";
/// Erases from the cursor to the end of the screen's line.
const ERASE_LINE: &[u8] = b"\x1b[K";
/// Homes the cursor and clears the screen.
const CLEAR_SCREEN: &[u8] = b"\x1b[H\x1b[J";

/// The line being edited, the history, and how both are shown. Pure: keys
/// in, bytes for the terminal out, so it is tested without one.
#[derive(Debug, Default)]
pub struct Line {
    bytes: Vec<u8>,
    /// A byte offset in `bytes`, always at the start of a character.
    cursor: usize,
    history: Vec<Vec<u8>>,
    /// Which history line is shown, if one is; `history.len()` is the new line.
    browsing: usize,
    /// The line being typed when browsing began.
    draft: Vec<u8>,
}

/// What a key did to the line.
#[derive(Debug, PartialEq, Eq)]
pub enum Edited {
    /// The line may have changed: draw it again.
    Redraw,
    /// The line is done: here it is (also added to the history).
    Done(Vec<u8>),
    /// Ctrl-C: the line is dropped.
    Dropped,
    /// Ctrl-D on an empty line.
    End,
    /// Ctrl-L: clear the screen, then draw the line again.
    Clear,
    /// A function key: the line stays as it is, for the caller to act on
    /// the key and then prompt again.
    Function(u8),
}

impl Line {
    /// Applies one key.
    pub fn key(&mut self, key: Key) -> Edited {
        match key {
            Key::Byte(b) => {
                self.bytes.insert(self.cursor, b);
                self.cursor += 1;
            }
            Key::Enter => {
                let line = std::mem::take(&mut self.bytes);
                self.cursor = 0;
                if !line.is_empty() && self.history.last() != Some(&line) {
                    self.history.push(line.clone());
                }
                self.browsing = self.history.len();
                return Edited::Done(line);
            }
            Key::Backspace => {
                let start = self.before(self.cursor);
                self.bytes.drain(start..self.cursor);
                self.cursor = start;
            }
            Key::Delete => self.delete(),
            Key::EndOfInput if self.bytes.is_empty() => return Edited::End,
            Key::EndOfInput => self.delete(),
            Key::Left => self.cursor = self.before(self.cursor),
            Key::Right => self.cursor = self.after(self.cursor),
            Key::Home => self.cursor = 0,
            Key::End => self.cursor = self.bytes.len(),
            Key::KillBefore => {
                self.bytes.drain(..self.cursor);
                self.cursor = 0;
            }
            Key::KillAfter => self.bytes.truncate(self.cursor),
            Key::Up => self.browse(self.browsing.checked_sub(1)),
            Key::Down => self.browse(Some(self.browsing + 1)),
            Key::Interrupt => {
                self.bytes.clear();
                self.cursor = 0;
                self.browsing = self.history.len();
                return Edited::Dropped;
            }
            Key::Clear => return Edited::Clear,
            Key::Function(n) => return Edited::Function(n),
            Key::Ignored => {}
        }
        Edited::Redraw
    }

    fn delete(&mut self) {
        let end = self.after(self.cursor);
        self.bytes.drain(self.cursor..end);
    }

    fn browse(&mut self, to: Option<usize>) {
        let Some(to) = to.filter(|&to| to <= self.history.len()) else {
            return;
        };
        if self.browsing == self.history.len() {
            self.draft = self.bytes.clone();
        }
        self.bytes = self.history.get(to).unwrap_or(&self.draft).clone();
        self.cursor = self.bytes.len();
        self.browsing = to;
    }

    /// The start of the character before `at`.
    fn before(&self, at: usize) -> usize {
        self.stops().take_while(|&s| s < at).last().unwrap_or(0)
    }

    /// The end of the character at `at`.
    fn after(&self, at: usize) -> usize {
        self.stops().find(|&s| s > at).unwrap_or(self.bytes.len())
    }

    /// Where the cursor may stand: the start of each character that takes
    /// a column, and the end. A combining mark goes with the character
    /// before it, so one key moves over or deletes both, as it looks.
    fn stops(&self) -> impl Iterator<Item = usize> + '_ {
        units(&self.bytes)
            .filter(|u| u.cells > 0 || u.start == 0)
            .map(|u| u.start)
            .chain(std::iter::once(self.bytes.len()))
    }

    /// Applies the keys waiting in `keys`, and adds to `out` what the
    /// terminal must show for them; what was typed, once a key ends the
    /// read, or `None` while more keys are needed. Pure, so the editor's
    /// screen is tested without a terminal.
    ///
    /// Keys that came together (typed fast, or sent by a script) are drawn
    /// once, after the last of them; a key that ends the read first shows
    /// the line as it then stands, so that what stays on the screen is
    /// never a line already edited away.
    pub fn take(
        &mut self,
        keys: &mut Keys,
        prompt: &str,
        width: usize,
        out: &mut Vec<u8>,
    ) -> Option<Typed> {
        let mut stale = false;
        for key in keys.by_ref() {
            // What is dropped stays on the screen, whole, before `^C`.
            if key == Key::Interrupt {
                out.extend(self.draw_whole(prompt, width));
            }
            match self.key(key) {
                Edited::Redraw => stale = true,
                Edited::Done(line) => {
                    // What stays on the screen is the line as entered.
                    // Keys after it (the rest of a paste, or typed ahead)
                    // wait for the next prompt.
                    let done = Line {
                        cursor: line.len(),
                        bytes: line.clone(),
                        ..Line::default()
                    };
                    out.extend(done.draw(prompt, width));
                    out.extend_from_slice(b"\r\n");
                    return Some(Typed::Line(line));
                }
                Edited::Dropped => {
                    out.extend_from_slice(b"^C\r\n");
                    return Some(Typed::Interrupted);
                }
                Edited::End => {
                    if stale {
                        out.extend(self.draw(prompt, width));
                    }
                    out.extend_from_slice(b"\r\n");
                    return Some(Typed::End);
                }
                Edited::Clear => {
                    out.extend_from_slice(CLEAR_SCREEN);
                    stale = true;
                }
                Edited::Function(n) => {
                    // The prompt goes; it comes back, with the line as it
                    // was, after what the key shows.
                    out.push(b'\r');
                    out.extend_from_slice(ERASE_LINE);
                    return Some(Typed::Function(n));
                }
            }
        }
        if stale {
            out.extend(self.draw(prompt, width));
        }
        None
    }

    /// As [`Line::draw`], with the cursor at the end.
    fn draw_whole(&self, prompt: &str, width: usize) -> Vec<u8> {
        Line {
            bytes: self.bytes.clone(),
            cursor: self.bytes.len(),
            ..Line::default()
        }
        .draw(prompt, width)
    }

    /// The bytes that draw `prompt` and the line on the terminal's current
    /// row, `width` columns wide, with the cursor in place.
    pub fn draw(&self, prompt: &str, width: usize) -> Vec<u8> {
        let units: Vec<Unit> = units(&self.bytes).collect();
        let room = width.saturating_sub(prompt.chars().count() + 1).max(8);
        let at = units.iter().take_while(|u| u.start < self.cursor).count();
        // Scroll so that the cursor is on the screen, in one pass: a
        // pasted line may be a megabyte long.
        let mut first = 0;
        let mut cells: usize = units[..at].iter().map(|u| u.cells).sum();
        while cells >= room {
            cells -= units[first].cells;
            first += 1;
        }
        let mut last = at;
        while last < units.len() && cells + units[last].cells < room {
            cells += units[last].cells;
            last += 1;
        }
        let mut out = Vec::from(&b"\r"[..]);
        out.extend_from_slice(prompt.as_bytes());
        for unit in &units[first..last] {
            out.extend_from_slice(unit.text.as_bytes());
        }
        out.extend_from_slice(ERASE_LINE);
        let back: usize = units[at..last].iter().map(|u| u.cells).sum();
        if back > 0 {
            out.extend_from_slice(format!("\x1b[{back}D").as_bytes());
        }
        out
    }
}

/// One character of a line as it is shown, `cells` terminal columns wide.
struct Unit {
    start: usize,
    text: String,
    cells: usize,
}

/// The characters of `bytes`: each UTF-8 character, and each byte that is
/// not part of one.
fn units(bytes: &[u8]) -> impl Iterator<Item = Unit> + '_ {
    let mut start = 0;
    bytes.utf8_chunks().flat_map(move |chunk| {
        let mut units = Vec::new();
        for c in chunk.valid().chars() {
            let text = match c {
                c if c.is_control() && (c as u32) < 0x80 => {
                    format!("^{}", char::from((c as u8) ^ 0x40))
                }
                c if c.is_control() => c.escape_unicode().to_string(),
                c => c.to_string(),
            };
            // Wide characters take two columns and combining marks none;
            // counted as one each, the cursor landed beside its place.
            let cells = text.width();
            units.push(Unit { start, text, cells });
            start += c.len_utf8();
        }
        for byte in chunk.invalid() {
            units.push(Unit {
                start,
                text: format!("\\x{byte:02x}"),
                cells: 4,
            });
            start += 1;
        }
        units
    })
}

/// `line` as the editor shows it (see the module doc).
pub fn shown(line: &[u8]) -> String {
    units(line).map(|u| u.text).collect()
}

/// The editor on the controlling terminal. Raw mode, set when it opens, is
/// undone when it is dropped, or when a signal ends the game.
pub struct Editor {
    tty: File,
    saved: Termios,
    keys: Keys,
    line: Line,
}

impl Editor {
    /// Opens `/dev/tty` and puts it in raw mode (output processing stays on,
    /// so `\n` still starts a new row).
    ///
    /// # Errors
    ///
    /// The terminal cannot be opened or set up.
    pub fn open() -> io::Result<Editor> {
        let tty = OpenOptions::new().read(true).write(true).open("/dev/tty")?;
        let saved = termios::tcgetattr(&tty)?;
        let mut raw = saved.clone();
        raw.local_modes
            .remove(LocalModes::ICANON | LocalModes::ECHO | LocalModes::ISIG | LocalModes::IEXTEN);
        raw.input_modes
            .remove(InputModes::IXON | InputModes::ICRNL | InputModes::INLCR | InputModes::IGNCR);
        raw.special_codes[SpecialCodeIndex::VMIN] = 1;
        raw.special_codes[SpecialCodeIndex::VTIME] = 0;
        restore_when_killed(&tty, &saved)?;
        termios::tcsetattr(&tty, OptionalActions::Now, &raw)?;
        let mut editor = Editor {
            tty,
            saved,
            keys: Keys::default(),
            line: Line::default(),
        };
        editor.write(PASTE_ON);
        Ok(editor)
    }

    fn write(&mut self, bytes: &[u8]) {
        // The terminal is for the person: a failed echo loses nothing of
        // the game.
        let _ = self.tty.write_all(bytes).and_then(|()| self.tty.flush());
    }

    /// Whether the terminal has bytes to read within `wait`.
    fn ready_within(&self, wait: Duration) -> Result<bool, TerminalError> {
        let timeout = Timespec::try_from(wait).unwrap_or_default();
        loop {
            let mut fds = [PollFd::new(&self.tty, PollFlags::IN)];
            match poll(&mut fds, Some(&timeout)) {
                Ok(ready) => return Ok(ready > 0),
                Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(TerminalError::Read(e.into())),
            }
        }
    }

    /// Moves what the terminal already holds into the key decoder, without
    /// waiting.
    fn gather(&mut self) -> Result<(), TerminalError> {
        let mut buffer = [0; 4096];
        while self.ready_within(Duration::ZERO)? {
            match self.tty.read(&mut buffer) {
                // A hung-up terminal polls ready and reads nothing.
                Ok(0) => break,
                Ok(n) => self.keys.push(&buffer[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(TerminalError::Read(e)),
            }
        }
        Ok(())
    }
}

impl Keyboard for Editor {
    fn read(&mut self, prompt: &str) -> Result<Typed, TerminalError> {
        let width = self.width();
        let drawn = self.line.draw(prompt, width);
        self.write(&drawn);
        let mut buffer = [0; 4096];
        let mut out = Vec::new();
        loop {
            out.clear();
            let typed = self.line.take(&mut self.keys, prompt, width, &mut out);
            if !out.is_empty() {
                self.write(&out);
            }
            if let Some(typed) = typed {
                return Ok(typed);
            }
            if self.keys.in_escape() && !self.ready_within(ESCAPE_WAIT)? {
                self.keys.escape_timed_out();
                continue;
            }
            let n = match self.tty.read(&mut buffer) {
                Ok(0) => return Ok(Typed::End),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(TerminalError::Read(e)),
            };
            self.keys.push(&buffer[..n]);
        }
    }

    fn thought(&mut self) {
        if self.gather().is_ok() {
            self.keys.forget_interrupts();
        }
    }

    fn width(&self) -> usize {
        termios::tcgetwinsize(self.tty.as_fd())
            .map_or(80, |size| usize::from(size.ws_col))
            .max(20)
    }
}

/// Killed in raw mode, the game would leave the shell with no echo and no
/// line editing. A thread waits for the signals that end a program at a
/// terminal, puts the terminal back as it was, and then ends the process
/// as the signal would have (the shell sees the same status).
fn restore_when_killed(tty: &File, saved: &Termios) -> io::Result<()> {
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])?;
    let mut tty = tty.try_clone()?;
    let saved = saved.clone();
    thread::Builder::new()
        .name("terminal-restore".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let _ = tty.write_all(PASTE_OFF);
                let _ = termios::tcsetattr(&tty, OptionalActions::Now, &saved);
                let _ = emulate_default_handler(signal);
                // Only if the signal's default could not be run.
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

impl Drop for Editor {
    fn drop(&mut self) {
        self.write(PASTE_OFF);
        let _ = termios::tcsetattr(&self.tty, OptionalActions::Now, &self.saved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(line: &mut Line, bytes: &[u8]) -> Vec<Edited> {
        let mut keys = Keys::default();
        keys.push(bytes);
        keys.map(|k| line.key(k))
            .filter(|e| *e != Edited::Redraw)
            .collect()
    }

    #[test]
    fn every_byte_reaches_the_line() {
        let mut line = Line::default();
        let got = typed(&mut line, b"\xffplace\0\x16\x03\x16\r\t\r");
        assert_eq!(got, [Edited::Done(b"\xffplace\0\x03\r\t".to_vec())]);
    }

    #[test]
    fn editing_keys_edit_by_character() {
        let mut line = Line::default();
        // é is two bytes, one character: one Backspace takes both.
        let got = typed(&mut line, "wé\x7fhx\x1b[D\x1b[3~o\x01\x1b[3~w\r".as_bytes());
        assert_eq!(got, [Edited::Done(b"who".to_vec())]);
        let got = typed(&mut line, b"abc\x02\x0b\x15who\r");
        assert_eq!(got, [Edited::Done(b"who".to_vec())]);
    }

    /// What `take` shows and returns for `bytes` typed at once on a fresh
    /// line after the prompt `> `.
    fn taken(bytes: &[u8]) -> (Vec<u8>, Option<Typed>) {
        let mut keys = Keys::default();
        keys.push(bytes);
        let mut out = Vec::new();
        let typed = Line::default().take(&mut keys, "> ", 80, &mut out);
        (out, typed)
    }

    #[test]
    fn keys_that_end_the_read_first_show_the_line_as_it_stands() {
        // Ctrl-D right after Ctrl-U, in one read: the line is empty, so it
        // ends as at an empty prompt, and the screen shows the empty line,
        // not the `^Z` typed before (the bug: it was never drawn again).
        let cases: &[(&[u8], &[u8], Option<Typed>)] = &[
            (b"\x1a\x15\x04", b"\r> \x1b[K\r\n", Some(Typed::End)),
            (b"ab\x7f\x7f\x04", b"\r> \x1b[K\r\n", Some(Typed::End)),
            (b"ab\x01\x0b\x04", b"\r> \x1b[K\r\n", Some(Typed::End)),
            // A Ctrl-D with something left deletes, and waits for more.
            (b"ab\x01\x04", b"\r> b\x1b[K\x1b[1D", None),
            // Ctrl-C shows what it dropped, whole, wherever the cursor was.
            (
                b"resi\x02\x02\x03",
                b"\r> resi\x1b[K^C\r\n",
                Some(Typed::Interrupted),
            ),
            // A function key clears the prompt's row and keeps the line.
            (b"wh\x1bOP", b"\r\x1b[K", Some(Typed::Function(1))),
        ];
        for (bytes, shown, typed) in cases {
            let (out, got) = taken(bytes);
            assert_eq!(
                (out.escape_ascii().to_string(), &got),
                (shown.escape_ascii().to_string(), typed),
                "{}",
                bytes.escape_ascii()
            );
        }
    }

    #[test]
    fn a_function_key_leaves_the_line_for_the_next_prompt() {
        let mut line = Line::default();
        let mut keys = Keys::default();
        keys.push(b"wh\x1bOQo\r");
        let mut out = Vec::new();
        let first = line.take(&mut keys, "> ", 80, &mut out);
        assert_eq!(first, Some(Typed::Function(2)));
        let second = line.take(&mut keys, "> ", 80, &mut out);
        assert_eq!(second, Some(Typed::Line(b"who".to_vec())));
    }

    #[test]
    fn history_recalls_lines_and_keeps_the_draft() {
        let mut line = Line::default();
        typed(&mut line, b"who\rview\rvi");
        typed(&mut line, b"\x1b[A\x1b[A");
        assert_eq!(line.bytes, b"who");
        typed(&mut line, b"\x1b[B\x1b[B");
        assert_eq!(line.bytes, b"vi");
        assert_eq!(typed(&mut line, b"\x03"), [Edited::Dropped]);
        assert_eq!(typed(&mut line, b"\x04"), [Edited::End]);
    }

    #[test]
    fn a_line_is_drawn_escaped_and_scrolls_to_the_cursor() {
        let mut line = Line::default();
        typed(&mut line, b"a\xff\x16\x07\x1b[D");
        assert_eq!(shown(b"a\xff\x07"), "a\\xff^G");
        assert_eq!(line.draw("> ", 80), b"\r> a\\xff^G\x1b[K\x1b[2D");
        let mut long = Line::default();
        typed(&mut long, &[b'x'; 100]);
        let drawn = long.draw("> ", 40);
        assert!(drawn.ends_with(b"x\x1b[K"), "{}", drawn.escape_ascii());
        assert_eq!(drawn.len(), 1 + 2 + 36 + 3, "{}", drawn.escape_ascii());
    }

    #[test]
    fn wide_characters_take_two_columns_and_combining_marks_none() {
        let mut line = Line::default();
        // 日 and 本 are two columns each; the accent combines with the e.
        // Left moves over the e and its accent as one.
        typed(&mut line, "日本e\u{301}x\x1b[D\x1b[D".as_bytes());
        assert_eq!(
            line.draw("> ", 80),
            "\r> 日本e\u{301}x\x1b[K\x1b[2D".as_bytes()
        );
        // Delete takes both; Backspace takes the wide 本 whole.
        let got = typed(&mut line, b"\x1b[3~\x7f\r");
        assert_eq!(got, [Edited::Done("日x".as_bytes().to_vec())]);
        // Scrolled, the shown part still fits the row: 40 columns less the
        // prompt and the cursor's cell leave 37, so 18 wide characters.
        let mut wide = Line::default();
        typed(&mut wide, "日".repeat(100).as_bytes());
        let drawn = wide.draw("> ", 40);
        let text = String::from_utf8(drawn).expect("the line is UTF-8");
        assert_eq!(text.matches('日').count(), 18, "{text:?}");
    }

    #[test]
    fn a_megabyte_line_is_drawn_at_its_end() {
        // A paste with no line end: drawing it once took hours when the
        // scroll was found by summing the cells again for each column.
        let mut long = Line::default();
        typed(&mut long, &vec![b'x'; 1_000_000]);
        let mut expected = b"\r> ".to_vec();
        expected.extend_from_slice(&[b'x'; 76]);
        expected.extend_from_slice(ERASE_LINE);
        assert_eq!(long.draw("> ", 80), expected);
    }
}
