//! Keys from the bytes a terminal in raw mode sends: escape sequences
//! become keys, bracketed pastes become literal bytes and line ends, and
//! every other byte stays what it is. Pure: bytes in, keys out.

/// One key, or one byte of a paste.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A byte for the line, as it is: typed, quoted with Ctrl-V, or pasted.
    Byte(u8),
    /// Enter, or a line end inside a paste.
    Enter,
    /// Backspace: the character before the cursor goes.
    Backspace,
    /// Delete: the character under the cursor goes.
    Delete,
    /// Left arrow or Ctrl-B.
    Left,
    /// Right arrow or Ctrl-F.
    Right,
    /// Home or Ctrl-A.
    Home,
    /// End or Ctrl-E.
    End,
    /// Up arrow or Ctrl-P: the previous line of the history.
    Up,
    /// Down arrow or Ctrl-N: the next line of the history.
    Down,
    /// Ctrl-C.
    Interrupt,
    /// Ctrl-D.
    EndOfInput,
    /// Ctrl-L.
    Clear,
    /// Ctrl-U: everything before the cursor goes.
    KillBefore,
    /// Ctrl-K: everything from the cursor on goes.
    KillAfter,
    /// A function key, F1 to F5: never a byte of a line, so the terminal
    /// may give it a meaning of its own without any line changing.
    Function(u8),
    /// An escape sequence this editor has no use for.
    Ignored,
}

const ESC: u8 = 0x1b;
/// How long the rest of an escape sequence may take to come before the
/// `ESC` is taken as the Escape key alone.
pub const ESCAPE_WAIT: std::time::Duration = std::time::Duration::from_millis(50);
/// Ctrl-V: the next byte is taken as it is.
const QUOTE: u8 = 0x16;

/// Turns bytes into keys. Bytes are pushed as they arrive; a key is taken
/// only once all its bytes are there, so a sequence split across two reads
/// still makes one key.
#[derive(Debug, Default)]
pub struct Keys {
    bytes: std::collections::VecDeque<u8>,
    /// Inside a bracketed paste: every byte is literal but the line ends.
    pasting: bool,
    /// The last pasted byte was `\r`, so a `\n` right after it is the same
    /// line end.
    after_cr: bool,
}

/// What the terminal sends at the start and end of a bracketed paste.
const PASTE_START: &[u8] = b"200~";
const PASTE_END: &[u8] = b"201~";

impl Keys {
    /// Adds bytes read from the terminal.
    pub fn push(&mut self, bytes: &[u8]) {
        self.bytes.extend(bytes);
    }

    /// Drops every Ctrl-C among the bytes not yet taken: they were typed
    /// while the computer was thinking, when Ctrl-C is ignored.
    /// A Ctrl-C quoted with Ctrl-V or inside a paste is a byte of the
    /// line, not an interrupt, and stays.
    pub fn forget_interrupts(&mut self) {
        let bytes: Vec<u8> = self.bytes.drain(..).collect();
        let mut pasting = self.pasting;
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            let rest = &bytes[i..];
            let take = if rest.starts_with(b"\x1b[200~") {
                pasting = true;
                6
            } else if rest.starts_with(b"\x1b[201~") {
                pasting = false;
                6
            } else if pasting {
                1
            } else if b == QUOTE {
                2
            } else if b == 0x03 {
                i += 1;
                continue;
            } else {
                1
            };
            let end = (i + take).min(bytes.len());
            self.bytes.extend(&bytes[i..end]);
            i = end;
        }
    }

    /// Whether the bytes waiting begin an escape sequence not yet whole:
    /// the caller then waits [`ESCAPE_WAIT`] for the rest, and calls
    /// [`Keys::escape_timed_out`] if none comes.
    pub fn in_escape(&self) -> bool {
        !self.pasting && self.bytes.front() == Some(&ESC)
    }

    /// No more bytes came within [`ESCAPE_WAIT`] of a lone `ESC`: the
    /// person pressed Escape, which does nothing, and what they type next
    /// (a `[` or an `O`, say) is their text, not the rest of a sequence.
    /// A terminal sends a sequence's bytes in one write, so they never
    /// wait that long for each other.
    pub fn escape_timed_out(&mut self) {
        if self.in_escape() {
            self.bytes.pop_front();
        }
    }

    /// Whether bytes are waiting that make no key yet, or no bytes at all.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The next key and how many bytes it takes.
    fn peek(&mut self) -> Option<(Key, usize)> {
        let first = *self.bytes.front()?;
        if first == ESC && self.pasting {
            // Inside a paste only its end is a sequence: any other `ESC`
            // is a pasted byte, as every other byte is.
            let end = b"\x1b[201~";
            let held: Vec<u8> = self.bytes.iter().take(end.len()).copied().collect();
            if held == end {
                self.pasting = false;
                return Some((Key::Ignored, end.len()));
            }
            if end.starts_with(&held) {
                return None;
            }
            self.after_cr = false;
            return Some((Key::Byte(ESC), 1));
        }
        if first == ESC {
            return self.escape();
        }
        if self.pasting {
            let after_cr = std::mem::replace(&mut self.after_cr, first == b'\r');
            return Some(match first {
                b'\n' if after_cr => (Key::Ignored, 1),
                b'\r' | b'\n' => (Key::Enter, 1),
                b => (Key::Byte(b), 1),
            });
        }
        Some(match first {
            b'\r' | b'\n' => (Key::Enter, 1),
            0x7f | 0x08 => (Key::Backspace, 1),
            0x01 => (Key::Home, 1),
            0x02 => (Key::Left, 1),
            0x03 => (Key::Interrupt, 1),
            0x04 => (Key::EndOfInput, 1),
            0x05 => (Key::End, 1),
            0x06 => (Key::Right, 1),
            0x0b => (Key::KillAfter, 1),
            0x0c => (Key::Clear, 1),
            0x0e => (Key::Down, 1),
            0x10 => (Key::Up, 1),
            0x15 => (Key::KillBefore, 1),
            QUOTE => (Key::Byte(*self.bytes.get(1)?), 2),
            b => (Key::Byte(b), 1),
        })
    }

    /// An escape sequence: `ESC [ params final` or `ESC O final`. Any other
    /// byte after `ESC` (Alt and a key) drops the `ESC` alone.
    fn escape(&mut self) -> Option<(Key, usize)> {
        match *self.bytes.get(1)? {
            // The Linux console's F1 to F5: `ESC [ [ A` to `ESC [ [ E`.
            b'[' if *self.bytes.get(2)? == b'[' => {
                let key = match *self.bytes.get(3)? {
                    last @ b'A'..=b'E' => Key::Function(last - b'A' + 1),
                    _ => Key::Ignored,
                };
                Some((key, 4))
            }
            b'[' => {
                let params: Vec<u8> = self
                    .bytes
                    .iter()
                    .skip(2)
                    .take_while(|b| (0x20..0x40).contains(*b))
                    .copied()
                    .collect();
                let last = *self.bytes.get(2 + params.len())?;
                let used = 3 + params.len();
                let mut sequence = params;
                sequence.push(last);
                Some((self.csi(&sequence), used))
            }
            b'O' => {
                let last = *self.bytes.get(2)?;
                let key = match last {
                    b'P'..=b'S' => Key::Function(last - b'P' + 1),
                    _ => arrow(last),
                };
                Some((key, 3))
            }
            _ => Some((Key::Ignored, 1)),
        }
    }

    fn csi(&mut self, sequence: &[u8]) -> Key {
        match sequence {
            PASTE_START => {
                self.pasting = true;
                self.after_cr = false;
                Key::Ignored
            }
            PASTE_END => {
                self.pasting = false;
                Key::Ignored
            }
            b"1~" | b"7~" => Key::Home,
            b"4~" | b"8~" => Key::End,
            b"3~" => Key::Delete,
            // rxvt's and PuTTY's F1 to F5; xterm's F5.
            b"11~" => Key::Function(1),
            b"12~" => Key::Function(2),
            b"13~" => Key::Function(3),
            b"14~" => Key::Function(4),
            b"15~" => Key::Function(5),
            [last] => arrow(*last),
            _ => Key::Ignored,
        }
    }
}

/// Keys, until more bytes are needed for the next one; pushing more
/// bytes starts it again.
impl Iterator for Keys {
    type Item = Key;

    fn next(&mut self) -> Option<Key> {
        let (key, used) = self.peek()?;
        self.bytes.drain(..used);
        Some(key)
    }
}

fn arrow(last: u8) -> Key {
    match last {
        b'A' => Key::Up,
        b'B' => Key::Down,
        b'C' => Key::Right,
        b'D' => Key::Left,
        b'H' => Key::Home,
        b'F' => Key::End,
        _ => Key::Ignored,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(bytes: &[u8]) -> Vec<Key> {
        let mut keys = Keys::default();
        keys.push(bytes);
        keys.collect()
    }

    #[test]
    fn each_sequence_is_its_key() {
        use Key::*;
        let cases: &[(&[u8], &[Key])] = &[
            (b"ab\r", &[Byte(b'a'), Byte(b'b'), Enter]),
            (b"\x1b[A\x1b[B\x1bOC\x1b[D", &[Up, Down, Right, Left]),
            (b"\x1b[1~\x1b[4~\x1b[3~\x1b[H", &[Home, End, Delete, Home]),
            (
                b"\x7f\x08\x03\x04\x0c",
                &[Backspace, Backspace, Interrupt, EndOfInput, Clear],
            ),
            // Quoted with Ctrl-V, any byte is a byte of the line.
            (
                b"\x16\x03\x16\r\x16\x1b",
                &[Byte(3), Byte(b'\r'), Byte(0x1b)],
            ),
            // Bytes with no editing meaning stay bytes: NUL, Tab, not UTF-8.
            (
                b"\0\t\xff\xc3",
                &[Byte(0), Byte(b'\t'), Byte(0xff), Byte(0xc3)],
            ),
            (b"\x1b[1;5C\x1bx", &[Ignored, Ignored, Byte(b'x')]),
            // F1 to F3 as xterm, rxvt and the Linux console send them;
            // with a modifier, a function key means nothing here.
            (
                b"\x1bOP\x1bOQ\x1bOR\x1b[11~\x1b[12~\x1b[13~\x1b[[A\x1b[[B\x1b[[C",
                &[
                    Function(1),
                    Function(2),
                    Function(3),
                    Function(1),
                    Function(2),
                    Function(3),
                    Function(1),
                    Function(2),
                    Function(3),
                ],
            ),
            (b"\x1b[1;2P\x1b[[Zx", &[Ignored, Ignored, Byte(b'x')]),
        ];
        for &(bytes, expected) in cases {
            assert_eq!(keys(bytes), expected, "{}", bytes.escape_ascii());
        }
    }

    #[test]
    fn a_paste_is_literal_bytes_and_line_ends() {
        use Key::*;
        let got = keys(b"\x1b[200~a\x03\r\nb\x7f\nc\x1b[201~\x03");
        assert_eq!(
            got,
            [
                Ignored,
                Byte(b'a'),
                Byte(3),
                Enter,
                Ignored,
                Byte(b'b'),
                Byte(0x7f),
                Enter,
                Byte(b'c'),
                Ignored,
                Interrupt
            ]
        );
    }

    #[test]
    fn an_escape_in_a_paste_is_a_pasted_byte() {
        use Key::*;
        let got = keys(b"\x1b[200~a\x1b[A\x1bb\x1b[201~\x1b[A");
        let esc = Byte(0x1b);
        assert_eq!(
            got,
            [
                Ignored,
                Byte(b'a'),
                esc,
                Byte(b'['),
                Byte(b'A'),
                esc,
                Byte(b'b'),
                Ignored,
                Up
            ]
        );
    }

    #[test]
    fn a_sequence_split_across_reads_waits_for_its_end() {
        let mut keys = Keys::default();
        keys.push(b"\x1b[");
        assert_eq!(keys.next(), None);
        keys.push(b"A");
        assert_eq!(keys.next(), Some(Key::Up));
        keys.push(b"\x16");
        assert_eq!(keys.next(), None);
        keys.push(b"\x04");
        assert_eq!(keys.next(), Some(Key::Byte(4)));
    }

    #[test]
    fn escape_pressed_alone_leaves_the_next_keys_as_typed() {
        use Key::*;
        let mut keys = Keys::default();
        keys.push(b"\x1b");
        assert_eq!(keys.next(), None);
        assert!(keys.in_escape());
        keys.escape_timed_out();
        keys.push(b"[A");
        let got: Vec<Key> = keys.by_ref().collect();
        assert_eq!(got, [Byte(b'['), Byte(b'A')]);
        // The same with `ESC [` already held: the `[` stays a byte.
        keys.push(b"\x1b[");
        keys.escape_timed_out();
        keys.push(b"D");
        let got: Vec<Key> = keys.by_ref().collect();
        assert_eq!(got, [Byte(b'['), Byte(b'D')]);
        // A sequence whose bytes came together is untouched.
        keys.push(b"\x1b[D");
        assert!(keys.in_escape());
        assert_eq!(keys.next(), Some(Left));
        assert!(!keys.in_escape());
        keys.escape_timed_out();
        assert!(keys.is_empty());
        // Inside a paste an `ESC` is a pasted byte, never a timed-out key.
        keys.push(b"\x1b[200~\x1b");
        assert_eq!(keys.next(), Some(Ignored));
        assert!(!keys.in_escape());
    }

    #[test]
    fn interrupts_typed_during_a_think_are_forgotten() {
        let mut keys = Keys::default();
        keys.push(b"wh\x03o");
        keys.forget_interrupts();
        let got: Vec<Key> = keys.collect();
        assert_eq!(got, [Key::Byte(b'w'), Key::Byte(b'h'), Key::Byte(b'o')]);
    }

    #[test]
    fn a_quoted_or_pasted_ctrl_c_typed_during_a_think_stays() {
        use Key::*;
        let mut keys = Keys::default();
        keys.push(b"\x16\x03\r\x1b[200~\x03\x1b[201~\x03x");
        keys.forget_interrupts();
        let got: Vec<Key> = keys.collect();
        assert_eq!(got, [Byte(3), Enter, Ignored, Byte(3), Ignored, Byte(b'x')]);
    }
}
