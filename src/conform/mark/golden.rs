//! The golden suite built into this program: every file of this
//! repository's `tests/golden`, read when the program is compiled, so
//! that `mark` marks against the same cases from a binary copied to a
//! marking server, or installed from a checkout since removed.
//!
//! The files are listed one by one ([`FILES`], in `golden/list.rs`), each
//! read by `include_bytes!`, so a changed file changes the program at the
//! next build. A list, rather than a build script that finds the files
//! (the repository keeps no build script) or a crate that embeds a whole
//! folder (on stable Rust such a crate cannot tell Cargo that a file was
//! added, so a new case would be silently left out): a file the list
//! names and the folder lacks stops the build, and one the folder has and
//! the list lacks fails the test below, which names it;
//! `GOLDEN_BLESS=1 cargo test --lib golden` rewrites the list.

use std::fs;
use std::path::{Path, PathBuf};

use super::super::ConformError;

/// One file of `tests/golden`: its path there, and its bytes.
macro_rules! golden {
    ($name:literal) => {
        (
            $name,
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/", $name)),
        )
    };
}

mod list;

pub use list::FILES;

/// The folder the suite is written as, and so the first part of the name
/// a report gives each of its cases: `golden/win/anti_diagonal_middle.in`.
pub const FOLDER: &str = "golden";

/// Writes every file of the suite under `dir`, in the folder [`FOLDER`]:
/// that folder.
///
/// # Errors
///
/// [`ConformError::Write`] for a file or folder that cannot be written.
pub fn write(dir: &Path) -> Result<PathBuf, ConformError> {
    let root = dir.join(FOLDER);
    for (name, bytes) in FILES {
        let path = root.join(name);
        let made = match path.parent() {
            Some(parent) => fs::create_dir_all(parent),
            None => Ok(()),
        };
        made.and_then(|()| fs::write(&path, bytes))
            .map_err(|source| ConformError::Write { path, source })?;
    }
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the list is, in the repository.
    const LIST: &str = "src/conform/mark/golden/list.rs";

    /// Every file under `dir`, by its path there with `/`.
    fn files(dir: &Path, under: &str, found: &mut Vec<String>) {
        let entries = fs::read_dir(dir).expect("read a folder of tests/golden");
        for entry in entries {
            let entry = entry.expect("an entry of tests/golden");
            let name = entry.file_name().into_string().expect("a UTF-8 name");
            let path = format!("{under}{name}");
            if entry.file_type().expect("its type").is_dir() {
                files(&entry.path(), &format!("{path}/"), found);
            } else {
                found.push(path);
            }
        }
    }

    /// The list's source, naming `names` in their order.
    fn list(names: &[String]) -> String {
        let mut text = String::from(
            "//! Every file of `tests/golden`, built into the program: written by\n\
             //! `GOLDEN_BLESS=1 cargo test --lib golden` (see the parent module).\n\
             \n\
             /// Every file of the golden suite: its path under `tests/golden`,\n\
             /// and its bytes.\n\
             pub const FILES: &[(&str, &[u8])] = &[\n",
        );
        for name in names {
            text.push_str(&format!("    golden!({name:?}),\n"));
        }
        text.push_str("];\n");
        text
    }

    #[test]
    fn the_built_in_suite_is_every_file_of_tests_golden() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut on_disk = Vec::new();
        files(&root.join("tests/golden"), "", &mut on_disk);
        on_disk.sort();
        let built: Vec<String> = FILES.iter().map(|(name, _)| (*name).to_owned()).collect();
        if built == on_disk {
            return;
        }
        if std::env::var_os("GOLDEN_BLESS").is_some_and(|v| !v.is_empty()) {
            fs::write(root.join(LIST), list(&on_disk)).expect("write the list");
            return;
        }
        let missing: Vec<&String> = on_disk.iter().filter(|n| !built.contains(n)).collect();
        let order = if missing.is_empty() {
            "; the list is out of order"
        } else {
            ""
        };
        panic!(
            "the built-in golden suite ({LIST}) lacks {} file(s) of tests/golden{order}: \
             {missing:#?}\nGOLDEN_BLESS=1 cargo test --lib golden rewrites the list; \
             then review the diff.",
            missing.len()
        );
    }

    #[test]
    fn the_suite_is_written_as_it_is_built_in() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let root = write(dir.path()).expect("write the suite");
        assert!(root.ends_with(FOLDER));
        for (name, bytes) in FILES {
            assert_eq!(
                fs::read(root.join(name)).ok().as_deref(),
                Some(*bytes),
                "{name}"
            );
        }
    }
}
