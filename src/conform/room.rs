//! A run's own folder ([`Room`]): the scratch folder the program works
//! in, and the launcher's status file beside it; a box's too
//! ([`super::boxes`]), which its runs share one after the other.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::sandbox::{self, Contain, Kit};
use super::{launch, reap};

/// A run's own folder: the scratch folder the program works in, and the
/// launcher's status file beside it, out of the program's reach when it
/// runs as another user. Its name cannot be guessed, it is made afresh
/// (never one someone made first), others may pass through it but not
/// list it, and it is removed when dropped. With it, the run's user,
/// when each run has one.
pub(super) struct Room {
    pub(super) dir: PathBuf,
    pub(super) scratch: PathBuf,
    pub(super) status: PathBuf,
    pub(super) user: Option<sandbox::Lease>,
}

impl Room {
    pub(super) fn new(kit: &Kit, seed: Option<&Path>) -> std::io::Result<Room> {
        // The kit's id in the name tells whose it is; the random rest
        // keeps it from being guessed.
        let dir = tempfile::Builder::new()
            .prefix(&format!("gomoku-mist-run-{}-", std::process::id()))
            .tempdir()?
            .keep();
        reap::keep(&dir);
        let room = Room {
            scratch: dir.join("home"),
            status: dir.join("status"),
            dir,
            user: kit.users.as_ref().map(sandbox::Users::lease),
        };
        std::fs::create_dir(&room.scratch)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            if let Some((uid, gid)) = room.user.as_ref().map(sandbox::Lease::ids) {
                std::fs::set_permissions(&room.dir, std::fs::Permissions::from_mode(0o711))?;
                std::os::unix::fs::chown(&room.scratch, Some(uid), Some(gid))?;
            }
            std::fs::set_permissions(&room.scratch, std::fs::Permissions::from_mode(0o700))?;
        }
        if let Some(seed) = seed {
            room.sow(seed)?;
        }
        Ok(room)
    }

    /// Copies the plain files of `seed` into the scratch folder, readable
    /// by all (the kit's user owns them: the run may read them, not change
    /// them, though it may remove them; no one else may enter the folder).
    fn sow(&self, seed: &Path) -> std::io::Result<()> {
        for entry in std::fs::read_dir(seed)? {
            let entry = entry?;
            if !entry.file_type()?.is_file() {
                continue;
            }
            let to = self.scratch.join(entry.file_name());
            std::fs::copy(entry.path(), &to)?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o644))?;
            }
        }
        Ok(())
    }

    /// The launcher, to run `words` within the limits of `contain` (the
    /// kit's, or a tool's).
    pub(super) fn command(&self, kit: &Kit, words: Vec<OsString>, contain: &Contain) -> Command {
        let mut command = Command::new(&kit.launcher);
        command.args(launch::arguments(
            &self.status,
            kit,
            contain,
            self.user.as_ref().map(sandbox::Lease::ids),
            &self.scratch,
            words,
        ));
        self.environment(&mut command);
        command
    }

    /// The environment a program under test gets, and its working folder:
    /// the scratch folder.
    pub(super) fn environment(&self, command: &mut Command) {
        command
            .env_clear()
            .env(
                "PATH",
                std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into()),
            )
            .env(
                "LANG",
                std::env::var_os("LANG").unwrap_or_else(|| "C.UTF-8".into()),
            )
            .env("HOME", &self.scratch)
            .env("TMPDIR", &self.scratch)
            .current_dir(&self.scratch);
    }
}

impl Drop for Room {
    fn drop(&mut self) {
        reap::remove(&self.dir);
    }
}
