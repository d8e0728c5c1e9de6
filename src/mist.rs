//! The mist: where its 7×7 hole is, and what can be seen through it.

use crate::board::Board;
use crate::point::{Column, Point, Row};
use crate::text::{OFF_BOARD, symbol};

/// How far the hole reaches from its centre in each direction.
pub const REACH: i8 = 3;

/// Points in the hole: 7 × 7.
pub const HOLE_POINTS: usize = 49;

/// The centre of the hole before the first move: `J10`.
pub const START: Point = Point::new(
    Column::from_residue(9), // J
    Row::from_residue(9),    // 10
);

/// Where the centre moves after a stone is placed at `p`:
/// `x' = 1 + (5x² + 3x + 4) mod 19`, `y' = 1 + (4y² + 2y − 4) mod 19`.
pub fn next_centre(p: Point) -> Point {
    let x = u32::from(p.column().number());
    let y = u32::from(p.row().number());
    // The "1 +" of the 1-based formula is the 0-based residue itself, and
    // 4y² + 2y − 4 ≥ 2 for y ≥ 1, so nothing here is negative.
    Point::new(
        Column::from_residue(5 * x * x + 3 * x + 4),
        Row::from_residue(4 * y * y + 2 * y - 4),
    )
}

/// Whether `p` lies in the hole around `centre`.
pub fn in_hole(centre: Point, p: Point) -> bool {
    let dc = i16::from(p.column().number()) - i16::from(centre.column().number());
    let dr = i16::from(p.row().number()) - i16::from(centre.row().number());
    let reach = i16::from(REACH);
    dc.abs() <= reach && dr.abs() <= reach
}

/// The 49 symbols of the hole around `centre`, from its highest row down,
/// each row from its lowest column up.
pub fn hole(board: &Board, centre: Point) -> [u8; HOLE_POINTS] {
    let mut out = [OFF_BOARD; HOLE_POINTS];
    let offsets = (-REACH..=REACH)
        .rev()
        .flat_map(|dr| (-REACH..=REACH).map(move |dc| (dc, dr)));
    for (slot, (dc, dr)) in out.iter_mut().zip(offsets) {
        if let Some(p) = centre.offset(dc, dr) {
            *slot = symbol(board.get(p));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(text: &str) -> Point {
        text.parse().unwrap()
    }

    #[test]
    fn spec_examples() {
        assert_eq!(next_centre(point("A1")), point("M3"));
        assert_eq!(next_centre(point("B2")), point("L17"));
        assert_eq!(START, point("J10"));
    }

    #[test]
    fn formula_for_every_column_and_row_against_signed_arithmetic() {
        // Computed independently: signed integers, a Euclidean remainder,
        // and letters picked from a string.
        const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRS";
        for x in 1..=19_i64 {
            for y in 1..=19_i64 {
                let nx = 1 + (5 * x * x + 3 * x + 4).rem_euclid(19);
                let ny = 1 + (4 * y * y + 2 * y - 4).rem_euclid(19);
                let from = format!("{}{}", LETTERS[x as usize - 1] as char, y);
                let to = format!("{}{}", LETTERS[nx as usize - 1] as char, ny);
                assert_eq!(next_centre(point(&from)).to_string(), to, "from {from}");
            }
        }
    }

    #[test]
    fn hole_marks_points_off_the_board() {
        let board = Board::new();
        let corner = hole(&board, point("A1"));
        let expected = b"xxx....xxx....xxx....xxx....xxxxxxxxxxxxxxxxxxxxx";
        assert_eq!(
            corner.escape_ascii().to_string(),
            expected.escape_ascii().to_string()
        );
        let s19 = hole(&board, point("S19"));
        let expected = b"xxxxxxxxxxxxxxxxxxxxx....xxx....xxx....xxx....xxx";
        assert_eq!(
            s19.escape_ascii().to_string(),
            expected.escape_ascii().to_string()
        );
    }

    #[test]
    fn in_hole_matches_the_rendered_hole() {
        for centre in Point::all() {
            let visible = Point::all().filter(|&p| in_hole(centre, p)).count();
            let on_board = hole(&Board::new(), centre)
                .iter()
                .filter(|&&c| c == b'.')
                .count();
            assert_eq!(visible, on_board, "centre {centre}");
        }
    }
}
