//! The envelope attributes a payload fills itself (`#[cloudevent(subject)]`,
//! `#[cloudevent(extension)]` fields, read through [`CloudEventData::visit_extensions`];
//! `#[cloudevent(id)]`, `#[cloudevent(time)]`, `#[cloudevent(source)]` and `source_template`,
//! taken when the event is made and compared with the envelope when one is read).

use std::borrow::Cow;

use cloudevent_rules::{Profile, Violation, rule};

use crate::error::BuildError;
use crate::value::Timestamp;

use super::Event;

use crate::data::CloudEventData;
use crate::extension::{ExtensionValue, ExtensionValueBuf, ExtensionVisitor, Extensions};

/// The first control character in a String the payload copies into the envelope (its
/// subject, its String extensions): such an event could be read but never written again
/// (CE 1.0.2 type system), so a typed reader refuses it as any reader refuses the attribute.
/// Then what the payload's data schema says beyond its type ([`CloudEventData::check_data`]).
pub(crate) fn payload_string_violation<T: CloudEventData>(data: &T) -> Option<Violation> {
    envelope_string_violation(data).or_else(|| data.check_data())
}

fn envelope_string_violation<T: CloudEventData>(data: &T) -> Option<Violation> {
    if let Some(subject) = data.subject()
        && let Some(violation) = cloudevent_rules::check_string_value("subject", subject).pop()
    {
        return Some(violation);
    }
    let mut found = None;
    let _ = data.visit_extensions(&mut Visit {
        skip: &Extensions::default(),
        f: |name: &str, value: ExtensionValue<'_>| {
            if let (None, ExtensionValue::String(text)) = (&found, value) {
                found = cloudevent_rules::check_string_value(name, text).pop();
            }
            Ok::<(), std::convert::Infallible>(())
        },
    });
    found
}

/// Whether every String the payload copies into the envelope (its subject, its String
/// extensions) is in the envelope as read, with the same text: in the map, or among the
/// Strings a reader held aside (`held`, see `format::json::Held`). The envelope check ran
/// [`cloudevent_rules::check_string_value`], a function of the text alone, on each of those,
/// so [`envelope_string_violation`] would find nothing a strict read has not refused already.
/// An empty payload subject holds nothing to find.
///
/// `None` when not; else, when every extension the payload visits is a held String of the
/// same text, which held ones it wrote (bit `i` for the `i`-th), for [`Event::assemble`].
pub(crate) fn payload_strings_in_envelope<T: CloudEventData>(
    data: &T,
    subject: Option<&str>,
    extensions: &Extensions,
    held: &[(&str, &str)],
) -> Option<Option<u32>> {
    struct InEnvelope<'a> {
        extensions: &'a Extensions,
        held: &'a [(&'a str, &'a str)],
        /// Told by the visitor, not the `Err` that ends the walk early: a hand-written
        /// `visit_extensions` may carry on past it.
        all: bool,
        /// The held ones written, while every extension visited is one.
        written: Option<u32>,
    }
    impl ExtensionVisitor for InEnvelope<'_> {
        type Error = ();
        fn visit(&mut self, name: &'static str, value: ExtensionValue<'_>) -> Result<(), ()> {
            let held_at = self.held.iter().position(|(held, _)| *held == name);
            let ExtensionValue::String(text) = value else {
                self.written = None;
                return Ok(());
            };
            let read = match held_at {
                Some(at) => Some(self.held[at].1),
                None => match self.extensions.get(name) {
                    Some(ExtensionValueBuf::String(read)) => Some(read.as_str()),
                    _ => None,
                },
            };
            if read != Some(text) {
                self.all = false;
                return Err(());
            }
            self.written = match (self.written, held_at) {
                (Some(written), Some(at)) => Some(written | 1 << at),
                _ => None,
            };
            Ok(())
        }
    }
    if data
        .subject()
        .is_some_and(|own| !own.is_empty() && subject != Some(own))
    {
        return None;
    }
    if T::EXTENSIONS.is_empty() {
        return Some(Some(0));
    }
    let mut check = InEnvelope {
        extensions,
        held,
        all: true,
        written: Some(0),
    };
    let _ = data.visit_extensions(&mut check);
    check.all.then_some(check.written)
}

/// The rules a `subject` set at run time keeps: non-empty (CE 1.0.2 subject), no control
/// characters (CE 1.0.2 type system).
pub(super) fn subject_findings(subject: &str) -> Vec<Violation> {
    let mut found = cloudevent_rules::check_subject(subject);
    found.extend(cloudevent_rules::check_string_value("subject", subject));
    found
}

/// The payload's subject; an empty one means none, since an empty `subject` is not allowed
/// on the wire (CE 1.0.2 subject).
pub(super) fn payload_subject<T: CloudEventData>(data: &T) -> Option<&str> {
    data.subject().filter(|subject| !subject.is_empty())
}

/// One extension of a payload, owned.
pub(super) fn payload_extension<T: CloudEventData>(
    data: &T,
    name: &str,
) -> Option<ExtensionValueBuf> {
    if !T::EXTENSIONS.contains(&name) {
        return None;
    }
    let mut found = None;
    let _ = data.visit_extensions(&mut Visit {
        skip: &Extensions::default(),
        f: |visited: &str, value: ExtensionValue<'_>| {
            if visited == name {
                found = Some(ExtensionValueBuf::from(value));
            }
            Ok::<(), std::convert::Infallible>(())
        },
    });
    found
}

/// An [`ExtensionVisitor`] from a closure, skipping names set on the event itself.
pub(super) struct Visit<'a, F> {
    pub(super) skip: &'a Extensions,
    pub(super) f: F,
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

/// The `id`, `time` and `source` a payload gives, each checked by the rules crate against
/// the profile as a value set by hand is; `violations` holds what they broke (a value that
/// breaks a MUST is not taken).
#[derive(Default)]
pub(super) struct PayloadAttributes {
    pub(super) id: Option<String>,
    pub(super) time: Option<Timestamp>,
    pub(super) source: Option<String>,
    pub(super) violations: Vec<Violation>,
}

impl PayloadAttributes {
    /// The violations about one attribute.
    pub(super) fn violations_of(&self, attribute: &str) -> impl Iterator<Item = &Violation> {
        self.violations
            .iter()
            .filter(move |v| v.attribute == attribute)
    }
}

pub(super) fn payload_attributes<T: CloudEventData>(
    data: &T,
    profile: Profile,
) -> PayloadAttributes {
    let mut found = PayloadAttributes::default();
    if T::ID_PROPERTY.is_none() && T::TIME_PROPERTY.is_none() && T::SOURCE_PROPERTY.is_none() {
        return found;
    }
    let is_error = |v: &Vec<Violation>| v.iter().any(Violation::is_error);
    if let Some(id) = data.payload_id() {
        let mut violations = cloudevent_rules::check_id(&id);
        violations.extend(cloudevent_rules::check_string_value("id", &id));
        if !is_error(&violations) {
            found.id = Some(id.into_owned());
        }
        found.violations.extend(violations);
    }
    if let Some(time) = data.payload_time() {
        let violations = cloudevent_rules::check_time(&time, profile);
        if !is_error(&violations) {
            found.time = Some(Timestamp::from_checked(time));
        }
        found.violations.extend(violations);
    }
    match data.payload_source() {
        Some(source) => {
            let mut violations = cloudevent_rules::check_source(&source, profile);
            violations.extend(cloudevent_rules::check_string_value("source", &source));
            if !is_error(&violations) {
                found.source = Some(source.into_owned());
            }
            found.violations.extend(violations);
        }
        // A type whose source comes only from its payload, which gave none: the event would
        // have none (CE 1.0.2 required).
        None if T::SOURCE_PROPERTY.is_some() && T::SOURCE.is_none() => found
            .violations
            .extend(cloudevent_rules::check_source("", profile)),
        None => {}
    }
    found
}

/// The first attribute of a received envelope that the payload gives otherwise: an attribute
/// has one value, so an event whose `id`, `time` or `source` disagrees with the payload
/// member the type fills it from is refused (INTG-STD-015 R-7), as an extension that
/// disagrees with its payload field is. Compared as text, as received; an envelope without
/// `time` keeps none.
pub(super) fn envelope_disagreement<T: CloudEventData>(
    data: &T,
    id: &str,
    source: &str,
    time: Option<&Timestamp>,
) -> Option<Violation> {
    if T::ID_PROPERTY.is_none() && T::TIME_PROPERTY.is_none() && T::SOURCE_PROPERTY.is_none() {
        return None;
    }
    // (attribute, the envelope's value, the payload's, the payload property)
    type Given<'a> = (
        &'a str,
        Option<&'a str>,
        Option<Cow<'a, str>>,
        Option<&'a str>,
    );
    let given: [Given<'_>; 3] = [
        ("id", Some(id), data.payload_id(), T::ID_PROPERTY),
        (
            "source",
            Some(source),
            data.payload_source(),
            T::SOURCE_PROPERTY,
        ),
        (
            "time",
            time.map(Timestamp::as_str),
            data.payload_time(),
            T::TIME_PROPERTY,
        ),
    ];
    given.into_iter().find_map(|(attribute, envelope, payload, property)| {
        // An envelope without `time` (optional) is no second value.
        let (envelope, payload) = (envelope?, payload?);
        if envelope == payload {
            return None;
        }
        let property = property.unwrap_or_default();
        Some(
            Violation::error(
                rule::INTG_R7,
                attribute.to_owned(),
                envelope.to_owned(),
                format!(
                    "is given twice with different values: the envelope says `{envelope}`, the payload (`{property}`) says `{payload}`"
                ),
            )
            .with_hint("an attribute has one value; the producer must copy it from the payload"),
        )
    })
}

impl<T: CloudEventData> Event<T> {
    /// [`Event::new`], refusing a payload whose `id`, `time` or `source` (taken from the
    /// fields marked `#[cloudevent(id)]`, `#[cloudevent(time)]`, `#[cloudevent(source)]` or
    /// the `source_template`) breaks a rule of `T`'s profile.
    ///
    /// # Errors
    /// [`BuildError::Invalid`] with every error the rules found in those values.
    ///
    /// ```
    /// use cloudevent_runtime::{Attributes, CloudEvent, Event};
    ///
    /// #[derive(Debug, serde::Serialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// struct OrderCreated {
    ///     #[cloudevent(id)]
    ///     order_number: u64,
    ///     #[cloudevent(time)]
    ///     placed_at: String,
    /// }
    ///
    /// let event = Event::try_new(OrderCreated { order_number: 8842, placed_at: "2026-03-28T14:22:31Z".into() }).unwrap();
    /// assert_eq!(event.id(), "8842");
    /// assert_eq!(event.time().unwrap().as_str(), "2026-03-28T14:22:31Z");
    /// let err = Event::try_new(OrderCreated { order_number: 1, placed_at: "yesterday".into() }).unwrap_err();
    /// assert_eq!(err.violations()[0].attribute, "time");
    /// ```
    pub fn try_new(payload: T) -> Result<Self, BuildError>
    where
        T: crate::HasSource,
    {
        let event = Event::new(payload);
        match event.invalid {
            None => Ok(event),
            Some(_) => Err(BuildError::Invalid(
                payload_attributes(&event.data, T::PROFILE)
                    .violations
                    .into_iter()
                    .filter(Violation::is_error)
                    .collect(),
            )),
        }
    }
}
