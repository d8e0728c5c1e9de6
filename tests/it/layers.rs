//! The layers of `src/`, checked: each folder imports only the layers below
//! it, and no two modules import each other, however far round.
//!
//! The crate doc's code map promises the order. This reads every source
//! file, collects the crate paths its code names (`crate::…`, `super::…`,
//! `use` groups), and fails on a path that points the wrong way or closes
//! a circle, naming the file and the path.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, lowest first, and what each may import besides itself.
/// `rng` and `cli::args` are the helpers `lib.rs` names as shared by the
/// shells; `cli` is the command line of every shell, so it sits on top.
const ALLOWED: &[(&str, &[&str])] = &[
    ("rules", &[]),
    ("engine", &["rules"]),
    ("controller", &["rules", "engine"]),
    ("rng", &[]),
    ("cli::args", &[]),
    ("terminal", SHELL),
    ("gomocup", SHELL),
    ("conform", SHELL),
    (
        "cli",
        &[
            "rules",
            "engine",
            "controller",
            "rng",
            "cli::args",
            "terminal",
            "gomocup",
            "conform",
        ],
    ),
];

/// What every shell may import.
const SHELL: &[&str] = &["rules", "engine", "controller", "rng", "cli::args"];

/// The modules that `lib.rs` re-exports at the root from the core.
const CORE_AT_ROOT: &[&str] = &[
    "point", "player", "board", "rule", "mist", "game", "command", "contract",
];

/// I/O, which the core and the engine never do.
const IO: &[&str] = &[
    "std::io",
    "std::fs",
    "std::process",
    "std::net",
    "std::env",
    "print!",
    "println!",
    "eprint",
];

/// A source file's module path, e.g. `["engine", "search", "vcf"]`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_owned());
    }
    parts
}

/// The layer a module path belongs to, or `None` for the crate's roots
/// (`lib.rs`, the binaries), which may import anything.
fn layer(path: &[String]) -> Option<String> {
    let first = path.first()?;
    if CORE_AT_ROOT.contains(&first.as_str()) {
        return Some("rules".to_owned());
    }
    if first == "cli" && path.get(1).is_some_and(|p| p == "args") {
        return Some("cli::args".to_owned());
    }
    ALLOWED
        .iter()
        .any(|(name, _)| name == first)
        .then(|| first.clone())
}

/// The code of a file without its comments (documentation may name any
/// module; code may not) and without its unit tests, whose `super` is the
/// file itself.
fn code_of(text: &str) -> String {
    let text = text.split("mod tests {").next().unwrap_or_default();
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .map(|line| match line.find(" // ") {
            Some(at) => &line[..at],
            None => line,
        })
        .flat_map(|line| [line, "\n"])
        .collect()
}

/// Every crate path `code` names, each as the module path it starts
/// with, resolved from the file at `here`: `crate::a::b`, `super::c`, and
/// each name of a `use crate::{a, b::{c, d}}` group.
fn paths_named(code: &str, here: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let start = if rest.starts_with("crate::") {
            Some((Vec::new(), "crate::".len()))
        } else if rest.starts_with("super::") {
            let mut base = here.to_vec();
            let mut skip = 0;
            while code[at + skip..].starts_with("super::") {
                base.pop();
                skip += "super::".len();
            }
            Some((base, skip))
        } else {
            None
        };
        let boundary = at == 0 || {
            let c = bytes[at - 1];
            !(c.is_ascii_alphanumeric() || c == b'_' || c == b':')
        };
        match start {
            Some((base, skip)) if boundary => {
                let end = tree_end(&code[at + skip..]);
                for path in expand(&code[at + skip..at + skip + end]) {
                    let mut full = base.clone();
                    full.extend(path);
                    found.push(full);
                }
                at += skip + end.max(1);
            }
            _ => at += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    found
}

/// The length of the path tree at the start of `s`: names, `::` and
/// balanced `{…}` groups.
fn tree_end(s: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            c if c.is_alphanumeric() || c == '_' || c == ':' => {}
            c if depth > 0 && (c == ',' || c.is_whitespace() || c == '*') => {}
            _ if depth == 0 => return i,
            _ => {}
        }
    }
    s.len()
}

/// The module paths in a path tree such as `a::{b::c, d}`: the names
/// before the last `::` of each leaf (the last segment may be an item).
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let parts: Vec<String> = tree
            .split("::")
            .filter(|p| !p.is_empty())
            .map(|p| p.trim().to_owned())
            .collect();
        return vec![parts];
    };
    let prefix: Vec<String> = tree[..open]
        .split("::")
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut out = Vec::new();
    let (mut depth, mut from) = (0, 0);
    for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                for tail in expand(&inner[from..i]) {
                    let mut path = prefix.clone();
                    path.extend(tail.into_iter().filter(|p| p != "self"));
                    out.push(path);
                }
                from = i + 1;
            }
            _ => {}
        }
    }
    out
}

struct File {
    path: PathBuf,
    module: Vec<String>,
    code: String,
}

fn sources() -> Vec<File> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut folders = vec![src.clone()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).expect("src/ is readable") {
            let path = entry.expect("src/ is readable").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(&src).expect("under src/");
                let text = fs::read_to_string(&path).expect("source is UTF-8");
                files.push(File {
                    module: module_path(relative),
                    code: code_of(&text),
                    path: relative.to_owned(),
                });
            }
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

fn allowed(from: &str) -> &'static [&'static str] {
    ALLOWED
        .iter()
        .find(|(name, _)| *name == from)
        .map_or(&[], |(_, allowed)| allowed)
}

/// Each import that points the wrong way, as `file: names path (layer)`.
fn wrong_way(files: &[File]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let Some(from) = layer(&file.module) else {
            continue;
        };
        for path in paths_named(&file.code, &file.module) {
            let Some(to) = layer(&path) else { continue };
            if to != from && !allowed(&from).contains(&to.as_str()) {
                found.push(format!(
                    "src/{}: {from} names {} ({to})",
                    file.path.display(),
                    path.join("::")
                ));
            }
        }
        if matches!(from.as_str(), "rules" | "engine") {
            for word in IO {
                if file.code.contains(word) {
                    found.push(format!(
                        "src/{}: {from} does I/O ({word})",
                        file.path.display()
                    ));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// A circle between modules, if there is one: each module's edges are
/// the modules its code names anywhere, in a `use` line or in a path such
/// as `super::mark::HELP` in an expression (`mod` lines name none).
fn circle(files: &[File]) -> Option<Vec<String>> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let from = file.module.join("::");
        for mut path in paths_named(&file.code, &file.module) {
            // The longest prefix of the path that is a module of ours.
            while !path.is_empty() && !modules.contains(&path) {
                path.pop();
            }
            let to = path.join("::");
            // A module may name its own parent's items (`super::X`): the
            // parent holds them, not a circle.
            if !path.is_empty() && to != from && !file.module.starts_with(&path) {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, bool>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(true) => {
                let at = stack.iter().position(|n| n == node).unwrap_or(0);
                let mut circle = stack[at..].to_vec();
                circle.push(node.to_owned());
                return Some(circle);
            }
            Some(false) => return None,
            None => {}
        }
        state.insert(node.to_owned(), true);
        stack.push(node.to_owned());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, edges, state, stack) {
                return Some(circle);
            }
        }
        stack.pop();
        state.insert(node.to_owned(), false);
        None
    }
    let mut state = BTreeMap::new();
    edges
        .keys()
        .find_map(|node| visit(node, &edges, &mut state, &mut Vec::new()))
}

#[test]
fn the_scan_reads_each_way_of_naming_a_module() {
    let here = |p: &str| p.split("::").map(str::to_owned).collect::<Vec<_>>();
    let named = |code: &str, at: &str| -> Vec<String> {
        paths_named(code, &here(at))
            .into_iter()
            .map(|p| p.join("::"))
            .collect()
    };
    assert_eq!(
        named("use crate::controller::text;", "rules::board"),
        ["controller::text"]
    );
    assert_eq!(
        named(
            "use crate::{rules::point::Point, engine::{Engine, tt}};",
            "x"
        ),
        ["rules::point::Point", "engine::Engine", "engine::tt"]
    );
    assert_eq!(
        named("use super::super::cli::args::Spec;", "conform::check"),
        ["cli::args::Spec"]
    );
    assert_eq!(
        named("let x = crate::text::EMPTY;", "rules::game"),
        ["text::EMPTY"]
    );
    assert!(named("let not_crate::x = 1;", "rules").is_empty());
    // Each of those, in the wrong layer, is reported.
    for (code, at) in [
        ("use crate::controller::text;", "rules/board.rs"),
        ("use crate::{board::Board, terminal};", "engine/eval.rs"),
        ("use super::super::terminal::hint;", "conform/check.rs"),
        ("use crate::cli::play::Play;", "conform/check.rs"),
        ("use std::io::Write;", "engine/eval.rs"),
    ] {
        let relative = PathBuf::from(at);
        let file = File {
            module: module_path(&relative),
            code: code.to_owned(),
            path: relative,
        };
        assert_eq!(wrong_way(&[file]).len(), 1, "{code} in {at}");
    }
    let ok = File {
        module: module_path(Path::new("conform/check.rs")),
        code: "use crate::cli::args::Spec; use crate::rules::point::Point;".to_owned(),
        path: PathBuf::from("conform/check.rs"),
    };
    assert!(wrong_way(&[ok]).is_empty());
}

#[test]
fn the_circle_check_finds_a_circle() {
    let file = |at: &str, code: &str| File {
        module: module_path(Path::new(at)),
        code: code.to_owned(),
        path: PathBuf::from(at),
    };
    let files = [
        file("engine/search.rs", "use super::time::Budget;"),
        file("engine/time.rs", "use super::search::MAX_DEPTH;"),
    ];
    assert_eq!(
        circle(&files),
        Some(vec![
            "engine::search".to_owned(),
            "engine::time".to_owned(),
            "engine::search".to_owned()
        ])
    );
    assert_eq!(circle(&files[..1]), None);
    // A path in code closes a circle as a `use` line does, whichever way
    // it is written.
    let files = [
        file("cli/kit.rs", "fn help() -> &str { super::mark::HELP }"),
        file("cli/mark.rs", "let t = crate::cli::kit::read_timeout(v)?;"),
    ];
    let found = circle(&files).map(|c| c.join(" -> "));
    assert_eq!(found.as_deref(), Some("cli::kit -> cli::mark -> cli::kit"));
}

#[test]
fn every_layer_imports_only_the_layers_below_it() {
    let found = wrong_way(&sources());
    assert!(
        found.is_empty(),
        "imports against the layers (rules < engine < controller < shells < cli):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_two_modules_import_each_other() {
    if let Some(circle) = circle(&sources()) {
        panic!("an import circle: {}", circle.join(" -> "));
    }
}
