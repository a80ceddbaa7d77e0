//! Arguments of `arena engines`.

/// Arguments of `arena engines`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct EnginesArgs {
    /// Instead of the list, print an `arena spsa --params` file for ENGINE (alphabeta, ismcts,
    /// mcts-solver): one line a tunable key of its key table, `NAME, int|float, default, min,
    /// max, c_end, r_end`, its ranges as the table declares them. Delete the lines not to tune.
    #[arg(long, value_name = "ENGINE")]
    pub spsa_params: Option<String>,
}
