//! Every byte the program prints on stdout, in one place, and the fixed
//! parts of what it prints on stderr (the errors themselves are the
//! `Display` of the error types).
//!
//! Each reply ends with `\n`, as the [contract](crate::rules::contract) requires
//! of every line. The symbols for stones and off-board places live here
//! alone: the core gives points, this module gives bytes.

use crate::rules::game::Ending;
use crate::rules::mist::{self, HOLE_POINTS};
use crate::rules::player::Player;
use crate::rules::point::{Column, Point, Row};

/// A line that is not a command.
pub const INVALID: &[u8] = b"Invalid!\n";
/// A `place` of something that is not a board point.
pub const INVALID_COORDINATE: &[u8] = b"Invalid coordinate\n";
/// A `place` on a point that holds a stone.
pub const OCCUPIED: &[u8] = b"Occupied coordinate\n";
/// Under `--rule renju`, a `place` by Black on a forbidden point.
pub const FORBIDDEN: &[u8] = b"Forbidden coordinate\n";
/// The last line of a finished game.
pub const THANKS: &[u8] = b"Thank you for playing!\n";

/// `view`'s symbol for a black stone.
pub const BLACK_STONE: u8 = b'#';
/// `view`'s symbol for a white stone.
pub const WHITE_STONE: u8 = b'o';
/// `view`'s symbol for an empty point.
pub const EMPTY: u8 = b'.';
/// `view`'s symbol for a place in the hole that is off the board.
pub const OFF_BOARD: u8 = b'x';
/// `--board`'s symbol for a point hidden by the mist.
pub const MIST: u8 = b'@';

/// The longest `view` line, newline included: `J10,` and 49 symbols.
pub const VIEW_LINE_MAX: usize = 4 + HOLE_POINTS + 1;
/// The longest `history` line, newline included.
pub const HISTORY_LINE_MAX: usize = 3 * Point::COUNT + 1;

/// The length of a `--board` picture: 20 lines of 41 bytes, newlines
/// included.
pub const BOARD_PICTURE_LEN: usize = 20 * (3 + 2 * 19);

/// `who`'s reply.
pub const fn who(player: Player) -> &'static [u8] {
    match player {
        Player::Black => b"B\n",
        Player::White => b"W\n",
    }
}

/// The symbol for what stands on a point.
pub const fn symbol(stone: Option<Player>) -> u8 {
    match stone {
        Some(Player::Black) => BLACK_STONE,
        Some(Player::White) => WHITE_STONE,
        None => EMPTY,
    }
}

/// The first line of the end-of-game block.
pub const fn result(ending: Ending) -> &'static [u8] {
    match ending {
        Ending::Win {
            winner: Player::Black,
        } => b"Black wins!\n",
        Ending::Win {
            winner: Player::White,
        } => b"White wins!\n",
        Ending::Tie => b"Wow, a tie!\n",
    }
}

/// `Black` or `White`, as announcements and the terminal's prompts name
/// the players.
pub const fn name(player: Player) -> &'static str {
    match player {
        Player::Black => "Black",
        Player::White => "White",
    }
}

/// Replaces `out` with the line announcing the computer's move, e.g.
/// `White plays K11`: on stdout with `--board`, and at the terminal.
pub fn announcement(out: &mut Vec<u8>, player: Player, p: Point) {
    out.clear();
    out.extend_from_slice(name(player).as_bytes());
    out.extend_from_slice(b" plays ");
    p.write_ascii(out);
    out.push(b'\n');
}

/// Replaces `out` with the `view` line for the hole at `centre`:
/// `<centre>,<49 symbols>\n`.
pub fn view_line(out: &mut Vec<u8>, board: &crate::rules::board::Board, centre: Point) {
    out.clear();
    centre.write_ascii(out);
    out.push(b',');
    out.extend(
        mist::hole(centre)
            .iter()
            .map(|place| place.map_or(OFF_BOARD, |p| symbol(board.get(p)))),
    );
    out.push(b'\n');
}

/// Replaces `out` with the `history` line for `moves`: each move as
/// written, with nothing between, then `\n`.
pub fn history_line(out: &mut Vec<u8>, moves: &[Point]) {
    out.clear();
    for &p in moves {
        p.write_ascii(out);
    }
    out.push(b'\n');
}

/// Adds one move to a `history` line made by [`history_line`].
pub fn extend_history_line(line: &mut Vec<u8>, p: Point) {
    line.pop();
    p.write_ascii(line);
    line.push(b'\n');
}

/// Appends `--board`'s picture of the whole board: rows 19 down to 1, each
/// labelled on the left, columns `A`..`S` along the bottom, one symbol a
/// point with a space between. Points outside the hole around `centre`
/// show [`MIST`]; with no `centre`, the mist is lifted.
///
/// ```text
/// 19 @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @
/// ...
/// 10 @ @ @ @ @ @ . . . . . . . @ @ @ @ @ @
/// ...
///  1 @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @
///    A B C D E F G H I J K L M N O P Q R S
/// ```
pub fn board_picture(out: &mut Vec<u8>, board: &crate::rules::board::Board, centre: Option<Point>) {
    for row in Row::ALL.into_iter().rev() {
        let digits = row.digits();
        if digits.len() == 1 {
            out.push(b' ');
        }
        out.extend_from_slice(digits);
        for column in Column::ALL {
            let p = Point::new(column, row);
            out.push(b' ');
            out.push(match centre {
                Some(c) if !mist::in_hole(c, p) => MIST,
                _ => symbol(board.get(p)),
            });
        }
        out.push(b'\n');
    }
    out.extend_from_slice(b"  ");
    for column in Column::ALL {
        out.push(b' ');
        out.push(column.letter());
    }
    out.push(b'\n');
}

/// What starts every line on stderr.
pub const ERROR_PREFIX: &str = "gomoku-mist: ";

/// The line after a command-line error on stderr, for `command` (e.g.
/// `gomoku-mist`).
pub fn usage_hint(command: &str) -> String {
    format!("Try '{command} --help' for more information.")
}

/// `--version`'s line.
pub const VERSION: &str = concat!("gomoku-mist ", env!("CARGO_PKG_VERSION"), "\n");
