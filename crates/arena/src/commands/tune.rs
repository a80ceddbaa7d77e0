//! `arena tune`: fits the evaluation weights, or a correction network, to the games of results
//! folders ([`crate::tuning`]) and writes the weights file to `--out`.

use std::io::Write;

use crate::error::Error;
use crate::plan::tune::TunePlan;
use crate::tuning::net::NetFit;
use crate::tuning::texel::Tuned;
use crate::util::text::counted;

/// How `arena tune` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The weights were fitted and written.
    Done,
    /// Ctrl-C stopped the network's fit: the best pass so far was kept, if one had finished.
    Interrupted,
}

/// Writes `json` (a weights file, without its last newline) to `--out`, atomically, and says so.
fn write_weights(args: &TunePlan, mut json: String, w: &mut dyn Write) -> Result<(), Error> {
    json.push('\n');
    crate::records::files::write_output(&args.out, json.as_bytes())
        .map_err(|e| Error::Write(format!("cannot write {e}")))?;
    writeln!(w, "tuned weights written to {}", args.out.display())
        .map_err(|e| Error::Write(e.to_string()))
}

/// Writes what an interrupted network fit keeps (`kept`: its pass and weights file) to `--out`,
/// and says so on stderr.
fn keep(args: &TunePlan, kept: Option<(u32, String)>, none_held: bool) {
    let Some((pass, text)) = kept else {
        eprintln!("\ninterrupted: no pass had finished: nothing kept");
        return;
    };
    let what = format!(
        "the network of pass {pass} ({})",
        if none_held {
            "the last finished"
        } else {
            "the best held-out pass so far"
        }
    );
    match crate::records::files::write_output(&args.out, format!("{text}\n").as_bytes()) {
        Ok(()) => eprintln!("\ninterrupted: {what} kept in {}", args.out.display()),
        Err(e) => eprintln!("\ninterrupted: {what} could not be kept: {e}"),
    }
}

/// Runs the tuning and writes a report to `w`.
///
/// # Errors
/// A folder that cannot be read, too few positions, or a failed write.
pub fn run(args: &TunePlan, w: &mut dyn Write) -> Result<Ended, Error> {
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
            if args.net {
                "a network".to_string()
            } else {
                counted(tuned.count() as u64, "weight")
            }
        )));
    }
    let text = if args.net {
        match crate::tuning::net::fit(args, &split.train, &split.held, w)? {
            NetFit::Done(text) => text,
            NetFit::Interrupted { kept, none_held } => {
                keep(args, kept, none_held);
                return Ok(Ended::Interrupted);
            }
        }
    } else {
        crate::tuning::texel::fit(args, &tuned, split, w)?
    };
    write_weights(args, text, w)?;
    Ok(Ended::Done)
}
