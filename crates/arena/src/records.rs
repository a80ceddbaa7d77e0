//! Result files: one JSON line per game (`games.jsonl`, enough to replay) and one CSV row per game
//! (`games.csv`). Both are written in pair order at the end of a match; while it runs,
//! `games.jsonl` is an append-only journal in finishing order, which `--resume` reads back.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

use jieqi_core::Color;
use serde::{Deserialize, Serialize};

use crate::game_runner::{PlayedGame, Termination};

/// Search info of one ply, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyInfo {
    /// Nodes.
    pub nodes: u64,
    /// Milliseconds the engine took (absent in records of older versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<f64>,
    /// Depth, if the engine reported one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Score as the engine printed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// Principal variation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pv: Vec<String>,
}

/// Per-colour pair of numbers.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sides<T> {
    /// Red's.
    pub red: T,
    /// Black's.
    pub black: T,
}

/// The deal as stored: one string per side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealText {
    /// Red's identities in deal order.
    pub red: String,
    /// Black's identities in deal order.
    pub black: String,
}

/// One game, as one line of `games.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// Fingerprint of the match this game belongs to (see `summary.json`).
    pub fingerprint: String,
    /// Pair index.
    pub pair: u64,
    /// 1: engine A plays Red; 2: colours swapped.
    pub game: u8,
    /// Deal seed of the pair.
    pub seed: u64,
    /// Red's engine label.
    pub red: String,
    /// Black's engine label.
    pub black: String,
    /// The deal.
    pub deal: DealText,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: GameResult,
    /// Termination (`checkmate`, `max-plies`, `illegal-move`, …).
    pub reason: Termination,
    /// Detail of an engine failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Plies played.
    pub plies: u32,
    /// Captures.
    pub captures: u32,
    /// Reveals.
    pub reveals: u32,
    /// Nodes per side.
    pub nodes: Sides<u64>,
    /// Milliseconds inside each side's engine.
    pub ms: Sides<f64>,
    /// Milliseconds for the whole game.
    pub total_ms: f64,
    /// Moves with their true reveal / captured identities (`h2h9Rn`).
    pub moves: Vec<String>,
    /// Search info per ply.
    pub search: Vec<PlyInfo>,
}

/// A game's result, written as PGN writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// Red won.
    #[serde(rename = "1-0")]
    RedWins,
    /// Black won.
    #[serde(rename = "0-1")]
    BlackWins,
    /// Drawn.
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    /// The result of a winner (`None`: a draw).
    pub fn of(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::Red) => GameResult::RedWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }

    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn text(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// Result text of a winner.
pub fn result_text(winner: Option<Color>) -> &'static str {
    GameResult::of(winner).text()
}

impl GameLine {
    /// Builds the line for a played game.
    pub fn new(
        fingerprint: &str,
        pair: u64,
        game: u8,
        seed: u64,
        red: &str,
        black: &str,
        g: &PlayedGame,
    ) -> GameLine {
        GameLine {
            fingerprint: fingerprint.to_string(),
            pair,
            game,
            seed,
            red: red.to_string(),
            black: black.to_string(),
            deal: DealText {
                red: g.deal.side_string(Color::Red),
                black: g.deal.side_string(Color::Black),
            },
            result: GameResult::of(g.winner),
            reason: g.termination,
            detail: g.detail.clone(),
            plies: g.plies.len() as u32,
            captures: g.captures,
            reveals: g.reveals,
            nodes: Sides {
                red: g.nodes.red,
                black: g.nodes.black,
            },
            ms: Sides {
                red: round3(g.engine_ms.red),
                black: round3(g.engine_ms.black),
            },
            total_ms: round3(g.total_ms),
            moves: g.plies.iter().map(|p| p.text()).collect(),
            search: g
                .plies
                .iter()
                .map(|p| PlyInfo {
                    nodes: p.info.nodes,
                    ms: Some(round3(p.ms)),
                    depth: p.info.depth,
                    score: p.info.score.map(|s| s.to_string()),
                    pv: p.info.pv.iter().map(|m| m.to_string()).collect(),
                })
                .collect(),
        }
    }

    /// The winner.
    pub fn winner(&self) -> Option<Color> {
        self.result.winner()
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Header of `games.csv`.
pub const CSV_HEADER: [&str; 14] = [
    "pair",
    "game",
    "seed",
    "red",
    "black",
    "result",
    "reason",
    "plies",
    "captures",
    "reveals",
    "nodes_red",
    "nodes_black",
    "ms_red",
    "ms_black",
];

/// The CSV row of a game.
pub fn csv_row(g: &GameLine) -> [String; 14] {
    [
        g.pair.to_string(),
        g.game.to_string(),
        g.seed.to_string(),
        g.red.clone(),
        g.black.clone(),
        g.result.text().to_string(),
        g.reason.name().to_string(),
        g.plies.to_string(),
        g.captures.to_string(),
        g.reveals.to_string(),
        g.nodes.red.to_string(),
        g.nodes.black.to_string(),
        format!("{:.3}", g.ms.red),
        format!("{:.3}", g.ms.black),
    ]
}

/// Writes `games.csv` (rows in the order given), atomically.
///
/// # Errors
/// I/O errors, naming the file.
pub fn write_csv<'a>(
    path: &Path,
    games: impl IntoIterator<Item = &'a GameLine>,
) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(CSV_HEADER)?;
    for g in games {
        w.write_record(csv_row(g))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    crate::journal::write_atomically(path, &bytes)
}

/// A results file that cannot be read back.
#[derive(Debug)]
pub struct RecordsError {
    /// File.
    pub path: String,
    /// 1-based line, if the problem is on one line.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl core::fmt::Display for RecordsError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}: {}", self.path, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for RecordsError {}

/// FNV-1a, 64 bits, of a text: stable across platforms and Rust versions (run fingerprints, and
/// the per-line checksum of `games.jsonl`).
pub(crate) fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A game as one line of `games.jsonl`: its JSON with a last field `"check"`, the FNV-1a hash of
/// the JSON without it, so that an edited or damaged line is found when the journal is read back.
///
/// # Errors
/// The game cannot be serialized.
pub fn checked_line(g: &GameLine) -> std::io::Result<String> {
    let mut text = serde_json::to_string(g).map_err(std::io::Error::other)?;
    let h = fnv(&text);
    text.pop();
    text.push_str(&format!(",\"check\":\"{h:016x}\"}}"));
    Ok(text)
}

/// Whether a line read back is the game its checksum was computed over: its `check` field (if
/// it has one: journals written before checksums have none) equals the hash of the game's JSON.
fn check_line(line: &str, g: &GameLine) -> Result<(), String> {
    let value: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let Some(check) = value.get("check") else {
        return Ok(());
    };
    let text = serde_json::to_string(g).map_err(|e| e.to_string())?;
    if check.as_str() == Some(format!("{:016x}", fnv(&text)).as_str()) {
        Ok(())
    } else {
        Err(format!(
            "its content does not match its checksum {check} (the line was edited or damaged; \
             delete the line to replay that pair)"
        ))
    }
}

/// Reads `games.jsonl`. A last line cut short by an interruption is dropped (and reported through
/// the returned flag); any other bad line is an error naming it.
///
/// # Errors
/// The file cannot be read, or a line other than the last is not a game record.
pub fn read_jsonl(path: &Path) -> Result<(Vec<GameLine>, bool), RecordsError> {
    let err = |line: Option<usize>, message: String| RecordsError {
        path: path.display().to_string(),
        line,
        message,
    };
    let file = std::fs::File::open(path).map_err(|e| err(None, format!("cannot open: {e}")))?;
    let lines: Vec<String> = std::io::BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| err(None, format!("cannot read: {e}")))?;
    let mut games = Vec::new();
    let mut truncated = false;
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameLine>(line) {
            Ok(g) => {
                check_line(line, &g).map_err(|m| err(Some(i + 1), m))?;
                games.push(g);
            }
            Err(e) if i + 1 == lines.len() && e.is_eof() => truncated = true,
            Err(e) => return Err(err(Some(i + 1), format!("not a game record: {e}"))),
        }
    }
    Ok((games, truncated))
}

/// The key of a pair: the first engine's label (Red in game 1), the second's, the pair index.
pub type PairKey = (String, String, u64);

/// Groups game lines into complete pairs (both games present), keyed by [`PairKey`].
pub fn complete_pairs(games: Vec<GameLine>) -> BTreeMap<PairKey, [GameLine; 2]> {
    let mut halves: BTreeMap<PairKey, [Option<GameLine>; 2]> = BTreeMap::new();
    for g in games {
        let key = match g.game {
            1 => (g.red.clone(), g.black.clone(), g.pair),
            2 => (g.black.clone(), g.red.clone(), g.pair),
            _ => continue,
        };
        let slot = &mut halves.entry(key).or_default()[g.game as usize - 1];
        *slot = Some(g);
    }
    halves
        .into_iter()
        .filter_map(|(k, [a, b])| Some((k, [a?, b?])))
        .collect()
}
