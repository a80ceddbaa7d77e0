//! `arena perft`: count the leaves of the public game tree and report the count and speed.

use std::io::{self, Write};
use std::time::Instant;

use jieqi_core::{Position, perft};

use crate::error::Error;
use crate::plan::perft::PerftPlan;

/// A finished count.
#[derive(Clone, Debug, PartialEq)]
pub struct PerftReport {
    /// Plies counted.
    pub depth: u32,
    /// Leaves of the tree.
    pub nodes: u64,
    /// Wall-clock time of the count.
    pub seconds: f64,
    /// With `--divide`: each root child as its move text (`b0c2N`) and its leaf count, in
    /// move-generation order.
    pub children: Option<Vec<(String, u64)>>,
}

/// The JSON summary line.
#[derive(serde::Serialize)]
struct JsonLine {
    depth: u32,
    nodes: u64,
    seconds: f64,
    nps: u64,
}

impl PerftReport {
    /// Leaves per second, rounded down; 0 when the count took no measurable time.
    pub fn nps(&self) -> u64 {
        if self.seconds > 0.0 {
            (self.nodes as f64 / self.seconds) as u64
        } else {
            0
        }
    }

    /// The summary as one line of JSON: `{"depth":D,"nodes":N,"seconds":S,"nps":R}`, seconds
    /// rounded to microseconds.
    pub fn json(&self) -> String {
        let line = JsonLine {
            depth: self.depth,
            nodes: self.nodes,
            seconds: (self.seconds * 1e6).round() / 1e6,
            nps: self.nps(),
        };
        serde_json::to_string(&line).expect("a struct of numbers serializes")
    }
}

/// Counts `depth` plies below `pos` on this thread, per root child when `divide` is set.
pub fn count(pos: &mut Position, depth: u32, divide: bool) -> PerftReport {
    let mover = pos.turn();
    let start = Instant::now();
    let (nodes, children) = if divide && depth > 0 {
        let children: Vec<(String, u64)> = perft::divide(pos, depth)
            .into_iter()
            .map(|(pm, n)| (pm.to_text(mover), n))
            .collect();
        (children.iter().map(|(_, n)| n).sum(), Some(children))
    } else {
        // Depth 0 has no children but one leaf, the root itself.
        (perft::perft(pos, depth), divide.then(Vec::new))
    };
    PerftReport {
        depth,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
        children,
    }
}

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

/// Runs `arena perft`.
///
/// # Errors
/// Writing the output fails ([`Error::Output`]).
pub fn run(plan: &PerftPlan, w: &mut impl Write) -> Result<(), Error> {
    print(plan, w).map_err(Error::Output)
}

/// Counts and writes the report.
fn print(plan: &PerftPlan, w: &mut impl Write) -> io::Result<()> {
    let mut pos = plan.position.clone();
    let report = count(&mut pos, plan.depth, plan.divide);
    write_report(w, &plan.position, &report, plan.json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::Rules;

    #[test]
    fn divide_sums_to_the_total() {
        let mut pos = Position::start(&Rules::standard());
        let whole = count(&mut pos, 2, false);
        let split = count(&mut pos, 2, true);
        assert_eq!(whole.nodes, split.nodes);
        let children = split.children.unwrap();
        // 43 hidden moves × 6 identities + 1 king move.
        assert_eq!(children.len(), 259);
        assert!(children.iter().any(|(m, _)| m == "b0c2N"), "{children:?}");
    }

    #[test]
    fn depth_zero_is_one_leaf() {
        let mut pos = Position::start(&Rules::xiangqi());
        assert_eq!(count(&mut pos, 0, true).nodes, 1);
        assert_eq!(count(&mut pos, 0, false).nodes, 1);
    }

    #[test]
    fn json_line_shape() {
        let r = PerftReport {
            depth: 3,
            nodes: 79666,
            seconds: 0.5,
            children: None,
        };
        assert_eq!(
            r.json(),
            r#"{"depth":3,"nodes":79666,"seconds":0.5,"nps":159332}"#
        );
    }
}
