//! The mist: where its 7×7 hole is, and which points it shows.
//!
//! This is rules, not printing: the hole is given as points (or `None` for
//! a place off the board), and `text` alone decides which symbol each
//! shows, so the core never depends on the output side.
//!
//! The formulas, and a table of their values, are in
//! [the contract](crate::rules::contract#the-mist).

use crate::rules::point::{Column, Point, Row};

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

/// The 49 places of the hole around `centre` in `view` order: from its
/// highest row down, each row from its lowest column up; `None` where the
/// place is off the board.
pub fn hole(centre: Point) -> [Option<Point>; HOLE_POINTS] {
    let mut out = [None; HOLE_POINTS];
    let offsets = (-REACH..=REACH)
        .rev()
        .flat_map(|dr| (-REACH..=REACH).map(move |dc| (dc, dr)));
    for (slot, (dc, dr)) in out.iter_mut().zip(offsets) {
        *slot = centre.offset(dc, dr);
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

    /// The contract's table of the formula's values, parsed: rows
    /// `| n | letter | x' | letter | y' |`.
    #[test]
    fn contract_table_matches_the_formula() {
        const LETTERS: &str = "ABCDEFGHIJKLMNOPQRS";
        let contract = include_str!("contract.md");
        let mut seen = 0;
        for line in contract.lines() {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // `| a | b | c | d | e |` splits into 7 cells, empty at both ends.
            let [_, n, from, x, to, y, _] = cells[..] else {
                continue;
            };
            let (Ok(n), Ok(x), Ok(y)) = (n.parse::<u8>(), x.parse::<u8>(), y.parse::<u8>()) else {
                continue;
            };
            let letter = |k: u8| &LETTERS[usize::from(k) - 1..usize::from(k)];
            assert_eq!(from, letter(n), "contract table row {n}: column letter");
            assert_eq!(to, letter(x), "contract table row {n}: letter of x'");
            let moved = next_centre(Point::new(
                Column::from_residue(u32::from(n) - 1),
                Row::from_residue(u32::from(n) - 1),
            ));
            assert_eq!(moved.column().number(), x, "contract table row {n}: x'");
            assert_eq!(moved.row().number(), y, "contract table row {n}: y'");
            seen += 1;
        }
        assert_eq!(seen, 19, "the contract's table must have a row per number");
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

    /// The hole as a picture: `.` for a point on the board, `x` off it.
    fn shape(centre: &str) -> String {
        hole(point(centre))
            .iter()
            .map(|p| if p.is_some() { '.' } else { 'x' })
            .collect()
    }

    #[test]
    fn hole_marks_places_off_the_board() {
        let cases = [
            ("A1", "xxx....xxx....xxx....xxx....xxxxxxxxxxxxxxxxxxxxx"),
            ("S19", "xxxxxxxxxxxxxxxxxxxxx....xxx....xxx....xxx....xxx"),
            ("J10", "................................................."),
        ];
        for (centre, expected) in cases {
            assert_eq!(shape(centre), expected, "hole around {centre}");
        }
    }

    #[test]
    fn hole_is_in_view_order() {
        let places = hole(point("J10"));
        assert_eq!(places[0], Some(point("G13")), "first: top left");
        assert_eq!(places[6], Some(point("M13")), "end of the top row");
        assert_eq!(places[24], Some(point("J10")), "the centre");
        assert_eq!(places[48], Some(point("M7")), "last: bottom right");
    }

    #[test]
    fn in_hole_matches_the_hole() {
        for centre in Point::all() {
            let visible = Point::all().filter(|&p| in_hole(centre, p)).count();
            let places = hole(centre);
            let on_board = places.iter().flatten().count();
            assert_eq!(visible, on_board, "centre {centre}");
            assert!(
                places.iter().flatten().all(|&p| in_hole(centre, p)),
                "centre {centre}: a place of the hole is not in it"
            );
        }
    }
}
