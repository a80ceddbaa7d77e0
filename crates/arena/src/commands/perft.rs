//! `arena perft`: count the leaves of the public game tree and report the count and speed.
//! The count is `analysis::perft`'s, the text `report::perft`'s.

use std::io::{self, Write};

use crate::error::Error;
use crate::plan::perft::PerftPlan;

pub use crate::analysis::perft::{PerftReport, count};
pub use crate::report::perft::write_report;

/// Runs `arena perft`.
///
/// # Errors
/// Writing the output fails ([`Error::Output`]).
pub fn run(plan: &PerftPlan, w: &mut impl Write) -> Result<(), Error> {
    print(plan, w).map_err(Error::Output)
}

/// Counts and writes the report.
fn print(plan: &PerftPlan, w: &mut impl Write) -> io::Result<()> {
    let mut pos = plan.position.clone();
    let report = count(&mut pos, plan.depth, plan.divide);
    write_report(w, &plan.position, &report, plan.json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::{Position, Rules};

    #[test]
    fn divide_sums_to_the_total() {
        let mut pos = Position::start(&Rules::standard());
        let whole = count(&mut pos, 2, false);
        let split = count(&mut pos, 2, true);
        assert_eq!(whole.nodes, split.nodes);
        let children = split.children.unwrap();
        // 43 hidden moves × 6 identities + 1 king move.
        assert_eq!(children.len(), 259);
        assert!(children.iter().any(|(m, _)| m == "b0c2N"), "{children:?}");
    }

    #[test]
    fn depth_zero_is_one_leaf() {
        let mut pos = Position::start(&Rules::xiangqi());
        assert_eq!(count(&mut pos, 0, true).nodes, 1);
        assert_eq!(count(&mut pos, 0, false).nodes, 1);
    }

    #[test]
    fn json_line_shape() {
        let r = PerftReport {
            depth: 3,
            nodes: 79666,
            seconds: 0.5,
            children: None,
        };
        assert_eq!(
            r.json(),
            r#"{"depth":3,"nodes":79666,"seconds":0.5,"nps":159332}"#
        );
    }
}
