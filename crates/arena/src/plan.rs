//! Validated arguments: what to run, with every bad-input error found before anything runs.

use jieqi_core::{Color, Deal, Determinization, FenError, Position, PositionError, Rules};

use crate::board_text::{BoardStyle, Glyphs};
use crate::cli::{Cli, Command, PerftArgs, ShowArgs};
use crate::rules_arg::{self, RulesArgError};

/// A validated command, ready to run.
#[derive(Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one plan per process; boxing would buy nothing"
)]
pub enum Plan {
    /// `arena perft`.
    Perft(PerftPlan),
    /// `arena show`.
    Show(ShowPlan),
}

/// What `arena perft` counts.
#[derive(Debug)]
pub struct PerftPlan {
    /// The root position (it carries its rules).
    pub position: Position,
    /// Plies to count.
    pub depth: u32,
    /// Print the per-root-move counts first.
    pub divide: bool,
    /// End with the JSON summary line.
    pub json: bool,
}

/// What `arena show` prints.
#[derive(Debug)]
pub struct ShowPlan {
    /// The position to draw (it carries its rules).
    pub position: Position,
    /// The deal named by `--seed`, with the truth it gives the start position.
    pub seeded: Option<SeededDeal>,
    /// How to draw boards.
    pub style: BoardStyle,
}

/// A deal named by a seed, for the referee's eyes.
#[derive(Debug)]
pub struct SeededDeal {
    /// The seed.
    pub seed: u64,
    /// The deal [`crate::deal_for_seed`] maps it to.
    pub deal: Deal,
    /// The start position with every hidden identity fixed by the deal.
    pub truth: Determinization,
}

/// Bad input found while validating the command line.
#[derive(Debug)]
pub enum PlanError {
    /// `--rules` gives no usable rule set.
    Rules(RulesArgError),
    /// `--fen` does not read, or reads into an illegal position.
    Fen {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        source: FenError,
    },
    /// `--seed` under rules without hidden pieces.
    SeedNeedsHidden {
        /// The rule set's name.
        rules: String,
    },
    /// The deal does not fit the start position (a bug, not bad input).
    DealMismatch {
        /// The seed.
        seed: u64,
        /// What the position objected to.
        source: PositionError,
    },
}

impl core::fmt::Display for PlanError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PlanError::Rules(e) => write!(f, "{e}"),
            PlanError::Fen { fen, source } => write!(f, "--fen '{fen}': {source}"),
            PlanError::SeedNeedsHidden { rules } => write!(
                f,
                "--seed: rules '{rules}' have no hidden pieces, so there is no deal to show \
                 (use --fen, or rules with hidden pieces such as standard)"
            ),
            PlanError::DealMismatch { seed, source } => write!(
                f,
                "--seed {seed}: the deal does not fit the start position: {source}"
            ),
        }
    }
}

impl std::error::Error for PlanError {}

impl From<RulesArgError> for PlanError {
    fn from(e: RulesArgError) -> PlanError {
        PlanError::Rules(e)
    }
}

impl Plan {
    /// Validates the parsed command line. `colour_ok` says whether boards may use ANSI colour
    /// (stdout is a terminal and the user did not ask for no colour).
    ///
    /// # Errors
    /// Bad rules, a bad FEN, or a seed under rules without hidden pieces.
    pub fn from_cli(cli: Cli, colour_ok: bool) -> Result<Plan, PlanError> {
        match cli.command {
            Command::Perft(args) => Ok(Plan::Perft(PerftPlan::new(args)?)),
            Command::Show(args) => Ok(Plan::Show(ShowPlan::new(args, colour_ok)?)),
        }
    }
}

/// The position `--fen` names under `rules`, or the rules' start position.
fn position(fen: Option<String>, rules: &Rules) -> Result<Position, PlanError> {
    match fen {
        None => Ok(Position::start(rules)),
        Some(fen) => Position::from_fen(&fen, rules).map_err(|source| PlanError::Fen {
            fen: fen.clone(),
            source,
        }),
    }
}

impl PerftPlan {
    /// Validates `arena perft` arguments.
    ///
    /// # Errors
    /// Bad rules or a bad FEN.
    pub fn new(args: PerftArgs) -> Result<PerftPlan, PlanError> {
        let rules = rules_arg::resolve(&args.rules.rules)?;
        Ok(PerftPlan {
            position: position(args.fen, &rules)?,
            depth: args.depth,
            divide: args.divide,
            json: args.json,
        })
    }
}

impl ShowPlan {
    /// Validates `arena show` arguments; `colour_ok` as in [`Plan::from_cli`].
    ///
    /// # Errors
    /// Bad rules, a bad FEN, or a seed under rules without hidden pieces.
    pub fn new(args: ShowArgs, colour_ok: bool) -> Result<ShowPlan, PlanError> {
        let rules = rules_arg::resolve(&args.rules.rules)?;
        let position = position(args.fen, &rules)?;
        let seeded = match args.seed {
            None => None,
            Some(_) if !rules.has_hidden() => {
                return Err(PlanError::SeedNeedsHidden {
                    rules: rules.name.to_string(),
                });
            }
            Some(seed) => {
                let deal = crate::deal_for_seed(seed, &rules);
                let assignment: Vec<_> = Color::ALL
                    .into_iter()
                    .flat_map(|c| deal.assignments(c).collect::<Vec<_>>())
                    .collect();
                let truth = Determinization::new(position.clone(), assignment)
                    .map_err(|source| PlanError::DealMismatch { seed, source })?;
                Some(SeededDeal { seed, deal, truth })
            }
        };
        let glyphs = if args.unicode {
            Glyphs::Unicode
        } else {
            Glyphs::Ascii
        };
        Ok(ShowPlan {
            position,
            seeded,
            style: BoardStyle {
                glyphs,
                ansi: colour_ok,
            },
        })
    }
}
