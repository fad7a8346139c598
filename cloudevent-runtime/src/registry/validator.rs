//! The registry compiled for validation, and the validator that checks events against it on
//! top of the profile's checks.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use cloudevent_rules::{AttributeKind, LiteralHeader, Violation, rule};

use super::schema::CompiledSchema;
use super::{Deprecation, RegistryEntry, RegistrySnapshot};
use crate::any::Data;
use crate::validate::{Then, TreeRead};
use crate::{Timestamp, Validate, ValidationReport, Validator};
use cloudevent_rules::unix_seconds;

/// Why a registry could not be built. Every problem names the event type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// The type's schema does not compile: an invalid keyword, a `$ref` the schema does not
    /// hold (never fetched), a `pattern` that is not a regular expression.
    #[error("type `{event_type}`: its data schema does not compile: {message}")]
    Schema {
        /// The event type.
        event_type: String,
        /// `jsonschema`'s message.
        message: String,
    },
    /// Two entries for one type.
    #[error("type `{event_type}` is in the registry twice")]
    Duplicate {
        /// The event type.
        event_type: String,
    },
    /// A deprecation timestamp that is not RFC 3339, or a sunset before `deprecationfrom`.
    #[error(
        "type `{event_type}`: `{attribute}` `{value}` is not an RFC 3339 timestamp at or after `deprecationfrom` (CE deprecation)"
    )]
    Deprecation {
        /// The event type.
        event_type: String,
        /// `deprecationfrom` or `deprecationsunset`.
        attribute: &'static str,
        /// The value found.
        value: String,
    },
    /// A snapshot document that could not be read.
    #[error("{0}")]
    Snapshot(String),
}

/// What an event whose `type` the registry does not hold gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnknownType {
    /// An error: a gateway that owns the registry refuses the event (the default).
    #[default]
    Error,
    /// A warning: the event passes, the report says its type is unknown.
    Warning,
}

#[derive(Debug)]
struct CompiledEntry {
    schema: CompiledSchema,
    accepts_everything: bool,
    extensions: BTreeMap<String, AttributeKind>,
    deprecation: Option<(Deprecation, Option<i64>)>,
}

/// A registry compiled for validation: each type's schema compiled once.
///
/// ```
/// use cloudevent_runtime::registry::{Registry, RegistryEntry};
///
/// let registry = Registry::new(vec![RegistryEntry::new(
///     "com.example.order.created",
///     serde_json::json!({"type": "object", "required": ["orderId"]}),
/// )])
/// .unwrap();
/// assert!(registry.contains("com.example.order.created"));
///
/// // A `$ref` the schema does not hold is refused here, never fetched.
/// let error = Registry::new(vec![RegistryEntry::new(
///     "com.example.order.shipped",
///     serde_json::json!({"$ref": "https://schemas.example.com/money.json"}),
/// )])
/// .unwrap_err();
/// assert!(error.to_string().contains("com.example.order.shipped"));
/// ```
#[derive(Debug)]
pub struct Registry {
    /// Keyed by foldhash, seeded per registry: the keys are fixed when it is built (see
    /// `Cargo.toml`).
    types: HashMap<String, CompiledEntry, foldhash::fast::RandomState>,
}

impl Registry {
    /// Compiles every entry's schema.
    ///
    /// # Errors
    /// The first entry that does not compile, is a duplicate or has a deprecation timestamp
    /// that is not RFC 3339.
    pub fn new(entries: impl IntoIterator<Item = RegistryEntry>) -> Result<Self, RegistryError> {
        let mut types = HashMap::default();
        for entry in entries {
            if types.contains_key(&entry.event_type) {
                return Err(RegistryError::Duplicate {
                    event_type: entry.event_type,
                });
            }
            let schema = CompiledSchema::compile(&entry.schema).map_err(|message| {
                RegistryError::Schema {
                    event_type: entry.event_type.clone(),
                    message,
                }
            })?;
            let deprecation = match entry.deprecation {
                None => None,
                Some(deprecation) => {
                    let instant =
                        |attribute: &'static str, value: &Option<String>| match value {
                            None => Ok(None),
                            Some(text) => unix_seconds(text).map(Some).ok_or_else(|| {
                                RegistryError::Deprecation {
                                    event_type: entry.event_type.clone(),
                                    attribute,
                                    value: text.clone(),
                                }
                            }),
                        };
                    let from = instant("deprecationfrom", &deprecation.from)?;
                    let sunset = instant("deprecationsunset", &deprecation.sunset)?;
                    // "MUST be later than or the same as the one given in the
                    // `deprecationfrom` field" (CE deprecation extension).
                    if let (Some(from), Some(until)) = (from, sunset)
                        && until < from
                    {
                        return Err(RegistryError::Deprecation {
                            event_type: entry.event_type.clone(),
                            attribute: "deprecationsunset",
                            value: format!(
                                "{} (before deprecationfrom {})",
                                deprecation.sunset.as_deref().unwrap_or_default(),
                                deprecation.from.as_deref().unwrap_or_default()
                            ),
                        });
                    }
                    Some((deprecation, sunset))
                }
            };
            types.insert(
                entry.event_type,
                CompiledEntry {
                    schema,
                    accepts_everything: entry.schema == serde_json::json!({})
                        || entry.schema == serde_json::Value::Bool(true),
                    extensions: entry.extensions,
                    deprecation,
                },
            );
        }
        Ok(Registry { types })
    }

    /// Reads and compiles a snapshot document ([`RegistrySnapshot`]).
    ///
    /// # Errors
    /// As [`RegistrySnapshot::from_slice`] and [`Registry::new`].
    ///
    /// ```
    /// use cloudevent_runtime::registry::Registry;
    /// let registry = Registry::from_snapshot(br#"{"format": "cloudevent-registry/1", "entries": [
    ///     {"type": "com.example.order.created", "schema": {"type": "object"}}]}"#).unwrap();
    /// assert!(registry.contains("com.example.order.created"));
    /// ```
    pub fn from_snapshot(bytes: &[u8]) -> Result<Self, RegistryError> {
        let snapshot = RegistrySnapshot::from_slice(bytes).map_err(RegistryError::Snapshot)?;
        Registry::new(snapshot.entries)
    }

    /// Whether the registry holds this type.
    ///
    /// ```
    /// use cloudevent_runtime::registry::Registry;
    /// assert!(!Registry::new(Vec::new()).unwrap().contains("com.example.order.created"));
    /// ```
    pub fn contains(&self, event_type: &str) -> bool {
        self.types.contains_key(event_type)
    }
}

/// The event's `data` as the registry check sees it.
enum DataView<'a> {
    /// No `data` (or `null`): checked as JSON `null`, so a schema that needs an object
    /// reports it.
    Absent,
    /// JSON text.
    Json(&'a str),
    /// Not JSON (binary, or text under a non-JSON content type): not checked.
    NotJson,
}

/// A [`Validator`] with a schema registry: the profile's findings, then the registry's: an
/// unknown `type` (error or warning, [`UnknownType`]), every member of `data` that fails the
/// type's schema (`registry data`, with the member's JSON pointer and the keyword), an
/// extension whose value is not the type the registry declares (`CE 1.0.2 type system`), and
/// a type used past its `deprecationsunset` (`CE deprecation`, a warning: producers SHOULD
/// stop). Cloning is cheap: the compiled registry is shared.
///
/// ```
/// use cloudevent_runtime::Validate;
/// use cloudevent_runtime::registry::{Registry, RegistryEntry, RegistryValidator};
/// use cloudevent_runtime::rules::AttributeKind;
/// use cloudevent_runtime::{Json, Profile, Validator};
///
/// let registry = Registry::new(vec![RegistryEntry::new(
///     "com.example.order.created",
///     serde_json::json!({"type": "object", "required": ["orderId"],
///                        "properties": {"orderId": {"type": "string"}}}),
/// ).with_extension("express", AttributeKind::Boolean)]).unwrap();
/// let validator = RegistryValidator::new(Validator::new(Profile::CloudEvents), registry);
///
/// let good = br#"{"specversion":"1.0","id":"1","source":"/orders","type":"com.example.order.created",
///     "express":true,"data":{"orderId":"o-1"}}"#;
/// assert!(validator.validate_bytes::<Json>(good).is_valid());
///
/// let bad = br#"{"specversion":"1.0","id":"1","source":"/orders","type":"com.example.order.created",
///     "express":"True","data":{}}"#;
/// let report = validator.validate_bytes::<Json>(bad);
/// let attributes: Vec<&str> = report.errors().map(|f| &*f.attribute).collect();
/// assert_eq!(attributes, ["express", "data/orderId"]);
/// assert!(report.has_rule("registry data"));
/// ```
#[derive(Debug, Clone)]
pub struct RegistryValidator {
    validator: Validator,
    registry: Arc<Registry>,
    unknown_type: UnknownType,
    now: Option<i64>,
}

impl RegistryValidator {
    /// The profile's validator with a registry.
    ///
    /// ```
    /// use cloudevent_runtime::registry::{Registry, RegistryValidator};
    /// use cloudevent_runtime::Validator;
    /// let validator = RegistryValidator::new(Validator::default(), Registry::new(Vec::new()).unwrap());
    /// assert_eq!(validator.validator().policy().profile(), Validator::default().policy().profile());
    /// ```
    pub fn new(validator: Validator, registry: impl Into<Arc<Registry>>) -> Self {
        RegistryValidator {
            validator,
            registry: registry.into(),
            unknown_type: UnknownType::default(),
            now: None,
        }
    }

    /// What an unknown `type` gets (an error by default).
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::registry::{Registry, RegistryValidator, UnknownType};
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// let validator = RegistryValidator::new(Validator::new(Profile::CloudEvents), Registry::new(Vec::new()).unwrap())
    ///     .unknown_type(UnknownType::Warning);
    /// let report = validator.validate_bytes::<Json>(br#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.x.y"}"#);
    /// assert!(report.is_valid());
    /// assert!(report.has_rule("registry type"));
    /// ```
    #[must_use]
    pub fn unknown_type(mut self, unknown_type: UnknownType) -> Self {
        self.unknown_type = unknown_type;
        self
    }

    /// Compares sunsets with this instant instead of the clock (reproducible builds, tests).
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::registry::{Deprecation, Registry, RegistryEntry, RegistryValidator};
    /// use cloudevent_runtime::{Json, Profile, Timestamp, Validator};
    /// let deprecation = Deprecation { sunset: Some("2026-06-30T00:00:00Z".into()), ..Deprecation::default() };
    /// let registry = Registry::new(vec![RegistryEntry {
    ///     deprecation: Some(deprecation),
    ///     ..RegistryEntry::new("com.example.order.cancelled", serde_json::json!({}))
    /// }]).unwrap();
    /// let validator = RegistryValidator::new(Validator::new(Profile::CloudEvents), registry);
    /// let event = br#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.cancelled"}"#;
    /// let before = validator.clone().at(&Timestamp::try_from("2026-06-29T00:00:00Z").unwrap());
    /// assert!(before.validate_bytes::<Json>(event).findings().is_empty());
    /// let after = validator.at(&Timestamp::try_from("2026-07-01T00:00:00Z").unwrap());
    /// assert!(after.validate_bytes::<Json>(event).has_rule("CE deprecation"));
    /// ```
    #[must_use]
    pub fn at(mut self, instant: &Timestamp) -> Self {
        self.now = unix_seconds(instant.as_str());
        self
    }

    /// The profile's validator.
    ///
    /// ```
    /// use cloudevent_runtime::registry::{Registry, RegistryValidator};
    /// use cloudevent_runtime::{Profile, Validator};
    /// let validator = RegistryValidator::new(Validator::new(Profile::NlGov), Registry::new(Vec::new()).unwrap());
    /// assert_eq!(validator.validator().policy().profile(), Profile::NlGov);
    /// ```
    pub fn validator(&self) -> &Validator {
        &self.validator
    }

    /// Appends the registry's findings to a report whose attributes were read.
    fn check(&self, report: &mut ValidationReport, data: &DataView<'_>, tree: TreeRead) {
        let Some(event_type) = attribute(report, "type") else {
            // No `type` was read; the profile's findings already say so.
            return;
        };
        let mut found = Vec::new();
        match self.registry.types.get(event_type) {
            None => {
                let severity = match self.unknown_type {
                    UnknownType::Error => Violation::error,
                    UnknownType::Warning => Violation::warning,
                };
                found.push(
                    severity(
                        rule::REGISTRY_TYPE,
                        "type",
                        event_type.to_owned(),
                        "is not a type of the schema registry",
                    )
                    .with_hint("register the type's schema, or correct the type"),
                );
            }
            Some(entry) => {
                for (name, value) in report.attributes.extensions() {
                    let Some(kind) = entry.extensions.get(name) else {
                        continue;
                    };
                    // Python's `True`/`False` in binary mode, read literally with a warning
                    // when the policy tolerates it (`Policy::literal_header`, one verdict).
                    let literal = match (value, *kind) {
                        (
                            cloudevent_rules::ExtensionValue::String(text @ ("True" | "False")),
                            AttributeKind::Boolean,
                        ) => self
                            .validator
                            .policy()
                            .literal_header(LiteralHeader::PythonBoolean, name, text)
                            .ok(),
                        _ => None,
                    };
                    found.extend(literal.or_else(|| {
                        cloudevent_rules::check_declared_extension(name, value, *kind)
                    }));
                }
                self.check_data(event_type, entry, data, tree, &mut found);
                if let Some((deprecation, Some(sunset))) = &entry.deprecation {
                    let now = self.now.unwrap_or_else(now_unix);
                    if now > *sunset {
                        found.push(sunset_finding(event_type, deprecation));
                    }
                }
            }
        }
        report.findings.extend(found);
    }

    fn check_data(
        &self,
        event_type: &str,
        entry: &CompiledEntry,
        data: &DataView<'_>,
        tree: TreeRead,
        found: &mut Vec<Violation>,
    ) {
        if entry.accepts_everything {
            // `{}` or `true`: nothing to check, so `data` is not even parsed.
            return;
        }
        let value = match data {
            DataView::Absent => serde_json::Value::Null,
            // Valid data, the common case, is answered on a tree borrowed from the text
            // (read by `read_data`, before the profile's walk); the failures of invalid data
            // are listed from a `Value`, as before.
            DataView::Json(_) if tree == (TreeRead::Read { valid: true }) => return,
            DataView::Json(text)
                if tree == TreeRead::Untried && entry.schema.is_valid_text(text) == Some(true) =>
            {
                return;
            }
            DataView::Json(text) => match serde_json::from_str(text) {
                Ok(value) => value,
                // The event's reader took it as JSON, so what stops here is depth: serde_json
                // reads 128 levels. Data the registry cannot check is not let through.
                Err(error) => {
                    found.push(
                        Violation::error(
                            rule::REGISTRY_DATA,
                            "data",
                            "",
                            format!(
                                "could not be read for the registry's schema check ({error}); it nests deeper than the 128 levels the check reads"
                            ),
                        )
                        .with_hint("flatten the payload, or move it out with the claim-check pattern"),
                    );
                    return;
                }
            },
            DataView::NotJson => {
                found.push(Violation::warning(
                    rule::REGISTRY_DATA,
                    "data",
                    "",
                    format!(
                        "is not JSON, so it was not checked against the registry's schema for `{event_type}`"
                    ),
                ));
                return;
            }
        };
        found.extend(entry.schema.findings(event_type, &value));
    }
}

/// [`Validator`]'s validation, then the registry's checks on the data the format's reader
/// read: the same registry findings in every format, for events, batches and documents.
///
/// ```
/// use cloudevent_runtime::registry::{Registry, RegistryValidator};
/// use cloudevent_runtime::{AnyEvent, Batch, Document, Json, Profile, Validate, Validator};
/// let validator = RegistryValidator::new(Validator::new(Profile::CloudEvents), Registry::new(Vec::new()).unwrap());
/// let event = AnyEvent::new("1", "/s", "com.example.order.created");
/// assert!(validator.validate(&event).has_rule("registry type"));
/// assert!(!validator.validate_bytes::<Json>(&event.to_vec()).is_valid());
/// let batch = Batch::from(vec![event]);
/// assert!(!validator.validate_batch(&batch).is_valid());
/// assert!(!validator.validate_batch_bytes::<Json>(&batch.to_vec()).is_valid());
/// assert!(matches!(validator.validate_document(b"[]"), Document::Batch(r) if r.is_valid()));
/// ```
impl Validate for RegistryValidator {}

impl crate::validate::sealed::Validates for RegistryValidator {
    fn checker(&self) -> &Validator {
        &self.validator
    }
}

impl Then for RegistryValidator {
    /// Reads JSON `data` as a borrowed tree and checks it against the type's schema, when
    /// the registry has a schema for the type that does not accept everything: the tree
    /// [`Then::then`] is given (read once; the profile's walk for members named twice skips
    /// a text the tree read, see `Validator::walk_members`).
    fn read_data(&self, report: &ValidationReport, data: Option<&Data>) -> TreeRead {
        let DataView::Json(text) = data_view(report, data) else {
            return TreeRead::Untried;
        };
        let entry = attribute(report, "type").and_then(|t| self.registry.types.get(t));
        match entry {
            Some(entry) if !entry.accepts_everything => match entry.schema.is_valid_text(text) {
                Some(valid) => TreeRead::Read { valid },
                None => TreeRead::Left,
            },
            _ => TreeRead::Untried,
        }
    }

    /// The registry's findings after the profile's, on the data the event's reader read.
    /// `data` is read under the profile's reader alone, so an event the profile refuses
    /// still gets its data checked, in every format.
    fn then(&self, report: &mut ValidationReport, data: Option<&Data>, tree: TreeRead) {
        let data = data_view(report, data);
        self.check(report, &data, tree);
    }
}

/// A text attribute the report read.
fn attribute<'r>(report: &'r ValidationReport, name: &str) -> Option<&'r str> {
    report.attributes.core(name)
}

/// `data` as the registry check sees it, under the report's `datacontenttype`.
fn data_view<'d>(report: &ValidationReport, data: Option<&'d Data>) -> DataView<'d> {
    let datacontenttype = attribute(report, "datacontenttype");
    match data {
        None => DataView::Absent,
        Some(Data::Json(raw)) if raw.get() == "null" => DataView::Absent,
        // JSON text under a non-JSON content type: the reader reported it; it is not data
        // the schema describes.
        Some(Data::Json(_))
            if datacontenttype.is_some_and(|t| !cloudevent_rules::is_json_media_type(t)) =>
        {
            DataView::NotJson
        }
        Some(Data::Json(raw)) => DataView::Json(raw.get()),
        Some(Data::Text(_) | Data::Binary(_)) => DataView::NotJson,
    }
}

/// The finding for a type past its `deprecationsunset` (CE deprecation: "Producers SHOULD
/// stop emitting deprecated events after the `deprecationsunset` timestamp").
fn sunset_finding(event_type: &str, deprecation: &Deprecation) -> Violation {
    let sunset = deprecation.sunset.as_deref().unwrap_or_default();
    let finding = Violation::warning(
        rule::CE_DEPRECATION,
        "type",
        event_type.to_owned(),
        format!("is deprecated and past its sunset ({sunset}); producers should stop emitting it"),
    );
    match &deprecation.migration {
        Some(migration) => finding.with_hint(format!("migrate: {migration}")),
        None => finding.with_hint("emit the type that replaces it"),
    }
}

fn now_unix() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    //! The walk for members named twice in `data` (RFC 8259 4) skipped where the registry's
    //! tree read `data`: every door's report against the old path (the walk in the reader,
    //! never skipped, `format::WALK_IN_READER`), on every schema of this repository with
    //! the registry corpus's data, mutated, and with members named twice.
    use std::path::Path;

    use serde_json::{Value, json};

    use super::{Registry, RegistryEntry, RegistryValidator};
    use crate::format::WALK_IN_READER;
    use crate::{AnyEvent, Document, Json, Profile, Validate, ValidationReport, Validator};

    fn root() -> &'static Path {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
    }

    fn schemas() -> Vec<Value> {
        let mut found = vec![json!({}), json!({"type": "object"})];
        for dir in std::fs::read_dir(root().join("schemas")).unwrap() {
            let dir = dir.unwrap().path();
            if !dir.is_dir() {
                continue;
            }
            for file in std::fs::read_dir(&dir).unwrap() {
                let file = file.unwrap().path();
                if file.extension().is_some_and(|e| e == "json") {
                    found.push(serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap());
                }
            }
        }
        assert!(found.len() >= 10, "{found:?}");
        found
    }

    /// `data` of every registry corpus event, each member in turn removed or emptied.
    fn instances() -> Vec<Value> {
        let mut found = vec![json!(null), json!({}), json!([]), json!("text"), json!(1.5)];
        let dir = root().join("cloudevent-cli/tests/data/registry");
        for file in std::fs::read_dir(dir).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|e| e == "json") {
                let document: Value =
                    serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
                collect_data(&document, &mut found);
            }
        }
        let mut out = Vec::new();
        for value in found {
            if let Value::Object(members) = &value {
                for name in members.keys() {
                    let mut removed = members.clone();
                    removed.remove(name);
                    out.push(Value::Object(removed));
                    let mut emptied = members.clone();
                    emptied.insert(name.clone(), json!(""));
                    out.push(Value::Object(emptied));
                }
            }
            out.push(value);
        }
        assert!(out.len() > 20, "{out:?}");
        out
    }

    fn collect_data(value: &Value, found: &mut Vec<Value>) {
        match value {
            Value::Object(members) => {
                if let Some(data) = members.get("data") {
                    found.push(data.clone());
                }
                members.values().for_each(|v| collect_data(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| collect_data(v, found)),
            _ => {}
        }
    }

    /// `data`'s text as written, and, for an object, with its first member named twice:
    /// as written, with the name's first letter escaped (`"\u0061"` for `"a"`), nested in
    /// an object and in an array of objects. The second bool: it names a member twice.
    fn texts(value: &Value) -> Vec<(String, bool)> {
        let text = value.to_string();
        let mut out = vec![(text.clone(), false)];
        let Value::Object(members) = value else {
            return out;
        };
        let Some((name, first)) = members.iter().next() else {
            return out;
        };
        let rest = &text[1..text.len() - 1];
        let again = format!("{{{}:{first},{rest}}}", json!(name));
        out.push((format!(r#"{{"outer":{again},"n":1}}"#), true));
        out.push((again, true));
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            let escaped = format!(
                "{{\"\\u{:04x}{}\":{first},{rest}}}",
                u32::from(name.as_bytes()[0]),
                &name[1..]
            );
            out.push((format!(r#"[{{"a":1}},{escaped}]"#), true));
            out.push((escaped, true));
        }
        out
    }

    fn event(data: &str, datacontenttype: &str) -> String {
        format!(
            r#"{{"specversion":"1.0","id":"1","source":"/s","type":"com.example.test","datacontenttype":"{datacontenttype}","data":{data}}}"#
        )
    }

    /// Every door's report, with the skip (`false`) or on the old path (`true`).
    fn reports(validator: &RegistryValidator, bytes: &[u8], old: bool) -> Vec<String> {
        WALK_IN_READER.with(|walk| walk.set(old));
        let mut out = vec![format!("{:?}", validator.validate_bytes::<Json>(bytes))];
        let batch = [b"[".as_slice(), bytes, b"]"].concat();
        out.push(format!(
            "{:?}",
            validator.validate_batch_bytes::<Json>(&batch)
        ));
        out.push(match validator.validate_document(bytes) {
            Document::Event(report) => format!("{report:?}"),
            Document::Batch(report) => format!("{report:?}"),
        });
        if let Ok(event) = AnyEvent::from_slice(bytes) {
            out.push(format!("{:?}", validator.validate(&event)));
        }
        #[cfg(feature = "axum")]
        {
            let reading = validator
                .validator
                .read_event_then::<Json>(bytes, validator);
            out.push(format!("{:?} {}", reading.report, reading.profile_valid));
        }
        WALK_IN_READER.with(|walk| walk.set(false));
        out
    }

    fn repeated(report: &ValidationReport) -> usize {
        report
            .findings()
            .iter()
            .filter(|f| f.rule.as_str() == "RFC 8259 4")
            .count()
    }

    #[test]
    fn skipping_the_walk_where_the_tree_read_changes_no_report() {
        let (mut checked, mut with_repeats, mut tree_read) = (0, 0, 0);
        for schema in schemas() {
            let registry = std::sync::Arc::new(
                Registry::new(vec![RegistryEntry::new("com.example.test", schema.clone())])
                    .unwrap(),
            );
            for profile in [Profile::IntgStd015, Profile::CloudEvents] {
                let validator = RegistryValidator::new(Validator::new(profile), registry.clone());
                for value in instances() {
                    for (text, repeats) in texts(&value) {
                        for content_type in ["application/json", "text/plain"] {
                            let event = event(&text, content_type);
                            let bytes = event.as_bytes();
                            let new = reports(&validator, bytes, false);
                            let old = reports(&validator, bytes, true);
                            assert_eq!(new, old, "{schema}: {event}");
                            // Text after the event object: refused, after the walk was left.
                            let trailing = [bytes, b" x"].concat();
                            assert_eq!(
                                reports(&validator, &trailing, false),
                                reports(&validator, &trailing, true),
                                "{event} x"
                            );
                            checked += 1;
                            let report = validator.validate_bytes::<Json>(bytes);
                            // Under `text/plain` an object is not `data` the reader keeps
                            // as JSON (CE-JSON 3.1 says so), so it is not walked, as before.
                            let expected = usize::from(
                                repeats
                                    && profile == Profile::IntgStd015
                                    && content_type == "application/json",
                            );
                            assert_eq!(repeated(&report), expected, "{profile:?}: {event}");
                            if let Ok(event) = AnyEvent::from_slice(bytes) {
                                assert_eq!(repeated(&validator.validate(&event)), expected);
                            }
                            with_repeats += usize::from(repeats);
                            tree_read += usize::from(
                                !repeats
                                    && content_type == "application/json"
                                    && schema != json!({}),
                            );
                        }
                    }
                }
            }
        }
        assert!(
            checked > 2000 && with_repeats > 500 && tree_read > 500,
            "{checked} {with_repeats} {tree_read}"
        );
    }

    #[test]
    fn a_repeat_past_the_listed_findings_is_counted_as_before() {
        // 150 extension names in capitals (a finding each, 100 listed) then `data` naming a
        // member twice: the walk's finding is past the list, counted in the omitted ones.
        let registry = Registry::new(vec![RegistryEntry::new(
            "com.example.test",
            json!({"type": "object"}),
        )])
        .unwrap();
        let validator = RegistryValidator::new(Validator::new(Profile::IntgStd015), registry);
        let members: Vec<String> = (0..150).map(|n| format!(r#""X{n}":1"#)).collect();
        for data in [r#"{"a":1,"a":2}"#, r#"{"a":1}"#] {
            let event = format!(
                r#"{{{},"specversion":"1.0","id":"1","source":"/s","type":"com.example.test","data":{data}}}"#,
                members.join(",")
            );
            let new = reports(&validator, event.as_bytes(), false);
            assert_eq!(new, reports(&validator, event.as_bytes(), true), "{data}");
            let report = validator.validate_bytes::<Json>(event.as_bytes());
            assert!(report.omitted_findings() > 0);
        }
        // A few envelope findings: the repeat is listed, once, where the reader listed it.
        let event = r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.test","data":{"a":1,"a":2},"X":1}"#;
        let new = reports(&validator, event.as_bytes(), false);
        assert_eq!(new, reports(&validator, event.as_bytes(), true));
        assert_eq!(
            repeated(&validator.validate_bytes::<Json>(event.as_bytes())),
            1
        );
    }
}
