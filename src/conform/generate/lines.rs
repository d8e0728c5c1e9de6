//! Single lines that are nearly right or plainly odd: near-miss commands
//! and points, odd bytes, long lines. The games around them are the
//! parent's.

use super::{WHITESPACE, random_point};
use crate::rng::Rng;

/// A command that is nearly right: its case, whitespace, point or
/// parameters changed a little (or, now and then, not at all).
pub fn near_miss(rng: &mut Rng) -> Vec<u8> {
    let mut line = match rng.below(8) {
        0 => b"who".to_vec(),
        1 => b"view".to_vec(),
        2 => b"history".to_vec(),
        3 => b"resign".to_vec(),
        4 => b"term".to_vec(),
        _ => {
            let mut line = b"place ".to_vec();
            line.extend(point_like(rng));
            line
        }
    };
    for _ in 0..rng.between(1, 2) {
        mutate(rng, &mut line);
    }
    line
}

/// Something a point parser must accept or refuse: valid points, and
/// leading zeros, signs, rows out of range, wrong letters, extra words.
pub(super) fn point_like(rng: &mut Rng) -> Vec<u8> {
    let valid = {
        let mut bytes = Vec::new();
        random_point(rng).write_ascii(&mut bytes);
        bytes
    };
    let letter = valid[0];
    let digits = &valid[1..];
    let mut out = Vec::new();
    match rng.below(12) {
        0 => out.extend_from_slice(&valid),
        1 => {
            out.extend([letter, b'0']);
            out.extend_from_slice(digits);
        }
        2 | 3 => {
            out.extend([letter, if rng.chance(50) { b'+' } else { b'-' }]);
            out.extend_from_slice(digits);
        }
        4 => {
            out.push(letter);
            const OFF_BOARD: [&[u8]; 7] = [b"0", b"20", b"21", b"99", b"100", b"122", b"190"];
            let row: &&[u8] = rng.pick(&OFF_BOARD);
            out.extend_from_slice(row);
        }
        5 => {
            out.push(*rng.pick(b"TZasj@[`"));
            out.extend_from_slice(digits);
        }
        6 => out.extend(valid.iter().map(u8::to_ascii_lowercase)),
        7 => {
            out.extend_from_slice(digits);
            out.push(letter);
        }
        8 => {
            out.extend_from_slice(&valid);
            out.push(*rng.pick(b"x,.;0"));
        }
        9 => out.push(letter),
        10 => out.extend_from_slice(digits),
        _ => {
            out.extend_from_slice(&valid);
            out.push(b' ');
            random_point(rng).write_ascii(&mut out);
        }
    }
    out
}

/// One small change a sloppy parser might not notice.
fn mutate(rng: &mut Rng, line: &mut Vec<u8>) {
    let at = rng.below(line.len() + 1);
    match rng.below(10) {
        0 => {
            if let Some(b) = line
                .iter_mut()
                .filter(|b| b.is_ascii_alphabetic())
                .nth(rng.below(4))
            {
                *b ^= 0x20;
            }
        }
        1 => line.insert(0, *rng.pick(&WHITESPACE)),
        2 => line.push(*rng.pick(&WHITESPACE)),
        3 => {
            if let Some(space) = line.iter().position(|&b| b == b' ') {
                let extra = *rng.pick(&WHITESPACE);
                line.insert(space, extra);
            }
        }
        4 => line.insert(at, 0),
        5 => line.insert(at, *rng.pick(&[0xff, 0xc3, 0x80])),
        6 => line.extend_from_slice(b" extra"),
        7 if at < line.len() => {
            line.remove(at);
        }
        8 => line.push(b'\r'),
        _ => {}
    }
}

/// A short line of bytes that are not plain text: CR, NUL, tabs, bytes
/// that are not UTF-8, pieces of commands.
pub(super) fn odd_bytes(rng: &mut Rng) -> Vec<u8> {
    const PIECES: [&[u8]; 12] = [
        b"\r",
        b"\0",
        b"\t",
        b"\xff",
        b"\xc3\xa9",
        b" ",
        b"\x0b",
        b"\x0c",
        b"who",
        b"place",
        b"A1",
        b"x",
    ];
    let mut line = Vec::new();
    for _ in 0..rng.below(5) {
        let piece: &&[u8] = rng.pick(&PIECES);
        line.extend_from_slice(piece);
    }
    line
}

/// A line from a few hundred bytes to well past a 64 KiB buffer.
pub(super) fn long_line(rng: &mut Rng) -> Vec<u8> {
    let len = match rng.below(4) {
        0 => rng.between(300, 1100),
        1 => rng.between(1000, 5000),
        2 => rng.between(65_530, 65_545),
        _ => rng.between(70_000, 140_000),
    };
    let mut line = match rng.below(5) {
        0 => b"place ".to_vec(),
        1 => Vec::new(),
        2 => b"who".to_vec(),
        3 => b"place A1".to_vec(),
        _ => b"place A".to_vec(),
    };
    let fill = *rng.pick(b"A 1\tx");
    line.resize(len, fill);
    line
}
