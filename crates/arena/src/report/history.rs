//! `arena history DIR`: the index page of a folder of nightly tournaments (`index.html`): a link
//! to every night, the latest night's rating list, and every engine's rating over the nights
//! with its band.

use std::io::Write;
use std::path::Path;

use crate::error::Error;
use crate::records::files::write_atomically;
use crate::report::html::{self, NightLink};
use crate::report::pairing::elo_text;
use crate::report::standings;

/// Writes `dir/index.html` and says so on `out`.
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
    let standings::Nights {
        names: nights,
        history,
        ratings: parsed,
        skipped,
    } = standings::history(dir, None, None);
    for s in &skipped {
        eprintln!("warning: skipped {s}");
    }
    let Some((latest_name, latest)) = parsed.last() else {
        return Err(Error::Input(format!(
            "{}: no tournament folders (subfolders with a ratings.json) in it",
            dir.display()
        )));
    };
    let links: Vec<NightLink> = parsed
        .iter()
        .rev()
        .map(|(name, r)| {
            let games: u64 = r.pairings.iter().map(|p| p.wins + p.draws + p.losses).sum();
            let best = r.engines.first().map_or(String::new(), |e| {
                format!(", best: {} {}", e.label, elo_text(e.elo))
            });
            NightLink {
                night: name.clone(),
                href: format!("{name}/report.html"),
                summary: format!("{} engines, {games} games{best}", r.engines.len()),
            }
        })
        .collect();
    let page = standings::page(latest_name, latest, nights.clone(), history, Vec::new());
    let html = html::index_html(&links, Some(&page));
    let path = dir.join("index.html");
    write_atomically(&path, html.as_bytes())?;
    writeln!(
        out,
        "Wrote {} ({} night{}, latest {latest_name})",
        path.display(),
        nights.len(),
        if nights.len() == 1 { "" } else { "s" }
    )?;
    Ok(())
}
