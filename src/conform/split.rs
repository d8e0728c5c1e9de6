//! `--program "CMD ARGS"`: one string split into a program and its
//! arguments the way a POSIX shell splits words, so the program runs
//! without a shell (no expansion, no redirection: what is written is what
//! runs).

use std::ffi::OsString;

use thiserror::Error;

/// A command line that cannot be split.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SplitError {
    /// A `'` or `"` with no closing one.
    #[error("a {0} quote is not closed")]
    Unclosed(&'static str),
    /// A `\` at the very end, escaping nothing.
    #[error("it ends with a lone backslash")]
    TrailingBackslash,
    /// Nothing but whitespace.
    #[error("it names no program")]
    Empty,
}

/// Splits `line` into words: whitespace separates them; `'…'` keeps
/// everything inside as it is; `"…"` keeps everything but lets `\` escape
/// `"`, `\`, `$` and `` ` ``; outside quotes `\` keeps the next character.
///
/// # Errors
///
/// [`SplitError`] for an unclosed quote, a trailing `\` or no word at all.
pub fn split(line: &str) -> Result<Vec<OsString>, SplitError> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(done) = word.take() {
                    words.push(OsString::from(done));
                }
            }
            '\'' => {
                let current = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => current.push(c),
                        None => return Err(SplitError::Unclosed("single")),
                    }
                }
            }
            '"' => {
                let current = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => current.push(c),
                            Some(c) => {
                                current.push('\\');
                                current.push(c);
                            }
                            None => return Err(SplitError::Unclosed("double")),
                        },
                        Some(c) => current.push(c),
                        None => return Err(SplitError::Unclosed("double")),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(SplitError::TrailingBackslash),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(done) = word {
        words.push(OsString::from(done));
    }
    if words.is_empty() {
        return Err(SplitError::Empty);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        let cases: &[(&str, &[&str])] = &[
            ("prog", &["prog"]),
            ("  prog   a  b ", &["prog", "a", "b"]),
            ("python3 'my prog.py'", &["python3", "my prog.py"]),
            (r#"a "b c" d"#, &["a", "b c", "d"]),
            (r#"a "say \"hi\"""#, &["a", r#"say "hi""#]),
            (r#"a "x\ny""#, &["a", r"x\ny"]),
            (r"a b\ c", &["a", "b c"]),
            ("a ''", &["a", ""]),
            ("a'b'\"c\"d", &["abcd"]),
            ("./bin --opt=1\t-x", &["./bin", "--opt=1", "-x"]),
        ];
        for (line, want) in cases {
            let got = split(line);
            let want: Vec<OsString> = want.iter().map(OsString::from).collect();
            assert_eq!(got, Ok(want), "splitting {line:?}");
        }
    }

    #[test]
    fn refuses_what_a_shell_would() {
        let cases = [
            ("a 'b", SplitError::Unclosed("single")),
            ("a \"b", SplitError::Unclosed("double")),
            ("a \\", SplitError::TrailingBackslash),
            ("   ", SplitError::Empty),
            ("", SplitError::Empty),
        ];
        for (line, want) in cases {
            assert_eq!(split(line), Err(want), "splitting {line:?}");
        }
    }
}
