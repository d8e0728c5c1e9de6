//! From what was found to marks: each part's score, what it is based on,
//! and the total. The assignment's scheme: nothing without a program that
//! compiles, zero for a broken restriction, 8 for correctness and 2 for
//! the student's tests by default (`--weights`).
//!
//! - correctness: the weight times the share of the suite's cases passed,
//!   each of its topics (folders) weighing the same, of those whose
//!   expected output the assignment's rules alone decide
//!   (a case that depends on a decision of this contract, such as what to
//!   do at end of input, is reported but not scored: the student was
//!   never told; `--score-decisions` scores them too). Fuzzing is
//!   reported, not scored: the same program gets
//!   the same mark on every run.
//! - tests: the weight times the share of the assignment's scenarios
//!   (`cover`'s, rules only) that the student's right tests cover.
//! - memory (weight 0 by default): the whole weight when the memory
//!   checker found no error and the peak stayed within `--peak-limit`,
//!   none otherwise; not counted at all when no checker could run.

use super::super::model::{Marked, Marks, MemoryVerdict, Part, Tally};
use super::error::WeightsError;

/// How much each part is worth; a part of weight 0 is reported, not
/// counted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Correctness on the suite.
    pub correctness: f64,
    /// The student's tests.
    pub tests: f64,
    /// No memory errors.
    pub memory: f64,
    /// Whether correctness scores the cases that depend on this
    /// contract's decisions too (`--score-decisions`), not only those the
    /// assignment's rules alone decide.
    pub decisions: bool,
}

/// The course's weights, as `--weights` takes them: the default.
pub const COURSE: &str = "correctness=8,tests=2,memory=0";

impl Default for Weights {
    fn default() -> Weights {
        let none = Weights {
            correctness: 0.0,
            tests: 0.0,
            memory: 0.0,
            decisions: false,
        };
        none.with(COURSE).unwrap_or(none)
    }
}

impl Weights {
    /// Reads `correctness=8,tests=2,memory=1`: the parts named are set,
    /// the others keep their default.
    ///
    /// # Errors
    ///
    /// What is wrong with the text.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        Weights::default().with(text)
    }

    fn with(mut self, text: &str) -> Result<Weights, WeightsError> {
        for item in text.split(',').filter(|i| !i.trim().is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| WeightsError::NotPartWeight(item.to_owned()))?;
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite() && *v >= 0.0 && *v <= 1000.0)
                .ok_or_else(|| WeightsError::NotAWeight(value.to_owned()))?;
            match name.trim() {
                "correctness" => self.correctness = value,
                "tests" => self.tests = value,
                "memory" => self.memory = value,
                other => return Err(WeightsError::NotAPart(other.to_owned())),
            }
        }
        Ok(self)
    }
}

/// Rounds to two decimals, as marks are shown.
fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// `part` of `whole` as a share, 0 of 0 being none.
fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// The marks of `marked` under `weights`: a part of weight 0 is left
/// out, and so is memory when no checker could run.
pub fn marks(marked: &Marked, weights: &Weights) -> Marks {
    let parts: Vec<Part> = [
        (weights.correctness > 0.0)
            .then(|| correctness(marked, weights.correctness, weights.decisions)),
        (weights.tests > 0.0).then(|| tests(marked, weights.tests)),
        (weights.memory > 0.0)
            .then(|| memory(marked, weights.memory))
            .flatten(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let max = parts.iter().map(|p| p.max).sum();
    let sum: f64 = parts.iter().map(|p| p.score).sum();
    let zeroed = zeroed(marked);
    Marks {
        total: if zeroed.is_some() { 0.0 } else { round(sum) },
        parts,
        max,
        zeroed,
    }
}

/// A part worth nothing, and why.
fn none(id: &'static str, max: f64, basis: &str) -> Part {
    Part {
        id,
        score: 0.0,
        max,
        basis: basis.into(),
    }
}

/// Correctness, worth `w`: the share of the rules' cases passed (and of
/// the decisions' too, when they are scored), each topic of the suite
/// weighing the same however many cases it has (see [`by_topic`]).
fn correctness(marked: &Marked, w: f64, decisions: bool) -> Part {
    let Some(c) = &marked.correctness else {
        return none("correctness", w, "not run: the program did not compile");
    };
    let counted = |rules: Tally, decided: Tally| {
        if decisions {
            Tally {
                passed: rules.passed + decided.passed,
                run: rules.run + decided.run,
            }
        } else {
            rules
        }
    };
    let which = if decisions {
        ", those that depend on this contract's decisions included (--score-decisions)"
    } else {
        " whose expected output the assignment's rules alone decide"
    };
    let Tally { passed, run } = counted(c.rules, c.decisions);
    let topics: Vec<Tally> = c
        .topics
        .iter()
        .map(|t| counted(t.rules, t.decisions))
        .filter(|t| t.run > 0)
        .collect();
    let (score, basis) = match by_topic(&topics) {
        Some(mean) => (
            mean,
            format!(
                "{w} × {}, the mean of {} topics' shares passed (each folder of the suite weighs the same; {passed}/{run} in all): the cases of {}{which}",
                round3(mean),
                topics.len(),
                c.suite
            ),
        ),
        None => (
            share(passed, run),
            format!("{w} × {passed}/{run}: the cases of {}{which}", c.suite),
        ),
    };
    Part {
        id: "correctness",
        score: round(w * score),
        max: w,
        basis,
    }
}

/// The mean of the topics' shares passed, where there are two topics or
/// more. A hidden suite tests each rule with a few cases; a suite whose
/// folders hold 43 cases of coordinates and 5 of ties would otherwise
/// make a coordinate bug cost nine times what a tie bug costs. On 17
/// student programs, this ranks them as a 98-case suite of the rules
/// does with a rank correlation of 0.963, against 0.921 for the share of
/// all cases (`docs/marking.md`).
fn by_topic(topics: &[Tally]) -> Option<f64> {
    (topics.len() > 1)
        .then(|| topics.iter().map(|t| share(t.passed, t.run)).sum::<f64>() / topics.len() as f64)
}

/// Rounds to three decimals, as a share is shown.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Tests, worth `w`: the share of the assignment's scenarios its right
/// tests cover.
fn tests(marked: &Marked, w: f64) -> Part {
    let t = &marked.tests;
    let (covered, total) = t.covered;
    Part {
        id: "tests",
        score: round(w * share(covered, total)),
        max: w,
        basis: match &t.folder {
            None if marked.folder_not_read().is_some() => {
                "not read: its folder was not read".into()
            }
            None => "no tests/ folder".into(),
            Some(_) => format!(
                "{w} × {covered}/{total}: the assignment's scenarios covered by its {} \
                 right tests",
                t.cases - t.wrong.len() - t.no_out.len()
            ),
        },
    }
}

/// Memory, worth `w` when no error was found and the peak is within the
/// limit; none when no checker could run.
fn memory(marked: &Marked, w: f64) -> Option<Part> {
    let Some(m) = &marked.memory else {
        return Some(none("memory", w, "not run: the program did not compile"));
    };
    let tool = m.tool.as_ref().ok()?;
    let verdict = match m.verdict() {
        MemoryVerdict::Errors => "errors",
        MemoryVerdict::OverLimit => "no error, but the peak is over the limit",
        MemoryVerdict::Ok => "no error",
        // The checker was there: the program's runs gave it nothing to
        // check, which is the program's doing, not the marker's.
        MemoryVerdict::NotChecked if m.killed > 0 => {
            "not checked: each run under it was killed at a limit"
        }
        MemoryVerdict::NotChecked => "not checked: no case of the suite ended by itself",
    };
    Some(Part {
        id: "memory",
        score: if m.verdict() == MemoryVerdict::Ok {
            w
        } else {
            0.0
        },
        max: w,
        basis: format!("{} on {} cases: {verdict}", tool.name(), m.cases.0),
    })
}

/// Why the total is 0 whatever the parts: a folder not read, a program
/// that does not compile, or a restriction broken.
fn zeroed(marked: &Marked) -> Option<String> {
    if marked.folder_not_read().is_some() {
        Some("its folder was not read".to_owned())
    } else if !marked.build.compiled {
        Some("it does not compile".to_owned())
    } else if !marked.broken.is_empty() {
        let mut rules: Vec<&str> = marked.broken.iter().map(|v| v.rule.title()).collect();
        rules.dedup();
        Some(format!("it breaks a restriction ({})", rules.join("; ")))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conform::model::{Build, Correctness, Memory, Tool, Topic};

    #[test]
    fn memory_over_the_peak_limit_scores_nothing_and_says_why() {
        let memory = |peak| Memory {
            tool: Ok(Tool::Valgrind),
            cases: (4, 9),
            killed: 0,
            errors: Vec::new(),
            peak: Ok((peak, "a.in".to_owned())),
            limit_kib: Some(1024),
        };
        let weights = Weights::parse("memory=1").expect("weights");
        let part = |peak| {
            let marked = Marked {
                build: Build {
                    compiled: true,
                    ..Build::default()
                },
                memory: Some(memory(peak)),
                ..Marked::default()
            };
            marks(&marked, &weights)
                .parts
                .into_iter()
                .find(|p| p.id == "memory")
                .map(|p| (p.score, p.basis))
        };
        assert_eq!(
            part(2000),
            Some((
                0.0,
                "valgrind memcheck on 4 cases: no error, but the peak is over the limit".into()
            ))
        );
        assert_eq!(
            part(1000),
            Some((1.0, "valgrind memcheck on 4 cases: no error".into()))
        );
    }

    #[test]
    fn decisions_are_scored_only_when_asked() {
        let marked = Marked {
            correctness: Some(Correctness {
                rules: Tally { passed: 9, run: 10 },
                decisions: Tally { passed: 0, run: 10 },
                suite: "s".into(),
                ..Correctness::default()
            }),
            ..Marked::default()
        };
        let correctness = |weights: Weights| {
            let marks = marks(&marked, &weights);
            let part = marks.parts.into_iter().find(|p| p.id == "correctness");
            part.map(|p| (p.score, p.basis))
        };
        let rules = Weights::default();
        let (score, basis) = correctness(rules).expect("correctness");
        assert_eq!(score, 7.2);
        assert!(
            basis.starts_with("8 × 9/10: the cases of s whose"),
            "{basis}"
        );
        let all = Weights {
            decisions: true,
            ..rules
        };
        let (score, basis) = correctness(all).expect("correctness");
        assert_eq!(score, 3.6);
        assert!(
            basis.starts_with("8 × 9/20: the cases of s, those that depend"),
            "{basis}"
        );
    }

    #[test]
    fn each_topic_weighs_the_same_however_many_cases_it_has() {
        let topic = |name: &str, passed, run| Topic {
            topic: name.into(),
            rules: Tally { passed, run },
            decisions: Tally { passed: 0, run: 1 },
        };
        // 40 cases of coordinates, all passed; 4 of ties, none.
        let marked = Marked {
            correctness: Some(Correctness {
                rules: Tally {
                    passed: 40,
                    run: 44,
                },
                decisions: Tally { passed: 0, run: 2 },
                topics: vec![topic("coord", 40, 40), topic("tie", 0, 4)],
                suite: "s".into(),
                ..Correctness::default()
            }),
            ..Marked::default()
        };
        let part = marks(&marked, &Weights::default()).parts.remove(0);
        assert_eq!(part.score, 4.0, "{}", part.basis);
        assert!(
            part.basis.starts_with(
                "8 × 0.5, the mean of 2 topics' shares passed (each folder of the suite weighs the same; 40/44 in all)"
            ),
            "{}",
            part.basis
        );
        // With the decisions scored, each topic counts its decisions too.
        let all = Weights {
            decisions: true,
            ..Weights::default()
        };
        let part = marks(&marked, &all).parts.remove(0);
        assert_eq!(part.score, round(8.0 * (40.0 / 41.0 + 0.0) / 2.0));
    }

    #[test]
    fn weights_name_their_parts() {
        let why = |text| Weights::parse(text).map_err(|e| e.to_string());
        assert_eq!(Weights::parse(""), Ok(Weights::default()));
        assert_eq!(
            Weights::parse("correctness=10,tests=0,memory=1"),
            Ok(Weights {
                correctness: 10.0,
                tests: 0.0,
                memory: 1.0,
                decisions: false,
            })
        );
        assert_eq!(
            why("style=1"),
            Err("\"style\" is not a part (correctness, tests or memory)".into())
        );
        assert_eq!(
            why("tests=-1"),
            Err("\"-1\" is not a weight from 0 to 1000".into())
        );
        assert_eq!(why("tests"), Err("\"tests\" is not PART=WEIGHT".into()));
    }
}
