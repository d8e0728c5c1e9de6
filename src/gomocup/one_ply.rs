//! [`OnePly`]: a brain that looks one move ahead and no further.
//!
//! It wins if it can, else blocks the opponent's win, else takes the point
//! near the stones that best lengthens its own open lines and shortens the
//! opponent's. It is instant, so it keeps any time budget, and it makes
//! every protocol test possible without a search engine.

use super::Brain;
use crate::engine::Limits;
use crate::rules::board::{Board, DIRECTIONS};
use crate::rules::player::Player;
use crate::rules::point::Point;
use crate::rules::rule::Rule;

/// The one-move-ahead brain; it keeps nothing between moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct OnePly;

/// How far from a stone a candidate point may be, in king moves.
const REACH: i8 = 2;

impl Brain for OnePly {
    fn new_game(&mut self, _memory_bytes: Option<u64>) {}

    fn choose(
        &mut self,
        board: &Board,
        to_move: Player,
        rule: Rule,
        _budget: Limits,
    ) -> Option<Point> {
        let empty: Vec<Point> = Point::all().filter(|&p| board.get(p).is_none()).collect();
        let wins_at = |player| {
            empty.iter().copied().find(|&p| {
                let mut after = board.clone();
                after.place(p, player);
                rule.wins(&after, p)
            })
        };
        if let Some(p) = wins_at(to_move).or_else(|| wins_at(to_move.opponent())) {
            return Some(p);
        }
        let near: Vec<Point> = empty
            .iter()
            .copied()
            .filter(|&p| near_a_stone(board, p))
            .collect();
        let candidates = if near.is_empty() { &empty } else { &near };
        // Ties go to the point nearest the centre, then to board order, so
        // a choice is the same on every run.
        candidates.iter().copied().max_by_key(|&p| {
            let score = 10 * shape(board, p, to_move) + 9 * shape(board, p, to_move.opponent());
            (score, -distance_to_centre(p))
        })
    }
}

/// What a stone of `player` at the empty point `p` would be worth: longer
/// lines count more, and a line closed at both ends counts nothing.
fn shape(board: &Board, p: Point, player: Player) -> i64 {
    let mut after = board.clone();
    after.place(p, player);
    DIRECTIONS
        .into_iter()
        .map(|direction| {
            let run = after.run(p, direction);
            let open = run.ends.iter().filter(|end| **end == Some(None)).count();
            let length = i64::from(run.length);
            length * length * length * open as i64
        })
        .sum()
}

fn near_a_stone(board: &Board, p: Point) -> bool {
    (-REACH..=REACH).any(|dc| {
        (-REACH..=REACH).any(|dr| p.offset(dc, dr).is_some_and(|q| board.get(q).is_some()))
    })
}

fn distance_to_centre(p: Point) -> i64 {
    let centre = |n: u8| i64::from(n) - 10;
    let (dc, dr) = (centre(p.column().number()), centre(p.row().number()));
    dc * dc + dr * dr
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::point::{Column, Row};

    /// A board from rows of `x` (Black), `o` (White) and `.`, the first
    /// string being row 19, each from column `A`.
    fn board(rows: &[&str]) -> Board {
        let mut board = Board::new();
        for (i, row) in rows.iter().enumerate() {
            for (j, symbol) in row.bytes().enumerate() {
                let at = Point::new(Column::ALL[j], Row::ALL[18 - i]);
                match symbol {
                    b'x' => assert!(board.place(at, Player::Black)),
                    b'o' => assert!(board.place(at, Player::White)),
                    _ => {}
                }
            }
        }
        board
    }

    fn choose(board: &Board, to_move: Player, rule: Rule) -> Option<String> {
        OnePly
            .choose(board, to_move, rule, Limits::default())
            .map(|p| p.to_string())
    }

    #[test]
    fn the_first_move_is_the_centre() {
        assert_eq!(
            choose(&Board::new(), Player::Black, Rule::Freestyle).as_deref(),
            Some("J10")
        );
    }

    #[test]
    fn it_wins_before_it_blocks() {
        let b = board(&["xxxx.", "oooo."]);
        assert_eq!(
            choose(&b, Player::Black, Rule::Freestyle).as_deref(),
            Some("E19")
        );
        assert_eq!(
            choose(&b, Player::White, Rule::Freestyle).as_deref(),
            Some("E18")
        );
    }

    #[test]
    fn it_blocks_a_four() {
        let b = board(&["", "", ".oooo.", "..x.x."]);
        let got = choose(&b, Player::Black, Rule::Freestyle);
        assert!(matches!(got.as_deref(), Some("A17" | "F17")), "{got:?}");
    }

    #[test]
    fn the_rule_decides_what_wins() {
        // E19 would make six: a win in freestyle only, so under `exact`
        // Black has no win and blocks White's four instead.
        let b = board(&["xxxx.x", "", "oooo."]);
        assert_eq!(
            choose(&b, Player::Black, Rule::Freestyle).as_deref(),
            Some("E19")
        );
        assert_eq!(
            choose(&b, Player::Black, Rule::Exact).as_deref(),
            Some("E17")
        );
    }

    #[test]
    fn it_plays_next_to_the_stones() {
        let b = board(&["", "", "", "", "", "", "", "", "", ".........x"]);
        let p = OnePly
            .choose(&b, Player::White, Rule::Freestyle, Limits::default())
            .expect("a move");
        let (dc, dr) = (
            i16::from(p.column().number()) - 10,
            i16::from(p.row().number()) - 10,
        );
        assert!(dc.abs() <= 2 && dr.abs() <= 2, "{p} is far from J10");
    }

    #[test]
    fn a_full_board_has_no_move() {
        let mut b = Board::new();
        for (i, p) in Point::all().enumerate() {
            b.place(
                p,
                if i % 2 == 0 {
                    Player::Black
                } else {
                    Player::White
                },
            );
        }
        assert_eq!(choose(&b, Player::Black, Rule::Freestyle), None);
    }
}
