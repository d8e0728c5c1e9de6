//! The two players, who are also the two colours of stone.

/// A player, and the colour of the stones they place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Moves first.
    Black,
    /// Moves second.
    White,
}

impl Player {
    /// The other player.
    #[must_use]
    pub const fn opponent(self) -> Player {
        match self {
            Player::Black => Player::White,
            Player::White => Player::Black,
        }
    }
}
