//! The documentation's shell examples and links, checked so they cannot
//! drift: `README.md` and every `docs/*.md`, the guides found at run time,
//! so a new guide is covered without editing this file.
//!
//! Every ```` ```console ```` block is a transcript: each line starting
//! with `$ ` is a command, run with `sh -c` in the repository's root
//! (whichever file it is in) with the directory of the binaries under test
//! first on `PATH`, so `gomoku-mist` and `pbrain-gomoku-mist` are the
//! programs as just built; the lines after it, up to the next `$ ` line or
//! the end of the block, are its exact stdout. Stderr is not compared
//! unless the command merges it (`2>&1`), and the exit code only if the
//! command prints it (`; echo $?`). ```` ```text ```` and ```` ```sh ````
//! blocks are not run.
//!
//! Every relative link outside code must lead to a file or folder of the
//! repository, and a `#fragment` into a Markdown file to one of its
//! headings, so a moved file or a renamed section breaks the test, not the
//! reader.

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;

use crate::common::{self, BIN, HANG, diff};

/// The repository's root: every command runs here, every link is in here.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The documents checked, as paths from the root: the README first, then
/// the guides in name order.
fn documents(root: &Path) -> Vec<PathBuf> {
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

fn read(root: &Path, document: &Path) -> String {
    std::fs::read_to_string(root.join(document))
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", document.display()))
}

/// One command of a console block and the stdout it must print.
#[derive(Debug, PartialEq, Eq)]
struct Example {
    /// The line the command is on, from 1.
    line: usize,
    command: String,
    stdout: String,
}

/// The examples of every ```` ```console ```` block in `markdown`, in
/// order. Lines of a block before its first `$ ` line belong to no
/// example; a block left open at the end of the file ends there.
fn examples(markdown: &str) -> Vec<Example> {
    /// Where the parser is.
    enum State {
        Prose,
        /// In a block that is not run.
        OtherBlock,
        /// In a console block; `true` once it has had a command.
        Console(bool),
    }
    let mut examples: Vec<Example> = Vec::new();
    let mut state = State::Prose;
    for (index, line) in markdown.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        state = match state {
            State::Prose if fence && line.trim() == "```console" => State::Console(false),
            State::Prose if fence => State::OtherBlock,
            State::Prose => State::Prose,
            State::OtherBlock | State::Console(_) if fence => State::Prose,
            State::OtherBlock => State::OtherBlock,
            State::Console(started) => match line.strip_prefix("$ ") {
                Some(command) => {
                    examples.push(Example {
                        line: index + 1,
                        command: command.to_owned(),
                        stdout: String::new(),
                    });
                    State::Console(true)
                }
                None => {
                    if let (true, Some(example)) = (started, examples.last_mut()) {
                        example.stdout.push_str(line);
                        example.stdout.push('\n');
                    }
                    State::Console(started)
                }
            },
        };
    }
    examples
}

/// Runs `command` as the reader would; its stdout, or why not.
///
/// Not `assert_cmd`: on a timeout it kills `sh` and then waits for the
/// output pipe, which a program `sh` started may still hold open; here the
/// reading thread is left behind instead, so a hanging example fails.
fn run(root: &Path, command: &str) -> Result<Vec<u8>, String> {
    let bin_dir = Path::new(BIN)
        .parent()
        .ok_or("the binary's path has no parent directory")?;
    let path = match std::env::var_os("PATH") {
        Some(rest) => {
            let mut dirs = vec![bin_dir.to_path_buf()];
            dirs.extend(std::env::split_paths(&rest));
            std::env::join_paths(dirs).map_err(|e| format!("cannot build PATH: {e}"))?
        }
        None => bin_dir.as_os_str().to_owned(),
    };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(root)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start sh: {e}"))?;
    let mut stdout = child.stdout.take().ok_or("no stdout pipe")?;
    let (done, finished) = mpsc::channel();
    thread::spawn(move || {
        let mut out = Vec::new();
        let _ = done.send(stdout.read_to_end(&mut out).map(|_| out));
    });
    let out = match finished.recv_timeout(HANG) {
        Ok(read) => read.map_err(|e| format!("cannot read its stdout: {e}"))?,
        Err(_) => {
            let _ = child.kill();
            return Err(format!("no end after {HANG:?}: killed"));
        }
    };
    child
        .wait()
        .map_err(|e| format!("cannot wait for sh: {e}"))?;
    Ok(out)
}

/// Runs every example of `markdown` (the text of `name`): how many there
/// are, and one report per example that prints something else, naming the
/// file and line, with where its output first differs.
fn failed_examples(root: &Path, name: &str, markdown: &str) -> (usize, Vec<String>) {
    let examples = examples(markdown);
    let failures = examples
        .iter()
        .filter_map(|example| {
            let failure = match run(root, &example.command) {
                Err(e) => e,
                Ok(out) => diff(example.stdout.as_bytes(), &out)?,
            };
            Some(format!(
                "{name}:{}: $ {}\n{failure}",
                example.line, example.command
            ))
        })
        .collect();
    (examples.len(), failures)
}

/// A link's target as written, and the line it is on, from 1.
#[derive(Debug, PartialEq, Eq)]
struct Link {
    line: usize,
    target: String,
}

/// The targets of the inline links (`[text](target)`) of `markdown`, in
/// order, leaving out fenced blocks and code spans (a code span may run
/// over lines, but not past a blank line).
fn links(markdown: &str) -> Vec<Link> {
    let mut links = Vec::new();
    let mut in_fence = false;
    // The length of the backtick run that opened the code span we are in.
    let mut span: Option<usize> = None;
    for (index, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            span = None;
            continue;
        }
        if in_fence {
            continue;
        }
        if line.trim().is_empty() {
            span = None;
            continue;
        }
        let bytes = line.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            if bytes[at] == b'`' {
                let run = bytes[at..].iter().take_while(|&&b| b == b'`').count();
                span = match span {
                    None => Some(run),
                    Some(open) if open == run => None,
                    still => still,
                };
                at += run;
                continue;
            }
            if span.is_none() && bytes[at..].starts_with(b"](") {
                let rest = &line[at + 2..];
                let end = rest.find(')').unwrap_or(rest.len());
                // A title (`[a](b "c")`) is not part of the target.
                let target = rest[..end].split_whitespace().next().unwrap_or("");
                links.push(Link {
                    line: index + 1,
                    target: target.to_owned(),
                });
                at += 2 + end;
                continue;
            }
            at += 1;
        }
    }
    links
}

/// The anchor GitHub gives a heading: lower case, every character but
/// letters, digits, spaces, `-` and `_` dropped, spaces made `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of every heading of `markdown` outside fenced blocks, a
/// repeated one numbered as GitHub does (`name`, `name-1`, ...).
fn anchors(markdown: &str) -> HashSet<String> {
    let mut anchors = HashSet::new();
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        let hashes = line.bytes().take_while(|&b| b == b'#').count();
        if in_fence || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let mut anchor = base.clone();
        let mut n = 0;
        while anchors.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        anchors.insert(anchor);
    }
    anchors
}

/// Why the link `target`, written in `document` (a path from `root`, its
/// text `markdown`), leads nowhere, or `None` if it leads to a file or
/// folder of the repository (and to a heading there, if it names one).
/// Links with a scheme (`https:`, `mailto:`) are not followed.
fn broken(root: &Path, document: &Path, markdown: &str, target: &str) -> Option<String> {
    if target.contains(':') {
        return None;
    }
    if target.is_empty() {
        return Some("an empty link".to_owned());
    }
    if target.starts_with('/') {
        return Some("an absolute path: write it relative to this file".to_owned());
    }
    let (path, fragment) = match target.split_once('#') {
        Some((path, fragment)) => (path, Some(fragment)),
        None => (target, None),
    };
    if path.is_empty() {
        let fragment = fragment.unwrap_or("");
        return (!anchors(markdown).contains(fragment))
            .then(|| format!("no heading #{fragment} in this file"));
    }
    // Shown from the root, as the reader of the failure would look it up.
    let relative = document.parent().unwrap_or(Path::new("")).join(path);
    let Ok(found) = root.join(&relative).canonicalize() else {
        return Some(format!("no such file: {}", relative.display()));
    };
    let inside = root
        .canonicalize()
        .is_ok_and(|root| found.starts_with(root));
    if !inside {
        return Some(format!("outside the repository: {}", relative.display()));
    }
    let fragment = fragment.filter(|_| found.extension().is_some_and(|ext| ext == "md"))?;
    let markdown = std::fs::read_to_string(&found).ok()?;
    (!anchors(&markdown).contains(fragment))
        .then(|| format!("no heading #{fragment} in {}", relative.display()))
}

/// One report per broken link of `markdown`, the text of `document`.
fn broken_links(root: &Path, document: &Path, markdown: &str) -> Vec<String> {
    links(markdown)
        .into_iter()
        .filter_map(|link| {
            let why = broken(root, document, markdown, &link.target)?;
            Some(format!(
                "{}:{}: ({}): {why}",
                document.display(),
                link.line,
                link.target
            ))
        })
        .collect()
}

#[test]
fn documentation_console_examples_print_what_they_show() {
    let root = root();
    // Some examples run the planted-bug controller by its path.
    common::broken();
    let mut total = 0;
    let mut failures = Vec::new();
    for document in documents(root) {
        let name = document.display().to_string();
        let (count, failed) = failed_examples(root, &name, &read(root, &document));
        if document == Path::new("README.md") {
            assert!(
                count > 0,
                "README.md has no ```console block with a `$ ` command"
            );
        }
        total += count;
        failures.extend(failed);
    }
    assert!(
        failures.is_empty(),
        "{} of {total} documentation examples print something else \
         (expected: what the document shows; got: what the program prints):\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn documentation_links_lead_to_files_of_the_repository() {
    let root = root();
    let mut total = 0;
    let mut failures = Vec::new();
    for document in documents(root) {
        let markdown = read(root, &document);
        total += links(&markdown).len();
        failures.extend(broken_links(root, &document, &markdown));
    }
    assert!(
        total > 0,
        "no relative link found: is the link finder broken?"
    );
    assert!(
        failures.is_empty(),
        "{} of {total} documentation links lead nowhere:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_wrong_example_fails_naming_its_file_and_line_and_the_difference() {
    let markdown = "\
A guide.
```console
$ printf 'right\\n'
right
$ printf 'right\\n'
wrong
```
";
    let (count, failures) = failed_examples(root(), "docs/guide.md", markdown);
    assert_eq!(count, 2);
    assert_eq!(failures.len(), 1, "{failures:?}");
    let expected = "\
docs/guide.md:5: $ printf 'right\\n'
  stdout differs at line 1 (byte 0):
    expected | wrong⏎
    got      | right⏎
";
    assert_eq!(failures[0], expected);
}

#[test]
fn a_broken_link_fails_naming_its_file_and_line() {
    let markdown = "\
[fine](../README.md#exit-codes) and [gone](../src/contract.md)
[no such section](../README.md#no-such-section), `[in code](nowhere)`,
[out](../..) [web](https://example.org/x) [here](#a-heading) [abs](/src)

# A heading
";
    let failures = broken_links(root(), Path::new("docs/guide.md"), markdown);
    let found: Vec<&str> = failures
        .iter()
        .map(|failure| {
            failure
                .split_once("): ")
                .map_or(failure.as_str(), |(at, _)| at)
        })
        .collect();
    let expected = [
        "docs/guide.md:1: (../src/contract.md",
        "docs/guide.md:2: (../README.md#no-such-section",
        "docs/guide.md:3: (../..",
        "docs/guide.md:3: (/src",
    ];
    assert_eq!(found, expected, "{failures:#?}");
}

#[test]
fn links_outside_code_are_found_with_their_lines() {
    let markdown = "\
See [a](a.md) and [`b`](b.md#c \"title\").
`not [a](link)` and a span `over
a [line](x.md)` then [d](d.md).

```text
[e](e.md)
```
";
    let found = links(markdown);
    let expected = [(1, "a.md"), (1, "b.md#c"), (3, "d.md")].map(|(line, target)| Link {
        line,
        target: target.to_owned(),
    });
    assert_eq!(found, expected);
}

#[test]
fn headings_get_the_anchors_github_gives_them() {
    let markdown = "\
# Playing
### `--moves <HISTORY>`: start from a position
## The brain: `pbrain-gomoku-mist`
## Tests
## Tests
```sh
# a comment, not a heading
```
";
    let mut found: Vec<String> = anchors(markdown).into_iter().collect();
    found.sort();
    assert_eq!(
        found,
        [
            "--moves-history-start-from-a-position",
            "playing",
            "tests",
            "tests-1",
            "the-brain-pbrain-gomoku-mist",
        ]
    );
}

#[test]
fn console_blocks_are_split_into_commands_and_their_output() {
    let markdown = "\
intro
```console
$ echo a
a
$ true
```
```text
$ not run
```
```console
$ printf 'x\\ny\\n'
x
y
```
";
    let found = examples(markdown);
    let expected = [
        (3, "echo a", "a\n"),
        (5, "true", ""),
        (11, "printf 'x\\ny\\n'", "x\ny\n"),
    ]
    .map(|(line, command, stdout)| Example {
        line,
        command: command.to_owned(),
        stdout: stdout.to_owned(),
    });
    assert_eq!(found, expected);
}
