//! `arena book`: writes a balanced opening book — positions a few plies from the start (random
//! legal plies, or a seeded choice among the reference engine's best moves), kept only where a
//! reference search at fixed nodes scores them within ±X for the side to move, each distinct.
//!
//! Candidate `k` is played from the ChaCha20 stream of `mix(seed, k)` (its ply count, its moves
//! and, in Jieqi, its deal); candidates are scored on the scheduler and taken in candidate order
//! (the finished prefix), so the same seed and flags write the same book at any thread count.
//! A Jieqi position is written as its public FEN: the identities it revealed out of the pools,
//! a captured hidden piece's left in (nobody but its capturer saw it).

use std::io::Write;
use std::time::Duration;

use jieqi_core::{Game, View};
use jieqi_engine::{Limits, Score, mix};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use crate::error::Error;
use crate::plan::book::{BookPlan, Choose};
use crate::run::game_runner::{Reporter, search_once};
use crate::run::scheduler::{self, Flow, Prefix};

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

/// Makes the book and writes it; prints what it kept.
///
/// # Errors
/// Too few positions within `--max-candidates`, or the file cannot be written.
pub fn run(plan: &BookPlan, out: &mut dyn Write) -> Result<(), Error> {
    let started = std::time::Instant::now();
    let mut prefix: Prefix<Candidate> = Prefix::new();
    let mut kept: Vec<(String, i32, u32)> = Vec::with_capacity(plan.positions);
    let mut seen = std::collections::HashSet::new();
    let (mut over, mut unbalanced, mut failed, mut repeated, mut tried) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        indicatif::ProgressBar::new(plan.positions as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
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
                            bar.inc(1);
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
    bar.finish_and_clear();
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
    let plies = if plan.plies.0 == plan.plies.1 {
        format!("{}", plan.plies.0)
    } else {
        format!("{}-{}", plan.plies.0, plan.plies.1)
    };
    let how = match plan.choose {
        Choose::Random => "random legal plies".to_string(),
        Choose::Engine { nodes, margin } => format!(
            "plies drawn among the moves {} scores within {margin} cp of its best at {nodes} \
             nodes",
            plan.engine.spec
        ),
    };
    let mean = kept.iter().map(|(_, s, _)| f64::from(*s)).sum::<f64>() / kept_n as f64;
    let mean_abs = kept.iter().map(|(_, s, _)| f64::from(s.abs())).sum::<f64>() / kept_n as f64;
    let mut text = String::new();
    text.push_str(&format!("# arena book: {}\n", plan.command));
    text.push_str(&format!(
        "# {kept_n} distinct positions of rules {} after {plies} {how}, seed {}; kept where {} at \
         {} nodes scores the side to move within ±{} cp (ce: that score)\n",
        plan.rules.name, plan.seed, plan.engine.spec, plan.nodes, plan.max_score
    ));
    text.push_str(&format!(
        "# candidates {tried}: kept {kept_n}, ended {over}, out of bounds {unbalanced}, repeated \
         {repeated}, failed {failed}; mean score {mean:+.1} cp, mean |score| {mean_abs:.1} cp\n"
    ));
    for (i, (fen, s, p)) in kept.iter().enumerate() {
        text.push_str(&format!(
            "{fen} ; ce {s}; id \"book.{:05}\"; c0 \"plies {p}\";\n",
            i + 1
        ));
    }
    crate::records::files::write_output(&plan.out, text.as_bytes()).map_err(Error::Results)?;
    writeln!(
        out,
        "Wrote {} positions to {} ({} candidates: {over} ended, {unbalanced} out of ±{} cp, \
         {repeated} repeated, {failed} failed) in {:.1} s; mean score {mean:+.1} cp, mean \
         |score| {mean_abs:.1} cp",
        kept_n,
        plan.out.display(),
        tried,
        plan.max_score,
        started.elapsed().as_secs_f64()
    )
    .map_err(Error::Output)?;
    Ok(())
}
