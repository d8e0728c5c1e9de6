//! The principal-variation alpha-beta search below the root.

use super::busy::BUSY_DEPTH;
use super::{MAX_PLY, Search, WIN};
use crate::engine::eval::{C_B4, C_B4F3, C_DF3, C_F3, C_FIVE, EVAL_LIMIT};
use crate::engine::position::{distance, other};
use crate::engine::tt::Bound;
use std::sync::OnceLock;

impl Search<'_> {
    /// The score of the node at `ply` within (`alpha`, `beta`), searched
    /// `depth` plies on. `cut` marks an expected cut node: a null-window
    /// node whose parent expects it to fail high (a late move's reply, or
    /// the first reply at an expected all node).
    pub(super) fn alphabeta(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        if ply > 0 && self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = self.proved(ply) {
            return score;
        }
        let me = self.pos.side();
        let opp = other(me);
        let ply_score = ply as i32;
        let opp_fives = self.pos.combo_count(opp, C_FIVE);
        if ply + 8 >= MAX_PLY || self.pos.is_full() {
            return self.pos.evaluate();
        }
        let pv_node = beta - alpha > 1;
        let key = self.pos.hash();
        let mut tt_move = 0;
        if let Some(e) = self.tt.probe(key) {
            tt_move = usize::from(e.best);
            if ply > 0 && !pv_node && i32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply_score);
                let enough = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                };
                if enough {
                    return s;
                }
            }
        }
        // A four is answered even at the horizon: the block is forced.
        // Past it, the quiescence: a four-three or an open four to make is
        // already a win above, and what is left is a thread of fours near
        // the side's last stone, not the full VCF that once ran at each
        // leaf and cost more nodes than its wins were worth.
        if depth <= 0 && opp_fives == 0 {
            return self.horizon(alpha, beta, ply, key);
        }
        // With a four of the opponent's to block, a static score means
        // nothing: there is none.
        let static_eval = (opp_fives == 0).then(|| self.pos.evaluate());
        self.evals[ply] = static_eval;
        // Better than two plies ago: late moves are worth more of a look.
        let improving = match (static_eval, ply.checked_sub(2).and_then(|p| self.evals[p])) {
            (Some(now), Some(before)) => now > before,
            _ => false,
        };
        if let Some(eval) = static_eval.filter(|_| !pv_node) {
            // Far above beta near the horizon, with no double threat of the
            // opponent's to answer, a position stays above it: the side to
            // move could almost pass. A plain four to come is no such
            // threat: its block is one move, and leaves the side to move
            // where it stood.
            if depth <= FUTILITY_DEPTH
                && beta.abs() < EVAL_LIMIT
                && self.pos.combo_count(opp, C_DF3) == 0
                && self.pos.combos_at_least(opp, C_B4F3) == 0
                && eval - FUTILITY_MARGIN * depth >= beta
            {
                return eval;
            }
            // Far below alpha near the horizon, only a threat could save
            // the node: what the horizon sees (a win already there, a four
            // to block, else the static score) decides it.
            if depth <= RAZOR_DEPTH
                && alpha.abs() < EVAL_LIMIT
                && self.pos.combos_at_least(opp, C_B4F3) == 0
                && self.pos.combos_at_least(me, C_DF3) == 0
                && eval + RAZOR_MARGIN * depth < alpha
            {
                return self.alphabeta(0, alpha, beta, ply, cut);
            }
        }
        // At an expected cut node whose static score already clears beta
        // by a margin, some move should refute even a ply shallower.
        let likely_fail_high = cut
            && beta.abs() < EVAL_LIMIT
            && static_eval.is_some_and(|e| e >= beta + FAIL_HIGH_MARGIN * depth);
        let forcing = opp_fives > 0 || self.pos.combos_at_least(opp, C_B4F3) > 0;
        let wanted = if ply == 0 || forcing {
            usize::MAX
        } else {
            width(
                depth,
                pv_node,
                matches!(self.pool, Some(super::Pool::Helper(_))),
            )
        };
        // Facing a threat short of a four (an open three, or a four-three
        // to come): the moves are its answers and our own fours.
        let answering = forcing && opp_fives == 0 && ply > 0;
        // How many of its answers such a node searches once one holds (not
        // on the expected line, where every answer is searched).
        let answers = if answering && !pv_node {
            answer_count(depth)
        } else {
            usize::MAX
        };
        // With no threat to answer, every candidate is a move, and the
        // table's move comes first whatever the others score: it is
        // searched before the rest are generated, and where it refutes
        // (most cut nodes) they never are.
        let staged = ply > 0 && !forcing && tt_move != 0 && self.pos.is_candidate(tt_move);
        let mut list = if staged {
            let mut list = std::mem::take(&mut self.lists[ply]);
            list.clear();
            list
        } else {
            self.ordered_moves(ply, tt_move, wanted)
        };
        if list.is_empty() && !staged {
            self.lists[ply] = list;
            return if self.pos.is_full() {
                0
            } else if self.pos.restricted(me) && !self.pos.can_move(me) {
                // Black under renju with only forbidden points left: no
                // manager lets it pass, and it loses by whichever it plays.
                -(WIN - ply_score)
            } else {
                self.pos.evaluate()
            };
        }
        let moves = if staged {
            self.pos.candidate_count()
        } else {
            list.len()
        };
        let mut limit = wanted.min(moves);
        let killers = self.killers[ply];
        // A reply searched with this node's own window: on the expected
        // line, or the other kind of null-window node than this one.
        let reply_cut = !pv_node && !cut;
        let mut best = -WIN - 1;
        let mut best_move = 0usize;
        let original_alpha = alpha;
        // Late moves whose node another thread is searching: put off
        // until the others are done.
        let mut deferred = [(0u16, 0u16); DEFERRED];
        let mut put_off = 0;
        let mut next = 0;
        let mut taken_back = 0;
        let busy = self.busy.filter(|_| depth >= BUSY_DEPTH);
        if let Some(b) = busy {
            b.enter(key);
        }
        loop {
            let (n, m, late) = if next < limit {
                next += 1;
                if staged && next == 2 {
                    // The table's move did not refute: now the rest, the
                    // table's move first among them as ever (ordered by the
                    // history as its search left it).
                    self.lists[ply] = list;
                    list = self.ordered_moves(ply, tt_move, wanted);
                    // Fewer than every candidate where some are Black's
                    // forbidden points (renju).
                    limit = limit.min(list.len());
                }
                let m = if staged && next == 1 {
                    tt_move
                } else {
                    match list.get(next - 1) {
                        Some(&(_, m)) => usize::from(m),
                        None => continue,
                    }
                };
                (next - 1, m, false)
            } else if taken_back < put_off {
                taken_back += 1;
                let (n, m) = deferred[taken_back - 1];
                (usize::from(n), usize::from(m), true)
            } else {
                break;
            };
            let quiet = self.pos.combo(m, me) < C_F3 && self.pos.combo(m, opp) < C_F3;
            // Near the horizon, a quiet move this late in the ordering
            // almost never beats the ones before it.
            if quiet
                && !pv_node
                && !forcing
                && depth <= PRUNE_DEPTH
                && n >= prune_count(depth, improving)
                && best > -EVAL_LIMIT
            {
                continue;
            }
            // Once one answer to the threat holds, the later ones seldom
            // do better: a count of moves that grows with the depth.
            if n >= answers && best > -EVAL_LIMIT {
                continue;
            }
            // A move that stops none of the threat's fours (a four of our
            // own, or a point beside the threat) far from the stones just
            // played mostly puts the attack off: near the horizon it is
            // dropped, above it searched shallower.
            let (far_opp, far_own) = if answering && self.pos.combo(m, opp) < C_B4 {
                self.far_from_last_stones(m)
            } else {
                (false, false)
            };
            if far_opp && far_own && depth < ASIDE_DEPTH && best > -EVAL_LIMIT {
                continue;
            }
            let child = self.pos.hash_after(m);
            if !late && n > 0 && put_off < DEFERRED && busy.is_some_and(|b| b.is_busy(child)) {
                deferred[put_off] = (n as u16, m as u16);
                put_off += 1;
                continue;
            }
            // A forced move costs no depth; at a likely cut, a move that
            // makes no four costs a ply more.
            let shallower = i32::from(likely_fail_high && self.pos.combo(m, me) < C_B4);
            let depth = if limit == 1 { depth + 1 } else { depth } - shallower;
            // The child's slot is read first thing there: fetched from
            // memory while the stone's patterns are worked out.
            self.tt.prefetch(child);
            self.pos.play(m);
            let mut score;
            if n == 0 {
                score = -self.alphabeta(depth - 1, -beta, -alpha, ply + 1, reply_cut);
            } else {
                // Fours and the answers to a four-three to come are never
                // reduced; a three, made or stopped, a ply less than a
                // quiet move.
                let tactical = self.pos.combo(m, me) >= C_B4 || self.pos.combo(m, opp) >= C_B4F3;
                let aside = ASIDE_OPP * i32::from(far_opp) + ASIDE_OWN * i32::from(far_own);
                let reduction = if aside > 0 && depth >= 2 {
                    // Facing a threat, where no late-move reduction applies.
                    aside.min(depth - 1)
                } else if depth >= 3 && n >= 3 && !tactical && !forcing {
                    // A move that often refuted elsewhere, or a node on
                    // the expected line, is trusted one ply more.
                    let trusted = i32::from(pv_node)
                        + i32::from(self.history[me as usize - 1][m] > HISTORY_TRUSTED)
                        + i32::from(!quiet);
                    // At an expected cut node one move should refute: the
                    // late ones, unless a killer, are worth a ply less.
                    let doubted = i32::from(cut && !killers.contains(&(m as u16)));
                    (late_move_reduction(depth, n) + doubted - trusted).clamp(0, depth - 2)
                } else {
                    0
                };
                score = -self.alphabeta(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && (reduction > 0 || score < beta) {
                    score = -self.alphabeta(depth - 1, -beta, -alpha, ply + 1, reply_cut);
                }
            }
            self.pos.undo();
            if self.stopped {
                break;
            }
            // At the root, only a move that beats the window's floor is
            // known to be best; below it, scores are mere bounds.
            if ply == 0 && score > alpha {
                self.root_best = Some(m);
            }
            if score > best {
                best = score;
                best_move = m;
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
        if let Some(b) = busy {
            b.leave(key);
        }
        self.lists[ply] = list;
        if self.stopped {
            return 0;
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.tt
            .store(key, to_tt(best, ply_score), best_move as u16, depth, bound);
        best
    }

    /// Whether `m` lies more than [`NEAR`] points from the opponent's last
    /// stone, and more than that from the side to move's own last stone.
    fn far_from_last_stones(&self, m: usize) -> (bool, bool) {
        let moves = self.pos.moves();
        let far = |k: Option<usize>| {
            k.and_then(|k| moves.get(k))
                .is_some_and(|&s| distance(m, s) > NEAR)
        };
        (
            far(moves.len().checked_sub(1)),
            far(moves.len().checked_sub(2)),
        )
    }
}

/// How near a stone a move must lie to be part of the fight around it.
const NEAR: usize = 4;
/// Below this remaining depth, a move facing a threat that stops none of
/// its fours, far from both last stones, is not searched once an answer
/// holds.
const ASIDE_DEPTH: i32 = 4;
/// The plies by which such a move is searched shallower above that depth:
/// for lying far from the opponent's last stone, and from our own.
const ASIDE_OPP: i32 = 2;
const ASIDE_OWN: i32 = 1;

/// How many moves a node facing a threat searches once one of them holds:
/// (3 + depth^1.32) / 2, at least 2 — Rapfi's move-count pruning, at
/// the count it takes where the static score has not improved (at these
/// nodes it never has).
fn answer_count(depth: i32) -> usize {
    const SIDE: usize = 64;
    static TABLE: OnceLock<[u8; SIDE]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [0u8; SIDE];
        for (d, c) in t.iter_mut().enumerate() {
            *c = ((3.0 + (d as f64).powf(1.32)) / 2.0).max(2.0) as u8;
        }
        t
    });
    usize::from(table[(depth.max(0) as usize).min(SIDE - 1)])
}

/// Moves searched at an inner node that has no forcing situation, within
/// [`WIDE_DEPTH`] plies of the horizon (more above it). Widths are in
/// hundredths of a move, as they were tuned; a node searches the whole
/// number of moves its width holds.
const WIDTH_LIMIT: i32 = 815;
/// Moves searched at an inner node of the expected line: few such nodes,
/// and their mistakes are the ones the root sees.
const PV_WIDTH_LIMIT: i32 = 1631;
/// The remaining depth past which a node searches more moves.
const WIDE_DEPTH: i32 = 4;
/// The moves a node adds for each ply of depth past [`WIDE_DEPTH`].
const WIDTH_PER_PLY: i32 = 181;
/// What a helper thread adds to a node's width, and to what each ply
/// past [`WIDE_DEPTH`] adds: searching the main search's moves and more,
/// a helper stores bounds over a superset of them, and a refutation it
/// finds past the main search's width reaches the main search as the
/// table's move, which is searched first whatever its rank
/// (docs/engine-log.md, "A helper that searches wider, kept", and "The
/// helper wider still, kept").
const HELPER_WIDTH: i32 = 400;
const HELPER_WIDTH_PER_PLY: i32 = 200;

/// Moves searched at an inner node without a forcing situation: few near
/// the horizon, where most nodes are, and almost two more for each ply
/// of depth left past [`WIDE_DEPTH`]. High in the tree a quiet move the
/// ordering ranks low (the start of a slow attack, or the defence against
/// one) can decide the game, there are few such nodes, and the reductions
/// keep the late moves cheap.
/// A helper thread's nodes are wider still.
fn width(depth: i32, pv_node: bool, helper: bool) -> usize {
    let base = if pv_node { PV_WIDTH_LIMIT } else { WIDTH_LIMIT };
    let (base, per_ply) = if helper {
        (base + HELPER_WIDTH, WIDTH_PER_PLY + HELPER_WIDTH_PER_PLY)
    } else {
        (base, WIDTH_PER_PLY)
    };
    ((base + per_ply * (depth - WIDE_DEPTH).max(0)) / 100) as usize
}

/// The deepest remaining depth at which a static score far above beta
/// ends the node, and the margin per ply it must clear.
const FUTILITY_DEPTH: i32 = 3;
const FUTILITY_MARGIN: i32 = 141;

/// How far per ply of depth a cut node's static score must clear beta for
/// its moves that make no four to be searched a ply shallower.
const FAIL_HIGH_MARGIN: i32 = 11;

/// The deepest remaining depth at which a static score far below alpha
/// hands the node to the horizon, and the margin per ply.
const RAZOR_DEPTH: i32 = 2;
const RAZOR_MARGIN: i32 = 331;

/// The most moves a node puts off while other threads search them.
const DEFERRED: usize = 16;

/// The deepest remaining depth at which late quiet moves are pruned.
const PRUNE_DEPTH: i32 = 3;
/// A quiet move's history above which it is reduced one ply less.
const HISTORY_TRUSTED: i32 = 1133;

/// How many moves a node at `depth` (at most `PRUNE_DEPTH`) searches
/// before its late quiet ones are pruned.
fn prune_count(depth: i32, improving: bool) -> usize {
    1 + depth.max(0) as usize + 2 * usize::from(improving)
}

/// Plies taken off the `n`th move at `depth`: growing with the logarithm of
/// both, so deep nodes and late moves lose the most, read from a table
/// built once: 0.43 + ln d · ln n / 1.04, tuned by games against Rapfi
/// with the widths (by hand, with 8 moves at every depth, / 1.5 was the
/// best divisor tried; with the wider nodes above [`WIDE_DEPTH`],
/// 0.6 + ln d · ln n / 1.1).
fn late_move_reduction(depth: i32, n: usize) -> i32 {
    const SIDE: usize = 64;
    static TABLE: OnceLock<[[u8; SIDE]; SIDE]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; SIDE]; SIDE];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (k, r) in row.iter_mut().enumerate().skip(1) {
                let v = 0.43 + (d as f64).ln() * (k as f64).ln() / 1.04;
                *r = v.max(0.0) as u8;
            }
        }
        t
    });
    i32::from(table[(depth.max(0) as usize).min(SIDE - 1)][n.min(SIDE - 1)])
}

pub(super) fn to_tt(score: i32, ply: i32) -> i32 {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A node facing a threat keeps two answers near the horizon and
    /// about one more a ply above it, never fewer as the depth grows.
    #[test]
    fn answers_kept_grow_with_depth_from_two() {
        let counts: Vec<usize> = (0..=10).map(answer_count).collect();
        assert_eq!(counts, [2, 2, 2, 3, 4, 5, 6, 8, 9, 10, 11]);
        assert_eq!(answer_count(-3), 2);
        for d in 1..200 {
            assert!(answer_count(d) >= answer_count(d - 1), "depth {d}");
        }
    }

    /// The main search keeps 8 moves near the horizon (16 on the expected
    /// line), almost two more a ply above it; a helper searches those and
    /// four more, and two more again for each ply above the horizon's four,
    /// so what it stores is over a superset of the main search's moves.
    #[test]
    fn a_helper_searches_wider_than_the_main_search() {
        let main: Vec<usize> = (0..=8).map(|d| width(d, false, false)).collect();
        assert_eq!(main, [8, 8, 8, 8, 8, 9, 11, 13, 15]);
        let helper: Vec<usize> = (0..=8).map(|d| width(d, false, true)).collect();
        assert_eq!(helper, [12, 12, 12, 12, 12, 15, 19, 23, 27]);
        for pv in [false, true] {
            for d in 0..60 {
                let (m, h) = (width(d, pv, false), width(d, pv, true));
                assert!(h >= m + 4, "depth {d}, expected line {pv}: {h} against {m}");
                assert!(width(d + 1, pv, true) >= h, "depth {d}");
            }
        }
    }
}
