//! `arena replay`'s text: the replay's settings, each ply's line, the boards and final
//! position, the verdict of a replay against its record, and a recorded game shown from its
//! record alone.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use jieqi_core::{ByColor, Rules};
use jieqi_engine::Limits;

use crate::engines::EngineEntry;
use crate::engines::time_control::TimeControl;
use crate::records::check::check_record;
use crate::records::{GameLine, PlyInfo};
use crate::report::board_text::{BoardStyle, Glyphs, position_board, truth_board};
use crate::run::game_runner::PlayedGame;
use crate::util::text::printable;

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
    /// The opening the game starts from (a recorded game of a run with a book).
    pub opening: Option<jieqi_core::Position>,
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
    /// `--resign` and `--draw`, as the run had them.
    pub adjudication: crate::records::adjudication::Adjudication,
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
    /// Show the recorded game instead of playing it again, and why.
    pub show: Option<Show>,
    /// Where the recorded game was found, said first (`game 37 is pair 18, game 1 of …`).
    pub located: Option<String>,
}

/// Why a recorded game is shown rather than played again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Show {
    /// `--show` asked for it.
    Asked,
    /// Its game would not come out the same ([`crate::run::folder::not_reproducible`]).
    NotReproducible(String),
}

/// What the two boards are, and how the last move is marked on them, said once before boards.
pub const MARKS: &str = "Boards mark the last move: * where it came from, ( ) where it went.";

/// The public and the true board of `game`, each under a label saying which it is, the last move
/// marked; a blank line after each.
pub fn boards(game: &jieqi_core::Game, style: BoardStyle) -> String {
    let last = game.records().last().map(|r| r.played.mv);
    let hidden = match style.glyphs {
        Glyphs::Ascii => "X/x",
        Glyphs::Unicode => "暗",
    };
    format!(
        "public board (what both players see; {hidden} hidden):\n{}\n\
         true board (every hidden identity shown; referee only):\n{}\n",
        position_board(game.position(), style, last),
        truth_board(game.truth(), style, last)
    )
}

/// The final (or `--ply`) position: both boards and the FEN, after a line saying which ply.
pub fn final_position(
    game: &jieqi_core::Game,
    style: BoardStyle,
    w: &mut dyn Write,
) -> std::io::Result<()> {
    match game.records().last() {
        Some(r) => writeln!(
            w,
            "\nPosition after ply {}, {}. {MARKS}",
            game.ply(),
            r.played.to_text(r.mover)
        )?,
        None => writeln!(w, "\nPosition at the start (no move played).")?,
    }
    write!(w, "{}", boards(game, style))?;
    writeln!(w, "fen: {}", game.position().fen())
}

/// One ply as replay and show print it: number, side, move, what it revealed and captured, check,
/// and the engine's search info.
pub fn ply_line(ply: usize, record: &jieqi_core::Record, info: &PlyInfo) -> String {
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

/// The two sides and the limits each played under ([`crate::run::game_runner::Player::limits_text`]:
/// its own where its spec sets them, the run's otherwise): `red A vs black B (nodes=1000)` when
/// they are the same, else `red A (depth=3) vs black B (nodes=1000)`.
pub fn sides(plan: &ReplayPlan) -> String {
    let under = |entry, omniscient| {
        crate::run::player(entry, &plan.limits, plan.tc, plan.move_timeout, omniscient)
            .limits_text()
    };
    let red = under(&plan.red, plan.omniscient.red);
    let black = under(&plan.black, plan.omniscient.black);
    let (r, b) = (printable(&plan.red.label), printable(&plan.black.label));
    if red == black {
        format!("red {r} vs black {b} ({red})")
    } else {
        format!("red {r} ({red}) vs black {b} ({black})")
    }
}

/// Compares the replay (`played`, its moves `moves`) with the record `expected` (from `path`)
/// and says whether they are the same, or where they differ.
pub fn compare(
    plan: &ReplayPlan,
    played: &PlayedGame,
    moves: &[String],
    expected: &GameLine,
    path: &Path,
    w: &mut dyn Write,
) -> std::io::Result<bool> {
    if plan.tc.is_some() || plan.red.limits.tc.is_some() || plan.black.limits.tc.is_some() {
        writeln!(
            w,
            "note: this game was played on a clock; engines that use their clock think for as \
             long as the machine lets them, so a replay may differ"
        )?;
    }
    let dealt = (played.deal.red.clone(), played.deal.black.clone());
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
    // With --ply K short of the record's end, only its first K plies are compared.
    let whole = plan.stop_at.is_none_or(|k| k >= expected.moves.len());
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
            let plies = if whole {
                format!("{} plies", got.len())
            } else {
                format!(
                    "the first {} of its {} plies",
                    got.len(),
                    expected.moves.len()
                )
            };
            writeln!(
                w,
                "identical: {plies} match {} (pair {}, game {})",
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

/// Prints the recorded game ply by ply from the record alone (no engine runs), as
/// [`check_record`] plays it through. Returns whether the record was consistent.
pub fn show(
    plan: &ReplayPlan,
    line: &GameLine,
    path: &Path,
    w: &mut dyn Write,
) -> std::io::Result<bool> {
    writeln!(
        w,
        "Recorded game: pair {}, game {} of {}; deal seed {}, rules {}, {}",
        line.pair,
        line.game,
        path.display(),
        line.seed,
        plan.rules.name,
        sides(plan)
    )?;
    let checked = check_record(&plan.rules, line, plan.max_plies, plan.stop_at);
    if plan.rules.has_hidden() {
        writeln!(
            w,
            "Deal: red {}  black {}",
            printable(&line.deal.red),
            printable(&line.deal.black)
        )?;
    }
    if plan.boards {
        writeln!(w, "{MARKS}")?;
    }
    let mut board = checked.start.clone();
    for (i, (record, _)) in checked.plies.iter().enumerate() {
        board.play(record.played.mv).expect("checked");
        let info = line.search.get(i).map_or(
            PlyInfo {
                nodes: 0,
                ms: None,
                depth: None,
                score: None,
                pv: Vec::new(),
            },
            |p| PlyInfo {
                score: p.score.as_deref().map(printable),
                pv: p.pv.iter().map(|m| printable(m)).collect(),
                ..p.clone()
            },
        );
        writeln!(w, "{}", ply_line(i + 1, record, &info))?;
        if plan.boards {
            write!(w, "{}", boards(&board, plan.style))?;
        }
    }
    if let Some(problem) = &checked.problem {
        writeln!(w, "INCONSISTENT: {problem}")?;
        return Ok(false);
    }
    let game = &checked.game;
    final_position(game, plan.style, w)?;
    if game.ply() == line.moves.len() {
        writeln!(
            w,
            "Result: {} ({}{})",
            line.result.text(),
            line.reason.name(),
            line.detail
                .as_ref()
                .map(|d| format!(": {}", printable(d)))
                .unwrap_or_default()
        )?;
    }
    Ok(true)
}
