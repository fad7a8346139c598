//! The runtime's top-level modules (`src/<name>.rs` or `src/<name>/`) depend on each other one
//! way only, in the order ARCHITECTURE.md states: a module reaches another through a
//! `crate::` path (`crate::event::Event`, `crate::{any::AnyEvent, format::Json}`, a name the
//! crate root re-exports such as `crate::Event`, or a `super::` chain that climbs to the root),
//! no chain of such paths comes back to where it started, and every path goes left in the
//! stated order. Unit tests (`tests.rs`, `#[cfg(test)] mod tests`) may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// `module -> module it reaches -> where (file: path)`.
type Graph = BTreeMap<String, BTreeMap<String, Vec<String>>>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `dir`, except unit-test files.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The code of a file: comments and `#[cfg(test)]` modules and imports left out.
fn code(text: &str) -> String {
    let mut code: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    while let Some(at) = code.find("#[cfg(test)]") {
        let rest = code[at + "#[cfg(test)]".len()..].trim_start();
        let start = code.len() - rest.len();
        let end = if rest.starts_with("use ") {
            rest.find(';').map_or(code.len(), |i| start + i + 1)
        } else if rest.starts_with("mod ")
            && rest
                .find('{')
                .is_some_and(|brace| rest.find(';').is_none_or(|semi| semi > brace))
        {
            let mut depth = 0usize;
            let mut end = code.len();
            for (i, c) in rest.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 1 => {
                        end = start + i + 1;
                        break;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            end
        } else {
            // Another test-only item: only the attribute goes.
            start
        };
        code.replace_range(at..end, "");
    }
    code
}

fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The first segment of each path a `use` group names: `{a::X, b::{Y, Z}, c}` -> a, b, c.
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0usize;
    let mut item_start = 1;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                let head = ident(group[item_start..i].trim_start());
                if !head.is_empty() {
                    heads.push(head.to_owned());
                }
                item_start = i + 1;
                if c == '}' {
                    break;
                }
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
    heads
}

/// The names that follow the crate root in the code of a file at `depth` modules below it
/// (`crate::NAME`, `crate::{NAME, ..}`, and `super::` repeated `depth` times).
fn root_paths(code: &str, depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    let climb = "super::".repeat(depth);
    for (at, _) in code
        .match_indices("crate::")
        .chain(code.match_indices("super::"))
    {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &code[at..];
        let rest = if let Some(rest) = rest.strip_prefix("crate::") {
            rest
        } else if depth > 0 && rest.starts_with(&climb) {
            let rest = &rest[climb.len()..];
            if rest.starts_with("super::") {
                continue; // above the root: not Rust, or a longer chain seen from inside
            }
            rest
        } else {
            continue;
        };
        if rest.starts_with('{') {
            out.extend(group_heads(rest));
        } else if !ident(rest).is_empty() {
            out.push(ident(rest).to_owned());
        }
    }
    out
}

/// The module each name re-exported at the crate root comes from (`pub use event::{Event,
/// EventBuilder}`, `pub use format::avro`, `pub use dispatch::typed as __dispatch`).
fn root_names(lib: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for statement in code(lib).split(';') {
        let Some((_, path)) = statement.split_once("pub use ") else {
            continue;
        };
        let module = ident(path.trim_start());
        if !modules.contains(module) {
            continue;
        }
        let names: Vec<&str> = match path.split_once('{') {
            Some((_, list)) => list.trim_end_matches(['}', ' ', '\n']).split(',').collect(),
            None => vec![path.rsplit("::").next().unwrap_or_default()],
        };
        for name in names {
            let name = name.rsplit(" as ").next().unwrap_or_default().trim();
            if !name.is_empty() {
                out.insert(name.to_owned(), module.to_owned());
            }
        }
    }
    out
}

fn graph() -> Graph {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    // (module, depth below the root) of a file: `event/mod.rs` and `any.rs` are 1 down,
    // `event/convert.rs` 2.
    let place = |path: &Path| -> (String, usize) {
        let relative = path.strip_prefix(&src).unwrap();
        let parts: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let depth = parts.len() - usize::from(parts.last().is_some_and(|p| p == "mod.rs"));
        (parts[0].trim_end_matches(".rs").to_owned(), depth)
    };
    let modules: BTreeSet<String> = files.iter().map(|p| place(p).0).collect();
    let roots = root_names(&fs::read_to_string(src.join("lib.rs")).unwrap(), &modules);
    let mut graph = Graph::new();
    for path in &files {
        let (from, depth) = place(path);
        if from == "lib" {
            continue;
        }
        let shown = path.strip_prefix(&src).unwrap().display().to_string();
        for name in root_paths(&code(&fs::read_to_string(path).unwrap()), depth) {
            let to = if modules.contains(&name) {
                Some(name.clone())
            } else {
                roots.get(&name).cloned()
            };
            if let Some(to) = to.filter(|to| *to != from && *to != "lib") {
                let places = graph
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_default();
                let seen = format!("{shown}: {name}");
                if !places.contains(&seen) {
                    places.push(seen);
                }
            }
        }
    }
    graph
}

/// A chain of modules that comes back to its start, if there is one.
fn cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut found = path[at..].to_vec();
            found.push(node.to_owned());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flat_map(|m| m.keys()) {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|start| visit(start, graph, &mut Vec::new(), &mut done))
}

/// The order ARCHITECTURE.md states, in the block after "Dependency order": tiers separated by
/// `<-`, the modules of a tier by commas; `module -> tier`.
fn stated_order() -> BTreeMap<String, usize> {
    let doc = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../ARCHITECTURE.md"))
        .unwrap();
    let after = &doc[doc
        .find("Dependency order")
        .expect("ARCHITECTURE.md states the order")..];
    let block = after
        .split("```")
        .nth(1)
        .expect("the order in a code block");
    let mut order = BTreeMap::new();
    for (tier, names) in block.split("<-").enumerate() {
        for name in names.split(',') {
            let name = name.trim();
            assert!(
                !name.is_empty() && order.insert(name.to_owned(), tier).is_none(),
                "ARCHITECTURE.md's order names `{name}` twice or is malformed:\n{block}"
            );
        }
    }
    order
}

fn describe(graph: &Graph, chain: &[String]) -> String {
    chain
        .windows(2)
        .map(|w| format!("  {} -> {}: {:?}", w[0], w[1], graph[&w[0]][&w[1]]))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_top_level_modules_form_no_circle() {
    let graph = graph();
    // The scan sees the crate: the formats read `Event<T>`, the validator and every binding
    // use the formats, the event uses its extension map.
    for (from, to) in [
        ("format", "event"),
        ("validate", "format"),
        ("binding", "format"),
        ("event", "extension"),
    ] {
        assert!(graph[from].contains_key(to), "{from} -> {to}: {graph:#?}");
    }
    if let Some(found) = cycle(&graph) {
        panic!(
            "import circle between the runtime's modules: {}\n{}\nmove the shared piece into the \
             lower module (ARCHITECTURE.md gives the order)",
            found.join(" -> "),
            describe(&graph, &found)
        );
    }
}

#[test]
fn every_path_goes_left_in_the_order_architecture_md_states() {
    let graph = graph();
    let order = stated_order();
    let mut modules = Vec::new();
    rust_files(&src(), &mut modules);
    for path in modules {
        let relative = path.strip_prefix(src()).unwrap();
        let module = relative.components().next().unwrap().as_os_str();
        let module = module.to_string_lossy();
        let module = module.trim_end_matches(".rs");
        assert!(
            module == "lib" || order.contains_key(module),
            "ARCHITECTURE.md's dependency order does not place `{module}`"
        );
    }
    let wrong: Vec<String> = graph
        .iter()
        .flat_map(|(from, to)| to.iter().map(move |(to, at)| (from, to, at)))
        .filter(|(from, to, _)| order[*to] >= order[*from])
        .map(|(from, to, at)| format!("  {from} -> {to}: {at:?}"))
        .collect();
    assert!(
        wrong.is_empty(),
        "these modules use one that ARCHITECTURE.md's order places beside or after them:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_circle_is_found_direct_or_long() {
    let mut graph = graph();
    graph
        .entry("event".to_owned())
        .or_default()
        .insert("format".to_owned(), vec!["added".to_owned()]);
    let found = cycle(&graph).expect("event -> format -> event");
    assert!(found.contains(&"event".to_owned()), "{found:?}");

    let mut graph = self::graph();
    graph
        .entry("value".to_owned())
        .or_default()
        .insert("binding".to_owned(), vec!["added".to_owned()]);
    let found = cycle(&graph).expect("value -> binding -> .. -> value");
    assert!(found.len() > 3, "{found:?}");
    assert_eq!(found.first(), found.last(), "{found:?}");
}

#[test]
fn the_scan_reads_groups_root_names_and_super_chains() {
    let text = "use crate::{any::AnyEvent, format::{json, Json}};\n\
                use super::super::event::Event; // crate::comment\n\
                fn f() -> crate::Event<()> { super::sibling() }\n\
                #[cfg(test)]\nmod tests {\n    use crate::binding::x;\n}\n";
    assert_eq!(
        root_paths(&code(text), 2),
        ["any", "format", "Event", "event"],
        "{}",
        code(text)
    );
    assert_eq!(
        root_paths(&code(text), 1),
        ["any", "format", "Event", "sibling"]
    );
    let modules = ["event", "format", "dispatch"].map(String::from).into();
    let roots = root_names(
        "pub use event::{Event, EventBuilder};\n#[cfg(feature = \"avro\")]\npub use format::avro;\n\
         pub use dispatch::typed as __dispatch;\npub use cloudevent_rules::Policy;",
        &modules,
    );
    assert_eq!(roots["EventBuilder"], "event");
    assert_eq!(roots["avro"], "format");
    assert_eq!(roots["__dispatch"], "dispatch");
    assert!(!roots.contains_key("Policy"));
}
