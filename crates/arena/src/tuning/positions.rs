//! The positions the tuner learns from: every quiet position of the recorded games of results
//! folders, labelled with the game's result (and the recorded search score), and the positions
//! of training data chunks (`--data`, labelled with their game's result and their label score),
//! split by game into the positions to fit and those held out.

use std::path::Path;

use jieqi_core::{Color, Position};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::TuneSettings;
use crate::error::Error;
use crate::records::GameResult;

/// A recorded search score in centipawns, from the searching side's view: `+1.25` pawns, or a
/// mate (`#3`, `#-2`) as ±10 000; `None` for a win rate or anything else.
fn recorded_cp(text: &str) -> Option<f64> {
    if let Some(n) = text.strip_prefix('#') {
        let n: i64 = n.parse().ok()?;
        return Some(if n > 0 { 10_000.0 } else { -10_000.0 });
    }
    if text.ends_with('%') {
        return None;
    }
    text.parse::<f64>().ok().map(|p| p * 100.0)
}

/// One kept position: its result for Red, the recorded search score (Red's side), if any.
pub type Kept = (f64, Option<f64>, Position);

/// Positions of one folder's games, with their results; `skipped` counts records left out.
struct Collected {
    /// (game key, positions).
    games: Vec<(u64, Vec<Kept>)>,
    skipped: u64,
    read: u64,
}

/// Whether the position of `game` before ply `i` is one the tuner learns from: past the first
/// `skip` plies, the game not over, the side to move not in check, the last move no capture,
/// and (with `next`, the move played from it) that move no capture either: a capture's search
/// score is mostly the capture's gain, which no static term can see. `arena label` keeps the
/// same positions (with `next`).
pub fn is_kept(
    game: &jieqi_core::Game,
    i: usize,
    skip: usize,
    next: Option<jieqi_core::Move>,
) -> bool {
    i >= skip
        && game.outcome().is_none()
        && !game.position().in_check()
        && game.records().last().is_none_or(|r| r.captured.is_none())
        && next.is_none_or(|mv| game.position().occupant(mv.to).is_none())
}

fn collect(dir: &Path, skip: usize, budget: &mut usize) -> Result<Collected, Error> {
    let mut games = Vec::new();
    let tally = crate::run::recorded_games::for_each(dir, |_rules, line, checked| {
        if *budget == 0 {
            return false;
        }
        let result = match line.result {
            GameResult::RedWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        };
        let mut game = checked.start.clone();
        let mut positions = Vec::new();
        for (i, (record, _)) in checked.plies.iter().enumerate() {
            if *budget > 0 && is_kept(&game, i, skip, None) {
                let sign = if game.turn() == Color::Red { 1.0 } else { -1.0 };
                let score = line
                    .search
                    .get(i)
                    .and_then(|info| info.score.as_deref())
                    .and_then(recorded_cp)
                    .map(|cp| sign * cp);
                positions.push((result, score, game.view(game.turn()).position().clone()));
                *budget -= 1;
            }
            game.play(record.played.mv).expect("checked");
        }
        // The game key spreads pair and game over the split.
        games.push((line.seed ^ (u64::from(line.game) << 62), positions));
        true
    })?;
    Ok(Collected {
        games,
        skipped: tally.skipped,
        read: tally.read,
    })
}

/// The positions of a training data chunk (`arena tune --data`), by game: each labelled with its
/// game's result for Red and its label score turned to Red's side; at most `budget` positions.
///
/// # Errors
/// A chunk that cannot be read or is not valid, naming the file and record.
fn collect_chunk(path: &Path, budget: &mut usize) -> Result<Vec<(u64, Vec<Kept>)>, Error> {
    let chunk = crate::records::data::read_chunk(path)?;
    let mut games: Vec<(u64, Vec<Kept>)> = chunk
        .games
        .iter()
        .map(|g| (g.seed ^ (u64::from(g.game) << 62), Vec::new()))
        .collect();
    for r in chunk.records {
        if *budget == 0 {
            break;
        }
        let game = &chunk.games[usize::from(r.game)];
        let result = match game.result {
            GameResult::RedWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        };
        let sign = if r.position.turn() == Color::Red {
            1.0
        } else {
            -1.0
        };
        let score = sign * crate::records::data::score_cp(r.score);
        games[usize::from(r.game)]
            .1
            .push((result, Some(score), r.position));
        *budget -= 1;
    }
    games.retain(|g| !g.1.is_empty());
    Ok(games)
}

/// The positions of the folders' games, split by game.
pub struct Split {
    /// The positions to fit.
    pub train: Vec<Kept>,
    /// The positions held out.
    pub held: Vec<Kept>,
    /// Games whose positions are fitted.
    pub train_games: usize,
    /// Games whose positions are held out.
    pub held_games: usize,
    /// Games read.
    pub read: u64,
    /// Records left out (engine failures or records that do not hold up).
    pub skipped: u64,
}

/// Reads the positions of `args.dirs`' games and then of `args.data`'s chunks (at most
/// `--max-positions` in all) and splits them by a seeded draw per game.
///
/// # Errors
/// A folder that cannot be read.
pub fn gather(args: &TuneSettings) -> Result<Split, Error> {
    let mut budget = args.max_positions;
    let mut all_games = Vec::new();
    let (mut read, mut skipped) = (0, 0);
    for dir in &args.dirs {
        let c = collect(dir, args.skip, &mut budget)?;
        read += c.read;
        skipped += c.skipped;
        all_games.extend(c.games);
    }
    for path in &args.data {
        let games = collect_chunk(path, &mut budget)?;
        read += games.len() as u64;
        all_games.extend(games);
    }
    // The split, by game: a seeded draw per game key.
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let threshold = (args.holdout * f64::from(u32::MAX)) as u32;
    let mut train = Vec::new();
    let mut held = Vec::new();
    let (mut train_games, mut held_games) = (0, 0);
    for (_, positions) in all_games {
        if rand_core::Rng::next_u32(&mut rng) < threshold {
            held_games += 1;
            held.extend(positions);
        } else {
            train_games += 1;
            train.extend(positions);
        }
    }
    Ok(Split {
        train,
        held,
        train_games,
        held_games,
        read,
        skipped,
    })
}
