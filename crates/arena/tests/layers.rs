//! The arena's layering, checked: every module of `src/` belongs to a layer (its top folder), and
//! a module may use only modules of its own layer or of lower ones, never in a circle.
//!
//! From the bottom up: `error` and `util` (helpers every layer may use), `stats` (pure
//! statistics), `records` (what a run writes and reads back), `engines` (engine entries, the UCI
//! client), `run` (the run core: setup, execution, scheduler, scoreboard, one game), `analysis` (a
//! game studied after the fact), `report` (what a person reads), `cli` (raw arguments), `plan`
//! (validated arguments), `commands` (one per command). `main.rs` is the binary and sits above
//! them all.
//!
//! The check parses the crate with `syn`, as the compiler sees it: from `lib.rs` it follows each
//! `mod` declaration to its file, skips every item under `#[cfg(test)]` (that item only, not the
//! rest of its file), and reads every `use` (grouped, renamed, glob) and every path of two or more
//! segments in the code and in macro bodies. A path is resolved as the compiler would: `crate::`,
//! `self::` and `super::` from the module it is written in, a first segment through that module's
//! children, items and imports, then each segment through the next module's, following its
//! re-exports (`pub use`, by name or by glob) to the module that defines the item. A module uses
//! every module its paths go through and the one they end in. Comments and strings are not code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::visit::{self, Visit};
use syn::{Attribute, ImplItem, Item, Meta, TraitItem, UseTree};

/// The layers, lowest first.
const LAYERS: &[&str] = &[
    "error", "util", "stats", "records", "engines", "run", "analysis",
    // The evaluation tuner: above analysis, below report.
    "tuning", "report", "cli", "plan", "commands",
];

/// One module (a file or an inline `mod x { … }`), as far as the check needs it.
#[derive(Default)]
struct Module {
    /// The file it is written in, relative to `src/`.
    file: String,
    /// Its child modules' names.
    children: BTreeSet<String>,
    /// The names of the items it defines (functions, types, constants, traits, macros).
    items: BTreeSet<String>,
    /// Its `use` declarations: the path, the name bound (`None` for a glob) and the line.
    imports: Vec<(Vec<String>, Option<String>, usize)>,
    /// The paths of two or more segments in its code, with their line.
    paths: Vec<(Vec<String>, usize)>,
}

/// Whether an item's attributes put it under `#[cfg(test)]` (or `#[cfg(all(test, …))]`).
fn is_test(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| match &a.meta {
        Meta::List(l) if l.path.is_ident("cfg") => {
            let mut tokens = l.tokens.clone().into_iter();
            match (tokens.next(), tokens.next()) {
                (Some(TokenTree::Ident(i)), None) => i == "test",
                (Some(TokenTree::Ident(i)), Some(TokenTree::Group(g))) if i == "all" => g
                    .stream()
                    .into_iter()
                    .any(|t| matches!(&t, TokenTree::Ident(i) if i == "test")),
                _ => false,
            }
        }
        _ => false,
    })
}

fn item_attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The name an item defines in its module's namespace, if any (`mod` and `use` are kept apart).
fn item_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Const(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::Fn(i) => &i.sig.ident,
        Item::Macro(i) => i.ident.as_ref()?,
        Item::Static(i) => &i.ident,
        Item::Struct(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::TraitAlias(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

fn line(span: Span) -> usize {
    span.start().line
}

/// Each import of a `use` tree: its full path and the name it binds (`None` for a glob).
fn flatten(
    tree: &UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>, usize)>,
) {
    let mut leaf = |prefix: &[String], name: &syn::Ident, bound: Option<String>| {
        let mut path = prefix.to_vec();
        // `use a::{self, b}`: `self` is the prefix itself.
        if name != "self" {
            path.push(name.to_string());
        }
        out.push((path, bound, line(name.span())));
    };
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) => {
            let bound = if n.ident == "self" {
                prefix.last().cloned()
            } else {
                Some(n.ident.to_string())
            };
            leaf(prefix, &n.ident, bound);
        }
        UseTree::Rename(r) => leaf(prefix, &r.ident, Some(r.rename.to_string())),
        UseTree::Glob(g) => out.push((prefix.clone(), None, line(g.star_token.spans[0]))),
        UseTree::Group(g) => g.items.iter().for_each(|t| flatten(t, prefix, out)),
    }
}

/// Reads one file's modules into the crate's table, noting the `mod x;` files still to read.
struct Reader<'a> {
    modules: &'a mut BTreeMap<String, Module>,
    file: String,
    /// The module being read and the folder its `mod x;` files are in.
    stack: Vec<(String, String)>,
    /// Declared modules whose file is still to read: the module and its file's folder and name.
    pending: Vec<(String, String, String)>,
}

impl Reader<'_> {
    fn module(&mut self) -> &mut Module {
        let name = self.stack.last().expect("in a module").0.clone();
        let file = self.file.clone();
        self.modules.entry(name).or_insert_with(|| Module {
            file,
            ..Module::default()
        })
    }

    fn read(&mut self, items: &[Item]) {
        let names: Vec<String> = items
            .iter()
            .filter(|i| !is_test(item_attrs(i)))
            .filter_map(item_name)
            .collect();
        self.module().items.extend(names);
        items.iter().for_each(|i| self.visit_item(i));
    }

    /// Every path of two or more segments in a macro's tokens (the body is not parsed as code).
    fn scan(&mut self, tokens: TokenStream) {
        let mut path: Vec<(String, usize)> = Vec::new();
        let mut colons = 0;
        for t in tokens
            .into_iter()
            .chain([TokenTree::Ident(syn::Ident::new("end", Span::call_site()))])
        {
            match t {
                TokenTree::Punct(p) if p.as_char() == ':' => colons += 1,
                TokenTree::Ident(i) if colons == 2 && !path.is_empty() => {
                    path.push((i.to_string(), line(i.span())));
                    colons = 0;
                }
                t => {
                    if path.len() >= 2 {
                        let at = path[0].1;
                        self.module()
                            .paths
                            .push((path.drain(..).map(|(s, _)| s).collect(), at));
                    }
                    path.clear();
                    colons = 0;
                    match t {
                        TokenTree::Ident(i) => path.push((i.to_string(), line(i.span()))),
                        TokenTree::Group(g) => self.scan(g.stream()),
                        _ => {}
                    }
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Reader<'_> {
    fn visit_item(&mut self, item: &'ast Item) {
        if !is_test(item_attrs(item)) {
            visit::visit_item(self, item);
        }
    }

    fn visit_impl_item(&mut self, item: &'ast ImplItem) {
        let attrs = match item {
            ImplItem::Const(i) => &i.attrs,
            ImplItem::Fn(i) => &i.attrs,
            ImplItem::Type(i) => &i.attrs,
            ImplItem::Macro(i) => &i.attrs,
            _ => return visit::visit_impl_item(self, item),
        };
        if !is_test(attrs) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_trait_item(&mut self, item: &'ast TraitItem) {
        let attrs = match item {
            TraitItem::Const(i) => &i.attrs,
            TraitItem::Fn(i) => &i.attrs,
            TraitItem::Type(i) => &i.attrs,
            TraitItem::Macro(i) => &i.attrs,
            _ => return visit::visit_trait_item(self, item),
        };
        if !is_test(attrs) {
            visit::visit_trait_item(self, item);
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let (parent, dir) = self.stack.last().expect("in a module").clone();
        let name = m.ident.to_string();
        let path = if parent.is_empty() {
            name.clone()
        } else {
            format!("{parent}::{name}")
        };
        let sub = if dir.is_empty() {
            name.clone()
        } else {
            format!("{dir}/{name}")
        };
        self.module().children.insert(name.clone());
        match &m.content {
            None => self.pending.push((path, dir, name)),
            Some((_, items)) => {
                self.stack.push((path, sub));
                self.read(items);
                self.stack.pop();
            }
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut found = Vec::new();
        flatten(&u.tree, &mut Vec::new(), &mut found);
        self.module().imports.extend(found);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.segments.len() >= 2 && p.leading_colon.is_none() {
            let segments = p.segments.iter().map(|s| s.ident.to_string()).collect();
            let at = line(p.segments[0].ident.span());
            self.module().paths.push((segments, at));
        }
        visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        visit::visit_macro(self, m);
        self.scan(m.tokens.clone());
    }
}

/// The crate's modules by path (`run::setup`; the root is `""`), read from `files` (paths
/// relative to `src/`, `lib.rs` the root) by following the `mod` declarations.
fn read_crate(files: &BTreeMap<String, String>) -> BTreeMap<String, Module> {
    let mut modules = BTreeMap::new();
    let mut todo = vec![(String::new(), "lib.rs".to_string(), String::new())];
    while let Some((module, file, dir)) = todo.pop() {
        let text = &files[&file];
        let ast = syn::parse_file(text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut reader = Reader {
            modules: &mut modules,
            file,
            stack: vec![(module, dir)],
            pending: Vec::new(),
        };
        reader.read(&ast.items);
        for (module, dir, name) in reader.pending {
            let at = |f: &str| {
                if dir.is_empty() {
                    f.to_string()
                } else {
                    format!("{dir}/{f}")
                }
            };
            let (flat, folder) = (at(&format!("{name}.rs")), at(&format!("{name}/mod.rs")));
            let file = if files.contains_key(&flat) {
                flat
            } else {
                folder
            };
            assert!(files.contains_key(&file), "{module}: no file {file}");
            todo.push((module, file, at(&name)));
        }
    }
    modules
}

/// What a name or path resolves to: a module, or an item and the module that defines it.
#[derive(Clone)]
enum Found {
    Module(String),
    Item(String),
}

/// A resolution: the modules whose re-exports it went through, and what it found.
type Resolved = (Vec<String>, Found);

/// Resolves paths to the modules they use, as the compiler would (see the module docs).
struct Resolver<'a> {
    modules: &'a BTreeMap<String, Module>,
    /// Each name looked up in a module; `None` while it is being looked up (a circle of glob
    /// imports finds nothing) or when the module has no such name.
    names: BTreeMap<(String, String), Option<Resolved>>,
}

impl Resolver<'_> {
    /// The modules a `path` written in module `from` uses: those whose re-exports it goes
    /// through and the one it ends in. None for a path outside the crate (std, another crate, a
    /// generic parameter).
    fn uses(&mut self, from: &str, path: &[String]) -> Vec<String> {
        let Some((mut via, found)) = self.path(from, path) else {
            return Vec::new();
        };
        via.push(match found {
            Found::Module(m) | Found::Item(m) => m,
        });
        via
    }

    fn path(&mut self, from: &str, path: &[String]) -> Option<Resolved> {
        let (first, mut rest) = path.split_first()?;
        let (mut via, mut found) = match first.as_str() {
            "crate" => (Vec::new(), Found::Module(String::new())),
            "self" => (Vec::new(), Found::Module(from.to_string())),
            "super" => {
                let mut module = from.rsplit_once("::").map_or("", |(parent, _)| parent);
                while let Some((next, tail)) = rest.split_first()
                    && next == "super"
                {
                    module = module.rsplit_once("::").map_or("", |(parent, _)| parent);
                    rest = tail;
                }
                (Vec::new(), Found::Module(module.to_string()))
            }
            _ => self.name(from, first)?,
        };
        for segment in rest {
            let Found::Module(module) = &found else {
                break; // an item's associated item or variant
            };
            let Some((more, next)) = self.name(module, segment) else {
                found = Found::Item(module.clone()); // a name the module does not define: its own
                break;
            };
            via.extend(more);
            found = next;
        }
        Some((via, found))
    }

    /// Looks `name` up in `module`: its children, items, imports, then glob imports.
    fn name(&mut self, module: &str, name: &str) -> Option<Resolved> {
        let key = (module.to_string(), name.to_string());
        if let Some(known) = self.names.get(&key) {
            return known.clone();
        }
        self.names.insert(key.clone(), None);
        let found = self.look_up(module, name);
        self.names.insert(key, found.clone());
        found
    }

    fn look_up(&mut self, module: &str, name: &str) -> Option<Resolved> {
        let m = self.modules.get(module)?;
        if m.children.contains(name) {
            let child = if module.is_empty() {
                name.to_string()
            } else {
                format!("{module}::{name}")
            };
            return Some((Vec::new(), Found::Module(child)));
        }
        if m.items.contains(name) {
            return Some((Vec::new(), Found::Item(module.to_string())));
        }
        if let Some((path, _, _)) = m
            .imports
            .iter()
            .find(|(_, bound, _)| bound.as_deref() == Some(name))
        {
            let (mut via, found) = self.path(module, path)?;
            via.insert(0, module.to_string());
            return Some((via, found));
        }
        let globs: Vec<&Vec<String>> = m
            .imports
            .iter()
            .filter(|(_, b, _)| b.is_none())
            .map(|(p, _, _)| p)
            .collect();
        for path in globs {
            if let Some((mut via, Found::Module(source))) = self.path(module, path)
                && source != module
                && let Some((more, found)) = self.name(&source, name)
            {
                via.insert(0, module.to_string());
                via.push(source);
                via.extend(more);
                return Some((via, found));
            }
        }
        None
    }
}

/// Each module's uses: the modules its imports and paths resolve to, with the first line.
fn uses(modules: &BTreeMap<String, Module>) -> BTreeMap<&str, BTreeMap<String, usize>> {
    let mut resolver = Resolver {
        modules,
        names: BTreeMap::new(),
    };
    let mut all = BTreeMap::new();
    for (name, m) in modules {
        let mut deps: BTreeMap<String, usize> = BTreeMap::new();
        let written = m
            .imports
            .iter()
            .map(|(p, _, l)| (p, l))
            .chain(m.paths.iter().map(|(p, l)| (p, l)));
        for (path, at) in written {
            for d in resolver.uses(name, path) {
                deps.entry(d).or_insert(*at);
            }
        }
        deps.remove(name);
        deps.remove("");
        all.insert(name.as_str(), deps);
    }
    all
}

fn layer(module: &str) -> Option<usize> {
    let top = module.split("::").next().unwrap_or("");
    LAYERS.iter().position(|l| *l == top)
}

/// Every violation: a module of an unknown layer, a lower layer using a higher one (with the
/// file and line of the first such use), and each circle of modules using each other.
fn violations(files: &BTreeMap<String, String>) -> Vec<String> {
    let modules = read_crate(files);
    let mut errors = Vec::new();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, deps) in uses(&modules) {
        if module.is_empty() {
            continue;
        }
        let Some(own) = layer(module) else {
            if !module.contains("::") {
                errors.push(format!(
                    "{module}: not in a layer (top folders: {})",
                    LAYERS.join(", ")
                ));
            }
            continue;
        };
        for (d, at) in &deps {
            if let Some(l) = layer(d)
                && l > own
            {
                errors.push(format!(
                    "{}:{at}: {module} (layer {}) uses {d} of the higher layer {}",
                    modules[module].file, LAYERS[own], LAYERS[l]
                ));
            }
        }
        // A module declares and re-exports its children: not a use.
        let own_children = format!("{module}::");
        graph.insert(
            module.to_string(),
            deps.into_keys()
                .filter(|d| !d.starts_with(&own_children))
                .collect(),
        );
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

/// Every `.rs` file under `dir`, by its path relative to `root` (with `/`).
fn read_files(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("src/ entry").path();
        if path.is_dir() {
            read_files(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path
                .strip_prefix(root)
                .expect("under src/")
                .to_string_lossy()
                .replace('\\', "/");
            out.insert(
                name,
                std::fs::read_to_string(&path).expect("readable source"),
            );
        }
    }
}

#[test]
fn modules_use_only_their_own_and_lower_layers_and_never_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    read_files(&src, &src, &mut files);
    let modules = read_crate(&files);
    assert!(modules.len() > 40, "read {} modules", modules.len());
    let errors = violations(&files);
    assert!(
        errors.is_empty(),
        "layering violations:\n{}",
        errors.join("\n")
    );
}

/// A small crate: a `lib.rs` declaring the layers `error`, `util`, `stats`, `run` and
/// `commands` (each a folder with a `mod.rs`; `commands` has a module `tune` defining `all`),
/// then `files` (path, text), which add files or replace these.
fn small_crate(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    let mut all: BTreeMap<String, String> = [
        (
            "lib.rs",
            "pub mod error; pub mod util; pub mod stats; pub mod run; pub mod commands;",
        ),
        ("error/mod.rs", "pub struct Error;"),
        ("util/mod.rs", "pub fn slug() {}"),
        ("stats/mod.rs", "pub mod elo;"),
        ("stats/elo.rs", ""),
        ("run/mod.rs", "pub fn execute() {}"),
        ("commands/mod.rs", "pub mod tune;"),
        ("commands/tune.rs", "pub fn all() {}"),
    ]
    .into_iter()
    .map(|(f, t)| (f.to_string(), t.to_string()))
    .collect();
    all.extend(files.iter().map(|(f, t)| (f.to_string(), t.to_string())));
    all
}

/// A case of the check: what it shows, files of a small crate and a violation to report.
type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);

#[test]
fn the_check_finds_upward_uses_the_textual_check_missed() {
    // The first seven cases are ways the former textual check was fooled: it accepted each.
    let cases: &[Case] = &[
        (
            "an upward import after a #[cfg(test)] item of the same file",
            &[(
                "stats/elo.rs",
                "#[cfg(test)]\nuse crate::util::slug;\n\nuse crate::commands::tune;\n",
            )],
            "stats/elo.rs:4: stats::elo (layer stats) uses commands::tune of the higher layer commands",
        ),
        (
            "a grouped import",
            &[("stats/elo.rs", "use crate::{commands::tune};\n")],
            "stats/elo.rs:1: stats::elo (layer stats) uses commands::tune",
        ),
        (
            "a grouped and renamed import",
            &[(
                "stats/elo.rs",
                "use crate::{util::slug, commands::{tune::all as tune_all}};\n",
            )],
            "stats::elo (layer stats) uses commands::tune",
        ),
        (
            "a super::super path to an upper layer, in code",
            &[(
                "stats/elo.rs",
                "fn f() {\n    super::super::commands::tune::all();\n}\n",
            )],
            "stats/elo.rs:2: stats::elo (layer stats) uses commands::tune",
        ),
        (
            "an upward use hidden by the crate root's re-export by name",
            &[
                (
                    "lib.rs",
                    "pub mod error; pub mod util; pub mod stats; pub mod run; pub mod commands;\npub use commands::tune::all as tune_all;\n",
                ),
                ("stats/elo.rs", "fn f() { crate::tune_all() }\n"),
            ],
            "stats/elo.rs:1: stats::elo (layer stats) uses commands::tune",
        ),
        (
            "an upward use hidden by the crate root's second glob re-export",
            &[
                (
                    "lib.rs",
                    "pub mod error; pub mod util; pub mod stats; pub mod run; pub mod commands;\npub use util::*;\npub use commands::*;\n",
                ),
                ("commands/mod.rs", "pub mod tune;\npub use tune::*;\n"),
                ("stats/elo.rs", "use crate::all;\n"),
            ],
            "stats/elo.rs:1: stats::elo (layer stats) uses commands::tune",
        ),
        (
            "a `//` in a string, then an upward path on the same line",
            &[(
                "stats/elo.rs",
                "fn f() { let _ = \"http://x\"; crate::commands::tune::all(); }\n",
            )],
            "stats::elo (layer stats) uses commands::tune",
        ),
        (
            "an upward path in a macro's body",
            &[(
                "run/mod.rs",
                "fn f() { println!(\"{:?}\", crate::commands::tune::all()); }\n",
            )],
            "run/mod.rs:1: run (layer run) uses commands::tune",
        ),
        (
            "a lower module naming an item of its own layer through an upper one's re-export",
            &[
                ("run/mod.rs", "pub use crate::util::slug;\n"),
                ("stats/elo.rs", "use crate::run::slug;\n"),
            ],
            "stats::elo (layer stats) uses run of the higher layer run",
        ),
        (
            "a module outside the layers",
            &[
                (
                    "lib.rs",
                    "pub mod error; pub mod util; pub mod stats; pub mod run; pub mod commands; pub mod extra;",
                ),
                ("extra.rs", ""),
            ],
            "extra: not in a layer",
        ),
        (
            "two modules that use each other",
            &[
                ("stats/mod.rs", "pub mod elo;\npub mod ratings;\n"),
                ("stats/elo.rs", "use super::ratings::x;"),
                ("stats/ratings.rs", "pub fn x() { crate::stats::elo::y() }"),
            ],
            "modules that use each other in a circle: stats::elo, stats::ratings, stats::elo",
        ),
    ];
    for (case, files, want) in cases {
        let errors = violations(&small_crate(files));
        assert!(
            errors.iter().any(|e| e.contains(want)),
            "{case}: want {want:?}, got {errors:?}"
        );
    }
}

#[test]
fn comments_strings_and_test_code_are_not_uses() {
    let cases: &[(&str, &str)] = &[
        (
            "a line comment",
            "// crate::commands::tune::all()\nuse crate::util::slug;\n",
        ),
        (
            "a doc comment",
            "/// See [`crate::commands::tune::all`].\npub fn f() {}\n",
        ),
        (
            "a block comment",
            "/* crate::commands::tune::all(); */\nfn f() {}\n",
        ),
        (
            "a string",
            "fn f() -> &'static str { \"crate::commands::tune::all()\" }\n",
        ),
        (
            "a test-only import",
            "#[cfg(test)]\nuse crate::commands::tune;\n",
        ),
        (
            "a test module",
            "#[cfg(test)]\nmod tests {\n    use crate::commands::tune::all;\n}\n",
        ),
        (
            "a test-only method",
            "pub struct S;\nimpl S {\n    #[cfg(test)]\n    fn f() { crate::commands::tune::all() }\n}\n",
        ),
        (
            "a test module in its own file",
            "#[cfg(test)]\nmod tests;\n",
        ),
        (
            "a lower layer, in code and in a group",
            "use crate::{error::Error, util::slug};\nfn f() { crate::util::slug(); super::super::error::Error; }\n",
        ),
    ];
    for (case, text) in cases {
        let files = small_crate(&[
            ("stats/elo.rs", text),
            ("stats/elo/tests.rs", "use crate::commands::tune::all;"),
        ]);
        assert_eq!(violations(&files), Vec::<String>::new(), "{case}");
    }
}
