//! What a reference engine says of a game, ply by ply ([`Analysis`]), the classes of moves by
//! what they lost, and the summary a person reads first.
//!
//! Scores are compared as expected game scores (draws counting half) on the logistic the arena
//! rates with, `E = 1 / (1 + 10^(−cp/400))`, a mate being 1 or 0: a centipawn lost at +900 costs
//! less than one lost at 0, and mates fit on the same scale.

use serde::Serialize;

/// The class of a move by the expected score it lost (see [`Class::of`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Lost at least [`Class::INACCURACY`].
    Inaccuracy,
    /// Lost at least [`Class::MISTAKE`].
    Mistake,
    /// Lost at least [`Class::BLUNDER`].
    Blunder,
}

impl Class {
    /// Expected-score points an inaccuracy loses at least (lichess's 0.1 on its −1..1 scale).
    pub const INACCURACY: f64 = 0.05;
    /// Expected-score points a mistake loses at least (lichess's 0.2).
    pub const MISTAKE: f64 = 0.10;
    /// Expected-score points a blunder loses at least (lichess's 0.3).
    pub const BLUNDER: f64 = 0.15;

    /// The class of a move that lost `loss` expected-score points, `None` below an inaccuracy.
    pub fn of(loss: f64) -> Option<Class> {
        if loss >= Class::BLUNDER {
            Some(Class::Blunder)
        } else if loss >= Class::MISTAKE {
            Some(Class::Mistake)
        } else if loss >= Class::INACCURACY {
            Some(Class::Inaccuracy)
        } else {
            None
        }
    }

    /// Its name: `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// Its mark in a move list: `?!`, `?`, `??`.
    pub fn mark(self) -> &'static str {
        match self {
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder => "??",
        }
    }
}

/// What the reference found with the truth in view (an omniscient search): for contrast only.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Omniscient {
    /// Its best move.
    pub best: String,
    /// Its score, as the engine prints it (`+0.35`, `#3`, `66.7%`), from the mover's view.
    pub score: String,
    /// That score as the mover's expected game score.
    pub expected: f64,
}

/// The reference's verdict on one ply.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlyAnalysis {
    /// 1-based ply number.
    pub ply: usize,
    /// `red` or `black`: who moved.
    pub mover: &'static str,
    /// The move played, with its reveal and captured-identity letters (`h2h9Rn`).
    pub played: String,
    /// The reference's best move from the mover's own view (what it could have known).
    pub best: String,
    /// The score of `best`, as printed, from the mover's view.
    pub best_score: String,
    /// The score of the move played (a search restricted to it), as printed.
    pub played_score: String,
    /// The mover's expected score after the best move.
    pub best_expected: f64,
    /// The mover's expected score after the move played, its reveal taken in expectation over
    /// the mover's belief.
    pub played_expected: f64,
    /// `best_expected − played_expected`, at least 0: what the move itself cost.
    pub loss: f64,
    /// The loss in centipawns, when both scores are centipawns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_cp: Option<i32>,
    /// The mover's expected score once the move's outcome is known: after a reveal or hidden
    /// capture, the reference's score of the new position from the mover's own view; else the
    /// next mover's score (negated); after the last ply, the result by the rules (or the
    /// final position's score).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_expected: Option<f64>,
    /// `after_expected − played_expected` when the move revealed or captured a hidden piece:
    /// the mover's luck in what it turned out to be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<f64>,
    /// What the chance was: `reveal`, `hidden capture`, or `reveal and hidden capture`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance_from: Option<&'static str>,
    /// `after_expected − played_expected` on any other move: the reference disagreeing with
    /// itself one ply later (search noise and horizon), attributed to nobody.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise: Option<f64>,
    /// The move's class by its loss.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<Class>,
    /// A remark: `missed mate in 2`, `allows mate in 3`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The reference's principal variation from the best move.
    pub pv: Vec<String>,
    /// The depth the reference reached (its unrestricted search).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The nodes of all its searches of this ply.
    pub nodes: u64,
    /// The omniscient search, when the truth is known and the reference runs in process.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omniscient: Option<Omniscient>,
}

/// Per-colour values, `red` and `black`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BySide<T> {
    /// Red's.
    pub red: T,
    /// Black's.
    pub black: T,
}

/// The game at a glance.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// The ply after which the eventual winner stayed ahead (a decisive game), or of the largest
    /// swing (a draw); `None` when there is no such ply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turning_point: Option<usize>,
    /// Each side's three costliest moves (ply numbers, worst first; only moves that lost
    /// anything).
    pub worst: BySide<Vec<usize>>,
    /// Each side's counts of inaccuracies, mistakes and blunders.
    pub classes: BySide<[u32; 3]>,
    /// The expected score each side's moves gave away, summed.
    pub loss: BySide<f64>,
    /// Each side's net luck: the sum of `chance` over its moves (in expected score summed over
    /// events: no share of anything, it can pass 1; the summary line gives the average).
    pub luck: BySide<f64>,
    /// The evaluation's whole movement: `Σ |change|` of Red's expected score, ply to ply.
    pub swing: f64,
    /// The part of the movement from moves (`Σ loss`), from chance (`Σ |chance|`) and from
    /// noise (`Σ |noise|`): these three add up to at least `swing`.
    pub from_moves: f64,
    /// See `from_moves`.
    pub from_chance: f64,
    /// See `from_moves`.
    pub from_noise: f64,
    /// The summary's lines, as printed.
    pub lines: Vec<String>,
}

/// A reference engine's analysis of a game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The reference: its spec and the limits of each search (`alphabeta (nodes=100000)`).
    pub reference: String,
    /// The per-ply seed base: search `k` of ply `p` is seeded `mix(seed, …)`.
    pub seed: u64,
    /// Whether an omniscient search ran beside the fair one.
    pub omniscient: bool,
    /// One entry per ply.
    pub plies: Vec<PlyAnalysis>,
    /// The summary.
    pub summary: Summary,
    /// Red's expected score at the end: the result when the rules ended the game, else the
    /// reference's score of the final position (`None` if neither).
    pub end: Option<f64>,
}

impl Analysis {
    /// Red's expected score at each position of a game of `n` plies, the start first and the
    /// end last (`n + 1` values), all from one point of view: Red's (its information set, what
    /// Red could know). Before a Red move it is the reference's best move from there; after
    /// one, its score of the move played, or of the new position once a reveal or hidden
    /// capture is known (`after_expected`); after the last ply, `end`. Black's moves are
    /// searched from Black's view only, so the position after one is read from Red's next
    /// move. `None` where no ply of the analysis says it (the start when Black moves first,
    /// plies it does not cover).
    pub fn red_view_curve(&self, n: usize, end: Option<f64>) -> Vec<Option<f64>> {
        let mut at: Vec<Option<&PlyAnalysis>> = vec![None; n + 1];
        for p in &self.plies {
            if let Some(slot) = at.get_mut(p.ply) {
                *slot = Some(p);
            }
        }
        let red = |k: usize| at.get(k).copied().flatten().filter(|p| p.mover == "red");
        let mut out: Vec<Option<f64>> = (0..n)
            .map(|i| match (red(i + 1), red(i)) {
                (Some(next), _) => Some(next.best_expected),
                (None, Some(last)) => Some(match (last.chance, last.after_expected) {
                    (Some(_), Some(after)) => after,
                    _ => last.played_expected,
                }),
                (None, None) => None,
            })
            .collect();
        out.push(end);
        out
    }
}

/// The mover's expected game score of an engine's score: a centipawn score on the logistic
/// above, a mate 1 (giving it) or 0 (getting it), a win rate as it is.
pub fn expected(score: jieqi_engine::Score) -> f64 {
    match score {
        jieqi_engine::Score::Cp(cp) => jieqi_search::eval::win_probability(cp),
        jieqi_engine::Score::Mate(n) => {
            if n > 0 {
                1.0
            } else {
                0.0
            }
        }
        jieqi_engine::Score::WinRate(w) if w.is_nan() => 0.5,
        jieqi_engine::Score::WinRate(w) => w.clamp(0.0, 1.0),
    }
}

/// `red` or `black`.
fn side_name(c: jieqi_core::Color) -> &'static str {
    match c {
        jieqi_core::Color::Red => "red",
        jieqi_core::Color::Black => "black",
    }
}

/// The verdict on ply `ply` (the referee's `record`): the reference's best move with its score
/// and expected score, the move played's score and expected score, and the mover's expected
/// score once the move's outcome was known (`after`).
pub fn judge(
    ply: usize,
    record: &jieqi_core::Record,
    best: (&jieqi_engine::Choice, jieqi_engine::Score, f64),
    played: (jieqi_engine::Score, f64),
    after: Option<f64>,
    nodes: u64,
    omniscient: Option<&jieqi_engine::Choice>,
) -> PlyAnalysis {
    use jieqi_engine::Score;
    let (choice, best_score, best_expected) = best;
    let (played_score, played_expected) = played;
    let loss = (best_expected - played_expected).max(0.0);
    let loss_cp = match (best_score, played_score) {
        (Score::Cp(b), Score::Cp(p)) => Some(b.saturating_sub(p).max(0)),
        _ => None,
    };
    let chance_from = match (record.played.reveal.is_some(), record.captured_hidden) {
        (true, true) => Some("reveal and hidden capture"),
        (true, false) => Some("reveal"),
        (false, true) => Some("hidden capture"),
        (false, false) => None,
    };
    let by_chance = chance_from.is_some();
    let change = after.map(|a| a - played_expected);
    let note = match (best_score, played_score) {
        (Score::Mate(b), p) if b > 0 && !matches!(p, Score::Mate(n) if n > 0) => {
            Some(format!("missed mate in {b}"))
        }
        (b, Score::Mate(p)) if p < 0 && !matches!(b, Score::Mate(n) if n < 0) => {
            Some(format!("allows mate in {}", -p))
        }
        _ => None,
    };
    PlyAnalysis {
        ply,
        mover: side_name(record.mover),
        played: record.played.to_text(record.mover),
        best: choice.mv.to_string(),
        best_score: best_score.to_string(),
        played_score: played_score.to_string(),
        best_expected,
        played_expected,
        loss,
        loss_cp,
        after_expected: after,
        chance: change.filter(|_| by_chance),
        chance_from,
        noise: change.filter(|_| !by_chance),
        class: Class::of(loss),
        note,
        pv: choice.info.pv.iter().map(|m| m.to_string()).collect(),
        depth: choice.info.depth,
        nodes,
        omniscient: omniscient.map(|c| {
            let score = c.info.score.unwrap_or(Score::Cp(0));
            Omniscient {
                best: c.mv.to_string(),
                score: score.to_string(),
                expected: expected(score),
            }
        }),
    }
}

/// A share of expected score as percentage points: `0.153` → `15.3 %`.
fn points(x: f64) -> String {
    format!("{:.1} %", x * 100.0)
}

/// A signed share: `+4.0 %`, `−12.5 %`.
fn signed_points(x: f64) -> String {
    if x < 0.0 {
        format!("\u{2212}{:.1} %", -x * 100.0)
    } else {
        format!("+{:.1} %", x * 100.0)
    }
}

/// A side's luck for its summary line: each chance event (a reveal or hidden capture of its
/// moves) moved its expected score by `chance`; `net` is their sum. The sum is no share of
/// anything (a side with many reveals can pass 100 %), so the line gives the average change an
/// event made and how many went its way: `; luck: its reveals and hidden captures moved its
/// expected score by −2.1 % each on average (12: 5 for it, 7 against)`. Empty without chance
/// events.
fn luck_text(chances: &[f64], net: f64) -> String {
    match chances.len() {
        0 => String::new(),
        1 => format!(
            "; luck: its 1 reveal or hidden capture moved its expected score by {}",
            signed_points(net)
        ),
        n => {
            let favour = chances.iter().filter(|&&c| c > 0.0).count();
            let against = chances.iter().filter(|&&c| c < 0.0).count();
            format!(
                "; luck: its reveals and hidden captures moved its expected score by {} each on \
                 average ({n}: {favour} for it, {against} against)",
                signed_points(net / n as f64)
            )
        }
    }
}

/// One ply for the summary: `ply 37 black h7h3`.
fn ply_text(p: &PlyAnalysis) -> String {
    format!("ply {} {} {}", p.ply, p.mover, p.played)
}

/// The summary of the verdicts `plies` of `game`, `end` being Red's expected score at the end.
pub fn summarize(
    game: &crate::analysis::StudyGame,
    plies: &[PlyAnalysis],
    end: Option<f64>,
) -> Summary {
    let mut s = Summary::default();
    let red_view = |p: &PlyAnalysis, e: f64| if p.mover == "red" { e } else { 1.0 - e };
    // Red's expected score at each position: before each ply, then the end.
    let mut curve: Vec<f64> = plies.iter().map(|p| red_view(p, p.best_expected)).collect();
    if let Some(e) = end {
        curve.push(e);
    }
    s.swing = curve.windows(2).map(|w| (w[1] - w[0]).abs()).sum();
    for p in plies {
        let red = p.mover == "red";
        let pick = |b: &mut BySide<f64>, x: f64| {
            if red {
                b.red += x;
            } else {
                b.black += x;
            }
        };
        pick(&mut s.loss, p.loss);
        if let Some(c) = p.chance {
            pick(&mut s.luck, c);
            s.from_chance += c.abs();
        }
        if let Some(n) = p.noise {
            s.from_noise += n.abs();
        }
        s.from_moves += p.loss;
        if let Some(class) = p.class {
            let counts = if red {
                &mut s.classes.red
            } else {
                &mut s.classes.black
            };
            counts[class as usize] += 1;
        }
    }
    for (side, worst) in [("red", &mut s.worst.red), ("black", &mut s.worst.black)] {
        let mut own: Vec<&PlyAnalysis> = plies
            .iter()
            .filter(|p| p.mover == side && p.loss > 0.0)
            .collect();
        own.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.ply.cmp(&b.ply)));
        *worst = own.iter().take(3).map(|p| p.ply).collect();
    }
    // The turning point: after it the winner stayed ahead to the end; in a draw, the largest
    // swing. Position i is before ply i + 1; the ply that led to position t is ply t.
    let winner = game.result.winner();
    s.turning_point = match winner {
        Some(w) if curve.len() > 1 => {
            let ahead = |e: f64| {
                if w == jieqi_core::Color::Red {
                    e > 0.5
                } else {
                    e < 0.5
                }
            };
            let t = curve.iter().rposition(|&e| !ahead(e)).map_or(0, |i| i + 1);
            (t >= 1 && t <= plies.len()).then_some(t)
        }
        _ => curve
            .windows(2)
            .enumerate()
            .max_by(|a, b| {
                (a.1[1] - a.1[0])
                    .abs()
                    .total_cmp(&(b.1[1] - b.1[0]).abs())
                    .then(b.0.cmp(&a.0))
            })
            .filter(|(_, w)| (w[1] - w[0]).abs() > 0.0)
            .map(|(i, _)| i + 1),
    };
    s.lines = summary_lines(game, plies, &s, winner);
    s
}

/// The summary's text, a line each.
fn summary_lines(
    game: &crate::analysis::StudyGame,
    plies: &[PlyAnalysis],
    s: &Summary,
    winner: Option<jieqi_core::Color>,
) -> Vec<String> {
    let mut lines = Vec::new();
    let at = |ply: usize| &plies[ply - 1];
    match s.turning_point {
        Some(t) => {
            let p = at(t);
            let why = match (p.class, p.chance) {
                (_, Some(c)) if c.abs() > p.loss => format!(
                    "chance: its {} moved the mover's expected score by {} (the move itself \
                     lost {})",
                    p.chance_from.unwrap_or("reveal"),
                    signed_points(c),
                    points(p.loss)
                ),
                (Some(class), _) => format!(
                    "{}: it lost {} (the reference preferred {} at {})",
                    crate::util::text::with_article(class.name()),
                    points(p.loss),
                    p.best,
                    p.best_score
                ),
                _ if p.loss > 0.0 => format!(
                    "it lost {} (the reference preferred {})",
                    points(p.loss),
                    p.best
                ),
                _ => "the reference's own view of the position changed (no move or reveal \
                      explains it)"
                    .to_string(),
            };
            let after = match winner {
                Some(w) => format!("; {} stayed ahead after it", side_name(w)),
                None => "; the largest swing of the game".to_string(),
            };
            lines.push(format!("Turning point: {}: {why}{after}.", ply_text(p)));
        }
        None if winner.is_some() && !plies.is_empty() => lines.push(format!(
            "No turning point: {} was ahead by the reference from the first move to the end.",
            side_name(winner.expect("some"))
        )),
        None => {}
    }
    for (side, name) in [("red", &game.red), ("black", &game.black)] {
        let (classes, loss, luck, worst) = if side == "red" {
            (s.classes.red, s.loss.red, s.luck.red, &s.worst.red)
        } else {
            (s.classes.black, s.loss.black, s.luck.black, &s.worst.black)
        };
        let moves = plies.iter().filter(|p| p.mover == side).count();
        if moves == 0 {
            continue;
        }
        let chances: Vec<f64> = plies
            .iter()
            .filter(|p| p.mover == side)
            .filter_map(|p| p.chance)
            .collect();
        let worst: Vec<String> = worst
            .iter()
            .map(|&k| {
                let p = at(k);
                let class = p.class.map_or(String::new(), |c| format!(" {}", c.name()));
                format!("{} {} (\u{2212}{}{class})", p.ply, p.played, points(p.loss))
            })
            .collect();
        let count =
            |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let luck = luck_text(&chances, luck);
        lines.push(format!(
            "{side:5} {}: {}, {}, {} in {}; average loss {} a move{luck}; worst: {}",
            crate::util::text::printable(name),
            count(classes[0], "inaccuracy", "inaccuracies"),
            count(classes[1], "mistake", "mistakes"),
            count(classes[2], "blunder", "blunders"),
            crate::util::text::counted(moves as u64, "move"),
            points(loss / moves as f64),
            if worst.is_empty() {
                "none".to_string()
            } else {
                worst.join(", ")
            }
        ));
    }
    let parts = s.from_moves + s.from_chance + s.from_noise;
    let any_chance = plies.iter().any(|p| p.chance.is_some());
    if parts > 0.0 && !any_chance {
        let share = |x: f64| format!("{:.0} %", 100.0 * x / parts);
        lines.push(format!(
            "No reveal or hidden capture: of what moved the evaluation ({:.2} in expected score, \
             summed ply by ply), moves account for {}, the reference's own noise from one ply \
             to the next for {}.",
            parts,
            share(s.from_moves),
            share(s.from_noise)
        ));
    } else if parts > 0.0 {
        let share = |x: f64| format!("{:.0} %", 100.0 * x / parts);
        lines.push(format!(
            "Chance: of what moved the evaluation ({:.2} in expected score, summed ply by ply), \
             moves account for {}, reveals and hidden captures for {}, and the reference's own \
             noise from one ply to the next for {}.",
            parts,
            share(s.from_moves),
            share(s.from_chance),
            share(s.from_noise)
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 50: "luck +154.9 %", the sum of 30 reveals' changes, read as a share past 100 %.
    #[test]
    fn luck_is_the_average_change_a_chance_event_made() {
        let mut chances = vec![0.1; 20];
        chances.extend([-0.05; 10]);
        let net: f64 = chances.iter().sum();
        assert!(net > 1.0);
        assert_eq!(
            luck_text(&chances, net),
            "; luck: its reveals and hidden captures moved its expected score by +5.0 % each \
             on average (30: 20 for it, 10 against)"
        );
        assert_eq!(
            luck_text(&[-0.125], -0.125),
            "; luck: its 1 reveal or hidden capture moved its expected score by \u{2212}12.5 %"
        );
        assert_eq!(
            luck_text(&[0.0, 0.2], 0.2),
            "; luck: its reveals and hidden captures moved its expected score by +10.0 % each \
             on average (2: 1 for it, 0 against)"
        );
        assert_eq!(luck_text(&[], 0.0), "");
    }
}
