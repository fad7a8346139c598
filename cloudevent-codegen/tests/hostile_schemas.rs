//! Issue 27: hostile schema folders. A schema that contains itself through refs alone once
//! overflowed the stack (SIGABRT) in codegen; each shape of such a cycle is now a finding
//! naming the `$ref`.

use std::path::Path;

use cloudevent_codegen::{Builder, CodegenError, Finding};
use serde_json::{Value, json};

/// An event schema of type `com.example.<name>` with `extra` merged into it.
fn event(name: &str, extra: Value) -> Value {
    let mut schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": format!("https://schemas.example.com/events/com.example.{name}/v1.json"),
        "title": name,
        "type": "object",
        "x-cloudevent": {"type": format!("com.example.{name}"), "source": "https://api.example.com/orders"},
    });
    for (key, value) in extra.as_object().unwrap() {
        schema[key] = value.clone();
    }
    schema
}

fn write(root: &Path, relative: &str, schema: &Value) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(schema).unwrap()).unwrap();
}

/// The findings codegen gives for the registry; it must refuse it, not abort.
fn findings(root: &Path) -> Vec<Finding> {
    match Builder::new().schemas(root).generate() {
        Err(CodegenError::Findings(findings)) => findings,
        Err(other) => panic!("expected findings, got {other}"),
        Ok(_) => panic!("a registry with a cycle of refs generated code"),
    }
}

fn cycle_at<'a>(found: &'a [Finding], pointer: &str) -> &'a Finding {
    found
        .iter()
        .find(|f| f.pointer == pointer && f.message.contains("contain itself"))
        .unwrap_or_else(|| panic!("no cycle finding at {pointer}: {found:#?}"))
}

#[test]
fn a_root_that_refs_itself_is_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "com.example.order.created/v1.json",
        &event("order.created", json!({"$ref": "#"})),
    );
    let found = findings(dir.path());
    let finding = cycle_at(&found, "/$ref");
    assert!(finding.file.ends_with("com.example.order.created/v1.json"));
}

#[test]
fn a_ref_to_the_root_through_all_of_is_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "com.example.order.created/v1.json",
        &event("order.created", json!({"allOf": [{"$ref": "#"}]})),
    );
    cycle_at(&findings(dir.path()), "/allOf/0/$ref");
}

#[test]
fn defs_that_ref_each_other_are_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "com.example.order.created/v1.json",
        &event(
            "order.created",
            json!({
                "properties": {"a": {"$ref": "#/$defs/A"}},
                "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
            }),
        ),
    );
    let found = findings(dir.path());
    assert!(
        found
            .iter()
            .any(|f| f.pointer.starts_with("/$defs/") && f.message.contains("contain itself")),
        "{found:#?}"
    );
}

#[test]
fn files_that_ref_each_other_are_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "com.example.order.created/v1.json",
        &event(
            "order.created",
            json!({"properties": {"a": {"$ref": "../com.example.order.shipped/v1.json"}}}),
        ),
    );
    write(
        dir.path(),
        "com.example.order.shipped/v1.json",
        &event(
            "order.shipped",
            json!({"allOf": [{"$ref": "../com.example.order.shipped/v1.json"}]}),
        ),
    );
    let found = findings(dir.path());
    let finding = cycle_at(&found, "/allOf/0/$ref");
    assert!(finding.file.ends_with("com.example.order.shipped/v1.json"));

    // Two files, each the other's root.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "com.example.order.created/v1.json",
        &event(
            "order.created",
            json!({"allOf": [{"$ref": "../com.example.order.shipped/v1.json"}]}),
        ),
    );
    write(
        dir.path(),
        "com.example.order.shipped/v1.json",
        &event(
            "order.shipped",
            json!({"allOf": [{"$ref": "../com.example.order.created/v1.json"}]}),
        ),
    );
    let found = findings(dir.path());
    let finding = cycle_at(&found, "/allOf/0/$ref");
    assert!(
        finding
            .message
            .contains("com.example.order.created/v1.json#"),
        "{}",
        finding.message
    );
    assert!(
        finding
            .message
            .contains("com.example.order.shipped/v1.json#"),
        "{}",
        finding.message
    );
}

#[test]
fn recursion_through_a_property_still_generates() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "com.example.order.created/v1.json",
        &event(
            "order.created",
            json!({"properties": {"children": {"type": "array", "items": {"$ref": "#"}}}}),
        ),
    );
    let rust = Builder::new()
        .schemas(dir.path())
        .generate_string()
        .unwrap();
    assert!(rust.contains("Vec<OrderCreated>"), "{rust}");
}

/// A registry with one valid event, `com.example.order.created/v1.json`.
#[cfg(unix)]
fn registry_with_one_event() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("schemas"),
        "com.example.order.created/v1.json",
        &event(
            "order.created",
            json!({"properties": {"n": {"type": "integer"},
                                  "type": {"type": "string", "const": "com.example.order.created"}}}),
        ),
    );
    dir
}

/// Where the events of [`registry_with_one_event`] hold their type, for the layout that
/// walks folders to any depth.
#[cfg(unix)]
const TYPE_POINTER: &str = "/properties/type";

#[cfg(unix)]
fn link_findings(root: &Path, follow: bool, pointer: Option<&str>) -> Vec<Finding> {
    let mut builder = Builder::new().schemas(root).follow_symlinks(follow);
    if let Some(pointer) = pointer {
        builder = builder.type_pointer(pointer);
    }
    match builder.generate() {
        Err(CodegenError::Findings(findings)) => findings,
        Err(other) => panic!("expected findings, got {other}"),
        Ok(_) => panic!("a registry with a symbolic link generated code"),
    }
}

/// A symlinked folder inside the registry once let a `$ref` that stays inside textually
/// read a file outside: the link is refused (and, asked to follow links, still refused,
/// since it leads outside).
#[cfg(unix)]
#[test]
fn a_symlink_leading_out_of_the_registry_is_refused() {
    let dir = registry_with_one_event();
    let outside = dir.path().join("outside");
    write(&outside, "secret.json", &json!({"const": "do-not-read"}));
    let schemas = dir.path().join("schemas");
    std::os::unix::fs::symlink(&outside, schemas.join("com.example.order.shipped")).unwrap();
    for follow in [false, true] {
        let found = link_findings(&schemas, follow, None);
        assert!(
            found
                .iter()
                .any(|f| f.file.ends_with("com.example.order.shipped")
                    && f.message.contains("symbolic link")),
            "{found:#?}"
        );
        assert!(!format!("{found:?}").contains("do-not-read"));
    }
    // The same with a type pointer, whose walk goes to any depth.
    let pointer = TYPE_POINTER;
    for follow in [false, true] {
        let found = link_findings(&schemas, follow, Some(pointer));
        assert!(
            found.iter().any(|f| f.message.contains("symbolic link")),
            "{found:#?}"
        );
    }
}

/// A link loop (a folder linking to the registry's root) was walked 41 times: refused by
/// default, walked once when links are followed.
#[cfg(unix)]
#[test]
fn a_symlink_loop_is_refused_or_walked_once() {
    let dir = registry_with_one_event();
    let schemas = dir.path().join("schemas");
    std::os::unix::fs::symlink(&schemas, schemas.join("com.example.order.created/again")).unwrap();
    let pointer = TYPE_POINTER;
    let found = link_findings(&schemas, false, Some(pointer));
    assert!(
        found.iter().any(|f| f.message.contains("symbolic link")),
        "{found:#?}"
    );
    let started = std::time::Instant::now();
    let registry = Builder::new()
        .schemas(&schemas)
        .type_pointer(pointer)
        .follow_symlinks(true)
        .generate();
    assert!(registry.is_ok(), "{:?}", registry.err());
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

/// Asked to follow links, a link that stays inside the registry is followed.
#[cfg(unix)]
#[test]
fn a_symlink_inside_the_registry_is_followed_on_request() {
    let dir = registry_with_one_event();
    let schemas = dir.path().join("schemas");
    // A top-level file is not a type folder: the default layout reads it only through
    // the link.
    write(
        &schemas,
        "com.example.order.shipped.json",
        &event("order.shipped", json!({})),
    );
    std::fs::create_dir(schemas.join("com.example.order.shipped")).unwrap();
    std::os::unix::fs::symlink(
        schemas.join("com.example.order.shipped.json"),
        schemas.join("com.example.order.shipped/v1.json"),
    )
    .unwrap();
    let refused = link_findings(&schemas, false, None);
    assert!(refused.iter().any(|f| f.message.contains("symbolic link")));
    let rust = Builder::new()
        .schemas(&schemas)
        .follow_symlinks(true)
        .generate_string()
        .unwrap();
    assert!(rust.contains("OrderShipped"), "{rust}");
}

/// Issue 38 item 11: the command in the generated file's header comment was written raw, so
/// a newline in `--schemas` or `--type-template` (here, the build script's schema path and
/// the command the CLI passes) started a line of Rust outside the comment. Control
/// characters, line and paragraph separators and bidirectional controls are escaped.
#[test]
fn a_newline_in_the_command_stays_inside_the_header_comment() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "com.example.order.created/v1.json",
        &event(
            "order.created",
            json!({"properties": {"n": {"type": "integer"}}}),
        ),
    );
    let hostile = "cloudevent codegen --schemas x\npub fn injected() {}\r\n--type-template 'com.{dir}\u{2028}\u{202e}'";
    let rust = Builder::new()
        .schemas(dir.path())
        .command(hostile)
        .generate_string()
        .unwrap();
    assert!(!rust.contains("\npub fn injected"), "{rust}");
    let header: Vec<&str> = rust.lines().take_while(|l| l.starts_with("//")).collect();
    assert_eq!(header.len(), 2, "{rust}");
    assert!(
        header[1].contains(
            r"--schemas x\npub fn injected() {}\r\n--type-template 'com.{dir}\u{2028}\u{202e}'"
        ),
        "{}",
        header[1]
    );
    assert!(!rust.contains(['\r', '\u{2028}', '\u{202e}']));
}

/// Issue 38 item 11: a chain of files each of which is a `$ref` to the next became one shared
/// type per file, which typify walked once per file: 10,000 files cost 58.7 s and 1.15 GB.
/// A schema that is a `$ref` alone stands for what it names, followed once: 3,000 files are
/// one shared type, generated in well under the 20 s the chain took before in a debug build.
#[test]
fn a_long_chain_of_ref_files_costs_linear_time() {
    const FILES: usize = 3_000;
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "com.example.order.created/v1.json",
        &event(
            "order.created",
            json!({"properties": {"next": {"$ref": "../common/d0.json"}}}),
        ),
    );
    for i in 0..FILES {
        let schema = if i + 1 < FILES {
            json!({"$ref": format!("d{}.json", i + 1)})
        } else {
            json!({"type": "object", "properties": {"end": {"type": "string"}}})
        };
        write(dir.path(), &format!("common/d{i}.json"), &schema);
    }
    let started = std::time::Instant::now();
    let rust = Builder::new()
        .schemas(dir.path())
        .lock_file(dir.path().join("unused.lock.json"))
        .generate_string()
        .unwrap();
    let took = started.elapsed();
    eprintln!("a chain of {FILES} ref files: {took:?}");
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    let last = format!("D{}", FILES - 1);
    assert!(rust.contains(&format!("pub struct {last}")), "{rust}");
    assert!(!rust.contains("D0"), "one shared type, not one a file");
}

/// `com.example.order.created` with the case of its first `n` letters turned by the bits of
/// each index: types that are all named `order_created_v1` until numbered.
fn colliding_types(root: &Path, n: usize) {
    let base = "com.example.order.created";
    let letters: Vec<usize> = base
        .char_indices()
        .filter(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| i)
        .collect();
    for index in 0..n {
        let mut chars: Vec<char> = base.chars().collect();
        for (bit, at) in letters.iter().take(12).enumerate() {
            if index >> bit & 1 == 1 {
                chars[*at] = chars[*at].to_ascii_uppercase();
            }
        }
        let ty: String = chars.into_iter().collect();
        let mut schema = event("x", json!({"properties": {"n": {"type": "integer"}}}));
        schema["$id"] = json!(format!("https://schemas.example.com/{index}/v1.json"));
        schema["x-cloudevent"]["type"] = json!(ty);
        write(root, &format!("{ty}/v1.json"), &schema);
    }
}

/// Issue 38 item 11: types whose Rust names collide were numbered one more a round, each
/// round comparing every pair (2,000 types: 49.8 s), and then refused as "a root that is
/// only a `$ref`": the root name (`ComEXAmPleOrderCreated`) was not the one typify writes
/// (`ComExAmPleOrderCreated`). Naming is linear, and the names are typify's own.
#[test]
fn colliding_names_are_numbered_at_once_and_generate() {
    let dir = tempfile::tempdir().unwrap();
    colliding_types(dir.path(), 2048);
    let registry = cloudevent_codegen::Registry::load(dir.path()).unwrap();
    let started = std::time::Instant::now();
    let yaml = cloudevent_codegen::asyncapi_yaml(&registry, "collisions");
    let took = started.elapsed();
    // 57 s before in a debug build; 5 s now, most of it writing the document.
    eprintln!("an AsyncAPI document of 2,048 colliding types: {took:?}");
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
    // Every type has its own message, some of them numbered.
    let messages: std::collections::BTreeSet<&str> = yaml
        .lines()
        .filter_map(|line| {
            line.trim()
                .strip_prefix("\"$ref\": \"#/components/messages/")
        })
        .collect();
    assert_eq!(messages.len(), 2048);
    assert!(messages.iter().any(|m| m.ends_with("V12\"")), "numbered");

    let dir = tempfile::tempdir().unwrap();
    colliding_types(dir.path(), 64);
    let rust = Builder::new()
        .schemas(dir.path())
        .profile(cloudevent_codegen::Profile::CloudEvents)
        .lock_file(dir.path().join("unused.lock.json"))
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(rust.refused.is_empty(), "{:?}", rust.refused);
    let text = rust.single_file().unwrap();
    // `com.eXample.order.created`: `ComEXampleOrderCreated` camel-cased once more.
    assert!(text.contains("pub struct ComExampleOrderCreated"), "{text}");
}

/// Issue 37 item 2: shapes typify 0.8 panicked on (a constraint-only `anyOf` branch beside a
/// type, boolean `oneOf` branches) are no longer refused: typify reads the wider type and the
/// schema, carried by the type, checks them. (Narrowing a panic that remains to its subschema
/// and keyword is `narrow.rs`'s, tested there against a stand-in for typify.)
#[test]
fn shapes_typify_panicked_on_generate_and_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "com.example.order.created/v1.json",
        &event(
            "order.created",
            json!({"properties": {
                "bound": {"anyOf": [{"type": "integer"}, {"minimum": 2}]},
                "either": {"oneOf": [true, false, false]}
            }}),
        ),
    );
    let rust = Builder::new()
        .schemas(dir.path())
        .generate_string()
        .unwrap();
    assert!(rust.contains("check_schema = \"DATA_SCHEMA\""), "{rust}");
    for raw in ["unwrap()", "not yet implemented", "unreachable", "panicked"] {
        assert!(!rust.contains(raw), "{raw}");
    }
}
