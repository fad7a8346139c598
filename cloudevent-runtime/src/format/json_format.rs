//! [`Json`]: the CloudEvents JSON event format and JSON batch format (CE-JSON 1.0.2) as an
//! [`EventFormat`]. The reader itself is `json.rs`'s, shared with every other format.

use cloudevent_rules::{Policy, Violation, rule};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use super::TypedData;
use super::json::{self, Findings};
use super::{EventFormat, RawData, Report, sealed};
use crate::any::{AnyEvent, Data};
use crate::error::{BuildError, FormatError};
use crate::{CloudEventData, Event, limits};

/// The CloudEvents JSON event format (`application/cloudevents+json`) and its batch format
/// (`application/cloudevents-batch+json`), CE-JSON 1.0.2. [`AnyEvent::from_slice`],
/// [`Event::from_slice`] and the `to_vec` methods are its shortcuts.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, EventFormat, Json};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// assert_eq!(AnyEvent::decode::<Json>(&event.encode::<Json>().unwrap()).unwrap(), event);
/// assert_eq!(Json::CONTENT_TYPE, "application/cloudevents+json; charset=utf-8");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Json;

impl EventFormat for Json {
    const MEDIA_TYPE: &'static str = "application/cloudevents+json";
    const CONTENT_TYPE: &'static str = "application/cloudevents+json; charset=utf-8";
    const BATCH_MEDIA_TYPE: Option<&'static str> = Some("application/cloudevents-batch+json");
    const BATCH_CONTENT_TYPE: Option<&'static str> =
        Some("application/cloudevents-batch+json; charset=utf-8");
}

#[allow(
    private_interfaces,
    private_bounds,
    reason = "the sealed trait is unnameable outside the crate, so the batch memo and report types it names never leave it"
)]
impl sealed::Format for Json {
    fn read_any(
        bytes: &[u8],
        policy: &Policy,
        memo: Option<&mut json::BatchMemo>,
    ) -> Result<AnyEvent, FormatError> {
        AnyEvent::read_in_batch(bytes, limits::MAX_EVENT_BYTES, policy, memo)
    }

    fn read_typed<T: CloudEventData + DeserializeOwned>(
        bytes: &[u8],
    ) -> Result<Event<T>, FormatError> {
        // The object's members read straight from the text (`json::fast`). Where that reading
        // gives up (an escape in a key, anything it does not read itself), the serde_json
        // reader reads the event from the start and gives the verdict; where a finding stopped
        // it, that finding is the one the serde_json reader stops at (`json::fast`'s
        // documentation says why), and is the error.
        if let Ok(text) = std::str::from_utf8(bytes) {
            let mut findings = Findings::strict();
            let mut envelope = json::Envelope::default();
            let mut held = json::Held::new(T::EXTENSIONS);
            match json::fast::read(
                text,
                &mut envelope,
                TypedData::<T>::default(),
                Some(json::Expected::of::<T>()),
                &Event::<T>::POLICY,
                &mut findings,
                Some(&mut held),
            ) {
                Ok(data) => {
                    return Event::from_envelope_holding(envelope, held.as_slice(), data)
                        .map_err(FormatError::Invalid);
                }
                Err(json::fast::Bail::Stopped) => {
                    if let Some(violation) = findings.take_error() {
                        return Err(crate::event::with_data_pointer::<T>(
                            bytes,
                            FormatError::from(violation),
                        ));
                    }
                }
                Err(json::fast::Bail::Reader) => {}
            }
        }
        read_typed_through_serde_json(bytes)
    }

    fn write_any(event: &AnyEvent) -> Result<Vec<u8>, FormatError> {
        serde_json::to_vec(event).map_err(FormatError::Json)
    }

    fn write_typed<T: CloudEventData + Serialize>(event: &Event<T>) -> Result<Vec<u8>, BuildError> {
        event.to_vec()
    }

    fn each_in_batch<'a>(
        bytes: &'a [u8],
        each: &mut dyn FnMut(&'a [u8]) -> bool,
    ) -> Option<Result<usize, Box<Violation>>> {
        /// The elements of the array, each handed over as it is read.
        struct Elements<'e, 'a>(&'e mut dyn FnMut(&'a [u8]) -> bool);
        impl<'a> serde::de::Visitor<'a> for Elements<'_, 'a> {
            type Value = usize;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON array of events")
            }
            fn visit_seq<A: serde::de::SeqAccess<'a>>(self, mut seq: A) -> Result<usize, A::Error> {
                let mut count = 0;
                let mut going = true;
                while let Some(element) = seq.next_element::<&'a RawValue>()? {
                    if going {
                        going = (self.0)(element.get().as_bytes());
                    }
                    count += 1;
                }
                Ok(count)
            }
        }
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        let read = serde::Deserializer::deserialize_seq(&mut deserializer, Elements(each))
            .and_then(|count| deserializer.end().map(|()| count));
        Some(read.map_err(|error| Box::new(super::batch::not_a_batch(&error))))
    }

    fn write_batch(events: &[AnyEvent]) -> Option<Result<Vec<u8>, FormatError>> {
        Some(serde_json::to_vec(events).map_err(FormatError::Json))
    }

    fn validate<R: Report>(bytes: &[u8], policy: &Policy) -> (R, Option<Data>, Option<usize>) {
        let profile = policy.profile();
        // The same reader as `AnyEvent::decode_with`, collecting instead of stopping: the
        // structural findings as it reads, then the policy's envelope check. The walk for
        // members named twice in JSON `data` is left to the validator (`members_at`).
        let mut findings = if walks_members_in_reader() {
            Findings::lenient()
        } else {
            Findings::lenient_deferring_members()
        };
        match read_collecting(bytes, policy, &mut findings) {
            Ok((envelope, data)) => (
                R::read(profile, &envelope.view(), findings.list),
                data,
                findings.members_at,
            ),
            // Refused after the walk was left (text after the event object): read again
            // walking in the reader, so the refusal lists exactly what it always did. Only
            // input that is not one JSON value pays the second read.
            Err(_) if findings.members_at.is_some() => {
                let mut findings = Findings::lenient();
                let read = read_collecting(bytes, policy, &mut findings);
                refused_or_read(read, findings, profile)
            }
            read => refused_or_read(read, findings, profile),
        }
    }
}

/// `Event<T>` read from JSON by the serde_json reader alone: the reader every verdict of
/// [`Json`]'s typed read is held to (`json::fast` hands it every event it does not read).
pub(crate) fn read_typed_through_serde_json<T: CloudEventData + DeserializeOwned>(
    bytes: &[u8],
) -> Result<Event<T>, FormatError> {
    let mut findings = Findings::strict();
    let mut envelope = json::Envelope::default();
    let mut held = json::Held::new(T::EXTENSIONS);
    match json::parse_slice_in_batch(
        bytes,
        &mut envelope,
        TypedData::<T>::default(),
        Some(json::Expected::of::<T>()),
        &Event::<T>::POLICY,
        &mut findings,
        None,
        Some(&mut held),
    ) {
        Ok(data) => Event::from_envelope_holding(envelope, held.as_slice(), data)
            .map_err(FormatError::Invalid),
        Err(error) => Err(crate::event::with_data_pointer::<T>(
            bytes,
            json::into_format_error(error, &mut findings),
        )),
    }
}

/// The validator's read of one event as `AnyEvent::decode_with` reads it, into `findings`:
/// the envelope and the data, or the error that stopped serde_json.
fn read_collecting<'b>(
    bytes: &'b [u8],
    policy: &Policy,
    findings: &mut Findings,
) -> Result<(json::Envelope<'b>, Option<Data>), serde_json::Error> {
    let mut envelope = json::Envelope::default();
    json::parse_slice(
        bytes,
        &mut envelope,
        RawData::default(),
        None,
        policy,
        findings,
    )
    .map(|data| (envelope, data))
}

/// The validator's report on one read of the JSON reader that did not leave its walk.
fn refused_or_read<R: Report>(
    read: Result<(json::Envelope<'_>, Option<Data>), serde_json::Error>,
    mut findings: Findings,
    profile: cloudevent_rules::Profile,
) -> (R, Option<Data>, Option<usize>) {
    match read {
        Ok((envelope, data)) => (
            R::read(profile, &envelope.view(), findings.list),
            data,
            None,
        ),
        Err(error) => {
            // The reader already named a lone surrogate's attribute; anything else that
            // stopped serde_json is reported here.
            match json::string_violation(&error) {
                Some(_) if findings.list.iter().any(|v| v.rule == rule::CE_TYPE_SYSTEM) => {}
                Some(violation) => findings.list.push(violation),
                None => findings.list.push(Violation::error(
                    rule::INTG_R7,
                    "event",
                    "",
                    format!("is not a CloudEvents JSON object: {error}"),
                )),
            }
            (R::refused(profile, findings.list), None, None)
        }
    }
}

// The differential tests' switch lives in the format module, below `validate` in
// ARCHITECTURE.md's order: the reader asks it, the validator reads its answer.
#[cfg(test)]
thread_local! {
    /// The reader walks `data` for members named twice, as before the walk could be skipped:
    /// the differential tests' old path.
    pub(crate) static WALK_IN_READER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the walk for members named twice stays in the JSON reader, never skipped: only
/// under the differential tests' switch.
#[inline(always)]
pub(crate) fn walks_members_in_reader() -> bool {
    #[cfg(test)]
    return WALK_IN_READER.with(std::cell::Cell::get);
    #[cfg(not(test))]
    false
}
