//! The registry as the runtime's registry-aware validator reads it: one
//! [`RegistryEntry`] per event type, its data schema made self-contained from the bundle
//! (`bundle.rs` resolved every external `$ref` inside the folder; nothing is fetched), the
//! CloudEvents types of the extensions it declares, and its deprecation.

use std::collections::{BTreeMap, BTreeSet};

use cloudevent_rules::AttributeKind;
use cloudevent_runtime::registry::{RegistryEntry, RegistrySnapshot};
use serde_json::{Map, Value};

use crate::bundle::{self, stub_key};
use crate::deprecation::{deprecation_of, xregistry_message};
use crate::error::CodegenError;
use crate::registry::{Registry, SchemaFile};

/// Where a shared definition sits in an entry's self-contained schema.
fn shared_key(name: &str) -> String {
    format!("cloudevent-shared-{name}")
}

/// Every event type of a registry as a [`RegistryEntry`]: its schema with every external
/// `$ref` resolved into the schema itself, the types of its extensions (from the payload
/// property each `x-cloudevent.extensions` entry names, or an xRegistry message's envelope
/// metadata) and its deprecation (see [`deprecation_of`]).
///
/// # Errors
/// [`CodegenError::Findings`] for every `$ref` that names nothing in the folder.
pub(crate) fn registry_entries(registry: &Registry) -> Result<Vec<RegistryEntry>, CodegenError> {
    let bundle = bundle::bundle(registry);
    if !bundle.findings.is_empty() {
        return Err(CodegenError::Findings(bundle.findings));
    }
    let mut entries = Vec::with_capacity(registry.files.len());
    for (index, file) in registry.files.iter().enumerate() {
        let schema = self_contained(&bundle, index);
        let mut entry = RegistryEntry::new(file.meta.event_type.clone(), schema);
        if !file.meta.dataschema.is_empty() {
            entry.dataschema = Some(file.meta.dataschema.clone());
        }
        entry.extensions = extension_kinds(file, registry);
        entry.deprecation = deprecation_of(file, registry);
        entries.push(entry);
    }
    Ok(entries)
}

/// The data schema of the registry's file `index` with every shared definition it reaches
/// inside it: what `validate --registry` checks, and what a generated type that carries its
/// schema checks (`keywords.rs`).
pub(crate) fn self_contained(bundle: &bundle::Bundle, index: usize) -> Value {
    let (schema, used) = &bundle.events[index];
    let mut schema = schema.clone();
    let mut needed: BTreeSet<String> = BTreeSet::new();
    let mut queue: Vec<String> = used.iter().cloned().collect();
    while let Some(name) = queue.pop() {
        if needed.insert(name.clone())
            && let Some(shared) = bundle.shared.get(&name)
        {
            collect_refs(shared, &mut queue);
        }
    }
    if let Some(object) = schema.as_object_mut() {
        let definitions = object
            .entry("definitions")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(definitions) = definitions.as_object_mut() {
            for name in used {
                definitions.insert(
                    stub_key(name),
                    serde_json::json!({"$ref": format!("#/definitions/{}", shared_key(name))}),
                );
            }
            for name in &needed {
                let mut shared = bundle.shared.get(name).cloned().unwrap_or(Value::Null);
                rebase_refs(&mut shared);
                definitions.insert(shared_key(name), shared);
            }
        }
    }
    schema
}

/// Every event type of a registry as the self-contained snapshot document the runtime loads
/// (`Registry::from_snapshot`), for a gateway that has no access to the schema files.
///
/// ```
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
/// let registry = cloudevent_codegen::Registry::load(dir).unwrap();
/// let snapshot = cloudevent_codegen::registry_snapshot(&registry).unwrap();
/// assert!(snapshot.entries.iter().any(|e| e.event_type == "com.example.order.created"));
/// ```
///
/// Each entry is self-contained: a schema's external `$ref`s travel inside it.
///
/// ```
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/cdevents-shaped/schemas");
/// let registry = cloudevent_codegen::Registry::load_type_pointer(dir, "/properties/context/properties/type").unwrap();
/// let entries = cloudevent_codegen::registry_snapshot(&registry).unwrap().entries;
/// let packaged = entries.iter().find(|e| e.event_type == "dev.cdevents.artifact.packaged.0.3.0").unwrap();
/// // The shared `links` schemas travel inside the entry.
/// assert!(packaged.schema.to_string().contains("cloudevent-shared-"));
/// ```
///
/// # Errors
/// [`CodegenError::Findings`] for every `$ref` that names nothing in the folder.
pub fn registry_snapshot(registry: &Registry) -> Result<RegistrySnapshot, CodegenError> {
    registry_entries(registry).map(|entries| RegistrySnapshot { entries })
}

/// The shared names a shared schema refers to (`#/definitions/<name>`, as the bundle wrote).
fn collect_refs(value: &Value, names: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            if let Some(name) = object
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/definitions/"))
            {
                names.push(name.to_owned());
            }
            object.values().for_each(|v| collect_refs(v, names));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, names)),
        _ => {}
    }
}

/// Points a shared schema's refs (`#/definitions/<name>`) at the shared definitions'
/// place in the entry's schema.
fn rebase_refs(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get_mut("$ref")
                && let Some(name) = reference.strip_prefix("#/definitions/")
            {
                *reference = format!("#/definitions/{}", shared_key(name));
            }
            object.values_mut().for_each(rebase_refs);
        }
        Value::Array(items) => items.iter_mut().for_each(rebase_refs),
        _ => {}
    }
}

/// The CloudEvents type of each extension a file declares: from the payload property (or the
/// member at a JSON pointer) an `x-cloudevent.extensions` entry names (`boolean` → Boolean, `integer` → Integer, a
/// `string` with `format` `uri` / `uri-reference` / `date-time` → URI / URI-reference /
/// Timestamp, `contentEncoding: base64` → Binary, other strings → String), or from an
/// xRegistry message's envelope metadata (`{"type": "boolean", ...}`). A property whose type
/// cannot be told without following a `$ref` declares nothing, so nothing is refused on a
/// guess.
fn extension_kinds(file: &SchemaFile, registry: &Registry) -> BTreeMap<String, AttributeKind> {
    let mut kinds = BTreeMap::new();
    for (extension, property) in &file.meta.extensions {
        // A root property (`region`) or a JSON pointer to a member below it.
        if let crate::registry::Member::Found(member) =
            crate::registry::member_schema(&file.schema, property)
            && let Some(kind) = property_kind(member)
        {
            kinds.insert(extension.clone(), kind);
        }
    }
    if let Some(message) = xregistry_message(file, registry) {
        let metadata = message
            .get("envelopemetadata")
            .or_else(|| message.get("metadata"))
            .and_then(Value::as_object);
        for (name, attribute) in metadata.into_iter().flatten() {
            if cloudevent_rules::CORE_ATTRIBUTES.contains(&name.as_str()) {
                continue;
            }
            let kind = match attribute.get("type").and_then(Value::as_str) {
                Some("boolean") => AttributeKind::Boolean,
                Some("integer") => AttributeKind::Integer,
                Some("string") => AttributeKind::String,
                Some("binary") => AttributeKind::Binary,
                Some("uri") => AttributeKind::Uri,
                Some("urireference") => AttributeKind::UriReference,
                Some("timestamp") => AttributeKind::Timestamp,
                _ => continue,
            };
            kinds.insert(name.clone(), kind);
        }
    }
    kinds
}

fn property_kind(property: &Value) -> Option<AttributeKind> {
    match property.get("type").and_then(Value::as_str)? {
        "boolean" => Some(AttributeKind::Boolean),
        "integer" => Some(AttributeKind::Integer),
        "string" => Some(
            match (
                property.get("format").and_then(Value::as_str),
                property.get("contentEncoding").and_then(Value::as_str),
            ) {
                (_, Some("base64")) => AttributeKind::Binary,
                (Some("uri"), _) => AttributeKind::Uri,
                (Some("uri-reference"), _) => AttributeKind::UriReference,
                (Some("date-time"), _) => AttributeKind::Timestamp,
                _ => AttributeKind::String,
            },
        ),
        _ => None,
    }
}
