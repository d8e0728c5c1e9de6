//! Tests of the program as a whole: the read–reply loop against a model,
//! and the binary as a process talking through pipes.

#[path = "../common/mod.rs"]
mod common;

mod autograder;
mod boxes;
mod brain;
mod cli;
mod conform;
mod contain;
mod cpu;
mod hints;
// The depth bench's positions, checked here (benches run no tests).
#[path = "../../benches/depth/mod.rs"]
mod depth;
mod layers;
mod mark;
mod memory;
mod model;
mod options;
mod pipes;
mod readme;
mod stdout;
mod streams;
mod terminal;
