//! The rules of the game: points, players, the board, the winning rule,
//! renju's forbidden points,
//! the mist, a game's turn and ending, and what a line of bytes means.
//!
//! This is the core. It never does I/O and imports nothing of the crate
//! but itself (`tests/it/layers.rs` checks it): it gives points and stones,
//! and the layers above decide how they are printed.

pub mod board;
pub mod command;
#[doc = include_str!("contract.md")]
pub mod contract {}
pub mod game;
pub mod mist;
pub mod player;
pub mod point;
pub mod renju;
pub mod rule;
