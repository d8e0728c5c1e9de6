//! `cover`: which scenarios a folder of cases exercises, found by running
//! each case through the reference ([`trace`]) and recording what
//! happened, never by reading file names. Each scenario is tied to the
//! clause of the contract it exercises, and has an input that would cover
//! it, shown where no case does.

use std::io::Write;
use std::path::PathBuf;

use super::clause::{self, Kind};
use super::model::{Covered, ScenarioCovered};
use super::{ConformError, Format, Outcome, ReadArgs, case, report, trace};

/// What `cover` reads, and how it reports.
#[derive(Clone, Debug)]
pub struct CoverOptions {
    /// Folders and `.in` files.
    pub paths: Vec<PathBuf>,
    /// Text or JSON.
    pub format: Format,
    /// How a case's `.args` are read; cases with `.args` play another
    /// game than the contract's, so they are not counted.
    pub read_args: ReadArgs,
}

/// One scenario: its id (as [`trace`] records it), its clause, what it
/// is, and an input that covers it.
#[derive(Clone, Copy, Debug)]
pub struct Scenario {
    /// The id.
    pub id: &'static str,
    /// The clause it exercises.
    pub clause: &'static str,
    /// What happens, in a few words.
    pub what: &'static str,
    /// An input that covers it.
    pub example: &'static [u8],
}

const fn s(
    id: &'static str,
    clause: &'static str,
    what: &'static str,
    example: &'static [u8],
) -> Scenario {
    Scenario {
        id,
        clause,
        what,
        example,
    }
}

/// Five in a row for Black along row 5, away from every edge.
const ROW: &[u8] =
    b"place C5\nplace C7\nplace D5\nplace D7\nplace E5\nplace E7\nplace F5\nplace F7\nplace G5\n";

/// Every scenario, in the order of the table.
pub const SCENARIOS: &[Scenario] = &[
    s("who-black", "CMD-WHO", "who, Black to move", b"who\nterm\n"),
    s("who-white", "CMD-WHO", "who, White to move", b"place A1\nwho\nterm\n"),
    s("history-empty", "CMD-HISTORY", "history before the first move", b"history\nterm\n"),
    s("history-moves", "CMD-HISTORY", "history after moves", b"place A1\nhistory\nterm\n"),
    s("view-start", "MIST-START", "view before the first move", b"view\nterm\n"),
    s("view-moved", "MIST-MOVE", "view after a stone moved the hole", b"place J10\nview\nterm\n"),
    s("view-after-rejected", "MIST-STAYS", "view after a rejected place", b"place A1\nplace A1\nview\nterm\n"),
    s("place-ok", "CMD-PLACE", "a stone placed, silently", b"place A1\nterm\n"),
    s("occupied", "PLACE-OCCUPIED", "place on a stone: Occupied coordinate", b"place A1\nplace A1\nterm\n"),
    s("resign-black", "END-RESIGN", "Black resigns", b"resign\n"),
    s("resign-white", "END-RESIGN", "White resigns", b"place A1\nresign\n"),
    s("term-start", "CMD-TERM", "term before the first move", b"term\n"),
    s("term-mid-game", "CMD-TERM", "term mid-game", b"place A1\nterm\n"),
    s("invalid-empty", "CMD-INVALID", "Invalid!: an empty line", b"\nterm\n"),
    s("invalid-leading-space", "CMD-EXACT", "Invalid!: leading whitespace", b" who\nterm\n"),
    s("invalid-trailing-space", "CMD-EXACT", "Invalid!: trailing whitespace", b"who \nterm\n"),
    s("invalid-double-space", "CMD-EXACT", "Invalid!: two whitespace bytes in a row", b"place  A1\nterm\n"),
    s("invalid-tab", "WS", "Invalid!: a tab", b"place\tA1\nterm\n"),
    s("invalid-cr", "LINE-SPLIT", "Invalid!: a CR (Windows line ending)", b"who\r\nterm\n"),
    s("invalid-case", "CMD-EXACT", "Invalid!: wrong case", b"WHO\nterm\n"),
    s("invalid-extra-parameter", "CMD-INVALID", "Invalid!: an extra parameter", b"place A1 B2\nterm\n"),
    s("invalid-place-alone", "CMD-INVALID", "Invalid!: place with no parameter", b"place\nterm\n"),
    s("invalid-unknown", "CMD-INVALID", "Invalid!: an unknown word", b"hello\nterm\n"),
    s("coord-column", "PLACE-POINT", "Invalid coordinate: no column A to S", b"place T1\nterm\n"),
    s("coord-row-0", "PLACE-POINT", "Invalid coordinate: row 0", b"place A0\nterm\n"),
    s("coord-row-20", "PLACE-POINT", "Invalid coordinate: row 20 or more", b"place A20\nterm\n"),
    s("coord-leading-zero", "PLACE-POINT", "Invalid coordinate: a leading zero", b"place A01\nterm\n"),
    s("coord-sign", "PLACE-POINT", "Invalid coordinate: a sign", b"place A+1\nterm\n"),
    s("coord-lower-case", "PLACE-POINT", "Invalid coordinate: lower case", b"place a1\nterm\n"),
    s("coord-no-row", "PLACE-POINT", "Invalid coordinate: no row", b"place A\nterm\n"),
    s("coord-trailing", "PLACE-POINT", "Invalid coordinate: bytes after the row", b"place A1x\nterm\n"),
    s("coord-other", "PLACE-POINT", "Invalid coordinate: a row that is no number", b"place AB\nterm\n"),
    s("win-row", "WIN-LINE", "a win along a row", ROW),
    s("win-column", "WIN-LINE", "a win along a column", b"place E3\nplace G3\nplace E4\nplace G4\nplace E5\nplace G5\nplace E6\nplace G6\nplace E7\n"),
    s("win-diagonal", "WIN-LINE", "a win along a diagonal", b"place C3\nplace C4\nplace D4\nplace C5\nplace E5\nplace C6\nplace F6\nplace C8\nplace G7\n"),
    s("win-anti-diagonal", "WIN-LINE", "a win along an anti-diagonal", b"place C7\nplace A1\nplace D6\nplace A2\nplace E5\nplace A3\nplace F4\nplace A4\nplace G3\n"),
    s("win-inside", "WIN-LINE", "a win away from every edge", ROW),
    s("win-on-edge", "WIN-LINE", "a win touching an edge", b"place A3\nplace B3\nplace A4\nplace B4\nplace A5\nplace B5\nplace A6\nplace B6\nplace A7\n"),
    s("win-edge-left", "WIN-LINE", "a win touching column A", b"place A3\nplace B3\nplace A4\nplace B4\nplace A5\nplace B5\nplace A6\nplace B6\nplace A7\n"),
    s("win-edge-right", "WIN-LINE", "a win touching column S", b"place S3\nplace R3\nplace S4\nplace R4\nplace S5\nplace R5\nplace S6\nplace R6\nplace S7\n"),
    s("win-edge-bottom", "WIN-LINE", "a win touching row 1", b"place C1\nplace C2\nplace D1\nplace D2\nplace E1\nplace E2\nplace F1\nplace F2\nplace G1\n"),
    s("win-edge-top", "WIN-LINE", "a win touching row 19", b"place C19\nplace C18\nplace D19\nplace D18\nplace E19\nplace E18\nplace F19\nplace F18\nplace G19\n"),
    s("win-corner", "WIN-LINE", "a win touching a corner", b"place A1\nplace B2\nplace A2\nplace B3\nplace A3\nplace B4\nplace A4\nplace B5\nplace A5\n"),
    s("win-overline", "WIN-OVERLINE", "a win by six or more", b"place C5\nplace C7\nplace D5\nplace D7\nplace E5\nplace E7\nplace G5\nplace G7\nplace H5\nplace H7\nplace F5\n"),
    s("win-white", "WIN-LINE", "White wins", b"place A1\nplace C5\nplace A3\nplace D5\nplace A5\nplace E5\nplace A7\nplace F5\nplace A9\nplace G5\n"),
    s("win-361st-stone", "TIE-WIN-FIRST", "the 361st stone makes a line: a win", b"(a full board whose last stone makes five)\n"),
    s("tie", "TIE", "the 361st stone makes no line: a tie", b"(a full board with no five)\n"),
    s("input-after-end", "END-STOP", "input after the end of the game", b"resign\nwho\n"),
    s("input-after-term", "TERM-STOP", "input after term", b"term\nwho\n"),
    s("hole-cut-left", "VIEW-EDGE", "the hole cut by the left edge", b"place L1\nview\nterm\n"),
    s("hole-cut-right", "VIEW-EDGE", "the hole cut by the right edge", b"place I1\nview\nterm\n"),
    s("hole-cut-bottom", "VIEW-EDGE", "the hole cut by the bottom edge", b"place A1\nview\nterm\n"),
    s("hole-cut-top", "VIEW-EDGE", "the hole cut by the top edge", b"place A2\nview\nterm\n"),
    s("eof-no-term", "EOF-EXIT", "end of input without term", b"who\n"),
    s("last-line-no-newline", "LINE-NO-NL", "a last line without \\n", b"who"),
    s("empty-input", "INPUT-EMPTY", "no input at all", b"(no bytes at all)"),
    s("odd-byte", "BYTES-ANY", "a byte the assignment does not speak of", b"who\x00\nterm\n"),
    s("lookalike-byte", "WS-SET", "a whitespace look-alike in a parameter", b"place A1\xc2\xa0\nterm\n"),
    s("long-line", "LINE-LONG", "a line longer than 64 bytes", b"(place followed by 2000 bytes of A)\n"),
];

/// The scenarios an input covers, by id, as the reference plays it.
pub fn covered_by(input: &[u8]) -> Vec<&'static str> {
    let trace = trace::trace(input);
    let mut found: Vec<&'static str> = trace
        .steps
        .iter()
        .flat_map(|s| s.scenarios.iter().copied())
        .chain(trace.session.iter().copied())
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// Reads every case under the paths, records which scenarios each covers
/// and prints the table, then `covered X of Y scenarios`.
///
/// # Errors
///
/// [`ConformError`] if a path or case cannot be read, or the report
/// cannot be written.
pub fn cover(opts: &CoverOptions, out: &mut dyn Write) -> Result<Outcome, ConformError> {
    let paths = case::find(&opts.paths)?;
    let mut first: Vec<Option<String>> = vec![None; SCENARIOS.len()];
    let mut read = 0;
    for path in &paths {
        if case::unreadable(path).is_some() {
            continue;
        }
        let case = case::read(path)?;
        if case.has_args {
            continue;
        }
        read += 1;
        let found = covered_by(&case.input);
        for (slot, scenario) in first.iter_mut().zip(SCENARIOS) {
            if slot.is_none() && found.contains(&scenario.id) {
                *slot = Some(report::shown_path(path));
            }
        }
    }
    let covered = Covered {
        cases: read,
        covered: first.iter().filter(|s| s.is_some()).count(),
        total: SCENARIOS.len(),
        scenarios: SCENARIOS
            .iter()
            .zip(first)
            .map(|(s, covered_by)| ScenarioCovered {
                id: s.id,
                clause: s.clause,
                kind: clause::find(s.clause).map_or(Kind::Rule, |c| c.kind),
                what: s.what,
                covered_by,
                example: report::escape(s.example),
            })
            .collect(),
    };
    match opts.format {
        Format::Json => out.write_all(report::json::rows(&covered).as_bytes())?,
        Format::Text | Format::Junit => report::text::cover(out, &covered)?,
    }
    out.flush()?;
    Ok(if covered.covered == covered.total && read > 0 {
        Outcome::Passed
    } else {
        Outcome::Failed
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_is_tied_to_a_clause_and_its_example_covers_it() {
        assert!(SCENARIOS.len() >= 40, "{} scenarios", SCENARIOS.len());
        for scenario in SCENARIOS {
            assert!(
                clause::find(scenario.clause).is_some(),
                "{}: clause {}",
                scenario.id,
                scenario.clause
            );
            // Four examples describe inputs that cannot be shown on a line.
            if scenario.example.starts_with(b"(") {
                continue;
            }
            assert!(
                covered_by(scenario.example).contains(&scenario.id),
                "{}: its example covers {:?}",
                scenario.id,
                covered_by(scenario.example)
            );
        }
    }

    #[test]
    fn every_scenario_the_trace_records_is_in_the_table() {
        let mut seen = std::collections::BTreeSet::new();
        for index in 0..800 {
            let input = super::super::generate::case(&mut crate::rng::Rng::for_case(4, index));
            seen.extend(covered_by(&input));
        }
        for id in seen {
            assert!(
                SCENARIOS.iter().any(|s| s.id == id),
                "{id} is not in SCENARIOS"
            );
        }
    }
}
