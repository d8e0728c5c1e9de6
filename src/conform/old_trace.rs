//! The reference, line by line: which input line each reply answers, which
//! clause of the contract decided it, and what situation the game was in
//! (a win on an edge, the hole cut by an edge, the end of input, …).
//!
//! It plays the contract's game (no options) with the core, as the
//! controller does, and keeps a record the controller has no need of; a
//! test checks that its output is the reference's, byte for byte, on
//! every golden case and many random ones.

use std::ops::Range;

use crate::controller::text;
use crate::rules::board::DIRECTIONS;
use crate::rules::command::{Command, ParseCommandError, is_whitespace};
use crate::rules::game::{Ending, Game, PlaceError};
use crate::rules::mist;
use crate::rules::player::Player;
use crate::rules::point::{Point, SIZE};
use crate::rules::rule::Rule;

/// A line longer than this falls under `LINE-LONG`: the assignment names
/// no limit, and its own examples are far shorter (its longest, a `view`
/// reply, is 53 bytes), so a program may well read lines into a buffer of
/// its own size (256 bytes, say) and split a longer one.
pub const LONG_LINE: usize = 64;

/// How the reference stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A win, a tie or a resignation: exit 0.
    Ended,
    /// `term`: exit 1.
    Term,
    /// End of input with the game unfinished: exit 1.
    EndOfInput,
}

/// One line read, and what it made the reference do.
#[derive(Clone, Debug)]
pub struct Step {
    /// Its number, from 1.
    pub number: usize,
    /// Its bytes in the input, without the `\n`.
    pub line: Range<usize>,
    /// Whether a `\n` ends it.
    pub newline: bool,
    /// Its reply in the expected stdout (empty for a silent one).
    pub reply: Range<usize>,
    /// The clause that decided the reply.
    pub clause: &'static str,
    /// The situation, for grouping: a scenario id.
    pub situation: &'static str,
    /// Every scenario this line exercises (the situation first).
    pub scenarios: Vec<&'static str>,
    /// For a `view` after a rejected `place` on a stone: the centre a
    /// program shows if it moved the mist all the same.
    pub moved_anyway: Option<Point>,
}

/// The reference's whole run over one input.
#[derive(Clone, Debug)]
pub struct Trace {
    /// Every line read, in order.
    pub steps: Vec<Step>,
    /// How it stopped.
    pub stop: Stop,
    /// Its stdout.
    pub stdout: Vec<u8>,
    /// Its exit code.
    pub code: i32,
    /// Scenarios of the session as a whole (end of input, input after
    /// the end, …).
    pub session: Vec<&'static str>,
}

/// Bytes the assignment itself speaks of: printable ASCII, the five
/// whitespace bytes and `\n`. Any other byte is only covered by the
/// contract's decisions.
pub fn assignment_byte(b: u8) -> bool {
    (0x20..0x7f).contains(&b) || is_whitespace(b) || b == b'\n'
}

/// Plays `input` through the contract's game.
pub fn trace(input: &[u8]) -> Trace {
    let mut game = Game::new(Rule::default());
    let mut stdout = Vec::new();
    let mut steps = Vec::new();
    let mut session = Vec::new();
    let mut rejected_since_move = false;
    let mut occupied_since_move = None;
    let mut start = 0;
    let mut stop = Stop::EndOfInput;
    let mut reply = Vec::new();
    if input.is_empty() {
        session.push("empty-input");
    }
    while start < input.len() {
        let (end, newline) = match input[start..].iter().position(|&b| b == b'\n') {
            Some(at) => (start + at, true),
            None => (input.len(), false),
        };
        let line = &input[start..end];
        reply.clear();
        let mut scenarios: Vec<&'static str> = Vec::new();
        let mut clause = "CMD-INVALID";
        let mut ended = None;
        let mut moved_anyway = None;
        match Command::parse(line) {
            Err(ParseCommandError::NotACommand) => {
                reply.extend_from_slice(text::INVALID);
                scenarios.extend(invalid_kinds(line));
            }
            Err(ParseCommandError::NotAPoint(_)) => {
                reply.extend_from_slice(text::INVALID_COORDINATE);
                clause = "PLACE-POINT";
                scenarios.push(coordinate_kind(&line[b"place ".len()..]));
                rejected_since_move = true;
            }
            Ok(Command::Who) => {
                reply.extend_from_slice(text::who(game.to_move()));
                clause = "CMD-WHO";
                scenarios.push(match game.to_move() {
                    Player::Black => "who-black",
                    Player::White => "who-white",
                });
            }
            Ok(Command::History) => {
                text::history_line(&mut reply, game.moves());
                clause = "CMD-HISTORY";
                scenarios.push(if game.moves().is_empty() {
                    "history-empty"
                } else {
                    "history-moves"
                });
            }
            Ok(Command::View) => {
                text::view_line(&mut reply, game.board(), game.centre());
                let (situation, view_clause) = if game.moves().is_empty() {
                    ("view-start", "MIST-START")
                } else if rejected_since_move {
                    moved_anyway = occupied_since_move.map(mist::next_centre);
                    ("view-after-rejected", "MIST-STAYS")
                } else {
                    ("view-moved", "MIST-MOVE")
                };
                clause = view_clause;
                scenarios.push(situation);
                scenarios.extend(hole_cuts(game.centre()));
            }
            Ok(Command::Term) => {
                clause = "CMD-TERM";
                scenarios.push(if game.moves().is_empty() {
                    "term-start"
                } else {
                    "term-mid-game"
                });
                stop = Stop::Term;
            }
            Ok(Command::Resign) => {
                let ending = game.resign();
                clause = "END-RESIGN";
                scenarios.push(match game.to_move() {
                    Player::Black => "resign-black",
                    Player::White => "resign-white",
                });
                ended = Some(ending);
            }
            Ok(Command::Place(p)) => match game.place(p) {
                // The contract's rule forbids no point: only an option does.
                Err(PlaceError::Occupied(_) | PlaceError::Forbidden(..)) => {
                    reply.extend_from_slice(text::OCCUPIED);
                    clause = "PLACE-OCCUPIED";
                    scenarios.push("occupied");
                    rejected_since_move = true;
                    occupied_since_move = Some(p);
                }
                Ok(None) => {
                    clause = "CMD-PLACE";
                    scenarios.push("place-ok");
                    rejected_since_move = false;
                    occupied_since_move = None;
                }
                Ok(Some(ending)) => {
                    let (c, found) = ending_scenarios(&game, p, ending);
                    clause = c;
                    scenarios.extend(found);
                    ended = Some(ending);
                }
            },
        }
        if let Some(ending) = ended {
            reply.extend_from_slice(text::result(ending));
            let mut history = Vec::new();
            text::history_line(&mut history, game.moves());
            reply.extend_from_slice(&history);
            reply.extend_from_slice(text::THANKS);
            stop = Stop::Ended;
        }
        // A decision about the line itself explains its reply first.
        let decided = if !line.iter().all(|&b| assignment_byte(b)) {
            let in_parameter = line.starts_with(b"place ");
            Some(if in_parameter {
                ("WS-SET", "lookalike-byte")
            } else {
                ("BYTES-ANY", "odd-byte")
            })
        } else if line.len() > LONG_LINE {
            Some(("LINE-LONG", "long-line"))
        } else if !newline {
            Some(("LINE-NO-NL", "last-line-no-newline"))
        } else {
            None
        };
        if let Some((c, situation)) = decided {
            clause = c;
            scenarios.insert(0, situation);
        }
        let at = stdout.len();
        stdout.extend_from_slice(&reply);
        steps.push(Step {
            number: steps.len() + 1,
            line: start..end,
            newline,
            reply: at..stdout.len(),
            clause,
            situation: scenarios.first().copied().unwrap_or("line"),
            scenarios,
            moved_anyway,
        });
        start = if newline { end + 1 } else { end };
        if stop != Stop::EndOfInput {
            break;
        }
    }
    let unread = input.len() > start;
    match stop {
        Stop::EndOfInput if !input.is_empty() => session.push("eof-no-term"),
        Stop::Ended if unread => session.push("input-after-end"),
        Stop::Term if unread => session.push("input-after-term"),
        _ => {}
    }
    Trace {
        steps,
        stop,
        code: if stop == Stop::Ended { 0 } else { 1 },
        stdout,
        session,
    }
}

/// What kind of `Invalid!` line this is; the commonest mistake first.
fn invalid_kinds(line: &[u8]) -> Vec<&'static str> {
    let mut kinds = Vec::new();
    if line.is_empty() {
        return vec!["invalid-empty"];
    }
    if line.contains(&b'\r') {
        kinds.push("invalid-cr");
    }
    if line.contains(&b'\t') {
        kinds.push("invalid-tab");
    }
    if line.first().copied().is_some_and(is_whitespace) {
        kinds.push("invalid-leading-space");
    }
    if line.last().copied().is_some_and(is_whitespace) {
        kinds.push("invalid-trailing-space");
    }
    if line
        .windows(2)
        .any(|w| is_whitespace(w[0]) && is_whitespace(w[1]))
    {
        kinds.push("invalid-double-space");
    }
    const WORDS: [&[u8]; 6] = [b"who", b"view", b"history", b"resign", b"term", b"place"];
    let words: Vec<&[u8]> = line
        .split(|&b| is_whitespace(b))
        .filter(|w| !w.is_empty())
        .collect();
    let first = words.first().copied().unwrap_or_default();
    if !WORDS.contains(&first) && WORDS.iter().any(|w| first.eq_ignore_ascii_case(w)) {
        kinds.push("invalid-case");
    }
    let extra = match first {
        b"place" => words.len() > 2,
        w if WORDS.contains(&w) => words.len() > 1,
        _ => false,
    };
    if extra {
        kinds.push("invalid-extra-parameter");
    }
    if line == b"place" || line == b"place " {
        kinds.push("invalid-place-alone");
    }
    if kinds.is_empty() {
        kinds.push("invalid-unknown");
    }
    kinds
}

/// Why a well-formed `place` parameter is not a point.
fn coordinate_kind(param: &[u8]) -> &'static str {
    let Some((&letter, row)) = param.split_first() else {
        return "coord-other";
    };
    if (b'a'..=b's').contains(&letter) && Point::from_ascii(&[&[letter - 32], row].concat()).is_ok()
    {
        return "coord-lower-case";
    }
    if !(b'A'..=b'S').contains(&letter) {
        return "coord-column";
    }
    if row.is_empty() {
        return "coord-no-row";
    }
    if matches!(row[0], b'+' | b'-') {
        return "coord-sign";
    }
    let digits = row.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return "coord-other";
    }
    if digits < row.len() {
        return "coord-trailing";
    }
    if row.iter().all(|&b| b == b'0') {
        return "coord-row-0";
    }
    if row[0] == b'0' {
        return "coord-leading-zero";
    }
    "coord-row-20"
}

/// The edges that cut the hole around `centre`.
fn hole_cuts(centre: Point) -> Vec<&'static str> {
    let (c, r) = (centre.column().number(), centre.row().number());
    let mut cuts = Vec::new();
    if c <= 3 {
        cuts.push("hole-cut-left");
    }
    if c + 3 > SIZE {
        cuts.push("hole-cut-right");
    }
    if r <= 3 {
        cuts.push("hole-cut-bottom");
    }
    if r + 3 > SIZE {
        cuts.push("hole-cut-top");
    }
    cuts
}

/// The clause and scenarios of a placement that ended the game.
fn ending_scenarios(game: &Game, p: Point, ending: Ending) -> (&'static str, Vec<&'static str>) {
    let Ending::Win { winner } = ending else {
        return ("TIE", vec!["tie"]);
    };
    let mut found = Vec::new();
    let mut edge = false;
    let mut longest = 0;
    const NAMES: [&str; 4] = ["win-row", "win-column", "win-diagonal", "win-anti-diagonal"];
    for (dir, name) in DIRECTIONS.iter().zip(NAMES) {
        let run = game.board().run(p, *dir);
        if run.length < 5 {
            continue;
        }
        longest = longest.max(run.length);
        found.push(name);
        for s in stones(game, p, *dir, winner) {
            let (c, r) = (s.column().number(), s.row().number());
            let last = SIZE;
            for (on, name) in [
                (c == 1, "win-edge-left"),
                (c == last, "win-edge-right"),
                (r == 1, "win-edge-bottom"),
                (r == last, "win-edge-top"),
                ((c == 1 || c == last) && (r == 1 || r == last), "win-corner"),
            ] {
                if on && !found.contains(&name) {
                    found.push(name);
                    edge = true;
                }
            }
        }
    }
    if longest > 5 {
        found.push("win-overline");
    }
    if winner == Player::White {
        found.push("win-white");
    }
    let full = game.moves().len() == Point::COUNT;
    if full {
        found.push("win-361st-stone");
    }
    // The situation that groups failures: where the line lies.
    found.insert(0, if edge { "win-on-edge" } else { "win-inside" });
    // A line on an edge is the commonest miss, whatever else it is; so a
    // program that misses those is one group, not one per line length.
    let clause = if edge {
        "WIN-LINE"
    } else if full {
        "TIE-WIN-FIRST"
    } else if longest > 5 {
        "WIN-OVERLINE"
    } else {
        "WIN-LINE"
    };
    (clause, found)
}

/// The stones of the run through `p` in direction `dir`.
fn stones(game: &Game, p: Point, (dc, dr): (i8, i8), colour: Player) -> Vec<Point> {
    let mut out = vec![p];
    for sign in [1, -1] {
        let mut at = p;
        while let Some(next) = at.offset(dc * sign, dr * sign) {
            if game.board().get(next) != Some(colour) {
                break;
            }
            out.push(next);
            at = next;
        }
    }
    out
}

/// Why a program's run differs from the trace: the clause, the situation
/// and the number of the input line (if one is to blame).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blame {
    /// The clause broken.
    pub clause: &'static str,
    /// The situation it broke in.
    pub situation: &'static str,
    /// The input line whose reply differs first.
    pub line: Option<usize>,
}

/// How a run ended, as far as blame goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// It exited with the expected code.
    Right,
    /// It exited with another code, or crashed.
    WrongCode,
    /// It was still running at the time limit.
    Hung,
}

/// Blames the first difference between the trace and what a program
/// printed (`got`) and how it ended.
pub fn blame(input: &[u8], trace: &Trace, got: &[u8], end: RunEnd) -> Blame {
    let expected = &trace.stdout;
    let common = expected.iter().zip(got).take_while(|(a, b)| a == b).count();
    let blame = |step: &Step, clause, situation| Blame {
        clause,
        situation,
        line: Some(step.number),
    };
    if common < expected.len() {
        let Some(index) = trace
            .steps
            .iter()
            .position(|s| s.reply.start <= common && common < s.reply.end)
        else {
            return stop_blame(input, trace, end);
        };
        let step = &trace.steps[index];
        let got_line = got[common..]
            .split(|&b| b == b'\n')
            .next()
            .unwrap_or_default();
        // Output where a silent placement should print nothing belongs
        // to that placement, not to the line whose reply it displaced.
        let ends_game = expected[step.reply.clone()].ends_with(text::THANKS);
        if ends_game && got_line == b"Wow, a tie!" && step.situation != "win-on-edge" {
            return blame(step, "TIE-WIN-FIRST", step.situation);
        }
        if common == step.reply.start && common < got.len() && !ends_game {
            let silent = trace.steps[..index]
                .iter()
                .rev()
                .take_while(|s| s.reply.is_empty())
                .find(|s| s.clause == "CMD-PLACE");
            if let Some(place) = silent {
                let spurious = match got_line {
                    b"Black wins!" | b"White wins!" => {
                        Some(("WIN-LINE", "a win where there is none"))
                    }
                    b"Wow, a tie!" => Some(("TIE", "a tie before the board is full")),
                    b"Invalid coordinate" => Some(("PLACE-POINT", "a point refused")),
                    b"Occupied coordinate" => Some(("PLACE-OCCUPIED", "a free point refused")),
                    b"Invalid!" => Some(("CMD-EXACT", "a place refused")),
                    _ => None,
                };
                if let Some((clause, situation)) = spurious {
                    return blame(place, clause, situation);
                }
            }
        }
        if step.clause == "MIST-STAYS" {
            let mut shown = Vec::new();
            if let Some(p) = step.moved_anyway {
                p.write_ascii(&mut shown);
                shown.push(b',');
            }
            if shown.is_empty() || !got_line.starts_with(&shown) {
                // Not the mist moved by the rejected stone: the formula.
                let centre_end = expected[step.reply.clone()]
                    .iter()
                    .position(|&b| b == b',')
                    .map_or(0, |at| step.reply.start + at + 1);
                if common < centre_end {
                    return blame(step, "MIST-MOVE", "view-moved");
                }
            }
        }
        if step.clause.starts_with("MIST-") {
            // The centre is right, but not the symbols: an edge where an
            // `x` is wrong, else the stones.
            let centre_end = expected[step.reply.clone()]
                .iter()
                .position(|&b| b == b',')
                .map_or(0, |at| step.reply.start + at + 1);
            if common >= centre_end {
                let cut = step
                    .scenarios
                    .iter()
                    .copied()
                    .find(|s| s.starts_with("hole-cut"));
                let shown = &expected[common..step.reply.end];
                let edge_wrong = shown
                    .iter()
                    .zip(&got[common..])
                    .any(|(&e, &g)| e != g && (e == text::OFF_BOARD || g == text::OFF_BOARD));
                return match cut {
                    Some(cut) if edge_wrong => blame(step, "VIEW-EDGE", cut),
                    _ => blame(step, "VIEW-FORMAT", "stones in the hole"),
                };
            }
        }
        return blame(step, step.clause, step.situation);
    }
    if got.len() > expected.len() {
        let extra = &got[expected.len()..];
        let (clause, situation) = match trace.stop {
            Stop::Ended if trace.session.contains(&"input-after-end") => {
                ("END-STOP", "input-after-end")
            }
            Stop::Ended => ("END-BLOCK", "output after the end"),
            Stop::Term => ("TERM-STOP", "output after term"),
            Stop::EndOfInput if input.is_empty() => ("INPUT-EMPTY", "empty-input"),
            Stop::EndOfInput if input.ends_with(b"\n") && extra.starts_with(text::INVALID) => {
                ("LINE-FINAL-NL", "a reply to no line")
            }
            Stop::EndOfInput => ("EOF-EXIT", "output at end of input"),
        };
        return Blame {
            clause,
            situation,
            line: None,
        };
    }
    stop_blame(input, trace, end)
}

/// Blame for a run whose stdout is right but whose end is not.
fn stop_blame(input: &[u8], trace: &Trace, end: RunEnd) -> Blame {
    let hung = end == RunEnd::Hung;
    let (clause, situation) = match trace.stop {
        Stop::Ended if hung => ("END-BLOCK", "still running after the end"),
        Stop::Ended => ("EXIT-CODES", "exit code after the end"),
        Stop::Term if hung => ("CMD-TERM", "still running after term"),
        Stop::Term => ("EXIT-CODES", "exit code of term"),
        Stop::EndOfInput if input.is_empty() => ("INPUT-EMPTY", "empty-input"),
        Stop::EndOfInput if hung => ("EOF-EXIT", "still running at end of input"),
        Stop::EndOfInput => ("EOF-EXIT", "exit code at end of input"),
    };
    Blame {
        clause,
        situation,
        line: trace.steps.last().map(|s| s.number),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn old_and_new_agree() {
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for seed in [1, 2, 3, 4, 5] {
            for index in 0..1500 {
                inputs.push(crate::conform::generate::case(
                    &mut crate::rng::Rng::for_case(seed, index),
                ));
            }
        }
        for s in crate::conform::cover::Scenario::ALL {
            inputs.push(s.example().to_vec());
        }
        inputs.push(Vec::new());
        for input in &inputs {
            let old = super::trace(input);
            let new = crate::conform::trace::trace(input);
            let e = input.escape_ascii().to_string();
            assert_eq!(old.stdout, new.stdout, "{e}");
            assert_eq!(old.code, new.code, "{e}");
            assert_eq!(
                format!("{:?}", old.stop).split('(').next(),
                format!("{:?}", new.stop).split('(').next(),
                "{e}"
            );
            assert_eq!(
                old.session,
                new.session.iter().map(|s| s.id()).collect::<Vec<_>>(),
                "{e}"
            );
            assert_eq!(old.steps.len(), new.steps.len(), "{e}");
            for (o, n) in old.steps.iter().zip(&new.steps) {
                assert_eq!(
                    (
                        o.number,
                        o.line.clone(),
                        o.newline,
                        o.reply.clone(),
                        o.clause,
                        o.moved_anyway
                    ),
                    (
                        n.number,
                        n.line.clone(),
                        n.newline,
                        n.reply.clone(),
                        n.clause.id(),
                        n.moved_anyway
                    ),
                    "{e}"
                );
                assert_eq!(
                    o.scenarios,
                    n.scenarios.iter().map(|s| s.id()).collect::<Vec<_>>(),
                    "{e}"
                );
                assert_eq!(o.situation, n.situation().map_or("line", |s| s.id()), "{e}");
            }
        }
        let mut rng = crate::rng::Rng::for_case(99, 0);
        let extras: [&[u8]; 8] = [
            b"Black wins!
",
            b"Wow, a tie!
",
            b"Invalid!
",
            b"Occupied coordinate
",
            b"Invalid coordinate
",
            b"B
",
            b"x",
            b"J10,",
        ];
        let mut blames = 0;
        for input in &inputs {
            let old = super::trace(input);
            let new = crate::conform::trace::trace(input);
            for _ in 0..6 {
                let cut = rng.below(old.stdout.len() + 1);
                let mut got = old.stdout[..cut].to_vec();
                got.extend_from_slice(extras[rng.below(8)]);
                if rng.below(2) == 0 {
                    got.extend_from_slice(&old.stdout[cut..]);
                }
                for (oe, ne) in [
                    (super::RunEnd::Right, crate::conform::trace::RunEnd::Right),
                    (super::RunEnd::Hung, crate::conform::trace::RunEnd::Hung),
                    (
                        super::RunEnd::WrongCode,
                        crate::conform::trace::RunEnd::WrongCode,
                    ),
                ] {
                    let ob = super::blame(input, &old, &got, oe);
                    let nb = crate::conform::trace::blame(input, &new, &got, ne);
                    assert_eq!(
                        (ob.clause, ob.line),
                        (nb.clause.id(), nb.line),
                        "{} got {}",
                        input.escape_ascii(),
                        got.escape_ascii()
                    );
                    blames += 1;
                }
            }
            let (ob, nb) = (
                super::blame(input, &old, &old.stdout, super::RunEnd::Hung),
                crate::conform::trace::blame(
                    input,
                    &new,
                    &new.stdout,
                    crate::conform::trace::RunEnd::Hung,
                ),
            );
            assert_eq!((ob.clause, ob.line), (nb.clause.id(), nb.line));
        }
        eprintln!("{} inputs agree, {blames} blames", inputs.len());
    }
}
