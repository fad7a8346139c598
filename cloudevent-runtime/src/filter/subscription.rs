//! The Subscriptions API filter dialects (CloudEvents Subscriptions API 3.2.4): `exact`,
//! `prefix`, `suffix`, `all`, `any`, `not` (REQUIRED, 3.2.4.1.1) and `sql` (OPTIONAL,
//! 3.2.4.1.2), read from their JSON form `{ "dialect": <properties> }`, and a subscription's
//! `filters` array (every filter must pass; none: every event passes).
//!
//! An attribute is compared as a String (its canonical form: `true`, `42`, base64); an
//! attribute the event does not carry fails `exact`, `prefix` and `suffix`. Each attribute
//! name is resolved once, when the filter is read ([`AttributeName`]), so a filter compares
//! no names per event; and nothing is allocated per event but a Binary extension's base64
//! text.

use std::fmt;

use cloudevent_rules::cesql::{Expression, Functions, Limits, ParseError};
use cloudevent_rules::{AttributeName, Envelope};
use serde_json::Value as Json;

use super::{Filter, Filterable};
use crate::format::Fields;
use crate::{AnyEvent, ExtensionValue};

/// A filter expression of the Subscriptions API.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::filter::{Filter, SubscriptionFilter};
///
/// let filter: SubscriptionFilter = serde_json::from_str(r#"{
///   "all": [
///     { "prefix": { "type": "com.example." } },
///     { "not": { "sql": "subject LIKE 'test-%'" } }
///   ]
/// }"#).unwrap();
/// let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
/// event.set_subject(Some("order-1".into()));
/// assert!(filter.accepts(&event));
/// event.set_subject(Some("test-1".into()));
/// assert!(!filter.accepts(&event));
/// ```
#[derive(Debug, Clone)]
pub enum SubscriptionFilter {
    /// `exact`: every named attribute equals its value (case-sensitive).
    Exact(Vec<(AttributeName, String)>),
    /// `prefix`: every named attribute starts with its value.
    Prefix(Vec<(AttributeName, String)>),
    /// `suffix`: every named attribute ends with its value.
    Suffix(Vec<(AttributeName, String)>),
    /// `all`: every nested filter passes (a subscription's `filters` array too).
    All(Vec<SubscriptionFilter>),
    /// `any`: at least one nested filter passes.
    Any(Vec<SubscriptionFilter>),
    /// `not`: the nested filter does not pass.
    Not(Box<SubscriptionFilter>),
    /// `sql`: a CESQL expression; passes when it is `true` without an error.
    Sql(Expression),
}

/// A filter the Subscriptions API refuses (3.2.4: "creation or update of the subscription
/// MUST be rejected"); the message names the dialect and the section.
///
/// ```
/// use cloudevent_runtime::filter::SubscriptionFilter;
/// let error = SubscriptionFilter::from_json(&serde_json::json!({ "regex": { "type": ".*" } })).unwrap_err();
/// assert_eq!(error.to_string(),
///     "unsupported filter dialect `regex` (Subscriptions API 3.2.4: supported: exact, prefix, suffix, all, any, not, sql)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionError {
    message: String,
    sql: Option<ParseError>,
}

impl SubscriptionError {
    fn new(message: String) -> SubscriptionError {
        SubscriptionError { message, sql: None }
    }

    /// The CESQL parse error of an `sql` filter, when that is what was refused.
    ///
    /// ```
    /// use cloudevent_runtime::filter::SubscriptionFilter;
    /// let error = SubscriptionFilter::from_json(&serde_json::json!({ "sql": "type LIKE" })).unwrap_err();
    /// assert_eq!(error.sql_error().unwrap().span.start, 9);
    /// ```
    pub fn sql_error(&self) -> Option<&ParseError> {
        self.sql.as_ref()
    }
}

impl fmt::Display for SubscriptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SubscriptionError {}

const DIALECTS: &str = "exact, prefix, suffix, all, any, not, sql";

impl SubscriptionFilter {
    /// Reads a filter expression (`{ "exact": {...} }`), or a subscription's `filters` array
    /// (every element must pass; `[]` passes every event).
    ///
    /// # Errors
    /// An unknown dialect, a dialect's properties of the wrong shape, an empty attribute
    /// name or value, an empty `all`/`any`, an `sql` expression that does not parse
    /// (3.2.4.1.2: "SHOULD reject").
    ///
    /// ```
    /// use cloudevent_runtime::filter::SubscriptionFilter;
    /// assert!(SubscriptionFilter::from_json(&serde_json::json!([])).is_ok());
    /// assert!(SubscriptionFilter::from_json(&serde_json::json!({ "all": [] })).is_err());
    /// assert!(SubscriptionFilter::from_json(&serde_json::json!({ "exact": { "type": "" } })).is_err());
    /// ```
    pub fn from_json(json: &Json) -> Result<SubscriptionFilter, SubscriptionError> {
        SubscriptionFilter::from_json_with_limits(json, Limits::DEFAULT)
    }

    /// [`from_json`](SubscriptionFilter::from_json) with the bounds every `sql` filter is
    /// parsed and evaluated under: a subscription's `sql` is anyone's input at a
    /// Subscriptions API endpoint (issue 38: one such filter held a gateway worker 78 s),
    /// so a gateway states them in its configuration. [`Limits::DEFAULT`] bounds an
    /// expression to 64 KiB, a `LIKE` pattern to 1 KiB, a string it makes to the event size
    /// limit and one evaluation to 16 MiB scanned and made.
    ///
    /// # Errors
    /// As [`from_json`](SubscriptionFilter::from_json); an `sql` expression past a limit is
    /// refused with the limit named.
    ///
    /// ```
    /// use cloudevent_runtime::filter::{Limits, SubscriptionFilter};
    ///
    /// let limits = Limits { max_pattern_bytes: 16, ..Limits::DEFAULT };
    /// let json = serde_json::json!({ "sql": "subject LIKE '%order-%-created%'" });
    /// let error = SubscriptionFilter::from_json_with_limits(&json, limits).unwrap_err();
    /// assert!(error.to_string().contains("cesql::Limits::max_pattern_bytes"), "{error}");
    /// assert!(SubscriptionFilter::from_json(&json).is_ok());
    /// ```
    pub fn from_json_with_limits(
        json: &Json,
        limits: Limits,
    ) -> Result<SubscriptionFilter, SubscriptionError> {
        let nested_filter = |json: &Json| SubscriptionFilter::from_json_with_limits(json, limits);
        if let Json::Array(filters) = json {
            return filters
                .iter()
                .map(nested_filter)
                .collect::<Result<_, _>>()
                .map(SubscriptionFilter::All);
        }
        let Some(object) = json.as_object().filter(|o| o.len() == 1) else {
            return Err(SubscriptionError::new(format!(
                "a filter is one member `{{ \"dialect\": ... }}` (Subscriptions API 3.2.4.1), found {}",
                cloudevent_rules::shorten(&json.to_string())
            )));
        };
        let (dialect, properties) = object.iter().next().expect("one member, checked above");
        let invalid = |what: &str| {
            SubscriptionError::new(format!(
                "filter dialect `{dialect}`: {what} (Subscriptions API 3.2.4.1)"
            ))
        };
        let nested = |properties: &Json| -> Result<Vec<SubscriptionFilter>, SubscriptionError> {
            let Some(list) = properties.as_array() else {
                return Err(invalid("takes an array of filter expressions"));
            };
            if list.is_empty() {
                return Err(invalid("MUST hold at least one filter expression"));
            }
            list.iter().map(nested_filter).collect()
        };
        let pairs = |properties: &Json| -> Result<Vec<(AttributeName, String)>, SubscriptionError> {
            let Some(map) = properties.as_object().filter(|m| !m.is_empty()) else {
                return Err(invalid(
                    "takes an object of attribute names and String values",
                ));
            };
            map.iter()
                .map(|(name, value)| match value.as_str() {
                    Some(text) if !name.is_empty() && !text.is_empty() => {
                        Ok((AttributeName::new(name), text.to_owned()))
                    }
                    Some(_) => Err(invalid(&format!(
                        "attribute `{name}`: the name and value MUST NOT be empty strings"
                    ))),
                    None => Err(invalid(&format!(
                        "attribute `{name}`: the value is a String, found {value}"
                    ))),
                })
                .collect()
        };
        Ok(match dialect.as_str() {
            "exact" => SubscriptionFilter::Exact(pairs(properties)?),
            "prefix" => SubscriptionFilter::Prefix(pairs(properties)?),
            "suffix" => SubscriptionFilter::Suffix(pairs(properties)?),
            "all" => SubscriptionFilter::All(nested(properties)?),
            "any" => SubscriptionFilter::Any(nested(properties)?),
            "not" => SubscriptionFilter::Not(Box::new(nested_filter(properties)?)),
            "sql" => {
                let Some(source) = properties.as_str() else {
                    return Err(invalid("takes a String, a CloudEvents SQL expression"));
                };
                let functions = Functions::new();
                let parsed = Expression::parse_with_limits(source, &functions, limits);
                SubscriptionFilter::Sql(parsed.map_err(|error| SubscriptionError {
                    message: format!("filter dialect `sql`: {error} (Subscriptions API 3.2.4.1.2)"),
                    sql: Some(error),
                })?)
            }
            other => {
                return Err(SubscriptionError::new(format!(
                    "unsupported filter dialect `{other}` (Subscriptions API 3.2.4: supported: {DIALECTS})"
                )));
            }
        })
    }
}

impl<'de> serde::Deserialize<'de> for SubscriptionFilter {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let json = Json::deserialize(deserializer)?;
        SubscriptionFilter::from_json(&json).map_err(serde::de::Error::custom)
    }
}

/// Compares an attribute's String form with `f`; an absent attribute fails.
#[inline(always)]
fn attribute_text(value: Option<ExtensionValue<'_>>, f: impl Fn(&str) -> bool) -> bool {
    match value {
        None => false,
        Some(ExtensionValue::Boolean(b)) => f(if b { "true" } else { "false" }),
        Some(ExtensionValue::Integer(i)) => f(itoa::Buffer::new().format(i)),
        Some(
            ExtensionValue::String(text)
            | ExtensionValue::Uri(text)
            | ExtensionValue::UriReference(text)
            | ExtensionValue::Timestamp(text),
        ) => f(text),
        Some(binary @ ExtensionValue::Binary(_)) => f(&crate::extension::canonical(binary)),
    }
}

/// Where the dialects read an event: a view built once for the whole filter, or an
/// [`AnyEvent`]'s fields, of which an attribute read reads the one it names (issue 40:
/// building every field was 100 of an `exact` filter's 233 instructions; building the view
/// for each read, inlined, still loaded and kept every field, a third of what was left).
/// Both go through `AttributeName::read`, the view with [`Envelope::attribute`].
#[derive(Clone, Copy)]
enum Reader<'e, 'a> {
    Envelope(&'e Envelope<'a>),
    Any(&'e AnyEvent),
}

impl Reader<'_, '_> {
    #[inline(always)]
    fn text(self, name: &AttributeName, f: impl Fn(&str) -> bool) -> bool {
        match self {
            Reader::Envelope(envelope) => attribute_text(envelope.attribute(name), f),
            Reader::Any(event) => attribute_text(name.read(&Fields(event)), f),
        }
    }

    fn sql(self, expression: &Expression) -> bool {
        match self {
            Reader::Envelope(envelope) => expression.matches(envelope),
            Reader::Any(event) => expression.matches_attributes(&Fields(event), || event.view()),
        }
    }
}

impl SubscriptionFilter {
    /// The one evaluation of the dialects.
    fn select(&self, event: Reader<'_, '_>) -> bool {
        match self {
            SubscriptionFilter::Exact(pairs) => pairs
                .iter()
                .all(|(name, want)| event.text(name, |t| t == want)),
            SubscriptionFilter::Prefix(pairs) => pairs
                .iter()
                .all(|(name, want)| event.text(name, |t| t.starts_with(want.as_str()))),
            SubscriptionFilter::Suffix(pairs) => pairs
                .iter()
                .all(|(name, want)| event.text(name, |t| t.ends_with(want.as_str()))),
            SubscriptionFilter::All(filters) => filters.iter().all(|f| f.select(event)),
            SubscriptionFilter::Any(filters) => filters.iter().any(|f| f.select(event)),
            SubscriptionFilter::Not(filter) => !filter.select(event),
            SubscriptionFilter::Sql(expression) => event.sql(expression),
        }
    }
}

impl Filter for SubscriptionFilter {
    fn accepts_envelope(&self, envelope: &Envelope<'_>) -> bool {
        self.select(Reader::Envelope(envelope))
    }

    fn accepts(&self, event: &dyn Filterable) -> bool {
        match event.as_any_event() {
            Some(event) => self.select(Reader::Any(event)),
            None => {
                let mut accepted = false;
                event.with_envelope(&mut |envelope| accepted = self.accepts_envelope(envelope));
                accepted
            }
        }
    }
}
