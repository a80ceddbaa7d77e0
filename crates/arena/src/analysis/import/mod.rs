//! Games from files: a [`StudyGame`] from a PGN that `arena export` wrote (or another program
//! in the same coordinates) or from a JieqiBox notation JSON, whichever the file holds
//! ([`study_from_file`]: a file whose first character is `{` is JieqiBox's, any other PGN).
//!
//! **The truth.** A file gives the moves with the identities they revealed (`h2h9Rn`), not the
//! whole deal. It is known when the file says it and the moves agree: a PGN's `Deal` tag (which
//! must agree, or the file is refused), or a deal seed (a PGN's `Seed` tag, the seed in a
//! JieqiBox file's `openingComment` as `arena export` writes it) whose deal gives every reveal
//! and captured identity the moves name. Otherwise the start is a *completion*: each identity the
//! game revealed, and each captured hidden piece's that the file names, at its start square (a
//! hidden piece never moves before it is revealed), the others from what is left of the pool in
//! the order of [`Role::ALL`], with [`StudyGame::truth_known`] false (true only when the game
//! showed every hidden piece).
//!
//! **What each format gives.** PGN: the tags `White`, `Black`, `Result`, `Variant` (`jieqi`,
//! `xiangqi`, or a rule preset's name; without it, Jieqi unless the `FEN` has no hidden piece),
//! `FEN`, `Number`, `Seed`, `Deal`; each move's comment `{score/depth time}` (cutechess's, as
//! export writes it) becomes its [`PlyInfo`] (score, depth and time; nodes and the principal
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

use std::io::{BufRead, Read};
use std::path::Path;

use jieqi_core::{
    ByColor, Color, Deal, Determinization, Game, PlayedMove, Position, Role, Rules, Square,
};
use jieqi_engine::Score;
use serde_json::Value;

use crate::analysis::StudyGame;
use crate::records::deal_seed::deal_for_seed;
use crate::records::{GameResult, PlyInfo};

mod jieqibox;
mod pgn;

use jieqibox::*;
use pgn::*;

/// The largest JieqiBox file read: 16 MiB (a game of thousands of plies takes a few hundred KiB).
pub const MAX_JIEQIBOX_FILE: u64 = 16 << 20;

/// The longest line of a PGN file read.
const MAX_PGN_LINE: usize = 1 << 20;

/// The most text one PGN game may hold (its tag lines and movetext, line breaks counted).
const MAX_PGN_GAME: usize = 16 << 20;

/// The most tags one PGN game may have (`arena export` writes a dozen).
const MAX_PGN_TAGS: usize = 1000;

/// The absolute JieqiBox `engineScore` from which a score is a mate: JieqiBox's own threshold
/// (`MATE_SCORE_BASE − 999` in its `EvaluationChart.vue`).
const JIEQIBOX_MATE_FROM: f64 = 29_001.0;

/// The base JieqiBox encodes mates from (`MATE_SCORE_BASE`).
const JIEQIBOX_MATE_BASE: i64 = 30_000;

/// The game of a PGN or JieqiBox notation file, played through by the referee.
///
/// `game` chooses one game of a PGN holding several: the game whose `Number` tag is `game` (a
/// game without a `Number` tag counts by its place in the file, 1 for the first). Without it the
/// file must hold one game. A JieqiBox file holds one game: `game`, if given, is 1 or its number.
///
/// # Errors
/// The file cannot be read, is malformed, or its moves do not play (the message names the file,
/// the game or ply, and the field); no game has that number.
pub fn study_from_file(path: &Path, game: Option<u64>) -> Result<StudyGame, String> {
    let named = |m: String| format!("{}: {m}", path.display());
    let first = first_char(path).map_err(named)?;
    if first == Some('{') {
        let text = crate::records::files::read_bounded(path, MAX_JIEQIBOX_FILE)
            .map_err(|e| named(e.to_string()))?;
        jieqibox(&text, &path.display().to_string(), game, None).map_err(named)
    } else {
        let file = crate::records::files::open_regular(path).map_err(|e| named(e.to_string()))?;
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
    mut each: impl FnMut(StudyGame, &str) -> Result<(), String>,
) -> Result<(), String> {
    let named = |m: String| format!("{}: {m}", path.display());
    if jieqibox_format {
        let text = crate::records::files::read_bounded(path, MAX_JIEQIBOX_FILE)
            .map_err(|e| named(e.to_string()))?;
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| named(format!("not JieqiBox notation JSON: {e}")))?;
        let games = match value {
            Value::Array(a) => a,
            other => vec![other],
        };
        for (i, g) in games.iter().enumerate() {
            let name = format!("game {}", i + 1);
            let text = g.to_string();
            let study = jieqibox(&text, &path.display().to_string(), None, Some(rules))
                .map_err(|m| named(format!("{name}: {m}")))?;
            each(study, &name).map_err(|m| named(format!("{name}: {m}")))?;
        }
        return Ok(());
    }
    let file = crate::records::files::open_regular(path).map_err(|e| named(e.to_string()))?;
    each_pgn(std::io::BufReader::new(file), |text, position| {
        let name = match text.number {
            Some(n) => format!("game {position} (Number {n})"),
            None => format!("game {position}"),
        };
        let study = pgn_game(text, name.clone(), position, Some(rules))?;
        each(study, &name).map_err(|m| format!("{name}: {m}"))?;
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
) -> Result<Vec<Position>, String> {
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
            ));
        }
        if out.len() >= MAX_BOOK_POSITIONS {
            return Err(format!("more than {MAX_BOOK_POSITIONS} games"));
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
        return Err(format!("{}: holds no game", path.display()));
    }
    Ok(out)
}

/// The first character of a file that is not whitespace (a UTF-8 byte order mark skipped), from
/// its first 64 KiB; `None` for a file of whitespace only.
fn first_char(path: &Path) -> Result<Option<char>, String> {
    let file = crate::records::files::open_regular(path).map_err(|e| e.to_string())?;
    let mut head = Vec::new();
    file.take(64 << 10)
        .read_to_end(&mut head)
        .map_err(|e| e.to_string())?;
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&head);
    Ok(head
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .map(|&b| b as char))
}

// The game, whatever the format.

/// What a file says of one game, before it is played through.
struct Parsed {
    title: String,
    rules: Rules,
    start: Position,
    /// The move texts (`h2h9Rn`).
    moves: Vec<String>,
    recorded: Vec<Option<PlyInfo>>,
    red: String,
    black: String,
    /// `None`: the file gives no result (`*`).
    result: Option<GameResult>,
    /// The field the result came from, for messages (`tag Result`, `metadata.result`).
    result_field: &'static str,
    ending: Option<String>,
    number: Option<u64>,
    seed: Option<u64>,
    /// A deal the file states (a PGN's `Deal` tag), and the field it came from.
    deal: Option<(Deal, &'static str)>,
}

/// How the moves disagree with a deal, or why they cannot be played on it.
enum Replay {
    /// Ply `.0` (0-based) names an identity the deal does not have there.
    Differs(usize, String),
    /// The game was over before ply `.0`.
    Over(usize, String),
}

/// Plays `played` on `game`, checking every reveal, and every captured identity the text names,
/// against the referee's record.
fn replay(game: &mut Game, played: &[PlayedMove]) -> Result<(), Replay> {
    for (i, pm) in played.iter().enumerate() {
        let mover = game.turn();
        let record = match game.play(pm.mv) {
            Ok(r) => *r,
            Err(e) => return Err(Replay::Over(i, e.to_string())),
        };
        if record.played.reveal != pm.reveal {
            return Err(Replay::Differs(
                i,
                format!(
                    "it reveals {} on {}, where the deal has {}",
                    pm.reveal.map_or("nothing", Role::name),
                    pm.mv.from,
                    record.played.reveal.map_or("nothing hidden", Role::name)
                ),
            ));
        }
        if let Some(r) = pm.capture
            && !(record.captured_hidden && record.captured.is_some_and(|p| p.role == r))
        {
            return Err(Replay::Differs(
                i,
                format!(
                    "it captures a hidden {} on {}, where the deal has {}",
                    r.name(),
                    pm.mv.to,
                    record
                        .captured
                        .filter(|_| record.captured_hidden)
                        .map_or("no hidden piece", |p| p.role.name())
                ),
            ));
        }
        debug_assert_eq!(record.mover, mover);
    }
    Ok(())
}

/// The game before any move: the deal's, or the completion's (see the module's text).
fn start_game(
    rules: &Rules,
    start: &Position,
    standard: bool,
    assignment: &ByColor<Vec<(Square, Role)>>,
) -> Result<Game, String> {
    if standard {
        if !rules.has_hidden() {
            return Ok(Game::new(*rules, Deal::unshuffled(rules)));
        }
        let side = |c: Color| -> String {
            assignment[c]
                .iter()
                .map(|(_, r)| {
                    if c == Color::Red {
                        r.upper_char()
                    } else {
                        r.char()
                    }
                })
                .collect()
        };
        let deal = Deal::from_strings(&side(Color::Red), &side(Color::Black))
            .map_err(|e| format!("the identities the moves name do not make a deal: {e}"))?;
        return Ok(Game::new(*rules, deal));
    }
    let all = assignment.red.iter().chain(&assignment.black).copied();
    Determinization::new(start.clone(), all)
        .map(Game::from_determinization)
        .map_err(|e| format!("the start position's hidden pieces cannot be given identities: {e}"))
}

/// Plays a parsed game through: its moves on the public board first (legality, and the
/// identities they name against the pools), then on the true deal, the seed's deal or a
/// completion. `at(i)` names ply `i` (0-based) and its field in messages.
fn build(p: Parsed, at: &dyn Fn(usize) -> String) -> Result<StudyGame, String> {
    let standard = p.start.fen() == Position::start(&p.rules).fen();
    // The public board: every move legal, every named identity possible.
    let mut public = p.start.clone();
    let mut played = Vec::with_capacity(p.moves.len());
    let mut known: Vec<(Square, Role)> = Vec::new();
    for (i, text) in p.moves.iter().enumerate() {
        let pm =
            PlayedMove::from_text(text, public.turn()).map_err(|e| format!("{}: {e}", at(i)))?;
        let hidden_from = public.is_hidden(pm.mv.from);
        let hidden_to = pm.mv.from != pm.mv.to && public.is_hidden(pm.mv.to);
        public
            .play(pm)
            .map_err(|e| format!("{}: '{text}' cannot be played here: {e}", at(i)))?;
        if let (true, Some(r)) = (hidden_from, pm.reveal) {
            known.push((pm.mv.from, r));
        }
        if let (true, Some(r)) = (hidden_to, pm.capture) {
            known.push((pm.mv.to, r));
        }
        played.push(pm);
    }
    let over =
        |i: usize, why: String| format!("{}: the game was over before this move ({why})", at(i));

    // The truth the file states, or the seed's deal when the moves agree with it.
    let mut seed = p.seed;
    let mut truth = None;
    if let Some((deal, field)) = &p.deal {
        if !standard {
            return Err(format!(
                "{field}: a deal is of the rules' start position, and the game starts elsewhere"
            ));
        }
        if deal.hidden_king() != p.rules.hidden_king {
            return Err(format!("{field}: the deal does not fit the rules"));
        }
        // A seed beside the deal must be the deal's, or the wrong seed would be recorded.
        if let Some(s) = seed
            && deal_for_seed(s, &p.rules) != *deal
        {
            return Err(format!(
                "tag Seed: seed {s} deals another deal than the {field} gives (leave one out, or \
                 make them agree)"
            ));
        }
        let mut game = Game::new(p.rules, deal.clone());
        let start = game.clone();
        match replay(&mut game, &played) {
            Ok(()) => truth = Some((start, game)),
            Err(Replay::Over(i, why)) => return Err(over(i, why)),
            Err(Replay::Differs(i, why)) => {
                return Err(format!("{}: {why} ({field})", at(i)));
            }
        }
    } else if let Some(s) = seed.filter(|_| p.rules.has_hidden()) {
        // A game from an opening deals its hidden pieces from its seed too.
        let mut game = if standard {
            Game::new(p.rules, deal_for_seed(s, &p.rules))
        } else {
            crate::records::openings::start_game(s, &p.rules, Some(&p.start))
        };
        let start = game.clone();
        match replay(&mut game, &played) {
            Ok(()) => truth = Some((start, game)),
            Err(_) => seed = None,
        }
    }
    let (start, end, truth_known) = match truth {
        Some((start, end)) => (start, end, true),
        None => {
            // The completion: what the game showed at its start squares, the rest from the pool.
            let mut left = *p.start.pools();
            let mut assignment = ByColor::<Vec<(Square, Role)>>::default();
            let mut unknown = 0usize;
            for color in Color::ALL {
                let squares: Vec<Square> = if !p.rules.has_hidden() {
                    Vec::new()
                } else if standard {
                    Deal::squares(color, p.rules.hidden_king).collect()
                } else {
                    p.start.hidden_squares(color).collect()
                };
                for &(sq, role) in known.iter().filter(|(sq, _)| squares.contains(sq)) {
                    let n = &mut left[color].0[role.index()];
                    *n = n.saturating_sub(1);
                    assignment[color].push((sq, role));
                }
                for sq in squares {
                    if known.iter().any(|(k, _)| *k == sq) {
                        continue;
                    }
                    let role = Role::ALL
                        .into_iter()
                        .find(|r| left[color].get(*r) > 0)
                        .ok_or_else(|| {
                            format!(
                                "the start position has more hidden {} pieces than its pool has \
                                 identities",
                                color.name()
                            )
                        })?;
                    left[color].0[role.index()] -= 1;
                    assignment[color].push((sq, role));
                    unknown += 1;
                }
                if standard {
                    // The deal's order: the order of its squares.
                    let order: Vec<Square> = Deal::squares(color, p.rules.hidden_king).collect();
                    assignment[color].sort_by_key(|(sq, _)| order.iter().position(|s| s == sq));
                }
            }
            let start = start_game(&p.rules, &p.start, standard, &assignment)?;
            let mut end = start.clone();
            match replay(&mut end, &played) {
                Ok(()) => {}
                Err(Replay::Over(i, why)) => return Err(over(i, why)),
                // The completion has every identity the moves name where they name it.
                Err(Replay::Differs(i, why)) => {
                    return Err(format!(
                        "{}: {why} (a bug: the completion disagrees)",
                        at(i)
                    ));
                }
            }
            (start, end, unknown == 0)
        }
    };
    let outcome = end.outcome();
    if let (Some(o), Some(given)) = (outcome, p.result) {
        let by_rules = GameResult::of(o.winner);
        if given != by_rules {
            return Err(format!(
                "{}: {}, but the final position is {} by the rules: {}",
                p.result_field,
                given.text(),
                o.reason.name(),
                by_rules.text()
            ));
        }
    }
    let result = match p.result {
        Some(r) => r,
        None => outcome.map_or(GameResult::Draw, |o| GameResult::of(o.winner)),
    };
    let ending = match (p.ending, outcome, p.result) {
        (Some(e), _, _) => e,
        (None, Some(o), _) => o.reason.name().to_string(),
        (None, None, None) => "unfinished (the file gives the result *)".to_string(),
        (None, None, Some(_)) => "not given".to_string(),
    };
    let mut recorded = p.recorded;
    recorded.truncate(played.len());
    Ok(StudyGame {
        title: p.title,
        start,
        truth_known,
        moves: played.iter().map(|pm| pm.mv).collect(),
        red: p.red,
        black: p.black,
        result,
        ending,
        recorded,
        seed,
        number: p.number,
    })
}

/// The rules a variant name means: a `UCI_Variant` name (`jieqi`, `xiangqi`, `simple`) or a rule
/// preset's name (`standard`).
fn rules_of_variant(name: &str) -> Option<Rules> {
    jieqi_registry::rules_of_uci_variant(name).or_else(|| Rules::preset(name))
}

/// The start position of a FEN under the rules a variant names (or, without a variant, the
/// `default` rules if given, else Jieqi's rules when the FEN has hidden pieces and Xiangqi's
/// when it has none); the rules' start without a FEN.
fn start_of(
    variant: Option<&str>,
    fen: Option<&str>,
    variant_field: &str,
    fen_field: &str,
    default: Option<&Rules>,
) -> Result<(Rules, Position), String> {
    let rules = match variant {
        None if default.is_some() => *default.expect("checked"),
        Some(v) => rules_of_variant(v).ok_or_else(|| {
            format!(
                "{variant_field}: '{v}' is no variant the arena plays (jieqi, xiangqi, simple, or \
                 the preset standard)"
            )
        })?,
        None => {
            let board = fen.and_then(|f| f.split_whitespace().next()).unwrap_or("x");
            if board.contains(['x', 'X']) {
                Rules::standard()
            } else {
                Rules::xiangqi()
            }
        }
    };
    let start = match fen {
        Some(f) => Position::from_fen(f, &rules).map_err(|e| format!("{fen_field}: {e}"))?,
        None => Position::start(&rules),
    };
    Ok((rules, start))
}

/// A result as PGN and JieqiBox write it; `None` for `*`.
fn result_of(text: &str, field: &str) -> Result<Option<GameResult>, String> {
    match text {
        "1-0" => Ok(Some(GameResult::RedWins)),
        "0-1" => Ok(Some(GameResult::BlackWins)),
        "1/2-1/2" => Ok(Some(GameResult::Draw)),
        "*" => Ok(None),
        other => Err(format!(
            "{field}: '{other}' is no result (1-0, 0-1, 1/2-1/2 or *)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-import-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write(name: &str, text: &str) -> std::path::PathBuf {
        let path = tmp(name).join("game");
        std::fs::write(&path, text).unwrap();
        path
    }

    /// A short legal Jieqi game: Red's hidden h2 piece, a cannon, takes the hidden black piece on
    /// h9 (a horse), Black's hidden a6 piece steps forward revealed as a chariot, and Red's hidden
    /// b2 piece, a cannon too, takes b9's hidden piece (an elephant).
    const MOVES: [&str; 3] = ["h2h9Cn", "a6a5r", "b2b9Cb"];

    fn jieqibox_text(comment: Option<&str>, result: &str) -> String {
        let moves: Vec<Value> = MOVES
            .iter()
            .enumerate()
            .map(|(i, m)| {
                serde_json::json!({"type": "move", "data": m, "engineScore": 30 - 20 * i as i64,
                                   "engineTime": 12})
            })
            .collect();
        let mut meta = serde_json::json!({"white": "红方", "black": "黑方", "result": result,
            "flipMode": "random"});
        if let Some(c) = comment {
            meta["openingComment"] = Value::from(c);
        }
        serde_json::json!({"metadata": meta, "moves": moves}).to_string()
    }

    #[test]
    fn a_jieqibox_file_without_a_seed_is_completed() {
        let path = write("no-seed", &jieqibox_text(None, "*"));
        let g = study_from_file(&path, None).unwrap();
        assert!(!g.truth_known);
        assert_eq!(g.seed, None);
        assert_eq!(g.moves.len(), 3);
        assert_eq!((g.red.as_str(), g.black.as_str()), ("红方", "黑方"));
        // What the game showed sits at its start squares.
        let truth = g.start.truth();
        assert_eq!(truth.identity(Square::H2), Some(Role::Cannon));
        assert_eq!(truth.identity(Square::H9), Some(Role::Horse));
        assert_eq!(truth.identity(Square::A6), Some(Role::Chariot));
        assert_eq!(truth.identity(Square::B9), Some(Role::Elephant));
        assert_eq!(truth.identity(Square::B2), Some(Role::Cannon));
        // The rest comes from the pool in role order: Red's a0 is a chariot, then another.
        assert_eq!(truth.identity(Square::A0), Some(Role::Chariot));
        assert_eq!(truth.identity(Square::B0), Some(Role::Chariot));
        // Every named identity is in the referee's records.
        let records = g.records();
        assert_eq!(records[0].played.reveal, Some(Role::Cannon));
        assert_eq!(records[2].captured.map(|p| p.role), Some(Role::Elephant));
        // Unfinished: a draw that says so.
        assert_eq!(g.result, GameResult::Draw);
        assert!(g.ending.starts_with("unfinished"), "{}", g.ending);
        let info = g.recorded[1].as_ref().unwrap();
        assert_eq!(info.score.as_deref(), Some("+0.10"));
        assert_eq!(info.ms, Some(12.0));
    }

    #[test]
    fn a_seed_whose_deal_disagrees_gives_a_completion() {
        let text = jieqibox_text(Some("jieqi game 3 (pair 1, seed 12345): checkmate"), "1-0");
        let g = study_from_file(&write("bad-seed", &text), None).unwrap();
        // The moves name identities seed 12345's deal may not have there: no truth, no seed.
        if !g.truth_known {
            assert_eq!(g.seed, None);
        }
        assert_eq!(g.number, Some(3));
        assert_eq!(g.ending, "checkmate");
        assert_eq!(g.result, GameResult::RedWins);
        let err = study_from_file(&write("game-no", &text), Some(4)).unwrap_err();
        assert!(err.contains("holds one game (number 3)"), "{err}");
    }

    #[test]
    fn jieqibox_scores_and_mates() {
        let score = |s: f64| jieqibox_score(s).expect("in range");
        assert_eq!(score(44.0), "+0.44");
        assert_eq!(score(0.5), "+0.01");
        assert_eq!(score(29_998.0), "#2");
        assert_eq!(score(-29_997.0), "#-3");
        assert_eq!(score(29_000.0), "+290.00");
        // ±30000 is a mate in 1 as JieqiBox shows it, its sign kept; past it, no score.
        assert_eq!(score(30_000.0), "#1");
        assert_eq!(score(-30_000.0), "#-1");
        for out in [30_001.0, 40_000.0, 1e308, -30_001.0, -1e308] {
            assert_eq!(jieqibox_score(out), None, "{out}");
        }
    }

    #[test]
    fn pgn_comments_become_ply_info() {
        let e = eval_comment("+0.35/12 0.007s").unwrap();
        assert_eq!(
            (e.score.as_deref(), e.depth, e.ms),
            (Some("+0.35"), Some(12), Some(7.0))
        );
        assert_eq!(
            eval_comment("+M5/12 0.12s").unwrap().score.as_deref(),
            Some("#3")
        );
        assert_eq!(
            eval_comment("-M4/9 1.2s").unwrap().score.as_deref(),
            Some("#-2")
        );
        assert_eq!(
            eval_comment("0.00/1 0s").unwrap().score.as_deref(),
            Some("+0.00")
        );
        let t = eval_comment("0.007s").unwrap();
        assert_eq!((t.score, t.ms), (None, Some(7.0)));
        for other in [
            "checkmate",
            "engine-error: x",
            "",
            "a b c",
            "+0.3/x 1s",
            // Past any evaluation, or deeper than a record holds.
            "+99999.00/1 0s",
            "+0.3/4294967295 1s",
        ] {
            assert_eq!(eval_comment(other), None, "{other}");
        }
    }

    fn pgn(extra_tags: &str, movetext: &str) -> String {
        format!(
            "[Event \"x\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Variant \"jieqi\"]\n\
             {extra_tags}\n{movetext}\n"
        )
    }

    #[test]
    fn pgn_games_are_chosen_by_number_or_place() {
        let one = pgn(
            "[Number \"7\"]",
            "1. h2h9Cn {+0.35/3 0.001s} a6a5r 2. b2b9Cb {checkmate} 1-0",
        );
        let two = pgn("[Number \"9\"]", "1. h2e2C 1-0");
        let path = write("two", &format!("{one}\n{two}"));
        let g = study_from_file(&path, Some(7)).unwrap();
        assert_eq!((g.number, g.moves.len()), (Some(7), 3));
        assert_eq!(g.ending, "checkmate");
        assert_eq!(g.recorded[0].as_ref().unwrap().depth, Some(3));
        assert_eq!(g.recorded[1], None);
        assert!(g.title.ends_with(" game 7"), "{}", g.title);
        assert_eq!(study_from_file(&path, Some(9)).unwrap().moves.len(), 1);
        let err = study_from_file(&path, None).unwrap_err();
        assert!(err.contains("holds several games"), "{err}");
        let err = study_from_file(&path, Some(2)).unwrap_err();
        assert!(err.contains("numbered 7 to 9"), "{err}");
        // Without Number tags, by place.
        let plain = format!("{}\n{}", pgn("", "1. h2e2C 1-0"), pgn("", "1. b2e2C 1-0"));
        let path = write("plain", &plain);
        let g = study_from_file(&path, Some(2)).unwrap();
        assert_eq!(g.moves[0].to_string(), "b2e2");
    }

    #[test]
    fn a_deal_tag_that_disagrees_is_refused() {
        // The standard order's deal: h2 is a cannon's square... but here it is a horse.
        let deal = "[Deal \"red RNBAABNRCCPPPPP black rnbaabnrccppppp\"]";
        let ok = study_from_file(&write("deal-ok", &pgn(deal, "1. h2e2C 1-0")), None).unwrap();
        assert!(ok.truth_known);
        // A seed that deals another deal is refused, naming the game.
        let with_seed = format!("{deal}\n[Seed \"12345\"]");
        let err = study_from_file(&write("deal-seed", &pgn(&with_seed, "1. h2e2C 1-0")), None)
            .unwrap_err();
        assert!(
            err.contains("game 1, tag Seed: seed 12345 deals another deal than the tag Deal"),
            "{err}"
        );
        // The seed's own deal is taken with it.
        let rules = Rules::standard();
        let dealt = deal_for_seed(12345, &rules);
        let own = format!(
            "[Deal \"red {} black {}\"]\n[Seed \"12345\"]",
            dealt.side_string(Color::Red),
            dealt.side_string(Color::Black)
        );
        let g = study_from_file(&write("deal-own-seed", &pgn(&own, "1-0")), None).unwrap();
        assert_eq!((g.seed, g.truth_known), (Some(12345), true));
        let err =
            study_from_file(&write("deal-bad", &pgn(deal, "1. h2e2N 1-0")), None).unwrap_err();
        assert!(
            err.contains("game 1, ply 1") && err.contains("tag Deal") && err.contains("horse"),
            "{err}"
        );
    }

    #[test]
    fn malformed_files_name_the_file_the_place_and_the_field() {
        let cases: Vec<(&str, String, &str)> =
            vec![
            ("not-json", "{\"metadata\": ".into(), "not JieqiBox notation JSON"),
            ("no-meta", "{\"moves\": []}".into(), "metadata: missing"),
            (
                "bad-data",
                "{\"metadata\": {}, \"moves\": [{\"type\": \"move\", \"data\": 7}]}".into(),
                "moves[0] (ply 1).data: not a string",
            ),
            (
                "adjust",
                "{\"metadata\": {}, \"moves\": [{\"type\": \"adjust\", \"data\": \"x\"}]}".into(),
                "moves[0] (ply 1).type: 'adjust'",
            ),
            (
                "illegal",
                "{\"metadata\": {}, \"moves\": [{\"data\": \"h2h3C\"}, {\"data\": \"a9a0\"}]}"
                    .into(),
                "moves[1] (ply 2).data 'a9a0'",
            ),
            (
                "no-reveal",
                "{\"metadata\": {}, \"moves\": [{\"data\": \"h2e2\"}]}".into(),
                "a reveal identity is needed",
            ),
            (
                "score",
                "{\"metadata\": {}, \"moves\": [{\"data\": \"h2e2C\", \"engineScore\": \"x\"}]}"
                    .into(),
                "moves[0] (ply 1).engineScore: not a number",
            ),
            (
                "score-range",
                "{\"metadata\": {}, \"moves\": [{\"data\": \"h2e2C\", \"engineScore\": 1e308}]}"
                    .into(),
                "moves[0] (ply 1).engineScore: 1e308 is out of range",
            ),
            (
                "depth-range",
                "{\"metadata\": {}, \"moves\": [{\"data\": \"h2e2C\", \"engineDepth\": 1000000000}]}"
                    .into(),
                "moves[0] (ply 1).engineDepth: 1000000000 is more than 10000",
            ),
            (
                "fen",
                "{\"metadata\": {\"initialFen\": \"rnb/x\"}, \"moves\": []}".into(),
                "metadata.initialFen",
            ),
            (
                "result",
                "{\"metadata\": {\"result\": \"2-0\"}, \"moves\": []}".into(),
                "metadata.result: '2-0'",
            ),
            ("pgn-tag", "[White a]\n\n1. h2e2C 1-0\n".into(), "game 1, line 1"),
            ("pgn-move", pgn("", "1. Nf3 1-0"), "game 1, ply 1 ('Nf3'"),
            ("pgn-var", pgn("", "1. h2e2C (1. b2e2C) 1-0"), "variations"),
            ("pgn-comment", pgn("", "1. h2e2C {open 1-0"), "not closed"),
            (
                "pgn-variant",
                pgn("", "1-0").replace("jieqi", "chess"),
                "tag Variant: 'chess'",
            ),
            ("pgn-result", pgn("", "1. h2e2C 0-1"), "tag Result: 1-0 but the movetext ends 0-1"),
            ("pgn-seed", pgn("[Seed \"-1\"]", "1-0"), "tag Seed: '-1'"),
            ("pgn-deal", pgn("[Deal \"red X\"]", "1-0"), "tag Deal"),
            ("empty", "\n\n".into(), "holds no PGN game"),
        ];
        for (name, text, says) in cases {
            let path = write(name, &text);
            let err = study_from_file(&path, None).expect_err(name);
            assert!(
                err.starts_with(&path.display().to_string()) && err.contains(says),
                "{name}: {err}"
            );
        }
        let dir = tmp("folder");
        assert!(
            study_from_file(&dir, None)
                .unwrap_err()
                .contains("is a folder")
        );
    }

    /// A game of endless tags is refused at the bound, naming the line, before it is held in
    /// memory; so is one of endless movetext.
    #[test]
    fn pgn_games_are_bounded_in_tags_and_bytes() {
        let many = "[Foo \"bar\"]\n".repeat(MAX_PGN_TAGS + 1);
        let path = write("many-tags", &pgn(&many, "1. h2e2C 1-0"));
        let err = study_from_file(&path, None).unwrap_err();
        // A tag a line from the first: the tag past the bound is on line 1001.
        assert!(
            err.starts_with(&path.display().to_string())
                && err.contains("game 1, line 1001: more than 1000 tags"),
            "{err}"
        );
        let fewer = "[Foo \"bar\"]\n".repeat(MAX_PGN_TAGS - 5);
        study_from_file(&write("fewer-tags", &pgn(&fewer, "1. h2e2C 1-0")), None).unwrap();
        let line = format!("{}\n", ";".repeat(1000));
        let long = pgn("", &line.repeat(MAX_PGN_GAME / line.len() + 1));
        let err = study_from_file(&write("long-game", &long), None).unwrap_err();
        assert!(
            err.contains("game 1, line ")
                && err.contains(&format!("longer than {MAX_PGN_GAME} bytes")),
            "{err}"
        );
    }

    /// Red mates with `b1b9` (the a8 rook holds rank 8): a file that says Black won is refused,
    /// a JieqiBox file as a PGN, naming the field.
    #[test]
    fn a_result_the_final_position_contradicts_is_refused() {
        let fen = "4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1";
        let jieqibox = |result: &str| {
            serde_json::json!({"metadata": {"initialFen": fen, "result": result},
                               "moves": [{"data": "b1b9"}]})
            .to_string()
        };
        let err = study_from_file(&write("jb-contradicts", &jieqibox("0-1")), None).unwrap_err();
        assert!(
            err.contains(
                "metadata.result: 0-1, but the final position is checkmate by the \
                           rules: 1-0"
            ),
            "{err}"
        );
        let g = study_from_file(&write("jb-agrees", &jieqibox("1-0")), None).unwrap();
        assert_eq!(
            (g.result, g.ending.as_str()),
            (GameResult::RedWins, "checkmate")
        );
        let pgn = |result: &str| {
            format!(
                "[Variant \"xiangqi\"]\n[FEN \"{fen}\"]\n[Result \"{result}\"]\n\n1. b1b9 {result}\n"
            )
        };
        let err = study_from_file(&write("pgn-contradicts", &pgn("0-1")), None).unwrap_err();
        assert!(
            err.contains("game 1, tag Result: 0-1, but the final position is checkmate"),
            "{err}"
        );
        study_from_file(&write("pgn-agrees", &pgn("1-0")), None).unwrap();
    }

    #[test]
    fn xiangqi_games_need_no_deal() {
        let path = write(
            "xiangqi",
            &pgn(
                "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]",
                "1. h2e2 h9g7 1-0",
            )
            .replace("[Variant \"jieqi\"]\n", ""),
        );
        let g = study_from_file(&path, None).unwrap();
        assert!(g.truth_known);
        assert_eq!(g.start.rules().name.as_str(), "xiangqi");
        assert_eq!(g.moves.len(), 2);
    }
}
