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
    /// The mover's expected score once the move's outcome is known: the next ply's score
    /// (negated), or the result after the last ply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_expected: Option<f64>,
    /// `after_expected − played_expected` when the move revealed or captured a hidden piece:
    /// the mover's luck in what it turned out to be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<f64>,
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
    /// Each side's net luck: the sum of `chance` over its moves.
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
}

impl Analysis {
    /// Red's expected score at each position, the start first and the end last
    /// (`plies.len() + 1` values; the last is `end`, the result's score for Red): the
    /// reference's fair score of the best move, turned to Red's view.
    pub fn red_curve(&self, end: Option<f64>) -> Vec<Option<f64>> {
        let mut out: Vec<Option<f64>> = self
            .plies
            .iter()
            .map(|p| {
                Some(if p.mover == "red" {
                    p.best_expected
                } else {
                    1.0 - p.best_expected
                })
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
        jieqi_engine::Score::Cp(cp) => 1.0 / (1.0 + 10f64.powf(-f64::from(cp) / 400.0)),
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
