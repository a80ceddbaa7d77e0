//! `Random`: a uniformly random legal move. Also the seeded randomness every baseline shares.

use jieqi_core::{Move, View, uniform_below};
use jieqi_engine::{
    Choice, Control, Engine, EngineError, Limits, Score, SearchInfo, Spec, SpecError,
};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// The generator a baseline draws from for one call of [`Engine::go`].
pub(crate) fn seeded(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A uniform number in `[0, 1)` with 53 random bits.
pub(crate) fn unit<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A uniformly chosen element of a non-empty slice of moves.
///
/// # Panics
/// Panics if `moves` is empty.
pub(crate) fn pick<R: Rng + ?Sized>(rng: &mut R, moves: &[Move]) -> Move {
    moves[uniform_below(rng, moves.len() as u32) as usize]
}

/// The error for a view whose side has no legal move (the game is already over).
pub(crate) fn no_moves() -> EngineError {
    EngineError::new("no legal move: the game is over")
}

/// The choice of one move with the given info fields.
pub(crate) fn choice(mv: Move, nodes: u64, depth: Option<u32>, score: Option<Score>) -> Choice {
    Choice {
        mv,
        info: SearchInfo {
            nodes: nodes.max(1),
            depth,
            score,
            pv: vec![mv],
        },
    }
}

/// Plays a uniformly random legal move. The floor every other engine must beat.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Random;

impl Random {
    /// Makes the engine.
    pub fn new() -> Random {
        Random
    }

    /// Reads `random` (no parameters).
    ///
    /// # Errors
    /// Any parameter.
    pub fn from_spec(spec: &Spec) -> Result<Random, SpecError> {
        spec.params().finish(&[])?;
        Ok(Random)
    }
}

impl Engine for Random {
    /// It answers within microseconds.
    fn stops_on_request(&self) -> bool {
        true
    }

    fn search(
        &mut self,
        view: &View,
        _limits: &Limits,
        seed: u64,
        control: &Control<'_>,
    ) -> Result<Choice, EngineError> {
        let moves = control.root_moves(view.legal_moves());
        if moves.is_empty() {
            return Err(no_moves());
        }
        let mut rng = seeded(seed);
        Ok(choice(pick(&mut rng, &moves), 1, None, None))
    }
}
