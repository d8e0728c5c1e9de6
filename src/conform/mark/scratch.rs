//! A folder of its own for each submission, where it is built and its
//! runs keep their logs, removed when marking it is done: nothing is left
//! in the submission's folder or beside the kit.
//!
//! Its name cannot be guessed and it is made afresh (never one someone
//! made first, as `tempfile` makes it). No one but the kit may list it;
//! when each run has a user of its own (the kit is root), the runs may
//! pass through it to the program built there, which only their group
//! may read ([`super::super::sandbox::Kit::share`]); the sources copied
//! there only the kit may read. So a marker killed before it could
//! remove the folder leaves nothing another user of the machine can read.

use std::io;
use std::path::{Path, PathBuf};

use super::super::reap;
use super::super::sandbox::Kit;

/// The prefix of every such folder's name.
const PREFIX: &str = "gomoku-mist-mark-";

/// A folder removed when dropped.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
}

/// Where a submission's program will be built: a path like theirs, for
/// the containment to check that the users the programs run as can reach
/// them.
pub fn built_where() -> PathBuf {
    std::env::temp_dir().join(PREFIX).join("build").join("gitm")
}

/// Makes the folder `path` one the kit's runs may pass through (not
/// list), when they run as users of their own; else the kit's alone.
///
/// # Errors
///
/// If its mode cannot be set.
pub fn passable(path: &Path, kit: Option<&Kit>) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = if kit.is_some_and(|k| k.users.is_some()) {
            0o711
        } else {
            0o700
        };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
    }
    #[cfg(not(unix))]
    let _ = (path, kit);
    Ok(())
}

impl Scratch {
    /// A new, empty folder under the system's temporary folder, removed
    /// too if the kit is stopped.
    ///
    /// # Errors
    ///
    /// If it cannot be made.
    pub fn new(kit: Option<&Kit>) -> io::Result<Scratch> {
        // The kit's id in the name tells whose it is; the random rest
        // keeps it from being guessed.
        let path = tempfile::Builder::new()
            .prefix(&format!("{PREFIX}{}-", std::process::id()))
            .tempdir()?
            .keep();
        reap::keep(&path);
        let scratch = Scratch { path };
        passable(&scratch.path, kit)?;
        Ok(scratch)
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_scratch_folder_is_new_unguessable_closed_to_others_and_removed() {
        let (a, b) = (
            Scratch::new(None).expect("a folder"),
            Scratch::new(None).expect("a folder"),
        );
        let name = |s: &Scratch| {
            s.path()
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        };
        let mine = format!("{PREFIX}{}-", std::process::id());
        for s in [&a, &b] {
            let name = name(s).expect("a name");
            // The kit's id, then a random part of its own.
            assert!(
                name.starts_with(&mine) && name.len() > mine.len() + 4,
                "{name}"
            );
            let mode = std::fs::metadata(s.path()).map(|m| m.permissions().mode() & 0o777);
            assert_eq!(mode.ok(), Some(0o700), "{name}");
        }
        assert_ne!(name(&a), name(&b));
        let path = a.path().to_path_buf();
        drop(a);
        assert!(!path.exists(), "{} left behind", path.display());
    }
}
