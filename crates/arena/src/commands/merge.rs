//! `arena merge`: the shards of a run (`--shard K/N` on several machines) put back together by
//! [`crate::run::merge`], reported by the same finish as a run ([`crate::report::finish`]), then
//! the merge's own lines (shards, missing pairs, homogeneity), printed and kept in `merge.txt`.

use std::io::Write;

use crate::error::Error;
use crate::plan::merge::MergePlan;
use crate::records::files::write_atomically;
use crate::run::merge::{FLAG_P, MergeReport, MergeRequest, Merged, ranges};
use crate::util::text::counted;

/// Merges the shard folders into `args.out` and prints the merged summary, then the shards'
/// homogeneity.
///
/// # Errors
/// Shards that do not belong together, duplicates, overlaps, missing pairs without `--partial`
/// ([`Error::Input`]); writing fails ([`Error::Results`]).
pub fn run(args: &MergePlan, out: &mut dyn Write) -> Result<crate::report::RunEnd, Error> {
    let Merged {
        setup,
        outcome,
        report,
        absent,
    } = crate::run::merge::merge(&MergeRequest {
        dirs: &args.dirs,
        out: &args.out,
        partial: args.partial,
        allow_mixed_builds: args.allow_mixed_builds,
        notes: &|note| eprintln!("{}", crate::report::observer::note_text(note)),
    })?;
    let end = crate::report::finish(&setup, &outcome, out)?;
    let text = merge_text(&report, &absent);
    write_atomically(&args.out.join("merge.txt"), text.as_bytes())?;
    out.write_all(text.as_bytes())?;
    // The merged folder's lock, held by the outcome, is let go now that every file is written.
    drop(outcome);
    Ok(end)
}

/// The merge's own lines: shards, missing pairs, homogeneity.
fn merge_text(r: &MergeReport, absent: &[u64]) -> String {
    let mut s = format!("Merged {} of {} shards", r.checks.len(), r.shards);
    if !absent.is_empty() {
        s.push_str(&format!(
            " (missing: {})",
            absent
                .iter()
                .map(|k| format!("{k}/{}", r.shards))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    s.push('\n');
    if !r.missing_pairs.is_empty() {
        s.push_str(&format!(
            "PARTIAL: {} pair indices missing: {}\n",
            r.missing_pairs.len(),
            ranges(&r.missing_pairs)
        ));
    }
    s.push_str(&format!(
        "Homogeneity across shards: chi2 {:.2}, {} dof, p = {:.4}\n",
        r.chi2, r.dof, r.p_value
    ));
    for c in &r.checks {
        s.push_str(&format!(
            "  shard {:>7}: {:>12}, score {:5.1} %, vs the others chi2 {:.2} ({} dof), p = {:.2e}{}  {}\n",
            c.shard,
            counted(c.pairs, "pair"),
            100.0 * c.score,
            c.chi2,
            c.dof,
            c.p_value,
            if c.flagged { "  FLAGGED" } else { "" },
            c.dir
        ));
    }
    if r.checks.iter().any(|c| c.flagged) {
        s.push_str(&format!(
            "WARNING: a flagged shard's results differ from the others' by more than chance \
             (p × {} shards < {FLAG_P}): check that worker (engine build, load, clock) before \
             trusting the merge\n",
            r.checks.len()
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::merge::ShardCheck;

    fn check(shard: &str, pairs: u64) -> ShardCheck {
        ShardCheck {
            dir: format!("d{pairs}"),
            shard: shard.to_string(),
            pairs,
            score: 0.5,
            chi2: 0.0,
            dof: 1,
            p_value: 1.0,
            flagged: false,
        }
    }

    /// A shard of one pair reads `1 pair`, and the columns after the count stay aligned.
    #[test]
    fn a_one_pair_shard_is_singular_and_aligned() {
        let r = MergeReport {
            fingerprint: String::new(),
            shards: 2,
            checks: vec![check("1/2", 1), check("2/2", 20)],
            chi2: 0.0,
            dof: 1,
            p_value: 1.0,
            missing_pairs: Vec::new(),
        };
        let text = merge_text(&r, &[]);
        assert!(text.contains("      1 pair, score"), "{text}");
        assert!(text.contains("     20 pairs, score"), "{text}");
        assert!(!text.contains("1 pairs"), "{text}");
    }
}
