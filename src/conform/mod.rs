//! The conformance kit: `check` runs a folder of `.in` cases through any
//! program and compares its stdout and exit code with the expected ones;
//! `fuzz` makes random sessions, compares the program with the reference
//! run in-process, puts each disagreement on the input line that caused it
//! and the clause of that line ([`diagnose`], [`clause`], [`trace`]),
//! groups them by cause and shrinks one case of each group; `cover` tells
//! which scenarios a folder of cases exercises. [`mark`] builds a student's C
//! submission and marks it along the assignment's whole scheme
//! (restrictions, the three commands above, memory), for one submission or
//! a class.
//!
//! This is a shell over the core: it starts processes, reads files and
//! writes reports. The reference it compares with is
//! [`crate::controller::stream::run`] over byte slices, so it is exactly the program
//! the contract describes, without a process of its own.
//!
//! The programs it tests are contained ([`sandbox`]): run through a
//! launcher ([`launch`], this binary again) that sets limits and watches
//! them, each in a scratch folder of its own, and none left running when
//! a run or the kit ends ([`reap`]); [`run`] runs one.

#[cfg(target_os = "linux")]
pub mod boxes;
pub mod case;
pub mod check;
pub mod clause;
pub mod cover;
pub mod diagnose;
pub mod fuzz;
pub mod generate;
pub mod hint;
pub mod launch;
pub mod mark;
pub mod model;
pub mod pool;
pub mod reap;
pub mod report;
mod room;
pub mod run;
pub mod sandbox;
pub mod scenario;
pub mod shrink;
pub mod split;
pub mod trace;

use std::ffi::OsString;
use std::path::PathBuf;

use thiserror::Error;

use crate::controller::opponent::Cpu;
use crate::controller::session::{Settings, Stop};
use crate::controller::stream;
use crate::rules::game::Game;
use crate::rules::rule::Rule;

pub use check::{CheckOptions, check};
pub use cover::{CoverOptions, cover};
pub use fuzz::{FuzzOptions, Limit, fuzz};

/// How a `check` or `fuzz` run came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every case passed; no disagreement was found.
    Passed,
    /// At least one case failed, or a disagreement was found.
    Failed,
}

impl Outcome {
    /// The process exit code for this outcome: 0 or 1.
    pub const fn exit_code(self) -> u8 {
        match self {
            Outcome::Passed => 0,
            Outcome::Failed => 1,
        }
    }
}

/// How a report is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// For a person: the default.
    Text,
    /// JUnit XML, which CI servers read (`check` only).
    Junit,
    /// JSON, for scripts.
    Json,
}

/// A failure of the kit itself, not of the program under test.
#[derive(Debug, Error)]
pub enum ConformError {
    /// A path given on the command line that cannot be read.
    #[error("{}: {source}", report::shown_path(path))]
    Path {
        /// The path as given.
        path: PathBuf,
        /// Why it cannot be read.
        #[source]
        source: std::io::Error,
    },
    /// A path that is neither a folder nor a `.in` file.
    #[error("{}: not a folder or a .in file", report::shown_path(.0))]
    NotACase(PathBuf),
    /// A case's `.code` file that does not hold a number.
    #[error("{}: not an exit code", report::shown_path(.0))]
    BadCode(PathBuf),
    /// A case's `.args` file that is not UTF-8.
    #[error("{}: not UTF-8", report::shown_path(.0))]
    BadArgs(PathBuf),
    /// The folder for a shrunk failure cannot be written.
    #[error("cannot write {}: {source}", report::shown_path(path))]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The report cannot be written.
    #[error("cannot write the report: {0}")]
    Report(#[from] std::io::Error),
    /// This program's own path, the default `--program`, is unknown.
    #[error("cannot find this program: {0}")]
    CurrentExe(#[source] std::io::Error),
}

/// What the reference does with some input: its stdout and exit code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// Every byte written on stdout.
    pub stdout: Vec<u8>,
    /// The exit code.
    pub code: i32,
}

/// The most runs at once: more only queues the same cores, and each run
/// costs threads, so a mistyped `--jobs` must not exhaust them.
pub const MAX_JOBS: usize = 256;

/// How the reference reads a case's `.args` (the game's options). The
/// command line that started the kit hands it in, so the kit runs games
/// without knowing their options.
pub type ReadArgs = fn(&[OsString]) -> Invocation;

/// What the reference is asked to do with a case's input.
#[derive(Debug)]
pub enum Invocation {
    /// Play this game (boxed: a board is large beside the other variants).
    Play {
        /// The game, after any moves it starts with.
        game: Box<Game>,
        /// How the session prints.
        settings: Settings,
        /// The computer, if it plays one colour.
        cpu: Option<Cpu>,
    },
    /// Print this text and exit 0, as `--help` and `--version` do.
    Print(&'static str),
    /// Refuse, as a bad command line is: nothing on stdout, exit 2.
    Refuse,
}

impl Invocation {
    /// The contract's game: no options.
    pub fn contract() -> Invocation {
        Invocation::Play {
            game: Box::new(Game::new(Rule::default())),
            settings: Settings::default(),
            cpu: None,
        }
    }
}

/// Runs the reference in-process on `input`, as `setup` asks.
pub fn reference(setup: Invocation, input: &[u8]) -> Expected {
    let (game, settings, cpu) = match setup {
        Invocation::Play {
            game,
            settings,
            cpu,
        } => (*game, settings, cpu),
        Invocation::Print(text) => return text_only(text),
        Invocation::Refuse => {
            return Expected {
                stdout: Vec::new(),
                code: 2,
            };
        }
    };
    let mut stdout = Vec::new();
    // Reading a slice and writing a vector cannot fail.
    let code = match stream::play(game, settings, cpu.map(Cpu::opponent), input, &mut stdout) {
        Ok(finish) => i32::from(finish.stop.exit_code()),
        Err(_) => i32::from(Stop::EndOfInput.exit_code()),
    };
    Expected { stdout, code }
}

fn text_only(text: &str) -> Expected {
    Expected {
        stdout: text.as_bytes().to_vec(),
        code: 0,
    }
}
