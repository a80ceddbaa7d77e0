//! What the arena prints of its input: engine specs quoted as typed; control characters and
//! bidi controls escaped in errors and tables, never raw; huge input quoted cut short; labels
//! with bidi controls refused.

use crate::common::{match_args, ok, refused, s, tmp};

/// `greedy:noise` reads back as `greedy:greedy=noise`; the error quotes what was typed.
#[test]
fn engine_spec_errors_quote_what_was_typed() {
    let e = refused(&[
        "match",
        "--engine",
        "greedy:noise",
        "--engine",
        "random",
        "--check",
    ]);
    assert!(e.contains("engine spec 'greedy:noise': "), "{e}");
    assert!(!e.contains("greedy=noise"), "{e}");
    let e = refused(&[
        "match",
        "--engine",
        "greedy: noise=x ",
        "--engine",
        "random",
        "--check",
    ]);
    assert!(e.contains("engine spec 'greedy: noise=x ': "), "{e}");
}

/// A label with ESC is refused, and the refusal shows the ESC escaped.
#[test]
fn an_escape_in_a_label_is_not_echoed_raw() {
    let e = refused(&[
        "match",
        "--engine",
        "greedy:name=red\u{1b}[2J",
        "--engine",
        "random",
        "--check",
    ]);
    assert!(!e.contains('\u{1b}'), "{e:?}");
    assert!(e.contains("red\\u{1b}[2J"), "{e}");
    // Whatever quotes it: a flag's value.
    let e = refused(&[
        "match",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--omniscient",
        "x\u{7}\u{202e}",
        "--check",
    ]);
    assert!(!e.contains('\u{7}') && !e.contains('\u{202e}'), "{e:?}");
    assert!(e.contains("x\\u{7}\\u{202e}"), "{e}");
}

/// A right-to-left override would show one label as another: refused, and shown escaped.
#[test]
fn a_bidi_control_in_a_label_is_refused() {
    for label in ["abc\u{202e}fed", "\u{2066}x", "x\u{200f}", "x\u{61c}"] {
        let spec = format!("greedy:name={label}");
        let e = refused(&["match", "--engine", &spec, "--engine", "random", "--check"]);
        assert!(e.contains("bidi controls"), "{e}");
        assert!(
            !e.chars()
                .any(|c| matches!(c, '\u{202e}' | '\u{2066}' | '\u{200f}' | '\u{61c}')),
            "{e:?}"
        );
    }
}

/// A huge spec or label comes back cut short, not whole.
#[test]
fn huge_input_is_echoed_capped() {
    let huge = "x".repeat(100_000);
    for spec in [
        format!("greedy:name={huge}\u{7}"),
        format!("greedy:{huge}"),
        format!("greedy:noise={huge}"),
        format!("nosuch{huge}"),
    ] {
        let e = refused(&["match", "--engine", &spec, "--engine", "random", "--check"]);
        assert!(e.len() < 5000 && e.contains('…'), "{} bytes", e.len());
    }
}

/// An EPD `id` with BEL and ESC is shown escaped in `arena solve`'s table.
#[test]
fn an_epd_id_is_shown_escaped_in_the_solve_table() {
    let dir = tmp("solve-id");
    let suite = dir.join("s.epd");
    std::fs::write(
        &suite,
        "4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1 dm 1; id \"a\u{7}b\u{1b}c\";\n",
    )
    .unwrap();
    let out = dir.join("out");
    let table = ok(&[
        "solve",
        s(&suite),
        "--rules",
        "xiangqi",
        "--engine",
        "greedy",
        "--no-progress",
        "--out",
        s(&out),
    ]);
    assert!(table.contains("a\\u{7}b\\u{1b}c"), "{table}");
    assert!(
        !table.contains('\u{7}') && !table.contains('\u{1b}'),
        "{table:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A line break in a spec's value would reach a UCI engine as a command of its own
/// (`setoption …`, `quit`): every control character in a spec is refused before any engine
/// starts, and the refusal shows it escaped.
#[test]
fn a_control_character_in_a_spec_is_refused_before_it_reaches_an_engine() {
    for spec in [
        "uci:path=/bin/cat,option.EngineOptions=depth=2\nsetoption name Hash value 1",
        "uci:path=/bin/cat,option.EngineOptions=depth=2\nquit",
        "uci:path=/bin/cat\r,timeout=100",
        "greedy:noise=0.1\u{1b}[2J",
        "alphabeta:eval=w\u{202e}.json",
    ] {
        let e = refused(&["match", "--engine", spec, "--engine", "random", "--check"]);
        assert!(e.contains("control character"), "{spec:?}: {e}");
        assert!(
            !e.contains('\n') || e.trim_end().lines().count() == 1,
            "{spec:?}: the line break is shown escaped: {e}"
        );
        assert!(!e.contains('\u{1b}') && !e.contains('\r'), "{spec:?}: {e}");
    }
}

/// Two labels that would print alike are refused: a trailing space, a zero-width space; and the
/// names `arena stats` is given are labels too.
#[test]
fn labels_that_look_alike_are_refused() {
    for (a, b, says) in [
        ("greedy", "greedy ", "begins or ends with a space"),
        (
            "greedy:name=x",
            "greedy:name=x\u{200b}",
            "invisible character",
        ),
    ] {
        let e = refused(&["match", "--engine", a, "--engine", b, "--check"]);
        assert!(e.contains(says), "{a:?} {b:?}: {e}");
        assert!(!e.contains('\u{200b}'), "{e}");
    }
    for names in ["a\u{1b}[31m,b", "a,b\u{7}", "a\u{202e},b", "a\u{200b},b"] {
        let e = refused(&["stats", "--wdl=1,1,1", &format!("--names={names}")]);
        assert!(e.contains("--names"), "{names:?}: {e}");
        assert!(
            !e.contains('\u{1b}') && !e.contains('\u{7}') && !e.contains('\u{202e}'),
            "{e}"
        );
    }
}

/// An output folder whose name holds a control character is refused: every "Results in …"
/// line would print it raw.
#[test]
fn an_output_path_with_a_control_character_is_refused() {
    let dir = tmp("out-esc");
    let out = dir.join("o\u{1b}[31mx");
    let e = refused(&match_args("greedy", "random", "1", &["--out", s(&out)]));
    assert!(
        e.contains("--out") && e.contains("control character"),
        "{e}"
    );
    assert!(!e.contains('\u{1b}'), "{e}");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(dir);
}
