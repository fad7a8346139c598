//! The text check's "yes" held to `jsonschema`'s verdict (the registry's `Value` path,
//! `CompiledSchema::findings`): keyword by keyword, on the JSON-Schema-Test-Suite, and on text
//! naming members twice.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::TextCheck;
use crate::registry::schema::CompiledSchema;

fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR")))
        .join("..")
        .to_path_buf()
}

/// Whether `jsonschema`, with the registry's settings, finds `text` valid under `schema`.
fn valid(schema: &CompiledSchema, text: &str) -> bool {
    let value: Value = serde_json::from_str(text).expect("the case is JSON");
    schema.findings("com.example.test", &value).is_empty()
}

#[test]
fn the_registry_schemas_compile_and_their_event_is_accepted() {
    let mut compiled = 0;
    for dir in std::fs::read_dir(root().join("schemas")).unwrap() {
        let dir = dir.unwrap().path();
        for file in std::fs::read_dir(&dir).into_iter().flatten() {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|e| e == "json") {
                let schema: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
                assert!(TextCheck::compile(&schema).is_some(), "{}", file.display());
                compiled += 1;
            }
        }
    }
    assert!(compiled >= 9, "{compiled}");
    let schema: Value = serde_json::from_slice(
        &std::fs::read(root().join("schemas/com.example.order.created/v1.json")).unwrap(),
    )
    .unwrap();
    let event: Value = serde_json::from_slice(
        &std::fs::read(root().join("cloudevent-cli/tests/data/registry/order-created.json"))
            .unwrap(),
    )
    .unwrap();
    let check = TextCheck::compile(&schema).unwrap();
    assert!(check.accepts(&event["data"].to_string()));
    assert!(check.accepts(&serde_json::to_string_pretty(&event["data"]).unwrap()));
}

/// `(schema, text, accepted)`: each keyword, with a value it takes, one it refuses and one
/// it leaves to the tree.
fn cases() -> Vec<(Value, &'static str, bool)> {
    let object = json!({
        "type": "object",
        "required": ["a"],
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "additionalProperties": false,
    });
    vec![
        (json!({"type": "integer"}), "1", true),
        (json!({"type": "integer"}), "-17", true),
        (json!({"type": "integer"}), "1.0", false),
        (json!({"type": "integer"}), "-0", false),
        (json!({"type": "integer"}), "1234567890123456789", false),
        (json!({"type": "integer"}), "\"1\"", false),
        (json!({"type": "number"}), "1.5e3", true),
        (json!({"type": "number"}), "-0", true),
        (json!({"type": "number"}), "1e400", false),
        (json!({"type": ["string", "null"]}), "null", true),
        (json!({"type": ["string", "null"]}), "true", false),
        (json!({"type": "boolean"}), "false", true),
        (json!({"type": "string"}), r#""a\nb\"c""#, true),
        (json!({"type": "string"}), r#""\u0061""#, false),
        (json!({"enum": ["web", "store"]}), r#""web""#, true),
        (json!({"enum": ["web", "store"]}), r#""mobile""#, false),
        (json!({"enum": ["web", "store"]}), r#""\/web""#, false),
        (json!({"enum": ["web", "store"]}), "1", false),
        (
            json!({"oneOf": [{"const": "a", "title": "A"}, {"const": "b", "type": "string"}]}),
            r#""b""#,
            true,
        ),
        (
            json!({"oneOf": [{"const": "a", "title": "A"}, {"const": "b", "type": "string"}]}),
            r#""c""#,
            false,
        ),
        (
            json!({"anyOf": [{"const": "a"}, {"const": "a"}]}),
            r#""a""#,
            true,
        ),
        (json!({"const": "EUR"}), r#""EUR""#, true),
        (json!({"const": "EUR"}), r#""USD""#, false),
        (json!({"minLength": 2, "maxLength": 3}), r#""éé""#, true),
        (json!({"minLength": 2, "maxLength": 3}), r#""é""#, false),
        (json!({"minLength": 2, "maxLength": 3}), r#""abcd""#, false),
        (json!({"minLength": 2}), "7", true),
        (
            json!({"format": "date-time"}),
            r#""2026-03-28T14:22:31.482Z""#,
            true,
        ),
        (
            json!({"format": "date-time"}),
            r#""2026-02-30T00:00:00Z""#,
            false,
        ),
        (json!({"format": "date-time"}), r#""yesterday""#, false),
        (json!({"format": "uuid"}), r#""not a uuid""#, true),
        (json!({"minimum": 1, "maximum": 3}), "1", true),
        (json!({"minimum": 1, "maximum": 3}), "0", false),
        (json!({"minimum": 1, "maximum": 3}), "4", false),
        (json!({"minimum": 1, "maximum": 3}), "1.5", false),
        (json!({"minimum": 1}), "\"text\"", true),
        (
            json!({"exclusiveMinimum": 1, "exclusiveMaximum": 3}),
            "2",
            true,
        ),
        (
            json!({"exclusiveMinimum": 1, "exclusiveMaximum": 3}),
            "3",
            false,
        ),
        (
            json!({"exclusiveMinimum": 1, "exclusiveMaximum": 3}),
            "1",
            false,
        ),
        (
            json!({"items": {"type": "integer"}, "minItems": 1, "maxItems": 2}),
            "[1, 2]",
            true,
        ),
        (
            json!({"items": {"type": "integer"}, "minItems": 1, "maxItems": 2}),
            "[]",
            false,
        ),
        (
            json!({"items": {"type": "integer"}, "minItems": 1, "maxItems": 2}),
            "[1,2,3]",
            false,
        ),
        (
            json!({"items": {"type": "integer"}, "minItems": 1, "maxItems": 2}),
            r#"[1,"a"]"#,
            false,
        ),
        (object.clone(), r#"{"a": "x", "b": 2}"#, true),
        (object.clone(), r#"{"b": 2, "a": "x"}"#, true),
        (object.clone(), r#"{"a": "x", "b": 2, "b": 2}"#, false),
        (object.clone(), r#"{"ab": "x"}"#, false),
        (object.clone(), r#"{"b": 2}"#, false),
        (object.clone(), r#"{"a": "x", "c": 2}"#, false),
        (object.clone(), r#"{"a": "x", "a": "y"}"#, false),
        (object.clone(), r#"{"\u0061": "x"}"#, false),
        (object, "[]", false),
        (json!({}), r#"{"x": 1, "y": {"x": 1}}"#, true),
        (json!({}), r#"{"x": 1, "x": 1}"#, false),
        (json!({}), r#"[{"x": 1, "x": 1}]"#, false),
        (
            json!({"minProperties": 1, "maxProperties": 1}),
            r#"{"x": 1}"#,
            true,
        ),
        (json!({"minProperties": 1, "maxProperties": 1}), "{}", false),
        (
            json!({"minProperties": 1, "maxProperties": 1}),
            r#"{"x": 1, "y": 2}"#,
            false,
        ),
        (json!({"required": ["id"]}), r#"{"id": null}"#, true),
        (
            json!({"required": ["id"], "additionalProperties": false}),
            r#"{"id": 1}"#,
            false,
        ),
        (
            json!({"additionalProperties": {"type": "string"}, "required": ["id"]}),
            r#"{"id": "1"}"#,
            true,
        ),
        (
            json!({"required": ["id"], "additionalProperties": {"type": "string"}}),
            r#"{"id": 1}"#,
            false,
        ),
        (json!({"required": ["id"]}), r#"{"ID": null}"#, false),
        (
            json!({"additionalProperties": {"type": "string"}}),
            r#"{"x": "1"}"#,
            true,
        ),
        (
            json!({"additionalProperties": {"type": "string"}}),
            r#"{"x": 1}"#,
            false,
        ),
        (
            json!({"$defs": {"n": {"type": "integer"}}, "items": {"$ref": "#/$defs/n", "description": "d"}}),
            "[1, 2]",
            true,
        ),
        (
            json!({"definitions": {"n": {"type": "integer"}}, "items": {"$ref": "#/definitions/n"}}),
            r#"[1, "2"]"#,
            false,
        ),
        (
            json!({"type": "object", "properties": {"next": {"$ref": "#"}}, "additionalProperties": false}),
            r#"{"next": {"next": {}}}"#,
            true,
        ),
        (
            json!({"type": "object", "properties": {"next": {"$ref": "#"}}, "additionalProperties": false}),
            r#"{"next": {"other": {}}}"#,
            false,
        ),
        (json!(true), "[1, {}]", true),
        (json!(false), "1", false),
        (json!({"items": false}), "[]", true),
        (json!({"items": false}), "[1]", false),
        (json!({"uniqueItems": false}), "[1, 1]", true),
        (json!({}), "[1] x", false),
        (json!({}), "[1,]", false),
        (json!({}), "01", false),
    ]
}

#[test]
fn each_keyword_takes_refuses_and_leaves() {
    for (schema, text, accepted) in cases() {
        let compiled = CompiledSchema::compile(&schema).unwrap();
        let check = TextCheck::compile(&schema).unwrap_or_else(|| panic!("{schema}"));
        assert_eq!(check.accepts(text), accepted, "{schema} {text}");
        if accepted {
            assert!(valid(&compiled, text), "{schema} {text}");
        }
    }
}

#[test]
fn nesting_past_the_depth_is_left_to_the_tree() {
    let check = TextCheck::compile(&json!({})).unwrap();
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(check.accepts(&deep(super::MAX_DEPTH)));
    assert!(!check.accepts(&deep(super::MAX_DEPTH + 1)));
}

#[test]
fn schemas_outside_the_list_get_no_check() {
    for schema in [
        json!({"pattern": "^a"}),
        json!({"anyOf": [{"type": "string"}]}),
        json!({"oneOf": [{"const": "a"}, {"const": "a"}]}),
        json!({"oneOf": [{"const": "a"}, {"const": 1}]}),
        json!({"oneOf": [{"const": "a", "minLength": 2}]}),
        json!({"enum": ["a"], "oneOf": [{"const": "a"}]}),
        json!({"$schema": "http://json-schema.org/draft-04/schema#"}),
        json!({"$schema": "https://example.com/my-meta-schema"}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "format": "email"}),
        json!({"format": "no-such-format"}),
        json!({"enum": ["a", 1]}),
        json!({"minimum": 1.5}),
        json!({"items": [{"type": "string"}]}),
        json!({"uniqueItems": true}),
        json!({"$ref": "#/$defs/a", "$defs": {"a": {}}}),
        json!({"items": {"$ref": "#/$defs/a", "minItems": 1}, "$defs": {"a": {}}}),
        json!({"items": {"$ref": "https://example.com/a.json"}}),
        json!({"items": {"$ref": "#/$defs/a~1b"}, "$defs": {"a/b": {}}}),
        json!({"properties": {"a": {"$id": "https://example.com/a"}}}),
        json!({"contentMediaType": "application/json"}),
        json!({"unknownKeyword": 1}),
        json!({"properties": {"a\"b": {}}}),
        json!({"required": ["a\\b"]}),
    ] {
        assert!(TextCheck::compile(&schema).is_none(), "{schema}");
    }
    assert!(TextCheck::compile(&json!({"x-anything": 1, "title": "t"})).is_some());
}

/// The suite's `valid` and `jsonschema`'s verdict under the registry's settings differ where
/// the registry asserts `date-time` with its own check; the text check must agree with the
/// registry, so that is what it is held to.
#[test]
fn the_json_schema_test_suite() {
    let suite = root().join("cloudevent-codegen/tests/data/json-schema-test-suite");
    let (mut groups, mut checked, mut tests, mut accepted, mut valid_tests) = (0, 0, 0, 0, 0);
    for (draft, meta) in [
        ("draft7", "http://json-schema.org/draft-07/schema#"),
        (
            "draft2020-12",
            "https://json-schema.org/draft/2020-12/schema",
        ),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(suite.join(draft))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for file in files {
            let file_groups: Vec<Value> =
                serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
            for group in file_groups {
                groups += 1;
                let mut schema = group["schema"].clone();
                if let Value::Object(members) = &mut schema {
                    members
                        .entry("$schema")
                        .or_insert_with(|| Value::String(meta.to_owned()));
                }
                let (Ok(compiled), Some(check)) = (
                    CompiledSchema::compile(&schema),
                    TextCheck::compile(&schema),
                ) else {
                    continue;
                };
                checked += 1;
                for test in group["tests"].as_array().unwrap() {
                    let data = &test["data"];
                    for text in [
                        data.to_string(),
                        serde_json::to_string_pretty(data).unwrap(),
                    ] {
                        tests += 1;
                        let verdict = valid(&compiled, &text);
                        valid_tests += usize::from(verdict);
                        if check.accepts(&text) {
                            accepted += 1;
                            assert!(
                                verdict,
                                "{}: {} {text}",
                                file.display(),
                                group["description"]
                            );
                        }
                    }
                }
            }
        }
    }
    // Not vacuous: most groups compile, and most of their valid instances are decided here.
    eprintln!(
        "{groups} groups, {checked} checked, {tests} tests, {valid_tests} valid, {accepted} accepted"
    );
    assert!(
        groups > 500 && checked > 100,
        "{groups} groups, {checked} checked"
    );
    assert!(
        accepted * 4 > valid_tests * 3,
        "{accepted} accepted of {valid_tests} valid ({tests} tests)"
    );
}

mod property {
    use proptest::prelude::*;
    use serde_json::json;

    use super::super::TextCheck;
    use crate::registry::borrowed::tests::property::{json, repeating};
    use crate::registry::schema::CompiledSchema;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// A text the check accepts names no member of an object twice (so the profile's walk,
        /// RFC 8259 4, would find nothing in it: `Validator::walk_members` skips it), and is
        /// valid: under `{}`, and under a schema that names some members.
        #[test]
        fn an_accepted_text_repeats_no_member_and_is_valid(
            text in prop_oneof![json(), repeating()],
        ) {
            let strict = cloudevent_rules::Policy::new(cloudevent_rules::Profile::IntgStd015);
            for schema in [
                json!({}),
                json!({"properties": {"a": {"type": ["object", "integer"]}, "b": {"items": {"minProperties": 1}}}}),
            ] {
                let check = TextCheck::compile(&schema).unwrap();
                if check.accepts(&text) {
                    prop_assert_eq!(strict.check_data_members(&text), Vec::new(), "{}", text);
                    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
                    let compiled = CompiledSchema::compile(&schema).unwrap();
                    prop_assert!(compiled.findings("t", &value).is_empty(), "{}", text);
                }
            }
        }
    }
}

mod generated {
    //! Schemas made of the check's keywords at random, and instances at random: whatever the
    //! check accepts, `jsonschema` finds valid.
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    use super::super::TextCheck;
    use crate::registry::schema::CompiledSchema;

    const NAMES: [&str; 4] = ["a", "b", "c", "d"];

    /// A root (never a bare `$ref` to itself) with generated subschemas under `a` and `items`.
    fn schema() -> impl Strategy<Value = Value> {
        (subschema(), subschema())
            .prop_map(|(a, items)| json!({"properties": {"a": a}, "items": items}))
    }

    fn subschema() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(json!(true)),
            Just(json!(false)),
            Just(json!({})),
            Just(json!({"$ref": "#"})),
            prop::sample::subsequence(
                vec![
                    "null", "boolean", "integer", "number", "string", "array", "object"
                ],
                1..3
            )
            .prop_map(|types| json!({ "type": types })),
            Just(json!({"type": "string", "enum": ["web", "a", "2026-03-28T14:22:31Z"]})),
            Just(json!({"const": "a"})),
            Just(json!({"oneOf": [{"const": "a"}, {"const": "web", "type": "string"}]})),
            Just(json!({"anyOf": [{"const": "web"}, {"const": "web", "description": "again"}]})),
            (0..3_u64, 0..3_u64)
                .prop_map(|(min, extra)| json!({"minLength": min, "maxLength": min + extra})),
            Just(json!({"format": "date-time"})),
            (-2..3_i64, 0..3_i64)
                .prop_map(|(min, extra)| json!({"minimum": min, "exclusiveMaximum": min + extra})),
            (-2..3_i64, -2..3_i64)
                .prop_map(|(min, max)| json!({"exclusiveMinimum": min, "maximum": max})),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            (
                prop::collection::vec((prop::sample::select(NAMES.to_vec()), inner.clone()), 0..3),
                prop::sample::subsequence(NAMES.to_vec(), 0..3),
                prop_oneof![
                    Just(None),
                    Just(Some(json!(false))),
                    Just(Some(json!(true))),
                    inner.clone().prop_map(Some)
                ],
                prop_oneof![Just(None), inner.prop_map(Some)],
                (0..3_u64, 0..3_u64),
                any::<bool>(),
            )
                .prop_map(
                    |(properties, required, additional, items, (min, extra), counts)| {
                        let mut schema = Map::new();
                        let properties: Map<String, Value> = properties
                            .into_iter()
                            .map(|(n, s)| (n.to_owned(), s))
                            .collect();
                        if !properties.is_empty() {
                            schema.insert("properties".into(), Value::Object(properties));
                        }
                        if !required.is_empty() {
                            schema.insert("required".into(), json!(required));
                        }
                        if let Some(additional) = additional {
                            schema.insert("additionalProperties".into(), additional);
                        }
                        if let Some(items) = items {
                            schema.insert("items".into(), items);
                        }
                        let (low, high) = if counts {
                            ("minItems", "maxItems")
                        } else {
                            ("minProperties", "maxProperties")
                        };
                        schema.insert(low.into(), json!(min));
                        schema.insert(high.into(), json!(min + extra));
                        Value::Object(schema)
                    },
                )
        })
    }

    fn instance() -> impl Strategy<Value = String> {
        let leaf = prop::sample::select(vec![
            "null",
            "true",
            "false",
            "0",
            "1",
            "-1",
            "2",
            "3",
            "-0",
            "1.0",
            "1.5",
            "1e2",
            r#""""#,
            r#""a""#,
            r#""ab""#,
            r#""abc""#,
            r#""web""#,
            r#""\/web""#,
            r#""\u0061""#,
            r#""2026-03-28T14:22:31Z""#,
            r#""2026-02-30T00:00:00Z""#,
            r#""é""#,
            "[]",
            "{}",
        ])
        .prop_map(str::to_owned);
        leaf.prop_recursive(3, 32, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4)
                    .prop_map(|items| format!("[{}]", items.join(","))),
                prop::collection::vec((prop::sample::select(NAMES.to_vec()), inner), 0..4)
                    .prop_map(|members| {
                        let members: Vec<String> = members
                            .into_iter()
                            .map(|(n, v)| format!("\"{n}\": {v}"))
                            .collect();
                        format!("{{{}}}", members.join(", "))
                    }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn an_accepted_instance_is_valid(
            schema in schema(),
            instances in prop::collection::vec(instance(), 8),
        ) {
            // Under 2020-12 (no `$schema`) and under draft 7.
            let mut draft7 = schema.clone();
            draft7["$schema"] = json!("http://json-schema.org/draft-07/schema#");
            for schema in [schema, draft7] {
                let Some(check) = TextCheck::compile(&schema) else {
                    return Err(TestCaseError::fail(format!("{schema} has only the check's keywords")));
                };
                let compiled = CompiledSchema::compile(&schema).unwrap();
                for text in &instances {
                    let value: Value = serde_json::from_str(text).unwrap();
                    if check.accepts(text) {
                        prop_assert!(compiled.findings("t", &value).is_empty(), "{} {}", schema, text);
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]

        /// Not vacuous: of 400 pairs, the check accepts some and `jsonschema` refuses some.
        #[test]
        fn the_generators_make_both_verdicts(
            pairs in prop::collection::vec((schema(), instance()), 400),
        ) {
            let (mut accepted, mut invalid) = (0, 0);
            for (schema, text) in &pairs {
                let check = TextCheck::compile(schema).unwrap();
                let compiled = CompiledSchema::compile(schema).unwrap();
                let value: Value = serde_json::from_str(text).unwrap();
                accepted += usize::from(check.accepts(text));
                invalid += usize::from(!compiled.findings("t", &value).is_empty());
            }
            prop_assert!(accepted >= 40 && invalid >= 40, "{} accepted, {} invalid", accepted, invalid);
        }
    }
}

/// `jsonschema` asserts no number format of schema generators under any draft, so the check
/// may take them as annotations.
#[test]
fn these_number_formats_assert_nothing() {
    for format in super::NUMBER_FORMATS {
        for draft in [
            "http://json-schema.org/draft-06/schema#",
            "http://json-schema.org/draft-07/schema#",
            "https://json-schema.org/draft/2019-09/schema",
            "https://json-schema.org/draft/2020-12/schema",
        ] {
            let schema = json!({"$schema": draft, "format": format});
            let compiled = CompiledSchema::compile(&schema).unwrap();
            let check = TextCheck::compile(&schema).unwrap();
            for text in [r#""not a number""#, "-1.5", "1e300", "true"] {
                assert!(check.accepts(text), "{schema} {text}");
                assert!(valid(&compiled, text), "{schema} {text}");
            }
        }
    }
}
