//! `arena perft`'s count: the leaves of the public game tree below a position, per root child
//! if asked, and how fast they were counted.

use std::time::Instant;

use jieqi_core::{Position, perft};

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
