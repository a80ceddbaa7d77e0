//! The exhaustive mate prover: whether the side to move mates within `n` of its moves against
//! every defence *and in every chance outcome*, the shortest such `n`, and every first move that
//! achieves it. It is the one authority on mate claims: `arena suite` proves its positions with
//! it, `mcts-solver` looks for a shorter mate than its proof with it, and `alphabeta` reports
//! `mate N` only after it has confirmed the claim (see [`crate::alphabeta`]). It is full-width,
//! with no evaluation and no pruning but the proof's own (an escaping defence refutes an
//! attacking move; a mating move proves a node).
//!
//! # Chance nodes
//! A move by a hidden piece reveals it: the prover branches over every identity the piece can
//! have, with the outcomes of [`crate::alphabeta::branches`] under the prover's [`Knowledge`]
//! (a fair player's: the pools; an omniscient one's: the one true identity). An attacking move
//! mates only if *every* outcome mates; a defence escapes if *any* outcome escapes. Where a
//! captured hidden piece may be the king (rules with a hidden king), the capture is a chance node
//! too: the outcome "it was the king" is a win for the capturer. Weights play no part: a proof
//! holds in every outcome, however unlikely. Positions without hidden pieces have one outcome per
//! move, and the prover is then the plain Xiangqi mate search.
//!
//! "Mated" is what the rules say of a side to move without a legal move (checkmate, and in
//! Xiangqi stalemate too) or without its king. The prover looks at no repetition and no
//! no-capture limit. A shortest mate never repeats a position (the mate from the repeated
//! position would be shorter), so repetition cannot lengthen it; a defender could only lose sooner
//! by repetition through a perpetual check of its own, which needs a third occurrence, and suites
//! give positions with a zero no-capture count.
//!
//! Results are kept in a table by position hash (board with hidden markers, side to move and
//! pools, so a reveal's outcome is part of the key): the fewest moves known to mate and the most
//! moves known not to, so iterative deepening (`n` = 1, 2, …) reuses every earlier proof. The
//! table belongs to one [`Knowledge`]; a prover answers questions about positions of one game
//! tree (one view).

use std::time::Instant;

use jieqi_core::{Knowledge, Move, MoveList, PlayedMove, Position};

use crate::alphabeta::branches;

/// Why a proof was not finished.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MateError {
    /// The node budget ran out.
    Budget,
    /// The deadline passed.
    Time,
}

impl core::fmt::Display for MateError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            MateError::Budget => "the mate prover ran out of nodes",
            MateError::Time => "the mate prover ran out of time",
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

/// A move to try first in a position (see [`MateProver::set_hint`]).
pub type Hint<'h> = &'h dyn Fn(&Position) -> Option<Move>;

/// The prover, with its table and node count. One prover answers many questions about positions
/// of one game tree.
pub struct MateProver<'h> {
    table: crate::KeyMap<Known>,
    hint: Option<Hint<'h>>,
    knowledge: Knowledge,
    nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
}

impl<'h> MateProver<'h> {
    /// A fair prover (the hidden pieces are what the pools say they may be) that gives up after
    /// `budget` nodes (positions made) over its lifetime.
    pub fn new(budget: u64) -> MateProver<'h> {
        MateProver::with_knowledge(budget, Knowledge::FAIR)
    }

    /// A prover whose chance outcomes are those `knowledge` allows (an omniscient view's: one
    /// outcome per move).
    pub fn with_knowledge(budget: u64, knowledge: Knowledge) -> MateProver<'h> {
        MateProver {
            table: crate::KeyMap::default(),
            hint: None,
            knowledge,
            nodes: 0,
            budget,
            deadline: None,
        }
    }

    /// Tries `hint`'s move first where the attacker is to move (a search's best move there,
    /// say): proofs come sooner, answers stay the same.
    pub fn set_hint(&mut self, hint: Hint<'h>) {
        self.hint = Some(hint);
    }

    /// Gives up with [`MateError::Time`] once `deadline` has passed (checked every 1024 nodes).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Positions made so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The least `n ≤ max` such that the side to move mates within `n` moves whatever the
    /// defence and the chance outcomes, or `None` when there is none within `max`.
    ///
    /// # Errors
    /// The budget or the time ran out.
    pub fn shortest(&mut self, pos: &Position, max: u32) -> Result<Option<u32>, MateError> {
        let mut pos = pos.clone();
        for n in 1..=max.min(u32::from(u8::MAX)) {
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
        let mut pos = pos.clone();
        let mut out = Vec::new();
        for &m in pos.legal_moves().as_slice() {
            if self.move_mates(&mut pos, m, n)? {
                out.push(m);
            }
        }
        Ok(out)
    }

    /// The least `n ≤ max` such that legal move `m` of the side to move mates within `n` moves
    /// (the move counting as the first) in every outcome, or `None`.
    ///
    /// # Errors
    /// As [`MateProver::shortest`].
    pub fn mate_after(
        &mut self,
        pos: &Position,
        m: Move,
        max: u32,
    ) -> Result<Option<u32>, MateError> {
        let mut pos = pos.clone();
        for n in 1..=max.min(u32::from(u8::MAX)) {
            if self.move_mates(&mut pos, m, n)? {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// The least `n ≤ max` such that the side to move is mated now (`0`) or within `n` moves of
    /// its opponent whatever it plays and in every outcome, or `None`.
    ///
    /// # Errors
    /// As [`MateProver::shortest`].
    pub fn mated_in(&mut self, pos: &Position, max: u32) -> Result<Option<u32>, MateError> {
        let mut pos = pos.clone();
        for n in 0..=max.min(u32::from(u8::MAX)) {
            if self.defender(&mut pos, n)? {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// The verdict on the claim "`mv` mates in `n`" (`n > 0`) or "the side to move is mated in
    /// `−n`" (`n ≤ 0`): see [`check_claim`].
    pub fn verdict(&mut self, pos: &Position, mv: Move, n: i32) -> Verdict {
        let found = if n > 0 {
            self.mate_after(pos, mv, n.unsigned_abs())
        } else {
            self.mated_in(pos, n.unsigned_abs())
        };
        match found {
            Ok(Some(shortest)) => Verdict::Proved { shortest },
            Ok(None) => Verdict::Refuted,
            Err(e) => Verdict::Unknown(e),
        }
    }

    /// The first of `moves` (legal moves of the side to move, in their order) that mates within
    /// the least `n < below` moves in every outcome, with that `n`; `None` if none does.
    ///
    /// # Errors
    /// As [`MateProver::shortest`].
    pub fn first_mate_below(
        &mut self,
        pos: &Position,
        moves: &[Move],
        below: u32,
    ) -> Result<Option<(Move, u32)>, MateError> {
        for n in 1..below {
            for &m in moves {
                if self.mates_within(pos, m, n)? {
                    return Ok(Some((m, n)));
                }
            }
        }
        Ok(None)
    }

    /// Whether legal move `m` of the side to move mates within `n` moves (the move counting as
    /// the first) in every outcome.
    ///
    /// # Errors
    /// As [`MateProver::shortest`].
    pub fn mates_within(&mut self, pos: &Position, m: Move, n: u32) -> Result<bool, MateError> {
        self.move_mates(&mut pos.clone(), m, n.min(u32::from(u8::MAX)))
    }

    /// Whether move `m` of the side to move mates within `n ≥ 1` moves in every outcome.
    fn move_mates(&mut self, pos: &mut Position, m: Move, n: u32) -> Result<bool, MateError> {
        if n == 0 {
            return Ok(false);
        }
        for b in branches(pos, &self.knowledge, m).as_slice() {
            if b.king_win {
                continue;
            }
            let pm = PlayedMove {
                mv: m,
                reveal: b.reveal,
                capture: None,
            };
            self.visit()?;
            let undo = pos.make(pm);
            let mated = self.defender(pos, n - 1);
            pos.unmake(pm, undo);
            if !mated? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether the side to move mates within `n ≥ 1` moves.
    fn attacker(&mut self, pos: &mut Position, n: u32) -> Result<bool, MateError> {
        let key = pos.hash();
        let known = self.table.get(&key).copied().unwrap_or_default();
        if known.mates != 0 && u32::from(known.mates) <= n {
            return Ok(true);
        }
        if u32::from(known.fails) >= n {
            return Ok(false);
        }
        let moves = ordered(pos, self.hint.and_then(|h| h(pos)));
        let mut found = false;
        for &m in moves.as_slice() {
            if self.move_mates(pos, m, n)? {
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
    /// whatever it plays, in every outcome.
    fn defender(&mut self, pos: &mut Position, k: u32) -> Result<bool, MateError> {
        if pos.king_lost(pos.turn()) || !pos.has_legal_move() {
            return Ok(true);
        }
        if k == 0 {
            return Ok(false);
        }
        for &d in pos.legal_moves().as_slice() {
            for b in branches(pos, &self.knowledge, d).as_slice() {
                if b.king_win {
                    return Ok(false);
                }
                let pm = PlayedMove {
                    mv: d,
                    reveal: b.reveal,
                    capture: None,
                };
                self.visit()?;
                let undo = pos.make(pm);
                let mates = self.attacker(pos, k);
                pos.unmake(pm, undo);
                if !mates? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    fn visit(&mut self) -> Result<(), MateError> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(MateError::Budget);
        }
        if self.nodes % 1024 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(MateError::Time);
        }
        Ok(())
    }
}

/// The prover nodes `arena solve` gives the check of one mate claim by default (a few seconds
/// at most).
pub const CLAIM_NODES: u64 = 5_000_000;

/// What the prover says of an engine's `mate n` claim.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The claim holds in every defence and every chance outcome: for `n > 0` the move mates
    /// within `n` moves (`shortest` is the least number that move needs); for `n ≤ 0` the side to
    /// move is mated within `−n` moves whatever it plays (`shortest`: the least such number).
    Proved {
        /// The least number of moves that proves the claim.
        shortest: u32,
    },
    /// The claim is false: a defence or an outcome escapes within the claimed moves.
    Refuted,
    /// The prover gave up.
    Unknown(MateError),
}

impl core::fmt::Display for Verdict {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Verdict::Proved { shortest } => write!(f, "proved (in {shortest})"),
            Verdict::Refuted => f.write_str("refuted"),
            Verdict::Unknown(e) => write!(f, "unknown ({e})"),
        }
    }
}

/// Checks the claim "`mv` mates in `n`" (`n > 0`) or "the side to move is mated in `−n`"
/// (`n ≤ 0`, `mv` its chosen defence) about `pos` as a player who knows `knowledge` sees it,
/// within `budget` prover nodes and before `deadline`. Mate numbers count moves of the winning
/// side, alpha-beta's convention ([`jieqi_engine::Score::Mate`]). Returns the verdict and the
/// nodes the prover made.
pub fn check_claim(
    pos: &Position,
    knowledge: Knowledge,
    mv: Move,
    n: i32,
    budget: u64,
    deadline: Option<Instant>,
) -> (Verdict, u64) {
    let mut prover = MateProver::with_knowledge(budget, knowledge);
    prover.set_deadline(deadline);
    let verdict = prover.verdict(pos, mv, n);
    (verdict, prover.nodes())
}

/// The legal moves, `first` (when legal) first, then checks, then captures, then the rest (a
/// mate is found sooner; the order changes no answer; a hidden mover's check is judged as the
/// hidden piece it still is).
fn ordered(pos: &Position, first: Option<Move>) -> MoveList {
    let all = pos.legal_moves();
    let mut out = MoveList::new();
    let rank = |m: Move| {
        if Some(m) == first {
            0
        } else if pos.gives_check(m, None) {
            1
        } else if pos.occupant(m.to).is_some() {
            2
        } else {
            3
        }
    };
    for class in 0..4 {
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
    fn a_position_with_no_mate_says_none_and_the_budget_is_kept() {
        let p = pos("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
        let mut prover = MateProver::new(10_000_000);
        assert_eq!(prover.shortest(&p, 3), Ok(None));
        let mut tiny = MateProver::new(3);
        let rich = Position::start(&Rules::xiangqi());
        assert_eq!(tiny.shortest(&rich, 2), Err(MateError::Budget));
    }

    fn jieqi(fen: &str) -> Position {
        Position::from_fen(fen, &Rules::standard()).expect("fen")
    }

    #[test]
    fn a_hidden_move_mates_only_if_every_identity_it_may_reveal_mates() {
        // The hidden piece on a0 moves as a chariot to a9. Revealed as a chariot, it mates beside
        // the chariot on b8; revealed as a pawn, it does not check at all.
        let a0a9: Move = "a0a9".parse().unwrap();
        let sure = jieqi("4k4/1R7/9/9/9/9/9/9/9/X2K5 w R1 - 0 1");
        let mut prover = MateProver::new(1_000_000);
        assert_eq!(prover.shortest(&sure, 1), Ok(Some(1)));
        assert!(prover.mating_moves(&sure, 1).unwrap().contains(&a0a9));
        assert_eq!(prover.mate_after(&sure, a0a9, 3), Ok(Some(1)));

        let maybe = jieqi("4k4/1R7/9/9/9/9/9/9/9/X2K5 w R1P1 - 0 1");
        let mut prover = MateProver::new(1_000_000);
        assert!(!prover.mating_moves(&maybe, 1).unwrap().contains(&a0a9));
        assert_eq!(prover.mate_after(&maybe, a0a9, 1), Ok(None));
    }

    #[test]
    fn a_defence_escapes_if_one_of_its_outcomes_escapes() {
        // Black to move; Ra7-a9 mates next whatever the king does (d9 faces the red king, e8 and
        // f8 are covered by b8, rank 9 by the chariot that lands on a9). The hidden piece on i9
        // moves as a chariot: to i0 it checks the red king on d0 if it is a chariot, and then
        // Ra7-a9 is not legal: that outcome escapes. As a pawn it changes nothing.
        let may_check = jieqi("4k3x/1R7/R8/9/9/9/9/9/9/3K5 b r1p1 - 0 1");
        let mut prover = MateProver::new(1_000_000);
        assert_eq!(prover.mated_in(&may_check, 0), Ok(None));
        assert_eq!(prover.mated_in(&may_check, 1), Ok(None));
        let pawn_only = jieqi("4k3x/1R7/R8/9/9/9/9/9/9/3K5 b p1 - 0 1");
        let mut prover = MateProver::new(1_000_000);
        assert_eq!(prover.mated_in(&pawn_only, 1), Ok(Some(1)));
        // Red to move in the same position mates at once, either way.
        let red = jieqi("4k3x/1R7/R8/9/9/9/9/9/9/3K5 w r1p1 - 0 1");
        let a7a9: Move = "a7a9".parse().unwrap();
        assert_eq!(prover.mate_after(&red, a7a9, 2), Ok(Some(1)));
        let a7a8: Move = "a7a8".parse().unwrap();
        let knows = Knowledge::FAIR;
        assert_eq!(
            check_claim(&red, knows, a7a9, 3, 10_000, None).0,
            Verdict::Proved { shortest: 1 }
        );
        assert_eq!(
            check_claim(&red, knows, a7a8, 1, 10_000, None).0,
            Verdict::Refuted
        );
        assert_eq!(
            check_claim(&red, knows, a7a8, 9, 10, None).0,
            Verdict::Unknown(MateError::Budget)
        );
        // Black's claim "mated in 1" holds only when the hidden piece cannot be a chariot.
        let i9i0: Move = "i9i0".parse().unwrap();
        assert_eq!(
            check_claim(&may_check, knows, i9i0, -1, 10_000, None).0,
            Verdict::Refuted
        );
        assert_eq!(
            check_claim(&pawn_only, knows, i9i0, -1, 10_000, None).0,
            Verdict::Proved { shortest: 1 }
        );
    }
}
