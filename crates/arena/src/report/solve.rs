//! What `arena solve` prints: an engine's table of results and its one-line summary.

use std::io::Write;

use crate::analysis::solve::{EngineSummary, PositionResult};

/// Writes engine `s`'s table of results `rs` (only those not solved with `failed_only`).
pub fn write_table(
    w: &mut dyn Write,
    s: &EngineSummary,
    rs: &[PositionResult],
    failed_only: bool,
) -> std::io::Result<()> {
    writeln!(w)?;
    writeln!(w, "{}", s.engine)?;
    writeln!(
        w,
        "{:>4}  {:<16} {:<24} {:<6} {:<10} {:>9} {:>11} {:>9} {:>11}  result",
        "#", "id", "expected", "move", "score", "ms", "nodes", "found ms", "found nodes"
    )?;
    for r in rs {
        if failed_only && r.solved {
            continue;
        }
        let mut result = match (&r.error, r.solved, r.right_move) {
            (Some(e), _, _) => format!("failed: {e}"),
            (None, true, _) if r.held => "solved".into(),
            (None, true, _) => "solved (after a wrong answer)".into(),
            (None, false, true) => "right move, mate not proved".into(),
            (None, false, false) => "wrong".into(),
        };
        if let Some(c) = &r.mate_check {
            result.push_str(&format!("; mate claim {c}"));
        }
        let opt = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.0}"));
        writeln!(
            w,
            "{:>4}  {:<16} {:<24} {:<6} {:<10} {:>9.0} {:>11} {:>9} {:>11}  {result}",
            r.index,
            clip(&r.id, 16),
            clip(&r.expected, 24),
            r.mv.as_deref().unwrap_or("-"),
            r.score.as_deref().unwrap_or("-"),
            r.ms,
            r.nodes,
            opt(r.found_ms),
            r.found_nodes.map_or("-".into(), |n| n.to_string()),
        )?;
    }
    Ok(())
}

/// `s` for the table: escaped ([`crate::util::text::printable`]), cut to `n` characters.
fn clip(s: &str, n: usize) -> String {
    let s = crate::util::text::printable(s);
    if s.chars().count() <= n {
        s
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

/// Engine `s`'s one-line summary.
pub fn summary_line(s: &EngineSummary) -> String {
    let pct = |a: usize, b: usize| {
        if b == 0 {
            0.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };
    let mut line = format!(
        "{}: solved {} / {} ({:.1} %); right move {} / {}",
        s.engine,
        s.solved,
        s.positions,
        pct(s.solved, s.positions),
        s.right_moves,
        s.positions
    );
    if s.dm_positions > 0 {
        line.push_str(&format!(
            "; mates proved {} / {}",
            s.mates_proved, s.dm_positions
        ));
    }
    if s.mate_claims > 0 {
        line.push_str(&format!(
            "; mate claims {}: {} proved, {} refuted, {} unknown",
            s.mate_claims,
            s.claims_proved,
            s.claims_refuted,
            s.mate_claims - s.claims_proved - s.claims_refuted
        ));
    }
    if s.failures > 0 {
        line.push_str(&format!("; {} failed", s.failures));
    }
    line.push_str(&format!(
        "; total {:.1} s, {} nodes",
        s.total_ms / 1000.0,
        s.total_nodes
    ));
    if let Some(m) = s.mean_found_ms {
        line.push_str(&format!("; mean time to solution {m:.0} ms"));
    }
    if !s.by_dm.is_empty() {
        let parts: Vec<String> = s
            .by_dm
            .iter()
            .map(|(n, a, b)| format!("dm{n} {a}/{b}"))
            .collect();
        line.push_str(&format!("; {}", parts.join(" ")));
    }
    line
}
