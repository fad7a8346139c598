//! Each event schema of a registry as one self-contained document: the schemas its external
//! `$ref`s reach (other files, an xRegistry document's schema groups) are bundled by
//! [`crate::bundle`] and put under `$bundled/<name>`, every ref to them rewritten to
//! `#/$bundled/<name>`. The differ compares these documents, and the lock file stores them.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::bundle::{self, stub_key};
use crate::error::{Finding, pointer_segment};
use crate::registry::Registry;

/// The member of a resolved document holding the schemas its external refs reach.
pub(crate) const BUNDLED: &str = "$bundled";

/// One event schema, resolved.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Resolved {
    /// The schema with `$bundled` definitions; every ref points inside it.
    pub(crate) schema: Value,
    /// Where each bundled definition came from (`links/x.json#/pointer`).
    pub(crate) origins: BTreeMap<String, String>,
}

/// Every event schema of `registry` (in registry order), resolved; and the refs that could
/// not be resolved (those refs are dropped from the documents).
pub(crate) fn resolve_registry(registry: &Registry) -> (Vec<Resolved>, Vec<Finding>) {
    let bundle = bundle::bundle(registry);
    let mut shared: BTreeMap<String, Value> = BTreeMap::new();
    for (name, schema) in &bundle.shared {
        let mut schema = schema.clone();
        rewrite(&mut schema, &|reference| {
            let name = reference.strip_prefix("#/definitions/")?;
            Some(format!("#/{BUNDLED}/{name}"))
        });
        shared.insert(name.clone(), schema);
    }
    let mut out = Vec::with_capacity(bundle.events.len());
    for (schema, used) in &bundle.events {
        let mut schema = schema.clone();
        let stubs: BTreeMap<String, String> =
            used.iter().map(|n| (stub_key(n), n.clone())).collect();
        rewrite(&mut schema, &|reference| {
            let key = reference.strip_prefix("#/definitions/")?;
            let name = stubs.get(key)?;
            Some(format!("#/{BUNDLED}/{}", pointer_segment(name)))
        });
        if let Some(object) = schema.as_object_mut() {
            if let Some(Value::Object(definitions)) = object.get_mut("definitions") {
                for stub in stubs.keys() {
                    definitions.remove(stub);
                }
                if definitions.is_empty() {
                    object.remove("definitions");
                }
            }
            let reached = closure(used, &bundle.shared);
            if !reached.is_empty() {
                let bundled: Map<String, Value> = reached
                    .iter()
                    .filter_map(|n| Some((n.clone(), shared.get(n)?.clone())))
                    .collect();
                object.insert(BUNDLED.into(), Value::Object(bundled));
            }
            let origins = reached
                .iter()
                .filter_map(|n| Some((n.clone(), bundle.origins.get(n)?.clone())))
                .collect();
            out.push(Resolved { schema, origins });
        } else {
            out.push(Resolved {
                schema,
                origins: BTreeMap::new(),
            });
        }
    }
    (out, bundle.findings)
}

/// The shared names reached from `used`, through the shared schemas' own refs.
fn closure(used: &BTreeSet<String>, shared: &BTreeMap<String, Value>) -> BTreeSet<String> {
    let mut reached = BTreeSet::new();
    let mut queue: Vec<String> = used.iter().cloned().collect();
    while let Some(name) = queue.pop() {
        if !reached.insert(name.clone()) {
            continue;
        }
        if let Some(schema) = shared.get(&name) {
            let mut refs = Vec::new();
            collect_refs(schema, &mut refs);
            queue.extend(
                refs.iter()
                    .filter_map(|r| r.strip_prefix("#/definitions/"))
                    .map(str::to_owned),
            );
        }
    }
    reached
}

fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, sub) in object {
                match (key.as_str(), sub) {
                    ("$ref", Value::String(r)) => out.push(r.clone()),
                    ("enum" | "const" | "default" | "examples", _) => {}
                    _ => collect_refs(sub, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_refs(i, out)),
        _ => {}
    }
}

fn rewrite(value: &mut Value, map: &dyn Fn(&str) -> Option<String>) {
    match value {
        Value::Object(object) => {
            for (key, sub) in object.iter_mut() {
                match (key.as_str(), &mut *sub) {
                    ("$ref", Value::String(r)) => {
                        if let Some(new) = map(r) {
                            *r = new;
                        }
                    }
                    ("enum" | "const" | "default" | "examples", _) => {}
                    _ => rewrite(sub, map),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| rewrite(i, map)),
        _ => {}
    }
}
