//! What a search may spend, and the check that stops it.
//!
//! Only a node budget is deterministic: with no time limit the clock is
//! never read, so the same position always gets the same move. This sits
//! below the searcher: it knows nothing of how a search spends its
//! budget.

use std::time::{Duration, Instant};

/// The deepest iteration of the deepening search.
pub const MAX_DEPTH: u32 = 64;

/// What a search may spend. All `None` = a sensible default (about 1 s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time.
    pub time: Option<Duration>,
    /// Nodes (threat-solver nodes included); the only deterministic limit.
    pub nodes: Option<u64>,
    /// Iterations of the deepening search.
    pub depth: Option<u32>,
    /// Threads searching at once (`None`: as the engine is set, see
    /// [`Engine::set_threads`](super::Engine::set_threads)). Only a
    /// search bounded by time alone uses more than one: a node or depth
    /// limit keeps it on one thread, and deterministic.
    pub threads: Option<u32>,
}

/// The time spent when no limit at all is given.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// Nodes between two looks at the clock: small enough that a search stops
/// within a millisecond or so of its deadline.
pub const CHECK_EVERY: u64 = 256;

/// Limits turned into a stop rule for one search.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    deadline: Option<Instant>,
    nodes: Option<u64>,
    /// The deepest iteration allowed.
    pub depth: u32,
}

impl Budget {
    /// The budget for `limits`, starting now.
    pub fn start(limits: Limits) -> Budget {
        let time = match limits {
            Limits {
                time: None,
                nodes: None,
                depth: None,
                ..
            } => Some(DEFAULT_TIME),
            _ => limits.time,
        };
        Budget {
            deadline: time.map(|t| Instant::now() + t),
            nodes: limits.nodes,
            depth: limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH),
        }
    }

    /// Whether a search that has visited `nodes` nodes must stop. The
    /// clock is read only every [`CHECK_EVERY`] nodes.
    pub fn exhausted(&self, nodes: u64) -> bool {
        if self.nodes.is_some_and(|limit| nodes >= limit) {
            return true;
        }
        match self.deadline {
            Some(deadline) if nodes % CHECK_EVERY == 0 => Instant::now() >= deadline,
            _ => false,
        }
    }

    /// Whether the budget is spent, reading the clock now.
    pub fn exhausted_now(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|limit| nodes >= limit)
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// The budget of a sub-search that may use `1/part` of what is left,
    /// and at most `cap` nodes: the cap keeps it bounded (and
    /// deterministic) even when only a depth is given.
    pub fn share(&self, nodes: u64, part: u32, cap: u64) -> Budget {
        let left = self
            .nodes
            .map_or(cap, |limit| limit.saturating_sub(nodes) / u64::from(part));
        let deadline = self.deadline.map(|deadline| {
            let now = Instant::now();
            now + deadline.saturating_duration_since(now) / part
        });
        Budget {
            deadline,
            nodes: Some(nodes + left.min(cap)),
            depth: self.depth,
        }
    }
}
