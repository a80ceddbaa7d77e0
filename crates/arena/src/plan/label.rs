//! `arena label`'s plan: the label engine built, the numbers in range, and the chunk and its
//! provenance file checked to be new, before any game is read.

use jieqi_engine::Spec;

use crate::cli::label::LabelArgs;
use crate::error::Error;

/// A validated `arena label` ([`crate::tuning::label::LabelSettings`]).
pub use crate::tuning::label::LabelSettings as LabelPlan;

/// The most `--nodes`.
pub const MAX_NODES: u64 = 100_000_000;

/// Validates `arena label` arguments.
///
/// # Errors
/// A number out of its range, a label engine that is no in-process spec, a chunk that exists or
/// an output that cannot be written, a folder without a recorded run.
pub fn plan(args: LabelArgs) -> Result<LabelPlan, Error> {
    let arg = |flag: &'static str, message: String| Error::Arg { flag, message };
    if !(1..=MAX_NODES).contains(&args.nodes) {
        return Err(arg(
            "--nodes",
            format!("{}: give 1 to {MAX_NODES}", args.nodes),
        ));
    }
    let most = crate::records::data::MAX_RECORDS;
    if !(1..=most).contains(&args.positions) {
        return Err(arg(
            "--positions",
            format!("{}: give 1 to {most}", args.positions),
        ));
    }
    let threads = match args.threads {
        Some(0) => return Err(arg("--threads", "0: give at least 1".into())),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let spec = Spec::parse(&args.engine).map_err(|e| arg("--engine", e.to_string()))?;
    let factory = jieqi_registry::factory(&spec).map_err(|e| {
        arg(
            "--engine",
            format!(
                "{}: {e} (the label engine is an in-process spec)",
                args.engine
            ),
        )
    })?;
    for dir in &args.dirs {
        crate::run::folder::recorded_run(dir).map_err(Error::Input)?;
    }
    let plan = LabelPlan {
        dirs: args.dirs,
        out: args.out,
        engine: args.engine,
        factory,
        nodes: args.nodes,
        positions: args.positions,
        skip: args.skip,
        threads,
    };
    for path in [&plan.out, &plan.provenance_path()] {
        crate::records::files::check_output(path).map_err(|m| arg("--out", m.to_string()))?;
    }
    if plan.out.extension().is_none_or(|e| e != "jqd") {
        return Err(arg(
            "--out",
            format!("{}: give a .jqd file", plan.out.display()),
        ));
    }
    if std::fs::symlink_metadata(&plan.out).is_ok() {
        return Err(arg(
            "--out",
            format!(
                "{} exists: a chunk is never rewritten (remove it by hand to remake it)",
                plan.out.display()
            ),
        ));
    }
    Ok(plan)
}
