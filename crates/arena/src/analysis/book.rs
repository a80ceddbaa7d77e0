//! `arena book`'s work: its settings, and the candidates played from the seed, scored by the
//! reference engine on the scheduler and kept in candidate order. The file and the printed
//! line are `report::book`'s.

use std::time::Duration;

use jieqi_core::{Game, Rules, View};
use jieqi_engine::{Limits, Score, mix};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use crate::engines::EngineEntry;
use crate::error::Error;
use crate::run::game_runner::{Reporter, search_once};
use crate::run::scheduler::{self, Flow, Prefix};

/// How each ply of a candidate is chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Choose {
    /// Uniformly over the legal moves.
    Random,
    /// Uniformly over the moves the reference engine scores within `margin` of the best, each
    /// searched with `nodes`.
    Engine {
        /// Nodes per root move.
        nodes: u64,
        /// Centipawns below the best.
        margin: i32,
    },
}

/// A validated `arena book`.
#[derive(Debug)]
pub struct BookPlan {
    /// Rules.
    pub rules: Rules,
    /// The file to write.
    pub out: std::path::PathBuf,
    /// Positions to write.
    pub positions: usize,
    /// Plies from the start, a range drawn uniformly.
    pub plies: (u32, u32),
    /// How plies are chosen.
    pub choose: Choose,
    /// The reference engine.
    pub engine: EngineEntry,
    /// Its nodes to score a candidate.
    pub nodes: u64,
    /// The largest |score| kept, centipawns.
    pub max_score: i32,
    /// Seed.
    pub seed: u64,
    /// Candidates tried at most.
    pub max_candidates: u64,
    /// Worker threads.
    pub threads: usize,
    /// The command line, for the file's header.
    pub command: String,
}

/// What a candidate came to.
enum Candidate {
    /// Its public FEN, score (centipawns, side to move) and plies.
    Scored(String, i32, u32),
    /// Dropped, and why (for the counts).
    Dropped(Drop),
}

/// Why a candidate was dropped.
#[derive(Copy, Clone)]
enum Drop {
    /// The game ended within its plies.
    Over,
    /// The reference scored it out of bounds (or a mate).
    Unbalanced,
    /// The reference failed on it.
    Failed,
}

/// The hard limit of one reference search: generous, node limits end it.
const HARD: Duration = Duration::from_secs(60);

/// A score in centipawns for the bound: a win rate through the logistic, a mate none.
fn centipawns(score: Option<Score>) -> Option<i32> {
    match score? {
        Score::Cp(cp) => Some(cp),
        Score::WinRate(w) => Some(Score::win_rate_cp(w)),
        Score::Mate(_) => None,
    }
}

/// The reference search of `view` at `nodes`, restricted to `searchmoves` if any.
fn score(
    plan: &BookPlan,
    view: &View,
    nodes: u64,
    seed: u64,
    searchmoves: &[jieqi_core::Move],
) -> Option<i32> {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let report: Reporter = std::sync::Arc::new(|_: &jieqi_engine::SearchInfo| {});
    let choice = search_once(
        &plan.engine,
        view,
        &limits,
        seed,
        HARD,
        &report,
        searchmoves,
    )
    .ok()?;
    match choice.info.score {
        Some(Score::Mate(n)) if n > 0 => Some(i32::MAX / 2),
        Some(Score::Mate(_)) => Some(-i32::MAX / 2),
        s => centipawns(s),
    }
}

/// Plays and scores candidate `k`.
fn candidate(plan: &BookPlan, k: u64) -> Candidate {
    let stream = mix(plan.seed, k);
    let mut rng = ChaCha20Rng::seed_from_u64(stream);
    let span = plan.plies.1 - plan.plies.0 + 1;
    let plies = plan.plies.0 + jieqi_core::uniform_below(&mut rng, span);
    let mut game = Game::new(
        plan.rules,
        crate::records::deal_seed::deal_for_seed(mix(stream, 1), &plan.rules),
    );
    for ply in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return Candidate::Dropped(Drop::Over);
        }
        let mv = match plan.choose {
            Choose::Random => {
                moves[jieqi_core::uniform_below(&mut rng, moves.len() as u32) as usize]
            }
            Choose::Engine { nodes, margin } => {
                let view = game.view(game.turn());
                let scored: Vec<(jieqi_core::Move, i32)> = moves
                    .iter()
                    .filter_map(|&m| {
                        score(plan, &view, nodes, mix(stream, 2 + u64::from(ply)), &[m])
                            .map(|s| (m, s))
                    })
                    .collect();
                let Some(best) = scored.iter().map(|&(_, s)| s).max() else {
                    return Candidate::Dropped(Drop::Failed);
                };
                let near: Vec<jieqi_core::Move> = scored
                    .iter()
                    .filter(|&&(_, s)| s >= best.saturating_sub(margin))
                    .map(|&(m, _)| m)
                    .collect();
                near[jieqi_core::uniform_below(&mut rng, near.len() as u32) as usize]
            }
        };
        if game.play(mv).is_err() || game.outcome().is_some() {
            return Candidate::Dropped(Drop::Over);
        }
    }
    let public = crate::records::openings::public_position(&game);
    let setup = public.to_setup();
    let Ok(pos) = crate::records::openings::check_opening(&setup, &plan.rules) else {
        return Candidate::Dropped(Drop::Over);
    };
    let Ok(view) = View::from_setup(&pos.to_setup(), &plan.rules) else {
        return Candidate::Dropped(Drop::Failed);
    };
    match score(plan, &view, plan.nodes, mix(stream, 1000), &[]) {
        None => Candidate::Dropped(Drop::Failed),
        Some(s) if s.abs() > plan.max_score => Candidate::Dropped(Drop::Unbalanced),
        Some(s) => Candidate::Scored(pos.fen(), s, plies),
    }
}

/// The positions kept and the count of the candidates tried.
pub struct Made {
    /// Each kept position's public FEN, score (centipawns, side to move) and plies.
    pub kept: Vec<(String, i32, u32)>,
    /// Candidates whose game ended within their plies.
    pub over: u64,
    /// Candidates scored out of bounds.
    pub unbalanced: u64,
    /// Candidates the reference failed on.
    pub failed: u64,
    /// Candidates seen before.
    pub repeated: u64,
    /// Candidates tried.
    pub tried: u64,
}

/// Plays and scores candidates until `plan.positions` are kept or `plan.max_candidates` are
/// tried, calling `kept_one` for each position kept.
///
/// # Errors
/// The scheduler's threads cannot be started.
pub fn make(plan: &BookPlan, kept_one: &dyn Fn()) -> Result<Made, Error> {
    let mut prefix: Prefix<Candidate> = Prefix::new();
    let mut kept: Vec<(String, i32, u32)> = Vec::with_capacity(plan.positions);
    let mut seen = std::collections::HashSet::new();
    let (mut over, mut unbalanced, mut failed, mut repeated, mut tried) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    scheduler::run(
        plan.max_candidates,
        plan.threads,
        4 * plan.threads as u64,
        &|_| false,
        &|k| candidate(plan, k),
        |k, c| -> Result<Flow, std::convert::Infallible> {
            for (_, c) in prefix.push(k, c) {
                if kept.len() >= plan.positions {
                    break;
                }
                tried += 1;
                match c {
                    Candidate::Scored(fen, s, plies) => {
                        if seen.insert(fen.clone()) {
                            kept.push((fen, s, plies));
                            kept_one();
                        } else {
                            repeated += 1;
                        }
                    }
                    Candidate::Dropped(Drop::Over) => over += 1,
                    Candidate::Dropped(Drop::Unbalanced) => unbalanced += 1,
                    Candidate::Dropped(Drop::Failed) => failed += 1,
                }
            }
            Ok(if kept.len() >= plan.positions {
                Flow::Stop
            } else {
                Flow::Continue
            })
        },
    )
    .map_err(|e| match e {
        scheduler::SchedulerError::Pool(m) => Error::Input(m),
        scheduler::SchedulerError::Caller(never) => match never {},
    })?;
    Ok(Made {
        kept,
        over,
        unbalanced,
        failed,
        repeated,
        tried,
    })
}

impl Made {
    /// Whether enough positions were kept.
    ///
    /// # Errors
    /// The reference scored no candidate, or too few positions were kept.
    pub fn enough(&self, plan: &BookPlan) -> Result<(), Error> {
        let &Made {
            ref kept,
            over,
            unbalanced,
            failed,
            repeated,
            tried,
        } = self;
        let kept_n = kept.len();
        if kept_n == 0 && failed > 0 && failed == tried {
            return Err(Error::Input(format!(
                "the reference engine {} reported no score for any of {tried} candidates: give \
             --engine an engine that scores positions (alphabeta, ismcts)",
                plan.engine.spec
            )));
        }
        if kept_n < plan.positions {
            return Err(Error::Input(format!(
                "only {kept_n} of {} positions within ±{} cp in {} candidates ({over} ended, \
             {unbalanced} out of bounds, {repeated} repeated, {failed} failed): give a larger \
             --max-score or --max-candidates",
                plan.positions, plan.max_score, plan.max_candidates
            )));
        }
        Ok(())
    }
}
