//! Stage "map to Rust", each event: its schema (external refs already stubs to the shared
//! module) through one typify type space, a definition named like a type typify gives twice
//! renamed ([`rename_definition`]) and the module generated again; then `#[deprecated]` when
//! the registry deprecates the type, and the module pretty-printed. What fails is the
//! entry's refusal.

use std::collections::BTreeSet;
use std::path::Path;

use proc_macro2::TokenStream;

use super::Entry;
use super::output::GeneratedModule;
use crate::bundle::{self, Bundle};
use crate::deprecation::{deprecation_of, mark_deprecated};
use crate::error::Finding;
use crate::import::{RustOptions, event_tokens, generated_code_finding, pretty};
use crate::registry::Registry;

/// Generates the module of every entry without a refusal; the warnings typify's mapping
/// meets go to `warnings`.
pub(super) fn event_modules(
    registry: &Registry,
    bundle: &Bundle,
    entries: &mut [Entry<'_>],
    options: &RustOptions,
    warnings: &mut Vec<Finding>,
) {
    for entry in entries.iter_mut() {
        if !entry.refusals.is_empty() {
            continue;
        }
        match event_module(registry, bundle, entry, options, warnings) {
            Ok(module) => entry.module = Some(module),
            Err(found) => entry.refusals.extend(found),
        }
    }
}

/// One entry's module.
fn event_module(
    registry: &Registry,
    bundle: &Bundle,
    entry: &Entry<'_>,
    options: &RustOptions,
    warnings: &mut Vec<Finding>,
) -> Result<GeneratedModule, Vec<Finding>> {
    let file = entry.file;
    let tokens = event_type_space(bundle, entry, options, warnings)?;
    let tokens = unique_items(&file.path, tokens)?;
    let deprecated = deprecation_of(file, registry);
    let tokens = match &deprecated {
        None => tokens,
        Some(deprecation) => mark_deprecated(tokens, &entry.names.root, deprecation)
            .map_err(|message| vec![generated_code_finding(&file.path, &message)])?,
    };
    let body = pretty(tokens.clone()).map_err(|message| {
        vec![Finding::new(
            &file.path,
            "",
            format!("generated code does not parse: {message}"),
        )]
    })?;
    Ok(GeneratedModule {
        schema: file.relative.clone(),
        event_type: file.meta.event_type.clone(),
        major: file.major,
        names: entry.names.clone(),
        body,
        tokens,
        deprecated: deprecated.is_some(),
    })
}

/// typify's tokens for one entry, generated again (a bounded number of rounds) while a type
/// name is given twice and a definition of the schema's own bears it; the last round's
/// warnings go to `warnings`.
fn event_type_space(
    bundle: &Bundle,
    entry: &Entry<'_>,
    options: &RustOptions,
    warnings: &mut Vec<Finding>,
) -> Result<TokenStream, Vec<Finding>> {
    let (schema, used) = &bundle.events[entry.index];
    let mut schema = schema.clone();
    // typify names an inline type `<Parent><Member>` from the root down, and gives an
    // inline type the type of a definition of that name (its own members lost): every
    // definition named like an inline type could be is renamed first.
    let root = &entry.names.root;
    let prefixed: Vec<String> = ["definitions", "$defs"]
        .iter()
        .filter_map(|key| schema.get(*key)?.as_object())
        .flat_map(|definitions| definitions.keys())
        .filter(|name| name.starts_with(root.as_str()) && *name != root)
        .cloned()
        .collect();
    for name in prefixed {
        rename_definition(&mut schema, &name);
    }
    let data_schema = crate::snapshot::self_contained(bundle, entry.index);
    let mut rounds = 0;
    let mut round_warnings = Vec::new();
    let generated = loop {
        round_warnings.clear();
        let generated = event_tokens(
            entry.file,
            (&schema, &data_schema),
            &entry.names,
            used,
            entry.warned,
            options,
            &mut round_warnings,
        );
        // A name typify gives twice: the schema's own definition bearing it is renamed.
        if let Ok(tokens) = &generated
            && rounds < MAX_RENAMINGS
            && let Ok(twice) = twice_named(&entry.file.path, tokens)
            && twice.iter().fold(false, |renamed, name| {
                rename_definition(&mut schema, name) | renamed
            })
        {
            rounds += 1;
            continue;
        }
        break generated;
    };
    warnings.append(&mut round_warnings);
    generated
}

/// How many times one module is generated again after renaming a name typify gave twice.
pub(super) const MAX_RENAMINGS: usize = 8;

/// The type names two items of one module share (which would not compile).
pub(super) fn twice_named(
    path: &Path,
    tokens: &TokenStream,
) -> Result<BTreeSet<String>, Vec<Finding>> {
    let file: syn::File = syn::parse2(tokens.clone())
        .map_err(|e| vec![generated_code_finding(path, &e.to_string())])?;
    let mut seen = BTreeSet::new();
    let mut twice = BTreeSet::new();
    for item in &file.items {
        let ident = match item {
            syn::Item::Struct(s) => &s.ident,
            syn::Item::Enum(e) => &e.ident,
            syn::Item::Type(t) => &t.ident,
            _ => continue,
        };
        if !seen.insert(ident.to_string()) {
            twice.insert(ident.to_string());
        }
    }
    Ok(twice)
}

/// The tokens of one module when no two of its items share a type name; otherwise a finding
/// naming the type, so codegen never writes code that does not compile. Names are made
/// unique before this (shared definitions by [`bundle::Bundle::rename_shared`], an event's
/// own definitions by [`rename_definition`]): this is the guard behind them.
pub(super) fn unique_items(path: &Path, tokens: TokenStream) -> Result<TokenStream, Vec<Finding>> {
    let twice = twice_named(path, &tokens)?;
    if twice.is_empty() {
        return Ok(tokens);
    }
    Err(vec![generated_code_finding(
        path,
        &format!(
            "two types would be named {} in one module",
            twice
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )])
}

/// Renames an event schema's own definition `old` (under `definitions` or `$defs`), whose
/// Rust name typify could also give one of the schema's inline types, to `<old>Definition`
/// (numbered if that is taken too); the schema's refs to it follow. `false` when the schema
/// has no such definition.
fn rename_definition(schema: &mut serde_json::Value, old: &str) -> bool {
    for key in ["definitions", "$defs"] {
        let Some(definitions) = schema
            .get_mut(key)
            .and_then(serde_json::Value::as_object_mut)
        else {
            continue;
        };
        // typify names a definition by its key, recased: `SQLJobFacet` is `SqlJobFacet` too,
        // so the definition behind a name given twice may differ from it in case alone.
        let Some(old) = definitions
            .keys()
            .find(|k| *k == old)
            .or_else(|| {
                definitions
                    .keys()
                    .find(|k| crate::naming::typify_type_name(k) == old)
            })
            .cloned()
        else {
            continue;
        };
        let old = old.as_str();
        let base = format!("{old}Definition");
        let new = std::iter::once(base.clone())
            .chain((2..).map(|n| format!("{base}{n}")))
            .find(|c| !definitions.contains_key(c))
            .unwrap_or(base);
        if let Some(value) = definitions.remove(old) {
            definitions.insert(new.clone(), value);
        }
        bundle::replace_ref(schema, &format!("#/{key}/{old}"), &format!("#/{key}/{new}"));
        return true;
    }
    false
}
