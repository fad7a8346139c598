//! Where a registry or a type chooses its compatibility mode ([`Compat`], defined with the
//! directions it refuses in `diff/mode.rs`).

use serde_json::Value;

use crate::diff::Compat;
use crate::error::Finding;
use crate::registry::{METADATA_KEY, Registry, SchemaFile};

/// The mode of one event type: `x-cloudevent.compatibility` in its schema, else the
/// `compatibility` attribute of its schema (or schema group) in an xRegistry document, else
/// `default` (the registry's).
///
/// # Errors
/// A finding at the attribute when its value names no mode.
pub(crate) fn compat_of(
    file: &SchemaFile,
    registry: &Registry,
    default: Compat,
) -> Result<Compat, Finding> {
    let declared = file
        .schema
        .get(METADATA_KEY)
        .and_then(|m| m.get("compatibility"))
        .map(|v| (format!("/{METADATA_KEY}/compatibility"), v))
        .or_else(|| xregistry_attribute(file, registry));
    let Some((pointer, value)) = declared else {
        return Ok(default);
    };
    let path = file.path.to_string_lossy();
    declared_mode(path.split('#').next().unwrap_or_default(), pointer, value)
}

/// The mode a `compatibility` member names.
///
/// # Errors
/// A finding at `pointer` of `path` when it names none.
pub(crate) fn declared_mode(path: &str, pointer: String, value: &Value) -> Result<Compat, Finding> {
    value
        .as_str()
        .ok_or_else(|| format!("`compatibility` must be a string, found {value}"))
        .and_then(str::parse)
        .map_err(|message| {
            Finding::new(path, pointer, message).with_fix(
                "write one of backward, forward, full, their `-transitive` forms, or none",
            )
        })
}

/// The `compatibility` of the xRegistry schema resource (or its group) a message's schema was
/// taken from: `path` is `<document>#/schemagroups/<g>/schemas/<s>[/versions/<v>]/schema`.
fn xregistry_attribute<'a>(
    file: &SchemaFile,
    registry: &'a Registry,
) -> Option<(String, &'a Value)> {
    let document = registry.documents.get("xregistry.json")?;
    let path = file.path.to_string_lossy();
    let (_, pointer) = path.split_once('#')?;
    let segments: Vec<&str> = pointer.split('/').collect();
    // ["", "schemagroups", g, "schemas", s, ...]
    if segments.len() < 5 || segments[1] != "schemagroups" || segments[3] != "schemas" {
        return None;
    }
    let resource = segments[..5].join("/");
    let group = segments[..3].join("/");
    [resource, group].into_iter().find_map(|at| {
        let value = document.pointer(&at)?.get("compatibility")?;
        Some((format!("{at}/compatibility"), value))
    })
}
