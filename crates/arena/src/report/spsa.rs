//! What `arena spsa` shows and leaves in its folder besides its record: the progress line, the
//! result (the tuned spec and each parameter start → now), the path as CSV (spsa.csv); the
//! page is [`crate::report::html::spsa`].

use std::fmt::Write;

use crate::tuning::spsa::Record;

/// The progress line after a batch: iteration k/N, games, θ+'s W-D-L, θ rounded as sent.
pub fn progress_line(record: &Record) -> String {
    let s = &record.settings;
    let theta: Vec<String> = s
        .params
        .iter()
        .zip(&record.theta)
        .map(|(p, &t)| format!("{}={}", p.name, p.value_text(t)))
        .collect();
    format!(
        "spsa: iteration {}/{}, {} games, theta+ W-D-L {}-{}-{}, {}",
        record.iteration,
        s.iterations,
        record.wdl.games(),
        record.wdl.wins,
        record.wdl.draws,
        record.wdl.losses,
        theta.join(" ")
    )
}

/// The result: the spec with θ's values, ready for `arena sprt`, and a table of each parameter
/// start → now (θ exactly, and as sent).
pub fn result_text(record: &Record) -> String {
    let s = &record.settings;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "spsa: {} of {} iterations, {} games (theta+ {}-{}-{})",
        record.iteration,
        s.iterations,
        record.wdl.games(),
        record.wdl.wins,
        record.wdl.draws,
        record.wdl.losses
    );
    let width = s
        .params
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        .max(9);
    let _ = writeln!(
        out,
        "{:width$}  {:>12}  {:>12}  {:>10}  range",
        "parameter", "start", "theta", "sent"
    );
    for (p, &t) in s.params.iter().zip(&record.theta) {
        let _ = writeln!(
            out,
            "{:width$}  {:>12}  {:>12}  {:>10}  [{}, {}]",
            p.name,
            p.start,
            t,
            p.value_text(t),
            p.min,
            p.max
        );
    }
    let _ = writeln!(out, "result: {}", record.result_spec());
    out
}

/// The path as CSV: one row per batch (iterations done, games, θ+'s W/D/L of the batch, θ), the
/// start as row 0.
pub fn path_csv(record: &Record) -> String {
    let s = &record.settings;
    let mut out = String::from("iteration,wins,draws,losses");
    for p in &s.params {
        let _ = write!(out, ",{}", p.name);
    }
    out.push('\n');
    let _ = write!(out, "0,0,0,0");
    for p in &s.params {
        let _ = write!(out, ",{}", p.start);
    }
    out.push('\n');
    for step in &record.history {
        let _ = write!(
            out,
            "{},{},{},{}",
            step.iteration, step.wdl.wins, step.wdl.draws, step.wdl.losses
        );
        for t in &step.theta {
            let _ = write!(out, ",{t}");
        }
        out.push('\n');
    }
    out
}
