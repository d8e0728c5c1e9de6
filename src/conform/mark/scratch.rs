//! A folder of its own for each submission, where it is built and its
//! runs keep their logs, removed when marking it is done: nothing is left
//! in the submission's folder or beside the kit.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A folder removed when dropped.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    /// A new, empty folder under the system's temporary folder.
    ///
    /// # Errors
    ///
    /// If it cannot be made.
    pub fn new() -> io::Result<Scratch> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("gomoku-mist-mark-{}-{n}", std::process::id()));
        // A folder of that name left by a killed run of the same id goes.
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)?;
        Ok(Scratch { path })
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The most a run of the program may write to a file, in 512-byte blocks
/// (1 MiB): a program that writes without end is stopped there.
const FILE_BLOCKS: u32 = 2048;
/// The most address space a run of the program may take, in KiB (1 GiB):
/// the game needs a few MiB.
const MEMORY_KIB: u32 = 1 << 20;

/// The limits in a sentence, for the reports.
pub const LIMITS: &str = "each run in a scratch folder: a file written past 1 MiB, or more than \
                          1 GiB of address space, ends it (it then counts as a crash)";

/// The command that runs `words` (a program and its arguments) in `dir`,
/// its files limited in size and, with `memory`, its address space (not
/// for valgrind or AddressSanitizer, which reserve far more than they
/// use): a shell sets the limits and `exec`s the program, which then
/// stands in its place (its exit code and signals are its own). What it
/// writes to files lands in `dir`, never beside the kit.
pub fn contained(dir: &Path, memory: bool, words: &[OsString]) -> Vec<OsString> {
    let memory = if memory {
        format!(" && ulimit -v {MEMORY_KIB}")
    } else {
        String::new()
    };
    let mut command: Vec<OsString> = vec![
        "sh".into(),
        "-c".into(),
        format!("cd \"$0\" && ulimit -f {FILE_BLOCKS}{memory} && exec \"$@\"").into(),
    ];
    command.push(dir.as_os_str().to_owned());
    command.extend(words.iter().cloned());
    command
}
