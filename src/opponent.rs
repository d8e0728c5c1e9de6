//! A player the program moves for itself, as the terminal front-end sees
//! it. The engines that implement it live elsewhere; this trait is all the
//! front-end knows of them, so it depends on no engine.

use crate::game::Game;
use crate::player::Player;
use crate::point::Point;

/// A player the program moves for itself.
pub trait Opponent {
    /// The colour it plays.
    fn colour(&self) -> Player;
    /// Its move in `game` (its turn, game not over). `None` only if the board is full.
    fn choose(&mut self, game: &Game) -> Option<Point>;
}
