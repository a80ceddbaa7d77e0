//! `arena replay`: replays one seeded game exactly, ply by ply, for debugging ("replay deal 4711,
//! ply 38"), checks a game recorded in a results folder against a fresh replay, or shows the
//! recorded game as it was played (`--show`, and by default when its limits are not
//! reproducible).

use std::io::Write;
use std::path::{Path, PathBuf};

use std::time::Duration;

use jieqi_core::{ByColor, Color, Rules};
use jieqi_engine::{Limits, Spec};

use crate::board_text::{BoardStyle, position_board, truth_board};
use crate::engines::EngineEntry;
use crate::game_runner::{GameSpec, play_game};
use crate::records::{self, GameLine, PlyInfo, result_text};
use crate::run::MatchSetup;
use crate::time_control::TimeControl;

/// A validated replay.
#[derive(Debug)]
pub struct ReplayPlan {
    /// Rules.
    pub rules: Rules,
    /// Red's engine.
    pub red: EngineEntry,
    /// Black's engine.
    pub black: EngineEntry,
    /// Deal seed.
    pub deal_seed: u64,
    /// Limits.
    pub limits: Limits,
    /// The clock, as the match had it (a clock game replays only approximately).
    pub tc: Option<TimeControl>,
    /// The clock margin.
    pub timemargin: Duration,
    /// The hard limit of one move.
    pub move_timeout: Option<Duration>,
    /// Cap.
    pub max_plies: u32,
    /// Omniscient sides.
    pub omniscient: ByColor<bool>,
    /// Stop after this ply and show the board.
    pub stop_at: Option<usize>,
    /// Draw the board after every ply.
    pub boards: bool,
    /// Board style.
    pub style: BoardStyle,
    /// The recorded game to compare with, and where it came from.
    pub expected: Option<(GameLine, PathBuf)>,
    /// Show the recorded game instead of playing it again: `Some(why)` (empty when asked for
    /// with `--show`).
    pub show: Option<String>,
    /// Where the recorded game was found, said first (`game 37 is pair 18, game 1 of …`).
    pub located: Option<String>,
}

/// Why a recorded game would not come out the same when played again, if it would not: time
/// limits (`tc`, `movetime`, an external engine without a node or depth limit, which is sent
/// `go movetime 1000`) or an ending that depends on the machine (a timeout, a time forfeit, a
/// crash).
pub fn not_reproducible(
    setup: &MatchSetup,
    line: &GameLine,
    red: &EngineEntry,
    black: &EngineEntry,
) -> Option<String> {
    use crate::game_runner::Termination;
    if setup.tc.is_some() {
        return Some(format!(
            "the run played on a clock (--tc {})",
            setup.tc.map(|t| t.to_string()).unwrap_or_default()
        ));
    }
    if let Some(ms) = setup.movetime_ms {
        return Some(format!("the run limited moves by time (--movetime {ms})"));
    }
    for e in [red, black] {
        if e.limits.tc.is_some() || e.limits.movetime.is_some() {
            return Some(format!("engine '{}' plays on time ({})", e.label, e.limits));
        }
        let run = setup.limits();
        if e.external && run.nodes.is_none() && run.depth.is_none() && e.limits.is_empty() {
            return Some(format!(
                "external engine '{}' had no node or depth limit (it was sent go movetime 1000)",
                e.label
            ));
        }
    }
    match line.reason {
        Termination::Timeout | Termination::TimeForfeit | Termination::EngineCrash => {
            Some(format!(
                "it ended by {}, which depends on the machine and its load",
                line.reason.name()
            ))
        }
        _ => None,
    }
}

/// The folder, pair and game (1 or 2) of game `number` of a results folder, and a sentence saying
/// where it is when that is not the folder itself. In a match folder, game N is game
/// `(N − 1) % 2 + 1` of pair `(N − 1) / 2`; in a run of several pairings (`tournament`, `leak`)
/// it is that of job `(N − 1) / 2`, which is pair `job / pairings` of pairing `job % pairings`,
/// whose own folder numbers it again from its pairs.
///
/// # Errors
/// No recorded run in `dir`, or no such game number.
pub fn locate(dir: &Path, number: u64) -> Result<(PathBuf, u64, u8, Option<String>), String> {
    let (job, game) = records::job_of_number(number)
        .ok_or_else(|| "game numbers start at 1 (the `number` column of games.csv)".to_string())?;
    let (path, record, setup) = crate::run::recorded_run(dir)?;
    let np = setup.pairings.len() as u64;
    let (pair, i) = (job / np, (job % np) as usize);
    if pair >= record.pairs {
        return Err(format!(
            "{} records {} pairs ({} games): there is no game {number}",
            path.display(),
            record.pairs,
            record.pairs.saturating_mul(2 * np)
        ));
    }
    if np == 1 {
        return Ok((dir.to_path_buf(), pair, game, None));
    }
    let folder = dir.join(crate::leak::arm_folder(&setup, i));
    let note = format!(
        "game {number} of {} is pair {pair}, game {game} of {} (game {} there)",
        dir.display(),
        folder.display(),
        records::game_number(pair, game)
    );
    Ok((folder, pair, game, Some(note)))
}

/// Reads `match.json` and the recorded game of a results folder.
///
/// # Errors
/// Missing or corrupt files, or no such pair/game; the message names the file.
pub fn load_recorded(
    dir: &Path,
    pair: u64,
    game: u8,
) -> Result<(MatchSetup, GameLine, PathBuf), String> {
    let setup_path = dir.join("match.json");
    if !setup_path.exists() && dir.join("tournament.json").is_file() {
        let mut pairings: Vec<String> = std::fs::read_dir(dir.join("pairings"))
            .map(|d| {
                d.flatten()
                    .map(|e| e.path().display().to_string())
                    .collect()
            })
            .unwrap_or_default();
        pairings.sort();
        return Err(format!(
            "{} is a tournament folder: replay a game of one of its pairings ({})",
            dir.display(),
            pairings
                .first()
                .map_or("under pairings/".into(), |p| format!("e.g. {p}"))
        ));
    }
    let text =
        crate::journal::read_bounded(&setup_path, crate::journal::MAX_SMALL_FILE).map_err(|e| {
            format!(
                "{}: cannot read ({e}); is {} a results folder of `arena match`?",
                setup_path.display(),
                dir.display()
            )
        })?;
    let setup: MatchSetup =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", setup_path.display()))?;
    let journal = dir.join("games.jsonl");
    let (games, _) = records::read_jsonl(&journal).map_err(|e| e.to_string())?;
    let line = games
        .into_iter()
        .find(|g| g.pair == pair && g.game == game)
        .ok_or_else(|| {
            format!(
                "{}: no record of pair {pair} game {game}",
                journal.display()
            )
        })?;
    Ok((setup, line, journal))
}

/// Builds an engine entry from a recorded (label, spec) pair.
///
/// # Errors
/// The spec no longer parses or names an unknown engine.
pub fn entry(label: &str, spec: &str) -> Result<EngineEntry, String> {
    let spec = Spec::parse(spec).map_err(|e| e.to_string())?;
    let mut entry =
        crate::engines::from_spec(label.to_string(), spec).map_err(|e| e.to_string())?;
    // The recorded label wins over a `name=` in the spec: a leak run's omniscient copy of an
    // engine carries the engine's spec under another label.
    entry.label = label.to_string();
    Ok(entry)
}

/// One ply as replay and show print it: number, side, move, what it revealed and captured, check,
/// and the engine's search info.
fn ply_line(ply: usize, record: &jieqi_core::Record, info: &PlyInfo) -> String {
    let mut line = format!(
        "{ply:4}. {:5} {:8}",
        record.mover.name(),
        record.played.to_text(record.mover)
    );
    if let Some(r) = record.played.reveal {
        line.push_str(&format!(" revealed {}", r.name()));
    }
    if let Some(p) = record.captured {
        let hidden = if record.captured_hidden {
            "hidden "
        } else {
            ""
        };
        line.push_str(&format!(" captured {hidden}{}", p.role.name()));
    }
    if record.check {
        line.push_str(" check");
    }
    line.push_str(&format!("  | nodes {}", info.nodes));
    if let Some(d) = info.depth {
        line.push_str(&format!(" depth {d}"));
    }
    if let Some(s) = &info.score {
        line.push_str(&format!(" score {s}"));
    }
    if let Some(ms) = info.ms {
        line.push_str(&format!(" {ms:.1} ms"));
    }
    if info.pv.len() > 1 {
        line.push_str(&format!(" pv {}", info.pv.join(" ")));
    }
    line
}

/// Replays and prints; with a recorded game, says "identical" or shows the first differing ply
/// (or shows the record, see [`ReplayPlan::show`]). Returns whether the replay matched, or the
/// record was consistent (always true without a recorded game).
///
/// # Errors
/// Writing fails.
pub fn run(plan: &ReplayPlan, w: &mut dyn Write) -> std::io::Result<bool> {
    if let Some(note) = &plan.located {
        writeln!(w, "{note}")?;
    }
    if let (Some(why), Some((line, path))) = (&plan.show, &plan.expected) {
        if !why.is_empty() {
            writeln!(
                w,
                "Not played again: {why}, so a replay may differ. The recorded game follows \
                 (--recheck plays it again anyway)."
            )?;
        }
        return show(plan, line, path, w);
    }
    let player = |entry, omniscient| {
        crate::run::player(entry, &plan.limits, plan.tc, plan.move_timeout, omniscient)
    };
    let spec = GameSpec {
        rules: &plan.rules,
        deal_seed: plan.deal_seed,
        players: ByColor {
            red: player(&plan.red, plan.omniscient.red),
            black: player(&plan.black, plan.omniscient.black),
        },
        max_plies: plan
            .stop_at
            .map_or(plan.max_plies, |k| (k as u32).min(plan.max_plies)),
        timemargin: plan.timemargin,
        logs: ByColor::default(),
    };
    writeln!(
        w,
        "Replay: deal seed {}, rules {}, red {} vs black {} ({})",
        plan.deal_seed, plan.rules.name, plan.red.label, plan.black.label, plan.limits
    )?;
    let deal = crate::deal_for_seed(plan.deal_seed, &plan.rules);
    if plan.rules.has_hidden() {
        writeln!(
            w,
            "Deal: red {}  black {}",
            deal.side_string(Color::Red),
            deal.side_string(Color::Black)
        )?;
    }
    let mut lines: Vec<String> = Vec::new();
    let mut boards: Vec<String> = Vec::new();
    let style = plan.style;
    let every = plan.boards;
    let mut observer =
        |game: &jieqi_core::Game, record: &jieqi_core::Record, choice: &jieqi_engine::Choice| {
            let info = &choice.info;
            let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
            lines.push(ply_line(
                game.ply(),
                record,
                &PlyInfo {
                    nodes: info.nodes,
                    ms: None,
                    depth: info.depth,
                    score: info.score.map(|s| s.to_string()),
                    pv,
                },
            ));
            boards.push(if every {
                truth_board(game.truth(), style)
            } else {
                String::new()
            });
        };
    let played = play_game(&spec, Some(&mut observer));
    let moves: Vec<String> = played.plies.iter().map(|p| p.text()).collect();
    for (line, board) in lines.iter().zip(&boards) {
        writeln!(w, "{line}")?;
        if !board.is_empty() {
            writeln!(w, "{board}")?;
        }
    }
    // The final (or --ply) position, with every hidden identity shown: this is the referee's view.
    let mut game = jieqi_core::Game::new(plan.rules, deal);
    for m in &moves {
        let mv = jieqi_core::Move::from_text(&m[..4]).expect("recorded move text");
        game.play(mv).expect("replayed move");
    }
    writeln!(
        w,
        "\nPosition after ply {} (public board, X/x hidden):",
        game.ply()
    )?;
    writeln!(w, "{}", position_board(game.position(), style))?;
    writeln!(
        w,
        "The same with every hidden identity (truth, referee only):"
    )?;
    writeln!(w, "{}", truth_board(game.truth(), style))?;
    writeln!(w, "fen: {}", game.position().fen())?;
    let stopped_early = plan
        .stop_at
        .is_some_and(|k| moves.len() >= k && k < plan.max_plies as usize);
    if !stopped_early {
        writeln!(
            w,
            "Result: {} ({}{})",
            result_text(played.winner),
            played.termination.name(),
            played
                .detail
                .as_ref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        )?;
    }
    let Some((expected, path)) = &plan.expected else {
        return Ok(true);
    };
    if plan.tc.is_some() || plan.red.limits.tc.is_some() || plan.black.limits.tc.is_some() {
        writeln!(
            w,
            "note: this game was played on a clock; engines that use their clock think for as \
             long as the machine lets them, so a replay may differ"
        )?;
    }
    let dealt = (
        played.deal.side_string(Color::Red),
        played.deal.side_string(Color::Black),
    );
    if (&expected.deal.red, &expected.deal.black) != (&dealt.0, &dealt.1) {
        writeln!(
            w,
            "DIFFERENT: the record's deal (red {}, black {}) is not the deal of its seed {} (red \
             {}, black {}): the record was altered, or another harness version wrote it",
            expected.deal.red, expected.deal.black, expected.seed, dealt.0, dealt.1
        )?;
        return Ok(false);
    }
    let upto = plan.stop_at.unwrap_or(usize::MAX);
    let want: Vec<&String> = expected.moves.iter().take(upto).collect();
    let got: Vec<&String> = moves.iter().take(upto).collect();
    let whole = plan.stop_at.is_none_or(|k| k >= want.len().max(got.len()));
    let ending = (expected.result, expected.reason);
    let replayed = (
        crate::records::GameResult::of(played.winner),
        played.termination,
    );
    match want.iter().zip(&got).position(|(a, b)| a != b) {
        None if want.len() == got.len() && whole && ending != replayed => {
            writeln!(
                w,
                "DIFFERENT: the same {} plies, but the record ends {} ({}) and the replay {} ({})",
                got.len(),
                ending.0.text(),
                ending.1.name(),
                replayed.0.text(),
                replayed.1.name()
            )?;
            Ok(false)
        }
        None if want.len() == got.len() => {
            writeln!(
                w,
                "identical: {} plies match {} (pair {}, game {})",
                got.len(),
                path.display(),
                expected.pair,
                expected.game
            )?;
            Ok(true)
        }
        None => {
            writeln!(
                w,
                "DIFFERENT: the recorded game has {} plies, the replay {} (the common {} agree)",
                want.len(),
                got.len(),
                want.len().min(got.len())
            )?;
            Ok(false)
        }
        Some(i) => {
            writeln!(
                w,
                "DIFFERENT at ply {}: recorded {}, replayed {}",
                i + 1,
                want[i],
                got[i]
            )?;
            Ok(false)
        }
    }
}

/// Prints the recorded game ply by ply from the record alone (no engine runs), checking that it
/// is a game of its deal: every move legal, its reveal and capture letters the truth. Returns
/// whether the record was consistent.
fn show(
    plan: &ReplayPlan,
    line: &GameLine,
    path: &Path,
    w: &mut dyn Write,
) -> std::io::Result<bool> {
    writeln!(
        w,
        "Recorded game: pair {}, game {} of {}; deal seed {}, rules {}, red {} vs black {} ({})",
        line.pair,
        line.game,
        path.display(),
        line.seed,
        plan.rules.name,
        line.red,
        line.black,
        plan.limits
    )?;
    let deal = crate::deal_for_seed(line.seed, &plan.rules);
    let dealt = (deal.side_string(Color::Red), deal.side_string(Color::Black));
    if (&line.deal.red, &line.deal.black) != (&dealt.0, &dealt.1) {
        writeln!(
            w,
            "INCONSISTENT: the record's deal (red {}, black {}) is not the deal of its seed {} \
             (red {}, black {}): the record was altered, or another harness version wrote it",
            line.deal.red, line.deal.black, line.seed, dealt.0, dealt.1
        )?;
        return Ok(false);
    }
    if plan.rules.has_hidden() {
        writeln!(w, "Deal: red {}  black {}", dealt.0, dealt.1)?;
    }
    let mut game = jieqi_core::Game::new(plan.rules, deal);
    let upto = plan.stop_at.unwrap_or(usize::MAX);
    for (i, text) in line.moves.iter().enumerate().take(upto) {
        let mover = game.turn();
        let bad = |why: String| format!("INCONSISTENT at ply {}: recorded {text}: {why}", i + 1);
        let played = match jieqi_core::PlayedMove::from_text(text, mover) {
            Ok(p) => p,
            Err(e) => {
                writeln!(w, "{}", bad(e.to_string()))?;
                return Ok(false);
            }
        };
        let record = match game.play(played.mv) {
            Ok(r) => *r,
            Err(e) => {
                writeln!(w, "{}", bad(format!("not legal here ({e})")))?;
                return Ok(false);
            }
        };
        let truth = record.played.to_text(mover);
        if truth != *text {
            writeln!(w, "{}", bad(format!("the deal makes it {truth}")))?;
            return Ok(false);
        }
        let info = line.search.get(i).cloned().unwrap_or(PlyInfo {
            nodes: 0,
            ms: None,
            depth: None,
            score: None,
            pv: Vec::new(),
        });
        writeln!(w, "{}", ply_line(game.ply(), &record, &info))?;
        if plan.boards {
            writeln!(w, "{}", position_board(game.position(), plan.style))?;
            writeln!(w, "{}", truth_board(game.truth(), plan.style))?;
        }
    }
    writeln!(
        w,
        "\nPosition after ply {} (public board, X/x hidden):",
        game.ply()
    )?;
    writeln!(w, "{}", position_board(game.position(), plan.style))?;
    writeln!(
        w,
        "The same with every hidden identity (truth, referee only):"
    )?;
    writeln!(w, "{}", truth_board(game.truth(), plan.style))?;
    writeln!(w, "fen: {}", game.position().fen())?;
    if game.ply() < line.moves.len() {
        return Ok(true);
    }
    writeln!(
        w,
        "Result: {} ({}{})",
        line.result.text(),
        line.reason.name(),
        line.detail
            .as_ref()
            .map(|d| format!(": {d}"))
            .unwrap_or_default()
    )?;
    // An ending by the rules must be the rules' verdict on the final position.
    if let crate::game_runner::Termination::Rules(_) = line.reason {
        let by_rules = game.outcome().map(|o| {
            (
                records::GameResult::of(o.winner),
                crate::game_runner::Termination::Rules(crate::game_runner::ReasonKey::new(
                    o.reason,
                )),
            )
        });
        if by_rules != Some((line.result, line.reason)) {
            writeln!(
                w,
                "INCONSISTENT: the rules say {} for the final position",
                by_rules.map_or("the game goes on".to_string(), |(r, t)| format!(
                    "{} ({})",
                    r.text(),
                    t.name()
                ))
            )?;
            return Ok(false);
        }
    }
    Ok(true)
}
