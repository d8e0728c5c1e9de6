//! A folder of its own for each submission, where it is built and its
//! runs keep their logs, removed when marking it is done: nothing is left
//! in the submission's folder or beside the kit.
//!
//! The programs built there run contained ([`super::super::run`]): as
//! nobody when the kit runs as root, so the folder and the way to it are
//! open to others (read and enter, never write), and [`built_where`]
//! tells [`super::super::sandbox::install`] where the programs will be,
//! before any is built.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::super::reap;

/// A folder removed when dropped.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
}

/// The folder of a submission's scratch number `n`.
fn folder(n: usize) -> PathBuf {
    std::env::temp_dir().join(format!("gomoku-mist-mark-{}-{n}", std::process::id()))
}

/// Where a submission's program will be built: a path like theirs, for
/// the containment to check that the user the programs run as can reach
/// them.
pub fn built_where() -> PathBuf {
    folder(0).join("build").join("gitm")
}

/// Opens `path` to others: read and enter (or run), not write, whatever
/// the kit's umask.
///
/// # Errors
///
/// If its mode cannot be set.
pub fn open_to_others(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

impl Scratch {
    /// A new, empty folder under the system's temporary folder, removed
    /// too if the kit is stopped.
    ///
    /// # Errors
    ///
    /// If it cannot be made.
    pub fn new() -> io::Result<Scratch> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = folder(NEXT.fetch_add(1, Ordering::Relaxed));
        // A folder of that name left by a killed run of the same id goes.
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)?;
        reap::keep(&path);
        open_to_others(&path)?;
        Ok(Scratch { path })
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        reap::remove(&self.path);
    }
}
