//! The protocol in-process: every command against brains that record what
//! they are asked and answer from a script.

use std::collections::VecDeque;
use std::io::{self, Cursor, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use super::coord::Coord;

use super::{Brain, GomocupError, serve};
use crate::engine::{Limits, Setup, Spot, greedy};
use crate::rules::board::Board;
use crate::rules::player::Player;
use crate::rules::point::Point;
use crate::rules::rule::Rule;

/// The protocol over in-memory input, through the binary's own loop.
fn run<B: Brain>(brain: &mut B, input: &[u8], out: &mut Vec<u8>) -> Result<(), GomocupError> {
    serve(
        brain,
        Cursor::new(input.to_vec()),
        out,
        Arc::new(AtomicBool::new(false)),
    )
}

/// One `choose` call as the brain saw it.
#[derive(Clone, Debug)]
struct Asked {
    /// The stones, on our 19×19 board when the board is that.
    board: Board,
    size: u8,
    to_move: Player,
    rule: Rule,
    budget: Limits,
}

/// Answers from `script` (then falls back to the one-ply [`greedy`] player) and records
/// everything it is told.
#[derive(Default)]
struct Recorder {
    script: VecDeque<Option<Point>>,
    asked: Vec<Asked>,
    new_games: Vec<Option<u64>>,
    /// Each call, in order: `new_game` or `choose`.
    calls: Vec<&'static str>,
}

impl Brain for Recorder {
    fn new_game(&mut self, memory_bytes: Option<u64>) {
        self.new_games.push(memory_bytes);
        self.calls.push("new_game");
    }

    fn choose(
        &mut self,
        setup: &Setup,
        budget: Limits,
        _notes: &mut dyn FnMut(&str),
    ) -> Option<Spot> {
        self.calls.push("choose");
        self.asked.push(Asked {
            board: board_of(setup),
            size: setup.size,
            to_move: setup.to_move,
            rule: setup.rule,
            budget,
        });
        match self.script.pop_front() {
            Some(answer) => answer.and_then(|p| Coord::of_point(p).spot()),
            None => greedy::choose(setup),
        }
    }
}

/// The stones of a 19×19 setup on our board (Gomocup's `y` down).
fn board_of(setup: &Setup) -> Board {
    let mut board = Board::new();
    if setup.size == 19 {
        for &(s, player) in &setup.stones {
            if let Some(p) = Coord::of(s).point() {
                board.place(p, player);
            }
        }
    }
    board
}

fn point(name: &str) -> Point {
    name.parse().expect("a point")
}

/// The output for `input`, and the brain afterwards.
fn talk_with(mut brain: Recorder, input: &str) -> (String, Recorder) {
    let mut out = Vec::new();
    run(&mut brain, input.as_bytes(), &mut out).expect("in-memory I/O cannot fail");
    (String::from_utf8(out).expect("replies are text"), brain)
}

fn talk(input: &str) -> (String, Recorder) {
    talk_with(Recorder::default(), input)
}

/// A brain that plays `moves` (our names) in turn.
fn scripted(moves: &[&str]) -> Recorder {
    Recorder {
        script: moves.iter().map(|m| Some(point(m))).collect(),
        ..Recorder::default()
    }
}

/// Checks the replies to `input`, given as (`line`, `expected reply`).
fn check(cases: &[(&str, &str)]) {
    for (input, expected) in cases {
        let (got, _) = talk(input);
        assert_eq!(got, *expected, "input {input:?}");
    }
}

#[test]
fn start_accepts_every_square_board_from_5_to_22() {
    let size = "only square boards from 5x5 to 22x22 are supported";
    check(&[
        ("START 19\n", "OK\n"),
        ("start 19\r\n", "OK\n"),
        ("START 20\n", "OK\n"),
        ("START 15\n", "OK\n"),
        ("START 5\n", "OK\n"),
        ("START 22\n", "OK\n"),
        ("START 4\n", &format!("ERROR {size}, not 4x4\n")),
        ("START 23\n", &format!("ERROR {size}, not 23x23\n")),
        ("START 0\n", &format!("ERROR {size}, not 0x0\n")),
        (
            "START 4294967295\n",
            &format!("ERROR {size}, not 4294967295x4294967295\n"),
        ),
        ("START\n", "ERROR START takes a board size\n"),
        ("START nineteen\n", "ERROR START takes a board size\n"),
        (
            "RECTSTART 19,19\n",
            "ERROR rectangular boards are not supported (19x19): use START with one size\n",
        ),
        (
            "RECTSTART 20,19\n",
            "ERROR rectangular boards are not supported (20x19): use START with one size\n",
        ),
    ]);
}

#[test]
fn the_brain_is_told_the_size_and_moves_are_checked_against_it() {
    let (got, brain) = talk("START 15\nTURN 14,14\nTURN 15,0\nTURN 0,15\nEND\n");
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines[0], "OK");
    assert!(lines[1].split_once(',').is_some(), "{got}");
    assert_eq!(
        lines[2..],
        [
            "ERROR 15,0 is off the 15x15 board",
            "ERROR 0,15 is off the 15x15 board"
        ]
    );
    assert_eq!(brain.asked.len(), 1);
    assert_eq!(brain.asked[0].size, 15);
}

#[test]
fn moves_before_start_are_refused() {
    let refused = "ERROR no board yet: START n first, n from 5 to 22\n";
    for input in [
        "BEGIN\n",
        "TURN 1,1\n",
        "PLAY 1,1\n",
        "TAKEBACK 1,1\n",
        "RESTART\n",
        "BOARD\n1,1,1\nDONE\n",
    ] {
        let (got, brain) = talk(input);
        assert_eq!(got, refused, "input {input:?}");
        assert!(
            brain.asked.is_empty(),
            "input {input:?}: the brain was asked"
        );
    }
    // A failed START does not start either.
    let (got, _) = talk("START 23\nBEGIN\n");
    assert_eq!(
        got,
        format!("ERROR only square boards from 5x5 to 22x22 are supported, not 23x23\n{refused}")
    );
}

#[test]
fn the_corners_map_both_ways() {
    for (gomocup, ours) in [
        ("0,0", "A19"),
        ("18,0", "S19"),
        ("0,18", "A1"),
        ("18,18", "S1"),
    ] {
        // The opponent's stone arrives as Gomocup's x,y...
        let (got, brain) = talk_with(scripted(&["J10"]), &format!("START 19\nTURN {gomocup}\n"));
        assert_eq!(got, "OK\n9,9\n", "TURN {gomocup}");
        let seen = &brain.asked[0].board;
        assert_eq!(
            seen.get(point(ours)),
            Some(Player::Black),
            "TURN {gomocup}: {ours}"
        );
        assert_eq!(seen.stones(), 1);
        // ...and ours leaves as Gomocup's.
        let (got, _) = talk_with(scripted(&[ours]), "START 19\nBEGIN\n");
        assert_eq!(got, format!("OK\n{gomocup}\n"), "our move {ours}");
    }
}

#[test]
fn colours_follow_who_began() {
    let (_, brain) = talk("START 19\nBEGIN\nTURN 1,1\n");
    let colours: Vec<Player> = brain.asked.iter().map(|a| a.to_move).collect();
    assert_eq!(colours, [Player::Black, Player::Black]);
    let (_, brain) = talk_with(scripted(&["J10", "J11"]), "START 19\nTURN 1,1\nTURN 2,2\n");
    let colours: Vec<Player> = brain.asked.iter().map(|a| a.to_move).collect();
    assert_eq!(colours, [Player::White, Player::White]);
    let second = &brain.asked[1].board;
    assert_eq!(second.stones(), 3);
    assert_eq!(second.get(point("B18")), Some(Player::Black));
    assert_eq!(second.get(point("C17")), Some(Player::Black));
}

#[test]
fn bad_turns_are_errors_that_change_nothing() {
    let (got, brain) = talk_with(
        scripted(&["A1", "B1"]),
        "START 19\nBEGIN\nTURN 0,18\nTURN 19,0\nTURN 0,19\nTURN 5\nTURN 1,1\n",
    );
    let expected = "OK\n0,18\nERROR 0,18 is taken\nERROR 19,0 is off the 19x19 board\n\
                    ERROR 0,19 is off the 19x19 board\nERROR TURN takes x,y\n1,18\n";
    assert_eq!(got, expected);
    assert_eq!(
        brain.asked.len(),
        2,
        "the brain is asked only for good turns"
    );
    assert_eq!(brain.asked[1].board.stones(), 2);
}

#[test]
fn a_brain_that_offers_a_taken_point_or_none_is_overruled() {
    let mut brain = scripted(&["J10"]);
    brain.script.push_back(Some(point("J10")));
    brain.script.push_back(None);
    let (got, brain) = talk_with(brain, "START 19\nBEGIN\nTURN 0,0\nTURN 1,0\n");
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines[..2], ["OK", "9,9"]);
    assert_eq!(lines[2], "DEBUG the brain offered 9,9: overruled");
    assert_eq!(lines[4], "DEBUG the brain offered none: overruled");
    let played = [lines[3], lines[5]];
    for (i, m) in played.iter().enumerate() {
        let board = &brain.asked[i + 1].board;
        let p = m.split_once(',').and_then(|(x, y)| {
            Coord {
                x: x.parse().ok()?,
                y: y.parse().ok()?,
            }
            .point()
        });
        let p = p.unwrap_or_else(|| panic!("{m} is not a move"));
        assert_eq!(board.get(p), None, "{m} was taken");
    }
    assert_ne!(played[0], played[1]);
}

#[test]
fn board_sets_the_position_and_the_colours() {
    let input = "START 19\nBOARD\n9,9,1\r\n10,10,2\n\n0,0,3\n8,8,2\nDONE\n";
    let (got, brain) = talk_with(scripted(&["A1"]), input);
    assert_eq!(got, "OK\n0,18\n");
    let asked = &brain.asked[0];
    // One own stone, two of the opponent's: the brain plays White.
    assert_eq!(asked.to_move, Player::White);
    let b = &asked.board;
    assert_eq!(b.stones(), 4);
    assert_eq!(b.get(point("J10")), Some(Player::White));
    assert_eq!(b.get(point("K9")), Some(Player::Black));
    assert_eq!(b.get(point("I11")), Some(Player::Black));
    // A winning-line stone is nobody's to use: shown as the opponent's.
    assert_eq!(b.get(point("A19")), Some(Player::Black));
}

#[test]
fn board_replaces_the_position_and_an_empty_one_lets_the_brain_begin() {
    let (_, brain) = talk("START 19\nBEGIN\nTURN 3,3\nBOARD\nDONE\n");
    assert_eq!(brain.asked[2].board.stones(), 0);
    assert_eq!(brain.asked[2].to_move, Player::Black);
}

#[test]
fn a_bad_board_is_one_error_at_done_and_changes_nothing() {
    let cases = [
        (
            "1,1,4",
            "ERROR a BOARD line is x,y,field with field 1, 2 or 3, or DONE",
        ),
        (
            "1,1",
            "ERROR a BOARD line is x,y,field with field 1, 2 or 3, or DONE",
        ),
        (
            "TURN 1,1",
            "ERROR a BOARD line is x,y,field with field 1, 2 or 3, or DONE",
        ),
        ("19,1,1", "ERROR 19,1 is off the 19x19 board"),
        ("2,2,2", "ERROR 2,2 is given twice"),
    ];
    for (bad, error) in cases {
        let input = format!("START 19\nBOARD\n2,2,1\n{bad}\n3,3,2\nDONE\nBEGIN\n");
        let (got, brain) = talk_with(scripted(&["J10"]), &input);
        assert_eq!(got, format!("OK\n{error}\n9,9\n"), "line {bad:?}");
        assert_eq!(brain.asked.len(), 1);
        assert_eq!(
            brain.asked[0].board.stones(),
            0,
            "line {bad:?}: the board changed"
        );
    }
}

#[test]
fn end_ends_even_inside_a_board() {
    let (got, brain) = talk("START 19\nBOARD\n1,1,1\nEND\nDONE\nBEGIN\n");
    assert_eq!(got, "OK\n");
    assert!(brain.asked.is_empty());
}

#[test]
fn done_without_board_is_an_error() {
    check(&[("START 19\nDONE\n", "OK\nERROR DONE without BOARD\n")]);
}

#[test]
fn takeback_removes_a_stone_of_either_side() {
    let input = "START 19\nBEGIN\nTURN 0,0\nTAKEBACK 9,8\nTAKEBACK 0,0\nTAKEBACK 0,0\nTAKEBACK 30,0\n\
                 BEGIN\nTAKEBACK 9,9\nBEGIN\n";
    let (got, brain) = talk_with(scripted(&["J10", "J11", "A1"]), input);
    let expected = "OK\n9,9\n9,8\nOK\nOK\nERROR there is no stone at 0,0\n\
                    ERROR 30,0 is off the 19x19 board\n\
                    ERROR BEGIN needs an empty board; send a position with BOARD\nOK\n0,18\n";
    assert_eq!(got, expected);
    assert_eq!(brain.asked[2].board.stones(), 0);
}

#[test]
fn restart_and_start_begin_a_new_game_for_the_brain() {
    let input = "START 19\nBEGIN\nRESTART\nBEGIN\nSTART 19\nTURN 4,4\n";
    let (got, brain) = talk_with(scripted(&["J10", "J10", "J10"]), input);
    assert_eq!(got, "OK\n9,9\nOK\n9,9\nOK\n9,9\n");
    // With no memory limit said, each game begins at its first move.
    assert_eq!(brain.calls, ["new_game", "choose"].repeat(3));
    assert_eq!(brain.asked[1].board.stones(), 0);
    // Once it is said (0: no limit), before the OK of START and RESTART.
    let said = format!("INFO max_memory 0\n{input}");
    let (got, brain) = talk_with(scripted(&["J10", "J10", "J10"]), &said);
    assert_eq!(got, "OK\n9,9\nOK\n9,9\nOK\n9,9\n");
    assert_eq!(brain.calls, ["new_game", "choose"].repeat(3));
    assert_eq!(brain.new_games, [None, None, None]);
}

#[test]
fn play_places_our_stone_where_told() {
    let (got, brain) = talk("START 19\nPLAY 3,4\nTURN 3,4\nTURN 5,5\n");
    assert_eq!(
        got.lines().take(3).collect::<Vec<_>>(),
        ["OK", "3,4", "ERROR 3,4 is taken"]
    );
    assert_eq!(brain.asked[0].board.get(point("D15")), Some(Player::Black));
}

#[test]
fn info_sets_the_budget_the_brain_gets() {
    // With the memory said before START, the first move is not the
    // game's beginning, and its budget is exact.
    let input = "INFO max_memory 0\nSTART 19\nINFO timeout_turn 1000\nINFO max_node 5000\n\
                 INFO max_depth 7\nBEGIN\n\
                 INFO timeout_match 100000\nINFO time_left 10000\nTURN 0,0\n\
                 INFO max_node 0\nINFO max_depth -1\nINFO timeout_turn 0\nTURN 1,0\n";
    let (got, brain) = talk(input);
    assert_eq!(got.lines().count(), 4, "INFO gets no reply: {got}");
    let budgets: Vec<Limits> = brain.asked.iter().map(|a| a.budget).collect();
    let ms = |n| Some(Duration::from_millis(n));
    assert_eq!(
        budgets,
        [
            Limits {
                time: ms(960),
                nodes: Some(5000),
                depth: Some(7),
                threads: None,
            },
            // 10 s left over 25 moves: 400 ms, less the 30 ms least margin.
            Limits {
                time: ms(370),
                nodes: Some(5000),
                depth: Some(7),
                threads: None,
            },
            Limits {
                time: ms(0),
                nodes: None,
                depth: None,
                threads: None,
            },
        ]
    );
}

#[test]
fn info_thread_num_sets_the_threads_and_0_leaves_them_to_the_brain() {
    let input = "START 19\nBEGIN\nINFO thread_num 2\nTURN 0,0\nINFO THREAD_NUM 0\nTURN 1,0\n\
                 INFO thread_num 99999999999\nTURN 2,0\n";
    let (got, brain) = talk(input);
    assert_eq!(got.lines().count(), 5, "INFO gets no reply: {got}");
    let threads: Vec<Option<u32>> = brain.asked.iter().map(|a| a.budget.threads).collect();
    // Past 32 bits: as many as can be, never a wrapped number (the
    // engine takes at most its own most).
    assert_eq!(threads, [None, Some(2), None, Some(u32::MAX)]);
}

#[test]
fn the_default_budget_is_a_few_seconds() {
    let (_, brain) = talk("START 19\nBEGIN\n");
    let time = brain.asked[0].budget.time.expect("a time limit");
    assert!(
        time > Duration::ZERO && time < Duration::from_secs(10),
        "{time:?}"
    );
}

#[test]
fn info_max_memory_reaches_the_brain_less_a_reserve() {
    let input = "INFO max_memory 83886080\nSTART 19\nBEGIN\nINFO max_memory 1000\nTURN 0,0\n\
                 INFO max_memory 1000\nTURN 1,0\nINFO max_memory 0\nTURN 2,0\n";
    let (_, brain) = talk(input);
    assert_eq!(
        brain.new_games,
        [Some(83_886_080 - (10 << 20)), Some(0), None]
    );
    // A manager's first game: the limit comes after START, and the brain
    // hears of the game with it at the first move; the next game begins
    // before its OK.
    let (_, brain) = talk("START 19\nINFO max_memory 83886080\nBEGIN\nRESTART\nBEGIN\n");
    assert_eq!(brain.new_games, [Some(83_886_080 - (10 << 20)); 2]);
    assert_eq!(brain.calls, ["new_game", "choose", "new_game", "choose"]);
}

#[test]
fn info_rule_bits_choose_the_rule() {
    let cases: &[(u64, Rule, &str)] = &[
        (0, Rule::Freestyle, ""),
        (1, Rule::Exact, ""),
        (2, Rule::Freestyle, ""),
        (3, Rule::Exact, ""),
        (8, Rule::Caro, ""),
        (9, Rule::Caro, ""),
        (4, Rule::Renju, ""),
        (5, Rule::Renju, ""),
    ];
    for &(bits, rule, message) in cases {
        let (got, brain) = talk(&format!("START 19\nINFO rule {bits}\nBEGIN\n"));
        assert_eq!(got, format!("OK\n{message}9,9\n"), "rule {bits}");
        assert_eq!(brain.asked[0].rule, rule, "rule {bits}");
    }
}

/// Yixin-Board's `YXBOARD` sets a position and asks for no move;
/// `YXSHOWFORBID` lists Black's forbidden points as Rapfi does, `xxyy`
/// each, when Black (the brain: as many stones as the opponent) moves
/// under renju, and none otherwise.
#[test]
fn yxshowforbid_lists_blacks_forbidden_points_under_renju() {
    // Black's 5,7 6,7 and 7,8 7,9: 7,7 is a double three.
    let position = "YXBOARD\n5,7,1\n0,0,2\n6,7,1\n14,0,2\n7,8,1\n0,14,2\n7,9,1\n14,14,2\nDONE\n";
    let (got, brain) = talk(&format!("START 15\nINFO rule 4\n{position}YXSHOWFORBID\n"));
    assert_eq!(got, "OK\nFORBID 0707.\n");
    assert!(brain.asked.is_empty(), "YXBOARD asks for no move");
    // An overline and a double four (in one line) too, row by row.
    let position = "YXBOARD\n2,2,1\n0,0,2\n3,2,1\n0,1,2\n4,2,1\n0,2,2\n6,2,1\n0,3,2\n7,2,1\n\
                    0,4,2\n2,6,1\n0,6,2\n4,6,1\n0,7,2\n6,6,1\n0,8,2\n8,6,1\n0,9,2\nDONE\n";
    let (got, _) = talk(&format!("START 15\nINFO rule 4\n{position}YXSHOWFORBID\n"));
    assert_eq!(got, "OK\nFORBID 05020506.\n");
    check(&[
        // White to move: nothing is forbidden to it.
        (
            "START 15\nINFO rule 4\nYXBOARD\n7,7,2\nDONE\nYXSHOWFORBID\n",
            "OK\nFORBID .\n",
        ),
        // Not renju.
        (
            &format!(
                "START 15\nINFO rule 1\n{}YXSHOWFORBID\n",
                "YXBOARD\n5,7,1\n0,0,2\n6,7,1\n14,0,2\n7,8,1\n0,14,2\n7,9,1\n14,14,2\nDONE\n"
            ),
            "OK\nFORBID .\n",
        ),
        (
            "YXSHOWFORBID\n",
            "ERROR no board yet: START n first, n from 5 to 22\n",
        ),
    ]);
}

#[test]
fn yxboard_then_begin_or_turn_plays_on_from_it() {
    let (got, brain) = talk("START 19\nYXBOARD\n7,7,2\nDONE\nTURN 6,6\n");
    assert!(got.starts_with("OK\n") && got.lines().count() == 2, "{got}");
    assert_eq!(brain.asked.len(), 1);
    assert_eq!(brain.asked[0].board.stones(), 2);
    assert_eq!(brain.asked[0].to_move, Player::White);
}

#[test]
fn info_keys_that_are_unknown_or_ignored_get_no_reply() {
    let input = "INFO game_type 1\nINFO evaluate 3,4\nINFO folder C:\\brains\\x y\nINFO colour red\n\
                 INFO TIMEOUT_TURN 2000\nINFO time_left -5\n";
    check(&[(input, "")]);
}

/// Managers read no reply to INFO, and Piskvork takes the line after an
/// INFO for the move: a bad value is never an ERROR, only a MESSAGE, and
/// changes nothing.
#[test]
fn info_with_a_bad_value_is_ignored_with_a_message() {
    let ignored = |key: &str| format!("MESSAGE ignored: INFO {key} takes a whole number\n");
    let cases: Vec<(String, String)> = [
        ("timeout_turn", "soon"),
        ("timeout_turn", "-1"),
        ("timeout_turn", "1e3"),
        ("timeout_turn", "+5"),
        ("timeout_turn", "99999999999999999999"),
        ("max_memory", "1.5e9"),
        ("max_memory", "-1"),
        ("time_left", "x"),
        ("thread_num", "-2"),
        ("thread_num", "two"),
        ("rule", ""),
    ]
    .iter()
    .map(|(key, value)| (format!("INFO {key} {value}\n"), ignored(key)))
    .collect();
    for (input, expected) in &cases {
        let (got, brain) = talk(&format!("{input}START 19\nBEGIN\n"));
        assert_eq!(got, format!("{expected}OK\n9,9\n"), "input {input:?}");
        // The default turn (960 ms less what the new game took), not one
        // made from the bad value; a loaded machine may take a good part
        // of a second between reading the line and asking for the move.
        let time = brain.asked[0].budget.time.unwrap_or_default();
        assert!(
            time > Duration::from_millis(360) && time <= Duration::from_millis(960),
            "input {input:?}: {time:?}"
        );
    }
    check(&[("INFO\n", "MESSAGE ignored: INFO takes a key and a value\n")]);
}

#[test]
fn about_names_the_brain_and_its_version() {
    let version = env!("CARGO_PKG_VERSION");
    let (got, _) = talk("ABOUT\n");
    assert_eq!(
        got,
        format!(
            "name=\"gomoku-mist\", version=\"{version}\", author=\"gomoku-mist developers\", \
             country=\"n/a\", www=\"n/a\"\n"
        )
    );
}

#[test]
fn unknown_words_get_unknown_and_blank_lines_nothing() {
    check(&[
        ("HELLO there\n", "UNKNOWN HELLO is not a command\n"),
        ("SWAP2BOARD\r\n", "UNKNOWN SWAP2BOARD is not a command\n"),
        ("été\n", "UNKNOWN \\xc3\\xa9t\\xc3\\xa9 is not a command\n"),
        ("\n\r\n  \n\t\r\n", ""),
    ]);
}

#[test]
fn end_stops_reading_and_the_end_of_input_stops_too() {
    let (got, brain) = talk("START 19\nEND\nBEGIN\n");
    assert_eq!(got, "OK\n");
    assert!(brain.asked.is_empty());
    let (got, _) = talk("START 19\nBEGIN");
    assert_eq!(got, "OK\n9,9\n", "a last line without a newline is a line");
}

#[test]
fn a_line_too_long_is_an_error_but_a_long_info_folder_is_ignored() {
    let long = "TURN 1,1".to_string() + &" ".repeat(super::MAX_LINE) + "x\n";
    let (got, brain) = talk(&format!("START 19\n{long}"));
    assert_eq!(
        got,
        format!("OK\nERROR a line is at most {} bytes\n", super::MAX_LINE)
    );
    assert!(brain.asked.is_empty());
    let folder = "INFO folder ".to_string() + &"d".repeat(3 * super::MAX_LINE) + "\n";
    check(&[(&folder, "")]);
}

#[test]
fn a_turn_that_fills_the_board_is_refused() {
    // Every point but the last two, in an order no line of five can form
    // in: the position itself does not matter to the protocol.
    let mut input = String::from("START 19\nBOARD\n");
    let points: Vec<Point> = Point::all().collect();
    for (i, p) in points[..Point::COUNT - 2].iter().enumerate() {
        let c = Coord::of_point(*p);
        input += &format!("{},{},{}\n", c.x, c.y, 1 + i % 2);
    }
    let last = Coord::of_point(points[Point::COUNT - 1]);
    input += &format!("DONE\nTURN {},{}\n", last.x, last.y);
    let (got, _) = talk_with(scripted(&["R19"]), &input);
    let second_last = Coord::of_point(points[Point::COUNT - 2]);
    assert_eq!(
        got,
        format!(
            "OK\n{},{}\nERROR no empty point is left\n",
            second_last.x, second_last.y
        )
    );
}

/// Takes `setup` to get ready for a new game, then plays as the one-ply [`greedy`] player.
struct SlowStarter {
    setup: Duration,
    budgets: Vec<Limits>,
}

impl Brain for SlowStarter {
    fn new_game(&mut self, _memory_bytes: Option<u64>) {
        std::thread::sleep(self.setup);
    }

    fn choose(
        &mut self,
        setup: &Setup,
        budget: Limits,
        _notes: &mut dyn FnMut(&str),
    ) -> Option<Spot> {
        self.budgets.push(budget);
        greedy::choose(setup)
    }
}

#[test]
fn a_new_game_costs_no_turn_and_a_new_memory_limit_its_next_move() {
    let input = "INFO max_memory 0\nSTART 19\nINFO timeout_turn 1000\nBEGIN\nTURN 0,0\n\
                 RESTART\nBEGIN\nINFO max_memory 100000000\nTURN 1,1\n";
    let setup = Duration::from_millis(300);
    let mut brain = SlowStarter {
        setup,
        budgets: Vec::new(),
    };
    let mut out = Vec::new();
    run(&mut brain, input.as_bytes(), &mut out).expect("in-memory I/O cannot fail");
    let full = Duration::from_millis(960);
    let times: Vec<Duration> = brain.budgets.iter().filter_map(|b| b.time).collect();
    assert_eq!(times.len(), 4, "four moves asked for: {times:?}");
    for (i, &time) in times.iter().enumerate() {
        // START and RESTART begin their games before their OK, when no
        // clock runs; only the move after the new limit pays for the
        // `new_game` it brings.
        if i == 3 {
            assert!(time <= full - setup, "move {i} was given {time:?}");
        } else {
            assert_eq!(time, full, "move {i}");
        }
    }
    // Never told its memory, the brain hears of each game at its first
    // move, and that move pays.
    let input = "START 19\nINFO timeout_turn 1000\nBEGIN\nTURN 0,0\nRESTART\nBEGIN\n";
    brain.budgets.clear();
    run(&mut brain, input.as_bytes(), &mut out).expect("in-memory I/O cannot fail");
    let times: Vec<Duration> = brain.budgets.iter().filter_map(|b| b.time).collect();
    assert_eq!(times.len(), 3, "three moves asked for: {times:?}");
    assert!(
        times[0] <= full - setup && times[2] <= full - setup,
        "{times:?}"
    );
    assert_eq!(times[1], full, "mid-game");
}

/// Thinks for its whole time budget, then plays as the one-ply [`greedy`] player.
struct Sleeper {
    budgets: Vec<Limits>,
}

impl Brain for Sleeper {
    fn new_game(&mut self, _memory_bytes: Option<u64>) {}

    fn choose(
        &mut self,
        setup: &Setup,
        budget: Limits,
        _notes: &mut dyn FnMut(&str),
    ) -> Option<Spot> {
        self.budgets.push(budget);
        std::thread::sleep(budget.time.unwrap_or_default());
        greedy::choose(setup)
    }
}

#[test]
fn a_brain_that_spends_its_whole_budget_is_given_less_than_the_limits() {
    let input = "START 19\nINFO timeout_turn 200\nBEGIN\nINFO timeout_match 60000\nINFO time_left 1000\n\
                 TURN 0,0\nINFO time_left 0\nTURN 1,0\n";
    let mut brain = Sleeper {
        budgets: Vec::new(),
    };
    let mut out = Vec::new();
    run(&mut brain, input.as_bytes(), &mut out).expect("in-memory I/O cannot fail");
    let replies = String::from_utf8(out).expect("replies are text");
    assert_eq!(replies.lines().count(), 4, "every move answered: {replies}");
    let limits = [200, 1000 / 25, 0];
    for (budget, limit) in brain.budgets.iter().zip(limits) {
        let time = budget.time.expect("a time limit");
        assert!(
            time < Duration::from_millis(limit) || time.is_zero(),
            "{time:?} for a limit of {limit} ms"
        );
    }
}

#[test]
fn a_cut_off_info_with_a_value_that_counts_is_ignored() {
    let line = "INFO timeout_turn 1000".to_string() + &" ".repeat(super::MAX_LINE) + "9\n";
    let (got, _) = talk(&line);
    assert_eq!(
        got,
        format!(
            "MESSAGE ignored: a line is at most {} bytes\n",
            super::MAX_LINE
        )
    );
}

#[test]
fn a_cut_off_board_line_is_reported_at_done() {
    let line = "1,1,1".to_string() + &" ".repeat(super::MAX_LINE) + "\n";
    let (got, brain) = talk(&format!("START 19\nBOARD\n{line}DONE\n"));
    assert_eq!(
        got,
        format!("OK\nERROR a line is at most {} bytes\n", super::MAX_LINE)
    );
    assert!(brain.asked.is_empty());
}

/// Input written while [`serve`] runs: each chunk sent is one read, as a
/// manager's command comes through a pipe.
struct Pipe {
    chunks: mpsc::Receiver<Vec<u8>>,
    left: Vec<u8>,
}

impl Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left.is_empty() {
            match self.chunks.recv() {
                Ok(chunk) => self.left = chunk,
                // The sender is gone: the end of input.
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.left.len());
        buf[..n].copy_from_slice(&self.left[..n]);
        self.left.drain(..n);
        Ok(n)
    }
}

/// Output passed on as it is written, so a test can wait for a line.
struct Tap(mpsc::Sender<Vec<u8>>);

impl Write for Tap {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // The test may have stopped listening: nothing to tell it.
        let _ = self.0.send(buf.to_vec());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Thinks until [`serve`] raises its halt flag (for a turn of more than a
/// second), then plays as the one-ply [`greedy`] player; a shorter turn
/// it plays at once. Notes `thinking` as it starts, so a test knows.
struct Ponderer {
    halt: Arc<AtomicBool>,
    /// Whether the flag was up as each think began.
    halted_at_start: Vec<bool>,
    new_games: usize,
    interrupted: bool,
}

impl Brain for Ponderer {
    fn new_game(&mut self, _memory_bytes: Option<u64>) {
        self.new_games += 1;
    }

    fn choose(
        &mut self,
        setup: &Setup,
        budget: Limits,
        notes: &mut dyn FnMut(&str),
    ) -> Option<Spot> {
        self.halted_at_start.push(self.halt.load(Ordering::Relaxed));
        notes("thinking");
        let long = budget.time.is_some_and(|t| t > Duration::from_secs(1));
        let started = Instant::now();
        // Bounded, so that a protocol that never stops it fails the test
        // rather than hanging it.
        while long && !self.halt.load(Ordering::Relaxed) && started.elapsed() < HANG {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.interrupted = self.halt.load(Ordering::Relaxed);
        greedy::choose(setup)
    }

    fn interrupted(&self) -> bool {
        self.interrupted
    }
}

/// How long a test waits for what must come: a liveness bound, not a
/// speed test.
const HANG: Duration = Duration::from_secs(20);

/// A conversation with [`serve`] running on a thread of its own, the test
/// writing commands and reading the replies as they come.
struct Session {
    input: Option<mpsc::Sender<Vec<u8>>>,
    output: mpsc::Receiver<Vec<u8>>,
    /// Everything written so far.
    written: String,
    serving: std::thread::JoinHandle<(Result<(), GomocupError>, Ponderer)>,
}

impl Session {
    fn start() -> Session {
        let (input, chunks) = mpsc::channel();
        let (tap, output) = mpsc::channel();
        let halt = Arc::new(AtomicBool::new(false));
        let mut brain = Ponderer {
            halt: Arc::clone(&halt),
            halted_at_start: Vec::new(),
            new_games: 0,
            interrupted: false,
        };
        let pipe = Pipe {
            chunks,
            left: Vec::new(),
        };
        let serving = std::thread::spawn(move || {
            let result = serve(&mut brain, pipe, Tap(tap), halt);
            (result, brain)
        });
        Session {
            input: Some(input),
            output,
            written: String::new(),
            serving,
        }
    }

    /// Sends `text` as one read.
    fn send(&mut self, text: &[u8]) {
        let input = self.input.as_ref().expect("input is open");
        input.send(text.to_vec()).expect("serve reads on");
    }

    /// Waits until the output so far ends with `tail`; what came since
    /// the last wait.
    fn wait_for(&mut self, tail: &str) -> String {
        let from = self.written.len();
        let started = Instant::now();
        while !self.written[from..].ends_with(tail) {
            let left = HANG.saturating_sub(started.elapsed());
            match self.output.recv_timeout(left) {
                Ok(chunk) => self.written += &String::from_utf8_lossy(&chunk),
                Err(_) => panic!(
                    "no {tail:?} within {HANG:?}; since the last wait: {:?}",
                    &self.written[from..]
                ),
            }
        }
        self.written[from..].to_string()
    }

    /// Sends `START 19`, a long turn and a first move, and waits until the
    /// brain thinks on it.
    fn thinking() -> Session {
        let mut live = Session::start();
        live.send(b"START 19\n");
        live.wait_for("OK\n");
        live.send(b"INFO timeout_turn 600000\nTURN 9,9\n");
        assert_eq!(live.wait_for("MESSAGE thinking\n"), "MESSAGE thinking\n");
        live
    }

    /// Closes the input and waits for [`serve`] to return: what was written
    /// since the last wait, and the brain.
    fn finish(mut self) -> (String, Ponderer) {
        drop(self.input.take());
        let from = self.written.len();
        // The output channel closes when serve returns (its writer dropped).
        let started = Instant::now();
        loop {
            let left = HANG.saturating_sub(started.elapsed());
            match self.output.recv_timeout(left) {
                Ok(chunk) => self.written += &String::from_utf8_lossy(&chunk),
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    panic!("serve did not return within {HANG:?}: {:?}", self.written)
                }
            }
        }
        let (result, brain) = self.serving.join().expect("serve does not panic");
        result.expect("in-memory I/O cannot fail");
        (self.written[from..].to_string(), brain)
    }
}

/// Whether `reply` is a move on the 19×19 board.
fn is_move(reply: &str) -> bool {
    reply.trim_end().split_once(',').is_some_and(|(x, y)| {
        [x, y]
            .iter()
            .all(|n| n.parse::<u32>().is_ok_and(|n| n < 19))
    })
}

/// The brain's notes reach the manager while it thinks, each flushed at
/// once: the first is read before the move exists.
#[test]
fn notes_are_written_as_the_brain_thinks() {
    let mut live = Session::thinking();
    // The brain is still thinking: it waits for the flag YXSTOP raises.
    live.send(b"YXSTOP\n");
    let reply = live.wait_for("\n");
    assert!(is_move(&reply), "{reply:?}");
    let (rest, brain) = live.finish();
    assert_eq!(rest, "");
    assert_eq!(brain.halted_at_start, [false]);
}

/// `YXSTOP` stops a think, which answers with its best move so far; the
/// command itself gets no reply, and the next think is not stopped.
#[test]
fn yxstop_stops_a_think_and_the_move_so_far_is_played() {
    let mut live = Session::thinking();
    live.send(b"YXSTOP\n");
    let reply = live.wait_for("\n");
    assert!(is_move(&reply) && reply != "9,9\n", "{reply:?}");
    // Not thinking: nothing to stop, no reply.
    live.send(b"YXSTOP\nINFO timeout_turn 0\nTURN 0,0\n");
    let second = live.wait_for("\n");
    assert_eq!(second, "MESSAGE thinking\n");
    let reply = live.wait_for("\n");
    assert!(is_move(&reply), "{reply:?}");
    let (rest, brain) = live.finish();
    assert_eq!(rest, "");
    assert_eq!(brain.halted_at_start, [false, false]);
    assert!(!brain.interrupted, "the second think ran its course");
}

/// `END` while the brain thinks, behind other lines, ends the session
/// at once: the think stops, and nothing is answered or written after.
#[test]
fn end_behind_other_lines_while_thinking_ends_at_once() {
    let mut live = Session::thinking();
    live.send(b"INFO time_left 1000\nABOUT\n");
    live.send(b"TAKEBACK 9,9\nEND\nABOUT\n");
    let (rest, brain) = live.finish();
    assert_eq!(rest, "", "nothing after END");
    assert!(brain.interrupted);
}

/// `RESTART` (or a `START` the brain plays) while the brain thinks stops
/// the think and drops its move: the manager reads `OK` for the new game,
/// and the board is empty again.
#[test]
fn a_new_game_while_thinking_drops_the_move_and_is_answered_ok() {
    for new_game in ["RESTART", "START 19", "START 15"] {
        let mut live = Session::thinking();
        live.send(format!("INFO timeout_turn 0\n{new_game}\n").as_bytes());
        assert_eq!(live.wait_for("OK\n"), "OK\n", "{new_game}");
        live.send(b"BEGIN\n");
        let centre = if new_game == "START 15" { "7,7" } else { "9,9" };
        assert_eq!(
            live.wait_for("\n") + &live.wait_for("\n"),
            format!("MESSAGE thinking\n{centre}\n"),
            "{new_game}: BEGIN on an empty board"
        );
        let (rest, brain) = live.finish();
        assert_eq!(rest, "", "{new_game}");
        assert_eq!(brain.halted_at_start, [false, false], "{new_game}");
    }
    // A START the brain does not play changes nothing: the think goes on.
    let mut live = Session::thinking();
    live.send(b"START 99\nYXSTOP\n");
    let reply = live.wait_for("\n");
    assert!(is_move(&reply), "{reply:?}");
    assert!(live.wait_for("\n").starts_with("ERROR only square boards"));
    live.finish();
}

/// The end of input while the brain thinks stops the think, whose move
/// is written.
#[test]
fn the_end_of_input_while_thinking_plays_the_move_so_far() {
    let live = Session::thinking();
    let (rest, brain) = live.finish();
    assert!(is_move(&rest), "{rest:?}");
    assert!(brain.interrupted);
}

/// `INFO` gets no reply whatever it holds: a line of 5 MB, a key or value
/// cut short, bytes that are no text, none inside a `BOARD` block either,
/// and one sent while the brain thinks. At most a `MESSAGE` says it was
/// ignored; never `ERROR` or `UNKNOWN`, and the session goes on.
#[test]
fn an_info_line_of_any_length_or_shape_is_never_an_error() {
    let huge = 5 << 20;
    let lines: Vec<Vec<u8>> = vec![
        [&b"INFO folder "[..], &vec![b'd'; huge]].concat(),
        [&b"INFO timeout_turn "[..], &vec![b'9'; huge]].concat(),
        [&b"INFO "[..], &vec![b'k'; huge], b" 1"].concat(),
        [&b"INFO "[..], &vec![b' '; huge], b"timeout_turn 5"].concat(),
        [&b"INFO max_memory 1"[..], &vec![b'\t'; huge], b"x"].concat(),
        b"INFO".to_vec(),
        b"INFO \x00\xff 7".to_vec(),
        b"INFO rule".to_vec(),
        b"INFO max_memory 12 34".to_vec(),
    ];
    for line in &lines {
        let shown = line[..line.len().min(24)].escape_ascii().to_string();
        let mut input = b"START 19\n".to_vec();
        input.extend_from_slice(line);
        input.extend_from_slice(b"\nBOARD\n9,9,1\n");
        input.extend_from_slice(line);
        input.extend_from_slice(b"\n10,10,2\nDONE\n");
        let (got, brain) = talk(&String::from_utf8_lossy(&input));
        let replies: Vec<&str> = got.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
        assert_eq!(replies.len(), 2, "{shown}: {got:?}");
        assert_eq!(replies[0], "OK", "{shown}");
        assert!(is_move(replies[1]), "{shown}: {got:?}");
        assert_eq!(brain.asked[0].board.stones(), 2, "{shown}");
        // And while the brain thinks.
        let mut live = Session::thinking();
        live.send(&[&line[..], b"\nYXSTOP\n"].concat());
        let mut reply = live.wait_for("\n");
        while reply.starts_with("MESSAGE") {
            reply = live.wait_for("\n");
        }
        assert!(is_move(&reply), "{shown}: {reply:?}");
        let (rest, _) = live.finish();
        assert!(
            !rest.contains("ERROR") && !rest.contains("UNKNOWN"),
            "{shown}: {rest:?}"
        );
    }
}
