//! The values options take, each read in one place: whichever command
//! reads seconds, jobs, MiB, words or one of a list refuses the same
//! values in the same words.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::args::CliError;
use crate::conform::{MAX_JOBS, sandbox, split::split};

/// The most seconds any option takes: beyond any real run, and small
/// enough that adding it to the clock cannot overflow.
const MAX_SECONDS: f64 = 1_000_000.0;

/// A value as given, and the option its errors name.
#[derive(Clone, Copy, Debug)]
pub struct Value<'a> {
    /// The option, e.g. `--timeout`.
    pub option: &'static str,
    /// The value as given.
    pub raw: &'a OsStr,
}

impl Value<'_> {
    /// The value refused: `problem` follows it in the error.
    pub fn bad(self, problem: &'static str) -> CliError {
        CliError::BadValue {
            option: self.option,
            value: self.raw.to_owned(),
            problem,
        }
    }

    fn invalid(self, reason: String) -> CliError {
        CliError::Invalid {
            option: self.option,
            value: self.raw.to_owned(),
            reason,
        }
    }

    /// A path: any value is one.
    pub fn path(self) -> Result<PathBuf, CliError> {
        Ok(PathBuf::from(self.raw))
    }

    /// A whole number, 0 up.
    pub fn number(self) -> Result<u64, CliError> {
        (self.raw.to_str().and_then(|t| t.parse().ok())).ok_or_else(|| self.bad("is not a number"))
    }

    /// Seconds, up to `MAX_SECONDS`; 0 only where it means "not at all".
    pub fn seconds(self, zero: bool) -> Result<Duration, CliError> {
        (self.raw.to_str())
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|s| s.is_finite() && (0.0..=MAX_SECONDS).contains(s) && (zero || *s > 0.0))
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .ok_or_else(|| {
                self.bad(if zero {
                    "is not a number of seconds from 0 to 1000000"
                } else {
                    "is not a number of seconds from above 0 to 1000000"
                })
            })
    }

    /// A `--timeout`: below a millisecond no program could even start,
    /// and every case would be reported as hung.
    pub fn timeout(self) -> Result<Duration, CliError> {
        match self.seconds(false)? {
            time if time < Duration::from_millis(1) => {
                Err(self.bad("is below a millisecond: no program starts that fast"))
            }
            time => Ok(time),
        }
    }

    /// Runs at once, 0 for twice the number of cores: refused above
    /// [`MAX_JOBS`] rather than clamped, so that a typo is seen.
    pub fn jobs(self) -> Result<usize, CliError> {
        match usize::try_from(self.number()?) {
            // A run spends much of its time starting and waiting on pipes,
            // so one per core leaves the cores idle part of the time
            // (measured: 122% of two cores busy, against 178% with two
            // per core).
            Ok(0) => {
                Ok((2 * std::thread::available_parallelism().map_or(1, usize::from)).min(MAX_JOBS))
            }
            Ok(n) if n <= MAX_JOBS => Ok(n),
            _ => Err(self.bad("is not a number from 0 to 256")),
        }
    }

    /// MiB, from 1 to a TiB, as bytes.
    pub fn mib(self) -> Result<u64, CliError> {
        (self.number().ok().filter(|n| (1..=1 << 20).contains(n)))
            .map(|mib| mib << 20)
            .ok_or_else(|| self.bad("is not a number of MiB from 1 to 1048576"))
    }

    /// Words, split as a shell would split them (quotes work).
    pub fn words(self) -> Result<Vec<OsString>, CliError> {
        let text = (self.raw.to_str()).ok_or_else(|| self.invalid("not UTF-8".into()))?;
        split(text).map_err(|e| self.invalid(e.to_string()))
    }

    /// The one of `choices` the value names.
    pub fn choice<T: Copy>(self, choices: &[(&'static str, T)]) -> Result<T, CliError> {
        match choices.iter().find(|(name, _)| self.raw == *name) {
            Some(&(_, choice)) => Ok(choice),
            None => {
                let names = choices.iter().map(|(name, _)| *name).collect();
                Err(CliError::NotOneOf(self.option, self.raw.to_owned(), names))
            }
        }
    }

    /// Text read by `read` (`\u{fffd}` if not UTF-8), whose error says why
    /// the value is refused.
    pub fn read<T, E: std::fmt::Display>(
        self,
        read: fn(&str) -> Result<T, E>,
    ) -> Result<T, CliError> {
        read(self.raw.to_str().unwrap_or("\u{fffd}"))
            .map_err(|reason| self.invalid(reason.to_string()))
    }
}

/// Whether the program of a `--program`, if one is given, can be found:
/// a bare name (no `/`) must be on `PATH`, as the system looks nowhere
/// else; `student` in the working folder is a common slip, so it is
/// named. A path is left to the kit, which names why it cannot start.
pub fn found(program: Option<&[OsString]>) -> Result<(), CliError> {
    let Some(name) = program.and_then(<[OsString]>::first) else {
        return Ok(());
    };
    if name.is_empty() || name.as_encoded_bytes().contains(&b'/') {
        return Ok(());
    }
    // With no PATH at all, what the system will do is left to the kit.
    if std::env::var_os("PATH").is_none() || sandbox::on_path(name, runnable).is_some() {
        return Ok(());
    }
    let local = (Path::new(name).is_file().then(|| name.to_str()).flatten())
        .filter(|name| !name.chars().any(char::is_control))
        .map(|name| format!("./{name}"));
    Err(CliError::NotFound {
        option: "--program",
        program: name.clone(),
        local,
    })
}

/// Whether `path` is a file the system would run.
fn runnable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        (path.metadata()).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file() || path.with_extension("exe").is_file()
    }
}
