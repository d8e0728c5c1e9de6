//! A likely cause of a finding, in the student's own terms: not which
//! clause is broken (the finding says that) but what in a C program
//! usually breaks it, such as a buffer too small for a long line or a
//! string function stopping at a NUL.
//!
//! A hint is never read off the shape of a failure alone: each is a
//! hypothesis about what the program did to its input, checked against
//! what it printed. A program that reads lines in pieces of 255 bytes
//! prints what the reference prints for the same input with its lines
//! cut into pieces of 255 bytes; a program that trims lines prints what
//! the reference prints for the trimmed input. So the reference is run on
//! the example changed as the hypothesis says, and the hint is given only
//! if that reproduces the program's output exactly. Then the program
//! itself is run on the hint's controls ([`controls`]), experiments that
//! tell the hypothesis from its likeliest rivals; `check` and `fuzz` run
//! the same ones, so they give the same hint for the same finding.

use crate::controller::text;
use crate::rules::command::is_whitespace;
use crate::rules::game::{Ending, Game};
use crate::rules::mist::next_centre;
use crate::rules::player::Player;
use crate::rules::point::{Column, Point, Row};
use crate::rules::rule::Rule;

use super::clause::Clause;
use super::diagnose::{Class, Finding};
use super::run::{End, Ran};
use super::scenario::Scenario;
use super::trace::{self, Stop};
use super::{Invocation, reference};

/// The largest piece tried when a buffer's size is looked for: past it,
/// no student's buffer is likely, and each size tried is a run of the
/// reference.
const LONGEST_PIECE: usize = 4096;

/// A likely cause of a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Hint {
    /// Lines are read at most `from` to `to` bytes at a time (one value
    /// when the example tells them apart), the rest as further lines.
    Pieces {
        /// The fewest bytes a piece may hold that explains the output.
        from: usize,
        /// The most.
        to: usize,
    },
    /// A line is read only up to its first NUL byte.
    NulEndsString,
    /// A `\r` before the newline is dropped.
    CrDropped,
    /// A `place` whose parameter holds a tab, `\r`, `\v` or `\f` is
    /// answered as a point: only a space is taken for whitespace there.
    SpaceOnly,
    /// Whitespace around a line is trimmed.
    Trimmed,
    /// Blank lines and leading whitespace are skipped.
    BlankSkipped,
    /// Whitespace before a command is skipped, by a trim or by `scanf`:
    /// the example cannot tell which.
    LeadingSkipped,
    /// Commands and coordinates are matched without regard to case.
    NoCase,
    /// It does not stop at the end of the input.
    EofLoop,
    /// Its replies were lost when it was killed or crashed.
    Unflushed,
    /// A full board is called a tie before the last stone's line is
    /// looked at.
    TieBeforeWin,
    /// Only exactly five in a row win.
    ExactFive,
    /// The mist formula is given the column and row swapped.
    MistSwapped,
}

impl Hint {
    /// This hint, or `sized` where both are [`Hint::Pieces`] and
    /// `sized`, a size found by experiment, is in this one's range.
    pub fn narrowed_by(self, sized: Option<Hint>) -> Hint {
        match (self, sized) {
            (Hint::Pieces { from, to }, Some(Hint::Pieces { from: k, to: k2 }))
                if k == k2 && (from..=to).contains(&k) =>
            {
                Hint::Pieces { from: k, to: k }
            }
            _ => self,
        }
    }

    /// The clause the hint shows broken, where the finding's own could
    /// be another: a missed win blamed on its line (an overline on an
    /// edge is filed with the edges, where most misses are) is an
    /// overline missed when only exactly five win, and a full board's
    /// last stone the tie checked first.
    pub fn clause(self, blamed: Clause) -> Clause {
        let wins = [Clause::WinLine, Clause::WinOverline, Clause::TieWinFirst];
        match self {
            Hint::SpaceOnly if Clause::ODD_SPACE.contains(&blamed) => Clause::Ws,
            Hint::CrDropped if Clause::ODD_SPACE.contains(&blamed) => Clause::LineSplit,
            Hint::ExactFive if wins.contains(&blamed) => Clause::WinOverline,
            Hint::TieBeforeWin if wins.contains(&blamed) => Clause::TieWinFirst,
            _ => blamed,
        }
    }

    /// The hint, given or refuted by its control's run (`refuted`).
    pub fn tried(self, refuted: bool) -> Tried {
        if refuted {
            Tried::Refuted(self)
        } else {
            Tried::Given(self)
        }
    }

    /// The hint as reports word it: what the program does, then what to
    /// do instead.
    pub fn sentence(self) -> String {
        match self {
            Hint::Pieces { from, to } if from == to => format!(
                "lines of {from} bytes or more are read in pieces: the program reads at most {from} bytes at a time, as `fgets(buf, {}, stdin)` does, and takes the rest for another line; read a long line to its end before answering it",
                from + 1
            ),
            Hint::Pieces { from, to } => format!(
                "long lines are read in pieces: the program reads at most {from} to {to} bytes at a time (as `fgets` with a buffer of {} to {} bytes does) and takes the rest for another line; read a long line to its end before answering it",
                from + 1,
                to + 1
            ),
            Hint::NulEndsString => "a string function stops at the NUL byte, so `who\\0x` is read as `who`: compare the line using its length (what `fgets` or `getline` read), not `strcmp`".to_owned(),
            Hint::CrDropped => "a `\\r` before the newline is dropped as if it were part of a Windows line ending: only `\\n` ends a line, and the `\\r` is part of the command".to_owned(),
            Hint::SpaceOnly => "a `place` whose parameter holds a tab, `\\r`, `\\v` or `\\f` is answered as a point, as if only a space were whitespace: all five of space, `\\t`, `\\r`, `\\v` and `\\f` are whitespace, and a parameter holding any of them makes the line `Invalid!` (`isspace` tests for all five)".to_owned(),
            Hint::Trimmed => "whitespace around a line is trimmed (or skipped, as `scanf(\"%s\")` does) before the command is matched: a line with a space or tab around a command is not that command".to_owned(),
            Hint::BlankSkipped => "blank lines and whitespace at the start of a line are skipped, as `scanf(\" %[^\\n]\")` does: an empty line is a line, and it is answered".to_owned(),
            Hint::LeadingSkipped => "whitespace before a command is skipped, by a trim or by `scanf` (`%s` and `\" %[^\\n]\"` skip it): the assignment matches lines exactly, so a line with a space or tab before a command is not that command".to_owned(),
            Hint::NoCase => "commands or coordinates are matched without regard to case (`strcasecmp`, `tolower`, `toupper`): `WHO` is not `who`, nor `a1` `A1`".to_owned(),
            Hint::EofLoop => "it does not stop at the end of the input: check what `fgets` or `scanf` returns (`NULL` or `EOF` there) and leave the loop".to_owned(),
            Hint::Unflushed => "the replies it printed before it was stopped were lost: stdout to a pipe is buffered, so call `fflush(stdout)` after each reply (or `setvbuf(stdout, NULL, _IONBF, 0)` once)".to_owned(),
            Hint::TieBeforeWin => "a full board is called a tie before the last stone's line is looked at: look for five in a row first, then for a full board".to_owned(),
            Hint::ExactFive => "only exactly five in a row win: six or more in a row win too (count five or more)".to_owned(),
            Hint::MistSwapped => "the mist's centre moves with the column and row swapped: x, the column (A is 1), gives the new column, and y, the row, the new row".to_owned(),
        }
    }
}

/// A hint after its control has run: given, or refuted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tried {
    /// Borne out: the report gives it.
    Given(Hint),
    /// The control refuted it: the report gives none.
    Refuted(Hint),
}

impl Tried {
    /// The hint to give, if any.
    pub fn given(self) -> Option<Hint> {
        match self {
            Tried::Given(h) => Some(h),
            Tried::Refuted(_) => None,
        }
    }

    /// The clause of a finding blamed on `blamed`, a line of the
    /// `scenarios` given, as the experiment shows it: a given hint's (see
    /// [`Hint::clause`]); where six in a row were missed but the same
    /// game's exactly five is missed too, the line, not its length, is
    /// what the program misses; and where a full board's last stone was
    /// called a tie but a full board won by exactly five is won, the
    /// tie is not looked at first: the line the last stone made (six or
    /// more, or one the program does not scan) is what it misses.
    pub fn clause(self, blamed: Clause, scenarios: &[Scenario]) -> Clause {
        match self {
            Tried::Given(h) => h.clause(blamed),
            Tried::Refuted(Hint::ExactFive) if blamed == Clause::WinOverline => Clause::WinLine,
            Tried::Refuted(Hint::TieBeforeWin) if blamed == Clause::TieWinFirst => {
                if scenarios.contains(&Scenario::WinOverline) {
                    Clause::WinOverline
                } else {
                    Clause::WinLine
                }
            }
            Tried::Refuted(_) => blamed,
        }
    }
}

/// The likely cause of `f`, if one is checked by experiment; `None`
/// where no hypothesis reproduces what the program did.
pub fn guess(f: &Finding) -> Option<Hint> {
    let all = explaining(f);
    match all[..] {
        // Whitespace only before a command: a trim and scanf's skipping
        // read it alike, and the example cannot tell which it was.
        [Hint::Trimmed, ..] if all.contains(&Hint::BlankSkipped) => Some(Hint::LeadingSkipped),
        _ => all.first().copied(),
    }
}

/// Every hypothesis that reproduces what the program did with `f`'s
/// example, likeliest first: two findings one hypothesis explains are
/// one cause.
pub fn explaining(f: &Finding) -> Vec<Hint> {
    // Only when the same input ended by `term` was answered right is the
    // end of the input itself shown to be what the program misses.
    // A wrong exit code there is no loop: only a run that did not stop.
    let endless = matches!(
        f.ran.end,
        End::TimedOut(_) | End::TooMuchOutput(_) | End::OverLimit(_)
    );
    if f.clause == Clause::EofExit && endless && (f.end_shown || f.example.is_empty()) {
        return vec![Hint::EofLoop];
    }
    match f.class {
        Class::Hang | Class::Crash if unflushed(f) => vec![Hint::Unflushed],
        Class::Hang | Class::Crash => Vec::new(),
        Class::Output | Class::Extra => output_hints(f),
    }
}

/// Whether a run killed or crashed after line `f.line` printed less than
/// the replies due to the lines before it, which every shorter prefix
/// shows it gives: they were in its buffer.
fn unflushed(f: &Finding) -> bool {
    let Some(n) = f.line else {
        return false;
    };
    let t = trace::trace(&f.example);
    let due = n
        .checked_sub(2)
        .and_then(|i| t.steps.get(i))
        .map_or(0, |s| s.reply.end);
    due > 0 && f.ran.stdout.len() < due
}

/// The hypotheses whose reference output is the program's, for a run
/// that exited with the wrong output.
fn output_hints(f: &Finding) -> Vec<Hint> {
    let got = &f.ran.stdout;
    if !matches!(f.ran.end, End::Code(_)) {
        return Vec::new();
    }
    let matches = |input: &[u8]| reference(Invocation::contract(), input).stdout == *got;
    let input = &f.example;
    let rewrites: [(Hint, Rewrite); 6] = [
        (Hint::NulEndsString, |l| {
            let at = l.iter().position(|&b| b == 0)?;
            Some(l[..at].to_vec())
        }),
        (Hint::CrDropped, cr_dropped),
        (Hint::SpaceOnly, |l| odd_spaces_as(l, b'x')),
        (Hint::Trimmed, trimmed),
        (Hint::BlankSkipped, |l| {
            let start = l.iter().position(|&b| !is_whitespace(b)).unwrap_or(l.len());
            (start > 0).then(|| l[start..].to_vec())
        }),
        (Hint::NoCase, no_case),
    ];
    // Where the control explains the output as well, the example cannot
    // tell the hypothesis from it (see `controls`), and no hint is given.
    let control = |hint: Hint| {
        controls(hint, input)
            .iter()
            .any(|c| c.refuted_if == Refuted::Alike && matches(&c.input))
    };
    let fits = |(hint, rewrite): &(Hint, Rewrite)| {
        rewritten(input, *rewrite, *hint == Hint::BlankSkipped).is_some_and(|c| matches(&c))
            && !control(*hint)
    };
    let mut all: Vec<Hint> = pieces(input, got).into_iter().collect();
    all.extend(rewrites.iter().filter(|r| fits(r)).map(|r| r.0));
    all.extend(win_hint(f));
    if mist_swapped(f) {
        all.push(Hint::MistSwapped);
    }
    all
}

/// An experiment that can refute a hint: an input to run the program on,
/// and what its answer must not be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Control {
    /// What the program is run on.
    pub input: Vec<u8>,
    /// What answer refutes the hint.
    pub refuted_if: Refuted,
}

/// What answer to a [`Control`] refutes its hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refuted {
    /// The program answers the control as it answered the example: the
    /// bytes the control changed are not what it gets wrong.
    Alike,
    /// The program answers the control wrongly too: what the control
    /// leaves out is not what it gets wrong.
    Wrong,
    /// The program does not answer the control as the hypothesis
    /// predicts (this output, then exit): a program that drops a `\r`
    /// or trims a parameter stores the move without it, and `history`
    /// shows what it stored.
    Unlike(Vec<u8>),
}

impl Control {
    /// Whether `ran`, the program's run of the control, refutes the hint
    /// of a finding whose example the program answered with `example`.
    pub fn refutes(&self, example: &[u8], ran: &Ran) -> bool {
        let exited = matches!(ran.end, End::Code(_));
        match &self.refuted_if {
            Refuted::Alike => exited && ran.stdout == example,
            Refuted::Wrong => {
                let due = reference(Invocation::contract(), &self.input);
                !exited || ran.stdout != due.stdout || ran.end != End::Code(due.code)
            }
            Refuted::Unlike(predicted) => !exited || ran.stdout != *predicted,
        }
    }
}

/// The controls of a hint: experiments whose answers can refute it (the
/// hint stands only if none does). For a hypothesis that drops bytes:
/// `input` with the same bytes read as ordinary letters (`x`).
/// `place 0\r` is `Invalid coordinate` whether the `\r` was dropped or
/// taken for part of the point, and a program that ignores what follows
/// a point takes `place J10\r` as it takes `place J10x`: where the
/// control fares as the example does, the odd bytes are not what the
/// program gets wrong. For a `\r` dropped or whitespace trimmed in a
/// `place`, also `history` after it (see `stored`). For six in a row not
/// winning: the same game with an end stone of the line placed
/// elsewhere, so that exactly five win; a program that misses that five
/// too misses more than overlines. `check` and `fuzz` run the program on
/// each.
pub fn controls(hint: Hint, input: &[u8]) -> Vec<Control> {
    let lettered: Rewrite = match hint {
        Hint::NulEndsString => |l| {
            let at = l.iter().position(|&b| b == 0)?;
            let mut l = l.to_vec();
            l[at] = b'x';
            Some(l)
        },
        Hint::CrDropped => |l| l.strip_suffix(b"\r").map(|l| [l, b"x"].concat()),
        // Here the odd bytes are read as letters by the hypothesis: its
        // control makes them spaces, which a program that takes only the
        // space for whitespace answers `Invalid!`.
        Hint::SpaceOnly => |l| odd_spaces_as(l, b' '),
        Hint::Trimmed | Hint::LeadingSkipped => |l| {
            let start = l.iter().position(|&b| !is_whitespace(b)).unwrap_or(l.len());
            let end = l
                .iter()
                .rposition(|&b| !is_whitespace(b))
                .map_or(start, |e| e + 1);
            let lettered = |(i, &b): (usize, &u8)| if i < start || i >= end { b'x' } else { b };
            (start > 0 || end < l.len()).then(|| l.iter().enumerate().map(lettered).collect())
        },
        Hint::BlankSkipped => |l| {
            let start = l.iter().position(|&b| !is_whitespace(b))?;
            (start > 0).then(|| [vec![b'x'; start].as_slice(), &l[start..]].concat())
        },
        Hint::TieBeforeWin => {
            // A program that checks for the tie first prints it here too;
            // one that only misses six (the example's 361st stone may
            // make six) prints the win.
            let game = five_at_361();
            let due = reference(Invocation::contract(), &game).stdout;
            let win = text::result(Ending::Win {
                winner: Player::Black,
            });
            let tie = text::result(Ending::Tie);
            let predicted = match due.strip_prefix(win) {
                Some(rest) => [tie, rest].concat(),
                None => return Vec::new(),
            };
            return vec![Control {
                input: game,
                refuted_if: Refuted::Unlike(predicted),
            }];
        }
        Hint::ExactFive => {
            return exactly_five(input)
                .map(|input| Control {
                    input,
                    refuted_if: Refuted::Wrong,
                })
                .into_iter()
                .collect();
        }
        _ => return Vec::new(),
    };
    let mut all: Vec<Control> = rewritten(input, lettered, false)
        .map(|input| Control {
            input,
            refuted_if: Refuted::Alike,
        })
        .into_iter()
        .collect();
    let hypothesis: Option<Rewrite> = match hint {
        Hint::CrDropped => Some(cr_dropped),
        Hint::Trimmed => Some(trimmed),
        _ => None,
    };
    all.extend(hypothesis.and_then(|h| stored(input, h)));
    if hint == Hint::SpaceOnly {
        all.extend(pointed(input));
    }
    if hint == Hint::CrDropped {
        // The `\r` as another whitespace byte: a program that answers
        // `place A1\f` as it answered `place A1\r` (`scanf("%s")`
        // stops at both) does not take the `\r` for a line ending.
        let form_feed: Rewrite = |l| l.strip_suffix(b"\r").map(|l| [l, b"\x0c"].concat());
        all.extend(rewritten(input, form_feed, false).map(|input| Control {
            input,
            refuted_if: Refuted::Alike,
        }));
    }
    all
}

/// The control of a hypothesis `rewrite` that changes a `place` line:
/// `input` up to the last such line, then `history` and `term`. The
/// hypothesis predicts the answer, the reference's to the same input
/// rewritten: a program that drops a `\r` or trims the line stores the
/// point without it, and one that stores `A1\r` (it only let the `\r`
/// through) shows it. `None` where no `place` line changes.
fn stored(input: &[u8], rewrite: Rewrite) -> Option<Control> {
    let lines: Vec<&[u8]> = input.split_inclusive(|&b| b == b'\n').collect();
    let last = lines.iter().rposition(|l| {
        let line = l.strip_suffix(b"\n").unwrap_or(l);
        line.starts_with(b"place ") && rewrite(line).is_some()
    })?;
    let mut control: Vec<u8> = lines[..=last].concat();
    if !control.ends_with(b"\n") {
        control.push(b'\n');
    }
    control.extend_from_slice(b"history\nterm\n");
    let predicted = reference(
        Invocation::contract(),
        &rewritten(&control, rewrite, false)?,
    )
    .stdout;
    Some(Control {
        input: control,
        refuted_if: Refuted::Unlike(predicted),
    })
}

/// The control of [`Hint::SpaceOnly`] that tells it from a program that
/// drops the odd bytes (`place 0\r` is `Invalid coordinate` to both):
/// `input` up to its last `place` with whitespace in its parameter, that
/// parameter made a free point followed by the same whitespace, then
/// `term`. A program that keeps the bytes answers `Invalid coordinate`
/// (the hypothesis's answer); one that drops them places the stone.
fn pointed(input: &[u8]) -> Option<Control> {
    let lines: Vec<&[u8]> = input.split_inclusive(|&b| b == b'\n').collect();
    let unended = |l: &[u8]| l.strip_suffix(b"\n").unwrap_or(l).to_vec();
    let last = lines
        .iter()
        .rposition(|l| trace::odd_space_param(&unended(l)).is_some())?;
    let line = unended(lines[last]);
    let odd = trace::odd_space_param(&line)?
        .iter()
        .filter(|&&b| is_whitespace(b));
    let point = free_points(&lines).into_iter().next()?;
    let mut control: Vec<u8> = lines[..last].concat();
    control.extend_from_slice(b"place ");
    control.extend_from_slice(point);
    control.extend(odd);
    control.extend_from_slice(b"\nterm\n");
    let read = rewritten(&control, |l| odd_spaces_as(l, b'x'), false)?;
    Some(Control {
        refuted_if: Refuted::Unlike(reference(Invocation::contract(), &read).stdout),
        input: control,
    })
}

/// Corners and edges' middles that no line of `lines` names: points
/// free in its game, far from most lines.
fn free_points<'p>(lines: &[&[u8]]) -> Vec<&'p [u8]> {
    [
        b"A1".as_slice(),
        b"S19",
        b"A19",
        b"S1",
        b"J1",
        b"A10",
        b"S10",
        b"J19",
    ]
    .into_iter()
    .filter(|p| !lines.iter().any(|l| l.windows(p.len()).any(|w| w == *p)))
    .collect()
}

/// A full board whose 361st stone makes exactly five (Black, on a
/// diagonal through S19), no five before it: the moves, as `history`
/// prints them. The control of [`Hint::TieBeforeWin`].
const FIVE_AT_361: &str = concat!(
    "M2J16L12D13R9E11C13J8P6F18D16F6P10L9E8E1B1C4B17E3D8Q3P18H17S7R2Q8M11H16I17E18P3B",
    "5H5R3L15O5P17O19L11S5P9S15O8S3O14E14D19K7I15E4B10H4R6R11I5L16I11P14K18I14H3H14G6",
    "N9S4J15N5F19Q5N11O6B9I13N17M9L10I19Q17K6H6A1Q16O12D10J14I4A5J17A17Q18C8I2R12C17B",
    "4S9J12F11C16O1L17J5A3K11A15R7M7Q2A19S11N18C19S18K9Q9E2F16L4I7D18E5C3F10A6F2R19Q1",
    "9S1H13G1S2M4C6H12R16R5P11O13B7C1E19N3E7N7L1K3N10G7D9A12C10G9N14A16I9A4J4M8N6F13C",
    "18F1B12P16G14J13L5L2Q1P12G12D12Q13C11J6O9K8P2G4C9G16H2B8A18S16O3N12O15P1R15E13P4",
    "S8M6B6G17R4K1D5E16R8G19D15R17G10A2H7F7K2E6K14J11G2D4H19M18F12N15E17O7E15K5C14M10",
    "M13A10N8R13I3Q10M15H18L7O11F4K15H15N19L13H8P7G11L3A14S14G13M1B3P19F17M17A8A13G15",
    "B14F5C2B19G8Q6H1L14L19R1J10L18C12D6O18C5K16J3P13H10D1M14A9I8N4K17F8I12D7D14S6Q4J",
    "18F3K10J19O16M12D11B13N2P8O4L6R10S13S10I6P5J1A11E10I1F9A7F15F14K19M19G3N16C15P15",
    "I10M3N13D17S17K4Q12Q7R18B16I18E9I16M5C7D3J7O2L8H11M16K12G5H9J9Q11D2G18B11S12B15B",
    "2K13Q15Q14J2N1O10E12R14O17B18S19",
);

/// [`FIVE_AT_361`] as `place` lines.
fn five_at_361() -> Vec<u8> {
    let mut input = Vec::new();
    let mut rest = FIVE_AT_361.as_bytes();
    while let Some((&letter, tail)) = rest.split_first() {
        let digits = tail.iter().take_while(|b| b.is_ascii_digit()).count();
        input.extend_from_slice(b"place ");
        input.push(letter);
        input.extend_from_slice(&tail[..digits]);
        input.push(b'\n');
        rest = &tail[digits..];
    }
    input
}

/// `input`, whose game is won by six or more in a row, with one stone
/// placed elsewhere so that the same game is won by exactly five: the
/// first such change the reference bears out, trying the latest stones
/// first (the line's ends are most often the last placed) and, for
/// the stone moved, a corner or an edge's middle no line of the game
/// reaches. `None` if no such change is found.
fn exactly_five(input: &[u8]) -> Option<Vec<u8>> {
    let exact = || Invocation::Play {
        game: Box::new(Game::new(Rule::Exact)),
        settings: Default::default(),
        cpu: None,
    };
    let lines: Vec<&[u8]> = input.split_inclusive(|&b| b == b'\n').collect();
    let unused = free_points(&lines);
    let won = |out: &[u8]| {
        [Player::Black, Player::White]
            .iter()
            .any(|&winner| contains(out, text::result(Ending::Win { winner })))
    };
    for (i, line) in lines.iter().enumerate().rev() {
        if !line.starts_with(b"place ") {
            continue;
        }
        for p in &unused {
            let mut changed = Vec::with_capacity(input.len());
            for (j, l) in lines.iter().enumerate() {
                if j == i {
                    changed.extend_from_slice(b"place ");
                    changed.extend_from_slice(p);
                    changed.extend_from_slice(if l.ends_with(b"\n") { b"\n" } else { b"" });
                } else {
                    changed.extend_from_slice(l);
                }
            }
            let due = reference(Invocation::contract(), &changed).stdout;
            if won(&due) && reference(exact(), &changed).stdout == due {
                return Some(changed);
            }
        }
    }
    None
}

/// `line` as a program that drops a `\r` before the newline reads it.
fn cr_dropped(line: &[u8]) -> Option<Vec<u8>> {
    line.strip_suffix(b"\r").map(<[u8]>::to_vec)
}

/// `line`, a `place` whose parameter holds whitespace but no space,
/// with that whitespace made `to`: read as a program that takes only the
/// space for whitespace reads it (`to` a letter), or its control (`to`
/// a space). `None` for any other line.
fn odd_spaces_as(line: &[u8], to: u8) -> Option<Vec<u8>> {
    let param = trace::odd_space_param(line)?
        .iter()
        .map(|&b| if is_whitespace(b) { to } else { b });
    Some(b"place ".iter().copied().chain(param).collect())
}

/// `line` as a program that trims it reads it.
fn trimmed(line: &[u8]) -> Option<Vec<u8>> {
    let t = trim(line);
    (t.len() < line.len()).then(|| t.to_vec())
}

/// `line` without the whitespace around it.
fn trim(line: &[u8]) -> &[u8] {
    let start = line.iter().position(|&b| !is_whitespace(b));
    let end = line.iter().rposition(|&b| !is_whitespace(b));
    match (start, end) {
        (Some(s), Some(e)) => &line[s..=e],
        _ => &[],
    }
}

/// `line` as a program matching without case reads it: the command in
/// lower case, a coordinate in upper; `None` if that changes nothing.
fn no_case(line: &[u8]) -> Option<Vec<u8>> {
    let lower = line.to_ascii_lowercase();
    let read = match lower.strip_prefix(b"place") {
        Some(rest) => [b"place".as_slice(), &rest.to_ascii_uppercase()].concat(),
        None => lower,
    };
    (read != line).then_some(read)
}

/// How a hypothesis changes one line (without its `\n`); `None` if it
/// leaves it as it is.
type Rewrite = fn(&[u8]) -> Option<Vec<u8>>;

/// `input` with each line (ended by `\n` or not) changed by `rewrite`
/// where it gives one; with `drop_blank`, lines left empty are dropped.
/// `None` if no line changed.
fn rewritten(input: &[u8], rewrite: Rewrite, drop_blank: bool) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(input.len());
    let mut changed = false;
    for piece in input.split_inclusive(|&b| b == b'\n') {
        let (line, newline) = match piece.strip_suffix(b"\n") {
            Some(line) => (line, true),
            None => (piece, false),
        };
        let new = rewrite(line);
        let (line, was_changed) = match &new {
            Some(new) => (new.as_slice(), true),
            None => (line, false),
        };
        if drop_blank && line.is_empty() && newline {
            changed = true;
            continue;
        }
        changed |= was_changed;
        out.extend_from_slice(line);
        if newline {
            out.push(b'\n');
        }
    }
    changed.then_some(out)
}

/// For a long line answered as several: the sizes of piece (as `fgets`
/// reads, the newline counted) for which the reference, given the pieces
/// as lines, prints what the program printed.
fn pieces(input: &[u8], got: &[u8]) -> Option<Hint> {
    let longest = input
        .split(|&b| b == b'\n')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    // Each piece is a line more, and nearly every line is answered: a
    // program that printed no more lines than are due read none in pieces.
    let replies = |out: &[u8]| out.iter().filter(|&&b| b == b'\n').count();
    let due = reference(Invocation::contract(), input).stdout;
    if longest <= trace::LONG_LINE || replies(got) <= replies(&due) {
        return None;
    }
    // A piece of `longest + 1` bytes or more holds every line whole.
    let fit: Vec<usize> = (2..=longest.min(LONGEST_PIECE))
        .filter(|&k| reference(Invocation::contract(), &in_pieces(input, k)).stdout == got)
        .collect();
    Some(Hint::Pieces {
        from: *fit.first()?,
        to: *fit.last()?,
    })
}

/// A [`Hint::Pieces`] narrowed to one size by experiment, where the
/// example allowed a range: `disagrees` runs the program on a line of
/// that many bytes (then `term`) and tells whether it answers wrongly
/// (`None` if it could not tell). A reader of `k` bytes at a time answers
/// a line of `k` bytes or more as two lines and a shorter one right, so
/// the shortest line answered wrongly is `k`. The hint is kept as it was
/// unless the ends of the range bear that out.
pub fn narrowed(hint: Hint, disagrees: impl Fn(&[u8]) -> Option<bool>) -> Hint {
    let Hint::Pieces { from, to } = hint else {
        return hint;
    };
    let line = |len: usize| [vec![b'x'; len], b"\nterm\n".to_vec()].concat();
    if from >= to || disagrees(&line(from - 1)) != Some(false) || disagrees(&line(to)) != Some(true)
    {
        return hint;
    }
    // Line `lo - 1` is answered right, line `hi` wrongly.
    let (mut lo, mut hi) = (from, to);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match disagrees(&line(mid)) {
            Some(true) => hi = mid,
            Some(false) => lo = mid + 1,
            None => return hint,
        }
    }
    Hint::Pieces { from: hi, to: hi }
}

/// `input` as a program reading at most `k` bytes at a time takes it:
/// each line with its newline cut into pieces of `k` bytes, each piece
/// a line.
fn in_pieces(input: &[u8], k: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() + input.len() / k + 1);
    for line in input.split_inclusive(|&b| b == b'\n') {
        for piece in line.chunks(k) {
            out.extend_from_slice(piece);
            if !piece.ends_with(b"\n") {
                out.push(b'\n');
            }
        }
    }
    // A last line without a newline stays without one.
    if !input.ends_with(b"\n") && !input.is_empty() {
        out.pop();
    }
    out
}

/// For a missed or false win: the 361st stone called a tie, or six in a
/// row not taken for a win, checked by the reference under the rule that
/// only exactly five win.
fn win_hint(f: &Finding) -> Option<Hint> {
    let t = trace::trace(&f.example);
    let (Stop::Ended(_) | Stop::Term) = t.stop else {
        return None;
    };
    let got = &f.ran.stdout;
    let tie = text::result(crate::rules::game::Ending::Tie);
    let want_win = f.scenarios.contains(&Scenario::Win361stStone)
        || t.steps
            .iter()
            .any(|s| s.scenarios.contains(&Scenario::Win361stStone));
    let tie_first = want_win && contains(got, tie) && !contains(&t.stdout, tie);
    let overline = t
        .steps
        .iter()
        .any(|s| s.scenarios.contains(&Scenario::WinOverline));
    let exact = Invocation::Play {
        game: Box::new(Game::new(Rule::Exact)),
        settings: Default::default(),
        cpu: None,
    };
    let exact_five = overline && reference(exact, &f.example).stdout == *got;
    // A 361st stone that makes six: a tie checked first and a six not
    // taken for a win both print the tie; the tie's control, a full board
    // won by exactly five, tells them apart.
    match (tie_first, exact_five) {
        (true, _) => Some(Hint::TieBeforeWin),
        (false, true) => Some(Hint::ExactFive),
        (false, false) => None,
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Whether the program's first wrong line is a `view` reply centred
/// where the mist formula puts it with the last stone's column and row
/// swapped.
fn mist_swapped(f: &Finding) -> bool {
    let t = trace::trace(&f.example);
    let got = &f.ran.stdout;
    let common = t.stdout.iter().zip(got).take_while(|(a, b)| a == b).count();
    let Some(step) = t.steps.iter().find(|s| s.reply.end > common) else {
        return false;
    };
    if !trace::MIST.contains(&step.clause) && step.clause != Clause::CmdView {
        return false;
    }
    // The game just before the `view`: its last stone moved the hole.
    let before: Vec<u8> = t.steps[..step.number - 1]
        .iter()
        .flat_map(|s| {
            let mut l = f.example[s.line.clone()].to_vec();
            l.push(b'\n');
            l
        })
        .collect();
    let Some(&last) = replayed(&before).moves().last() else {
        return false;
    };
    let (x, y) = (
        u32::from(last.column().number()),
        u32::from(last.row().number()),
    );
    let swapped = Point::new(
        Column::from_residue(5 * y * y + 3 * y + 4),
        Row::from_residue(4 * x * x + 2 * x - 4),
    );
    if swapped == next_centre(last) {
        return false;
    }
    let mut label = Vec::new();
    swapped.write_ascii(&mut label);
    label.push(b',');
    got.get(step.reply.start..)
        .is_some_and(|rest| rest.starts_with(&label))
}

/// The game after the reference has read `input`.
fn replayed(input: &[u8]) -> Game {
    let mut session = crate::controller::session::Session::new(
        Game::new(Rule::default()),
        Default::default(),
        Vec::new(),
    );
    for line in input.split(|&b| b == b'\n') {
        // Writing to a vector cannot fail; a stop ends the game as read.
        if !matches!(session.line(line), Ok(None)) {
            break;
        }
    }
    session.game().clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_board_control_is_won_by_exactly_five_with_its_361st_stone() {
        let game = five_at_361();
        assert_eq!(game.iter().filter(|&&b| b == b'\n').count(), 361);
        let exact = Invocation::Play {
            game: Box::new(Game::new(Rule::Exact)),
            settings: Default::default(),
            cpu: None,
        };
        let due = reference(Invocation::contract(), &game).stdout;
        assert!(due.starts_with(b"Black wins!\n"));
        assert_eq!(reference(exact, &game).stdout, due);
        let before: Vec<u8> = game[..game.len() - b"place S19\n".len()].to_vec();
        assert!(reference(Invocation::contract(), &before).stdout.is_empty());
    }

    #[test]
    fn pieces_are_cut_as_fgets_cuts_them() {
        assert_eq!(in_pieces(b"abcde\nxy\n", 3), b"abc\nde\nxy\n");
        assert_eq!(in_pieces(b"abcd\nxy", 2), b"ab\ncd\n\nxy");
    }

    #[test]
    fn rewriting_changes_only_lines_it_applies_to() {
        let skip = |l: &[u8]| trim(l).is_empty().then(Vec::new);
        assert_eq!(
            rewritten(b"who\n  \nview\n", skip, true),
            Some(b"who\nview\n".to_vec())
        );
        assert_eq!(rewritten(b"who\nview\n", no_case, false), None);
        assert_eq!(
            rewritten(b"WHO\nPLACE a1\n", no_case, false),
            Some(b"who\nplace A1\n".to_vec())
        );
    }
}
