//! JieqiBox's notation JSON (see the parent module for its fields): one game's fields read and
//! checked, its moves replayed.

use super::*;

/// A field of a JSON object: `None` when absent or null.
pub(super) fn get<'a>(object: &'a Value, name: &str) -> Option<&'a Value> {
    object.get(name).filter(|v| !v.is_null())
}

/// A string field, if present.
pub(super) fn string_field<'a>(
    object: &'a Value,
    name: &str,
    path: &str,
) -> Result<Option<&'a str>, String> {
    match get(object, name) {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .map(Some)
            .ok_or_else(|| format!("{path}.{name}: not a string")),
    }
}

/// A number field, if present: finite.
pub(super) fn number_field(object: &Value, name: &str, path: &str) -> Result<Option<f64>, String> {
    match get(object, name) {
        None => Ok(None),
        Some(v) => v
            .as_f64()
            .filter(|x| x.is_finite())
            .map(Some)
            .ok_or_else(|| format!("{path}.{name}: not a number")),
    }
}

/// A whole non-negative number field, if present.
pub(super) fn count_field(object: &Value, name: &str, path: &str) -> Result<Option<u64>, String> {
    match get(object, name) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("{path}.{name}: not a whole number ≥ 0")),
    }
}

/// What `arena export` writes in `openingComment`: `jieqi game 12 (pair 5, seed 77): checkmate`,
/// as (variant, number, seed, termination).
pub(super) fn arena_comment(text: &str) -> Option<(&str, u64, u64, &str)> {
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
pub(super) fn jieqibox_score(s: f64) -> Option<String> {
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

/// A JieqiBox notation file's game played through (`file`: its name, for the title).
pub(super) fn jieqibox(
    text: &str,
    file: &str,
    game: Option<u64>,
    default: Option<&Rules>,
) -> Result<StudyGame, String> {
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
        ));
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
        return Err(format!(
            "metadata.flipMode: '{mode}' is neither random nor free"
        ));
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
            return Err(format!("{path}: not an object"));
        }
        match string_field(m, "type", &path)? {
            Some("move") | None => {}
            Some(other) => {
                return Err(format!(
                    "{path}.type: '{other}' (a position edit) is not supported: only played moves"
                ));
            }
        }
        let data = string_field(m, "data", &path)?.ok_or(format!("{path}.data: missing"))?;
        moves.push(data.to_string());
        let score = number_field(m, "engineScore", &path)?
            .map(|s| {
                jieqibox_score(s).ok_or_else(|| {
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
            return Err(format!("{path}.engineTime: negative"));
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
