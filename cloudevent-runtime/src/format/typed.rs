//! [`Event<T>`] read from the event formats: the JSON shortcuts ([`Event::from_slice`],
//! [`Event::from_reader`]) and serde's `Deserialize`, the data slot every format's typed read
//! fills ([`TypedData`]), a read envelope around its payload, and the JSON round trip to
//! [`AnyEvent`]. The type, its writer and the format-free conversions are `event/`'s; this is
//! where the formats meet it, as `any.rs` is for [`AnyEvent`].

use std::fmt;
use std::io::Read;

use cloudevent_rules::{Violation, rule};
use serde::Serialize;
use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess};
use serde_json::value::RawValue;

use super::json::{self, ContentType, DataSlot, Findings, Stop};
use super::read_bounded;
use crate::any::AnyEvent;
use crate::data::CloudEventData;
use crate::error::{BuildError, FormatError};
use crate::event::{Event, Leaf, absent_violation, from_absent, from_json_text, payload_mismatch};
use crate::event::{payload_string_violation, payload_strings_in_envelope};
use crate::value::Timestamp;

impl<T: CloudEventData> Event<T> {
    /// Parses an event of type `T` from the JSON format, refusing more than
    /// [`limits::MAX_EVENT_BYTES`](crate::limits::MAX_EVENT_BYTES) before reading (INTG-STD-015 R-11).
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
        Self::decode::<crate::format::Json>(bytes)
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

    /// The event as an [`AnyEvent`], the payload serialized to raw data.
    ///
    /// # Errors
    /// When the payload cannot be serialized.
    ///
    /// ```
    /// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// # let order = || OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// let any = Event::new(order()).to_any().unwrap();
    /// assert_eq!(any.ty(), "com.example.order.created");
    /// assert_eq!(any.extensions().get("region"), Some(&"eu".into()));
    /// ```
    pub fn to_any(&self) -> Result<AnyEvent, BuildError>
    where
        T: Serialize,
    {
        let bytes = self.to_vec()?;
        AnyEvent::read(&bytes, usize::MAX, &AnyEvent::DEFAULT_POLICY)
            .map_err(|e| BuildError::Payload(e.to_string()))
    }

    /// The event a format's reader read: its envelope around the payload its [`TypedData`]
    /// slot read (see [`Event::assemble`]).
    pub(crate) fn from_envelope(
        envelope: json::Envelope<'_>,
        data: T,
    ) -> Result<Self, Box<Violation>> {
        Event::from_envelope_with(envelope, (&[], None), data)
    }

    /// [`Event::from_envelope`] for a reader that held the extensions named like the
    /// payload's aside (`held`, in name order, [`json::Held`]): each the payload writes
    /// itself is left out, as [`Event::assemble`] removes such a kept one; the others are
    /// kept.
    pub(crate) fn from_envelope_holding(
        envelope: json::Envelope<'_>,
        held: &[(&str, &str)],
        data: T,
    ) -> Result<Self, Box<Violation>> {
        let written = envelope.payload_writes_held.get();
        Event::from_envelope_with(envelope, (held, written), data)
    }

    /// The one call to [`Event::assemble`] of both: `held` and what the slot found the payload
    /// to write of them (`None`: the assembly walks the payload's extensions itself).
    fn from_envelope_with(
        envelope: json::Envelope<'_>,
        (held, written): (&[(&str, &str)], Option<u32>),
        data: T,
    ) -> Result<Self, Box<Violation>> {
        Event::assemble(
            crate::value::inline::ShortText::copy(envelope.id.as_deref().unwrap_or_default()),
            envelope.source.as_deref().unwrap_or_default(),
            envelope.datacontenttype.as_deref(),
            envelope.dataschema.as_deref(),
            envelope.subject,
            envelope.time.map(Timestamp::from_checked),
            (envelope.extensions, held, written),
            data,
        )
    }
}

impl<'de, T: CloudEventData + DeserializeOwned> de::Deserialize<'de> for Event<T> {
    /// Strict and in one pass, like [`Event::from_slice`] without the size check.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut findings = Findings::strict();
        let mut envelope = json::Envelope::default();
        let mut held = json::Held::new(T::EXTENSIONS);
        let data = json::EventSeed {
            envelope: &mut envelope,
            findings: &mut findings,
            policy: &Self::POLICY,
            slot: TypedData::<T>::default(),
            expected_type: Some(json::Expected::of::<T>()),
            memo: None,
            held: Some(&mut held),
        }
        .deserialize(deserializer)?;
        Event::from_envelope_holding(envelope, held.as_slice(), data)
            .map_err(<D::Error as de::Error>::custom)
    }
}

/// Reads `data` into `T`: in place once `datacontenttype` is known, else kept raw until the
/// end of the object decides how to read it (a non-JSON type requires a string, CE-JSON 3.1).
///
/// `PAYLOAD_STRINGS`: whether [`DataSlot::finish`] checks the Strings the payload copies into
/// the envelope ([`payload_string_violation`]); the direct binary-mode reader
/// (`binding::parts`) checks them itself, after its envelope check.
pub(crate) struct TypedData<T, const PAYLOAD_STRINGS: bool = true> {
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

impl<T: CloudEventData + DeserializeOwned, const PAYLOAD_STRINGS: bool>
    TypedData<T, PAYLOAD_STRINGS>
{
    /// The slot once `data` was read in place into `value` (`None`: the event had none), as
    /// [`DataSlot::data`] leaves it for JSON data under a JSON `datacontenttype`.
    pub(crate) fn holding(value: Option<T>) -> Self {
        TypedData {
            value,
            pending: None,
        }
    }

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

impl<'de, T: CloudEventData + DeserializeOwned, const PAYLOAD_STRINGS: bool> DataSlot<'de>
    for TypedData<T, PAYLOAD_STRINGS>
{
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
            // Read in place, untracked: the door that has the bytes names the member
            // (`with_data_pointer`) only when `T` refused it.
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
                        "is not a string, but datacontenttype is not JSON",
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

    fn finish(
        mut self,
        envelope: &json::Envelope<'_>,
        held: &[(&str, &str)],
        findings: &mut Findings,
    ) -> Result<T, Stop> {
        let datacontenttype = envelope.datacontenttype.as_deref();
        if let Some(raw) = self.pending.take() {
            if json::is_json(datacontenttype) {
                match from_json_text::<T>(raw.get()) {
                    Ok(value) => self.value = Some(value),
                    Err(violation) => findings.report(*violation)?,
                }
            } else {
                let result = if raw.get() == "null" {
                    serde_json::from_str::<T>("null")
                } else if !raw.get().starts_with('"') {
                    return findings
                        .report(json::data_violation(
                            "is not a string, but datacontenttype is not JSON",
                        ))
                        .and_then(|()| Err(Stop));
                } else {
                    serde_json::from_str::<String>(raw.get()).and_then(|text| {
                        T::deserialize(Leaf::Str(&text)).map_err(de::Error::custom)
                    })
                };
                self.keep(result, findings)?;
            }
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
        if PAYLOAD_STRINGS {
            // A strict read got here only if the envelope check found no error: the payload's
            // Strings that the envelope holds with the same text passed the String rule in it
            // (`payload_strings_in_envelope`), so only the payload's schema is left to ask.
            let carried = if findings.is_strict() {
                payload_strings_in_envelope(
                    &value,
                    envelope.subject.as_deref(),
                    &envelope.extensions,
                    held,
                )
            } else {
                None
            };
            let found = match carried {
                Some(written) => {
                    envelope.payload_writes_held.set(written);
                    value.check_data()
                }
                None => payload_string_violation(&value),
            };
            if let Some(violation) = found {
                findings.report(violation)?;
            }
        }
        Ok(value)
    }
}
