//! Every JSON Schema keyword codegen meets, in exactly one of three states (issue 37, "the
//! generated type is the schema"):
//!
//! - **in the type**: typify's Rust type (with the rewrites of `shapes.rs` and `fidelity.rs`)
//!   refuses what the schema refuses and writes accepted data back unchanged;
//! - **checked**: the type reads a wider set, and the schema itself, embedded in the generated
//!   module and compiled once per type, checks the payload at every typed door
//!   (`CloudEventData::check_data`, with the registry validator's settings);
//! - **refused** by name, with the keyword's JSON pointer and a fix.
//!
//! Annotations (`title`, `description`, `default`, ...) assert nothing and are kept as
//! documentation. A keyword codegen does not know is reported as a warning (JSON Schema
//! ignores it too), never dropped silently. [`KEYWORDS`] is the one list: `check.rs` refuses
//! from it, [`needs_check`] decides from it whether a type carries its schema, and
//! [`widen_for_typify`] removes from typify's input the keywords that would make typify
//! panic or read too little; `docs/schema-fidelity.md` prints it.

use serde_json::{Map, Value};

/// Where a keyword is enforced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// typify's type holds it exactly.
    InType,
    /// The type reads wider; the embedded schema checks it at every typed door.
    Checked,
    /// Refused by name, with this fix.
    Refused(&'static str),
    /// Asserts nothing.
    Annotation,
}

/// What typify is given for a keyword in the `Checked` state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Typify {
    /// typify sees it (it shapes the type, e.g. a `oneOf` enum, reading at least every valid
    /// instance).
    Keep,
    /// Removed from typify's input: typify would panic on it, refuse it, or read too little.
    Remove,
}

/// Every keyword codegen knows: its state, what typify is given, and how it is enforced.
pub(crate) const KEYWORDS: &[(&str, State, Typify, &str)] = &[
    (
        "type",
        State::InType,
        Typify::Keep,
        "the Rust type (an untyped subschema with type-specific keywords reads any JSON and is checked)",
    ),
    (
        "properties",
        State::InType,
        Typify::Keep,
        "struct fields; an open object keeps unnamed members",
    ),
    (
        "required",
        State::InType,
        Typify::Keep,
        "a required member is not an `Option`",
    ),
    (
        "additionalProperties",
        State::InType,
        Typify::Keep,
        "`deny_unknown_fields`, or a map of the schema's type",
    ),
    (
        "items",
        State::InType,
        Typify::Keep,
        "`Vec<T>`; a tuple form (`prefixItems`) becomes a tuple",
    ),
    (
        "prefixItems",
        State::InType,
        Typify::Keep,
        "rewritten to draft 7 `items` (a tuple)",
    ),
    (
        "additionalItems",
        State::InType,
        Typify::Keep,
        "the tuple's rest",
    ),
    (
        "$ref",
        State::InType,
        Typify::Keep,
        "the referenced type (bundled, never fetched)",
    ),
    (
        "$defs",
        State::InType,
        Typify::Keep,
        "one type a definition",
    ),
    (
        "definitions",
        State::InType,
        Typify::Keep,
        "one type a definition",
    ),
    (
        "minLength",
        State::InType,
        Typify::Keep,
        "a newtype that checks the length in characters",
    ),
    (
        "maxLength",
        State::InType,
        Typify::Keep,
        "a newtype that checks the length in characters",
    ),
    (
        "pattern",
        State::InType,
        Typify::Keep,
        "a newtype that checks the ECMA-262 pattern",
    ),
    (
        "format",
        State::Checked,
        Typify::Keep,
        "`date-time` is the runtime's `Timestamp`; `date`, `uuid`, IP text kept; each checked as `validate --registry` does. A `date-time` is asserted in every draft: under 2019-09 and 2020-12, where `format` is an annotation, a non-RFC 3339 text is refused that the schema leaves unasserted (too strict, counted in `tests/openlineage.rs`)",
    ),
    (
        "enum",
        State::Checked,
        Typify::Keep,
        "string values: a Rust enum; any other values: checked",
    ),
    (
        "const",
        State::Checked,
        Typify::Keep,
        "checked (typify reads any value)",
    ),
    (
        "allOf",
        State::Checked,
        Typify::Keep,
        "typify merges the branches; the schema checks them",
    ),
    (
        "anyOf",
        State::Checked,
        Typify::Keep,
        "an untagged enum that reads every valid instance; the schema checks it",
    ),
    (
        "oneOf",
        State::Checked,
        Typify::Keep,
        "an untagged enum; \"exactly one\" is checked",
    ),
    ("not", State::Checked, Typify::Remove, "checked"),
    ("if", State::Checked, Typify::Remove, "checked"),
    ("then", State::Checked, Typify::Remove, "checked"),
    ("else", State::Checked, Typify::Remove, "checked"),
    (
        "uniqueItems",
        State::Checked,
        Typify::Remove,
        "checked (the type stays a `Vec`, order kept)",
    ),
    ("contains", State::Checked, Typify::Remove, "checked"),
    ("minContains", State::Checked, Typify::Remove, "checked"),
    ("maxContains", State::Checked, Typify::Remove, "checked"),
    ("minItems", State::Checked, Typify::Remove, "checked"),
    ("maxItems", State::Checked, Typify::Remove, "checked"),
    (
        "minimum",
        State::Checked,
        Typify::Keep,
        "checked; typify picks the integer type from the bounds (`u64` for `minimum: 0`)",
    ),
    ("maximum", State::Checked, Typify::Keep, "checked"),
    ("exclusiveMinimum", State::Checked, Typify::Keep, "checked"),
    ("exclusiveMaximum", State::Checked, Typify::Keep, "checked"),
    ("multipleOf", State::Checked, Typify::Remove, "checked"),
    ("minProperties", State::Checked, Typify::Remove, "checked"),
    ("maxProperties", State::Checked, Typify::Remove, "checked"),
    (
        "patternProperties",
        State::Checked,
        Typify::Remove,
        "checked (the members stay in the open object's map)",
    ),
    ("propertyNames", State::Checked, Typify::Remove, "checked"),
    ("dependencies", State::Checked, Typify::Remove, "checked"),
    (
        "dependentRequired",
        State::Checked,
        Typify::Remove,
        "checked",
    ),
    (
        "dependentSchemas",
        State::Checked,
        Typify::Remove,
        "checked",
    ),
    (
        "unevaluatedProperties",
        State::Checked,
        Typify::Remove,
        "checked (the members stay in the open object's map)",
    ),
    (
        "unevaluatedItems",
        State::Checked,
        Typify::Remove,
        "checked",
    ),
    (
        "$dynamicRef",
        State::Refused("use a plain `$ref` to a `$defs` entry"),
        Typify::Remove,
        "refused",
    ),
    (
        "$recursiveRef",
        State::Refused("use a plain `$ref` to a `$defs` entry"),
        Typify::Remove,
        "refused",
    ),
    (
        "$dynamicAnchor",
        State::Refused("name the definition under `$defs` and `$ref` it"),
        Typify::Remove,
        "refused",
    ),
    (
        "$recursiveAnchor",
        State::Refused("name the definition under `$defs` and `$ref` it"),
        Typify::Remove,
        "refused",
    ),
    (
        "$schema",
        State::Annotation,
        Typify::Remove,
        "picks the draft the check runs under",
    ),
    (
        "$id",
        State::Annotation,
        Typify::Keep,
        "the `dataschema`; `$id`-relative refs are bundled",
    ),
    ("$comment", State::Annotation, Typify::Keep, "documentation"),
    ("title", State::Annotation, Typify::Keep, "the type's name"),
    (
        "description",
        State::Annotation,
        Typify::Keep,
        "the doc comment",
    ),
    ("examples", State::Annotation, Typify::Keep, "documentation"),
    (
        "default",
        State::Annotation,
        Typify::Keep,
        "documentation: an absent member stays absent",
    ),
    (
        "deprecated",
        State::Annotation,
        Typify::Keep,
        "documentation",
    ),
    ("readOnly", State::Annotation, Typify::Keep, "documentation"),
    (
        "writeOnly",
        State::Annotation,
        Typify::Keep,
        "documentation",
    ),
    (
        "contentMediaType",
        State::Annotation,
        Typify::Keep,
        "an annotation in 2019-09 on",
    ),
    (
        "contentEncoding",
        State::Annotation,
        Typify::Keep,
        "an annotation in 2019-09 on",
    ),
    (
        "contentSchema",
        State::Annotation,
        Typify::Remove,
        "an annotation",
    ),
];

/// The keyword table (`KEYWORDS`) as the Markdown table of `docs/schema-fidelity.md` (written by the test that
/// runs the JSON-Schema-Test-Suite through generated types).
///
/// ```
/// let table = cloudevent_codegen::keyword_states_markdown();
/// assert!(table.contains("| `uniqueItems` | checked (typify does not see it) |"));
/// assert!(table.contains("| `$dynamicRef` | refused by name; fix: "));
/// ```
pub fn keyword_states_markdown() -> String {
    let mut out = String::from("| keyword | state | how |\n|---|---|---|\n");
    for (keyword, state, typify, how) in KEYWORDS {
        let state = match state {
            State::InType => "in the type".to_owned(),
            State::Checked if *typify == Typify::Remove => {
                "checked (typify does not see it)".to_owned()
            }
            State::Checked => "checked".to_owned(),
            State::Refused(fix) => format!("refused by name; fix: {fix}"),
            State::Annotation => "annotation".to_owned(),
        };
        out.push_str(&format!("| `{keyword}` | {state} | {how} |\n"));
    }
    out.push_str("| any other keyword | annotation, with a warning naming it and its pointer | JSON Schema ignores it too; `x-` keywords are metadata and not warned about |\n");
    out
}

/// The state of `keyword`, `None` for a keyword codegen does not know (`x-` extensions and
/// vendor keywords: annotations to JSON Schema).
pub(crate) fn state(keyword: &str) -> Option<State> {
    KEYWORDS
        .iter()
        .find(|(name, ..)| *name == keyword)
        .map(|(_, state, ..)| *state)
}

/// Whether a JSON document is a schema at all: `true`, `false`, or an object holding at least
/// one JSON Schema keyword of this table with a value of that keyword's shape (`type` a JSON
/// type name, `properties` a map of subschemas, `$ref` a string ...). Annotations alone
/// (`title`, `description`, `default`, `examples`) do not make a schema: an example payload,
/// a catalog or a registry index may well have a `title` or a `description`, and codegen
/// never makes a type of them.
pub(crate) fn is_schema(document: &Value) -> bool {
    let object = match document {
        Value::Bool(_) => return true,
        Value::Object(object) => object,
        _ => return false,
    };
    let subschema = |v: &Value| v.is_object() || v.is_boolean();
    let type_name = |v: &Value| {
        v.as_str().is_some_and(|t| {
            [
                "object", "array", "string", "number", "integer", "boolean", "null",
            ]
            .contains(&t)
        })
    };
    object.iter().any(|(key, value)| match key.as_str() {
        "$schema" | "$id" | "$ref" | "$dynamicRef" | "$recursiveRef" => value.is_string(),
        "type" => {
            type_name(value)
                || value
                    .as_array()
                    .is_some_and(|a| !a.is_empty() && a.iter().all(type_name))
        }
        "required" => value
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string)),
        "enum" => value.is_array(),
        key if IN_MAPS.contains(&key) => {
            value.as_object().is_some_and(|m| m.values().all(subschema))
        }
        key if IN_LISTS.contains(&key) => value
            .as_array()
            .is_some_and(|a| !a.is_empty() && a.iter().all(subschema)),
        key if IN_ONE.contains(&key) => subschema(value),
        key => matches!(state(key), Some(s) if s != State::Annotation),
    })
}

/// Keywords that assert only on one JSON type: beside no `type`, JSON Schema lets every other
/// type through, which typify (reading them as that type) would refuse.
const TYPE_SPECIFIC: [&str; 30] = [
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependencies",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "contains",
    "minContains",
    "maxContains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "unevaluatedItems",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// Keywords whose values are subschemas, as maps, lists or one schema.
const IN_MAPS: [&str; 5] = [
    "properties",
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
];
const IN_LISTS: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];
const IN_ONE: [&str; 11] = [
    "items",
    "additionalProperties",
    "contains",
    "propertyNames",
    "additionalItems",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
];
/// Applicators whose subschemas see only the instances their parent's `type` admits.
const BRANCHES: [&str; 7] = ["allOf", "anyOf", "oneOf", "not", "if", "then", "else"];

/// Whether a generated type must carry its schema: some subschema holds a keyword in the
/// `Checked` state, a `false` schema, or type-specific keywords without a `type` (read as any
/// JSON by [`widen_for_typify`]).
pub(crate) fn needs_check(schema: &Value) -> bool {
    let mut found = false;
    walk(schema, false, &mut |object, typed| {
        found |= object.iter().any(|(k, v)| checked_here(k, v))
            || untyped_specific(object, typed)
            || unicode_pattern(object)
            || object.values().any(|v| v == &Value::Bool(false));
    });
    found || schema == &Value::Bool(false)
}

/// Whether keyword `key` with value `value` needs the check: a `Checked` keyword, but for the
/// forms typify's type holds exactly (an `enum` of strings that name distinct variants, a
/// `date-time` format read by the runtime's `Timestamp`).
fn checked_here(key: &str, value: &Value) -> bool {
    match key {
        "enum" => !value
            .as_array()
            .is_some_and(|values| distinct_names(values)),
        "format" => value.as_str() != Some("date-time"),
        key => state(key) == Some(State::Checked),
    }
}

/// The schema as typify is to read it: the keywords typify mishandles removed, and an untyped
/// subschema with type-specific keywords (outside a typed parent's branches) made `{}`, any
/// JSON. Every instance the schema accepts is read; [`needs_check`] is then true, so the
/// schema checks what the wider type lets through.
pub(crate) fn widen_for_typify(schema: &mut Value) {
    widen(schema, false);
}

fn widen(schema: &mut Value, typed: bool) {
    let Value::Object(object) = schema else {
        return;
    };
    if untyped_specific(object, typed) {
        // Keep what names and documents the type; everything that asserts goes.
        object.retain(|k, _| {
            matches!(state(k), Some(State::Annotation) | None) || k == "$defs" || k == "definitions"
        });
        if let Some(Value::Object(defs)) = object.get_mut("$defs") {
            defs.values_mut().for_each(|d| widen(d, false));
        }
        if let Some(Value::Object(defs)) = object.get_mut("definitions") {
            defs.values_mut().for_each(|d| widen(d, false));
        }
        return;
    }
    object.retain(|k, _| {
        !KEYWORDS.iter().any(|(name, state, typify, _)| {
            name == k && *typify == Typify::Remove && !matches!(state, State::Refused(_))
        })
    });
    let has_type = object.contains_key("type");
    for (key, sub) in object.iter_mut() {
        let key = key.as_str();
        if IN_MAPS.contains(&key) {
            if let Value::Object(map) = sub {
                map.values_mut().for_each(|s| widen(s, false));
            }
        } else if IN_LISTS.contains(&key) {
            if let Value::Array(list) = sub {
                let inherits = BRANCHES.contains(&key) && (has_type || typed);
                list.iter_mut().for_each(|s| widen(s, inherits));
            }
        } else if IN_ONE.contains(&key) {
            let inherits = BRANCHES.contains(&key) && (has_type || typed);
            match sub {
                Value::Array(list) => list.iter_mut().for_each(|s| widen(s, inherits)),
                sub => widen(sub, inherits),
            }
        }
    }
    // typify reads `false` (nothing valid) as a type it cannot make; the check refuses it.
    for key in IN_ONE {
        if object.get(key) == Some(&Value::Bool(false)) && key != "additionalProperties" {
            object.insert(key.to_owned(), Value::Object(Map::new()));
        }
    }
    // An `allOf` branch that gives no shape (only constraints, `true`, `false`) is left to the
    // check; an `anyOf`/`oneOf` with such a branch admits values of any shape the parent
    // allows, so typify reads the parent alone.
    if let Some(Value::Array(branches)) = object.get_mut("allOf") {
        branches.retain(shapes_type);
        if branches.is_empty() {
            object.remove("allOf");
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = object.get(key)
            && !branches.iter().all(shapes_type)
        {
            object.remove(key);
        }
    }
    // typify makes a Rust enum of string values only, and needs a distinct variant name for
    // each; other values (numbers, objects, `null`) are checked.
    if let Some(Value::Array(values)) = object.get("enum")
        && !distinct_names(values)
    {
        object.remove("enum");
    }
    // typify compiles `pattern` without ECMA-262's `u` flag, so a Unicode property escape
    // (`\p{Letter}`) would be read as the letter `p`; JSON Schema patterns are Unicode.
    if unicode_pattern(object) {
        object.remove("pattern");
    }
    // typify reads `format: float` as `f32` and `double` as `f64`, which write a received
    // number back changed (`1559081980` as `1559081984.0`).
    if matches!(
        object.get("format").and_then(Value::as_str),
        Some("float" | "double")
    ) {
        object.remove("format");
    }
}

/// A `pattern` with a Unicode property escape (`\p{Letter}`), which typify cannot compile
/// as JSON Schema means it.
fn unicode_pattern(object: &Map<String, Value>) -> bool {
    object
        .get("pattern")
        .and_then(Value::as_str)
        .is_some_and(|p| p.contains("\\p") || p.contains("\\P"))
}

/// Whether a branch of an applicator gives typify a shape to make a type of.
fn shapes_type(branch: &Value) -> bool {
    const SHAPING: [&str; 11] = [
        "type",
        "$ref",
        "enum",
        "const",
        "properties",
        "items",
        "prefixItems",
        "additionalProperties",
        "allOf",
        "anyOf",
        "oneOf",
    ];
    branch
        .as_object()
        .is_some_and(|object| object.keys().any(|k| SHAPING.contains(&k.as_str())))
}

/// Whether every value is a string and no two map to the same Rust variant name.
fn distinct_names(values: &[Value]) -> bool {
    let mut names = std::collections::BTreeSet::new();
    // An empty `enum` (nothing valid) has no type for typify to make.
    !values.is_empty()
        && values.iter().all(|value| {
            value.as_str().is_some_and(|text| {
                let name: String = text
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .flat_map(char::to_lowercase)
                    .collect();
                names.insert(name)
            })
        })
}

/// A subschema with no `type` (and no `enum`/`const`/`$ref` fixing its values) but keywords
/// that assert on one JSON type only, outside the branches of a typed parent.
fn untyped_specific(object: &Map<String, Value>, typed: bool) -> bool {
    !typed
        && !object.contains_key("type")
        && !object.contains_key("enum")
        && !object.contains_key("const")
        && !object.contains_key("$ref")
        && object.keys().any(|k| TYPE_SPECIFIC.contains(&k.as_str()))
}

/// The subschemas directly below `schema`, each with its JSON pointer relative to it: the one
/// list of where JSON Schema keeps subschemas, which every walk of codegen follows.
pub(crate) fn subschemas(schema: &Value) -> Vec<(String, &Value)> {
    let Some(object) = schema.as_object() else {
        return Vec::new();
    };
    let segment = |name: &str| name.replace('~', "~0").replace('/', "~1");
    let mut out = Vec::new();
    for (key, sub) in object {
        let key = key.as_str();
        if IN_MAPS.contains(&key) {
            if let Value::Object(map) = sub {
                for (name, child) in map {
                    out.push((format!("/{}/{}", segment(key), segment(name)), child));
                }
            }
        } else if IN_LISTS.contains(&key) || IN_ONE.contains(&key) {
            match sub {
                Value::Array(list) => {
                    for (index, child) in list.iter().enumerate() {
                        out.push((format!("/{key}/{index}"), child));
                    }
                }
                child => out.push((format!("/{key}"), child)),
            }
        }
    }
    out
}

/// Calls `f` on every subschema object with whether a typed parent's branch holds it.
fn walk(schema: &Value, typed: bool, f: &mut dyn FnMut(&Map<String, Value>, bool)) {
    let Value::Object(object) = schema else {
        return;
    };
    f(object, typed);
    let has_type = object.contains_key("type");
    for (key, sub) in object {
        let key = key.as_str();
        if IN_MAPS.contains(&key) {
            if let Value::Object(map) = sub {
                map.values().for_each(|s| walk(s, false, f));
            }
        } else if IN_LISTS.contains(&key) || IN_ONE.contains(&key) {
            let inherits = BRANCHES.contains(&key) && (has_type || typed);
            match sub {
                Value::Array(list) => list.iter().for_each(|s| walk(s, inherits, f)),
                sub => walk(sub, inherits, f),
            }
        }
    }
}

/// The keywords of `schema` codegen does not know, with their JSON pointers (`x-` keywords,
/// vendor metadata, excluded): annotations to JSON Schema, reported so that nothing a schema
/// says is passed over in silence.
pub(crate) fn unknown_keywords(schema: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    unknown_at(schema, String::new(), &mut out);
    out
}

fn unknown_at(schema: &Value, pointer: String, out: &mut Vec<(String, String)>) {
    let Value::Object(object) = schema else {
        return;
    };
    for key in object.keys() {
        if state(key).is_none() && !key.starts_with("x-") {
            let at = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
            out.push((at, key.clone()));
        }
    }
    for (at, sub) in subschemas(schema) {
        unknown_at(sub, format!("{pointer}{at}"), out);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_document_without_a_schema_keyword_is_no_schema() {
        for schema in [
            json!(true),
            json!({"type": "object"}),
            json!({"$ref": "common/money.json"}),
            json!({"properties": {"a": {}}}),
            json!({"allOf": [{"minimum": 1}]}),
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema"}),
        ] {
            assert!(is_schema(&schema), "{schema}");
        }
        for payload in [
            json!({"version": "0", "source": "aws.ec2", "detail": {"state": "running"}}),
            // A CloudEvent: its `type` is no JSON type name.
            json!({"specversion": "1.0", "type": "com.example.order.created", "id": "1"}),
            json!({"title": "A catalog", "description": "of events", "items": [1, 2]}),
            json!([{"type": "object"}]),
            json!("text"),
        ] {
            assert!(!is_schema(&payload), "{payload}");
        }
    }

    use serde_json::json;

    use super::*;

    #[test]
    fn every_keyword_is_listed_once() {
        let mut names: Vec<&str> = KEYWORDS.iter().map(|(n, ..)| *n).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len());
        for keyword in TYPE_SPECIFIC {
            assert!(state(keyword).is_some(), "{keyword}");
        }
    }

    #[test]
    fn a_typed_schema_with_only_structure_carries_no_check() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string", "maxLength": 3}}, "required": ["a"]});
        assert!(!needs_check(&schema));
    }

    #[test]
    fn checked_keywords_and_untyped_shapes_carry_the_schema() {
        assert!(needs_check(
            &json!({"type": "object", "properties": {"a": {"const": 1}}})
        ));
        assert!(needs_check(
            &json!({"properties": {"a": {"type": "string"}}})
        ));
        assert!(needs_check(&json!({"type": "array", "items": false})));
    }

    #[test]
    fn typify_reads_untyped_shapes_as_any_json_and_loses_checked_keywords() {
        let mut schema = json!({"title": "T", "minimum": 2, "properties": {"a": {}}});
        widen_for_typify(&mut schema);
        assert_eq!(schema, json!({"title": "T"}));
        let mut schema = json!({"type": "object", "not": {"required": ["a"]},
            "anyOf": [{"required": ["b"]}], "properties": {"n": {"type": "integer", "multipleOf": 2}}});
        widen_for_typify(&mut schema);
        // `anyOf` of constraints alone gives typify no shape: the check holds it.
        assert_eq!(
            schema,
            json!({"type": "object", "properties": {"n": {"type": "integer"}}})
        );
    }

    #[test]
    fn numbers_keep_every_digit_and_plain_shapes_stay_unchecked() {
        let mut schema =
            json!({"type": "object", "properties": {"t": {"type": "number", "format": "float"}}});
        widen_for_typify(&mut schema);
        assert_eq!(
            schema,
            json!({"type": "object", "properties": {"t": {"type": "number"}}})
        );
        let plain = json!({"type": "object", "properties": {
            "at": {"type": "string", "format": "date-time"},
            "reason": {"type": "string", "enum": ["a", "b"]}}});
        assert!(!needs_check(&plain));
        assert!(needs_check(&json!({"enum": ["a-b", "a_b"]})));
        assert!(needs_check(&json!({"type": "string", "format": "email"})));
    }

    #[test]
    fn unknown_keywords_are_named_by_pointer() {
        let schema = json!({"type": "object", "x-cloudevent": {}, "properties": {"a": {"type": "string", "javaType": "A"}}});
        assert_eq!(
            unknown_keywords(&schema),
            [("/properties/a/javaType".to_owned(), "javaType".to_owned())]
        );
    }
}
