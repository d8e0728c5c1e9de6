//! The engine: given a position, a rule and a budget, a move.
//!
//! Laid out like Rapfi and Stockfish: [`board`] is the incremental board
//! (line codes, patterns, candidates, hash), [`pattern`] the line-pattern
//! tables, [`eval`] patterns to numbers, [`search`] the alpha-beta search
//! with the threat solvers beside it ([`search::vcf`], [`search::vct`]),
//! [`tt`] its transposition table, [`limits`] the budget, [`greedy`] a
//! one-ply player to measure against. The engine imports only the rules
//! core. Nothing here does I/O; the clock is read only when
//! a time limit is given, so a node budget gives the same move every time.
//!
//! ```
//! use gomoku_mist::board::Board;
//! use gomoku_mist::engine::{Engine, Limits};
//! use gomoku_mist::player::Player;
//! use gomoku_mist::point::Point;
//! use gomoku_mist::rule::Rule;
//!
//! let mut board = Board::new();
//! for p in ["J10", "K10", "L10", "M10"] {
//!     board.place(p.parse().unwrap(), Player::Black);
//! }
//! for p in ["J11", "K11", "L11"] {
//!     board.place(p.parse().unwrap(), Player::White);
//! }
//! let mut engine = Engine::new(1 << 20);
//! let limits = Limits { nodes: Some(10_000), ..Limits::default() };
//! let thought = engine.think(&board, Player::Black, Rule::Freestyle, limits).unwrap();
//! assert!(["I10", "N10"].contains(&thought.best.to_string().as_str()));
//! ```

pub mod eval;
pub mod greedy;
pub mod limits;
pub mod pattern;
pub mod position;
pub mod search;
pub mod tt;

use crate::rules::board::Board as GameBoard;
use crate::rules::player::Player;
use crate::rules::point::{Column, Point, Row};
use crate::rules::rule::Rule;

use limits::Budget;
use position::{CELLS, Position};
use search::Search;

pub use limits::Limits;

/// The hash table's size when nobody says otherwise: ample for a second a
/// move. The computer behind `--cpu` and the Gomocup brain without
/// `max_memory` both take this.
pub const DEFAULT_MEMORY: usize = 64 << 20;

/// The answer to one search.
#[derive(Clone, Debug)]
pub struct Thought {
    /// The move chosen.
    pub best: Point,
    /// Its score for the side that moves: a static evaluation (positive is
    /// good, within ±[`eval::EVAL_LIMIT`]), or for a proven win
    /// [`search::WIN`] minus the plies to it (a loss: the negation).
    pub score: i32,
    /// Depth of the last complete iteration (0 when a threat decided).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The expected line, starting with `best`.
    pub pv: Vec<Point>,
}

/// An engine: its hash table and move-ordering history, reused between
/// the moves of a game.
pub struct Engine {
    tt: tt::Table,
    history: Box<[[i32; CELLS]; 2]>,
}

impl Engine {
    /// A new engine whose hash table takes about `memory_bytes` (clamped
    /// to sane bounds: 16 KiB to 1 GiB). The first engine of a process also
    /// builds the pattern tables (some tens of milliseconds).
    pub fn new(memory_bytes: usize) -> Engine {
        // Built once per process, here rather than inside a timed search.
        for rule in Rule::ALL {
            pattern::table(rule);
        }
        eval::Shapes::get();
        Engine {
            tt: tt::Table::new(memory_bytes),
            history: Box::new([[0; CELLS]; 2]),
        }
    }

    /// Forget everything learnt and take a fresh hash table of about
    /// `memory_bytes` (new game). Cheap whatever the size: the old table
    /// is freed before the new one is allocated, so memory never holds
    /// both, and the new one is untouched zeroed pages, not written here.
    pub fn reset(&mut self, memory_bytes: usize) {
        self.tt.renew(memory_bytes);
        self.history.iter_mut().for_each(|h| h.fill(0));
    }

    /// Forget everything learnt (new game), keeping the table's size;
    /// writes the whole table, so [`Engine::reset`] is faster for a large
    /// one.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| h.fill(0));
    }

    /// Best move for `to_move` on `board` under `rule`. Never panics;
    /// always returns a legal empty point while one exists (on an empty
    /// board: the centre J10). Returns None only when the board is full.
    pub fn think(
        &mut self,
        board: &GameBoard,
        to_move: Player,
        rule: Rule,
        limits: Limits,
    ) -> Option<Thought> {
        if board.is_full() {
            return None;
        }
        if board.stones() == 0 {
            let centre = Point::new(Column::new(10)?, Row::new(10)?);
            return Some(Thought {
                best: centre,
                score: 0,
                depth: 0,
                nodes: 0,
                pv: vec![centre],
            });
        }
        let pos = position(board, to_move, rule);
        let budget = Budget::start(limits);
        let mut search = Search::new(pos, &mut self.tt, &mut self.history, budget);
        let outcome = search.run();
        let nodes = search.nodes();
        let pv: Vec<Point> = outcome
            .pv
            .iter()
            .filter_map(|&i| position::point(i))
            .collect();
        let best = position::point(outcome.best)
            .filter(|&p| board.get(p).is_none())
            .or_else(|| Point::all().find(|&p| board.get(p).is_none()))?;
        Some(Thought {
            best,
            score: outcome.score,
            depth: outcome.depth,
            nodes,
            pv,
        })
    }
}

fn colour(player: Player) -> position::Colour {
    match player {
        Player::Black => 1,
        Player::White => 2,
    }
}

/// The engine's board for a game board, `to_move` to play.
pub fn position(board: &GameBoard, to_move: Player, rule: Rule) -> Position {
    let mut pos = Position::new(rule, colour(to_move));
    for p in Point::all() {
        if let Some(player) = board.get(p) {
            pos.put(position::index(p), colour(player));
        }
    }
    pos.set_side(colour(to_move));
    pos
}
