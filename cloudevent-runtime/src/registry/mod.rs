//! A schema registry at run time: each event type with its resolved data schema, the types of
//! the extensions it declares and its deprecation (the CloudEvents Deprecation extension's
//! attributes). [`RegistryEntry`] and [`RegistrySnapshot`] (a self-contained JSON document of
//! entries) are plain data and always available; `cloudevent-codegen` builds them from any
//! registry layout it reads, every `$ref` already resolved. The registry-aware validator
//! that checks `data` against those schemas, `RegistryValidator`, is behind the `registry`
//! feature (it brings a JSON Schema validator).
//!
//! ```
//! use cloudevent_runtime::registry::{RegistryEntry, RegistrySnapshot};
//! use cloudevent_runtime::rules::AttributeKind;
//!
//! let entry = RegistryEntry::new("com.example.order.created", serde_json::json!({"type": "object"}))
//!     .with_extension("express", AttributeKind::Boolean);
//! let text = RegistrySnapshot { entries: vec![entry.clone()] }.to_json().to_string();
//! let back = RegistrySnapshot::from_slice(text.as_bytes()).unwrap();
//! assert_eq!(back.entries, [entry]);
//! ```

use std::collections::BTreeMap;

use cloudevent_rules::AttributeKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "registry")]
mod borrowed;
#[cfg(feature = "registry")]
mod data_check;
#[cfg(feature = "registry")]
mod lex;
#[cfg(feature = "registry")]
mod schema;
#[cfg(feature = "registry")]
mod text_check;
#[cfg(feature = "registry")]
mod validator;

#[cfg(feature = "registry")]
pub use data_check::SchemaCheck;
#[cfg(feature = "registry")]
pub use validator::{Registry, RegistryError, RegistryValidator, UnknownType};

/// The value of a snapshot's `format` member; a document with another value is refused.
pub const SNAPSHOT_FORMAT: &str = "cloudevent-registry/1";

/// One event type of a registry: its resolved data schema (no `$ref` outside itself), the
/// CloudEvents types of the extensions it declares, and its deprecation.
///
/// ```
/// use cloudevent_runtime::registry::{Deprecation, RegistryEntry};
///
/// let entry = RegistryEntry {
///     dataschema: Some("urn:example:order-cancelled:1".into()),
///     deprecation: Some(Deprecation { sunset: Some("2026-06-30T00:00:00Z".into()), ..Deprecation::default() }),
///     ..RegistryEntry::new("com.example.order.cancelled", serde_json::json!({}))
/// };
/// assert!(entry.deprecation.is_some());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RegistryEntry {
    /// The event `type`.
    pub event_type: String,
    /// The `dataschema` URI the registry gives the type, if any.
    pub dataschema: Option<String>,
    /// The data schema, self-contained.
    pub schema: Value,
    /// Extension name → its CloudEvents type.
    pub extensions: BTreeMap<String, AttributeKind>,
    /// Set when the type is deprecated.
    pub deprecation: Option<Deprecation>,
}

impl RegistryEntry {
    /// An entry with a schema, no declared extension and no deprecation.
    ///
    /// ```
    /// use cloudevent_runtime::registry::RegistryEntry;
    /// let entry = RegistryEntry::new("com.example.order.created", serde_json::json!({"type": "object"}));
    /// assert_eq!(entry.event_type, "com.example.order.created");
    /// ```
    pub fn new(event_type: impl Into<String>, schema: Value) -> Self {
        RegistryEntry {
            event_type: event_type.into(),
            dataschema: None,
            schema,
            extensions: BTreeMap::new(),
            deprecation: None,
        }
    }

    /// Declares an extension's type.
    ///
    /// ```
    /// use cloudevent_runtime::registry::RegistryEntry;
    /// use cloudevent_runtime::rules::AttributeKind;
    /// let entry = RegistryEntry::new("t", serde_json::json!({})).with_extension("hops", AttributeKind::Integer);
    /// assert_eq!(entry.extensions["hops"], AttributeKind::Integer);
    /// ```
    #[must_use]
    pub fn with_extension(mut self, name: impl Into<String>, kind: AttributeKind) -> Self {
        self.extensions.insert(name.into(), kind);
        self
    }
}

/// A type's deprecation, in the attributes of the CloudEvents Deprecation extension
/// (`cloudevents/extensions/deprecation.md`): `deprecated`, `deprecationfrom` (Timestamp),
/// `deprecationsunset` (Timestamp: producers SHOULD stop emitting the type after it) and
/// `deprecationmigration` (URI of the migration guide).
///
/// ```
/// use cloudevent_runtime::registry::Deprecation;
///
/// let d = Deprecation {
///     from: Some("2026-01-01T00:00:00Z".into()),
///     sunset: Some("2026-06-30T00:00:00Z".into()),
///     migration: Some("https://docs.example.com/migrate/order-cancelled".into()),
///     ..Deprecation::default()
/// };
/// let json = serde_json::to_value(&d).unwrap();
/// assert_eq!(json["deprecated"], true);
/// assert_eq!(json["deprecationsunset"], "2026-06-30T00:00:00Z");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deprecation {
    /// `deprecated`: always `true` for a deprecated type (the extension's "MUST set ... to
    /// `true`").
    #[serde(default = "yes")]
    pub deprecated: bool,
    /// `deprecationfrom`: when the type was deprecated (RFC 3339).
    #[serde(
        rename = "deprecationfrom",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub from: Option<String>,
    /// `deprecationsunset`: when the type stops being supported (RFC 3339).
    #[serde(
        rename = "deprecationsunset",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub sunset: Option<String>,
    /// `deprecationmigration`: a URI describing the migration to the replacement.
    #[serde(
        rename = "deprecationmigration",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub migration: Option<String>,
}

fn yes() -> bool {
    true
}

/// Deprecated, with no dates and no migration link; set the others with struct update
/// syntax.
///
/// ```
/// use cloudevent_runtime::registry::Deprecation;
/// let d = Deprecation { sunset: Some("2026-06-30T00:00:00Z".into()), ..Deprecation::default() };
/// assert!(d.deprecated);
/// assert_eq!(d.describe(), "deprecated; sunset 2026-06-30T00:00:00Z");
/// ```
impl Default for Deprecation {
    fn default() -> Self {
        Deprecation {
            deprecated: true,
            from: None,
            sunset: None,
            migration: None,
        }
    }
}

impl Deprecation {
    /// One sentence for docs and catalogs: "deprecated since ...; sunset ...; migration: ...".
    ///
    /// ```
    /// use cloudevent_runtime::registry::Deprecation;
    /// let d = Deprecation { sunset: Some("2026-06-30T00:00:00Z".into()), ..Deprecation::default() };
    /// assert_eq!(d.describe(), "deprecated; sunset 2026-06-30T00:00:00Z");
    /// ```
    pub fn describe(&self) -> String {
        let mut text = String::from("deprecated");
        if let Some(from) = &self.from {
            text.push_str(&format!(" since {from}"));
        }
        if let Some(sunset) = &self.sunset {
            text.push_str(&format!("; sunset {sunset}"));
        }
        if let Some(migration) = &self.migration {
            text.push_str(&format!("; migration: {migration}"));
        }
        text
    }
}

/// A registry as one self-contained JSON document: `{"format": "cloudevent-registry/1",
/// "entries": [{"type", "dataschema", "schema", "extensions": {name: "Boolean" | "Integer" |
/// "String" | "Binary" | "URI" | "URI-reference" | "Timestamp"}, "deprecation": {...}}]}`.
/// `cloudevent-codegen` writes it from any registry layout; a gateway loads it with no
/// access to the schema files and no network.
///
/// ```
/// use cloudevent_runtime::registry::RegistrySnapshot;
/// let snapshot = RegistrySnapshot::from_slice(br#"{"format": "cloudevent-registry/1", "entries": [
///     {"type": "com.example.order.created", "schema": {"type": "object"}, "extensions": {"express": "Boolean"}}]}"#).unwrap();
/// assert_eq!(snapshot.entries.len(), 1);
/// assert!(RegistrySnapshot::from_slice(br#"{"format": "other", "entries": []}"#).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RegistrySnapshot {
    /// The entries, one per event type.
    pub entries: Vec<RegistryEntry>,
}

#[derive(Serialize, Deserialize)]
struct SnapshotDocument {
    format: String,
    entries: Vec<SnapshotEntry>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SnapshotEntry {
    #[serde(rename = "type")]
    event_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dataschema: Option<String>,
    schema: Value,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    extensions: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    deprecation: Option<Deprecation>,
}

impl RegistrySnapshot {
    /// Reads a snapshot document.
    ///
    /// # Errors
    /// Text that is not a snapshot: not JSON, another `format`, an unknown member, an
    /// extension type the CloudEvents type system does not name. The message says which.
    ///
    /// ```
    /// use cloudevent_runtime::registry::RegistrySnapshot;
    /// let error = RegistrySnapshot::from_slice(br#"{"format": "cloudevent-registry/1", "entries": [
    ///     {"type": "t", "schema": {}, "extensions": {"x": "Bool"}}]}"#).unwrap_err();
    /// assert!(error.contains("`Bool`"), "{error}");
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<Self, String> {
        let document: SnapshotDocument =
            serde_json::from_slice(bytes).map_err(|e| format!("not a registry snapshot: {e}"))?;
        if document.format != SNAPSHOT_FORMAT {
            return Err(format!(
                "registry snapshot format `{}` is not `{SNAPSHOT_FORMAT}`",
                document.format
            ));
        }
        let mut entries = Vec::with_capacity(document.entries.len());
        for entry in document.entries {
            let mut extensions = BTreeMap::new();
            for (name, kind) in entry.extensions {
                let parsed = kind_from_name(&kind).ok_or_else(|| {
                    format!(
                        "type `{}`, extension `{name}`: `{kind}` is not a CloudEvents type (Boolean, Integer, String, Binary, URI, URI-reference, Timestamp)",
                        entry.event_type
                    )
                })?;
                extensions.insert(name, parsed);
            }
            entries.push(RegistryEntry {
                event_type: entry.event_type,
                dataschema: entry.dataschema,
                schema: entry.schema,
                extensions,
                deprecation: entry.deprecation,
            });
        }
        Ok(RegistrySnapshot { entries })
    }

    /// The snapshot document.
    ///
    /// ```
    /// use cloudevent_runtime::registry::RegistrySnapshot;
    /// let json = RegistrySnapshot::default().to_json();
    /// assert_eq!(json["format"], "cloudevent-registry/1");
    /// ```
    pub fn to_json(&self) -> Value {
        let document = SnapshotDocument {
            format: SNAPSHOT_FORMAT.to_owned(),
            entries: self
                .entries
                .iter()
                .map(|entry| SnapshotEntry {
                    event_type: entry.event_type.clone(),
                    dataschema: entry.dataschema.clone(),
                    schema: entry.schema.clone(),
                    extensions: entry
                        .extensions
                        .iter()
                        .map(|(name, kind)| (name.clone(), kind.name().to_owned()))
                        .collect(),
                    deprecation: entry.deprecation.clone(),
                })
                .collect(),
        };
        serde_json::to_value(document).expect(
            "a snapshot document (strings, JSON schemas, string-keyed maps) always makes a JSON value",
        )
    }
}

/// The type system's type of that name (`Boolean`, `URI-reference`, ...), as
/// [`AttributeKind::name`] writes it.
pub(crate) fn kind_from_name(name: &str) -> Option<AttributeKind> {
    [
        AttributeKind::Boolean,
        AttributeKind::Integer,
        AttributeKind::String,
        AttributeKind::Binary,
        AttributeKind::Uri,
        AttributeKind::UriReference,
        AttributeKind::Timestamp,
    ]
    .into_iter()
    .find(|kind| kind.name() == name)
}
