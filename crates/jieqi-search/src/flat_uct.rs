//! `flat-uct`: the seed-000 algorithm as its author meant it, without that code's bugs.
//!
//! Root-only UCB1 over the view's legal moves. Every simulation draws a fresh determinization from
//! the view ([`View::sample`], the exact posterior — never the truth), plays the chosen root move,
//! then a playout (uniformly random by default, capped at 200 plies) and scores the end for the
//! mover: 1 win, 0 loss, ½ draw (seed 000 counted draws as losses; a draw is worth half here). Every
//! move is tried once first (in a seeded random order, as the seed's `random.choice(unexplored)`),
//! then UCB1 `mean + c·sqrt(ln N / n)` with `N` the simulations so far. The answer is the best mean,
//! ties broken by more visits, then by the seeded order. Its score is the win rate, or `Mate(1)`
//! when the move wins at once in every reveal outcome ([`crate::mcts_solver::wins_at_once`]).
//!
//! The end of the game: a king taken by the root move wins the simulation outright; every other
//! ending is the playout's, which applies the core's classifier without a history (no
//! repetitions: see [`crate::playout`]), starting with the position the root move reached.
//!
//! Budget: `Limits.nodes` (simulations) when given, else the spec's `sims` when written, else — under
//! a movetime limit only — as many simulations as fit, else 300. A movetime limit always applies on
//! top (the clock is read after every simulation).

use jieqi_core::{Color, MoveList, View};
use jieqi_engine::{
    Choice, Control, Engine, EngineError, Limits, Score, SearchInfo, Spec, SpecError,
};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::mcts_solver::wins_at_once;
use crate::playout::{
    Budget, PlayoutConfig, PlayoutPolicy, below, playout, read_config, took_king,
};

/// Spec name.
pub const NAME: &str = "flat-uct";

/// Help text.
pub const HELP: &str = "Flat UCT (seed 000 done right): root-only UCB1 over the legal moves, each \
simulation samples a fresh determinization from the player's view, plays the move and a playout \
(draw = 1/2); plays the best mean. Keys: sims (simulations, default 300; Limits.nodes overrides, and \
under a movetime or clock limit without sims it runs until its time budget is spent), c (UCB1 exploration, default 0.8), \
policy (random|capture, default random), cutoff (plies before scoring by the evaluation, 0 = none, \
default 0), max_plies (playout cap, default 200).";

/// Default simulations per move.
pub const DEFAULT_SIMS: u64 = 300;

/// The flat UCT engine.
#[derive(Clone, Debug, PartialEq)]
pub struct FlatUct {
    /// Simulations per move, if the spec sets them (see the module docs for the budget rules).
    pub sims: Option<u64>,
    /// UCB1 exploration constant.
    pub c: f64,
    /// Playout settings.
    pub playout: PlayoutConfig,
}

impl Default for FlatUct {
    fn default() -> FlatUct {
        FlatUct {
            sims: None,
            c: 0.8,
            playout: PlayoutConfig::default(),
        }
    }
}

/// Builds the engine from a spec.
///
/// # Errors
/// An unknown key or a value out of range.
pub fn from_spec(spec: &Spec) -> Result<Box<dyn Engine>, SpecError> {
    Ok(Box::new(FlatUct::from_spec(spec)?))
}

impl FlatUct {
    /// Reads `flat-uct[:sims=N,c=X,policy=random|capture,cutoff=P,max_plies=P]`.
    ///
    /// # Errors
    /// An unknown key or a value out of range.
    pub fn from_spec(spec: &Spec) -> Result<FlatUct, SpecError> {
        let mut p = spec.params();
        let sims: Option<u64> = match p.get::<u64>("sims", 0)? {
            0 if spec.params.iter().any(|(k, _)| k == "sims") => {
                return Err(crate::playout::spec_error(
                    spec,
                    "sims must be at least 1".into(),
                ));
            }
            0 => None,
            n => Some(n),
        };
        let c = p.get_f64_in("c", 0.8, 0.0, 100.0)?;
        let playout = read_config(&mut p, spec, PlayoutPolicy::Random, 0)?;
        p.finish(&["sims", "c", "policy", "cutoff", "max_plies"])?;
        Ok(FlatUct { sims, c, playout })
    }
}

impl Engine for FlatUct {
    /// It checks the stop flag as it searches.
    fn stops_on_request(&self) -> bool {
        true
    }

    fn search(
        &mut self,
        view: &View,
        limits: &Limits,
        seed: u64,
        control: &Control<'_>,
    ) -> Result<Choice, EngineError> {
        let moves: MoveList = control.root_moves(view.legal_moves());
        if moves.is_empty() {
            return Err(EngineError::new("flat-uct: no legal move"));
        }
        if moves.len() == 1 {
            return Ok(Choice {
                mv: moves[0],
                info: SearchInfo {
                    nodes: 0,
                    depth: None,
                    score: None,
                    pv: vec![moves[0]],
                },
            });
        }
        let us: Color = view.position().turn();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = moves.len();
        // Seeded order: exploration order of untried moves and the last tie-break.
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = below(&mut rng, i as u32 + 1) as usize;
            order.swap(i, j);
        }
        let mut rank = vec![0usize; n];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        let mut wins = vec![0f64; n];
        let mut visits = vec![0u64; n];
        let budget = Budget::new(
            limits,
            view.position().turn(),
            self.sims,
            DEFAULT_SIMS,
            *control,
        );
        let mut done = 0u64;
        while !budget.exhausted(done) {
            let i = if (done as usize) < n {
                order[done as usize]
            } else {
                let ln = (done as f64).ln();
                let mut best = 0;
                let mut best_ucb = f64::NEG_INFINITY;
                for k in 0..n {
                    let v = visits[k] as f64;
                    let ucb = wins[k] / v + self.c * (ln / v).sqrt();
                    if ucb > best_ucb {
                        best_ucb = ucb;
                        best = k;
                    }
                }
                best
            };
            let mut det = view.sample(&mut rng);
            let (pm, undo) = det.make(moves[i]);
            let score = if took_king(&pm, &undo) {
                1.0
            } else {
                playout(&mut det, us, &self.playout, &mut rng).score
            };
            wins[i] += score;
            visits[i] += 1;
            done += 1;
        }
        let best = (0..n)
            .filter(|&k| visits[k] > 0)
            .max_by(|&a, &b| {
                let (ma, mb) = (wins[a] / visits[a] as f64, wins[b] / visits[b] as f64);
                ma.total_cmp(&mb)
                    .then(visits[a].cmp(&visits[b]))
                    .then(rank[b].cmp(&rank[a]))
            })
            .expect("at least one simulation ran");
        let mv = moves[best];
        // A move that ends the game with a win in every outcome is a proof, not a rate.
        let score = if wins_at_once(view.position(), &view.knowledge(), mv) {
            Score::Mate(1)
        } else {
            Score::WinRate(wins[best] / visits[best] as f64)
        };
        Ok(Choice {
            mv,
            info: SearchInfo {
                nodes: done,
                depth: None,
                score: Some(score),
                pv: vec![mv],
            },
        })
    }
}
