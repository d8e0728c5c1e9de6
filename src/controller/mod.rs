//! The read–reply controller: the program the contract describes. It reads
//! lines from any reader, answers each through the [rules](crate::rules),
//! and writes the contract's bytes to any writer; the shells above hand it
//! stdin and stdout.
//!
//! - [`stream`]: the read loop over any reader, in bounded memory.
//! - [`session`]: the replies, one line at a time: the game and what it
//!   takes to answer it, fed by the stream or by the terminal.
//! - [`decode`]: the grammar for a short line, decoded without branching
//!   on its bytes: the loop's fast path, tested against
//!   [`command`](crate::rules::command).
//! - [`output`]: the output buffer, and the fixed-size blocks most replies
//!   are copied as.
//! - [`text`]: every byte printed on stdout. The core never imports it: it
//!   gives points and stones, `text` alone turns them into symbols.
//! - [`opponent`]: a player the program moves for itself, and the
//!   [`Computer`](opponent::Computer) behind `--cpu`, over the
//!   [engine](crate::engine).

pub mod decode;
pub mod opponent;
pub mod output;
pub mod session;
pub mod stream;
pub mod text;
