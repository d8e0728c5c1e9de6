//! The engine: given a position, a rule and a budget, a move.
//!
//! Laid out like Rapfi and Stockfish: [`position`](mod@position) is the incremental board
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
use crate::rules::renju::{Foul, Reading};
use crate::rules::rule::Rule;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use limits::Budget;
use position::{CELLS, Position};
use search::Search;

pub use limits::Limits;
pub use position::{MAX_SIZE, MIN_SIZE, Spot};

/// The hash table's size when nobody says otherwise: ample for a second a
/// move. The computer behind `--cpu` and the Gomocup brain without
/// `max_memory` both take this.
pub const DEFAULT_MEMORY: usize = 64 << 20;

/// The most threads a search uses.
pub const MAX_THREADS: u32 = 64;

/// A helper thread's stack: the search recurses at most
/// [`search::MAX_PLY`] plies, in some hundreds of bytes each (helpers
/// asking for a stack of 8 KiB searched 20 plies deep and more without
/// overflowing it).
const HELPER_STACK: usize = 1 << 20;

/// What a helper thread may hold besides the shared table: its stack,
/// its move lists (one per ply) and its history, with room to spare.
pub const HELPER_BYTES: usize = 2 << 20;

/// The table searched while a larger one is made aside (see
/// [`Engine::reset`]): on the heap, so made at once, and small beside
/// the reserve that a manager's memory limit leaves for the rest.
pub const STAND_IN: usize = 512 << 10;

/// A search given less time than this has the processor to itself: a
/// table being made aside waits while it runs (see [`Engine::reset`]).
pub const YIELD_BELOW: Duration = Duration::from_secs(1);

/// A raised flag, lowered when dropped.
struct Searching(Arc<AtomicBool>);

impl Searching {
    fn raise(flag: &Arc<AtomicBool>) -> Searching {
        flag.store(true, Ordering::Relaxed);
        Searching(Arc::clone(flag))
    }
}

impl Drop for Searching {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// A position as the engine is given it: a square board of any side from
/// [`MIN_SIZE`] to [`MAX_SIZE`], its stones, who moves and the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The board's side.
    pub size: u8,
    /// The stones, in any order. A stone off the board, or on a point
    /// already taken, is left out.
    pub stones: Vec<(Spot, Player)>,
    /// The colour to move.
    pub to_move: Player,
    /// The rule.
    pub rule: Rule,
}

impl Setup {
    /// An empty board of side `size`, Black to move.
    pub fn new(size: u8, rule: Rule) -> Setup {
        Setup {
            size,
            stones: Vec::new(),
            to_move: Player::Black,
            rule,
        }
    }

    /// The game board of the rules core (19×19): `x` is the column's
    /// index, `y` the row's, both from `A1`.
    pub fn of_board(board: &GameBoard, to_move: Player, rule: Rule) -> Setup {
        let stones = Point::all()
            .filter_map(|p| board.get(p).map(|player| (spot_of(p), player)))
            .collect();
        Setup {
            size: 19,
            stones,
            to_move,
            rule,
        }
    }

    /// Whether `s` is on the board.
    pub fn contains(&self, s: Spot) -> bool {
        s.x < self.size && s.y < self.size
    }

    /// The engine's board for this setup.
    pub fn position(&self) -> Position {
        let mut pos = Position::new(self.rule, colour(self.to_move), self.size);
        for &(s, player) in &self.stones {
            let i = position::index(s);
            if pos.contains(s) && pos.cell(i) == pattern::EMPTY {
                pos.put(i, colour(player));
            }
        }
        pos.set_side(colour(self.to_move));
        pos
    }
}

/// Black's forbidden points in `setup` under renju by the RIF's words
/// ([`Reading::Rif`]), with why, row by row from `0,0`; none under any
/// other rule.
pub fn forbidden(setup: &Setup) -> Vec<(Spot, Foul)> {
    if setup.rule != Rule::Renju {
        return Vec::new();
    }
    let pos = setup.position();
    pos.points
        .iter()
        .filter(|&&i| pos.cell(i) == pattern::EMPTY)
        .filter_map(|&i| {
            let s = position::spot(i)?;
            Some((s, pos.foul(i, Reading::Rif)?))
        })
        .collect()
}

/// Builds what a search under `rule` needs that [`Engine::new`] leaves to
/// its first use (renju's pattern table: some tens of milliseconds), so
/// that no move's clock pays for it.
pub fn warm_up(rule: Rule) {
    pattern::table(rule);
}

/// The engine's spot for a point of the rules core.
pub fn spot_of(p: Point) -> Spot {
    // Both indices are below 19.
    Spot {
        x: p.column().index() as u8,
        y: p.row().index() as u8,
    }
}

/// The point of the rules core for a spot of a 19×19 board.
pub fn point_of(s: Spot) -> Option<Point> {
    let column = *Column::ALL.get(usize::from(s.x))?;
    let row = *Row::ALL.get(usize::from(s.y))?;
    Some(Point::new(column, row))
}

/// The answer to one search.
#[derive(Clone, Debug)]
pub struct Found {
    /// The move chosen.
    pub best: Spot,
    /// Its score for the side that moves: a static evaluation (positive is
    /// good, within ±[`eval::EVAL_LIMIT`]), or for a proven win
    /// [`search::WIN`] minus the plies to it (a loss: the negation).
    pub score: i32,
    /// Depth of the last complete iteration (0 when a threat decided).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The expected line, starting with `best`.
    pub pv: Vec<Spot>,
    /// One report per completed depth, in order.
    pub reports: Vec<Report>,
}

/// What one completed depth of the search found: what Gomocup managers
/// and GUIs show while a brain thinks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The nominal depth.
    pub depth: u32,
    /// The deepest ply reached, threat solvers included.
    pub seldepth: u32,
    /// The score for the side to move (see [`Found::score`]).
    pub score: i32,
    /// Nodes visited since the search began.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The aspiration windows the depth searched: 1 when the first held
    /// the score, more when the score fell outside and was searched again.
    pub windows: u32,
    /// The nodes of the windows after the first (with helper threads,
    /// theirs in that time too, as in `nodes`).
    pub again: u64,
    /// The expected line.
    pub pv: Vec<Spot>,
}

impl Report {
    fn of(it: &search::Iteration) -> Report {
        Report {
            depth: it.depth,
            seldepth: it.seldepth,
            score: it.score,
            nodes: it.nodes,
            elapsed: it.elapsed,
            windows: it.windows,
            again: it.again,
            pv: spots(&it.pv),
        }
    }

    /// `depth 7-15 ev 120 n 35012 n/s 640000 tm 54 pv 9,9 10,10`, or
    /// with `mate 5` (a win in 5 plies) or `mate -4` (a loss in 4) in
    /// place of `ev`; each spot written by `name`.
    pub fn line(&self, name: impl Fn(Spot) -> String) -> String {
        let score = match mate_in(self.score) {
            Some(plies) => format!("mate {plies}"),
            None => format!("ev {}", self.score),
        };
        let ms = self.elapsed.as_millis();
        let rate = (u128::from(self.nodes) * 1_000_000)
            .checked_div(self.elapsed.as_micros())
            .unwrap_or(0);
        let pv: Vec<String> = self.pv.iter().map(|&s| name(s)).collect();
        format!(
            "depth {}-{} {score} n {} n/s {rate} tm {ms} pv {}",
            self.depth,
            self.seldepth,
            self.nodes,
            pv.join(" ")
        )
    }
}

/// For a proved result, the plies to it: positive a win, negative a loss.
pub fn mate_in(score: i32) -> Option<i32> {
    if score > eval::EVAL_LIMIT {
        Some(search::WIN - score)
    } else if score < -eval::EVAL_LIMIT {
        Some(-(search::WIN + score))
    } else {
        None
    }
}

/// The answer to one search on the 19×19 board of the rules core.
#[derive(Clone, Debug)]
pub struct Thought {
    /// The move chosen.
    pub best: Point,
    /// Its score for the side that moves (see [`Found::score`]).
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
    /// The table searched: while another is [`Engine::coming`], a small
    /// stand-in.
    tt: tt::Table,
    /// Whether every page of the table has been written (see
    /// [`Engine::commit_table`]).
    committed: bool,
    /// The table being made aside, to be searched once it is ready (see
    /// [`Engine::reset`]).
    coming: Option<tt::Coming>,
    /// Up while a search shorter than [`YIELD_BELOW`] runs: a table being
    /// made aside waits then, and leaves the search the processor.
    searching: Arc<AtomicBool>,
    history: Box<[[i32; CELLS]; 2]>,
    /// Threads a timed search uses when its limits do not say.
    threads: u32,
    /// The bytes the helper threads may take, under a memory limit.
    helper_room: Option<usize>,
    /// The nodes that threads searching together have in progress.
    busy: search::Busy,
    halt: Option<Arc<AtomicBool>>,
    interrupted: bool,
    reports: Vec<Report>,
}

impl Engine {
    /// A new engine whose hash table takes about `memory_bytes` (clamped
    /// to sane bounds: 16 KiB to 1 GiB). The first engine of a process also
    /// builds the pattern tables (some tens of milliseconds).
    pub fn new(memory_bytes: usize) -> Engine {
        // Built once per process, here rather than inside a timed search;
        // renju's (1 MiB more) only once a renju game is announced (see
        // `warm_up`), so that a brain that never plays it keeps within the
        // memory it keeps back for all but the hash table.
        for rule in Rule::ALL.into_iter().filter(|&r| r != Rule::Renju) {
            pattern::table(rule);
        }
        eval::Shapes::get();
        Engine {
            tt: tt::Table::new(memory_bytes),
            committed: false,
            coming: None,
            searching: Arc::new(AtomicBool::new(false)),
            history: Box::new([[0; CELLS]; 2]),
            threads: 1,
            helper_room: None,
            busy: search::Busy::default(),
            halt: None,
            interrupted: false,
            reports: Vec::new(),
        }
    }

    /// A flag another thread may raise to stop every search of this
    /// engine within a few hundred nodes (a manager's `END`); a search
    /// started while it is up stops at once with the best move so far.
    pub fn halt_on(&mut self, flag: Arc<AtomicBool>) {
        self.halt = Some(flag);
    }

    /// The threads a search bounded by time alone uses when its
    /// [`Limits::threads`] does not say (1 to [`MAX_THREADS`]; one to
    /// begin with).
    pub fn set_threads(&mut self, threads: u32) {
        self.threads = threads.clamp(1, MAX_THREADS);
    }

    /// The reports of the last search's completed depths.
    pub fn reports(&self) -> &[Report] {
        &self.reports
    }

    /// Whether the last search was stopped by the halt flag.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// The hash table's size in bytes (of the table to come, while one is
    /// made aside).
    pub fn table_bytes(&self) -> usize {
        self.coming
            .as_ref()
            .map_or(self.tt.bytes(), tt::Coming::bytes)
    }

    /// Forget everything learnt and take an empty hash table of about
    /// `memory_bytes` (new game), in microseconds whatever the size: what
    /// would take longer is done on a thread of its own.
    ///
    /// - A table of the same size forgets its entries at once (see
    ///   [`tt::Table::forget`]); only every [`tt::GENERATIONS`]th game it
    ///   must be wiped instead, which is done aside.
    /// - A new table smaller than a huge page is made at once, on the heap.
    /// - A larger one is made aside: the old table is freed, then the new
    ///   one mapped and every page of it written, so memory never holds
    ///   both and no search faults a page in (see
    ///   [`Engine::commit_table`]). Until it is ready the searches use a
    ///   stand-in of [`STAND_IN`] bytes; the first search to start after
    ///   it is ready takes it (one bounded by nodes or depth waits for it,
    ///   to stay deterministic, up to half its time if it has a clock).
    ///   While a search of less than [`YIELD_BELOW`] runs, the table's
    ///   writing waits: such a search, a manager's fast game, needs every
    ///   core, and the table comes in the opponent's time instead. A
    ///   longer one does not hold it back: that would keep the table from
    ///   the move after, for a few milliseconds of its own time.
    pub fn reset(&mut self, memory_bytes: usize) {
        let bytes = tt::Table::bytes_for(memory_bytes);
        if bytes == self.table_bytes() {
            // A table to come is empty: only the stand-in has to forget,
            // and it and a heap table are wiped at once if need be.
            if self.coming.is_some() || !tt::Table::is_mapped_for(bytes) {
                self.tt.clear();
            } else if !self.tt.forget() {
                let mut old = self.stand_in();
                let pause = self.pause();
                self.make_aside(bytes, move || {
                    old.wipe_with(pause);
                    old
                });
            }
        } else if !tt::Table::is_mapped_for(bytes) {
            // A table still being made is freed by its maker, unwanted.
            self.coming = None;
            self.tt.renew(bytes);
            self.committed = false;
        } else {
            let old = self.stand_in();
            let previous = self.coming.take();
            let pause = self.pause();
            self.make_aside(bytes, move || {
                // Each freed before the new one is mapped.
                drop(previous.map(|p| p.take(Duration::MAX)));
                drop(old);
                let mut table = tt::Table::new(bytes);
                table.commit_with(pause);
                table
            });
        }
        self.helper_room = None;
        self.history.iter_mut().for_each(|h| h.fill(0));
    }

    /// What a table made aside does between its pieces: waits while a
    /// short search runs.
    fn pause(&self) -> impl FnMut() + Send + 'static {
        let searching = Arc::clone(&self.searching);
        move || {
            while searching.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }

    /// Puts a stand-in in the table's place, written whole (it is small),
    /// and returns the table.
    fn stand_in(&mut self) -> tt::Table {
        let mut stand_in = tt::Table::new(STAND_IN);
        stand_in.commit();
        self.committed = true;
        std::mem::replace(&mut self.tt, stand_in)
    }

    /// Has `make` make the table of `bytes` bytes aside; where the system
    /// starts no thread for it, makes a fresh one at once (not written).
    fn make_aside(&mut self, bytes: usize, make: impl FnOnce() -> tt::Table + Send + 'static) {
        self.coming = tt::Coming::start(bytes, make);
        if self.coming.is_none() {
            self.tt.renew(bytes);
            self.committed = false;
        }
    }

    /// Takes the table made aside if it is ready, waiting at most `wait`
    /// for it.
    fn take_coming(&mut self, wait: Duration) {
        let Some(coming) = self.coming.take() else {
            return;
        };
        let bytes = coming.bytes();
        match coming.take(wait) {
            Ok(Some(table)) => {
                self.tt = table;
                self.committed = true;
            }
            // Its maker failed: a fresh one, whose pages the search faults in.
            Ok(None) => {
                self.tt.renew(bytes);
                self.committed = false;
            }
            Err(coming) => self.coming = Some(coming),
        }
    }

    /// As [`Engine::reset`], for an engine that may hold `limit` bytes
    /// in all beyond its fixed needs: the table and the helper threads
    /// of a search on the threads set (see [`Engine::set_threads`]).
    /// The table takes what the helpers leave, and a search starts no
    /// more helpers than the room the table leaves them.
    pub fn reset_within(&mut self, limit: usize) {
        let helpers = (self.threads as usize - 1) * HELPER_BYTES;
        self.reset(limit.saturating_sub(helpers));
        self.helper_room = Some(limit.saturating_sub(self.table_bytes()));
    }

    /// Writes every page of the hash table now, once a table, so that
    /// the next search does not fault them in as it stores (see
    /// [`tt::Table::commit`]). [`Engine::search`] does it before its
    /// first search on more than one thread, and the brain when a game
    /// begins, while no clock runs.
    pub fn commit_table(&mut self) {
        if !self.committed {
            self.tt.commit();
            self.committed = true;
        }
    }

    /// Forget everything learnt (new game), keeping the table's size: at
    /// once, but every [`tt::GENERATIONS`]th time, when the whole table
    /// is written (see [`tt::Table::clear`]).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| h.fill(0));
    }

    /// Best move on `setup`. Never panics; always returns an empty point
    /// of the board while one exists (on an empty board: the centre).
    /// Returns None only when the board is full.
    pub fn search(&mut self, setup: &Setup, limits: Limits) -> Option<Found> {
        self.search_with(setup, limits, &mut |_| {})
    }

    /// As [`Engine::search`], telling `on_depth` of each depth as it
    /// completes (the same [`Report`]s as [`Found::reports`], each as soon
    /// as it is known: a shell shows them while the search goes on).
    pub fn search_with(
        &mut self,
        setup: &Setup,
        limits: Limits,
        on_depth: &mut dyn FnMut(&Report),
    ) -> Option<Found> {
        self.interrupted = false;
        self.reports.clear();
        let pos = setup.position();
        if pos.is_full() {
            return None;
        }
        if pos.stones() == 0 {
            let c = pos.size().saturating_sub(1) as u8 / 2;
            let centre = Spot { x: c, y: c };
            return Some(Found {
                best: centre,
                score: 0,
                depth: 0,
                nodes: 0,
                pv: vec![centre],
                reports: Vec::new(),
            });
        }
        let empty = |pos: &Position, i: usize| pos.cell(i) == pattern::EMPTY;
        let budget = Budget::start(limits);
        // A table made aside is taken when it is ready; a search bounded by
        // nodes or depth waits for it (a stand-in would make its move
        // depend on the machine), for at most half its time.
        let wait = match limits {
            Limits {
                nodes: None,
                depth: None,
                ..
            } => Duration::ZERO,
            Limits { time: Some(t), .. } => t / 2,
            _ => Duration::MAX,
        };
        self.take_coming(wait);
        // Lowered when this search returns, whichever way.
        let _searching = limits
            .time
            .filter(|&t| t < YIELD_BELOW && self.coming.is_some())
            .map(|_| Searching::raise(&self.searching));
        let threads = match limits {
            Limits {
                nodes: None,
                depth: None,
                ..
            } => {
                let room = self
                    .helper_room
                    .map_or(usize::MAX, |room| room / HELPER_BYTES);
                let asked = limits.threads.unwrap_or(self.threads).clamp(1, MAX_THREADS);
                asked.min(u32::try_from(room).unwrap_or(u32::MAX).saturating_add(1))
            }
            _ => 1,
        };
        // Threads faulting the table's pages in together wait on each
        // other in the kernel; one thread alone faults them in about as
        // fast as writing them first (docs/gomocup.md, "Threads").
        if threads > 1 {
            self.commit_table();
        }
        let halt = self.halt.as_deref();
        let tt = self.tt.shared();
        // Each helper starts from this search's history, and learns its own.
        let mut histories: Vec<_> = (1..threads).map(|_| self.history.clone()).collect();
        let busy = &self.busy;
        let mut relay = |it: &search::Iteration| on_depth(&Report::of(it));
        let mut search = Search::new(pos, tt, &mut self.history, budget, halt);
        search.report_to(&mut relay);
        let pool = AtomicU64::new(0);
        let outcome = match search.prepare() {
            Err(decided) => decided,
            Ok(fallback) if histories.is_empty() => search.deepen(fallback),
            Ok(fallback) => {
                // Lazy SMP: the helpers search the same root to the same
                // deadline, deepening as the main search does, and share
                // the table, where each finds what the others stored. In
                // step with the main search they would only repeat it, each
                // computing what the other has not yet stored: so each
                // thread marks the nodes it is in (`busy`), and a thread
                // that comes to one of them as a late move searches its
                // other moves first. A helper's nodes are wider than the
                // main search's (`width`), so what it stores is over the
                // main search's moves and more. Only the main search's
                // move is played.
                let done = AtomicBool::new(false);
                search.lead(&pool, busy);
                std::thread::scope(|scope| {
                    let mut helpers = Vec::with_capacity(histories.len());
                    for history in histories.iter_mut() {
                        let pos = search.position().clone();
                        let keep = search.root_moves().map(<[usize]>::to_vec);
                        let (done, pool) = (&done, &pool);
                        // A helper the system cannot start is one fewer.
                        let helper = std::thread::Builder::new()
                            .stack_size(HELPER_STACK)
                            .spawn_scoped(scope, move || {
                                Search::new(pos, tt, history, budget, Some(done))
                                    .help(keep, pool, busy, fallback);
                            });
                        helpers.extend(helper.ok());
                    }
                    let outcome = search.deepen(fallback);
                    done.store(true, Ordering::Relaxed);
                    // Joined here, not left to the scope: the scope waits
                    // only until a helper's closure returns, and a thread
                    // still exiting then holds its stack, so the next
                    // search's helper would map a new one beside it (seen
                    // as 2 MiB more than usual, past `max_memory`). A
                    // helper's panic does not change the main search's move.
                    for helper in helpers {
                        let _ = helper.join();
                    }
                    outcome
                })
            }
        };
        self.interrupted = search.halted();
        let nodes = search.nodes();
        let pos = search.into_position();
        let pv = spots(&outcome.pv);
        let reports = outcome
            .iterations
            .iter()
            .map(Report::of)
            .collect::<Vec<Report>>();
        self.reports.clone_from(&reports);
        // The search plays no point Black may not under renju; this is
        // the last guard of it, for any shortcut that missed one.
        let side = colour(setup.to_move);
        let legal = |i: usize| empty(&pos, i) && pos.may_play(i, side);
        let best = Some(outcome.best)
            .filter(|&i| pos.points.contains(&i) && legal(i))
            .or_else(|| pos.points.iter().copied().find(|&i| legal(i)))
            .or_else(|| pos.points.iter().copied().find(|&i| empty(&pos, i)))
            .and_then(position::spot)?;
        Some(Found {
            best,
            score: outcome.score,
            depth: outcome.depth,
            nodes,
            pv,
            reports,
        })
    }

    /// Best move for `to_move` on the 19×19 `board` under `rule`: as
    /// [`Engine::search`], in the rules core's points.
    pub fn think(
        &mut self,
        board: &GameBoard,
        to_move: Player,
        rule: Rule,
        limits: Limits,
    ) -> Option<Thought> {
        let found = self.search(&Setup::of_board(board, to_move, rule), limits)?;
        Some(Thought {
            best: point_of(found.best)?,
            score: found.score,
            depth: found.depth,
            nodes: found.nodes,
            pv: found.pv.into_iter().filter_map(point_of).collect(),
        })
    }
}

/// The spots of array indices.
fn spots(line: &[usize]) -> Vec<Spot> {
    line.iter().filter_map(|&i| position::spot(i)).collect()
}

fn colour(player: Player) -> position::Colour {
    match player {
        Player::Black => 1,
        Player::White => 2,
    }
}

/// The engine's board for a 19×19 game board, `to_move` to play.
pub fn position(board: &GameBoard, to_move: Player, rule: Rule) -> Position {
    Setup::of_board(board, to_move, rule).position()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_line_says_mate_for_a_proved_result() {
        let report = |score| Report {
            depth: 7,
            seldepth: 15,
            score,
            nodes: 5_000,
            elapsed: Duration::from_millis(10),
            windows: 2,
            again: 1_000,
            pv: vec![Spot { x: 9, y: 9 }, Spot { x: 10, y: 9 }],
        };
        let name = |s: Spot| format!("{},{}", s.x, s.y);
        let cases = [
            (120, "depth 7-15 ev 120 n 5000 n/s 500000 tm 10 pv 9,9 10,9"),
            (
                search::WIN - 5,
                "depth 7-15 mate 5 n 5000 n/s 500000 tm 10 pv 9,9 10,9",
            ),
            (
                -(search::WIN - 4),
                "depth 7-15 mate -4 n 5000 n/s 500000 tm 10 pv 9,9 10,9",
            ),
        ];
        for (score, line) in cases {
            assert_eq!(report(score).line(name), line);
        }
    }
}

#[cfg(test)]
mod table_tests {
    use super::*;

    /// Four stones in the middle of 20×20, Black to move.
    fn opening() -> Setup {
        let stones = [(9, 9, Player::Black), (10, 10, Player::White)]
            .into_iter()
            .chain([(10, 9, Player::Black), (9, 10, Player::White)])
            .map(|(x, y, p)| (Spot { x, y }, p))
            .collect();
        Setup {
            size: 20,
            stones,
            to_move: Player::Black,
            rule: Rule::Freestyle,
        }
    }

    /// The move, nodes and reports of a search to 3,000 nodes.
    fn searched(engine: &mut Engine) -> (Spot, u64, Vec<(u32, i32, u64)>) {
        let limits = Limits {
            nodes: Some(3000),
            ..Limits::default()
        };
        let mut told = Vec::new();
        let found = engine
            .search_with(&opening(), limits, &mut |r| {
                told.push((r.depth, r.score, r.nodes));
            })
            .expect("a move");
        let reports: Vec<_> = found
            .reports
            .iter()
            .map(|r| (r.depth, r.score, r.nodes))
            .collect();
        assert_eq!(told, reports, "each depth told as the search found it");
        (found.best, found.nodes, reports)
    }

    /// However a new game's table comes — forgotten, wiped when the
    /// generations run out, made aside for a new size, on the heap or
    /// mapped — a search bounded by nodes after it is the search on a
    /// fresh table.
    #[test]
    fn every_new_game_searches_as_on_a_fresh_table() {
        for bytes in [1 << 20, 4 << 20] {
            let fresh = searched(&mut Engine::new(bytes));
            let mut engine = Engine::new(0);
            for game in 0..=u32::from(tt::GENERATIONS) + 1 {
                engine.reset(bytes);
                assert_eq!(engine.table_bytes(), bytes, "game {game}");
                assert_eq!(searched(&mut engine), fresh, "{bytes} bytes, game {game}");
            }
            // To another size and back, the second asked for before the
            // first is made.
            engine.reset(8 << 20);
            engine.reset(bytes);
            assert_eq!(searched(&mut engine), fresh, "{bytes} bytes again");
        }
    }

    /// A search bounded by time alone, which does not wait for a table
    /// made aside, plays a legal move whether it has it or not; one bounded
    /// by nodes takes it, whole and written.
    #[test]
    fn a_table_made_aside_comes_whole_and_written() {
        let mut engine = Engine::new(0);
        engine.reset(64 << 20);
        let limits = Limits {
            time: Some(Duration::from_millis(5)),
            threads: Some(1),
            ..Limits::default()
        };
        let found = engine.search(&opening(), limits).expect("a move");
        assert!(opening().contains(found.best));
        // A node budget waits for it.
        searched(&mut engine);
        assert!(engine.coming.is_none(), "taken");
        assert_eq!(engine.tt.bytes(), 64 << 20);
        assert!(engine.committed, "every page written aside");
    }
}
