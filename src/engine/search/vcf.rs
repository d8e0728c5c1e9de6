//! The threat solvers' shared AND/OR search, and VCF: victory by
//! continuous fours.
//!
//! The attacker plays only moves that make a four (VCF) or, in VCT, also
//! open threes; the defender's replies are then few and known: a four
//! allows only its five point (or a five of the defender's own), an open
//! three only the points where the attacker would make a four, plus the
//! defender's own fours. That set is a superset of every useful defence, so
//! a win the solver reports is a real win. An open four, or two fours, wins
//! when the defender has no five to play first.
//!
//! Failed VCF positions are remembered per search (hash and depth) so the
//! transpositions of a long four sequence are not searched again.

use super::movepick::descending;
use super::{MoveList, Search, WIN};
use crate::engine::eval::{C_B4, C_B4F3, C_B4P, C_DF3, C_F3, C_F3P, C_FIVE, C_FLEX4};
use crate::engine::pattern;
use crate::engine::position::DIRS;
use crate::engine::position::{Colour, other};
use crate::rules::rule::Rule;

/// The plies of a win by continuous fours that [`Search::vcf`] finds at
/// `depth` and not below: each level a four and its block, then an open
/// four, its block and the five; under caro, where an open four is
/// searched as a four (it may still be stopped), the five ends it.
pub(super) const fn vcf_plies(depth: u32, rule: Rule) -> i32 {
    match rule {
        Rule::Caro => 2 * depth as i32 + 1,
        Rule::Freestyle | Rule::Exact | Rule::Renju => 2 * depth as i32 + 3,
    }
}

/// Size of the table of positions where VCF failed.
pub const FAIL_SLOTS: usize = 1 << 15;

/// The attacker's move kinds a solver tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threats {
    /// Fours only.
    Fours,
    /// Fours and open threes.
    FoursAndThrees,
}

impl Search<'_> {
    /// Whether the side to move wins by continuous fours within `depth` of
    /// its own moves. On success the first move is in `self.solved`.
    pub fn vcf(&mut self, depth: u32, ply: usize) -> bool {
        self.attack(depth, ply, Threats::Fours)
    }

    /// The attacker (the side to move) to play.
    pub(super) fn attack(&mut self, depth: u32, ply: usize, threats: Threats) -> bool {
        // Under caro a three can be stopped in more places than the
        // defence set below knows (beyond a future five point): threes are
        // not tried there, so a reported win stays a win; except when the
        // root looks for the opponent's threats, where overrating them
        // only makes the defence more careful.
        let threats = if self.pos.rule() == Rule::Caro && !self.threes_as_threat {
            Threats::Fours
        } else {
            threats
        };
        if self.tick() || ply + 2 >= self.lists.len() {
            return false;
        }
        self.seldepth = self.seldepth.max(ply);
        let me = self.pos.side();
        let opp = other(me);
        if let Some(f) = self.pos.five_point(me) {
            self.solved = Some(f);
            return true;
        }
        let opp_fives = self.pos.combo_count(opp, C_FIVE);
        if opp_fives >= 2 {
            return false;
        }
        if opp_fives == 1 {
            // The block is forced; it keeps the attack only if it is a
            // threat itself.
            let Some(f) = self.pos.five_point(opp) else {
                return false;
            };
            if !self.pos.may_play(f, me) {
                return false;
            }
            let combo = self.pos.combo(f, me);
            let useful = combo >= C_B4 || threats == Threats::FoursAndThrees;
            if depth == 0 || !useful {
                return false;
            }
            self.pos.play(f);
            let win = self.defend(depth - 1, ply + 1, threats);
            self.pos.undo();
            if win {
                self.solved = Some(f);
            }
            return win;
        }
        if let Some(f) = self.flex_four(me) {
            self.solved = Some(f);
            return true;
        }
        if depth == 0 {
            return false;
        }
        let key = self.pos.hash() ^ u64::from(threats == Threats::FoursAndThrees);
        if self.failed(key, depth) {
            return false;
        }
        let min = if threats == Threats::Fours || self.pos.combos_at_least(opp, C_FLEX4) > 0 {
            C_B4
        } else {
            C_F3
        };
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        for i in self.pos.candidates() {
            if self.pos.combo(i, me) >= min && !self.pos.foul_in_search(i, me) {
                // Ranked by the threat it makes: the two-move shapes on the
                // other lines are the evaluation's business.
                let combo = i32::from(match self.pos.combo(i, me) {
                    C_B4P => C_B4,
                    C_F3P => C_F3,
                    c => c,
                });
                list.push((
                    combo * 10_000 + self.pos.value(i, me) + self.pos.value(i, opp),
                    i as u16,
                ));
            }
        }
        list.sort_unstable_by_key(descending);
        let mut win = false;
        for &(_, m) in list.iter() {
            self.pos.play(usize::from(m));
            win = self.defend(depth - 1, ply + 1, threats);
            self.pos.undo();
            if win {
                self.solved = Some(usize::from(m));
                break;
            }
            if self.stopped {
                break;
            }
        }
        self.lists[ply] = list;
        // A search cut short by its cap proved nothing.
        if !win && !self.stopped {
            self.fail(key, depth);
        }
        win
    }

    /// The defender (the side to move) answers a threat; true if every
    /// answer still loses.
    fn defend(&mut self, depth: u32, ply: usize, threats: Threats) -> bool {
        if self.tick() || ply + 2 >= self.lists.len() {
            return false;
        }
        let me = self.pos.side();
        let att = other(me);
        if self.pos.combo_count(me, C_FIVE) > 0 {
            return false;
        }
        let att_fives = self.pos.combo_count(att, C_FIVE);
        if att_fives == 1 && self.pos.rule() != Rule::Caro {
            let Some(f) = self.pos.five_point(att) else {
                return false;
            };
            // Under renju a five Black may not stop is a win.
            if !self.pos.can_defend(f, me) {
                return true;
            }
            self.pos.play(f);
            let win = self.attack(depth, ply + 1, threats);
            self.pos.undo();
            return win;
        }
        if att_fives > 0 {
            // Every stop must lose (none: lost already).
            let mut list = std::mem::take(&mut self.lists[ply]);
            self.five_stoppers(att, &mut list);
            let all_lose = self.every_defence_loses(&list, depth, ply, threats);
            self.lists[ply] = list;
            return all_lose;
        }
        if threats == Threats::Fours || self.pos.combos_at_least(att, C_FLEX4) == 0 {
            return false;
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        // A point where either side makes a four has a stone within two:
        // a candidate.
        for i in self.pos.candidates() {
            let defends = self.pos.combo(i, me) >= C_B4
                || self.pos.lines(i, att).iter().any(|&p| p >= pattern::B4);
            let barred =
                || self.pos.restricted(me) && self.pos.might_be_foul(i) && self.pos.barred(i);
            if defends && !barred() {
                list.push((self.pos.value(i, att) + self.pos.value(i, me), i as u16));
            }
        }
        list.sort_unstable_by_key(descending);
        let all_lose = self.every_defence_loses(&list, depth, ply, threats);
        self.lists[ply] = list;
        all_lose
    }

    /// Whether the attacker, to move after each defence in `list`, still
    /// wins within `depth`: the defender's node is lost only if all are.
    fn every_defence_loses(
        &mut self,
        list: &MoveList,
        depth: u32,
        ply: usize,
        threats: Threats,
    ) -> bool {
        list.iter().all(|&(_, m)| {
            self.pos.play(usize::from(m));
            let win = self.attack(depth, ply + 1, threats);
            self.pos.undo();
            win
        })
    }

    /// The moves of the side to move after which `att` has no five point,
    /// into `list`. Outside caro that is the five point, if there is only
    /// one; under caro also a point just beyond a five that leaves it
    /// blocked at both ends, and one stone may stop two fives.
    pub(super) fn five_stoppers(&mut self, att: Colour, list: &mut MoveList) {
        list.clear();
        if self.pos.rule() != Rule::Caro {
            if self.pos.combo_count(att, C_FIVE) == 1 {
                if let Some(f) = self.pos.five_point(att) {
                    list.push((0, f as u16));
                }
            }
            return;
        }
        // The candidates: each five point, and the points just beyond the
        // run each five point would complete (a stone there may leave that
        // five blocked at both ends); each is then tried.
        let mut candidates = [0usize; 64];
        let mut n = 0;
        for f in self.pos.candidates() {
            if self.pos.combo(f, att) != C_FIVE {
                continue;
            }
            let mut add = |q: usize| {
                if n < candidates.len() && !candidates[..n].contains(&q) {
                    candidates[n] = q;
                    n += 1;
                }
            };
            add(f);
            for step in DIRS {
                for sign in [1, -1] {
                    let mut q = f.wrapping_add_signed(sign * step);
                    while self.pos.cell(q) == att {
                        q = q.wrapping_add_signed(sign * step);
                    }
                    if self.pos.cell(q) == pattern::EMPTY {
                        add(q);
                    }
                }
            }
        }
        for &q in &candidates[..n] {
            self.pos.play(q);
            let stopped = self.pos.combo_count(att, C_FIVE) == 0;
            self.pos.undo();
            if stopped {
                list.push((0, q as u16));
            }
        }
    }

    /// Whether the side to move, facing two or more five points, has lost.
    pub(super) fn fives_unstoppable(&mut self) -> bool {
        if self.pos.rule() != Rule::Caro {
            return true;
        }
        let att = other(self.pos.side());
        let mut list = MoveList::new();
        self.five_stoppers(att, &mut list);
        list.is_empty()
    }

    /// A point where `c` makes an open four or two fours, if any. Under
    /// caro there is no such shortcut (see [`Self::fives_unstoppable`]):
    /// `None`, and the move is searched as a four.
    pub(super) fn flex_four(&self, c: Colour) -> Option<usize> {
        if !self.has_flex_four(c) {
            return None;
        }
        self.pos
            .points
            .iter()
            .copied()
            .find(|&i| self.pos.cell(i) == pattern::EMPTY && self.pos.combo(i, c) >= C_FLEX4)
    }

    /// Whether [`Self::flex_four`] would find a point, without the scan for
    /// it: the counts hold empty points only.
    pub(super) fn has_flex_four(&self, c: Colour) -> bool {
        self.pos.rule() != Rule::Caro && self.pos.combos_at_least(c, C_FLEX4) > 0
    }

    /// The score of a node at `ply` that its threats already decide: a
    /// five to make (a win in one), two fives of the opponent's to stop
    /// (a loss in two), an open four to make against no five (a win in
    /// three), a four-three or three-three against no four (a win in
    /// five; not at the root, which plays it out, nor Black's under
    /// renju, see [`Self::two_threats_win`]). `None` if none does.
    pub(super) fn proved(&mut self, ply: usize) -> Option<i32> {
        let me = self.pos.side();
        let opp = other(me);
        let ply = ply as i32;
        if self.pos.combo_count(me, C_FIVE) > 0 {
            return Some(WIN - ply - 1);
        }
        let opp_fives = self.pos.combo_count(opp, C_FIVE);
        if opp_fives >= 2 && self.fives_unstoppable() {
            return Some(-(WIN - ply - 2));
        }
        if opp_fives == 1
            && self.pos.restricted(me)
            && self
                .pos
                .five_point(opp)
                .is_some_and(|f| !self.pos.can_defend(f, me))
        {
            return Some(-(WIN - ply - 2));
        }
        if opp_fives == 0 && self.has_flex_four(me) {
            return Some(WIN - ply - 3);
        }
        if ply > 0 && self.two_threats_win(me) {
            return Some(WIN - ply - 5);
        }
        None
    }

    /// Whether `c`, to move, wins by a four-three or a three-three: the
    /// opponent has no point that makes even a four, so it can neither stop
    /// both threats with one stone nor gain a tempo, and `c` makes an open
    /// four next move, then five (five plies in all). Not under caro, where
    /// an open four may still be stopped, nor for Black under renju: the
    /// point of its open four may be forbidden once the four is blocked,
    /// and a three's straight-four point may be forbidden beyond what the
    /// three's own point sees, so its four-three is played out instead.
    pub(super) fn two_threats_win(&self, c: Colour) -> bool {
        self.pos.rule() != Rule::Caro
            && !self.pos.restricted(c)
            && self.pos.combos_at_least(other(c), C_B4) == 0
            && (self.pos.combo_count(c, C_B4F3) > 0 || self.pos.combo_count(c, C_DF3) > 0)
    }

    fn failed(&self, key: u64, depth: u32) -> bool {
        let (k, d) = self.fails[key as usize % FAIL_SLOTS];
        k == key && d >= depth
    }

    fn fail(&mut self, key: u64, depth: u32) {
        self.fails[key as usize % FAIL_SLOTS] = (key, depth);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::C_B4F3;
    use crate::engine::limits::{Budget, Limits};
    use crate::engine::position::{CELLS, Position, index};
    use crate::engine::tt::Table;
    use crate::engine::{Spot, search::WIN};

    /// `mover`'s four-three on a 15×15 board under `rule`, `mover` to
    /// move: a row closed by the other colour and an open pair in a
    /// column, which the point (7, 7) makes a four and an open three.
    fn four_three(rule: Rule, mover: Colour) -> Position {
        let at = |x: u8, y: u8| index(Spot { x, y });
        let mut pos = Position::new(rule, 1, 15);
        for (x, y) in [(4, 7), (5, 7), (6, 7), (7, 8), (7, 9)] {
            pos.put(at(x, y), mover);
        }
        pos.put(at(3, 7), other(mover));
        pos.set_side(mover);
        assert_eq!(pos.combo(at(7, 7), mover), C_B4F3, "{rule:?}");
        pos
    }

    /// What [`Search::proved`] makes of a node one ply below the root.
    fn proved(pos: Position) -> Option<i32> {
        let mut tt = Table::new(1 << 16);
        let mut history = Box::new([[0; CELLS]; 2]);
        let budget = Budget::start(Limits {
            nodes: Some(1 << 16),
            ..Limits::default()
        });
        Search::new(pos, tt.shared(), &mut history, budget, None).proved(1)
    }

    /// A four-three against no four is a win proved unplayed, except
    /// Black's under renju: its open-four point may be forbidden once
    /// the four is blocked, so the search plays it out.
    #[test]
    fn blacks_four_three_under_renju_is_played_out_not_proved() {
        let win = Some(WIN - 1 - 5);
        assert_eq!(proved(four_three(Rule::Exact, 1)), win);
        assert_eq!(proved(four_three(Rule::Renju, 2)), win);
        assert_eq!(proved(four_three(Rule::Renju, 1)), None);
    }
}
