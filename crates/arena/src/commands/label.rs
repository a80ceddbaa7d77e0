//! `arena label`: labels the quiet positions of results folders' games by a deeper search and
//! writes them as one training data chunk with its provenance ([`crate::tuning::label`]).

use std::io::Write;

use crate::error::Error;
use crate::plan::label::LabelPlan;
use crate::tuning::label::{Labelled, label, provenance};

/// How `arena label` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The chunk was written.
    Done,
    /// Ctrl-C stopped the labelling: nothing was written.
    Interrupted,
}

/// Labels the positions, writes the provenance and then the chunk (so that a chunk never stands
/// without its provenance), and reports on `w`.
///
/// # Errors
/// A folder that cannot be read, too few positions, a failing label engine, a failed write.
pub fn run(args: &LabelPlan, w: &mut dyn Write) -> Result<Ended, Error> {
    let io = |e: std::io::Error| Error::Write(e.to_string());
    // A line on stderr at most every 30 s: a chunk takes many minutes.
    let last = std::sync::Mutex::new(std::time::Instant::now());
    let tell = |done: usize| {
        let mut last = last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if last.elapsed() >= std::time::Duration::from_secs(30) {
            *last = std::time::Instant::now();
            eprintln!("labelled {done} of {} positions", args.positions);
        }
    };
    let (chunk, secs) = match label(args, &tell)? {
        Labelled::Done(chunk, secs) => (chunk, secs),
        Labelled::Interrupted => {
            eprintln!("\ninterrupted: nothing written");
            return Ok(Ended::Interrupted);
        }
    };
    let bytes = crate::records::data::to_bytes(&chunk)?;
    let mut json = serde_json::to_string_pretty(&provenance(args, &chunk, &bytes))
        .map_err(|e| Error::Write(e.to_string()))?;
    json.push('\n');
    let prov = args.provenance_path();
    if let Some(parent) = prov.parent().filter(|p| !p.as_os_str().is_empty()) {
        crate::records::files::create_dir(parent)
            .map_err(|e| Error::Write(format!("{}: {e}", parent.display())))?;
    }
    crate::records::files::write_atomically(&prov, json.as_bytes())
        .map_err(|e| Error::Write(e.to_string()))?;
    crate::records::files::write_new(&args.out, &bytes).map_err(|e| Error::Write(e.to_string()))?;
    let n = chunk.records.len();
    writeln!(
        w,
        "{n} positions of {} games labelled in {secs:.1} s ({:.0} positions/s); {} written \
         ({} bytes, {:.1} bytes a position), provenance in {}",
        chunk.games.len(),
        n as f64 / secs.max(1e-9),
        args.out.display(),
        bytes.len(),
        bytes.len() as f64 / n as f64,
        prov.display()
    )
    .map_err(io)?;
    Ok(Ended::Done)
}
