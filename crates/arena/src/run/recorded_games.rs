//! The games of a results folder, played through by the referee: what `arena tune` learns from
//! and `arena suite` mines for test positions.

use std::path::Path;

use jieqi_core::Rules;

use crate::error::Error;
use crate::records::check::Checked;
use crate::records::termination::Termination;
use crate::records::{self, GameLine};

/// What was read from a folder.
#[derive(Copy, Clone, Debug, Default)]
pub struct Tally {
    /// Games read.
    pub read: u64,
    /// Games left out: engine failures, and records that do not hold up.
    pub skipped: u64,
}

/// Calls `each` with the folder's rules, every game of `DIR/games.jsonl` that ended by the rules
/// or by adjudication (`max-plies`), and that game checked ply by ply by the referee, until
/// `each` says stop (`false`). Games that ended by an engine failure, and records that do not
/// hold up (or name a deal seed that is not their pair's), are counted as skipped: their positions say nothing reliable.
///
/// # Errors
/// The folder has no run record or journal that can be read.
pub fn for_each(
    dir: &Path,
    mut each: impl FnMut(&Rules, &GameLine, &Checked) -> bool,
) -> Result<Tally, Error> {
    let (_, _, setup) = crate::run::folder::recorded_run(dir).map_err(Error::Input)?;
    let journal = dir.join("games.jsonl");
    let (lines, _) = records::read_jsonl(&journal).map_err(|e| Error::Input(e.to_string()))?;
    let mut tally = Tally::default();
    for line in lines {
        tally.read += 1;
        if !matches!(line.reason, Termination::Rules(_)) && line.reason != Termination::MaxPlies {
            tally.skipped += 1;
            continue;
        }
        let checked =
            crate::records::check::check_record(&setup.rules, &line, setup.max_plies, None);
        let dealt = crate::records::deal_seed::pair_seed(setup.seed, line.pair);
        if checked.problem.is_some() || line.seed != dealt {
            tally.skipped += 1;
            continue;
        }
        if !each(&setup.rules, &line, &checked) {
            // The game it stopped at was not used.
            tally.read -= 1;
            break;
        }
    }
    Ok(tally)
}
