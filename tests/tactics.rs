//! The tactical suite: every `tests/tactics/NAME.txt` is one position, one
//! test. A position file holds `#` comment lines (why the answer is
//! right) and `key: value` lines:
//!
//! - `rule:` `freestyle`, `exact`, `caro` or `renju` (where no answer is a
//!   point Black may not play, nor a stop Black may not make);
//! - `black:` / `white:` the stones, as points separated by spaces;
//! - `to-move:` `black` or `white`;
//! - `kind:` what is asked, and how the answers are checked:
//!   - `win`: the points that win at once;
//!   - `block`: the opponent has a five point and the mover none: the
//!     moves after which the opponent has none;
//!   - `block-three`: the mover has no four to make, the opponent an open
//!     three: the moves after which the opponent can make neither five nor
//!     two five points at once;
//!   - `open-four`: the moves that give the mover two five points;
//!   - `vcf N`: the mover wins by continuous fours in N own moves (the five
//!     included) and no fewer: the first moves of every such win;
//!   - `defend N`: the opponent would win by continuous fours in N moves
//!     if the mover passed, and the mover has no such win: the moves after
//!     which the opponent has no VCF of up to N + 2 moves;
//! - `answers:` the set of right answers.
//!
//! The test first recomputes the answer set with the plain brute-force
//! solver of `tests/brute` (independent of the engine) and fails if it
//! differs from the file, then asks the engine, with a node budget, and
//! fails unless its move is in the set.

#![forbid(unsafe_code)]

mod brute;

use std::collections::BTreeSet;
use std::path::Path;

use brute::Grid;
use gomoku_mist::board::Board;
use gomoku_mist::engine::{Engine, Limits, mate_in};
use gomoku_mist::player::Player;
use gomoku_mist::point::Point;
use gomoku_mist::rule::Rule;

/// The engine's budget per position: nodes, so the result is the same on
/// every machine.
const NODES: u64 = 60_000;

struct Position {
    rule: Rule,
    stones: Vec<(Point, Player)>,
    to_move: Player,
    kind: String,
    answers: BTreeSet<Point>,
}

fn points(text: &str) -> Result<Vec<Point>, String> {
    text.split_whitespace()
        .map(|w| w.parse().map_err(|e| format!("{w:?}: {e}")))
        .collect()
}

fn parse(text: &str) -> Result<Position, String> {
    let mut rule = None;
    let mut stones = Vec::new();
    let mut to_move = None;
    let mut kind = None;
    let mut answers = None;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| format!("not `key: value`: {line:?}"))?;
        let value = value.trim();
        match key.trim() {
            "rule" => {
                rule = Some(Rule::from_name(value).ok_or_else(|| format!("no rule {value:?}"))?)
            }
            "black" => stones.extend(points(value)?.into_iter().map(|p| (p, Player::Black))),
            "white" => stones.extend(points(value)?.into_iter().map(|p| (p, Player::White))),
            "to-move" => {
                to_move = Some(match value {
                    "black" => Player::Black,
                    "white" => Player::White,
                    _ => return Err(format!("to-move {value:?}")),
                });
            }
            "kind" => kind = Some(value.to_owned()),
            "answers" => answers = Some(points(value)?.into_iter().collect()),
            other => return Err(format!("unknown key {other:?}")),
        }
    }
    Ok(Position {
        rule: rule.ok_or("no rule")?,
        stones,
        to_move: to_move.ok_or("no to-move")?,
        kind: kind.ok_or("no kind")?,
        answers: answers.ok_or("no answers")?,
    })
}

fn names(set: &BTreeSet<Point>) -> String {
    set.iter()
        .map(Point::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A kind's name and its move count (0 when it has none).
fn kind_words(kind: &str) -> Result<(&str, u32), String> {
    let mut words = kind.split_whitespace();
    let name = words.next().unwrap_or("");
    let n = words
        .next()
        .map_or(Ok(0), str::parse)
        .map_err(|e| format!("kind: {e}"))?;
    Ok((name, n))
}

/// The answer set by brute force, after checking the kind's premises.
fn solve(pos: &Position, grid: &mut Grid) -> Result<BTreeSet<Point>, String> {
    let me = pos.to_move;
    let opp = me.opponent();
    let (kind, n) = kind_words(&pos.kind)?;
    let set = |v: Vec<usize>| v.into_iter().map(brute::point).collect::<BTreeSet<Point>>();
    let empties: Vec<usize> = grid.empties().collect();
    let after = |grid: &mut Grid, test: &mut dyn FnMut(&mut Grid) -> bool| {
        let mut good = Vec::new();
        for &m in &empties {
            if !grid.legal(m, me) {
                continue;
            }
            grid.set(m, Some(me));
            if test(grid) {
                good.push(m);
            }
            grid.set(m, None);
        }
        set(good)
    };
    let premise = |ok: bool, what: &str| {
        if ok {
            Ok(())
        } else {
            Err(format!("premise failed: {what}"))
        }
    };
    match kind {
        "win" => Ok(set(grid.win_points(me))),
        "block" => {
            premise(
                grid.win_points(me).is_empty(),
                "the mover has no five point",
            )?;
            premise(
                !grid.win_points(opp).is_empty(),
                "the opponent has a five point",
            )?;
            Ok(after(grid, &mut |g| g.win_points(opp).is_empty()))
        }
        "block-three" => {
            premise(
                grid.win_points(me).is_empty(),
                "the mover has no five point",
            )?;
            premise(
                grid.win_points(opp).is_empty(),
                "the opponent has no five point",
            )?;
            premise(
                grid.vcf_length(me, 2).is_none(),
                "the mover cannot make a four that wins",
            )?;
            premise(
                !grid.double_threat_points(opp).is_empty(),
                "the opponent threatens an open four",
            )?;
            Ok(after(grid, &mut |g| {
                g.win_points(opp).is_empty() && g.double_threat_points(opp).is_empty()
            }))
        }
        "open-four" => {
            premise(
                grid.win_points(me).is_empty(),
                "the mover has no five point",
            )?;
            premise(
                grid.win_points(opp).is_empty(),
                "the opponent has no five point",
            )?;
            Ok(set(grid.double_threat_points(me)))
        }
        "vcf" => {
            let shortest = grid.vcf_length(me, n + 2);
            premise(
                shortest == Some(n),
                &format!("the shortest VCF takes {n} moves, not {shortest:?}"),
            )?;
            Ok(set(grid.vcf_starts(me, n)))
        }
        "defend" => {
            premise(grid.vcf_length(me, n + 2).is_none(), "the mover has no VCF")?;
            let shortest = grid.vcf_length(opp, n + 2);
            premise(
                shortest == Some(n),
                &format!("the opponent's VCF takes {n} moves, not {shortest:?}"),
            )?;
            Ok(after(grid, &mut |g| g.vcf_length(opp, n + 2).is_none()))
        }
        other => Err(format!("unknown kind {other:?}")),
    }
}

fn tactic(path: &Path) -> datatest_stable::Result<()> {
    let text = std::fs::read_to_string(path)?;
    let pos = parse(&text)?;
    let mut board = Board::new();
    let mut grid = Grid::new(pos.rule);
    for &(p, player) in &pos.stones {
        if !board.place(p, player) {
            return Err(format!("{p} is given twice").into());
        }
        grid.set(brute::index(p), Some(player));
    }
    let solved = solve(&pos, &mut grid)?;
    if solved != pos.answers {
        return Err(format!(
            "the file's answers [{}] differ from the brute-force solver's [{}]",
            names(&pos.answers),
            names(&solved)
        )
        .into());
    }
    let mut engine = Engine::new(1 << 22);
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    let thought = engine
        .think(&board, pos.to_move, pos.rule, limits)
        .ok_or("the engine found no move")?;
    if !pos.answers.contains(&thought.best) {
        return Err(format!(
            "the engine played {} (score {}, depth {}, {} nodes, pv {}); right answers: [{}]",
            thought.best,
            thought.score,
            thought.depth,
            thought.nodes,
            thought
                .pv
                .iter()
                .map(Point::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            names(&pos.answers)
        )
        .into());
    }
    // A win by fours in N own moves is N - 1 blocks between: a mate in
    // 2N - 1 plies, exactly, not an evaluation.
    if let ("vcf", n) = kind_words(&pos.kind)? {
        let n = i32::try_from(n)?;
        let mate = mate_in(thought.score);
        if mate != Some(2 * n - 1) {
            return Err(format!(
                "the engine scored its win {} (mate {mate:?}); a win in {n} own moves is mate {}",
                thought.score,
                2 * n - 1
            )
            .into());
        }
    }
    Ok(())
}

datatest_stable::harness! {
    { test = tactic, root = "tests/tactics", pattern = r"\.txt$" },
}
