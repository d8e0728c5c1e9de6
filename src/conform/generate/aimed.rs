//! The aimed cases: the first cases of every `fuzz` run, before the random
//! sessions. Random sessions reach a full board, an overline in a given
//! direction or one malformed point only now and then, so a program that
//! gets one of them wrong could pass a run of a few seconds; here each is
//! a case of its own, in the first seconds of every run. Together they
//! cover every scenario of `cover` (a test checks it), and each holds
//! one thing to get wrong, so one mistake hides no other.
//!
//! The games are made with a core [`Game`](crate::rules::game::Game)
//! beside the lines, as the random ones are; what the right output is,
//! the reference decides.

use super::{N, Script, interleave, last_stone_wins, place_line, point, tie_pattern};
use crate::rng::Rng;
use crate::rules::board::DIRECTIONS;
use crate::rules::player::Player;
use crate::rules::point::Point;

/// One aimed case, before it is made.
#[derive(Clone, Copy, Debug)]
enum Aim {
    /// These bytes, as they are.
    Bytes(&'static [u8]),
    /// `place PARAM`, then `who` and `term`: a parameter that is no point.
    Place(&'static [u8]),
    /// A game `winner` wins with `len` stones from `from` (column and row
    /// indices) by `step`, the stone numbered `last` placed last; the
    /// winning line has no `\n` after it unless `newline`.
    Line {
        from: (i8, i8),
        step: (i8, i8),
        len: i8,
        last: i8,
        winner: Player,
        newline: bool,
    },
    /// Black's five stones that follow each other in a one-dimensional
    /// array of the board (row by row, or column by column) every `step`
    /// places, across the end of a row or column: no line, the game goes on.
    Wrap { column_major: bool, step: usize },
    /// The board filled: a tie, or with `win_last` a five by the 361st stone.
    FullBoard { win_last: bool },
    /// `place P`, `view` for each point P of the diagonal from A1 to S19,
    /// or with `anti` from A19 to S1: the hole in every column and row.
    Walk { anti: bool },
    /// Lines of these lengths, each ending in `who`, each followed by `who`.
    Long(&'static [usize]),
}

/// Commands that each exercise one scenario or more, ending in every way
/// the contract names: `term`, the game's end, the end of input, with and
/// without a final newline, or no input at all.
const COMMANDS: [&[u8]; 14] = [
    b"who\nhistory\nview\nplace J10\nwho\nhistory\nview\nplace J10\nview\nwho\nterm\n",
    // The end of input without `term` early: a program that loops there
    // costs every later case its timeout until it is known.
    b"place A1\nwho\n",
    b"term\n",
    b"term\nwho\n",
    b"resign\nwho\n",
    b"place A1\nresign\n",
    b"place S19\nplace A1\nplace A19\nplace S1\nplace I9\nplace J19\nplace A10\nhistory\nterm\n",
    b"place A1\nwho",
    b"place A1\nterm",
    b"place A1\nview",
    b"place A1\nhistory",
    b"resign",
    b"",
    b"place A1\nplace B1\nplace A1\nplace B2\nplace B1\nhistory\nwho\nterm\n",
];

/// Parameters the contract calls no point (`Invalid coordinate`): every
/// shape it lists, and the letters and rows just past the board's.
const NOT_POINTS: [&[u8]; 24] = [
    b"T1", b"Z1", b"a1", b"s19", b"A0", b"A00", b"A20", b"A99", b"B122", b"Z100", b"A01", b"A010",
    b"A1x", b"S19x", b"J10.", b"A+1", b"A-1", b"A", b"1A", b"AB", b"AA1", b"@1", b"10", b"I1I",
];

/// Lines the contract calls no command (`Invalid!`): a point split by a
/// space, spaces doubled, leading or trailing, tabs, `\r`, an empty or
/// missing parameter, a second one, the wrong case, no space at all.
const NOT_COMMANDS: [&[u8]; 20] = [
    // The commonest mistakes of students' programs first: a trim, a `\r`
    // dropped, blank lines skipped, case folded.
    b" who\nterm\n",
    b"who \nterm\n",
    b"who\r\nterm\n",
    b"\nterm\n",
    b"WHO\nterm\n",
    b"place A 1\nwho\nterm\n",
    b"place J10\r\nwho\nterm\n",
    b"place  A1\nwho\nterm\n",
    b"place \nwho\nterm\n",
    b"place\nwho\nterm\n",
    b"who\t\nterm\n",
    b"place A1 B2\nwho\nterm\n",
    b"place\tA1\nwho\nterm\n",
    b"place A1\t\nwho\nterm\n",
    b"placeA1\nwho\nterm\n",
    b"Place A1\nwho\nterm\n",
    b"who B\nterm\n",
    b"hello\nterm\n",
    b"term \nwho\nterm\n",
    b"place A1\x0b\nwho\nterm\n",
];

/// The hole cut by each edge.
const HOLES: [&[u8]; 4] = [
    b"place L1\nview\nterm\n",
    b"place I1\nview\nterm\n",
    b"place A1\nview\nterm\n",
    b"place A2\nview\nterm\n",
];

/// Bytes the assignment does not speak of: NUL, bytes that are not
/// UTF-8, a no-break space after a point.
const ODD: [&[u8]; 3] = [
    b"who\x00\nwho\nterm\n",
    b"\xff\xfe\nwho\nterm\n",
    b"place A1\xc2\xa0\nwho\nterm\n",
];

/// The aims, kind by kind.
fn kinds() -> Vec<Vec<Aim>> {
    let bytes = |list: &[&'static [u8]]| list.iter().map(|&b| Aim::Bytes(b)).collect();
    let wraps = [false, true]
        .into_iter()
        .flat_map(|column_major| [1, N - 1, N + 1].map(|step| Aim::Wrap { column_major, step }))
        .collect();
    let mut mist: Vec<Aim> = bytes(&HOLES);
    mist.extend([Aim::Walk { anti: true }, Aim::Walk { anti: false }]);
    vec![
        bytes(&COMMANDS),
        NOT_POINTS.into_iter().map(Aim::Place).collect(),
        bytes(&NOT_COMMANDS),
        inside(),
        edges(),
        corners(),
        overlines(),
        wraps,
        vec![
            Aim::FullBoard { win_last: true },
            Aim::FullBoard { win_last: false },
        ],
        mist,
        bytes(&ODD),
        vec![
            Aim::Long(&[65, 255, 256, 257, 300]),
            Aim::Long(&[511, 512, 513, 1025, 4097]),
            Aim::Long(&[65_537, 140_000]),
        ],
    ]
}

/// The whole list, in the order the cases run: one of each kind in turn,
/// so that the first of every kind runs within the first dozen cases.
fn list() -> Vec<Aim> {
    let kinds = kinds();
    let longest = kinds.iter().map(Vec::len).max().unwrap_or(0);
    (0..longest)
        .flat_map(|i| kinds.iter().filter_map(move |kind| kind.get(i).copied()))
        .collect()
}

/// How many cases are aimed.
#[cfg(test)]
fn count() -> usize {
    list().len()
}

/// Aimed case `index`, its random parts (the loser's stones, the order of
/// a full board) taken from `rng`; `None` past the last.
pub fn case(rng: &mut Rng, index: usize) -> Option<Vec<u8>> {
    list().get(index).map(|&aim| make(rng, aim))
}

/// A line of five that `winner` wins with, the stone numbered `last`
/// placed last.
const fn five(from: (i8, i8), step: (i8, i8), last: i8, winner: Player) -> Aim {
    Aim::Line {
        from,
        step,
        len: 5,
        last,
        winner,
        newline: true,
    }
}

/// A five in each direction away from every edge, and one whose winning
/// line has no newline after it.
fn inside() -> Vec<Aim> {
    let mut aims: Vec<Aim> = DIRECTIONS
        .into_iter()
        .map(|(dc, dr)| five((9 - 2 * dc, 9 - 2 * dr), (dc, dr), 2, Player::Black))
        .collect();
    aims.push(Aim::Line {
        from: (7, 9),
        step: (1, 0),
        len: 5,
        last: 4,
        winner: Player::Black,
        newline: false,
    });
    aims
}

/// A five in each direction touching each edge at its middle: along the
/// edge, the middle stone last; away from it, the far stone last (a
/// program that looks past the edge does so then). White wins every
/// other one.
fn edges() -> Vec<Aim> {
    // Each edge's middle point, and the way into the board.
    let edges = [
        ((0, 9), (1, 0)),
        ((18, 9), (-1, 0)),
        ((9, 0), (0, 1)),
        ((9, 18), (0, -1)),
    ];
    let mut aims = Vec::new();
    for ((c, r), (nc, nr)) in edges {
        for (dc, dr) in DIRECTIONS {
            let winner = [Player::Black, Player::White][aims.len() % 2];
            let along = dc * nc + dr * nr;
            aims.push(if along == 0 {
                five((c - 2 * dc, r - 2 * dr), (dc, dr), 2, winner)
            } else {
                five((c, r), (dc * along, dr * along), 4, winner)
            });
        }
    }
    aims
}

/// A five from each corner in each direction that fits, the corner's
/// stone last.
fn corners() -> Vec<Aim> {
    let mut aims = Vec::new();
    for (c, r) in [(0, 0), (18, 0), (0, 18), (18, 18)] {
        for (dc, dr) in DIRECTIONS {
            let step = [(dc, dr), (-dc, -dr)].into_iter().find(|&(sc, sr)| {
                (0..19).contains(&(c + 4 * sc)) && (0..19).contains(&(r + 4 * sr))
            });
            if let Some(step) = step {
                let winner = [Player::White, Player::Black][aims.len() % 2];
                aims.push(five((c, r), step, 0, winner));
            }
        }
    }
    aims
}

/// Six and seven in a row in each direction, the last stone next to an
/// end or in the middle (a stone at the end cannot be last: the five
/// before it would have won).
fn overlines() -> Vec<Aim> {
    let mut aims = Vec::new();
    for (dc, dr) in DIRECTIONS {
        for (len, last, winner) in [
            (6, 1, Player::Black),
            (6, 3, Player::Black),
            (7, 2, Player::White),
            (7, 3, Player::Black),
        ] {
            aims.push(Aim::Line {
                from: (9 - 3 * dc, 9 - 3 * dr),
                step: (dc, dr),
                len,
                last,
                winner,
                newline: true,
            });
        }
    }
    aims
}

fn make(rng: &mut Rng, aim: Aim) -> Vec<u8> {
    match aim {
        Aim::Bytes(bytes) => bytes.to_vec(),
        Aim::Place(param) => [&b"place "[..], param, b"\nwho\nterm\n"].concat(),
        Aim::Line {
            from,
            step,
            len,
            last,
            winner,
            newline,
        } => {
            let mut bytes = line_game(rng, from, step, len, last, winner);
            if !newline {
                bytes.pop();
            }
            bytes
        }
        Aim::Wrap { column_major, step } => wrap(rng, column_major, step),
        Aim::FullBoard { win_last } => full_board(rng, win_last),
        Aim::Walk { anti } => walk(anti),
        Aim::Long(lengths) => long(lengths),
    }
}

/// The lines, each ended by `\n`.
fn joined(lines: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for line in lines {
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
    }
    bytes
}

/// `winner`'s stones placed in order, the other player's random ones,
/// away from `avoid` and ending nothing, between them.
fn play(script: &mut Script, rng: &mut Rng, stones: &[Point], winner: Player, avoid: &[Point]) {
    for &stone in stones {
        while !script.over && script.game.to_move() != winner {
            match script.quiet_point(rng, avoid) {
                Some(p) => script.place(p),
                None => return,
            }
        }
        script.place(stone);
    }
}

/// The game of [`Aim::Line`], ended by its winning line.
fn line_game(
    rng: &mut Rng,
    from: (i8, i8),
    step: (i8, i8),
    len: i8,
    last: i8,
    winner: Player,
) -> Vec<u8> {
    let at = |i: i8| {
        point(
            (from.0 + i * step.0).clamp(0, 18) as usize,
            (from.1 + i * step.1).clamp(0, 18) as usize,
        )
    };
    let line: Vec<Point> = (0..len).map(at).collect();
    let mut stones: Vec<Point> = (0..len).filter(|&i| i != last).map(at).collect();
    stones.push(at(last));
    let mut script = Script::new();
    play(&mut script, rng, &stones, winner, &line);
    joined(&script.lines)
}

/// The game of [`Aim::Wrap`]: Black's five stones, then `history` and
/// `term`. They lie across the row (or column) of the board's middle.
fn wrap(rng: &mut Rng, column_major: bool, step: usize) -> Vec<u8> {
    let start = N * (N / 2) - 2 * step;
    let stones: Vec<Point> = (0..5)
        .map(|i| {
            let index = start + i * step;
            let (major, minor) = (index / N, index % N);
            match column_major {
                true => point(major, minor),
                false => point(minor, major),
            }
        })
        .collect();
    let mut script = Script::new();
    play(&mut script, rng, &stones, Player::Black, &stones);
    script.lines.push(b"history".to_vec());
    script.lines.push(b"term".to_vec());
    joined(&script.lines)
}

/// The game of [`Aim::FullBoard`]; `who` after the end, which must not
/// be read.
fn full_board(rng: &mut Rng, win_last: bool) -> Vec<u8> {
    let plain = tie_pattern();
    let won = match win_last {
        true => (0..256).find_map(|_| last_stone_wins(rng, &plain)),
        false => None,
    };
    let order = won.unwrap_or_else(|| interleave(rng, &plain, None));
    let mut lines: Vec<Vec<u8>> = order.into_iter().map(place_line).collect();
    lines.push(b"who".to_vec());
    joined(&lines)
}

/// The game of [`Aim::Walk`]: no five, as each player's stones on the
/// diagonal are two apart.
fn walk(anti: bool) -> Vec<u8> {
    let mut lines = Vec::new();
    for i in 0..N {
        let row = if anti { N - 1 - i } else { i };
        lines.push(place_line(point(i, row)));
        lines.push(b"view".to_vec());
    }
    lines.push(b"term".to_vec());
    joined(&lines)
}

/// The lines of [`Aim::Long`], then `term`.
fn long(lengths: &[usize]) -> Vec<u8> {
    let mut lines = Vec::new();
    for &len in lengths {
        let mut line = vec![b'x'; len.saturating_sub(3)];
        line.extend_from_slice(b"who");
        lines.push(line);
        lines.push(b"who".to_vec());
    }
    lines.push(b"term".to_vec());
    joined(&lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conform::cover::covered_by;
    use crate::conform::scenario::Scenario;
    use crate::conform::trace::{Stop, trace};
    use crate::rules::game::Ending;

    fn all(seed: u64) -> Vec<Vec<u8>> {
        (0..count())
            .map(|i| case(&mut Rng::for_case(seed, i as u64), i).expect("aimed"))
            .collect()
    }

    /// Checked by construction: the aimed cases alone cover every one of
    /// `cover`'s scenarios, whatever the seed.
    #[test]
    fn aimed_cases_cover_every_scenario() {
        for seed in [1, 2, 3] {
            let mut found: Vec<Scenario> = all(seed).iter().flat_map(|c| covered_by(c)).collect();
            found.sort_unstable();
            found.dedup();
            let missing: Vec<_> = Scenario::ALL
                .into_iter()
                .filter(|s| !found.contains(s))
                .collect();
            assert!(missing.is_empty(), "seed {seed}: not covered: {missing:?}");
        }
    }

    /// Every game ends the way it is meant to: a line game with the win
    /// on its last line, a full board with the 361st stone (a win where
    /// aimed, else a tie), a wrap with `term`, no stone refused.
    #[test]
    fn games_end_as_aimed() {
        for seed in [1, 2, 3, 4, 5] {
            for (i, aim) in list().into_iter().enumerate() {
                let input = case(&mut Rng::for_case(seed, i as u64), i).expect("aimed");
                let t = trace(&input);
                let refused = t
                    .steps
                    .iter()
                    .any(|s| s.scenarios.contains(&Scenario::Occupied));
                match aim {
                    Aim::Line { winner, len, .. } => {
                        assert_eq!(t.stop, Stop::Ended(Ending::Win { winner }), "case {i}");
                        assert_eq!(
                            t.steps.len(),
                            input
                                .split(|&b| b == b'\n')
                                .filter(|l| !l.is_empty())
                                .count(),
                            "case {i}: the win is the last line"
                        );
                        let over = t
                            .steps
                            .last()
                            .is_some_and(|s| s.scenarios.contains(&Scenario::WinOverline));
                        assert_eq!(over, len > 5, "case {i}");
                        assert!(!refused, "case {i}");
                    }
                    Aim::FullBoard { win_last } => {
                        let ending = match win_last {
                            true => Ending::Win {
                                winner: Player::Black,
                            },
                            false => Ending::Tie,
                        };
                        assert_eq!(t.stop, Stop::Ended(ending), "seed {seed} case {i}");
                        assert_eq!(t.steps.len(), N * N, "case {i}");
                    }
                    Aim::Wrap { .. } => {
                        assert_eq!(t.stop, Stop::Term, "case {i}");
                        assert!(!refused, "case {i}");
                    }
                    _ => {}
                }
            }
        }
    }

    /// The wrapped stones do follow each other in their array: what a
    /// program that checks only the array's index sees as five.
    #[test]
    fn wrapped_stones_follow_each_other_in_their_array() {
        let mut wraps = 0;
        for aim in list() {
            let Aim::Wrap { column_major, step } = aim else {
                continue;
            };
            wraps += 1;
            let input = wrap(&mut Rng::new(1), column_major, step);
            let t = trace(&input);
            let index = |p: Point| match column_major {
                true => p.column().index() * N + p.row().index(),
                false => p.row().index() * N + p.column().index(),
            };
            let blacks: Vec<usize> = t
                .steps
                .iter()
                .step_by(2)
                .take(5)
                .filter_map(|s| {
                    let line = &input[s.line.clone()];
                    Point::from_ascii(line.strip_prefix(b"place ")?)
                        .ok()
                        .map(index)
                })
                .collect();
            assert_eq!(blacks.len(), 5);
            assert!(blacks.windows(2).all(|w| w[1] == w[0] + step), "{blacks:?}");
        }
        assert_eq!(wraps, 6);
    }

    #[test]
    fn same_seed_same_cases() {
        assert_eq!(all(9), all(9));
    }
}
