//! The launcher: this program, started by the kit with
//! [`sandbox::LAUNCH`] first, to run one program under test contained.
//!
//! It sets the limits on itself (the program inherits them: no code runs
//! between `fork` and `exec`, so no unsafe code is needed), becomes the
//! subreaper of what it starts, starts the program (as the run's own user,
//! in bwrap's box, as the kit said; in the box the program's parent is
//! this program again, [`inner`], which alone can tell a crash from an
//! exit code), then looks at the program's processes every
//! [`sandbox::WATCH`]: their resident memory summed, their number, their
//! open files; over a limit, it kills them. When the program ends (or the
//! launcher is told to stop, or its parent, the kit, dies) it kills every
//! process the program left, `setsid` ones included, since each comes back
//! to it when its parent dies, and writes how the program ended in its
//! status file.
//!
//! The arguments, after [`sandbox::LAUNCH`]: `STATUS MEMORY CPU PROCESSES
//! FILE_SIZE OPEN_FILES UID GID BWRAP SCRATCH -- PROGRAM ARGS...`, with `-`
//! for no user change and no bwrap. Under bwrap a run fails as the kit's
//! ([`Status::Unstarted`]), not the program's, when bwrap never said it
//! made the box.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[cfg(target_os = "linux")]
use rustix::fd::OwnedFd;

use super::sandbox::{self, Contain, Overrun, Status};

/// The launcher's own exit code when it cannot make sense of its
/// arguments (the kit then reads no status).
pub(super) const BAD_LAUNCH: u8 = 125;

/// What the launcher was asked to do.
pub(super) struct Launch {
    status: PathBuf,
    user: Option<(u32, u32)>,
    pub(super) bwrap: Option<PathBuf>,
    pub(super) scratch: PathBuf,
    pub(super) contain: Contain,
    pub(super) program: Vec<OsString>,
}

/// The arguments the kit passes to the launcher, after [`sandbox::LAUNCH`].
/// The limits are `contain`'s: the kit's own, or a tool's (a compiler's);
/// the user and group `user`'s, the run's own, when it has one.
pub fn arguments(
    status: &std::path::Path,
    kit: &sandbox::Kit,
    contain: &Contain,
    user: Option<(u32, u32)>,
    scratch: &std::path::Path,
    program: impl IntoIterator<Item = OsString>,
) -> Vec<OsString> {
    let c = contain;
    let mut args: Vec<OsString> = vec![sandbox::LAUNCH.into(), status.as_os_str().to_owned()];
    for n in [c.memory, c.cpu, c.processes, c.file_size, c.open_files] {
        args.push(n.to_string().into());
    }
    let ids = user.map(|(uid, gid)| [uid.to_string(), gid.to_string()]);
    args.extend(
        ids.unwrap_or_else(|| ["-".into(), "-".into()])
            .map(OsString::from),
    );
    args.push(
        kit.bwrap
            .as_ref()
            .map_or_else(|| "-".into(), |b| b.as_os_str().to_owned()),
    );
    args.push(scratch.as_os_str().to_owned());
    args.push("--".into());
    args.extend(program);
    args
}

pub(super) fn parse(args: &[OsString]) -> Option<Launch> {
    let (head, program) = args.split_at(args.iter().position(|a| a == "--")?);
    let text = |i: usize| head.get(i).and_then(|a| a.to_str());
    let number = |i: usize| text(i).and_then(|t| t.parse::<u64>().ok());
    let id = |i: usize| text(i).and_then(|t| t.parse::<u32>().ok());
    let optional = |i: usize| head.get(i).filter(|a| *a != "-").map(PathBuf::from);
    Some(Launch {
        status: PathBuf::from(head.get(1)?),
        contain: Contain {
            memory: number(2)?,
            cpu: number(3)?,
            processes: number(4)?,
            file_size: number(5)?,
            open_files: number(6)?,
            isolate: false,
        },
        user: id(7).zip(id(8)),
        bwrap: optional(9),
        scratch: PathBuf::from(head.get(10)?),
        program: program.get(1..)?.to_vec(),
    })
}

/// Runs the launcher on `args` (its whole command line but the program's
/// name), and returns its exit code.
pub fn main(args: &[OsString]) -> u8 {
    let Some(launch) = parse(args) else {
        return BAD_LAUNCH;
    };
    let parent = parent_id();
    let status = contain(&launch).unwrap_or_else(|early| early);
    // Stopped, the kit is gone (it never stops a launcher otherwise): no
    // one will read the status. If it cannot be written the kit says it
    // cannot tell.
    if status != Status::Stopped {
        let _ = std::fs::write(&launch.status, status.line() + "\n");
    }
    // The kit is gone, or died as the run ended, before it could remove
    // the run's folder: nothing will read it.
    if status == Status::Stopped || kit_gone(parent) {
        if let Some(run) = launch.scratch.parent() {
            let _ = std::fs::remove_dir_all(run);
        }
    }
    exit_code(&status)
}

/// The launcher's exit code (and the inner launcher's): the program's
/// own, or 1.
fn exit_code(status: &Status) -> u8 {
    match status {
        Status::Code(code) => u8::try_from(*code).unwrap_or(1),
        _ => 1,
    }
}

/// The program `name` could not be started: for want of processes or
/// memory, the machine's state, not the program's.
pub(super) fn not_started(name: &str, e: &std::io::Error) -> Status {
    let why = format!("{name}: {e}");
    if sandbox::exhausted(e) {
        Status::Unstarted(why)
    } else {
        Status::CannotStart(why)
    }
}

/// Runs the program contained, and watches it: how it ended (`Err`:
/// before it began).
#[cfg(target_os = "linux")]
fn contain(launch: &Launch) -> Result<Status, Status> {
    let stop = stop_on_signals()?;
    adopt()?;
    // In the box the program's parent is this program again, which alone
    // sees how it ended (bwrap gives a signal on as 128 and its number,
    // as a program could exit). Prepared before the limits: a copy of
    // this program may be larger than the file size a program may write.
    let boxed = launch.bwrap.is_some();
    let inner = boxed
        .then(|| Inner::prepare(launch))
        .transpose()
        .map_err(|e| Status::Unstarted(format!("cannot prepare the box: {e}")))?;
    set_limits(launch)?;
    // bwrap says on this pipe, once the program's process is made, that it
    // is: without that line the box was never made, and the failure is
    // the kit's, not the program's. The program does not get the pipe.
    let told = boxed
        .then(status_pipe)
        .transpose()
        .map_err(|e| Status::Unstarted(format!("cannot make a pipe for bwrap: {e}")))?;
    let write = told.as_ref().map(|(_, write)| write);
    let mut child = spawn(launch, write, inner.as_ref())?;
    let told = told.map(|(read, _write)| read);
    let me = std::process::id();
    let status = watch(launch, &mut child, me, &stop);
    kill_all(me, &mut child);
    Ok(verdict(status, told.as_ref(), inner.as_ref(), launch))
}

/// The flag SIGTERM, SIGINT and SIGHUP set: the launcher is to stop.
#[cfg(target_os = "linux")]
pub(super) fn stop_on_signals() -> Result<Arc<AtomicBool>, Status> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [SIGTERM, SIGINT, SIGHUP] {
        signal_hook::flag::register(signal, Arc::clone(&stop))
            .map_err(|_| Status::CannotStart("cannot handle signals".to_owned()))?;
    }
    Ok(stop)
}

/// Ties the launcher to the kit and makes it the subreaper of what it
/// starts; [`Status::Stopped`] if the kit is already gone.
#[cfg(target_os = "linux")]
fn adopt() -> Result<(), Status> {
    use rustix::process::{Signal, getpid, getppid};
    // Whatever kills the kit, the launcher hears of it, and kills the
    // program's processes before it goes.
    let _ = rustix::process::set_parent_process_death_signal(Some(Signal::TERM));
    if getppid().is_none_or(|p| p.as_raw_nonzero().get() == 1) {
        return Err(Status::Stopped);
    }
    let _ = rustix::process::set_child_subreaper(Some(getpid()));
    Ok(())
}

/// Sets the system's limits on the launcher, which the program inherits.
#[cfg(target_os = "linux")]
pub(super) fn set_limits(launch: &Launch) -> Result<(), Status> {
    use rustix::process::{Resource, Rlimit, setrlimit};
    let c = &launch.contain;
    let exact = |n: u64| Rlimit {
        current: Some(n),
        maximum: Some(n),
    };
    // SIGXCPU at the limit, SIGKILL a second later.
    let cpu = Rlimit {
        current: Some(c.cpu),
        maximum: Some(c.cpu + 1),
    };
    let mut limits = vec![
        (Resource::Cpu, cpu),
        (Resource::Fsize, exact(c.file_size)),
        (Resource::Nofile, exact(c.open_files)),
        (Resource::Core, exact(0)),
    ];
    // The number of processes is counted per user, threads included: a
    // run with a user of its own is bounded by it alone, so the bound
    // holds whatever the other runs do. The count in [`watch`] is what
    // reports (a program may have threads); this is the backstop against
    // a fork bomb faster than the count, with room for the helpers.
    if launch.user.is_some() {
        let most = c.processes.saturating_mul(2) + HELPERS;
        limits.push((Resource::Nproc, exact(most)));
    }
    for (resource, limit) in limits {
        setrlimit(resource, limit)
            .map_err(|e| Status::CannotStart(format!("cannot limit {resource:?}: {e}")))?;
    }
    Ok(())
}

/// Starts the program, as the run's user: under bwrap, in the box, with
/// the inner launcher as its parent and `told` for bwrap's word.
#[cfg(target_os = "linux")]
fn spawn(launch: &Launch, told: Option<&OwnedFd>, inner: Option<&Inner>) -> Result<Child, Status> {
    let mut command = match (&launch.bwrap, told, inner) {
        (Some(bwrap), Some(write), Some(inner)) => {
            let mut command = Command::new(bwrap);
            command
                .args(sandbox::box_args(Some(&launch.scratch), &launch.program))
                .arg("--bind")
                .arg(&inner.dir)
                .arg(INNER_DIR)
                .arg("--json-status-fd")
                .arg(rustix::fd::AsRawFd::as_raw_fd(write).to_string())
                .arg("--")
                .arg(Path::new(INNER_DIR).join(INNER_EXE))
                .arg(sandbox::INNER)
                .arg("--")
                .args(&launch.program);
            command
        }
        _ => {
            let Some((program, args)) = launch.program.split_first() else {
                return Err(Status::CannotStart("no program given".to_owned()));
            };
            let mut command = Command::new(program);
            command.args(args);
            command
        }
    };
    if let Some((uid, gid)) = launch.user {
        std::os::unix::process::CommandExt::uid(&mut command, uid);
        std::os::unix::process::CommandExt::gid(&mut command, gid);
    }
    command.spawn().map_err(|e| {
        let name = launch.program.first().map(|p| p.to_string_lossy());
        not_started(&name.unwrap_or_default(), &e)
    })
}

/// Watches the program's processes until it ends, goes over a limit or
/// the launcher is told to stop (`stop`): how it went.
#[cfg(target_os = "linux")]
pub(super) fn watch(launch: &Launch, child: &mut Child, me: u32, stop: &AtomicBool) -> Status {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    use rustix::process::{Pid, PidfdFlags, pidfd_open};
    let c = &launch.contain;
    // bwrap's own two processes (its monitor and the namespace's init)
    // and the inner launcher are not the program's.
    let helpers = if launch.bwrap.is_some() { HELPERS } else { 0 };
    let mut looks = 0u32;
    // Most programs under test answer in a millisecond: their end is
    // awaited as an event (a pidfd that becomes readable), the looks come
    // between; where there is no pidfd, they come soon after the start,
    // then ever further apart, up to WATCH.
    let pid = i32::try_from(child.id()).ok().and_then(Pid::from_raw);
    let pidfd = pid.and_then(|pid| pidfd_open(pid, PidfdFlags::empty()).ok());
    let mut pause = Duration::from_micros(100);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return ended(status, c),
            Ok(None) => {}
            Err(e) => return Status::CannotStart(format!("cannot wait for it: {e}")),
        }
        if stop.load(Ordering::SeqCst) {
            return Status::Stopped;
        }
        let tree = alive(&sandbox::descendants(me));
        let memory: u64 = tree.iter().map(|(_, rss)| rss).sum();
        if memory > c.memory {
            return Status::Over(Overrun::Memory(c.memory));
        }
        if (tree.len() as u64).saturating_sub(helpers) > c.processes {
            return Status::Over(Overrun::Processes(c.processes));
        }
        // Counting open files costs a folder read a process: a tenth as
        // often.
        looks += 1;
        if looks % 10 == 0 && tree.iter().any(|(pid, _)| open_files(*pid) >= c.open_files) {
            return Status::Over(Overrun::OpenFiles(c.open_files));
        }
        reap_others(me, child.id());
        match &pidfd {
            Some(fd) => {
                let watch = Timespec {
                    tv_sec: 0,
                    tv_nsec: sandbox::WATCH.subsec_nanos().into(),
                };
                let _ = poll(&mut [PollFd::new(fd, PollFlags::IN)], Some(&watch));
            }
            None => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(sandbox::WATCH);
            }
        }
    }
}

/// How the program ended, from what [`watch`] saw (`status`, bwrap's
/// under bwrap), whether bwrap said it began (on `told`) and what the
/// inner launcher said.
#[cfg(target_os = "linux")]
fn verdict(
    status: Status,
    told: Option<&OwnedFd>,
    inner: Option<&Inner>,
    launch: &Launch,
) -> Status {
    match (status, told) {
        (status @ (Status::Stopped | Status::Over(_)), _) | (status, None) => status,
        (_, Some(read)) if !began(read) => {
            Status::Unstarted("bwrap could not make the box".to_owned())
        }
        (status, _) => match inner.and_then(Inner::said) {
            Some(Status::Signal(signal)) => {
                over_by_signal(signal, &launch.contain).unwrap_or(Status::Signal(signal))
            }
            Some(said) => said,
            // The inner launcher said nothing: bwrap's own word, taken as
            // a code.
            None => status,
        },
    }
}

/// Processes of a run under bwrap that are not the program's: bwrap's
/// monitor, the namespace's init, and the inner launcher.
const HELPERS: u64 = 3;

/// Where the inner launcher's folder is in the box.
pub(super) const INNER_DIR: &str = "/.gomoku-mist-launch";
/// This program's name there.
pub(super) const INNER_EXE: &str = "launch";
/// The pipe the inner launcher says on how the program ended.
const INNER_FIFO: &str = "status";

/// The inner launcher's folder, outside the box: this program, by a
/// second name (or a copy), and a named pipe, each of which the inner
/// launcher removes before it starts the program, so that the program
/// can neither run this program (the reference: every case would pass)
/// nor say how it ended in the inner launcher's place.
#[cfg(target_os = "linux")]
struct Inner {
    dir: PathBuf,
    /// The read end of the named pipe, opened before the box exists.
    said: OwnedFd,
}

#[cfg(target_os = "linux")]
impl Inner {
    fn prepare(launch: &Launch) -> std::io::Result<Inner> {
        use rustix::fs::{Mode, OFlags};
        let room = launch
            .scratch
            .parent()
            .ok_or_else(|| std::io::Error::other("the scratch folder has no parent"))?;
        let dir = room.join("launch");
        std::fs::create_dir(&dir)?;
        let exe = dir.join(INNER_EXE);
        let me = std::env::current_exe()?;
        if std::fs::hard_link(&me, &exe).is_err() {
            std::fs::copy(&me, &exe)?;
        }
        let fifo = dir.join(INNER_FIFO);
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, Mode::from_raw_mode(0o600))?;
        let said = rustix::fs::open(
            &fifo,
            OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        if let Some((uid, gid)) = launch.user {
            for path in [&dir, &fifo] {
                std::os::unix::fs::chown(path, Some(uid), Some(gid))?;
            }
        }
        Ok(Inner { dir, said })
    }

    /// What the inner launcher said, if it said anything.
    fn said(&self) -> Option<Status> {
        let said = read_some(&self.said, 1 << 12);
        Status::parse(std::str::from_utf8(&said).ok()?.lines().next()?)
    }
}

/// Runs the inner launcher (this program in the box, started by bwrap
/// with [`sandbox::INNER`] first): takes the named pipe, removes it and
/// its own file, makes itself unreadable to the program (no `/proc/N/exe`,
/// `fd` or `mem` of it for another process of its user), starts the
/// program, and says on the pipe how it ended. Its exit code is the
/// program's, or 1.
pub fn inner(args: &[OsString]) -> u8 {
    let program = match args.iter().position(|a| a == "--") {
        Some(at) => &args[at + 1..],
        None => return BAD_LAUNCH,
    };
    let dir = Path::new(INNER_DIR);
    let Ok(mut said) = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.join(INNER_FIFO))
    else {
        return BAD_LAUNCH;
    };
    let mut say = |status: Status| {
        let _ = std::io::Write::write_all(&mut said, (status.line() + "\n").as_bytes());
        exit_code(&status)
    };
    let hidden = std::fs::remove_file(dir.join(INNER_FIFO))
        .and_then(|()| std::fs::remove_file(dir.join(INNER_EXE)))
        .and_then(|()| hide_self());
    if let Err(e) = hidden {
        return say(Status::Unstarted(format!("cannot hide the launcher: {e}")));
    }
    let Some((name, rest)) = program.split_first() else {
        return say(Status::CannotStart("no program given".to_owned()));
    };
    let child = Command::new(name).args(rest).spawn();
    match child.and_then(|mut child| child.wait()) {
        Ok(status) => say(exact(status)),
        Err(e) => say(not_started(&name.to_string_lossy(), &e)),
    }
}

/// No other process of this user may read this one's memory, files or
/// program through `/proc`.
#[cfg(target_os = "linux")]
pub(super) fn hide_self() -> std::io::Result<()> {
    rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable)?;
    Ok(())
}

#[cfg(not(target_os = "linux"))]
pub(super) fn hide_self() -> std::io::Result<()> {
    Ok(())
}

/// How a child of this process ended, exactly: a code, or a signal.
fn exact(status: ExitStatus) -> Status {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return Status::Signal(signal);
    }
    status.code().map_or(Status::Signal(0), Status::Code)
}

/// This process's parent, the kit.
#[cfg(unix)]
fn parent_id() -> Option<i32> {
    rustix::process::getppid().map(|p| p.as_raw_nonzero().get())
}

#[cfg(not(unix))]
fn parent_id() -> Option<i32> {
    None
}

/// Whether the kit that started this launcher is no longer its parent.
fn kit_gone(kit: Option<i32>) -> bool {
    kit.is_some() && parent_id() != kit
}

/// A pipe whose write end a child inherits and whose read end it does
/// not.
#[cfg(target_os = "linux")]
fn status_pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let (read, write) = rustix::pipe::pipe()?;
    rustix::io::fcntl_setfd(&read, rustix::io::FdFlags::CLOEXEC)?;
    rustix::io::ioctl_fionbio(&read, true)?;
    Ok((read, write))
}

/// Whether bwrap said, on the pipe `read`, that it made the program's
/// process.
#[cfg(target_os = "linux")]
fn began(read: &OwnedFd) -> bool {
    memchr::memmem::find(&read_some(read, 1 << 16), b"\"child-pid\"").is_some()
}

/// What can be read now from `fd` (not waiting: it does not block), up
/// to a little over `most` bytes.
#[cfg(target_os = "linux")]
fn read_some(fd: &OwnedFd, most: usize) -> Vec<u8> {
    let mut said = Vec::new();
    let mut chunk = [0u8; 512];
    while let Ok(n) = rustix::io::read(fd, &mut chunk) {
        if n == 0 || said.len() > most {
            break;
        }
        said.extend_from_slice(&chunk[..n]);
    }
    said
}

#[cfg(not(target_os = "linux"))]
fn contain(launch: &Launch) -> Result<Status, Status> {
    let Some((program, args)) = launch.program.split_first() else {
        return Err(Status::CannotStart("no program given".to_owned()));
    };
    match Command::new(program).args(args).status() {
        Ok(status) => Ok(ended(status, &launch.contain)),
        Err(e) => Err(Status::CannotStart(format!(
            "{}: {e}",
            program.to_string_lossy()
        ))),
    }
}

/// How the program ended, from its exit status, a signal of a system
/// limit named as that limit. (Under bwrap this is bwrap's status, which
/// the inner launcher's word replaces.)
fn ended(status: ExitStatus, contain: &Contain) -> Status {
    match exact(status) {
        Status::Signal(signal) => over_by_signal(signal, contain).unwrap_or(Status::Signal(signal)),
        status => status,
    }
}

/// The limit a signal tells of: SIGXCPU (and the SIGKILL a second after
/// it) is the CPU time, SIGXFSZ the file size.
#[cfg(unix)]
fn over_by_signal(signal: i32, contain: &Contain) -> Option<Status> {
    use rustix::process::Signal;
    if signal == Signal::XCPU.as_raw() {
        Some(Status::Over(Overrun::Cpu(contain.cpu)))
    } else if signal == Signal::XFSZ.as_raw() {
        Some(Status::Over(Overrun::FileSize(contain.file_size)))
    } else {
        None
    }
}

#[cfg(not(unix))]
fn over_by_signal(_: i32, _: &Contain) -> Option<Status> {
    None
}

/// The processes of `pids` that are alive (not zombies), with their
/// resident memory in bytes.
#[cfg(target_os = "linux")]
fn alive(pids: &[u32]) -> Vec<(u32, u64)> {
    pids.iter()
        .filter_map(|&pid| {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
            // A zombie has no memory lines.
            let kb = status
                .lines()
                .find_map(|line| line.strip_prefix("VmRSS:"))?
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()?;
            Some((pid, kb * 1024))
        })
        .collect()
}

#[cfg(target_os = "linux")]
fn open_files(pid: u32) -> u64 {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |dir| dir.count() as u64)
}

/// Reaps the launcher's children but the program: processes that came
/// back to it and have ended.
#[cfg(target_os = "linux")]
fn reap_others(me: u32, program: u32) {
    use rustix::process::{Pid, WaitOptions, waitpid};
    for pid in sandbox::children(me) {
        if pid != program {
            if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
                let _ = waitpid(Some(pid), WaitOptions::NOHANG);
            }
        }
    }
}

/// Kills the program and every process below the launcher, over and over
/// as orphans come back to it, and reaps them, until none is left (or
/// ten seconds have passed).
#[cfg(target_os = "linux")]
pub(super) fn kill_all(me: u32, child: &mut Child) {
    use rustix::process::{Pid, Signal, WaitOptions, kill_process, wait};
    let _ = child.kill();
    let _ = child.wait();
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let below = sandbox::descendants(me);
        if below.is_empty() || Instant::now() > until {
            break;
        }
        for pid in below {
            if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
                let _ = kill_process(pid, Signal::KILL);
            }
        }
        while let Ok(Some(_)) = wait(WaitOptions::NOHANG) {}
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::process::ExitStatusExt;

    use super::*;

    #[test]
    fn the_signals_of_the_system_limits_are_named_as_the_limits() {
        let contain = Contain::default();
        let status = |raw: i32| ended(ExitStatus::from_raw(raw), &contain);
        // A raw wait status: the signal in the low bits, a code above them.
        assert_eq!(status(24), Status::Over(Overrun::Cpu(60)));
        assert_eq!(status(25), Status::Over(Overrun::FileSize(1 << 20)));
        assert_eq!(status(11), Status::Signal(11));
        assert_eq!(status(3 << 8), Status::Code(3));
        // A code of 128 and a signal's number is a code: under bwrap the
        // inner launcher, the program's parent, tells the two apart.
        assert_eq!(status(134 << 8), Status::Code(134));
        assert_eq!(status(153 << 8), Status::Code(153));
    }

    #[test]
    fn the_launcher_reads_back_what_the_kit_passes() {
        let kit = sandbox::Kit {
            launcher: PathBuf::from("/bin/gomoku-mist"),
            contain: Contain {
                memory: 100 << 20,
                ..Contain::default()
            },
            users: None,
            bwrap: Some(PathBuf::from("/usr/bin/bwrap")),
            boxes: sandbox::Shelf::default(),
        };
        let program = ["./a.out", "--", "x"].map(OsString::from);
        let args = arguments(
            std::path::Path::new("/tmp/s"),
            &kit,
            &kit.contain,
            Some((65534, 65534)),
            std::path::Path::new("/tmp/h"),
            program.clone(),
        );
        let launch = parse(&args).expect("the launcher's arguments");
        assert_eq!(launch.status, PathBuf::from("/tmp/s"));
        assert_eq!(launch.contain.memory, 100 << 20);
        assert_eq!(launch.contain.processes, 64);
        assert_eq!(launch.user, Some((65534, 65534)));
        assert_eq!(launch.bwrap, kit.bwrap);
        assert_eq!(launch.scratch, PathBuf::from("/tmp/h"));
        assert_eq!(launch.program, program);
    }
}
