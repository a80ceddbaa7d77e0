//! The decision node: negamax with principal-variation search, table cut-offs, reverse futility,
//! null-move, futility and move-count pruning, late-move reductions and the check extension (see
//! "Pruning" in the module doc); and [`Searcher::child`], which makes one outcome of a move and
//! searches the node below it.

use std::ops::ControlFlow;

use super::*;

#[allow(clippy::too_many_arguments)]
impl Searcher<'_> {
    /// Decision node: table cut-offs, then (outside principal-variation nodes and check) reverse
    /// futility and null-move pruning, then the moves in order with principal-variation search
    /// and late-move reductions; a side in check searches one ply deeper.
    pub(super) fn search(&mut self, mut depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if ply > 0 {
            if let Some(v) = self.terminal(ply) {
                return v;
            }
        }
        if ply >= MAX_PLY {
            return self.eval();
        }
        let in_check = self.pos.rules().check && self.in_check();
        if in_check && self.opts.check_extension && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return if self.opts.qsearch {
                self.qsearch(ply, alpha, beta, 0)
            } else {
                self.eval()
            };
        }
        let key = self.pos.hash();
        let mut tt_move = match self.table_probe(key, depth, ply, alpha, beta) {
            ControlFlow::Break(s) => return s,
            ControlFlow::Continue(m) => m,
        };
        if ply == 0 && tt_move.is_none() {
            tt_move = self.root_best;
        }
        let pv_node = beta - alpha > 1;
        // The static evaluation where pruning may use it.
        let mut static_eval = None;
        if ply > 0 && !pv_node && !in_check && beta.abs() < MATE_BOUND {
            match self.prune_node(depth, ply, beta) {
                ControlFlow::Break(v) => return v,
                ControlFlow::Continue(stand) => static_eval = Some(stand),
            }
        }
        let moves = if ply == 0 {
            // The root: only the moves the front end allows (`go searchmoves`).
            self.control
                .root_moves(self.pos.legal_moves_in_check(in_check))
        } else {
            self.pos.legal_moves_in_check(in_check)
        };
        if moves.is_empty() {
            return -(MATE - ply as i32);
        }
        let mut scores = [0i32; jieqi_core::MAX_MOVES];
        self.score_moves(&moves, tt_move, ply, &mut scores);
        let n = moves.len();
        let mut picker = Picker::new(n);
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for k in 0..n {
            // Selection sort step: the best remaining move comes to position k.
            let i = self.next_move(&mut picker, k, &mut scores, &moves);
            let m = moves[i];
            let quiet = scores[i] < SCORE_KILLER && !self.is_capture(m);
            // Near the leaves, late quiet moves are not searched at all (move-count pruning), nor
            // quiet moves that cannot lift a low static evaluation to alpha (futility pruning).
            if let Some(stand) = static_eval {
                let o = self.opts;
                if o.futility
                    && quiet
                    && k > 0
                    && best > -MATE_BOUND
                    && ((depth <= o.lmp_depth && k as i32 >= o.lmp_base + depth * depth)
                        || (depth <= o.fp_depth
                            && stand + o.fp_margin * depth + o.fp_base <= alpha))
                    && self.may_cut(m)
                {
                    continue;
                }
            }
            let v = if k == 0 {
                self.move_value(m, depth - 1, ply, alpha, beta, false, 0)
            } else {
                self.late_move_value(m, k, depth, ply, alpha, beta, quiet, in_check, pv_node)
            };
            if self.stopped {
                return 0;
            }
            if ply == 0 && (k == 0 || v > alpha) {
                // The root's answer: its first move, or one proven better than the ones before.
                self.root_best = Some(m);
                self.root_score = v;
            }
            if v > best {
                best = v;
                best_move = Some(m);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        if !self.is_capture(m) {
                            self.note_quiet_cutoff(m, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        if let Some(tt) = self.tt {
            let bound = if best >= beta {
                BOUND_LOWER
            } else if best > orig_alpha {
                BOUND_EXACT
            } else {
                BOUND_UPPER
            };
            tt.store(key, depth, bound, to_tt(best, ply), best_move);
        }
        best
    }

    /// The table's word on this node: its move (`Continue`), or the stored score when it cuts
    /// the node off (`Break`, below the root only).
    #[inline]
    fn table_probe(
        &mut self,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> ControlFlow<i32, Option<Move>> {
        let mut tt_move = None;
        if let Some(tt) = self.tt {
            if let Some(e) = tt.probe(key) {
                tt_move = decode(e.mv);
                if ply > 0 && self.tt_depth_ok(e.depth as i32, depth) {
                    // A cut-off may stand for a subtree that met its horizon.
                    self.horizon = true;
                    let s = from_tt(e.score, ply);
                    match e.bound {
                        BOUND_EXACT => return ControlFlow::Break(s),
                        BOUND_LOWER if s >= beta => return ControlFlow::Break(s),
                        BOUND_UPPER if s <= alpha => return ControlFlow::Break(s),
                        _ => {}
                    }
                }
            }
        }
        ControlFlow::Continue(tt_move)
    }

    /// Node pruning before the moves (outside principal-variation nodes and check): the value
    /// the node takes without its moves (`Break`: reverse futility, null move, or 0 once
    /// stopped), else the static evaluation (`Continue`) for the moves' futility pruning.
    #[inline]
    fn prune_node(&mut self, depth: i32, ply: usize, beta: i32) -> ControlFlow<i32, i32> {
        let stand = self.eval();
        // Reverse futility: far enough above beta near the leaves, the side to move keeps it.
        let o = self.opts;
        if o.futility && depth <= o.rfp_depth && stand - o.rfp_margin * depth >= beta {
            return ControlFlow::Break(stand);
        }
        // Null move: if passing still fails high at reduced depth, a move will too.
        if o.null_move
            && depth >= o.null_depth
            && stand >= beta
            && !self.after_null
            && self.pos.occupied(self.pos.turn()).count_ones() > o.null_pieces
        {
            let r = o.null_base + depth / o.null_div;
            if let Some(v) = self.null_child(depth - 1 - r, ply, beta) {
                if v >= beta {
                    return ControlFlow::Break(if v > MATE_BOUND { beta } else { v });
                }
            }
            if self.stopped {
                return ControlFlow::Break(0);
            }
        }
        ControlFlow::Continue(stand)
    }

    /// Selection sort step: brings the best remaining move to position `k` and returns its index
    /// in `moves`. A capture is tested for losing its capturer only when it comes up; one that
    /// does goes behind the quiet moves, and the step is taken again.
    #[inline]
    fn next_move(
        &self,
        picker: &mut Picker,
        k: usize,
        scores: &mut [i32; jieqi_core::MAX_MOVES],
        moves: &MoveList,
    ) -> usize {
        loop {
            let i = picker.pick(k, scores);
            if self.opts.see_order
                && (SCORE_CAPTURE..SCORE_TT).contains(&scores[i])
                && self.loses_capturer(moves[i])
            {
                scores[i] += SCORE_BAD_CAPTURE - SCORE_CAPTURE;
                picker.rescored();
                continue;
            }
            break i;
        }
    }

    /// The value of the `k`-th move (k ≥ 1) of a node: a null window at alpha, reduced for a late
    /// quiet move and sampled for a hidden-piece move at an exact chance ply, searched again in
    /// full as each of those fails high, and with the full window once inside it.
    #[inline]
    fn late_move_value(
        &mut self,
        m: Move,
        k: usize,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiet: bool,
        in_check: bool,
        pv_node: bool,
    ) -> i32 {
        // Late quiet moves are searched shallower first; a fail high is searched again.
        let o = self.opts;
        let r = if o.lmr
            && quiet
            && !in_check
            && depth >= o.lmr_depth
            && k >= o.lmr_move
            && self.may_cut(m)
        {
            lmr_reduction(depth, k, pv_node, o)
        } else {
            0
        };
        let mut v = self.move_value(m, depth - 1 - r, ply, alpha, alpha + 1, false, 0);
        if !self.stopped && r > 0 && v > alpha {
            v = self.move_value(m, depth - 1, ply, alpha, alpha + 1, false, 0);
        }
        if !self.stopped && v > alpha && v < beta {
            v = self.move_value(m, depth - 1, ply, alpha, beta, false, 0);
        }
        v
    }

    /// Remembers quiet move `m`, which failed high at `ply`, as a killer, in the history table
    /// (by `depth`²) and as the counter to the move before it.
    #[inline]
    fn note_quiet_cutoff(&mut self, m: Move, ply: usize, depth: i32) {
        let e = encode(m);
        let ks = &mut self.killers[ply];
        if ks[0] != e {
            ks[1] = ks[0];
            ks[0] = e;
        }
        let h = &mut self.history[move_slot(self.pos.turn(), e)];
        *h = (*h + depth * depth * self.opts.history_pct / 100).min(SCORE_KILLER - 1);
        if let Some(i) = self.counter_index(ply) {
            self.counters[i] = e;
        }
    }

    /// Whether quiet move `m` may be pruned or reduced: not if it gives check. Asked last, only
    /// of a move that would otherwise be.
    #[inline]
    fn may_cut(&self, m: Move) -> bool {
        !self.pos.gives_check(m, None)
    }

    /// Passes the turn and searches the opponent's reply with a null window at `beta` (our
    /// side's view) to `depth`; `None` when stopped.
    fn null_child(&mut self, depth: i32, ply: usize, beta: i32) -> Option<i32> {
        self.pos.make_null();
        self.ply_moves[ply] = 0;
        self.tick();
        let floor = self.rep_floor;
        // No repetition reaches back across a pass.
        self.known_check = None;
        self.path.push(PathEntry {
            hash: self.pos.hash(),
            in_check: false,
        });
        self.rep_floor = self.path.len() - 1;
        self.after_null = true;
        let v = if self.stopped {
            None
        } else {
            Some(-self.search(depth, ply + 1, -beta, -beta + 1))
        };
        self.after_null = false;
        self.rep_floor = floor;
        self.path.pop();
        self.pos.unmake_null();
        v.filter(|_| !self.stopped)
    }

    /// Makes one outcome, searches the child, takes it back. Value from the mover's side.
    pub(super) fn child(
        &mut self,
        pm: PlayedMove,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiesce: bool,
        qply: u32,
    ) -> i32 {
        let irreversible = pm.reveal.is_some() || self.is_capture(pm.mv);
        let saved = self.inc;
        self.evaluator.update(&mut self.inc, &self.pos, pm);
        let undo = self.pos.make(pm);
        self.ply_moves[ply] = encode(pm.mv);
        self.tick();
        let floor = self.rep_floor;
        self.push_path(irreversible);
        let after_null = std::mem::replace(&mut self.after_null, false);
        let v = if self.stopped {
            0
        } else if quiesce {
            -self.qsearch(ply + 1, -beta, -alpha, qply + 1)
        } else {
            -self.search(depth, ply + 1, -beta, -alpha)
        };
        self.after_null = after_null;
        self.rep_floor = floor;
        self.path.pop();
        self.pos.unmake(pm, undo);
        self.inc = saved;
        v
    }
}

/// Late-move reduction for the `k`-th move (from 0) at `depth`: `ln(depth)·ln(k) / (lmr_div /
/// 100) + lmr_add` (by default about ln(depth)·ln(k)/2 + 1), one ply less at principal-variation
/// nodes, leaving at least one ply.
#[inline]
fn lmr_reduction(depth: i32, k: usize, pv_node: bool, o: &Options) -> i32 {
    // lmr_div / 100 in f32 is exact for the default 200, so the default reduction is the one
    // the search was tuned with, bit for bit.
    let div = o.lmr_div as f32 / 100.0;
    let r = ((depth as f32).ln() * (k as f32).ln() / div) as i32 + o.lmr_add - i32::from(pv_node);
    r.clamp(0, depth - 2)
}
