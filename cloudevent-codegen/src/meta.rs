//! The CloudEvents metadata of a registry entry: the `x-cloudevent` object of a JSON schema
//! (or of a `.proto` entry's comment) plus its `$id`, and how the event travels. Below both
//! entry kinds, so the `.proto` reader needs nothing of the registry that holds it.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::error::{Finding, pointer_segment};

/// The key of the metadata object in a registry schema.
pub(crate) const METADATA_KEY: &str = "x-cloudevent";

/// How an event travels: the whole event as one JSON document, or the data as the message
/// body with the attributes in headers (INTG-STD-015 R-9: producers MUST document it).
///
/// ```
/// use cloudevent_codegen::{ContentMode, EventMeta};
///
/// let schema = serde_json::json!({
///     "$id": "https://schemas.example.com/events/com.example.order.created/v1.json",
///     "x-cloudevent": {"type": "com.example.order.created", "contentmode": "binary"},
/// });
/// assert_eq!(EventMeta::from_schema(&schema).unwrap().contentmode, ContentMode::Binary);
/// assert_eq!(ContentMode::default(), ContentMode::Structured);
/// assert_eq!(ContentMode::Binary.name(), "binary");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContentMode {
    /// The event is one JSON document (`application/cloudevents+json`).
    #[default]
    Structured,
    /// The data is the body, attributes are `ce-`/`ce_` headers.
    Binary,
}

impl ContentMode {
    /// The name used in `x-cloudevent.contentmode` and the catalog.
    pub const fn name(self) -> &'static str {
        match self {
            ContentMode::Structured => "structured",
            ContentMode::Binary => "binary",
        }
    }
}

/// The CloudEvents metadata of one schema file: its `x-cloudevent` object plus `$id`.
///
/// ```
/// use cloudevent_codegen::EventMeta;
///
/// let schema = serde_json::json!({
///     "$id": "https://schemas.example.com/events/com.example.order.created/v1.json",
///     "x-cloudevent": {
///         "type": "com.example.order.created",
///         "subject": "order_id",
///         "attributes": {"id": "/context/id", "time": "/context/placed_at"},
///         "extensions": {"region": "region", "tenantid": "/context/tenant/id"},
///     },
/// });
/// let meta = EventMeta::from_schema(&schema).unwrap();
/// assert_eq!(meta.event_type, "com.example.order.created");
/// assert_eq!(meta.subject.as_deref(), Some("order_id"));
/// assert_eq!(meta.id_pointer.as_deref(), Some("/context/id"));
/// assert_eq!(meta.extensions["tenantid"], "/context/tenant/id");
/// // Written back as read.
/// assert_eq!(meta.to_value()["attributes"], schema["x-cloudevent"]["attributes"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EventMeta {
    /// `x-cloudevent.type`.
    pub event_type: String,
    /// `$id`, the event's `dataschema`.
    pub dataschema: String,
    /// `x-cloudevent.source`, the default source.
    pub source: Option<String>,
    /// A source given as a URI template (`{tenantid}/{deviceid}`: `x-cloudevent.source`
    /// holding `{`, or an xRegistry message's): filled from payload members when they exist.
    pub source_template: Option<String>,
    /// `x-cloudevent.subject`: the payload property that fills `subject`.
    pub subject: Option<String>,
    /// `x-cloudevent.attributes.id`: the JSON pointer of the payload member that fills `id`
    /// (`/context/id`). It wins over `--id-pointer` / [`crate::Builder::id_pointer`].
    pub id_pointer: Option<String>,
    /// `x-cloudevent.attributes.time`: the JSON pointer of the member that fills `time`.
    pub time_pointer: Option<String>,
    /// `x-cloudevent.attributes.source`: the JSON pointer of the member that fills `source`
    /// (`x-cloudevent.source` stays the default source).
    pub source_pointer: Option<String>,
    /// `x-cloudevent.extensions`: extension name → a root payload property (`region`), or a
    /// JSON pointer to a member at any depth (`/context/tenant`). They win over
    /// `--extension` / [`crate::Builder::extension_pointer`] for the same name.
    pub extensions: BTreeMap<String, String>,
    /// `x-cloudevent.datacontenttype`; `application/json` when absent.
    pub datacontenttype: Option<String>,
    /// `x-cloudevent.contentmode`; structured when absent.
    pub contentmode: ContentMode,
}

impl EventMeta {
    /// Reads the metadata of a schema; each problem is reported with its JSON pointer.
    ///
    /// # Errors
    /// A finding (with an empty file name) for every missing or mistyped member.
    pub fn from_schema(schema: &Value) -> Result<EventMeta, Vec<Finding>> {
        let mut findings = Vec::new();
        let mut meta = EventMeta::default();
        match schema.get("$id").and_then(Value::as_str) {
            Some(id) => meta.dataschema = id.to_owned(),
            None => findings.push(
                Finding::new(
                    "",
                    "/$id",
                    "`$id` is missing; it is the event's dataschema URI",
                )
                .with_fix("add `\"$id\": \"https://schemas.example.com/events/<type>/v1.json\"`"),
            ),
        }
        let Some(object) = schema.get(METADATA_KEY).and_then(Value::as_object) else {
            findings.push(
                Finding::new(
                    "",
                    "/x-cloudevent",
                    "the `x-cloudevent` metadata object is missing",
                )
                .with_fix("add `\"x-cloudevent\": {\"type\": \"com.example.<entity>.<action>\"}`"),
            );
            return Err(findings);
        };
        let string = |key: &str, findings: &mut Vec<Finding>| -> Option<String> {
            match object.get(key) {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(_) => {
                    findings.push(Finding::new(
                        "",
                        format!("/x-cloudevent/{key}"),
                        format!("`x-cloudevent.{key}` must be a string"),
                    ));
                    None
                }
            }
        };
        match string("type", &mut findings) {
            Some(t) => meta.event_type = t,
            None => findings.push(
                Finding::new("", "/x-cloudevent/type", "`x-cloudevent.type` is missing")
                    .with_fix("name the event type, e.g. `com.example.order.created`"),
            ),
        }
        meta.source = string("source", &mut findings);
        if meta.source.as_deref().is_some_and(|s| s.contains('{')) {
            meta.source_template = meta.source.take();
        }
        meta.subject = string("subject", &mut findings);
        read_attributes(object.get("attributes"), &mut meta, &mut findings);
        meta.datacontenttype = string("datacontenttype", &mut findings);
        match string("contentmode", &mut findings).as_deref() {
            None | Some("structured") => {}
            Some("binary") => meta.contentmode = ContentMode::Binary,
            Some(other) => findings.push(
                Finding::new(
                    "",
                    "/x-cloudevent/contentmode",
                    format!("content mode `{other}` is neither `structured` nor `binary`"),
                )
                .with_fix("write `structured` or `binary` (INTG-STD-015 R-9)"),
            ),
        }
        match object.get("extensions") {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) => {
                for (name, property) in map {
                    match property.as_str() {
                        Some(p) => {
                            meta.extensions.insert(name.clone(), p.to_owned());
                        }
                        None => findings.push(Finding::new(
                            "",
                            format!("/x-cloudevent/extensions/{}", pointer_segment(name)),
                            format!("extension `{name}` must name a payload property (a string)"),
                        )),
                    }
                }
            }
            Some(_) => findings.push(Finding::new(
                "",
                "/x-cloudevent/extensions",
                "`x-cloudevent.extensions` must be an object of extension name → property",
            )),
        }
        if findings.is_empty() {
            Ok(meta)
        } else {
            Err(findings)
        }
    }

    /// The metadata as the `x-cloudevent` object written into schemas.
    pub fn to_value(&self) -> Value {
        let mut object = serde_json::Map::new();
        object.insert("type".into(), Value::String(self.event_type.clone()));
        // A template is written where it was read from: `source`, recognised by its `{`.
        if let Some(source) = self.source.as_ref().or(self.source_template.as_ref()) {
            object.insert("source".into(), Value::String(source.clone()));
        }
        if let Some(subject) = &self.subject {
            object.insert("subject".into(), Value::String(subject.clone()));
        }
        let attributes: serde_json::Map<String, Value> = self
            .attribute_pointers()
            .filter_map(|(name, pointer)| Some((name.to_owned(), Value::String(pointer?.clone()))))
            .collect();
        if !attributes.is_empty() {
            object.insert("attributes".into(), Value::Object(attributes));
        }
        if !self.extensions.is_empty() {
            let map = self
                .extensions
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect();
            object.insert("extensions".into(), Value::Object(map));
        }
        if let Some(datacontenttype) = &self.datacontenttype {
            object.insert(
                "datacontenttype".into(),
                Value::String(datacontenttype.clone()),
            );
        }
        object.insert(
            "contentmode".into(),
            Value::String(self.contentmode.name().into()),
        );
        Value::Object(object)
    }

    /// `("id", ..)`, `("time", ..)`, `("source", ..)`: the pointers of `x-cloudevent.attributes`.
    pub(crate) fn attribute_pointers(
        &self,
    ) -> impl Iterator<Item = (&'static str, Option<&String>)> {
        [
            ("id", self.id_pointer.as_ref()),
            ("time", self.time_pointer.as_ref()),
            ("source", self.source_pointer.as_ref()),
        ]
        .into_iter()
    }

    /// The type without its `.vN` suffix: the registry directory's name.
    pub fn base_type(&self) -> &str {
        match cloudevent_rules::type_version(&self.event_type) {
            Some(n) => self
                .event_type
                .strip_suffix(&format!(".v{n}"))
                .unwrap_or(&self.event_type),
            None => &self.event_type,
        }
    }
}

/// `x-cloudevent.attributes`: `{"id": "/context/id", "time": "/context/timestamp", "source":
/// "/context/source"}`, JSON pointers into the payload, as `cloudevent-registry.toml`'s
/// `[attributes]` names them for a whole registry.
fn read_attributes(value: Option<&Value>, meta: &mut EventMeta, findings: &mut Vec<Finding>) {
    let map = match value {
        None | Some(Value::Null) => return,
        Some(Value::Object(map)) => map,
        Some(_) => {
            findings.push(
                Finding::new(
                    "",
                    "/x-cloudevent/attributes",
                    "`x-cloudevent.attributes` must be an object of attribute name → JSON pointer",
                )
                .with_fix("write e.g. `\"attributes\": {\"id\": \"/context/id\"}`"),
            );
            return;
        }
    };
    for (name, pointer) in map {
        let at = format!("/x-cloudevent/attributes/{}", pointer_segment(name));
        let slot = match name.as_str() {
            "id" => &mut meta.id_pointer,
            "time" => &mut meta.time_pointer,
            "source" => &mut meta.source_pointer,
            _ => {
                findings.push(
                    Finding::new(
                        "",
                        at,
                        format!("unknown attribute `{name}`: expected `id`, `time` or `source`"),
                    )
                    .with_fix("`subject` and `source` (the default source) are members of `x-cloudevent` itself; extensions go under `x-cloudevent.extensions`"),
                );
                continue;
            }
        };
        match pointer.as_str() {
            Some(text) if text.starts_with('/') => *slot = Some(text.to_owned()),
            _ => findings.push(
                Finding::new(
                    "",
                    at,
                    format!("`{name}` must be a JSON pointer into the payload (a string starting with `/`)"),
                )
                .with_fix(format!("e.g. `\"{name}\": \"/context/{name}\"`")),
            ),
        }
    }
}
