//! One job of a run played: both games of its pair, on the deal of its pair index, each told to
//! the run's watcher if it has one ([`play_job`]).

use jieqi_core::ByColor;

use crate::engines::logs::RunLogs;
use crate::records::deal_seed::pair_seed;
use crate::records::{self, GameLine};
use crate::run::RunSpec;
use crate::run::game_runner::{GameSpec, play_game};
use crate::run::watch::{Watch, WatchedGame, WatchedPly};

/// Plays job `job` of the run `run`: both games of its pair, each told to `watch`'s watcher if
/// there is one.
/// `None` when the watch stopped the run, or the process was interrupted, before the pair was
/// finished (the pair is not recorded; a resume plays it).
pub(crate) fn play_job(
    run: &RunSpec,
    watch: Option<&Watch>,
    job: u64,
    fingerprint: &str,
    logs: &RunLogs,
) -> Option<[GameLine; 2]> {
    let (pairing, p) = run.job(job);
    let (a, b) = run.pairings[pairing];
    let seed = pair_seed(run.seed, p);
    let whole_run_job = p * run.pairings.len() as u64 + pairing as u64;
    let game = |number: u8, red: usize, black: usize| -> Option<GameLine> {
        if crate::util::interrupt::requested() || watch.is_some_and(Watch::stopping) {
            return None;
        }
        let logs = logs.game(
            records::game_number(whole_run_job, number),
            ByColor { red, black },
            ByColor {
                red: run.engines[red].label.as_str(),
                black: run.engines[black].label.as_str(),
            },
        );
        let game_spec = GameSpec {
            rules: &run.rules,
            deal_seed: seed,
            opening: run.openings.as_deref().map(|b| b.for_pair(p)),
            players: ByColor {
                red: run.player(red),
                black: run.player(black),
            },
            max_plies: run.max_plies,
            adjudication: run.adjudication,
            timemargin: run.timemargin,
            logs,
            stop: watch.map(|w| &w.stop),
        };
        let which = WatchedGame {
            number: 2 * job + u64::from(number),
            red: &run.engines[red].label,
            black: &run.engines[black].label,
        };
        let played = match watch {
            None => play_game(&game_spec, None),
            Some(w) => {
                let start = crate::records::openings::start_game(
                    seed,
                    &run.rules,
                    run.openings.as_deref().map(|b| b.for_pair(p)),
                );
                w.watcher.game_started(which, &start);
                let mut observer = |game: &jieqi_core::Game,
                                    record: &jieqi_core::Record,
                                    choice: &jieqi_engine::Choice,
                                    ms: f64| {
                    w.watcher.ply(
                        which,
                        WatchedPly {
                            game,
                            record,
                            info: &choice.info,
                            ms,
                        },
                    );
                };
                play_game(&game_spec, Some(&mut observer))
            }
        };
        if played.abandoned {
            if let Some(w) = watch {
                w.watcher.game_abandoned(which);
            }
            return None;
        }
        let line = GameLine::new(
            fingerprint,
            p,
            number,
            seed,
            &run.engines[red].label,
            &run.engines[black].label,
            &played,
        );
        if let Some(w) = watch {
            w.watcher.game_ended(which, &line);
        }
        Some(line)
    };
    let first = game(1, a, b)?;
    Some([first, game(2, b, a)?])
}
