//! Running a program under test once: input on stdin, stdout kept, with a
//! time limit and an output cap, so no program can hang the kit or fill
//! its memory.
//!
//! No deadlock whatever the program does: stdin is written, and stdout
//! and stderr are read, each on a thread of its own, so a program that
//! writes before it reads, or never reads at all, never blocks the others.
//! A program that stops reading early (after `term`) makes the writer get
//! `EPIPE`, which is expected and ignored.
//!
//! A run ends when the program exits (or is killed), not when its stdout
//! closes. On Unix each program runs in a process group of its own, and
//! when the run ends the whole group is killed: a program that started
//! children (a shell script, `sleep 60 &`) leaves none behind to pile
//! up, and none can hold the pipes open; what was written before is kept.
//! A program still running at the end (killed at a limit) takes with it
//! every process below it, whatever group or session each moved to
//! ([`reap::kill_tree`]): a program that runs programs as the kit does,
//! each in a group of its own (a test binary checked as this program
//! runs the kit's tests), leaves none of them running either. Run
//! directly, that is all: a process that left the group and whose parent
//! had already exited (a daemon) is beyond reach; contained, the launcher
//! is its subreaper and kills it.
//!
//! Given a [`Kit`] (the `gomoku-mist` binary makes one) the program is
//! contained: it runs through the launcher ([`super::launch`]) with the
//! limits, in a scratch folder of its own (its working folder, `HOME` and
//! `TMPDIR`, removed after the run), with only `PATH`, `LANG`, `HOME` and
//! `TMPDIR` set. Its program is found on the kit's `PATH` and it and the
//! arguments that name existing files are made absolute first, since it
//! no longer runs where the kit was started (and in the box only their
//! folders are there). Without a kit (the kit's own tests) the program is
//! run directly, as it is. A run may also leave a file (a tool's log) to
//! read back ([`How::read`]), start from files copied into its folder
//! ([`How::seed`]) and leave one the kit keeps ([`How::keep`]): that is
//! how a compiler builds a student's program, contained like the program
//! itself, with limits of its own ([`How::contain`]). A plain run (none
//! of these) under bwrap runs in a box kept for its program and reused
//! ([`super::boxes`]): the scratch folder is then the box's, emptied
//! between runs, and the box's runner, not a launcher per run, starts
//! and watches the program. A run the kit could
//! not start (no process to be had, for a moment) is tried again, then
//! reported as [`End::Unstarted`], never as the program's failure.

use std::ffi::OsString;
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

#[cfg(target_os = "linux")]
use super::boxes;
use super::reap;
use super::room::Room;
use super::sandbox::{self, Kit, Overrun, Status};

/// How much of stderr is kept, to show why a program crashed.
const STDERR_KEPT: usize = 4096;

/// After a kill, how long to wait for the pipes to close.
const GRACE: Duration = Duration::from_secs(1);

/// What a run may use: its time and its output (the box sets the rest).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Killed if still running after this long.
    pub timeout: Duration,
    /// Killed once it has written more than this many bytes on stdout.
    pub cap: usize,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// It exited with this code.
    Code(i32),
    /// This signal ended it (a crash, on Unix): [`signal_name`] names it.
    Signal(i32),
    /// It went over one of the limits it runs under, and was killed.
    OverLimit(Overrun),
    /// It was still running at the time limit, and was killed.
    TimedOut(Duration),
    /// It wrote more than the cap on stdout, and was killed.
    TooMuchOutput(usize),
    /// It could not be started.
    CannotStart(String),
    /// The kit could not start it, even after a few tries (no process, no
    /// memory or no namespace to be had): the machine's state, not the
    /// program's doing, so no verdict on the program.
    Unstarted(String),
}

/// What one run produced.
#[derive(Clone, Debug)]
pub struct Ran {
    /// Its stdout (up to the cap, if it went over).
    pub stdout: Vec<u8>,
    /// The start of its stderr, shown to explain a crash.
    pub stderr: Vec<u8>,
    /// How it ended.
    pub end: End,
    /// How long it took, from start to end.
    pub took: Duration,
}

enum Event {
    Stdout(Vec<u8>, bool),
    Stderr(Vec<u8>),
    /// A box's runner said how the run ended, and whether the box is fit
    /// for another.
    Ended(Status, bool),
}

/// How a run is made, besides its limits: [`run`] gives the default,
/// contained where the kit installed a containment.
#[derive(Clone, Copy, Debug, Default)]
pub struct How<'a> {
    /// The working folder of a run made directly (contained, it is the
    /// run's scratch folder).
    pub dir: Option<&'a Path>,
    /// A file, named in the run's working folder, read back once the run
    /// is over (a tool's log), before that folder is removed.
    pub read: Option<&'a str>,
    /// A folder whose plain files are copied into the run's working
    /// folder before it starts, readable by the run's user (a compiler's
    /// sources). Run directly, the run works in this folder unless
    /// [`How::dir`] says otherwise.
    pub seed: Option<&'a Path>,
    /// A file the run makes in its working folder (a compiler's program),
    /// moved to the path given once the run is over: only a plain file
    /// with no other link, then owned by the kit's user and closed to
    /// others' writes, so that the run's user cannot change it later.
    pub keep: Option<(&'a str, &'a Path)>,
    /// Limits instead of the kit's (a compiler needs more memory and
    /// larger files than a program under test).
    pub contain: Option<&'a sandbox::Contain>,
}

/// The most of a file read back ([`How::read`]) that is kept.
const READ_KEPT: u64 = 1 << 20;

/// Runs `command` (a program, then its arguments) with `extra` arguments
/// after them, `input` on stdin, contained by `kit` (`None`: directly, as
/// the kit's own tests run the reference).
pub fn run(
    kit: Option<&Kit>,
    command: &[OsString],
    extra: &[OsString],
    input: &[u8],
    limits: Budget,
) -> Ran {
    run_as(kit, command, extra, input, limits, How::default()).0
}

/// How many times a run the kit could not start is tried again, and the
/// first pause before it (each pause four times the last).
const RETRIES: u32 = 3;
const FIRST_PAUSE: Duration = Duration::from_millis(50);

/// Runs as [`run`] does, made as `how` says: the run, and the file it
/// asks to read back, if it is there (a plain file: a link the program
/// left is not followed). A run the kit itself could not start (another
/// run had taken every process there was, for a moment) is tried again a
/// few times before it is reported as [`End::Unstarted`].
pub fn run_as(
    kit: Option<&Kit>,
    command: &[OsString],
    extra: &[OsString],
    input: &[u8],
    limits: Budget,
    how: How<'_>,
) -> (Ran, Option<Vec<u8>>) {
    let mut pause = FIRST_PAUSE;
    let mut tries = 0;
    loop {
        let (ran, read) = run_once(kit, command, extra, input, limits, how);
        if !matches!(ran.end, End::Unstarted(_)) || tries == RETRIES {
            return (ran, read);
        }
        tries += 1;
        thread::sleep(pause);
        pause = pause.saturating_mul(4);
    }
}

fn run_once(
    kit: Option<&Kit>,
    command: &[OsString],
    extra: &[OsString],
    input: &[u8],
    limits: Budget,
    how: How<'_>,
) -> (Ran, Option<Vec<u8>>) {
    let start = Instant::now();
    let ran = |stdout: Option<Vec<u8>>, stderr: Option<Vec<u8>>, end, took| Ran {
        stdout: stdout.unwrap_or_default(),
        stderr: stderr.unwrap_or_default(),
        end,
        took,
    };
    #[cfg(target_os = "linux")]
    if let Some(kit) = kit.filter(|kit| kit.bwrap.is_some() && plain(how)) {
        return (run_boxed(kit, command, extra, input, limits), None);
    }
    let (room, mut child) = match spawn(kit, command, extra, how) {
        Ok(started) => started,
        Err(end) => return (ran(None, None, end, start.elapsed()), None),
    };
    let mut pipes = Pipes::new();
    pipes.start(
        child.stdin.take(),
        child.stdout.take(),
        child.stderr.take(),
        input,
        limits.cap,
    );
    let end = pipes.await_end(limits, start, || match child.try_wait() {
        Ok(Some(status)) => Some(ended(status, room.as_ref())),
        Ok(None) => None,
        Err(e) => Some(End::CannotStart(format!("cannot wait for it: {e}"))),
    });
    let took = start.elapsed();
    // Whatever the program started dies with it, whether it exited or
    // was killed: no process is left behind, and its pipes close.
    kill(&mut child);
    if kit.is_some() {
        reap::hold();
        reap::forget(child.id());
        reap::sweep();
    }
    let read = take_files(room, how, kit);
    let end = pipes.drain(end, limits.cap);
    (ran(pipes.stdout, pipes.stderr, end, took), read)
}

/// Whether a run is made as [`run`] makes it: the kit's limits, in a
/// scratch folder of its own with nothing sown, kept or read back. Such
/// runs of one program share a box ([`boxes`]).
#[cfg(target_os = "linux")]
fn plain(how: How<'_>) -> bool {
    how.dir.is_none()
        && how.read.is_none()
        && how.seed.is_none()
        && how.keep.is_none()
        && how.contain.is_none()
}

/// Runs `command` with `extra` after it, `input` on stdin, in a box of
/// the kit's for it, made once and lent to one run at a time
/// ([`boxes::lend`]). Its stdout and stderr are read as a child's are;
/// its end is what the box's runner says. A run the kit stops (at its
/// time limit or its output cap) is stopped with its box, which is not
/// lent again.
#[cfg(target_os = "linux")]
fn run_boxed(
    kit: &Kit,
    command: &[OsString],
    extra: &[OsString],
    input: &[u8],
    limits: Budget,
) -> Ran {
    let start = Instant::now();
    let unrun = |end| Ran {
        stdout: Vec::new(),
        stderr: Vec::new(),
        end,
        took: start.elapsed(),
    };
    let Some((program, args)) = command.split_first() else {
        return unrun(End::CannotStart("no program given".to_owned()));
    };
    if let Some(why) = sandbox::cannot_start(program) {
        return unrun(End::CannotStart(why));
    }
    let mut pipes = Pipes::new();
    let send = pipes.send.clone();
    let lent = boxes::lend(
        kit,
        words(program, args, extra, false),
        move |status, fit| {
            let _ = send.send(Event::Ended(status, fit));
        },
    );
    let (lent, (stdin, stdout, stderr)) = match lent {
        Ok(lent) => lent,
        Err(status) => return unrun(told(status)),
    };
    pipes.start(Some(stdin), Some(stdout), Some(stderr), input, limits.cap);
    let end = pipes.await_end(limits, start, || None);
    let took = start.elapsed();
    // A stopped kit reports nothing: the box was killed by the stop.
    reap::hold();
    // Unfit, or stopped by the kit, the box is killed here, the run's
    // processes with it, and its pipes close.
    lent.finish(pipes.fit);
    let end = pipes.drain(end, limits.cap);
    Ran {
        stdout: pipes.stdout.unwrap_or_default(),
        stderr: pipes.stderr.unwrap_or_default(),
        end,
        took,
    }
}

/// Starts `command` with `extra` after it, as `how` says: contained in a
/// room of its own when there is a `kit`, with its pipes and in a process
/// group of its own. Or how it ended before it began.
fn spawn(
    kit: Option<&Kit>,
    command: &[OsString],
    extra: &[OsString],
    how: How<'_>,
) -> Result<(Option<Room>, Child), End> {
    let Some((program, args)) = command.split_first() else {
        return Err(End::CannotStart("no program given".to_owned()));
    };
    let room = (kit.map(|kit| Room::new(kit, how.seed)).transpose())
        .map_err(|e| End::CannotStart(format!("cannot make its scratch folder: {e}")))?;
    if let Some(why) = room.as_ref().and_then(|_| sandbox::cannot_start(program)) {
        return Err(End::CannotStart(why));
    }
    let mut command = match (&room, kit) {
        (Some(room), Some(kit)) => {
            let words = words(program, args, extra, how.seed.is_some());
            room.command(kit, words, how.contain.unwrap_or(&kit.contain))
        }
        _ => {
            let mut command = Command::new(program);
            command.args(args).args(extra);
            if let Some(dir) = how.dir.or(how.seed) {
                command.current_dir(dir);
            }
            command
        }
    };
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    // Under the kit's guard every child is counted, contained or not:
    // one not counted would be swept as a leftover by another run.
    let spawned = match kit {
        Some(_) => reap::spawn(&mut command),
        None => command.spawn(),
    };
    let contained = room.is_some();
    spawned.map(|child| (room, child)).map_err(|e| {
        let why = format!("{}: {e}", program.to_string_lossy());
        // Contained, what is started is the launcher, this program: no
        // process or memory for it is the machine's state.
        if contained && sandbox::exhausted(&e) {
            End::Unstarted(why)
        } else {
            End::CannotStart(why)
        }
    })
}

/// Reads back and keeps the files `how` names in the run's working
/// folder, then removes the `room`: the file read back.
fn take_files(room: Option<Room>, how: How<'_>, kit: Option<&Kit>) -> Option<Vec<u8>> {
    let scratch = room.as_ref().map(|r| r.scratch.as_path());
    let worked_in = scratch.or(how.dir).or(how.seed);
    let read = how.read.and_then(|name| read_back(&worked_in?.join(name)));
    if let (Some((name, to)), Some(dir)) = (how.keep, worked_in) {
        keep(&dir.join(name), to, kit);
    }
    read
}

/// The start of the plain file `path`, if it is one: the program that
/// could write there is gone, so what is checked is what is read.
fn read_back(path: &Path) -> Option<Vec<u8>> {
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let mut kept = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(READ_KEPT)
        .read_to_end(&mut kept)
        .ok()?;
    Some(kept)
}

/// Moves the plain file `from`, if it is one with no other link, to `to`,
/// owned by the kit's user and writable by it alone, readable by the
/// kit's runs alone ([`Kit::share`]); else leaves no file at `to`. The
/// program that made it is gone: what is kept is what was checked.
fn keep(from: &Path, to: &Path, kit: Option<&Kit>) {
    if from == to {
        return;
    }
    let _ = std::fs::remove_file(to);
    let plain = std::fs::symlink_metadata(from).is_ok_and(|m| {
        #[cfg(unix)]
        let single = std::os::unix::fs::MetadataExt::nlink(&m) == 1;
        #[cfg(not(unix))]
        let single = true;
        m.is_file() && single
    });
    if !plain {
        return;
    }
    let moved = std::fs::rename(from, to).is_ok()
        || (std::fs::copy(from, to).is_ok() && std::fs::remove_file(from).is_ok());
    if !moved {
        let _ = std::fs::remove_file(to);
        return;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let own = (
            rustix::process::geteuid().as_raw(),
            rustix::process::getegid().as_raw(),
        );
        let owned = std::os::unix::fs::lchown(to, Some(own.0), Some(own.1)).is_ok()
            && match kit {
                Some(kit) => kit.share(to).is_ok(),
                None => {
                    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755)).is_ok()
                }
            };
        if !owned {
            let _ = std::fs::remove_file(to);
        }
    }
}

/// How a run ended, from its exit status, or, run through the launcher,
/// from the status it wrote.
fn ended(status: std::process::ExitStatus, room: Option<&Room>) -> End {
    if let Some(room) = room {
        let written = std::fs::read_to_string(&room.status).ok();
        if let Some(status) = written.as_deref().and_then(Status::parse) {
            return told(status);
        }
    }
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return End::Signal(signal);
    }
    status.code().map_or(End::Signal(0), End::Code)
}

/// How a run ended, from what its launcher (or runner) said.
fn told(status: Status) -> End {
    match status {
        Status::Code(code) => End::Code(code),
        Status::Signal(signal) => End::Signal(signal),
        Status::Over(overrun) => End::OverLimit(overrun),
        Status::CannotStart(why) => End::CannotStart(why),
        Status::Unstarted(why) => End::Unstarted(why),
        Status::Stopped => End::CannotStart("stopped".to_owned()),
    }
}

/// The name of signal `number`, as `kill -l` gives it (`SIGSEGV`), or
/// `signal N` for one without a name here.
pub fn signal_name(number: i32) -> String {
    #[cfg(unix)]
    {
        use rustix::process::Signal;
        let named = [
            (Signal::HUP, "SIGHUP"),
            (Signal::INT, "SIGINT"),
            (Signal::QUIT, "SIGQUIT"),
            (Signal::ILL, "SIGILL"),
            (Signal::TRAP, "SIGTRAP"),
            (Signal::ABORT, "SIGABRT"),
            (Signal::BUS, "SIGBUS"),
            (Signal::FPE, "SIGFPE"),
            (Signal::KILL, "SIGKILL"),
            (Signal::USR1, "SIGUSR1"),
            (Signal::SEGV, "SIGSEGV"),
            (Signal::USR2, "SIGUSR2"),
            (Signal::PIPE, "SIGPIPE"),
            (Signal::ALARM, "SIGALRM"),
            (Signal::TERM, "SIGTERM"),
            (Signal::XCPU, "SIGXCPU"),
            (Signal::XFSZ, "SIGXFSZ"),
            (Signal::SYS, "SIGSYS"),
        ];
        if let Some((_, name)) = named.iter().find(|(s, _)| s.as_raw() == number) {
            return (*name).to_owned();
        }
    }
    format!("signal {number}")
}

/// The words a contained run starts, `program`, `args` and `extra`: the
/// program found as the kit finds it, on its own PATH (in the box only
/// the folder of the program named by its full path is there), and an
/// argument that names a file where the kit was started made to mean
/// that file, since the program runs elsewhere. Not so for a run on
/// files sown into its folder (`seeded`: a compiler's), whose names are
/// those files'.
fn words(program: &OsString, args: &[OsString], extra: &[OsString], seeded: bool) -> Vec<OsString> {
    let program =
        sandbox::find_program(program).map_or_else(|| program.clone(), PathBuf::into_os_string);
    let args = args.iter().map(|arg| {
        let path = Path::new(arg);
        if !seeded && !arg.to_string_lossy().starts_with('-') && path.exists() {
            sandbox::absolute(path).into_os_string()
        } else {
            arg.clone()
        }
    });
    std::iter::once(program)
        .chain(args)
        .chain(extra.iter().cloned())
        .collect()
}

/// A run's pipes: the threads that feed stdin and drain stdout and
/// stderr, and what the two brought, once they did; and for a run in a
/// box, what its runner said.
struct Pipes {
    send: Sender<Event>,
    events: Receiver<Event>,
    stdout: Option<Vec<u8>>,
    stderr: Option<Vec<u8>>,
    /// Whether the box a run was lent is fit for another run.
    fit: bool,
}

impl Pipes {
    fn new() -> Pipes {
        let (send, events) = mpsc::channel();
        Pipes {
            send,
            events,
            stdout: None,
            stderr: None,
            fit: false,
        }
    }

    /// Starts the threads: `input` fed to `stdin`, `stdout` (up to `cap`)
    /// and `stderr` read.
    fn start(
        &mut self,
        stdin: Option<impl Write + Send + 'static>,
        stdout: Option<impl Read + Send + 'static>,
        stderr: Option<impl Read + Send + 'static>,
        input: &[u8],
        cap: usize,
    ) {
        if let Some(mut stdin) = stdin {
            let input: Arc<[u8]> = Arc::from(input);
            thread::spawn(move || {
                // A program may stop reading at any time: EPIPE is expected.
                let _ = stdin.write_all(&input);
            });
        }
        if let Some(pipe) = stdout {
            let send = self.send.clone();
            thread::spawn(move || {
                let (bytes, cut) = read_capped(pipe, cap, false);
                let _ = send.send(Event::Stdout(bytes, cut));
            });
        }
        if let Some(pipe) = stderr {
            let send = self.send.clone();
            thread::spawn(move || {
                let (bytes, _) = read_capped(pipe, STDERR_KEPT, true);
                let _ = send.send(Event::Stderr(bytes));
            });
        }
    }

    /// Keeps what `event` brought: whether it is stdout, cut at the cap.
    fn hear(&mut self, event: Event) -> bool {
        let (kept, bytes, cut) = match event {
            Event::Stdout(bytes, cut) => (&mut self.stdout, bytes, cut),
            Event::Stderr(bytes) => (&mut self.stderr, bytes, false),
            Event::Ended(..) => return false,
        };
        *kept = Some(bytes);
        cut
    }

    /// Waits for the program to end within `limits`, hearing the pipes
    /// meanwhile: how it ended, as `ended` tells (a child's exit) or its
    /// box's runner said.
    fn await_end(
        &mut self,
        limits: Budget,
        start: Instant,
        mut ended: impl FnMut() -> Option<End>,
    ) -> End {
        // The options refuse timeouts this large; `None` (no deadline) only
        // keeps an absurd one from panicking.
        let deadline = start.checked_add(limits.timeout);
        // The run ends when the program exits, not when its stdout closes: a
        // child it left behind may hold stdout open for as long as it likes.
        let mut pause = Duration::from_micros(50);
        loop {
            if let Some(end) = ended() {
                return end;
            }
            let now = Instant::now();
            if deadline.is_some_and(|d| now >= d) {
                return End::TimedOut(limits.timeout);
            }
            let wait = deadline.map_or(pause, |d| pause.min(d - now));
            match self.events.recv_timeout(wait) {
                Ok(Event::Ended(status, fit)) => {
                    self.fit = fit;
                    return told(status);
                }
                Ok(event) => {
                    if self.hear(event) {
                        return End::TooMuchOutput(limits.cap);
                    }
                }
                Err(gone) => {
                    // Both readers are done: only the exit is awaited.
                    if gone == RecvTimeoutError::Disconnected {
                        thread::sleep(wait);
                    }
                    pause = (pause * 2).min(Duration::from_millis(5));
                }
            }
        }
    }

    /// Hears, for a [`GRACE`] at most, what the pipes still bring once the
    /// program ended as `end`: how it ended, all told.
    fn drain(&mut self, mut end: End, cap: usize) -> End {
        let grace = Instant::now() + GRACE;
        while self.stdout.is_none() || self.stderr.is_none() {
            let left = grace.saturating_duration_since(Instant::now());
            let Ok(event) = self.events.recv_timeout(left) else {
                break;
            };
            // Reaching the cap closes the pipe, and a program whose write
            // then fails may exit before [`Pipes::await_end`] heard of the
            // cap: it still wrote too much.
            if self.hear(event) && matches!(end, End::Code(_) | End::Signal(_)) {
                end = End::TooMuchOutput(cap);
            }
        }
        end
    }
}

/// Reads `pipe` to its end or until more than `cap` bytes came (then the
/// bytes are cut at `cap` and the flag is set). With `drain`, reading goes
/// on to the end but keeps nothing past the cap: stderr is only shown, and
/// closing it early could make the program fail in a new way. A read error
/// ends it too.
fn read_capped(mut pipe: impl Read, cap: usize, drain: bool) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut chunk = vec![0; 64 * 1024];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => return (kept, false),
            Ok(n) => {
                let room = cap.saturating_sub(kept.len()).min(n);
                kept.extend_from_slice(&chunk[..room]);
                if room < n && !drain {
                    return (kept, true);
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return (kept, false),
        }
    }
}

fn kill(child: &mut Child) {
    // Still running (killed at a limit), the program may have started
    // processes that left its group: they die with it, all of them
    // stopped first so that none is orphaned out of reach. Once it has
    // exited (and been reaped) what it left is no longer below it.
    #[cfg(unix)]
    if matches!(child.try_wait(), Ok(None)) {
        reap::kill_tree(child.id());
    }
    // The group is the child's own (its id is the child's), so this ends
    // whatever it started too. Any of them may have exited already: then
    // there is nothing to kill. The group's id is not reused while any of
    // it lives, so this reaches only what the program started.
    #[cfg(unix)]
    if let Some(group) = i32::try_from(child.id())
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn sh(script: &str) -> Vec<OsString> {
        ["sh", "-c", script].map(OsString::from).to_vec()
    }

    fn limits(timeout: Duration) -> Budget {
        Budget { timeout, cap: 1024 }
    }

    /// A folder of the test's own, made afresh.
    fn folder(name: &str) -> PathBuf {
        let id = std::process::id();
        let dir = std::env::temp_dir().join(format!("gomoku-mist-test-run-{id}-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("make a folder");
        dir
    }

    #[test]
    fn signals_are_named_as_kill_names_them() {
        let named: Vec<String> = [6, 9, 11, 15, 24, 25, 64].map(signal_name).to_vec();
        assert_eq!(
            named,
            [
                "SIGABRT",
                "SIGKILL",
                "SIGSEGV",
                "SIGTERM",
                "SIGXCPU",
                "SIGXFSZ",
                "signal 64"
            ]
        );
    }

    #[test]
    fn a_timeout_past_the_clock_means_no_deadline() {
        let ran = run(None, &sh("echo hi"), &[], b"", limits(Duration::MAX));
        assert_eq!((ran.end, ran.stdout), (End::Code(0), b"hi\n".to_vec()));
    }

    /// Whether the child whose id a script wrote in `dir`'s `pid` ends
    /// within ten seconds (generous, since only the effect of a kill
    /// already sent is awaited), with the id; removes `dir`.
    #[cfg(target_os = "linux")]
    fn child_ends_soon(dir: &Path) -> (bool, String) {
        let pid =
            std::fs::read_to_string(dir.join("pid")).expect("the script wrote its child's id");
        let pid = pid.trim();
        let until = Instant::now() + Duration::from_secs(10);
        while !ended(pid) && Instant::now() < until {
            thread::sleep(Duration::from_millis(20));
        }
        let _ = std::fs::remove_dir_all(dir);
        (ended(pid), pid.to_owned())
    }

    /// Whether process `pid` is gone or only a zombie left for its
    /// parent to reap (a killed process, as far as running goes).
    #[cfg(target_os = "linux")]
    fn ended(pid: &str) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            // The state follows the parenthesised name.
            Ok(stat) => stat
                .rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_program_that_exits_leaving_a_child_on_stdout_loses_no_output() {
        let dir = folder("exit");
        let script = format!(
            "sleep 60 & echo $! > '{}/pid'; echo B; exit 1",
            dir.display()
        );
        let limits = limits(Duration::from_secs(30));
        let ran = run(None, &sh(&script), &[], b"who\n", limits);
        assert_eq!((ran.end, ran.stdout), (End::Code(1), b"B\n".to_vec()));
        assert!(
            ran.took < Duration::from_secs(30),
            "the run waited for the child"
        );
        let (gone, pid) = child_ends_soon(&dir);
        assert!(gone, "the program's child {pid} was left behind");
    }

    #[test]
    fn a_file_is_read_back_from_the_working_folder_but_never_through_a_link() {
        let dir = folder("read");
        let limits = limits(Duration::from_secs(30));
        let read = |name: &str| {
            let how = How {
                dir: Some(&dir),
                read: Some(name),
                ..How::default()
            };
            let script = "echo kept > log; ln -s log link";
            run_as(None, &sh(script), &[], b"", limits, how).1
        };
        let (log, link) = (read("log"), read("link"));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(log, Some(b"kept\n".to_vec()));
        assert_eq!(link, None, "a link was followed");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_kill_ends_what_the_program_started() {
        let dir = folder("kill");
        // The grandchild holds stdout open, as a program's own child would.
        let script = format!("sleep 300 & echo $! > '{}/pid'; wait", dir.display());
        let limits = limits(Duration::from_millis(300));
        let ran = run(None, &sh(&script), &[], b"", limits);
        assert_eq!(ran.end, End::TimedOut(limits.timeout));
        let (gone, pid) = child_ends_soon(&dir);
        assert!(gone, "the program's child {pid} outlived the kill");
    }

    #[test]
    fn a_plain_file_is_kept_closed_to_others_writes() {
        let dir = folder("plain");
        let (from, to) = (dir.join("built"), dir.join("kept"));
        std::fs::write(&from, b"program").expect("write");
        std::fs::set_permissions(&from, std::fs::Permissions::from_mode(0o777)).expect("mode");
        keep(&from, &to, None);
        let mode = std::fs::metadata(&to).map(|m| m.permissions().mode() & 0o777);
        let kept = std::fs::read(&to).ok();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(kept.as_deref(), Some(&b"program"[..]));
        assert_eq!(mode.ok(), Some(0o755));
    }

    #[test]
    fn a_link_or_a_file_with_another_name_is_not_kept() {
        let dir = folder("links");
        let elsewhere = dir.join("elsewhere");
        std::fs::write(&elsewhere, b"not the program's").expect("write");
        let (symbolic, hard, to) = (dir.join("symbolic"), dir.join("hard"), dir.join("kept"));
        std::os::unix::fs::symlink(&elsewhere, &symbolic).expect("symlink");
        std::fs::hard_link(&elsewhere, &hard).expect("hard link");
        std::fs::write(&to, b"stale").expect("write");
        keep(&symbolic, &to, None);
        let after_symbolic = to.exists();
        keep(&hard, &to, None);
        let after_hard = to.exists();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!after_symbolic, "a symbolic link was kept");
        assert!(!after_hard, "a file with a second name was kept");
    }
}
