//! The values the options of `check`, `fuzz`, `cover` and `mark` take,
//! each read in one place: an option of any of them that takes seconds, a
//! count of jobs, MiB, words or one of a list refuses the same values in
//! the same words.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::args::CliError;
use crate::conform::{MAX_JOBS, sandbox, split::split};

/// The longest time any option takes, in seconds: far beyond any real
/// run, and small enough that adding it to the clock cannot overflow.
pub const MAX_SECONDS: f64 = 1_000_000.0;

/// The most `--memory` takes, in MiB: a TiB.
pub const MAX_MEMORY_MIB: u64 = 1 << 20;

/// The least time an option of seconds takes. There is one rule: 0 is
/// taken only where it means "not at all".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Least {
    /// 0 means not at all (`--fuzz-time`).
    Zero,
    /// Any time at all (`--time`).
    AboveZero,
    /// A millisecond (`--timeout`): below it no program could even start,
    /// and a run would report every case as hung.
    Millisecond,
}

/// A value as given, with the option it was given to, which its errors
/// name.
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

    /// The value as a path.
    pub fn path(self) -> PathBuf {
        PathBuf::from(self.raw)
    }

    /// A whole number, 0 up.
    pub fn number(self) -> Result<u64, CliError> {
        (self.raw.to_str())
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| self.bad("is not a number"))
    }

    /// A time in seconds, at most [`MAX_SECONDS`] and at least `least`.
    pub fn seconds(self, least: Least) -> Result<Duration, CliError> {
        let range = match least {
            Least::Zero => "is not a number of seconds from 0 to 1000000",
            _ => "is not a number of seconds from above 0 to 1000000",
        };
        let time = (self.raw.to_str())
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|s| s.is_finite() && (0.0..=MAX_SECONDS).contains(s))
            .filter(|s| *s > 0.0 || least == Least::Zero)
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .ok_or_else(|| self.bad(range))?;
        if least == Least::Millisecond && time < Duration::from_millis(1) {
            return Err(self.bad("is below a millisecond: no program starts that fast"));
        }
        Ok(time)
    }

    /// How many runs at once: refused above [`MAX_JOBS`] rather than
    /// clamped, so a typo is seen rather than silently changed; 0 is
    /// twice the number of cores.
    pub fn jobs(self) -> Result<usize, CliError> {
        match usize::try_from(self.number()?).ok() {
            // A run spends much of its time starting and waiting on pipes,
            // so one per core leaves the cores idle part of the time
            // (measured: 122% of two cores busy, against 178% with two
            // per core).
            Some(0) => {
                Ok((2 * std::thread::available_parallelism().map_or(1, usize::from)).min(MAX_JOBS))
            }
            Some(n) if n <= MAX_JOBS => Ok(n),
            _ => Err(self.bad("is not a number from 0 to 256")),
        }
    }

    /// A number of MiB from 1 to [`MAX_MEMORY_MIB`], in bytes.
    pub fn mib(self) -> Result<u64, CliError> {
        (self.number().ok())
            .filter(|n| (1..=MAX_MEMORY_MIB).contains(n))
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
        (choices.iter())
            .find(|(name, _)| self.raw == *name)
            .map(|&(_, choice)| choice)
            .ok_or_else(|| CliError::NotOneOf {
                option: self.option,
                value: self.raw.to_owned(),
                choices: choices.iter().map(|(name, _)| *name).collect(),
            })
    }

    /// Text, read by `read` (which gets `\u{fffd}` for text that is not
    /// UTF-8); `read`'s error is the reason the value is refused.
    pub fn read<T>(self, read: fn(&str) -> Result<T, String>) -> Result<T, CliError> {
        read(self.raw.to_str().unwrap_or("\u{fffd}")).map_err(|reason| self.invalid(reason))
    }
}

/// Whether the program of a `--program`, if one is given, can be found:
/// a bare name (no `/`) must be a file on `PATH`, as the system will look
/// for it there and nowhere else; a student's `student` in the working
/// directory is a common slip, so it is named. A path is left to the kit,
/// which reports a program that cannot start with the system's reason.
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
    let local = Path::new(name)
        .is_file()
        .then(|| name.to_str())
        .flatten()
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
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file() || path.with_extension("exe").is_file()
    }
}
