//! The text of a progress line (`--report-every`, [`crate::run::progress`]): one line on stderr
//! per report, beginning `progress:`, with the pairs done of those planned, the games, and then by
//! kind of run (chosen in [`crate::report::progress_line`]):
//!
//! - two engines (`match`, `sprt`): the first engine's W/D/L, score, Elo ± the 95 % interval as
//!   the summary computes it (pentanomial), and the LLR with its bounds when the run has a test:
//!   `progress: 12/200 pairs, 24 games, 31 s: new vs base W 10 D 4 L 10, score 50.00 %,
//!   Elo 0.00 +/- 85.31, LLR 0.12 (-2.94, 2.94)`;
//! - a tournament: the leader(s) by Bradley–Terry rating against the anchor, and the engine
//!   failures;
//! - a leak run: per engine the Elo of its arms (Ω vs O, F vs O, Ω vs F) and Δ = Ω − F.

use crate::run::RunSetup;
use crate::run::progress::Snapshot;
use crate::run::scoreboard::PairingScore;
use crate::stats::ratings::{Duel, fit};

/// `progress: 12/200 pairs, 24 games, 31 s` (a gate's planned pairs are its cap).
fn head(setup: &RunSetup, s: &Snapshot<'_>) -> String {
    let games: u64 = s.board.pairings().iter().map(PairingScore::games).sum();
    format!(
        "progress: {}/{} pairs{}, {}, {:.0} s",
        s.pairs,
        s.planned,
        if setup.kind.is_gate() { " (cap)" } else { "" },
        crate::util::text::counted(games, "game"),
        s.elapsed.as_secs_f64()
    )
}

/// An Elo with two decimals as the result block prints it (`inf`, `-inf` at the ends).
fn elo_text(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else if x > 0.0 {
        "inf".into()
    } else if x < 0.0 {
        "-inf".into()
    } else {
        "nan".into()
    }
}

/// The line of a two-engine run (`match`, `sprt`).
pub fn two_engines(setup: &RunSetup, s: &Snapshot<'_>) -> String {
    let p = &s.board.pairings()[0];
    let e = crate::stats::pentanomial(&p.ptnml);
    let mut line = format!(
        "{}: {} vs {} W {} D {} L {}, score {:.2} %, Elo {} +/- {}",
        head(setup, s),
        setup.engines[p.a].label,
        setup.engines[p.b].label,
        p.wdl.wins,
        p.wdl.draws,
        p.wdl.losses,
        100.0 * e.score,
        elo_text(e.elo),
        match e.no_interval {
            None => elo_text(e.elo_error),
            Some(_) => "n/a".to_string(),
        }
    );
    if let Some(sprt) = setup.kind.sprt() {
        let (lo, hi) = sprt.bounds();
        line.push_str(&format!(
            ", LLR {:.2} ({lo:.2}, {hi:.2})",
            sprt.llr_pentanomial(&p.ptnml)
        ));
    }
    let failures: u64 = p.failures.iter().sum();
    if failures > 0 {
        line.push_str(&format!(
            ", {}",
            crate::util::text::counted(failures, "engine failure")
        ));
    }
    line
}

/// The line of a tournament: the leader(s) by rating (several when tied within 0.005 Elo), and
/// the engine failures.
pub fn tournament(setup: &RunSetup, s: &Snapshot<'_>) -> String {
    let n = setup.engines.len();
    let duels: Vec<Duel> = s
        .board
        .pairings()
        .iter()
        .map(|p| Duel {
            a: p.a,
            b: p.b,
            points_a: p.wdl.points(),
            games: p.games() as f64,
        })
        .collect();
    let (anchor, anchor_elo) = setup
        .kind
        .tournament()
        .and_then(|t| {
            let slot = setup.engines.iter().position(|e| e.label == t.anchor)?;
            Some((slot, t.anchor_elo))
        })
        .unwrap_or((0, 0.0));
    let elo = fit(n, &duels, anchor, anchor_elo);
    let best = elo
        .iter()
        .copied()
        .filter(|x| !x.is_nan())
        .fold(f64::NEG_INFINITY, f64::max);
    let leaders: Vec<&str> = (0..n)
        .filter(|&i| elo[i] == best || (best.is_finite() && (elo[i] - best).abs() < 0.005))
        .map(|i| setup.engines[i].label.as_str())
        .collect();
    let failures: u64 = (0..n).map(|i| s.board.failures(i)).sum();
    let games: u64 = s.board.pairings().iter().map(PairingScore::games).sum();
    let lead = if games == 0 || leaders.is_empty() {
        "no leader yet".to_string()
    } else {
        format!(
            "{} {} (Elo {}, anchor {} at {})",
            if leaders.len() == 1 {
                "leader"
            } else {
                "leaders"
            },
            leaders.join(", "),
            elo_text(best),
            setup.engines[anchor].label,
            elo_text(anchor_elo)
        )
    };
    format!(
        "{}: {} engines, {lead}, {}",
        head(setup, s),
        n,
        crate::util::text::counted(failures, "engine failure")
    )
}

/// The line of a leak run: per engine its arms' Elo (pentanomial, from the first slot's side)
/// and Δ = Ω − F (F is 0 without an opponent: Ω plays F).
pub fn leak(setup: &RunSetup, s: &Snapshot<'_>) -> String {
    let Some(options) = setup.kind.leak() else {
        return head(setup, s);
    };
    let elo = |i: usize| crate::stats::pentanomial(&s.board.pairings()[i].ptnml).elo;
    let arms: Vec<String> = options
        .arms
        .iter()
        .map(|a| match a.fair_arm {
            Some(f) => {
                let (w, h) = (elo(a.omniscient_arm), elo(f));
                format!(
                    "{} Ω-O {} F-O {} Ω-F {} Δ {}",
                    a.engine,
                    elo_text(w),
                    elo_text(h),
                    elo_text(elo(a.head_to_head)),
                    elo_text(w - h)
                )
            }
            None => {
                let w = elo(a.head_to_head);
                format!("{} Ω-F {} Δ {}", a.engine, elo_text(w), elo_text(w))
            }
        })
        .collect();
    format!("{}: Elo {}", head(setup, s), arms.join("; "))
}
