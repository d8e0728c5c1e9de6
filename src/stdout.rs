//! Whether stdout was closed when the program started, for both binaries.
//!
//! Rust's runtime opens a closed stdout on `/dev/null` before `main` runs
//! (so that no file opened later takes descriptor 1), and writes there
//! succeed: a program started with `>&-` would throw every reply away and
//! exit 0, as if all were well. The runtime opens `/dev/null` read-write;
//! a shell's `>/dev/null` opens it write-only, so the two can be told
//! apart, and only the first is taken for closed.

/// Whether stdout is the `/dev/null` the runtime put in place of a closed
/// descriptor.
#[cfg(unix)]
pub fn closed() -> bool {
    use rustix::fs::{FileType, OFlags, fcntl_getfl, fstat, stat};
    use std::os::fd::AsFd;

    let stdout = std::io::stdout();
    let fd = stdout.as_fd();
    let (Ok(flags), Ok(ours), Ok(null)) = (fcntl_getfl(fd), fstat(fd), stat("/dev/null")) else {
        return false;
    };
    flags & OFlags::RWMODE == OFlags::RDWR
        && FileType::from_raw_mode(ours.st_mode) == FileType::CharacterDevice
        && ours.st_rdev == null.st_rdev
}

/// Elsewhere a closed stdout cannot be told from `NUL`.
#[cfg(not(unix))]
pub fn closed() -> bool {
    false
}

/// The error both binaries report for a closed stdout.
pub const CLOSED: &str = "cannot write output: stdout is closed";
