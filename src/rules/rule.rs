//! Which lines win: the contract's five-or-more, and two variants chosen with
//! `--rule`.

use crate::rules::board::{Board, DIRECTIONS, Run};
use crate::rules::point::Point;

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
}

impl Rule {
    /// Every rule, for tests and help text.
    pub const ALL: [Rule; 3] = [Rule::Freestyle, Rule::Exact, Rule::Caro];

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Exact => "exact",
            Rule::Caro => "caro",
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
        }
    }
}
