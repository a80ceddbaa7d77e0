//! `arena tune`: fits the evaluation weights to the games of results folders
//! ([`crate::tuning`]) and writes the weights file to `--out`.

use std::io::Write;

use crate::error::Error;
use crate::plan::tune::TunePlan;
use crate::tuning::texel::Tuned;
use crate::util::text::counted;

/// Writes `json` (a weights file, without its last newline) to `--out`, atomically, and says so.
fn write_weights(args: &TunePlan, mut json: String, w: &mut dyn Write) -> Result<(), Error> {
    json.push('\n');
    crate::records::files::write_output(&args.out, json.as_bytes())
        .map_err(|e| Error::Write(format!("cannot write {e}")))?;
    writeln!(w, "tuned weights written to {}", args.out.display())
        .map_err(|e| Error::Write(e.to_string()))
}

/// Runs the tuning and writes a report to `w`.
///
/// # Errors
/// A folder that cannot be read, too few positions, or a failed write.
pub fn run(args: &TunePlan, w: &mut dyn Write) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::Write(e.to_string());
    let tuned = Tuned::new(args);
    let split = crate::tuning::positions::gather(args)?;
    writeln!(
        w,
        "{} read, {} left out (engine failures or records that do not hold up); {} ({}) \
         to fit, {} ({}) held out",
        counted(split.read, "game"),
        split.skipped,
        counted(split.train_games as u64, "game"),
        counted(split.train.len() as u64, "position"),
        counted(split.held_games as u64, "game"),
        counted(split.held.len() as u64, "position"),
    )
    .map_err(io)?;
    if split.train.len() < 1000 {
        return Err(Error::Input(format!(
            "{} {} too few to fit {}: give more games",
            counted(split.train.len() as u64, "position"),
            if split.train.len() == 1 { "is" } else { "are" },
            counted(tuned.count() as u64, "weight")
        )));
    }
    let text = crate::tuning::texel::fit(args, &tuned, split, w)?;
    write_weights(args, text, w)
}
