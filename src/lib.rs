//! Gomoku in the Mist: the game controller whose every output byte is set
//! by the [`contract`] (`src/rules/contract.md`), with a search engine,
//! a terminal front-end, a Gomocup brain and a conformance kit over it.
//!
//! # Code map
//!
//! Folders by layer; each imports only the layers above it in this list
//! (`tests/it/layers.rs` checks it, and that no two modules import each
//! other). `main.rs` and the brain's `src/bin/pbrain-gomoku-mist.rs` own
//! stdin, stdout, stderr and the exit code; nothing else touches them.
//!
//! - [`rules`], the core: [`point`], [`player`], [`board`] (the stones and
//!   the runs through a stone), [`rule`] (which runs win), [`renju`]
//!   (where Black may not play under renju), [`mist`],
//!   [`game`] (turn, moves, ending), [`command`] (a line of bytes to a
//!   command, or why it is none) and the [`contract`] as a document. No
//!   I/O; imports nothing but itself. Its modules are re-exported here.
//! - [`engine`]: a position and a budget to a move: incremental line
//!   patterns, evaluation, the search and its threat solvers, the hash
//!   table, the limits. Imports only the rules; no I/O. A search bounded
//!   by time alone may run on several threads sharing the table; one
//!   bounded by nodes or depth runs on one, and is deterministic.
//! - [`controller`]: the read–reply loop the contract describes, over any
//!   reader and writer: the session, its fast decoder, the output blocks,
//!   every byte printed on stdout ([`controller::text`]), and the computer
//!   opponent behind `--cpu`.
//! - The shells, each over the layers above and never over each other:
//!   [`terminal`] (a person typing: our own line editor, boards, hints,
//!   take-backs and the computer's think line),
//!   [`gomocup`] (the Gomocup brain), and [`conform`], the kit. Its
//!   commands ([`conform::check()`], [`conform::fuzz()`], [`conform::cover()`],
//!   [`conform::mark`]) each fill one record of [`conform::model`] (what
//!   they found, as types), which the renderers of [`conform::report`]
//!   turn into text, JSON, JUnit, Gradescope's JSON, CSV and HTML
//!   pages; `mark` reads `check` and `fuzz` through those records. Below
//!   the commands, the diagnosis ([`conform::trace`], which observes the
//!   controller's own session, the contract's [`conform::clause`]s and
//!   the assignment's [`conform::scenario`]s as enums,
//!   [`conform::diagnose`], [`conform::hint`] (a likely cause, checked
//!   by running the reference on the example as the cause would change
//!   it), [`conform::shrink`], [`conform::generate`], whose aimed cases
//!   come first)
//!   and the running of programs
//!   ([`conform::run`], in a folder of its own (`conform::room`), through this
//!   binary as its [`conform::launch`]er,
//!   in bwrap's box where it works, a box reused for a program's plain
//!   runs ([`conform::boxes`]), as one [`conform::sandbox::Kit`]
//!   made by the shell and passed down, never global; [`conform::reap`]
//!   leaves nothing running; [`conform::pool`] runs in order on many
//!   threads). What two shells share lives below them: [`rng`] (the
//!   seeded generator) and [`cli::args`] (the generic command-line
//!   reader).
//! - [`cli`], on top: the command line of every command, by one set of
//!   rules; it hands each shell its options.
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
//! - A program under test sees nothing of the marker's: in the box, only
//!   the system's folders, its own and its scratch folder
//!   ([`conform::sandbox::box_args`]); nothing of a submission is followed
//!   out of it.
//! - Answering a command allocates nothing. Of a line that does not lie
//!   whole in the 64 KiB read buffer, at most [`controller::stream::HEAD`]
//!   bytes are kept.

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

pub use rules::{board, command, contract, game, mist, player, point, renju, rule};
