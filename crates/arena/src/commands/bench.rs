//! `arena bench`: speed figures on fixed inputs, so a regression shows up as a number — perft
//! nodes/s, random playouts/s, and each engine's nodes/s and time per move on fixed positions.
//! The timings are `analysis::bench`'s, the figures `report::bench`'s.

use std::io::Write;

use jieqi_core::Rules;

use crate::analysis::bench as work;
use crate::error::Error;
use crate::plan::bench::BenchPlan;
use crate::report::bench as figures;

pub use crate::analysis::bench::positions;

/// Runs the benchmark.
///
/// # Errors
/// Writing fails ([`Error::Output`]).
pub fn run(plan: &BenchPlan, w: &mut dyn Write) -> Result<(), Error> {
    print(plan, w).map_err(Error::Output)
}

/// Times everything and writes the figures.
fn print(plan: &BenchPlan, w: &mut dyn Write) -> std::io::Result<()> {
    let mut json = serde_json::Map::new();
    let perft = work::perft_speed(plan.perft_depth);
    figures::perft(w, &mut json, plan.perft_depth, perft)?;
    let mut playouts = serde_json::Map::new();
    for (rules, fixed) in [
        (Rules::simple(), false),
        (Rules::standard(), false),
        (Rules::simple(), true),
    ] {
        let p = work::playouts(rules, fixed, plan.playouts);
        figures::playouts(w, &mut playouts, &p)?;
    }
    json.insert("playouts".into(), serde_json::Value::Object(playouts));
    let views = positions();
    writeln!(
        w,
        "engines on {} fixed positions ({}):",
        views.len(),
        plan.limits
    )?;
    let mut engines = serde_json::Map::new();
    for entry in &plan.engines {
        let speed = work::engine_speed(entry, &plan.limits, &views);
        figures::engine(w, &mut engines, &entry.label, views.len(), &speed)?;
    }
    json.insert("engines".into(), serde_json::Value::Object(engines));
    if plan.json {
        writeln!(w, "{}", serde_json::Value::Object(json))?;
    }
    Ok(())
}
