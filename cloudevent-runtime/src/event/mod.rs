//! [`Event<T>`]: a typed event whose payload knows its metadata.

use std::borrow::Cow;
use std::fmt;
use std::io::Read;

use cloudevent_rules::{Profile, Violation, rule};
use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess};
use serde::ser::{self, Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;

use crate::any::{AnyEvent, Data, read_bounded};
use crate::data::CloudEventData;
use crate::error::{BuildError, FormatError};
use crate::extension::{ExtensionValue, ExtensionVisitor};
use crate::extension::{ExtensionValueBuf, Extensions};
use crate::id::IdKind;
use crate::format::json::{self, ContentType, DataSlot, Findings, Stop};
use crate::limits;
use crate::payload::{self, AsBase64, PayloadKind};
use crate::trace::{CAUSATIONID, CORRELATIONID, TRACEPARENT, TRACESTATE, Traceable};
use crate::extension::extension_findings;
use crate::value::Timestamp;

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
/// use cloudevent_runtime::{CloudEvent, Event};
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
    id: String,
    source: Cow<'static, str>,
    datacontenttype: Cow<'static, str>,
    dataschema: Option<Cow<'static, str>>,
    subject: Subject,
    time: Option<Timestamp>,
    /// Extensions besides the payload's (which are read from it when written); one of the
    /// same name overrides the payload's.
    extensions: Extensions,
    data: T,
}

impl<T: CloudEventData> Event<T> {
    /// A new root event: fresh ULID `id`, `time` now (UTC), `T`'s source, type, dataschema and
    /// datacontenttype, and the ADR-0003 root convention (see [`crate::trace`]).
    ///
    /// `T` must name a default source (`#[cloudevent(source = "...")]`); without one this does
    /// not compile, so an event without a source cannot exist. Use [`Event::builder`] to set
    /// the source at run time.
    ///
    /// ```
    /// use cloudevent_runtime::{CloudEvent, Event, Traceable};
    ///
    /// #[derive(serde::Serialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// struct Ping;
    ///
    /// let event = Event::new(Ping);
    /// assert_eq!(event.source(), "https://health.example.com");
    /// assert_eq!(event.causationid().as_deref(), Some(event.id()));
    /// ```
    pub fn new(payload: T) -> Self {
        const {
            assert!(
                T::SOURCE.is_some(),
                "Event::new needs a default source: add `source = \"...\"` to #[cloudevent(...)] or use Event::builder(payload).source(..).build()"
            );
        }
        let source: &'static str = T::SOURCE.unwrap_or_default();
        let mut event = Event::fresh(
            payload,
            Cow::Borrowed(source),
            IdKind::Ulid.generate(),
            Some(Timestamp::now()),
        );
        event.make_root();
        event
    }

    /// A builder, to set the source or anything else before the event exists.
    ///
    /// ```
    /// use cloudevent_runtime::{CloudEvent, Event, IdKind};
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
    fn fresh(payload: T, source: Cow<'static, str>, id: String, time: Option<Timestamp>) -> Self {
        Event {
            id,
            source,
            datacontenttype: Cow::Borrowed(T::DATACONTENTTYPE),
            dataschema: T::DATASCHEMA.map(Cow::Borrowed),
            subject: Subject::FromPayload,
            time,
            extensions: Extensions::new(),
            data: payload,
        }
    }

    /// Applies the root convention unless the payload already carries the attribute.
    fn make_root(&mut self) {
        if self.extension_str(CORRELATIONID).is_none() {
            self.extensions.insert(CORRELATIONID, crate::id::ulid());
        }
        if self.extension_str(CAUSATIONID).is_none() {
            self.extensions.insert(CAUSATIONID, self.id.clone());
        }
    }

    /// Makes this event the effect of `parent` (ADR-0003): `causationid` = the parent's id,
    /// `correlationid` carried from the parent (its id when it has none), and the parent's
    /// `traceparent` / `tracestate` when this event has none.
    ///
    /// ```
    /// use cloudevent_runtime::{CloudEvent, Event, Traceable};
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
        for name in [TRACEPARENT, TRACESTATE] {
            if self.extension_str(name).is_none() {
                if let Some(value) = parent.extension_str(name) {
                    self.extensions.insert(name, value.into_owned());
                }
            }
        }
        self
    }

    /// Gives the event a new id, for a new emission of the same occurrence (ADR-0003: "each
    /// time an event is emitted, it receives a new, unique id"). A root event's
    /// `causationid` follows its id.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
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
        let new_id = kind.generate();
        if self.extensions.get_str(CAUSATIONID) == Some(self.id.as_str()) {
            self.extensions.insert(CAUSATIONID, new_id.clone());
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
    /// # use cloudevent_runtime::{CloudEvent, Event};
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
    /// # use cloudevent_runtime::{CloudEvent, Event};
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
    /// (gateway 4), the others any RFC 3339 offset.
    ///
    /// # Errors
    /// When the time breaks a rule of `T`'s profile (INTG-STD-015 gateway 4).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::Timestamp;
    /// let time = Timestamp::parse("2026-03-28T14:22:31Z").unwrap();
    /// assert_eq!(Event::new(Ping).with_time(time.clone()).unwrap().time(), Some(&time));
    /// let offset = Timestamp::parse("2026-03-28T15:22:31+01:00").unwrap();
    /// let err = Event::new(Ping).with_time(offset).unwrap_err();
    /// assert!(err.to_string().contains("INTG-STD-015 gateway 4"), "{err}");
    /// ```
    pub fn with_time(mut self, time: Timestamp) -> Result<Self, BuildError> {
        errors(cloudevent_rules::check_time(time.as_str(), T::PROFILE))?;
        self.time = Some(time);
        Ok(self)
    }

    /// Removes `time` (INTG-STD-015 R-2 says SHOULD include it).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// assert_eq!(Event::new(Ping).without_time().time(), None);
    /// ```
    #[must_use]
    pub fn without_time(mut self) -> Self {
        self.time = None;
        self
    }

    /// Sets `source`.
    ///
    /// # Errors
    /// When the source breaks a rule of `T`'s profile (INTG-STD-015 R-5, R-14).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
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
        let name = name.into();
        let value = value.into();
        errors(extension_findings(&name, value.as_value(), T::PROFILE))?;
        self.extensions.insert(name, value);
        Ok(self)
    }

    /// Sets `traceparent` (W3C Trace Context), e.g. from the incoming request (R-15).
    ///
    /// # Errors
    /// When it is not `00-<32 hex>-<16 hex>-<2 hex>`.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::Traceable;
    /// let event = Event::new(Ping)
    ///     .with_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
    ///     .unwrap();
    /// assert!(event.traceparent().is_some());
    /// assert!(Event::new(Ping).with_traceparent("00-zz").is_err());
    /// ```
    pub fn with_traceparent(self, traceparent: impl Into<String>) -> Result<Self, BuildError> {
        self.with_extension(TRACEPARENT, traceparent.into())
    }

    /// Sets `tracestate` (W3C Trace Context).
    ///
    /// # Errors
    /// When it is not a valid list of `key=value` members.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::Traceable;
    /// let event = Event::new(Ping).with_tracestate("vendor=value").unwrap();
    /// assert_eq!(event.tracestate().as_deref(), Some("vendor=value"));
    /// ```
    pub fn with_tracestate(self, tracestate: impl Into<String>) -> Result<Self, BuildError> {
        self.with_extension(TRACESTATE, tracestate.into())
    }

    /// `id`.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// assert_eq!(Event::new(Ping).id().len(), 26); // a ULID
    /// ```
    pub fn id(&self) -> &str {
        &self.id
    }

    /// `source`.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// assert_eq!(Event::new(Ping).source(), "https://health.example.com");
    /// ```
    pub fn source(&self) -> &str {
        &self.source
    }

    /// `type`: always `T::TYPE`.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// assert_eq!(Event::new(Ping).ty(), "com.example.health.ping.sent");
    /// ```
    pub fn ty(&self) -> &'static str {
        T::TYPE
    }

    /// `datacontenttype`.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// assert_eq!(Event::new(Ping).datacontenttype(), "application/json");
    /// ```
    pub fn datacontenttype(&self) -> &str {
        &self.datacontenttype
    }

    /// `dataschema`.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// assert_eq!(Event::new(Ping).dataschema(), None);
    /// ```
    pub fn dataschema(&self) -> Option<&str> {
        self.dataschema.as_deref()
    }

    /// `subject`: set explicitly, or the payload's.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// assert_eq!(Event::new(order()).subject(), Some("order-1"));
    /// ```
    pub fn subject(&self) -> Option<&str> {
        match &self.subject {
            Subject::FromPayload => payload_subject(&self.data),
            Subject::Set(subject) => Some(subject),
            Subject::Unset => None,
        }
    }

    /// `time`.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// assert!(Event::new(Ping).time().is_some_and(|t| t.as_str().ends_with('Z')));
    /// ```
    pub fn time(&self) -> Option<&Timestamp> {
        self.time.as_ref()
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
    /// # use cloudevent_runtime::{CloudEvent, Event};
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

    /// Parses an event of type `T` from the JSON format, refusing more than
    /// [`limits::MAX_EVENT_BYTES`] before reading (INTG-STD-015 R-11).
    ///
    /// # Errors
    /// The first problem: see [`FormatError`]. A different `type` names both.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// let bytes = Event::new(order()).to_vec().unwrap();
    /// let event: Event<OrderCreated> = Event::from_slice(&bytes).unwrap();
    /// assert_eq!(event.data(), &order());
    /// let err = Event::<OrderCreated>::from_slice(br#"{"specversion":"1.0"}"#).unwrap_err();
    /// assert_eq!(err.attribute(), Some("id"));
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<Self, FormatError>
    where
        T: DeserializeOwned,
    {
        if bytes.len() > limits::MAX_EVENT_BYTES {
            return Err(FormatError::TooLarge {
                what: "event",
                found: bytes.len(),
                limit: limits::MAX_EVENT_BYTES,
                rule: rule::INTG_R11,
            });
        }
        let mut findings = Findings::strict();
        match json::parse_slice(
            bytes,
            TypedData::<T>::default(),
            Some(T::TYPE),
            &mut findings,
        ) {
            Ok((envelope, data)) => Ok(Event::from_envelope(envelope, data)),
            Err(error) => Err(json::into_format_error(error, &mut findings)),
        }
    }

    /// Reads an event of type `T`, at most `limit` bytes (bounded reading).
    ///
    /// # Errors
    /// See [`FormatError`].
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// let bytes = Event::new(order()).to_vec().unwrap();
    /// let event = Event::<OrderCreated>::from_reader(&bytes[..], 64 * 1024).unwrap();
    /// assert_eq!(event.data(), &order());
    /// assert!(Event::<OrderCreated>::from_reader(std::io::repeat(b' '), 1024).is_err());
    /// ```
    pub fn from_reader(reader: impl Read, limit: usize) -> Result<Self, FormatError>
    where
        T: DeserializeOwned,
    {
        let bytes = read_bounded(reader, limit, "event", rule::INTG_R11)?;
        Self::from_slice(&bytes)
    }

    /// The event in the JSON format.
    ///
    /// # Errors
    /// When the payload cannot be serialized (e.g. a map with non-string keys, or a payload
    /// that is neither text nor bytes under a non-JSON datacontenttype), or a subject or
    /// String extension taken from it holds a control character (CE 1.0.2 type system).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// let json = String::from_utf8(Event::new(Ping).to_vec().unwrap()).unwrap();
    /// assert!(json.starts_with(r#"{"specversion":"1.0","id":"#));
    /// assert!(json.ends_with(r#","data":null}"#));
    /// ```
    pub fn to_vec(&self) -> Result<Vec<u8>, BuildError>
    where
        T: Serialize,
    {
        serde_json::to_vec(self).map_err(|e| BuildError::Payload(e.to_string()))
    }

    /// The event as an [`AnyEvent`], the payload serialized to raw data.
    ///
    /// # Errors
    /// When the payload cannot be serialized.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// let any = Event::new(order()).to_any().unwrap();
    /// assert_eq!(any.ty(), "com.example.order.created");
    /// assert_eq!(any.extension("region"), Some(&"eu".into()));
    /// ```
    pub fn to_any(&self) -> Result<AnyEvent, BuildError>
    where
        T: Serialize,
    {
        let bytes = self.to_vec()?;
        AnyEvent::from_slice_with_limit(&bytes, usize::MAX)
            .map_err(|e| BuildError::Payload(e.to_string()))
    }

    fn from_envelope(envelope: json::Envelope<'_>, data: T) -> Self {
        Event::assemble(
            envelope.id.map(Cow::into_owned).unwrap_or_default(),
            envelope.source.as_deref().unwrap_or_default(),
            envelope.datacontenttype.as_deref(),
            envelope.dataschema.as_deref(),
            envelope.subject.map(Cow::into_owned),
            envelope
                .time
                .map(|t| Timestamp::new_unchecked(t.into_owned())),
            envelope.extensions,
            data,
        )
    }

    pub(crate) fn from_any(any: AnyEvent) -> Result<Self, FormatError>
    where
        T: DeserializeOwned,
    {
        if any.ty() != T::TYPE {
            return Err(FormatError::from(type_mismatch::<T>(any.ty())));
        }
        let data = match any.data() {
            None => from_absent::<T>().ok_or_else(|| FormatError::from(absent_violation::<T>()))?,
            Some(Data::Json(raw)) => serde_json::from_str(raw.get())
                .map_err(|e| FormatError::from(payload_mismatch::<T>(e)))?,
            Some(Data::Text(text)) => T::deserialize(Leaf::Str(text))
                .map_err(|e| FormatError::from(payload_mismatch::<T>(e)))?,
            Some(Data::Binary(bytes)) => T::deserialize(Leaf::Bytes(bytes))
                .map_err(|e| FormatError::from(payload_mismatch::<T>(e)))?,
        };
        if let Some(violation) = payload_string_violation(&data) {
            return Err(FormatError::from(violation));
        }
        Ok(Event::assemble(
            any.id().to_owned(),
            any.source(),
            any.datacontenttype(),
            any.dataschema(),
            any.subject().map(str::to_owned),
            any.time().cloned(),
            any.extensions().clone(),
            data,
        ))
    }

    /// Builds a received event, borrowing `T`'s constants where the values match them and
    /// dropping envelope copies of what the payload already holds.
    #[allow(clippy::too_many_arguments)] // one per attribute; private
    fn assemble(
        id: String,
        source: &str,
        datacontenttype: Option<&str>,
        dataschema: Option<&str>,
        subject: Option<String>,
        time: Option<Timestamp>,
        mut extensions: Extensions,
        data: T,
    ) -> Self {
        let subject = if subject.as_deref() == payload_subject(&data) {
            Subject::FromPayload
        } else {
            subject.map_or(Subject::Unset, Subject::Set)
        };
        if !T::EXTENSIONS.is_empty() {
            let mut same = Vec::new();
            let _ = data.visit_extensions(&mut Visit {
                skip: &Extensions::new(),
                f: |name: &str, value: ExtensionValue<'_>| {
                    if extensions
                        .get(name)
                        .is_some_and(|got| value.is_carried_by(&got.as_value()))
                    {
                        same.push(name.to_owned());
                    }
                    Ok::<(), std::convert::Infallible>(())
                },
            });
            extensions.retain(|name, _| !same.iter().any(|s| s == name));
        }
        Event {
            id,
            source: static_or_owned(source, T::SOURCE),
            datacontenttype: datacontenttype.map_or(Cow::Borrowed(T::DATACONTENTTYPE), |v| {
                static_or_owned(v, Some(T::DATACONTENTTYPE))
            }),
            dataschema: dataschema.map(|v| static_or_owned(v, T::DATASCHEMA)),
            subject,
            time,
            extensions,
            data,
        }
    }
}

fn static_or_owned(value: &str, constant: Option<&'static str>) -> Cow<'static, str> {
    match constant {
        Some(constant) if constant == value => Cow::Borrowed(constant),
        _ => Cow::Owned(value.to_owned()),
    }
}

/// The rules a `subject` set at run time keeps: non-empty (CE 1.0.2 subject), no control
/// characters (CE 1.0.2 type system).
fn subject_findings(subject: &str) -> Vec<Violation> {
    let mut found = cloudevent_rules::check_subject(subject);
    found.extend(cloudevent_rules::check_string_value("subject", subject));
    found
}

/// The payload's subject; an empty one means none, since an empty `subject` is not allowed
/// on the wire (CE 1.0.2 subject).
fn payload_subject<T: CloudEventData>(data: &T) -> Option<&str> {
    data.subject().filter(|subject| !subject.is_empty())
}

/// The first control character in a String the payload copies into the envelope (its
/// subject, its String extensions): such an event could be read but never written again
/// (CE 1.0.2 type system), so a typed reader refuses it as any reader refuses the attribute.
fn payload_string_violation<T: CloudEventData>(data: &T) -> Option<Violation> {
    if let Some(subject) = data.subject() {
        if let Some(violation) = cloudevent_rules::check_string_value("subject", subject).pop() {
            return Some(violation);
        }
    }
    let mut found = None;
    let _ = data.visit_extensions(&mut Visit {
        skip: &Extensions::new(),
        f: |name: &str, value: ExtensionValue<'_>| {
            if let (None, ExtensionValue::String(text)) = (&found, value) {
                found = cloudevent_rules::check_string_value(name, text).pop();
            }
            Ok::<(), std::convert::Infallible>(())
        },
    });
    found
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

/// One extension of a payload, owned.
fn payload_extension<T: CloudEventData>(data: &T, name: &str) -> Option<ExtensionValueBuf> {
    if !T::EXTENSIONS.contains(&name) {
        return None;
    }
    let mut found = None;
    let _ = data.visit_extensions(&mut Visit {
        skip: &Extensions::new(),
        f: |visited: &str, value: ExtensionValue<'_>| {
            if visited == name {
                found = Some(value.to_owned_value());
            }
            Ok::<(), std::convert::Infallible>(())
        },
    });
    found
}

/// An [`ExtensionVisitor`] from a closure, skipping names set on the event itself.
struct Visit<'a, F> {
    skip: &'a Extensions,
    f: F,
}

impl<F, E> ExtensionVisitor for Visit<'_, F>
where
    F: FnMut(&str, ExtensionValue<'_>) -> Result<(), E>,
{
    type Error = E;

    fn visit(&mut self, name: &'static str, value: ExtensionValue<'_>) -> Result<(), E> {
        if self.skip.contains(name) {
            return Ok(());
        }
        (self.f)(name, value)
    }
}

impl<T: CloudEventData> Traceable for Event<T> {
    fn id(&self) -> &str {
        &self.id
    }

    fn extension_str(&self, name: &str) -> Option<Cow<'_, str>> {
        if let Some(value) = self.extensions.get(name) {
            return value.as_str().map(Cow::Borrowed);
        }
        match payload_extension(&self.data, name)? {
            ExtensionValueBuf::String(s) => Some(Cow::Owned(s)),
            other => other.as_str().map(|s| Cow::Owned(s.to_owned())),
        }
    }
}

impl<T: CloudEventData + Serialize> Serialize for Event<T> {
    /// The JSON event format: `specversion`, `id`, `source`, `type`, `datacontenttype`,
    /// `dataschema`, `subject`, `time`, then extensions (the payload's, then the event's),
    /// then `data` or `data_base64`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let kind = if json::is_json(Some(&self.datacontenttype)) {
            None
        } else {
            Some(payload::probe(&self.data).map_err(ser::Error::custom)?)
        };
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("specversion", "1.0")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("source", &*self.source)?;
        map.serialize_entry("type", T::TYPE)?;
        map.serialize_entry("datacontenttype", &*self.datacontenttype)?;
        if let Some(dataschema) = &self.dataschema {
            map.serialize_entry("dataschema", &**dataschema)?;
        }
        if let Some(subject) = self.subject() {
            checked_string::<S::Error>("subject", subject)?;
            map.serialize_entry("subject", subject)?;
        }
        if let Some(time) = &self.time {
            map.serialize_entry("time", time.as_str())?;
        }
        self.data.visit_extensions(&mut Visit {
            skip: &self.extensions,
            f: |name: &str, value: ExtensionValue<'_>| {
                if let ExtensionValue::String(text) = value {
                    checked_string::<S::Error>(name, text)?;
                }
                map.serialize_entry(name, &value)
            },
        })?;
        for (name, value) in &self.extensions {
            map.serialize_entry(name, value)?;
        }
        match kind {
            Some(PayloadKind::Binary) => {
                map.serialize_entry("data_base64", &AsBase64(&self.data))?
            }
            None | Some(PayloadKind::Text) => map.serialize_entry("data", &self.data)?,
        }
        map.end()
    }
}

/// Checks a String taken from the payload as it is written: the derive cannot see run-time
/// values, and a control character makes the event invalid (CE 1.0.2 type system), so the
/// producer learns it rather than every consumer. Allocates nothing when the value is fine.
fn checked_string<E: ser::Error>(attribute: &str, value: &str) -> Result<(), E> {
    match cloudevent_rules::check_string_value(attribute, value).first() {
        Some(violation) => Err(E::custom(violation)),
        None => Ok(()),
    }
}

impl<'de, T: CloudEventData + DeserializeOwned> de::Deserialize<'de> for Event<T> {
    /// Strict and in one pass, like [`Event::from_slice`] without the size check.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut findings = Findings::strict();
        let (envelope, data) = json::EventSeed {
            findings: &mut findings,
            slot: TypedData::<T>::default(),
            expected_type: Some(T::TYPE),
        }
        .deserialize(deserializer)?;
        Ok(Event::from_envelope(envelope, data))
    }
}

fn type_mismatch<T: CloudEventData>(found: &str) -> Violation {
    json::type_mismatch(T::TYPE, found)
}

fn payload_mismatch<T: CloudEventData>(error: impl fmt::Display) -> Violation {
    json::data_violation(format_args!(
        "does not fit the payload of `{}`: {error}",
        T::TYPE
    ))
}

/// A payload for an event without `data`: whatever `T` makes of JSON `null` (a unit struct,
/// an `Option`), else an error.
fn from_absent<T: CloudEventData + DeserializeOwned>() -> Option<T> {
    serde_json::from_str("null").ok()
}

fn absent_violation<T: CloudEventData>() -> Violation {
    json::data_violation(format_args!(
        "is absent, but the payload of `{}` cannot be empty",
        T::TYPE
    ))
}

/// Reads `data` into `T`: in place once `datacontenttype` is known, else kept raw until the
/// end of the object decides how to read it (a non-JSON type requires a string, CE-JSON 3.1).
pub(crate) struct TypedData<T> {
    value: Option<T>,
    /// `data` that came before a `datacontenttype` that decides how to read it.
    pending: Option<Box<RawValue>>,
}

impl<T> Default for TypedData<T> {
    fn default() -> Self {
        TypedData {
            value: None,
            pending: None,
        }
    }
}

impl<T: CloudEventData + DeserializeOwned> TypedData<T> {
    fn keep(
        &mut self,
        result: Result<T, impl fmt::Display>,
        findings: &mut Findings,
    ) -> Result<(), Stop> {
        match result {
            Ok(value) => {
                self.value = Some(value);
                Ok(())
            }
            Err(error) => findings.report(payload_mismatch::<T>(error)),
        }
    }
}

impl<'de, T: CloudEventData + DeserializeOwned> DataSlot<'de> for TypedData<T> {
    type Data = T;

    fn data<A: MapAccess<'de>>(
        &mut self,
        map: &mut A,
        content_type: ContentType<'_>,
        findings: &mut Findings,
    ) -> Result<(), A::Error> {
        // JSON data is read in place once `datacontenttype` is known. Before it, the raw JSON is
        // kept: a later non-JSON content type requires `data` to be a string (CE-JSON 3.1), and
        // a payload read in place cannot tell afterwards whether it was one (fuzz finding 1).
        let json = match content_type {
            ContentType::Seen(content_type) => Some(json::is_json(content_type)),
            ContentType::NotYet => None,
        };
        match json {
            Some(true) => match map.next_value::<T>() {
                Ok(value) => self.value = Some(value),
                Err(error) => {
                    let _ = findings.report(payload_mismatch::<T>(&error));
                    return Err(error);
                }
            },
            Some(false) => match map.next_value::<json::JsonScalar<'de>>()? {
                json::JsonScalar::Str(text) => self
                    .keep(T::deserialize(Leaf::Str(&text)), findings)
                    .map_err(|Stop| json::stop(findings))?,
                json::JsonScalar::Null => self
                    .keep(serde_json::from_str("null"), findings)
                    .map_err(|Stop| json::stop(findings))?,
                _ => findings
                    .report(json::data_violation(
                        "is not a string, but datacontenttype is not JSON (CE-JSON 3.1)",
                    ))
                    .map_err(|Stop| json::stop(findings))?,
            },
            None => self.pending = Some(map.next_value::<Box<RawValue>>()?),
        }
        Ok(())
    }

    fn data_base64(&mut self, bytes: Vec<u8>, findings: &mut Findings) -> Result<(), Stop> {
        self.keep(T::deserialize(Leaf::Bytes(&bytes)), findings)
    }

    fn finish(mut self, datacontenttype: Option<&str>, findings: &mut Findings) -> Result<T, Stop> {
        if let Some(raw) = self.pending.take() {
            let result = if json::is_json(datacontenttype) {
                serde_json::from_str::<T>(raw.get())
            } else if raw.get() == "null" {
                serde_json::from_str::<T>("null")
            } else if !raw.get().starts_with('"') {
                return findings
                    .report(json::data_violation(
                        "is not a string, but datacontenttype is not JSON (CE-JSON 3.1)",
                    ))
                    .and_then(|()| Err(Stop));
            } else {
                serde_json::from_str::<String>(raw.get())
                    .and_then(|text| T::deserialize(Leaf::Str(&text)).map_err(de::Error::custom))
            };
            self.keep(result, findings)?;
        }
        let value = match self.value {
            Some(value) => value,
            None => match from_absent::<T>() {
                Some(value) => value,
                None => {
                    findings.report(absent_violation::<T>())?;
                    // Lenient readers never use a typed slot; this only keeps types whole.
                    return Err(Stop);
                }
            },
        };
        if let Some(violation) = payload_string_violation(&value) {
            findings.report(violation)?;
        }
        Ok(value)
    }
}

/// A text or bytes payload as a deserializer, so `T` reads non-JSON data; newtypes and
/// `Option` see through to the leaf (serde's value deserializers would refuse them).
#[derive(Clone, Copy)]
pub(crate) enum Leaf<'a> {
    Str(&'a str),
    Bytes(&'a [u8]),
}

impl<'de> Deserializer<'de> for Leaf<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self {
            Leaf::Str(text) => visitor.visit_str(text),
            Leaf::Bytes(bytes) => visitor.visit_bytes(bytes),
        }
    }

    fn deserialize_newtype_struct<V: de::Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_option<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// Builds an [`Event`] step by step; every check runs in [`EventBuilder::build`], which
/// reports all errors at once.
///
/// ```
/// # use cloudevent_runtime::{CloudEvent, Event};
/// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
/// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
/// # struct Ping;
/// let event = Event::builder(Ping).id("fixed-1").no_time().build().unwrap();
/// assert_eq!(event.id(), "fixed-1");
/// assert_eq!(event.time(), None);
/// ```
#[derive(Debug)]
pub struct EventBuilder<T> {
    data: T,
    source: Option<String>,
    id: Option<String>,
    id_kind: IdKind,
    time: Option<Option<Timestamp>>,
    subject: Option<Subject>,
    extensions: Vec<(String, ExtensionValueBuf)>,
    profile: Profile,
    traceability: bool,
    parent: Option<Parent>,
}

/// What a child takes from its parent (ADR-0003, W3C Trace Context).
#[derive(Debug)]
struct Parent {
    id: String,
    correlationid: Option<String>,
    traceparent: Option<String>,
    tracestate: Option<String>,
}

impl<T: CloudEventData> EventBuilder<T> {
    fn new(data: T) -> Self {
        EventBuilder {
            data,
            source: None,
            id: None,
            id_kind: IdKind::Ulid,
            time: None,
            subject: None,
            extensions: Vec::new(),
            profile: T::PROFILE,
            traceability: true,
            parent: None,
        }
    }

    /// Sets `source` (required when `T` names no default).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// let event = Event::builder(Ping).source("https://health.example.com/eu").build().unwrap();
    /// assert_eq!(event.source(), "https://health.example.com/eu");
    /// ```
    #[must_use]
    pub fn source(mut self, source: impl Into<String>) -> Self {
        self.source = Some(source.into());
        self
    }

    /// Sets `id`, e.g. to re-deliver the same logical event (INTG-STD-015 R-2). Leave it
    /// unset to get a fresh one (ADR-0003).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// assert_eq!(Event::builder(Ping).id("evt-1").build().unwrap().id(), "evt-1");
    /// ```
    #[must_use]
    pub fn id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// Which kind of id to generate (ULID by default).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::IdKind;
    /// assert_eq!(Event::builder(Ping).id_kind(IdKind::UuidV4).build().unwrap().id().len(), 36);
    /// ```
    #[must_use]
    pub fn id_kind(mut self, kind: IdKind) -> Self {
        self.id_kind = kind;
        self
    }

    /// Sets `time` (now, by default).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::Timestamp;
    /// let time = Timestamp::parse("2026-03-28T14:22:31Z").unwrap();
    /// assert_eq!(Event::builder(Ping).time(time.clone()).build().unwrap().time(), Some(&time));
    /// ```
    #[must_use]
    pub fn time(mut self, time: Timestamp) -> Self {
        self.time = Some(Some(time));
        self
    }

    /// Leaves `time` out.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// assert_eq!(Event::builder(Ping).no_time().build().unwrap().time(), None);
    /// ```
    #[must_use]
    pub fn no_time(mut self) -> Self {
        self.time = Some(None);
        self
    }

    /// Sets `subject`, overriding the payload's.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// assert_eq!(Event::builder(Ping).subject("node-7").build().unwrap().subject(), Some("node-7"));
    /// assert!(Event::builder(Ping).subject("").build().is_err());
    /// ```
    #[must_use]
    pub fn subject(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(Subject::Set(subject.into()));
        self
    }

    /// Adds an extension (checked in [`EventBuilder::build`]).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(serde::Serialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// let event = Event::builder(Ping).extension("priority", 3).build().unwrap();
    /// assert_eq!(event.extension("priority"), Some(3.into()));
    /// ```
    #[must_use]
    pub fn extension(
        mut self,
        name: impl Into<String>,
        value: impl Into<ExtensionValueBuf>,
    ) -> Self {
        self.extensions.push((name.into(), value.into()));
        self
    }

    /// Sets `traceparent`.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::Traceable;
    /// let tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    /// assert_eq!(Event::builder(Ping).traceparent(tp).build().unwrap().traceparent().as_deref(), Some(tp));
    /// ```
    #[must_use]
    pub fn traceparent(self, traceparent: impl Into<String>) -> Self {
        self.extension(TRACEPARENT, traceparent.into())
    }

    /// Sets `tracestate`.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::Traceable;
    /// let event = Event::builder(Ping).tracestate("vendor=1").build().unwrap();
    /// assert_eq!(event.tracestate().as_deref(), Some("vendor=1"));
    /// ```
    #[must_use]
    pub fn tracestate(self, tracestate: impl Into<String>) -> Self {
        self.extension(TRACESTATE, tracestate.into())
    }

    /// Makes the event the effect of `parent` (see [`Event::caused_by`]).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::Traceable;
    /// let parent = Event::new(Ping);
    /// let child = Event::builder(Ping).caused_by(&parent).build().unwrap();
    /// assert_eq!(child.causationid().as_deref(), Some(parent.id()));
    /// assert_eq!(child.correlationid(), parent.correlationid());
    /// ```
    #[must_use]
    pub fn caused_by(mut self, parent: &impl Traceable) -> Self {
        let owned = |v: Option<Cow<'_, str>>| v.map(Cow::into_owned);
        self.parent = Some(Parent {
            id: parent.id().to_owned(),
            correlationid: owned(parent.correlationid()),
            traceparent: owned(parent.traceparent()),
            tracestate: owned(parent.tracestate()),
        });
        self
    }

    /// Leaves out `correlationid` and `causationid` on a root event (for consumers outside
    /// ADR-0003's scope).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::Traceable;
    /// let event = Event::builder(Ping).without_traceability().build().unwrap();
    /// assert_eq!(event.correlationid(), None);
    /// ```
    #[must_use]
    pub fn without_traceability(mut self) -> Self {
        self.traceability = false;
        self
    }

    /// Checks set values against another profile than `T`'s.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::Profile;
    /// // Twenty-one characters: a warning for CloudEvents, an error for INTG-STD-015 gateway 5.
    /// let long = "averyveryverylongname";
    /// assert!(Event::builder(Ping).extension(long, 1).build().is_err());
    /// assert!(Event::builder(Ping).profile(Profile::CloudEvents).extension(long, 1).build().is_ok());
    /// ```
    #[must_use]
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// The event, or every error found.
    ///
    /// # Errors
    /// [`BuildError::MissingSource`] when no source is known, [`BuildError::Invalid`] with
    /// all rule violations of the values set.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// let err = Event::builder(Ping).extension("Bad", 1).extension("password", "x").build().unwrap_err();
    /// assert_eq!(err.violations().len(), 2);
    /// ```
    pub fn build(self) -> Result<Event<T>, BuildError> {
        let mut found = Vec::new();
        let source = match (self.source, T::SOURCE) {
            (Some(source), _) => {
                found.extend(cloudevent_rules::check_source(&source, self.profile));
                static_or_owned(&source, T::SOURCE)
            }
            (None, Some(source)) => Cow::Borrowed(source),
            (None, None) => {
                return Err(BuildError::MissingSource {
                    event_type: T::TYPE,
                });
            }
        };
        if let Some(id) = &self.id {
            found.extend(cloudevent_rules::check_id(id));
            found.extend(cloudevent_rules::check_string_value("id", id));
        }
        if let Some(Some(time)) = &self.time {
            found.extend(cloudevent_rules::check_time(time.as_str(), self.profile));
        }
        if let Some(Subject::Set(subject)) = &self.subject {
            found.extend(subject_findings(subject));
        }
        for (name, value) in &self.extensions {
            found.extend(extension_findings(name, value.as_value(), self.profile));
        }
        errors(found)?;

        let id = self.id.unwrap_or_else(|| self.id_kind.generate());
        let time = self.time.unwrap_or_else(|| Some(Timestamp::now()));
        let mut event = Event::fresh(self.data, source, id, time);
        if let Some(subject) = self.subject {
            event.subject = subject;
        }
        for (name, value) in self.extensions {
            event.extensions.insert(name, value);
        }
        if let Some(parent) = self.parent {
            let correlation = parent.correlationid.unwrap_or_else(|| parent.id.clone());
            event.extensions.insert(CORRELATIONID, correlation);
            event.extensions.insert(CAUSATIONID, parent.id);
            let trace = [
                (TRACEPARENT, parent.traceparent),
                (TRACESTATE, parent.tracestate),
            ];
            for (name, value) in trace {
                let already_set = event.extension_str(name).is_some();
                if let (Some(value), false) = (value, already_set) {
                    event.extensions.insert(name, value);
                }
            }
        } else if self.traceability {
            event.make_root();
        }
        Ok(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Order {
        id: String,
        region: Option<String>,
    }

    impl CloudEventData for Order {
        const TYPE: &'static str = "com.example.order.created";
        const DATASCHEMA: Option<&'static str> = None;
        const SOURCE: Option<&'static str> = Some("https://orders.example.com");
        const DATACONTENTTYPE: &'static str = "application/json";
        const EXTENSIONS: &'static [&'static str] = &["region"];

        fn subject(&self) -> Option<&str> {
            Some(&self.id)
        }

        fn visit_extensions<V: ExtensionVisitor>(&self, visitor: &mut V) -> Result<(), V::Error> {
            if let Some(region) = &self.region {
                visitor.visit("region", ExtensionValue::String(region))?;
            }
            Ok(())
        }
    }

    fn order() -> Order {
        Order {
            id: "o-1".into(),
            region: Some("eu".into()),
        }
    }

    #[test]
    fn subject_follows_the_payload_unless_set_or_removed() {
        let mut event = Event::new(order());
        assert_eq!(event.subject(), Some("o-1"));
        event.data_mut().id = "o-2".into();
        assert_eq!(event.subject(), Some("o-2"));
        let event = event.with_subject("custom").unwrap();
        assert_eq!(event.subject(), Some("custom"));
        assert_eq!(event.without_subject().subject(), None);
    }

    #[test]
    fn extensions_set_on_the_event_override_the_payloads() {
        let event = Event::new(order()).with_extension("region", "us").unwrap();
        let mut seen = Vec::new();
        event
            .for_each_extension(|name, value| seen.push((name.to_owned(), value.to_owned_value())));
        let regions: Vec<_> = seen.iter().filter(|(n, _)| n == "region").collect();
        assert_eq!(regions.len(), 1);
        assert_eq!(regions[0].1, ExtensionValueBuf::from("us"));
        let json = String::from_utf8(event.to_vec().unwrap()).unwrap();
        assert_eq!(
            json.matches("\"region\"").count(),
            2,
            "payload field + one extension: {json}"
        );
    }

    #[test]
    fn builder_sets_id_time_and_leaves_out_traceability_on_request() {
        let time = Timestamp::parse("2026-03-28T14:22:31Z").unwrap();
        let event = Event::builder(order())
            .id("fixed-id")
            .time(time.clone())
            .without_traceability()
            .build()
            .unwrap();
        assert_eq!(event.id(), "fixed-id");
        assert_eq!(event.time(), Some(&time));
        assert_eq!(event.correlationid(), None);
        let untimed = Event::builder(order()).no_time().build().unwrap();
        assert_eq!(untimed.time(), None);
    }

    #[test]
    fn received_copies_of_payload_extensions_are_not_kept_twice() {
        let json = br#"{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created","region":"eu","data":{"id":"o-1","region":"eu"}}"#;
        let event = Event::<Order>::from_slice(json).unwrap();
        assert!(event.extensions().is_empty());
        assert!(
            matches!(event.source, Cow::Borrowed(_)),
            "the constant is reused"
        );
    }

    #[test]
    fn leaf_deserializer_sees_through_newtypes_and_options() {
        use serde::Deserialize as _;
        #[derive(serde::Deserialize, PartialEq, Debug)]
        struct Text(Option<String>);
        assert_eq!(
            Text::deserialize(Leaf::Str("hi")).unwrap(),
            Text(Some("hi".into()))
        );
        assert!(u32::deserialize(Leaf::Str("hi")).is_err());
    }
}
