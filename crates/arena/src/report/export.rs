//! What `arena export` says when it is done: how many games it wrote where, and what it did
//! with the games the run did not count.

use std::path::Path;

/// What export's summary says of the games the run did not count: how many were left out
/// (`left_out`, without `--beyond-stop`), or how many were written marked (`marked`, each with
/// `mark`); `stop` says where the run stopped counting. Empty when there were none.
pub fn uncounted_text(left_out: u64, marked: u64, stop: &str, mark: &str) -> String {
    let games = |n: u64| format!("{n} game{}", if n == 1 { "" } else { "s" });
    if left_out > 0 {
        format!(
            "{} left out that the run did not count ({stop}): --beyond-stop exports them, marked \
             {mark}",
            games(left_out),
        )
    } else if marked > 0 {
        format!("{marked} of them not counted by the run ({stop}), marked {mark}")
    } else {
        String::new()
    }
}

/// `N games written to PATH`, then `; ` and `uncounted` ([`uncounted_text`]) when it says
/// anything.
pub fn written_line(games: usize, path: &Path, uncounted: &str) -> String {
    let mut line = format!(
        "{games} game{} written to {}",
        if games == 1 { "" } else { "s" },
        path.display()
    );
    if !uncounted.is_empty() {
        line.push_str("; ");
        line.push_str(uncounted);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uncounted_games_are_said_left_out_or_marked() {
        assert_eq!(uncounted_text(0, 0, "x", "m"), "");
        assert_eq!(
            uncounted_text(
                1,
                0,
                "the gate stopped after 3 pairs",
                "[Counted \"false\"]"
            ),
            "1 game left out that the run did not count (the gate stopped after 3 pairs): \
             --beyond-stop exports them, marked [Counted \"false\"]"
        );
        assert_eq!(
            uncounted_text(0, 2, "s", "m"),
            "2 of them not counted by the run (s), marked m"
        );
        assert_eq!(
            written_line(1, Path::new("g.pgn"), ""),
            "1 game written to g.pgn"
        );
        assert_eq!(
            written_line(3, Path::new("d"), "u"),
            "3 games written to d; u"
        );
    }
}
