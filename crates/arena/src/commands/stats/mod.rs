//! `arena stats`: the result block (Elo, nElo, LOS, SPRT LLR) from counts alone, e.g. to check a
//! fastchess or fishtest result, or to see what a planned SPRT would say.
//!
//! ```text
//! arena stats --ptnml 43,61,144,55,37 --sprt 0,2 --names New,Base
//! ```
//!
//! Everything is validated ([`crate::plan::stats::plan`]) before anything is printed ([`run`]);
//! the text is `report::stats_text`'s.

use std::io::Write;

use crate::error::Error;
use crate::plan::stats::StatsPlan;
use crate::report::stats_text::render;

/// Runs `arena stats`: writes the block (or JSON) to `out`.
///
/// # Errors
/// Writing fails ([`Error::Output`]).
pub fn run(plan: &StatsPlan, out: &mut impl Write) -> Result<(), Error> {
    out.write_all(render(plan).as_bytes())
        .map_err(Error::Output)
}

#[cfg(test)]
mod tests;
