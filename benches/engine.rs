//! The engine's bench: a signature, its speed, and matches against weaker
//! players.
//!
//! ```sh
//! cargo bench --bench engine                # all three
//! cargo bench --bench engine -- signature   # just the node count
//! cargo bench --bench engine -- speed
//! cargo bench --bench engine -- match
//! ```
//!
//! - `signature`: a fixed list of positions, each searched by a fresh engine
//!   to a fixed depth; prints the total node count alone. Any change that
//!   alters it changed the search.
//! - `speed`: nodes per second and the depth reached in one second on a
//!   midgame position.
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

/// Four-stone openings (Black, White, Black, White), drawn once at random
/// from the 7×7 square around the centre with a fixed seed and written out
/// here. Near-centre openings of two stones are all won by Black between
/// equal players; these vary more, so the self-play match says something.
const OPENINGS: [&str; 16] = [
    "M7I8K12K11",
    "H11H8L13G9",
    "K12L10J12M11",
    "K11G7I13H8",
    "L7J10J12K8",
    "I8I11G10J13",
    "M11J12I8L9",
    "I8M10G9J13",
    "J12I9K8L11",
    "M11G13I12H9",
    "G12K13H9G9",
    "M7I10H10J13",
    "J7J12L11H8",
    "K13I9K10I10",
    "J9J7I12M8",
    "K12H10J13L13",
];

/// The fixed positions of the signature: openings, and midgame positions
/// reached by fixed-node self-play from them.
const SIGNATURE_DEPTH: u32 = 6;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let all = args.is_empty();
    let want = |name: &str| all || args.iter().any(|a| a == name);
    if want("signature") {
        println!("{}", signature());
    }
    if want("speed") {
        speed();
    }
    if want("match") {
        matches();
    }
}

fn parse_moves(text: &str) -> Vec<Point> {
    let bytes = text.as_bytes();
    let mut moves = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let mut end = at + 1;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        moves.push(Point::from_ascii(&bytes[at..end]).expect("bench openings are valid points"));
        at = end;
    }
    moves
}

fn board_of(moves: &[Point]) -> (Board, Player) {
    let mut board = Board::new();
    let mut player = Player::Black;
    for &p in moves {
        board.place(p, player);
        player = player.opponent();
    }
    (board, player)
}

/// Plays fixed-node self-play for `plies` moves from `opening`.
fn midgame(opening: &str, plies: usize) -> Vec<Point> {
    let mut moves = parse_moves(opening);
    let mut engine = Engine::new(1 << 22);
    for _ in 0..plies {
        let (board, player) = board_of(&moves);
        let limits = Limits {
            nodes: Some(3_000),
            ..Limits::default()
        };
        let thought = engine
            .think(&board, player, Rule::Freestyle, limits)
            .expect("board not full");
        let mut game_board = board.clone();
        game_board.place(thought.best, player);
        if Rule::Freestyle.wins(&game_board, thought.best) {
            break;
        }
        moves.push(thought.best);
    }
    moves
}

fn signature_positions() -> Vec<Vec<Point>> {
    let mut positions: Vec<Vec<Point>> = OPENINGS.iter().take(4).map(|o| parse_moves(o)).collect();
    positions.extend(OPENINGS.iter().skip(4).take(4).map(|o| midgame(o, 16)));
    positions
}

fn signature() -> u64 {
    let mut total = 0;
    for moves in signature_positions() {
        let (board, player) = board_of(&moves);
        let mut engine = Engine::new(1 << 22);
        let limits = Limits {
            depth: Some(SIGNATURE_DEPTH),
            ..Limits::default()
        };
        if let Some(t) = engine.think(&board, player, Rule::Freestyle, limits) {
            total += t.nodes;
        }
    }
    total
}

fn speed() {
    // The first midgame position (from 16 stones on) that no threat
    // decides at once, so the time goes to the full search.
    let probe = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let full = midgame(OPENINGS[0], 40);
    let moves = (16..full.len())
        .map(|n| full[..n].to_vec())
        .find(|moves| {
            let (board, player) = board_of(moves);
            Engine::new(1 << 20)
                .think(&board, player, Rule::Freestyle, probe)
                .is_some_and(|t| t.depth > 0 && t.score.abs() < 10_000)
        })
        .unwrap_or(full);
    let (board, player) = board_of(&moves);
    let mut engine = Engine::new(64 << 20);
    let start = Instant::now();
    let limits = Limits {
        time: Some(Duration::from_secs(1)),
        ..Limits::default()
    };
    let t = engine
        .think(&board, player, Rule::Freestyle, limits)
        .expect("board not full");
    let secs = start.elapsed().as_secs_f64();
    println!(
        "speed: {} stones, {} nodes in {:.3} s = {:.0} nodes/s, depth {}, best {} score {}",
        moves.len(),
        t.nodes,
        secs,
        t.nodes as f64 / secs,
        t.depth,
        t.best,
        t.score
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
            Player2::Greedy => greedy(board, to_move, rule),
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

/// One ply: win if it can, else block a five, else the point with the best
/// own-plus-opponent pattern value.
fn greedy(board: &Board, to_move: Player, rule: Rule) -> Option<Point> {
    let pos = engine::position(board, to_move, rule);
    let me = pos.side();
    let opp = 3 - me;
    let mut best: Option<(i32, usize)> = None;
    for &i in &pos.points {
        if !pos.is_candidate(i) {
            continue;
        }
        let score = if pos.combo(i, me) == engine::eval::C_FIVE {
            i32::MAX
        } else if pos.combo(i, opp) == engine::eval::C_FIVE {
            i32::MAX - 1
        } else {
            pos.value(i, me) * 6 / 5 + pos.value(i, opp)
        };
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, i));
        }
    }
    best.and_then(|(_, i)| engine::position::point(i))
        .or_else(|| Point::all().find(|&p| board.get(p).is_none()))
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
    let ms: u64 = std::env::var("GOMOKU_ENGINE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let openings: usize = std::env::var("GOMOKU_ENGINE_OPENINGS")
        .ok()
        .and_then(|v| v.parse().ok())
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
