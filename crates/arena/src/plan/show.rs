//! `arena show`'s plan: the position to draw, and with `--seed` the deal and the truth.

use jieqi_core::{Color, Deal, Determinization, Position};

use crate::cli::show::ShowArgs;
use crate::error::Error;
use crate::plan::rules_arg;
use crate::report::board_text::{BoardStyle, Glyphs};

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
    /// The deal [`crate::records::deal_seed::deal_for_seed`] maps it to.
    pub deal: Deal,
    /// The start position with every hidden identity fixed by the deal.
    pub truth: Determinization,
}

impl ShowPlan {
    /// Validates `arena show` arguments; `colour_ok` as in [`crate::plan::Plan::from_cli`].
    ///
    /// # Errors
    /// Bad rules, a bad FEN, or a seed under rules without hidden pieces.
    pub fn new(args: ShowArgs, colour_ok: bool) -> Result<ShowPlan, Error> {
        let rules = rules_arg::resolve(&args.rules.rules)?;
        let position = crate::plan::position(args.fen, &rules)?;
        let seeded = match args.seed {
            None => None,
            Some(_) if !rules.has_hidden() => {
                return Err(Error::SeedNeedsHidden {
                    rules: rules.name.to_string(),
                });
            }
            Some(seed) => {
                let deal = crate::records::deal_seed::deal_for_seed(seed, &rules);
                let assignment: Vec<_> = Color::ALL
                    .into_iter()
                    .flat_map(|c| deal.assignments(c).collect::<Vec<_>>())
                    .collect();
                let truth = Determinization::new(position.clone(), assignment)
                    .map_err(|source| Error::DealMismatch { seed, source })?;
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
