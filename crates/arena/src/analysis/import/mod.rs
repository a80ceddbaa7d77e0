//! Games from files: a [`StudyGame`] from a PGN that `arena export` wrote (or another program
//! in the same coordinates) or from a JieqiBox notation JSON, whichever the file holds
//! ([`study_from_file`]: a file whose first character is `{` is JieqiBox's, any other PGN), and
//! the openings of a book file ([`book_positions`]). The text is read by
//! [`crate::records::formats`]; here a game is played through, one module per format (`pgn`,
//! `jieqibox`) and what they share (`game`: the completion, the start, the result).
//!
//! **The truth.** A file gives the moves with the identities they revealed (`h2h9Rn`), not the
//! whole deal. It is known when the file says it and the moves agree: a PGN's `Deal` tag (which
//! must agree, or the file is refused), or a deal seed (a PGN's `Seed` tag, the seed in a
//! JieqiBox file's `openingComment` as `arena export` writes it) whose deal gives every reveal
//! and captured identity the moves name. Otherwise the start is a *completion*: each identity the
//! game revealed, and each captured hidden piece's that the file names, at its start square (a
//! hidden piece never moves before it is revealed), the others from what is left of the pool in
//! the order of [`jieqi_core::Role::ALL`], with [`StudyGame::truth_known`] false (true only when the game
//! showed every hidden piece).
//!
//! **What each format gives.** PGN: the tags `White`, `Black`, `Result`, `Variant` (`jieqi`,
//! `xiangqi`, or a rule preset's name; without it, Jieqi unless the `FEN` has no hidden piece),
//! `FEN`, `Number`, `Seed`, `Deal`; each move's comment `{score/depth time}` (cutechess's, as
//! export writes it) becomes its [`crate::records::PlyInfo`] (score, depth and time; nodes and the principal
//! variation are not in the file); a last comment after the last move that is no such comment is
//! the ending (`{checkmate}`). JieqiBox: `metadata.white`, `black`, `result`, `initialFen`,
//! `openingComment` (arena's: variant, number, seed and termination), and per move `data`,
//! `engineScore` (the mover's centipawns, a mate as ±(30000 − |N|), N in moves: past ±30000 it
//! is refused), `engineTime`
//! (milliseconds; 0 is none), `engineDepth` and `engineNodes`. A result of `*` (a game JieqiBox
//! saved before its end) is the referee's if the final position ends the game, else a draw whose
//! ending says the game is unfinished.
//!
//! A result the final position contradicts (`0-1` where Red mated) is refused, as is a `Seed`
//! tag whose deal is not the `Deal` tag's. Every malformed input is an error naming the file, the
//! game or ply, and the field. A PGN game is read in bounded memory (its lines, bytes and tags).

use std::io::Read;
use std::path::Path;

use jieqi_core::{Position, Rules};
use serde_json::Value;

use crate::analysis::StudyGame;
use crate::records::formats::FormatError;
use crate::records::formats::jieqibox::MAX_JIEQIBOX_FILE;
use crate::records::formats::pgn::{each_pgn, select_pgn};

mod game;
mod jieqibox;
mod pgn;
#[cfg(test)]
mod tests;

use jieqibox::jieqibox;
use pgn::pgn_game;

/// The game of a PGN or JieqiBox notation file, played through by the referee.
///
/// `game` chooses one game of a PGN holding several: the game whose `Number` tag is `game` (a
/// game without a `Number` tag counts by its place in the file, 1 for the first). Without it the
/// file must hold one game. A JieqiBox file holds one game: `game`, if given, is 1 or its number.
///
/// # Errors
/// The file cannot be read, is malformed, or its moves do not play (the message names the file,
/// the game or ply, and the field); no game has that number.
pub fn study_from_file(path: &Path, game: Option<u64>) -> Result<StudyGame, FormatError> {
    let named = |m: FormatError| m.at(path.display());
    let first = first_char(path).map_err(|e| read_error(path, e))?;
    if first == Some('{') {
        let text = crate::records::files::read_bounded(path, MAX_JIEQIBOX_FILE)
            .map_err(|e| read_error(path, e))?;
        jieqibox(&text, &path.display().to_string(), game, None).map_err(named)
    } else {
        let file = crate::records::files::open_regular(path).map_err(|e| read_error(path, e))?;
        let (parsed, position) = select_pgn(std::io::BufReader::new(file), game).map_err(named)?;
        let title = format!(
            "{} game {}",
            path.display(),
            parsed.number.unwrap_or(position)
        );
        pgn_game(parsed, title, position, None).map_err(named)
    }
}

/// Every game of a book file, played through (see [`study_from_file`] for what each format
/// gives), handed to `each` in file order with its name for messages (`game 3 (Number 12)`).
/// Games without a variant take `rules`. A JieqiBox file holds one game or a JSON array of them.
///
/// # Errors
/// The file cannot be read or a game does not hold up (the message names the file and game), or
/// `each` fails.
pub fn each_book_game(
    path: &Path,
    jieqibox_format: bool,
    rules: &Rules,
    mut each: impl FnMut(StudyGame, &str) -> Result<(), FormatError>,
) -> Result<(), FormatError> {
    let named = |m: FormatError| m.at(path.display());
    if jieqibox_format {
        let text = crate::records::files::read_bounded(path, MAX_JIEQIBOX_FILE)
            .map_err(|e| read_error(path, e))?;
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| named(format!("not JieqiBox notation JSON: {e}").into()))?;
        let games = match value {
            Value::Array(a) => a,
            other => vec![other],
        };
        for (i, g) in games.iter().enumerate() {
            let name = format!("game {}", i + 1);
            let text = g.to_string();
            let study = jieqibox(&text, &path.display().to_string(), None, Some(rules))
                .map_err(|m| named(m.at(&name)))?;
            each(study, &name).map_err(|m| named(m.at(&name)))?;
        }
        return Ok(());
    }
    let file = crate::records::files::open_regular(path).map_err(|e| read_error(path, e))?;
    each_pgn(std::io::BufReader::new(file), |text, position| {
        let name = match text.number {
            Some(n) => format!("game {position} (Number {n})"),
            None => format!("game {position}"),
        };
        let study = pgn_game(text, name.clone(), position, Some(rules))?;
        each(study, &name).map_err(|m| m.at(&name))?;
        Ok(false)
    })
    .map_err(named)
}

/// The openings of a book file under `rules` (`--openings`): an EPD's positions, or each game's
/// public position after its first `plies` plies (all of them when `None`, or when the game is
/// shorter): the board, the side to move and the pools of what nobody has seen — an identity
/// the game revealed is out of its pool, a captured hidden piece's stays in (an opening is
/// public, whoever captured it). A game over at that point is an error, as a PGN game of another
/// variant than the run's.
///
/// # Errors
/// The file cannot be read, or a game or line is no opening (the message names it).
pub fn book_positions(
    path: &Path,
    format: crate::records::openings::BookFormat,
    plies: Option<u32>,
    rules: &Rules,
) -> Result<Vec<Position>, FormatError> {
    use crate::records::openings::{BookFormat, MAX_BOOK_POSITIONS, check_opening, read_epd};
    if format == BookFormat::Epd {
        return read_epd(path, rules);
    }
    let mut out = Vec::new();
    each_book_game(path, format == BookFormat::Jieqibox, rules, |study, _| {
        if study.start.rules() != rules {
            return Err(format!(
                "it is a game of the rules '{}', and the run plays '{}'",
                study.start.rules().name,
                rules.name
            )
            .into());
        }
        if out.len() >= MAX_BOOK_POSITIONS {
            return Err(format!("more than {MAX_BOOK_POSITIONS} games").into());
        }
        let mut game = study.start.clone();
        let take = plies.map_or(study.moves.len(), |p| (p as usize).min(study.moves.len()));
        for (i, &mv) in study.moves.iter().take(take).enumerate() {
            game.play(mv).map_err(|e| format!("ply {}: {e}", i + 1))?;
        }
        let public = crate::records::openings::public_position(&game);
        let pos = check_opening(&public.to_setup(), rules).map_err(|m| {
            let plies = if take == 1 { "ply" } else { "plies" };
            format!("after {take} {plies}: {m}")
        })?;
        out.push(pos);
        Ok(())
    })?;
    if out.is_empty() {
        return Err(format!("{}: holds no game", path.display()).into());
    }
    Ok(out)
}

/// The first character of a file that is not whitespace (a UTF-8 byte order mark skipped), from
/// its first 64 KiB; `None` for a file of whitespace only.
fn first_char(path: &Path) -> std::io::Result<Option<char>> {
    let file = crate::records::files::open_regular(path)?;
    let mut head = Vec::new();
    file.take(64 << 10).read_to_end(&mut head)?;
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&head);
    Ok(head
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .map(|&b| b as char))
}

/// A file that cannot be opened or read.
fn read_error(path: &Path, source: std::io::Error) -> FormatError {
    FormatError::Read {
        path: path.to_path_buf(),
        source,
    }
}
