//! A folder of its own for each submission, where it is built and its
//! runs keep their logs, removed when marking it is done: nothing is left
//! in the submission's folder or beside the kit.

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
