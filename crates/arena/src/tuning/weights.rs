//! The evaluation's weights by name (`chariot`, `tempo`, `pst.horse[12]`), as `--fix` and the
//! report name them, and the linear fit's view of a position: its score from Red's side and its
//! piece-square features.

use jieqi_core::{Color, Position};
use jieqi_search::eval::{EvalWeights, PST_SQUARES, Pst, evaluate};

/// The names of the piece-square tables in a weights file, in kind order (role indices, then
/// hidden).
pub const PST_NAMES: [&str; 8] = [
    "chariot", "horse", "elephant", "advisor", "king", "cannon", "pawn", "hidden",
];

/// Every weight by name and value: the scalar weights (`chariot`, `tempo`, …) in file order,
/// then the piece-square tables' values as `pst.<table>[i]`.
pub fn named(w: &EvalWeights) -> Vec<(String, f64)> {
    let mut scalars = w.clone();
    scalars.pst = jieqi_search::eval::Pst::default();
    scalars.provenance = None;
    let value = serde_json::to_value(&scalars).expect("weights serialize");
    let serde_json::Value::Object(map) = value else {
        unreachable!("weights are an object")
    };
    let mut out: Vec<(String, f64)> = map
        .into_iter()
        .map(|(k, v)| (k, v.as_f64().unwrap_or(0.0)))
        .collect();
    for (name, table) in PST_NAMES.iter().zip(w.pst.tables()) {
        for (i, &v) in table.iter().enumerate() {
            out.push((format!("pst.{name}[{i}]"), f64::from(v)));
        }
    }
    out
}

/// Whether `--fix f` keeps weight `name`: its own name, or a whole table (`pst.horse`).
pub fn fixes(f: &str, name: &str) -> bool {
    f == name || (f.starts_with("pst.") && name.strip_prefix(f).is_some_and(|r| r.starts_with('[')))
}

/// The (table, square) of a piece-square weight's name (`pst.horse[12]`), if it is one.
pub fn pst_name(name: &str) -> Option<(usize, usize)> {
    let rest = name.strip_prefix("pst.")?;
    let (table, index) = rest.strip_suffix(']')?.split_once('[')?;
    let t = PST_NAMES.iter().position(|&n| n == table)?;
    Some((t, index.parse().ok()?))
}

/// Weights from names and (rounded) values ([`named`]'s).
pub fn weights_of(names: &[(String, f64)]) -> EvalWeights {
    let map: serde_json::Map<String, serde_json::Value> = names
        .iter()
        .filter(|(k, _)| pst_name(k).is_none())
        .map(|(k, v)| (k.clone(), serde_json::Value::from(v.round() as i64)))
        .collect();
    let mut w: EvalWeights =
        serde_json::from_value(serde_json::Value::Object(map)).expect("the same keys");
    let tables = w.pst.tables_mut();
    for (k, v) in names {
        if let Some((t, i)) = pst_name(k) {
            tables[t][i] = v.round() as i32;
        }
    }
    w
}

/// The piece-square features of `pos` (Red's side): for every piece, +1 (Red) or −1 (Black) at
/// its table entry, as `(weight number, value)` with weight numbers those of [`named`] (the
/// tables follow the `scalars` scalar weights).
pub fn pst_features(pos: &Position, scalars: usize) -> Vec<(u32, f32)> {
    let mut out: Vec<(u32, f32)> = Vec::with_capacity(32);
    for sq in jieqi_core::Square::all() {
        let (color, kind) = match pos.occupant(sq) {
            None => continue,
            Some(jieqi_core::Occupant::Hidden(c)) => (c, 7),
            Some(jieqi_core::Occupant::Revealed(p)) => (p.color, p.role.index()),
        };
        let j = (scalars + kind * PST_SQUARES + Pst::index(color, sq)) as u32;
        let v = if color == Color::Red { 1.0 } else { -1.0 };
        match out.iter_mut().find(|(k, _)| *k == j) {
            Some(e) => e.1 += v,
            None => out.push((j, v)),
        }
    }
    out.retain(|&(_, v)| v != 0.0);
    out
}

/// The evaluation of `pos` from Red's side.
pub fn red_score(pos: &Position, w: &EvalWeights) -> f64 {
    let s = f64::from(evaluate(pos, w));
    if pos.turn() == Color::Red { s } else { -s }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::{Deal, Game, Rules};

    /// The tables' features are the score's exact change per unit of each table weight, as the
    /// evaluation computes it (checked by raising every table weight along a game).
    #[test]
    fn table_features_are_the_evaluations_own_changes() {
        let rules = Rules::standard();
        let mut game = Game::new(rules, Deal::unshuffled(&rules));
        let base = EvalWeights::default();
        let names = named(&base);
        let scalars = names.iter().filter(|(k, _)| pst_name(k).is_none()).count();
        for ply in 0..30 {
            let pos = game.view(game.turn()).position().clone();
            let features = pst_features(&pos, scalars);
            let s0 = red_score(&pos, &base);
            for i in scalars..names.len() {
                let mut n = names.clone();
                n[i].1 += 10.0;
                let change = (red_score(&pos, &weights_of(&n)) - s0) / 10.0;
                let f = features
                    .iter()
                    .find(|(j, _)| *j as usize == i)
                    .map_or(0.0, |&(_, f)| f64::from(f));
                assert_eq!(change, f, "ply {ply}: {}", names[i].0);
            }
            let moves = pos.legal_moves();
            let m = moves[(ply * 7) % moves.len()];
            game.play(m).unwrap();
            if game.outcome().is_some() {
                break;
            }
        }
    }

    #[test]
    fn weights_round_trip_through_their_names() {
        let mut w = EvalWeights::default();
        w.pst.horse[12] = 7;
        w.pst.hidden[3] = -4;
        w.tempo = 13;
        assert_eq!(weights_of(&named(&w)), w);
        assert_eq!(pst_name("pst.horse[12]"), Some((1, 12)));
        assert_eq!(pst_name("horse"), None);
    }
}
