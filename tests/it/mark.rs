//! `mark` on planted submissions (`tests/mark/class/NAME/gitm.c`, each
//! with one fault planted, as its first comment says), against a small
//! suite (`tests/mark/suite`, nine golden cases: five the assignment's
//! rules decide, four that end the input mid-game) so that the one that
//! hangs at end of input costs four timeouts, not a hundred and sixty.
//! The correct one is also marked against the whole golden suite, the
//! one built into the program, by a copy of the binary far from its
//! source.
//!
//! They need a C compiler (gcc), and valgrind for the memory part: each
//! test says so and returns where they are missing. Fuzzing gets a second;
//! nothing asserted depends on how many sessions it ran.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::common::BIN;

/// A whole class takes a minute or so on a loaded machine: far past it,
/// the run is taken to hang.
const CLASS_TIME: Duration = Duration::from_secs(900);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Whether `program` can be started; if not, the reason a test skips.
pub(crate) fn missing(program: &str) -> Option<String> {
    match Command::new(program).arg("--version").output() {
        Ok(_) => None,
        Err(e) => Some(format!("{program} cannot be started ({e})")),
    }
}

/// An empty folder of this test's own, under the system's temporary one.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "gomoku-mist-mark-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs `gomoku-mist mark ARGS` in the repository's root: stdout and the
/// exit code.
fn mark(args: &[&str]) -> (String, Option<i32>) {
    let output = assert_cmd::Command::new(BIN)
        .arg("mark")
        .args(crate::common::unisolated())
        .args(args)
        .current_dir(root())
        .timeout(CLASS_TIME)
        .output()
        .expect("run gomoku-mist mark");
    (
        String::from_utf8(output.stdout).expect("the report is UTF-8"),
        output.status.code(),
    )
}

fn class() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("tests/mark/class"))
        .expect("read tests/mark/class")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
        .iter()
        .map(|n| format!("tests/mark/class/{n}"))
        .collect()
}

/// One line a submission, from the kit's JSON: what compiled, what broke,
/// the correctness cases, the memory verdict, wrong tests and the total.
fn table(report: &Value) -> String {
    let mut out = String::new();
    for s in report["submissions"].as_array().expect("submissions") {
        let broken: Vec<String> = s["restrictions"]
            .as_array()
            .expect("restrictions")
            .iter()
            .filter(|r| !r["broken"].as_array().expect("broken").is_empty())
            .map(|r| {
                format!(
                    "{}={}",
                    r["id"].as_str().unwrap_or(""),
                    r["broken"][0].as_str().unwrap_or("")
                )
            })
            .collect();
        let rules = &s["correctness"]["rules"];
        let memory = &s["memory"];
        let memory = if memory.is_null() || memory["tool"].is_null() {
            "not checked"
        } else if memory["errors"].as_array().is_some_and(|e| e.is_empty()) {
            "ok"
        } else {
            "errors"
        };
        out.push_str(&format!(
            "{}: compiles {}, broken [{}], rules {}/{}, memory {memory}, wrong tests {}, total {}\n",
            s["name"].as_str().unwrap_or(""),
            s["compiles"],
            broken.join(", "),
            rules["passed"],
            rules["run"],
            s["tests"]["wrong"].as_array().map_or(0, Vec::len),
            s["marks"]["total"],
        ));
    }
    out
}

#[test]
fn a_class_of_planted_submissions_is_marked_in_one_run() {
    if let Some(why) = missing("gcc") {
        println!("skipped: {why}");
        return;
    }
    let valgrind = missing("valgrind");
    if let Some(why) = &valgrind {
        println!("the memory part is not checked: {why}");
    }
    let out = scratch("class");
    let out_arg = out.display().to_string();
    let mut args = vec![
        "--tests",
        "tests/mark/suite",
        "--fuzz-time",
        "1",
        "--timeout",
        "2",
        "--memory-cases",
        "4",
        "--jobs",
        "4",
        "--format",
        "json",
        "--out",
        &out_arg,
        "--memcheck",
        if valgrind.is_some() {
            "none"
        } else {
            "valgrind"
        },
    ];
    let submissions = class();
    args.extend(submissions.iter().map(String::as_str));
    let (stdout, code) = mark(&args);
    let report: Value = serde_json::from_str(&stdout).expect("mark --format json writes JSON");
    let oob_memory = if valgrind.is_some() {
        "not checked"
    } else {
        "errors"
    };
    let clean = if valgrind.is_some() {
        "not checked"
    } else {
        "ok"
    };
    let expected = format!(
        "correct: compiles true, broken [], rules 5/5, memory {clean}, wrong tests 0, total 10.0\n\
         extra-file: compiles true, broken [extra_files=board.h: a source file beyond gitm.c], rules 5/5, memory {clean}, wrong tests 0, total 0.0\n\
         fopen: compiles true, broken [files=calls fopen], rules 5/5, memory {clean}, wrong tests 0, total 0.0\n\
         hang: compiles true, broken [], rules 5/5, memory {clean}, wrong tests 0, total 8.0\n\
         malloc: compiles true, broken [dynamic_memory=calls calloc], rules 5/5, memory {clean}, wrong tests 0, total 0.0\n\
         mmap: compiles true, broken [mapped_memory=calls mmap], rules 5/5, memory {clean}, wrong tests 0, total 0.0\n\
         no-compile: compiles false, broken [], rules null/null, memory not checked, wrong tests 0, total 0.0\n\
         out-of-bounds: compiles true, broken [], rules 5/5, memory {oob_memory}, wrong tests 0, total 8.0\n\
         vla: compiles true, broken [vla=gitm.c:72: ISO C90 forbids variable length array 'line'], rules 5/5, memory {clean}, wrong tests 0, total 0.0\n\
         wrong-test: compiles true, broken [], rules 5/5, memory {clean}, wrong tests 1, total 8.23\n"
    );
    let got = table(&report);
    assert_eq!(got, expected, "\nexpected:\n{expected}\ngot:\n{got}");
    assert_eq!(code, Some(1), "not every submission got its full mark");

    // The hang is found as what it is, once: the cases that end the input
    // mid-game are not run (each would cost the timeout), and the rest pass.
    let hang = &report["submissions"][3]["correctness"];
    assert_eq!(hang["not_run_at_end_of_input"], 4, "{hang}");
    assert_eq!(hang["failures"].as_array().map(Vec::len), Some(0), "{hang}");
    assert_eq!(hang["fuzz"]["assignment_only"], true, "{hang}");
    assert_eq!(
        report["submissions"][0]["correctness"]["not_run_at_end_of_input"],
        0
    );
    // The wrong test is named, with where it is wrong.
    let wrong = &report["submissions"][9]["tests"]["wrong"][0];
    assert_eq!(wrong["case"], "tests/coordinate.in");
    assert!(
        wrong["detail"]
            .as_str()
            .unwrap_or("")
            .contains("test's   | Invalid!⏎"),
        "{wrong}"
    );

    // The suite given is named, with its cases and hash, once for the
    // class and on each submission, and at the end of the summary.
    let said = report["suite"]["said"].as_str().unwrap_or_default();
    assert!(
        said.starts_with("tests/mark/suite (9 cases, fnv1a64:"),
        "{said}"
    );
    assert_eq!(report["suite"]["built_in"], false);
    assert_eq!(report["submissions"][6]["suite"], report["suite"]);
    let summary = std::fs::read_to_string(out.join("summary.txt")).expect("summary.txt");
    let (before, made) = (summary.trim_end().rsplit_once('\n')).expect("lines");
    assert!(before.ends_with(&format!("\nsuite: {said}")), "{summary}");
    // And what it was made with: the version, and the options as given.
    let version = concat!("gomoku-mist ", env!("CARGO_PKG_VERSION"));
    assert!(
        made.starts_with(&format!(
            "made with: {version}, mark --tests tests/mark/suite "
        )),
        "{summary}"
    );
    let made_with = &report["submissions"][6]["made_with"];
    assert_eq!(made_with["program"], version);
    let options = made_with["options"].as_array().expect("options");
    assert_eq!(options[..2], ["--tests", "tests/mark/suite"], "{made_with}");

    // The class's CSV: a row a submission.
    let csv = std::fs::read_to_string(out.join("class.csv")).expect("class.csv is written");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "name,compiles,extra_files,vla,dynamic_memory,files,mapped_memory,correctness,tests,memory,total,max"
    );
    assert_eq!(rows.len(), 11, "{csv}");
    assert_eq!(
        rows[1],
        format!("correct,yes,ok,ok,ok,ok,ok,8,2,{clean},10,10")
    );
    assert_eq!(
        rows[7],
        "no-compile,no,ok,not checked,not checked,not checked,not checked,0,0,not checked,0,10"
    );

    // Each submission's Gradescope results.json: the total as its score,
    // and a test a check, each with its score, output and visibility.
    for (s, name) in report["submissions"]
        .as_array()
        .expect("submissions")
        .iter()
        .zip(&submissions)
    {
        let name = name.rsplit('/').next().unwrap_or_default();
        let path = out.join(name).join("results.json");
        let text = std::fs::read_to_string(&path).expect("results.json is written");
        let results: Value = serde_json::from_str(&text).expect("results.json is JSON");
        assert_eq!(results["score"], s["marks"]["total"], "{name}");
        let tests = results["tests"].as_array().expect("tests");
        assert_eq!(
            tests.len(),
            9,
            "{name}: compiles, five restrictions, two parts, the memory not counted"
        );
        for test in tests {
            for key in ["name", "score", "max_score", "output", "visibility"] {
                assert!(!test[key].is_null(), "{name}: a test without {key}: {test}");
            }
        }
        assert!(
            results["output"]
                .as_str()
                .unwrap_or("")
                .contains("Not the course's official mark")
        );
        let junit = std::fs::read_to_string(out.join(name).join("junit.xml")).expect("junit.xml");
        roxmltree::Document::parse(&junit).expect("junit.xml is XML");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// `mark` with no `--tests` marks against the golden suite built into
/// the program: a binary copied anywhere, with the source tree out of its
/// reach, marks as it would in the repository, and says which suite.
#[test]
fn the_correct_submission_passes_every_golden_case_and_gets_full_marks_from_a_copied_binary() {
    use gomoku_mist::conform::mark::suite::{Ready, Suite};

    if let Some(why) = missing("gcc") {
        println!("skipped: {why}");
        return;
    }
    // The binary alone in a folder of its own, run from another, with
    // nothing to tell it where it was built.
    let copied = scratch("copied");
    let elsewhere = scratch("elsewhere");
    for dir in [&copied, &elsewhere] {
        std::fs::create_dir_all(dir).expect("make a folder");
    }
    let bin = copied.join("gomoku-mist");
    std::fs::copy(BIN, &bin).expect("copy the binary");
    let out = elsewhere.join("marks");
    let output = assert_cmd::Command::new(&bin)
        .args(["mark", "--fuzz-time", "1", "--timeout", "5"])
        .args(crate::common::unisolated())
        .args(["--memory-cases", "2", "--format", "gradescope", "--out"])
        .arg(&out)
        .arg(root().join("tests/mark/class/correct"))
        .env_remove("CARGO_MANIFEST_DIR")
        .current_dir(&elsewhere)
        .timeout(CLASS_TIME)
        .output()
        .expect("run the copied gomoku-mist mark");
    let read = |file: &str| std::fs::read_to_string(out.join("correct").join(file));
    let (page, json) = (read("report.txt"), read("report.json"));
    let _ = std::fs::remove_dir_all(&copied);
    let _ = std::fs::remove_dir_all(&elsewhere);

    let results: Value = serde_json::from_slice(&output.stdout).expect("gradescope is JSON");
    let shown = results["output"].as_str().unwrap_or_default();
    assert_eq!(results["score"], 10.0, "{shown}");
    assert_eq!(output.status.code(), Some(0), "{shown}");
    assert!(
        shown.contains(
            "the assignment's rules: 182 of 182 passed; this contract's decisions: 41 of 41"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("0 failures"),
        "fuzzing found nothing: {shown}"
    );

    let s: Value = serde_json::from_str(&json.expect("report.json")).expect("report.json");
    let golden = Ready::new(&Suite::Folder(root().join("tests/golden"))).expect("tests/golden");
    let said = format!(
        "the built-in golden suite of gomoku-mist {} ({} cases, {})",
        env!("CARGO_PKG_VERSION"),
        golden.used.cases,
        golden.used.hash_text()
    );
    assert_eq!(s["suite"]["said"], said.as_str(), "{}", s["suite"]);
    assert_eq!(s["suite"]["built_in"], true);
    assert_eq!(s["suite"]["hash"], golden.used.hash_text().as_str());
    let c = &s["correctness"];
    assert_eq!(c["suite"], "the built-in golden suite");
    assert_eq!(
        c["rules"],
        serde_json::json!({"passed": 182, "run": 182}),
        "{c}"
    );
    assert_eq!(c["failures"], serde_json::json!([]), "{c}");
    // A case is named by its place in the suite, not in a scratch folder.
    if let Some(case) = s["memory"]["peak_case"].as_str() {
        assert!(case.starts_with("golden/"), "{case}");
    }
    let line = format!("suite: {said}\n");
    let page = page.expect("report.txt is written");
    assert!(page.contains(&line), "{page}");
    assert!(shown.contains(&line), "{shown}");
    assert!(!page.contains("gomoku-mist-suite-"), "{page}");
}

#[test]
fn memory_counted_by_weight_and_seen_by_address_sanitizer() {
    if let Some(why) = missing("gcc") {
        println!("skipped: {why}");
        return;
    }
    let (stdout, _) = mark(&[
        "--tests",
        "tests/mark/suite",
        "--fuzz-time",
        "0",
        "--memcheck",
        "asan",
        "--memory-cases",
        "0",
        "--weights",
        "memory=1",
        "--format",
        "json",
        "tests/mark/class/out-of-bounds",
    ]);
    let report: Value = serde_json::from_str(&stdout).expect("JSON");
    let s = &report["submissions"][0];
    if let Some(why) = s["memory"]["not_checked"].as_str() {
        println!("skipped: {why}");
        return;
    }
    assert_eq!(s["memory"]["tool"], "AddressSanitizer");
    let error = s["memory"]["errors"][0]["report"]
        .as_str()
        .unwrap_or_default();
    assert!(error.contains("stack-buffer-overflow"), "{error}");
    let parts = s["marks"]["parts"].as_array().expect("parts");
    let memory = parts
        .iter()
        .find(|p| p["part"] == "memory")
        .expect("memory counted");
    assert_eq!(
        (memory["score"].as_f64(), memory["max"].as_f64()),
        (Some(0.0), Some(1.0))
    );
    assert_eq!(s["marks"]["total"], 8.0);
    assert_eq!(s["marks"]["max"], 11.0);
}

#[test]
fn mark_usage_errors_name_the_option_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "no SUBMISSION given"),
        (
            &["--format", "gradescope", "a", "b"],
            "--format: \"gradescope\" is for one submission",
        ),
        (
            &["--weights", "style=1", "a"],
            "--weights: \"style=1\": \"style\" is not a part",
        ),
        (
            &["--memcheck", "purify", "a"],
            "--memcheck: \"purify\" is not auto, valgrind, asan or none",
        ),
        (
            &["--fuzz-time", "-1", "a"],
            "--fuzz-time: \"-1\" is not a number of seconds",
        ),
        // `check`'s floor, in `check`'s words.
        (
            &["--timeout", "0", "a"],
            "--timeout: \"0\" is not a number of seconds from above 0 to 1000000",
        ),
        (
            &["--timeout", "0.0001", "a"],
            "--timeout: \"0.0001\" is below a millisecond: no program starts that fast",
        ),
    ];
    for (args, want) in cases {
        let output = assert_cmd::Command::new(BIN)
            .arg("mark")
            .args(crate::common::unisolated())
            .args(*args)
            .timeout(Duration::from_secs(60))
            .output()
            .expect("run gomoku-mist mark");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    }
}

#[test]
fn the_progress_line_counts_the_submissions_and_names_the_one_being_marked() {
    use gomoku_mist::conform::mark::{self, Progress};

    let opts = two_that_do_not_compile();
    let (mut out, mut progress) = (Vec::new(), Vec::new());
    mark::mark(&opts, None, &mut out, Progress::Terminal(&mut progress)).expect("mark runs");
    let progress = String::from_utf8(progress).expect("UTF-8");
    let lines: Vec<&str> = progress
        .split("\r\x1b[K")
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        lines,
        [
            BUDGET_OF_TWO,
            "[0 of 2 marked] marking no-compile",
            "[1 of 2 marked] marking no-compile",
            "[1 of 2 marked] marking no-compile-2",
            "[2 of 2 marked] marking no-compile-2",
        ]
    );
    let csv = String::from_utf8(out).expect("UTF-8");
    assert!(
        csv.contains("\nno-compile,no,") && csv.contains("\nno-compile-2,no,"),
        "{csv}"
    );
}

/// The budget of [`two_that_do_not_compile`]: two compiles of 2 min and
/// nine cases of 5 s, nothing else.
const BUDGET_OF_TWO: &str = "marking 2 submissions, 1 at a time, each within 4 min 45 s at \
    worst: compiling 2 min (twice at worst), 9 cases × 5 s\n";

#[test]
fn a_log_gets_the_budget_then_a_line_for_each_submission_with_the_time_left() {
    use gomoku_mist::conform::mark::{self, Progress};

    let opts = two_that_do_not_compile();
    let (mut out, mut progress) = (Vec::new(), Vec::new());
    mark::mark(&opts, None, &mut out, Progress::Lines(&mut progress)).expect("mark runs");
    let progress = String::from_utf8(progress).expect("UTF-8");
    let lines: Vec<&str> = progress.lines().collect();
    assert_eq!(lines.len(), 3, "{progress}");
    assert_eq!(format!("{}\n", lines[0]), BUDGET_OF_TWO);
    assert!(
        !progress.contains('\r'),
        "no terminal codes in a log: {progress:?}"
    );
    let (first, second) = (lines[1], lines[2]);
    assert!(
        first.starts_with("[1 of 2 marked] no-compile after "),
        "{first}"
    );
    assert!(
        first.ends_with(" left") && first.contains("; about "),
        "{first}"
    );
    assert!(
        second.starts_with("[2 of 2 marked] no-compile-2 after "),
        "{second}"
    );
    assert!(second.ends_with("; done"), "{second}");
}

/// Two submissions that do not compile: whether or not there is a
/// compiler, each is marked at once.
fn two_that_do_not_compile() -> gomoku_mist::conform::mark::MarkOptions {
    use gomoku_mist::conform::mark::compile::Compiler;
    use gomoku_mist::conform::mark::memory::{Checker, MemoryOptions};
    use gomoku_mist::conform::mark::score::Weights;
    use gomoku_mist::conform::mark::suite::{Suite, SuiteOptions};
    use gomoku_mist::conform::mark::{MarkFormat, MarkOptions};

    MarkOptions {
        submissions: vec![
            root().join("tests/mark/class/no-compile"),
            root().join("tests/mark/class/no-compile"),
        ],
        source: "gitm.c".into(),
        compiler: Compiler::course(),
        suite: SuiteOptions {
            suite: Suite::Folder(root().join("tests/mark/suite")),
            read_args: gomoku_mist::cli::setup,
            timeout: Duration::from_secs(5),
            jobs: 1,
            fuzz: None,
            seed: 1,
        },
        memory: MemoryOptions {
            checker: Checker::None,
            cases: 1,
            timeout: Duration::from_secs(5),
            jobs: 1,
            limit_kib: None,
        },
        weights: Weights::default(),
        format: MarkFormat::Csv,
        out_dir: None,
        gradescope: Default::default(),
        given: Vec::new(),
        autograder: None,
        jobs: 1,
        contain: Default::default(),
    }
}

/// The processes whose command line mentions `text`.
#[cfg(target_os = "linux")]
fn processes_naming(text: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|line| String::from_utf8_lossy(&line).replace('\0', " "))
        .filter(|line| line.contains(text))
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn a_submission_writing_a_large_file_is_killed_for_it_and_leaves_nothing() {
    if let Some(why) = missing("gcc") {
        println!("skipped: {why}");
        return;
    }
    // The kit's scratch folders go under a TMPDIR of this test's own
    // (open to others: the programs run as nobody when the test is root).
    let tmp = scratch("hostile");
    std::fs::create_dir_all(&tmp).expect("make a folder");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let open = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(&tmp, open).expect("open the folder");
    }
    let output = assert_cmd::Command::new(BIN)
        .args(["mark", "--tests", "tests/mark/suite", "--fuzz-time", "1"])
        .args(crate::common::unisolated())
        .args(["--memcheck", "none", "--format", "json"])
        .arg("tests/mark/hostile/writes")
        .env("TMPDIR", &tmp)
        .current_dir(root())
        .timeout(CLASS_TIME)
        .output()
        .expect("run gomoku-mist mark");
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let c = &report["submissions"][0]["correctness"];
    let failures: Vec<String> = c["failures"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| format!("{}: {}", f["reason"], f["detail"]))
        .collect();
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    let running = processes_naming(&tmp.to_string_lossy());
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        failures.len() == 9
            && failures
                .iter()
                .all(|r| r.contains("too large a file")
                    && r.contains("wrote more than 1 MiB to a file")),
        "{failures:#?}"
    );
    let contained = c["contained"].to_string();
    assert!(contained.contains("a 1 MiB file"), "{contained}");
    assert_eq!(left, Vec::<PathBuf>::new(), "folders left behind");
    assert_eq!(running, Vec::<String>::new(), "processes left running");
    for file in ["tests/mark/hostile/writes/filled", "filled"].map(|f| root().join(f)) {
        assert!(!file.exists(), "{} written", file.display());
    }
}

/// Marks the hostile submission `tests/mark/hostile/NAME` (only the
/// compile step matters: it never compiles): its JSON report.
#[cfg(target_os = "linux")]
fn mark_hostile(name: &str) -> Value {
    let (out, code) = mark(&[
        "--tests",
        "tests/mark/suite",
        "--fuzz-time",
        "1",
        "--memcheck",
        "none",
        "--format",
        "json",
        &format!("tests/mark/hostile/{name}"),
    ]);
    assert_eq!(code, Some(1), "no full mark: {out}");
    serde_json::from_str(&out).expect("JSON")
}

#[cfg(target_os = "linux")]
#[test]
fn the_compiler_cannot_show_a_file_the_marker_may_read_and_others_may_not() {
    if let Some(why) = missing("gcc") {
        println!("skipped: {why}");
        return;
    }
    if !Path::new("/etc/shadow").exists() {
        println!("skipped: there is no /etc/shadow here to keep secret");
        return;
    }
    let report = mark_hostile("reads-secret");
    let s = &report["submissions"][0];
    let messages = s["compiler_messages"].as_str().expect("messages");
    assert_eq!(s["compiles"], false, "{messages}");
    // In the box the file is not there at all; without bwrap (marking
    // --unisolated) the compiler's user may not read it.
    assert!(
        messages.contains("/etc/shadow: No such file or directory")
            || messages.contains("/etc/shadow: Permission denied"),
        "{messages}"
    );
    // Read as the marker (root, on CI), the file's lines are there to
    // compare; not root, the marker cannot read them either.
    if let Ok(secret) = std::fs::read_to_string("/etc/shadow") {
        for line in secret.lines().filter(|l| l.contains(':')) {
            assert!(!messages.contains(line), "{line:?} shown in {messages}");
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_compiler_reading_an_endless_device_is_killed_and_the_submission_does_not_compile() {
    if let Some(why) = missing("gcc") {
        println!("skipped: {why}");
        return;
    }
    let report = mark_hostile("includes-device");
    let s = &report["submissions"][0];
    let messages = s["compiler_messages"].as_str().expect("messages");
    assert_eq!(s["compiles"], false, "{messages}");
    assert!(
        messages.contains("(the compiler used more than 1024 MiB of memory: killed)"),
        "{messages}"
    );
    assert!(s["marks"]["total"].as_f64() == Some(0.0), "{s}");
}

#[test]
fn restrictions_dodged_through_dlsym_internal_names_or_syscall_are_named() {
    if let Some(why) = missing("gcc") {
        println!("skipped: {why}");
        return;
    }
    let names = ["dlsym-malloc", "libc-malloc", "syscall-openat"];
    let folders = names.map(|n| format!("tests/mark/hostile/{n}"));
    let mut args = vec!["--tests", "tests/mark/suite", "--fuzz-time", "0"];
    args.extend(["--timeout", "5", "--memcheck", "none", "--format", "json"]);
    args.extend(folders.iter().map(String::as_str));
    let (out, code) = mark(&args);
    assert_eq!(code, Some(1), "no full mark: {out}");
    let report: Value = serde_json::from_str(&out).expect("JSON");
    let by_name = "looks up functions by name at run time: \
                   it can reach malloc, fopen or mmap unseen";
    let direct = "makes system calls directly: \
                  it can get memory, open files or map memory unseen";
    let every = |what: &str| {
        ["dynamic_memory", "files", "mapped_memory"]
            .map(|rule| format!("{rule}: {what}"))
            .to_vec()
    };
    let expected = [
        every(&format!("calls dlsym, which {by_name}")),
        vec![
            "dynamic_memory: calls __libc_free".to_owned(),
            "dynamic_memory: calls __libc_malloc".to_owned(),
        ],
        every(&format!("calls syscall, which {direct}")),
    ];
    for ((s, name), want) in report["submissions"]
        .as_array()
        .expect("submissions")
        .iter()
        .zip(names)
        .zip(expected)
    {
        assert_eq!(s["name"], name);
        assert_eq!(s["compiles"], true, "{name}: {}", s["compiler_messages"]);
        let got: Vec<String> = s["restrictions"]
            .as_array()
            .expect("restrictions")
            .iter()
            .flat_map(|r| {
                let id = r["id"].as_str().unwrap_or_default().to_owned();
                r["broken"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(move |b| format!("{id}: {}", b.as_str().unwrap_or_default()))
            })
            .collect();
        assert_eq!(got, want, "{name}");
        assert_eq!(s["marks"]["total"], 0.0, "{name}");
    }
}

/// A file only the marker may read, and a submission beside it that
/// reaches for it every way a folder can: `tests/leak.out` and `secret.h`
/// link to it, a folder links out, `tests/pipe.in` is a FIFO,
/// `tests/shut.out` may be read by no one; its `gitm.c` includes
/// `secret.h`. Beside them, a link to the submission, a FIFO and (when
/// folders can be closed here) a folder no one may read, each given as a
/// submission of its own.
#[cfg(unix)]
fn reaching_class(dir: &Path, secret: &str) -> std::io::Result<Vec<PathBuf>> {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let outside = dir.join("marker");
    std::fs::create_dir_all(&outside)?;
    let file = outside.join("secret.txt");
    std::fs::write(&file, format!("{secret}\n"))?;
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600))?;
    let bob = dir.join("bob");
    std::fs::create_dir_all(bob.join("tests"))?;
    std::fs::write(
        bob.join("gitm.c"),
        "#include \"secret.h\"\nint main(void) { return 0; }\n",
    )?;
    std::fs::write(bob.join("tests/leak.in"), "term\n")?;
    std::fs::write(bob.join("tests/shut.out"), "")?;
    symlink(&file, bob.join("tests/leak.out"))?;
    symlink(&file, bob.join("secret.h"))?;
    symlink(&outside, bob.join("tests/marker"))?;
    let mode = rustix::fs::Mode::from_raw_mode(0o644);
    let fifo = rustix::fs::FileType::Fifo;
    rustix::fs::mknodat(rustix::fs::CWD, bob.join("tests/pipe.in"), fifo, mode, 0)?;
    rustix::fs::mknodat(rustix::fs::CWD, dir.join("pipe"), fifo, mode, 0)?;
    let none = std::fs::Permissions::from_mode(0o000);
    std::fs::set_permissions(bob.join("tests/shut.out"), none.clone())?;
    symlink(&bob, dir.join("alias"))?;
    let closed = dir.join("closed");
    std::fs::create_dir_all(&closed)?;
    std::fs::set_permissions(&closed, none)?;
    Ok(["bob", "alias", "pipe", "closed"]
        .map(|n| dir.join(n))
        .to_vec())
}

#[cfg(unix)]
#[test]
fn links_fifos_and_unreadable_files_are_named_never_read_and_the_class_is_marked() {
    let dir = scratch("reaching");
    let secret = "the marker's secret: 7f3a9c";
    let submissions = reaching_class(&dir, secret).expect("build the submissions");
    // With the power to read anything (root), nothing is unreadable here.
    let closable = std::fs::read(dir.join("bob/tests/shut.out")).is_err();
    if !closable {
        println!("files no one may read are readable here (root): that part is not checked");
    }
    let out = dir.join("marks");
    let out_arg = out.display().to_string();
    let mut args = vec!["--tests", "tests/mark/suite", "--fuzz-time", "0"];
    args.extend(["--memcheck", "none", "--format", "json", "--out", &out_arg]);
    let shown: Vec<String> = submissions
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    args.extend(shown.iter().map(String::as_str));
    let (stdout, code) = mark(&args);
    let report: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(code, Some(1), "{stdout}");
    let all = report["submissions"].as_array().expect("submissions");
    assert_eq!(all.len(), 4, "every submission is marked: {stdout}");

    let not_read = |s: &Value| -> Vec<String> {
        s["not_read"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|n| {
                format!(
                    "{} {}",
                    n["path"].as_str().unwrap_or_default(),
                    n["reason"].as_str().unwrap_or_default()
                )
            })
            .collect()
    };
    let mut bob = vec![
        "secret.h links outside the submission",
        "tests/leak.out links outside the submission",
        "tests/marker links outside the submission",
        "tests/pipe.in is a FIFO",
    ];
    if closable {
        bob.push("tests/shut.out cannot be opened (permission denied)");
    }
    assert_eq!(not_read(&all[0]), bob, "{}", all[0]);
    assert_eq!(all[0]["folder_read"], true);
    // The linked header was never copied where the compiler runs.
    let messages = all[0]["compiler_messages"].as_str().unwrap_or_default();
    assert_eq!(all[0]["compiles"], false, "{messages}");
    if missing("gcc").is_none() {
        assert!(messages.contains("secret.h: No such file"), "{messages}");
    }
    // The case whose .out links out is left out, not counted as a case.
    assert_eq!(all[0]["tests"]["cases"], 0, "{}", all[0]["tests"]);

    let whole = |s: &Value, path: &Path, why: &str| {
        assert_eq!(not_read(s), [format!("{} {why}", path.display())], "{s}");
        assert_eq!(s["folder_read"], false, "{s}");
        assert_eq!(s["marks"]["total"], 0.0, "{s}");
        assert_eq!(s["marks"]["zeroed"], "its folder was not read", "{s}");
    };
    whole(
        &all[1],
        &submissions[1],
        "is a link (not followed: give the folder it leads to)",
    );
    assert_eq!(all[1]["name"], "alias");
    whole(&all[2], &submissions[2], "is a FIFO, not a folder");
    if closable {
        whole(
            &all[3],
            &submissions[3],
            "cannot be read (permission denied)",
        );
    }

    // Every report of every submission names what it left out, and none
    // holds the secret.
    let page = std::fs::read_to_string(out.join("bob/report.txt")).expect("report.txt");
    assert!(
        page.contains("  tests/leak.out links outside the submission: not read\n"),
        "{page}"
    );
    for name in ["bob", "alias", "pipe", "closed"] {
        for file in ["report.txt", "report.json", "results.json", "junit.xml"] {
            let text = std::fs::read_to_string(out.join(name).join(file)).expect("a report");
            assert!(!text.contains(secret), "{name}/{file} shows the secret");
        }
    }
    assert!(!stdout.contains(secret), "the JSON shows the secret");
    use std::os::unix::fs::PermissionsExt;
    let open = std::fs::Permissions::from_mode(0o755);
    let _ = std::fs::set_permissions(dir.join("closed"), open);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn where_the_programs_cannot_be_isolated_mark_refuses_unless_told_to_go_on() {
    let run = |extra: &[&str]| {
        assert_cmd::Command::new(BIN)
            .arg("mark")
            .args(extra)
            .args(["--tests", "tests/mark/suite", "--fuzz-time", "0"])
            .args(["--memcheck", "none", "tests/mark/class/correct"])
            .env("PATH", "/nonexistent")
            .current_dir(root())
            .timeout(CLASS_TIME)
            .output()
            .expect("run gomoku-mist mark")
    };
    let refused = run(&[]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(refused.stdout.is_empty(), "marked anyway");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("bwrap (bubblewrap) is not installed: mark runs every submission isolated")
            && stderr.contains("--unisolated"),
        "{stderr}"
    );
    // Told to, it marks (no compiler on this PATH: a zero, said why), and
    // says how little the programs were contained.
    let went_on = run(&["--unisolated"]);
    let stdout = String::from_utf8_lossy(&went_on.stdout);
    let stderr = String::from_utf8_lossy(&went_on.stderr);
    assert_eq!(went_on.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("compiles: NO"), "{stdout}");
    assert!(
        stderr.contains("so the program under test is not isolated"),
        "{stderr}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_fork_bomb_marked_beside_a_classmate_costs_the_classmate_nothing() {
    if let Some(why) = missing("gcc") {
        println!("skipped: {why}");
        return;
    }
    // Only as root does each run get a user of its own; as another user
    // every run's processes are that user's, and a fork bomb is not a
    // thing to set off on someone's own machine.
    if !rustix::process::geteuid().is_root() {
        println!("skipped: each run has a user of its own only when the kit runs as root");
        return;
    }
    let args = |submissions: &[&'static str]| {
        let mut args = vec![
            "--tests",
            "tests/mark/suite",
            "--fuzz-time",
            "1",
            "--memcheck",
            "none",
            "--jobs",
            "8",
            "--format",
            "json",
        ];
        args.extend_from_slice(submissions);
        args
    };
    let alone = mark(&args(&["tests/mark/class/correct"])).0;
    let alone: Value = serde_json::from_str(&alone).expect("JSON");
    let (both, _) = mark(&args(&[
        "tests/mark/hostile/fork-bomb",
        "tests/mark/class/correct",
    ]));
    let both: Value = serde_json::from_str(&both).expect("JSON");
    let (bomb, correct) = (&both["submissions"][0], &both["submissions"][1]);
    assert_eq!(correct["name"], "correct");
    let marks = |s: &Value| (s["marks"].clone(), s["correctness"]["rules"].clone());
    assert_eq!(
        marks(correct),
        marks(&alone["submissions"][0]),
        "the classmate's marks changed beside a fork bomb: {both:#}"
    );
    assert_eq!(correct["correctness"]["skipped"], 0, "{both:#}");
    // The bomb itself is stopped, each time, at the process limit.
    let failures = bomb["correctness"]["failures"].to_string();
    assert!(failures.contains("too many processes"), "{bomb:#}");
}

/// A program that loops printing at end of input is killed at the
/// output cap on the cases that end mid-game: those runs did not end by
/// themselves, so they are not run again under valgrind (where the loop
/// would run to the CPU limit and valgrind's own report of the kill was
/// taken for a memory error), and the memory verdict is that of the runs
/// that were checked.
#[test]
fn runs_killed_at_a_limit_are_never_memory_errors() {
    for program in ["gcc", "valgrind"] {
        if let Some(why) = missing(program) {
            println!("skipped: {why}");
            return;
        }
    }
    let (out, _) = mark(&[
        "--tests",
        "tests/mark/suite",
        "--fuzz-time",
        "0",
        "--timeout",
        "2",
        "--memcheck",
        "valgrind",
        "--memory-cases",
        "0",
        "--format",
        "json",
        "tests/mark/hostile/print-at-eof",
    ]);
    let report: Value = serde_json::from_str(&out).expect("JSON");
    let sub = &report["submissions"][0];
    let failures = sub["correctness"]["failures"].to_string();
    assert!(
        failures.contains("too much output"),
        "the loop is found as what it is: {sub:#}"
    );
    let memory = &sub["memory"];
    assert_eq!(memory["killed_at_limit"], 0, "{memory:#}");
    assert_eq!(memory["errors"], serde_json::json!([]), "{memory:#}");
    assert_eq!(memory["verdict"], "ok", "{memory:#}");
    assert_eq!(memory["cases"], memory["cases_ended"], "{memory:#}");
    assert!(
        memory["cases"].as_u64().is_some_and(|n| n > 0),
        "{memory:#}"
    );
}

/// The class page and a student's page, opened in headless Chromium:
/// each shows its content, and the browser reports no error of the page
/// (a script that fails, markup it cannot parse into the table).
#[test]
fn the_pages_open_in_a_real_browser_without_an_error() {
    for program in ["gcc", "chromium"] {
        if let Some(why) = missing(program) {
            println!("skipped: {why}");
            return;
        }
    }
    let out = scratch("pages");
    let out_arg = out.display().to_string();
    let (_, code) = mark(&[
        "--tests",
        "tests/mark/suite",
        "--fuzz-time",
        "0",
        "--memcheck",
        "none",
        "--out",
        &out_arg,
        "tests/mark/class/wrong-test",
        "tests/mark/class/no-compile",
    ]);
    assert_eq!(code, Some(1), "not every submission got its full mark");
    for (page, shows) in [
        ("index.html", "<table id=\"class\">"),
        ("wrong-test/report.html", "WRONG tests/coordinate.in"),
        ("no-compile/report.html", "compiles: NO"),
    ] {
        let path = out.join(page);
        let browser = Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--enable-logging=stderr",
                "--v=0",
                "--dump-dom",
            ])
            .arg(format!("file://{}", path.display()))
            .output()
            .expect("run chromium");
        let dom = String::from_utf8_lossy(&browser.stdout);
        let log = String::from_utf8_lossy(&browser.stderr);
        assert!(
            dom.contains(shows),
            "{page}: no {shows:?} in what Chromium shows:\n{dom}"
        );
        let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
        assert!(
            console.is_empty(),
            "{page}: the browser says:\n{}",
            console.join("\n")
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}
