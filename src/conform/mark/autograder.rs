//! `mark --gradescope-autograder FILE.zip`: the zip Gradescope's
//! autograder takes, so that a course runs `mark` there without glue.
//!
//! Gradescope unpacks the zip in `/autograder/source`, runs `setup.sh` once
//! as root to build its image, then `run_autograder` for each submission,
//! which must leave `/autograder/results/results.json`. The zip holds:
//!
//! - `setup.sh` and `run_autograder` (the files beside this one);
//! - `gomoku-mist`: this very program, copied from its own path. A binary
//!   rather than a source to build: Gradescope's image has no Rust
//!   toolchain, and a build there would need one downloaded and minutes of
//!   compiling at every image build; and the copy is the program the
//!   course marked with at its desk, the same version and the same suite
//!   built in, so a mark on Gradescope is the mark at the desk. It needs
//!   Linux on the same architecture and glibc 2.34 or later (Ubuntu 22.04
//!   on): `setup.sh` runs it once and says so when it cannot;
//! - `arguments`: the marking options of the command line, NUL-separated
//!   as read (so any byte survives), for `run_autograder` to give `mark`;
//! - `compiler`: the course compiler's command, for `setup.sh` to install;
//! - `suite/`: the `--tests` folder, when one is given, whose name in
//!   `arguments` is then `suite` (`run_autograder` runs in the source).

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use zip::ZipWriter;
use zip::write::SimpleFileOptions;

use crate::conform::ConformError;

/// The script Gradescope runs once, to build the image.
pub const SETUP: &str = include_str!("autograder/setup.sh");

/// The script Gradescope runs for each submission.
pub const RUN: &str = include_str!("autograder/run_autograder");

/// What the zip is made of: the shell reads it off the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Autograder {
    /// The zip to write.
    pub zip: PathBuf,
    /// The options `mark` is to be run with there, `--tests` pointing at
    /// the bundled `suite` when a suite folder is given.
    pub arguments: Vec<OsString>,
    /// The suite folder to bundle, if one is given.
    pub suite: Option<PathBuf>,
    /// The course compiler's command (its first word).
    pub compiler: OsString,
}

/// What went into the zip, for the line the shell prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The suite's files bundled.
    pub suite_files: usize,
    /// The zip's size in bytes.
    pub bytes: u64,
}

/// How deep a suite's folders may nest: a link loop must end.
const MAX_DEPTH: usize = 16;

/// Writes the zip, whole or not at all (it is made beside its path and
/// renamed into place).
///
/// # Errors
///
/// [`ConformError::CurrentExe`] if this program cannot be read,
/// [`ConformError::Path`] if the suite cannot, and
/// [`ConformError::Write`] if the zip cannot be written.
pub fn write(autograder: &Autograder) -> Result<Written, ConformError> {
    let program = std::env::current_exe()
        .and_then(fs::read)
        .map_err(ConformError::CurrentExe)?;
    let mut files: Vec<(String, Vec<u8>, u32)> = vec![
        ("setup.sh".into(), SETUP.into(), 0o755),
        ("run_autograder".into(), RUN.into(), 0o755),
        ("gomoku-mist".into(), program, 0o755),
        (
            "arguments".into(),
            nul_separated(&autograder.arguments),
            0o644,
        ),
        (
            "compiler".into(),
            autograder.compiler.as_encoded_bytes().to_vec(),
            0o644,
        ),
    ];
    let mut suite_files = 0;
    if let Some(suite) = &autograder.suite {
        let before = files.len();
        bundle(suite, "suite", 0, &mut files).map_err(|source| ConformError::Path {
            path: suite.clone(),
            source,
        })?;
        suite_files = files.len() - before;
    }
    let part = part_path(&autograder.zip);
    let failed = |source: io::Error| ConformError::Write {
        path: autograder.zip.clone(),
        source,
    };
    let written = zip_files(&part, &files).and_then(|bytes| {
        fs::rename(&part, &autograder.zip)?;
        Ok(bytes)
    });
    match written {
        Ok(bytes) => Ok(Written { suite_files, bytes }),
        Err(e) => {
            let _ = fs::remove_file(&part);
            Err(failed(e))
        }
    }
}

/// `FILE.zip.part`, beside it.
fn part_path(zip: &Path) -> PathBuf {
    let mut name = zip.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

/// Each argument followed by a NUL, as bash's `mapfile -d ''` reads them.
fn nul_separated(arguments: &[OsString]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for argument in arguments {
        bytes.extend_from_slice(argument.as_encoded_bytes());
        bytes.push(0);
    }
    bytes
}

/// Adds the files under `folder` as `name/...`, in name order, following
/// links (a suite may link its cases), and skipping what is neither a
/// file nor a folder.
fn bundle(
    folder: &Path,
    name: &str,
    depth: usize,
    files: &mut Vec<(String, Vec<u8>, u32)>,
) -> io::Result<()> {
    if depth > MAX_DEPTH {
        return Err(io::Error::other("folders nested too deep (a link loop?)"));
    }
    let mut entries: Vec<_> = fs::read_dir(folder)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(fs::DirEntry::file_name);
    for entry in entries {
        let Some(leaf) = entry.file_name().to_str().map(str::to_owned) else {
            return Err(io::Error::other(format!(
                "{}: a file name that is not UTF-8, which a zip cannot hold",
                entry.path().display()
            )));
        };
        let path = entry.path();
        let inside = format!("{name}/{leaf}");
        let meta = fs::metadata(&path)?;
        if meta.is_dir() {
            bundle(&path, &inside, depth + 1, files)?;
        } else if meta.is_file() {
            files.push((inside, fs::read(&path)?, 0o644));
        }
    }
    Ok(())
}

/// Writes `files` into a zip at `path`, stored (the program is most of
/// it, and compresses by half at best), each with its Unix mode, so that
/// the scripts unpack executable. Returns the zip's size.
fn zip_files(path: &Path, files: &[(String, Vec<u8>, u32)]) -> io::Result<u64> {
    let mut zip = ZipWriter::new(File::create(path)?);
    for (name, bytes, mode) in files {
        let options = SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            .unix_permissions(*mode)
            .large_file(bytes.len() >= 1 << 32);
        zip.start_file(name.as_str(), options)
            .map_err(io::Error::other)?;
        zip.write_all(bytes)?;
    }
    let mut file = zip.finish().map_err(io::Error::other)?;
    file.flush()?;
    file.sync_all()?;
    file.metadata().map(|m| m.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_keep_every_byte_and_end_each_with_a_nul() {
        let arguments = [
            OsString::from("--cflags"),
            OsString::from("-O2 -Wall"),
            OsString::new(),
        ];
        assert_eq!(nul_separated(&arguments), b"--cflags\0-O2 -Wall\0\0");
    }

    #[test]
    fn the_scripts_say_where_they_read_and_write() {
        assert!(RUN.contains("${AUTOGRADER_ROOT:-/autograder}"));
        assert!(RUN.contains("$results/results.json"));
        assert!(RUN.contains("mapfile -d ''"));
        assert!(SETUP.contains("apt-get install"));
    }
}
