//! The binary at a real terminal: stdin and stderr on a pseudo-terminal,
//! stdout on a pipe. What the person sees shows on the terminal; stdout
//! must hold exactly the bytes the same lines give through a pipe.
//!
//! Linux only: the child is made to own the terminal with util-linux's
//! `setsid --ctty`, since the line editor talks to `/dev/tty`.

#![cfg(target_os = "linux")]

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process};
use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
use rustix::termios::{LocalModes, Winsize, tcgetattr, tcsetwinsize};

use crate::common::docs::assert_shown_in_docs;
use crate::common::{BIN, HANG, run};

/// Bytes a reader thread has gathered so far.
type Gathered = Arc<Mutex<Vec<u8>>>;

/// The program running at a terminal.
struct Terminal {
    child: Child,
    keys: File,
    screen: Gathered,
    stdout: Gathered,
    /// Ends when stdout is closed.
    stdout_reader: Option<JoinHandle<()>>,
    /// Ends once no one has the terminal open but us and all it held is
    /// read.
    screen_reader: Option<JoinHandle<()>>,
    /// How much of the screen earlier `expect`s have consumed.
    seen: usize,
}

fn gather(mut from: impl Read + Send + 'static) -> (Gathered, JoinHandle<()>) {
    let gathered = Gathered::default();
    let into = Arc::clone(&gathered);
    let reader = thread::spawn(move || {
        let mut buffer = [0; 4096];
        // A terminal whose last user has gone reads as an error (EIO).
        while let Ok(n @ 1..) = from.read(&mut buffer) {
            into.lock().unwrap().extend_from_slice(&buffer[..n]);
        }
    });
    (gathered, reader)
}

/// Where the program runs: the terminal's width, and whether stdout goes
/// to the terminal too, as when a person runs it, or to a pipe.
#[derive(Clone, Copy)]
struct Setup {
    columns: u16,
    stdout_on_terminal: bool,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            columns: 100,
            stdout_on_terminal: false,
        }
    }
}

impl Terminal {
    fn start(args: &[&str], colour: bool) -> Terminal {
        Terminal::start_in(args, colour, Setup::default())
    }

    fn start_in(args: &[&str], colour: bool, setup: Setup) -> Terminal {
        let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC)
            .expect("open a pseudo-terminal");
        grantpt(&master).expect("grantpt");
        unlockpt(&master).expect("unlockpt");
        let name = ptsname(&master, Vec::new()).expect("ptsname");
        let size = Winsize {
            ws_row: 50,
            ws_col: setup.columns,
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
            .args(["--wait", "--ctty", BIN])
            .args(args)
            .env("TERM", "xterm")
            .stdin(Stdio::from(slave.try_clone().expect("dup")));
        match setup.stdout_on_terminal {
            true => command.stdout(Stdio::from(slave.try_clone().expect("dup"))),
            false => command.stdout(Stdio::piped()),
        };
        command.stderr(Stdio::from(slave));
        match colour {
            true => command.env_remove("NO_COLOR"),
            false => command.env("NO_COLOR", "1"),
        };
        let mut child = command.spawn().expect("start the binary under setsid");
        drop(command); // closes our copies of the slave side
        let (stdout, stdout_reader) = match child.stdout.take() {
            Some(pipe) => {
                let (stdout, reader) = gather(pipe);
                (stdout, Some(reader))
            }
            None => (Gathered::default(), None),
        };
        let master = File::from(master);
        let (screen, screen_reader) = gather(master.try_clone().expect("dup the master"));
        Terminal {
            child,
            keys: master,
            screen,
            stdout,
            stdout_reader,
            screen_reader: Some(screen_reader),
            seen: 0,
        }
    }

    /// Types `keys` (`\r` is Enter).
    fn keys(&mut self, keys: &str) -> &mut Terminal {
        self.bytes(keys.as_bytes())
    }

    /// Types bytes that need not be text.
    fn bytes(&mut self, bytes: &[u8]) -> &mut Terminal {
        self.keys.write_all(bytes).expect("type on the terminal");
        self
    }

    /// The screen from the last `expect` on.
    fn unseen(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().unwrap()[self.seen..]).into_owned()
    }

    /// Waits until the screen shows `text` after what was seen before.
    fn expect(&mut self, text: &str) -> &mut Terminal {
        let start = Instant::now();
        loop {
            let screen = self.screen.lock().unwrap()[self.seen..].to_vec();
            let found = screen
                .windows(text.len())
                .position(|w| w == text.as_bytes());
            if let Some(at) = found {
                self.seen += at + text.len();
                return self;
            }
            assert!(
                start.elapsed() < HANG,
                "the terminal never showed {text:?}; it shows:\n{}",
                String::from_utf8_lossy(&screen)
            );
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits until stdout holds exactly `expected`.
    fn stdout_is(&mut self, expected: &str) -> &mut Terminal {
        let start = Instant::now();
        loop {
            let stdout = self.stdout.lock().unwrap().clone();
            if stdout == expected.as_bytes() {
                return self;
            }
            assert!(
                start.elapsed() < HANG && expected.as_bytes().starts_with(&stdout),
                "stdout is {:?}, not {expected:?}",
                String::from_utf8_lossy(&stdout)
            );
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits for the exit; its code, and everything on stdout.
    fn exit(&mut self) -> (Option<i32>, Vec<u8>) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            if start.elapsed() > HANG {
                let _ = self.child.kill();
                panic!("no exit after {HANG:?}: killed");
            }
            thread::sleep(Duration::from_millis(10));
        };
        // The program is gone, so the pipe is closed: the reader ends.
        if let Some(reader) = self.stdout_reader.take() {
            reader.join().expect("the stdout reader");
        }
        (status.code(), self.stdout.lock().unwrap().clone())
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().unwrap()).into_owned()
    }

    /// The screen's lines as a person reads them ([`render`]), all of
    /// them: called after [`Terminal::exit`], it waits until everything
    /// the program wrote to the terminal has been read.
    fn shown(&mut self) -> String {
        if self.child.try_wait().is_ok_and(|status| status.is_some()) {
            if let Some(reader) = self.screen_reader.take() {
                reader.join().expect("the screen reader");
            }
        }
        render(&self.screen.lock().unwrap())
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the plain program run with `args` prints for `lines` through
/// pipes.
fn piped_with(args: &[&str], lines: &[&str]) -> String {
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = run(args, input.as_bytes()).expect("plain run").stdout;
    String::from_utf8(out).expect("the replies are ASCII")
}

/// What the plain program prints for `lines` through pipes.
fn piped(lines: &[&str]) -> Vec<u8> {
    let lines: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
    piped_bytes(&lines)
}

/// As [`piped`], for lines of any bytes.
fn piped_bytes(lines: &[&[u8]]) -> Vec<u8> {
    let input: Vec<u8> = lines
        .iter()
        .flat_map(|l| l.iter().chain(b"\n"))
        .copied()
        .collect();
    run(&[], &input).expect("plain run").stdout
}

#[test]
fn a_command_gets_its_reply_on_stdout_and_the_greeting_on_the_terminal() {
    let mut t = Terminal::start(&[], false);
    t.expect("Commands: place <C><R>")
        .expect("To stop: term, or Ctrl-D")
        .expect("Black, move 1> ")
        .keys("who\r")
        .stdout_is("B\n");
}

#[test]
fn up_arrow_recalls_the_last_command() {
    let mut t = Terminal::start(&[], false);
    t.expect("Black, move 1> ").keys("who\r").stdout_is("B\n");
    t.expect("Black, move 1> ").keys("\x1b[A").expect("who");
    t.keys("\r").stdout_is("B\nB\n");
}

#[test]
fn backspace_and_ctrl_l_do_not_reach_the_line() {
    let mut t = Terminal::start(&[], false);
    t.expect("Black, move 1> ")
        .keys("whx\x7fo\r")
        .stdout_is("B\n");
    // Ctrl-L clears the screen and redraws the prompt; the line is clean.
    t.expect("Black, move 1> ")
        .keys("\x0c")
        .expect("\x1b[H\x1b[J");
    t.keys("who\r").stdout_is("B\nB\n");
}

#[test]
fn ctrl_c_abandons_the_line_being_typed() {
    let mut t = Terminal::start(&[], false);
    t.expect("Black, move 1> ").keys("resi\x03");
    t.expect("Black, move 1> ").keys("who\r").stdout_is("B\n");
}

#[test]
fn typos_get_their_hints() {
    let mut t = Terminal::start(&[], false);
    let cases = [
        (
            "place j10",
            "Invalid coordinate\n",
            "hint: columns are upper-case letters: place J10",
        ),
        ("Who", "Invalid!\n", "hint: commands are lower-case: who"),
        (
            "who ",
            "Invalid!\n",
            "hint: no space after the command: who",
        ),
        (
            "place J01",
            "Invalid coordinate\n",
            "hint: no leading zero: place J1",
        ),
        (
            "place T1",
            "Invalid coordinate\n",
            "hint: there is no column T",
        ),
        (
            "place A20",
            "Invalid coordinate\n",
            "hint: there is no row 20",
        ),
        ("hello", "Invalid!\n", "hint: unknown command \"hello\""),
    ];
    let mut stdout = String::new();
    for (line, reply, hint) in cases {
        t.expect("Black, move 1> ").keys(&format!("{line}\r"));
        stdout.push_str(reply);
        t.stdout_is(&stdout).expect(hint);
    }
    t.expect("Black, move 1> ")
        .keys("place J10\r")
        .stdout_is(&stdout);
    t.expect("White, move 2> ").keys("place J10\r");
    stdout.push_str("Occupied coordinate\n");
    t.stdout_is(&stdout)
        .expect("hint: J10 already holds Black's stone (#)");
}

#[test]
fn a_full_game_to_a_win_shows_the_boards_and_stdout_is_the_contract() {
    // SPEC.md's second worked example.
    let lines = [
        "who",
        "place Z1",
        "place A1",
        "place A1",
        "who",
        "place B122",
        "place B1",
        "place A2",
        "place B2",
        "place A3",
        "place B3",
        "place A4",
        "place B4",
        "place A5",
    ];
    let mut t = Terminal::start(&[], false);
    for (number, line) in lines.iter().enumerate() {
        t.expect("> ").keys(&format!("{line}\r"));
        if *line == "place A1" && number == 2 {
            // The board after a move: the hole moved to M3, A1 bracketed.
            t.expect("hole centre M3").expect("last move A1");
        }
    }
    t.expect(" 5[X]").expect("Black wins with five in a row.");
    let (code, stdout) = t.exit();
    assert_eq!(code, Some(0), "exit code; screen:\n{}", t.screen());
    assert_eq!(
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&piped(&lines))
    );
    assert_eq!(
        stdout,
        b"B\nInvalid coordinate\nOccupied coordinate\nW\nInvalid coordinate\n\
          Black wins!\nA1B1A2B2A3B3A4B4A5\nThank you for playing!\n"
    );
}

#[test]
fn ctrl_d_ends_with_exit_code_1_and_nothing_more_on_stdout() {
    let mut t = Terminal::start(&[], false);
    t.expect("Black, move 1> ").keys("who\r").stdout_is("B\n");
    t.expect("Black, move 1> ").keys("\x04");
    assert_eq!(t.exit(), (Some(1), b"B\n".to_vec()));
}

#[test]
fn term_ends_with_exit_code_1() {
    let mut t = Terminal::start(&[], false);
    t.expect("Black, move 1> ").keys("term\r");
    assert_eq!(t.exit(), (Some(1), Vec::new()));
}

#[test]
fn escape_pressed_alone_does_not_eat_the_next_key() {
    let mut t = Terminal::start(&[], false);
    t.expect("Black, move 1> ").bytes(b"\x1b");
    // A person's next key comes long after the terminal's sequences do:
    // long enough, too, for a loaded machine to read the lone Escape and
    // wait its 50 ms for more before the next key is there.
    thread::sleep(Duration::from_millis(1500));
    t.keys("[who\r");
    t.stdout_is(std::str::from_utf8(&piped(&["[who"])).expect("ASCII"));
    // An arrow key's sequence, sent at once, is still the key.
    t.expect("Black, move 1> ").keys("who\r\x1b[A\r");
    t.stdout_is(std::str::from_utf8(&piped(&["[who", "who", "who"])).expect("ASCII"));
}

#[test]
fn killed_it_puts_the_terminal_back_as_it_was() {
    let cooked = LocalModes::ICANON | LocalModes::ECHO | LocalModes::ISIG;
    for signal in [Signal::TERM, Signal::HUP] {
        let mut t = Terminal::start(&[], false);
        t.expect("Black, move 1> ");
        let playing = tcgetattr(&t.keys).expect("the terminal's modes");
        assert!(
            !playing.local_modes.intersects(cooked),
            "raw mode while playing: {:?}",
            playing.local_modes
        );
        let pid = Pid::from_child(&t.child);
        kill_process(pid, signal).expect("send the signal");
        let (code, _) = t.exit();
        assert_eq!(code, None, "{signal:?} ends it as the signal does");
        let after = tcgetattr(&t.keys).expect("the terminal's modes");
        assert!(
            after.local_modes.contains(cooked),
            "after {signal:?} the terminal is back in cooked mode: {:?}",
            after.local_modes
        );
        // Bracketed paste off, after the prompt. The screen is read by a
        // thread of its own that may not have caught up with the end yet:
        // wait for it, not just look.
        t.expect("\x1b[?2004l");
    }
}

#[test]
fn colour_unless_no_color_is_set() {
    let mut t = Terminal::start(&[], true);
    t.expect("\x1b[1mGomoku in the Mist\x1b[0m")
        .expect("Black, move 1> ");
    let mut t = Terminal::start(&[], false);
    t.expect("Black, move 1> ");
    assert!(t.screen().contains("Gomoku in the Mist:"), "{}", t.screen());
    assert!(
        !t.screen().contains("\x1b[1m"),
        "colour despite NO_COLOR:\n{}",
        t.screen()
    );
}

#[test]
fn plain_turns_the_interactive_mode_off() {
    let mut t = Terminal::start(&["--plain"], false);
    t.keys("who\r").stdout_is("B\n");
    // Cooked mode: the terminal driver ends input on Ctrl-D.
    t.keys("\x04");
    assert_eq!(t.exit(), (Some(1), b"B\n".to_vec()));
    assert!(
        !t.screen().contains("Black, move"),
        "a prompt with --plain:\n{}",
        t.screen()
    );
}

#[test]
fn every_byte_is_part_of_the_line_and_answered_as_piped() {
    // Typed as they are: not UTF-8, NUL (Ctrl-Space), Ctrl-\\, Ctrl-Z, Tab;
    // quoted with Ctrl-V: Ctrl-C, Ctrl-D, Escape, Return.
    let typed: &[(&[u8], &[u8])] = &[
        (b"\xff\r", b"\xff"),
        (b"caf\xe9\r", b"caf\xe9"),
        (b"place J10\0\r", b"place J10\0"),
        (b"\x1c\x1a\twho\r", b"\x1c\x1a\twho"),
        (b"who\x16\x03\x16\x04\r", b"who\x03\x04"),
        (b"\x16\x1bwho\x16\r\r", b"\x1bwho\r"),
        (b"who\r", b"who"),
    ];
    let mut t = Terminal::start(&[], false);
    let mut lines = Vec::new();
    for &(keys, line) in typed {
        t.expect("Black, move 1> ").bytes(keys);
        lines.push(line);
        let expected = piped_bytes(&lines);
        t.stdout_is(&String::from_utf8(expected).unwrap());
    }
    t.expect("Black, move 1> ");
    let screen = t.screen();
    for shown in [
        r"\xff",
        r"caf\xe9",
        "place J10^@",
        r"^\^Z^Iwho",
        "who^C^D",
        "^[who^M",
    ] {
        assert!(screen.contains(shown), "{shown:?} not echoed:\n{screen}");
    }
    assert!(
        screen.contains(r#"hint: unknown command "\xff""#),
        "{screen}"
    );
    t.keys("term\r");
    assert_eq!(t.exit().0, Some(1));
}

#[test]
fn a_bracketed_paste_is_several_lines_each_answered_and_remembered() {
    let mut t = Terminal::start(&[], false);
    t.expect("Black, move 1> ")
        .keys("\x1b[200~who\r\nplace J10\rplace J10\rview\x1b[201~");
    // The last pasted line has no line end: it waits at the prompt.
    t.expect("White, move 2> view");
    t.stdout_is("B\nOccupied coordinate\n");
    t.keys("\r");
    let expected = piped(&["who", "place J10", "place J10", "view"]);
    t.stdout_is(&String::from_utf8(expected).unwrap());
    // Each line as if typed: its prompt, the board after the move, the hint.
    let screen = t.screen();
    for shown in [
        "Black, move 1> who",
        "Black, move 1> place J10",
        "hole centre",
        "White, move 2> place J10",
        "hint: J10 already holds Black's stone",
    ] {
        assert!(screen.contains(shown), "no {shown:?}:\n{screen}");
    }
    // And each is in the history, newest first.
    t.expect("White, move 2> ").keys("\x1b[A").expect("view");
    t.keys("\x1b[A").expect("place J10");
    t.keys("\x1b[A\x1b[A").expect("who");
}

#[test]
fn ctrl_c_while_the_computer_thinks_is_ignored_and_keys_wait_for_the_prompt() {
    // The keys must come while it thinks: 300 ms into a think of 5 s
    // leaves a loaded machine seconds to spare.
    let mut t = Terminal::start(&["--cpu", "white", "--cpu-time", "5000"], false);
    t.expect("While it thinks, Ctrl-C is ignored")
        .expect("Black, move 1> ")
        .keys("place J10\r");
    thread::sleep(Duration::from_millis(300));
    t.keys("\x03who\x03");
    t.expect("White plays ");
    // Not echoed into the board: what was typed shows at the next prompt.
    t.expect("Black, move 3> who");
    t.keys("\r").stdout_is("B\n");
    let screen = t.screen();
    assert!(!screen.contains("^C"), "Ctrl-C echoed:\n{screen}");
    t.keys("term\r");
    assert_eq!(t.exit().0, Some(1));
}

#[test]
fn against_the_computer_one_board_a_turn_with_its_move_marked() {
    let mut t = Terminal::start(&["--cpu", "white", "--cpu-nodes", "2000"], false);
    t.expect("Black, move 1> ").keys("place J10\r");
    t.expect("White plays ");
    let after = t.unseen();
    let reply: String = after.chars().take_while(|c| !c.is_whitespace()).collect();
    t.expect("Black, move 3> ");
    let turn = t.screen();
    let turn = &turn[turn.rfind("Black, move 1> ").unwrap()..];
    assert_eq!(
        turn.matches("hole centre").count(),
        1,
        "not one board a turn:\n{turn}"
    );
    assert_eq!(turn.matches("White plays").count(), 1, "{turn}");
    assert!(
        turn.contains(&format!("[ ] last move {reply}")),
        "the computer's move {reply} not marked:\n{turn}"
    );
}

#[test]
fn a_long_hint_is_cut_and_wrapped_at_word_boundaries() {
    let mut t = Terminal::start(&[], false);
    let word = "hello".repeat(12);
    t.expect("Black, move 1> ").keys(&format!("{word}\r"));
    t.expect("hint: ").expect("Black, move 1> ");
    let screen = t.screen();
    let hint = &screen[screen.find("hint: ").unwrap()..screen.rfind("Black, move 1> ").unwrap()];
    assert!(
        hint.contains(&format!("\"{}…\" (60 bytes)", &word[..40])),
        "{hint}"
    );
    let lines: Vec<&str> = hint.lines().collect();
    assert!(lines.len() > 1, "not wrapped:\n{hint}");
    for line in &lines {
        assert!(
            line.chars().count() < 100,
            "wider than the terminal: {line:?}"
        );
    }
    // Only spaces break lines: every word of the commands is whole.
    let joined = lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
    assert!(
        joined.contains(
            "the commands are place <C><R> (e.g. place J10), who, view, history, resign, term"
        ),
        "{joined}"
    );
}

/// F1, F2 and F3 as xterm (and tmux) send them.
const F1: &str = "\x1bOP";
const F2: &str = "\x1bOQ";
const F3: &str = "\x1bOR";

/// The computer's budget in these tests: a node budget, so its moves
/// depend on the position alone, and a piped run makes the same ones.
const CPU: [&str; 4] = ["--cpu", "white", "--cpu-nodes", "2000"];

/// Waits for `announced` (e.g. `White plays `); the point after it.
fn point_after(t: &mut Terminal, announced: &str) -> String {
    t.expect(announced);
    let start = t.seen;
    t.expect("\n");
    let shown = t.screen.lock().unwrap()[start..t.seen].to_vec();
    String::from_utf8_lossy(&shown).trim().to_owned()
}

#[test]
fn the_computers_winning_move_shows_before_the_result() {
    // White has K10 to K13: whatever Black plays, White makes five. With
    // stdout on the terminal too, as a person runs it, the move must come
    // before the end-of-game block.
    let mut args = vec!["--moves", "A1K10A3K11A5K12A7K13"];
    args.extend(CPU);
    let setup = Setup {
        stdout_on_terminal: true,
        ..Setup::default()
    };
    let mut t = Terminal::start_in(&args, false, setup);
    t.expect("Black, move 9> ").keys("place S19\r");
    t.expect("White plays K")
        .expect("White wins!")
        .expect("A1K10A3K11A5K12A7K13S19K")
        .expect("Thank you for playing!")
        .expect("White wins with five in a row.");
    assert_eq!(t.exit().0, Some(0));
}

#[test]
fn a_narrow_terminal_gets_the_compact_board_and_no_line_wraps() {
    let setup = Setup {
        columns: 40,
        ..Setup::default()
    };
    let mut t = Terminal::start_in(&[], false, setup);
    t.expect("10 @@@@@@...+...@@@@@@\r\n")
        .expect("   ABCDEFGHIJKLMNOPQRS\r\n")
        .expect("last move none yet")
        .expect("Black, move 1> ");
    let screen = t.screen();
    let before_prompt = &screen[..screen.find("Black, move 1> ").expect("a prompt")];
    for line in before_prompt.split('\n') {
        let line = line.trim_end_matches('\r').replace("\x1b[?2004h", "");
        assert!(
            line.chars().count() < 40,
            "a line as wide as the terminal: {line:?}\n{screen}"
        );
    }
    t.keys("place A1\r").expect(" 1 #@@@@@@@@.......@@@\r\n");
}

#[test]
fn ctrl_d_right_after_ctrl_u_ends_as_at_an_empty_prompt() {
    let mut t = Terminal::start(&[], false);
    t.expect("Black, move 1> ").keys("who\x1a").expect("who^Z");
    // Both keys in one write, as a script (or fast fingers) sends them:
    // the line is drawn empty before the session ends.
    t.keys("\x15\x04");
    // (The terminal's output processing turns the editor's `\r\n` into
    // `\r\r\n`.)
    t.expect("\rBlack, move 1> \x1b[K\r\r\n\x1b[?2004l");
    assert_eq!(t.exit(), (Some(1), Vec::new()));
}

#[test]
fn a_take_back_prints_nothing_and_stdout_answers_the_game_as_it_now_stands() {
    let mut t = Terminal::start(&CPU, false);
    t.expect("Black, move 1> ").keys("place A1\r");
    let first = point_after(&mut t, "White plays ");
    t.expect("Black, move 3> ").keys("history\r");
    t.stdout_is(&format!("A1{first}\n"));
    t.expect("Black, move 3> ").keys("place S19\r");
    let second = point_after(&mut t, "White plays ");
    t.expect("Black, move 5> ").keys(F2);
    t.expect(&format!(
        "Taken back: your S19 and White's {second}. Black to move."
    ));
    // The board as it now stands, then the prompt for move 3 again.
    t.expect(&format!("last move {first}"))
        .expect("Black, move 3> ")
        .keys("history\r");
    t.stdout_is(&format!("A1{first}\nA1{first}\n"));
    t.expect("Black, move 3> ").keys("place A19\r");
    let third = point_after(&mut t, "White plays ");
    t.expect("Black, move 5> ").keys("history\rresign\r");
    let (code, stdout) = t.exit();
    assert_eq!(code, Some(0), "the game's exit code");
    // Byte for byte: the replies before the take-back, then those of a
    // game started from the moves that stand, the computer's included.
    let mut args = vec!["--moves"];
    let standing = format!("A1{first}");
    args.push(&standing);
    args.extend(CPU);
    let expected = piped_with(&CPU, &["place A1", "history", "place S19"])
        + &piped_with(&args, &["history", "place A19", "history", "resign"]);
    assert_eq!(String::from_utf8_lossy(&stdout), expected);
    assert_eq!(
        String::from_utf8_lossy(&stdout),
        format!(
            "A1{first}\nA1{first}\nA1{first}A19{third}\n\
             White wins!\nA1{first}A19{third}\nThank you for playing!\n"
        )
    );
}

#[test]
fn a_take_back_before_any_move_takes_nothing() {
    let mut t = Terminal::start(&CPU, false);
    t.expect("Black, move 1> ").keys(F2);
    t.expect("Nothing to take back: the game stands where it began.")
        .expect("Black, move 1> ")
        .keys("history\r");
    t.stdout_is("\n");
    t.keys("term\r");
    assert_eq!(t.exit(), (Some(1), b"\n".to_vec()));
}

#[test]
fn the_think_line_shows_the_computers_score_and_expected_line_and_f3_hides_it() {
    let mut args = vec!["--show-thinking"];
    args.extend(CPU);
    let mut t = Terminal::start(&args, false);
    t.expect("F3 shows what the computer thinks")
        .expect("Black, move 1> ")
        .keys("place A1\r");
    let played = point_after(&mut t, "White plays ");
    t.expect("White thinks: ")
        .expect(" for White at depth ")
        .expect(&format!("positions), expecting {played}"));
    t.expect("Black, move 3> ").keys(F3);
    t.expect("The think line is off (F3 turns it on).")
        .expect("Black, move 3> ")
        .keys("place S19\r");
    t.expect("White plays ").expect("Black, move 5> ");
    let screen = t.screen();
    let last_turn = &screen[screen.rfind("Black, move 3> ").unwrap()..];
    assert!(
        !last_turn.contains("thinks"),
        "think line while off:\n{last_turn}"
    );
    // None of it on stdout.
    t.keys("term\r");
    assert_eq!(t.exit(), (Some(1), Vec::new()));
}

#[test]
fn f1_shows_the_help_and_the_line_being_typed_waits() {
    let mut t = Terminal::start(&CPU, false);
    t.expect("F1 help; F2 takes back a pair of moves")
        .expect("Black, move 1> ")
        .keys("wh")
        .keys(F1);
    t.expect("Help\r\n")
        .expect("F2 takes back your last move and White's reply")
        .expect("Black, move 1> wh")
        .keys("o\r");
    t.stdout_is("B\n");
}

#[test]
fn show_thinking_needs_the_computer() {
    let out = run(&["--show-thinking"], b"").expect("run");
    assert_eq!(out.code, Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--show-thinking"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
fn the_screen_is_rendered_as_a_terminal_shows_it() {
    let bytes = b"ab\x1b[31mc\x1b[0m  \r\nxyz\rQ\x1b[K\r\n\x1b[?2004h> wh\x08o\x1b[2Dw\x1b[3C!\r\n";
    assert_eq!(render(bytes), "abc\nQ\n> wo  !\n");
    assert_eq!(render(b"gone\r\n\x1b[H\x1b[Jfresh\r\n\r\n"), "fresh\n");
}

/// As a person runs it: stdout on the terminal, `columns` wide.
fn on_screen(columns: u16) -> Setup {
    Setup {
        columns,
        stdout_on_terminal: true,
    }
}

// The screens the guides show (`docs/playing.md`), played again here and
// compared with the guide: each block marked `<!-- excerpt of: test
// NAME -->` is checked by the test `NAME` (see `tests/it/readme.rs`).

#[test]
fn the_start_of_a_game_at_a_terminal() {
    let mut t = Terminal::start_in(&[], false, on_screen(100));
    for line in ["Who", "who", "place j10", "place J10"] {
        t.expect("Black, move 1> ").keys(&format!("{line}\r"));
    }
    t.expect("White, move 2> ");
    assert_shown_in_docs("the_start_of_a_game_at_a_terminal", &t.shown());
}

#[test]
fn the_end_of_a_game_at_a_terminal() {
    let args = ["--moves", "A1B1A2B2A3B3A4B4"];
    let mut t = Terminal::start_in(&args, false, on_screen(100));
    t.expect("Black, move 9> ").keys("place A5\r");
    t.expect("Black wins with five in a row.");
    assert_eq!(t.exit().0, Some(0));
    assert_shown_in_docs("the_end_of_a_game_at_a_terminal", &t.shown());
}

#[test]
fn a_narrow_terminal() {
    let args = ["--moves", "A1B1A2B2A3B3A4B4"];
    let mut t = Terminal::start_in(&args, false, on_screen(40));
    t.expect("Black, move 9> ").keys("place A5\r");
    t.expect("Black wins with five in a row.");
    assert_eq!(t.exit().0, Some(0));
    assert_shown_in_docs("a_narrow_terminal", &t.shown());
}

#[test]
fn a_game_against_the_computer_at_level_3() {
    let args = ["--cpu", "white", "--level", "3"];
    let mut t = Terminal::start_in(&args, false, on_screen(90));
    for line in LEVEL_3_BLACK {
        t.expect("Black, move ")
            .expect("> ")
            .keys(&format!("{line}\r"));
    }
    t.expect("wins with five in a row.");
    assert_eq!(t.exit().0, Some(0));
    assert_shown_in_docs("a_game_against_the_computer_at_level_3", &t.shown());
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
fn a_take_back_and_the_think_line() {
    let args = ["--cpu", "white", "--cpu-nodes", "2000", "--show-thinking"];
    let mut t = Terminal::start_in(&args, false, on_screen(100));
    t.expect("Black, move 1> ").keys("place J10\r");
    t.expect("Black, move 3> ").keys("history\r");
    t.expect("Black, move 3> ").keys(F2);
    t.expect("Black, move 1> ").keys("history\r");
    t.expect("Black, move 1> ").keys(F3);
    t.expect("Black, move 1> ").keys("place K10\r");
    t.expect("Black, move 3> ").keys("term\r");
    assert_eq!(t.exit().0, Some(1));
    assert_shown_in_docs("a_take_back_and_the_think_line", &t.shown());
}

#[test]
fn show_thinking_changes_nothing_through_a_pipe() {
    let input = b"place J10\nplace K11\nhistory\n";
    let mut args = CPU.to_vec();
    let plain = run(&args, input).expect("run");
    args.push("--show-thinking");
    let thinking = run(&args, input).expect("run");
    assert_eq!(thinking.stdout, plain.stdout);
    assert_eq!(thinking.code, plain.code);
    assert!(thinking.stderr.is_empty(), "{:?}", thinking.stderr);
}

/// The computer as renju's Black with only a forbidden point left resigns
/// before the first prompt, and the person is told why.
#[test]
fn a_computer_left_only_forbidden_points_resigns_and_the_screen_says_why() {
    let history = crate::cpu::only_a_foul_left();
    let args = [
        "--rule",
        "renju",
        "--moves",
        history.as_str(),
        "--cpu",
        "black",
        "--cpu-nodes",
        "1000",
    ];
    let mut t = Terminal::start(&args, false);
    t.expect("Black may play none of the points left: White wins by resignation.");
    let (code, stdout) = t.exit();
    assert_eq!(code, Some(0));
    assert_eq!(
        String::from_utf8_lossy(&stdout),
        format!("White wins!\n{history}\nThank you for playing!\n")
    );
}
