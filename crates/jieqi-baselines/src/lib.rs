//! Baseline Jieqi players, the yardsticks every real engine is measured against:
//!
//! - [`Random`] — a uniformly random legal move;
//! - [`Greedy`] — win at once if possible, else the most valuable capture with the cheapest
//!   attacker, else a random move;
//! - [`Level`] — the difficulty levels of seed 004 (a dark-chess AI): material after the move,
//!   a look at the opponent's capture after our captures, noise and a reveal eagerness; presets
//!   `easy`, `normal`, `hard`;
//! - [`Peak`] — a synthetic test engine whose strength peaks at known key values (`x = 40`,
//!   `y = −2.5`), for testing a tuner (`arena spsa`).
//!
//! They see only their player's [`View`](jieqi_core::View) and take every fact about a hidden piece
//! from its [`Knowledge`](jieqi_core::Knowledge): for a fair view a hidden piece is valued at the
//! mean of its owner's pool ([`values::belief_value`]) and a hidden mover is tried as each identity
//! of its pool, never as what it really is; an omniscient view (leak measurement) knows each one. All randomness comes from the seed passed to
//! [`Engine::go`], so the same view and seed give the same move. They ignore [`Limits`](jieqi_engine::Limits).

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod greedy;
mod level;
mod peak;
mod random;
mod tactics;
pub mod values;

pub use greedy::Greedy;
pub use level::{Level, MAX_FLIP, MAX_NOISE, REVEAL_CREDIT};
pub use peak::{PEAK_X, PEAK_Y, Peak};
pub use random::Random;
pub use values::Eval;

use jieqi_engine::{Engine, Factory, Spec, SpecError};

/// The baselines by spec name, with a one-paragraph help each (parameters and defaults), for
/// engine listings.
pub const ENGINES: &[(&str, &str)] = &[
    (
        "random",
        "Plays a uniformly random legal move. No parameters.",
    ),
    (
        "greedy",
        "Wins at once if it can (takes the king, or leaves the opponent without a legal move, \
         whatever a hidden mover turns out to be); otherwise takes the most valuable piece (a \
         hidden one at its pool's mean value) with the least valuable attacker; otherwise plays a \
         random quiet move. Never looks at the reply. Parameter: noise=P (default 0, range 0..1), \
         the probability of playing a uniformly random legal move instead. Example: \
         greedy:noise=0.3.",
    ),
    (
        "level",
        "The difficulty levels of seed 004: scores each move by the material after it (hidden \
         movers averaged over their pool), detects wins at once, at depth 2 subtracts the \
         opponent's best capture after our captures and avoids moves that allow a king capture or \
         mate in one, credits moves by hidden pieces flip x 0.25 x the pool's mean value, and adds \
         uniform noise. Presets: level:easy (depth 1, noise 1.8, flip 1.3), level:normal (depth 2, \
         noise 0.8, flip 1.0; the default), level:hard (depth 2, noise 0.2, flip 0.7). Overrides: \
         depth=1|2, noise=PAWNS (0..10; each move's score moves by up to this many pawns either \
         way), flip=F (0..4; above 1 eager to reveal, below 1 reluctant). Example: \
         level:normal,noise=0.5,flip=1.2,depth=1.",
    ),
    (
        "peak",
        "A synthetic test engine for tuners (arena spsa): at each move it plays greedy's move with \
         probability p = exp(-((x-40)/20)^2 - ((y+2.5)/1.5)^2), else a uniformly random legal \
         move, so it is strongest at x=40, y=-2.5. Parameters: x=N (an integer, default 0, range \
         -1000..1000), y=F (default 0, range -100..100). Example: peak:x=20,y=-1.",
    ),
];

/// The factory of the baseline a spec names: `None` when `spec.name` is not a baseline
/// (`random`, `greedy`, `level`), so a caller can try other engine families.
///
/// # Errors
/// Inside the `Some`: an unknown parameter, or a value that does not parse or is out of range.
pub fn factory(spec: &Spec) -> Option<Result<Factory, SpecError>> {
    Some(match spec.name.as_str() {
        "random" => Random::from_spec(spec).map(Factory::of_clone),
        "greedy" => Greedy::from_spec(spec).map(Factory::of_clone),
        "level" => Level::from_spec(spec).map(Factory::of_clone),
        "peak" => Peak::from_spec(spec).map(Factory::of_clone),
        _ => return None,
    })
}

/// Builds the baseline a spec names: [`factory`], then one engine.
///
/// # Errors
/// As [`factory`].
pub fn from_spec(spec: &Spec) -> Option<Result<Box<dyn Engine>, SpecError>> {
    factory(spec).map(|r| r.map(|f| f.build()))
}
