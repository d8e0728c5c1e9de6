//! The engine's bench: a signature, its speed, and matches against weaker
//! players.
//!
//! ```sh
//! cargo bench --bench engine                # every mode but balance
//! cargo bench --bench engine -- signature   # just the node count
//! cargo bench --bench engine -- speed
//! cargo bench --bench engine -- depth
//! cargo bench --bench engine -- parity
//! cargo bench --bench engine -- attacks
//! cargo bench --bench engine -- match
//! GOMOKU_ENGINE_BASE=/tmp/pbrain-old cargo bench --bench engine -- sprt
//! cargo bench --bench engine -- balance     # openings for the SPRT
//! cargo bench --bench engine -- slots OLD.sgf… vs NEW.sgf…
//! ```
//!
//! - `signature`: a fixed list of positions, each searched by a fresh engine
//!   to a fixed depth; prints the total node count alone. Any change that
//!   alters it changed the search, and must write the new value into
//!   `benches/signature.txt`, which `cargo test` checks.
//! - `speed`: nodes per second and the depth reached in one second on
//!   the first position of `benches/depth/positions.txt` (the search ends
//!   sooner where it proves a result).
//! - `depth`: the fixed midgame positions of `benches/depth/positions.txt`
//!   (20×20 freestyle, from real games), one second each
//!   (`GOMOKU_ENGINE_MS`); the search's line per completed depth (as the
//!   brain's `MESSAGE`s), the depth reached, the mean nominal and
//!   selective depths, and how far the score moves from one depth to the
//!   next and to the one after (a score that swings with the depth's
//!   parity moves more in one step than in two), and each search's swing
//!   (`depth::swing`: how far a depth's score stands from the mean of its
//!   neighbours', signed by the depth's parity), which a drift does not
//!   have, beside the swing of the same steps in random orders and the
//!   measures relative to the deepest scores (see `parity`); last, what
//!   the aspiration windows cost: how many depths found
//!   their score outside the first window and searched again, and the
//!   share of the nodes those later windows took. A position that is not
//!   a quiet midgame is refused.
//!   `GOMOKU_ENGINE_POSITIONS` names another file of positions to try;
//!   `GOMOKU_ENGINE_NODES` searches each to a node budget in place of
//!   time, on one thread, so that builds can be compared on a busy
//!   machine (about a million nodes is a second's search);
//!   `GOMOKU_ENGINE_MEMORY` sets the table's size in bytes (default the
//!   engine's, 64 MiB; a brain under c-gomoku-cli's default `max_memory`, 350 MiB,
//!   takes 256 MiB).
//! - `parity`: the same measures in the opening, where the score swings
//!   most: the sixteen openings below (four stones, Black to move) and
//!   the SPRT's 32 of `benches/depth/openings.txt` (three and five
//!   stones, White to move) on the 20×20 board, each searched by a fresh
//!   engine to a node budget (`GOMOKU_ENGINE_NODES`, default 200,000), so
//!   the figures do not depend on the machine's load; prints each
//!   opening's score per depth and its swing, then for each set and for
//!   both the steps, the swing, the swing the same steps give in a
//!   thousand random orders (`depth::swing::by_chance`: a swing larger
//!   than most of them is tied to the depth's parity, not noise), the
//!   measures relative to the deepest scores, and the aspiration windows'
//!   cost. `GOMOKU_ENGINE_YARDSTICK` names another Gomocup brain (Rapfi,
//!   say) to search the same openings to the same budget and be measured
//!   the same way, as a yardstick in its own units.
//! - `attacks`: the positions of `benches/depth/attacks.txt` (20×20
//!   freestyle, from games lost to Rapfi), where the side to move has a
//!   long forced win that Rapfi scores as a mate and our search, as it
//!   played, did not see coming; each searched for one second
//!   (`GOMOKU_ENGINE_MS`) or to `GOMOKU_ENGINE_NODES`, as the depth bench
//!   does. Prints each search's line per completed depth, whether and
//!   when (depth, nodes, time) it first scored the win, and how many of
//!   the positions it scored as wins.
//! - `sprt`: this build's engine against a previous build of the brain
//!   (`GOMOKU_ENGINE_BASE`, a path), through the Gomocup protocol, on the
//!   balanced openings of `benches/depth/openings.txt` in their eight
//!   symmetries, each played twice with colours swapped, until a
//!   pentanomial SPRT of `GOMOKU_ENGINE_ELO0` (default 0) against `GOMOKU_ENGINE_ELO1` (30), α = β = 0.05, accepts
//!   one; prints a line per pair (W/D/L, the pairs by score, the LLR, the
//!   Elo with its 95% interval) and the verdict. `GOMOKU_ENGINE_MS` (200),
//!   or `GOMOKU_ENGINE_NODES` (a node budget for both sides in place of
//!   time), `GOMOKU_ENGINE_SIZE` (20), `GOMOKU_ENGINE_GAMES` (at most
//!   1000), `GOMOKU_ENGINE_CONCURRENCY` (pairs played at once, default 1),
//!   `GOMOKU_ENGINE_THREADS` (threads each side searches on, default 1:
//!   both sides are set to it, the base brain by `INFO thread_num`,
//!   since on its own it takes every core).
//! - `balance`: openings for the SPRT. On a one-sided opening a pair of
//!   games is decided by the colours (each side wins as the stronger
//!   colour), and a pair that splits tells the test nothing: with the
//!   sixteen openings above, 102 of 128 pairs split between the two
//!   builds of one step, and the test had no verdict (on the balanced
//!   openings, 43 of 79 split, and it accepted the step). This draws `GOMOKU_ENGINE_CANDIDATES` (default 300)
//!   random openings of `GOMOKU_ENGINE_STONES` stones (3: Black, White,
//!   Black, White to move; each stone within two points of one before,
//!   all within three of the centre, as Piskvork's openings are), from
//!   seed `GOMOKU_ENGINE_SEED` (1), one of each shape up to symmetry;
//!   searches each to `GOMOKU_ENGINE_NODES` (300,000); and prints, in the
//!   file's notation, those whose last two depths' scores (two, as the
//!   score swings with the depth's parity) both lie within
//!   `GOMOKU_ENGINE_BALANCE` (default 60) of even. Review them and paste
//!   them into `openings.txt`.
//! - `slots BASE.sgf… vs CAND.sgf…`: match records of c-gomoku-cli (as
//!   `match.sh` writes them) compared slot by slot (`slots`: an opening
//!   and our colour in it, which every order of one match plays once):
//!   the baseline's score with its margin given its slots, a game's
//!   variance within its slot and over all, and each candidate file's
//!   and all of them together's difference from the baseline's mean in
//!   the same slots, with its 95% margin. Without `vs`, each baseline
//!   file against the others and how far they stray, beside what the
//!   slots predict. Our player is the one named `A` (`GOMOKU_SLOTS_ENGINE`).
//! - `match`: from sixteen four-stone openings near the centre, each
//!   played twice with colours swapped, the engine against a random
//!   legal player, a one-ply greedy pattern player and itself at a quarter
//!   of the budget; W/D/L and an Elo difference with its 95% margin.
//!   `GOMOKU_ENGINE_OPENINGS` (default all 16) and `GOMOKU_ENGINE_MS`
//!   (default 100 ms a move) change the games and the budget;
//!   `GOMOKU_ENGINE_OPPONENTS` (e.g. `random,greedy`) picks opponents,
//!   `GOMOKU_ENGINE_RULE` (`freestyle`, `exact`, `caro`) the rule.

#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use gomoku_mist::board::Board;
use gomoku_mist::engine::{self, Engine, Limits};
use gomoku_mist::game::{Ending, Game};
use gomoku_mist::player::Player;
use gomoku_mist::point::Point;
use gomoku_mist::rule::Rule;

mod depth;
mod signature;
mod slots;
mod sprt;

use signature::{OPENINGS, parse_moves};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    // Its other arguments are files, not modes.
    if args.first().is_some_and(|a| a == "slots") {
        slots_bench(&args[1..]);
        return;
    }
    let all = args.is_empty();
    let want = |name: &str| all || args.iter().any(|a| a == name);
    if want("signature") {
        let got = signature::signature();
        println!("{got}");
        let recorded = signature::RECORDED.trim();
        if got.to_string() != recorded {
            eprintln!(
                "benches/signature.txt records {recorded}: update it if the search was meant to change"
            );
        }
    }
    if want("speed") {
        speed();
    }
    if want("depth") {
        depth();
    }
    if want("parity") {
        parity();
    }
    if want("attacks") {
        attacks();
    }
    if want("match") {
        matches();
    }
    if want("sprt") {
        sprt_test();
    }
    // Not part of a plain run: minutes of searches, for a file's author.
    if args.iter().any(|a| a == "balance") {
        balance();
    }
}

/// The depth bench: the fixed midgame positions of
/// `benches/depth/positions.txt` on 20×20 freestyle, each searched for one
/// second (`GOMOKU_ENGINE_MS`), or to a node budget
/// (`GOMOKU_ENGINE_NODES`), by a fresh engine with the default table;
/// prints the search's line for each completed depth, the depth reached,
/// then the mean nominal and selective depths.
fn depth() {
    let ms: u64 = env("GOMOKU_ENGINE_MS").unwrap_or(1000);
    let nodes = node_budget();
    // Another file of positions, to try a new set before writing it in.
    let positions = match std::env::var("GOMOKU_ENGINE_POSITIONS") {
        Ok(path) => match std::fs::read_to_string(&path) {
            Ok(text) => depth::parse(&text, &depth::MIDGAME),
            Err(e) => Err(vec![format!("{path}: {e}")]),
        },
        Err(_) => depth::positions(),
    };
    let positions = or_exit(positions, "depth", depth::MIDGAME.file);
    let (mut depths, mut seldepths) = (Vec::new(), Vec::new());
    let mut steps = Steps::default();
    let mut aspiration = Aspiration::default();
    for position in &positions {
        let found = search_shown(position, ms, nodes);
        let seldepth = found.reports.last().map_or(0, |r| r.seldepth);
        let swing = steps.add(&found.reports);
        aspiration.add(&found.reports);
        println!(
            "  best {} depth {}-{seldepth}{}",
            depth::name(found.best),
            found.depth,
            swing.map_or(String::new(), |s| format!(" swing {s:+.0}"))
        );
        depths.push(found.depth);
        seldepths.push(seldepth);
    }
    let mean = |v: &[u32]| f64::from(v.iter().sum::<u32>()) / v.len().max(1) as f64;
    let budget = nodes.map_or(format!("{ms} ms"), |n| format!("{n} nodes"));
    println!(
        "depth in {budget} on {} positions: {depths:?}, mean {:.1}; selective {seldepths:?}, mean {:.1}",
        positions.len(),
        mean(&depths),
        mean(&seldepths)
    );
    steps.print();
    aspiration.print();
}

/// A bench position searched by a fresh engine for `ms` (or to `nodes`,
/// on one thread), the threads `GOMOKU_ENGINE_THREADS` says, with a table
/// of `GOMOKU_ENGINE_MEMORY` bytes (the engine's default); prints the
/// position, then the search's line per completed depth as it completes.
fn search_shown(position: &depth::Position, ms: u64, nodes: Option<u64>) -> engine::Found {
    let limits = Limits {
        time: nodes.is_none().then(|| Duration::from_millis(ms)),
        nodes,
        threads: env("GOMOKU_ENGINE_THREADS"),
        ..Limits::default()
    };
    // Its pages written first: after a game's first move a brain's table
    // is faulted in, and a fresh one would measure the kernel.
    let memory = env("GOMOKU_ENGINE_MEMORY").unwrap_or(engine::DEFAULT_MEMORY);
    let mut fresh = Engine::new(memory);
    fresh.commit_table();
    println!(
        "position {} ({} stones, {:?} to move; {}):",
        position.line,
        position.moves.len(),
        position.to_move(),
        position.comment
    );
    // Standard output is flushed at each line's end.
    fresh
        .search_with(&position.setup(), limits, &mut |report| {
            println!("  {}", report.line(depth::name));
        })
        .expect("a position of the bench is not full")
}

/// The attacks bench: each position of `benches/depth/attacks.txt`
/// searched as the depth bench searches its own; whether the search scores
/// the side to move's forced win, and at which depth, node count and time
/// it first did (see the crate doc above).
fn attacks() {
    let ms: u64 = env("GOMOKU_ENGINE_MS").unwrap_or(1000);
    let nodes = node_budget();
    let positions = or_exit(depth::attacks(), "attacks", depth::ATTACK.file);
    let mut found_wins = 0;
    for position in &positions {
        let found = search_shown(position, ms, nodes);
        let first_win = found
            .reports
            .iter()
            .find(|r| engine::mate_in(r.score).is_some_and(|n| n > 0));
        let won = engine::mate_in(found.score).is_some_and(|n| n > 0);
        found_wins += usize::from(won);
        let verdict = match first_win {
            Some(r) if won => format!(
                "win first scored at depth {} after {} nodes, {} ms",
                r.depth,
                r.nodes,
                r.elapsed.as_millis()
            ),
            Some(r) => format!("win scored at depth {}, then lost", r.depth),
            None if won => "win found by the root's solvers".to_owned(),
            None => "no win scored".to_owned(),
        };
        println!(
            "  best {} depth {}: {verdict}",
            depth::name(found.best),
            found.depth
        );
    }
    let budget = nodes.map_or(format!("{ms} ms"), |n| format!("{n} nodes"));
    println!(
        "attacks in {budget}: the win scored in {found_wins} of {} positions",
        positions.len()
    );
}

/// How the score moved between completed depths (mates left out), over
/// the searches of a bench: from each depth to the one after and to the
/// one two after (a score that swings with the depth's parity moves more
/// in one step than in two), and each search's swing
/// (`depth::swing::swing`), which tells a swing from a drift, beside the
/// swing the same steps would show in a random order
/// (`depth::swing::by_chance`), which tells it from noise.
#[derive(Default)]
struct Steps {
    apart: [Vec<i32>; 2],
    searches: Vec<Vec<(u32, i32)>>,
}

/// How many random orders of each search's steps the swing is compared
/// with, and the seed they are drawn from (fixed, so that a bench's
/// figures are the same on every run).
const ORDERS: u32 = 1000;
const ORDERS_SEED: u64 = 1;

impl Steps {
    /// Adds a search's reports; returns its swing, if it has one.
    fn add(&mut self, reports: &[engine::Report]) -> Option<f64> {
        let scores: Vec<(u32, i32)> = reports
            .iter()
            .filter(|r| engine::mate_in(r.score).is_none())
            .map(|r| (r.depth, r.score))
            .collect();
        self.add_scores(scores)
    }

    /// Adds a search's `(depth, score)` per completed depth, mates left
    /// out; returns its swing, if it has one.
    fn add_scores(&mut self, scores: Vec<(u32, i32)>) -> Option<f64> {
        for (apart, step) in self.apart.iter_mut().enumerate() {
            step.extend(
                scores
                    .windows(apart + 2)
                    .map(|w| (w[apart + 1].1 - w[0].1).abs()),
            );
        }
        let swing = depth::swing::swing(&scores);
        self.searches.push(scores);
        swing
    }

    fn print(&self) {
        fn mean(v: impl Iterator<Item = f64>) -> f64 {
            let (sum, n) = v.fold((0.0, 0), |(s, n), x| (s + x, n + 1));
            sum / f64::from(n.max(1))
        }
        if self.searches.is_empty() {
            println!("no scores to measure");
            return;
        }
        let [one, two] = &self.apart;
        let (one, two) = (
            mean(one.iter().map(|&x| f64::from(x))),
            mean(two.iter().map(|&x| f64::from(x))),
        );
        println!(
            "score change between depths: {one:.0} one apart ({} pairs), {two:.0} two apart ({} pairs)",
            self.apart[0].len(),
            self.apart[1].len()
        );
        let swings: Vec<f64> = self
            .searches
            .iter()
            .filter_map(|s| depth::swing::swing(s))
            .collect();
        let size = depth::swing::mean_size(&self.searches).unwrap_or(0.0);
        println!(
            "swing with the depth's parity: {size:.0} in size on average over {} searches ({:+.0} signed)",
            swings.len(),
            mean(swings.iter().copied())
        );
        if let Some(c) = depth::swing::by_chance(&self.searches, ORDERS, ORDERS_SEED) {
            println!(
                "the same steps in random order: swing {:.0} (median of {ORDERS} orders), 95th percentile {:.0}; as large as this in {:.1}% of orders",
                c.median,
                c.high,
                100.0 * c.p
            );
        }
        // The scale: each search's deepest score, to compare engines whose
        // scores are in different units.
        let deepest = mean(
            self.searches
                .iter()
                .filter_map(|s| s.last())
                .map(|&(_, score)| f64::from(score.abs())),
        );
        if deepest > 0.0 {
            println!(
                "relative to the deepest scores ({deepest:.0} in size on average): steps {:.3} one apart, {:.3} two apart; swing {:.3}",
                one / deepest,
                two / deepest,
                size / deepest
            );
        }
    }
}

/// What the aspiration windows cost over the searches of a bench: the
/// completed depths whose score fell outside the first window and were
/// searched again, and the share of the nodes those second and later
/// windows took. The first depth, which holds the root's threat solvers
/// and is never searched in a window, is left out.
#[derive(Default)]
struct Aspiration {
    depths: u64,
    again: u64,
    nodes: u64,
    again_nodes: u64,
}

impl Aspiration {
    fn add(&mut self, reports: &[engine::Report]) {
        for pair in reports.windows(2) {
            let report = &pair[1];
            self.depths += 1;
            self.again += u64::from(report.windows > 1);
            self.nodes += report.nodes - pair[0].nodes;
            self.again_nodes += report.again;
        }
    }

    fn print(&self) {
        let percent = |part: u64, whole: u64| 100.0 * part as f64 / whole.max(1) as f64;
        println!(
            "aspiration: {} of {} depths searched again ({:.0}%), taking {:.0}% of their nodes",
            self.again,
            self.depths,
            percent(self.again, self.depths),
            percent(self.again_nodes, self.nodes)
        );
    }
}

/// The environment variable `name`, if set and it parses.
fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok()?.parse().ok()
}

/// A node budget in place of time (`GOMOKU_ENGINE_NODES`), if one is set.
fn node_budget() -> Option<u64> {
    env("GOMOKU_ENGINE_NODES").filter(|&n| n > 0)
}

/// The parity bench: how far the score moves between depths in the
/// opening, one depth apart and two (see the crate doc above), on the
/// sixteen four-stone openings and the SPRT's openings; then, if
/// `GOMOKU_ENGINE_YARDSTICK` names another Gomocup brain, the same for
/// its searches of the same openings.
fn parity() {
    let nodes = node_budget().unwrap_or(200_000);
    let sprt = or_exit(depth::openings(), "parity", depth::OPENING.file);
    let sets = [
        (
            "four-stone openings, Black to move",
            OPENINGS
                .iter()
                .map(|text| centred(text, depth::SIZE, 0))
                .collect::<Vec<_>>(),
        ),
        (
            "SPRT openings (benches/depth/openings.txt), White to move",
            sprt.into_iter().map(|p| p.moves).collect(),
        ),
    ];
    let name = |moves: &[engine::Spot]| moves.iter().map(|&s| depth::name(s)).collect::<String>();
    let (mut all_steps, mut all_aspiration) = (Steps::default(), Aspiration::default());
    for (what, openings) in &sets {
        let mut steps = Steps::default();
        let mut aspiration = Aspiration::default();
        for moves in openings {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let found = Engine::new(engine::DEFAULT_MEMORY)
                .search(&depth::setup(moves), limits)
                .expect("an opening is not a full board");
            let scores: Vec<String> = found.reports.iter().map(|r| r.score.to_string()).collect();
            let swing = steps.add(&found.reports);
            all_steps.add(&found.reports);
            aspiration.add(&found.reports);
            all_aspiration.add(&found.reports);
            println!(
                "{}: {}{}",
                name(moves),
                scores.join(" "),
                swing.map_or(String::new(), |s| format!(" (swing {s:+.0})"))
            );
        }
        println!("{} {what}, {nodes} nodes each:", openings.len());
        steps.print();
        aspiration.print();
    }
    println!("all {} openings:", all_steps.searches.len());
    all_steps.print();
    all_aspiration.print();
    if let Ok(path) = std::env::var("GOMOKU_ENGINE_YARDSTICK") {
        let openings: Vec<&[engine::Spot]> = sets
            .iter()
            .flat_map(|(_, o)| o.iter().map(Vec::as_slice))
            .collect();
        yardstick(&path, &openings, nodes, &name);
    }
}

/// Another Gomocup brain's scores per depth on `openings`, each searched
/// by a fresh process to `nodes` (`INFO max_node`), and the parity
/// bench's measures of them: a yardstick for ours, whose scores are in
/// other units (hence the measures relative to the deepest scores). The
/// brain must say each completed depth in a `MESSAGE`, as ours does
/// (`depth 12-20 ev 106 …`) and Rapfi does once told `YXSHOWINFO`
/// (`Depth 12-20 | Eval 106 | …`); scores of [`YARDSTICK_MATES`] or more
/// in size are taken for mates and left out.
fn yardstick(
    path: &str,
    openings: &[&[engine::Spot]],
    nodes: u64,
    name: &dyn Fn(&[engine::Spot]) -> String,
) {
    println!("yardstick {path}, {nodes} nodes an opening:");
    let mut steps = Steps::default();
    for &moves in openings {
        let mut brain = sprt::Brain::start(path);
        brain.send(&format!("START {}", depth::SIZE));
        brain.send("YXSHOWINFO");
        brain.send(&format!("INFO max_node {nodes}"));
        brain.send("INFO timeout_turn 3600000");
        brain.send("INFO timeout_match 0");
        brain.send("BOARD");
        for (k, s) in moves.iter().enumerate() {
            // 1 for the side to move's stones, 2 for the other's.
            let whose = if k % 2 == moves.len() % 2 { 1 } else { 2 };
            brain.send(&format!("{},{},{whose}", s.x, s.y));
        }
        brain.send("DONE");
        let scores = depth_scores(&brain.messages_until_move());
        if scores.is_empty() {
            println!(
                "{}: no depth reported (a brain must say each depth in a MESSAGE: see `yardstick` in benches/engine.rs)",
                name(moves)
            );
            continue;
        }
        let line: Vec<String> = scores.iter().map(|(_, s)| s.to_string()).collect();
        let swing = steps.add_scores(
            scores
                .into_iter()
                .filter(|(_, s)| s.abs() < YARDSTICK_MATES)
                .collect(),
        );
        println!(
            "{}: {}{}",
            name(moves),
            line.join(" "),
            swing.map_or(String::new(), |s| format!(" (swing {s:+.0})"))
        );
    }
    steps.print();
}

/// A yardstick's scores this large or larger in size are taken for mates
/// (ours and Rapfi's evaluations stop below it).
const YARDSTICK_MATES: i32 = 20_000;

/// The first score a brain's `MESSAGE`s give each depth, in order of
/// depth: from `depth D-S ev V …` or `Depth D-S | Eval V | …` (a mate
/// written otherwise is skipped).
fn depth_scores(messages: &[String]) -> Vec<(u32, i32)> {
    let mut scores: Vec<(u32, i32)> = Vec::new();
    for message in messages {
        let words: Vec<String> = message
            .split_whitespace()
            .filter(|w| *w != "|")
            .map(str::to_lowercase)
            .collect();
        let depth = words
            .windows(2)
            .find(|w| w[0] == "depth")
            .and_then(|w| w[1].split('-').next()?.parse().ok());
        let score = words
            .windows(2)
            .find(|w| w[0] == "ev" || w[0] == "eval")
            .and_then(|w| w[1].parse().ok());
        if let (Some(depth), Some(score)) = (depth, score) {
            if !scores.iter().any(|&(d, _)| d == depth) {
                scores.push((depth, score));
            }
        }
    }
    scores.sort_unstable();
    scores
}

/// The bench's opening `text` with its centre moved to the centre of a
/// `size` board (the openings are written for 19×19), in the `symmetry`th
/// of the board's eight symmetries.
fn centred(text: &str, size: u8, symmetry: u8) -> Vec<engine::Spot> {
    let spots: Vec<engine::Spot> = parse_moves(text).into_iter().map(engine::spot_of).collect();
    transform(&spots, 19, size, symmetry)
}

/// `spots`, written for a `from` board, with the centre moved to the
/// centre of a `size` board, in the `symmetry`th of its eight symmetries.
fn transform(spots: &[engine::Spot], from: u8, size: u8, symmetry: u8) -> Vec<engine::Spot> {
    let n = i16::from(size);
    let shift = n / 2 - i16::from(from) / 2;
    spots
        .iter()
        .map(|s| {
            let x = (i16::from(s.x) + shift).clamp(0, n - 1);
            let y = (i16::from(s.y) + shift).clamp(0, n - 1);
            let (x, y) = if symmetry & 4 != 0 { (y, x) } else { (x, y) };
            let x = if symmetry & 1 != 0 { n - 1 - x } else { x };
            let y = if symmetry & 2 != 0 { n - 1 - y } else { y };
            engine::Spot {
                x: x as u8,
                y: y as u8,
            }
        })
        .collect()
}

/// `sprt`: the engine of this build against the brain at
/// `GOMOKU_ENGINE_BASE` (a previous build's `pbrain-gomoku-mist`).
fn sprt_test() {
    let Ok(base) = std::env::var("GOMOKU_ENGINE_BASE") else {
        println!("sprt: set GOMOKU_ENGINE_BASE to a previous build's pbrain-gomoku-mist");
        return;
    };
    let var = |name: &str, default: f64| env(name).unwrap_or(default);
    let size = (var("GOMOKU_ENGINE_SIZE", 20.0) as u8).clamp(engine::MIN_SIZE, engine::MAX_SIZE);
    let options = sprt::Options {
        base,
        size,
        ms: var("GOMOKU_ENGINE_MS", 200.0) as u64,
        nodes: node_budget(),
        elo: (
            var("GOMOKU_ENGINE_ELO0", 0.0),
            var("GOMOKU_ENGINE_ELO1", 30.0),
        ),
        max_games: var("GOMOKU_ENGINE_GAMES", 1000.0) as u32,
        concurrency: (var("GOMOKU_ENGINE_CONCURRENCY", 1.0) as u32).clamp(1, 8),
        threads: (var("GOMOKU_ENGINE_THREADS", 1.0) as u32).clamp(1, 64),
    };
    let balanced = or_exit(depth::openings(), "sprt", depth::OPENING.file);
    // The openings, shifted so their centre is the board's, each in its
    // eight symmetries, so a long test repeats none soon.
    let mut openings: Vec<Vec<engine::Spot>> = Vec::new();
    for symmetry in 0..8 {
        for o in &balanced {
            openings.push(transform(&o.moves, depth::SIZE, size, symmetry));
        }
    }
    sprt::run(&options, &openings);
}

/// The positions a file of `benches/depth` held, or, if the loader
/// refused lines, the reasons on stderr and exit code 1.
fn or_exit(
    loaded: Result<Vec<depth::Position>, Vec<String>>,
    bench: &str,
    file: &str,
) -> Vec<depth::Position> {
    loaded.unwrap_or_else(|refused| {
        eprintln!("{bench}: refused, fix benches/depth/{file}:");
        for why in refused {
            eprintln!("  {why}");
        }
        std::process::exit(1);
    })
}

/// The `slots` mode (see the crate doc above): `files` are the
/// baseline's records, then `vs` and the candidate's.
fn slots_bench(files: &[String]) {
    let ours = std::env::var("GOMOKU_SLOTS_ENGINE").unwrap_or_else(|_| "A".to_owned());
    let (base_files, cand_files) = match files.iter().position(|f| f == "vs") {
        Some(k) => (&files[..k], &files[k + 1..]),
        None => (files, &[][..]),
    };
    if base_files.is_empty() {
        eprintln!("slots: name the baseline's SGF files, then `vs` and the candidate's");
        std::process::exit(2);
    }
    let read = |path: &String| -> Vec<slots::Game> {
        let games = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| slots::parse(&text, &ours));
        match games {
            Ok(games) if !games.is_empty() => games,
            Ok(_) => {
                eprintln!("slots: {path}: no game of {ours:?} (GOMOKU_SLOTS_ENGINE)");
                std::process::exit(1);
            }
            Err(e) => {
                eprintln!("slots: {path}: {e}");
                std::process::exit(1);
            }
        }
    };
    let base: Vec<Vec<slots::Game>> = base_files.iter().map(read).collect();
    let cand: Vec<Vec<slots::Game>> = cand_files.iter().map(read).collect();
    let pct = |x: f64| 100.0 * x;
    let Some(baseline) = slots::Baseline::new(&base.concat()) else {
        return;
    };
    println!(
        "baseline: {} games in {} slots, {:.1}% (95%: {:.1}% .. {:.1}% given its slots)",
        baseline.games,
        baseline.slots,
        pct(baseline.score),
        pct(baseline.score - baseline.margin),
        pct(baseline.score + baseline.margin),
    );
    println!(
        "variance of a game: {:.3} within its slot, {:.3} over all",
        baseline.within, baseline.overall
    );
    let line = |name: &str, c: &slots::Measured| {
        let unpaired = if c.unpaired > 0 {
            format!(", {} in no baseline slot left out", c.unpaired)
        } else {
            String::new()
        };
        println!(
            "{name}: {} games{unpaired}, {:.1}%; slot by slot {:+.1} points (95%: {:+.1} .. {:+.1})",
            c.games,
            pct(c.score),
            pct(c.difference),
            pct(c.difference - c.margin),
            pct(c.difference + c.margin),
        );
    };
    if cand.is_empty() {
        // Each file against the others: how far a record of the same
        // build strays, to set beside the margins the slots predict.
        if base.len() < 3 {
            return;
        }
        let mut squares = 0.0;
        let mut predicted = 0.0;
        for (k, games) in base.iter().enumerate() {
            let rest: Vec<slots::Game> = base
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .flat_map(|(_, g)| g.iter().cloned())
                .collect();
            if let Some(others) = slots::Baseline::new(&rest) {
                let c = others.measure(games);
                line(&base_files[k], &c);
                squares += c.difference.powi(2);
                predicted += (c.margin / 1.96).powi(2);
            }
        }
        let n = base.len() as f64;
        println!(
            "each file against the others: the differences' spread {:.1} points, the slots' prediction {:.1}",
            pct((squares / n).sqrt()),
            pct((predicted / n).sqrt()),
        );
        return;
    }
    for (path, games) in cand_files.iter().zip(&cand) {
        line(path, &baseline.measure(games));
    }
    if cand.len() > 1 {
        line("together", &baseline.measure(&cand.concat()));
    }
}

/// The `balance` bench (see the crate doc above).
fn balance() {
    let nodes = node_budget().unwrap_or(300_000);
    let candidates: usize = env("GOMOKU_ENGINE_CANDIDATES").unwrap_or(300);
    let stones: usize = env::<usize>("GOMOKU_ENGINE_STONES")
        .unwrap_or(3)
        .clamp(*depth::OPENING.stones.start(), *depth::OPENING.stones.end());
    let limit: i32 = env("GOMOKU_ENGINE_BALANCE").unwrap_or(60);
    let first_seed: u64 = env("GOMOKU_ENGINE_SEED").unwrap_or(1);
    let mut seed = first_seed;
    let mut seen = std::collections::HashSet::new();
    let (mut searched, mut kept) = (0, 0);
    println!(
        "# balance: {candidates} candidates of {stones} stones, seed {first_seed}, {nodes} nodes, within {limit}"
    );
    for _ in 0..candidates {
        let moves = random_opening(&mut seed, stones);
        if !seen.insert(depth::shape(&moves)) {
            continue;
        }
        let text: String = moves.iter().map(|&s| depth::name(s)).collect();
        // The file's own checks: no four, no win by fours.
        let Ok(_) = depth::parse(&format!("{text} # candidate"), &depth::OPENING) else {
            continue;
        };
        searched += 1;
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let Some(found) = Engine::new(engine::DEFAULT_MEMORY).search(&depth::setup(&moves), limits)
        else {
            continue;
        };
        let [.., before, last] = &found.reports[..] else {
            continue;
        };
        let even = |score: i32| engine::mate_in(score).is_none() && score.abs() <= limit;
        if even(before.score) && even(last.score) {
            kept += 1;
            let mover = if stones % 2 == 0 { "Black" } else { "White" };
            println!(
                "{text} # balance bench, seed {first_seed}: {stones} stones, {mover} to move; {} at depth {}, {} at {} ({nodes} nodes)",
                before.score, before.depth, last.score, last.depth
            );
        }
    }
    println!("# {kept} of {searched} distinct openings kept");
}

/// A random opening of `stones` stones near the centre of the 20×20
/// board: each within two points of a stone before it, all within three
/// of the centre.
fn random_opening(seed: &mut u64, stones: usize) -> Vec<engine::Spot> {
    let centre = i32::from(depth::SIZE) / 2;
    let mut moves = vec![engine::Spot {
        x: centre as u8,
        y: centre as u8,
    }];
    while moves.len() < stones {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let pick = (*seed >> 33) as i32;
        let (x, y) = (centre + pick % 7 - 3, centre + (pick / 7) % 7 - 3);
        let near = moves
            .iter()
            .any(|s| (i32::from(s.x) - x).abs().max((i32::from(s.y) - y).abs()) <= 2);
        let spot = engine::Spot {
            x: x as u8,
            y: y as u8,
        };
        if near && !moves.contains(&spot) {
            moves.push(spot);
        }
    }
    moves
}

fn speed() {
    // A fixed midgame position from a real game that no threat decides at
    // once, so the second goes to the full search. (A position picked from
    // the engine's own self-play changed with the engine, and once every
    // candidate was decided the bench measured a search of no nodes.)
    let Some(position) = depth::positions().ok().and_then(|p| p.into_iter().next()) else {
        eprintln!("speed: no position in benches/depth/positions.txt");
        std::process::exit(1);
    };
    let limits = Limits {
        time: Some(Duration::from_secs(1)),
        ..Limits::default()
    };
    let start = Instant::now();
    let found = Engine::new(engine::DEFAULT_MEMORY)
        .search(&position.setup(), limits)
        .expect("a position of the bench is not full");
    let secs = start.elapsed().as_secs_f64();
    println!(
        "speed: position {} ({} stones), {} nodes in {:.3} s = {:.0} nodes/s, depth {}, best {} score {}",
        position.line,
        position.moves.len(),
        found.nodes,
        secs,
        found.nodes as f64 / secs,
        found.depth,
        depth::name(found.best),
        found.score
    );
}

/// A player in a match.
enum Player2 {
    Engine(Box<Engine>, Limits),
    Greedy,
    Random(u64),
}

impl Player2 {
    fn name(&self) -> String {
        match self {
            Player2::Engine(_, l) => format!("engine {} ms", l.time.map_or(0, |t| t.as_millis())),
            Player2::Greedy => "greedy".to_owned(),
            Player2::Random(_) => "random".to_owned(),
        }
    }

    fn clear(&mut self) {
        if let Player2::Engine(e, _) = self {
            e.clear();
        }
    }

    fn choose(&mut self, board: &Board, to_move: Player, rule: Rule) -> Option<Point> {
        match self {
            Player2::Engine(engine, limits) => {
                engine.think(board, to_move, rule, *limits).map(|t| t.best)
            }
            Player2::Greedy => {
                engine::greedy::choose(&engine::Setup::of_board(board, to_move, rule))
                    .and_then(engine::point_of)
            }
            Player2::Random(state) => {
                let empty: Vec<Point> = Point::all().filter(|&p| board.get(p).is_none()).collect();
                *state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (!empty.is_empty()).then(|| empty[(*state >> 33) as usize % empty.len()])
            }
        }
    }
}

/// Plays one game; `Some(true)` if `first` (Black after the opening...)
/// wins: the result is for the player given as `a`.
fn play(
    a: &mut Player2,
    b: &mut Player2,
    a_black: bool,
    opening: &str,
    rule: Rule,
) -> Option<bool> {
    let mut game = Game::new(rule);
    for p in parse_moves(opening) {
        if let Ok(Some(_)) = game.place(p) {
            return None;
        }
    }
    a.clear();
    b.clear();
    loop {
        let to_move = game.to_move();
        let a_moves = (to_move == Player::Black) == a_black;
        let mover = if a_moves { &mut *a } else { &mut *b };
        let p = mover.choose(game.board(), to_move, rule)?;
        match game.place(p) {
            Ok(None) => {}
            Ok(Some(Ending::Win { winner })) => return Some((winner == Player::Black) == a_black),
            Ok(Some(Ending::Tie)) => return None,
            Err(_) => return Some(!a_moves), // an illegal move loses
        }
    }
}

fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / p - 1.0).log10()
}

fn matches() {
    let ms: u64 = env("GOMOKU_ENGINE_MS").unwrap_or(100);
    let openings = env("GOMOKU_ENGINE_OPENINGS")
        .unwrap_or(OPENINGS.len())
        .min(OPENINGS.len());
    let rule = std::env::var("GOMOKU_ENGINE_RULE")
        .ok()
        .and_then(|name| Rule::from_name(&name))
        .unwrap_or_default();
    let chosen = std::env::var("GOMOKU_ENGINE_OPPONENTS")
        .unwrap_or_else(|_| "random,greedy,engine".to_owned());
    let budget = |ms: u64| Limits {
        time: Some(Duration::from_millis(ms)),
        ..Limits::default()
    };
    let mut engine = Player2::Engine(Box::new(Engine::new(32 << 20)), budget(ms));
    for name in chosen.split(',') {
        let mut opponent = match name {
            "random" => Player2::Random(12345),
            "greedy" => Player2::Greedy,
            "engine" => Player2::Engine(Box::new(Engine::new(32 << 20)), budget((ms / 4).max(1))),
            _ => continue,
        };
        let start = Instant::now();
        let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
        let mut results = Vec::new();
        let mut lost = Vec::new();
        for opening in OPENINGS.iter().take(openings) {
            for a_black in [true, false] {
                let r = play(&mut engine, &mut opponent, a_black, opening, rule);
                match r {
                    Some(true) => w += 1,
                    Some(false) => {
                        l += 1;
                        let colour = if a_black { "Black" } else { "White" };
                        lost.push(format!("{opening} as {colour}"));
                    }
                    None => d += 1,
                }
                results.push(match r {
                    Some(true) => 1.0,
                    Some(false) => 0.0,
                    None => 0.5,
                });
            }
        }
        let n = results.len() as f64;
        let mean = results.iter().sum::<f64>() / n;
        let sd = (results.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt() / n.sqrt();
        let (lo, hi) = (elo(mean - 1.96 * sd), elo(mean + 1.96 * sd));
        let shown = |x: f64| {
            if x.abs() > 1000.0 {
                format!("{}inf", if x > 0.0 { "+" } else { "-" })
            } else {
                format!("{x:+.0}")
            }
        };
        println!(
            "match ({}): {} vs {}: +{} ={} -{} ({:.1}%), Elo {} [95%: {} .. {}], {:.0} s",
            rule.name(),
            engine.name(),
            opponent.name(),
            w,
            d,
            l,
            100.0 * mean,
            shown(elo(mean)),
            shown(lo),
            shown(hi),
            start.elapsed().as_secs_f64()
        );
        if !lost.is_empty() {
            println!("  lost: {}", lost.join(", "));
        }
    }
}
