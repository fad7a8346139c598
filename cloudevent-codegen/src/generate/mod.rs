//! Schema → Rust for a whole registry, as a line of stages over one record a schema file
//! ([`Entry`]). [`Builder`] (`builder.rs`) reads the registry and runs the compatibility gate
//! first; then [`generate_rust`] runs, in order:
//!
//! 1. `check.rs`: each file against the policy (its refusals, whether it breaks a SHOULD);
//! 2. `resolve.rs`: external `$ref`s bundled, each unresolvable one given to the types it
//!    concerns, what each type reaches;
//! 3. name: one naming of the whole registry (`crate::naming`), JSON and `.proto` entries;
//! 4. map to Rust: `shared.rs` (the shared module, renamed until no name is given twice),
//!    `event.rs` (one typify type space a file, renamed likewise; deprecation), and
//!    `protobuf.rs` (the `.proto` entries' `prost` modules);
//! 5. `report.rs`: every refusal of the registry together, or the code with its
//!    `RegistryEvent` variants;
//! 6. `output.rs` (write): [`GeneratedRust`] as one file or one file a module.
//!
//! A build script, the CLI and `cargo xtask codegen` all go through [`Builder`].

mod builder;
mod check;
mod event;
mod output;
pub(crate) mod protobuf;
mod report;
mod resolve;
mod shared;

pub use builder::Builder;
pub use output::GeneratedRust;

use std::collections::BTreeSet;

use cloudevent_rules::Policy;

use crate::error::{CodegenError, Finding};
use crate::import::RustOptions;
use crate::naming::{RustNames, registry_names};
use crate::registry::{Registry, SchemaFile};
use output::GeneratedModule;

/// One schema file on its way through the stages: what each stage learnt about it. Entries
/// are in [`Registry::files`] order (the bundle's events are in the same order).
#[derive(Debug)]
struct Entry<'a> {
    /// Its position in the registry and the bundle.
    index: usize,
    file: &'a SchemaFile,
    /// Its refusals, in the order the stages met them: a type with one is left out (or,
    /// without `skip_refused`, refuses the registry).
    refusals: Vec<Finding>,
    /// Whether it breaks a SHOULD (its type then allows the deprecation the warning carries).
    warned: bool,
    /// The shared definitions it reaches, directly or through others.
    reached: BTreeSet<String>,
    /// Its module and root type names (stage "name").
    names: RustNames,
    /// Its generated module (stage "map to Rust"), when it has no refusal.
    module: Option<GeneratedModule>,
}

/// Checks every schema of a registry, bundles its external `$ref`s and generates its Rust
/// code ([`Builder::generate_from`] is the public door). Every refusal of the whole registry
/// (broken rules, unresolvable refs, shapes typify cannot turn into Rust) is listed together;
/// nothing is generated when there is one, unless [`RustOptions::skip_refused`] is set: then
/// the refused types (and only they) are left out and listed in [`GeneratedRust::refused`].
///
/// # Errors
/// [`CodegenError::Findings`] listing every problem, each with file, JSON pointer and fix.
pub(crate) fn generate_rust(
    registry: &Registry,
    policy: &Policy,
    options: &RustOptions,
) -> Result<GeneratedRust, CodegenError> {
    // Problems that belong to no one type (the `.proto` entries, a shared module that fails
    // as a whole): never skipped. Each type's own refusals are on its entry.
    let mut findings = Vec::new();
    let (mut entries, mut warnings) = check::check(registry, policy);
    let mut bundle = resolve::resolve(registry, &mut entries, &mut findings)?;
    // One naming of the whole registry (JSON and `.proto` entries), the catalog's too.
    let names = registry_names(registry);
    for (entry, names) in entries.iter_mut().zip(&names.files) {
        entry.names = names.clone();
    }
    let shared = shared::shared_module(registry, &mut bundle, &mut entries, options, &mut findings);
    event::event_modules(registry, &bundle, &mut entries, options, &mut warnings);
    let protobuf_code = protobuf::protobuf_modules(
        registry,
        &names.protobuf,
        (policy, options),
        &mut warnings,
        &mut findings,
    )?;
    let refused = report::refusals(registry, &entries, findings, options)?;
    report::assemble(report::Parts {
        registry,
        entries,
        names: &names,
        shared,
        protobuf_code,
        warnings,
        refused,
        options,
    })
}
