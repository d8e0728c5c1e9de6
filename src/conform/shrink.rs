//! Shrinking a failing input to a small one that still fails: delta
//! debugging (Zeller and Hildebrandt's ddmin, complements only) over
//! lines, then over pairs of lines, then over bytes (of a short input).
//!
//! Each test of a candidate starts the program, so candidates are tried
//! `jobs` at a time on threads, and the first failing one in order is
//! taken: the result does not depend on which thread finishes first. A
//! budget bounds the number of tests, so a large input (a full-board game)
//! shrinks as far as the budget goes, not for ever.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::Instant;

/// Bytes are dropped one by one only from an input of at most this many
/// lines: what is left of a longer one (a full-board game) is nearly all
/// moves that each matter, and trying every byte of it would spend the
/// whole budget to drop none.
pub const BYTES_UP_TO_LINES: usize = 64;

/// How the shrinking went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shrunk {
    /// The smallest failing input found.
    pub input: Vec<u8>,
    /// How many candidates were tested.
    pub tests: usize,
    /// Whether the budget ran out before the input was minimal.
    pub cut_short: bool,
}

/// Shrinks `input`, for which `fails` is true, keeping `fails` true:
/// at most `budget` tests, none started after `deadline`.
pub fn shrink<F>(
    input: &[u8],
    fails: F,
    jobs: usize,
    budget: usize,
    deadline: Option<Instant>,
) -> Shrunk
where
    F: Fn(&[u8]) -> bool + Sync,
{
    let shrinker = Shrinker {
        fails: &fails,
        // Each candidate of a batch is a thread: never more than the
        // options allow, whatever a caller passes.
        jobs: jobs.clamp(1, super::MAX_JOBS),
        budget,
        deadline,
        tests: AtomicUsize::new(0),
    };
    let mut input = input.to_vec();
    // Often nothing at all is enough (a program that hangs, or exits with
    // the wrong code, at end of input).
    if shrinker.first_failing(1, |_| Vec::new()).is_some() {
        input.clear();
    } else {
        let lines: Vec<&[u8]> = input.split_inclusive(|&b| b == b'\n').collect();
        let lines = shrinker.ddmin(lines);
        let lines = shrinker.drop_pairs(lines);
        let joined = lines.concat();
        input = if lines.len() <= BYTES_UP_TO_LINES {
            let units: Vec<&[u8]> = joined.chunks(1).collect();
            shrinker.ddmin(units).concat()
        } else {
            joined
        };
    }
    let tests = shrinker.tests.load(Ordering::Relaxed);
    Shrunk {
        input,
        tests,
        cut_short: shrinker.spent(),
    }
}

struct Shrinker<'f, F> {
    fails: &'f F,
    jobs: usize,
    budget: usize,
    deadline: Option<Instant>,
    tests: AtomicUsize,
}

impl<F> Shrinker<'_, F>
where
    F: Fn(&[u8]) -> bool + Sync,
{
    fn spent(&self) -> bool {
        self.tests.load(Ordering::Relaxed) >= self.budget
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The index of the first of `count` candidates (made by `make`, a
    /// batch at a time, so they are never all in memory) that fails,
    /// testing `jobs` at a time; `None` if none does or the budget is spent.
    fn first_failing(&self, count: usize, make: impl Fn(usize) -> Vec<u8>) -> Option<usize> {
        let mut first = 0;
        while first < count {
            if self.spent() {
                return None;
            }
            let batch: Vec<Vec<u8>> = (first..count.min(first.saturating_add(self.jobs)))
                .map(&make)
                .collect();
            self.tests.fetch_add(batch.len(), Ordering::Relaxed);
            let results: Vec<bool> = thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .iter()
                    .map(|candidate| scope.spawn(move || (self.fails)(candidate)))
                    .collect();
                // A test that panicked counts as not failing.
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(false))
                    .collect()
            });
            if let Some(i) = results.iter().position(|&f| f) {
                return Some(first + i);
            }
            first += batch.len();
        }
        None
    }

    /// ddmin over `units`: remove one of `n` chunks at a time while the
    /// rest still fails, `n` growing until chunks are single units. After
    /// a removal the search goes on from where it was, not from the start:
    /// the chunks before it were just found to be needed.
    fn ddmin<'u>(&self, mut units: Vec<&'u [u8]>) -> Vec<&'u [u8]> {
        let mut n = 2;
        let mut from = 0;
        while units.len() >= 2 && !self.spent() {
            let n_now = n.min(units.len());
            let size = units.len().div_ceil(n_now);
            let chunks = units.len().div_ceil(size);
            // Chunk `from` first, then the rest in order, wrapping around.
            let chunk = |k: usize| (from + k) % chunks;
            let without = |k: usize| {
                let start = chunk(k) * size;
                let end = (start + size).min(units.len());
                let kept = units[..start].iter().chain(&units[end..]);
                kept.flat_map(|u| u.iter().copied()).collect()
            };
            match self.first_failing(chunks, without) {
                Some(k) => {
                    let start = chunk(k) * size;
                    let end = (start + size).min(units.len());
                    units.drain(start..end);
                    n = (n_now - 1).max(2);
                    from = chunk(k);
                }
                None if size == 1 => break,
                None => {
                    n = (n_now * 2).min(units.len());
                    from = 0;
                }
            }
        }
        units
    }

    /// Removes two neighbouring lines at a time where one alone would not
    /// do: a move of each player, which keeps the colours of the rest.
    fn drop_pairs<'u>(&self, mut lines: Vec<&'u [u8]>) -> Vec<&'u [u8]> {
        loop {
            let without_pair = |i: usize| {
                let kept = lines[..i].iter().chain(&lines[i + 2..]);
                kept.flat_map(|u| u.iter().copied()).collect()
            };
            match self.first_failing(lines.len().saturating_sub(1), without_pair) {
                Some(i) => {
                    lines.drain(i..i + 2);
                }
                None => return lines,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrinks_to_the_one_line_that_matters() {
        let input = b"who\nview\nplace A1\nbad\nhistory\nterm\n";
        let shrunk = shrink(input, |i| i.windows(3).any(|w| w == b"bad"), 2, 1000, None);
        assert_eq!(shrunk.input, b"bad");
        assert!(!shrunk.cut_short);
    }

    #[test]
    fn keeps_two_lines_needed_together() {
        let input = b"a\nb\nc\nd\ne\nf\n";
        let fails = |i: &[u8]| i.contains(&b'b') && i.contains(&b'e');
        let shrunk = shrink(input, fails, 3, 1000, None);
        assert_eq!(shrunk.input, b"be");
    }

    #[test]
    fn any_number_of_jobs_shrinks_the_same() {
        let input = b"a\nb\nc\nd\ne\nf\n";
        let fails = |i: &[u8]| i.contains(&b'b') && i.contains(&b'e');
        for jobs in [0, 1, 2, 1000, usize::MAX] {
            let shrunk = shrink(input, fails, jobs, 1000, None);
            assert_eq!(shrunk.input, b"be", "jobs {jobs}");
        }
    }

    #[test]
    fn empty_input_is_tried_first() {
        let shrunk = shrink(b"x\ny\n", |_| true, 1, 1000, None);
        assert_eq!((shrunk.input, shrunk.tests), (Vec::new(), 1));
    }

    #[test]
    fn stops_at_the_budget() {
        let input: Vec<u8> = (0..200)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let fails = |i: &[u8]| i.len() > 100;
        let shrunk = shrink(&input, fails, 2, 20, None);
        assert!(shrunk.cut_short);
        assert!(shrunk.tests <= 22, "{} tests", shrunk.tests);
        assert!(fails(&shrunk.input));
    }
}
