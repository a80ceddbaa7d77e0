//! The arena plays `jieqi-uci` — our binary, as an external process — against in-process
//! engines; with node limits every game is the same game as in-process play of the same specs.

use jieqi_core::{ByColor, Rules};
use jieqi_engine::Limits;

use arena::engines::{EngineEntry, parse_arg};
use arena::run::game_runner::{GameSpec, PlayedGame, play_game};
use arena::run::player;

fn uci(engine: &str) -> EngineEntry {
    parse_arg(&format!(
        "uci:path={},option.Engine={engine}",
        env!("CARGO_BIN_EXE_jieqi-uci")
    ))
    .expect("jieqi-uci starts and answers the handshake")
}

fn game(red: &EngineEntry, black: &EngineEntry, deal_seed: u64, nodes: u64) -> PlayedGame {
    let rules = Rules::standard();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    play_game(
        &GameSpec {
            rules: &rules,
            deal_seed,
            opening: None,
            players: ByColor {
                red: player(red, &limits, None, None, false),
                black: player(black, &limits, None, None, false),
            },
            max_plies: 160,
            adjudication: Default::default(),
            timemargin: std::time::Duration::ZERO,
            logs: ByColor::default(),
            stop: None,
        },
        None,
    )
}

fn moves(g: &PlayedGame) -> Vec<String> {
    g.plies.iter().map(|p| p.text()).collect()
}

#[test]
fn node_limited_games_over_uci_equal_in_process_games() {
    let opponent = parse_arg("greedy").unwrap();
    for (engine, nodes, seeds) in [
        ("alphabeta", 3000, [11u64, 12]),
        ("ismcts", 150, [13, 14]),
        ("flat-uct", 120, [15, 16]),
    ] {
        let external = uci(engine);
        let inside = parse_arg(engine).unwrap();
        for seed in seeds {
            for external_is_red in [true, false] {
                let (a, b) = if external_is_red {
                    (
                        game(&external, &opponent, seed, nodes),
                        game(&inside, &opponent, seed, nodes),
                    )
                } else {
                    (
                        game(&opponent, &external, seed, nodes),
                        game(&opponent, &inside, seed, nodes),
                    )
                };
                assert!(
                    !a.termination.is_failure(),
                    "{engine}: {:?} {:?}",
                    a.termination,
                    a.detail
                );
                assert_eq!(
                    moves(&a),
                    moves(&b),
                    "{engine}, deal {seed}, uci red {external_is_red}"
                );
                assert_eq!((a.winner, a.termination), (b.winner, b.termination));
                // The search info came back over the protocol too.
                let side = usize::from(!external_is_red);
                let nodes_seen: u64 = a
                    .plies
                    .iter()
                    .skip(side)
                    .step_by(2)
                    .map(|p| p.info.nodes)
                    .sum();
                assert!(nodes_seen > 0, "{engine}: nodes reported in info lines");
            }
        }
    }
}

#[test]
fn options_the_engine_refuses_are_refused_before_the_match() {
    // A value outside the declared combo is refused by the arena itself.
    let e = parse_arg(&format!(
        "uci:path={},option.Engine=bogus",
        env!("CARGO_BIN_EXE_jieqi-uci")
    ))
    .expect_err("an undeclared value is an error")
    .to_string();
    assert!(
        e.contains("'bogus' is not one of the engine's values"),
        "{e}"
    );
    // A value the declaration allows but the engine refuses: its `info string` is heard.
    let e = parse_arg(&format!(
        "uci:path={},option.EngineOptions=nosuch=1",
        env!("CARGO_BIN_EXE_jieqi-uci")
    ))
    .expect_err("a refused option is an error")
    .to_string();
    assert!(e.contains("the engine refused an option"), "{e}");
}

#[test]
fn external_engines_are_never_omniscient() {
    use clap::Parser;
    let spec = format!("uci:path={}", env!("CARGO_BIN_EXE_jieqi-uci"));
    let cli = arena::cli::Cli::try_parse_from([
        "arena",
        "match",
        "--engine",
        spec.as_str(),
        "--engine",
        "greedy",
        "--omniscient",
        "A",
    ])
    .unwrap();
    let Err(e) = arena::plan::Plan::from_cli(cli, false, &|_| false) else {
        panic!("an omniscient external engine is refused");
    };
    let message = e.to_string();
    assert!(message.contains("external process"), "{message}");
}

#[cfg(unix)]
#[test]
fn clock_games_send_both_clocks_and_keep_one_process() {
    use std::os::unix::fs::PermissionsExt;
    // A wrapper that logs what the arena says to jieqi-uci.
    let dir = std::env::temp_dir().join(format!("arena-e2e-clock-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("stdin.log");
    let wrapper = dir.join("engine.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\ntee -a '{}' | exec '{}'\n",
            log.display(),
            env!("CARGO_BIN_EXE_jieqi-uci")
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let external = parse_arg(&format!(
        "uci:path={},option.Engine=greedy",
        wrapper.display()
    ))
    .unwrap();
    let opponent = parse_arg("greedy").unwrap();
    let tc = arena::engines::time_control::TimeControl::parse("3+0.05").ok();
    let rules = Rules::standard();
    for (red, black) in [(&external, &opponent), (&opponent, &external)] {
        let g = play_game(
            &GameSpec {
                rules: &rules,
                deal_seed: 5,
                opening: None,
                players: ByColor {
                    red: player(red, &Limits::default(), tc, None, false),
                    black: player(black, &Limits::default(), tc, None, false),
                },
                max_plies: 60,
                adjudication: Default::default(),
                timemargin: std::time::Duration::ZERO,
                logs: ByColor::default(),
                stop: None,
            },
            None,
        );
        assert!(
            !g.termination.is_failure(),
            "{:?} {:?}",
            g.termination,
            g.detail
        );
        assert_ne!(g.termination.name(), "time-forfeit");
    }
    let sent = std::fs::read_to_string(&log).unwrap();
    let go = sent
        .lines()
        .find(|l| l.starts_with("go "))
        .expect("a go command");
    assert!(
        go.starts_with("go wtime ") && go.contains(" btime ") && go.ends_with(" winc 50 binc 50"),
        "{go}"
    );
    // Both games went to one process: two handshakes (the check when the engine was named, then
    // the process that played), one quit (the check's), a new game announced for each game.
    let count = |what: &str| sent.lines().filter(|l| *l == what).count();
    assert_eq!(count("uci"), 2, "{sent}");
    assert_eq!(count("quit"), 1, "{sent}");
    assert_eq!(count("ucinewgame"), 3, "{sent}");
    let _ = std::fs::remove_dir_all(&dir);
}
