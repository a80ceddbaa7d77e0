//! PGN, as `arena export` writes it and as the arena reads games back (`arena analyze`,
//! `--openings`).
//!
//! **Written** ([`write_game`]). The seven-tag roster (`White` is Red), then `Variant` (`jieqi`,
//! `xiangqi`, or the rules' name for a variant no protocol names), `SetUp "1"` and `FEN` (the
//! start position, hidden pieces as `X`/`x`), `Termination` (PGN's words: `normal`,
//! `adjudication`, `time forfeit`, `rules infraction`, `abandoned`), `PlyCount`, `TimeControl`
//! under a clock, and the arena's own `Number`, `Pair`, `Seed` and `Deal` (the true identities,
//! in deal order), and `Counted "no"` on a game the run did not count. Moves are in the
//! coordinate notation of the engine protocol, with the reveal and captured-identity letters
//! (`h2h9Rn`: the hidden h2 piece was a chariot and took a hidden horse), which is what a
//! Pikafish-dialect GUI sends its engines; each carries a comment `{score/depth time}` as
//! cutechess writes it (`{+0.35/12 0.007s}`, `{+M5/12 0.12s}`; see [`move_comment`]): the score
//! in pawns from the mover's point of view, a mate as `±M` and its plies. An MCTS engine's win
//! rate `w` (its expected score, draws counting half) is given in pawns on the Elo logistic the
//! arena rates with, `cp = 400 · log10(w / (1 − w))` ([`Score::win_rate_cp`], as `jieqi-uci`
//! reports it: 66.7 % is +1.21, clamped to ±12.00), and its depth is the deepest ply its tree
//! reached. The game ends with a comment giving the arena's termination.
//!
//! **Read** ([`each_pgn`], [`select_pgn`]): one game at a time in bounded memory, its tags
//! ([`parse_tag`]), its movetext ([`tokens`]) and cutechess's move comments ([`eval_comment`]).

use std::io::{BufRead, Read};

use jieqi_engine::Score;

use super::{FormatError, RecordedGame, centipawns};
use crate::records::PlyInfo;
use crate::records::termination::Termination;

/// The tag PGN games the run did not count carry.
pub const NOT_COUNTED_TAG: (&str, &str) = ("Counted", "no");

/// The longest line of a PGN file read.
pub const MAX_PGN_LINE: usize = 1 << 20;

/// The most text one PGN game may hold (its tag lines and movetext, line breaks counted).
pub const MAX_PGN_GAME: usize = 16 << 20;

/// The most tags one PGN game may have (`arena export` writes a dozen).
pub const MAX_PGN_TAGS: usize = 1000;

// Writing.

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
pub fn write_game(item: &RecordedGame<'_>) -> String {
    let line = item.line;
    let start = item.start_fen;
    let mut out = String::new();
    out.push_str(&tag("Event", &item.event));
    out.push_str(&tag("Site", "jieqi arena"));
    out.push_str(&tag("Date", item.date));
    out.push_str(&tag("Round", &item.number.to_string()));
    out.push_str(&tag("White", &line.red));
    out.push_str(&tag("Black", &line.black));
    out.push_str(&tag("Result", line.result.text()));
    out.push_str(&tag("Variant", &item.variant()));
    out.push_str(&tag("SetUp", "1"));
    out.push_str(&tag("FEN", start));
    out.push_str(&tag("Termination", pgn_termination(line.reason)));
    out.push_str(&tag("PlyCount", &line.moves.len().to_string()));
    if let Some(tc) = &item.time_control {
        out.push_str(&tag("TimeControl", tc));
    }
    out.push_str(&tag("Number", &item.number.to_string()));
    out.push_str(&tag("Pair", &line.pair.to_string()));
    out.push_str(&tag("Seed", &line.seed.to_string()));
    // A deal names the identities of the rules' start; a game from an opening has its seed.
    if item.rules.has_hidden() && line.opening.is_none() {
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
    out
}

/// Plies to the end of a mate in `moves` moves for the mover (negative: the mover is mated), as
/// UCI front ends count them: a mate in n is 2n − 1 plies, being mated in n is 2n.
fn mate_plies(moves: i32) -> i64 {
    let moves = i64::from(moves);
    if moves > 0 { 2 * moves - 1 } else { -2 * moves }
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

// Reading.

/// One game of a PGN file, as read: its tags and its movetext.
pub struct PgnText {
    /// Its tags, in file order.
    pub tags: Vec<(String, String)>,
    /// Its movetext.
    pub movetext: String,
    /// The `Number` tag, read.
    pub number: Option<u64>,
}

impl PgnText {
    /// The value of the tag `name`, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One tag line, `[Name "value"]` (`\"` and `\\` escaped in the value).
pub fn parse_tag(line: &str) -> Result<(String, String), FormatError> {
    let inner = line
        .trim()
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or("a tag line is [Name \"value\"]")?;
    let (name, rest) = inner
        .trim()
        .split_once(char::is_whitespace)
        .ok_or("a tag line is [Name \"value\"]")?;
    let quoted = rest
        .trim()
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| format!("tag {name}: its value is not in double quotes"))?;
    let mut value = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | '"')) => value.push(e),
                _ => return Err(format!("tag {name}: a backslash escapes only \\ or \"").into()),
            },
            '"' => return Err(format!("tag {name}: a quote inside the value must be \\\"").into()),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// Reads the PGN games of `reader` one at a time and returns the one `game` selects (see
/// `crate::analysis::import::study_from_file`) with its place in the file. No more than one game is held.
pub fn select_pgn(reader: impl BufRead, game: Option<u64>) -> Result<(PgnText, u64), FormatError> {
    let mut seen = 0u64;
    let mut numbers: Option<(u64, u64)> = None;
    let mut found: Option<(PgnText, u64)> = None;
    each_pgn(reader, |t, position| {
        seen += 1;
        if let Some(n) = t.number {
            numbers = Some(numbers.map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))));
        }
        match game {
            None if found.is_some() => Err(
                "holds several games: choose one with its Number tag (the game's number in its \
                 folder's games.csv), or its place in the file for games without one"
                    .into(),
            ),
            None => {
                found = Some((t, position));
                Ok(false)
            }
            Some(n) if t.number == Some(n) || (t.number.is_none() && position == n) => {
                found = Some((t, position));
                Ok(true)
            }
            Some(_) => Ok(false),
        }
    })?;
    match (game, found) {
        (_, Some(f)) => Ok(f),
        (None, None) => Err("holds no PGN game".into()),
        (Some(n), None) => Err(FormatError::Malformed(match numbers {
            Some((lo, hi)) => format!(
                "no game has the Number tag {n} (its {seen} game{} are numbered {lo} to {hi})",
                if seen == 1 { "" } else { "s" }
            ),
            None => format!(
                "no game {n}: it holds {seen} game{}",
                if seen == 1 { "" } else { "s" }
            ),
        })),
    }
}

/// Reads the PGN games of `reader` one at a time, in bounded memory (a line at most
/// [`MAX_PGN_LINE`] bytes, a game at most [`MAX_PGN_GAME`] bytes of tag lines and movetext and
/// [`MAX_PGN_TAGS`] tags), and hands each to `each`
/// with its 1-based place in the file, until `each` says stop (`true`).
pub fn each_pgn(
    mut reader: impl BufRead,
    mut each: impl FnMut(PgnText, u64) -> Result<bool, FormatError>,
) -> Result<(), FormatError> {
    let empty = || PgnText {
        tags: Vec::new(),
        movetext: String::new(),
        number: None,
    };
    let mut current = empty();
    let mut size = 0usize;
    let mut position = 0u64;
    let mut in_comment = false;
    let mut bytes = Vec::new();
    for line_number in 1.. {
        bytes.clear();
        let n = reader
            .by_ref()
            .take(MAX_PGN_LINE as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| format!("line {line_number}: cannot read: {e}"))?;
        if n == 0 {
            break;
        }
        if bytes.len() > MAX_PGN_LINE {
            return Err(format!(
                "line {line_number}: longer than {MAX_PGN_LINE} bytes: not a PGN file"
            )
            .into());
        }
        let line = std::str::from_utf8(&bytes)
            .map_err(|_| format!("line {line_number}: not UTF-8 text"))?;
        let line = line.trim_start_matches('\u{feff}').trim_end();
        let is_tag = !in_comment && line.starts_with('[');
        if is_tag {
            // A tag after movetext starts the next game.
            if !current.movetext.trim().is_empty() {
                position += 1;
                size = 0;
                if each(std::mem::replace(&mut current, empty()), position)? {
                    return Ok(());
                }
            }
            let (name, value) = parse_tag(line)
                .map_err(|m| format!("game {}, line {line_number}: {m}", position + 1))?;
            if name == "Number" {
                current.number = Some(value.parse().map_err(|_| {
                    format!(
                        "game {}, line {line_number}: tag Number: '{value}' is not a game number",
                        position + 1
                    )
                })?);
            }
            if current.tags.len() >= MAX_PGN_TAGS {
                return Err(format!(
                    "game {}, line {line_number}: more than {MAX_PGN_TAGS} tags: not a game",
                    position + 1
                )
                .into());
            }
            size += bytes.len();
            current.tags.push((name, value));
        } else {
            for c in line.chars() {
                match c {
                    '{' => in_comment = true,
                    '}' => in_comment = false,
                    _ => {}
                }
            }
            size += bytes.len();
            current.movetext.push_str(line);
            current.movetext.push('\n');
        }
        if size > MAX_PGN_GAME {
            return Err(format!(
                "game {}, line {line_number}: the game is longer than {MAX_PGN_GAME} bytes: not \
                 a game",
                position + 1
            )
            .into());
        }
    }
    if !current.tags.is_empty() || !current.movetext.trim().is_empty() {
        position += 1;
        each(current, position)?;
    }
    Ok(())
}

/// A token of PGN movetext.
#[derive(Debug, PartialEq)]
pub enum Token {
    /// A move's text (`h2h9Rn`).
    Move(String),
    /// A brace comment, its whitespace collapsed.
    Comment(String),
    /// The result (`1-0`, `0-1`, `1/2-1/2`, `*`).
    Result(String),
}

/// The tokens of a game's movetext: moves (move numbers, NAGs and `;` comments dropped), brace
/// comments and the result.
pub fn tokens(movetext: &str) -> Result<Vec<Token>, FormatError> {
    let mut out = Vec::new();
    let mut chars = movetext.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '{' => {
                let mut text = String::new();
                loop {
                    match chars.next() {
                        Some((_, '}')) => break,
                        Some((_, c)) => text.push(c),
                        None => return Err("a comment { is not closed".into()),
                    }
                }
                out.push(Token::Comment(
                    text.split_whitespace().collect::<Vec<_>>().join(" "),
                ));
            }
            ';' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' | ')' => return Err("variations ( … ) are not supported".into()),
            _ => {
                let mut end = start + c.len_utf8();
                while let Some(&(i, c)) = chars.peek() {
                    if c.is_whitespace() || matches!(c, '{' | ';' | '(' | ')') {
                        break;
                    }
                    end = i + c.len_utf8();
                    chars.next();
                }
                let word = &movetext[start..end];
                if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
                    out.push(Token::Result(word.to_string()));
                } else if word.starts_with('$') {
                    // A NAG.
                } else {
                    // A move number (`12.`, `12...`), alone or before its move.
                    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
                    let rest = if rest.len() < word.len() && rest.starts_with('.') {
                        rest.trim_start_matches('.')
                    } else {
                        word
                    };
                    let rest = rest.trim_end_matches(['!', '?', '+', '#']);
                    if !rest.is_empty() {
                        out.push(Token::Move(rest.to_string()));
                    }
                }
            }
        }
    }
    Ok(out)
}

/// A move's comment as cutechess writes it (`+0.35/12 0.007s`, `+M5/12 0.12s`, `0.007s`), as a
/// [`PlyInfo`] (no nodes, no variation); `None` for any other comment.
pub fn eval_comment(text: &str) -> Option<PlyInfo> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let (eval, time) = match parts.as_slice() {
        [one] if one.contains('/') => (Some(*one), None),
        [one] => (None, Some(*one)),
        [eval, time] => (Some(*eval), Some(*time)),
        _ => return None,
    };
    let ms = match time {
        Some(t) => {
            let secs: f64 = t.strip_suffix('s')?.parse().ok()?;
            if !secs.is_finite() || secs < 0.0 {
                return None;
            }
            Some(secs * 1000.0)
        }
        None => None,
    };
    let (score, depth) = match eval {
        Some(e) => {
            let (score, depth) = e.split_once('/')?;
            let depth: u32 = depth
                .parse()
                .ok()
                .filter(|&d| d <= crate::records::check::MAX_RECORDED_DEPTH)?;
            let score = if let Some(plies) = score.strip_prefix("+M") {
                let plies: i32 = plies.parse().ok()?;
                Score::Mate((plies + 1) / 2)
            } else if let Some(plies) = score.strip_prefix("-M") {
                let plies: i32 = plies.parse().ok()?;
                Score::Mate(-(plies / 2))
            } else {
                let pawns: f64 = score.parse().ok()?;
                // Past ±300 pawns (30000 cp, where mate scores begin) is no evaluation.
                if !pawns.is_finite() || pawns.abs() > 300.0 {
                    return None;
                }
                Score::Cp((pawns * 100.0).round() as i32)
            };
            (Some(score.to_string()), Some(depth))
        }
        None => (None, None),
    };
    Some(PlyInfo {
        nodes: 0,
        ms,
        depth,
        score,
        pv: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
