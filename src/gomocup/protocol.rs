//! [`Protocol`]: what the brain knows between commands, and the reply to
//! each one.
//!
//! The position is kept as the manager's own stones and the opponent's,
//! in the order they came, so `TAKEBACK` can take any of them off. The
//! brain is shown it as a [`Setup`] of two colours: it plays White when
//! the opponent has more stones (the opponent began), Black otherwise. A
//! stone of a finished winning line (`BOARD` field 3, continuous games)
//! belongs to neither player; the setup can only hold the two colours, so
//! the brain sees it as the opponent's — a point it can neither take nor
//! build on. Any square board from [`MIN_SIZE`] to [`MAX_SIZE`] is
//! played; `RECTSTART` is refused.

use std::fmt::Display;
use std::io::Write;
use std::time::{Duration, Instant};

use thiserror::Error;

use super::clock::Clock;
use super::coord::Coord;
use super::parse::{self, Command, ParseError};
use super::{ABOUT, Brain, MAX_LINE};
use crate::engine::{Limits, MAX_SIZE, MIN_SIZE, Setup, Spot};
use crate::rules::player::Player;
use crate::rules::rule::Rule;

/// What the brain keeps back from `max_memory` for all but the hash
/// table (code, pattern tables, stacks: about 6 MiB, measured by
/// tests/it/memory.rs; renju's pattern table, 1 MiB; and while a new
/// table is made aside, the stand-in searched meanwhile and the thread
/// making it: with 8 MiB a limit of 12 MiB was overrun by up to 1.3 MiB
/// then), whatever the limit: a limit below this and the smallest table
/// cannot be kept, and the brain says so.
pub const MEMORY_RESERVE: u64 = 10 << 20;

/// The smallest hash table the engine makes, in bytes.
pub const SMALLEST_TABLE: u64 = crate::engine::tt::SMALLEST as u64;

/// What [`Protocol::handle`] may ask of the loop around it while it
/// answers a command: the one thing it writes before its reply is done,
/// and what the manager has said since.
pub trait Live {
    /// Writes `lines` to the manager now and flushes them: the search's
    /// notes, each as soon as its depth completes, while the brain goes on
    /// thinking.
    fn send_now(&mut self, lines: &[u8]);

    /// Whether the move just thought of is still wanted: not if a new game
    /// (`RESTART`, or a `START` the brain plays) came while it was thought.
    fn move_wanted(&self) -> bool;
}

/// Whether to go on reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `END`: stop at once.
    End,
}

/// Whose a stone is, from the brain's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Own,
    Opponent,
    /// Part of a finished winning line in a continuous game.
    Line,
}

/// Why a command cannot be followed: the text of an `ERROR` reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
enum Refusal {
    #[error("{0}")]
    Parse(#[from] ParseError),
    #[error("no board yet: START n first, n from {MIN_SIZE} to {MAX_SIZE}")]
    NotStarted,
    #[error(
        "only square boards from {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE} are supported, not {0}x{0}"
    )]
    Size(u32),
    #[error("rectangular boards are not supported ({0}x{1}): use START with one size")]
    Rectangle(u32, u32),
    #[error("{},{} is off the {size}x{size} board", .0.x, .0.y, size = .1)]
    OffBoard(Coord, u8),
    #[error("{},{} is taken", .0.x, .0.y)]
    Occupied(Coord),
    #[error("there is no stone at {},{}", .0.x, .0.y)]
    NoStone(Coord),
    #[error("{},{} is given twice", .0.x, .0.y)]
    Twice(Coord),
    #[error("no empty point is left")]
    Full,
    #[error("BEGIN needs an empty board; send a position with BOARD")]
    NotEmpty,
    #[error("DONE without BOARD")]
    Done,
    #[error("INFO {0} takes a whole number")]
    Info(&'static str),
    #[error("a line is at most {MAX_LINE} bytes")]
    TooLong,
}

/// A `BOARD` (or `YXBOARD`) block being read.
#[derive(Debug, Default)]
struct Block {
    /// Whether `DONE` asks for a move: `BOARD`'s does, `YXBOARD`'s not.
    think: bool,
    stones: Vec<(Coord, Side)>,
    /// The first thing wrong, reported at `DONE`.
    problem: Option<Refusal>,
}

/// The brain's side of a conversation with a manager.
#[derive(Debug)]
pub struct Protocol {
    started: bool,
    /// The board's side, once started.
    size: u8,
    /// Every stone on the board, in the order it came; never two on one
    /// point.
    stones: Vec<(Coord, Side)>,
    block: Option<Block>,
    rule: Rule,
    clock: Clock,
    nodes: Option<u64>,
    depth: Option<u32>,
    /// `thread_num`, if sent and not 0.
    threads: Option<u32>,
    max_memory: Option<u64>,
    /// Whether the manager has sent `max_memory` (0, no limit, included).
    memory_said: bool,
    /// The brain must hear of a new game or a new memory limit before it
    /// next chooses.
    fresh: bool,
}

impl Default for Protocol {
    fn default() -> Protocol {
        Protocol::new()
    }
}

impl Protocol {
    /// Before `START`: no board, freestyle, default time, no limits.
    pub fn new() -> Protocol {
        Protocol {
            started: false,
            size: 19,
            stones: Vec::new(),
            block: None,
            rule: Rule::Freestyle,
            clock: Clock::default(),
            nodes: None,
            depth: None,
            threads: None,
            max_memory: None,
            memory_said: false,
            fresh: true,
        }
    }

    /// What the brain would be given for the next move.
    pub fn budget(&self) -> Limits {
        Limits {
            time: Some(self.clock.budget()),
            nodes: self.nodes,
            depth: self.depth,
            threads: self.threads,
        }
    }

    /// The memory the brain may use: `max_memory` less
    /// [`MEMORY_RESERVE`]; `None` for no limit.
    pub fn brain_memory(&self) -> Option<u64> {
        self.max_memory
            .map(|max| max.saturating_sub(MEMORY_RESERVE))
    }

    /// Answers one line (without its `\n`; `whole` is false if its tail was
    /// cut off), appending the reply, if any, to `out`; while the brain
    /// thinks, its notes go to `live` at once.
    pub fn handle<B: Brain + ?Sized>(
        &mut self,
        line: &[u8],
        whole: bool,
        brain: &mut B,
        out: &mut Vec<u8>,
        live: &mut dyn Live,
    ) -> Flow {
        if self.block.is_some() {
            return self.block_line(line, whole, brain, out, live);
        }
        self.command(line, whole, brain, out, live)
    }

    /// Answers a line outside a `BOARD` block.
    fn command<B: Brain + ?Sized>(
        &mut self,
        line: &[u8],
        whole: bool,
        brain: &mut B,
        out: &mut Vec<u8>,
        live: &mut dyn Live,
    ) -> Flow {
        let command = match parse::parse(line) {
            Ok(None) => return Flow::Continue,
            Ok(Some(Command::Info { key, value })) => {
                // A manager reads no reply to INFO (Piskvork would take an
                // ERROR line for the move): a value that cannot be
                // followed is ignored, and said so in a MESSAGE.
                if let Err(refusal) = self.info(key, value, whole, out) {
                    reply(out, "MESSAGE", format_args!("ignored: {refusal}"));
                }
                return Flow::Continue;
            }
            Err(
                e @ ParseError::Arguments {
                    command: "INFO", ..
                },
            ) => {
                reply(out, "MESSAGE", format_args!("ignored: {e}"));
                return Flow::Continue;
            }
            Ok(Some(_)) | Err(_) if !whole => {
                reply(out, "ERROR", Refusal::TooLong);
                return Flow::Continue;
            }
            Ok(Some(command)) => command,
            Err(ParseError::Unknown) => {
                let word = line.trim_ascii().split(u8::is_ascii_whitespace).next();
                let word = word.unwrap_or_default();
                let shown = word[..word.len().min(32)].escape_ascii();
                reply(out, "UNKNOWN", format_args!("{shown} is not a command"));
                return Flow::Continue;
            }
            Err(e) => {
                reply(out, "ERROR", e);
                return Flow::Continue;
            }
        };
        if command == Command::End {
            return Flow::End;
        }
        if let Err(refusal) = self.follow(command, brain, out, live) {
            reply(out, "ERROR", refusal);
        }
        Flow::Continue
    }

    /// Answers a line inside a `BOARD` block: a stone, `DONE`, or `END`.
    fn block_line<B: Brain + ?Sized>(
        &mut self,
        line: &[u8],
        whole: bool,
        brain: &mut B,
        out: &mut Vec<u8>,
        live: &mut dyn Live,
    ) -> Flow {
        let stone = parse::parse_stone(line);
        if let Ok(None) = stone {
            let block = self.block.take().unwrap_or_default();
            if let Err(refusal) = self.done(block, brain, out, live) {
                reply(out, "ERROR", refusal);
            }
            return Flow::Continue;
        }
        match parse::parse(line) {
            // END still ends, wherever it comes.
            Ok(Some(Command::End)) => return Flow::End,
            // Neither is a stone, nor spoils the position: INFO is
            // followed as anywhere else, YXSTOP has no think to stop.
            Ok(Some(Command::Info { .. } | Command::Stop))
            | Err(ParseError::Arguments {
                command: "INFO", ..
            }) if stone.is_err() => {
                return self.command(line, whole, brain, out, live);
            }
            _ => {}
        }
        let Some(block) = &mut self.block else {
            return Flow::Continue;
        };
        match stone {
            Ok(Some(stone)) if whole => block.add(stone.at, stone.field, self.size),
            _ if line.trim_ascii().is_empty() => {}
            _ => {
                let problem = if whole {
                    ParseError::Stone.into()
                } else {
                    Refusal::TooLong
                };
                block.problem.get_or_insert(problem);
            }
        }
        Flow::Continue
    }

    fn follow<B: Brain + ?Sized>(
        &mut self,
        command: Command<'_>,
        brain: &mut B,
        out: &mut Vec<u8>,
        live: &mut dyn Live,
    ) -> Result<(), Refusal> {
        match command {
            Command::Start(size) => self.start(size, brain, out),
            Command::RectStart(width, height) => Err(Refusal::Rectangle(width, height)),
            Command::Restart => {
                self.ensure_started()?;
                self.new_game(brain);
                out.extend_from_slice(b"OK\n");
                Ok(())
            }
            Command::Begin => {
                self.ensure_started()?;
                if !self.stones.is_empty() {
                    return Err(Refusal::NotEmpty);
                }
                self.play(brain, out, live)
            }
            Command::Turn(at) => {
                let p = self.empty_point(at)?;
                if self.stones.len() + 1 >= self.points() {
                    return Err(Refusal::Full);
                }
                self.stones.push((p, Side::Opponent));
                self.play(brain, out, live)
            }
            Command::Play(at) => {
                let p = self.empty_point(at)?;
                self.stones.push((p, Side::Own));
                write_move(out, p);
                Ok(())
            }
            Command::Takeback(at) => {
                self.ensure_started()?;
                let p = self.on_board(at)?;
                let i = self.stones.iter().position(|(q, _)| *q == p);
                self.stones.remove(i.ok_or(Refusal::NoStone(at))?);
                out.extend_from_slice(b"OK\n");
                Ok(())
            }
            Command::Board | Command::YxBoard => {
                self.block = Some(Block {
                    think: command == Command::Board,
                    ..Block::default()
                });
                Ok(())
            }
            Command::YxShowForbid => {
                self.ensure_started()?;
                self.show_forbidden(out);
                Ok(())
            }
            Command::Done => Err(Refusal::Done),
            Command::About => {
                out.extend_from_slice(ABOUT.as_bytes());
                Ok(())
            }
            // A think it would stop is over (the search watches for it on
            // a thread of its own: see `serve`); none, or none left.
            Command::Stop => Ok(()),
            // Both answered by `handle` before it gets here.
            Command::Info { .. } | Command::End => Ok(()),
        }
    }

    fn start<B: Brain + ?Sized>(
        &mut self,
        size: u32,
        brain: &mut B,
        out: &mut Vec<u8>,
    ) -> Result<(), Refusal> {
        let size = u8::try_from(size)
            .ok()
            .filter(|n| (MIN_SIZE..=MAX_SIZE).contains(n))
            .ok_or(Refusal::Size(size))?;
        self.size = size;
        self.started = true;
        self.new_game(brain);
        out.extend_from_slice(b"OK\n");
        Ok(())
    }

    /// A new game, told to the brain at once once the manager has said
    /// how much memory it may take: the manager waits for `OK` with no
    /// turn's clock running, so what the brain does to get ready costs no
    /// move its time. Before that (a manager's first game: its `INFO`
    /// comes after `START`) the brain hears of the game at its first
    /// move, and takes nothing it might not be allowed.
    fn new_game<B: Brain + ?Sized>(&mut self, brain: &mut B) {
        self.stones.clear();
        self.fresh = !self.memory_said;
        if self.memory_said {
            brain.new_game(self.brain_memory());
        }
    }

    fn ensure_started(&self) -> Result<(), Refusal> {
        if self.started {
            Ok(())
        } else {
            Err(Refusal::NotStarted)
        }
    }

    /// The board's number of points.
    fn points(&self) -> usize {
        usize::from(self.size) * usize::from(self.size)
    }

    /// `at`, if it is on the board.
    fn on_board(&self, at: Coord) -> Result<Coord, Refusal> {
        let size = u32::from(self.size);
        if at.x < size && at.y < size {
            Ok(at)
        } else {
            Err(Refusal::OffBoard(at, self.size))
        }
    }

    fn empty_point(&self, at: Coord) -> Result<Coord, Refusal> {
        self.ensure_started()?;
        let p = self.on_board(at)?;
        if self.stones.iter().any(|(q, _)| *q == p) {
            return Err(Refusal::Occupied(at));
        }
        Ok(p)
    }

    fn done<B: Brain + ?Sized>(
        &mut self,
        block: Block,
        brain: &mut B,
        out: &mut Vec<u8>,
        live: &mut dyn Live,
    ) -> Result<(), Refusal> {
        if let Some(problem) = block.problem {
            return Err(problem);
        }
        self.ensure_started()?;
        if block.stones.len() >= self.points() {
            return Err(Refusal::Full);
        }
        self.stones = block.stones;
        if block.think {
            self.play(brain, out, live)
        } else {
            Ok(())
        }
    }

    /// `FORBID xxyy….`: under renju with Black (the brain's colour) to
    /// move, the forbidden points, each as two two-digit numbers, row by
    /// row; none otherwise. As Yixin-Board asks and Rapfi answers.
    fn show_forbidden(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"FORBID ");
        let setup = self.setup();
        if setup.rule == Rule::Renju && setup.to_move == Player::Black {
            for (s, _) in crate::engine::forbidden(&setup) {
                // Two digits each: boards are at most 22 wide.
                let _ = write!(out, "{:02}{:02}", s.x, s.y);
            }
        }
        out.extend_from_slice(b".\n");
    }

    /// Asks the brain for a move, plays it and writes it, unless a new game
    /// came while it thought; the brain's notes are written as they come.
    fn play<B: Brain + ?Sized>(
        &mut self,
        brain: &mut B,
        out: &mut Vec<u8>,
        live: &mut dyn Live,
    ) -> Result<(), Refusal> {
        // The manager's clock runs from its command: whatever the brain
        // spends on a game or a memory limit new since its last move comes
        // out of this turn.
        let mut budget = self.budget();
        if self.fresh {
            let started = Instant::now();
            brain.new_game(self.brain_memory());
            self.fresh = false;
            let spent = started.elapsed();
            budget.time = budget.time.map(|time| time.saturating_sub(spent));
        }
        let setup = self.setup();
        let taken = |s: Spot| self.stones.iter().any(|(q, _)| *q == Coord::of(s));
        let offered = brain.choose(&setup, budget, &mut |note| {
            reply(out, "MESSAGE", note);
            live.send_now(out);
            out.clear();
        });
        if !live.move_wanted() {
            return Ok(());
        }
        let p = match offered.filter(|&s| setup.contains(s) && !taken(s)) {
            Some(s) => Coord::of(s),
            None => {
                let p = self.nearest_centre().ok_or(Refusal::Full)?;
                let offered = offered.map_or("none".to_string(), |s| {
                    let Coord { x, y } = Coord::of(s);
                    format!("{x},{y}")
                });
                reply(
                    out,
                    "DEBUG",
                    format_args!("the brain offered {offered}: overruled"),
                );
                p
            }
        };
        self.stones.push((p, Side::Own));
        write_move(out, p);
        Ok(())
    }

    /// The position in two colours, the brain's colour to move.
    fn setup(&self) -> Setup {
        let count = |side| self.stones.iter().filter(|(_, s)| *s == side).count();
        let me = if count(Side::Own) < count(Side::Opponent) {
            Player::White
        } else {
            Player::Black
        };
        let stones = self
            .stones
            .iter()
            .filter_map(|&(at, side)| {
                let player = if side == Side::Own { me } else { me.opponent() };
                Some((at.spot()?, player))
            })
            .collect();
        Setup {
            size: self.size,
            stones,
            to_move: me,
            rule: self.rule,
        }
    }

    /// The empty point nearest the centre, if any.
    fn nearest_centre(&self) -> Option<Coord> {
        let n = u32::from(self.size);
        (0..n)
            .flat_map(|y| (0..n).map(move |x| Coord { x, y }))
            .filter(|c| self.stones.iter().all(|(q, _)| q != c))
            .min_by_key(|c| {
                let d = |v: u32| (2 * i64::from(v) - i64::from(n - 1)).pow(2);
                d(c.x) + d(c.y)
            })
    }

    /// Follows `INFO key value`; a line cut off (not `whole`) is
    /// refused unless its key is ignored anyway (a long `folder`).
    fn info(
        &mut self,
        key: &[u8],
        value: &[u8],
        whole: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), Refusal> {
        const KEYS: [&str; 8] = [
            "timeout_turn",
            "timeout_match",
            "time_left",
            "max_memory",
            "rule",
            "max_node",
            "max_depth",
            "thread_num",
        ];
        // Unknown keys, `game_type`, `evaluate` and `folder` change nothing.
        let Some(name) = KEYS
            .into_iter()
            .find(|k| key.eq_ignore_ascii_case(k.as_bytes()))
        else {
            return Ok(());
        };
        if !whole {
            return Err(Refusal::TooLong);
        }
        let n = parse::integer(value).ok_or(Refusal::Info(name))?;
        let ms = |n: i64| Duration::from_millis(n.max(0).unsigned_abs());
        match name {
            "time_left" => self.clock.left = Some(ms(n)),
            // A limit of 0 or less is no limit.
            "max_node" => self.nodes = u64::try_from(n).ok().filter(|n| *n > 0),
            "max_depth" => {
                self.depth = (n > 0).then(|| u32::try_from(n).unwrap_or(u32::MAX));
            }
            _ if n < 0 => return Err(Refusal::Info(name)),
            // 0: the brain's own choice.
            "thread_num" => self.threads = (n > 0).then(|| u32::try_from(n).unwrap_or(u32::MAX)),
            "timeout_turn" => self.clock.turn = Some(ms(n)),
            "timeout_match" => self.clock.matches = Some(ms(n)),
            "max_memory" => {
                let max = (n > 0).then_some(n.unsigned_abs());
                self.fresh |= max != self.max_memory;
                self.max_memory = max;
                self.memory_said = true;
                if let Some(memory) = self.brain_memory().filter(|&m| m < SMALLEST_TABLE) {
                    reply(
                        out,
                        "MESSAGE",
                        format_args!(
                            "max_memory {n} leaves {memory} bytes for the hash table after \
                             {MEMORY_RESERVE} for the rest of the brain, below its smallest size: \
                             playing with the smallest, {SMALLEST_TABLE} bytes"
                        ),
                    );
                }
            }
            _ => {
                let (rule, note) = rule_of(n.unsigned_abs());
                self.rule = rule;
                crate::engine::warm_up(rule);
                if let Some(note) = note {
                    reply(out, "MESSAGE", note);
                }
            }
        }
        Ok(())
    }
}

impl Block {
    fn add(&mut self, at: Coord, field: u8, size: u8) {
        if self.problem.is_some() {
            return;
        }
        let side = match field {
            1 => Side::Own,
            2 => Side::Opponent,
            _ => Side::Line,
        };
        if at.x >= u32::from(size) || at.y >= u32::from(size) {
            self.problem = Some(Refusal::OffBoard(at, size));
        } else if self.stones.iter().any(|(q, _)| *q == at) {
            self.problem = Some(Refusal::Twice(at));
        } else {
            self.stones.push((at, side));
        }
    }
}

/// The rule for `INFO rule` bits (1 exactly five, 2 continuous game, 4
/// renju, 8 caro), and a note if it is not the one asked for.
pub fn rule_of(bits: u64) -> (Rule, Option<&'static str>) {
    const EXACT: u64 = 1;
    const RENJU: u64 = 4;
    const CARO: u64 = 8;
    if bits & CARO != 0 {
        (Rule::Caro, None)
    } else if bits & RENJU != 0 {
        (Rule::Renju, None)
    } else if bits & EXACT != 0 {
        (Rule::Exact, None)
    } else {
        (Rule::Freestyle, None)
    }
}

fn write_move(out: &mut Vec<u8>, p: Coord) {
    let Coord { x, y } = p;
    reply(out, "", format_args!("{x},{y}"));
}

/// Appends `kind message\n` (or just `message\n` for an empty kind).
fn reply(out: &mut Vec<u8>, kind: &str, message: impl Display) {
    let space = if kind.is_empty() { "" } else { " " };
    // Writing to a vector cannot fail.
    let _ = writeln!(out, "{kind}{space}{message}");
}
