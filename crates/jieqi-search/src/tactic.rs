//! A prover of forced material gain in Jieqi, whatever the hidden pieces are: the test behind
//! the Jieqi tactics suite (`arena suite tactics`). Written to verify, not to play.
//!
//! The question is whether a move of the side to move (the *mover*) wins at least `threshold`
//! centipawns of material by force. The search is a full-width minimax of `depth` plies (the
//! move itself is the first), then captures until both sides stop (either may stand pat; a side
//! in check must answer it), counting only material that changes hands ([`value`]).
//!
//! Hidden pieces are decided by an adversary, as late as possible: when a hidden piece moves
//! (and reveals) or is captured, every identity left in its owner's pool is tried, and the one
//! worst for the mover counts, whoever moves. Any sequence of such choices is consistent with
//! some determinization, and the adversary may adapt its choices to the mover's moves, so a gain
//! proved here holds in **every determinization** (the adversary could fix one in advance and
//! play it), and the mover's later moves use only what it has seen revealed. Without hidden
//! pieces this is plain minimax.
//!
//! A side without a legal move loses (checkmate or stalemate): that counts as [`MATE`]. No
//! repetition or no-capture limit is looked at: the horizon is a few plies.

use jieqi_core::{Color, Move, Occupant, PlayedMove, Position, Role};

/// The value of a lost king: larger than any material.
pub const MATE: i32 = 100_000;

/// Quiescence plies (captures, or answers to a check) beyond the full-width depth.
const MAX_QUIESCENCE: u32 = 12;

/// Material in centipawns (a pawn is 100): chariot 900, cannon 450, horse 400, elephant and
/// advisor 200, pawn 100; the king is never captured by a legal move.
pub const fn value(role: Role) -> i32 {
    match role {
        Role::Chariot => 900,
        Role::Cannon => 450,
        Role::Horse => 400,
        Role::Elephant | Role::Advisor => 200,
        Role::Pawn => 100,
        Role::King => 0,
    }
}

/// The node budget ran out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BudgetExhausted;

impl core::fmt::Display for BudgetExhausted {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("the tactic prover ran out of nodes")
    }
}

impl std::error::Error for BudgetExhausted {}

/// The prover: its depth, its node count and budget.
pub struct TacticProver {
    depth: u32,
    nodes: u64,
    budget: u64,
}

impl TacticProver {
    /// A prover searching `depth ≥ 1` full-width plies (the move itself included) and giving up
    /// after `budget` nodes over its lifetime.
    pub fn new(depth: u32, budget: u64) -> TacticProver {
        TacticProver {
            depth: depth.max(1),
            nodes: 0,
            budget,
        }
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether `m` (legal in `pos`) wins at least `threshold` centipawns for the side to move by
    /// force, whatever the hidden identities.
    ///
    /// # Errors
    /// The budget ran out.
    pub fn wins(
        &mut self,
        pos: &Position,
        m: Move,
        threshold: i32,
    ) -> Result<bool, BudgetExhausted> {
        let mut pos = pos.clone();
        let root = pos.turn();
        let v = self.move_value(&mut pos, m, self.depth, 0, threshold - 1, threshold, root)?;
        Ok(v >= threshold)
    }

    /// Every legal move of `pos` that [`TacticProver::wins`] `threshold`, in generation order.
    ///
    /// # Errors
    /// The budget ran out.
    pub fn winning_moves(
        &mut self,
        pos: &Position,
        threshold: i32,
    ) -> Result<Vec<Move>, BudgetExhausted> {
        let mut out = Vec::new();
        for &m in pos.legal_moves().as_slice() {
            if self.wins(pos, m, threshold)? {
                out.push(m);
            }
        }
        Ok(out)
    }

    /// The value of the position for its side to move (material it gains from here on), with
    /// `depth` full-width plies left and `qply` quiescence plies played, within (alpha, beta).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &mut Position,
        depth: u32,
        qply: u32,
        mut alpha: i32,
        beta: i32,
        root: Color,
    ) -> Result<i32, BudgetExhausted> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(BudgetExhausted);
        }
        let moves = pos.legal_moves();
        if moves.as_slice().is_empty() {
            return Ok(-MATE);
        }
        let quiet = depth == 0;
        let in_check = quiet && pos.in_check();
        let mut best = -MATE - 1;
        if quiet && !in_check {
            // Stand pat: the side to move may stop capturing.
            best = 0;
            if best >= beta || qply >= MAX_QUIESCENCE {
                return Ok(best);
            }
            alpha = alpha.max(best);
        } else if quiet && qply >= MAX_QUIESCENCE {
            return Ok(0);
        }
        for &m in moves.as_slice() {
            if quiet && !in_check && pos.occupant(m.to).is_none() {
                continue;
            }
            let (d, q) = if quiet { (0, qply + 1) } else { (depth - 1, 0) };
            let v = self.move_value(pos, m, d, q, alpha, beta, root)?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }

    /// The value of `m` for the side to move: its capture plus the reply's negated value, with
    /// the adversary's choice of every identity it reveals or captures.
    #[allow(clippy::too_many_arguments)]
    fn move_value(
        &mut self,
        pos: &mut Position,
        m: Move,
        depth: u32,
        qply: u32,
        alpha: i32,
        beta: i32,
        root: Color,
    ) -> Result<i32, BudgetExhausted> {
        let us = pos.turn();
        let reveals = identities(pos, m.from, us);
        let target = if m.from == m.to {
            None
        } else {
            pos.occupant(m.to)
        };
        let captures: Vec<(Option<Role>, i32)> = match target {
            None => vec![(None, 0)],
            Some(Occupant::Revealed(p)) => vec![(None, value(p.role))],
            Some(Occupant::Hidden(c)) => Role::ALL
                .into_iter()
                .filter(|&r| pos.pool(c).get(r) > 0)
                .map(|r| (Some(r), value(r)))
                .collect(),
        };
        // The adversary works against the mover of the root.
        let adversary_minimises = us == root;
        let mut agg: Option<i32> = None;
        for &reveal in &reveals {
            for &(capture, gain) in &captures {
                let pm = PlayedMove {
                    mv: m,
                    reveal,
                    capture,
                };
                let undo = pos.make(pm);
                let child = self.search(pos, depth, qply, -(beta - gain), -(alpha - gain), root);
                pos.unmake(pm, undo);
                let v = gain - child?;
                let v = if v <= -MATE + gain { -MATE } else { v };
                agg = Some(match agg {
                    None => v,
                    Some(a) if adversary_minimises => a.min(v),
                    Some(a) => a.max(v),
                });
                let a = agg.unwrap_or(v);
                if (adversary_minimises && a <= alpha) || (!adversary_minimises && a >= beta) {
                    return Ok(a);
                }
            }
        }
        Ok(agg.unwrap_or(0))
    }
}

/// The identities a move from `sq` may reveal: every role left in the mover's pool when the
/// piece there is hidden, else none to choose.
fn identities(pos: &Position, sq: jieqi_core::Square, us: Color) -> Vec<Option<Role>> {
    if pos.is_hidden(sq) {
        Role::ALL
            .into_iter()
            .filter(|&r| pos.pool(us).get(r) > 0)
            .map(Some)
            .collect()
    } else {
        vec![None]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::Rules;

    fn xq(fen: &str) -> Position {
        Position::from_fen(fen, &Rules::xiangqi()).expect("fen")
    }

    #[test]
    fn a_free_chariot_is_won_and_a_defended_one_is_not() {
        // Red chariot a0 takes the black chariot a9 (undefended): +900.
        let p = xq("r2k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
        let mut prover = TacticProver::new(2, 1_000_000);
        let a0a9 = Move::from_text("a0a9").unwrap();
        assert!(prover.wins(&p, a0a9, 900).unwrap());
        assert!(!prover.wins(&p, a0a9, 901).unwrap());
        // With a black horse on b7 guarding a9, the exchange only trades chariots.
        let q = xq("r2k5/9/1n7/9/9/9/9/9/9/R3K4 w - - 0 1");
        assert!(!prover.wins(&q, a0a9, 100).unwrap());
        assert_eq!(prover.winning_moves(&q, 100).unwrap(), Vec::<Move>::new());
    }

    #[test]
    fn a_hidden_victim_counts_as_its_cheapest_identity() {
        // Standard rules: the red chariot a5 takes the hidden black piece a6. The adversary
        // makes it the cheapest identity left in Black's pool.
        let rules = Rules::standard();
        let a5a6 = Move::from_text("a5a6").unwrap();
        let mut prover = TacticProver::new(2, 1_000_000);
        for (pool, gain) in [("r1c1", 450), ("c1p1", 100), ("r1", 900)] {
            let fen = format!("4k4/9/9/x8/R8/9/9/9/9/3K5 w {pool} 0 1");
            let p = Position::from_fen(&fen, &rules).expect("fen");
            assert!(prover.wins(&p, a5a6, gain).unwrap(), "{pool}");
            assert!(!prover.wins(&p, a5a6, gain + 1).unwrap(), "{pool}");
        }
        assert!(prover.nodes() > 0);
        let mut tiny = TacticProver::new(2, 2);
        assert_eq!(
            tiny.winning_moves(&Position::start(&rules), 100),
            Err(BudgetExhausted)
        );
    }
}
