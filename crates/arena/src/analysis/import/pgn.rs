//! PGN games (see the parent module for what a file gives): one game selected from a file in
//! bounded memory, its tags, movetext and move comments.

use super::*;

/// One game of a PGN file, as read: its tags and its movetext.
pub(super) struct PgnText {
    /// Its tags, in file order.
    pub(super) tags: Vec<(String, String)>,
    /// Its movetext.
    pub(super) movetext: String,
    /// The `Number` tag, read.
    pub(super) number: Option<u64>,
}

impl PgnText {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One tag line, `[Name "value"]` (`\"` and `\\` escaped in the value).
pub(super) fn parse_tag(line: &str) -> Result<(String, String), String> {
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
                _ => return Err(format!("tag {name}: a backslash escapes only \\ or \"")),
            },
            '"' => return Err(format!("tag {name}: a quote inside the value must be \\\"")),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// Reads the PGN games of `reader` one at a time and returns the one `game` selects (see
/// [`study_from_file`]) with its place in the file. No more than one game is held.
pub(super) fn select_pgn(
    reader: impl BufRead,
    game: Option<u64>,
) -> Result<(PgnText, u64), String> {
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
                    .to_string(),
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
        (Some(n), None) => Err(match numbers {
            Some((lo, hi)) => format!(
                "no game has the Number tag {n} (its {seen} game{} are numbered {lo} to {hi})",
                if seen == 1 { "" } else { "s" }
            ),
            None => format!(
                "no game {n}: it holds {seen} game{}",
                if seen == 1 { "" } else { "s" }
            ),
        }),
    }
}

/// Reads the PGN games of `reader` one at a time, in bounded memory (a line at most
/// [`MAX_PGN_LINE`] bytes, a game at most [`MAX_PGN_GAME`] bytes of tag lines and movetext and
/// [`MAX_PGN_TAGS`] tags), and hands each to `each`
/// with its 1-based place in the file, until `each` says stop (`true`).
pub(super) fn each_pgn(
    mut reader: impl BufRead,
    mut each: impl FnMut(PgnText, u64) -> Result<bool, String>,
) -> Result<(), String> {
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
            ));
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
                ));
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
            ));
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
pub(super) enum Token {
    Move(String),
    Comment(String),
    Result(String),
}

/// The tokens of a game's movetext: moves (move numbers, NAGs and `;` comments dropped), brace
/// comments and the result.
pub(super) fn tokens(movetext: &str) -> Result<Vec<Token>, String> {
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
pub(super) fn eval_comment(text: &str) -> Option<PlyInfo> {
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

/// A PGN game played through (`position`: its place in the file, for messages).
pub(super) fn pgn_game(
    text: PgnText,
    title: String,
    position: u64,
    default: Option<&Rules>,
) -> Result<StudyGame, String> {
    let game = match text.number {
        Some(n) => format!("game {position} (Number {n})"),
        None => format!("game {position}"),
    };
    let field = |f: &str| format!("{game}, {f}");
    let (rules, start) = start_of(
        text.tag("Variant"),
        text.tag("FEN"),
        &field("tag Variant"),
        &field("tag FEN"),
        default,
    )?;
    let tokens = tokens(&text.movetext).map_err(|m| field(&format!("movetext: {m}")))?;
    let mut moves = Vec::new();
    let mut comments: Vec<Vec<String>> = Vec::new();
    let mut end = None;
    for t in tokens {
        if end.is_some() {
            return Err(field("movetext: something follows the result"));
        }
        match t {
            Token::Move(m) => {
                moves.push(m);
                comments.push(Vec::new());
            }
            Token::Comment(c) => {
                if let Some(last) = comments.last_mut() {
                    last.push(c);
                }
            }
            Token::Result(r) => end = Some(r),
        }
    }
    let mut recorded = Vec::with_capacity(moves.len());
    let mut ending = None;
    let last = comments.len().saturating_sub(1);
    for (i, cs) in comments.iter().enumerate() {
        let mut info = None;
        for c in cs {
            match eval_comment(c) {
                Some(e) if info.is_none() => info = Some(e),
                // Commentary between moves is no record; after the last move it is the ending.
                _ if i == last && !c.is_empty() => ending = Some(c.clone()),
                _ => {}
            }
        }
        recorded.push(info);
    }
    let tag_result = text
        .tag("Result")
        .map(|r| result_of(r, &field("tag Result")))
        .transpose()?;
    let end_result = end
        .as_deref()
        .map(|r| result_of(r, &field("movetext result")))
        .transpose()?;
    let result_field = if tag_result.is_some() {
        "tag Result"
    } else {
        "movetext result"
    };
    let result = match (tag_result, end_result) {
        (Some(a), Some(b)) if a != b => {
            return Err(field(&format!(
                "tag Result: {} but the movetext ends {}",
                a.map_or("*", GameResult::text),
                b.map_or("*", GameResult::text)
            )));
        }
        (Some(a), _) => a,
        (None, Some(b)) => b,
        (None, None) => None,
    };
    let parse_u64 = |name: &str| -> Result<Option<u64>, String> {
        text.tag(name)
            .map(|v| {
                v.parse::<u64>()
                    .map_err(|_| field(&format!("tag {name}: '{v}' is not a number")))
            })
            .transpose()
    };
    let deal = match text.tag("Deal") {
        Some(d) => {
            let bad = || {
                field(&format!(
                    "tag Deal: '{d}' is not 'red IDENTITIES black identities'"
                ))
            };
            let words: Vec<&str> = d.split_whitespace().collect();
            let [red_word, red, black_word, black] = words.as_slice() else {
                return Err(bad());
            };
            if *red_word != "red" || *black_word != "black" {
                return Err(bad());
            }
            let deal =
                Deal::from_strings(red, black).map_err(|e| field(&format!("tag Deal: {e}")))?;
            Some((deal, "tag Deal"))
        }
        None => None,
    };
    let parsed = Parsed {
        title,
        rules,
        start,
        recorded,
        red: text.tag("White").unwrap_or("Red").to_string(),
        black: text.tag("Black").unwrap_or("Black").to_string(),
        result,
        result_field,
        ending: ending.filter(|_| !moves.is_empty()),
        number: text.number,
        seed: parse_u64("Seed")?,
        deal,
        moves,
    };
    let moves = parsed.moves.clone();
    build(parsed, &|i| {
        format!("{game}, ply {} ('{}' in the movetext)", i + 1, moves[i])
    })
    .map_err(|m| if m.starts_with(&game) { m } else { field(&m) })
}
