//! Robustness: no FEN, however mangled, and no move text a protocol front end may pass on makes
//! the core panic. 10^5 seeded inputs per run (`JIEQI_FUZZ_INPUTS=N` for more, as
//! `scripts/fuzz.sh` does; `JIEQI_FUZZ_SEED` for another stream): valid FENs (start positions and positions of
//! random games, every rule set) mutated by character edits, field swaps and extreme counters;
//! every one that parses into a legal position is played on with legal moves and with random move
//! texts through `View::apply`, as `jieqi-uci`'s `position fen … moves …` does.

use jieqi_core::{
    Color, Deal, Game, MAX_COUNTER, PlayedMove, Position, PositionError, Rules, View, fen,
    uniform_below,
};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// Inputs per run unless `JIEQI_FUZZ_INPUTS` says otherwise.
const INPUTS: u32 = 100_000;

/// A number from the environment, or `default`.
fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    uniform_below(rng, n as u32) as usize
}

/// Valid FENs to mutate: each rule set's start, and positions along seeded random games.
fn seeds() -> Vec<String> {
    let mut out = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(0xF022);
    for rules in [Rules::standard(), Rules::xiangqi(), Rules::simple()] {
        out.push(Position::start(&rules).fen());
        for _ in 0..6 {
            let deal = Deal::shuffled_for(&rules, &mut rng);
            let mut game = Game::new(rules, deal);
            while game.outcome().is_none() && game.ply() < 60 {
                let moves = game.legal_moves();
                game.play(moves[below(&mut rng, moves.len())]).unwrap();
                if game.ply() % 12 == 0 {
                    out.push(game.view(game.turn()).position().fen());
                }
            }
        }
    }
    out
}

const ALPHABET: &[u8] = b"0123456789rnbakcpRNBAKCPxX/ -wb";

/// One mutation of `fen`.
fn mutate(fen: &str, rng: &mut ChaCha8Rng) -> String {
    let mut bytes = fen.as_bytes().to_vec();
    for _ in 0..1 + below(rng, 4) {
        let op = below(rng, 7);
        let at = below(rng, bytes.len().max(1));
        match op {
            0 if !bytes.is_empty() => bytes[at] = ALPHABET[below(rng, ALPHABET.len())],
            1 => bytes.insert(at.min(bytes.len()), ALPHABET[below(rng, ALPHABET.len())]),
            2 if !bytes.is_empty() => {
                bytes.remove(at);
            }
            3 => bytes.truncate(at),
            4 => bytes.push(rng.next_u32() as u8),
            _ => {
                // A field replaced by an extreme or random number (counters, or anything).
                let text = String::from_utf8_lossy(&bytes).to_string();
                let mut fields: Vec<String> = text.split(' ').map(String::from).collect();
                let k = below(rng, fields.len() + 1);
                let value = match below(rng, 5) {
                    0 => u32::MAX.to_string(),
                    1 => u64::MAX.to_string(),
                    2 => MAX_COUNTER.to_string(),
                    3 => (MAX_COUNTER + 1).to_string(),
                    _ => rng.next_u32().to_string(),
                };
                if k < fields.len() {
                    fields[k] = value;
                } else {
                    fields.push(value);
                }
                bytes = fields.join(" ").into_bytes();
            }
        }
    }
    String::from_utf8_lossy(&bytes).to_string()
}

/// A random move text: mostly well-formed squares with optional identity letters.
fn move_text(rng: &mut ChaCha8Rng) -> String {
    let sq = |rng: &mut ChaCha8Rng| {
        format!(
            "{}{}",
            (b'a' + below(rng, 10) as u8) as char,
            (b'0' + below(rng, 11) as u8) as char
        )
    };
    let mut s = format!("{}{}", sq(rng), sq(rng));
    for _ in 0..below(rng, 3) {
        s.push(ALPHABET[below(rng, ALPHABET.len())] as char);
    }
    s
}

/// Plays a few plies on an accepted position: legal moves with every identity the pool allows,
/// made and taken back, and random texts through a view.
fn play_on(pos: &Position, setup: &jieqi_core::Setup, rules: &Rules, rng: &mut ChaCha8Rng) {
    let mut p = pos.clone();
    assert_eq!(fen::parse(&p.fen()).map(|_| ()), Ok(()), "{}", p.fen());
    for _ in 0..3 {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[below(rng, moves.len())];
        let reveal = p.is_hidden(m.from).then(|| {
            let pool = p.pool(p.turn());
            pool.roles().nth(below(rng, pool.distinct() as usize))
        });
        let pm = PlayedMove {
            mv: m,
            reveal: reveal.flatten(),
            capture: None,
        };
        if p.is_hidden(m.from) && pm.reveal.is_none() {
            break;
        }
        let before = p.clone();
        let undo = p.make(pm);
        let mut q = p.clone();
        q.unmake(pm, undo);
        assert_eq!(q, before);
    }
    if let Ok(mut view) = View::from_setup_as(setup, rules, Color::Red) {
        for _ in 0..4 {
            let mover = view.position().turn();
            if let Ok(pm) = PlayedMove::from_text(&move_text(rng), mover) {
                // Illegal or inconsistent moves are refused, never a panic.
                let _ = view.apply(pm);
            }
        }
    }
}

#[test]
fn mangled_fens_and_moves_never_panic() {
    let seeds = seeds();
    let rules = [Rules::standard(), Rules::xiangqi(), Rules::simple()];
    let inputs = u32::try_from(env_or("JIEQI_FUZZ_INPUTS", INPUTS.into())).unwrap_or(u32::MAX);
    let mut rng = ChaCha8Rng::seed_from_u64(env_or("JIEQI_FUZZ_SEED", 0xF0221));
    let (mut parsed, mut legal, mut counters_refused) = (0u32, 0u32, 0u32);
    for i in 0..inputs {
        let base = &seeds[below(&mut rng, seeds.len())];
        let text = if i % 10 == 0 {
            base.clone()
        } else {
            mutate(base, &mut rng)
        };
        let Ok(setup) = fen::parse(&text) else {
            continue;
        };
        parsed += 1;
        let r = &rules[below(&mut rng, rules.len())];
        match Position::from_setup(&setup, r) {
            Ok(pos) => {
                legal += 1;
                play_on(&pos, &setup, r, &mut rng);
            }
            Err(PositionError::CounterTooLarge { .. }) => counters_refused += 1,
            Err(_) => {}
        }
    }
    eprintln!(
        "{inputs} inputs: {parsed} parsed, {legal} legal positions played on, {counters_refused} \
         refused for a counter over {MAX_COUNTER}"
    );
    assert!(parsed > inputs / 10 && legal > inputs / 20 && counters_refused > inputs / 1000);
}

/// The counters that overflowed (`attempt to add with overflow` in `make`) are refused with an
/// error naming the field, and the largest accepted ones still advance.
#[test]
fn move_counters_cannot_overflow() {
    let rules = Rules::xiangqi();
    for (fen_text, field) in [
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - 4294967295 1", "halfmove"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - 0 4294967295", "fullmove"),
    ] {
        let e = Position::from_fen(fen_text, &rules)
            .unwrap_err()
            .to_string();
        assert!(e.contains(field) && e.contains("4294967295"), "{e}");
    }
    let top = format!("3k5/9/9/9/9/9/9/9/9/4K4 b - {MAX_COUNTER} {MAX_COUNTER}");
    let mut pos = Position::from_fen(&top, &rules).unwrap();
    for _ in 0..4 {
        let m = pos.legal_moves()[0];
        pos.play(PlayedMove::plain(m)).unwrap();
    }
    assert_eq!(pos.halfmoves(), MAX_COUNTER + 4);
    assert_eq!(pos.fullmoves(), MAX_COUNTER + 2);
}
