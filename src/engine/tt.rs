//! The transposition table: one entry per slot, indexed by the low bits of
//! the Zobrist hash, the whole hash kept to reject collisions. A deeper or
//! newer result replaces an older one.
//!
//! Each slot is stored packed as two `u64` words, and an all-zero slot is
//! an empty one (its bound is [`Bound::None`]). So a new table is zeroed
//! memory the system hands out as untouched pages: a table of a gigabyte
//! costs nothing until the search writes to it, and only the pages
//! written count against the process's memory.
//!
//! A table of [`HUGE_PAGE`] bytes or more is a private anonymous mapping of
//! its own, which on Linux is advised for transparent huge pages. A probe
//! lands on a random slot of a table far larger than the TLB covers, so
//! with 4 KiB pages nearly every probe walks the page tables as well as
//! missing the cache; in 2 MiB pages the whole table's translations fit
//! the processor's cache of them (with a 256 MiB table, what a manager's
//! 350 MB `max_memory` gives, the same search takes 13% less CPU time on
//! one thread, and two threads make 5% more nodes a second;
//! docs/engine-log.md, "The table in huge pages"). Only the table is
//! advised: the rest of the heap keeps its small pages, so the brain's
//! memory outside the table is what it was. A smaller table lives on the
//! heap, where a huge page would be larger than the table.
//!
//! A table is emptied for a new game without writing it: each slot is
//! stamped with the table's generation, and [`Table::forget`] moves to the
//! next, so a slot of an earlier one reads as empty. Only when the
//! [`GENERATIONS`] run out must every word be written again
//! ([`Table::wipe`]), which for a table of a gigabyte takes a tenth of a
//! second and more: the engine has that done aside (see
//! [`Engine::reset`](super::Engine::reset)).
//!
//! The searches of several threads share one table through [`Shared`]
//! (see [`Engine`](super::Engine)): the words are atomics, read and
//! written without ordering or locks. The first word holds the key
//! exclusive-ored with the second, so a slot torn by two writers at once
//! (one thread's key beside another's data) no longer matches either key
//! and reads as a miss, never as a wrong entry.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use zerocopy::FromBytes;

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
    /// best, depth, and in the top byte the bound (its two low bits; 0 for
    /// [`Bound::None`]) and `generation` (the six above).
    fn pack(self, generation: u8) -> Slot {
        let data = u64::from(self.score as u32)
            | u64::from(self.best) << 32
            | u64::from(self.depth as u8) << 48
            | u64::from(self.bound as u8) << 56
            | u64::from(generation) << GENERATION_SHIFT;
        [self.key, data]
    }

    fn unpack([key, data]: Slot) -> Entry {
        Entry {
            key,
            score: data as u32 as i32,
            best: (data >> 32) as u16,
            depth: (data >> 48) as u8 as i8,
            bound: Bound::from_bits((data >> 56) as u8 & 3),
        }
    }
}

/// A packed [`Entry`]; all zeros is empty.
type Slot = [u64; 2];

/// Where a slot's generation starts in its data word: above the bound.
const GENERATION_SHIFT: u32 = 58;

/// The generations a table goes through before it must be wiped: what
/// the six bits above the bound hold. A fresh or wiped table is at
/// generation 0, so its slots are packed as they were before there were
/// generations, and a search on it is the same search.
pub const GENERATIONS: u8 = 1 << (64 - GENERATION_SHIFT);

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

/// The smallest table kept in a mapping of its own, advised for huge
/// pages: one huge page on x86-64 Linux.
pub const HUGE_PAGE: usize = 2 << 20;

/// The words of a piece of a table written aside: a huge page.
const WORDS_A_PIECE: usize = HUGE_PAGE / std::mem::size_of::<u64>();

/// Where a table's words live.
enum Words {
    /// Zeroed heap memory, for a table smaller than [`HUGE_PAGE`].
    Heap(Vec<AtomicU64>),
    /// A private anonymous mapping (zeroed by the system), for a larger
    /// one.
    Mapped(memmap2::MmapMut),
}

impl Words {
    /// `len` zeroed words: mapped, and advised for huge pages, from
    /// [`HUGE_PAGE`] bytes on, or where the mapping fails, on the heap.
    fn zeroed(len: usize) -> Words {
        let bytes = len * std::mem::size_of::<u64>();
        if bytes >= HUGE_PAGE {
            if let Ok(mut map) = memmap2::MmapMut::map_anon(bytes) {
                if <[AtomicU64]>::mut_from_bytes(&mut map[..]).is_ok() {
                    // A hint: a kernel without transparent huge pages
                    // refuses it, and the table keeps small pages.
                    #[cfg(target_os = "linux")]
                    let _ = map.advise(memmap2::Advice::HugePage);
                    return Words::Mapped(map);
                }
            }
        }
        // Zeros, so the allocator hands out untouched pages.
        Words::Heap(bytemuck::zeroed_vec(len))
    }

    fn get(&mut self) -> &mut [AtomicU64] {
        match self {
            Words::Heap(words) => words,
            // Checked in `zeroed`: a mapping is page-aligned and a whole
            // number of words long, so the view always exists (were it
            // empty, `Shared` reads every slot as a miss, never past the
            // end).
            Words::Mapped(map) => <[AtomicU64]>::mut_from_bytes(&mut map[..]).unwrap_or_default(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Words::Heap(words) => words.len(),
            Words::Mapped(map) => map.len() / std::mem::size_of::<u64>(),
        }
    }
}

/// The table.
pub struct Table {
    /// Two words a slot: the key exclusive-ored with the data, then the
    /// data.
    words: Words,
    mask: usize,
    /// The slots stamped with another generation are empty.
    generation: u8,
}

impl Table {
    /// A table of the largest power of two entries fitting `bytes`, at
    /// least 1024 and at most 2^26.
    pub fn new(bytes: usize) -> Table {
        let size = entries_for(bytes);
        Table {
            words: Words::zeroed(2 * size),
            mask: size - 1,
            generation: 0,
        }
    }

    /// The table as the searches share it, for as long as they run.
    pub fn shared(&mut self) -> Shared<'_> {
        Shared {
            words: self.words.get(),
            mask: self.mask,
            generation: self.generation,
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
        self.commit_with(|| {});
    }

    /// As [`Table::commit`], calling `between` after each piece of
    /// [`HUGE_PAGE`] bytes: so a table written aside can wait while a
    /// search needs the processor.
    pub fn commit_with(&mut self, mut between: impl FnMut()) {
        const WORDS_A_PAGE: usize = 4096 / std::mem::size_of::<u64>();
        for piece in self.words.get().chunks_mut(WORDS_A_PIECE) {
            for word in piece.iter_mut().step_by(WORDS_A_PAGE) {
                // Written back as it was, so that a table in use loses
                // nothing; `black_box` keeps the store from being elided.
                let word = word.get_mut();
                *word = std::hint::black_box(*word);
            }
            between();
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

    /// Forgets every entry at once, writing nothing, by moving to the
    /// next generation; false, changing nothing, once the generations
    /// have run out (then only [`Table::wipe`] empties the table).
    pub fn forget(&mut self) -> bool {
        if self.generation + 1 < GENERATIONS {
            self.generation += 1;
            true
        } else {
            false
        }
    }

    /// Forgets every entry by writing the whole table, and starts its
    /// generations again.
    pub fn wipe(&mut self) {
        self.wipe_with(|| {});
    }

    /// As [`Table::wipe`], calling `between` after each piece of
    /// [`HUGE_PAGE`] bytes (see [`Table::commit_with`]).
    pub fn wipe_with(&mut self, mut between: impl FnMut()) {
        for piece in self.words.get().chunks_mut(WORDS_A_PIECE) {
            for word in piece {
                *word.get_mut() = 0;
            }
            between();
        }
        self.generation = 0;
    }

    /// Forgets every entry: at once while the generations last (see
    /// [`Table::forget`]), else by writing the whole table.
    pub fn clear(&mut self) {
        if !self.forget() {
            self.wipe();
        }
    }

    /// Replaces the table with an empty one for `bytes`, the old one freed
    /// before the new one is allocated, so the two are never held at once.
    pub fn renew(&mut self, bytes: usize) {
        self.words = Words::Heap(Vec::new());
        *self = Table::new(bytes);
    }

    /// Whether a table for `bytes` is a mapping of its own (see
    /// [`HUGE_PAGE`]): one whose pages the system may take its time over.
    pub fn is_mapped_for(bytes: usize) -> bool {
        Table::bytes_for(bytes) >= HUGE_PAGE
    }
}

/// The stack of the thread that makes a [`Coming`] table: it allocates,
/// frees and writes memory, and recurses nowhere.
const MAKER_STACK: usize = 64 << 10;

/// A table being made on a thread of its own, so that no search and no
/// reply to the manager waits while the system maps, frees or zeroes a
/// gigabyte (with huge pages it may first have to gather them, which
/// under memory pressure took seconds).
pub struct Coming {
    bytes: usize,
    table: mpsc::Receiver<Table>,
}

impl Coming {
    /// Starts `make` on a thread of its own; it returns the table, of
    /// `bytes` bytes. `None` if the system starts no thread (`make` is
    /// then dropped, and whatever it held freed).
    pub fn start(bytes: usize, make: impl FnOnce() -> Table + Send + 'static) -> Option<Coming> {
        let (send, table) = mpsc::sync_channel(1);
        std::thread::Builder::new()
            .name("table".to_owned())
            .stack_size(MAKER_STACK)
            .spawn(move || {
                // Nobody to take it: the engine moved on, and it is freed.
                let _ = send.send(make());
            })
            .ok()?;
        Some(Coming { bytes, table })
    }

    /// The size in bytes of the table to come.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The table, waiting at most `wait` for it (`Duration::MAX`: until
    /// it is made); `Ok(None)` if its maker failed, `Err` (this, to wait
    /// on later) if it is not made yet.
    pub fn take(self, wait: Duration) -> Result<Option<Table>, Coming> {
        match self.table.recv_timeout(wait) {
            Ok(table) => Ok(Some(table)),
            Err(RecvTimeoutError::Timeout) => Err(self),
            Err(RecvTimeoutError::Disconnected) => Ok(None),
        }
    }
}

/// A table shared by the threads of one search: probes and stores.
#[derive(Clone, Copy)]
pub struct Shared<'a> {
    words: &'a [AtomicU64],
    mask: usize,
    generation: u8,
}

impl Shared<'_> {
    /// The slot at `at`, as written (the key restored); empty if the table
    /// has no words, and if the slot is of another generation: so a
    /// table that forgot reads, and is written, as one wiped.
    fn load(&self, at: usize) -> Slot {
        let (Some(key), Some(data)) = (self.words.get(2 * at), self.words.get(2 * at + 1)) else {
            return [0; 2];
        };
        let (key, data) = (key.load(Ordering::Relaxed), data.load(Ordering::Relaxed));
        if (data >> GENERATION_SHIFT) as u8 != self.generation {
            return [0; 2];
        }
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
        prefetch_index::prefetch_index(self.words, 2 * (key as usize & self.mask));
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
        .pack(self.generation);
        if let (Some(k), Some(d)) = (self.words.get(2 * at), self.words.get(2 * at + 1)) {
            k.store(key ^ data, Ordering::Relaxed);
            d.store(data, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stores 3,000 results and reads them back: (score, best) of each
    /// key still found.
    fn fill_and_read(table: &mut Table) -> Vec<Option<(i32, u16)>> {
        let keys = keys();
        let shared = table.shared();
        for (n, &key) in keys.iter().enumerate() {
            shared.store(key, n as i32 - 1500, n as u16, 7, Bound::Exact);
        }
        read(table)
    }

    fn keys() -> Vec<u64> {
        (1..=3000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect()
    }

    fn read(table: &mut Table) -> Vec<Option<(i32, u16)>> {
        let shared = table.shared();
        keys()
            .iter()
            .map(|&k| shared.probe(k).map(|e| (e.score, e.best)))
            .collect()
    }

    /// Below a huge page on the heap, from one on in a mapping of its own;
    /// either way it stores, keeps through a commit, and empties.
    #[test]
    fn committing_the_pages_keeps_every_entry_on_the_heap_and_mapped() {
        for bytes in [1 << 20, HUGE_PAGE, 8 << 20] {
            let mut table = Table::new(bytes);
            assert_eq!(table.bytes(), bytes);
            assert_eq!(
                matches!(table.words, Words::Mapped(_)),
                bytes >= HUGE_PAGE,
                "a table of {bytes} bytes"
            );
            let before = fill_and_read(&mut table);
            assert!(
                before.iter().filter(|e| e.is_some()).count() > 2000,
                "most keys stored in {bytes} bytes"
            );
            table.commit();
            assert_eq!(before, read(&mut table), "{bytes} bytes committed");
            table.clear();
            assert!(
                read(&mut table).iter().all(Option::is_none),
                "{bytes} bytes cleared"
            );
            let mut fresh = Table::new(bytes);
            fresh.commit();
            assert!(
                read(&mut fresh).iter().all(Option::is_none),
                "a fresh table of {bytes} bytes stays empty"
            );
        }
    }

    /// Where the kernel gives transparent huge pages to the mappings
    /// advised for them (`madvise` mode, as on this project's machines), a
    /// mapped table is eligible for them, and a heap table (a small one)
    /// is left as it was: the rest of the heap keeps small pages.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_mapped_table_is_advised_for_huge_pages() {
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        if !mode.is_ok_and(|m| m.contains("[madvise]")) {
            eprintln!("transparent huge pages are not in madvise mode here: nothing to check");
            return;
        }
        // Whether the mapping holding `addr` may get huge pages, from
        // /proc/self/smaps: a range line, then its fields.
        let eligible = |addr: usize| -> Option<bool> {
            let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
            let mut inside = false;
            for line in smaps.lines() {
                // A range line starts "lo-hi", in hex; a field line with
                // its name and a colon.
                let range = line.split(' ').next().and_then(|r| r.split_once('-'));
                if let Some((lo, hi)) = range {
                    if let (Ok(lo), Ok(hi)) =
                        (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
                    {
                        inside = (lo..hi).contains(&addr);
                        continue;
                    }
                }
                if inside {
                    if let Some(v) = line.strip_prefix("THPeligible:") {
                        return Some(v.trim() == "1");
                    }
                }
            }
            None
        };
        let mut mapped = Table::new(8 << 20);
        let mut small = Table::new(1 << 20);
        let addr = |t: &mut Table| t.shared().words.as_ptr() as usize;
        assert_eq!(eligible(addr(&mut mapped)), Some(true), "the mapped table");
        assert_eq!(eligible(addr(&mut small)), Some(false), "the heap table");
    }

    /// A table that forgets answers every probe and store as a wiped
    /// one: an entry of an earlier generation neither answers a probe nor
    /// keeps a shallower result of the same position out.
    #[test]
    fn a_table_that_forgets_is_as_one_wiped() {
        let run = |table: &mut Table| {
            let shared = table.shared();
            shared.store(42, 9, 3, 1, Bound::Lower);
            let probe = |t: &mut Table, key| t.shared().probe(key).map(|e| (e.score, e.depth));
            let first = probe(table, 42);
            (first, read(table))
        };
        let mut forgot = Table::new(1 << 20);
        let mut wiped = Table::new(1 << 20);
        for table in [&mut forgot, &mut wiped] {
            fill_and_read(table);
            table.shared().store(42, 5, 7, 20, Bound::Lower);
        }
        assert!(forgot.forget());
        wiped.wipe();
        let (forgot, wiped) = (run(&mut forgot), run(&mut wiped));
        assert_eq!(forgot.0, Some((9, 1)), "the shallower result is stored");
        assert!(
            forgot.1.iter().all(Option::is_none),
            "nothing else is found"
        );
        assert_eq!(forgot, wiped);
    }

    /// The generations run out after [`GENERATIONS`] games; a wipe starts
    /// them again, and forgets what the last one held.
    #[test]
    fn the_generations_run_out_and_a_wipe_starts_them_again() {
        let mut table = Table::new(1 << 20);
        for game in 1..GENERATIONS {
            assert!(table.forget(), "game {game}");
        }
        fill_and_read(&mut table);
        assert!(!table.forget(), "the generations have run out");
        assert!(
            read(&mut table).iter().any(Option::is_some),
            "a forget that fails changes nothing"
        );
        table.wipe();
        assert!(read(&mut table).iter().all(Option::is_none), "wiped");
        assert!(table.forget(), "they start again");
        table.clear();
        assert!(read(&mut table).iter().all(Option::is_none), "cleared");
    }

    /// Written aside, a table is written a huge page at a time, with a
    /// call between the pieces where its writer may wait; what it held is
    /// kept by a commit and gone after a wipe.
    #[test]
    fn a_table_is_written_aside_in_pieces_of_a_huge_page() {
        for bytes in [1 << 20, 8 << 20] {
            let mut table = Table::new(bytes);
            let before = fill_and_read(&mut table);
            let mut pieces = 0;
            table.commit_with(|| pieces += 1);
            assert_eq!(pieces, bytes.div_ceil(HUGE_PAGE), "{bytes} bytes committed");
            assert_eq!(read(&mut table), before, "{bytes} bytes committed");
            pieces = 0;
            table.wipe_with(|| pieces += 1);
            assert_eq!(pieces, bytes.div_ceil(HUGE_PAGE), "{bytes} bytes wiped");
            assert!(
                read(&mut table).iter().all(Option::is_none),
                "{bytes} bytes wiped"
            );
        }
    }

    /// A table made aside comes whole, empty, of its size, every page
    /// written.
    #[test]
    fn a_table_made_aside_is_empty_and_of_its_size() {
        let bytes = 4 << 20;
        let coming = Coming::start(bytes, move || {
            let mut table = Table::new(bytes);
            table.commit();
            table
        })
        .expect("a thread starts");
        assert_eq!(coming.bytes(), bytes);
        let mut table = match coming.take(Duration::MAX) {
            Ok(Some(table)) => table,
            Ok(None) => panic!("the maker failed"),
            Err(_) => panic!("not made, though waited for"),
        };
        assert_eq!(table.bytes(), bytes);
        assert!(read(&mut table).iter().all(Option::is_none));
        let failed = Coming::start(bytes, || panic!("a maker that fails")).expect("a thread");
        assert!(matches!(failed.take(Duration::MAX), Ok(None)));
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
            let back = Entry::unpack(entry.pack(0));
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
        for bytes in [0, 4 << 20] {
            let mut table = Table::new(bytes);
            let shared = table.shared();
            assert!(shared.probe(0).is_none(), "a new table holds key 0 empty");
            shared.store(0, 5, 7, 3, Bound::Exact);
            assert_eq!(shared.probe(0).map(|e| (e.score, e.best)), Some((5, 7)));
            table.renew(bytes.max(1 << 20));
            let shared = table.shared();
            assert!(shared.probe(0).is_none(), "a renewed table is empty");
            shared.store(42, 1, 2, 3, Bound::Lower);
            table.clear();
            assert!(
                table.shared().probe(42).is_none(),
                "a cleared table is empty"
            );
        }
    }
}
