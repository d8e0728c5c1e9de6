//! Renju's forbidden points: where Black may not play.
//!
//! By the RIF rules Black may not make a double three, a double four
//! (two fours in one line included, as `x.xxx.x` filled in the middle) or
//! an overline; a move that makes exactly five wins whatever else it
//! makes. A three counts only if it can become a straight four by a move
//! that is not itself forbidden, so judging a point may judge others with
//! the stone on it: the recursion of the rules, done here on a small
//! overlay of imagined stones over the real ones, so that a query neither
//! changes nor copies the board and allocates nothing. White has no
//! restriction.
//!
//! The board is any [`Stones`]: the rules' [`Board`], or the engine's.
//!
//! ```
//! use gomoku_mist::board::Board;
//! use gomoku_mist::player::Player;
//! use gomoku_mist::point::Point;
//! use gomoku_mist::renju::{self, Foul};
//!
//! let mut board = Board::new();
//! for p in ["H10", "J10", "K11", "K12"] {
//!     board.place(p.parse().unwrap(), Player::Black);
//! }
//! let k10: Point = "K10".parse().unwrap();
//! assert_eq!(renju::foul_at(&board, k10), Some(Foul::DoubleThree));
//! ```

use crate::rules::board::Board;
use crate::rules::player::Player;
use crate::rules::point::{Column, Point, Row};

/// What a point holds, as far as Black's shapes care: a White stone and
/// the edge of the board both merely block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// No stone.
    Empty,
    /// A Black stone.
    Black,
    /// A White stone, or off the board.
    Blocked,
}

/// A board as the renju rule reads it: columns `x` and rows `y` from 0.
pub trait Stones {
    /// What stands at `x`, `y`; [`Cell::Blocked`] off the board.
    fn cell(&self, x: i32, y: i32) -> Cell;
}

impl Stones for Board {
    fn cell(&self, x: i32, y: i32) -> Cell {
        let column = usize::try_from(x).ok().and_then(|x| Column::ALL.get(x));
        let row = usize::try_from(y).ok().and_then(|y| Row::ALL.get(y));
        let (Some(&column), Some(&row)) = (column, row) else {
            return Cell::Blocked;
        };
        match self.get(Point::new(column, row)) {
            None => Cell::Empty,
            Some(Player::Black) => Cell::Black,
            Some(Player::White) => Cell::Blocked,
        }
    }
}

/// Why a point is forbidden to Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    /// Two or more threes at once.
    DoubleThree,
    /// Two or more fours at once, in one line or several.
    DoubleFour,
    /// Six or more in a line.
    Overline,
}

impl Foul {
    /// The name, as people say it: `double three`, `double four`,
    /// `overline`.
    pub const fn name(self) -> &'static str {
        match self {
            Foul::DoubleThree => "double three",
            Foul::DoubleFour => "double four",
            Foul::Overline => "overline",
        }
    }
}

/// How the rule is read where readers differ. The two differ only where
/// a point that makes five is in play: in one random position in some
/// hundreds, and hardly ever in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reading {
    /// The RIF's words: a three is three that a move not forbidden turns
    /// into a straight four, and a move that makes five is never
    /// forbidden, so a straight-four point that also makes five in
    /// another line makes its line a three; and five wins, whatever else
    /// the move makes.
    Rif,
    /// As Rapfi and c-gomoku-cli judge: a straight-four point that makes
    /// five in any line makes no three; and, as c-gomoku-cli adjudicates,
    /// a five that makes six in another line is an overline.
    Judges,
}

/// Why Black may not play at `x`, `y`, by the RIF's words, or `None` if
/// Black may: an occupied point is never forbidden (it is no move at all).
pub fn foul<S: Stones + ?Sized>(stones: &S, x: i32, y: i32) -> Option<Foul> {
    foul_read(stones, x, y, Reading::Rif)
}

/// [`foul`] under either [`Reading`].
pub fn foul_read<S: Stones + ?Sized>(stones: &S, x: i32, y: i32, reading: Reading) -> Option<Foul> {
    if stones.cell(x, y) != Cell::Empty {
        return None;
    }
    let board = Overlay {
        base: stones,
        extra: [(0, 0); DEPTH],
        len: 0,
    };
    if reading == Reading::Judges {
        let shapes = DIRECTIONS.map(|d| shape(board.line((x, y), d)));
        if shapes.iter().any(|s| s.five) && shapes.iter().any(|s| s.overline) {
            return Some(Foul::Overline);
        }
    }
    judge(&board, (x, y), reading)
}

/// [`foul`] at a point of the rules' board.
pub fn foul_at(board: &Board, p: Point) -> Option<Foul> {
    foul(board, p.column().index() as i32, p.row().index() as i32)
}

/// The four line directions, as (x, y) steps.
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Cells read on each side of the point: a straight four through it ends
/// within four, and the cell beyond its end decides whether completing
/// it makes five or six.
const REACH: usize = 5;
/// The cells of one line around the point, which sits in the middle.
pub(crate) const SPAN: usize = 2 * REACH + 1;
/// The point's own cell in a line.
pub(crate) const MIDDLE: usize = REACH;

/// The most imagined stones a judgement stacks: each level of the
/// recursion adds one. Real positions need two or three; past the limit a
/// three is taken as real.
const DEPTH: usize = 12;

/// The real stones with up to [`DEPTH`] imagined Black ones on top.
struct Overlay<'a, S: ?Sized> {
    base: &'a S,
    extra: [(i32, i32); DEPTH],
    len: usize,
}

impl<S: Stones + ?Sized> Overlay<'_, S> {
    fn cell(&self, x: i32, y: i32) -> Cell {
        if self.extra[..self.len].contains(&(x, y)) {
            Cell::Black
        } else {
            self.base.cell(x, y)
        }
    }

    /// The line through `(x, y)` along `(dx, dy)` with a Black stone on
    /// the point itself.
    fn line(&self, (x, y): (i32, i32), (dx, dy): (i32, i32)) -> [Cell; SPAN] {
        let mut line = [Cell::Blocked; SPAN];
        for (k, cell) in line.iter_mut().enumerate() {
            let step = k as i32 - MIDDLE as i32;
            *cell = self.cell(x + step * dx, y + step * dy);
        }
        line[MIDDLE] = Cell::Black;
        line
    }
}

/// What Black makes in one line by playing its middle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Shape {
    five: bool,
    overline: bool,
    /// Distinct fours: an open four is one, `x.xxx.x` filled in the
    /// middle two.
    fours: u8,
    /// When the line is no four: the points (as offsets in the line) that
    /// would make a straight four, whose own legality decides whether the
    /// line is a three. At most four.
    three_points: [u8; 4],
    three_count: u8,
}

/// The run of Black stones through the middle: its first and last cells.
fn run(line: &[Cell; SPAN]) -> (usize, usize) {
    let mut start = MIDDLE;
    while start > 0 && line[start - 1] == Cell::Black {
        start -= 1;
    }
    let mut end = MIDDLE;
    while end + 1 < SPAN && line[end + 1] == Cell::Black {
        end += 1;
    }
    (start, end)
}

/// Whether the line, with the middle played, holds a straight four
/// through the middle: four in a row with an empty point at each end
/// that makes exactly five.
fn straight_four(line: &[Cell; SPAN]) -> bool {
    let (start, end) = run(line);
    // A run of four through the middle lies within 3 of it, so its
    // neighbours two beyond either end are in the line.
    end - start + 1 == 4
        && line[start - 1] == Cell::Empty
        && line[start - 2] != Cell::Black
        && line[end + 1] == Cell::Empty
        && line[end + 2] != Cell::Black
}

fn shape(mut line: [Cell; SPAN]) -> Shape {
    let mut shape = Shape::default();
    let (start, end) = run(&line);
    let length = end - start + 1;
    if length == 5 {
        shape.five = true;
        return shape;
    }
    if length > 5 {
        shape.overline = true;
        return shape;
    }
    // Five-points: empty points that complete exactly five with the middle.
    let mut fives = [false; SPAN];
    for q in 0..SPAN {
        if line[q] == Cell::Empty {
            line[q] = Cell::Black;
            let (s, e) = run(&line);
            fives[q] = e - s + 1 == 5;
            line[q] = Cell::Empty;
        }
    }
    let points = fives.iter().filter(|&&f| f).count();
    // Two five-points five apart are the two ends of one open four.
    let open = (0..SPAN - 5).filter(|&q| fives[q] && fives[q + 5]).count();
    shape.fours = (points - open) as u8;
    if shape.fours > 0 {
        return shape;
    }
    (shape.three_points, shape.three_count) = straight_four_points(line);
    shape
}

/// The points of a line with its middle played (as offsets in the line,
/// at most four) that would make a straight four through the middle: if
/// there are any and the line holds no four, it is a three, real if one of
/// them is a move Black may make. The engine reads its lines this way too,
/// to judge a double three off its line codes.
pub(crate) fn straight_four_points(mut line: [Cell; SPAN]) -> ([u8; 4], u8) {
    let mut points = [0; 4];
    let mut count = 0;
    // A straight four through the middle lies within three of it.
    for q in MIDDLE - 3..=MIDDLE + 3 {
        if line[q] == Cell::Empty {
            line[q] = Cell::Black;
            if straight_four(&line) && usize::from(count) < points.len() {
                points[usize::from(count)] = q as u8;
                count += 1;
            }
            line[q] = Cell::Empty;
        }
    }
    (points, count)
}

/// Whether Black makes five by playing `p`.
fn makes_five<S: Stones + ?Sized>(board: &Overlay<'_, S>, p: (i32, i32)) -> bool {
    DIRECTIONS.iter().any(|&d| {
        let (start, end) = run(&board.line(p, d));
        end - start + 1 == 5
    })
}

fn judge<S: Stones + ?Sized>(
    board: &Overlay<'_, S>,
    p: (i32, i32),
    reading: Reading,
) -> Option<Foul> {
    let mut shapes = [Shape::default(); 4];
    for (shape_d, &d) in shapes.iter_mut().zip(&DIRECTIONS) {
        *shape_d = shape(board.line(p, d));
    }
    if shapes.iter().any(|s| s.five) {
        return None;
    }
    if shapes.iter().any(|s| s.overline) {
        return Some(Foul::Overline);
    }
    if shapes.iter().map(|s| s.fours).sum::<u8>() >= 2 {
        return Some(Foul::DoubleFour);
    }
    if shapes.iter().filter(|s| s.three_count > 0).count() < 2 {
        return None;
    }
    if board.len == DEPTH {
        return Some(Foul::DoubleThree);
    }
    // Each three is tried with the point played: it is real if one of
    // its straight-four points is itself allowed.
    let mut deeper = Overlay {
        base: board.base,
        extra: board.extra,
        len: board.len + 1,
    };
    deeper.extra[board.len] = p;
    let mut threes = 0;
    for (s, &(dx, dy)) in shapes.iter().zip(&DIRECTIONS) {
        let real = s.three_points[..s.three_count as usize].iter().any(|&q| {
            let step = i32::from(q) - MIDDLE as i32;
            let q = (p.0 + step * dx, p.1 + step * dy);
            match reading {
                Reading::Judges if makes_five(&deeper, q) => false,
                _ => judge(&deeper, q, reading).is_none(),
            }
        });
        if real {
            threes += 1;
            if threes == 2 {
                return Some(Foul::DoubleThree);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks every marked point of a diagram. The bottom row is row 1 and
    /// the first column `A`, so the diagram's left and bottom sides are the
    /// board's edges. `x` Black, `o` White, `.` an empty point not checked;
    /// an empty point to check is marked with what Black's move there is:
    /// `*` allowed, `3` a double three, `4` a double four, `6` an overline.
    fn check(name: &str, diagram: &[&str]) {
        check_read(name, diagram, Reading::Rif);
    }

    fn check_read(name: &str, diagram: &[&str], reading: Reading) {
        let mut board = Board::new();
        let mut marked = Vec::new();
        for (r, line) in diagram.iter().enumerate() {
            let row = Row::ALL[diagram.len() - 1 - r];
            for (c, mark) in line.bytes().enumerate() {
                let p = Point::new(Column::ALL[c], row);
                match mark {
                    b'x' => assert!(board.place(p, Player::Black)),
                    b'o' => assert!(board.place(p, Player::White)),
                    b'.' => {}
                    _ => marked.push((p, mark)),
                }
            }
        }
        let mut wrong = Vec::new();
        for (p, mark) in marked {
            let want = match mark {
                b'*' => None,
                b'3' => Some(Foul::DoubleThree),
                b'4' => Some(Foul::DoubleFour),
                b'6' => Some(Foul::Overline),
                _ => panic!("{name}: unknown mark {}", char::from(mark)),
            };
            let (x, y) = (p.column().index() as i32, p.row().index() as i32);
            let got = foul_read(&board, x, y, reading);
            if got != want {
                wrong.push(format!("{p}: want {want:?}, got {got:?}"));
            }
        }
        assert!(
            wrong.is_empty(),
            "{name} ({reading:?}):\n{}\n{}",
            diagram.join("\n"),
            wrong.join("\n")
        );
    }

    #[test]
    fn two_open_threes_are_forbidden() {
        check(
            "double three",
            &[
                ".........",
                "....x....",
                "....x....",
                "..xx3....",
                ".........",
                ".........",
            ],
        );
    }

    #[test]
    fn a_three_closed_by_white_is_no_three() {
        check(
            "closed three",
            &[
                ".........",
                "....x....",
                "....x....",
                ".oxx*....",
                ".........",
                ".........",
            ],
        );
    }

    #[test]
    fn a_three_closed_by_the_edge_is_no_three() {
        check(
            "edge-closed three",
            &[
                ".........",
                "..x......",
                "..x......",
                "xx*......",
                ".........",
                ".........",
            ],
        );
        check(
            "a three one point from the edge",
            &[
                ".........",
                "...x.....",
                "...x.....",
                ".xx3.....",
                ".........",
                ".........",
            ],
        );
    }

    #[test]
    fn a_four_and_a_three_are_allowed() {
        check(
            "four-three",
            &[
                ".........",
                "....x....",
                "....x....",
                ".xxx*....",
                ".........",
                ".........",
            ],
        );
    }

    #[test]
    fn a_four_and_two_threes_are_a_double_three() {
        check(
            "four-three-three",
            &[
                "..........",
                "....x.x...",
                "....xx....",
                ".xxx3.....",
                "..........",
                "..........",
            ],
        );
    }

    #[test]
    fn two_fours_across_are_forbidden() {
        check(
            "four-four",
            &[
                ".........",
                ".....o...",
                ".....x...",
                ".....x...",
                ".....x...",
                ".oxxx4...",
                ".........",
            ],
        );
    }

    #[test]
    fn two_fours_in_one_line_are_forbidden() {
        check(
            "one-line double fours",
            &[
                "...............",
                "...............",
                "...x.x4x.x.....",
                "...............",
                "...............",
                "...xx.4x.xx....",
                "...............",
                "...............",
                "...xxx.4.xxx...",
                "...............",
                "...............",
                "...x.x*x.o.....",
                "...............",
            ],
        );
    }

    #[test]
    fn six_in_a_row_is_forbidden_but_not_its_neighbour() {
        check(
            "overline",
            &[
                "............",
                "..xxx6xx....",
                "............",
                "............",
                "..xxxx**x...",
                "............",
                "............",
                "..xxxx6xx...",
                "............",
                "............",
                "..xx*xx.x...",
                "............",
            ],
        );
    }

    #[test]
    fn five_beats_every_forbidden_shape() {
        check(
            "five with a four and with an overline",
            &[
                "..........",
                "....x.....",
                "....x.....",
                "....x..x..",
                ".xxxx*.x..",
                ".......x..",
                ".......x..",
                "..xxxx*...",
                ".......x..",
                ".......x..",
                "..........",
            ],
        );
    }

    #[test]
    fn a_three_whose_four_point_is_forbidden_is_no_three() {
        // Once E4 is played, the row's only straight-four point, G4, would
        // be a double four (with the column G5-G7): the row is no three.
        check(
            "fake three",
            &[
                "..........",
                "......o...",
                "......x...",
                "......x...",
                "....x.x...",
                ".o.x*x*...",
                "....x.....",
                "..........",
                "..........",
            ],
        );
        // Without the column's third stone G4 is a four-three once E4 is
        // played, allowed, and the row is a three again (G4 on its own is
        // a double three: G4-G6 and the split row D4-F4-G4).
        check(
            "real three",
            &[
                "..........",
                "..........",
                "..........",
                "......x...",
                "....x.x...",
                ".o.x3x3...",
                "....x.....",
                "..........",
                "..........",
            ],
        );
    }

    #[test]
    fn a_three_that_could_only_become_an_overline_is_no_three() {
        check(
            "overline-bound three",
            &[
                ".........",
                "....x....",
                "....x....",
                "o.xx*..x.",
                ".........",
                ".........",
            ],
        );
        check(
            "its control",
            &[
                ".........",
                "....x....",
                "....x....",
                "o.xx3....",
                ".........",
                ".........",
            ],
        );
    }

    /// The disagreements with Rapfi (on 30,000 positions of 15x15) were all
    /// of one kind: a three whose straight-four point also makes five in
    /// another line. By the RIF's words that point is no foul and makes
    /// a straight four, so the line is a three; Rapfi and c-gomoku-cli do
    /// not count it.
    fn five_point_three(mark: char) -> Vec<String> {
        [
            "...............",
            "...............",
            "..oo.xx.o..o...",
            "......o.o.xo...",
            "..xo...xxxx.o..",
            "..ox.x.x..oxo..",
            "...x..xo.o.ox..",
            "....x.x?..xo...",
            "..x.xo.x.ox....",
            "...oxox..o..x..",
            "..x.oo.o.......",
            "..xo...o.x.o...",
            "...x.xoo.oo.x..",
            "...............",
            "...............",
        ]
        .iter()
        .map(|row| row.replace('?', &mark.to_string()))
        .collect()
    }

    #[test]
    fn a_three_whose_four_point_makes_five_counts_by_the_rif_only() {
        // H8 makes the row E8-G8-H8 (four point F8, which also makes the
        // five E7-I11) and the diagonal F10-G9-H8 (four point E11).
        let rows = five_point_three('3');
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        check_read("five-point three", &rows, Reading::Rif);
        let rows = five_point_three('*');
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        check_read("five-point three", &rows, Reading::Judges);
    }

    #[test]
    fn a_nested_five_point_can_turn_a_foul_into_a_move() {
        // J9 makes a four (F9-G9-I9-J9) and the threes J9-J11 and
        // G6-H7-J9. The second's four point, I8, would then be a
        // double three (with H9: I8-I10 and F11-G10-I8) by the RIF's
        // words, whose four point H9 makes the five F9-J9: so it is no
        // three, J9 makes one three and a four, and may be played. Rapfi
        // and c-gomoku-cli, not counting H9, find I8 a four-three and J9
        // a double three.
        let rows = |mark: char| -> Vec<String> {
            [
                "........oo.....",
                "........o......",
                ".......xo......",
                "......o.o......",
                "....xxoo.x.....",
                "....ooxoxx.....",
                "..xo.xx.x?.....",
                "..xx.xoo.......",
                ".oo..oox.......",
                "xx....x........",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
            ]
            .iter()
            .map(|row| row.replace('?', &mark.to_string()))
            .collect()
        };
        for (reading, mark) in [(Reading::Rif, '*'), (Reading::Judges, '3')] {
            let rows = rows(mark);
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            check_read("nested five point", &rows, reading);
        }
    }

    #[test]
    fn a_five_with_an_overline_wins_by_the_rif_but_not_before_c_gomoku_cli() {
        // G11 makes the five F12-J8 and the overline G7-G12.
        let rows = |mark: char| -> Vec<String> {
            [
                "..oo.oo........",
                "....xo.x.......",
                "...x..ox..o....",
                "...ooxx..xx....",
                "oo.x.o?.xooo...",
                "x.oxxoxxoo..x..",
                "...ooxxxx......",
                ".x..xoxoox.....",
                ".....xxox......",
                ".....ooxox.....",
                "......xoo.xx...",
                "........ox.o...",
                ".......o.o.....",
                "..........x....",
                "...............",
            ]
            .iter()
            .map(|row| row.replace('?', &mark.to_string()))
            .collect()
        };
        for (reading, mark) in [(Reading::Rif, '*'), (Reading::Judges, '6')] {
            let rows = rows(mark);
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            check_read("five and overline", &rows, reading);
        }
    }

    #[test]
    fn white_is_never_restricted_and_taken_points_are_no_fouls() {
        let mut board = Board::new();
        for p in ["C5", "D5", "E6", "E7"] {
            board.place(p.parse().unwrap(), Player::Black);
        }
        let e5: Point = "E5".parse().unwrap();
        assert_eq!(
            crate::rules::rule::Rule::Renju.foul(&board, Player::Black, e5),
            Some(Foul::DoubleThree)
        );
        assert_eq!(
            crate::rules::rule::Rule::Renju.foul(&board, Player::White, e5),
            None
        );
        assert_eq!(
            crate::rules::rule::Rule::Freestyle.foul(&board, Player::Black, e5),
            None
        );
        assert_eq!(foul_at(&board, "C5".parse().unwrap()), None);
    }
}
