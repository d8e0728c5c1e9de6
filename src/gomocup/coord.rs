//! Gomocup coordinates, the engine's and ours.
//!
//! Gomocup writes a point `x,y`: zero-based, the origin at the top-left
//! corner, `x` growing to the right and `y` growing downwards, on a board
//! of any size. The engine's [`Spot`] is the same pair (the engine has no
//! up or down). On the 19×19 board, ours start at `A1` in the bottom-left
//! corner, so column = `x` + 1 (`A` for 0) and row = 19 − `y`:
//!
//! | Gomocup | ours |
//! |---|---|
//! | `0,0` | `A19` |
//! | `18,0` | `S19` |
//! | `0,18` | `A1` |
//! | `18,18` | `S1` |
//! | `9,9` | `J10` |

use crate::engine::Spot;
use crate::rules::point::{Column, Point, Row, SIZE};

/// A point as Gomocup writes it, not yet checked against the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coord {
    /// Zero-based column, from the left.
    pub x: u32,
    /// Zero-based row, from the top.
    pub y: u32,
}

impl Coord {
    /// The engine's spot for these coordinates, if they fit one (any
    /// board up to 255 points a side).
    pub fn spot(self) -> Option<Spot> {
        Some(Spot {
            x: u8::try_from(self.x).ok()?,
            y: u8::try_from(self.y).ok()?,
        })
    }

    /// The coordinates of the engine's spot `s`.
    pub fn of(s: Spot) -> Coord {
        Coord {
            x: u32::from(s.x),
            y: u32::from(s.y),
        }
    }

    /// Our point on the 19×19 board for these coordinates, if they are on the board.
    pub fn point(self) -> Option<Point> {
        let x = u8::try_from(self.x).ok()?;
        let y = u8::try_from(self.y).ok()?;
        let row = SIZE.checked_sub(y)?;
        Some(Point::new(Column::new(x.checked_add(1)?)?, Row::new(row)?))
    }

    /// The Gomocup coordinates of `p` on the 19×19 board.
    pub fn of_point(p: Point) -> Coord {
        Coord {
            x: u32::from(p.column().number()) - 1,
            y: u32::from(SIZE - p.row().number()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coord(x: u32, y: u32) -> Coord {
        Coord { x, y }
    }

    #[test]
    fn corners_and_centre_map_as_documented() {
        let cases = [
            ((0, 0), "A19"),
            ((18, 0), "S19"),
            ((0, 18), "A1"),
            ((18, 18), "S1"),
            ((9, 9), "J10"),
            ((8, 10), "I9"),
        ];
        for ((x, y), ours) in cases {
            let p = coord(x, y).point().map(|p| p.to_string());
            assert_eq!(p.as_deref(), Some(ours), "Gomocup {x},{y}");
        }
    }

    #[test]
    fn every_point_maps_there_and_back() {
        for p in Point::all() {
            assert_eq!(Coord::of_point(p).point(), Some(p), "{p}");
        }
    }

    #[test]
    fn off_board_coordinates_are_no_point() {
        for (x, y) in [
            (19, 0),
            (0, 19),
            (19, 19),
            (u32::MAX, 0),
            (0, 256),
            (255, 3),
        ] {
            assert_eq!(coord(x, y).point(), None, "Gomocup {x},{y}");
        }
    }
}
