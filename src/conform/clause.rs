//! The clauses of the contract (`src/rules/contract.md`), each with the
//! stable id the document shows in square brackets and its kind: the
//! assignment's rule, or a decision this contract made where the
//! assignment is silent. The kit names every disagreement by a clause, so
//! a student can tell "wrong" from "decided differently".
//!
//! The order of [`ALL`] is the order reports use: rules before decisions,
//! each roughly in the order a program meets them.

/// Whose clause it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// The assignment fixes it.
    Rule,
    /// The assignment is silent; this contract chose.
    Decision,
}

impl Kind {
    /// As the contract writes it: `rule` or `decision`.
    pub const fn word(self) -> &'static str {
        match self {
            Kind::Rule => "rule",
            Kind::Decision => "decision",
        }
    }

    /// As reports write it.
    pub const fn phrase(self) -> &'static str {
        match self {
            Kind::Rule => "the assignment's rule",
            Kind::Decision => "this contract's decision",
        }
    }
}

impl serde::Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.word())
    }
}

/// One clause of the contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clause {
    /// The id the contract shows, e.g. `WIN-LINE`.
    pub id: &'static str,
    /// Rule or decision.
    pub kind: Kind,
    /// What it says, in a few words.
    pub title: &'static str,
}

const fn rule(id: &'static str, title: &'static str) -> Clause {
    Clause {
        id,
        kind: Kind::Rule,
        title,
    }
}

const fn decision(id: &'static str, title: &'static str) -> Clause {
    Clause {
        id,
        kind: Kind::Decision,
        title,
    }
}

/// Every clause, rules first.
pub const ALL: &[Clause] = &[
    rule(
        "BOARD",
        "19 columns A to S, 19 rows; a point is a letter and a row",
    ),
    rule("TURN", "Black first; only a placed stone passes the turn"),
    rule("LINE-SPLIT", "lines end at \\n; a \\r is an ordinary byte"),
    rule("WS", "whitespace is space, \\t, \\r, \\v and \\f"),
    rule(
        "CMD-EXACT",
        "commands match byte for byte, case-sensitive, untrimmed",
    ),
    rule("CMD-INVALID", "every other line prints Invalid!"),
    rule("CMD-WHO", "who prints B or W"),
    rule("CMD-HISTORY", "history prints every move, or an empty line"),
    rule("CMD-VIEW", "view prints the hole"),
    rule("CMD-PLACE", "a placed stone prints nothing"),
    rule("CMD-RESIGN", "resign: the player to move loses"),
    rule("CMD-TERM", "term prints nothing and exits 1"),
    rule("OUT-ONLY", "nothing but the replies on stdout"),
    rule(
        "PLACE-POINT",
        "a parameter that is not a point: Invalid coordinate",
    ),
    rule(
        "PLACE-ORDER",
        "a place is judged: not a point, then occupied",
    ),
    rule(
        "PLACE-OCCUPIED",
        "a point holding a stone: Occupied coordinate",
    ),
    rule("PLACE-REJECTED", "a rejected place changes nothing"),
    rule("MIST-HOLE", "a 7x7 hole given by its centre"),
    rule("MIST-START", "the centre starts at J10"),
    rule(
        "MIST-MOVE",
        "a placed stone moves the centre by the formula",
    ),
    rule("MIST-STAYS", "nothing else moves the centre"),
    rule("VIEW-FORMAT", "view: centre, comma, 49 symbols row by row"),
    rule(
        "VIEW-EDGE",
        "the hole is not cut at an edge: x off the board",
    ),
    rule("WIN-LINE", "five in a line through the placed stone wins"),
    rule("WIN-OVERLINE", "six or more in a line win too"),
    rule("TIE", "the 361st stone with no line is a tie"),
    rule("TIE-WIN-FIRST", "a 361st stone that makes a line wins"),
    rule(
        "END-BLOCK",
        "the end of the game: winner, history, thanks; exit 0",
    ),
    rule("END-RESIGN", "on resign the other player wins"),
    rule("END-STOP", "after the end no more input is read"),
    rule("TERM-STOP", "after term no more input is read"),
    rule("EXIT-CODES", "0 for an ended game, 1 for term"),
    decision(
        "LINE-NO-NL",
        "a last line without \\n is a line, and is answered",
    ),
    decision("LINE-FINAL-NL", "a final \\n does not begin one more line"),
    decision("INPUT-EMPTY", "no bytes at all: no reply, exit 1"),
    decision("LINE-LONG", "no limit on the length of a line"),
    decision("BYTES-ANY", "every byte is a byte: no encoding"),
    decision("WS-SET", "nothing but those five bytes is whitespace"),
    decision("MIST-RANGE", "the centre is what the formula gives"),
    decision(
        "EOF-EXIT",
        "end of input, game unfinished: exit 1, nothing more",
    ),
    decision("OUT-FAIL", "stdout that cannot be written: exit 1"),
    decision(
        "PLACE-FORBIDDEN",
        "with --rule renju: Black's forbidden point, Forbidden coordinate",
    ),
];

/// The clause with id `id`.
pub fn find(id: &str) -> Option<&'static Clause> {
    ALL.iter().find(|c| c.id == id)
}

/// The place of `id` in [`ALL`]: the order reports use.
pub fn rank(id: &str) -> usize {
    ALL.iter().position(|c| c.id == id).unwrap_or(ALL.len())
}

/// Every `[ID: kind]` mark in `text`, in order, but those quoted in
/// backticks (the document shows the form itself that way).
pub fn marks(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    for (at, _) in text.match_indices('[') {
        if at > 0 && bytes[at - 1] == b'`' {
            continue;
        }
        let Some(end) = text[at..].find(']') else {
            continue;
        };
        let inside = &text[at + 1..at + end];
        let Some((id, kind)) = inside.split_once(": ") else {
            continue;
        };
        let is_id = !id.is_empty()
            && id
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-');
        if is_id && (kind == "rule" || kind == "decision") {
            found.push((id.to_owned(), kind.to_owned()));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONTRACT: &str = include_str!("../rules/contract.md");

    #[test]
    fn the_document_and_the_table_name_the_same_clauses() {
        let marked = marks(CONTRACT);
        for (id, kind) in &marked {
            let clause = find(id).unwrap_or_else(|| panic!("{id} is in the contract, not in ALL"));
            assert_eq!(clause.kind.word(), kind, "{id}: kind");
        }
        for clause in ALL {
            let times = marked.iter().filter(|(id, _)| id == clause.id).count();
            assert_eq!(
                times, 1,
                "{} is marked {times} times in the contract",
                clause.id
            );
        }
    }

    #[test]
    fn rules_come_before_decisions() {
        let kinds: Vec<Kind> = ALL.iter().map(|c| c.kind).collect();
        let mut sorted = kinds.clone();
        sorted.sort();
        assert_eq!(kinds, sorted);
    }

    #[test]
    fn marks_skip_quoted_forms_and_links() {
        let text = "`[ID: rule]` [A-1: decision] [a link](#x) [B: other] [C: rule]";
        let want = [("A-1", "decision"), ("C", "rule")].map(|(a, b)| (a.to_owned(), b.to_owned()));
        assert_eq!(marks(text), want);
    }
}
