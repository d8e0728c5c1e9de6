//! The cases `fuzz` runs: first the aimed ones (`aimed.rs`), one for each
//! scenario of the assignment and each mistake students' programs make;
//! then random sessions aimed at where implementations break: whole games won
//! in every direction, along every edge and in every corner, overlines, a
//! full-board tie and the 361st stone that wins; near-miss commands and
//! points; odd bytes; long lines; a missing final newline; end of input
//! without `term`; input after the game ended.
//!
//! The generator keeps a core [`Game`] beside the lines it writes, so the
//! games it means to play reach the ending it aims at. It never decides
//! what the right output is: the reference does that.

use crate::rules::game::{Ending, Game};
use crate::rules::player::Player;
use crate::rules::point::{Column, Point, Row, SIZE};
use crate::rules::rule::Rule;

use crate::rng::Rng;

use super::trace::LONG_LINE;

mod aimed;
mod lines;

pub use lines::near_miss;
use lines::{long_line, odd_bytes, point_like};

const N: usize = SIZE as usize;
use crate::rules::board::DIRECTIONS;
/// The bytes the contract takes for whitespace (`command::is_whitespace`).
const WHITESPACE: [u8; 5] = [b' ', b'\t', b'\r', 0x0b, 0x0c];

/// Case `index` of the run with `seed`: the aimed cases first, then
/// random sessions. The same seed and index make the same bytes.
pub fn numbered(seed: u64, index: u64) -> Vec<u8> {
    let mut rng = Rng::for_case(seed, index);
    let aimed = usize::try_from(index)
        .ok()
        .and_then(|i| aimed::case(&mut rng, i));
    aimed.unwrap_or_else(|| case(&mut rng))
}

/// One random session: the bytes of a `.in` file.
pub fn case(rng: &mut Rng) -> Vec<u8> {
    let mut script = Script::new();
    match rng.below(100) {
        0..=34 => script.win_game(rng),
        35..=59 => script.mixed(rng, 40),
        60..=69 => {
            script.mixed(rng, 12);
            for _ in 0..rng.between(1, 2) {
                let at = rng.below(script.lines.len() + 1);
                script.lines.insert(at, long_line(rng));
            }
        }
        70..=74 => script.full_board(rng, false),
        75..=79 => script.full_board(rng, true),
        _ => script.mixed(rng, 8),
    }
    script.finish(rng)
}

/// Whether `line` is one the assignment's own examples could hold:
/// printable ASCII, no longer than [`LONG_LINE`].
fn plain_line(line: &[u8]) -> bool {
    line.len() <= LONG_LINE && line.iter().all(|b| (0x20..0x7f).contains(b))
}

/// Whether `body` is lines the assignment alone governs, each ended by
/// `\n` (what a shrunk example holds before its `term`).
pub fn is_assignment_only_body(body: &[u8]) -> bool {
    (body.is_empty() || body.ends_with(b"\n"))
        && body
            .split_inclusive(|&b| b == b'\n')
            .all(|l| plain_line(&l[..l.len() - 1]))
}

/// Whether `input` is a session no decision of the contract governs:
/// printable ASCII lines no longer than [`LONG_LINE`], each ended by
/// `\n`, the last one `term` or the line that ends the game.
pub fn is_assignment_only(input: &[u8]) -> bool {
    use super::trace::{Stop, trace};
    if !is_assignment_only_body(input) || input.is_empty() {
        return false;
    }
    let t = trace(input);
    match t.stop {
        Stop::Term => input.ends_with(b"term\n"),
        Stop::Ended(_) => true,
        Stop::EndOfInput => false,
    }
}

/// `input` made into a session no decision of the contract affects:
/// lines holding anything but printable ASCII, or longer than
/// [`LONG_LINE`], are dropped (none of them places a stone, so the game
/// stays the same), every line ends with `\n`, and `term` ends it.
pub fn assignment_only(input: &[u8]) -> Vec<u8> {
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    // What follows a final `\n` (or an empty input) is no line.
    if input.is_empty() || input.ends_with(b"\n") {
        lines.pop();
    }
    let mut out = Vec::with_capacity(input.len() + 5);
    for line in lines {
        if plain_line(line) {
            out.extend_from_slice(line);
            out.push(b'\n');
        }
    }
    out.extend_from_slice(b"term\n");
    out
}

/// Lines written so far, and the game they play.
struct Script {
    lines: Vec<Vec<u8>>,
    game: Game,
    over: bool,
}

fn point(column: usize, row: usize) -> Point {
    // Both are below 19 wherever this is called.
    Point::new(Column::saturating(column as u8), Row::saturating(row as u8))
}

fn random_point(rng: &mut Rng) -> Point {
    point(rng.below(N), rng.below(N))
}

fn place_line(p: Point) -> Vec<u8> {
    let mut line = b"place ".to_vec();
    p.write_ascii(&mut line);
    line
}

impl Script {
    fn new() -> Script {
        Script {
            lines: Vec::new(),
            game: Game::new(Rule::default()),
            over: false,
        }
    }

    fn place(&mut self, p: Point) {
        self.lines.push(place_line(p));
        if !self.over && matches!(self.game.place(p), Ok(Some(_))) {
            self.over = true;
        }
    }

    /// A random free point, not in `avoid`, whose stone does not end the
    /// game; `None` if none turns up in a few tries.
    fn quiet_point(&self, rng: &mut Rng, avoid: &[Point]) -> Option<Point> {
        (0..64).map(|_| random_point(rng)).find(|&p| {
            let mut trial = self.game.clone();
            !avoid.contains(&p) && matches!(trial.place(p), Ok(None))
        })
    }

    /// Now and then a query, a near miss or a rejected placement between
    /// moves, as a person types them.
    fn chatter(&mut self, rng: &mut Rng, percent: usize) {
        if !rng.chance(percent) {
            return;
        }
        let line = match rng.below(10) {
            0..=3 => b"view".to_vec(),
            4 => b"who".to_vec(),
            5 => b"history".to_vec(),
            6 => near_miss(rng),
            7 => odd_bytes(rng),
            // Occupied, if there is a stone yet.
            8 => match self.game.moves().last() {
                Some(&p) => place_line(p),
                None => b"view".to_vec(),
            },
            _ => {
                let mut line = b"place ".to_vec();
                line.extend(point_like(rng));
                line
            }
        };
        self.lines.push(line);
    }

    /// A game that ends when the winner makes a line of five to seven, in
    /// any direction, often along an edge or in a corner.
    fn win_game(&mut self, rng: &mut Rng) {
        let (dc, dr) = *rng.pick(&DIRECTIONS);
        let len = *rng.pick(&[5, 5, 5, 5, 5, 6, 6, 6, 7]);
        let span = len - 1;
        let edge_biased = |rng: &mut Rng, low: usize, high: usize| match rng.below(4) {
            0 => low,
            1 => high,
            _ => rng.between(low, high),
        };
        let column = match dc {
            0 => edge_biased(rng, 0, N - 1),
            _ => edge_biased(rng, 0, N - 1 - span),
        };
        let row = match dr {
            0 => edge_biased(rng, 0, N - 1),
            1 => edge_biased(rng, 0, N - 1 - span),
            _ => edge_biased(rng, span, N - 1),
        };
        let line: Vec<Point> = (0..len)
            .map(|i| {
                let c = column as isize + i as isize * isize::from(dc);
                let r = row as isize + i as isize * isize::from(dr);
                point(c as usize, r as usize)
            })
            .collect();
        // Placed last, the stone must not leave five in a row before it.
        let last = rng.between(len - 5, 4);
        let mut stones: Vec<Point> = line
            .iter()
            .copied()
            .enumerate()
            .filter(|&(i, _)| i != last)
            .map(|(_, p)| p)
            .collect();
        rng.shuffle(&mut stones);
        stones.push(line[last]);
        let winner = if rng.chance(50) {
            Player::Black
        } else {
            Player::White
        };
        for _ in 0..rng.below(12) * 2 {
            if let Some(p) = self.quiet_point(rng, &line) {
                self.place(p);
            }
            self.chatter(rng, 20);
        }
        for stone in stones {
            while !self.over && self.game.to_move() != winner {
                let Some(p) = self.quiet_point(rng, &line) else {
                    return;
                };
                self.place(p);
                self.chatter(rng, 15);
            }
            if self.over {
                break;
            }
            self.place(stone);
            self.chatter(rng, 15);
        }
        // Input after the end, which must not be read.
        if rng.chance(30) {
            self.mixed(rng, 4);
        }
    }

    /// Random commands, near misses and odd bytes: up to `most` lines.
    fn mixed(&mut self, rng: &mut Rng, most: usize) {
        for _ in 0..rng.between(1, most) {
            match rng.below(20) {
                0..=6 => {
                    let p = random_point(rng);
                    self.place(p);
                }
                7..=11 => self.chatter(rng, 100),
                12..=16 => self.lines.push(near_miss(rng)),
                17..=18 => self.lines.push(odd_bytes(rng)),
                _ => self.lines.push(b"resign".to_vec()),
            }
        }
    }

    /// All 361 points filled in a pattern with no five: a tie. With
    /// `win_last`, the pattern is changed so that the 361st stone, Black's,
    /// makes five: a win, not a tie.
    fn full_board(&mut self, rng: &mut Rng, win_last: bool) {
        let plain = tie_pattern();
        let mut order = None;
        if win_last {
            order = (0..32).find_map(|_| last_stone_wins(rng, &plain));
        }
        let order = order.unwrap_or_else(|| interleave(rng, &plain, None));
        for p in order {
            self.place(p);
            self.chatter(rng, 2);
        }
    }

    /// The lines, each ended by `\n`; then perhaps `term`, perhaps more, and
    /// perhaps no newline after the last line.
    fn finish(mut self, rng: &mut Rng) -> Vec<u8> {
        match rng.below(20) {
            0..=8 => self.lines.push(b"term".to_vec()),
            9..=10 => {
                self.lines.push(b"term".to_vec());
                self.lines.push(b"who".to_vec());
            }
            _ => {}
        }
        let mut bytes = Vec::new();
        for line in &self.lines {
            bytes.extend_from_slice(line);
            bytes.push(b'\n');
        }
        if rng.chance(15) {
            bytes.pop();
        }
        bytes
    }
}

/// A game on a full board: a tie, or with `win_last` a win by the 361st
/// stone (the two scenarios whose example cannot be shown on a line).
#[cfg(test)]
pub(crate) fn full_board_game(win_last: bool) -> Vec<u8> {
    let mut script = Script::new();
    script.full_board(&mut Rng::new(3), win_last);
    script.finish(&mut Rng::new(1))
}

/// Which points are Black's in a full board with no line longer than
/// two: colour by `(column + 2 row) mod 4`, shifted so that Black, who
/// moves first, has 181 stones.
fn tie_pattern() -> [bool; N * N] {
    let pattern = |shift: usize| {
        let mut black = [false; N * N];
        for (i, cell) in black.iter_mut().enumerate() {
            *cell = (i % N + 2 * (i / N) + shift) % 4 < 2;
        }
        black
    };
    let count = |black: &[bool; N * N]| black.iter().filter(|&&b| b).count();
    (0..4)
        .map(pattern)
        .find(|black| count(black) == N * N / 2 + 1)
        .unwrap_or_else(|| pattern(0))
}

/// The points in move order: Black's and White's shuffled and taken in
/// turn, with `last` (a Black point) last.
fn interleave(rng: &mut Rng, black: &[bool; N * N], last: Option<Point>) -> Vec<Point> {
    let all = (0..N * N).map(|i| point(i % N, i / N));
    let mut blacks: Vec<Point> = all
        .clone()
        .filter(|p| black[p.index()] && Some(*p) != last)
        .collect();
    let mut whites: Vec<Point> = all.filter(|p| !black[p.index()]).collect();
    rng.shuffle(&mut blacks);
    rng.shuffle(&mut whites);
    blacks.extend(last);
    let mut order = Vec::with_capacity(N * N);
    for (i, b) in blacks.into_iter().enumerate() {
        order.push(b);
        if let Some(&w) = whites.get(i) {
            order.push(w);
        }
    }
    order
}

/// A full-board order whose 361st stone makes Black's five, and no move
/// before it ends the game; `None` if this random try fails.
fn last_stone_wins(rng: &mut Rng, plain: &[bool; N * N]) -> Option<Vec<Point>> {
    let mut black = *plain;
    let (dc, dr) = *rng.pick(&DIRECTIONS);
    let last = random_point(rng);
    let back = rng.below(5) as i8;
    let start = last.offset(-dc * back, -dr * back)?;
    let five: Vec<Point> = (0..5)
        .map(|i| start.offset(dc * i, dr * i))
        .collect::<Option<_>>()?;
    for p in &five {
        black[p.index()] = true;
    }
    // Give back as many points as the five took, away from it.
    let target = N * N / 2 + 1;
    while black.iter().filter(|&&b| b).count() > target {
        let p = random_point(rng);
        if black[p.index()] && !five.contains(&p) {
            black[p.index()] = false;
        }
    }
    let order = interleave(rng, &black, Some(last));
    let mut game = Game::new(Rule::default());
    let (before, [final_stone]) = order.split_at(order.len() - 1) else {
        return None;
    };
    let quiet = before.iter().all(|&p| matches!(game.place(p), Ok(None)));
    let wins = matches!(
        game.place(*final_stone),
        Ok(Some(Ending::Win {
            winner: Player::Black
        }))
    );
    (quiet && wins).then_some(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_the_contracts() {
        for byte in 0..=u8::MAX {
            assert_eq!(
                WHITESPACE.contains(&byte),
                crate::rules::command::is_whitespace(byte),
                "{byte:#04x}"
            );
        }
    }

    #[test]
    fn tie_pattern_has_no_line_of_five() {
        let black = tie_pattern();
        let mut game = Game::new(Rule::default());
        let order = interleave(&mut Rng::new(1), &black, None);
        assert_eq!(order.len(), N * N);
        let endings: Vec<_> = order.iter().map(|&p| game.place(p)).collect();
        let (last, before) = endings.split_last().expect("361 moves");
        assert!(
            before.iter().all(|e| matches!(e, Ok(None))),
            "a move before the last ended the game"
        );
        assert_eq!(*last, Ok(Some(Ending::Tie)));
    }

    #[test]
    fn the_361st_stone_can_be_made_to_win() {
        let mut rng = Rng::new(3);
        let found = (0..32).find_map(|_| last_stone_wins(&mut rng, &tie_pattern()));
        assert!(found.is_some(), "no try in 32 made the last stone win");
    }

    /// What the generated cases cover, found by playing them.
    #[derive(Default)]
    struct Seen {
        /// (direction, edge) pairs of winning lines; edges are 0 left,
        /// 1 right, 2 bottom, 3 top.
        direction_edge: std::collections::BTreeSet<(usize, usize)>,
        corners: std::collections::BTreeSet<Point>,
        overline: bool,
        white_wins: bool,
        tie: bool,
        last_stone_wins: bool,
        bytes: std::collections::BTreeSet<u8>,
        long_line: bool,
        no_final_newline: bool,
        no_term: bool,
        input_after_end: bool,
    }

    fn play(input: &[u8], seen: &mut Seen) {
        use crate::rules::board::DIRECTIONS as DIRS;
        use crate::rules::command::Command;
        let mut game = Game::new(Rule::default());
        let lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
        seen.bytes
            .extend(input.iter().filter(|b| !b.is_ascii_graphic()));
        seen.long_line |= lines.iter().any(|l| l.len() > 64 * 1024);
        seen.no_final_newline |= input.last().is_some_and(|&b| b != b'\n');
        seen.no_term |= !lines.contains(&&b"term"[..]);
        for (i, line) in lines.iter().enumerate() {
            let ending = match Command::parse(line) {
                Ok(Command::Place(p)) => match game.place(p) {
                    Ok(Some(ending)) => Some((ending, p)),
                    _ => None,
                },
                Ok(Command::Term | Command::Resign) => return,
                _ => None,
            };
            let Some((ending, p)) = ending else { continue };
            seen.input_after_end |= lines[i + 1..].iter().any(|l| !l.is_empty());
            let Ending::Win { winner } = ending else {
                seen.tie = true;
                return;
            };
            seen.white_wins |= winner == Player::White;
            seen.last_stone_wins |= game.moves().len() == N * N;
            for (d, &dir) in DIRS.iter().enumerate() {
                let run = game.board().run(p, dir);
                if run.length < 5 {
                    continue;
                }
                seen.overline |= run.length > 5;
                let mut stones = vec![p];
                for sign in [1, -1] {
                    let mut at = p;
                    while let Some(next) = at.offset(dir.0 * sign, dir.1 * sign) {
                        if game.board().get(next) != Some(winner) {
                            break;
                        }
                        stones.push(next);
                        at = next;
                    }
                }
                for s in stones {
                    let (c, r) = (s.column().index(), s.row().index());
                    for (edge, on) in [c == 0, c == N - 1, r == 0, r == N - 1]
                        .into_iter()
                        .enumerate()
                    {
                        if on {
                            seen.direction_edge.insert((d, edge));
                        }
                    }
                    if (c == 0 || c == N - 1) && (r == 0 || r == N - 1) {
                        seen.corners.insert(s);
                    }
                }
            }
            return;
        }
    }

    #[test]
    fn cases_cover_what_breaks_implementations() {
        let mut seen = Seen::default();
        for index in 0..2000 {
            play(&case(&mut Rng::for_case(1, index)), &mut seen);
        }
        assert_eq!(
            seen.direction_edge.len(),
            16,
            "wins by direction and edge: {:?}",
            seen.direction_edge
        );
        assert_eq!(seen.corners.len(), 4, "wins in corners: {:?}", seen.corners);
        assert!(
            seen.overline && seen.white_wins,
            "overlines and White's wins"
        );
        assert!(seen.tie && seen.last_stone_wins, "full boards");
        for byte in [b'\r', b'\t', 0, 0xff, 0x0b, 0x0c, b' '] {
            assert!(seen.bytes.contains(&byte), "byte {byte:#x}");
        }
        assert!(seen.long_line && seen.no_final_newline && seen.no_term && seen.input_after_end);
    }

    #[test]
    fn assignment_only_sessions_depend_on_no_decision() {
        use crate::conform::trace::{Stop, decisions, trace};
        for index in 0..10_000 {
            let input = assignment_only(&numbered(7, index));
            let t = trace(&input);
            let found = decisions(&input, &t);
            assert!(found.is_empty(), "case {index}: {found:?}");
            // Printable ASCII, every line ended by a newline and short.
            assert!(input.ends_with(b"\n"), "case {index}");
            for line in input.split(|&b| b == b'\n') {
                assert!(
                    line.len() <= LONG_LINE,
                    "case {index}: {} bytes",
                    line.len()
                );
                assert!(
                    line.iter().all(|b| (0x20..0x7f).contains(b)),
                    "case {index}: {}",
                    line.escape_ascii()
                );
            }
            // The reference stops at `term`, its last line, or at the
            // game's end.
            match t.stop {
                Stop::Term => assert!(input.ends_with(b"term\n"), "case {index}"),
                Stop::Ended(_) => {}
                Stop::EndOfInput => panic!("case {index} ends without term"),
            }
            assert!(is_assignment_only(&input), "case {index}");
        }
    }

    #[test]
    fn same_seed_same_case() {
        let a: Vec<Vec<u8>> = (0..50).map(|i| case(&mut Rng::for_case(9, i))).collect();
        let b: Vec<Vec<u8>> = (0..50).map(|i| case(&mut Rng::for_case(9, i))).collect();
        assert_eq!(a, b);
    }
}
