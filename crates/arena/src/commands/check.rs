//! `--check` of `match`, `sprt`, `tournament` and `leak`: the run is planned exactly as it would
//! be played (every flag, engine and file validated), its output folder is checked as the run
//! would start with it ([`crate::run::execute::check_start`]: it can be made, no live run holds
//! it, its journal is this run's), then described instead of played. Nothing is written. The lines are `key: value`, the first word of each value a number where there is
//! one, so scripts can read them (`scripts/cluster/` reads `pairs:` to bound `--shards`).

use std::io::Write;

use crate::error::Error;
use crate::run::RunSetup;

/// Prints what the run would play to `out`, once its folder passes the run's own start checks.
///
/// # Errors
/// The run would refuse its folder at start, or writing to `out` fails.
pub fn run(setup: &RunSetup, out: &mut dyn Write) -> Result<(), Error> {
    crate::run::execute::check_start(setup)?;
    let labels: Vec<&str> = setup.engines.iter().map(|e| e.label.as_str()).collect();
    // A gate stops when its test decides: its pairs are a cap.
    let cap = if setup.kind.is_gate() { " at most" } else { "" };
    let mut text = format!(
        "check: arena {} is valid; nothing played, nothing written\n",
        setup.kind.command_name()
    );
    text += &format!("engines: {} ({})\n", labels.len(), labels.join(", "));
    text += &format!("pairings: {}\n", setup.pairings.len());
    text += &format!("pairs: {} per pairing{cap}\n", setup.pairs);
    if let Some(shard) = setup.shard {
        text += &format!(
            "shard: {shard}, {} of the pairs of each pairing (p ≡ {} mod {})\n",
            setup.local_pairs(),
            shard.index,
            shard.count
        );
    }
    text += &format!(
        "games: {}{cap} to play here (2 per pair of each pairing)\n",
        setup.jobs().saturating_mul(2)
    );
    text += &format!("fingerprint: {}\n", setup.fingerprint());
    text += &format!("context: {}\n", setup.context());
    if setup.is_time_limited() {
        text += "note: moves are limited by time, so the games depend on the machine\n";
    }
    text += &format!(
        "out: {}{}\n",
        setup.options.out.display(),
        if setup.options.resume {
            " (resumed)"
        } else {
            ""
        }
    );
    out.write_all(text.as_bytes()).map_err(Error::Output)
}
