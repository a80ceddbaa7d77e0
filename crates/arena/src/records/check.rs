//! A recorded game checked against its deal: every move legal under the rules, its reveal and
//! capture letters the truth, and its ending one the final position allows.

use jieqi_core::Rules;

use crate::records::{self, GameLine, RecordsError};
use crate::util::text::printable;

/// A recorded game played through from its deal by the referee, as far as the record holds up.
pub struct Checked {
    /// The game before its first ply: the deal, or the opening with its dealt identities.
    pub start: jieqi_core::Game,
    /// The game after the last ply that checked out.
    pub game: jieqi_core::Game,
    /// The start position's public FEN (what both players saw).
    pub start_fen: String,
    /// Each ply that checked out: its record and the public FEN after it.
    pub plies: Vec<(jieqi_core::Record, String)>,
    /// What is wrong with the record, if anything: `at ply K: …` or about its ending.
    pub problem: Option<String>,
}

/// Plays the recorded game `line` through from its seed's deal under `rules` (its first `upto`
/// plies, or all): the deal must be the seed's, every move legal with its reveal and capture
/// letters the truth, `plies` the number of moves, and (when played through) `captures` and
/// `reveals` what the moves make, and the ending one the final position allows — a result by
/// the rules must be the rules' verdict, an engine failure or adjudication cannot come at a
/// finished position, and `max-plies` comes at `max_plies`.
pub fn check_record(
    rules: &Rules,
    line: &GameLine,
    max_plies: u32,
    upto: Option<usize>,
) -> Checked {
    play_through(rules, line, max_plies, upto, true, None)
}

/// What every game a run recorded must agree with beyond its own moves: the run's rules, its
/// adjudication cap and its master seed (pair `p` is dealt from
/// [`crate::records::deal_seed::pair_seed`]`(seed, p)`). `--resume` and `arena merge` hold every
/// journal line they take to it, so that an edited line (its checksum recomputed) is refused as
/// `arena replay --show` would show it wrong, never counted.
#[derive(Clone, Debug)]
pub struct RunRecords {
    /// The run's rules.
    pub rules: Rules,
    /// Its adjudication cap.
    pub max_plies: u32,
    /// Its master seed.
    pub seed: u64,
    /// Its opening book: pair `p` starts from the book's position for `p`.
    pub openings: Option<std::sync::Arc<crate::records::openings::Book>>,
    /// Its `--resign` and `--draw`: a game ends by them exactly where its recorded scores say.
    pub adjudication: crate::records::adjudication::Adjudication,
    /// Its pairings' engine labels, `(a, b)`: `a` is Red in game 1 of a pair and Black in game
    /// 2 ([`crate::run::RunSpec::pairing_labels`]).
    pub pairings: Vec<(String, String)>,
}

/// The deepest search depth a record may hold: no search of ours goes past a few hundred plies,
/// nor do the UCI engines we know (Pikafish stops at 246); a larger number is damage, and would
/// dominate the run's mean depth.
pub const MAX_RECORDED_DEPTH: u32 = 10_000;

/// The most milliseconds a record's time fields may hold: 10^9 ms, about 11.6 days for one game.
pub const MAX_RECORDED_MS: f64 = 1e9;

/// What is wrong with a record's figures beyond its moves, if anything: one search entry per
/// move, times finite, not negative and at most [`MAX_RECORDED_MS`], depths at most
/// [`MAX_RECORDED_DEPTH`], each side's per-move nodes and times adding up to no more than its
/// totals, and both sides' engine times to no more than the game's.
pub fn figures_problem(line: &GameLine) -> Option<String> {
    if line.search.len() != line.moves.len() {
        return Some(format!(
            "field search holds {} entries for its {} moves (one per move)",
            line.search.len(),
            line.moves.len()
        ));
    }
    let time = |field: String, ms: f64| {
        (!(0.0..=MAX_RECORDED_MS).contains(&ms)).then(|| {
            format!(
                "field {field} is {ms} ms: a time is from 0 to {MAX_RECORDED_MS} ms (and a number)"
            )
        })
    };
    let totals = [
        ("total_ms".to_string(), line.total_ms),
        ("ms.red".to_string(), line.ms.red),
        ("ms.black".to_string(), line.ms.black),
    ];
    for (field, ms) in totals {
        if let Some(p) = time(field, ms) {
            return Some(p);
        }
    }
    // The first mover's plies are the even ones.
    let first = line.first_mover();
    let mut nodes = crate::records::Sides::<u64>::default();
    let mut ms = crate::records::Sides::<f64>::default();
    for (i, ply) in line.search.iter().enumerate() {
        if let Some(p) = ply.ms.and_then(|m| time(format!("search[{i}].ms"), m)) {
            return Some(p);
        }
        if let Some(d) = ply.depth.filter(|&d| d > MAX_RECORDED_DEPTH) {
            return Some(format!(
                "field search[{i}].depth is {d}: a recorded depth is at most {MAX_RECORDED_DEPTH}"
            ));
        }
        let red = (i % 2 == 0) == (first == jieqi_core::Color::Red);
        let (n, m) = if red {
            (&mut nodes.red, &mut ms.red)
        } else {
            (&mut nodes.black, &mut ms.black)
        };
        *n = n.saturating_add(ply.nodes);
        *m += ply.ms.unwrap_or(0.0);
    }
    // Each figure is rounded to 0.001 ms as it is written.
    let slack = 0.001 * (line.search.len() as f64 + 2.0);
    for (side, n, total) in [
        ("red", nodes.red, line.nodes.red),
        ("black", nodes.black, line.nodes.black),
    ] {
        if n > total {
            return Some(format!(
                "field nodes.{side} is {total}, and {side}'s moves' search entries add up to {n}"
            ));
        }
    }
    for (side, m, total) in [
        ("red", ms.red, line.ms.red),
        ("black", ms.black, line.ms.black),
    ] {
        if m > total + slack {
            return Some(format!(
                "field ms.{side} is {total}, and {side}'s moves' search entries add up to {m:.3}"
            ));
        }
    }
    if line.ms.red + line.ms.black > line.total_ms + slack {
        return Some(format!(
            "field total_ms is {}, less than its engines' ms.red {} and ms.black {} together",
            line.total_ms, line.ms.red, line.ms.black
        ));
    }
    None
}

impl RunRecords {
    /// What is wrong with a recorded game of this run, if anything: a game number other than 1
    /// or 2, colours that are not its pairing's ([`RunRecords::pairings`]), a deal seed that is not its pair's, or a record that does not hold up when played
    /// through from its deal ([`check_record`]: deal, moves, reveal and capture letters, plies,
    /// captures, reveals, ending), or figures no game makes ([`figures_problem`]).
    pub fn problem(&self, line: &GameLine) -> Option<String> {
        if !matches!(line.game, 1 | 2) {
            return Some(format!(
                "it is game {} of its pair, and a pair has games 1 and 2",
                line.game
            ));
        }
        if let Some(p) = self.colours_problem(line) {
            return Some(p);
        }
        let want = crate::records::deal_seed::pair_seed(self.seed, line.pair);
        if line.seed != want {
            return Some(format!(
                "its deal seed {} is not pair {}'s: the run's master seed {} deals pair {} from \
                 seed {want}",
                line.seed, line.pair, self.seed, line.pair
            ));
        }
        let opening = self.openings.as_ref().map(|b| b.fen_for_pair(line.pair));
        if line.opening.as_deref() != opening {
            let show =
                |o: Option<&str>| o.map_or("the rules' start".to_string(), |f| format!("'{f}'"));
            return Some(format!(
                "it starts from {}, and pair {} of the run starts from {}",
                show(line.opening.as_deref()),
                line.pair,
                show(opening)
            ));
        }
        play_through(
            &self.rules,
            line,
            self.max_plies,
            None,
            false,
            Some(self.adjudication),
        )
        .problem
        .or_else(|| figures_problem(line))
    }
}

impl RunRecords {
    /// What is wrong with a game's colours, if anything: game 1 of a pair has its pairing's
    /// first engine Red, game 2 the colours swapped.
    fn colours_problem(&self, line: &GameLine) -> Option<String> {
        let (a, b) = if line.game == 1 {
            (&line.red, &line.black)
        } else {
            (&line.black, &line.red)
        };
        if self.pairings.iter().any(|(x, y)| x == a && y == b) {
            return None;
        }
        let pairings: Vec<String> = self
            .pairings
            .iter()
            .map(|(x, y)| format!("{} vs {}", printable(x), printable(y)))
            .collect();
        Some(format!(
            "fields red '{}' and black '{}' are no pairing of the run as game {} has them (game \
             1 of a pair has the pairing's first engine Red, game 2 the colours swapped; the \
             run's pairings: {})",
            printable(&line.red),
            printable(&line.black),
            line.game,
            pairings.join(", ")
        ))
    }
}

/// The refusal of a journal line that does not hold up ([`RunRecords::problem`]): the file, the
/// line, the game, what is wrong, and `fix` (how to go on without it).
pub fn refusal(
    path: &std::path::Path,
    number: usize,
    line: &GameLine,
    problem: &str,
    fix: &str,
) -> RecordsError {
    RecordsError {
        path: path.display().to_string(),
        line: Some(number),
        message: format!(
            "pair {} game {} ({} vs {}) does not hold up: {problem}; the line was edited (a \
             recomputed checksum does not make it true) or damaged: {fix}",
            line.pair,
            line.game,
            printable(&line.red),
            printable(&line.black)
        ),
    }
}

/// [`check_record`], keeping each ply's record and FEN in [`Checked::plies`] only when `keep`
/// (a check that wants the verdict alone skips the FENs). With the run's `adjudication`, the
/// recorded scores must end the game by it exactly where the record says, and nowhere before.
fn play_through(
    rules: &Rules,
    line: &GameLine,
    max_plies: u32,
    upto: Option<usize>,
    keep: bool,
    adjudication: Option<crate::records::adjudication::Adjudication>,
) -> Checked {
    let mut game = match crate::records::openings::start_of_line(line, rules) {
        Ok(g) => g,
        Err(why) => {
            let start = crate::records::openings::start_game(line.seed, rules, None);
            return Checked {
                start_fen: start.position().fen(),
                start: start.clone(),
                game: start,
                plies: Vec::new(),
                problem: Some(why.to_string()),
            };
        }
    };
    let mut checked = Checked {
        // The public start: an opening's pools hold its unseen captured identities too.
        start_fen: game
            .public_start()
            .map_or_else(|| game.position().fen(), jieqi_core::Position::fen),
        start: game.clone(),
        game: game.clone(),
        plies: Vec::new(),
        problem: None,
    };
    let dealt = crate::records::openings::deal_text(&game);
    if (&line.deal.red, &line.deal.black) != (&dealt.red, &dealt.black) {
        checked.problem = Some(format!(
            "the record's deal (red {}, black {}) is not the deal of its seed {} (red {}, black \
             {}): the record was altered, or another harness version wrote it",
            line.deal.red, line.deal.black, line.seed, dealt.red, dealt.black
        ));
        return checked;
    }
    if line.plies as usize != line.moves.len() {
        checked.problem = Some(format!(
            "it says {} plies but holds {} moves",
            line.plies,
            line.moves.len()
        ));
        return checked;
    }
    let upto = upto.unwrap_or(usize::MAX);
    let (mut played_plies, mut captures, mut reveals) = (0usize, 0u32, 0u32);
    let mut adjudicator = adjudication.map(crate::records::adjudication::Tracker::new);
    // The ply at which the recorded scores end the game by adjudication, if any, and the
    // detail the game's record must then say.
    let mut adjudicated: Option<usize> = None;
    let mut adjudicated_detail = None;
    for (i, text) in line.moves.iter().enumerate().take(upto) {
        let mover = game.turn();
        let bad = |why: String| {
            Some(format!(
                "at ply {}: recorded {}: {why}",
                i + 1,
                printable(text)
            ))
        };
        if game.outcome().is_some() {
            checked.problem = bad("the game was already over".into());
            break;
        }
        let played = match jieqi_core::PlayedMove::from_text(text, mover) {
            Ok(p) => p,
            Err(e) => {
                checked.problem = bad(e.to_string());
                break;
            }
        };
        let record = match game.play(played.mv) {
            Ok(r) => *r,
            Err(e) => {
                checked.problem = bad(format!("not legal here ({e})"));
                break;
            }
        };
        let truth = record.played.to_text(mover);
        if truth != *text {
            checked.problem = bad(format!("the deal makes it {truth}"));
            break;
        }
        played_plies += 1;
        captures += u32::from(record.captured.is_some());
        reveals += u32::from(record.played.reveal.is_some());
        if let Some(t) = adjudicator.as_mut().filter(|_| game.outcome().is_none()) {
            let score = line.search.get(i).and_then(|p| p.score.as_deref());
            let irreversible = record.captured.is_some() || record.played.reveal.is_some();
            if adjudicated.is_none()
                && let Some(v) = t.ply(mover, score, irreversible, game.position().fullmoves())
            {
                adjudicated = Some(i + 1);
                adjudicated_detail = Some(v.detail);
            }
        }
        if keep {
            checked.plies.push((record, game.position().fen()));
        }
    }
    let whole = played_plies == line.moves.len();
    if checked.problem.is_none() && whole {
        checked.problem = ending_problem(
            line,
            &game,
            max_plies,
            adjudication,
            (adjudicated, adjudicated_detail),
            (captures, reveals),
        );
    }
    checked.game = game;
    checked
}

/// What is wrong with how a whole record ends (`game`: its moves played through), if anything:
/// its ending by the rules, the cap, an adjudication its recorded scores (`adjudicated`: the ply
/// and detail they end it at, under the run's `adjudication`) must decide exactly, or a failure;
/// and its captures and reveals against those its moves make (`made`).
fn ending_problem(
    line: &GameLine,
    game: &jieqi_core::Game,
    max_plies: u32,
    adjudication: Option<crate::records::adjudication::Adjudication>,
    (adjudicated, adjudicated_detail): (Option<usize>, Option<String>),
    (captures, reveals): (u32, u32),
) -> Option<String> {
    use crate::records::termination::{ReasonKey, Termination};
    let by_rules = game.outcome().map(|o| {
        (
            records::GameResult::of(o.winner),
            Termination::Rules(ReasonKey::new(o.reason)),
        )
    });
    let verdict = |v: Option<(records::GameResult, Termination)>| {
        v.map_or("the game goes on".to_string(), |(r, t)| {
            format!("{} ({})", r.text(), t.name())
        })
    };
    let ok = match line.reason {
        Termination::Rules(_) => by_rules == Some((line.result, line.reason)),
        Termination::MaxPlies => {
            by_rules.is_none()
                && line.moves.len() == max_plies as usize
                && line.result == records::GameResult::Draw
        }
        Termination::AdjudicationResign => {
            // The side that moved last resigned.
            by_rules.is_none()
                && !line.moves.is_empty()
                && line.result.winner() == Some(game.turn())
        }
        Termination::AdjudicationDraw => {
            by_rules.is_none() && !line.moves.is_empty() && line.result == records::GameResult::Draw
        }
        _ => {
            // A failure loses for the side to move (whose engine failed), or before the
            // first move for either side (an engine that could not get ready).
            by_rules.is_none()
                && line.result.winner().is_some()
                && (line.moves.is_empty() || line.result.winner() == Some(!game.turn()))
        }
    };
    let by_scores = adjudication.map(|_| adjudicated);
    let plies = line.moves.len();
    if let Some(at) = by_scores
        && at != line.reason.is_adjudication().then_some(plies)
    {
        return Some(match at {
            Some(k) => format!(
                "its recorded scores end it by the run's adjudication ({}) at ply {k}, and it \
                 ends {} at ply {plies}",
                adjudication.unwrap_or_default(),
                line.reason.name()
            ),
            None => format!(
                "it ends {} at ply {plies}, and its recorded scores do not end it by the \
                 run's adjudication ({})",
                line.reason.name(),
                adjudication.unwrap_or_default()
            ),
        });
    } else if by_scores.is_some()
        && line.reason.is_adjudication()
        && line.detail != adjudicated_detail
    {
        return Some(format!(
            "its detail {:?} is not what its scores decided: {:?}",
            line.detail.as_deref().map(printable),
            adjudicated_detail.unwrap_or_default()
        ));
    } else if (captures, reveals) != (line.captures, line.reveals) {
        return Some(format!(
            "it says {} captures and {} reveals but its moves make {captures} and {reveals}",
            line.captures, line.reveals
        ));
    } else if !ok {
        return Some(format!(
            "it ends {} ({}) but after its {} plies the rules say {}{}",
            line.result.text(),
            line.reason.name(),
            line.moves.len(),
            verdict(by_rules),
            if line.reason == Termination::MaxPlies {
                format!(" (the run's cap is {max_plies} plies)")
            } else {
                String::new()
            }
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::adjudication::{Adjudication, Resign};
    use crate::records::termination::Termination;

    /// A recorded game of pair 0 of master seed 1: `plies` first legal moves, Red scoring its
    /// moves `red` and Black `black`, ended by `reason` with `result`.
    fn line(
        plies: usize,
        red: &str,
        black: &str,
        reason: Termination,
        result: records::GameResult,
    ) -> GameLine {
        let rules = Rules::standard();
        let seed = crate::records::deal_seed::pair_seed(1, 0);
        let mut game = crate::records::openings::start_game(seed, &rules, None);
        let (mut moves, mut search, mut captures, mut reveals) = (vec![], vec![], 0, 0);
        for _ in 0..plies {
            let mover = game.turn();
            let mv = game.legal_moves()[0];
            let r = *game.play(mv).unwrap();
            captures += u32::from(r.captured.is_some());
            reveals += u32::from(r.played.reveal.is_some());
            moves.push(r.played.to_text(mover));
            search.push(records::PlyInfo {
                nodes: 1,
                ms: None,
                depth: None,
                score: Some(
                    if mover == jieqi_core::Color::Red {
                        red
                    } else {
                        black
                    }
                    .into(),
                ),
                pv: vec![],
            });
        }
        GameLine {
            fingerprint: "f".into(),
            pair: 0,
            game: 1,
            seed,
            red: "a".into(),
            black: "b".into(),
            deal: crate::records::openings::deal_text(&crate::records::openings::start_game(
                seed, &rules, None,
            )),
            opening: None,
            result,
            reason,
            detail: None,
            plies: plies as u32,
            captures,
            reveals,
            nodes: records::Sides {
                red: plies as u64,
                black: plies as u64,
            },
            ms: records::Sides {
                red: 0.0,
                black: 0.0,
            },
            total_ms: 0.0,
            moves,
            search,
        }
    }

    /// `--resume` and `arena merge` hold an adjudicated game to its scores: it must end by the
    /// run's adjudication exactly where they say, and a game they would have ended earlier, or
    /// not at all, is refused.
    #[test]
    fn adjudication_is_checked_against_the_recorded_scores() {
        let run = |adjudication| RunRecords {
            rules: Rules::standard(),
            max_plies: 400,
            seed: 1,
            openings: None,
            adjudication,
            pairings: vec![("a".into(), "b".into())],
        };
        let resign = Adjudication {
            resign: Some(Resign {
                movecount: 2,
                score: 600,
                twosided: false,
            }),
            draw: None,
        };
        let black_wins = records::GameResult::BlackWins;
        // Red scores -7.00 on its moves 1 and 2 (plies 1 and 3): it resigns at ply 3.
        let mut good = line(
            3,
            "-7.00",
            "+7.00",
            Termination::AdjudicationResign,
            black_wins,
        );
        good.detail = Some(
            "red resigns (--resign movecount=2 score=600; last scores red -7.00, black +7.00, \
             red -7.00)"
                .into(),
        );
        assert_eq!(run(resign).problem(&good), None);
        // A detail that is not what the scores decided is refused.
        let mut forged = good.clone();
        forged.detail = Some("white resigns, totally".into());
        let p = run(resign).problem(&forged).unwrap();
        assert!(p.contains("is not what its scores decided"), "{p}");
        // Its scores do not say so.
        let weak = line(
            3,
            "-5.00",
            "+7.00",
            Termination::AdjudicationResign,
            black_wins,
        );
        let p = run(resign).problem(&weak).unwrap();
        assert!(p.contains("do not end it by the run's adjudication"), "{p}");
        // They say so earlier than the record ends.
        let later = line(
            5,
            "-7.00",
            "+7.00",
            Termination::AdjudicationResign,
            black_wins,
        );
        let p = run(resign).problem(&later).unwrap();
        assert!(p.contains("at ply 3"), "{p}");
        // A run without adjudication has no adjudicated game.
        let p = run(Adjudication::default()).problem(&good).unwrap();
        assert!(p.contains("do not end it"), "{p}");
        // The wrong winner is refused by the ending check.
        let wrong = line(
            3,
            "-7.00",
            "+7.00",
            Termination::AdjudicationResign,
            records::GameResult::RedWins,
        );
        assert!(run(resign).problem(&wrong).is_some());
    }

    /// `--resume` and `arena merge` refuse figures no game makes, whatever the checksum says:
    /// they used to take 500 search entries for 99 moves, none, a depth of 4294967295, a negative
    /// time, and to drop a line whose colours were swapped (its pair "missing").
    #[test]
    fn impossible_figures_and_swapped_colours_are_refused() {
        let run = RunRecords {
            rules: Rules::standard(),
            max_plies: 400,
            seed: 1,
            openings: None,
            adjudication: Adjudication::default(),
            pairings: vec![("a".into(), "b".into())],
        };
        let good = line(
            6,
            "+0.10",
            "-0.10",
            Termination::MaxPlies,
            records::GameResult::Draw,
        );
        let run = RunRecords {
            max_plies: 6,
            ..run
        };
        assert_eq!(run.problem(&good), None);
        let refused = |edit: &dyn Fn(&mut GameLine), field: &str| {
            let mut g = good.clone();
            edit(&mut g);
            let p = run.problem(&g).expect("refused");
            assert!(p.contains(field), "{p}");
        };
        refused(
            &|g| {
                g.search
                    .extend(std::iter::repeat_n(g.search[0].clone(), 500))
            },
            "field search holds 506 entries for its 6 moves",
        );
        refused(&|g| g.search.clear(), "field search holds 0 entries");
        refused(
            &|g| g.search[2].depth = Some(u32::MAX),
            "field search[2].depth",
        );
        refused(&|g| g.total_ms = -5.0, "field total_ms is -5 ms");
        refused(&|g| g.ms.black = f64::NAN, "field ms.black");
        refused(&|g| g.search[1].ms = Some(2e9), "field search[1].ms");
        refused(&|g| g.search[1].nodes = 10, "field nodes.black is 6");
        refused(
            &|g| {
                g.search[0].ms = Some(1.0);
                g.ms.red = 1.0;
                g.total_ms = 1.0;
                g.search[1].ms = Some(0.5);
            },
            "field ms.black",
        );
        refused(
            &|g| {
                g.ms.red = 1.0;
                g.total_ms = 0.5;
            },
            "field total_ms is 0.5",
        );
        refused(
            &|g| std::mem::swap(&mut g.red, &mut g.black),
            "fields red 'b' and black 'a' are no pairing of the run as game 1 has them",
        );
        // Game 2 has them the other way round: a and b as in game 1 are refused.
        refused(&|g| g.game = 2, "as game 2 has them");
    }

    /// The cost of the check `--resume` and `arena merge` make of every line, on a journal of
    /// your own: `CHECK_BENCH=DIR/games.jsonl CHECK_SEED=S cargo test -p arena --profile ci
    /// --lib check_cost -- --ignored --nocapture` (S the run's master seed; standard rules, the
    /// cap CHECK_MAX_PLIES or 400).
    #[test]
    #[ignore = "a measurement: needs CHECK_BENCH and CHECK_SEED"]
    fn check_cost() {
        let path = std::env::var("CHECK_BENCH").expect("CHECK_BENCH=games.jsonl");
        let seed = std::env::var("CHECK_SEED").expect("CHECK_SEED=master seed");
        let run = RunRecords {
            rules: Rules::standard(),
            max_plies: std::env::var("CHECK_MAX_PLIES").map_or(400, |m| m.parse().expect("a cap")),
            seed: seed.parse().expect("a number"),
            openings: None,
            adjudication: Default::default(),
            pairings: Vec::new(),
        };
        let started = std::time::Instant::now();
        let (lines, _) = records::read_jsonl(std::path::Path::new(&path)).expect("a journal");
        let read = started.elapsed();
        let started = std::time::Instant::now();
        let mut bad = 0;
        for line in &lines {
            bad += usize::from(run.problem(line).is_some());
        }
        let checked = started.elapsed();
        let plies: usize = lines.iter().map(|l| l.moves.len()).sum();
        let played_ms: f64 = lines.iter().map(|l| l.total_ms).sum();
        let per_game = checked.as_secs_f64() * 1e6 / lines.len() as f64;
        println!(
            "{} games, {plies} plies ({:.1} a game), {bad} refused: read+parse {:.1} ms; check \
             {:.1} ms = {per_game:.1} us a game, {:.2} us a ply; the games' own total_ms sum \
             {played_ms:.1} ms = {:.1} us a game: the check is {:.1} % of play time",
            lines.len(),
            plies as f64 / lines.len() as f64,
            read.as_secs_f64() * 1e3,
            checked.as_secs_f64() * 1e3,
            checked.as_secs_f64() * 1e6 / plies as f64,
            played_ms * 1e3 / lines.len() as f64,
            100.0 * checked.as_secs_f64() * 1e3 / played_ms
        );
        assert_eq!(bad, 0);
    }
}
