//! `.proto` entries in the breaking-change gate: one case per rule of the `.proto` table in
//! `docs/compatibility.md` (the Protobuf language guide's "Updating A Message Type"), the lock
//! file recording the resolved messages, and the gate's findings and modes.

use std::fs;
use std::path::{Path, PathBuf};

use cloudevent_codegen::{
    Baseline, Breaks, Builder, Change, CodegenError, Compat, Lock, Outcome, ProtoFile, ProtoShape,
    Registry, check_compatibility_with, compare_paths, diff_proto,
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

fn shape(declarations: &str) -> ProtoShape {
    let file = ProtoFile::parse(
        "schemas".as_ref(),
        &format!("{TYPE}/v1.proto"),
        &text_of(declarations, ""),
    )
    .unwrap();
    ProtoShape::of(&file)
}

/// The single change between two versions, with the directions it breaks.
fn one_change(old: &str, new: &str) -> (Change, Breaks) {
    let changes = diff_proto(&shape(old), &shape(new));
    assert_eq!(changes.len(), 1, "expected one change: {changes:#?}");
    let breaks = changes[0].breaks();
    (changes.into_iter().next().unwrap(), breaks)
}

fn message(body: &str) -> String {
    format!("message OrderPacked {{ {body} }}")
}

#[test]
fn a_new_field_breaks_nobody() {
    let (change, breaks) = one_change(
        &message("string order_id = 1;"),
        &message("string order_id = 1; uint32 parcels = 2;"),
    );
    assert_eq!(breaks, Breaks::NONE);
    assert_eq!(change.pointer, "OrderPacked.parcels");
    assert_eq!(
        change.to_string(),
        "field 2 `parcels` added at `OrderPacked.parcels`"
    );
}

#[test]
fn a_removed_field_must_reserve_its_number() {
    let old = message("string order_id = 1; uint32 parcels = 2;");
    let (change, breaks) = one_change(&old, &message("string order_id = 1;"));
    assert_eq!(breaks, Breaks::BOTH);
    assert!(
        change.to_string().contains("without `reserved 2;`"),
        "{change}"
    );
    let (_, breaks) = one_change(&old, &message("string order_id = 1; reserved 2;"));
    assert_eq!(breaks, Breaks::NONE);
    let (_, breaks) = one_change(&old, &message("string order_id = 1; reserved 2 to 9;"));
    assert_eq!(breaks, Breaks::NONE);
}

#[test]
fn a_reserved_number_used_again_breaks_both_ways() {
    let (change, breaks) = one_change(
        &message("string order_id = 1; reserved 2;"),
        &message("string order_id = 1; int64 weight = 2;"),
    );
    assert_eq!(breaks, Breaks::BOTH);
    assert!(change.to_string().contains("reserved"), "{change}");
}

#[test]
fn a_renamed_field_is_compatible_on_the_wire() {
    let (change, breaks) = one_change(&message("string order_id = 1;"), &message("string id = 1;"));
    assert_eq!(breaks, Breaks::NONE);
    assert!(
        change.to_string().contains("compatible on the wire"),
        "{change}"
    );
}

#[test]
fn type_changes_follow_the_wire_compatible_groups() {
    let cases = [
        ("int32", "int64", Breaks::NONE),
        ("uint64", "bool", Breaks::NONE),
        ("sint32", "sint64", Breaks::NONE),
        ("fixed32", "sfixed32", Breaks::NONE),
        ("sfixed64", "fixed64", Breaks::NONE),
        ("Carrier", "int32", Breaks::NONE),
        ("uint64", "Carrier", Breaks::NONE),
        ("string", "bytes", Breaks::FORWARD),
        ("bytes", "string", Breaks::BACKWARD),
        ("Parcel", "bytes", Breaks::FORWARD),
        ("bytes", "Parcel", Breaks::BACKWARD),
        ("int32", "sint32", Breaks::BOTH),
        ("float", "double", Breaks::BOTH),
        ("fixed32", "uint32", Breaks::BOTH),
        ("Carrier", "bool", Breaks::BOTH),
        ("string", "int32", Breaks::BOTH),
        ("Parcel", "string", Breaks::BOTH),
    ];
    let declarations =
        "enum Carrier { CARRIER_UNSPECIFIED = 0; }\nmessage Parcel { string label = 1; }";
    for (old, new, expected) in cases {
        let (change, breaks) = one_change(
            &format!("{declarations}\n{}", message(&format!("{old} value = 3;"))),
            &format!("{declarations}\n{}", message(&format!("{new} value = 3;"))),
        );
        assert_eq!(breaks, expected, "{old} -> {new}: {change}");
    }
}

#[test]
fn label_changes_depend_on_packing() {
    let cases = [
        ("uint32 n = 1;", "optional uint32 n = 1;", Breaks::NONE),
        ("optional string s = 1;", "string s = 1;", Breaks::NONE),
        ("string s = 1;", "repeated string s = 1;", Breaks::NONE),
        ("repeated bytes b = 1;", "bytes b = 1;", Breaks::NONE),
        ("uint32 n = 1;", "repeated uint32 n = 1;", Breaks::FORWARD),
        ("repeated uint32 n = 1;", "uint32 n = 1;", Breaks::BACKWARD),
    ];
    for (old, new, expected) in cases {
        let (change, breaks) = one_change(&message(old), &message(new));
        assert_eq!(breaks, expected, "{old} -> {new}: {change}");
        assert!(change.to_string().contains("label changed"), "{change}");
    }
}

const CARRIER_OLD: &str =
    "enum Carrier { CARRIER_UNSPECIFIED = 0; CARRIER_POST = 1; CARRIER_COURIER = 2; }";

fn with_carrier(carrier: &str) -> String {
    format!("{carrier}\n{}", message("Carrier carrier = 4;"))
}

#[test]
fn enum_values_removed_added_and_renamed() {
    let old = with_carrier(CARRIER_OLD);
    let (change, breaks) = one_change(
        &old,
        &with_carrier("enum Carrier { CARRIER_UNSPECIFIED = 0; CARRIER_POST = 1; }"),
    );
    assert_eq!(breaks, Breaks::BOTH);
    assert_eq!(change.pointer, "OrderPacked.carrier");
    assert!(
        change
            .to_string()
            .contains("`CARRIER_COURIER` = 2 removed without `reserved 2;`"),
        "{change}"
    );
    let (_, breaks) = one_change(
        &old,
        &with_carrier("enum Carrier { CARRIER_UNSPECIFIED = 0; CARRIER_POST = 1; reserved 2; }"),
    );
    assert_eq!(breaks, Breaks::BACKWARD);
    let (_, breaks) = one_change(
        &old,
        &with_carrier(
            "enum Carrier { CARRIER_UNSPECIFIED = 0; CARRIER_POST = 1; CARRIER_COURIER = 2; CARRIER_DRONE = 3; }",
        ),
    );
    assert_eq!(breaks, Breaks::NONE);
    let (change, breaks) = one_change(
        &old,
        &with_carrier(
            "enum Carrier { CARRIER_UNSPECIFIED = 0; CARRIER_MAIL = 1; CARRIER_COURIER = 2; }",
        ),
    );
    assert_eq!(breaks, Breaks::NONE);
    assert!(change.to_string().contains("renamed"), "{change}");
    let (_, breaks) = one_change(
        &with_carrier("enum Carrier { CARRIER_UNSPECIFIED = 0; reserved 5; }"),
        &with_carrier("enum Carrier { CARRIER_UNSPECIFIED = 0; CARRIER_DRONE = 5; }"),
    );
    assert_eq!(breaks, Breaks::BOTH);
}

#[test]
fn nested_messages_are_compared_by_content_whatever_their_names() {
    let old = format!(
        "message Parcel {{ string label = 1; uint32 weight_grams = 2; }}\n{}",
        message("repeated Parcel parcels = 3;")
    );
    // The nested message's field changed type: reported at its path through the outer field.
    let (change, breaks) = one_change(
        &old,
        &format!(
            "message Parcel {{ string label = 1; float weight_grams = 2; }}\n{}",
            message("repeated Parcel parcels = 3;")
        ),
    );
    assert_eq!(breaks, Breaks::BOTH);
    assert_eq!(change.pointer, "OrderPacked.parcels.weight_grams");
    // A message renamed with the same content is no change: names are not on the wire.
    let renamed = format!(
        "message Box {{ string label = 1; uint32 weight_grams = 2; }}\n{}",
        message("repeated Box parcels = 3;")
    );
    assert!(diff_proto(&shape(&old), &shape(&renamed)).is_empty());
}

#[test]
fn a_recursive_message_is_compared_once() {
    let old = format!(
        "message Node {{ string name = 1; repeated Node children = 2; }}\n{}",
        message("Node root = 1;")
    );
    let new = format!(
        "message Node {{ string name = 1; repeated Node children = 2; uint32 depth = 3; }}\n{}",
        message("Node root = 1;")
    );
    let changes = diff_proto(&shape(&old), &shape(&new));
    assert_eq!(changes.len(), 1, "{changes:#?}");
    assert_eq!(changes[0].pointer, "OrderPacked.root.depth");
}

#[test]
fn another_package_changes_the_type_url_and_breaks_both_ways() {
    let old = shape(&message("string order_id = 1;"));
    let mut new = old.clone();
    new.type_url = "type.googleapis.com/example.warehouse.v2.OrderPacked".into();
    let changes = diff_proto(&old, &new);
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].breaks(), Breaks::BOTH);
    assert!(
        changes[0].to_string().contains("type URL"),
        "{}",
        changes[0]
    );
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
        check_compatibility_with(&registry, &Baseline::Lock(lock.to_path_buf()), compat).unwrap();
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
