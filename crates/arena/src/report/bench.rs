//! `arena bench`'s figures: a line per timing for people, each also kept in the JSON object
//! printed at the end with `--json`.

use std::io::Write;

use serde_json::{Map, Value};

use crate::analysis::bench::{EngineSpeed, Playouts};

/// The perft line.
///
/// # Errors
/// Writing fails.
pub fn perft(
    w: &mut dyn Write,
    json: &mut Map<String, Value>,
    depth: u32,
    (nodes, secs): (u64, f64),
) -> std::io::Result<()> {
    writeln!(
        w,
        "perft xiangqi start depth {}: {nodes} nodes in {secs:.3} s, {:.1} M nodes/s",
        depth,
        nodes as f64 / secs / 1e6
    )?;
    json.insert(
        "perft_nps".into(),
        serde_json::json!((nodes as f64 / secs).round()),
    );
    Ok(())
}

/// The line of one start's random playouts.
///
/// # Errors
/// Writing fails.
pub fn playouts(
    w: &mut dyn Write,
    playouts: &mut Map<String, Value>,
    p: &Playouts,
) -> std::io::Result<()> {
    let Playouts {
        label,
        key,
        n,
        plies,
        secs,
    } = p;
    let (n, plies, secs) = (*n, *plies, *secs);
    writeln!(
        w,
        "random playouts, {label}: {n} playouts, {:.1} plies each, {:.0} playouts/s, {:.2} M plies/s",
        plies as f64 / n as f64,
        n as f64 / secs,
        plies as f64 / secs / 1e6
    )?;
    playouts.insert(
        key.clone(),
        serde_json::json!({"playouts_per_s": (n as f64 / secs).round(), "plies_per_s": (plies as f64 / secs).round()}),
    );
    Ok(())
}

/// The line of one engine on `positions` positions (and of its failures, if any).
///
/// # Errors
/// Writing fails.
pub fn engine(
    w: &mut dyn Write,
    engines: &mut Map<String, Value>,
    label: &str,
    positions: usize,
    speed: &EngineSpeed,
) -> std::io::Result<()> {
    let EngineSpeed {
        nodes,
        secs,
        failed,
        first_failure,
    } = speed;
    let (nodes, secs, failed) = (*nodes, *secs, *failed);
    let per_move_ms = secs * 1000.0 / positions as f64;
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    writeln!(
        w,
        "  {:28} {nodes:>12} nodes {per_move_ms:9.3} ms/move {:10.3} M nodes/s",
        label,
        nps / 1e6
    )?;
    if let Some(why) = &first_failure {
        writeln!(
            w,
            "    {failed} of {} moves failed (the first: {why})",
            positions
        )?;
    }
    engines.insert(
        label.to_string(),
        serde_json::json!({"nodes": nodes, "ms_per_move": per_move_ms, "nps": nps.round(), "failed": failed}),
    );
    Ok(())
}
