//! The information-leak report of `arena leak`: what seeing every hidden piece is worth to an
//! engine, omniscient against fair.
//!
//! For each measured engine E, on the same deals (pair p has the same deal in every arm, as in
//! every run of several pairings): arm F = E fair vs the opponent O, arm Ω = E omniscient vs O,
//! and the head-to-head E omniscient vs E fair. Without an opponent, O is E's own fair self: arm
//! F is then 0 by symmetry and is not played, and arm Ω is the head-to-head.
//!
//! Δ = Elo(Ω) − Elo(F) is how much E would gain by seeing every hidden piece against O. Its 95 %
//! interval comes from a paired bootstrap over pair indices: the arms share deals, so each
//! resample draws pair indices once and recomputes both arms from them (see
//! `reference/arena-statistics.md`, "Paired differences"); the interval from the two arms'
//! independent intervals in quadrature is printed beside it, to show what pairing buys.
//!
//! An engine whose Δ is ≈ 0 while it searches either ignores the hidden identities or already
//! sees them — a leak. The `faulty:mode=peek` test engine is such a leak on purpose (the harness
//! hands it the truth while every record calls it fair): its row must come out ≈ 0, and the
//! report says so.
//!
//! The run is the run core's ([`crate::run::execute`]); its slots and pairings are laid out by
//! [`crate::run::kind::arms`]; this module turns its counted pairs into the report ([`report`]).

use std::collections::BTreeMap;
use std::io::Write;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::records::files::write_atomically;
use crate::report::pairing::elo_text;
use crate::run::{RunOutcome, RunSetup};
use crate::stats;
use crate::stats::block::json_f64;
use crate::stats::bootstrap::bootstrap_seed;
use crate::stats::bootstrap::{LOWER_Q, UPPER_Q, quantile_sorted, uniform_below};

/// One arm's result, from the measured engine's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArmResult {
    /// Pairs counted.
    pub pairs: u64,
    /// Mean score.
    pub score: f64,
    /// Logistic Elo of the score.
    #[serde(with = "json_f64")]
    pub elo: f64,
    /// Lower end of its 95 % interval (pentanomial).
    #[serde(with = "json_f64")]
    pub elo_lower: f64,
    /// Upper end.
    #[serde(with = "json_f64")]
    pub elo_upper: f64,
    /// Pentanomial counts `[LL, LD, WL+DD, WD, WW]`.
    pub ptnml: [u64; 5],
    /// Games lost to engine failures (crash, timeout, illegal move…): the measured engine's, the
    /// other's.
    pub failures: [u64; 2],
    /// The arm's match folder, relative to the run's.
    pub folder: String,
}

/// Δ = Elo(Ω) − Elo(F) with its intervals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Delta {
    /// The point estimate.
    #[serde(with = "json_f64")]
    pub elo: f64,
    /// 2.5 % quantile of the paired bootstrap.
    #[serde(with = "json_f64")]
    pub lower: f64,
    /// 97.5 % quantile of the paired bootstrap.
    #[serde(with = "json_f64")]
    pub upper: f64,
    /// The lower end as if the arms were independent: Δ − √(dΩ² + uF²), with dΩ the distance from
    /// Ω's Elo down to its lower end and uF from F's Elo up to its upper end.
    #[serde(with = "json_f64")]
    pub independent_lower: f64,
    /// The upper end: Δ + √(uΩ² + dF²).
    #[serde(with = "json_f64")]
    pub independent_upper: f64,
    /// Pair indices the bootstrap drew from (those every arm has).
    pub pairs: u64,
}

/// Δ's resolution: an interval that contains 0 says "no measurable gain" only when its
/// half-width is at most this many Elo; wider, it is inconclusive.
pub const RESOLUTION: f64 = 50.0;

/// The fewest pairs (indices both of Δ's arms have) a verdict rests on. With k pairs a resample
/// repeats one pair k times with probability k^(1−k) (11 % for 3 pairs), and a percentile interval
/// of so few distinct values is far too narrow: with 1 pair it has zero width, so an engine that
/// drew its one pair would be said to gain nothing. Fewer pairs are inconclusive whatever the
/// interval.
pub const MIN_PAIRS: u64 = 10;

/// What a row's interval says.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Δ > 0 with 95 % confidence: the engine uses the hidden identities when it sees them, so its
    /// fair view hides them.
    Gains,
    /// The interval contains 0 and is narrow (half-width ≤ [`RESOLUTION`]): it ignores the
    /// identities, or already sees them (a leak).
    NoGain,
    /// Δ < 0 with 95 % confidence: seeing everything makes it play worse (a bug in its omniscient
    /// use of the information).
    Loses,
    /// The interval contains 0 but is wider than [`RESOLUTION`] either way, or it is undefined
    /// (NaN): play more pairs.
    Inconclusive,
    /// Fewer than [`MIN_PAIRS`] pairs: no interval from so few means anything (one pair gives a
    /// zero-width interval); play more pairs.
    TooFewPairs,
    /// Arm Ω or arm F scored 0 % or 100 %: its Elo, and Δ, are unbounded; Δ cannot be measured
    /// against this opponent at this budget. (The head-to-head is not part of Δ: it saturating
    /// alone is a note, not this verdict.)
    Saturated,
    /// Games of the row's arms were lost to engine failures (crash, timeout, illegal move,
    /// error): Δ measures the failures, not the information.
    EngineFailures,
}

impl Verdict {
    /// A word or two for a table cell.
    pub fn short(self) -> &'static str {
        match self {
            Verdict::Gains => "gains",
            Verdict::NoGain => "no gain",
            Verdict::Loses => "loses",
            Verdict::Inconclusive => "inconclusive",
            Verdict::TooFewPairs => "inconclusive (too few pairs)",
            Verdict::Saturated => "saturated",
            Verdict::EngineFailures => "engine failures",
        }
    }

    /// What the verdict says, in a sentence ([`LeakRow::verdict_text`] also names a saturated
    /// arm).
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Gains => "gains from seeing the hidden pieces (its fair view hides them)",
            Verdict::NoGain => {
                "no measurable gain: it ignores the hidden identities, or it already sees them \
                 (a leak)"
            }
            Verdict::Loses => {
                "plays worse when it sees everything: its omniscient mode misuses the information"
            }
            Verdict::Inconclusive => {
                "inconclusive: the interval contains 0 but is too wide to tell (half-width over \
                 50 Elo) or undefined; play more pairs"
            }
            Verdict::TooFewPairs => {
                "inconclusive: too few pairs (fewer than 10) for an interval to mean anything; \
                 play more pairs"
            }
            Verdict::Saturated => {
                "saturated: arm Ω or arm F scored 0 % or 100 %, so its Elo and Δ are unbounded; \
                 measure against an opponent nearer its strength (--opponent) or at another budget"
            }
            Verdict::EngineFailures => {
                "engine failures: games of its arms were lost to crashes, timeouts, illegal \
                 moves or errors, so Δ measures those; see the notes and fix the engine first"
            }
        }
    }

    /// The verdict of a row from its arms, the pairs Δ rests on and Δ's interval: failures (in
    /// any arm, the head-to-head too) first, then too few pairs, then saturation of an arm of Δ
    /// (Ω or F), then where the interval lies.
    fn of(row: Arms<'_>, pairs: u64, lower: f64, upper: f64) -> Verdict {
        let all = [Some(row.omniscient), row.fair, Some(row.head_to_head)];
        if all.iter().flatten().any(|a| a.failures != [0, 0]) {
            Verdict::EngineFailures
        } else if pairs < MIN_PAIRS {
            Verdict::TooFewPairs
        } else if saturated(row.omniscient) || row.fair.is_some_and(saturated) {
            Verdict::Saturated
        } else if lower.is_nan() || upper.is_nan() {
            // NaN: every resample had both arms unbounded the same way.
            Verdict::Inconclusive
        } else if lower > 0.0 {
            Verdict::Gains
        } else if upper < 0.0 {
            Verdict::Loses
        } else if lower >= -RESOLUTION && upper <= RESOLUTION {
            Verdict::NoGain
        } else {
            Verdict::Inconclusive
        }
    }
}

/// Whether an arm scored 0 % or 100 %, which makes its Elo infinite.
fn saturated(a: &ArmResult) -> bool {
    a.pairs > 0 && (a.score <= 0.0 || a.score >= 1.0)
}

/// A row's arms, for its verdict.
#[derive(Copy, Clone)]
struct Arms<'a> {
    omniscient: &'a ArmResult,
    fair: Option<&'a ArmResult>,
    head_to_head: &'a ArmResult,
}

/// One engine's row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeakRow {
    /// The engine's label.
    pub engine: String,
    /// Its spec as written.
    pub spec: String,
    /// Arm F (fair vs O); `None` without an opponent: 0 by symmetry.
    pub fair: Option<ArmResult>,
    /// Arm Ω (omniscient vs O).
    pub omniscient: ArmResult,
    /// Ω − F.
    pub delta: Delta,
    /// E omniscient vs E fair.
    pub head_to_head: ArmResult,
    /// What the interval says.
    pub verdict: Verdict,
    /// Whether this is the positive control (`faulty:mode=peek`): a harness leak whose Δ must
    /// contain 0.
    pub control: bool,
}

impl LeakRow {
    /// What the row's verdict says, in a sentence: [`Verdict::text`], except that a saturated
    /// row names the arm and its score.
    pub fn verdict_text(&self) -> String {
        if self.verdict != Verdict::Saturated {
            return self.verdict.text().to_string();
        }
        let against = if self.fair.is_some() {
            "vs O"
        } else {
            "vs its own fair self"
        };
        let mut which = Vec::new();
        for (name, side, a) in [
            ("Ω", "omniscient", Some(&self.omniscient)),
            ("F", "fair", self.fair.as_ref()),
        ] {
            if let Some(a) = a.filter(|a| saturated(a)) {
                which.push(format!(
                    "arm {name} ({side} {against}) scored {} %",
                    if a.score >= 1.0 { 100 } else { 0 }
                ));
            }
        }
        format!(
            "saturated: {}, so its Elo and Δ are unbounded; measure against an opponent nearer \
             its strength (--opponent) or at another budget",
            which.join(" and ")
        )
    }
}

impl LeakRow {
    /// With an opponent, a note when the head-to-head alone scored 0 % or 100 %: its Elo is
    /// unbounded, but Δ does not use it, so the verdict stands. (Without one, the head-to-head is
    /// arm Ω, and the verdict says so.)
    fn head_to_head_note(&self) -> Option<String> {
        (self.fair.is_some() && saturated(&self.head_to_head)).then(|| {
            format!(
                "{}'s head-to-head (omniscient vs fair) scored {} %, so its Elo is unbounded; Δ \
                 does not use it (Δ compares arms Ω and F, both against O).",
                self.engine,
                if self.head_to_head.score >= 1.0 {
                    100
                } else {
                    0
                }
            )
        })
    }
}

/// `leak.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeakJson {
    /// The command line.
    pub command: String,
    /// Harness version.
    pub harness_version: String,
    /// The code that played the run (`build`, `later_builds`).
    #[serde(flatten)]
    pub builds: crate::records::build::Builds,
    /// The run's fingerprint.
    pub fingerprint: String,
    /// Limits, threads, seed, rules, pairs.
    pub context: String,
    /// The opponent's label; `None`: each engine's own fair self.
    pub opponent: Option<String>,
    /// Pairs asked for per arm.
    pub pairs: u64,
    /// Master seed.
    pub seed: u64,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// One row per engine.
    pub rows: Vec<LeakRow>,
    /// What a reader must know (partial run, shard, a control that failed).
    pub notes: Vec<String>,
}

/// Per local pair index, the first engine's half-points (0–4) in pairing `i`.
fn pair_points(setup: &RunSetup, outcome: &RunOutcome, i: usize) -> BTreeMap<u64, u8> {
    let n = setup.pairings.len() as u64;
    outcome
        .points
        .iter()
        .filter(|(job, _)| *job % n == i as u64)
        .map(|(job, points)| (job / n, points))
        .collect()
}

fn arm(setup: &RunSetup, outcome: &RunOutcome, i: usize) -> ArmResult {
    let p = &outcome.board.pairings()[i];
    let e = stats::pentanomial(&p.ptnml);
    ArmResult {
        pairs: p.ptnml.counts().iter().sum(),
        score: e.score,
        // `+ 0.0` turns −0 into +0.
        elo: e.elo + 0.0,
        elo_lower: e.elo_lower + 0.0,
        elo_upper: e.elo_upper + 0.0,
        ptnml: p.ptnml.counts(),
        failures: p.failures,
        folder: setup.pairing_folder(i),
    }
}

/// The paired bootstrap of Δ over the pair indices both arms have: `resamples` draws of as many
/// indices as there are, with replacement (ChaCha8 seeded with `seed`, Lemire's method), each
/// arm's Elo from the drawn pairs' mean score, Δ = Ω − F (F ≡ 0 when `fair` is `None`). Returns
/// the 2.5 % and 97.5 % quantiles (resamples where both arms are unbounded the same way are
/// left out) and the number of indices.
pub fn paired_delta(
    omniscient: &BTreeMap<u64, u8>,
    fair: Option<&BTreeMap<u64, u8>>,
    resamples: usize,
    seed: u64,
) -> (f64, f64, u64) {
    let both: Vec<(u8, u8)> = omniscient
        .iter()
        .filter_map(|(p, &w)| match fair {
            None => Some((w, 2)),
            Some(f) => f.get(p).map(|&h| (w, h)),
        })
        .collect();
    let k = both.len();
    if k == 0 {
        return (f64::NAN, f64::NAN, 0);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deltas = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        let (mut w, mut f) = (0u64, 0u64);
        for _ in 0..k {
            let (a, b) = both[uniform_below(&mut rng, k as u64) as usize];
            w += u64::from(a);
            f += u64::from(b);
        }
        let total = 4.0 * k as f64;
        let fair_elo = if fair.is_some() {
            stats::elo_from_score(f as f64 / total)
        } else {
            0.0
        };
        // `+ 0.0` turns −0 (Elo(½) is −0) into +0: no interval end prints `-0.0`.
        let d = stats::elo_from_score(w as f64 / total) - fair_elo + 0.0;
        if !d.is_nan() {
            deltas.push(d);
        }
    }
    deltas.sort_by(f64::total_cmp);
    (
        quantile_sorted(&deltas, LOWER_Q),
        quantile_sorted(&deltas, UPPER_Q),
        k as u64,
    )
}

/// Computes the report of a leak run from its counted pairs.
///
/// # Panics
/// Panics if `setup` is not a leak run.
pub fn leak_json(setup: &RunSetup, outcome: &RunOutcome) -> LeakJson {
    let leak = setup.kind.leak().expect("a leak run");
    let seed = bootstrap_seed(setup.seed);
    let mut rows = Vec::new();
    for (r, a) in leak.arms.iter().enumerate() {
        let omniscient = arm(setup, outcome, a.omniscient_arm);
        let fair = a.fair_arm.map(|i| arm(setup, outcome, i));
        let head_to_head = arm(setup, outcome, a.head_to_head);
        let w_points = pair_points(setup, outcome, a.omniscient_arm);
        let f_points = a.fair_arm.map(|i| pair_points(setup, outcome, i));
        let (lower, upper, pairs) = paired_delta(
            &w_points,
            f_points.as_ref(),
            leak.resamples,
            jieqi_engine::mix(seed, r as u64),
        );
        let fair_elo = fair.as_ref().map_or(0.0, |f| f.elo);
        let elo = omniscient.elo - fair_elo;
        // Independent: each side of the interval from the arms' own distances in quadrature
        // (Δ falls when Ω falls or F rises).
        let (down_f, up_f) = fair
            .as_ref()
            .map_or((0.0, 0.0), |f| (f.elo - f.elo_lower, f.elo_upper - f.elo));
        let independent_lower = elo - (omniscient.elo - omniscient.elo_lower).hypot(up_f);
        let independent_upper = elo + (omniscient.elo_upper - omniscient.elo).hypot(down_f);
        let arms = Arms {
            omniscient: &omniscient,
            fair: fair.as_ref(),
            head_to_head: &head_to_head,
        };
        let verdict = Verdict::of(arms, pairs, lower, upper);
        let entry = &setup.engines[a.fair];
        rows.push(LeakRow {
            engine: a.engine.clone(),
            spec: entry.spec.to_string(),
            fair,
            omniscient,
            delta: Delta {
                elo,
                lower,
                upper,
                independent_lower,
                independent_upper,
                pairs,
            },
            head_to_head,
            verdict,
            control: entry.peeks,
        });
    }
    let mut notes = Vec::new();
    let missing = setup.jobs() - outcome.points.len().min(setup.jobs());
    if missing > 0 {
        notes.push(format!(
            "PARTIAL: {missing} of {} arm-pairs are missing; these figures rest on part of the run.",
            setup.jobs()
        ));
    }
    if let Some(s) = setup.shard {
        notes.push(if setup.local_pairs() == 0 {
            format!(
                "Shard {s} holds none of the run's {} pair{}: it has nothing to play.",
                setup.pairs,
                if setup.pairs == 1 { "" } else { "s" }
            )
        } else {
            format!(
                "This is shard {s} of the run: merge every shard's folder with `arena merge` for \
                 the run's figures."
            )
        });
    }
    for row in &rows {
        let arms = [
            ("F", row.fair.as_ref()),
            ("Ω", Some(&row.omniscient)),
            ("head-to-head", Some(&row.head_to_head)),
        ];
        let mut seen = Vec::new();
        for (name, a) in arms {
            if let Some(a) = a.filter(|a| a.failures != [0, 0] && !seen.contains(&&a.folder)) {
                seen.push(&a.folder);
                notes.push(format!(
                    "Engine failures in {}'s arm {name} ({}): {} of the engine's games, {} of \
                     its opponent's were lost to a crash, timeout, illegal move or error.",
                    row.engine, a.folder, a.failures[0], a.failures[1]
                ));
            }
        }
    }
    notes.extend(rows.iter().filter_map(LeakRow::head_to_head_note));
    for row in rows.iter().filter(|r| r.control) {
        let figures = format!(
            "Δ {} {}",
            elo(row.delta.elo),
            interval(row.delta.lower, row.delta.upper)
        );
        notes.push(match row.verdict {
            Verdict::Gains | Verdict::Loses => format!(
                "WARNING: the positive control '{}' (handed the truth while labelled fair) came \
                 out with {figures}, not ≈ 0: this report would not catch a leak; do not trust \
                 it.",
                row.engine
            ),
            Verdict::NoGain => format!(
                "Positive control '{}' (handed the truth while labelled fair): {figures} \
                 contains 0, as a leak must: the report catches an engine that already sees \
                 everything.",
                row.engine
            ),
            Verdict::Saturated
            | Verdict::Inconclusive
            | Verdict::TooFewPairs
            | Verdict::EngineFailures => format!(
                "The positive control '{}' is {} ({figures}): it cannot show whether this \
                 report catches a leak; use more pairs, another opponent or another budget.",
                row.engine,
                row.verdict.short()
            ),
        });
    }
    LeakJson {
        command: setup.options.command.clone(),
        harness_version: env!("CARGO_PKG_VERSION").to_string(),
        builds: outcome.builds.clone(),
        fingerprint: outcome.fingerprint.clone(),
        // The omniscient copies share their engines' limits: name each engine once.
        context: RunSetup {
            spec: crate::run::RunSpec {
                engines: setup
                    .engines
                    .iter()
                    .filter(|e| !e.omniscient)
                    .cloned()
                    .collect(),
                ..setup.spec.clone()
            },
            options: setup.options.clone(),
        }
        .context(),
        opponent: leak.opponent.clone(),
        pairs: setup.pairs,
        seed: setup.seed,
        resamples: leak.resamples,
        rows,
        notes,
    }
}

/// An Elo figure: `+12.3`, `+inf`, or `n/a` where it is undefined (∞ − ∞).
fn elo(x: f64) -> String {
    if x.is_nan() {
        "n/a".into()
    } else {
        elo_text(x)
    }
}

fn interval(lo: f64, hi: f64) -> String {
    format!("[{}, {}]", elo(lo), elo(hi))
}

fn arm_cell(a: &ArmResult) -> String {
    format!("{} {}", elo(a.elo), interval(a.elo_lower, a.elo_upper))
}

/// The opponent as a sentence.
pub fn opponent_text(l: &LeakJson) -> String {
    match &l.opponent {
        Some(o) => format!("Opponent O: {o} (fair)."),
        None => "Opponent O: each engine's own fair self, so arm F is 0 by symmetry (not played) \
                 and Δ is the head-to-head."
            .to_string(),
    }
}

/// What Δ means, as the reports print it.
pub const MEANING: &str = "Δ = Elo(Ω) − Elo(F): how much the engine would gain by seeing every \
hidden piece against O. Its interval is a paired bootstrap over pair indices (the arms share \
deals); the independent one beside it combines the arms' own intervals in quadrature, for \
comparison. An engine whose Δ is ≈ 0 (an interval containing 0, no wider than ±50 Elo) while it \
searches either ignores the hidden identities or already sees them — a leak.";

/// The report's table as cells: a header row, then one row per engine. Without an opponent the
/// F and Ω columns are left out (F is 0 by symmetry, Ω is the head-to-head).
pub fn table(l: &LeakJson) -> Vec<Vec<String>> {
    let with_opponent = l.opponent.is_some();
    let mut head = vec!["Engine"];
    if with_opponent {
        head.extend(["F: fair vs O", "Ω: omniscient vs O"]);
    }
    head.extend([
        "Δ = Ω − F [paired 95 %]",
        "[independent]",
        "Head-to-head Ω vs F",
        "Pairs",
        "Verdict",
    ]);
    let mut rows = vec![head.into_iter().map(String::from).collect::<Vec<_>>()];
    for r in &l.rows {
        let mut row = vec![if r.control {
            format!("{} (control)", r.engine)
        } else {
            r.engine.clone()
        }];
        if with_opponent {
            row.push(r.fair.as_ref().map_or("0 (symmetry)".to_string(), arm_cell));
            row.push(arm_cell(&r.omniscient));
        }
        row.extend([
            format!(
                "{} {}",
                elo(r.delta.elo),
                interval(r.delta.lower, r.delta.upper)
            ),
            interval(r.delta.independent_lower, r.delta.independent_upper),
            arm_cell(&r.head_to_head),
            r.delta.pairs.to_string(),
            r.verdict.short().to_string(),
        ]);
        rows.push(row);
    }
    rows
}

/// The text summary (stdout and `summary.txt`).
pub fn text(l: &LeakJson) -> String {
    let mut s = format!("Information leak: omniscient vs fair ({})\n", l.context);
    s.push_str(&format!("Build: {}\n", l.builds.line()));
    s.push_str(&opponent_text(l));
    s.push_str("\n\n");
    let table = table(l);
    let columns = table[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            table
                .iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in &table {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell}{}", " ".repeat(w - cell.chars().count())))
            .collect();
        s.push_str(line.join("  ").trim_end());
        s.push('\n');
    }
    s.push('\n');
    for r in &l.rows {
        s.push_str(&format!("{}: {}\n", r.engine, r.verdict_text()));
    }
    s.push('\n');
    s.push_str(MEANING);
    s.push('\n');
    for n in &l.notes {
        s.push_str(n);
        s.push('\n');
    }
    s
}

/// `leak.md`.
pub fn markdown(l: &LeakJson) -> String {
    let mut s = format!(
        "# Information leak\n\n{}\n\nBuild: {}\n\n{}\n\n",
        l.context,
        l.builds.line(),
        opponent_text(l)
    );
    s.push_str(&markdown_table(l));
    s.push('\n');
    for r in &l.rows {
        s.push_str(&format!("- **{}**: {}\n", r.engine, r.verdict_text()));
    }
    s.push('\n');
    s.push_str(MEANING);
    s.push_str("\n\n");
    for n in &l.notes {
        s.push_str(&format!("- {n}\n"));
    }
    s.push_str("\n## Games\n\nEach arm's match folder has a games index (`games.html`):\n\n");
    for r in &l.rows {
        let arms: Vec<String> = [
            ("fair", r.fair.as_ref()),
            ("omniscient", Some(&r.omniscient)),
            ("head to head", Some(&r.head_to_head)),
        ]
        .into_iter()
        .filter_map(|(name, arm)| arm.map(|a| format!("[{name}]({}/games.html)", a.folder)))
        .collect();
        s.push_str(&format!(
            "- **{}**: {}\n",
            r.engine.replace('|', "\\|"),
            arms.join(" · ")
        ));
    }
    s
}

/// The leak table in Markdown (also what a tournament's `report.md` shows).
pub fn markdown_table(l: &LeakJson) -> String {
    let table = table(l);
    let mut s = String::new();
    for (i, row) in table.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
        s.push_str(&format!("| {} |\n", cells.join(" | ")));
        if i == 0 {
            let rule: Vec<&str> = (0..row.len())
                .map(|c| {
                    if c == 0 || c + 1 == row.len() {
                        "---"
                    } else {
                        "---:"
                    }
                })
                .collect();
            s.push_str(&format!("|{}|\n", rule.join("|")));
        }
    }
    s
}

/// Writes every arm's match folder (each with its games index), `leak.json`, `leak.md` and
/// `summary.txt`, and prints the summary and where the games indexes are.
///
/// # Errors
/// Writing fails.
pub fn report(setup: &RunSetup, outcome: &RunOutcome, out: &mut dyn Write) -> Result<(), Error> {
    crate::report::pairing::write_pairings(setup, outcome)?;
    let l = leak_json(setup, outcome);
    let mut json = serde_json::to_vec_pretty(&l).map_err(std::io::Error::other)?;
    json.push(b'\n');
    write_atomically(&setup.options.out.join("leak.json"), &json)?;
    write_atomically(&setup.options.out.join("leak.md"), markdown(&l).as_bytes())?;
    let mut text = text(&l);
    text.push_str(&crate::report::pairing::time_line(outcome));
    write_atomically(&setup.options.out.join("summary.txt"), text.as_bytes())?;
    out.write_all(text.as_bytes())?;
    writeln!(
        out,
        "Results in {} (leak.json, leak.md; a match folder per arm under arms/)",
        setup.options.out.display()
    )?;
    writeln!(
        out,
        "Games: {} (a games index in each arm's folder)",
        setup.options.out.join("arms/*/*/games.html").display()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests;
