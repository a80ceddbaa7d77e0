//! `arena solve`'s results: each engine's table and summary and the `--min-solved` verdict
//! printed, `solve.json` and `solve.csv` written, and how the run ended.

use std::io::Write;

use serde::Serialize;

use crate::analysis::solve::{EngineSummary, PositionResult, SolvePlan, summarise};
use crate::error::Error;
use crate::records::epd::Suite;
use crate::report::solve::{summary_line, write_table};

/// How `--min-solved` came out for one engine.
#[derive(Serialize)]
struct MinSolvedJson<'a> {
    /// The flag as given.
    given: &'a str,
    /// Positions each engine had to solve.
    required: usize,
    /// Whether every engine did.
    passed: bool,
}

/// What `solve.json` holds.
#[derive(Serialize)]
struct SolveJson<'a> {
    harness: &'static str,
    /// The code that searched.
    build: crate::records::build::Build,
    suite: String,
    rules: String,
    limits: String,
    seed: u64,
    threads: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    min_solved: Option<MinSolvedJson<'a>>,
    skipped_lines: Vec<SkippedLine>,
    engines: &'a [EngineSummary],
    positions: &'a [PositionResult],
}

/// A suite line that was skipped, and why.
#[derive(Serialize)]
struct SkippedLine {
    line: usize,
    error: String,
}

/// How `arena solve` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Every search was done, and every engine solved at least `--min-solved` positions (or the
    /// flag was not given).
    Passed,
    /// Every search was done, and an engine solved fewer positions than `--min-solved`.
    BelowMinimum,
    /// Ctrl-C: the finished searches are kept in the journal, for `--resume`.
    Interrupted,
}

/// Prints each engine's table and summary and the `--min-solved` verdict, and writes
/// `solve.json` and `solve.csv`.
///
/// # Errors
/// Output or results that cannot be written (exit 4).
pub fn report(
    args: &SolvePlan,
    results: Vec<Option<PositionResult>>,
    w: &mut dyn Write,
) -> Result<Ended, Error> {
    let (suite, engines, out_dir) = (&args.suite, &args.engines, &args.out);
    let io = |e: std::io::Error| Error::Write(format!("writing output: {e}"));
    // Job order is position-major; reports go engine by engine.
    let mut by_engine: Vec<Vec<PositionResult>> = vec![Vec::new(); engines.len()];
    for r in results.into_iter().flatten() {
        let k = engines
            .iter()
            .position(|e| e.label == r.engine)
            .unwrap_or(0);
        by_engine[k].push(r);
    }
    let summaries: Vec<EngineSummary> = engines
        .iter()
        .zip(&by_engine)
        .map(|(e, rs)| summarise(e, rs, suite))
        .collect();
    for (s, rs) in summaries.iter().zip(&by_engine) {
        write_table(w, s, rs, args.failed_only).map_err(io)?;
    }
    writeln!(w).map_err(io)?;
    for s in &summaries {
        writeln!(w, "{}", summary_line(s)).map_err(io)?;
    }
    let passed = match &args.min_solved {
        None => true,
        Some(min) => {
            for s in &summaries {
                writeln!(
                    w,
                    "--min-solved {}: {} {} ({} solved, {} needed)",
                    min.given,
                    s.engine,
                    if s.solved >= min.required {
                        "passed"
                    } else {
                        "FAILED"
                    },
                    s.solved,
                    min.required
                )
                .map_err(io)?;
            }
            summaries.iter().all(|s| s.solved >= min.required)
        }
    };
    let all: Vec<PositionResult> = by_engine.into_iter().flatten().collect();
    let min_json = args.min_solved.as_ref().map(|m| MinSolvedJson {
        given: &m.given,
        required: m.required,
        passed,
    });
    write_files(out_dir, args, min_json, suite, &summaries, &all)?;
    writeln!(w, "results: {}", out_dir.display()).map_err(io)?;
    Ok(if passed {
        Ended::Passed
    } else {
        Ended::BelowMinimum
    })
}

/// Writes `solve.json` and `solve.csv` in `dir`.
///
/// # Errors
/// A file that cannot be written (exit 4).
fn write_files(
    dir: &std::path::Path,
    args: &SolvePlan,
    min_solved: Option<MinSolvedJson<'_>>,
    suite: &Suite,
    summaries: &[EngineSummary],
    all: &[PositionResult],
) -> Result<(), Error> {
    let io = |what: &str, e: std::io::Error| {
        Error::Write(format!("cannot write {}: {e}", dir.join(what).display()))
    };
    crate::records::files::create_dir(dir).map_err(|e| io("", e))?;
    let json = SolveJson {
        harness: env!("CARGO_PKG_VERSION"),
        build: crate::records::build::Build::current(
            &args
                .engines
                .iter()
                .filter_map(|e| e.executable().map(|p| (e.label.clone(), p)))
                .collect::<Vec<_>>(),
        ),
        suite: args.suite_path.display().to_string(),
        rules: args.rules_name.clone(),
        limits: args.limits.to_string(),
        seed: args.seed,
        threads: args.threads,
        min_solved,
        skipped_lines: suite
            .errors
            .iter()
            .map(|e| SkippedLine {
                line: e.line,
                error: e.message.clone(),
            })
            .collect(),
        engines: summaries,
        positions: all,
    };
    let bytes =
        serde_json::to_vec_pretty(&json).map_err(|e| Error::Write(format!("solve.json: {e}")))?;
    crate::records::files::write_output(&dir.join("solve.json"), &bytes)
        .map_err(|e| io("solve.json", e))?;
    let mut csv = csv::Writer::from_writer(Vec::new());
    let header = [
        "engine",
        "index",
        "line",
        "id",
        "expected",
        "move",
        "score",
        "depth",
        "nodes",
        "ms",
        "right_move",
        "mate_proved",
        "mate_check",
        "solved",
        "first_ms",
        "first_nodes",
        "found_ms",
        "found_nodes",
        "held",
        "error",
        "fen",
    ];
    let write_err = |e: csv::Error| Error::Write(format!("solve.csv: {e}"));
    csv.write_record(header).map_err(write_err)?;
    let opt = |v: Option<String>| v.unwrap_or_default();
    for r in all {
        csv.write_record([
            r.engine.clone(),
            r.index.to_string(),
            r.line.to_string(),
            r.id.clone(),
            r.expected.clone(),
            opt(r.mv.clone()),
            opt(r.score.clone()),
            opt(r.depth.map(|d| d.to_string())),
            r.nodes.to_string(),
            format!("{:.1}", r.ms),
            r.right_move.to_string(),
            opt(r.mate_proved.map(|b| b.to_string())),
            opt(r.mate_check.clone()),
            r.solved.to_string(),
            opt(r.first_ms.map(|v| format!("{v:.1}"))),
            opt(r.first_nodes.map(|v| v.to_string())),
            opt(r.found_ms.map(|v| format!("{v:.1}"))),
            opt(r.found_nodes.map(|v| v.to_string())),
            r.held.to_string(),
            opt(r.error.clone()),
            r.fen.clone(),
        ])
        .map_err(write_err)?;
    }
    let bytes = csv
        .into_inner()
        .map_err(|e| Error::Write(format!("solve.csv: {e}")))?;
    crate::records::files::write_output(&dir.join("solve.csv"), &bytes)
        .map_err(|e| io("solve.csv", e))?;
    Ok(())
}
