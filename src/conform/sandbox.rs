//! What a program under test may use, and where it runs: the limits
//! (memory, CPU time, processes, file size, open files), a scratch folder
//! of its own per run, a minimal environment, an unprivileged user when
//! the kit runs as root, and, where `bwrap` (bubblewrap) works, no
//! network, a read-only file system but its scratch folder, and a process
//! namespace of its own.
//!
//! The kit cannot set limits between `fork` and `exec` without unsafe
//! code, so it runs its own binary as a launcher ([`super::launch`],
//! started with [`LAUNCH`] as its first argument), which sets the limits
//! on itself, starts the program (which inherits them), watches its
//! memory and process count, and on its end kills whatever the program
//! left. This module decides, once, how the kit runs programs
//! ([`install`]); [`super::run`] asks it ([`installed`]).

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use thiserror::Error;

/// The first argument that makes this program the launcher of one run.
/// Not an option anyone types: it is not in `--help`.
pub const LAUNCH: &str = "--launch-contained-run";

/// The user a program runs as when the kit runs as root.
const NOBODY: (u32, u32) = (65534, 65534);

const MIB: u64 = 1 << 20;

/// What a program under test may use; the defaults are in `--help`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contain {
    /// Resident memory, summed over its processes, in bytes.
    pub memory: u64,
    /// CPU time of any one of its processes, in seconds.
    pub cpu: u64,
    /// Processes at once, itself included.
    pub processes: u64,
    /// The largest file it may write, in bytes.
    pub file_size: u64,
    /// Files open at once, in any one process.
    pub open_files: u64,
    /// Refuse to run without bwrap's isolation (`--isolate`).
    pub isolate: bool,
}

impl Default for Contain {
    fn default() -> Contain {
        Contain {
            memory: 512 * MIB,
            cpu: 60,
            processes: 64,
            file_size: MIB,
            open_files: 256,
            isolate: false,
        }
    }
}

/// A limit a program went over, and was killed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overrun {
    /// Resident memory, in bytes.
    Memory(u64),
    /// CPU time, in seconds.
    Cpu(u64),
    /// Processes at once.
    Processes(u64),
    /// The size of a file written, in bytes.
    FileSize(u64),
    /// Files open at once.
    OpenFiles(u64),
}

impl Overrun {
    /// A short name, for the one-line summary of a run.
    pub const fn summary(self) -> &'static str {
        match self {
            Overrun::Memory(_) => "too much memory",
            Overrun::Cpu(_) => "too much CPU time",
            Overrun::Processes(_) => "too many processes",
            Overrun::FileSize(_) => "too large a file",
            Overrun::OpenFiles(_) => "too many open files",
        }
    }
}

impl fmt::Display for Overrun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Overrun::Memory(bytes) => write!(f, "used more than {} of memory", size(bytes)),
            Overrun::Cpu(secs) => write!(f, "used more than {secs} s of CPU time"),
            Overrun::Processes(n) => write!(f, "started more than {n} processes"),
            Overrun::FileSize(bytes) => write!(f, "wrote more than {} to a file", size(bytes)),
            Overrun::OpenFiles(n) => write!(f, "opened more than {n} files"),
        }
    }
}

/// `512 MiB`, `1 MiB`, or bytes when not a whole number of MiB.
pub fn size(bytes: u64) -> String {
    if bytes >= MIB && bytes % MIB == 0 {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// How the kit runs every program, decided once.
#[derive(Clone, Debug)]
pub struct Kit {
    /// This program, run as the launcher.
    pub launcher: PathBuf,
    /// The limits.
    pub contain: Contain,
    /// The user and group the program runs as, when not the kit's own.
    pub user: Option<(u32, u32)>,
    /// bwrap, when it works here.
    pub bwrap: Option<PathBuf>,
}

static KIT: OnceLock<Kit> = OnceLock::new();

/// How programs are run, if [`install`] was called: `None` when the kit
/// is used as a library (its own tests), which runs them directly.
pub fn installed() -> Option<&'static Kit> {
    KIT.get()
}

/// Why the kit cannot run programs as asked.
#[derive(Debug, Error)]
pub enum SandboxError {
    /// `--isolate` without a working bwrap.
    #[error("--isolate needs bwrap (the Debian package bubblewrap), and {0}")]
    NoBwrap(String),
}

/// Decides how every program of this run of the kit is run: the limits
/// of `contain`, `launcher` (this program) as the launcher, as nobody when
/// the kit is root and nobody can reach `program`, under bwrap where it
/// works. Returns what could not be applied, one line each, to be said
/// once on stderr. A second call changes nothing.
///
/// # Errors
///
/// [`SandboxError`] when `--isolate` was given and bwrap does not work.
pub fn install(
    contain: &Contain,
    launcher: PathBuf,
    program: &[OsString],
) -> Result<Vec<String>, SandboxError> {
    let mut notes = Vec::new();
    let root = cfg!(unix) && is_root();
    let user = if root {
        match unreachable_by_others(program) {
            None => Some(NOBODY),
            Some(why) => {
                notes.push(format!(
                    "warning: the program runs as root, not as nobody (uid {}): {why}",
                    NOBODY.0
                ));
                None
            }
        }
    } else {
        None
    };
    let bwrap = match working_bwrap(user) {
        Ok(path) => Some(path),
        Err(why) if contain.isolate => return Err(SandboxError::NoBwrap(why)),
        Err(why) => {
            notes.push(format!(
                "note: {why}, so the program under test is not isolated: it can use the \
                 network, read the whole file system and write where its user may, and \
                 see other processes (install bubblewrap, or give --isolate to require it)"
            ));
            None
        }
    };
    let _ = KIT.set(Kit {
        launcher,
        contain: contain.clone(),
        user,
        bwrap,
    });
    Ok(notes)
}

#[cfg(unix)]
fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

#[cfg(not(unix))]
fn is_root() -> bool {
    false
}

/// Why nobody cannot run `program` (its file, or one of its arguments
/// that names a file from the kit's folder, as `python3 main.py` does),
/// or `None` if it can.
fn unreachable_by_others(program: &[OsString]) -> Option<String> {
    let (first, args) = program.split_first()?;
    let file = find_program(first)?;
    if let Some(why) = closed_to_others(&file, 0o001) {
        return Some(why);
    }
    args.iter()
        .map(Path::new)
        .filter(|arg| arg.is_relative() && arg.is_file())
        .find_map(|arg| closed_to_others(&absolute(arg), 0o004))
}

/// `name` as the launcher will find it: a path as given, else the first
/// executable of that name on PATH.
pub fn find_program(name: &OsStr) -> Option<PathBuf> {
    let path = Path::new(name);
    if path.components().count() > 1 || path.is_absolute() {
        return Some(absolute(path));
    }
    let dirs = std::env::var_os("PATH")?;
    std::env::split_paths(&dirs)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// Why `name` cannot be started, said as the system would (bwrap, which
/// starts it under isolation, would only print it on stderr).
pub fn cannot_start(name: &OsStr) -> Option<String> {
    let shown = name.to_string_lossy();
    let Some(file) = find_program(name) else {
        return Some(format!("{shown}: not found on PATH"));
    };
    match std::fs::metadata(&file) {
        Err(e) => Some(format!("{shown}: {e}")),
        Ok(m) if m.is_dir() => Some(format!("{shown}: is a folder")),
        #[cfg(unix)]
        Ok(m) if std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 == 0 => {
            Some(format!("{shown}: Permission denied"))
        }
        Ok(_) => None,
    }
}

/// `path` made absolute from the kit's working folder.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Which folder on the way to `file`, or the file itself, others may not
/// pass (or read or run: `bits` of the mode), or `None`.
#[cfg(unix)]
fn closed_to_others(file: &Path, bits: u32) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode());
    for dir in file.ancestors().skip(1) {
        if mode(dir).is_ok_and(|m| m & 0o001 == 0) {
            return Some(format!("others may not enter {}", dir.display()));
        }
    }
    match mode(file) {
        Ok(m) if m & bits == 0 => Some(format!(
            "others may not {} {}",
            if bits == 0o001 { "run" } else { "read" },
            file.display()
        )),
        _ => None,
    }
}

#[cfg(not(unix))]
fn closed_to_others(_: &Path, _: u32) -> Option<String> {
    None
}

/// bwrap, if it is on PATH and can make a sandbox here as `user`.
fn working_bwrap(user: Option<(u32, u32)>) -> Result<PathBuf, String> {
    let Some(bwrap) = find_program(OsStr::new("bwrap")) else {
        return Err("bwrap (bubblewrap) is not installed".to_owned());
    };
    let mut probe = Command::new(&bwrap);
    probe
        .args(["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/"])
        .args(["--proc", "/proc", "--dev", "/dev", "true"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    if let Some((uid, gid)) = user {
        std::os::unix::process::CommandExt::uid(&mut probe, uid);
        std::os::unix::process::CommandExt::gid(&mut probe, gid);
    }
    match probe.output() {
        Ok(out) if out.status.success() => Ok(bwrap),
        Ok(out) => Err(format!(
            "bwrap cannot make a sandbox here ({})",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Err(format!("bwrap cannot start ({e})")),
    }
}

/// What bwrap is given before the program: no network, no view of other
/// processes, the file system read-only but `scratch` (`/tmp` too: the
/// program may be there, and its temporary files go to `TMPDIR`, the
/// scratch folder).
pub fn bwrap_args(scratch: &Path) -> Vec<OsString> {
    let mut args: Vec<OsString> = [
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
    ]
    .map(OsString::from)
    .to_vec();
    for word in [
        OsStr::new("--bind"),
        scratch.as_os_str(),
        scratch.as_os_str(),
    ] {
        args.push(word.to_owned());
    }
    args.push("--chdir".into());
    args.push(scratch.as_os_str().to_owned());
    args
}

/// How long the launcher waits between two looks at the program's
/// memory and processes.
pub const WATCH: Duration = Duration::from_millis(10);

/// What the launcher writes in its status file: how the program ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// It exited with this code.
    Code(i32),
    /// This signal ended it.
    Signal(i32),
    /// It went over a limit, and was killed.
    Over(Overrun),
    /// It could not be started.
    CannotStart(String),
    /// The launcher was told to stop, and killed it.
    Stopped,
}

impl Status {
    /// The one line written.
    pub fn line(&self) -> String {
        match self {
            Status::Code(code) => format!("code {code}"),
            Status::Signal(signal) => format!("signal {signal}"),
            Status::Over(Overrun::Memory(n)) => format!("memory {n}"),
            Status::Over(Overrun::Cpu(n)) => format!("cpu {n}"),
            Status::Over(Overrun::Processes(n)) => format!("processes {n}"),
            Status::Over(Overrun::FileSize(n)) => format!("file-size {n}"),
            Status::Over(Overrun::OpenFiles(n)) => format!("open-files {n}"),
            Status::CannotStart(why) => format!("cannot {}", why.replace('\n', " ")),
            Status::Stopped => "stopped".to_owned(),
        }
    }

    /// The line read back.
    pub fn parse(line: &str) -> Option<Status> {
        let (word, rest) = line
            .trim_end()
            .split_once(' ')
            .unwrap_or((line.trim_end(), ""));
        let number = || rest.parse::<u64>().ok();
        Some(match word {
            "code" => Status::Code(rest.parse().ok()?),
            "signal" => Status::Signal(rest.parse().ok()?),
            "memory" => Status::Over(Overrun::Memory(number()?)),
            "cpu" => Status::Over(Overrun::Cpu(number()?)),
            "processes" => Status::Over(Overrun::Processes(number()?)),
            "file-size" => Status::Over(Overrun::FileSize(number()?)),
            "open-files" => Status::Over(Overrun::OpenFiles(number()?)),
            "cannot" => Status::CannotStart(rest.to_owned()),
            "stopped" => Status::Stopped,
            _ => return None,
        })
    }
}

/// The children of every thread of `pid`.
#[cfg(target_os = "linux")]
pub fn children(pid: u32) -> Vec<u32> {
    let mut children = Vec::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return children;
    };
    for task in tasks.flatten() {
        if let Ok(list) = std::fs::read_to_string(task.path().join("children")) {
            children.extend(
                list.split_whitespace()
                    .filter_map(|p| p.parse::<u32>().ok()),
            );
        }
    }
    children
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_reads_back_as_written() {
        for status in [
            Status::Code(3),
            Status::Signal(11),
            Status::Over(Overrun::Memory(512 * MIB)),
            Status::Over(Overrun::Cpu(60)),
            Status::Over(Overrun::Processes(64)),
            Status::Over(Overrun::FileSize(MIB)),
            Status::Over(Overrun::OpenFiles(256)),
            Status::CannotStart("./x: No such file or directory".to_owned()),
            Status::Stopped,
        ] {
            assert_eq!(Status::parse(&status.line()), Some(status.clone()));
        }
        assert_eq!(Status::parse("bogus 1"), None);
    }

    #[test]
    fn overruns_say_what_was_passed() {
        let said: Vec<String> = [
            Overrun::Memory(512 * MIB),
            Overrun::Cpu(60),
            Overrun::Processes(64),
            Overrun::FileSize(MIB),
            Overrun::OpenFiles(256),
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(
            said,
            [
                "used more than 512 MiB of memory",
                "used more than 60 s of CPU time",
                "started more than 64 processes",
                "wrote more than 1 MiB to a file",
                "opened more than 256 files",
            ]
        );
    }
}
