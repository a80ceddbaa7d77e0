//! Proofs: what is proven about a node or an edge, how a chance node's outcomes and a decision
//! node's edges prove it, and the check of the root's proof for a shorter mate.

use jieqi_core::Move;
use jieqi_engine::Score;

use crate::mate::MateProver;

use super::*;

/// What is proven about a node for its side to move (or about an edge for its mover), with the
/// distance to the end in plies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Nothing.
    Unknown,
    /// A forced win in this many plies.
    Win(u32),
    /// A forced loss in this many plies (at most: the opponent wins within them).
    Loss(u32),
}

impl Proof {
    /// The proof one ply up, for the side that moved into this node.
    fn up(self) -> Proof {
        match self {
            Proof::Unknown => Proof::Unknown,
            Proof::Win(d) => Proof::Loss(d + 1),
            Proof::Loss(d) => Proof::Win(d + 1),
        }
    }

    /// The score of a proven move (alpha-beta's plies-to-moves mapping), if proven.
    pub fn score(self) -> Option<Score> {
        match self {
            Proof::Unknown => None,
            Proof::Win(d) => Some(Score::Mate((d as i32 + 1) / 2)),
            Proof::Loss(d) => Some(Score::Mate(-(d as i32 / 2))),
        }
    }
}

impl Search<'_> {
    /// The proof of edge `e` for its mover.
    pub(super) fn edge_proof(&self, e: &Edge) -> Proof {
        match e.kind {
            DECISION => self.nodes[e.child as usize].proof.up(),
            CHANCE => self.chance_proof(e.child),
            _ => Proof::Unknown,
        }
    }

    /// A chance node's proof for the mover: every outcome proven the same way, at the largest
    /// distance.
    pub(super) fn chance_proof(&self, ch: u32) -> Proof {
        let c = &self.chances[ch as usize];
        let (mut wins, mut losses, mut far) = (0, 0, 0);
        for o in &self.outcomes[c.first as usize..(c.first + c.len) as usize] {
            let p = if o.king_win {
                Proof::Win(1)
            } else {
                self.nodes[o.child as usize].proof.up()
            };
            match p {
                Proof::Unknown => return Proof::Unknown,
                Proof::Win(d) => {
                    wins += 1;
                    far = far.max(d);
                }
                Proof::Loss(d) => {
                    losses += 1;
                    far = far.max(d);
                }
            }
            if wins > 0 && losses > 0 {
                return Proof::Unknown;
            }
        }
        if losses == 0 {
            Proof::Win(far)
        } else {
            Proof::Loss(far)
        }
    }

    /// Recomputes an unproven node's proof from all its edges.
    pub(super) fn refresh(&mut self, n: u32) {
        let node = &self.nodes[n as usize];
        if node.proof != Proof::Unknown {
            return;
        }
        let (first, len) = (node.first_edge as usize, node.len as usize);
        let mut best_win = u32::MAX;
        let mut all_lost = true;
        let mut longest = 0;
        for e in &self.edges[first..first + len] {
            match self.edge_proof(e) {
                Proof::Win(d) => best_win = best_win.min(d),
                Proof::Loss(d) => longest = longest.max(d),
                Proof::Unknown => all_lost = false,
            }
        }
        let proof = if best_win != u32::MAX {
            Proof::Win(best_win)
        } else if all_lost && len > 0 {
            Proof::Loss(longest)
        } else {
            Proof::Unknown
        };
        self.nodes[n as usize].proof = proof;
    }

    /// A root move that mates in fewer plies than `plies` (the root's proven win), found by the
    /// chance-aware [`MateProver`] (every outcome of a hidden-piece move must mate, repetitions
    /// are not looked at) within [`VERIFY_NODES`] positions, with its distance in plies; `None`
    /// if there is none or the budget runs out first.
    pub(super) fn shorter_mate(&self, plies: u32) -> Option<(Move, u32)> {
        let mut prover = MateProver::with_knowledge(VERIFY_NODES, self.knowledge);
        let moves = if self.root_filter.is_empty() {
            self.pos.legal_moves().to_vec()
        } else {
            self.root_filter.clone()
        };
        // A win in p plies is a mate in (p + 1) / 2 moves.
        let found = prover.first_mate_below(&self.pos, &moves, plies.div_ceil(2));
        found.ok().flatten().map(|(m, n)| (m, 2 * n - 1))
    }
}
