//! The assignment's restrictions that are read off the submission: source
//! files beyond the scaffold's, and the functions the compiled program
//! imports (dynamic memory, files, mapped memory). Variable-length arrays
//! are named by the compiler ([`super::compile`]).
//!
//! Reading the imports rather than the source cannot be fooled by a
//! macro, a comment or a string, and catches a call made through any
//! header: whatever the program calls in the C library, it imports.

use std::path::Path;

use object::Object;

use super::marked::{Rule, Violation};

/// The imported functions each restriction forbids: the C library's names,
/// with the `_2` and `64` variants a header may turn a call into.
const FORBIDDEN: &[(Rule, &[&str])] = &[
    (
        Rule::DynamicMemory,
        &[
            "malloc",
            "calloc",
            "realloc",
            "reallocarray",
            "aligned_alloc",
            "posix_memalign",
            "memalign",
            "valloc",
            "pvalloc",
            "free",
            "strdup",
            "strndup",
            "__strdup",
            "__strndup",
            "asprintf",
            "vasprintf",
            "__asprintf",
            "getline",
            "getdelim",
            "__getdelim",
            "open_memstream",
            "brk",
            "sbrk",
        ],
    ),
    (
        Rule::Files,
        &[
            "fopen",
            "fopen64",
            "freopen",
            "freopen64",
            "fdopen",
            "fmemopen",
            "open",
            "open64",
            "openat",
            "openat64",
            "__open_2",
            "__open64_2",
            "__openat_2",
            "__openat64_2",
            "creat",
            "creat64",
            "tmpfile",
            "tmpfile64",
            "mkstemp",
            "mkstemp64",
            "mkostemp",
            "opendir",
            "fdopendir",
            "remove",
            "unlink",
            "rename",
            "truncate",
        ],
    ),
    (
        Rule::MappedMemory,
        &[
            "mmap",
            "mmap64",
            "munmap",
            "mremap",
            "shm_open",
            "shmget",
            "shmat",
            "memfd_create",
        ],
    ),
];

/// What files of C or assembly source are named.
const SOURCE_EXTENSIONS: &[&str] = &["c", "h", "cc", "cpp", "cxx", "hpp", "hh", "s", "S"];

/// Every source file in `folder` (its `tests/` aside) but `source`.
pub fn extra_files(folder: &Path, source: &str) -> Vec<Violation> {
    let mut found = Vec::new();
    let mut folders = vec![folder.to_path_buf()];
    while let Some(dir) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(relative) = path.strip_prefix(folder) else {
                continue;
            };
            // Links are not followed: a link out of the folder is not the
            // student's file, and a loop of links would never end.
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if relative != Path::new("tests") {
                    folders.push(path);
                }
            } else if relative != Path::new(source)
                && path
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e))
            {
                found.push(relative.display().to_string());
            }
        }
    }
    found.sort();
    found
        .into_iter()
        .map(|file| Violation {
            rule: Rule::ExtraFiles,
            what: format!("{file}: a source file beyond {source}"),
        })
        .collect()
}

/// The restrictions the program at `program` breaks by what it imports,
/// each forbidden symbol named once; or why its imports cannot be read.
///
/// # Errors
///
/// A sentence saying why the imports could not be read: then these
/// restrictions were not checked.
pub fn imports(program: &Path) -> Result<Vec<Violation>, String> {
    let data = std::fs::read(program).map_err(|e| format!("cannot read the program: {e}"))?;
    let file =
        object::File::parse(&*data).map_err(|e| format!("not a program this kit can read: {e}"))?;
    let imports = file
        .imports()
        .map_err(|e| format!("cannot read its imports: {e}"))?;
    if imports.is_empty() && file.section_by_name(".interp").is_none() {
        return Err("it imports nothing (linked statically?): \
                    the functions it calls could not be read"
            .to_owned());
    }
    let mut names: Vec<&[u8]> = imports.iter().map(|i| i.name()).collect();
    names.sort_unstable();
    names.dedup();
    let mut found = Vec::new();
    for (rule, symbols) in FORBIDDEN {
        for name in &names {
            if symbols.iter().any(|s| s.as_bytes() == *name) {
                found.push(Violation {
                    rule: *rule,
                    what: format!("calls {}", String::from_utf8_lossy(name)),
                });
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_symbol_is_forbidden_twice() {
        let mut all: Vec<&str> = FORBIDDEN
            .iter()
            .flat_map(|(_, s)| s.iter().copied())
            .collect();
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count);
    }

    #[test]
    fn a_file_that_is_no_program_says_so() {
        let why = imports(Path::new(file!())).expect_err("a Rust source is no program");
        assert!(why.starts_with("not a program"), "{why}");
    }
}
