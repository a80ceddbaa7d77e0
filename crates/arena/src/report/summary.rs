//! What a two-engine run reports, built from its scoreboard: the text a person reads (the
//! fastchess block, then scores per colour, terminations, failures, what each engine's searches
//! reported per move, and the run's time) and the same as one serde [`Summary`] for
//! `summary.json`.

use std::collections::BTreeMap;
use std::io::Write;

use jieqi_core::Rules;
use serde::Serialize;

use crate::engines::time_control::TimeControl;
use crate::error::Error;
use crate::records::files::write_atomically;
use crate::report::time_losses::{TimeLossWarning, time_loss_warning};
use crate::run::scoreboard::{MoveStats, PairingScore};
use crate::run::{Omniscient, RunOutcome, RunSetup};
use crate::stats::Hypothesis;
use crate::stats::block::{BlockInput, BlockJson, block_json, render_block};
use crate::util::text::counted;

fn first(outcome: &RunOutcome) -> &PairingScore {
    &outcome.board.pairings()[0]
}

/// The warning of a two-engine run that lost too many games to the clock (see
/// [`crate::report::time_losses`]).
fn time_losses(setup: &RunSetup, outcome: &RunOutcome) -> Option<TimeLossWarning> {
    let p = first(outcome);
    let timeouts = p.terminations.get("timeout").copied().unwrap_or(0);
    time_loss_warning(setup, p.forfeits.iter().sum(), timeouts, p.games())
}

fn block_input<'a>(setup: &'a RunSetup, outcome: &RunOutcome, context: &'a str) -> BlockInput<'a> {
    let p = first(outcome);
    BlockInput {
        a: &setup.a().label,
        b: &setup.b().label,
        context,
        ptnml: Some(p.ptnml),
        wdl: p.wdl,
        sprt: setup.kind.sprt(),
    }
}

/// `12.3 ms, 4512 nodes, depth 3.2` over the moves made (no depth part when none was
/// reported; `no moves` for an engine that never completed one), then what was left out:
/// ` (depth over 480 of 500 moves, 8 mate reports left out; 2 failed moves left out)`.
fn per_move_text(m: &MoveStats) -> String {
    let failed = match m.failed {
        0 => String::new(),
        1 => "1 failed move left out".into(),
        n => format!("{n} failed moves left out"),
    };
    if m.moves == 0 {
        return match m.failed {
            0 => "no moves".into(),
            _ => format!("no moves ({failed})"),
        };
    }
    let nodes = format!("{:.0}", m.nodes_per_move());
    let noun = if nodes == "1" { "node" } else { "nodes" };
    let mut s = format!("{:.1} ms, {nodes} {noun}", m.ms_per_move());
    let mut notes = Vec::new();
    if let Some(d) = m.depth_per_move() {
        s.push_str(&format!(", depth {d:.1}"));
        if m.without_depth() > 0 {
            let mut note = format!(
                "depth over {} of {}",
                m.depth_moves,
                counted(m.moves, "move")
            );
            if m.mate_depths > 0 {
                note.push_str(&format!(
                    ", {} left out",
                    counted(m.mate_depths, "mate report")
                ));
            }
            notes.push(note);
        }
    }
    if !failed.is_empty() {
        notes.push(failed);
    }
    if !notes.is_empty() {
        s.push_str(&format!(" ({})", notes.join("; ")));
    }
    s
}

/// How a gate (`arena sprt`) ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GateResult {
    /// The test accepted a hypothesis: H1 passes (merge), H0 fails.
    Accepted(Hypothesis),
    /// The cap came first.
    Inconclusive,
    /// An engine failed (crashed, hung, broke the protocol, played an illegal move…) and the
    /// gate was not told to `--recover`: a verdict resting on failures would mean nothing.
    EngineFailure,
    /// More than 1 % of the pairs repeat earlier pairs and the gate was not told to
    /// `--allow-repeats`: its test counted the same games many times. Exit 3, as inconclusive.
    Repeated,
    /// Ctrl-C stopped the gate before its test decided: no verdict, its state so far (exit 130;
    /// `--resume` goes on with the same test).
    Interrupted,
}

impl GateResult {
    /// `H1`, `H0`, `inconclusive` or `engine-failure`.
    pub fn name(self) -> &'static str {
        match self {
            GateResult::Accepted(Hypothesis::H1) => "H1",
            GateResult::Accepted(Hypothesis::H0) => "H0",
            GateResult::Inconclusive => "inconclusive",
            GateResult::EngineFailure => "engine-failure",
            GateResult::Repeated => "repeated-games",
            GateResult::Interrupted => "interrupted",
        }
    }
}

/// How a gate run ended (`None` for a run that is not a gate). Decided from the counted pairs
/// alone, as the stop rule decided.
pub fn gate_result(setup: &RunSetup, outcome: &RunOutcome) -> Option<GateResult> {
    let crate::run::kind::RunKind::Gate {
        sprt,
        recover,
        allow_repeats,
    } = setup.kind
    else {
        return None;
    };
    if outcome.interrupted {
        return Some(GateResult::Interrupted);
    }
    let p = first(outcome);
    if !recover && p.failures.iter().sum::<u64>() > 0 {
        return Some(GateResult::EngineFailure);
    }
    if !allow_repeats && p.too_many_repeats() {
        return Some(GateResult::Repeated);
    }
    Some(match sprt.verdict(sprt.llr_pentanomial(&p.ptnml)) {
        Some(h) if outcome.stopped => GateResult::Accepted(h),
        _ => GateResult::Inconclusive,
    })
}

/// The engine failures and time forfeits of a two-engine run, each engine's count, then the
/// match's exit-5 line and the time-loss warning where they apply.
fn failure_lines(setup: &RunSetup, outcome: &RunOutcome) -> String {
    let p = first(outcome);
    let (a, b) = (setup.a(), setup.b());
    let mut s = String::new();
    s.push_str(&format!(
        "Engine failures (illegal move, panic, error, timeout, crash, protocol error): {} {}, {} {}\n",
        a.label, p.failures[0], b.label, p.failures[1]
    ));
    // A gate's engine failures are its verdict's (it stops at the first, unless --recover).
    if matches!(setup.kind, crate::run::kind::RunKind::Match { .. }) {
        if let Some(line) = crate::report::failure_verdict(setup, &outcome.board) {
            s.push_str(&line);
        }
    }
    if setup.has_clock() || p.forfeits.iter().sum::<u64>() > 0 {
        s.push_str(&format!(
            "Time forfeits: {} {}, {} {}\n",
            a.label, p.forfeits[0], b.label, p.forfeits[1]
        ));
    }
    if let Some(w) = time_losses(setup, outcome) {
        s.push_str(&w.text());
    }
    s
}

/// The summary as text: the result block, then one line each for the first engine's score per
/// colour, average plies, terminations, engine failures, time/nodes/depth per move, omniscience
/// (if any), where a gate stopped (for `arena sprt`), and the time taken.
pub fn summary_text(setup: &RunSetup, outcome: &RunOutcome) -> String {
    let context = crate::report::run_context(setup, outcome);
    let p = first(outcome);
    let (a, b) = (setup.a(), setup.b());
    if p.games() == 0 {
        // Nothing to rate: no Elo, interval or LOS is better than ones made of no games.
        let mut s = format!(
            "Results of {} vs {} ({context}):\nNo games counted: {}\n",
            a.label,
            b.label,
            match setup.shard {
                Some(shard) if shard.pairs_of(setup.pairs) == 0 => format!(
                    "shard {shard} holds none of the {} pair{} (pairs p with p mod {} = {})",
                    setup.pairs,
                    if setup.pairs == 1 { "" } else { "s" },
                    shard.count,
                    shard.index
                ),
                _ => "no pair was finished".to_string(),
            }
        );
        s.push_str(&format!("Build: {}\n", outcome.builds.line()));
        return s;
    }
    let mut s = render_block(&block_input(setup, outcome, &context));
    if gate_result(setup, outcome) == Some(GateResult::Repeated) {
        // The LLR crossed a bound on games that repeat one another: not a verdict.
        for h in ["H1", "H0"] {
            s = s.replace(
                &format!("SPRT: {h} accepted\n"),
                &format!(
                    "SPRT: {h} bound crossed, not accepted: the pairs repeat (REPEATED below)\n"
                ),
            );
        }
    }
    s.push_str(&format!("Build: {}\n", outcome.builds.line()));
    s.push_str(&format!(
        "{} as Red: {:.2} %, as Black: {:.2} %\n",
        a.label,
        100.0 * p.by_color[0].fraction(),
        100.0 * p.by_color[1].fraction()
    ));
    s.push_str(&format!(
        "Average plies: {:.1}\n",
        p.plies as f64 / p.games().max(1) as f64
    ));
    let terms: Vec<String> = p
        .terminations
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    s.push_str(&format!("Terminations: {}\n", terms.join(", ")));
    if let Some(line) = repeats_line(p) {
        s.push_str(&line);
    }
    if let Some(line) = adjudication_line(setup, p) {
        s.push_str(&line);
    }
    s.push_str(&failure_lines(setup, outcome));
    s.push_str(&format!(
        "Per move: {} {}; {} {}\n",
        a.label,
        per_move_text(&p.moves[0]),
        b.label,
        per_move_text(&p.moves[1])
    ));
    if setup.omniscient() != Omniscient::None {
        s.push_str(&format!(
            "Omniscient: {:?} (this engine saw every hidden piece)\n",
            setup.omniscient()
        ));
    }
    if !setup.kind.is_gate() && outcome.counted < setup.jobs() {
        s.push_str(&format!(
            "PARTIAL: {} of {} pairs counted; the numbers rest on part of the run\n",
            outcome.counted,
            setup.jobs()
        ));
    }
    if let Some(gate) = gate_result(setup, outcome) {
        let pairs = crate::util::text::counted(outcome.counted, "pair");
        match gate {
            GateResult::Accepted(h) => s.push_str(&format!(
                "Gate: {h} accepted after {pairs} ({}){}\n",
                match h {
                    Hypothesis::H1 => "the test passed: merge",
                    Hypothesis::H0 => "the test failed: do not merge",
                },
                beyond_text(outcome.beyond)
            )),
            GateResult::Inconclusive => s.push_str(&format!(
                "Gate: inconclusive, no bound crossed in {pairs} (the cap is {})\n",
                setup.pairs
            )),
            GateResult::Interrupted => s.push_str(&format!(
                "Gate: interrupted after {pairs}, no verdict (the cap is {}; --resume goes on)\n",
                setup.pairs
            )),
            GateResult::Repeated => s.push_str(&format!(
                "Gate: no verdict after {pairs}: {} of them repeat earlier pairs move for \
                 move, so the test counted the same games many times (give --openings, or \
                 --allow-repeats to take the verdict anyway)\n",
                p.repeated
            )),
            GateResult::EngineFailure => s.push_str(&format!(
                "Gate: stopped after {pairs}, no verdict: {} {}, {} {} engine failures \
                 (see Terminations and games.jsonl; --recover counts them as losses and goes on)\n",
                a.label, p.failures[0], b.label, p.failures[1]
            )),
        }
    }
    if !outcome.merged.is_empty() {
        let threads: Vec<String> = outcome
            .merged
            .iter()
            .map(|r| r.threads.map_or("?".into(), |t| t.to_string()))
            .collect();
        s.push_str(&format!(
            "Merged: {} shard{} played these games (threads {}); each shard's time is in its own \
             summary\n",
            outcome.merged.len(),
            if outcome.merged.len() == 1 { "" } else { "s" },
            threads.join(", ")
        ));
        return s;
    }
    if outcome.played_now == 0 {
        // Resumed with nothing left to play: no time of this process to report.
        s.push_str("Time: no games played this run (every counted pair was already recorded)\n");
        return s;
    }
    let secs = outcome.wall.as_secs_f64();
    let share = if p.total_ms > 0.0 {
        100.0 * p.engine_ms / p.total_ms
    } else {
        0.0
    };
    s.push_str(&format!(
        "Time: {:.1} s wall this run, {:.1} games/s; {:.1} % of game time inside engines\n",
        secs,
        if secs > 0.0 {
            outcome.played_now as f64 / secs
        } else {
            0.0
        },
        share
    ));
    s
}

/// The warning of a pairing whose pairs repeat earlier pairs (more than
/// [`crate::run::scoreboard::REPEAT_SHARE`] of them), for every report that shows it.
pub fn repeats_line(p: &PairingScore) -> Option<String> {
    p.too_many_repeats().then(|| {
        format!(
            "REPEATED: {} of {} pairs repeat earlier pairs: the games are not independent (the \
             intervals and the test count the same games many times; play from an opening book, \
             --openings)\n",
            p.repeated,
            p.pairs()
        )
    })
}

/// What adjudication did in a two-engine run, when it is on: the games it ended, and the
/// engines it could not judge (they reported no score on any move).
pub fn adjudication_line(setup: &RunSetup, p: &PairingScore) -> Option<String> {
    if setup.adjudication.is_off() {
        return None;
    }
    let count = |name: &str| p.terminations.get(name).copied().unwrap_or(0);
    let (resigned, drawn) = (count("adjudication-resign"), count("adjudication-draw"));
    let mut s = format!(
        "Adjudicated ({}): {} of {} games, {resigned} by resignation, {drawn} drawn\n",
        setup.adjudication,
        resigned + drawn,
        p.games()
    );
    for (i, e) in [setup.a(), setup.b()].into_iter().enumerate() {
        if p.moves[i].moves > 0 && p.moves[i].scored == 0 {
            s.push_str(&format!(
                "Adjudication: {} reported no score on any move, so no game was adjudicated \
                 against it (and none drawn)\n",
                e.label
            ));
        }
    }
    Some(s)
}

fn beyond_text(beyond: u64) -> String {
    match beyond {
        0 => String::new(),
        n => format!(
            "; {n} more pair{} finished beyond that point, kept in games.jsonl and not counted",
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// An engine in the summary.
#[derive(Clone, Debug, Serialize)]
pub struct EngineSummary {
    /// Its label.
    pub label: String,
    /// Its spec as written.
    pub spec: String,
}

/// The two engines.
#[derive(Clone, Debug, Serialize)]
pub struct Engines {
    /// The first (the counts are its).
    pub a: EngineSummary,
    /// The second.
    pub b: EngineSummary,
}

/// The run's limits for every engine that does not set its own.
#[derive(Clone, Debug, Serialize)]
pub struct LimitsSummary {
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
    /// Milliseconds per move.
    pub movetime_ms: Option<u64>,
}

/// What an engine's searches reported, per move made (a failed move is left out, its time and
/// nodes too).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct PerMove {
    /// Moves it made.
    pub moves: u64,
    /// Milliseconds per move.
    pub ms: f64,
    /// Nodes per move.
    pub nodes: f64,
    /// Mean depth, over the moves that reported one.
    pub depth: Option<f64>,
    /// Moves made that are not in the mean depth: they reported none (decided or instant moves)
    /// or a mate.
    #[serde(default)]
    pub without_depth: u64,
    /// Of those, the moves that reported a depth with a mate score: an engine may report a
    /// sentinel depth with a mate (Fairy-Stockfish: 245), so they are left out of the mean.
    #[serde(default)]
    pub mate_depths: u64,
    /// Moves that failed (timeout, time forfeit, crash…), left out of every mean.
    #[serde(default)]
    pub failed: u64,
}

impl From<&MoveStats> for PerMove {
    fn from(m: &MoveStats) -> PerMove {
        PerMove {
            moves: m.moves,
            ms: m.ms_per_move(),
            nodes: m.nodes_per_move(),
            depth: m.depth_per_move(),
            without_depth: m.without_depth(),
            mate_depths: m.mate_depths,
            failed: m.failed,
        }
    }
}

/// Where a gate run (`arena sprt`) stopped.
#[derive(Clone, Debug, Serialize)]
pub struct GateSummary {
    /// `"H1"` (merge), `"H0"` (do not), `"inconclusive"` (the cap came first),
    /// `"engine-failure"` (an engine failed; no verdict) or `"repeated-games"` (more than 1 % of
    /// the pairs repeat earlier ones; no verdict).
    pub outcome: &'static str,
    /// The hypothesis accepted: `"H1"`, `"H0"`, or `null` without one.
    pub verdict: Option<Hypothesis>,
    /// Pairs counted (the finished prefix up to the stop).
    pub pairs: u64,
    /// The most pairs it could have played.
    pub max_pairs: u64,
    /// Pairs that finished beyond the stop: in the journal, not counted.
    pub pairs_beyond: u64,
}

/// The run's time.
#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    /// Wall seconds of this process's play.
    pub wall_seconds_this_run: f64,
    /// Milliseconds inside the engines.
    pub engine_ms: f64,
    /// Milliseconds of whole games.
    pub game_ms: f64,
    /// engine_ms / game_ms.
    pub engine_share: f64,
}

/// `summary.json`.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The command line.
    pub command: String,
    /// The harness version.
    pub harness_version: &'static str,
    /// The code that played the run (`build`, `later_builds`).
    #[serde(flatten)]
    pub builds: crate::records::build::Builds,
    /// The run's fingerprint.
    pub fingerprint: String,
    /// The engines.
    pub engines: Engines,
    /// The rules.
    pub rules: Rules,
    /// Pairs asked for (the cap, for a gate).
    pub pairs: u64,
    /// The shard these results are (`--shard K/N`); absent for a whole run or a merge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::records::shard::Shard>,
    /// Master seed.
    pub seed: u64,
    /// Worker threads; absent for a merge (see `shard_runs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// For a merge: each shard's folder, command line and threads.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shard_runs: Vec<crate::run::execute::ShardRun>,
    /// The run's limits.
    pub limits: LimitsSummary,
    /// The run's clock, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// The clock margin, with a clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timemargin_ms: Option<u64>,
    /// The hard limit of one move.
    pub move_timeout_ms: Option<u64>,
    /// The adjudication cap.
    pub max_plies: u32,
    /// Omniscient engines.
    pub omniscient: Omniscient,
    /// The opening book (`--openings`), if any: how it was asked for, its size and hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openings: Option<crate::records::openings::BookRecord>,
    /// Pairs whose two games repeat an earlier pair's move for move (not independent of it).
    pub repeated_pairs: u64,
    /// Set when more than 1 % of the pairs repeat earlier pairs: the warning's text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat_warning: Option<String>,
    /// Every number of the block.
    pub results: BlockJson,
    /// The first engine's score as Red.
    pub a_score_as_red: f64,
    /// Its score as Black.
    pub a_score_as_black: f64,
    /// Plies per game.
    pub average_plies: f64,
    /// Games by termination.
    pub terminations: BTreeMap<&'static str, u64>,
    /// Engine failures by label.
    pub failures: BTreeMap<String, u64>,
    /// Games lost on time, by label.
    pub time_forfeits: BTreeMap<String, u64>,
    /// Set when too many games were lost to the clock (time forfeits and timeouts): how many,
    /// and what to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_loss_warning: Option<TimeLossWarning>,
    /// What each engine's searches reported per move, by label.
    pub per_move: BTreeMap<String, PerMove>,
    /// Where a gate stopped (`arena sprt` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<GateSummary>,
    /// Time.
    pub timing: Timing,
}

/// The summary of a two-engine run.
pub fn summary(setup: &RunSetup, outcome: &RunOutcome) -> Summary {
    let context = crate::report::run_context(setup, outcome);
    let p = first(outcome);
    let (a, b) = (setup.a(), setup.b());
    let ms = |d: std::time::Duration| d.as_millis() as u64;
    let engine = |e: &crate::engines::EngineEntry| EngineSummary {
        label: e.label.clone(),
        spec: e.spec.to_string(),
    };
    Summary {
        command: setup.options.command.clone(),
        harness_version: env!("CARGO_PKG_VERSION"),
        builds: outcome.builds.clone(),
        fingerprint: outcome.fingerprint.clone(),
        engines: Engines {
            a: engine(a),
            b: engine(b),
        },
        rules: setup.rules,
        pairs: setup.pairs,
        shard: setup.shard,
        seed: setup.seed,
        threads: outcome.merged.is_empty().then_some(setup.options.threads),
        shard_runs: outcome.merged.clone(),
        limits: LimitsSummary {
            nodes: setup.limits.nodes,
            depth: setup.limits.depth,
            movetime_ms: setup.limits.movetime.map(ms),
        },
        tc: setup.tc,
        timemargin_ms: setup.tc.map(|_| ms(setup.timemargin)),
        move_timeout_ms: setup.move_timeout.map(ms),
        max_plies: setup.max_plies,
        omniscient: setup.omniscient(),
        openings: setup.openings.as_ref().map(|b| b.record()),
        repeated_pairs: p.repeated,
        repeat_warning: repeats_line(p).map(|l| l.trim_end().to_string()),
        results: block_json(&block_input(setup, outcome, &context)),
        a_score_as_red: p.by_color[0].fraction(),
        a_score_as_black: p.by_color[1].fraction(),
        average_plies: p.plies as f64 / p.games().max(1) as f64,
        terminations: p.terminations.clone(),
        failures: [(a, p.failures[0]), (b, p.failures[1])]
            .into_iter()
            .map(|(e, n)| (e.label.clone(), n))
            .collect(),
        time_forfeits: [(a, p.forfeits[0]), (b, p.forfeits[1])]
            .into_iter()
            .map(|(e, n)| (e.label.clone(), n))
            .collect(),
        time_loss_warning: time_losses(setup, outcome),
        per_move: [(a, &p.moves[0]), (b, &p.moves[1])]
            .into_iter()
            .map(|(e, m)| (e.label.clone(), PerMove::from(m)))
            .collect(),
        gate: gate_result(setup, outcome).map(|g| GateSummary {
            outcome: g.name(),
            verdict: match g {
                GateResult::Accepted(h) => Some(h),
                _ => None,
            },
            pairs: outcome.counted,
            max_pairs: setup.pairs,
            pairs_beyond: outcome.beyond,
        }),
        timing: Timing {
            wall_seconds_this_run: outcome.wall.as_secs_f64(),
            engine_ms: p.engine_ms,
            game_ms: p.total_ms,
            engine_share: if p.total_ms > 0.0 {
                p.engine_ms / p.total_ms
            } else {
                0.0
            },
        },
    }
}

/// Prints a two-engine run's summary to `out` and writes `summary.txt`, `summary.json` and the
/// games index (`games.html`, with its viewer pages: [`crate::report::games_index`]).
///
/// # Errors
/// Writing fails.
pub fn report(setup: &RunSetup, outcome: &RunOutcome, out: &mut dyn Write) -> Result<(), Error> {
    let text = summary_text(setup, outcome);
    write_atomically(&setup.options.out.join("summary.txt"), text.as_bytes())?;
    let summary = summary(setup, outcome);
    let mut json = serde_json::to_vec_pretty(&summary).map_err(std::io::Error::other)?;
    json.push(b'\n');
    write_atomically(&setup.options.out.join("summary.json"), &json)?;
    let games = crate::report::games_index::write_run_index(setup)?;
    out.write_all(text.as_bytes())?;
    writeln!(out, "Results in {}", setup.options.out.display())?;
    out.write_all(games.line().as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mean depth leaves mate reports out (Fairy-Stockfish says depth 245 with a mate), and
    /// the line says how many.
    #[test]
    fn the_per_move_line_names_the_mate_reports_left_out_of_the_depth() {
        let m = MoveStats {
            moves: 10,
            ms: 500.0,
            nodes: 1000,
            depth_moves: 8,
            depth_sum: 72,
            mate_depths: 1,
            ..MoveStats::default()
        };
        assert_eq!(
            per_move_text(&m),
            "50.0 ms, 100 nodes, depth 9.0 (depth over 8 of 10 moves, 1 mate report left out)"
        );
        let no_mates = MoveStats {
            mate_depths: 0,
            ..m
        };
        assert_eq!(
            per_move_text(&no_mates),
            "50.0 ms, 100 nodes, depth 9.0 (depth over 8 of 10 moves)"
        );
    }

    /// One node a move on average (a one-node search) reads `1 node`, not `1 nodes`.
    #[test]
    fn one_node_a_move_is_singular() {
        let m = MoveStats {
            moves: 4,
            ms: 2.0,
            nodes: 4,
            ..MoveStats::default()
        };
        assert_eq!(per_move_text(&m), "0.5 ms, 1 node");
        let two = MoveStats { nodes: 8, ..m };
        assert_eq!(per_move_text(&two), "0.5 ms, 2 nodes");
    }
}
