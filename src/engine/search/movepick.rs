//! Move picking: the moves worth searching at a node, best first.

use super::{MAX_PLY, MoveList, Search};
use crate::engine::eval::{C_B4, C_FIVE, C_FLEX4};
use crate::engine::pattern;
use crate::engine::position::other;
use crate::rules::rule::Rule;

impl Search<'_> {
    /// The moves worth searching at `ply`, best first, in `lists[ply]`.
    pub(super) fn ordered_moves(&mut self, ply: usize, tt_move: usize) -> MoveList {
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
}
