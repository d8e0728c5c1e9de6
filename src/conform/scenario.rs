//! The assignment's scenarios, one enum with its table: each one's id
//! (as reports print it), the clause of the contract it exercises, what
//! it is in words, and an input that covers it. The trace records them
//! as it plays a session; `cover` counts them over a folder of cases.
//! They live apart from `cover` because the model, which `cover` fills,
//! names them too.

use std::fmt;

use super::clause::Clause;

/// Declares [`Scenario`] and its table together: a variant, its id (as
/// reports print it), the clause it exercises, what it is, and an input
/// that covers it.
macro_rules! scenarios {
    ($($variant:ident $id:literal $clause:ident $what:literal $example:expr,)*) => {
        /// One scenario, serialized as its id: a situation [`trace`](super::trace)
        /// records, tied to a clause.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
        pub enum Scenario {
            $(#[doc = concat!("`", $id, "`: ", $what)] #[serde(rename = $id)] $variant,)*
        }

        impl Scenario {
            /// Every scenario, in the order of the table.
            pub const ALL: [Scenario; [$($id),*].len()] = [$(Scenario::$variant),*];

            /// The id, e.g. `win-on-edge`.
            pub const fn id(self) -> &'static str {
                match self { $(Scenario::$variant => $id,)* }
            }

            /// The clause it exercises.
            pub const fn clause(self) -> Clause {
                match self { $(Scenario::$variant => Clause::$clause,)* }
            }

            /// What happens, in a few words.
            pub const fn what(self) -> &'static str {
                match self { $(Scenario::$variant => $what,)* }
            }

            /// An input that covers it (or, in parentheses, one described).
            pub const fn example(self) -> &'static [u8] {
                match self { $(Scenario::$variant => $example,)* }
            }
        }
    };
}

/// Five in a row for Black along row 5, away from every edge.
const ROW: &[u8] =
    b"place C5\nplace C7\nplace D5\nplace D7\nplace E5\nplace E7\nplace F5\nplace F7\nplace G5\n";

#[rustfmt::skip]
scenarios! {
    WhoBlack "who-black" CmdWho "who, Black to move" b"who\nterm\n",
    WhoWhite "who-white" CmdWho "who, White to move" b"place A1\nwho\nterm\n",
    HistoryEmpty "history-empty" CmdHistory "history before the first move" b"history\nterm\n",
    HistoryMoves "history-moves" CmdHistory "history after moves" b"place A1\nhistory\nterm\n",
    ViewStart "view-start" MistStart "view before the first move" b"view\nterm\n",
    ViewMoved "view-moved" MistMove "view after a stone moved the hole" b"place J10\nview\nterm\n",
    ViewAfterRejected "view-after-rejected" MistStays "view after a rejected place" b"place A1\nplace A1\nview\nterm\n",
    PlaceOk "place-ok" CmdPlace "a stone placed, silently" b"place A1\nterm\n",
    Occupied "occupied" PlaceOccupied "place on a stone: Occupied coordinate" b"place A1\nplace A1\nterm\n",
    ResignBlack "resign-black" EndResign "Black resigns" b"resign\n",
    ResignWhite "resign-white" EndResign "White resigns" b"place A1\nresign\n",
    TermStart "term-start" CmdTerm "term before the first move" b"term\n",
    TermMidGame "term-mid-game" CmdTerm "term mid-game" b"place A1\nterm\n",
    InvalidEmpty "invalid-empty" CmdInvalid "Invalid!: an empty line" b"\nterm\n",
    InvalidLeadingSpace "invalid-leading-space" CmdExact "Invalid!: leading whitespace" b" who\nterm\n",
    InvalidTrailingSpace "invalid-trailing-space" CmdExact "Invalid!: trailing whitespace" b"who \nterm\n",
    InvalidDoubleSpace "invalid-double-space" CmdExact "Invalid!: two whitespace bytes in a row" b"place  A1\nterm\n",
    InvalidTab "invalid-tab" Ws "Invalid!: a tab" b"place\tA1\nterm\n",
    InvalidCr "invalid-cr" LineSplit "Invalid!: a CR (Windows line ending)" b"who\r\nterm\n",
    InvalidCase "invalid-case" CmdExact "Invalid!: wrong case" b"WHO\nterm\n",
    InvalidExtraParameter "invalid-extra-parameter" CmdInvalid "Invalid!: an extra parameter" b"place A1 B2\nterm\n",
    InvalidPlaceAlone "invalid-place-alone" CmdInvalid "Invalid!: place with no parameter" b"place\nterm\n",
    InvalidUnknown "invalid-unknown" CmdInvalid "Invalid!: an unknown word" b"hello\nterm\n",
    CoordColumn "coord-column" PlacePoint "Invalid coordinate: no column A to S" b"place T1\nterm\n",
    CoordRow0 "coord-row-0" PlacePoint "Invalid coordinate: row 0" b"place A0\nterm\n",
    CoordRow20 "coord-row-20" PlacePoint "Invalid coordinate: row 20 or more" b"place A20\nterm\n",
    CoordLeadingZero "coord-leading-zero" PlacePoint "Invalid coordinate: a leading zero" b"place A01\nterm\n",
    CoordSign "coord-sign" PlacePoint "Invalid coordinate: a sign" b"place A+1\nterm\n",
    CoordLowerCase "coord-lower-case" PlacePoint "Invalid coordinate: lower case" b"place a1\nterm\n",
    CoordNoRow "coord-no-row" PlacePoint "Invalid coordinate: no row" b"place A\nterm\n",
    CoordTrailing "coord-trailing" PlacePoint "Invalid coordinate: bytes after the row" b"place A1x\nterm\n",
    CoordOther "coord-other" PlacePoint "Invalid coordinate: a row that is no number" b"place AB\nterm\n",
    WinRow "win-row" WinLine "a win along a row" ROW,
    WinColumn "win-column" WinLine "a win along a column" b"place E3\nplace G3\nplace E4\nplace G4\nplace E5\nplace G5\nplace E6\nplace G6\nplace E7\n",
    WinDiagonal "win-diagonal" WinLine "a win along a diagonal" b"place C3\nplace C4\nplace D4\nplace C5\nplace E5\nplace C6\nplace F6\nplace C8\nplace G7\n",
    WinAntiDiagonal "win-anti-diagonal" WinLine "a win along an anti-diagonal" b"place C7\nplace A1\nplace D6\nplace A2\nplace E5\nplace A3\nplace F4\nplace A4\nplace G3\n",
    WinInside "win-inside" WinLine "a win away from every edge" ROW,
    WinOnEdge "win-on-edge" WinLine "a win touching an edge" b"place A3\nplace B3\nplace A4\nplace B4\nplace A5\nplace B5\nplace A6\nplace B6\nplace A7\n",
    WinEdgeLeft "win-edge-left" WinLine "a win touching column A" b"place A3\nplace B3\nplace A4\nplace B4\nplace A5\nplace B5\nplace A6\nplace B6\nplace A7\n",
    WinEdgeRight "win-edge-right" WinLine "a win touching column S" b"place S3\nplace R3\nplace S4\nplace R4\nplace S5\nplace R5\nplace S6\nplace R6\nplace S7\n",
    WinEdgeBottom "win-edge-bottom" WinLine "a win touching row 1" b"place C1\nplace C2\nplace D1\nplace D2\nplace E1\nplace E2\nplace F1\nplace F2\nplace G1\n",
    WinEdgeTop "win-edge-top" WinLine "a win touching row 19" b"place C19\nplace C18\nplace D19\nplace D18\nplace E19\nplace E18\nplace F19\nplace F18\nplace G19\n",
    WinCorner "win-corner" WinLine "a win touching a corner" b"place A1\nplace B2\nplace A2\nplace B3\nplace A3\nplace B4\nplace A4\nplace B5\nplace A5\n",
    WinOverline "win-overline" WinOverline "a win by six or more" b"place C5\nplace C7\nplace D5\nplace D7\nplace E5\nplace E7\nplace G5\nplace G7\nplace H5\nplace H7\nplace F5\n",
    WinWhite "win-white" WinLine "White wins" b"place A1\nplace C5\nplace A3\nplace D5\nplace A5\nplace E5\nplace A7\nplace F5\nplace A9\nplace G5\n",
    Win361stStone "win-361st-stone" TieWinFirst "the 361st stone makes a line: a win" b"(a full board whose last stone makes five)\n",
    Tie "tie" Tie "the 361st stone makes no line: a tie" b"(a full board with no five)\n",
    InputAfterEnd "input-after-end" EndStop "input after the end of the game" b"resign\nwho\n",
    InputAfterTerm "input-after-term" TermStop "input after term" b"term\nwho\n",
    HoleCutLeft "hole-cut-left" ViewEdge "the hole cut by the left edge" b"place L1\nview\nterm\n",
    HoleCutRight "hole-cut-right" ViewEdge "the hole cut by the right edge" b"place I1\nview\nterm\n",
    HoleCutBottom "hole-cut-bottom" ViewEdge "the hole cut by the bottom edge" b"place A1\nview\nterm\n",
    HoleCutTop "hole-cut-top" ViewEdge "the hole cut by the top edge" b"place A2\nview\nterm\n",
    EofNoTerm "eof-no-term" EofExit "end of input without term" b"who\n",
    LastLineNoNewline "last-line-no-newline" LineNoNl "a last line without \\n" b"who",
    EmptyInput "empty-input" InputEmpty "no input at all" b"(no bytes at all)",
    OddByte "odd-byte" BytesAny "a byte the assignment does not speak of" b"who\x00\nterm\n",
    LookalikeByte "lookalike-byte" WsSet "a whitespace look-alike in a parameter" b"place A1\xc2\xa0\nterm\n",
    LongLine "long-line" LineLong "a line longer than 64 bytes" b"(place followed by 2000 bytes of A)\n",
}

/// Its id, as reports print it (padding as a `str` pads).
impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.id())
    }
}
