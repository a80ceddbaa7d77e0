//! The SPRT flags `arena stats`, `arena match` and `arena sprt` share, and their one validation:
//! `--sprt ELO0,ELO1` (or `arena sprt`'s `--elo0`/`--elo1`), `--model`, `--alpha`, `--beta`.

use crate::stats::{Sprt, SprtError, SprtModel};

/// `--model`, `--alpha`, `--beta`.
#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct SprtTestArgs {
    /// How the SPRT's Elo bounds are read [default: normalized].
    ///
    /// normalized: normalized Elo, the t-value (score − ½)/σ per game scaled by 800/ln 10 — the
    /// fishtest and fastchess default, whose bounds cost the same effort at any draw rate.
    /// logistic: plain logistic Elo, as cutechess and older fishtest.
    #[arg(long, value_enum, value_name = "MODEL")]
    pub model: Option<ModelArg>,
    /// SPRT false-positive rate: the chance of accepting H1 when H0 holds [default: 0.05].
    ///
    /// The upper bound is ln((1 − beta)/alpha): 2.94 for fishtest's 0.05/0.05.
    #[arg(long, value_name = "P")]
    pub alpha: Option<f64>,
    /// SPRT false-negative rate: the chance of accepting H0 when H1 holds [default: 0.05].
    ///
    /// The lower bound is ln(beta/(1 − alpha)): −2.94 for fishtest's 0.05/0.05.
    #[arg(long, value_name = "P")]
    pub beta: Option<f64>,
}

/// `--sprt ELO0,ELO1` with `--model`, `--alpha`, `--beta`.
#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct SprtArgs {
    /// Also compute the SPRT log-likelihood ratio of H0: Elo = ELO0 against H1: Elo = ELO1.
    ///
    /// As fishtest and fastchess (GSPRT); zero counts count as 0.001. Common bounds (normalized
    /// Elo): fishtest STC 0,2; LTC 0.5,2.5; non-regression -1.75,0.25 (write --sprt=-1.75,0.25 or
    /// --sprt -1.75,0.25). LLR at or above the upper bound accepts H1 (the change is good), at or
    /// below the lower bound accepts H0. --model, --alpha and --beta need it.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// The test's model and error rates.
    #[command(flatten)]
    pub test: SprtTestArgs,
}

/// `--model`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelArg {
    /// Normalized Elo (fishtest and fastchess default).
    Normalized,
    /// Logistic Elo.
    Logistic,
}

impl From<ModelArg> for SprtModel {
    fn from(m: ModelArg) -> SprtModel {
        match m {
            ModelArg::Normalized => SprtModel::Normalized,
            ModelArg::Logistic => SprtModel::Logistic,
        }
    }
}

/// A bad SPRT flag: the flag, and what is wrong with it.
pub type FlagError = (&'static str, String);

/// Splits a comma-separated list, without surrounding brackets; no items for blank text.
pub fn items(text: &str) -> Vec<&str> {
    let t = text.trim();
    let t = t.strip_prefix('[').unwrap_or(t);
    let t = t.strip_suffix(']').unwrap_or(t).trim();
    if t.is_empty() {
        Vec::new()
    } else {
        t.split(',').map(str::trim).collect()
    }
}

impl SprtTestArgs {
    /// The test of H0: Elo = `elo0` against H1: Elo = `elo1` with these settings, checked by
    /// [`Sprt::validate`].
    ///
    /// # Errors
    /// The flag at fault (`elo_flag` for the bounds) and what is wrong.
    pub fn sprt(&self, elo0: f64, elo1: f64, elo_flag: &'static str) -> Result<Sprt, FlagError> {
        let s = Sprt {
            elo0,
            elo1,
            alpha: self.alpha.unwrap_or(0.05),
            beta: self.beta.unwrap_or(0.05),
            model: self.model.map_or(SprtModel::Normalized, SprtModel::from),
        };
        s.validate().map_err(|e| {
            let flag = match e {
                SprtError::EloRange { .. } | SprtError::EloOrder { .. } => elo_flag,
                SprtError::Alpha(_) | SprtError::AlphaBetaSum(..) => "--alpha",
                SprtError::Beta(_) => "--beta",
            };
            (flag, e.to_string())
        })?;
        Ok(s)
    }
}

impl SprtArgs {
    /// The SPRT the flags ask for: `None` without `--sprt`.
    ///
    /// # Errors
    /// `--sprt` is not two numbers, a bound or rate is out of range, or `--model`, `--alpha` or
    /// `--beta` is given without `--sprt`.
    pub fn validate(&self) -> Result<Option<Sprt>, FlagError> {
        let Some(text) = &self.sprt else {
            for (given, flag) in [
                (self.test.model.is_some(), "--model"),
                (self.test.alpha.is_some(), "--alpha"),
                (self.test.beta.is_some(), "--beta"),
            ] {
                if given {
                    return Err((flag, "only means something with --sprt ELO0,ELO1".into()));
                }
            }
            return Ok(None);
        };
        let parts = items(text);
        let nums: Vec<f64> = parts.iter().filter_map(|p| p.parse().ok()).collect();
        if parts.len() != 2 || nums.len() != 2 {
            return Err((
                "--sprt",
                format!("expected ELO0,ELO1 (two comma-separated numbers, e.g. 0,2), got '{text}'"),
            ));
        }
        self.test.sprt(nums[0], nums[1], "--sprt").map(Some)
    }
}
