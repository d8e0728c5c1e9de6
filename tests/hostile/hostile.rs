//! Programs a marking tool must contain, one per first argument, for the
//! conformance kit's tests: each does one thing a student's program (by
//! mistake or on purpose) could do to the machine that marks it. The
//! kit must stop it, tell what it did, and leave nothing behind.
//!
//! Every process one of them starts gets the same arguments after the
//! mode, so a test finds them all by a token it passes (in
//! `/proc/*/cmdline`), whoever their parent is by then.

#![forbid(unsafe_code)]

use std::io::{self, Read, Write};
use std::net::TcpListener;
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rest = args.get(1..).unwrap_or_default();
    match args.first().map(String::as_str) {
        Some("alloc") => alloc(),
        Some("fork") => fork(rest),
        Some("setsid") => setsid(rest),
        Some("daemon") => daemon(rest),
        Some("group") => group(rest),
        Some("sleep") => sleep(),
        Some("files") => files(),
        Some("env") => env(rest),
        Some("listen") => listen(rest),
        Some("ignore-term") => ignore_term(rest),
        Some("stderr") => stderr(),
        Some("read") => read(rest),
        Some("cpu") => cpu(),
        Some("fds") => fds(),
        Some("crash") => crash(),
        Some("search") => search(rest),
        _ => {
            let _ = writeln!(
                io::stderr(),
                "usage: hostile alloc|fork|setsid|group|sleep|files|env NAME|listen PORT|\
                 ignore-term|stderr|read PATH|cpu|fds|crash|search TOKEN... [TOKEN]"
            );
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

/// Touches 3 GiB, a byte a page (every byte, in fact).
fn alloc() {
    let block = vec![1u8; 3 << 30];
    let sum: u64 = block.iter().step_by(4096).map(|&b| u64::from(b)).sum();
    println!("touched {sum} pages");
    let _ = io::stdin().read_to_end(&mut Vec::new());
}

/// Starts `hostile MODE rest...` as a child of this process.
fn spawn(mode: &str, rest: &[String], own_session: bool) -> io::Result<std::process::Child> {
    let me = std::env::current_exe()?;
    let mut command = if own_session && has_setsid() {
        let mut c = Command::new("setsid");
        c.arg(&me);
        c
    } else {
        Command::new(&me)
    };
    if own_session && !has_setsid() {
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
    }
    command
        .arg(mode)
        .args(rest)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
}

fn has_setsid() -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join("setsid").is_file()))
}

/// A hundred children that sleep, then sleeps itself.
fn fork(rest: &[String]) {
    let mut started = 0;
    for _ in 0..100 {
        match spawn("sleep", rest, false) {
            Ok(_) => started += 1,
            Err(e) => {
                println!("fork failed after {started}: {e}");
                break;
            }
        }
    }
    println!("started {started}");
    let _ = io::stdout().flush();
    sleep();
}

/// Children in sessions of their own (out of reach of a group kill), and a
/// daemon that leaves an orphan, then exits at once.
fn setsid(rest: &[String]) {
    for _ in 0..3 {
        let _ = spawn("sleep", rest, true);
    }
    let _ = spawn("daemon", rest, true).map(|mut c| c.wait());
    println!("escaped");
}

/// Starts a sleeper and exits, so the sleeper is orphaned.
fn daemon(rest: &[String]) {
    let _ = spawn("sleep", rest, true);
}

/// A child in a process group of its own (as the kit starts each run:
/// a program that runs the kit does this), then sleeps itself, until the
/// run's time is up: the child is out of reach of a kill of the run's
/// group, and its parent is killed, not gone on its own.
fn group(rest: &[String]) {
    let me = std::env::current_exe();
    let child = me.and_then(|me| {
        let mut command = Command::new(me);
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        command
            .arg("sleep")
            .args(rest)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
    });
    match child {
        Ok(_) => println!("started"),
        Err(e) => println!("cannot start a child: {e}"),
    }
    let _ = io::stdout().flush();
    sleep();
}

fn sleep() {
    let until = Instant::now() + Duration::from_secs(300);
    while Instant::now() < until {
        std::thread::sleep(Duration::from_secs(1));
    }
}

/// A thousand files here and in the temporary folder, then one of 100 MiB.
fn files() {
    let mut made = 0;
    for i in 0..1000 {
        let here = std::fs::write(format!("hostile-{i}"), b"x").is_ok();
        let tmp = std::fs::write(std::env::temp_dir().join(format!("hostile-{i}")), b"x").is_ok();
        made += usize::from(here) + usize::from(tmp);
    }
    println!("made {made} files");
    let chunk = vec![b'x'; 1 << 20];
    let mut written = 0;
    match std::fs::File::create("hostile-big") {
        Ok(mut file) => {
            for _ in 0..100 {
                if let Err(e) = file.write_all(&chunk) {
                    println!("big file: {e}");
                    break;
                }
                written += chunk.len();
            }
        }
        Err(e) => println!("big file: {e}"),
    }
    println!("wrote {written} bytes");
}

/// Prints the variable named first (or that it is unset), then all.
fn env(rest: &[String]) {
    let name = rest.first().map_or("SECRET", String::as_str);
    match std::env::var(name) {
        Ok(value) => println!("{name}={value}"),
        Err(_) => println!("{name} unset"),
    }
    for (key, value) in std::env::vars_os() {
        println!("{}={}", key.to_string_lossy(), value.to_string_lossy());
    }
}

/// Listens on the loopback port given, for up to a minute: prints
/// `reached` if anyone connects.
/// What `listen` writes to whoever reaches it.
const LISTENER_SAYS: &[u8] = b"hostile listener\n";

fn listen(rest: &[String]) {
    let port = rest.first().map_or("0", String::as_str);
    let listener = match TcpListener::bind(format!("127.0.0.1:{port}")) {
        Ok(l) => l,
        Err(e) => {
            println!("cannot listen: {e}");
            return;
        }
    };
    println!("listening");
    let _ = io::stdout().flush();
    let _ = listener.set_nonblocking(true);
    let until = Instant::now() + Duration::from_secs(60);
    while Instant::now() < until {
        if let Ok((mut stream, _)) = listener.accept() {
            // The knocker's proof that it reached this program, and not
            // whatever else may have the port since.
            let _ = stream.write_all(LISTENER_SAYS);
            println!("reached");
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Ignores SIGTERM, SIGINT and SIGHUP, with a child that does the same.
fn ignore_term(rest: &[String]) {
    let flag = Arc::new(AtomicBool::new(false));
    for signal in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGHUP,
    ] {
        let _ = signal_hook::flag::register(signal, Arc::clone(&flag));
    }
    if !rest.iter().any(|a| a == "child") {
        let mut rest = rest.to_vec();
        rest.push("child".to_owned());
        let _ = spawn("ignore-term", &rest, false);
    }
    sleep();
}

/// 200 MB on stderr.
fn stderr() {
    let chunk = vec![b'e'; 1 << 16];
    let mut err = io::stderr().lock();
    for _ in 0..(200_000_000 / chunk.len()) {
        if err.write_all(&chunk).is_err() {
            break;
        }
    }
    println!("done");
}

fn read(rest: &[String]) {
    let path = rest.first().map_or("/etc/shadow", String::as_str);
    match std::fs::read_to_string(path) {
        Ok(text) => print!("{text}"),
        Err(e) => println!("cannot read {path}: {e}"),
    }
}

fn cpu() {
    let mut x: u64 = 1;
    loop {
        x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
    }
}

/// Opens files until it cannot.
fn fds() {
    let mut open = Vec::new();
    for _ in 0..100_000 {
        match std::fs::File::open("/dev/null") {
            Ok(f) => open.push(f),
            Err(e) => {
                println!("opened {} files, then: {e}", open.len());
                return;
            }
        }
    }
    println!("opened {} files", open.len());
}

/// Dies of SIGABRT.
fn crash() {
    std::process::abort();
}

/// Looks through the whole file system it can see (but `/proc`, `/sys`
/// and `/dev`) for files whose name holds one of the words given (or is,
/// for a word `=NAME`), as a
/// program would that looks for the marker's suite to print the `.out`
/// beside its input, or for a classmate's program to copy; prints each
/// path found (or that none was) and how many files it read through.
fn search(words: &[String]) {
    let mut found = Vec::new();
    let mut seen = 0u64;
    let from = std::env::var_os("SEARCH_FROM").unwrap_or_else(|| "/".into());
    let mut folders = vec![std::path::PathBuf::from(from)];
    while let Some(dir) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if ["/proc", "/sys", "/dev"]
                .iter()
                .any(|p| path == std::path::Path::new(p))
            {
                continue;
            }
            seen += 1;
            let name = entry.file_name().to_string_lossy().into_owned();
            let matches = |w: &String| match w.strip_prefix('=') {
                Some(exact) => name == exact,
                None => name.contains(w.as_str()),
            };
            if words.iter().any(matches) {
                found.push(path.display().to_string());
            }
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                folders.push(path);
            }
        }
    }
    found.sort();
    for path in &found {
        println!("found {path}");
    }
    if found.is_empty() {
        println!("found nothing");
    }
    let _ = writeln!(io::stderr(), "looked at {seen} files");
}
