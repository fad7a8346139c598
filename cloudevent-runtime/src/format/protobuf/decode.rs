//! The strict Protobuf reader: the wire read straight into the JSON reader's [`Envelope`],
//! then the one policy check ([`Policy::check_envelope`]) every other door runs.
//!
//! `prost`'s generated decoders follow Protobuf's merge rules: an unknown field is skipped, a
//! scalar field given twice keeps the last value, the second member of a `oneof` replaces the
//! first, an `int32` wider than 32 bits is truncated. This reader follows the first two (a
//! producer on a newer `cloudevents.proto` is not refused outright; a skipped field is a
//! warning under the profiles whose policy reports it) and refuses the others, and an
//! attribute twice in the `attributes` map, naming the attribute and the rule, because each
//! would let an event through that another reader sees differently. The schema is fixed and
//! at most four messages deep (event, attribute entry, attribute value, timestamp); a group
//! (which proto3 never writes) is refused before anything inside it is read, and an unknown
//! length-delimited field is skipped without being read, so no input nests deeper.
//!
//! `wire.rs` is the cursor over the wire and the violations every message shares,
//! `attribute.rs` the messages inside a `CloudEvent` (a map entry, its value, a timestamp,
//! the `Any` of `proto_data`); this file the event and the batch.

use std::borrow::Cow;

use cloudevent_rules::{Mode, Policy, Violation, rule};
use serde_json::value::RawValue;

use crate::any::{AnyEvent, Data};
use crate::format::Report;
use crate::format::json::{self, Envelope};

mod attribute;
mod wire;

use attribute::{any, attribute};
use wire::{LEN, Refusal, Wire, expect, utf8};

/// The data as read, before `datacontenttype` is final.
enum WireData<'a> {
    Binary(&'a [u8]),
    Text(&'a str),
    Proto(&'a str, &'a [u8]),
}

/// Where the reader puts what it finds: the strict reader stops at the first error, the
/// validator's reader collects them all and goes on. A structural error (truncated input, an
/// unknown field, a wrong wire type) stops both: nothing after it can be read. An error
/// inside one length-delimited field (an attribute entry, a string that is not UTF-8, a
/// field or attribute given twice) stops only the strict reader; the validator skips the
/// field and reads on.
struct Found {
    strict: bool,
    list: Vec<Violation>,
}

impl Found {
    /// Only ever called with something found, never on a valid event's path: out of line, so
    /// the reader's loop keeps its hot code together (issue 40, the L1i footprint).
    #[cold]
    #[inline(never)]
    fn push(&mut self, violation: Refusal) -> Result<(), Refusal> {
        if self.strict && violation.is_error() {
            return Err(violation);
        }
        self.list.push(*violation);
        Ok(())
    }
}

/// Reads one `CloudEvent` message's fields into the caller's `envelope` (all but `time`,
/// which the caller borrows from `time`; filled in place, not returned through memory) and
/// returns its data, before any CloudEvents check.
fn read_wire<'a>(
    bytes: &'a [u8],
    envelope: &mut Envelope<'a>,
    time: &mut Option<crate::Timestamp>,
    sink: &mut Found,
    skipped: &mut Vec<Violation>,
) -> Result<Option<WireData<'a>>, Refusal> {
    let mut wire = Wire {
        bytes,
        context: "event",
    };
    let mut data = None;
    while let Some((field, wire_type)) = wire.key()? {
        match field {
            1..=4 => {
                let (name, slot) = match field {
                    1 => ("id", &mut envelope.id),
                    2 => ("source", &mut envelope.source),
                    3 => ("specversion", &mut envelope.specversion),
                    _ => ("type", &mut envelope.ty),
                };
                expect("event", field, name, wire_type, LEN)?;
                // A scalar field given twice keeps its last value (Protobuf's merge rule).
                match utf8(name, wire.len_delimited()?) {
                    Ok(text) => *slot = Some(Cow::Borrowed(text)),
                    Err(violation) => sink.push(violation)?,
                }
            }
            5 => {
                expect("event", field, "attributes", wire_type, LEN)?;
                if let Err(violation) = attribute(envelope, time, wire.len_delimited()?, skipped) {
                    sink.push(violation)?;
                }
            }
            6..=8 => {
                let member = ["binary_data", "text_data", "proto_data"][(field - 6) as usize];
                expect("event", field, member, wire_type, LEN)?;
                let bytes = wire.len_delimited()?;
                let read = match field {
                    6 => Ok(WireData::Binary(bytes)),
                    7 => utf8("data", bytes).map(WireData::Text),
                    _ => any(bytes, skipped)
                        .map(|(type_url, value)| WireData::Proto(type_url, value)),
                };
                match read {
                    Ok(_) if data.is_some() => sink.push(data_twice())?,
                    Ok(read) => data = Some(read),
                    Err(violation) => sink.push(violation)?,
                }
            }
            _ => wire = wire.skip("CloudEvent", field, wire_type, skipped)?,
        }
    }
    Ok(data)
}

#[cold]
#[inline(never)]
fn data_twice() -> Refusal {
    Box::new(Violation::error(
        rule::INTG_R7,
        "data",
        "",
        "is present more than once (binary_data, text_data, proto_data); an event carries one data",
    ))
}

/// The type URL of `proto_data`, for the policy's `dataschema` rule.
fn data_type_url<'a>(data: Option<&WireData<'a>>) -> Option<&'a str> {
    match data {
        Some(WireData::Proto(url, _)) => Some(*url),
        _ => None,
    }
}

/// The size of the data as read, for the policy's size rules.
fn data_size(data: Option<&WireData<'_>>) -> Option<usize> {
    data.map(|data| match data {
        WireData::Binary(bytes) | WireData::Proto(_, bytes) => bytes.len(),
        WireData::Text(text) => text.len(),
    })
}

/// The data as the event holds it, and the type URL of `proto_data`.
fn into_data(
    datacontenttype: Option<&str>,
    data: Option<WireData<'_>>,
) -> Result<(Option<Data>, Option<String>), Refusal> {
    Ok(match data {
        None => (None, None),
        Some(WireData::Binary(bytes)) => (Some(Data::Binary(bytes.to_vec())), None),
        Some(WireData::Proto(url, bytes)) => {
            (Some(Data::Binary(bytes.to_vec())), Some(url.to_owned()))
        }
        Some(WireData::Text(text)) => (Some(text_data(datacontenttype, text)?), None),
    })
}

/// Reads one `CloudEvent` message strictly, then runs the policy's envelope check.
pub(super) fn read_event(
    bytes: &[u8],
    policy: &Policy,
    expected_type: Option<json::Expected>,
    memo: Option<&mut json::BatchMemo>,
) -> Result<AnyEvent, Refusal> {
    // `time` arrives as seconds and nanos; its text lives here, for the view to borrow.
    let mut time = None;
    let mut sink = Found {
        strict: true,
        list: Vec::new(),
    };
    // Skipped fields are warnings: the reader, which stops at errors only, passes them.
    let mut envelope = Envelope::default();
    let data = read_wire(bytes, &mut envelope, &mut time, &mut sink, &mut Vec::new())?;
    if let (Some(json::Expected { ty: expected, .. }), Some(found)) =
        (expected_type, envelope.ty.as_deref())
        && found != expected
    {
        return Err(boxed(json::type_mismatch(expected, found)));
    }
    // `time`'s text was written here from an in-range `google.protobuf.Timestamp`
    // (`time::from_wire`, the only way into `time`): its checks find nothing on it. The view
    // borrows it from the `Timestamp`, which moves into the event after the check; the
    // envelope's own `time` stays empty.
    let written_time = time.as_ref().map(crate::Timestamp::as_str);
    // The JSON reader's policy check, over the one view of the attributes.
    let attributes = cloudevent_rules::Envelope {
        data: data_size(data.as_ref()),
        data_type_url: data_type_url(data.as_ref()),
        time: written_time,
        ..envelope.view()
    };
    let found = json::check_envelope(
        policy,
        &attributes,
        Mode::FirstError,
        expected_type,
        memo,
        written_time,
    );
    // A valid event's check finds nothing: the search for its error, and the drop of what
    // it found, are out of line.
    if !found.is_empty()
        && let Some(error) = first_error(found)
    {
        return Err(error);
    }
    let (data, type_url) = into_data(envelope.datacontenttype.as_deref(), data)?;
    // The checked `time` is the `Timestamp` read from the wire, moved into the event.
    let mut event = AnyEvent::from_envelope(envelope, data);
    event.time = time;
    event.protobuf_type_url = type_url;
    Ok(event)
}

/// The validator's read of one `CloudEvent` message: the same reader, collecting every
/// finding (the fields' and the policy's) instead of stopping at the first, and the data
/// it read.
pub(super) fn validate_event<R: Report>(bytes: &[u8], policy: &Policy) -> (R, Option<Data>) {
    let profile = policy.profile();
    let mut time = None;
    let mut sink = Found {
        strict: false,
        list: Vec::new(),
    };
    let mut skipped = Vec::new();
    let mut envelope = Envelope::default();
    let read = read_wire(bytes, &mut envelope, &mut time, &mut sink, &mut skipped);
    if policy.reports_skipped_fields() {
        sink.list.append(&mut skipped);
    }
    let data = match read {
        Ok(read) => read,
        Err(structural) => {
            sink.list.push(*structural);
            return (R::refused(profile, sink.list), None);
        }
    };
    envelope.time = time
        .as_ref()
        .map(|t: &crate::Timestamp| Cow::Borrowed(t.as_str()));
    let mut found = sink.list;
    let view = cloudevent_rules::Envelope {
        data: data_size(data.as_ref()),
        data_type_url: data_type_url(data.as_ref()),
        ..envelope.view()
    };
    found.extend(policy.check_envelope(&view, Mode::Collect));
    let (data, type_url) = match into_data(envelope.datacontenttype.as_deref(), data) {
        Ok(read) => read,
        Err(violation) => {
            found.push(*violation);
            (None, None)
        }
    };
    let mut report = R::read(profile, &view, found);
    report.protobuf_type_url(type_url);
    (report, data)
}

/// `text_data` under a JSON `datacontenttype` is JSON text and must parse as JSON; with no
/// `datacontenttype` it is JSON when it parses (absent means `application/json`, CE-JSON
/// 3.1), text otherwise; under any other type it is text.
fn text_data(datacontenttype: Option<&str>, text: &str) -> Result<Data, Refusal> {
    if !json::is_json(datacontenttype) {
        return Ok(Data::Text(text.to_owned()));
    }
    match RawValue::from_string(text.to_owned()) {
        Ok(raw) => Ok(Data::Json(raw)),
        Err(_) if datacontenttype.is_none() => Ok(Data::Text(text.to_owned())),
        Err(error) => Err(not_json(datacontenttype, &error)),
    }
}

#[cold]
#[inline(never)]
fn not_json(datacontenttype: Option<&str>, error: &serde_json::Error) -> Refusal {
    Box::new(json::data_violation(format!(
        "text_data is not JSON, but datacontenttype `{}` is JSON: {error}",
        datacontenttype.unwrap_or_default()
    )))
}

/// The first error the policy found, if any (a finding may be a warning alone), boxed as
/// the reader carries a refusal.
#[cold]
#[inline(never)]
fn first_error(found: Vec<Violation>) -> Option<Refusal> {
    found.into_iter().find(Violation::is_error).map(Box::new)
}

/// A refusal found outside the reader (the expected `type`'s), boxed as the reader carries
/// it; out of line, never on a valid event's path.
#[cold]
#[inline(never)]
fn boxed(violation: Violation) -> Refusal {
    Box::new(violation)
}

/// Hands `each` the events of a `CloudEventBatch` message, each still encoded, until it
/// returns `false`; the rest are checked and counted. The number of events.
pub(super) fn each_in_batch<'a>(
    bytes: &'a [u8],
    each: &mut dyn FnMut(&'a [u8]) -> bool,
) -> Result<usize, Refusal> {
    let mut wire = Wire {
        bytes,
        context: "batch",
    };
    let mut count = 0;
    let mut going = true;
    while let Some((field, wire_type)) = wire.key()? {
        if field != 1 {
            // A batch has no finding list of its own: a skipped field is not reported.
            wire = wire.skip("CloudEventBatch", field, wire_type, &mut Vec::new())?;
            continue;
        }
        expect("batch", field, "events", wire_type, LEN)?;
        let event = wire.len_delimited()?;
        if going {
            going = each(event);
        }
        count += 1;
    }
    Ok(count)
}
