//! The reports: every format the kit writes, each a function of the
//! model ([`super::model`]) that writes nothing but its output —
//! [`text`] for a person, [`json`] for scripts, [`junit`] for CI servers,
//! and `mark`'s [`page`], [`gradescope`] and [`csv`].
//!
//! Here too, what every format shows of a run: bytes escaped so every one
//! shows, the first line that differs with its neighbours, and the exit
//! code. Output is compared as bytes; lines only help to show where. A
//! line is shown with `⏎` for its `\n`, so a missing newline, a `\r` or a
//! trailing space is as visible as a wrong word.

pub mod csv;
pub mod gradescope;
pub mod json;
pub mod junit;
#[cfg(test)]
mod marked_tests;
pub mod page;
pub mod text;

use std::ffi::OsString;
use std::fmt::Write as _;

use super::Expected;
use super::run::{End, Ran};

/// How many matching lines before the first difference are shown.
const CONTEXT: usize = 2;

/// Longest line shown whole; longer ones are cut in the middle.
const SHOWN: usize = 160;

/// Of a long input, this many lines are shown at each end.
pub const SHOWN_LINES: usize = 20;

/// `line` escaped: printable ASCII as it is, anything else as `\xNN`,
/// `\t`, `\r`, `\0`-style escapes; a final `\n` as `⏎`.
pub fn escape(line: &[u8]) -> String {
    let (body, newline) = match line.strip_suffix(b"\n") {
        Some(body) => (body, "⏎"),
        None => (line, ""),
    };
    let mut out = String::new();
    if body.len() > SHOWN {
        let (head, tail) = (&body[..SHOWN / 2], &body[body.len() - SHOWN / 2..]);
        out.extend(head.escape_ascii().map(char::from));
        let _ = write!(out, "…[{} bytes]…", body.len() - SHOWN);
        out.extend(tail.escape_ascii().map(char::from));
    } else {
        out.extend(body.escape_ascii().map(char::from));
    }
    out.push_str(newline);
    out
}

/// A path as reports show it: as it is when every byte is plain printable
/// ASCII, otherwise in double quotes with every byte that could upset a
/// terminal escaped, as command-line errors show arguments (but never cut).
pub fn shown_path(path: &std::path::Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    if !bytes.is_empty()
        && bytes
            .iter()
            .all(|&b| b.is_ascii_graphic() && b != b'"' && b != b'\\' && b != b'\'')
    {
        return path.to_string_lossy().into_owned();
    }
    format!("\"{}\"", crate::cli::args::inside_quotes(bytes))
}

/// `input` escaped as [`escape`] does, but whole and with each `\n` kept
/// a real newline: how JSON and JUnit show a fuzz example, which is meant
/// to be read as the session it is and copied whole, so neither cut nor
/// marked with `⏎`.
pub fn escape_keeping_newlines(input: &[u8]) -> String {
    input
        .split_inclusive(|&b| b == b'\n')
        .map(|l| {
            let body = l.strip_suffix(b"\n").unwrap_or(l);
            let mut s: String = body.escape_ascii().map(char::from).collect();
            if l.ends_with(b"\n") {
                s.push('\n');
            }
            s
        })
        .collect()
}

/// Every line of `bytes`, escaped, one per output line, each indented;
/// of more than `2 * most` lines, the first and last `most`.
pub fn escape_lines(bytes: &[u8], indent: &str, most: usize) -> String {
    let mut out = String::new();
    let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if i == most && lines.len() > 2 * most {
            let _ = writeln!(out, "{indent}…[{} more lines]…", lines.len() - 2 * most);
        }
        if i < most || i + most >= lines.len() {
            let _ = writeln!(out, "{indent}{}", escape(line));
        }
    }
    if bytes.is_empty() {
        let _ = writeln!(out, "{indent}(empty)");
    }
    out
}

/// Where two outputs on stdout first differ, shown as lines; `None` if
/// equal.
pub fn first_difference(expected: &[u8], got: &[u8]) -> Option<String> {
    difference("stdout", expected, got)
}

/// Where two outputs on the stream called `what` first differ, shown as
/// lines; `None` if equal.
pub fn difference(what: &str, expected: &[u8], got: &[u8]) -> Option<String> {
    if expected == got {
        return None;
    }
    let common = expected.iter().zip(got).take_while(|(a, b)| a == b).count();
    let start = expected[..common]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    let number = expected[..start].iter().filter(|&&b| b == b'\n').count() + 1;
    let mut out = String::new();
    let _ = writeln!(out, "  {what} differs at line {number} (byte {common}):");
    let before: Vec<&[u8]> = expected[..start].split_inclusive(|&b| b == b'\n').collect();
    for (i, line) in before
        .iter()
        .enumerate()
        .skip(before.len().saturating_sub(CONTEXT))
    {
        let _ = writeln!(out, "    line {:<4}| {}", i + 1, escape(line));
    }
    let _ = writeln!(out, "    expected | {}", line_at(expected, start));
    let _ = writeln!(out, "    got      | {}", line_at(got, start));
    Some(out)
}

/// The line starting at `start`, escaped, or a note that output ended.
fn line_at(bytes: &[u8], start: usize) -> String {
    let rest = bytes.get(start..).unwrap_or_default();
    if rest.is_empty() {
        return "(end of output)".to_owned();
    }
    let end = rest
        .iter()
        .position(|&b| b == b'\n')
        .map_or(rest.len(), |at| at + 1);
    let line = escape(&rest[..end]);
    if end == rest.len() && !line.ends_with('⏎') {
        return format!("{line}   (no newline at end)");
    }
    line
}

/// Why `ran` does not match `expected`, or `None` if it does. The first
/// line says what went wrong; any more lines show the detail.
pub fn compare(expected: &Expected, ran: &Ran) -> Option<String> {
    let mut out = String::new();
    match &ran.end {
        End::Code(code) if *code == expected.code => {}
        End::Code(code) => {
            let _ = writeln!(out, "  exit code {code}, expected {}", expected.code);
        }
        End::Signal(signal) => {
            let _ = writeln!(
                out,
                "  killed by {} (a crash?), expected exit code {}",
                super::run::signal_name(*signal),
                expected.code
            );
        }
        End::OverLimit(overrun) => {
            let _ = writeln!(out, "  {overrun}: killed");
        }
        End::TimedOut(limit) => {
            let _ = writeln!(
                out,
                "  still running after {limit:?}: killed (does it stop at end of input?)"
            );
        }
        End::TooMuchOutput(cap) => {
            let _ = writeln!(out, "  wrote more than {cap} bytes: killed");
        }
        End::CannotStart(why) => {
            let _ = writeln!(out, "  cannot start: {why}");
            return Some(out);
        }
        End::Unstarted(why) => {
            let _ = writeln!(out, "  not run: the kit could not start it ({why})");
            return Some(out);
        }
    }
    if let Some(diff) = first_difference(&expected.stdout, &ran.stdout) {
        out.push_str(&diff);
    }
    if out.is_empty() {
        return None;
    }
    if !ran.stderr.is_empty() {
        let first = ran.stderr.split(|&b| b == b'\n').next().unwrap_or_default();
        let _ = writeln!(out, "  stderr starts: {}", escape(first));
    }
    Some(out)
}

/// A short name for how a run ended, for the one-line summary.
pub fn summary(expected: &Expected, ran: &Ran) -> &'static str {
    match &ran.end {
        End::CannotStart(_) => "cannot start",
        End::Unstarted(_) => "not run",
        End::TimedOut(_) => "timed out",
        End::TooMuchOutput(_) => "too much output",
        End::Signal(_) => "crashed",
        End::OverLimit(overrun) => overrun.summary(),
        End::Code(code) if *code != expected.code && ran.stdout == expected.stdout => "exit code",
        End::Code(code) if *code != expected.code => "stdout and exit code",
        End::Code(_) => "stdout",
    }
}

/// `text` with the five characters XML gives a meaning escaped.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Reports escape control bytes already; this keeps any other
            // out of the XML, where they are not allowed.
            c if c.is_control() && c != '\n' && c != '\t' => {
                out.extend(c.escape_default());
            }
            c => out.push(c),
        }
    }
    out
}

/// The command as one line, each word quoted if it needs to be.
pub fn shown_command(command: &[OsString]) -> String {
    command
        .iter()
        .map(|word| quote(&word.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` in single quotes, as a shell (and `--program`) reads it.
pub fn quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@".contains(&b))
    {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_shows_every_odd_byte() {
        let cases: &[(&[u8], &str)] = &[
            (b"who\n", "who⏎"),
            (b"who\r\n", "who\\r⏎"),
            (b"a\tb\0\xff", "a\\tb\\x00\\xff"),
            (b"", ""),
        ];
        for (bytes, want) in cases {
            assert_eq!(escape(bytes), *want, "escaping {bytes:?}");
        }
    }

    #[test]
    fn first_difference_names_the_line_and_both_sides() {
        let diff =
            first_difference(b"B\nInvalid!\nW\n", b"B\nInvalid coordinate\n").expect("they differ");
        assert!(diff.contains("line 2 "), "{diff}");
        assert!(diff.contains("expected | Invalid!⏎"), "{diff}");
        assert!(diff.contains("got      | Invalid coordinate⏎"), "{diff}");
    }

    #[test]
    fn first_difference_shows_a_missing_end() {
        let diff = first_difference(b"B\n", b"B").expect("they differ");
        assert!(
            diff.contains("got      | B   (no newline at end)"),
            "{diff}"
        );
        let diff = first_difference(b"B\nW\n", b"B\n").expect("they differ");
        assert!(diff.contains("got      | (end of output)"), "{diff}");
    }

    #[test]
    fn equal_outputs_have_no_difference() {
        assert_eq!(first_difference(b"B\n", b"B\n"), None);
    }
}
