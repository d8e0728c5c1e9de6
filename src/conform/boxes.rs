//! Boxes kept for reuse, as isolate keeps its own: bwrap builds a box
//! once for a program (its command, its limits), and every plain run of
//! that program is then started in it, with no bwrap and no launcher to
//! start per run. Building the box is most of what containment costs
//! (bwrap's namespaces and mounts, and two more programs to start), so a
//! box that serves many runs brings contained runs close to direct ones.
//!
//! In the box runs the runner ([`runner`]): this program, started from a
//! copy it removes at once, unreadable by the programs it starts (not
//! dumpable), with the limits set on itself so that every program it
//! starts inherits them, and the subreaper of all of them. Per run the
//! kit sends it, over a socket that is the runner's stdin, the program's
//! three pipes ([`lend`]); the runner starts the program with them, says
//! it started, watches it as the launcher does (`launch::watch`: its
//! memory, processes and open files), kills every process of the run once
//! it ends, empties every folder the run could write to and removes what
//! it added to the box's root and `/dev`, and says how the run ended. A
//! box that cannot be put back as it was (a folder it cannot empty, an
//! IPC object the runner cannot remove, a runner that has spent half its
//! CPU time) is retired: the kit drops it and builds another.
//!
//! What a box never does: serve another command (the program's folder is
//! bound in it, another submission's is not) or other limits; hold a run
//! while another runs (a box is lent to one run at a time); outlive the
//! kit (bwrap dies with the thread that started it, and one thread that
//! lives as long as the kit starts every box). A run the kit stops (its
//! time is up, or it wrote too much) takes its box with it: the box is
//! killed from outside and never reused. A runner that dies in a run (the
//! program may kill it: it runs as the same user) takes its box and the
//! run's processes with it (bwrap's init ends and the namespace dies);
//! the run is reported killed, and the next run gets a new box. A box
//! that died idle is found dead and dropped before it is lent.

use std::any::Any;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, PoisonError};

use rustix::fd::{AsFd, OwnedFd};
use rustix::net::{
    AddressFamily, RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer,
    SendAncillaryMessage, SendFlags, SocketFlags, SocketType,
};

use super::launch::{self, INNER_DIR, INNER_EXE};
use super::reap;
use super::room::Room;
use super::sandbox::{self, Contain, Kit, Shelf, Status};

/// Idle boxes a kit keeps at most, the oldest dropped first: one for each
/// worker of the usual few (`--jobs`; with more, some runs build a box
/// anew, as every run did before boxes were kept), or a few programs'
/// (`mark`, `check` with options) at once.
const IDLE: usize = 8;

/// What the runner says when the program has started.
const STARTED: &[u8] = b"S";
/// The first byte of its last word of a run: the box is fit for another
/// run, or is to be retired.
const FIT: u8 = b'K';
const RETIRED: u8 = b'R';

/// An idle box of `kit`'s for `words` under its limits, alive.
fn take(kit: &Kit, words: &[OsString]) -> Option<Boxed> {
    let mut dead = Vec::new();
    let found = {
        let mut idle = kit.boxes.lock();
        let fits = |b: &Box<dyn Any + Send>| {
            b.downcast_ref::<Boxed>()
                .is_some_and(|b| b.words == words && b.contain == kit.contain)
        };
        loop {
            let Some(at) = idle.iter().position(fits) else {
                break None;
            };
            match idle.remove(at).map(|b| b.downcast::<Boxed>()) {
                Some(Ok(boxed)) if boxed.idle_and_alive() => break Some(*boxed),
                Some(other) => dead.push(other),
                None => break None,
            }
        }
    };
    // Dropped (killed, waited for) with the shelf unlocked.
    drop(dead);
    found
}

/// Puts `boxed` back on `kit`'s shelf, dropping the oldest idle box if
/// there are too many.
fn give(shelf: &Shelf, boxed: Boxed) {
    let oldest = {
        let mut idle = shelf.lock();
        idle.push_back(Box::new(boxed));
        (idle.len() > IDLE).then(|| idle.pop_front()).flatten()
    };
    drop(oldest);
}

/// A box: bwrap and the runner in it, the kit's end of the runner's
/// socket, and the box's folder (its scratch folder and the runner's
/// copy), with the user it runs as when the kit is root.
struct Boxed {
    words: Vec<OsString>,
    contain: Contain,
    bwrap: Child,
    socket: Arc<OwnedFd>,
    _room: Room,
}

impl Boxed {
    /// Builds a box for `words` under the kit's limits.
    fn make(kit: &Kit, words: Vec<OsString>) -> Result<Boxed, Status> {
        let cannot = |e: io::Error| Status::CannotStart(format!("cannot make its box: {e}"));
        let bwrap = kit
            .bwrap
            .as_ref()
            .ok_or_else(|| cannot(io::Error::other("no bwrap")))?;
        let room = Room::new(kit, None).map_err(cannot)?;
        let ids = room.user.as_ref().map(sandbox::Lease::ids);
        let copy = room.dir.join("launch");
        let exe = copy.join(INNER_EXE);
        std::fs::create_dir(&copy)
            .and_then(|()| {
                if std::fs::hard_link(&kit.launcher, &exe).is_err() {
                    std::fs::copy(&kit.launcher, &exe)?;
                }
                if let Some((uid, gid)) = ids {
                    std::os::unix::fs::chown(&copy, Some(uid), Some(gid))?;
                }
                Ok(())
            })
            .map_err(cannot)?;
        let (ours, theirs) = rustix::net::socketpair(
            AddressFamily::UNIX,
            SocketType::SEQPACKET,
            SocketFlags::CLOEXEC,
            None,
        )
        .map_err(|e| Status::Unstarted(format!("cannot make a socket: {e}")))?;
        let mut args = launch::arguments(
            &room.status,
            kit,
            &kit.contain,
            ids,
            &room.scratch,
            words.iter().cloned(),
        );
        args[0] = sandbox::RUNNER.into();
        let mut command = Command::new(bwrap);
        command
            .args(sandbox::box_args(Some(&room.scratch), &words))
            .arg("--bind")
            .arg(&copy)
            .arg(INNER_DIR)
            .arg("--")
            .arg(Path::new(INNER_DIR).join(INNER_EXE))
            .args(args)
            .stdin(Stdio::from(theirs))
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        room.environment(&mut command);
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        if let Some((uid, gid)) = ids {
            std::os::unix::process::CommandExt::uid(&mut command, uid);
            std::os::unix::process::CommandExt::gid(&mut command, gid);
        }
        let bwrap = start_lasting(command).map_err(|e| {
            let why = format!("bwrap: {e}");
            if sandbox::exhausted(&e) {
                Status::Unstarted(why)
            } else {
                Status::CannotStart(why)
            }
        })?;
        Ok(Boxed {
            words,
            contain: kit.contain.clone(),
            bwrap,
            socket: Arc::new(ours),
            _room: room,
        })
    }

    /// Whether the runner is waiting for a run: an idle runner says
    /// nothing, so anything to read (its end, as a rule) means it is gone.
    fn idle_and_alive(&self) -> bool {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        let mut fds = [PollFd::new(&*self.socket, PollFlags::IN)];
        let now = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        matches!(poll(&mut fds, Some(&now)), Ok(0))
    }
}

impl Drop for Boxed {
    fn drop(&mut self) {
        // Everything in the box is below bwrap: stopped, then killed.
        reap::kill_tree(self.bwrap.id());
        let _ = self.bwrap.kill();
        let _ = self.bwrap.wait();
        reap::forget(self.bwrap.id());
        // The namespace's init, its parent killed, came back to the kit.
        reap::sweep();
    }
}

/// A box lent to one run, given back (or dropped) by [`Lent::finish`].
pub struct Lent {
    boxed: Boxed,
    shelf: Shelf,
}

impl Lent {
    /// Ends the loan: the box goes back to the idle ones if the runner
    /// said it is `fit` for another run; else it is killed and dropped.
    pub fn finish(self, fit: bool) {
        if fit {
            give(&self.shelf, self.boxed);
        }
    }
}

/// The kit's ends of a run's pipes: the program's stdin, stdout, stderr.
pub type Ends = (File, File, File);

/// Starts `words` (the program, found, and its arguments) in a box of
/// the kit's for them, an idle one or a new one: the loan, and the kit's
/// ends of the program's pipes. `told` hears, once, how the run ended
/// and whether the box is fit for another run (a runner that died in the
/// run: `SIGKILL`, and unfit).
///
/// # Errors
///
/// How the run ended before it began: [`Status::Unstarted`] if the kit
/// could not start it (a box that could not be built, or ended before
/// the run began), [`Status::CannotStart`] otherwise.
pub fn lend(
    kit: &Kit,
    words: Vec<OsString>,
    told: impl FnOnce(Status, bool) + Send + 'static,
) -> Result<(Lent, Ends), Status> {
    let boxed = match take(kit, &words) {
        Some(boxed) => boxed,
        None => Boxed::make(kit, words)?,
    };
    let unstarted = |e: io::Error| Status::Unstarted(format!("cannot give the box a run: {e}"));
    let pipe =
        || rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(io::Error::from);
    let ((stdin, feed), (out, stdout), (err, stderr)) = (|| Ok((pipe()?, pipe()?, pipe()?)))()
        .map_err(|e: io::Error| Status::Unstarted(format!("cannot make a pipe: {e}")))?;
    let fds = [stdin.as_fd(), stdout.as_fd(), stderr.as_fd()];
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(3))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    control.push(SendAncillaryMessage::ScmRights(&fds));
    rustix::net::sendmsg(
        &*boxed.socket,
        &[IoSlice::new(b"R")],
        &mut control,
        SendFlags::NOSIGNAL,
    )
    .map_err(|e| unstarted(e.into()))?;
    // The program's ends are the runner's now.
    drop((stdin, stdout, stderr));
    let socket = Arc::clone(&boxed.socket);
    std::thread::spawn(move || {
        let (status, fit) = hear(&socket);
        told(status, fit);
    });
    let lent = Lent {
        boxed,
        shelf: kit.boxes.clone(),
    };
    Ok((lent, (File::from(feed), File::from(out), File::from(err))))
}

/// What the runner says of a run on `socket`: how it ended, and whether
/// the box is fit for another.
fn hear(socket: &OwnedFd) -> (Status, bool) {
    let mut started = false;
    let mut said = [0u8; 4096];
    loop {
        match rustix::net::recv(socket, &mut said[..], RecvFlags::empty()) {
            Err(rustix::io::Errno::INTR) => {}
            // Nothing: the runner is gone.
            Ok((0, _)) | Err(_) => break,
            Ok((n, _)) if said[..n] == *STARTED => started = true,
            Ok((n, _)) => {
                let fit = said[0] == FIT;
                let line = std::str::from_utf8(&said[1..n]).ok();
                let status = line.and_then(Status::parse).unwrap_or_else(|| {
                    Status::CannotStart("the box's runner said nothing clear".to_owned())
                });
                return (status, fit);
            }
        }
    }
    // After the program started, the runner died in the run and took the
    // program with it; before, the box never ran it.
    if started {
        (
            Status::Signal(rustix::process::Signal::KILL.as_raw()),
            false,
        )
    } else {
        (
            Status::Unstarted("the box ended before the run began".to_owned()),
            false,
        )
    }
}

/// Starts `command` (bwrap) on a thread that lives as long as the kit:
/// bwrap's `--die-with-parent` is the parent death signal, which is sent
/// when the thread that started it ends, and a box outlives the run (and
/// the worker thread) that built it.
fn start_lasting(command: Command) -> io::Result<Child> {
    type Order = (Command, Sender<io::Result<Child>>);
    static STARTER: Mutex<Option<Sender<Order>>> = Mutex::new(None);
    let (answer, answered) = mpsc::channel();
    {
        let mut starter = STARTER.lock().unwrap_or_else(PoisonError::into_inner);
        let send = starter.get_or_insert_with(|| {
            let (send, orders) = mpsc::channel::<Order>();
            std::thread::spawn(move || {
                for (mut command, answer) in orders {
                    let _ = answer.send(reap::spawn(&mut command));
                }
            });
            send
        });
        send.send((command, answer))
            .map_err(|_| io::Error::other("the thread that starts boxes is gone"))?;
    }
    answered
        .recv()
        .map_err(|_| io::Error::other("the thread that starts boxes is gone"))?
}

/// Runs the runner (this program in a box, started by bwrap with
/// [`sandbox::RUNNER`] first and the launcher's arguments after it):
/// removes its copy, hides itself, sets the limits on itself, then runs
/// the program once per run the kit sends on stdin, until the kit closes
/// it or the box is to be retired. Its exit code: 0, or
/// the launcher's code for arguments it cannot read when it could not
/// begin.
pub fn runner(args: &[OsString]) -> u8 {
    let Some(mut launch) = launch::parse(args) else {
        return launch::BAD_LAUNCH;
    };
    // The runner starts the program itself: no bwrap, and no helper of
    // bwrap's among the processes it counts.
    launch.bwrap = None;
    let ready = std::fs::remove_file(Path::new(INNER_DIR).join(INNER_EXE))
        .and_then(|()| launch::hide_self())
        .is_ok()
        && launch::set_limits(&launch).is_ok();
    let me = rustix::process::getpid();
    let _ = rustix::process::set_child_subreaper(Some(me));
    let socket = rustix::io::fcntl_dupfd_cloexec(io::stdin(), 3);
    let (Ok(stop), Ok(socket), true) = (launch::stop_on_signals(), socket, ready) else {
        return launch::BAD_LAUNCH;
    };
    let Ok(mut box_was) = Plain::record(&launch.scratch) else {
        return launch::BAD_LAUNCH;
    };
    let me = me.as_raw_nonzero().get().unsigned_abs();
    while let Some(pipes) = receive(&socket) {
        let status = run_in_box(&launch, pipes, &socket, me, &stop);
        let fit = status != Status::Stopped && box_was.restore().is_ok() && fresh(&launch);
        let mut word = vec![if fit { FIT } else { RETIRED }];
        word.extend_from_slice(status.line().as_bytes());
        if rustix::net::send(&socket, &word, SendFlags::NOSIGNAL).is_err() || !fit {
            break;
        }
    }
    0
}

/// The program's three pipes, sent by the kit: `None` once the kit has
/// closed the socket (or sent something else).
fn receive(socket: &OwnedFd) -> Option<[OwnedFd; 3]> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(3))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let mut byte = [0u8; 1];
    loop {
        let got = rustix::net::recvmsg(
            socket,
            &mut [IoSliceMut::new(&mut byte)],
            &mut control,
            RecvFlags::CMSG_CLOEXEC,
        );
        match got {
            Err(rustix::io::Errno::INTR) => continue,
            Ok(got) if got.bytes == 1 => break,
            _ => return None,
        }
    }
    let mut fds = Vec::new();
    for message in control.drain() {
        if let RecvAncillaryMessage::ScmRights(rights) = message {
            fds.extend(rights);
        }
    }
    fds.try_into().ok()
}

/// One run in the box: starts the program with `pipes`, says it started,
/// watches it to its end, and kills every process of the run: how it
/// ended.
fn run_in_box(
    launch: &launch::Launch,
    [stdin, stdout, stderr]: [OwnedFd; 3],
    socket: &OwnedFd,
    me: u32,
    stop: &std::sync::atomic::AtomicBool,
) -> Status {
    let Some((name, rest)) = launch.program.split_first() else {
        return Status::CannotStart("no program given".to_owned());
    };
    let child = Command::new(name)
        .args(rest)
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::from(stderr))
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return launch::not_started(&name.to_string_lossy(), &e),
    };
    // Said before the watch: a runner that dies from here on died in the
    // program's run.
    let _ = rustix::net::send(socket, STARTED, SendFlags::NOSIGNAL);
    let status = launch::watch(launch, &mut child, me, stop);
    launch::kill_all(me, &mut child);
    status
}

/// Whether the box is as fresh as a new one, for what the runner cannot
/// undo: no System V IPC object left (the box has an IPC namespace of its
/// own, which outlives a run), and the runner has spent less than half
/// its CPU time (its own limit is the program's, and at the limit the
/// system would kill it in some run).
fn fresh(launch: &launch::Launch) -> bool {
    let empty = |table: &str| {
        std::fs::read_to_string(format!("/proc/sysvipc/{table}"))
            .is_ok_and(|text| text.lines().count() <= 1)
    };
    // User and system time, the 12th and 13th fields after the name, in
    // the hundredths of a second /proc always counts in.
    let spent = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|stat| {
            let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
            let mut next = || fields.next()?.parse::<u64>().ok();
            Some(next()? + next()?)
        });
    let half = launch.contain.cpu.saturating_mul(50);
    ["shm", "sem", "msg"].into_iter().all(empty) && spent.is_some_and(|ticks| ticks < half)
}

/// The box as bwrap built it, for [`Plain::restore`]: every path in the
/// folders a run may write to (the box's root, `/dev` with `/dev/shm`,
/// `/tmp`, the scratch folder, the runner's folder), and whether each is
/// a folder. Few: the folders bwrap made on its file systems to reach
/// what it bound there (the scratch folder, the program's folder or file,
/// which may be under `/tmp`). What is bound is not entered (another file
/// system, which a program cannot mount): it is bwrap's, or the scratch
/// folder, a root of its own here.
struct Plain {
    roots: Vec<PathBuf>,
    built: BTreeMap<PathBuf, bool>,
}

impl Plain {
    fn record(scratch: &Path) -> io::Result<Plain> {
        let roots = ["/", "/dev", "/tmp", INNER_DIR]
            .map(PathBuf::from)
            .into_iter()
            .chain([scratch.to_path_buf()])
            .collect();
        let mut plain = Plain {
            roots,
            built: BTreeMap::new(),
        };
        for root in plain.roots.clone() {
            plain.walk(&root, &mut |path, is_dir, built| {
                built.insert(path.to_path_buf(), is_dir);
                Ok(is_dir)
            })?;
        }
        Ok(plain)
    }

    /// Goes through `root` on its own file system, telling `each` of every
    /// path (whether it is a folder), and into the folders `each` says.
    fn walk(
        &mut self,
        root: &Path,
        each: &mut impl FnMut(&Path, bool, &mut BTreeMap<PathBuf, bool>) -> io::Result<bool>,
    ) -> io::Result<()> {
        use std::os::unix::fs::MetadataExt;
        let device = std::fs::symlink_metadata(root)?.dev();
        let mut folders = vec![root.to_path_buf()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder)? {
                let path = entry?.path();
                let meta = std::fs::symlink_metadata(&path)?;
                if meta.dev() != device {
                    continue;
                }
                if each(&path, meta.is_dir(), &mut self.built)? {
                    folders.push(path);
                }
            }
        }
        Ok(())
    }

    /// Puts the box back as bwrap built it: every file a run made, gone.
    ///
    /// # Errors
    ///
    /// A folder that could not be read or a file that could not be
    /// removed, or a folder bwrap made that is no longer one: the box is
    /// then retired.
    fn restore(&mut self) -> io::Result<()> {
        for root in self.roots.clone() {
            self.walk(&root, &mut |path, is_dir, built| match built.get(path) {
                Some(&was_dir) if was_dir == is_dir => Ok(is_dir),
                Some(_) => Err(io::Error::other("a folder of the box was replaced")),
                None if is_dir => std::fs::remove_dir_all(path).map(|()| false),
                None => std::fs::remove_file(path).map(|()| false),
            })?;
        }
        Ok(())
    }
}
