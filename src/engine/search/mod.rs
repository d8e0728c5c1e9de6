//! The searcher: iterative deepening over a principal-variation alpha-beta
//! search, with a transposition table, threat-first move ordering with a
//! history heuristic, late-move reductions (deeper at expected cut nodes,
//! except for a killer, and a ply more where the static score already
//! clears beta), a quiescence in fours at the horizon, and the threat
//! solvers at the root.
//!
//! Threats cut the tree before any move is generated: a side with a five
//! point has won, two opposing five points have lost, an open four against
//! no five wins. When the opponent has a four, the only move is its five
//! point; when the opponent threatens an open four, only the defences (the
//! points where it would make a four, and our own fours) are searched;
//! facing a four-three to come, the points near it on its lines, our own
//! fours, and the stones that make a three of ours (one may turn the point
//! where we must block its four into a four of ours). Once one answer
//! holds, only the first few are searched (fewer near the horizon), those
//! far from the stones just played shallower or not at all.
//!
//! Laid out by stage: `root` (threats that decide at once, the solvers,
//! iterative deepening), `movepick` (move generation and ordering),
//! `alphabeta` (the tree below the root), `quiesce` (past the horizon: the
//! static score, or a thread of fours near the side's last stone), the
//! threat solvers [`vcf`] and [`vct`], and `busy` (the nodes that threads
//! searching together have in progress). They are child modules, so they
//! share this struct's private fields and nothing outside the searcher can.
//!
//! Nothing here allocates once the search has started: the move lists are
//! one reused buffer per ply.

mod alphabeta;
mod busy;
mod movepick;
mod quiesce;
mod root;
pub mod vcf;
pub mod vct;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::limits::{Budget, CHECK_EVERY};
use super::position::{CELLS, Position};
use super::tt::Shared;
use vcf::FAIL_SLOTS;

pub use busy::Busy;

pub use super::limits::MAX_DEPTH;

/// A won position's score; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// The deepest ply, threat solvers included.
pub const MAX_PLY: usize = 200;
/// Depth of the VCF and VCT tried at the root, in own moves.
const ROOT_VCF: u32 = 30;
const ROOT_VCT: u32 = 6;
/// The most nodes a root threat solver may take.
const SOLVER_CAP: u64 = 300_000;

/// A move list: (ordering score, array index).
pub type MoveList = Vec<(i32, u16)>;

/// One search's state over a position.
pub struct Search<'a> {
    /// The position, played forward and back.
    pos: Position,
    tt: Shared<'a>,
    history: &'a mut [[i32; CELLS]; 2],
    killers: [[u16; 2]; MAX_PLY],
    /// The static score of the node at each ply; none where the opponent
    /// had a four (a score then means nothing).
    evals: [Option<i32>; MAX_PLY],
    /// Nodes visited, threat solvers included.
    nodes: u64,
    budget: Budget,
    /// The deepest ply reached.
    seldepth: usize,
    /// When the search began; read only for reports.
    started: Instant,
    /// Raised from outside (another thread) to stop the search at once.
    halt: Option<&'a AtomicBool>,
    /// Set once the budget is spent; every node then returns at once.
    stopped: bool,
    /// One reused move list per ply.
    lists: Vec<MoveList>,
    /// The first move of the last threat sequence a solver found.
    solved: Option<usize>,
    /// Positions where VCF failed: (hash, depth).
    fails: Vec<(u64, u32)>,
    root_best: Option<usize>,
    /// When set, the only root moves to search.
    root_filter: Option<Vec<usize>>,
    /// Whether the last threat solver ran out of its share.
    solve_exhausted: bool,
    /// Whether caro threes count in the solvers (see `attack`).
    threes_as_threat: bool,
    /// The count of the helper threads' nodes, when threads search
    /// together.
    pool: Option<Pool<'a>>,
    /// The nodes the threads searching together have in progress.
    busy: Option<&'a Busy>,
    /// Told of each completed iteration as it completes.
    on_iteration: Option<&'a mut dyn FnMut(&Iteration)>,
}

/// A search's part in counting the nodes of threads searching together.
#[derive(Clone, Copy)]
enum Pool<'a> {
    /// The main search: reports the helpers' nodes with its own.
    Main(&'a AtomicU64),
    /// A helper: adds its nodes to the count as it goes.
    Helper(&'a AtomicU64),
}

/// The outcome of a search.
pub struct Outcome {
    /// The chosen array index.
    pub best: usize,
    /// Its score for the side to move.
    pub score: i32,
    /// The last iteration's depth (0 if a threat decided).
    pub depth: u32,
    /// The expected line, starting with `best`.
    pub pv: Vec<usize>,
    /// What each completed iteration found, in order.
    pub iterations: Vec<Iteration>,
}

/// One completed iteration of the deepening search.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// Its nominal depth.
    pub depth: u32,
    /// The deepest ply it reached, threat solvers included.
    pub seldepth: u32,
    /// The score for the side to move.
    pub score: i32,
    /// Nodes visited since the search began.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The windows it searched: 1 when the first held the score.
    pub windows: u32,
    /// The nodes of the windows after its first.
    pub again: u64,
    /// The expected line, as array indices.
    pub pv: Vec<usize>,
}

impl<'a> Search<'a> {
    /// A search of `pos` within `budget`.
    pub fn new(
        pos: Position,
        tt: Shared<'a>,
        history: &'a mut [[i32; CELLS]; 2],
        budget: Budget,
        halt: Option<&'a AtomicBool>,
    ) -> Search<'a> {
        Search {
            pos,
            tt,
            history,
            killers: [[0; 2]; MAX_PLY],
            evals: [None; MAX_PLY],
            nodes: 0,
            budget,
            halt,
            seldepth: 0,
            started: Instant::now(),
            stopped: false,
            lists: (0..MAX_PLY).map(|_| Vec::with_capacity(400)).collect(),
            solved: None,
            fails: vec![(0, 0); FAIL_SLOTS],
            root_best: None,
            root_filter: None,
            solve_exhausted: false,
            threes_as_threat: false,
            pool: None,
            busy: None,
            on_iteration: None,
        }
    }

    /// Has `report` told of each iteration as it completes, so that the
    /// shell can show it while the search goes on (the search does no I/O).
    pub fn report_to(&mut self, report: &'a mut dyn FnMut(&Iteration)) {
        self.on_iteration = Some(report);
    }

    /// Makes this the main search of threads that count their nodes in
    /// `pool` and mark their nodes in progress in `busy`: it reports
    /// their nodes with its own.
    pub fn lead(&mut self, pool: &'a AtomicU64, busy: &'a Busy) {
        self.pool = Some(Pool::Main(pool));
        self.busy = Some(busy);
    }

    /// Counts a node; true when the search must stop.
    fn tick(&mut self) -> bool {
        if !self.stopped {
            self.nodes += 1;
            self.stopped = self.budget.exhausted(self.nodes);
            if self.nodes % CHECK_EVERY == 0 {
                self.stopped = self.stopped || self.halted();
                if let Some(Pool::Helper(pool)) = self.pool {
                    pool.fetch_add(CHECK_EVERY, Ordering::Relaxed);
                }
            }
        }
        self.stopped
    }

    /// Whether the search was told from outside to stop.
    pub fn halted(&self) -> bool {
        self.halt.is_some_and(|h| h.load(Ordering::Relaxed))
    }

    /// Whether the budget is spent or the search told to stop, reading
    /// the clock now.
    fn spent_now(&self) -> bool {
        self.budget.exhausted_now(self.nodes) || self.halted()
    }

    /// The position searched.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position searched, given back.
    pub fn into_position(self) -> Position {
        self.pos
    }

    /// Nodes visited so far, threat solvers included; for the main
    /// search, its helpers' too.
    pub fn nodes(&self) -> u64 {
        match self.pool {
            Some(Pool::Main(pool)) => self.nodes + pool.load(Ordering::Relaxed),
            _ => self.nodes,
        }
    }
}
