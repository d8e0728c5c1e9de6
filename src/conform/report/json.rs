//! JSON, for scripts: the model as serde writes it, in two layouts.
//!
//! [`rows`] is for a report that is a table (`check`'s cases, `fuzz`'s
//! findings, `cover`'s scenarios): each top-level field on a line, each
//! row of a list on a line of its own, so that `grep` and a diff read it
//! as well as a parser. [`pretty`] is for nested records (`mark`'s).

use std::io;

use serde::Serialize;
use serde_json::ser::{Formatter, Serializer};

/// `value` with its top-level fields a line each, and each element of a
/// top-level list a line of its own; everything deeper on that line,
/// `{"a": 1, "b": 2}`. Ends with a newline.
pub fn rows<T: Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    let mut writer = Serializer::with_formatter(&mut out, Rows::default());
    // The model holds strings, numbers and lists only: nothing serde
    // could refuse, and a vector takes every byte.
    if value.serialize(&mut writer).is_err() {
        return String::new();
    }
    out.push(b'\n');
    String::from_utf8(out).unwrap_or_default()
}

/// `value` indented two spaces a level, every field on a line of its own.
/// Ends with a newline.
pub fn pretty<T: Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// The layout of [`rows`]: how deep the writer is, and whether the
/// object or list it is in has had an element yet.
#[derive(Default)]
struct Rows {
    open: Vec<bool>,
}

impl Rows {
    /// Before an element at this depth (1: a top-level field; 2: a row
    /// of a top-level list), or inline deeper.
    fn before<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if let Some(had) = self.open.last_mut() {
            *had = true;
        }
        match self.open.len() {
            1 | 2 => {
                let indent = "    ".get(..2 * self.open.len()).unwrap_or_default();
                w.write_all(if first { b"\n" } else { b",\n" })?;
                w.write_all(indent.as_bytes())
            }
            _ if first => Ok(()),
            _ => w.write_all(b", "),
        }
    }

    /// The closing bracket, on a line of its own where elements were.
    fn close<W: ?Sized + io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        let had = self.open.pop().unwrap_or(false);
        if had && self.open.len() < 2 {
            w.write_all(b"\n")?;
            w.write_all("  ".repeat(self.open.len()).as_bytes())?;
        }
        w.write_all(bracket)
    }
}

impl Formatter for Rows {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open.push(false);
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.before(w, first)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open.push(false);
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.before(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Row {
        a: u8,
        b: Vec<&'static str>,
    }

    #[derive(Serialize)]
    struct Table {
        n: u8,
        none: Vec<Row>,
        rows: Vec<Row>,
    }

    #[test]
    fn a_table_is_a_line_a_field_and_a_line_a_row() {
        let table = Table {
            n: 2,
            none: Vec::new(),
            rows: vec![
                Row {
                    a: 1,
                    b: vec!["x", "y"],
                },
                Row { a: 2, b: vec![] },
            ],
        };
        assert_eq!(
            rows(&table),
            "{\n  \"n\": 2,\n  \"none\": [],\n  \"rows\": [\n    {\"a\": 1, \"b\": [\"x\", \"y\"]},\n    {\"a\": 2, \"b\": []}\n  ]\n}\n"
        );
        let parsed: serde_json::Value = serde_json::from_str(&rows(&table)).expect("JSON");
        assert_eq!(parsed["rows"][0]["b"][1], "y");
    }
}
