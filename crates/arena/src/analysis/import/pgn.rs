//! A PGN game played through: its tags and movetext, read by [`crate::records::formats::pgn`],
//! become the game's [`Parsed`] fields (see the parent module for what a file gives).

use jieqi_core::{Deal, Rules};

use super::game::{Parsed, build, result_of, start_of};
use crate::analysis::StudyGame;
use crate::records::GameResult;
use crate::records::formats::FormatError;
use crate::records::formats::pgn::{PgnText, Token, eval_comment, tokens};

/// A PGN game played through (`position`: its place in the file, for messages).
pub(super) fn pgn_game(
    text: PgnText,
    title: String,
    position: u64,
    default: Option<&Rules>,
) -> Result<StudyGame, FormatError> {
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
            return Err(field("movetext: something follows the result").into());
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
            ))
            .into());
        }
        (Some(a), _) => a,
        (None, Some(b)) => b,
        (None, None) => None,
    };
    let parse_u64 = |name: &str| -> Result<Option<u64>, FormatError> {
        text.tag(name)
            .map(|v| {
                v.parse::<u64>()
                    .map_err(|_| field(&format!("tag {name}: '{v}' is not a number")).into())
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
                return Err(bad().into());
            };
            if *red_word != "red" || *black_word != "black" {
                return Err(bad().into());
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
    .map_err(|m| {
        let m = m.to_string();
        FormatError::Malformed(if m.starts_with(&game) { m } else { field(&m) })
    })
}
