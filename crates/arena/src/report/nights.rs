//! The nights of a nightly root and the series they belong to.
//!
//! A night is a tournament folder that `scripts/nightly.sh` made: it holds a `night.json`
//! ([`NightRecord`]) whose date is a real `YYYY-MM-DD` date equal to the folder's name, beside
//! the tournament's `tournament.json` and `ratings.json`. Any other folder of the root (a copied
//! tournament, a quick try, a shard) is skipped with the reason, never taken for a night.
//!
//! A night belongs to a [`Series`]: a hash of what makes ratings comparable from one night to
//! the next — the config's name, rules, seed, pairs, limits, clock, the adjudication cap, the
//! pairing mode and the anchor (its label, rating and spec). The engine set is not part of it:
//! engines join and leave a series, and an engine's track is its label and spec, so a changed
//! spec starts a new track. Nights are ordered by their recorded date, never by folder name.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::records::build::{Builds, short_hash};
use crate::records::files::{MAX_SMALL_FILE, read_bounded};
use crate::report::html::{Delta, HistoryPoint, NightNav, NightRef, TournamentPage};
use crate::report::ratings_json::RatingsJson;
use crate::run::MatchSetup;
use crate::util::time::is_date;

/// The marker `scripts/nightly.sh` writes into a night's folder.
pub const NIGHT_FILE: &str = "night.json";

/// The commits since the previous night of the series, one `<short hash> <subject>` a line,
/// written by `scripts/nightly.sh` beside [`NIGHT_FILE`].
pub const COMMITS_FILE: &str = "commits.txt";

/// The most lines of [`COMMITS_FILE`] a page shows.
pub const MAX_COMMITS: usize = 50;

/// The most engines a night's rating list may have: far more than a nightly tournament plays
/// (a round robin of 1,000 engines is half a million pairings), and the pages of a night stay
/// small. A `ratings.json` with more is no night's, and is skipped with why.
pub const MAX_NIGHT_ENGINES: usize = 1_000;

/// `night.json`: what `scripts/nightly.sh` records about a night it made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NightRecord {
    /// The night's date, `YYYY-MM-DD`; the folder's name must be the same.
    pub night: String,
    /// The commit the night was built from (40 hex digits), or "unknown".
    #[serde(default)]
    pub commit: Option<String>,
    /// What made it ("scripts/nightly.sh").
    #[serde(default)]
    pub made_by: Option<String>,
}

/// The conditions that make ratings comparable across nights.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Series {
    /// A hash of the conditions, 16 hex digits.
    pub key: String,
    /// One line saying what they are, e.g. "nightly: 100 pairs, seed 1, rules standard, …".
    pub description: String,
}

/// One night: its date, its record, its ratings and setup, and its series.
#[derive(Clone, Debug)]
pub struct Night {
    /// The date, which is also the folder's name.
    pub date: String,
    /// Its `night.json`.
    pub record: NightRecord,
    /// Its `ratings.json`.
    pub ratings: RatingsJson,
    /// Its `tournament.json`.
    pub setup: MatchSetup,
    /// Its series.
    pub series: Series,
    /// The commits since the previous night ([`COMMITS_FILE`], at most [`MAX_COMMITS`] lines),
    /// and how many lines the file had; None without the file.
    pub commits: Option<(Vec<String>, usize)>,
}

/// The nights of one series, oldest first.
#[derive(Clone, Debug)]
pub struct SeriesNights {
    /// The series.
    pub series: Series,
    /// Its nights, by date.
    pub nights: Vec<Night>,
}

impl SeriesNights {
    /// The date of its newest night.
    pub fn newest(&self) -> &str {
        self.nights.last().map_or("", |n| n.date.as_str())
    }
}

/// A nightly root read: its series, the one with the newest night first, and what was skipped.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// Every series with its nights; the newest night's series first.
    pub series: Vec<SeriesNights>,
    /// Each folder that is not a night, with why ("quick-try: no night.json (…)").
    pub skipped: Vec<String>,
}

impl Scan {
    /// The series holding the night `date`, and the night's index in it.
    pub fn find(&self, date: &str) -> Option<(&SeriesNights, usize)> {
        self.series
            .iter()
            .find_map(|s| s.nights.iter().position(|n| n.date == date).map(|i| (s, i)))
    }
}

/// The series of a tournament from its record and ratings.
pub fn series_of(setup: &MatchSetup, r: &RatingsJson) -> Series {
    let t = &r.tournament;
    let name = t.series.clone().unwrap_or_else(|| "tournament".to_string());
    let specs = setup.all.as_ref().map(|a| a.engines.as_slice());
    let anchor_spec = specs
        .and_then(|e| e.iter().find(|(label, _)| *label == t.anchor))
        .map(|(_, spec)| spec.clone())
        .unwrap_or_default();
    let limits = setup.limits().to_string();
    let input = serde_json::json!({
        "name": name,
        "rules": setup.rules,
        "seed": setup.seed,
        "pairs": setup.pairs,
        "limits": limits,
        "tc": setup.tc.map(|tc| tc.to_string()),
        "timemargin_ms": setup.timemargin_ms,
        "max_plies": setup.max_plies,
        "mode": t.mode,
        "anchor": t.anchor,
        "anchor_elo": t.anchor_elo,
        "anchor_spec": anchor_spec,
        "omniscient": setup.all.as_ref().map(|a| a.omniscient.clone()),
    });
    let key = format!("{:016x}", crate::records::fnv(&input.to_string()));
    let clock = setup.tc.map_or(String::new(), |tc| format!(", tc={tc}"));
    Series {
        key,
        description: format!(
            "{name}: {} pair{}, seed {}, rules {}, {limits}{clock}, anchor {} = {}",
            setup.pairs,
            if setup.pairs == 1 { "" } else { "s" },
            setup.seed,
            setup.rules.name,
            t.anchor,
            t.anchor_elo
        ),
    }
}

/// Reads a JSON file of at most [`MAX_SMALL_FILE`] (`ratings.json` may be larger: 64 MiB).
fn read_json<T: serde::de::DeserializeOwned>(path: &Path, max: u64) -> Result<T, String> {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().to_string());
    let text = read_bounded(path, max).map_err(|e| format!("{name}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))
}

/// The night in `folder`, or why it is not one.
///
/// # Errors
/// A sentence naming what is missing or wrong: no `night.json` (not made by nightly.sh), a
/// date that is not a real date or not the folder's name, a shard, a file that cannot be read.
pub fn read_night(folder: &Path) -> Result<Night, String> {
    let name = folder
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().to_string());
    let marker = folder.join(NIGHT_FILE);
    // Only a missing marker is "no night.json": a folder, pipe or device there is named as what
    // it is by the reader, which never opens a pipe to wait on it.
    if std::fs::metadata(&marker).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        return Err(format!(
            "no {NIGHT_FILE}: not a night made by scripts/nightly.sh"
        ));
    }
    let record: NightRecord = read_json(&marker, MAX_SMALL_FILE)?;
    if !is_date(&record.night) {
        return Err(format!(
            "{NIGHT_FILE} records the night {:?}, not a YYYY-MM-DD date",
            record.night
        ));
    }
    if record.night != name {
        return Err(format!(
            "{NIGHT_FILE} records the night {}, but the folder is named {name:?} (a copied folder?)",
            record.night
        ));
    }
    let ratings: RatingsJson = read_json(&folder.join("ratings.json"), 64 << 20)
        .map_err(|e| format!("the tournament is not rated yet or cannot be read ({e})"))?;
    if ratings.shard.is_some() {
        return Err("a shard's ratings, not a night's".to_string());
    }
    if ratings.engines.len() > MAX_NIGHT_ENGINES {
        return Err(format!(
            "ratings.json rates {} engines, and a night has at most {MAX_NIGHT_ENGINES}",
            ratings.engines.len()
        ));
    }
    let setup: MatchSetup = read_json(&folder.join("tournament.json"), MAX_SMALL_FILE)?;
    let series = series_of(&setup, &ratings);
    let commits = read_bounded(&folder.join(COMMITS_FILE), 256 << 10)
        .ok()
        .map(|text| {
            let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            let shown = lines
                .iter()
                .take(MAX_COMMITS)
                .map(|l| crate::util::text::printable(l))
                .collect();
            (shown, lines.len())
        });
    Ok(Night {
        date: record.night.clone(),
        record,
        ratings,
        setup,
        series,
        commits,
    })
}

/// Reads every folder of `root`: the nights by series, and what is not a night with why.
/// Loose files (`index.html`, `cron.log`) are not folders and are passed over in silence.
pub fn scan(root: &Path) -> Scan {
    let mut by_series: Vec<SeriesNights> = Vec::new();
    let mut series_index: HashMap<String, usize> = HashMap::new();
    let mut skipped = Vec::new();
    let real_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let mut folders: Vec<_> = std::fs::read_dir(root)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().is_dir())
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    folders.sort();
    for folder in folders {
        let name = folder
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().to_string());
        let night = match outside(&real_root, &folder) {
            Some(why) => Err(why),
            None => read_night(&folder),
        };
        match night {
            Ok(night) => match series_index.get(&night.series.key) {
                Some(&k) => by_series[k].nights.push(night),
                None => {
                    series_index.insert(night.series.key.clone(), by_series.len());
                    by_series.push(SeriesNights {
                        series: night.series.clone(),
                        nights: vec![night],
                    });
                }
            },
            Err(why) => skipped.push(format!("{}: {why}", crate::util::text::printable(&name))),
        }
    }
    for s in &mut by_series {
        s.nights.sort_by(|a, b| a.date.cmp(&b.date));
    }
    by_series.sort_by(|a, b| {
        b.newest()
            .cmp(a.newest())
            .then(a.series.key.cmp(&b.series.key))
    });
    Scan {
        series: by_series,
        skipped,
    }
}

/// Where `path` leads once every link is followed: the file or folder it names, or for one not
/// made yet, the real folder it would be made in and its name. A dangling link leads to the
/// file it would make.
///
/// # Errors
/// The path cannot be looked at, or its links loop; the message names it.
pub fn real_place(path: &Path) -> std::io::Result<PathBuf> {
    let target = crate::records::files::resolve(path)?;
    let end = target.path();
    match std::fs::canonicalize(end) {
        Ok(real) => Ok(real),
        Err(_) => {
            let folder = end
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let name = end.file_name().unwrap_or_default();
            Ok(std::fs::canonicalize(folder)?.join(name))
        }
    }
}

/// Why `path` (in the root whose real path is `real_root`) is not to be read or written as
/// part of the root: it leads outside it through a link; None when it stays inside.
pub fn outside(real_root: &Path, path: &Path) -> Option<String> {
    match real_place(path) {
        Ok(real) if real.starts_with(real_root) => None,
        Ok(real) => Some(format!(
            "a link to {}, outside {}",
            crate::util::text::printable(&real.display().to_string()),
            crate::util::text::printable(&real_root.display().to_string())
        )),
        Err(e) => Some(format!("cannot be followed ({e})")),
    }
}

/// Each engine's track over `nights` (oldest first): its name and one point per night it was
/// rated, in the order of first appearance (within a night, by rank), so that an engine keeps
/// its place, and its colour, as nights are added. A track is a label and its spec: when one
/// label has had several specs in these nights, each track's name adds its spec.
pub fn tracks(nights: &[Night]) -> Vec<(String, Vec<HistoryPoint>)> {
    let mut order: Vec<(String, String)> = Vec::new();
    let mut points: HashMap<(String, String), Vec<HistoryPoint>> = HashMap::new();
    for night in nights {
        for e in &night.ratings.engines {
            let key = (e.label.clone(), e.spec.clone());
            let list = points.entry(key.clone()).or_default();
            if list.is_empty() {
                order.push(key);
            }
            list.push(HistoryPoint {
                night: night.date.clone(),
                elo: e.elo,
                lower: e.elo_lower,
                upper: e.elo_upper,
            });
        }
    }
    let mut specs_per_label: HashMap<&str, usize> = HashMap::new();
    for (label, _) in &order {
        *specs_per_label.entry(label.as_str()).or_default() += 1;
    }
    order
        .iter()
        .map(|key| {
            let name = if specs_per_label.get(key.0.as_str()).copied().unwrap_or(0) > 1 {
                format!("{} ({})", key.0, key.1)
            } else {
                key.0.clone()
            };
            (name, points.remove(key).unwrap_or_default())
        })
        .collect()
}

/// Each engine of `night`'s rating list, its change since `previous` (the same label and spec):
/// [`Delta::New`] when it did not play then, [`Delta::Unknown`] when either rating is ±inf or
/// unrated.
pub fn deltas(night: &RatingsJson, previous: &RatingsJson) -> Vec<Delta> {
    let before: HashMap<(&str, &str), &crate::report::ratings_json::RatedEngine> = previous
        .engines
        .iter()
        .map(|p| ((p.label.as_str(), p.spec.as_str()), p))
        .collect();
    night
        .engines
        .iter()
        .map(|e| match before.get(&(e.label.as_str(), e.spec.as_str())) {
            None => Delta::New,
            Some(p) if (e.elo - p.elo).is_finite() => Delta::Elo(e.elo - p.elo),
            Some(_) => Delta::Unknown,
        })
        .collect()
}

/// The file name of a series' index page in the root: `series-<key>.html` (the newest series'
/// page is also `index.html`).
pub fn series_page(series: &Series) -> String {
    format!("series-{}.html", series.key)
}

/// What code played a run, in one line: "code 1a2b3c4d5e6f, dirty · arena sha256 9f8e7d6c5b4a",
/// with how many other builds joined it (a resume or merge allowed to mix them); None for a
/// record older than build records.
pub fn code_line(builds: &Builds) -> Option<String> {
    let b = builds.build.as_ref()?;
    let commit: String = b.commit.chars().take(12).collect();
    let mut s = format!(
        "code {}{} \u{b7} arena sha256 {}",
        crate::util::text::printable(&commit),
        if b.dirty { ", dirty" } else { "" },
        crate::util::text::printable(&short_hash(&b.arena_sha256))
    );
    for e in &b.engines {
        s.push_str(&format!(
            " \u{b7} {} sha256 {}",
            crate::util::text::printable(&e.label),
            crate::util::text::printable(&short_hash(&e.sha256))
        ));
    }
    match builds.later_builds.len() {
        0 => {}
        n => s.push_str(&format!(
            " (and {n} later build{})",
            if n == 1 { "" } else { "s" }
        )),
    }
    Some(s)
}

/// What code played a night, in one line: its recorded build ([`code_line`]), else the commit
/// nightly.sh recorded in `night.json`.
pub fn identity(night: &Night) -> Option<String> {
    code_line(&night.ratings.builds).or_else(|| {
        let commit = night.record.commit.as_deref()?;
        let short: String = commit.chars().take(12).collect();
        Some(format!("code {}", crate::util::text::printable(&short)))
    })
}

/// The links of night `i` of `series`, from a page `to_root` below the root ("../" from a
/// night's report).
pub fn nav(series: &SeriesNights, i: usize, to_root: &str) -> NightNav {
    let link = |j: usize| {
        series.nights.get(j).map(|n| NightRef {
            night: n.date.clone(),
            href: format!("{to_root}{}/report.html", n.date),
        })
    };
    NightNav {
        index: format!("{to_root}{}", series_page(&series.series)),
        previous: i.checked_sub(1).and_then(link),
        next: link(i + 1),
    }
}

/// Adds to `page` what night `i` of `series` shows beside its rating list: the history of the
/// series up to that night, the Δ since the previous night, the links (`to_root`: see
/// [`nav`]), the code identity and the commits since the previous night.
pub fn decorate(page: &mut TournamentPage, series: &SeriesNights, i: usize, to_root: &str) {
    let Some(night) = series.nights.get(i) else {
        return;
    };
    let upto = &series.nights[..=i];
    page.nights = upto.iter().map(|n| n.date.clone()).collect();
    page.history = tracks(upto);
    page.deltas = i
        .checked_sub(1)
        .map(|p| &series.nights[p])
        .map(|prev| (prev.date.clone(), deltas(&night.ratings, &prev.ratings)));
    page.nav = Some(nav(series, i, to_root));
    page.identity = identity(night);
    page.commits = night.commits.clone();
    page.series = Some(series.series.description.clone());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::build::{Build, EngineBinary};

    #[test]
    fn the_code_line_names_commit_dirt_hashes_and_later_builds() {
        assert_eq!(code_line(&Builds::default()), None, "an older record");
        let build = Build {
            version: "0.1.0".into(),
            commit: "0123456789abcdef0123456789abcdef01234567".into(),
            dirty: true,
            arena_sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08".into(),
            engines: vec![EngineBinary {
                label: "<pika>".into(),
                path: "/usr/bin/pika".into(),
                sha256: "unknown".into(),
            }],
        };
        let mut builds = Builds::started_by(build.clone());
        let line = code_line(&builds).unwrap();
        assert!(
            line.starts_with("code 0123456789ab, dirty \u{b7} arena sha256 9f86d081884c"),
            "{line}"
        );
        assert!(line.contains("<pika> sha256 unknown"), "{line}");
        builds.later_builds.push(Build {
            dirty: false,
            ..build
        });
        assert!(code_line(&builds).unwrap().ends_with("(and 1 later build)"));
    }
}
