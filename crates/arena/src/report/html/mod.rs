//! The HTML pages of the reports: `report.html` for one tournament ([`tournament_html`]), the
//! index of one series of nightly runs ([`index_html`]) and the games index of a match folder
//! ([`games_html`]), plus the three SVG charts the first two inline ([`rating_chart`],
//! [`heat_map`], [`history_chart`]), drawn with plotters' SVG backend.
//! A night's report carries its links to the series index and its neighbours between markers,
//! so that `arena history` can replace them when the next night has run ([`replace_night_nav`]).
//!
//! The pages are self-contained: inline CSS, inline SVG, no scripts, no external resources, so a
//! report folder can be copied or served as static files. Every text that comes from the data is
//! HTML-escaped. Nothing here panics on odd numbers: NaN ratings read "unrated", infinite ones
//! "+inf"/"−inf", charts keep a finite axis and mark such engines at its edge, and a chart that
//! cannot be drawn is replaced by a short note. At 800 px the rating list still fits: the
//! points and games columns (in W / D / L already) give way, and the engine column stays in view
//! when a table scrolls sideways.
//!
//! The files, each using only those listed before it (and, for `charts/` and `page.rs`, this
//! file's types):
//! - `format.rs`: the text: HTML escaping, Elo values, intervals, percentages, safe links;
//! - `style.rs`: the look every page shares: the inline CSS, the head and the foot;
//! - `charts/`: the SVG charts (one file a chart) and their helpers (colours, fonts, axis ranges);
//! - `page.rs`: the page writers: the tables, the leak, history and commits sections, the night
//!   links, the tournament page and the index;
//! - `games.rs`: the games index, what it shows ([`GamesPage`], [`GameRow`]) and the page as a
//!   string ([`games_html`]); it uses none of this file's types, so that the two-engine reports
//!   below the tournament's can use it (`report::games_index` names it `html::games`);
//! - `spsa.rs`: `arena spsa`'s page (spsa.html): the result, the parameters and one small
//!   inline SVG path per parameter; it uses `format.rs` and `style.rs` only;
//! - this file: what a tournament or index page shows ([`TournamentPage`], [`HistoryPoint`],
//!   [`Delta`], [`NightNav`], [`Index`], [`NightLink`], [`SeriesLink`]) and the pages as strings.

mod charts;
mod format;
pub mod games;
mod page;
pub mod spsa;
mod style;

pub use charts::{ChartError, MAX_HEAT_MAP, heat_map, history_chart, rating_chart};
pub use games::{GameRow, GamesPage, games_html};

use crate::report::ratings_json::{PairingLine, PairwiseCell, RatedEngine};

/// One night's rating of one engine, for the history chart.
#[derive(Clone, Debug)]
pub struct HistoryPoint {
    /// The night, e.g. "2026-11-30" (one of [`TournamentPage::nights`]).
    pub night: String,
    /// Rating that night.
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub lower: f64,
    /// Upper end of the 95 % interval.
    pub upper: f64,
}

/// An engine's change since the previous night of its series, in the rating list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Delta {
    /// It did not play that night (or played with another spec).
    New,
    /// Its rating moved by this much (both ratings finite).
    Elo(f64),
    /// It played, but a rating either night is ±inf or unrated.
    Unknown,
}

/// A link to a night from another page.
#[derive(Clone, Debug, PartialEq)]
pub struct NightRef {
    /// The night, e.g. "2026-11-30".
    pub night: String,
    /// The link, relative to the page that shows it.
    pub href: String,
}

/// Where a night's report links to: the index of its series and its neighbours in the series.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NightNav {
    /// The index page of the series, relative to the report.
    pub index: String,
    /// The previous night of the series.
    pub previous: Option<NightRef>,
    /// The next night of the series (known once it has run: `arena history` rewrites the nav).
    pub next: Option<NightRef>,
}

/// Everything a tournament page shows.
#[derive(Clone, Debug, Default)]
pub struct TournamentPage {
    /// Page title, e.g. "Nightly 2026-11-30".
    pub title: String,
    /// One line of conditions, e.g. "nodes=2000, 5 engines, round robin, 200 pairs per pairing".
    pub context: String,
    /// The anchor, e.g. "greedy = 0".
    pub anchor: String,
    /// The rating list, in rank order.
    pub ratings: Vec<RatedEngine>,
    /// `[row][col]` in the ratings' rank order; None on the diagonal or without games.
    pub pairwise: Vec<Vec<Option<PairwiseCell>>>,
    /// The per-pairing table.
    pub pairings: Vec<PairingLine>,
    /// History x axis, oldest first (this night last when history exists); empty: no history.
    pub nights: Vec<String>,
    /// Per engine label, its points (the nights it played).
    pub history: Vec<(String, Vec<HistoryPoint>)>,
    /// Free text lines, e.g. a homogeneity warning or missing pairs.
    pub notes: Vec<String>,
    /// The information-leak report measured beside the tournament (its `leak/` folder, written
    /// by `arena leak`), if any.
    pub leak: Option<crate::report::leak::LeakJson>,
    /// The previous night of the series when the rating list has a Δ column, and each rated
    /// engine's change since then (in the ratings' order).
    pub deltas: Option<(String, Vec<Delta>)>,
    /// A night's links to its index and neighbours; None for a tournament that is not a night.
    pub nav: Option<NightNav>,
    /// One line saying what code played, e.g. "code 1a2b3c4 (dirty) · arena sha256 9f86d081…".
    pub identity: Option<String>,
    /// The commits since the previous night (`<hash> <subject>` lines, at most
    /// [`MAX_COMMITS`](crate::report::nights::MAX_COMMITS)) and how many there were in all.
    pub commits: Option<(Vec<String>, usize)>,
    /// The series this page's history is of, in one line.
    pub series: Option<String>,
}

/// A link to one night in the index page.
#[derive(Clone, Debug)]
pub struct NightLink {
    /// The night, e.g. "2026-11-30".
    pub night: String,
    /// Relative link to its report.
    pub href: String,
    /// One line, e.g. "5 engines, 2000 games, best: ab +312".
    pub summary: String,
    /// What code played that night, in one line.
    pub identity: Option<String>,
}

/// A link to one series' index page.
#[derive(Clone, Debug)]
pub struct SeriesLink {
    /// Its index page, relative to the one that shows the link.
    pub href: String,
    /// What its conditions are, in one line.
    pub description: String,
    /// Its number of nights.
    pub nights: usize,
    /// Its newest night.
    pub newest: String,
    /// Whether it is the page's own series.
    pub current: bool,
}

/// Everything the index page of one series shows.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// The series, in one line.
    pub series: String,
    /// Its nights, any order (newest first on the page).
    pub nights: Vec<NightLink>,
    /// The newest night's page: rating list (with Δ) and history.
    pub latest: Option<TournamentPage>,
    /// Every series of the root, this one marked, for the picker (shown from two series on).
    pub all_series: Vec<SeriesLink>,
    /// The folders that are not nights, with why.
    pub skipped: Vec<String>,
}

/// The self-contained page of one tournament (report.html): no external resources (CSS inline,
/// SVG inline, no JS needed). Top to bottom: title, context and anchor; the rating list; the
/// rating chart; the head-to-head heat map; the per-pairing table with links to the match
/// folders; the history chart (from two nights on); the notes.
pub fn tournament_html(page: &TournamentPage) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = page::write_tournament(&mut out, page);
    out
}

/// The index of one series of nightly runs (index.html): the latest night's rating list, the
/// history chart of every engine (from two nights on), links to every night, newest first, the
/// other series and what was skipped.
pub fn index_html(index: &Index) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = page::write_index(&mut out, index);
    out
}

/// A report page with its night links replaced by `nav`'s; None when the page has no night
/// links (not a night's report, or written before they existed).
pub fn replace_night_nav(report: &str, nav: &NightNav) -> Option<String> {
    page::replace_night_nav(report, nav)
}

/// A test page shared by the files' tests.
#[cfg(test)]
mod fixtures {
    use super::*;

    fn row(rank: usize, label: &str, elo: f64, anchor: bool) -> RatedEngine {
        RatedEngine {
            rank,
            label: label.to_string(),
            spec: label.to_string(),
            elo,
            elo_lower: elo - 30.0,
            elo_upper: elo + 30.0,
            cfs_next: Some(0.97),
            points: 120.5,
            games: 200,
            wins: 100,
            draws: 41,
            losses: 59,
            score: 120.5 / 200.0,
            draw_rate: 0.205,
            anchor,
            failures: 0,
            time_forfeits: 0,
            per_move: crate::report::PerMove {
                moves: 0,
                ms: 0.0,
                nodes: 0.0,
                depth: None,
                without_depth: 0,
                mate_depths: 0,
                failed: 0,
            },
        }
    }

    fn cell(score: f64) -> Option<PairwiseCell> {
        Some(PairwiseCell {
            row: "r".into(),
            col: "c".into(),
            score,
            games: 100,
            elo: 0.0,
            los: 0.5,
        })
    }

    pub(super) fn page(labels: &[&str], nights: usize) -> TournamentPage {
        let ratings: Vec<RatedEngine> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| row(i + 1, l, 300.0 - 150.0 * i as f64, i == 1))
            .collect();
        let n = ratings.len();
        let pairwise = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        if i == j {
                            None
                        } else {
                            cell(if i < j { 0.7 } else { 0.3 })
                        }
                    })
                    .collect()
            })
            .collect();
        let night_names: Vec<String> = (0..nights)
            .map(|k| format!("2026-11-{:02}", 20 + k))
            .collect();
        let history = labels
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let pts = night_names
                    .iter()
                    .map(|night| HistoryPoint {
                        night: night.clone(),
                        elo: 100.0 * i as f64,
                        lower: 100.0 * i as f64 - 20.0,
                        upper: 100.0 * i as f64 + 20.0,
                    })
                    .collect();
                (l.to_string(), pts)
            })
            .collect();
        TournamentPage {
            title: "Nightly 2026-11-30".into(),
            context: "nodes=2000, round robin".into(),
            anchor: "greedy = 0".into(),
            ratings,
            pairwise,
            pairings: vec![PairingLine {
                a: labels.first().unwrap_or(&"a").to_string(),
                b: labels.get(1).unwrap_or(&"b").to_string(),
                pairs: 100,
                wins: 120,
                draws: 40,
                losses: 40,
                score: 0.7,
                elo: 147.2,
                elo_lower: 120.0,
                elo_upper: 175.0,
                los: 0.98,
                interval_undefined: None,
                ptnml: [1, 5, 30, 40, 24],
                average_plies: 87.3,
                failures: [0, 1],
                folder: "pairings/01-ab-vs-greedy".into(),
            }],
            nights: night_names,
            history,
            ..TournamentPage::default()
        }
    }
}
