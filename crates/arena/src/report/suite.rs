//! `arena suite`'s text and file: a suite's header comments (what was read and proved) and its
//! lines, written atomically, the header also printed for people.

use std::io::Write;

use jieqi_core::Move;
use jieqi_search::mate::MateError;

use crate::analysis::suite::{
    MateCandidates, MateProof, MatesPlan, Tactic, TacticCandidates, TacticsPlan,
};
use crate::error::Error;

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

/// Keeps at most `--per-length` proved positions per mate length, and writes and prints the
/// mate suite.
///
/// # Errors
/// The file cannot be written (exit 4).
pub fn mates(
    args: &MatesPlan,
    found: &MateCandidates,
    proofs: &[Result<Option<MateProof>, MateError>],
    w: &mut dyn Write,
) -> Result<(), Error> {
    let MateCandidates {
        candidates,
        games,
        skipped,
        mated_games,
        duplicates,
    } = found;
    let max = args.max_moves;
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

/// Keeps the positions with one winning move and no other mate, at most `--per-game` of a
/// game and `--max` in all, and writes and prints the tactics suite.
///
/// # Errors
/// The file cannot be written (exit 4).
pub fn tactics(
    args: &TacticsPlan,
    found: &TacticCandidates,
    proofs: &[Option<Tactic>],
    w: &mut dyn Write,
) -> Result<(), Error> {
    let TacticCandidates {
        candidates,
        games,
        skipped,
    } = found;
    let (depth, gain, mate_moves) = (args.depth, args.min_gain, args.mate_moves);
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
