//! What every format shares once its text is read: a game's [`Parsed`] fields played through
//! ([`build`]: on the public board, then on the true deal, the seed's deal or a completion), its
//! start ([`start_of`]) and result ([`result_of`]).

use jieqi_core::{
    ByColor, Color, Deal, Determinization, Game, PlayedMove, Position, Role, Rules, Square,
};

use crate::analysis::StudyGame;
use crate::records::deal_seed::deal_for_seed;
use crate::records::formats::FormatError;
use crate::records::{GameResult, PlyInfo};

/// The identities given to each side's hidden start squares.
type Assignment = ByColor<Vec<(Square, Role)>>;

/// What a file says of one game, before it is played through.
pub(super) struct Parsed {
    pub(super) title: String,
    pub(super) rules: Rules,
    pub(super) start: Position,
    /// The move texts (`h2h9Rn`).
    pub(super) moves: Vec<String>,
    pub(super) recorded: Vec<Option<PlyInfo>>,
    pub(super) red: String,
    pub(super) black: String,
    /// `None`: the file gives no result (`*`).
    pub(super) result: Option<GameResult>,
    /// The field the result came from, for messages (`tag Result`, `metadata.result`).
    pub(super) result_field: &'static str,
    pub(super) ending: Option<String>,
    pub(super) number: Option<u64>,
    pub(super) seed: Option<u64>,
    /// A deal the file states (a PGN's `Deal` tag), and the field it came from.
    pub(super) deal: Option<(Deal, &'static str)>,
}

/// How the moves disagree with a deal, or why they cannot be played on it.
enum Replay {
    /// Ply `.0` (0-based) names an identity the deal does not have there.
    Differs(usize, String),
    /// The game was over before ply `.0`.
    Over(usize, String),
}

/// Plays `played` on `game`, checking every reveal, and every captured identity the text names,
/// against the referee's record.
fn replay(game: &mut Game, played: &[PlayedMove]) -> Result<(), Replay> {
    for (i, pm) in played.iter().enumerate() {
        let mover = game.turn();
        let record = match game.play(pm.mv) {
            Ok(r) => *r,
            Err(e) => return Err(Replay::Over(i, e.to_string())),
        };
        if record.played.reveal != pm.reveal {
            return Err(Replay::Differs(
                i,
                format!(
                    "it reveals {} on {}, where the deal has {}",
                    pm.reveal.map_or("nothing", Role::name),
                    pm.mv.from,
                    record.played.reveal.map_or("nothing hidden", Role::name)
                ),
            ));
        }
        if let Some(r) = pm.capture
            && !(record.captured_hidden && record.captured.is_some_and(|p| p.role == r))
        {
            return Err(Replay::Differs(
                i,
                format!(
                    "it captures a hidden {} on {}, where the deal has {}",
                    r.name(),
                    pm.mv.to,
                    record
                        .captured
                        .filter(|_| record.captured_hidden)
                        .map_or("no hidden piece", |p| p.role.name())
                ),
            ));
        }
        debug_assert_eq!(record.mover, mover);
    }
    Ok(())
}

/// The game before any move: the deal's, or the completion's (see the module's text).
fn start_game(
    rules: &Rules,
    start: &Position,
    standard: bool,
    assignment: &Assignment,
) -> Result<Game, FormatError> {
    if standard {
        if !rules.has_hidden() {
            return Ok(Game::new(*rules, Deal::unshuffled(rules)));
        }
        let side = |c: Color| -> String {
            assignment[c]
                .iter()
                .map(|(_, r)| {
                    if c == Color::Red {
                        r.upper_char()
                    } else {
                        r.char()
                    }
                })
                .collect()
        };
        let deal = Deal::from_strings(&side(Color::Red), &side(Color::Black))
            .map_err(|e| format!("the identities the moves name do not make a deal: {e}"))?;
        return Ok(Game::new(*rules, deal));
    }
    let all = assignment.red.iter().chain(&assignment.black).copied();
    Determinization::new(start.clone(), all)
        .map(Game::from_determinization)
        .map_err(|e| {
            format!("the start position's hidden pieces cannot be given identities: {e}").into()
        })
}

/// The completion of a game without a known truth: each identity the game showed (`known`) at
/// its start square, the other hidden squares given the pool's identities left in the order of
/// [`Role::ALL`] (in deal order for the rules' start); and how many squares the game did not show.
fn completion(
    p: &Parsed,
    standard: bool,
    known: &[(Square, Role)],
) -> Result<(Assignment, usize), FormatError> {
    let mut left = *p.start.pools();
    let mut assignment = ByColor::<Vec<(Square, Role)>>::default();
    let mut unknown = 0usize;
    for color in Color::ALL {
        let squares: Vec<Square> = if !p.rules.has_hidden() {
            Vec::new()
        } else if standard {
            Deal::squares(color, p.rules.hidden_king).collect()
        } else {
            p.start.hidden_squares(color).collect()
        };
        for &(sq, role) in known.iter().filter(|(sq, _)| squares.contains(sq)) {
            let n = &mut left[color].0[role.index()];
            *n = n.saturating_sub(1);
            assignment[color].push((sq, role));
        }
        for sq in squares {
            if known.iter().any(|(k, _)| *k == sq) {
                continue;
            }
            let role = Role::ALL
                .into_iter()
                .find(|r| left[color].get(*r) > 0)
                .ok_or_else(|| {
                    format!(
                        "the start position has more hidden {} pieces than its pool has \
                         identities",
                        color.name()
                    )
                })?;
            left[color].0[role.index()] -= 1;
            assignment[color].push((sq, role));
            unknown += 1;
        }
        if standard {
            // The deal's order: the order of its squares.
            let order: Vec<Square> = Deal::squares(color, p.rules.hidden_king).collect();
            assignment[color].sort_by_key(|(sq, _)| order.iter().position(|s| s == sq));
        }
    }
    Ok((assignment, unknown))
}

/// Plays a parsed game through: its moves on the public board first (legality, and the
/// identities they name against the pools), then on the true deal, the seed's deal or a
/// completion. `at(i)` names ply `i` (0-based) and its field in messages.
pub(super) fn build(p: Parsed, at: &dyn Fn(usize) -> String) -> Result<StudyGame, FormatError> {
    let standard = p.start.fen() == Position::start(&p.rules).fen();
    // The public board: every move legal, every named identity possible.
    let mut public = p.start.clone();
    let mut played = Vec::with_capacity(p.moves.len());
    let mut known: Vec<(Square, Role)> = Vec::new();
    for (i, text) in p.moves.iter().enumerate() {
        let pm =
            PlayedMove::from_text(text, public.turn()).map_err(|e| format!("{}: {e}", at(i)))?;
        let hidden_from = public.is_hidden(pm.mv.from);
        let hidden_to = pm.mv.from != pm.mv.to && public.is_hidden(pm.mv.to);
        public
            .play(pm)
            .map_err(|e| format!("{}: '{text}' cannot be played here: {e}", at(i)))?;
        if let (true, Some(r)) = (hidden_from, pm.reveal) {
            known.push((pm.mv.from, r));
        }
        if let (true, Some(r)) = (hidden_to, pm.capture) {
            known.push((pm.mv.to, r));
        }
        played.push(pm);
    }
    let over =
        |i: usize, why: String| format!("{}: the game was over before this move ({why})", at(i));

    // The truth the file states, or the seed's deal when the moves agree with it.
    let mut seed = p.seed;
    let mut truth = None;
    if let Some((deal, field)) = &p.deal {
        if !standard {
            return Err(format!(
                "{field}: a deal is of the rules' start position, and the game starts elsewhere"
            )
            .into());
        }
        if deal.hidden_king() != p.rules.hidden_king {
            return Err(format!("{field}: the deal does not fit the rules").into());
        }
        // A seed beside the deal must be the deal's, or the wrong seed would be recorded.
        if let Some(s) = seed
            && deal_for_seed(s, &p.rules) != *deal
        {
            return Err(format!(
                "tag Seed: seed {s} deals another deal than the {field} gives (leave one out, or \
                 make them agree)"
            )
            .into());
        }
        let mut game = Game::new(p.rules, deal.clone());
        let start = game.clone();
        match replay(&mut game, &played) {
            Ok(()) => truth = Some((start, game)),
            Err(Replay::Over(i, why)) => return Err(over(i, why).into()),
            Err(Replay::Differs(i, why)) => {
                return Err(format!("{}: {why} ({field})", at(i)).into());
            }
        }
    } else if let Some(s) = seed.filter(|_| p.rules.has_hidden()) {
        // A game from an opening deals its hidden pieces from its seed too.
        let mut game = if standard {
            Game::new(p.rules, deal_for_seed(s, &p.rules))
        } else {
            crate::records::openings::start_game(s, &p.rules, Some(&p.start))
        };
        let start = game.clone();
        match replay(&mut game, &played) {
            Ok(()) => truth = Some((start, game)),
            Err(_) => seed = None,
        }
    }
    let (start, end, truth_known) = match truth {
        Some((start, end)) => (start, end, true),
        None => {
            // The completion: what the game showed at its start squares, the rest from the pool.
            let (assignment, unknown) = completion(&p, standard, &known)?;
            let start = start_game(&p.rules, &p.start, standard, &assignment)?;
            let mut end = start.clone();
            match replay(&mut end, &played) {
                Ok(()) => {}
                Err(Replay::Over(i, why)) => return Err(over(i, why).into()),
                // The completion has every identity the moves name where they name it.
                Err(Replay::Differs(i, why)) => {
                    return Err(
                        format!("{}: {why} (a bug: the completion disagrees)", at(i)).into(),
                    );
                }
            }
            (start, end, unknown == 0)
        }
    };
    let outcome = end.outcome();
    if let (Some(o), Some(given)) = (outcome, p.result) {
        let by_rules = GameResult::of(o.winner);
        if given != by_rules {
            return Err(format!(
                "{}: {}, but the final position is {} by the rules: {}",
                p.result_field,
                given.text(),
                o.reason.name(),
                by_rules.text()
            )
            .into());
        }
    }
    let result = match p.result {
        Some(r) => r,
        None => outcome.map_or(GameResult::Draw, |o| GameResult::of(o.winner)),
    };
    let ending = match (p.ending, outcome, p.result) {
        (Some(e), _, _) => e,
        (None, Some(o), _) => o.reason.name().to_string(),
        (None, None, None) => "unfinished (the file gives the result *)".to_string(),
        (None, None, Some(_)) => "not given".to_string(),
    };
    let mut recorded = p.recorded;
    recorded.truncate(played.len());
    Ok(StudyGame {
        title: p.title,
        start,
        truth_known,
        moves: played.iter().map(|pm| pm.mv).collect(),
        red: p.red,
        black: p.black,
        result,
        ending,
        recorded,
        seed,
        number: p.number,
    })
}

/// The rules a variant name means: a `UCI_Variant` name (`jieqi`, `xiangqi`, `simple`) or a rule
/// preset's name (`standard`).
fn rules_of_variant(name: &str) -> Option<Rules> {
    jieqi_registry::rules_of_uci_variant(name).or_else(|| Rules::preset(name))
}

/// The start position of a FEN under the rules a variant names (or, without a variant, the
/// `default` rules if given, else Jieqi's rules when the FEN has hidden pieces and Xiangqi's
/// when it has none); the rules' start without a FEN.
pub(super) fn start_of(
    variant: Option<&str>,
    fen: Option<&str>,
    variant_field: &str,
    fen_field: &str,
    default: Option<&Rules>,
) -> Result<(Rules, Position), FormatError> {
    let rules = match variant {
        None if default.is_some() => *default.expect("checked"),
        Some(v) => rules_of_variant(v).ok_or_else(|| {
            format!(
                "{variant_field}: '{v}' is no variant the arena plays (jieqi, xiangqi, simple, or \
                 the preset standard)"
            )
        })?,
        None => {
            let board = fen.and_then(|f| f.split_whitespace().next()).unwrap_or("x");
            if board.contains(['x', 'X']) {
                Rules::standard()
            } else {
                Rules::xiangqi()
            }
        }
    };
    let start = match fen {
        Some(f) => Position::from_fen(f, &rules).map_err(|e| format!("{fen_field}: {e}"))?,
        None => Position::start(&rules),
    };
    Ok((rules, start))
}

/// A result as PGN and JieqiBox write it; `None` for `*`.
pub(super) fn result_of(text: &str, field: &str) -> Result<Option<GameResult>, FormatError> {
    match text {
        "1-0" => Ok(Some(GameResult::RedWins)),
        "0-1" => Ok(Some(GameResult::BlackWins)),
        "1/2-1/2" => Ok(Some(GameResult::Draw)),
        "*" => Ok(None),
        other => Err(format!("{field}: '{other}' is no result (1-0, 0-1, 1/2-1/2 or *)").into()),
    }
}
