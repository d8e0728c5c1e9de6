//! The fenced blocks of the documentation (`README.md` and `docs/*.md`),
//! and how a block that shows part of a program's output is compared with
//! that output: for the documentation test (`tests/it/readme.rs`) and for
//! the tests a block names as its source.
//!
//! A block is marked by an HTML comment, alone on the last line before
//! its fence that is not blank (GitHub shows nothing of it), e.g.
//! `<!-- excerpt of: test a_game_at_level_3 -->`; see `tests/it/readme.rs`
//! for the markers.

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The documents checked, as paths from the root: the README first, then
/// the guides in name order (found at run time, so a new guide is
/// covered without editing a test).
pub fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut guides: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("read the docs folder")
        .map(|entry| entry.expect("read an entry of docs/").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .filter_map(|path| path.strip_prefix(root).ok().map(Path::to_path_buf))
        .collect();
    guides.sort();
    let mut documents = vec![PathBuf::from("README.md")];
    documents.extend(guides);
    documents
}

/// The text of `document`, a path from the root.
pub fn read(document: &Path) -> String {
    std::fs::read_to_string(root().join(document))
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", document.display()))
}

/// One fenced block.
#[derive(Debug, PartialEq, Eq)]
pub struct Block {
    /// The line of its opening fence, from 1.
    pub line: usize,
    /// What follows the opening fence's backticks, e.g. `console`.
    pub info: String,
    /// The text of the HTML comment on the last line before the fence
    /// that is not blank, trimmed, if that line is one.
    pub marker: Option<String>,
    /// Its lines, each with its newline.
    pub body: String,
}

/// Whether `line` opens or closes a fenced block.
pub fn is_fence(line: &str) -> bool {
    line.trim_start().starts_with("```")
}

/// The fenced blocks of `markdown`, in order; a block left open at the
/// end of the file ends there.
pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    let mut last_text: Option<&str> = None;
    for (index, line) in markdown.lines().enumerate() {
        if is_fence(line) {
            match open.take() {
                Some(block) => blocks.push(block),
                None => {
                    let marker = last_text
                        .map(str::trim)
                        .and_then(|l| l.strip_prefix("<!--"))
                        .and_then(|l| l.strip_suffix("-->"))
                        .map(|l| l.trim().to_owned());
                    open = Some(Block {
                        line: index + 1,
                        info: line.trim().trim_start_matches('`').trim().to_owned(),
                        marker,
                        body: String::new(),
                    });
                }
            }
            last_text = None;
            continue;
        }
        match &mut open {
            Some(block) => {
                block.body.push_str(line);
                block.body.push('\n');
            }
            None if line.trim().is_empty() => {}
            None => last_text = Some(line),
        }
    }
    blocks.extend(open);
    blocks
}

/// Whether `line` of an excerpt stands for lines left out: its first
/// character but spaces is `…`, as in `   … (rows 9 to 1, all mist)`.
pub fn is_elision(line: &str) -> bool {
    line.trim_start().starts_with('…')
}

/// Whether the output line `out` is what the excerpt line `shown` shows:
/// the same, but that a `…` inside `shown` stands for any text (a time,
/// a count of cores: what no two runs print alike).
pub fn line_matches(shown: &str, out: &str) -> bool {
    let mut parts = shown.split('…');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = out.strip_prefix(first) else {
        return false;
    };
    let mut parts: Vec<&str> = parts.collect();
    let Some(last) = parts.pop() else {
        return rest.is_empty();
    };
    for part in parts {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Why `excerpt` is not an excerpt of `output`, or `None` if it is one.
///
/// An excerpt is the output with runs of lines left out, each run shown
/// as one elision line ([`is_elision`]); every other line must be there
/// as shown ([`line_matches`]), in order, and lines between two elisions
/// stand together in the output. Without an elision first (or last), the
/// excerpt starts (or ends) where the output does.
pub fn excerpt_mismatch(excerpt: &str, output: &str) -> Option<String> {
    let shown: Vec<&str> = excerpt.lines().collect();
    let out: Vec<&str> = output.lines().collect();
    if !excerpt.contains('…') {
        return super::diff(excerpt.as_bytes(), output.as_bytes());
    }
    let open_start = shown.first().is_some_and(|line| is_elision(line));
    let open_end = shown.last().is_some_and(|line| is_elision(line));
    // Runs of shown lines, with the excerpt line each starts on.
    let mut runs: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut current: Option<(usize, Vec<&str>)> = None;
    for (index, line) in shown.iter().enumerate() {
        match (is_elision(line), &mut current) {
            (true, _) => runs.extend(current.take()),
            (false, Some((_, run))) => run.push(line),
            (false, None) => current = Some((index, vec![line])),
        }
    }
    runs.extend(current);
    if runs.len() == 1 && !open_start && !open_end && out.len() != shown.len() {
        return Some(format!(
            "  the excerpt shows all {} lines of the output, which has {}\n",
            shown.len(),
            out.len()
        ));
    }
    let mut at = 0;
    let last = runs.len().saturating_sub(1);
    for (n, (start, run)) in runs.iter().enumerate() {
        let fits = |from: usize| {
            out.get(from..from + run.len()).is_some_and(|lines| {
                lines
                    .iter()
                    .zip(run)
                    .all(|(out, shown)| line_matches(shown, out))
            })
        };
        let found = if n == 0 && !open_start {
            fits(0).then_some(0)
        } else if n == last && !open_end {
            out.len()
                .checked_sub(run.len())
                .filter(|&from| from >= at && fits(from))
        } else {
            (at..=out.len().saturating_sub(run.len())).find(|&from| fits(from))
        };
        match found {
            Some(from) => at = from + run.len(),
            None => {
                let place = match (n, open_start, n == last && !open_end) {
                    (0, false, _) => "at the start of the output".to_owned(),
                    (_, _, true) => "at the end of the output".to_owned(),
                    _ => format!("in the output after its line {at}"),
                };
                let near: Vec<String> = out
                    .iter()
                    .enumerate()
                    .skip(at)
                    .take(8)
                    .map(|(i, line)| format!("    {:>4} | {line}", i + 1))
                    .collect();
                return Some(format!(
                    "  the excerpt's lines {} to {} are not {place}:\n{}\n  the output from its line {}:\n{}\n",
                    start + 1,
                    start + run.len(),
                    run.iter()
                        .map(|line| format!("         | {line}"))
                        .collect::<Vec<_>>()
                        .join("\n"),
                    at + 1,
                    near.join("\n"),
                ));
            }
        }
    }
    None
}

/// The block marked `<!-- excerpt of: test NAME -->` for the test `name`:
/// where it is (`docs/guide.md:12`) and its text.
///
/// # Panics
///
/// If no block, or more than one, is so marked.
pub fn excerpt_of_test(name: &str) -> (String, String) {
    let marker = format!("excerpt of: test {name}");
    let mut found = Vec::new();
    for document in documents() {
        for block in blocks(&read(&document)) {
            if block.marker.as_deref() == Some(marker.as_str()) {
                found.push((format!("{}:{}", document.display(), block.line), block.body));
            }
        }
    }
    assert_eq!(
        found.len(),
        1,
        "blocks marked <!-- {marker} -->: {:?}",
        found.iter().map(|(at, _)| at).collect::<Vec<_>>()
    );
    found.remove(0)
}

/// Fails unless the block marked as an excerpt of the test `name` is an
/// excerpt of `output`, which that test produced.
pub fn assert_shown_in_docs(name: &str, output: &str) {
    let (at, excerpt) = excerpt_of_test(name);
    if let Some(why) = excerpt_mismatch(&excerpt, output) {
        panic!(
            "{at}: the block marked as an excerpt of the test {name} is not one of what it shows \
             (fix the guide or the program):\n{why}\nthe whole output:\n{output}"
        );
    }
}
