//! Piece values in centipawns, the value of a hidden piece, and material balance.
//!
//! Two scales meet here. [`MATE`] is what a *decided* game is worth: taking a face-up king,
//! leaving the opponent without a move. [`KING_STAKE`] is the king's weight *inside sums and
//! means* — the king as one identity of a pool, the face-up king in a material count — where a
//! mate value would drown everything else (see [`hidden_value`] for why).

use jieqi_core::{
    Belief, ByColor, Color, Knowledge, Occupant, Piece, Pool, Position, Role, Square,
};

/// A pawn on its own half of the board.
pub const PAWN: i32 = 100;
/// A pawn that has crossed the river (it may then also step sideways).
pub const CROSSED_PAWN: i32 = 200;
/// An advisor.
pub const ADVISOR: i32 = 200;
/// An elephant.
pub const ELEPHANT: i32 = 200;
/// A horse.
pub const HORSE: i32 = 400;
/// A cannon.
pub const CANNON: i32 = 450;
/// A chariot.
pub const CHARIOT: i32 = 900;
/// The value of a won game, and of a face-up king as a capture target: larger than all the other
/// material of both sides together, so that a sure win always comes first.
pub const MATE: i32 = 30_000;
/// The king's weight where it is one term among others: an identity in a pool (the seed-000
/// variant hides kings), a face-up king in [`Eval`], and a win or loss that happens only with
/// some probability. About two chariots: a side that far ahead almost always wins, so a sure win
/// is "worth" about that much material, and a 1-in-16 chance of one is worth 125 cp.
pub const KING_STAKE: i32 = 2_000;

/// The value of a role: its base value, the king at [`MATE`] (taking it ends the game).
pub const fn role_value(role: Role) -> i32 {
    match role {
        Role::Chariot => CHARIOT,
        Role::Horse => HORSE,
        Role::Elephant => ELEPHANT,
        Role::Advisor => ADVISOR,
        Role::King => MATE,
        Role::Cannon => CANNON,
        Role::Pawn => PAWN,
    }
}

/// The value of a face-up piece on a square: [`role_value`], except that a pawn across the river
/// is worth [`CROSSED_PAWN`].
pub fn piece_value(piece: Piece, sq: Square) -> i32 {
    if piece.role == Role::Pawn && !sq.is_own_half(piece.color) {
        CROSSED_PAWN
    } else {
        role_value(piece.role)
    }
}

/// The weight of a role inside a material sum or a pool mean: [`role_value`], with the king at
/// [`KING_STAKE`].
pub const fn material_value(role: Role) -> i32 {
    match role {
        Role::King => KING_STAKE,
        r => role_value(r),
    }
}

/// The expected value of one hidden piece of a side whose pool is `pool`: the mean
/// [`material_value`] of the pool's identities, 0 for an empty pool.
///
/// Every hidden piece of a side is equally likely to be any identity of its pool (hidden pieces
/// move by their square, never by their identity), so the pool mean is the exact expectation, and
/// it stays exact after a capture whose identity nobody told us: that piece was drawn from the
/// same pool. Pawns count at [`PAWN`]: hidden pieces stand on their own half.
///
/// In the mainstream rules kings are never hidden and pools hold no king. Where the king can be
/// hidden (the seed-000 "simple" variant) it counts at [`KING_STAKE`], not [`MATE`]: capturing a
/// hidden piece wins only when that piece is the king, with probability 1 in the number of
/// identities, and at a mate value of 30 000 every hidden piece would be worth about 1 900 cp —
/// more than a chariot — so an engine would trade its chariots for one-in-sixteen lottery tickets
/// and never risk a hidden piece of its own. At [`KING_STAKE`] a full 16-identity pool is worth
/// (4 800 + 2 000) / 16 = 425 cp per piece, against 320 cp for the 15 identities of the
/// mainstream pool. A capture that wins *for sure* (the last hidden piece when only the king is
/// left in the pool) is a decided game, found by win detection, not by this value.
pub fn hidden_value(pool: &Pool) -> f64 {
    let n = pool.total();
    if n == 0 {
        return 0.0;
    }
    let sum: i32 = Role::ALL
        .into_iter()
        .map(|r| pool.get(r) as i32 * material_value(r))
        .sum();
    sum as f64 / n as f64
}

/// The expected value of a hidden piece as its holder believes it: the [`hidden_value`] of the
/// belief's weights — its owner's pool (fair), or the [`material_value`] of its known identity.
pub fn belief_value(belief: &Belief) -> f64 {
    hidden_value(&belief.weights())
}

/// The value of what stands on `sq` in `pos` for a player who knows `knowledge`: a face-up piece
/// at [`piece_value`], a hidden piece at its [`belief_value`]; 0 for an empty square.
pub fn occupant_value(pos: &Position, knowledge: &Knowledge, sq: Square) -> f64 {
    match pos.occupant(sq) {
        None => 0.0,
        Some(Occupant::Revealed(p)) => piece_value(p, sq) as f64,
        Some(Occupant::Hidden(_)) => knowledge.belief(pos, sq).map_or(0.0, |b| belief_value(&b)),
    }
}

/// Material of both sides of a position, as its holder (a player's view) sees it: face-up pieces at
/// [`piece_value`] (kings at [`KING_STAKE`]), hidden pieces at the [`hidden_value`] of their
/// owner's pool in that position — or, where the holder knows a hidden piece (omniscient), at the
/// [`material_value`] of its identity.
///
/// Counting the face-up king at the same weight its identity has in a pool makes revealing neutral
/// in expectation: averaged over the identities a hidden piece may turn out to be, the revealed
/// piece plus the remaining hidden pieces (valued at the shrunken pool's mean) are worth exactly
/// what the hidden pieces were before (up to a pawn landing across the river).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Eval {
    material: ByColor<f64>,
}

impl Eval {
    /// Counts the material of `pos` for a player who knows `knowledge`.
    pub fn of(pos: &Position, knowledge: &Knowledge) -> Eval {
        let mut revealed = ByColor::<i32>::default();
        let mut hidden = ByColor::<u32>::default();
        for sq in Square::all() {
            match pos.occupant(sq) {
                None => {}
                Some(Occupant::Hidden(c)) => match knowledge.belief(pos, sq) {
                    Some(Belief::Known(r)) => revealed[c] += material_value(r),
                    _ => hidden[c] += 1,
                },
                Some(Occupant::Revealed(p)) => {
                    revealed[p.color] += if p.role == Role::King {
                        KING_STAKE
                    } else {
                        piece_value(p, sq)
                    };
                }
            }
        }
        Eval {
            material: ByColor::new_with(|c| {
                revealed[c] as f64 + hidden[c] as f64 * hidden_value(pos.pool(c))
            }),
        }
    }

    /// The material of one side.
    pub fn material(&self, color: Color) -> f64 {
        self.material[color]
    }

    /// Material of `side` minus material of its opponent.
    pub fn balance(&self, side: Color) -> f64 {
        self.material[side] - self.material[!side]
    }

    /// The material balance of `pos` from the side to move's point of view, for a player who
    /// knows `knowledge`.
    pub fn side_to_move(pos: &Position, knowledge: &Knowledge) -> f64 {
        Eval::of(pos, knowledge).balance(pos.turn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::{Move, PlayedMove, Rules};

    #[test]
    fn mainstream_pool_is_worth_320() {
        assert_eq!(hidden_value(&Pool::STANDARD), 4800.0 / 15.0);
        assert_eq!(hidden_value(&Pool::FULL), 6800.0 / 16.0);
        assert_eq!(hidden_value(&Pool::EMPTY), 0.0);
    }

    #[test]
    fn start_positions_are_balanced() {
        for rules in [Rules::standard(), Rules::xiangqi(), Rules::simple()] {
            let pos = Position::start(&rules);
            let e = Eval::of(&pos, &Knowledge::FAIR);
            assert_eq!(e.balance(Color::Red), 0.0, "{}", rules.name);
            assert!(e.material(Color::Red) > 6000.0);
        }
    }

    #[test]
    fn crossed_pawn_is_worth_two() {
        let red = Piece {
            color: Color::Red,
            role: Role::Pawn,
        };
        assert_eq!(piece_value(red, Square::E4), PAWN);
        assert_eq!(piece_value(red, Square::E5), CROSSED_PAWN);
        let black = Piece {
            color: Color::Black,
            role: Role::Pawn,
        };
        assert_eq!(piece_value(black, Square::E5), PAWN);
        assert_eq!(piece_value(black, Square::E4), CROSSED_PAWN);
    }

    #[test]
    fn omniscient_material_counts_the_truth() {
        use jieqi_core::{Deal, Game};
        use rand_chacha::ChaCha8Rng;
        use rand_core::SeedableRng;
        for rules in [Rules::standard(), Rules::simple()] {
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
            let fair = game.view(Color::Red);
            let omni = game.omniscient_view(Color::Red);
            let pos = omni.position();
            // Fair knowledge: the pool means, as before beliefs existed.
            assert_eq!(
                Eval::of(fair.position(), &fair.knowledge()),
                Eval::of(fair.position(), &Knowledge::FAIR)
            );
            for c in Color::ALL {
                let mut truth = 0;
                for sq in Square::all() {
                    truth += match pos.occupant(sq) {
                        Some(Occupant::Hidden(o)) if o == c => {
                            material_value(game.truth().identity(sq).unwrap())
                        }
                        Some(Occupant::Revealed(p)) if p.color == c => {
                            if p.role == Role::King {
                                KING_STAKE
                            } else {
                                piece_value(p, sq)
                            }
                        }
                        _ => 0,
                    };
                }
                assert_eq!(Eval::of(pos, &omni.knowledge()).material(c), truth as f64);
                // At the start the truth's material equals the expectation.
                assert_eq!(
                    Eval::of(pos, &omni.knowledge()).material(c),
                    Eval::of(fair.position(), &Knowledge::FAIR).material(c)
                );
            }
            let sq = Square::A3;
            let known = omni.belief(sq).and_then(|b| b.known()).unwrap();
            assert_eq!(
                occupant_value(pos, &omni.knowledge(), sq),
                material_value(known) as f64
            );
        }
    }

    #[test]
    fn revealing_is_neutral_in_expectation() {
        // Red hidden piece on a3 steps to a4 and reveals; averaged over Red's pool the material
        // stays what it was (no pawn lands across the river).
        for rules in [Rules::standard(), Rules::simple()] {
            let mut pos = Position::start(&rules);
            let before = Eval::of(&pos, &Knowledge::FAIR).material(Color::Red);
            let pool = *pos.pool(Color::Red);
            let mut expected = 0.0;
            for r in pool.roles() {
                let pm = PlayedMove {
                    mv: Move::new(Square::A3, Square::A4),
                    reveal: Some(r),
                    capture: None,
                };
                let undo = pos.make(pm);
                expected += pool.get(r) as f64 / pool.total() as f64
                    * Eval::of(&pos, &Knowledge::FAIR).material(Color::Red);
                pos.unmake(pm, undo);
            }
            assert!((expected - before).abs() < 1e-9, "{expected} vs {before}");
        }
    }
}
