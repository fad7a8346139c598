//! `cloudevent diff` on folders, on files of different event types and in the semver naming
//! scheme; exit codes 0/1/2; and the same message from `cloudevent codegen`'s lock gate.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{TempDir, cloudevent, codegen_to, copy_dir, edit_json, repo, text};
use serde_json::json;

/// The schema files of a registry (not its lock or notes).
fn is_json(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "json")
}

/// `old/` and `new/` copies of the bundled registry.
fn two_registries() -> (TempDir, PathBuf, PathBuf) {
    let dir = TempDir::new("diff");
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    copy_dir(&repo("schemas"), &old, is_json);
    copy_dir(&repo("schemas"), &new, is_json);
    (dir, old, new)
}

const CANCELLED: &str = "com.example.order.cancelled/v1.json";

#[test]
fn folders_are_paired_by_type_and_version() {
    let (_dir, old, new) = two_registries();
    let same = cloudevent::<&Path>(&["diff".as_ref(), &old, &new]);
    assert_eq!(same.status.code(), Some(0), "{}", text(&same.stderr));
    assert!(
        text(&same.stdout).contains(" 0 compatible, 0 breaking, 0 new, 0 removed"),
        "{}",
        text(&same.stdout)
    );

    edit_json(&new.join(CANCELLED), |s| {
        s["properties"]["reason"]["enum"]
            .as_array_mut()
            .unwrap()
            .push(json!("duplicate_order"));
    });
    let output = cloudevent::<&Path>(&["diff".as_ref(), &old, &new]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(
            "com.example.order.cancelled/v1: BREAKING (`com.example.order.cancelled`)\n  breaking   enum value \"duplicate_order\" added at `/properties/reason/enum` [breaks forward]"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("1 breaking, 0 new, 0 removed"), "{stdout}");
    assert!(
        stderr.contains(
            "add `com.example.order.cancelled/v2.json` with type `com.example.order.cancelled.v2`"
        ),
        "{stderr}"
    );
    let backward = cloudevent::<&Path>(&[
        "diff".as_ref(),
        "--compat".as_ref(),
        "backward".as_ref(),
        &old,
        &new,
    ]);
    assert_eq!(
        backward.status.code(),
        Some(0),
        "{}",
        text(&backward.stdout)
    );

    // A new major version beside v1 is new, a type gone is reported as removed.
    fs::remove_dir_all(new.join("com.example.order.shipped")).unwrap();
    copy_dir(
        &old.join("com.example.order.cancelled"),
        &new.join("com.example.order.refused"),
        is_json,
    );
    edit_json(&new.join("com.example.order.refused/v1.json"), |s| {
        s["x-cloudevent"]["type"] = json!("com.example.order.refused");
        s["$id"] = json!("https://schemas.example.com/events/com.example.order.refused/v1.json");
    });
    let output = cloudevent::<&Path>(&["diff".as_ref(), &old, &new]);
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("com.example.order.refused/v1: new"),
        "{stdout}"
    );
    assert!(
        stdout.contains("com.example.order.shipped/v1: removed"),
        "{stdout}"
    );
}

#[test]
fn unreadable_input_exits_2_with_a_sentence_never_a_raw_os_error() {
    let (dir, old, _) = two_registries();
    let empty = dir.path().join("empty");
    fs::create_dir_all(&empty).unwrap();
    let file = old.join(CANCELLED);
    for (a, b, needle) in [
        (&old, &empty, "no event schema found"),
        (&old, &file, "is a file while"),
        (&file, &old, "is a file while"),
    ] {
        let output = cloudevent::<&Path>(&["diff".as_ref(), a.as_path(), b.as_path()]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(needle), "{needle} not in {stderr}");
        assert!(!stderr.contains("Is a directory"), "{stderr}");
    }
    let missing = dir.path().join("missing");
    let output = cloudevent::<&Path>(&["diff".as_ref(), &old, &missing]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("missing: no such file or folder"),
        "{stderr}"
    );
    assert!(!stderr.contains("os error"), "{stderr}");
    let broken = dir.path().join("broken.json");
    fs::write(&broken, "{").unwrap();
    let output = cloudevent::<&Path>(&["diff".as_ref(), &file, &broken]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("not valid JSON"));
}

#[test]
fn a_change_of_event_type_is_reported_as_such() {
    let dir = TempDir::new("diff");
    let cancelled = repo(&format!("schemas/{CANCELLED}"));
    let other = dir.path().join("other.json");
    fs::copy(repo("schemas/com.example.order.shipped/v1.json"), &other).unwrap();
    let output = cloudevent::<&Path>(&["diff".as_ref(), &cancelled, &other]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert_eq!(
        stdout,
        "type changed (`com.example.order.cancelled` -> `com.example.order.shipped`): not two versions of one schema; not compared\n"
    );
    assert!(
        stderr.contains("the event type changed from `com.example.order.cancelled` to `com.example.order.shipped`"),
        "{stderr}"
    );

    // The next major version of the same type: a new type, whose changes break nobody.
    let v2 = dir.path().join("v2.json");
    fs::copy(&cancelled, &v2).unwrap();
    edit_json(&v2, |s| {
        s["x-cloudevent"]["type"] = json!("com.example.order.cancelled.v2");
        s["properties"].as_object_mut().unwrap().remove("comment");
    });
    let output = cloudevent::<&Path>(&["diff".as_ref(), &cancelled, &v2]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.starts_with(
            "new major version (`com.example.order.cancelled` -> `com.example.order.cancelled.v2`)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("compatible property `comment` removed"),
        "{stdout}"
    );
}

#[test]
fn semver_types_are_advised_their_next_major() {
    let dir = TempDir::new("diff");
    let schemas = dir.path().join("schemas");
    copy_dir(
        &repo("cloudevent-codegen/tests/fixtures/cdevents-shaped/schemas"),
        &schemas,
        is_json,
    );
    let old = dir.path().join("artifactpackaged-old.json");
    fs::copy(schemas.join("artifactpackaged.json"), &old).unwrap();
    let new = schemas.join("artifactpackaged.json");
    edit_json(&new, |s| {
        s["properties"]["subject"]["properties"]["content"]["properties"]["change"]["required"] =
            json!([]);
    });
    let pointer = "/properties/context/properties/type";
    let output = cloudevent::<&Path>(&[
        "diff".as_ref(),
        "--type-pointer".as_ref(),
        pointer.as_ref(),
        &old,
        &new,
    ]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("property `id` is no longer required"),
        "{stdout}"
    );
    assert!(
        stderr.contains("a schema with type `dev.cdevents.artifact.packaged.1.0.0`"),
        "{stderr}"
    );
    assert!(!stderr.contains("0.3.0.v2"), "{stderr}");
}

/// `cloudevent codegen` refuses a breaking change against its lock file with the findings
/// `cloudevent diff` prints, word for word.
#[test]
fn codegen_against_the_lock_says_what_diff_says() {
    let (dir, old, new) = two_registries();
    let out = dir.path().join("out.rs");
    let codegen = |extra: &[&str]| codegen_to(&new, &out, extra);
    let first = codegen(&["--update-lock"]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert!(dir.path().join("cloudevent.lock.json").exists());

    edit_json(&new.join(CANCELLED), |s| {
        s["required"]
            .as_array_mut()
            .unwrap()
            .retain(|r| r != "reason");
        s["properties"]["reason"]["enum"]
            .as_array_mut()
            .unwrap()
            .push(json!("duplicate_order"));
    });
    let refused = codegen(&[]);
    let codegen_err = text(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{codegen_err}");
    let diff = cloudevent::<&Path>(&["diff".as_ref(), &old, &new]);
    let diff_err = text(&diff.stderr);
    let findings: Vec<&str> = diff_err
        .lines()
        .filter_map(|l| l.strip_prefix("cloudevent diff: "))
        .collect();
    assert_eq!(findings.len(), 2, "{diff_err}");
    for finding in findings {
        assert!(
            codegen_err.contains(&format!("  - {finding}")),
            "`{finding}` not in {codegen_err}"
        );
    }
    // Recording the change needs a passing check; under backward it passes and is recorded.
    let accepted = codegen(&["--compat", "backward", "--update-lock"]);
    assert_eq!(
        accepted.status.code(),
        Some(0),
        "{}",
        text(&accepted.stderr)
    );
}

/// A lock file as OLD: a transitive mode compares with every version it holds.
#[test]
fn a_lock_file_gives_transitive_modes_every_version() {
    let (dir, _, new) = two_registries();
    let out = dir.path().join("out.rs");
    let lock = dir.path().join("cloudevent.lock.json");
    let codegen = |extra: &[&str]| codegen_to(&new, &out, extra);
    assert_eq!(codegen(&["--update-lock"]).status.code(), Some(0));
    // A value added, recorded under backward (which allows it): the lock now holds two.
    edit_json(&new.join(CANCELLED), |s| {
        s["properties"]["reason"]["enum"]
            .as_array_mut()
            .unwrap()
            .push(json!("duplicate_order"));
    });
    let recorded = codegen(&["--compat", "backward", "--update-lock"]);
    assert_eq!(
        recorded.status.code(),
        Some(0),
        "{}",
        text(&recorded.stderr)
    );

    let diff = |mode: &str| {
        cloudevent::<&Path>(&[
            "diff".as_ref(),
            "--compat".as_ref(),
            mode.as_ref(),
            &lock,
            &new,
        ])
    };
    let last = diff("forward");
    assert_eq!(last.status.code(), Some(0), "{}", text(&last.stdout));
    let every = diff("forward-transitive");
    let stdout = text(&every.stdout);
    assert_eq!(every.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("com.example.order.cancelled/v1: BREAKING"),
        "{stdout}"
    );
    assert!(
        stdout.contains("enum value \"duplicate_order\" added"),
        "{stdout}"
    );
}

/// Two xRegistry documents are compared message by message; the schema resource's
/// `compatibility` attribute sets the mode.
#[test]
fn xregistry_documents_are_compared_under_their_compatibility_attribute() {
    let dir = TempDir::new("diff");
    let old = dir.path().join("old.json");
    let new = dir.path().join("new.json");
    fs::copy(
        repo("cloudevent-codegen/tests/fixtures/xregistry/catalog.json"),
        &old,
    )
    .unwrap();
    fs::copy(&old, &new).unwrap();
    let at = "/schemagroups/Fabrikam.SmartOven/schemas/Fabrikam.SmartOven.TurnedOn";
    edit_json(&new, |d| {
        d.pointer_mut(&format!("{at}/versions/1/schema/properties/mode/enum"))
            .unwrap()
            .as_array_mut()
            .unwrap()
            .push(json!("roast"));
    });
    let output = cloudevent::<&Path>(&["diff".as_ref(), &old, &new]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("Fabrikam.SmartOven.TurnedOn/v1: BREAKING")
            || stdout.contains("BREAKING (`Fabrikam.SmartOven.TurnedOn`)"),
        "{stdout}"
    );
    assert!(stdout.contains("enum value \"roast\" added"), "{stdout}");
    edit_json(&new, |d| {
        d.pointer_mut(at).unwrap()["compatibility"] = json!("backward_transitive");
    });
    let output = cloudevent::<&Path>(&["diff".as_ref(), &old, &new]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
}
