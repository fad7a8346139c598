//! Stage "report": every refusal of the registry listed together (the registry refused), or,
//! under `skip_refused`, the refused types listed and the rest assembled into
//! [`GeneratedRust`] with its `RegistryEvent` variants.

use proc_macro2::TokenStream;

use super::Entry;
use super::output::GeneratedRust;
use crate::error::{CodegenError, Finding};
use crate::import::{RustOptions, pretty};
use crate::naming::{RegistryNames, RustNames, variant_names};
use crate::registry::Registry;

/// The refusals of the types left out (the same finding for several types, one schema
/// serving several or a shared definition, listed once).
///
/// # Errors
/// [`CodegenError::Findings`]: `findings` (which no type owns) and every refusal, when there
/// is one of the former, or one of the latter without `skip_refused` (then saying how many
/// types could be generated), or nothing left to generate.
pub(super) fn refusals(
    registry: &Registry,
    entries: &[Entry<'_>],
    mut findings: Vec<Finding>,
    options: &RustOptions,
) -> Result<Vec<Finding>, CodegenError> {
    let count = entries.len();
    let refused_types = entries.iter().filter(|e| !e.refusals.is_empty()).count();
    let mut refused: Vec<Finding> = Vec::new();
    for finding in entries.iter().flat_map(|e| &e.refusals) {
        if !refused.contains(finding) {
            refused.push(finding.clone());
        }
    }
    let nothing_left = entries.iter().all(|e| e.module.is_none()) && registry.protobuf.is_empty();
    if findings.is_empty() && (refused.is_empty() || (options.skip_refused && !nothing_left)) {
        return Ok(refused);
    }
    findings.extend(refused);
    if options.skip_refused && nothing_left && refused_types > 0 {
        findings.push(
            Finding::new(
                &registry.root,
                "",
                format!(
                    "--skip-refused left nothing to generate: all {count} type(s) were refused (each refusal listed above), so no file is written"
                ),
            )
            .with_fix("correct the refusals above, each by its own fix, and rerun"),
        );
    }
    if !options.skip_refused && refused_types > 0 && refused_types < count {
        findings.push(
            Finding::new(
                &registry.root,
                "",
                format!(
                    "{refused_types} of {count} type(s) refused above; the other {} can be generated",
                    count - refused_types
                ),
            )
            .with_fix("to generate them and list the refusals as warnings, rerun with `--skip-refused` (`Builder::skip_refused(true)`)"),
        );
    }
    Err(CodegenError::Findings(findings))
}

/// What [`assemble`] puts together.
pub(super) struct Parts<'a> {
    pub(super) registry: &'a Registry,
    pub(super) entries: Vec<Entry<'a>>,
    pub(super) names: &'a RegistryNames,
    pub(super) shared: Option<TokenStream>,
    pub(super) protobuf_code: Option<String>,
    pub(super) warnings: Vec<Finding>,
    pub(super) refused: Vec<Finding>,
    pub(super) options: &'a RustOptions,
}

/// The generated modules, the shared one pretty-printed, and one `RegistryEvent` variant a
/// generated entry (JSON and `.proto` alike, named from one list so no name is used twice).
///
/// # Errors
/// [`CodegenError::GeneratedCode`] if the shared module does not parse (a codegen bug).
pub(super) fn assemble(parts: Parts<'_>) -> Result<GeneratedRust, CodegenError> {
    let Parts {
        registry,
        entries,
        names,
        shared: shared_tokens,
        protobuf_code,
        warnings,
        refused,
        options,
    } = parts;
    let shared = match &shared_tokens {
        Some(tokens) => {
            Some(
                pretty(tokens.clone()).map_err(|message| CodegenError::GeneratedCode {
                    path: registry.root.clone(),
                    message,
                })?,
            )
        }
        None => None,
    };
    let all: Vec<RustNames> = names.all().cloned().collect();
    let mut variants = variant_names(&all);
    let protobuf_variants = registry
        .protobuf
        .iter()
        .zip(&names.protobuf)
        .zip(variants.split_off(names.files.len()))
        .map(|((file, n), variant)| {
            (
                file.meta.event_type.clone(),
                format!("{}::{}", n.module, n.root),
                variant,
            )
        })
        .collect();
    let (modules, variants) = entries
        .into_iter()
        .zip(variants)
        .filter_map(|(entry, variant)| Some((entry.module?, variant)))
        .unzip();
    Ok(GeneratedRust {
        variants,
        protobuf_variants,
        protobuf_code,
        modules,
        warnings,
        refused,
        shared,
        shared_tokens,
        options: options.clone(),
    })
}
