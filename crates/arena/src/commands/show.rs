//! `arena show`: a position as a person reads it, and with `--seed` the deal and the truth.

use std::io::{self, Write};

use jieqi_core::{Color, Deal, Piece, Pool, Position};

use crate::error::Error;
use crate::plan::show::{SeededDeal, ShowPlan};
use crate::report::board_text::{position_board, truth_board};

/// A pool as `R2 N2 B2 A2 C2 P5 (15)`: letter and count per role present (uppercase for Red),
/// then the total; `- (0)` when empty.
pub fn pool_text(pool: &Pool, color: Color) -> String {
    // Role order, as the deal string spells the back rank: R N B A K C P.
    let parts: Vec<String> = pool
        .roles()
        .map(|role| format!("{}{}", Piece { color, role }.char(), pool.get(role)))
        .collect();
    let list = if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(" ")
    };
    format!("{list} ({})", pool.total())
}

/// One side of a deal: its side string, then each square with the identity dealt to it, e.g.
/// `RNBAABNRCCPPPPP  a0=R b0=N …`.
pub fn deal_side_text(deal: &Deal, color: Color) -> String {
    let squares: Vec<String> = deal
        .assignments(color)
        .map(|(sq, role)| {
            let letter = match color {
                Color::Red => role.upper_char(),
                Color::Black => role.char(),
            };
            format!("{sq}={letter}")
        })
        .collect();
    format!("{}  {}", deal.side_string(color), squares.join(" "))
}

/// Writes the facts below a board: rules, side to move, pools, FEN and check.
///
/// # Errors
/// Writing fails.
pub fn write_facts(w: &mut impl Write, pos: &Position) -> io::Result<()> {
    writeln!(w, "rules: {}", pos.rules().name)?;
    writeln!(w, "side to move: {}", pos.turn())?;
    for c in Color::ALL {
        let label = format!("{c} pool:");
        writeln!(w, "{label:<12}{}", pool_text(pos.pool(c), c))?;
    }
    writeln!(w, "fen: {}", pos.fen())?;
    let check = if !pos.rules().check {
        "no (these rules have no check)"
    } else if pos.in_check() {
        "yes"
    } else {
        "no"
    };
    writeln!(w, "in check: {check}")
}

/// Writes the seeded deal and the truth board.
fn write_seeded(w: &mut impl Write, plan: &ShowPlan, seeded: &SeededDeal) -> io::Result<()> {
    writeln!(w)?;
    writeln!(w, "deal for seed {} (referee only):", seeded.seed)?;
    for c in Color::ALL {
        let label = c.to_string();
        writeln!(w, "  {label:<6} {}", deal_side_text(&seeded.deal, c))?;
    }
    writeln!(w, "  deal string: {}", seeded.deal)?;
    writeln!(w)?;
    writeln!(
        w,
        "truth (referee only): every hidden piece drawn as its dealt identity"
    )?;
    write!(w, "{}", truth_board(&seeded.truth, plan.style, None))
}

/// Runs `arena show`.
///
/// # Errors
/// Writing the output fails ([`Error::Output`]).
pub fn run(plan: &ShowPlan, w: &mut impl Write) -> Result<(), Error> {
    print(plan, w).map_err(Error::Output)
}

/// Writes the board, its facts and the seeded deal.
fn print(plan: &ShowPlan, w: &mut impl Write) -> io::Result<()> {
    write!(w, "{}", position_board(&plan.position, plan.style, None))?;
    writeln!(w)?;
    write_facts(w, &plan.position)?;
    if let Some(seeded) = &plan.seeded {
        write_seeded(w, plan, seeded)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::Rules;

    #[test]
    fn pool_texts() {
        assert_eq!(
            pool_text(&Pool::STANDARD, Color::Red),
            "R2 N2 B2 A2 C2 P5 (15)"
        );
        assert_eq!(
            pool_text(&Pool::FULL, Color::Black),
            "r2 n2 b2 a2 k1 c2 p5 (16)"
        );
        assert_eq!(pool_text(&Pool::EMPTY, Color::Red), "- (0)");
    }

    #[test]
    fn unshuffled_deal_text() {
        let deal = Deal::unshuffled(&Rules::standard());
        assert_eq!(
            deal_side_text(&deal, Color::Red),
            "RNBAABNRCCPPPPP  a0=R b0=N c0=B d0=A f0=A g0=B h0=N i0=R b2=C h2=C \
             a3=P c3=P e3=P g3=P i3=P"
        );
        assert!(deal_side_text(&deal, Color::Black).starts_with("rnbaabnrccppppp  a9=r b9=n"));
    }
}
