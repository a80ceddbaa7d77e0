//! The games index (`games.html`) of every match folder, end to end: it lists every game of
//! `games.csv` with its result, its links lead to files that exist, at most ten viewer pages are
//! written (engine failures first), the tournament and leak reports link the indexes of their
//! folders, a merge of shards writes the index one machine writes, long runs list the first
//! 5,000 games, and engine names from outside are escaped.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::{match_args, ok, s, tmp};

/// The most viewer pages written per folder (`report::games_index::MAX_PAGES`).
const MAX_PAGES: usize = 10;

/// One row of `games.csv`: number, red, black, result, reason, plies, captures, reveals.
#[derive(Debug, PartialEq)]
struct CsvGame {
    number: u64,
    red: String,
    black: String,
    result: String,
    reason: String,
    plies: String,
    captures: String,
    reveals: String,
}

fn csv_games(dir: &Path) -> Vec<CsvGame> {
    let mut reader = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            CsvGame {
                number: r[0].parse().unwrap(),
                red: r[4].to_string(),
                black: r[5].to_string(),
                result: r[6].to_string(),
                reason: r[7].to_string(),
                plies: r[8].to_string(),
                captures: r[9].to_string(),
                reveals: r[10].to_string(),
            }
        })
        .collect()
}

/// HTML text back to plain text (what the index escapes).
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The text between `start` and the next `end` after it, in `line`, from `from` on.
fn between<'a>(line: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = line.find(start)? + start.len();
    let j = line[i..].find(end)?;
    Some(&line[i..i + j])
}

/// The cells of a game row, as `CsvGame` reads them (the labels from their tooltips).
fn row_game(line: &str) -> CsvGame {
    let number = between(line, "id=\"game-", "\"").unwrap().parse().unwrap();
    let mut labels = line.split("<td class=\"l engine\" title=\"").skip(1);
    let mut label = || unescape(labels.next().unwrap().split('"').next().unwrap());
    let (red, black) = (label(), label());
    // After the two labels: result, termination, plies, reveals / captures.
    let cells: Vec<&str> = line
        .rsplit("<td class=\"l engine\"")
        .next()
        .unwrap()
        .split("<td")
        .skip(1)
        .map(|c| {
            let c = &c[c.find('>').unwrap() + 1..];
            &c[..c.find("</td>").unwrap()]
        })
        .collect();
    let termination = cells[1].split(' ').next().unwrap().to_string();
    let (reveals, captures) = cells[3].split_once(" / ").unwrap();
    CsvGame {
        number,
        red,
        black,
        result: unescape(cells[0]),
        reason: termination,
        plies: cells[2].to_string(),
        captures: captures.to_string(),
        reveals: reveals.to_string(),
    }
}

/// The index of a match folder: its rows, every link it makes, its text.
struct Index {
    rows: Vec<CsvGame>,
    /// Links to files (not `#` anchors), unescaped.
    links: Vec<String>,
    /// Game numbers whose row links a viewer page.
    viewed: BTreeSet<u64>,
    html: String,
    /// The data the page embeds for relinking.
    data: String,
}

fn index(dir: &Path) -> Index {
    let page = std::fs::read_to_string(dir.join("games.html"))
        .unwrap_or_else(|e| panic!("{}/games.html: {e}", dir.display()));
    // What the page shows, apart from the data it embeds for relinking (a JSON text in which no
    // `<` is left raw, so nothing in it can close its script).
    let open = "<script type=\"application/json\" id=\"index-data\">";
    let (html, data) = match page.split_once(open) {
        Some((before, rest)) => {
            let (data, after) = rest.split_once("</script>").unwrap();
            (format!("{before}{after}"), data.to_string())
        }
        None => (page, String::new()),
    };
    assert!(!data.contains('<'), "{data}");
    // Nor the page's own script (the filters and sorting), fixed text that holds no data.
    let html = match html.split_once("<script>\n") {
        Some((before, rest)) => {
            let (script, after) = rest.split_once("</script>").unwrap();
            assert!(
                script.starts_with("// The games index's filters"),
                "{script}"
            );
            format!("{before}{after}")
        }
        None => html,
    };
    let rows: Vec<&str> = html
        .lines()
        .filter(|l| l.starts_with("<tr class=\"game-row"))
        .collect();
    let viewed = rows
        .iter()
        .filter(|l| l.contains(">view</a>"))
        .map(|l| row_game(l).number)
        .collect();
    Index {
        rows: rows.iter().map(|l| row_game(l)).collect(),
        links: links(&html),
        viewed,
        html,
        data,
    }
}

/// Every `href` of a page that is not an anchor, unescaped.
fn links(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .map(|h| unescape(&h[..h.find('"').unwrap()]))
        .filter(|h| !h.starts_with('#'))
        .collect()
}

/// Asserts that every link of a page in `dir` leads to a file or folder that exists.
#[track_caller]
fn links_resolve(dir: &Path, links: &[String]) {
    assert!(!links.is_empty());
    for l in links {
        assert!(
            dir.join(l).exists(),
            "{}: a link to {l} leads nowhere",
            dir.display()
        );
    }
}

/// The viewer pages of a folder, by game number.
fn pages(dir: &Path) -> BTreeSet<u64> {
    let Ok(entries) = std::fs::read_dir(dir.join("games")) else {
        return BTreeSet::new();
    };
    entries
        .map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_prefix("game-")
                .and_then(|n| n.strip_suffix(".html"))
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{name} is no viewer page"))
        })
        .collect()
}

/// Checks the index of match folder `dir` against its `games.csv`: one row per game with the
/// same cells, links that resolve, the viewer pages it links exactly those on disk, at most
/// [`MAX_PAGES`] of them, and the command for every other game.
#[track_caller]
fn check_folder(dir: &Path) -> Index {
    let ix = index(dir);
    let games = csv_games(dir);
    assert!(!games.is_empty(), "{}", dir.display());
    assert_eq!(ix.rows, games, "{}", dir.display());
    links_resolve(dir, &ix.links);
    let on_disk = pages(dir);
    assert_eq!(ix.viewed, on_disk, "{}", dir.display());
    assert_eq!(
        on_disk.len(),
        games.len().min(MAX_PAGES),
        "{}",
        dir.display()
    );
    for g in games.iter().filter(|g| !on_disk.contains(&g.number)) {
        // Its `--game N` kept on one line when the command wraps.
        let command = format!(
            "arena view {} <span class=\"nw\">--game {}</span></code>",
            dir.display(),
            g.number
        );
        assert!(ix.html.contains(&command), "{command}");
    }
    ix
}

#[test]
fn a_match_folder_lists_every_game_and_pages_the_first_ten() {
    let dir = tmp("match");
    let out = dir.join("m");
    let text = ok(&match_args(
        "greedy",
        "level:easy",
        "8",
        &["--seed", "3", "--out", s(&out)],
    ));
    assert!(
        text.contains(&format!(
            "Games: {} (16 games, 10 with a viewer page)",
            out.join("games.html").display()
        )),
        "{text}"
    );
    check_folder(&out);
    // No failures: the lowest numbers.
    assert_eq!(pages(&out), (1..=10).collect());
}

#[test]
fn engine_failures_get_their_viewer_pages_first() {
    let dir = tmp("failures");
    let out = dir.join("m");
    crate::common::played(&match_args(
        "greedy",
        "faulty:mode=error,after=30",
        "12",
        &["--seed", "4", "--out", s(&out)],
    ));
    check_folder(&out);
    let games = csv_games(&out);
    let failed: BTreeSet<u64> = games
        .iter()
        .filter(|g| g.reason == "engine-error")
        .map(|g| g.number)
        .collect();
    // Enough failures, some beyond the first ten, for the order to show.
    assert!(
        (1..MAX_PAGES).contains(&failed.len()) && failed.iter().any(|&n| n > 10),
        "{failed:?}"
    );
    let lowest = games
        .iter()
        .map(|g| g.number)
        .filter(|n| !failed.contains(n))
        .take(MAX_PAGES - failed.len());
    let expected: BTreeSet<u64> = failed.iter().copied().chain(lowest).collect();
    assert_eq!(pages(&out), expected);
    let ix = index(&out);
    assert_eq!(
        ix.html.matches("<tr class=\"game-row failed\"").count(),
        failed.len()
    );
}

#[test]
fn tournament_and_leak_reports_link_every_folders_index() {
    let dir = tmp("tournament");
    let out = dir.join("t");
    let text = ok(&[
        "tournament",
        "--engine",
        "greedy",
        "--engine",
        "level:easy",
        "--engine",
        "random",
        "--pairs",
        "3",
        "--bootstrap",
        "100",
        "--out",
        s(&out),
    ]);
    assert!(text.contains("Games: "), "{text}");
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    let linked: Vec<String> = links(&report)
        .into_iter()
        .filter(|l| l.ends_with("/games.html"))
        .collect();
    assert_eq!(linked.len(), 3, "{linked:?}");
    links_resolve(&out, &links(&report));
    for l in &linked {
        check_folder(out.join(l).parent().unwrap());
    }
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    for l in &linked {
        assert!(md.contains(&format!("({l})")), "{l}: {md}");
    }
    // The tournament's own folder has no index: its games are in its pairings' folders.
    assert!(!out.join("games.html").exists());

    let leak = dir.join("leak");
    let text = ok(&[
        "leak",
        "--engine",
        "greedy",
        "--opponent",
        "random",
        "--pairs",
        "3",
        "--bootstrap",
        "100",
        "--out",
        s(&leak),
    ]);
    assert!(
        text.contains(&format!(
            "Games: {}",
            leak.join("arms/*/*/games.html").display()
        )),
        "{text}"
    );
    let md = std::fs::read_to_string(leak.join("leak.md")).unwrap();
    let arms: Vec<String> = md
        .split("](")
        .skip(1)
        .map(|l| l[..l.find(')').unwrap()].to_string())
        .filter(|l| l.ends_with("games.html"))
        .collect();
    assert_eq!(arms.len(), 3, "{md}");
    for arm in &arms {
        check_folder(leak.join(arm).parent().unwrap());
    }
}

#[test]
fn a_merge_of_shards_writes_one_machines_index() {
    let dir = tmp("merge");
    let base = match_args(
        "greedy",
        "faulty:mode=error,after=30",
        "12",
        &["--seed", "4"],
    );
    let run = |out: &Path, extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(&["--out", s(out)]);
        args.extend_from_slice(extra);
        crate::common::played(&args);
    };
    let single = dir.join("single");
    run(&single, &["--threads", "2"]);
    let shards: Vec<PathBuf> = (0..3)
        .map(|k| {
            let out = dir.join(format!("shard-{k}"));
            run(&out, &["--threads", "1", "--shard", &format!("{k}/3")]);
            // A shard's own folder has its index too.
            check_folder(&out);
            out
        })
        .collect();
    let merged = dir.join("merged");
    crate::common::played(&[
        "merge",
        s(&shards[2]),
        s(&shards[0]),
        s(&shards[1]),
        "--out",
        s(&merged),
    ]);
    check_folder(&merged);
    // The same page but for the folder's name in the commands and titles.
    let page = |d: &Path| index(d).html.replace(&d.display().to_string(), "DIR");
    assert_eq!(page(&single), page(&merged));
    // The embedded page too; the journals' sizes differ with their times.
    let data = |d: &Path| {
        let data = index(d).data.replace(&d.display().to_string(), "DIR");
        data[data.find("\"page\":").unwrap()..].to_string()
    };
    assert_eq!(data(&single), data(&merged));
    assert_eq!(pages(&single), pages(&merged));
}

#[test]
fn long_runs_list_the_first_5000_games() {
    let dir = tmp("long");
    let out = dir.join("m");
    let text = ok(&match_args(
        "random",
        "random:name=r2",
        "2501",
        &["--max-plies", "2", "--out", s(&out)],
    ));
    assert!(
        text.contains("(5002 games, the first 5000 listed, 10 with a viewer page)"),
        "{text}"
    );
    let ix = index(&out);
    assert_eq!(ix.rows.len(), 5000);
    let games = csv_games(&out);
    assert_eq!(ix.rows[..], games[..5000]);
    assert!(
        ix.html
            .contains("The first 5000 of 5002 games; the rest are in games.csv")
    );
    assert_eq!(pages(&out).len(), MAX_PAGES);
}

#[test]
fn hostile_engine_names_are_escaped() {
    let dir = tmp("hostile");
    let nasty = "</script><img src=x onerror=alert(1)>&\"'";
    let engine = dir.join("nasty.json");
    std::fs::write(
        &engine,
        serde_json::json!({"name": nasty, "engine": "greedy"}).to_string(),
    )
    .unwrap();
    let out = dir.join("m <u>'x'</u>");
    ok(&match_args(s(&engine), "random", "6", &["--out", s(&out)]));
    let ix = index(&out);
    assert!(!ix.html.contains("<img"), "{}", ix.html);
    assert!(!ix.html.contains("</script>"), "{}", ix.html);
    assert!(!ix.html.contains("<u>"), "{}", ix.html);
    assert!(
        ix.html
            .contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39;")
    );
    assert_eq!(ix.rows, csv_games(&out));
    // The command of a game without a page quotes the folder for the shell.
    assert!(
        ix.html.contains("arena view &#39;/") && ix.html.contains("m &lt;u&gt;&#39;\\&#39;&#39;x"),
        "{}",
        ix.html
    );
    links_resolve(&out, &ix.links);
}

#[test]
fn a_gate_lists_the_pairs_beyond_its_stop_as_not_counted() {
    // Every pair fails: the gate stops after its first pair, while the other threads' pairs
    // finish beyond the stop (kept in games.jsonl, not in games.csv).
    let dir = tmp("gate");
    let out = dir.join("g");
    let o = crate::common::arena(&[
        "sprt",
        "--engine",
        "greedy",
        "--engine",
        "faulty:mode=panic,after=2",
        "--elo0",
        "0",
        "--elo1",
        "10",
        "--threads",
        "4",
        "--out",
        s(&out),
    ]);
    assert_eq!(
        o.status.code(),
        Some(5),
        "{}",
        crate::common::text(&o.stderr)
    );
    let ix = index(&out);
    let counted: BTreeSet<u64> = csv_games(&out).iter().map(|g| g.number).collect();
    let journal = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert_eq!(ix.rows.len(), journal.lines().count());
    let rows: Vec<&str> = ix
        .html
        .lines()
        .filter(|l| l.starts_with("<tr class=\"game-row"))
        .collect();
    let mut beyond = 0;
    for (row, line) in ix.rows.iter().zip(&rows) {
        let marked = line.contains("not counted");
        assert_eq!(marked, !counted.contains(&row.number), "{line}");
        beyond += usize::from(marked);
    }
    assert_eq!(beyond, ix.rows.len() - counted.len());
    if beyond > 0 {
        assert!(ix.html.contains("not in games.csv"), "{}", ix.html);
    }
    // Every game failed: each counted one has its page, none beyond the stop.
    assert_eq!(pages(&out), counted);
    links_resolve(&out, &ix.links);
}
