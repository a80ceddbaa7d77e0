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
    /// victim by over [`Options::see_margin`] and the other side can take back on the square at once
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
        attacker > victim + self.opts.see_margin
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

/// The order in which a decision node tries its moves: a selection sort by ordering score, one
/// step per move tried, so a cut-off leaves the rest unsorted. Each step brings the best
/// remaining move to the front, the first of equals in the current arrangement (steps swap).
///
/// A step does not always rescan: a scan counts the moves that share its maximum, and the next
/// steps walk on to them (every move the scan passed before its pick scored lower, and the move
/// the swap sent back did too), which picks exactly what a rescan would. Long runs of equal
/// scores (quiet moves without history) thus cost one scan, not one each.
pub(super) struct Picker {
    order: [u8; jieqi_core::MAX_MOVES],
    n: usize,
    /// From the last scan: its maximum, how many unpicked moves still hold it, and the position
    /// from which the next of them is sought. `None`: the next step scans.
    run: Option<(i32, usize, usize)>,
}

impl Picker {
    /// A picker over moves `0..n` of a list.
    #[inline]
    pub(super) fn new(n: usize) -> Picker {
        let mut order = [0u8; jieqi_core::MAX_MOVES];
        for (i, o) in order.iter_mut().enumerate().take(n) {
            *o = i as u8;
        }
        Picker {
            order,
            n,
            run: None,
        }
    }

    /// Step `k` (steps are taken in order from 0; a step may be taken again after
    /// [`Picker::rescored`]): the index in the move list of the best-scored move not yet picked.
    #[inline]
    pub(super) fn pick(&mut self, k: usize, scores: &[i32]) -> usize {
        let bi = match self.run {
            Some((best, left, from)) if left > 0 => {
                let mut j = from;
                while scores[self.order[j] as usize] != best {
                    j += 1;
                }
                self.run = Some((best, left - 1, j + 1));
                j
            }
            _ => {
                let (mut bi, mut best, mut count) = (k, scores[self.order[k] as usize], 1);
                for j in k + 1..self.n {
                    let s = scores[self.order[j] as usize];
                    if s > best {
                        (bi, best, count) = (j, s, 1);
                    } else if s == best {
                        count += 1;
                    }
                }
                self.run = Some((best, count - 1, bi + 1));
                bi
            }
        };
        self.order.swap(k, bi);
        self.order[k] as usize
    }

    /// The score of the move just picked was changed: the next step scans again.
    #[inline]
    pub(super) fn rescored(&mut self) {
        self.run = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// The plain selection sort with swaps that [`Picker`] must reproduce, step for step.
    fn naive_pick(order: &mut [u8], k: usize, scores: &[i32]) -> usize {
        let mut bi = k;
        for j in k + 1..order.len() {
            if scores[order[j] as usize] > scores[order[bi] as usize] {
                bi = j;
            }
        }
        order.swap(k, bi);
        order[k] as usize
    }

    #[test]
    fn the_picker_picks_what_a_selection_sort_with_swaps_picks() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..3000 {
            let n = 1 + (rng.next_u32() % 90) as usize;
            // Few distinct values (long runs of ties) in some cases, many in others.
            let spread = [2, 5, 1000][case % 3];
            let mut scores: Vec<i32> = (0..n).map(|_| (rng.next_u32() % spread) as i32).collect();
            let mut naive_scores = scores.clone();
            let mut order: Vec<u8> = (0..n as u8).collect();
            let mut picker = Picker::new(n);
            let mut k = 0;
            while k < n {
                let i = picker.pick(k, &scores);
                assert_eq!(
                    i,
                    naive_pick(&mut order, k, &naive_scores),
                    "case {case}, step {k}"
                );
                // Now and then the pick is scored down and the step taken again, as a losing
                // capture is.
                if rng.next_u32() % 7 == 0 && scores[i] > 0 {
                    scores[i] -= 1 + (rng.next_u32() % spread) as i32;
                    naive_scores[i] = scores[i];
                    picker.rescored();
                    continue;
                }
                k += 1;
            }
        }
    }
}
