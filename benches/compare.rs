//! How fast `gomoku-mist` answers a long stream of commands, against a plain
//! C implementation and against `cat`.
//!
//! Run it with:
//!
//! ```sh
//! cargo bench --bench compare
//! ```
//!
//! # What it does
//!
//! 1. Generates, from a fixed seed, a workload of `GOMOKU_BENCH_LINES`
//!    lines (default 2,000,000): `who`, `view`, `history`, rejected
//!    commands and rejected placements in roughly equal shares, about 300
//!    successful placements spread evenly through it that never make a
//!    line of five, and a last `term`. The library runs it once to check
//!    that the game lasts until `term`; what it prints is the expected
//!    output. Both files are written under `target/bench-compare/` (or
//!    `$CARGO_TARGET_DIR/bench-compare/`) for use by hand.
//! 2. Builds the C baseline `benches/baseline.c` (a plain C
//!    implementation of the contract) with `-O2 -std=c11` and the first
//!    compiler found of `$CC`, `cc`, `gcc` and `clang`; it is skipped, and
//!    the report says so, only when there is none.
//! 3. Checks the baseline on every golden case without options, then runs
//!    the release binary and the baseline once each, stdin from the
//!    workload and stdout to a file, and panics unless both print exactly
//!    the expected output and exit with code 1.
//! 4. Times, interleaved round-robin (`GOMOKU_BENCH_ROUNDS` rounds,
//!    default 15, after 2 warm-up rounds), each as a new process with stdin
//!    from the workload: the release binary, the baseline, and `cat`
//!    reading the workload plus `cat` writing the expected output (the two
//!    added up per round: what `cat` needs to move the same bytes). It also
//!    times the library's session loop in-process, from memory to
//!    [`io::sink`]. Stdout goes to `/dev/null`, or with
//!    `GOMOKU_BENCH_SINK=pipe` to a pipe the bench reads and discards.
//! 5. Prints the minimum and median wall time, lines per second at the
//!    median, and two ratios of medians with their targets: baseline / ours
//!    (at least 6×) and ours / cat (at most 2.5×). A missed target is
//!    reported as MISS, not a failure: machines are noisy.

#![forbid(unsafe_code)]

use std::env;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use gomoku_mist::board::DIRECTIONS;
use gomoku_mist::conform::{case, report};
use gomoku_mist::controller::session::{Settings, Stop};
use gomoku_mist::controller::stream;
use gomoku_mist::game::Game;
use gomoku_mist::point::Point;
use gomoku_mist::rng::Rng;
use gomoku_mist::rule::Rule;

mod c_baseline;

/// Workload lines, `term` included, unless `GOMOKU_BENCH_LINES` says.
const DEFAULT_LINES: usize = 2_000_000;
/// Timed rounds, unless `GOMOKU_BENCH_ROUNDS` says.
const DEFAULT_ROUNDS: usize = 15;
/// Rounds run before the timed ones and thrown away.
const WARM_UP_ROUNDS: usize = 2;
/// Successful placements in the workload (fewer only in a tiny one).
const PLACEMENTS: usize = 300;
/// The PRNG seed: the same seed, the same workload.
const SEED: u64 = 0x6d69_7374_2019_0019;
/// The exit code of a session ended by `term`.
const TERM_EXIT_CODE: i32 = 1;

/// Target: the baseline takes at least this many times as long as we do.
const BASELINE_OVER_OURS_TARGET: f64 = 6.0;
/// Target: we take at most this many times as long as `cat`.
const OURS_OVER_CAT_TARGET: f64 = 2.5;

/// Lines that are not commands: each prints `Invalid!`.
const REJECTED_COMMANDS: [&str; 12] = [
    "hello",
    "WHO",
    "place A1 B2",
    "place  C3",
    "who ",
    "",
    "place",
    "place ",
    "who\r",
    "view\t",
    "term ",
    "resign now",
];

/// Well-formed placements that name no point: `Invalid coordinate`.
const INVALID_POINTS: [&str; 9] = [
    "place Z1",
    "place A01",
    "place T5",
    "place A0",
    "place A20",
    "place a1",
    "place B122",
    "place Z100",
    "place 1A",
];

fn main() {
    let config = Config::from_env();
    let dir = bench_dir();
    fs::create_dir_all(&dir).expect("cannot create the bench directory under target/");

    let workload = Workload::generate(config.lines);
    let expected = expected_output(&workload.input);
    let files = Files::write(&dir, &workload.input, &expected);
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_gomoku-mist"));
    let baseline = c_baseline::build(&dir);

    check_output("gomoku-mist", &ours, &files, &dir.join("ours.out"));
    if let Some(baseline) = &baseline {
        check_golden("C baseline", baseline);
        check_output("C baseline", baseline, &files, &dir.join("baseline.out"));
    }

    let jobs = jobs(&ours, baseline.as_deref(), &files);
    let samples = time_jobs(&jobs, &workload.input, config);
    report(&config, &workload, &expected, &files, &jobs, &samples);
}

// ---------------------------------------------------------------------------
// Settings

/// Where timed processes send their stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sink {
    DevNull,
    Pipe,
}

#[derive(Clone, Copy, Debug)]
struct Config {
    lines: usize,
    rounds: usize,
    sink: Sink,
}

impl Config {
    fn from_env() -> Config {
        let lines = env_count("GOMOKU_BENCH_LINES", DEFAULT_LINES);
        assert!(lines >= 2, "GOMOKU_BENCH_LINES must be at least 2");
        let rounds = env_count("GOMOKU_BENCH_ROUNDS", DEFAULT_ROUNDS);
        assert!(rounds >= 1, "GOMOKU_BENCH_ROUNDS must be at least 1");
        let sink = match env::var("GOMOKU_BENCH_SINK").as_deref() {
            Err(_) | Ok("" | "null" | "devnull" | "/dev/null") => Sink::DevNull,
            Ok("pipe") => Sink::Pipe,
            Ok(other) => panic!("GOMOKU_BENCH_SINK must be `pipe` or `null`, not {other:?}"),
        };
        Config {
            lines,
            rounds,
            sink,
        }
    }
}

/// A count from the environment; `_` separators are allowed.
fn env_count(name: &str, default: usize) -> usize {
    match env::var(name) {
        Err(_) => default,
        Ok(text) => text
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a whole number, not {text:?}")),
    }
}

/// `<target dir>/bench-compare`, the target dir being `$CARGO_TARGET_DIR`
/// if set (relative to the package) or the package's `target/`.
fn bench_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = match env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => manifest.join(dir),
        _ => manifest.join("target"),
    };
    target.join("bench-compare")
}

// ---------------------------------------------------------------------------
// The workload

/// The colour a point gets in the two-colouring the placements follow:
/// no run of one colour is longer than 2 in any direction, so neither
/// player, holding only points of one colour, can make five.
fn pattern(p: Point) -> usize {
    (p.column().index() / 2 + p.row().index()) % 2
}

/// Panics unless every run of one [`pattern`] colour, in each of the four
/// directions, is at most 2 long.
fn assert_pattern_has_no_long_runs() {
    for start in Point::all() {
        for (dc, dr) in DIRECTIONS {
            let mut run = 0;
            let mut at = Some(start);
            while let Some(p) = at.filter(|&p| pattern(p) == pattern(start)) {
                run += 1;
                at = p.offset(dc, dr);
            }
            assert!(
                run <= 2,
                "the placement pattern has a run of {run} from {start} in direction ({dc}, {dr})"
            );
        }
    }
}

/// `count` points to place in order: Black's (1st, 3rd, ...) from pattern
/// colour 0, White's from colour 1, each side's in shuffled order.
fn placement_order(rng: &mut Rng, count: usize) -> Vec<Point> {
    assert_pattern_has_no_long_runs();
    let (mut black, mut white): (Vec<Point>, Vec<Point>) =
        Point::all().partition(|&p| pattern(p) == 0);
    assert!(
        black.len() >= count.div_ceil(2) && white.len() >= count / 2,
        "the pattern has too few points for {count} placements"
    );
    rng.shuffle(&mut black);
    rng.shuffle(&mut white);
    (0..count)
        .map(|i| {
            if i % 2 == 0 {
                black[i / 2]
            } else {
                white[i / 2]
            }
        })
        .collect()
}

/// `place <point>`, the contract's way.
fn place_line(out: &mut Vec<u8>, p: Point) {
    out.extend_from_slice(b"place ");
    p.write_ascii(out);
}

/// The kinds of line in the workload, for the report.
#[derive(Clone, Copy)]
enum Kind {
    Who,
    View,
    History,
    RejectedCommand,
    InvalidPoint,
    Occupied,
    Placement,
    Term,
}

const KIND_NAMES: [&str; 8] = [
    "who",
    "view",
    "history",
    "rejected command",
    "invalid coordinate",
    "occupied",
    "placement",
    "term",
];

struct Workload {
    input: Vec<u8>,
    lines: usize,
    counts: [usize; KIND_NAMES.len()],
}

impl Workload {
    /// `lines` lines, the last one `term`; see the module doc.
    fn generate(lines: usize) -> Workload {
        let mut rng = Rng::new(SEED);
        let body = lines - 1;
        let placements = PLACEMENTS.min(body / 2);
        let order = placement_order(&mut rng, placements);
        let mut workload = Workload {
            input: Vec::with_capacity(lines * 8),
            lines,
            counts: [0; KIND_NAMES.len()],
        };
        let mut placed = 0;
        for i in 0..body {
            let kind = if placed < placements && i == placement_slot(placed, placements, body) {
                place_line(&mut workload.input, order[placed]);
                placed += 1;
                Kind::Placement
            } else {
                random_line(&mut workload.input, &mut rng, &order[..placed])
            };
            workload.input.push(b'\n');
            workload.counts[kind as usize] += 1;
        }
        workload.input.extend_from_slice(b"term\n");
        workload.counts[Kind::Term as usize] += 1;
        assert_eq!(placed, placements, "every placement must find its slot");
        workload
    }
}

/// The line index of the `k`th of `count` placements among `body` lines:
/// the middle of the `k`th of `count` equal stretches.
fn placement_slot(k: usize, count: usize, body: usize) -> usize {
    ((2 * k as u128 + 1) * body as u128 / (2 * count as u128)) as usize
}

/// Appends one line that is not a successful placement, of a kind chosen
/// evenly among `who`, `view`, `history`, rejected commands and rejected
/// placements; a quarter of the latter name a point in `taken`, if any.
fn random_line(out: &mut Vec<u8>, rng: &mut Rng, taken: &[Point]) -> Kind {
    let (kind, line) = match rng.below(5) {
        0 => (Kind::Who, "who"),
        1 => (Kind::View, "view"),
        2 => (Kind::History, "history"),
        3 => (Kind::RejectedCommand, *rng.pick(&REJECTED_COMMANDS)),
        _ if !taken.is_empty() && rng.below(4) == 0 => {
            place_line(out, *rng.pick(taken));
            return Kind::Occupied;
        }
        _ => (Kind::InvalidPoint, *rng.pick(&INVALID_POINTS)),
    };
    out.extend_from_slice(line.as_bytes());
    kind
}

/// What the library prints for `input`; panics unless the game lasts
/// until the final `term`.
fn expected_output(input: &[u8]) -> Vec<u8> {
    let mut output = Vec::new();
    let stop = run_library(input, &mut output);
    assert_eq!(
        stop,
        Stop::Term,
        "the workload must run until its final `term` without ending the game"
    );
    output
}

fn run_library<W: io::Write>(input: &[u8], output: W) -> Stop {
    let game = Game::new(Rule::Freestyle);
    stream::run(game, Settings::default(), input, output)
        .expect("a session over in-memory input and output cannot fail")
}

/// The workload and expected output on disk.
struct Files {
    input: PathBuf,
    expected: PathBuf,
}

impl Files {
    fn write(dir: &Path, input: &[u8], expected: &[u8]) -> Files {
        let files = Files {
            input: dir.join("workload.in"),
            expected: dir.join("expected.out"),
        };
        fs::write(&files.input, input).expect("cannot write the workload file");
        fs::write(&files.expected, expected).expect("cannot write the expected output file");
        files
    }
}

// ---------------------------------------------------------------------------
// The baseline and the correctness check

/// Runs `program` on every golden case that takes no command-line
/// arguments and panics unless it prints exactly the expected output and
/// exits with the expected code: the baseline must keep the whole
/// contract, not only the part the workload uses, or its speed says
/// nothing.
fn check_golden(name: &str, program: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let cases = case::find(&[root]).expect("cannot list the golden cases");
    let mut checked = 0;
    for path in &cases {
        let case = case::read(path).expect("cannot read a golden case");
        if case.has_args {
            continue;
        }
        let run = Command::new(program)
            .stdin(open_read(path))
            .stderr(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {name}: {e}"));
        let expected = case.out.expect("a golden case has a .out file");
        if let Some(diff) = report::first_difference(&expected, &run.stdout) {
            panic!("{name} fails the golden case {}:\n{diff}", path.display());
        }
        assert_eq!(
            run.status.code(),
            case.code,
            "{name} exits wrongly on the golden case {}",
            path.display()
        );
        checked += 1;
    }
    eprintln!("note: {name} passes all {checked} golden cases without options");
}

/// Runs `program` once with the workload on stdin and stdout to `out`;
/// panics unless it prints exactly the expected output and exits with 1.
fn check_output(name: &str, program: &Path, files: &Files, out: &Path) {
    let status = Command::new(program)
        .stdin(open_read(&files.input))
        .stdout(File::create(out).expect("cannot create a file for the output"))
        .status()
        .unwrap_or_else(|e| panic!("cannot run {name} ({}): {e}", program.display()));
    let got = fs::read(out).expect("cannot read back the output");
    let expected = fs::read(&files.expected).expect("cannot read the expected output");
    if let Some(diff) = report::first_difference(&expected, &got) {
        panic!(
            "{name} printed the wrong output (expected: {}, got: {}):\n{diff}",
            files.expected.display(),
            out.display()
        );
    }
    assert_eq!(
        status.code(),
        Some(TERM_EXIT_CODE),
        "{name} must exit with code {TERM_EXIT_CODE} after `term`, but {status}"
    );
}

fn open_read(path: &Path) -> File {
    File::open(path).unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()))
}

// ---------------------------------------------------------------------------
// Timing

/// One thing timed each round.
struct Job {
    name: &'static str,
    what: What,
}

enum What {
    /// A new process: `program args...`, stdin from `stdin` if given.
    Process {
        program: PathBuf,
        args: Vec<PathBuf>,
        stdin: Option<PathBuf>,
        exit_code: i32,
    },
    /// The library's session loop, in-process, from memory to a sink.
    Library,
}

const OURS: &str = "gomoku-mist";
const BASELINE: &str = "C baseline";
const CAT_INPUT: &str = "cat workload";
const CAT_OUTPUT: &str = "cat expected";
const LIBRARY: &str = "library loop";

fn jobs(ours: &Path, baseline: Option<&Path>, files: &Files) -> Vec<Job> {
    let process = |program: &Path, stdin: bool| What::Process {
        program: program.to_path_buf(),
        args: Vec::new(),
        stdin: stdin.then(|| files.input.clone()),
        exit_code: TERM_EXIT_CODE,
    };
    let cat = |file: &Path| What::Process {
        program: PathBuf::from("cat"),
        args: vec![file.to_path_buf()],
        stdin: None,
        exit_code: 0,
    };
    let mut jobs = vec![Job {
        name: OURS,
        what: process(ours, true),
    }];
    if let Some(baseline) = baseline {
        jobs.push(Job {
            name: BASELINE,
            what: process(baseline, true),
        });
    }
    jobs.push(Job {
        name: CAT_INPUT,
        what: cat(&files.input),
    });
    jobs.push(Job {
        name: CAT_OUTPUT,
        what: cat(&files.expected),
    });
    jobs.push(Job {
        name: LIBRARY,
        what: What::Library,
    });
    jobs
}

/// Runs every job once a round, round-robin, starting each round one job
/// further on; returns each job's times of the timed rounds, in round order.
fn time_jobs(jobs: &[Job], input: &[u8], config: Config) -> Vec<Vec<Duration>> {
    let mut samples = vec![Vec::with_capacity(config.rounds); jobs.len()];
    for round in 0..WARM_UP_ROUNDS + config.rounds {
        for k in 0..jobs.len() {
            let index = (round + k) % jobs.len();
            let elapsed = time_job(&jobs[index], input, config.sink);
            if round >= WARM_UP_ROUNDS {
                samples[index].push(elapsed);
            }
        }
    }
    samples
}

fn time_job(job: &Job, input: &[u8], sink: Sink) -> Duration {
    match &job.what {
        What::Library => time_library(input),
        What::Process {
            program,
            args,
            stdin,
            exit_code,
        } => {
            let mut command = Command::new(program);
            command.args(args);
            command.stdin(
                stdin
                    .as_deref()
                    .map_or_else(Stdio::null, |p| open_read(p).into()),
            );
            time_process(job.name, &mut command, sink, *exit_code)
        }
    }
}

fn time_library(input: &[u8]) -> Duration {
    let start = Instant::now();
    let stop = run_library(std::hint::black_box(input), io::sink());
    let elapsed = start.elapsed();
    assert_eq!(stop, Stop::Term, "the library loop must stop at `term`");
    elapsed
}

/// Wall time from spawn to exit, the output drained when it is a pipe.
fn time_process(name: &str, command: &mut Command, sink: Sink, exit_code: i32) -> Duration {
    let mut buffer = vec![0; 64 * 1024];
    match sink {
        Sink::DevNull => {
            let null = OpenOptions::new()
                .write(true)
                .open("/dev/null")
                .expect("cannot open /dev/null");
            command.stdout(null)
        }
        Sink::Pipe => command.stdout(Stdio::piped()),
    };
    let start = Instant::now();
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
    if let Some(mut pipe) = child.stdout.take() {
        drain(&mut pipe, &mut buffer);
    }
    let status = child
        .wait()
        .unwrap_or_else(|e| panic!("cannot wait for {name}: {e}"));
    let elapsed = start.elapsed();
    assert_eq!(
        status.code(),
        Some(exit_code),
        "{name} must exit with code {exit_code}, but {status}"
    );
    elapsed
}

/// Reads `reader` to its end, keeping nothing.
fn drain(reader: &mut impl Read, buffer: &mut [u8]) {
    loop {
        match reader.read(buffer) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => panic!("cannot read a timed process's output: {e}"),
        }
    }
}

// ---------------------------------------------------------------------------
// The report

/// Minimum and median of some times.
#[derive(Clone, Copy)]
struct Summary {
    min: Duration,
    median: Duration,
}

impl Summary {
    fn of(samples: &[Duration]) -> Summary {
        let mut sorted = samples.to_vec();
        sorted.sort_unstable();
        let middle = sorted.len() / 2;
        let median = match sorted.len() % 2 {
            1 => sorted[middle],
            _ => (sorted[middle - 1] + sorted[middle]) / 2,
        };
        Summary {
            min: sorted[0],
            median,
        }
    }
}

fn report(
    config: &Config,
    workload: &Workload,
    expected: &[u8],
    files: &Files,
    jobs: &[Job],
    samples: &[Vec<Duration>],
) {
    let samples_of = |name: &str| {
        jobs.iter()
            .position(|job| job.name == name)
            .map(|i| samples[i].as_slice())
    };
    let cat_input = samples_of(CAT_INPUT).expect("cat is always timed");
    let cat_output = samples_of(CAT_OUTPUT).expect("cat is always timed");
    let cat: Vec<Duration> = cat_input
        .iter()
        .zip(cat_output)
        .map(|(a, b)| *a + *b)
        .collect();
    let ours = Summary::of(samples_of(OURS).expect("gomoku-mist is always timed"));
    let baseline = samples_of(BASELINE).map(Summary::of);
    let cat = Summary::of(&cat);

    print_workload(config, workload, expected, files);
    println!();
    println!(
        "{:<32} {:>10} {:>10} {:>14}",
        "", "min ms", "median ms", "lines/s (med)"
    );
    let row = |name: &str, summary: Summary| print_row(name, summary, workload.lines);
    row("gomoku-mist (process)", ours);
    match baseline {
        Some(baseline) => row("C baseline (process)", baseline),
        None => println!("{:<32} {:>10}", "C baseline (process)", "skipped"),
    }
    row("cat (input + output, per round)", cat);
    row("  cat workload", Summary::of(cat_input));
    row("  cat expected", Summary::of(cat_output));
    row(
        "library loop (in-process)",
        Summary::of(samples_of(LIBRARY).expect("the library is always timed")),
    );
    println!();
    match baseline {
        Some(baseline) => print_ratio(
            "baseline / ours",
            baseline,
            ours,
            Target::AtLeast(BASELINE_OVER_OURS_TARGET),
        ),
        None => println!("baseline / ours: skipped (no C baseline)"),
    }
    print_ratio(
        "ours / cat",
        ours,
        cat,
        Target::AtMost(OURS_OVER_CAT_TARGET),
    );
}

fn print_workload(config: &Config, workload: &Workload, expected: &[u8], files: &Files) {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let sink = match config.sink {
        Sink::DevNull => "/dev/null",
        Sink::Pipe => "a pipe read by the bench",
    };
    println!(
        "workload: {} lines, {} input bytes, {} output bytes",
        workload.lines,
        workload.input.len(),
        expected.len()
    );
    let mix: Vec<String> = KIND_NAMES
        .iter()
        .zip(workload.counts)
        .map(|(name, count)| format!("{name} {count}"))
        .collect();
    println!("mix: {}", mix.join(", "));
    println!(
        "files: {} and {}",
        files.input.display(),
        files.expected.display()
    );
    println!(
        "machine: {cores} cores; stdout to {sink}; {} timed rounds after {WARM_UP_ROUNDS} warm-up",
        config.rounds
    );
}

fn print_row(name: &str, summary: Summary, lines: usize) {
    let per_second = lines as f64 / summary.median.as_secs_f64();
    println!(
        "{name:<32} {:>10.2} {:>10.2} {:>14.0}",
        millis(summary.min),
        millis(summary.median),
        per_second
    );
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[derive(Clone, Copy)]
enum Target {
    AtLeast(f64),
    AtMost(f64),
}

/// `top / bottom` of the medians (and of the minimums, for reference),
/// with PASS or MISS against `target` on the medians.
fn print_ratio(name: &str, top: Summary, bottom: Summary, target: Target) {
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    let median = ratio(top.median, bottom.median);
    let min = ratio(top.min, bottom.min);
    let (pass, wanted) = match target {
        Target::AtLeast(t) => (median >= t, format!(">= {t}x")),
        Target::AtMost(t) => (median <= t, format!("<= {t}x")),
    };
    let verdict = if pass { "PASS" } else { "MISS" };
    println!("{name:<16} {median:>6.2}x median ({min:.2}x min), target {wanted}: {verdict}");
}
