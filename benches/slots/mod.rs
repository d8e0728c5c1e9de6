//! Match records compared slot by slot: a match of a fixed set of
//! openings, each played with both colours (as `match.sh` plays
//! Piskvork's 41 through c-gomoku-cli), plays the same 82 *slots* (an
//! opening and our colour in it) in every order, and a slot mostly ends
//! the same way each time it is played. So a build's result in a slot is
//! best compared with what the builds before it scored in that same slot,
//! not with their score over every slot: against Rapfi at a second a move
//! the variance of one game's result within its slot is about half of a
//! game's variance alone (0.12 against 0.24), and a difference measured
//! slot by slot needs half the games for the same margin.
//!
//! The records are c-gomoku-cli's SGF: one game a `(;…)`, the players in
//! `PB[…]` and `PW[…]`, the result in `RE[B+1]`, `RE[W+1]` or `RE[0]`
//! (a draw), the opening's stones as moves with the comment
//! `C[opening move]`.

use std::collections::BTreeMap;

/// One game from our side: its slot, and what we scored (1, ½ or 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub slot: Slot,
    pub score: f64,
}

/// An opening (its stones, in the record's notation) and whether we
/// played Black in it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Slot {
    pub opening: String,
    pub black: bool,
}

/// The games of an SGF `text` in which the player named `ours` took part,
/// from its side; an error names the first game that cannot be read.
pub fn parse(text: &str, ours: &str) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for (n, record) in text.split("(;").skip(1).enumerate() {
        let n = n + 1;
        let field = |name: &str| {
            let start = record.find(&format!("{name}["))? + name.len() + 1;
            let len = record[start..].find(']')?;
            Some(&record[start..start + len])
        };
        let (Some(black), Some(white), Some(result)) = (field("PB"), field("PW"), field("RE"))
        else {
            return Err(format!("game {n}: no PB, PW or RE"));
        };
        let black_is_ours = if black == ours {
            true
        } else if white == ours {
            false
        } else {
            continue;
        };
        let winner_black = match result {
            "0" => None,
            r if r.starts_with("B+") => Some(true),
            r if r.starts_with("W+") => Some(false),
            r => return Err(format!("game {n}: result {r:?}")),
        };
        let opening: Vec<&str> = record
            .split(';')
            .filter(|m| m.contains("C[opening move]"))
            .filter_map(|m| {
                let start = m.find('[')? + 1;
                Some(&m[start..start + m[start..].find(']')?])
            })
            .collect();
        if opening.is_empty() {
            return Err(format!("game {n}: no opening moves"));
        }
        games.push(Game {
            slot: Slot {
                opening: opening.join(" "),
                black: black_is_ours,
            },
            score: match winner_black {
                None => 0.5,
                Some(b) if b == black_is_ours => 1.0,
                Some(_) => 0.0,
            },
        });
    }
    Ok(games)
}

/// A baseline's results by slot, worked out once, against which each
/// candidate is measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Baseline {
    /// Each slot's mean, sample variance and number of games.
    by_slot: BTreeMap<Slot, (f64, f64, f64)>,
    /// The games, and the slots they cover.
    pub games: usize,
    pub slots: usize,
    /// The score, and its 95% margin given its slots.
    pub score: f64,
    pub margin: f64,
    /// The mean over the slots of a game's variance within its slot, and
    /// the variance of a game over all of them.
    pub within: f64,
    pub overall: f64,
}

/// A candidate measured against a [`Baseline`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// Its games in a baseline slot, and in none (left out).
    pub games: usize,
    pub unpaired: usize,
    /// Its score over its paired games.
    pub score: f64,
    /// Its difference from the baseline's mean in each game's slot,
    /// averaged, and the 95% margin of that.
    pub difference: f64,
    pub margin: f64,
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn sample_variance(v: &[f64]) -> f64 {
    let m = mean(v);
    v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64
}

impl Baseline {
    /// The baseline of `games`; none without a game. A slot's variance is
    /// its games' sample variance, a slot of one game taking the mean of
    /// the others'; margins are 1.96 standard errors.
    pub fn new(games: &[Game]) -> Option<Baseline> {
        let mut scores: BTreeMap<Slot, Vec<f64>> = BTreeMap::new();
        for g in games {
            scores.entry(g.slot.clone()).or_default().push(g.score);
        }
        let known: Vec<f64> = scores
            .values()
            .filter(|v| v.len() > 1)
            .map(|v| sample_variance(v))
            .collect();
        let fallback = if known.is_empty() { 0.25 } else { mean(&known) };
        let by_slot: BTreeMap<Slot, (f64, f64, f64)> = scores
            .into_iter()
            .map(|(s, v)| {
                let var = if v.len() > 1 {
                    sample_variance(&v)
                } else {
                    fallback
                };
                (s, (mean(&v), var, v.len() as f64))
            })
            .collect();
        let all: Vec<f64> = games.iter().map(|g| g.score).collect();
        let n = all.len() as f64;
        let variances: Vec<f64> = by_slot.values().map(|&(_, var, _)| var).collect();
        let score_var = by_slot.values().map(|&(_, var, k)| k * var).sum::<f64>() / (n * n);
        (!all.is_empty()).then(|| Baseline {
            games: all.len(),
            slots: by_slot.len(),
            score: mean(&all),
            margin: 1.96 * score_var.sqrt(),
            within: mean(&variances),
            overall: if all.len() > 1 {
                sample_variance(&all)
            } else {
                0.25
            },
            by_slot,
        })
    }

    /// `cand` measured slot by slot; the difference's margin counts the
    /// error of each slot's baseline mean as well.
    pub fn measure(&self, cand: &[Game]) -> Measured {
        let mut in_slot: BTreeMap<&Slot, f64> = BTreeMap::new();
        let (mut sum, mut diff) = (0.0, 0.0);
        for g in cand {
            if let Some(&(p, _, _)) = self.by_slot.get(&g.slot) {
                *in_slot.entry(&g.slot).or_default() += 1.0;
                sum += g.score;
                diff += g.score - p;
            }
        }
        let m: f64 = in_slot.values().sum();
        let var: f64 = in_slot
            .iter()
            .map(|(s, &c)| {
                let (_, var, k) = self.by_slot[*s];
                c * var + c * c * var / k
            })
            .sum();
        let per_game = |x: f64| if m > 0.0 { x / m } else { 0.0 };
        let games = m as usize;
        Measured {
            games,
            unpaired: cand.len() - games,
            score: per_game(sum),
            difference: per_game(diff),
            margin: per_game(1.96 * var.sqrt()),
        }
    }
}
