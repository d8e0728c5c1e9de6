//! Move picking: the moves worth searching at a node, best first.

use super::{MoveList, Search};
use crate::engine::eval::{C_B4, C_B4F3, C_FIVE, C_FLEX4};
use crate::engine::pattern;
use crate::engine::position::{DIRS, other};
use crate::rules::rule::Rule;

impl Search<'_> {
    /// The moves worth searching at `ply`, in `lists[ply]`: the best
    /// `wanted` first and in order, the rest after them in any order.
    pub(super) fn ordered_moves(&mut self, ply: usize, tt_move: usize, wanted: usize) -> MoveList {
        let me = self.pos.side();
        let opp = other(me);
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        // Under renju Black plays no forbidden point: at the root none that
        // any judge would call one, below it none the search sees is one.
        let restricted = self.pos.restricted(me);
        if self.pos.combo_count(opp, C_FIVE) > 0 {
            self.five_stoppers(opp, &mut list);
            if restricted {
                list.retain(|&(_, m)| self.pos.may_play(usize::from(m), me));
                if ply == 0 {
                    return list;
                }
            }
            if list.is_empty() {
                // Lost: any five point will do.
                if let Some(f) = self.pos.five_point(opp) {
                    list.push((0, f as u16));
                }
            }
            return list;
        }
        // Only the defences of an open three: a point on its lines where
        // the opponent would make a four, or a four of ours (once it is an
        // open four, only a five would do). Under caro a three may be
        // stopped in more places: there, every candidate stays.
        let caro = self.pos.rule() == Rule::Caro;
        let open_three = !caro && self.pos.combos_at_least(opp, C_FLEX4) > 0;
        // Or of a four-three to come (a point where the opponent would make
        // a four and an open three at once: its four forces our block, and
        // its three then becomes an open four): a point on its lines near
        // it, a four of ours, or a stone that makes a three of ours, which
        // may make the point where we must block the four a four of ours,
        // so that the block gains the tempo. Leaving those stones out, the
        // search scored wins that were losses (tests/engine.rs,
        // `a_four_three_to_come_is_answered_from_afar`).
        let mut four_threes = [0usize; FOUR_THREES];
        let mut found = 0;
        if !caro && !open_three && self.pos.combo_count(opp, C_B4F3) > 0 {
            for i in self.pos.candidates() {
                if self.pos.combo(i, opp) == C_B4F3 {
                    if let Some(slot) = four_threes.get_mut(found) {
                        *slot = i;
                    }
                    found += 1;
                }
            }
        }
        // Past a few such points, no cheap answer list: search them all.
        let four_threes = if found <= FOUR_THREES {
            &four_threes[..found]
        } else {
            &[]
        };
        // Only a threat narrows the moves: without one, no candidate's
        // combination is read.
        let narrowed = open_three || !four_threes.is_empty();
        // The search's own foul test leaves overlines to the root; near a
        // full board, where every point left may be one, each judge's test
        // is made, so that a Black with only forbidden points left is seen
        // to have none (see `alphabeta`).
        let exact = ply == 0 || self.pos.empties() <= EXACT_FOULS_WITHIN;
        for i in self.pos.candidates() {
            if ply == 0
                && self
                    .root_filter
                    .as_ref()
                    .is_some_and(|keep| !keep.contains(&i))
            {
                continue;
            }
            if restricted
                && if exact {
                    !self.pos.may_play(i, me)
                } else {
                    self.pos.foul_in_search(i, me)
                }
            {
                continue;
            }
            let answers = || {
                let reaches = |c, least| self.pos.lines(i, c).iter().any(|&p| p >= least);
                self.pos.combo(i, me) >= C_B4
                    || if open_three {
                        reaches(opp, pattern::B4)
                    } else {
                        four_threes.iter().all(|&t| near_on_line(i, t)) || reaches(me, pattern::B3)
                    }
            };
            if narrowed && !answers() {
                continue;
            }
            let (vm, vo) = (self.pos.value(i, me), self.pos.value(i, opp));
            // No bonus for a killer or a countermove: put first, they
            // refuted less often than the point ranked by its worth (see
            // docs/engine-log.md, "Move order, measured").
            let score = if i == tt_move {
                i32::MAX
            } else {
                (vm * ATTACK_WEIGHT / 100 + vo) * 16 + self.history[me as usize - 1][i]
            };
            list.push((score, i as u16));
        }
        // A node without a forcing situation searches only its first few
        // moves: picking them costs less than sorting every candidate.
        if wanted > 0 && wanted < list.len() {
            list.select_nth_unstable_by_key(wanted - 1, descending);
            list[..wanted].sort_unstable_by_key(descending);
        } else {
            list.sort_unstable_by_key(descending);
        }
        list
    }
}

/// The key that sorts a move list best first, as the pairs compare: one
/// integer, one comparison (the sorts take a tenth of the search).
pub(super) fn descending(&(score, m): &(i32, u16)) -> std::cmp::Reverse<i64> {
    std::cmp::Reverse(i64::from(score) << 16 | i64::from(m))
}

/// In move order, a point's worth to the side to move (attack) in
/// hundredths of its worth to the opponent (defence).
const ATTACK_WEIGHT: i32 = 141;

/// The most four-three points of the opponent answered by their lines only.
const FOUR_THREES: usize = 4;

/// With this many empty points or fewer, Black's moves under renju are
/// judged by every judge's test below the root too: at most this many
/// walks a node, where the game nears its end.
const EXACT_FOULS_WITHIN: usize = 24;

/// Whether `a` is `b` or lies on one of its four lines within four points,
/// where a stone can still spoil a shape made at `b`.
fn near_on_line(a: usize, b: usize) -> bool {
    let d = a as isize - b as isize;
    d == 0
        || DIRS
            .iter()
            .any(|&step| d % step == 0 && (d / step).abs() <= 4)
}
