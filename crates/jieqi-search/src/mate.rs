//! An exhaustive mate prover for positions without hidden pieces: whether the side to move mates
//! within `n` of its moves against every defence, the shortest such `n`, and every first move
//! that achieves it. Written to verify test suites (`arena suite mates`), not to play: it is
//! full-width, with no evaluation and no pruning but the proof's own (a defence that escapes
//! refutes an attacking move; a mating move proves a node).
//!
//! "Mated" is what the rules say of a side to move without a legal move: checkmate, and in
//! Xiangqi stalemate too. The prover looks at no repetition and no no-capture limit. A shortest
//! mate never repeats a position (the mate from the repeated position would be shorter), so
//! repetition cannot lengthen it; a defender could only lose sooner by repetition through a
//! perpetual check of its own, which needs a third occurrence, and suites give positions with a
//! zero no-capture count.
//!
//! Results are kept in a table by position hash: the fewest moves known to mate and the most
//! moves known not to, so iterative deepening (`n` = 1, 2, …) reuses every earlier proof.

use jieqi_core::{Move, MoveList, PlayedMove, Position};

/// Why a proof was not finished.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MateError {
    /// The position has hidden pieces: their moves are chance events, not proofs.
    Hidden,
    /// The node budget ran out.
    Budget,
}

impl core::fmt::Display for MateError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            MateError::Hidden => "the mate prover needs a position without hidden pieces",
            MateError::Budget => "the mate prover ran out of nodes",
        })
    }
}

impl std::error::Error for MateError {}

/// What is known of one position: mated within `mates` moves (0 = not known) and not within
/// `fails` moves.
#[derive(Copy, Clone, Default)]
struct Known {
    mates: u8,
    fails: u8,
}

/// The prover, with its table and node count. One prover may answer many questions about
/// positions of one rule set.
pub struct MateProver {
    table: crate::KeyMap<Known>,
    nodes: u64,
    budget: u64,
}

impl MateProver {
    /// A prover that gives up after `budget` nodes (positions visited) over its lifetime.
    pub fn new(budget: u64) -> MateProver {
        MateProver {
            table: crate::KeyMap::default(),
            nodes: 0,
            budget,
        }
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The least `n ≤ max` such that the side to move mates within `n` moves whatever the
    /// defence, or `None` when there is none within `max`.
    ///
    /// # Errors
    /// Hidden pieces on the board, or the budget ran out.
    pub fn shortest(&mut self, pos: &Position, max: u32) -> Result<Option<u32>, MateError> {
        check(pos)?;
        let mut pos = pos.clone();
        for n in 1..=max {
            if self.attacker(&mut pos, n)? {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// Every move of the side to move after which it mates within `n` moves in all (the move
    /// itself counting as the first), in generation order.
    ///
    /// # Errors
    /// As [`MateProver::shortest`].
    pub fn mating_moves(&mut self, pos: &Position, n: u32) -> Result<Vec<Move>, MateError> {
        check(pos)?;
        let mut pos = pos.clone();
        let mut out = Vec::new();
        if n == 0 {
            return Ok(out);
        }
        for &m in pos.legal_moves().as_slice() {
            let pm = PlayedMove::plain(m);
            let undo = pos.make(pm);
            let mated = self.defender(&mut pos, n - 1);
            pos.unmake(pm, undo);
            if mated? {
                out.push(m);
            }
        }
        Ok(out)
    }

    /// Whether the side to move mates within `n ≥ 1` moves.
    fn attacker(&mut self, pos: &mut Position, n: u32) -> Result<bool, MateError> {
        self.visit()?;
        let key = pos.hash();
        let known = self.table.get(&key).copied().unwrap_or_default();
        if known.mates != 0 && u32::from(known.mates) <= n {
            return Ok(true);
        }
        if u32::from(known.fails) >= n {
            return Ok(false);
        }
        let moves = ordered(pos);
        let mut found = false;
        for &m in moves.as_slice() {
            let pm = PlayedMove::plain(m);
            let undo = pos.make(pm);
            let mated = self.defender(pos, n - 1);
            pos.unmake(pm, undo);
            if mated? {
                found = true;
                break;
            }
        }
        let entry = self.table.entry(key).or_default();
        if found {
            if entry.mates == 0 || u32::from(entry.mates) > n {
                entry.mates = n as u8;
            }
        } else {
            entry.fails = entry.fails.max(n as u8);
        }
        Ok(found)
    }

    /// Whether the side to move (the defender) is mated now or within `k` more attacking moves
    /// whatever it plays.
    fn defender(&mut self, pos: &mut Position, k: u32) -> Result<bool, MateError> {
        self.visit()?;
        if !pos.has_legal_move() {
            return Ok(true);
        }
        if k == 0 {
            return Ok(false);
        }
        for &d in pos.legal_moves().as_slice() {
            let pm = PlayedMove::plain(d);
            let undo = pos.make(pm);
            let mates = self.attacker(pos, k);
            pos.unmake(pm, undo);
            if !mates? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn visit(&mut self) -> Result<(), MateError> {
        self.nodes += 1;
        if self.nodes > self.budget {
            Err(MateError::Budget)
        } else {
            Ok(())
        }
    }
}

fn check(pos: &Position) -> Result<(), MateError> {
    if jieqi_core::Color::ALL
        .iter()
        .any(|&c| pos.hidden_count(c) > 0)
    {
        Err(MateError::Hidden)
    } else {
        Ok(())
    }
}

/// The legal moves, checks first, then captures, then the rest (a mate is found sooner; the
/// order changes no answer).
fn ordered(pos: &Position) -> MoveList {
    let all = pos.legal_moves();
    let mut out = MoveList::new();
    let rank = |m: Move| {
        if pos.gives_check(m, None) {
            0
        } else if pos.occupant(m.to).is_some() {
            1
        } else {
            2
        }
    };
    for class in 0..3 {
        for &m in all.as_slice() {
            if rank(m) == class {
                out.push(m);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::Rules;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, &Rules::xiangqi()).expect("fen")
    }

    #[test]
    fn a_chariot_mates_a_bare_king_on_the_back_rank() {
        // Red: king d0, chariots b8 and a7; Black: king e9. Ra7-a9 is mate.
        let p = pos("4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1");
        let mut prover = MateProver::new(10_000_000);
        assert_eq!(prover.shortest(&p, 3), Ok(Some(1)));
        let moves = prover.mating_moves(&p, 1).unwrap();
        assert!(moves.iter().any(|m| m.to_string() == "a7a9"));
        // Each listed move mates at once: the defender has no legal move after it.
        for m in moves {
            let mut q = p.clone();
            q.make(PlayedMove::plain(m));
            assert!(!q.has_legal_move());
        }
    }

    #[test]
    fn a_position_with_no_mate_says_none_and_hidden_pieces_are_refused() {
        let p = pos("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
        let mut prover = MateProver::new(10_000_000);
        assert_eq!(prover.shortest(&p, 3), Ok(None));
        let start = Position::start(&Rules::standard());
        assert_eq!(prover.shortest(&start, 1), Err(MateError::Hidden));
        let mut tiny = MateProver::new(3);
        let rich = Position::start(&Rules::xiangqi());
        assert_eq!(tiny.shortest(&rich, 2), Err(MateError::Budget));
    }
}
