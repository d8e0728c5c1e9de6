//! Board points: a [`Column`] `A`..`S`, a [`Row`] `1`..`19`, and the
//! [`Point`] they make.
//!
//! Each type can only hold a real board coordinate, so the board, the mist
//! and the history never have to check bounds again.
//!
//! ```
//! use gomoku_mist::point::Point;
//!
//! let p = Point::from_ascii(b"J10").unwrap();
//! assert_eq!((p.column().number(), p.row().number()), (10, 10));
//! assert_eq!(p.to_string(), "J10");
//! assert!(Point::from_ascii(b"A01").is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Number of columns and of rows.
pub const SIZE: u8 = 19;

/// A board column, `A` (number 1) to `S` (number 19). `I` is a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Column(u8); // zero-based, always < SIZE

/// A board row, 1 to 19.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Row(u8); // zero-based, always < SIZE

/// A point on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Point {
    row: Row,
    column: Column,
}

/// Why some bytes are not a board point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum ParsePointError {
    /// The first byte is not one of the letters `A`..`S`.
    #[error("a point starts with a column letter A to S")]
    Column,
    /// What follows the letter is not a row number 1..19 written plainly.
    #[error("a column letter is followed by a row number 1 to 19, without sign or leading zero")]
    Row,
}

impl Column {
    /// All columns, from `A` to `S`.
    pub const ALL: [Column; SIZE as usize] = {
        let mut all = [Column(0); SIZE as usize];
        let mut i = 0;
        while i < SIZE {
            all[i as usize] = Column(i);
            i += 1;
        }
        all
    };

    /// The column numbered `number` (1 for `A`), if there is one.
    pub const fn new(number: u8) -> Option<Column> {
        if number >= 1 && number <= SIZE {
            Some(Column(number - 1))
        } else {
            None
        }
    }

    /// The column whose zero-based index is `n mod 19`: every `n` names one.
    pub const fn from_residue(n: u32) -> Column {
        Column((n % SIZE as u32) as u8)
    }

    /// The column whose zero-based index is `index`, or `S` past the edge:
    /// every `index` names one, at the cost of a compare.
    pub const fn saturating(index: u8) -> Column {
        Column(if index < SIZE { index } else { SIZE - 1 })
    }

    /// The column written as `letter`.
    pub const fn from_ascii(letter: u8) -> Option<Column> {
        match letter {
            b'A'..=b'S' => Some(Column(letter - b'A')),
            _ => None,
        }
    }

    /// 1 for `A` up to 19 for `S`.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// Zero-based, 0 for `A`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The upper-case letter.
    pub const fn letter(self) -> u8 {
        b'A' + self.0
    }
}

impl Row {
    /// All rows, from 1 to 19.
    pub const ALL: [Row; SIZE as usize] = {
        let mut all = [Row(0); SIZE as usize];
        let mut i = 0;
        while i < SIZE {
            all[i as usize] = Row(i);
            i += 1;
        }
        all
    };

    /// Row `number` (1 to 19), if there is one.
    pub const fn new(number: u8) -> Option<Row> {
        if number >= 1 && number <= SIZE {
            Some(Row(number - 1))
        } else {
            None
        }
    }

    /// The row whose zero-based index is `n mod 19`: every `n` names one.
    pub const fn from_residue(n: u32) -> Row {
        Row((n % SIZE as u32) as u8)
    }

    /// The row whose zero-based index is `index`, or 19 past the edge:
    /// every `index` names one, at the cost of a compare.
    pub const fn saturating(index: u8) -> Row {
        Row(if index < SIZE { index } else { SIZE - 1 })
    }

    /// Parses a row number exactly: `1`..`19` in decimal, no sign, no
    /// leading zero, nothing before or after.
    pub const fn from_ascii(digits: &[u8]) -> Option<Row> {
        match *digits {
            [d @ b'1'..=b'9'] => Row::new(d - b'0'),
            [b'1', d @ b'0'..=b'9'] => Row::new(10 + d - b'0'),
            _ => None,
        }
    }

    /// 1 to 19.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// Zero-based, 0 for row 1.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row number in decimal: one or two ASCII digits.
    pub fn digits(self) -> &'static [u8] {
        const DIGITS: &[u8; 29] = b"12345678910111213141516171819";
        let n = self.0 as usize;
        // Rows 1..9 take one digit each, rows 10..19 two each.
        if n < 9 {
            &DIGITS[n..n + 1]
        } else {
            let at = 9 + 2 * (n - 9);
            &DIGITS[at..at + 2]
        }
    }
}

impl Point {
    /// Every point, row by row from `A1`.
    pub fn all() -> impl Iterator<Item = Point> {
        Row::ALL.into_iter().flat_map(|row| {
            Column::ALL
                .into_iter()
                .map(move |column| Point::new(column, row))
        })
    }

    /// The number of points on the board.
    pub const COUNT: usize = SIZE as usize * SIZE as usize;

    /// The point at `column`, `row`.
    pub const fn new(column: Column, row: Row) -> Point {
        Point { row, column }
    }

    /// Parses a point exactly as the contract writes one: a letter `A`..`S`,
    /// then a row `1`..`19`; `A01`, `a1`, `A1x` and `T1` are not points.
    ///
    /// # Errors
    ///
    /// [`ParsePointError`] says which part is wrong.
    pub const fn from_ascii(bytes: &[u8]) -> Result<Point, ParsePointError> {
        let [letter, digits @ ..] = bytes else {
            return Err(ParsePointError::Column);
        };
        let Some(column) = Column::from_ascii(*letter) else {
            return Err(ParsePointError::Column);
        };
        match Row::from_ascii(digits) {
            Some(row) => Ok(Point::new(column, row)),
            None => Err(ParsePointError::Row),
        }
    }

    /// The column.
    pub const fn column(self) -> Column {
        self.column
    }

    /// The row.
    pub const fn row(self) -> Row {
        self.row
    }

    /// A dense index `0..361`, row-major from `A1`.
    pub const fn index(self) -> usize {
        self.row.index() * SIZE as usize + self.column.index()
    }

    /// The point `dc` columns right and `dr` rows up, if it is on the board.
    pub const fn offset(self, dc: i8, dr: i8) -> Option<Point> {
        let c = self.column.0 as i16 + dc as i16;
        let r = self.row.0 as i16 + dr as i16;
        if c >= 0 && c < SIZE as i16 && r >= 0 && r < SIZE as i16 {
            Some(Point::new(Column(c as u8), Row(r as u8)))
        } else {
            None
        }
    }

    /// Appends the point as written, e.g. `J10`, to `out`. The point is at
    /// most three bytes long.
    pub fn write_ascii(self, out: &mut Vec<u8>) {
        out.push(self.column.letter());
        out.extend_from_slice(self.row.digits());
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(self.column.letter()),
            self.row.number()
        )
    }
}

impl FromStr for Point {
    type Err = ParsePointError;

    fn from_str(s: &str) -> Result<Point, ParsePointError> {
        Point::from_ascii(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_formats_and_parses_back_to_itself() {
        let mut seen = 0;
        for p in Point::all() {
            let text = p.to_string();
            assert_eq!(Point::from_ascii(text.as_bytes()), Ok(p), "{text}");
            let mut bytes = Vec::new();
            p.write_ascii(&mut bytes);
            assert_eq!(bytes, text.as_bytes());
            assert_eq!(p.index(), seen);
            seen += 1;
        }
        assert_eq!(seen, Point::COUNT);
    }

    #[test]
    fn parser_cases() {
        use ParsePointError::{Column as C, Row as R};
        type Case = (&'static [u8], Result<(u8, u8), ParsePointError>);
        let cases: &[Case] = &[
            (b"A1", Ok((1, 1))),
            (b"S19", Ok((19, 19))),
            (b"I9", Ok((9, 9))),
            (b"J10", Ok((10, 10))),
            (b"A19", Ok((1, 19))),
            (b"S1", Ok((19, 1))),
            (b"", Err(C)),
            (b"A", Err(R)),
            (b"T1", Err(C)),
            (b"Z1", Err(C)),
            (b"a1", Err(C)),
            (b"1A", Err(C)),
            (b"@1", Err(C)),
            (b"A0", Err(R)),
            (b"A00", Err(R)),
            (b"A01", Err(R)),
            (b"A20", Err(R)),
            (b"A+1", Err(R)),
            (b"A-1", Err(R)),
            (b"A1x", Err(R)),
            (b"A19x", Err(R)),
            (b"B122", Err(R)),
            (b"Z100", Err(C)),
            (b"A\xff", Err(R)),
            (b"\xc3\xa91", Err(C)),
        ];
        for (input, expected) in cases {
            let got = Point::from_ascii(input).map(|p| (p.column().number(), p.row().number()));
            assert_eq!(got, *expected, "{}", input.escape_ascii());
        }
    }

    #[test]
    fn offsets_stop_at_the_edges() {
        let a1 = Point::from_ascii(b"A1").unwrap();
        assert_eq!(a1.offset(-1, 0), None);
        assert_eq!(a1.offset(0, -1), None);
        assert_eq!(a1.offset(18, 18), Point::from_ascii(b"S19").ok());
        assert_eq!(a1.offset(19, 0), None);
    }
}
