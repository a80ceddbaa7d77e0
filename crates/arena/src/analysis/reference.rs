//! The reference engine's searches of a studied game: every ply's position from the mover's own
//! view (its best move, and the move played scored by a search restricted to it), after a move
//! that revealed or captured a hidden piece the position from the mover's view again (what it
//! then knows), and, for contrast, with the truth in view; then the verdicts
//! ([`crate::analysis::verdict`]).
//!
//! Each search uses a fresh engine and a seed mixed from the analysis seed and the ply, and the
//! plies are independent jobs on the run's scheduler: the same game, reference and limits give
//! the same analysis at any thread count (for an engine that is deterministic under its limits,
//! as `alphabeta` with one thread is under a node limit).

use std::sync::Arc;
use std::time::Duration;

use jieqi_core::{Color, Game};
use jieqi_engine::{Choice, Limits, Score, mix};

use crate::analysis::StudyGame;
use crate::analysis::verdict::{Analysis, expected};
use crate::engines::EngineEntry;
use crate::run::game_runner::{Reporter, search_once};

/// The reference engine and how it searches.
#[derive(Debug)]
pub struct Reference {
    /// The engine (an in-process spec or `uci:`).
    pub entry: EngineEntry,
    /// The limits of every search.
    pub limits: Limits,
    /// What the limits are, for people (`nodes=100000`).
    pub limits_text: String,
    /// The seed every search's seed is mixed from.
    pub seed: u64,
    /// Plies searched at once.
    pub threads: usize,
    /// The hard limit of one search: past it the search counts as failed.
    pub hard: Duration,
    /// Whether to search with the truth in view too (only for an in-process engine and a game
    /// whose truth is known).
    pub omniscient: bool,
}

/// The searches of one position.
struct Searched {
    /// The unrestricted fair search.
    best: Choice,
    /// The fair search restricted to the move played (`None`: it was the best move, or the
    /// position is the final one).
    played: Option<Choice>,
    /// The omniscient search.
    omniscient: Option<Choice>,
    /// After a move that revealed or captured a hidden piece (and did not end the game): the
    /// position after it from the mover's own view, the opponent to move — what the mover knows
    /// once the pieces are known to it.
    after: Option<Choice>,
}

/// The score of a search, or why it has none.
fn score_of(choice: &Choice, who: &str) -> Result<Score, String> {
    choice.info.score.ok_or_else(|| {
        format!(
            "the reference engine gave no score for {who}: analysis needs an engine that scores \
             its moves (alphabeta, ismcts, mcts-solver, or a UCI engine that prints `score`)"
        )
    })
}

/// The answer of a search restricted to `only` (`go … searchmoves`), checked to be one of those
/// moves: an engine that ignores `searchmoves` would score its own best move as the move played,
/// and every loss would read as none.
fn honours(choice: Choice, only: &[jieqi_core::Move], job: usize) -> Result<Choice, String> {
    if only.is_empty() || only.contains(&choice.mv) {
        return Ok(choice);
    }
    let asked: Vec<String> = only.iter().map(ToString::to_string).collect();
    Err(format!(
        "ply {}: the reference engine answered {} when told to search only {} (go … \
         searchmoves): it ignores searchmoves, so it cannot score the move played; use an engine \
         that honours searchmoves",
        job + 1,
        choice.mv,
        asked.join(" ")
    ))
}

/// Searches position `job` of `games` (the game before ply `job + 1`, or the final position
/// when `job` is the last): fair, restricted to the move played, and omniscient.
fn search_position(
    reference: &Reference,
    games: &[Game],
    job: usize,
    omniscient: bool,
) -> Result<Searched, String> {
    let before = &games[job];
    let mover = before.turn();
    let quiet: Reporter = Arc::new(|_| {});
    let search = |view: &jieqi_core::View, k: u64, only: &[jieqi_core::Move]| {
        search_once(
            &reference.entry,
            view,
            &reference.limits,
            mix(reference.seed, job as u64 * 4 + k),
            reference.hard,
            &quiet,
            only,
        )
        .map_err(|e| format!("ply {}: the reference engine failed: {e}", job + 1))
        .and_then(|choice| honours(choice, only, job))
    };
    let fair = before.view(mover);
    let best = search(&fair, 0, &[])?;
    let next = games.get(job + 1);
    let record = next.and_then(|g| g.records().last());
    let played = match record {
        Some(r) if r.played.mv != best.mv => Some(search(&fair, 1, &[r.played.mv])?),
        _ => None,
    };
    let after = match (next, record) {
        (Some(g), Some(r))
            if (r.played.reveal.is_some() || r.captured_hidden) && g.outcome().is_none() =>
        {
            Some(search(&g.view(mover), 3, &[])?)
        }
        _ => None,
    };
    let omniscient = if omniscient {
        Some(search(&before.omniscient_view(mover), 2, &[])?)
    } else {
        None
    };
    Ok(Searched {
        best,
        played,
        omniscient,
        after,
    })
}

/// The mover's expected score once the game is over after ply `games.len() − 1`: its result
/// by the rules, `None` when the last position is not an end by the rules (an adjudication, an
/// engine failure, a cut record).
fn end_score(last: &Game, mover: Color) -> Option<f64> {
    let outcome = last.outcome()?;
    Some(match outcome.winner {
        Some(w) if w == mover => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    })
}

/// Analyses `game` with `reference`, calling `tick` after each position searched. Once
/// [`crate::util::interrupt::requested`] is set no further position is searched (and the
/// analysis fails).
///
/// # Errors
/// The reference engine failed or gave no score; the message says at which ply.
pub fn analyse(
    game: &StudyGame,
    reference: &Reference,
    tick: &(dyn Fn() + Sync),
) -> Result<Analysis, String> {
    let games = game.games();
    let plies = game.moves.len();
    let last = games.last().expect("the start is there");
    // The final position is searched too when the rules did not end the game there: its score
    // is what the last move led to.
    let positions = if last.outcome().is_some() {
        plies
    } else {
        plies + 1
    };
    let omniscient = reference.omniscient && game.truth_known;
    let mut results: Vec<Option<Result<Searched, String>>> = (0..positions).map(|_| None).collect();
    let play = |job: u64| {
        let r = search_position(reference, &games, job as usize, omniscient);
        tick();
        r
    };
    crate::run::scheduler::run(
        positions as u64,
        reference.threads.max(1),
        positions as u64,
        // After Ctrl-C no position is started: the game is left unanalysed.
        &|_| crate::util::interrupt::requested(),
        &play,
        |job, r| {
            let failed = r.is_err();
            results[job as usize] = Some(r);
            Ok::<_, ()>(if failed {
                crate::run::scheduler::Flow::Stop
            } else {
                crate::run::scheduler::Flow::Continue
            })
        },
    )
    .map_err(|e| match e {
        crate::run::scheduler::SchedulerError::Pool(m) => m,
        crate::run::scheduler::SchedulerError::Caller(()) => "stopped".to_string(),
    })?;
    let mut searched = Vec::with_capacity(positions);
    for r in results {
        match r {
            Some(Ok(s)) => searched.push(s),
            Some(Err(e)) => return Err(e),
            // A job never run: an earlier one failed, and its error comes first.
            None => {}
        }
    }
    if searched.len() < positions {
        return Err("the reference engine failed (no ply searched)".to_string());
    }
    let records = last.records();
    let mut out = Vec::with_capacity(plies);
    for (i, record) in records.iter().enumerate() {
        let s = &searched[i];
        let best_score = score_of(&s.best, &format!("ply {}", i + 1))?;
        let played_score = match &s.played {
            Some(c) => score_of(c, &format!("the move played at ply {}", i + 1))?,
            None => best_score,
        };
        let best_expected = expected(best_score);
        let played_expected = expected(played_score);
        // The mover's own view after a chance move (it may know what it captured, which the
        // opponent does not); else the opponent's score of the next position.
        let after_expected = match (&s.after, searched.get(i + 1)) {
            (Some(after), _) => Some(1.0 - expected(score_of(after, &format!("ply {}", i + 1))?)),
            (None, Some(next)) => {
                Some(1.0 - expected(score_of(&next.best, &format!("ply {}", i + 2))?))
            }
            (None, None) => end_score(last, record.mover),
        };
        out.push(crate::analysis::verdict::judge(
            i + 1,
            record,
            (&s.best, best_score, best_expected),
            (played_score, played_expected),
            after_expected,
            [&s.played, &s.after]
                .iter()
                .filter_map(|c| c.as_ref())
                .fold(s.best.info.nodes, |n, c| n + c.info.nodes),
            s.omniscient.as_ref(),
        ));
    }
    let end = match (searched.get(plies), plies) {
        (Some(fin), _) => {
            let e = expected(score_of(&fin.best, "the final position")?);
            Some(if last.turn() == Color::Red {
                e
            } else {
                1.0 - e
            })
        }
        (None, _) => end_score(last, Color::Red),
    };
    let summary = crate::analysis::verdict::summarize(game, &out, end);
    Ok(Analysis {
        reference: format!("{} ({})", reference.entry.label, reference.limits_text),
        seed: reference.seed,
        omniscient,
        plies: out,
        summary,
        end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::verdict::Class;
    use crate::records::GameResult;
    use jieqi_core::{Deal, Move, Position, Role, Rules, Square};

    /// `alphabeta` with the hand-crafted weights, whose choices these tests were written around
    /// (its best first move at the start takes a hidden piece).
    fn reference(nodes: u64, threads: usize) -> Reference {
        let spec = format!(
            "alphabeta:eval={}/../../configs/eval/default.json",
            env!("CARGO_MANIFEST_DIR")
        );
        Reference {
            entry: crate::engines::parse_arg(&spec).expect("alphabeta"),
            limits: Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            limits_text: format!("nodes={nodes}"),
            seed: 0,
            threads,
            hard: Duration::from_secs(120),
            omniscient: true,
        }
    }

    fn study(start: Game, moves: &[&str]) -> StudyGame {
        let mut game = start.clone();
        let moves: Vec<Move> = moves
            .iter()
            .map(|m| {
                let mv = Move::from_text(m).expect("move text");
                game.play(mv).expect("legal");
                mv
            })
            .collect();
        let result = GameResult::of(game.outcome().and_then(|o| o.winner));
        StudyGame {
            title: "test".into(),
            start,
            truth_known: true,
            moves,
            red: "red".into(),
            black: "black".into(),
            result,
            ending: "max-plies".into(),
            recorded: Vec::new(),
            seed: None,
            number: None,
        }
    }

    fn xiangqi(fen: &str) -> Game {
        let pos = Position::from_fen(fen, &Rules::xiangqi()).expect("fen");
        Game::from_position(pos).expect("no hidden pieces")
    }

    #[test]
    fn a_hanging_rook_is_a_blunder_and_taking_it_is_not() {
        // Red's rook e5 and Black's rook a5 attack each other; Red steps its king instead of
        // taking, and Black takes the rook.
        let game = study(
            xiangqi("5k3/9/9/9/r3R4/9/9/9/9/3K5 w - - 0 1"),
            &["d0d1", "a5e5"],
        );
        let a = analyse(&game, &reference(20_000, 2), &|| {}).expect("analysed");
        let first = &a.plies[0];
        assert_eq!(first.best, "e5a5", "{first:?}");
        assert_eq!(first.class, Some(Class::Blunder), "{first:?}");
        assert!(first.loss > 0.4, "{first:?}");
        assert!(first.chance.is_none() && first.noise.is_some());
        let second = &a.plies[1];
        assert_eq!(second.class, None, "{second:?}");
        assert!(second.loss < Class::INACCURACY, "{second:?}");
        assert_eq!(a.summary.worst.red, vec![1]);
        assert_eq!(a.summary.classes.red, [0, 0, 1]);
    }

    #[test]
    fn a_missed_mate_in_one_is_a_blunder_with_its_note() {
        // b1b9 mates (the a8 rook holds rank 8). Red plays a8a7 instead, and Black mates with
        // h2h0 (the i1 rook holds rank 1).
        let game = study(
            xiangqi("4k4/R8/9/9/9/9/9/7r1/1R6r/3K5 w - - 0 1"),
            &["a8a7", "h2h0"],
        );
        assert_eq!(game.result, GameResult::BlackWins);
        let a = analyse(&game, &reference(20_000, 1), &|| {}).expect("analysed");
        let p = &a.plies[0];
        assert_eq!(p.best_score, "#1", "{p:?}");
        assert_eq!(p.note.as_deref(), Some("missed mate in 1"), "{p:?}");
        assert_eq!(p.class, Some(Class::Blunder), "{p:?}");
        assert!(p.loss > 0.99, "{p:?}");
        // The game is over by the rules: the result is the curve's end, and the blunder turned
        // it.
        assert_eq!(a.end, Some(0.0));
        assert_eq!(a.summary.turning_point, Some(1));
        assert!(a.summary.lines[0].starts_with("Turning point: ply 1 red a8a7: a blunder"));
        // Xiangqi has no chance: the summary says so, and speaks of no luck.
        assert!(
            a.summary
                .lines
                .iter()
                .any(|l| l.starts_with("No reveal or hidden capture")),
            "{:?}",
            a.summary.lines
        );
        assert!(!a.summary.lines.iter().any(|l| l.contains("luck")));
    }

    #[test]
    fn a_mate_in_two_instead_of_one_loses_nothing() {
        let game = study(xiangqi("4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1"), &["d0d1"]);
        let a = analyse(&game, &reference(20_000, 1), &|| {}).expect("analysed");
        let p = &a.plies[0];
        assert_eq!(
            (p.best_score.as_str(), p.played_score.as_str()),
            ("#1", "#2")
        );
        assert_eq!((p.loss, p.class, p.note.as_deref()), (0.0, None, None));
        // The game goes on: the final position was searched, and is the curve's end.
        assert!(a.end.is_some());
        assert_eq!(
            a.red_view_curve(1, a.end),
            [Some(a.plies[0].best_expected), a.end]
        );
    }

    /// The deal of seed 1 changed so that the hidden piece on `sq` (of either side) is a `role`.
    fn deal_with(deal: &Deal, sq: Square, role: Role) -> Deal {
        let sides = jieqi_core::Color::ALL.map(|color| {
            let mut ids: Vec<char> = deal.side_string(color).chars().collect();
            if let Some(at) = Deal::squares(color, false).position(|s| s == sq) {
                let letter = match color {
                    Color::Red => role.char().to_ascii_uppercase(),
                    Color::Black => role.char().to_ascii_lowercase(),
                };
                let other = ids
                    .iter()
                    .position(|&c| c == letter)
                    .expect("the deal has one");
                ids.swap(at, other);
            }
            ids.into_iter().collect::<String>()
        });
        Deal::from_strings(&sides[0], &sides[1]).expect("a deal")
    }

    #[test]
    fn a_good_move_with_a_bad_reveal_is_chance_not_a_mistake() {
        let rules = Rules::standard();
        let r = reference(20_000, 2);
        // Red's view at the start is the same whatever the deal: so is the reference's best
        // first move, which takes a hidden piece. Deal the mover a pawn, and the piece it takes
        // a pawn, then a chariot: the move itself loses nothing either way; what the pieces
        // turned out to be is chance.
        let dealt = crate::records::deal_seed::deal_for_seed(1, &rules);
        let fair = Game::new(rules, dealt.clone()).view(Color::Red);
        let quiet: Reporter = Arc::new(|_| {});
        let best = search_once(
            &r.entry,
            &fair,
            &r.limits,
            mix(r.seed, 0),
            r.hard,
            &quiet,
            &[],
        )
        .expect("searched")
        .mv;
        let mut luck = Vec::new();
        for role in [Role::Pawn, Role::Chariot] {
            let deal = deal_with(&deal_with(&dealt, best.from, Role::Pawn), best.to, role);
            let game = study(Game::new(rules, deal), &[&best.to_string()]);
            let a = analyse(&game, &r, &|| {}).expect("analysed");
            let p = &a.plies[0];
            assert_eq!(p.best, best.to_string());
            assert_eq!(p.loss, 0.0, "{p:?}");
            assert_eq!(p.class, None);
            assert_eq!(p.chance_from, Some("reveal and hidden capture"), "{p:?}");
            luck.push(p.chance.expect("a reveal is chance"));
        }
        // A hidden pawn where any piece could have been is bad luck; a chariot good luck.
        assert!(luck[0] < -Class::INACCURACY, "{luck:?}");
        assert!(luck[1] > Class::INACCURACY, "{luck:?}");
    }

    #[test]
    fn the_analysis_is_the_same_at_any_thread_count() {
        let game = study(
            xiangqi("5k3/9/9/9/r3R4/9/9/9/9/3K5 w - - 0 1"),
            &["d0d1", "a5e5", "d1d0"],
        );
        let one = analyse(&game, &reference(5_000, 1), &|| {}).expect("analysed");
        let two = analyse(&game, &reference(5_000, 2), &|| {}).expect("analysed");
        assert_eq!(one, two);
    }
}
