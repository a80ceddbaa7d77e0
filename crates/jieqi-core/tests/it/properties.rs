//! Invariants over seeded random games, for every rule preset (and two custom switch mixes).
//!
//! At every ply: make/unmake restores the position (hash included) for every legal move and every
//! reveal/capture identity it could carry; the incremental hash equals the hash from scratch;
//! `legal_moves`, `pseudo_legal_moves`, `is_legal` and `is_in_check` agree with a naive reference
//! written here from the rules alone; the position survives `to_setup`/`from_setup` and FEN round
//! trips; every sample of a player's view has the view's board, legal moves and pool. Game
//! outcomes are checked against the position they end in.

use std::collections::BTreeSet;

use jieqi_core::{
    ByColor, CaptureReveal, Color, Deal, Game, HiddenMoves, Move, Occupant, Outcome, Piece,
    PlayError, PlayedMove, Pool, Position, Reason, Role, RuleName, Rules, Square, View,
    uniform_below,
};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

const MAX_PLIES: usize = 150;

// ---------------------------------------------------------------------------------------------
// The naive reference: move generation and legality from the rules alone, reading the board only
// through `Position::occupant`.
// ---------------------------------------------------------------------------------------------

type Board = [Option<Occupant>; 90];

fn board_of(pos: &Position) -> Board {
    let mut b = [None; 90];
    for (i, cell) in b.iter_mut().enumerate() {
        *cell = pos.occupant(Square::new(i).unwrap());
    }
    b
}

/// The square at (file, rank), if on the board (index `rank * 9 + file`).
fn at(file: i32, rank: i32) -> Option<Square> {
    if (0..9).contains(&file) && (0..10).contains(&rank) {
        Square::new((rank * 9 + file) as usize)
    } else {
        None
    }
}

fn coords(s: Square) -> (i32, i32) {
    let i = s.index() as i32;
    (i % 9, i / 9)
}

fn in_palace(s: Square, c: Color) -> bool {
    let (f, r) = coords(s);
    (3..=5).contains(&f)
        && match c {
            Color::Red => (0..=2).contains(&r),
            Color::Black => (7..=9).contains(&r),
        }
}

fn on_own_half(s: Square, c: Color) -> bool {
    let (_, r) = coords(s);
    match c {
        Color::Red => r <= 4,
        Color::Black => r >= 5,
    }
}

/// The piece that starts on a square in Xiangqi, kings included.
fn naive_start_role(s: Square) -> Option<Role> {
    use Role::*;
    const BACK: [Role; 9] = [
        Chariot, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Chariot,
    ];
    let (f, r) = coords(s);
    match r {
        0 | 9 => Some(BACK[f as usize]),
        2 | 7 if f == 1 || f == 7 => Some(Cannon),
        3 | 6 if f % 2 == 0 => Some(Pawn),
        _ => None,
    }
}

const ORTHO: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Pushes every square the piece on `from` may move to, ignoring the safety of its own king.
fn naive_targets(board: &Board, rules: &Rules, from: Square, out: &mut Vec<Square>) {
    let Some(occ) = board[from.index()] else {
        return;
    };
    let us = occ.color();
    let lands = |t: Square| board[t.index()].is_none_or(|o| o.color() != us);
    let empty = |t: Square| board[t.index()].is_none();
    let (f, r) = coords(from);
    let (role, hidden) = match occ {
        Occupant::Revealed(p) => (p.role, false),
        Occupant::Hidden(_) => match rules.hidden_moves {
            HiddenMoves::StartSquare => (
                naive_start_role(from).expect("a hidden piece stands on a start square"),
                true,
            ),
            HiddenMoves::Step => {
                // Seed-000 hidden piece: flip in place or one orthogonal step.
                out.push(from);
                for (df, dr) in ORTHO {
                    if let Some(t) = at(f + df, r + dr)
                        && lands(t)
                    {
                        out.push(t);
                    }
                }
                return;
            }
            HiddenMoves::None => panic!("hidden piece on {from} under rules without hidden pieces"),
        },
    };
    match role {
        Role::Chariot => {
            for (df, dr) in ORTHO {
                let mut k = 1;
                while let Some(t) = at(f + k * df, r + k * dr) {
                    if empty(t) {
                        out.push(t);
                    } else {
                        if lands(t) {
                            out.push(t);
                        }
                        break;
                    }
                    k += 1;
                }
            }
        }
        Role::Cannon => {
            for (df, dr) in ORTHO {
                let mut k = 1;
                let mut screen = false;
                while let Some(t) = at(f + k * df, r + k * dr) {
                    if !screen {
                        if empty(t) {
                            out.push(t);
                        } else {
                            screen = true;
                        }
                    } else if !empty(t) {
                        if lands(t) {
                            out.push(t);
                        }
                        break;
                    }
                    k += 1;
                }
            }
        }
        Role::Horse => {
            for (df, dr) in [
                (1, 2),
                (-1, 2),
                (1, -2),
                (-1, -2),
                (2, 1),
                (2, -1),
                (-2, 1),
                (-2, -1),
            ] {
                let leg = if df == 2 || df == -2 {
                    at(f + df / 2, r)
                } else {
                    at(f, r + dr / 2)
                };
                if let (Some(t), Some(leg)) = (at(f + df, r + dr), leg)
                    && empty(leg)
                    && lands(t)
                {
                    out.push(t);
                }
            }
        }
        Role::Elephant => {
            for (df, dr) in DIAG {
                if let (Some(t), Some(eye)) = (at(f + 2 * df, r + 2 * dr), at(f + df, r + dr))
                    && empty(eye)
                    && lands(t)
                    && (!rules.confine_elephants || on_own_half(t, us))
                {
                    out.push(t);
                }
            }
        }
        Role::Advisor => {
            for (df, dr) in DIAG {
                if let Some(t) = at(f + df, r + dr)
                    && lands(t)
                    && (!(rules.confine_advisors || hidden) || in_palace(t, us))
                {
                    out.push(t);
                }
            }
        }
        Role::King => {
            for (df, dr) in ORTHO {
                if let Some(t) = at(f + df, r + dr)
                    && lands(t)
                    && (!rules.confine_king || in_palace(t, us))
                {
                    out.push(t);
                }
            }
        }
        Role::Pawn => {
            let forward = if us == Color::Red { 1 } else { -1 };
            let mut steps = vec![(0, forward)];
            if !hidden && !on_own_half(from, us) {
                steps.extend([(1, 0), (-1, 0)]);
            }
            for (df, dr) in steps {
                if let Some(t) = at(f + df, r + dr)
                    && lands(t)
                {
                    out.push(t);
                }
            }
        }
    }
}

fn face_up_king(board: &Board, c: Color) -> Option<Square> {
    (0..90).map(|i| Square::new(i).unwrap()).find(|s| {
        board[s.index()]
            == Some(Occupant::Revealed(Piece {
                color: c,
                role: Role::King,
            }))
    })
}

/// Whether any piece of `by` could move onto `target`.
fn naive_attacked(board: &Board, rules: &Rules, target: Square, by: Color) -> bool {
    let mut v = Vec::with_capacity(32);
    for i in 0..90 {
        let s = Square::new(i).unwrap();
        if board[i].is_some_and(|o| o.color() == by) {
            v.clear();
            naive_targets(board, rules, s, &mut v);
            if v.contains(&target) {
                return true;
            }
        }
    }
    false
}

/// Both kings face up on one file with nothing between them.
fn naive_kings_facing(board: &Board) -> bool {
    let (Some(r), Some(b)) = (
        face_up_king(board, Color::Red),
        face_up_king(board, Color::Black),
    ) else {
        return false;
    };
    let ((rf, rr), (bf, br)) = (coords(r), coords(b));
    rf == bf && ((rr.min(br) + 1)..rr.max(br)).all(|k| board[at(rf, k).unwrap().index()].is_none())
}

fn naive_in_check(board: &Board, rules: &Rules, c: Color) -> bool {
    match face_up_king(board, c) {
        Some(k) => {
            naive_attacked(board, rules, k, !c)
                || (rules.flying_general && naive_kings_facing(board))
        }
        None => false,
    }
}

/// Whether the pseudo-legal move from-to keeps the mover's king safe.
fn naive_safe_after(board: &Board, rules: &Rules, us: Color, from: Square, to: Square) -> bool {
    if !rules.check {
        return true;
    }
    let mut b = *board;
    let p = b[from.index()].take();
    b[to.index()] = p;
    if rules.flying_general && naive_kings_facing(&b) {
        return false;
    }
    match face_up_king(&b, us) {
        Some(k) => !naive_attacked(&b, rules, k, !us),
        None => true,
    }
}

/// Pseudo-legal and legal moves of the side to move by the naive reference.
fn naive_moves(pos: &Position) -> (BTreeSet<Move>, BTreeSet<Move>) {
    let board = board_of(pos);
    let rules = pos.rules();
    let us = pos.turn();
    let mut pseudo = BTreeSet::new();
    let mut legal = BTreeSet::new();
    let mut v = Vec::with_capacity(32);
    for i in 0..90 {
        let from = Square::new(i).unwrap();
        if board[i].is_none_or(|o| o.color() != us) {
            continue;
        }
        v.clear();
        naive_targets(&board, rules, from, &mut v);
        for &to in &v {
            let m = Move::new(from, to);
            pseudo.insert(m);
            if naive_safe_after(&board, rules, us, from, to) {
                legal.insert(m);
            }
        }
    }
    (pseudo, legal)
}

// ---------------------------------------------------------------------------------------------
// Per-position checks.
// ---------------------------------------------------------------------------------------------

fn ctx(pos: &Position) -> String {
    format!("[{}] {}", pos.rules().name, pos.fen())
}

fn roles_in(pool: &Pool) -> Vec<Role> {
    Role::ALL.into_iter().filter(|r| pool.get(*r) > 0).collect()
}

fn sub(mut p: Pool, r: Role) -> Pool {
    p.0[r.index()] -= 1;
    p
}

/// Every identity variant of a legal move: each reveal in the mover's pool for a hidden mover;
/// for a capture of a hidden piece, no captured identity or each one in the captured side's pool.
fn variants(pos: &Position, m: Move) -> Vec<PlayedMove> {
    let us = pos.turn();
    let reveals: Vec<Option<Role>> = if pos.is_hidden(m.from) {
        roles_in(pos.pool(us)).into_iter().map(Some).collect()
    } else {
        vec![None]
    };
    let mut captures = vec![None];
    if m.from != m.to && pos.is_hidden(m.to) {
        captures.extend(roles_in(pos.pool(!us)).into_iter().map(Some));
    }
    let mut out = Vec::new();
    for &reveal in &reveals {
        for &capture in &captures {
            out.push(PlayedMove {
                mv: m,
                reveal,
                capture,
            });
        }
    }
    out
}

/// (a) make/unmake restores exactly, (b) incremental hash, plus what each make must change.
fn check_make_unmake(pos: &Position, legal: &[Move]) {
    let us = pos.turn();
    assert_eq!(pos.hash(), pos.compute_hash(), "hash of {}", ctx(pos));
    for &m in legal {
        for pm in variants(pos, m) {
            let text = pm.to_text(us);
            let mut p = pos.clone();
            let undo = p.make(pm);
            assert_eq!(
                p.hash(),
                p.compute_hash(),
                "incremental hash after {text} from {}",
                ctx(pos)
            );
            assert_eq!(p.turn(), !us, "turn after {text} from {}", ctx(pos));
            let landed = match pos.occupant(m.from) {
                Some(Occupant::Hidden(_)) => Piece {
                    color: us,
                    role: pm.reveal.unwrap(),
                },
                Some(Occupant::Revealed(piece)) => piece,
                None => panic!("legal move {m} from an empty square in {}", ctx(pos)),
            };
            assert_eq!(
                p.occupant(m.to),
                Some(Occupant::Revealed(landed)),
                "{text} from {}",
                ctx(pos)
            );
            let captured = if m.from == m.to {
                None
            } else {
                pos.occupant(m.to)
            };
            if m.from != m.to {
                assert_eq!(p.occupant(m.from), None, "{text} from {}", ctx(pos));
            }
            assert_eq!(undo.captured(), captured, "{text} from {}", ctx(pos));
            let mut want_pools = *pos.pools();
            if let Some(r) = pm.reveal {
                want_pools[us] = sub(want_pools[us], r);
            }
            if let Some(r) = pm.capture {
                want_pools[!us] = sub(want_pools[!us], r);
            }
            assert_eq!(
                p.pools(),
                &want_pools,
                "pools after {text} from {}",
                ctx(pos)
            );
            let want_half = if captured.is_some() {
                0
            } else {
                pos.halfmoves() + 1
            };
            assert_eq!(p.halfmoves(), want_half, "{text} from {}", ctx(pos));
            assert_eq!(
                pos.gives_check(m, pm.reveal),
                p.in_check(),
                "gives_check({text}) in {}",
                ctx(pos)
            );
            p.unmake(pm, undo);
            assert_eq!(&p, pos, "make/unmake of {text} from {}", ctx(pos));
            assert_eq!(p.hash(), pos.hash());

            // `play` accepts exactly these identity variants and gives the same result.
            let mut q = pos.clone();
            let mut r = pos.clone();
            q.play(pm)
                .unwrap_or_else(|e| panic!("play({text}) refused in {}: {e}", ctx(pos)));
            r.make(pm);
            assert_eq!(q, r, "play vs make of {text} in {}", ctx(pos));
        }
    }
}

/// (c) `legal_moves`, `pseudo_legal_moves`, `is_legal` and `is_in_check` against the naive
/// reference, over every from/to pair (from == to included).
fn check_against_naive(pos: &Position) -> Vec<Move> {
    let (naive_pseudo, naive_legal) = naive_moves(pos);
    let legal = pos.legal_moves();
    let got: BTreeSet<Move> = legal.iter().copied().collect();
    assert_eq!(
        got.len(),
        legal.len(),
        "legal_moves has duplicates in {}",
        ctx(pos)
    );
    if got != naive_legal {
        let extra: Vec<String> = got
            .difference(&naive_legal)
            .map(|m| m.to_string())
            .collect();
        let missing: Vec<String> = naive_legal
            .difference(&got)
            .map(|m| m.to_string())
            .collect();
        panic!(
            "legal_moves differs from the naive reference in {}: generated but illegal {extra:?}, \
             legal but not generated {missing:?}",
            ctx(pos)
        );
    }
    let mut list = jieqi_core::MoveList::new();
    pos.pseudo_legal_moves(&mut list);
    let pseudo: BTreeSet<Move> = list.iter().copied().collect();
    assert_eq!(pseudo, naive_pseudo, "pseudo_legal_moves in {}", ctx(pos));
    for f in 0..90 {
        for t in 0..90 {
            let m = Move::new(Square::new(f).unwrap(), Square::new(t).unwrap());
            assert_eq!(
                pos.is_legal(m),
                naive_legal.contains(&m),
                "is_legal({m}) in {}",
                ctx(pos)
            );
        }
    }
    let board = board_of(pos);
    for c in Color::ALL {
        assert_eq!(
            pos.is_in_check(c),
            naive_in_check(&board, pos.rules(), c),
            "is_in_check({c}) in {}",
            ctx(pos)
        );
    }
    assert_eq!(
        pos.in_check(),
        pos.rules().check && naive_in_check(&board, pos.rules(), pos.turn()),
        "in_check in {}",
        ctx(pos)
    );
    naive_legal.into_iter().collect()
}

/// The position survives `to_setup`/`from_setup` and its FEN.
fn check_round_trips(pos: &Position) {
    let again = Position::from_setup(&pos.to_setup(), pos.rules())
        .unwrap_or_else(|e| panic!("from_setup(to_setup) refused {}: {e}", ctx(pos)));
    assert_eq!(&again, pos, "setup round trip of {}", ctx(pos));
    let fen = pos.fen();
    let again = Position::from_fen(&fen, pos.rules())
        .unwrap_or_else(|e| panic!("from_fen refused its own fen {fen}: {e}"));
    assert_eq!(&again, pos, "fen round trip of {fen}");
    assert_eq!(again.fen(), fen);
}

/// Refusals of `play`: each must leave the position untouched.
fn check_play_refusals(pos: &Position, m: Move) {
    let us = pos.turn();
    let mut p = pos.clone();
    if pos.is_hidden(m.from) {
        let bare = PlayedMove::plain(m);
        assert_eq!(
            p.play(bare).err(),
            Some(PlayError::RevealMismatch(m)),
            "{}",
            ctx(pos)
        );
        if let Some(r) = Role::ALL.into_iter().find(|r| pos.pool(us).get(*r) == 0) {
            let pm = PlayedMove {
                mv: m,
                reveal: Some(r),
                capture: None,
            };
            assert_eq!(
                p.play(pm).err(),
                Some(PlayError::RevealNotInPool(m, r)),
                "{}",
                ctx(pos)
            );
        }
    } else {
        let pm = PlayedMove {
            mv: m,
            reveal: Some(Role::Pawn),
            capture: None,
        };
        assert_eq!(
            p.play(pm).err(),
            Some(PlayError::RevealMismatch(m)),
            "{}",
            ctx(pos)
        );
    }
    if m.from == m.to || !pos.is_hidden(m.to) {
        let pm = PlayedMove {
            mv: m,
            reveal: variants(pos, m)[0].reveal,
            capture: Some(Role::Pawn),
        };
        assert_eq!(
            p.play(pm).err(),
            Some(PlayError::BadCaptureIdentity(m, Role::Pawn)),
            "{}",
            ctx(pos)
        );
    }
    // A move from an empty square, and one by the side not to move.
    let empty = (0..90)
        .map(|i| Square::new(i).unwrap())
        .find(|s| pos.occupant(*s).is_none())
        .unwrap();
    let bogus = Move::new(empty, m.to);
    assert_eq!(
        p.play(PlayedMove::plain(bogus)).err(),
        Some(PlayError::IllegalMove(bogus))
    );
    let theirs = (0..90)
        .map(|i| Square::new(i).unwrap())
        .find(|s| pos.occupant(*s).is_some_and(|o| o.color() != us))
        .unwrap();
    let wrong_side = Move::new(theirs, empty);
    assert_eq!(
        p.play(PlayedMove::plain(wrong_side)).err(),
        Some(PlayError::IllegalMove(wrong_side)),
        "{}",
        ctx(pos)
    );
    assert_eq!(&p, pos, "a refused play changed {}", ctx(pos));
}

/// Whether the position is one a running game can be in: no side has lost its king, and under
/// rules with a hidden king a side without a face-up king still has hidden pieces to hold it.
/// (A `Position` game that withholds captured identities can reach "king in the pool, no hidden
/// piece left"; `from_setup` rightly calls that a missing king.)
fn king_accounted_for(pos: &Position) -> bool {
    Color::ALL.into_iter().all(|c| {
        pos.king(c).is_some()
            || (pos.rules().hidden_king
                && pos.pool(c).get(Role::King) > 0
                && pos.hidden_count(c) > 0)
    })
}

/// All per-position checks, setup and FEN round trips included; returns the legal moves.
fn check_position(pos: &Position) -> Vec<Move> {
    let legal = check_against_naive(pos);
    check_make_unmake(pos, &legal);
    if king_accounted_for(pos) {
        check_round_trips(pos);
    }
    legal
}

// ---------------------------------------------------------------------------------------------
// Views and samples.
// ---------------------------------------------------------------------------------------------

/// (d) and (e): samples of `view` have its board and legal moves, and identities that fit its
/// pools exactly; the truth is one of the assignments the view allows.
fn check_view(game: &Game, view: &View, samples: usize, rng: &mut ChaCha8Rng) {
    let vpos = view.position();
    let truth = game.position();
    let legal: BTreeSet<Move> = view.legal_moves().iter().copied().collect();
    let true_legal: BTreeSet<Move> = truth.legal_moves().iter().copied().collect();
    assert_eq!(
        legal,
        true_legal,
        "view and truth legal moves differ in {}",
        ctx(truth)
    );
    for c in Color::ALL {
        for r in Role::ALL {
            assert!(
                truth.pool(c).get(r) <= vpos.pool(c).get(r),
                "the truth is outside {}'s view {} (truth {})",
                view.player(),
                ctx(vpos),
                ctx(truth)
            );
        }
        assert_eq!(
            view.unknown_captured(c),
            vpos.pool(c).total() - truth.pool(c).total(),
            "{}",
            ctx(vpos)
        );
    }
    for _ in 0..samples {
        let s = view.sample(rng);
        let spos = s.position();
        assert_eq!(spos.turn(), vpos.turn());
        for sq in (0..90).map(|i| Square::new(i).unwrap()) {
            assert_eq!(spos.occupant(sq), vpos.occupant(sq), "sample board on {sq}");
            assert_eq!(
                s.identity(sq).is_some(),
                vpos.is_hidden(sq),
                "identity on {sq} in a sample of {}",
                ctx(vpos)
            );
        }
        let slegal: BTreeSet<Move> = s.legal_moves().iter().copied().collect();
        assert_eq!(slegal, legal, "sample legal moves in {}", ctx(vpos));
        for c in Color::ALL {
            let mut onboard = Pool::EMPTY;
            for sq in vpos.hidden_squares(c) {
                onboard.0[s.identity(sq).unwrap().index()] += 1;
            }
            assert_eq!(
                spos.pool(c),
                &onboard,
                "sample pool of {c} in {}",
                ctx(vpos)
            );
            let mut all = onboard;
            for r in Role::ALL {
                all.0[r.index()] += s.captured_unknown()[c].get(r);
            }
            assert_eq!(
                &all,
                vpos.pool(c),
                "sample identities of {c} in {}",
                ctx(vpos)
            );
            assert_eq!(s.captured_unknown()[c].total(), view.unknown_captured(c));
        }
        assert_eq!(spos.hash(), spos.compute_hash());
    }
}

/// Determinization make/unmake: playing any legal move resolves its identities from the sample,
/// and taking it back restores the sample.
fn check_determinization_moves(view: &View, rng: &mut ChaCha8Rng) {
    let s = view.sample(rng);
    for &m in s.legal_moves().iter() {
        let mut d = s.clone();
        let (pm, undo) = d.make(m);
        assert_eq!(pm.reveal, s.identity(m.from));
        assert_eq!(d.position().hash(), d.position().compute_hash());
        assert_eq!(d.identity(m.to), None);
        d.unmake(pm, undo);
        assert_eq!(d, s, "determinization make/unmake of {m}");
    }
}

// ---------------------------------------------------------------------------------------------
// Game and position drivers.
// ---------------------------------------------------------------------------------------------

#[derive(Default, Debug)]
struct Tally {
    games: usize,
    plies: usize,
    reasons: std::collections::BTreeMap<&'static str, usize>,
}

fn check_outcome(game: &Game, outcome: Outcome, hashes: &[u64]) {
    let pos = game.position();
    let rules = game.rules();
    let to_move = pos.turn();
    assert!(
        game.legal_moves().is_empty(),
        "a finished game has legal moves"
    );
    match outcome.reason {
        Reason::Checkmate | Reason::Stalemate => {
            assert!(
                pos.legal_moves().is_empty(),
                "{:?} with legal moves in {}",
                outcome.reason,
                ctx(pos)
            );
            assert_eq!(outcome.winner, Some(!to_move));
            assert_eq!(
                outcome.reason == Reason::Checkmate,
                pos.in_check(),
                "{:?} in {}",
                outcome.reason,
                ctx(pos)
            );
        }
        Reason::KingCaptured => {
            assert!(!rules.check, "a king was captured under rules with check");
            let last = game.records().last().expect("a king is captured by a move");
            assert_eq!(last.captured.map(|p| p.role), Some(Role::King));
            assert_eq!(outcome.winner, Some(last.mover));
            assert!(pos.king_lost(to_move));
        }
        Reason::NoCaptureLimit => {
            assert_eq!(outcome.winner, None);
            assert!(rules.no_capture_plies.is_some_and(|l| pos.halfmoves() >= l));
        }
        Reason::Repetition | Reason::PerpetualCheck => {
            let now = *hashes.last().unwrap();
            let n = hashes.iter().filter(|&&h| h == now).count() as u32;
            assert!(
                n >= rules.repetition_count,
                "{:?} after {n} occurrences",
                outcome.reason
            );
            if outcome.reason == Reason::PerpetualCheck {
                let loser = !outcome.winner.expect("perpetual check has a winner");
                let last_by_loser = game.records().iter().rev().find(|r| r.mover == loser);
                assert!(last_by_loser.is_some_and(|r| r.check));
            } else {
                assert_eq!(outcome.winner, None);
            }
        }
    }
}

/// A referee game with random legal moves; shadow positions replay each ply with the identities
/// the truth and each player are entitled to and must equal the game's positions and views.
fn run_game(rules: Rules, seed: u64, tally: &mut Tally) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let deal = Deal::shuffled_for(&rules, &mut rng);
    let mut game = Game::new(rules, deal);
    let mut shadow = Position::start(&rules);
    let mut seen = ByColor::new_with(|_| Position::start(&rules));
    let mut hashes = vec![shadow.hash()];
    tally.games += 1;
    loop {
        let pos = game.position();
        assert_eq!(
            pos, &shadow,
            "seed {seed}: truth vs replayed start + records"
        );
        for c in Color::ALL {
            let view = game.view(c);
            assert_eq!(view.player(), c);
            assert!(!view.is_omniscient());
            // A fair view's knowledge holds nothing but the pools.
            assert_eq!(view.knowledge(), jieqi_core::Knowledge::FAIR);
            assert_eq!(
                view.position(),
                &seen[c],
                "seed {seed}: {c}'s view vs replay"
            );
            let history: Vec<PlayedMove> = game
                .records()
                .iter()
                .map(|r| r.seen_by(c, rules.capture_reveal))
                .collect();
            assert_eq!(view.history(), &history[..]);
        }
        if let Some(outcome) = game.outcome() {
            check_outcome(&game, outcome, &hashes);
            *tally.reasons.entry(outcome.reason.name()).or_default() += 1;
            return;
        }
        assert!(
            game.ply() < MAX_PLIES + 1,
            "seed {seed}: the game runs on past the test's ply cap"
        );
        if game.ply() == MAX_PLIES {
            *tally.reasons.entry("ply-cap").or_default() += 1;
            return;
        }
        // The game is not over, so no end condition may hold.
        assert!(!pos.king_lost(pos.turn()));
        let now = *hashes.last().unwrap();
        assert!(hashes.iter().filter(|&&h| h == now).count() < rules.repetition_count as usize);
        assert!(rules.no_capture_plies.is_none_or(|l| pos.halfmoves() < l));

        let legal = check_position(pos);
        assert!(
            !legal.is_empty(),
            "seed {seed}: no legal move but no outcome"
        );
        let game_moves: BTreeSet<Move> = game.legal_moves().iter().copied().collect();
        assert_eq!(game_moves, legal.iter().copied().collect());

        let mover = game.turn();
        check_view(&game, &game.view(mover), 3, &mut rng);
        check_view(&game, &game.view(!mover), 1, &mut rng);
        if game.ply() % 16 == 0 {
            check_determinization_moves(&game.view(mover), &mut rng);
        }

        let m = legal[uniform_below(&mut rng, legal.len() as u32) as usize];
        check_play_refusals(pos, m);
        let rec = *game.play(m).expect("a legal move");
        assert_eq!(rec.mover, mover);
        assert_eq!(rec.played.mv, m);
        assert_eq!(rec.check, game.position().in_check());
        shadow.make(rec.played);
        for c in Color::ALL {
            seen[c].make(rec.seen_by(c, rules.capture_reveal));
        }
        hashes.push(game.position().hash());
        tally.plies += 1;
    }
}

/// Picks a role from a pool with probability proportional to its count.
fn weighted_pick(pool: &Pool, rng: &mut ChaCha8Rng) -> Role {
    let mut k = uniform_below(rng, pool.total());
    for r in Role::ALL {
        let n = pool.get(r) as u32;
        if k < n {
            return r;
        }
        k -= n;
    }
    unreachable!("k below the pool total")
}

/// A game on a plain `Position`: random reveals from the pool, captured hidden identities given
/// or withheld at random; at the end every move is taken back.
fn run_position_game(rules: Rules, seed: u64, tally: &mut Tally) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = Position::start(&rules);
    let mut pos = start.clone();
    let mut stack = Vec::new();
    tally.games += 1;
    for _ in 0..MAX_PLIES {
        if pos.king_lost(pos.turn()) {
            break;
        }
        let legal = check_position(&pos);
        if legal.is_empty() {
            break;
        }
        let m = legal[uniform_below(&mut rng, legal.len() as u32) as usize];
        let us = pos.turn();
        let reveal = pos
            .is_hidden(m.from)
            .then(|| weighted_pick(pos.pool(us), &mut rng));
        let capture = (m.from != m.to && pos.is_hidden(m.to) && uniform_below(&mut rng, 2) == 0)
            .then(|| weighted_pick(pos.pool(!us), &mut rng));
        let pm = PlayedMove {
            mv: m,
            reveal,
            capture,
        };
        let before = pos.clone();
        let undo = pos.make(pm);
        stack.push((pm, undo, before));
        tally.plies += 1;
    }
    while let Some((pm, undo, before)) = stack.pop() {
        pos.unmake(pm, undo);
        assert_eq!(
            pos,
            before,
            "seed {seed}: unmaking {}",
            pm.to_text(pos.turn())
        );
    }
    assert_eq!(pos, start);
}

fn run_batch(rules: Rules, games: u64, position_games: u64, seed: u64) -> Tally {
    let mut tally = Tally::default();
    for i in 0..games {
        run_game(rules, seed + i, &mut tally);
    }
    for i in 0..position_games {
        run_position_game(rules, seed + 1_000_000 + i, &mut tally);
    }
    eprintln!("{}: {tally:?}", rules.name);
    tally
}

// ---------------------------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------------------------

#[test]
fn naive_start_squares_match_core() {
    for i in 0..90 {
        let s = Square::new(i).unwrap();
        assert_eq!(
            jieqi_core::start_role(s),
            naive_start_role(s),
            "start role of {s}"
        );
    }
}

#[test]
fn random_games_standard() {
    let t = run_batch(Rules::standard(), 400, 100, 0x5741_0000);
    assert!(t.plies > 40_000, "{t:?}");
}

#[test]
fn random_games_xiangqi() {
    let t = run_batch(Rules::xiangqi(), 300, 100, 0x5841_0000);
    assert!(t.plies > 40_000, "{t:?}");
}

#[test]
fn random_games_simple() {
    let t = run_batch(Rules::simple(), 500, 150, 0x5349_0000);
    assert!(t.plies > 40_000, "{t:?}");
    assert!(
        t.reasons.get("king-captured").copied().unwrap_or(0) > 0,
        "no simple game ended with a captured king: {t:?}"
    );
}

/// Standard Jieqi with Xiangqi's advisor and elephant confinement and no capture reveal. A hidden
/// piece may reveal as an advisor outside its palace (or an elephant across the river); the round
/// trips check that `from_setup` accepts such positions.
#[test]
fn random_games_confined_jieqi() {
    let rules = Rules {
        name: RuleName::new("confined-jieqi"),
        confine_advisors: true,
        confine_elephants: true,
        capture_reveal: CaptureReveal::Nobody,
        ..Rules::standard()
    };
    run_batch(rules, 100, 40, 0x434f_0000);
}

/// Jieqi with a free king and no flying-general rule, both sides learning captured identities.
#[test]
fn random_games_free_king() {
    let rules = Rules {
        name: RuleName::new("free-king"),
        confine_king: false,
        flying_general: false,
        capture_reveal: CaptureReveal::Both,
        ..Rules::standard()
    };
    run_batch(rules, 100, 40, 0x464b_0000);
}
