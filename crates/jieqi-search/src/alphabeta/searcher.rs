//! The searcher's state and its helpers: the [`Searcher`] struct and its construction, the leaf
//! evaluation and its cache, the node counter and the stop checks, and the repetition path (the
//! game's positions since its last irreversible move, then the search path) with the terminal
//! test of a node (see "Repetition, draws, contempt" and "Speed" in the module doc). The search
//! itself is spread over the sibling files, one idea each: [`super::ordering`], [`super::negamax`],
//! [`super::chance_node`], [`super::qsearch`], [`super::iterate`].

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

/// One thread's search of one root: the position searched (made and unmade along the tree), the
/// options, the shared table, the limits, the move-ordering state and the repetition path.
pub(super) struct Searcher<'a> {
    pub(super) pos: Position,
    pub(super) opts: &'a Options,
    pub(super) tt: Option<&'a Tt>,
    root_color: Color,
    pub(super) nodes: u64,
    pub(super) node_limit: u64,
    pub(super) deadline: Option<Instant>,
    /// Under a clock: when the search started and the soft budget that, scaled by the root's
    /// stability ([`time_scale`]), decides whether another iteration starts.
    pub(super) soft: Option<(Instant, Duration)>,
    /// Stop requests and progress reports from a front end.
    pub(super) control: Control<'a>,
    pub(super) stopped: bool,
    /// Whether the current iteration met its horizon: a leaf evaluated, or a subtree taken from
    /// the table (which may have met one). An iteration that met none searched the whole tree
    /// below the root: deeper ones would only repeat it ([`Searcher::iterate`]).
    pub(super) horizon: bool,
    /// Whether [`Searcher::iterate`] stopped because an iteration searched the whole tree (every
    /// line ended the game): the move was decided, and no depth is reported.
    pub(super) exhausted: bool,
    /// Game positions since the last irreversible move, then the search path.
    pub(super) path: Vec<PathEntry>,
    /// Whether entries record check (`rules.check` and perpetual check loses).
    track_checks: bool,
    /// Index into `path` of the first position after the last irreversible move.
    pub(super) rep_floor: usize,
    pub(super) killers: [[u16; 2]; MAX_PLY + 1],
    pub(super) history: Vec<i32>,
    /// The move made at each ply of the path ([`encode`]d; 0 for a null move).
    pub(super) ply_moves: [u16; MAX_PLY + 2],
    /// Whether the side to move is in check at the path's top, as `(path length, answer)`: set
    /// where the question is first asked of a position (pushing it, or [`Searcher::in_check`])
    /// and cleared by every push that does not ask it, so a length that matches names the
    /// current position.
    pub(super) known_check: Option<(usize, bool)>,
    /// Counter-moves: per side to move and the opponent's previous move, the quiet move that
    /// last cut off after it ([`Options::counter`]).
    pub(super) counters: Vec<u16>,
    pub(super) root_best: Option<Move>,
    pub(super) root_score: i32,
    /// Cache of leaf evaluations (see [`EvalCache`]).
    eval_cache: EvalCache,
    /// What the player knows of the hidden pieces: the one source of the chance outcomes and of
    /// the values of hidden pieces.
    pub(super) knowledge: Knowledge,
    /// The evaluation weights, tabulated.
    pub(super) evaluator: Evaluator,
    /// The evaluation's per-piece terms of `pos`, updated along make and restored at unmake.
    pub(super) inc: Incremental,
    /// Nodes of every thread of a multi-threaded search, added 1024 at a time; the node limit
    /// applies to this sum. `None` in a single-threaded search (the limit is exact).
    pub(super) shared_nodes: Option<&'a AtomicU64>,
    /// The last depth [`Searcher::iterate`] completed.
    pub(super) completed: u32,
    /// Plies added to every iteration's depth (Lazy SMP helpers search ahead of the main thread).
    pub(super) depth_offset: u32,
    /// In a multi-threaded search, the deepest iteration any thread completed (see
    /// [`Published`]); `None` with one thread.
    pub(super) published: Option<&'a SmpSearch>,
    /// Whether this searcher is a Lazy SMP helper (not the main thread).
    pub(super) helper: bool,
    /// The prover's verdict on the root's last mate claim ([`Searcher::claim_score`]).
    pub(super) claim: Option<RootClaim>,
    /// Whether the move into this node was a null move (no two passes in a row).
    pub(super) after_null: bool,
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
            ply_moves: [0; MAX_PLY + 2],
            known_check: None,
            counters: vec![0; 2 * 90 * 90],
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
            shared_nodes: None,
            depth_offset: 0,
            published: None,
            helper: false,
            claim: None,
            completed: 0,
        }
    }

    /// [`leaf_eval`] of the current position, through the evaluation cache.
    #[inline]
    pub(super) fn eval(&mut self) -> i32 {
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
    pub(super) fn push_path(&mut self, irreversible: bool) {
        let in_check = if self.track_checks && !irreversible {
            let v = self.pos.in_check();
            self.known_check = Some((self.path.len() + 1, v));
            v
        } else {
            self.known_check = None;
            false
        };
        self.path.push(PathEntry {
            hash: self.pos.hash(),
            in_check,
        });
        if irreversible {
            self.rep_floor = self.path.len() - 1;
        }
    }

    /// Whether the side to move is in check ([`Position::in_check`]), asked once per position on
    /// the path: the answer is kept for the path's top ([`Searcher::known_check`]).
    #[inline]
    pub(super) fn in_check(&mut self) -> bool {
        let top = self.path.len();
        match self.known_check {
            Some((at, v)) if at == top => v,
            _ => {
                let v = self.pos.in_check();
                self.known_check = Some((top, v));
                v
            }
        }
    }

    #[inline]
    pub(super) fn is_capture(&self, m: Move) -> bool {
        m.from != m.to && self.pos.occupant(m.to).is_some()
    }

    #[inline]
    pub(super) fn tick(&mut self) {
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
            // The main thread of a multi-threaded search passes helpers' reports on.
            if self.published.is_some() {
                self.relay();
            }
        }
    }

    /// Game-ending or drawn node at `ply > 0`: [`terminal_score`] with the path since the last
    /// irreversible move, the first repetition counting.
    #[inline]
    pub(super) fn terminal(&self, ply: usize) -> Option<i32> {
        let window = &self.path[self.rep_floor..];
        terminal_score(
            &self.pos,
            window,
            PATH_REPETITION_COUNT,
            ply,
            self.draw_score(),
        )
    }

    /// Whether a table entry searched to `entry_depth` may cut a search of `depth`: at least as
    /// deep, or exactly as deep under the `exact_tt` test switch.
    #[inline]
    pub(super) fn tt_depth_ok(&self, entry_depth: i32, depth: i32) -> bool {
        if self.opts.exact_tt {
            entry_depth == depth
        } else {
            entry_depth >= depth
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::{Deal, Game, Rules, uniform_below};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

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
