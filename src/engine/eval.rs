//! From line patterns to numbers: a point's *combination* (what playing it
//! makes across its four lines), its value for move ordering, and the
//! static evaluation, which is the sum of the values of every empty point
//! for the side to move minus that for the opponent.
//!
//! The values began hand-made, in the spirit of classical engines such as
//! Wine (threats count far more than shape), and were then tuned together
//! with the search's pruning margins by SPSA on games against Rapfi at
//! fixed node budgets (docs/engine-log.md, "Tuned by games against Rapfi"):
//! fitted to positions alone, the values predicted better and played
//! worse; tuned by games, within the search that uses them, they play
//! better.

use super::pattern::{self, Pattern};

/// What playing a point makes across its four lines, weakest first: the
/// point's threat level for one side.
///
/// Below an open three are the *two-move shapes*: lines a stone away from
/// a threat (an open two, which the next stone makes an open three, or a
/// closed three, which it makes a four). Two of them on one point is where
/// the next stone may make a double threat; the search keeps such points
/// apart from plain ones, and the evaluation may value them.
pub type Combo = u8;
/// No threat, and no line a move from one.
pub const C_NONE: Combo = 0;
/// One line a move from a threat (an open two or a closed three).
pub const C_F2: Combo = 1;
/// Two or more lines a move from a threat.
pub const C_DF2: Combo = 2;
/// One open three.
pub const C_F3: Combo = 3;
/// An open three and a line a move from a threat: the next stone there may
/// make a four-three or a three-three.
pub const C_F3P: Combo = 4;
/// Two open threes (wins unless the opponent has fours).
pub const C_DF3: Combo = 5;
/// One four: the opponent's reply is forced. Every combination from here up
/// makes a four.
pub const C_B4: Combo = 6;
/// A four and a line a move from a threat.
pub const C_B4P: Combo = 7;
/// A four and an open three.
pub const C_B4F3: Combo = 8;
/// An open four or two fours: wins unless the opponent makes five first.
pub const C_FLEX4: Combo = 9;
/// Five.
pub const C_FIVE: Combo = 10;
/// How many combinations there are.
pub const COMBOS: usize = 11;

/// The combination of four line patterns.
pub fn combo(lines: [Pattern; 4]) -> Combo {
    let mut count = [0u8; pattern::COUNT];
    for p in lines {
        count[p as usize] += 1;
    }
    let fours = count[pattern::B4 as usize];
    let threes = count[pattern::F3 as usize];
    let near = count[pattern::F2 as usize] + count[pattern::B3 as usize];
    if count[pattern::FIVE as usize] > 0 {
        C_FIVE
    } else if count[pattern::F4 as usize] > 0 || fours >= 2 {
        C_FLEX4
    } else if fours == 1 && threes > 0 {
        C_B4F3
    } else if fours == 1 && near > 0 {
        C_B4P
    } else if fours == 1 {
        C_B4
    } else if threes >= 2 {
        C_DF3
    } else if threes == 1 && near > 0 {
        C_F3P
    } else if threes == 1 {
        C_F3
    } else if near >= 2 {
        C_DF2
    } else if near == 1 {
        C_F2
    } else {
        C_NONE
    }
}

/// Combination and value for every four line patterns, indexed by
/// [`shape`]: both in one word (the value in the low 24 bits, the
/// combination above), so that a pattern change costs one memory access
/// per side, not two.
pub struct Shapes {
    /// Inline, not boxed: a lookup reads the entry, not first a pointer.
    entries: [u32; SHAPE_SLOTS],
}

/// The table's length: the shapes rounded up to a power of two, so that a
/// masked index is in bounds by its type (the lookup runs for every
/// pattern a stone changes).
const SHAPE_SLOTS: usize = pattern::COUNT.pow(4).next_power_of_two();

/// The index of four line patterns in [`Shapes`]: the patterns as the
/// digits of a base-[`pattern::COUNT`] number, the first the highest.
pub fn shape(lines: [Pattern; 4]) -> usize {
    // It runs twice for every point a stone changes: one multiplication,
    // not a chain of four. Each pattern is spread to a 16-bit lane; in the
    // product, the top lane sums each pattern times its digit's weight
    // (at most 8 × 820, under 2^13), and the lanes below it sum to less
    // than 2^46, so nothing carries into it.
    const N: u64 = pattern::COUNT as u64;
    const WEIGHTS: u64 = 1 | N << 16 | N.pow(2) << 32 | N.pow(3) << 48;
    let y = u64::from(u32::from_le_bytes(lines));
    let y = (y | y << 16) & 0x0000_FFFF_0000_FFFF;
    let y = (y | y << 8) & 0x00FF_00FF_00FF_00FF;
    (y.wrapping_mul(WEIGHTS) >> 48) as usize
}

/// The bits of a [`Shapes`] entry that hold the value.
const VALUE_BITS: u32 = 24;

impl Shapes {
    /// The table, built on first use.
    pub fn get() -> &'static Shapes {
        static SHAPES: std::sync::OnceLock<Shapes> = std::sync::OnceLock::new();
        SHAPES.get_or_init(|| {
            let mut entries = [0; SHAPE_SLOTS];
            for (i, entry) in entries.iter_mut().enumerate().take(pattern::COUNT.pow(4)) {
                *entry = Shapes::entry(i);
            }
            Shapes { entries }
        })
    }

    /// The packed entry of the shape `i`.
    fn entry(i: usize) -> u32 {
        let mut lines = [0; 4];
        let mut rest = i;
        for d in (0..4).rev() {
            lines[d] = (rest % pattern::COUNT) as Pattern;
            rest /= pattern::COUNT;
        }
        let c = combo(lines);
        // Every value is a sum of non-negative worths far below 2^24 (the
        // test below checks each one).
        let v = u32::try_from(value(lines, c)).unwrap_or(0);
        u32::from(c) << VALUE_BITS | v.min((1 << VALUE_BITS) - 1)
    }

    /// The combination and value of the shape `index`.
    pub fn at(&self, index: usize) -> (Combo, i32) {
        let entry = self.entries[index & (SHAPE_SLOTS - 1)];
        (
            (entry >> VALUE_BITS) as Combo,
            (entry & ((1 << VALUE_BITS) - 1)) as i32,
        )
    }
}

/// What one line pattern on an empty point is worth to the side that
/// could play there.
const LINE_VALUE: [i32; pattern::COUNT] = [0, 2, 2, 7, 8, 62, 89, 207, 2000];

/// Extra worth of a combination beyond its lines.
const COMBO_BONUS: [i32; COMBOS] = [0, 0, 20, 0, 41, 102, 0, 25, 312, 670, 2000];

/// The value of an empty point to one side, given its four line patterns
/// and their combination.
pub fn value(lines: [Pattern; 4], combo: Combo) -> i32 {
    lines.iter().map(|&p| LINE_VALUE[p as usize]).sum::<i32>() + COMBO_BONUS[combo as usize]
}

/// The side to move's point values in hundredths of the waiting side's:
/// it moves first, so its threats are worth more. (120 until the waiting
/// side's open three was valued below: together the two keep a score
/// from swinging with the depth's parity, see docs/engine-log.md, "Parity".)
const MOVER_WEIGHT: i32 = 115;

/// The largest static score; every proven win scores above it.
pub const EVAL_LIMIT: i32 = 20_000;

/// The threats a side has on the board, by kind: each is worth something
/// to the side to move beyond the points that make it up, for the side to
/// move plays one first, and the waiting side's must be answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    /// An open four or two fours to make: an open three (or its like) on
    /// the board.
    pub open_four: bool,
    /// A four to make with a line a move from a threat, or a four-three.
    pub four_plus: bool,
    /// A plain four to make.
    pub four: bool,
    /// An open three to make with a line a move from a threat, or two.
    pub three_plus: bool,
    /// A plain open three to make.
    pub three: bool,
}

impl Threats {
    /// The threats in a side's combination counts (indexed by [`Combo`]).
    pub fn of(counts: &[u16]) -> Threats {
        let has = |c: Combo| counts.get(c as usize).is_some_and(|&n| n > 0);
        Threats {
            open_four: has(C_FLEX4),
            four_plus: has(C_B4P) || has(C_B4F3),
            four: has(C_B4),
            three_plus: has(C_F3P) || has(C_DF3),
            three: has(C_F3),
        }
    }

    fn worth(self, values: [i32; 5]) -> i32 {
        [
            self.open_four,
            self.four_plus,
            self.four,
            self.three_plus,
            self.three,
        ]
        .iter()
        .zip(values)
        .map(|(&has, v)| if has { v } else { 0 })
        .sum()
    }
}

/// What the side to move's threats add to its score, in the order of
/// [`Threats`]' fields; tuned by games against Rapfi, as the point values
/// were. Its open three to make counts most: it is the threat it can turn
/// into a four-three or an open four at once. (An open four to make is a
/// win the search scores before any static score.)
const OWN_THREATS: [i32; 5] = [0, 33, 20, 18, 88];
/// What the waiting side's threats take from the side to move's score.
/// Two of the waiting side's add to it (the values are negative): a plain
/// four to make, whose points already count in the waiting side's sum and
/// which only forces a block; and an open four to make, whose two points
/// (some 900 each) count in full though the side to move blocks one at
/// once: past the horizon they would lift the side that has just moved,
/// and the score would swing with the depth's parity.
const OTHER_THREATS: [i32; 5] = [-800, 12, -33, 6, 4];

/// The static score for the side to move, from both sides' sums of point
/// values and their threats.
pub fn evaluate(own: i32, other: i32, own_threats: Threats, other_threats: Threats) -> i32 {
    let points = (own * MOVER_WEIGHT - other * 100) / 100;
    let threats = own_threats.worth(OWN_THREATS) - other_threats.worth(OTHER_THREATS);
    (points + threats).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index is the patterns read as a base-9 number, first digit
    /// highest, for every four patterns a point can have.
    #[test]
    fn a_shape_index_reads_the_patterns_as_digits() {
        for a in 0..pattern::COUNT as Pattern {
            for b in 0..pattern::COUNT as Pattern {
                for c in 0..pattern::COUNT as Pattern {
                    for d in 0..pattern::COUNT as Pattern {
                        let digits = [a, b, c, d]
                            .iter()
                            .fold(0, |n, &p| n * pattern::COUNT + usize::from(p));
                        assert_eq!(shape([a, b, c, d]), digits, "{a} {b} {c} {d}");
                    }
                }
            }
        }
    }

    /// The packed table gives back, for every four line patterns, the
    /// combination and the value worked out directly: no value is cut
    /// off by the 24 bits it is kept in.
    #[test]
    fn every_shape_keeps_its_combination_and_value() {
        let shapes = Shapes::get();
        let mut n = 0;
        for a in 0..pattern::COUNT as Pattern {
            for b in 0..pattern::COUNT as Pattern {
                for c in 0..pattern::COUNT as Pattern {
                    for d in 0..pattern::COUNT as Pattern {
                        let lines = [a, b, c, d];
                        let want = combo(lines);
                        assert_eq!(shapes.at(shape(lines)), (want, value(lines, want)));
                        n += 1;
                    }
                }
            }
        }
        assert_eq!(n, pattern::COUNT.pow(4));
        // The last index is the strongest shape: a five on every line.
        assert_eq!(shapes.at(pattern::COUNT.pow(4) - 1).0, C_FIVE);
    }

    /// An open four the waiting side could make (an open three on the
    /// board) is read from the combination counts, and counts for the
    /// side to move, which blocks it first; an open four of the side to
    /// move's own adds nothing (the search scores it as a win before).
    #[test]
    fn the_waiting_sides_open_three_counts_for_the_side_to_move() {
        let mut counts = [0u16; COMBOS];
        counts[C_FLEX4 as usize] = 2;
        let open = Threats::of(&counts);
        assert_eq!(
            open,
            Threats {
                open_four: true,
                ..Threats::default()
            }
        );
        let none = Threats::default();
        let even = evaluate(3000, 3000, none, none);
        assert_eq!(evaluate(3000, 3000, none, open) - even, 800);
        assert_eq!(evaluate(3000, 3000, open, none), even);
        // The side to move's points count 115/100 of the waiting side's.
        assert_eq!(even, 450);
    }
}
