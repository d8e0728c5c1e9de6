//! A player the program moves for itself: the [`Opponent`] trait, all the
//! session and the terminal front-end know of it, and the [`Computer`],
//! the search engine behind `--cpu`, at the strength [`Level`] gives it.

use std::time::Duration;

use crate::engine::{DEFAULT_MEMORY, Engine, Limits, Thought};
use crate::rules::game::{Ending, Game};
use crate::rules::player::Player;
use crate::rules::point::{Column, Point, Row};

/// A player the program moves for itself.
pub trait Opponent {
    /// The colour it plays.
    fn colour(&self) -> Player;
    /// Its move in `game` (its turn, game not over): a point the game
    /// allows. `None` only if there is none: under renju, a Black with
    /// only forbidden points left.
    fn choose(&mut self, game: &Game) -> Option<Point>;
    /// What its search made of the position it last moved in: the score
    /// and the line it expects. `None` if it did not search.
    fn thought(&self) -> Option<&Thought> {
        None
    }
    /// Moves were taken back: it forgets what it learnt, so that from
    /// here it plays as it would in a new game started from this position.
    fn forget(&mut self) {}
}

/// The computer: the search engine playing one colour, within limits
/// for each move.
pub struct Computer {
    colour: Player,
    engine: Engine,
    limits: Limits,
    /// Level 1's imprecision: it does not search at all (see [`careless`]).
    careless: bool,
    /// Its last search's result.
    thought: Option<Thought>,
}

impl Computer {
    /// The engine plays `colour`, thinking within `limits` each move.
    pub fn new(colour: Player, limits: Limits) -> Computer {
        Computer {
            colour,
            engine: Engine::new(DEFAULT_MEMORY),
            limits,
            careless: false,
            thought: None,
        }
    }

    /// The computer playing `colour` at `level`.
    pub fn at(colour: Player, level: Level) -> Computer {
        let limits = Limits {
            nodes: Some(level.nodes()),
            ..Limits::default()
        };
        Computer {
            careless: level.careless(),
            ..Computer::new(colour, limits)
        }
    }
}

/// How strong the computer plays (`--level`): from 1, which a beginner
/// beats, to 10, the strongest that answers within about a second. Each
/// level is a fixed node budget, so a level plays the same on every
/// machine, only faster or slower; level 1 adds deliberate imprecision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(u8);

/// Each level's node budget: steps of about 2.8 times; the top one takes
/// about a second a move on the machine the ladder was measured on (about
/// a million nodes a second in games at the top levels; see
/// `benches/levels.rs` and the playing guide for the table).
/// Level 1 does not search: its entry only keeps the table growing.
const NODES: [u64; 10] = [
    100, 250, 700, 2_000, 5_600, 16_000, 45_000, 125_000, 355_000, 1_000_000,
];

impl Level {
    /// The weakest.
    pub const MIN: Level = Level(1);
    /// The strongest, and the default.
    pub const MAX: Level = Level(10);

    /// Level `number`, if it is one of 1 to 10.
    pub const fn new(number: u8) -> Option<Level> {
        match number {
            1..=10 => Some(Level(number)),
            _ => None,
        }
    }

    /// Its number, 1 to 10.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Its node budget for a move.
    pub const fn nodes(self) -> u64 {
        NODES[self.0 as usize - 1]
    }

    /// Whether it plays with deliberate imprecision.
    pub const fn careless(self) -> bool {
        self.0 == 1
    }
}

/// Level 1's move: its own five if it has one, and otherwise a point near
/// the stones picked by a hash of the moves so far, as good as drawn at
/// random, so it neither blocks nor builds on purpose; the same game gets
/// the same moves.
fn careless(game: &Game) -> Option<Point> {
    let board = game.board();
    let near = |p: Point| {
        (-2..=2_i8).any(|dc| {
            (-2..=2_i8).any(|dr| p.offset(dc, dr).is_some_and(|q| board.get(q).is_some()))
        })
    };
    let empty: Vec<Point> = Point::all()
        .filter(|&p| near(p) && game.allows(p))
        .collect();
    let five = empty.iter().copied().find(|&p| {
        let mut next = game.clone();
        matches!(next.place(p), Ok(Some(Ending::Win { .. })))
    });
    if five.is_some() {
        return five;
    }
    // Fibonacci hashing: the multiply spreads every move over the top bits.
    let hash = game.moves().iter().fold(0x5eed_u64, |h, p| {
        (h ^ p.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    });
    let pick = (hash >> 32) as usize % empty.len().max(1);
    // No stone yet: the centre, J10, where everyone opens.
    let centre = Column::new(10)
        .zip(Row::new(10))
        .map(|(c, r)| Point::new(c, r));
    empty
        .get(pick)
        .copied()
        .or(centre.filter(|_| game.moves().is_empty()))
        .or_else(|| game.first_allowed())
}

impl Opponent for Computer {
    fn colour(&self) -> Player {
        self.colour
    }

    fn choose(&mut self, game: &Game) -> Option<Point> {
        if self.careless {
            return careless(game);
        }
        let board = game.board();
        self.thought = self
            .engine
            .think(board, game.to_move(), game.rule(), self.limits);
        // The engine offers a point Black may play under renju whenever
        // there is one; should it ever not, any point the game allows.
        self.thought
            .as_ref()
            .map(|t| t.best)
            .filter(|&p| game.allows(p))
            .or_else(|| game.first_allowed())
    }

    fn thought(&self) -> Option<&Thought> {
        self.thought.as_ref()
    }

    fn forget(&mut self) {
        // A fresh table and history: the same as the engine of a new
        // game, so a node budget gives the move a new game would get.
        self.engine.reset(DEFAULT_MEMORY);
        self.thought = None;
    }
}

/// The computer opponent asked for with `--cpu` and one of `--level`,
/// `--cpu-time` and `--cpu-nodes`.
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
    /// Its level (`--level`, or the default when neither `--cpu-time`
    /// nor `--cpu-nodes` is given): then `time` and `nodes` are `None`.
    pub level: Option<Level>,
}

impl Cpu {
    /// The computer player it describes.
    pub fn opponent(self) -> Box<dyn Opponent> {
        if let Some(level) = self.level {
            return Box::new(Computer::at(self.colour, level));
        }
        let limits = Limits {
            time: self.time,
            nodes: self.nodes,
            depth: None,
            threads: None,
        };
        Box::new(Computer::new(self.colour, limits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::rule::Rule;

    /// A beginner: stones on row 10 from J rightwards; where one is
    /// taken, the next point along, then leftwards from H.
    fn beginner(game: &Game) -> Point {
        let row: Vec<Point> = [
            "J10", "K10", "L10", "M10", "N10", "O10", "P10", "H10", "G10", "F10", "E10",
        ]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
        row.into_iter()
            .find(|&p| game.board().get(p).is_none())
            .unwrap_or_else(|| {
                Point::all()
                    .find(|&p| game.board().get(p).is_none())
                    .unwrap()
            })
    }

    #[test]
    fn level_1_loses_to_a_beginner_who_makes_five_in_the_open() {
        for colour in [Player::White, Player::Black] {
            let mut computer = Computer::at(colour, Level::MIN);
            let mut game = Game::new(Rule::Freestyle);
            let ending = loop {
                let p = match game.to_move() == colour {
                    true => computer.choose(&game).unwrap(),
                    false => beginner(&game),
                };
                if let Some(ending) = game.place(p).unwrap() {
                    break ending;
                }
            };
            assert_eq!(
                ending,
                Ending::Win {
                    winner: colour.opponent()
                },
                "the computer as {colour:?}: {:?}",
                game.moves()
            );
        }
    }

    /// Level 1 puts no stone where renju forbids Black one: in crowded
    /// random games near J10, each of Black's turns (a double three or
    /// four is often within reach there), its point is one the game allows.
    #[test]
    fn level_1_as_black_plays_no_forbidden_point() {
        let mut seed = 7u64;
        let mut fouls_near = 0;
        for _game in 0..60 {
            let mut game = Game::new(Rule::Renju);
            for _ in 0..60 {
                if game.to_move() == Player::Black {
                    let p = careless(&game).expect("a point to play");
                    let history: Vec<String> = game.moves().iter().map(Point::to_string).collect();
                    assert!(game.allows(p), "{p} after {}", history.concat());
                    fouls_near += usize::from(
                        Point::all().any(|q| game.board().get(q).is_none() && !game.allows(q)),
                    );
                }
                // Either side's stone on a random empty point of a 7×7
                // square around J10, so the stones crowd.
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let (c, r) = (7 + (seed >> 33) % 7, 7 + (seed >> 45) % 7);
                let Some(p) = Column::new(c as u8)
                    .zip(Row::new(r as u8))
                    .map(|(c, r)| Point::new(c, r))
                else {
                    continue;
                };
                if !game.allows(p) {
                    continue;
                }
                if game.place(p).expect("allowed").is_some() {
                    break;
                }
            }
        }
        assert!(
            fouls_near > 50,
            "only {fouls_near} turns with a forbidden point: a weak test"
        );
    }

    #[test]
    fn levels_are_1_to_10_with_growing_budgets() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(11), None);
        assert_eq!(Level::new(1), Some(Level::MIN));
        assert_eq!(Level::new(10), Some(Level::MAX));
        assert!(NODES.windows(2).all(|w| w[0] < w[1]), "{NODES:?}");
        assert!(Level::MIN.careless() && !Level::new(2).unwrap().careless());
    }
}
