//! The core stays pure: it names no output module and does no I/O.
//!
//! The crate doc's code map promises that the rules core (points, board,
//! mist, game, the command grammar) sits below everything that prints or
//! reads; a stray `use crate::text` would quietly make a circle. This reads
//! the core's source files and fails on any such reference.

use std::fs;
use std::path::Path;

/// The modules of the core, as files under `src/`.
const CORE: [&str; 8] = [
    "point.rs",
    "player.rs",
    "board.rs",
    "rule.rs",
    "mist.rs",
    "game.rs",
    "command.rs",
    "decode.rs",
];

/// Modules of the output side and the shells, which the core may not use.
const SHELL_MODULES: [&str; 4] = ["text", "output", "session", "cli"];

/// I/O, which the core never does.
const IO: [&str; 8] = [
    "std::io",
    "std::fs",
    "std::process",
    "std::net",
    "std::env",
    "print!",
    "println!",
    "eprint",
];

/// Whether `word` occurs in `code` not as the tail of a longer name.
fn has_word(code: &str, word: &str) -> bool {
    code.match_indices(word).any(|(at, _)| {
        !code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The names in each `crate::{...}` group of `code` (one level deep).
fn grouped_names(code: &str) -> Vec<&str> {
    code.match_indices("crate::{")
        .filter_map(|(at, open)| {
            let rest = &code[at + open.len()..];
            rest.find('}').map(|end| &rest[..end])
        })
        .flat_map(|group| {
            group
                .split(',')
                .map(|name| name.trim().trim_end_matches("::{"))
        })
        .collect()
}

/// What `code` (one core file, comments removed) uses that it may not.
fn violations(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for module in SHELL_MODULES {
        let path = format!("{module}::");
        let full = format!("crate::{module}");
        let named_whole = code.match_indices(&full).any(|(at, _)| {
            !code[at + full.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        });
        if named_whole
            || has_word(code, &path)
            || grouped_names(code).iter().any(|name| {
                name == &module
                    || name.starts_with(&path)
                    || name.starts_with(&format!("{module} "))
            })
        {
            found.push(format!("the module `{module}`"));
        }
    }
    found.extend(
        IO.iter()
            .filter(|word| has_word(code, word))
            .map(|word| format!("`{word}`")),
    );
    found
}

#[test]
fn the_check_catches_each_way_of_naming_a_shell_module() {
    let cases = [
        ("use crate::text;", true),
        ("use crate::text::{OFF_BOARD, symbol};", true),
        ("use crate::{board::Board, text};", true),
        ("let b = text::EMPTY;", true),
        ("use crate::{output::Output, point::Point};", true),
        ("use std::io::Write;", true),
        ("use crate::{board::Board, point::Point};", false),
        ("let context::x = 1;", false),
    ];
    for (code, bad) in cases {
        assert_eq!(!violations(code).is_empty(), bad, "{code}");
    }
}

#[test]
fn core_imports_no_output_or_shell_module() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for file in CORE {
        let path = src.join(file);
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        // Documentation may mention other modules; code may not.
        let code: String = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .flat_map(|line| [line, "\n"])
            .collect();
        found.extend(
            violations(&code)
                .into_iter()
                .map(|what| format!("src/{file} uses {what}")),
        );
    }
    assert!(
        found.is_empty(),
        "the core must not depend on output, shells or I/O:\n{}",
        found.join("\n")
    );
}
