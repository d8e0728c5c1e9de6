//! How a search's score swings with the depth's parity, apart from how it
//! drifts.
//!
//! Between two depths a score both drifts (the deeper search knows more)
//! and may swing (a leaf with one side to move is scored higher than a
//! leaf with the other). The steps one depth apart and two apart, which
//! the benches also print, mix the two. Here each completed depth's score
//! is compared with the mean of the scores one depth shallower and one
//! deeper: a drift at a steady rate leaves nothing, a swing leaves its
//! size. Signed by the depth's parity, the mean over a search is its
//! swing: positive where the even depths stand above their neighbours,
//! negative where the odd ones do. The direction depends on the position
//! (the side to move's weight lifts the depths whose leaves it moves at;
//! an open three made at the root and not yet blocked at a shallow leaf
//! lifts the others), so the benches average its size.

/// The swing of one search's scores, as `(depth, score)` for each
/// completed depth in order, mates left out: the mean over every depth
/// whose neighbours one shallower and one deeper are both there of its
/// score less their mean, taken positive at even depths and negative at
/// odd ones. `None` where no depth has both neighbours.
pub fn swing(scores: &[(u32, i32)]) -> Option<f64> {
    let offsets: Vec<f64> = scores
        .windows(3)
        .filter(|w| w[0].0 + 1 == w[1].0 && w[1].0 + 1 == w[2].0)
        .map(|w| {
            let (shallower, (depth, score), deeper) = (w[0].1, w[1], w[2].1);
            let off = f64::from(score) - (f64::from(shallower) + f64::from(deeper)) / 2.0;
            if depth % 2 == 0 { off } else { -off }
        })
        .collect();
    (!offsets.is_empty()).then(|| offsets.iter().sum::<f64>() / offsets.len() as f64)
}

#[cfg(test)]
mod tests {
    /// A score that alternates has the alternation's size, signed by
    /// which depths stand high; one that drifts steadily has none.
    #[test]
    fn a_swing_is_measured_and_a_drift_is_not() {
        use super::swing;
        // Scores from depth 1 on.
        let at =
            |scores: &[i32]| -> Vec<(u32, i32)> { (1..).zip(scores.iter().copied()).collect() };
        // Even depths 300 above the odd ones: each stands 300 above the
        // mean of its neighbours.
        assert_eq!(swing(&at(&[-100, 200, -100, 200, -100])), Some(300.0));
        assert_eq!(swing(&at(&[200, -100, 200, -100])), Some(-300.0));
        assert_eq!(swing(&at(&[0, 50, 100, 150, 200])), Some(0.0));
        // A swing on top of a drift is the swing.
        assert_eq!(swing(&at(&[0, 350, 100, 450, 200])), Some(300.0));
    }

    /// Only depths with both neighbours count: a gap (a mate left out)
    /// breaks the run, and too short a run has no swing.
    #[test]
    fn only_depths_with_both_neighbours_count() {
        use super::swing;
        assert_eq!(swing(&[(1, 10), (2, 20)]), None);
        assert_eq!(swing(&[]), None);
        assert_eq!(swing(&[(1, 0), (2, 100), (4, 0)]), None);
        // Depth 2 has both neighbours (100 above their mean); depth 5
        // has none, across the gap.
        assert_eq!(swing(&[(1, 0), (2, 100), (3, 0), (5, 40)]), Some(100.0));
    }
}
