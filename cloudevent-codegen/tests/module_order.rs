//! The crate's top-level modules depend on each other one way only (ARCHITECTURE.md states the
//! order): a module reaches another through a `crate::<module>` path, and no chain of such paths
//! comes back to where it started. Unit tests (`tests.rs`, `#[cfg(test)] mod tests`) may reach
//! anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

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

/// The identifiers that follow `crate::` in the code of `text` (comments and the inline unit
/// tests left out).
fn crate_paths(text: &str) -> Vec<String> {
    let code = match text.find("#[cfg(test)]\nmod tests {") {
        Some(at) => &text[..at],
        None => text,
    };
    let mut out = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or_default();
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// The module each name re-exported at the root comes from (`pub use compat::{Lock, ..}`).
fn root_names(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for item in lib.split(';') {
        let item = item.trim();
        let Some(rest) = item
            .rsplit("pub use ")
            .next()
            .filter(|_| item.contains("pub use "))
        else {
            continue;
        };
        let Some((module, names)) = rest.split_once("::") else {
            continue;
        };
        for name in names.split([',', '{', '}', ' ', '\n']) {
            if !name.is_empty() {
                out.insert(name.to_owned(), module.trim().to_owned());
            }
        }
    }
    out
}

/// `module -> modules it reaches`.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = src();
    let roots = root_names(&fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let module_of = |path: &Path| -> String {
        let relative = path.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap().as_os_str();
        first.to_string_lossy().trim_end_matches(".rs").to_owned()
    };
    let modules: BTreeSet<String> = files.iter().map(|p| module_of(p)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in &files {
        let from = module_of(path);
        if from == "lib" {
            continue;
        }
        for name in crate_paths(&fs::read_to_string(path).unwrap()) {
            let to = if modules.contains(&name) {
                Some(name)
            } else {
                roots.get(&name).cloned()
            };
            if let Some(to) = to.filter(|to| *to != from && modules.contains(to)) {
                graph.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    graph
}

/// A chain of modules that comes back to its start, if there is one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
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
        for next in graph.get(node).into_iter().flatten() {
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

#[test]
fn the_modules_depend_on_each_other_one_way() {
    let graph = graph();
    // The scan sees the crate: the generator reaches the registry, which reaches the `.proto`
    // reader, which reaches the metadata.
    assert!(graph["generate"].contains("registry"), "{graph:#?}");
    assert!(graph["registry"].contains("protobuf"), "{graph:#?}");
    assert!(graph["protobuf"].contains("meta"), "{graph:#?}");
    if let Some(found) = cycle(&graph) {
        panic!(
            "import circle between modules: {}; move the shared piece down into the lower module \
             (ARCHITECTURE.md gives the order)\n{graph:#?}",
            found.join(" -> ")
        );
    }
}

#[test]
fn a_circle_is_found() {
    let mut graph = graph();
    graph
        .entry("diff".to_owned())
        .or_default()
        .insert("compat".to_owned());
    let found = cycle(&graph).expect("compat -> diff -> compat");
    assert!(
        found.windows(2).any(|w| w == ["diff", "compat"]),
        "{found:?}"
    );
}
