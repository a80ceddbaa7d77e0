//! `arena engines`: the engines `--engine` accepts, with their parameters; or one engine's
//! tunable keys as an `arena spsa` parameters file.

use std::io::Write;

use crate::error::Error;

/// Lists the engines, or writes `keys` as a parameters file.
///
/// # Errors
/// Writing fails ([`Error::Output`]).
pub fn run(
    keys: Option<&crate::tuning::spsa::EngineKeys>,
    out: &mut dyn Write,
) -> Result<(), Error> {
    match keys {
        Some(keys) => out.write_all(keys.params_text().as_bytes()),
        None => crate::engines::write_help(out),
    }
    .map_err(Error::Output)
}
