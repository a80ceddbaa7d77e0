//! `arena history DIR`: the index pages of a nightly root. Only nights count (folders
//! `scripts/nightly.sh` made, [`crate::report::nights`]); they are grouped by series, each
//! series gets `series-<key>.html` (the latest night's rating list with its change since the
//! night before, every engine's rating over the nights, a link to every night), the series of
//! the newest night is also `index.html`, and every night's report gets its links to the index
//! and to the nights before and after it. What is not a night is named, with why, on stderr and
//! on the pages.

use std::io::Write;
use std::path::Path;

use crate::error::Error;
use crate::records::files::{read_bounded, write_atomically};
use crate::report::html::{self, Index, NightLink, SeriesLink};
use crate::report::nights::{self, SeriesNights};
use crate::report::pairing::elo_text;
use crate::report::standings;

/// The largest report page `arena history` rewrites the night links of.
const MAX_REPORT: u64 = 64 << 20;

/// Writes the index pages of `dir` and rewrites its reports' night links, and says so on `out`.
///
/// # Errors
/// No night in `dir` ([`Error::Input`]), or writing fails.
pub fn run(dir: &Path, out: &mut dyn Write) -> Result<(), Error> {
    if !dir.is_dir() {
        return Err(Error::Input(format!(
            "{}: {}",
            dir.display(),
            if dir.exists() {
                "not a folder"
            } else {
                "no such folder"
            }
        )));
    }
    if dir.join(nights::NIGHT_FILE).is_file() {
        return Err(Error::Input(format!(
            "{}: one night's folder; give the folder of nights ({})",
            dir.display(),
            dir.parent()
                .map_or_else(|| "its parent".to_string(), |p| p.display().to_string())
        )));
    }
    let root =
        std::fs::canonicalize(dir).map_err(|e| Error::Input(format!("{}: {e}", dir.display())))?;
    let scan = nights::scan(dir);
    if scan.series.is_empty() {
        return Err(Error::Input(format!(
            "{}: no nights in it (folders scripts/nightly.sh made: a night.json whose date is the \
             folder's name, and a rated tournament){}",
            dir.display(),
            if scan.skipped.is_empty() {
                String::new()
            } else {
                format!("; skipped {}", scan.skipped.join("; "))
            }
        )));
    }
    for s in &scan.skipped {
        eprintln!("warning: skipped {s}");
    }
    let series_links = |current: usize| -> Vec<SeriesLink> {
        scan.series
            .iter()
            .enumerate()
            .map(|(k, s)| SeriesLink {
                href: nights::series_page(&s.series),
                description: s.series.description.clone(),
                nights: s.nights.len(),
                newest: s.newest().to_string(),
                current: k == current,
            })
            .collect()
    };
    for (k, series) in scan.series.iter().enumerate() {
        let page = index_html(series, series_links(k), &scan.skipped);
        write_page(&root, &dir.join(nights::series_page(&series.series)), &page)?;
        if k == 0 {
            write_page(&root, &dir.join("index.html"), &page)?;
        }
        relink_reports(dir, &root, series)?;
    }
    let newest = &scan.series[0];
    let others = scan.series.len() - 1;
    writeln!(
        out,
        "Wrote {} ({} night{} of series {}, latest {}){}{}",
        dir.join("index.html").display(),
        newest.nights.len(),
        if newest.nights.len() == 1 { "" } else { "s" },
        newest.series.description,
        newest.newest(),
        if others > 0 {
            format!(
                "; {others} other series (series-<key>.html): {}",
                scan.series[1..]
                    .iter()
                    .map(|s| format!(
                        "{} ({} night{})",
                        s.series.description,
                        s.nights.len(),
                        if s.nights.len() == 1 { "" } else { "s" }
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            String::new()
        },
        if scan.skipped.is_empty() {
            String::new()
        } else {
            format!(
                "; skipped {} folder{}, not nights",
                scan.skipped.len(),
                if scan.skipped.len() == 1 { "" } else { "s" }
            )
        }
    )?;
    Ok(())
}

/// The index page of one series.
fn index_html(series: &SeriesNights, all: Vec<SeriesLink>, skipped: &[String]) -> String {
    let links: Vec<NightLink> = series
        .nights
        .iter()
        .map(|n| {
            let r = &n.ratings;
            let games: u64 = r.pairings.iter().map(|p| p.wins + p.draws + p.losses).sum();
            let best = r.engines.first().map_or(String::new(), |e| {
                format!(", best: {} {}", e.label, elo_text(e.elo))
            });
            NightLink {
                night: n.date.clone(),
                href: format!("{}/report.html", n.date),
                summary: format!(
                    "{} engines, {}{best}",
                    r.engines.len(),
                    crate::util::text::counted(games, "game")
                ),
                identity: nights::identity(n),
            }
        })
        .collect();
    let latest = series.nights.last().map(|n| {
        let mut page = standings::page(
            &format!("Night {}", n.date),
            &n.ratings,
            Vec::new(),
            Vec::new(),
            Vec::new(),
        );
        nights::decorate(&mut page, series, series.nights.len() - 1, "");
        page
    });
    html::index_html(&Index {
        series: series.series.description.clone(),
        nights: links,
        latest,
        all_series: all,
        skipped: skipped.to_vec(),
    })
}

/// Writes an index page of the root (whose real path is `root`), refusing a link that leads
/// outside the root: the pages of a root are its own files, never a file elsewhere.
fn write_page(root: &Path, path: &Path, page: &str) -> Result<(), Error> {
    if let Some(why) = nights::outside(root, path) {
        return Err(Error::Input(format!(
            "{}: {why}; not written",
            path.display()
        )));
    }
    write_atomically(path, page.as_bytes())?;
    Ok(())
}

/// Rewrites the night links of every report of `series` (to its index, the previous and the
/// next night); a report without them (older, or not found) is left as it is, and so is one
/// that leads outside the root (`root`, its real path) through a link, said on stderr.
fn relink_reports(dir: &Path, root: &Path, series: &SeriesNights) -> Result<(), Error> {
    for (i, n) in series.nights.iter().enumerate() {
        let path = dir.join(&n.date).join("report.html");
        if let Some(why) = nights::outside(root, &path) {
            eprintln!(
                "warning: {}: {why}; its night links not rewritten",
                path.display()
            );
            continue;
        }
        let Ok(text) = read_bounded(&path, MAX_REPORT) else {
            continue;
        };
        if let Some(new) = html::replace_night_nav(&text, &nights::nav(series, i, "../")) {
            if new != text {
                write_atomically(&path, new.as_bytes())?;
            }
        }
    }
    Ok(())
}
