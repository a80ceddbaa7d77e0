//! The SPRT flags `arena stats`, `arena match` and `arena sprt` share: `--sprt ELO0,ELO1` (or
//! `arena sprt`'s `--elo0`/`--elo1`), `--model`, `--alpha`, `--beta`. Their one validation is
//! [`crate::plan::sprt::test`] and [`crate::plan::sprt::flags`].

use crate::stats::SprtModel;

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
