//! The searcher: iterative deepening over a principal-variation alpha-beta
//! search, with a transposition table, threat-first move ordering, killer
//! and history heuristics, late-move reductions, and the threat solvers at
//! the root and at the leaves.
//!
//! Threats cut the tree before any move is generated: a side with a five
//! point has won, two opposing five points have lost, an open four against
//! no five wins. When the opponent has a four, the only move is its five
//! point; when the opponent threatens an open four, only the defences (the
//! points where it would make a four, and our own fours) are searched.
//!
//! Nothing here allocates once the search has started: the move lists are
//! one reused buffer per ply.

use super::eval::{C_B4, C_F3, C_FIVE, C_FLEX4, EVAL_LIMIT};
use super::pattern;
use super::position::{Position, other};
use super::time::Budget;
use super::tt::{Bound, Table};
use super::vcf::{FAIL_SLOTS, Threats};
use crate::rules::rule::Rule;

/// A won position's score; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// The deepest iteration.
pub const MAX_DEPTH: u32 = 64;
/// The deepest ply, threat solvers included.
pub const MAX_PLY: usize = 200;
/// Moves searched at an inner node that has no forcing situation.
const WIDTH_LIMIT: usize = 24;
/// Depth, in own moves, of the VCF tried at the leaves.
const LEAF_VCF: u32 = 5;
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
    pub pos: Position,
    tt: &'a mut Table,
    history: &'a mut [[i32; super::position::CELLS]; 2],
    killers: [[u16; 2]; MAX_PLY],
    /// Nodes visited, threat solvers included.
    pub nodes: u64,
    budget: Budget,
    /// Set once the budget is spent; every node then returns at once.
    pub stopped: bool,
    /// One reused move list per ply.
    pub lists: Vec<MoveList>,
    /// The first move of the last threat sequence a solver found.
    pub solved: Option<usize>,
    /// Positions where VCF failed: (hash, depth).
    pub fails: Vec<(u64, u32)>,
    root_best: Option<usize>,
    /// When set, the only root moves to search.
    root_filter: Option<Vec<usize>>,
    /// Whether the last threat solver ran out of its share.
    solve_exhausted: bool,
    /// Whether caro threes count in the solvers (see `attack`).
    pub threes_as_threat: bool,
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
}

impl<'a> Search<'a> {
    /// A search of `pos` within `budget`.
    pub fn new(
        pos: Position,
        tt: &'a mut Table,
        history: &'a mut [[i32; super::position::CELLS]; 2],
        budget: Budget,
    ) -> Search<'a> {
        Search {
            pos,
            tt,
            history,
            killers: [[0; 2]; MAX_PLY],
            nodes: 0,
            budget,
            stopped: false,
            lists: (0..MAX_PLY).map(|_| Vec::with_capacity(400)).collect(),
            solved: None,
            fails: vec![(0, 0); FAIL_SLOTS],
            root_best: None,
            root_filter: None,
            solve_exhausted: false,
            threes_as_threat: false,
        }
    }

    /// Counts a node; true when the search must stop.
    pub fn tick(&mut self) -> bool {
        if !self.stopped {
            self.nodes += 1;
            self.stopped = self.budget.exhausted(self.nodes);
        }
        self.stopped
    }

    /// Searches the position (which has an empty point and a stone) and
    /// picks a move.
    pub fn run(&mut self) -> Outcome {
        let me = self.pos.side();
        let opp = other(me);
        let decided = |best: usize, score: i32| Outcome {
            best,
            score,
            depth: 0,
            pv: vec![best],
        };
        if let Some(f) = self.pos.five_point(me) {
            return decided(f, WIN - 1);
        }
        if let Some(f) = self.pos.five_point(opp) {
            let mut stops = MoveList::new();
            self.five_stoppers(opp, &mut stops);
            // One way to stop the five (or none): no need to search. Under
            // caro there may be several, and the search picks among them.
            if stops.len() <= 1 {
                let best = stops.first().map_or(f, |&(_, m)| usize::from(m));
                return decided(best, if stops.is_empty() { -(WIN - 2) } else { 0 });
            }
        }
        if let Some(f) = self
            .flex_four(me)
            .filter(|_| self.pos.combo_count(opp, C_FIVE) == 0)
        {
            return decided(f, WIN - 3);
        }
        let list = self.ordered_moves(0, 0);
        let fallback = list.first().map(|&(_, m)| usize::from(m));
        self.lists[0] = list;
        let Some(fallback) = fallback.or_else(|| self.any_empty()) else {
            return decided(0, 0);
        };
        // Own forced wins first, shortest first: fours only (deep, cheap),
        // then threats.
        for depth in 1..=ROOT_VCF {
            if self.solve(6, SOLVER_CAP, |s| s.vcf(depth, 0)) {
                if let Some(f) = self.solved.filter(|&f| self.pos.cell(f) == pattern::EMPTY) {
                    return decided(f, WIN - 2 * depth as i32 - 1);
                }
            }
            if self.stopped || self.solve_exhausted {
                break;
            }
        }
        for depth in 2..=ROOT_VCT {
            if self.stopped {
                break;
            }
            if self.solve(6, SOLVER_CAP, |s| s.vct(depth, 0)) {
                if let Some(f) = self.solved.filter(|&f| self.pos.cell(f) == pattern::EMPTY) {
                    return decided(f, WIN - 4 * depth as i32);
                }
            }
            if self.solve_exhausted {
                break;
            }
        }
        self.root_filter = self
            .defences(Threats::Fours)
            .or_else(|| self.defences(Threats::FoursAndThrees));
        let mut best = Outcome {
            best: fallback,
            score: 0,
            depth: 0,
            pv: vec![fallback],
        };
        for depth in 1..=self.budget.depth {
            self.root_best = None;
            let score = self.alphabeta(depth as i32, -WIN - 1, WIN + 1, 0);
            if self.stopped {
                // A partial iteration counts once its first move, the
                // previous best, is searched.
                if let Some(m) = self.root_best {
                    best.best = m;
                    best.pv = self.pv(m);
                }
                break;
            }
            let Some(m) = self.root_best else { break };
            best = Outcome {
                best: m,
                score,
                depth,
                pv: self.pv(m),
            };
            if score.abs() > EVAL_LIMIT {
                break;
            }
        }
        best
    }

    /// Runs a threat solver on a slice of the node budget; the clock limit
    /// is shared with the main search.
    fn solve(&mut self, part: u32, cap: u64, solver: impl FnOnce(&mut Self) -> bool) -> bool {
        let saved = self.budget;
        self.budget = saved.share(self.nodes, part, cap);
        self.solved = None;
        let win = solver(self);
        let stopped_by_share = self.stopped;
        self.solve_exhausted = stopped_by_share;
        self.budget = saved;
        // Running out of the solver's share is not the end of the search,
        // but running out of time is.
        self.stopped = stopped_by_share && self.budget.exhausted_now(self.nodes);
        win && !stopped_by_share
    }

    /// If the opponent would win by continuous fours (or, with
    /// [`Threats::FoursAndThrees`], by threats) were it its move, the root
    /// moves after which it no longer does; `None` if there is no threat or
    /// no move stops it.
    fn defences(&mut self, threats: Threats) -> Option<Vec<usize>> {
        let depth = match threats {
            Threats::Fours => ROOT_VCF,
            Threats::FoursAndThrees => ROOT_VCT,
        };
        self.threes_as_threat = true;
        let keep = self.defences_within(threats, depth);
        self.threes_as_threat = false;
        keep
    }

    fn defences_within(&mut self, threats: Threats, depth: u32) -> Option<Vec<usize>> {
        let me = self.pos.side();
        self.pos.set_side(other(me));
        let threat = self.solve(8, SOLVER_CAP, |s| s.attack(depth, 0, threats));
        self.pos.set_side(me);
        if !threat {
            return None;
        }
        let list = self.ordered_moves(0, 0);
        let mut keep = Vec::new();
        // The whole check takes at most a quarter of what is left.
        let saved = self.budget;
        self.budget = saved.share(self.nodes, 4, SOLVER_CAP);
        let part = u32::try_from(list.len()).unwrap_or(u32::MAX);
        for &(_, m) in &list {
            let m = usize::from(m);
            // Once the check is out of budget, the rest count as defences:
            // unproven is not lost.
            let lost = !self.stopped && {
                self.pos.play(m);
                let lost = self.solve(part, SOLVER_CAP / 8, |s| s.attack(depth, 1, threats));
                self.pos.undo();
                lost
            };
            if !lost {
                keep.push(m);
            }
        }
        self.lists[0] = list;
        self.budget = saved;
        self.stopped = self.budget.exhausted_now(self.nodes);
        (!keep.is_empty()).then_some(keep)
    }

    fn any_empty(&self) -> Option<usize> {
        self.pos
            .points
            .iter()
            .copied()
            .find(|&i| self.pos.cell(i) == pattern::EMPTY)
    }

    fn pv(&mut self, first: usize) -> Vec<usize> {
        let mut line = vec![first];
        self.pos.play(first);
        while line.len() < 32 {
            let Some(e) = self.tt.probe(self.pos.hash()) else {
                break;
            };
            let m = usize::from(e.best);
            if m == 0 || self.pos.cell(m) != pattern::EMPTY || self.pos.stones() >= 361 {
                break;
            }
            self.pos.play(m);
            line.push(m);
        }
        for _ in 0..line.len() {
            self.pos.undo();
        }
        line
    }

    /// The moves worth searching at `ply`, best first, in `lists[ply]`.
    fn ordered_moves(&mut self, ply: usize, tt_move: usize) -> MoveList {
        let me = self.pos.side();
        let opp = other(me);
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        if self.pos.combo_count(opp, C_FIVE) > 0 {
            self.five_stoppers(opp, &mut list);
            if list.is_empty() {
                // Lost: any five point will do.
                if let Some(f) = self.pos.five_point(opp) {
                    list.push((0, f as u16));
                }
            }
            return list;
        }
        // Only the defences of an open three, which under caro may be
        // stopped in more places: there, every candidate stays.
        let defend = self.pos.rule() != Rule::Caro && self.pos.combos_at_least(opp, C_FLEX4) > 0;
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        for i in self.pos.area() {
            if !self.pos.is_candidate(i) {
                continue;
            }
            if ply == 0
                && self
                    .root_filter
                    .as_ref()
                    .is_some_and(|keep| !keep.contains(&i))
            {
                continue;
            }
            if defend
                && self.pos.combo(i, me) < C_B4
                && !self.pos.lines(i, opp).iter().any(|&p| p >= pattern::B4)
            {
                continue;
            }
            let (vm, vo) = (self.pos.value(i, me), self.pos.value(i, opp));
            let mut score = (vm * 6 / 5 + vo) * 16 + self.history[me as usize - 1][i];
            if i == tt_move {
                score = i32::MAX;
            } else if killers.contains(&(i as u16)) {
                score += 400 * 16;
            }
            list.push((score, i as u16));
        }
        list.sort_unstable_by(|a, b| b.cmp(a));
        list
    }

    fn alphabeta(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if ply > 0 && self.tick() {
            return 0;
        }
        let me = self.pos.side();
        let opp = other(me);
        let ply_score = ply as i32;
        if self.pos.combo_count(me, C_FIVE) > 0 {
            return WIN - ply_score - 1;
        }
        let opp_fives = self.pos.combo_count(opp, C_FIVE);
        if opp_fives >= 2 && self.fives_unstoppable() {
            return -(WIN - ply_score - 2);
        }
        if opp_fives == 0 && self.flex_four(me).is_some() {
            return WIN - ply_score - 3;
        }
        if ply + 8 >= MAX_PLY || self.pos.stones() >= 361 {
            return self.pos.evaluate();
        }
        let pv_node = beta - alpha > 1;
        let key = self.pos.hash();
        let mut tt_move = 0;
        if let Some(e) = self.tt.probe(key) {
            tt_move = usize::from(e.best);
            if ply > 0 && !pv_node && i32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply_score);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return s;
                }
            }
        }
        // A four is answered even at the horizon: the block is forced.
        if depth <= 0 && opp_fives == 0 {
            if self.pos.combos_at_least(me, C_B4) > 0 {
                let saved = self.solved;
                let win = self.vcf(LEAF_VCF, ply);
                self.solved = saved;
                if win {
                    return WIN - ply_score - 2 * LEAF_VCF as i32 - 1;
                }
            }
            return self.pos.evaluate();
        }
        let list = self.ordered_moves(ply, tt_move);
        if list.is_empty() {
            self.lists[ply] = list;
            return if self.pos.stones() >= 361 {
                0
            } else {
                self.pos.evaluate()
            };
        }
        let forcing = opp_fives > 0 || self.pos.combos_at_least(opp, C_FLEX4) > 0;
        let limit = if ply == 0 || forcing {
            list.len()
        } else {
            WIDTH_LIMIT.min(list.len())
        };
        let mut best = -WIN - 1;
        let mut best_move = 0usize;
        let original_alpha = alpha;
        for (n, &(_, m)) in list[..limit].iter().enumerate() {
            let m = usize::from(m);
            let quiet = self.pos.combo(m, me) < C_F3 && self.pos.combo(m, opp) < C_F3;
            // A forced move costs no depth.
            let depth = if limit == 1 { depth + 1 } else { depth };
            self.pos.play(m);
            let mut score;
            if n == 0 {
                score = -self.alphabeta(depth - 1, -beta, -alpha, ply + 1);
            } else {
                let reduction = if depth >= 3 && n >= 3 && quiet && !forcing {
                    1 + i32::from(n >= 10)
                } else {
                    0
                };
                score = -self.alphabeta(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if score > alpha && (reduction > 0 || score < beta) {
                    score = -self.alphabeta(depth - 1, -beta, -alpha, ply + 1);
                }
            }
            self.pos.undo();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = m;
                if ply == 0 {
                    self.root_best = Some(m);
                }
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if quiet {
                    let k = &mut self.killers[ply];
                    if k[0] != m as u16 {
                        k[1] = k[0];
                        k[0] = m as u16;
                    }
                    let h = &mut self.history[me as usize - 1][m];
                    *h += depth * depth;
                    if *h > 1 << 14 {
                        for side in self.history.iter_mut() {
                            for v in side.iter_mut() {
                                *v /= 2;
                            }
                        }
                    }
                }
                break;
            }
        }
        self.lists[ply] = list;
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, to_tt(best, ply_score), best_move as u16, depth, bound);
        best
    }
}

fn to_tt(score: i32, ply: i32) -> i32 {
    if score > EVAL_LIMIT {
        score + ply
    } else if score < -EVAL_LIMIT {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: i32, ply: i32) -> i32 {
    if score > EVAL_LIMIT {
        score - ply
    } else if score < -EVAL_LIMIT {
        score + ply
    } else {
        score
    }
}
