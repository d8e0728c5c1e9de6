//! A player the program moves for itself: the [`Opponent`] trait, all the
//! session and the terminal front-end know of it, and the [`Computer`],
//! the search engine behind `--cpu`.

use std::time::Duration;

use crate::engine::{DEFAULT_MEMORY, Engine, Limits};
use crate::rules::game::Game;
use crate::rules::player::Player;
use crate::rules::point::Point;

/// A player the program moves for itself.
pub trait Opponent {
    /// The colour it plays.
    fn colour(&self) -> Player;
    /// Its move in `game` (its turn, game not over). `None` only if the board is full.
    fn choose(&mut self, game: &Game) -> Option<Point>;
}

/// The computer: the search engine playing one colour, within limits
/// for each move.
pub struct Computer {
    colour: Player,
    engine: Engine,
    limits: Limits,
}

impl Computer {
    /// The engine plays `colour`, thinking within `limits` each move.
    pub fn new(colour: Player, limits: Limits) -> Computer {
        Computer {
            colour,
            engine: Engine::new(DEFAULT_MEMORY),
            limits,
        }
    }
}

impl Opponent for Computer {
    fn colour(&self) -> Player {
        self.colour
    }

    fn choose(&mut self, game: &Game) -> Option<Point> {
        let board = game.board();
        let thought = self
            .engine
            .think(board, game.to_move(), game.rule(), self.limits);
        // The engine only offers empty points; should it ever not, any
        // empty point keeps the game legal.
        thought
            .map(|t| t.best)
            .filter(|&p| board.get(p).is_none())
            .or_else(|| Point::all().find(|&p| board.get(p).is_none()))
    }
}

/// The computer opponent asked for with `--cpu`, `--cpu-time` and
/// `--cpu-nodes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cpu {
    /// The colour it plays.
    pub colour: Player,
    /// Its time for each move (`--cpu-time`); `None` with `--cpu-nodes`
    /// alone, so that nothing but the position decides its move.
    pub time: Option<Duration>,
    /// Its node budget for each move (`--cpu-nodes`): with it, its play
    /// depends on the position alone, not on the machine.
    pub nodes: Option<u64>,
}

impl Cpu {
    /// The computer player it describes.
    pub fn opponent(self) -> Box<dyn Opponent> {
        let limits = Limits {
            time: self.time,
            nodes: self.nodes,
            depth: None,
        };
        Box::new(Computer::new(self.colour, limits))
    }
}
