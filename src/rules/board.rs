//! The 19×19 board: which stone, if any, stands on each point, and the runs
//! of stones through a point that decide a win.

use crate::rules::player::Player;
use crate::rules::point::Point;

/// The four line directions as (columns, rows) steps; each also covers its
/// opposite.
pub const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The stones on the board. Only [`Board::place`] adds one, and it never
/// takes an occupied point, so a stone is never replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    points: [Option<Player>; Point::COUNT],
    stones: u16,
}

/// The line of same-coloured stones through one stone in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The stones' colour; `None` for an empty point.
    pub colour: Option<Player>,
    /// How many stones the line holds, the stone itself included.
    pub length: u16,
    /// What stands just beyond each end: `None` off the board,
    /// `Some(None)` an empty point, `Some(Some(player))` a stone (never of
    /// the run's own colour, or the run would be longer).
    pub ends: [Option<Option<Player>>; 2],
}

impl Board {
    /// An empty board.
    pub const fn new() -> Board {
        Board {
            points: [None; Point::COUNT],
            stones: 0,
        }
    }

    /// The stone at `p`, if any.
    pub fn get(&self, p: Point) -> Option<Player> {
        self.points[p.index()]
    }

    /// How many stones stand on the board.
    pub const fn stones(&self) -> usize {
        self.stones as usize
    }

    /// Whether every point holds a stone.
    pub const fn is_full(&self) -> bool {
        self.stones as usize == Point::COUNT
    }

    /// Puts `player`'s stone on `p`; `false`, and no change, if `p` is taken.
    pub fn place(&mut self, p: Point, player: Player) -> bool {
        let slot = &mut self.points[p.index()];
        if slot.is_some() {
            return false;
        }
        *slot = Some(player);
        self.stones += 1;
        true
    }

    /// The run through the stone at `p` along `direction` (one of
    /// [`DIRECTIONS`]), counted in both senses. An empty `p` has length 0.
    pub fn run(&self, p: Point, (dc, dr): (i8, i8)) -> Run {
        let Some(colour) = self.get(p) else {
            return Run {
                colour: None,
                length: 0,
                ends: [None, None],
            };
        };
        let mut length = 1;
        let mut ends = [None, None];
        for (end, sign) in ends.iter_mut().zip([1, -1]) {
            let mut at = p;
            // Walks until the line leaves the board or the colour changes.
            while let Some(next) = at.offset(dc * sign, dr * sign) {
                match self.get(next) {
                    Some(c) if c == colour => {
                        length += 1;
                        at = next;
                    }
                    other => {
                        *end = Some(other);
                        break;
                    }
                }
            }
        }
        Run {
            colour: Some(colour),
            length,
            ends,
        }
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}
