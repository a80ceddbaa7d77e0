//! The library's evaluation — its one path, entered through `evaluate`, the tabulated
//! `Evaluator` and the search's `evaluate_with` on terms kept along make/unmake, and
//! `evaluate_known` — against a straightforward reference written term by term (a 90-square scan
//! with a board copy, mobility walked on the board), on seeded random positions of all three rule
//! presets: the players' views (pools as each side knows them) and the omniscient view along
//! random games, so hidden pieces, captured kings and pools in many states occur, under the
//! default weights, the built-in learned ones and seeded random weights (so that every term is
//! exercised with its own scale).
use jieqi_core::{
    Belief, Color, Deal, Game, Knowledge, Occupant, PlayedMove, Pool, Position, Role, Rules,
    Square, uniform_below,
};
use jieqi_search::eval::{EvalWeights, Evaluator, evaluate, evaluate_known};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

fn pst(w: &EvalWeights, color: Color, role: Role, sq: Square) -> i32 {
    let center = 4 - (sq.file() - 4).abs();
    let adv = match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    };
    match role {
        Role::Chariot => w.chariot_center * center + w.chariot_advance * adv,
        Role::Horse => w.horse_center * center + w.horse_advance * adv,
        Role::Cannon => w.cannon_center * center + w.cannon_advance * adv,
        Role::Pawn if adv >= 5 => {
            let last = if adv == 9 { w.pawn_last_rank } else { 0 };
            w.pawn_center * center + w.pawn_advance * (adv - 4) - last
        }
        _ => 0,
    }
}

fn hidden_value(w: &EvalWeights, pool: &Pool) -> i32 {
    let n = pool.total();
    if n == 0 {
        return 0;
    }
    let sum: i64 = Role::ALL
        .iter()
        .map(|&r| w.identity(r) as i64 * pool.get(r) as i64)
        .sum();
    (sum / n as i64) as i32
}

/// 0 empty, else 1 + colour * 8 + kind (7 hidden).
fn cell(o: Option<Occupant>) -> u8 {
    match o {
        None => 0,
        Some(Occupant::Hidden(c)) => 1 + c.index() as u8 * 8 + 7,
        Some(Occupant::Revealed(p)) => 1 + p.color.index() as u8 * 8 + p.role.index() as u8,
    }
}

fn cell_color(c: u8) -> usize {
    usize::from(c > 8)
}

fn at(f: i32, r: i32) -> Option<usize> {
    ((0..9).contains(&f) && (0..10).contains(&r)).then_some((r * 9 + f) as usize)
}

fn mobility(board: &[u8; 90], s: usize, role: Role, us: usize) -> i32 {
    let (f0, r0) = ((s % 9) as i32, (s / 9) as i32);
    let mut n = 0;
    let dirs = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    match role {
        Role::Chariot => {
            for (df, dr) in dirs {
                let (mut f, mut r) = (f0 + df, r0 + dr);
                while let Some(t) = at(f, r) {
                    let c = board[t];
                    if c == 0 {
                        n += 1;
                    } else {
                        n += i32::from(cell_color(c) != us);
                        break;
                    }
                    f += df;
                    r += dr;
                }
            }
        }
        Role::Cannon => {
            for (df, dr) in dirs {
                let (mut f, mut r) = (f0 + df, r0 + dr);
                let mut screened = false;
                while let Some(t) = at(f, r) {
                    let c = board[t];
                    if !screened {
                        if c == 0 {
                            n += 1;
                        } else {
                            screened = true;
                        }
                    } else if c != 0 {
                        n += i32::from(cell_color(c) != us);
                        break;
                    }
                    f += df;
                    r += dr;
                }
            }
        }
        Role::Horse => {
            for (df, dr, lf, lr) in [
                (1, 2, 0, 1),
                (-1, 2, 0, 1),
                (1, -2, 0, -1),
                (-1, -2, 0, -1),
                (2, 1, 1, 0),
                (2, -1, 1, 0),
                (-2, 1, -1, 0),
                (-2, -1, -1, 0),
            ] {
                if let (Some(t), Some(leg)) = (at(f0 + df, r0 + dr), at(f0 + lf, r0 + lr)) {
                    let c = board[t];
                    if board[leg] == 0 && (c == 0 || cell_color(c) != us) {
                        n += 1;
                    }
                }
            }
        }
        _ => {}
    }
    n
}

/// The learned table's value for kind `kind` (role index, 7 hidden) of `color` on `sq`, computed
/// from its definition: files a–e mirrored, ranks from the owner's side.
fn table(w: &EvalWeights, kind: usize, color: Color, sq: Square) -> i32 {
    let tables = [
        &w.pst.chariot,
        &w.pst.horse,
        &w.pst.elephant,
        &w.pst.advisor,
        &w.pst.king,
        &w.pst.cannon,
        &w.pst.pawn,
        &w.pst.hidden,
    ];
    let file = if sq.file() > 4 {
        8 - sq.file()
    } else {
        sq.file()
    };
    let rank = if color == Color::Red {
        sq.rank()
    } else {
        9 - sq.rank()
    };
    tables[kind][(rank * 5 + file) as usize]
}

/// The reference: scan all 90 squares, copy the board, count mobility by walking the board. A
/// hidden piece counts at its pool's mean, or, for a player who knows it (an omniscient
/// `knowledge`), at its identity's value.
fn reference(pos: &Position, w: &EvalWeights, knowledge: &Knowledge) -> i32 {
    let hidden = [
        hidden_value(w, pos.pool(Color::Red)),
        hidden_value(w, pos.pool(Color::Black)),
    ];
    let mut board = [0u8; 90];
    for sq in Square::all() {
        board[sq.index()] = cell(pos.occupant(sq));
    }
    let mut score = [0i32; 2];
    let mut attack = [0i32; 2];
    let mut guards = [0i32; 2];
    for sq in Square::all() {
        match pos.occupant(sq) {
            None => {}
            Some(Occupant::Hidden(c)) => {
                let value = match knowledge.belief(pos, sq) {
                    Some(Belief::Known(r)) if knowledge.is_omniscient() => w.identity(r),
                    _ => hidden[c.index()],
                };
                score[c.index()] += value + table(w, 7, c, sq);
                if matches!(
                    jieqi_core::start_role(sq),
                    Some(Role::Advisor | Role::Elephant)
                ) {
                    guards[c.index()] += 1;
                }
            }
            Some(Occupant::Revealed(p)) => {
                let c = p.color.index();
                score[c] += table(w, p.role.index(), p.color, sq);
                match p.role {
                    Role::King => continue,
                    Role::Advisor if sq.is_palace(p.color) => guards[c] += 1,
                    Role::Elephant if sq.is_own_half(p.color) => guards[c] += 1,
                    _ => {}
                }
                score[c] += w.piece(p.color, p.role, sq) + pst(w, p.color, p.role, sq);
                let them = 1 - c;
                let on_their_half = !sq.is_own_half(p.color);
                match p.role {
                    Role::Chariot if on_their_half => attack[them] += 3,
                    Role::Horse | Role::Cannon if on_their_half => attack[them] += 2,
                    Role::Pawn => {
                        let adv = if p.color == Color::Red {
                            sq.rank()
                        } else {
                            9 - sq.rank()
                        };
                        if adv >= 6 && (2..=6).contains(&sq.file()) {
                            attack[them] += 1;
                        }
                    }
                    _ => {}
                }
                let weight = match p.role {
                    Role::Chariot => w.mobility_chariot,
                    Role::Horse => w.mobility_horse,
                    Role::Cannon => w.mobility_cannon,
                    _ => 0,
                };
                score[c] += weight * mobility(&board, sq.index(), p.role, c);
            }
        }
    }
    for c in Color::ALL {
        if pos.king(c).is_some() {
            let i = c.index();
            let missing = (4 - guards[i]).max(0);
            score[i] -= w.king_attack * attack[i] + w.king_attack_open * attack[i] * missing;
        }
    }
    let us = pos.turn().index();
    score[us] - score[1 - us] + w.tempo
}

fn random_weights(rng: &mut ChaCha8Rng) -> EvalWeights {
    let mut r = |lo: i32, hi: i32| lo + (rng.next_u32() % (hi - lo + 1) as u32) as i32;
    EvalWeights {
        chariot: r(500, 1200),
        horse: r(200, 600),
        elephant: r(100, 300),
        advisor: r(100, 300),
        king: r(0, 3000),
        cannon: r(200, 600),
        pawn: r(50, 150),
        crossed_pawn: r(100, 300),
        chariot_center: r(-10, 10),
        horse_center: r(-10, 10),
        cannon_center: r(-10, 10),
        pawn_center: r(-10, 10),
        chariot_advance: r(-10, 10),
        horse_advance: r(-10, 10),
        cannon_advance: r(-10, 10),
        pawn_advance: r(-10, 20),
        pawn_last_rank: r(0, 100),
        mobility_chariot: r(0, 13),
        mobility_horse: r(0, 17),
        mobility_cannon: r(0, 11),
        king_attack: r(0, 19),
        king_attack_open: r(0, 23),
        tempo: r(0, 30),
        pst: {
            let mut t = || (0..50).map(|_| r(-40, 40)).collect::<Vec<i32>>();
            jieqi_search::eval::Pst {
                chariot: t(),
                horse: t(),
                elephant: t(),
                advisor: t(),
                king: t(),
                cannon: t(),
                pawn: t(),
                hidden: t(),
            }
        },
        provenance: None,
    }
}

#[test]
fn the_tables_follow_the_role_indices() {
    let names = [
        "chariot", "horse", "elephant", "advisor", "king", "cannon", "pawn",
    ];
    for (i, r) in Role::ALL.into_iter().enumerate() {
        assert_eq!(r.index(), i);
        assert_eq!(format!("{r:?}").to_lowercase(), names[i]);
    }
}

/// Checks the fast evaluation paths against the reference over 60 seeded games of `rules`
/// (seeds from `1000 * k`), and [`evaluate_known`] on the same views; how many (position,
/// weights) pairs it checked, and how many of them were of an omniscient view.
fn check_fast_evaluation(k: u64, rules: Rules) -> (usize, usize) {
    let (mut checked, mut known) = (0, 0);
    for game_no in 0..60u64 {
        let seed = 1000 * k + game_no;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let weights = [
            EvalWeights::default(),
            EvalWeights::learned().clone(),
            random_weights(&mut rng),
        ];
        let evaluators = weights.each_ref().map(Evaluator::new);
        let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
        while game.outcome().is_none() && game.ply() < 200 {
            let mut views = vec![
                game.view(Color::Red),
                game.view(Color::Black),
                game.omniscient_view(game.turn()),
            ];
            views.dedup_by(|a, b| a.position() == b.position());
            for view in &views {
                let pos = view.position();
                for (w, e) in weights.iter().zip(&evaluators) {
                    let expected = reference(pos, w, &Knowledge::FAIR);
                    let knowledge = view.knowledge();
                    assert_eq!(
                        evaluate_known(pos, w, &knowledge),
                        reference(pos, w, &knowledge),
                        "{}",
                        pos.fen()
                    );
                    known += usize::from(view.is_omniscient());
                    assert_eq!(evaluate(pos, w), expected, "{}", pos.fen());
                    assert_eq!(e.evaluate(pos), expected, "{}", pos.fen());
                    let inc = e.incremental(pos);
                    assert_eq!(e.evaluate_with(pos, &inc), expected, "{}", pos.fen());
                    // Every legal move with every reveal: the updated terms equal the
                    // terms of the position after the move.
                    for &m in pos.legal_moves().iter() {
                        let reveals: Vec<Option<Role>> = if pos.is_hidden(m.from) {
                            Role::ALL
                                .into_iter()
                                .filter(|&r| pos.pool(pos.turn()).get(r) > 0)
                                .map(Some)
                                .collect()
                        } else {
                            vec![None]
                        };
                        // A captured hidden piece's identity, when the mover learns it.
                        let them = !pos.turn();
                        let capture = (m.from != m.to && pos.is_hidden(m.to))
                            .then(|| Role::ALL.into_iter().find(|&r| pos.pool(them).get(r) > 0))
                            .flatten();
                        for (reveal, capture) in
                            reveals.into_iter().flat_map(|r| [(r, None), (r, capture)])
                        {
                            let pm = PlayedMove {
                                mv: m,
                                reveal,
                                capture,
                            };
                            let mut next = pos.clone();
                            let mut updated = inc;
                            e.update(&mut updated, &next, pm);
                            next.make(pm);
                            assert_eq!(updated, e.incremental(&next), "{} {m}", pos.fen());
                            assert_eq!(
                                e.evaluate_with(&next, &updated),
                                reference(&next, w, &Knowledge::FAIR),
                                "{} {m}",
                                pos.fen()
                            );
                        }
                    }
                    checked += 1;
                }
            }
            let moves = game.legal_moves();
            let m = moves[uniform_below(&mut rng, moves.len() as u32) as usize];
            game.play(m).unwrap();
        }
    }
    (checked, known)
}

// One test a rule set (the same games as one test over the three), so that they run side by side.
#[test]
fn fast_evaluation_equals_the_reference_standard() {
    let (checked, known) = check_fast_evaluation(0, Rules::standard());
    assert!(checked > 3_000 && known > 1_000, "{checked} {known}");
}

#[test]
fn fast_evaluation_equals_the_reference_simple() {
    let (checked, known) = check_fast_evaluation(1, Rules::simple());
    assert!(checked > 3_000 && known > 1_000, "{checked} {known}");
}

#[test]
fn fast_evaluation_equals_the_reference_xiangqi() {
    // No hidden pieces: the omniscient view is the player's, checked once.
    let (checked, _) = check_fast_evaluation(2, Rules::xiangqi());
    assert!(checked > 3_000, "{checked}");
}

/// The built-in learned weights are configs/eval/learned.json, whole and well formed, and they
/// say where they came from.
#[test]
fn the_learned_weights_are_the_file() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/eval/learned.json"
    );
    let file = EvalWeights::from_json_file(path).unwrap();
    assert_eq!(&file, EvalWeights::learned());
    assert!(!file.pst.is_zero());
    let provenance = file.provenance.as_ref().expect("provenance");
    assert_eq!(provenance["made_by"], "arena tune");
    assert_ne!(file, EvalWeights::default());
}

/// A weights file that still carries the correction network (removed from the engine) is
/// refused with an error naming the file and the field: read without it, the weights would
/// evaluate differently than they were fitted to, without a word.
#[test]
fn a_weights_file_with_a_network_is_refused() {
    let dir = std::env::temp_dir().join(format!("jieqi-eval-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("with-net.json");
    std::fs::write(
        &path,
        r#"{"chariot": 900, "net": {"w0": [], "b0": [], "w1": [], "b1": 0}}"#,
    )
    .unwrap();
    let err = EvalWeights::from_json_file(&path).unwrap_err();
    assert!(err.contains("with-net.json"), "{err}");
    assert!(err.contains("field \"net\""), "{err}");
    assert!(err.contains("docs/history.md"), "{err}");
    // The same file without the field reads.
    std::fs::write(&path, r#"{"chariot": 901}"#).unwrap();
    assert_eq!(EvalWeights::from_json_file(&path).unwrap().chariot, 901);
    std::fs::remove_dir_all(&dir).unwrap();
}
