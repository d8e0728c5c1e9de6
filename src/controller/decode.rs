//! The read loop's fast path: a short line decoded from a 16-byte window
//! into a [`Kind`] with one table look-up, and tests computed as values
//! rather than branched on.
//!
//! [`Command::parse`] states the grammar; [`decode`] must agree with it on
//! every line that fits a window, and the tests below hold it to that. It
//! exists for speed alone. A stream mixes commands at random, so a parser
//! that branches on a line's length and bytes mispredicts more than once a
//! line, which costs more than the rest of the work. Here the first byte
//! picks the one word the line could be and a masked compare says whether
//! it is. The one branch left is on the line's length: up to seven bytes a
//! line can be a word or a `place` too short to name a point, longer only
//! a `place`. The read loop has just
//! branched the same way on where the newline was, so the two agree and
//! mispredict together. (Testing every line as a `place` too, with no
//! branch at all, was measured to cost more than it saved.)

use crate::rules::command::{Command, ParseCommandError};
use crate::rules::point::{Column, Point, Row};

/// How many bytes a window holds. A line whose `\n` lies in its window is
/// decoded here.
pub const WINDOW: usize = 16;

/// What a line is, as a small number. The first [`Kind::FIXED`] kinds are
/// answered with a reply that changes only when a stone is placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// `Invalid!`
    NotACommand = 0,
    /// `Invalid coordinate`
    NotAPoint = 1,
    /// `who`
    Who = 2,
    /// `view`
    View = 3,
    /// `history`
    History = 4,
    /// `place` of a point
    Place = 5,
    /// `term`
    Term = 6,
    /// `resign`
    Resign = 7,
}

impl Kind {
    /// How many kinds, from 0, have a fixed reply.
    pub const FIXED: usize = 4;

    /// The kind of a parsed line.
    pub const fn of(parsed: &Result<Command, ParseCommandError>) -> Kind {
        match parsed {
            Ok(Command::Who) => Kind::Who,
            Ok(Command::View) => Kind::View,
            Ok(Command::History) => Kind::History,
            Ok(Command::Place(_)) => Kind::Place,
            Ok(Command::Term) => Kind::Term,
            Ok(Command::Resign) => Kind::Resign,
            Err(ParseCommandError::NotACommand) => Kind::NotACommand,
            Err(ParseCommandError::NotAPoint(_)) => Kind::NotAPoint,
        }
    }
}

/// A decoded line: its kind, and the point if it is a `place` of one (for
/// any other kind, `point` means nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// What the line is.
    pub kind: Kind,
    /// The point a [`Kind::Place`] line places on.
    pub point: Point,
}

impl From<Result<Command, ParseCommandError>> for Decoded {
    fn from(parsed: Result<Command, ParseCommandError>) -> Decoded {
        let point = match parsed {
            Ok(Command::Place(p)) => p,
            _ => crate::rules::mist::START,
        };
        Decoded {
            kind: Kind::of(&parsed),
            point,
        }
    }
}

/// The one word a line starting with some byte may be.
#[derive(Clone, Copy)]
struct Word {
    /// The word (at most eight bytes) as a little-endian number.
    bytes: u64,
    /// Which of the line's first eight bytes must equal `bytes`.
    mask: u64,
    /// The line lengths that fit: `shortest..=shortest + spread`.
    shortest: u8,
    spread: u8,
    kind: Kind,
}

const PLACE: &[u8] = b"place ";

const fn word(text: &[u8], kind: Kind) -> Word {
    let mut bytes = 0;
    let mut i = 0;
    while i < text.len() {
        bytes |= (text[i] as u64) << (8 * i);
        i += 1;
    }
    Word {
        bytes,
        mask: u64::MAX >> (8 * (8 - text.len())),
        shortest: text.len() as u8,
        spread: 0,
        kind,
    }
}

/// For each first byte, the one word a line starting with it could be.
static WORDS: [Word; 256] = {
    let none = Word {
        bytes: 0,
        mask: 0,
        shortest: u8::MAX,
        spread: 0,
        kind: Kind::NotACommand,
    };
    let mut words = [none; 256];
    words[b'w' as usize] = word(b"who", Kind::Who);
    words[b'v' as usize] = word(b"view", Kind::View);
    words[b'h' as usize] = word(b"history", Kind::History);
    words[b't' as usize] = word(b"term", Kind::Term);
    words[b'r' as usize] = word(b"resign", Kind::Resign);
    // `place `, then a parameter of one byte or more, up to a full window.
    let mut place = word(PLACE, Kind::Place);
    place.shortest += 1;
    place.spread = (WINDOW - 1 - PLACE.len() - 1) as u8;
    words[b'p' as usize] = place;
    words
};

/// Decodes the line held in the first `len` bytes of `window`, `len` less
/// than [`WINDOW`]; the bytes after them are ignored. Agrees with
/// [`Command::parse`] on that line.
#[inline]
pub fn decode(window: &[u8; WINDOW], len: usize) -> Decoded {
    // A line of at most seven bytes is a word or nothing (a `place` that
    // short has a one-byte parameter, never a point); a longer one is a
    // `place` or nothing. Splitting here leaves each path without a
    // branch of its own, and this one follows where the newline was.
    if len < 8 {
        short(window, len)
    } else {
        long(window, len.min(WINDOW - 1))
    }
}

/// Decodes a line of at most seven bytes.
#[inline]
fn short(window: &[u8; WINDOW], len: usize) -> Decoded {
    let [start @ .., _, _, _, _, _, _, _, _] = window;
    let start = u64::from_le_bytes(*start);
    let candidate = WORDS[usize::from(window[0])];
    let fits = (start & candidate.mask == candidate.bytes)
        & ((len as u8).wrapping_sub(candidate.shortest) <= candidate.spread);
    // `place X`: `X` is no point, and if it is whitespace, no parameter.
    let place = match crate::rules::command::is_whitespace(window[PLACE.len()]) {
        true => Kind::NotACommand,
        false => Kind::NotAPoint,
    };
    let kind = match (fits, candidate.kind) {
        (false, _) => Kind::NotACommand,
        (true, Kind::Place) => place,
        (true, kind) => kind,
    };
    Decoded {
        kind,
        point: crate::rules::mist::START,
    }
}

/// Decodes a line of eight to fifteen bytes: a `place`, or nothing.
#[inline]
fn long(window: &[u8; WINDOW], len: usize) -> Decoded {
    let [start @ .., _, _, _, _, _, _, _, _] = window;
    let prefix = u64::from_le_bytes(*start) & (u64::MAX >> 16);
    let decoded = place(window, len - PLACE.len());
    Decoded {
        kind: match prefix == PLACE_WORD {
            true => decoded.kind,
            false => Kind::NotACommand,
        },
        point: decoded.point,
    }
}

/// `place ` as a little-endian number.
const PLACE_WORD: u64 = u64::from_le_bytes(*b"place \0\0");

/// Decodes the parameter of a `place ` line, `parameter_len` bytes long.
#[inline]
fn place(window: &[u8; WINDOW], parameter_len: usize) -> Decoded {
    // No whitespace in the parameter (bytes 6 to 13 as one word, then byte
    // 14), and a point: a letter, then 1..9 or 1 and 0..9.
    let [_, _, _, _, _, _, rest @ ..] = window;
    let [p0, p1, p2, p3, p4, p5, p6, p7, p8, _] = *rest;
    let parameter = u64::from_le_bytes([p0, p1, p2, p3, p4, p5, p6, p7]);
    let parameter_mask = u64::MAX
        .checked_shr(8 * (8 - parameter_len.min(8)) as u32)
        .unwrap_or(0);
    let spaced = (whitespace(parameter) & parameter_mask != 0)
        | ((parameter_len == 9) & crate::rules::command::is_whitespace(p8));
    let column = p0.wrapping_sub(b'A');
    let first = p1.wrapping_sub(b'0');
    let second = p2.wrapping_sub(b'0');
    let one_digit = (parameter_len == 2) & (first.wrapping_sub(1) < 9);
    let two_digits = (parameter_len == 3) & (first == 1) & (second < 10);
    let row_index = if two_digits {
        9 + second
    } else {
        first.wrapping_sub(1)
    };
    let point_ok = (column < 19) & (one_digit | two_digits);
    let kind = match (spaced, point_ok) {
        (true, _) => Kind::NotACommand,
        (false, true) => Kind::Place,
        (false, false) => Kind::NotAPoint,
    };
    Decoded {
        kind,
        point: Point::new(Column::saturating(column), Row::saturating(row_index)),
    }
}

/// `byte` in every byte of a word.
const fn repeat(byte: u8) -> u64 {
    u64::from_le_bytes([byte; 8])
}

/// The high bit of each byte of `word` that separates words: space, `\t`,
/// `\r`, `\v`, `\f` (and `\n`, which no line holds). No sum here carries
/// from one byte into the next, so each byte is judged on its own.
const fn whitespace(word: u64) -> u64 {
    const HIGHS: u64 = repeat(0x80);
    const LOWS: u64 = repeat(0x7f);
    let low = word & LOWS;
    let ascii = !word & HIGHS;
    // 0x09..=0x0d: at least 9 and not above 13.
    let at_least_9 = low + repeat(0x80 - 0x09);
    let above_13 = low + repeat(0x7f - 0x0d);
    let control = at_least_9 & !above_13 & ascii;
    // 0x20: zero once 0x20 is XORed away.
    let x = word ^ repeat(b' ');
    let space = !(((x & LOWS) + LOWS) | x) & HIGHS;
    control | space
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::command::is_whitespace;
    use proptest::prelude::*;

    fn check(line: &[u8], after: u8) {
        let mut window = [after; WINDOW];
        window[..line.len()].copy_from_slice(line);
        let parsed = Command::parse(line);
        let decoded = decode(&window, line.len());
        let text = line.escape_ascii().to_string();
        assert_eq!(decoded.kind, Kind::of(&parsed), "{text:?}");
        if let Ok(Command::Place(p)) = parsed {
            assert_eq!(decoded.point, p, "{text:?}");
        }
    }

    #[test]
    fn whitespace_marks_exactly_the_separators_and_newline() {
        for b in 0..=255_u8 {
            let mut bytes = [b'a'; 8];
            bytes[5] = b;
            let marked = whitespace(u64::from_le_bytes(bytes));
            let expected = is_whitespace(b) || b == b'\n';
            assert_eq!(marked, u64::from(expected) << 47, "byte {b:#x}");
        }
    }

    #[test]
    fn agrees_on_every_short_place_parameter_from_a_telling_alphabet() {
        let alphabet = b"ARST@a0129 \t\r\x0b\x0c\0\xff";
        let mut line = PLACE.to_vec();
        for a in alphabet {
            for b in alphabet.iter().chain([&b'X']) {
                for c in alphabet.iter().chain([&b'X']) {
                    for len in 1..=3 {
                        line.truncate(PLACE.len());
                        line.extend([*a, *b, *c].iter().take(len));
                        for after in [b'\n', b'1', b' ', 0] {
                            check(&line, after);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn agrees_on_every_point_every_command_and_their_prefixes() {
        for p in Point::all() {
            check(format!("place {p}").as_bytes(), b'\n');
        }
        let words = [
            "who",
            "view",
            "history",
            "term",
            "resign",
            "place A1xxxxxx ",
            "place A1xxxxxxx",
        ];
        for word in words {
            let word = word.as_bytes();
            for cut in 0..=word.len().min(WINDOW - 1) {
                check(&word[..cut], b'\n');
                check(&word[..cut], word.get(cut).copied().unwrap_or(b' '));
            }
        }
    }

    proptest! {
        #[test]
        fn agrees_with_the_parser_on_any_line_that_fits(
            line in prop_oneof![
                prop::collection::vec(any::<u8>(), 0..WINDOW),
                (
                    prop::sample::select(vec!["place ", "who", "view", "history", "term", "resign"]),
                    prop::collection::vec(
                        prop_oneof![Just(b' '), Just(b'1'), Just(b'A'), Just(b'\x0c'), any::<u8>()],
                        0..10,
                    ),
                )
                    .prop_map(|(start, rest)| [start.as_bytes(), &rest].concat()),
            ],
            after in any::<u8>(),
        ) {
            let line: Vec<u8> = line.into_iter().filter(|&b| b != b'\n').take(WINDOW - 1).collect();
            let mut window = [after; WINDOW];
            window[..line.len()].copy_from_slice(&line);
            let parsed = Command::parse(&line);
            let decoded = decode(&window, line.len());
            prop_assert_eq!(decoded.kind, Kind::of(&parsed));
            if let Ok(Command::Place(p)) = parsed {
                prop_assert_eq!(decoded.point, p);
            }
        }
    }
}
