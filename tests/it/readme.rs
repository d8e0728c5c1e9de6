//! The README's shell examples, run as written, so they cannot drift.
//!
//! Every ```` ```console ```` block of `README.md` is a transcript: each
//! line starting with `$ ` is a command, run with `sh -c` in the
//! repository's root with the directory of the binary under test first on
//! `PATH`, so `gomoku-mist` is the program as just built; the lines after
//! it, up to the next `$ ` line or the end of the block, are its exact
//! stdout. Stderr is not compared unless the command merges it (`2>&1`),
//! and the exit code only if the command prints it (`; echo $?`).
//! ```` ```text ```` and ```` ```sh ```` blocks are not run.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;

use crate::common::{BIN, HANG, diff};

/// One command of a console block and the stdout it must print.
#[derive(Debug, PartialEq, Eq)]
struct Example {
    /// The README line the command is on, from 1.
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

/// Runs `command` as the README's reader would; its stdout, or why not.
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

#[test]
fn readme_console_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("read README.md");
    let examples = examples(&readme);
    assert!(
        !examples.is_empty(),
        "README.md has no ```console block with a `$ ` command"
    );
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|example| {
            let failure = match run(root, &example.command) {
                Err(e) => e,
                Ok(out) => diff(example.stdout.as_bytes(), &out)?,
            };
            Some(format!(
                "README.md:{}: $ {}\n{failure}",
                example.line, example.command
            ))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} README examples print something else (expected: the README; \
         actual: the program):\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
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
