//! Schema ⇄ Rust for CloudEvents: one event registry, two views.
//!
//! A registry is a directory of `schemas/<type>/v<major>.json` files (JSON Schema draft
//! 2020-12). Each file's `$id` is the event's `dataschema`, and its `x-cloudevent` object
//! carries the rest of the metadata:
//!
//! ```json
//! "x-cloudevent": {
//!   "type": "com.example.order.created",
//!   "source": "https://api.example.com/orders",
//!   "subject": "order_id",
//!   "extensions": {"tenant": "tenant"},
//!   "datacontenttype": "application/json",
//!   "contentmode": "structured"
//! }
//! ```
//!
//! and, optionally, `"compatibility": "backward"`: the type's own compatibility mode
//! ([`Compat`]; `docs/compatibility.md` holds every rule per direction).
//!
//! What this crate offers, by task: the root is the whole public surface (29 names); the
//! `.proto` reader, the differ's rule table, the naming and the generator's pieces stay inside.
//!
//! | task | items |
//! |---|---|
//! | generate Rust in a build script | [`Builder`] (`generate_to_out_dir`, `generate_string`), [`Policy`], [`Profile`] |
//! | schema → Rust, with control | [`Builder::generate`], [`Builder::generate_from`] (a registry in memory), [`GeneratedRust`] (`single_file`, `module_files`, `warnings`) |
//! | load and check a registry | [`Registry`] (`load`, `load_mapped` with a [`TypeMapping`], `load_type_pointer`, `load_xregistry`, `load_openapi`, `load_asyncapi`; `.proto` entries too), [`SchemaFile`], [`EventMeta`], [`ContentMode`], [`check_schema`] |
//! | Rust → schema | [`export`], [`export_file`], [`SchemaFile::text`] |
//! | compatibility between versions | [`diff_schemas`], [`Change`], [`Breaks`], [`Compat`]; [`check_compatibility`] ([`Baseline`], [`CompatibilityRow`], [`Compatibility`]); [`compare_paths`] ([`Comparison`], [`Outcome`]); [`Lock`] |
//! | the registry for run-time validation of `data` | [`registry_snapshot`] |
//! | a catalog of the registry | [`catalog_markdown`], [`asyncapi_yaml`] |
//! | errors | [`CodegenError`], [`Finding`] (file, JSON pointer, rule id, fix) |
//!
//! Every name is checked with `cloudevent-rules` before anything is generated; the root type
//! of each schema carries `#[derive(CloudEvent)]`, one typify `TypeSpace` a file.
//!
//! ```
//! use cloudevent_codegen::{Builder, Registry, check_schema, diff_schemas};
//! use cloudevent_rules::{Policy, Profile};
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
//! let registry = Registry::load(dir).unwrap();
//! let policy = Policy::new(Profile::IntgStd015);
//! for file in &registry.files {
//!     assert!(check_schema(file, &policy).is_empty(), "{}", file.relative);
//! }
//!
//! // What a build script's `generate_to_out_dir` writes, as a string.
//! let rust = Builder::new().schemas(dir).generate_string().unwrap();
//! assert!(rust.contains("pub struct OrderCreated"));
//!
//! // A property whose type changed breaks consumers generated from the old schema.
//! let old = serde_json::json!({"type": "object", "properties": {"n": {"type": "string"}}});
//! let new = serde_json::json!({"type": "object", "properties": {"n": {"type": "integer"}}});
//! assert!(diff_schemas(&old, &new).iter().any(|c| c.is_breaking()));
//! ```
//!
//! This repository's own layout of generated files (which registry file goes which way, the
//! stale-output check of `cargo xtask codegen --check`) is not part of this crate: it lives in
//! `xtask/src/outputs.rs`, built on the items above.
//!
//! typify 0.8 speaks schemars 0.8 (draft 7); this crate alone depends on it, bridging from
//! draft 2020-12 (and schemars 1.x) through `serde_json::Value`.

mod api_document;
mod bundle;
mod catalog;
mod check;
mod compat;
mod config;
mod cycle;
mod deprecation;
mod diff;
mod error;
mod export;
mod fidelity;
mod folder;
mod generate;
mod import;
mod keywords;
mod layout;
mod mapping;
mod member_names;
mod meta;
mod naming;
mod narrow;
mod payload_builder;
mod protobuf;
mod registry;
mod shapes;
mod snapshot;
mod xregistry;

// The root is what a library user needs, and nothing the repository's own tooling needs: the
// proto3 reader, the differ's rule table and the naming algorithm stay inside the crate.
pub use catalog::{asyncapi_yaml, catalog_markdown};
pub use check::check_schema;
pub use compat::{
    Baseline, Comparison, Compatibility, CompatibilityRow, GateReport, Lock, Outcome,
    check_compatibility, compare_paths,
};
pub use diff::{Breaks, Change, Compat, diff_schemas};
pub use error::{CodegenError, Finding};
pub use export::{export, export_file};
pub use generate::{Builder, GeneratedRust};
#[doc(hidden)]
pub use keywords::keyword_states_markdown;
pub use meta::{ContentMode, EventMeta};
pub use registry::{Registry, SchemaFile, TypeMapping};
pub use snapshot::registry_snapshot;

/// The policy and profiles [`Builder::policy`] and [`Builder::profile`] take, re-exported so a
/// build script needs no other dependency.
pub use cloudevent_rules::{Policy, Profile};
// The guide's page on codegen (`docs/codegen-and-compatibility.md`): its Rust snippets are
// compiled as doctests of this crate. `cfg(doctest)`: not part of the API.
#[cfg(doctest)]
#[doc = include_str!("../../docs/codegen-and-compatibility.md")]
pub struct CodegenGuideDoctests;
