//! `arena replay`: replays one seeded game exactly, ply by ply, for debugging ("replay deal 4711,
//! ply 38"), checks a game recorded in a results folder against a fresh replay, or shows the
//! recorded game as it was played (`--show`, and by default when its limits are not
//! reproducible).

//!
//! The text is `report::replay`'s.

use std::io::Write;

use jieqi_core::ByColor;

use crate::error::Error;
use crate::plan::replay::{ReplayPlan, Show};
use crate::records::{PlyInfo, result_text};
use crate::report::replay::{MARKS, compare, final_position, ply_line, show, sides};
use crate::run::game_runner::{GameSpec, play_game};

/// Replays and prints; with a recorded game, says "identical" or shows the first differing ply
/// (or shows the record, see [`ReplayPlan::show`]). Returns whether the replay matched, or the
/// record was consistent (always true without a recorded game): a replay that differs is a
/// result (exit status 3), not an error.
///
/// # Errors
/// Writing fails ([`Error::Output`]).
pub fn run(plan: &ReplayPlan, w: &mut dyn Write) -> Result<bool, Error> {
    replay(plan, w).map_err(Error::Output)
}

/// What [`run`] does, on an I/O result.
fn replay(plan: &ReplayPlan, w: &mut dyn Write) -> std::io::Result<bool> {
    if let Some(note) = &plan.located {
        writeln!(w, "{note}")?;
    }
    if let (Some(reason), Some((line, path))) = (&plan.show, &plan.expected) {
        if let Show::NotReproducible(why) = reason {
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
        opening: plan.opening.as_ref(),
        players: ByColor {
            red: player(&plan.red, plan.omniscient.red),
            black: player(&plan.black, plan.omniscient.black),
        },
        max_plies: plan
            .stop_at
            .map_or(plan.max_plies, |k| (k as u32).min(plan.max_plies)),
        adjudication: plan.adjudication,
        timemargin: plan.timemargin,
        logs: ByColor::default(),
        stop: None,
    };
    writeln!(
        w,
        "Replay: deal seed {}, rules {}, {}",
        plan.deal_seed,
        plan.rules.name,
        sides(plan)
    )?;
    let start =
        crate::records::openings::start_game(plan.deal_seed, &plan.rules, plan.opening.as_ref());
    if let Some(o) = &plan.opening {
        writeln!(w, "Opening: {}", o.fen())?;
    }
    if plan.rules.has_hidden() {
        let deal = crate::records::openings::deal_text(&start);
        writeln!(w, "Deal: red {}  black {}", deal.red, deal.black)?;
    }
    let mut lines: Vec<String> = Vec::new();
    let mut boards: Vec<String> = Vec::new();
    let style = plan.style;
    let every = plan.boards;
    let mut observer = |game: &jieqi_core::Game,
                        record: &jieqi_core::Record,
                        choice: &jieqi_engine::Choice,
                        _ms: f64| {
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
            crate::report::replay::boards(game, style)
        } else {
            String::new()
        });
    };
    let played = play_game(&spec, Some(&mut observer));
    let moves: Vec<String> = played.plies.iter().map(|p| p.text()).collect();
    if every {
        writeln!(w, "{MARKS}")?;
    }
    for (line, board) in lines.iter().zip(&boards) {
        writeln!(w, "{line}")?;
        write!(w, "{board}")?;
    }
    // The final (or --ply) position, with every hidden identity shown: this is the referee's view.
    let mut game = start;
    for m in &moves {
        let mv = jieqi_core::Move::from_text(&m[..4]).expect("recorded move text");
        game.play(mv).expect("replayed move");
    }
    final_position(&game, style, w)?;
    if let Some(k) = plan.stop_at.filter(|&k| k > moves.len()) {
        writeln!(
            w,
            "note: --ply {k} is past the game's end at ply {}: this is its final position",
            moves.len()
        )?;
    }
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
    compare(plan, &played, &moves, expected, path, w)
}
