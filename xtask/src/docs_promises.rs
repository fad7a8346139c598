//! What README.md, CONTRIBUTING.md, CHANGELOG.md and the crate docs promise, held to the
//! code they describe (issue 41 §3): the default profile and how to pick another, dependency
//! blocks that resolve, dated figures, the CHANGELOG's order, the runtime's module order and
//! the features each guide's doctests are compiled with.

use std::fs;

fn read(relative: &str) -> String {
    let path = crate::workspace_root().join(relative);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fenced blocks of a Markdown text whose info string is `lang`.
fn blocks<'a>(text: &'a str, lang: &str) -> Vec<&'a str> {
    let fence = format!("```{lang}\n");
    text.split(fence.as_str())
        .skip(1)
        .filter_map(|rest| rest.split("```").next())
        .collect()
}

/// `"1.2.3"` as numbers, for ordering versions.
fn version(text: &str) -> Vec<u64> {
    text.split('.')
        .map(|part| {
            part.parse()
                .unwrap_or_else(|_| panic!("`{text}` is not a version"))
        })
        .collect()
}

/// The number after "issue " in a heading (`### Issue 24, second part`, `(issue 21 §3)`).
fn issue_number(heading: &str) -> Option<u64> {
    let lower = heading.to_lowercase();
    let at = lower.find("issue ")?;
    let digits: String = lower[at + "issue ".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Keep a Changelog, newest first: `## [Unreleased]` on top, then `## [x.y.z] - YYYY-MM-DD`
/// in descending versions; within a section the issue groups (`### ... issue N ...`) in
/// descending issue numbers.
#[test]
fn changelog_is_newest_first() {
    let changelog = read("CHANGELOG.md");
    let sections: Vec<&str> = changelog.split("\n## ").skip(1).collect();
    assert!(!sections.is_empty(), "CHANGELOG.md has no `## ` section");
    assert!(
        sections[0].starts_with("[Unreleased]\n"),
        "the first section is `## [Unreleased]`, not `## {}`",
        sections[0].lines().next().unwrap_or_default()
    );
    let mut previous: Option<Vec<u64>> = None;
    for section in &sections {
        let heading = section.lines().next().unwrap_or_default();
        if heading != "[Unreleased]" {
            let (name, date) = heading
                .split_once("] - ")
                .unwrap_or_else(|| panic!("`## {heading}`: expected `## [x.y.z] - YYYY-MM-DD`"));
            let name = name
                .strip_prefix('[')
                .expect("a version heading opens with `[`");
            assert!(
                date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-',
                "`## {heading}`: the date is YYYY-MM-DD"
            );
            let this = version(name);
            if let Some(before) = &previous {
                assert!(
                    *before > this,
                    "`## {heading}` follows a version no newer than it: newest first"
                );
            }
            previous = Some(this);
        }
        let mut last: Option<(u64, &str)> = None;
        for group in section.lines().filter(|l| l.starts_with("### ")) {
            let Some(number) = issue_number(group) else {
                continue;
            };
            if let Some((newer, newer_heading)) = last {
                assert!(
                    number <= newer,
                    "`{group}` (issue {number}) comes after `{newer_heading}` (issue {newer}): \
                     the newest issue's group goes first"
                );
            }
            last = Some((number, group));
        }
    }
}

/// The README's first screen names the default profile (the one `Profile::default()` is) and
/// both ways to pick another, in the spelling the derive reads.
#[test]
fn readme_first_screen_names_the_default_profile() {
    let readme = read("README.md");
    let first = readme
        .split("## Two commands")
        .next()
        .expect("README has a first part");
    let default = cloudevent_rules::Profile::default().to_string();
    assert!(
        first.contains(&format!("The default profile is **`{default}`**")),
        "README's first screen names `{default}` as the default profile"
    );
    assert!(first.contains("[package.metadata.cloudevent]\nprofile = \"cloudevents\""));
    assert!(first.contains("#[cloudevent(profile = \"cloudevents\")]"));
    "cloudevents"
        .parse::<cloudevent_rules::Profile>()
        .expect("the profile README names exists");
    // The spellings the derive reads: the Cargo.toml table and the type attribute.
    let policy = read("cloudevent-derive/src/policy.rs");
    assert!(
        policy.contains("\"profile\""),
        "derive's policy key is `profile`"
    );
    let attr = read("cloudevent-derive/src/attr.rs");
    assert!(attr.contains("const PROFILE: &str = \"profile\";"));
}

/// Every dependency block in README.md and cloudevent-codegen/README.md resolves as written
/// while the crates are unpublished: no placeholder URL, our crates by path (to a crate of
/// this workspace, from a checkout cloned next to the user's crate), features that exist,
/// and axum/tokio at the versions the runtime builds against.
#[test]
fn readme_dependency_blocks_resolve_as_written() {
    let runtime_manifest = read("cloudevent-runtime/Cargo.toml");
    let features = runtime_manifest
        .split("[features]")
        .nth(1)
        .and_then(|s| s.split("\n[").next())
        .expect("the runtime declares features");
    let dev = runtime_manifest
        .split("[dev-dependencies]")
        .nth(1)
        .expect("the runtime has dev-dependencies");
    let dev_version = |name: &str| {
        dev.lines()
            .find(|l| l.starts_with(&format!("{name} = ")))
            .and_then(|l| l.split("version = \"").nth(1))
            .and_then(|v| v.split('"').next())
            .unwrap_or_else(|| panic!("the runtime's dev-dependency {name} has a version"))
            .to_owned()
    };
    let mut seen_gateway = false;
    for file in ["README.md", "cloudevent-codegen/README.md"] {
        let text = read(file);
        for block in blocks(&text, "toml") {
            if !block.contains("dependencies]") {
                continue;
            }
            assert!(
                !block.contains("example.invalid"),
                "{file}: a placeholder URL\n{block}"
            );
            for line in block.lines().filter(|l| l.starts_with("cloudevent-")) {
                let (name, spec) = line.split_once(" = ").expect("`name = spec`");
                let path = spec
                    .split("path = \"../cloudevent/")
                    .nth(1)
                    .and_then(|p| p.split('"').next())
                    .unwrap_or_else(|| {
                        panic!("{file}: `{line}`: unpublished, so depend by path on the checkout")
                    });
                assert_eq!(path, name, "{file}: `{line}`");
                assert!(
                    crate::workspace_root()
                        .join(path)
                        .join("Cargo.toml")
                        .exists(),
                    "{file}: `{line}`: no such crate"
                );
                if let Some(list) = spec.split("features = [").nth(1) {
                    for feature in list.split(']').next().unwrap_or_default().split(',') {
                        let feature = feature.trim().trim_matches('"');
                        assert!(
                            features.contains(&format!("\n{feature} = ")),
                            "{file}: `{line}`: the runtime has no feature `{feature}`"
                        );
                        seen_gateway |= feature == "gateway";
                    }
                }
            }
            for (name, spec) in block.lines().filter_map(|l| l.split_once(" = ")) {
                if name == "axum" || name == "tokio" {
                    let version = spec.trim_matches('"');
                    let version = spec
                        .split("version = \"")
                        .nth(1)
                        .and_then(|v| v.split('"').next())
                        .unwrap_or(version);
                    assert_eq!(version, dev_version(name), "{file}: `{name} = {spec}`");
                }
            }
        }
    }
    assert!(
        seen_gateway,
        "README's gateway block asks for the `gateway` feature"
    );
}

/// A cold-run figure in README.md or CONTRIBUTING.md says when it was measured.
#[test]
fn cold_run_figures_are_dated() {
    for file in ["README.md", "CONTRIBUTING.md"] {
        let text = read(file).replace('\n', " ");
        for (at, _) in text.match_indices("cold run takes") {
            let sentence = &text[at..text[at..].find(". ").map_or(text.len(), |end| at + end)];
            assert!(
                sentence.contains("(measured 20"),
                "{file}: `{sentence}` gives no date it was measured"
            );
        }
    }
}

/// The runtime's crate docs state the module order ARCHITECTURE.md states (and
/// `cloudevent-runtime/tests/module_order.rs` checks).
#[test]
fn runtime_crate_docs_give_architectures_module_order() {
    let normalize = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let architecture = read("ARCHITECTURE.md");
    let stated = architecture
        .split("Dependency order (a module uses only those to its left")
        .nth(1)
        .and_then(|rest| rest.split("```\n").nth(1))
        .expect("ARCHITECTURE.md states the runtime's dependency order");
    let lib = read("cloudevent-runtime/src/lib.rs");
    let docs: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let layout = docs
        .split("# Module layout")
        .nth(1)
        .and_then(|rest| rest.split("```text\n").nth(1))
        .and_then(|rest| rest.split("```").next())
        .expect("the crate docs' Module layout gives the order in a text block");
    assert_eq!(normalize(layout), normalize(stated));
}

/// Each guide the runtime compiles as a doctest is gated on every feature its snippets use,
/// so `cargo test --doc` with fewer features skips it rather than failing.
#[test]
fn guide_doctests_are_gated_on_the_features_they_use() {
    // What a snippet names -> the feature it needs.
    const NEEDS: &[(&str, &str)] = &[
        ("Protobuf", "protobuf"),
        ("protobuf::", "protobuf"),
        ("Avro", "avro"),
        ("binding::http", "http"),
        ("binding::axum", "axum"),
        ("binding::gateway", "gateway"),
        ("RegistryValidator", "registry"),
        ("binding::kafka", "kafka"),
        ("binding::nats", "nats"),
        ("binding::mqtt", "mqtt"),
        ("binding::websocket", "websocket"),
        ("binding::amqp", "amqp"),
    ];
    let lib = read("cloudevent-runtime/src/lib.rs");
    let mut checked = 0;
    for (at, _) in lib.match_indices("#[doc = include_str!(\"../../") {
        let doc = lib[at + "#[doc = include_str!(\"../../".len()..]
            .split('"')
            .next()
            .unwrap();
        let gate = lib[..at].rsplit("#[cfg(").next().unwrap();
        let text = read(doc);
        let code: String = blocks(&text, "rust")
            .into_iter()
            .chain(blocks(&text, "rust,no_run"))
            .collect();
        for (marker, feature) in NEEDS {
            if code.contains(marker) {
                assert!(
                    gate.contains(&format!("feature = \"{feature}\"")),
                    "{doc}'s snippets use `{marker}`: its doctest gate in lib.rs needs \
                     feature = \"{feature}\" (gate: #[cfg({gate}"
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 5, "lib.rs includes the guides as doctests");
}

/// The CHANGELOG's migration lines (`old call -> new call`) name items that exist: every path
/// in the first code span after `->` (`Type::item`, `module::item`) is a public item of a
/// published crate (`api/<crate>.txt`, or a trait method its types have: `try_from`, `from`,
/// `default`, `into`), every `.method(` a public method's name, and none of them is an item
/// deprecated there (a migration that points at a shim sends users to a second migration).
/// Names outside our crates (`Vec::from`, `Context::current`) and placeholders (`X`, `T`) are
/// skipped; `cloudevent_cli::` is the binary's support code, with no baseline.
#[test]
fn changelog_migrations_name_items_that_exist() {
    use std::collections::BTreeSet;

    let mut pairs = BTreeSet::new();
    let mut deprecated_pairs = BTreeSet::new();
    let mut names = BTreeSet::new();
    for name in crate::api::CRATES {
        for (item, deprecated) in crate::api::parse(&read(&format!("api/{name}.txt"))) {
            let path = item.split_once(' ').map_or(item.as_str(), |(_, path)| path);
            let segments: Vec<&str> = path.split("::").collect();
            for pair in segments.windows(2) {
                let pair = (pair[0].to_owned(), pair[1].to_owned());
                if deprecated {
                    deprecated_pairs.insert(pair);
                } else {
                    pairs.insert(pair);
                }
            }
            if !deprecated {
                names.insert(segments.last().copied().unwrap_or_default().to_owned());
            }
        }
    }
    // What the standard library's traits give our types, and methods of theirs a migration
    // chains after ours.
    const TRAIT_METHODS: [&str; 12] = [
        "from",
        "try_from",
        "default",
        "into",
        "to_string",
        "iter",
        "find",
        "map_or_else",
        "parse",
        "as_ref",
        "clone",
        "with_remote_span_context",
    ];
    // Members and builder setters of a user's generated payload types (named after the
    // schema's members in a migration's example), not items of ours.
    const GENERATED: [&str; 2] = ["created_at", "parcel_id"];
    const OUTSIDE: [&str; 16] = [
        "Vec",
        "Option",
        "String",
        "Box",
        "Result",
        "Some",
        "Ok",
        "std",
        "core",
        "serde_json",
        "Context",
        "axum",
        "http",
        "tokio",
        "async_nats",
        "cloudevent_cli",
    ];
    let changelog = read("CHANGELOG.md");
    let mut missing = Vec::new();
    for bullet in changelog.split("\n- ").skip(1) {
        let bullet = bullet.split("\n\n").next().unwrap_or_default();
        let bullet = bullet.replace('\n', " ");
        let Some((_, rhs)) = bullet.split_once(" -> ") else {
            continue;
        };
        let Some(span) = rhs.split('`').nth(1) else {
            continue;
        };
        // Turbofish arguments are types of the caller's (`::<Json>`), not items to look up.
        let mut plain = String::new();
        let mut depth = 0;
        for (i, c) in span.char_indices() {
            match c {
                '<' if span[..i].ends_with("::") => depth += 1,
                '>' if depth > 0 => depth -= 1,
                _ if depth > 0 => {}
                _ => plain.push(c),
            }
        }
        let plain = plain.replace("::::", "::");
        let words: Vec<&str> = plain
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':' || c == '.'))
            .filter(|w| !w.is_empty())
            .collect();
        for word in words {
            for (n, part) in word.split('.').enumerate() {
                let part = part.trim_matches(':');
                // A method is `.name(`; `.proto`, `payload.count:` and `..entry` are not calls.
                let called = plain.contains(&format!(".{part}("));
                if part.is_empty() || (n > 0 && !part.contains("::") && !called) {
                    continue;
                }
                let segments: Vec<&str> = part
                    .split("::")
                    .map(|s| if s == "rules" { "cloudevent_rules" } else { s })
                    .collect();
                let placeholder =
                    |s: &&str| s.len() == 1 && s.chars().all(|c| c.is_ascii_uppercase());
                if OUTSIDE.contains(&segments[0]) || segments.iter().any(placeholder) {
                    continue;
                }
                let last = segments[segments.len() - 1];
                if segments.len() >= 2 {
                    let pair = (segments[segments.len() - 2].to_owned(), last.to_owned());
                    let type_exists = names.contains(&pair.0) || pair.0 == "cloudevent_rules";
                    let found = pairs.contains(&pair)
                        || (type_exists && TRAIT_METHODS.contains(&last))
                        || (type_exists
                            && names.contains(last)
                            && !deprecated_pairs.contains(&pair));
                    if !found {
                        missing.push(format!("`{part}` in `{span}`"));
                    }
                } else if n > 0
                    && !names.contains(last)
                    && !TRAIT_METHODS.contains(&last)
                    && !GENERATED.contains(&last)
                {
                    // `.method(`: a method of ours by name.
                    missing.push(format!("`.{last}` in `{span}`"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "CHANGELOG.md migrations name items that are not (or no longer) public, or are \
         deprecated:\n{}",
        missing.join("\n")
    );
}
