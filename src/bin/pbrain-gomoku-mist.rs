//! The Gomocup brain: stdin and stdout to `gomocup::serve`, exit code out.
//! A manager starts it with no arguments.

#![forbid(unsafe_code)]

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use gomoku_mist::engine::Engine;
use gomoku_mist::gomocup::{self, GomocupError};

fn main() -> ExitCode {
    if std::env::args_os().len() > 1 {
        let _ = writeln!(
            io::stderr().lock(),
            "pbrain-gomoku-mist takes no arguments: a Gomocup manager talks to it on stdin and stdout"
        );
        return ExitCode::from(2);
    }
    // The one place the move chooser is built: anything that implements
    // `gomocup::Brain` could stand here. Its hash table starts at the
    // smallest size: `max_memory` is not known yet, and each game gives
    // the brain the table it may have, made on a thread of its own.
    let mut brain = Engine::new(0);
    // Every core the machine has, unless the manager says otherwise
    // (`INFO thread_num`): a manager gives the brain the machine while it
    // thinks.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    brain.set_threads(u32::try_from(cores).unwrap_or(u32::MAX));
    // Raised by the command reader at END, YXSTOP, a new game or the end
    // of input: a search in progress stops (see `gomocup::serve`).
    let halt = Arc::new(AtomicBool::new(false));
    brain.halt_on(Arc::clone(&halt));
    match gomocup::serve(&mut brain, io::stdin(), io::stdout().lock(), halt) {
        Ok(()) => ExitCode::SUCCESS,
        // A manager that has gone away has nothing more to ask.
        Err(GomocupError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr().lock(), "pbrain-gomoku-mist: {e}");
            ExitCode::FAILURE
        }
    }
}
