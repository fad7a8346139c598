//! [`EventBuilder`]: an event with everything [`Event::new`] would choose set by hand.

use super::*;

/// Builds an [`Event`] step by step; every check runs in [`EventBuilder::build`], which
/// reports all errors at once.
///
/// ```
/// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
/// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
/// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
/// # struct Ping;
/// let event = Event::builder(Ping).id("fixed-1").time(None).build().unwrap();
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
    pub(super) fn new(data: T) -> Self {
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
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
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
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
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
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
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

    /// Sets `time` (now, by default), or leaves it out with `None`.
    ///
    /// ```
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// use cloudevent_runtime::Timestamp;
    /// let time = Timestamp::try_from("2026-03-28T14:22:31Z").unwrap();
    /// assert_eq!(Event::builder(Ping).time(time.clone()).build().unwrap().time(), Some(&time));
    /// assert_eq!(Event::builder(Ping).time(None).build().unwrap().time(), None);
    /// ```
    #[must_use]
    pub fn time(mut self, time: impl Into<Option<Timestamp>>) -> Self {
        self.time = Some(time.into());
        self
    }

    /// Sets `subject`, overriding the payload's.
    ///
    /// ```
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
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

    /// Makes the event the effect of `parent` (see [`Event::caused_by`]).
    ///
    /// ```
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
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
        // What the payload gives (`#[cloudevent(id)]` ...) fills what was not set here.
        let given = payload_attributes(&self.data, self.profile);
        for (attribute, set) in [
            ("id", self.id.is_some()),
            ("time", self.time.is_some()),
            ("source", self.source.is_some()),
        ] {
            if !set {
                found.extend(given.violations_of(attribute).cloned());
            }
        }
        let source = match (self.source.or(given.source), T::SOURCE) {
            (Some(source), _) => {
                found.extend(cloudevent_rules::check_source(&source, self.profile));
                static_or_owned(&source, T::SOURCE)
            }
            (None, Some(source)) => Cow::Borrowed(source),
            (None, None) if T::SOURCE_PROPERTY.is_some() => {
                // Reported through `given`'s violations.
                errors(found)?;
                return Err(BuildError::MissingSource {
                    event_type: T::TYPE,
                });
            }
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

        let id = self.id.or(given.id).map_or_else(
            || generate_id(self.id_kind, crate::id::since_epoch()),
            EventId::from,
        );
        let time = self
            .time
            .unwrap_or_else(|| Some(given.time.unwrap_or_else(Timestamp::now)));
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
            // A tracestate belongs to its traceparent (W3C): a child with a traceparent of
            // its own (set here, or the current span's with `otel`) takes neither.
            let traced = event.extension_str(TRACEPARENT).is_some();
            for (name, value) in trace {
                let already_set = traced || event.extension_str(name).is_some();
                if let (Some(value), false) = (value, already_set) {
                    event.extensions.insert(name, value);
                }
            }
        } else if self.traceability {
            event.make_root(crate::id::since_epoch());
        }
        Ok(event)
    }
}
