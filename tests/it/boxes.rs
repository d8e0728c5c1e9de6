//! A box serves many runs of one program (`conform::boxes`): what one run
//! leaves (files, processes) never reaches the next, a runner its program
//! killed costs that run only, and every limit holds in a box however
//! many runs it served.
//!
//! Every run here is the same command, `sh -c 'eval "$(cat)"' sh
//! HOSTILE`, its script on stdin, so that they all share one box; each
//! script first prints the shell's process id, which in one box only
//! grows (a new box starts again from the same small number): that is how
//! a test knows its runs shared a box. Skipped where bwrap does not work.

#![cfg(target_os = "linux")]

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use gomoku_mist::conform::run::{self, Budget, End, Ran};
use gomoku_mist::conform::sandbox::{Contain, Kit, Overrun};

use crate::common::{BIN, hostile};

/// The command every run here is, its script read from stdin, the
/// hostile program its first argument (so bound in the box).
fn command() -> Vec<OsString> {
    let mut words: Vec<OsString> = ["sh", "-c", "eval \"$(cat)\"", "sh"]
        .map(OsString::from)
        .to_vec();
    words.push(hostile().into_os_string());
    words
}

/// A kit with `contain`'s limits whose runs are boxed, or `None` where
/// bwrap does not work here.
fn kit(contain: &Contain) -> Option<Kit> {
    let (kit, _notes) =
        Kit::new(contain, PathBuf::from(BIN), &command(), "").expect("a kit for the tests");
    if kit.bwrap.is_none() {
        eprintln!("skipped: bwrap does not work here");
        return None;
    }
    Some(kit)
}

/// Runs `script` in `kit`'s box for [`command`]: far more time than any
/// of these runs takes, however loaded the machine.
fn go(kit: &Kit, script: &str) -> Ran {
    let budget = Budget {
        timeout: Duration::from_secs(120),
        cap: 1 << 20,
    };
    run::run(Some(kit), &command(), &[], script.as_bytes(), budget)
}

/// The process id the script printed first (`pid N`), and the rest.
fn pid(ran: &Ran) -> (u32, String) {
    let text = String::from_utf8_lossy(&ran.stdout).into_owned();
    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let pid = first
        .strip_prefix("pid ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no pid in {text:?}, {ran:?}"));
    (pid, rest.to_owned())
}

/// Asserts the runs `ran` shared one box, in that order.
fn one_box(ran: &[&Ran]) {
    let pids: Vec<u32> = ran.iter().map(|r| pid(r).0).collect();
    assert!(
        pids.windows(2).all(|w| w[0] < w[1]),
        "the runs did not share a box (their shells' ids: {pids:?})"
    );
}

#[test]
fn a_run_leaves_neither_files_nor_processes_to_the_next_in_its_box() {
    let Some(kit) = kit(&Contain::default()) else {
        return;
    };
    // Whatever the box's folders hold (in /tmp, the ways to the scratch
    // folder and, for a checkout under /tmp, to the hostile program are
    // bound), what was added to / and /dev, and any sleep.
    let bound = hostile()
        .strip_prefix("/tmp")
        .ok()
        .and_then(|p| p.components().next())
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_else(|| "gomoku-mist-run-".to_owned());
    let look = format!(
        "echo pid $$; ls -A . /dev/shm; ls -A /tmp | grep -v -e '^gomoku-mist-run-' -e '^{bound}$'; \
         ls / /dev | grep left; cat /proc/[0-9]*/cmdline | tr '\\0' ' ' | \
         grep -o 'slee[p] 300.'; true"
    );
    let look = look.as_str();
    let first = go(&kit, look);
    let leave = "echo pid $$; echo x > left; echo x > /tmp/left; mkdir /dev/shm/left; \
                 echo x > /dev/left; echo x > /left; setsid sleep 3001 & sleep 3002 & \
                 echo left";
    let left = go(&kit, leave);
    assert_eq!(left.end, End::Code(0), "{left:?}");
    assert_eq!(pid(&left).1, "left\n");
    let second = go(&kit, look);
    one_box(&[&first, &left, &second]);
    // The scratch folder is empty at the start of each run, and so are
    // /tmp and /dev/shm; nothing was added to / or /dev; no sleep runs.
    let clean = ".:\n\n/dev/shm:\n";
    assert_eq!(pid(&first).1, clean, "{first:?}");
    assert_eq!(pid(&second).1, clean, "{second:?}");
}

#[test]
fn a_runner_killed_by_its_program_fails_that_run_and_the_next_gets_a_new_box() {
    let Some(kit) = kit(&Contain::default()) else {
        return;
    };
    let before = go(&kit, "echo pid $$");
    // Every process it may signal but itself and the namespace's init:
    // the runner among them.
    let killer = go(&kit, "echo pid $$; kill -KILL -1; sleep 60");
    assert_eq!(killer.end, End::Signal(9), "{killer:?}");
    one_box(&[&before, &killer]);
    let after = go(&kit, "echo pid $$; echo fine");
    let again = go(&kit, "echo pid $$; echo fine");
    assert_eq!(
        (&after.end, pid(&after).1.as_str()),
        (&End::Code(0), "fine\n")
    );
    assert_eq!(again.end, End::Code(0));
    assert!(
        pid(&after).0 < pid(&killer).0,
        "the box whose runner died was lent again"
    );
    one_box(&[&after, &again]);
}

#[test]
fn every_limit_holds_in_a_box_run_after_run() {
    let contain = Contain {
        memory: 64 << 20,
        cpu: 1,
        processes: 8,
        file_size: 64 << 10,
        open_files: 16,
        isolate: false,
    };
    let Some(kit) = kit(&contain) else {
        return;
    };
    let runs = [
        ("echo pid $$; exec \"$1\" alloc", Overrun::Memory(64 << 20)),
        (
            "echo pid $$; for i in 1 2 3 4 5 6 7 8 9 10 11 12; do sleep 30 & done; wait",
            Overrun::Processes(8),
        ),
        ("echo pid $$; exec \"$1\" cpu", Overrun::Cpu(1)),
        (
            "echo pid $$; exec head -c 100000 /dev/zero > big",
            Overrun::FileSize(64 << 10),
        ),
    ];
    let mut ran = vec![go(&kit, "echo pid $$")];
    // Twice over: the second time in a box that has served every limit.
    for (script, over) in runs.iter().chain(&runs) {
        let one = go(&kit, script);
        assert_eq!(one.end, End::OverLimit(*over), "{script}: {one:?}");
        ran.push(one);
    }
    // The system refuses the 16th file: the program says so itself.
    let files = go(&kit, "echo pid $$; exec \"$1\" fds");
    let said = pid(&files).1;
    let opened: u32 = said
        .strip_prefix("opened ")
        .and_then(|rest| rest.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{said:?}"));
    assert!(
        opened < 16 && said.contains("Too many open files"),
        "{said:?}"
    );
    ran.push(files);
    one_box(&ran.iter().collect::<Vec<_>>());
}

#[test]
fn a_program_bound_into_the_boxs_tmp_is_reused_all_the_same() {
    // A program in a folder everyone may write to is bound alone, in the
    // box's own /tmp, which the runner empties after each run: all but
    // what bwrap put there.
    let script = std::env::temp_dir().join(format!("gomoku-mist-boxes-{}", std::process::id()));
    std::fs::write(
        &script,
        "#!/bin/sh\necho pid $$\necho x > /tmp/left\nls /tmp\n",
    )
    .expect("write a script");
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&script, mode).expect("make it runnable");
    let command = [script.clone().into_os_string()];
    let (kit, _notes) =
        Kit::new(&Contain::default(), PathBuf::from(BIN), &command, "").expect("a kit");
    if kit.bwrap.is_none() {
        let _ = std::fs::remove_file(&script);
        eprintln!("skipped: bwrap does not work here");
        return;
    }
    let budget = Budget {
        timeout: Duration::from_secs(120),
        cap: 1 << 20,
    };
    let ran: Vec<Ran> = (0..3)
        .map(|_| run::run(Some(&kit), &command, &[], b"", budget))
        .collect();
    drop(kit);
    let _ = std::fs::remove_file(&script);
    if ran.iter().any(|r| r.end != End::Code(0)) {
        panic!("{ran:?}");
    }
    let name = script.file_name().map(|n| n.to_string_lossy().into_owned());
    for one in &ran {
        let listed = pid(one).1;
        assert!(!listed.contains("left\nleft"), "{listed:?}");
        assert!(
            listed.contains(name.as_deref().unwrap_or("?")),
            "{listed:?}"
        );
    }
    one_box(&ran.iter().collect::<Vec<_>>());
}
