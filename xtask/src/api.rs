//! `cargo xtask api [--check|--bless]`: the public API of each published crate against the
//! baseline of the last release, `api/<crate>.txt` (issue 41, CONTRIBUTING.md "Upgrade
//! policy"). Offline: rustdoc's JSON output on the installed stable toolchain
//! (`RUSTC_BOOTSTRAP=1`, `-Z unstable-options --output-format json`), all features on.
//!
//! A baseline line is `<kind> <path>`, with ` (deprecated)` appended when the item carries
//! `#[deprecated]`; sorted, one public path a line (an item re-exported at two paths has two
//! lines). `--check` fails naming every baseline item that is gone and was not deprecated
//! there; it lists additions, items deprecated since, and deprecated items removed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

/// The published crates' libraries, in dependency order. `cloudevent-cli`'s library is its
/// binary's support code, not a stable API (CONTRIBUTING.md), so it has no baseline.
pub const CRATES: [&str; 4] = [
    "cloudevent-rules",
    "cloudevent-derive",
    "cloudevent-runtime",
    "cloudevent-codegen",
];

pub fn run(args: &[String], root: &Path) -> Result<(), String> {
    let bless = match args.first().map(String::as_str) {
        None | Some("--check") => false,
        Some("--bless") => true,
        Some(other) => {
            return Err(format!(
                "api: unknown argument `{other}` (--check | --bless)"
            ));
        }
    };
    let mut broken_crates = Vec::new();
    for name in CRATES {
        let current = public_items(name, root)?;
        let file = root.join("api").join(format!("{name}.txt"));
        if bless {
            std::fs::create_dir_all(root.join("api")).map_err(|e| format!("api/: {e}"))?;
            let text = header(name, env!("CARGO_PKG_VERSION")) + &render(&current);
            std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
            println!("api: {} ({} items) written", file.display(), current.len());
            continue;
        }
        let text = std::fs::read_to_string(&file).map_err(|e| {
            format!(
                "{}: {e} (run `cargo xtask api --bless` at a release)",
                file.display()
            )
        })?;
        let diff = compare(&parse(&text), &current);
        println!(
            "api: {name}: against the baseline of release {}",
            release_of(&text).unwrap_or("(unlabelled)")
        );
        print!("{}", diff.describe(name));
        if !diff.broken.is_empty() {
            broken_crates.push(name);
        }
    }
    if broken_crates.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "api: public items removed without a deprecation in the last release's baseline \
             ({}); deprecate them first (CONTRIBUTING.md, \"Upgrade policy\")",
            broken_crates.join(", ")
        ))
    }
}

/// Public items: `<kind> <path>` -> deprecated.
pub type Items = BTreeMap<String, bool>;

/// The first line of a baseline: the release it is the public API of.
pub fn header(name: &str, version: &str) -> String {
    format!("# {name} {version}: the public API of release {version} (cargo xtask api --bless)\n")
}

/// The release a baseline's header names.
pub fn release_of(text: &str) -> Option<&str> {
    let rest = text
        .lines()
        .next()?
        .split(": the public API of release ")
        .nth(1)?;
    rest.split_whitespace().next()
}

pub fn render(items: &Items) -> String {
    items
        .iter()
        .map(|(item, deprecated)| {
            if *deprecated {
                format!("{item} (deprecated)\n")
            } else {
                format!("{item}\n")
            }
        })
        .collect()
}

pub fn parse(text: &str) -> Items {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match l.strip_suffix(" (deprecated)") {
            Some(item) => (item.to_owned(), true),
            None => (l.to_owned(), false),
        })
        .collect()
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// In the baseline, not deprecated there, gone now: an unannounced break.
    pub broken: Vec<String>,
    /// In the baseline as deprecated, gone now: the policy's way.
    pub removed_after_deprecation: Vec<String>,
    pub added: Vec<String>,
    pub newly_deprecated: Vec<String>,
}

pub fn compare(baseline: &Items, current: &Items) -> Diff {
    let mut diff = Diff::default();
    for (item, &was_deprecated) in baseline {
        match current.get(item) {
            None if was_deprecated => diff.removed_after_deprecation.push(item.clone()),
            None => diff.broken.push(item.clone()),
            Some(&now) if now && !was_deprecated => diff.newly_deprecated.push(item.clone()),
            Some(_) => {}
        }
    }
    diff.added = current
        .keys()
        .filter(|item| !baseline.contains_key(*item))
        .cloned()
        .collect();
    diff
}

impl Diff {
    pub fn describe(&self, name: &str) -> String {
        let mut out = String::new();
        let groups = [
            ("REMOVED WITHOUT DEPRECATION", &self.broken),
            (
                "removed after a deprecation",
                &self.removed_after_deprecation,
            ),
            ("deprecated since the baseline", &self.newly_deprecated),
            ("added", &self.added),
        ];
        for (title, items) in groups {
            if !items.is_empty() {
                out.push_str(&format!("api: {name}: {title} ({}):\n", items.len()));
                for item in items {
                    out.push_str(&format!("  {item}\n"));
                }
            }
        }
        if out.is_empty() {
            out = format!("api: {name}: unchanged\n");
        }
        out
    }
}

/// Builds the crate's rustdoc JSON and reads its public items.
fn public_items(name: &str, root: &Path) -> Result<Items, String> {
    rustdoc_items(super::cargo(), name, &super::target_dir(root))
}

/// Runs `cargo rustdoc` for package `name` with `cargo` (its directory, manifest and
/// target directory already set; `target` is that directory) and reads the public items of
/// the JSON it writes.
fn rustdoc_items(
    mut cargo: std::process::Command,
    name: &str,
    target: &Path,
) -> Result<Items, String> {
    cargo
        .env("RUSTC_BOOTSTRAP", "1")
        .args(["rustdoc", "-q", "-p", name, "--lib", "--all-features", "--"])
        .args(["-Z", "unstable-options", "--output-format", "json"]);
    super::run(cargo)?;
    let file = target
        .join("doc")
        .join(format!("{}.json", name.replace('-', "_")));
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let json: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    items_of(&json)
}

/// The public paths of a rustdoc JSON document, walked from the crate root through public
/// modules and re-exports.
pub fn items_of(doc: &Value) -> Result<Items, String> {
    let index = doc["index"]
        .as_object()
        .ok_or("rustdoc JSON without an index")?;
    let root_id = id_key(&doc["root"]);
    let root = index.get(&root_id).ok_or("rustdoc JSON: no root item")?;
    let crate_name = root["name"].as_str().unwrap_or("crate").to_owned();
    let mut walk = Walk {
        index,
        items: Items::new(),
        seen_modules: BTreeSet::new(),
    };
    walk.module(root, &crate_name);
    Ok(walk.items)
}

fn id_key(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The item's one inner variant: (kind, body).
fn inner(item: &Value) -> Option<(&str, &Value)> {
    item["inner"]
        .as_object()
        .and_then(|o| o.iter().next())
        .map(|(k, v)| (k.as_str(), v))
}

struct Walk<'a> {
    index: &'a serde_json::Map<String, Value>,
    items: Items,
    seen_modules: BTreeSet<(String, String)>,
}

impl Walk<'_> {
    fn get(&self, id: &Value) -> Option<&Value> {
        if id.is_null() {
            return None;
        }
        self.index.get(&id_key(id))
    }

    fn record(&mut self, kind: &str, path: &str, item: &Value) {
        let deprecated = !item["deprecation"].is_null();
        self.items.insert(format!("{kind} {path}"), deprecated);
    }

    fn module(&mut self, module: &Value, path: &str) {
        let Some((_, body)) = inner(module) else {
            return;
        };
        if !self
            .seen_modules
            .insert((id_key(&module["id"]), path.to_owned()))
        {
            return;
        }
        for id in body["items"].as_array().into_iter().flatten() {
            if let Some(item) = self.get(id) {
                let item = item.clone();
                self.item(&item, path, None);
            }
        }
    }

    /// One item of a module at `parent`; `name` overrides its own (a renaming re-export).
    fn item(&mut self, item: &Value, parent: &str, name: Option<&str>) {
        if item["visibility"] != "public" {
            return;
        }
        let Some((kind, body)) = inner(item) else {
            return;
        };
        if kind == "use" || kind == "import" {
            let target = self.get(&body["id"]).cloned();
            let is_glob = body["is_glob"].as_bool().unwrap_or(false) || body["glob"] == true;
            match target {
                Some(target) if is_glob => {
                    if let Some((_, target_body)) = inner(&target) {
                        for id in target_body["items"].as_array().into_iter().flatten() {
                            if let Some(member) = self.get(id).cloned() {
                                self.item(&member, parent, None);
                            }
                        }
                    }
                }
                Some(mut target) => {
                    // A re-export of a public item keeps that item's kind; its own visibility
                    // (a private module's item) is the re-export's.
                    target["visibility"] = Value::from("public");
                    if target["deprecation"].is_null() {
                        target["deprecation"] = item["deprecation"].clone();
                    }
                    self.item(&target, parent, body["name"].as_str());
                }
                None => {
                    let shown = body["name"].as_str().unwrap_or_default();
                    let source = body["source"].as_str().unwrap_or_default();
                    let path = if is_glob {
                        format!("{parent}::*")
                    } else {
                        format!("{parent}::{shown}")
                    };
                    self.record(&format!("use({source})"), &path, item);
                }
            }
            return;
        }
        let Some(own) = name.or(item["name"].as_str()) else {
            return;
        };
        let path = format!("{parent}::{own}");
        match kind {
            "module" => {
                self.record("mod", &path, item);
                self.module(item, &path);
            }
            "struct" | "union" => {
                self.record(kind, &path, item);
                let fields = &body["kind"];
                let named = fields["plain"]["fields"]
                    .as_array()
                    .or(body["fields"].as_array());
                for id in named.into_iter().flatten() {
                    if let Some(field) = self.get(id).cloned()
                        && field["visibility"] == "public"
                    {
                        let field_name = field["name"].as_str().unwrap_or_default();
                        self.record("field", &format!("{path}::{field_name}"), &field);
                    }
                }
                for (index, id) in fields["tuple"].as_array().into_iter().flatten().enumerate() {
                    if let Some(field) = self.get(id).cloned()
                        && field["visibility"] == "public"
                    {
                        self.record("field", &format!("{path}::{index}"), &field);
                    }
                }
                self.impls(body, &path);
            }
            "enum" => {
                self.record(kind, &path, item);
                for id in body["variants"].as_array().into_iter().flatten() {
                    if let Some(variant) = self.get(id).cloned() {
                        let variant_name = variant["name"].as_str().unwrap_or_default();
                        self.record("variant", &format!("{path}::{variant_name}"), &variant);
                    }
                }
                self.impls(body, &path);
            }
            "trait" => {
                self.record(kind, &path, item);
                for id in body["items"].as_array().into_iter().flatten() {
                    if let Some(member) = self.get(id).cloned() {
                        self.member(&member, &path);
                    }
                }
            }
            "function" => self.record("fn", &path, item),
            "constant" | "assoc_const" => self.record("const", &path, item),
            "static" => self.record("static", &path, item),
            "type_alias" | "typedef" => self.record("type", &path, item),
            "macro" => self.record("macro", &path, item),
            "proc_macro" => {
                let macro_kind = body["kind"].as_str().unwrap_or("proc_macro");
                self.record(&format!("proc_macro({macro_kind})"), &path, item);
            }
            other => self.record(other, &path, item),
        }
    }

    /// The inherent impls' public items of a type (trait impls are not listed).
    fn impls(&mut self, body: &Value, path: &str) {
        for id in body["impls"].as_array().into_iter().flatten() {
            let Some(imp) = self.get(id).cloned() else {
                continue;
            };
            let Some((_, imp_body)) = inner(&imp) else {
                continue;
            };
            if !imp_body["trait"].is_null()
                || imp_body["is_synthetic"] == true
                || !imp_body["blanket_impl"].is_null()
            {
                continue;
            }
            for member_id in imp_body["items"].as_array().into_iter().flatten() {
                if let Some(member) = self.get(member_id).cloned()
                    && member["visibility"] == "public"
                {
                    self.member(&member, path);
                }
            }
        }
    }

    fn member(&mut self, member: &Value, path: &str) {
        let Some((kind, _)) = inner(member) else {
            return;
        };
        let member_name = member["name"].as_str().unwrap_or_default();
        let kind = match kind {
            "function" => "fn",
            "assoc_const" | "constant" => "const",
            "assoc_type" => "type",
            other => other,
        };
        self.record(kind, &format!("{path}::{member_name}"), member);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(lines: &str) -> Items {
        parse(lines)
    }

    #[test]
    fn a_removed_item_fails_a_deprecated_then_removed_item_passes() {
        let baseline = items(
            "fn c::Batch::events (deprecated)\n\
             fn c::Batch::into_events\n\
             fn c::Timestamp::try_from\n\
             struct c::Batch\n",
        );
        // `into_events` removed straight away: an unannounced break.
        let current = items("fn c::Timestamp::try_from\nstruct c::Batch\nfn c::Batch::iter\n");
        let diff = compare(&baseline, &current);
        assert_eq!(diff.broken, ["fn c::Batch::into_events"]);
        assert_eq!(diff.removed_after_deprecation, ["fn c::Batch::events"]);
        assert_eq!(diff.added, ["fn c::Batch::iter"]);
        assert!(
            diff.describe("c")
                .contains("REMOVED WITHOUT DEPRECATION (1):\n  fn c::Batch::into_events")
        );

        // Deprecated in a release first (the baseline), removed in the next: passes.
        let released = items(
            "fn c::Batch::into_events (deprecated)\nfn c::Timestamp::try_from\nstruct c::Batch\n",
        );
        let diff = compare(&released, &current);
        assert!(diff.broken.is_empty(), "{diff:?}");
        assert_eq!(diff.removed_after_deprecation, ["fn c::Batch::into_events"]);

        // Deprecating now (not yet released) is listed, and does not fail.
        let deprecated_now = items(
            "fn c::Batch::into_events (deprecated)\nfn c::Timestamp::try_from\nstruct c::Batch\n",
        );
        let diff = compare(
            &items("fn c::Batch::into_events\nfn c::Timestamp::try_from\nstruct c::Batch\n"),
            &deprecated_now,
        );
        assert!(diff.broken.is_empty());
        assert_eq!(diff.newly_deprecated, ["fn c::Batch::into_events"]);
    }

    /// The diff on a real crate's rustdoc JSON: a scratch crate (its own workspace and target
    /// directory) released with `old` and `new`; removing `old` straight away fails, naming
    /// it; deprecating it instead passes (listed as deprecated since); removing it after the
    /// release that deprecated it passes.
    #[test]
    fn on_a_scratch_crate_removing_fails_and_deprecating_passes() {
        let dir = crate::target_dir(&crate::workspace_root()).join("xtask-api-scratch");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            "[package]\nname = \"scratch\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n",
        )
        .unwrap();
        let items = |lib: &str| {
            std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
            let mut cargo = crate::cargo();
            cargo
                .current_dir(&dir)
                .env("CARGO_TARGET_DIR", dir.join("target"))
                .env_remove("RUSTFLAGS")
                .env_remove("RUSTDOCFLAGS");
            rustdoc_items(cargo, "scratch", &dir.join("target")).unwrap()
        };
        let released = items(
            "//! Scratch.\n/// Old.\npub fn old() {}\n/// New.\npub fn new() {}\n\
             /// A type.\npub struct Kept;\nimpl Kept {\n    /// A method.\n    pub fn method(&self) {}\n}\n",
        );
        assert_eq!(
            render(&released),
            "fn scratch::Kept::method\nfn scratch::new\nfn scratch::old\nstruct scratch::Kept\n"
        );

        let removed = items(
            "//! Scratch.\n/// New.\npub fn new() {}\n/// A type.\npub struct Kept;\n\
             impl Kept {}\n",
        );
        let diff = compare(&released, &removed);
        assert_eq!(diff.broken, ["fn scratch::Kept::method", "fn scratch::old"]);
        assert!(
            diff.describe("scratch")
                .contains("REMOVED WITHOUT DEPRECATION (2)")
        );

        let deprecated_lib = "//! Scratch.\n/// Old.\n#[deprecated(since = \"0.2.0\", note = \"use `new`\")]\n\
             pub fn old() {}\n/// New.\npub fn new() {}\n/// A type.\npub struct Kept;\n\
             impl Kept {\n    /// A method.\n    #[deprecated(since = \"0.2.0\", note = \"gone\")]\n    pub fn method(&self) {}\n}\n";
        let deprecated = items(deprecated_lib);
        let diff = compare(&released, &deprecated);
        assert!(diff.broken.is_empty(), "{diff:?}");
        assert_eq!(
            diff.newly_deprecated,
            ["fn scratch::Kept::method", "fn scratch::old"]
        );

        // The release after: its baseline has them deprecated, and they may go.
        let diff = compare(&deprecated, &removed);
        assert!(diff.broken.is_empty(), "{diff:?}");
        assert_eq!(
            diff.removed_after_deprecation,
            ["fn scratch::Kept::method", "fn scratch::old"]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Each baseline names the release it is the API of, and it is the newest release of the
    /// CHANGELOG (the one a fresh clone's `cargo xtask api` compares with).
    #[test]
    fn each_baseline_is_labelled_with_the_changelogs_newest_release() {
        let root = crate::workspace_root();
        let changelog = std::fs::read_to_string(root.join("CHANGELOG.md")).unwrap();
        let newest = changelog
            .split("\n## [")
            .skip(1)
            .map(|s| s.split(']').next().unwrap())
            .find(|s| *s != "Unreleased")
            .expect("CHANGELOG.md has a release heading");
        for name in CRATES {
            let text =
                std::fs::read_to_string(root.join("api").join(format!("{name}.txt"))).unwrap();
            assert_eq!(
                text.lines().next().unwrap_or_default(),
                header(name, newest).trim_end(),
                "api/{name}.txt: label it with release {newest}"
            );
            assert_eq!(release_of(&text), Some(newest));
        }
    }

    #[test]
    fn render_and_parse_round_trip() {
        let mut items = Items::new();
        items.insert("fn c::a".into(), true);
        items.insert("struct c::B".into(), false);
        let text = render(&items);
        assert_eq!(text, "fn c::a (deprecated)\nstruct c::B\n");
        assert_eq!(parse(&text), items);
    }

    /// The walk over a rustdoc JSON document: public modules, re-exports of private items,
    /// inherent methods, the deprecation of each.
    #[test]
    fn items_of_walks_modules_reexports_and_methods() {
        let doc = serde_json::json!({
            "root": 0,
            "index": {
                "0": {"id": 0, "name": "c", "visibility": "public", "deprecation": null,
                      "inner": {"module": {"items": [1, 2, 5]}}},
                "1": {"id": 1, "name": null, "visibility": "public", "deprecation": null,
                      "inner": {"use": {"source": "inner::Batch", "name": "Batch", "id": 3, "is_glob": false}}},
                "2": {"id": 2, "name": "hidden_mod", "visibility": "crate", "deprecation": null,
                      "inner": {"module": {"items": [3]}}},
                "3": {"id": 3, "name": "Batch", "visibility": "crate", "deprecation": null,
                      "inner": {"struct": {"kind": {"plain": {"fields": [], "has_stripped_fields": true}},
                                           "impls": [4]}}},
                "4": {"id": 4, "name": null, "visibility": "default", "deprecation": null,
                      "inner": {"impl": {"trait": null, "items": [6, 7], "is_synthetic": false, "blanket_impl": null}}},
                "5": {"id": 5, "name": null, "visibility": "public", "deprecation": null,
                      "inner": {"use": {"source": "other::Policy", "name": "Policy", "id": 99, "is_glob": false}}},
                "6": {"id": 6, "name": "into_events", "visibility": "public",
                      "deprecation": {"since": "0.1.0", "note": "use `Vec::from(batch)`"},
                      "inner": {"function": {}}},
                "7": {"id": 7, "name": "private", "visibility": "default", "deprecation": null,
                      "inner": {"function": {}}}
            }
        });
        let text = render(&items_of(&doc).unwrap());
        assert_eq!(
            text,
            "fn c::Batch::into_events (deprecated)\n\
             struct c::Batch\n\
             use(other::Policy) c::Policy\n"
        );
    }
}
