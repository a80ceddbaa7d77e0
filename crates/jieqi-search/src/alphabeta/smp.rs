//! Lazy SMP: what the threads of a search publish to each other and to the front end.

use super::*;

/// The deepest iteration completed by any thread of a multi-threaded search. Lazy SMP's helpers
/// search one ply ahead of the main thread on the shared table and often complete a depth before
/// it: the search then answers with that deeper result (best-thread selection), and its progress
/// reports follow whichever thread is ahead.
#[derive(Clone, Debug, Default)]
pub(super) struct Published {
    pub(super) depth: u32,
    pub(super) mv: Option<Move>,
    pub(super) score: i32,
    pub(super) pv: Vec<Move>,
    /// Whether a helper (not the main thread) completed it.
    pub(super) by_helper: bool,
}

impl Searcher<'_> {
    /// Reports a completed iteration (`depth`, best move `mv`, score `v`). With several threads
    /// the iteration is also published, and reported only if it is deeper than every iteration
    /// published before, so the front end hears depths in increasing order from whichever
    /// thread completes them first.
    pub(super) fn publish(&mut self, depth: u32, mv: Move, v: i32) {
        let control = self.control;
        // First: the prover's nodes, if it is asked, count in this report.
        let score = self.claim_score(mv, v);
        let nodes = match self.shared_nodes {
            Some(total) => total.load(Ordering::Relaxed) + self.nodes % 1024,
            None => self.nodes,
        };
        let Some(published) = self.published else {
            control.report(|| SearchInfo {
                nodes,
                depth: Some(depth),
                score: Some(score),
                pv: self.pv(mv, depth as usize),
            });
            return;
        };
        let mut p = published.lock().unwrap_or_else(|e| e.into_inner());
        if depth <= p.depth {
            return;
        }
        let pv = self.pv(mv, depth as usize);
        control.report(|| SearchInfo {
            nodes,
            depth: Some(depth),
            score: Some(score),
            pv: pv.clone(),
        });
        *p = Published {
            depth,
            mv: Some(mv),
            score: v,
            pv,
            by_helper: self.helper,
        };
    }
}
