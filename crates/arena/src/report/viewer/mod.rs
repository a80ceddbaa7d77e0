//! PLACEHOLDER, on the `index` branch only: the game viewer is being written on the `viewer`
//! branch, whose `report/viewer/` replaces this file when it is merged. It has exactly the two
//! functions the games index calls, so that the index compiles and its tests run before then;
//! `page` returns a trivial page.

use std::path::{Path, PathBuf};

use crate::analysis::{Analysis, StudyGame};

/// The viewer page of a game (PLACEHOLDER: a trivial page with the title, players and result).
pub fn page(game: &StudyGame, analysis: Option<&Analysis>) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title></head>\
         <body><h1>{}</h1><p>{} vs {}: {} ({}), {} plies{}</p></body></html>\n",
        esc(&game.title),
        esc(&game.title),
        esc(&game.red),
        esc(&game.black),
        game.result.text(),
        esc(&game.ending),
        game.moves.len(),
        if analysis.is_some() { ", analysed" } else { "" }
    )
}

/// Where the viewer page of game `number` of a match folder goes: `<folder>/games/game-<N>.html`.
pub fn game_page_path(match_folder: &Path, number: u64) -> PathBuf {
    match_folder
        .join("games")
        .join(format!("game-{number}.html"))
}
