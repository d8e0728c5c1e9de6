//! What of a submission's folder is read: its plain files, and nothing
//! else. A link is data, not a path to follow: a link in a submission is
//! never read, copied or compiled, whether it leads out of the folder
//! (`tests/leak.out` linked to a file only the marker may read would put
//! that file in the student's report) or stays inside it (following one
//! safely means resolving every step of it against a folder that may
//! change, and a student loses nothing by copying the file instead). A
//! FIFO, a device or a socket is never opened (a FIFO blocks its reader
//! for ever), and a file or folder the marker cannot read is left out.
//! Each is named in the report with why ([`NotRead`]); the rest is marked.
//!
//! The folder is looked at once, without following anything (its own
//! `symlink_metadata`, then each entry's own type); each file read later
//! is opened without following a link or waiting on a FIFO, and read only
//! if what was opened is a plain file, so that one swapped since is
//! refused too.

use std::collections::BTreeSet;
use std::fs::{self, File, FileType};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::super::case::MAX_INPUT;
use super::super::model::NotRead;
use super::super::report;
use super::error::{FileError, FolderError};

/// A submission's folder, as it was found.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The folder, as given.
    folder: PathBuf,
    /// Its plain files that can be read, relative to it.
    files: BTreeSet<PathBuf>,
    /// Its folders that were listed, relative to it (the folder itself is
    /// the empty path).
    folders: BTreeSet<PathBuf>,
    /// Everything left out, relative to it, with why.
    refused: Vec<(PathBuf, String)>,
}

impl Submission {
    /// Looks at the submission in `folder`, following nothing.
    ///
    /// # Errors
    ///
    /// Why the folder itself is not read (a link, not a folder, not
    /// readable), as a predicate: then nothing of it is.
    pub fn open(folder: &Path) -> Result<Submission, FolderError> {
        // `bob/` would be followed where `bob` is a link: the components
        // leave the last slash out.
        let folder: PathBuf = folder.components().collect();
        let unreadable = |e: io::Error| FolderError::Unreadable(e.kind());
        let meta = fs::symlink_metadata(&folder).map_err(unreadable)?;
        if meta.file_type().is_symlink() {
            return Err(FolderError::Link);
        }
        if !meta.is_dir() {
            return Err(FolderError::NotAFolder(kind(meta.file_type())));
        }
        let root = fs::canonicalize(&folder).map_err(unreadable)?;
        let mut found = Submission {
            folder,
            files: BTreeSet::new(),
            folders: BTreeSet::new(),
            refused: Vec::new(),
        };
        // A list, not recursion: however deep the folders, the stack is not.
        let mut waiting = vec![PathBuf::new()];
        while let Some(relative) = waiting.pop() {
            let entries = match fs::read_dir(found.folder.join(&relative)) {
                Ok(entries) => entries,
                Err(e) if relative.as_os_str().is_empty() => return Err(unreadable(e)),
                Err(e) => {
                    found.refused.push((relative, cannot("be listed", &e)));
                    continue;
                }
            };
            found.folders.insert(relative.clone());
            for entry in entries {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(e) => {
                        found
                            .refused
                            .push((relative.clone(), cannot("be listed", &e)));
                        break;
                    }
                };
                let path = relative.join(entry.file_name());
                let full = found.folder.join(&path);
                match entry.file_type() {
                    Err(e) => found.refused.push((path, cannot("be read", &e))),
                    Ok(t) if t.is_symlink() => found.refused.push((path, link(&root, &full))),
                    Ok(t) if t.is_dir() => waiting.push(path),
                    Ok(t) if t.is_file() => match open_plain(&full) {
                        Ok(_) => {
                            found.files.insert(path);
                        }
                        Err(why) => found.refused.push((path, why.to_string())),
                    },
                    Ok(t) => found.refused.push((path, kind(t).to_owned())),
                }
            }
        }
        found.refused.sort();
        Ok(found)
    }

    /// The folder, as given.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Whether `relative` is a plain file of it that can be read.
    pub fn is_file(&self, relative: &Path) -> bool {
        self.files.contains(relative)
    }

    /// Whether `relative` is a folder of it that was listed.
    pub fn is_folder(&self, relative: &Path) -> bool {
        self.folders.contains(relative)
    }

    /// Its plain files that can be read, relative to it, in path order.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(PathBuf::as_path)
    }

    /// Why `relative` is left out, if it is.
    pub fn refused(&self, relative: &Path) -> Option<&str> {
        self.refused
            .iter()
            .find(|(path, _)| path == relative)
            .map(|(_, why)| why.as_str())
    }

    /// Everything left out, with why, in path order.
    pub fn not_read(&self) -> Vec<NotRead> {
        self.refused
            .iter()
            .map(|(path, why)| NotRead {
                path: report::shown_path(path),
                why: why.clone(),
            })
            .collect()
    }

    /// The bytes of its plain file `relative`.
    ///
    /// # Errors
    ///
    /// If it is not one of its plain files, is no longer one, or cannot be
    /// read.
    pub fn read(&self, relative: &Path) -> io::Result<Vec<u8>> {
        if !self.is_file(relative) {
            let why = self
                .refused(relative)
                .unwrap_or("is not a file of the submission");
            return Err(io::Error::other(why.to_owned()));
        }
        let (file, len) = open_plain(&self.folder.join(relative)).map_err(io::Error::other)?;
        let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        file.take(MAX_INPUT).read_to_end(&mut bytes)?;
        Ok(bytes)
    }
}

/// `cannot VERB (the error's kind)`: the kind, not the OS's message, so
/// that every machine words it alike.
fn cannot(verb: &str, e: &io::Error) -> String {
    format!("cannot {verb} ({})", e.kind())
}

/// Why the link at `path` is not followed: where it leads decides the
/// words only (it is resolved, never opened).
fn link(root: &Path, path: &Path) -> String {
    match fs::canonicalize(path) {
        Ok(target) if target.starts_with(root) => {
            "is a link (not followed, even within the submission)".to_owned()
        }
        Ok(_) => "links outside the submission".to_owned(),
        Err(_) => "is a link that leads nowhere".to_owned(),
    }
}

/// What a file that is neither plain, a folder nor a link is.
fn kind(t: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "is a FIFO";
        }
        if t.is_socket() {
            return "is a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "is a device";
        }
    }
    if t.is_symlink() {
        "is a link"
    } else if t.is_dir() {
        "is a folder"
    } else if t.is_file() {
        "is a file"
    } else {
        "is not a plain file"
    }
}

/// Opens the plain file at `path` to read it, with its length: never
/// through a link, never waiting on a FIFO, and only if what was opened
/// is a plain file no larger than [`MAX_INPUT`]; or why not.
fn open_plain(path: &Path) -> Result<(File, u64), FileError> {
    let cannot = |verb| move |e: io::Error| FileError::Cannot(verb, e.kind());
    #[cfg(unix)]
    let file = {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        rustix::fs::open(path, flags, Mode::empty())
            .map(File::from)
            .map_err(|e| cannot("be opened")(io::Error::from(e)))?
    };
    #[cfg(not(unix))]
    let file = {
        let meta = fs::symlink_metadata(path).map_err(cannot("be read"))?;
        if !meta.is_file() {
            return Err(FileError::NotPlain(kind(meta.file_type())));
        }
        File::open(path).map_err(cannot("be opened"))?
    };
    let meta = file.metadata().map_err(cannot("be read"))?;
    if !meta.is_file() {
        return Err(FileError::NotPlain(kind(meta.file_type())));
    }
    if meta.len() > MAX_INPUT {
        return Err(FileError::TooLarge);
    }
    Ok((file, meta.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_that_is_not_there_cannot_be_read() {
        let why = Submission::open(Path::new("no such folder")).expect_err("not there");
        assert_eq!(why.to_string(), "cannot be read (entity not found)");
    }

    /// Builds a submission in a folder of its own beside a secret: a plain
    /// source and test, a link out to the secret, a link to a file of its
    /// own, a link to a folder outside, a FIFO, a file no one may read,
    /// and a folder no one may list.
    #[cfg(unix)]
    fn hostile() -> std::io::Result<(tempfile::TempDir, PathBuf)> {
        use std::os::unix::fs::{PermissionsExt, symlink};
        let dir = tempfile::tempdir()?;
        let secret = dir.path().join("secret.txt");
        fs::write(&secret, "the marker's secret\n")?;
        let sub = dir.path().join("bob");
        fs::create_dir_all(sub.join("tests/closed"))?;
        fs::write(sub.join("gitm.c"), "int main(void) { return 0; }\n")?;
        fs::write(sub.join("tests/a.in"), "term\n")?;
        fs::write(sub.join("tests/shut.out"), "")?;
        symlink(&secret, sub.join("tests/leak.out"))?;
        symlink("a.in", sub.join("tests/same.in"))?;
        symlink(dir.path(), sub.join("tests/up"))?;
        symlink("gone", sub.join("gone.h"))?;
        let fifo = sub.join("tests/pipe.in");
        let mode = rustix::fs::Mode::from_raw_mode(0o644);
        rustix::fs::mknodat(rustix::fs::CWD, &fifo, rustix::fs::FileType::Fifo, mode, 0)?;
        let shut = std::fs::Permissions::from_mode(0o000);
        fs::set_permissions(sub.join("tests/shut.out"), shut.clone())?;
        fs::set_permissions(sub.join("tests/closed"), shut)?;
        Ok((dir, sub))
    }

    #[cfg(unix)]
    #[test]
    fn links_fifos_and_what_cannot_be_read_are_named_and_never_read() {
        let (dir, sub) = hostile().expect("build the submission");
        let found = Submission::open(&sub).expect("the folder is read");
        let mut want = vec![
            ("gone.h", "is a link that leads nowhere"),
            ("tests/leak.out", "links outside the submission"),
            ("tests/pipe.in", "is a FIFO"),
            (
                "tests/same.in",
                "is a link (not followed, even within the submission)",
            ),
            ("tests/up", "links outside the submission"),
        ];
        // With the power to read anything (root), nothing is unreadable.
        if fs::read(sub.join("tests/shut.out")).is_err() {
            want.push(("tests/closed", "cannot be listed (permission denied)"));
            want.push(("tests/shut.out", "cannot be opened (permission denied)"));
            want.sort_unstable();
        } else {
            println!("files no one may read are readable here (root): not checked");
        }
        let got: Vec<(String, String)> = found
            .not_read()
            .into_iter()
            .map(|n| (n.path, n.why))
            .collect();
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(p, w)| ((*p).to_owned(), (*w).to_owned()))
            .collect();
        assert_eq!(got, want);
        for refused in ["tests/leak.out", "tests/same.in", "tests/pipe.in"] {
            let read = found.read(Path::new(refused));
            assert!(read.is_err(), "{refused} read: {read:?}");
        }
        let plain = found.read(Path::new("tests/a.in")).expect("a plain file");
        assert_eq!(plain, b"term\n");
        assert!(found.is_folder(Path::new("tests")) && !found.is_folder(Path::new("tests/up")));
        drop(dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_submission_that_is_a_link_is_not_followed() {
        let (dir, sub) = hostile().expect("build the submission");
        let link = dir.path().join("alias");
        std::os::unix::fs::symlink(&sub, &link).expect("link");
        for given in [link.clone(), link.join("")] {
            let why = Submission::open(&given).expect_err("a link");
            assert_eq!(why, FolderError::Link);
            assert_eq!(
                why.to_string(),
                "is a link (not followed: give the folder it leads to)"
            );
        }
    }

    #[test]
    fn a_file_is_not_a_submission() {
        let why = Submission::open(Path::new(file!())).expect_err("a file");
        assert_eq!(why.to_string(), "is a file, not a folder");
    }
}
