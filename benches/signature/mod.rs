//! The engine's signature: a fixed list of positions, each searched by a
//! fresh engine to a fixed depth, and the total node count. Any change
//! that alters it changed the search. Shared by the bench (which prints
//! it) and by `cargo test` (which checks it against `benches/signature.txt`),
//! so both compute the same number on the same positions.

use gomoku_mist::board::Board;
use gomoku_mist::engine::{Engine, Limits};
use gomoku_mist::player::Player;
use gomoku_mist::point::Point;
use gomoku_mist::rule::Rule;

/// Four-stone openings (Black, White, Black, White), drawn once at random
/// from the 7×7 square around the centre with a fixed seed and written out
/// here. Near-centre openings of two stones are all won by Black between
/// equal players; these vary more, so the self-play match says something.
pub const OPENINGS: [&str; 16] = [
    "M7I8K12K11",
    "H11H8L13G9",
    "K12L10J12M11",
    "K11G7I13H8",
    "L7J10J12K8",
    "I8I11G10J13",
    "M11J12I8L9",
    "I8M10G9J13",
    "J12I9K8L11",
    "M11G13I12H9",
    "G12K13H9G9",
    "M7I10H10J13",
    "J7J12L11H8",
    "K13I9K10I10",
    "J9J7I12M8",
    "K12H10J13L13",
];

/// The depth each signature position is searched to. At 6 (22,243
/// nodes) the count missed a change that plays differently: a node once
/// on the expected line, remembered by the table, reduced a ply less,
/// which first shows at depth 7. At 8 the sixteen searches take some
/// 55,000 nodes, still a blink in `cargo test`.
pub const DEPTH: u32 = 8;

/// The signature recorded in the repository: what [`signature`] must
/// give, checked by `cargo test` (tests/engine.rs).
pub const RECORDED: &str = include_str!("../signature.txt");

pub fn parse_moves(text: &str) -> Vec<Point> {
    let bytes = text.as_bytes();
    let mut moves = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let mut end = at + 1;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        moves.push(Point::from_ascii(&bytes[at..end]).expect("bench openings are valid points"));
        at = end;
    }
    moves
}

pub fn board_of(moves: &[Point]) -> (Board, Player) {
    let mut board = Board::new();
    let mut player = Player::Black;
    for &p in moves {
        board.place(p, player);
        player = player.opponent();
    }
    (board, player)
}

/// Four midgame positions: fixed-node self-play (3,000 nodes a move, 16
/// plies) from `OPENINGS[4..8]`, as the search of 0bdbc86 played
/// it, written out. Generated afresh at each run, they moved with every
/// change to the search, and the signature then measured new positions
/// as much as a new search (a margin's change once tripled it, all of it
/// in one new position).
pub const MIDGAMES: [&str; 4] = [
    "L7J10J12K8K10L6M12J9K12L12K11K9I11K14I13L10I12I10G12H12",
    "I8I11G10J13G8F11G11G9H10H8F10E10I9F12J8K7I7I10I6I5",
    "M11J12I8L9L12J11J13K13I11K10I12K14K12I14I9I10J10K11K9L8",
    "I8M10G9J13F8H8G7L11K12G6E9D10H9F9I11H10I5H6I10J11",
];

/// The fixed positions of the signature: four openings and four midgame
/// positions.
pub fn positions() -> Vec<Vec<Point>> {
    OPENINGS
        .iter()
        .take(4)
        .chain(MIDGAMES.iter())
        .map(|o| parse_moves(o))
        .collect()
}

/// The total node count of a fresh engine searching each position to
/// [`DEPTH`]: any change to what the search visits changes it.
pub fn signature() -> u64 {
    let mut total = 0;
    for moves in positions() {
        let (board, player) = board_of(&moves);
        let mut engine = Engine::new(1 << 22);
        let limits = Limits {
            depth: Some(DEPTH),
            ..Limits::default()
        };
        if let Some(t) = engine.think(&board, player, Rule::Freestyle, limits) {
            total += t.nodes;
        }
    }
    total
}
