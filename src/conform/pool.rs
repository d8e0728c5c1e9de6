//! Work over a list on a few threads, handed back in the list's order.
//!
//! `check`, `mark` and `mark`'s memory step all run one slow program per
//! item and must report in the items' order, yet as soon as they can: a
//! result is handed on once every one before it has been.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

/// What a worker says about an item.
enum Event<R> {
    Started(usize),
    Done(usize, R),
}

/// What the caller hears of an item before its result is handed on.
#[derive(Clone, Copy)]
pub enum Seen {
    /// A worker took item `n`.
    Started(usize),
    /// Item `n` is done (its result may wait for those before it).
    Done(usize),
}

/// `work` on every item of `items` on at most `workers` threads (at least
/// one, at most one an item). `seen` hears of every start and end as it
/// happens (for a progress line); `each` gets every result in the items'
/// order. The first error of `each` stops the handing on and is returned;
/// workers then stop at their next item.
///
/// # Errors
///
/// The first error `each` returns.
pub fn ordered<T: Sync, R: Send, E>(
    items: &[T],
    workers: usize,
    work: impl Fn(usize, &T) -> R + Sync,
    mut seen: impl FnMut(Seen),
    mut each: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E> {
    let next = AtomicUsize::new(0);
    thread::scope(|scope| {
        let (send, events) = mpsc::channel();
        for _ in 0..workers.clamp(1, items.len().max(1)) {
            let send = send.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(index) else { break };
                    if send.send(Event::Started(index)).is_err() {
                        break;
                    }
                    let result = work(index, item);
                    if send.send(Event::Done(index, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut handed = 0;
        for event in events {
            match event {
                Event::Started(index) => seen(Seen::Started(index)),
                Event::Done(index, result) => {
                    waiting.insert(index, result);
                    seen(Seen::Done(index));
                }
            }
            while let Some(result) = waiting.remove(&handed) {
                each(handed, result)?;
                handed += 1;
            }
        }
        Ok(())
    })
}

/// `work` on every item, on at most `workers` threads: the results in the
/// items' order.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    work: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let mut all = Vec::with_capacity(items.len());
    let done: Result<(), std::convert::Infallible> = ordered(
        items,
        workers,
        work,
        |_| {},
        |_, result| {
            all.push(result);
            Ok(())
        },
    );
    let Ok(()) = done;
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_order_whatever_order_they_end_in() {
        let items: Vec<u64> = (0..20).collect();
        let got = map(&items, 4, |i, &n| {
            thread::sleep(std::time::Duration::from_millis((20 - n) % 7));
            (i, n * n)
        });
        let want: Vec<(usize, u64)> = (0..20).map(|n| (n as usize, n * n)).collect();
        assert_eq!(got, want);
    }
}
