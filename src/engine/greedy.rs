//! A one-ply player: wins if it can, else stops the opponent's five, else
//! takes the point whose patterns are worth most to both sides. It is
//! instant and knows nothing of search: the yardstick the bench's matches
//! start from, and the stand-in brain of the protocol tests.

use super::Setup;
use super::eval::C_FIVE;
use super::pattern;
use super::position::{self, Position, Spot, other};

/// The greedy move on `pos` for the side to move: an array index, or
/// `None` when no empty point is near a stone (an empty board).
pub fn best(pos: &Position) -> Option<usize> {
    let me = pos.side();
    let opp = other(me);
    let mut best: Option<(i32, usize)> = None;
    for i in pos.candidates() {
        let score = if pos.combo(i, me) == C_FIVE {
            i32::MAX
        } else if pos.combo(i, opp) == C_FIVE {
            i32::MAX - 1
        } else {
            pos.value(i, me) * 6 / 5 + pos.value(i, opp)
        };
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, i));
        }
    }
    best.map(|(_, i)| i)
}

/// The greedy move on `setup`: the centre on an empty board, any empty
/// point when no point near a stone is, `None` only on a full board.
pub fn choose(setup: &Setup) -> Option<Spot> {
    let pos = setup.position();
    if pos.stones() == 0 {
        let c = pos.size().saturating_sub(1) as u8 / 2;
        return Some(Spot { x: c, y: c });
    }
    best(&pos)
        .or_else(|| {
            pos.points
                .iter()
                .copied()
                .find(|&i| pos.cell(i) == pattern::EMPTY)
        })
        .and_then(position::spot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::point_of;
    use crate::rules::board::Board as GameBoard;
    use crate::rules::player::Player;
    use crate::rules::point::{Column, Point, Row};
    use crate::rules::rule::Rule;

    fn choose_on(board: &GameBoard, to_move: Player, rule: Rule) -> Option<Point> {
        choose(&Setup::of_board(board, to_move, rule)).and_then(point_of)
    }

    /// A board from rows of `x` (Black), `o` (White) and `.`, the first
    /// string being row 19, each from column `A`.
    fn board(rows: &[&str]) -> GameBoard {
        let mut board = GameBoard::new();
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

    fn chosen(rows: &[&str], to_move: Player, rule: Rule) -> Option<String> {
        choose_on(&board(rows), to_move, rule).map(|p| p.to_string())
    }

    #[test]
    fn choices() {
        use Player::{Black, White};
        use Rule::{Exact, Freestyle};
        // (board, to move, rule, the right answers)
        let cases: &[(&[&str], Player, Rule, &[&str])] = &[
            (&[], Black, Freestyle, &["J10"]),
            // It wins before it blocks.
            (&["xxxx.", "oooo."], Black, Freestyle, &["E19"]),
            (&["xxxx.", "oooo."], White, Freestyle, &["E18"]),
            (
                &["", "", ".oooo.", "..x.x."],
                Black,
                Freestyle,
                &["A17", "F17"],
            ),
            // E19 makes six: a win in freestyle only.
            (&["xxxx.x", "", "oooo."], Black, Freestyle, &["E19"]),
            (&["xxxx.x", "", "oooo."], Black, Exact, &["E17"]),
        ];
        for &(rows, to_move, rule, answers) in cases {
            let got = chosen(rows, to_move, rule);
            assert!(
                got.as_deref().is_some_and(|p| answers.contains(&p)),
                "{rows:?} {to_move:?} {rule:?}: {got:?}, not one of {answers:?}"
            );
        }
    }

    #[test]
    fn a_full_board_has_no_move() {
        let mut b = GameBoard::new();
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
        assert_eq!(choose_on(&b, Player::Black, Rule::Freestyle), None);
    }
}
