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
//! What this crate offers, by task (everything a user needs is at the root):
//!
//! | task | items |
//! |---|---|
//! | generate Rust in a build script | [`Builder`] (`generate_to_out_dir`, `generate_string`) |
//! | load and check a registry | [`Registry`], [`SchemaFile`], [`EventMeta`], [`check_schema`], [`check_warnings`] |
//! | schema → Rust, with control | [`generate_rust`], [`RustOptions`], [`module_tokens`] |
//! | Rust → schema | [`export`], [`export_file`], [`schema_text`], [`meta_of`] |
//! | compatibility between versions | [`diff_schemas`], [`Compat`], [`check_compatibility_with`], [`compare_paths`], [`Baseline`], [`Lock`], [`breaking_findings`], [`next_version`] |
//! | `.proto` entries (Protobuf data) | [`ProtoFile`], [`protobuf_rust`], [`check_proto`] |
//! | the registry for run-time validation of `data` | [`registry_entries`], [`registry_snapshot`], [`deprecation_of`] |
//! | a catalog of the registry | [`catalog_markdown`], [`asyncapi_yaml`], [`asyncapi_document`] |
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

mod bundle;
mod catalog;
mod check;
mod compat;
mod config;
mod deprecation;
mod diff;
mod error;
mod export;
mod fidelity;
mod generate;
mod import;
mod layout;
mod mapping;
mod naming;
mod protobuf;
mod registry;
mod shapes;
mod snapshot;
mod xregistry;

pub use catalog::{
    MARKDOWN_HEADER, YAML_HEADER, asyncapi_document, asyncapi_yaml, catalog_markdown,
};
pub use check::{check_schema, check_warnings};
/// Kept at the root for codegen users; the version-token reader lives in `cloudevent-rules`.
pub use cloudevent_rules::split_type_version;
pub use compat::{
    Baseline, Comparison, Compat, Compatibility, CompatibilityRow, LOCK_FILE, Lock, LockedProto,
    LockedSchema, NextVersion, Outcome, breaking_findings, check_compatibility,
    check_compatibility_with, compare, compare_paths, compare_registries, default_lock_path,
    next_version,
};
pub use config::REGISTRY_CONFIG;
pub use deprecation::deprecation_of;
pub use diff::{
    Breaks, Change, ChangeKind, EnumShape, FieldShape, MessageShape, ProtoChange, ProtoShape,
    ReservedShape, diff_proto, diff_schemas,
};
pub use error::{CodegenError, Finding};
pub use export::{export, export_file, meta_of, schema_text};
pub use generate::{Builder, GeneratedModule, GeneratedRust, RUST_HEADER, generate_rust};
pub use import::{RustNames, RustOptions, module_tokens};
pub use layout::event_type_at;
pub use protobuf::{
    Label, PROTOBUF_CONTENT_TYPE, ParseError, ProtoEnum, ProtoField, ProtoFile, ProtoMessage,
    ProtoSchema, Reserved, TYPE_URL_PREFIX, check_proto, check_proto_warnings,
    parse as parse_proto, protobuf_rust,
};
pub use registry::{ContentMode, EventMeta, METADATA_KEY, Registry, SchemaFile};
pub use snapshot::{registry_entries, registry_snapshot};

/// The policy and profiles [`Builder::policy`] and [`Builder::profile`] take, re-exported so a
/// build script needs no other dependency.
pub use cloudevent_rules::{Policy, Profile};
/// The traits [`export`] needs of a type, for exporters that name them in bounds.
pub use cloudevent_runtime::CloudEventData;
/// The schemars 1.x trait [`export`] needs of a type.
pub use schemars::JsonSchema;

// The guide's page on codegen (`docs/codegen-and-compatibility.md`): its Rust snippets are
// compiled as doctests of this crate. `cfg(doctest)`: not part of the API.
#[cfg(doctest)]
#[doc = include_str!("../../docs/codegen-and-compatibility.md")]
pub struct CodegenGuideDoctests;
