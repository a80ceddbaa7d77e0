//! A few games of a journal found without reading the others: `arena view`, `replay`, `analyze`
//! and `export` show one game (or a list) of a folder whose `games.jsonl` may hold 10^5 pairs.
//! Every line's head is read (`{"fingerprint":"…","pair":P,"game":G,`, as this arena writes
//! it) and the rest of a line is skipped unread unless its game is asked for, so the memory is a
//! line's and the time is the time to skim the file. A line whose head is not in that form is
//! read whole, as [`crate::records::for_each_line`] reads it.

use std::collections::{BTreeMap, BTreeSet};
use std::io::BufRead;
use std::path::Path;

use crate::records::{GameLine, MAX_JOURNAL_LINE, RecordsError, check_line};

/// The bytes of a line read before deciding whether to read the rest: enough for the head of a
/// line this arena writes (a fingerprint of 16 hex digits, two numbers).
const HEAD: usize = 128;

/// A game of a journal: pair index and game (1 or 2).
pub type GameKey = (u64, u8);

/// What [`find_games`] found.
#[derive(Debug, Default)]
pub struct Found {
    /// Each game asked for that the journal holds, with the 1-based number of its line (0 when
    /// it was found by bisection, which does not count lines).
    pub games: BTreeMap<GameKey, (usize, GameLine)>,
    /// Whether the last line was cut short by an interruption (only known when some game asked
    /// for was not found: the search stops when all are).
    pub truncated: bool,
}

/// The pair and game a line's head names, when it is in the form this arena writes:
/// `{"fingerprint":"<no quote or backslash>","pair":<digits>,"game":<digits>,`.
fn head_key(head: &[u8]) -> Option<GameKey> {
    let rest = head.strip_prefix(b"{\"fingerprint\":\"")?;
    let end = rest.iter().position(|&b| b == b'"' || b == b'\\')?;
    let rest = rest[end..].strip_prefix(b"\",\"pair\":")?;
    let (pair, rest) = number(rest)?;
    let rest = rest.strip_prefix(b",\"game\":")?;
    let (game, rest) = number(rest)?;
    rest.starts_with(b",")
        .then(|| Some((pair, u8::try_from(game).ok()?)))
        .flatten()
}

/// A decimal number at the start of `bytes` (no sign, no leading zero but `0` itself) and what
/// follows it.
fn number(bytes: &[u8]) -> Option<(u64, &[u8])> {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || (digits > 1 && bytes[0] == b'0') {
        return None;
    }
    let text = std::str::from_utf8(&bytes[..digits]).ok()?;
    Some((text.parse().ok()?, &bytes[digits..]))
}

/// Finds the games `wanted` in the journal at `path`, reading only the heads of the other lines
/// ([`head_key`]). A finished run's journal is in job order, so each game is sought first by
/// bisection over byte offsets (a few dozen heads read); what that does not find is sought by
/// reading the file from its start, which stops as soon as every game is found. A line read whole (a wanted
/// game's, or one whose head is not in this arena's form) is checked as
/// [`crate::records::for_each_line`] checks it — UTF-8, at most [`MAX_JOURNAL_LINE`] bytes, a
/// game record, its checksum — and a last line cut short is passed over and reported.
///
/// # Errors
/// The file cannot be read, or a line read whole is bad (not the last one cut short); the error
/// names the file and line.
pub fn find_games(path: &Path, wanted: &BTreeSet<GameKey>) -> Result<Found, RecordsError> {
    let mut found = Found::default();
    // A finished run's journal is in job order: each game is found by bisection first.
    for &key in wanted {
        if let Some(g) = bisect_game(path, key)? {
            found.games.insert(key, g);
        }
    }
    if found.games.len() == wanted.len() {
        return Ok(found);
    }
    let rest: BTreeSet<GameKey> = wanted
        .iter()
        .filter(|k| !found.games.contains_key(k))
        .copied()
        .collect();
    let mut scanned = scan(path, &rest)?;
    scanned.games.append(&mut found.games);
    Ok(scanned)
}

/// The start and key of the first line of `file` that starts at or after byte `at`, if its head
/// is in this arena's form ([`head_key`]); `None` at the end of the file or for another head.
fn probe(file: &mut std::fs::File, at: u64) -> std::io::Result<Option<(u64, GameKey)>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut reader = std::io::BufReader::with_capacity(4096, &mut *file);
    let mut start = at;
    if at > 0 {
        reader.seek(SeekFrom::Start(at - 1))?;
        let mut before = [0u8; 1];
        reader.read_exact(&mut before)?;
        if before[0] != b'\n' {
            start += reader.skip_until(b'\n')? as u64;
        }
    } else {
        reader.seek(SeekFrom::Start(0))?;
    }
    let mut head = Vec::with_capacity(HEAD);
    reader.take(HEAD as u64).read_until(b'\n', &mut head)?;
    Ok(head_key(&head).map(|k| (start, k)))
}

/// Game `key`'s line found by bisection over the byte offsets of the journal at `path`, read
/// whole and checked, with its line number unknown (0); `None` when bisection does not find it
/// (it is not there, or the journal is not in job order, or a head is not in this arena's form).
fn bisect_game(path: &Path, key: GameKey) -> Result<Option<(usize, GameLine)>, RecordsError> {
    use std::io::{Read, Seek, SeekFrom};
    let err = |message: String| RecordsError {
        path: path.display().to_string(),
        line: None,
        message,
    };
    let cannot = |e: std::io::Error| err(format!("cannot read: {e}"));
    let mut file = crate::records::files::open_regular(path).map_err(|e| err(e.to_string()))?;
    let (mut lo, mut hi) = (0u64, file.metadata().map_err(cannot)?.len());
    // The line sought starts in [lo, hi).
    let start = loop {
        if lo >= hi {
            return Ok(None);
        }
        let mid = lo + (hi - lo) / 2;
        match probe(&mut file, mid).map_err(cannot)? {
            Some((start, k)) if start < hi && k == key => break start,
            Some((start, k)) if start < hi && k < key => lo = start + 1,
            Some((start, _)) if start < hi => hi = mid,
            // No line starts in [mid, hi): the one sought starts before.
            None if mid + 1 >= hi => return Ok(None),
            Some(_) => hi = mid,
            // A head not in this arena's form: the scan reads it.
            None => return Ok(None),
        }
    };
    file.seek(SeekFrom::Start(start)).map_err(cannot)?;
    let mut bytes = Vec::new();
    std::io::BufReader::new(file)
        .take(MAX_JOURNAL_LINE as u64 + 1)
        .read_until(b'\n', &mut bytes)
        .map_err(cannot)?;
    let at = |m: String| err(format!("the line at byte {start}: {m}"));
    if bytes.len() > MAX_JOURNAL_LINE {
        return Err(at(format!(
            "longer than {MAX_JOURNAL_LINE} bytes: not a game record"
        )));
    }
    let line = std::str::from_utf8(&bytes).map_err(|_| {
        at("not UTF-8 text (the line was damaged; delete it to replay that pair)".into())
    })?;
    match serde_json::from_str::<GameLine>(line) {
        Ok(g) if (g.pair, g.game) == key => {
            check_line(line, &g).map_err(|e| at(e.to_string()))?;
            Ok(Some((0, g)))
        }
        // Its head said otherwise: the scan reads it as a whole.
        Ok(_) => Ok(None),
        // A last line cut short is no game; the scan says so.
        Err(e) if e.is_eof() => Ok(None),
        Err(e) => Err(at(format!("not a game record: {e}"))),
    }
}

/// [`find_games`] by reading the journal from its start.
fn scan(path: &Path, wanted: &BTreeSet<GameKey>) -> Result<Found, RecordsError> {
    use std::io::Read;
    let err = |line: Option<usize>, message: String| RecordsError {
        path: path.display().to_string(),
        line,
        message,
    };
    let mut reader = crate::records::games::open_journal(path)?;
    let mut found = Found::default();
    let mut bytes = Vec::with_capacity(HEAD);
    // A line that does not parse, kept until the next line shows it was not the last.
    let mut pending: Option<(usize, String)> = None;
    for number in 1.. {
        if found.games.len() == wanted.len() {
            return Ok(found);
        }
        let cannot = |e: std::io::Error| err(Some(number), format!("cannot read: {e}"));
        bytes.clear();
        let n = reader
            .by_ref()
            .take(HEAD as u64)
            .read_until(b'\n', &mut bytes)
            .map_err(cannot)?;
        if n == 0 {
            break;
        }
        if head_key(&bytes).is_some_and(|k| !wanted.contains(&k)) {
            // Another game's line: skipped unread (cut short or not, it is not a game asked
            // for).
            if !bytes.ends_with(b"\n") {
                reader.skip_until(b'\n').map_err(cannot)?;
            }
            continue;
        }
        if !bytes.ends_with(b"\n") {
            reader
                .by_ref()
                .take((MAX_JOURNAL_LINE + 1 - bytes.len()) as u64)
                .read_until(b'\n', &mut bytes)
                .map_err(cannot)?;
        }
        let Some((line, g)) =
            crate::records::games::journal_line(path, number, &bytes, &mut pending)?
        else {
            continue;
        };
        let key = (g.pair, g.game);
        if wanted.contains(&key) && !found.games.contains_key(&key) {
            check_line(line, &g).map_err(|e| err(Some(number), e.to_string()))?;
            found.games.insert(key, (number, g));
        }
    }
    found.truncated |= pending.is_some();
    Ok(found)
}

/// Finds game `game` of pair `pair` ([`find_games`] of one game): its line's number and the
/// game, or `None`, and whether the last line was cut short.
///
/// # Errors
/// As [`find_games`].
pub fn find_game(
    path: &Path,
    pair: u64,
    game: u8,
) -> Result<(Option<(usize, GameLine)>, bool), RecordsError> {
    let mut found = find_games(path, &BTreeSet::from([(pair, game)]))?;
    Ok((found.games.remove(&(pair, game)), found.truncated))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::records::games::tests::line;

    /// A game whose fingerprint has the length of a run's, as the heads are read.
    fn game(pair: u64, n: u8) -> GameLine {
        GameLine {
            fingerprint: "0123456789abcdef".into(),
            ..crate::records::games::tests::game(pair, n)
        }
    }

    fn journal(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        crate::records::games::tests::journal(&format!("lookup-{name}"), bytes)
    }

    #[test]
    fn heads_name_their_game() {
        let l = line(&game(18, 2));
        assert_eq!(head_key(&l[..HEAD]), Some((18, 2)));
        assert_eq!(
            head_key(b"{\"fingerprint\":\"f\",\"pair\":07,\"game\":1,"),
            None
        );
        assert_eq!(head_key(b"{\"pair\":7,\"game\":1,"), None);
        assert_eq!(
            head_key(b"{\"fingerprint\":\"f\",\"pair\":7,\"game\":1"),
            None
        );
    }

    /// One game is shown without reading the other lines: their heads say which game they are,
    /// and the rest of them (here garbage, that reading the whole journal refuses) is skipped.
    /// It used to be read whole (about 7 times the journal's size in memory).
    #[test]
    fn one_game_is_found_without_reading_the_other_lines() {
        let mut bytes = line(&game(0, 1));
        bytes.extend(b"{\"fingerprint\":\"0123456789abcdef\",\"pair\":0,\"game\":2,garbage\n");
        bytes.extend(line(&game(1, 1)));
        bytes.extend(b"{\"fingerprint\":\"0123456789abcdef\",\"pair\":1,\"game\":2,\xff\xfe\n");
        let path = journal("skim", &bytes);
        assert!(crate::records::read_jsonl(&path).is_err());
        let (g, truncated) = find_game(&path, 1, 1).unwrap();
        let (_, g) = g.expect("game 1 of pair 1");
        assert_eq!((g.pair, g.game, truncated), (1, 1, false));
        // The line asked for is read and checked whole.
        let e = find_game(&path, 1, 2).unwrap_err();
        assert!(e.message.contains("not UTF-8"), "{e}");
        let e = find_game(&path, 0, 2).unwrap_err();
        assert!(e.message.contains("not a game record"), "{e}");
        // A journal out of job order (an interrupted run's: finishing order) is read from its
        // start when bisection misses, and the line is numbered.
        let mut unordered = Vec::new();
        for (p, n) in [(2, 1), (2, 2), (0, 1), (3, 1), (0, 2), (1, 1)] {
            unordered.extend(line(&game(p, n)));
        }
        let path = journal("unordered", &unordered);
        for (p, n) in [(2, 1), (2, 2), (0, 1), (3, 1), (0, 2), (1, 1)] {
            let (g, _) = find_game(&path, p, n).unwrap();
            let (_, g) = g.expect("there");
            assert_eq!((g.pair, g.game), (p, n));
        }
        let found = find_games(&path, &BTreeSet::from([(0, 2), (1, 1), (5, 1)])).unwrap();
        assert_eq!(found.games.len(), 2);
        assert_eq!(found.games[&(1, 1)].0, 6);
        // A game not there: none, and a cut-short last line is reported.
        let mut cut = line(&game(0, 1));
        let half = line(&game(0, 2));
        cut.extend(&half[..half.len() / 2]);
        let (g, truncated) = find_game(&journal("cut", &cut), 0, 2).unwrap();
        assert!(g.is_none());
        assert!(truncated);
        // An edited line (its checksum no longer its content) is refused.
        let mut edited = line(&game(0, 1));
        let text = String::from_utf8(edited.clone()).unwrap();
        edited = text.replace("\"seed\":7", "\"seed\":8").into_bytes();
        let e = find_game(&journal("edited", &edited), 0, 1).unwrap_err();
        assert!(e.message.contains("does not match its checksum"), "{e}");
    }
}
