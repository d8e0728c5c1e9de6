//! The nodes other threads are searching right now, so that a thread
//! reaching one of them as a late move searches its other moves first.
//!
//! Lazy SMP's threads share only the transposition table, and where they
//! search the same node at the same time the second computes what the
//! first is about to store. Marking the nodes in progress lets a thread
//! put such a move off until its other moves are done, when the table
//! may hold the other thread's result (the idea of ABDADA, kept to a
//! hint: a node is marked by one key in a small table, a collision only
//! changes an order, and nothing waits).

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table: a power of two. Only the nodes on a thread's
/// path at least [`BUSY_DEPTH`] from the horizon are marked, a dozen or
/// so at a time for each thread, so collisions are rare.
const SLOTS: usize = 1 << 10;

/// The least remaining depth at which a node is marked and its late
/// moves are checked: nearer the horizon a subtree costs less than the
/// check.
pub(super) const BUSY_DEPTH: i32 = 3;

/// The keys of the nodes in progress, one a slot.
pub struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Default for Busy {
    fn default() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Busy {
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key as usize) & (SLOTS - 1)]
    }

    /// Whether some thread is searching the node with `key`.
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks the node with `key` as in progress.
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Clears the mark of the node with `key`, unless another node has
    /// taken its slot since.
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_busy_from_enter_to_leave() {
        let busy = Busy::default();
        let key = 0x1234_5678_9ABC_DEF0;
        assert!(!busy.is_busy(key));
        busy.enter(key);
        assert!(busy.is_busy(key));
        busy.leave(key);
        assert!(!busy.is_busy(key));
    }

    #[test]
    fn a_collision_takes_the_slot_and_leaving_the_first_keeps_it() {
        let busy = Busy::default();
        let first = 5u64;
        let second = first + SLOTS as u64;
        busy.enter(first);
        busy.enter(second);
        // The slot now holds the second key: the first reads as free (a
        // hint lost, a move searched at once), never the other way round.
        assert!(!busy.is_busy(first));
        assert!(busy.is_busy(second));
        busy.leave(first);
        assert!(busy.is_busy(second));
        busy.leave(second);
        assert!(!busy.is_busy(second));
    }

    #[test]
    fn threads_marking_at_once_leave_the_table_empty() {
        let busy = Busy::default();
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let busy = &busy;
                scope.spawn(move || {
                    for k in 1..5_000u64 {
                        let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ t;
                        busy.enter(key);
                        busy.leave(key);
                    }
                });
            }
        });
        assert!(busy.slots.iter().all(|s| s.load(Ordering::Relaxed) == 0));
    }
}
