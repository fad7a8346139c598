//! One case per rule of the `.proto` table in `docs/compatibility.md` (the Protobuf language
//! guide's "Updating A Message Type"): each change between two versions of a message, with
//! the directions it breaks.

use super::{ProtoShape, diff_proto};
use crate::diff::{Breaks, Change, Compat};
use crate::protobuf::ProtoFile;

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

#[test]
fn a_removed_field_breaks_unless_its_number_is_reserved() {
    let file = |body: &str| {
        let text = format!(
            r#"/* x-cloudevent: {{"type": "com.example.order.packed", "message": "OrderPacked",
          "dataschema": "https://schemas.example.com/events/com.example.order.packed/v1.proto"}} */
        syntax = "proto3"; message OrderPacked {{ {body} }}"#
        );
        ProtoShape::of(
            &ProtoFile::parse("s".as_ref(), "com.example.order.packed/v1.proto", &text).unwrap(),
        )
    };
    let old = file("string order_id = 1; uint32 parcels = 2;");
    // Field 2 removed without reserving its number: breaks every mode but `none`.
    let changes = diff_proto(&old, &file("string order_id = 1;"));
    assert!(changes[0].breaks_mode(Compat::Forward) && changes[0].breaks_mode(Compat::Backward));
    // Reserved, it breaks nobody; a renamed field neither.
    let changes = diff_proto(&old, &file("string id = 1; reserved 2;"));
    assert_eq!(changes.len(), 2);
    assert!(changes.iter().all(|c| !c.breaks_mode(Compat::Full)));
}

#[test]
fn the_shape_holds_what_the_event_message_reaches() {
    let text = r#"/* x-cloudevent: {"type": "com.example.order.packed", "message": "OrderPacked",
      "dataschema": "https://schemas.example.com/events/com.example.order.packed/v1.proto"} */
    syntax = "proto3"; package example.v1;
    enum Size { SIZE_UNSPECIFIED = 0; }
    message Unused { string x = 1; }
    message OrderPacked { string order_id = 1; repeated Size sizes = 2; reserved 3; }"#;
    let file = ProtoFile::parse(
        "schemas".as_ref(),
        "com.example.order.packed/v1.proto",
        text,
    )
    .unwrap();
    let shape = ProtoShape::of(&file);
    assert_eq!(shape.messages.len(), 1);
    assert_eq!(
        shape.messages["OrderPacked"].fields[1].type_name,
        "enum Size"
    );
    assert_eq!(shape.messages["OrderPacked"].reserved.numbers, [(3, 3)]);
}
