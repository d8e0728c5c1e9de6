//! The kit contains the program it tests, and leaves nothing running:
//! `tests/hostile/hostile.rs` does, one per run, what a marking tool must
//! stop (a 3 GiB allocation, a hundred children, children in sessions of
//! their own, a thousand files and a big one, reading the environment or
//! a file only root may read, listening on the network, ignoring SIGTERM,
//! 200 MB on stderr, a crash), and `gomoku-mist check` or `fuzz` runs it
//! as a student would.
//!
//! Every process a hostile program starts carries the token a test gives
//! it on its command line, so the test finds every one of them in
//! `/proc`, whoever its parent is by then. Waits are for events (a
//! process appearing or ending), bounded generously; none is a measure.

#![cfg(target_os = "linux")]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use gomoku_mist::conform;

use crate::common::{BIN, hostile};

/// Far beyond what any of these runs takes on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(60);

/// A token no other test's process carries.
fn token(name: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!(
        "hostile-token-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// A fresh folder with one case, `a.in`, that every hostile program fails.
fn cases(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("gomoku-mist-contain-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("cases")).expect("make a folder");
    fs::write(dir.join("cases").join("a.in"), b"who\nterm\n").expect("write a case");
    dir
}

/// `--program` for the hostile program in `mode`, with `args`.
fn program(mode: &str, args: &[&str]) -> String {
    let mut words = vec![format!("'{}'", hostile().display()), mode.to_owned()];
    words.extend(args.iter().map(|a| format!("'{a}'")));
    words.join(" ")
}

/// What `gomoku-mist check` printed, and its exit code.
struct Checked {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `check` in `dir` on its case with `--program` and `options`.
fn check(dir: &Path, program: &str, options: &[&str], env: &[(&str, &str)]) -> Checked {
    let mut command = Command::new(BIN);
    command
        .current_dir(dir)
        .args(["check", "--program", program])
        .args(options)
        .arg("cases")
        .envs(env.iter().copied())
        .stdin(Stdio::null());
    let out = command.output().expect("run gomoku-mist check");
    Checked {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The processes whose command line holds `token`.
fn carrying(token: &str) -> Vec<u32> {
    let me = std::process::id();
    let Ok(procs) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    procs
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me && alive(pid))
        .filter(|pid| {
            fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|line| line.windows(token.len()).any(|w| w == token.as_bytes()))
        })
        .collect()
}

/// Whether `pid` runs the hostile program (its first word).
fn is_hostile(pid: u32) -> bool {
    fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|line| {
        line.split(|&b| b == 0)
            .next()
            .is_some_and(|first| first.ends_with(b"hostile"))
    })
}

/// Whether `pid` runs (a zombie is only left for its parent to reap).
fn alive(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X']))
    })
}

/// Waits until `ready` holds, for up to [`PATIENCE`].
fn until(mut ready: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + PATIENCE;
    while Instant::now() < end {
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    ready()
}

/// Asserts nothing carrying `token` runs, once the kill had time to land.
fn none_left(token: &str) {
    let mut left = Vec::new();
    let gone = until(|| {
        left = carrying(token);
        left.is_empty()
    });
    // Leave the machine clean even when failing.
    for pid in &left {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(gone, "still running: {left:?}");
}

/// The scratch folders of the kit run `pid`, left in the temporary folder.
fn scratch_left(pid: u32) -> Vec<PathBuf> {
    let prefix = format!("gomoku-mist-run-{pid}-");
    fs::read_dir(std::env::temp_dir())
        .map(|dir| {
            dir.flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn three_gib_is_killed_at_the_memory_limit_and_told() {
    let dir = cases("alloc");
    let ran = check(&dir, &program("alloc", &[]), &[], &[]);
    assert_eq!(ran.code, Some(1), "{}{}", ran.stdout, ran.stderr);
    assert!(
        ran.stdout.contains("FAIL  cases/a.in: too much memory [")
            && ran
                .stdout
                .contains("\n  used more than 512 MiB of memory: killed\n"),
        "{}",
        ran.stdout
    );
    let ran = check(&dir, &program("alloc", &[]), &["--memory", "100"], &[]);
    assert!(
        ran.stdout
            .contains("\n  used more than 100 MiB of memory: killed\n"),
        "{}",
        ran.stdout
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_hundred_children_are_stopped_at_the_process_limit_and_none_is_left() {
    let dir = cases("fork");
    let token = token("fork");
    let ran = check(&dir, &program("fork", &[&token]), &[], &[]);
    assert!(
        ran.stdout
            .contains("\n  started more than 64 processes: killed\n"),
        "{}",
        ran.stdout
    );
    none_left(&token);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn children_in_sessions_of_their_own_die_with_the_run() {
    let dir = cases("setsid");
    let token = token("setsid");
    let ran = check(&dir, &program("setsid", &[&token]), &[], &[]);
    assert!(ran.stdout.contains("got      | escaped⏎"), "{}", ran.stdout);
    none_left(&token);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_big_file_is_stopped_and_the_files_go_with_the_scratch_folder() {
    let dir = cases("files");
    let mut child = Command::new(BIN)
        .current_dir(&dir)
        .args(["check", "--program", &program("files", &[]), "cases"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run gomoku-mist check");
    let kit = child.id();
    let out = wait_output(&mut child);
    assert!(
        out.contains("FAIL  cases/a.in: too large a file [")
            && out.contains("\n  wrote more than 1 MiB to a file: killed\n")
            && out.contains("got      | made 2000 files⏎"),
        "{out}"
    );
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("read the folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["cases"], "the program wrote where the kit ran");
    assert_eq!(scratch_left(kit), Vec::<PathBuf>::new());
    let _ = fs::remove_dir_all(&dir);
}

fn wait_output(child: &mut Child) -> String {
    let mut out = String::new();
    if let Some(mut pipe) = child.stdout.take() {
        let _ = std::io::Read::read_to_string(&mut pipe, &mut out);
    }
    let _ = child.wait();
    out
}

#[test]
fn the_program_sees_a_minimal_environment_without_secrets() {
    let dir = cases("env");
    let ran = check(
        &dir,
        &program("env", &["GOMOKU_MIST_SECRET_TOKEN"]),
        &[],
        &[("GOMOKU_MIST_SECRET_TOKEN", "s3cr3t")],
    );
    assert!(
        ran.stdout
            .contains("got      | GOMOKU_MIST_SECRET_TOKEN unset⏎"),
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("s3cr3t"), "{}", ran.stdout);
    let ran = check(&dir, &program("env", &["HOME"]), &[], &[]);
    assert!(
        ran.stdout.contains("got      | HOME=")
            && ran.stdout.contains("gomoku-mist-run-")
            && ran.stdout.contains("/home⏎"),
        "HOME is not the scratch folder: {}",
        ran.stdout
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn run_by_root_the_program_cannot_read_what_only_root_may() {
    if !rustix::process::geteuid().is_root() {
        println!("skipped: the kit runs as root only in CI");
        return;
    }
    let dir = cases("read");
    let ran = check(&dir, &program("read", &["/etc/shadow"]), &[], &[]);
    if ran
        .stderr
        .contains("the program runs as root, not as a user of its own")
    {
        // The checkout is not open to others: said, and not hidden.
        println!("fell back to root: {}", ran.stderr);
    } else {
        // Not there at all under bwrap; there but closed without it.
        assert!(
            ran.stdout
                .contains("got      | cannot read /etc/shadow: Permission denied")
                || ran
                    .stdout
                    .contains("got      | cannot read /etc/shadow: No such file or directory"),
            "{}{}",
            ran.stdout,
            ran.stderr
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn without_the_network_under_bwrap_nobody_reaches_a_listener() {
    let dir = cases("listen");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let reached = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let knocker = {
        let (reached, done) = (reached.clone(), done.clone());
        std::thread::spawn(move || {
            // Reached only if the program says so on the connection: the
            // port was free when chosen, but another test may take it.
            let says = |mut stream: std::net::TcpStream| {
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let mut heard = String::new();
                let _ = std::io::Read::read_to_string(&mut stream, &mut heard);
                heard.contains("hostile listener")
            };
            while !done.load(Ordering::SeqCst) {
                if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok_and(says) {
                    reached.store(true, Ordering::SeqCst);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let ran = check(
        &dir,
        &program("listen", &[&port.to_string()]),
        &["--timeout", "5"],
        &[],
    );
    done.store(true, Ordering::SeqCst);
    let _ = knocker.join();
    let _ = fs::remove_dir_all(&dir);
    // The kit's own word on whether bwrap works here, as the user it runs
    // programs as.
    if ran
        .stderr
        .contains("so the program under test is not isolated")
    {
        println!("skipped: {}", ran.stderr.trim());
        return;
    }
    assert!(
        ran.stdout.contains("got      | listening⏎"),
        "{}",
        ran.stdout
    );
    assert!(
        !reached.load(Ordering::SeqCst),
        "the program was reached from outside"
    );
}

#[test]
fn without_bwrap_the_kit_says_so_once_and_isolate_refuses() {
    let dir = cases("nobwrap");
    let fs_env: &[(&str, &str)] = &[("PATH", "/nonexistent")];
    let ran = check(&dir, &program("crash", &[]), &[], fs_env);
    assert_eq!(
        ran.stderr
            .matches(
                "bwrap (bubblewrap) is not installed, so the program under test is not isolated"
            )
            .count(),
        1,
        "{}",
        ran.stderr
    );
    let ran = check(&dir, &program("crash", &[]), &["--isolate"], fs_env);
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("bwrap (bubblewrap) is not installed: install bubblewrap where user namespaces are allowed, or leave out --isolate"),
        "{}",
        ran.stderr
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_script_named_from_where_the_kit_runs_is_found_from_the_scratch_folder() {
    let dir = cases("script");
    fs::write(dir.join("prog.sh"), "echo ran from \"$PWD\"\n").expect("write a script");
    let ran = check(&dir, "sh prog.sh", &[], &[]);
    assert!(
        ran.stdout.contains("got      | ran from ") && ran.stdout.contains("/home⏎"),
        "{}{}",
        ran.stdout,
        ran.stderr
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_crash_names_its_signal_in_every_format() {
    let dir = cases("crash");
    let ran = check(&dir, &program("crash", &[]), &[], &[]);
    assert!(
        ran.stdout
            .contains("\n  killed by SIGABRT (a crash?), expected exit code 1\n"),
        "{}",
        ran.stdout
    );
    for format in ["json", "junit"] {
        let ran = check(&dir, &program("crash", &[]), &["--format", format], &[]);
        assert!(
            ran.stdout.contains("killed by SIGABRT"),
            "{format}: {}",
            ran.stdout
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn two_hundred_megabytes_on_stderr_neither_hang_nor_fill_the_report() {
    let dir = cases("stderr");
    let ran = check(&dir, &program("stderr", &[]), &[], &[]);
    assert!(
        ran.stdout.contains("got      | done⏎") && ran.stdout.contains("stderr starts: eeee"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.len() < 64 * 1024,
        "the report holds {} bytes",
        ran.stdout.len()
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_program_ignoring_sigterm_is_killed_at_the_timeout_with_its_child() {
    let dir = cases("ignore");
    let token = token("ignore");
    let ran = check(
        &dir,
        &program("ignore-term", &[&token]),
        &["--timeout", "2"],
        &[],
    );
    assert!(
        ran.stdout.contains("still running after 2s: killed"),
        "{}",
        ran.stdout
    );
    none_left(&token);
    let _ = fs::remove_dir_all(&dir);
}

/// A program that starts a child in a process group of its own (as a
/// program that runs the kit does, and as the kit starts each run), then
/// hangs: at the timeout the kit kills the program, and the child with it,
/// though a kill of the run's group does not reach it.
#[test]
fn a_program_killed_at_the_timeout_leaves_no_child_in_a_group_of_its_own() {
    let dir = cases("group");
    let token = token("group");
    let ran = check(&dir, &program("group", &[&token]), &["--timeout", "2"], &[]);
    assert!(
        ran.stdout.contains("still running after 2s: killed"),
        "{}",
        ran.stdout
    );
    none_left(&token);
    let _ = fs::remove_dir_all(&dir);
}

/// As above, run directly, without the launcher (no kit: how the kit's
/// own tests run programs, a test binary among them): no subreaper, yet
/// the child is killed with the program. A test binary checked as "this
/// program" ran its own tests, each run in a group of its own, and left
/// them running.
#[test]
fn run_directly_a_program_killed_at_the_timeout_leaves_no_child_in_a_group_of_its_own() {
    let dir = cases("group-direct");
    let token = token("group-direct");
    let opts = conform::CheckOptions {
        program: Some(vec![
            hostile().into_os_string(),
            "group".into(),
            token.clone().into(),
        ]),
        paths: vec![dir.join("cases")],
        timeout: Duration::from_secs(2),
        jobs: 2,
        read_args: gomoku_mist::cli::setup,
        format: conform::Format::Text,
        contain: Default::default(),
    };
    let mut out = Vec::new();
    let outcome = conform::check(&opts, None, &mut out).expect("check runs");
    let report = String::from_utf8_lossy(&out);
    assert_eq!(outcome, conform::Outcome::Failed, "{report}");
    assert!(
        report.contains("still running after 2s: killed"),
        "{report}"
    );
    none_left(&token);
    let _ = fs::remove_dir_all(&dir);
}

/// Starts `fuzz` on the hostile program in `mode`, waits until one of its
/// processes runs, sends `signal` to the kit, and checks that the kit
/// ends and that nothing it started is left.
fn stop_fuzz(mode: &str, signal: rustix::process::Signal, code: Option<i32>) {
    let dir = cases(mode);
    let token = token(mode);
    let mut kit = Command::new(BIN)
        .current_dir(&dir)
        .args(["fuzz", "--time", "600", "--timeout", "300", "--jobs", "2"])
        .args(["--program", &program(mode, &[&token])])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run gomoku-mist fuzz");
    // The kit's own command line holds the token too, and so does a copy
    // of the kit about to run something else (its first fork is before
    // it sets its signal handlers): the hostile program is what tells.
    let started = until(|| carrying(&token).into_iter().any(is_hostile));
    let pid = rustix::process::Pid::from_child(&kit);
    rustix::process::kill_process(pid, signal).expect("signal the kit");
    let status = until(|| kit.try_wait().is_ok_and(|s| s.is_some()));
    if !status {
        let _ = kit.kill();
    }
    let ended = kit.wait().expect("wait for the kit");
    assert!(started, "the program never started");
    assert_eq!(ended.code(), code, "the kit's exit");
    none_left(&token);
    // Killed, the kit cannot remove the folder of a run whose launcher had
    // ended: only a stopped kit is held to it.
    if code.is_some() {
        assert_eq!(scratch_left(kit.id()), Vec::<PathBuf>::new());
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_to_fuzz_leaves_no_child_of_a_forking_program() {
    stop_fuzz("fork", rustix::process::Signal::TERM, Some(143));
}

#[test]
fn sigint_to_fuzz_leaves_no_child_in_a_session_of_its_own() {
    stop_fuzz("setsid", rustix::process::Signal::INT, Some(130));
}

#[test]
fn sighup_to_fuzz_leaves_no_program_that_ignores_it() {
    stop_fuzz("ignore-term", rustix::process::Signal::HUP, Some(129));
}

/// SIGKILL cannot be caught: each launcher hears of its kit's death
/// (its parent-death signal) and kills what it runs.
#[test]
fn sigkill_to_fuzz_leaves_nothing_either() {
    stop_fuzz("fork", rustix::process::Signal::KILL, None);
}

/// Runs the hostile searcher on `dir`'s cases under `check`, after
/// planting, beside them in the temporary folder, a hidden suite and a
/// classmate's build whose names carry `token`.
fn plant(dir: &Path, token: &str) {
    let hidden = dir.join(format!("hidden-{token}"));
    fs::create_dir_all(&hidden).expect("make a folder");
    fs::write(hidden.join(format!("{token}.in")), b"who\n").expect("write");
    fs::write(hidden.join(format!("{token}.out")), b"B\n").expect("write");
    let classmate = dir.join(format!("classmate-{token}"));
    fs::create_dir_all(&classmate).expect("make a folder");
    fs::write(classmate.join(format!("gitm-{token}")), b"\x7fELF").expect("write");
    fs::write(
        dir.join("cases").join(format!("{token}.in")),
        b"who\nterm\n",
    )
    .expect("write");
}

#[test]
fn under_bwrap_the_program_finds_neither_the_suite_nor_other_submissions() {
    let dir = cases("search");
    let token = token("planted");
    plant(&dir, &token);
    // The searcher finds them where nothing hides them.
    let direct = Command::new(hostile())
        .args(["search", &token])
        .env("SEARCH_FROM", &dir)
        .output()
        .expect("run the searcher");
    let direct = String::from_utf8_lossy(&direct.stdout).into_owned();
    assert_eq!(direct.matches("found ").count(), 6, "{direct}");
    // One more in the marker's home, where it can be written.
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let in_home = home.map(|h| h.join(format!(".{token}")));
    let in_home = in_home.filter(|file| fs::write(file, b"marker's").is_ok());
    // `=NAME` is a file named NAME exactly: the kit's own binary.
    let kit = Path::new(BIN)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    let kit = format!("={}", kit.unwrap_or_default());
    let searcher = program("search", &[&token, "gomoku-mist-contain-", &kit]);
    let ran = check(&dir, &searcher, &["--timeout", "120"], &[]);
    let _ = fs::remove_dir_all(&dir);
    if let Some(file) = &in_home {
        let _ = fs::remove_file(file);
    }
    if ran
        .stderr
        .contains("so the program under test is not isolated")
    {
        println!("skipped: {}", ran.stderr.trim());
        return;
    }
    // Each case's program saw nothing: not the suite it is checked
    // against, not the hidden one, not the classmate, not where the kit
    // was started, not the marker's home, not the kit.
    assert_eq!(
        ran.stdout.matches("got      | found nothing⏎").count(),
        2,
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("| found /"), "{}", ran.stdout);
}

#[test]
fn a_python_script_still_runs_in_the_box() {
    let python = Path::new("/usr/bin/python3");
    if !python.exists() {
        println!("skipped: no /usr/bin/python3 here");
        return;
    }
    let dir = cases("python");
    fs::write(
        dir.join("solution.py"),
        "import sys\nfor line in sys.stdin:\n    print('read', line.strip())\n",
    )
    .expect("write a script");
    let ran = check(&dir, "/usr/bin/python3 solution.py", &[], &[]);
    let _ = fs::remove_dir_all(&dir);
    assert!(
        ran.stdout.contains("got      | read who⏎"),
        "{}{}",
        ran.stdout,
        ran.stderr
    );
}

#[test]
fn where_proc_is_another_namespaces_the_kit_refuses_in_one_line() {
    // A PID namespace of its own with the host's /proc, as some CI
    // runners and containers have.
    let probe = Command::new("unshare")
        .args(["--user", "--map-root-user", "--pid", "--fork", "true"])
        .output();
    if !probe.is_ok_and(|p| p.status.success()) {
        println!("skipped: unshare cannot make a PID namespace here");
        return;
    }
    let dir = cases("proc");
    for command in ["check", "fuzz"] {
        let mut args = vec!["--user", "--map-root-user", "--pid", "--fork", BIN, command];
        args.extend(["--program", "true"]);
        if command == "check" {
            args.push("cases");
        } else {
            args.extend(["--cases", "1"]);
        }
        let out = Command::new("unshare")
            .args(&args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
            .expect("run the kit in a PID namespace");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{command}: {stderr}");
        assert!(
            stderr.contains("/proc is another PID namespace's"),
            "{command}: {stderr}"
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_exit_code_of_128_and_more_is_a_code_and_a_crash_is_its_signal() {
    let dir = cases("codes");
    fs::write(dir.join("exits.sh"), "exit 134\n").expect("write a script");
    let ran = check(&dir, "sh exits.sh", &[], &[]);
    assert!(
        ran.stdout.contains("\n  exit code 134, expected 1\n"),
        "{}{}",
        ran.stdout,
        ran.stderr
    );
    let ran = check(&dir, &program("crash", &[]), &[], &[]);
    assert!(
        ran.stdout.contains("killed by SIGABRT (a crash?)"),
        "{}",
        ran.stdout
    );
    let _ = fs::remove_dir_all(&dir);
}
