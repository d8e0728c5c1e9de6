//! The read–reply loop against a small model written from the contract
//! (`src/rules/contract.md`) alone, on arbitrary byte streams: CR, NUL, invalid
//! UTF-8, long lines, a missing final newline, `term` anywhere, all cut
//! into reads of random sizes so lines straddle the read buffer.

use std::collections::HashMap;
use std::io::{self, Read};

use gomoku_mist::controller::session::{Settings, Stop};
use gomoku_mist::controller::stream;
use gomoku_mist::game::Game;
use gomoku_mist::rule::Rule;
use proptest::prelude::*;

/// What the contract says the program prints and exits with, done the obvious
/// way: a map for the board, counting along each line for a win.
fn model(input: &[u8], crlf: bool) -> (Vec<u8>, u8) {
    let mut out = Vec::new();
    let mut board: HashMap<(i32, i32), char> = HashMap::new();
    let mut turn = 'B';
    let mut history = String::new();
    let mut centre = (10, 10);
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if input.is_empty() || input.ends_with(b"\n") {
        lines.pop(); // no line after the last newline
    }
    let is_space = |b: &u8| b" \t\r\x0b\x0c".contains(b);
    let letters = "ABCDEFGHIJKLMNOPQRS";
    for line in lines {
        let line = match crlf && line.ends_with(b"\r") {
            true => &line[..line.len() - 1],
            false => line,
        };
        let finish = |out: &mut Vec<u8>, result: &str, history: &str| {
            out.extend(format!("{result}\n{history}\nThank you for playing!\n").bytes());
            (std::mem::take(out), 0)
        };
        match line {
            b"who" => out.extend(format!("{turn}\n").bytes()),
            b"term" => return (out, 1),
            b"history" => out.extend(format!("{history}\n").bytes()),
            b"resign" => {
                let winner = if turn == 'B' { "White" } else { "Black" };
                return finish(&mut out, &format!("{winner} wins!"), &history);
            }
            b"view" => {
                let (cx, cy) = centre;
                let mut text = format!("{}{},", &letters[cx as usize - 1..cx as usize], cy);
                for y in (cy - 3..=cy + 3).rev() {
                    for x in cx - 3..=cx + 3 {
                        text.push(if !(1..=19).contains(&x) || !(1..=19).contains(&y) {
                            'x'
                        } else {
                            match board.get(&(x, y)) {
                                Some('B') => '#',
                                Some(_) => 'o',
                                None => '.',
                            }
                        });
                    }
                }
                out.extend(format!("{text}\n").bytes());
            }
            _ if line.starts_with(b"place ")
                && line.len() > 6
                && !line[6..].iter().any(is_space) =>
            {
                let param = &line[6..];
                let x = letters
                    .bytes()
                    .position(|l| l == param[0])
                    .map(|i| i as i32 + 1);
                let digits = &param[1..];
                let y = match std::str::from_utf8(digits) {
                    Ok(d) if !d.is_empty() && !d.starts_with('0') && d.len() <= 2 => {
                        d.parse::<i32>().ok().filter(|y| (1..=19).contains(y))
                    }
                    _ => None,
                };
                let (Some(x), Some(y)) = (x, y) else {
                    out.extend(b"Invalid coordinate\n");
                    continue;
                };
                if board.contains_key(&(x, y)) {
                    out.extend(b"Occupied coordinate\n");
                    continue;
                }
                board.insert((x, y), turn);
                history.push_str(std::str::from_utf8(param).expect("a valid point is ASCII"));
                centre = (
                    1 + (5 * x * x + 3 * x + 4) % 19,
                    1 + (4 * y * y + 2 * y - 4) % 19,
                );
                let count = |dx: i32, dy: i32| {
                    (1..)
                        .take_while(|k| board.get(&(x + k * dx, y + k * dy)) == Some(&turn))
                        .count()
                };
                let five = [(1, 0), (0, 1), (1, 1), (1, -1)]
                    .into_iter()
                    .any(|(dx, dy)| 1 + count(dx, dy) + count(-dx, -dy) >= 5);
                if five {
                    let winner = if turn == 'B' { "Black" } else { "White" };
                    return finish(&mut out, &format!("{winner} wins!"), &history);
                }
                if board.len() == 361 {
                    return finish(&mut out, "Wow, a tie!", &history);
                }
                turn = if turn == 'B' { 'W' } else { 'B' };
            }
            _ => out.extend(b"Invalid!\n"),
        }
    }
    (out, 1)
}

/// A reader that hands out its bytes a few at a time, in the sizes given.
struct Trickle<'a> {
    bytes: &'a [u8],
    sizes: std::iter::Cycle<std::vec::IntoIter<usize>>,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self
            .sizes
            .next()
            .unwrap_or(1)
            .min(buf.len())
            .min(self.bytes.len());
        let (now, later) = self.bytes.split_at(n);
        buf[..n].copy_from_slice(now);
        self.bytes = later;
        Ok(n)
    }
}

fn program(input: &[u8], crlf: bool, read_sizes: Vec<usize>) -> (Vec<u8>, u8) {
    let mut out = Vec::new();
    let settings = Settings { crlf, board: false };
    let reader = Trickle {
        bytes: input,
        sizes: read_sizes.into_iter().cycle(),
    };
    let stop = stream::run(Game::new(Rule::Freestyle), settings, reader, &mut out)
        .expect("reading a slice and writing a Vec cannot fail");
    if let Stop::Ended(_) = stop {
        assert!(out.ends_with(b"Thank you for playing!\n"));
    }
    (out, stop.exit_code())
}

/// One line's worth of input, mostly near-misses of real commands.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    let point = (0..21_u8, 0..22_u8).prop_map(|(c, r)| {
        let mut p = vec![b'A' + c];
        p.extend(r.to_string().bytes());
        p
    });
    // Stones near one another, so games end in wins fairly often.
    let near = (0..6_u8, 1..7_u8).prop_map(|(c, r)| format!("place {}{r}", (b'D' + c) as char));
    prop_oneof![
        3 => near.prop_map(String::into_bytes),
        2 => point.prop_map(|p| [b"place ".as_slice(), &p].concat()),
        2 => prop::sample::select(vec![
            "who", "view", "history", "who\r", "place", "place ", "place  A1", "place A1 ",
            "place A1 B2", "place\tA1", "place A01", "place a1", "WHO", "", "\r", "place A\x0b1",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        1 => Just(b"term".to_vec()),
        1 => Just(b"resign".to_vec()),
        1 => prop::collection::vec(any::<u8>(), 0..12),
        1 => (0..40_usize, any::<bool>(), prop::sample::select(vec![b'A', b'1', 0, 0xff]))
            .prop_map(|(n, space, fill)| {
                let mut line = b"place ".to_vec();
                line.extend(std::iter::repeat_n(fill, n));
                if space {
                    line.push(b' ');
                    line.extend(std::iter::repeat_n(fill, n));
                }
                line
            }),
    ]
}

fn stream() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec((piece(), any::<bool>()), 0..120),
        any::<bool>(),
    )
        .prop_map(|(pieces, final_newline)| {
            let mut bytes = Vec::new();
            for (piece, cr) in pieces {
                bytes.extend(piece);
                if cr {
                    bytes.push(b'\r');
                }
                bytes.push(b'\n');
            }
            if !final_newline {
                bytes.pop();
            }
            bytes
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_loop_answers_as_the_model_does(
        input in stream(),
        crlf in any::<bool>(),
        read_sizes in prop::collection::vec(prop_oneof![1..30_usize, Just(1 << 16)], 1..8),
    ) {
        prop_assert_eq!(program(&input, crlf, read_sizes), model(&input, crlf));
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_match_the_model(
        input in prop::collection::vec(any::<u8>(), 0..400),
        crlf in any::<bool>(),
        read_sizes in prop::collection::vec(1..50_usize, 1..4),
    ) {
        prop_assert_eq!(program(&input, crlf, read_sizes), model(&input, crlf));
    }
}

#[test]
fn the_model_reproduces_the_first_spec_example() {
    let input =
        b"view\nplace A1\nview\nplace B2\nview\nplace C3\nview\nplace D4\nview\nhistory\nterm\n";
    let expected = "J10,.................................................\n\
                    M3,..........................................xxxxxxx\n\
                    L17,xxxxxxx..........................................\n\
                    B1,xx.....xx..#..xx.o...xx#....xxxxxxxxxxxxxxxxxxxxx\n\
                    B12,xx.....xx.....xx.....xx.....xx.....xx.....xx.....\n\
                    A1B2C3D4\n";
    assert_eq!(model(input, false), (expected.as_bytes().to_vec(), 1));
}
