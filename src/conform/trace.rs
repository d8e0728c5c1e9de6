//! The reference, line by line: which input line each reply answers, which
//! clause of the contract decided it, and what situation the game was in
//! (a win on an edge, the hole cut by an edge, the end of input, …).
//!
//! It feeds the controller's [`Session`] the contract's game (no options)
//! one line at a time and observes it ([`Observer`]): the replies are the
//! controller's own, and what the trace adds is only the record the
//! controller has no need of, made from what the session said it did.

use std::ops::Range;

use super::clause::{Clause, Kind};
use super::scenario::Scenario;
use crate::controller::session::{Answer, Observer, Session, Settings};
use crate::controller::text;
use crate::rules::board::DIRECTIONS;
use crate::rules::command::is_whitespace;
use crate::rules::game::{Ending, Game, PlaceError};
use crate::rules::mist;
use crate::rules::player::Player;
use crate::rules::point::{Point, SIZE};
use crate::rules::rule::Rule;

/// How the reference stopped: the controller's own reason.
pub use crate::controller::session::Stop;

/// A line longer than this falls under `LINE-LONG`: the assignment names
/// no limit, and its own examples are far shorter (its longest, a `view`
/// reply, is 53 bytes), so a program may well read lines into a buffer of
/// its own size (256 bytes, say) and split a longer one.
pub const LONG_LINE: usize = 64;

/// The clauses of a `view` reply: the mist's.
pub(crate) const MIST: [Clause; 3] = [Clause::MistStart, Clause::MistMove, Clause::MistStays];

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
    pub clause: Clause,
    /// Every scenario this line exercises; the first is its situation,
    /// what groups failures.
    pub scenarios: Vec<Scenario>,
    /// For a `view` after a rejected `place` on a stone: the centre a
    /// program shows if it moved the mist all the same.
    pub moved_anyway: Option<Point>,
}

impl Step {
    /// The situation the line was in, for grouping.
    pub fn situation(&self) -> Option<Scenario> {
        self.scenarios.first().copied()
    }
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
    pub session: Vec<Scenario>,
}

impl Trace {
    /// Whether the game ended (a win, a tie or a resignation).
    pub const fn ended(&self) -> bool {
        matches!(self.stop, Stop::Ended(_))
    }

    /// Its stdout and exit code, as a program's are expected to be.
    pub fn expected(&self) -> super::Expected {
        super::Expected {
            stdout: self.stdout.clone(),
            code: self.code,
        }
    }
}

/// Bytes the assignment itself speaks of: printable ASCII, the five
/// whitespace bytes and `\n`. Any other byte is only covered by the
/// contract's decisions.
pub fn assignment_byte(b: u8) -> bool {
    (0x20..0x7f).contains(&b) || is_whitespace(b) || b == b'\n'
}

/// `line` without the bytes the assignment does not speak of.
pub fn plain(line: &[u8]) -> Vec<u8> {
    let keep = |b: &&u8| assignment_byte(**b);
    line.iter().filter(keep).copied().collect()
}

/// The session's last answer, as it tells it.
impl Observer for Option<Answer> {
    fn answered(&mut self, answer: Answer) {
        *self = Some(answer);
    }
}

/// What the lines since the last stone placed did to the mist.
#[derive(Default)]
struct SinceMove {
    /// A `place` was refused.
    rejected: bool,
    /// The last one refused for a stone on its point: that point.
    occupied: Option<Point>,
}

/// Plays `input` through the contract's game.
pub fn trace(input: &[u8]) -> Trace {
    let game = Game::new(Rule::default());
    let mut session = Session::new(game, Settings::default(), Vec::new()).observed(None);
    let mut steps = Vec::new();
    let mut since = SinceMove::default();
    let mut start = 0;
    let mut stop = Stop::EndOfInput;
    while start < input.len() && stop == Stop::EndOfInput {
        let (end, newline) = match input[start..].iter().position(|&b| b == b'\n') {
            Some(at) => (start + at, true),
            None => (input.len(), false),
        };
        let line = &input[start..end];
        let at = session.output().len();
        // Writing to a vector cannot fail.
        stop = session.line(line).ok().flatten().unwrap_or(stop);
        let _ = session.flush();
        let Some(answer) = session.observer().take() else {
            break;
        };
        let (mut clause, mut scenarios, moved_anyway) =
            observed(answer, line, session.game(), &mut since);
        // A decision about the line itself explains its reply first.
        if let Some(decided) = line_decision(line, newline) {
            clause = decided.clause();
            scenarios.insert(0, decided);
        }
        steps.push(Step {
            number: steps.len() + 1,
            line: start..end,
            newline,
            reply: at..session.output().len(),
            clause,
            scenarios,
            moved_anyway,
        });
        start = if newline { end + 1 } else { end };
    }
    let session_scenario = match stop {
        _ if input.is_empty() => Some(Scenario::EmptyInput),
        Stop::EndOfInput => Some(Scenario::EofNoTerm),
        _ if start == input.len() => None,
        Stop::Ended(_) => Some(Scenario::InputAfterEnd),
        Stop::Term => Some(Scenario::InputAfterTerm),
    };
    Trace {
        steps,
        stop,
        code: i32::from(stop.exit_code()),
        stdout: session.output().clone(),
        session: session_scenario.into_iter().collect(),
    }
}

/// The clause and scenarios of the line `line`, which the session
/// answered with `answer`, leaving `game`; and for a `view` after a
/// stone refused, the centre a program that moved the mist all the same
/// shows.
fn observed(
    answer: Answer,
    line: &[u8],
    game: &Game,
    since: &mut SinceMove,
) -> (Clause, Vec<Scenario>, Option<Point>) {
    let first_move = game.moves().is_empty();
    let (clause, scenarios) = match answer {
        Answer::NotACommand => (Clause::CmdInvalid, invalid_kinds(line)),
        Answer::NotAPoint => {
            since.rejected = true;
            let param = line.get(b"place ".len()..).unwrap_or_default();
            (Clause::PlacePoint, vec![coordinate_kind(param)])
        }
        Answer::Who => (
            Clause::CmdWho,
            vec![match game.to_move() {
                Player::Black => Scenario::WhoBlack,
                Player::White => Scenario::WhoWhite,
            }],
        ),
        Answer::History => (
            Clause::CmdHistory,
            vec![match first_move {
                true => Scenario::HistoryEmpty,
                false => Scenario::HistoryMoves,
            }],
        ),
        Answer::View => {
            let (clause, situation) = match (first_move, since.rejected) {
                (true, _) => (Clause::MistStart, Scenario::ViewStart),
                (false, true) => (Clause::MistStays, Scenario::ViewAfterRejected),
                (false, false) => (Clause::MistMove, Scenario::ViewMoved),
            };
            (clause, [vec![situation], hole_cuts(game.centre())].concat())
        }
        Answer::Term => (
            Clause::CmdTerm,
            vec![match first_move {
                true => Scenario::TermStart,
                false => Scenario::TermMidGame,
            }],
        ),
        Answer::Resigned(ending) => (
            Clause::EndResign,
            // The winner's opponent resigned.
            vec![match ending {
                Ending::Win {
                    winner: Player::White,
                } => Scenario::ResignBlack,
                _ => Scenario::ResignWhite,
            }],
        ),
        // The contract's rule forbids no point: only an option does.
        Answer::Refused(PlaceError::Occupied(p) | PlaceError::Forbidden(p, _)) => {
            since.rejected = true;
            since.occupied = Some(p);
            (Clause::PlaceOccupied, vec![Scenario::Occupied])
        }
        Answer::Placed(_, None) => {
            *since = SinceMove::default();
            (Clause::CmdPlace, vec![Scenario::PlaceOk])
        }
        Answer::Placed(p, Some(ending)) => ending_scenarios(game, p, ending),
    };
    let stays = clause == Clause::MistStays;
    let moved_anyway = since.occupied.filter(|_| stays).map(mist::next_centre);
    (clause, scenarios, moved_anyway)
}

/// The decision of the contract about the line itself, if one explains
/// its reply: bytes the assignment does not speak of, a long line, a last
/// line without `\n`.
fn line_decision(line: &[u8], newline: bool) -> Option<Scenario> {
    if !line.iter().all(|&b| assignment_byte(b)) {
        Some(match line.starts_with(b"place ") {
            true => Scenario::LookalikeByte,
            false => Scenario::OddByte,
        })
    } else if line.len() > LONG_LINE {
        Some(Scenario::LongLine)
    } else if !newline {
        Some(Scenario::LastLineNoNewline)
    } else {
        None
    }
}

/// What kind of `Invalid!` line this is; the commonest mistake first.
pub(crate) fn invalid_kinds(line: &[u8]) -> Vec<Scenario> {
    let mut kinds = Vec::new();
    if line.is_empty() {
        return vec![Scenario::InvalidEmpty];
    }
    if line.contains(&b'\r') {
        kinds.push(Scenario::InvalidCr);
    }
    if line.contains(&b'\t') {
        kinds.push(Scenario::InvalidTab);
    }
    if line.first().copied().is_some_and(is_whitespace) {
        kinds.push(Scenario::InvalidLeadingSpace);
    }
    if line.last().copied().is_some_and(is_whitespace) {
        kinds.push(Scenario::InvalidTrailingSpace);
    }
    if line
        .windows(2)
        .any(|w| is_whitespace(w[0]) && is_whitespace(w[1]))
    {
        kinds.push(Scenario::InvalidDoubleSpace);
    }
    const WORDS: [&[u8]; 6] = [b"who", b"view", b"history", b"resign", b"term", b"place"];
    let words: Vec<&[u8]> = line
        .split(|&b| is_whitespace(b))
        .filter(|w| !w.is_empty())
        .collect();
    let first = words.first().copied().unwrap_or_default();
    if !WORDS.contains(&first) && WORDS.iter().any(|w| first.eq_ignore_ascii_case(w)) {
        kinds.push(Scenario::InvalidCase);
    }
    let extra = match first {
        b"place" => words.len() > 2,
        w if WORDS.contains(&w) => words.len() > 1,
        _ => false,
    };
    if extra {
        kinds.push(Scenario::InvalidExtraParameter);
    }
    if line == b"place" || line == b"place " {
        kinds.push(Scenario::InvalidPlaceAlone);
    }
    if kinds.is_empty() {
        kinds.push(Scenario::InvalidUnknown);
    }
    kinds
}

/// The parameter of `line` if it is a `place` whose parameter holds
/// whitespace but no space (`place A1\r`, `place \t`): the line a
/// program that takes only the space for whitespace answers as a point.
pub(crate) fn odd_space_param(line: &[u8]) -> Option<&[u8]> {
    let param = line.strip_prefix(b"place ")?;
    let odd = !param.contains(&b' ') && param.iter().any(|&b| is_whitespace(b));
    odd.then_some(param)
}

/// Why a well-formed `place` parameter is not a point.
fn coordinate_kind(param: &[u8]) -> Scenario {
    let Some((&letter, row)) = param.split_first() else {
        return Scenario::CoordOther;
    };
    if (b'a'..=b's').contains(&letter) && Point::from_ascii(&[&[letter - 32], row].concat()).is_ok()
    {
        return Scenario::CoordLowerCase;
    }
    if !(b'A'..=b'S').contains(&letter) {
        return Scenario::CoordColumn;
    }
    if row.is_empty() {
        return Scenario::CoordNoRow;
    }
    if matches!(row[0], b'+' | b'-') {
        return Scenario::CoordSign;
    }
    let digits = row.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Scenario::CoordOther;
    }
    if digits < row.len() {
        return Scenario::CoordTrailing;
    }
    if row.iter().all(|&b| b == b'0') {
        return Scenario::CoordRow0;
    }
    if row[0] == b'0' {
        return Scenario::CoordLeadingZero;
    }
    Scenario::CoordRow20
}

/// The edges that cut the hole around `centre`.
fn hole_cuts(centre: Point) -> Vec<Scenario> {
    let (c, r) = (centre.column().number(), centre.row().number());
    [
        (c <= 3, Scenario::HoleCutLeft),
        (c + 3 > SIZE, Scenario::HoleCutRight),
        (r <= 3, Scenario::HoleCutBottom),
        (r + 3 > SIZE, Scenario::HoleCutTop),
    ]
    .into_iter()
    .filter_map(|(cut, s)| cut.then_some(s))
    .collect()
}

/// The clause and scenarios of a placement that ended the game.
fn ending_scenarios(game: &Game, p: Point, ending: Ending) -> (Clause, Vec<Scenario>) {
    let Ending::Win { winner } = ending else {
        return (Clause::Tie, vec![Scenario::Tie]);
    };
    let mut found = Vec::new();
    let mut edge = false;
    let mut longest = 0;
    const NAMES: [Scenario; 4] = [
        Scenario::WinRow,
        Scenario::WinColumn,
        Scenario::WinDiagonal,
        Scenario::WinAntiDiagonal,
    ];
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
                (c == 1, Scenario::WinEdgeLeft),
                (c == last, Scenario::WinEdgeRight),
                (r == 1, Scenario::WinEdgeBottom),
                (r == last, Scenario::WinEdgeTop),
                (
                    (c == 1 || c == last) && (r == 1 || r == last),
                    Scenario::WinCorner,
                ),
            ] {
                if on && !found.contains(&name) {
                    found.push(name);
                    edge = true;
                }
            }
        }
    }
    if longest > 5 {
        found.push(Scenario::WinOverline);
    }
    if winner == Player::White {
        found.push(Scenario::WinWhite);
    }
    let full = game.moves().len() == Point::COUNT;
    if full {
        found.push(Scenario::Win361stStone);
    }
    // The situation that groups failures: where the line lies.
    let situation = match edge {
        true => Scenario::WinOnEdge,
        false => Scenario::WinInside,
    };
    found.insert(0, situation);
    // A line on an edge is the commonest miss, whatever else it is; so a
    // program that misses those is one group, not one per line length.
    let clause = if edge {
        Clause::WinLine
    } else if full {
        Clause::TieWinFirst
    } else if longest > 5 {
        Clause::WinOverline
    } else {
        Clause::WinLine
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

/// The decisions of the contract this input's expected output depends
/// on, in the order of the clause table; empty when the assignment alone
/// decides it.
pub fn decisions(input: &[u8], trace: &Trace) -> Vec<Clause> {
    let mut found: Vec<Clause> = trace
        .steps
        .iter()
        .map(|step| step.clause)
        .filter(|c| c.kind() == Kind::Decision)
        .collect();
    if input.is_empty() {
        found.push(Clause::InputEmpty);
    }
    if trace.stop == Stop::EndOfInput && !input.is_empty() {
        found.push(Clause::EofExit);
        if input.ends_with(b"\n") {
            found.push(Clause::LineFinalNl);
        }
    }
    found.sort_unstable();
    found.dedup();
    found
}

/// Why a program's run differs from the trace: the clause, and the
/// number of the input line (if one is to blame).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blame {
    /// The clause broken.
    pub clause: Clause,
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
    if common < expected.len() {
        let at = trace
            .steps
            .iter()
            .position(|s| s.reply.start <= common && common < s.reply.end);
        return match at {
            Some(index) => reply_blame(trace, index, got, common),
            None => stop_blame(input, trace, end),
        };
    }
    if got.len() > expected.len() {
        let extra = &got[expected.len()..];
        let clause = match trace.stop {
            Stop::Ended(_) if trace.session.contains(&Scenario::InputAfterEnd) => Clause::EndStop,
            Stop::Ended(_) => Clause::EndBlock,
            Stop::Term => Clause::TermStop,
            Stop::EndOfInput if input.is_empty() => Clause::InputEmpty,
            Stop::EndOfInput if input.ends_with(b"\n") && extra.starts_with(text::INVALID) => {
                Clause::LineFinalNl
            }
            Stop::EndOfInput => Clause::EofExit,
        };
        return Blame { clause, line: None };
    }
    stop_blame(input, trace, end)
}

/// Blame for a reply that differs from the one of step `index`, from
/// byte `common` of the output on.
fn reply_blame(trace: &Trace, index: usize, got: &[u8], common: usize) -> Blame {
    let expected = &trace.stdout;
    let step = &trace.steps[index];
    let on = |step: &Step, clause| Blame {
        clause,
        line: Some(step.number),
    };
    let got_line = got[common..]
        .split(|&b| b == b'\n')
        .next()
        .unwrap_or_default();
    // Output where a silent placement should print nothing belongs
    // to that placement, not to the line whose reply it displaced.
    let ends_game = expected[step.reply.clone()].ends_with(text::THANKS);
    if ends_game && got_line == b"Wow, a tie!" && step.situation() != Some(Scenario::WinOnEdge) {
        return on(step, Clause::TieWinFirst);
    }
    if common == step.reply.start && common < got.len() && !ends_game {
        let silent = trace.steps[..index]
            .iter()
            .rev()
            .take_while(|s| s.reply.is_empty())
            .find(|s| s.clause == Clause::CmdPlace);
        if let (Some(place), Some(clause)) = (silent, spurious(got_line)) {
            return on(place, clause);
        }
    }
    if step.clause == Clause::MistStays && !moved_anyway(step, got_line) {
        // Not the mist moved by the rejected stone: the formula.
        if common < centre_end(expected, step) {
            return on(step, Clause::MistMove);
        }
    }
    if MIST.contains(&step.clause) && common >= centre_end(expected, step) {
        // The centre is right, but not the symbols: an edge where an
        // `x` is wrong, else the stones.
        let cut = step
            .scenarios
            .iter()
            .any(|s| s.clause() == Clause::ViewEdge);
        let edge_wrong = expected[common..step.reply.end]
            .iter()
            .zip(&got[common..])
            .any(|(&e, &g)| e != g && (e == text::OFF_BOARD || g == text::OFF_BOARD));
        return on(
            step,
            match cut && edge_wrong {
                true => Clause::ViewEdge,
                false => Clause::ViewFormat,
            },
        );
    }
    on(step, step.clause)
}

/// The clause a reply breaks where a silent placement is due.
pub(crate) fn spurious(got_line: &[u8]) -> Option<Clause> {
    Some(match got_line {
        b"Black wins!" | b"White wins!" => Clause::WinLine,
        b"Wow, a tie!" => Clause::Tie,
        b"Invalid coordinate" => Clause::PlacePoint,
        b"Occupied coordinate" => Clause::PlaceOccupied,
        b"Invalid!" => Clause::CmdExact,
        _ => return None,
    })
}

/// Whether `got_line` shows the centre the rejected stone of `step`
/// would have moved the mist to.
fn moved_anyway(step: &Step, got_line: &[u8]) -> bool {
    let Some(p) = step.moved_anyway else {
        return false;
    };
    let mut shown = Vec::new();
    p.write_ascii(&mut shown);
    shown.push(b',');
    got_line.starts_with(&shown)
}

/// Where the centre and its comma end in the output, in the reply of a
/// `view` step.
fn centre_end(expected: &[u8], step: &Step) -> usize {
    expected[step.reply.clone()]
        .iter()
        .position(|&b| b == b',')
        .map_or(0, |at| step.reply.start + at + 1)
}

/// Blame for a run whose stdout is right but whose end is not.
fn stop_blame(input: &[u8], trace: &Trace, end: RunEnd) -> Blame {
    let hung = end == RunEnd::Hung;
    let clause = match trace.stop {
        Stop::Ended(_) if hung => Clause::EndBlock,
        Stop::Ended(_) => Clause::ExitCodes,
        Stop::Term if hung => Clause::CmdTerm,
        Stop::Term => Clause::ExitCodes,
        Stop::EndOfInput if input.is_empty() => Clause::InputEmpty,
        Stop::EndOfInput => Clause::EofExit,
    };
    Blame {
        clause,
        line: trace.steps.last().map(|s| s.number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conform::{Invocation, reference};
    use crate::rng::Rng;

    #[test]
    fn the_trace_prints_what_the_reference_prints() {
        for index in 0..600 {
            let input = crate::conform::generate::case(&mut Rng::for_case(21, index));
            let trace = trace(&input);
            let reference = reference(Invocation::contract(), &input);
            assert_eq!(trace.stdout, reference.stdout, "case {index}");
            assert_eq!(trace.code, reference.code, "case {index}");
        }
    }

    fn blamed(input: &[u8], got: &[u8], end: RunEnd) -> &'static str {
        blame(input, &trace(input), got, end).clause.id()
    }

    #[test]
    fn blame_names_the_clause() {
        let five = b"place A1\nplace B1\nplace A2\nplace B2\nplace A3\nplace B3\nplace A4\nplace B4\nplace A5\nterm\n";
        type Row<'a> = (&'a [u8], &'a [u8], RunEnd, &'a str);
        let cases: &[Row] = &[
            (b"who\r\nterm\n", b"B\n", RunEnd::Right, "CMD-INVALID"),
            (b"place A01\nterm\n", b"", RunEnd::Right, "PLACE-POINT"),
            (
                b"place A1\nview\nterm\n",
                b"A13,",
                RunEnd::Right,
                "MIST-MOVE",
            ),
            (
                b"place A1\nview\nterm\n",
                b"M3,..x",
                RunEnd::Right,
                "VIEW-EDGE",
            ),
            (five, b"", RunEnd::Hung, "WIN-LINE"),
            (b"who\n", b"B\n", RunEnd::Hung, "EOF-EXIT"),
            (b"who\n", b"B\nInvalid!\n", RunEnd::Right, "LINE-FINAL-NL"),
            (b"who", b"", RunEnd::Right, "LINE-NO-NL"),
            (b"", b"", RunEnd::WrongCode, "INPUT-EMPTY"),
            (
                b"place A1\nwho\nterm\n",
                b"Occupied coordinate\n",
                RunEnd::Right,
                "PLACE-OCCUPIED",
            ),
            (b"term\n", b"", RunEnd::WrongCode, "EXIT-CODES"),
            (
                b"resign\nwho\n",
                b"White wins!\n\nThank you for playing!\nB\n",
                RunEnd::Right,
                "END-STOP",
            ),
            (
                b"place A1\x00\nterm\n",
                b"Invalid!\n",
                RunEnd::Right,
                "WS-SET",
            ),
        ];
        for (input, got, end, want) in cases {
            assert_eq!(blamed(input, got, *end), *want, "{}", input.escape_ascii());
        }
    }

    #[test]
    fn the_trace_records_the_situation_of_each_line() {
        let cases: &[(&[u8], &[&str])] = &[
            (b"who\r\nterm\n", &["invalid-cr", "term-start"]),
            (b"place A01\nterm\n", &["coord-leading-zero", "term-start"]),
            (
                b"place A1\nplace A1\nview\nterm\n",
                &[
                    "place-ok",
                    "occupied",
                    "view-after-rejected",
                    "term-mid-game",
                ],
            ),
            (b"place A1\x00\n", &["lookalike-byte"]),
        ];
        for (input, want) in cases {
            let t = trace(input);
            let got: Vec<&str> = t
                .steps
                .iter()
                .map(|s| s.situation().map_or("", Scenario::id))
                .collect();
            assert_eq!(got, *want, "{}", input.escape_ascii());
        }
        assert_eq!(trace(b"resign\nwho\n").session, [Scenario::InputAfterEnd]);
    }

    #[test]
    fn decisions_are_named_only_where_they_matter() {
        let cases: &[(&[u8], &[&str])] = &[
            (b"who\nterm\n", &[]),
            (b"resign\n\xff\n", &[]),
            (b"who\n", &["LINE-FINAL-NL", "EOF-EXIT"]),
            (b"who", &["LINE-NO-NL", "EOF-EXIT"]),
            (b"", &["INPUT-EMPTY"]),
            (b"who\0\nterm\n", &["BYTES-ANY"]),
        ];
        for (input, want) in cases {
            let found = decisions(input, &trace(input));
            let ids: Vec<&str> = found.iter().map(|c| c.id()).collect();
            assert_eq!(ids, *want, "{}", input.escape_ascii());
        }
    }
}
