//! The data schema a generated type carries for what its Rust type cannot express (`const`,
//! `uniqueItems`, `not`, bounds, ...): compiled once per type on first use with the registry
//! validator's own settings ([`CompiledSchema`], so `validate --registry` and the typed
//! readers give one verdict), run on the payload at every typed door through
//! [`CloudEventData::check_data`](crate::CloudEventData::check_data).

use std::sync::OnceLock;

use cloudevent_rules::{Violation, rule};
use serde::Serialize;

use super::schema::CompiledSchema;

/// A data schema checked on every payload a typed reader reads. `cloudevent-codegen` emits
/// one `static` a generated type, through `#[cloudevent(check_schema = "DATA_SCHEMA")]`.
///
/// ```
/// use cloudevent_runtime::registry::SchemaCheck;
///
/// static CHECK: SchemaCheck = SchemaCheck::new(r#"{"type": "object", "maxProperties": 1}"#);
/// assert!(CHECK.check("com.example.order.noted", &serde_json::json!({"a": 1})).is_none());
/// let violation = CHECK.check("com.example.order.noted", &serde_json::json!({"a": 1, "b": 2})).unwrap();
/// assert!(violation.to_string().contains("maxProperties"), "{violation}");
/// ```
#[derive(Debug)]
pub struct SchemaCheck {
    schema: &'static str,
    compiled: OnceLock<Result<CompiledSchema, String>>,
}

impl SchemaCheck {
    /// A check of the schema text `schema`, compiled on first use.
    pub const fn new(schema: &'static str) -> Self {
        SchemaCheck {
            schema,
            compiled: OnceLock::new(),
        }
    }

    /// The first failure of `data` (as it is written: the typed value serialized) against the
    /// schema, as the registry validator reports it (rule `registry data`, the failing
    /// member's pointer and keyword); `None` when it is valid.
    pub fn check<T: Serialize + ?Sized>(&self, event_type: &str, data: &T) -> Option<Violation> {
        let compiled = self.compiled.get_or_init(|| {
            serde_json::from_str(self.schema)
                .map_err(|e| e.to_string())
                .and_then(|schema| CompiledSchema::compile(&schema))
        });
        let compiled = match compiled {
            Ok(compiled) => compiled,
            Err(error) => {
                return Some(Violation::error(
                    rule::REGISTRY_DATA,
                    "data",
                    "",
                    format!(
                        "the data schema generated for `{event_type}` does not compile: {error}; regenerate the type"
                    ),
                ));
            }
        };
        let value = match serde_json::to_value(data) {
            Ok(value) => value,
            Err(error) => {
                return Some(Violation::error(
                    rule::REGISTRY_DATA,
                    "data",
                    "",
                    format!("the payload of `{event_type}` cannot be written as JSON: {error}"),
                ));
            }
        };
        compiled.findings(event_type, &value).into_iter().next()
    }
}
