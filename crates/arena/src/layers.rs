//! The arena's layering, checked: every module of `src/` belongs to a layer (its top folder), and
//! a module may use only modules of its own layer or of lower ones, never in a circle.
//!
//! From the bottom up: `error` and `util` (helpers every layer may use), `stats` (pure
//! statistics), `records` (what a run writes and reads back), `engines` (engine entries, the UCI
//! client), `run` (the run core: setup, execution, scheduler, scoreboard, one game), `analysis` (a game studied after the fact), `report` (what
//! a person reads), `cli` (raw arguments), `plan` (validated arguments), `commands` (one per
//! command). `main.rs` is the binary and sits above them all.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first.
const LAYERS: [&str; 12] = [
    "error", "util", "stats", "records", "engines", "run", "analysis", "tuning", "report", "cli",
    "plan", "commands",
];

/// One module's source: its path (`run::setup`) and text.
struct Source {
    module: String,
    text: String,
}

/// Reads every module of the crate's `src/` (not `main.rs`, the binary).
fn sources(dir: &Path, prefix: &[String], out: &mut Vec<Source>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("src/ entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("UTF-8 file names")
            .to_string();
        if path.is_dir() {
            let mut p = prefix.to_vec();
            p.push(name);
            sources(&path, &p, out);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            if prefix.is_empty() && (stem == "main" || stem == "lib") {
                continue;
            }
            let mut p = prefix.to_vec();
            if prefix.is_empty() && stem == "layers" {
                continue;
            }
            if stem != "mod" {
                p.push(stem.to_string());
            }
            out.push(Source {
                module: p.join("::"),
                text: std::fs::read_to_string(&path).expect("readable source"),
            });
        }
    }
}

/// The code of a source file without comments (so doc links are not dependencies) and without
/// its `#[cfg(test)]` tail (a test module may use anything).
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The modules a source uses: every `crate::a::b…` path in its code (in `use` lines and inline),
/// resolved to the longest known module, a folder's glob re-export (`pub use x::*`) followed.
fn uses(
    code: &str,
    modules: &BTreeSet<String>,
    reexports: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        // The path, including a `{a, b::c}` group: each member is a path of its own.
        let head: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let mut paths = vec![head.trim_end_matches(':').to_string()];
        if head.ends_with("::") && rest[head.len()..].starts_with('{') {
            let group = &rest[head.len() + 1..];
            let end = matching_brace(group);
            for member in split_top_level(&group[..end]) {
                let member = member.trim();
                let member: String = member
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                if !member.is_empty() && member != "self" {
                    paths.push(format!("{}{}", head, member));
                }
            }
        }
        for path in paths {
            let parts: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            let mut best = None;
            for n in (1..=parts.len()).rev() {
                let candidate = parts[..n].join("::");
                if modules.contains(&candidate) {
                    // A name that is not a child module, in a folder that re-exports one of its
                    // children flat, is that child's.
                    best = Some(match reexports.get(&candidate) {
                        Some(child) if n < parts.len() => child.clone(),
                        _ => candidate,
                    });
                    break;
                }
            }
            if let Some(m) = best {
                found.insert(m);
            }
        }
    }
    found
}

fn matching_brace(s: &str) -> usize {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            _ => {}
        }
    }
    s.len()
}

fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

fn layer(module: &str) -> Option<usize> {
    let top = module.split("::").next().unwrap_or("");
    LAYERS.iter().position(|l| *l == top)
}

/// Every violation: a module of an unknown layer, a lower layer using a higher one, and each
/// circle of modules using each other.
fn violations(sources: &[Source]) -> Vec<String> {
    let modules: BTreeSet<String> = sources.iter().map(|s| s.module.clone()).collect();
    let reexports: BTreeMap<String, String> = sources
        .iter()
        .filter_map(|s| {
            s.text.lines().find_map(|l| {
                let l = l.trim();
                let child = l.strip_prefix("pub use ")?.strip_suffix("::*;")?;
                let full = format!("{}::{child}", s.module);
                modules.contains(&full).then(|| (s.module.clone(), full))
            })
        })
        .collect();
    let mut errors = Vec::new();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in sources {
        let Some(own) = layer(&s.module) else {
            errors.push(format!(
                "{}: not in a layer (top folders: {})",
                s.module,
                LAYERS.join(", ")
            ));
            continue;
        };
        let mut deps = uses(&code(&s.text), &modules, &reexports);
        deps.remove(&s.module);
        for d in &deps {
            if let Some(l) = layer(d)
                && l > own
            {
                errors.push(format!(
                    "{} (layer {}) uses {} of the higher layer {}",
                    s.module, LAYERS[own], d, LAYERS[l]
                ));
            }
        }
        // A folder's own module (mod.rs) declares and re-exports its children: not a use.
        deps.retain(|d| !d.starts_with(&format!("{}::", s.module)));
        graph.insert(s.module.clone(), deps);
    }
    for circle in circles(&graph) {
        errors.push(format!(
            "modules that use each other in a circle: {}",
            circle.join(", ")
        ));
    }
    errors
}

/// The strongly connected components of more than one module, each as a path that closes.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Tarjan's algorithm, recursive: the graph has a few dozen nodes.
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        next: usize,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(ws) = s.graph.get(v) {
            for w in ws {
                let w = w.as_str();
                if !s.graph.contains_key(w) {
                    continue;
                }
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if s.on_stack.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.reverse();
                let first = component[0].clone();
                component.push(first);
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

#[test]
fn modules_use_only_their_own_and_lower_layers_and_never_in_a_circle() {
    let mut all = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &[],
        &mut all,
    );
    assert!(all.len() > 40, "read {} modules", all.len());
    let errors = violations(&all);
    assert!(
        errors.is_empty(),
        "layering violations:\n{}",
        errors.join("\n")
    );
}

#[test]
fn the_check_finds_a_wrong_import_and_a_circle() {
    let src = |module: &str, text: &str| Source {
        module: module.into(),
        text: text.into(),
    };
    let files = vec![
        src("records", "pub mod games;\npub use games::*;\n"),
        src("records::games", "use crate::run::execute;\n"),
        src("run", "pub mod execute;\n"),
        src(
            "run::execute",
            "use crate::records::{GameLine, journal::Journal};\n",
        ),
        src(
            "records::journal",
            "fn f() { crate::records::games::x(); }\n",
        ),
        src(
            "stats::elo",
            "// crate::commands::x is a comment\nuse crate::error::Error;\n",
        ),
        src("error", ""),
        src("commands", ""),
    ];
    let errors = violations(&files);
    assert!(
        errors.contains(
            &"records::games (layer records) uses run::execute of the higher layer run".to_string()
        ),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(
            |e| e.starts_with("modules that use each other in a circle: ")
                && e.contains("records::games")
                && e.contains("run::execute")
        ),
        "{errors:?}"
    );
    assert_eq!(errors.len(), 2, "{errors:?}");
}
