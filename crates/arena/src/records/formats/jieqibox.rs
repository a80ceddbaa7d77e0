//! JieqiBox's notation JSON and its FEN, as `arena export --format jieqibox` and `arena jai`
//! write them and as the arena reads JieqiBox's files back (`arena analyze`, `--openings`).
//!
//! **Written** ([`write_game`]): what JieqiBox's "save notation" writes for the same moves
//! played in its random flip mode (`generateGameNotation` in its
//! `src/composables/useChessGame.ts`, format in its `NOTATION_FORMAT.md`). `metadata`: event,
//! site, date (`YYYY-MM-DD`), round, white = Red, black, result, `initialFen` (JieqiBox's own
//! `START_FEN` text for the standard start), `flipMode: "random"`, `currentFen`, and an
//! `openingComment` with the arena's seed and termination (`"counted": false` on a game the run
//! did not count). `moves`, each `{"type": "move", "data", "fen", "engineScore", "engineTime"}`
//! as JieqiBox records them: `data` the move with its reveal and captured-hidden letters
//! (`h2h9Rn`; a captured face-up piece adds none), `fen` the position after it ([`fen`]),
//! `engineScore` the mover's centipawns or, for `score mate N`, ±(30000 − |N|) with N in moves
//! as the engine said it, `engineTime` in milliseconds (0 when unknown); plus `engineDepth` and
//! `engineNodes`, fields of JieqiBox's history entries that its chart reads and its own save
//! leaves out.
//!
//! **The FEN** ([`fen`], the one writer, for export's positions and `arena jai`'s `info fen`):
//! JieqiBox's six-field form `board side pool captured halfmove fullmove` as its `generateFen`
//! writes it, the pool and the captured field role by role in `RNBAKCP` order with Red's letter
//! first (`R2r2N2n2B2b2A2a2C2c2P5p5`; [`jieqi_core::fen::write_jieqibox`]), the captured field the
//! hidden pieces taken so far by the taken piece's colour (its `capturedUnrevealedPieceCounts`).
//! JieqiBox reads a pool in any order; this is the order it writes.
//!
//! **Read**: a file's fields one by one ([`string_field`], [`number_field`], [`count_field`]),
//! the `openingComment` the arena writes ([`arena_comment`]) and an `engineScore`
//! ([`score_text`]); `crate::analysis::import` plays the game through.

use jieqi_core::{ByColor, Game, Pool, Record, Rules, Setup};
use jieqi_engine::Score;
use serde_json::{Value, json};

use super::{FormatError, RecordedGame, centipawns};

/// The largest JieqiBox file read: 16 MiB (a game of thousands of plies takes a few hundred KiB).
pub const MAX_JIEQIBOX_FILE: u64 = 16 << 20;

/// The absolute JieqiBox `engineScore` from which a score is a mate: JieqiBox's own threshold
/// (`MATE_SCORE_BASE − 999` in its `EvaluationChart.vue`).
const JIEQIBOX_MATE_FROM: f64 = 29_001.0;

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
fn engine_score(score: &str) -> Option<i64> {
    match Score::parse(score)? {
        Score::Mate(n) => {
            let n = i64::from(n);
            let sign = if n >= 0 { 1 } else { -1 };
            Some(sign * (JIEQIBOX_MATE_BASE - n.abs()))
        }
        other => centipawns(other),
    }
}

/// A position in JieqiBox's six-field FEN (see the module's text), with `captured` as its
/// captured field: the one writer of JieqiBox's FEN.
pub fn fen(mut setup: Setup, captured: ByColor<Pool>) -> String {
    setup.captured_hidden = Some(captured);
    jieqi_core::fen::write_jieqibox(&setup)
}

/// The hidden pieces `records` captured, by the captured piece's colour: JieqiBox's
/// `capturedUnrevealedPieceCounts`, which its random flip mode keeps for both sides.
pub fn captured_hidden(records: &[Record]) -> ByColor<Pool> {
    let mut captured = ByColor::<Pool>::default();
    for record in records {
        if let (true, Some(piece)) = (record.captured_hidden, record.captured) {
            captured[piece.color].0[piece.role.index()] += 1;
        }
    }
    captured
}

/// The position of a game being played in JieqiBox's FEN ([`fen`]), its captured field the
/// hidden pieces captured so far (`arena jai`'s `info fen`).
pub fn game_fen(game: &Game) -> String {
    fen(game.position().to_setup(), captured_hidden(game.records()))
}

/// A public FEN of the record (the Pikafish form [`jieqi_core::Position::fen`] writes) in
/// JieqiBox's six-field form ([`fen`]), with the hidden pieces captured so far as its captured
/// field.
fn fen_of_record(fen_text: &str, captured: ByColor<Pool>) -> Result<String, FormatError> {
    let setup = jieqi_core::fen::parse(fen_text).map_err(|source| FormatError::Fen {
        fen: fen_text.to_string(),
        source,
    })?;
    Ok(fen(setup, captured))
}

/// One game as JieqiBox's notation JSON: what JieqiBox's `saveGameNotation`
/// (`generateGameNotation` in `src/composables/useChessGame.ts`) writes for the same moves played
/// in its random flip mode, where the identities come from a draw as the arena's deal does.
///
/// # Errors
/// A recorded position does not read back.
pub fn write_game(item: &RecordedGame<'_>) -> Result<Value, FormatError> {
    let line = item.line;
    let start = fen_of_record(item.start_fen, ByColor::default())?;
    let standard_start = fen_of_record(
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
    for (i, (mv, (record, fen))) in line.moves.iter().zip(item.plies).enumerate() {
        if let (true, Some(piece)) = (record.captured_hidden, record.captured) {
            captured[piece.color].0[piece.role.index()] += 1;
        }
        // `data` is the move as JieqiBox records it (`movePiece` and `completeFlipAfterMove`):
        // the squares, the revealed identity in the mover's case, then a captured hidden
        // piece's identity in its owner's case; the recorded text is exactly that.
        let mut m = json!({
            "type": "move",
            "data": mv,
            "fen": fen_of_record(fen, captured)?,
        });
        let info = line.search.get(i);
        if let Some(s) = info
            .and_then(|info| info.score.as_deref())
            .and_then(engine_score)
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
            "event": item.event,
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
                item.variant(),
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

// Reading.

/// A field of a JSON object: `None` when absent or null.
pub fn get<'a>(object: &'a Value, name: &str) -> Option<&'a Value> {
    object.get(name).filter(|v| !v.is_null())
}

/// A string field, if present.
pub fn string_field<'a>(
    object: &'a Value,
    name: &str,
    path: &str,
) -> Result<Option<&'a str>, FormatError> {
    match get(object, name) {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .map(Some)
            .ok_or_else(|| format!("{path}.{name}: not a string").into()),
    }
}

/// A number field, if present: finite.
pub fn number_field(object: &Value, name: &str, path: &str) -> Result<Option<f64>, FormatError> {
    match get(object, name) {
        None => Ok(None),
        Some(v) => v
            .as_f64()
            .filter(|x| x.is_finite())
            .map(Some)
            .ok_or_else(|| format!("{path}.{name}: not a number").into()),
    }
}

/// A whole non-negative number field, if present.
pub fn count_field(object: &Value, name: &str, path: &str) -> Result<Option<u64>, FormatError> {
    match get(object, name) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("{path}.{name}: not a whole number ≥ 0").into()),
    }
}

/// What `arena export` writes in `openingComment`: `jieqi game 12 (pair 5, seed 77): checkmate`,
/// as (variant, number, seed, termination).
pub fn arena_comment(text: &str) -> Option<(&str, u64, u64, &str)> {
    let (variant, rest) = text.split_once(" game ")?;
    let (number, rest) = rest.split_once(" (pair ")?;
    let (_, rest) = rest.split_once(", seed ")?;
    let (seed, ending) = rest.split_once("): ")?;
    let ending = ending
        .strip_suffix(" (not counted by the run)")
        .unwrap_or(ending);
    Some((variant, number.parse().ok()?, seed.parse().ok()?, ending))
}

/// A JieqiBox `engineScore` as a score text: centipawns, or a mate from ±(30000 − |N|), N read
/// as JieqiBox shows it (at least 1: ±30000, what it writes for an engine's `mate 0`, is a mate
/// in 1 on its chart too); `None` past ±30000, which JieqiBox never writes for a mate.
pub fn score_text(s: f64) -> Option<String> {
    let base = JIEQIBOX_MATE_BASE as f64;
    if !(-base..=base).contains(&s) {
        return None;
    }
    Some(if s.abs() >= JIEQIBOX_MATE_FROM {
        let n = (JIEQIBOX_MATE_BASE - s.abs().round() as i64).max(1);
        let n = i32::try_from(n).expect("at most 999");
        Score::Mate(if s < 0.0 { -n } else { n }).to_string()
    } else {
        Score::Cp(s.round() as i32).to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_become_jieqibox_numbers() {
        assert_eq!(engine_score("+0.44"), Some(44));
        assert_eq!(engine_score("-1.91"), Some(-191));
        // `score mate N` is ±(30000 − |N|), N in moves as the engine said it (regression: mates
        // were converted to plies first, so a mate in 2 showed as M3 in JieqiBox).
        assert_eq!(engine_score("#2"), Some(29_998));
        assert_eq!(engine_score("#3"), Some(29_997));
        assert_eq!(engine_score("#-2"), Some(-29_998));
        // JieqiBox reads `mate 0` as non-negative.
        assert_eq!(engine_score("#0"), Some(30_000));
        // A win rate is mapped by the Elo logistic: 400 · log10(0.51 / 0.49) = 6.96.
        assert_eq!(engine_score("51.0%"), Some(7));
        assert_eq!(engine_score("junk"), None);
    }

    #[test]
    fn jieqibox_scores_and_mates() {
        let score = |s: f64| score_text(s).expect("in range");
        assert_eq!(score(44.0), "+0.44");
        assert_eq!(score(0.5), "+0.01");
        assert_eq!(score(29_998.0), "#2");
        assert_eq!(score(-29_997.0), "#-3");
        assert_eq!(score(29_000.0), "+290.00");
        // ±30000 is a mate in 1 as JieqiBox shows it, its sign kept; past it, no score.
        assert_eq!(score(30_000.0), "#1");
        assert_eq!(score(-30_000.0), "#-1");
        for out in [30_001.0, 40_000.0, 1e308, -30_001.0, -1e308] {
            assert_eq!(score_text(out), None, "{out}");
        }
    }

    /// Whether a pool field is in JieqiBox's `generateFen` order: role by role `RNBAKCP`, Red's
    /// letter before Black's.
    fn in_jieqibox_order(field: &str) -> bool {
        let order = "RrNnBbAaKkCcPp";
        let at: Vec<usize> = field
            .chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| order.find(c).expect("a piece letter"))
            .collect();
        at.windows(2).all(|w| w[0] < w[1])
    }

    /// `arena jai`'s `info fen` (a game being played) and export's `fen` fields (a record read
    /// back) are one writer's, in JieqiBox's order. Regression: jai wrote Pikafish's order
    /// (`R2A2C2P5N2B2r2a2c2p5n2b2`) where JieqiBox writes `R2r2N2n2B2b2A2a2C2c2P5p5`.
    #[test]
    fn jai_and_export_write_one_fen_in_jieqiboxs_order() {
        let rules = Rules::standard();
        let mut game = Game::new(rules, crate::records::deal_seed::deal_for_seed(7, &rules));
        assert_eq!(
            game_fen(&game),
            "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w \
             R2r2N2n2B2b2A2a2C2c2P5p5 - 0 1"
        );
        // A game that takes hidden pieces when it can: every position, live and read back from
        // its record, is written the same, pool and captured field in JieqiBox's order.
        let mut captured = 0;
        while game.outcome().is_none() && game.records().len() < 80 {
            let pos = game.position().clone();
            let moves = game.legal_moves();
            let takes = |m: &&jieqi_core::Move| m.from != m.to && pos.is_hidden(m.to);
            let mv = *moves
                .as_slice()
                .iter()
                .find(takes)
                .unwrap_or(&moves.as_slice()[0]);
            game.play(mv).unwrap();
            captured += usize::from(game.records().last().unwrap().captured_hidden);
            let live = game_fen(&game);
            let record = fen_of_record(&game.position().fen(), captured_hidden(game.records()));
            assert_eq!(live, record.unwrap());
            let fields: Vec<&str> = live.split(' ').collect();
            assert_eq!(fields.len(), 6, "{live}");
            assert!(in_jieqibox_order(fields[2]), "{live}");
            assert!(in_jieqibox_order(fields[3]), "{live}");
        }
        assert!(captured >= 2, "the game takes hidden pieces");
    }
}
