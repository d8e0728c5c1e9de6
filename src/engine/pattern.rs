//! Line patterns: what one more stone on a point makes along one line.
//!
//! A point's neighbourhood along a direction is the five cells on each side,
//! two bits each (empty, own stone, opponent stone, off the board): a 20-bit
//! *line code*. The table maps every code to the [`Pattern`] the own colour
//! gets by playing the centre. It is built once per rule, by a recursion
//! that defines each pattern by what one further stone makes (a four has one
//! point left that makes five, an open three one point that makes an open
//! four, ...), so it is exact for every shape that fits in the window,
//! including `exact`'s overlines and `caro`'s blocked fives.
//!
//! Codes are written from the mover's side (`1` = own); the other colour's
//! code is the same with `1` and `2` swapped, see [`swap`].

use std::sync::OnceLock;

use crate::rules::rule::Rule;

/// Cells on each side of the centre that a line code covers.
pub const HALF: usize = 5;
/// Bits in a line code.
pub const BITS: u32 = 4 * HALF as u32;

/// A cell in a line code or on the engine's board.
pub const EMPTY: u8 = 0;
/// The off-board sentinel.
pub const WALL: u8 = 3;

/// What a stone played on the centre makes in one line, weakest first.
pub type Pattern = u8;
/// Nothing to speak of.
pub const NONE: Pattern = 0;
/// One more stone makes an open two.
pub const F1: Pattern = 1;
/// One more stone makes a closed three.
pub const B2: Pattern = 2;
/// One more stone makes an open three.
pub const F2: Pattern = 3;
/// One more stone makes a four (a closed three).
pub const B3: Pattern = 4;
/// One more stone makes an open four (an open three, split or not).
pub const F3: Pattern = 5;
/// One point makes five (a four).
pub const B4: Pattern = 6;
/// Two or more points make five (an open four).
pub const F4: Pattern = 7;
/// A winning line under the rule.
pub const FIVE: Pattern = 8;
/// How many patterns there are.
pub const COUNT: usize = 9;

const UNSET: u8 = u8::MAX;

/// The slot (0..10) of the cell `k` steps from the centre, `k` in
/// `-5..=5` but not 0.
pub const fn slot(k: isize) -> u32 {
    if k < 0 {
        (k + HALF as isize) as u32
    } else {
        (k + HALF as isize - 1) as u32
    }
}

/// The same line seen by the other colour: own and opponent stones swapped.
pub const fn swap(code: u32) -> u32 {
    // A pair differs in its two bits exactly when it holds 1 or 2.
    let differ = (code ^ (code >> 1)) & 0x5_5555;
    code ^ (differ | (differ << 1))
}

/// The pattern table for `rule`, built on first use: for each line code
/// (indexed through [`Indexer`]),
/// the pattern of the own colour in the low four bits, of the opponent in
/// the high four (see [`own`] and [`theirs`]).
pub fn table(rule: Rule) -> &'static Table {
    static TABLES: [OnceLock<Box<Table>>; 4] = [const { OnceLock::new() }; 4];
    let index = match rule {
        Rule::Freestyle => 0,
        Rule::Exact => 1,
        Rule::Caro => 2,
        Rule::Renju => 3,
    };
    TABLES[index].get_or_init(|| build(rule))
}

/// A pattern table: an entry for every index an [`Indexer`] gives, so that
/// a lookup is in bounds by its type (it runs for every point a stone
/// changes).
pub type Table = [u8; TABLE_LEN];
/// The entries of a [`Table`]: one per line code.
const TABLE_LEN: usize = 1 << BITS;

/// Every code's pattern under `rule` for the colour written `1`; with
/// `inner`, only the codes whose outer cells are empty.
fn classify_all(rule: Rule, inner: bool) -> Box<[u8]> {
    let mut table = vec![UNSET; 1 << BITS].into_boxed_slice();
    // The recursion from a code with empty outer cells never fills one.
    let step = if inner { 4 } else { 1 };
    for code in (0..1u32 << BITS).step_by(step) {
        if code & 0xC_0003 == 0 || !inner {
            classify(code, rule, &mut table);
        }
    }
    table
}

fn build(rule: Rule) -> Box<Table> {
    if rule == Rule::Renju {
        return renju();
    }
    let black = classify_all(rule, rule == Rule::Freestyle);
    // Both colours in one byte: one memory access per line update.
    let packed = |code: u32| black[code as usize] | (black[swap(code) as usize] << 4);
    let mut entries = zeroed();
    if rule == Rule::Freestyle {
        // A five through the centre lies within four steps, so the outer
        // cells never matter: the entries read are 16 times fewer, and stay
        // in cache (the rest are never read).
        for (inner, entry) in (0..1u32 << (BITS - 4)).zip(entries.iter_mut()) {
            *entry = packed(inner << 2);
        }
    } else {
        for (code, entry) in (0..1u32 << BITS).zip(entries.iter_mut()) {
            *entry = packed(code);
        }
    }
    entries
}

/// Renju's table. Codes are written from Black's side: Black's shapes are
/// those of exact five (an overline is no five, nor a four), White's
/// those of freestyle; the forbidden points themselves are the search's
/// business, not a line's. So each entry is read from the two tables
/// already built, rather than classified again: a few milliseconds, where
/// classifying took tens, paid when a renju game is announced.
fn renju() -> Box<Table> {
    let (exact, free) = (table(Rule::Exact), table(Rule::Freestyle));
    let free_index = Indexer::new(Rule::Freestyle);
    let mut entries = zeroed();
    for (code, entry) in (0..1u32 << BITS).zip(entries.iter_mut()) {
        let white = theirs(free[free_index.index(code)]);
        *entry = own(exact[code as usize]) | (white << 4);
    }
    entries
}

/// A table of zeroes, zeroed by the allocator, not written: the entries a
/// freestyle table never reads stay pages the process never touches.
fn zeroed() -> Box<Table> {
    match vec![0; TABLE_LEN].into_boxed_slice().try_into() {
        Ok(entries) => entries,
        Err(_) => unreachable!("a vector of TABLE_LEN entries"),
    }
}

/// Where a line code sits in [`table`] under a rule, the rule's choice
/// made once: the board looks codes up in its innermost loop.
#[derive(Clone, Copy)]
pub struct Indexer {
    shift: u32,
    mask: u32,
}

impl Indexer {
    /// The indexer for `rule`'s table.
    pub const fn new(rule: Rule) -> Indexer {
        match rule {
            // The outer cells dropped (see `build`).
            Rule::Freestyle => Indexer {
                shift: 2,
                mask: 0xFFFF,
            },
            Rule::Exact | Rule::Caro | Rule::Renju => Indexer {
                shift: 0,
                mask: (1 << BITS) - 1,
            },
        }
    }

    /// How many steps from the centre the rule's table looks: 4 where it
    /// ignores the outer cells, else [`HALF`]. A stone further away never
    /// changes a point's pattern.
    pub const fn reach(self) -> usize {
        HALF - self.shift as usize / 2
    }

    /// The index of `code` in the rule's table.
    pub const fn index(self, code: u32) -> usize {
        ((code >> self.shift) & self.mask) as usize & (TABLE_LEN - 1)
    }
}

/// The pattern own stones get from a packed table entry.
pub const fn own(entry: u8) -> Pattern {
    entry & 15
}

/// The pattern the opponent's stones get from a packed table entry.
pub const fn theirs(entry: u8) -> Pattern {
    entry >> 4
}

fn cell(code: u32, k: isize) -> u8 {
    ((code >> (2 * slot(k))) & 3) as u8
}

/// Whether the own stone on the centre is part of a winning line (under
/// renju, as Black: the table takes White's from freestyle).
pub fn is_five(code: u32, rule: Rule) -> bool {
    let (left, right) = (reach(code, -1), reach(code, 1));
    let length = 1 + right + left;
    match rule {
        Rule::Freestyle => length >= 5,
        Rule::Exact | Rule::Renju => length == 5,
        Rule::Caro => {
            // A run of exactly five ends inside the window on both sides.
            length == 5 && !(cell(code, right + 1) == 2 && cell(code, -left - 1) == 2)
        }
    }
}

/// How many own stones run from the centre towards `sign` (±1).
fn reach(code: u32, sign: isize) -> isize {
    let mut n = 0;
    while n < HALF as isize && cell(code, sign * (n + 1)) == 1 {
        n += 1;
    }
    n
}

/// Whether the own stone on the centre makes six or more in a row.
pub fn makes_overline(code: u32) -> bool {
    1 + reach(code, -1) + reach(code, 1) >= 6
}

/// Whether the own stone on the centre makes two fours in this one line
/// under exact five, as `x.xxx.x` filled in the middle: two points that
/// make five, not the two ends of one straight four. Renju's double four
/// in one line, which the line's pattern ([`F4`]) does not tell from an
/// open four.
pub fn two_fours_in_line(code: u32) -> bool {
    if is_five(code, Rule::Exact) {
        return false;
    }
    let mut fives = 0u32;
    for k in (-(HALF as isize)..=HALF as isize).filter(|&k| k != 0) {
        if cell(code, k) == EMPTY && is_five(code | 1 << (2 * slot(k)), Rule::Exact) {
            fives |= 1 << (k + HALF as isize);
        }
    }
    // Two five points five apart close one run of four between them.
    let open = fives & (fives >> 5);
    fives.count_ones() - open.count_ones() >= 2
}

fn classify(code: u32, rule: Rule, table: &mut [u8]) -> Pattern {
    let known = table[code as usize];
    if known != UNSET {
        return known;
    }
    let pattern = if is_five(code, rule) {
        FIVE
    } else {
        let mut seen = [0u8; COUNT];
        for s in 0..2 * HALF as u32 {
            if (code >> (2 * s)) & 3 == 0 {
                seen[classify(code | 1 << (2 * s), rule, table) as usize] += 1;
            }
        }
        if seen[FIVE as usize] >= 2 {
            F4
        } else if seen[FIVE as usize] == 1 {
            B4
        } else if seen[F4 as usize] > 0 {
            F3
        } else if seen[B4 as usize] > 0 {
            B3
        } else if seen[F3 as usize] > 0 {
            F2
        } else if seen[B3 as usize] > 0 {
            B2
        } else if seen[F2 as usize] > 0 {
            F1
        } else {
            NONE
        }
    };
    table[code as usize] = pattern;
    pattern
}

#[cfg(test)]
mod tests {
    #[test]
    fn renju_entries_are_exact_five_for_black_and_freestyle_for_white() {
        // Classified afresh, every code, outer cells included.
        let black = classify_all(Rule::Exact, false);
        let white = classify_all(Rule::Freestyle, false);
        let renju = table(Rule::Renju);
        for code in 0..1u32 << BITS {
            let expected = black[code as usize] | (white[swap(code) as usize] << 4);
            assert_eq!(renju[code as usize], expected, "code {code:#x}");
        }
    }

    use super::*;

    /// Writes a line as text, `x` own, `o` opponent, `.` empty, `#` wall,
    /// centre excluded (ten characters).
    fn code(line: &str) -> u32 {
        let bytes = line.as_bytes();
        assert_eq!(bytes.len(), 10, "{line}");
        let mut code = 0;
        for (s, b) in bytes.iter().enumerate() {
            let v = match b {
                b'x' => 1,
                b'o' => 2,
                b'#' => 3,
                _ => 0,
            };
            code |= v << (2 * s);
        }
        code
    }

    #[test]
    fn shapes_get_their_patterns() {
        let cases = [
            ("...xx|xx...", Rule::Freestyle, FIVE),
            ("..xxx|xx...", Rule::Freestyle, FIVE),
            ("..x.x|xx...", Rule::Exact, B4),
            ("..x.x|xx...", Rule::Freestyle, F4),
            ("..xxx|xx...", Rule::Exact, NONE),
            ("...xx|xx...", Rule::Exact, FIVE),
            ("...ox|xxxo.", Rule::Caro, NONE),
            ("...ox|xxx#.", Rule::Caro, FIVE),
            ("....x|xx...", Rule::Freestyle, F4),
            ("...ox|xx...", Rule::Freestyle, B4),
            (".....|xx...", Rule::Freestyle, F3),
            ("....x|.x...", Rule::Freestyle, F3),
            ("....o|xx...", Rule::Freestyle, B3),
            (".....|x....", Rule::Freestyle, F2),
            (".....|.....", Rule::Freestyle, F1),
            ("#####|.....", Rule::Freestyle, NONE),
            ("#####|x....", Rule::Freestyle, B2),
            ("o....|o....", Rule::Freestyle, NONE),
        ];
        for (line, rule, want) in cases {
            let c = code(&line.replace('|', ""));
            assert_eq!(
                own(table(rule)[Indexer::new(rule).index(c)]),
                want,
                "{line} under {rule:?}"
            );
        }
    }

    /// Renju's fouls within one line, `|` the centre: two fours in one
    /// line (never an open four's two ends), and six or more.
    #[test]
    fn lines_tell_two_fours_in_one_line_and_overlines() {
        let cases = [
            // (line, two fours in it, overline)
            ("..x.x|x.x..", true, false),
            ("..xx.|x.x..", false, false),
            ("..xx.|x.xx.", true, false),
            ("....x|xx...", false, false),
            ("...ox|xx...", false, false),
            ("..xxx|xx...", false, true),
            ("...xx|xxx..", false, true),
            ("...xx|xx...", false, false),
            ("x.xx.|.....", false, false),
            ("o.x.x|x.x.o", true, false),
        ];
        for (line, two_fours, overline) in cases {
            let c = code(&line.replace('|', ""));
            assert_eq!(two_fours_in_line(c), two_fours, "{line}: two fours");
            assert_eq!(makes_overline(c), overline, "{line}: overline");
        }
    }

    #[test]
    fn swap_exchanges_colours_only() {
        for rule in Rule::ALL {
            for line in ["...xx|x.x..", "..o.x|xx.o.", "#####|xxx.."] {
                let c = code(&line.replace('|', ""));
                let t = table(rule);
                assert_eq!(
                    own(t[Indexer::new(rule).index(swap(c))]),
                    theirs(t[Indexer::new(rule).index(c)]),
                    "{line}"
                );
            }
        }
        let c = code("x.o#xo..#x");
        assert_eq!(swap(c), code("o.x#ox..#o"));
        assert_eq!(swap(swap(c)), c);
    }
}
