use std::path::Path;

use cloudevent_runtime::CloudEventData;
use schemars::JsonSchema;
use serde_json::Value;

use crate::error::CodegenError;
use crate::registry::{ContentMode, EventMeta, METADATA_KEY, SchemaFile};

/// The registry schema of a payload type with `#[derive(CloudEvent, JsonSchema)]`: the schemars
/// 1.x draft 2020-12 schema, with `$id` (the `dataschema`) and `x-cloudevent` filled from the
/// derive's [`CloudEventData`] constants.
///
/// Which types are exported is an explicit list kept by the crate that owns them (a
/// function calling `export::<T>()` for each type); there is no hidden registration.
///
/// ```
/// use cloudevent_runtime::CloudEvent;
///
/// #[derive(serde::Serialize, schemars::JsonSchema, CloudEvent)]
/// #[cloudevent(
///     type = "com.example.order.created",
///     dataschema = "https://schemas.example.com/events/com.example.order.created/v1.json",
///     source = "https://api.example.com/orders"
/// )]
/// struct OrderCreated {
///     #[cloudevent(subject)]
///     order_id: String,
/// }
///
/// let schema = cloudevent_codegen::export::<OrderCreated>();
/// assert_eq!(schema["$id"], "https://schemas.example.com/events/com.example.order.created/v1.json");
/// assert_eq!(schema["x-cloudevent"]["subject"], "order_id");
/// ```
pub fn export<T: CloudEventData + JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut value = generator.into_root_schema_for::<T>().to_value();
    let meta = meta_of::<T>();
    if let Some(object) = value.as_object_mut() {
        if let Some(dataschema) = T::DATASCHEMA {
            object.insert("$id".into(), Value::String(dataschema.to_owned()));
        }
        object.insert(METADATA_KEY.into(), meta.to_value());
    }
    value
}

/// The metadata a derived type declares, as it appears in a registry schema.
pub(crate) fn meta_of<T: CloudEventData>() -> EventMeta {
    EventMeta {
        event_type: T::TYPE.to_owned(),
        dataschema: T::DATASCHEMA.unwrap_or_default().to_owned(),
        source: T::SOURCE.map(str::to_owned),
        source_template: T::SOURCE_PROPERTY
            .filter(|p| p.contains('{'))
            .map(str::to_owned),
        subject: T::SUBJECT_PROPERTY.map(str::to_owned),
        id_pointer: T::ID_PROPERTY.map(member_pointer),
        time_pointer: T::TIME_PROPERTY.map(member_pointer),
        source_pointer: T::SOURCE_PROPERTY
            .filter(|p| !p.contains('{'))
            .map(member_pointer),
        // A root property keeps its plain name (`region`); a member below the root is a
        // JSON pointer (`/context/tenant`).
        extensions: T::EXTENSION_PROPERTIES
            .iter()
            .map(|(name, property)| {
                let at = if property.contains('.') {
                    member_pointer(property)
                } else {
                    (*property).to_owned()
                };
                ((*name).to_owned(), at)
            })
            .collect(),
        datacontenttype: Some(T::DATACONTENTTYPE.to_owned()),
        contentmode: ContentMode::Structured,
    }
}

/// The JSON pointer of a member the derive names by its path (`context.id`, the root field's
/// serialized name then Rust member names): `/context/id`. Members below the root are named
/// as the derive knows them, by their Rust names: a nested member that serde renames is
/// reported by [`crate::check_schema`] as a pointer the schema does not define.
fn member_pointer(path: &str) -> String {
    path.split('.')
        .map(|segment| format!("/{}", segment.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// The registry file of a payload type, ready to be written to
/// `<registry>/<type>/v<major>.json`: [`export`]'s schema plus a `$comment` naming the Rust
/// type it comes from, so nobody edits the file by hand (the next export would undo it).
///
/// The file's major version is the type's `.vN` suffix (1 without one); the registry checks
/// ([`crate::check_schema`]) make sure the dataschema agrees.
///
/// ```
/// use cloudevent_runtime::CloudEvent;
///
/// #[derive(serde::Serialize, schemars::JsonSchema, CloudEvent)]
/// #[cloudevent(
///     type = "com.example.order.returned",
///     dataschema = "https://schemas.example.com/events/com.example.order.returned/v1.json"
/// )]
/// struct OrderReturned {
///     order_id: String,
/// }
///
/// let file = cloudevent_codegen::export_file::<OrderReturned>("schemas".as_ref()).unwrap();
/// assert_eq!(file.relative, "com.example.order.returned/v1.json");
/// assert!(file.schema["$comment"].as_str().unwrap().contains("OrderReturned"));
/// ```
///
/// # Errors
/// [`CodegenError::Findings`] when the derive's metadata cannot make a registry file (no
/// `dataschema`, so no `$id`).
pub fn export_file<T: CloudEventData + JsonSchema>(
    registry: &Path,
) -> Result<SchemaFile, CodegenError> {
    let mut schema = export::<T>();
    if let Some(object) = schema.as_object_mut() {
        object.insert(
            "$comment".into(),
            Value::String(format!(
                "Generated by `cargo xtask codegen` from the Rust type `{}`; edit the type, not this file.",
                std::any::type_name::<T>()
            )),
        );
    }
    let major = cloudevent_rules::type_version(T::TYPE).unwrap_or(1);
    let meta = meta_of::<T>();
    let relative = format!("{}/v{major}.json", meta.base_type());
    SchemaFile::parse(registry, &relative, &schema_text(&schema))
}

/// How a schema is written to disk: pretty JSON with a final newline.
pub(crate) fn schema_text(schema: &Value) -> String {
    let mut text = serde_json::to_string_pretty(schema)
        .expect("a serde_json::Value has string keys only, so it always serializes");
    text.push('\n');
    text
}

impl SchemaFile {
    /// The file as it is written to disk: its schema as pretty JSON with a final newline
    /// (what `cargo xtask codegen` writes for an [`export_file`]).
    ///
    /// ```
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
    /// let registry = cloudevent_codegen::Registry::load(dir).unwrap();
    /// let text = registry.files[0].text();
    /// assert!(text.ends_with("}\n"));
    /// let read: serde_json::Value = serde_json::from_str(&text).unwrap();
    /// assert_eq!(read, registry.files[0].schema);
    /// ```
    pub fn text(&self) -> String {
        schema_text(&self.schema)
    }
}
