//! Schema shapes typify 0.8 turns into Rust that cannot read every valid instance (or panics
//! on), rewritten before typify sees them into equivalent or wider shapes:
//!
//! - a keyword beside `$ref` (`{"type": "object", "$ref": "x"}`): annotations and a
//!   redundant `type` are dropped, other keywords move into `allOf` with the ref;
//! - `anyOf`/`oneOf` whose alternatives only require members (`[{"required": ["a"]},
//!   {"required": ["b"]}]`): dropped, the members stay optional (every instance still reads,
//!   none loses a member to an untagged variant that lacks it);
//! - `anyOf`/`oneOf` of scalar alternatives of which at least one is open (`[{"type": "string",
//!   "enum": [...]}, {"type": "string"}]`): the union of their types (`"type": "string"`, or
//!   `["integer", "string"]`, an untagged enum), which reads every valid instance. Alternatives
//!   that are all enumerated (`const`/`enum`) stay: typify makes them an enum;
//! - an `enum` without `type` whose values are of several JSON types (`["a", 1]`, which
//!   typify cannot name a variant for): the union of their types, which reads every valid
//!   instance (the values themselves are checked by `validate --registry`);
//! - a root that is only a `$ref` to one of its definitions (`{"$ref": "#/definitions/Data"}`,
//!   Google's schemas): the definition's keywords at the root, so the root is a type of its
//!   own, not an alias ([`inline_root_ref`]).

use std::collections::BTreeSet;

use serde_json::{Map, Value};

/// Keywords that only annotate: dropped beside a `$ref`.
const ANNOTATIONS: [&str; 8] = [
    "description",
    "title",
    "$comment",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "default",
];

const SCALARS: [&str; 5] = ["string", "integer", "number", "boolean", "null"];

/// Rewrites every subschema of `schema` in place; a member reaching a nullable definition of
/// `schema` through `$ref` keeps its `null` as an inline nullable member does.
pub(crate) fn normalize(schema: &mut Value) {
    let nullable = nullable_definitions(schema);
    normalize_with(schema, &nullable);
}

/// The marker a stub gets when its shared definition admits `null` and something else, so an
/// optional member reaching it keeps a `null` received (`shapes::nullable_definitions`); typify
/// replaces the stub, so the marker is never part of a type.
pub(crate) const NULLABLE_STUB: &str = "x-cloudevent-nullable";

/// The local references (`#/definitions/x`, `#/$defs/x`) to the definitions of `document`
/// that admit `null` and something else, followed through definitions that are only a `$ref`
/// to one of them.
pub(crate) fn nullable_definitions(document: &Value) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let definitions: Vec<(String, &Map<String, Value>)> = ["definitions", "$defs"]
        .iter()
        .filter_map(|key| Some((*key, document.get(*key)?.as_object()?)))
        .flat_map(|(key, map)| {
            map.iter().filter_map(move |(name, schema)| {
                let pointer = format!("#/{key}/{}", name.replace('~', "~0").replace('/', "~1"));
                Some((pointer, schema.as_object()?))
            })
        })
        .collect();
    // A chain of aliases is at most as long as the list of definitions.
    for _ in 0..=definitions.len() {
        let before = found.len();
        for (pointer, schema) in &definitions {
            let via_alias = schema.len() == 1
                && schema
                    .get("$ref")
                    .and_then(Value::as_str)
                    .is_some_and(|target| found.contains(target));
            let stub = schema.get(NULLABLE_STUB) == Some(&Value::Bool(true));
            if nullable(schema) || via_alias || stub {
                found.insert(pointer.clone());
            }
        }
        if found.len() == before {
            break;
        }
    }
    found
}

/// [`normalize`], the nullable definitions given (those of the document `schema` is part of).
pub(crate) fn normalize_with(schema: &mut Value, nullable_refs: &BTreeSet<String>) {
    let Value::Object(object) = schema else {
        return;
    };
    ref_siblings(object);
    mixed_enum(object);
    // `format` annotates strings (and numbers: `int32`); on an array or object (Google's
    // `"format": "binary"` on an array of strings) typify stops on it.
    if matches!(
        object.get("type").and_then(Value::as_str),
        Some("array" | "object")
    ) {
        object.remove("format");
    }
    mark_nullable_optionals(object, nullable_refs);
    unfit_default(object);
    // `date`, `uuid` and IP address strings are read as the text received, so a typed event
    // re-emits them unchanged (`uuid::Uuid` would write an upper-case UUID in lower case,
    // `Ipv6Addr` a long form in the short one). A `date-time` keeps its `format`: typify's
    // `chrono` type (which would rewrite `+01:00` to UTC and `.5` to `.500`) becomes the
    // runtime's `Timestamp` (`import.rs`), which keeps the text received and checks it as
    // `validate --registry` does.
    if matches!(
        object.get("format").and_then(Value::as_str),
        Some("date" | "uuid" | "ip" | "ipv4" | "ipv6")
    ) {
        object.remove("format");
    }
    let normalize = |sub: &mut Value| normalize_with(sub, nullable_refs);
    for (key, sub) in object.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" | "definitions" | "patternProperties" | "dependentSchemas" => {
                if let Value::Object(map) = sub {
                    map.values_mut().for_each(normalize);
                }
            }
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                if let Value::Array(list) = sub {
                    list.iter_mut().for_each(normalize);
                }
            }
            "items"
            | "additionalProperties"
            | "contains"
            | "propertyNames"
            | "additionalItems"
            | "not"
            | "if"
            | "then"
            | "else" => match sub {
                Value::Array(list) => list.iter_mut().for_each(normalize),
                sub => normalize(sub),
            },
            _ => {}
        }
    }
    for keyword in ["anyOf", "oneOf"] {
        let Some(Value::Array(alternatives)) = object.get(keyword) else {
            continue;
        };
        if !alternatives.is_empty() && alternatives.iter().all(presence_only) {
            object.remove(keyword);
            continue;
        }
        if let Some(union) = scalar_union(alternatives) {
            object.remove(keyword);
            object.remove("enum");
            for (k, v) in union {
                object.insert(k, v);
            }
        }
    }
}

/// The sentence added to the description of an optional member that may be `null`, by which
/// `fidelity.rs` finds its field in typify's output and makes it keep a `null` received.
pub(crate) const NULL_KEPT: &str = "A `null` received is kept as `Some(None)` and written back.";

/// Marks the optional members whose schema admits `null` besides another type: absent and
/// `null` are two different data, which typify's `Option` would merge.
fn mark_nullable_optionals(object: &mut Map<String, Value>, nullable_refs: &BTreeSet<String>) {
    let required: Vec<String> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let Some(Value::Object(properties)) = object.get_mut("properties") else {
        return;
    };
    for (name, property) in properties.iter_mut() {
        let Value::Object(property) = property else {
            continue;
        };
        let through_ref = match property.get("$ref").and_then(Value::as_str) {
            Some(target) => nullable_refs.contains(target),
            None => nullable(property),
        };
        if required.contains(name) || !through_ref {
            continue;
        }
        let description = match property.get("description").and_then(Value::as_str) {
            Some(text) => format!("{text}\n\n{NULL_KEPT}"),
            None => NULL_KEPT.to_owned(),
        };
        property.insert("description".into(), Value::String(description));
    }
}

/// Whether a schema admits `null` and something else, or is typed only `null`.
fn nullable(schema: &Map<String, Value>) -> bool {
    let is_null = |v: &Value| v.get("type").and_then(Value::as_str) == Some("null");
    match schema.get("type") {
        // A member typed only `null`: present as `null`, or absent.
        Some(Value::String(only)) if only == "null" => true,
        Some(Value::Array(types)) => {
            types.iter().any(|t| t == "null") && types.iter().any(|t| t != "null")
        }
        _ => ["anyOf", "oneOf"].iter().any(|k| {
            schema
                .get(*k)
                .and_then(Value::as_array)
                .is_some_and(|alternatives| {
                    alternatives.iter().any(is_null) && alternatives.iter().any(|a| !is_null(a))
                })
        }),
    }
}

/// A `default` its own `type` does not admit (`"type": "boolean", "default": "false"`, as the
/// AsyncAPI specification's operation-security example writes it) is dropped: a `default` is
/// an annotation that asserts nothing, generated types never fill it in (`fidelity.rs`), and
/// typify stops on it.
fn unfit_default(object: &mut Map<String, Value>) {
    let (Some(default), Some(types)) = (object.get("default"), object.get("type")) else {
        return;
    };
    let kind = match default {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let admits = |t: &Value| {
        t.as_str()
            .is_some_and(|t| t == kind || (t == "number" && kind == "integer"))
    };
    let fits = match types {
        Value::Array(types) => types.iter().any(admits),
        one => admits(one),
    };
    if !fits {
        object.remove("default");
    }
}

fn ref_siblings(object: &mut Map<String, Value>) {
    if !object.contains_key("$ref") || object.len() == 1 {
        return;
    }
    object.remove("type");
    let validation: Vec<String> = object
        .keys()
        .filter(|k| *k != "$ref" && !ANNOTATIONS.contains(&k.as_str()))
        .cloned()
        .collect();
    if validation.is_empty() {
        return;
    }
    let mut rest = Map::new();
    for key in validation {
        if let Some(value) = object.remove(&key) {
            rest.insert(key, value);
        }
    }
    let mut only_ref = Map::new();
    only_ref.insert("$ref".into(), object.remove("$ref").unwrap_or(Value::Null));
    object.insert(
        "allOf".into(),
        Value::Array(vec![Value::Object(only_ref), Value::Object(rest)]),
    );
}

/// `{"enum": ["a", 1]}` without `type`: `{"type": ["integer", "string"]}`.
fn mixed_enum(object: &mut Map<String, Value>) {
    if object.contains_key("type") {
        return;
    }
    let Some(Value::Array(values)) = object.get("enum") else {
        return;
    };
    let kind = |v: &Value| match v {
        Value::String(_) => "string",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::Null => "null",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let mut types: Vec<&str> = values.iter().map(kind).collect();
    types.sort_unstable();
    types.dedup();
    if types.len() < 2 {
        return;
    }
    if types.contains(&"number") {
        types.retain(|t| *t != "integer");
    }
    object.remove("enum");
    object.insert(
        "type".into(),
        Value::Array(
            types
                .iter()
                .map(|t| Value::String((*t).to_owned()))
                .collect(),
        ),
    );
}

/// A root that is only a `$ref` to its own `definitions`/`$defs` entry gets that entry's
/// keywords (the entry stays, for refs to it from elsewhere); the root's own annotations stay.
pub(crate) fn inline_root_ref(root: &mut Value) {
    let Some(object) = root.as_object() else {
        return;
    };
    let Some(Value::String(reference)) = object.get("$ref") else {
        return;
    };
    let structural = [
        "type",
        "properties",
        "items",
        "allOf",
        "anyOf",
        "oneOf",
        "enum",
        "const",
    ];
    if structural.iter().any(|k| object.contains_key(*k)) {
        return;
    }
    let Some(target) = reference
        .strip_prefix('#')
        .filter(|p| p.starts_with("/definitions/") || p.starts_with("/$defs/"))
        .and_then(|p| root.pointer(p))
        .and_then(Value::as_object)
        .cloned()
    else {
        return;
    };
    // The stub of a shared definition (`bundle.rs`) is `{}` (or only marked nullable) for
    // typify to replace by name: inlined, the root would read any JSON, unchecked; as the one
    // branch of an `allOf` it is the shared type (and a definition that is `{}` indeed is
    // `serde_json::Value` either way).
    let stub = target.keys().all(|key| key == NULLABLE_STUB);
    let Some(object) = root.as_object_mut() else {
        return;
    };
    if stub {
        if let Some(reference) = object.remove("$ref") {
            object.insert("allOf".into(), serde_json::json!([{ "$ref": reference }]));
        }
        return;
    }
    object.remove("$ref");
    for (key, value) in target {
        if key != "title" {
            object.entry(key).or_insert(value);
        }
    }
}

/// An alternative that only says which members must be present.
fn presence_only(alternative: &Value) -> bool {
    alternative.as_object().is_some_and(|o| {
        o.contains_key("required")
            && o.keys()
                .all(|k| k == "required" || ANNOTATIONS.contains(&k.as_str()))
    })
}

/// The scalar types an alternative admits, and whether it admits every value of them (no
/// `enum`/`const`); `None` when it is not a plain scalar schema.
fn scalar_alternative(alternative: &Value) -> Option<(Vec<&'static str>, bool, Vec<Value>)> {
    let object = alternative.as_object()?;
    let structural = [
        "$ref",
        "properties",
        "items",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "additionalProperties",
        "prefixItems",
    ];
    if structural.iter().any(|k| object.contains_key(*k)) {
        return None;
    }
    let mut values: Vec<Value> = Vec::new();
    if let Some(constant) = object.get("const") {
        values.push(constant.clone());
    }
    if let Some(Value::Array(list)) = object.get("enum") {
        values.extend(list.iter().cloned());
    }
    let enumerated = object.contains_key("const") || object.contains_key("enum");
    let types: Vec<&'static str> = match object.get("type") {
        Some(Value::String(t)) => vec![SCALARS.iter().find(|s| **s == t)?],
        Some(Value::Array(list)) => list
            .iter()
            .map(|t| {
                t.as_str()
                    .and_then(|t| SCALARS.iter().find(|s| **s == t).copied())
            })
            .collect::<Option<Vec<_>>>()?,
        None if enumerated => values
            .iter()
            .map(|v| match v {
                Value::String(_) => Some("string"),
                Value::Bool(_) => Some("boolean"),
                Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
                Value::Number(_) => Some("number"),
                Value::Null => Some("null"),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?,
        _ => return None,
    };
    Some((types, !enumerated, values))
}

fn scalar_union(alternatives: &[Value]) -> Option<Map<String, Value>> {
    let parsed: Vec<_> = alternatives
        .iter()
        .map(scalar_alternative)
        .collect::<Option<Vec<_>>>()?;
    if parsed.is_empty() || parsed.iter().all(|(_, open, _)| !open) {
        return None;
    }
    let mut types: Vec<&str> = Vec::new();
    for (list, _, _) in &parsed {
        for t in list {
            if !types.contains(t) {
                types.push(t);
            }
        }
    }
    if types.contains(&"number") {
        types.retain(|t| *t != "integer");
    }
    types.sort_unstable();
    let mut union = Map::new();
    union.insert(
        "type".into(),
        match types.as_slice() {
            [one] => Value::String((*one).to_owned()),
            many => Value::Array(
                many.iter()
                    .map(|t| Value::String((*t).to_owned()))
                    .collect(),
            ),
        },
    );
    Some(union)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn normalized(mut schema: Value) -> Value {
        normalize(&mut schema);
        schema
    }

    #[test]
    fn dates_stay_text_for_imported_schemas() {
        let schema = json!({"properties": {"t": {"type": "string", "format": "date"}}});
        let mut kept = schema.clone();
        normalize(&mut kept);
        assert_eq!(kept, json!({"properties": {"t": {"type": "string"}}}));
        // A `date-time` keeps its format: it becomes the runtime's `Timestamp` (`import.rs`).
        let mut checked = json!({"type": "string", "format": "date-time"});
        normalize(&mut checked);
        assert_eq!(checked, json!({"type": "string", "format": "date-time"}));
        let mut uuid = json!({"type": "string", "format": "uuid"});
        normalize(&mut uuid);
        assert_eq!(uuid, json!({"type": "string"}));
    }

    #[test]
    fn a_default_its_type_does_not_admit_is_dropped() {
        assert_eq!(
            normalized(json!({"type": "boolean", "default": "false"})),
            json!({"type": "boolean"})
        );
        let kept = json!({"type": ["number", "null"], "default": 3});
        assert_eq!(normalized(kept.clone()), kept);
    }

    #[test]
    fn keywords_beside_ref() {
        assert_eq!(
            normalized(json!({"type": "object", "$ref": "x", "description": "d"})),
            json!({"$ref": "x", "description": "d"})
        );
        assert_eq!(
            normalized(json!({"$ref": "x", "required": ["a"]})),
            json!({"allOf": [{"$ref": "x"}, {"required": ["a"]}]})
        );
    }

    #[test]
    fn scalar_alternatives_become_their_union() {
        let open =
            json!({"anyOf": [{"type": "string", "enum": ["low", "high"]}, {"type": "string"}]});
        assert_eq!(normalized(open), json!({"type": "string"}));
        let mixed = json!({"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["low"]}]});
        assert_eq!(normalized(mixed), json!({"type": ["integer", "string"]}));
        let closed =
            json!({"oneOf": [{"const": "a", "type": "string"}, {"const": "b", "type": "string"}]});
        assert_eq!(normalized(closed.clone()), closed);
        let objects = json!({"oneOf": [{"type": "object"}, {"type": "string"}]});
        assert_eq!(normalized(objects.clone()), objects);
    }

    #[test]
    fn typify_gaps_are_rewritten() {
        assert_eq!(
            normalized(json!({"enum": ["a", 1, 2]})),
            json!({"type": ["integer", "string"]})
        );
        assert_eq!(
            normalized(json!({"enum": ["a", "b"]})),
            json!({"enum": ["a", "b"]})
        );
        let mut root = json!({"$ref": "#/definitions/D", "definitions": {"D": {"type": "object", "title": "T"}}});
        inline_root_ref(&mut root);
        assert_eq!(
            root,
            json!({"type": "object", "definitions": {"D": {"type": "object", "title": "T"}}})
        );
    }

    #[test]
    fn presence_only_alternatives_are_dropped() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}},
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}]});
        assert_eq!(
            normalized(schema),
            json!({"type": "object", "properties": {"a": {"type": "string"}}})
        );
    }
}
