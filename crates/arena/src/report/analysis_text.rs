//! What `arena analyze` prints of an analysis: a ply's line, and counts in words.

use crate::analysis::verdict::{Class, PlyAnalysis};
use crate::util::text::printable;

/// An expected-score share as percentage points.
fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// One ply's line: number, side, move and class mark, the loss, the reference's best move and
/// both scores, the chance, the note, and what the recorded engine said.
pub fn ply_line(p: &PlyAnalysis, recorded: Option<&crate::records::PlyInfo>) -> String {
    let mark = p.class.map_or("", Class::mark);
    let mut line = format!(
        "{:4}. {:5} {:8}{mark:2}  loss {:>6}  best {:5} {:>6}  played {:>6}",
        p.ply,
        p.mover,
        p.played,
        pct(p.loss),
        p.best,
        p.best_score,
        p.played_score
    );
    if let (Some(c), Some(from)) = (p.chance, p.chance_from) {
        line.push_str(&format!("  {from} {:+.1}%", c * 100.0));
    }
    if let Some(class) = p.class {
        line.push_str(&format!("  {}", class.name()));
    }
    if let Some(note) = &p.note {
        line.push_str(&format!(" ({note})"));
    }
    if let Some(o) = &p.omniscient {
        line.push_str(&format!("  | truth: {} {}", o.best, o.score));
    }
    if let Some(r) = recorded {
        let mut said = Vec::new();
        if let Some(s) = &r.score {
            said.push(printable(s));
        }
        if let Some(d) = r.depth {
            said.push(format!("depth {d}"));
        }
        if !said.is_empty() {
            line.push_str(&format!("  | engine: {}", said.join(" ")));
        }
    }
    line
}

/// `1 ply`, `2 plies`.
pub fn plies(n: usize) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// `1 thread`, `2 threads`.
pub fn threads(n: usize) -> String {
    if n == 1 {
        "1 thread".to_string()
    } else {
        format!("{n} threads")
    }
}
