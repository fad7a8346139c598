//! [`Event<T>`]: a typed event whose payload knows its metadata.

use std::borrow::Cow;
use std::fmt;
use std::time::Duration;

use cloudevent_rules::{Profile, Violation, rule};
use serde::de::{self, DeserializeOwned, Deserializer};
use serde::ser::{self, Serialize, SerializeMap, Serializer};

use crate::any::{AnyEvent, Data};
use crate::attributes::Attributes;
use crate::data::CloudEventData;
use crate::error::{BuildError, FormatError};
use crate::extension::ExtensionValue;
use crate::extension::extension_findings;
use crate::extension::{ExtensionValueBuf, Extensions};
use crate::id::IdKind;
use crate::payload::{self, AsBase64, PayloadKind};
use crate::trace::{CAUSATIONID, CORRELATIONID, TRACEPARENT, TRACESTATE, Traceable};
use crate::value::Timestamp;

mod builder;
mod convert;
#[cfg(feature = "otel")]
mod otel;
mod payload_attributes;
mod serde_impls;

pub use builder::EventBuilder;
use payload_attributes::{
    Visit, envelope_disagreement, payload_attributes, payload_extension, payload_subject,
    subject_findings,
};
pub(crate) use payload_attributes::{payload_string_violation, payload_strings_in_envelope};
pub(crate) use serde_impls::{
    Leaf, absent_violation, from_absent, from_json_text, payload_mismatch, type_mismatch,
    with_data_pointer, with_data_pointer_in,
};

/// An event's `id`: inline up to 30 bytes, which holds a ULID (26, what `Event::new`
/// generates) in as many bytes as a `String` plus 8; a UUID (36) stays a `String`, as before.
/// Room for a UUID made every `Event` 8 bytes larger again, and each move of it dearer
/// (issue 40: a typed parse 16,304 instructions with 38 bytes, 16,276 with 30).
type EventId = crate::value::inline::ShortText<30>;

/// A fresh id of `kind` (a ULID of the millisecond `since_epoch`): a ULID is written inline,
/// never allocated (issue 40: a `String` made and freed for every `Event::new`).
fn generate_id(kind: IdKind, since_epoch: Duration) -> EventId {
    match kind {
        IdKind::Ulid => crate::id::with_ulid_at(since_epoch, EventId::copy),
        IdKind::UuidV4 => EventId::from(crate::id::uuid_v4()),
    }
}

/// Where `subject` comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Subject {
    /// The payload's `#[cloudevent(subject)]` field.
    FromPayload,
    /// Set explicitly (or received different from the payload's).
    Set(String),
    /// Explicitly absent.
    Unset,
}

/// A CloudEvent whose `data` is a `T`.
///
/// `type`, the default `source`, `dataschema` and `datacontenttype` come from `T`
/// ([`CloudEventData`], usually derived); `subject` and extensions marked on `T`'s fields are
/// read from the payload whenever the event is written, so they always agree with it.
///
/// ```
/// use cloudevent_runtime::{Attributes, CloudEvent, Event};
///
/// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com/checkout")]
/// struct OrderCreated {
///     #[cloudevent(subject)]
///     order_id: String,
/// }
///
/// let event = Event::new(OrderCreated { order_id: "order-8842".into() });
/// assert_eq!(event.subject(), Some("order-8842"));
/// let json = serde_json::to_string(&event).unwrap();
/// assert!(json.starts_with(r#"{"specversion":"1.0","id":""#));
///
/// let back: Event<OrderCreated> = Event::from_slice(json.as_bytes()).unwrap();
/// assert_eq!(back.id(), event.id());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Event<T> {
    /// Inline when it is short ASCII (a ULID), so a received event's `id` is no allocation
    /// (issue 40).
    id: EventId,
    source: Cow<'static, str>,
    datacontenttype: Cow<'static, str>,
    dataschema: Option<Cow<'static, str>>,
    subject: Subject,
    time: Option<Timestamp>,
    /// Extensions besides the payload's (which are read from it when written); one of the
    /// same name overrides the payload's.
    extensions: Extensions,
    data: T,
    /// The first error in an `id`, `time` or `source` the payload gave to [`Event::new`],
    /// which cannot fail: the event is refused when written (see [`Event::try_new`]).
    invalid: Option<Box<Violation>>,
}

impl<T: CloudEventData> Event<T> {
    /// The policy every reader of `Event<T>` enforces: `T`'s profile, from the crate's
    /// `[package.metadata.cloudevent]` when the derive ran (INTG-STD-015 by default).
    ///
    /// ```
    /// use cloudevent_runtime::{CloudEvent, Event, Profile};
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// struct Ping;
    ///
    /// assert_eq!(Event::<Ping>::POLICY.profile(), Profile::IntgStd015);
    /// ```
    pub const POLICY: crate::Policy =
        crate::Policy::new(T::PROFILE).with_literal_headers(T::LITERAL_HEADERS);

    /// A new root event: fresh ULID `id`, `time` now (UTC), `T`'s source, type, dataschema and
    /// datacontenttype, and the ADR-0003 root convention (see [`crate::trace`]). A payload
    /// that fills `id`, `time` or `source` (`#[cloudevent(id)]`, ..., `source_template`)
    /// gives those instead; see [`Event::try_new`].
    ///
    /// `T` must name a default source (`#[cloudevent(source = "...")]`) or fill it from its
    /// fields ([`HasSource`](crate::HasSource)); without either `cargo check` refuses the
    /// call. Use [`Event::builder`] to set the source at run time.
    ///
    /// ```
    /// use cloudevent_runtime::{Attributes, CloudEvent, Event, Traceable};
    ///
    /// #[derive(serde::Serialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// struct Ping;
    ///
    /// let event = Event::new(Ping);
    /// assert_eq!(event.source(), "https://health.example.com");
    /// assert_eq!(event.causationid().as_deref(), Some(event.id()));
    /// ```
    pub fn new(payload: T) -> Self
    where
        T: crate::HasSource,
    {
        // Only a hand-written `HasSource` impl that breaks its promise reaches this.
        const {
            assert!(
                T::SOURCE.is_some() || T::SOURCE_PROPERTY.is_some(),
                "a `HasSource` impl names neither CloudEventData::SOURCE nor SOURCE_PROPERTY"
            );
        }
        // A payload that fills `id`, `time` or `source` (`#[cloudevent(id)]` ...) gives them;
        // a value that breaks a MUST is kept out and refused when the event is written.
        let given = payload_attributes(&payload, T::PROFILE);
        let invalid = given
            .violations
            .iter()
            .find(|v| v.is_error())
            .map(|v| Box::new(v.clone()));
        let source = given
            .source
            .map_or_else(|| Cow::Borrowed(T::SOURCE.unwrap_or_default()), Cow::Owned);
        // One read of the clock stamps the id, the time and the correlationid: they name the
        // same instant, and each read was about 7 % of `Event::new` + `to_vec` by wall clock
        // (issue 40; callgrind does not count the vDSO call).
        let now = crate::id::since_epoch();
        let id = given
            .id
            .map_or_else(|| generate_id(IdKind::Ulid, now), EventId::from);
        let time = given.time.unwrap_or_else(|| Timestamp::at(now));
        let mut event = Event::fresh(payload, source, id, Some(time));
        event.invalid = invalid;
        event.make_root(now);
        event
    }

    /// A builder, to set the source or anything else before the event exists.
    ///
    /// ```
    /// use cloudevent_runtime::{Attributes, CloudEvent, Event, IdKind};
    ///
    /// #[derive(serde::Serialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.health.ping.sent")]
    /// struct Ping;
    ///
    /// let event = Event::builder(Ping)
    ///     .source("https://health.example.com/eu")
    ///     .id_kind(IdKind::UuidV4)
    ///     .subject("node-7")
    ///     .extension("region", "eu-west")
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(event.id().len(), 36);
    /// assert_eq!(event.subject(), Some("node-7"));
    /// ```
    pub fn builder(payload: T) -> EventBuilder<T> {
        EventBuilder::new(payload)
    }

    /// The event with the derive's metadata. `id` and `time` are taken, not generated, so a
    /// builder that was given both pays for neither (a ULID costs a `getrandom` call).
    /// With the `otel` feature, the current OpenTelemetry span's trace context too.
    fn fresh(payload: T, source: Cow<'static, str>, id: EventId, time: Option<Timestamp>) -> Self {
        let event = Event {
            id,
            source,
            datacontenttype: Cow::Borrowed(T::DATACONTENTTYPE),
            dataschema: T::DATASCHEMA.map(Cow::Borrowed),
            subject: Subject::FromPayload,
            time,
            extensions: Extensions::default(),
            data: payload,
            invalid: None,
        };
        #[cfg(feature = "otel")]
        let event = event.traced_by_current_span();
        event
    }

    /// `datacontenttype`, which an `Event<T>` always sets (`T::DATACONTENTTYPE`).
    pub(crate) fn content_type(&self) -> &str {
        &self.datacontenttype
    }

    /// Applies the root convention unless the payload already carries the attribute.
    /// `causationid` goes in first: the map keeps names in order, and inserting it second
    /// moved `correlationid` along to make room.
    fn make_root(&mut self, now: Duration) {
        if !self.holds_str_extension(CAUSATIONID) {
            self.extensions
                .insert(CAUSATIONID, self.id.as_str().to_owned());
        }
        if !self.holds_str_extension(CORRELATIONID) {
            let correlation = crate::id::with_ulid_at(now, str::to_owned);
            self.extensions.insert(CORRELATIONID, correlation);
        }
    }

    /// Whether `extension_str(name)` is `Some`, without its two lookups in the event's map
    /// and the `Cow` it builds (issue 40: 180 instructions a root event).
    fn holds_str_extension(&self, name: &str) -> bool {
        match self.extensions.get(name) {
            Some(value) => value.as_str().is_some(),
            None => {
                payload_extension(&self.data, name).is_some_and(|value| value.as_str().is_some())
            }
        }
    }

    /// Makes this event the effect of `parent` (ADR-0003): `causationid` = the parent's id,
    /// `correlationid` carried from the parent (its id when it has none), and the parent's
    /// `traceparent` / `tracestate` when this event has none.
    ///
    /// ```
    /// use cloudevent_runtime::{Attributes, CloudEvent, Event, Traceable};
    ///
    /// #[derive(serde::Serialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// struct OrderCreated;
    /// #[derive(serde::Serialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.payment.requested", source = "https://payments.example.com")]
    /// struct PaymentRequested;
    ///
    /// let order = Event::new(OrderCreated);
    /// let payment = Event::new(PaymentRequested).caused_by(&order);
    /// assert_eq!(payment.causationid().as_deref(), Some(order.id()));
    /// assert_eq!(payment.correlationid(), order.correlationid());
    /// ```
    #[must_use]
    pub fn caused_by(mut self, parent: &impl Traceable) -> Self {
        let correlation = parent
            .correlationid()
            .map_or_else(|| parent.id().to_owned(), Cow::into_owned);
        self.extensions.insert(CORRELATIONID, correlation);
        self.extensions.insert(CAUSATIONID, parent.id().to_owned());
        // W3C: a tracestate belongs to its traceparent; a child with its own takes neither.
        let traced = self.extension_str(TRACEPARENT).is_some();
        for name in [TRACEPARENT, TRACESTATE] {
            if !traced
                && self.extension_str(name).is_none()
                && let Some(value) = parent.extension_str(name)
            {
                self.extensions.insert(name, value.into_owned());
            }
        }
        self
    }

    /// Gives the event a new id, for a new emission of the same occurrence (ADR-0003: "each
    /// time an event is emitted, it receives a new, unique id"). A root event's
    /// `causationid` follows its id.
    ///
    /// ```
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
    /// # #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::{IdKind, Traceable};
    /// let first = Event::new(Ping);
    /// let again = first.clone().with_new_id(IdKind::UuidV4);
    /// assert_ne!(again.id(), first.id());
    /// assert!(again.is_root());
    /// ```
    #[must_use]
    pub fn with_new_id(mut self, kind: IdKind) -> Self {
        let new_id = generate_id(kind, crate::id::since_epoch());
        if self
            .extensions
            .get(CAUSATIONID)
            .and_then(ExtensionValueBuf::as_str)
            == Some(self.id.as_str())
        {
            self.extensions
                .insert(CAUSATIONID, new_id.as_str().to_owned());
        }
        self.id = new_id;
        self
    }

    /// Sets `subject`, overriding the payload's.
    ///
    /// # Errors
    /// When the value breaks a rule: empty (CE 1.0.2 subject), control characters (CE 1.0.2
    /// type system).
    ///
    /// ```
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// let event = Event::new(order()).with_subject("order-1/line-2").unwrap();
    /// assert_eq!(event.subject(), Some("order-1/line-2"));
    /// assert!(Event::new(order()).with_subject("").is_err());
    /// ```
    pub fn with_subject(mut self, subject: impl Into<String>) -> Result<Self, BuildError> {
        let subject = subject.into();
        errors(subject_findings(&subject))?;
        self.subject = Subject::Set(subject);
        Ok(self)
    }

    /// Removes `subject`, even the payload's.
    ///
    /// ```
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// assert_eq!(Event::new(order()).without_subject().subject(), None);
    /// ```
    #[must_use]
    pub fn without_subject(mut self) -> Self {
        self.subject = Subject::Unset;
        self
    }

    /// Sets `time`, checked against `T`'s profile: `intg-std-015` takes UTC `Z` only
    /// (gateway 4), the others any RFC 3339 offset. `None` removes it (INTG-STD-015 R-2
    /// says SHOULD include it), which never fails.
    ///
    /// # Errors
    /// When the time breaks a rule of `T`'s profile (INTG-STD-015 gateway 4).
    ///
    /// ```
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::Timestamp;
    /// let time = Timestamp::try_from("2026-03-28T14:22:31Z").unwrap();
    /// assert_eq!(Event::new(Ping).with_time(time.clone()).unwrap().time(), Some(&time));
    /// let offset = Timestamp::try_from("2026-03-28T15:22:31+01:00").unwrap();
    /// let err = Event::new(Ping).with_time(offset).unwrap_err();
    /// assert!(err.to_string().contains("INTG-STD-015 gateway 4"), "{err}");
    /// assert_eq!(Event::new(Ping).with_time(None).unwrap().time(), None);
    /// ```
    pub fn with_time(mut self, time: impl Into<Option<Timestamp>>) -> Result<Self, BuildError> {
        let time = time.into();
        if let Some(time) = &time {
            errors(cloudevent_rules::check_time(time.as_str(), T::PROFILE))?;
        }
        self.time = time;
        Ok(self)
    }

    /// Sets `source`.
    ///
    /// # Errors
    /// When the source breaks a rule of `T`'s profile (INTG-STD-015 R-5, R-14).
    ///
    /// ```
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// let event = Event::new(Ping).with_source("https://health.example.com/eu").unwrap();
    /// assert_eq!(event.source(), "https://health.example.com/eu");
    /// assert!(Event::new(Ping).with_source("https://localhost/health").is_err());
    /// ```
    pub fn with_source(mut self, source: impl Into<String>) -> Result<Self, BuildError> {
        let source = source.into();
        errors(cloudevent_rules::check_source(&source, T::PROFILE))?;
        self.source = Cow::Owned(source);
        Ok(self)
    }

    /// Sets an extension, checked against `T`'s profile like the derive checks field
    /// extensions: the name (CE 1.0.2 naming, R-6, gateway 5, R-14), a documented
    /// extension's type, W3C formats for `traceparent` / `tracestate`. One the payload also
    /// fills is overridden.
    ///
    /// ```
    /// use cloudevent_runtime::{CloudEvent, Event, ExtensionValueBuf};
    ///
    /// #[derive(serde::Serialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// struct Ping;
    ///
    /// let event = Event::new(Ping).with_extension("priority", 3).unwrap();
    /// assert_eq!(event.extension("priority"), Some(ExtensionValueBuf::Integer(3)));
    /// assert!(Event::new(Ping).with_extension("Priority", 3).is_err());
    /// assert!(Event::new(Ping).with_extension("password", "hunter2").is_err());
    /// ```
    ///
    /// # Errors
    /// [`BuildError::Invalid`] with every error the rules found.
    pub fn with_extension(
        mut self,
        name: impl Into<String>,
        value: impl Into<ExtensionValueBuf>,
    ) -> Result<Self, BuildError> {
        self.insert_extension(name.into(), value.into())?;
        Ok(self)
    }

    /// [`Event::with_extension`] in place, for [`Attributes::set_extension`](crate::Attributes).
    pub(crate) fn insert_extension(
        &mut self,
        name: String,
        value: ExtensionValueBuf,
    ) -> Result<(), BuildError> {
        errors(extension_findings(&name, value.as_value(), T::PROFILE))?;
        self.extensions.insert(name, value);
        Ok(())
    }

    /// An extension's value: set on the event, or read from the payload.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// let event = Event::new(order()).with_extension("priority", 2).unwrap();
    /// assert_eq!(event.extension("region"), Some("eu".into()));
    /// assert_eq!(event.extension("priority"), Some(2.into()));
    /// ```
    pub fn extension(&self, name: &str) -> Option<ExtensionValueBuf> {
        if let Some(value) = self.extensions.get(name) {
            return Some(value.clone());
        }
        payload_extension(&self.data, name)
    }

    /// The extensions set on the event itself (not the payload's).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// let event = Event::new(order());
    /// // The payload's `region` is not here; the root convention's attributes are.
    /// assert!(!event.extensions().contains("region"));
    /// assert!(event.extensions().contains("correlationid"));
    /// ```
    pub fn extensions(&self) -> &Extensions {
        &self.extensions
    }

    /// Calls `f` with every extension the event writes, the payload's first, in the order
    /// they are written. For protocol bindings (headers) and logs.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// let mut names = Vec::new();
    /// Event::new(order()).for_each_extension(|name, _| names.push(name.to_owned()));
    /// assert_eq!(names, ["region", "causationid", "correlationid"]);
    /// ```
    pub fn for_each_extension(&self, mut f: impl FnMut(&str, ExtensionValue<'_>)) {
        let mut visitor = Visit {
            skip: &self.extensions,
            f: |name: &str, value: ExtensionValue<'_>| {
                f(name, value);
                Ok::<(), std::convert::Infallible>(())
            },
        };
        let _ = self.data.visit_extensions(&mut visitor);
        for (name, value) in &self.extensions {
            (visitor.f)(name, value.as_value()).ok();
        }
    }

    /// The payload.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// assert_eq!(Event::new(order()).data().order_id, "order-1");
    /// ```
    pub fn data(&self) -> &T {
        &self.data
    }

    /// The payload, to change it; `subject` and field extensions follow it.
    ///
    /// ```
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// let mut event = Event::new(order());
    /// event.data_mut().order_id = "order-2".into();
    /// assert_eq!(event.subject(), Some("order-2"));
    /// ```
    pub fn data_mut(&mut self) -> &mut T {
        &mut self.data
    }

    /// The payload, owned.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// assert_eq!(Event::new(order()).into_data(), order());
    /// ```
    pub fn into_data(self) -> T {
        self.data
    }
}

// Inlined: a received event's `source`, `datacontenttype` and `dataschema` each pass here,
// and as a call of its own each paid a frame of five saved registers around one `bcmp`.
#[inline]
fn static_or_owned(value: &str, constant: Option<&'static str>) -> Cow<'static, str> {
    match constant {
        Some(constant) if constant == value => Cow::Borrowed(constant),
        _ => Cow::Owned(value.to_owned()),
    }
}

/// Keeps the errors of a rules check (warnings pass).
fn errors(violations: Vec<Violation>) -> Result<(), BuildError> {
    let errors: Vec<Violation> = violations.into_iter().filter(Violation::is_error).collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(BuildError::Invalid(errors))
    }
}

impl<T: CloudEventData> crate::attributes::Attributes for Event<T> {
    fn id(&self) -> &str {
        self.id.as_str()
    }

    fn source(&self) -> &str {
        &self.source
    }

    fn ty(&self) -> &str {
        T::TYPE
    }

    fn subject(&self) -> Option<&str> {
        match &self.subject {
            Subject::FromPayload => payload_subject(&self.data),
            Subject::Set(subject) => Some(subject),
            Subject::Unset => None,
        }
    }

    fn time(&self) -> Option<&Timestamp> {
        self.time.as_ref()
    }

    fn datacontenttype(&self) -> Option<&str> {
        Some(&self.datacontenttype)
    }

    fn dataschema(&self) -> Option<&str> {
        self.dataschema.as_deref()
    }

    fn extension_value(&self, name: &str) -> Option<Cow<'_, ExtensionValueBuf>> {
        match self.extensions().get(name) {
            Some(value) => Some(Cow::Borrowed(value)),
            None => self.extension(name).map(Cow::Owned),
        }
    }

    fn set_extension(&mut self, name: &str, value: ExtensionValueBuf) -> Result<(), BuildError> {
        self.insert_extension(name.to_owned(), value)
    }
}

#[cfg(test)]
mod tests;
