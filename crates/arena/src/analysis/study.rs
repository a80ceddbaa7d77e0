//! A game to study: its start (with the truth of every hidden piece when it is known), its
//! moves, the players, how it ended and what each engine said at each ply.

use jieqi_core::{Game, Move, Record};

use crate::records::check::check_record;
use crate::records::{GameLine, GameResult, PlyInfo};

/// One game to analyse or view.
#[derive(Clone, Debug)]
pub struct StudyGame {
    /// What it is, for people: `results/x game 12 (pair 5, game 2)`, a file name.
    pub title: String,
    /// The start position with every hidden identity fixed: the deal when the source gives it,
    /// else a completion (the identities the game revealed where they were, the others from
    /// what is left), see [`StudyGame::truth_known`].
    pub start: Game,
    /// Whether `start` is the true deal. When it is not, the identities never revealed are made
    /// up: the true board and any omniscient analysis are not shown.
    pub truth_known: bool,
    /// The moves played, each legal where it was played.
    pub moves: Vec<Move>,
    /// Red's engine (or player).
    pub red: String,
    /// Black's engine (or player).
    pub black: String,
    /// The result.
    pub result: GameResult,
    /// How it ended, in the arena's words (`checkmate`, `max-plies`, `timeout: …`).
    pub ending: String,
    /// What the engine that moved said at each ply (`None`: nothing recorded); as long as
    /// `moves` or shorter.
    pub recorded: Vec<Option<PlyInfo>>,
    /// The deal seed, when there is one.
    pub seed: Option<u64>,
    /// The game's number in its folder's `games.csv`, when it comes from a folder.
    pub number: Option<u64>,
}

impl StudyGame {
    /// The recorded game `line` of a folder under `rules`, checked against its seed's deal.
    ///
    /// # Errors
    /// The record does not play through (it was altered); the message says at which ply.
    pub fn from_record(
        rules: &jieqi_core::Rules,
        line: &GameLine,
        max_plies: u32,
        title: String,
        number: Option<u64>,
    ) -> Result<StudyGame, String> {
        let checked = check_record(rules, line, max_plies, None);
        if let Some(problem) = checked.problem {
            return Err(problem);
        }
        let ending = match &line.detail {
            Some(d) => format!(
                "{}: {}",
                line.reason.name(),
                crate::util::text::printable(d)
            ),
            None => line.reason.name().to_string(),
        };
        Ok(StudyGame {
            title,
            start: checked.start,
            truth_known: true,
            moves: checked.plies.iter().map(|(r, _)| r.played.mv).collect(),
            red: line.red.clone(),
            black: line.black.clone(),
            result: line.result,
            ending,
            recorded: (0..line.moves.len())
                .map(|i| line.search.get(i).cloned())
                .collect(),
            seed: Some(line.seed),
            number,
        })
    }

    /// The games before each ply and after the last: `moves.len() + 1` games, the first the
    /// start. The moves were checked legal when the study was made.
    pub fn games(&self) -> Vec<Game> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut game = self.start.clone();
        out.push(game.clone());
        for &mv in &self.moves {
            game.play(mv).expect("a study's moves are legal");
            out.push(game.clone());
        }
        out
    }

    /// The referee's record of every ply, in order.
    pub fn records(&self) -> Vec<Record> {
        let mut game = self.start.clone();
        for &mv in &self.moves {
            game.play(mv).expect("a study's moves are legal");
        }
        game.records().to_vec()
    }
}
