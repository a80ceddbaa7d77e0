//! Move ordering: the table's move first, then captures by MVV-LVA (hidden pieces valued at the
//! mean of the player's belief about them), the two killers of the ply, then the quiet moves by
//! their history score. The killers and the history are per searcher (per thread), updated at
//! beta cut-offs in [`super::negamax`] and aged at every iteration in [`super::iterate`].

use super::*;

/// Ordering score of the table's move.
pub(super) const SCORE_TT: i32 = 1 << 30;
/// Base ordering score of a capture (plus its MVV-LVA term).
pub(super) const SCORE_CAPTURE: i32 = 1 << 24;
/// Ordering score of the second killer (the first: one more); history scores stay below it.
pub(super) const SCORE_KILLER: i32 = 1 << 22;

impl Searcher<'_> {
    #[inline]
    fn value_of(&self, role: Role) -> i32 {
        self.opts.eval.identity(role)
    }

    /// Value of what stands on `sq`: a hidden piece at the mean of the player's belief about it
    /// (its owner's pool, or its known identity).
    #[inline]
    fn occupant_value(&self, sq: Square) -> i32 {
        match self.pos.occupant(sq) {
            None => 0,
            Some(jieqi_core::Occupant::Hidden(_)) => self
                .knowledge
                .belief(&self.pos, sq)
                .map_or(0, |b| self.opts.eval.hidden(&b.weights())),
            Some(jieqi_core::Occupant::Revealed(p)) => self.value_of(p.role),
        }
    }

    /// [`Searcher::occupant_value`] with the pool means cached in `hv` (one slot per colour).
    #[inline]
    pub(super) fn value_at(&self, sq: Square, hv: &mut [Option<i32>; 2]) -> i32 {
        match self.pos.occupant(sq) {
            None => 0,
            Some(jieqi_core::Occupant::Hidden(c)) => match self.knowledge.belief(&self.pos, sq) {
                Some(Belief::Known(r)) => self.value_of(r),
                _ => *hv[c.index()].get_or_insert_with(|| self.opts.eval.hidden(self.pos.pool(c))),
            },
            Some(jieqi_core::Occupant::Revealed(p)) => self.value_of(p.role),
        }
    }

    /// Ordering scores for `moves`.
    pub(super) fn score_moves(
        &self,
        moves: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
        out: &mut [i32],
    ) {
        let turn = self.pos.turn().index();
        let killers = self.killers[ply.min(MAX_PLY)];
        for (i, &m) in moves.iter().enumerate() {
            out[i] = if Some(m) == tt_move {
                SCORE_TT
            } else if self.is_capture(m) {
                SCORE_CAPTURE + self.occupant_value(m.to) * 16 - self.occupant_value(m.from) / 8
            } else {
                let e = encode(m);
                if e == killers[0] {
                    SCORE_KILLER + 1
                } else if e == killers[1] {
                    SCORE_KILLER
                } else {
                    self.history[turn * 8100 + m.from.index() * 90 + m.to.index()]
                }
            };
        }
    }
}
