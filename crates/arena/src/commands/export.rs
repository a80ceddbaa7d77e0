//! `arena export`: the games of a results folder in formats other programs load — PGN (one file,
//! every game) and JieqiBox's notation JSON (one file per game).
//!
//! **PGN.** The seven-tag roster (`White` is Red), then `Variant` (`jieqi`, `xiangqi`, or the
//! rules' name for a variant no protocol names), `SetUp "1"` and `FEN` (the start position, hidden
//! pieces as `X`/`x`), `Termination` (PGN's words: `normal`, `adjudication`, `time forfeit`,
//! `rules infraction`, `abandoned`), `PlyCount`, `TimeControl` under a clock, and the arena's own
//! `Number`, `Pair`, `Seed` and `Deal` (the true identities, in deal order), and `Counted "no"`
//! on a game the run did not count (`--beyond-stop`: a pair that finished after a gate stopped,
//! see [`crate::run::folder::stop_job`]; without the flag such games are left out and the
//! summary says how many). Moves are in the
//! coordinate notation of the engine protocol, with the reveal and captured-identity letters
//! (`h2h9Rn`: the hidden h2 piece was a chariot and took a hidden horse), which is what a
//! Pikafish-dialect GUI sends its engines; each carries a comment `{score/depth time}` as
//! cutechess writes it (`{+0.35/12 0.007s}`, `{+M5/12 0.12s}`; see [`move_comment`]): the score
//! in pawns from the mover's point of view, a mate as `±M` and its plies. An MCTS engine's win rate
//! `w` (its expected score, draws counting half) is given in pawns on the Elo logistic the arena
//! rates with, `cp = 400 · log10(w / (1 − w))` ([`Score::win_rate_cp`], as `jieqi-uci` reports
//! it: 66.7 % is +1.21, clamped to ±12.00), and its depth is the deepest ply its tree reached.
//! The game ends with a comment giving the arena's termination.
//!
//! **JieqiBox** (`--format jieqibox`): what JieqiBox's "save notation" writes for the same moves
//! played in its random flip mode (`generateGameNotation` in its `src/composables/useChessGame.ts`,
//! format in its `NOTATION_FORMAT.md`). `metadata`: event, site, date (`YYYY-MM-DD`), round,
//! white = Red, black, result, `initialFen` (JieqiBox's own `START_FEN` text for the standard
//! start), `flipMode: "random"`, `currentFen`, and an `openingComment` with the arena's seed and
//! termination (`"counted": false` on a game the run did not count). `moves`, each
//! `{"type": "move", "data", "fen", "engineScore", "engineTime"}` as JieqiBox records them: `data`
//! the move with its reveal and captured-hidden letters (`h2h9Rn`; a captured face-up piece adds
//! none), `fen` the position after it in JieqiBox's six-field form (`board side pool captured
//! halfmove fullmove`, the captured field the hidden pieces taken so far, see
//! [`jieqi_core::fen::write_jieqibox`]), `engineScore` the mover's centipawns or, for `score mate
//! N`, ±(30000 − |N|) with N in moves as the engine said it, `engineTime` in milliseconds (0 when
//! unknown); plus `engineDepth` and `engineNodes`, fields of JieqiBox's history entries that its
//! chart reads and its own save leaves out.

use std::io::Write;
use std::path::Path;

use jieqi_core::{ByColor, Pool, Rules};
use jieqi_engine::Score;
use serde_json::json;

use crate::cli::export::Format;
use crate::error::Error;
use crate::plan::export::ExportPlan;
use crate::records::termination::Termination;
use crate::records::{GameLine, PlyInfo};
use crate::run::MatchSetup;

/// One game to export, with what the record around it says.
struct Exported<'a> {
    number: u64,
    line: &'a GameLine,
    /// Whether the run counted it (see [`ExportPlan::uncounted`]).
    counted: bool,
    setup: &'a MatchSetup,
    date: &'a str,
}

fn input(m: impl Into<String>) -> Error {
    Error::Input(m.into())
}

/// Runs `arena export`.
///
/// # Errors
/// A record does not play through from its deal (it was altered), or writing fails; the message
/// names the file.
pub fn run(plan: &ExportPlan, w: &mut dyn Write) -> Result<(), Error> {
    let items: Vec<Exported<'_>> = plan
        .games
        .iter()
        .map(|(number, line)| Exported {
            number: *number,
            line,
            counted: !plan.uncounted.contains(number),
            setup: &plan.setup,
            date: &plan.date,
        })
        .collect();
    match plan.format {
        Format::Pgn => {
            let mut text = String::new();
            for item in &items {
                text.push_str(&pgn(item)?);
                text.push('\n');
            }
            emit(plan.out.as_deref(), text.as_bytes(), w)?;
            summary(plan, plan.out.as_deref(), w)
        }
        Format::Jieqibox => {
            if items.len() == 1 {
                let mut text = serde_json::to_string_pretty(&jieqibox(&items[0])?)
                    .map_err(|e| input(e.to_string()))?;
                text.push('\n');
                emit(plan.out.as_deref(), text.as_bytes(), w)?;
                return summary(plan, plan.out.as_deref(), w);
            }
            // The plan refuses several JieqiBox games without a folder.
            let Some(folder) = &plan.out else {
                return Err(input(format!(
                    "--format jieqibox writes one file per game: give --out FOLDER for the {} \
                     games, or --game N for one",
                    items.len()
                )));
            };
            crate::records::files::create_dir(folder).map_err(|e| Error::Write(e.to_string()))?;
            let width = items.last().map_or(1, |i| i.number.to_string().len());
            for item in &items {
                let mut text = serde_json::to_string_pretty(&jieqibox(item)?)
                    .map_err(|e| input(e.to_string()))?;
                text.push('\n');
                let path = folder.join(format!("game-{:0width$}.json", item.number));
                crate::records::files::write_output(&path, text.as_bytes())
                    .map_err(|e| Error::Write(e.to_string()))?;
            }
            summary(plan, Some(folder), w)
        }
    }
}

/// The tag PGN games the run did not count carry.
const NOT_COUNTED_TAG: (&str, &str) = ("Counted", "no");

/// What export's summary says of the games the run did not count: how many were left out, or
/// how many were written marked; empty when there were none.
fn uncounted_text(plan: &ExportPlan) -> String {
    let games = |n: u64| format!("{n} game{}", if n == 1 { "" } else { "s" });
    let mark = match plan.format {
        Format::Pgn => format!("[{} \"{}\"]", NOT_COUNTED_TAG.0, NOT_COUNTED_TAG.1),
        Format::Jieqibox => "\"counted\": false".to_string(),
    };
    let marked = plan.uncounted.len() as u64;
    if plan.left_out > 0 {
        format!(
            "{} left out that the run did not count ({}): --beyond-stop exports them, marked \
             {mark}",
            games(plan.left_out),
            plan.stop
        )
    } else if marked > 0 {
        format!(
            "{marked} of them not counted by the run ({}), marked {mark}",
            plan.stop
        )
    } else {
        String::new()
    }
}

/// Export's summary line: `N games written to PATH`, and what [`uncounted_text`] says. It goes to
/// `w` when the games went to a file or folder, and to standard error (only when there is
/// something to say of uncounted games) when they went to standard output or a device, so that
/// those hold nothing but the games.
fn summary(plan: &ExportPlan, out: Option<&Path>, w: &mut dyn Write) -> Result<(), Error> {
    let uncounted = uncounted_text(plan);
    let on_disk = out.filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file() || m.is_dir()));
    match on_disk {
        Some(path) => {
            let n = plan.games.len();
            let mut line = format!(
                "{n} game{} written to {}",
                if n == 1 { "" } else { "s" },
                path.display()
            );
            if !uncounted.is_empty() {
                line.push_str("; ");
                line.push_str(&uncounted);
            }
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

/// The variant name protocols use for these rules: `jieqi`, `xiangqi`, or the rules' own name.
fn variant(rules: &Rules) -> String {
    jieqi_registry::uci_variant(rules).to_string()
}

/// PGN's `Termination` word for an arena termination.
fn pgn_termination(t: Termination) -> &'static str {
    match t {
        Termination::Rules(_) => "normal",
        Termination::MaxPlies | Termination::AdjudicationResign | Termination::AdjudicationDraw => {
            "adjudication"
        }
        Termination::Timeout | Termination::TimeForfeit => "time forfeit",
        Termination::IllegalMove | Termination::ProtocolError => "rules infraction",
        Termination::EnginePanic | Termination::EngineError | Termination::EngineCrash => {
            "abandoned"
        }
    }
}

/// The recorded game played through from its deal ([`crate::records::check::check_record`]): the
/// start FEN, and each ply's record and FEN after it. A record that does not hold up is refused.
fn checked(item: &Exported<'_>) -> Result<crate::records::check::Checked, Error> {
    let checked = crate::records::check::check_record(
        &item.setup.rules,
        item.line,
        item.setup.max_plies,
        None,
    );
    if let Some(problem) = &checked.problem {
        return Err(input(format!(
            "game {} (pair {}, game {}): {problem}; not exported",
            item.number, item.line.pair, item.line.game
        )));
    }
    Ok(checked)
}

/// The most of an engine failure's detail a PGN comment keeps.
const MAX_DETAIL: usize = 200;

/// Text for a PGN comment: no control characters, no closing brace.
fn comment_text(text: &str) -> String {
    crate::util::text::printable(text).replace('}', ")")
}

/// `"a b"` escaped for a PGN tag value.
fn tag(name: &str, value: &str) -> String {
    let v = crate::util::text::printable(value)
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
    format!("[{name} \"{v}\"]\n")
}

/// One game as PGN.
fn pgn(item: &Exported<'_>) -> Result<String, Error> {
    let line = item.line;
    let setup = item.setup;
    let start = checked(item)?.start_fen;
    let mut out = String::new();
    out.push_str(&tag("Event", &format!("arena {}", setup.command_name())));
    out.push_str(&tag("Site", "jieqi arena"));
    out.push_str(&tag("Date", item.date));
    out.push_str(&tag("Round", &item.number.to_string()));
    out.push_str(&tag("White", &line.red));
    out.push_str(&tag("Black", &line.black));
    out.push_str(&tag("Result", line.result.text()));
    out.push_str(&tag("Variant", &variant(&setup.rules)));
    out.push_str(&tag("SetUp", "1"));
    out.push_str(&tag("FEN", &start));
    out.push_str(&tag("Termination", pgn_termination(line.reason)));
    out.push_str(&tag("PlyCount", &line.moves.len().to_string()));
    if let Some(tc) = setup.tc {
        out.push_str(&tag("TimeControl", &tc.to_string()));
    }
    out.push_str(&tag("Number", &item.number.to_string()));
    out.push_str(&tag("Pair", &line.pair.to_string()));
    out.push_str(&tag("Seed", &line.seed.to_string()));
    // A deal names the identities of the rules' start; a game from an opening has its seed.
    if setup.rules.has_hidden() && line.opening.is_none() {
        out.push_str(&tag(
            "Deal",
            &format!("red {} black {}", line.deal.red, line.deal.black),
        ));
    }
    if !item.counted {
        out.push_str(&tag(NOT_COUNTED_TAG.0, NOT_COUNTED_TAG.1));
    }
    out.push('\n');
    let mut tokens = Vec::new();
    // Red's moves are numbered `N.`; a game whose opening has Black to move starts `N...`.
    let black_first = line.first_mover() == jieqi_core::Color::Black;
    let first_number = line.first_move_number() as usize;
    for (i, mv) in line.moves.iter().enumerate() {
        let k = i + usize::from(black_first);
        if k % 2 == 0 {
            tokens.push(format!("{}.", first_number + k / 2));
        } else if i == 0 {
            tokens.push(format!("{first_number}..."));
        }
        tokens.push(mv.clone());
        if let Some(comment) = line.search.get(i).and_then(move_comment) {
            tokens.push(format!("{{{comment}}}"));
        }
    }
    // The termination, its detail cut to a sentence's length, as words (a comment may span lines).
    let mut ending = match &line.detail {
        Some(d) => format!("{}: {}", line.reason.name(), comment_text(d)),
        None => line.reason.name().to_string(),
    };
    if ending.chars().count() > MAX_DETAIL {
        ending = ending.chars().take(MAX_DETAIL).collect::<String>() + "…";
    }
    let words: Vec<&str> = ending.split_whitespace().collect();
    let last = words.len().saturating_sub(1);
    for (i, word) in words.iter().enumerate() {
        let open = if i == 0 { "{" } else { "" };
        let close = if i == last { "}" } else { "" };
        tokens.push(format!("{open}{word}{close}"));
    }
    tokens.push(line.result.text().to_string());
    // Lines of at most 79 characters (PGN's export format), broken between tokens.
    let mut width = 0;
    for t in tokens {
        if width > 0 && width + 1 + t.len() > 79 {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(&t);
        width += t.len();
    }
    out.push('\n');
    Ok(out)
}

/// Plies to the end of a mate in `moves` moves for the mover (negative: the mover is mated), as
/// UCI front ends count them: a mate in n is 2n − 1 plies, being mated in n is 2n.
fn mate_plies(moves: i32) -> i64 {
    let moves = i64::from(moves);
    if moves > 0 { 2 * moves - 1 } else { -2 * moves }
}

/// A recorded score in centipawns from the mover's point of view, a win rate mapped by
/// [`Score::win_rate_cp`] (the Elo logistic); `None` for a mate or a text that is no score.
fn centipawns(score: Score) -> Option<i64> {
    match score {
        Score::Cp(cp) => Some(i64::from(cp)),
        Score::WinRate(w) => Some(i64::from(Score::win_rate_cp(w))),
        Score::Mate(_) => None,
    }
}

/// The score of a move comment as cutechess writes it (`MoveEvaluation::scoreText`): pawns with
/// two decimals, `+` before a positive one (`+0.35`, `0.00`, `-1.20`), or a mate as `+M` /
/// `-M` and the plies to it (`+M5` mates in 3 moves, `-M4` is mated in 2).
fn cutechess_score(score: Score) -> String {
    match (score, centipawns(score)) {
        (Score::Mate(n), _) if n > 0 => format!("+M{}", mate_plies(n)),
        (Score::Mate(n), _) => format!("-M{}", mate_plies(n)),
        (_, Some(cp)) if cp > 0 => format!("+{:.2}", cp as f64 / 100.0),
        (_, cp) => format!("{:.2}", cp.unwrap_or(0) as f64 / 100.0),
    }
}

/// A move's time as cutechess writes it (`evalString`): whole milliseconds, shown in seconds to
/// 3 decimals under 0.1 s, 2 under 1 s, 1 under 10 s, none above, and `0s` for nothing.
fn cutechess_time(ms: f64) -> String {
    let t = ms.round().max(0.0) as u64;
    let precision = match t {
        0 => return "0s".into(),
        1..=99 => 3,
        100..=999 => 2,
        1000..=9999 => 1,
        _ => 0,
    };
    format!("{:.precision$}s", t as f64 / 1000.0)
}

/// A move's comment as cutechess writes it: `score/depth time` (`+0.35/12 0.007s`, `+M5/12
/// 0.120s`), the score from the mover's point of view. The depth is the engine's (for the MCTS
/// engines, the deepest ply their tree reached), or the length of its principal variation when
/// it reports none (flat UCT: 1); as in cutechess, a score goes only with a depth. `None` when
/// there is nothing to say.
fn move_comment(info: &PlyInfo) -> Option<String> {
    let depth = info
        .depth
        .filter(|&d| d > 0)
        .or_else(|| u32::try_from(info.pv.len()).ok().filter(|&n| n > 0));
    let score = info.score.as_deref().and_then(Score::parse);
    let mut parts = Vec::new();
    if let (Some(score), Some(depth)) = (score, depth) {
        parts.push(format!("{}/{depth}", cutechess_score(score)));
    }
    if let Some(ms) = info.ms {
        parts.push(cutechess_time(ms));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// The base JieqiBox stores mate scores from (`MATE_SCORE_BASE` in its `src/utils/constants.ts`).
const JIEQIBOX_MATE_BASE: i64 = 30_000;

/// JieqiBox's `START_FEN` (`src/utils/constants.ts`): the text a new game in JieqiBox starts
/// from and its saves give as `initialFen`. Its pool is in another order than the positions
/// JieqiBox writes after each move ([`jieqi_core::fen::write_jieqibox`]).
const JIEQIBOX_START_FEN: &str =
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 - 0 1";

/// JieqiBox's `engineScore` for a recorded score text, as its `recordAndFinalize`
/// (`src/composables/useChessGame.ts`) turns the engine's `info … score …` line into one:
/// centipawns as they are (a win rate is first mapped by [`Score::win_rate_cp`], the `score cp`
/// `jieqi-uci` reports for it), and `score mate N` as ±(30000 − |N|) with N as the engine said it
/// (moves, not plies), the sign N's, `mate 0` counting as positive.
fn jieqibox_score(score: &str) -> Option<i64> {
    match Score::parse(score)? {
        Score::Mate(n) => {
            let n = i64::from(n);
            let sign = if n >= 0 { 1 } else { -1 };
            Some(sign * (JIEQIBOX_MATE_BASE - n.abs()))
        }
        other => centipawns(other),
    }
}

/// A public FEN of the record (the Pikafish form [`jieqi_core::Position::fen`] writes) in
/// JieqiBox's six-field form, with the hidden pieces captured so far as its captured field.
fn jieqibox_fen(fen: &str, captured: ByColor<Pool>) -> Result<String, Error> {
    let mut setup = jieqi_core::fen::parse(fen).map_err(|e| {
        input(format!(
            "a recorded position does not read back ({e}): {fen}"
        ))
    })?;
    setup.captured_hidden = Some(captured);
    Ok(jieqi_core::fen::write_jieqibox(&setup))
}

/// One game as JieqiBox's notation JSON: what JieqiBox's `saveGameNotation`
/// (`generateGameNotation` in `src/composables/useChessGame.ts`) writes for the same moves played
/// in its random flip mode, where the identities come from a draw as the arena's deal does.
fn jieqibox(item: &Exported<'_>) -> Result<serde_json::Value, Error> {
    let line = item.line;
    let checked = checked(item)?;
    let start = jieqibox_fen(&checked.start_fen, ByColor::default())?;
    let standard_start = jieqibox_fen(
        &jieqi_core::Position::start(&Rules::standard()).fen(),
        ByColor::default(),
    )?;
    // A game from the standard start has JieqiBox's own start text, as a new game there has.
    let start = if start == standard_start {
        JIEQIBOX_START_FEN.to_string()
    } else {
        start
    };
    // The hidden pieces captured so far, by the captured piece's colour: JieqiBox's
    // `capturedUnrevealedPieceCounts`, which its random flip mode keeps for both sides.
    let mut captured = ByColor::<Pool>::default();
    let mut moves = Vec::with_capacity(line.moves.len());
    for (i, (mv, (record, fen))) in line.moves.iter().zip(&checked.plies).enumerate() {
        if let (true, Some(piece)) = (record.captured_hidden, record.captured) {
            captured[piece.color].0[piece.role.index()] += 1;
        }
        // `data` is the move as JieqiBox records it (`movePiece` and `completeFlipAfterMove`):
        // the squares, the revealed identity in the mover's case, then a captured hidden
        // piece's identity in its owner's case; the recorded text is exactly that.
        let mut m = json!({
            "type": "move",
            "data": mv,
            "fen": jieqibox_fen(fen, captured)?,
        });
        let info = line.search.get(i);
        if let Some(s) = info
            .and_then(|info| info.score.as_deref())
            .and_then(jieqibox_score)
        {
            m["engineScore"] = json!(s);
        }
        // JieqiBox gives every move a time, 0 when it has none.
        m["engineTime"] = json!(info.and_then(|i| i.ms).map_or(0, |ms| ms.round() as i64));
        if let Some(info) = info {
            // Fields of JieqiBox's `HistoryEntry` that its evaluation chart reads; its own save
            // leaves them out, its loader keeps them.
            if let Some(d) = info.depth {
                m["engineDepth"] = json!(d);
            }
            m["engineNodes"] = json!(info.nodes);
        }
        moves.push(m);
    }
    let current = match moves.last() {
        Some(m) => m["fen"].clone(),
        None => json!(start),
    };
    let mut game = json!({
        "metadata": {
            "event": format!("arena {}", item.setup.command_name()),
            "site": "jieqi arena",
            "date": item.date.replace('.', "-"),
            "round": item.number.to_string(),
            "white": line.red,
            "black": line.black,
            "result": line.result.text(),
            "initialFen": start,
            "flipMode": "random",
            "currentFen": current,
            "openingComment": format!(
                "{} game {} (pair {}, seed {}): {}{}{}",
                variant(&item.setup.rules),
                item.number,
                line.pair,
                line.seed,
                line.reason.name(),
                line.detail.as_ref().map(|d| format!(": {d}")).unwrap_or_default(),
                if item.counted { "" } else { " (not counted by the run)" }
            ),
        },
        "moves": moves,
    });
    if !item.counted {
        game["metadata"]["counted"] = json!(false);
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_become_dates() {
        use crate::util::time::civil_from_days;
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
    }

    #[test]
    fn scores_become_jieqibox_numbers() {
        assert_eq!(jieqibox_score("+0.44"), Some(44));
        assert_eq!(jieqibox_score("-1.91"), Some(-191));
        // `score mate N` is ±(30000 − |N|), N in moves as the engine said it (regression: mates
        // were converted to plies first, so a mate in 2 showed as M3 in JieqiBox).
        assert_eq!(jieqibox_score("#2"), Some(29_998));
        assert_eq!(jieqibox_score("#3"), Some(29_997));
        assert_eq!(jieqibox_score("#-2"), Some(-29_998));
        // JieqiBox reads `mate 0` as non-negative.
        assert_eq!(jieqibox_score("#0"), Some(30_000));
        // A win rate is mapped by the Elo logistic: 400 · log10(0.51 / 0.49) = 6.96.
        assert_eq!(jieqibox_score("51.0%"), Some(7));
        assert_eq!(jieqibox_score("junk"), None);
    }

    fn info(score: Option<&str>, depth: Option<u32>, pv: usize, ms: Option<f64>) -> PlyInfo {
        PlyInfo {
            nodes: 100,
            ms,
            depth,
            score: score.map(str::to_string),
            pv: vec!["h2e2".to_string(); pv],
        }
    }

    #[test]
    fn move_comments_are_cutechess_score_depth_time() {
        let cases = [
            // Centipawns, signed as cutechess signs them.
            (
                info(Some("+0.35"), Some(12), 3, Some(7.0)),
                "+0.35/12 0.007s",
            ),
            (info(Some("-1.20"), Some(5), 1, Some(7.4)), "-1.20/5 0.007s"),
            (info(Some("+0.00"), Some(1), 1, Some(0.2)), "0.00/1 0s"),
            // Mates in plies: mate in 3 moves is 5 plies, mated in 2 is 4.
            (info(Some("#3"), Some(12), 5, Some(120.0)), "+M5/12 0.12s"),
            (info(Some("#-2"), Some(9), 1, Some(1234.0)), "-M4/9 1.2s"),
            // An MCTS win rate becomes pawns on the Elo logistic: 66.7 % is +1.21.
            (
                info(Some("66.7%"), Some(14), 6, Some(7.0)),
                "+1.21/14 0.007s",
            ),
            (
                info(Some("25.0%"), Some(3), 2, Some(12_345.0)),
                "-1.91/3 12s",
            ),
            // No depth (flat UCT): the principal variation's length.
            (info(Some("50.0%"), None, 1, Some(1.0)), "0.00/1 0.001s"),
            // No depth and no variation: a score would not parse as cutechess's, so only time.
            (info(Some("+0.35"), None, 0, Some(7.0)), "0.007s"),
            (info(None, Some(4), 4, Some(7.0)), "0.007s"),
            (info(Some("junk"), Some(4), 4, Some(7.0)), "0.007s"),
            // Records older than move times.
            (info(Some("+0.35"), Some(12), 1, None), "+0.35/12"),
        ];
        for (info, want) in cases {
            assert_eq!(move_comment(&info).as_deref(), Some(want), "{info:?}");
        }
        assert_eq!(move_comment(&info(None, None, 0, None)), None);
    }
}
