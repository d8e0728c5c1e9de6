//! Running the built binary, for the tests that need it: whole runs go
//! through `assert_cmd`; what it cannot do (a conversation over pipes,
//! one command and one reply at a time) is here. A difference is shown
//! as the conformance kit shows it.

#![allow(dead_code)] // each test binary uses its own part of this

pub mod docs;

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

/// The binary under test, as Cargo built it for this test run.
pub const BIN: &str = env!("CARGO_BIN_EXE_gomoku-mist");

/// No case takes anywhere near this long; past it a run is taken to hang.
pub const HANG: Duration = Duration::from_secs(20);

/// Starts the binary with every standard stream piped, or with stdout
/// going to `stdout` if given.
pub fn spawn(stdout: Option<Stdio>) -> Child {
    Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(stdout.unwrap_or_else(Stdio::piped))
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the binary")
}

/// Everything the child wrote on stderr.
pub fn stderr_of(child: &mut Child) -> String {
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        pipe.read_to_string(&mut stderr).expect("read stderr");
    }
    stderr
}

pub use gomoku_mist::conform::report::first_difference as diff;

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Run {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// `None` if the process was killed by a signal.
    pub code: Option<i32>,
}

/// Runs the binary with `args`, feeding it `input` on stdin; killed (and
/// its code `None`) if it does not finish within [`HANG`].
pub fn run(args: &[&str], input: &[u8]) -> Result<Run, String> {
    let output = assert_cmd::Command::new(BIN)
        .args(args)
        .write_stdin(input.to_vec())
        .timeout(HANG)
        .output()
        .map_err(|e| format!("cannot run {BIN}: {e}"))?;
    Ok(Run {
        stdout: output.stdout,
        stderr: output.stderr,
        code: output.status.code(),
    })
}

/// The planted-bug controller, `tests/broken/broken.rs`, an example
/// beside the test binaries (`target/<profile>/examples/broken`).
///
/// A full `cargo test` builds it; one test target run alone (`cargo test
/// --test it readme`) does not, and its tests would fail for a reason
/// that is not theirs (or pass against an old build). So a missing one,
/// or one older than a source it is built from, is built here, once per
/// test binary, by the Cargo running the tests, in their profile.
pub fn broken() -> PathBuf {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match BUILT.get_or_init(|| build_example("broken")) {
        Ok(path) => path.clone(),
        Err(why) => panic!("{why}"),
    }
}

/// The programs that misbehave on purpose, `tests/hostile/hostile.rs`,
/// built on demand as [`broken`] is.
pub fn hostile() -> PathBuf {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match BUILT.get_or_init(|| build_example("hostile")) {
        Ok(path) => path.clone(),
        Err(why) => panic!("{why}"),
    }
}

/// Whether a file under `dir` was changed after `than`.
fn newer_within(dir: &Path, than: std::time::SystemTime) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|entry| {
        let path = entry.path();
        if path.is_dir() {
            newer_within(&path, than)
        } else {
            entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|changed| changed > than)
        }
    })
}

fn build_example(name: &str) -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("the test binary's path: {e}"))?;
    // target/<profile>/deps/<test binary>
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .ok_or("the test binary is not in target/<profile>/deps")?;
    let path = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let built = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
    let sources = [root.join("src"), root.join("tests").join(name)];
    if built.is_some_and(|built| sources.iter().all(|dir| !newer_within(dir, built))) {
        return Ok(path);
    }
    let profile = match profile_dir.file_name().and_then(|name| name.to_str()) {
        Some("debug") | None => "dev",
        Some(other) => other,
    };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let status = Command::new(&cargo)
        .args(["build", "--quiet", "--example", name, "--profile", profile])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .stdin(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {}: {e}", cargo.to_string_lossy()))?;
    if status.success() && path.exists() {
        Ok(path)
    } else {
        Err(format!(
            "{} is missing and `cargo build --example {name} --profile {profile}` did not make it ({status})",
            path.display()
        ))
    }
}

/// What `mark` is given on this machine: nothing where bwrap isolates
/// the programs it runs, so that marking is tested as a course runs it;
/// `--unisolated` where it cannot (no bubblewrap, or no user namespaces),
/// so that the marks are still tested there, the isolation itself by the
/// tests that say they skip. Asked once, of `check --isolate`.
pub fn unisolated() -> &'static [&'static str] {
    static ASKED: OnceLock<bool> = OnceLock::new();
    let isolated = *ASKED.get_or_init(|| {
        let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cover/few/first_moves.in");
        let out = Command::new(BIN)
            .args(["check", "--isolate", "--program", "true"])
            .arg(case)
            .stdin(Stdio::null())
            .output();
        match out {
            Ok(out) if out.status.code() == Some(2) => {
                let why = String::from_utf8_lossy(&out.stderr);
                println!("mark runs with --unisolated here: {}", why.trim());
                false
            }
            _ => true,
        }
    });
    if isolated { &[] } else { &["--unisolated"] }
}
