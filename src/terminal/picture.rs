//! Pictures of the board for a person: the whole 19×19 board with the mist
//! drawn over all but the hole, the last move bracketed, and at the end
//! the mist lifted and the winning line marked. Pure: a game and the
//! terminal's width in, a `String` out.
//!
//! Without colour the picture says everything by its characters; colour
//! only repeats it (see [`Style`]). The mist is drawn as `--board` draws
//! it on stdout ([`text::MIST`]), so the program has one symbol for it.
//!
//! ```text
//! 19 @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @
//! ...
//! 10 @ @ @ @ @ @ . . .[#]. . . @ @ @ @ @ @
//! ...
//!    A B C D E F G H I J K L M N O P Q R S
//! ```
//!
//! A terminal too narrow for that (41 columns, and one to spare) gets the
//! [compact](Layout::Compact) picture, 22 columns, with no space between
//! points; the legend then names the last move, which has no room for
//! brackets.

use crate::controller::text;
use crate::rules::board::DIRECTIONS;
use crate::rules::game::Game;
use crate::rules::mist;
use crate::rules::player::Player;
use crate::rules::point::{Column, Point, Row};

use super::style::{Paint, Style};

/// A point hidden by the mist: the same as `--board`'s.
pub const MIST: char = text::MIST as char;
/// The empty centre of the hole.
pub const CENTRE: char = '+';
/// A black stone of the winning line.
pub const BLACK_WIN: char = 'X';
/// A white stone of the winning line.
pub const WHITE_WIN: char = 'O';
/// Under renju, with Black to move, a point in the hole where Black may
/// not play.
pub const FORBIDDEN: char = 'x';

/// How a picture is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// A space between points, where the last move's brackets go.
    Spaced,
    /// No space between points: the last move is named in the legend.
    Compact,
}

impl Layout {
    /// The widest layout a terminal `width` columns wide shows without
    /// wrapping a row: a row fills at most all columns but the last,
    /// since some terminals wrap a line that reaches it.
    pub const fn fitting(width: usize) -> Layout {
        match width > Layout::Spaced.width() {
            true => Layout::Spaced,
            false => Layout::Compact,
        }
    }

    /// The columns a row takes.
    pub const fn width(self) -> usize {
        match self {
            Layout::Spaced => 3 + 2 * Column::ALL.len(),
            Layout::Compact => 3 + Column::ALL.len(),
        }
    }
}

/// The board as the player to move may see it: the hole around the
/// centre, the rest in mist, and the last move bracketed (it was just
/// announced, so it is no secret even in the mist). Laid out to fit
/// `width` columns.
pub fn misty(game: &Game, style: Style, width: usize) -> String {
    let layout = Layout::fitting(width);
    let last = game.moves().last().copied();
    let mut out = draw(game, Some(game.centre()), last, &[], style, layout);
    let mut items = vec![
        "# Black".to_owned(),
        "o White".to_owned(),
        format!("{MIST} mist"),
        format!("{CENTRE} hole centre {}", game.centre()),
    ];
    let last_text = last.map_or_else(|| "none yet".to_owned(), |p| p.to_string());
    items.push(match layout {
        Layout::Spaced => format!("[ ] last move {last_text}"),
        Layout::Compact => format!("last move {last_text}"),
    });
    if game.rule().foul_matters(game.to_move()) {
        items.push(format!("{FORBIDDEN} forbidden to Black"));
    }
    out.push_str(&legend(&items, width));
    out.push_str(&too_narrow(width));
    out
}

/// The whole board with the mist lifted, the last move bracketed and
/// `line`'s stones drawn as [`BLACK_WIN`] or [`WHITE_WIN`], laid out to
/// fit `width` columns.
pub fn lifted(game: &Game, line: &[Point], style: Style, width: usize) -> String {
    let layout = Layout::fitting(width);
    let last = game.moves().last().copied();
    let mut out = draw(game, None, last, line, style, layout);
    let mut items = vec!["# Black".to_owned(), "o White".to_owned()];
    items.push(match (layout, last) {
        (Layout::Spaced, _) => "[ ] last move".to_owned(),
        (Layout::Compact, Some(p)) => format!("last move {p}"),
        (Layout::Compact, None) => "last move none".to_owned(),
    });
    if !line.is_empty() {
        items.push(format!("{BLACK_WIN} {WHITE_WIN} the winning line"));
    }
    out.push_str(&legend(&items, width));
    out.push_str(&too_narrow(width));
    out
}

/// The legend's `items` under the board, two spaces apart, on as many
/// lines as `width` needs; an item is never split.
fn legend(items: &[String], width: usize) -> String {
    const INDENT: &str = "   ";
    let mut out = String::from(INDENT);
    let mut column = INDENT.len();
    for (n, item) in items.iter().enumerate() {
        let cells = item.chars().count();
        if n > 0 && column + 2 + cells >= width {
            out.push('\n');
            out.push_str(INDENT);
            column = INDENT.len();
        } else if n > 0 {
            out.push_str("  ");
            column += 2;
        }
        out.push_str(item);
        column += cells;
    }
    out.push('\n');
    out
}

/// Below the narrowest picture, a line saying how wide it needs to be.
fn too_narrow(width: usize) -> String {
    let needs = Layout::Compact.width() + 1;
    match width < needs {
        true => {
            format!("(The board needs a terminal {needs} columns wide; this one has {width}.)\n")
        }
        false => String::new(),
    }
}

/// The stones of every winning line through the last move, if it made
/// one under the game's rule; empty otherwise (a resignation, a tie, or a
/// game still going on).
pub fn winning_line(game: &Game) -> Vec<Point> {
    let board = game.board();
    let Some(&last) = game.moves().last() else {
        return Vec::new();
    };
    let Some(colour) = board.get(last) else {
        return Vec::new();
    };
    let mut line = Vec::new();
    for (dc, dr) in DIRECTIONS {
        if !game.rule().accepts(board.run(last, (dc, dr))) {
            continue;
        }
        line.push(last);
        for sign in [1, -1] {
            let mut at = last;
            while let Some(next) = at.offset(dc * sign, dr * sign) {
                if board.get(next) != Some(colour) {
                    break;
                }
                line.push(next);
                at = next;
            }
        }
    }
    line.sort_unstable();
    line.dedup();
    line
}

/// Rows 19 down to 1, each labelled; spaced, a separator before and
/// after each point, where the last move's brackets go; the column
/// letters below.
fn draw(
    game: &Game,
    centre: Option<Point>,
    last: Option<Point>,
    line: &[Point],
    style: Style,
    layout: Layout,
) -> String {
    let board = game.board();
    let spaced = layout == Layout::Spaced;
    let mut out = String::new();
    for row in Row::ALL.into_iter().rev() {
        out.push_str(&format!("{:>2}", row.number()));
        let mut separators = [" "; Column::ALL.len() + 1];
        if let Some(p) = last.filter(|p| p.row() == row) {
            separators[p.column().index()] = "[";
            separators[p.column().index() + 1] = "]";
        }
        if !spaced {
            out.push(' ');
        }
        for column in Column::ALL {
            let p = Point::new(column, row);
            if spaced {
                push_separator(&mut out, separators[column.index()], style);
            }
            let stone = board.get(p);
            let (symbol, paint) = match (stone, centre) {
                _ if line.contains(&p) => match stone {
                    Some(Player::White) => (WHITE_WIN, Paint::Win),
                    _ => (BLACK_WIN, Paint::Win),
                },
                (_, Some(c)) if !mist::in_hole(c, p) && last != Some(p) => (MIST, Paint::Dim),
                (None, Some(_)) if game.rule().foul(board, game.to_move(), p).is_some() => {
                    (FORBIDDEN, Paint::Mark)
                }
                (None, Some(c)) if c == p => (CENTRE, Paint::Mark),
                (None, _) => ('.', Paint::Dim),
                (Some(Player::Black), _) => ('#', Paint::Black),
                (Some(Player::White), _) => ('o', Paint::White),
            };
            // Compact, colour alone marks the last move on the board.
            let paint = match spaced || last != Some(p) || line.contains(&p) {
                true => paint,
                false => Paint::Mark,
            };
            out.push_str(&style.paint(paint, &symbol.to_string()));
        }
        if spaced {
            push_separator(&mut out, separators[Column::ALL.len()], style);
        }
        out.push('\n');
    }
    out.push_str("  ");
    if !spaced {
        out.push(' ');
    }
    for column in Column::ALL {
        if spaced {
            out.push(' ');
        }
        out.push(char::from(column.letter()));
    }
    out.push('\n');
    out
}

fn push_separator(out: &mut String, separator: &str, style: Style) {
    match separator {
        " " => out.push(' '),
        bracket => out.push_str(&style.paint(Paint::Mark, bracket)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::rule::Rule;

    fn game(moves: &[&str], rule: Rule) -> Game {
        let mut game = Game::new(rule);
        for m in moves {
            game.place(m.parse().unwrap()).unwrap();
        }
        game
    }

    fn points(text: &[&str]) -> Vec<Point> {
        let mut points: Vec<Point> = text.iter().map(|t| t.parse().unwrap()).collect();
        points.sort_unstable();
        points
    }

    /// The row labelled `number` of a plain picture.
    fn row(picture: &str, number: u8) -> &str {
        let label = format!("{number:>2}");
        picture
            .lines()
            .find(|l| l.get(..2) == Some(&label) && !l[2..].starts_with(char::is_numeric))
            .unwrap_or_else(|| panic!("no row {number} in\n{picture}"))
    }

    #[test]
    fn before_any_move_only_the_hole_around_j10_is_clear() {
        let picture = misty(&Game::new(Rule::Freestyle), Style::new(false), 80);
        assert_eq!(
            row(&picture, 10),
            "10 @ @ @ @ @ @ . . . + . . . @ @ @ @ @ @ "
        );
        assert_eq!(
            row(&picture, 14),
            "14 @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ @ "
        );
        assert_eq!(picture.lines().count(), 21, "{picture}");
    }

    #[test]
    fn the_last_move_is_bracketed_even_in_the_mist() {
        // After A1 the hole is at M3: A1 itself lies in the mist.
        let picture = misty(&game(&["A1"], Rule::Freestyle), Style::new(false), 80);
        assert_eq!(
            row(&picture, 1),
            " 1[#]@ @ @ @ @ @ @ @ . . . . . . . @ @ @ "
        );
        assert_eq!(
            row(&picture, 3),
            " 3 @ @ @ @ @ @ @ @ @ . . . + . . . @ @ @ "
        );
        assert!(picture.contains("hole centre M3"), "{picture}");
    }

    #[test]
    fn the_lifted_board_marks_the_winning_line() {
        let g = game(
            &["A1", "B1", "A2", "B2", "A3", "B3", "A4", "B4", "A5"],
            Rule::Freestyle,
        );
        let line = winning_line(&g);
        assert_eq!(line, points(&["A1", "A2", "A3", "A4", "A5"]));
        let picture = lifted(&g, &line, Style::new(false), 80);
        assert_eq!(
            row(&picture, 5),
            " 5[X]. . . . . . . . . . . . . . . . . . "
        );
        assert_eq!(
            row(&picture, 1),
            " 1 X o . . . . . . . . . . . . . . . . . "
        );
    }

    #[test]
    fn winning_lines_follow_the_rule() {
        // Black's D1 joins A1..C1 and E1..F1 into six; White plays apart.
        let six = [
            "A1", "A19", "B1", "B19", "C1", "C19", "E1", "E19", "F1", "S10", "D1",
        ];
        let freestyle = game(&six, Rule::Freestyle);
        assert_eq!(
            winning_line(&freestyle),
            points(&["A1", "B1", "C1", "D1", "E1", "F1"])
        );
        // Under `exact` the same six do not win: no line to mark.
        let mut exact = Game::new(Rule::Exact);
        for m in six {
            let _ = exact.place(m.parse().unwrap());
        }
        assert_eq!(winning_line(&exact), Vec::new());
        // A cross: two lines through the last stone are both marked.
        let cross = game(
            &[
                "C3", "S1", "D3", "S2", "E3", "S3", "F3", "S4", "G5", "S6", "G6", "S7", "G7", "S8",
                "G4", "R19", "G3",
            ],
            Rule::Freestyle,
        );
        assert_eq!(
            winning_line(&cross),
            points(&["C3", "D3", "E3", "F3", "G3", "G4", "G5", "G6", "G7"])
        );
    }

    #[test]
    fn a_narrow_terminal_gets_the_compact_picture() {
        assert_eq!(Layout::fitting(42), Layout::Spaced);
        assert_eq!(Layout::fitting(41), Layout::Compact);
        let g = game(&["A1"], Rule::Freestyle);
        let picture = misty(&g, Style::new(false), 40);
        assert_eq!(row(&picture, 1), " 1 #@@@@@@@@.......@@@");
        assert_eq!(row(&picture, 3), " 3 @@@@@@@@@...+...@@@");
        assert!(picture.contains("\n   ABCDEFGHIJKLMNOPQRS\n"), "{picture}");
        assert!(picture.contains("last move A1"), "{picture}");
        assert!(!picture.contains('['), "{picture}");
        for line in picture.lines() {
            assert!(line.chars().count() < 40, "wider than 39: {line:?}");
        }
        let lifted = lifted(&g, &[], Style::new(false), 30);
        assert_eq!(row(&lifted, 1), " 1 #..................");
        assert!(lifted.lines().all(|l| l.chars().count() < 30), "{lifted}");
        // Narrower than even that: the picture says what it needs.
        let narrow = misty(&g, Style::new(false), 20);
        assert!(
            narrow.ends_with("needs a terminal 23 columns wide; this one has 20.)\n"),
            "{narrow}"
        );
    }

    #[test]
    fn the_legend_wraps_between_its_items() {
        let picture = misty(&game(&["A1"], Rule::Freestyle), Style::new(false), 50);
        let legend: Vec<&str> = picture.lines().skip(20).collect();
        assert_eq!(
            legend,
            [
                "   # Black  o White  @ mist  + hole centre M3",
                "   [ ] last move A1"
            ]
        );
    }

    #[test]
    fn blacks_forbidden_points_in_the_hole_are_marked_under_renju() {
        // Black's E5 would be a double three; S16 moves the hole to E8.
        let moves = ["C5", "A19", "D5", "C19", "E6", "E19", "E7", "S16"];
        let renju = game(&moves, Rule::Renju);
        let picture = misty(&renju, Style::new(false), 80);
        assert_eq!(row(&picture, 5).chars().nth(3 + 2 * 4), Some(FORBIDDEN));
        assert!(picture.contains("x forbidden to Black"), "{picture}");
        let freestyle = misty(&game(&moves, Rule::Freestyle), Style::new(false), 80);
        assert!(!freestyle.contains(FORBIDDEN), "{freestyle}");
    }

    #[test]
    fn colour_wraps_symbols_but_keeps_them() {
        let picture = misty(&game(&["J10"], Rule::Freestyle), Style::new(true), 80);
        assert!(picture.contains("\x1b["), "no colour in {picture:?}");
        assert!(picture.contains('#'), "{picture:?}");
    }
}
