//! `arena replay`: replays one seeded game exactly, ply by ply, for debugging ("replay deal 4711,
//! ply 38"), or checks a game recorded in a results folder against a fresh replay.

use std::io::Write;
use std::path::{Path, PathBuf};

use std::time::Duration;

use jieqi_core::{ByColor, Color, Rules};
use jieqi_engine::{Limits, Spec};

use crate::board_text::{BoardStyle, position_board, truth_board};
use crate::engines::EngineEntry;
use crate::game_runner::{GameSpec, play_game};
use crate::records::{self, GameLine, result_text};
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

/// Replays and prints; with a recorded game, says "identical" or shows the first differing ply.
/// Returns whether the replay matched (always true without a recorded game).
///
/// # Errors
/// Writing fails.
pub fn run(plan: &ReplayPlan, w: &mut dyn Write) -> std::io::Result<bool> {
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
            let ply = game.ply();
            let mut line = format!(
                "{ply:4}. {:5} {:8}",
                record.mover.name(),
                record.played.to_text(record.mover)
            );
            if let Some(r) = record.played.reveal {
                line.push_str(&format!(" revealed {}", r.name()));
            }
            if let Some(p) = record.captured {
                line.push_str(&format!(
                    " captured {}{}",
                    if record.captured_hidden {
                        "hidden "
                    } else {
                        ""
                    },
                    p.role.name()
                ));
            }
            if record.check {
                line.push_str(" check");
            }
            let info = &choice.info;
            line.push_str(&format!("  | nodes {}", info.nodes));
            if let Some(d) = info.depth {
                line.push_str(&format!(" depth {d}"));
            }
            if let Some(s) = info.score {
                line.push_str(&format!(" score {s}"));
            }
            if info.pv.len() > 1 {
                let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
                line.push_str(&format!(" pv {}", pv.join(" ")));
            }
            lines.push(line);
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
