//! The leaf values of the tree searches (`jieqi_search::leaf`): the quiescence search takes what
//! hangs, declines a losing capture, scores a mated side as lost, and leaves the position as it
//! found it.

use jieqi_core::{Color, Role, Rules, View, fen};
use jieqi_search::eval::{EvalWeights, evaluate};
use jieqi_search::leaf::{leaf_score, quiescence};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

fn view_of(fen_text: &str, rules: &Rules) -> View {
    View::from_setup(&fen::parse(fen_text).unwrap(), rules).unwrap()
}

#[test]
fn a_hanging_chariot_is_taken_and_a_defended_pawn_is_not() {
    let w = EvalWeights::learned();
    let rules = Rules::xiangqi();
    // Red's chariot e5 takes the undefended black chariot e7 (the king on d9 cannot retake).
    let view = view_of("3k5/9/4r4/9/4R4/9/9/9/9/5K3 w - - 0 1", &rules);
    let mut det = view.sample(&mut ChaCha8Rng::seed_from_u64(1));
    let hash = det.position().hash();
    let stand = evaluate(det.position(), w);
    let q = quiescence(&mut det, w, -30_000, 30_000, 0);
    assert_eq!(det.position().hash(), hash, "the search unmakes its moves");
    assert!(
        q - stand >= w.identity(Role::Chariot) / 2,
        "qs {q} stand {stand}: the chariot hangs"
    );
    let p = leaf_score(&mut det, Color::Red, w);
    assert!(p > 0.5 && (leaf_score(&mut det, Color::Black, w) - (1.0 - p)).abs() < 1e-12);
    // Red's chariot e4 could take the pawn e6, but the chariot e7 retakes: stand pat.
    let view = view_of("3k5/9/4r4/4p4/9/4R4/9/9/9/5K3 w - - 0 1", &rules);
    let mut det = view.sample(&mut ChaCha8Rng::seed_from_u64(1));
    let stand = evaluate(det.position(), w);
    assert_eq!(quiescence(&mut det, w, -30_000, 30_000, 0), stand);
}

#[test]
fn a_mated_side_scores_zero() {
    let w = EvalWeights::learned();
    // Black's king d9 is checked by the chariot d0 and cannot step to e9/e8 (the red king faces
    // them on the e-file): no legal move.
    let view = view_of("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1", &Rules::xiangqi());
    let mut det = view.sample(&mut ChaCha8Rng::seed_from_u64(0));
    assert!(det.legal_moves().is_empty());
    assert_eq!(leaf_score(&mut det, Color::Black, w), 0.0);
    assert_eq!(leaf_score(&mut det, Color::Red, w), 1.0);
}
