//! The documentation's examples and links, checked so they cannot drift:
//! `README.md` and every `docs/*.md`, the guides found at run time, so a
//! new guide is covered without editing this file.
//!
//! Every fenced block is one of these, or the test fails naming it:
//!
//! - ```` ```console ````: a transcript. Each line starting with `$ ` is
//!   a command, run with `sh -c` in the repository's root (whichever file
//!   it is in) with the directory of the binaries under test, then that
//!   of the examples (`broken`, the planted-bug controller), first on
//!   `PATH`, so `gomoku-mist`, `pbrain-gomoku-mist` and `broken` are the
//!   programs as just built, wherever `CARGO_TARGET_DIR` puts them; the
//!   lines after it, up to the next `$ ` line or the end of the block,
//!   are its exact stdout. Stderr is not compared unless the command
//!   merges it (`2>&1`), and the exit code only if the command prints it
//!   (`; echo $?`).
//! - ```` ```sh ````: commands for the reader, shown and not run.
//! - Any other block is marked by an HTML comment on the last line before
//!   its fence that is not blank, which GitHub does not show:
//!   - `<!-- excerpt of: $ COMMAND -->`: the block is part of what
//!     COMMAND prints (run as a console command is), lines left out shown
//!     as a line starting with `…` (see `common::docs::excerpt_mismatch`);
//!     with no such line, all of it, byte for byte;
//!   - `<!-- excerpt of: test NAME -->`: the same, of what the test
//!     `NAME` produces; that test compares it (with
//!     `common::docs::assert_shown_in_docs("NAME", …)`), and this one
//!     checks that the test exists and does;
//!   - `<!-- conversation with: PROGRAM -->`: lines starting with `> `
//!     are PROGRAM's stdin, the others its exact stdout, but for the
//!     lines that start with `MESSAGE depth` (the search's timings);
//!   - `<!-- measured: WHAT, WHEN -->`: a dated record of a measurement
//!     (a bench's figures, which no two runs print alike), never an
//!     example of what the program prints now.
//!
//! Every relative link outside code must lead to a file or folder of the
//! repository, and a `#fragment` into a Markdown file to one of its
//! headings, so a moved file or a renamed section breaks the test, not the
//! reader.

use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;

use crate::common::docs::{Block, blocks, documents, excerpt_mismatch, read, root};
use crate::common::{self, BIN, HANG, diff};

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
/// example.
fn examples(markdown: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    for block in blocks(markdown).into_iter().filter(|b| b.info == "console") {
        let mut started = false;
        for (index, line) in block.body.lines().enumerate() {
            match line.strip_prefix("$ ") {
                Some(command) => {
                    examples.push(Example {
                        line: block.line + 1 + index,
                        command: command.to_owned(),
                        stdout: String::new(),
                    });
                    started = true;
                }
                None => {
                    if let (true, Some(example)) = (started, examples.last_mut()) {
                        example.stdout.push_str(line);
                        example.stdout.push('\n');
                    }
                }
            }
        }
    }
    examples
}

/// `PATH` for the examples: the binaries under test, then the examples
/// (built if missing), then the caller's own.
fn search_path() -> Result<std::ffi::OsString, String> {
    let bin_dir = Path::new(BIN)
        .parent()
        .ok_or("the binary's path has no parent directory")?;
    let broken = common::broken();
    let examples_dir = broken
        .parent()
        .ok_or("the example's path has no parent directory")?;
    let mut dirs = vec![bin_dir.to_path_buf(), examples_dir.to_path_buf()];
    if let Some(rest) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&rest));
    }
    std::env::join_paths(dirs).map_err(|e| format!("cannot build PATH: {e}"))
}

/// Runs `command` as the reader would, with `input` on stdin; its stdout,
/// or why not.
///
/// Not `assert_cmd`: on a timeout it kills `sh` and then waits for the
/// output pipe, which a program `sh` started may still hold open; here the
/// reading thread is left behind instead, so a hanging example fails.
fn run(root: &Path, command: &str, input: &[u8]) -> Result<Vec<u8>, String> {
    // Where bwrap cannot isolate, `mark` refuses unless told to go on
    // unprotected: told so here, the examples still show its marks.
    let unisolated = crate::common::unisolated().join(" ");
    let command = if unisolated.is_empty() {
        command.to_owned()
    } else {
        command.replace(
            "gomoku-mist mark ",
            &format!("gomoku-mist mark {unisolated} "),
        )
    };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(root)
        .env("PATH", search_path()?)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start sh: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin pipe")?;
    let input = input.to_vec();
    // A writer of its own, so a program that stops reading cannot block
    // the test; a program that does not read at all is not an error.
    thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().ok_or("no stdout pipe")?;
    let (done, finished) = mpsc::channel();
    thread::spawn(move || {
        let mut out = Vec::new();
        let _ = done.send(stdout.read_to_end(&mut out).map(|_| out));
    });
    // A bound for an example that hangs, not a measure of one that works:
    // marking the planted class under valgrind in bwrap's box takes some
    // 30 s on a quiet machine, and passed 60 s at a load of 10 and more
    // (it failed CI that way), so the bound is far past any load.
    let limit = HANG * 30;
    let out = match finished.recv_timeout(limit) {
        Ok(read) => read.map_err(|e| format!("cannot read its stdout: {e}"))?,
        Err(_) => {
            let _ = child.kill();
            return Err(format!("no end after {limit:?}: killed"));
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
            let failure = match run(root, &example.command, b"") {
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
    let mut total = 0;
    let mut failures = Vec::new();
    for document in documents() {
        let name = document.display().to_string();
        let (count, failed) = failed_examples(root, &name, &read(&document));
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

/// The test functions of `tests/`, by name, with the text of the file
/// each is in.
fn test_sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, found: &mut Vec<(String, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for path in entries.flatten().map(|entry| entry.path()) {
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    found.push((path.display().to_string(), text));
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(&root().join("tests"), &mut found);
    found
}

/// Why `block`, not a console block, is not checked, or `None` if it is
/// (see the module's documentation for the kinds of block).
fn unchecked(root: &Path, block: &Block, sources: &[(String, String)]) -> Option<String> {
    let marker = block.marker.as_deref().unwrap_or("");
    if let Some(command) = marker.strip_prefix("excerpt of: $ ") {
        return match run(root, command, b"") {
            Err(e) => Some(format!("$ {command}\n  {e}")),
            Ok(out) => excerpt_mismatch(&block.body, &String::from_utf8_lossy(&out))
                .map(|why| format!("not an excerpt of what `{command}` prints:\n{why}")),
        };
    }
    if let Some(name) = marker.strip_prefix("excerpt of: test ") {
        let defines = format!("fn {name}()");
        let compares = format!("assert_shown_in_docs(\"{name}\"");
        let source = sources.iter().find(|(_, text)| text.contains(&defines));
        return match source {
            None => Some(format!("no test {name} in tests/")),
            Some((file, text)) if !text.contains(&compares) => Some(format!(
                "the test {name} ({file}) does not compare the block: it must call \
                 common::docs::{compares}, …)"
            )),
            Some(_) => None,
        };
    }
    if let Some(program) = marker.strip_prefix("conversation with: ") {
        let mut input = String::new();
        let mut expected = String::new();
        for line in block.body.lines() {
            match line.strip_prefix("> ") {
                Some(sent) => input.push_str(sent),
                None => expected.push_str(line),
            }
            match line.starts_with("> ") {
                true => input.push('\n'),
                false => expected.push('\n'),
            }
        }
        return match run(root, program, input.as_bytes()) {
            Err(e) => Some(format!("{program}: {e}")),
            Ok(out) => {
                let out = String::from_utf8_lossy(&out);
                let kept: String = out
                    .lines()
                    .filter(|line| !line.starts_with("MESSAGE depth"))
                    .flat_map(|line| [line, "\n"])
                    .collect();
                diff(expected.as_bytes(), kept.as_bytes())
                    .map(|why| format!("{program} answers otherwise:\n{why}"))
            }
        };
    }
    if let Some(what) = marker.strip_prefix("measured: ") {
        return (!what.contains(',') || !what.chars().any(|c| c.is_ascii_digit())).then(|| {
            "a measurement names what was run and when: <!-- measured: COMMAND, DATE -->".to_owned()
        });
    }
    Some(match &block.marker {
        None => format!(
            "a ```{} block that nothing checks: make it a console block, a sh block of \
             commands, or mark it (see tests/it/readme.rs)",
            block.info
        ),
        Some(other) => format!("an unknown marker <!-- {other} --> (see tests/it/readme.rs)"),
    })
}

/// One report per block of `markdown` (the text of `name`) that is
/// neither run nor checked, or shows what the program does not print.
fn unchecked_blocks(
    root: &Path,
    name: &str,
    markdown: &str,
    sources: &[(String, String)],
) -> Vec<String> {
    blocks(markdown)
        .iter()
        .filter(|block| !matches!(block.info.as_str(), "console" | "sh"))
        .filter_map(|block| {
            let why = unchecked(root, block, sources)?;
            Some(format!("{name}:{}: {why}", block.line))
        })
        .collect()
}

#[test]
fn documentation_blocks_are_each_run_or_checked() {
    let root = root();
    let sources = test_sources();
    let mut total = 0;
    let mut failures = Vec::new();
    for document in documents() {
        let markdown = read(&document);
        total += blocks(&markdown).len();
        let name = document.display().to_string();
        failures.extend(unchecked_blocks(root, &name, &markdown, &sources));
    }
    assert!(
        total > 0,
        "no fenced block found: is the block finder broken?"
    );
    assert!(
        failures.is_empty(),
        "{} of {total} documentation blocks are not checked, or show what the program \
         does not print:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn documentation_links_lead_to_files_of_the_repository() {
    let root = root();
    let mut total = 0;
    let mut failures = Vec::new();
    for document in documents() {
        let markdown = read(&document);
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

#[test]
fn blocks_carry_their_marker_and_lines() {
    let markdown = "\
Prose.
<!-- excerpt of: test shown -->

```text
a
```
<!-- a comment, then prose -->
More prose.
```sh
ls
```
";
    let found = blocks(markdown);
    let expected = [
        (4, "text", Some("excerpt of: test shown"), "a\n"),
        (9, "sh", None, "ls\n"),
    ]
    .map(|(line, info, marker, body)| Block {
        line,
        info: info.to_owned(),
        marker: marker.map(str::to_owned),
        body: body.to_owned(),
    });
    assert_eq!(found, expected);
}

#[test]
fn an_excerpt_leaves_out_runs_of_lines_and_any_text_at_an_ellipsis() {
    let output = "one\ntwo\nthree\nfour 4.2 s\nfive\n";
    for excerpt in [
        "one\ntwo\nthree\nfour 4.2 s\nfive\n",
        "one\n…\nfive\n",
        "…\nthree\n…\n",
        "one\n  … (two lines)\nfour … s\nfive\n",
        "…\nfour …\n…\n",
        "one\ntwo\nthree\nfour … s\nfive\n",
    ] {
        assert_eq!(excerpt_mismatch(excerpt, output), None, "{excerpt:?}");
    }
    for excerpt in [
        "one\ntwo\n",                  // the end is left out unannounced
        "two\n…\n",                    // so is the start
        "one\n…\nthree\ntwo\n",        // out of order
        "…\nfour s\n…\n",              // a changed line
        "one\n…\nfour\n",              // not the last line
        "one\ntwo\nthree\nfour … s\n", // a line short, with a wildcard
    ] {
        assert!(
            excerpt_mismatch(excerpt, output).is_some(),
            "{excerpt:?} passed"
        );
    }
    let why = excerpt_mismatch("…\nthree\nfive\n…\n", output).expect("a mismatch");
    assert!(
        why.contains("lines 2 to 3 are not in the output after its line 0"),
        "{why}"
    );
}

#[test]
fn a_block_nothing_checks_fails_naming_its_file_and_line() {
    let markdown = "\
```text
shown, checked by nobody
```
<!-- excerpt of: $ printf 'a\\nb\\n' -->
```text
a
…
```
<!-- excerpt of: $ printf 'a\\n' -->
```text
b
```
<!-- excerpt of: test no_such_test_anywhere -->
```text
x
```
<!-- measured: cargo bench, 2026-12-01 -->
```text
42 ms
```
<!-- measured: sometime -->
```text
42 ms
```
<!-- conversation with: sed s/^/got:/ -->
```text
> hello
got:hello
```
<!-- wat -->
```text
x
```
```sh
cargo test
```
";
    let failures = unchecked_blocks(root(), "docs/guide.md", markdown, &test_sources());
    let found: Vec<&str> = failures
        .iter()
        .map(|failure| {
            failure
                .split_once(": ")
                .map_or(failure.as_str(), |(at, _)| at)
        })
        .collect();
    assert_eq!(
        found,
        [
            "docs/guide.md:1",
            "docs/guide.md:10",
            "docs/guide.md:14",
            "docs/guide.md:22",
            "docs/guide.md:31"
        ],
        "{failures:#?}"
    );
    assert!(failures[0].contains("a ```text block that nothing checks"));
    assert!(failures[2].contains("no test no_such_test_anywhere in tests/"));
}
