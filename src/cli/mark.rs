//! The command line of `mark`: its options, what they mean, and its help.
//! Read by [`args::read`], under the rules every command keeps.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::time::Duration;

use super::args::{self, CliError, HELP, Spec, VERSION};
use super::kit::{MAX_MEMORY_MIB, MAX_SECONDS, read_timeout};
use crate::conform::mark::compile::Compiler;
use crate::conform::mark::memory::{Checker, MemoryOptions};
use crate::conform::mark::score::Weights;
use crate::conform::mark::suite::{Suite, SuiteOptions};
use crate::conform::mark::{MarkFormat, MarkOptions};
use crate::conform::sandbox::Contain;
use crate::conform::split::split;
use crate::conform::{MAX_JOBS, ReadArgs};

/// The options of `mark`.
pub const SPECS: &[Spec] = &[
    Spec::valued("--source", "FILE"),
    Spec::valued("--cc", "CMD"),
    Spec::valued("--cflags", "FLAGS"),
    Spec::valued("--tests", "DIR"),
    Spec::valued("--fuzz-time", "SECS"),
    Spec::valued("--seed", "N"),
    Spec::valued("--timeout", "SECS"),
    Spec::valued("--memcheck", "TOOL"),
    Spec::valued("--memory-cases", "N"),
    Spec::valued("--peak-limit", "MIB"),
    Spec::valued("--weights", "WEIGHTS"),
    Spec::valued("--format", "FORMAT"),
    Spec::valued("--out", "DIR"),
    Spec::valued("--jobs", "N"),
    Spec::valued("--memory", "MIB"),
    Spec::flag("--isolate"),
    Spec::flag("--unisolated"),
    HELP,
    VERSION,
];

/// Reads the arguments after `mark`.
///
/// # Errors
///
/// [`CliError`] names the first problem found.
pub fn parse(args: &[OsString], read_args: ReadArgs) -> Result<MarkOptions, CliError> {
    let given = args::read(SPECS, args.to_vec())?;
    if given.arguments.is_empty() {
        return Err(CliError::MissingArgument("SUBMISSION"));
    }
    let words = |option: &'static str, default: Vec<OsString>| -> Result<Vec<OsString>, CliError> {
        let Some(value) = given.value(option) else {
            return Ok(default);
        };
        let invalid = |reason: String| CliError::Invalid {
            option,
            value: value.to_owned(),
            reason,
        };
        let text = value.to_str().ok_or_else(|| invalid("not UTF-8".into()))?;
        split(text).map_err(|e| invalid(e.to_string()))
    };
    let course = Compiler::course();
    let cc = words("--cc", course.cc)?;
    if cc.is_empty() {
        return Err(bad("--cc", given.value("--cc"), "names no compiler"));
    }
    let compiler = Compiler {
        cc,
        cflags: words("--cflags", course.cflags)?,
    };
    let source = match given.value("--source") {
        None => "gitm.c".to_owned(),
        Some(v) => v
            .to_str()
            .filter(|s| !s.is_empty() && !s.contains('/'))
            .map(str::to_owned)
            .ok_or_else(|| bad("--source", Some(v), "is not a file name in the folder"))?,
    };
    let timeout = match given.value("--timeout") {
        None => Duration::from_secs(5),
        Some(v) => read_timeout(v)?,
    };
    let fuzz_time = match given.value("--fuzz-time") {
        None => Some(Duration::from_secs(30)),
        Some(v) => {
            let t = seconds(v).ok_or_else(|| {
                bad(
                    "--fuzz-time",
                    Some(v),
                    "is not a number of seconds from 0 to 1000000",
                )
            })?;
            (!t.is_zero()).then_some(t)
        }
    };
    let number = |option: &'static str| -> Result<Option<u64>, CliError> {
        given
            .value(option)
            .map(|v| {
                v.to_str()
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(|| bad(option, Some(v), "is not a number"))
            })
            .transpose()
    };
    let jobs = match number("--jobs")? {
        Some(n) if n > MAX_JOBS as u64 => {
            return Err(bad(
                "--jobs",
                given.value("--jobs"),
                "is not a number from 0 to 256",
            ));
        }
        Some(n) if n > 0 => n as usize,
        _ => (2 * std::thread::available_parallelism().map_or(1, usize::from)).min(MAX_JOBS),
    };
    let checker = match given.value("--memcheck").map(|v| (v, v.to_str())) {
        None | Some((_, Some("auto"))) => Checker::Auto,
        Some((_, Some("valgrind"))) => Checker::Valgrind,
        Some((_, Some("asan"))) => Checker::Asan,
        Some((_, Some("none"))) => Checker::None,
        Some((v, _)) => {
            return Err(bad(
                "--memcheck",
                Some(v),
                "is not auto, valgrind, asan or none",
            ));
        }
    };
    let weights = match given.value("--weights") {
        None => Weights::default(),
        Some(v) => {
            let text = v.to_str().unwrap_or("\u{fffd}");
            Weights::parse(text).map_err(|reason| CliError::Invalid {
                option: "--weights",
                value: v.to_owned(),
                reason: reason.to_string(),
            })?
        }
    };
    let format = match given.value("--format").map(|v| (v, v.to_str())) {
        None | Some((_, Some("text"))) => MarkFormat::Text,
        Some((_, Some("json"))) => MarkFormat::Json,
        Some((_, Some("gradescope"))) => MarkFormat::Gradescope,
        Some((_, Some("junit"))) => MarkFormat::Junit,
        Some((_, Some("csv"))) => MarkFormat::Csv,
        Some((v, _)) => {
            return Err(bad(
                "--format",
                Some(v),
                "is not text, json, gradescope, junit or csv",
            ));
        }
    };
    if format == MarkFormat::Gradescope && given.arguments.len() > 1 {
        return Err(bad(
            "--format",
            given.value("--format"),
            "is for one submission: a class's results.json files go to --out DIR",
        ));
    }
    let mut contain = Contain {
        // A class's programs are untrusted: never run unprotected by
        // accident. (`--isolate`, the default, is still taken.)
        isolate: !given.flag("--unisolated"),
        ..Contain::default()
    };
    if let Some(mib) = given.value("--memory") {
        contain.memory = number("--memory")?
            .filter(|n| (1..=MAX_MEMORY_MIB).contains(n))
            .ok_or_else(|| {
                bad(
                    "--memory",
                    Some(mib),
                    "is not a number of MiB from 1 to 1048576",
                )
            })?
            << 20;
    }
    let suite = match given.value("--tests") {
        Some(dir) => Suite::Folder(PathBuf::from(dir)),
        None => Suite::BuiltIn,
    };
    Ok(MarkOptions {
        submissions: given.arguments.iter().map(PathBuf::from).collect(),
        source,
        compiler,
        suite: SuiteOptions {
            suite,
            read_args,
            timeout,
            jobs,
            fuzz_time,
            seed: number("--seed")?.unwrap_or(1),
        },
        memory: MemoryOptions {
            checker,
            cases: usize::try_from(number("--memory-cases")?.unwrap_or(20)).unwrap_or(usize::MAX),
            timeout,
            jobs,
            limit_kib: number("--peak-limit")?.map(|mib| mib.saturating_mul(1024)),
        },
        weights,
        format,
        out_dir: given.value("--out").map(PathBuf::from),
        jobs,
        contain,
    })
}

fn bad(option: &'static str, value: Option<&OsStr>, problem: &'static str) -> CliError {
    CliError::BadValue {
        option,
        value: value.map(OsStr::to_owned).unwrap_or_default(),
        problem,
    }
}

fn seconds(value: &OsStr) -> Option<Duration> {
    value
        .to_str()
        .and_then(|t| t.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0 && *s <= MAX_SECONDS)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
}

/// `gomoku-mist mark --help`.
pub const HELP_TEXT: &str = "\
Usage: gomoku-mist mark [--source FILE] [--cc CMD] [--cflags FLAGS]
                        [--tests DIR] [--fuzz-time SECS] [--seed N]
                        [--timeout SECS] [--memcheck TOOL] [--memory-cases N]
                        [--peak-limit MIB] [--weights WEIGHTS]
                        [--format FORMAT] [--out DIR] [--jobs N]
                        [--memory MIB] [--unisolated] SUBMISSION...

Marks each SUBMISSION (a folder holding the C source, and optionally the
student's tests in tests/, as NAME.in with NAME.out) along the
assignment's marking scheme, each step run where it can:

  compiles      CC CFLAGS -o gitm FILE -lm, in a scratch folder; the
                compiler's messages shown, trimmed
  restrictions  no source files beyond FILE; no variable-length arrays
                (as the compiler names them); no dynamic memory, files or
                mapped memory (malloc, free, fopen, open, mmap, ... read
                from the functions the compiled program imports)
  correctness   the cases of the suite through `check`, then `fuzz` for
                --fuzz-time; scored as WEIGHT x the share of the cases
                whose expected output the assignment's rules alone decide
  memory        errors under valgrind's memcheck, or else a build with
                AddressSanitizer, on a sample of the cases; the peak
                resident memory of those runs (GNU time)
  tests         each .out of the student's tests checked against this
                program (a wrong one is listed), and the assignment's
                scenarios the right ones cover (`cover`); scored as
                WEIGHT x the share covered

The compiler runs contained as below, with limits of its own (1 GiB of
memory, 120 s of CPU time, 16 processes, a 64 MiB file), so a source
cannot show it a file only this program's user may read, nor make it
read a device for ever. Every run of the program it builds (under
valgrind, AddressSanitizer and GNU time too) is contained as `check`
runs it: in a scratch folder of its own, removed after each
run, with only PATH, LANG, HOME and TMPDIR set, as a user of its own
when this runs as root, and killed, with the limit named, when its
processes hold more than 512 MiB of memory (--memory), when one uses
more than 60 s of CPU time, when more than 64 run at once, when it
writes a file larger than 1 MiB or opens more than 256 files. It runs
isolated by bwrap (bubblewrap): no network, its own processes, and of
the file system only the system's folders and its own, read-only, and
its scratch folder; not the suite, not the other submissions, not this
program. Where bwrap cannot isolate it, mark refuses to run (exit 2)
unless --unisolated is given. Each page says what applied.

A submission that does not compile, or that breaks a restriction, gets 0.
Each figure says what it is based on; these are not the course's
official marks. Every report names the suite, with its number of cases
and a hash of its files (the same for the same files wherever they
are). Submissions are marked in parallel, with a progress line on
stderr when it is a terminal, and a class summary at the end.

Exit code 0 if every submission got its full mark, 1 if not, 2 for a bad
command line or a SUBMISSION or DIR that cannot be read.

Options:
  --source FILE      the C source in each folder [default: gitm.c]
  --cc CMD           the compiler, split like a shell would [default: gcc]
  --cflags FLAGS     its flags [default: -std=c11 -Wall -Werror=vla -O1]
  --tests DIR        the suite to mark against [default: the golden suite
                     built into this program]
  --fuzz-time SECS   how long to fuzz each submission, 0 for not at all
                     [default: 30]
  --seed N           the fuzzing's seed, the same for every submission
                     [default: 1]
  --timeout SECS     kill a run still going after this long, at least
                     0.001 (under valgrind, 20 times this) [default: 5]
  --memcheck TOOL    auto, valgrind, asan or none [default: auto: valgrind
                     where installed, else AddressSanitizer]
  --memory-cases N   cases run under the memory checker, 0 for all
                     [default: 20]
  --peak-limit MIB   a peak resident memory above this is excessive: the
                     memory part then scores nothing [default: no limit]
  --weights WEIGHTS  what each part is worth, 0 for not counted, e.g.
                     correctness=8,tests=2,memory=1
                     [default: correctness=8,tests=2,memory=0]
  --format FORMAT    text, json, gradescope (results.json, one
                     submission), junit or csv [default: text]
  --out DIR          also write every report: DIR/NAME/report.txt,
                     report.json, results.json, junit.xml and the failing
                     cases fuzzing found; DIR/class.csv and DIR/summary.txt
  --jobs N           runs at once, over all submissions, at most 256
                     [default: twice the number of cores]
  --memory MIB       kill a run whose processes hold more than this
                     [default: 512]
  --unisolated       mark even where bwrap cannot isolate the programs:
                     they could then read the suite, the other
                     submissions and whatever this program's user may
  -h, --help         print this help
  -V, --version      print the version
";

#[cfg(test)]
mod tests {
    use super::super::kit::{self, Sub};
    use super::*;

    fn words(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn a_timeout_is_refused_as_check_refuses_it() {
        let cases = [
            ("0", "is not a number of seconds from above 0 to 1000000"),
            (
                "0.0001",
                "is below a millisecond: no program starts that fast",
            ),
            ("-1", "is not a number of seconds from above 0 to 1000000"),
            ("1e19", "is not a number of seconds from above 0 to 1000000"),
        ];
        for (value, problem) in cases {
            let args = words(&["--timeout", value, "a"]);
            let marked = parse(&args, crate::cli::setup).map(drop);
            let checked = kit::parse(Sub::Check, &args, crate::cli::setup).map(drop);
            let said = format!("--timeout: \"{value}\" {problem}");
            assert_eq!(marked.map_err(|e| e.to_string()), Err(said.clone()));
            assert_eq!(checked.map_err(|e| e.to_string()), Err(said));
        }
        let least = parse(&words(&["--timeout", "0.001", "a"]), crate::cli::setup);
        assert!(
            least.is_ok_and(|o| o.suite.timeout == Duration::from_millis(1)),
            "a millisecond is the floor, and allowed"
        );
    }

    #[test]
    fn the_default_suite_is_the_built_in_one_and_tests_names_a_folder() {
        let suite = |args: &[&str]| parse(&words(args), crate::cli::setup).map(|o| o.suite.suite);
        assert_eq!(suite(&["a"]).ok(), Some(Suite::BuiltIn));
        assert_eq!(
            suite(&["--tests", "/nonexistent/golden", "a"]).ok(),
            Some(Suite::Folder(PathBuf::from("/nonexistent/golden"))),
            "a folder is read when marking starts, not when the line is"
        );
    }
}
