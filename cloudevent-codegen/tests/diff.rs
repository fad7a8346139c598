//! The breaking-change rules, one row each: an old schema, a new one, the pointer and whether
//! the change breaks consumers of the old schema.

use cloudevent_codegen::diff_schemas;
use serde_json::{Value, json};

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

struct Case {
    name: &'static str,
    old: Value,
    new: Value,
    pointer: &'static str,
    breaking: bool,
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
            breaking: true,
        },
        Case {
            name: "property renamed (shows as removed)",
            old: object(json!({"a": {"type": "string"}}), &[]),
            new: object(json!({"z": {"type": "string"}}), &[]),
            pointer: "/properties/a",
            breaking: true,
        },
        Case {
            name: "type changed",
            old: s(json!({})),
            new: n(json!({})),
            pointer: "/properties/a/type",
            breaking: true,
        },
        Case {
            name: "type narrowed number to integer",
            old: object(json!({"a": {"type": "number"}}), &["a"]),
            new: n(json!({})),
            pointer: "/properties/a/type",
            breaking: true,
        },
        Case {
            name: "type narrowed: null no longer allowed",
            old: object(json!({"a": {"type": ["string", "null"]}}), &["a"]),
            new: s(json!({})),
            pointer: "/properties/a/type",
            breaking: true,
        },
        Case {
            name: "type widened integer to number",
            old: n(json!({})),
            new: object(json!({"a": {"type": "number"}}), &["a"]),
            pointer: "/properties/a/type",
            breaking: false,
        },
        Case {
            name: "newly required",
            old: object(json!({"a": {"type": "string"}}), &[]),
            new: object(json!({"a": {"type": "string"}}), &["a"]),
            pointer: "/required",
            breaking: true,
        },
        Case {
            name: "required property added",
            old: object(json!({}), &[]),
            new: object(json!({"a": {"type": "string"}}), &["a"]),
            pointer: "/properties/a",
            breaking: true,
        },
        Case {
            name: "optional property added to open object",
            old: object(json!({}), &[]),
            new: object(json!({"a": {"type": "string"}}), &[]),
            pointer: "/properties/a",
            breaking: false,
        },
        Case {
            name: "optional property added to closed object",
            old: json!({"type": "object", "properties": {}, "additionalProperties": false}),
            new: json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}),
            pointer: "/properties/a",
            breaking: true,
        },
        Case {
            name: "enum value removed",
            old: s(json!({"enum": ["x", "y"]})),
            new: s(json!({"enum": ["x"]})),
            pointer: "/properties/a/enum",
            breaking: true,
        },
        Case {
            name: "enum added",
            old: s(json!({})),
            new: s(json!({"enum": ["x"]})),
            pointer: "/properties/a/enum",
            breaking: true,
        },
        Case {
            name: "additionalProperties closed",
            old: json!({"type": "object"}),
            new: json!({"type": "object", "additionalProperties": false}),
            pointer: "/additionalProperties",
            breaking: true,
        },
        Case {
            name: "additionalProperties opened",
            old: json!({"type": "object", "additionalProperties": false}),
            new: json!({"type": "object"}),
            pointer: "/additionalProperties",
            breaking: false,
        },
        Case {
            name: "minimum added",
            old: n(json!({})),
            new: n(json!({"minimum": 0})),
            pointer: "/properties/a/minimum",
            breaking: true,
        },
        Case {
            name: "maximum tightened",
            old: n(json!({"maximum": 10})),
            new: n(json!({"maximum": 5})),
            pointer: "/properties/a/maximum",
            breaking: true,
        },
        Case {
            name: "maximum loosened",
            old: n(json!({"maximum": 5})),
            new: n(json!({"maximum": 10})),
            pointer: "/properties/a/maximum",
            breaking: false,
        },
        Case {
            name: "minLength tightened",
            old: s(json!({"minLength": 1})),
            new: s(json!({"minLength": 3})),
            pointer: "/properties/a/minLength",
            breaking: true,
        },
        Case {
            name: "maxLength loosened",
            old: s(json!({"maxLength": 10})),
            new: s(json!({"maxLength": 100})),
            pointer: "/properties/a/maxLength",
            breaking: false,
        },
        Case {
            name: "maxItems removed",
            old: object(json!({"a": {"type": "array", "maxItems": 3}}), &[]),
            new: object(json!({"a": {"type": "array"}}), &[]),
            pointer: "/properties/a/maxItems",
            breaking: false,
        },
        Case {
            name: "minItems tightened",
            old: object(json!({"a": {"type": "array", "minItems": 0}}), &[]),
            new: object(json!({"a": {"type": "array", "minItems": 1}}), &[]),
            pointer: "/properties/a/minItems",
            breaking: true,
        },
        Case {
            name: "pattern changed",
            old: s(json!({"pattern": "^a"})),
            new: s(json!({"pattern": "^b"})),
            pointer: "/properties/a/pattern",
            breaking: true,
        },
        Case {
            name: "pattern added",
            old: s(json!({})),
            new: s(json!({"pattern": "^b"})),
            pointer: "/properties/a/pattern",
            breaking: true,
        },
        Case {
            name: "format added",
            old: s(json!({})),
            new: s(json!({"format": "uuid"})),
            pointer: "/properties/a/format",
            breaking: true,
        },
        Case {
            name: "const added",
            old: s(json!({})),
            new: s(json!({"const": "x"})),
            pointer: "/properties/a/const",
            breaking: true,
        },
        Case {
            name: "maxLength tightened",
            old: s(json!({"maxLength": 10})),
            new: s(json!({"maxLength": 5})),
            pointer: "/properties/a/maxLength",
            breaking: true,
        },
        Case {
            name: "minimum moved inward",
            old: n(json!({"minimum": 0})),
            new: n(json!({"minimum": 1})),
            pointer: "/properties/a/minimum",
            breaking: true,
        },
        Case {
            name: "minimum loosened",
            old: n(json!({"minimum": 1})),
            new: n(json!({"minimum": 0})),
            pointer: "/properties/a/minimum",
            breaking: false,
        },
        Case {
            name: "exclusiveMinimum added",
            old: n(json!({})),
            new: n(json!({"exclusiveMinimum": 0})),
            pointer: "/properties/a/exclusiveMinimum",
            breaking: true,
        },
        Case {
            name: "exclusiveMaximum tightened",
            old: n(json!({"exclusiveMaximum": 100})),
            new: n(json!({"exclusiveMaximum": 50})),
            pointer: "/properties/a/exclusiveMaximum",
            breaking: true,
        },
        Case {
            name: "maxProperties added",
            old: object(json!({"a": {"type": "object"}}), &["a"]),
            new: object(json!({"a": {"type": "object", "maxProperties": 3}}), &["a"]),
            pointer: "/properties/a/maxProperties",
            breaking: true,
        },
        Case {
            name: "minProperties removed",
            old: object(json!({"a": {"type": "object", "minProperties": 1}}), &["a"]),
            new: object(json!({"a": {"type": "object"}}), &["a"]),
            pointer: "/properties/a/minProperties",
            breaking: false,
        },
        Case {
            name: "multipleOf added",
            old: n(json!({})),
            new: n(json!({"multipleOf": 5})),
            pointer: "/properties/a/multipleOf",
            breaking: true,
        },
        Case {
            name: "format changed",
            old: s(json!({"format": "uuid"})),
            new: s(json!({"format": "date-time"})),
            pointer: "/properties/a/format",
            breaking: true,
        },
        Case {
            name: "const changed",
            old: s(json!({"const": "x"})),
            new: s(json!({"const": "y"})),
            pointer: "/properties/a/const",
            breaking: true,
        },
        Case {
            name: "enum value added",
            old: s(json!({"enum": ["x"]})),
            new: s(json!({"enum": ["x", "y"]})),
            pointer: "/properties/a/enum",
            breaking: false,
        },
        Case {
            name: "no longer required",
            old: object(json!({"a": {"type": "string"}}), &["a"]),
            new: object(json!({"a": {"type": "string"}}), &[]),
            pointer: "/required",
            breaking: false,
        },
        Case {
            name: "pattern removed",
            old: s(json!({"pattern": "^b"})),
            new: s(json!({})),
            pointer: "/properties/a/pattern",
            breaking: false,
        },
        Case {
            name: "description changed",
            old: s(json!({"description": "old"})),
            new: s(json!({"description": "new"})),
            pointer: "/properties/a",
            breaking: false,
        },
        Case {
            name: "nested: item property removed through $defs",
            old: json!({"type": "array", "items": {"$ref": "#/$defs/I"},
                "$defs": {"I": {"type": "object", "properties": {"x": {"type": "string"}}}}}),
            new: json!({"type": "array", "items": {"$ref": "#/$defs/I"},
                "$defs": {"I": {"type": "object", "properties": {}}}}),
            pointer: "/$defs/I/properties/x",
            breaking: true,
        },
    ]
}

#[test]
fn every_rule_classifies_its_change() {
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
        assert_eq!(
            change.is_breaking(),
            case.breaking,
            "{}: {change} classified wrongly",
            case.name
        );
        assert_eq!(
            changes.iter().any(|c| c.is_breaking()),
            case.breaking,
            "{}: {changes:?}",
            case.name
        );
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
fn change_message_names_the_pointer() {
    let old = object(json!({"a": {"type": "string"}}), &[]);
    let new = object(json!({}), &[]);
    let changes = diff_schemas(&old, &new);
    assert_eq!(
        changes[0].to_string(),
        "property `a` removed (or renamed) at `/properties/a`"
    );
}
