//! A recorded game checked against its deal: every move legal under the rules, its reveal and
//! capture letters the truth, and its ending one the final position allows.

use jieqi_core::{Color, Rules};

use crate::records::{self, GameLine};
use crate::util::text::printable;

/// A recorded game played through from its deal by the referee, as far as the record holds up.
pub struct Checked {
    /// The game after the last ply that checked out.
    pub game: jieqi_core::Game,
    /// The start position's FEN.
    pub start_fen: String,
    /// Each ply that checked out: its record and the public FEN after it.
    pub plies: Vec<(jieqi_core::Record, String)>,
    /// What is wrong with the record, if anything: `at ply K: …` or about its ending.
    pub problem: Option<String>,
}

/// Plays the recorded game `line` through from its seed's deal under `rules` (its first `upto`
/// plies, or all): the deal must be the seed's, every move legal with its reveal and capture
/// letters the truth, `plies` the number of moves, and (when played through) the ending one the
/// final position allows — a result by the rules must be the rules' verdict, an engine failure
/// or adjudication cannot come at a finished position, and `max-plies` comes at `max_plies`.
pub fn check_record(
    rules: &Rules,
    line: &GameLine,
    max_plies: u32,
    upto: Option<usize>,
) -> Checked {
    use crate::records::termination::{ReasonKey, Termination};
    let deal = crate::records::deal_seed::deal_for_seed(line.seed, rules);
    let mut game = jieqi_core::Game::new(*rules, deal.clone());
    let mut checked = Checked {
        start_fen: game.position().fen(),
        game: game.clone(),
        plies: Vec::new(),
        problem: None,
    };
    let dealt = (deal.side_string(Color::Red), deal.side_string(Color::Black));
    if (&line.deal.red, &line.deal.black) != (&dealt.0, &dealt.1) {
        checked.problem = Some(format!(
            "the record's deal (red {}, black {}) is not the deal of its seed {} (red {}, black \
             {}): the record was altered, or another harness version wrote it",
            line.deal.red, line.deal.black, line.seed, dealt.0, dealt.1
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
        checked.plies.push((record, game.position().fen()));
    }
    let whole = checked.plies.len() == line.moves.len();
    if checked.problem.is_none() && whole {
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
            _ => {
                // A failure loses for the side to move (whose engine failed), or before the
                // first move for either side (an engine that could not get ready).
                by_rules.is_none()
                    && line.result.winner().is_some()
                    && (line.moves.is_empty() || line.result.winner() == Some(!game.turn()))
            }
        };
        if !ok {
            checked.problem = Some(format!(
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
    }
    checked.game = game;
    checked
}
