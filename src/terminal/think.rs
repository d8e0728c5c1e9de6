//! What the computer thinks, as a line for a person: its score for the
//! position it moved in and the line of play it expects, from the
//! engine's search result. Pure: a search result in, a line out.

use crate::controller::text;
use crate::engine::{Thought, mate_in};
use crate::rules::player::Player;

/// The think line for `mover`'s last move, e.g. `White thinks: +35 for
/// White at depth 9 (45012 positions), expecting K11 L12 M13`. The score
/// is the engine's, for the side that moved: a win it has proved is said
/// as who wins in how many plies (each player's move is one ply).
pub fn line(mover: Player, thought: Option<&Thought>) -> String {
    let name = text::name(mover);
    let Some(thought) = thought else {
        return format!("{name} thinks nothing: it did not search for this move (level 1).");
    };
    let judged = match mate_in(thought.score) {
        Some(plies) if plies > 0 => format!("{name} wins in {}", plies_text(plies)),
        Some(plies) => format!(
            "{} wins in {}",
            text::name(mover.opponent()),
            plies_text(-plies)
        ),
        None => format!("{:+} for {name}", thought.score),
    };
    let expected: Vec<String> = thought.pv.iter().map(ToString::to_string).collect();
    format!(
        "{name} thinks: {judged} at depth {} ({} positions), expecting {}",
        thought.depth,
        thought.nodes,
        expected.join(" ")
    )
}

fn plies_text(plies: i32) -> String {
    match plies {
        1 => "1 ply".to_owned(),
        n => format!("{n} plies"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::WIN;

    fn thought(score: i32, pv: &[&str]) -> Thought {
        let pv: Vec<_> = pv.iter().map(|p| p.parse().unwrap()).collect();
        Thought {
            best: pv[0],
            score,
            depth: 9,
            nodes: 45_012,
            pv,
        }
    }

    #[test]
    fn a_score_a_proved_win_or_loss_and_the_expected_line() {
        let cases = [
            (
                35,
                "White thinks: +35 for White at depth 9 (45012 positions), expecting K11 L12 M13",
            ),
            (
                -120,
                "White thinks: -120 for White at depth 9 (45012 positions), expecting K11 L12 M13",
            ),
            (
                WIN - 3,
                "White thinks: White wins in 3 plies at depth 9 (45012 positions), expecting K11 L12 M13",
            ),
            (
                -(WIN - 1),
                "White thinks: Black wins in 1 ply at depth 9 (45012 positions), expecting K11 L12 M13",
            ),
        ];
        for (score, expected) in cases {
            let t = thought(score, &["K11", "L12", "M13"]);
            assert_eq!(line(Player::White, Some(&t)), expected, "score {score}");
        }
        assert_eq!(
            line(Player::Black, None),
            "Black thinks nothing: it did not search for this move (level 1)."
        );
    }
}
