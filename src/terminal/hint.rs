//! Hints for a person: what was wrong with a line the program rejected.
//! Pure: the line's bytes and the game in, one line of text out.
//!
//! The replies on stdout (`Invalid!`, `Invalid coordinate`, `Occupied
//! coordinate`, under renju `Forbidden coordinate`) are the contract and say little; a hint names the one
//! thing to change, checked in the order a person most likely went wrong:
//! a stray control key first, then spacing, case, the shape of `place`,
//! and last an unknown word.

use crate::cli::args::{self, SHOWN_MAX};
use crate::rules::command::{Command, ParseCommandError};
use crate::rules::game::Game;
use crate::rules::player::Player;
use crate::rules::point::{Point, Row, SIZE};
use crate::rules::renju::Foul;

/// The commands, as a hint lists them.
pub const COMMANDS: &str = "place <C><R> (e.g. place J10), who, view, history, resign, term";

const WORDS: [&str; 5] = ["who", "view", "history", "resign", "term"];

/// The hint for `line` (without its newline) in `game`, or `None` if the
/// line would be accepted.
pub fn hint(line: &[u8], game: &Game) -> Option<String> {
    match Command::parse(line) {
        Ok(Command::Place(p)) => match game.board().get(p) {
            Some(stone) => Some(occupied(p, stone)),
            None => game
                .rule()
                .foul(game.board(), game.to_move(), p)
                .map(|foul| forbidden(p, foul)),
        },
        Ok(_) => None,
        Err(ParseCommandError::NotACommand) => Some(not_a_command(line)),
        Err(ParseCommandError::NotAPoint(_)) => Some(not_a_point(line, &line[b"place ".len()..])),
    }
}

fn occupied(p: Point, stone: Player) -> String {
    let whose = match stone {
        Player::Black => "Black's stone (#)",
        Player::White => "White's stone (o)",
    };
    format!("{p} already holds {whose}; choose an empty point")
}

fn forbidden(p: Point, foul: Foul) -> String {
    format!(
        "{p} would make {} for Black, forbidden under renju; choose another point",
        match foul {
            Foul::DoubleThree => "a double three (two open threes at once)",
            Foul::DoubleFour => "a double four (two fours at once)",
            Foul::Overline => "an overline (six or more in a row)",
        }
    )
}

fn not_a_command(line: &[u8]) -> String {
    if line.is_empty() {
        return format!("an empty line is not a command; the commands are {COMMANDS}");
    }
    if let Some(named) = control(line) {
        return format!("the line holds a control character, {named}; type the command without it");
    }
    let trimmed = line.trim_ascii();
    // `place ` is short of a point, not long by a space.
    if trimmed == b"place" && !line.starts_with(b" ") {
        return "place needs a point after one space, e.g. place J10".to_owned();
    }
    if trimmed.len() != line.len() {
        let (before, after) = (line[0] == b' ', line[line.len() - 1] == b' ');
        let place = match (before, after) {
            (true, true) => "before or after",
            (true, false) => "before",
            _ => "after",
        };
        return format!("no space {place} the command{}", suggestion(trimmed));
    }
    if line.windows(2).any(|w| w == b"  ") {
        return "one space only, between place and the point: place J10".to_owned();
    }
    let (first, rest) = line.split_at(line.iter().position(|&b| b == b' ').unwrap_or(line.len()));
    let lower = first.to_ascii_lowercase();
    if lower != first && (is_word(&lower) || lower == b"place") {
        return format!(
            "commands are lower-case{}",
            suggestion(&[&lower[..], rest].concat())
        );
    }
    let mut words = line.split(|&b| b == b' ');
    let first = words.next().unwrap_or_default();
    let more = words.count();
    match (first, more) {
        (b"place", 0) => return "place needs a point after one space, e.g. place J10".to_owned(),
        (b"place", _) => return "place takes one point, e.g. place J10".to_owned(),
        (word, _) if is_word(word) => {
            return format!("{} takes nothing after it", shown(word));
        }
        _ => {}
    }
    format!(
        "unknown command {}; the commands are {COMMANDS}",
        quoted(line)
    )
}

fn not_a_point(line: &[u8], parameter: &[u8]) -> String {
    if let Some(named) = control(line) {
        return format!("the point holds a control character, {named}; type it without");
    }
    const SHAPE: &str = "a point is a column letter A to S, then a row 1 to 19, e.g. J10";
    let Some((&letter, row)) = parameter.split_first() else {
        return SHAPE.to_owned();
    };
    match letter {
        b'a'..=b's' => {
            let upper = [&[letter.to_ascii_uppercase()], row].concat();
            return format!(
                "columns are upper-case letters{}",
                suggestion(&[b"place ", &upper[..]].concat())
            );
        }
        b'T'..=b'Z' | b't'..=b'z' => {
            return format!(
                "there is no column {}: columns run A to S (I included)",
                char::from(letter.to_ascii_uppercase())
            );
        }
        b'0'..=b'9' => return format!("the column letter comes first, then the row: {SHAPE}"),
        b'A'..=b'S' => {}
        _ => return SHAPE.to_owned(),
    }
    let column = char::from(letter);
    if row.is_empty() {
        return format!("a row number 1 to 19 follows the column, e.g. {column}10");
    }
    let digits = row.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits < row.len() {
        return match row[0] {
            b'+' | b'-' => "a row number has no sign".to_owned(),
            _ => format!(
                "after the column only the row number, 1 to 19: {} does not belong",
                quoted(&row[digits..])
            ),
        };
    }
    let significant = &row[row.iter().take_while(|&&d| d == b'0').count()..];
    if significant.is_empty() {
        return "rows are numbered from 1 (at the bottom) to 19".to_owned();
    }
    let in_range = Row::from_ascii(significant).is_some();
    if significant.len() < row.len() && in_range {
        let fixed = [b"place ", &[letter][..], significant].concat();
        return format!("no leading zero{}", suggestion(&fixed));
    }
    format!(
        "there is no row {}: rows run 1 to {SIZE}",
        shown(significant)
    )
}

/// The first control byte of `line`, named as it is typed (`^L`).
fn control(line: &[u8]) -> Option<String> {
    let &byte = line.iter().find(|&&b| b.is_ascii_control())?;
    let caret = char::from(byte ^ 0x40);
    let name = match byte {
        b'\t' => " (Tab)",
        b'\r' => " (Return)",
        0x1b => " (Escape: an arrow or function key?)",
        0x7f => " (Delete)",
        _ => "",
    };
    Some(format!("^{caret}{name}"))
}

fn is_word(line: &[u8]) -> bool {
    WORDS.iter().any(|w| w.as_bytes() == line)
}

/// `: <line>` if `line` is a command, to show the fix; nothing otherwise.
fn suggestion(line: &[u8]) -> String {
    match Command::parse(line) {
        Ok(_) => format!(": {}", shown(line)),
        Err(_) => String::new(),
    }
}

/// `line` as text: control and non-ASCII bytes escaped and, past
/// [`SHOWN_MAX`] bytes, cut with a note of its length, as the command
/// line shows an argument.
fn shown(line: &[u8]) -> String {
    let kept = &line[..line.len().min(SHOWN_MAX)];
    match kept.len() < line.len() {
        true => format!("{}… ({} bytes)", kept.escape_ascii(), line.len()),
        false => kept.escape_ascii().to_string(),
    }
}

/// `line` quoted as the command line quotes an argument.
fn quoted(line: &[u8]) -> String {
    args::shown(&args::os_string(line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::rule::Rule;

    fn game(moves: &[&str]) -> Game {
        let mut game = Game::new(Rule::Freestyle);
        for m in moves {
            game.place(m.parse().unwrap()).unwrap();
        }
        game
    }

    /// Each rejected line and the words its hint must hold.
    const CASES: &[(&[u8], &str)] = &[
        (
            b"",
            "an empty line is not a command; the commands are place",
        ),
        (b"Who", "commands are lower-case: who"),
        (b"WHO", "commands are lower-case: who"),
        (b"Place J10", "commands are lower-case: place J10"),
        (b"who ", "no space after the command: who"),
        (b" who", "no space before the command: who"),
        (b" who ", "no space before or after the command: who"),
        (
            b"place  J10",
            "one space only, between place and the point: place J10",
        ),
        (b"place J10 ", "no space after the command: place J10"),
        (b"\x0cplace J10", "control character, ^L; type"),
        (b"who\r", "control character, ^M (Return)"),
        (b"\x1b[A", "^[ (Escape: an arrow or function key?)"),
        (b"place\tJ10", "^I (Tab)"),
        (
            b"place",
            "place needs a point after one space, e.g. place J10",
        ),
        (b"place ", "place needs a point after one space"),
        (b"place A020", "there is no row 20: rows run 1 to 19"),
        (b"place A1 B2", "place takes one point"),
        (b"who now", "who takes nothing after it"),
        (
            b"hello",
            "unknown command \"hello\"; the commands are place <C><R>",
        ),
        (b"\xff", "unknown command \"\\xff\""),
        (b"caf\xc3\xa9", "unknown command \"café\""),
        (b"place j10", "columns are upper-case letters: place J10"),
        (b"place a1", "columns are upper-case letters: place A1"),
        (b"place T1", "there is no column T: columns run A to S"),
        (b"place z1", "there is no column Z"),
        (b"place 10J", "the column letter comes first, then the row"),
        (b"place J01", "no leading zero: place J1"),
        (b"place A007", "no leading zero: place A7"),
        (b"place A0", "rows are numbered from 1"),
        (b"place A00", "rows are numbered from 1"),
        (b"place A20", "there is no row 20: rows run 1 to 19"),
        (b"place B122", "there is no row 122"),
        (b"place A99999999999", "there is no row"),
        (
            b"place A",
            "a row number 1 to 19 follows the column, e.g. A10",
        ),
        (b"place A+1", "a row number has no sign"),
        (b"place A1x", "\"x\" does not belong"),
        (b"place J10\0", "control character, ^@"),
        (b"place -", "a point is a column letter A to S"),
        (b"place \xc3\xa9", "a point is a column letter A to S"),
        (b"place A1", "A1 already holds Black's stone (#)"),
        (b"place B2", "B2 already holds White's stone (o)"),
        // Long words are cut as the command line cuts an argument.
        (
            b"hellohellohellohellohellohellohellohellohello",
            "unknown command \"hellohellohellohellohellohellohellohello…\" (45 bytes)",
        ),
        (
            b"place A123456789012345678901234567890123456789012",
            "there is no row 1234567890123456789012345678901234567890… (42 bytes)",
        ),
        (b"place A1x\xffy", "\"x\\xffy\" does not belong"),
    ];

    #[test]
    fn a_forbidden_point_says_why_under_renju_only() {
        let moves = ["C5", "A19", "D5", "C19", "E6", "E19", "E7", "G19"];
        let mut renju = Game::new(Rule::Renju);
        for m in moves {
            renju.place(m.parse().unwrap()).unwrap();
        }
        let got = hint(b"place E5", &renju).expect("a hint");
        assert!(got.contains("E5 would make a double three"), "{got}");
        assert_eq!(hint(b"place E4", &renju), None);
        assert_eq!(hint(b"place E5", &game(&moves)), None);
    }

    #[test]
    fn each_rejected_line_gets_its_hint() {
        let game = game(&["A1", "B2"]);
        for &(line, expected) in CASES {
            let got = hint(line, &game);
            let shown = line.escape_ascii();
            let got = got.unwrap_or_else(|| panic!("no hint for {shown}"));
            assert!(
                got.contains(expected),
                "line {shown}:\n got  {got}\n want {expected}"
            );
            assert!(
                !got.contains('\n'),
                "line {shown}: hint spans lines: {got:?}"
            );
        }
    }

    #[test]
    fn accepted_lines_get_no_hint() {
        let game = game(&["A1"]);
        for line in [
            &b"who"[..],
            b"view",
            b"history",
            b"resign",
            b"term",
            b"place S19",
        ] {
            assert_eq!(hint(line, &game), None, "{}", line.escape_ascii());
        }
    }

    #[test]
    fn any_bytes_get_a_hint_exactly_when_rejected() {
        // Every short line over a small alphabet: a hint never panics, and
        // is given exactly when the line is not an accepted command.
        let alphabet = [
            b'p', b'l', b'a', b'c', b'e', b' ', b'A', b'0', b'1', b'\t', 0x0c, b'w',
        ];
        let game = game(&["A1"]);
        let mut line = Vec::new();
        for n in 0..alphabet.len().pow(4) {
            line.clear();
            let mut k = n;
            while k > 0 {
                line.push(alphabet[k % alphabet.len()]);
                k /= alphabet.len();
            }
            let accepted = match Command::parse(&line) {
                Ok(Command::Place(p)) => game.board().get(p).is_none(),
                Ok(_) => true,
                Err(_) => false,
            };
            assert_eq!(
                hint(&line, &game).is_none(),
                accepted,
                "{}",
                line.escape_ascii()
            );
        }
    }
}
