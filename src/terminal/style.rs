//! Colour on the terminal, or none: one switch decided at start-up, so the
//! drawing code never asks the environment.
//!
//! Colour is used only where the terminal side is a terminal and
//! `NO_COLOR` is unset or empty (<https://no-color.org>). Every styled
//! piece also reads plainly without colour: colour only repeats what the
//! symbols already say.

/// How to paint text for the terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    colour: bool,
}

/// What a piece of terminal text is, and so how it is painted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paint {
    /// A black stone.
    Black,
    /// A white stone.
    White,
    /// A point hidden by the mist, and other quiet text.
    Dim,
    /// The last move, and the hole's centre.
    Mark,
    /// The winning line.
    Win,
    /// A hint after a rejected line.
    Hint,
    /// Headings: the greeting's first line, a result.
    Strong,
}

impl Style {
    /// Colour if `on`, plain text otherwise.
    pub const fn new(on: bool) -> Style {
        Style { colour: on }
    }

    /// Colour exactly when the terminal side is a terminal and `no_color`
    /// (the value of `NO_COLOR`, if set) is absent or empty.
    pub fn detect(is_terminal: bool, no_color: Option<&std::ffi::OsStr>) -> Style {
        Style::new(is_terminal && no_color.is_none_or(|v| v.is_empty()))
    }

    /// Whether colour is on.
    pub const fn colour(self) -> bool {
        self.colour
    }

    /// `text` painted as `paint`, or `text` itself without colour.
    pub fn paint(self, paint: Paint, text: &str) -> String {
        if !self.colour {
            return text.to_owned();
        }
        let code = match paint {
            Paint::Black => "1;36",
            Paint::White => "1;33",
            Paint::Dim => "2",
            Paint::Mark => "7",
            Paint::Win => "1;32;7",
            Paint::Hint => "35",
            Paint::Strong => "1",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        let cases: &[(bool, Option<&str>, bool)] = &[
            (true, None, true),
            (true, Some(""), true),
            (true, Some("1"), false),
            (false, None, false),
            (false, Some("1"), false),
        ];
        for &(terminal, no_color, expected) in cases {
            let style = Style::detect(terminal, no_color.map(OsStr::new));
            assert_eq!(
                style.colour(),
                expected,
                "terminal {terminal}, NO_COLOR {no_color:?}"
            );
        }
    }

    #[test]
    fn plain_style_leaves_text_alone() {
        assert_eq!(Style::new(false).paint(Paint::Win, "X"), "X");
        assert_eq!(
            Style::new(true).paint(Paint::Strong, "X"),
            "\x1b[1mX\x1b[0m"
        );
    }
}
