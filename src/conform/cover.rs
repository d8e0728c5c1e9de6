//! `cover`: which scenarios a folder of cases exercises, found by running
//! each case through the reference ([`trace`]) and recording what
//! happened, never by reading file names. Each scenario is tied to the
//! clause of the contract it exercises, and has an input that would cover
//! it, shown where no case does.

use std::io::Write;
use std::path::PathBuf;

use super::model::{Covered, ScenarioCovered};
use super::scenario::Scenario;
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

/// The scenarios an input covers, as the reference plays it.
pub fn covered_by(input: &[u8]) -> Vec<Scenario> {
    let trace = trace::trace(input);
    let mut found: Vec<Scenario> = trace
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
    let mut first: Vec<Option<String>> = vec![None; Scenario::ALL.len()];
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
        for (slot, scenario) in first.iter_mut().zip(Scenario::ALL) {
            if slot.is_none() && found.contains(&scenario) {
                *slot = Some(report::shown_path(path));
            }
        }
    }
    let covered = Covered {
        cases: read,
        covered: first.iter().filter(|s| s.is_some()).count(),
        total: Scenario::ALL.len(),
        scenarios: Scenario::ALL
            .into_iter()
            .zip(first)
            .map(|(s, covered_by)| ScenarioCovered {
                id: s,
                clause: s.clause(),
                kind: s.clause().kind(),
                what: s.what(),
                covered_by,
                example: report::escape(s.example()),
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
    use super::super::generate;
    use super::*;

    /// Each scenario's clause is a [`Clause`] and the trace records only
    /// [`Scenario`]s, so both are checked by construction; what is left
    /// to test is that every scenario's example really covers it.
    #[test]
    fn every_scenario_is_covered_by_its_example() {
        for scenario in Scenario::ALL {
            // Four examples describe inputs that cannot be shown on a line:
            // those are made here.
            let input = match scenario {
                Scenario::EmptyInput => Vec::new(),
                Scenario::LongLine => [&b"place "[..], &[b'A'; 2000], b"\nterm\n"].concat(),
                Scenario::Tie => generate::full_board_game(false),
                Scenario::Win361stStone => generate::full_board_game(true),
                _ => scenario.example().to_vec(),
            };
            assert!(!input.starts_with(b"("), "{scenario}: no input made");
            let found = covered_by(&input);
            assert!(
                found.contains(&scenario),
                "{scenario}: its example covers {found:?}"
            );
        }
    }
}
