//! The screens the guides show (`docs/playing.md`), played again at a
//! pseudo-terminal and compared with the guide: each block marked
//! `<!-- excerpt of: test NAME -->` is checked by the test `NAME` here.
//!
//! What the program writes to the terminal is turned into the lines a
//! terminal would show (as `tmux capture-pane -p` gives them: trailing
//! spaces dropped), by a small emulator of the few controls the program
//! writes: carriage return, newline, erase to the end of the line, cursor
//! left and right, clear screen; colours are off (`NO_COLOR=1`).
//!
//! Linux only, as `tests/it/terminal.rs`: the child is made to own the
//! terminal with util-linux's `setsid --ctty`.

#![cfg(target_os = "linux")]

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
use rustix::termios::{Winsize, tcsetwinsize};

use crate::common::HANG;
use crate::common::docs::assert_shown_in_docs;

/// The program at a terminal `columns` wide, every stream on it, as a
/// person plays.
struct Screen {
    child: Child,
    keys: File,
    shown: Arc<Mutex<Vec<u8>>>,
    /// Says when the terminal has no writer left and all it held is read.
    drained: mpsc::Receiver<()>,
    /// How much of `shown` the last wait consumed.
    seen: usize,
}

impl Screen {
    fn start(args: &[&str], columns: u16) -> Screen {
        let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC)
            .expect("open a pseudo-terminal");
        grantpt(&master).expect("grantpt");
        unlockpt(&master).expect("unlockpt");
        let name = ptsname(&master, Vec::new()).expect("ptsname");
        let size = Winsize {
            ws_row: 50,
            ws_col: columns,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        tcsetwinsize(&master, size).expect("set the terminal size");
        let slave: OwnedFd = OpenOptions::new()
            .read(true)
            .write(true)
            .open(name.to_str().expect("a UTF-8 terminal name"))
            .expect("open the terminal's slave side")
            .into();
        let mut command = Command::new("setsid");
        command
            .args(["--wait", "--ctty", crate::common::BIN])
            .args(args)
            .env("TERM", "xterm")
            .env("NO_COLOR", "1")
            .stdin(Stdio::from(slave.try_clone().expect("dup")))
            .stdout(Stdio::from(slave.try_clone().expect("dup")))
            .stderr(Stdio::from(slave));
        let child = command.spawn().expect("start the binary under setsid");
        drop(command); // closes our copies of the slave side
        let keys = File::from(master);
        let mut from = keys.try_clone().expect("dup the master");
        let shown = Arc::new(Mutex::new(Vec::new()));
        let into = Arc::clone(&shown);
        let (done, drained) = mpsc::channel();
        thread::spawn(move || {
            let mut buffer = [0; 4096];
            // A terminal whose last user has gone reads as an error (EIO),
            // once what it holds has been read.
            while let Ok(n @ 1..) = from.read(&mut buffer) {
                into.lock().unwrap().extend_from_slice(&buffer[..n]);
            }
            let _ = done.send(());
        });
        Screen {
            child,
            keys,
            shown,
            drained,
            seen: 0,
        }
    }

    /// Waits until the terminal shows `text` after what earlier waits saw.
    fn wait_for(&mut self, text: &str) -> &mut Screen {
        let start = Instant::now();
        loop {
            let shown = self.shown.lock().unwrap()[self.seen..].to_vec();
            if let Some(at) = shown.windows(text.len()).position(|w| w == text.as_bytes()) {
                self.seen += at + text.len();
                return self;
            }
            assert!(
                start.elapsed() < HANG,
                "the terminal never showed {text:?}; it shows:\n{}",
                render(&self.shown.lock().unwrap())
            );
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Types a line and Enter.
    fn line(&mut self, line: &str) -> &mut Screen {
        self.keys
            .write_all(format!("{line}\r").as_bytes())
            .expect("type on the terminal");
        self
    }

    /// Waits for the program to end and everything it wrote to be read;
    /// the screen's lines.
    fn ended(&mut self) -> String {
        if self.drained.recv_timeout(HANG).is_err() {
            let _ = self.child.kill();
            panic!(
                "no end after {HANG:?}: killed; the terminal shows:\n{}",
                render(&self.shown.lock().unwrap())
            );
        }
        render(&self.shown.lock().unwrap())
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The lines a terminal shows for `bytes`, from the last clear of the
/// screen, each without trailing spaces.
fn render(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut lines: Vec<Vec<char>> = vec![Vec::new()];
    let (mut row, mut col): (usize, usize) = (0, 0);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => col = 0,
            '\n' => {
                row += 1;
                if lines.len() <= row {
                    lines.push(Vec::new());
                }
            }
            '\x08' => col = col.saturating_sub(1),
            '\x1b' if chars.peek() == Some(&'[') => {
                chars.next();
                let mut parameters = String::new();
                let mut end = ' ';
                for c in chars.by_ref() {
                    if ('\x40'..='\x7e').contains(&c) {
                        end = c;
                        break;
                    }
                    parameters.push(c);
                }
                let n = parameters.parse::<usize>().unwrap_or(1);
                match end {
                    'K' => lines[row].truncate(col),
                    'D' => col = col.saturating_sub(n),
                    'C' => col += n,
                    'J' => {
                        lines = vec![Vec::new()];
                        (row, col) = (0, 0);
                    }
                    _ => {} // colours, bracketed paste, the cursor home
                }
            }
            c if c.is_control() => {}
            c => {
                let line = &mut lines[row];
                while line.len() < col {
                    line.push(' ');
                }
                match line.get_mut(col) {
                    Some(cell) => *cell = c,
                    None => line.push(c),
                }
                col += 1;
            }
        }
    }
    let mut shown: Vec<String> = lines
        .iter()
        .map(|line| line.iter().collect::<String>().trim_end().to_owned())
        .collect();
    while shown.last().is_some_and(String::is_empty) {
        shown.pop();
    }
    shown.iter().map(|line| format!("{line}\n")).collect()
}

#[test]
fn the_start_of_a_game_at_a_terminal() {
    let mut screen = Screen::start(&[], 100);
    for line in ["Who", "who", "place j10", "place J10"] {
        screen.wait_for("> ").line(line);
    }
    screen.wait_for("White, move 2> ");
    let shown = render(&screen.shown.lock().unwrap());
    assert_shown_in_docs("the_start_of_a_game_at_a_terminal", &shown);
}

#[test]
fn the_end_of_a_game_at_a_terminal() {
    let mut screen = Screen::start(&["--moves", "A1B1A2B2A3B3A4B4"], 100);
    screen.wait_for("Black, move 9> ").line("place A5");
    let shown = screen.ended();
    assert_shown_in_docs("the_end_of_a_game_at_a_terminal", &shown);
}

#[test]
fn a_game_against_the_computer_at_level_3() {
    let mut screen = Screen::start(&["--cpu", "white", "--level", "3"], 90);
    for line in LEVEL_3_BLACK {
        screen.wait_for("Black, move ").wait_for("> ").line(line);
    }
    let shown = screen.ended();
    assert_shown_in_docs("a_game_against_the_computer_at_level_3", &shown);
}

/// Black's lines in the guide's game at level 3.
const LEVEL_3_BLACK: &[&str] = &[
    "place J10",
    "place K11",
    "place K10",
    "place L11",
    "place M11",
    "place N11",
    "place J11",
];

#[test]
fn the_screen_is_rendered_as_a_terminal_shows_it() {
    let bytes = b"ab\x1b[31mc\x1b[0m  \r\nxyz\rQ\x1b[K\r\n\x1b[?2004h> wh\x08o\x1b[2Dw\x1b[3C!\r\n";
    assert_eq!(render(bytes), "abc\nQ\n> wo  !\n");
    assert_eq!(render(b"gone\r\n\x1b[H\x1b[Jfresh\r\n\r\n"), "fresh\n");
}
