//! Gomoku in the Mist: the game controller whose every output byte is set
//! by the [`contract`] (`src/rules/contract.md`).
//!
//! # Code map
//!
//! Three layers, each depending only on those above it in this list. The
//! core never does I/O; the engine neither; each shell does it only
//! through the readers and writers it is handed, and `main.rs` (and the
//! brain's `src/bin/pbrain-gomoku-mist.rs`) own stdin, stdout, stderr and
//! the exit code.
//!
//! The rules (core):
//! - [`point`]: [`Column`](point::Column), [`Row`](point::Row) and
//!   [`Point`](point::Point), and their strict parser.
//! - [`player`]: [`Player`](player::Player), who is also a stone's colour.
//! - [`board`]: the stones, and the runs through a stone that decide wins.
//! - [`rule`]: which runs win (the contract's five-or-more, `exact`,
//!   `caro`).
//! - [`mist`]: where the hole's centre moves, and which points it shows.
//! - [`game`]: turn, moves, mist and how a placement ends the game.
//! - [`command`]: one line of bytes to a [`Command`](command::Command), or
//!   why it is none: the grammar, stated plainly.
//! - [`decode`]: the same grammar for a short line, decoded without
//!   branching on its bytes: the read loop's fast path, tested against
//!   [`command`].
//! - [`contract`]: no code; the rules the program keeps, in full, as a
//!   document: what to print for any input, and each decision taken where
//!   the assignment is silent.
//!
//! The engine:
//! - [`engine`]: a position and a budget to a move: incremental line
//!   patterns, threat solvers (VCF, VCT), alpha-beta search.
//!
//! The shells:
//! - [`text`]: every byte printed on stdout, and the help texts. The core
//!   never imports it (nor `output` nor `session`): it gives points and
//!   stones, `text` alone turns them into symbols.
//! - [`output`]: the output buffer, and the fixed-size blocks most replies
//!   are copied as.
//! - [`session`]: the read–reply loop over any reader and writer, and the
//!   same replies one line at a time.
//! - [`opponent`]: a player the program moves for itself, and the
//!   [`Computer`](opponent::Computer) behind `--cpu`.
//! - [`terminal`]: a person at a terminal: line editing, prompt, boards and
//!   hints on the terminal side, the same session's bytes on stdout.
//! - [`gomocup`]: the Gomocup (Piskvork protocol) brain over any reader,
//!   writer and move chooser.
//! - [`conform`]: the conformance kit, `check` and `fuzz`: other
//!   implementations run as processes against cases and the reference.
//! - [`cli`]: the command line of every command, by one set of rules.
//!
//! # Invariants
//!
//! - A `Point` is always on the board: `Column` and `Row` hold only
//!   1..=19, so indexing the board by a point cannot go out of range.
//! - A stone, once placed, is never moved or replaced; the board's stone
//!   count equals the number of moves in the history.
//! - A rejected command changes nothing: not the player to move, the
//!   history nor the mist.
//! - No game goes on after its ending: the session stops reading.
//! - Input is bytes, never decoded; no input can make the program panic.
//! - Answering a command allocates nothing. Of a line that does not lie
//!   whole in the 64 KiB read buffer, at most [`session::HEAD`] bytes are
//!   kept.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cli;
pub mod conform;
pub mod controller;
pub mod engine;
pub mod gomocup;
pub mod rng;
pub mod rules;
pub mod terminal;

pub use rules::{board, command, contract, game, mist, player, point, rule};
