//! Building a submission with the course's compiler command, in a scratch
//! folder (the submission's own folder is never written), and the
//! variable-length arrays the compiler names.
//!
//! The compiler is the marker's tool, but what it reads is the student's:
//! an `#include "/etc/shadow"` would show the file's lines in its errors,
//! and an `#include "/dev/zero"` would never end. So it runs contained
//! like the student's program (as a user of its own when the kit is root,
//! in bwrap's box where it works, in a scratch folder of its own, killed
//! over its limits), with limits of its own ([`limits`]): the sources are
//! copied into its folder, and the program it built is moved out of it,
//! owned by the kit, closed to others' writes and readable by the runs
//! alone, to be run.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::super::model::{Build, Restriction, Violation};
use super::super::run::{self, Budget, End};
use super::super::sandbox::{Contain, Kit};
use super::submission::Submission;

/// A compiler still running after this long is killed.
pub const COMPILE_TIMEOUT: Duration = Duration::from_secs(120);
/// The compiler's messages are kept up to this many bytes.
const MESSAGES_CAP: usize = 1 << 20;
/// Of the compiler's messages, this many lines are shown.
const SHOWN_LINES: usize = 20;

/// What the compiler may use: more memory, time and file size than a
/// program under test (a compiler's temporary files, an ASan build with
/// its debugging information), a few processes (the driver, `cc1`, `as`,
/// `collect2`, `ld`), and never less than the kit's own limits.
pub fn limits(kit: &Contain) -> Contain {
    Contain {
        memory: kit.memory.max(1 << 30),
        cpu: kit.cpu.max(COMPILE_TIMEOUT.as_secs()),
        processes: kit.processes.max(16),
        file_size: kit.file_size.max(64 << 20),
        open_files: kit.open_files.max(256),
        isolate: kit.isolate,
    }
}

/// How a submission is compiled: `CC CFLAGS -o gitm SOURCE -lm`.
#[derive(Clone, Debug)]
pub struct Compiler {
    /// The compiler, with any words of its own.
    pub cc: Vec<OsString>,
    /// The flags before `-o`.
    pub cflags: Vec<OsString>,
}

/// The course's compiler and its flags, as `mark`'s `--cc` and `--cflags`
/// take them: their defaults.
pub const COURSE: [&str; 2] = ["gcc", "-std=c11 -Wall -Werror=vla -O1"];

impl Compiler {
    /// The course's default, [`COURSE`].
    pub fn course() -> Compiler {
        let words = |text: &str| text.split(' ').map(OsString::from).collect();
        Compiler {
            cc: words(COURSE[0]),
            cflags: words(COURSE[1]),
        }
    }

    /// The whole command for `source`, building `program`, with `extra`
    /// flags after the course's.
    fn words(&self, source: &str, program: &str, extra: &[&str]) -> Vec<OsString> {
        let mut words = self.cc.clone();
        words.extend(self.cflags.iter().cloned());
        words.extend(extra.iter().map(OsString::from));
        words.extend(["-o", program, source, "-lm"].map(OsString::from));
        words
    }
}

/// The command as one line.
pub fn shown(words: &[OsString]) -> String {
    words
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Copies the submission's sources (its plain `.c` and `.h` files at its
/// top; never a link) into `build`, where the compiler runs, so that
/// nothing is written beside them; the copies are the kit's alone (each
/// compiler's run gets its own copy).
fn copy_sources(sub: &Submission, build: &Path, kit: Option<&Kit>) -> std::io::Result<()> {
    std::fs::create_dir_all(build)?;
    super::scratch::passable(build, kit)?;
    let sources = sub.files().filter(|path| {
        path.parent() == Some(Path::new(""))
            && path.extension().is_some_and(|e| e == "c" || e == "h")
    });
    for name in sources {
        let copy = build.join(name);
        std::fs::write(&copy, sub.read(name)?)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(())
}

/// Runs the compiler on the sources in `build`, and moves the program
/// it built, `program` (a name), into `build`: its messages (stderr
/// merged into stdout, so that none is cut) and whether it succeeded.
fn run_compiler(
    kit: Option<&Kit>,
    build: &Path,
    words: &[OsString],
    program: &str,
) -> (bool, String) {
    // In the C locale, the messages are the same words and quotes on
    // every machine.
    let mut command: Vec<OsString> = ["sh", "-c", "LC_ALL=C exec \"$@\" 2>&1", "sh"]
        .map(OsString::from)
        .to_vec();
    command.extend(words.iter().cloned());
    let timing = Budget {
        timeout: COMPILE_TIMEOUT,
        cap: MESSAGES_CAP,
    };
    let contain = kit.map(|kit| limits(&kit.contain));
    let built = build.join(program);
    let how = run::How {
        seed: Some(build),
        keep: Some((program, &built)),
        contain: contain.as_ref(),
        ..run::How::default()
    };
    let (ran, _) = run::run_as(kit, &command, &[], b"", timing, how);
    let mut messages = String::from_utf8_lossy(&ran.stdout).into_owned();
    let ok = match ran.end {
        End::Code(0) => built.is_file(),
        End::Code(_) | End::Signal(_) => false,
        End::OverLimit(overrun) => {
            messages.push_str(&format!("(the compiler {overrun}: killed)\n"));
            false
        }
        End::TimedOut(t) => {
            messages.push_str(&format!(
                "(the compiler was still running after {t:?}: killed)\n"
            ));
            false
        }
        End::TooMuchOutput(_) => false,
        End::CannotStart(why) | End::Unstarted(why) => {
            messages.push_str(&format!("cannot start the compiler: {why}\n"));
            false
        }
    };
    (ok, messages)
}

/// What is shown of a submission that was not built because `why`.
pub fn not_built(source: &str, compiler: &Compiler, why: &str) -> Build {
    Build {
        command: shown(&compiler.words(source, "gitm", &[])),
        messages: format!("{why}\n"),
        ..Build::default()
    }
}

/// Builds `source` of the submission `sub` into `scratch`: the build, and
/// each variable-length array the compiler named.
///
/// A submission whose only errors are variable-length arrays (the
/// course's `-Werror=vla`) is built again with them allowed, so that the
/// rest of it is still marked: the restriction is reported, and zeroes
/// the mark, either way.
pub fn compile(
    kit: Option<&Kit>,
    sub: &Submission,
    source: &str,
    compiler: &Compiler,
    scratch: &Path,
) -> (Build, Vec<Violation>) {
    let words = compiler.words(source, "gitm", &[]);
    let mut build = Build {
        command: shown(&words),
        ..Build::default()
    };
    if !sub.is_file(Path::new(source)) {
        build.messages = match sub.refused(Path::new(source)) {
            Some(why) => format!("{source} {why}: not read, not built\n"),
            None => format!("no {source} in the submission's folder\n"),
        };
        return (build, Vec::new());
    }
    let dir = scratch.join("build");
    if let Err(e) = copy_sources(sub, &dir, kit) {
        build.messages = format!("cannot copy the sources to build them: {e}\n");
        return (build, Vec::new());
    }
    let (mut ok, mut messages) = run_compiler(kit, &dir, &words, "gitm");
    let vlas = vlas(&messages);
    let errors: Vec<&str> = messages.lines().filter(|l| l.contains("error:")).collect();
    if !ok && !vlas.is_empty() && errors.iter().all(|l| l.contains("vla]")) {
        let relaxed = compiler.words(source, "gitm", &["-Wno-error=vla"]);
        ok = run_compiler(kit, &dir, &relaxed, "gitm").0;
        build.relaxed = ok;
    }
    let program = dir.join("gitm");
    build.compiled = ok && open_program(kit, &program, &mut messages);
    build.messages = trimmed(&messages);
    build.program = build.compiled.then_some(program);
    (build, vlas)
}

/// Builds the submission again with AddressSanitizer, beside the first
/// build: the program, or `None` if this compiler cannot.
pub fn asan(
    kit: Option<&Kit>,
    source: &str,
    compiler: &Compiler,
    scratch: &Path,
) -> Option<PathBuf> {
    let dir = scratch.join("build");
    let flags = [
        "-Wno-error",
        "-fsanitize=address",
        "-fno-omit-frame-pointer",
        "-g",
    ];
    let words = compiler.words(source, "gitm-asan", &flags);
    let (ok, mut messages) = run_compiler(kit, &dir, &words, "gitm-asan");
    let program = dir.join("gitm-asan");
    (ok && open_program(kit, &program, &mut messages)).then_some(program)
}

/// Opens the built `program` to the runs (each as a user of its own,
/// when the kit is root) and no one else; whether it could, with the
/// reason in `messages` if not.
fn open_program(kit: Option<&Kit>, program: &Path, messages: &mut String) -> bool {
    let Some(kit) = kit else {
        return true;
    };
    match kit.share(program) {
        Ok(()) => true,
        Err(e) => {
            messages.push_str(&format!("the kit cannot open the program to run it: {e}\n"));
            false
        }
    }
}

/// Each variable-length array in the compiler's messages, as
/// `FILE:LINE: message`.
fn vlas(messages: &str) -> Vec<Violation> {
    messages
        .lines()
        .filter(|l| l.ends_with("[-Werror=vla]") || l.ends_with("[-Wvla]"))
        .map(|line| {
            // `gitm.c:12:9: error: variable length array 'a' is used [-Werror=vla]`
            let mut parts = line.splitn(4, ':');
            let (file, number) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            let _column = parts.next();
            let text = parts.next().unwrap_or("").trim();
            let text = text
                .trim_start_matches("error:")
                .trim_start_matches("warning:")
                .trim();
            let text = text.rsplit_once(" [").map_or(text, |(message, _)| message);
            Violation {
                rule: Restriction::Vla,
                what: format!("{file}:{number}: {text}"),
            }
        })
        .collect()
}

/// The first [`SHOWN_LINES`] lines, and how many more there were.
fn trimmed(messages: &str) -> String {
    let lines: Vec<&str> = messages.lines().collect();
    let mut out: String = lines
        .iter()
        .take(SHOWN_LINES)
        .flat_map(|l| [l, "\n"])
        .collect();
    if lines.len() > SHOWN_LINES {
        out.push_str(&format!("… ({} more lines)\n", lines.len() - SHOWN_LINES));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vla_is_named_by_file_and_line() {
        let messages = "gitm.c: In function 'main':\n\
            gitm.c:12:9: error: variable length array 'row' is used [-Werror=vla]\n\
            cc1: some warnings being treated as errors\n";
        assert_eq!(
            vlas(messages),
            [Violation {
                rule: Restriction::Vla,
                what: "gitm.c:12: variable length array 'row' is used".into()
            }]
        );
    }

    #[test]
    fn long_messages_are_cut_and_say_how_much() {
        let messages: String = (0..25).map(|i| format!("line {i}\n")).collect();
        let cut = trimmed(&messages);
        assert!(cut.ends_with("line 19\n… (5 more lines)\n"), "{cut}");
    }
}
