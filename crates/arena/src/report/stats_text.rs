//! `arena stats`'s text: the result block of the counts (or its JSON object on one line), and
//! the counts and settings it is made from.

use crate::stats::block::{
    BlockInput, block_json, block_json_unsplit, render_block, render_block_unsplit,
};
use crate::stats::{Pentanomial, Sprt, Wdl};

/// The counts `arena stats` reports on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsCounts {
    /// Six pair counts: WL and DD apart.
    Pentanomial(Pentanomial),
    /// Five pair counts: the WL+DD cell is in `dd`, `wl` is 0.
    PentanomialUnsplit(Pentanomial),
    /// Game totals.
    Trinomial(Wdl),
}

/// Validated `arena stats` arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct StatsPlan {
    /// Engine A's name.
    pub a: String,
    /// Engine B's name.
    pub b: String,
    /// The counts.
    pub counts: StatsCounts,
    /// The SPRT, checked by [`Sprt::validate`].
    pub sprt: Option<Sprt>,
    /// Print JSON instead of the block.
    pub json: bool,
}

/// The output: the result block, or with `json` the block's JSON object on one line; ends in a
/// newline.
pub fn render(plan: &StatsPlan) -> String {
    let (ptnml, wdl, split) = match plan.counts {
        StatsCounts::Pentanomial(p) => (Some(p), p.wdl(), true),
        StatsCounts::PentanomialUnsplit(p) => (Some(p), Wdl::default(), false),
        StatsCounts::Trinomial(w) => (None, w, true),
    };
    let input = BlockInput {
        a: &plan.a,
        b: &plan.b,
        context: "",
        ptnml,
        wdl,
        sprt: plan.sprt,
    };
    match (plan.json, split) {
        (false, true) => render_block(&input),
        (false, false) => render_block_unsplit(&input),
        (true, true) => json_line(&block_json(&input)),
        (true, false) => json_line(&block_json_unsplit(&input)),
    }
}

/// One JSON object on one line.
fn json_line(b: &crate::stats::block::BlockJson) -> String {
    let mut s = serde_json::to_string(b).unwrap_or_default();
    s.push('\n');
    s
}
