//! `arena perft`'s text: the per-child lines, the summary and the JSON line.

use std::io::{self, Write};

use jieqi_core::Position;

use crate::analysis::perft::PerftReport;

/// Writes the report: per-child lines (`b0c2N: 1234`) and a blank line with `--divide`, then the
/// summary, then with `json` the JSON line last.
///
/// # Errors
/// Writing fails.
pub fn write_report(
    w: &mut impl Write,
    pos: &Position,
    report: &PerftReport,
    json: bool,
) -> io::Result<()> {
    if let Some(children) = &report.children {
        for (mv, n) in children {
            writeln!(w, "{mv}: {n}")?;
        }
        writeln!(w)?;
    }
    writeln!(w, "rules: {}", pos.rules().name)?;
    writeln!(w, "fen: {}", pos.fen())?;
    writeln!(w, "depth: {}", report.depth)?;
    writeln!(w, "nodes: {}", report.nodes)?;
    writeln!(w, "seconds: {:.3}", report.seconds)?;
    writeln!(w, "speed: {:.2} Mnps", report.nps() as f64 / 1e6)?;
    if json {
        writeln!(w, "{}", report.json())?;
    }
    Ok(())
}
