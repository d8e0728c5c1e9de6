//! The generic reader of a command line: which options a command has is a
//! table of [`Spec`]s; [`read`] applies the rules every command of the
//! program keeps (see [the module above](super)) and [`CliError`] says,
//! in one line, what broke them. It knows no command's options: it is the
//! leaf the commands' option tables, and the conformance kit, build on.

use std::ffi::{OsStr, OsString};

use thiserror::Error;

/// What is wrong with a command line.
#[derive(Debug, Error)]
pub enum CliError {
    /// An option no command of ours has.
    #[error("unknown option {}{}", shown(.given), suggestion(*.near))]
    UnknownOption {
        /// The option as given, without any `=value`.
        given: OsString,
        /// A known option it is close to.
        near: Option<&'static str>,
    },
    /// An option that takes a value came last.
    #[error("{option} needs a value: {option} <{value}>")]
    MissingValue {
        /// The option, e.g. `--rule`.
        option: String,
        /// What the value is, e.g. `RULE`.
        value: &'static str,
    },
    /// A flag was given a value, as in `--board=yes` or `-hx`.
    #[error("{option} takes no value, but was given {}", shown(.value))]
    UnexpectedValue {
        /// The flag.
        option: String,
        /// The value given.
        value: OsString,
    },
    /// An option given twice.
    #[error("{0} is given more than once")]
    Repeated(String),
    /// An argument where none is expected.
    #[error("unexpected argument {}", shown(.0))]
    UnexpectedArgument(OsString),
    /// A subcommand's name, and how it is invoked, where an argument
    /// stands: a subcommand comes first.
    #[error("unexpected argument {} (a subcommand comes first: {} …)", shown(.0), .1)]
    NotFirst(OsString, String),
    /// A value that does not mean anything to its option.
    #[error("{option}: {} {problem}", shown(.value))]
    BadValue {
        /// The option.
        option: &'static str,
        /// The value as given.
        value: OsString,
        /// What is wrong with it, ready to follow the value.
        problem: &'static str,
    },
    /// A value (the second) that is none of the words (the third) its
    /// option (the first) takes.
    #[error("{}: {} is not {}", .0, shown(.1), one_of(.2))]
    NotOneOf(&'static str, OsString, Vec<&'static str>),
    /// Two options that cannot be given together.
    #[error("{0} and {1} cannot both be given")]
    Exclusive(&'static str, &'static str),
    /// An option that must be given.
    #[error("{0} is required")]
    Required(&'static str),
    /// No argument where at least one is needed.
    #[error("no {0} given")]
    MissingArgument(&'static str),
    /// A value its option cannot use, and why.
    #[error("{option}: {}: {reason}", shown(.value))]
    Invalid {
        /// The option.
        option: &'static str,
        /// The value as given.
        value: OsString,
        /// Why it cannot be used.
        reason: String,
    },
    /// An option that means nothing without another.
    #[error("{0} needs {1}")]
    Needs(&'static str, &'static str),
    /// `help` asked about a subcommand there is not, and those there are.
    #[error("no subcommand {} (help knows {})", shown(.0), .1.join(", "))]
    UnknownSubcommand(OsString, Vec<&'static str>),
    /// A program to run that is neither on `PATH` nor a path to a file,
    /// and, if a file of that name is in the working directory, how to
    /// name it.
    #[error("{option}: {} is not found on PATH{}", shown(.program), .local.as_ref().map_or_else(String::new, |l| format!(" (did you mean {l}?)")))]
    NotFound {
        /// The option, e.g. `--program`.
        option: &'static str,
        /// The program as given.
        program: OsString,
        /// `./NAME`, where the working directory has a file `NAME`.
        local: Option<String>,
    },
    /// One part of a value that cannot be used, as one move of `--moves`.
    #[error("{option}: {part} {} {problem}", shown(.text))]
    Part {
        /// The option.
        option: &'static str,
        /// Which part, e.g. `move 3`.
        part: String,
        /// The part as given.
        text: OsString,
        /// What is wrong with it, ready to follow the part.
        problem: String,
    },
}

/// One option a command accepts.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The long name, with its `--`.
    pub long: &'static str,
    /// The one-letter form, with its `-`, if there is one.
    pub short: Option<&'static str>,
    /// What the value is called in help and errors; `None` for a flag.
    pub value: Option<&'static str>,
}

impl Spec {
    /// A flag: an option that takes no value.
    pub const fn flag(long: &'static str) -> Spec {
        Spec {
            long,
            short: None,
            value: None,
        }
    }

    /// An option that takes a value, called `value` in help and errors.
    pub const fn valued(long: &'static str, value: &'static str) -> Spec {
        Spec {
            long,
            short: None,
            value: Some(value),
        }
    }
}

/// `-h`, `--help`: every command has them.
pub const HELP: Spec = Spec {
    long: "--help",
    short: Some("-h"),
    value: None,
};
/// `-V`, `--version`: every command has them.
pub const VERSION: Spec = Spec {
    long: "--version",
    short: Some("-V"),
    value: None,
};

/// What a command line said once the shared rules were applied: each
/// option at most once, with its value if it takes one, and the arguments.
#[derive(Debug, Default)]
pub struct Given {
    /// The options given, in order, each with its value if it takes one.
    pub options: Vec<(&'static str, Option<OsString>)>,
    /// Everything that was not an option, in order.
    pub arguments: Vec<OsString>,
}

impl Given {
    /// Whether the flag `long` was given.
    pub fn flag(&self, long: &str) -> bool {
        self.options.iter().any(|(name, _)| *name == long)
    }

    /// The value of `long`, if it was given.
    pub fn value(&self, long: &str) -> Option<&OsStr> {
        self.options
            .iter()
            .find(|(name, _)| *name == long)
            .and_then(|(_, value)| value.as_deref())
    }
}

/// How a command line starts, before its options are read.
#[derive(Debug, PartialEq, Eq)]
pub enum Early {
    /// `-h` or `--help` stands before `--` (and before any version flag).
    Help,
    /// `-V` or `--version` stands before `--` (and before any help flag).
    Version,
}

/// Looks for `-h`, `--help`, `-V` and `--version` before any `--`: they
/// win wherever they stand, so a broken line still gets its help.
pub fn early(args: &[OsString]) -> Option<Early> {
    args.iter()
        .map(|arg| arg.as_encoded_bytes())
        .take_while(|&arg| arg != b"--")
        .find_map(|arg| match arg {
            b"-h" | b"--help" => Some(Early::Help),
            b"-V" | b"--version" => Some(Early::Version),
            _ => None,
        })
}

/// Applies the shared rules to `args` for a command whose options are
/// `specs`.
///
/// # Errors
///
/// [`CliError`] for the first argument that breaks a rule.
pub fn read(specs: &[Spec], args: Vec<OsString>) -> Result<Given, CliError> {
    let mut given = Given::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let bytes = arg.as_encoded_bytes();
        if bytes == b"--" {
            given.arguments.extend(args);
            break;
        }
        let (name, attached) = if bytes.starts_with(b"--") {
            match bytes.iter().position(|&b| b == b'=') {
                Some(at) => (&bytes[..at], Some(os_string(&bytes[at + 1..]))),
                None => (bytes, None),
            }
        } else if bytes.len() > 1 && bytes[0] == b'-' {
            // A short option is one letter; anything after it is a value
            // it was given, as in `-hx`.
            let (name, rest) = bytes.split_at(2);
            (name, (!rest.is_empty()).then(|| os_string(rest)))
        } else {
            // Not an option; a lone `-` too, which often means stdin.
            given.arguments.push(arg);
            continue;
        };
        let Some(spec) = specs
            .iter()
            .find(|s| s.long.as_bytes() == name || s.short.is_some_and(|x| x.as_bytes() == name))
        else {
            return Err(CliError::UnknownOption {
                given: os_string(if bytes.starts_with(b"--") {
                    name
                } else {
                    bytes
                }),
                near: nearest(specs, name),
            });
        };
        let option = String::from_utf8_lossy(name).into_owned();
        let value = match (spec.value, attached) {
            (None, None) => None,
            (None, Some(value)) => return Err(CliError::UnexpectedValue { option, value }),
            (Some(_), Some(value)) => Some(value),
            (Some(value), None) => match args.next() {
                Some(next) => Some(next),
                None => return Err(CliError::MissingValue { option, value }),
            },
        };
        if given.flag(spec.long) {
            return Err(CliError::Repeated(option));
        }
        given.options.push((spec.long, value));
    }
    Ok(given)
}

/// The bytes of an argument (or a part of one) as an argument again.
pub fn os_string(bytes: &[u8]) -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        OsStr::from_bytes(bytes).to_owned()
    }
    // Elsewhere arguments are Unicode, and every part we cut ends at an
    // ASCII byte, so nothing is lost.
    #[cfg(not(unix))]
    {
        OsString::from(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// `bytes` as they go between double quotes: every byte that could upset
/// a terminal escaped (control bytes, newlines, bytes that are not
/// UTF-8), the rest as it is. Errors here and paths in the kit's reports
/// both quote this way, so one reads like the other.
pub fn inside_quotes(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            // Inside double quotes a single quote needs no escape.
            match c {
                '\'' => out.push(c),
                c => out.extend(c.escape_debug()),
            }
        }
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    out
}

/// How much of an argument an error shows before cutting it.
pub const SHOWN_MAX: usize = 40;

/// An argument as an error shows it: quoted, every byte that could upset a
/// terminal escaped (control bytes, newlines, bytes that are not UTF-8),
/// and, past [`SHOWN_MAX`] bytes, cut with a note of its length.
pub fn shown(arg: &OsStr) -> String {
    let bytes = arg.as_encoded_bytes();
    let kept = &bytes[..bytes.len().min(SHOWN_MAX)];
    let mut out = String::from("\"");
    out.push_str(&inside_quotes(kept));
    if kept.len() < bytes.len() {
        out.push_str(&format!("…\" ({} bytes)", bytes.len()));
    } else {
        out.push('"');
    }
    out
}

fn suggestion(near: Option<&'static str>) -> String {
    near.map(|n| format!(" (did you mean {n}?)"))
        .unwrap_or_default()
}

/// `a, b or c`.
fn one_of(words: &[&str]) -> String {
    match words {
        [rest @ .., last] if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// The known option closest to `name`, if one is close: the same but for
/// case, or at most two edits away.
fn nearest(specs: &[Spec], name: &[u8]) -> Option<&'static str> {
    specs
        .iter()
        .map(|s| s.long)
        .map(|long| (distance(&name.to_ascii_lowercase(), long.as_bytes()), long))
        .filter(|&(d, _)| d <= 2)
        .min_by_key(|&(d, _)| d)
        .map(|(_, long)| long)
}

/// Edits (insert, delete, replace) that turn `a` into `b`.
fn distance(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(x != y);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance() {
        assert_eq!(distance(b"", b"abc"), 3);
        assert_eq!(distance(b"--bord", b"--board"), 1);
        assert_eq!(distance(b"kitten", b"sitting"), 3);
    }
}
