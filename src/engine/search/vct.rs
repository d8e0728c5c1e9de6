//! VCT: victory by continuous threats (fours and open threes), the
//! threat-space search. It shares the AND/OR search of [`super::vcf`];
//! only the attacker's move set is wider, so its depth is kept small.

use super::Search;
use super::vcf::Threats;

impl Search<'_> {
    /// Whether the side to move wins by fours and open threes within
    /// `depth` of its own moves. On success the first move is in
    /// `self.solved`.
    pub fn vct(&mut self, depth: u32, ply: usize) -> bool {
        self.attack(depth, ply, Threats::FoursAndThrees)
    }
}
