//! `arena replay`'s plan: one seeded game to play again, or a recorded one to check or show.

use jieqi_core::ByColor;

use crate::cli::replay::ReplayArgs;
use crate::engines;
use crate::error::Error;
use crate::plan::rules_arg;
use crate::report::board_text::{BoardStyle, Glyphs};
use crate::run::folder;

pub use crate::report::replay::{ReplayPlan, Show};

/// Validates `arena replay` arguments; `colour_ok` and `given` as in
/// [`crate::plan::Plan::from_cli`]. A recorded game is found and read here.
///
/// # Errors
/// A flag of the other mode, a bad `--pair`/`--game`, a folder or record that cannot be used,
/// a bad engine, rules or limit.
pub fn plan(
    args: ReplayArgs,
    colour_ok: bool,
    given: &dyn Fn(&str) -> bool,
) -> Result<ReplayPlan, Error> {
    // Flags of one mode given in the other would be silently ignored: refuse them.
    if args.dir.is_some() {
        for flag in ["nodes", "depth", "movetime", "rules", "max_plies"] {
            if given(flag) {
                return Err(Error::arg(
                    "DIR",
                    format!(
                        "--{} is for a replay by --seed: a results folder brings its own rules, \
                         limits and cap",
                        flag.replace('_', "-")
                    ),
                ));
            }
        }
    } else {
        for (id, flag) in [
            ("show", "--show"),
            ("recheck", "--recheck"),
            ("pair", "--pair"),
            ("game", "--game"),
        ] {
            if given(id) {
                return Err(Error::arg(
                    flag,
                    "is for a game recorded in a results folder: give DIR",
                ));
            }
        }
    }
    let style = BoardStyle {
        glyphs: if args.unicode {
            Glyphs::Unicode
        } else {
            Glyphs::Ascii
        },
        ansi: colour_ok,
    };
    if let Some(dir) = args.dir {
        let (folder, pair, game, located) = match (args.pair, args.game) {
            (Some(pair), Some(game @ (1 | 2))) => (dir, pair, game as u8, None),
            (Some(_), Some(game)) => {
                return Err(Error::arg(
                    "--game",
                    format!("{game}: with --pair it is 1 (A Red) or 2 (A Black)"),
                ));
            }
            (Some(_), None) => {
                return Err(Error::arg("--game", "needed with --pair (1 or 2)"));
            }
            (None, Some(number)) => {
                let at = folder::locate(&dir, number).map_err(|(flag, m)| Error::arg(flag, m))?;
                (at.folder, at.pair, at.game, at.note)
            }
            (None, None) => {
                return Err(Error::arg(
                    "--game",
                    "needed with a results folder: --game N (the number column of games.csv), \
                     or --pair P --game 1|2",
                ));
            }
        };
        let (setup, line, path) =
            folder::load_recorded(&folder, pair, game).map_err(|m| Error::arg("DIR", m))?;
        let a = engines::recorded(&setup.engines[0].0, &setup.engines[0].1)
            .map_err(|m| Error::arg("DIR", m))?;
        let b = engines::recorded(&setup.engines[1].0, &setup.engines[1].1)
            .map_err(|m| Error::arg("DIR", m))?;
        let (red, black) = if game == 1 { (a, b) } else { (b, a) };
        let (oa, ob) = (setup.omniscient.sees_all(0), setup.omniscient.sees_all(1));
        let omniscient = if game == 1 {
            ByColor { red: oa, black: ob }
        } else {
            ByColor { red: ob, black: oa }
        };
        let show = if args.show {
            Some(Show::Asked)
        } else if args.recheck {
            None
        } else {
            folder::not_reproducible(&setup, &line, &red, &black).map(Show::NotReproducible)
        };
        let opening = match &line.opening {
            None => None,
            Some(fen) => Some(
                crate::records::openings::parse_opening(fen, &setup.rules)
                    .map_err(|m| Error::arg("DIR", format!("the game's opening '{fen}': {m}")))?,
            ),
        };
        return Ok(ReplayPlan {
            rules: setup.rules,
            red,
            black,
            deal_seed: line.seed,
            opening,
            limits: setup.limits(),
            tc: setup.tc,
            timemargin: std::time::Duration::from_millis(setup.timemargin_ms.unwrap_or(0)),
            move_timeout: setup.move_timeout_ms.map(std::time::Duration::from_millis),
            max_plies: setup.max_plies,
            adjudication: setup.adjudication,
            omniscient,
            stop_at: args.ply,
            boards: args.boards,
            style,
            expected: Some((line, path)),
            show,
            located,
        });
    }
    let seed = args.seed.ok_or_else(|| {
        Error::arg(
            "--seed",
            "give a deal seed with --red and --black, or a results folder",
        )
    })?;
    let red = crate::plan::engine("--red", args.red.as_deref().unwrap_or_default())?;
    let black = crate::plan::engine("--black", args.black.as_deref().unwrap_or_default())?;
    if args.max_plies == 0 {
        return Err(Error::arg("--max-plies", "must be at least 1"));
    }
    let rules = rules_arg::resolve(&args.rules.rules)?;
    for e in [&red, &black] {
        e.check_rules(&rules)
            .map_err(|why| Error::arg("--rules", why))?;
    }
    Ok(ReplayPlan {
        rules,
        red,
        black,
        deal_seed: seed,
        opening: None,
        limits: crate::plan::limits(&args.limits)?,
        tc: None,
        timemargin: std::time::Duration::ZERO,
        move_timeout: None,
        max_plies: args.max_plies,
        adjudication: crate::records::adjudication::Adjudication::default(),
        omniscient: ByColor {
            red: false,
            black: false,
        },
        stop_at: args.ply,
        boards: args.boards,
        style,
        expected: None,
        show: None,
        located: None,
    })
}
