//! The transposition table: one entry per slot, indexed by the low bits of
//! the Zobrist hash, the whole hash kept to reject collisions. A deeper or
//! newer result replaces an older one.
//!
//! Each slot is stored packed as two `u64` words, and an all-zero slot is
//! an empty one (its bound is [`Bound::None`]). So a new table is a
//! zeroed allocation, which the allocator gets from the system as untouched
//! pages: a table of a gigabyte costs nothing until the search writes to
//! it, and only the pages written count against the process's memory.
//!
//! The searches of several threads share one table (see
//! [`Engine`](super::Engine)): the words are atomics, read and written
//! without ordering or locks. The first word holds the key exclusive-ored
//! with the second, so a slot torn by two writers at once (one thread's
//! key beside another's data) no longer matches either key and reads as
//! a miss, never as a wrong entry.

use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
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

impl Bound {
    /// What a score found in the window (`alpha`, `beta`) says of the
    /// true one.
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    fn from_bits(bits: u8) -> Bound {
        match bits {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => Bound::None,
        }
    }
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

impl Entry {
    /// The two words a slot holds: the key, then score (low 32 bits),
    /// best, depth and bound (top byte; 0 for [`Bound::None`]).
    fn pack(self) -> Slot {
        let data = u64::from(self.score as u32)
            | u64::from(self.best) << 32
            | u64::from(self.depth as u8) << 48
            | u64::from(self.bound as u8) << 56;
        [self.key, data]
    }

    fn unpack([key, data]: Slot) -> Entry {
        Entry {
            key,
            score: data as u32 as i32,
            best: (data >> 32) as u16,
            depth: (data >> 48) as u8 as i8,
            bound: Bound::from_bits((data >> 56) as u8),
        }
    }
}

/// A packed [`Entry`]; all zeros is empty.
type Slot = [u64; 2];

/// Bytes per entry, for sizing from a memory budget.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Slot>();

/// The smallest table, in bytes.
pub const SMALLEST: usize = (1 << 10) * ENTRY_BYTES;

/// The entries of a table for `bytes`: the largest power of two that
/// fits, at least 1024 and at most 2^26.
fn entries_for(bytes: usize) -> usize {
    let wanted = (bytes / ENTRY_BYTES).clamp(1 << 10, 1 << 26);
    if wanted.is_power_of_two() {
        wanted
    } else {
        wanted.next_power_of_two() / 2
    }
}

/// The table.
pub struct Table {
    /// Two words a slot: the key exclusive-ored with the data, then the
    /// data.
    words: Vec<AtomicU64>,
    mask: usize,
}

impl Table {
    /// A table of the largest power of two entries fitting `bytes`, at
    /// least 1024 and at most 2^26.
    pub fn new(bytes: usize) -> Table {
        let size = entries_for(bytes);
        Table {
            // Zeros, so the allocator hands out untouched pages.
            words: bytemuck::zeroed_vec(2 * size),
            mask: size - 1,
        }
    }

    /// Writes every page of the table, so that the search that follows
    /// takes no page fault. A search that faults the pages in as it
    /// stores spends its time in the kernel, and two threads faulting in
    /// one process wait on each other there: on the depth bench, with a
    /// fresh table each position, the main search's own nodes a
    /// millisecond fell from 1,352 on one thread to 943 beside a helper,
    /// and were 1,485 and 1,489 with the table written first.
    pub fn commit(&mut self) {
        const WORDS_A_PAGE: usize = 4096 / std::mem::size_of::<u64>();
        for word in self.words.iter_mut().step_by(WORDS_A_PAGE) {
            // Written back as it was, so that a table in use loses
            // nothing; `black_box` keeps the store from being elided.
            let word = word.get_mut();
            *word = std::hint::black_box(*word);
        }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.words.len() / 2 * ENTRY_BYTES
    }

    /// The size in bytes of a table made for `bytes` ([`Table::new`]).
    pub fn bytes_for(bytes: usize) -> usize {
        entries_for(bytes) * ENTRY_BYTES
    }

    /// Forgets every entry, writing the whole table: for a large table
    /// whose pages are not yet in memory [`Table::renew`] is the cheap
    /// way, for one whose pages are, this.
    pub fn clear(&mut self) {
        for word in &mut self.words {
            *word.get_mut() = 0;
        }
    }

    /// Replaces the table with an empty one for `bytes`, the old one freed
    /// before the new one is allocated, so the two are never held at once.
    pub fn renew(&mut self, bytes: usize) {
        self.words = Vec::new();
        *self = Table::new(bytes);
    }

    /// The slot at `at`, as written (the key restored).
    fn load(&self, at: usize) -> Slot {
        let key = self.words[2 * at].load(Ordering::Relaxed);
        let data = self.words[2 * at + 1].load(Ordering::Relaxed);
        [key ^ data, data]
    }

    /// The entry for `key`, if one is stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = Entry::unpack(self.load(key as usize & self.mask));
        (e.bound != Bound::None && e.key == key).then_some(e)
    }

    /// Starts bringing `key`'s slot into cache and returns at once, so
    /// that a probe a little later finds it there. The table is far larger
    /// than any cache, so a probe nearly always waits on memory: searching
    /// the depth bench's positions, that wait was a fifth of the time.
    pub fn prefetch(&self, key: u64) {
        prefetch_index::prefetch_index(&self.words, 2 * (key as usize & self.mask));
    }

    /// Stores a result, unless a deeper one for the same position is there.
    pub fn store(&self, key: u64, score: i32, best: u16, depth: i32, bound: Bound) {
        let at = key as usize & self.mask;
        let slot = Entry::unpack(self.load(at));
        if slot.key == key && i32::from(slot.depth) > depth && bound != Bound::Exact {
            return;
        }
        let best = if best == 0 && slot.key == key {
            slot.best
        } else {
            best
        };
        let [key, data] = Entry {
            key,
            score,
            best,
            depth: depth.clamp(-1, 127) as i8,
            bound,
        }
        .pack();
        self.words[2 * at].store(key ^ data, Ordering::Relaxed);
        self.words[2 * at + 1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committing_the_pages_keeps_every_entry() {
        let mut table = Table::new(1 << 20);
        let keys: Vec<u64> = (1..=3000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for (n, &key) in keys.iter().enumerate() {
            table.store(key, n as i32 - 1500, n as u16, 7, Bound::Exact);
        }
        let before: Vec<_> = keys
            .iter()
            .map(|&k| table.probe(k).map(|e| (e.score, e.best)))
            .collect();
        assert!(
            before.iter().filter(|e| e.is_some()).count() > 2000,
            "most keys stored"
        );
        table.commit();
        let after: Vec<_> = keys
            .iter()
            .map(|&k| table.probe(k).map(|e| (e.score, e.best)))
            .collect();
        assert_eq!(before, after);
        assert_eq!(table.bytes(), 1 << 20);
        let mut fresh = Table::new(1 << 20);
        fresh.commit();
        assert!(
            keys.iter().all(|&k| fresh.probe(k).is_none()),
            "a fresh table stays empty"
        );
    }

    #[test]
    fn an_entry_survives_packing() {
        let cases = [
            (u64::MAX, i32::MIN, u16::MAX, i8::MIN, Bound::Exact),
            (1, i32::MAX, 0, i8::MAX, Bound::Lower),
            (0x0123_4567_89ab_cdef, -30_000, 360, -1, Bound::Upper),
            (0, 0, 0, 0, Bound::Exact),
        ];
        for (key, score, best, depth, bound) in cases {
            let entry = Entry {
                key,
                score,
                best,
                depth,
                bound,
            };
            let back = Entry::unpack(entry.pack());
            assert_eq!(
                (back.key, back.score, back.best, back.depth, back.bound),
                (key, score, best, depth, bound),
                "{entry:?} packed and unpacked"
            );
        }
    }

    #[test]
    fn an_all_zero_slot_is_empty() {
        assert_eq!(Entry::unpack([0; 2]).bound, Bound::None);
        let mut table = Table::new(0);
        assert!(table.probe(0).is_none(), "a new table holds key 0 empty");
        table.store(0, 5, 7, 3, Bound::Exact);
        assert_eq!(table.probe(0).map(|e| (e.score, e.best)), Some((5, 7)));
        table.renew(1 << 20);
        assert!(table.probe(0).is_none(), "a renewed table is empty");
        table.store(42, 1, 2, 3, Bound::Lower);
        table.clear();
        assert!(table.probe(42).is_none(), "a cleared table is empty");
    }
}
