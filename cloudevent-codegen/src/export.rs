use cloudevent_runtime::CloudEventData;
use schemars::JsonSchema;
use serde_json::Value;

use crate::registry::{ContentMode, EventMeta, METADATA_KEY};

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
pub fn meta_of<T: CloudEventData>() -> EventMeta {
    EventMeta {
        event_type: T::TYPE.to_owned(),
        dataschema: T::DATASCHEMA.unwrap_or_default().to_owned(),
        source: T::SOURCE.map(str::to_owned),
        subject: T::SUBJECT_PROPERTY.map(str::to_owned),
        extensions: T::EXTENSION_PROPERTIES
            .iter()
            .map(|(name, property)| ((*name).to_owned(), (*property).to_owned()))
            .collect(),
        datacontenttype: Some(T::DATACONTENTTYPE.to_owned()),
        contentmode: ContentMode::Structured,
    }
}
