//! The gate on whole registries: the lock file and the Builder, transitive modes, per-type
//! and xRegistry modes, advice in each naming scheme, external `$ref`s followed through
//! `anyOf` (on temporary copies; the committed fixtures are never edited).

use std::fs;
use std::path::{Path, PathBuf};

use cloudevent_codegen::{
    Baseline, Builder, CodegenError, Compat, Lock, Outcome, Profile, Registry, check_compatibility,
    compare_paths,
};
use serde_json::{Value, json};

const TYPE_POINTER: &str = "/properties/context/properties/type";

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            fs::copy(&path, target).unwrap();
        }
    }
}

fn edit(path: &Path, change: impl FnOnce(&mut Value)) {
    let mut schema: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    change(&mut schema);
    fs::write(path, serde_json::to_string_pretty(&schema).unwrap()).unwrap();
}

/// A copy of the bundled registry at `<tmp>/schemas`.
fn registry_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let schemas = dir.path().join("schemas");
    copy_dir(&fixture("../schemas"), &schemas);
    (dir, schemas)
}

const CANCELLED: &str = "com.example.order.cancelled/v1.json";

fn findings_of(error: CodegenError) -> Vec<String> {
    match error {
        CodegenError::Findings(found) => found.iter().map(ToString::to_string).collect(),
        other => panic!("expected findings, got {other}"),
    }
}

#[test]
fn the_builder_writes_the_lock_then_refuses_a_breaking_edit_with_the_fix() {
    let (_dir, schemas) = registry_copy();
    let lock = Lock::default_path(&schemas);
    assert!(!lock.exists());
    let builder = Builder::new().schemas(&schemas).update_lock(true);
    builder.generate().unwrap();
    assert!(lock.exists(), "the lock is written when absent");
    // A compatible edit under forward passes.
    edit(&schemas.join(CANCELLED), |s| {
        s["properties"]["comment"]["maxLength"] = json!(300);
    });
    Builder::new().schemas(&schemas).generate().unwrap();
    // Removing a property of an open object: new events may carry anything there.
    edit(&schemas.join(CANCELLED), |s| {
        s["properties"].as_object_mut().unwrap().remove("comment");
    });
    let found = findings_of(Builder::new().schemas(&schemas).generate().unwrap_err());
    assert_eq!(found.len(), 1, "{found:#?}");
    for needle in [
        "#/properties/comment: breaking change to `v1.json` under `forward` compatibility",
        "property `comment` removed (or renamed) from an open object",
        "(INTG-STD-015 R-4)",
        "add `com.example.order.cancelled/v2.json` with type `com.example.order.cancelled.v2`",
        "`$id` `https://schemas.example.com/events/com.example.order.cancelled/v2.json`",
        "keep `v1.json` as it was",
    ] {
        assert!(found[0].contains(needle), "`{needle}` not in {}", found[0]);
    }
    // The same edit under backward breaks nobody; a type's own mode wins over the builder's.
    Builder::new()
        .schemas(&schemas)
        .compat(Compat::Backward)
        .generate()
        .unwrap();
    edit(&schemas.join(CANCELLED), |s| {
        s["x-cloudevent"]["compatibility"] = json!("backward");
    });
    Builder::new().schemas(&schemas).generate().unwrap();
    edit(&schemas.join(CANCELLED), |s| {
        s["x-cloudevent"]["compatibility"] = json!("sideways");
    });
    let found = findings_of(Builder::new().schemas(&schemas).generate().unwrap_err());
    assert!(
        found[0].contains("/x-cloudevent/compatibility: `sideways` is no compatibility mode"),
        "{found:#?}"
    );
}

#[test]
fn transitive_modes_compare_with_every_locked_version() {
    let (_dir, schemas) = registry_copy();
    let lock = Lock::default_path(&schemas);
    let reason =
        |values: Value| move |s: &mut Value| s["properties"]["reason"]["enum"] = values.clone();
    Lock::of_registry(&Registry::load(&schemas).unwrap())
        .unwrap()
        .write(&lock)
        .unwrap();
    // A value added, recorded under backward (which allows it).
    edit(
        &schemas.join(CANCELLED),
        reason(json!([
            "customer_request",
            "payment_failed",
            "out_of_stock",
            "fraud_suspected",
            "duplicate_order"
        ])),
    );
    Builder::new()
        .schemas(&schemas)
        .compat(Compat::Backward)
        .update_lock(true)
        .generate()
        .unwrap();
    let locked = Lock::read(&lock).unwrap().unwrap();
    // Both versions of the type, oldest first, as the file records them.
    assert_eq!(
        locked.to_value()["subjects"]["com.example.order.cancelled/v1"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let registry = Registry::load(&schemas).unwrap();
    let baseline = Baseline::Lock(lock.clone());
    let (_, found) = check_compatibility(&registry, &baseline, Compat::Forward).unwrap();
    assert!(
        found.is_empty(),
        "unchanged since the last version: {found:#?}"
    );
    let (_, found) = check_compatibility(&registry, &baseline, Compat::ForwardTransitive).unwrap();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0]
            .to_string()
            .contains("enum value \"duplicate_order\" added"),
        "{found:#?}"
    );
}

/// A change to a definition in another file, reached only through `anyOf`
/// (`links/embeddedlinksarray.json` → `embeddedlinkpath.json`), is found in every event
/// using it, with the file it lives in; and the advice follows the semver scheme.
#[test]
fn an_external_definition_reached_through_any_of_is_compared() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    copy_dir(&fixture("tests/fixtures/cdevents-shaped/schemas"), &old);
    copy_dir(&old, &new);
    edit(&new.join("links/embeddedlinkpath.json"), |s| {
        s["properties"]["note"] = json!({"type": "string"});
    });
    let compared = compare_paths(&old, &new, Compat::Forward, Some(TYPE_POINTER)).unwrap();
    let ticket = compared
        .iter()
        .find(|c| c.new_type.as_deref() == Some("dev.cdevents.ticket.created.0.2.0"))
        .unwrap();
    assert_eq!(ticket.outcome, Outcome::Breaking, "{ticket:#?}");
    let change = &ticket.changes[0];
    assert!(
        change
            .pointer
            .ends_with("/items/anyOf/1/$ref/properties/note"),
        "{change:?}"
    );
    assert_eq!(
        change.definition.as_deref(),
        Some("links/embeddedlinkpath.json#/properties/note")
    );
    let finding = ticket.findings[0].to_string();
    assert!(
        finding.contains("optional property `note` added to a closed object"),
        "{finding}"
    );
    assert!(
        finding.contains("a schema with type `dev.cdevents.ticket.created.1.0.0`"),
        "{finding}"
    );
    assert!(!finding.contains("0.2.0.v"), "{finding}");
    // Under backward the same change breaks nobody; every using event is reported.
    let compared = compare_paths(&old, &new, Compat::Backward, Some(TYPE_POINTER)).unwrap();
    assert!(compared.iter().all(|c| !c.outcome.fails()), "{compared:#?}");
    let changed = compared
        .iter()
        .filter(|c| c.outcome == Outcome::Compatible)
        .count();
    let outcomes: Vec<_> = compared
        .iter()
        .map(|c| (c.subject.as_str(), c.outcome))
        .collect();
    assert_eq!(changed, 5, "{outcomes:?}");
}

#[test]
fn the_xregistry_compatibility_attribute_sets_the_mode() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = dir.path().join("catalog.json");
    fs::copy(fixture("tests/fixtures/xregistry/catalog.json"), &catalog).unwrap();
    let builder = || {
        Builder::new()
            .xregistry(&catalog)
            .profile(Profile::CloudEvents)
    };
    builder().update_lock(true).generate().unwrap();
    assert!(dir.path().join("cloudevent.lock.json").exists());
    let at = "/schemagroups/Fabrikam.SmartOven/schemas/Fabrikam.SmartOven.TurnedOn";
    edit(&catalog, |d| {
        d.pointer_mut(&format!("{at}/versions/1/schema/properties/mode/enum"))
            .unwrap()
            .as_array_mut()
            .unwrap()
            .push(json!("roast"));
    });
    let found = findings_of(builder().generate().unwrap_err());
    assert!(
        found[0].contains("enum value \"roast\" added"),
        "{found:#?}"
    );
    edit(&catalog, |d| {
        d.pointer_mut(at).unwrap()["compatibility"] = json!("backward");
    });
    builder().generate().unwrap();
}

/// The registry's `cloudevent-registry.toml` sets the gate's mode for the whole registry; a
/// mode given to the `Builder` wins over it.
#[test]
fn the_settings_file_sets_the_registry_mode() {
    let (_dir, schemas) = registry_copy();
    Builder::new()
        .schemas(&schemas)
        .update_lock(true)
        .generate()
        .unwrap();
    // Removing a property of an open object breaks forward, not backward.
    edit(&schemas.join(CANCELLED), |s| {
        s["properties"].as_object_mut().unwrap().remove("comment");
    });
    assert!(Builder::new().schemas(&schemas).generate().is_err());
    fs::write(
        schemas.join("cloudevent-registry.toml"),
        "compatibility = \"backward\"\n",
    )
    .unwrap();
    Builder::new().schemas(&schemas).generate().unwrap();
    let found = findings_of(
        Builder::new()
            .schemas(&schemas)
            .compat(Compat::Forward)
            .generate()
            .unwrap_err(),
    );
    assert!(
        found[0].contains("under `forward` compatibility"),
        "{found:#?}"
    );
    // A mode nobody defines is an error naming the key.
    fs::write(
        schemas.join("cloudevent-registry.toml"),
        "compatibility = \"sideways\"\n",
    )
    .unwrap();
    let found = findings_of(Builder::new().schemas(&schemas).generate().unwrap_err());
    assert!(
        found[0].contains("compatibility = \"sideways\""),
        "{found:#?}"
    );
}
