//! A registry entry's deprecation, in the CloudEvents Deprecation extension's attributes.
//!
//! - In a schema (any folder layout): `deprecated`, `deprecationfrom`, `deprecationsunset`
//!   and `deprecationmigration` inside its `x-cloudevent` object, as the extension names
//!   them (`cloudevents/extensions/deprecation.md`).
//! - In an xRegistry document: the message's `deprecated` object (xRegistry core:
//!   `effective`, `removal`, `alternative`, `docs`), read as `deprecationfrom`,
//!   `deprecationsunset` and `deprecationmigration` (`alternative`, else `docs`).

use cloudevent_runtime::registry::Deprecation;
use serde_json::Value;

use crate::registry::{METADATA_KEY, Registry, SchemaFile};

/// The deprecation a registry gives a file's event type, or `None` when it is not
/// deprecated.
pub(crate) fn deprecation_of(file: &SchemaFile, registry: &Registry) -> Option<Deprecation> {
    if let Some(message) = xregistry_message(file, registry)
        && let Some(deprecated) = message.get("deprecated").filter(|d| d.is_object())
    {
        let text = |key: &str| {
            deprecated
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        return Some(Deprecation {
            deprecated: true,
            from: text("effective"),
            sunset: text("removal"),
            migration: text("alternative").or_else(|| text("docs")),
        });
    }
    let metadata = file.schema.get(METADATA_KEY)?;
    let text = |key: &str| metadata.get(key).and_then(Value::as_str).map(str::to_owned);
    let deprecated = metadata.get("deprecated").and_then(Value::as_bool) == Some(true);
    let sunset = text("deprecationsunset");
    // A sunset without `deprecated: true` still deprecates: the date says so.
    (deprecated || sunset.is_some()).then(|| Deprecation {
        deprecated: true,
        from: text("deprecationfrom"),
        sunset,
        migration: text("deprecationmigration"),
    })
}

/// The xRegistry message a file was read from, when the registry is an xRegistry document
/// (its type pointer is `<message>/envelopemetadata/type`).
pub(crate) fn xregistry_message<'a>(
    file: &SchemaFile,
    registry: &'a Registry,
) -> Option<&'a Value> {
    let pointer = file.type_pointer.as_deref()?;
    if !pointer.starts_with("/messagegroups/") {
        return None;
    }
    let document = registry.documents.get(&file.relative)?;
    let message = pointer.rsplitn(3, '/').nth(2)?;
    document.pointer(message)
}

/// The note of a generated `#[deprecated]`: the sunset and where to migrate.
fn note(deprecation: &Deprecation) -> String {
    let mut note = String::from("this event type is deprecated in the schema registry");
    if let Some(sunset) = &deprecation.sunset {
        note.push_str(&format!(
            "; producers should stop emitting it after {sunset}"
        ));
    }
    if let Some(migration) = &deprecation.migration {
        note.push_str(&format!("; migration: {migration}"));
    }
    note
}

/// Marks a generated module's root type `#[deprecated]` (with the sunset and migration in
/// its note) and allows `deprecated` inside the module, whose own impls name the type: the
/// warning is for the crate that uses it.
pub(crate) fn mark_deprecated(
    tokens: proc_macro2::TokenStream,
    root: &str,
    deprecation: &Deprecation,
) -> Result<proc_macro2::TokenStream, String> {
    let mut file: syn::File = syn::parse2(tokens).map_err(|e| e.to_string())?;
    let note = note(deprecation);
    let attribute: syn::Attribute = match &deprecation.from {
        Some(since) => syn::parse_quote!(#[deprecated(since = #since, note = #note)]),
        None => syn::parse_quote!(#[deprecated(note = #note)]),
    };
    let attrs = file.items.iter_mut().find_map(|item| match item {
        syn::Item::Struct(s) if s.ident == root => Some(&mut s.attrs),
        syn::Item::Enum(e) if e.ident == root => Some(&mut e.attrs),
        _ => None,
    });
    let Some(attrs) = attrs else {
        return Err(format!("no root type `{root}` to mark deprecated"));
    };
    attrs.insert(0, attribute);
    file.attrs.push(syn::parse_quote!(
        #![allow(deprecated, reason = "the module's own impls name its deprecated type")]
    ));
    Ok(quote::quote!(#file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deprecated_type_has_its_sunset() {
        let text = r#"{"$id": "https://schemas.example.com/events/com.example.order.cancelled/v1.json",
          "type": "object",
          "x-cloudevent": {"type": "com.example.order.cancelled", "deprecated": true,
            "deprecationsunset": "2026-06-30T00:00:00Z",
            "deprecationmigration": "https://docs.example.com/migrate/order-cancelled"}}"#;
        let file = SchemaFile::parse(
            std::path::Path::new("schemas"),
            "com.example.order.cancelled/v1.json",
            text,
        )
        .unwrap();
        let registry = Registry {
            root: "schemas".into(),
            files: vec![file.clone()],
            documents: Default::default(),
            protobuf: Vec::new(),
            mapping: None,
            skipped: Vec::new(),
        };
        let deprecation = deprecation_of(&file, &registry).unwrap();
        assert_eq!(deprecation.sunset.as_deref(), Some("2026-06-30T00:00:00Z"));
    }
}
