//! The differ on resolved schemas: `$ref`s followed on both sides (renamed definitions,
//! recursive ones, a change behind an unclassified keyword), and pairs shaped like CDEvents'
//! `approval.closed` under each mode, with the verdicts of `docs/compatibility.md`.

use cloudevent_codegen::{Compat, diff_schemas};
use serde_json::{Value, json};

#[test]
fn a_definition_renamed_with_equal_content_is_no_change() {
    let old =
        json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}});
    let new =
        json!({"properties": {"a": {"$ref": "#/$defs/B"}}, "$defs": {"B": {"type": "string"}}});
    assert_eq!(diff_schemas(&old, &new), vec![]);
    let inline = json!({"properties": {"a": {"type": "string"}}});
    assert_eq!(diff_schemas(&inline, &new), vec![]);
}

#[test]
fn a_change_behind_a_ref_under_not_is_unclassified() {
    let schema = |max: u64| {
        json!({"properties": {"a": {"not": {"$ref": "#/$defs/A"}}},
            "$defs": {"A": {"type": "string", "maxLength": max}}})
    };
    let changes = diff_schemas(&schema(3), &schema(5));
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0].pointer, "/properties/a/not");
    assert!(changes[0].breaks_mode(Compat::Backward) && changes[0].breaks_mode(Compat::Forward));
}

#[test]
fn a_recursive_definition_is_compared_once() {
    let tree = |extra: Value| {
        json!({"$ref": "#/$defs/node", "$defs": {"node": {"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}, "name": extra}}}})
    };
    let changes = diff_schemas(
        &tree(json!({"type": "string"})),
        &tree(json!({"type": "integer"})),
    );
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0].pointer, "/$ref/properties/name/type");
    assert_eq!(
        changes[0].definition.as_deref(),
        Some("#/$defs/node/properties/name/type")
    );
}

/// An event schema shaped like CDEvents' `approval.closed` (written for this test, not
/// copied): a context with the type, a subject whose content has a `status` enum, and links
/// reached through `$defs` and `anyOf`.
fn approval_closed() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.dev/schema/approval-closed-event",
        "description": "An approval was closed.",
        "type": "object",
        "properties": {
            "context": {"type": "object", "properties": {
                "type": {"type": "string", "enum": ["dev.example.approval.closed.0.1.0"]},
                "id": {"type": "string", "minLength": 1}
            }, "required": ["type", "id"]},
            "subject": {"type": "object", "properties": {
                "id": {"type": "string"},
                "content": {"type": "object", "properties": {
                    "status": {"type": "string", "enum": ["approved", "rejected"]},
                    "comment": {"type": "string"}
                }, "required": ["status"], "additionalProperties": false}
            }, "required": ["id", "content"]},
            "links": {"$ref": "#/$defs/links"}
        },
        "required": ["context", "subject"],
        "$defs": {
            "links": {"type": "array", "items": {"anyOf": [
                {"$ref": "#/$defs/linkPath"},
                {"$ref": "#/$defs/linkEnd"}
            ]}},
            "linkPath": {"type": "object", "properties": {
                "linkType": {"const": "PATH"},
                "from": {"type": "string"}
            }, "required": ["linkType", "from"], "additionalProperties": false},
            "linkEnd": {"type": "object", "properties": {
                "linkType": {"const": "END"},
                "target": {"type": "string"}
            }, "required": ["linkType", "target"], "additionalProperties": false}
        }
    })
}

#[test]
fn approval_closed_pairs_get_the_verdicts_of_the_table() {
    let old = approval_closed();
    let edit = |f: &dyn Fn(&mut Value)| {
        let mut new = old.clone();
        f(&mut new);
        new
    };
    // (name, new schema, pointer of the change, breaks backward, forward, full)
    let pairs = [
        (
            "description edit",
            edit(&|s| s["description"] = json!("An approval was closed, approved or not.")),
            "",
            false,
            false,
            false,
        ),
        (
            "enum value added",
            edit(&|s| {
                s["properties"]["subject"]["properties"]["content"]["properties"]["status"]["enum"] =
                    json!(["approved", "rejected", "withdrawn"]);
            }),
            "/properties/subject/properties/content/properties/status/enum",
            false,
            true,
            true,
        ),
        (
            "required status made optional",
            edit(&|s| {
                s["properties"]["subject"]["properties"]["content"]["required"] = json!([]);
            }),
            "/properties/subject/properties/content/required",
            false,
            true,
            true,
        ),
        (
            "a $defs change reached only through anyOf",
            edit(&|s| {
                s["$defs"]["linkPath"]["properties"]["domainId"] = json!({"type": "string"});
            }),
            "/properties/links/$ref/items/anyOf/0/$ref/properties/domainId",
            false,
            true,
            true,
        ),
    ];
    for (name, new, pointer, backward, forward, full) in pairs {
        let changes = diff_schemas(&old, &new);
        assert_eq!(changes.len(), 1, "{name}: {changes:?}");
        assert_eq!(changes[0].pointer, pointer, "{name}");
        for (mode, expected) in [
            (Compat::Backward, backward),
            (Compat::Forward, forward),
            (Compat::Full, full),
        ] {
            assert_eq!(
                changes.iter().any(|c| c.breaks_mode(mode)),
                expected,
                "{name} under {mode}: {changes:?}"
            );
        }
    }
    // The `$defs` change names where the definition lives.
    let new =
        edit(&|s| s["$defs"]["linkPath"]["properties"]["domainId"] = json!({"type": "string"}));
    assert_eq!(
        diff_schemas(&old, &new)[0].definition.as_deref(),
        Some("#/$defs/linkPath/properties/domainId")
    );
}

#[test]
fn an_unbundled_external_ref_is_no_change_when_equal_and_unresolved_otherwise() {
    let schema = |target: &str| json!({"properties": {"links": {"$ref": target}}});
    let same = schema("links/embeddedlinksarray.json");
    assert_eq!(diff_schemas(&same, &same), vec![]);
    let changes = diff_schemas(&same, &schema("links/other.json"));
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0].pointer, "/properties/links/$ref");
    assert!(
        changes[0].to_string().contains("names nothing"),
        "{}",
        changes[0]
    );
}
