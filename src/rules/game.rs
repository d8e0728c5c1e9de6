//! One game: the board, whose turn it is, the moves so far, the mist's
//! centre and how a placement ends the game.

use thiserror::Error;

use crate::rules::board::Board;
use crate::rules::mist;
use crate::rules::player::Player;
use crate::rules::point::Point;
use crate::rules::renju::Foul;
use crate::rules::rule::Rule;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `winner` made a winning line, or the opponent resigned.
    Win {
        /// Who won.
        winner: Player,
    },
    /// The last point was filled without a winning line.
    Tie,
}

/// A placement the rules refuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PlaceError {
    /// The point already holds a stone.
    #[error("point {0} is already taken")]
    Occupied(Point),
    /// The rule forbids the point to the player to move: only renju does,
    /// and only to Black.
    #[error("point {0} is forbidden to Black: {name}", name = .1.name())]
    Forbidden(Point, Foul),
}

/// A game in progress. A placement that ends the game consumes nothing
/// here, but the caller stops at the [`Ending`] it is given: no game goes
/// on after one.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    to_move: Player,
    centre: Point,
    rule: Rule,
    // Reserved for every point up front, so a move never allocates.
    moves: Vec<Point>,
}

impl Game {
    /// A new game under `rule`: empty board, Black to move, hole at `J10`.
    pub fn new(rule: Rule) -> Game {
        Game {
            board: Board::new(),
            to_move: Player::Black,
            centre: mist::START,
            rule,
            moves: Vec::with_capacity(Point::COUNT),
        }
    }

    /// The player to move.
    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    /// The board.
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The centre of the mist's hole.
    pub const fn centre(&self) -> Point {
        self.centre
    }

    /// The rule that decides wins.
    pub const fn rule(&self) -> Rule {
        self.rule
    }

    /// Every successful placement, in order.
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    /// Whether the player to move may place a stone at `p`: it is empty,
    /// and the rule does not forbid it (see [`Game::place`]).
    pub fn allows(&self, p: Point) -> bool {
        self.board.get(p).is_none() && self.rule.foul(&self.board, self.to_move, p).is_none()
    }

    /// The first point, in [`Point::all`]'s order, the player to move may
    /// play; `None` on a full board, or under renju for a Black whose
    /// every point left is forbidden.
    pub fn first_allowed(&self) -> Option<Point> {
        Point::all().find(|&p| self.allows(p))
    }

    /// The player to move places a stone at `p`. On success the mist moves
    /// and, unless the game ends, the turn passes.
    ///
    /// # Errors
    ///
    /// [`PlaceError::Occupied`] if `p` holds a stone, then
    /// [`PlaceError::Forbidden`] if the rule forbids it to the player to
    /// move; nothing changes then.
    pub fn place(&mut self, p: Point) -> Result<Option<Ending>, PlaceError> {
        let player = self.to_move;
        if self.board.get(p).is_some() {
            return Err(PlaceError::Occupied(p));
        }
        if let Some(foul) = self.rule.foul(&self.board, player, p) {
            return Err(PlaceError::Forbidden(p, foul));
        }
        if !self.board.place(p, player) {
            return Err(PlaceError::Occupied(p));
        }
        self.moves.push(p);
        self.centre = mist::next_centre(p);
        if self.rule.wins(&self.board, p) {
            return Ok(Some(Ending::Win { winner: player }));
        }
        if self.board.is_full() {
            return Ok(Some(Ending::Tie));
        }
        self.to_move = player.opponent();
        Ok(None)
    }

    /// The player to move resigns.
    pub const fn resign(&self) -> Ending {
        Ending::Win {
            winner: self.to_move.opponent(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::DIRECTIONS;
    use proptest::prelude::*;

    /// Whether `player` has five or more in a line anywhere, by trying every
    /// start point and direction: no cleverness to get wrong.
    fn five_anywhere(board: &Board, player: Player) -> bool {
        Point::all().any(|start| {
            DIRECTIONS.into_iter().any(|(dc, dr)| {
                (0..5).all(|k| {
                    start
                        .offset(dc * k, dr * k)
                        .is_some_and(|p| board.get(p) == Some(player))
                })
            })
        })
    }

    fn point_index() -> impl Strategy<Value = usize> {
        0..Point::COUNT
    }

    proptest! {
        #[test]
        fn win_check_agrees_with_a_brute_force_scan(
            picks in proptest::collection::vec(point_index(), 1..250),
            // Small boards of play make lines far more often.
            crowd in 0..3_usize,
        ) {
            let points: Vec<Point> = Point::all().collect();
            let mut game = Game::new(Rule::Freestyle);
            for pick in picks {
                let p = points[match crowd {
                    0 => pick,
                    1 => (pick % 7) * 19 + (pick / 7) % 7,
                    _ => (pick % 5) * 20 + (pick / 5) % 3,
                }];
                let mover = game.to_move();
                let stones_before = game.board().stones();
                match game.place(p) {
                    Err(PlaceError::Occupied(q)) => {
                        prop_assert_eq!(q, p);
                        prop_assert_eq!(game.board().stones(), stones_before);
                        prop_assert_eq!(game.to_move(), mover);
                    }
                    Err(PlaceError::Forbidden(..)) => prop_assert!(false, "freestyle forbids nothing"),
                    Ok(ending) => {
                        let won = five_anywhere(game.board(), mover);
                        prop_assert_eq!(ending == Some(Ending::Win { winner: mover }), won);
                        prop_assert!(!five_anywhere(game.board(), mover.opponent()));
                        if ending.is_some() {
                            break;
                        }
                        prop_assert_eq!(game.to_move(), mover.opponent());
                    }
                }
                prop_assert_eq!(game.moves().len(), game.board().stones());
                for &m in game.moves() {
                    prop_assert!(game.board().get(m).is_some());
                }
            }
        }
    }

    #[test]
    fn renju_refuses_blacks_forbidden_point_and_changes_nothing() {
        let mut game = Game::new(Rule::Renju);
        for p in ["C5", "A19", "D5", "C19", "E6", "E19", "E7", "G19"] {
            assert_eq!(game.place(p.parse().unwrap()), Ok(None), "{p}");
        }
        let e5: Point = "E5".parse().unwrap();
        let before = (game.moves().len(), game.centre(), game.to_move());
        assert_eq!(
            game.place(e5),
            Err(PlaceError::Forbidden(
                e5,
                crate::rules::renju::Foul::DoubleThree
            ))
        );
        assert_eq!((game.moves().len(), game.centre(), game.to_move()), before);
        assert_eq!(game.board().get(e5), None);
    }

    #[test]
    fn a_rejected_placement_changes_nothing() {
        let mut game = Game::new(Rule::Freestyle);
        let a1 = "A1".parse().unwrap();
        assert_eq!(game.place(a1), Ok(None));
        let centre = game.centre();
        assert_eq!(game.place(a1), Err(PlaceError::Occupied(a1)));
        assert_eq!(game.centre(), centre);
        assert_eq!(game.to_move(), Player::White);
        assert_eq!(game.moves(), &[a1]);
    }
}
