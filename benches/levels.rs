//! The level ladder: each level of `--level` against the one above it,
//! from balanced openings with colours swapped. Strength is measured
//! here, never asserted by a test.
//!
//! ```sh
//! cargo bench --bench levels                      # every pair, 1-2 to 9-10
//! GOMOKU_LEVELS=8 cargo bench --bench levels      # only 8 against 9
//! GOMOKU_LEVELS_OPENINGS=4 cargo bench --bench levels
//! ```
//!
//! For each pair: the stronger level's wins, draws and losses, its score,
//! the Elo step with its 95% margin (a normal approximation over games),
//! and the stronger level's mean time a move on this machine.
//! `GOMOKU_LEVELS` (a list such as `1,2,9`; default all) picks the lower
//! level of each pair; `GOMOKU_LEVELS_OPENINGS` (default 16) how many
//! four-stone openings are played, each twice: the engine bench's sixteen
//! first, then more drawn the same way (from the 7×7 square around the
//! centre, with a fixed seed).

#![forbid(unsafe_code)]

#[allow(dead_code)]
#[path = "signature/mod.rs"]
mod signature;

use std::time::{Duration, Instant};

use gomoku_mist::controller::opponent::{Computer, Level, Opponent};
use gomoku_mist::game::{Ending, Game};
use gomoku_mist::player::Player;
use gomoku_mist::point::{Column, Point, Row};
use gomoku_mist::rng::Rng;
use gomoku_mist::rule::Rule;

use signature::{OPENINGS, parse_moves};

/// One game from `opening`: the result for `strong` (1, ½ or 0), and the
/// time `strong` took and the moves it made.
fn play(weak: Level, strong: Level, strong_black: bool, opening: &str) -> (f64, Duration, u32) {
    let mut game = Game::new(Rule::Freestyle);
    for p in parse_moves(opening) {
        if game.place(p).is_err() {
            return (0.5, Duration::ZERO, 0);
        }
    }
    let strong_colour = if strong_black {
        Player::Black
    } else {
        Player::White
    };
    let mut strong_player = Computer::at(strong_colour, strong);
    let mut weak_player = Computer::at(strong_colour.opponent(), weak);
    let (mut thought, mut moves) = (Duration::ZERO, 0);
    loop {
        let strong_moves = game.to_move() == strong_colour;
        let start = Instant::now();
        let chosen = match strong_moves {
            true => strong_player.choose(&game),
            false => weak_player.choose(&game),
        };
        if strong_moves {
            thought += start.elapsed();
            moves += 1;
        }
        let Some(p) = chosen else {
            return (0.5, thought, moves);
        };
        match game.place(p) {
            Ok(None) => {}
            Ok(Some(Ending::Win { winner })) => {
                let score = if winner == strong_colour { 1.0 } else { 0.0 };
                return (score, thought, moves);
            }
            Ok(Some(Ending::Tie)) => return (0.5, thought, moves),
            // The computer only offers empty points; should it not, it loses.
            Err(_) => return (if strong_moves { 0.0 } else { 1.0 }, thought, moves),
        }
    }
}

/// `n` openings: the engine bench's, then more of four distinct stones
/// drawn from the 7×7 square around the centre.
fn openings(n: usize) -> Vec<String> {
    let mut all: Vec<String> = OPENINGS.iter().take(n).map(|o| (*o).to_owned()).collect();
    let mut rng = Rng::new(0x1e7e15);
    while all.len() < n {
        let mut stones: Vec<Point> = Vec::new();
        while stones.len() < 4 {
            let column = Column::new(7 + rng.below(7) as u8);
            let row = Row::new(7 + rng.below(7) as u8);
            if let Some(p) = column.zip(row).map(|(c, r)| Point::new(c, r)) {
                if !stones.contains(&p) {
                    stones.push(p);
                }
            }
        }
        let text: String = stones.iter().map(ToString::to_string).collect();
        if !all.contains(&text) {
            all.push(text);
        }
    }
    all
}

/// The Elo difference for a score `p`.
fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / p - 1.0).log10()
}

fn shown(x: f64) -> String {
    if x.abs() > 1000.0 {
        format!("{}inf", if x > 0.0 { "+" } else { "-" })
    } else {
        format!("{x:+.0}")
    }
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the command line.
    let openings: usize = std::env::var("GOMOKU_LEVELS_OPENINGS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(OPENINGS.len());
    let openings = self::openings(openings);
    let lows: Vec<u8> = std::env::var("GOMOKU_LEVELS")
        .ok()
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| (1..10).collect());
    println!(
        "| levels | nodes a move | games | +won =drawn -lost | score | Elo step [95%] | time a move |"
    );
    println!("|---|---|---|---|---|---|---|");
    for low in lows {
        let (Some(weak), Some(strong)) = (Level::new(low), Level::new(low + 1)) else {
            continue;
        };
        let (mut w, mut d, mut l) = (0, 0, 0);
        let mut results = Vec::new();
        let (mut thought, mut moves) = (Duration::ZERO, 0);
        for opening in &openings {
            for strong_black in [true, false] {
                let (score, t, m) = play(weak, strong, strong_black, opening);
                thought += t;
                moves += m;
                match score {
                    1.0 => w += 1,
                    0.0 => l += 1,
                    _ => d += 1,
                }
                results.push(score);
            }
        }
        let n = results.len() as f64;
        let mean = results.iter().sum::<f64>() / n;
        let sd = (results.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt() / n.sqrt();
        let (lo, hi) = (elo(mean - 1.96 * sd), elo(mean + 1.96 * sd));
        println!(
            "| {} vs {} | {} vs {} | {} | +{w} ={d} -{l} | {:.0}% | {} [{} .. {}] | {:.0} ms |",
            strong.number(),
            weak.number(),
            strong.nodes(),
            if weak.careless() {
                "none (random)".to_owned()
            } else {
                weak.nodes().to_string()
            },
            results.len(),
            100.0 * mean,
            shown(elo(mean)),
            shown(lo),
            shown(hi),
            thought.as_secs_f64() * 1000.0 / f64::from(moves.max(1)),
        );
    }
}
