//! Games from files (placeholder until the PGN and JieqiBox readers land).

use std::path::Path;

use crate::analysis::StudyGame;

/// A game from a PGN or JieqiBox file.
///
/// # Errors
/// Always, for now.
pub fn study_from_file(path: &Path, game: Option<u64>) -> Result<StudyGame, String> {
    let _ = game;
    Err(format!(
        "{}: reading game files is not wired yet",
        path.display()
    ))
}
