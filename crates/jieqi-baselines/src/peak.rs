//! `Peak`: a synthetic engine whose strength peaks at known parameter values, for testing a
//! tuner (`arena spsa`): the greedy capture move with a probability that is largest at
//! `x = 40`, `y = -2.5`, else a uniformly random legal move.

use jieqi_core::View;
use jieqi_engine::{Choice, Control, Engine, EngineError, Limits, Spec, SpecError};

use crate::Greedy;

/// Where [`Peak`] is strongest: `x` (an integer key) at 40.
pub const PEAK_X: f64 = 40.0;
/// Where [`Peak`] is strongest: `y` (a float key) at −2.5.
pub const PEAK_Y: f64 = -2.5;

/// A test engine with known optima: at each move it plays [`Greedy`]'s move with probability
/// `p = exp(−((x − 40)/20)² − ((y + 2.5)/1.5)²)`, else a uniformly random legal move (both drawn
/// from the search seed). So `x = 40, y = −2.5` plays greedy every move, and the further from
/// there the more it plays at random.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Peak {
    /// The integer key `x`, in `[-1000, 1000]`.
    pub x: i64,
    /// The float key `y`, in `[-100, 100]`.
    pub y: f64,
}

impl Peak {
    /// The probability of playing the greedy move.
    pub fn greedy_probability(&self) -> f64 {
        let dx = (self.x as f64 - PEAK_X) / 20.0;
        let dy = (self.y - PEAK_Y) / 1.5;
        (-dx * dx - dy * dy).exp()
    }

    /// Reads `peak[:x=N,y=F]` (defaults `x=0`, `y=0`).
    ///
    /// # Errors
    /// An unknown key, an `x` that is no integer in `[-1000, 1000]`, a `y` outside `[-100, 100]`.
    pub fn from_spec(spec: &Spec) -> Result<Peak, SpecError> {
        let mut p = spec.params();
        let x: i64 = p.get("x", 0)?;
        let y = p.get_f64_in("y", 0.0, -100.0, 100.0)?;
        p.finish(&["x", "y"])?;
        if !(-1000..=1000).contains(&x) {
            return Err(SpecError {
                spec: spec.to_string(),
                message: format!("parameter 'x' = {x} is outside [-1000, 1000]"),
            });
        }
        Ok(Peak { x, y })
    }
}

impl Engine for Peak {
    /// It answers within microseconds.
    fn stops_on_request(&self) -> bool {
        true
    }

    fn search(
        &mut self,
        view: &View,
        limits: &Limits,
        seed: u64,
        control: &Control<'_>,
    ) -> Result<Choice, EngineError> {
        Greedy::new(1.0 - self.greedy_probability()).search(view, limits, seed, control)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strongest_at_the_peak_and_weaker_away_from_it() {
        let at = |x, y| Peak { x, y }.greedy_probability();
        assert!((at(40, -2.5) - 1.0).abs() < 1e-12);
        assert!((at(60, -2.5) - (-1.0f64).exp()).abs() < 1e-12);
        assert!((at(40, -1.0) - (-1.0f64).exp()).abs() < 1e-12);
        assert!(at(0, 0.0) < 0.01);
    }

    #[test]
    fn keys_are_read_and_checked() {
        let p = Peak::from_spec(&Spec::parse("peak:x=12,y=-0.5").unwrap()).unwrap();
        assert_eq!(p, Peak { x: 12, y: -0.5 });
        assert!(Peak::from_spec(&Spec::parse("peak:x=1.5").unwrap()).is_err());
        assert!(Peak::from_spec(&Spec::parse("peak:x=2000").unwrap()).is_err());
        assert!(Peak::from_spec(&Spec::parse("peak:z=1").unwrap()).is_err());
    }
}
