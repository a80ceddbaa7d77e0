//! Quiescence search: stand pat, captures only (hidden capturers as chance nodes in the first
//! plies), evasions when in check near the horizon, delta pruning (see "Quiescence" in the module
//! doc).

use super::*;

impl Searcher<'_> {
    /// Quiescence: stand pat, then captures (hidden capturers as chance nodes in the first
    /// [`QS_HIDDEN_PLIES`] plies); in check, all evasions.
    pub(super) fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32, qply: u32) -> i32 {
        self.horizon = true;
        if self.pos.king_lost(self.pos.turn()) {
            return -(MATE - ply as i32);
        }
        if ply >= MAX_PLY {
            return self.eval();
        }
        let in_check = qply < QS_CHECK_PLIES && self.in_check();
        let mut best;
        if in_check {
            best = -INF;
        } else {
            best = self.eval();
            if best >= beta {
                return best;
            }
            if best > alpha {
                alpha = best;
            }
        }
        let mut scores = [0i32; jieqi_core::MAX_MOVES];
        let mut pruned = -INF;
        // Pool means of hidden pieces, computed at most once per node.
        let mut hv = [None; 2];
        let mut moves;
        let n;
        if in_check {
            moves = self.pos.legal_moves_in_check(true);
            if moves.is_empty() {
                return -(MATE - ply as i32);
            }
            n = moves.len();
            for (i, &m) in moves.iter().enumerate() {
                scores[i] = if self.is_capture(m) {
                    SCORE_CAPTURE + self.value_at(m.to, &mut hv) * 16
                        - self.value_at(m.from, &mut hv) / 8
                } else {
                    0
                };
            }
        } else {
            // Captures only: pseudo-legal generation, legality tested per capture. The kept
            // captures are compacted to the front of the list, in generation order.
            let stand = best;
            moves = MoveList::new();
            self.pos.pseudo_legal_captures(&mut moves);
            // Known not in check when the check test above ran; else asked at most once.
            let mut check = (qply < QS_CHECK_PLIES).then_some(false);
            let mut k = 0;
            for i in 0..moves.len() {
                let m = moves[i];
                if qply >= QS_HIDDEN_PLIES && self.pos.is_hidden(m.from) {
                    continue;
                }
                let victim = self.value_at(m.to, &mut hv);
                let king = matches!(
                    self.pos.occupant(m.to),
                    Some(jieqi_core::Occupant::Revealed(p)) if p.role == Role::King
                );
                // Delta pruning (a king capture always counts). The optimistic value keeps the
                // fail-soft bound an upper bound.
                let margin = self.opts.qs_delta;
                if self.opts.delta && stand + victim + margin <= alpha && !king {
                    pruned = pruned.max(stand + victim + margin);
                    continue;
                }
                let pos = &self.pos;
                if !pos
                    .is_pseudo_legal_move_legal(m, || *check.get_or_insert_with(|| pos.in_check()))
                {
                    continue;
                }
                scores[k] = victim * 16 - self.value_at(m.from, &mut hv) / 8;
                moves.as_mut_slice()[k] = m;
                k += 1;
            }
            n = k;
        }
        for k in 0..n {
            let m = crate::pick_best(&mut moves, &mut scores, k, n);
            // A capture that loses its capturer for less is skipped (tested only when it comes
            // up, so a cut-off spares the test).
            if self.opts.see
                && !in_check
                && self.loses_capturer_with(
                    m,
                    self.value_at(m.to, &mut hv),
                    self.value_at(m.from, &mut hv),
                )
            {
                continue;
            }
            let v = self.move_value(m, 0, ply, alpha, beta, true, qply);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best.max(pruned)
    }
}
