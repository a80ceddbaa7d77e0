//! The root: iterative deepening with aspiration windows, time management under a clock
//! ([`time_scale`]), the principal variation read from the table, and the single-threaded
//! fixed-depth entry points for tests and analysis ([`search_value`]).

use super::*;

impl Searcher<'_> {
    /// The root searched to `depth`: first in a window around the previous iteration's score
    /// (from [`Options::asp_depth`], [`Options::aspiration`]), widened on each side that fails.
    fn aspirate(&mut self, depth: i32) -> i32 {
        let prev = self.root_score;
        if !self.opts.aspiration || depth < self.opts.asp_depth || prev.abs() >= MATE_BOUND {
            return self.search(depth, 0, -INF, INF);
        }
        let (window, growth) = (self.opts.asp_window, self.opts.asp_growth);
        let (mut delta_lo, mut delta_hi) = (window, window);
        loop {
            let alpha = if delta_lo >= 4 * EVAL_LIMIT {
                -INF
            } else {
                prev - delta_lo
            };
            let beta = if delta_hi >= 4 * EVAL_LIMIT {
                INF
            } else {
                prev + delta_hi
            };
            let v = self.search(depth, 0, alpha, beta);
            if self.stopped {
                return v;
            }
            if v <= alpha && alpha > -INF {
                delta_lo = delta_lo.saturating_mul(growth);
            } else if v >= beta && beta < INF {
                delta_hi = delta_hi.saturating_mul(growth);
            } else {
                return v;
            }
        }
    }

    /// Iterative deepening to `max_depth`; returns the last completed depth. An iteration that
    /// met no horizon searched every line to the game's end: the iterations stop there and
    /// [`Searcher::exhausted`] is set (without this, a decided position — every move ending the
    /// game, say by the no-capture rule — ran all 120 iterations in a millisecond and reported
    /// depth 120).
    pub(super) fn iterate(&mut self, max_depth: u32) -> u32 {
        let mut completed = 0;
        // Root best-move changes (halved each iteration) and the previous iteration's score.
        let mut changes = 0.0f32;
        let mut last: Option<(Move, i32)> = None;
        for d in 1..=max_depth.max(1) {
            for h in self.history.iter_mut() {
                *h /= 4;
            }
            self.horizon = false;
            let v = self.aspirate((d + self.depth_offset) as i32);
            if self.stopped {
                break;
            }
            completed = d;
            self.exhausted = !self.horizon;
            self.root_score = v;
            changes /= 2.0;
            let mut drop = 0;
            if let (Some((m, prev)), Some(best)) = (last, self.root_best) {
                changes += f32::from(u8::from(m != best));
                drop = prev - v;
            }
            last = self.root_best.map(|m| (m, v));
            // The next iteration takes about as long as all before it: start it only while less
            // than half the (scaled) soft budget has passed.
            let out_of_time = self.soft.is_some_and(|(start, soft)| {
                start.elapsed().as_secs_f32()
                    >= soft.as_secs_f32() * time_scale(changes, drop) / 2.0
            });
            if let Some(mv) = self.root_best {
                // A root mate the prover has proved (see `claim`) decides the move.
                let (mv, proved) = self.settle(mv, v);
                self.root_best = Some(mv);
                self.publish(d + self.depth_offset, mv, v);
                if proved {
                    break;
                }
            }
            if out_of_time || self.exhausted {
                break;
            }
        }
        completed
    }

    /// The principal variation from the table, cut after the first hidden-piece move.
    pub(super) fn pv(&mut self, first: Move, max_len: usize) -> Vec<Move> {
        let mut pv = vec![first];
        if self.pos.is_hidden(first.from) {
            return pv;
        }
        let mut pos = self.pos.clone();
        pos.make(PlayedMove::plain(first));
        let mut seen = vec![pos.hash()];
        while pv.len() < max_len {
            let Some(tt) = self.tt else { break };
            let Some(m) = tt.probe(pos.hash()).and_then(|e| decode(e.mv)) else {
                break;
            };
            if !pos.legal_moves().contains(&m) {
                break;
            }
            pv.push(m);
            if pos.is_hidden(m.from) {
                break;
            }
            pos.make(PlayedMove::plain(m));
            if seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
        }
        pv
    }
}

/// How much of a clock's soft budget to use, as a factor: 0.6 when the root's best move has not
/// changed lately, up to 1.6 for recent changes (`changes`: the changes of the past iterations,
/// each halved at every iteration since), times up to 1.5 when the score dropped from the
/// previous iteration (`drop` centipawns; 1.5 from a drop of 100). At most 2.
pub fn time_scale(changes: f32, drop: i32) -> f32 {
    let stability = 0.6 + 0.5 * changes.min(2.0);
    let falling = 1.0 + (drop.clamp(0, 100) as f32) / 200.0;
    (stability * falling).min(2.0)
}

/// Value of `pos` (side to move's view) searched to exactly `depth` plies with `opts`: iterative
/// deepening with a fresh table when `opts.tt`, else one fixed-depth search. No game history, so
/// repetitions count only along the search path. For tests and analysis.
pub fn search_value(pos: &Position, depth: u32, opts: &Options) -> i32 {
    search_value_nodes(pos, depth, opts).0
}

/// [`search_value`] with the number of nodes (make calls) it took.
pub fn search_value_nodes(pos: &Position, depth: u32, opts: &Options) -> (i32, u64) {
    let table = opts.tt.then(|| Tt::new(opts.hash_mb));
    let mut s = Searcher::new(pos.clone(), opts, table.as_ref(), Vec::new());
    let v = if opts.tt {
        s.iterate(depth);
        s.root_score
    } else {
        s.search(depth as i32, 0, -INF, INF)
    };
    (v, s.nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_scale_follows_stability_and_falling_scores() {
        assert!((time_scale(0.0, 0) - 0.6).abs() < 1e-6);
        assert!(time_scale(1.0, 0) > time_scale(0.5, 0));
        assert!(time_scale(0.0, 50) > time_scale(0.0, 0));
        assert_eq!(
            time_scale(0.0, -300),
            time_scale(0.0, 0),
            "a rising score is no reason"
        );
        assert!((time_scale(10.0, 1000) - 2.0).abs() < 1e-6, "capped");
    }
}
