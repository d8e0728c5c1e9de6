//! Properties of the engine on random positions, checked against the
//! plain solver of `tests/brute`: it never misses a win in one, never
//! leaves a four unblocked when a block exists and it cannot win first,
//! always answers a legal empty point, and under a node budget always
//! answers the same.

#![forbid(unsafe_code)]

mod brute;
#[path = "../benches/signature/mod.rs"]
#[allow(dead_code)]
mod signature;
#[path = "../benches/slots/mod.rs"]
mod slots;
#[path = "../benches/sprt/mod.rs"]
#[allow(dead_code)]
mod sprt;

use std::time::{Duration, Instant};

use brute::Grid;
use gomoku_mist::board::Board;
use gomoku_mist::engine::{self, Engine, Limits, Setup, Spot};
use gomoku_mist::player::Player;
use gomoku_mist::point::Point;
use gomoku_mist::renju;
use gomoku_mist::rule::Rule;
use proptest::prelude::*;

const NODES: u64 = 4_000;

/// A position reached by playing `picks` (indices into the empty points
/// near the centre area, so positions are crowded enough to hold threats)
/// until a line wins; the winning stone is not played.
#[derive(Debug, Clone)]
struct Case {
    rule: Rule,
    board: Board,
    grid: Grid,
    to_move: Player,
}

fn case(rule_pick: usize, picks: Vec<(u8, u8)>) -> Case {
    let rule = Rule::ALL[rule_pick % Rule::ALL.len()];
    let mut board = Board::new();
    let mut grid = Grid::new(rule);
    let mut to_move = Player::Black;
    for (c, r) in picks {
        let p = Point::new(
            gomoku_mist::point::Column::new(c).unwrap_or_else(|| unreachable!()),
            gomoku_mist::point::Row::new(r).unwrap_or_else(|| unreachable!()),
        );
        if board.get(p).is_some() || grid.makes_win(brute::index(p), to_move) {
            continue;
        }
        board.place(p, to_move);
        grid.set(brute::index(p), Some(to_move));
        to_move = to_move.opponent();
    }
    Case {
        rule,
        board,
        grid,
        to_move,
    }
}

fn cases() -> impl Strategy<Value = Case> {
    (
        0usize..3,
        prop::collection::vec((4u8..=16, 4u8..=16), 0..70),
    )
        .prop_map(|(r, picks)| case(r, picks))
}

/// Renju positions with Black to move, crowded enough to hold forbidden
/// points.
fn renju_cases() -> impl Strategy<Value = Case> {
    prop::collection::vec((6u8..=14, 6u8..=14), 10..80)
        .prop_map(|picks| case(3, picks))
        .prop_filter("Black to move", |case| case.to_move == Player::Black)
}

fn think(case: &Case, engine: &mut Engine) -> Point {
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    engine
        .think(&case.board, case.to_move, case.rule, limits)
        .map(|t| t.best)
        .unwrap_or_else(|| panic!("no move on a board that is not full"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn plays_a_legal_empty_point(case in cases()) {
        let best = think(&case, &mut Engine::new(1 << 20));
        prop_assert!(case.board.get(best).is_none(), "{best} is taken");
    }

    #[test]
    fn under_renju_black_plays_no_forbidden_point(case in renju_cases()) {
        let best = think(&case, &mut Engine::new(1 << 20));
        let (x, y) = (best.column().index() as i32, best.row().index() as i32);
        for reading in [renju::Reading::Rif, renju::Reading::Judges] {
            let foul = renju::foul_read(&case.board, x, y, reading);
            prop_assert!(foul.is_none(), "played {best}: {foul:?} by {reading:?}");
        }
    }

    #[test]
    fn never_misses_a_win_in_one(case in cases()) {
        let wins = case.grid.win_points(case.to_move);
        prop_assume!(!wins.is_empty());
        let best = think(&case, &mut Engine::new(1 << 20));
        prop_assert!(
            case.grid.makes_win(brute::index(best), case.to_move),
            "played {best}, winning points were {:?}",
            wins.iter().map(|&i| brute::point(i).to_string()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn blocks_a_four_when_it_can(case in cases()) {
        let me = case.to_move;
        let opp = me.opponent();
        prop_assume!(case.grid.win_points(me).is_empty());
        let threats = case.grid.win_points(opp);
        prop_assume!(!threats.is_empty());
        let mut grid = case.grid.clone();
        let blockable = threats.iter().any(|&m| {
            grid.set(m, Some(me));
            let blocked = grid.win_points(opp).is_empty();
            grid.set(m, None);
            blocked
        });
        prop_assume!(blockable);
        let best = think(&case, &mut Engine::new(1 << 20));
        grid.set(brute::index(best), Some(me));
        prop_assert!(grid.win_points(opp).is_empty(), "played {best}, which leaves a five point");
    }

    #[test]
    fn a_node_budget_gives_the_same_move(case in cases()) {
        let first = think(&case, &mut Engine::new(1 << 20));
        let mut used = Engine::new(1 << 20);
        let _ = think(&case, &mut used);
        used.clear();
        let again = think(&case, &mut used);
        prop_assert_eq!(first, again);
        // A reset forgets as much, whether it replaces the table (not all
        // written) or empties it in place (written, and the same size).
        used.reset(1 << 20);
        prop_assert_eq!(first, think(&case, &mut used));
        used.commit_table();
        used.reset(1 << 20);
        prop_assert_eq!(first, think(&case, &mut used));
        // Threads are for a search bounded by time alone: under a node
        // budget the helpers are not started, and the move is the same.
        let mut threaded = Engine::new(1 << 20);
        threaded.set_threads(4);
        prop_assert_eq!(first, think(&case, &mut threaded));
    }

    /// With helper threads sharing its table, a timed search still
    /// answers a legal point, takes a win in one and blocks a four.
    #[test]
    fn threads_play_legal_winning_and_blocking_moves(case in cases()) {
        let me = case.to_move;
        let opp = me.opponent();
        let limits = Limits {
            time: Some(Duration::from_millis(20)),
            threads: Some(3),
            ..Limits::default()
        };
        let best = Engine::new(1 << 20)
            .think(&case.board, me, case.rule, limits)
            .map(|t| t.best);
        prop_assert!(best.is_some_and(|p| case.board.get(p).is_none()), "{best:?} is not empty");
        let best = best.unwrap_or_else(|| unreachable!());
        let mut grid = case.grid.clone();
        grid.set(brute::index(best), Some(me));
        if !case.grid.win_points(me).is_empty() {
            prop_assert!(case.grid.makes_win(brute::index(best), me), "{best} misses a win in one");
        } else if case.grid.win_points(opp).len() == 1 {
            prop_assert!(grid.win_points(opp).is_empty(), "{best} leaves the four unblocked");
        }
    }
}

#[test]
fn opens_in_the_centre_and_passes_on_a_full_board() {
    let mut engine = Engine::new(1 << 20);
    let limits = Limits::default();
    let first = engine.think(&Board::new(), Player::Black, Rule::Freestyle, limits);
    assert_eq!(first.map(|t| t.best.to_string()), Some("J10".to_owned()));
    // A full board with no five anywhere: colours by column pairs and rows.
    let mut full = Board::new();
    for p in Point::all() {
        let (c, r) = (p.column().index(), p.row().index());
        let black = ((c / 2) + r) % 2 == 0;
        full.place(p, if black { Player::Black } else { Player::White });
    }
    assert!(
        engine
            .think(&full, Player::Black, Rule::Freestyle, limits)
            .is_none()
    );
}

#[test]
fn a_time_limit_is_kept() {
    let mut board = Board::new();
    for (i, p) in ["J10", "K11", "K10", "L10", "J11", "J9", "H12", "L12", "L11"]
        .iter()
        .enumerate()
    {
        let player = if i % 2 == 0 {
            Player::Black
        } else {
            Player::White
        };
        board.place(p.parse().unwrap_or_else(|_| unreachable!()), player);
    }
    let mut engine = Engine::new(1 << 20);
    let limit = Duration::from_millis(100);
    let start = Instant::now();
    let thought = engine.think(
        &board,
        Player::White,
        Rule::Freestyle,
        Limits {
            time: Some(limit),
            ..Limits::default()
        },
    );
    // And with helper threads, more than the machine has cores.
    let threaded = engine.think(
        &board,
        Player::White,
        Rule::Freestyle,
        Limits {
            time: Some(limit),
            threads: Some(8),
            ..Limits::default()
        },
    );
    assert!(threaded.is_some_and(|t| board.get(t.best).is_none()));
    // Generous: the check is that the search stops, not how fast it is.
    assert!(
        start.elapsed() < limit + Duration::from_secs(2),
        "took {:?}",
        start.elapsed()
    );
    assert!(thought.is_some_and(|t| board.get(t.best).is_none()));
}

/// On crowded random positions where the plain solver finds a win by
/// continuous fours of up to five moves, the engine plays the first move
/// of such a win (of up to seven moves: it need not pick the same one).
#[test]
fn finds_its_own_vcf() {
    let mut state = 2024u64;
    let mut next = move |n: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % n) as u8
    };
    let mut checked = 0;
    for round in 0..250 {
        let picks = (0..30 + next(40))
            .map(|_| (5 + next(10), 5 + next(10)))
            .collect();
        let case = case(round, picks);
        let me = case.to_move;
        let mut grid = case.grid.clone();
        if !grid.win_points(me).is_empty() || !grid.win_points(me.opponent()).is_empty() {
            continue;
        }
        if grid.vcf_length(me, 5).is_none() {
            continue;
        }
        checked += 1;
        let best = think(&case, &mut Engine::new(1 << 20));
        let starts = grid.vcf_starts(me, 7);
        assert!(
            starts.contains(&brute::index(best)),
            "round {round}: played {best}; VCF starts: {:?}",
            starts
                .iter()
                .map(|&i| brute::point(i).to_string())
                .collect::<Vec<_>>()
        );
    }
    assert!(
        checked >= 5,
        "only {checked} positions had a VCF: the generator needs a look"
    );
}

/// On crowded random positions where the opponent would win by continuous
/// fours (up to four moves) if the mover passed, the mover has no such win,
/// and some move stops every VCF of up to six moves (plain solver over
/// every empty point), the engine plays such a move.
#[test]
fn stops_the_opponents_vcf() {
    let mut state = 4048u64;
    let mut next = move |n: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % n) as u8
    };
    let mut checked = 0;
    for round in 0..400 {
        if checked == 8 {
            break;
        }
        let picks = (0..30 + next(40))
            .map(|_| (5 + next(10), 5 + next(10)))
            .collect();
        let case = case(round, picks);
        let me = case.to_move;
        let opp = me.opponent();
        let mut grid = case.grid.clone();
        if !grid.win_points(me).is_empty()
            || !grid.win_points(opp).is_empty()
            || grid.vcf_length(me, 6).is_some()
            || grid.vcf_length(opp, 4).is_none()
        {
            continue;
        }
        let empties: Vec<usize> = grid.empties().collect();
        let defences: Vec<usize> = empties
            .into_iter()
            .filter(|&m| {
                grid.set(m, Some(me));
                let stopped = grid.vcf_length(opp, 6).is_none();
                grid.set(m, None);
                stopped
            })
            .collect();
        if defences.is_empty() {
            continue;
        }
        checked += 1;
        let limits = Limits {
            nodes: Some(40_000),
            ..Limits::default()
        };
        let best = Engine::new(1 << 20)
            .think(&case.board, me, case.rule, limits)
            .map(|t| t.best)
            .unwrap_or_else(|| panic!("no move on a board that is not full"));
        assert!(
            defences.contains(&brute::index(best)),
            "round {round}: played {best}; defences: {:?}",
            defences
                .iter()
                .map(|&i| brute::point(i).to_string())
                .collect::<Vec<_>>()
        );
    }
    assert!(
        checked >= 3,
        "only {checked} positions: the generator needs a look"
    );
}

/// The bench signature, computed exactly as `cargo bench --bench engine --
/// signature` does, must be the one recorded: a change to the search
/// that forgets to say so fails here.
#[test]
fn the_bench_signature_is_the_recorded_one() {
    let recorded = signature::RECORDED.trim();
    let got = signature::signature().to_string();
    assert!(
        got == recorded,
        "the engine's bench signature is {got}, benches/signature.txt says {recorded}: \
         if the search was meant to change, write {got} into benches/signature.txt \
         and give the new signature in the commit message"
    );
}

/// A freestyle board of side `size`, Black to move, with the stones
/// written as `x,y` (zero-based) and separated by spaces.
fn freestyle_setup(size: u8, black: &str, white: &str) -> Setup {
    let spots = |text: &str, player: Player| -> Vec<(Spot, Player)> {
        text.split_whitespace()
            .map(|w| {
                let (x, y) = w.split_once(',').expect("x,y");
                let spot = Spot {
                    x: x.parse().expect("x"),
                    y: y.parse().expect("y"),
                };
                (spot, player)
            })
            .collect()
    };
    let mut setup = Setup::new(size, Rule::Freestyle);
    setup.stones.extend(spots(black, Player::Black));
    setup.stones.extend(spots(white, Player::White));
    setup
}

/// A mate the search finds is not the end of it: with two open threes of
/// White's on the board, Black to move has lost, and once an iteration
/// scores the loss the deepening goes on for four more (a deeper one may
/// find a defence the pruned search missed) before it stops, far short of
/// its depth limit.
#[test]
fn the_deepening_goes_on_past_a_mate() {
    let setup = freestyle_setup(
        15,
        "7,7 1,12 13,1 12,13 0,7",
        "3,3 4,3 5,3 10,9 10,10 10,11",
    );
    let limits = Limits {
        depth: Some(40),
        ..Limits::default()
    };
    let found = Engine::new(1 << 22)
        .search(&setup, limits)
        .expect("the board is not full");
    let scores = depth_scores(&found);
    let first_mate = first_mate_depth(&scores, |n| n < 0)
        .unwrap_or_else(|| panic!("Black has lost, yet no depth says so: {scores:?}"));
    assert!(
        scores.iter().all(|&(d, s)| d < first_mate || s < 0),
        "a depth after the first mate lost it: {scores:?}"
    );
    assert_eq!(found.depth, first_mate + 4, "the last depth: {scores:?}");
}

/// Under renju a Black with only forbidden points left has lost: no
/// manager lets it pass, and c-gomoku-cli calls whichever it plays a
/// foul. On this 6×6 board three points are empty, White to move:
///
/// ```text
/// y=0  B B B x B B      x, y: six in a row for Black, overlines
/// y=1  W W W B W W
/// y=2  B B W W B W
/// y=3  a W W W B B      a: nothing for either side
/// y=4  W W B W W W
/// y=5  B B y B B B
/// ```
///
/// White at `a` leaves Black the two overlines, and wins; at `x` or `y`
/// Black takes `a` and White fills the board, a draw. The search's own
/// foul test leaves overlines to the root, so near a full board it
/// judges every point as the root does, and sees the win.
#[test]
fn a_black_with_only_forbidden_points_left_has_lost() {
    let mut setup = freestyle_setup(
        6,
        "0,0 1,0 2,0 4,0 5,0 3,1 0,2 1,2 4,2 4,3 5,3 2,4 0,5 1,5 3,5 4,5 5,5",
        "0,1 1,1 2,1 4,1 5,1 2,2 3,2 5,2 1,3 2,3 3,3 0,4 1,4 3,4 4,4 5,4",
    );
    setup.rule = Rule::Renju;
    setup.to_move = Player::White;
    let limits = Limits {
        nodes: Some(10_000),
        ..Limits::default()
    };
    let found = Engine::new(1 << 22)
        .search(&setup, limits)
        .expect("the board is not full");
    let line = format!("score {}, line {:?}", found.score, found.pv);
    assert_eq!(found.best, Spot { x: 0, y: 3 }, "{line}");
    assert!(
        engine::mate_in(found.score).is_some_and(|n| n > 0),
        "a win for White: {line}"
    );
}

/// Each depth says what its aspiration windows cost. In this opening no
/// win is in sight, so the depths below the first windowed one are each
/// searched once in the full window (after a win is scored, a depth is
/// first searched in a null window at the win's score). A deeper depth
/// whose score fell outside its first window was searched again, and the
/// nodes of its later windows are part of the depth's own. In an
/// opening, where the score moves most between depths, some depth is.
#[test]
fn each_depth_counts_its_windows_and_their_nodes() {
    let setup = freestyle_setup(20, "9,9 11,10", "10,9 8,11");
    let limits = Limits {
        nodes: Some(300_000),
        ..Limits::default()
    };
    let found = Engine::new(1 << 24)
        .search(&setup, limits)
        .expect("the board is not full");
    assert!(found.reports.len() > 6, "{} depths", found.reports.len());
    let mut before = 0;
    for r in &found.reports {
        assert!(r.windows >= 1, "depth {}: {} windows", r.depth, r.windows);
        assert_eq!(r.windows == 1, r.again == 0, "depth {}: {r:?}", r.depth);
        if r.depth < 5 {
            assert_eq!(
                r.windows, 1,
                "depth {} is searched in a full window",
                r.depth
            );
        }
        assert!(r.again < r.nodes - before, "depth {}: {r:?}", r.depth);
        before = r.nodes;
    }
    assert!(
        found.reports.iter().any(|r| r.windows > 1),
        "no depth searched again: {:?}",
        found.reports.iter().map(|r| r.windows).collect::<Vec<_>>()
    );
}

/// Threats at the edges and in the corners of boards other than 19×19,
/// where the wall of a smaller board, or the far rows of a larger one,
/// must count as the board's end: (size, black stones, white stones,
/// Black to move, the right answers). Stones are `x,y`, zero-based.
#[test]
fn edges_and_corners_on_15_and_20() {
    type Case = (u8, &'static str, &'static str, &'static [(u8, u8)]);
    let cases: &[Case] = &[
        // Win in one in the far corner of 15×15: 10,14 .. 13,14 along the
        // last row, the five point 14,14 (9,14 is White's).
        (
            15,
            "10,14 11,14 12,14 13,14",
            "9,14 0,0 1,1 2,2",
            &[(14, 14)],
        ),
        // Block White's diagonal into the corner 0,0 of 15×15.
        (15, "7,7 8,8 14,0", "1,1 2,2 3,3 4,4", &[(0, 0), (5, 5)]),
        // Past 19: White's four on column 19 of 20×20, 19,15 closed by
        // Black: the only block is the corner 19,19.
        (
            20,
            "19,14 10,10 0,0",
            "19,15 19,16 19,17 19,18",
            &[(19, 19)],
        ),
        // Win along row 19 of 20×20, columns 15..18: five at 19,19 or
        // 14,19.
        (
            20,
            "15,19 16,19 17,19 18,19",
            "0,0 1,0 2,0 3,3",
            &[(14, 19), (19, 19)],
        ),
        // Column 19 exists on 20×20 (it would be the wall on 19×19):
        // Black's four 15..18 on row 0, closed at 14,0, wins at 19,0.
        (20, "15,0 16,0 17,0 18,0", "14,0 5,5 6,6 7,7", &[(19, 0)]),
    ];
    for &(size, black, white, answers) in cases {
        let setup = freestyle_setup(size, black, white);
        let limits = Limits {
            nodes: Some(NODES),
            ..Limits::default()
        };
        let found = Engine::new(1 << 20).search(&setup, limits).expect("a move");
        let got = (found.best.x, found.best.y);
        if answers.is_empty() {
            // Black's four here already has five points at 19,18? No:
            // 20,18 is off the board, so 15,18 being White's, Black has
            // no five point and just plays on the board.
            assert!(
                got.0 < size && got.1 < size,
                "{size}: {got:?} is off the board"
            );
        } else {
            assert!(
                answers.contains(&got),
                "{size}x{size} {black} / {white}: {got:?}, not one of {answers:?}"
            );
        }
    }
}

/// The bench's SPRT arithmetic against values worked out by hand from the
/// trinomial formula: LLR = n (s1 − s0)(2s − s0 − s1) / (2 var).
#[test]
fn the_sprt_ratio_and_bounds() {
    let tally = |wins, draws, losses| sprt::Tally {
        wins,
        draws,
        losses,
    };
    let cases = [
        (tally(60, 10, 30), 2.732),
        (tally(20, 0, 20), -0.148),
        (tally(0, 0, 0), 0.0),
    ];
    for (t, expected) in cases {
        let got = sprt::llr(t, 0.0, 30.0);
        assert!(
            (got - expected).abs() < 0.001,
            "{t:?}: {got}, not {expected}"
        );
    }
    let (lower, upper) = sprt::bounds(0.05, 0.05);
    assert!(
        (lower + 2.944).abs() < 0.001 && (upper - 2.944).abs() < 0.001,
        "{lower} {upper}"
    );
}

/// The `slots` bench reads c-gomoku-cli's records from our side (a game
/// without our player is skipped, a draw is a half), and refuses a
/// result it cannot read.
#[test]
fn match_records_are_read_from_our_side() {
    let sgf = "(;FF[4]GM[4]GN[1]EV[B x A]RU[0]SZ[20]PB[B]PW[A]RE[B+1]TE[Black win]
;B[kk]C[opening move];W[jl]C[opening move];B[mk]C[opening move]
;W[jj]C[961ms];B[lk]C[973ms])

(;FF[4]GM[4]GN[2]EV[A x B]RU[0]SZ[20]PB[A]PW[B]RE[0]TE[Draw]
;B[kk]C[opening move];W[jl]C[opening move];B[mk]C[opening move]
;W[lk]C[968ms])

(;FF[4]GM[4]GN[3]EV[C x B]RU[0]SZ[20]PB[C]PW[B]RE[W+1]
;B[kk]C[opening move]
;W[lk]C[968ms])
";
    let games = slots::parse(sgf, "A").expect("readable");
    let slot = |black| slots::Slot {
        opening: "kk jl mk".to_owned(),
        black,
    };
    assert_eq!(
        games,
        [
            slots::Game {
                slot: slot(false),
                score: 0.0
            },
            slots::Game {
                slot: slot(true),
                score: 0.5
            },
        ]
    );
    let bad = sgf.replace("RE[0]", "RE[?]");
    assert_eq!(
        slots::parse(&bad, "A"),
        Err("game 2: result \"?\"".to_owned())
    );
}

/// The `slots` bench's arithmetic against values worked out by hand:
/// baseline slot X scored 1, 1, 0, 0 (mean ½, sample variance ⅓), slot Y
/// 0, 0, 0, 1 (¼ and ¼); the candidate won once in each and once in a
/// slot the baseline never played.
#[test]
fn slot_by_slot_differences_and_margins() {
    let game = |opening: &str, score| slots::Game {
        slot: slots::Slot {
            opening: opening.to_owned(),
            black: true,
        },
        score,
    };
    let base: Vec<slots::Game> = [("X", 1.0), ("X", 1.0), ("X", 0.0), ("X", 0.0)]
        .into_iter()
        .chain([("Y", 0.0), ("Y", 0.0), ("Y", 0.0), ("Y", 1.0)])
        .map(|(o, s)| game(o, s))
        .collect();
    let cand = [game("X", 1.0), game("Y", 1.0), game("Z", 1.0)];
    let b = slots::Baseline::new(&base).expect("a baseline");
    let c = b.measure(&cand);
    let close = |got: f64, want: f64, what: &str| {
        assert!((got - want).abs() < 1e-4, "{what}: {got}, not {want}");
    };
    assert_eq!((b.games, b.slots, c.games, c.unpaired), (8, 2, 2, 1));
    close(b.score, 0.375, "baseline score");
    // (4 × ⅓ + 4 × ¼) / 8², its root times 1.96
    close(b.margin, 0.374_24, "baseline margin");
    close(b.within, 0.291_67, "within");
    close(b.overall, 0.267_86, "overall");
    close(c.score, 1.0, "score");
    // ((1 − ½) + (1 − ¼)) / 2
    close(c.difference, 0.625, "difference");
    // (⅓ + ⅓ / 4 + ¼ + ¼ / 4) / 2², its root times 1.96
    close(c.margin, 0.836_84, "margin");
    assert_eq!(slots::Baseline::new(&[]), None);
}

/// A win the search finds below the root, past what the root's solvers
/// see, is taken as the bound it is and confirmed at the next depths in
/// a null window at its score, not proved again in a wide one: Black to
/// move here wins by a long attack of fours and threes (Rapfi, searching
/// this position from a real game, gives a mate in 43), and the search
/// scores the win, confirms it for four more depths and stops, far short
/// of its node budget. Proving it in a full window took that whole
/// budget for one depth and ended with no mate at all.
#[test]
fn a_found_win_is_confirmed_in_a_null_window() {
    let setup = freestyle_setup(
        20,
        "10,10 12,12 11,12 9,13 10,11",
        "11,11 11,10 10,12 13,11 11,9",
    );
    let budget = 8_000_000;
    let limits = Limits {
        nodes: Some(budget),
        threads: Some(1),
        ..Limits::default()
    };
    let found = Engine::new(1 << 26)
        .search(&setup, limits)
        .expect("the board is not full");
    let scores = depth_scores(&found);
    let first_win = first_mate_depth(&scores, |n| n > 0)
        .unwrap_or_else(|| panic!("no depth found Black's win: {scores:?}"));
    assert!(
        scores.iter().all(|&(d, s)| d < first_win || s > 0),
        "a depth after the win lost it: {scores:?}"
    );
    assert_eq!(found.depth, first_win + 4, "the last depth: {scores:?}");
    assert!(
        found.nodes < budget / 2,
        "{} nodes of {budget}: {scores:?}",
        found.nodes
    );
}

/// A four-three to come may be answered from afar, by a stone that makes
/// a three of the defender's own. From a game against Rapfi at a second a
/// move (`SRAND=67`, game 16): Black, to move, has a four-three to make
/// at 12,12; White's only wins are 9,10 and 7,8, off its lines, each of
/// which makes 11,12, where White must block that four, a four of White's
/// (Rapfi finds a win after either). The search once answered such a
/// threat only near it or with a four, so it scored White lost here and,
/// a move before, scored Black's 12,10 a win in 15 where Black is lost:
/// we played it, and lost.
#[test]
fn a_four_three_to_come_is_answered_from_afar() {
    let limits = Limits {
        nodes: Some(100_000),
        threads: Some(1),
        ..Limits::default()
    };
    let white = "9,9 9,11 7,9 8,9 10,11 7,12";
    let before = "10,10 12,9 8,12 9,12 10,9 10,12";
    let mut after = freestyle_setup(20, &format!("{before} 12,10"), white);
    after.to_move = Player::White;
    let found = Engine::new(1 << 24)
        .search(&after, limits)
        .expect("the board is not full");
    let scores = depth_scores(&found);
    assert!(
        engine::mate_in(found.score).is_some_and(|n| n > 0),
        "White's win not scored: {scores:?}"
    );
    assert!(
        [Spot { x: 9, y: 10 }, Spot { x: 7, y: 8 }].contains(&found.best),
        "played {:?}, not a winning answer: {scores:?}",
        found.best
    );
    let found = Engine::new(1 << 24)
        .search(&freestyle_setup(20, before, white), limits)
        .expect("the board is not full");
    let scores = depth_scores(&found);
    assert!(
        scores
            .iter()
            .all(|&(_, s)| engine::mate_in(s).is_none_or(|n| n < 0)),
        "Black scored a win it does not have: {scores:?}"
    );
}

/// Each completed depth of a search and its score.
fn depth_scores(found: &engine::Found) -> Vec<(u32, i32)> {
    found.reports.iter().map(|r| (r.depth, r.score)).collect()
}

/// The first depth whose score is a mate in `n` plies with `n` as
/// `wanted` asks (positive: the side to move wins; negative: it loses).
fn first_mate_depth(scores: &[(u32, i32)], wanted: impl Fn(i32) -> bool) -> Option<u32> {
    scores
        .iter()
        .find(|&&(_, s)| engine::mate_in(s).is_some_and(&wanted))
        .map(|&(d, _)| d)
}
