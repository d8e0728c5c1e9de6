//! The class's CSV (RFC 4180): a header, then one row a submission.

use super::page::{compiles_word, memory_word};
use crate::conform::model::{Kept, Marked, Restriction};

/// A field, quoted when it must be.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// What a row says of `rule`: what breaks it, `not checked` or `ok`.
fn restriction(m: &Marked, rule: Restriction) -> String {
    match m.kept(rule) {
        Kept::No(broken) => field(&format!("broken: {}", broken.join("; "))),
        Kept::NotChecked => "not checked".to_owned(),
        Kept::Yes => "ok".to_owned(),
    }
}

/// The CSV of `all`.
pub fn class(all: &[Marked]) -> String {
    let mut header = vec!["name", "compiles"];
    header.extend(Restriction::ALL.iter().map(|r| r.id()));
    header.extend(["correctness", "tests", "memory", "total", "max"]);
    let mut out = header.join(",");
    out.push('\n');
    for m in all {
        let part = |id: &str| {
            m.marks
                .score_of(id)
                .map_or(String::new(), |s| s.to_string())
        };
        let mut row = vec![field(&m.name), compiles_word(m).to_owned()];
        row.extend(Restriction::ALL.iter().map(|&rule| restriction(m, rule)));
        row.push(part("correctness"));
        row.push(part("tests"));
        row.push(memory_word(m).to_owned());
        row.push(m.marks.total.to_string());
        row.push(m.marks.max.to_string());
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}
