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

/// The mean size of the swings of `searches` (each as [`swing`] takes
/// it), over those that have one.
pub fn mean_size(searches: &[Vec<(u32, i32)>]) -> Option<f64> {
    let sizes: Vec<f64> = searches
        .iter()
        .filter_map(|s| swing(s))
        .map(f64::abs)
        .collect();
    (!sizes.is_empty()).then(|| sizes.iter().sum::<f64>() / sizes.len() as f64)
}

/// What the swing's size would be by chance: the same searches with each
/// one's steps from depth to depth (within each run of consecutive
/// depths) put in a random order, `orders` times. Every step keeps its
/// size and sign, so a drift and the noise of a score that moves a lot
/// from depth to depth stay; only an order tied to the depth's parity is
/// lost. A score that swings has a larger swing than most of its
/// reorderings; one that only drifts and wanders, about the median.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chance {
    /// The searches' mean swing size, as measured.
    pub size: f64,
    /// The median of the mean swing size over the reorderings.
    pub median: f64,
    /// Its 95th percentile.
    pub high: f64,
    /// The share of the reorderings (counting the searches' own order
    /// among them) whose swing is at least as large: how likely a swing
    /// this large is by chance alone.
    pub p: f64,
}

/// [`Chance`] for `searches`, over `orders` reorderings drawn from `seed`;
/// `None` where no search has a swing.
pub fn by_chance(searches: &[Vec<(u32, i32)>], orders: u32, seed: u64) -> Option<Chance> {
    let size = mean_size(searches)?;
    let mut sizes: Vec<f64> = (0..orders)
        .filter_map(|n| {
            let mut rng = gomoku_mist::rng::Rng::for_case(seed, u64::from(n));
            let reordered: Vec<_> = searches.iter().map(|s| reorder(s, &mut rng)).collect();
            mean_size(&reordered)
        })
        .collect();
    sizes.sort_by(f64::total_cmp);
    let at = |q: f64| {
        sizes
            .get(((sizes.len() as f64 - 1.0) * q).round() as usize)
            .copied()
    };
    let larger = sizes.iter().filter(|&&s| s >= size).count();
    Some(Chance {
        size,
        median: at(0.5)?,
        high: at(0.95)?,
        p: (larger + 1) as f64 / (sizes.len() + 1) as f64,
    })
}

/// `scores` with the steps of each run of consecutive depths shuffled,
/// each run starting from its own first score, the depths unchanged.
fn reorder(scores: &[(u32, i32)], rng: &mut gomoku_mist::rng::Rng) -> Vec<(u32, i32)> {
    let mut out = Vec::with_capacity(scores.len());
    for run in scores.chunk_by(|a, b| a.0 + 1 == b.0) {
        let mut steps: Vec<i32> = run.windows(2).map(|w| w[1].1 - w[0].1).collect();
        rng.shuffle(&mut steps);
        let mut score = run[0].1;
        out.push(run[0]);
        for (&(depth, _), step) in run[1..].iter().zip(steps) {
            score += step;
            out.push((depth, score));
        }
    }
    out
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

    /// Scores that alternate with the depth's parity swing more than any
    /// reordering of their steps; scores that wander with no tie to the
    /// parity do not stand out; reordering keeps each run's first score,
    /// its depths and its steps.
    #[test]
    fn a_swing_stands_out_from_its_steps_reordered_and_a_wander_does_not() {
        use super::{by_chance, reorder};
        let at = |scores: Vec<i32>| -> Vec<(u32, i32)> { (1..).zip(scores).collect() };
        // Twelve searches that swing by 200 about a drift of 30 a depth.
        let swinging: Vec<_> = (0..12)
            .map(|k| {
                at((0..12)
                    .map(|d| k * 10 + d * 30 + if d % 2 == 0 { 200 } else { 0 })
                    .collect())
            })
            .collect();
        let chance = by_chance(&swinging, 200, 1).expect("every search has a swing");
        assert!((chance.size - 200.0).abs() < 1e-9, "{chance:?}");
        assert!(chance.high < chance.size && chance.p < 0.01, "{chance:?}");
        // Twelve random walks (steps from a fixed generator, no parity).
        let mut rng = gomoku_mist::rng::Rng::new(7);
        let wandering: Vec<_> = (0..12)
            .map(|_| {
                let mut s = 0;
                at((0..12)
                    .map(|_| {
                        s += rng.below(401) as i32 - 200;
                        s
                    })
                    .collect())
            })
            .collect();
        let chance = by_chance(&wandering, 200, 1).expect("every search has a swing");
        assert!(chance.p > 0.05 && chance.size < chance.high, "{chance:?}");
        // A run broken by a gap is reordered run by run.
        let scores = [(1, 0), (2, 10), (3, 30), (5, 100), (6, 90)];
        let mut rng = gomoku_mist::rng::Rng::new(3);
        let again = reorder(&scores, &mut rng);
        let depths: Vec<u32> = again.iter().map(|s| s.0).collect();
        assert_eq!(depths, [1, 2, 3, 5, 6]);
        assert_eq!(
            (again[0].1, again[2].1, again[3].1, again[4].1),
            (0, 30, 100, 90)
        );
    }
}
