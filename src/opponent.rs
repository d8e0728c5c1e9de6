//! A player the program moves for itself, as the terminal front-end sees
//! it. The engines that implement it live elsewhere; this trait is all the
//! front-end knows of them, so it depends on no engine.

use std::time::Duration;

use crate::game::Game;
use crate::gomocup::{Brain, Budget};
use crate::player::Player;
use crate::point::Point;

/// A player the program moves for itself.
pub trait Opponent {
    /// The colour it plays.
    fn colour(&self) -> Player;
    /// Its move in `game` (its turn, game not over). `None` only if the board is full.
    fn choose(&mut self, game: &Game) -> Option<Point>;
}

/// The computer: a [`Brain`] playing one colour within a budget a move.
#[derive(Debug)]
pub struct Computer<B> {
    colour: Player,
    brain: B,
    budget: Budget,
}

impl<B: Brain> Computer<B> {
    /// `brain` plays `colour`, thinking within `budget` each move.
    pub fn new(colour: Player, mut brain: B, budget: Budget) -> Computer<B> {
        brain.new_game(None);
        Computer {
            colour,
            brain,
            budget,
        }
    }
}

impl<B: Brain> Opponent for Computer<B> {
    fn colour(&self) -> Player {
        self.colour
    }

    fn choose(&mut self, game: &Game) -> Option<Point> {
        let board = game.board();
        let chosen = self
            .brain
            .choose(board, game.to_move(), game.rule(), self.budget)
            .filter(|&p| board.get(p).is_none());
        // A brain's mistake must not cost the game its legality: any empty
        // point is better than none.
        chosen.or_else(|| Point::all().find(|&p| board.get(p).is_none()))
    }
}

/// The computer opponent asked for with `--cpu`, `--cpu-time` and
/// `--cpu-nodes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cpu {
    /// The colour it plays.
    pub colour: Player,
    /// Its time for each move (`--cpu-time`).
    pub time: Duration,
    /// Its node budget for each move (`--cpu-nodes`): with it, its play
    /// depends on the position alone, not on the machine.
    pub nodes: Option<u64>,
}

impl Cpu {
    /// The computer player it describes.
    pub fn opponent(self) -> Box<dyn Opponent> {
        let budget = Budget {
            time: Some(self.time),
            nodes: self.nodes,
            depth: None,
        };
        Box::new(Computer::new(self.colour, crate::gomocup::OnePly, budget))
    }
}
