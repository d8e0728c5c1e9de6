//! The engine's own board, kept up to date incrementally.
//!
//! Points live in a padded 1-D array laid out for the largest board
//! ([`MAX_SIZE`]), five sentinel cells around it, shared between
//! neighbouring rows; a smaller board takes the low corner and the rest is
//! wall. So a line walk never checks bounds, whatever the size. Each
//! point keeps, per direction, its 20-bit line code (see [`pattern`]), and
//! from it its line patterns, combination and value for both colours.
//! Playing a stone touches only the 40 points within five steps along its
//! four lines (32 within four under a rule whose patterns look no further),
//! the candidate bits of the 5×5 square around it (one word per row) and
//! the Zobrist hash; it keeps what it changed on a stack, so taking the stone
//! back flips the codes and restores the rest without a table lookup.
//!
//! This is half of the search's time, so it is written for speed: the
//! per-point arrays and the tables read in the update have a power-of-two
//! length and are indexed through a mask, so the update checks no bounds;
//! and it first updates every code and notes, without a branch, which
//! empty points' patterns change, then works out those alone.
//!
//! Invariants: `sum` and `combos` count exactly the empty on-board points;
//! every on-board point's patterns match its line codes, occupied or not,
//! and the cells of those codes that the rule's table reads match the
//! board; a point's candidate bit is set exactly when it is empty and
//! within two points of a stone;
//! the change stack holds, for each move played, the former state of the
//! points it changed, and one mark per move.

use super::eval::{self, COMBOS, Combo};
use super::pattern::{self, EMPTY, Pattern, WALL};
use crate::rules::renju::{self, Cell, Foul, Reading, Stones};
use crate::rules::rule::Rule;

/// The smallest board side the engine plays on.
pub const MIN_SIZE: u8 = 5;
/// The largest board side the engine plays on (Gomocup's boards go to 22).
pub const MAX_SIZE: u8 = 22;
/// Sentinel cells around the board (and between rows).
const PAD: usize = pattern::HALF;
/// The array's row stride.
pub const WIDTH: usize = MAX_SIZE as usize + PAD;
/// Cells in the array.
pub const CELLS: usize = WIDTH * (MAX_SIZE as usize + 2 * PAD + 1);
/// Rows in the array.
const ROWS: usize = CELLS / WIDTH;
/// The per-point arrays' length: [`CELLS`] rounded up to a power of two,
/// so that an index masked with [`SLOT_MASK`] is in bounds by its type and
/// the line walks that run for every stone check no bounds.
const SLOTS: usize = CELLS.next_power_of_two();
const SLOT_MASK: usize = SLOTS - 1;
/// The combination counts' length: [`COMBOS`] rounded up the same way.
const COMBO_SLOTS: usize = COMBOS.next_power_of_two();
/// Steps along the four line directions.
pub const DIRS: [isize; 4] = [1, WIDTH as isize, WIDTH as isize + 1, WIDTH as isize - 1];

/// A colour as stored on the board: 1 black, 2 white.
pub type Colour = u8;

/// The other colour.
pub const fn other(c: Colour) -> Colour {
    3 - c
}

/// A point of the engine's board: zero-based column `x` and row `y`. The
/// engine has no up or down (every rule is symmetric), so each caller keeps
/// its own orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Spot {
    /// Zero-based column.
    pub x: u8,
    /// Zero-based row.
    pub y: u8,
}

/// The array index of `s` (on a board of any size up to [`MAX_SIZE`]).
pub const fn index(s: Spot) -> usize {
    (s.y as usize + PAD) * WIDTH + s.x as usize + PAD
}

/// The spot at array index `i`, if it is within the largest board.
pub fn spot(i: usize) -> Option<Spot> {
    let (r, c) = (i / WIDTH, i % WIDTH);
    let x = u8::try_from(c.checked_sub(PAD)?).ok()?;
    let y = u8::try_from(r.checked_sub(PAD)?).ok()?;
    (x < MAX_SIZE && y < MAX_SIZE).then_some(Spot { x, y })
}

/// The king-move distance between array indices `a` and `b`: the larger
/// of the column and row differences.
pub const fn distance(a: usize, b: usize) -> usize {
    let (ar, ac) = (a / WIDTH, a % WIDTH);
    let (br, bc) = (b / WIDTH, b % WIDTH);
    let (dr, dc) = (ar.abs_diff(br), ac.abs_diff(bc));
    if dr > dc { dr } else { dc }
}

const fn zobrist() -> [[u64; CELLS]; 2] {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            keys[c][i] = z ^ (z >> 31);
            i += 1;
        }
        c += 1;
    }
    keys
}

static ZOBRIST: [[u64; CELLS]; 2] = zobrist();

/// The points a stone changes on each line, out to `N / 2` steps: for
/// each neighbour `j` steps away (`j` in ±1 ..= ±`N / 2`), `j` and the
/// shift of the stone's cell in the neighbour's line code (the neighbour
/// sees the stone `-j` steps away). Worked out once, not in the loop that
/// runs for every stone.
const fn neighbours<const N: usize>() -> [(isize, u32); N] {
    let reach = (N / 2) as isize;
    let mut n = [(0, 0); N];
    let mut k = 0;
    while k < N {
        let j = if (k as isize) < reach {
            k as isize - reach
        } else {
            k as isize - reach + 1
        };
        n[k] = (j, 2 * pattern::slot(-j));
        k += 1;
    }
    n
}

/// Every point whose line code holds the stone's cell.
const NEIGHBOURS: [(isize, u32); 2 * PAD] = neighbours();
/// The points within four steps: all a rule whose table ignores a code's
/// outer cells needs (see [`pattern::Indexer::reach`]).
const INNER: [(isize, u32); 2 * PAD - 2] = neighbours();
/// The offsets of the points on the four lines through a point, out to
/// [`PAD`] steps, line by line and each from one end: one flat walk, not a
/// walk per line (it runs at every node of the quiescence).
const LINE_OFFSETS: [isize; DIRS.len() * 2 * PAD] = {
    let mut offsets = [0; DIRS.len() * 2 * PAD];
    let mut n = 0;
    while n < offsets.len() {
        offsets[n] = NEIGHBOURS[n % NEIGHBOURS.len()].0 * DIRS[n / NEIGHBOURS.len()];
        n += 1;
    }
    offsets
};
/// Room for every point a stone touches (40), rounded up to a power of two
/// so that a masked index is in bounds by its type.
const TOUCHED: usize = (DIRS.len() * 2 * PAD).next_power_of_two();

/// Per point: line codes, patterns per colour and direction, combination
/// and value per colour. The codes are kept up to date for every point;
/// the rest for empty points only: a stone's point holds what it held when
/// the stone was played, which is what it must hold again once the stone is
/// taken back.
#[derive(Clone, Copy, Default)]
struct Info {
    code: [u32; 4],
    lines: [[Pattern; 4]; 2],
    combo: [Combo; 2],
    value: [i32; 2],
}

/// A point's patterns, combinations and values before a stone changed
/// them, kept so that taking the stone back restores them instead of
/// working them out again.
#[derive(Clone, Copy)]
struct Change {
    point: u16,
    lines: [[Pattern; 4]; 2],
    combo: [Combo; 2],
    value: [i32; 2],
}

/// What a move changed beyond single points: the sums and counts before
/// it, and where its changes begin on the stack.
#[derive(Clone, Copy)]
struct Mark {
    sum: [i32; 2],
    combos: [[u16; COMBO_SLOTS]; 2],
    changes: u32,
    /// The candidate rows the move's 5×5 square covers.
    candidates: [u32; 5],
}

/// The set bits of candidate rows, as array indices: see
/// [`Position::candidates`].
pub struct Candidates<'a> {
    rows: &'a [u32],
    row: usize,
    bits: u32,
}

impl Iterator for Candidates<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.row += 1;
            self.bits = *self.rows.get(self.row)?;
        }
        let column = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(self.row * WIDTH + column)
    }
}

/// The incremental board.
#[derive(Clone)]
pub struct Position {
    cell: Box<[u8; SLOTS]>,
    info: Box<[Info; SLOTS]>,
    /// Per array row, a bit per column: the empty on-board points.
    empty: [u32; ROWS],
    /// Per array row, a bit per column: the candidates, empty points
    /// within two of a stone. Move generation walks their set bits, not
    /// every point of the area.
    candidates: [u32; ROWS],
    sum: [i32; 2],
    combos: [[u16; COMBO_SLOTS]; 2],
    hash: u64,
    side: Colour,
    moves: Vec<usize>,
    /// The stones' bounding box after each move: (first row, last row,
    /// first column, last column) in array coordinates.
    boxes: Vec<[usize; 4]>,
    /// The points each move changed, oldest move first.
    changes: Vec<Change>,
    /// One mark per move played.
    marks: Vec<Mark>,
    table: &'static pattern::Table,
    indexer: pattern::Indexer,
    shapes: &'static eval::Shapes,
    rule: Rule,
    size: usize,
    /// Every on-board index, row by row, for scans.
    pub points: Vec<usize>,
}

impl Position {
    /// An empty board of `size` × `size` (clamped to [`MIN_SIZE`] ..=
    /// [`MAX_SIZE`]) under `rule`, with `side` to move.
    pub fn new(rule: Rule, side: Colour, size: u8) -> Position {
        let size = size.clamp(MIN_SIZE, MAX_SIZE);
        let mut cell = Box::new([WALL; SLOTS]);
        let points: Vec<usize> = (0..size)
            .flat_map(|y| (0..size).map(move |x| index(Spot { x, y })))
            .collect();
        let count = points.len();
        for &i in &points {
            cell[i] = EMPTY;
        }
        let mut pos = Position {
            cell,
            info: Box::new([Info::default(); SLOTS]),
            empty: [0; ROWS],
            candidates: [0; ROWS],
            sum: [0; 2],
            combos: [[0; COMBO_SLOTS]; 2],
            hash: 0,
            side,
            moves: Vec::with_capacity(count),
            boxes: Vec::with_capacity(count),
            // A stone changes at most the 40 points on its lines: room for
            // a full board, so a search never allocates.
            changes: Vec::with_capacity(count * DIRS.len() * 2 * PAD),
            marks: Vec::with_capacity(count),
            table: pattern::table(rule),
            indexer: pattern::Indexer::new(rule),
            shapes: eval::Shapes::get(),
            rule,
            size: usize::from(size),
            points,
        };
        for n in 0..pos.points.len() {
            let i = pos.points[n];
            pos.empty[i / WIDTH] |= 1 << (i % WIDTH);
            for d in 0..DIRS.len() {
                pos.info[i].code[d] = pos.line_code(i, d);
            }
            pos.refresh(i);
            pos.count(i, 1);
        }
        pos
    }

    /// The rule.
    pub const fn rule(&self) -> Rule {
        self.rule
    }

    /// The board's side.
    pub const fn size(&self) -> usize {
        self.size
    }

    /// Whether every point holds a stone.
    pub fn is_full(&self) -> bool {
        self.moves.len() >= self.points.len()
    }

    /// Whether `s` is on this board.
    pub fn contains(&self, s: Spot) -> bool {
        usize::from(s.x) < self.size && usize::from(s.y) < self.size
    }

    /// The colour to move.
    pub const fn side(&self) -> Colour {
        self.side
    }

    /// The Zobrist hash of the stones and the side to move.
    pub const fn hash(&self) -> u64 {
        self.hash ^ self.side as u64
    }

    /// What [`Self::hash`] will be once the side to move has played `i`.
    pub fn hash_after(&self, i: usize) -> u64 {
        self.hash ^ ZOBRIST[self.side as usize - 1][i] ^ other(self.side) as u64
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.moves.len()
    }

    /// How many points are still empty.
    pub fn empties(&self) -> usize {
        self.points.len().saturating_sub(self.moves.len())
    }

    /// Whether `c` may play some empty point of the board, by every
    /// judge (see [`Self::may_play`]).
    pub fn can_move(&self, c: Colour) -> bool {
        self.points
            .iter()
            .any(|&i| self.cell(i) == EMPTY && self.may_play(i, c))
    }

    /// The moves played since the empty board, in order.
    pub fn moves(&self) -> &[usize] {
        &self.moves
    }

    /// The on-board points within two of the stones' bounding box, row by
    /// row: every candidate is among them.
    pub fn area(&self) -> impl Iterator<Item = usize> + use<> {
        let (rows, columns) = self.area_bounds();
        rows.flat_map(move |r| r * WIDTH + columns.start..r * WIDTH + columns.end)
    }

    /// The array rows and columns of [`Self::area`].
    fn area_bounds(&self) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let [r0, r1, c0, c1] = self.boxes.last().copied().unwrap_or([1, 0, 1, 0]);
        // Half-open ranges: an inclusive range iterates more slowly.
        let (first, end) = (PAD, PAD + self.size);
        let rows = r0.saturating_sub(2).max(first)..(r1 + 3).min(end);
        let columns = c0.saturating_sub(2).max(first)..(c1 + 3).min(end);
        (rows, columns)
    }

    /// What stands on cell `i`.
    pub fn cell(&self, i: usize) -> u8 {
        self.cell[i]
    }

    /// Whether `i` is empty and within two points of a stone.
    pub fn is_candidate(&self, i: usize) -> bool {
        self.candidates[i / WIDTH] >> (i % WIDTH) & 1 != 0
    }

    /// The candidates (empty points within two of a stone), row by row:
    /// the points of [`Self::area`] that [`Self::is_candidate`] keeps,
    /// in the same order, without a look at the others.
    pub fn candidates(&self) -> Candidates<'_> {
        // An empty area (no stone yet) reads no row.
        let (rows, _) = self.area_bounds();
        let end = rows.end.max(rows.start);
        Candidates {
            rows: &self.candidates[..end],
            row: rows.start,
            bits: self.candidates[..end].get(rows.start).copied().unwrap_or(0),
        }
    }

    /// How many candidates there are (see [`Self::candidates`]).
    pub fn candidate_count(&self) -> usize {
        let (rows, _) = self.area_bounds();
        self.candidates
            .get(rows)
            .map_or(0, |rows| rows.iter().map(|r| r.count_ones() as usize).sum())
    }

    /// The combination `c` gets by playing the empty point `i`.
    pub fn combo(&self, i: usize, c: Colour) -> Combo {
        self.info[i].combo[c as usize - 1]
    }

    /// The line patterns `c` gets by playing `i`.
    pub fn lines(&self, i: usize, c: Colour) -> [Pattern; 4] {
        self.info[i].lines[c as usize - 1]
    }

    /// The value of `i` to `c`.
    pub fn value(&self, i: usize, c: Colour) -> i32 {
        self.info[i].value[c as usize - 1]
    }

    /// How many empty points give `c` the combination `combo`.
    pub fn combo_count(&self, c: Colour, combo: Combo) -> u16 {
        self.combos[c as usize - 1][combo as usize & (COMBO_SLOTS - 1)]
    }

    /// How many empty points give `c` at least `combo`.
    pub fn combos_at_least(&self, c: Colour, combo: Combo) -> u32 {
        self.combos[c as usize - 1][usize::from(combo).min(COMBOS)..COMBOS]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// The static score for the side to move.
    pub fn evaluate(&self) -> i32 {
        let s = self.side as usize - 1;
        eval::evaluate(
            self.sum[s],
            self.sum[1 - s],
            eval::Threats::of(&self.combos[s]),
            eval::Threats::of(&self.combos[1 - s]),
        )
    }

    /// An empty point where `c` makes five, if any.
    pub fn five_point(&self, c: Colour) -> Option<usize> {
        let count = self.combo_count(c, eval::C_FIVE);
        if count == 0 {
            return None;
        }
        // A lone five point is most often on a line through the last
        // stone: a walk of 40 points finds it without scanning the board
        // (with more than one, the scan keeps the first in board order).
        if let (1, Some(&last)) = (count, self.moves.last()) {
            if let (Some(f), _) = self.five_points_near(last, c) {
                return Some(f);
            }
        }
        // A five point has a stone beside it on its line: a candidate.
        self.candidates()
            .find(|&i| self.combo(i, c) == eval::C_FIVE)
    }

    /// The empty points on the four lines through `i`, as far as a stone
    /// at `i` reaches into their patterns: line by line, each from one end.
    pub fn empty_on_lines(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        LINE_OFFSETS
            .iter()
            .map(move |&o| i.wrapping_add_signed(o))
            .filter(|&q| self.cell[q & SLOT_MASK] == EMPTY)
    }

    /// Five points of `c` on the lines through `i`, found by a short walk:
    /// the first, and whether there is another.
    pub fn five_points_near(&self, i: usize, c: Colour) -> (Option<usize>, bool) {
        let mut first = None;
        for q in self.empty_on_lines(i) {
            if self.combo(q, c) == eval::C_FIVE {
                match first {
                    None => first = Some(q),
                    Some(f) if f != q => return (first, true),
                    Some(_) => {}
                }
            }
        }
        (first, false)
    }

    /// Plays the side to move's stone on the empty point `i`.
    pub fn play(&mut self, i: usize) {
        let c = self.side;
        let r = i / WIDTH;
        let mut square = [0; 5];
        square.copy_from_slice(&self.candidates[r - 2..=r + 2]);
        self.marks.push(Mark {
            sum: self.sum,
            combos: self.combos,
            changes: self.changes.len() as u32,
            candidates: square,
        });
        self.count(i, -1);
        self.cell[i] = c;
        self.hash ^= ZOBRIST[c as usize - 1][i];
        if self.indexer.reach() < PAD {
            self.touch(i, c, &INNER);
        } else {
            self.touch(i, c, &NEIGHBOURS);
        }
        self.empty[r] &= !(1 << (i % WIDTH));
        // Every on-board point's column is at least PAD: the square's
        // shift never goes negative.
        let square = 0b11111 << (i % WIDTH - 2);
        for q in r - 2..=r + 2 {
            self.candidates[q] = (self.candidates[q] | square) & self.empty[q];
        }
        self.moves.push(i);
        let (r, col) = (i / WIDTH, i % WIDTH);
        let b = self.boxes.last().copied().unwrap_or([r, r, col, col]);
        self.boxes
            .push([b[0].min(r), b[1].max(r), b[2].min(col), b[3].max(col)]);
        self.side = other(c);
    }

    /// Takes back the last stone.
    pub fn undo(&mut self) {
        let Some(i) = self.moves.pop() else {
            return;
        };
        self.boxes.pop();
        let c = self.cell[i];
        self.cell[i] = EMPTY;
        self.hash ^= ZOBRIST[c as usize - 1][i];
        if self.indexer.reach() < PAD {
            self.untouch(i, c, &INNER);
        } else {
            self.untouch(i, c, &NEIGHBOURS);
        }
        self.empty[i / WIDTH] |= 1 << (i % WIDTH);
        self.side = c;
    }

    /// Plays a stone of colour `c` on the empty point `i`, whoever is to
    /// move; the other colour is then to move.
    pub fn put(&mut self, i: usize, c: Colour) {
        self.side = c;
        self.play(i);
    }

    /// Sets the colour to move.
    pub fn set_side(&mut self, c: Colour) {
        self.side = c;
    }

    /// Puts colour `c` at `i` into the codes of the points around it on
    /// its lines (`near`: 40 of them, or the 32 within four steps where the
    /// rule's patterns never see further; the outer cells of their codes
    /// then stay as the empty board had them), and works out the empty
    /// ones' patterns again, keeping each changed point's former state for
    /// [`Self::untouch`]. A fixed-length `near` keeps the loop's bound a
    /// constant.
    fn touch<const N: usize>(&mut self, i: usize, c: Colour, near: &[(isize, u32); N]) {
        // First every code, and which empty points' patterns change, with
        // no branch on either: whether a point is empty or its pattern
        // changes follows no order a branch predictor could learn, and
        // each wrong guess cost more than the work of a point. Each
        // point is on one line through the stone, so they are distinct.
        let mut changed = [(0u16, 0u8, 0u8); TOUCHED];
        let mut count = 0;
        for (d, &step) in DIRS.iter().enumerate() {
            for &(j, shift) in near {
                let q = i.wrapping_add_signed(j * step) & SLOT_MASK;
                // Every point's codes, walls' included, and undo takes
                // them back the same way.
                let code = self.info[q].code[d] ^ (u32::from(c) << shift);
                self.info[q].code[d] = code;
                let entry = self.table[self.indexer.index(code)];
                let lines = self.info[q].lines;
                // A stone's point needs no patterns while it stands: stones
                // come off in the reverse order, so when it is empty again
                // every stone it did not see is gone.
                let differs =
                    (lines[0][d] != pattern::own(entry)) | (lines[1][d] != pattern::theirs(entry));
                let slot = count & (TOUCHED - 1);
                changed[slot] = (q as u16, d as u8, entry);
                count += usize::from(differs & (self.cell[q] == EMPTY));
            }
        }
        for &(q, d, entry) in &changed[..count.min(TOUCHED)] {
            let q = usize::from(q) & SLOT_MASK;
            let (own, theirs) = (pattern::own(entry), pattern::theirs(entry));
            let lines = self.info[q].lines;
            // Worked out in registers and written back whole, each side's
            // four patterns as one word: writing one pattern byte and then
            // reading its array stalls on store forwarding.
            let shift = 8 * u32::from(d);
            let mask = !(0xFF << shift);
            let set = |line: [Pattern; 4], p: Pattern| {
                ((u32::from_le_bytes(line) & mask) | u32::from(p) << shift).to_le_bytes()
            };
            let lines = [set(lines[0], own), set(lines[1], theirs)];
            let (c0, v0) = self.black_shape(q, lines[0], self.shapes.at(eval::shape(lines[0])));
            let (c1, v1) = self.shapes.at(eval::shape(lines[1]));
            let info = &mut self.info[q];
            let (old_combo, old_value) = (info.combo, info.value);
            self.changes.push(Change {
                point: q as u16,
                lines: info.lines,
                combo: old_combo,
                value: old_value,
            });
            info.lines = lines;
            info.combo = [c0, c1];
            info.value = [v0, v1];
            self.sum[0] += v0 - old_value[0];
            self.sum[1] += v1 - old_value[1];
            let changes = [(old_combo[0], c0), (old_combo[1], c1)];
            for (n, (was, now)) in self.combos.iter_mut().zip(changes) {
                let (was, now) = (
                    was as usize & (COMBO_SLOTS - 1),
                    now as usize & (COMBO_SLOTS - 1),
                );
                n[was] = n[was].wrapping_sub(1);
                n[now] = n[now].wrapping_add(1);
            }
        }
    }

    /// Takes colour `c` at `i` back out of the codes of the points `near`
    /// it, as [`Self::touch`] put it in, and puts back what playing it
    /// changed.
    fn untouch<const N: usize>(&mut self, i: usize, c: Colour, near: &[(isize, u32); N]) {
        for (d, &step) in DIRS.iter().enumerate() {
            for &(j, shift) in near {
                let q = i.wrapping_add_signed(j * step) & SLOT_MASK;
                self.info[q].code[d] ^= u32::from(c) << shift;
            }
        }
        let Some(mark) = self.marks.pop() else {
            return;
        };
        for change in self.changes.drain(mark.changes as usize..).rev() {
            let info = &mut self.info[usize::from(change.point) & SLOT_MASK];
            info.lines = change.lines;
            info.combo = change.combo;
            info.value = change.value;
        }
        self.sum = mark.sum;
        self.combos = mark.combos;
        let r = i / WIDTH;
        self.candidates[r - 2..=r + 2].copy_from_slice(&mark.candidates);
    }

    /// The line code of `i` along direction `d`, read off the board.
    fn line_code(&self, i: usize, d: usize) -> u32 {
        let mut code = 0;
        for k in -(PAD as isize)..=PAD as isize {
            if k != 0 {
                let q = i.wrapping_add_signed(k * DIRS[d]);
                code |= u32::from(self.cell[q]) << (2 * pattern::slot(k));
            }
        }
        code
    }

    fn count(&mut self, i: usize, sign: i32) {
        let info = self.info[i];
        for s in 0..2 {
            self.sum[s] += sign * info.value[s];
            let n = &mut self.combos[s][info.combo[s] as usize & (COMBO_SLOTS - 1)];
            *n = n.wrapping_add_signed(sign as i16);
        }
    }

    fn refresh(&mut self, i: usize) {
        for d in 0..4 {
            self.refresh_line(i, d);
        }
    }

    fn refresh_line(&mut self, i: usize, d: usize) {
        let info = &mut self.info[i];
        let entry = self.table[self.indexer.index(info.code[d])];
        info.lines[0][d] = pattern::own(entry);
        info.lines[1][d] = pattern::theirs(entry);
        let lines = info.lines;
        let black = self.black_shape(i, lines[0], self.shapes.at(eval::shape(lines[0])));
        let info = &mut self.info[i];
        info.combo[0] = black.0;
        info.value[0] = black.1;
        (info.combo[1], info.value[1]) = self.shapes.at(eval::shape(lines[1]));
    }

    /// Black's combination and value at the empty point `i`, given those
    /// of its line patterns `lines`: under renju, none at a forbidden
    /// point, which is no move of Black's. Only the combinations a foul
    /// can hide behind (two threes, a four with more, two fours or an open
    /// four) are looked at; a foul that depends on stones further away
    /// than the point's line codes reach is found at the root alone (see
    /// [`Self::shunned`]).
    #[inline(always)]
    fn black_shape(
        &self,
        i: usize,
        lines: [Pattern; 4],
        (combo, value): (eval::Combo, i32),
    ) -> (eval::Combo, i32) {
        let suspect = combo == eval::C_DF3 || (eval::C_B4F3..eval::C_FIVE).contains(&combo);
        if self.rule != Rule::Renju || !suspect {
            return (combo, value);
        }
        self.suspect_black_shape(i, lines, (combo, value))
    }

    /// [`Self::black_shape`] where the combination might hide a foul: out
    /// of line, as it is rare and the common case runs for every point a
    /// stone changes.
    #[inline(never)]
    fn suspect_black_shape(
        &self,
        i: usize,
        lines: [Pattern; 4],
        (combo, value): (eval::Combo, i32),
    ) -> (eval::Combo, i32) {
        if self.black_foul(i, lines) {
            return (eval::C_NONE, 0);
        }
        if combo == eval::C_DF3 {
            // Two threes and no foul: at most one of them is real, the
            // others' straight-four points being forbidden. Taken for a
            // double three, it would be a win the search proves without
            // playing it out; each three past the first counts as what it
            // is, a line one stone from a four.
            let mut threes = 0;
            let lines = lines.map(|p| {
                threes += u8::from(p == pattern::F3);
                if p == pattern::F3 && threes > 1 {
                    pattern::B3
                } else {
                    p
                }
            });
            return self.shapes.at(eval::shape(lines));
        }
        (combo, value)
    }

    /// Whether Black may not play the empty point `i`, whose line patterns
    /// are `lines`, by two fours, an overline, two fours in one line or
    /// two threes. Every stone play re-judges the points whose patterns
    /// changed, so all but the last are read off the line codes; only two
    /// threes walk the board, as whether a three is real depends on the
    /// legality of its straight-four points in turn.
    fn black_foul(&self, i: usize, lines: [Pattern; 4]) -> bool {
        let i = i & SLOT_MASK;
        if self.cell[i] != EMPTY || lines.contains(&pattern::FIVE) {
            return false;
        }
        if fours(lines) >= 2 {
            return true;
        }
        let code = self.info[i].code;
        let in_line = |d: usize| {
            pattern::makes_overline(code[d])
                || lines[d] == pattern::F4 && pattern::two_fours_in_line(code[d])
        };
        if (0..4).any(in_line) {
            return true;
        }
        if threes(lines) < 2 {
            return false;
        }
        // Not `foul`, whose gate reads the point's patterns: while a stone
        // is played they are not yet written back.
        self.double_three(i, lines).unwrap_or_else(|| {
            spot(i).is_some_and(|s| renju::foul(self, i32::from(s.x), i32::from(s.y)).is_some())
        })
    }

    /// Whether Black's move at the empty point `i`, with no five, no
    /// overline and fewer than two fours, makes two real threes, judged
    /// off the line codes: `None` where that takes the rules' walk.
    ///
    /// A three is real if one of its straight-four points is a move Black
    /// may make with `i` played. Such a point makes an open four on the
    /// three's line and nothing new on its others, so its own codes, with
    /// the stone at `i` added on that line, tell whether it makes five (it
    /// may), an overline or a second four (it may not), or one three at
    /// most beside the four (it may); only two threes there would send the
    /// judgement one level deeper, and that is left to the walk (19 of
    /// 929 points in the test below).
    fn double_three(&self, i: usize, lines: [Pattern; 4]) -> Option<bool> {
        let code = self.info[i & SLOT_MASK].code;
        let (mut real, mut unsure) = (0, 0);
        for d in (0..4).filter(|&d| lines[d] == pattern::F3) {
            let (points, count) = renju::straight_four_points(black_line(code[d]));
            let mut line = Some(false);
            for &q in &points[..usize::from(count)] {
                let k = isize::from(q) - renju::MIDDLE as isize;
                let f = i.wrapping_add_signed(k * DIRS[d]) & SLOT_MASK;
                match self.allowed_beside(f, d, -k) {
                    Some(true) => {
                        line = Some(true);
                        break;
                    }
                    Some(false) => {}
                    None => line = None,
                }
            }
            match line {
                Some(true) => real += 1,
                Some(false) => {}
                None => unsure += 1,
            }
        }
        if real >= 2 {
            Some(true)
        } else if real + unsure < 2 {
            Some(false)
        } else {
            None
        }
    }

    /// Whether Black may play the empty point `f` with a Black stone
    /// imagined `k` steps away along direction `d`, where that stone makes
    /// `f` an open four; `None` if `f` then also has two threes, which
    /// only the rules' walk can judge.
    fn allowed_beside(&self, f: usize, d: usize, k: isize) -> Option<bool> {
        let mut code = self.info[f & SLOT_MASK].code;
        code[d] |= 1 << (2 * pattern::slot(k));
        let lines = code.map(|c| pattern::own(self.table[self.indexer.index(c)]));
        if lines.contains(&pattern::FIVE) {
            return Some(true);
        }
        if code.into_iter().any(pattern::makes_overline) {
            return Some(false);
        }
        if fours(lines) >= 2 {
            return Some(false);
        }
        if threes(lines) >= 2 {
            return None;
        }
        Some(true)
    }
}

/// How many of a point's lines are a four (one point makes five) or an
/// open four.
fn fours(lines: [Pattern; 4]) -> usize {
    lines
        .iter()
        .filter(|&&p| p == pattern::B4 || p == pattern::F4)
        .count()
}

/// How many of a point's lines are an open three.
fn threes(lines: [Pattern; 4]) -> usize {
    lines.iter().filter(|&&p| p == pattern::F3).count()
}

// The line codes reach as far as the renju rules look along a line.
const _: () = assert!(PAD == renju::MIDDLE);

/// The line a Black line code stands for, as the renju rules read it,
/// with Black's stone on the point in the middle.
fn black_line(code: u32) -> [Cell; renju::SPAN] {
    let mut line = [Cell::Black; renju::SPAN];
    for k in (-(PAD as isize)..=PAD as isize).filter(|&k| k != 0) {
        let cell = (code >> (2 * pattern::slot(k))) & 3;
        line[k.wrapping_add_unsigned(renju::MIDDLE) as usize] = match cell {
            0 => Cell::Empty,
            1 => Cell::Black,
            _ => Cell::Blocked,
        };
    }
    line
}

impl Position {
    /// Why Black may not play the empty point `i` under renju, by `reading`
    /// (see [`Reading`]), if not; never under another rule.
    pub fn foul(&self, i: usize, reading: Reading) -> Option<Foul> {
        if self.rule != Rule::Renju || !self.could_be_foul(i) {
            return None;
        }
        let s = spot(i)?;
        renju::foul_read(self, i32::from(s.x), i32::from(s.y), reading)
    }

    /// Whether Black's lines at `i` hold what every foul needs, by either
    /// reading: two lines with a three or more, an open four or two fours
    /// in one line, or six in a row. The lines are exact for the board
    /// (unlike a combination, which a foul decided further away may have
    /// left behind), so where this is false no walk is needed.
    fn could_be_foul(&self, i: usize) -> bool {
        let code = self.info[i & SLOT_MASK].code;
        self.might_be_foul(i) || code.into_iter().any(pattern::makes_overline)
    }

    /// Whether the rule forbids colour `c` some points: renju, Black.
    pub fn restricted(&self, c: Colour) -> bool {
        self.rule == Rule::Renju && c == 1
    }

    /// Whether `c` may play the empty point `i` with no judge calling it
    /// a foul (see [`Self::shunned`]).
    pub fn may_play(&self, i: usize, c: Colour) -> bool {
        !(self.restricted(c) && self.shunned(i))
    }

    /// Whether `c` can be counted on to be able to play `i`, say to stop
    /// a five (see [`Self::barred`]).
    pub fn can_defend(&self, i: usize, c: Colour) -> bool {
        !(self.restricted(c) && self.barred(i))
    }

    /// The search's cheaper test: whether `c` may not play `i` by a foul
    /// of two lines or an open four (see [`Self::might_be_foul`]).
    pub fn foul_in_search(&self, i: usize, c: Colour) -> bool {
        self.restricted(c)
            && self.might_be_foul(i)
            && self.black_foul(i, self.info[i & SLOT_MASK].lines[0])
    }

    /// Whether Black's patterns at the empty point `i` might hide a foul
    /// by two lines or an open four (not an overline): a test of a few
    /// bytes before [`Self::foul`]'s walk.
    pub fn might_be_foul(&self, i: usize) -> bool {
        if self.rule != Rule::Renju {
            return false;
        }
        let lines = self.info[i & SLOT_MASK].lines[0];
        lines.contains(&pattern::F4) || lines.iter().filter(|&&p| p >= pattern::F3).count() >= 2
    }

    /// Whether Black must not play `i`: forbidden by either reading, so
    /// that no judge can call the move a foul.
    pub fn shunned(&self, i: usize) -> bool {
        self.rule == Rule::Renju
            && (self.foul(i, Reading::Rif).is_some() || self.foul(i, Reading::Judges).is_some())
    }

    /// Whether Black may not play `i` by both readings: a point White can
    /// count on Black not taking.
    pub fn barred(&self, i: usize) -> bool {
        self.rule == Rule::Renju
            && self.foul(i, Reading::Rif).is_some()
            && self.foul(i, Reading::Judges).is_some()
    }
}

impl Stones for Position {
    fn cell(&self, x: i32, y: i32) -> Cell {
        let on = |v: i32| usize::try_from(v).is_ok_and(|v| v < self.size);
        if !(on(x) && on(y)) {
            return Cell::Blocked;
        }
        // Both are below the size, at most MAX_SIZE.
        let i = index(Spot {
            x: x as u8,
            y: y as u8,
        });
        match self.cell[i & SLOT_MASK] {
            EMPTY => Cell::Empty,
            1 => Cell::Black,
            _ => Cell::Blocked,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Board;
    use crate::rules::player::Player;
    use crate::rules::point::{Column, Point, Row};

    fn lcg(state: &mut u64) -> usize {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (*state >> 33) as usize
    }

    /// Every empty point's codes, patterns, combinations and values, and
    /// the sums and counts, as a position built afresh from the same stones
    /// has them; and every code, as far as the rule's table reads it, as
    /// the board has it.
    fn assert_same_as_fresh(pos: &Position) {
        for &i in &pos.points {
            for d in 0..DIRS.len() {
                let (kept, read) = (pos.info[i].code[d], pos.line_code(i, d));
                assert_eq!(
                    pos.indexer.index(kept),
                    pos.indexer.index(read),
                    "code at {i}, direction {d}: kept {kept:05x}, on the board {read:05x}"
                );
            }
        }
        let mut fresh = Position::new(pos.rule, 1, pos.size as u8);
        for &i in &pos.moves {
            fresh.put(i, pos.cell[i]);
        }
        for &i in pos.points.iter().filter(|&&i| pos.cell[i] == EMPTY) {
            let (a, b) = (pos.info[i], fresh.info[i]);
            assert_eq!(a.code, b.code, "codes at {i}");
            assert_eq!(a.lines, b.lines, "patterns at {i}");
            assert_eq!(a.combo, b.combo, "combinations at {i}");
            assert_eq!(a.value, b.value, "values at {i}");
        }
        assert_eq!(pos.sum, fresh.sum, "sums");
        assert_eq!(pos.combos, fresh.combos, "combination counts");
    }

    #[test]
    fn distance_is_the_larger_of_the_column_and_row_differences_across_the_board() {
        let at = |x, y| index(Spot { x, y });
        for (a, b, d) in [
            (at(0, 0), at(0, 0), 0),
            (at(3, 4), at(4, 3), 1),
            (at(0, 0), at(21, 21), 21),
            (at(21, 0), at(0, 21), 21),
            (at(0, 5), at(21, 5), 21),
            (at(7, 2), at(9, 8), 6),
            (at(9, 8), at(7, 2), 6),
        ] {
            assert_eq!(distance(a, b), d, "{:?} {:?}", spot(a), spot(b));
        }
    }

    /// Also checks [`Position::hash_after`] against the hash each stone
    /// gives.
    #[test]
    fn empty_points_stay_as_a_fresh_position_has_them_through_play_and_undo() {
        for rule in Rule::ALL {
            let mut seed = 11u64;
            for _game in 0..6 {
                let mut pos = Position::new(rule, 1, 15);
                for step in 0..150 {
                    // Mostly forward, sometimes a few stones back, so stones
                    // come off over points that changed while they stood.
                    if step % 7 == 6 {
                        for _ in 0..lcg(&mut seed) % 4 {
                            pos.undo();
                        }
                    } else {
                        let i = pos.points[lcg(&mut seed) % pos.points.len()];
                        if pos.cell(i) == EMPTY {
                            let expected = pos.hash_after(i);
                            pos.play(i);
                            assert_eq!(pos.hash(), expected, "hash after {i}");
                        }
                    }
                    assert_same_as_fresh(&pos);
                }
            }
        }
    }

    /// The search's foul test, read off the line codes where it can be,
    /// and the gated walk of [`Position::foul`] say what the rules' walk
    /// says at every empty point of random renju positions crowded with
    /// Black stones, and a foul leaves Black no combination there.
    #[test]
    fn renju_fouls_read_off_the_lines_are_the_rules_walks() {
        let mut seed = 29u64;
        let mut fouls = 0;
        for _game in 0..40 {
            let mut pos = Position::new(Rule::Renju, 1, 15);
            for _ in 0..70 {
                let i = pos.points[lcg(&mut seed) % pos.points.len()];
                if pos.cell(i) == EMPTY {
                    // Two stones in three Black's.
                    pos.put(i, if lcg(&mut seed) % 3 == 0 { 2 } else { 1 });
                }
            }
            for &i in pos.points.iter().filter(|&&i| pos.cell(i) == EMPTY) {
                let s = spot(i).expect("a board point");
                let walk = |r| renju::foul_read(&pos, i32::from(s.x), i32::from(s.y), r);
                for reading in [Reading::Rif, Reading::Judges] {
                    assert_eq!(pos.foul(i, reading), walk(reading), "at {s:?}");
                }
                let walked = pos.might_be_foul(i) && walk(Reading::Rif).is_some();
                assert_eq!(pos.foul_in_search(i, 1), walked, "at {s:?}");
                if walked {
                    assert_eq!(pos.combo(i, 1), eval::C_NONE, "at {s:?}");
                    fouls += 1;
                }
            }
        }
        assert!(fouls > 100, "only {fouls} fouls: the positions test little");
    }

    /// Double threes judged off the line codes say what the rules' walk
    /// says, wherever they give an answer, and leave few to the walk: at
    /// every empty point of random renju positions where Black's move
    /// makes two threes or more and no four, five or overline.
    #[test]
    fn renju_double_threes_read_off_the_codes_are_the_rules_walks() {
        let mut seed = 41u64;
        let (mut fouls, mut allowed, mut walked) = (0, 0, 0);
        for _game in 0..400 {
            let mut pos = Position::new(Rule::Renju, 1, 15);
            for _ in 0..40 + lcg(&mut seed) % 50 {
                let i = pos.points[lcg(&mut seed) % pos.points.len()];
                if pos.cell(i) == EMPTY {
                    pos.put(i, if lcg(&mut seed) % 3 == 0 { 2 } else { 1 });
                }
            }
            for &i in pos.points.iter().filter(|&&i| pos.cell(i) == EMPTY) {
                let (lines, code) = (pos.info[i].lines[0], pos.info[i].code);
                if threes(lines) < 2
                    || lines.iter().any(|&p| p >= pattern::B4)
                    || code.into_iter().any(pattern::makes_overline)
                {
                    continue;
                }
                let s = spot(i).expect("a board point");
                let walk = renju::foul(&pos, i32::from(s.x), i32::from(s.y));
                assert!(matches!(walk, None | Some(Foul::DoubleThree)), "at {s:?}");
                match pos.double_three(i, lines) {
                    Some(foul) => assert_eq!(foul, walk.is_some(), "at {s:?}"),
                    None => walked += 1,
                }
                assert_eq!(pos.black_foul(i, lines), walk.is_some(), "at {s:?}");
                if walk.is_some() {
                    fouls += 1;
                } else {
                    allowed += 1;
                }
            }
        }
        assert!(
            fouls > 500 && allowed > 100,
            "{fouls} fouls and {allowed} allowed: the positions test little"
        );
        assert!(
            walked * 20 < fouls + allowed,
            "{walked} of {} left to the walk",
            fouls + allowed
        );
    }

    /// Black's two threes through E4 of `renju.rs`'s fake three: with the
    /// column G5-G7, the row's only straight-four point G4 would be a
    /// double four, so E4 is no foul, and no double three either but one
    /// three and a line a stone from a four; without it E4 is a double
    /// three, a foul, and no combination of Black's.
    #[test]
    fn a_renju_double_three_with_a_fake_three_is_one_three() {
        let at = |x: u8, y: u8| index(Spot { x, y });
        let e4 = at(4, 3);
        for fake in [true, false] {
            let mut pos = Position::new(Rule::Renju, 1, 15);
            // The column first: E4's lines do not reach it, so E4 is
            // judged again only by a stone on them (see `black_shape`).
            let mut stones = if fake {
                vec![(6, 7, 2), (6, 6, 1)]
            } else {
                Vec::new()
            };
            stones.extend([
                (6, 5, 1),
                (4, 4, 1),
                (6, 4, 1),
                (1, 3, 2),
                (3, 3, 1),
                (5, 3, 1),
                (4, 2, 1),
            ]);
            for (x, y, c) in stones {
                pos.put(at(x, y), c);
            }
            pos.set_side(1);
            if fake {
                assert_eq!(pos.foul(e4, Reading::Rif), None);
                assert_eq!(pos.combo(e4, 1), eval::C_F3P);
            } else {
                assert_eq!(pos.foul(e4, Reading::Rif), Some(Foul::DoubleThree));
                assert_eq!(pos.combo(e4, 1), eval::C_NONE);
            }
        }
    }

    /// The flat walk of [`LINE_OFFSETS`] gives what a walk line by line
    /// gives: each line's empty points out to five steps, from one end to
    /// the other, the lines in the order of [`DIRS`], on every board size
    /// and next to the walls.
    #[test]
    fn empty_on_lines_walks_each_line_from_one_end() {
        let mut seed = 3u64;
        for size in [MIN_SIZE, 15, 20, MAX_SIZE] {
            let mut pos = Position::new(Rule::Freestyle, 1, size);
            for _ in 0..60 {
                let i = pos.points[lcg(&mut seed) % pos.points.len()];
                if pos.cell(i) == EMPTY {
                    pos.play(i);
                }
                let at = pos.points[lcg(&mut seed) % pos.points.len()];
                let by_line: Vec<usize> = DIRS
                    .iter()
                    .flat_map(|&step| {
                        (-(PAD as isize)..=PAD as isize)
                            .filter(|&k| k != 0)
                            .map(move |k| at.wrapping_add_signed(k * step))
                    })
                    .filter(|&q| pos.cell(q) == EMPTY)
                    .collect();
                let walked: Vec<usize> = pos.empty_on_lines(at).collect();
                assert_eq!(walked, by_line, "size {size}, at {:?}", spot(at));
            }
        }
    }

    /// Move generation and the threat solvers look for candidates in the
    /// area alone: a candidate outside it would never be searched.
    #[test]
    fn the_area_holds_every_candidate_and_only_board_points() {
        let mut seed = 5u64;
        for size in [MIN_SIZE, 6, 15, 19, 20, MAX_SIZE] {
            let mut pos = Position::new(Rule::Freestyle, 1, size);
            assert_eq!(pos.area().count(), 0, "empty board, size {size}");
            for _ in 0..40 {
                let i = pos.points[lcg(&mut seed) % pos.points.len()];
                if pos.cell(i) == EMPTY {
                    pos.play(i);
                }
                let area: Vec<usize> = pos.area().collect();
                assert!(area.iter().all(|i| pos.points.contains(i)), "size {size}");
                let candidates: Vec<usize> = pos
                    .points
                    .iter()
                    .copied()
                    .filter(|&i| pos.is_candidate(i))
                    .collect();
                assert!(!candidates.is_empty() || pos.is_full(), "size {size}");
                for c in candidates {
                    assert!(
                        area.contains(&c),
                        "candidate {c} outside the area, size {size}"
                    );
                }
            }
        }
    }

    /// The candidate rows kept through play and undo say what a look at
    /// the board says: an empty point with a stone within two, on every
    /// board size, and the walk lists them in the area's order.
    #[test]
    fn candidates_are_the_empty_points_within_two_of_a_stone_through_play_and_undo() {
        let mut seed = 11u64;
        for size in [MIN_SIZE, 6, 15, 19, 20, MAX_SIZE] {
            let mut pos = Position::new(Rule::Freestyle, 1, size);
            let check = |pos: &Position| {
                let stones = pos.moves();
                let by_look: Vec<usize> = pos
                    .area()
                    .filter(|&i| {
                        pos.cell(i) == EMPTY && stones.iter().any(|&s| distance(i, s) <= 2)
                    })
                    .collect();
                let walked: Vec<usize> = pos.candidates().collect();
                assert_eq!(walked, by_look, "size {size}, {} stones", stones.len());
                for &i in &pos.points {
                    assert_eq!(pos.is_candidate(i), by_look.contains(&i), "point {i}");
                }
            };
            check(&pos);
            for round in 0..6 {
                for _ in 0..25 {
                    let i = pos.points[lcg(&mut seed) % pos.points.len()];
                    if pos.cell(i) == EMPTY {
                        pos.play(i);
                        check(&pos);
                    }
                }
                for _ in 0..round * 3 {
                    pos.undo();
                    check(&pos);
                }
            }
        }
    }

    #[test]
    fn five_points_agree_with_the_rule_and_undo_restores_everything() {
        for rule in Rule::ALL {
            let mut seed = 7u64;
            for _game in 0..20 {
                let mut pos = Position::new(rule, 1, 19);
                let fresh = Position::new(rule, 1, 19);
                let mut board = Board::new();
                let mut player = Player::Black;
                for _ in 0..120 {
                    let i = pos.points[lcg(&mut seed) % pos.points.len()];
                    if pos.cell(i) != EMPTY {
                        continue;
                    }
                    // Whether the engine thinks this is five must match the rule.
                    let engine_five = pos.combo(i, pos.side()) == eval::C_FIVE;
                    let s = spot(i).unwrap();
                    let p = Point::new(Column::ALL[usize::from(s.x)], Row::ALL[usize::from(s.y)]);
                    board.place(p, player);
                    assert_eq!(engine_five, rule.wins(&board, p), "{rule:?} at {p}");
                    pos.play(i);
                    player = player.opponent();
                }
                while pos.stones() > 0 {
                    pos.undo();
                }
                assert_eq!(pos.sum, fresh.sum);
                assert_eq!(pos.combos, fresh.combos);
                assert_eq!(pos.hash(), fresh.hash());
                assert_eq!(pos.candidates, fresh.candidates);
                assert_eq!(pos.empty, fresh.empty);
            }
        }
    }
}
