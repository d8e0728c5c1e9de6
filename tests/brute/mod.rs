//! A deliberately plain solver, independent of the engine, that the
//! engine's tests check their answers with: its own board, its own win
//! check for each rule, and exhaustive searches over every empty point.
//! Slow and obviously right is the point.

#![allow(dead_code)] // each test binary uses part of it

use std::collections::HashMap;

use gomoku_mist::player::Player;
use gomoku_mist::point::{Column, Point, Row};
use gomoku_mist::renju::{self, Cell, Stones};
use gomoku_mist::rule::Rule;

const N: i32 = 19;
const LINES: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A board that can take stones back.
#[derive(Clone, Debug)]
pub struct Grid {
    cells: [Option<Player>; 361],
    pub rule: Rule,
    /// A hash of the stones, for `known`.
    hash: u64,
    /// VCF results already worked out: (hash, attacker, moves) to result.
    known: HashMap<(u64, bool, u32), bool>,
}

/// A fixed pseudo-random key per point and colour.
fn key(i: usize, c: Player) -> u64 {
    let mut z =
        (i as u64 * 2 + u64::from(c == Player::White) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn at(c: i32, r: i32) -> Option<usize> {
    ((0..N).contains(&c) && (0..N).contains(&r)).then(|| (r * N + c) as usize)
}

pub fn point(i: usize) -> Point {
    let (c, r) = (i as i32 % N, i as i32 / N);
    Point::new(
        Column::new(c as u8 + 1).unwrap(),
        Row::new(r as u8 + 1).unwrap(),
    )
}

pub fn index(p: Point) -> usize {
    p.row().index() * 19 + p.column().index()
}

impl Grid {
    pub fn new(rule: Rule) -> Grid {
        Grid {
            cells: [None; 361],
            rule,
            hash: 0,
            known: HashMap::new(),
        }
    }

    pub fn get(&self, i: usize) -> Option<Player> {
        self.cells[i]
    }

    pub fn set(&mut self, i: usize, v: Option<Player>) {
        if let Some(old) = self.cells[i] {
            self.hash ^= key(i, old);
        }
        if let Some(new) = v {
            self.hash ^= key(i, new);
        }
        self.cells[i] = v;
    }

    pub fn empties(&self) -> impl Iterator<Item = usize> + '_ {
        (0..361).filter(|&i| self.cells[i].is_none())
    }

    /// Whether `c` playing the empty point `i` wins under the rule.
    pub fn makes_win(&self, i: usize, c: Player) -> bool {
        let (x, y) = (i as i32 % N, i as i32 / N);
        LINES.iter().any(|&(dx, dy)| {
            let walk = |s: i32| {
                let mut n = 0;
                loop {
                    match at(x + s * dx * (n + 1), y + s * dy * (n + 1)) {
                        Some(j) if self.cells[j] == Some(c) => n += 1,
                        end => return (n, end.and_then(|j| self.cells[j])),
                    }
                }
            };
            let ((a, end_a), (b, end_b)) = (walk(1), walk(-1));
            let len = 1 + a + b;
            match self.rule {
                Rule::Freestyle => len >= 5,
                Rule::Exact => len == 5,
                // Beyond a run of `c` stands the opponent, nothing, or the edge.
                Rule::Caro => len == 5 && !(end_a.is_some() && end_b.is_some()),
                Rule::Renju if c == Player::White => len >= 5,
                Rule::Renju => len == 5,
            }
        })
    }

    /// Whether `c` may play the empty point `i`: under renju Black may
    /// not play a forbidden point (the rules core's judgement, not the
    /// engine's).
    pub fn legal(&self, i: usize, c: Player) -> bool {
        let (x, y) = (i as i32 % N, i as i32 / N);
        !(self.rule == Rule::Renju && c == Player::Black && renju::foul(self, x, y).is_some())
    }

    /// Whether `c` has at least `k` stones within four points of `i` on
    /// one line: a cheap necessary condition for a win or a four at `i`.
    fn near_line(&self, i: usize, c: Player, k: usize) -> bool {
        let (x, y) = (i as i32 % N, i as i32 / N);
        LINES.iter().any(|&(dx, dy)| {
            (-4..=4)
                .filter(|&s| s != 0)
                .filter(|&s| at(x + s * dx, y + s * dy).is_some_and(|j| self.cells[j] == Some(c)))
                .count()
                >= k
        })
    }

    /// Every empty point where `c` wins at once.
    pub fn win_points(&self, c: Player) -> Vec<usize> {
        self.empties()
            .filter(|&i| self.near_line(i, c, 4) && self.makes_win(i, c))
            .collect()
    }

    /// Whether `att`, to move, wins by continuous fours (every move a
    /// five or a four) within `moves` of its own moves, the final five
    /// included. Whoever has a five point and is to move wins; the
    /// defender, when not winning at once, must block the four.
    pub fn vcf(&mut self, att: Player, moves: u32) -> bool {
        let memo = (self.hash, att == Player::White, moves);
        if let Some(&known) = self.known.get(&memo) {
            return known;
        }
        let result = self.vcf_search(att, moves);
        self.known.insert(memo, result);
        result
    }

    fn vcf_search(&mut self, att: Player, moves: u32) -> bool {
        if moves == 0 {
            return false;
        }
        if !self.win_points(att).is_empty() {
            return true;
        }
        if moves < 2 {
            return false;
        }
        let candidates = self.four_candidates(att);
        candidates
            .into_iter()
            .any(|m| self.four_wins(att, m, moves))
    }

    /// The attacker's possible fours: near its stones, and if the
    /// defender has a five point, only the moves that stop it.
    fn four_candidates(&mut self, att: Player) -> Vec<usize> {
        let def = att.opponent();
        if self.win_points(def).is_empty() {
            self.empties()
                .filter(|&i| self.near_line(i, att, 3) && self.legal(i, att))
                .collect()
        } else {
            self.stoppers(att, def)
        }
    }

    /// Whether `att` playing `m` makes a four that wins by continuous
    /// fours within `moves` own moves in all (`m` included).
    fn four_wins(&mut self, att: Player, m: usize, moves: u32) -> bool {
        let def = att.opponent();
        self.set(m, Some(att));
        let ok = if self.win_points(att).is_empty() || !self.win_points(def).is_empty() {
            false
        } else {
            // Every way the defender stops the five must still lose.
            let stops = self.stoppers(def, att);
            stops.into_iter().all(|s| {
                self.set(s, Some(def));
                let r = self.vcf(att, moves - 1);
                self.set(s, None);
                r
            })
        };
        self.set(m, None);
        ok
    }

    /// The moves of `by` after which `against` has no five point. Outside
    /// caro: the five point if there is only one. Under caro, by brute
    /// force over every empty point: a stone just beyond a five can leave
    /// it blocked at both ends, and one stone can stop two fives.
    pub fn stoppers(&mut self, by: Player, against: Player) -> Vec<usize> {
        let wins = self.win_points(against);
        if self.rule != Rule::Caro {
            // Under renju a five point Black may not take stops nothing.
            return if wins.len() == 1 && self.legal(wins[0], by) {
                wins
            } else {
                Vec::new()
            };
        }
        // A stone changes a five only on its five point or at one of its
        // ends: on its line, at most five points from the five point.
        let mut near: Vec<usize> = Vec::new();
        for &w in &wins {
            let (x, y) = (w as i32 % N, w as i32 / N);
            for (dx, dy) in LINES {
                for k in -5..=5 {
                    if let Some(j) = at(x + k * dx, y + k * dy) {
                        if self.cells[j].is_none() && !near.contains(&j) {
                            near.push(j);
                        }
                    }
                }
            }
        }
        near.into_iter()
            .filter(|&e| {
                self.set(e, Some(by));
                let stopped = self.win_points(against).is_empty();
                self.set(e, None);
                stopped
            })
            .collect()
    }

    /// The first moves of every VCF of at most `moves` own moves.
    pub fn vcf_starts(&mut self, att: Player, moves: u32) -> Vec<usize> {
        let immediate = self.win_points(att);
        if !immediate.is_empty() {
            return immediate;
        }
        if moves < 2 {
            return Vec::new();
        }
        let candidates = self.four_candidates(att);
        candidates
            .into_iter()
            .filter(|&m| self.four_wins(att, m, moves))
            .collect()
    }

    /// The fewest own moves of a VCF for `att`, up to `max`.
    pub fn vcf_length(&mut self, att: Player, max: u32) -> Option<u32> {
        (1..=max).find(|&n| self.vcf(att, n))
    }

    /// Whether `c`, to move, can make an open four or a double four: a move
    /// after which it has two or more five points.
    pub fn double_threat_points(&mut self, c: Player) -> Vec<usize> {
        let candidates: Vec<usize> = self
            .empties()
            .filter(|&i| self.near_line(i, c, 3) && self.legal(i, c))
            .collect();
        candidates
            .into_iter()
            .filter(|&m| {
                self.set(m, Some(c));
                let n = self.win_points(c).len();
                self.set(m, None);
                n >= 2
            })
            .collect()
    }
}

impl Stones for Grid {
    fn cell(&self, x: i32, y: i32) -> Cell {
        match at(x, y).map(|i| self.cells[i]) {
            None | Some(Some(Player::White)) => Cell::Blocked,
            Some(None) => Cell::Empty,
            Some(Some(Player::Black)) => Cell::Black,
        }
    }
}
