//! Nothing left running: the kit keeps the list of the launchers it
//! started ([`spawn`], [`forget`]), and, once [`guard`] has made it the
//! subreaper of everything it starts, kills and reaps whatever else
//! turns up as its child ([`sweep`]): a process that left its group
//! (`setsid`) and whose parent died. On Ctrl-C, SIGTERM, SIGHUP or a
//! panic it kills every launcher's group and sweeps until none is left.
//!
//! While a launcher lives, it is the subreaper of its program's
//! processes and kills them itself when the program ends
//! ([`super::launch`]); what comes here is what a killed launcher left.
//! A run killed at a limit, contained or made directly, is killed whole
//! ([`kill_tree`]): every process below it is stopped, then killed, so
//! none is orphaned on the way, whether or not the kit is a subreaper.

use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The launchers running now, by process id.
static LIVE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// The runs' scratch folders that exist now: removed by [`stop_all`] too.
static FOLDERS: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

/// Whether [`guard`] made this process the subreaper: only then is any
/// child not in [`LIVE`] one to kill (a test binary has children of its
/// own).
static GUARDED: AtomicBool = AtomicBool::new(false);

/// Set once the kit is stopping: no launcher starts after it.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// How long to go on killing what reparents here before giving up.
const SWEEP_FOR: Duration = Duration::from_secs(5);

fn live() -> std::sync::MutexGuard<'static, BTreeSet<u32>> {
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Starts `command` and counts it as live until [`forget`]: a sweep
/// running meanwhile cannot take it for a leftover.
///
/// # Errors
///
/// The error of [`Command::spawn`].
pub fn spawn(command: &mut Command) -> io::Result<Child> {
    if STOPPING.load(Ordering::SeqCst) {
        hold();
    }
    let mut live = live();
    let child = command.spawn()?;
    live.insert(child.id());
    Ok(child)
}

/// Once the kit is stopping, waits for it to exit: a run killed by the
/// stop, or one about to start, must not be reported (as a failure that
/// is not the program's), nor the kit end on its own with another code.
pub fn hold() {
    if STOPPING.load(Ordering::SeqCst) {
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}

/// `dir` is a run's folder, to remove if the kit is stopped.
pub fn keep(dir: &Path) {
    folders().insert(dir.to_path_buf());
}

/// Removes the run's folder `dir`.
pub fn remove(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    folders().remove(dir);
}

fn folders() -> std::sync::MutexGuard<'static, BTreeSet<PathBuf>> {
    FOLDERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `pid` is waited for: no longer live.
pub fn forget(pid: u32) {
    live().remove(&pid);
}

/// Makes this process the subreaper of every process it starts, and
/// kills them all (then exits with 128 and the signal's number) on
/// SIGINT, SIGTERM or SIGHUP, and on a panic.
///
/// # Errors
///
/// When the signal handlers cannot be set.
#[cfg(unix)]
pub fn guard() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    #[cfg(target_os = "linux")]
    rustix::process::set_child_subreaper(Some(rustix::process::getpid()))?;
    GUARDED.store(true, Ordering::SeqCst);
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            stop_all(true);
            std::process::exit(128 + signal);
        }
    });
    let before = std::panic::take_hook();
    // A panic ends the kit too, but through its threads, which must not
    // be held up: runs may still start after this one.
    std::panic::set_hook(Box::new(move |info| {
        stop_all(false);
        before(info);
    }));
    Ok(())
}

/// Where there are no signals to handle nor subreapers, nothing to set.
///
/// # Errors
///
/// None.
#[cfg(not(unix))]
pub fn guard() -> io::Result<()> {
    Ok(())
}

/// Kills every child of this process, launchers and their groups
/// included, and reaps each, until none is left: what a dead process
/// leaves comes here before it can be reaped, so once the children are
/// reaped their orphans are children in turn. With `last`, no launcher
/// starts after: the kit is about to exit.
pub fn stop_all(last: bool) {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{Pid, Signal, WaitOptions, kill_process, waitpid};
        {
            let _live = live();
            STOPPING.store(last, Ordering::SeqCst);
        }
        let until = Instant::now() + SWEEP_FOR;
        loop {
            let children = super::sandbox::children(std::process::id());
            if children.is_empty() || Instant::now() > until {
                break;
            }
            for pid in children {
                kill_group(pid);
                if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
                    let _ = kill_process(pid, Signal::KILL);
                    let _ = waitpid(Some(pid), WaitOptions::empty());
                }
            }
        }
    }
    for dir in std::mem::take(&mut *folders()) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Kills the process group `group` (a launcher's: its id is the
/// launcher's).
#[cfg(unix)]
pub fn kill_group(group: u32) {
    if let Some(group) = i32::try_from(group)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
}

/// How long [`kill_tree`] waits for what it stopped to stop, at most.
const SETTLE_FOR: Duration = Duration::from_secs(2);

/// Kills the process `pid`, a run's program (or its launcher), not yet
/// reaped, and every process below it, whatever group or session each
/// moved to: a kill of the run's group misses a process that left it
/// (`setsid`, or a group of its own, as the kit itself starts each run),
/// and once its parent is killed it is an orphan, out of the kit's reach
/// where the kit is not its subreaper (a run made directly, or the kit
/// in a test binary). So each is stopped first, the run's group at once,
/// then what is found below `pid`, again and again until every one found
/// is stopped (none can start another, nor be orphaned) and a last look
/// finds no other; then all are killed. Not yet reaped, `pid` is no
/// other process's; nor is a stopped process's id. Waits for a process
/// that does not stop (in an uninterruptible wait) two seconds at
/// most; one the kit may not signal is left to the group's kill.
#[cfg(target_os = "linux")]
pub fn kill_tree(pid: u32) {
    use rustix::io::Errno;
    use rustix::process::{Pid, Signal, kill_process, kill_process_group};
    let id = |pid: u32| i32::try_from(pid).ok().and_then(Pid::from_raw);
    let Some(top) = id(pid) else {
        return;
    };
    // A foreign /proc names other processes than those the kit signals.
    if super::sandbox::proc_is_ours().is_err() {
        return;
    }
    // Those stopped, and those the kit may not signal (nothing to wait for).
    let mut stopped = BTreeSet::from([pid]);
    let mut unreachable = BTreeSet::new();
    let _ = kill_process_group(top, Signal::STOP);
    if kill_process(top, Signal::STOP) == Err(Errno::PERM) {
        unreachable.insert(pid);
    }
    let until = Instant::now() + SETTLE_FOR;
    loop {
        // Settled before the look: none of them can start a process the
        // look would miss.
        let settled = stopped
            .iter()
            .all(|&p| unreachable.contains(&p) || halted(p));
        let mut new = false;
        for p in super::sandbox::descendants(pid) {
            if !stopped.insert(p) {
                continue;
            }
            new = true;
            if id(p).is_some_and(|raw| kill_process(raw, Signal::STOP) == Err(Errno::PERM)) {
                unreachable.insert(p);
            }
        }
        if (settled && !new) || Instant::now() > until {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    for p in stopped.iter().filter_map(|&p| id(p)) {
        let _ = kill_process(p, Signal::KILL);
    }
    let _ = kill_process_group(top, Signal::KILL);
}

/// Elsewhere the run's group is all the kit reaches.
#[cfg(all(unix, not(target_os = "linux")))]
pub fn kill_tree(pid: u32) {
    if let Some(group) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
}

/// Whether process `pid` can start no other: stopped, a zombie, or gone.
#[cfg(target_os = "linux")]
fn halted(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // The state follows the parenthesised name.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['T', 't', 'Z', 'X'])),
    }
}

/// Kills and reaps every child of this process that is not a live
/// launcher, until none is left or a few seconds have passed: what a
/// killed launcher's program left reparents here. Does nothing unless
/// [`guard`] made this process their subreaper.
pub fn sweep() {
    let until = Instant::now() + SWEEP_FOR;
    while sweep_all() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// One round of [`sweep`]: whether any child was found.
fn sweep_all() -> bool {
    if !GUARDED.load(Ordering::SeqCst) {
        return false;
    }
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{Pid, Signal, WaitOptions, kill_process, waitpid};
        // Held while killing, so a launcher being started now is not taken
        // for a leftover.
        let live = live();
        let strays: Vec<u32> = super::sandbox::children(std::process::id())
            .into_iter()
            .filter(|pid| !live.contains(pid))
            .collect();
        drop(live);
        for pid in &strays {
            if let Some(pid) = i32::try_from(*pid).ok().and_then(Pid::from_raw) {
                let _ = kill_process(pid, Signal::KILL);
                let _ = waitpid(Some(pid), WaitOptions::empty());
            }
        }
        !strays.is_empty()
    }
    #[cfg(not(target_os = "linux"))]
    false
}
