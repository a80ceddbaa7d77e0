//! `arena suite`'s work: the settings of each kind of suite, the candidate positions read from
//! recorded games, and their proofs by exhaustive search (run in parallel; the result depends
//! on neither the thread count nor timing). The text and the file are `report::suite`'s.

use std::collections::HashSet;
use std::path::PathBuf;

use jieqi_core::{Color, Move, Position, fen};
use jieqi_search::mate::{MateError, MateProver};
use jieqi_search::tactic::TacticProver;
use rayon::prelude::*;

use crate::error::Error;

/// What every kind of suite takes.
#[derive(Debug)]
pub struct CommonPlan {
    /// Results folders whose games to mine.
    pub dirs: Vec<PathBuf>,
    /// The suite file to write: not a folder, not inside a games folder, in a writable folder.
    pub out: PathBuf,
    /// Worker threads for the proofs, 1 to 1024.
    pub threads: usize,
    /// Node budget of each proof.
    pub budget: u64,
}

/// A validated `arena suite mates`.
#[derive(Debug)]
pub struct MatesPlan {
    /// Folders, output, threads, budget.
    pub common: CommonPlan,
    /// Longest mate looked for, in moves, 1 to 8.
    pub max_moves: u32,
    /// Most positions kept per mate length.
    pub per_length: usize,
}

/// A validated `arena suite tactics`.
#[derive(Debug)]
pub struct TacticsPlan {
    /// Folders, output, threads, budget.
    pub common: CommonPlan,
    /// Material the move must win by force, in centipawns (at least 1).
    pub min_gain: i32,
    /// Full-width plies of the proof, 1 to 4.
    pub depth: u32,
    /// Fewest hidden pieces on the board for a position to count.
    pub min_hidden: u32,
    /// Plies skipped at the start of every game.
    pub skip: usize,
    /// Largest material lead of either side, in centipawns.
    pub max_balance: i32,
    /// Most positions kept from one game.
    pub per_game: usize,
    /// Most positions kept in all.
    pub max: usize,
    /// Longest mate of another move looked for, 0 to 8 moves.
    pub mate_moves: u32,
}

/// A proved mate: its length in moves and every first move that mates in that many.
pub type MateProof = (u32, Vec<Move>);

/// What the proofs say of a tactics candidate.
pub enum Tactic {
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
pub fn other_mate(
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
pub struct Candidate {
    /// Mate suites: the game's mate came this many moves later (the longest mate looked for).
    pub moves: u32,
    /// Where it came from: pair, game and ply.
    pub origin: String,
    /// Which game it came from (counting every game read).
    pub game_key: usize,
    /// Its FEN, as its suite line gives it.
    pub fen: String,
    /// The position.
    pub pos: Position,
}

/// A mate suite's candidates, and the count of the games they came from.
pub struct MateCandidates {
    /// The candidates, in folder and journal order.
    pub candidates: Vec<Candidate>,
    /// Games read.
    pub games: u64,
    /// Games left out.
    pub skipped: u64,
    /// Games that ended in mate.
    pub mated_games: u64,
    /// Positions dropped as seen before.
    pub duplicates: u64,
}

/// A tactics suite's candidates, and the count of the games they came from.
pub struct TacticCandidates {
    /// The candidates, in folder and journal order.
    pub candidates: Vec<Candidate>,
    /// Games read.
    pub games: u64,
    /// Games left out.
    pub skipped: u64,
}

/// The proofs' thread pool.
pub fn pool(common: &CommonPlan) -> Result<rayon::ThreadPool, Error> {
    let threads = common.threads;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Input(format!("cannot start {threads} threads: {e}")))
}

/// The FEN of a position with a zero no-capture count (a suite position starts afresh).
pub fn fresh_fen(pos: &Position, learned: Option<jieqi_core::ByColor<jieqi_core::Pool>>) -> String {
    let mut setup = pos.to_setup();
    setup.halfmoves = 0;
    if !pos.rules().has_hidden() {
        return Position::from_setup(&setup, pos.rules()).map_or_else(|_| pos.fen(), |p| p.fen());
    }
    setup.captured_hidden = learned;
    fen::write(&setup)
}

/// The positions of the games in `args`' folders 1, 3, 5, … plies before their mate, each
/// position once.
///
/// # Errors
/// A folder cannot be read, or its games have hidden pieces.
pub fn mate_candidates(args: &MatesPlan) -> Result<MateCandidates, Error> {
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
    Ok(MateCandidates {
        candidates,
        games,
        skipped,
        mated_games,
        duplicates,
    })
}

/// Proves each candidate's shortest mate (at most as long as its game's) and its mating first
/// moves, calling `proved` after each.
pub fn prove_mates(
    pool: &rayon::ThreadPool,
    budget: u64,
    candidates: &[Candidate],
    proved: &(dyn Fn() + Sync),
) -> Vec<Result<Option<MateProof>, MateError>> {
    pool.install(|| {
        candidates
            .par_iter()
            .map(|c| {
                // A game's mate N moves later bounds the search: longer mates are not looked for.
                let mut prover = MateProver::new(budget);
                let proof = match prover.shortest(&c.pos, c.moves) {
                    Ok(Some(n)) => prover.mating_moves(&c.pos, n).map(|m| Some((n, m))),
                    other => other.map(|_| None),
                };
                proved();
                proof
            })
            .collect()
    })
}

/// Red's material minus Black's in centipawns ([`jieqi_search::tactic::value`]), a hidden piece
/// counted at the mean value of its owner's pool; the sign is from the side to move.
pub fn material_lead(pos: &Position) -> f64 {
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

/// The positions of the games in `args`' folders that may hold a tactic (not in check, the last
/// move not a capture, enough hidden pieces, material balanced), each position once.
///
/// # Errors
/// A folder cannot be read, or (unless `--min-hidden 0`) no game has a hidden piece.
pub fn tactic_candidates(args: &TacticsPlan) -> Result<TacticCandidates, Error> {
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
    Ok(TacticCandidates {
        candidates,
        games,
        skipped,
    })
}

/// Proves what each candidate's moves win (`None`: over the budget), and looks for another
/// move's mate where one move wins, calling `proved` after each.
pub fn prove_tactics(
    args: &TacticsPlan,
    pool: &rayon::ThreadPool,
    candidates: &[Candidate],
    proved: &(dyn Fn() + Sync),
) -> Vec<Option<Tactic>> {
    let (budget, depth, gain) = (args.common.budget, args.depth, args.min_gain);
    let mate_moves = args.mate_moves;
    pool.install(|| {
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
                proved();
                proof
            })
            .collect()
    })
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
