//! What containment costs `fuzz`: cases a second of one C program, in
//! bwrap's box and without it.
//!
//! Run it with:
//!
//! ```sh
//! cargo bench --bench contain
//! ```
//!
//! # What it does
//!
//! 1. Builds the C baseline `benches/baseline.c` (a plain C implementation
//!    of the contract) with `-O2 -std=c11` and the first compiler found of
//!    `$CC`, `cc`, `gcc` and `clang`, in `target/bench-contain/`.
//! 2. Runs, interleaved round-robin (`GOMOKU_BENCH_ROUNDS` rounds, default
//!    3, after one warm-up round each), the release binary's `fuzz --seed 1
//!    --cases N --jobs J` on it (`GOMOKU_BENCH_CASES`, default 300, and
//!    `GOMOKU_BENCH_JOBS`, default 1), in a folder of its own:
//!    - contained: as it is, under bwrap where bwrap works (each program
//!      in a box that serves all its runs);
//!    - uncontained: with a `PATH` on which there is no bwrap, so that the
//!      kit runs each case through its launcher alone, with the limits
//!      but without the box (the kit always contains: this is the least
//!      it does).
//! 3. Prints each run's cases a second (the whole process, from start to
//!    exit, timed here), the medians, and contained / uncontained with its
//!    target (at least 67%). A missed target is reported as MISS, not a
//!    failure: machines are noisy. Without a working bwrap both are the
//!    same, and the report says so.
//! 4. Then, in this process, through the library, the same number of runs
//!    of the baseline on one short game (`GOMOKU_BENCH_CASES` of them,
//!    the same rounds): directly (no kit at all: what no containment
//!    costs), through the launcher without bwrap, and in the box; prints
//!    runs a second of each and the box's share of the direct speed. That
//!    is containment's price per run, without the rest of fuzzing.

#![forbid(unsafe_code)]

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use gomoku_mist::conform::run::{self, Budget, End};
use gomoku_mist::conform::sandbox::{Contain, Kit};

mod c_baseline;

/// The least share of the uncontained speed contained fuzzing keeps.
const TARGET: f64 = 0.67;

fn main() {
    let cases = setting("GOMOKU_BENCH_CASES", 300);
    let rounds = setting("GOMOKU_BENCH_ROUNDS", 3);
    let jobs = setting("GOMOKU_BENCH_JOBS", 1);
    let target = env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("target"),
        PathBuf::from,
    );
    let dir = target.join("bench-contain");
    fs::create_dir_all(&dir).expect("make the bench's folder");
    let Some(program) = c_baseline::build(&dir) else {
        return;
    };
    let bin = Path::new(env!("CARGO_BIN_EXE_gomoku-mist"));
    if !boxed_here(bin, &dir) {
        println!("note: bwrap does not work here: both modes run without the box");
    }
    let mut speeds = [Vec::new(), Vec::new()];
    for round in 0..=rounds {
        for (mode, contained) in [true, false].into_iter().enumerate() {
            let speed = fuzz(bin, &program, &dir, cases, jobs, contained);
            if round > 0 {
                speeds[mode].push(speed);
            }
        }
    }
    println!("fuzz --cases {cases} --jobs {jobs} on benches/baseline.c, {rounds} rounds:");
    for (name, runs) in ["contained", "uncontained"].iter().zip(&mut speeds) {
        let shown: Vec<String> = runs.iter().map(|s| format!("{s:.0}")).collect();
        println!(
            "  {name:<12} {} cases/s (median), runs {}",
            median(runs).round(),
            shown.join(", ")
        );
    }
    let ratio = median(&mut speeds[0]) / median(&mut speeds[1]);
    println!(
        "  contained / uncontained: {:.0}% (target at least {:.0}%): {}",
        ratio * 100.0,
        TARGET * 100.0,
        if ratio >= TARGET { "ok" } else { "MISS" }
    );
    per_run(bin, &program, cases, rounds);
}

/// Runs a second of `program` on one short game, directly, through the
/// launcher and in the box, `runs` at a time, interleaved over `rounds`.
fn per_run(bin: &Path, program: &Path, runs: u64, rounds: u64) {
    let command = [program.as_os_str().to_owned()];
    let (boxed, _) = Kit::new(&Contain::default(), bin.to_path_buf(), &command, "")
        .expect("a kit in this process");
    let mut launched = boxed.clone();
    launched.bwrap = None;
    let kits: [(&str, Option<&Kit>); 3] = [
        ("direct", None),
        ("launcher", Some(&launched)),
        ("box", Some(&boxed)),
    ];
    let game = b"who\nplace H8\nplace H9\nview\nhistory\nterm\n";
    let budget = Budget {
        timeout: Duration::from_secs(60),
        cap: 1 << 20,
    };
    let mut speeds = [Vec::new(), Vec::new(), Vec::new()];
    for round in 0..=rounds {
        for (speed, (_, kit)) in speeds.iter_mut().zip(&kits) {
            let start = Instant::now();
            for _ in 0..runs {
                let ran = run::run(*kit, &command, &[] as &[OsString], game, budget);
                assert!(matches!(ran.end, End::Code(_)), "{ran:?}");
            }
            if round > 0 {
                speed.push(runs as f64 / start.elapsed().as_secs_f64());
            }
        }
    }
    println!("{runs} runs of it on one short game, in this process, {rounds} rounds:");
    for (runs, (name, _)) in speeds.iter_mut().zip(&kits) {
        let shown: Vec<String> = runs.iter().map(|s| format!("{s:.0}")).collect();
        println!(
            "  {name:<12} {} runs/s (median), runs {}",
            median(runs).round(),
            shown.join(", ")
        );
    }
    let [direct, _, boxed] = &mut speeds;
    println!(
        "  box / direct: {:.0}%",
        median(boxed) / median(direct) * 100.0
    );
}

/// A whole number from the environment variable `name`, or `default`.
fn setting(name: &str, default: u64) -> u64 {
    env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(default)
}

/// One `fuzz` of `program`: its cases a second, from start to exit.
fn fuzz(bin: &Path, program: &Path, dir: &Path, cases: u64, jobs: u64, contained: bool) -> f64 {
    let mut command = Command::new(bin);
    command
        .current_dir(dir)
        .args(["fuzz", "--seed", "1", "--cases", &cases.to_string()])
        .args(["--jobs", &jobs.to_string(), "--program"])
        .arg(program)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if !contained {
        // No bwrap on it; nothing else is looked up there (the program is
        // named by its full path).
        command.env("PATH", dir.join("no-bwrap"));
    }
    let start = Instant::now();
    let status = command.status().expect("run gomoku-mist fuzz");
    let took = start.elapsed().as_secs_f64();
    assert!(
        status.success(),
        "fuzz found a failure in the baseline or failed ({status})"
    );
    cases as f64 / took
}

/// Whether the kit boxes programs here: it says so on stderr when not.
/// (`cat` fails its one case: the failure is written in `dir`.)
fn boxed_here(bin: &Path, dir: &Path) -> bool {
    let out = Command::new(bin)
        .current_dir(dir)
        .args(["fuzz", "--cases", "1", "--isolate", "--program", "cat"])
        .stdin(Stdio::null())
        .output()
        .expect("run gomoku-mist fuzz");
    !String::from_utf8_lossy(&out.stderr).contains("bwrap")
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}
