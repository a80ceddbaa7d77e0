//! `arena export`: the games of a results folder in formats other programs load — PGN (one file,
//! every game; [`crate::records::formats::pgn`]) and JieqiBox's notation JSON (one file per game;
//! [`crate::records::formats::jieqibox`]). A game the run did not count (`--beyond-stop`: a pair
//! that finished after a gate stopped, see [`crate::run::folder::stop_job`]) is written marked;
//! without the flag such games are left out and the summary says how many.

use std::io::Write;
use std::path::Path;

use crate::cli::export::Format;
use crate::error::Error;
use crate::plan::export::ExportPlan;
use crate::records::GameLine;
use crate::records::check::{Checked, check_record};
use crate::records::formats::{FormatError, RecordedGame, jieqibox, pgn};

fn input(m: impl Into<String>) -> Error {
    Error::Input(m.into())
}

/// Runs `arena export`.
///
/// # Errors
/// A record does not play through from its deal (it was altered), or writing fails; the message
/// names the file.
pub fn run(plan: &ExportPlan, w: &mut dyn Write) -> Result<(), Error> {
    match plan.format {
        Format::Pgn => {
            let mut text = String::new();
            for (number, line) in &plan.games {
                let checked = checked(plan, *number, line)?;
                text.push_str(&pgn::write_game(&recorded(plan, *number, line, &checked)));
                text.push('\n');
            }
            emit(plan.out.as_deref(), text.as_bytes(), w)?;
            summary(plan, plan.out.as_deref(), w)
        }
        Format::Jieqibox => {
            let json = |(number, line): &(u64, GameLine)| -> Result<String, Error> {
                let checked = checked(plan, *number, line)?;
                let game = jieqibox::write_game(&recorded(plan, *number, line, &checked))?;
                let mut text =
                    serde_json::to_string_pretty(&game).map_err(|e| input(e.to_string()))?;
                text.push('\n');
                Ok(text)
            };
            if plan.games.len() == 1 {
                emit(plan.out.as_deref(), json(&plan.games[0])?.as_bytes(), w)?;
                return summary(plan, plan.out.as_deref(), w);
            }
            // The plan refuses several JieqiBox games without a folder.
            let Some(folder) = &plan.out else {
                return Err(input(format!(
                    "--format jieqibox writes one file per game: give --out FOLDER for the {} \
                     games, or --game N for one",
                    plan.games.len()
                )));
            };
            crate::records::files::create_dir(folder).map_err(|e| Error::Write(e.to_string()))?;
            let width = plan.games.last().map_or(1, |(n, _)| n.to_string().len());
            for game in &plan.games {
                let path = folder.join(format!("game-{:0width$}.json", game.0));
                crate::records::files::write_output(&path, json(game)?.as_bytes())
                    .map_err(|e| Error::Write(e.to_string()))?;
            }
            summary(plan, Some(folder), w)
        }
    }
}

/// Game `number` played through from its deal ([`check_record`]): a record that does not hold
/// up (it was altered) is not exported.
fn checked(plan: &ExportPlan, number: u64, line: &GameLine) -> Result<Checked, FormatError> {
    let checked = check_record(&plan.setup.rules, line, plan.setup.max_plies, None);
    match checked.problem {
        Some(problem) => Err(FormatError::NotPlayable {
            number,
            pair: line.pair,
            game: line.game,
            problem,
        }),
        None => Ok(checked),
    }
}

/// Game `number` as the writers take it.
fn recorded<'a>(
    plan: &'a ExportPlan,
    number: u64,
    line: &'a GameLine,
    checked: &'a Checked,
) -> RecordedGame<'a> {
    RecordedGame {
        number,
        line,
        counted: !plan.uncounted.contains(&number),
        rules: &plan.setup.rules,
        start_fen: &checked.start_fen,
        plies: &checked.plies,
        event: format!("arena {}", plan.setup.command_name()),
        time_control: plan.setup.tc.map(|tc| tc.to_string()),
        date: &plan.date,
    }
}

/// How a game the run did not count is marked in `plan`'s format.
fn uncounted_mark(plan: &ExportPlan) -> String {
    match plan.format {
        Format::Pgn => format!(
            "[{} \"{}\"]",
            pgn::NOT_COUNTED_TAG.0,
            pgn::NOT_COUNTED_TAG.1
        ),
        Format::Jieqibox => "\"counted\": false".to_string(),
    }
}

/// Export's summary line: `N games written to PATH`, and what it says of uncounted games
/// ([`crate::report::export`]). It goes to
/// `w` when the games went to a file or folder, and to standard error (only when there is
/// something to say of uncounted games) when they went to standard output or a device, so that
/// those hold nothing but the games.
fn summary(plan: &ExportPlan, out: Option<&Path>, w: &mut dyn Write) -> Result<(), Error> {
    let uncounted = crate::report::export::uncounted_text(
        plan.left_out,
        plan.uncounted.len() as u64,
        &plan.stop,
        &uncounted_mark(plan),
    );
    let on_disk = out.filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file() || m.is_dir()));
    match on_disk {
        Some(path) => {
            let line = crate::report::export::written_line(plan.games.len(), path, &uncounted);
            writeln!(w, "{line}").map_err(|e| Error::Write(format!("writing standard output: {e}")))
        }
        None => {
            if !uncounted.is_empty() {
                eprintln!("note: {uncounted}");
            }
            Ok(())
        }
    }
}

/// Writes to `out` (see [`crate::records::files::write_output`]), or to `w`.
fn emit(out: Option<&Path>, bytes: &[u8], w: &mut dyn Write) -> Result<(), Error> {
    match out {
        Some(path) => crate::records::files::write_output(path, bytes)
            .map_err(|e| Error::Write(e.to_string())),
        None => w
            .write_all(bytes)
            .and_then(|()| w.flush())
            .map_err(|e| Error::Write(format!("writing standard output: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn days_become_dates() {
        use crate::util::time::civil_from_days;
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
    }
}
