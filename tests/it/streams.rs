//! Lines of any length: one reply each, right, in a few MiB of memory.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin};
use std::thread;
use std::time::Duration;

use crate::common::spawn;

const MIB: usize = 1024 * 1024;
const GIB: usize = 1024 * MIB;

/// The most the program may ever hold in memory, whatever it reads.
const PEAK_LIMIT_KIB: u64 = 16 * 1024;

fn start() -> (Child, ChildStdin, BufReader<std::process::ChildStdout>) {
    let mut child = spawn(None);
    let stdin = child.stdin.take().expect("stdin is piped");
    let stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
    (child, stdin, stdout)
}

/// Writes `len` copies of `byte` in large pieces.
fn write_run(stdin: &mut ChildStdin, byte: u8, len: usize) {
    let chunk = vec![byte; MIB];
    let mut left = len;
    while left > 0 {
        let n = left.min(MIB);
        stdin
            .write_all(&chunk[..n])
            .expect("the program keeps reading");
        left -= n;
    }
}

/// The process's peak resident memory, in KiB, read while it is alive.
fn peak_kib(child: &Child) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn assert_small(child: &Child) {
    // Lets the program finish reading what it was sent.
    thread::sleep(Duration::from_millis(100));
    if let Some(peak) = peak_kib(child) {
        assert!(peak < PEAK_LIMIT_KIB, "peak memory {peak} KiB");
    }
}

fn read_line(stdout: &mut BufReader<std::process::ChildStdout>) -> String {
    let mut line = String::new();
    stdout.read_line(&mut line).expect("read a reply");
    line
}

#[test]
fn a_gib_line_gets_one_reply_in_a_few_mib() {
    let (mut child, mut stdin, mut stdout) = start();
    stdin.write_all(b"place ").expect("write");
    write_run(&mut stdin, b'A', GIB);
    stdin.write_all(b"\nwho\n").expect("write");
    assert_eq!(read_line(&mut stdout), "Invalid coordinate\n");
    assert_eq!(read_line(&mut stdout), "B\n");
    assert_small(&child);
    drop(stdin);
    assert_eq!(read_line(&mut stdout), "", "nothing more");
    assert_eq!(child.wait().expect("wait").code(), Some(1));
}

#[test]
fn a_gib_last_line_without_newline_gets_one_reply() {
    let (mut child, mut stdin, mut stdout) = start();
    stdin.write_all(b"who\nplace ").expect("write");
    write_run(&mut stdin, b'7', GIB);
    assert_eq!(read_line(&mut stdout), "B\n");
    assert_small(&child);
    drop(stdin);
    assert_eq!(read_line(&mut stdout), "Invalid coordinate\n");
    assert_eq!(read_line(&mut stdout), "", "nothing more");
    assert_eq!(child.wait().expect("wait").code(), Some(1));
}

#[test]
fn a_space_far_along_a_long_parameter_makes_it_no_command() {
    let (mut child, mut stdin, mut stdout) = start();
    for separator in [b' ', b'\t', b'\r', 0x0b, 0x0c] {
        stdin.write_all(b"place A1").expect("write");
        write_run(&mut stdin, b'9', 64 * MIB);
        stdin.write_all(&[separator, b'B', b'\n']).expect("write");
        assert_eq!(
            read_line(&mut stdout),
            "Invalid!\n",
            "separator {separator:#x}"
        );
    }
    // And one at the very end, then a real command to show nothing was lost.
    stdin.write_all(b"place ").expect("write");
    write_run(&mut stdin, b'Q', 8 * MIB);
    stdin.write_all(b" \nplace ").expect("write");
    write_run(&mut stdin, 0xff, 8 * MIB);
    stdin.write_all(b"\nplace A1\nwho\n").expect("write");
    assert_eq!(read_line(&mut stdout), "Invalid!\n");
    assert_eq!(read_line(&mut stdout), "Invalid coordinate\n");
    assert_eq!(read_line(&mut stdout), "W\n");
    assert_small(&child);
    drop(stdin);
    assert_eq!(child.wait().expect("wait").code(), Some(1));
}

#[test]
fn a_long_line_of_no_command_is_invalid() {
    let (mut child, mut stdin, mut stdout) = start();
    stdin.write_all(b"who").expect("write");
    write_run(&mut stdin, b'o', 16 * MIB);
    stdin.write_all(b"\nterm\n").expect("write");
    assert_eq!(read_line(&mut stdout), "Invalid!\n");
    assert_eq!(child.wait().expect("wait").code(), Some(1));
}
