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

use crate::error::Error;
use crate::records::files::write_atomically;
use crate::report::PerMove;
use crate::report::html::{self, HistoryPoint, TournamentPage};
use crate::report::pairing::{elo_text, time_line};
use crate::report::ratings_json::{PairingLine, PairwiseCell, RatedEngine, RatingsJson};
use crate::run::kind::{Mode, TournamentOptions};
use crate::run::scoreboard::{PairingScore, Scoreboard};
use crate::run::{RunOutcome, RunSetup};
use crate::stats::bootstrap::bootstrap_seed;
use crate::stats::ratings::{self, PairingPairs, Ratings};
use crate::stats::{self, Wdl};
use crate::util::text::counted;

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
        .kind
        .tournament()
        .cloned()
        .unwrap_or_else(|| TournamentOptions {
            mode: Mode::Listed,
            anchor: setup.engines[0].label.clone(),
            anchor_elo: 0.0,
            resamples: 1000,
            series: None,
        });
    let board: &Scoreboard = &outcome.board;
    let n = setup.engines.len();
    let np = setup.pairings.len() as u64;
    let mut per_pairing: Vec<BTreeMap<u64, u8>> = vec![BTreeMap::new(); setup.pairings.len()];
    for (job, points) in outcome.points.iter() {
        per_pairing[(job % np) as usize].insert(setup.job(job).1, points);
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
        // An undefined value is NaN: `null` in ratings.json, `—` on the page.
        let defined = |x: f64| if e.no_interval.is_some() { f64::NAN } else { x };
        pairings.push(PairingLine {
            a: a.clone(),
            b: b.clone(),
            pairs: p.ptnml.pairs(),
            wins: p.wdl.wins,
            draws: p.wdl.draws,
            losses: p.wdl.losses,
            score: p.wdl.score(),
            elo: e.elo,
            elo_lower: defined(e.elo_lower),
            elo_upper: defined(e.elo_upper),
            los: defined(e.los),
            interval_undefined: e.no_interval.map(|why| why.reason()),
            ptnml: p.ptnml.counts(),
            average_plies: p.plies as f64 / p.games().max(1) as f64,
            failures: p.failures,
            folder: setup.pairing_folder(i),
        });
    }
    RatingsJson {
        command: setup.options.command.clone(),
        harness_version: env!("CARGO_PKG_VERSION").to_string(),
        builds: outcome.builds.clone(),
        fingerprint: outcome.fingerprint.clone(),
        context: crate::report::run_context(setup, outcome),
        tournament: options,
        pairs: setup.pairs,
        seed: setup.seed,
        counted_pairs: outcome.points.len(),
        shard: setup.shard,
        engines,
        pairwise,
        pairings,
    }
}

fn interval_text(lo: f64, hi: f64) -> String {
    format!("[{}, {}]", elo_text(lo), elo_text(hi))
}

/// The widest column of the pairwise table that still holds an engine's name; longer names are
/// never cut (a cut `ismcts:nodes=2000` reads as 2 nodes): the columns are then numbered by the
/// rating list's `#`, as Ordo does.
const MAX_PAIRWISE_COLUMN: usize = 14;

/// The terminal's pairwise table: each row engine's score against each column engine, rows
/// `w` wide. Columns are the engines' names, or their `#` in the rating list when a name is
/// longer than [`MAX_PAIRWISE_COLUMN`].
fn pairwise_text(r: &RatingsJson, w: usize) -> String {
    let labels: Vec<&str> = r.engines.iter().map(|e| e.label.as_str()).collect();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(6);
    let numbered = longest > MAX_PAIRWISE_COLUMN;
    let heads: Vec<String> = if numbered {
        r.engines.iter().map(|e| format!("#{}", e.rank)).collect()
    } else {
        labels.iter().map(|l| l.to_string()).collect()
    };
    let cw = heads
        .iter()
        .map(|h| h.chars().count())
        .max()
        .unwrap_or(6)
        .max(7);
    let mut s =
        String::from("\nPairwise: the row engine's score against the column engine (games)");
    s.push_str(if numbered {
        "; columns by # in the list above\n"
    } else {
        "\n"
    });
    let rows: Vec<String> = if numbered {
        r.engines
            .iter()
            .map(|e| format!("#{} {}", e.rank, e.label))
            .collect()
    } else {
        labels.iter().map(|l| l.to_string()).collect()
    };
    let w = rows
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(w);
    s.push_str(&format!("{:<w$}", ""));
    for h in &heads {
        s.push_str(&format!("  {h:>cw$}"));
    }
    s.push('\n');
    let cells = r.cells();
    for (row, shown) in labels.iter().zip(&rows) {
        s.push_str(&format!("{shown:<w$}"));
        for col in &labels {
            let c = cells.get(&(*row, *col));
            let t = c.map_or("-".into(), |c| format!("{:.1}%", 100.0 * c.score));
            s.push_str(&format!("  {t:>cw$}"));
        }
        s.push('\n');
    }
    s
}

/// A pairing's interval, `[lo, hi]`, or `(interval undefined: REASON)`.
fn pairing_interval(p: &PairingLine) -> String {
    match &p.interval_undefined {
        Some(why) => format!("(interval undefined: {why})"),
        None => interval_text(p.elo_lower, p.elo_upper),
    }
}

/// A pairing's LOS, `87.6 %`, or `n/a` where its interval is undefined.
fn pairing_los(p: &PairingLine) -> String {
    if p.interval_undefined.is_some() || !p.los.is_finite() {
        "n/a".to_string()
    } else {
        format!("{:.1} %", 100.0 * p.los)
    }
}

/// What a reader must know before trusting the list: a partial run, a shard, ratings the anchor
/// cannot bound.
pub fn notes(setup: &RunSetup, outcome: &RunOutcome, r: &RatingsJson) -> Vec<String> {
    let mut notes = Vec::new();
    let missing = setup.jobs() - outcome.points.len().min(setup.jobs());
    if missing > 0 {
        notes.push(format!(
            "PARTIAL: {missing} of {} pairing-pairs are missing; these ratings rest on part of the \
             run.",
            setup.jobs()
        ));
    }
    let (pairs, repeated) = outcome
        .board
        .pairings()
        .iter()
        .fold((0, 0), |(n, r), p| (n + p.pairs(), r + p.repeated));
    if repeated as f64 > crate::run::scoreboard::REPEAT_SHARE * pairs as f64 {
        notes.push(format!(
            "REPEATED: {repeated} of {pairs} pairs repeat earlier pairs of their pairing move for \
             move: the games are not independent and the intervals are too narrow (play from \
             an opening book, --openings)."
        ));
    }
    if let Some(line) = crate::report::failure_verdict(setup, &outcome.board) {
        notes.push(line.trim_end().to_string());
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
    s.push_str(&format!("Build: {}\n", r.builds.line()));
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
    s.push_str(&pairwise_text(r, w));
    s.push_str("\nPairings (the first engine's results; Elo from this pairing alone):\n");
    for p in &r.pairings {
        s.push_str(&format!(
            "  {} vs {}: {}, W-D-L {}-{}-{}, {:.1} %, Elo {} {}, LOS {}, Ptnml {:?}, {:.1} plies{}\n",
            p.a,
            p.b,
            counted(p.pairs, "pair"),
            p.wins,
            p.draws,
            p.losses,
            100.0 * p.score,
            elo_text(p.elo),
            pairing_interval(p),
            pairing_los(p),
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
    s.push_str(&format!("Build: {}\n\n", md(&r.builds.line())));
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
    let cells = r.cells();
    for row in &r.engines {
        s.push_str(&format!("| **{}** |", md(&row.label)));
        for col in &r.engines {
            let c = cells.get(&(row.label.as_str(), col.label.as_str()));
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
            "| {} vs {} | {} | {}-{}-{} | {:.1} % | {} {} | {} | {} | {:.1} | {} {}, {} {} | [{}]({}/) · [games]({}/games.html) |\n",
            md(&p.a),
            md(&p.b),
            p.pairs,
            p.wins,
            p.draws,
            p.losses,
            100.0 * p.score,
            elo_text(p.elo),
            pairing_interval(p),
            pairing_los(p),
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
    // The grid is only drawn for a list the heat map can show: beyond, it would be `n²`
    // empty cells held for nothing (4,000 engines took 1.2 GB).
    let pairwise = if r.engines.len() <= html::MAX_HEAT_MAP {
        let cells = r.cells();
        r.engines
            .iter()
            .map(|row| {
                r.engines
                    .iter()
                    .map(|col| {
                        cells
                            .get(&(row.label.as_str(), col.label.as_str()))
                            .map(|c| (*c).clone())
                    })
                    .collect()
            })
            .collect()
    } else {
        Vec::new()
    };
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
        identity: crate::report::nights::code_line(&r.builds),
        ..TournamentPage::default()
    }
}

/// The leak report measured beside a tournament: `DIR/leak/leak.json`, as `arena leak --config
/// … --out DIR/leak` writes it (scripts/nightly.sh does so for a config with a `leak` section).
/// A file that cannot be read becomes a note.
fn leak_beside(dir: &Path, notes: &mut Vec<String>) -> Option<crate::report::leak::LeakJson> {
    let path = dir.join("leak").join("leak.json");
    if !path.is_file() {
        return None;
    }
    let read = crate::records::files::read_bounded(&path, crate::records::files::MAX_SMALL_FILE)
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

/// Writes every report of a tournament and prints the rating list to `out`: the per-pairing
/// folders (each with its games index), `ratings.csv`, `ratings.json`, `report.md`, `report.html` (with the history of the
/// nightly runs beside it, if any) and `summary.txt`.
///
/// # Errors
/// Writing fails.
pub fn report(setup: &RunSetup, outcome: &RunOutcome, out: &mut dyn Write) -> Result<(), Error> {
    crate::report::pairing::write_pairings(setup, outcome)?;
    let r = ratings_json(setup, outcome);
    let mut json = serde_json::to_vec_pretty(&r).map_err(std::io::Error::other)?;
    json.push(b'\n');
    write_atomically(&setup.options.out.join("ratings.json"), &json)?;
    write_atomically(&setup.options.out.join("ratings.csv"), &csv(&r)?)?;
    let mut notes = notes(setup, outcome, &r);
    let leak = leak_beside(&setup.options.out, &mut notes);
    let mut md = markdown(&r, &notes);
    if let Some(l) = &leak {
        md.push_str(&format!(
            "\n## Information leak\n\n{} {}\n\n{}\n{}\n",
            l.context,
            crate::report::leak::opponent_text(l),
            crate::report::leak::markdown_table(l),
            crate::report::leak::MEANING
        ));
    }
    write_atomically(&setup.options.out.join("report.md"), md.as_bytes())?;

    let name = setup.options.out.file_name().map_or_else(
        || "tournament".to_string(),
        |n| n.to_string_lossy().to_string(),
    );
    let mut page = page(
        &format!("Tournament {name}"),
        &r,
        Vec::new(),
        Vec::new(),
        notes.clone(),
    );
    // A night (a folder scripts/nightly.sh made) shows its series' history up to itself.
    if setup.shard.is_none() && crate::report::nights::read_night(&setup.options.out).is_ok() {
        let parent = setup
            .options
            .out
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let scan = crate::report::nights::scan(parent);
        if let Some((series, i)) = scan.find(&name) {
            crate::report::nights::decorate(&mut page, series, i, "../");
        }
    }
    page.leak = leak;
    write_atomically(
        &setup.options.out.join("report.html"),
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
    write_atomically(&setup.options.out.join("summary.txt"), text.as_bytes())?;
    out.write_all(text.as_bytes())?;
    writeln!(
        out,
        "Results in {} (report.html, ratings.csv, ratings.json, report.md; a match folder per \
         pairing under pairings/)",
        setup.options.out.display()
    )?;
    writeln!(
        out,
        "Games: {} (a games index in each pairing's folder, linked from report.html)",
        setup.options.out.join("pairings/*/games.html").display()
    )?;
    Ok(())
}
