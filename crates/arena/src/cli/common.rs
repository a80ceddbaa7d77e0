//! Arguments several commands share: per-move search limits (`--nodes`, `--depth`, `--movetime`)
//! and `--rules`.

use clap::Args;

/// Per-move search limits, shared by `match`, `sprt`, `replay` and `bench`.
#[derive(Debug, Args, Clone)]
pub struct LimitArgs {
    /// Nodes (alpha-beta) or iterations (MCTS) per move. Reproducible.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Search depth per move, in plies. Reproducible.
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Milliseconds per move. Not reproducible: prefer --nodes for tests.
    #[arg(long, value_name = "MS", value_parser = crate::cli::common::milliseconds)]
    pub movetime: Option<u64>,
}

/// `--rules`, shared by every subcommand.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Rule set: a preset (standard, xiangqi, simple) or a JSON rules file.
    ///
    /// A file holds a serialized rule set: every field of jieqi_core::Rules, enum values in
    /// kebab-case, unknown fields refused (see configs/rules/*.json). A preset name wins over a
    /// file of the same name; write ./NAME for the file.
    #[arg(long, value_name = "R", default_value = "standard")]
    pub rules: String,
}

/// Reads a flag in milliseconds: a whole number up to [`crate::engines::time_control::MAX_MOVE_MS`] (a day). Zero reads
/// (the plans refuse it with their own message); a larger number would be a wait no run means.
///
/// # Errors
/// Not a whole number, or more than a day.
pub fn milliseconds(text: &str) -> Result<u64, String> {
    let ms: u64 = text
        .trim()
        .parse()
        .map_err(|_| "not a whole number of milliseconds".to_string())?;
    let max = crate::engines::time_control::MAX_MOVE_MS;
    if ms > max {
        return Err(format!(
            "more than a day ({max} ms), which is the longest a move may take"
        ));
    }
    Ok(ms)
}
