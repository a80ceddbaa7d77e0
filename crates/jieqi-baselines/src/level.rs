//! `Level`: the difficulty-level player of seed 004 — material after the move, a look at the
//! opponent's best capture after our captures, evaluation noise and a reveal ("flip") eagerness.

use jieqi_core::{Knowledge, Move, MoveList, Occupant, Position, Role, View};
use jieqi_engine::{Choice, Control, Engine, EngineError, Limits, Score, Spec, SpecError};

use crate::random::{choice, no_moves, seeded, unit};
use crate::tactics::{Reveals, best_reply_win, side_to_move_lost};
use crate::values::{Eval, KING_STAKE, MATE, belief_value, occupant_value};

/// The share of a hidden piece's expected value credited to a move that reveals it, before the
/// [`Level::flip`] factor: the gain of a piece that from now on moves by its own role instead of
/// its square's. A quarter of the mainstream pool's 320 cp is 80 cp at `flip = 1`.
pub const REVEAL_CREDIT: f64 = 0.25;

/// Largest accepted [`Level::noise`], in pawns.
pub const MAX_NOISE: f64 = 10.0;

/// Largest accepted [`Level::flip`].
pub const MAX_FLIP: f64 = 4.0;

/// The seed-004 difficulty levels: a one- or two-ply material player with noise.
///
/// Each legal move gets a score, from the mover's side, in centipawns:
/// - **material after the move** ([`Eval`]): for a hidden mover, the expectation over the
///   identities it may be (for a fair view, those of its pool weighted by their counts); a
///   captured hidden piece takes its [`belief_value`] (a fair view: the mean of its owner's pool)
///   off the board;
/// - **immediate wins** (every depth): a move that takes the last possible king or leaves the
///   opponent without a legal move scores [`MATE`] when it does so for every identity of the mover,
///   and adds [`KING_STAKE`] to the identities for which it does when only some do;
/// - **depth 2, replies**: after a *capture* (as in the seed) the opponent's best capture reply
///   (the value of the piece it could take, valued the same way) is subtracted; after *any* move, a
///   reply that wins at once (takes our king under rules without check, mates under rules with
///   check) costs its probability times [`KING_STAKE`], and a move after which the opponent wins for
///   sure scores −[`MATE`];
/// - **flip**: a move by a hidden piece earns `flip ×` [`REVEAL_CREDIT`] `×` the mover's
///   [`belief_value`] (a fair view: the mean of its pool, 80 cp in a full mainstream pool at `flip = 1`). Material alone says nothing
///   for revealing — averaged over identities a reveal leaves material unchanged — yet a revealed
///   piece is a developed piece. `flip > 1` reveals eagerly (an easy level would rather reveal than
///   take a pawn), `flip < 1` reluctantly (it takes the pawn, and prefers a useful face-up move);
///   the credit never turns negative, so even a reluctant level develops instead of shuffling its
///   king;
/// - **noise**: a uniform number in `[−noise, +noise]` pawns, drawn per move from the seed.
///
/// The highest total wins; ties are broken uniformly with the seed. A sure win or loss gets neither
/// credit nor noise. Quiet moves are not checked for hanging pieces (the seed's choice: only
/// captures look at the reply), so the levels leave pieces en prise.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Level {
    /// Plies looked at: 1 (our move) or 2 (also the opponent's captures and winning replies).
    pub depth: u32,
    /// Evaluation noise, in pawns: each move's score moves by up to this many pawns either way.
    pub noise: f64,
    /// Reveal eagerness: the factor on the credit for moving a hidden piece (1 neutral).
    pub flip: f64,
}

impl Level {
    /// The seed's "easy" (简单): one ply, noise 1.8 pawns, flip 1.3.
    pub const EASY: Level = Level {
        depth: 1,
        noise: 1.8,
        flip: 1.3,
    };

    /// The seed's "normal" (普通): two plies, noise 0.8 pawns, flip 1.0.
    pub const NORMAL: Level = Level {
        depth: 2,
        noise: 0.8,
        flip: 1.0,
    };

    /// The seed's "hard" (困难): two plies, noise 0.2 pawns, flip 0.7.
    pub const HARD: Level = Level {
        depth: 2,
        noise: 0.2,
        flip: 0.7,
    };

    /// Makes a level.
    ///
    /// # Panics
    /// Panics if `depth` is not 1 or 2, `noise` is not in `[0, MAX_NOISE]` or `flip` is not in
    /// `[0, MAX_FLIP]`.
    pub fn new(depth: u32, noise: f64, flip: f64) -> Level {
        assert!(
            (1..=2).contains(&depth),
            "level depth {depth} is not 1 or 2"
        );
        assert!(
            (0.0..=MAX_NOISE).contains(&noise),
            "level noise {noise} is not in [0, {MAX_NOISE}]"
        );
        assert!(
            (0.0..=MAX_FLIP).contains(&flip),
            "level flip {flip} is not in [0, {MAX_FLIP}]"
        );
        Level { depth, noise, flip }
    }

    /// The preset called `easy`, `normal` or `hard`.
    pub fn preset(name: &str) -> Option<Level> {
        match name {
            "easy" => Some(Level::EASY),
            "normal" => Some(Level::NORMAL),
            "hard" => Some(Level::HARD),
            _ => None,
        }
    }

    /// Reads `level[:PRESET][,depth=D][,noise=N][,flip=F]`: a preset (default `normal`) with
    /// overrides.
    ///
    /// # Errors
    /// An unknown preset or key, or a value out of range.
    pub fn from_spec(spec: &Spec) -> Result<Level, SpecError> {
        let mut p = spec.params();
        let name = p.get_choice("level", "normal", &["easy", "normal", "hard"])?;
        let preset = Level::preset(name).expect("a listed preset");
        let depth: u32 = p.get("depth", preset.depth)?;
        if !(1..=2).contains(&depth) {
            return Err(SpecError {
                spec: spec.to_string(),
                message: format!("parameter 'depth' = {depth} is not 1 or 2"),
            });
        }
        let noise = p.get_f64_in("noise", preset.noise, 0.0, MAX_NOISE)?;
        let flip = p.get_f64_in("flip", preset.flip, 0.0, MAX_FLIP)?;
        p.finish(&["level", "depth", "noise", "flip"])?;
        Ok(Level { depth, noise, flip })
    }

    /// The score of `m` in `pos` (side to move = mover) without credit or noise: expected material
    /// after the move with the reply terms, or ±[`MATE`] for a sure result.
    fn score_move(
        &self,
        pos: &mut Position,
        knowledge: &Knowledge,
        m: Move,
        nodes: &mut u64,
    ) -> f64 {
        let us = pos.turn();
        let capture = m.from != m.to && pos.occupant(m.to).is_some();
        let (mut all_win, mut all_lose) = (true, true);
        let mut expected = 0.0;
        for (reveal, weight) in Reveals::of(pos, knowledge, m).iter() {
            let pm = Reveals::played(m, reveal);
            let undo = pos.make(pm);
            *nodes += 1;
            let material = Eval::of(pos, knowledge).balance(us);
            let value = if self.depth >= 2 {
                let replies = pos.legal_moves();
                if replies.is_empty() || pos.king_lost(!us) {
                    all_lose = false;
                    material + KING_STAKE as f64
                } else {
                    all_win = false;
                    let lose = best_reply_win(pos, knowledge, &replies, nodes);
                    if lose < 1.0 {
                        all_lose = false;
                    }
                    let recapture = if capture {
                        best_capture(pos, knowledge, &replies)
                    } else {
                        0.0
                    };
                    material - recapture - lose * KING_STAKE as f64
                }
            } else if side_to_move_lost(pos) {
                all_lose = false;
                material + KING_STAKE as f64
            } else {
                all_win = false;
                all_lose = false;
                material
            };
            pos.unmake(pm, undo);
            expected += weight * value;
        }
        if all_win {
            MATE as f64
        } else if all_lose {
            -(MATE as f64)
        } else {
            expected
        }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::NORMAL
    }
}

/// The most the side to move gains with one capture among `replies`: the value of the best piece
/// it can take (a king is left to the win detection).
fn best_capture(pos: &Position, knowledge: &Knowledge, replies: &MoveList) -> f64 {
    let mut best = 0.0f64;
    for &r in replies {
        if r.from == r.to {
            continue;
        }
        let gain = match pos.occupant(r.to) {
            None => continue,
            Some(Occupant::Revealed(p)) if p.role == Role::King => continue,
            Some(_) => occupant_value(pos, knowledge, r.to),
        };
        best = best.max(gain);
    }
    best
}

impl Engine for Level {
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
        let mut pos = view.position().clone();
        let knowledge = view.knowledge();
        let mut nodes = 0;
        let mut best_total = f64::NEG_INFINITY;
        let mut best_score = 0.0;
        let mut ties = MoveList::new();
        for &m in &moves {
            let score = self.score_move(&mut pos, &knowledge, m, &mut nodes);
            let noise = (2.0 * unit(&mut rng) - 1.0) * self.noise * 100.0;
            let total = if score.abs() >= MATE as f64 {
                score
            } else {
                let bonus = knowledge
                    .belief(&pos, m.from)
                    .map_or(0.0, |b| self.flip * REVEAL_CREDIT * belief_value(&b));
                score + bonus + noise
            };
            if total > best_total + 1e-9 {
                best_total = total;
                best_score = score;
                ties = MoveList::new();
                ties.push(m);
            } else if total >= best_total - 1e-9 {
                ties.push(m);
            }
        }
        let m = crate::random::pick(&mut rng, &ties);
        let score = if best_score >= MATE as f64 {
            Score::Mate(1)
        } else if best_score <= -(MATE as f64) {
            Score::Mate(-1)
        } else {
            Score::Cp(best_score.round() as i32)
        };
        Ok(choice(m, nodes, Some(self.depth), Some(score)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::{Rules, fen};

    fn view(fen_text: &str, rules: Rules) -> View {
        View::from_setup(&fen::parse(fen_text).unwrap(), &rules).unwrap()
    }

    fn spec(s: &str) -> Result<Level, SpecError> {
        Level::from_spec(&Spec::parse(s).unwrap())
    }

    #[test]
    fn presets_follow_the_seed_table() {
        assert_eq!(spec("level:easy").unwrap(), Level::new(1, 1.8, 1.3));
        assert_eq!(spec("level:normal").unwrap(), Level::new(2, 0.8, 1.0));
        assert_eq!(spec("level:hard").unwrap(), Level::new(2, 0.2, 0.7));
        assert_eq!(spec("level").unwrap(), Level::NORMAL);
    }

    #[test]
    fn overrides_apply_on_top_of_the_preset() {
        assert_eq!(
            spec("level:normal,noise=0.5,flip=1.2,depth=1").unwrap(),
            Level::new(1, 0.5, 1.2)
        );
        assert_eq!(spec("level:hard,noise=0").unwrap(), Level::new(2, 0.0, 0.7));
        assert_eq!(spec("level:flip=2").unwrap(), Level::new(2, 0.8, 2.0));
    }

    #[test]
    fn bad_values_and_keys_are_rejected() {
        for bad in [
            "level:insane",
            "level:depth=3",
            "level:depth=0",
            "level:depth=two",
            "level:noise=-0.1",
            "level:noise=11",
            "level:flip=-1",
            "level:flip=5",
            "level:flip=nan",
            "level:hard,nosie=1",
        ] {
            assert!(spec(bad).is_err(), "{bad} was accepted");
        }
        let e = spec("level:hard,speed=3").unwrap_err().to_string();
        assert!(e.contains("unknown parameter 'speed'"), "{e}");
        assert!(
            spec("level:depth=3")
                .unwrap_err()
                .to_string()
                .contains("'depth'")
        );
    }

    #[test]
    fn hard_avoids_a_capture_that_loses_the_capturer() {
        // The red chariot on a4 can take the horse on a7 (retaken by the chariot on a9) or the
        // unprotected horse on e4.
        let v = view("r4k3/9/n8/9/9/R3n4/9/9/9/3K5 w - - 0 1", Rules::xiangqi());
        for seed in 0..50 {
            let c = { Level::HARD }.go(&v, &Limits::default(), seed).unwrap();
            assert_eq!(c.mv.to_string(), "a4e4", "seed {seed}");
        }
    }

    #[test]
    fn every_level_mates_in_one() {
        let v = view("5k3/R8/9/9/9/9/9/9/1R6r/3K5 w - - 0 1", Rules::xiangqi());
        for level in [Level::EASY, Level::NORMAL, Level::HARD] {
            for seed in 0..10 {
                let c = { level }.go(&v, &Limits::default(), seed).unwrap();
                assert_eq!(c.mv.to_string(), "b1b9");
                assert_eq!(c.info.score, Some(Score::Mate(1)));
            }
        }
    }

    #[test]
    fn depth_two_does_not_allow_a_mate_in_one() {
        // Taking the horse on a5 lifts the chariot's guard of b0, and b9b0 mates: e1 is covered by
        // the horse on d3 and the king cannot leave rank 0. One ply does not see it.
        let v = view("1r3k3/9/9/9/n8/9/3n5/9/9/R3K4 w - - 0 1", Rules::xiangqi());
        for seed in 0..20 {
            let c = { Level::HARD }.go(&v, &Limits::default(), seed).unwrap();
            assert_ne!(c.mv.to_string(), "a0a5", "seed {seed}");
            assert_ne!(c.info.score, Some(Score::Mate(-1)), "seed {seed}");
        }
        let one_ply = Level::new(1, 0.0, 1.0);
        let c = { one_ply }.go(&v, &Limits::default(), 0).unwrap();
        assert_eq!(c.mv.to_string(), "a0a5");
    }
}
