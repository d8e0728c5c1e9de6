//! Time management: how long the brain may think on one move.
//!
//! The manager measures a turn from sending its command to reading the
//! reply, so the brain is given less than the limit: a margin covers the
//! pipes, the scheduler and a search that stops a little late.
//!
//! - `timeout_turn` bounds every move; 0 means "play as fast as possible"
//!   and gives a zero budget. Until the manager says, a turn is
//!   [`DEFAULT_TURN`].
//! - `time_left` bounds the rest of the match; one move may use a
//!   [`MOVES_TO_GO`]th of it. It is ignored once `timeout_match` is 0,
//!   which means "no limit".
//!
//! The budget is the smaller of the two shares, each less its margin.

use std::time::Duration;

/// A move's limit until the manager sends `timeout_turn`.
pub const DEFAULT_TURN: Duration = Duration::from_secs(1);
/// How many more moves the time left is shared among.
pub const MOVES_TO_GO: u32 = 25;
/// The smallest margin kept back from a limit.
pub const MIN_MARGIN: Duration = Duration::from_millis(30);
/// The part of a limit kept back as a margin.
const MARGIN_PART: u32 = 25;
/// The largest margin kept back from a limit.
pub const MAX_MARGIN: Duration = Duration::from_millis(500);

/// What the manager has said about time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// `timeout_turn`, if sent.
    pub turn: Option<Duration>,
    /// `timeout_match`, if sent: `Some(ZERO)` means no match limit.
    pub matches: Option<Duration>,
    /// `time_left`, if sent.
    pub left: Option<Duration>,
}

impl Clock {
    /// How long the next move may take.
    pub fn budget(&self) -> Duration {
        let turn = less_margin(self.turn.unwrap_or(DEFAULT_TURN));
        let unlimited_match = self.matches == Some(Duration::ZERO);
        match self.left {
            Some(left) if !unlimited_match => turn.min(less_margin(left / MOVES_TO_GO)),
            _ => turn,
        }
    }
}

/// `limit` less a 25th of it, but at least [`MIN_MARGIN`] and at most
/// [`MAX_MARGIN`]; zero if nothing is left. A search stops within a
/// millisecond or two of its budget (c-gomoku-cli's game records show
/// moves of 901 ms against a budget of 900): the margin is for the pipes
/// and a busy machine, 40 ms at 1 s, where a tenth threw 100 ms away.
fn less_margin(limit: Duration) -> Duration {
    limit.saturating_sub((limit / MARGIN_PART).clamp(MIN_MARGIN, MAX_MARGIN))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn budgets() {
        // (timeout_turn, timeout_match, time_left) -> budget, all in ms.
        type Case = (Option<u64>, Option<u64>, Option<u64>, u64);
        let cases: &[Case] = &[
            (None, None, None, 960),
            (Some(5_000), None, None, 4_800),
            (Some(1_000), None, None, 960),
            (Some(100), None, None, 70),
            (Some(30_000), None, None, 29_500),
            (Some(0), None, None, 0),
            (Some(20), None, None, 0),
            // The match share wins when it is smaller.
            (Some(5_000), Some(180_000), Some(50_000), 1_920),
            (Some(5_000), None, Some(50_000), 1_920),
            (Some(5_000), Some(180_000), Some(1_000_000), 4_800),
            (Some(5_000), Some(180_000), Some(0), 0),
            (Some(5_000), Some(180_000), Some(500), 0),
            // timeout_match 0: no match limit, time_left does not count.
            (Some(5_000), Some(0), Some(1_000), 4_800),
        ];
        for &(turn, matches, left, expected) in cases {
            let clock = Clock {
                turn: turn.map(ms),
                matches: matches.map(ms),
                left: left.map(ms),
            };
            assert_eq!(clock.budget(), ms(expected), "{clock:?}");
        }
    }

    #[test]
    fn a_budget_never_reaches_a_limit_that_is_not_zero() {
        for limit in [1, 10, 29, 30, 31, 299, 300, 301, 4_999, 5_001, 60_000] {
            let clock = Clock {
                turn: Some(ms(limit)),
                ..Clock::default()
            };
            assert!(clock.budget() < ms(limit), "turn {limit} ms: {clock:?}");
            let clock = Clock {
                turn: Some(ms(u64::MAX / 2)),
                matches: Some(ms(1)),
                left: Some(ms(limit * u64::from(MOVES_TO_GO))),
            };
            assert!(clock.budget() < ms(limit), "left {limit} ms: {clock:?}");
        }
    }
}
