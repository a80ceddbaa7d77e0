//! `arena spsa`: it converges on the `peak` engine's known optimum (and not with a step too
//! small to move), a resumed run is the uninterrupted run, bad parameters files and engines that
//! do not take the parameters are refused before any game.

use std::path::Path;

use crate::common::{arena, arena_bin, ok, refused, s, scripted_engine, text, tmp};

/// The parameters file of the peak engine's two keys, from x = 15, y = 0 (optimum 40, −2.5),
/// with the learning rate `r_end`.
fn peak_params(dir: &Path, r_end: &str) -> String {
    let path = dir.join("peak.txt");
    std::fs::write(
        &path,
        format!(
            "# the peak engine: strongest at x = 40, y = -2.5\n\
             x, int, 15, 0, 100, 8, {r_end}\n\
             \n\
             y, float, 0, -10, 5, 0.6, {r_end}  # a float\n"
        ),
    )
    .unwrap();
    s(&path).to_string()
}

/// `arena spsa` on peak: 400 iterations, 800 games; θ (x, y) at the end.
fn tune(dir: &Path, params: &str, threads: &str) -> (f64, f64) {
    let out = dir.join("run");
    let stdout = ok(&[
        "spsa",
        "--engine",
        "peak",
        "--params",
        params,
        "--iterations",
        "400",
        "--max-plies",
        "150",
        "--threads",
        threads,
        "--out",
        s(&out),
    ]);
    assert!(stdout.contains("result: peak:x="), "{stdout}");
    let record = crate::common::json(&out.join("spsa.json"));
    let theta = record["theta"].as_array().unwrap();
    for file in ["spsa.csv", "spsa.html", "spsa.txt"] {
        assert!(out.join(file).is_file(), "{file}");
    }
    (theta[0].as_f64().unwrap(), theta[1].as_f64().unwrap())
}

/// The target: within 10 % of each optimum (x: 10 % of 40; y: 10 % of 2.5), in well
/// under a minute; with r_end 100 times smaller θ hardly leaves its start, and the same check
/// fails.
#[test]
fn spsa_converges_to_the_peak_and_not_with_a_tiny_step() {
    let dir = tmp("converges");
    let near = |(x, y): (f64, f64)| (x - 40.0).abs() <= 4.0 && (y + 2.5).abs() <= 0.25;
    let started = std::time::Instant::now();
    let theta = tune(&dir, &peak_params(&dir, "0.02"), "2");
    let took = started.elapsed();
    assert!(near(theta), "θ = {theta:?}");
    assert!(took.as_secs() < 60, "{took:?}");
    let again = tmp("converges-tiny");
    let stuck = tune(&again, &peak_params(&again, "0.0002"), "2");
    assert!(!near(stuck), "θ = {stuck:?} converged with a tiny step");
}

/// The number of iterations a record (spsa.json) says are done.
fn iterations_done(record: &Path) -> u64 {
    std::fs::read_to_string(record)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["iteration"].as_u64())
        .unwrap_or(0)
}

/// Ctrl-C after some batches, then --resume (on another thread count): the record, path and
/// result are those of the run that was never interrupted, byte for byte.
#[test]
fn an_interrupted_run_resumes_to_the_uninterrupted_path() {
    let dir = tmp("resume");
    let params = peak_params(&dir, "0.02");
    let whole = dir.join("whole");
    let cut = dir.join("cut");
    let args = |out: &Path, threads: &'static str| -> Vec<String> {
        [
            "spsa",
            "--engine",
            "peak",
            "--params",
            &params,
            "--iterations",
            "1000",
            "--threads",
            threads,
            "--seed",
            "5",
            "--out",
            s(out),
        ]
        .iter()
        .map(|a| a.to_string())
        .collect()
    };
    let a = args(&whole, "1");
    ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let b = args(&cut, "1");
    let child = std::process::Command::new(arena_bin())
        .args(&b)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while iterations_done(&cut.join("spsa.json")) < 16 {
        assert!(std::time::Instant::now() < deadline, "no batch finished");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--resume"), "{}", text(&o.stderr));
    let kept = iterations_done(&cut.join("spsa.json"));
    assert!((16..1000).contains(&kept), "{kept}");
    // Without --resume the folder is refused; with it (and 2 threads) the run continues.
    let again: Vec<&str> = b.iter().map(String::as_str).collect();
    let err = refused(&again);
    assert!(err.contains("give --resume"), "{err}");
    let mut resume = args(&cut, "2");
    resume.push("--resume".into());
    ok(&resume.iter().map(String::as_str).collect::<Vec<_>>());
    for file in ["spsa.json", "spsa.csv", "spsa.txt", "spsa.html"] {
        assert_eq!(
            std::fs::read(whole.join(file)).unwrap(),
            std::fs::read(cut.join(file)).unwrap(),
            "{file}"
        );
    }
    // Other settings are another run: refused.
    let mut other = args(&cut, "2");
    other.extend(["--resume".to_string(), "--batch".into(), "4".into()]);
    let err = refused(&other.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(err.contains("another run"), "{err}");
}

/// Bad parameters files: the file, line and field in the message, exit 2, nothing written.
#[test]
fn bad_parameters_files_are_refused() {
    let dir = tmp("bad");
    let cases: &[(&str, &str)] = &[
        ("x, int, 15, 0, 100, 8\n", "p.txt:1: expected 7"),
        (
            "# c\nx, int, 15, 0, 100, 8, 0.02\nx, int, 1, 0, 9, 1, 0.1\n",
            "p.txt:3: field name: 'x' is given twice",
        ),
        (
            "x, int, 150, 0, 100, 8, 0.02\n",
            "p.txt:1: field start: 150 is outside [0, 100]",
        ),
        ("x, int, 15, 0, 100, 0, 0.02\n", "p.txt:1: field c_end"),
        ("x, int, 15, 0, 100, 8, -1\n", "p.txt:1: field r_end"),
        ("x, int, 15, 100, 0, 8, 0.02\n", "p.txt:1: field max"),
        ("x, number, 15, 0, 100, 8, 0.02\n", "p.txt:1: field type"),
        ("\n# nothing\n", "no parameter"),
    ];
    let file = dir.join("p.txt");
    let out = dir.join("out");
    // The file's content written, then refused: what the arena says.
    let refused_with = |content: &[u8]| {
        std::fs::write(&file, content).unwrap();
        let err = refused(&[
            "spsa",
            "--engine",
            "peak",
            "--params",
            s(&file),
            "--iterations",
            "10",
            "--out",
            s(&out),
        ]);
        assert!(!out.join("spsa.json").exists());
        err
    };
    for (content, says) in cases {
        let err = refused_with(content.as_bytes());
        assert!(err.contains(says), "{content:?}: {err}");
    }
    let many: String = (0..65)
        .map(|i| format!("p{i}, int, 1, 0, 9, 1, 0.1\n"))
        .collect();
    let err = refused_with(many.as_bytes());
    assert!(err.contains("more than 64 parameters"), "{err}");
    let err = refused_with(&vec![b'#'; (1 << 20) + 1]);
    assert!(err.contains("larger than"), "{err}");
}

/// An engine without a key, a UCI engine without an option or whose spin range does not hold
/// [min, max]: refused before any game (no record written).
#[test]
fn engines_that_do_not_take_the_parameters_are_refused_before_any_game() {
    let dir = tmp("engines");
    let file = dir.join("p.txt");
    let out = dir.join("out");
    let spsa = |engine: &str, line: &str| {
        std::fs::write(&file, line).unwrap();
        let o = arena(&[
            "spsa",
            "--engine",
            engine,
            "--params",
            s(&file),
            "--iterations",
            "10",
            "--out",
            s(&out),
        ]);
        assert!(!out.join("spsa.json").exists());
        o
    };
    let o = spsa("peak", "z, int, 1, 0, 9, 1, 0.1\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("unknown parameter 'z'"),
        "{}",
        text(&o.stderr)
    );
    // peak's y takes [-100, 100]: a max of 200 is refused at the max values.
    let o = spsa("peak", "y, float, 1, 0, 200, 1, 0.1\n");
    assert!(
        text(&o.stderr).contains("at their max values"),
        "{}",
        text(&o.stderr)
    );
    let engine = scripted_engine(
        &dir,
        "tunable",
        &[
            "option name UCI_Variant type combo default jieqi var jieqi",
            "option name Margin type spin default 5 min 0 max 10",
        ],
        "echo 'bestmove a0a1'",
    );
    let uci = format!("uci:path={engine}");
    let o = spsa(&uci, "Other, int, 5, 0, 10, 1, 0.1\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("option 'Other' is not one of the engine's options"),
        "{}",
        text(&o.stderr)
    );
    let o = spsa(&uci, "Margin, int, 5, 0, 20, 1, 0.1\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("20 is outside the engine's range 0..10"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn an_engines_tunable_keys_are_a_parameters_file_spsa_takes() {
    let dir = tmp("spsa-table");
    let file = dir.join("ab.txt");
    std::fs::write(&file, ok(&["engines", "--spsa-params", "alphabeta"])).unwrap();
    // The file as printed is taken, and its values are alphabeta's keys: 2 iterations at depth 1.
    let out = dir.join("run");
    ok(&[
        "spsa",
        "--engine",
        "alphabeta",
        "--params",
        s(&file),
        "--iterations",
        "2",
        "--batch",
        "2",
        "--depth",
        "1",
        "--max-plies",
        "20",
        "--out",
        s(&out),
    ]);
    assert!(
        std::fs::read_to_string(out.join("spsa.txt"))
            .unwrap()
            .contains("rfp_margin")
    );
    let e = refused(&["engines", "--spsa-params", "greedy"]);
    assert!(e.contains("'greedy' has no tunable keys"), "{e}");
}

/// A resume by another build is refused unless allowed, and then the record lists both builds.
#[test]
fn a_resume_by_another_build_is_refused_unless_allowed_and_then_recorded() {
    let dir = tmp("spsa-builds");
    let params = peak_params(&dir, "0.02");
    let out = dir.join("run");
    let args = |extra: &[&'static str]| {
        let mut a: Vec<String> = [
            "spsa",
            "--engine",
            "peak",
            "--params",
            &params,
            "--iterations",
            "8",
            "--max-plies",
            "60",
            "--out",
            s(&out),
        ]
        .iter()
        .map(|x| x.to_string())
        .collect();
        a.extend(extra.iter().map(|x| x.to_string()));
        a
    };
    let run = |extra: &[&'static str]| {
        let a = args(extra);
        arena(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    assert!(run(&[]).status.success());
    let record = out.join("spsa.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(v["builds"].as_array().unwrap().len(), 1);
    // Another arena played the run so far.
    v["builds"][0]["build"]["arena_sha256"] = "00".repeat(32).into();
    v["builds"][0]["build"]["commit"] = "0".repeat(40).into();
    std::fs::write(&record, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = run(&["--resume"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("another build played this run"),
        "{}",
        text(&o.stderr)
    );
    assert!(run(&["--resume", "--allow-mixed-builds"]).status.success());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let builds = v["builds"].as_array().unwrap();
    assert_eq!(builds.len(), 2);
    assert_eq!(builds[1]["from_iteration"], 8);
}
