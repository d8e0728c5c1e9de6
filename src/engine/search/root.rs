//! The root: threats that decide at once, the threat solvers, the
//! defences a threat leaves, and iterative deepening.

use super::vcf::{Threats, vcf_plies};
use super::{
    Busy, Iteration, MoveList, Outcome, Pool, ROOT_VCF, ROOT_VCT, SOLVER_CAP, Search, WIN,
};
use crate::engine::eval::{C_B4, C_FIVE, EVAL_LIMIT};
use crate::engine::pattern;
use crate::engine::position::{Colour, other};
use std::sync::atomic::AtomicU64;

impl<'a> Search<'a> {
    /// Searches the position (which has an empty point and a stone) and
    /// picks a move.
    pub fn run(&mut self) -> Outcome {
        match self.prepare() {
            Ok(fallback) => self.deepen(fallback),
            Err(decided) => decided,
        }
    }

    /// What comes before the deepening search: a threat that decides at
    /// once, or a forced win the solvers find (`Err`, the outcome), else
    /// the root moves narrowed to the defences of any threat of the
    /// opponent's, and the move to fall back on (`Ok`).
    pub fn prepare(&mut self) -> Result<usize, Outcome> {
        let me = self.pos.side();
        let opp = other(me);
        let decided = |best: usize, score: i32| Outcome {
            best,
            score,
            depth: 0,
            pv: vec![best],
            iterations: Vec::new(),
        };
        // Under renju, no shortcut to a point Black may not play.
        let allowed = |s: &Self, i: usize| s.pos.may_play(i, me);
        if let Some(f) = self.pos.five_point(me).filter(|&f| allowed(self, f)) {
            return Err(decided(f, WIN - 1));
        }
        if let Some(f) = self.pos.five_point(opp) {
            let mut stops = MoveList::new();
            self.five_stoppers(opp, &mut stops);
            stops.retain(|&(_, m)| allowed(self, usize::from(m)));
            // One way to stop the five (or none): no need to search. Under
            // caro there may be several, and the search picks among them.
            if stops.len() <= 1 {
                let lost = || {
                    if allowed(self, f) {
                        Some(f)
                    } else {
                        self.any_empty()
                    }
                };
                let best = stops.first().map(|&(_, m)| usize::from(m)).or_else(lost);
                let best = best.unwrap_or(f);
                return Err(decided(best, if stops.is_empty() { -(WIN - 2) } else { 0 }));
            }
        }
        if let Some(f) = self
            .flex_four(me)
            .filter(|_| self.pos.combo_count(opp, C_FIVE) == 0)
            .filter(|&f| allowed(self, f))
        {
            return Err(decided(f, WIN - 3));
        }
        if let Some(f) = self.unstoppable_four(me) {
            return Err(decided(f, WIN - 3));
        }
        let list = self.ordered_moves(0, 0, usize::MAX);
        let fallback = list.first().map(|&(_, m)| usize::from(m));
        self.lists[0] = list;
        let Some(fallback) = fallback.or_else(|| self.any_empty()) else {
            return Err(decided(0, 0));
        };
        // Own forced wins first, shortest first: fours only (deep, cheap),
        // then threats.
        for depth in 1..=ROOT_VCF {
            if self.solve(6, SOLVER_CAP, |s| s.vcf(depth, 0)) {
                let playable = |&f: &usize| self.pos.cell(f) == pattern::EMPTY && allowed(self, f);
                if let Some(f) = self.solved.filter(playable) {
                    return Err(decided(f, WIN - vcf_plies(depth, self.pos.rule())));
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
                let playable = |&f: &usize| self.pos.cell(f) == pattern::EMPTY && allowed(self, f);
                if let Some(f) = self.solved.filter(playable) {
                    return Err(decided(f, WIN - 4 * depth as i32));
                }
            }
            if self.solve_exhausted {
                break;
            }
        }
        self.root_filter = self
            .defences(Threats::Fours)
            .or_else(|| self.defences(Threats::FoursAndThrees));
        Ok(fallback)
    }

    /// The root moves [`Search::prepare`] kept, if it narrowed them.
    pub fn root_moves(&self) -> Option<&[usize]> {
        self.root_filter.as_deref()
    }

    /// Searches as a helper thread of a main search that has prepared the
    /// same root and kept `root_moves`, adding its nodes to `pool`, until
    /// the deadline or the halt flag. It deepens as the main search does,
    /// with wider nodes, and the threads share the work through `busy` (see
    /// [`Engine::search`](crate::engine::Engine::search)).
    pub fn help(
        &mut self,
        root_moves: Option<Vec<usize>>,
        pool: &'a AtomicU64,
        busy: &'a Busy,
        fallback: usize,
    ) {
        self.root_filter = root_moves;
        self.pool = Some(Pool::Helper(pool));
        self.busy = Some(busy);
        self.deepen(fallback);
    }

    /// The iterative deepening from depth 1, playing `fallback` if no
    /// iteration gets as far as a move.
    pub fn deepen(&mut self, fallback: usize) -> Outcome {
        let mut best = Outcome {
            best: fallback,
            score: 0,
            depth: 0,
            pv: vec![fallback],
            iterations: Vec::new(),
        };
        self.seldepth = 0;
        let mut depth = 1;
        let mut guess = None;
        // The first depth whose score was a win or a loss.
        let mut mated_at = None;
        while depth <= self.budget.depth {
            let (found, score, windows) = self.iterate(depth, guess);
            if self.stopped {
                // A partial iteration counts once a move has beaten its
                // window's floor.
                if let Some(m) = found {
                    best.best = m;
                    best.pv = self.pv(m);
                }
                break;
            }
            let Some(m) = found else { break };
            let pv = self.pv(m);
            let iteration = Iteration {
                depth,
                seldepth: self.seldepth as u32,
                score,
                nodes: self.nodes(),
                elapsed: self.started.elapsed(),
                windows: windows.count,
                again: windows.again,
                pv: pv.clone(),
            };
            if let Some(report) = self.on_iteration.as_mut() {
                report(&iteration);
            }
            best.iterations.push(iteration);
            best = Outcome {
                best: m,
                score,
                depth,
                pv,
                iterations: std::mem::take(&mut best.iterations),
            };
            if score.abs() > EVAL_LIMIT {
                let first = *mated_at.get_or_insert(depth);
                if depth >= first + ITERATIONS_AFTER_MATE {
                    break;
                }
            }
            guess = Some(score);
            depth += 1;
        }
        best
    }

    /// One iteration to `depth`, in a window around the last iteration's
    /// score `guess` that widens until the score falls inside it, or a
    /// move fails high with a win: the best root move (if one beat the
    /// window's floor before a stop), the score, and the windows it took.
    fn iterate(&mut self, depth: u32, guess: Option<i32>) -> (Option<usize>, i32, Windows) {
        let full = (-WIN - 1, WIN + 1);
        let (mut alpha, mut beta) = match guess {
            Some(g) if depth >= ASPIRATION_DEPTH && g.abs() < EVAL_LIMIT => {
                (g - ASPIRATION, g + ASPIRATION)
            }
            // A win already found is confirmed, not proved again: in a
            // null window at its score, the search prunes as it did when
            // it found it; a full window makes every defence along every
            // line a node on the expected line, searched whole, and one
            // depth of that can take more than the move's whole budget.
            Some(g) if g > EVAL_LIMIT => (g - 1, g),
            _ => full,
        };
        let mut delta = ASPIRATION;
        let mut found = None;
        let mut windows = Windows { count: 0, again: 0 };
        // The node count when the first window was done.
        let mut first_end = None;
        loop {
            self.root_best = None;
            let score = self.alphabeta(depth as i32, alpha, beta, 0, false);
            found = self.root_best.or(found);
            windows.count += 1;
            let now = self.nodes();
            windows.again = now - *first_end.get_or_insert(now);
            if self.stopped {
                return (found, score, windows);
            }
            delta *= 2;
            if score <= alpha && alpha > full.0 {
                if score < -EVAL_LIMIT {
                    // A loss, and no better than this one: the window
                    // below it finds the longest defence.
                    (alpha, beta) = (full.0, score + 1);
                } else {
                    alpha = (score - delta).max(full.0);
                }
            } else if score >= beta && beta < full.1 {
                if score > EVAL_LIMIT {
                    // A win for the move that failed high: the score is
                    // a bound on the mate's length, which is all the
                    // move needs (see the guess's window above).
                    return (found, score, windows);
                } else {
                    beta = (score + delta).min(full.1);
                }
            } else {
                return (found, score, windows);
            }
        }
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
        self.stopped = stopped_by_share && self.spent_now();
        win && !stopped_by_share
    }

    /// If the opponent would win by continuous fours (or, with
    /// [`Threats::FoursAndThrees`], by threats) were it its move, the root
    /// moves after which it no longer does; `None` if there is no threat or
    /// no move stops it.
    fn defences(&mut self, threats: Threats) -> Option<Vec<usize>> {
        self.threes_as_threat = true;
        let keep = self.defences_within(threats, solver_depth(threats));
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
        let list = self.ordered_moves(0, 0, usize::MAX);
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
        self.stopped = self.spent_now();
        (!keep.is_empty()).then_some(keep)
    }

    /// Under renju, with White to move and no five of Black's to stop: a
    /// four of White's whose five point Black may not take, which wins as
    /// an open four does.
    fn unstoppable_four(&mut self, me: Colour) -> Option<usize> {
        let opp = other(me);
        if !self.pos.restricted(opp) || self.pos.combo_count(opp, C_FIVE) > 0 {
            return None;
        }
        let fours: Vec<usize> = self
            .pos
            .candidates()
            .filter(|&i| self.pos.combo(i, me) >= C_B4)
            .collect();
        fours.into_iter().find(|&i| {
            self.pos.play(i);
            let stop = self.pos.five_point(me);
            let won = self.pos.combo_count(me, C_FIVE) == 1
                && stop.is_some_and(|f| !self.pos.can_defend(f, opp));
            self.pos.undo();
            won
        })
    }

    fn any_empty(&self) -> Option<usize> {
        self.pos
            .points
            .iter()
            .copied()
            .find(|&i| self.pos.cell(i) == pattern::EMPTY && self.pos.may_play(i, self.pos.side()))
    }

    fn pv(&mut self, first: usize) -> Vec<usize> {
        let mut line = vec![first];
        self.pos.play(first);
        while line.len() < 32 {
            let Some(e) = self.tt.probe(self.pos.hash()) else {
                break;
            };
            let m = usize::from(e.best);
            if m == 0 || self.pos.cell(m) != pattern::EMPTY || self.pos.is_full() {
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
}

/// How an iteration's aspiration went: the windows it searched, and the
/// nodes of those after the first (a score outside the first window is
/// searched again; how much that costs is the bench's to show).
struct Windows {
    count: u32,
    again: u64,
}

/// The iterations searched past the first whose score is a win or a
/// loss. Below the root the search prunes, so its mate may rest on a
/// defence (ours, or the opponent's) that it never looked at: a deeper
/// iteration can refute a lost line or find a win sooner, as Rapfi
/// searches a few more before it stops. A threat solver's win at the
/// root is proved and stops at once (see [`Search::prepare`]).
const ITERATIONS_AFTER_MATE: u32 = 4;

/// The half-width of the first window around the last iteration's score.
const ASPIRATION: i32 = 103;
/// The first depth searched in a window (shallower ones are cheap).
const ASPIRATION_DEPTH: u32 = 5;

/// How deep, in own moves, the root looks for the opponent's `threats`.
fn solver_depth(threats: Threats) -> u32 {
    match threats {
        Threats::Fours => ROOT_VCF,
        Threats::FoursAndThrees => ROOT_VCT,
    }
}
