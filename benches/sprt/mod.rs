//! SPRT self-play: the engine of this build against a previous build of
//! the brain, driven through the Gomocup protocol, until a sequential
//! probability ratio test accepts or rejects the change.
//!
//! The hypotheses are Elo `elo0` (H0: no better) against `elo1` (H1: at
//! least this much better), logistic Elo. Games are played in pairs, one
//! opening with colours swapped, and the test counts pairs, not games:
//! the **pentanomial** model (a pair scores 0, ½, 1, 1½ or 2), whose
//! variance leaves out what the opening and colour decide, so it needs
//! fewer games than the trinomial (win, draw, loss) one for the same
//! error rates. The log-likelihood ratio is the usual normal
//! approximation of the generalised LLR,
//!
//! ```text
//! LLR = N (s1 − s0)(2s − s0 − s1) / (2 σ²)
//! ```
//!
//! with N pairs, s their mean score (a pair's score halved, so 0 to 1), σ²
//! the variance of a pair's score and s0, s1 the scores of `elo0` and
//! `elo1`; the test stops when it leaves `[ln(β/(1−α)), ln((1−β)/α)]`,
//! after at least [`MIN_PAIRS`] pairs, σ² floored at 0.01 (see
//! [`Pentanomial::llr`]). The new build plays in this process with the
//! time budget the base brain's clock gives itself, so neither side is
//! handicapped by the other's margin.
//! [`llr`] keeps the trinomial form for a tally of single games.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use gomoku_mist::engine::{Engine, Limits, Setup, Spot};
use gomoku_mist::gomocup::clock::Clock;
use gomoku_mist::player::Player;
use gomoku_mist::rule::Rule;

/// Win, draw and loss counts of the new build.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) for
/// `tally`; 0 while it says nothing (no games, or no variance).
pub fn llr(tally: Tally, elo0: f64, elo1: f64) -> f64 {
    let (w, d, l) = (
        f64::from(tally.wins),
        f64::from(tally.draws),
        f64::from(tally.losses),
    );
    let n = w + d + l;
    if n == 0.0 {
        return 0.0;
    }
    let s = (w + d / 2.0) / n;
    let var = (w * (1.0 - s).powi(2) + l * s.powi(2) + d * (0.5 - s).powi(2)) / n;
    if var <= 0.0 {
        return 0.0;
    }
    let expected = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    let (s0, s1) = (expected(elo0), expected(elo1));
    n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}

/// The bounds for error rates `alpha` and `beta`.
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The scores a side expects at `elo`, logistic.
pub fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo of a score from 0 to 1 (infinite at 0 and 1).
pub fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Pairs of games (one opening, colours swapped) by the new build's
/// score over the pair in half points: `counts[k]` pairs scored `k / 2`
/// (0: two losses … 4: two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Adds a pair whose two games scored `half_points` (0 to 4) in all.
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The mean score of a pair (0 to 1) and the variance of one pair's
    /// score; `None` before the first pair.
    fn moments(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return None;
        }
        let score = |k: usize| k as f64 / 4.0;
        let mean = (0..5)
            .map(|k| f64::from(self.counts[k]) * score(k))
            .sum::<f64>()
            / n;
        let var = (0..5)
            .map(|k| f64::from(self.counts[k]) * (score(k) - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }

    /// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`); 0
    /// before the first pair. The variance is floored at 0.01 (a pair's
    /// score is within 0 and 1, so σ² is at most 0.25): with every pair
    /// alike it is 0 and the ratio unbounded. Gomoku openings often go to
    /// the side that moves first, every pair a win and a loss: with a
    /// floor of 0.001 four such pairs accepted H0, with 0.01 it takes
    /// some thirty (at elo1 30), and a run of double wins still decides.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let Some((s, var)) = self.moments() else {
            return 0.0;
        };
        let (s0, s1) = (expected(elo0), expected(elo1));
        f64::from(self.pairs()) * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var.max(0.01))
    }

    /// The Elo estimate and its 95% interval, from the pairs' mean and
    /// variance; `None` before the first pair.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let (s, var) = self.moments()?;
        let margin = 1.96 * (var / f64::from(self.pairs())).sqrt();
        let clamp = |x: f64| x.clamp(1e-6, 1.0 - 1e-6);
        Some((
            elo_of(clamp(s)),
            elo_of(clamp(s - margin)),
            elo_of(clamp(s + margin)),
        ))
    }
}

/// Checks [`Pentanomial::llr`] and [`Pentanomial::elo`] against figures
/// worked out with the formula above in double precision (python3) for
/// elo0 = 0, elo1 = 30: pairs [5, 20, 40, 25, 10] give LLR 1.0708, Elo
/// +26.11 (95%: −8.46 .. +61.20); [10, 20, 40, 20, 10] give −1.2365, Elo 0
/// (−37.44 .. +37.44); [2, 10, 30, 40, 18] give 10.0445, Elo +111.37;
/// [30, 40, 20, 8, 2] give −16.8863, Elo −164.07. The trinomial [`llr`]
/// of +112 =0 −88 is 1.3447 (the run that made the cap 200 too small).
pub fn self_test() -> Result<(), String> {
    let cases = [
        ([5, 20, 40, 25, 10], 1.0708, 26.11, -8.46, 61.20),
        ([10, 20, 40, 20, 10], -1.2365, 0.0, -37.44, 37.44),
        ([2, 10, 30, 40, 18], 10.0445, 111.37, 76.33, 148.75),
        ([30, 40, 20, 8, 2], -16.8863, -164.07, -208.58, -124.09),
    ];
    let near = |a: f64, b: f64, within: f64| (a - b).abs() < within;
    for (counts, llr, elo, lo, hi) in cases {
        let pairs = Pentanomial { counts };
        let got = pairs.llr(0.0, 30.0);
        let (e, l, h) = pairs.elo().ok_or("no pairs")?;
        if !(near(got, llr, 1e-3) && near(e, elo, 0.01) && near(l, lo, 0.01) && near(h, hi, 0.01)) {
            return Err(format!(
                "pairs {counts:?}: LLR {got:.4}, Elo {e:.2} ({l:.2} .. {h:.2}); \
                 expected {llr}, {elo} ({lo} .. {hi})"
            ));
        }
    }
    let got = llr(
        Tally {
            wins: 112,
            draws: 0,
            losses: 88,
        },
        0.0,
        30.0,
    );
    if !near(got, 1.3447, 1e-3) {
        return Err(format!(
            "+112 =0 -88: trinomial LLR {got:.4}, expected 1.3447"
        ));
    }
    if Pentanomial::default().llr(0.0, 30.0) != 0.0 {
        return Err("no pairs: the LLR is not 0".to_owned());
    }
    Ok(())
}

/// A Gomocup brain (a previous build of ours, or another engine), as a
/// child process.
pub struct Brain {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Brain {
    pub fn start(path: &str) -> Brain {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {path}: {e}"));
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        Brain {
            child,
            input,
            output,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the brain reads");
        self.input.flush().expect("the brain reads");
    }

    /// The next line that is not a MESSAGE or DEBUG.
    fn reply(&mut self) -> String {
        self.reply_keeping(&mut Vec::new())
    }

    /// [`Self::reply`], keeping the MESSAGEs before it (without the word).
    fn reply_keeping(&mut self, messages: &mut Vec<String>) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.output.read_line(&mut line).expect("the brain writes");
            assert!(n > 0, "the brain ended");
            let text = line.trim();
            if let Some(message) = text.strip_prefix("MESSAGE") {
                messages.push(message.trim().to_owned());
            } else if !text.starts_with("DEBUG") {
                return text.to_owned();
            }
        }
    }

    /// The MESSAGEs up to the brain's move (a line `x,y`), other replies
    /// before it (to a command the brain does not know) skipped.
    pub fn messages_until_move(&mut self) -> Vec<String> {
        let mut messages = Vec::new();
        loop {
            let reply = self.reply_keeping(&mut messages);
            let is_move = reply.split_once(',').is_some_and(|(x, y)| {
                x.trim().parse::<u8>().is_ok() && y.trim().parse::<u8>().is_ok()
            });
            if is_move {
                return messages;
            }
        }
    }

    fn exchange(&mut self, line: &str) -> Spot {
        self.send(line);
        let reply = self.reply();
        let parsed = reply.split_once(',').and_then(|(x, y)| {
            Some(Spot {
                x: x.trim().parse().ok()?,
                y: y.trim().parse().ok()?,
            })
        });
        parsed.unwrap_or_else(|| panic!("the base brain answered {reply:?} to {line}"))
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "END");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

/// Whether the stone at `s` makes five or more for its colour.
fn five(grid: &[Option<Player>], size: u8, s: Spot) -> bool {
    let n = i32::from(size);
    let at = |x: i32, y: i32| {
        ((0..n).contains(&x) && (0..n).contains(&y)).then(|| grid[(y * n + x) as usize])?
    };
    let (x, y) = (i32::from(s.x), i32::from(s.y));
    let me = at(x, y);
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let run = |sign: i32| {
            (1..)
                .take_while(|k| at(x + sign * k * dx, y + sign * k * dy) == me)
                .count()
        };
        1 + run(1) + run(-1) >= 5
    })
}

/// How the games are played and when the test stops.
#[derive(Clone, Debug)]
pub struct Options {
    /// The previous build's `pbrain-gomoku-mist`.
    pub base: String,
    /// The board's side.
    pub size: u8,
    /// Milliseconds a move, when no node budget is given.
    pub ms: u64,
    /// Nodes a move for both sides (the brain's `INFO max_node`), in
    /// place of time.
    pub nodes: Option<u64>,
    /// H0's and H1's Elo.
    pub elo: (f64, f64),
    /// The most games before giving up without a verdict.
    pub max_games: u32,
    /// Pairs played at once (each game takes one core for each side in
    /// turn, so one pair per core).
    pub concurrency: u32,
    /// Threads each side searches on (a node budget keeps a search on
    /// one).
    pub threads: u32,
}

/// One game from `opening` (spots, Black first); `Some(true)` if the new
/// build wins, `None` for a draw.
fn game(options: &Options, opening: &[Spot], new_black: bool) -> Option<bool> {
    let size = options.size;
    let mut brain = Brain::start(&options.base);
    brain.send(&format!("START {size}"));
    assert_eq!(brain.reply(), "OK", "the base brain refused START {size}");
    let limits = match options.nodes {
        Some(nodes) => {
            // Time enough that the node budget decides.
            brain.send(&format!("INFO max_node {nodes}"));
            brain.send("INFO timeout_turn 3600000");
            Limits {
                nodes: Some(nodes),
                ..Limits::default()
            }
        }
        None => {
            brain.send(&format!("INFO timeout_turn {}", options.ms));
            // The budget the base brain gives itself for this
            // `timeout_turn` (its clock keeps a margin of at least 30 ms):
            // at 50 ms a move, 9/10 of it here against 20 ms there made
            // one build beat itself +9 -1.
            let clock = Clock {
                turn: Some(Duration::from_millis(options.ms)),
                ..Clock::default()
            };
            Limits {
                time: Some(clock.budget()),
                ..Limits::default()
            }
        }
    };
    brain.send("INFO rule 0");
    // Both sides on the same threads: the brain alone takes every core,
    // the engine one, and a time-limited test then measured the threads
    // (a build beat by its own search on two threads, +28 -54).
    brain.send(&format!("INFO thread_num {}", options.threads));
    let mut engine = Engine::new(gomoku_mist::engine::DEFAULT_MEMORY);
    engine.set_threads(options.threads);
    let mut setup = Setup::new(size, Rule::Freestyle);
    let mut grid = vec![None; usize::from(size) * usize::from(size)];
    let index = |s: Spot| usize::from(s.y) * usize::from(size) + usize::from(s.x);
    let mut to_move = Player::Black;
    for &s in opening {
        grid[index(s)] = Some(to_move);
        setup.stones.push((s, to_move));
        to_move = to_move.opponent();
    }
    let new_colour = if new_black {
        Player::Black
    } else {
        Player::White
    };
    loop {
        setup.to_move = to_move;
        let s = if to_move == new_colour {
            engine.search(&setup, limits)?.best
        } else {
            // The whole position each turn: simple, and the base brain
            // keeps its hash table (BOARD starts no new game).
            let mut board = String::from("BOARD\n");
            for &(s, p) in &setup.stones {
                let field = if p == to_move { 1 } else { 2 };
                board += &format!("{},{},{field}\n", s.x, s.y);
            }
            board += "DONE";
            brain.exchange(&board)
        };
        if !setup.contains(s) || grid[index(s)].is_some() {
            // An illegal move loses.
            return Some(to_move != new_colour);
        }
        grid[index(s)] = Some(to_move);
        setup.stones.push((s, to_move));
        if five(&grid, size, s) {
            return Some(to_move == new_colour);
        }
        if grid.iter().all(Option::is_some) {
            return None;
        }
        to_move = to_move.opponent();
    }
}

/// The fewest pairs before a verdict.
pub const MIN_PAIRS: u32 = 10;

/// A game's result for the new build: `W`, `D` or `L`, and its half
/// points.
fn result(r: Option<bool>) -> (char, usize) {
    match r {
        Some(true) => ('W', 2),
        None => ('D', 1),
        Some(false) => ('L', 0),
    }
}

/// Runs the test: pairs of games from `openings` in turn, colours swapped,
/// `options.concurrency` pairs at once, until the LLR leaves its bounds or
/// `options.max_games` are played; prints a line per pair and the
/// verdict.
pub fn run(options: &Options, openings: &[Vec<Spot>]) {
    if let Err(e) = self_test() {
        println!("sprt: the self-test of the arithmetic failed: {e}");
        return;
    }
    let (alpha, beta) = (0.05, 0.05);
    let (lower, upper) = bounds(alpha, beta);
    let (elo0, elo1) = options.elo;
    let mut max_pairs = (options.max_games / 2).max(1);
    if options.nodes.is_some() {
        // Under a node budget both sides are deterministic: an opening
        // played again is the same pair of games.
        let distinct = u32::try_from(openings.len()).unwrap_or(u32::MAX);
        if max_pairs > distinct {
            println!(
                "sprt: a node budget replays the same games: at most {} games, one pair per opening",
                2 * distinct
            );
            max_pairs = distinct;
        }
    }
    let budget = options
        .nodes
        .map_or(format!("{} ms", options.ms), |n| format!("{n} nodes"));
    println!(
        "sprt: elo0 {elo0}, elo1 {elo1}, alpha {alpha}, beta {beta}, LLR bounds [{lower:.2}, {upper:.2}]; \
         {size}x{size}, {budget} a move, {} a side, at most {} games, {} at once; pentanomial",
        match options.threads {
            1 => "1 thread".to_string(),
            n => format!("{n} threads"),
        },
        2 * max_pairs,
        options.concurrency.max(1),
        size = options.size,
    );
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let (send, results) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..options.concurrency.max(1) {
            let send = send.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= max_pairs {
                        break;
                    }
                    let opening = k as usize % openings.len();
                    let pair =
                        [true, false].map(|new_black| game(options, &openings[opening], new_black));
                    if send.send((opening, pair)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut tally = Tally::default();
        let mut pairs = Pentanomial::default();
        let mut verdict = None;
        for (opening, pair) in results.iter() {
            let mut half_points = 0;
            let mut shown = String::new();
            for r in pair {
                let (c, points) = result(r);
                shown.push(c);
                half_points += points;
                match r {
                    Some(true) => tally.wins += 1,
                    None => tally.draws += 1,
                    Some(false) => tally.losses += 1,
                }
            }
            pairs.add(half_points);
            let ratio = pairs.llr(elo0, elo1);
            println!(
                "sprt: pair {} opening {opening} {shown} | +{} ={} -{} pairs {:?} LLR {ratio:.2} {}",
                pairs.pairs(),
                tally.wins,
                tally.draws,
                tally.losses,
                pairs.counts,
                estimate(&pairs)
            );
            // The variance of a few pairs says too little: two pairs lost
            // twice, variance 0 (floored), gave LLR -4.5.
            let decided = pairs.pairs() >= MIN_PAIRS;
            if decided && ratio >= upper {
                verdict = Some(format!("H1 accepted (Elo {elo1}, not {elo0})"));
            } else if decided && ratio <= lower {
                verdict = Some(format!("H0 accepted (Elo {elo0}, not {elo1})"));
            }
            if verdict.is_some() || pairs.pairs() >= max_pairs {
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
        let games = 2 * pairs.pairs();
        println!(
            "sprt: {} after {games} games: +{} ={} -{}, LLR {:.2} [{lower:.2}, {upper:.2}], {}",
            verdict.unwrap_or_else(|| "no verdict".to_owned()),
            tally.wins,
            tally.draws,
            tally.losses,
            pairs.llr(elo0, elo1),
            estimate(&pairs)
        );
    });
}

/// `Elo +26 (95%: -8 .. +61)`.
fn estimate(pairs: &Pentanomial) -> String {
    let shown = |x: f64| {
        if x.abs() > 1000.0 {
            format!("{}inf", if x > 0.0 { "+" } else { "-" })
        } else {
            // Adding 0 turns a rounded −0 into 0.
            format!("{:+.0}", x.round() + 0.0)
        }
    };
    pairs.elo().map_or(String::new(), |(e, lo, hi)| {
        format!("Elo {} (95%: {} .. {})", shown(e), shown(lo), shown(hi))
    })
}

#[cfg(test)]
mod tests {
    /// The pentanomial LLR and Elo interval give the figures worked out by
    /// hand (see [`super::self_test`]).
    #[test]
    fn the_pentanomial_sprt_arithmetic() {
        super::self_test().unwrap_or_else(|e| panic!("{e}"));
    }
}
