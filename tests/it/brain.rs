//! The Gomocup brain as a manager sees it: `pbrain-gomoku-mist` started
//! with no arguments and driven through pipes.
//!
//! Transcripts in `tests/gomocup/*.txt` hold a conversation: `> line` is
//! sent (ended CR LF, as managers do), `< line` is the reply expected,
//! `< MOVE` any move `x,y` on the board (the moves are the brain's to
//! choose, so they are checked for form here and for legality by the
//! whole-game tests), `{version}` in a reply stands for the crate's
//! version, and `#` lines are comments. The search's reports (`MESSAGE
//! depth …`) are left out of the comparison.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;

use gomoku_mist::board::Board;
use gomoku_mist::player::Player;
use gomoku_mist::point::{Column, Point, Row};
use gomoku_mist::rule::Rule;

use crate::common::{HANG, diff};

const BRAIN: &str = env!("CARGO_BIN_EXE_pbrain-gomoku-mist");

macro_rules! transcripts {
    ($($name:ident),* $(,)?) => {
        const TRANSCRIPTS: &[&str] = &[$(stringify!($name)),*];
        $(
            #[test]
            fn $name() {
                check_transcript(include_str!(concat!("../gomocup/", stringify!($name), ".txt")));
            }
        )*
    };
}

transcripts!(
    about,
    before_start,
    blank_lines,
    board_block,
    end_stops_reading,
    info,
    malformed,
    start,
    takeback_and_restart,
    unknown,
);

#[test]
fn every_transcript_file_has_its_test() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gomocup");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("read tests/gomocup")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".txt").map(str::to_string)
        })
        .collect();
    files.sort();
    assert_eq!(
        files, TRANSCRIPTS,
        "add each tests/gomocup/*.txt to transcripts!()"
    );
}

/// Sends every `>` line at once, then checks the replies and a clean exit.
fn check_transcript(transcript: &str) {
    let mut input = Vec::new();
    let mut expected = Vec::new();
    for line in transcript.lines() {
        if let Some(sent) = line.strip_prefix('>') {
            input.extend_from_slice(sent.strip_prefix(' ').unwrap_or(sent).as_bytes());
            input.extend_from_slice(b"\r\n");
        } else if let Some(reply) = line.strip_prefix('<') {
            let reply = reply.strip_prefix(' ').unwrap_or(reply);
            expected.push(reply.replace("{version}", env!("CARGO_PKG_VERSION")));
        } else {
            assert!(
                line.is_empty() || line.starts_with('#'),
                "not a transcript line: {line:?}"
            );
        }
    }
    let (stdout, code) = run_brain(&input);
    let got = String::from_utf8(stdout).expect("replies are text");
    // The search's reports vary with the machine: not part of a transcript.
    let got: String = got
        .split_inclusive('\n')
        .filter(|line| !line.starts_with("MESSAGE depth "))
        .collect();
    // Each `< MOVE` takes the shape of the move made, so a diff shows only
    // what is really wrong.
    let got_lines: Vec<&str> = got.lines().collect();
    let wanted: Vec<String> = expected
        .iter()
        .enumerate()
        .map(|(i, e)| match got_lines.get(i) {
            Some(line) if e == "MOVE" && is_move(line) => (*line).to_string(),
            _ => e.clone(),
        })
        .collect();
    let mut wanted = wanted.join("\n");
    if !wanted.is_empty() {
        wanted.push('\n');
    }
    if let Some(d) = diff(wanted.as_bytes(), got.as_bytes()) {
        panic!("the replies differ from the transcript:\n{d}");
    }
    assert_eq!(code, Some(0), "the brain exits with 0");
}

/// Runs the brain on all of `input`, then end of input; stdout and exit
/// code, or a failed test if it does not end within [`HANG`].
fn run_brain(input: &[u8]) -> (Vec<u8>, Option<i32>) {
    let mut child = spawn_brain();
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    // The brain stops reading at END, so a failed write is no error.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let (done, finished) = mpsc::channel();
    thread::spawn(move || {
        let mut out = Vec::new();
        let _ = done.send(stdout.read_to_end(&mut out).map(|_| out));
    });
    let Ok(Ok(out)) = finished.recv_timeout(HANG) else {
        let _ = child.kill();
        panic!("the brain did not finish within {HANG:?}");
    };
    let _ = writer.join();
    let status = child.wait().expect("wait for the brain");
    (out, status.code())
}

/// The brain's stdout, line by line, read on a thread of its own so a test
/// can wait for a line with a timeout.
pub fn read_lines(child: &mut Child) -> Receiver<String> {
    let stdout = child.stdout.take().expect("stdout is piped");
    let (send, lines) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

fn spawn_brain() -> Child {
    Command::new(BRAIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the brain")
}

/// Whether `line` has the form of a move on some board: `x,y`, each
/// below 22.
fn is_move(line: &str) -> bool {
    sized_move(line, 22).is_some()
}

/// The move reply `x,y` on a board of side `size`, as (x, y).
fn sized_move(line: &str, size: usize) -> Option<(usize, usize)> {
    let (x, y) = line.split_once(',')?;
    let (x, y): (usize, usize) = (x.parse().ok()?, y.parse().ok()?);
    (x < size && y < size).then_some((x, y))
}

/// The point of a move reply `x,y` in Gomocup coordinates.
fn move_point(line: &str) -> Option<Point> {
    let (x, y) = line.split_once(',')?;
    let (x, y): (u8, u8) = (x.parse().ok()?, y.parse().ok()?);
    Some(Point::new(
        Column::new(x + 1)?,
        Row::new(19u8.checked_sub(y)?)?,
    ))
}

fn gomocup(p: Point) -> String {
    format!("{},{}", p.column().number() - 1, 19 - p.row().number())
}

/// A manager that waits for each reply, as Piskvork does.
struct Manager {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Manager {
    fn start() -> Manager {
        let mut child = spawn_brain();
        let lines = read_lines(&mut child);
        Manager {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        write!(stdin, "{command}\r\n").expect("send a command");
        stdin.flush().expect("flush a command");
    }

    /// The next reply that is not a `MESSAGE` or `DEBUG` line. Waiting at
    /// most [`HANG`] is a liveness check, not a speed test.
    fn reply(&self) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(HANG)
                .unwrap_or_else(|_| panic!("no reply within {HANG:?}"));
            if !(line.starts_with("MESSAGE") || line.starts_with("DEBUG")) {
                return line;
            }
        }
    }

    fn exchange(&mut self, command: &str) -> String {
        self.send(command);
        self.reply()
    }

    /// Sends END and waits for the exit code.
    fn end(mut self) -> Option<i32> {
        self.send("END");
        self.close()
    }

    fn close(mut self) -> Option<i32> {
        drop(self.stdin.take());
        let (done, finished) = mpsc::channel();
        let mut child = self.child;
        thread::spawn(move || {
            let _ = done.send(child.wait());
        });
        match finished.recv_timeout(HANG) {
            Ok(Ok(status)) => status.code(),
            _ => panic!("the brain did not exit within {HANG:?}"),
        }
    }
}

/// The manager's own moves: every point, in an order that spreads them
/// over the board and is the same on every run.
fn manager_moves() -> impl Iterator<Item = Point> {
    // 7 and 361 are coprime, so this visits every point once.
    (0..Point::COUNT).filter_map(|i| Point::all().nth((i * 7 + 180) % Point::COUNT))
}

/// Plays one whole game, the manager's moves from [`manager_moves`], and
/// checks every reply is a legal move; returns how the game ended.
fn play_game(manager: &mut Manager, brain_first: bool, rule: Rule) -> &'static str {
    let mut board = Board::new();
    let (brain, other) = if brain_first {
        (Player::Black, Player::White)
    } else {
        (Player::White, Player::Black)
    };
    let mut ours = manager_moves();
    let mut command = if brain_first {
        "BEGIN".to_string()
    } else {
        String::new()
    };
    loop {
        if command.is_empty() {
            let Some(p) = ours.find(|p| board.get(*p).is_none()) else {
                return "a full board";
            };
            assert!(board.place(p, other));
            if rule.wins(&board, p) {
                return "the manager won";
            }
            if board.is_full() {
                return "a full board";
            }
            command = format!("TURN {}", gomocup(p));
        }
        let reply = manager.exchange(&command);
        let p = move_point(&reply).unwrap_or_else(|| panic!("{command}: {reply:?} is not a move"));
        assert!(
            board.place(p, brain),
            "{command}: the brain played on a taken point {reply}"
        );
        if rule.wins(&board, p) {
            return "the brain won";
        }
        if board.is_full() {
            return "a full board";
        }
        command.clear();
    }
}

#[test]
fn whole_games_against_a_manager_that_waits_for_each_reply() {
    let mut manager = Manager::start();
    assert_eq!(manager.exchange("START 19"), "OK");
    // Short turns keep the test quick; the engine still blocks and wins.
    // A node budget, not a time, makes them short: a loaded machine then
    // gets the same moves, only later.
    manager.send("INFO timeout_turn 600000");
    manager.send("INFO max_node 20000");
    manager.send("INFO timeout_match 600000");
    manager.send("INFO time_left 600000");
    manager.send("INFO max_memory 83886080");
    for (brain_first, rule, bits) in [
        (true, Rule::Freestyle, 0),
        (false, Rule::Freestyle, 0),
        (true, Rule::Exact, 1),
        (false, Rule::Caro, 8),
    ] {
        manager.send(&format!("INFO rule {bits}"));
        let ending = play_game(&mut manager, brain_first, rule);
        // The manager plays without a plan; a brain that blocks and wins
        // beats it.
        assert_eq!(
            ending, "the brain won",
            "brain first: {brain_first}, {rule:?}"
        );
        assert_eq!(manager.exchange("RESTART"), "OK");
    }
    assert_eq!(manager.end(), Some(0));
}

/// A board of any size for the games off 19×19: `None` empty.
struct Grid {
    size: usize,
    cells: Vec<Option<Player>>,
}

impl Grid {
    fn new(size: usize) -> Grid {
        Grid {
            size,
            cells: vec![None; size * size],
        }
    }

    /// Places `player` at (x, y) if empty; then whether that made a line
    /// of five (`exact`: five and no more).
    fn place(&mut self, (x, y): (usize, usize), player: Player, exact: bool) -> Option<bool> {
        let at = y * self.size + x;
        if self.cells[at].is_some() {
            return None;
        }
        self.cells[at] = Some(player);
        let n = self.size as isize;
        let mine = |x: isize, y: isize| {
            (0..n).contains(&x)
                && (0..n).contains(&y)
                && self.cells[(y * n + x) as usize] == Some(player)
        };
        let (x, y) = (x as isize, y as isize);
        let five = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
            let run = |sign: isize| {
                (1..)
                    .take_while(|k| mine(x + sign * k * dx, y + sign * k * dy))
                    .count()
            };
            let length = 1 + run(1) + run(-1);
            if exact { length == 5 } else { length >= 5 }
        });
        Some(five)
    }

    fn is_full(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }
}

/// One whole game on a board of side `size`, the manager's moves spread
/// over the board (7 is coprime with 15² and 20²), every reply checked
/// to be a legal move; how the game ended.
fn play_sized_game(manager: &mut Manager, size: usize, brain_first: bool, exact: bool) -> String {
    let mut grid = Grid::new(size);
    let (brain, other) = if brain_first {
        (Player::Black, Player::White)
    } else {
        (Player::White, Player::Black)
    };
    let count = size * size;
    let mut ours = (0..count)
        .map(|i| (i * 7 + count / 2) % count)
        .map(|i| (i % size, i / size));
    let mut command = if brain_first {
        "BEGIN".to_string()
    } else {
        String::new()
    };
    loop {
        if command.is_empty() {
            let Some(p) = ours.find(|&(x, y)| grid.cells[y * size + x].is_none()) else {
                return "a full board".into();
            };
            if grid.place(p, other, exact) == Some(true) {
                return "the manager won".into();
            }
            command = format!("TURN {},{}", p.0, p.1);
        }
        let reply = manager.exchange(&command);
        let p = sized_move(&reply, size)
            .unwrap_or_else(|| panic!("{command}: {reply:?} is not a move on {size}x{size}"));
        match grid.place(p, brain, exact) {
            None => panic!("{command}: the brain played on a taken point {reply}"),
            Some(true) => return "the brain won".into(),
            Some(false) if grid.is_full() => return "a full board".into(),
            Some(false) => {}
        }
        command.clear();
    }
}

#[test]
fn whole_games_on_15_and_20() {
    let mut manager = Manager::start();
    for (size, brain_first, exact) in [
        (20, true, false),
        (20, false, false),
        (15, true, true),
        (15, false, false),
    ] {
        assert_eq!(manager.exchange(&format!("START {size}")), "OK");
        manager.send("INFO timeout_turn 600000");
        manager.send("INFO max_node 20000");
        manager.send(&format!("INFO rule {}", u8::from(exact)));
        let ending = play_sized_game(&mut manager, size, brain_first, exact);
        assert_eq!(
            ending, "the brain won",
            "{size}x{size}, brain first: {brain_first}"
        );
    }
    assert_eq!(manager.end(), Some(0));
}

/// The manager's stones in the corners and along the edges of a 20×20
/// board: the brain answers on the board, and blocks a four that runs
/// into the far corner.
#[test]
fn edges_and_corners_of_a_20_board() {
    let mut manager = Manager::start();
    assert_eq!(manager.exchange("START 20"), "OK");
    manager.send("INFO timeout_turn 600000");
    manager.send("INFO max_node 20000");
    let stdin = manager.stdin.as_mut().expect("stdin is open");
    // Ours (1): the corners, the centre, and 19,14 closing the top of the
    // opponent's (2) 19,15 .. 19,18, a four on the last column whose only
    // five point is the corner 19,19.
    stdin
        .write_all(
            b"BOARD\n0,0,1\n19,0,1\n0,19,1\n19,14,1\n19,15,2\n19,16,2\n19,17,2\n19,18,2\nDONE\n",
        )
        .expect("send a position");
    stdin.flush().expect("flush");
    assert_eq!(
        manager.reply(),
        "19,19",
        "the four is blocked in the corner"
    );
    assert_eq!(manager.end(), Some(0));
}

#[test]
fn a_game_continued_from_a_board_with_lf_lines() {
    let mut manager = Manager::start();
    let stdin = manager.stdin.as_mut().expect("stdin is open");
    stdin
        .write_all(b"START 19\nINFO timeout_turn 300\nBOARD\n9,9,2\n10,10,1\n9,10,2\nDONE\n")
        .expect("send a position");
    stdin.flush().expect("flush");
    assert_eq!(manager.reply(), "OK");
    let reply = manager.reply();
    let p = move_point(&reply).unwrap_or_else(|| panic!("{reply:?} is not a move"));
    for taken in ["9,9", "10,10", "9,10"] {
        assert_ne!(reply, taken, "the brain played on a stone");
    }
    assert_eq!(
        manager.exchange(&format!("TURN {reply}")),
        format!("ERROR {reply} is taken"),
        "the brain's own move is on the board"
    );
    let next = manager.exchange("TURN 0,0");
    let q = move_point(&next).unwrap_or_else(|| panic!("{next:?} is not a move"));
    assert_ne!(p, q);
    assert_eq!(manager.end(), Some(0));
}

#[test]
fn a_turn_keeps_within_timeout_turn() {
    // A midgame position with threats on both sides, where the search
    // would use any time it is given.
    let mut manager = Manager::start();
    assert_eq!(manager.exchange("START 19"), "OK");
    manager.send("INFO timeout_turn 1000");
    manager.send("INFO time_left 100000");
    let stdin = manager.stdin.as_mut().expect("stdin is open");
    stdin
        .write_all(b"BOARD\n9,9,1\n10,10,2\n10,9,1\n8,9,2\n9,10,1\n9,8,2\n11,11,1\n8,8,2\n")
        .expect("send a position");
    let started = std::time::Instant::now();
    stdin.write_all(b"DONE\n").expect("send DONE");
    stdin.flush().expect("flush");
    let reply = manager.reply();
    let took = started.elapsed();
    assert!(move_point(&reply).is_some(), "{reply:?} is not a move");
    // A liveness bound, not a speed test: the budget plus generous slack
    // for a loaded machine and an unoptimised build.
    assert!(
        took < std::time::Duration::from_millis(1000 + 4000),
        "the reply took {took:?} with timeout_turn 1000"
    );
    assert_eq!(manager.end(), Some(0));
}

/// The most memory the brain has held so far (`VmHWM`), in bytes; `None`
/// where `/proc` does not say.
fn peak_memory(child: &Child) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[test]
fn a_large_max_memory_costs_neither_the_first_move_its_time_nor_twice_the_memory() {
    const MAX_MEMORY: u64 = 1_000_000_000;
    let mut manager = Manager::start();
    assert_eq!(manager.exchange("START 19"), "OK");
    manager.send(&format!("INFO max_memory {MAX_MEMORY}"));
    manager.send("INFO timeout_turn 300");
    for game in ["the first game", "the game after RESTART"] {
        if game != "the first game" {
            assert_eq!(manager.exchange("RESTART"), "OK");
        }
        let started = std::time::Instant::now();
        let reply = manager.exchange("BEGIN");
        let took = started.elapsed();
        assert!(move_point(&reply).is_some(), "{reply:?} is not a move");
        // A liveness bound, not a speed test: 300 ms plus generous slack
        // for a loaded machine and an unoptimised build. Writing a whole
        // table of a gigabyte took longer than this.
        assert!(
            took < std::time::Duration::from_millis(300 + 2700),
            "BEGIN in {game} took {took:?} with timeout_turn 300"
        );
        let reply = manager.exchange("TURN 10,10");
        assert!(move_point(&reply).is_some(), "{reply:?} is not a move");
    }
    if let Some(peak) = peak_memory(&manager.child) {
        assert!(
            peak < MAX_MEMORY + (64 << 20),
            "the brain held {} MB at its peak with max_memory {} MB",
            peak >> 20,
            MAX_MEMORY >> 20
        );
    }
    assert_eq!(manager.end(), Some(0));
}

#[test]
fn a_zero_turn_time_is_played_at_once_and_legally() {
    let mut manager = Manager::start();
    assert_eq!(manager.exchange("START 19"), "OK");
    manager.send("INFO timeout_turn 0");
    manager.send("INFO time_left 0");
    let reply = manager.exchange("BEGIN");
    assert!(move_point(&reply).is_some(), "{reply:?} is not a move");
    assert_eq!(manager.end(), Some(0));
}

#[test]
fn end_of_input_without_end_exits_with_0() {
    let mut manager = Manager::start();
    assert_eq!(manager.exchange("START 19"), "OK");
    assert_eq!(manager.close(), Some(0));
}

#[test]
fn arguments_are_refused() {
    let status = Command::new(BRAIN)
        .arg("--rule=exact")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run the brain");
    assert_eq!(status.code(), Some(2));
}

impl Manager {
    /// Sends `last` (END, or nothing for the end of input) while the
    /// brain thinks; the exit code, every line written afterwards but the
    /// search's reports (those of depths completed as `last` was sent may
    /// still be on their way), and how long the brain took to exit
    /// (printed: a figure, not a check).
    fn interrupt(mut self, last: Option<&str>) -> (Option<i32>, Vec<String>) {
        while self.lines.try_recv().is_ok() {}
        let started = std::time::Instant::now();
        if let Some(command) = last {
            self.send(command);
        }
        drop(self.stdin.take());
        let lines = std::mem::replace(&mut self.lines, mpsc::channel().1);
        let code = self.close();
        eprintln!("exited {:?} after {last:?}", started.elapsed());
        // The reader may not have passed on the last lines when the exit is
        // seen: wait for it to reach the end of stdout (the channel closes).
        let mut after = Vec::new();
        while let Ok(line) = lines.recv_timeout(HANG) {
            if !line.starts_with("MESSAGE depth ") {
                after.push(line);
            }
        }
        (code, after)
    }

    /// The next line, whatever it is.
    fn line(&self) -> String {
        self.lines
            .recv_timeout(HANG)
            .unwrap_or_else(|_| panic!("no line within {HANG:?}"))
    }
}

/// A manager that starts a long think: `timeout_turn` 10^13 ms, an
/// opening of four stones on 20×20, far from any win a search could prove
/// and so end early on (the six-stone position this used before gave the
/// side to move a win found in 215 ms), on two threads whatever the
/// machine has (a helper thread must stop with the main search). It
/// returns once the brain has written its first depth's report: so the
/// search is under way, and its reports are written while it goes on.
fn thinking_brain() -> Manager {
    let mut manager = Manager::start();
    assert_eq!(manager.exchange("START 20"), "OK");
    manager.send("INFO thread_num 2");
    manager.send("INFO timeout_turn 10000000000000");
    manager.send("INFO time_left 10000000000000");
    let stdin = manager.stdin.as_mut().expect("stdin is open");
    stdin
        .write_all(b"BOARD\n9,9,1\n10,10,2\n10,9,1\n9,10,2\nDONE\n")
        .expect("send a position");
    stdin.flush().expect("flush");
    let first = manager.line();
    assert!(
        first.starts_with("MESSAGE depth 1-"),
        "{first:?} is not the first depth's report"
    );
    manager
}

/// The taken points of [`thinking_brain`]'s position.
const THOUGHT_ON: [&str; 4] = ["9,9", "10,10", "10,9", "9,10"];

#[test]
fn end_while_thinking_stops_the_search_and_nothing_is_written_after() {
    let (code, after) = thinking_brain().interrupt(Some("END"));
    assert_eq!(code, Some(0));
    assert_eq!(after, Vec::<String>::new(), "nothing after END");
}

/// `END` behind other lines sent while the brain thinks ends it as
/// promptly: those lines are not answered.
#[test]
fn end_behind_other_lines_while_thinking_stops_the_search() {
    let mut manager = thinking_brain();
    manager.send("INFO time_left 100000");
    manager.send("ABOUT");
    manager.send("TURN 0,0");
    let (code, after) = manager.interrupt(Some("END"));
    assert_eq!(code, Some(0));
    assert_eq!(after, Vec::<String>::new(), "nothing after END");
}

/// `YXSTOP` (Yixin-Board's and c-gomoku-cli's stop) while the brain
/// thinks is answered with the best move so far, and the brain plays on.
#[test]
fn yxstop_while_thinking_plays_the_best_move_so_far() {
    let mut manager = thinking_brain();
    let reply = manager.exchange("YXSTOP");
    assert!(
        sized_move(&reply, 20).is_some() && !THOUGHT_ON.contains(&reply.as_str()),
        "{reply:?}"
    );
    manager.send("INFO timeout_turn 300");
    let next = manager.exchange("TURN 0,0");
    assert!(sized_move(&next, 20).is_some() && next != reply, "{next:?}");
    assert_eq!(manager.end(), Some(0));
}

/// `RESTART` while the brain thinks stops the think and drops its move:
/// the manager reads `OK`, and the next game begins on an empty board.
#[test]
fn restart_while_thinking_drops_the_move_and_answers_ok() {
    let mut manager = thinking_brain();
    assert_eq!(manager.exchange("RESTART"), "OK");
    manager.send("INFO timeout_turn 300");
    assert_eq!(
        manager.exchange("BEGIN"),
        "9,9",
        "the centre of an empty board"
    );
    assert_eq!(manager.end(), Some(0));
}

#[test]
fn end_of_input_while_thinking_stops_the_search_with_a_legal_move() {
    let (code, after) = thinking_brain().interrupt(None);
    assert_eq!(code, Some(0));
    assert_eq!(after.len(), 1, "{after:?}");
    assert!(
        sized_move(&after[0], 20).is_some() && !THOUGHT_ON.contains(&after[0].as_str()),
        "{after:?}"
    );
}

/// Each completed depth is a `MESSAGE` before the move: depth and
/// selective depth, score, nodes, nodes a second, time, and the principal
/// variation, whose first move is the move played.
#[test]
fn a_message_per_completed_depth() {
    let mut manager = Manager::start();
    assert_eq!(manager.exchange("START 20"), "OK");
    manager.send("INFO max_depth 4");
    manager.send("INFO timeout_turn 5000");
    let stdin = manager.stdin.as_mut().expect("stdin is open");
    stdin
        .write_all(b"BOARD\n9,9,1\n10,10,2\n10,9,1\n9,10,2\nDONE\n")
        .expect("send a position");
    stdin.flush().expect("flush");
    let mut messages = Vec::new();
    let played = loop {
        let line = manager.lines.recv_timeout(HANG).expect("a reply");
        match line.strip_prefix("MESSAGE ") {
            Some(message) => messages.push(message.to_string()),
            None => break line,
        }
    };
    assert_eq!(messages.len(), 4, "{messages:?}");
    for (n, message) in messages.iter().enumerate() {
        let words: Vec<&str> = message.split(' ').collect();
        assert_eq!(words[0], "depth", "{message}");
        let depth = words[1].split('-').next();
        assert_eq!(depth, Some((n + 1).to_string().as_str()), "{message}");
        assert!(words[2] == "ev" || words[2] == "mate", "{message}");
        let keys: Vec<&str> = words.iter().skip(4).step_by(2).copied().collect();
        assert_eq!(keys[..4], ["n", "n/s", "tm", "pv"], "{message}");
    }
    let last = messages.last().expect("four messages");
    let pv_first = last
        .split(" pv ")
        .nth(1)
        .and_then(|pv| pv.split(' ').next());
    assert_eq!(pv_first, Some(played.as_str()), "{last}");
    assert_eq!(manager.end(), Some(0));
}
