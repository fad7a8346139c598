//! The reports the validator writes: one event's ([`ValidationReport`]), a batch's
//! ([`BatchReport`]), either ([`Document`]), and the one JSON shape of a finding
//! ([`FindingJson`]).

use std::fmt;

use cloudevent_rules::{Profile, Severity, Violation};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::extension::JsonValue;
use cloudevent_rules::ExtensionValue;

/// Everything found wrong with one event, errors and warnings, in the order checked.
///
/// ```
/// use cloudevent_runtime::Validate;
/// use cloudevent_runtime::{Json, Profile, Severity, Validator};
///
/// let report = Validator::new(Profile::IntgStd015).validate_bytes::<Json>(br#"{"specversion":"1.0",
///     "id":"1","source":"https://orders.example.com","type":"com.example.order.created",
///     "time":"2026-03-28T14:22:31+01:00"}"#);
/// assert!(!report.is_valid());
/// let finding = report.errors().next().unwrap();
/// assert_eq!(finding.attribute, "time");
/// assert_eq!(finding.severity, Severity::Error);
/// assert!(report.to_string().contains("time"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationReport {
    profile: Profile,
    /// The attributes as read (the event's `id` among them).
    pub(crate) attributes: ReadAttributes,
    pub(crate) findings: Vec<Violation>,
    /// Findings past [`limits::MAX_REPORTED_FINDINGS`](crate::limits::MAX_REPORTED_FINDINGS),
    /// counted, not kept.
    omitted: Omitted,
}

/// What a report counted without keeping it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Omitted {
    count: usize,
    /// Whether one of them is an error.
    error: bool,
}

/// An attribute as the validator read it, for the report: a core attribute's text, or an
/// extension's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AttributeValue<'a> {
    Text(&'a str),
    Extension(ExtensionValue<'a>),
}

/// The attributes a report read, in the order read. A batch's report keeps one report for
/// every event it lists, so they are kept compactly: every extension name and every text
/// value back to back in one boxed `str`, Binary values' bytes in one boxed slice, and each
/// attribute as the offsets where its name and value end there (issue 40's memory table: a
/// batch of 100,000 events read and validated held 313.9 MiB, 146 of them reports; now 240.8
/// MiB, below the SDK's 242.5 for reading it without checks).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct ReadAttributes {
    text: Box<str>,
    bytes: Box<[u8]>,
    entries: Box<[(Name, Stored)]>,
}

/// An attribute's name: a core attribute's is the rules' own `&'static str`, an extension's
/// ends in [`ReadAttributes::text`] at the offset held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Name {
    Core(&'static str),
    Extension(usize),
}

/// An attribute's value: text ends in [`ReadAttributes::text`] (Binary in `bytes`) at the
/// offset held, each starting where the name or value before it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stored {
    Text(usize),
    String(usize),
    Uri(usize),
    UriReference(usize),
    Timestamp(usize),
    Binary(usize),
    Boolean(bool),
    Integer(i32),
}

impl ReadAttributes {
    /// The attributes of `view`: its core attributes, then its extensions, each in order.
    fn of(view: &cloudevent_rules::Envelope<'_>) -> Self {
        // Sized once: every place and byte counted before anything is copied.
        let core = view.core();
        let (mut entries, mut text, mut bytes) = (0, 0, 0);
        for value in core.iter().filter_map(|(_, value)| *value) {
            entries += 1;
            text += value.len();
        }
        view.extensions.for_each_extension(&mut |name, value| {
            entries += 1;
            text += name.len();
            match value {
                ExtensionValue::Binary(value) => bytes += value.len(),
                other => text += other.as_str().map_or(0, str::len),
            }
        });
        // Boxed when written (their lengths are their capacities, so no copy): three words
        // fewer in every report, and in every rejection that holds one.
        let mut all = String::with_capacity(text);
        let mut binary = Vec::with_capacity(bytes);
        let mut read = Vec::with_capacity(entries);
        for (name, value) in core {
            if let Some(value) = value {
                all.push_str(value);
                read.push((Name::Core(name), Stored::Text(all.len())));
            }
        }
        view.extensions.for_each_extension(&mut |name, value| {
            all.push_str(name);
            let name = Name::Extension(all.len());
            let mut text = |value: &str| {
                all.push_str(value);
                all.len()
            };
            let value = match value {
                ExtensionValue::Boolean(b) => Stored::Boolean(b),
                ExtensionValue::Integer(i) => Stored::Integer(i),
                ExtensionValue::String(s) => Stored::String(text(s)),
                ExtensionValue::Uri(s) => Stored::Uri(text(s)),
                ExtensionValue::UriReference(s) => Stored::UriReference(text(s)),
                ExtensionValue::Timestamp(s) => Stored::Timestamp(text(s)),
                ExtensionValue::Binary(b) => {
                    binary.extend_from_slice(b);
                    Stored::Binary(binary.len())
                }
            };
            read.push((name, value));
        });
        ReadAttributes {
            text: all.into_boxed_str(),
            bytes: binary.into_boxed_slice(),
            entries: read.into_boxed_slice(),
        }
    }

    /// Every attribute, in the order read.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, AttributeValue<'_>)> {
        self.walk(0, 0)
    }

    /// The extensions, in the order read: the core attributes before them stepped over
    /// without being sliced (the registry checks each extension of every event).
    #[cfg(feature = "registry")]
    pub(crate) fn extensions(&self) -> impl Iterator<Item = (&str, ExtensionValue<'_>)> {
        let core = self
            .entries
            .iter()
            .take_while(|(name, _)| matches!(name, Name::Core(_)))
            .count();
        let at = match core.checked_sub(1).and_then(|last| self.entries.get(last)) {
            Some((_, Stored::Text(end))) => *end,
            _ => 0,
        };
        self.walk(core, at).filter_map(|(name, value)| match value {
            AttributeValue::Extension(value) => Some((name, value)),
            AttributeValue::Text(_) => None,
        })
    }

    /// The attributes from the `from`th on, whose text starts at `at` (Binary bytes at 0:
    /// only extensions, which come after every core attribute, hold any).
    fn walk(&self, from: usize, at: usize) -> impl Iterator<Item = (&str, AttributeValue<'_>)> {
        let (mut at, mut at_byte) = (at, 0);
        let entries = self.entries.get(from..).unwrap_or_default();
        entries.iter().map(move |&(name, value)| {
            let mut text = |end: usize| {
                let read = self.text.get(at..end).unwrap_or_default();
                at = end;
                read
            };
            let name = match name {
                Name::Core(name) => name,
                Name::Extension(end) => text(end),
            };
            let value = match value {
                Stored::Text(end) => AttributeValue::Text(text(end)),
                Stored::String(end) => AttributeValue::Extension(ExtensionValue::String(text(end))),
                Stored::Uri(end) => AttributeValue::Extension(ExtensionValue::Uri(text(end))),
                Stored::UriReference(end) => {
                    AttributeValue::Extension(ExtensionValue::UriReference(text(end)))
                }
                Stored::Timestamp(end) => {
                    AttributeValue::Extension(ExtensionValue::Timestamp(text(end)))
                }
                Stored::Binary(end) => {
                    let read = self.bytes.get(at_byte..end).unwrap_or_default();
                    at_byte = end;
                    AttributeValue::Extension(ExtensionValue::Binary(read))
                }
                Stored::Boolean(b) => AttributeValue::Extension(ExtensionValue::Boolean(b)),
                Stored::Integer(i) => AttributeValue::Extension(ExtensionValue::Integer(i)),
            };
            (name, value)
        })
    }

    /// How many attributes.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// A core attribute's text (`id`, `datacontenttype`, ...): the core attributes come
    /// first, and only the one asked for is sliced.
    pub(crate) fn core(&self, name: &str) -> Option<&str> {
        let mut start = 0;
        for &(read, value) in self.entries.iter() {
            let (Name::Core(read), Stored::Text(end)) = (read, value) else {
                return None;
            };
            if read == name {
                return self.text.get(start..end);
            }
            start = end;
        }
        None
    }
}

impl ValidationReport {
    /// The attributes as read, as the JSON object the report's `attributes` member holds.
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// let report = Validator::new(Profile::CloudEvents).validate_bytes::<Json>(br#"{"id":"evt-1","n":1}"#);
    /// assert_eq!(report.attributes_json(), serde_json::json!({"id": "evt-1", "n": 1}));
    /// ```
    pub fn attributes_json(&self) -> serde_json::Value {
        serde_json::to_value(AttributesJson(&self.attributes))
            .expect("attributes are strings and extension values, which always make a JSON value")
    }

    /// An attribute's text as the validator read it: a core attribute, or an extension
    /// whose value is a String (`None` when absent or of another type).
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// let report = Validator::new(Profile::CloudEvents)
    ///     .validate_bytes::<Json>(br#"{"source":"/s","sequence":"7","n":1}"#);
    /// assert_eq!(report.attribute("source"), Some("/s"));
    /// assert_eq!(report.attribute("sequence"), Some("7"));
    /// assert_eq!(report.attribute("n"), None);
    /// ```
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(key, _)| *key == name)
            .and_then(|(_, value)| match value {
                AttributeValue::Text(text) => Some(text),
                AttributeValue::Extension(value) => value.as_str(),
            })
    }

    /// A report on an event whose attributes could be read.
    pub(super) fn new(
        profile: Profile,
        view: &cloudevent_rules::Envelope<'_>,
        findings: Vec<Violation>,
    ) -> Self {
        let attributes = ReadAttributes::of(view);
        let mut report = ValidationReport {
            profile,
            attributes,
            findings,
            omitted: Omitted::default(),
        };
        report.bound();
        report
    }

    /// A report on input that could not be read as an event at all.
    pub(crate) fn refused(profile: Profile, findings: Vec<Violation>) -> Self {
        let mut report = ValidationReport {
            profile,
            attributes: ReadAttributes::default(),
            findings,
            omitted: Omitted::default(),
        };
        report.bound();
        report
    }

    /// Puts `found` where a reader would have listed them, `at` in the findings as they were
    /// before [`ValidationReport::bound`] cut them (so at most at the end), and bounds again:
    /// the same findings listed, counted and omitted as when they were there from the start.
    pub(crate) fn insert_findings(&mut self, at: usize, found: Vec<Violation>) {
        if found.is_empty() {
            return;
        }
        let at = at.min(self.findings.len());
        self.findings.splice(at..at, found);
        self.bound();
    }

    /// Keeps at most [`limits::MAX_REPORTED_FINDINGS`](crate::limits::MAX_REPORTED_FINDINGS)
    /// findings and counts the rest; called again after a registry adds its own.
    pub(crate) fn bound(&mut self) {
        let max = crate::limits::MAX_REPORTED_FINDINGS;
        if self.findings.len() > max {
            let rest = self.findings.split_off(max);
            self.omitted.count += rest.len();
            self.omitted.error |= rest.iter().any(Violation::is_error);
        }
    }

    /// How many findings the report counted but does not list: those past
    /// [`limits::MAX_REPORTED_FINDINGS`](crate::limits::MAX_REPORTED_FINDINGS).
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator, limits};
    ///
    /// // 150 extension names in capitals: one finding each, 100 listed.
    /// let members: Vec<String> = (0..150).map(|n| format!(r#""X{n}":1"#)).collect();
    /// let event = format!("{{{}}}", members.join(","));
    /// let report = Validator::new(Profile::CloudEvents).validate_bytes::<Json>(event.as_bytes());
    /// assert_eq!(report.findings().len(), limits::MAX_REPORTED_FINDINGS);
    /// assert!(report.omitted_findings() > 0);
    /// ```
    pub fn omitted_findings(&self) -> usize {
        self.omitted.count
    }

    /// The event's `id`, when it could be read.
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// let report = Validator::new(Profile::CloudEvents).validate_bytes::<Json>(br#"{"id":"evt-1"}"#);
    /// assert_eq!(report.id(), Some("evt-1"));
    /// ```
    pub fn id(&self) -> Option<&str> {
        self.attributes.core("id")
    }

    /// Whether the event has no error (warnings allowed).
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// assert!(!Validator::new(Profile::CloudEvents).validate_bytes::<Json>(b"{}").is_valid());
    /// ```
    pub fn is_valid(&self) -> bool {
        !self.omitted.error && !self.findings.iter().any(Violation::is_error)
    }

    /// Every finding.
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// let report = Validator::new(Profile::CloudEvents).validate_bytes::<Json>(b"{}");
    /// assert_eq!(report.findings().len(), 4); // specversion, id, source, type
    /// ```
    pub fn findings(&self) -> &[Violation] {
        &self.findings
    }

    /// The errors (broken MUSTs).
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// let report = Validator::new(Profile::CloudEvents).validate_bytes::<Json>(br#"{"specversion":"1.0"}"#);
    /// let missing: Vec<&str> = report.errors().map(|f| &*f.attribute).collect();
    /// assert_eq!(missing, ["id", "source", "type"]);
    /// ```
    pub fn errors(&self) -> impl Iterator<Item = &Violation> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
    }

    /// The warnings (broken SHOULDs).
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// let report = Validator::new(Profile::IntgStd015).validate_bytes::<Json>(br#"{"specversion":"1.0",
    ///     "id":"1","source":"https://orders.example.com","type":"com.example.order.created"}"#);
    /// assert!(report.is_valid());
    /// assert!(report.warnings().any(|f| f.attribute == "time"));
    /// ```
    pub fn warnings(&self) -> impl Iterator<Item = &Violation> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
    }

    /// Whether some finding cites this rule id.
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// let report = Validator::new(Profile::CloudEvents).validate_bytes::<Json>(br#"{"specversion":"0.3"}"#);
    /// assert!(report.has_rule("CE 1.0.2 specversion"));
    /// let report = Validator::new(Profile::IntgStd015).validate_bytes::<Json>(br#"{"specversion":"0.3"}"#);
    /// assert!(report.has_rule("INTG-STD-015 R-1"));
    /// ```
    pub fn has_rule(&self, rule: &str) -> bool {
        self.findings.iter().any(|f| f.rule.as_str() == rule)
    }

    /// Lists the error a typed reader stopped at after the validator's findings, unless one
    /// of them is that error already (same rule, same attribute): what only a type checks
    /// (the event type it takes, its payload) joins the report once (issue 41).
    #[cfg(any(
        feature = "http",
        feature = "kafka",
        feature = "amqp",
        feature = "mqtt",
        feature = "nats"
    ))]
    pub(crate) fn list_refusal(&mut self, refusal: Violation) {
        let listed = self
            .findings
            .iter()
            .any(|f| f.is_error() && f.rule == refusal.rule && f.attribute == refusal.attribute);
        if !listed {
            self.findings.push(refusal);
            self.bound();
        }
    }
}

/// Adds findings made outside the validator's read: the warnings of a binding's literal
/// reading ([`binding::http::structured_document`](crate::binding::http::structured_document)
/// under a policy [`with_literal_headers`](crate::Policy::with_literal_headers)), so the one
/// report lists everything the message showed. The bound on listed findings holds.
///
/// ```
/// use cloudevent_runtime::{Json, Profile, Validate, Validator, Violation, rules::rule};
///
/// let mut report = Validator::new(Profile::CloudEvents).validate_bytes::<Json>(
///     br#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.a.b"}"#);
/// report.extend([Violation::warning(rule::CE_HTTP_HEADER_VALUE, "subject", "100%", "read literally")]);
/// assert!(report.is_valid());
/// assert!(report.has_rule("CE HTTP binding 3.1.3.2"));
/// ```
impl Extend<Violation> for ValidationReport {
    fn extend<I: IntoIterator<Item = Violation>>(&mut self, findings: I) {
        self.findings.extend(findings);
        self.bound();
    }
}

impl fmt::Display for ValidationReport {
    /// One line a finding, [`Violation::report_line`]: `error INTG-STD-015 R-4: type ...`,
    /// the rule id once.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, finding) in self.findings.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{}", finding.report_line())?;
        }
        if self.omitted.count > 0 {
            write!(f, "\n... and {} more findings", self.omitted.count)?;
        }
        Ok(())
    }
}

/// A finding as JSON: `{"rule", "severity", "attribute", "value", "part", "message", "hint"}`,
/// the one shape of a finding in every report (the library's, the axum extractors', the CLI's).
///
/// ```
/// use cloudevent_runtime::{FindingJson, Violation, rules::rule};
///
/// let v = Violation::error(rule::CE_NAMING, "extension", "ExtA", "must be lowercase");
/// let json = serde_json::to_value(FindingJson(&v)).unwrap();
/// assert_eq!(json["rule"], "CE 1.0.2 naming");
/// assert_eq!(json["message"], "extension `ExtA`: must be lowercase (CE 1.0.2 naming)");
/// ```
pub struct FindingJson<'a>(pub &'a Violation);

impl Serialize for FindingJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("rule", v.rule.as_str())?;
        map.serialize_entry("severity", &v.severity.to_string())?;
        map.serialize_entry("attribute", &*v.attribute)?;
        map.serialize_entry("value", &v.value)?;
        map.serialize_entry("part", &v.part)?;
        map.serialize_entry("message", &v.to_string())?;
        map.serialize_entry("hint", &v.hint)?;
        map.end()
    }
}

/// The attributes as read: core attributes as strings, extensions as their JSON values.
struct AttributesJson<'a>(&'a ReadAttributes);

impl Serialize for AttributesJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0.iter() {
            match value {
                AttributeValue::Text(text) => map.serialize_entry(name, text)?,
                AttributeValue::Extension(value) => map.serialize_entry(name, &JsonValue(value))?,
            }
        }
        map.end()
    }
}

pub(crate) struct FindingsJson<'a>(pub(crate) &'a [Violation]);

impl Serialize for FindingsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for finding in self.0 {
            seq.serialize_element(&FindingJson(finding))?;
        }
        seq.end()
    }
}

impl Serialize for ValidationReport {
    /// `{"valid", "profile", "id", "findings": [...], "attributes": {...}}`: the one report
    /// shape of the library, the axum extractors' 400 answer and `cloudevent validate
    /// --output json`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("valid", &self.is_valid())?;
        map.serialize_entry("profile", self.profile.name())?;
        map.serialize_entry("id", &self.id())?;
        map.serialize_entry("findings", &FindingsJson(&self.findings))?;
        if self.omitted.count > 0 {
            map.serialize_entry("omitted_findings", &self.omitted.count)?;
        }
        map.serialize_entry("attributes", &AttributesJson(&self.attributes))?;
        map.end()
    }
}

/// A batch's report: findings about the batch itself, and one report per event, by index,
/// for the events listed. The report stays bounded by its input: events are listed in
/// order until their findings reach [`limits::MAX_REPORTED_FINDINGS`](crate::limits::MAX_REPORTED_FINDINGS),
/// and the events after them are counted ([`BatchReport::omitted`]); a gateway's read stops
/// at the first invalid event and leaves the rest unread.
///
/// ```
/// use cloudevent_runtime::Validate;
/// use cloudevent_runtime::{Json, Profile, Validator};
/// let report = Validator::new(Profile::CloudEvents).validate_batch_bytes::<Json>(br#"[{"specversion":"1.0",
///     "id":"1","source":"/s","type":"com.example.order.created"},{"specversion":"0.3"}]"#);
/// assert!(!report.is_valid());
/// assert!(report.events()[0].is_valid());
/// assert!(report.events()[1].has_rule("CE 1.0.2 specversion"));
/// assert!(report.findings().is_empty());
/// assert_eq!(report.omitted(), 0);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchReport {
    pub(super) findings: Vec<Violation>,
    pub(crate) events: Vec<ValidationReport>,
    pub(super) omitted: OmittedEvents,
}

/// The events of a batch that its report does not list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct OmittedEvents {
    /// How many.
    pub(super) count: usize,
    /// How many of them have an error; `None` when they were not read (a gateway stops at
    /// the first invalid event).
    pub(super) invalid: Option<usize>,
}

impl Default for OmittedEvents {
    /// Nothing left out.
    fn default() -> Self {
        OmittedEvents {
            count: 0,
            invalid: Some(0),
        }
    }
}

impl BatchReport {
    /// Lists the error a typed batch reader stopped at: in the report of the event it names
    /// (`Some(index)`, when that event is listed), else among the batch's findings, unless
    /// already listed there ([`ValidationReport::list_refusal`]). A report that would still
    /// be valid lists it among the batch's findings, so a refusal never reads as valid.
    #[cfg(feature = "axum")]
    pub(crate) fn list_refusal(&mut self, index: Option<usize>, refusal: Violation) {
        match index.and_then(|index| self.events.get_mut(index)) {
            Some(event) => event.list_refusal(refusal.clone()),
            None if !self.findings.iter().any(|f| {
                f.is_error() && f.rule == refusal.rule && f.attribute == refusal.attribute
            }) =>
            {
                self.findings.push(refusal.clone());
            }
            None => {}
        }
        if self.is_valid() {
            self.findings.push(refusal);
        }
    }

    /// A report on input that could not be read as a batch at all.
    pub(super) fn refused(violation: Violation) -> Self {
        BatchReport {
            findings: vec![violation],
            events: Vec::new(),
            omitted: OmittedEvents::default(),
        }
    }

    /// Findings about the batch as a whole (size, shape, count).
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// let many = format!("[{}]", vec![r#"{"specversion":"1.0","id":"1","source":"/s","type":"t"}"#; 101].join(","));
    /// let report = Validator::new(Profile::CloudEvents).validate_batch_bytes::<Json>(many.as_bytes());
    /// assert!(report.findings().iter().any(|f| f.rule.as_str() == "INTG-STD-015 R-10"));
    /// ```
    pub fn findings(&self) -> &[Violation] {
        &self.findings
    }

    /// One report per listed event; the index in this slice is the event's index in the
    /// batch. The events after them are counted in [`BatchReport::omitted`].
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// let report = Validator::new(Profile::CloudEvents).validate_batch_bytes::<Json>(b"[{}]");
    /// assert!(!report.events()[0].is_valid());
    /// ```
    pub fn events(&self) -> &[ValidationReport] {
        &self.events
    }

    /// How many events follow the listed ones without a report of their own: read but not
    /// listed once the listed findings reached
    /// [`limits::MAX_REPORTED_FINDINGS`](crate::limits::MAX_REPORTED_FINDINGS), or, in a
    /// gateway's refusal, not read after the first invalid event.
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// let batch = format!("[{}]", vec!["{}"; 300].join(","));
    /// let report = Validator::new(Profile::CloudEvents).validate_batch_bytes::<Json>(batch.as_bytes());
    /// assert_eq!(report.events().len() + report.omitted(), 300);
    /// assert_eq!(report.omitted_invalid(), Some(report.omitted()));
    /// ```
    pub fn omitted(&self) -> usize {
        self.omitted.count
    }

    /// How many of the [omitted](BatchReport::omitted) events have an error; `None` when
    /// they were not read (a gateway stops at the first invalid event).
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// let report = Validator::new(Profile::CloudEvents).validate_batch_bytes::<Json>(b"[]");
    /// assert_eq!(report.omitted_invalid(), Some(0));
    /// ```
    pub fn omitted_invalid(&self) -> Option<usize> {
        self.omitted.invalid
    }

    /// Whether neither the batch nor any event has an error.
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// assert!(Validator::new(Profile::CloudEvents).validate_batch_bytes::<Json>(b"[]").is_valid());
    /// ```
    pub fn is_valid(&self) -> bool {
        !self.findings.iter().any(Violation::is_error)
            && self.events.iter().all(ValidationReport::is_valid)
            && self.omitted.invalid.unwrap_or(0) == 0
    }
}

impl Serialize for BatchReport {
    /// `{"valid", "findings": [...], "events": [report, ...], "omitted": {"events",
    /// "invalid"}}`; `omitted` only when events were left out (`invalid` is `null` when
    /// they were not read).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("valid", &self.is_valid())?;
        map.serialize_entry("findings", &FindingsJson(&self.findings))?;
        map.serialize_entry("events", &self.events)?;
        if self.omitted.count > 0 {
            map.serialize_entry(
                "omitted",
                &serde_json::json!({"events": self.omitted.count, "invalid": self.omitted.invalid}),
            )?;
        }
        map.end()
    }
}

/// The report on a JSON document: one event or a batch.
///
/// ```
/// use cloudevent_runtime::Validate;
/// use cloudevent_runtime::{Document, Profile, Validator};
/// match Validator::new(Profile::CloudEvents).validate_document(b"[]") {
///     Document::Batch(report) => assert!(report.events().is_empty()),
///     Document::Event(_) => unreachable!("an array is a batch"),
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Document {
    /// The document was an object.
    Event(ValidationReport),
    /// The document was an array.
    Batch(BatchReport),
}

impl Document {
    /// Whether nothing in the document is an error.
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Profile, Validator};
    /// assert!(!Validator::new(Profile::CloudEvents).validate_document(b"[{}]").is_valid());
    /// ```
    pub fn is_valid(&self) -> bool {
        match self {
            Document::Event(report) => report.is_valid(),
            Document::Batch(report) => report.is_valid(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::extension::Extensions;

    #[test]
    fn attribute_size_counts_names_and_values() {
        let mut extensions = Extensions::default();
        extensions.insert("flag", true);
        extensions.insert("n", 12_345);
        let view = cloudevent_rules::Envelope {
            specversion: Some("1.0"),
            id: Some("1"),
            ty: Some("t"),
            subject: Some("abc"),
            extensions: &extensions,
            ..cloudevent_rules::Envelope::default()
        };
        let expected = "specversion1.0".len()
            + "id1".len()
            + "typet".len()
            + "subjectabc".len()
            + "flag".len()
            + "true".len()
            + "n".len()
            + "12345".len();
        assert_eq!(view.attributes_size(), expected);
    }

    #[test]
    fn a_report_holds_what_it_read_in_order_and_in_the_space_it_needs() {
        use super::AttributeValue;
        use crate::extension::ExtensionValueBuf;
        use crate::{Binary, Timestamp, Uri, UriRef};

        let mut extensions = Extensions::default();
        extensions.insert("correlationid", "c-1");
        extensions.insert("flag", true);
        extensions.insert("n", -7);
        extensions.insert(
            "blob",
            ExtensionValueBuf::Binary(Binary::from(&[0_u8, 255, 1][..])),
        );
        extensions.insert("empty", "");
        extensions.insert(
            "link",
            ExtensionValueBuf::Uri(Uri::try_from("https://example.com/x").unwrap()),
        );
        extensions.insert(
            "rel",
            ExtensionValueBuf::UriReference(UriRef::try_from("../y").unwrap()),
        );
        extensions.insert(
            "at",
            ExtensionValueBuf::Timestamp(Timestamp::try_from("2026-11-30T12:00:00Z").unwrap()),
        );
        extensions.insert("more", ExtensionValueBuf::Binary(Binary::from(&b"hi"[..])));
        let view = cloudevent_rules::Envelope {
            specversion: Some("1.0"),
            id: Some("1"),
            source: Some("https://example.com/orders"),
            ty: Some("com.example.order.created"),
            subject: Some(""),
            extensions: &extensions,
            ..cloudevent_rules::Envelope::default()
        };
        let report =
            super::ValidationReport::new(cloudevent_rules::Profile::CloudEvents, &view, Vec::new());
        let mut expected: Vec<(&str, AttributeValue<'_>)> = view
            .core()
            .into_iter()
            .filter_map(|(name, value)| Some((name, AttributeValue::Text(value?))))
            .collect();
        for (name, value) in &extensions {
            expected.push((name, AttributeValue::Extension(value.as_value())));
        }
        assert_eq!(report.attributes.iter().collect::<Vec<_>>(), expected);
        #[cfg(feature = "registry")]
        {
            let extensions: Vec<_> = extensions.iter().map(|(n, v)| (n, v.as_value())).collect();
            assert_eq!(
                report.attributes.extensions().collect::<Vec<_>>(),
                extensions
            );
            assert_eq!(super::ReadAttributes::default().extensions().count(), 0);
        }
        assert_eq!(report.attributes.len(), 14);
        assert_eq!(report.attribute("subject"), Some(""));
        assert_eq!(report.attribute("link"), Some("https://example.com/x"));
        assert_eq!(report.attribute("blob"), None);
        assert_eq!(report.id(), Some("1"));
        let read = &report.attributes;
        let names = "correlationid flag n blob empty link rel at more".replace(' ', "");
        let values = "1.01https://example.com/orderscom.example.order.createdc-1https://example.com/x../y2026-11-30T12:00:00Z";
        assert_eq!(read.text.len(), names.len() + values.len());
        assert_eq!(&*read.bytes, [0, 255, 1, b'h', b'i']);
        assert_eq!(
            report.attributes_json()["blob"],
            serde_json::json!("AP8B"),
            "Binary as base64 (CE-JSON 2.2)"
        );
        assert_eq!(report.attributes_json()["n"], serde_json::json!(-7));
    }
}
