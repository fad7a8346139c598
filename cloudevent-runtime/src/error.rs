//! The error types, one per concern: a value that breaks a rule ([`ValueError`]), an event
//! that cannot be built ([`BuildError`]), input that is not a valid event in the JSON format
//! ([`FormatError`]). Validation findings are not errors but a report
//! ([`crate::ValidationReport`]).

use std::fmt;

use cloudevent_rules::{RuleId, Violation};

/// Renders violations one after the other, separated by `; `.
struct ViolationList<'a>(&'a [Violation]);

impl fmt::Display for ViolationList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, violation) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{violation}")?;
        }
        Ok(())
    }
}

/// A value that breaks a naming or format rule; holds every error the rules found.
///
/// ```
/// use cloudevent_runtime::Timestamp;
///
/// let err = Timestamp::try_from("yesterday").unwrap_err();
/// assert_eq!(err.violations()[0].attribute, "time");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", ViolationList(&self.violations))]
pub struct ValueError {
    violations: Vec<Violation>,
}

impl ValueError {
    /// Wraps the violations a check returned.
    pub(crate) fn new(violations: Vec<Violation>) -> Self {
        ValueError { violations }
    }

    /// The broken rules, in the order the checks found them.
    ///
    /// ```
    /// use cloudevent_runtime::Timestamp;
    /// let err = Timestamp::try_from("soon").unwrap_err();
    /// assert_eq!(err.violations()[0].rule.as_str(), "CE 1.0.2 time");
    /// ```
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }
}

/// The broken rules, owned, in the order the checks found them.
///
/// ```
/// use cloudevent_runtime::{Uri, Violation};
/// let violations = Vec::<Violation>::from(Uri::try_from("not a uri").unwrap_err());
/// assert!(!violations.is_empty());
/// ```
impl From<ValueError> for Vec<Violation> {
    fn from(error: ValueError) -> Self {
        error.violations
    }
}

/// Why an [`Event`](crate::Event) could not be built or changed.
///
/// ```
/// use cloudevent_runtime::{BuildError, CloudEventData, Event, ExtensionVisitor};
///
/// #[derive(Debug, serde::Serialize)]
/// struct Ping;
/// impl CloudEventData for Ping {
///     const TYPE: &'static str = "com.example.health.ping.sent";
///     const DATASCHEMA: Option<&'static str> = None;
///     const SOURCE: Option<&'static str> = None;
///     const DATACONTENTTYPE: &'static str = "application/json";
///     const EXTENSIONS: &'static [&'static str] = &[];
///     fn subject(&self) -> Option<&str> { None }
///     fn visit_extensions<V: ExtensionVisitor>(&self, _: &mut V) -> Result<(), V::Error> { Ok(()) }
/// }
///
/// let err = Event::builder(Ping).build().unwrap_err();
/// assert!(matches!(err, BuildError::MissingSource { .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The payload type names no default source and none was set.
    #[error(
        "event `{event_type}` has no source: set one with `.source(..)` or `#[cloudevent(source = \"...\")]` (CE 1.0.2 required, INTG-STD-015 R-2)"
    )]
    MissingSource {
        /// The event type being built.
        event_type: &'static str,
    },
    /// Attribute values that break the rules; every error found is listed.
    #[error("{}", ViolationList(.0))]
    Invalid(Vec<Violation>),
    /// The payload could not be serialized (e.g. to measure or re-emit it).
    #[error("data: the payload cannot be serialized: {0} (CE-JSON 3.1)")]
    Payload(String),
}

impl BuildError {
    /// The violations behind an [`BuildError::Invalid`]; empty for the other kinds.
    ///
    /// ```
    /// use cloudevent_runtime::{BuildError, Uri};
    /// let err = BuildError::from(Uri::try_from("nope").unwrap_err());
    /// assert!(!err.violations().is_empty());
    /// assert!(BuildError::Payload("x".into()).violations().is_empty());
    /// ```
    pub fn violations(&self) -> &[Violation] {
        match self {
            BuildError::Invalid(violations) => violations,
            _ => &[],
        }
    }
}

impl From<ValueError> for BuildError {
    fn from(error: ValueError) -> Self {
        BuildError::Invalid(error.violations)
    }
}

/// Input that is not a valid event (or batch) in the CloudEvents JSON format.
///
/// Every message names the attribute, the rule id and what was found.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, FormatError};
///
/// let err = AnyEvent::from_slice(br#"{"specversion":"0.3","id":"1","source":"/s","type":"t"}"#)
///     .unwrap_err();
/// assert_eq!(err.rule().map(|r| r.as_str()), Some("CE 1.0.2 specversion"));
/// assert!(err.to_string().contains("0.3"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FormatError {
    /// An attribute (or `data`) breaks a rule of the format.
    #[error("{0}")]
    Invalid(Box<Violation>),
    /// The input is not JSON, or not an object where an event belongs.
    #[error("not a CloudEvents JSON document: {0} (INTG-STD-015 R-7)")]
    Json(serde_json::Error),
    /// The input is larger than the limit; it was not parsed.
    #[error("{what} of {found} bytes or more exceeds the limit of {limit} bytes ({rule})")]
    TooLarge {
        /// `event` or `batch`.
        what: &'static str,
        /// The size seen (at least this many bytes; reading stops past the limit).
        found: usize,
        /// The limit in bytes.
        limit: usize,
        /// INTG-STD-015 R-11 for an event, R-10 for a batch.
        rule: RuleId,
    },
    /// The event at this position of a batch is invalid.
    #[error("batch event #{index}: {source}")]
    InBatch {
        /// The position in the batch, from 0.
        index: usize,
        /// What is wrong with it.
        source: Box<FormatError>,
    },
    /// Reading the input failed.
    #[error("reading the event failed: {0}")]
    Io(#[from] std::io::Error),
}

impl FormatError {
    /// The rule the input breaks, when one applies.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, FormatError};
    /// let err = AnyEvent::from_slice(b"not json").unwrap_err();
    /// assert!(matches!(err, FormatError::Json(_)));
    /// assert_eq!(err.rule().map(|r| r.as_str()), Some("INTG-STD-015 R-7"));
    /// ```
    pub fn rule(&self) -> Option<RuleId> {
        match self {
            FormatError::Invalid(violation) => Some(violation.rule),
            FormatError::Json(_) => Some(cloudevent_rules::rule::INTG_R7),
            FormatError::TooLarge { rule, .. } => Some(*rule),
            FormatError::InBatch { source, .. } => source.rule(),
            FormatError::Io(_) => None,
        }
    }

    /// The attribute at fault, when one is.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let err = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/s","type":"t","n":1.5}"#).unwrap_err();
    /// assert_eq!(err.attribute(), Some("n"));
    /// ```
    pub fn attribute(&self) -> Option<&str> {
        match self {
            FormatError::Invalid(violation) => Some(&violation.attribute),
            FormatError::InBatch { source, .. } => source.attribute(),
            _ => None,
        }
    }

    /// The violation behind an [`FormatError::Invalid`].
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let err = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/s","type":"t","n":1.5}"#).unwrap_err();
    /// assert_eq!(err.violation().map(|v| v.value.as_str()), Some("1.5"));
    /// ```
    pub fn violation(&self) -> Option<&Violation> {
        match self {
            FormatError::Invalid(violation) => Some(violation),
            FormatError::InBatch { source, .. } => source.violation(),
            _ => None,
        }
    }
}

impl From<Violation> for FormatError {
    fn from(violation: Violation) -> Self {
        FormatError::Invalid(Box::new(violation))
    }
}
