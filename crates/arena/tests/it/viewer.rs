//! `arena view`: the game viewer page, written for a real match's game and rendered by headless
//! Chromium, driven over the DevTools protocol (`--remote-debugging-pipe`: requests on file
//! descriptor 3, answers and events on 4, each a JSON message ended by a NUL byte). The pieces
//! the page draws at a ply, read back from its DOM, must be the referee's position there
//! (replayed here with jieqi-core from the record), in the public and the true view; keys,
//! clicks on the move list and on the chart's marks, and the address's `#ply=K` must move it.
//!
//! Without Chromium the browser test fails in CI and is said to be skipped elsewhere
//! ([`crate::common::missing`]). With `ARENA_VIEWER_SHOTS=DIR` it also leaves its screenshots
//! in DIR, to look at.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use arena::analysis::verdict::Omniscient;
use arena::analysis::{Analysis, Class, PlyAnalysis, StudyGame, Summary};
use jieqi_core::{Color, Game, Move, Occupant};
use serde_json::{Value, json};

use crate::common::{match_args, missing, ok, refused, s, tmp};

/// How long one answer from the browser may take.
const PATIENCE: Duration = Duration::from_secs(30);

/// A one-pair match with hidden pieces in `dir`: alpha-beta against greedy at 200 nodes, about a
/// tenth of a second.
fn play(dir: &Path) {
    ok(&[
        "match",
        "--engine",
        "alphabeta",
        "--engine",
        "greedy",
        "--nodes",
        "200",
        "--pairs",
        "1",
        "--seed",
        "3",
        "--out",
        s(dir),
    ]);
}

/// The referee's games of recorded game `game` of pair 0 of match folder `dir`, before each ply
/// and after the last: replayed here from the record's deal seed and move texts.
fn replayed(dir: &Path, game: u8) -> Vec<Game> {
    let (setup, line, _) = arena::run::folder::load_recorded(dir, 0, game).unwrap();
    let deal = arena::deal_for_seed(line.seed, &setup.rules);
    let mut g = Game::new(setup.rules, deal);
    let mut out = vec![g.clone()];
    for m in &line.moves {
        g.play(Move::from_text(&m[..4]).unwrap()).unwrap();
        out.push(g.clone());
    }
    out
}

/// The pieces of a game's position as the page should draw them: (square, piece letter —
/// `X`/`x` hidden —, the true identity of a hidden piece in the true view, else empty), sorted.
fn expected_pieces(game: &Game, true_view: bool) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for sq in jieqi_core::Square::all() {
        let Some(occ) = game.position().occupant(sq) else {
            continue;
        };
        let identity = match occ {
            Occupant::Hidden(color) if true_view => {
                let role = game.truth().identity(sq).expect("the truth");
                jieqi_core::Piece { color, role }.char().to_string()
            }
            _ => String::new(),
        };
        out.push((sq.to_string(), occ.char().to_string(), identity));
    }
    out.sort();
    out
}

#[test]
fn view_writes_a_page_where_it_says() {
    let dir = tmp("cli");
    play(&dir);
    // The default: games/game-N.html in the match folder, and the path said.
    let out = ok(&["view", s(&dir), "--game", "2"]);
    let page = dir.join("games/game-2.html");
    assert_eq!(out.trim(), page.display().to_string());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("id=\"game\""));
    assert!(html.contains("game 2 (pair 0, game 2)"));
    // --pair P --game 1|2 is the same game as its number.
    let out = ok(&[
        "view",
        s(&dir),
        "--pair",
        "0",
        "--game",
        "2",
        "--out",
        s(&dir.join("b.html")),
    ]);
    assert_eq!(out.trim(), dir.join("b.html").display().to_string());
    assert_eq!(std::fs::read_to_string(dir.join("b.html")).unwrap(), html);
    // A user's --out: missing folders made.
    let named = dir.join("deep/er/page.html");
    ok(&["view", s(&dir), "--game", "1", "--out", s(&named)]);
    assert!(
        std::fs::read_to_string(&named)
            .unwrap()
            .contains("game 1 (pair 0, game 1)")
    );

    // Bad input is refused before anything is written.
    let err = refused(&["view", s(&dir), "--game", "9"]);
    assert!(err.contains("there is no game 9"), "{err}");
    let err = refused(&["view", s(&dir), "--game", "0"]);
    assert!(err.contains("game numbers start at 1"), "{err}");
    let err = refused(&["view", s(&dir), "--pair", "0", "--game", "3"]);
    assert!(err.contains("1 (A Red) or 2 (A Black)"), "{err}");
    let err = refused(&[
        "view",
        s(&dir),
        "--game",
        "1",
        "--out",
        s(&dir.join("games.csv")),
    ]);
    assert!(err.contains("own games.csv"), "{err}");
    let err = refused(&["view", s(&dir), "--game", "1", "--out", s(&dir)]);
    assert!(err.contains("a folder"), "{err}");
    let err = refused(&["view", s(&dir.join("nowhere")), "--game", "1"]);
    assert!(err.contains("no such folder"), "{err}");
    // A record altered so that it no longer plays through (the checksums dropped, as in
    // journals older than checksums): refused, naming the game.
    let journal = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let altered: Vec<String> = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("check");
            if v["game"] == json!(1) {
                v["moves"][1] = json!("a0a9");
            }
            v.to_string()
        })
        .collect();
    std::fs::write(&journal, altered.join("\n") + "\n").unwrap();
    // The reports wrote the page of game 1 already (the games index writes up to 10): the
    // refusal leaves it as it was.
    let page = dir.join("games/game-1.html");
    let before = std::fs::read(&page).ok();
    let err = refused(&["view", s(&dir), "--game", "1"]);
    assert!(err.contains("pair 0 game 1 does not play through"), "{err}");
    assert_eq!(std::fs::read(&page).ok(), before);
    let _ = std::fs::remove_dir_all(&dir);

    // A tournament's game N is in its pairing's folder, numbered there: said first.
    let dir = tmp("tournament");
    ok(&[
        "tournament",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--engine",
        "level:easy",
        "--pairs",
        "1",
        "--seed",
        "1",
        "--out",
        s(&dir),
    ]);
    let out = ok(&["view", s(&dir), "--game", "4"]);
    let folder = dir.join("pairings/02-random-vs-level_easy");
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap(),
        format!(
            "game 4 of {} is pair 0, game 2 of {} (game 2 there)",
            dir.display(),
            folder.display()
        )
    );
    assert_eq!(
        lines.next().unwrap(),
        folder.join("games/game-2.html").display().to_string()
    );
    assert!(folder.join("games/game-2.html").is_file());
    let err = refused(&["view", s(&dir), "--pair", "0", "--game", "1"]);
    assert!(err.contains("several pairings"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A headless Chromium driven over the DevTools protocol on a pipe, with one page attached.
struct Chromium {
    child: Child,
    /// Requests go here (the browser's fd 3).
    to: File,
    /// Messages from the browser's fd 4, read by a thread.
    from: Receiver<Value>,
    next: u64,
    session: String,
    log: PathBuf,
}

/// The first of `names` on PATH.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// A pipe whose two ends close on exec: (read, write).
fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(rc, 0, "pipe2: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and belong to nobody else.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

impl Chromium {
    /// Starts `browser` with a private profile in `dir` and a `width`×`height` page.
    fn start(browser: &Path, dir: &Path, width: u32, height: u32) -> Chromium {
        let (their_in, our_out) = pipe();
        let (our_in, their_out) = pipe();
        let log = dir.join("chromium.log");
        let mut cmd = Command::new(browser);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--no-default-browser-check",
            "--remote-debugging-pipe",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(File::create(&log).unwrap())
        .stderr(File::create(dir.join("chromium.err")).unwrap());
        let (a, b) = (their_in.as_raw_fd(), their_out.as_raw_fd());
        // SAFETY: only fcntl and dup2 run between fork and exec, both async-signal-safe. The
        // ends are first copied above 4 so that placing one on 3 cannot close the other.
        unsafe {
            cmd.pre_exec(move || {
                let a = libc::fcntl(a, libc::F_DUPFD, 10);
                let b = libc::fcntl(b, libc::F_DUPFD, 10);
                if a < 0 || b < 0 || libc::dup2(a, 3) < 0 || libc::dup2(b, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("chromium starts");
        drop((their_in, their_out));
        let (tx, from) = channel();
        let reader = File::from(our_in);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(reader);
            let mut message = Vec::new();
            while reader.read_until(0, &mut message).is_ok_and(|n| n > 0) {
                if message.last() == Some(&0) {
                    message.pop();
                }
                if let Ok(v) = serde_json::from_slice::<Value>(&message) {
                    if tx.send(v).is_err() {
                        break;
                    }
                }
                message.clear();
            }
        });
        let mut browser = Chromium {
            child,
            to: File::from(our_out),
            from,
            next: 0,
            session: String::new(),
            log: dir.join("chromium.err"),
        };
        let target = browser.call("Target.createTarget", json!({"url": "about:blank"}));
        let target = target["targetId"]
            .as_str()
            .expect("a target id")
            .to_string();
        let attached = browser.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        browser.session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
        browser.call("Page.enable", json!({}));
        browser
    }

    /// The browser's own error output, for a failure's message.
    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }

    /// Sends a request (to the page's session once there is one) and returns its result;
    /// `Err` with the protocol's error.
    fn try_call(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.next += 1;
        let id = self.next;
        let mut request = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            request["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&request).unwrap();
        bytes.push(0);
        self.to
            .write_all(&bytes)
            .unwrap_or_else(|e| panic!("{method}: {e}\n{}", self.log_tail()));
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from.recv_timeout(left) {
                Ok(m) if m["id"] == json!(id) => {
                    return match m.get("error") {
                        Some(e) => Err(e.clone()),
                        None => Ok(m["result"].clone()),
                    };
                }
                // An event, or an answer to nothing we wait for.
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    panic!("{method}: no answer in {PATIENCE:?}\n{}", self.log_tail())
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("{method}: the browser closed its pipe\n{}", self.log_tail())
                }
            }
        }
    }

    /// [`Chromium::try_call`], which must succeed.
    #[track_caller]
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.try_call(method, params)
            .unwrap_or_else(|e| panic!("{method}: {e}"))
    }

    /// The value of a JavaScript expression in the page, or `Err` with why not (an exception,
    /// a page being replaced).
    fn try_eval(&mut self, expression: &str) -> Result<Value, String> {
        let r = self
            .try_call(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true}),
            )
            .map_err(|e| e.to_string())?;
        if let Some(e) = r.get("exceptionDetails") {
            return Err(e.to_string());
        }
        Ok(r["result"]["value"].clone())
    }

    /// The value of a JavaScript expression whose value is a promise, once it settles.
    #[track_caller]
    fn eval_async(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("{expression}: {e}");
        }
        r["result"]["value"].clone()
    }

    /// The value of a JavaScript expression, which must evaluate.
    #[track_caller]
    fn eval(&mut self, expression: &str) -> Value {
        self.try_eval(expression)
            .unwrap_or_else(|e| panic!("{expression}: {e}"))
    }

    /// Waits until `expression` is true in the page.
    #[track_caller]
    fn wait_for(&mut self, expression: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if self.try_eval(expression) == Ok(json!(true)) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "never true: {expression}\n{}",
                self.log_tail()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Opens `url` and waits until the viewer shows ply `ply`.
    #[track_caller]
    fn open(&mut self, url: &str, ply: usize) {
        self.call("Page.navigate", json!({"url": url}));
        self.wait_for(&format!(
            "document.readyState === 'complete' && !!document.getElementById('board') && \
             document.getElementById('board').dataset.ply === '{ply}'"
        ));
    }

    /// Presses and releases a key (`ArrowRight`, `End`, `t`).
    fn key(&mut self, key: &str, code: &str, key_code: u32) {
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": code,
                       "windowsVirtualKeyCode": key_code, "nativeVirtualKeyCode": key_code}),
            );
        }
    }

    /// Clicks the middle of the first element `selector` matches, as a mouse does.
    #[track_caller]
    fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector({sel}); e.scrollIntoView({{block: \
             'center'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, \
             r.y + r.height / 2]; }})()",
            sel = json!(selector)
        ));
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// The ply the page shows.
    fn ply(&mut self) -> usize {
        let v = self.eval("document.getElementById('board').dataset.ply");
        v.as_str().and_then(|p| p.parse().ok()).expect("a ply")
    }

    /// The pieces the page draws, as [`expected_pieces`] lists them.
    fn pieces(&mut self) -> Vec<(String, String, String)> {
        let v = self.eval(
            "Array.from(document.querySelectorAll('#pieces .piece')).map(p => \
             [p.dataset.square, p.dataset.piece, p.dataset.true || ''])",
        );
        let mut out: Vec<(String, String, String)> =
            serde_json::from_value(v).expect("triples of strings");
        out.sort();
        out
    }

    /// A screenshot of the whole page (beyond the window when it is longer) as PNG bytes.
    fn screenshot(&mut self) -> Vec<u8> {
        let size = self.call("Page.getLayoutMetrics", json!({}))["cssContentSize"].clone();
        let (width, height) = (
            size["width"].as_f64().unwrap(),
            size["height"].as_f64().unwrap(),
        );
        let r = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true,
                   "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}}),
        );
        base64(r["data"].as_str().expect("image data"))
    }
}

impl Drop for Chromium {
    fn drop(&mut self) {
        // Asked to close, then ended: the test never leaves a browser behind.
        let mut bytes = serde_json::to_vec(&json!({"id": 0, "method": "Browser.close"})).unwrap();
        bytes.push(0);
        let _ = self.to.write_all(&bytes);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Standard base64 decoded (the screenshot's encoding).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for c in text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
    {
        acc = (acc << 6) | u32::from(value(c));
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// Takes a screenshot of the page from its top, checks it (a PNG of some substance: a blank
/// page compresses to a few KB), writes it to `dir/name`, and copies it to `ARENA_VIEWER_SHOTS`
/// when that is set.
#[track_caller]
fn shot(c: &mut Chromium, dir: &Path, name: &str) {
    c.eval("window.scrollTo(0, 0)");
    let png = c.screenshot();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{name}: not a PNG");
    assert!(
        png.len() > 20_000,
        "{name}: a blank page? {} bytes",
        png.len()
    );
    std::fs::write(dir.join(name), &png).unwrap();
    if let Some(shots) = std::env::var_os("ARENA_VIEWER_SHOTS").filter(|v| !v.is_empty()) {
        let shots = PathBuf::from(shots);
        std::fs::create_dir_all(&shots).unwrap();
        std::fs::write(shots.join(name), &png).unwrap();
    }
}

/// A file URL of `path` with the fragment `#ply=K`.
fn url(path: &Path, ply: usize) -> String {
    format!(
        "file://{}#ply={ply}",
        path.canonicalize().unwrap().display()
    )
}

/// A hand-made analysis of `game`: small losses everywhere, one blunder at ply `blunder` (with a
/// note), a mistake at `mistake`, an omniscient search on every ply.
fn hand_made_analysis(game: &StudyGame, blunder: usize, mistake: usize) -> Analysis {
    let records = game.records();
    let plies = records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let ply = i + 1;
            let loss = match ply {
                p if p == blunder => 0.32,
                p if p == mistake => 0.12,
                p => 0.01 * (p % 4) as f64,
            };
            // A slow swing towards Red, the mover's view of it.
            let red = 0.5 + 0.4 * ((ply as f64) / 9.0).sin();
            let best = if r.mover == Color::Red {
                red
            } else {
                1.0 - red
            };
            PlyAnalysis {
                ply,
                mover: if r.mover == Color::Red {
                    "red"
                } else {
                    "black"
                },
                played: r.played.to_text(r.mover),
                best: "e3e4".to_string(),
                best_score: "+0.40".to_string(),
                played_score: "-1.10".to_string(),
                best_expected: best,
                played_expected: best - loss,
                loss,
                loss_cp: Some((loss * 1000.0) as i32),
                after_expected: None,
                chance: r.played.reveal.map(|_| 0.03),
                chance_from: r.played.reveal.map(|_| "reveal"),
                noise: None,
                class: Class::of(loss),
                note: (ply == blunder).then(|| "allows mate in 3".to_string()),
                pv: vec!["e3e4".to_string(), "e6e5".to_string()],
                depth: Some(6),
                nodes: 5000,
                omniscient: Some(Omniscient {
                    best: "h2e2".to_string(),
                    score: "+2.00".to_string(),
                    expected: (best + 0.1).min(1.0),
                }),
            }
        })
        .collect();
    Analysis {
        reference: "alphabeta (nodes=5000), hand-made for the test".to_string(),
        seed: 1,
        omniscient: true,
        plies,
        summary: Summary {
            lines: vec![
                format!("Turning point: ply {blunder}."),
                format!("Worst move: ply {blunder} (blunder, −0.32)."),
            ],
            ..Summary::default()
        },
        end: Some(1.0),
    }
}

#[test]
fn the_viewer_shows_the_referees_positions_in_chromium() {
    let test = "viewer::the_viewer_shows_the_referees_positions_in_chromium";
    let dir = tmp("browser");
    play(&dir);
    let games = replayed(&dir, 1);
    let n = games.len() - 1;
    let records = games[n].records().to_vec();
    // The ply to look at: the first that revealed its piece and took a hidden one.
    let reveal = records
        .iter()
        .position(|r| r.played.reveal.is_some() && r.captured_hidden)
        .map(|i| i + 1)
        .expect("a ply that reveals and captures a hidden piece");
    let later = (reveal + 9).min(n);
    assert!(n >= 10 && later > reveal, "{n} plies");
    let out = ok(&["view", s(&dir), "--game", "1"]);
    let page = PathBuf::from(out.trim());
    assert_eq!(page, dir.join("games/game-1.html"));

    let Some(browser) = on_path(&["chromium", "chromium-browser", "google-chrome"]) else {
        missing(test, "chromium not found (apt-get install chromium)");
        return;
    };
    let mut c = Chromium::start(&browser, &dir, 1280, 1000);

    // The start, opened from the address.
    c.open(&url(&page, 0), 0);
    assert_eq!(c.pieces(), expected_pieces(&games[0], false));
    assert_eq!(
        c.eval("document.getElementById('moves').querySelectorAll('.mv[data-ply]').length"),
        json!(n + 1)
    );
    shot(&mut c, &dir, "start.png");

    // A move's description takes the article its piece needs: "revealed an elephant" (it said
    // "a elephant").
    let vowel = records
        .iter()
        .position(|r| {
            r.played
                .reveal
                .is_some_and(|role| "ae".contains(&role.name()[..1]))
        })
        .map(|i| i + 1)
        .expect("a ply that reveals an elephant or an advisor");
    c.open(&url(&page, vowel), vowel);
    let name = records[vowel - 1]
        .played
        .reveal
        .map_or("", |role| role.name());
    let described = c.eval(
        "[...document.querySelectorAll('dt')].find(d => d.textContent === 'move')\
         .nextElementSibling.textContent",
    );
    assert!(
        described
            .as_str()
            .is_some_and(|d| d.contains(&format!("revealed an {name}"))),
        "{described}"
    );

    // Right after a reveal that took a hidden piece: the public board, the marks.
    c.open(&url(&page, reveal), reveal);
    assert_eq!(c.pieces(), expected_pieces(&games[reveal], false));
    let r = records[reveal - 1];
    let to = r.played.mv.to.to_string();
    let marks = c.eval(
        "(() => { const b = document.getElementById('board').dataset; \
         return [b.view, b.last, b.reveal, b.capture]; })()",
    );
    assert_eq!(
        marks,
        json!([
            "public",
            format!("{}{to}", r.played.mv.from),
            to,
            format!("{to}:hidden")
        ])
    );
    assert_eq!(
        c.eval("document.querySelectorAll('#overlays .reveal-ring').length"),
        json!(1)
    );
    assert_eq!(
        c.eval("document.querySelector('.mv.cur').textContent"),
        json!(r.played.to_text(r.mover))
    );
    shot(&mut c, &dir, "reveal-public.png");

    // The true view, by a click on its button: the same squares, every hidden identity shown.
    c.click("#view-true");
    assert_eq!(
        c.eval("document.getElementById('board').dataset.view"),
        json!("true")
    );
    let shown = c.pieces();
    assert_eq!(shown, expected_pieces(&games[reveal], true));
    assert!(shown.iter().any(|(_, p, t)| p == "X" && !t.is_empty()));
    shot(&mut c, &dir, "reveal-true.png");

    keys_clicks_and_addresses_move_the_page(&mut c, &page, &games, reveal, later);

    let analysed =
        an_analysis_is_drawn_and_its_marks_lead_to_the_ply(&mut c, &dir, &games, later, reveal);

    // On a narrow screen the page still draws the board.
    drop(c);
    let mut c = Chromium::start(&browser, &dir, 420, 1400);
    c.open(&url(&analysed, reveal), reveal);
    assert_eq!(c.pieces(), expected_pieces(&games[reveal], false));
    let width = c.eval("document.getElementById('board').getBoundingClientRect().width");
    assert!(width.as_f64().unwrap() > 300.0, "{width}");
    shot(&mut c, &dir, "narrow.png");
    drop(c);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Keys (→ one ply on, the address following; ← back; End; Home; ↓ one move; T the view), a
/// click on a move in the list and an address changed by hand move the page `page` of the
/// positions `games` (open at ply `reveal` in the true view) and its view.
fn keys_clicks_and_addresses_move_the_page(
    c: &mut Chromium,
    page: &Path,
    games: &[Game],
    reveal: usize,
    later: usize,
) {
    let n = games.len() - 1;
    // Keys: → one ply on (the address follows), ← back, End, Home, ↓ one move; T the view.
    c.key("ArrowRight", "ArrowRight", 39);
    assert_eq!(c.ply(), reveal + 1);
    // The address keeps the true view too.
    assert_eq!(
        c.eval("location.hash"),
        json!(format!("#ply={}&view=true", reveal + 1))
    );
    assert_eq!(c.pieces(), expected_pieces(&games[reveal + 1], true));
    c.key("t", "KeyT", 84);
    assert_eq!(c.pieces(), expected_pieces(&games[reveal + 1], false));
    c.key("ArrowLeft", "ArrowLeft", 37);
    assert_eq!(c.ply(), reveal);
    c.key("End", "End", 35);
    assert_eq!(c.ply(), n);
    assert_eq!(c.pieces(), expected_pieces(&games[n], false));
    c.key("Home", "Home", 36);
    assert_eq!(c.ply(), 0);
    c.key("ArrowDown", "ArrowDown", 40);
    assert_eq!(c.ply(), 2);
    // A click on a move in the list.
    c.click(&format!(".mv[data-ply=\"{later}\"]"));
    assert_eq!(c.ply(), later);
    assert_eq!(c.eval("location.hash"), json!(format!("#ply={later}")));
    assert_eq!(c.pieces(), expected_pieces(&games[later], false));
    // The address changed by hand (a same-page navigation): the page follows.
    c.call("Page.navigate", json!({"url": url(page, reveal + 1)}));
    c.wait_for(&format!(
        "document.getElementById('board').dataset.ply === '{}'",
        reveal + 1
    ));
    assert_eq!(c.pieces(), expected_pieces(&games[reveal + 1], false));
    // An address with the true view: the page opens that view.
    c.call(
        "Page.navigate",
        json!({"url": format!("{}&view=true", url(page, reveal))}),
    );
    c.wait_for(&format!(
        "document.getElementById('board').dataset.ply === '{reveal}' && \
         document.getElementById('board').dataset.view === 'true'"
    ));
    assert_eq!(c.pieces(), expected_pieces(&games[reveal], true));
}

/// A hand-made analysis of game 1 of `dir` (of the positions `games`; a blunder at ply
/// `blunder`, a mistake at `mistake`) on its page: the classes in the move list, the marks on
/// the chart, and a click on the blunder's mark goes there. Returns the page's path.
fn an_analysis_is_drawn_and_its_marks_lead_to_the_ply(
    c: &mut Chromium,
    dir: &Path,
    games: &[Game],
    blunder: usize,
    mistake: usize,
) -> PathBuf {
    // With a hand-made analysis: the classes in the move list, the marks on the chart, and a
    // click on the blunder's mark goes there.
    let (setup, line, _) = arena::run::folder::load_recorded(dir, 0, 1).unwrap();
    let study = StudyGame::from_record(
        &setup.rules,
        &line,
        setup.max_plies,
        "game 1".into(),
        Some(1),
    )
    .unwrap();
    let analysis = hand_made_analysis(&study, blunder, mistake);
    let analysed = dir.join("analysed.html");
    std::fs::write(
        &analysed,
        arena::report::viewer::page(&study, Some(&analysis)),
    )
    .unwrap();
    c.open(&url(&analysed, 0), 0);
    assert_eq!(
        c.eval("document.querySelectorAll('#chart .mark.blunder').length"),
        json!(1)
    );
    assert_eq!(
        c.eval("document.querySelectorAll('#chart .mark.mistake').length"),
        json!(1)
    );
    assert_eq!(
        c.eval(&format!(
            "document.querySelector('.mv[data-ply=\"{blunder}\"] .cls').textContent"
        )),
        json!("??")
    );
    c.click("#chart .mark.blunder");
    assert_eq!(c.ply(), blunder);
    let info = c.eval("document.getElementById('info').textContent");
    let info = info.as_str().unwrap();
    assert!(
        info.contains("blunder ??") && info.contains("allows mate in 3"),
        "{info}"
    );
    assert!(
        info.contains("omniscient best") && info.contains("h2e2"),
        "{info}"
    );
    assert_eq!(c.pieces(), expected_pieces(&games[blunder], false));
    shot(c, dir, "analysis-blunder.png");
    analysed
}

/// `view`, `replay`, `export` and `analyze` read only the line of the game asked for: the other
/// lines' heads say which game they are, and their rest is never read (they used to read the
/// whole journal, about 7 times its size in memory: 941 MB to show one game of 5000 pairs).
/// Here the rest of another game's line is garbage that reading the whole journal refuses.
#[test]
fn one_game_is_read_without_the_other_lines() {
    let dir = tmp("one-line");
    ok(&match_args(
        "random",
        "greedy",
        "2",
        &["--max-plies", "20", "--no-progress", "--out", s(&dir)],
    ));
    let journal = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Line 4 (pair 1, game 2): its head kept, the rest garbage.
    let cut = lines[3].find(",\"seed\"").unwrap();
    lines[3] = format!("{},garbage", &lines[3][..cut]);
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    let e = crate::common::refused(&["export", s(&dir)]);
    assert!(e.contains("games.jsonl:4: not a game record"), "{e}");
    ok(&[
        "view",
        s(&dir),
        "--game",
        "3",
        "--out",
        s(&dir.join("g3.html")),
    ]);
    ok(&["replay", s(&dir), "--game", "3", "--show"]);
    ok(&["export", s(&dir), "--game", "3"]);
    // The line asked for is read and refused whole.
    let e = crate::common::refused(&["view", s(&dir), "--game", "4"]);
    assert!(e.contains("not a game record"), "{e}");
}

#[test]
fn a_page_is_linked_from_the_index_without_reading_the_journal_again() {
    let dir = tmp("relink");
    ok(&match_args(
        "random",
        "greedy",
        "8",
        &["--max-plies", "20", "--no-progress", "--out", s(&dir)],
    ));
    let index = dir.join("games.html");
    // The reports wrote the pages of the first 10 games; game 15 has none yet.
    assert!(
        !std::fs::read_to_string(&index)
            .unwrap()
            .contains("games/game-15.html")
    );
    // Every line but game 15's keeps its head and turns to garbage of the same length: reading
    // the journal again would refuse it, and the index would not be relinked.
    let journal = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            if line.contains("\"pair\":7,\"game\":1") {
                return line.to_string();
            }
            let cut = line.find(",\"seed\"").unwrap();
            format!("{},{}", &line[..cut], "x".repeat(line.len() - cut - 1))
        })
        .collect();
    let garbled = lines.join("\n") + "\n";
    assert_eq!(garbled.len(), text.len());
    std::fs::write(&journal, &garbled).unwrap();
    // Links in the embedded data are not taken: they come from the pages in the folder.
    let tampered = std::fs::read_to_string(&index).unwrap().replacen(
        "\"analysis\":null",
        "\"analysis\":\"../../../etc/passwd\"",
        1,
    );
    std::fs::write(&index, tampered).unwrap();
    ok(&["view", s(&dir), "--game", "15"]);
    let html = std::fs::read_to_string(&index).unwrap();
    assert!(html.contains("href=\"games/game-15.html\""), "{html}");
    assert!(!html.contains("etc/passwd"), "{html}");
    // A journal of another size is read again: here it is refused, and the index not relinked.
    std::fs::write(&journal, garbled + "\n").unwrap();
    let out = crate::common::arena(&["view", s(&dir), "--game", "15"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("was not rewritten"), "{err}");
}

/// The characters the page draws on its board (pieces, true identities, capture badges, the
/// river) that are not ASCII, each with whether it renders as a glyph in the font the page gives
/// its element: drawn on a canvas in that font list, its pixels must differ from those of a
/// code point no font has (U+10FFFD, drawn as the fallback's empty box) and not be blank. On a
/// machine with no Chinese font and a page without its own, every one is the empty box.
const GLYPHS_DRAWN: &str = r#"(async () => {
  await document.fonts.ready;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const g = canvas.getContext('2d', { willReadFrequently: true });
  async function pixels(text, family) {
    const font = '48px ' + family;
    await document.fonts.load(font, text);
    g.clearRect(0, 0, 64, 64);
    g.font = font;
    g.fillStyle = '#000';
    g.fillText(text, 4, 52);
    return Array.from(g.getImageData(0, 0, 64, 64).data);
  }
  const out = {};
  for (const t of document.querySelectorAll('#board text')) {
    const family = getComputedStyle(t).fontFamily;
    for (const ch of Array.from(t.textContent).filter(c => c.charCodeAt(0) > 127)) {
      if (out[ch]) continue;
      const drawn = await pixels(ch, family);
      const box = await pixels('\u{10FFFD}', family);
      const ink = drawn.some(v => v !== 0);
      const same = drawn.every((v, i) => v === box[i]);
      out[ch] = ink && !same ? 'glyph' : (ink ? 'empty box' : 'nothing');
    }
  }
  return out;
})()"#;

/// Game pages read on a machine without Chinese fonts (issue 50: a server's, a container's,
/// WSL's, CI's Chromium drew every revealed piece and the river as empty boxes): the viewer page
/// and the analysis page embed the font of their characters, and every character they draw on
/// the board renders as a glyph.
#[test]
fn the_pieces_are_drawn_without_a_chinese_font() {
    let test = "viewer::the_pieces_are_drawn_without_a_chinese_font";
    let dir = tmp("font");
    play(&dir);
    let viewer = PathBuf::from(ok(&["view", s(&dir), "--game", "1"]).trim());
    ok(&[
        "analyze",
        s(&dir),
        "--game",
        "1",
        "--nodes",
        "100",
        "--no-omniscient",
        "--threads",
        "1",
    ]);
    let analysis = dir.join("analysis/game-1.html");
    assert!(analysis.is_file());
    let games = replayed(&dir, 1);
    let records = games.last().unwrap().records().to_vec();
    // A ply after a reveal that took a hidden piece: revealed pieces of both sides by then,
    // a capture badge, and in the true view every hidden piece's identity.
    let ply = records
        .iter()
        .position(|r| r.played.reveal.is_some() && r.captured_hidden)
        .map(|i| i + 1)
        .expect("a ply that reveals and captures a hidden piece");

    let Some(browser) = on_path(&["chromium", "chromium-browser", "google-chrome"]) else {
        missing(test, "chromium not found (apt-get install chromium)");
        return;
    };
    let mut c = Chromium::start(&browser, &dir, 1280, 1100);
    for (page, name) in [
        (&viewer, "font-viewer.png"),
        (&analysis, "font-analysis.png"),
    ] {
        c.open(&format!("{}&view=true", url(page, ply)), ply);
        let drawn = c.eval_async(GLYPHS_DRAWN);
        let drawn = drawn.as_object().expect("an object of characters");
        let chars: String = drawn.keys().map(String::as_str).collect();
        // Both sides' pieces and the river are among them.
        for ch in ["帥", "將", "楚", "漢"] {
            assert!(chars.contains(ch), "{name}: {ch} not drawn: {chars}");
        }
        let boxes: Vec<String> = drawn
            .iter()
            .filter(|(_, v)| *v != "glyph")
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        assert!(boxes.is_empty(), "{name}: not drawn as glyphs: {boxes:?}");
        shot(&mut c, &dir, name);
    }
    drop(c);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game of games.csv: number, Red, Black, result, termination, plies.
type CsvRow = (u64, String, String, String, String, u64);

/// The numbers of the rows `games.html` shows, in their order.
fn shown_rows(c: &mut Chromium) -> Vec<u64> {
    let v = c.eval(
        "Array.from(document.querySelectorAll('table.games tbody tr')).map(r => \
         +r.id.replace('game-', ''))",
    );
    serde_json::from_value(v).expect("numbers")
}

/// games.html filters and sorts its rows (issue 50: 600 rows and no way to find the games an
/// engine lost): by an engine and its result, by result and termination, and by a click on a
/// column's head, both ways; the rows are the page's own, checked against games.csv.
#[test]
fn the_games_index_filters_and_sorts_in_chromium() {
    let test = "viewer::the_games_index_filters_and_sorts_in_chromium";
    let dir = tmp("filters");
    ok(&match_args(
        "greedy",
        "random",
        "12",
        &[
            "--max-plies",
            "60",
            "--seed",
            "5",
            "--no-progress",
            "--out",
            s(&dir),
        ],
    ));
    // (number, red, black, result, termination, plies) of every game.
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let games: Vec<CsvRow> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (
                r[0].parse().unwrap(),
                r[4].to_string(),
                r[5].to_string(),
                r[6].to_string(),
                r[7].to_string(),
                r[8].parse().unwrap(),
            )
        })
        .collect();
    let numbers = |keep: &dyn Fn(&CsvRow) -> bool| {
        games
            .iter()
            .filter(|g| keep(g))
            .map(|g| g.0)
            .collect::<Vec<u64>>()
    };
    let lost_by_random =
        numbers(&|g| (g.1 == "random" && g.3 == "0-1") || (g.2 == "random" && g.3 == "1-0"));
    assert!(!lost_by_random.is_empty() && lost_by_random.len() < games.len());

    let Some(browser) = on_path(&["chromium", "chromium-browser", "google-chrome"]) else {
        missing(test, "chromium not found (apt-get install chromium)");
        return;
    };
    let mut c = Chromium::start(&browser, &dir, 1280, 1000);
    let index = dir.join("games.html").canonicalize().unwrap();
    c.call(
        "Page.navigate",
        json!({"url": format!("file://{}", index.display())}),
    );
    c.wait_for("document.readyState === 'complete' && !!document.getElementById('filters')");
    assert_eq!(shown_rows(&mut c), numbers(&|_| true));
    let set = |c: &mut Chromium, id: &str, value: &str| {
        c.eval(&format!(
            "(() => {{ const e = document.getElementById({id}); e.value = {value}; \
             e.dispatchEvent(new Event('change')); return e.value; }})()",
            id = json!(id),
            value = json!(value)
        ))
    };
    // The games random lost, with either colour, then as Black only.
    assert_eq!(set(&mut c, "f-engine", "random"), json!("random"));
    set(&mut c, "f-outcome", "lost");
    assert_eq!(shown_rows(&mut c), lost_by_random);
    let status = c.eval("document.getElementById('f-status').textContent");
    assert_eq!(
        status,
        json!(format!(
            "{} of the {} listed games.",
            lost_by_random.len(),
            games.len()
        ))
    );
    set(&mut c, "f-colour", "black");
    assert_eq!(
        shown_rows(&mut c),
        numbers(&|g| g.2 == "random" && g.3 == "1-0")
    );
    shot(&mut c, &dir, "games-filtered.png");
    // Show all, then by result and termination.
    c.click("#f-reset");
    assert_eq!(shown_rows(&mut c), numbers(&|_| true));
    set(&mut c, "f-result", "0-1");
    let termination = games.iter().find(|g| g.3 == "0-1").unwrap().4.clone();
    set(&mut c, "f-termination", &termination);
    assert_eq!(
        shown_rows(&mut c),
        numbers(&|g| g.3 == "0-1" && g.4 == termination)
    );
    c.click("#f-reset");
    // A click on Plies sorts by it (ties by number), a second click the other way.
    c.click("table.games thead th:nth-child(6)");
    let mut by_plies = games.clone();
    by_plies.sort_by_key(|g| (g.5, g.0));
    let ascending: Vec<u64> = by_plies.iter().map(|g| g.0).collect();
    assert_eq!(shown_rows(&mut c), ascending);
    c.click("table.games thead th:nth-child(6)");
    let mut descending = ascending.clone();
    descending.reverse();
    assert_eq!(shown_rows(&mut c), descending);
    assert_eq!(
        c.eval(
            "document.querySelector('table.games thead th:nth-child(6)').getAttribute('aria-sort')"
        ),
        json!("descending")
    );
    drop(c);
    let _ = std::fs::remove_dir_all(&dir);
}
