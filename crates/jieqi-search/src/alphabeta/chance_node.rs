//! Chance nodes in the search: the value of a move with several outcomes ([`Searcher::move_value`]),
//! exact (Star1 with Ballard bounds, Star2 probing: [`Searcher::chance`], [`Searcher::probe`])
//! within the exact horizon and sampled and priced below it ([`Searcher::sampled`]). See "The exact
//! horizon" and "Star1 / Star2" in the module doc; the outcomes and the window arithmetic are in
//! [`super::chance`].

use super::*;

#[allow(clippy::too_many_arguments)]
impl Searcher<'_> {
    /// The value of move `m` (a chance node if it has several outcomes), from the mover's side.
    pub(super) fn move_value(
        &mut self,
        m: Move,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiesce: bool,
        qply: u32,
    ) -> i32 {
        let br = branches(&self.pos, &self.knowledge, m);
        if br.is_single() {
            let pm = PlayedMove {
                mv: m,
                reveal: br.items[0].reveal,
                capture: None,
            };
            return self.child(pm, depth, ply, alpha, beta, quiesce, qply);
        }
        if ply as u32 >= self.opts.chance_plies && !br.as_slice().iter().any(|b| b.king_win) {
            return self.sampled(m, &br, depth, ply, alpha, beta, quiesce, qply);
        }
        self.chance(m, &br, depth, ply, alpha, beta, quiesce, qply)
    }

    /// A hidden-piece move below the exact horizon ([`Options::chance_plies`]): one outcome,
    /// drawn with the outcomes' probabilities from the position, the move and the search seed
    /// (so the same node always draws the same identity), its value shifted by
    /// [`reveal_price`] and passed through [`through_sample`]: a mate found below one drawn
    /// identity is no proof, and is scored below every mate and above every evaluation.
    fn sampled(
        &mut self,
        m: Move,
        br: &Branches,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiesce: bool,
        qply: u32,
    ) -> i32 {
        let items = br.as_slice();
        let key = splitmix(self.pos.hash() ^ self.seed ^ (u64::from(encode(m)) << 40));
        let mut x = ((key >> 32) * u64::from(br.total)) >> 32;
        let mut i = 0;
        while x >= u64::from(items[i].weight) {
            x -= u64::from(items[i].weight);
            i += 1;
        }
        let price = reveal_price(&self.pos, &self.opts.eval, br, i);
        let pm = PlayedMove {
            mv: m,
            reveal: items[i].reveal,
            capture: None,
        };
        // The outcome's value u is taken as through_sample(u + price): the window is its exact
        // preimage.
        let (a, b) = sample_window(alpha, beta);
        let a = (a - price).clamp(-INF, INF);
        let b = (b - price).clamp(-INF, INF);
        let v = self.child(pm, depth, ply, a, b, quiesce, qply);
        through_sample(v + price)
    }

    /// Chance node: Star1 (and Star2 probing) over the outcomes of `m`.
    fn chance(
        &mut self,
        m: Move,
        br: &Branches,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiesce: bool,
        qply: u32,
    ) -> i32 {
        let n = br.len;
        let w_total = br.total as i64;
        let mut lo = [-MATE; 8];
        let mut hi = [MATE; 8];
        let win = MATE - (ply as i32 + 1);
        for i in 0..n {
            if br.items[i].king_win {
                lo[i] = win;
                hi[i] = win;
            }
        }
        let w = |i: usize| br.items[i].weight as i64;
        let pm = |i: usize| PlayedMove {
            mv: m,
            reveal: br.items[i].reveal,
            capture: None,
        };
        if !self.opts.star1 {
            let mut s = 0i64;
            for i in 0..n {
                let v = if br.items[i].king_win {
                    win
                } else {
                    self.child(pm(i), depth, ply, -INF, INF, quiesce, qply)
                };
                if self.stopped {
                    return 0;
                }
                s += w(i) * v as i64;
            }
            return round_div(s, w_total);
        }
        let mut s_lo: i64 = (0..n).map(|i| w(i) * lo[i] as i64).sum();
        let mut s_hi: i64 = (0..n).map(|i| w(i) * hi[i] as i64).sum();
        let aw = alpha as i64 * w_total;
        let bw = beta as i64 * w_total;
        if self.opts.star2 && !quiesce && depth > 0 {
            for i in 0..n {
                if br.items[i].king_win {
                    continue;
                }
                let (a, _) = star1_window(aw, bw, s_lo, s_hi, lo[i], hi[i], w(i));
                if let Some(p) = self.probe(pm(i), depth, ply, -a.min(MATE)) {
                    if self.stopped {
                        return 0;
                    }
                    // p is a lower bound of the child's value: ours is at most -p.
                    let new_hi = (-p).max(lo[i]);
                    if new_hi < hi[i] {
                        s_hi -= w(i) * (hi[i] - new_hi) as i64;
                        hi[i] = new_hi;
                    }
                    if s_hi <= aw {
                        return round_div(s_hi, w_total);
                    }
                }
                if self.stopped {
                    return 0;
                }
            }
        }
        for i in 0..n {
            if lo[i] == hi[i] {
                continue;
            }
            let (a, b) = star1_window(aw, bw, s_lo, s_hi, lo[i], hi[i], w(i));
            let x = self.child(pm(i), depth, ply, a, b, quiesce, qply);
            if self.stopped {
                return 0;
            }
            let (old_lo, old_hi) = (lo[i], hi[i]);
            if x <= a {
                hi[i] = x.max(lo[i]);
            } else if x >= b {
                lo[i] = x.min(hi[i]);
            } else {
                lo[i] = x.clamp(old_lo, old_hi);
                hi[i] = lo[i];
            }
            s_lo += w(i) * (lo[i] - old_lo) as i64;
            s_hi += w(i) * (hi[i] - old_hi) as i64;
            if s_hi <= aw {
                return round_div(s_hi, w_total);
            }
            if s_lo >= bw {
                return round_div(s_lo, w_total);
            }
        }
        if s_lo == s_hi {
            round_div(s_lo, w_total)
        } else {
            round_div(s_lo + s_hi, 2 * w_total)
        }
    }

    /// Star2 probe of one chance outcome: plays it and searches only the child's first move,
    /// with a null window at `beta_c` (the child's side). Returns a lower bound of the child's
    /// value, when the probe yields one.
    fn probe(&mut self, pm: PlayedMove, depth: i32, ply: usize, beta_c: i32) -> Option<i32> {
        let irreversible = pm.reveal.is_some() || self.is_capture(pm.mv);
        let saved = self.inc;
        self.evaluator.update(&mut self.inc, &self.pos, pm);
        let undo = self.pos.make(pm);
        self.tick();
        let floor = self.rep_floor;
        self.push_path(irreversible);
        let cply = ply + 1;
        let result = 'probe: {
            if self.stopped {
                break 'probe None;
            }
            if let Some(v) = self.terminal(cply) {
                break 'probe Some(v);
            }
            if depth <= 0 {
                break 'probe None;
            }
            let key = self.pos.hash();
            let mut tt_move = None;
            if let Some(tt) = self.tt {
                if let Some(e) = tt.probe(key) {
                    tt_move = decode(e.mv);
                    if self.tt_depth_ok(e.depth as i32, depth) && e.bound != BOUND_UPPER {
                        self.horizon = true;
                        break 'probe Some(from_tt(e.score, cply));
                    }
                }
            }
            let moves = self.pos.legal_moves();
            if moves.is_empty() {
                break 'probe Some(-(MATE - cply as i32));
            }
            let mut scores = [0i32; jieqi_core::MAX_MOVES];
            self.score_moves(&moves, tt_move, cply, &mut scores);
            let best = (0..moves.len())
                .max_by_key(|&i| (scores[i], std::cmp::Reverse(i)))
                .expect("moves");
            let v = self.move_value(moves[best], depth - 1, cply, beta_c - 1, beta_c, false, 0);
            if self.stopped || v < beta_c {
                None
            } else {
                Some(v)
            }
        };
        self.rep_floor = floor;
        self.path.pop();
        self.pos.unmake(pm, undo);
        self.inc = saved;
        result
    }
}

/// SplitMix64's finaliser: a well-mixed 64-bit function of `x`.
#[inline]
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
