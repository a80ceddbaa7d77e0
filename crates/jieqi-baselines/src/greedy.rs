//! `Greedy`: win at once if it can, else take the most valuable piece with the cheapest attacker,
//! else move at random.

use jieqi_core::{Move, MoveList, Occupant, View};
use jieqi_engine::{Choice, Control, Engine, EngineError, Limits, Score, Spec, SpecError};

use crate::random::{choice, no_moves, pick, seeded, unit};
use crate::tactics::wins_for_sure;
use crate::values::{MATE, belief_value, occupant_value, piece_value};

/// A one-ply capture player.
///
/// In order:
/// 1. a move that wins at once — takes a face-up king (rules without check), takes the last piece
///    that can still be the king, or leaves the opponent without a legal move (mate or stalemate).
///    A hidden mover's effect depends on what it reveals, so its move counts only when it wins for
///    every identity it may be;
/// 2. otherwise the most valuable capture: a face-up target at its
///    [`piece_value`](crate::values::piece_value), a hidden one at its
///    [`belief_value`](crate::values::belief_value) (the mean of its owner's pool for a fair view,
///    its identity's value for an omniscient one); among equal targets the least valuable attacker
///    (a hidden attacker valued the same way);
/// 3. otherwise a random move that captures nothing.
///
/// With probability `noise` it plays a uniformly random legal move instead. Remaining ties are
/// broken uniformly with the seed. Never looks at the opponent's reply.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Greedy {
    /// Probability in `[0, 1]` of playing a uniformly random legal move instead.
    pub noise: f64,
}

impl Greedy {
    /// Makes the engine.
    ///
    /// # Panics
    /// Panics if `noise` is not in `[0, 1]`.
    pub fn new(noise: f64) -> Greedy {
        assert!(
            (0.0..=1.0).contains(&noise),
            "greedy noise {noise} is not in [0, 1]"
        );
        Greedy { noise }
    }

    /// Reads `greedy[:noise=P]`.
    ///
    /// # Errors
    /// An unknown key, or a noise outside `[0, 1]`.
    pub fn from_spec(spec: &Spec) -> Result<Greedy, SpecError> {
        let mut p = spec.params();
        let noise = p.get_f64_in("noise", 0.0, 0.0, 1.0)?;
        p.finish(&["noise"])?;
        Ok(Greedy { noise })
    }
}

/// Keeps the moves whose key is the largest seen so far.
struct Best<K> {
    key: Option<K>,
    moves: MoveList,
}

impl<K: PartialOrd> Best<K> {
    fn new() -> Best<K> {
        Best {
            key: None,
            moves: MoveList::new(),
        }
    }

    fn offer(&mut self, key: K, m: Move) {
        match &self.key {
            Some(k) if key < *k => {}
            Some(k) if key == *k => self.moves.push(m),
            _ => {
                self.key = Some(key);
                self.moves = MoveList::new();
                self.moves.push(m);
            }
        }
    }
}

impl Engine for Greedy {
    /// It answers within microseconds.
    fn stops_on_request(&self) -> bool {
        true
    }

    fn search(
        &mut self,
        view: &View,
        _limits: &Limits,
        seed: u64,
        control: &Control<'_>,
    ) -> Result<Choice, EngineError> {
        let moves = control.root_moves(view.legal_moves());
        if moves.is_empty() {
            return Err(no_moves());
        }
        let mut rng = seeded(seed);
        if unit(&mut rng) < self.noise {
            return Ok(choice(pick(&mut rng, &moves), 1, Some(1), None));
        }
        let mut pos = view.position().clone();
        let knowledge = view.knowledge();
        let mut nodes = 0;

        let mut wins = MoveList::new();
        for &m in &moves {
            if wins_for_sure(&mut pos, &knowledge, m, &mut nodes) {
                wins.push(m);
            }
        }
        if !wins.is_empty() {
            let m = pick(&mut rng, &wins);
            return Ok(choice(m, nodes, Some(1), Some(Score::Mate(1))));
        }

        // Captures, keyed by (target value, −attacker value).
        let mut best = Best::new();
        let mut quiet = MoveList::new();
        for &m in &moves {
            if m.from == m.to || pos.occupant(m.to).is_none() {
                quiet.push(m);
                continue;
            }
            let target = occupant_value(&pos, &knowledge, m.to);
            let attacker = match pos.occupant(m.from) {
                Some(Occupant::Revealed(p)) => piece_value(p, m.from) as f64,
                _ => knowledge
                    .belief(&pos, m.from)
                    .map_or(0.0, |b| belief_value(&b)),
            };
            best.offer((target, -attacker), m);
        }
        if let Some((target, _)) = best.key {
            let m = pick(&mut rng, &best.moves);
            let score = Score::Cp(target.min(MATE as f64).round() as i32);
            return Ok(choice(m, nodes, Some(1), Some(score)));
        }
        Ok(choice(pick(&mut rng, &quiet), nodes, Some(1), None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::{Rules, fen};

    fn view(fen_text: &str, rules: Rules) -> View {
        View::from_setup(&fen::parse(fen_text).unwrap(), &rules).unwrap()
    }

    fn greedy_move(v: &View, noise: f64, seed: u64) -> String {
        Greedy::new(noise)
            .go(v, &Limits::default(), seed)
            .unwrap()
            .mv
            .to_string()
    }

    #[test]
    fn takes_a_free_chariot_over_a_pawn() {
        // The red chariot on a4 can take the black pawn on e4 or the black chariot on a8.
        let v = view("3k5/r8/9/9/9/R3p4/9/9/9/4K4 w - - 0 1", Rules::xiangqi());
        for seed in 0..20 {
            assert_eq!(greedy_move(&v, 0.0, seed), "a4a8");
        }
    }

    #[test]
    fn delivers_mate_in_one_rather_than_capturing() {
        // b1b9 mates (the a8 chariot holds rank 8); b1i1 would take a chariot.
        let v = view("5k3/R8/9/9/9/9/9/9/1R6r/3K5 w - - 0 1", Rules::xiangqi());
        for seed in 0..20 {
            let c = Greedy::new(0.0).go(&v, &Limits::default(), seed).unwrap();
            assert_eq!(c.mv.to_string(), "b1b9");
            assert_eq!(c.info.score, Some(Score::Mate(1)));
        }
    }

    #[test]
    fn prefers_the_least_valuable_attacker() {
        // The black chariot on e6 can be taken by the crossed pawn on e5 or the chariot on a6.
        let v = view("5k3/9/9/R3r4/4P4/9/9/9/9/3K5 w - - 0 1", Rules::xiangqi());
        for seed in 0..20 {
            assert_eq!(greedy_move(&v, 0.0, seed), "e5e6");
        }
    }

    #[test]
    fn takes_a_face_up_king_when_there_is_no_check() {
        // Simple rules: the red chariot on e5 may take the black king or the black chariot.
        let v = view("4k4/9/9/9/r3R4/9/9/9/9/4K4 w - - 0 1", Rules::simple());
        for seed in 0..10 {
            assert_eq!(greedy_move(&v, 0.0, seed), "e5e9");
        }
    }

    #[test]
    fn full_noise_is_a_random_mover() {
        let v = view("3k5/r8/9/9/9/R3p4/9/9/9/4K4 w - - 0 1", Rules::xiangqi());
        let distinct: std::collections::HashSet<String> =
            (0..200).map(|s| greedy_move(&v, 1.0, s)).collect();
        assert!(distinct.len() > 5, "{distinct:?}");
    }
}
