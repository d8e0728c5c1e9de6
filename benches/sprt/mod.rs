//! SPRT self-play: the engine of this build against a previous build of
//! the brain, driven through the Gomocup protocol, until a sequential
//! probability ratio test accepts or rejects the change.
//!
//! The hypotheses are Elo `elo0` (H0: no better) against `elo1` (H1: at
//! least this much better); the log-likelihood ratio uses the usual
//! normal approximation of the trinomial (win, draw, loss) model, and the
//! test stops when it leaves `[ln(β/(1−α)), ln((1−β)/α)]`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use gomoku_mist::engine::{Engine, Limits, Setup, Spot};
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

/// A previous build of the brain, as a child process.
struct Brain {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Brain {
    fn start(path: &str) -> Brain {
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

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the base brain reads");
        self.input.flush().expect("the base brain reads");
    }

    /// The next line that is not a MESSAGE or DEBUG.
    fn reply(&mut self) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .output
                .read_line(&mut line)
                .expect("the base brain writes");
            assert!(n > 0, "the base brain ended");
            let text = line.trim();
            if !(text.starts_with("MESSAGE") || text.starts_with("DEBUG")) {
                return text.to_owned();
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

/// One game from `opening` (spots, Black first); `Some(true)` if the new
/// build wins, `None` for a draw.
fn game(base: &str, size: u8, ms: u64, opening: &[Spot], new_black: bool) -> Option<bool> {
    let mut brain = Brain::start(base);
    brain.send(&format!("START {size}"));
    assert_eq!(brain.reply(), "OK", "the base brain refused START {size}");
    brain.send(&format!("INFO timeout_turn {ms}"));
    brain.send("INFO rule 0");
    let mut engine = Engine::new(gomoku_mist::engine::DEFAULT_MEMORY);
    let limits = Limits {
        time: Some(Duration::from_millis(ms * 9 / 10)),
        ..Limits::default()
    };
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

/// Runs the test: games from `openings`, colours swapped, until the LLR
/// leaves its bounds or `max_games` are played; prints each pair's
/// standing and the verdict.
pub fn run(base: &str, size: u8, ms: u64, openings: &[Vec<Spot>], elo: (f64, f64), max_games: u32) {
    let (alpha, beta) = (0.05, 0.05);
    let (lower, upper) = bounds(alpha, beta);
    let mut tally = Tally::default();
    let mut played = 0;
    'games: loop {
        for opening in openings {
            for new_black in [true, false] {
                match game(base, size, ms, opening, new_black) {
                    Some(true) => tally.wins += 1,
                    Some(false) => tally.losses += 1,
                    None => tally.draws += 1,
                }
                played += 1;
            }
            let ratio = llr(tally, elo.0, elo.1);
            println!(
                "sprt: +{} ={} -{} LLR {ratio:.2} [{lower:.2}, {upper:.2}] (elo0 {}, elo1 {}, {size}x{size}, {ms} ms)",
                tally.wins, tally.draws, tally.losses, elo.0, elo.1
            );
            if ratio >= upper {
                println!("sprt: H1 accepted: the change is better");
                break 'games;
            }
            if ratio <= lower {
                println!("sprt: H0 accepted: the change is not better");
                break 'games;
            }
            if played >= max_games {
                println!("sprt: no verdict within {max_games} games");
                break 'games;
            }
        }
    }
}
