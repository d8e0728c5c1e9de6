//! Answering a command allocates nothing: a session of 100,000 commands
//! makes exactly the heap allocations, and reaches exactly the peak heap
//! size, of a session of 1,000.
//!
//! A test binary of its own, because it replaces the global allocator.

use gomoku_mist::controller::session::{Settings, Stop};
use gomoku_mist::controller::stream;
use gomoku_mist::game::Game;
use gomoku_mist::rule::Rule;

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// `commands` lines of every kind: queries, rejections, a long line that
/// straddles reads, and the same 150 placements (which never make five),
/// then `term`.
fn workload(commands: usize) -> Vec<u8> {
    let mut placements = (0..19_u8)
        .flat_map(|r| (0..19_u8).map(move |c| (c, r)))
        // Two-wide stripes alternating by row: no colour runs past two.
        .filter(|&(c, r)| (c / 2 + r) % 2 == 0)
        .take(75)
        .zip(
            (0..19_u8)
                .flat_map(|r| (0..19_u8).map(move |c| (c, r)))
                .filter(|&(c, r)| (c / 2 + r) % 2 == 1),
        )
        .flat_map(|(black, white)| [black, white]);
    let long = format!("place {}\r", "A1".repeat(70_000));
    let mut input = Vec::new();
    for i in 0..commands {
        let line = match i % 9 {
            0 => match placements.next() {
                Some((c, r)) => format!("place {}{}", (b'A' + c) as char, r + 1),
                None => "who".to_owned(),
            },
            1 => "view".to_owned(),
            2 => "history".to_owned(),
            3 => "place A1".to_owned(),
            4 => "place Z1".to_owned(),
            5 => "hello".to_owned(),
            6 if i % 900 == 6 => long.clone(),
            _ => "who\r".to_owned(),
        };
        input.extend(line.bytes());
        input.push(b'\n');
    }
    input.extend(b"term\n");
    input
}

/// Heap blocks allocated, and the peak heap size, while running `input`.
fn heap_use(input: &[u8], settings: Settings) -> (u64, usize) {
    let before = dhat::HeapStats::get();
    let stop = stream::run(Game::new(Rule::Freestyle), settings, input, std::io::sink());
    let after = dhat::HeapStats::get();
    assert_eq!(stop.expect("in-memory I/O cannot fail"), Stop::Term);
    (after.total_blocks - before.total_blocks, after.max_bytes)
}

#[test]
fn commands_allocate_nothing_after_start_up() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let (small, large) = (workload(1_000), workload(100_000));
    for settings in [
        Settings::default(),
        Settings {
            board: true,
            crlf: true,
        },
    ] {
        let (small_blocks, small_peak) = heap_use(&small, settings);
        let (large_blocks, large_peak) = heap_use(&large, settings);
        assert!(small_blocks > 0, "start-up allocates its buffers");
        assert_eq!(small_blocks, large_blocks, "allocations with {settings:?}");
        assert_eq!(small_peak, large_peak, "peak heap with {settings:?}");
    }
}
