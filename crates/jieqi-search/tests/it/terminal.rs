//! One idea of "game over, and who won": every engine's terminal rules against the referee's.
//!
//! Seeded games of every rule preset (and every rule file in `configs/rules/`) — uniformly random
//! ones, ones biased to undo their last move (repetitions) and to give check (perpetual checks),
//! and endgames rich in checks — are played by the referee ([`Game`]). At every ply its outcome
//! is compared with:
//! - (a) the core classifier over a repetition history kept from each player's view (view-space
//!   keys, which differ from the referee's by a constant within a window), that history with the
//!   one rebuilt from the view, and the core's repetition rule with a naive reference;
//! - (b) alpha-beta's terminal score (and, for a hidden king taken, its chance branches);
//! - (c) the playouts' terminal value, both policies, and [`terminal_value`];
//! - (d) the playout board's terminal view, kept in lockstep (king taken, no legal move, the
//!   no-capture counter);
//! - (e) the ISMCTS tree's terminal value.
//!
//! Playouts keep no history, so for them a repetition is not the end: where the referee ends the
//! game by repetition they must see the classifier's answer without a history.

use std::collections::BTreeMap;
use std::path::Path;

use jieqi_core::{
    Color, Deal, Game, HistoryEntry, Move, Outcome, PerpetualCheck, Position, Reason,
    RepetitionHistory, Role, Rules, View, classify, repetition,
};
use jieqi_search::alphabeta::{self, MATE};
use jieqi_search::ismcts;
use jieqi_search::playout::{
    PlayoutConfig, PlayoutPolicy, below, outcome_score, playout, terminal_value,
};
use jieqi_search::playout_board::PlayoutBoard;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// The presets and every distinct rule set in `configs/rules/`.
fn rule_sets() -> Vec<Rules> {
    let mut out = vec![Rules::standard(), Rules::simple(), Rules::xiangqi()];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/rules");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("configs/rules exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let rules: Rules =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        rules.validate().unwrap();
        if !out.contains(&rules) {
            out.push(rules);
        }
    }
    assert!(out.len() >= 5, "the rule files add variants: {out:?}");
    out
}

/// How a game picks its moves.
#[derive(Copy, Clone, Debug)]
enum Bias {
    /// Uniformly random.
    Uniform,
    /// Undo one's own last move when legal (with probability 3/4): repetitions.
    Repeat,
    /// Give check with a face-up piece when possible (1/2), else as `Repeat`: perpetual checks.
    Check,
}

fn pick(game: &Game, bias: Bias, last: &[Option<Move>; 2], rng: &mut ChaCha8Rng) -> Move {
    let pos = game.position();
    let moves = game.legal_moves();
    if matches!(bias, Bias::Check) && below(rng, 2) == 0 {
        let checks: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| !pos.is_hidden(m.from) && pos.gives_check(m, None))
            .collect();
        if !checks.is_empty() {
            return checks[below(rng, checks.len() as u32) as usize];
        }
    }
    if !matches!(bias, Bias::Uniform) && below(rng, 4) != 0 {
        if let Some(m) = last[pos.turn().index()] {
            let back = Move::new(m.to, m.from);
            if moves.contains(&back) {
                return back;
            }
        }
    }
    moves[below(rng, moves.len() as u32) as usize]
}

/// The repetition rule as the referee's rulebook states it, naively: the last position occurred
/// `count` times (same side to move) in `window`; the cycle runs from the `count`-th last
/// occurrence; a side all of whose moves in it gave check loses, unless both did.
fn reference_repetition(
    window: &[HistoryEntry],
    count: u32,
    turn: Color,
    rule: PerpetualCheck,
) -> Option<Outcome> {
    let n = window.len();
    let h = window.last()?.hash;
    let occurrences: Vec<usize> = (0..n)
        .filter(|&i| window[i].hash == h && (n - 1 - i) % 2 == 0)
        .collect();
    let count = count as usize;
    if occurrences.len() < count {
        return None;
    }
    let first = occurrences[occurrences.len() - count];
    // The side to move at entry j is `turn` when n - 1 - j is even; the move into j was made by
    // the other side.
    let mover = |j: usize| if (n - 1 - j) % 2 == 0 { !turn } else { turn };
    let perpetual = |side: Color| {
        let moves: Vec<usize> = (first + 1..n).filter(|&j| mover(j) == side).collect();
        !moves.is_empty() && moves.iter().all(|&j| window[j].in_check)
    };
    let (ours, theirs) = (perpetual(turn), perpetual(!turn));
    Some(match (rule, ours, theirs) {
        (PerpetualCheck::Loses, true, false) => Outcome::win(!turn, Reason::PerpetualCheck),
        (PerpetualCheck::Loses, false, true) => Outcome::win(turn, Reason::PerpetualCheck),
        _ => Outcome::draw(Reason::Repetition),
    })
}

fn is_repetition(o: Option<Outcome>) -> bool {
    o.is_some_and(|o| matches!(o.reason, Reason::Repetition | Reason::PerpetualCheck))
}

/// Alpha-beta's score at ply 1 of a position whose game the referee ended with `o` (side to
/// move `turn`, draws at 0).
fn expected_score(o: Option<Outcome>, turn: Color) -> Option<i32> {
    o.map(|o| match o.winner {
        None => 0,
        Some(w) if w == turn => MATE - 1,
        Some(_) => -(MATE - 1),
    })
}

#[derive(Default)]
struct Tally {
    games: usize,
    plies: usize,
    reasons: BTreeMap<&'static str, usize>,
}

/// Plays `game` to its end with `bias` and checks every engine's terminal view at every ply.
fn check_game(mut game: Game, bias: Bias, rng: &mut ChaCha8Rng, tally: &mut Tally) {
    let rules = *game.rules();
    let count = rules.repetition_count;
    let mut views: [View; 2] = [game.view(Color::Red), game.view(Color::Black)];
    let mut hist: [RepetitionHistory; 2] = [
        RepetitionHistory::of_view(&views[0]),
        RepetitionHistory::of_view(&views[1]),
    ];
    let mut board = PlayoutBoard::new(game.truth());
    let mut last: [Option<Move>; 2] = [None, None];
    let configs =
        [PlayoutPolicy::Random, PlayoutPolicy::CaptureBiased].map(|policy| PlayoutConfig {
            policy,
            max_plies: 1,
            cutoff: None,
            ..PlayoutConfig::default()
        });
    while game.outcome().is_none() && game.ply() < 600 {
        let m = pick(&game, bias, &last, rng);
        let mover = game.turn();
        let mi = mover.index();
        last[mi] = Some(m);
        // What the mover's alpha-beta would make of the move: its chance outcomes.
        let before = views[mi].position().clone();
        let branches = alphabeta::branches(&before, &views[mi].knowledge(), m);
        let record = *game.play(m).unwrap();
        let outcome = game.outcome();
        let took = record.captured.is_some_and(|p| p.role == Role::King);
        let irreversible = record.captured.is_some() || record.played.reveal.is_some();
        for obs in Color::ALL {
            let v = &mut views[obs.index()];
            v.apply(record.seen_by(obs, rules.capture_reveal)).unwrap();
            hist[obs.index()].push(HistoryEntry::of(v.position()), irreversible);
        }
        tally.plies += 1;
        let at = format!("{} ply {}", rules.name, game.ply());
        let truth = game.position();
        let turn = truth.turn();

        // (a) The classifier over each player's history is the referee's outcome; the histories
        // are the referee's window up to a constant key difference, and the rebuilt history is
        // the one kept; the repetition rule is the reference's.
        let window = game.repetition_window();
        for obs in Color::ALL {
            let w = hist[obs.index()].window();
            assert_eq!(classify(truth, took, w, count), outcome, "{at}");
            assert_eq!(w.len(), window.len(), "{at}");
            let d = w[0].hash ^ window[0].hash;
            for (a, b) in w.iter().zip(window) {
                assert_eq!(a.in_check, b.in_check, "{at}");
                assert_eq!(a.hash ^ b.hash, d, "{at}");
            }
            if game.ply() % 16 == 0 || outcome.is_some() {
                let rebuilt = RepetitionHistory::of_view(&views[obs.index()]);
                assert_eq!(rebuilt.window(), w, "{at}");
            }
        }
        for c in [2, 3, 4] {
            for rule in [PerpetualCheck::Loses, PerpetualCheck::Draws] {
                assert_eq!(
                    repetition(window, c, turn, rule),
                    reference_repetition(window, c, turn, rule),
                    "{at} count {c}"
                );
            }
        }

        // (b) Alpha-beta, on the mover's view with the referee's count: a hidden king taken is a
        // chance outcome of the move; otherwise its terminal score, or an empty move list.
        let view_pos: &Position = views[mi].position();
        let w = hist[mi].window();
        if took && record.captured_hidden {
            assert!(branches.as_slice().iter().any(|b| b.king_win), "{at}");
        } else {
            let got = alphabeta::terminal_score(view_pos, w, count, 1, 0)
                .or_else(|| view_pos.legal_moves().is_empty().then_some(-(MATE - 1)));
            assert_eq!(got, expected_score(outcome, turn), "{at}");
        }

        // (c) Playouts see the classifier without a history: the referee's outcome unless that
        // is a repetition.
        let bare = classify(truth, took, &[], count);
        if is_repetition(outcome) {
            assert!(
                bare.is_none_or(|o| o.reason == Reason::NoCaptureLimit),
                "{at}"
            );
        } else {
            assert_eq!(bare, outcome, "{at}");
        }
        if !took {
            assert_eq!(
                terminal_value(truth),
                bare.map(|o| outcome_score(o, turn)),
                "{at}"
            );
        }
        for cfg in &configs {
            let mut det = game.truth().clone();
            let p = playout(&mut det, Color::Red, cfg, rng);
            match bare {
                Some(o) => {
                    assert_eq!(p.plies, 0, "{at} {:?}", cfg.policy);
                    assert_eq!(p.score, outcome_score(o, Color::Red), "{at}");
                }
                None => assert!(p.plies >= 1, "{at} {:?}", cfg.policy),
            }
        }

        // (d) The playout board in lockstep: what a random playout reads.
        let board_took = board.make(m);
        assert_eq!(board_took, took, "{at}");
        assert_eq!(board.halfmoves(), truth.halfmoves(), "{at}");
        assert_eq!(board.turn(), turn, "{at}");
        let board_winner = if board_took {
            Some(Some(mover))
        } else if board.legal_moves().is_empty() {
            Some(Some(!turn))
        } else if rules
            .no_capture_plies
            .is_some_and(|l| board.halfmoves() >= l)
        {
            Some(None)
        } else {
            None
        };
        assert_eq!(board_winner, bare.map(|o| o.winner), "{at}");

        // (e) The ISMCTS tree: a king taken as it makes the move, then its terminal value, then
        // an empty move list.
        let tree = if took {
            Some(if mover == Color::Red { 1.0 } else { 0.0 })
        } else {
            ismcts::terminal_value(view_pos, w, count, Color::Red).or_else(|| {
                view_pos
                    .legal_moves()
                    .is_empty()
                    .then_some(if turn == Color::Red { 0.0 } else { 1.0 })
            })
        };
        assert_eq!(tree, outcome.map(|o| outcome_score(o, Color::Red)), "{at}");
    }
    tally.games += 1;
    let reason = game.outcome().map_or("unfinished", |o| o.reason.name());
    *tally.reasons.entry(reason).or_default() += 1;
}

/// Endgames rich in checks (face-up pieces only), for the rule sets with check.
const ENDGAMES: [&str; 3] = [
    "3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1",
    "3k5/R8/9/9/9/9/9/9/r8/5K3 w - - 0 1",
    "4k4/4a4/9/9/9/9/9/2N6/9/3K1R3 w - - 0 1",
];

#[test]
fn every_engine_agrees_with_the_referee_on_the_end_of_the_game() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let mut total = 0;
    for rules in rule_sets() {
        let mut tally = Tally::default();
        for (bias, games) in [
            (Bias::Uniform, 400),
            (Bias::Repeat, 400),
            (Bias::Check, 400),
        ] {
            for _ in 0..games {
                let game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
                check_game(game, bias, &mut rng, &mut tally);
            }
        }
        if rules.check {
            for fen in ENDGAMES {
                let pos = Position::from_fen(fen, &rules).unwrap_or_else(|e| panic!("{fen}: {e}"));
                for bias in [Bias::Uniform, Bias::Repeat, Bias::Check] {
                    for _ in 0..40 {
                        let game = Game::from_position(pos.clone()).unwrap();
                        check_game(game, bias, &mut rng, &mut tally);
                    }
                }
            }
        }
        println!(
            "{}: {} games, {} plies, {:?}",
            rules.name, tally.games, tally.plies, tally.reasons
        );
        let seen = |r: Reason| tally.reasons.get(r.name()).copied().unwrap_or(0);
        // The games reach every ending the rules have, often enough to mean something.
        assert!(seen(Reason::Repetition) >= 20, "{}", rules.name);
        assert!(seen(Reason::NoCaptureLimit) >= 20, "{}", rules.name);
        if rules.check {
            assert!(seen(Reason::Checkmate) >= 20, "{}", rules.name);
            assert!(seen(Reason::PerpetualCheck) >= 10, "{}", rules.name);
        } else {
            assert!(seen(Reason::KingCaptured) >= 20, "{}", rules.name);
        }
        total += tally.games;
    }
    assert!(total >= 7000, "{total} games");
}
