//! `--cpu` through pipes: the computer's stones are placed as `place`
//! places them, and a program driving the controller learns them only the
//! contract's way (`history`, `view`, `who`, the end block).

use std::collections::HashSet;

use crate::common::run;

/// A small, fixed budget: the computer's play depends on the position
/// alone, and the tests stay quick.
const FAST: &[&str] = &["--cpu-nodes", "2000"];

fn args<'a>(colour: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["--cpu", colour];
    args.extend_from_slice(FAST);
    args.extend_from_slice(extra);
    args
}

/// The moves of a `history` line.
fn moves(history: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for c in history.chars() {
        if c.is_ascii_uppercase() {
            moves.push(c.to_string());
        } else if let Some(last) = moves.last_mut() {
            last.push(c);
        }
    }
    moves
}

fn stdout(args: &[&str], input: &str) -> (String, Option<i32>) {
    let run = run(args, input.as_bytes()).expect("run");
    assert!(
        run.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    (String::from_utf8(run.stdout).expect("UTF-8"), run.code)
}

#[test]
fn as_black_it_opens_before_reading_a_line() {
    let (out, code) = stdout(&args("black", &[]), "who\nhistory\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "W", "{out}");
    assert_eq!(moves(lines[1]).len(), 1, "{out}");
    assert_eq!(code, Some(1));
}

#[test]
fn it_answers_every_placement_of_the_person_and_only_then() {
    let input = "history\nplace A1\nhistory\nplace Z1\nhistory\nplace S19\nwho\nhistory\nterm\n";
    let (out, code) = stdout(&args("white", &[]), input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "", "no move before the person's: {out}");
    let after_a1 = moves(lines[1]);
    assert_eq!(after_a1.len(), 2, "{out}");
    assert_eq!(after_a1[0], "A1");
    assert_eq!(lines[2], "Invalid coordinate");
    assert_eq!(lines[3], lines[1], "a rejected place gets no reply move");
    assert_eq!(lines[4], "B", "the person is to move again");
    let all = moves(lines[5]);
    assert_eq!(all.len(), 4, "{out}");
    assert_eq!(&all[..2], &after_a1[..]);
    assert_eq!(all[2], "S19");
    let distinct: HashSet<&String> = all.iter().collect();
    assert_eq!(distinct.len(), all.len(), "a point played twice: {out}");
    assert_eq!(code, Some(1));
}

#[test]
fn with_a_node_budget_the_same_game_gets_the_same_moves() {
    let input = "place J10\nplace K12\nplace H8\nhistory\nview\n";
    let first = stdout(&args("white", &[]), input);
    let second = stdout(&args("white", &[]), input);
    assert_eq!(first, second);
}

#[test]
fn it_blocks_a_four() {
    // Black has A1 to D1 against the edge; White must take E1.
    let (out, _) = stdout(
        &args("white", &["--moves", "A1J10B1J11C1K10D1"]),
        "history\n",
    );
    assert_eq!(out, "A1J10B1J11C1K10D1E1\n");
}

#[test]
fn it_wins_when_the_person_wanders_off() {
    let mut input = String::new();
    for column in ["A", "B", "R", "S"] {
        for row in [1, 2, 3, 17, 18, 19] {
            input.push_str(&format!("place {column}{row}\n"));
        }
    }
    let (out, code) = stdout(&args("white", &[]), &input);
    assert!(out.contains("White wins!\n"), "{out}");
    assert!(out.ends_with("Thank you for playing!\n"), "{out}");
    assert_eq!(code, Some(0));
}

#[test]
fn it_combines_with_moves_and_rule() {
    // After A1 B2 C3 it is White's turn: the computer moves at once.
    let (out, code) = stdout(
        &args("white", &["--moves", "A1B2C3", "--rule", "exact"]),
        "history\nwho\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    let all = moves(lines[0]);
    assert_eq!(all.len(), 4, "{out}");
    assert_eq!(&all[..3], ["A1", "B2", "C3"]);
    assert_eq!(lines[1], "B");
    assert_eq!(code, Some(1));
}

#[test]
fn resign_term_and_end_of_input_are_as_without_it() {
    let (out, code) = stdout(&args("white", &[]), "resign\n");
    assert_eq!(out, "White wins!\n\nThank you for playing!\n");
    assert_eq!(code, Some(0));
    let (out, code) = stdout(&args("black", &[]), "resign\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Black wins!", "White resigned: {out}");
    assert_eq!(moves(lines[1]).len(), 1);
    assert_eq!(code, Some(0));
    let (out, code) = stdout(&args("white", &[]), "term\nhistory\n");
    assert_eq!((out.as_str(), code), ("", Some(1)));
    let (out, code) = stdout(&args("white", &[]), "");
    assert_eq!((out.as_str(), code), ("", Some(1)));
}

#[test]
fn with_board_its_move_is_announced_and_drawn() {
    let (out, _) = stdout(&args("white", &["--board"]), "place J10\nhistory\n");
    let history = out.lines().last().expect("history");
    let reply = &moves(history)[1];
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some(format!("White plays {reply}").as_str()));
    assert_eq!(out.lines().count(), 1 + 20 + 1, "{out}");
}

/// A renju board where every point but J1 holds a stone, Black's and
/// White's alternately as `--moves` lists them, with no five: rows 19 down
/// to 1, `B` Black, `W` White, `.` J1, where Black would make seven in a
/// row (an overline, forbidden). Black is to move.
const ONLY_A_FOUL_LEFT: [&str; 19] = [
    "WWWWBBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWBBWWB",
    "BBWWBBWWBBWWBBWWBBW",
    "WWBBWWBBWWBBWWBBWWB",
    "BBWWBWBBB.BBBWWWBBW",
];

/// [`ONLY_A_FOUL_LEFT`] as a history: Black's stones and White's in turn,
/// each colour's row by row from A1.
pub(crate) fn only_a_foul_left() -> String {
    let stones = |colour: u8| -> Vec<String> {
        let mut stones = Vec::new();
        for (r, line) in ONLY_A_FOUL_LEFT.iter().rev().enumerate() {
            for (c, cell) in line.bytes().enumerate() {
                if cell == colour {
                    stones.push(format!("{}{}", char::from(b'A' + c as u8), r + 1));
                }
            }
        }
        stones
    };
    let (black, white) = (stones(b'B'), stones(b'W'));
    assert_eq!((black.len(), white.len()), (180, 180));
    black
        .iter()
        .zip(&white)
        .map(|(b, w)| format!("{b}{w}"))
        .collect()
}

/// Under renju, a computer playing Black whose every point left is
/// forbidden has no move and no pass: it resigns, with what `resign`
/// prints, at any level or budget (level 1 picks its points without a
/// search). A person in its place is refused the point, and may resign.
#[test]
fn under_renju_a_black_computer_with_only_a_forbidden_point_resigns() {
    let history = only_a_foul_left();
    let start = ["--rule", "renju", "--moves", history.as_str()];
    let (out, code) = stdout(&start, "place J1\nwho\n");
    assert_eq!((out.as_str(), code), ("Forbidden coordinate\nB\n", Some(1)));
    for budget in [["--level", "1"], ["--level", "2"], ["--cpu-nodes", "1000"]] {
        let mut args = vec!["--cpu", "black"];
        args.extend_from_slice(&start);
        args.extend_from_slice(&budget);
        let (out, code) = stdout(&args, "who\n");
        assert_eq!(
            out,
            format!("White wins!\n{history}\nThank you for playing!\n"),
            "{budget:?}"
        );
        assert_eq!(code, Some(0), "{budget:?}");
    }
}
