//! Which lines win: the contract's five-or-more, and three variants chosen
//! with `--rule`; under renju, also where Black may not play.

use crate::rules::board::{Board, DIRECTIONS, Run};
use crate::rules::player::Player;
use crate::rules::point::Point;
use crate::rules::renju::{self, Foul};

/// A winning-line rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rule {
    /// Five or more in a line win: the rule of the [contract](crate::rules::contract).
    #[default]
    Freestyle,
    /// Exactly five win; six or more in that line do not.
    Exact,
    /// Exactly five win, unless both points just beyond the line hold the
    /// opponent's stones. A board edge does not block.
    Caro,
    /// The RIF's rule: Black wins with exactly five and may not play a
    /// double three, a double four or an overline (see [`renju`]); White
    /// wins with five or more and may play anywhere.
    Renju,
}

impl Rule {
    /// Every rule, for tests and help text.
    pub const ALL: [Rule; 4] = [Rule::Freestyle, Rule::Exact, Rule::Caro, Rule::Renju];

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Exact => "exact",
            Rule::Caro => "caro",
            Rule::Renju => "renju",
        }
    }

    /// The rule called `name` on the command line.
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|rule| rule.name() == name)
    }

    /// Whether the stone just placed at `p` makes a winning line in any
    /// direction.
    pub fn wins(self, board: &Board, p: Point) -> bool {
        DIRECTIONS
            .into_iter()
            .any(|direction| self.accepts(board.run(p, direction)))
    }

    /// Whether `run`, through the stone just placed, is a winning line.
    pub fn accepts(self, run: Run) -> bool {
        match self {
            Rule::Freestyle => run.length >= 5,
            Rule::Exact => run.length == 5,
            Rule::Caro => {
                // `run.ends` never holds the run's own colour, so any stone
                // beyond an end is the opponent's.
                let blocked = |end: Option<Option<_>>| matches!(end, Some(Some(_)));
                run.length == 5 && !run.ends.into_iter().all(blocked)
            }
            Rule::Renju => match run.colour {
                Some(Player::White) => run.length >= 5,
                _ => run.length == 5,
            },
        }
    }

    /// Whether the rule forbids `player` any point at all: only renju, and
    /// only Black.
    pub const fn foul_matters(self, player: Player) -> bool {
        matches!((self, player), (Rule::Renju, Player::Black))
    }

    /// Why `player` may not place a stone on the empty point `p`, if the
    /// rule forbids it: only renju does, and only to Black.
    pub fn foul(self, board: &Board, player: Player, p: Point) -> Option<Foul> {
        match (self, player) {
            (Rule::Renju, Player::Black) => renju::foul_at(board, p),
            _ => None,
        }
    }
}
