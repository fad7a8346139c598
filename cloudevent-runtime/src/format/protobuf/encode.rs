//! The Protobuf writer: an [`AnyEvent`] written as a `CloudEvent` message straight from its
//! fields, with every length known before it is written, so the output is allocated once and
//! nothing is copied into an intermediate message. The bytes are those `prost` writes for the
//! same message ([`super::messages`]; a property test holds the two together): fields in
//! number order, map entries in key order.

use super::time;
use crate::any::{AnyEvent, Data};
use crate::extension::ExtensionValue;
use crate::value::Timestamp;

const VARINT: u64 = 0;
const LEN: u64 = 2;

fn varint_len(value: u64) -> usize {
    // One byte per started 7 bits; 0 takes one byte.
    (64 - (value | 1).leading_zeros() as usize).div_ceil(7)
}

fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn key_len(field: u64) -> usize {
    varint_len(field << 3)
}

fn put_key(out: &mut Vec<u8>, field: u64, wire_type: u64) {
    put_varint(out, (field << 3) | wire_type);
}

/// The size of a length-delimited field holding `len` bytes.
fn len_field(field: u64, len: usize) -> usize {
    key_len(field) + varint_len(len as u64) + len
}

fn put_bytes(out: &mut Vec<u8>, field: u64, bytes: &[u8]) {
    put_key(out, field, LEN);
    put_varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// An attribute value as the writer sees it: an extension's, or an optional core
/// attribute's in the type the Protobuf format gives it.
#[derive(Clone, Copy)]
enum Value<'a> {
    Extension(ExtensionValue<'a>),
    /// `time`, as the instant it names (computed once per event).
    Time((i64, i32)),
}

fn timestamp_len(seconds: i64, nanos: i32) -> usize {
    let mut len = 0;
    if seconds != 0 {
        len += key_len(1) + varint_len(seconds as u64);
    }
    if nanos != 0 {
        len += key_len(2) + varint_len(i64::from(nanos) as u64);
    }
    len
}

fn put_timestamp(out: &mut Vec<u8>, field: u64, (seconds, nanos): (i64, i32)) {
    put_key(out, field, LEN);
    put_varint(out, timestamp_len(seconds, nanos) as u64);
    if seconds != 0 {
        put_key(out, 1, VARINT);
        put_varint(out, seconds as u64);
    }
    if nanos != 0 {
        put_key(out, 2, VARINT);
        put_varint(out, i64::from(nanos) as u64);
    }
}

/// The instant of a timestamp. A [`Timestamp`] is checked RFC 3339 text, which always has
/// one; the epoch stands in for the impossible case rather than a panic.
fn instant(timestamp: &Timestamp) -> (i64, i32) {
    time::to_wire(timestamp.as_str()).unwrap_or((0, 0))
}

/// The size of a `CloudEventAttributeValue` message's content.
fn value_len(value: Value<'_>) -> usize {
    match value {
        Value::Extension(ExtensionValue::Boolean(b)) => key_len(1) + varint_len(u64::from(b)),
        Value::Extension(ExtensionValue::Integer(i)) => {
            key_len(2) + varint_len(i64::from(i) as u64)
        }
        Value::Extension(ExtensionValue::String(s)) => len_field(3, s.len()),
        Value::Extension(ExtensionValue::Binary(b)) => len_field(4, b.len()),
        Value::Extension(ExtensionValue::Uri(s)) => len_field(5, s.len()),
        Value::Extension(ExtensionValue::UriReference(s)) => len_field(6, s.len()),
        Value::Extension(ExtensionValue::Timestamp(text)) => {
            let (seconds, nanos) = time::to_wire(text).unwrap_or((0, 0));
            len_field(7, timestamp_len(seconds, nanos))
        }
        Value::Time((seconds, nanos)) => len_field(7, timestamp_len(seconds, nanos)),
    }
}

fn put_value(out: &mut Vec<u8>, value: Value<'_>) {
    match value {
        Value::Extension(ExtensionValue::Boolean(b)) => {
            put_key(out, 1, VARINT);
            put_varint(out, u64::from(b));
        }
        Value::Extension(ExtensionValue::Integer(i)) => {
            put_key(out, 2, VARINT);
            put_varint(out, i64::from(i) as u64);
        }
        Value::Extension(ExtensionValue::String(s)) => put_bytes(out, 3, s.as_bytes()),
        Value::Extension(ExtensionValue::Binary(b)) => put_bytes(out, 4, b),
        Value::Extension(ExtensionValue::Uri(s)) => put_bytes(out, 5, s.as_bytes()),
        Value::Extension(ExtensionValue::UriReference(s)) => put_bytes(out, 6, s.as_bytes()),
        Value::Extension(ExtensionValue::Timestamp(text)) => {
            let wire = time::to_wire(text).unwrap_or((0, 0));
            put_timestamp(out, 7, wire);
        }
        Value::Time(wire) => put_timestamp(out, 7, wire),
    }
}

fn entry_len(name: &str, value: Value<'_>) -> usize {
    len_field(1, name.len()) + len_field(2, value_len(value))
}

fn put_entry(out: &mut Vec<u8>, name: &str, value: Value<'_>) {
    let value_len = value_len(value);
    put_key(out, 5, LEN);
    put_varint(
        out,
        (len_field(1, name.len()) + len_field(2, value_len)) as u64,
    );
    put_bytes(out, 1, name.as_bytes());
    put_key(out, 2, LEN);
    put_varint(out, value_len as u64);
    put_value(out, value);
}

/// Calls `f` with the attributes map's entries in key order (a `BTreeMap`'s, as `prost`
/// writes one): the optional core attributes merged into the extensions, which are already
/// in key order and never share their names.
fn for_each_entry<'a>(
    event: &'a AnyEvent,
    time: Option<(i64, i32)>,
    mut f: impl FnMut(&'a str, Value<'a>),
) {
    let string = |s: &'a Option<String>| s.as_deref().map(ExtensionValue::String);
    let core: [(&str, Option<Value<'a>>); 4] = [
        (
            "datacontenttype",
            string(&event.datacontenttype).map(Value::Extension),
        ),
        (
            "dataschema",
            event
                .dataschema
                .as_deref()
                .map(|s| Value::Extension(ExtensionValue::Uri(s))),
        ),
        ("subject", string(&event.subject).map(Value::Extension)),
        ("time", time.map(Value::Time)),
    ];
    let mut next = 0;
    for (name, value) in event.extensions.iter() {
        while let Some((core_name, core_value)) = core.get(next).filter(|(n, _)| *n < name) {
            if let Some(value) = core_value {
                f(core_name, *value);
            }
            next += 1;
        }
        f(name, Value::Extension(value.as_value()));
    }
    for (core_name, core_value) in &core[next..] {
        if let Some(value) = core_value {
            f(core_name, *value);
        }
    }
}

/// The size of `data`'s field.
fn data_len(event: &AnyEvent) -> usize {
    match (&event.data, &event.protobuf_type_url) {
        (None, _) => 0,
        (Some(Data::Binary(bytes)), Some(url)) => {
            len_field(8, len_field(1, url.len()) + len_field(2, bytes.len()))
        }
        (Some(Data::Binary(bytes)), None) => len_field(6, bytes.len()),
        (Some(Data::Json(raw)), _) => len_field(7, raw.get().len()),
        (Some(Data::Text(text)), _) => len_field(7, text.len()),
    }
}

/// The event's `time` as the instant the writer sends: computed once, used by [`event_len`]
/// and [`put_event`].
pub(super) fn time_of(event: &AnyEvent) -> Option<(i64, i32)> {
    event.time.as_ref().map(instant)
}

/// The size of the event's message.
pub(super) fn event_len(event: &AnyEvent, time: Option<(i64, i32)>) -> usize {
    let mut entries = 0;
    for_each_entry(event, time, |name, value| {
        entries += len_field(5, entry_len(name, value));
    });
    len_field(1, event.id.len())
        + len_field(2, event.source.len())
        + len_field(3, 3)
        + len_field(4, event.ty.len())
        + entries
        + data_len(event)
}

/// Writes the event's message (without a length prefix).
pub(super) fn put_event(out: &mut Vec<u8>, event: &AnyEvent, time: Option<(i64, i32)>) {
    put_bytes(out, 1, event.id.as_bytes());
    put_bytes(out, 2, event.source.as_bytes());
    put_bytes(out, 3, b"1.0");
    put_bytes(out, 4, event.ty.as_bytes());
    for_each_entry(event, time, |name, value| put_entry(out, name, value));
    match (&event.data, &event.protobuf_type_url) {
        (None, _) => {}
        (Some(Data::Binary(bytes)), Some(url)) => {
            put_key(out, 8, LEN);
            put_varint(
                out,
                (len_field(1, url.len()) + len_field(2, bytes.len())) as u64,
            );
            put_bytes(out, 1, url.as_bytes());
            put_bytes(out, 2, bytes);
        }
        (Some(Data::Binary(bytes)), None) => put_bytes(out, 6, bytes),
        (Some(Data::Json(raw)), _) => put_bytes(out, 7, raw.get().as_bytes()),
        (Some(Data::Text(text)), _) => put_bytes(out, 7, text.as_bytes()),
    }
}

/// Writes a `CloudEventBatch` message.
pub(super) fn put_batch(out: &mut Vec<u8>, events: &[AnyEvent]) {
    let sized: Vec<(Option<(i64, i32)>, usize)> = events
        .iter()
        .map(|event| {
            let time = time_of(event);
            (time, event_len(event, time))
        })
        .collect();
    out.reserve(sized.iter().map(|(_, len)| len_field(1, *len)).sum());
    for (event, (time, len)) in events.iter().zip(sized) {
        put_key(out, 1, LEN);
        put_varint(out, len as u64);
        put_event(out, event, time);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_lengths_match_the_written_bytes() {
        for value in [
            0,
            1,
            127,
            128,
            16_383,
            16_384,
            u64::from(u32::MAX),
            u64::MAX,
        ] {
            let mut out = Vec::new();
            put_varint(&mut out, value);
            assert_eq!(out.len(), varint_len(value), "{value}");
        }
    }
}
