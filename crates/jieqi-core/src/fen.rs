//! FEN with hidden pieces: the Pikafish 5-field form, the JieqiBox 6-field form, JieqiBox's
//! legacy 7-field form, and plain Xiangqi FENs.
//!
//! Fields: `board [side [pool [captured] halfmove fullmove]]`.
//! - board: ranks 9 down to 0 separated by `/`, files a–i, digits for empty squares, piece letters
//!   `RNBAKCP` (Red) / `rnbakcp` (Black), `X`/`x` for a hidden Red/Black piece.
//! - side: `w` (or `r`) Red, `b` Black. Missing: Red.
//! - pool: identities not yet seen, letter + count in any order (`R2A2…r2a2…`); a letter without a
//!   count means 1; `-` is empty. Missing: inferred as each side's material minus its face-up pieces.
//! - captured (6-field JieqiBox form only): hidden pieces the side to move captured and knows, same
//!   syntax as the pool.
//! - halfmove (plies since a capture) and fullmove counters. Missing: 0 and 1.
//!
//! With four fields the fourth is the halfmove counter if it is a number, else the captured field.
//!
//! JieqiBox's legacy form (its setting "new FEN format" off) puts the pool before the side, with
//! chess's castling and en-passant fields: `board pool side - - halfmove fullmove`, or `board pool
//! side` alone. It is recognised as JieqiBox recognises it: the second field is not `w` or `b`
//! and the third is. It has no captured field.

use crate::{ByColor, Color, Occupant, Pool, Position, PositionError, Role, Rules, Setup, Square};

/// A FEN that cannot be read, or that reads into an illegal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// A field is malformed; the message names the field and the character.
    Syntax {
        /// 1-based field number.
        field: usize,
        /// Field name (`board`, `side`, `pool`, `captured`, `halfmove`, `fullmove`).
        name: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The FEN reads but the position it describes is illegal.
    Position(PositionError),
}

impl core::fmt::Display for FenError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FenError::Syntax {
                field,
                name,
                message,
            } => {
                write!(f, "fen field {field} ({name}): {message}")
            }
            FenError::Position(e) => write!(f, "fen describes an illegal position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

fn syntax(field: usize, name: &'static str, message: String) -> FenError {
    FenError::Syntax {
        field,
        name,
        message,
    }
}

/// Parses a FEN into a [`Setup`] without checking that the position is legal.
///
/// # Errors
/// Names the field and character that are wrong.
pub fn parse(fen: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(syntax(1, "board", "the fen is empty".into()));
    }
    if fields.len() >= 3 && !matches!(fields[1], "w" | "b") && matches!(fields[2], "w" | "b") {
        return parse_legacy(&fields);
    }
    if fields.len() > 6 {
        return Err(syntax(
            7,
            "end",
            format!("{} fields; at most 6 are allowed", fields.len()),
        ));
    }
    let mut setup = Setup::empty();
    parse_board(fields[0], &mut setup)?;
    if let Some(side) = fields.get(1) {
        setup.turn = parse_side(side, 2)?;
    }
    if let Some(pool) = fields.get(2) {
        setup.pools = Some(parse_pool(pool, 3, "pool")?);
    }
    let (captured, counters): (Option<&str>, &[&str]) = match fields.len() {
        4 if fields[3].parse::<u32>().is_err() => (Some(fields[3]), &[]),
        6 => (Some(fields[3]), &fields[4..]),
        n if n >= 4 => (None, &fields[3..]),
        _ => (None, &[]),
    };
    if let Some(c) = captured {
        setup.captured_hidden = Some(parse_pool(c, 4, "captured")?);
    }
    let first_counter = if captured.is_some() { 5 } else { 4 };
    if let Some(h) = counters.first() {
        setup.halfmoves = h.parse().map_err(|_| {
            syntax(
                first_counter,
                "halfmove",
                format!("'{h}' is not a non-negative number"),
            )
        })?;
    }
    if let Some(fm) = counters.get(1) {
        setup.fullmoves = fm.parse().map_err(|_| {
            syntax(
                first_counter + 1,
                "fullmove",
                format!("'{fm}' is not a non-negative number"),
            )
        })?;
    }
    Ok(setup)
}

/// JieqiBox's legacy form: `board pool side - - halfmove fullmove` or `board pool side`.
fn parse_legacy(fields: &[&str]) -> Result<Setup, FenError> {
    if fields.len() != 3 && fields.len() != 7 {
        return Err(syntax(
            fields.len().min(7),
            "end",
            format!(
                "{} fields in JieqiBox's legacy form (pool before side); it has 3 \
                 (board pool side) or 7 (board pool side - - halfmove fullmove)",
                fields.len()
            ),
        ));
    }
    let mut setup = Setup::empty();
    parse_board(fields[0], &mut setup)?;
    setup.pools = Some(parse_pool(fields[1], 2, "pool")?);
    setup.turn = parse_side(fields[2], 3)?;
    if fields.len() == 7 {
        for (i, name) in [(3, "castling"), (4, "en passant")] {
            if fields[i] != "-" {
                return Err(syntax(
                    i + 1,
                    name,
                    format!("'{}' where the legacy form has '-'", fields[i]),
                ));
            }
        }
        setup.halfmoves = parse_counter(fields[5], 6, "halfmove")?;
        setup.fullmoves = parse_counter(fields[6], 7, "fullmove")?;
    }
    Ok(setup)
}

fn parse_side(side: &str, field: usize) -> Result<Color, FenError> {
    match side {
        "w" | "r" | "W" | "R" => Ok(Color::Red),
        "b" | "B" => Ok(Color::Black),
        other => Err(syntax(
            field,
            "side",
            format!("'{other}' is not w (or r) for Red or b for Black"),
        )),
    }
}

fn parse_counter(text: &str, field: usize, name: &'static str) -> Result<u32, FenError> {
    text.parse().map_err(|_| {
        syntax(
            field,
            name,
            format!("'{text}' is not a non-negative number"),
        )
    })
}

fn parse_board(board: &str, setup: &mut Setup) -> Result<(), FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 10 {
        return Err(syntax(
            1,
            "board",
            format!("{} ranks separated by '/'; a board has 10", ranks.len()),
        ));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 9 - i as i32;
        let mut file = 0i32;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 {
                    return Err(syntax(
                        1,
                        "board",
                        format!("rank {rank}: '0' is not an empty-square count"),
                    ));
                }
                file += d as i32;
            } else {
                let occ = Occupant::from_char(ch).ok_or_else(|| {
                    syntax(
                        1,
                        "board",
                        format!(
                            "rank {rank}: '{ch}' is not a piece letter (RNBAKCP, X for hidden)"
                        ),
                    )
                })?;
                if file >= 9 {
                    return Err(syntax(
                        1,
                        "board",
                        format!("rank {rank} has more than 9 files"),
                    ));
                }
                setup.set(
                    Square::from_coords(file, rank).expect("on board"),
                    Some(occ),
                );
                file += 1;
            }
            if file > 9 {
                return Err(syntax(
                    1,
                    "board",
                    format!("rank {rank} has more than 9 files"),
                ));
            }
        }
        if file != 9 {
            return Err(syntax(
                1,
                "board",
                format!("rank {rank} has {file} files; it needs 9"),
            ));
        }
    }
    Ok(())
}

fn parse_pool(text: &str, field: usize, name: &'static str) -> Result<ByColor<Pool>, FenError> {
    let mut pools = ByColor {
        red: Pool::EMPTY,
        black: Pool::EMPTY,
    };
    if text == "-" {
        return Ok(pools);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        let role = Role::from_char(ch)
            .filter(|_| ch.is_ascii_alphabetic())
            .ok_or_else(|| {
                syntax(
                    field,
                    name,
                    format!("'{ch}' at position {} is not a piece letter", i + 1),
                )
            })?;
        let color = if ch.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        i += 1;
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let count: u32 = if i == start {
            1
        } else {
            let digits: String = chars[start..i].iter().collect();
            digits.parse().map_err(|_| {
                syntax(
                    field,
                    name,
                    format!("count '{digits}' after '{ch}' is too large"),
                )
            })?
        };
        let slot = &mut pools[color].0[role.index()];
        let total = u32::from(*slot).saturating_add(count);
        if total > role.start_count() as u32 {
            return Err(syntax(
                field,
                name,
                format!(
                    "{total} × '{ch}' is more than the {} a side has",
                    role.start_count()
                ),
            ));
        }
        *slot = total as u8;
    }
    Ok(pools)
}

/// The board field.
pub fn board_field(setup: &Setup) -> String {
    let mut s = String::with_capacity(100);
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            match setup.get(Square::from_coords(file, rank).expect("on board")) {
                None => empty += 1,
                Some(o) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(o.char());
                }
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// The pool field: `R2A2C2P5N2B2r2a2c2p5n2b2` order (Pikafish's), kings last, `-` when empty.
pub fn pool_field(pools: &ByColor<Pool>) -> String {
    const ORDER: [Role; 7] = [
        Role::Chariot,
        Role::Advisor,
        Role::Cannon,
        Role::Pawn,
        Role::Horse,
        Role::Elephant,
        Role::King,
    ];
    pool_text(
        pools,
        Color::ALL
            .into_iter()
            .flat_map(|c| ORDER.into_iter().map(move |r| (c, r))),
    )
}

/// A pool field with the (colour, role) counts in the given order: letter then count, Red's
/// letters upper case, `-` when empty.
fn pool_text(pools: &ByColor<Pool>, order: impl Iterator<Item = (Color, Role)>) -> String {
    let mut s = String::new();
    for (c, r) in order {
        let n = pools[c].get(r);
        if n > 0 {
            s.push(if c == Color::Red {
                r.upper_char()
            } else {
                r.char()
            });
            s.push_str(&n.to_string());
        }
    }
    if s.is_empty() { "-".into() } else { s }
}

/// Writes a setup: the Pikafish 5-field form, or the JieqiBox 6-field form when
/// `setup.captured_hidden` is set. A missing pool is written as `-`.
pub fn write(setup: &Setup) -> String {
    let pools = setup.pools.unwrap_or_default();
    let mut s = format!(
        "{} {} {}",
        board_field(setup),
        setup.turn.fen_char(),
        pool_field(&pools)
    );
    if let Some(c) = &setup.captured_hidden {
        s.push(' ');
        s.push_str(&pool_field(c));
    }
    s.push_str(&format!(" {} {}", setup.halfmoves, setup.fullmoves));
    s
}

/// A pool field in JieqiBox's order (its `generateFen`): role by role `R N B A K C P`, Red's
/// letter before Black's (`R2r2N2n2B2b2A2a2C2c2P5p5`), `-` when empty.
pub fn jieqibox_pool_field(pools: &ByColor<Pool>) -> String {
    // JieqiBox's role order is the index order `R N B A K C P`.
    pool_text(
        pools,
        Role::ALL
            .into_iter()
            .flat_map(|r| Color::ALL.into_iter().map(move |c| (c, r))),
    )
}

/// Writes a setup as JieqiBox writes a position (its `generateFen` with the default "new FEN
/// format"): always six fields, `board side pool captured halfmove fullmove`, the pool and the
/// captured field in [`jieqibox_pool_field`]'s order, a missing pool or captured field as `-`.
pub fn write_jieqibox(setup: &Setup) -> String {
    format!(
        "{} {} {} {} {} {}",
        board_field(setup),
        setup.turn.fen_char(),
        jieqibox_pool_field(&setup.pools.unwrap_or_default()),
        jieqibox_pool_field(&setup.captured_hidden.unwrap_or_default()),
        setup.halfmoves,
        setup.fullmoves
    )
}

impl Position {
    /// Reads a FEN under a rule set.
    ///
    /// # Errors
    /// A syntax error names the field; an illegal position says what is wrong.
    pub fn from_fen(fen: &str, rules: &Rules) -> Result<Position, FenError> {
        Ok(Position::from_setup(&parse(fen)?, rules)?)
    }

    /// The FEN: the Pikafish 5-field form, or the plain Xiangqi form `board side - - half full` under
    /// rules without hidden pieces.
    pub fn fen(&self) -> String {
        let mut setup = self.to_setup();
        if !self.rules.has_hidden() {
            setup.captured_hidden = Some(ByColor::default());
        }
        write(&setup)
    }
}
