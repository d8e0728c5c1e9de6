//! The transposition table: one entry per slot, indexed by the low bits of
//! the Zobrist hash, the whole hash kept to reject collisions. A deeper or
//! newer result replaces an older one.

/// What a stored score is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bound {
    /// No entry.
    #[default]
    None,
    /// The score is exact.
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (every move failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    /// The full hash of the position.
    pub key: u64,
    /// Score, with win distances relative to this node.
    pub score: i32,
    /// Best move's array index, or 0.
    pub best: u16,
    /// Depth searched.
    pub depth: i8,
    /// What `score` is.
    pub bound: Bound,
}

/// Bytes per entry, for sizing from a memory budget.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// The table.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of the largest power of two entries fitting `bytes`, at
    /// least 1024 and at most 2^26.
    pub fn new(bytes: usize) -> Table {
        let wanted = (bytes / ENTRY_BYTES).clamp(1 << 10, 1 << 26);
        let size = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Table {
            entries: vec![Entry::default(); size],
            mask: size - 1,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    /// The entry for `key`, if one is stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.bound != Bound::None && e.key == key).then_some(e)
    }

    /// Stores a result, unless a deeper one for the same position is there.
    pub fn store(&mut self, key: u64, score: i32, best: u16, depth: i32, bound: Bound) {
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key == key && i32::from(slot.depth) > depth && bound != Bound::Exact {
            return;
        }
        let best = if best == 0 && slot.key == key {
            slot.best
        } else {
            best
        };
        *slot = Entry {
            key,
            score,
            best,
            depth: depth.clamp(-1, 127) as i8,
            bound,
        };
    }
}
