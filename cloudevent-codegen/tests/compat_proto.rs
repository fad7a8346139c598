//! `.proto` entries in the breaking-change gate: the lock file recording the resolved
//! messages, and the gate's findings and modes (one case per rule of the `.proto` table in
//! `docs/compatibility.md` is a unit test, `src/diff/proto/tests.rs`).

use std::fs;
use std::path::{Path, PathBuf};

use cloudevent_codegen::{
    Baseline, Builder, CodegenError, Compat, Lock, Outcome, Registry, check_compatibility,
    compare_paths,
};

const TYPE: &str = "com.example.order.packed";

fn text_of(declarations: &str, extra_meta: &str) -> String {
    format!(
        "/* x-cloudevent: {{\"type\": \"{TYPE}\", \"message\": \"OrderPacked\", \
         \"source\": \"https://warehouse.example.com/packing\", \
         \"dataschema\": \"https://schemas.example.com/events/{TYPE}/v1.proto\"{extra_meta}}} */\n\
         syntax = \"proto3\";\npackage example.warehouse.v1;\n{declarations}\n"
    )
}

const CARRIER_OLD: &str =
    "enum Carrier { CARRIER_UNSPECIFIED = 0; CARRIER_POST = 1; CARRIER_COURIER = 2; }";

fn message(body: &str) -> String {
    format!("message OrderPacked {{ {body} }}")
}

/// A registry folder `<tmp>/schemas` holding one `.proto` entry.
fn proto_registry(declarations: &str, extra_meta: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let schemas = dir.path().join("schemas");
    write_entry(&schemas, declarations, extra_meta);
    (dir, schemas)
}

fn write_entry(schemas: &Path, declarations: &str, extra_meta: &str) {
    fs::create_dir_all(schemas.join(TYPE)).unwrap();
    fs::write(
        schemas.join(TYPE).join("v1.proto"),
        text_of(declarations, extra_meta),
    )
    .unwrap();
}

#[test]
fn the_lock_records_each_proto_entry_and_reads_it_back() {
    let (_dir, schemas) = proto_registry(
        &format!(
            "{CARRIER_OLD}\n{}",
            message("string order_id = 1; Carrier carrier = 4; reserved 2;")
        ),
        "",
    );
    let registry = Registry::load(&schemas).unwrap();
    let lock = Lock::of_registry(&registry).unwrap();
    let value = lock.to_value();
    let locked = &value["protobuf"][format!("{TYPE}/v1")][0];
    assert_eq!(locked["type"], TYPE);
    let fields = &locked["proto"]["messages"]["OrderPacked"]["fields"];
    assert_eq!(fields[1]["number"], 4);
    assert_eq!(fields[1]["type"], "enum Carrier");
    assert_eq!(fields[1]["label"], "singular");
    assert_eq!(
        locked["proto"]["messages"]["OrderPacked"]["reserved"]["numbers"][0][0],
        2
    );
    assert_eq!(
        locked["proto"]["enums"]["Carrier"]["values"][2][0],
        "CARRIER_COURIER"
    );
    assert_eq!(Lock::from_value(&value).unwrap(), lock);
    // An unchanged registry appends nothing.
    assert_eq!(lock.updated(&registry).unwrap(), lock);
}

fn gate(schemas: &Path, lock: &Path, compat: Compat) -> (Vec<String>, Vec<String>) {
    let registry = Registry::load(schemas).unwrap();
    let (rows, findings) =
        check_compatibility(&registry, &Baseline::Lock(lock.to_path_buf()), compat).unwrap();
    (
        rows.iter()
            .map(|r| format!("{} {}", r.schema, r.compatibility.status()))
            .collect(),
        findings.iter().map(ToString::to_string).collect(),
    )
}

#[test]
fn the_gate_refuses_a_removed_field_with_the_next_version_to_publish() {
    let (dir, schemas) = proto_registry(&message("string order_id = 1; uint32 parcels = 2;"), "");
    let lock = dir.path().join("cloudevent.lock.json");
    Lock::of_registry(&Registry::load(&schemas).unwrap())
        .unwrap()
        .write(&lock)
        .unwrap();
    let (rows, findings) = gate(&schemas, &lock, Compat::Forward);
    assert_eq!(rows, [format!("{TYPE}/v1.proto unchanged")]);
    assert!(findings.is_empty());

    write_entry(&schemas, &message("string order_id = 1;"), "");
    let (rows, findings) = gate(&schemas, &lock, Compat::Forward);
    assert_eq!(rows, [format!("{TYPE}/v1.proto BREAKING")]);
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let finding = &findings[0];
    for needle in [
        "breaking change to `v1.proto` under `forward` compatibility",
        "field 2 `parcels` removed without `reserved 2;`",
        "INTG-STD-015 R-4",
        &format!("add `{TYPE}/v2.proto` with type `{TYPE}.v2`"),
        &format!("https://schemas.example.com/events/{TYPE}/v2.proto"),
    ] {
        assert!(
            finding.contains(needle),
            "`{needle}` missing from: {finding}"
        );
    }
    // Reserving the number makes it compatible (and the lock is then behind).
    write_entry(&schemas, &message("string order_id = 1; reserved 2;"), "");
    let (rows, findings) = gate(&schemas, &lock, Compat::Full);
    assert_eq!(rows, [format!("{TYPE}/v1.proto compatible")]);
    assert!(findings.is_empty(), "{findings:#?}");
}

#[test]
fn modes_and_the_entrys_own_mode_choose_what_breaks() {
    let (dir, schemas) = proto_registry(&message("string s = 1;"), "");
    let lock = dir.path().join("cloudevent.lock.json");
    Lock::of_registry(&Registry::load(&schemas).unwrap())
        .unwrap()
        .write(&lock)
        .unwrap();
    // string -> bytes: an old reader may get bytes that are not UTF-8; breaks forward only.
    write_entry(&schemas, &message("bytes s = 1;"), "");
    assert_eq!(gate(&schemas, &lock, Compat::Forward).1.len(), 1);
    assert!(gate(&schemas, &lock, Compat::Backward).1.is_empty());
    write_entry(
        &schemas,
        &message("bytes s = 1;"),
        ", \"compatibility\": \"backward\"",
    );
    assert!(gate(&schemas, &lock, Compat::Forward).1.is_empty());
    write_entry(
        &schemas,
        &message("bytes s = 1;"),
        ", \"compatibility\": \"sideways\"",
    );
    let (_, findings) = gate(&schemas, &lock, Compat::Forward);
    assert!(
        findings[0].contains("/x-cloudevent/compatibility"),
        "{findings:#?}"
    );
}

#[test]
fn two_proto_files_and_two_folders_compare_with_exit_worthy_outcomes() {
    let (old_dir, old) = proto_registry(&message("string order_id = 1; uint32 parcels = 2;"), "");
    let (_new_dir, new) = proto_registry(
        &message("string order_id = 1; int64 parcels = 2; string note = 3;"),
        "",
    );
    let compared = compare_paths(&old, &new, Compat::Forward, None).unwrap();
    assert_eq!(compared.len(), 1);
    assert_eq!(compared[0].outcome, Outcome::Compatible);
    assert_eq!(compared[0].changes.len(), 2);
    let file = |root: &Path| root.join(TYPE).join("v1.proto");
    write_entry(
        &new,
        &message("string order_id = 1; float parcels = 2;"),
        "",
    );
    let compared = compare_paths(&file(&old), &file(&new), Compat::Forward, None).unwrap();
    assert_eq!(compared[0].outcome, Outcome::Breaking);
    assert!(compared[0].outcome.fails());
    // A lock as the old side.
    let lock = old_dir.path().join("cloudevent.lock.json");
    Lock::of_registry(&Registry::load(&old).unwrap())
        .unwrap()
        .write(&lock)
        .unwrap();
    let compared = compare_paths(&lock, &new, Compat::Forward, None).unwrap();
    assert_eq!(compared[0].outcome, Outcome::Breaking);
    match compare_paths(&lock, &new, Compat::None, None) {
        Ok(c) => assert_eq!(c[0].outcome, Outcome::Compatible),
        Err(CodegenError::Findings(f)) => panic!("{f:#?}"),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn the_builder_gate_refuses_what_the_lock_check_refuses() {
    let (dir, schemas) = proto_registry(&message("string order_id = 1; uint32 parcels = 2;"), "");
    let lock = dir.path().join("cloudevent.lock.json");
    let builder = || Builder::new().schemas(&schemas).lock_file(&lock);
    let first = builder().update_lock(true).generate_string().unwrap();
    assert!(
        first.contains("OrderPacked(order_packed_v1::OrderPacked)"),
        "{first}"
    );
    assert!(
        std::fs::read_to_string(&lock)
            .unwrap()
            .contains("\"protobuf\"")
    );

    write_entry(
        &schemas,
        &message("string order_id = 1; sint32 parcels = 2;"),
        "",
    );
    let findings = match builder().generate_string() {
        Err(CodegenError::Findings(found)) => found,
        other => panic!("expected findings, got {other:?}"),
    };
    let (_, checked) = gate(&schemas, &lock, Compat::Forward);
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].to_string(), checked[0]);
    assert!(
        checked[0].contains(
            "field 2 `parcels` type changed from `uint32` to `sint32` (not wire-compatible)"
        ),
        "{checked:?}"
    );
}

#[test]
fn a_lock_whose_protobuf_entry_is_mistyped_is_refused_by_name() {
    let lock = serde_json::json!({
        "lockversion": 1,
        "subjects": {},
        "protobuf": {"com.example.order.packed/v1": [{"type": TYPE}]}
    });
    let err = Lock::from_value(&lock).unwrap_err();
    assert!(err.contains("has no `proto`"), "{err}");
    let lock = serde_json::json!({
        "lockversion": 1,
        "subjects": {},
        "protobuf": {"com.example.order.packed/v1": [{"type": TYPE, "proto": {"message": 3}}]}
    });
    let err = Lock::from_value(&lock).unwrap_err();
    assert!(
        err.starts_with("`protobuf/com.example.order.packed/v1`"),
        "{err}"
    );
}
