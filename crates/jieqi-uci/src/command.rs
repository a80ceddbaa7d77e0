//! The commands a GUI sends, parsed from one line each (the Pikafish dialect of UCI).
//!
//! Parsing is strict about what it recognises and says what is wrong; the session answers a bad
//! line with an `info string` and carries on.

use std::time::Duration;

/// The longest command line read, in bytes: a longer one is refused whole (a `position` with a
/// hundred thousand moves is shorter).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The most characters of a GUI's input quoted back in an `info string`.
pub const MAX_ECHO_CHARS: usize = 200;

/// Input text as an `info string` quotes it back: control characters escaped (`\u{1b}`, `\0`),
/// and past [`MAX_ECHO_CHARS`] characters cut, with the input's length in bytes (`… (5000000
/// bytes)`), so that a line of megabytes is never echoed whole.
pub fn quoted(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MAX_ECHO_CHARS {
            out.push_str(&format!("… ({} bytes)", text.len()));
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`: answer `readyok` (at once, even during a search).
    IsReady,
    /// `ucinewgame`: the next position is from a new game.
    NewGame,
    /// `setoption name NAME [value VALUE]` (names and values may contain spaces).
    SetOption {
        /// Option name as written.
        name: String,
        /// Value, if any (`None` for a button).
        value: Option<String>,
    },
    /// `position startpos|fen FEN [moves M…]`.
    Position {
        /// The FEN, or `None` for the start position.
        fen: Option<String>,
        /// Moves after it, with their reveal / capture suffixes.
        moves: Vec<String>,
    },
    /// `go …`.
    Go(Go),
    /// A `go` line that does not parse (an unknown argument, a number out of range, `go perft`
    /// without a depth): the session says why and still answers a `bestmove`, since a GUI waits
    /// for one.
    RefusedGo(String),
    /// `go perft N`.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit`: the move a `go ponder` search assumed was played; its limits now apply.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: print the board.
    Display,
}

/// The limits of a `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `depth D`.
    pub depth: Option<u32>,
    /// `movetime MS`.
    pub movetime: Option<Duration>,
    /// `wtime` / `btime`: time left on Red's / Black's clock.
    pub time: [Option<Duration>; 2],
    /// `winc` / `binc`: increments.
    pub inc: [Option<Duration>; 2],
    /// `movestogo N`.
    pub movestogo: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search on the opponent's time, with no time limit and no answer until `stop` or
    /// `ponderhit` (after which the other limits apply, the time ones counted from it).
    pub ponder: bool,
    /// `searchmoves M…` (the rest of the line): the moves the answer must be one of, as written;
    /// the session drops those that are not legal.
    pub searchmoves: Vec<String>,
}

/// Parses one line. `Ok(None)` for an empty line.
///
/// # Errors
/// An unknown command or a malformed argument, described for an `info string`.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let mut words = line.split_whitespace();
    let Some(head) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let cmd = match head {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::NewGame,
        "setoption" => set_option(&rest)?,
        "position" => position(&rest)?,
        // A malformed `go perft` too: a GUI (or Stockfish, which then searches) cannot tell
        // from the word `perft` alone that no `bestmove` will come.
        "go" => go(&rest).unwrap_or_else(Command::RefusedGo),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        _ => return Err(format!("unknown command '{}'", quoted(head))),
    };
    Ok(Some(cmd))
}

fn set_option(rest: &[&str]) -> Result<Command, String> {
    if rest.first() != Some(&"name") {
        return Err("setoption refused: expected 'setoption name NAME [value VALUE]'".into());
    }
    let value_at = rest.iter().position(|w| *w == "value");
    let name_words = &rest[1..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err("setoption refused: the option name is missing".into());
    }
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value: value_at.map(|i| rest[i + 1..].join(" ")),
    })
}

fn position(rest: &[&str]) -> Result<Command, String> {
    let moves_at = rest.iter().position(|w| *w == "moves");
    let before = &rest[..moves_at.unwrap_or(rest.len())];
    let moves = moves_at
        .map(|i| rest[i + 1..].iter().map(|m| m.to_string()).collect())
        .unwrap_or_default();
    let fen = match before.split_first() {
        Some((&"startpos", [])) => None,
        Some((&"startpos", extra)) => {
            return Err(format!(
                "position: unexpected '{}' after startpos",
                quoted(&extra.join(" "))
            ));
        }
        Some((&"fen", [])) => return Err("position: 'fen' without a FEN".into()),
        Some((&"fen", fields)) => Some(fields.join(" ")),
        _ => return Err("position: expected 'startpos' or 'fen FEN'".into()),
    };
    Ok(Command::Position { fen, moves })
}

fn number<T: std::str::FromStr>(key: &str, word: Option<&&str>) -> Result<T, String> {
    let word = word.ok_or_else(|| format!("go: '{key}' needs a number"))?;
    word.parse()
        .map_err(|_| format!("go: '{key} {}' is not a valid number", quoted(word)))
}

fn millis(key: &str, word: Option<&&str>) -> Result<Duration, String> {
    // GUIs may send a negative clock when a player is out of time: treat it as zero.
    let ms: i64 = number(key, word)?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

fn go(rest: &[&str]) -> Result<Command, String> {
    let mut g = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let arg = rest.get(i + 1);
        let mut takes_arg = true;
        match key {
            "perft" => return Ok(Command::Perft(number(key, arg)?)),
            "nodes" => g.nodes = Some(number(key, arg)?),
            "depth" => g.depth = Some(number(key, arg)?),
            "movetime" => g.movetime = Some(millis(key, arg)?),
            "wtime" => g.time[0] = Some(millis(key, arg)?),
            "btime" => g.time[1] = Some(millis(key, arg)?),
            "winc" => g.inc[0] = Some(millis(key, arg)?),
            "binc" => g.inc[1] = Some(millis(key, arg)?),
            "movestogo" => g.movestogo = Some(number(key, arg)?),
            "infinite" => {
                g.infinite = true;
                takes_arg = false;
            }
            "ponder" => {
                g.ponder = true;
                takes_arg = false;
            }
            // Accepted and ignored: we do not search for mates.
            "mate" => {}
            // As in Stockfish, every word after it is a move.
            "searchmoves" => {
                g.searchmoves = rest[i + 1..].iter().map(|m| m.to_string()).collect();
                break;
            }
            _ => return Err(format!("go: unknown argument '{}'", quoted(key))),
        }
        i += if takes_arg { 2 } else { 1 };
    }
    Ok(Command::Go(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse("  ").unwrap(), None);
        assert_eq!(parse("uci").unwrap(), Some(Command::Uci));
        assert_eq!(
            parse("setoption name UCI_Variant value jieqi").unwrap(),
            Some(Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some("jieqi".into())
            })
        );
        assert_eq!(
            parse("setoption name Engine Options value star2=true, depth=3").unwrap(),
            Some(Command::SetOption {
                name: "Engine Options".into(),
                value: Some("star2=true, depth=3".into())
            })
        );
        assert_eq!(
            parse("position startpos moves b0c2N h9g7").unwrap(),
            Some(Command::Position {
                fen: None,
                moves: vec!["b0c2N".into(), "h9g7".into()]
            })
        );
        let fen = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1";
        assert_eq!(
            parse(&format!("position fen {fen}")).unwrap(),
            Some(Command::Position {
                fen: Some(fen.into()),
                moves: vec![]
            })
        );
        let Some(Command::Go(g)) = parse("go wtime 60000 btime -5 winc 1000 binc 1000").unwrap()
        else {
            panic!("a go command");
        };
        assert_eq!(
            g.time,
            [Some(Duration::from_secs(60)), Some(Duration::ZERO)]
        );
        assert_eq!(g.inc[1], Some(Duration::from_secs(1)));
        assert_eq!(parse("go perft 3").unwrap(), Some(Command::Perft(3)));
        assert!(
            parse("go infinite").unwrap()
                == Some(Command::Go(Go {
                    infinite: true,
                    ..Go::default()
                }))
        );
    }

    #[test]
    fn searchmoves_and_refused_go_lines() {
        let Some(Command::Go(g)) = parse("go infinite searchmoves h2e2 b0c2N").unwrap() else {
            panic!("a go command");
        };
        assert!(g.infinite);
        assert_eq!(g.searchmoves, ["h2e2", "b0c2N"]);
        for (line, says) in [
            ("go depth x", "'depth x' is not a valid number"),
            ("go sideways 3", "unknown argument 'sideways'"),
            ("go nodes", "'nodes' needs a number"),
            ("go perft abc", "'perft abc' is not a valid number"),
            ("go perft", "'perft' needs a number"),
            (
                "go movetime 18446744073709551615",
                "'movetime 18446744073709551615' is not a valid number",
            ),
        ] {
            match parse(line).unwrap() {
                Some(Command::RefusedGo(e)) => assert!(e.contains(says), "{line}: {e}"),
                other => panic!("{line}: {other:?}"),
            }
        }
    }

    #[test]
    fn malformed_lines_are_explained() {
        for (line, says) in [
            ("fly", "unknown command 'fly'"),
            ("position", "expected 'startpos' or 'fen FEN'"),
            ("position fen", "'fen' without a FEN"),
            ("position startpos b0c2", "unexpected 'b0c2'"),
            ("setoption value 3", "expected 'setoption name"),
        ] {
            let e = parse(line).unwrap_err();
            assert!(e.contains(says), "{line}: {e}");
        }
    }
}
