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
//! This crate:
//! - checks every name with `cloudevent-rules` before generating anything ([`check_schema`]),
//! - turns each schema file into a Rust module with typify, one `TypeSpace` a file, the root
//!   type carrying `#[derive(CloudEvent)]` ([`generate_rust`], [`Builder`] for build scripts),
//! - finds breaking changes between two versions of a schema ([`diff_schemas`]).
//!
//! ```
//! use cloudevent_codegen::{Registry, check_schema};
//! use cloudevent_rules::{Policy, Profile};
//!
//! let registry = Registry::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas")).unwrap();
//! let policy = Policy::new(Profile::IntgStd015);
//! for file in &registry.files {
//!     assert!(check_schema(file, &policy).is_empty(), "{}", file.relative);
//! }
//! ```
//!
//! typify 0.8 speaks schemars 0.8 (draft 7); this crate alone depends on it, bridging from
//! draft 2020-12 (and schemars 1.x) through `serde_json::Value`.

mod catalog;
mod check;
mod compat;
mod diff;
mod error;
mod export;
mod generate;
mod import;
mod outputs;
mod registry;

pub use catalog::{
    MARKDOWN_HEADER, YAML_HEADER, asyncapi_document, asyncapi_yaml, catalog_markdown,
};
pub use check::{check_schema, check_warnings};
pub use compat::{
    Baseline, Compatibility, CompatibilityRow, breaking_findings, check_compatibility, compare,
};
pub use diff::{Change, ChangeKind, diff_schemas};
pub use error::{CodegenError, Finding};
pub use export::{export, export_file, meta_of, schema_text};
pub use generate::{Builder, GeneratedModule, GeneratedRust, RUST_HEADER, generate_rust};
pub use import::{RustNames, RustOptions, module_tokens};
pub use outputs::{Direction, Layout, Output, render_outputs, stale_outputs, write_outputs};
pub use registry::{ContentMode, EventMeta, METADATA_KEY, Registry, SchemaFile};

/// The traits [`export`] needs of a type, for exporters that name them in bounds.
pub use cloudevent_runtime::CloudEventData;
/// The schemars 1.x trait [`export`] needs of a type.
pub use schemars::JsonSchema;
