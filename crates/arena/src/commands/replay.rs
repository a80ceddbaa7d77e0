//! `arena replay`: replays one seeded game exactly, ply by ply, for debugging ("replay deal 4711,
//! ply 38"), checks a game recorded in a results folder against a fresh replay, or shows the
//! recorded game as it was played (`--show`, and by default when its limits are not
//! reproducible).

use std::io::Write;
use std::path::{Path, PathBuf};

use std::time::Duration;

use jieqi_core::{ByColor, Color, Rules};
use jieqi_engine::{Limits, Spec};

use crate::engines::EngineEntry;
use crate::engines::time_control::TimeControl;
use crate::records::{self, GameLine, PlyInfo, result_text};
use crate::report::board_text::{BoardStyle, position_board, truth_board};
use crate::run::MatchSetup;
use crate::run::game_runner::{GameSpec, play_game};

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
    /// Its game would not come out the same ([`not_reproducible`]).
    NotReproducible(String),
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
    use crate::run::game_runner::Termination;
    if let Some(why) = crate::run::time_limited(setup.tc, &setup.limits(), &[red, black]) {
        return Some(why);
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

/// Where a numbered game of a results folder is ([`locate`]).
#[derive(Debug)]
pub struct Located {
    /// The match folder that holds it.
    pub folder: PathBuf,
    /// Its pair index.
    pub pair: u64,
    /// 1 or 2.
    pub game: u8,
    /// Where it is, when that is not the folder asked about.
    pub note: Option<String>,
}

/// The folder, pair and game (1 or 2) of game `number` of a results folder, and a sentence saying
/// where it is when that is not the folder itself. In a match folder, game N is game
/// `(N − 1) % 2 + 1` of pair `(N − 1) / 2`; in a run of several pairings (`tournament`, `leak`)
/// it is that of job `(N − 1) / 2`, which is pair `job / pairings` of pairing `job % pairings`,
/// whose own folder numbers it again from its pairs.
///
/// # Errors
/// No recorded run in `dir`, or no such game number.
pub fn locate(dir: &Path, number: u64) -> Result<Located, (&'static str, String)> {
    let (job, game) = records::job_of_number(number).ok_or((
        "--game",
        "game numbers start at 1 (the `number` column of games.csv)".to_string(),
    ))?;
    let (path, record, setup) = crate::run::recorded_run(dir).map_err(|m| ("DIR", m))?;
    let np = setup.pairings.len() as u64;
    let (pair, i) = (job / np, (job % np) as usize);
    if pair >= record.pairs {
        return Err((
            "--game",
            format!(
                "{} records {} pairs ({} games): there is no game {number}",
                path.display(),
                record.pairs,
                record.pairs.saturating_mul(2 * np)
            ),
        ));
    }
    if let Some(shard) = record.shard.filter(|s| !s.has(pair)) {
        return Err((
            "--game",
            format!(
                "game {number} is pair {pair}, which shard {}/{} plays; {} holds shard {shard}",
                pair % shard.count,
                shard.count,
                dir.display()
            ),
        ));
    }
    if np == 1 {
        return Ok(Located {
            folder: dir.to_path_buf(),
            pair,
            game,
            note: None,
        });
    }
    let folder = dir.join(crate::commands::leak::arm_folder(&setup, i));
    let note = format!(
        "game {number} of {} is pair {pair}, game {game} of {} (game {} there)",
        dir.display(),
        folder.display(),
        records::game_number(pair, game)
    );
    Ok(Located {
        folder,
        pair,
        game,
        note: Some(note),
    })
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
    let (path, setup, _) = crate::run::recorded_run(dir)?;
    if setup.all.is_some() {
        let kind = setup.command_name();
        let sub = if setup.leak.is_some() {
            "arms"
        } else {
            "pairings"
        };
        return Err(format!(
            "{} is {} `arena {kind}` folder of several pairings: give --game N (the number \
             column of its games.csv), or replay in one of its match folders under {sub}/",
            dir.display(),
            if kind == "leak" { "an" } else { "a" },
        ));
    }
    let journal = dir.join("games.jsonl");
    let (games, truncated) = records::read_jsonl(&journal).map_err(|e| e.to_string())?;
    let Some(line) = games.into_iter().find(|g| g.pair == pair && g.game == game) else {
        let why = match setup.shard {
            Some(shard) if !shard.has(pair) => format!(
                ": pair {pair} belongs to shard {}/{}, and this folder holds shard {shard}",
                pair % shard.count,
                shard.count
            ),
            _ if pair >= setup.pairs => format!(": the run has {} pairs", setup.pairs),
            _ if truncated => format!(
                " (its last line was cut short by an interruption: `arena {} --out {} \
                 --resume` plays that pair again)",
                setup.command_name(),
                dir.display()
            ),
            _ => " (the run did not get to it: `--resume` plays it)".to_string(),
        };
        return Err(format!(
            "{}: no record of pair {pair} game {game}{why}",
            journal.display()
        ));
    };
    // The record and match.json must describe the same run.
    if line.fingerprint != setup.fingerprint {
        return Err(format!(
            "{}: pair {pair} game {game} belongs to another run (fingerprint {}) than {} \
             (fingerprint {}): one of them was edited, or the folder mixes runs",
            journal.display(),
            line.fingerprint,
            path.display(),
            setup.fingerprint
        ));
    }
    let (a, b) = (&setup.engines[0].0, &setup.engines[1].0);
    let (red, black) = if game == 1 { (a, b) } else { (b, a) };
    if (&line.red, &line.black) != (red, black) {
        return Err(format!(
            "{}: pair {pair} game {game} names red '{}' and black '{}', but {} has '{red}' and \
             '{black}' there",
            journal.display(),
            printable(&line.red),
            printable(&line.black),
            path.display()
        ));
    }
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
    let deal = crate::records::deal_seed::deal_for_seed(plan.deal_seed, &plan.rules);
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

/// A recorded game played through from its deal by the referee, as far as the record holds up.
pub struct Checked {
    /// The game after the last ply that checked out.
    pub game: jieqi_core::Game,
    /// The start position's FEN.
    pub start_fen: String,
    /// Each ply that checked out: its record and the public FEN after it.
    pub plies: Vec<(jieqi_core::Record, String)>,
    /// What is wrong with the record, if anything: `at ply K: …` or about its ending.
    pub problem: Option<String>,
}

/// Plays the recorded game `line` through from its seed's deal under `rules` (its first `upto`
/// plies, or all): the deal must be the seed's, every move legal with its reveal and capture
/// letters the truth, `plies` the number of moves, and (when played through) the ending one the
/// final position allows — a result by the rules must be the rules' verdict, an engine failure
/// or adjudication cannot come at a finished position, and `max-plies` comes at `max_plies`.
pub fn check_record(
    rules: &Rules,
    line: &GameLine,
    max_plies: u32,
    upto: Option<usize>,
) -> Checked {
    use crate::run::game_runner::{ReasonKey, Termination};
    let deal = crate::records::deal_seed::deal_for_seed(line.seed, rules);
    let mut game = jieqi_core::Game::new(*rules, deal.clone());
    let mut checked = Checked {
        start_fen: game.position().fen(),
        game: game.clone(),
        plies: Vec::new(),
        problem: None,
    };
    let dealt = (deal.side_string(Color::Red), deal.side_string(Color::Black));
    if (&line.deal.red, &line.deal.black) != (&dealt.0, &dealt.1) {
        checked.problem = Some(format!(
            "the record's deal (red {}, black {}) is not the deal of its seed {} (red {}, black \
             {}): the record was altered, or another harness version wrote it",
            line.deal.red, line.deal.black, line.seed, dealt.0, dealt.1
        ));
        return checked;
    }
    if line.plies as usize != line.moves.len() {
        checked.problem = Some(format!(
            "it says {} plies but holds {} moves",
            line.plies,
            line.moves.len()
        ));
        return checked;
    }
    let upto = upto.unwrap_or(usize::MAX);
    for (i, text) in line.moves.iter().enumerate().take(upto) {
        let mover = game.turn();
        let bad = |why: String| {
            Some(format!(
                "at ply {}: recorded {}: {why}",
                i + 1,
                printable(text)
            ))
        };
        if game.outcome().is_some() {
            checked.problem = bad("the game was already over".into());
            break;
        }
        let played = match jieqi_core::PlayedMove::from_text(text, mover) {
            Ok(p) => p,
            Err(e) => {
                checked.problem = bad(e.to_string());
                break;
            }
        };
        let record = match game.play(played.mv) {
            Ok(r) => *r,
            Err(e) => {
                checked.problem = bad(format!("not legal here ({e})"));
                break;
            }
        };
        let truth = record.played.to_text(mover);
        if truth != *text {
            checked.problem = bad(format!("the deal makes it {truth}"));
            break;
        }
        checked.plies.push((record, game.position().fen()));
    }
    let whole = checked.plies.len() == line.moves.len();
    if checked.problem.is_none() && whole {
        let by_rules = game.outcome().map(|o| {
            (
                records::GameResult::of(o.winner),
                Termination::Rules(ReasonKey::new(o.reason)),
            )
        });
        let verdict = |v: Option<(records::GameResult, Termination)>| {
            v.map_or("the game goes on".to_string(), |(r, t)| {
                format!("{} ({})", r.text(), t.name())
            })
        };
        let ok = match line.reason {
            Termination::Rules(_) => by_rules == Some((line.result, line.reason)),
            Termination::MaxPlies => {
                by_rules.is_none()
                    && line.moves.len() == max_plies as usize
                    && line.result == records::GameResult::Draw
            }
            _ => {
                // A failure loses for the side to move (whose engine failed), or before the
                // first move for either side (an engine that could not get ready).
                by_rules.is_none()
                    && line.result.winner().is_some()
                    && (line.moves.is_empty() || line.result.winner() == Some(!game.turn()))
            }
        };
        if !ok {
            checked.problem = Some(format!(
                "it ends {} ({}) but after its {} plies the rules say {}{}",
                line.result.text(),
                line.reason.name(),
                line.moves.len(),
                verdict(by_rules),
                if line.reason == Termination::MaxPlies {
                    format!(" (the run's cap is {max_plies} plies)")
                } else {
                    String::new()
                }
            ));
        }
    }
    checked.game = game;
    checked
}

/// Text from a record made safe for a terminal: control characters are escaped.
pub fn printable(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Prints the recorded game ply by ply from the record alone (no engine runs), as
/// [`check_record`] plays it through. Returns whether the record was consistent.
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
    let checked = check_record(&plan.rules, line, plan.max_plies, plan.stop_at);
    if plan.rules.has_hidden() {
        writeln!(
            w,
            "Deal: red {}  black {}",
            printable(&line.deal.red),
            printable(&line.deal.black)
        )?;
    }
    let mut board = jieqi_core::Game::new(
        plan.rules,
        crate::records::deal_seed::deal_for_seed(line.seed, &plan.rules),
    );
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
            writeln!(w, "{}", position_board(board.position(), plan.style))?;
            writeln!(w, "{}", truth_board(board.truth(), plan.style))?;
        }
    }
    if let Some(problem) = &checked.problem {
        writeln!(w, "INCONSISTENT: {problem}")?;
        return Ok(false);
    }
    let game = &checked.game;
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
