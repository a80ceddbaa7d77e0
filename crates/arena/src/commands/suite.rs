//! `arena suite`: makes test suites (files `arena solve` reads) from the positions of recorded
//! games, each position verified by an exhaustive search written for the purpose.
//!
//! - `mates`: under rules without hidden pieces, the positions 1, 3, 5, … plies before a game's
//!   mate (the winner to move), kept when [`MateProver`] proves the shortest forced mate to be
//!   `N ≤ --max-moves` moves (mate in N against every defence, none in N − 1); `bm` lists every
//!   first move that mates in N, `dm N` says N.
//! - `tactics`: under any rules, positions where exactly one move wins at least `--min-gain`
//!   centipawns of material by force ([`TacticProver`]: `--depth` full-width plies and captures,
//!   every hidden identity chosen against the mover, so the gain holds in every
//!   determinization), the side to move not in check and the last move not a capture (no plain
//!   recaptures), with at least `--min-hidden` hidden pieces on the board. The FEN is the side to
//!   move's view (JieqiBox 6-field: its pools and the hidden pieces it captured).
//!
//! Games are read in folder and journal order and candidates proved in parallel; the result
//! depends on neither the thread count nor timing, so the same folders give the same file.

use std::collections::HashSet;
use std::io::Write;

use jieqi_core::{Color, Move, Position, fen};
use jieqi_search::mate::{MateError, MateProver};
use jieqi_search::tactic::TacticProver;
use rayon::prelude::*;

use crate::error::Error;
use crate::plan::suite::{CommonPlan, MatesPlan, SuitePlan, TacticsPlan};

/// A proved mate: its length in moves and every first move that mates in that many.
type MateProof = (u32, Vec<Move>);

/// What the proofs say of a tactics candidate.
enum Tactic {
    /// No move wins the material.
    None,
    /// Several moves do.
    Several,
    /// One move does, and no other mates.
    One(Move),
    /// One move does, but another mates.
    OtherMates,
    /// One move does, and the search for another's mate ran over the budget.
    MateUnknown,
}

/// A move other than `bm` that mates within `moves` moves in every reveal outcome of `pos`
/// (the shortest such mate's first such move), or `None`.
///
/// # Errors
/// The exhaustive search ran over `budget` nodes.
fn other_mate(
    pos: &Position,
    bm: Move,
    moves: u32,
    budget: u64,
) -> Result<Option<Move>, MateError> {
    let mut prover = MateProver::new(budget);
    for n in 1..=moves {
        if let Some(&m) = prover.mating_moves(pos, n)?.iter().find(|&&m| m != bm) {
            return Ok(Some(m));
        }
    }
    Ok(None)
}

/// A candidate position: where it came from, and the position (as its side to move sees it).
struct Candidate {
    /// Mate suites: the game's mate came this many moves later (the longest mate looked for).
    moves: u32,
    origin: String,
    game_key: usize,
    fen: String,
    pos: Position,
}

/// Runs the command.
///
/// # Errors
/// Bad folders (exit 2), or a file that cannot be written (exit 4).
pub fn run(plan: &SuitePlan, w: &mut dyn Write) -> Result<(), Error> {
    match plan {
        SuitePlan::Mates(a) => mates(a, w),
        SuitePlan::Tactics(a) => tactics(a, w),
    }
}

/// The proofs' thread pool.
fn pool(common: &CommonPlan) -> Result<rayon::ThreadPool, Error> {
    let threads = common.threads;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Input(format!("cannot start {threads} threads: {e}")))
}

/// The FEN of a position with a zero no-capture count (a suite position starts afresh).
fn fresh_fen(pos: &Position, learned: Option<jieqi_core::ByColor<jieqi_core::Pool>>) -> String {
    let mut setup = pos.to_setup();
    setup.halfmoves = 0;
    if !pos.rules().has_hidden() {
        return Position::from_setup(&setup, pos.rules()).map_or_else(|_| pos.fen(), |p| p.fen());
    }
    setup.captured_hidden = learned;
    fen::write(&setup)
}

/// Writes the suite (its header comments, then its lines) atomically, and prints the header
/// for people.
fn write_suite(
    out: &std::path::Path,
    header: &str,
    body: &str,
    w: &mut dyn Write,
) -> Result<(), Error> {
    crate::records::files::write_output(out, format!("{header}{body}").as_bytes())
        .map_err(|e| Error::Write(format!("cannot write {}: {e}", out.display())))?;
    let io = |e: std::io::Error| Error::Write(format!("writing output: {e}"));
    for line in header.lines() {
        writeln!(w, "{}", line.trim_start_matches("; ")).map_err(io)?;
    }
    writeln!(w, "written to {}", out.display()).map_err(io)
}

fn mates(args: &MatesPlan, w: &mut dyn Write) -> Result<(), Error> {
    let mut candidates = Vec::new();
    let mut seen = HashSet::new();
    let (mut games, mut skipped, mut mated_games, mut duplicates) = (0u64, 0u64, 0u64, 0u64);
    let mut game_index = 0usize;
    for dir in &args.common.dirs {
        let mut hidden_rules = false;
        let tally = crate::run::recorded_games::for_each(dir, |rules, line, checked| {
            if rules.has_hidden() {
                hidden_rules = true;
                return false;
            }
            game_index += 1;
            let ends_in_mate = checked.game.outcome().is_some_and(|o| o.winner.is_some())
                && !checked.game.position().has_legal_move();
            if !ends_in_mate {
                return true;
            }
            mated_games += 1;
            let plies = checked.plies.len();
            // Ply index → the mate's distance in moves from there.
            let wanted: Vec<(usize, u32)> = (1..=args.max_moves)
                .filter_map(|n| plies.checked_sub(2 * n as usize - 1).map(|i| (i, n)))
                .collect();
            let mut game = checked.start.clone();
            for (i, (record, _)) in checked.plies.iter().enumerate() {
                if let Some(&(_, moves)) = wanted.iter().find(|w| w.0 == i) {
                    let pos = game.position().clone();
                    if seen.insert(pos.hash()) {
                        candidates.push(Candidate {
                            moves,
                            origin: format!("pair {} game {} ply {i}", line.pair, line.game),
                            game_key: game_index,
                            fen: fresh_fen(&pos, None),
                            pos,
                        });
                    } else {
                        duplicates += 1;
                    }
                }
                if game.play(record.played.mv).is_err() {
                    break;
                }
            }
            true
        })?;
        if hidden_rules {
            return Err(Error::Input(format!(
                "{}: its games have hidden pieces; mate suites need rules without them (--rules \
                 xiangqi)",
                dir.display()
            )));
        }
        games += tally.read;
        skipped += tally.skipped;
    }
    let pool = pool(&args.common)?;
    let budget = args.common.budget;
    let max = args.max_moves;
    let bar = crate::report::bar::progress(candidates.len() as u64, "positions proved", false);
    let proofs: Vec<Result<Option<MateProof>, MateError>> = pool.install(|| {
        candidates
            .par_iter()
            .map(|c| {
                // A game's mate N moves later bounds the search: longer mates are not looked for.
                let mut prover = MateProver::new(budget);
                let proof = match prover.shortest(&c.pos, c.moves) {
                    Ok(Some(n)) => prover.mating_moves(&c.pos, n).map(|m| Some((n, m))),
                    other => other.map(|_| None),
                };
                bar.inc(1);
                proof
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut by_length: Vec<Vec<(usize, Vec<Move>)>> = vec![Vec::new(); max as usize + 1];
    let (mut no_mate, mut over_budget) = (0, 0);
    for (i, proof) in proofs.iter().enumerate() {
        match proof {
            Ok(Some((n, moves))) => by_length[*n as usize].push((i, moves.clone())),
            Ok(None) => no_mate += 1,
            Err(_) => over_budget += 1,
        }
    }
    let mut body = String::new();
    let mut kept_counts = Vec::new();
    for n in 1..=max as usize {
        let kept = &by_length[n][..by_length[n].len().min(args.per_length)];
        kept_counts.push(format!(
            "mate in {n}: {} proved, {} kept",
            by_length[n].len(),
            kept.len()
        ));
        for (k, (i, moves)) in kept.iter().enumerate() {
            let c = &candidates[*i];
            let bm: Vec<String> = moves.iter().map(Move::to_string).collect();
            body.push_str(&format!(
                "{} bm {}; dm {n}; id \"mate{n}.{:03}\"; c0 \"{}\";\n",
                c.fen,
                bm.join(" "),
                k + 1,
                c.origin
            ));
        }
    }
    let header = format!(
        "; Xiangqi mate-in-N suite made by `arena suite mates` (rules: xiangqi; run it with \
         `arena solve FILE --rules xiangqi`).\n\
         ; Every position is proved by an exhaustive mate search: the side to move mates in N \
         against every defence, and in no fewer; bm lists every first move that does.\n\
         ; {games} games read ({skipped} left out), {mated_games} ended in mate; {} candidate \
         positions ({duplicates} duplicates dropped): {}; {no_mate} with no forced mate as short as the game's, \
         {over_budget} over the node budget.\n",
        candidates.len(),
        kept_counts.join(", ")
    );
    write_suite(&args.common.out, &header, &body, w)
}

/// Red's material minus Black's in centipawns ([`jieqi_search::tactic::value`]), a hidden piece
/// counted at the mean value of its owner's pool; the sign is from the side to move.
fn material_lead(pos: &Position) -> f64 {
    use jieqi_core::{Occupant, Role, Square};
    let mut side = [0.0f64; 2];
    for c in Color::ALL {
        let pool = pos.pool(c);
        let total = pool.total();
        let mean = if total == 0 {
            0.0
        } else {
            Role::ALL
                .iter()
                .map(|&r| f64::from(pool.get(r)) * f64::from(jieqi_search::tactic::value(r)))
                .sum::<f64>()
                / f64::from(total)
        };
        for sq in Square::all() {
            match pos.occupant(sq) {
                Some(Occupant::Revealed(p)) if p.color == c => {
                    side[c.index()] += f64::from(jieqi_search::tactic::value(p.role));
                }
                Some(Occupant::Hidden(h)) if h == c => side[c.index()] += mean,
                _ => {}
            }
        }
    }
    let us = pos.turn().index();
    side[us] - side[1 - us]
}

fn tactics(args: &TacticsPlan, w: &mut dyn Write) -> Result<(), Error> {
    let mut candidates = Vec::new();
    let mut seen = HashSet::new();
    let (mut games, mut skipped) = (0u64, 0u64);
    let mut game_index = 0usize;
    let mut any_hidden = false;
    for dir in &args.common.dirs {
        let tally = crate::run::recorded_games::for_each(dir, |rules, line, checked| {
            any_hidden |= rules.has_hidden();
            let mut game = checked.start.clone();
            game_index += 1;
            let key = game_index;
            for (i, (record, _)) in checked.plies.iter().enumerate() {
                let hidden: u32 = Color::ALL
                    .iter()
                    .map(|&c| game.position().hidden_count(c))
                    .sum();
                if i >= args.skip
                    && game.outcome().is_none()
                    && !game.position().in_check()
                    && game.records().last().is_none_or(|r| r.captured.is_none())
                    && hidden >= args.min_hidden
                    && material_lead(game.view(game.turn()).position()).abs()
                        <= f64::from(args.max_balance)
                {
                    let view = game.view(game.turn());
                    let pos = view.position().clone();
                    if seen.insert(pos.hash()) {
                        candidates.push(Candidate {
                            origin: format!("pair {} game {} ply {i}", line.pair, line.game),
                            game_key: key,
                            fen: fresh_fen(&pos, Some(*view.learned())),
                            moves: 0,
                            pos,
                        });
                    }
                }
                if game.play(record.played.mv).is_err() {
                    break;
                }
            }
            true
        })?;
        games += tally.read;
        skipped += tally.skipped;
    }
    if args.min_hidden > 0 && games > 0 && !any_hidden {
        return Err(Error::Input(
            "no position of these games has a hidden piece; for games without hidden pieces \
             give --min-hidden 0 (or make a mate suite: arena suite mates)"
                .into(),
        ));
    }
    let pool = pool(&args.common)?;
    let (budget, depth, gain) = (args.common.budget, args.depth, args.min_gain);
    let bar = crate::report::bar::progress(candidates.len() as u64, "positions proved", false);
    let mate_moves = args.mate_moves;
    let proofs: Vec<Option<Tactic>> = pool.install(|| {
        candidates
            .par_iter()
            .map(|c| {
                let proof = TacticProver::new(depth, budget)
                    .winning_moves(&c.pos, gain)
                    .ok()
                    .map(|moves| match moves.as_slice() {
                        [m] => match other_mate(&c.pos, *m, mate_moves, budget) {
                            Ok(None) => Tactic::One(*m),
                            Ok(Some(_)) => Tactic::OtherMates,
                            Err(_) => Tactic::MateUnknown,
                        },
                        [] => Tactic::None,
                        _ => Tactic::Several,
                    });
                bar.inc(1);
                proof
            })
            .collect()
    });
    bar.finish_and_clear();
    let (mut none, mut several, mut over_budget, mut capped) = (0, 0, 0, 0);
    let (mut other_mates, mut mate_unknown) = (0, 0);
    let mut kept: Vec<(usize, Move)> = Vec::new();
    let mut per_game: std::collections::HashMap<usize, usize> = Default::default();
    for (i, proof) in proofs.iter().enumerate() {
        match proof {
            None => over_budget += 1,
            Some(Tactic::None) => none += 1,
            Some(Tactic::Several) => several += 1,
            Some(Tactic::OtherMates) => other_mates += 1,
            Some(Tactic::MateUnknown) => mate_unknown += 1,
            Some(Tactic::One(m)) => {
                let count = per_game.entry(candidates[i].game_key).or_default();
                if *count < args.per_game && kept.len() < args.max {
                    *count += 1;
                    kept.push((i, *m));
                } else {
                    capped += 1;
                }
            }
        }
    }
    let mut body = String::new();
    for (k, (i, m)) in kept.iter().enumerate() {
        let c = &candidates[*i];
        body.push_str(&format!(
            "{} bm {m}; id \"tactic.{:03}\"; c0 \"{}\";\n",
            c.fen,
            k + 1,
            c.origin
        ));
    }
    let header = format!(
        "; Jieqi tactics suite made by `arena suite tactics` (run it with `arena solve FILE` \
         under the games' rules).\n\
         ; Every position is proved: its bm move, and no other, wins at least {gain} centipawns \
         of material by force ({depth} full-width plies, then captures until quiet), with every \
         hidden identity chosen against the mover, so in every determinization; and no other \
         move mates within {mate_moves} moves in every reveal outcome (exhaustive search).\n\
         ; {games} games read ({skipped} left out); {} candidate positions (not in check, last \
         move not a capture, at least {} hidden pieces, neither side ahead by more than {} \
         centipawns): {} with one winning move, {several} with several, {none} with none, \
         {over_budget} over the node budget; of those with one, {other_mates} left out because \
         another move mates and {mate_unknown} because the mate search ran over the budget; {} \
         kept ({capped} over the per-game or total cap).\n",
        candidates.len(),
        args.min_hidden,
        args.max_balance,
        kept.len() + capped + other_mates + mate_unknown,
        kept.len()
    );
    write_suite(&args.common.out, &header, &body, w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::{Rules, View};

    /// The shipped suite's tactic.041 said `e5f3` (wins a chariot) was the only winning move,
    /// but `b3d3` mates in 5 in every reveal outcome: such a position is now left out.
    #[test]
    fn a_candidate_whose_other_move_mates_is_found() {
        let fen = "2ck3b1/4a4/R3b3p/9/4n4/2B6/1r7/Bp2P1P1P/4P4/3AKX3 b N1p3 - 0 24";
        let setup = fen::parse(fen).unwrap();
        let view = View::from_setup(&setup, &Rules::standard()).unwrap();
        let pos = view.position();
        let (e5f3, b3d3): (Move, Move) = ("e5f3".parse().unwrap(), "b3d3".parse().unwrap());
        assert_eq!(other_mate(pos, e5f3, 4, 20_000_000), Ok(None));
        let found = other_mate(pos, e5f3, 5, 20_000_000).unwrap();
        assert_eq!(found, Some(b3d3));
        assert_eq!(
            other_mate(pos, e5f3, 5, 1_000_000),
            Err(MateError::Budget),
            "over the budget"
        );
    }
}
