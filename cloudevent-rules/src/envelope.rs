//! The one envelope check: every rule about an event's context attributes, with the rule id
//! and severity decided for the policy's profile.
//!
//! Every entry point calls [`Policy::check_envelope`] over an [`Envelope`] view: the strict
//! readers of the runtime (JSON, batch, every binding) with [`Mode::FirstError`], the
//! validator and the CLI with [`Mode::Collect`], the derive and codegen on what they declare
//! (through [`Policy::check_declaration`]). So the same bytes get the same
//! verdict with the same rule ids, whichever door they came through.

use crate::dataschema;
use crate::extension::documented_extension;
use crate::{
    AttributeKind, ExtensionValue, Policy, Profile, RuleId, Severity, Violation, limits, rule,
};

/// Long values are cut in messages; a report quoting a 200 KiB string helps nobody.
///
/// ```
/// assert_eq!(cloudevent_rules::shorten("short"), "short");
/// assert!(cloudevent_rules::shorten(&"é".repeat(100)).ends_with("..."));
/// ```
pub fn shorten(text: &str) -> String {
    const MAX: usize = 80;
    if text.len() <= MAX {
        return text.to_owned();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

/// The extension attributes of an event, whichever type holds them.
///
/// ```
/// use cloudevent_rules::{ExtensionAttributes, ExtensionValue};
///
/// let extensions = [("region", ExtensionValue::String("eu"))];
/// let mut names = Vec::new();
/// extensions.for_each_extension(&mut |name, _| names.push(name.to_owned()));
/// assert_eq!(names, ["region"]);
/// ```
pub trait ExtensionAttributes {
    /// Calls `f` with every extension, in the order the event holds them.
    fn for_each_extension(&self, f: &mut dyn FnMut(&str, ExtensionValue<'_>));

    /// The value of the extension `name`, borrowed from the event; `None` when absent. What
    /// a CESQL expression reads (`cesql`), without copying the value.
    ///
    /// ```
    /// use cloudevent_rules::{ExtensionAttributes, ExtensionValue};
    /// let extensions = [("region", ExtensionValue::String("eu"))];
    /// assert_eq!(extensions.extension("region"), Some(ExtensionValue::String("eu")));
    /// assert_eq!(extensions.extension("zone"), None);
    /// ```
    fn extension(&self, name: &str) -> Option<ExtensionValue<'_>>;
}

impl<const N: usize> ExtensionAttributes for [(&str, ExtensionValue<'_>); N] {
    fn for_each_extension(&self, f: &mut dyn FnMut(&str, ExtensionValue<'_>)) {
        for (name, value) in self {
            f(name, *value);
        }
    }

    fn extension(&self, name: &str) -> Option<ExtensionValue<'_>> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

impl ExtensionAttributes for Vec<(&str, ExtensionValue<'_>)> {
    fn for_each_extension(&self, f: &mut dyn FnMut(&str, ExtensionValue<'_>)) {
        for (name, value) in self {
            f(name, *value);
        }
    }

    fn extension(&self, name: &str) -> Option<ExtensionValue<'_>> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

/// No extensions.
impl ExtensionAttributes for () {
    fn for_each_extension(&self, _: &mut dyn FnMut(&str, ExtensionValue<'_>)) {}

    fn extension(&self, _: &str) -> Option<ExtensionValue<'_>> {
        None
    }
}

/// The context attributes of one event as read, before any rule: `None` is absent (or JSON
/// `null`, the same thing in CE-JSON 3.1).
///
/// ```
/// use cloudevent_rules::{Envelope, Mode, Policy, Profile};
///
/// let envelope = Envelope {
///     specversion: Some("1.0"),
///     id: Some("1"),
///     source: Some("https://orders.example.com/checkout"),
///     ty: Some("com.example.order.created"),
///     ..Envelope::default()
/// };
/// assert!(Policy::new(Profile::CloudEvents).check_envelope(&envelope, Mode::Collect).is_empty());
/// ```
#[derive(Clone, Copy)]
pub struct Envelope<'a> {
    /// `specversion`.
    pub specversion: Option<&'a str>,
    /// `id`.
    pub id: Option<&'a str>,
    /// `source`.
    pub source: Option<&'a str>,
    /// `type`.
    pub ty: Option<&'a str>,
    /// `datacontenttype`.
    pub datacontenttype: Option<&'a str>,
    /// `dataschema`.
    pub dataschema: Option<&'a str>,
    /// `subject`.
    pub subject: Option<&'a str>,
    /// `time`.
    pub time: Option<&'a str>,
    /// The extension attributes.
    pub extensions: &'a dyn ExtensionAttributes,
    /// The size of `data` in bytes when the event carries data (as written; for
    /// `data_base64` the decoded bytes), `None` when it has none.
    pub data: Option<usize>,
    /// The type URL of `data` when it is a Protobuf message (the Protobuf format's
    /// `proto_data`, a `google.protobuf.Any`), `None` for any other data. A `dataschema`
    /// equal to it is what the CloudEvents Protobuf format (3. Data) asks producers to set,
    /// and is checked as such (see [`crate::check_dataschema`]).
    ///
    /// ```
    /// use cloudevent_rules::{Envelope, Mode, Policy, Profile};
    /// let envelope = Envelope {
    ///     specversion: Some("1.0"),
    ///     id: Some("1"),
    ///     source: Some("https://orders.example.com/checkout"),
    ///     ty: Some("com.example.order.created"),
    ///     dataschema: Some("type.googleapis.com/example.v1.Order"),
    ///     data: Some(12),
    ///     data_type_url: Some("type.googleapis.com/example.v1.Order"),
    ///     ..Envelope::default()
    /// };
    /// assert!(Policy::new(Profile::CloudEvents).check_envelope(&envelope, Mode::Collect).is_empty());
    /// // Without proto_data the same value is a relative reference, refused.
    /// let json = Envelope { data_type_url: None, ..envelope };
    /// assert!(!Policy::new(Profile::CloudEvents).check_envelope(&json, Mode::Collect).is_empty());
    /// ```
    pub data_type_url: Option<&'a str>,
}

impl Default for Envelope<'_> {
    fn default() -> Self {
        Envelope {
            specversion: None,
            id: None,
            source: None,
            ty: None,
            datacontenttype: None,
            dataschema: None,
            subject: None,
            time: None,
            extensions: &(),
            data: None,
            data_type_url: None,
        }
    }
}

impl<'a> Envelope<'a> {
    /// The core attributes with their names, in [`crate::CORE_ATTRIBUTES`]' order.
    ///
    /// ```
    /// use cloudevent_rules::Envelope;
    /// let envelope = Envelope { id: Some("1"), ..Envelope::default() };
    /// assert_eq!(envelope.core()[1], ("id", Some("1")));
    /// ```
    pub fn core(&self) -> [(&'static str, Option<&'a str>); 8] {
        // Spelled out: every check of every event builds this, and the `map` over an array
        // with a counter it replaced showed in the typed parse's profile.
        let [
            specversion,
            id,
            source,
            ty,
            datacontenttype,
            dataschema,
            subject,
            time,
        ] = crate::CORE_ATTRIBUTES;
        [
            (specversion, self.specversion),
            (id, self.id),
            (source, self.source),
            (ty, self.ty),
            (datacontenttype, self.datacontenttype),
            (dataschema, self.dataschema),
            (subject, self.subject),
            (time, self.time),
        ]
    }

    /// The bytes the context attributes take: names and values as written (R-11).
    ///
    /// ```
    /// use cloudevent_rules::{Envelope, ExtensionValue};
    /// let extensions = [("n", ExtensionValue::Integer(-12))];
    /// let envelope = Envelope { id: Some("1"), extensions: &extensions, ..Envelope::default() };
    /// assert_eq!(envelope.attributes_size(), "id1".len() + "n-12".len());
    /// ```
    pub fn attributes_size(&self) -> usize {
        let mut extensions = 0;
        self.extensions
            .for_each_extension(&mut |name, value| extensions += extension_size(name, value));
        self.core_size() + extensions
    }

    /// [`Envelope::attributes_size`] of the context attributes alone: the envelope check
    /// adds the extensions' sizes on its own walk of them.
    fn core_size(&self) -> usize {
        self.core()
            .iter()
            .filter_map(|(name, value)| value.map(|v| name.len() + v.len()))
            .sum()
    }
}

/// The bytes one extension attribute takes in [`Envelope::attributes_size`].
fn extension_size(name: &str, value: ExtensionValue<'_>) -> usize {
    name.len() + value.written_len()
}

/// Whether a check stops at the first error (a reader) or collects every finding (a
/// validator). Both run the same rules in the same order, so the first error of one is the
/// first error of the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Stop at the first error; warnings found before it are kept.
    FirstError,
    /// Collect every error and warning.
    Collect,
}

/// Collects findings, stopping a [`Mode::FirstError`] check once an error is in.
struct Sink {
    mode: Mode,
    found: Vec<Violation>,
    stopped: bool,
}

impl Sink {
    // Inlined: nearly every check of a valid event finds nothing, and the call for an empty
    // `Vec` was 2 % of a Protobuf decode; the findings go through `add_found`.
    #[inline(always)]
    fn add(&mut self, violations: Vec<Violation>) -> Result<(), Stopped> {
        if violations.is_empty() {
            return Ok(());
        }
        self.add_found(violations)
    }

    // Cold: reached only when a check found something, so the check's hot code stays
    // together (issue 40, the L1i footprint of a Protobuf decode).
    #[cold]
    #[inline(never)]
    fn add_found(&mut self, violations: Vec<Violation>) -> Result<(), Stopped> {
        for violation in violations {
            self.push(violation)?;
        }
        Ok(())
    }

    fn push(&mut self, violation: Violation) -> Result<(), Stopped> {
        if self.stopped {
            return Err(Stopped);
        }
        let error = violation.is_error();
        // Profiles overlap (a rule may be reached by two checks); say each finding once.
        if !self.found.contains(&violation) {
            self.found.push(violation);
        }
        if error && self.mode == Mode::FirstError {
            self.stopped = true;
            return Err(Stopped);
        }
        Ok(())
    }
}

struct Stopped;

impl Policy {
    /// The rule a missing or wrong `specversion` breaks under this profile: INTG-STD-015
    /// R-1, or the spec's own `CE 1.0.2 specversion`.
    ///
    /// ```
    /// use cloudevent_rules::{Policy, Profile};
    /// assert_eq!(Policy::new(Profile::NlGov).specversion_rule().as_str(), "CE 1.0.2 specversion");
    /// ```
    pub fn specversion_rule(&self) -> RuleId {
        match self.profile() {
            Profile::IntgStd015 => rule::INTG_R1,
            Profile::CloudEvents | Profile::NlGov => rule::CE_SPECVERSION,
        }
    }

    /// The rule a missing or empty `id`, `source` or `type` breaks under this profile:
    /// INTG-STD-015 R-2, or the spec's own `CE 1.0.2 required`.
    ///
    /// ```
    /// use cloudevent_rules::{Policy, Profile};
    /// assert_eq!(Policy::new(Profile::IntgStd015).required_rule().as_str(), "INTG-STD-015 R-2");
    /// ```
    pub fn required_rule(&self) -> RuleId {
        match self.profile() {
            Profile::IntgStd015 => rule::INTG_R2,
            Profile::CloudEvents | Profile::NlGov => rule::CE_REQUIRED,
        }
    }

    /// Checks every context attribute of one event against this policy: the format's
    /// MUSTs (required attributes, the type system, non-empty optionals), then the
    /// profile's rules for `source`, `type`, `datacontenttype`, `dataschema`, `time`,
    /// extensions, sizes and, when required, ADR-0003 traceability.
    ///
    /// ```
    /// use cloudevent_rules::{Envelope, Mode, Policy, Profile, ExtensionValue};
    ///
    /// let extensions = [("ExtA", ExtensionValue::String("x"))];
    /// let envelope = Envelope {
    ///     specversion: Some("1.0"),
    ///     id: Some("1"),
    ///     source: Some("https://orders.example.com/checkout"),
    ///     ty: Some("com.example.order.created"),
    ///     dataschema: Some("/orders/v1.json"),
    ///     extensions: &extensions,
    ///     ..Envelope::default()
    /// };
    /// let found = Policy::new(Profile::CloudEvents).check_envelope(&envelope, Mode::Collect);
    /// let rules: Vec<&str> = found.iter().map(|v| v.rule.as_str()).collect();
    /// assert_eq!(rules, ["CE 1.0.2 dataschema", "CE 1.0.2 naming"]);
    ///
    /// let first = Policy::new(Profile::CloudEvents).check_envelope(&envelope, Mode::FirstError);
    /// assert_eq!(first.len(), 1);
    /// ```
    pub fn check_envelope(&self, envelope: &Envelope<'_>, mode: Mode) -> Vec<Violation> {
        self.check_envelope_prechecked(envelope, mode, &Prechecked::NONE)
    }

    /// [`Policy::check_envelope`] for a reader that knows some attribute values were already
    /// checked under this same policy: a typed reader's `source`, `type`, `datacontenttype`
    /// and `dataschema` constants, which `#[derive(CloudEvent)]` checked at compile time
    /// (a declared constant that breaks a MUST does not compile). A value byte-equal to its
    /// prechecked constant skips the checks of that attribute alone; the agreement of `type`
    /// and `dataschema` is skipped only when both are the constants, and an extension whose name
    /// was prechecked has only its value checked. The errors found are the
    /// errors [`Policy::check_envelope`] finds, in the same order; only the SHOULD warnings
    /// on the constants, which the derive already reported, are not repeated. A `time`
    /// byte-equal to a prechecked one skips the `time` rule and its String check, which find
    /// nothing on it (see [`Prechecked::time`]).
    ///
    /// ```
    /// use cloudevent_rules::{Envelope, Mode, Policy, Prechecked, Profile};
    ///
    /// let policy = Policy::new(Profile::CloudEvents);
    /// let known = Prechecked { ty: Some("com.example.order.created"), ..Prechecked::NONE };
    /// let envelope = Envelope {
    ///     specversion: Some("1.0"),
    ///     id: Some(""),
    ///     source: Some("https://orders.example.com/checkout"),
    ///     ty: Some("com.example.order.created"),
    ///     ..Envelope::default()
    /// };
    /// // An empty `id` is still found: only the prechecked attribute's own checks are skipped.
    /// assert_eq!(
    ///     policy.check_envelope_prechecked(&envelope, Mode::FirstError, &known),
    ///     policy.check_envelope(&envelope, Mode::FirstError),
    /// );
    /// ```
    pub fn check_envelope_prechecked(
        &self,
        envelope: &Envelope<'_>,
        mode: Mode,
        prechecked: &Prechecked<'_>,
    ) -> Vec<Violation> {
        let mut sink = Sink {
            mode,
            found: Vec::new(),
            stopped: false,
        };
        let _ = self.run(envelope, prechecked, &mut sink);
        sink.found
    }

    fn run(
        &self,
        envelope: &Envelope<'_>,
        prechecked: &Prechecked<'_>,
        sink: &mut Sink,
    ) -> Result<(), Stopped> {
        let profile = self.profile();
        // Whether each attribute is its prechecked value, compared once here rather than by
        // name at each of the checks below (the name matches were 2 % of a typed parse).
        let is = |known: Option<&str>, value: Option<&str>| value.is_some() && known == value;
        let known_source = is(prechecked.source, envelope.source);
        let known_type = is(prechecked.ty, envelope.ty);
        let known_datacontenttype = is(prechecked.datacontenttype, envelope.datacontenttype);
        let known_dataschema = is(prechecked.dataschema, envelope.dataschema);
        let known_time = is(prechecked.time, envelope.time);
        match envelope.specversion {
            None => sink.push(missing("specversion", self.specversion_rule()))?,
            Some(value) => {
                // Mapped only when something was found: the empty case allocated nothing
                // but still ran the iterator's collect and drop for every event.
                let found = crate::check_specversion(value);
                if !found.is_empty() {
                    sink.add(with_rules(found, self.specversion_rule()))?;
                }
            }
        }
        for (name, value, known) in [
            ("id", envelope.id, false),
            ("source", envelope.source, known_source),
            ("type", envelope.ty, known_type),
        ] {
            match value {
                None => sink.push(missing(name, self.required_rule()))?,
                Some("") => sink.push(self.empty_required(name))?,
                // `type`'s characters are checked with the rest of `type`, below.
                Some(_) if known || name == "type" => {}
                Some(value) => sink.add(crate::check_string_value(name, value))?,
            }
        }
        let [_, _, _, _, datacontenttype, dataschema, subject, time] = envelope.core();
        for ((name, value), known) in [
            (datacontenttype, known_datacontenttype),
            (dataschema, known_dataschema),
            (subject, false),
            (time, known_time),
        ] {
            if let Some(value) = value.filter(|_| !known) {
                sink.add(crate::check_string_value(name, value))?;
            }
        }
        // Optional attributes, when present, are never empty (CE 1.0.2): absent is said by
        // leaving the member out or writing `null`.
        if let Some(subject) = envelope.subject {
            sink.add(crate::check_subject(subject))?;
        }
        if let Some(source) = envelope.source.filter(|s| !s.is_empty() && !known_source) {
            sink.add(crate::check_source(source, profile))?;
        }
        if let Some(ty) = envelope.ty.filter(|s| !s.is_empty() && !known_type) {
            sink.add(crate::check_type(ty, self))?;
        }
        if let Some(content_type) = envelope.datacontenttype.filter(|_| !known_datacontenttype) {
            sink.add(crate::check_media_type(content_type))?;
        }
        if let Some(dataschema) = envelope
            .dataschema
            .filter(|_| !(known_dataschema && known_type))
        {
            if envelope.data_type_url == Some(dataschema) {
                sink.add(dataschema::type_url_findings(dataschema, profile))?;
            } else {
                let (found, major) = dataschema::check_dataschema_and_major(dataschema, profile);
                sink.add(found)?;
                if let Some(ty) = envelope.ty.filter(|s| !s.is_empty()) {
                    sink.add(dataschema::agreement_with_major(
                        ty, dataschema, major, profile,
                    ))?;
                }
            }
        }
        if let Some(time) = envelope.time.filter(|_| !known_time) {
            sink.add(crate::check_time(time, profile))?;
        }
        let mut extensions = Ok(());
        // The Sequence extension's two attributes are checked together, after each alone;
        // copied out only when present (the callback's values do not outlive it).
        let (mut sequence, mut sequencetype) = (None, None);
        // The attributes' size (R-11) is summed on this walk too: a second walk of the
        // extensions for it alone cost a typed parse about 200 instructions (issue 40).
        let mut extensions_size = 0;
        envelope.extensions.for_each_extension(&mut |name, value| {
            extensions_size += extension_size(name, value);
            if extensions.is_ok() {
                let checked_name = prechecked.extension_names.contains(&name);
                extensions = sink.add(self.extension_findings(name, value, checked_name));
            }
            if let ExtensionValue::String(text) = value {
                match name {
                    "sequence" => sequence = Some(text.to_owned()),
                    "sequencetype" => sequencetype = Some(text.to_owned()),
                    _ => {}
                }
            }
        });
        extensions?;
        if sequence.is_some() || sequencetype.is_some() {
            sink.add(crate::check_sequence(
                sequence.as_deref(),
                sequencetype.as_deref(),
            ))?;
        }
        if profile == Profile::IntgStd015 {
            intg_absent_warnings(envelope, sink)?;
        }
        sink.add(limits::check_attributes_size(
            envelope.core_size() + extensions_size,
        ))?;
        if let Some(data) = envelope.data {
            sink.add(limits::check_data_size(data))?;
        }
        if self.requires_traceability() {
            self.check_traceability(envelope, sink)?;
        }
        Ok(())
    }

    // Out of line, as `intg_absent_warnings`: under the default profile neither runs, and
    // inlined they sat in the middle of the check's hot code (issue 40, the L1i footprint).
    #[inline(never)]
    fn check_traceability(&self, envelope: &Envelope<'_>, sink: &mut Sink) -> Result<(), Stopped> {
        for wanted in ["correlationid", "causationid"] {
            let mut found = None;
            envelope.extensions.for_each_extension(&mut |name, value| {
                if name == wanted {
                    found = Some(match value {
                        ExtensionValue::String(s) if !s.is_empty() => None,
                        other => Some(other.shown()),
                    });
                }
            });
            match found {
                Some(None) => {}
                Some(Some(shown)) => sink.push(Violation::error(
                    rule::ADR_0003,
                    wanted,
                    shown,
                    "must be a non-empty string",
                ))?,
                None => sink.push(
                    Violation::error(
                        rule::ADR_0003,
                        wanted,
                        "",
                        "is required on every event (traceability)",
                    )
                    .with_hint("build events with Event::new(..).caused_by(&parent)"),
                )?,
            }
        }
        Ok(())
    }

    /// Checks one extension attribute, name and value: the name per profile (CE 1.0.2
    /// naming, R-6, gateway 5, R-14), a documented extension's type (R-6: "MUST NOT redefine
    /// semantics"), the value's type-system format, and the W3C formats of `traceparent`
    /// and `tracestate`.
    ///
    /// ```
    /// use cloudevent_rules::{Policy, Profile, ExtensionValue};
    ///
    /// let policy = Policy::new(Profile::CloudEvents);
    /// assert!(policy.check_extension("region", ExtensionValue::String("eu")).is_empty());
    /// assert_eq!(policy.check_extension("sequence", ExtensionValue::Integer(1))[0].rule.as_str(), "INTG-STD-015 R-6");
    /// assert_eq!(policy.check_extension("ext_a", ExtensionValue::Boolean(true))[0].rule.as_str(), "CE 1.0.2 naming");
    /// ```
    pub fn check_extension(&self, name: &str, value: ExtensionValue<'_>) -> Vec<Violation> {
        self.extension_findings(name, value, false)
    }

    /// [`Policy::check_extension`], without the name check when the name was prechecked.
    fn extension_findings(
        &self,
        name: &str,
        value: ExtensionValue<'_>,
        prechecked_name: bool,
    ) -> Vec<Violation> {
        let documented = documented_extension(name);
        // A documented extension's name passes the naming rules of every profile (a test
        // holds every name of the list to that), so only an undocumented name is checked.
        let mut found = if documented.is_some() || prechecked_name {
            Vec::new()
        } else {
            crate::check_extension_name(name, self.profile())
        };
        if let Some(documented) = documented {
            let fits = match documented.kind {
                AttributeKind::UriReference => matches!(
                    value,
                    ExtensionValue::String(_)
                        | ExtensionValue::Uri(_)
                        | ExtensionValue::UriReference(_)
                ),
                kind => value.kind() == kind,
            };
            if !fits {
                found.push(
                    Violation::error(
                        rule::INTG_R6,
                        name.to_owned(),
                        value.shown(),
                        format!(
                            "is {}, but the {} defines `{name}` as {}",
                            value.kind(),
                            documented.documented_by,
                            documented.kind
                        ),
                    )
                    .with_hint(
                        "custom extensions must not redefine documented ones; use the documented type or another name",
                    ),
                );
            }
        }
        match value {
            ExtensionValue::String(text) => {
                // Extended only when something was found: extending by an empty `Vec` still
                // built and dropped its iterator, for every String extension of every event
                // (issue 40: 57 instructions of a typed parse of three).
                let string = crate::check_string_value(name, text);
                if !string.is_empty() {
                    found.extend(string);
                }
                match name {
                    "traceparent" => found.extend(crate::check_traceparent(text)),
                    "tracestate" => found.extend(crate::check_tracestate(text)),
                    "dataref" => found.extend(crate::check_uri_reference(name, text)),
                    _ => {}
                }
            }
            ExtensionValue::Uri(text) => found.extend(crate::check_uri(name, text)),
            ExtensionValue::UriReference(text) => {
                found.extend(crate::check_uri_reference(name, text))
            }
            ExtensionValue::Timestamp(text) => {
                found.extend(crate::check_time(text, Profile::CloudEvents));
            }
            ExtensionValue::Boolean(_) | ExtensionValue::Integer(_) | ExtensionValue::Binary(_) => {
            }
        }
        found
    }
}

impl Policy {
    /// An empty `id`, `source` or `type`, with the example this profile's own rule for the
    /// attribute gives, so the message says what a good value looks like.
    #[cold]
    #[inline(never)]
    fn empty_required(&self, attribute: &'static str) -> Violation {
        let example = match attribute {
            "type" => crate::check_type("", self),
            "source" => crate::check_source("", self.profile()),
            _ => Vec::new(),
        }
        .into_iter()
        .find_map(|v| v.hint);
        let violation = Violation::error(self.required_rule(), attribute, "", "must not be empty");
        match example {
            Some(example) => violation.with_hint(example),
            None => violation,
        }
    }
}

#[cold]
#[inline(never)]
fn missing(attribute: &'static str, rule: RuleId) -> Violation {
    Violation::error(rule, attribute, "", "is required but absent or null")
}

/// INTG-STD-015's SHOULD warnings on an absent `time` and an absent `datacontenttype`.
#[inline(never)]
fn intg_absent_warnings(envelope: &Envelope<'_>, sink: &mut Sink) -> Result<(), Stopped> {
    if envelope.time.is_none() {
        sink.push(Violation::warning(
            rule::INTG_R2,
            "time",
            "",
            "is absent; producers should set it for the audit trail (R-2, R-15)",
        ))?;
    }
    if envelope.data.is_some() && envelope.datacontenttype.is_none() {
        sink.push(Violation::warning(
            rule::INTG_R2,
            "datacontenttype",
            "",
            "is absent though the event has data; producers should include it",
        ))?;
    }
    Ok(())
}

/// [`with_rule`] of each finding, out of line: a valid `specversion` has none.
#[cold]
#[inline(never)]
fn with_rules(found: Vec<Violation>, rule: RuleId) -> Vec<Violation> {
    found.into_iter().map(|v| with_rule(v, rule)).collect()
}

/// Reports a shared check under the profile's id for the same requirement.
fn with_rule(mut violation: Violation, rule: RuleId) -> Violation {
    violation.rule = rule;
    violation
}

/// Whether a finding list rejects the event.
///
/// ```
/// use cloudevent_rules::{has_error, rule, Violation};
/// assert!(!has_error(&[Violation::warning(rule::INTG_R2, "time", "", "absent")]));
/// ```
pub fn has_error(found: &[Violation]) -> bool {
    found.iter().any(|v| v.severity == Severity::Error)
}

mod attribute;
pub use attribute::{AttributeName, ContextAttributes};
mod prechecked;
pub use prechecked::Prechecked;

#[cfg(test)]
mod tests;
