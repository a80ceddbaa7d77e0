//! Opening books: the positions a run's games start from (`--openings`), how pair `p` picks
//! one, and how the hidden pieces of a Jieqi opening get their identities.
//!
//! **An opening is public.** A book position is a FEN every player may see: the board, the side
//! to move, each side's pool (the identities nobody has seen: those of its hidden pieces and of
//! its captured hidden pieces whose identity was never shown) and the move counters. A
//! JieqiBox captured-hidden field (what one side alone knows) is refused.
//!
//! **Which opening a pair plays** ([`Book::for_pair`]): the book in file order, shuffled once
//! with the run's master seed when `order=random` (Fisher–Yates over
//! [`jieqi_core::uniform_below`] on a ChaCha20 stream of `mix(seed, BOOK_STREAM)`), then pair
//! `p` takes entry `(start − 1 + p) mod N` — fastchess's rotation by `start`, each opening played
//! by the two games of one pair, colours swapped. Every pairing of a run plays pair `p` from the
//! same opening, as it plays it on the same deal.
//!
//! **The deal of an opening** ([`start_game`]): the identities of the opening's hidden pieces are
//! drawn from its pools by [`jieqi_core::View::sample`] on a ChaCha20 stream seeded with the
//! pair's deal seed — uniform over every assignment the public position allows; identities left
//! over are captured hidden pieces that stay unknown to both players. Both games of a pair share
//! it. Like [`crate::records::deal_seed::deal_for_seed`], this mapping is a file format: a
//! recorded game names its opening and deal seed, and replays from them.
//!
//! The book's content hash (SHA-256 of its positions as [`Book::text`] writes them) goes into
//! the run's fingerprint and record, and the run's folder keeps a copy (`openings.epd`), so a
//! resume, a shard or a merge plays and checks the same book.

use std::path::Path;

use jieqi_core::{Color, Game, Occupant, Position, Rules, Square, View};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::records::DealText;
use crate::records::formats::{FormatError, epd};

/// The built-in Xiangqi book (`file=builtin:xiangqi`), `configs/books/xiangqi.epd` as this
/// arena was built with it: the default of runs under rules without hidden pieces.
pub const BUILTIN_XIANGQI: &str = include_str!("../../../../configs/books/xiangqi.epd");

/// The file a run's folder keeps its book in ([`Book::text`]).
pub const FOLDER_COPY: &str = "openings.epd";

/// The largest book file read: 256 MiB.
pub const MAX_BOOK_BYTES: u64 = 256 << 20;

/// The most positions a book may hold.
pub const MAX_BOOK_POSITIONS: usize = 2_000_000;

/// The stream the `order=random` shuffle draws from: `mix(seed, BOOK_STREAM)`, apart from every
/// pair's deal seed `mix(seed, p)` for the pairs a run may play.
const BOOK_STREAM: u64 = u64::MAX - 0x6f70_656e;

/// How a book file is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookFormat {
    /// One FEN a line (EPD operations after it are ignored).
    Epd,
    /// PGN games: each game's position after its first `plies` plies.
    Pgn,
    /// JieqiBox game JSON (one game, or an array of games).
    Jieqibox,
}

impl BookFormat {
    /// `epd`, `pgn` or `jieqibox`.
    pub fn name(self) -> &'static str {
        match self {
            BookFormat::Epd => "epd",
            BookFormat::Pgn => "pgn",
            BookFormat::Jieqibox => "jieqibox",
        }
    }
}

/// In which order pairs take the book's positions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookOrder {
    /// File order.
    Sequential,
    /// Shuffled once with the run's master seed.
    Random,
}

impl BookOrder {
    /// `sequential` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            BookOrder::Sequential => "sequential",
            BookOrder::Random => "random",
        }
    }
}

/// What `--openings` asked for, as the run's record keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BookSpec {
    /// The file as given (`builtin:xiangqi` for the book built into the arena).
    pub file: String,
    /// Its format.
    pub format: BookFormat,
    /// The order pairs take the positions in.
    pub order: BookOrder,
    /// PGN and JieqiBox: the plies of each game played into the opening (`None`: all of them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<u32>,
    /// The 1-based position pair 0 takes (in the order).
    pub start: u64,
}

impl std::fmt::Display for BookSpec {
    /// `file=F format=epd order=random start=1` (and `plies=N`), as the flag takes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "file={} format={} order={}",
            self.file,
            self.format.name(),
            self.order.name()
        )?;
        if let Some(p) = self.plies {
            write!(f, " plies={p}")?;
        }
        write!(f, " start={}", self.start)
    }
}

/// What a run's record says of its book: how it was asked for, how many positions, their hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BookRecord {
    /// `--openings`.
    #[serde(flatten)]
    pub spec: BookSpec,
    /// Positions in the book.
    pub positions: usize,
    /// SHA-256 of [`Book::text`], hex.
    pub sha256: String,
}

/// A book read and arranged for one run: its positions, and the order the run's pairs take them.
#[derive(Clone, Debug)]
pub struct Book {
    /// How it was asked for.
    pub spec: BookSpec,
    /// The positions, in file order.
    positions: Vec<Position>,
    /// Their FENs, in file order.
    fens: Vec<String>,
    /// Indices into `positions` in the order pairs take them (before the rotation by `start`).
    order: Vec<u32>,
    sha256: String,
}

impl Book {
    /// A book of `positions` (in file order), arranged for a run of master seed `seed`.
    ///
    /// # Errors
    /// No positions, too many, or `start` is 0.
    pub fn new(spec: BookSpec, positions: Vec<Position>, seed: u64) -> Result<Book, FormatError> {
        if positions.is_empty() {
            return Err(format!("{}: the book holds no position", spec.file).into());
        }
        if positions.len() > MAX_BOOK_POSITIONS {
            return Err(format!("{}: more than {MAX_BOOK_POSITIONS} positions", spec.file).into());
        }
        if spec.start == 0 {
            return Err("start: counts from 1 (the book's first position)".into());
        }
        let fens: Vec<String> = positions.iter().map(Position::fen).collect();
        let mut order: Vec<u32> = (0..positions.len() as u32).collect();
        if spec.order == BookOrder::Random {
            let mut rng = ChaCha20Rng::seed_from_u64(jieqi_engine::mix(seed, BOOK_STREAM));
            for i in (1..order.len()).rev() {
                let j = jieqi_core::uniform_below(&mut rng, i as u32 + 1) as usize;
                order.swap(i, j);
            }
        }
        let sha256 = sha256_hex(&text_of(&fens));
        Ok(Book {
            spec,
            positions,
            fens,
            order,
            sha256,
        })
    }

    /// The positions, in file order.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The position pair `p` starts from.
    pub fn for_pair(&self, p: u64) -> &Position {
        &self.positions[self.index_for_pair(p)]
    }

    /// The FEN of the position pair `p` starts from (as [`Position::fen`] writes it).
    pub fn fen_for_pair(&self, p: u64) -> &str {
        &self.fens[self.index_for_pair(p)]
    }

    /// The file-order index of the position pair `p` starts from.
    pub fn index_for_pair(&self, p: u64) -> usize {
        let n = self.order.len() as u64;
        let k = (self.spec.start - 1).wrapping_add(p) % n;
        self.order[k as usize] as usize
    }

    /// The book as a file: one FEN a line, in file order (what the run's folder keeps, and
    /// what the hash is of).
    pub fn text(&self) -> String {
        text_of(&self.fens)
    }

    /// How many distinct positions the book holds.
    pub fn distinct(&self) -> usize {
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
        self.fens.iter().filter(|f| seen.insert(f.as_str())).count()
    }

    /// What the run's record keeps of it.
    pub fn record(&self) -> BookRecord {
        BookRecord {
            spec: self.spec.clone(),
            positions: self.positions.len(),
            sha256: self.sha256.clone(),
        }
    }
}

fn text_of(fens: &[String]) -> String {
    let mut s = String::with_capacity(fens.len() * 80);
    for f in fens {
        s.push_str(f);
        s.push('\n');
    }
    s
}

fn sha256_hex(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Checks a book position: legal under `rules` (the caller parsed it), public (no
/// captured-hidden field), and not over (the side to move has a legal move).
///
/// # Errors
/// What is wrong with it.
pub fn check_opening(setup: &jieqi_core::Setup, rules: &Rules) -> Result<Position, FormatError> {
    if setup
        .captured_hidden
        .is_some_and(|c| Color::ALL.iter().any(|&o| c[o].total() > 0))
    {
        return Err(
            "it has a captured-hidden field: an opening is public, and that field is what one \
             side alone knows (give the pools, with captured identities nobody saw still in them)"
                .into(),
        );
    }
    let pos = Position::from_setup(setup, rules).map_err(|e| e.to_string())?;
    if jieqi_core::classify(&pos, false, &[], rules.repetition_count).is_some()
        || pos.legal_moves().is_empty()
    {
        return Err("the game is over in this position".into());
    }
    Ok(pos)
}

/// Parses an EPD book's text under `rules`: one FEN a line (plain Xiangqi, Pikafish 5-field or
/// JieqiBox 6-field; EPD operations after it are ignored), blank lines and lines starting with
/// `#` or `;` skipped. `file` names the book in messages.
///
/// # Errors
/// The first line that is no opening, with its number and why.
pub fn parse_epd(text: &str, rules: &Rules, file: &str) -> Result<Vec<Position>, FormatError> {
    let mut out = Vec::new();
    for (number, line) in epd::position_lines(text) {
        let at = |m: FormatError| format!("{file}:{number}: {m}");
        let setup = fen_prefix(line).map_err(at)?;
        out.push(check_opening(&setup, rules).map_err(at)?);
        if out.len() > MAX_BOOK_POSITIONS {
            return Err(format!("{file}: more than {MAX_BOOK_POSITIONS} positions").into());
        }
    }
    Ok(out)
}

/// The FEN at the start of an EPD line: the longest prefix of at most six fields
/// ([`epd::fen_prefixes`]) that parses and is followed by nothing, or by EPD operations
/// ([`are_operations`]; they are ignored). A field that does not parse is never taken for an
/// operation: `… z - - 0 1` is refused, not read as the board alone.
fn fen_prefix(line: &str) -> Result<jieqi_core::Setup, FormatError> {
    let mut first_error = None;
    for (_, fen, rest) in epd::fen_prefixes(line) {
        match jieqi_core::fen::parse(fen) {
            Ok(s) if are_operations(rest) => return Ok(s),
            Ok(_) => {
                if first_error.is_none() {
                    let rest = rest.split_whitespace().collect::<Vec<_>>().join(" ");
                    first_error = Some(format!(
                        "'{}' after its FEN is no EPD operation (an opcode, its operands and ';')",
                        crate::util::text::echo(&rest)
                    ));
                }
            }
            Err(e) => {
                if first_error.is_none() {
                    first_error = Some(e.to_string());
                }
            }
        }
    }
    Err(format!(
        "not a FEN: {}",
        first_error.unwrap_or_else(|| "empty".into())
    )
    .into())
}

/// Whether `text` is EPD operations as a book line may end: nothing, or operations each ended
/// by `;` ([`epd::operations`] reads them). A suite's last operation may do without its `;`; a
/// book's may not, so that FEN fields that do not parse are never read as operations.
fn are_operations(text: &str) -> bool {
    let text = text.trim();
    text.is_empty() || (text.ends_with(';') && epd::operations(text).is_ok())
}

/// Reads an EPD book file (at most [`MAX_BOOK_BYTES`]).
///
/// # Errors
/// The file cannot be read, or a line is no opening.
pub fn read_epd(path: &Path, rules: &Rules) -> Result<Vec<Position>, FormatError> {
    let text = crate::records::files::read_bounded(path, MAX_BOOK_BYTES).map_err(|source| {
        FormatError::Read {
            path: path.to_path_buf(),
            source,
        }
    })?;
    parse_epd(&text, rules, &path.display().to_string())
}

/// Keeps `book` in the results folder `dir` ([`FOLDER_COPY`]), for a resume, a shard's merge
/// and every reader of the folder; nothing without a book. Written before the run's record.
///
/// # Errors
/// Writing fails.
pub fn keep_copy(dir: &Path, book: Option<&Book>) -> std::io::Result<()> {
    let Some(book) = book else {
        return Ok(());
    };
    let path = dir.join(FOLDER_COPY);
    let text = book.text();
    // A resume finds the copy it wrote: nothing to do.
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == text.len() as u64)
        && crate::records::files::read_bounded(&path, MAX_BOOK_BYTES).is_ok_and(|t| t == text)
    {
        return Ok(());
    }
    crate::records::files::write_atomically(&path, text.as_bytes())
}

/// The game of pair seed `seed` under `rules`: from the rules' start on the seed's deal
/// (`opening` `None`), or from `opening` with its hidden pieces drawn from its pools with the
/// seed (see the module's text).
pub fn start_game(seed: u64, rules: &Rules, opening: Option<&Position>) -> Game {
    match opening {
        None => Game::new(
            *rules,
            crate::records::deal_seed::deal_for_seed(seed, rules),
        ),
        Some(pos) => {
            let view = View::from_setup(&pos.to_setup(), rules)
                .expect("a book position is a legal position of its rules");
            let truth = view.sample(&mut ChaCha20Rng::seed_from_u64(seed));
            Game::from_opening(truth)
        }
    }
}

/// An opening's FEN (as a record keeps it) read under `rules` and checked as a book position.
///
/// # Errors
/// The FEN does not parse, or is no opening ([`check_opening`]).
pub fn parse_opening(fen: &str, rules: &Rules) -> Result<Position, FormatError> {
    let setup = jieqi_core::fen::parse(fen).map_err(|e| e.to_string())?;
    check_opening(&setup, rules)
}

/// The game a recorded line starts from: its opening (if any) read under `rules`, and its seed.
///
/// # Errors
/// The line's opening is no FEN of a legal, public position under `rules`.
pub fn start_of_line(line: &crate::records::GameLine, rules: &Rules) -> Result<Game, FormatError> {
    match &line.opening {
        None => Ok(start_game(line.seed, rules, None)),
        Some(fen) => {
            let pos = parse_opening(fen, rules).map_err(|e| format!("its opening '{fen}': {e}"))?;
            Ok(start_game(line.seed, rules, Some(&pos)))
        }
    }
}

/// The public position of `game` (what both players saw): its public start and every move
/// with its reveal, a captured hidden piece's identity left in its owner's pool. What a book
/// records as the opening a game reached.
///
/// # Panics
/// Never for a game the referee played (its moves fit the public board).
pub fn public_position(game: &Game) -> Position {
    let mut public = game
        .public_start()
        .cloned()
        .unwrap_or_else(|| Position::start(game.rules()));
    for record in game.records() {
        let seen = jieqi_core::PlayedMove {
            capture: None,
            ..record.played
        };
        public
            .play(seen)
            .expect("a referee's move fits the public board");
    }
    public
}

/// The deal as records write it: for a game from the rules' start, `Deal::side_string` of
/// its deal; for a game from an opening, the identities of its hidden pieces in square order
/// (`a0`, `b0`, … `i9`).
pub fn deal_text(game: &Game) -> DealText {
    if let Some(deal) = game.deal() {
        return DealText {
            red: deal.side_string(Color::Red),
            black: deal.side_string(Color::Black),
        };
    }
    let side = |color: Color| -> String {
        let start = game.start();
        Square::all()
            .filter(|&sq| start.position().occupant(sq) == Some(Occupant::Hidden(color)))
            .filter_map(|sq| start.identity(sq))
            .map(|role| jieqi_core::Piece { color, role }.char())
            .collect()
    };
    DealText {
        red: side(Color::Red),
        black: side(Color::Black),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JIEQI: &str = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w \
                         R2A2C2P5N2B2r2a2c2p5n2b2 0 1";

    fn spec(order: BookOrder, start: u64) -> BookSpec {
        BookSpec {
            file: "t.epd".into(),
            format: BookFormat::Epd,
            order,
            plies: None,
            start,
        }
    }

    fn xiangqi_book(n: usize) -> Vec<Position> {
        // Distinct positions: the start with Red's a-file chariot walked up k squares.
        let rules = Rules::xiangqi();
        (0..n)
            .map(|k| {
                let mut pos = Position::start(&rules);
                for _ in 0..k.min(2) {
                    let mv = pos.legal_moves()[k];
                    let pm = jieqi_core::PlayedMove {
                        mv,
                        reveal: None,
                        capture: None,
                    };
                    pos.play(pm).unwrap();
                }
                pos
            })
            .collect()
    }

    #[test]
    fn pairs_take_positions_in_order_rotated_by_start() {
        let positions = xiangqi_book(3);
        let book = Book::new(spec(BookOrder::Sequential, 2), positions.clone(), 7).unwrap();
        let taken: Vec<usize> = (0..5).map(|p| book.index_for_pair(p)).collect();
        assert_eq!(taken, [1, 2, 0, 1, 2]);
        assert_eq!(book.for_pair(2).fen(), positions[0].fen());
        assert!(Book::new(spec(BookOrder::Sequential, 0), positions, 7).is_err());
    }

    #[test]
    fn a_random_order_is_a_shuffle_fixed_by_the_seed() {
        let positions: Vec<Position> = (0..40).map(|_| xiangqi_book(1)[0].clone()).collect();
        let order = |seed| {
            let b = Book::new(spec(BookOrder::Random, 1), positions.clone(), seed).unwrap();
            (0..40).map(|p| b.index_for_pair(p)).collect::<Vec<_>>()
        };
        let a = order(1);
        assert_eq!(a, order(1));
        assert_ne!(a, order(2));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..40).collect::<Vec<_>>(), "every position once");
        assert_ne!(a, (0..40).collect::<Vec<_>>());
    }

    #[test]
    fn the_hash_is_of_the_positions() {
        let a = Book::new(spec(BookOrder::Sequential, 1), xiangqi_book(3), 1).unwrap();
        let b = Book::new(spec(BookOrder::Random, 1), xiangqi_book(3), 9).unwrap();
        let c = Book::new(spec(BookOrder::Sequential, 1), xiangqi_book(2), 1).unwrap();
        assert_eq!(a.record().sha256, b.record().sha256);
        assert_ne!(a.record().sha256, c.record().sha256);
        assert_eq!(a.text().lines().count(), 3);
        let back = parse_epd(&a.text(), &Rules::xiangqi(), "copy").unwrap();
        assert_eq!(back, a.positions());
    }

    #[test]
    fn epd_lines_are_checked_and_named() {
        let rules = Rules::standard();
        let ok = parse_epd(
            &format!("# comment\n\n{JIEQI} ; id \"a\"; c0 \"x\";\n; another comment\n"),
            &rules,
            "b.epd",
        )
        .unwrap();
        assert_eq!(ok.len(), 1);
        let err = parse_epd(&format!("{JIEQI}\nxx w - 0 1\n"), &rules, "b.epd")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("b.epd:2: "), "{err}");
        // A Xiangqi position is no Jieqi position under Jieqi rules' hidden-piece checks, and
        // a Jieqi FEN is none under Xiangqi rules.
        assert!(parse_epd(JIEQI, &Rules::xiangqi(), "b.epd").is_err());
    }

    /// Pins the opening → deal mapping: if this changes, every recorded game from an opening
    /// starts from other identities.
    #[test]
    fn an_openings_deal_is_what_it_always_was() {
        let rules = Rules::standard();
        let pos = Position::from_fen(JIEQI, &rules).unwrap();
        let game = start_game(7, &rules, Some(&pos));
        let deal = deal_text(&game);
        assert_eq!(deal.red.len(), 15);
        assert_eq!(deal.black.len(), 15);
        assert_eq!(deal_text(&start_game(7, &rules, Some(&pos))), deal);
        assert_ne!(deal_text(&start_game(8, &rules, Some(&pos))), deal);
        assert_eq!(
            format!("{} {}", deal.red, deal.black),
            "PPPBBCNPRCAAPRN aabnrprpbpncppc"
        );
    }

    /// A position whose pools hold more identities than hidden pieces: the extra ones are
    /// captured pieces nobody saw, unknown to both players, and the views see the book's pools.
    #[test]
    fn captured_identities_nobody_saw_stay_unknown() {
        let rules = Rules::standard();
        // Red's a0 hidden piece is gone (captured unseen): 14 hidden, a pool of 15.
        let fen = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/1XXXKXXXX b \
                   R2A2C2P5N2B2r2a2c2p5n2b2 0 1";
        let pos = Position::from_fen(fen, &rules).unwrap();
        let game = start_game(3, &rules, Some(&pos));
        assert_eq!(deal_text(&game).red.len(), 14);
        for c in Color::ALL {
            let view = game.view(c);
            assert_eq!(view.position().pools(), pos.pools(), "{c}");
            assert_eq!(view.start_position().map(Position::fen), Some(pos.fen()));
            assert_eq!(view.unknown_captured(Color::Red), 1);
        }
        assert_eq!(public_position(&game).fen(), pos.fen());
    }
}
