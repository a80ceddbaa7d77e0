//! `arena book`'s file and printed line: the book's header comments (how it was made, what
//! the candidates came to) and its positions, and the line that says what was written.

use std::io::Write;

use crate::analysis::book::{BookPlan, Choose, Made};
use crate::error::Error;

/// Writes the book to `plan.out` and prints what it kept, `started` being when the work began.
///
/// # Errors
/// The file cannot be written, or printing fails.
pub fn write(
    plan: &BookPlan,
    made: &Made,
    started: std::time::Instant,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let Made {
        kept,
        over,
        unbalanced,
        failed,
        repeated,
        tried,
    } = made;
    let kept_n = kept.len();
    let plies = if plan.plies.0 == plan.plies.1 {
        format!("{}", plan.plies.0)
    } else {
        format!("{}-{}", plan.plies.0, plan.plies.1)
    };
    let how = match plan.choose {
        Choose::Random => "random legal plies".to_string(),
        Choose::Engine { nodes, margin } => format!(
            "plies drawn among the moves {} scores within {margin} cp of its best at {nodes} \
             nodes",
            plan.engine.spec
        ),
    };
    let mean = kept.iter().map(|(_, s, _)| f64::from(*s)).sum::<f64>() / kept_n as f64;
    let mean_abs = kept.iter().map(|(_, s, _)| f64::from(s.abs())).sum::<f64>() / kept_n as f64;
    let mut text = String::new();
    text.push_str(&format!("# arena book: {}\n", plan.command));
    text.push_str(&format!(
        "# {kept_n} distinct positions of rules {} after {plies} {how}, seed {}; kept where {} at \
         {} nodes scores the side to move within ±{} cp (ce: that score)\n",
        plan.rules.name, plan.seed, plan.engine.spec, plan.nodes, plan.max_score
    ));
    text.push_str(&format!(
        "# candidates {tried}: kept {kept_n}, ended {over}, out of bounds {unbalanced}, repeated \
         {repeated}, failed {failed}; mean score {mean:+.1} cp, mean |score| {mean_abs:.1} cp\n"
    ));
    for (i, (fen, s, p)) in kept.iter().enumerate() {
        text.push_str(&format!(
            "{fen} ; ce {s}; id \"book.{:05}\"; c0 \"plies {p}\";\n",
            i + 1
        ));
    }
    crate::records::files::write_output(&plan.out, text.as_bytes()).map_err(Error::Results)?;
    writeln!(
        out,
        "Wrote {} positions to {} ({} candidates: {over} ended, {unbalanced} out of ±{} cp, \
         {repeated} repeated, {failed} failed) in {:.1} s; mean score {mean:+.1} cp, mean \
         |score| {mean_abs:.1} cp",
        kept_n,
        plan.out.display(),
        tried,
        plan.max_score,
        started.elapsed().as_secs_f64()
    )
    .map_err(Error::Output)?;
    Ok(())
}
