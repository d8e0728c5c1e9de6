//! Gomoku in the Mist: the game controller of `../shared/SPEC.md`.
//!
//! # Code map
//!
//! The core never does I/O; the session does it only through the reader
//! and writer it is handed; `main.rs` owns stdin, stdout, stderr and the
//! exit code.
//!
//! - [`point`]: [`Column`](point::Column), [`Row`](point::Row) and
//!   [`Point`](point::Point), and their strict parser.
//! - [`player`]: [`Player`](player::Player), who is also a stone's colour.
//! - [`board`]: the stones, and the runs through a stone that decide wins.
//! - [`rule`]: which runs win (SPEC.md's five-or-more, `exact`, `caro`).
//! - [`mist`]: where the hole's centre moves, and what the hole shows.
//! - [`game`]: turn, moves, mist and how a placement ends the game.
//! - [`command`]: one line of bytes to a [`Command`](command::Command), or
//!   why it is none: the grammar, stated plainly.
//! - [`decode`]: the same grammar for a short line, decoded without
//!   branching on its bytes: the read loop's fast path, tested against
//!   [`command`].
//! - [`engine`]: a position and a budget to a move: incremental line
//!   patterns, threat solvers (VCF, VCT), alpha-beta search. No I/O.
//! - [`text`]: every byte printed on stdout, and the help text.
//! - [`output`]: the output buffer, and the fixed-size blocks most replies
//!   are copied as.
//! - [`session`]: the read–reply loop over any reader and writer.
//! - [`cli`]: the command-line options.
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

pub mod board;
pub mod cli;
pub mod command;
pub mod decode;
pub mod engine;
pub mod game;
pub mod mist;
pub mod output;
pub mod player;
pub mod point;
pub mod rule;
pub mod session;
pub mod text;
