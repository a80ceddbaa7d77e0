//! Training data chunks (`.jqd`): labelled positions in a compact binary file, reader beside
//! writer. docs/data.md is the format's specification; this is its layout, field by field.
//!
//! A chunk is, all integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `JQD1` |
//! | 2 | format version ([`VERSION`]) |
//! | 2 | record size in bytes ([`RECORD_BYTES`]), so that a reader can refuse another layout |
//! | 4 | `h`: length of the header JSON, at most [`MAX_HEADER`] |
//! | h | header JSON: `{"rules": …}` (the rule set every position is under) |
//! | 4 | `g`: games, at most [`MAX_GAMES`] |
//! | 4 | `n`: positions, at most [`MAX_RECORDS`] |
//! | 16·g | the games: deal seed (u64), pair (u32), game of the pair (u8, 1 or 2), result for Red (u8: 2 win, 1 draw, 0 loss), 2 zero bytes |
//! | 39·n | the positions ([`Record`]) |
//!
//! A position record (39 bytes) is the position *as the side to move sees it*: its hidden
//! pieces hidden and the pools its view has (the fair engine's evaluation input):
//!
//! | bytes | field |
//! |---|---|
//! | 12 | occupied squares: bit `i` (of the 96, little-endian) for square index `i` < 90 |
//! | 16 | one nibble per occupied square in square order, low nibble first: 0–6 a red piece by role index (R N B A K C P), 7–13 a black one, 14 a red hidden piece, 15 a black one; unused nibbles 0 |
//! | 4 | pools (u32): Red's in bits 0–13, Black's in 14–27, each role's count in its own bits (R 2, N 2, B 2, A 2, K 1, C 2, P 3, in that order); bit 28 the side to move (1: Black); bits 29–31 zero |
//! | 2 | label score (i16), centipawns for the side to move; a mate in `m` moves is ±(30000 − m) |
//! | 1 | label depth (u8) |
//! | 2 | game (u16): index into the games |
//! | 2 | ply (u16): plies played before the position |
//!
//! The no-capture count and move number are not stored (the evaluation does not read them): a
//! position reads back with 0 and 1. Reading checks everything: the file's size (at most
//! [`MAX_CHUNK_BYTES`]) against the counts, each record's fields, and the position's legality;
//! a fault is a [`DataError`] naming the file and the record.

use std::path::{Path, PathBuf};

use jieqi_core::{ByColor, Color, Occupant, Piece, Pool, Position, Role, Rules, Setup, Square};

use crate::records::GameResult;

/// The magic bytes a chunk starts with.
pub const MAGIC: &[u8; 4] = b"JQD1";

/// The format version this code reads and writes.
pub const VERSION: u16 = 1;

/// Bytes of one position record.
pub const RECORD_BYTES: usize = 39;

/// Bytes of one game entry.
pub const GAME_BYTES: usize = 16;

/// The longest header JSON.
pub const MAX_HEADER: usize = 64 * 1024;

/// The most games in a chunk (a record's game index is a u16).
pub const MAX_GAMES: usize = 65_535;

/// The largest chunk file: 20 MB.
pub const MAX_CHUNK_BYTES: u64 = 20_000_000;

/// The most positions in a chunk (what fits in [`MAX_CHUNK_BYTES`]).
pub const MAX_RECORDS: usize = 500_000;

/// A label score's mate base: a mate in `m` moves is stored as ±(`MATE` − m).
pub const MATE: i16 = 30_000;

/// Bits of each role's count in a pool, in role order (R N B A K C P).
const POOL_BITS: [u32; 7] = [2, 2, 2, 2, 1, 2, 3];

/// One game of a chunk: where its positions come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The deal seed of the game (`games.jsonl`'s `seed`).
    pub seed: u64,
    /// The pair of its run.
    pub pair: u32,
    /// Which game of the pair (1 or 2).
    pub game: u8,
    /// The result.
    pub result: GameResult,
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position as the side to move sees it.
    pub position: Position,
    /// The label search's score, centipawns for the side to move (mates as [`MATE`] says).
    pub score: i16,
    /// The label search's depth.
    pub depth: u8,
    /// Index of the game in [`Chunk::games`].
    pub game: u16,
    /// Plies played before the position.
    pub ply: u16,
}

/// A chunk: its rules, games and positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// The rules every position is under.
    pub rules: Rules,
    /// The games.
    pub games: Vec<GameInfo>,
    /// The positions.
    pub records: Vec<Record>,
}

/// What is wrong with a chunk, or why it could not be written.
#[derive(Debug)]
pub enum DataError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The file is not a chunk this code reads, or is cut short.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The record at fault (1-based), if one is.
        record: Option<usize>,
        /// What is wrong.
        what: String,
    },
    /// A position or game that the format cannot hold (when writing).
    Unfit {
        /// The record (1-based), if one is at fault.
        record: Option<usize>,
        /// What does not fit.
        what: String,
    },
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DataError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            DataError::Corrupt { path, record, what } => match record {
                Some(r) => write!(f, "{}: record {r}: {what}", path.display()),
                None => write!(f, "{}: {what}", path.display()),
            },
            DataError::Unfit { record, what } => match record {
                Some(r) => write!(f, "position {r}: {what}"),
                None => f.write_str(what),
            },
        }
    }
}

impl std::error::Error for DataError {}

impl From<DataError> for crate::error::Error {
    fn from(e: DataError) -> Self {
        match e {
            DataError::Io { .. } => crate::error::Error::Write(e.to_string()),
            _ => crate::error::Error::Input(e.to_string()),
        }
    }
}

/// The nibble of an occupant.
fn nibble(o: Occupant) -> u8 {
    match o {
        Occupant::Revealed(p) => p.role as u8 + 7 * p.color.index() as u8,
        Occupant::Hidden(c) => 14 + c.index() as u8,
    }
}

/// The occupant of a nibble.
fn occupant(n: u8) -> Occupant {
    match n {
        14 => Occupant::Hidden(Color::Red),
        15 => Occupant::Hidden(Color::Black),
        _ => Occupant::Revealed(Piece {
            color: if n < 7 { Color::Red } else { Color::Black },
            role: Role::ALL[usize::from(n % 7)],
        }),
    }
}

/// A pool's bits, or `None` when a count does not fit its field.
fn pool_bits(pool: &Pool) -> Option<u32> {
    let mut bits = 0u32;
    let mut at = 0;
    for (i, width) in POOL_BITS.iter().enumerate() {
        let n = u32::from(pool.0[i]);
        if n >= 1 << width {
            return None;
        }
        bits |= n << at;
        at += width;
    }
    Some(bits)
}

/// The pool of 14 bits.
fn pool_of(bits: u32) -> Pool {
    let mut pool = Pool::EMPTY;
    let mut at = 0;
    for (i, width) in POOL_BITS.iter().enumerate() {
        pool.0[i] = ((bits >> at) & ((1 << width) - 1)) as u8;
        at += width;
    }
    pool
}

/// Appends the record's 39 bytes to `out`.
///
/// # Errors
/// More than 32 pieces, or a pool count that does not fit its field.
pub fn encode(r: &Record, out: &mut Vec<u8>) -> Result<(), String> {
    let pos = &r.position;
    let mut occupied = [0u8; 12];
    let mut pieces = [0u8; 16];
    let mut count = 0usize;
    for sq in Square::all() {
        let Some(o) = pos.occupant(sq) else { continue };
        if count == 32 {
            return Err("more than 32 pieces".into());
        }
        occupied[sq.index() / 8] |= 1 << (sq.index() % 8);
        pieces[count / 2] |= nibble(o) << (4 * (count % 2));
        count += 1;
    }
    let pools = pos.pools();
    let (Some(red), Some(black)) = (pool_bits(&pools.red), pool_bits(&pools.black)) else {
        return Err("a pool count beyond the standard material".into());
    };
    let word = red | black << 14 | u32::from(pos.turn() == Color::Black) << 28;
    out.extend_from_slice(&occupied);
    out.extend_from_slice(&pieces);
    out.extend_from_slice(&word.to_le_bytes());
    out.extend_from_slice(&r.score.to_le_bytes());
    out.push(r.depth);
    out.extend_from_slice(&r.game.to_le_bytes());
    out.extend_from_slice(&r.ply.to_le_bytes());
    Ok(())
}

/// Reads a record from its 39 bytes under `rules`.
///
/// # Errors
/// What is wrong with it: stray bits, an illegal position.
pub fn decode(b: &[u8; RECORD_BYTES], rules: &Rules) -> Result<Record, String> {
    if b[11] & 0xFC != 0 {
        return Err("occupancy bits beyond square 89".into());
    }
    let mut setup = Setup::empty();
    let mut count = 0usize;
    for i in 0..90 {
        if b[i / 8] >> (i % 8) & 1 == 1 {
            let n = b[12 + count / 2] >> (4 * (count % 2)) & 15;
            setup.set(Square::from_index(i), Some(occupant(n)));
            count += 1;
        }
    }
    if count > 32 {
        return Err(format!("{count} occupied squares (at most 32)"));
    }
    if (count..32).any(|k| b[12 + k / 2] >> (4 * (k % 2)) & 15 != 0) {
        return Err("piece codes beyond the occupied squares".into());
    }
    let word = u32::from_le_bytes([b[28], b[29], b[30], b[31]]);
    if word >> 29 != 0 {
        return Err("reserved bits set".into());
    }
    setup.pools = Some(ByColor {
        red: pool_of(word & 0x3FFF),
        black: pool_of(word >> 14 & 0x3FFF),
    });
    setup.turn = if word >> 28 & 1 == 1 {
        Color::Black
    } else {
        Color::Red
    };
    let position = Position::from_setup(&setup, rules).map_err(|e| format!("{e}"))?;
    Ok(Record {
        position,
        score: i16::from_le_bytes([b[32], b[33]]),
        depth: b[34],
        game: u16::from_le_bytes([b[35], b[36]]),
        ply: u16::from_le_bytes([b[37], b[38]]),
    })
}

/// The result's byte.
fn result_byte(r: GameResult) -> u8 {
    match r {
        GameResult::RedWins => 2,
        GameResult::Draw => 1,
        GameResult::BlackWins => 0,
    }
}

/// The chunk's bytes.
///
/// # Errors
/// Too many games or positions, a record naming no game, a position the format cannot hold.
pub fn to_bytes(chunk: &Chunk) -> Result<Vec<u8>, DataError> {
    let unfit = |record, what: String| DataError::Unfit { record, what };
    if chunk.games.len() > MAX_GAMES || chunk.records.len() > MAX_RECORDS {
        return Err(unfit(
            None,
            format!(
                "{} games and {} positions: a chunk holds at most {MAX_GAMES} and {MAX_RECORDS}",
                chunk.games.len(),
                chunk.records.len()
            ),
        ));
    }
    let header = serde_json::json!({ "rules": chunk.rules }).to_string();
    let mut out = Vec::with_capacity(
        24 + header.len() + GAME_BYTES * chunk.games.len() + RECORD_BYTES * chunk.records.len(),
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(RECORD_BYTES as u16).to_le_bytes());
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&(chunk.games.len() as u32).to_le_bytes());
    out.extend_from_slice(&(chunk.records.len() as u32).to_le_bytes());
    for g in &chunk.games {
        out.extend_from_slice(&g.seed.to_le_bytes());
        out.extend_from_slice(&g.pair.to_le_bytes());
        out.extend_from_slice(&[g.game, result_byte(g.result), 0, 0]);
    }
    for (i, r) in chunk.records.iter().enumerate() {
        if usize::from(r.game) >= chunk.games.len() {
            return Err(unfit(
                Some(i + 1),
                format!("game {} of {}", r.game, chunk.games.len()),
            ));
        }
        encode(r, &mut out).map_err(|m| unfit(Some(i + 1), m))?;
    }
    Ok(out)
}

/// Writes a new chunk at `path`, atomically; an existing file there is never replaced.
///
/// # Errors
/// The chunk does not fit the format, the file exists, or the write fails.
pub fn write_chunk(path: &Path, chunk: &Chunk) -> Result<Vec<u8>, DataError> {
    let bytes = to_bytes(chunk)?;
    crate::records::files::write_new(path, &bytes).map_err(|source| DataError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(bytes)
}

/// Reads the chunk at `path`.
///
/// # Errors
/// The file cannot be read, is larger than [`MAX_CHUNK_BYTES`], or is not a whole, valid chunk.
pub fn read_chunk(path: &Path) -> Result<Chunk, DataError> {
    let io = |source| DataError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        // A pipe or device is never opened: reading it could wait for ever.
        return Err(corrupt(path, None, "not a regular file".into()));
    }
    let len = meta.len();
    if len > MAX_CHUNK_BYTES {
        return Err(corrupt(
            path,
            None,
            format!("{len} bytes: a chunk is at most {MAX_CHUNK_BYTES}"),
        ));
    }
    let bytes = std::fs::read(path).map_err(io)?;
    from_bytes(path, &bytes)
}

/// A [`DataError::Corrupt`].
fn corrupt(path: &Path, record: Option<usize>, what: String) -> DataError {
    DataError::Corrupt {
        path: path.to_path_buf(),
        record,
        what,
    }
}

/// A little-endian reader over a chunk's bytes that names what it was reading when they end.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    path: &'a Path,
}

impl<'a> Cursor<'a> {
    /// The next `n` bytes, for `what`.
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], DataError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(corrupt(
                self.path,
                None,
                format!(
                    "truncated: {} bytes end inside the {what}",
                    self.bytes.len()
                ),
            ));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    /// The next u32, for `what`.
    fn u32(&mut self, what: &str) -> Result<u32, DataError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The header up to the games: the rules, after the magic, version and record size are checked.
fn header(c: &mut Cursor<'_>) -> Result<Rules, DataError> {
    let path = c.path;
    if c.take(4, "magic")? != MAGIC {
        return Err(corrupt(
            path,
            None,
            "not a .jqd chunk (no JQD1 magic)".into(),
        ));
    }
    let v = c.take(4, "version")?;
    let (version, size) = (
        u16::from_le_bytes([v[0], v[1]]),
        u16::from_le_bytes([v[2], v[3]]),
    );
    if version != VERSION || usize::from(size) != RECORD_BYTES {
        return Err(corrupt(
            path,
            None,
            format!(
                "format version {version} with {size}-byte records: this arena reads version \
                 {VERSION} with {RECORD_BYTES}-byte records"
            ),
        ));
    }
    let h = c.u32("header length")? as usize;
    if h > MAX_HEADER {
        return Err(corrupt(
            path,
            None,
            format!("header of {h} bytes (at most {MAX_HEADER})"),
        ));
    }
    let text = c.take(h, "header")?;
    let json: serde_json::Value = serde_json::from_slice(text)
        .map_err(|e| corrupt(path, None, format!("header JSON: {e}")))?;
    let rules = json
        .get("rules")
        .cloned()
        .ok_or_else(|| corrupt(path, None, "header JSON: no rules".into()))?;
    serde_json::from_value(rules).map_err(|e| corrupt(path, None, format!("header rules: {e}")))
}

/// The games of the table.
fn games(c: &mut Cursor<'_>, count: usize) -> Result<Vec<GameInfo>, DataError> {
    let mut games = Vec::with_capacity(count);
    for i in 0..count {
        let b = c.take(GAME_BYTES, "games")?;
        let result = match b[13] {
            2 => GameResult::RedWins,
            1 => GameResult::Draw,
            0 => GameResult::BlackWins,
            other => {
                return Err(corrupt(
                    c.path,
                    None,
                    format!("game {}: result byte {other}", i + 1),
                ));
            }
        };
        if !(1..=2).contains(&b[12]) || b[14] != 0 || b[15] != 0 {
            return Err(corrupt(
                c.path,
                None,
                format!("game {}: bad game or reserved bytes", i + 1),
            ));
        }
        games.push(GameInfo {
            seed: u64::from_le_bytes(b[0..8].try_into().expect("8 bytes")),
            pair: u32::from_le_bytes(b[8..12].try_into().expect("4 bytes")),
            game: b[12],
            result,
        });
    }
    Ok(games)
}

/// Reads a chunk from its bytes; `path` names it in errors.
///
/// # Errors
/// Anything that is not a whole, valid chunk, naming the record at fault.
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Chunk, DataError> {
    let mut c = Cursor { bytes, at: 0, path };
    let rules = header(&mut c)?;
    let g = c.u32("game count")? as usize;
    let n = c.u32("position count")? as usize;
    if g > MAX_GAMES || n > MAX_RECORDS {
        return Err(corrupt(
            path,
            None,
            format!("{g} games and {n} positions (at most {MAX_GAMES} and {MAX_RECORDS})"),
        ));
    }
    let expected = c.at + g * GAME_BYTES + n * RECORD_BYTES;
    if bytes.len() < expected {
        let whole = bytes.len().saturating_sub(c.at + g * GAME_BYTES) / RECORD_BYTES;
        return Err(corrupt(
            path,
            Some(whole + 1),
            format!(
                "truncated: {} bytes where {g} games and {n} positions take {expected}",
                bytes.len()
            ),
        ));
    }
    if bytes.len() > expected {
        return Err(corrupt(
            path,
            None,
            format!(
                "{} bytes after the last of {n} positions",
                bytes.len() - expected
            ),
        ));
    }
    let games = games(&mut c, g)?;
    let mut records = Vec::with_capacity(n);
    for i in 0..n {
        let b: &[u8; RECORD_BYTES] = c
            .take(RECORD_BYTES, "positions")?
            .try_into()
            .expect("a record's bytes");
        let r = decode(b, &rules).map_err(|m| corrupt(path, Some(i + 1), m))?;
        if usize::from(r.game) >= g {
            return Err(corrupt(
                path,
                Some(i + 1),
                format!("game {} of {g}", r.game),
            ));
        }
        records.push(r);
    }
    Ok(Chunk {
        rules,
        games,
        records,
    })
}

/// A label score's centipawns (mates as ±10 000, as the tuner takes recorded mates).
pub fn score_cp(score: i16) -> f64 {
    if score.unsigned_abs() >= MATE.unsigned_abs() - 1000 {
        10_000.0 * f64::from(score.signum())
    } else {
        f64::from(score)
    }
}

/// A search score as a label score: centipawns clamped to ±20000, a mate in `m` as ±(30000 − m).
pub fn label_score(score: Option<jieqi_engine::Score>) -> i16 {
    use jieqi_engine::Score;
    match score {
        None => 0,
        Some(Score::Cp(cp)) => cp.clamp(-20_000, 20_000) as i16,
        Some(Score::Mate(m)) => {
            // At most 999 moves, so that a mate stays beyond any centipawn label.
            let moves = m.unsigned_abs().min(999) as i16;
            if m > 0 { MATE - moves } else { -(MATE - moves) }
        }
        Some(Score::WinRate(w)) => Score::win_rate_cp(w) as i16,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunk of the start position as each side sees it, and one with emptier pools.
    fn chunk() -> Chunk {
        let rules = Rules::standard();
        let start = Position::start(&rules);
        let mut setup = start.to_setup();
        setup.turn = Color::Black;
        let black = Position::from_setup(&setup, &rules).unwrap();
        let record = |position, score, game| Record {
            position,
            score,
            depth: 7,
            game,
            ply: 300,
        };
        Chunk {
            rules,
            games: vec![GameInfo {
                seed: u64::MAX,
                pair: u32::MAX,
                game: 2,
                result: GameResult::Draw,
            }],
            records: vec![record(start, -MATE + 3, 0), record(black, 123, 0)],
        }
    }

    #[test]
    fn a_chunk_reads_back_as_written_and_its_size_is_the_layout() {
        let c = chunk();
        let bytes = to_bytes(&c).unwrap();
        let h = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
        assert_eq!(bytes.len(), 12 + h + 8 + GAME_BYTES + 2 * RECORD_BYTES);
        assert_eq!(from_bytes(Path::new("c.jqd"), &bytes).unwrap(), c);
    }

    #[test]
    fn pools_keep_every_count_their_bits_hold_and_refuse_more() {
        assert_eq!(pool_of(pool_bits(&Pool::FULL).unwrap()), Pool::FULL);
        assert_eq!(
            pool_of(pool_bits(&Pool([3, 3, 3, 3, 1, 3, 7])).unwrap()).0,
            [3, 3, 3, 3, 1, 3, 7]
        );
        assert_eq!(pool_bits(&Pool([0, 0, 0, 0, 2, 0, 0])), None);
        assert_eq!(pool_bits(&Pool([0, 0, 0, 0, 0, 0, 8])), None);
        for n in 0..16 {
            assert_eq!(nibble(occupant(n)), n);
        }
    }

    #[test]
    fn label_scores_keep_mates_beyond_centipawns() {
        use jieqi_engine::Score;
        assert_eq!(label_score(Some(Score::Mate(3))), MATE - 3);
        assert_eq!(label_score(Some(Score::Mate(-2))), -(MATE - 2));
        assert_eq!(label_score(Some(Score::Cp(-99_999))), -20_000);
        assert_eq!(label_score(None), 0);
        assert_eq!(score_cp(MATE - 3), 10_000.0);
        assert_eq!(score_cp(-(MATE - 3)), -10_000.0);
        assert_eq!(score_cp(-20_000), -20_000.0);
    }

    #[test]
    fn a_record_naming_no_game_is_not_written() {
        let mut c = chunk();
        c.records[1].game = 1;
        let e = to_bytes(&c).unwrap_err().to_string();
        assert_eq!(e, "position 2: game 1 of 1");
    }
}
