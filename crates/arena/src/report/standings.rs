//! What a tournament reports, from its counted pairs: the rating list (Bradley–Terry ratings,
//! [`crate::stats::ratings`], with bootstrap intervals and CFS), the pairwise table (score and LOS of
//! every pairing), one ordinary match folder per pairing under `pairings/`, and the files
//! `ratings.csv`, `ratings.json`, `report.md`, `report.html` and `summary.txt`.
//!
//! Everything here is a function of the integer results and the setup, so a merged run reports
//! exactly what one machine's run would.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::commands::tournament::TournamentOptions;
use crate::plan::slug;
use crate::records::journal::{jsonl, write_atomically};
use crate::records::{self, GameLine};
use crate::report::PerMove;
use crate::report::html::{self, HistoryPoint, TournamentPage};
use crate::run::scoreboard::{PairingScore, Scoreboard};
use crate::run::{self, RunError, RunOutcome, RunSetup};
use crate::stats::block::json_f64;
use crate::stats::ratings::{self, PairingPairs, Ratings};
use crate::stats::{self, Wdl};

/// One engine's line of the rating list, as `ratings.json` holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatedEngine {
    /// Rank, from 1.
    pub rank: usize,
    /// Label.
    pub label: String,
    /// Spec as written.
    pub spec: String,
    /// Rating (logistic Elo), `"inf"`/`"-inf"` when it scored every or no point against a group,
    /// `null` when unrated.
    #[serde(with = "json_f64")]
    pub elo: f64,
    /// Lower end of the 95 % bootstrap interval.
    #[serde(with = "json_f64")]
    pub elo_lower: f64,
    /// Upper end.
    #[serde(with = "json_f64")]
    pub elo_upper: f64,
    /// Likelihood of superiority over the next engine of the list (`null` for the last).
    pub cfs_next: Option<f64>,
    /// Points.
    pub points: f64,
    /// Games.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Points per game.
    pub score: f64,
    /// Draws per game.
    pub draw_rate: f64,
    /// Whether this is the anchor.
    pub anchor: bool,
    /// Engine failures.
    pub failures: u64,
    /// Games lost on time.
    pub time_forfeits: u64,
    /// What its searches reported per move.
    pub per_move: PerMove,
}

/// One cell of the pairwise table: `row` against `col` (labels).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairwiseCell {
    /// The row engine.
    pub row: String,
    /// The column engine.
    pub col: String,
    /// The row engine's points per game.
    pub score: f64,
    /// Games.
    pub games: u64,
    /// The row engine's logistic Elo from this pairing alone (pentanomial).
    #[serde(with = "json_f64")]
    pub elo: f64,
    /// Likelihood that the row engine is the stronger.
    pub los: f64,
}

/// One pairing's line (the per-pairing table).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairingLine {
    /// First engine (Red in game 1 of each pair); the counts are its.
    pub a: String,
    /// Second engine.
    pub b: String,
    /// Pairs.
    pub pairs: u64,
    /// Wins of `a`.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses of `a`.
    pub losses: u64,
    /// `a`'s points per game.
    pub score: f64,
    /// `a`'s logistic Elo.
    #[serde(with = "json_f64")]
    pub elo: f64,
    /// Lower end of its 95 % interval.
    #[serde(with = "json_f64")]
    pub elo_lower: f64,
    /// Upper end.
    #[serde(with = "json_f64")]
    pub elo_upper: f64,
    /// Its LOS.
    pub los: f64,
    /// `[LL, LD, WL+DD, WD, WW]`.
    pub ptnml: [u64; 5],
    /// Plies per game.
    pub average_plies: f64,
    /// Failures of `a`, then `b`.
    pub failures: [u64; 2],
    /// Its match folder, relative to the tournament's.
    pub folder: String,
}

/// `ratings.json`: the rating list, the pairwise table and the pairings, with what produced them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingsJson {
    /// The command line.
    pub command: String,
    /// The harness version.
    pub harness_version: String,
    /// The run's fingerprint.
    pub fingerprint: String,
    /// What the header says: limits, threads, seed, rules, pairs.
    pub context: String,
    /// The tournament's options (mode, anchor, resamples).
    pub tournament: TournamentOptions,
    /// Pairs per pairing asked for.
    pub pairs: u64,
    /// Master seed.
    pub seed: u64,
    /// Pairs counted, over all pairings.
    pub counted_pairs: u64,
    /// The shard these ratings are of (`--shard`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::records::shard::Shard>,
    /// The rating list, best first.
    pub engines: Vec<RatedEngine>,
    /// Every pairing's cells, both ways.
    pub pairwise: Vec<PairwiseCell>,
    /// Every pairing.
    pub pairings: Vec<PairingLine>,
}

impl RatingsJson {
    /// The pairwise cell of `row` against `col`, if they played.
    pub fn cell(&self, row: &str, col: &str) -> Option<&PairwiseCell> {
        self.pairwise.iter().find(|c| c.row == row && c.col == col)
    }
}

/// The seed of the bootstrap stream, from the master seed: reproducible, and apart from every
/// deal seed.
pub(crate) fn bootstrap_seed(seed: u64) -> u64 {
    jieqi_engine::mix(seed, 0xB007_57A9_0000_0001)
}

/// The first engine's half-points (0–4) in a pair.
pub(crate) fn half_points(pair: &[GameLine; 2]) -> u8 {
    use jieqi_core::Color;
    let of = |g: &GameLine, a: Color| match g.winner() {
        None => 1,
        Some(c) if c == a => 2,
        Some(_) => 0,
    };
    of(&pair[0], Color::Red) + of(&pair[1], Color::Black)
}

/// A pairing's score, flipped to `b`'s side when `flip`.
fn cell(p: &PairingScore, flip: bool) -> (f64, f64, f64) {
    let e = stats::pentanomial(&p.ptnml);
    if flip {
        (1.0 - e.score, -e.elo, 1.0 - e.los)
    } else {
        (e.score, e.elo, e.los)
    }
}

/// Computes the rating list and tables.
pub fn ratings_json(setup: &RunSetup, outcome: &RunOutcome) -> RatingsJson {
    let options = setup
        .tournament
        .clone()
        .unwrap_or_else(|| TournamentOptions {
            mode: crate::commands::tournament::Mode::Listed,
            anchor: setup.engines[0].label.clone(),
            anchor_elo: 0.0,
            resamples: 1000,
            series: None,
        });
    let board: &Scoreboard = &outcome.board;
    let n = setup.engines.len();
    let np = setup.pairings.len() as u64;
    let mut per_pairing: Vec<BTreeMap<u64, u8>> = vec![BTreeMap::new(); setup.pairings.len()];
    for (job, pair) in &outcome.games {
        per_pairing[(job % np) as usize].insert(pair[0].pair, half_points(pair));
    }
    let pairings_pairs: Vec<PairingPairs> = setup
        .pairings
        .iter()
        .zip(per_pairing)
        .map(|(&(a, b), half_points)| PairingPairs { a, b, half_points })
        .collect();
    let anchor = setup
        .engines
        .iter()
        .position(|e| e.label == options.anchor)
        .unwrap_or(0);
    let r: Ratings = ratings::rate(
        n,
        &pairings_pairs,
        anchor,
        options.anchor_elo,
        options.resamples,
        bootstrap_seed(setup.seed),
    );

    // Per engine: W/D/L over every pairing it played.
    let mut wdl = vec![Wdl::default(); n];
    let mut forfeits = vec![0u64; n];
    for p in board.pairings() {
        let w = p.wdl;
        wdl[p.a].wins += w.wins;
        wdl[p.a].draws += w.draws;
        wdl[p.a].losses += w.losses;
        wdl[p.b].wins += w.losses;
        wdl[p.b].draws += w.draws;
        wdl[p.b].losses += w.wins;
        forfeits[p.a] += p.forfeits[0];
        forfeits[p.b] += p.forfeits[1];
    }
    let engines: Vec<RatedEngine> = r
        .order
        .iter()
        .enumerate()
        .map(|(k, &slot)| {
            let e = &setup.engines[slot];
            let w = wdl[slot];
            RatedEngine {
                rank: k + 1,
                label: e.label.clone(),
                spec: e.spec.to_string(),
                elo: r.elo[slot],
                elo_lower: r.lower[slot],
                elo_upper: r.upper[slot],
                cfs_next: r.cfs_next.get(k).copied(),
                points: w.points(),
                games: w.games(),
                wins: w.wins,
                draws: w.draws,
                losses: w.losses,
                score: w.score(),
                draw_rate: w.draw_ratio().unwrap_or(0.0),
                anchor: slot == anchor,
                failures: board.failures(slot),
                time_forfeits: forfeits[slot],
                per_move: PerMove::from(&board.moves(slot)),
            }
        })
        .collect();
    let mut pairwise = Vec::new();
    let mut pairings = Vec::new();
    for (i, p) in board.pairings().iter().enumerate() {
        let (a, b) = (&setup.engines[p.a].label, &setup.engines[p.b].label);
        if p.games() > 0 {
            for (row, col, flip) in [(a, b, false), (b, a, true)] {
                let (score, elo, los) = cell(p, flip);
                pairwise.push(PairwiseCell {
                    row: row.clone(),
                    col: col.clone(),
                    score,
                    games: p.games(),
                    elo,
                    los,
                });
            }
        }
        let e = stats::pentanomial(&p.ptnml);
        pairings.push(PairingLine {
            a: a.clone(),
            b: b.clone(),
            pairs: p.ptnml.pairs(),
            wins: p.wdl.wins,
            draws: p.wdl.draws,
            losses: p.wdl.losses,
            score: p.wdl.score(),
            elo: e.elo,
            elo_lower: e.elo_lower,
            elo_upper: e.elo_upper,
            los: e.los,
            ptnml: p.ptnml.counts(),
            average_plies: p.plies as f64 / p.games().max(1) as f64,
            failures: p.failures,
            folder: pairing_folder(setup, i),
        });
    }
    RatingsJson {
        command: setup.command.clone(),
        harness_version: env!("CARGO_PKG_VERSION").to_string(),
        fingerprint: outcome.fingerprint.clone(),
        context: setup.context(),
        tournament: options,
        pairs: setup.pairs,
        seed: setup.seed,
        counted_pairs: outcome.games.len() as u64,
        shard: setup.shard,
        engines,
        pairwise,
        pairings,
    }
}

/// The folder of pairing `i`, relative to the tournament's: `pairings/01-a-vs-b`.
pub fn pairing_folder(setup: &RunSetup, i: usize) -> String {
    let (a, b) = setup.pairings[i];
    let width = setup.pairings.len().to_string().len().max(2);
    format!(
        "pairings/{:0width$}-{}-vs-{}",
        i + 1,
        slug(&setup.engines[a].label),
        slug(&setup.engines[b].label)
    )
}

/// Writes pairing `i`'s match folder: `match.json`, `games.jsonl`, `games.csv`, `summary.json`
/// and `summary.txt`, as `arena match` writes them (the games carry the tournament's
/// fingerprint).
/// Writes pairing `i` of a run of several pairings as an ordinary match folder in `dir`
/// (`match.json`, `games.jsonl`, `games.csv`, summaries), which `arena replay` reads: its pairs
/// are the run's pairs of that pairing, its record the run's with the two engines (and their
/// omniscience) alone.
///
/// # Errors
/// Writing fails.
pub(crate) fn write_pairing(
    setup: &RunSetup,
    outcome: &RunOutcome,
    i: usize,
    dir: &Path,
) -> Result<(), RunError> {
    let (a, b) = setup.pairings[i];
    let dir = dir.to_path_buf();
    std::fs::create_dir_all(&dir)?;
    let sub = RunSetup {
        engines: vec![setup.engines[a].clone(), setup.engines[b].clone()],
        pairings: vec![(0, 1)],
        tournament: None,
        leak: None,
        sprt: None,
        gate: false,
        out: dir.clone(),
        ..setup.clone()
    };
    let np = setup.pairings.len() as u64;
    // Pair p is job p of the one-pairing run (of its shard).
    let games: BTreeMap<u64, [GameLine; 2]> = outcome
        .games
        .iter()
        .filter(|(job, _)| *job % np == i as u64)
        .map(|(job, pair)| (job / np, pair.clone()))
        .collect();
    let mut record = sub.match_setup(&outcome.fingerprint);
    record.command = setup.command.clone();
    let mut json = serde_json::to_vec_pretty(&record).map_err(std::io::Error::other)?;
    json.push(b'\n');
    write_atomically(&dir.join("match.json"), &json)?;
    write_atomically(&dir.join("games.jsonl"), &jsonl(games.values().flatten())?)?;
    records::write_csv(&dir.join("games.csv"), &games, 1)?;
    let sub_outcome = run::outcome_of(&sub, outcome.fingerprint.clone(), games);
    run::report(&sub, &sub_outcome, &mut std::io::sink())
}

/// `+12.3`, `-inf`, `unrated`.
pub fn elo_text(x: f64) -> String {
    if x.is_nan() {
        "unrated".into()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        // `+ 0.0` turns −0 into +0.
        format!("{:+.1}", x + 0.0)
    }
}

fn interval_text(lo: f64, hi: f64) -> String {
    format!("[{}, {}]", elo_text(lo), elo_text(hi))
}

/// What a reader must know before trusting the list: a partial run, a shard, ratings the anchor
/// cannot bound.
pub fn notes(setup: &RunSetup, outcome: &RunOutcome, r: &RatingsJson) -> Vec<String> {
    let mut notes = Vec::new();
    let missing = setup.jobs() - (outcome.games.len() as u64).min(setup.jobs());
    if missing > 0 {
        notes.push(format!(
            "PARTIAL: {missing} of {} pairing-pairs are missing; these ratings rest on part of the \
             run.",
            setup.jobs()
        ));
    }
    if let Some(s) = setup.shard {
        notes.push(format!(
            "This is shard {s} only: merge the shards (arena merge) for the tournament's ratings."
        ));
    }
    let unbounded: Vec<&str> = r
        .engines
        .iter()
        .filter(|e| e.elo.is_infinite())
        .map(|e| e.label.as_str())
        .collect();
    if !unbounded.is_empty() {
        notes.push(format!(
            "{} scored every point or none against a group of engines, so {} rating relative to \
             the anchor {} is unbounded (±inf); the list ranks such engines by their results \
             among themselves. Anchor an engine of the largest group for finite ratings.",
            unbounded.join(", "),
            if unbounded.len() == 1 { "its" } else { "their" },
            r.tournament.anchor
        ));
    }
    if r.engines.iter().any(|e| e.elo.is_nan()) {
        notes.push(
            "Unrated engines have no games connecting them to the anchor's group.".to_string(),
        );
    }
    notes
}

/// The rating list, pairwise table and pairings as text (stdout and `summary.txt`).
pub fn text(r: &RatingsJson, outcome: &RunOutcome, notes: &[String]) -> String {
    let mut s = format!(
        "Tournament of {} engines, {} ({})\n",
        r.engines.len(),
        r.tournament.mode.text(),
        r.context
    );
    s.push_str(&format!(
        "Ratings: logistic Elo, Bradley–Terry maximum likelihood over all games, anchor {} = {}; \
         95 % intervals and CFS from {} bootstrap resamples of pairs\n\n",
        r.tournament.anchor, r.tournament.anchor_elo, r.tournament.resamples
    ));
    let w = r
        .engines
        .iter()
        .map(|e| e.label.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    s.push_str(&format!(
        "{:>3}  {:<w$}  {:>8}  {:>18}  {:>6}  {:>8}  {:>6}  {:>16}  {:>6}\n",
        "#", "ENGINE", "ELO", "95 % INTERVAL", "CFS", "POINTS", "GAMES", "W / D / L", "DRAWS"
    ));
    for e in &r.engines {
        s.push_str(&format!(
            "{:>3}  {:<w$}  {:>8}  {:>18}  {:>6}  {:>8.1}  {:>6}  {:>16}  {:>5.1}%{}\n",
            e.rank,
            e.label,
            elo_text(e.elo),
            interval_text(e.elo_lower, e.elo_upper),
            e.cfs_next
                .filter(|c| c.is_finite())
                .map_or("".into(), |c| format!("{:.0}%", 100.0 * c)),
            e.points,
            e.games,
            format!("{} / {} / {}", e.wins, e.draws, e.losses),
            100.0 * e.draw_rate,
            if e.anchor { "  (anchor)" } else { "" }
        ));
    }
    s.push_str("\nPairwise: the row engine's score against the column engine (games)\n");
    let labels: Vec<&str> = r.engines.iter().map(|e| e.label.as_str()).collect();
    let cw = labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(6)
        .clamp(7, 14);
    s.push_str(&format!("{:<w$}", ""));
    for l in &labels {
        let short: String = l.chars().take(cw).collect();
        s.push_str(&format!("  {short:>cw$}"));
    }
    s.push('\n');
    for row in &labels {
        s.push_str(&format!("{row:<w$}"));
        for col in &labels {
            let c = r.cell(row, col);
            let t = c.map_or("-".into(), |c| format!("{:.1}%", 100.0 * c.score));
            s.push_str(&format!("  {t:>cw$}"));
        }
        s.push('\n');
    }
    s.push_str("\nPairings (the first engine's results; Elo from this pairing alone):\n");
    for p in &r.pairings {
        s.push_str(&format!(
            "  {} vs {}: {} pairs, W-D-L {}-{}-{}, {:.1} %, Elo {} {}, LOS {:.1} %, Ptnml {:?}, {:.1} plies{}\n",
            p.a,
            p.b,
            p.pairs,
            p.wins,
            p.draws,
            p.losses,
            100.0 * p.score,
            elo_text(p.elo),
            interval_text(p.elo_lower, p.elo_upper),
            100.0 * p.los,
            p.ptnml,
            p.average_plies,
            if p.failures == [0, 0] {
                String::new()
            } else {
                format!(", failures {} {}, {} {}", p.a, p.failures[0], p.b, p.failures[1])
            }
        ));
    }
    for n in notes {
        s.push_str(&format!("Note: {n}\n"));
    }
    let failures: Vec<String> = r
        .engines
        .iter()
        .filter(|e| e.failures > 0 || e.time_forfeits > 0)
        .map(|e| format!("{} {} ({} on time)", e.label, e.failures, e.time_forfeits))
        .collect();
    if !failures.is_empty() {
        s.push_str(&format!(
            "Engine failures (illegal move, panic, error, timeout, crash, protocol error): {}\n",
            failures.join(", ")
        ));
    }
    s.push_str(&time_line(outcome));
    s
}

/// `Time: 12.3 s wall this run, 45.6 games/s`, or that no game was played this run.
pub(crate) fn time_line(outcome: &RunOutcome) -> String {
    if outcome.played_now > 0 {
        let secs = outcome.wall.as_secs_f64();
        format!(
            "Time: {:.1} s wall this run, {:.1} games/s\n",
            secs,
            outcome.played_now as f64 / secs.max(1e-9)
        )
    } else if outcome.games.is_empty() {
        "Time: no games played (there was nothing to play)\n".to_string()
    } else {
        "Time: no games played this run (every counted pair was already recorded)\n".to_string()
    }
}

/// The report as Markdown (`report.md`): notes, the rating list, the pairwise table and the
/// pairings.
pub fn markdown(r: &RatingsJson, notes: &[String]) -> String {
    let mut s = format!(
        "# Tournament of {} engines, {}\n\n{}\n\nLogistic Elo, Bradley–Terry maximum likelihood \
         over all games; anchor {} = {}; 95 % intervals and CFS (likelihood of superiority over \
         the next engine) from {} bootstrap resamples of pairs.\n\n",
        r.engines.len(),
        r.tournament.mode.text(),
        r.context,
        r.tournament.anchor,
        r.tournament.anchor_elo,
        r.tournament.resamples
    );
    for n in notes {
        s.push_str(&format!("> **Note:** {n}\n\n"));
    }
    s.push_str("| # | engine | Elo | 95 % interval | CFS | points | games | W | D | L | draws |\n");
    s.push_str("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for e in &r.engines {
        s.push_str(&format!(
            "| {} | {}{} | {} | {} | {} | {:.1} | {} | {} | {} | {} | {:.1} % |\n",
            e.rank,
            md(&e.label),
            if e.anchor { " (anchor)" } else { "" },
            elo_text(e.elo),
            interval_text(e.elo_lower, e.elo_upper),
            e.cfs_next
                .filter(|c| c.is_finite())
                .map_or("".into(), |c| format!("{:.1} %", 100.0 * c)),
            e.points,
            e.games,
            e.wins,
            e.draws,
            e.losses,
            100.0 * e.draw_rate
        ));
    }
    s.push_str("\n## Pairwise (the row engine's score against the column engine)\n\n|  |");
    for e in &r.engines {
        s.push_str(&format!(" {} |", md(&e.label)));
    }
    s.push_str("\n|---|");
    s.push_str(&"---|".repeat(r.engines.len()));
    s.push('\n');
    for row in &r.engines {
        s.push_str(&format!("| **{}** |", md(&row.label)));
        for col in &r.engines {
            let c = r.cell(&row.label, &col.label);
            s.push_str(&match c {
                Some(c) => format!(" {:.1} % (LOS {:.0} %) |", 100.0 * c.score, 100.0 * c.los),
                None => " |".into(),
            });
        }
        s.push('\n');
    }
    s.push_str(
        "\n## Pairings\n\n| A vs B | pairs | W-D-L (A) | score | Elo A (95 % CI) | LOS | \
         Ptnml(0-2) | avg plies | failures | folder |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for p in &r.pairings {
        s.push_str(&format!(
            "| {} vs {} | {} | {}-{}-{} | {:.1} % | {} {} | {:.1} % | {} | {:.1} | {} {}, {} {} | [{}]({}/) |\n",
            md(&p.a),
            md(&p.b),
            p.pairs,
            p.wins,
            p.draws,
            p.losses,
            100.0 * p.score,
            elo_text(p.elo),
            interval_text(p.elo_lower, p.elo_upper),
            100.0 * p.los,
            p.ptnml
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            p.average_plies,
            md(&p.a),
            p.failures[0],
            md(&p.b),
            p.failures[1],
            p.folder,
            p.folder
        ));
    }
    s
}

/// A label in a Markdown table.
fn md(s: &str) -> String {
    s.replace('|', "\\|")
}

/// `ratings.csv`: one row per engine, best first.
///
/// # Errors
/// Cannot fail for these rows; an error would be a bug.
pub fn csv(r: &RatingsJson) -> std::io::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "rank",
        "engine",
        "elo",
        "elo_lower",
        "elo_upper",
        "cfs_next",
        "points",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "draw_rate",
        "anchor",
        "failures",
        "time_forfeits",
        "spec",
    ])?;
    let num = |x: f64| {
        if x.is_nan() {
            String::new()
        } else if x.is_infinite() {
            if x > 0.0 { "inf" } else { "-inf" }.to_string()
        } else {
            format!("{x:.2}")
        }
    };
    for e in &r.engines {
        w.write_record([
            e.rank.to_string(),
            e.label.clone(),
            num(e.elo),
            num(e.elo_lower),
            num(e.elo_upper),
            e.cfs_next
                .filter(|c| c.is_finite())
                .map_or(String::new(), |c| format!("{c:.4}")),
            format!("{:.1}", e.points),
            e.games.to_string(),
            e.wins.to_string(),
            e.draws.to_string(),
            e.losses.to_string(),
            format!("{:.4}", e.score),
            format!("{:.4}", e.draw_rate),
            e.anchor.to_string(),
            e.failures.to_string(),
            e.time_forfeits.to_string(),
            e.spec.clone(),
        ])?;
    }
    w.into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

/// The HTML page's content from a `ratings.json`, with the history given.
pub fn page(
    title: &str,
    r: &RatingsJson,
    nights: Vec<String>,
    history: Vec<(String, Vec<HistoryPoint>)>,
    notes: Vec<String>,
) -> TournamentPage {
    let pairwise = r
        .engines
        .iter()
        .map(|row| {
            r.engines
                .iter()
                .map(|col| r.cell(&row.label, &col.label).cloned())
                .collect()
        })
        .collect();
    TournamentPage {
        leak: None,
        title: title.to_string(),
        context: format!("{}, {}", r.tournament.mode.text(), r.context),
        anchor: format!("{} = {}", r.tournament.anchor, r.tournament.anchor_elo),
        ratings: r.engines.clone(),
        pairwise,
        pairings: r.pairings.clone(),
        nights,
        history,
        notes,
    }
}

/// The leak report measured beside a tournament: `DIR/leak/leak.json`, as `arena leak --config
/// … --out DIR/leak` writes it (scripts/nightly.sh does so for a config with a `leak` section).
/// A file that cannot be read becomes a note.
fn leak_beside(dir: &Path, notes: &mut Vec<String>) -> Option<crate::commands::leak::LeakJson> {
    let path = dir.join("leak").join("leak.json");
    if !path.is_file() {
        return None;
    }
    let read =
        crate::records::journal::read_bounded(&path, crate::records::journal::MAX_SMALL_FILE)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()));
    match read {
        Ok(l) => Some(l),
        Err(e) => {
            notes.push(format!(
                "The information-leak report {} could not be read ({e}); it is left out.",
                path.display()
            ));
            None
        }
    }
}

/// The nightly tournaments in a folder.
#[derive(Clone, Debug, Default)]
pub struct Nights {
    /// Their names, oldest first.
    pub names: Vec<String>,
    /// Each engine's rating per night, by label.
    pub history: Vec<(String, Vec<HistoryPoint>)>,
    /// Each night's `ratings.json`, oldest first.
    pub ratings: Vec<(String, RatingsJson)>,
    /// Folders with a `ratings.json` that could not be read, with why.
    pub skipped: Vec<String>,
}

/// The nights in `parent` (folders holding a `ratings.json`, by name), up to and including
/// `upto` when given, with each engine's rating per night.
///
/// Shards' folders are never nights. With `series`, only nights of that series count (a
/// report's own history: runs of the same config file); without, every tournament folder does.
/// A folder whose `ratings.json` cannot be read is skipped and named in [`Nights::skipped`].
pub fn history(parent: &Path, upto: Option<&str>, series: Option<&str>) -> Nights {
    let mut nights: Vec<(String, RatingsJson)> = Vec::new();
    let mut skipped = Vec::new();
    if let Ok(entries) = std::fs::read_dir(parent) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if upto.is_some_and(|u| name.as_str() > u) {
                continue;
            }
            let path = entry.path().join("ratings.json");
            if !path.exists() {
                continue;
            }
            let parsed = crate::records::journal::read_bounded(&path, 64 << 20)
                .map_err(|e| e.to_string())
                .and_then(|t| serde_json::from_str::<RatingsJson>(&t).map_err(|e| e.to_string()));
            match parsed {
                Ok(r) if r.shard.is_some() => {}
                Ok(r) if series.is_some() && r.tournament.series.as_deref() != series => {}
                Ok(r) => nights.push((name, r)),
                Err(e) => skipped.push(format!("{}: {e}", path.display())),
            }
        }
    }
    nights.sort_by(|a, b| a.0.cmp(&b.0));
    let mut by_engine: BTreeMap<String, Vec<HistoryPoint>> = BTreeMap::new();
    for (night, r) in &nights {
        for e in &r.engines {
            by_engine
                .entry(e.label.clone())
                .or_default()
                .push(HistoryPoint {
                    night: night.clone(),
                    elo: e.elo,
                    lower: e.elo_lower,
                    upper: e.elo_upper,
                });
        }
    }
    Nights {
        names: nights.iter().map(|(n, _)| n.clone()).collect(),
        history: by_engine.into_iter().collect(),
        ratings: nights,
        skipped,
    }
}

/// Writes every report of a tournament and prints the rating list to `out`: the per-pairing
/// folders, `ratings.csv`, `ratings.json`, `report.md`, `report.html` (with the history of the
/// nightly runs beside it, if any) and `summary.txt`.
///
/// # Errors
/// Writing fails.
pub fn report(setup: &RunSetup, outcome: &RunOutcome, out: &mut dyn Write) -> Result<(), RunError> {
    for i in 0..setup.pairings.len() {
        write_pairing(setup, outcome, i, &setup.out.join(pairing_folder(setup, i)))?;
    }
    let r = ratings_json(setup, outcome);
    let mut json = serde_json::to_vec_pretty(&r).map_err(std::io::Error::other)?;
    json.push(b'\n');
    write_atomically(&setup.out.join("ratings.json"), &json)?;
    write_atomically(&setup.out.join("ratings.csv"), &csv(&r)?)?;
    let mut notes = notes(setup, outcome, &r);
    let leak = leak_beside(&setup.out, &mut notes);
    let mut md = markdown(&r, &notes);
    if let Some(l) = &leak {
        md.push_str(&format!(
            "\n## Information leak\n\n{} {}\n\n{}\n{}\n",
            l.context,
            crate::commands::leak::opponent_text(l),
            crate::commands::leak::markdown_table(l),
            crate::commands::leak::MEANING
        ));
    }
    write_atomically(&setup.out.join("report.md"), md.as_bytes())?;

    let name = setup.out.file_name().map_or_else(
        || "tournament".to_string(),
        |n| n.to_string_lossy().to_string(),
    );
    let parent = setup
        .out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let nights = match r.tournament.series.as_deref() {
        Some(series) if setup.shard.is_none() => history(parent, Some(&name), Some(series)),
        _ => Nights::default(),
    };
    let (nights, history) = if nights.names.len() >= 2 && nights.names.last() == Some(&name) {
        (nights.names, nights.history)
    } else {
        (Vec::new(), Vec::new())
    };
    let mut page = page(
        &format!("Tournament {name}"),
        &r,
        nights,
        history,
        notes.clone(),
    );
    page.leak = leak;
    write_atomically(
        &setup.out.join("report.html"),
        html::tournament_html(&page).as_bytes(),
    )?;
    let mut text = text(&r, outcome, &notes);
    if let Some(l) = &page.leak {
        text.push_str("\nInformation leak (leak/leak.md): ");
        let rows: Vec<String> = l
            .rows
            .iter()
            .map(|row| {
                format!(
                    "{} Δ {} [{}, {}] {}",
                    row.engine,
                    elo_text(row.delta.elo),
                    elo_text(row.delta.lower),
                    elo_text(row.delta.upper),
                    row.verdict.short()
                )
            })
            .collect();
        text.push_str(&rows.join("; "));
        text.push('\n');
    }
    write_atomically(&setup.out.join("summary.txt"), text.as_bytes())?;
    out.write_all(text.as_bytes())?;
    writeln!(
        out,
        "Results in {} (report.html, ratings.csv, ratings.json, report.md; a match folder per \
         pairing under pairings/)",
        setup.out.display()
    )?;
    Ok(())
}
