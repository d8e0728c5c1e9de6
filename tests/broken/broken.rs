//! A plainly written Gomoku-in-the-Mist controller with planted bugs,
//! chosen by the first argument (several joined by commas), for the
//! conformance kit's tests: the kit must find each bug in a program it
//! did not write, and one bug must not hide another. `none` plants
//! nothing: that one must pass everything.
//!
//! It is written the way a student might, from the contract alone, without the
//! crate: a 19×19 array, `read_until`, `match` on the line.

#![forbid(unsafe_code)]

use std::io::{self, BufRead, BufWriter, Read, Write};
use std::process::ExitCode;

const N: usize = 19;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bug {
    None,
    /// Loops for ever at end of input.
    EofLoop,
    /// Misses a line of five that touches an edge of the board.
    Edge,
    /// Only exactly five wins; six or more do not.
    Overline,
    /// Swaps x and y in the mist formula.
    MistSwap,
    /// Trims whitespace around a line before reading it.
    Trim,
    /// Exits with 0 at end of input.
    ExitCode,
    /// Reads lines in pieces of at most 512 bytes.
    LongLine,
    /// Calls a full board a tie before looking for a line.
    Tie,
    /// Prints `Invalid!` for ever at end of input.
    Flood,
    /// Hangs for ever once it reads a line holding a NUL byte (with its
    /// replies still in its buffer: stdout is block-buffered, as C's is
    /// on a pipe).
    NulHang,
    /// Prints nothing at all, whatever it reads.
    Silent,
    /// Exits with 0 after `term`.
    TermExit0,
    /// Misses a line of five on an anti-diagonal (going down to the right).
    AntiDiagonal,
    /// Drops a `\r` at the end of a line, as if it were part of a Windows
    /// line ending: `place M5\r` places a stone where `Invalid!` is due.
    CrPlace,
    /// Reads lines into a 256-byte buffer, as `fgets` does: a longer
    /// line is read as two or more.
    Buffer256,
    /// Reads a line only up to its first NUL byte, as C's string
    /// functions do: `who\0x` is `who`.
    NulCut,
    /// Matches commands and coordinates without regard to case.
    NoCase,
    /// Skips blank lines and leading whitespace, as
    /// `scanf(" %[^\n]")` does.
    SkipBlank,
    /// Reads a point's letter and digits and ignores whatever follows
    /// them (`J10x`, `J10\r`), as `sscanf(param, "%c%d")` does.
    LaxPoint,
    /// Reads a point with `sscanf(param, "%s")`: the parameter ends at
    /// its first whitespace byte, so `place A1\r` and `place A1\x0c`
    /// place a stone at A1 (one space after `place` is still required).
    WsParam,
    /// Takes only the space for whitespace in a parameter, as a check
    /// of `strchr(param, ' ')` or a pattern `[^ ]+` does: `place A1\x0c`
    /// is a `place` of the point `A1\x0c`, which is not one.
    SpaceOnly,
}

/// The bugs planted in one run.
struct Bugs(Vec<Bug>);

impl Bugs {
    fn has(&self, bug: Bug) -> bool {
        self.0.contains(&bug)
    }
}

fn bug_named(name: &str) -> Option<Bug> {
    Some(match name {
        "none" => Bug::None,
        "eof-loop" => Bug::EofLoop,
        "edge" => Bug::Edge,
        "overline" => Bug::Overline,
        "mist-swap" => Bug::MistSwap,
        "trim" => Bug::Trim,
        "exit-code" => Bug::ExitCode,
        "long-line" => Bug::LongLine,
        "tie" => Bug::Tie,
        "flood" => Bug::Flood,
        "nul-hang" => Bug::NulHang,
        "silent" => Bug::Silent,
        "term-exit-0" => Bug::TermExit0,
        "anti-diagonal" => Bug::AntiDiagonal,
        "cr-place" => Bug::CrPlace,
        "buffer-256" => Bug::Buffer256,
        "nul-cut" => Bug::NulCut,
        "no-case" => Bug::NoCase,
        "skip-blank" => Bug::SkipBlank,
        "lax-point" => Bug::LaxPoint,
        "ws-param" => Bug::WsParam,
        "space-only" => Bug::SpaceOnly,
        _ => return None,
    })
}

fn main() -> ExitCode {
    // Several bugs at once are named with commas: `eof-loop,edge`.
    let bugs: Option<Vec<Bug>> = std::env::args()
        .nth(1)
        .map(|names| names.split(',').map(bug_named).collect())
        .unwrap_or(None);
    let Some(bugs) = bugs else {
        let _ = writeln!(
            io::stderr(),
            "usage: broken BUG[,BUG...], each none|eof-loop|edge|overline|mist-swap|trim|exit-code|long-line|tie|flood|nul-hang|silent|term-exit-0|anti-diagonal|cr-place|buffer-256|nul-cut|no-case|skip-blank|lax-point"
        );
        return ExitCode::from(2);
    };
    let bug = Bugs(bugs);
    let code = if bug.has(Bug::Silent) {
        play(&bug, &mut io::stdin().lock(), &mut io::sink())
    } else {
        let mut out = BufWriter::new(io::stdout().lock());
        let code = play(&bug, &mut io::stdin().lock(), &mut out);
        let _ = out.flush();
        code
    };
    ExitCode::from(code)
}

struct Game {
    board: [[u8; N]; N], // [x][y], 0-based; 0 empty, 1 black, 2 white
    black_to_move: bool,
    history: String,
    moves: usize,
    cx: usize, // 1-based centre
    cy: usize,
}

fn play(bug: &Bugs, input: &mut impl BufRead, out: &mut impl Write) -> u8 {
    let mut game = Game {
        board: [[0; N]; N],
        black_to_move: true,
        history: String::new(),
        moves: 0,
        cx: 10,
        cy: 10,
    };
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = if bug.has(Bug::Buffer256) {
            // fgets(buf, 256, stdin): at most 255 bytes a read.
            input.by_ref().take(255).read_until(b'\n', &mut line)
        } else if bug.has(Bug::LongLine) {
            input.by_ref().take(512).read_until(b'\n', &mut line)
        } else {
            input.read_until(b'\n', &mut line)
        };
        match read {
            Ok(0) | Err(_) => {
                if bug.has(Bug::EofLoop) {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    continue;
                }
                if bug.has(Bug::Flood) {
                    while writeln!(out, "Invalid!").is_ok() {}
                }
                return if bug.has(Bug::ExitCode) { 0 } else { 1 };
            }
            Ok(_) => {}
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if bug.has(Bug::NulHang) && line.contains(&0) {
            // Whatever it printed is still in the BufWriter: lost when killed.
            loop {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        }
        if bug.has(Bug::CrPlace) && line.last() == Some(&b'\r') {
            line.pop();
        }
        if bug.has(Bug::NulCut) {
            if let Some(at) = line.iter().position(|&b| b == 0) {
                line.truncate(at);
            }
        }
        let mut text: &[u8] = &line;
        if bug.has(Bug::Trim) {
            text = text.trim_ascii();
        }
        if bug.has(Bug::SkipBlank) {
            text = text.trim_ascii_start();
            if text.is_empty() {
                continue;
            }
        }
        let folded;
        if bug.has(Bug::NoCase) {
            let lower = text.to_ascii_lowercase();
            folded = match lower.strip_prefix(b"place ") {
                Some(param) => [b"place ".as_slice(), &param.to_ascii_uppercase()].concat(),
                None => lower,
            };
            text = &folded;
        }
        let _ = match text {
            b"who" => writeln!(out, "{}", if game.black_to_move { "B" } else { "W" }),
            b"history" => writeln!(out, "{}", game.history),
            b"view" => writeln!(out, "{}", view(&game)),
            b"term" => return if bug.has(Bug::TermExit0) { 0 } else { 1 },
            b"resign" => {
                let winner = if game.black_to_move { "White" } else { "Black" };
                end(out, &format!("{winner} wins!"), &game);
                return 0;
            }
            _ => match text.strip_prefix(b"place ") {
                Some(param)
                    if !param.is_empty() && !param.iter().any(|b| b" \t\r\x0b\x0c".contains(b))
                        || (bug.has(Bug::LaxPoint) || bug.has(Bug::WsParam))
                            && !param.contains(&b' ')
                        || bug.has(Bug::SpaceOnly)
                            && !param.is_empty()
                            && !param.contains(&b' ') =>
                {
                    let param = if bug.has(Bug::LaxPoint) {
                        let digits = param.iter().skip(1).take_while(|b| b.is_ascii_digit());
                        &param[..(1 + digits.count()).min(param.len())]
                    } else if bug.has(Bug::WsParam) {
                        let word = param.iter().take_while(|b| !b"\t\r\x0b\x0c".contains(b));
                        &param[..word.count()]
                    } else {
                        param
                    };
                    match parse_point(param) {
                        None => writeln!(out, "Invalid coordinate"),
                        Some((x, y)) if game.board[x][y] != 0 => {
                            writeln!(out, "Occupied coordinate")
                        }
                        Some((x, y)) => {
                            if let Some(result) = place(bug, &mut game, x, y) {
                                end(out, result, &game);
                                return 0;
                            }
                            Ok(())
                        }
                    }
                }
                _ => writeln!(out, "Invalid!"),
            },
        };
    }
}

fn parse_point(param: &[u8]) -> Option<(usize, usize)> {
    let (&letter, digits) = param.split_first()?;
    if !(b'A'..=b'S').contains(&letter)
        || digits.is_empty()
        || digits.len() > 2
        || digits[0] == b'0'
    {
        return None;
    }
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let row: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
    (1..=19)
        .contains(&row)
        .then(|| (usize::from(letter - b'A'), row - 1))
}

fn place(bug: &Bugs, game: &mut Game, x: usize, y: usize) -> Option<&'static str> {
    let stone = if game.black_to_move { 1 } else { 2 };
    game.board[x][y] = stone;
    game.moves += 1;
    game.history.push(char::from(b'A' + x as u8));
    game.history.push_str(&(y + 1).to_string());
    let (px, py) = (x + 1, y + 1);
    if bug.has(Bug::MistSwap) {
        game.cx = 1 + (5 * py * py + 3 * py + 4) % 19;
        game.cy = 1 + (4 * px * px + 2 * px - 4) % 19;
    } else {
        game.cx = 1 + (5 * px * px + 3 * px + 4) % 19;
        game.cy = 1 + (4 * py * py + 2 * py - 4) % 19;
    }
    game.black_to_move = !game.black_to_move;
    let winner = if stone == 1 {
        "Black wins!"
    } else {
        "White wins!"
    };
    if bug.has(Bug::Tie) && game.moves == N * N {
        return Some("Wow, a tie!");
    }
    if wins(bug, game, x, y, stone) {
        return Some(winner);
    }
    (game.moves == N * N).then_some("Wow, a tie!")
}

fn wins(bug: &Bugs, game: &Game, x: usize, y: usize, stone: u8) -> bool {
    for (dx, dy) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
        let mut cells = vec![(x, y)];
        for sign in [1, -1] {
            let (mut cx, mut cy) = (x as i32, y as i32);
            loop {
                cx += dx * sign;
                cy += dy * sign;
                if cx < 0
                    || cy < 0
                    || cx >= N as i32
                    || cy >= N as i32
                    || game.board[cx as usize][cy as usize] != stone
                {
                    break;
                }
                cells.push((cx as usize, cy as usize));
            }
        }
        let touches_edge = cells
            .iter()
            .any(|&(a, b)| a == 0 || b == 0 || a == N - 1 || b == N - 1);
        let long_enough = if bug.has(Bug::Overline) {
            cells.len() == 5
        } else {
            cells.len() >= 5
        };
        let anti_diagonal = (dx, dy) == (1, -1);
        if long_enough
            && !(bug.has(Bug::Edge) && touches_edge)
            && !(bug.has(Bug::AntiDiagonal) && anti_diagonal)
        {
            return true;
        }
    }
    false
}

fn view(game: &Game) -> String {
    let mut s = format!("{}{},", char::from(b'A' + game.cx as u8 - 1), game.cy);
    for y in (game.cy as i32 - 3..=game.cy as i32 + 3).rev() {
        for x in game.cx as i32 - 3..=game.cx as i32 + 3 {
            s.push(if x < 1 || y < 1 || x > N as i32 || y > N as i32 {
                'x'
            } else {
                match game.board[x as usize - 1][y as usize - 1] {
                    1 => '#',
                    2 => 'o',
                    _ => '.',
                }
            });
        }
    }
    s
}

fn end(out: &mut impl Write, result: &str, game: &Game) {
    let _ = writeln!(out, "{result}\n{}\nThank you for playing!", game.history);
}
