//! The compatibility rules, one row each (the table of `docs/compatibility.md`): an old
//! schema, a new one, the pointer of the change and the directions it breaks; and pairs
//! shaped like CDEvents' `approval.closed` under each mode.

use cloudevent_codegen::{Compat, diff_schemas};
use serde_json::{Value, json};

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

struct Case {
    name: &'static str,
    old: Value,
    new: Value,
    pointer: &'static str,
    backward: bool,
    forward: bool,
}

fn cases() -> Vec<Case> {
    let s = |extra: Value| {
        let mut base = json!({"type": "string"});
        if let (Some(b), Some(e)) = (base.as_object_mut(), extra.as_object()) {
            b.extend(e.clone());
        }
        object(json!({"a": base}), &["a"])
    };
    let n = |extra: Value| {
        let mut base = json!({"type": "integer"});
        if let (Some(b), Some(e)) = (base.as_object_mut(), extra.as_object()) {
            b.extend(e.clone());
        }
        object(json!({"a": base}), &["a"])
    };
    vec![
        Case {
            name: "property removed",
            old: object(
                json!({"a": {"type": "string"}, "b": {"type": "string"}}),
                &["a"],
            ),
            new: object(json!({"a": {"type": "string"}}), &["a"]),
            pointer: "/properties/b",
            backward: false,
            forward: true,
        },
        Case {
            name: "property renamed (shows as removed)",
            old: object(json!({"a": {"type": "string"}}), &[]),
            new: object(json!({"z": {"type": "string"}}), &[]),
            pointer: "/properties/a",
            backward: false,
            forward: true,
        },
        Case {
            name: "type changed",
            old: s(json!({})),
            new: n(json!({})),
            pointer: "/properties/a/type",
            backward: true,
            forward: true,
        },
        Case {
            name: "type narrowed number to integer",
            old: object(json!({"a": {"type": "number"}}), &["a"]),
            new: n(json!({})),
            pointer: "/properties/a/type",
            backward: true,
            forward: false,
        },
        Case {
            name: "type narrowed: null no longer allowed",
            old: object(json!({"a": {"type": ["string", "null"]}}), &["a"]),
            new: s(json!({})),
            pointer: "/properties/a/type",
            backward: true,
            forward: false,
        },
        Case {
            name: "type widened integer to number",
            old: n(json!({})),
            new: object(json!({"a": {"type": "number"}}), &["a"]),
            pointer: "/properties/a/type",
            backward: false,
            forward: true,
        },
        Case {
            name: "newly required",
            old: object(json!({"a": {"type": "string"}}), &[]),
            new: object(json!({"a": {"type": "string"}}), &["a"]),
            pointer: "/required",
            backward: true,
            forward: false,
        },
        Case {
            name: "required property added",
            old: object(json!({}), &[]),
            new: object(json!({"a": {"type": "string"}}), &["a"]),
            pointer: "/properties/a",
            backward: true,
            forward: false,
        },
        Case {
            name: "optional property added to open object",
            old: object(json!({}), &[]),
            new: object(json!({"a": {"type": "string"}}), &[]),
            pointer: "/properties/a",
            backward: true,
            forward: false,
        },
        Case {
            name: "optional property added to closed object",
            old: json!({"type": "object", "properties": {}, "additionalProperties": false}),
            new: json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}),
            pointer: "/properties/a",
            backward: false,
            forward: true,
        },
        Case {
            name: "enum value removed",
            old: s(json!({"enum": ["x", "y"]})),
            new: s(json!({"enum": ["x"]})),
            pointer: "/properties/a/enum",
            backward: true,
            forward: false,
        },
        Case {
            name: "enum added",
            old: s(json!({})),
            new: s(json!({"enum": ["x"]})),
            pointer: "/properties/a/enum",
            backward: true,
            forward: false,
        },
        Case {
            name: "additionalProperties closed",
            old: json!({"type": "object"}),
            new: json!({"type": "object", "additionalProperties": false}),
            pointer: "/additionalProperties",
            backward: true,
            forward: false,
        },
        Case {
            name: "additionalProperties opened",
            old: json!({"type": "object", "additionalProperties": false}),
            new: json!({"type": "object"}),
            pointer: "/additionalProperties",
            backward: false,
            forward: true,
        },
        Case {
            name: "minimum added",
            old: n(json!({})),
            new: n(json!({"minimum": 0})),
            pointer: "/properties/a/minimum",
            backward: true,
            forward: false,
        },
        Case {
            name: "maximum tightened",
            old: n(json!({"maximum": 10})),
            new: n(json!({"maximum": 5})),
            pointer: "/properties/a/maximum",
            backward: true,
            forward: false,
        },
        Case {
            name: "maximum loosened",
            old: n(json!({"maximum": 5})),
            new: n(json!({"maximum": 10})),
            pointer: "/properties/a/maximum",
            backward: false,
            forward: true,
        },
        Case {
            name: "minLength tightened",
            old: s(json!({"minLength": 1})),
            new: s(json!({"minLength": 3})),
            pointer: "/properties/a/minLength",
            backward: true,
            forward: false,
        },
        Case {
            name: "maxLength loosened",
            old: s(json!({"maxLength": 10})),
            new: s(json!({"maxLength": 100})),
            pointer: "/properties/a/maxLength",
            backward: false,
            forward: true,
        },
        Case {
            name: "maxItems removed",
            old: object(json!({"a": {"type": "array", "maxItems": 3}}), &[]),
            new: object(json!({"a": {"type": "array"}}), &[]),
            pointer: "/properties/a/maxItems",
            backward: false,
            forward: true,
        },
        Case {
            name: "minItems tightened",
            old: object(json!({"a": {"type": "array", "minItems": 0}}), &[]),
            new: object(json!({"a": {"type": "array", "minItems": 1}}), &[]),
            pointer: "/properties/a/minItems",
            backward: true,
            forward: false,
        },
        Case {
            name: "pattern changed",
            old: s(json!({"pattern": "^a"})),
            new: s(json!({"pattern": "^b"})),
            pointer: "/properties/a/pattern",
            backward: true,
            forward: true,
        },
        Case {
            name: "pattern added",
            old: s(json!({})),
            new: s(json!({"pattern": "^b"})),
            pointer: "/properties/a/pattern",
            backward: true,
            forward: false,
        },
        Case {
            name: "format added",
            old: s(json!({})),
            new: s(json!({"format": "uuid"})),
            pointer: "/properties/a/format",
            backward: true,
            forward: false,
        },
        Case {
            name: "const added",
            old: s(json!({})),
            new: s(json!({"const": "x"})),
            pointer: "/properties/a/const",
            backward: true,
            forward: false,
        },
        Case {
            name: "maxLength tightened",
            old: s(json!({"maxLength": 10})),
            new: s(json!({"maxLength": 5})),
            pointer: "/properties/a/maxLength",
            backward: true,
            forward: false,
        },
        Case {
            name: "minimum moved inward",
            old: n(json!({"minimum": 0})),
            new: n(json!({"minimum": 1})),
            pointer: "/properties/a/minimum",
            backward: true,
            forward: false,
        },
        Case {
            name: "minimum loosened",
            old: n(json!({"minimum": 1})),
            new: n(json!({"minimum": 0})),
            pointer: "/properties/a/minimum",
            backward: false,
            forward: true,
        },
        Case {
            name: "exclusiveMinimum added",
            old: n(json!({})),
            new: n(json!({"exclusiveMinimum": 0})),
            pointer: "/properties/a/exclusiveMinimum",
            backward: true,
            forward: false,
        },
        Case {
            name: "exclusiveMaximum tightened",
            old: n(json!({"exclusiveMaximum": 100})),
            new: n(json!({"exclusiveMaximum": 50})),
            pointer: "/properties/a/exclusiveMaximum",
            backward: true,
            forward: false,
        },
        Case {
            name: "maxProperties added",
            old: object(json!({"a": {"type": "object"}}), &["a"]),
            new: object(json!({"a": {"type": "object", "maxProperties": 3}}), &["a"]),
            pointer: "/properties/a/maxProperties",
            backward: true,
            forward: false,
        },
        Case {
            name: "minProperties removed",
            old: object(json!({"a": {"type": "object", "minProperties": 1}}), &["a"]),
            new: object(json!({"a": {"type": "object"}}), &["a"]),
            pointer: "/properties/a/minProperties",
            backward: false,
            forward: true,
        },
        Case {
            name: "multipleOf added",
            old: n(json!({})),
            new: n(json!({"multipleOf": 5})),
            pointer: "/properties/a/multipleOf",
            backward: true,
            forward: false,
        },
        Case {
            name: "format changed",
            old: s(json!({"format": "uuid"})),
            new: s(json!({"format": "date-time"})),
            pointer: "/properties/a/format",
            backward: true,
            forward: true,
        },
        Case {
            name: "const changed",
            old: s(json!({"const": "x"})),
            new: s(json!({"const": "y"})),
            pointer: "/properties/a/const",
            backward: true,
            forward: true,
        },
        Case {
            name: "enum value added",
            old: s(json!({"enum": ["x"]})),
            new: s(json!({"enum": ["x", "y"]})),
            pointer: "/properties/a/enum",
            backward: false,
            forward: true,
        },
        Case {
            name: "no longer required",
            old: object(json!({"a": {"type": "string"}}), &["a"]),
            new: object(json!({"a": {"type": "string"}}), &[]),
            pointer: "/required",
            backward: false,
            forward: true,
        },
        Case {
            name: "pattern removed",
            old: s(json!({"pattern": "^b"})),
            new: s(json!({})),
            pointer: "/properties/a/pattern",
            backward: false,
            forward: true,
        },
        Case {
            name: "description changed",
            old: s(json!({"description": "old"})),
            new: s(json!({"description": "new"})),
            pointer: "/properties/a",
            backward: false,
            forward: false,
        },
        Case {
            name: "nested: item property removed through $defs",
            old: json!({"type": "array", "items": {"$ref": "#/$defs/I"},
                "$defs": {"I": {"type": "object", "properties": {"x": {"type": "string"}}}}}),
            new: json!({"type": "array", "items": {"$ref": "#/$defs/I"},
                "$defs": {"I": {"type": "object", "properties": {}}}}),
            pointer: "/items/$ref/properties/x",
            backward: false,
            forward: true,
        },
        Case {
            name: "required property added to closed object",
            old: json!({"type": "object", "properties": {}, "additionalProperties": false}),
            new: json!({"type": "object", "properties": {"a": {}}, "required": ["a"], "additionalProperties": false}),
            pointer: "/properties/a",
            backward: true,
            forward: true,
        },
        Case {
            name: "property removed from closed object",
            old: json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}),
            new: json!({"type": "object", "properties": {}, "additionalProperties": false}),
            pointer: "/properties/a",
            backward: true,
            forward: false,
        },
        Case {
            name: "enum removed",
            old: s(json!({"enum": ["x"]})),
            new: s(json!({})),
            pointer: "/properties/a/enum",
            backward: false,
            forward: true,
        },
        Case {
            name: "type added",
            old: object(json!({"a": {}}), &[]),
            new: object(json!({"a": {"type": "string"}}), &[]),
            pointer: "/properties/a/type",
            backward: true,
            forward: false,
        },
        Case {
            name: "type removed",
            old: object(json!({"a": {"type": "string"}}), &[]),
            new: object(json!({"a": {}}), &[]),
            pointer: "/properties/a/type",
            backward: false,
            forward: true,
        },
        Case {
            name: "format removed",
            old: s(json!({"format": "uuid"})),
            new: s(json!({})),
            pointer: "/properties/a/format",
            backward: false,
            forward: true,
        },
        Case {
            name: "const removed",
            old: s(json!({"const": "x"})),
            new: s(json!({})),
            pointer: "/properties/a/const",
            backward: false,
            forward: true,
        },
        Case {
            name: "additionalProperties schema changed",
            old: json!({"type": "object", "additionalProperties": {"type": "string"}}),
            new: json!({"type": "object", "additionalProperties": {"type": "integer"}}),
            pointer: "/additionalProperties/type",
            backward: true,
            forward: true,
        },
        Case {
            name: "anyOf branch added",
            old: object(json!({"a": {"anyOf": [{"type": "string"}]}}), &[]),
            new: object(
                json!({"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}),
                &[],
            ),
            pointer: "/properties/a/anyOf/1",
            backward: false,
            forward: true,
        },
        Case {
            name: "anyOf branch removed",
            old: object(
                json!({"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}),
                &[],
            ),
            new: object(json!({"a": {"anyOf": [{"type": "integer"}]}}), &[]),
            pointer: "/properties/a/anyOf/0",
            backward: true,
            forward: false,
        },
        Case {
            name: "oneOf branch added",
            old: object(json!({"a": {"oneOf": [{"type": "string"}]}}), &[]),
            new: object(
                json!({"a": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}),
                &[],
            ),
            pointer: "/properties/a/oneOf/1",
            backward: true,
            forward: true,
        },
        Case {
            name: "allOf branch added",
            old: object(json!({"a": {"allOf": [{"type": "string"}]}}), &[]),
            new: object(
                json!({"a": {"allOf": [{"type": "string"}, {"minLength": 1}]}}),
                &[],
            ),
            pointer: "/properties/a/allOf/1",
            backward: true,
            forward: false,
        },
        Case {
            name: "allOf branch removed",
            old: object(
                json!({"a": {"allOf": [{"type": "string"}, {"minLength": 1}]}}),
                &[],
            ),
            new: object(json!({"a": {"allOf": [{"type": "string"}]}}), &[]),
            pointer: "/properties/a/allOf/1",
            backward: false,
            forward: true,
        },
        Case {
            name: "anyOf added",
            old: object(json!({"a": {}}), &[]),
            new: object(
                json!({"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}),
                &[],
            ),
            pointer: "/properties/a/anyOf",
            backward: true,
            forward: false,
        },
        Case {
            name: "anyOf removed",
            old: object(
                json!({"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}),
                &[],
            ),
            new: object(json!({"a": {}}), &[]),
            pointer: "/properties/a/anyOf",
            backward: false,
            forward: true,
        },
        Case {
            name: "schema became false",
            old: object(json!({"a": {"type": "array", "items": {}}}), &[]),
            new: object(json!({"a": {"type": "array", "items": false}}), &[]),
            pointer: "/properties/a/items",
            backward: true,
            forward: false,
        },
        Case {
            name: "a changed definition behind an equal $ref",
            old: json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}}),
            new: json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string", "maxLength": 3}}}),
            pointer: "/properties/a/$ref/maxLength",
            backward: true,
            forward: false,
        },
        Case {
            name: "$ref that names nothing",
            old: json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {}}}),
            new: json!({"properties": {"a": {"$ref": "#/$defs/B"}}, "$defs": {"A": {}}}),
            pointer: "/properties/a/$ref",
            backward: true,
            forward: true,
        },
        Case {
            name: "patternProperties changed (unclassified)",
            old: json!({"type": "object", "patternProperties": {"^x": {"type": "string"}}}),
            new: json!({"type": "object", "patternProperties": {"^x": {"type": "integer"}}}),
            pointer: "/patternProperties",
            backward: true,
            forward: true,
        },
        Case {
            name: "not changed (unclassified)",
            old: object(json!({"a": {"not": {"type": "string"}}}), &[]),
            new: object(json!({"a": {"not": {"type": "integer"}}}), &[]),
            pointer: "/properties/a/not",
            backward: true,
            forward: true,
        },
    ]
}

#[test]
fn every_rule_classifies_its_change_in_the_direction_it_breaks() {
    for case in cases() {
        let changes = diff_schemas(&case.old, &case.new);
        let change = changes
            .iter()
            .find(|c| c.pointer == case.pointer)
            .unwrap_or_else(|| {
                panic!(
                    "{}: no change at {} in {changes:?}",
                    case.name, case.pointer
                )
            });
        let breaks = change.breaks();
        assert_eq!(
            (breaks.backward, breaks.forward),
            (case.backward, case.forward),
            "{}: {change} classified wrongly",
            case.name
        );
        for (mode, expected) in [
            (Compat::Backward, case.backward),
            (Compat::Forward, case.forward),
            (Compat::Full, case.backward || case.forward),
            (Compat::None, false),
        ] {
            assert_eq!(
                change.breaks_mode(mode),
                expected,
                "{} under {mode}",
                case.name
            );
        }
        // The default is forward: old consumers must read new events.
        assert_eq!(change.is_breaking(), case.forward, "{}", case.name);
    }
}

#[test]
fn identical_schemas_have_no_changes() {
    for case in cases() {
        assert!(
            diff_schemas(&case.old, &case.old).is_empty(),
            "{}",
            case.name
        );
    }
}

#[test]
fn change_message_names_the_pointer_and_the_object() {
    let old = object(json!({"a": {"type": "string"}}), &[]);
    let new = object(json!({}), &[]);
    let changes = diff_schemas(&old, &new);
    assert_eq!(
        changes[0].to_string(),
        "property `a` removed (or renamed) from an open object at `/properties/a`"
    );
    // Not "required property added": issue 12's mislabel.
    let closed = json!({"type": "object", "properties": {}, "additionalProperties": false});
    let mut with_a = closed.clone();
    with_a["properties"]["a"] = json!({"type": "string"});
    assert_eq!(
        diff_schemas(&closed, &with_a)[0].to_string(),
        "optional property `a` added to a closed object (`additionalProperties: false`) at `/properties/a`"
    );
}
