//! `arena view`: a recorded game as one self-contained HTML page to step through in a browser
//! ([`crate::report::viewer::page`]).

use std::io::Write;

use crate::error::Error;
use crate::plan::view::ViewPlan;
use crate::records::files;

/// Writes the game's page and prints where (after where the game was found, when that is not
/// the folder given).
///
/// # Errors
/// The page cannot be written ([`Error::Write`]), or printing fails ([`Error::Output`]).
pub fn run(plan: &ViewPlan, w: &mut dyn Write) -> Result<(), Error> {
    if let Some(note) = &plan.located {
        writeln!(w, "{note}").map_err(Error::Output)?;
    }
    let html = crate::report::viewer::page(&plan.game, None);
    let written = if plan.named {
        files::write_output(&plan.out, html.as_bytes())
    } else {
        let folder = plan.out.parent().unwrap_or(std::path::Path::new("."));
        files::create_dir(folder).and_then(|()| files::write_atomically(&plan.out, html.as_bytes()))
    };
    written.map_err(|e| Error::Write(e.to_string()))?;
    writeln!(w, "{}", plan.out.display()).map_err(Error::Output)?;
    // The folder's games index links the new page (`<folder>/games/game-<N>.html`).
    if !plan.named {
        if let Some(folder) = plan.out.parent().and_then(std::path::Path::parent) {
            crate::report::games_index::relink(folder);
        }
    }
    Ok(())
}
