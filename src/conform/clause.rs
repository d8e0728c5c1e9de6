//! The clauses of the contract (`src/rules/contract.md`), each with the
//! stable id the document shows in square brackets and its kind: the
//! assignment's rule, or a decision this contract made where the
//! assignment is silent. The kit names every disagreement by a clause, so
//! a student can tell "wrong" from "decided differently".
//!
//! The order of [`Clause::ALL`] is the order reports use: rules before
//! decisions, each roughly in the order a program meets them.

use std::fmt;

/// Whose clause it is, serialized as [`Kind::word`] says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
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

/// Declares [`Clause`] and its table together: a variant, its id, its
/// kind and its title, one row each.
macro_rules! clauses {
    ($($variant:ident $id:literal $kind:ident $title:literal,)*) => {
        /// One clause of the contract, serialized as its id; its order is
        /// the table's.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
        pub enum Clause {
            $(#[doc = concat!("`", $id, "`: ", $title)] #[serde(rename = $id)] $variant,)*
        }

        impl Clause {
            /// Every clause, rules first.
            pub const ALL: [Clause; [$($id),*].len()] = [$(Clause::$variant),*];

            /// The id the contract shows, e.g. `WIN-LINE`.
            pub const fn id(self) -> &'static str {
                match self { $(Clause::$variant => $id,)* }
            }

            /// Rule or decision.
            pub const fn kind(self) -> Kind {
                match self { $(Clause::$variant => Kind::$kind,)* }
            }

            /// What it says, in a few words.
            pub const fn title(self) -> &'static str {
                match self { $(Clause::$variant => $title,)* }
            }
        }
    };
}

impl Clause {
    /// The clauses an `Invalid!` line with odd whitespace is filed under
    /// by the kind of mistake its trace meets first (a `\r`, a tab, a
    /// space too many, a word too many): where a hint or the line's shape
    /// shows which whitespace mistake it was, it is refiled among them.
    pub const ODD_SPACE: [Clause; 4] = [
        Clause::LineSplit,
        Clause::Ws,
        Clause::CmdExact,
        Clause::CmdInvalid,
    ];
}

#[rustfmt::skip]
clauses! {
    Board "BOARD" Rule "19 columns A to S, 19 rows; a point is a letter and a row",
    Turn "TURN" Rule "Black first; only a placed stone passes the turn",
    LineSplit "LINE-SPLIT" Rule "lines end at \\n; a \\r is an ordinary byte",
    Ws "WS" Rule "whitespace is space, \\t, \\r, \\v and \\f",
    CmdExact "CMD-EXACT" Rule "commands match byte for byte, case-sensitive, untrimmed",
    CmdInvalid "CMD-INVALID" Rule "every other line prints Invalid!",
    CmdWho "CMD-WHO" Rule "who prints B or W",
    CmdHistory "CMD-HISTORY" Rule "history prints every move, or an empty line",
    CmdView "CMD-VIEW" Rule "view prints the hole",
    CmdPlace "CMD-PLACE" Rule "a placed stone prints nothing",
    CmdResign "CMD-RESIGN" Rule "resign: the player to move loses",
    CmdTerm "CMD-TERM" Rule "term prints nothing and exits 1",
    OutOnly "OUT-ONLY" Rule "nothing but the replies on stdout",
    PlacePoint "PLACE-POINT" Rule "a parameter that is not a point: Invalid coordinate",
    PlaceOrder "PLACE-ORDER" Rule "a place is judged: not a point, then occupied",
    PlaceOccupied "PLACE-OCCUPIED" Rule "a point holding a stone: Occupied coordinate",
    PlaceRejected "PLACE-REJECTED" Rule "a rejected place changes nothing",
    MistHole "MIST-HOLE" Rule "a 7x7 hole given by its centre",
    MistStart "MIST-START" Rule "the centre starts at J10",
    MistMove "MIST-MOVE" Rule "a placed stone moves the centre by the formula",
    MistStays "MIST-STAYS" Rule "nothing else moves the centre",
    ViewFormat "VIEW-FORMAT" Rule "view: centre, comma, 49 symbols row by row",
    ViewEdge "VIEW-EDGE" Rule "the hole is not cut at an edge: x off the board",
    WinLine "WIN-LINE" Rule "five in a line through the placed stone wins",
    WinOverline "WIN-OVERLINE" Rule "six or more in a line win too",
    Tie "TIE" Rule "the 361st stone with no line is a tie",
    TieWinFirst "TIE-WIN-FIRST" Rule "a 361st stone that makes a line wins",
    EndBlock "END-BLOCK" Rule "the end of the game: winner, history, thanks; exit 0",
    EndResign "END-RESIGN" Rule "on resign the other player wins",
    EndStop "END-STOP" Rule "after the end no more input is read",
    TermStop "TERM-STOP" Rule "after term no more input is read",
    ExitCodes "EXIT-CODES" Rule "0 for an ended game, 1 for term",
    LineNoNl "LINE-NO-NL" Decision "a last line without \\n is a line, and is answered",
    LineFinalNl "LINE-FINAL-NL" Decision "a final \\n does not begin one more line",
    InputEmpty "INPUT-EMPTY" Decision "no bytes at all: no reply, exit 1",
    LineLong "LINE-LONG" Decision "no limit on the length of a line",
    BytesAny "BYTES-ANY" Decision "every byte is a byte: no encoding",
    WsSet "WS-SET" Decision "nothing but those five bytes is whitespace",
    MistRange "MIST-RANGE" Decision "the centre is what the formula gives",
    EofExit "EOF-EXIT" Decision "end of input, game unfinished: exit 1, nothing more",
    OutFail "OUT-FAIL" Decision "stdout that cannot be written: exit 1",
    PlaceForbidden "PLACE-FORBIDDEN" Decision "with --rule renju: Black's forbidden point, Forbidden coordinate",
}

/// The ids of `clauses`, joined by commas.
pub fn ids(clauses: &[Clause]) -> String {
    clauses
        .iter()
        .map(|c| c.id())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Its id, as reports print it (padding as a `str` pads).
impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.id())
    }
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
            let found = Clause::ALL.iter().find(|c| c.id() == id);
            let found = found.map(|c| c.kind().word());
            assert_eq!(
                found,
                Some(kind.as_str()),
                "{id}: not in Clause::ALL, or its kind"
            );
        }
        for clause in Clause::ALL {
            let times = marked.iter().filter(|(id, _)| id == clause.id()).count();
            assert_eq!(times, 1, "{clause} is marked {times} times in the contract");
        }
    }

    #[test]
    fn rules_come_before_decisions() {
        let kinds: Vec<Kind> = Clause::ALL.map(Clause::kind).to_vec();
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
