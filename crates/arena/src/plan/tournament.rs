//! `arena tournament`'s plan: the engines, the pairings (a round robin, a gauntlet or a config's
//! list, which must connect every engine), the anchor and the bootstrap; and its config file
//! (`--config`, [`TournamentConfig`]), which `arena leak --config` reads too.

use serde::Deserialize;

use crate::cli::run::RunArgs;
use crate::cli::tournament::TournamentArgs;
use crate::engines::EngineEntry;
use crate::error::Error;
use crate::plan::run::{engine_list, recorded_run, resamples_arg, run_setup};
use crate::run::RunSetup;
use crate::run::kind::{self, Mode, RunKind, TournamentOptions};

/// A tournament config file (`--config`, e.g. configs/nightly.json). Every key but `engines` is
/// optional; a flag given on the command line wins over the file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfig {
    /// Engines, as `--engine` takes them (specs or engine files, paths relative to the current
    /// folder).
    pub engines: Vec<String>,
    /// A gauntlet of this engine (label) against the others.
    pub gauntlet: Option<String>,
    /// Only these pairings, `[A, B]` by label (A has Red in game 1 of each pair).
    pub pairings: Option<Vec<[String; 2]>>,
    /// Pairs per pairing.
    pub pairs: Option<u64>,
    /// Master seed.
    pub seed: Option<u64>,
    /// Rule set: a preset or a rules file.
    pub rules: Option<String>,
    /// Adjudication cap.
    pub max_plies: Option<u32>,
    /// `--openings`, its words in one string (`"file=book.epd order=random"`).
    pub openings: Option<String>,
    /// `--resign`, its words in one string (`"movecount=3 score=600"`).
    pub resign: Option<String>,
    /// `--draw`, its words in one string (`"movenumber=40 movecount=8 score=10"`).
    pub draw: Option<String>,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
    /// Milliseconds per move.
    pub movetime_ms: Option<u64>,
    /// A clock, `SECONDS[+INC]` or `MOVES/SECONDS[+INC]`.
    pub tc: Option<String>,
    /// Clock margin in milliseconds.
    pub timemargin_ms: Option<u64>,
    /// Hard limit of one move in milliseconds.
    pub move_timeout_ms: Option<u64>,
    /// `LABEL=ELO`.
    pub anchor: Option<String>,
    /// Bootstrap resamples, 100 to 100000 ([`crate::plan::run::resamples_arg`]).
    pub bootstrap: Option<usize>,
    /// The information-leak measurement of the nightly report (`arena leak --config`), which
    /// `arena tournament` itself does not play.
    pub leak: Option<LeakConfig>,
}

/// The `leak` section of a tournament config: which of its engines `arena leak --config`
/// measures, against which, on how many pairs.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeakConfig {
    /// Labels of the config's engines to measure.
    pub engines: Vec<String>,
    /// The label of the fair opponent (one of the config's engines) [default: each engine's own
    /// fair self].
    pub opponent: Option<String>,
    /// Pairs per arm [default: the config's pairs].
    pub pairs: Option<u64>,
}

/// The largest config file read.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The flag errors of a config's `leak` section name.
const LEAK_FLAG: &str = "--config: leak";

impl LeakConfig {
    /// The engines the section measures and its opponent, picked by label from `all` (the
    /// engines of the config at `path`), and checked as `arena leak` checks its engines
    /// ([`check_leak`]) and its pairs. Both commands that read a config call it, so a section
    /// `arena leak --config` would refuse is refused by `arena tournament --config` too.
    ///
    /// # Errors
    /// A label no engine has, pairs out of range, or what [`check_leak`] refuses.
    pub fn pick(
        &self,
        all: &[EngineEntry],
        path: &std::path::Path,
    ) -> Result<(Vec<EngineEntry>, Option<EngineEntry>), Error> {
        let pick = |label: &str| {
            all.iter()
                .find(|e| e.label == label)
                .cloned()
                .ok_or_else(|| {
                    let labels: Vec<&str> = all.iter().map(|e| e.label.as_str()).collect();
                    Error::arg(
                        LEAK_FLAG,
                        format!(
                            "no engine of {} is labelled '{}' (they are {})",
                            path.display(),
                            crate::util::text::echo(label),
                            labels.join(", ")
                        ),
                    )
                })
        };
        let engines = self
            .engines
            .iter()
            .map(|l| pick(l))
            .collect::<Result<Vec<_>, _>>()?;
        let opponent = self.opponent.as_deref().map(pick).transpose()?;
        if let Some(pairs) = self.pairs {
            if pairs == 0 || pairs > crate::plan::run::MAX_PAIRS {
                return Err(Error::arg(
                    "--config: leak.pairs",
                    format!(
                        "{pairs} is not from 1 to {} pairs",
                        crate::plan::run::MAX_PAIRS
                    ),
                ));
            }
        }
        check_leak(&engines, opponent.as_ref(), LEAK_FLAG, LEAK_FLAG)?;
        Ok((engines, opponent))
    }
}

/// `arena leak`'s checks of the engines it measures and of their opponent, wherever they come
/// from (flags `flag` and `opponent_flag`): one engine or more, none an external process
/// (which cannot play omniscient), none twice, and an opponent labelled unlike each of them and
/// their omniscient copies.
///
/// # Errors
/// The first check that fails.
pub fn check_leak(
    engines: &[EngineEntry],
    opponent: Option<&EngineEntry>,
    flag: &'static str,
    opponent_flag: &'static str,
) -> Result<(), Error> {
    if engines.is_empty() {
        return Err(Error::arg(
            flag,
            "give an engine to measure (--engine SPEC, one or more)",
        ));
    }
    for (i, e) in engines.iter().enumerate() {
        if e.external {
            return Err(Error::arg(
                flag,
                format!(
                    "engine '{}' is an external process: it only ever gets its side's \
                     information over UCI, so it cannot play omniscient (it can be the \
                     --opponent)",
                    e.label
                ),
            ));
        }
        if engines[..i].iter().any(|x| x.label == e.label) {
            return Err(Error::arg(flag, format!("'{}' is given twice", e.label)));
        }
    }
    if let Some(o) = opponent {
        if let Some(e) = engines
            .iter()
            .find(|e| e.label == o.label || kind::omniscient_label(&e.label) == o.label)
        {
            return Err(Error::arg(
                opponent_flag,
                format!(
                    "the opponent is labelled '{}' like engine '{}': leave out --opponent to \
                     measure an engine against its own fair self, or give the opponent a \
                     name=LABEL",
                    o.label, e.label
                ),
            ));
        }
    }
    Ok(())
}

impl TournamentConfig {
    /// Reads a config file.
    ///
    /// # Errors
    /// A message naming the file, and the line, column and key of a bad value.
    pub fn load(path: &std::path::Path) -> Result<TournamentConfig, String> {
        let name = path.display();
        let text = crate::records::files::read_bounded(path, MAX_CONFIG_BYTES)
            .map_err(|e| format!("{name}: cannot read: {e}"))?;
        // A UTF-8 byte order mark is dropped by `read_bounded`.
        serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))
    }
}

/// The largest anchor rating, in absolute value.
pub const MAX_ANCHOR_ELO: f64 = 100_000.0;

/// Reads `LABEL=ELO`.
///
/// # Errors
/// A message saying what is wrong.
pub fn parse_anchor(s: &str) -> Result<(String, f64), String> {
    let (label, elo) = s.rsplit_once('=').ok_or_else(|| {
        format!(
            "'{}' is not LABEL=ELO, e.g. greedy=0",
            crate::util::text::echo(s)
        )
    })?;
    let elo: f64 = elo
        .trim()
        .parse()
        .ok()
        .filter(|x: &f64| x.abs() <= MAX_ANCHOR_ELO)
        .ok_or_else(|| {
            format!(
                "'{}': '{}' is not a number between -{MAX_ANCHOR_ELO} and {MAX_ANCHOR_ELO}",
                crate::util::text::echo(s),
                crate::util::text::echo(elo)
            )
        })?;
    Ok((label.to_string(), elo))
}

/// Validates `arena tournament` arguments; `given` as in [`crate::plan::Plan::from_cli`]: a
/// flag given on the command line wins over the config file's value.
///
/// # Errors
/// A bad flag, engine, config, pairing, anchor or `--resume`.
pub fn plan(mut args: TournamentArgs, given: &dyn Fn(&str) -> bool) -> Result<RunSetup, Error> {
    if args.engines.is_empty() && args.config.is_none() && args.run.resume {
        return recorded_run("tournament", &args.run, args.pairs, given);
    }
    let mut listed: Option<Vec<[String; 2]>> = None;
    let mut leak: Option<LeakConfig> = None;
    let mut bootstrap_from_config = false;
    if let Some(path) = &args.config {
        if !args.engines.is_empty() {
            return Err(Error::arg(
                "--engine",
                "the engines come from --config; give them in one place",
            ));
        }
        let c = TournamentConfig::load(path).map_err(|m| Error::arg("--config", m))?;
        // The file fills what the command line did not give.
        let fill = |id: &str| !given(id);
        if !given("gauntlet") {
            args.gauntlet = args.gauntlet.or(c.gauntlet.clone());
        }
        if fill("pairs") {
            args.pairs = args.pairs.or(c.pairs);
        }
        if fill("anchor") {
            args.anchor = args.anchor.or(c.anchor.clone());
        }
        if fill("bootstrap") && c.bootstrap.is_some() {
            args.bootstrap = c.bootstrap;
            bootstrap_from_config = true;
        }
        fill_run(&mut args.run, &c, given);
        listed = c.pairings;
        leak = c.leak;
        args.engines = c.engines;
    }
    if args.engines.len() < 2 {
        return Err(Error::arg(
            "--engine",
            format!(
                "a tournament needs two engines or more (got {}); give --engine for each, or \
                 --config",
                args.engines.len()
            ),
        ));
    }
    let engines = engine_list(&args.engines)?;
    // The `leak` section is not played here, but checked as `arena leak --config` checks it.
    if let (Some(leak), Some(path)) = (&leak, &args.config) {
        leak.pick(&engines, path)?;
    }
    let slot = |label: &str, flag: &'static str| {
        engines
            .iter()
            .position(|e| e.label == label)
            .ok_or_else(|| {
                let labels: Vec<&str> = engines.iter().map(|e| e.label.as_str()).collect();
                Error::arg(
                    flag,
                    format!(
                        "no engine is labelled '{}' (the engines are {})",
                        crate::util::text::echo(label),
                        labels.join(", ")
                    ),
                )
            })
    };
    let (mode, pairings) = match (&args.gauntlet, &listed) {
        (Some(_), Some(_)) => {
            return Err(Error::arg(
                "--gauntlet",
                "a config listing its pairings cannot also be a gauntlet",
            ));
        }
        (Some(g), None) => (
            Mode::Gauntlet,
            kind::gauntlet(engines.len(), slot(g, "--gauntlet")?),
        ),
        (None, Some(list)) => {
            let mut pairings = Vec::new();
            for [a, b] in list {
                let p = (
                    slot(a, "--config: pairings")?,
                    slot(b, "--config: pairings")?,
                );
                if p.0 == p.1 {
                    return Err(Error::arg(
                        "--config: pairings",
                        format!("[{a}, {b}] pairs an engine with itself"),
                    ));
                }
                if pairings.iter().any(|&(x, y)| (x, y) == p || (y, x) == p) {
                    return Err(Error::arg(
                        "--config: pairings",
                        format!("[{a}, {b}] is listed twice (in either order)"),
                    ));
                }
                pairings.push(p);
            }
            if pairings.is_empty() {
                return Err(Error::arg("--config: pairings", "the list is empty"));
            }
            check_connected(&engines, &pairings)?;
            (Mode::Listed, pairings)
        }
        (None, None) => (Mode::RoundRobin, kind::round_robin(engines.len())),
    };
    let (anchor, anchor_elo) = match &args.anchor {
        Some(a) => {
            let (label, elo) = parse_anchor(a).map_err(|m| Error::arg("--anchor", m))?;
            slot(&label, "--anchor")?;
            (label, elo)
        }
        None => (engines[0].label.clone(), 0.0),
    };
    let resamples = resamples_arg(args.bootstrap, bootstrap_from_config)?;
    let pairs = args.pairs.unwrap_or(100);
    let mut setup = run_setup(engines, pairings, args.run, pairs, "--pairs", "tournament")?;
    setup.spec.kind = RunKind::Tournament(TournamentOptions {
        mode,
        anchor,
        anchor_elo,
        resamples,
        series: args
            .config
            .as_deref()
            .and_then(|c| c.file_stem())
            .map(|s| s.to_string_lossy().to_string()),
    });
    Ok(setup)
}

/// Listed pairings must use every engine and connect them all: engines in groups that never
/// meet have no ratings relative to each other.
fn check_connected(engines: &[EngineEntry], pairings: &[(usize, usize)]) -> Result<(), Error> {
    let n = engines.len();
    if let Some(idle) = (0..n).find(|&i| !pairings.iter().any(|&(a, b)| a == i || b == i)) {
        return Err(Error::arg(
            "--config: pairings",
            format!(
                "engine '{}' plays in no pairing: drop it from engines, or pair it",
                engines[idle].label
            ),
        ));
    }
    let mut group: Vec<usize> = (0..n).collect();
    fn root(group: &mut [usize], mut i: usize) -> usize {
        while group[i] != i {
            group[i] = group[group[i]];
            i = group[i];
        }
        i
    }
    for &(a, b) in pairings {
        let (ra, rb) = (root(&mut group, a), root(&mut group, b));
        group[ra] = rb;
    }
    let first = root(&mut group, 0);
    if let Some(apart) = (0..n).find(|&i| root(&mut group, i) != first) {
        return Err(Error::arg(
            "--config: pairings",
            format!(
                "'{}' and '{}' are in groups of engines that never meet, so they cannot be \
                 rated on one scale: add a pairing between the groups",
                engines[0].label, engines[apart].label
            ),
        ));
    }
    Ok(())
}

/// Fills the run flags the command line did not give from a tournament config: seed, rules,
/// adjudication cap, openings, resign and draw adjudication, limits (as a group: a limit on the command line replaces all of the file's),
/// clock margin and move timeout.
pub fn fill_run(run: &mut RunArgs, c: &TournamentConfig, given: &dyn Fn(&str) -> bool) {
    let fill = |id: &str| !given(id);
    if let (true, Some(v)) = (fill("seed"), c.seed) {
        run.seed = v;
    }
    if let (true, Some(v)) = (fill("rules"), &c.rules) {
        run.game.rules.rules = v.clone();
    }
    if let (true, Some(v)) = (fill("max_plies"), c.max_plies) {
        run.game.max_plies = v;
    }
    let words = |v: &str| v.split_whitespace().map(String::from).collect::<Vec<_>>();
    if let (true, Some(v)) = (fill("openings"), &c.openings) {
        run.game.openings = words(v);
    }
    if let (true, Some(v)) = (fill("resign"), &c.resign) {
        run.game.resign = words(v);
    }
    if let (true, Some(v)) = (fill("draw"), &c.draw) {
        run.game.draw = words(v);
    }
    if fill("nodes") && fill("depth") && fill("movetime") && fill("tc") {
        run.game.limits.nodes = c.nodes;
        run.game.limits.depth = c.depth;
        run.game.limits.movetime = c.movetime_ms;
        run.game.tc = c.tc.clone();
    }
    if let (true, Some(v)) = (fill("timemargin"), c.timemargin_ms) {
        run.game.timemargin = v;
    }
    if fill("move_timeout") {
        run.game.move_timeout = run.game.move_timeout.or(c.move_timeout_ms);
    }
}
