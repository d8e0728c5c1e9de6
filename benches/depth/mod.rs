//! The benches' fixed positions on the Gomocup board (20×20, freestyle),
//! written down so that figures taken before and after a change to the
//! search are of the same positions:
//!
//! - `positions.txt`, the depth bench's midgame positions (they used to
//!   come from self-play by the engine under test, so a change to the
//!   search changed the positions too);
//! - `openings.txt`, the SPRT's openings: short openings that neither
//!   side wins by force, chosen by the `balance` bench (see
//!   `benches/engine.rs`);
//! - `attacks.txt`, the attacks bench's positions: from games lost to
//!   Rapfi, each one where the side to move has a long forced win that
//!   Rapfi's search finds and ours must learn to see.
//!
//! Beside them, [`swing`]: how the benches measure a score's swing with
//! the depth's parity.
//!
//! A line is a move list, Black first, then `#` and a comment saying
//! where it came from, how many stones and who is to move. A move is a
//! column letter `A`–`T` (x 0–19) and a row number `1`–`20` (y 0–19), as
//! the bench's openings write the 19×19 board. Lines starting with `#`
//! are comments.
//!
//! Every position must be one where the time goes to the search: the
//! stones its file allows ([`MIDGAME`]: 12 to 30; [`OPENING`]: 3 to 6),
//! no five, no four of either side (a four is a win at once or a forced
//! reply), and no open four, double four or four-three the side to move
//! can make. The loader refuses a line that breaks this, and `cargo test`
//! (tests/it) checks the files.

pub mod swing;

use gomoku_mist::engine::{Setup, Spot};
use gomoku_mist::player::Player;
use gomoku_mist::rule::Rule;

/// The board's side: Gomocup's freestyle board.
pub const SIZE: u8 = 20;

/// A file of positions: its name, for messages, and the stones a
/// position in it may hold.
pub struct Kind {
    /// The file's name beside this module.
    pub file: &'static str,
    /// How many stones a position may hold.
    pub stones: std::ops::RangeInclusive<usize>,
}

/// The depth bench's midgame positions.
pub const MIDGAME: Kind = Kind {
    file: "positions.txt",
    stones: 12..=30,
};

/// The SPRT's openings.
pub const OPENING: Kind = Kind {
    file: "openings.txt",
    stones: 3..=6,
};

/// The attacks bench's positions: a forced win for the side to move,
/// but not one it makes at once.
pub const ATTACK: Kind = Kind {
    file: "attacks.txt",
    stones: 6..=60,
};

/// The positions, as written in the repository.
pub const TEXT: &str = include_str!("positions.txt");

/// The attacks, as written in the repository.
pub const ATTACKS: &str = include_str!("attacks.txt");

/// The openings, as written in the repository.
pub const OPENINGS: &str = include_str!("openings.txt");

/// One position of the bench.
#[derive(Clone, Debug)]
pub struct Position {
    /// Its line in `positions.txt`, from 1.
    pub line: usize,
    /// The moves, Black first.
    pub moves: Vec<Spot>,
    /// The line's comment.
    pub comment: String,
}

impl Position {
    /// The colour to move.
    pub fn to_move(&self) -> Player {
        if self.moves.len() % 2 == 0 {
            Player::Black
        } else {
            Player::White
        }
    }

    /// The position as the engine is given it.
    pub fn setup(&self) -> Setup {
        setup(&self.moves)
    }
}

/// The 20×20 freestyle position after `moves`, Black first, with the
/// colour after the last move to move.
pub fn setup(moves: &[Spot]) -> Setup {
    let mut setup = Setup::new(SIZE, Rule::Freestyle);
    let mut player = Player::Black;
    for &s in moves {
        setup.stones.push((s, player));
        player = player.opponent();
    }
    setup.to_move = player;
    setup
}

/// A spot in the file's notation: `K11`.
pub fn name(s: Spot) -> String {
    format!("{}{}", char::from(b'A' + s.x), u32::from(s.y) + 1)
}

/// Every position of [`TEXT`], or one message per refused line.
pub fn positions() -> Result<Vec<Position>, Vec<String>> {
    parse(TEXT, &MIDGAME)
}

/// Every opening of [`OPENINGS`], or one message per refused line.
pub fn openings() -> Result<Vec<Position>, Vec<String>> {
    parse(OPENINGS, &OPENING)
}

/// Every position of [`ATTACKS`], or one message per refused line.
pub fn attacks() -> Result<Vec<Position>, Vec<String>> {
    parse(ATTACKS, &ATTACK)
}

/// An opening's shape up to the board's symmetries and a shift: the
/// smallest of its eight images, each moved to the origin, as (colour,
/// x, y) sorted.
pub fn shape(moves: &[Spot]) -> Vec<(usize, i32, i32)> {
    (0..8u8)
        .map(|symmetry| {
            let image: Vec<(usize, i32, i32)> = moves
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let (x, y) = (i32::from(s.x), i32::from(s.y));
                    let (x, y) = if symmetry & 4 != 0 { (y, x) } else { (x, y) };
                    let x = if symmetry & 1 != 0 { -x } else { x };
                    let y = if symmetry & 2 != 0 { -y } else { y };
                    (k % 2, x, y)
                })
                .collect();
            let x0 = image.iter().map(|p| p.1).min().unwrap_or(0);
            let y0 = image.iter().map(|p| p.2).min().unwrap_or(0);
            let mut image: Vec<_> = image
                .into_iter()
                .map(|(c, x, y)| (c, x - x0, y - y0))
                .collect();
            image.sort_unstable();
            image
        })
        .min()
        .unwrap_or_default()
}

/// The positions of `text`, a file of `kind`, or one message per refused
/// line.
pub fn parse(text: &str, kind: &Kind) -> Result<Vec<Position>, Vec<String>> {
    let mut positions = Vec::new();
    let mut refused = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match position(line, line_no, kind) {
            Ok(p) => positions.push(p),
            Err(why) => refused.push(format!("{} line {line_no}: {why}", kind.file)),
        }
    }
    if refused.is_empty() {
        Ok(positions)
    } else {
        Err(refused)
    }
}

fn position(line: &str, line_no: usize, kind: &Kind) -> Result<Position, String> {
    let (moves, comment) = line
        .split_once('#')
        .ok_or("no comment: say where it came from, stones and who is to move")?;
    let moves = parse_moves(moves.trim().as_bytes())?;
    if !kind.stones.contains(&moves.len()) {
        return Err(format!(
            "{} stones, not {} to {}",
            moves.len(),
            kind.stones.start(),
            kind.stones.end()
        ));
    }
    let position = Position {
        line: line_no,
        moves,
        comment: comment.trim().to_owned(),
    };
    quiet(&position)?;
    Ok(position)
}

/// Moves written `K11L12M13`, as bytes.
fn parse_moves(text: &[u8]) -> Result<Vec<Spot>, String> {
    let mut moves = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let column = text[at];
        let mut end = at + 1;
        while end < text.len() && text[end].is_ascii_digit() {
            end += 1;
        }
        let row: Option<u8> = std::str::from_utf8(&text[at + 1..end])
            .ok()
            .and_then(|r| r.parse().ok());
        let spot = match (column, row) {
            (b'A'..=b'T', Some(row @ 1..=SIZE)) => Spot {
                x: column - b'A',
                y: row - 1,
            },
            _ => {
                let word = String::from_utf8_lossy(&text[at..end.max(at + 1)]);
                return Err(format!(
                    "{word:?} is not a point of the {SIZE}x{SIZE} board"
                ));
            }
        };
        if moves.contains(&spot) {
            return Err(format!("{} is played twice", name(spot)));
        }
        moves.push(spot);
        at = end;
    }
    Ok(moves)
}

/// The board of a position, for the threat checks.
struct Grid {
    cells: Vec<Option<Player>>,
}

const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Grid {
    fn of(moves: &[Spot]) -> Grid {
        let mut grid = Grid {
            cells: vec![None; usize::from(SIZE) * usize::from(SIZE)],
        };
        let mut player = Player::Black;
        for &s in moves {
            grid.set(s, Some(player));
            player = player.opponent();
        }
        grid
    }

    fn index(s: Spot) -> usize {
        usize::from(s.y) * usize::from(SIZE) + usize::from(s.x)
    }

    fn get(&self, x: i32, y: i32) -> Option<Player> {
        let n = i32::from(SIZE);
        ((0..n).contains(&x) && (0..n).contains(&y))
            .then(|| self.cells[(y * n + x) as usize])
            .flatten()
    }

    fn set(&mut self, s: Spot, what: Option<Player>) {
        self.cells[Grid::index(s)] = what;
    }

    fn spots() -> impl Iterator<Item = Spot> {
        (0..SIZE).flat_map(|y| (0..SIZE).map(move |x| Spot { x, y }))
    }

    fn empty(&self) -> Vec<Spot> {
        Grid::spots()
            .filter(|&s| self.cells[Grid::index(s)].is_none())
            .collect()
    }

    /// Whether `player`'s stone at `s` (placed or imagined) is in a run of
    /// five or more.
    fn five_through(&self, s: Spot, player: Player) -> bool {
        let (x, y) = (i32::from(s.x), i32::from(s.y));
        DIRECTIONS.iter().any(|&(dx, dy)| {
            let run = |sign: i32| {
                (1..)
                    .take_while(|k| self.get(x + sign * k * dx, y + sign * k * dy) == Some(player))
                    .count()
            };
            1 + run(1) + run(-1) >= 5
        })
    }

    /// The empty points where `player` would make five: one is a four,
    /// two or more an open four (or a double four).
    fn fives(&self, player: Player) -> Vec<Spot> {
        self.empty()
            .into_iter()
            .filter(|&s| self.five_through(s, player))
            .collect()
    }
}

/// Why `position` is not a quiet midgame, if it is not.
fn quiet(position: &Position) -> Result<(), String> {
    let mut grid = Grid::of(&position.moves);
    let mover = position.to_move();
    let colour = |p: Player| if p == Player::Black { "Black" } else { "White" };
    if let Some(&s) = position.moves.iter().find(|&&s| {
        let owner = grid.cells[Grid::index(s)].unwrap_or(Player::Black);
        grid.five_through(s, owner)
    }) {
        return Err(format!("a five through {}: the game is over", name(s)));
    }
    for player in [mover, mover.opponent()] {
        if let Some(&s) = grid.fives(player).first() {
            return Err(format!(
                "{} has a four ({} makes five): a win at once or a forced reply",
                colour(player),
                name(s)
            ));
        }
    }
    for s in grid.empty() {
        grid.set(s, Some(mover));
        let fives = grid.fives(mover);
        if fives.len() >= 2 {
            return Err(format!(
                "{} to move makes an open or double four at {}",
                colour(mover),
                name(s)
            ));
        }
        if let [block] = fives[..] {
            grid.set(block, Some(mover.opponent()));
            let follow = grid.empty().into_iter().find(|&r| {
                grid.set(r, Some(mover));
                let open = grid.fives(mover).len() >= 2;
                grid.set(r, None);
                open
            });
            grid.set(block, None);
            if let Some(r) = follow {
                return Err(format!(
                    "{} to move wins by fours: {} (forcing {}) then an open four at {}",
                    colour(mover),
                    name(s),
                    name(block),
                    name(r)
                ));
            }
        }
        grid.set(s, None);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Every line of `positions.txt` is a quiet midgame of 12 to 30 stones.
    #[test]
    fn every_depth_bench_position_is_a_quiet_midgame() {
        let positions =
            super::positions().unwrap_or_else(|refused| panic!("{}", refused.join("\n")));
        assert!(
            (8..=12).contains(&positions.len()),
            "{} positions, not 8 to 12",
            positions.len()
        );
        for p in &positions {
            assert_eq!(p.setup().stones.len(), p.moves.len(), "line {}", p.line);
            let who = format!("{:?} to move", p.to_move());
            assert!(
                p.comment.contains(&who),
                "line {}: the comment says who is to move: {who}",
                p.line
            );
        }
    }

    /// Every line of `openings.txt` is a quiet opening of 3 to 6 stones,
    /// enough of them for a long SPRT, no two of one shape.
    #[test]
    fn every_sprt_opening_is_quiet_and_of_its_own_shape() {
        let openings = super::openings().unwrap_or_else(|refused| panic!("{}", refused.join("\n")));
        assert!(
            (16..=64).contains(&openings.len()),
            "{} openings, not 16 to 64",
            openings.len()
        );
        let mut shapes = std::collections::HashSet::new();
        for o in &openings {
            let who = format!("{:?} to move", o.to_move());
            assert!(
                o.comment.contains(&who),
                "line {}: the comment says who is to move: {who}",
                o.line
            );
            assert!(
                shapes.insert(super::shape(&o.moves)),
                "line {}: the shape of an opening before it",
                o.line
            );
        }
    }

    /// Every line of `attacks.txt` passes the checks (no five, no four, no
    /// win the side to move makes at once), has Black to move, the side
    /// Rapfi's score gives the win, and says that score.
    #[test]
    fn every_attack_is_a_win_not_made_at_once() {
        let attacks = super::attacks().unwrap_or_else(|refused| panic!("{}", refused.join("\n")));
        assert!(
            (10..=30).contains(&attacks.len()),
            "{} attacks, not 10 to 30",
            attacks.len()
        );
        for a in &attacks {
            assert_eq!(a.to_move(), super::Player::Black, "line {}", a.line);
            assert!(
                a.comment.contains("Black to move") && a.comment.contains("Rapfi +M"),
                "line {}: the comment says who is to move and Rapfi's mate",
                a.line
            );
        }
    }

    /// An opening's shape is the same in its eight symmetries and
    /// anywhere on the board, and tells the colours apart.
    #[test]
    fn shapes_ignore_symmetry_and_place_but_not_colour() {
        let spot = |x, y| super::Spot { x, y };
        let opening = [spot(10, 10), spot(11, 10), spot(10, 12)];
        let mirrored = [spot(10, 10), spot(9, 10), spot(10, 12)];
        let turned = [spot(10, 10), spot(10, 11), spot(12, 10)];
        let moved = [spot(3, 4), spot(4, 4), spot(3, 6)];
        let swapped = [spot(11, 10), spot(10, 10), spot(10, 12)];
        let shape = super::shape(&opening);
        for same in [mirrored, turned, moved] {
            assert_eq!(super::shape(&same), shape, "{same:?}");
        }
        assert_ne!(super::shape(&swapped), shape);
    }

    /// The checks refuse what they are there to refuse.
    #[test]
    fn the_depth_bench_refuses_decided_positions() {
        let cases = [
            // Black's open three H10-J10, the rest scattered: Black to
            // move makes an open four.
            (
                "H10A20I10D20J10G20A1T5D1T8G1T11 # open three",
                "open or double four",
            ),
            // Black's four H10-K10, blocked by G10: a win at once.
            (
                "H10G10I10A20J10D20K10G20A1T5D1T8 # four",
                "Black has a four",
            ),
            // Black's three H10-J10 blocked by G10 and two K11-K12: K10
            // is a four and an open three, a four-three.
            (
                "H10G10I10A20J10D20K11G20K12T5A1T8 # four-three",
                "wins by fours: K10",
            ),
            ("K10K11 # too few", "2 stones"),
            ("K10K11 no comment", "no comment"),
            ("K10U11 # off the board", "not a point"),
            ("K10K10 # twice", "played twice"),
        ];
        for (text, why) in cases {
            let refused = super::parse(text, &super::MIDGAME).expect_err(text);
            assert!(
                refused.len() == 1 && refused[0].contains(why),
                "{text}: {refused:?}, not {why:?}"
            );
        }
    }
}
