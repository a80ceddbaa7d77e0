//! The searcher: negamax with principal-variation search, chance nodes, quiescence and pruning;
//! iterative deepening with aspiration windows; the repetition path.

use super::*;

/// The static evaluation as the search uses it: clamped to ±[`EVAL_LIMIT`].
#[inline]
pub fn leaf_eval(pos: &Position, w: &EvalWeights) -> i32 {
    evaluate(pos, w).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// Whether the rules' no-capture limit is reached (a draw): the core's
/// [`jieqi_core::no_capture_limit`].
#[inline]
pub fn no_capture_draw(pos: &Position) -> bool {
    jieqi_core::no_capture_limit(pos)
}

pub(super) struct Searcher<'a> {
    pos: Position,
    opts: &'a Options,
    tt: Option<&'a Tt>,
    root_color: Color,
    pub(super) nodes: u64,
    pub(super) node_limit: u64,
    pub(super) deadline: Option<Instant>,
    /// Under a clock: when the search started and the soft budget that, scaled by the root's
    /// stability ([`time_scale`]), decides whether another iteration starts.
    pub(super) soft: Option<(Instant, Duration)>,
    /// Stop requests and progress reports from a front end.
    pub(super) control: Control<'a>,
    stopped: bool,
    /// Whether the current iteration met its horizon: a leaf evaluated, or a subtree taken from
    /// the table (which may have met one). An iteration that met none searched the whole tree
    /// below the root: deeper ones would only repeat it ([`Searcher::iterate`]).
    horizon: bool,
    /// Whether [`Searcher::iterate`] stopped because an iteration searched the whole tree (every
    /// line ended the game): the move was decided, and no depth is reported.
    pub(super) exhausted: bool,
    /// Game positions since the last irreversible move, then the search path.
    path: Vec<PathEntry>,
    /// Whether entries record check (`rules.check` and perpetual check loses).
    track_checks: bool,
    /// Index into `path` of the first position after the last irreversible move.
    rep_floor: usize,
    killers: [[u16; 2]; MAX_PLY + 1],
    history: Vec<i32>,
    pub(super) root_best: Option<Move>,
    pub(super) root_score: i32,
    /// Cache of leaf evaluations (see [`EvalCache`]).
    eval_cache: EvalCache,
    /// What the player knows of the hidden pieces: the one source of the chance outcomes and of
    /// the values of hidden pieces.
    pub(super) knowledge: Knowledge,
    /// The evaluation weights, tabulated.
    evaluator: Evaluator,
    /// The evaluation's per-piece terms of `pos`, updated along make and restored at unmake.
    inc: Incremental,
    /// Nodes of every thread of a multi-threaded search, added 1024 at a time; the node limit
    /// applies to this sum. `None` in a single-threaded search (the limit is exact).
    pub(super) shared_nodes: Option<&'a AtomicU64>,
    /// The last depth [`Searcher::iterate`] completed.
    pub(super) completed: u32,
    /// Plies added to every iteration's depth (Lazy SMP helpers search ahead of the main thread).
    pub(super) depth_offset: u32,
    /// In a multi-threaded search, the deepest iteration any thread completed (see
    /// [`Published`]); `None` with one thread.
    pub(super) published: Option<&'a Mutex<Published>>,
    /// Whether this searcher is a Lazy SMP helper (not the main thread).
    pub(super) helper: bool,
    /// The next [`Searcher::move_value`] plays a hidden-piece move as one sampled outcome even
    /// at an exact chance ply (taken by that call).
    force_sample: bool,
    /// Whether the move into this node was a null move (no two passes in a row).
    after_null: bool,
    /// Seeds the identity drawn at sampled hidden-piece moves (see [`Searcher::sampled`]).
    pub(super) seed: u64,
}

/// A direct-mapped cache of [`leaf_eval`] values keyed on [`Position::hash`] (which covers
/// everything the evaluation reads: board, side to move, pools). Each slot packs the key's upper
/// 48 bits with the 16-bit value (leaf values lie in ±[`EVAL_LIMIT`]); the slot index comes from
/// the key's low bits. It only saves work: a hit returns the value the evaluation would compute
/// (up to a 64-bit key collision, the same assumption the transposition table makes). Allocated
/// once per search, never per node.
struct EvalCache {
    slots: Vec<u64>,
}

const EVAL_CACHE_BITS: u32 = 17;
const EVAL_KEY_MASK: u64 = !0xFFFF;
const _: () = assert!(EVAL_LIMIT <= i16::MAX as i32);

impl EvalCache {
    pub(super) fn new() -> EvalCache {
        EvalCache {
            slots: vec![0; 1 << EVAL_CACHE_BITS],
        }
    }

    /// The cached value for `key`, else `eval()` (stored).
    #[inline]
    fn get_or_eval(&mut self, key: u64, eval: impl FnOnce() -> i32) -> i32 {
        let slot = &mut self.slots[(key & ((1 << EVAL_CACHE_BITS) - 1)) as usize];
        let e = *slot;
        if e != 0 && (e ^ key) & EVAL_KEY_MASK == 0 {
            return e as u16 as i16 as i32;
        }
        let v = eval();
        *slot = (key & EVAL_KEY_MASK) | u64::from(v as i16 as u16);
        v
    }
}

const SCORE_TT: i32 = 1 << 30;
const SCORE_CAPTURE: i32 = 1 << 24;
const SCORE_KILLER: i32 = 1 << 22;

#[allow(clippy::too_many_arguments)]
impl<'a> Searcher<'a> {
    pub(super) fn new(
        pos: Position,
        opts: &'a Options,
        tt: Option<&'a Tt>,
        past: Vec<PathEntry>,
    ) -> Self {
        let root_color = pos.turn();
        let track_checks = tracks_checks(pos.rules());
        let mut path = past;
        path.push(PathEntry {
            hash: pos.hash(),
            in_check: track_checks && pos.in_check(),
        });
        let evaluator = Evaluator::new(&opts.eval);
        Searcher {
            opts,
            tt,
            root_color,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            soft: None,
            control: Control::default(),
            stopped: false,
            horizon: false,
            exhausted: false,
            rep_floor: 0,
            path,
            track_checks,
            killers: [[0; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 90 * 90],
            root_best: None,
            root_score: 0,
            eval_cache: EvalCache::new(),
            knowledge: Knowledge::FAIR,
            inc: evaluator.incremental(&pos),
            evaluator,
            pos,
            seed: 0,
            after_null: false,
            force_sample: false,
            shared_nodes: None,
            depth_offset: 0,
            published: None,
            helper: false,
            completed: 0,
        }
    }

    /// [`leaf_eval`] of the current position, through the evaluation cache.
    #[inline]
    fn eval(&mut self) -> i32 {
        self.horizon = true;
        let (pos, evaluator, inc, knowledge) =
            (&self.pos, &self.evaluator, &self.inc, &self.knowledge);
        self.eval_cache.get_or_eval(pos.hash(), || {
            // The value of `leaf_eval`: the tabulated, incremental evaluation gives exactly the
            // values of `evaluate` (tests/eval.rs; checked here in unit tests).
            let v = evaluator.evaluate_with(pos, inc);
            #[cfg(test)]
            assert_eq!(v, evaluate(pos, evaluator.weights()), "{}", pos.fen());
            (v + known_hidden(pos, evaluator.weights(), knowledge)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        })
    }

    #[inline]
    fn draw_score(&self) -> i32 {
        if self.pos.turn() == self.root_color {
            -self.opts.contempt
        } else {
            self.opts.contempt
        }
    }

    /// Pushes the position just made onto the path (`irreversible`: it follows a capture or a
    /// reveal, so no cycle reaches back across it and its check flag is never read).
    #[inline]
    fn push_path(&mut self, irreversible: bool) {
        self.path.push(PathEntry {
            hash: self.pos.hash(),
            in_check: self.track_checks && !irreversible && self.pos.in_check(),
        });
        if irreversible {
            self.rep_floor = self.path.len() - 1;
        }
    }

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
    fn value_at(&self, sq: Square, hv: &mut [Option<i32>; 2]) -> i32 {
        match self.pos.occupant(sq) {
            None => 0,
            Some(jieqi_core::Occupant::Hidden(c)) => match self.knowledge.belief(&self.pos, sq) {
                Some(Belief::Known(r)) => self.value_of(r),
                _ => *hv[c.index()].get_or_insert_with(|| self.opts.eval.hidden(self.pos.pool(c))),
            },
            Some(jieqi_core::Occupant::Revealed(p)) => self.value_of(p.role),
        }
    }

    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        m.from != m.to && self.pos.occupant(m.to).is_some()
    }

    /// Ordering scores for `moves`.
    fn score_moves(&self, moves: &MoveList, tt_move: Option<Move>, ply: usize, out: &mut [i32]) {
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

    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if self.nodes & 1023 == 0 {
            if let Some(total) = self.shared_nodes {
                if total.fetch_add(1024, Ordering::Relaxed) + 1024 >= self.node_limit {
                    self.stopped = true;
                }
            }
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
            if self.control.stopped() {
                self.stopped = true;
            }
        }
    }

    /// Makes one outcome, searches the child, takes it back. Value from the mover's side.
    fn child(
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

    /// The value of move `m` (a chance node if it has several outcomes), from the mover's side.
    fn move_value(
        &mut self,
        m: Move,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiesce: bool,
        qply: u32,
    ) -> i32 {
        let force_sample = std::mem::take(&mut self.force_sample);
        let br = branches(&self.pos, &self.knowledge, m);
        if br.is_single() {
            let pm = PlayedMove {
                mv: m,
                reveal: br.items[0].reveal,
                capture: None,
            };
            return self.child(pm, depth, ply, alpha, beta, quiesce, qply);
        }
        if (force_sample || ply as u32 >= self.opts.chance_plies)
            && !br.as_slice().iter().any(|b| b.king_win)
        {
            return self.sampled(m, &br, depth, ply, alpha, beta, quiesce, qply);
        }
        self.chance(m, &br, depth, ply, alpha, beta, quiesce, qply)
    }

    /// A hidden-piece move below the exact horizon ([`Options::chance_plies`]): one outcome,
    /// drawn with the outcomes' probabilities from the position, the move and the search seed
    /// (so the same node always draws the same identity), its value shifted by
    /// [`reveal_price`]. Mate scores are not shifted.
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
        let a = (alpha - price).max(-INF);
        let b = (beta - price).min(INF);
        let v = self.child(pm, depth, ply, a, b, quiesce, qply);
        if v.abs() > MATE_BOUND { v } else { v + price }
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

    /// Game-ending or drawn node at `ply > 0`: [`terminal_score`] with the path since the last
    /// irreversible move, the first repetition counting.
    #[inline]
    fn terminal(&self, ply: usize) -> Option<i32> {
        let window = &self.path[self.rep_floor..];
        terminal_score(
            &self.pos,
            window,
            PATH_REPETITION_COUNT,
            ply,
            self.draw_score(),
        )
    }

    /// Decision node: table cut-offs, then (outside principal-variation nodes and check) reverse
    /// futility and null-move pruning, then the moves in order with principal-variation search
    /// and late-move reductions; a side in check searches one ply deeper.
    fn search(&mut self, mut depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if ply > 0 {
            if let Some(v) = self.terminal(ply) {
                return v;
            }
        }
        if ply >= MAX_PLY {
            return self.eval();
        }
        let in_check = self.pos.rules().check && self.pos.in_check();
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
        let mut tt_move = None;
        if let Some(tt) = self.tt {
            if let Some(e) = tt.probe(key) {
                tt_move = decode(e.mv);
                if ply > 0 && self.tt_depth_ok(e.depth as i32, depth) {
                    // A cut-off may stand for a subtree that met its horizon.
                    self.horizon = true;
                    let s = from_tt(e.score, ply);
                    match e.bound {
                        BOUND_EXACT => return s,
                        BOUND_LOWER if s >= beta => return s,
                        BOUND_UPPER if s <= alpha => return s,
                        _ => {}
                    }
                }
            }
        }
        if ply == 0 && tt_move.is_none() {
            tt_move = self.root_best;
        }
        let pv_node = beta - alpha > 1;
        // The static evaluation where pruning may use it.
        let mut static_eval = None;
        if ply > 0 && !pv_node && !in_check && beta.abs() < MATE_BOUND {
            let stand = self.eval();
            static_eval = Some(stand);
            // Reverse futility: far enough above beta near the leaves, the side to move keeps it.
            if self.opts.futility && depth <= 3 && stand - FUTILITY_MARGIN * depth >= beta {
                return stand;
            }
            // Null move: if passing still fails high at reduced depth, a move will too.
            if self.opts.null_move
                && depth >= 3
                && stand >= beta
                && !self.after_null
                && self.pos.occupied(self.pos.turn()).count_ones() > 5
            {
                let r = 3 + depth / 6;
                if let Some(v) = self.null_child(depth - 1 - r, ply, beta) {
                    if v >= beta {
                        return if v > MATE_BOUND { beta } else { v };
                    }
                }
                if self.stopped {
                    return 0;
                }
            }
        }
        let moves = if ply == 0 {
            // The root: only the moves the front end allows (`go searchmoves`).
            self.control.root_moves(self.pos.legal_moves())
        } else {
            self.pos.legal_moves()
        };
        if moves.is_empty() {
            return -(MATE - ply as i32);
        }
        let mut scores = [0i32; jieqi_core::MAX_MOVES];
        self.score_moves(&moves, tt_move, ply, &mut scores);
        let n = moves.len();
        let mut order = [0u8; jieqi_core::MAX_MOVES];
        for (i, o) in order.iter_mut().enumerate().take(n) {
            *o = i as u8;
        }
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for k in 0..n {
            // Selection sort step: bring the best remaining move to position k.
            let mut bi = k;
            for j in k + 1..n {
                if scores[order[j] as usize] > scores[order[bi] as usize] {
                    bi = j;
                }
            }
            order.swap(k, bi);
            let m = moves[order[k] as usize];
            let quiet = scores[order[k] as usize] < SCORE_KILLER && !self.is_capture(m);
            // Near the leaves, late quiet moves are not searched at all (move-count pruning), nor
            // quiet moves that cannot lift a low static evaluation to alpha (futility pruning).
            if let Some(stand) = static_eval {
                if self.opts.futility
                    && quiet
                    && k > 0
                    && best > -MATE_BOUND
                    && depth <= 3
                    && (k >= 3 + (depth * depth) as usize
                        || stand + FUTILITY_MARGIN * depth + 50 <= alpha)
                {
                    continue;
                }
            }
            let mut v;
            if k == 0 {
                v = self.move_value(m, depth - 1, ply, alpha, beta, false, 0);
            } else {
                // Late quiet moves are searched shallower first; a fail high is searched again.
                let r = if self.opts.lmr && quiet && !in_check && depth >= 3 && k >= 3 {
                    lmr_reduction(depth, k, pv_node)
                } else {
                    0
                };
                // At an exact chance ply, a hidden-piece move is tested on one sampled identity
                // first, and its chance node searched only if that fails high.
                let sample = self.opts.late_sample
                    && (ply as u32) < self.opts.chance_plies
                    && self.pos.is_hidden(m.from);
                self.force_sample = sample;
                v = self.move_value(m, depth - 1 - r, ply, alpha, alpha + 1, false, 0);
                if !self.stopped && r > 0 && v > alpha {
                    self.force_sample = sample;
                    v = self.move_value(m, depth - 1, ply, alpha, alpha + 1, false, 0);
                }
                if !self.stopped && sample && v > alpha {
                    v = self.move_value(m, depth - 1, ply, alpha, alpha + 1, false, 0);
                }
                if !self.stopped && v > alpha && v < beta {
                    v = self.move_value(m, depth - 1, ply, alpha, beta, false, 0);
                }
            }
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
                            let e = encode(m);
                            let ks = &mut self.killers[ply];
                            if ks[0] != e {
                                ks[1] = ks[0];
                                ks[0] = e;
                            }
                            let h = &mut self.history[self.pos.turn().index() * 8100
                                + m.from.index() * 90
                                + m.to.index()];
                            *h = (*h + depth * depth).min(SCORE_KILLER - 1);
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

    /// Passes the turn and searches the opponent's reply with a null window at `beta` (our
    /// side's view) to `depth`; `None` when stopped.
    fn null_child(&mut self, depth: i32, ply: usize, beta: i32) -> Option<i32> {
        self.pos.make_null();
        self.tick();
        let floor = self.rep_floor;
        // No repetition reaches back across a pass.
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

    /// Quiescence: stand pat, then captures (hidden capturers as chance nodes in the first
    /// [`QS_HIDDEN_PLIES`] plies); in check, all evasions.
    /// Whether a table entry searched to `entry_depth` may cut a search of `depth`: at least as
    /// deep, or exactly as deep under the `exact_tt` test switch.
    #[inline]
    fn tt_depth_ok(&self, entry_depth: i32, depth: i32) -> bool {
        if self.opts.exact_tt {
            entry_depth == depth
        } else {
            entry_depth >= depth
        }
    }

    fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32, qply: u32) -> i32 {
        self.horizon = true;
        if self.pos.king_lost(self.pos.turn()) {
            return -(MATE - ply as i32);
        }
        if ply >= MAX_PLY {
            return self.eval();
        }
        let in_check = qply < QS_CHECK_PLIES && self.pos.in_check();
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
            moves = self.pos.legal_moves();
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
                if self.opts.delta && stand + victim + QS_DELTA <= alpha && !king {
                    pruned = pruned.max(stand + victim + QS_DELTA);
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
            let mut bi = k;
            for j in k + 1..n {
                if scores[j] > scores[bi] {
                    bi = j;
                }
            }
            scores.swap(k, bi);
            moves.as_mut_slice().swap(k, bi);
            let m = moves[k];
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

    /// The root searched to `depth`: first in a window around the previous iteration's score
    /// (from depth 4, [`Options::aspiration`]), widened on each side that fails.
    fn aspirate(&mut self, depth: i32) -> i32 {
        let prev = self.root_score;
        if !self.opts.aspiration || depth < 4 || prev.abs() >= MATE_BOUND {
            return self.search(depth, 0, -INF, INF);
        }
        let (mut delta_lo, mut delta_hi) = (ASPIRATION, ASPIRATION);
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
                delta_lo *= 4;
            } else if v >= beta && beta < INF {
                delta_hi *= 4;
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
                self.publish(d + self.depth_offset, mv, v);
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

/// Late-move reduction for the `k`-th move (from 0) at `depth`: about ln(depth)·ln(k)/2, one
/// ply less at principal-variation nodes, leaving at least one ply.
#[inline]
fn lmr_reduction(depth: i32, k: usize, pv_node: bool) -> i32 {
    let r = ((depth as f32).ln() * (k as f32).ln() / 2.0) as i32 + 1 - i32::from(pv_node);
    r.clamp(0, depth - 2)
}

/// SplitMix64's finaliser: a well-mixed 64-bit function of `x`.
#[inline]
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One position on the repetition path: the core's [`HistoryEntry`](jieqi_core::HistoryEntry) —
/// its hash, and whether its side to move is in check (recorded only when [`tracks_checks`]).
pub(super) type PathEntry = jieqi_core::HistoryEntry;

/// Whether the search must know which moves gave check: the rules have check, and a perpetual
/// checker loses.
fn tracks_checks(rules: &jieqi_core::Rules) -> bool {
    rules.check && rules.perpetual_check == jieqi_core::PerpetualCheck::Loses
}

/// The first repetition on the path counts: a position that occurred once since the last
/// irreversible move is scored when it recurs (the referee waits for
/// [`Rules::repetition_count`](jieqi_core::Rules)).
const PATH_REPETITION_COUNT: u32 = 2;

/// Positions of the game since its last irreversible move (capture or reveal), oldest first,
/// excluding the current one, with their check flags: the core's
/// [`RepetitionHistory::of_view`](jieqi_core::RepetitionHistory::of_view) without its last entry.
pub(super) fn past_hashes(view: &View) -> Vec<PathEntry> {
    let history = jieqi_core::RepetitionHistory::of_view(view);
    let window = history.window();
    window[..window.len().saturating_sub(1)].to_vec()
}

/// The search's value of `pos` at `ply` if the game is over there, from the side to move's point
/// of view, by the core's classifier ([`jieqi_core::classify_before_moves`] over `window`, the
/// positions since the last irreversible move ending at `pos`, a position ending the game at its
/// `count`-th occurrence): a win `MATE − ply`, a loss `−(MATE − ply)`, a draw `draw`. Like the
/// classifier it leaves a position that only a missing legal move ends to the caller, which
/// scores an empty move list as a loss. The search asks it at every node below the root with
/// count 2 (the first repetition on the path) and its contempt draw score.
#[inline]
pub fn terminal_score(
    pos: &Position,
    window: &[jieqi_core::HistoryEntry],
    count: u32,
    ply: usize,
    draw: i32,
) -> Option<i32> {
    let outcome = jieqi_core::classify_before_moves(pos, false, window, count)?;
    Some(match outcome.winner {
        None => draw,
        Some(w) if w == pos.turn() => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    })
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
    use jieqi_core::{Deal, Game, Rules, uniform_below};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

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

    #[test]
    fn only_check_rules_with_perpetual_loss_track_checks() {
        assert!(tracks_checks(&Rules::standard()));
        assert!(tracks_checks(&Rules::xiangqi()));
        assert!(!tracks_checks(&Rules::simple()));
        let draws = Rules {
            perpetual_check: jieqi_core::PerpetualCheck::Draws,
            ..Rules::standard()
        };
        assert!(!tracks_checks(&draws));
    }

    /// Searches positions along seeded random games of every preset (star2 on and off, so that
    /// probes make moves too); in test builds `Searcher::eval` asserts that the incremental
    /// evaluation equals `evaluate` at every leaf it computes.
    #[test]
    fn incremental_evaluation_matches_along_searches() {
        for rules in [Rules::standard(), Rules::simple(), Rules::xiangqi()] {
            for seed in 0..8u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(500 + seed);
                let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
                let plies = 4 + 9 * seed as usize;
                while game.outcome().is_none() && game.ply() < plies {
                    let moves = game.legal_moves();
                    let m = moves[uniform_below(&mut rng, moves.len() as u32) as usize];
                    game.play(m).unwrap();
                }
                if game.outcome().is_some() {
                    continue;
                }
                let view = game.view(game.turn());
                let opts = Options {
                    star2: seed % 2 == 1,
                    ..Options::default()
                };
                let (_, nodes) = search_value_nodes(view.position(), 2, &opts);
                assert!(nodes > 0);
            }
        }
    }
}
