//! The command language: one line of input, as bytes, to a [`Command`].
//!
//! ```
//! use gomoku_mist::command::{Command, ParseCommandError};
//!
//! assert_eq!(Command::parse(b"who"), Ok(Command::Who));
//! assert!(matches!(Command::parse(b"place A01"), Err(ParseCommandError::NotAPoint(_))));
//! assert_eq!(Command::parse(b"who\r"), Err(ParseCommandError::NotACommand));
//! ```

use thiserror::Error;

use crate::rules::point::{ParsePointError, Point};

/// One line of input that means something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// `who`: print the player to move.
    Who,
    /// `term`: stop at once, exit code 1.
    Term,
    /// `resign`: the player to move loses.
    Resign,
    /// `view`: print the mist's hole.
    View,
    /// `history`: print every move so far.
    History,
    /// `place <point>`: the player to move places a stone.
    Place(Point),
}

/// Why a line is not a command. The two cases get different replies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum ParseCommandError {
    /// Not one of the six command forms at all.
    #[error("not a command")]
    NotACommand,
    /// A well-formed `place` whose parameter is not a board point.
    #[error("not a board point: {0}")]
    NotAPoint(#[from] ParsePointError),
}

/// The longest line that can be a command: `place S19`. Any longer line is
/// either not a command or a `place` of something that is not a point.
pub const LONGEST: usize = b"place S19".len();

/// The bytes that separate words in the [contract](crate::rules::contract). `\n` never reaches a line.
pub const fn is_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

impl Command {
    /// Parses one whole line, without its `\n`. Matching is exact and
    /// case-sensitive; nothing is trimmed.
    ///
    /// # Errors
    ///
    /// [`ParseCommandError::NotACommand`] for any line outside the grammar,
    /// [`ParseCommandError::NotAPoint`] for `place` and one parameter that
    /// is not a board point.
    pub fn parse(line: &[u8]) -> Result<Command, ParseCommandError> {
        match line {
            b"who" => Ok(Command::Who),
            b"view" => Ok(Command::View),
            b"history" => Ok(Command::History),
            b"term" => Ok(Command::Term),
            b"resign" => Ok(Command::Resign),
            [b'p', b'l', b'a', b'c', b'e', b' ', parameter @ ..]
                if !parameter.is_empty() && !parameter.iter().copied().any(is_whitespace) =>
            {
                Ok(Command::Place(Point::from_ascii(parameter)?))
            }
            _ => Err(ParseCommandError::NotACommand),
        }
    }

    /// Parses a line of which only the first bytes, `head`, were kept, and
    /// of the rest only whether it holds whitespace. This is what lets a
    /// line of any length be answered in a few bytes of memory.
    ///
    /// The answer equals [`Command::parse`] of the whole line whenever
    /// `head` is the whole line, or is longer than [`LONGEST`]: such a line
    /// is a `place` of a non-point exactly when it starts with `place ` and
    /// has no whitespace after that, and `head` shows the start.
    ///
    /// # Errors
    ///
    /// As [`Command::parse`].
    pub fn parse_head(
        head: &[u8],
        rest_has_whitespace: bool,
    ) -> Result<Command, ParseCommandError> {
        match Command::parse(head) {
            Err(ParseCommandError::NotAPoint(_)) if rest_has_whitespace => {
                Err(ParseCommandError::NotACommand)
            }
            parsed => parsed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn reply(line: &[u8]) -> &'static str {
        match Command::parse(line) {
            Ok(Command::Place(_)) => "place",
            Ok(_) => "command",
            Err(ParseCommandError::NotACommand) => "Invalid!",
            Err(ParseCommandError::NotAPoint(_)) => "Invalid coordinate",
        }
    }

    #[test]
    fn table() {
        let cases: &[(&[u8], &str)] = &[
            (b"who", "command"),
            (b"term", "command"),
            (b"resign", "command"),
            (b"view", "command"),
            (b"history", "command"),
            (b"place A1", "place"),
            (b"place S19", "place"),
            (b"place I9", "place"),
            (b"", "Invalid!"),
            (b"WHO", "Invalid!"),
            (b"Who", "Invalid!"),
            (b"who ", "Invalid!"),
            (b" who", "Invalid!"),
            (b"who\r", "Invalid!"),
            (b"who\0", "Invalid!"),
            (b"whom", "Invalid!"),
            (b"place", "Invalid!"),
            (b"place ", "Invalid!"),
            (b"place  A1", "Invalid!"),
            (b"place A1 ", "Invalid!"),
            (b"place\tA1", "Invalid!"),
            (b"place A1\t", "Invalid!"),
            (b"place A1\r", "Invalid!"),
            (b"place A\x0b1", "Invalid!"),
            (b"place A\x0c1", "Invalid!"),
            (b"place A1 B2", "Invalid!"),
            (b"placeA1", "Invalid!"),
            (b"Place A1", "Invalid!"),
            (b"\xff\xfe", "Invalid!"),
            (b"place Z1", "Invalid coordinate"),
            (b"place T1", "Invalid coordinate"),
            (b"place A0", "Invalid coordinate"),
            (b"place A20", "Invalid coordinate"),
            (b"place a1", "Invalid coordinate"),
            (b"place A01", "Invalid coordinate"),
            (b"place A", "Invalid coordinate"),
            (b"place 1A", "Invalid coordinate"),
            (b"place A1x", "Invalid coordinate"),
            (b"place A+1", "Invalid coordinate"),
            (b"place B122", "Invalid coordinate"),
            (b"place Z100", "Invalid coordinate"),
            (b"place A1\0", "Invalid coordinate"),
            (b"place \xff", "Invalid coordinate"),
        ];
        for (line, expected) in cases {
            assert_eq!(reply(line), *expected, "{}", line.escape_ascii());
        }
    }

    proptest! {
        #[test]
        fn parsing_any_bytes_never_panics(line in proptest::collection::vec(any::<u8>(), 0..40)) {
            let _ = Command::parse(&line);
        }

        #[test]
        fn a_long_line_is_judged_by_its_head(
            head_len in (LONGEST + 1)..24,
            line in proptest::collection::vec(
                prop_oneof![Just(b'A'), Just(b'1'), Just(b' '), Just(b'\t'), any::<u8>()],
                0..60,
            ),
            place in any::<bool>(),
        ) {
            let mut line = line;
            if place {
                line.splice(0..0, *b"place ");
            }
            if line.len() > head_len {
                let (head, rest) = line.split_at(head_len);
                let rest_ws = rest.iter().copied().any(is_whitespace);
                prop_assert_eq!(Command::parse_head(head, rest_ws), Command::parse(&line));
            }
        }
    }
}
