//! `arena engines`: the engines `--engine` accepts, with their parameters.

use std::io::Write;

use crate::error::Error;

/// Lists the engines.
///
/// # Errors
/// Writing fails ([`Error::Output`]).
pub fn run(out: &mut dyn Write) -> Result<(), Error> {
    crate::engines::write_help(out).map_err(Error::Output)
}
