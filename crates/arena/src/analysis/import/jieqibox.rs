//! A JieqiBox notation file's game played through: its fields, read by
//! [`crate::records::formats::jieqibox`], become the game's [`Parsed`] fields (see the parent
//! module for what a file gives).

use jieqi_core::Rules;
use serde_json::Value;

use super::game::{Parsed, build, result_of, start_of};
use crate::analysis::StudyGame;
use crate::records::PlyInfo;
use crate::records::formats::FormatError;
use crate::records::formats::jieqibox::{
    arena_comment, count_field, get, number_field, score_text, string_field,
};

/// A JieqiBox notation file's game played through (`file`: its name, for the title).
pub(super) fn jieqibox(
    text: &str,
    file: &str,
    game: Option<u64>,
    default: Option<&Rules>,
) -> Result<StudyGame, FormatError> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| format!("not JieqiBox notation JSON: {e}"))?;
    if !v.is_object() {
        return Err("not JieqiBox notation JSON: not an object".into());
    }
    let meta = match get(&v, "metadata") {
        Some(m) if m.is_object() => m,
        Some(_) => return Err("metadata: not an object".into()),
        None => return Err("metadata: missing".into()),
    };
    let comment = string_field(meta, "openingComment", "metadata")?;
    let arena = comment.and_then(arena_comment);
    let number = arena.map(|(_, n, _, _)| n);
    if let Some(g) = game
        && g != 1
        && Some(g) != number
    {
        return Err(format!(
            "holds one game{}: there is no game {g}",
            number.map_or(String::new(), |n| format!(" (number {n})"))
        )
        .into());
    }
    let (rules, start) = start_of(
        arena.map(|(variant, ..)| variant),
        string_field(meta, "initialFen", "metadata")?,
        "metadata.openingComment (its variant)",
        "metadata.initialFen",
        default,
    )?;
    let result = match string_field(meta, "result", "metadata")? {
        Some(r) => result_of(r, "metadata.result")?,
        None => None,
    };
    if let Some(mode) = string_field(meta, "flipMode", "metadata")?
        && !matches!(mode, "random" | "free")
    {
        return Err(format!("metadata.flipMode: '{mode}' is neither random nor free").into());
    }
    let moves_value = match get(&v, "moves") {
        Some(Value::Array(a)) => a,
        Some(_) => return Err("moves: not an array".into()),
        None => return Err("moves: missing".into()),
    };
    let mut moves = Vec::with_capacity(moves_value.len());
    let mut recorded = Vec::with_capacity(moves_value.len());
    for (i, m) in moves_value.iter().enumerate() {
        let path = format!("moves[{i}] (ply {})", i + 1);
        if !m.is_object() {
            return Err(format!("{path}: not an object").into());
        }
        match string_field(m, "type", &path)? {
            Some("move") | None => {}
            Some(other) => {
                return Err(format!(
                    "{path}.type: '{other}' (a position edit) is not supported: only played moves"
                )
                .into());
            }
        }
        let data = string_field(m, "data", &path)?.ok_or(format!("{path}.data: missing"))?;
        moves.push(data.to_string());
        let score = number_field(m, "engineScore", &path)?
            .map(|s| {
                score_text(s).ok_or_else(|| {
                    format!(
                        "{path}.engineScore: {} is out of range: JieqiBox writes centipawns, or a \
                         mate as ±(30000 − N), so at most 30000 either way",
                        crate::util::text::number(s)
                    )
                })
            })
            .transpose()?;
        let ms = number_field(m, "engineTime", &path)?;
        if ms.is_some_and(|t| t < 0.0) {
            return Err(format!("{path}.engineTime: negative").into());
        }
        let depth = count_field(m, "engineDepth", &path)?
            .map(|d| {
                u32::try_from(d)
                    .ok()
                    .filter(|&d| d <= crate::records::check::MAX_RECORDED_DEPTH)
                    .ok_or_else(|| {
                        format!(
                            "{path}.engineDepth: {d} is more than {}, the deepest a record holds",
                            crate::records::check::MAX_RECORDED_DEPTH
                        )
                    })
            })
            .transpose()?;
        let nodes = count_field(m, "engineNodes", &path)?;
        let ms = ms.filter(|&t| t > 0.0);
        recorded.push(
            (score.is_some() || ms.is_some() || depth.is_some() || nodes.is_some()).then(|| {
                PlyInfo {
                    nodes: nodes.unwrap_or(0),
                    ms,
                    depth,
                    score,
                    pv: Vec::new(),
                }
            }),
        );
    }
    let parsed = Parsed {
        title: file.to_string(),
        rules,
        start,
        recorded,
        red: string_field(meta, "white", "metadata")?
            .unwrap_or("Red")
            .to_string(),
        black: string_field(meta, "black", "metadata")?
            .unwrap_or("Black")
            .to_string(),
        result,
        result_field: "metadata.result",
        ending: arena.map(|(.., ending)| ending.to_string()),
        number,
        seed: arena.map(|(_, _, seed, _)| seed),
        deal: None,
        moves,
    };
    let texts = parsed.moves.clone();
    build(parsed, &|i| {
        format!("moves[{i}] (ply {}).data '{}'", i + 1, texts[i])
    })
}
