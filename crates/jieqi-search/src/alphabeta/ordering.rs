//! Move ordering: the table's move first, then captures by MVV-LVA (hidden pieces valued at the
//! mean of the player's belief about them), the two killers of the ply, the counter-move, then
//! the quiet moves by their history score, and last the losing captures ([`Options::see_order`]).
//! The killers, the counter-moves and the history are per searcher (per thread), updated at beta
//! cut-offs in [`super::negamax`]; the history is aged at every iteration in [`super::iterate`].

use super::*;

/// Ordering score of the table's move.
pub(super) const SCORE_TT: i32 = 1 << 30;
/// Base ordering score of a capture (plus its MVV-LVA term).
pub(super) const SCORE_CAPTURE: i32 = 1 << 24;
/// Ordering score of the second killer (the first: one more); history scores stay below it.
pub(super) const SCORE_KILLER: i32 = 1 << 22;
/// Base ordering score of a capture that loses its capturer for less ([`Options::see_order`]):
/// below every quiet move.
pub(super) const SCORE_BAD_CAPTURE: i32 = -(1 << 24);

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

    /// The slot of [`Searcher::counters`] for the node at `ply`: the side to move and the
    /// opponent's previous move (`None` at the root, after a null move, or when
    /// [`Options::counter`] is off).
    #[inline]
    pub(super) fn counter_index(&self, ply: usize) -> Option<usize> {
        if !self.opts.counter || ply == 0 {
            return None;
        }
        let prev = self.ply_moves[ply - 1];
        (prev != 0).then(|| move_slot(self.pos.turn(), prev))
    }

    /// Whether capture `m` loses its capturer for less: the capturer is worth more than its
    /// victim by over [`SEE_MARGIN`] and the other side can take back on the square at once
    /// ([`Position::is_recapturable`]). Never for a capture of the king, nor for one that gives
    /// check ([`Position::gives_check`]: a checking sacrifice is how many mates begin).
    pub(super) fn loses_capturer(&self, m: Move) -> bool {
        let mut hv = [None; 2];
        self.loses_capturer_with(
            m,
            self.value_at(m.to, &mut hv),
            self.value_at(m.from, &mut hv),
        )
    }

    /// [`Searcher::loses_capturer`] with the victim's and the capturer's values given.
    #[inline]
    pub(super) fn loses_capturer_with(&self, m: Move, victim: i32, attacker: i32) -> bool {
        attacker > victim + SEE_MARGIN
            && !matches!(
                self.pos.occupant(m.to),
                Some(jieqi_core::Occupant::Revealed(p)) if p.role == Role::King
            )
            && self.pos.is_recapturable(m)
            && !self.pos.gives_check(m, None)
    }

    /// Ordering scores for `moves`.
    pub(super) fn score_moves(
        &self,
        moves: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
        out: &mut [i32],
    ) {
        let turn = self.pos.turn();
        let killers = self.killers[ply.min(MAX_PLY)];
        let counter = self.counter_index(ply).map_or(0, |i| self.counters[i]);
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
                } else if e == counter {
                    SCORE_KILLER - 1
                } else {
                    self.history[move_slot(turn, e)]
                }
            };
        }
    }
}

/// The slot of a move (as [`encode`]d, not 0) of side `turn` in the history and counter-move
/// tables, which are laid out alike: `turn · 8100 + from · 90 + to`.
#[inline]
pub(super) fn move_slot(turn: Color, encoded: u16) -> usize {
    turn.index() * 8100 + usize::from(encoded) - 1
}
