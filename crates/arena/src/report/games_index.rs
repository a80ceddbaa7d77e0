//! The games index of a match folder (`games.html`): one row per game of its journal — number,
//! players, result, termination, plies, reveals and captures — each linked to its viewer page
//! (`games/game-N.html`, see [`crate::report::viewer`]) when it has one, else showing the
//! command that writes one, and to its analysis (`analysis/game-N.html`, written by `arena
//! analyze`) when there is one.
//!
//! Every match folder gets one when its reports are written: a match or gate folder, and each
//! pairing folder of a tournament or leak run (all of them through [`crate::report::summary`],
//! and so `arena merge` too). The journal is streamed, never held: a run may have 100,000 games.
//! The page lists the first [`MAX_LISTED`] games, in the journal's order (the job order of
//! `games.csv`), and says where the rest are. At report time the viewer pages of at most
//! [`MAX_PAGES`] games are written: those that ended by an engine failure or on time first,
//! then the lowest numbers.

use std::path::{Path, PathBuf};

use jieqi_core::Rules;

use crate::analysis::StudyGame;
use crate::error::Error;
use crate::records::files::{create_dir, write_atomically};
use crate::records::termination::Termination;
use crate::records::{self, GameLine, GameResult};
use crate::report::html::games::{DATA_CLOSE, DATA_OPEN, GameRow, GamesPage, games_html};
use crate::report::viewer;
use crate::run::RunSetup;
use crate::util::text::{printable, shell_word};

/// The games index's file name in its match folder.
pub const INDEX: &str = "games.html";

/// The most games one index lists; a folder with more lists the first ones and says that the
/// rest are in `games.csv`.
pub const MAX_LISTED: usize = 5_000;

/// The most viewer pages written for one match folder when its reports are written.
pub const MAX_PAGES: usize = 10;

/// Whether writing an index writes viewer pages too.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ViewerPages {
    /// Write the viewer pages of up to [`MAX_PAGES`] games (what the reports do): those that
    /// ended by an engine failure or on time first, then the lowest numbers.
    Write,
    /// Write none; link the pages already in the folder (what `arena analyze` does when it
    /// rewrites the index after an analysis).
    Existing,
}

/// What an index holds, for the lines that point to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamesIndex {
    /// The index's path.
    pub path: PathBuf,
    /// The games of the folder the run counted.
    pub games: u64,
    /// The games of its journal the run did not count (pairs a gate finished beyond its stop).
    pub uncounted: u64,
    /// The games it lists (at most [`MAX_LISTED`]).
    pub listed: u64,
    /// The listed games that link to a viewer page.
    pub pages: u64,
    /// The numbers of the games whose viewer pages were written this time, in the order chosen.
    pub written: Vec<u64>,
}

impl GamesIndex {
    /// `Games: DIR/games.html (24 games, 10 with a viewer page)`, with a newline; the games are
    /// those the run counted, and `2 more played beyond the stop, not counted` follows them when
    /// the journal holds others.
    pub fn line(&self) -> String {
        let all = self.games.saturating_add(self.uncounted);
        format!(
            "Games: {} ({}{}{}, {} with a viewer page)\n",
            self.path.display(),
            crate::util::text::counted(self.games, "game"),
            if self.uncounted > 0 {
                format!(
                    ", {} more played beyond the stop, not counted",
                    self.uncounted
                )
            } else {
                String::new()
            },
            if self.listed < all {
                format!(", the first {} listed", self.listed)
            } else {
                String::new()
            },
            self.pages
        )
    }
}

/// Where the analysis page of game `number` of a match folder is: `<folder>/analysis/game-N.html`
/// (`arena analyze` writes it).
pub fn analysis_page_path(match_folder: &Path, number: u64) -> PathBuf {
    match_folder
        .join("analysis")
        .join(format!("game-{number}.html"))
}

/// Rewrites the games index of match folder `folder` so that it links the viewer and analysis
/// pages now in the folder (after `arena view` or `arena analyze` wrote one). A folder whose
/// index cannot be written (a run still going, a folder from before games indexes) keeps what it
/// has: the page was written all the same, and a line on standard error says why the index was
/// not.
///
/// The index embeds what it shows (see [`IndexData`]): while the journal and `games.csv` are
/// the size they were when it was written, the new links are set on that, without reading the
/// journal again (a run of 10^5 pairs has gigabytes of it); otherwise the index is written anew.
pub fn relink(folder: &Path) {
    if relink_embedded(folder).is_some() {
        return;
    }
    if let Err(e) = write_games_index(folder, ViewerPages::Existing) {
        eprintln!(
            "note: the games index of {} was not rewritten: {e}",
            folder.display()
        );
    }
}

/// The most bytes of a games index read back to relink it (its embedded data included); an
/// index of [`MAX_LISTED`] rows is a few megabytes.
const MAX_INDEX_BYTES: u64 = 64 << 20;

/// What a games index embeds for [`relink`]: the page before its links, and the sizes of the
/// journal and `games.csv` it was read from (`None`: no `games.csv`).
#[derive(serde::Serialize, serde::Deserialize)]
struct IndexData {
    journal_bytes: u64,
    csv_bytes: Option<u64>,
    page: GamesPage,
}

/// The sizes of a folder's journal and `games.csv` (`None` for a file that is not there).
fn sizes(dir: &Path) -> (Option<u64>, Option<u64>) {
    let len = |name: &str| std::fs::metadata(dir.join(name)).ok().map(|m| m.len());
    (len(records::files::JOURNAL), len("games.csv"))
}

/// Relinks the index from its embedded data; `None` when it has none, or the journal or
/// `games.csv` changed since it was written (then the caller writes it anew).
fn relink_embedded(dir: &Path) -> Option<()> {
    let path = dir.join(INDEX);
    let html = crate::records::files::read_bounded(&path, MAX_INDEX_BYTES).ok()?;
    let start = html.find(DATA_OPEN)? + DATA_OPEN.len();
    let end = start + html[start..].find(DATA_CLOSE)?;
    let data: IndexData = serde_json::from_str(&html[start..end]).ok()?;
    if (Some(data.journal_bytes), data.csv_bytes) != sizes(dir) {
        return None;
    }
    // Data that no index of ours holds is read again from the journal.
    let page = &data.page;
    if page.rows.len() > MAX_LISTED
        || (page.rows.len() as u64) > page.games.saturating_add(page.uncounted)
    {
        return None;
    }
    finish(dir, data).ok().map(|_| ())
}

/// Writes the games index of the match folder `folder` from its record (`match.json`) and
/// journal, writing viewer pages or not (see [`ViewerPages`]).
///
/// # Errors
/// The folder holds no recorded match (a tournament's or leak run's own folder is refused: each
/// of its pairing folders has an index), its journal or `games.csv` cannot be read, or a file
/// cannot be written; the message names the file.
pub fn write_games_index(folder: &Path, pages: ViewerPages) -> Result<GamesIndex, Error> {
    let (path, record, _) = crate::run::folder::recorded_run(folder).map_err(Error::Input)?;
    if record.all.is_some() {
        return Err(Error::Input(format!(
            "{} records a run of several pairings: each of its match folders (under pairings/ \
             or arms/) has its own games index",
            path.display()
        )));
    }
    let [a, b] = &record.engines;
    write(
        &Folder {
            dir: folder,
            rules: &record.rules,
            max_plies: record.max_plies,
            engines: [&a.0, &b.0],
            seed: record.seed,
        },
        pages,
    )
}

/// Writes the games index of a two-engine run's folder (`setup.options.out`) with its viewer pages:
/// what the reports do.
///
/// # Errors
/// As [`write_games_index`].
pub fn write_run_index(setup: &RunSetup) -> Result<GamesIndex, Error> {
    write(
        &Folder {
            dir: &setup.options.out,
            rules: &setup.rules,
            max_plies: setup.max_plies,
            engines: [&setup.a().label, &setup.b().label],
            seed: setup.seed,
        },
        ViewerPages::Write,
    )
}

/// A match folder and what its record says.
struct Folder<'a> {
    dir: &'a Path,
    rules: &'a Rules,
    max_plies: u32,
    engines: [&'a str; 2],
    seed: u64,
}

/// Whether a game ended by an engine failure or on time.
fn failed(g: &GameLine) -> bool {
    g.reason.is_failure() || g.reason == Termination::TimeForfeit
}

/// Keeps `line` in `kept` if it is among the `MAX_PAGES` lowest numbers seen: `kept` stays sorted
/// and bounded.
fn keep_lowest(kept: &mut Vec<(u64, GameLine)>, number: u64, line: &GameLine) {
    if kept.len() == MAX_PAGES && kept.last().is_some_and(|(n, _)| *n < number) {
        return;
    }
    let at = kept.partition_point(|(n, _)| *n < number);
    kept.insert(at, (number, line.clone()));
    kept.truncate(MAX_PAGES);
}

/// The numbers of `games.csv`, sorted, or `None` without the file.
fn csv_numbers(dir: &Path) -> Result<Option<Vec<u64>>, Error> {
    let path = dir.join("games.csv");
    let file = match crate::records::files::open_regular(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::Input(format!("{}: {e}", path.display()))),
        Ok(f) => f,
    };
    let bad = |line: u64, what: String| Error::Input(format!("{}:{line}: {what}", path.display()));
    let mut numbers = Vec::new();
    let mut reader = csv::Reader::from_reader(std::io::BufReader::new(file));
    for (i, row) in reader.records().enumerate() {
        let row = row.map_err(|e| bad(i as u64 + 2, e.to_string()))?;
        let number = row
            .get(0)
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or_else(|| bad(i as u64 + 2, "no game number in the first column".into()))?;
        numbers.push(number);
    }
    numbers.sort_unstable();
    Ok(Some(numbers))
}

/// A path under `dir` as a link from a page in `dir`: its relative part, `/`-separated.
fn href(dir: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(dir).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// The pairs of a journal read game by game that repeat an earlier pair's games
/// ([`crate::run::scoreboard::pair_hash`], within one pairing): game 1 waits for its game 2
/// (neighbours in the journal), then the pair is looked up.
#[derive(Default)]
struct Repeats {
    waiting: std::collections::HashMap<(String, String, u64), GameLine>,
    seen: std::collections::HashSet<(u64, u64)>,
    pairs: u64,
    repeated: u64,
}

impl Repeats {
    fn add(&mut self, g: &GameLine) {
        // Game 1 is (a Red, b Black); game 2 the other way round.
        let key = if g.game == 1 {
            (g.red.clone(), g.black.clone(), g.pair)
        } else {
            (g.black.clone(), g.red.clone(), g.pair)
        };
        let Some(other) = self.waiting.remove(&key) else {
            self.waiting.insert(key, g.clone());
            return;
        };
        let pair = if g.game == 1 {
            [g.clone(), other]
        } else {
            [other, g.clone()]
        };
        self.pairs += 1;
        let labels = records::fnv(&format!("{}\u{0}{}", key.0, key.1));
        if !self
            .seen
            .insert((labels, crate::run::scoreboard::pair_hash(&pair)))
        {
            self.repeated += 1;
        }
    }

    /// The page's warning when more than [`crate::run::scoreboard::REPEAT_SHARE`] repeat.
    fn note(&self) -> Option<String> {
        (self.repeated as f64 > crate::run::scoreboard::REPEAT_SHARE * self.pairs as f64).then(
            || {
                format!(
                    "REPEATED: {} of {} pairs repeat earlier pairs move for move: the games are \
                     not independent (play from an opening book, --openings).",
                    self.repeated, self.pairs
                )
            },
        )
    }
}

/// Streams the journal into the rows, writes the chosen viewer pages, then the index.
fn write(folder: &Folder<'_>, pages: ViewerPages) -> Result<GamesIndex, Error> {
    let dir = folder.dir;
    let counted = csv_numbers(dir)?;
    let [a, b] = folder.engines;
    let mut page = GamesPage {
        title: format!("Games: {} vs {}", printable(a), printable(b)),
        context: format!(
            "Master seed {}; each pair plays one deal twice, colours swapped.",
            folder.seed
        ),
        ..GamesPage::default()
    };
    // Taken before the journal is read: a journal that grows meanwhile no longer matches it,
    // and the next relink reads it again.
    let (journal_bytes, csv_bytes) = sizes(dir);
    let (mut failures, mut lowest) = (Vec::new(), Vec::new());
    let mut repeats = Repeats::default();
    let journal = dir.join(records::files::JOURNAL);
    records::for_each_line(&journal, |_, g| {
        repeats.add(&g);
        let number = records::game_number(g.pair, g.game);
        let is_counted = counted
            .as_ref()
            .is_none_or(|v| v.binary_search(&number).is_ok());
        let failure = failed(&g);
        // The facts count what the run counted; the others are listed, marked.
        if is_counted {
            page.games += 1;
            page.results[match g.result {
                GameResult::RedWins => 0,
                GameResult::BlackWins => 1,
                GameResult::Draw => 2,
            }] += 1;
            page.failures += u64::from(failure);
        } else {
            page.uncounted += 1;
        }
        if pages == ViewerPages::Write && is_counted {
            let kept = if failure { &mut failures } else { &mut lowest };
            keep_lowest(kept, number, &g);
        }
        if page.rows.len() < MAX_LISTED {
            page.rows.push(GameRow {
                number,
                pair: g.pair,
                game: g.game,
                red: printable(&g.red),
                black: printable(&g.black),
                result: g.result.text().to_string(),
                termination: g.reason.name().to_string(),
                detail: g.detail.as_deref().map(printable),
                failure,
                plies: g.plies,
                reveals: g.reveals,
                captures: g.captures,
                counted: is_counted,
                view: None,
                command: format!(
                    "arena view {} --game {number}",
                    shell_word(&dir.display().to_string())
                ),
                analysis: None,
            });
        }
        Ok(())
    })
    .map_err(|e| Error::Input(e.to_string()))?;
    page.notes.extend(repeats.note());
    let uncounted = page.uncounted;
    if uncounted > 0 {
        page.notes.push(format!(
            "{uncounted} game{} of games.jsonl {} not in games.csv (pairs a gate finished beyond \
             its stop, or of another run): marked \u{201c}not counted\u{201d}; the run's numbers \
             leave them out.",
            if uncounted == 1 { "" } else { "s" },
            if uncounted == 1 { "is" } else { "are" }
        ));
    }

    // The viewer pages: failures and time losses first, then the lowest numbers.
    let mut written = Vec::new();
    for (number, line) in failures.into_iter().chain(lowest).take(MAX_PAGES) {
        let title = format!(
            "{} game {number} (pair {}, game {})",
            dir.display(),
            line.pair,
            line.game
        );
        match StudyGame::from_record(folder.rules, &line, folder.max_plies, title, Some(number)) {
            Ok(study) => {
                let path = viewer::game_page_path(dir, number);
                if let Some(parent) = path.parent() {
                    create_dir(parent)?;
                }
                write_atomically(&path, viewer::page(&study, None).as_bytes())?;
                written.push(number);
            }
            Err(problem) => page.notes.push(format!(
                "Game {number}: no viewer page, its record does not play through: {}",
                printable(&problem)
            )),
        }
    }
    let data = IndexData {
        journal_bytes: journal_bytes.unwrap_or(0),
        csv_bytes,
        page,
    };
    let mut index = finish(dir, data)?;
    index.written = written;
    Ok(index)
}

/// Links the rows of `data`'s page to the viewer and analysis pages in `dir` now, embeds the
/// data, and writes the index (`written` left empty).
fn finish(dir: &Path, mut data: IndexData) -> Result<GamesIndex, Error> {
    // Links come from the pages in the folder, never from the data.
    for row in &mut data.page.rows {
        (row.view, row.analysis) = (None, None);
    }
    let embedded = serde_json::to_string(&data)
        .map_err(|e| Error::Input(format!("the games index's data: {e}")))?;
    let mut page = data.page;
    page.data = Some(embedded);
    let mut with_page = 0u64;
    for row in &mut page.rows {
        let view = viewer::game_page_path(dir, row.number);
        if view.is_file() {
            row.view = Some(href(dir, &view));
            with_page += 1;
        }
        let analysis = analysis_page_path(dir, row.number);
        if analysis.is_file() {
            row.analysis = Some(href(dir, &analysis));
        }
    }
    let path = dir.join(INDEX);
    write_atomically(&path, games_html(&page).as_bytes())?;
    Ok(GamesIndex {
        path,
        games: page.games,
        uncounted: page.uncounted,
        listed: page.rows.len() as u64,
        pages: with_page,
        written: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(pair: u64, game: u8, reason: Termination) -> GameLine {
        GameLine {
            reason,
            ..crate::records::games::tests::game(pair, game)
        }
    }

    #[test]
    fn the_lowest_numbers_are_kept_in_bounded_memory() {
        let mut kept = Vec::new();
        // Out of order on purpose: a journal's foreign lines come last.
        for number in (1..=40).rev().chain([3, 100]) {
            let pair = (number - 1) / 2;
            keep_lowest(&mut kept, number, &line(pair, 1, Termination::MaxPlies));
        }
        let numbers: Vec<u64> = kept.iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, [1, 2, 3, 3, 4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn time_losses_and_engine_failures_come_first() {
        assert!(failed(&line(0, 1, Termination::TimeForfeit)));
        assert!(failed(&line(0, 1, Termination::Timeout)));
        assert!(failed(&line(0, 1, Termination::EngineCrash)));
        assert!(!failed(&line(0, 1, Termination::MaxPlies)));
    }

    /// A gate that stopped after 1 pair with pair 2 finished beyond it: the line counts the 2
    /// games the run counted, and names the 2 it did not.
    #[test]
    fn the_line_counts_what_the_run_counted() {
        let index = GamesIndex {
            path: PathBuf::from("sp1/games.html"),
            games: 2,
            uncounted: 2,
            listed: 4,
            pages: 1,
            written: Vec::new(),
        };
        assert_eq!(
            index.line(),
            "Games: sp1/games.html (2 games, 2 more played beyond the stop, not counted, 1 with \
             a viewer page)\n"
        );
        let one = GamesIndex {
            games: 1,
            uncounted: 0,
            listed: 1,
            ..index
        };
        assert_eq!(
            one.line(),
            "Games: sp1/games.html (1 game, 1 with a viewer page)\n"
        );
    }

    #[test]
    fn links_are_relative_to_the_folder() {
        let dir = Path::new("results/m");
        assert_eq!(
            href(dir, &viewer::game_page_path(dir, 7)),
            "games/game-7.html"
        );
        assert_eq!(
            href(dir, &analysis_page_path(dir, 7)),
            "analysis/game-7.html"
        );
    }
}
