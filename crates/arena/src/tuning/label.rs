//! `arena label`'s work: the quiet positions of results folders' games, each labelled by a deeper
//! search than the games' own, written as one training data chunk ([`crate::records::data`]).
//!
//! The positions are those the tuner keeps ([`super::positions::is_kept`], the played move no
//! capture either), in the folders' order and the games' order, the first `positions` of them.
//! Each game is labelled by a fresh label engine that searches its kept positions in turn, as
//! the side to move sees them, at `nodes` nodes with seed `mix(deal seed, ply)`: games are
//! labelled in parallel, but each label depends only on its game, so the chunk's bytes are the
//! same at any `--threads`. Ctrl-C stops the labelling and writes nothing.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use jieqi_core::{Game, Move, Rules};
use jieqi_engine::{Factory, Limits};
use rayon::prelude::*;

use crate::error::Error;
use crate::records::data::{Chunk, GameInfo, Record, label_score};

/// What `arena label` reads, how it labels and where it writes (validated by
/// `crate::plan::label`).
pub struct LabelSettings {
    /// Results folders whose games to read.
    pub dirs: Vec<PathBuf>,
    /// The chunk to write (`.jqd`); its provenance goes beside it (`.json`).
    pub out: PathBuf,
    /// The label engine's spec, as given.
    pub engine: String,
    /// The label engine.
    pub factory: Factory,
    /// Nodes of each label search.
    pub nodes: u64,
    /// Positions in the chunk, exactly.
    pub positions: usize,
    /// Plies skipped at the start of every game.
    pub skip: usize,
    /// Games labelled at once.
    pub threads: usize,
}

impl std::fmt::Debug for LabelSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LabelSettings")
            .field("dirs", &self.dirs)
            .field("out", &self.out)
            .field("engine", &self.engine)
            .field("nodes", &self.nodes)
            .field("positions", &self.positions)
            .field("skip", &self.skip)
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

impl LabelSettings {
    /// The provenance file beside the chunk: the same name with `.json`.
    pub fn provenance_path(&self) -> PathBuf {
        self.out.with_extension("json")
    }
}

/// One game to label: where it comes from, its start and moves, and the plies kept.
struct Source {
    info: GameInfo,
    start: Game,
    moves: Vec<Move>,
    kept: Vec<usize>,
}

/// How labelling ended.
pub enum Labelled {
    /// The chunk and the seconds its labelling took.
    Done(Chunk, f64),
    /// Ctrl-C stopped it; nothing is written.
    Interrupted,
}

/// The games of the folders with their kept plies, up to `positions` plies in all, and the rules.
fn sources(args: &LabelSettings) -> Result<(Rules, Vec<Source>), Error> {
    let mut left = args.positions;
    let mut out = Vec::new();
    let mut rules_seen: Option<Rules> = None;
    for dir in &args.dirs {
        let mut refused = None;
        crate::run::recorded_games::for_each(dir, |rules, line, checked| {
            match &rules_seen {
                Some(r) if r != rules => {
                    refused = Some((
                        dir.clone(),
                        "has games under other rules than the folders before it: a chunk \
                         holds one rule set",
                    ));
                    return false;
                }
                _ => rules_seen = Some(*rules),
            }
            let mut game = checked.start.clone();
            let mut kept = Vec::new();
            let mut moves = Vec::new();
            for (i, (record, _)) in checked.plies.iter().enumerate() {
                let mv = record.played.mv;
                if left > 0
                    && i <= usize::from(u16::MAX)
                    && super::positions::is_kept(&game, i, args.skip, Some(mv))
                {
                    kept.push(i);
                    left -= 1;
                }
                moves.push(mv);
                game.play(mv).expect("checked");
            }
            let Ok(pair) = u32::try_from(line.pair) else {
                refused = Some((
                    dir.clone(),
                    "has a pair beyond 2^32 (a chunk's pair is a u32)",
                ));
                return false;
            };
            if !kept.is_empty() {
                out.push(Source {
                    info: GameInfo {
                        seed: line.seed,
                        pair,
                        game: line.game,
                        result: line.result,
                    },
                    start: checked.start.clone(),
                    moves,
                    kept,
                });
            }
            left > 0
        })?;
        if let Some((dir, what)) = refused {
            return Err(Error::Input(format!("{} {what}", dir.display())));
        }
        if left == 0 {
            break;
        }
    }
    let found = args.positions - left;
    if left > 0 {
        return Err(Error::Input(format!(
            "the games give {found} positions to label, {} are asked for (--positions): play \
             more games",
            args.positions
        )));
    }
    if out.len() > crate::records::data::MAX_GAMES {
        return Err(Error::Input(format!(
            "{} games for {} positions: a chunk holds at most {} games",
            out.len(),
            args.positions,
            crate::records::data::MAX_GAMES
        )));
    }
    Ok((rules_seen.unwrap_or_else(Rules::standard), out))
}

/// The labelled positions of one game (index `index` in the chunk), or `None` once Ctrl-C is
/// asked for.
fn label_game(
    args: &LabelSettings,
    rules: &Rules,
    index: usize,
    source: &Source,
    progress: &Progress<'_>,
) -> Result<Option<Vec<Record>>, Error> {
    let mut engine = args.factory.build();
    let failed = |ply: usize, e: jieqi_engine::EngineError| {
        Error::Input(format!(
            "label engine {} on pair {} game {} ply {ply}: {e}",
            args.engine, source.info.pair, source.info.game
        ))
    };
    engine.prepare(rules).map_err(|e| failed(0, e))?;
    let limits = Limits {
        nodes: Some(args.nodes),
        ..Limits::default()
    };
    let mut game = source.start.clone();
    let mut out = Vec::with_capacity(source.kept.len());
    let mut kept = source.kept.iter().peekable();
    for (i, mv) in source.moves.iter().enumerate() {
        if kept.peek() == Some(&&i) {
            kept.next();
            if crate::util::interrupt::requested() {
                return Ok(None);
            }
            let view = game.view(game.turn());
            let choice = engine
                .go(
                    &view,
                    &limits,
                    jieqi_engine::mix(source.info.seed, i as u64),
                )
                .map_err(|e| failed(i, e))?;
            out.push(Record {
                position: view.position().clone(),
                score: label_score(choice.info.score),
                depth: choice.info.depth.unwrap_or(0).min(255) as u8,
                game: index as u16,
                ply: i as u16,
            });
            (progress.tell)(progress.done.fetch_add(1, Ordering::Relaxed) + 1);
        }
        game.play(*mv).expect("checked");
    }
    Ok(Some(out))
}

/// Positions labelled so far, and whom to tell (with the count, after each one).
struct Progress<'a> {
    done: AtomicUsize,
    tell: &'a (dyn Fn(usize) + Sync),
}

/// Reads the folders' games and labels their first `positions` quiet positions; `tell` hears
/// the count of positions labelled after each one (from any thread).
///
/// # Errors
/// A folder that cannot be read, too few positions, a label engine that fails, threads that do
/// not start.
pub fn label(args: &LabelSettings, tell: &(dyn Fn(usize) + Sync)) -> Result<Labelled, Error> {
    let progress = Progress {
        done: AtomicUsize::new(0),
        tell,
    };
    let (rules, sources) = sources(args)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| Error::Input(format!("cannot start {} threads: {e}", args.threads)))?;
    let started = Instant::now();
    let labelled: Vec<Result<Option<Vec<Record>>, Error>> = pool.install(|| {
        sources
            .par_iter()
            .enumerate()
            .map(|(i, s)| label_game(args, &rules, i, s, &progress))
            .collect()
    });
    let secs = started.elapsed().as_secs_f64();
    let mut records = Vec::with_capacity(args.positions);
    for game in labelled {
        match game? {
            Some(r) => records.extend(r),
            None => return Ok(Labelled::Interrupted),
        }
    }
    if crate::util::interrupt::requested() {
        return Ok(Labelled::Interrupted);
    }
    let games = sources.into_iter().map(|s| s.info).collect();
    Ok(Labelled::Done(
        Chunk {
            rules,
            games,
            records,
        },
        secs,
    ))
}

/// The chunk's provenance: what made it and from what (see docs/data.md).
pub fn provenance(args: &LabelSettings, chunk: &Chunk, bytes: &[u8]) -> serde_json::Value {
    use sha2::{Digest, Sha256};
    let build = crate::records::build::Build::current(&[]);
    let runs: Vec<serde_json::Value> = args
        .dirs
        .iter()
        .map(|d| {
            let record = crate::run::folder::recorded_run(d)
                .ok()
                .and_then(|(path, _, _)| std::fs::read(path).ok())
                .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok());
            serde_json::json!({ "folder": d.display().to_string(), "record": record })
        })
        .collect();
    let pairs = chunk.games.iter().map(|g| g.pair);
    let sha: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    serde_json::json!({
        "format": "jqd",
        "version": crate::records::data::VERSION,
        "file": args.out.file_name().map(|n| n.to_string_lossy().into_owned()),
        "positions": chunk.records.len(),
        "games": chunk.games.len(),
        "bytes": bytes.len(),
        "sha256": sha,
        "arena": build.version,
        "commit": build.commit,
        "dirty": build.dirty,
        "command": std::env::args().collect::<Vec<_>>(),
        "label": {
            "engine": args.engine,
            "nodes": args.nodes,
            "skip": args.skip,
            "kept": "not in check, last move and next move no capture",
            "engine_seed": "mix(deal seed, ply)",
        },
        "pairs": [pairs.clone().min(), pairs.max()],
        "runs": runs,
    })
}
