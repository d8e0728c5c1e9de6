//! The assignment's restrictions that are read off the submission: source
//! files beyond the scaffold's, and the functions the compiled program
//! imports (dynamic memory, files, mapped memory). Variable-length arrays
//! are named by the compiler ([`super::compile`]).
//!
//! Reading the imports rather than the source cannot be fooled by a
//! macro, a comment or a string, and catches a call made through any
//! header: whatever the program calls in the C library, it imports. The
//! names include the library's own entry points a program can link
//! against (`__libc_malloc`, `__open`, `__mmap`, each exported by glibc),
//! and the calls that reach any function unnamed (`HIDDEN`: `dlsym`,
//! `syscall`) break every restriction they could dodge. What the check
//! cannot see is a program that finds the library in its own memory, or
//! makes system calls in assembly: it reads names, not behaviour.

use std::path::Path;

use object::Object;

use super::super::model::{Restriction, Violation};
use super::error::ImportsError;

/// The imported functions each restriction forbids: the C library's names,
/// with the `_2` and `64` variants a header may turn a call into, and the
/// internal names glibc exports that do the same (`nm -D` on its
/// `libc.so.6`; the `GLIBC_PRIVATE` ones link too).
const FORBIDDEN: &[(Restriction, &[&str])] = &[
    (
        Restriction::DynamicMemory,
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
            "__libc_malloc",
            "__libc_calloc",
            "__libc_realloc",
            "__libc_reallocarray",
            "__libc_free",
            "__libc_memalign",
            "__libc_valloc",
            "__libc_pvalloc",
            "__libc_alloc_buffer_allocate",
            "__libc_dynarray_emplace_enlarge",
            "__libc_dynarray_resize",
            "__libc_dynarray_resize_clear",
            "__libc_scratch_buffer_grow",
            "__libc_scratch_buffer_grow_preserve",
            "__libc_scratch_buffer_set_array_size",
            "__libc_scratch_buffer_dupfree",
            "strdup",
            "strndup",
            "__strdup",
            "__strndup",
            "wcsdup",
            "asprintf",
            "vasprintf",
            "__asprintf",
            "getline",
            "getdelim",
            "__getdelim",
            "open_memstream",
            "open_wmemstream",
            "brk",
            "sbrk",
            "__sbrk",
        ],
    ),
    (
        Restriction::Files,
        &[
            "fopen",
            "fopen64",
            "freopen",
            "freopen64",
            "fdopen",
            "fmemopen",
            "_IO_fopen",
            "_IO_fdopen",
            "_IO_file_fopen",
            "_IO_file_open",
            "open",
            "open64",
            "__open",
            "__open64",
            "__open_nocancel",
            "__open64_nocancel",
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
            "mkostemp64",
            "mkstemps",
            "mkstemps64",
            "mkostemps",
            "mkostemps64",
            "open_by_handle_at",
            "opendir",
            "fdopendir",
            "remove",
            "unlink",
            "rename",
            "truncate",
        ],
    ),
    (
        Restriction::MappedMemory,
        &[
            "mmap",
            "mmap64",
            "__mmap",
            "munmap",
            "__munmap",
            "mremap",
            "shm_open",
            "shmget",
            "shmat",
            "memfd_create",
        ],
    ),
];

/// The imported functions that reach others without naming them, and how
/// (a sentence after `calls NAME, which`): each breaks every restriction
/// read from the imports, since the function it reaches could be any.
/// `__libc_dlsym` and its kin are older glibcs' names (before 2.34).
const HIDDEN: &[(&[&str], &str)] = &[
    (
        &[
            "dlsym",
            "dlvsym",
            "dlopen",
            "dlmopen",
            "__libc_dlsym",
            "__libc_dlvsym",
            "__libc_dlopen_mode",
        ],
        "looks up functions by name at run time: it can reach malloc, fopen or mmap unseen",
    ),
    (
        &[
            "dl_iterate_phdr",
            "dladdr",
            "dladdr1",
            "dlinfo",
            "_dl_find_object",
        ],
        "finds the loaded libraries at run time: it can reach malloc, fopen or mmap unseen",
    ),
    (
        &["syscall"],
        "makes system calls directly: it can get memory, open files or map memory unseen",
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
            rule: Restriction::ExtraFiles,
            what: format!("{file}: a source file beyond {source}"),
        })
        .collect()
}

/// The restrictions the program at `program` breaks by what it imports,
/// each forbidden symbol named once under each rule it breaks; or why its
/// imports cannot be read.
///
/// # Errors
///
/// Why the imports could not be read: then these restrictions were not
/// checked.
pub fn imports(program: &Path) -> Result<Vec<Violation>, ImportsError> {
    let data = std::fs::read(program).map_err(ImportsError::Unreadable)?;
    let file = object::File::parse(&*data).map_err(ImportsError::NotAProgram)?;
    let imports = file.imports().map_err(ImportsError::NoImportTable)?;
    if imports.is_empty() && file.section_by_name(".interp").is_none() {
        return Err(ImportsError::Static);
    }
    let mut names: Vec<&[u8]> = imports.iter().map(|i| i.name()).collect();
    names.sort_unstable();
    names.dedup();
    Ok(broken_by(&names))
}

/// The restrictions broken by importing `names` (sorted, each once): a
/// forbidden symbol named once under its rule, one of [`HIDDEN`] under
/// every rule.
fn broken_by(names: &[&[u8]]) -> Vec<Violation> {
    let named = |symbols: &[&str], name: &[u8]| symbols.iter().any(|s| s.as_bytes() == name);
    let mut found = Vec::new();
    for (rule, symbols) in FORBIDDEN {
        for name in names.iter().filter(|n| named(symbols, n)) {
            found.push(Violation {
                rule: *rule,
                what: format!("calls {}", String::from_utf8_lossy(name)),
            });
        }
        for (symbols, how) in HIDDEN {
            for name in names.iter().filter(|n| named(symbols, n)) {
                found.push(Violation {
                    rule: *rule,
                    what: format!("calls {}, which {how}", String::from_utf8_lossy(name)),
                });
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_symbol_is_forbidden_twice() {
        let mut all: Vec<&str> = FORBIDDEN
            .iter()
            .flat_map(|(_, s)| s.iter().copied())
            .chain(HIDDEN.iter().flat_map(|(s, _)| s.iter().copied()))
            .collect();
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count);
    }

    /// What importing `names` breaks, as `rule: what`.
    fn broken(names: &[&str]) -> Vec<String> {
        let mut names: Vec<&[u8]> = names.iter().map(|n| n.as_bytes()).collect();
        names.sort_unstable();
        broken_by(&names)
            .iter()
            .map(|v| format!("{}: {}", v.rule.id(), v.what))
            .collect::<Vec<_>>()
    }

    #[test]
    fn a_program_calling_only_what_is_allowed_breaks_nothing() {
        let names = [
            "__libc_start_main",
            "printf",
            "puts",
            "fgets",
            "strtol",
            "exit",
        ];
        assert_eq!(broken(&names), Vec::<String>::new());
    }

    #[test]
    fn the_c_librarys_internal_names_break_what_the_public_ones_do() {
        assert_eq!(
            broken(&["__libc_malloc", "__open64", "__mmap", "puts", "__sbrk"]),
            [
                "dynamic_memory: calls __libc_malloc",
                "dynamic_memory: calls __sbrk",
                "files: calls __open64",
                "mapped_memory: calls __mmap",
            ]
        );
    }

    #[test]
    fn a_call_that_reaches_any_function_breaks_every_restriction_by_name() {
        let got = broken(&["dlsym", "syscall"]);
        let by_name = "calls dlsym, which looks up functions by name at run time: \
                       it can reach malloc, fopen or mmap unseen";
        let direct = "calls syscall, which makes system calls directly: \
                      it can get memory, open files or map memory unseen";
        let want: Vec<String> = ["dynamic_memory", "files", "mapped_memory"]
            .iter()
            .flat_map(|rule| [format!("{rule}: {by_name}"), format!("{rule}: {direct}")])
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_file_that_is_no_program_says_so() {
        let why = imports(Path::new(file!())).expect_err("a Rust source is no program");
        assert!(why.to_string().starts_with("not a program"), "{why}");
    }
}
