//! `arena view`'s plan: the recorded game found, read and played through, and where its page
//! goes; a game that is not there or does not play through is refused before anything is
//! written.

use std::path::PathBuf;

use crate::analysis::StudyGame;
use crate::cli::view::ViewArgs;
use crate::error::Error;
use crate::records;
use crate::report::viewer::game_page_path;
use crate::run::folder;

/// A validated `arena view`.
#[derive(Debug)]
pub struct ViewPlan {
    /// The game, played through.
    pub game: StudyGame,
    /// Where its page goes.
    pub out: PathBuf,
    /// Whether the user named `out` (else it is the match folder's `games/game-<N>.html`).
    pub named: bool,
    /// Where the game was found, said first (`game 37 of … is pair 18, game 1 of …`).
    pub located: Option<String>,
}

/// Validates `arena view` arguments: finds and reads the game and checks `--out`.
///
/// # Errors
/// A bad `--pair`/`--game`, a folder or record that cannot be used, a game that does not play
/// through, or an `--out` that names a folder or a results file.
pub fn plan(args: ViewArgs) -> Result<ViewPlan, Error> {
    let (folder, pair, game, located) = match args.pair {
        Some(pair) => match args.game {
            game @ (1 | 2) => (args.dir, pair, game as u8, None),
            game => {
                return Err(Error::arg(
                    "--game",
                    format!("{game}: with --pair it is 1 (A Red) or 2 (A Black)"),
                ));
            }
        },
        None => {
            let at =
                folder::locate(&args.dir, args.game).map_err(|(flag, m)| Error::arg(flag, m))?;
            (at.folder, at.pair, at.game, at.note)
        }
    };
    let (setup, line, journal) =
        folder::load_recorded(&folder, pair, game).map_err(|m| Error::arg("DIR", m))?;
    let number = records::game_number(pair, game);
    let title = format!(
        "{} game {number} (pair {pair}, game {game})",
        folder.display()
    );
    let study = StudyGame::from_record(&setup.rules, &line, setup.max_plies, title, Some(number))
        .map_err(|m| {
        Error::Input(format!(
            "{}: pair {pair} game {game} does not play through: {m}",
            journal.display()
        ))
    })?;
    let (out, named) = match args.out {
        Some(out) => {
            records::files::check_output(&out).map_err(|m| Error::arg("--out", m))?;
            (out, true)
        }
        None => (game_page_path(&folder, number), false),
    };
    Ok(ViewPlan {
        game: study,
        out,
        named,
        located,
    })
}
