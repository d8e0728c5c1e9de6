//! The C baseline `benches/baseline.c`, built for the benches that run
//! it (`compare`, `contain`) with the first C compiler found.

use std::env;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The C compilers tried, in order: `$CC` if set, then the usual names.
fn compilers() -> Vec<String> {
    let from_env = env::var("CC").ok().filter(|cc| !cc.trim().is_empty());
    from_env
        .into_iter()
        .chain(["cc", "gcc", "clang"].map(String::from))
        .collect()
}

/// The C baseline built into `dir` with the first C compiler found, or
/// `None` (said on stderr) if there is none.
pub fn build(dir: &Path) -> Option<PathBuf> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/baseline.c");
    let binary = dir.join("baseline");
    for compiler in compilers() {
        let status = Command::new(&compiler)
            .args(["-O2", "-std=c11", "-o"])
            .arg(&binary)
            .arg(&source)
            .status();
        match status {
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => panic!("cannot run the C compiler `{compiler}`: {e}"),
            Ok(status) if !status.success() => {
                panic!(
                    "`{compiler}` failed to build {} ({status})",
                    source.display()
                )
            }
            Ok(_) => {
                eprintln!("note: C baseline built with `{compiler} -O2 -std=c11`");
                return Some(binary);
            }
        }
    }
    eprintln!(
        "note: no C compiler found (tried {}): skipping the C baseline",
        compilers().join(", ")
    );
    None
}
