//! Result files: one JSON line per game (`games.jsonl`, enough to replay) and one CSV row per game
//! (`games.csv`). Both are written in pair order at the end of a match; while it runs,
//! `games.jsonl` is an append-only journal in finishing order, which `--resume` reads back.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

use jieqi_core::Color;
use serde::{Deserialize, Serialize};

use crate::records::termination::Termination;

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
    /// The deal: for a game from the rules' start, each side's identities in deal order; from
    /// an opening, the identities of its hidden pieces in square order
    /// ([`crate::records::openings::deal_text`]).
    pub deal: DealText,
    /// The opening the game started from, as a FEN (a run with `--openings`); absent: the
    /// rules' start position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<String>,
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
    /// The winner.
    pub fn winner(&self) -> Option<Color> {
        self.result.winner()
    }

    /// Who made the first move: Red, or the side to move in the game's opening (a FEN's second
    /// field, `b` for Black).
    pub fn first_mover(&self) -> Color {
        match self
            .opening
            .as_deref()
            .and_then(|f| f.split_whitespace().nth(1))
        {
            Some("b") => Color::Black,
            _ => Color::Red,
        }
    }

    /// The full-move number of the game's first move: 1, or the opening FEN's sixth field
    /// (fifth of a Pikafish FEN).
    pub fn first_move_number(&self) -> u32 {
        self.opening
            .as_deref()
            .and_then(|f| f.split_whitespace().last())
            .and_then(|n| n.parse().ok())
            .unwrap_or(1)
    }
}

/// The first engine's half-points (0–4) in a pair.
pub fn half_points(pair: &[GameLine; 2]) -> u8 {
    use jieqi_core::Color;
    let of = |g: &GameLine, a: Color| match g.winner() {
        None => 1,
        Some(c) if c == a => 2,
        Some(_) => 0,
    };
    of(&pair[0], Color::Red) + of(&pair[1], Color::Black)
}

/// Header of `games.csv`. `number` is the game's number in its folder, as users say "game 37":
/// [`game_number`] of its job and game.
pub const CSV_HEADER: [&str; 15] = [
    "number",
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

/// The number of game `game` (1 or 2) of job `job` of a run: `2 × job + game`, so games 1 and 2
/// are pair 0's and the numbers follow the job order (in a match, job = pair). Stable across
/// resumes, shards and thread counts.
pub fn game_number(job: u64, game: u8) -> u64 {
    2 * job + u64::from(game)
}

/// The job and game (1 or 2) of a game number ([`game_number`] inverted); `None` for 0.
pub fn job_of_number(number: u64) -> Option<(u64, u8)> {
    let k = number.checked_sub(1)?;
    Some((k / 2, (k % 2) as u8 + 1))
}

/// The CSV row of game `g` of job `job`.
pub fn csv_row(job: u64, g: &GameLine) -> [String; 15] {
    [
        game_number(job, g.game).to_string(),
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

/// A game as one line of `games.jsonl` ([`checked_json`]).
///
/// # Errors
/// The game cannot be serialized.
pub fn checked_line(g: &GameLine) -> std::io::Result<String> {
    checked_json(g)
}

/// A journal line: `value`'s JSON with a last field `"check"`, the FNV-1a hash of the JSON
/// without it, so that an edited or damaged line is found when it is read back (a game's line,
/// [`checked_line`], and an [`crate::records::journal::ItemJournal`]'s).
///
/// # Errors
/// The value cannot be serialized (or is not a JSON object).
pub fn checked_json<T: serde::Serialize>(value: &T) -> std::io::Result<String> {
    let mut text = serde_json::to_string(value).map_err(std::io::Error::other)?;
    if !text.ends_with('}') {
        return Err(std::io::Error::other(
            "a journal line must be a JSON object",
        ));
    }
    let h = fnv(&text);
    text.pop();
    if !text.ends_with('{') {
        text.push(',');
    }
    text.push_str(&format!("\"check\":\"{h:016x}\"}}"));
    Ok(text)
}

/// Whether a line read back is the game its checksum was computed over: its `check` field (if
/// it has one: journals written before checksums have none) equals the hash of the game's JSON.
/// Returns whether the line has a checksum.
///
/// # Errors
/// The line is no JSON, or its checksum does not match ([`LineError`]).
pub(crate) fn check_line(line: &str, g: &GameLine) -> Result<bool, LineError> {
    // As this arena writes a line: the game's JSON, its last `}` replaced by
    // `,"check":"<16 hex digits>"}`; the hash of the text itself settles it without reading
    // the line again.
    let body = line.trim_end();
    if let Some(cut) = body
        .len()
        .checked_sub(28)
        .filter(|&c| body.is_char_boundary(c))
        && let (text, tail) = body.split_at(cut)
        && tail.starts_with(",\"check\":\"")
        && tail.ends_with("\"}")
        && format!("{:016x}", fnv(&format!("{text}}}"))) == tail[10..26]
    {
        return Ok(true);
    }
    let value: serde_json::Value = serde_json::from_str(line).map_err(LineError::Json)?;
    let Some(check) = value.get("check") else {
        return Ok(false);
    };
    let text = serde_json::to_string(g).map_err(LineError::Json)?;
    if check.as_str() == Some(format!("{:016x}", fnv(&text)).as_str()) {
        Ok(true)
    } else {
        Err(LineError::Checksum(check.to_string()))
    }
}

/// Why a line read back is not the game it holds ([`check_line`]).
#[derive(Debug)]
pub(crate) enum LineError {
    /// The line is no JSON.
    Json(serde_json::Error),
    /// Its `check` field (as written, quoted) does not match its content.
    Checksum(String),
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::Json(e) => write!(f, "{e}"),
            LineError::Checksum(check) => write!(
                f,
                "its content does not match its checksum {check} (the line was edited or \
                 damaged; delete the line to replay that pair)"
            ),
        }
    }
}

/// The longest line `games.jsonl` may hold: 16 MiB (a game of 10,000 plies with long PVs takes a
/// few MiB).
pub const MAX_JOURNAL_LINE: usize = 16 << 20;

/// Where a game's line is in its file: the byte offset of its first byte and its length, newline
/// included. Runs keep these instead of the games (a few bytes a pair) and read a game back when
/// they need it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// Byte offset of the line.
    pub offset: u64,
    /// Its length in bytes, with the newline.
    pub len: u64,
}

/// Opens a journal to read it line by line; the error names the file.
///
/// # Errors
/// The file cannot be opened, or is not a regular file.
pub(crate) fn open_journal(path: &Path) -> Result<std::io::BufReader<std::fs::File>, RecordsError> {
    let file = crate::records::files::open_regular(path).map_err(|e| RecordsError {
        path: path.display().to_string(),
        line: None,
        message: match e.kind() {
            std::io::ErrorKind::Other | std::io::ErrorKind::InvalidInput => e.to_string(),
            _ => format!("cannot open: {e}"),
        },
    })?;
    Ok(std::io::BufReader::with_capacity(1 << 16, file))
}

/// Reads line `number` of journal `path`, as read (`bytes`, its newline included unless it is
/// the last): `None` for a blank line or one cut short (kept in `pending`, an error only if a
/// line follows it: the last line of an interrupted append), else its text and game. A line that
/// follows a cut one, is longer than [`MAX_JOURNAL_LINE`], is not UTF-8 or is not a game record
/// is an error naming it. The checksum is the caller's to check.
///
/// # Errors
/// As said, naming the file and line.
pub(crate) fn journal_line<'a>(
    path: &Path,
    number: usize,
    bytes: &'a [u8],
    pending: &mut Option<(usize, String)>,
) -> Result<Option<(&'a str, GameLine)>, RecordsError> {
    let err = |line: usize, message: String| RecordsError {
        path: path.display().to_string(),
        line: Some(line),
        message,
    };
    if bytes.trim_ascii().is_empty() {
        return Ok(None);
    }
    if let Some((at, message)) = pending.take() {
        return Err(err(at, message));
    }
    if bytes.len() > MAX_JOURNAL_LINE {
        return Err(err(
            number,
            format!("longer than {MAX_JOURNAL_LINE} bytes: not a game record"),
        ));
    }
    let Ok(line) = std::str::from_utf8(bytes) else {
        let message =
            "not UTF-8 text (the line was damaged; delete it to replay that pair)".to_string();
        // Cut in the middle of a character: fine if it is the last line, as any other cut.
        if !bytes.ends_with(b"\n") {
            *pending = Some((number, message));
            return Ok(None);
        }
        return Err(err(number, message));
    };
    match serde_json::from_str::<GameLine>(line) {
        Ok(g) => Ok(Some((line, g))),
        // Cut short: fine if it is the last line (an interrupted append).
        Err(e) if e.is_eof() => {
            *pending = Some((number, format!("not a game record: {e}")));
            Ok(None)
        }
        Err(e) => Err(err(number, format!("not a game record: {e}"))),
    }
}

/// Reads `games.jsonl` line by line, in bounded memory, calling `each` with every game and where
/// its line is. A last line cut short by an interruption is passed over, whatever the cut left
/// (half a JSON value, half a multi-byte character), and reported through the returned flag; any
/// other bad line (not UTF-8, longer than [`MAX_JOURNAL_LINE`], not a game record, not matching
/// its checksum, a game recorded twice, or a line without a checksum in a journal whose other
/// lines have one) is an error naming it. A journal of older versions, with no checksum on any
/// line, still reads.
///
/// # Errors
/// The file cannot be read, a line other than the last is not a game record, or `each` fails.
pub fn for_each_line(
    path: &Path,
    mut each: impl FnMut(Span, GameLine) -> Result<(), RecordsError>,
) -> Result<bool, RecordsError> {
    for_each_numbered(path, |_, span, g| each(span, g))
}

/// [`for_each_line`], telling `each` the 1-based number of the game's line too.
fn for_each_numbered(
    path: &Path,
    mut each: impl FnMut(usize, Span, GameLine) -> Result<(), RecordsError>,
) -> Result<bool, RecordsError> {
    use std::io::Read;
    let err = |line: Option<usize>, message: String| RecordsError {
        path: path.display().to_string(),
        line,
        message,
    };
    let mut reader = open_journal(path)?;
    // Labels are interned: the key of every game seen is four numbers.
    let mut labels: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    let mut seen: std::collections::HashMap<(u32, u32, u64, u8), usize> =
        std::collections::HashMap::new();
    let mut bytes = Vec::new();
    let mut offset = 0u64;
    // A line that does not parse, kept until the next line shows it was not the last.
    let mut pending: Option<(usize, String)> = None;
    // Whether the journal's lines carry checksums, and the first line that said so.
    let mut checked: Option<(bool, usize)> = None;
    for number in 1.. {
        bytes.clear();
        let n = reader
            .by_ref()
            .take(MAX_JOURNAL_LINE as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| err(Some(number), format!("cannot read: {e}")))?;
        if n == 0 {
            break;
        }
        let span = Span {
            offset,
            len: n as u64,
        };
        offset += n as u64;
        let Some((line, g)) = journal_line(path, number, &bytes, &mut pending)? else {
            continue;
        };
        let has = check_line(line, &g).map_err(|e| err(Some(number), e.to_string()))?;
        match checked {
            None => checked = Some((has, number)),
            Some((with, first)) if with != has => {
                let (without, with) = if has {
                    (first, number)
                } else {
                    (number, first)
                };
                return Err(err(
                    Some(number),
                    format!(
                        "line {without} has no checksum while line {with} has one: this \
                         version writes a checksum on every line, and older versions on \
                         none, so a line without one among lines with one was edited \
                         (delete it to replay that pair)"
                    ),
                ));
            }
            Some(_) => {}
        }
        let mut id = |label: &str| {
            let next = labels.len() as u32;
            *labels.entry(label.to_string()).or_insert(next)
        };
        let key = (id(&g.red), id(&g.black), g.pair, g.game);
        if let Some(first) = seen.insert(key, number) {
            return Err(err(
                Some(number),
                format!(
                    "records pair {} game {} ({} vs {}) again, after line {first}: a \
                     journal holds each game once (delete the wrong line)",
                    g.pair, g.game, g.red, g.black
                ),
            ));
        }
        each(number, span, g)?;
    }
    Ok(pending.is_some())
}

/// Reads `games.jsonl` whole (see [`for_each_line`]): for the commands that look at a few games
/// (replay, export, tune); runs and merges read it by [`Span`].
///
/// # Errors
/// The file cannot be read, or a line other than the last is not a game record.
pub fn read_jsonl(path: &Path) -> Result<(Vec<GameLine>, bool), RecordsError> {
    let mut games = Vec::new();
    let truncated = for_each_line(path, |_, g| {
        games.push(g);
        Ok(())
    })?;
    Ok((games, truncated))
}

/// The complete pairs of `games.jsonl` (both games present), keyed by [`PairKey`], with where
/// their lines are; `check` sees every game first, with the number of its line (a fingerprint
/// test, a record check). Returns the pairs and whether the last line was cut short.
///
/// # Errors
/// As [`for_each_line`], or `check` fails.
pub fn pair_spans(
    path: &Path,
    mut check: impl FnMut(usize, &GameLine) -> Result<(), RecordsError>,
) -> Result<(BTreeMap<PairKey, [Span; 2]>, bool), RecordsError> {
    let mut halves: BTreeMap<PairKey, [Option<Span>; 2]> = BTreeMap::new();
    let truncated = for_each_numbered(path, |number, span, g| {
        check(number, &g)?;
        let key = match g.game {
            1 => (g.red, g.black, g.pair),
            2 => (g.black, g.red, g.pair),
            _ => return Ok(()),
        };
        halves.entry(key).or_default()[g.game as usize - 1] = Some(span);
        Ok(())
    })?;
    let pairs = halves
        .into_iter()
        .filter_map(|(k, [a, b])| Some((k, [a?, b?])))
        .collect();
    Ok((pairs, truncated))
}

/// Reads the games at `spans` back from an open `games.jsonl` (checked when it was first read).
///
/// # Errors
/// I/O errors, or bytes that are no longer a game record; the message names the file.
pub fn read_pair(
    file: &mut std::fs::File,
    path: &Path,
    spans: [Span; 2],
) -> std::io::Result<[GameLine; 2]> {
    let read = |file: &mut std::fs::File, s: Span| -> std::io::Result<GameLine> {
        use std::io::{Read, Seek, SeekFrom};
        let mut bytes = vec![0; s.len as usize];
        file.seek(SeekFrom::Start(s.offset))?;
        file.read_exact(&mut bytes)?;
        serde_json::from_slice(&bytes).map_err(|e| {
            std::io::Error::other(format!(
                "{}: at byte {}: not a game record: {e}",
                path.display(),
                s.offset
            ))
        })
    };
    Ok([read(file, spans[0])?, read(file, spans[1])?])
}

/// Copies the lines at `spans` of an open file to `out`, in the order given.
///
/// # Errors
/// I/O errors.
pub fn copy_spans(
    file: &mut std::fs::File,
    spans: impl IntoIterator<Item = Span>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut buf = Vec::new();
    for s in spans {
        buf.resize(s.len as usize, 0);
        file.seek(SeekFrom::Start(s.offset))?;
        file.read_exact(&mut buf)?;
        out.write_all(&buf)?;
    }
    Ok(())
}

/// A `games.csv` written row by row: [`CsvFile::pair`] adds both games of a pair, numbered by
/// [`game_number`] of their job in the whole run.
pub struct CsvFile {
    w: csv::Writer<crate::records::files::AtomicFile>,
    pairings: u64,
}

impl CsvFile {
    /// Starts `path` (replaced atomically at [`CsvFile::finish`]) for a run of `pairings`
    /// pairings.
    ///
    /// # Errors
    /// I/O errors, naming the file.
    pub fn create(path: &Path, pairings: u64) -> std::io::Result<CsvFile> {
        let mut w = csv::Writer::from_writer(crate::records::files::AtomicFile::create(path)?);
        w.write_record(CSV_HEADER)?;
        Ok(CsvFile { w, pairings })
    }

    /// Adds the pair of job `job` (the pairing is `job % pairings`).
    ///
    /// # Errors
    /// I/O errors.
    pub fn pair(&mut self, job: u64, pair: &[GameLine; 2]) -> std::io::Result<()> {
        for g in pair {
            let whole_run_job = g.pair * self.pairings + job % self.pairings;
            self.w.write_record(csv_row(whole_run_job, g))?;
        }
        Ok(())
    }

    /// Writes the file.
    ///
    /// # Errors
    /// I/O errors, naming the file.
    pub fn finish(self) -> std::io::Result<()> {
        self.w
            .into_inner()
            .map_err(|e| std::io::Error::other(e.to_string()))?
            .commit()
    }
}

/// Each complete pair of a `games.jsonl` that a run or merge just wrote (its two games on
/// consecutive lines, every line checked when it was first read), with the spans of its lines,
/// in file order. It trusts the file: no checksums, no duplicate test (use [`for_each_line`] for
/// a file from outside).
///
/// # Errors
/// The file cannot be read, a line is not a game record, or `each` fails; the message names the
/// file.
pub fn for_each_pair(
    path: &Path,
    mut each: impl FnMut([Span; 2], [GameLine; 2]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let named =
        |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let file = crate::records::files::open_regular(path).map_err(named)?;
    let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
    let mut bytes = Vec::new();
    let mut offset = 0u64;
    let mut first: Option<(Span, GameLine)> = None;
    loop {
        bytes.clear();
        let n = reader.read_until(b'\n', &mut bytes).map_err(named)?;
        if n == 0 {
            return Ok(());
        }
        let span = Span {
            offset,
            len: n as u64,
        };
        offset += n as u64;
        if bytes.trim_ascii().is_empty() {
            continue;
        }
        let g: GameLine = serde_json::from_slice(&bytes).map_err(|e| {
            named(std::io::Error::other(format!(
                "at byte {}: not a game record: {e}",
                span.offset
            )))
        })?;
        match first.take() {
            Some((s1, g1))
                if g1.game == 1 && g.game == 2 && g1.pair == g.pair && g1.red == g.black =>
            {
                each([s1, span], [g1, g])?;
            }
            _ => first = Some((span, g)),
        }
    }
}

/// The key of a pair: the first engine's label (Red in game 1), the second's, the pair index.
pub type PairKey = (String, String, u64);

/// Journal fixtures, shared by the records' tests.
#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Game `n` of pair `pair`, with no moves.
    pub(crate) fn game(pair: u64, n: u8) -> GameLine {
        GameLine {
            fingerprint: "f".into(),
            pair,
            game: n,
            seed: 7,
            red: "a".into(),
            black: "b".into(),
            deal: DealText {
                red: "RNBA".into(),
                black: "rnba".into(),
            },
            opening: None,
            result: GameResult::Draw,
            reason: Termination::MaxPlies,
            detail: None,
            plies: 0,
            captures: 0,
            reveals: 0,
            nodes: Sides::default(),
            ms: Sides::default(),
            total_ms: 0.0,
            moves: Vec::new(),
            search: Vec::new(),
        }
    }

    /// A journal of `bytes` in a folder of the test's own (`name`).
    pub(crate) fn journal(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("records-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.jsonl");
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// `g`'s journal line, newline included.
    pub(crate) fn line(g: &GameLine) -> Vec<u8> {
        let mut l = checked_line(g).unwrap().into_bytes();
        l.push(b'\n');
        l
    }

    #[test]
    fn game_numbers_follow_the_job_order() {
        assert_eq!(game_number(0, 1), 1);
        assert_eq!(game_number(0, 2), 2);
        assert_eq!(game_number(18, 1), 37);
        for n in 1..100 {
            let (job, g) = job_of_number(n).unwrap();
            assert_eq!(game_number(job, g), n);
        }
        assert_eq!(job_of_number(0), None);
    }

    #[test]
    fn journal_lines_are_checked_one_by_one() {
        let mut ok = line(&game(0, 1));
        ok.extend(line(&game(0, 2)));
        // A damaged line in the middle is named by its number, whatever the damage.
        let mut bytes = ok.clone();
        bytes.extend(b"{\"fingerprint\":\"f\xff\xfe\"}\n");
        bytes.extend(line(&game(1, 1)));
        let e = read_jsonl(&journal("utf8", &bytes)).unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.to_string().contains(":3: not UTF-8"), "{e}");
        // A line cut short is dropped when it is the last…
        let mut bytes = ok.clone();
        let cut = line(&game(1, 1));
        bytes.extend(&cut[..cut.len() / 2]);
        let (games, truncated) = read_jsonl(&journal("cut", &bytes)).unwrap();
        assert_eq!((games.len(), truncated), (2, true));
        // …(also when the cut fell just after a value, and blank lines follow)…
        let mut after_value = ok.clone();
        after_value.extend(b"{\"fingerprint\":\"f\",\n\n");
        let (games, truncated) = read_jsonl(&journal("cut-value", &after_value)).unwrap();
        assert_eq!((games.len(), truncated), (2, true));
        // …and an error anywhere else.
        bytes.extend(b"\n");
        bytes.extend(line(&game(1, 2)));
        let e = read_jsonl(&journal("cut-mid", &bytes)).unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        // A last line cut in the middle of a multi-byte character is dropped like any cut…
        let mut cut_char = ok.clone();
        cut_char.extend("{\"fingerprint\":\"揭".as_bytes());
        cut_char.pop();
        let (games, truncated) = read_jsonl(&journal("cut-char", &cut_char)).unwrap();
        assert_eq!((games.len(), truncated), (2, true));
        // …but not in the middle of the file.
        cut_char.extend(b"\n");
        cut_char.extend(line(&game(1, 1)));
        let e = read_jsonl(&journal("cut-char-mid", &cut_char)).unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        // A game recorded twice is refused, naming both lines.
        let mut twice = ok.clone();
        twice.extend(line(&game(0, 1)));
        let e = read_jsonl(&journal("twice", &twice)).unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.message.contains("again, after line 1"), "{e}");
        // Blank lines are skipped; an over-long line is refused without reading it all.
        let mut bytes = ok.clone();
        bytes.extend(b"\n");
        let (games, truncated) = read_jsonl(&journal("blank", &bytes)).unwrap();
        assert_eq!((games.len(), truncated), (2, false));
        bytes.extend(vec![b' '; MAX_JOURNAL_LINE]);
        bytes.extend(b"x\n");
        let e = read_jsonl(&journal("long", &bytes)).unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.contains("longer than"), "{e}");
    }

    /// A game's line as versions before checksums wrote it.
    fn unchecked(g: &GameLine) -> Vec<u8> {
        let mut l = serde_json::to_string(g).unwrap().into_bytes();
        l.push(b'\n');
        l
    }

    #[test]
    fn a_line_without_its_checksum_among_checked_lines_is_refused() {
        // Old journals (no line checked) still read.
        let mut old = unchecked(&game(0, 1));
        old.extend(unchecked(&game(0, 2)));
        let (games, _) = read_jsonl(&journal("old", &old)).unwrap();
        assert_eq!(games.len(), 2);
        // A checked journal with one line's checksum deleted (its result flipped, say) is not.
        let mut flipped = game(0, 2);
        flipped.result = GameResult::BlackWins;
        let mut mixed = line(&game(0, 1));
        mixed.extend(unchecked(&flipped));
        let e = read_jsonl(&journal("mixed", &mixed)).unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(
            e.message
                .contains("line 2 has no checksum while line 1 has one"),
            "{e}"
        );
        // Either order.
        let mut mixed = unchecked(&flipped);
        mixed.extend(line(&game(0, 1)));
        let e = read_jsonl(&journal("mixed-first", &mixed)).unwrap_err();
        assert!(
            e.message
                .contains("line 1 has no checksum while line 2 has one"),
            "{e}"
        );
    }
}
