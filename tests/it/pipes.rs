//! The binary as a process: a client that waits for each reply, and a
//! reader that goes away.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::{HANG, spawn, stderr_of};

/// A running program driven one command at a time, as a GUI or a bot
/// would drive it: stdin stays open between commands.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
}

impl Client {
    fn start() -> Client {
        let mut child = spawn(None);
        let stdout = child.stdout.take().expect("stdout is piped");
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match stdout.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if send.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Client {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin
            .write_all(command.as_bytes())
            .expect("write a command");
        stdin.write_all(b"\n").expect("write a newline");
        stdin.flush().expect("flush stdin");
    }

    /// The next line of output, which must come while stdin is still open.
    fn reply(&self) -> String {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(10))
            .expect("a reply within 10 s while stdin stays open");
        String::from_utf8(line).expect("replies are ASCII")
    }

    /// Sends `command` and expects exactly `expected` back, line by line.
    fn exchange(&mut self, command: &str, expected: &[&str]) {
        self.send(command);
        for want in expected {
            assert_eq!(self.reply(), format!("{want}\n"), "reply to {command:?}");
        }
    }

    /// Nothing more is printed: checked by the reply to a `who`.
    fn silent(&mut self, command: &str, player_to_move_after: &str) {
        self.exchange(command, &[]);
        self.exchange("who", &[player_to_move_after]);
    }

    fn exit_code(mut self) -> Option<i32> {
        drop(self.stdin.take());
        wait(&mut self.child).code()
    }
}

fn wait(child: &mut Child) -> std::process::ExitStatus {
    let deadline = Instant::now() + HANG;
    loop {
        if let Some(status) = child.try_wait().expect("poll the child") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the program did not end within {HANG:?}");
        }
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn each_kind_of_reply_comes_at_once_while_stdin_stays_open() {
    let mut client = Client::start();
    client.exchange("who", &["B"]);
    client.exchange("history", &[""]);
    client.exchange(
        "view",
        &["J10,................................................."],
    );
    client.exchange("bogus", &["Invalid!"]);
    client.exchange("place Z1", &["Invalid coordinate"]);
    client.silent("place A1", "W");
    client.exchange("place A1", &["Occupied coordinate"]);
    client.exchange(
        "view",
        &["M3,..........................................xxxxxxx"],
    );
    client.exchange("history", &["A1"]);
    client.exchange("resign", &["Black wins!", "A1", "Thank you for playing!"]);
    // The game is over: the program ends without waiting for stdin to close.
    assert_eq!(wait(&mut client.child).code(), Some(0));
}

#[test]
fn term_ends_at_once_with_code_1() {
    let mut client = Client::start();
    client.exchange("who", &["B"]);
    client.send("term");
    assert_eq!(wait(&mut client.child).code(), Some(1));
    assert!(client.lines.recv_timeout(Duration::from_secs(5)).is_err());
}

#[test]
fn end_of_input_ends_with_code_1() {
    let mut client = Client::start();
    client.exchange("who", &["B"]);
    assert_eq!(client.exit_code(), Some(1));
}

#[test]
fn a_closed_stdout_ends_the_program_quietly() {
    // `yes view | gomoku-mist | head -1`: the reader leaves after one line
    // while input keeps coming.
    let mut child = spawn(None);
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let feeder = thread::spawn(move || {
        let chunk = b"view\n".repeat(4096);
        // Stops when the program has gone, as `yes` does.
        while stdin.write_all(&chunk).is_ok() {}
    });
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("read one line");
    assert_eq!(
        first,
        "J10,.................................................\n"
    );
    drop(stdout);
    let status = wait(&mut child);
    feeder.join().expect("the feeder ends once the program has");
    assert_eq!(stderr_of(&mut child), "", "nothing on stderr");
    assert_eq!(status.code(), Some(1));
}

#[test]
fn any_other_write_error_ends_the_program_with_code_1() {
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        return; // not on this system
    }
    let full = std::fs::File::options()
        .write(true)
        .open(full)
        .expect("open /dev/full");
    let mut child = spawn(Some(Stdio::from(full)));
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let _ = stdin.write_all(&b"view\n".repeat(100_000));
    drop(stdin);
    let status = wait(&mut child);
    let stderr = stderr_of(&mut child);
    assert_eq!(status.code(), Some(1));
    assert!(
        stderr.starts_with("gomoku-mist: cannot write output: "),
        "stderr: {stderr:?}"
    );
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr:?}");
}
