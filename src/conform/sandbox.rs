//! What a program under test may use, and where it runs: the limits
//! (memory, CPU time, processes, file size, open files), a scratch folder
//! of its own per run, a minimal environment, a user of its own per run
//! (per box, for runs in a reused box: [`super::boxes`]) when the kit
//! runs as root, and, where `bwrap` (bubblewrap) works, the
//! box isolate builds: no network, a process namespace and `/proc` of its
//! own, and of the file system only the system's folders and the
//! program's own, read-only, and its scratch folder ([`box_args`]).
//!
//! The kit cannot set limits between `fork` and `exec` without unsafe
//! code, so it runs its own binary as a launcher ([`super::launch`],
//! started with [`LAUNCH`] as its first argument), which sets the limits
//! on itself, starts the program (which inherits them), watches its
//! memory and process count, and on its end kills whatever the program
//! left. How the kit runs programs is one value, a [`Kit`], made once by
//! the shell ([`Kit::new`]) and passed down to every run
//! ([`super::run`]).

use std::any::Any;
use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use thiserror::Error;

/// The first argument that makes this program the launcher of one run.
/// Not an option anyone types: it is not in `--help`.
pub const LAUNCH: &str = "--launch-contained-run";

/// The first argument that makes this program the inner launcher, the
/// program's parent in bwrap's box ([`super::launch::inner`]).
pub const INNER: &str = "--launch-inner-run";

/// The first argument that makes this program the runner of a box, which
/// starts every run of one program in it ([`super::boxes::runner`]).
pub const RUNNER: &str = "--launch-box-runner";

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

/// How the kit runs every program: made once by the shell that starts
/// the kit ([`Kit::new`]) and handed down to every run, so that two
/// callers in one process (the kit's own tests) may contain differently.
#[derive(Clone, Debug)]
pub struct Kit {
    /// This program, run as the launcher.
    pub launcher: PathBuf,
    /// The limits.
    pub contain: Contain,
    /// The users the runs are made as, one of its own each, when the kit
    /// runs as root; `None`: as the kit's own user.
    pub users: Option<Users>,
    /// bwrap, when it works here.
    pub bwrap: Option<PathBuf>,
    /// The boxes kept for reuse, idle: shared by the kit's clones, killed
    /// when the last is dropped.
    pub boxes: Shelf,
}

/// What a kit keeps between runs to reuse, its idle boxes, shared by its
/// clones. What they are is the box module's business, which is above
/// this one: here they are only kept, in the order they were put back.
#[derive(Clone, Default)]
pub struct Shelf(Arc<Mutex<VecDeque<Box<dyn Any + Send>>>>);

impl Shelf {
    /// The things on the shelf, to take from or put on.
    pub fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Box<dyn Any + Send>>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl fmt::Debug for Shelf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Shelf({} idle)", self.lock().len())
    }
}

/// Why the kit cannot run programs as asked.
#[derive(Debug, Error)]
pub enum SandboxError {
    /// Isolation required (`check --isolate`, `mark` by default) without a
    /// working bwrap.
    #[error("{why}: {advice}")]
    NoBwrap {
        /// Why bwrap does not work.
        why: BwrapError,
        /// What to do about it.
        advice: String,
    },
    /// `/proc` shows another PID namespace's processes: a process id read
    /// there may name any process of this one, the kit's own included.
    #[error(
        "the kit cannot watch the programs it runs here: {0}; run it where /proc is this \
         namespace's own (unshare --mount-proc, or a container with its own /proc)"
    )]
    ForeignProc(ProcError),
}

/// Why `/proc` is not known to be this process's PID namespace's
/// ([`proc_is_ours`]).
#[derive(Debug, Error)]
pub enum ProcError {
    /// `/proc/self` names another process: the host's `/proc`, seen from
    /// a namespace of its own.
    #[error(
        "/proc is another PID namespace's (/proc/self is {}, this process is {me})",
        .link.display()
    )]
    Foreign {
        /// What `/proc/self` names.
        link: PathBuf,
        /// This process's id.
        me: u32,
    },
    /// `/proc/self` cannot be read.
    #[error("/proc/self cannot be read ({0})")]
    Unreadable(std::io::Error),
}

/// Why bwrap cannot make the box here ([`Kit::new`]).
#[derive(Debug, Error)]
pub enum BwrapError {
    /// It is not on PATH.
    #[error("bwrap (bubblewrap) is not installed")]
    NotInstalled,
    /// It ran, and failed: what it said on stderr.
    #[error("bwrap cannot make a sandbox here ({0})")]
    Fails(String),
    /// It could not be started.
    #[error("bwrap cannot start ({0})")]
    CannotStart(std::io::Error),
}

impl Kit {
    /// Decides how every program of this run of the kit is run: the limits
    /// of `contain`, `launcher` (this program) as the launcher, each run as
    /// a user of its own when the kit is root and such a user can reach
    /// `program`, under bwrap where it works. Returns the kit and what
    /// could not be applied, one line each, to be said once on stderr.
    ///
    /// # Errors
    ///
    /// [`SandboxError`] when `/proc` is not this process's PID
    /// namespace's, or isolation was required (`contain.isolate`) and
    /// bwrap does not work (`advice` is what to say then).
    pub fn new(
        contain: &Contain,
        launcher: PathBuf,
        program: &[OsString],
        advice: &str,
    ) -> Result<(Kit, Vec<String>), SandboxError> {
        proc_is_ours().map_err(SandboxError::ForeignProc)?;
        let mut notes = Vec::new();
        let users = if cfg!(unix) && is_root() {
            match unreachable_by_others(program) {
                None => Some(Users::new()),
                Some(why) => {
                    notes.push(format!(
                        "warning: the program runs as root, not as a user of its own: {why}"
                    ));
                    None
                }
            }
        } else {
            None
        };
        let bwrap = match working_bwrap(users.as_ref()) {
            Ok(path) => Some(path),
            Err(why) if contain.isolate => {
                let advice = advice.to_owned();
                return Err(SandboxError::NoBwrap { why, advice });
            }
            Err(why) => {
                notes.push(format!(
                    "note: {why}, so the program under test is not isolated: it can use the \
                     network, read the whole file system and write where its user may, and \
                     see other processes (install bubblewrap, or give --isolate to require it)"
                ));
                None
            }
        };
        let kit = Kit {
            launcher,
            contain: contain.clone(),
            users,
            bwrap,
            boxes: Shelf::default(),
        };
        Ok((kit, notes))
    }

    /// What the runs are contained by, in two lines for the reports.
    pub fn describe(&self) -> Vec<String> {
        let c = &self.contain;
        let user = if self.users.is_some() {
            "as a user of its own"
        } else if cfg!(unix) && is_root() {
            "as root (no other user could reach the program)"
        } else {
            "as the kit's user"
        };
        let isolated = if self.bwrap.is_some() {
            "under bwrap (no network, its own processes, and of the file system only the \
             system's folders and its own, read-only, and a scratch folder)"
        } else {
            "not isolated (no working bwrap: it could read what the kit's user may)"
        };
        vec![
            format!(
                "each run contained: killed past {} of memory, {} s of CPU time, {} processes, \
                 a {} file or {} open files, and the limit named",
                size(c.memory),
                c.cpu,
                c.processes,
                size(c.file_size),
                c.open_files
            ),
            format!("in a scratch folder of its own, {user}, {isolated}"),
        ]
    }

    /// The owner and mode a file the runs must read or run is given: the
    /// runs' group may read it when each run has a user of its own, no
    /// one else.
    pub fn share(&self, path: &Path) -> std::io::Result<()> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = match &self.users {
                Some(users) => {
                    std::os::unix::fs::lchown(path, None, Some(users.group))?;
                    if path.is_dir() { 0o710 } else { 0o750 }
                }
                None => 0o700,
            };
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
        }
        #[cfg(not(unix))]
        let _ = path;
        Ok(())
    }
}

/// The first user id of the runs' users: far above any a system gives
/// its accounts, so that no file or process of someone else's has it.
const FIRST_UID: u32 = 1 << 30;
/// Users a kit process may give out: its runs at once, at most (a
/// further run waits for one to end). A power of two, so that the
/// largest process id (2^22) times it stays below 2^31.
const SLOTS: u32 = 512;

/// The users of the runs of one kit process, each run one of its own:
/// the system counts processes per user, so a run that starts too many
/// keeps no other from starting, and none may signal another. Each kit
/// process takes the range its process id gives, so that two kits at
/// once share no user. The first id of the range is the runs' group.
#[derive(Clone, Debug)]
pub struct Users {
    base: u32,
    /// The group every run is in, which alone may read the programs.
    pub group: u32,
    free: Arc<(Mutex<Vec<u32>>, Condvar)>,
}

impl Users {
    fn new() -> Users {
        let base = FIRST_UID + (std::process::id() % (1 << 22)) * SLOTS;
        Users {
            base,
            group: base,
            free: Arc::new((Mutex::new((1..SLOTS).rev().collect()), Condvar::new())),
        }
    }

    /// A user for one run, given back when the lease is dropped; waits
    /// while all are out.
    pub fn lease(&self) -> Lease {
        let (free, freed) = &*self.free;
        let mut free = free.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(slot) = free.pop() {
                return Lease {
                    uid: self.base + slot,
                    users: self.clone(),
                };
            }
            free = freed.wait(free).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// One run's user, its own until dropped.
#[derive(Debug)]
pub struct Lease {
    /// The user id.
    pub uid: u32,
    users: Users,
}

impl Lease {
    /// The user and group the run is made as.
    pub fn ids(&self) -> (u32, u32) {
        (self.uid, self.users.group)
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let (free, freed) = &*self.users.free;
        free.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(self.uid - self.users.base);
        freed.notify_one();
    }
}

/// Whether a process could not be made for want of processes or memory
/// (`EAGAIN`, `ENOMEM`): the machine's state at that moment, not the
/// fault of what was to run.
pub fn exhausted(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(
            rustix::io::Errno::from_io_error(e),
            Some(rustix::io::Errno::AGAIN | rustix::io::Errno::NOMEM)
        )
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// Whether `/proc` is this process's PID namespace's: in a namespace
/// whose `/proc` is the host's, `/proc/self` names the kit by its host id,
/// and the ids of the children read there are not the ones it could
/// signal; killing by them could kill anything, the kit itself included.
///
/// # Errors
///
/// What was seen instead.
pub fn proc_is_ours() -> Result<(), ProcError> {
    if !cfg!(target_os = "linux") {
        return Ok(());
    }
    let me = std::process::id();
    match std::fs::read_link("/proc/self") {
        Ok(link) if link == Path::new(&me.to_string()) => Ok(()),
        Ok(link) => Err(ProcError::Foreign { link, me }),
        Err(e) => Err(ProcError::Unreadable(e)),
    }
}

#[cfg(unix)]
fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

#[cfg(not(unix))]
fn is_root() -> bool {
    false
}

/// Why a user of the runs' own cannot run `program` (its file, or one of
/// its arguments that names a file, as `python3 main.py` or `sh -c
/// '...' sh /path/to/prog` do), or `None` if it can.
fn unreachable_by_others(program: &[OsString]) -> Option<String> {
    let (first, args) = program.split_first()?;
    let file = find_program(first)?;
    if let Some(why) = closed_to_others(&file, 0o001) {
        return Some(why);
    }
    // Every file a word names, by a relative path or a full one (a script
    // given to an interpreter, a program given to a shell): the run's
    // user, and bwrap started as that user, must reach it too.
    args.iter()
        .map(Path::new)
        .filter(|arg| arg.is_file())
        .find_map(|arg| closed_to_others(&absolute(arg), 0o004))
}

/// `name` as the launcher will find it: a path as given, else the first
/// executable of that name on PATH.
pub fn find_program(name: &OsStr) -> Option<PathBuf> {
    let path = Path::new(name);
    if path.components().count() > 1 || path.is_absolute() {
        return Some(absolute(path));
    }
    on_path(name, Path::is_file)
}

/// The first `name` in a folder of `PATH` that `keep` accepts: the one
/// search of `PATH` of the crate, so that the command line, the launcher
/// and `mark` cannot disagree on which program a name means.
pub fn on_path(name: &OsStr, keep: impl Fn(&Path) -> bool) -> Option<PathBuf> {
    let dirs = std::env::var_os("PATH")?;
    std::env::split_paths(&dirs)
        .map(|dir| dir.join(name))
        .find(|candidate| keep(candidate))
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

/// bwrap, if it is on PATH and can make the box here as a run's user.
fn working_bwrap(users: Option<&Users>) -> Result<PathBuf, BwrapError> {
    let bwrap = find_program(OsStr::new("bwrap")).ok_or(BwrapError::NotInstalled)?;
    let mut probe = Command::new(&bwrap);
    probe
        .args(box_args(None, &[]))
        .arg("true")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let lease = users.map(Users::lease);
    #[cfg(unix)]
    if let Some((uid, gid)) = lease.as_ref().map(Lease::ids) {
        std::os::unix::process::CommandExt::uid(&mut probe, uid);
        std::os::unix::process::CommandExt::gid(&mut probe, gid);
    }
    let probed = probe.output();
    drop(lease);
    match probed {
        Ok(out) if out.status.success() => Ok(bwrap),
        Ok(out) => Err(BwrapError::Fails(
            String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        )),
        Err(e) => Err(BwrapError::CannotStart(e)),
    }
}

/// The system's folders a program, an interpreter or a compiler needs,
/// read-only; where one is a link (`/bin` to `usr/bin`), the link.
const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// The few files of `/etc` a C program, an interpreter or a compiler
/// reads: the dynamic linker's cache, the commands' alternatives (`cc`),
/// the time zone, and the user and group names.
const ETC: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
];

/// What bwrap is given before the program: the box, as isolate builds
/// it. No network, no view of other processes (a `/proc` of its own), a
/// minimal `/dev`, a fresh `/tmp`; of the file system only `SYSTEM` and
/// `ETC`, read-only, the folders of the files `program` names (the
/// program itself, a script given to an interpreter) read-only, and
/// `scratch`, its working folder, writable. Nothing else is there: not
/// the suite, not another submission or its build, not this program, not
/// the marker's home.
pub fn box_args(scratch: Option<&Path>, program: &[OsString]) -> Vec<OsString> {
    let mut args: Vec<OsString> = ["--unshare-all", "--die-with-parent", "--new-session"]
        .map(OsString::from)
        .to_vec();
    let mut pair = |flag: &str, from: &OsStr, to: &OsStr| {
        args.extend([flag.into(), from.to_owned(), to.to_owned()]);
    };
    for dir in SYSTEM.iter().map(Path::new) {
        match std::fs::symlink_metadata(dir) {
            Ok(m) if m.is_symlink() => {
                if let Ok(target) = std::fs::read_link(dir) {
                    pair("--symlink", target.as_os_str(), dir.as_os_str());
                }
            }
            Ok(m) if m.is_dir() => pair("--ro-bind", dir.as_os_str(), dir.as_os_str()),
            _ => {}
        }
    }
    for file in ETC.iter().map(OsStr::new) {
        pair("--ro-bind-try", file, file);
    }
    // This program, installed among the system's programs, is the
    // reference: a program under test that could run it could pass every
    // case. (The launcher, which makes the box, is this program.)
    if let Ok(me) = std::env::current_exe() {
        if SYSTEM.iter().any(|s| me.starts_with(s)) {
            pair("--ro-bind", OsStr::new("/dev/null"), me.as_os_str());
        }
    }
    for flag in [["--proc", "/proc"], ["--dev", "/dev"], ["--tmpfs", "/tmp"]] {
        args.extend(flag.map(OsString::from));
    }
    for path in readable(program) {
        args.extend(["--ro-bind".into(), path.clone().into(), path.into()]);
    }
    if let Some(scratch) = scratch {
        args.extend([
            "--bind".into(),
            scratch.as_os_str().to_owned(),
            scratch.as_os_str().to_owned(),
            "--chdir".into(),
            scratch.as_os_str().to_owned(),
        ]);
    }
    args
}

/// What of the file system the words of `program` need, beyond the
/// system's folders: for each that names a file by its full path (the
/// program, a script, valgrind's program), that file's folder, or the
/// file alone where the folder is a shared one (`/tmp`, whose other
/// files are not the program's) or the root.
fn readable(program: &[OsString]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    for word in program.iter().map(Path::new) {
        if !word.is_absolute() || !word.is_file() {
            continue;
        }
        let Some(folder) = word.parent() else {
            continue;
        };
        if SYSTEM.iter().any(|s| word.starts_with(s)) {
            continue;
        }
        let path = if shared(folder) {
            word.to_path_buf()
        } else {
            folder.to_path_buf()
        };
        if !found.contains(&path) {
            found.push(path);
        }
    }
    found
}

/// Whether `folder` is the root or one every user may write to (sticky,
/// as `/tmp`): not a program's own.
fn shared(folder: &Path) -> bool {
    if folder.parent().is_none() {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(folder).is_ok_and(|m| m.permissions().mode() & 0o1002 != 0)
    }
    #[cfg(not(unix))]
    false
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
    /// The kit could not start it (no process or namespace to be had, or
    /// bwrap failed before the program began): not the program's doing.
    Unstarted(String),
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
            Status::Unstarted(why) => format!("unstarted {}", why.replace('\n', " ")),
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
            "unstarted" => Status::Unstarted(rest.to_owned()),
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

/// Every process below `pid`: its children, theirs, and so on.
#[cfg(target_os = "linux")]
pub fn descendants(pid: u32) -> Vec<u32> {
    let mut found = children(pid);
    let mut next = 0;
    while let Some(&p) = found.get(next) {
        found.extend(children(p));
        next += 1;
    }
    found
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
            Status::Unstarted("bwrap could not make the box".to_owned()),
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
