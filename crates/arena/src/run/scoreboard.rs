//! The scoreboard: what the finished pairs of a run add up to, per pairing of engine slots (never
//! per label): pentanomial and game counts from the first engine's side, its score per colour,
//! terminations, and per engine failures and what its searches reported (time, nodes, depth per
//! move).

use std::collections::BTreeMap;

use jieqi_core::Color;
use serde::Serialize;

use crate::records::GameLine;
use crate::records::termination::Termination;
use crate::stats::{GameScore, Pentanomial, Wdl};

/// Points and games.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize)]
pub struct Points {
    /// Points scored.
    pub points: f64,
    /// Games played.
    pub games: u64,
}

impl Points {
    /// Points per game, 0 without games.
    pub fn fraction(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.points / self.games as f64
        }
    }
}

/// What one engine's searches reported over the moves it made: a move that failed or lost on
/// time is left out, its time and nodes too ([`MoveStats::failed`] counts them), and the mean
/// depth is over the moves that reported one (a decided move reports none) and no mate: an engine
/// that has found a mate may report a sentinel depth (Fairy-Stockfish says 245), which would
/// swamp the mean ([`MoveStats::mate_depths`] counts those left out).
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize)]
pub struct MoveStats {
    /// Moves it made.
    pub moves: u64,
    /// Milliseconds it spent thinking on them, in all.
    pub ms: f64,
    /// Nodes they reported, in all.
    pub nodes: u64,
    /// Moves that reported a depth.
    pub depth_moves: u64,
    /// Their depths, summed.
    pub depth_sum: u64,
    /// Moves that reported a depth with a mate score, left out of the mean depth.
    pub mate_depths: u64,
    /// Moves that failed (timeout, time forfeit, crash…): not in any mean.
    pub failed: u64,
    /// Moves that reported a score (what adjudication reads).
    pub scored: u64,
}

impl MoveStats {
    /// Milliseconds per move.
    pub fn ms_per_move(&self) -> f64 {
        self.ms / self.moves.max(1) as f64
    }

    /// Nodes per move.
    pub fn nodes_per_move(&self) -> f64 {
        self.nodes as f64 / self.moves.max(1) as f64
    }

    /// Mean depth of the moves that reported one, mate reports left out.
    pub fn depth_per_move(&self) -> Option<f64> {
        (self.depth_moves > 0).then(|| self.depth_sum as f64 / self.depth_moves as f64)
    }

    /// Moves made that are not in the mean depth: they reported none (a decided or instant
    /// move, or an engine that reports no depth) or a mate.
    pub fn without_depth(&self) -> u64 {
        self.moves - self.depth_moves
    }

    fn add(&mut self, o: &MoveStats) {
        self.moves += o.moves;
        self.ms += o.ms;
        self.nodes += o.nodes;
        self.depth_moves += o.depth_moves;
        self.depth_sum += o.depth_sum;
        self.mate_depths += o.mate_depths;
        self.failed += o.failed;
        self.scored += o.scored;
    }
}

/// The tally of one pairing: engine slot `a` against slot `b`, counts from `a`'s side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairingScore {
    /// The first engine's slot (Red in game 1 of every pair).
    pub a: usize,
    /// The second engine's slot.
    pub b: usize,
    /// Pairs.
    pub ptnml: Pentanomial,
    /// Games.
    pub wdl: Wdl,
    /// `a`'s score as Red, then as Black.
    pub by_color: [Points; 2],
    /// Games by termination name.
    pub terminations: BTreeMap<&'static str, u64>,
    /// Engine failures (illegal move, panic, error, timeout, crash, protocol error) of `a`,
    /// then of `b`.
    pub failures: [u64; 2],
    /// Games `a`, then `b`, lost on time.
    pub forfeits: [u64; 2],
    /// Search reports of `a`, then of `b`.
    pub moves: [MoveStats; 2],
    /// Plies played.
    pub plies: u64,
    /// Milliseconds inside the engines.
    pub engine_ms: f64,
    /// Milliseconds of whole games, harness included.
    pub total_ms: f64,
    /// Pairs whose two games repeat an earlier pair's move for move, from the same start
    /// ([`pair_hash`]): not independent of it.
    pub repeated: u64,
    /// The hashes of the distinct pairs counted (8 bytes a pair: a run of 10^6 pairs holds
    /// 8 MB here).
    seen: std::collections::HashSet<u64>,
}

/// The hash that says two pairs are the same games: each game's opening and its moves with the
/// identities they revealed and captured (FNV-1a). Two pairs of the same pairing with the same
/// hash replayed one another move for move (a deal's identities that never showed change
/// nothing that was played; under Xiangqi rules every seed has a deal nothing uses).
pub fn pair_hash(pair: &[GameLine; 2]) -> u64 {
    let mut text = String::new();
    for g in pair {
        text.push_str(g.opening.as_deref().unwrap_or(""));
        text.push('|');
        for m in &g.moves {
            text.push_str(m);
            text.push(' ');
        }
        text.push('#');
    }
    crate::records::fnv(&text)
}

/// The share of repeated pairs above which a run's games are said not to be independent
/// (and a gate refuses its verdict): 1 %.
pub const REPEAT_SHARE: f64 = 0.01;

/// The share of its games an engine may lose by an engine failure (an illegal move, a panic, an
/// error, the hard `--move-timeout`, a crash or a protocol error: [`Termination::is_failure`])
/// before its run's exit status says so (5): more than 5 % of any engine's games. A loss on the
/// clock is no failure (the summary warns of many of them).
///
/// [`Termination::is_failure`]: crate::records::termination::Termination::is_failure
pub const FAILURE_SHARE: f64 = 0.05;

/// An engine that failed in more than [`FAILURE_SHARE`] of its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FailingEngine {
    /// Its slot.
    pub slot: usize,
    /// Its games lost by an engine failure.
    pub failures: u64,
    /// Its games counted.
    pub games: u64,
}

impl PairingScore {
    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.ptnml.pairs()
    }

    /// Whether more than [`REPEAT_SHARE`] of the pairs repeat earlier ones.
    pub fn too_many_repeats(&self) -> bool {
        self.repeated as f64 > REPEAT_SHARE * self.pairs() as f64
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wdl.games()
    }

    /// Adds one finished pair: game 1 with `a` as Red, game 2 with `a` as Black.
    pub fn add_pair(&mut self, pair: &[GameLine; 2]) {
        let scores = [
            a_score(&pair[0], Color::Red),
            a_score(&pair[1], Color::Black),
        ];
        self.ptnml.add(scores[0], scores[1]);
        if !self.seen.insert(pair_hash(pair)) {
            self.repeated += 1;
        }
        for (i, (g, score)) in pair.iter().zip(scores).enumerate() {
            self.wdl.add(score);
            let side = &mut self.by_color[i];
            side.points += score.points();
            side.games += 1;
            *self.terminations.entry(g.reason.name()).or_default() += 1;
            // Which of a (0) and b (1) played each colour in this game.
            let slot_of = |c: Color| usize::from((c == Color::Red) != (i == 0));
            // A failure always has a winner; a malformed record without one counts against nobody.
            if let (true, Some(winner)) = (g.reason.is_failure(), g.winner()) {
                self.failures[slot_of(!winner)] += 1;
            }
            if let (Termination::TimeForfeit, Some(winner)) = (g.reason, g.winner()) {
                self.forfeits[slot_of(!winner)] += 1;
            }
            for c in Color::ALL {
                self.moves[slot_of(c)].add(&side_moves(g, c));
            }
            self.plies += u64::from(g.plies);
            self.engine_ms += g.ms.red + g.ms.black;
            self.total_ms += g.total_ms;
        }
    }
}

/// Whether a recorded score is a mate (`#5`, `#-3`: how [`jieqi_engine::Score`] writes one).
fn is_mate(score: Option<&str>) -> bool {
    score.is_some_and(|s| s.starts_with('#'))
}

/// Engine `a`'s score in a game where it played `a_color`.
fn a_score(g: &GameLine, a_color: Color) -> GameScore {
    match g.winner() {
        None => GameScore::Draw,
        Some(c) if c == a_color => GameScore::Win,
        Some(_) => GameScore::Loss,
    }
}

/// What the engine playing `c` reported over the moves it made in a game (the first mover's at
/// the even plies: Red, or the side to move in the game's opening): their time and nodes, from each ply's record (the game's totals hold a failed move's
/// too), and whether its last move failed. A record without per-ply times (older versions)
/// gives the game's total time.
fn side_moves(g: &GameLine, c: Color) -> MoveStats {
    let first = usize::from(c != g.first_mover());
    let mut s = MoveStats::default();
    let mut timed = true;
    for info in g.search.iter().skip(first).step_by(2) {
        s.moves += 1;
        s.nodes += info.nodes;
        match info.ms {
            Some(ms) => s.ms += ms,
            None => timed = false,
        }
        match info.depth {
            Some(_) if is_mate(info.score.as_deref()) => s.mate_depths += 1,
            Some(d) => {
                s.depth_moves += 1;
                s.depth_sum += u64::from(d);
            }
            None => {}
        }
        s.scored += u64::from(info.score.is_some());
    }
    if !timed {
        s.ms = match c {
            Color::Red => g.ms.red,
            Color::Black => g.ms.black,
        };
    }
    // A failure or a time forfeit always has a winner: the loser's move failed.
    let failure = g.reason.is_failure() || g.reason == Termination::TimeForfeit;
    if failure && g.winner() == Some(!c) {
        s.failed = 1;
    }
    s
}

/// Every pairing's tally.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scoreboard {
    pairings: Vec<PairingScore>,
}

impl Scoreboard {
    /// An empty board for these pairings of engine slots, `(a, b)` each.
    pub fn new(pairings: &[(usize, usize)]) -> Scoreboard {
        Scoreboard {
            pairings: pairings
                .iter()
                .map(|&(a, b)| PairingScore {
                    a,
                    b,
                    ..PairingScore::default()
                })
                .collect(),
        }
    }

    /// A board of one pairing alone (slots 0 and 1): a pairing of a larger run as its own match.
    pub fn of_pairing(p: &PairingScore) -> Scoreboard {
        Scoreboard {
            pairings: vec![PairingScore {
                a: 0,
                b: 1,
                ..p.clone()
            }],
        }
    }

    /// Adds a finished pair of pairing `pairing`.
    ///
    /// # Panics
    /// If there is no such pairing (the caller made the board for its pairings).
    pub fn add_pair(&mut self, pairing: usize, pair: &[GameLine; 2]) {
        self.pairings[pairing].add_pair(pair);
    }

    /// Every pairing's tally, in pairing order.
    pub fn pairings(&self) -> &[PairingScore] {
        &self.pairings
    }

    /// Engine failures of slot `slot`, over every pairing it played.
    pub fn failures(&self, slot: usize) -> u64 {
        self.sides(slot).map(|(p, i)| p.failures[i]).sum()
    }

    /// Games slot `slot` played, over every pairing.
    pub fn games(&self, slot: usize) -> u64 {
        self.sides(slot).map(|(p, _)| p.games()).sum()
    }

    /// The engines that failed in more than [`FAILURE_SHARE`] of their games, by slot.
    pub fn failing(&self) -> Vec<FailingEngine> {
        let slots: std::collections::BTreeSet<usize> =
            self.pairings.iter().flat_map(|p| [p.a, p.b]).collect();
        slots
            .into_iter()
            .map(|slot| FailingEngine {
                slot,
                failures: self.failures(slot),
                games: self.games(slot),
            })
            .filter(|e| e.failures as f64 > FAILURE_SHARE * e.games as f64)
            .collect()
    }

    /// Search reports of slot `slot`, over every pairing it played.
    pub fn moves(&self, slot: usize) -> MoveStats {
        let mut s = MoveStats::default();
        for (p, i) in self.sides(slot) {
            s.add(&p.moves[i]);
        }
        s
    }

    /// The pairings `slot` played, with its side (0: a, 1: b) in each.
    fn sides(&self, slot: usize) -> impl Iterator<Item = (&PairingScore, usize)> {
        self.pairings.iter().flat_map(move |p| {
            [
                (p.a == slot).then_some((p, 0)),
                (p.b == slot).then_some((p, 1)),
            ]
            .into_iter()
            .flatten()
        })
    }
}

/// The first engine's half-points (0–4) of each counted pair, by job: all the bootstraps of the
/// reports need of the games (a byte a pair).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairPoints {
    /// By job; [`PairPoints::ABSENT`] where the job has no pair (a partial merge).
    by_job: Vec<u8>,
    /// Jobs present.
    present: u64,
}

impl PairPoints {
    /// The mark of a job without a pair.
    const ABSENT: u8 = u8::MAX;

    /// Records job `job`'s half-points.
    pub fn set(&mut self, job: u64, half_points: u8) {
        let j = job as usize;
        if self.by_job.len() <= j {
            self.by_job.resize(j + 1, Self::ABSENT);
        }
        if self.by_job[j] == Self::ABSENT {
            self.present += 1;
        }
        self.by_job[j] = half_points;
    }

    /// Job `job`'s half-points, if it has a pair.
    pub fn get(&self, job: u64) -> Option<u8> {
        self.by_job
            .get(job as usize)
            .copied()
            .filter(|&p| p != Self::ABSENT)
    }

    /// Jobs with a pair.
    pub fn len(&self) -> u64 {
        self.present
    }

    /// Whether no job has a pair.
    pub fn is_empty(&self) -> bool {
        self.present == 0
    }

    /// (job, half-points) of every job with a pair, in job order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u8)> + '_ {
        self.by_job
            .iter()
            .enumerate()
            .filter(|&(_, &p)| p != Self::ABSENT)
            .map(|(j, &p)| (j as u64, p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{DealText, GameResult, PlyInfo, Sides};

    fn ply(ms: f64, nodes: u64, depth: Option<u32>) -> PlyInfo {
        PlyInfo {
            nodes,
            ms: Some(ms),
            depth,
            score: None,
            pv: Vec::new(),
        }
    }

    /// Red made two moves (one decided, without a depth) and its third timed out at 1,100 ms:
    /// the means are over the two moves made, the depth over the one that reported it, and the
    /// failed move is counted apart (its time and nodes used to be in the means).
    #[test]
    fn a_failed_move_and_a_move_without_depth_are_left_out_and_counted() {
        let g = GameLine {
            fingerprint: "f".into(),
            pair: 0,
            game: 1,
            seed: 7,
            red: "a".into(),
            black: "b".into(),
            deal: DealText {
                red: "RNBA".into(),
                black: "rnba".into(),
            },
            opening: None,
            result: GameResult::BlackWins,
            reason: Termination::Timeout,
            detail: Some("red: 1100 ms for one move (hard limit 1100 ms)".into()),
            plies: 4,
            captures: 0,
            reveals: 0,
            // The game's totals hold the failed move's time and a late answer's nodes.
            nodes: Sides {
                red: 1300,
                black: 40,
            },
            ms: Sides {
                red: 1130.0,
                black: 2.0,
            },
            total_ms: 1132.0,
            moves: vec!["a".into(); 4],
            search: vec![
                ply(20.0, 100, Some(6)),
                ply(1.0, 20, Some(2)),
                ply(10.0, 200, None),
                ply(1.0, 20, Some(2)),
            ],
        };
        let red = side_moves(&g, Color::Red);
        assert_eq!(
            (red.moves, red.ms, red.nodes, red.failed),
            (2, 30.0, 300, 1)
        );
        assert_eq!(red.depth_per_move(), Some(6.0));
        assert_eq!(red.without_depth(), 1);
        let black = side_moves(&g, Color::Black);
        assert_eq!((black.moves, black.ms, black.failed), (2, 2.0, 0));
    }

    /// A round robin of three engines, 40 games each: slot 0 failed in 2 of its 40 games (5 %,
    /// not more), slot 1 in 3 (more than 5 %), slot 2 in none.
    #[test]
    fn an_engine_fails_the_run_past_five_percent_of_its_games() {
        let pairing = |a, b, failures| PairingScore {
            a,
            b,
            wdl: crate::stats::Wdl {
                wins: 10,
                draws: 0,
                losses: 10,
            },
            failures,
            ..PairingScore::default()
        };
        let board = Scoreboard {
            pairings: vec![
                pairing(0, 1, [1, 2]),
                pairing(0, 2, [1, 0]),
                pairing(1, 2, [1, 0]),
            ],
        };
        assert_eq!((board.games(0), board.failures(0)), (40, 2));
        assert_eq!(
            board.failing(),
            vec![FailingEngine {
                slot: 1,
                failures: 3,
                games: 40
            }]
        );
        assert!(Scoreboard::new(&[(0, 1)]).failing().is_empty(), "no games");
    }

    /// Fairy-Stockfish reports depth 245 with a mate score: its mean depth was 21.6 where its
    /// searches reached 7–10. A depth reported with a mate is left out of the mean and counted.
    #[test]
    fn a_depth_reported_with_a_mate_is_left_out_of_the_mean_depth() {
        let scored = |depth: u32, score: &str| PlyInfo {
            score: Some(score.into()),
            ..ply(1.0, 10, Some(depth))
        };
        let g = GameLine {
            plies: 5,
            nodes: Sides { red: 30, black: 20 },
            ms: Sides {
                red: 3.0,
                black: 2.0,
            },
            total_ms: 5.0,
            moves: vec!["a".into(); 5],
            search: vec![
                scored(8, "+0.35"),
                scored(3, "-0.20"),
                scored(10, "+1.20"),
                scored(3, "#-1"),
                scored(245, "#1"),
            ],
            ..crate::records::games::tests::game(0, 1)
        };
        let red = side_moves(&g, Color::Red);
        assert_eq!(
            red.depth_per_move(),
            Some(9.0),
            "8 and 10; the mate's 245 left out"
        );
        assert_eq!((red.mate_depths, red.without_depth()), (1, 1));
        let black = side_moves(&g, Color::Black);
        assert_eq!(black.depth_per_move(), Some(3.0));
        assert_eq!(black.mate_depths, 1);
    }
}
