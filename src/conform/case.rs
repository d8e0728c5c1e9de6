//! Finding and reading cases: the golden-suite convention of this
//! repository. A case is files sharing a name: `NAME.in` (stdin),
//! `NAME.out` (stdout), `NAME.code` (exit code in decimal), and
//! `NAME.args` (this program's options, one a line) where present.
//! `.err` files are ignored: stderr is not part of the contract.

use std::ffi::OsString;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use super::{ConformError, Expected, Invocation, ReadArgs, reference};

/// One case, read from disk.
#[derive(Clone, Debug)]
pub struct Case {
    /// The `.in` file.
    pub path: PathBuf,
    /// Its bytes.
    pub input: Vec<u8>,
    /// The options from `.args`; empty without one.
    pub args: Vec<OsString>,
    /// Whether there is a `.args` file.
    pub has_args: bool,
    /// The `.out` file's bytes, if there is one.
    pub out: Option<Vec<u8>>,
    /// The `.code` file's number, if there is one.
    pub code: Option<i32>,
    /// The `.err` file's bytes, if there is one: what the program writes
    /// on stderr. `check` does not compare it (other programs word their
    /// errors their own way); this program's golden suite does.
    pub err: Option<Vec<u8>>,
}

impl Case {
    /// Why this case cannot be run as it is, if it cannot: asked before
    /// [`Case::expected`], which may have to run the reference.
    pub fn not_run(&self) -> Option<&'static str> {
        if self
            .args
            .first()
            .is_some_and(|first| first == "check" || first == "fuzz")
        {
            // The kit would start itself, once a case, without end.
            return Some("its .args start the kit (check or fuzz), not a game");
        }
        let complete = self.out.is_some() && self.code.is_some();
        if !complete && self.has_option("--cpu") && !self.has_option("--cpu-nodes") {
            // The reference would search for the computer's full thinking
            // time, and how far it gets depends on the machine.
            return Some(
                "the computer's moves depend on the machine: give .out and .code, or --cpu-nodes",
            );
        }
        None
    }

    /// What is expected: `.out` and `.code`, or the reference's where one
    /// is missing (run in-process here, with no time limit of its own, its
    /// options read by `read_args`).
    pub fn expected(&self, read_args: ReadArgs) -> Expected {
        match (&self.out, self.code) {
            (Some(stdout), Some(code)) => Expected {
                stdout: stdout.clone(),
                code,
            },
            (out, code) => {
                let setup = if self.args.is_empty() {
                    Invocation::contract()
                } else {
                    read_args(&self.args)
                };
                let own = reference(setup, &self.input);
                Expected {
                    stdout: out.clone().unwrap_or(own.stdout),
                    code: code.unwrap_or(own.code),
                }
            }
        }
    }

    /// As [`Case::expected`], but `None` if the reference has not worked
    /// it out within `timeout`: a computer given a huge `--cpu-nodes` would
    /// otherwise think for hours. Its thinking is also bounded by
    /// `timeout` a move, so the thread left behind ends soon after.
    pub fn expected_within(&self, read_args: ReadArgs, timeout: Duration) -> Option<Expected> {
        if let (Some(stdout), Some(code)) = (&self.out, self.code) {
            return Some(Expected {
                stdout: stdout.clone(),
                code,
            });
        }
        let case = self.clone();
        let (send, receive) = mpsc::channel();
        thread::spawn(move || {
            let mut setup = if case.args.is_empty() {
                Invocation::contract()
            } else {
                read_args(&case.args)
            };
            if let Invocation::Play { cpu: Some(cpu), .. } = &mut setup {
                cpu.time = Some(cpu.time.map_or(timeout, |t| t.min(timeout)));
            }
            let own = reference(setup, &case.input);
            let _ = send.send(Expected {
                stdout: case.out.clone().unwrap_or(own.stdout),
                code: case.code.unwrap_or(own.code),
            });
        });
        receive.recv_timeout(timeout).ok()
    }

    /// Whether `.args` gives the option `name`, as `name` or `name=...`.
    fn has_option(&self, name: &str) -> bool {
        self.args.iter().any(|arg| {
            arg.to_str().is_some_and(|arg| {
                arg.strip_prefix(name)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('='))
            })
        })
    }
}

/// Every `.in` file under `paths` (each a folder, searched recursively,
/// or a single `.in` file), sorted and without repeats.
///
/// # Errors
///
/// [`ConformError`] for a path that cannot be read or is not a case.
pub fn find(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ConformError> {
    let mut found = Vec::new();
    for path in paths {
        let meta = fs::metadata(path).map_err(|source| ConformError::Path {
            path: path.clone(),
            source,
        })?;
        if meta.is_dir() {
            walk(path, &mut found)?;
        } else if is_input(path) {
            found.push(path.clone());
        } else {
            return Err(ConformError::NotACase(path.clone()));
        }
    }
    found.sort();
    found.dedup();
    Ok(found)
}

fn is_input(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "in")
}

fn walk(folder: &Path, found: &mut Vec<PathBuf>) -> Result<(), ConformError> {
    let io = |source| ConformError::Path {
        path: folder.to_path_buf(),
        source,
    };
    for entry in fs::read_dir(folder).map_err(io)? {
        let entry = entry.map_err(io)?;
        let path = entry.path();
        if entry.file_type().map_err(io)?.is_dir() {
            walk(&path, found)?;
        } else if is_input(&path) {
            found.push(path);
        }
    }
    Ok(())
}

/// The largest `.in` file read: a case is a session typed or generated,
/// and reading a bigger one could exhaust memory.
pub const MAX_INPUT: u64 = 1 << 30;

/// Why the files of the case whose `.in` file is `path` cannot be read
/// safely, if they cannot: a FIFO would block the reader for ever, a
/// device (a link to `/dev/zero`) never ends, and a huge file fills
/// memory.
pub fn unreadable(path: &Path) -> Option<&'static str> {
    for extension in ["in", "out", "code", "args"] {
        let file = path.with_extension(extension);
        match fs::metadata(&file) {
            Ok(meta) if !meta.is_file() => {
                return Some("not a plain file (a FIFO, a device or a link to one)");
            }
            Ok(meta) if meta.len() > MAX_INPUT => return Some("larger than 1 GiB"),
            _ => {}
        }
    }
    None
}

/// Reads the case whose `.in` file is `path`.
///
/// # Errors
///
/// [`ConformError`] if a file of the case cannot be read or is malformed.
pub fn read(path: &Path) -> Result<Case, ConformError> {
    read_with(path, &read_file)
}

/// What reads one file of a case: its bytes, or `None` if there is no
/// such file.
pub type ReadFile<'a> = &'a dyn Fn(&Path) -> Result<Option<Vec<u8>>, ConformError>;

/// As [`read`], each file read by `read_file`: a student's case is read
/// only from the plain files of the submission
/// ([`super::mark::submission`]), never through a link.
///
/// # Errors
///
/// [`ConformError`] if `read_file` fails or a file is malformed.
pub fn read_with(path: &Path, read_file: ReadFile) -> Result<Case, ConformError> {
    let input = read_file(path)?.unwrap_or_default();
    let args_path = path.with_extension("args");
    let args_bytes = read_file(&args_path)?;
    let has_args = args_bytes.is_some();
    let args = match args_bytes {
        Some(bytes) => String::from_utf8(bytes)
            .map_err(|_| ConformError::BadArgs(args_path))?
            .lines()
            .map(OsString::from)
            .collect(),
        None => Vec::new(),
    };
    let out = read_file(&path.with_extension("out"))?;
    let code_path = path.with_extension("code");
    let code = match read_file(&code_path)? {
        Some(bytes) => Some(
            std::str::from_utf8(&bytes)
                .ok()
                .and_then(|text| text.trim().parse::<i32>().ok())
                .ok_or(ConformError::BadCode(code_path))?,
        ),
        None => None,
    };
    Ok(Case {
        path: path.to_path_buf(),
        input,
        args,
        has_args,
        out,
        code,
        err: read_file(&path.with_extension("err"))?,
    })
}

/// A file's bytes, or `None` if there is no such file.
fn read_file(path: &Path) -> Result<Option<Vec<u8>>, ConformError> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ConformError::Path {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Writes `input` and what the reference makes of it as the case
/// `folder/name.{in,out,code}`, ready for `check`.
///
/// # Errors
///
/// [`ConformError::Write`] if the folder or a file cannot be written.
pub fn write(
    folder: &Path,
    name: &str,
    input: &[u8],
    expected: &Expected,
) -> Result<PathBuf, ConformError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ConformError::Write { path, source }
    };
    fs::create_dir_all(folder).map_err(io(folder))?;
    let stem = folder.join(name);
    let code = format!("{}\n", expected.code);
    for (extension, bytes) in [
        ("in", input),
        ("out", &expected.stdout[..]),
        ("code", code.as_bytes()),
    ] {
        let path = stem.with_extension(extension);
        fs::write(&path, bytes).map_err(io(&path))?;
    }
    Ok(stem.with_extension("in"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIT: &str = "its .args start the kit (check or fuzz), not a game";
    const MACHINE: &str =
        "the computer's moves depend on the machine: give .out and .code, or --cpu-nodes";

    fn case(args: &[&str], out: bool, code: bool) -> Case {
        Case {
            path: PathBuf::from("x.in"),
            input: Vec::new(),
            args: args.iter().map(OsString::from).collect(),
            has_args: !args.is_empty(),
            out: out.then(Vec::new),
            code: code.then_some(0),
            err: None,
        }
    }

    #[test]
    fn cases_that_are_not_run_say_why() {
        let cases: &[(&[&str], bool, bool, Option<&str>)] = &[
            (&[], false, false, None),
            (&["--rule", "caro"], false, false, None),
            (&["check", "."], true, true, Some(KIT)),
            (&["fuzz", "--program", "x"], true, true, Some(KIT)),
            (&["--rule", "check"], false, false, None),
            (&["--cpu", "white"], false, false, Some(MACHINE)),
            (&["--cpu=black"], true, false, Some(MACHINE)),
            (
                &["--cpu", "white", "--cpu-time", "5"],
                false,
                true,
                Some(MACHINE),
            ),
            (&["--cpu", "white"], true, true, None),
            (
                &["--cpu", "white", "--cpu-nodes", "100"],
                false,
                false,
                None,
            ),
            (&["--cpu=white", "--cpu-nodes=100"], false, false, None),
            (&["--cpuX", "white"], false, false, None),
        ];
        for &(args, out, code, want) in cases {
            assert_eq!(
                case(args, out, code).not_run(),
                want,
                "{args:?}, .out {out}, .code {code}"
            );
        }
    }

    #[test]
    fn expected_keeps_what_the_files_give() {
        let mut given = case(&[], true, true);
        given.out = Some(b"kept".to_vec());
        given.code = Some(7);
        assert_eq!(
            given.expected(|_| Invocation::Refuse),
            Expected {
                stdout: b"kept".to_vec(),
                code: 7
            }
        );
    }
}
