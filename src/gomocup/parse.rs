//! One protocol line to a [`Command`], or why it is none.
//!
//! The published protocol writes commands in upper case; any case is
//! accepted here. Leading and trailing whitespace, the `\r` of a CRLF line
//! included, is not part of a command, and a line of only whitespace is no
//! command at all ([`parse`] returns `Ok(None)`). Arguments are split at
//! whitespace; a coordinate pair may have spaces around its numbers.
//! Parsing never allocates: a command borrows from its line.

use thiserror::Error;

use super::coord::Coord;

/// A command from the manager.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    /// `START size`: a new square board.
    Start(u32),
    /// `RECTSTART width,height`: a new rectangular board.
    RectStart(u32, u32),
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the brain moves first.
    Begin,
    /// `TURN x,y`: the opponent played there; the brain replies.
    Turn(Coord),
    /// `PLAY x,y`: the brain must play there, and say so.
    Play(Coord),
    /// `BOARD`: a whole position follows, up to `DONE`.
    Board,
    /// `DONE`: the end of a position.
    Done,
    /// `TAKEBACK x,y`: the stone there is taken off.
    Takeback(Coord),
    /// `INFO key value`: a setting; the value is raw, may be empty.
    Info {
        /// The key, as written.
        key: &'a [u8],
        /// Everything after the key, trimmed.
        value: &'a [u8],
    },
    /// `END`: stop at once.
    End,
    /// `YXSTOP`: stop thinking and play the best move so far (sent by
    /// Yixin-Board, and by c-gomoku-cli when a turn's time is up).
    Stop,
    /// `ABOUT`: who the brain is.
    About,
    /// `YXBOARD`: a whole position follows, up to `DONE`, and no move is
    /// asked for (Yixin-Board's).
    YxBoard,
    /// `YXSHOWFORBID`: Black's forbidden points under renju, when Black is
    /// to move (Yixin-Board's).
    YxShowForbid,
}

/// One `x,y,field` line of a `BOARD` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stone {
    /// Where.
    pub at: Coord,
    /// `1` own stone, `2` opponent's, `3` a stone of a finished winning
    /// line (continuous games).
    pub field: u8,
}

/// Why a line is not a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The first word names no command of the protocol.
    #[error("not a command of this brain")]
    Unknown,
    /// A known command with the wrong arguments.
    #[error("{command} takes {wants}")]
    Arguments {
        /// The command, in upper case.
        command: &'static str,
        /// What it takes, in words.
        wants: &'static str,
    },
    /// A `BOARD` line that is not `x,y,field` with field 1, 2 or 3.
    #[error("a BOARD line is x,y,field with field 1, 2 or 3, or DONE")]
    Stone,
}

/// Parses one line.
///
/// # Errors
///
/// [`ParseError::Unknown`] for a word that is no command (the reply is
/// `UNKNOWN`), the other variants for a command written wrongly (`ERROR`).
pub fn parse(line: &[u8]) -> Result<Option<Command<'_>>, ParseError> {
    let line = line.trim_ascii();
    if line.is_empty() {
        return Ok(None);
    }
    let (word, rest) = split_word(line);
    let is = |name: &str| word.eq_ignore_ascii_case(name.as_bytes());
    let bare = |command: Command<'static>, name| {
        if rest.is_empty() {
            Ok(command)
        } else {
            Err(arguments(name, "no arguments"))
        }
    };
    let pair = |name| coords(rest).ok_or(arguments(name, "x,y"));
    let command = if is("START") {
        Command::Start(number(rest).ok_or(arguments("START", "a board size"))?)
    } else if is("RECTSTART") {
        let c = coords(rest).ok_or(arguments("RECTSTART", "width,height"))?;
        Command::RectStart(c.x, c.y)
    } else if is("RESTART") {
        bare(Command::Restart, "RESTART")?
    } else if is("BEGIN") {
        bare(Command::Begin, "BEGIN")?
    } else if is("TURN") {
        Command::Turn(pair("TURN")?)
    } else if is("PLAY") {
        Command::Play(pair("PLAY")?)
    } else if is("BOARD") {
        bare(Command::Board, "BOARD")?
    } else if is("DONE") {
        bare(Command::Done, "DONE")?
    } else if is("TAKEBACK") {
        Command::Takeback(pair("TAKEBACK")?)
    } else if is("INFO") {
        let (key, value) = split_word(rest);
        if key.is_empty() {
            return Err(arguments("INFO", "a key and a value"));
        }
        Command::Info { key, value }
    } else if is("END") {
        bare(Command::End, "END")?
    } else if is("YXSTOP") {
        bare(Command::Stop, "YXSTOP")?
    } else if is("ABOUT") {
        bare(Command::About, "ABOUT")?
    } else if is("YXBOARD") {
        bare(Command::YxBoard, "YXBOARD")?
    } else if is("YXSHOWFORBID") {
        bare(Command::YxShowForbid, "YXSHOWFORBID")?
    } else {
        return Err(ParseError::Unknown);
    };
    Ok(Some(command))
}

/// Parses one line inside a `BOARD` block: `Ok(None)` for `DONE`.
///
/// # Errors
///
/// [`ParseError::Stone`] for anything else that is not a stone.
pub fn parse_stone(line: &[u8]) -> Result<Option<Stone>, ParseError> {
    let line = line.trim_ascii();
    if line.eq_ignore_ascii_case(b"DONE") {
        return Ok(None);
    }
    let mut parts = line.split(|&b| b == b',');
    let mut next = || parts.next().and_then(number);
    let (Some(x), Some(y), Some(field)) = (next(), next(), next()) else {
        return Err(ParseError::Stone);
    };
    match (parts.next(), u8::try_from(field)) {
        (None, Ok(field @ 1..=3)) => Ok(Some(Stone {
            at: Coord { x, y },
            field,
        })),
        _ => Err(ParseError::Stone),
    }
}

/// A non-negative decimal number, whitespace around it allowed.
pub fn number(bytes: &[u8]) -> Option<u32> {
    let digits = bytes.trim_ascii();
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u32, |n, &b| {
        let d = b.checked_sub(b'0').filter(|d| *d <= 9)?;
        n.checked_mul(10)?.checked_add(u32::from(d))
    })
}

/// A decimal integer with an optional `-`, whitespace around it allowed:
/// the values of `INFO`.
pub fn integer(bytes: &[u8]) -> Option<i64> {
    let bytes = bytes.trim_ascii();
    let (negative, digits) = match bytes.strip_prefix(b"-") {
        Some(digits) => (true, digits),
        None => (false, bytes),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits.iter().try_fold(0i64, |n, &b| {
        n.checked_mul(10)?.checked_add(i64::from(b - b'0'))
    })?;
    Some(if negative { -n } else { n })
}

fn coords(bytes: &[u8]) -> Option<Coord> {
    let mut parts = bytes.split(|&b| b == b',');
    let x = number(parts.next()?)?;
    let y = number(parts.next()?)?;
    match parts.next() {
        None => Some(Coord { x, y }),
        Some(_) => None,
    }
}

fn split_word(line: &[u8]) -> (&[u8], &[u8]) {
    match line.iter().position(u8::is_ascii_whitespace) {
        Some(at) => (&line[..at], line[at..].trim_ascii()),
        None => (line, &[]),
    }
}

const fn arguments(command: &'static str, wants: &'static str) -> ParseError {
    ParseError::Arguments { command, wants }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: u32, y: u32) -> Coord {
        Coord { x, y }
    }

    #[test]
    fn commands_parse_in_any_case_with_any_line_ending() {
        let cases: &[(&[u8], Command<'_>)] = &[
            (b"START 19", Command::Start(19)),
            (b"start 19\r", Command::Start(19)),
            (b"  Start   20  \r\n", Command::Start(20)),
            (b"RECTSTART 19,19", Command::RectStart(19, 19)),
            (b"RESTART", Command::Restart),
            (b"BEGIN\r", Command::Begin),
            (b"begin", Command::Begin),
            (b"TURN 10,10", Command::Turn(at(10, 10))),
            (b"TURN 0, 18", Command::Turn(at(0, 18))),
            (b"turn 007,3\r", Command::Turn(at(7, 3))),
            (b"PLAY 1,2", Command::Play(at(1, 2))),
            (b"BOARD", Command::Board),
            (b"DONE", Command::Done),
            (b"TAKEBACK 3,4", Command::Takeback(at(3, 4))),
            (b"END", Command::End),
            (b"yxstop\r", Command::Stop),
            (b"ABOUT", Command::About),
            (b"YXBOARD", Command::YxBoard),
            (b"yxshowforbid\r", Command::YxShowForbid),
            (
                b"INFO timeout_turn 5000\r",
                Command::Info {
                    key: b"timeout_turn",
                    value: b"5000",
                },
            ),
            (
                b"INFO folder C:\\My Brains\\x",
                Command::Info {
                    key: b"folder",
                    value: b"C:\\My Brains\\x",
                },
            ),
            (
                b"INFO evaluate",
                Command::Info {
                    key: b"evaluate",
                    value: b"",
                },
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(parse(line), Ok(Some(*expected)), "{}", line.escape_ascii());
        }
    }

    #[test]
    fn blank_lines_are_no_command() {
        for line in [&b""[..], b"\r", b"   ", b"\t\r", b" \r"] {
            assert_eq!(parse(line), Ok(None), "{}", line.escape_ascii());
        }
    }

    #[test]
    fn unknown_words_are_unknown() {
        for line in [
            &b"HELLO"[..],
            b"STARTX 19",
            b"TURNS 1,1",
            b"\xff\xfe",
            b"SWAP2BOARD",
        ] {
            assert_eq!(
                parse(line),
                Err(ParseError::Unknown),
                "{}",
                line.escape_ascii()
            );
        }
    }

    #[test]
    fn malformed_arguments_are_errors_naming_the_command() {
        let cases: &[(&[u8], &str)] = &[
            (b"START", "START"),
            (b"START x", "START"),
            (b"START -19", "START"),
            (b"START 99999999999", "START"),
            (b"START 19 19", "START"),
            (b"RECTSTART 19", "RECTSTART"),
            (b"BEGIN 1", "BEGIN"),
            (b"TURN", "TURN"),
            (b"TURN 1", "TURN"),
            (b"TURN 1,", "TURN"),
            (b"TURN ,1", "TURN"),
            (b"TURN 1,2,3", "TURN"),
            (b"TURN -1,2", "TURN"),
            (b"TURN 1;2", "TURN"),
            (b"TURN 1.5,2", "TURN"),
            (b"TURN 4294967296,0", "TURN"),
            (b"TAKEBACK a,b", "TAKEBACK"),
            (b"PLAY", "PLAY"),
            (b"INFO", "INFO"),
            (b"END now", "END"),
            (b"YXSTOP 1", "YXSTOP"),
            (b"ABOUT me", "ABOUT"),
            (b"RESTART 19", "RESTART"),
            (b"BOARD 1", "BOARD"),
            (b"DONE 1", "DONE"),
        ];
        for (line, name) in cases {
            match parse(line) {
                Err(ParseError::Arguments { command, .. }) => {
                    assert_eq!(command, *name, "{}", line.escape_ascii());
                }
                other => panic!("{}: {other:?}", line.escape_ascii()),
            }
        }
    }

    #[test]
    fn board_lines() {
        let stone = |x, y, field| {
            Ok(Some(Stone {
                at: at(x, y),
                field,
            }))
        };
        type Case = (&'static [u8], Result<Option<Stone>, ParseError>);
        let cases: &[Case] = &[
            (b"10,10,1", stone(10, 10, 1)),
            (b"0,18,2\r", stone(0, 18, 2)),
            (b" 3 , 4 , 3 ", stone(3, 4, 3)),
            (b"DONE", Ok(None)),
            (b"done\r", Ok(None)),
            (b"1,1,0", Err(ParseError::Stone)),
            (b"1,1,4", Err(ParseError::Stone)),
            (b"1,1,256", Err(ParseError::Stone)),
            (b"1,1", Err(ParseError::Stone)),
            (b"1,1,1,1", Err(ParseError::Stone)),
            (b"TURN 1,1", Err(ParseError::Stone)),
            (b"", Err(ParseError::Stone)),
        ];
        for (line, expected) in cases {
            assert_eq!(parse_stone(line), *expected, "{}", line.escape_ascii());
        }
    }

    #[test]
    fn integers_for_info() {
        let cases: &[(&[u8], Option<i64>)] = &[
            (b"0", Some(0)),
            (b"5000", Some(5000)),
            (b" 42 ", Some(42)),
            (b"-1", Some(-1)),
            (b"2147483647", Some(2_147_483_647)),
            (b"", None),
            (b"-", None),
            (b"1e3", None),
            (b"+5", None),
            (b"99999999999999999999", None),
        ];
        for (bytes, expected) in cases {
            assert_eq!(integer(bytes), *expected, "{}", bytes.escape_ascii());
        }
    }
}
