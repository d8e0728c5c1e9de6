//! Past the horizon: the static score, unless a four near the side's last
//! stone does better.
//!
//! A quiescence search in fours. The side to move may stand on the static
//! score or play a four; the four's block is forced, so each four costs two
//! nodes and no branching on the other side. Only fours on the lines of the
//! side's own last stone are tried (those its last move made or prepared),
//! at most [`FOURS`] a node and [`QUIESCE_FOURS`] in a line, so the search
//! stays a thread, not a tree: the solver at the leaves that tried every
//! four, with no score to stand on, cost more nodes than its wins were
//! worth. (Letting only the first four be a plain one, the later ones
//! having to make something more, was no better in self-play.)

use super::alphabeta::to_tt;
use super::{MAX_PLY, Search, WIN};
use crate::engine::eval::{C_B4, C_FIVE};
use crate::engine::position::other;
use crate::engine::tt::Bound;

/// The most fours the side to move may play past the horizon.
pub(super) const QUIESCE_FOURS: u32 = 4;
/// A static score this far below alpha is not worth a four's look.
const DELTA: i32 = 647;
/// The most fours tried at one node.
const FOURS: usize = 8;

impl Search<'_> {
    /// The score at the horizon (the opponent has no five to make): the
    /// quiescence's, stored in the table when it played a four, so that a
    /// transposition or the next iteration gets it without the nodes. A
    /// plain static score is not stored: it costs less than a look-up, and
    /// the leaves would crowd out the entries above them.
    pub(super) fn horizon(&mut self, alpha: i32, beta: i32, ply: usize, key: u64) -> i32 {
        let before = self.nodes;
        let score = self.stand_or_four(alpha, beta, ply, QUIESCE_FOURS);
        if self.nodes > before && !self.stopped {
            let bound = Bound::of(score, alpha, beta);
            self.tt.store(key, to_tt(score, ply as i32), 0, 0, bound);
        }
        score
    }

    /// The score of the position for the side to move, with at most `left`
    /// of its fours still to play; the opponent has no five to make
    /// unless a block of ours is forced.
    pub(super) fn quiesce(&mut self, alpha: i32, beta: i32, ply: usize, left: u32) -> i32 {
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = self.proved(ply) {
            return score;
        }
        let opp_fives = self.pos.combo_count(other(self.pos.side()), C_FIVE);
        if ply + 8 >= MAX_PLY || self.pos.is_full() {
            return self.pos.evaluate();
        }
        if opp_fives > 0 {
            return self.block(alpha, beta, ply, left);
        }
        self.stand_or_four(alpha, beta, ply, left)
    }

    /// [`Self::quiesce`] once the checks are done (as the main search has
    /// done them at its horizon): the opponent has no five to make, and
    /// the side to move no win in a few plies.
    pub(super) fn stand_or_four(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        left: u32,
    ) -> i32 {
        let me = self.pos.side();
        let opp = other(me);
        let stand = self.pos.evaluate();
        if stand >= beta || left == 0 || stand + DELTA < alpha {
            return stand;
        }
        let moves = self.pos.moves();
        let Some(&own_last) = moves.len().checked_sub(2).and_then(|k| moves.get(k)) else {
            return stand;
        };
        let mut fours = [(0i32, 0usize); FOURS];
        let mut found = 0;
        for q in self.pos.empty_on_lines(own_last) {
            let combo = self.pos.combo(q, me);
            if combo >= C_B4 && found < FOURS {
                let score = i32::from(combo) * 10_000 + self.pos.value(q, opp);
                fours[found] = (score, q);
                found += 1;
            }
        }
        let fours = &mut fours[..found];
        fours.sort_unstable_by_key(|f| std::cmp::Reverse(f.0));
        let mut best = stand;
        alpha = alpha.max(stand);
        for &(_, m) in fours.iter() {
            self.pos.play(m);
            let score = -self.quiesce(-beta, -alpha, ply + 1, left - 1);
            self.pos.undo();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score >= beta {
                    break;
                }
                alpha = alpha.max(score);
            }
        }
        best
    }

    /// The opponent's four blocked, the only move (or, under caro, the
    /// best of the few), and the quiescence going on behind it.
    fn block(&mut self, alpha: i32, beta: i32, ply: usize, left: u32) -> i32 {
        let opp = other(self.pos.side());
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.five_stoppers(opp, &mut list);
        let mut best = -(WIN - ply as i32 - 2);
        let mut alpha = alpha;
        for &(_, m) in list.iter() {
            self.pos.play(usize::from(m));
            let score = -self.quiesce(-beta, -alpha, ply + 1, left);
            self.pos.undo();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score >= beta {
                    break;
                }
                alpha = alpha.max(score);
            }
        }
        self.lists[ply] = list;
        if self.stopped { 0 } else { best }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::{C_B4F3, C_DF3, C_FLEX4, EVAL_LIMIT};
    use crate::engine::limits::{Budget, Limits};
    use crate::engine::position::{CELLS, Position, index};
    use crate::engine::tt::Table;
    use crate::engine::{Setup, Spot};
    use crate::rules::player::Player;
    use crate::rules::rule::Rule;

    /// A 15×15 position from stones in the order given, Black to move.
    fn position(stones: &[((u8, u8), Player)]) -> Position {
        let mut setup = Setup::new(15, Rule::Freestyle);
        setup.stones = stones
            .iter()
            .map(|&((x, y), p)| (Spot { x, y }, p))
            .collect();
        setup.position()
    }

    /// The quiescence's score from `pos` with the full window, and the
    /// nodes it took.
    fn quiesce(pos: Position) -> (i32, u64) {
        let mut tt = Table::new(1 << 16);
        let mut history = Box::new([[0; CELLS]; 2]);
        let budget = Budget::start(Limits {
            nodes: Some(1 << 20),
            ..Limits::default()
        });
        let mut search = Search::new(pos, tt.shared(), &mut history, budget, None);
        let score = search.stand_or_four(-WIN - 1, WIN + 1, 1, QUIESCE_FOURS);
        (score, search.nodes())
    }

    fn no_win_at_once(pos: &Position) {
        let black = 1;
        for combo in [C_B4F3, C_DF3, C_FLEX4, C_FIVE] {
            assert_eq!(pos.combo_count(black, combo), 0, "combination {combo}");
        }
    }

    /// Black's two open twos, closed three and closed diagonal pair, with
    /// `last` played after them.
    fn threat_shape(last: &[((u8, u8), Player)]) -> Position {
        use Player::{Black, White};
        let mut stones = vec![
            ((7, 8), Black),
            ((7, 9), Black),
            ((5, 5), Black),
            ((6, 6), Black),
            ((4, 4), White),
            ((8, 9), Black),
            ((8, 10), Black),
            ((1, 13), White),
            ((13, 1), White),
        ];
        stones.extend_from_slice(last);
        let pos = position(&stones);
        no_win_at_once(&pos);
        pos
    }

    /// Black's four at (8,8), on the column of its last stone, forces
    /// White's block at (8,7) and makes (7,7) a four (the diagonal closed
    /// at (4,4)) and an open three (the column x = 7) at once: a win the
    /// static score cannot see.
    #[test]
    fn a_four_that_makes_a_four_three_is_seen_past_the_horizon() {
        let pos = threat_shape(&[((8, 11), Player::Black), ((8, 12), Player::White)]);
        assert!(pos.evaluate().abs() < EVAL_LIMIT);
        let (score, nodes) = quiesce(pos);
        // The four, its block, then the four-three: a win five plies
        // after that, from ply 1.
        assert_eq!(score, WIN - 3 - 5, "{nodes} nodes");
    }

    /// The same stones with Black's last stone far from its four: the
    /// four is not on the thread, and the score is the static one.
    #[test]
    fn only_fours_near_the_last_own_stone_are_tried() {
        use Player::{Black, White};
        let pos = threat_shape(&[
            ((8, 11), Black),
            ((8, 12), White),
            ((0, 14), Black),
            ((14, 0), White),
        ]);
        let eval = pos.evaluate();
        assert_eq!(quiesce(pos), (eval, 0));
    }

    /// Along 200 seeded games of stones played among the best points, every
    /// position's quiescence ends within the bound: at most [`FOURS`]
    /// fours at a node, [`QUIESCE_FOURS`] deep, each a node for the four
    /// and one for its block; a block that makes a four itself adds a
    /// forced block, not a branch.
    #[test]
    fn the_quiescence_stays_a_thread_on_any_position() {
        let bound = 2
            * (1..=QUIESCE_FOURS)
                .map(|d| (FOURS as u64).pow(d))
                .sum::<u64>();
        let mut worst = 0;
        let mut searched = 0;
        for game in 0..200 {
            let mut rng = crate::rng::Rng::for_case(7, game);
            let mut pos = Position::new(Rule::Freestyle, 1, 15);
            pos.play(index(Spot { x: 7, y: 7 }));
            for _ in 0..60 {
                let me = pos.side();
                let opp = other(me);
                // Positions the main search would hand to the quiescence.
                if pos.combo_count(opp, C_FIVE) == 0
                    && pos.combo_count(me, C_FIVE) == 0
                    && pos.combos_at_least(me, C_FLEX4) == 0
                {
                    let (_, nodes) = quiesce(pos.clone());
                    worst = worst.max(nodes);
                    searched += 1;
                }
                // One of the four points best for the mover: games full
                // of threats, where fours pile up.
                let mut near: Vec<(i32, usize)> = pos
                    .candidates()
                    .map(|i| (pos.value(i, me) + pos.value(i, opp), i))
                    .collect();
                if near.is_empty() || pos.combo_count(me, C_FIVE) > 0 {
                    break;
                }
                near.sort_unstable_by(|a, b| b.cmp(a));
                pos.play(near[rng.below(near.len().min(4))].1);
            }
        }
        assert!(searched > 1_000, "{searched} positions");
        assert!(worst <= bound, "{worst} nodes, bound {bound}");
    }
}
