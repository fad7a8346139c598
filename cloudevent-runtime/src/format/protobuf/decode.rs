//! The strict Protobuf reader: the wire read straight into the JSON reader's [`Envelope`],
//! then the one policy check ([`Policy::check_envelope`]) every other door runs.
//!
//! `prost`'s generated decoders follow Protobuf's merge rules, which are lenient by design:
//! an unknown field is skipped, a field given twice keeps the last value, the second member
//! of a `oneof` replaces the first, an `int32` wider than 32 bits is truncated. Each of these
//! would let an event through that another reader sees differently, so this reader walks the
//! wire itself and refuses them, naming the attribute and the rule. The schema is fixed and
//! at most four messages deep (event, attribute entry, attribute value, timestamp); an
//! unknown field is refused before anything inside it is read, so no input nests deeper.

#![allow(
    clippy::result_large_err,
    reason = "a refusal is the cold path, made once per refused input and boxed into FormatError at the module's edge"
)]

use std::borrow::Cow;

use cloudevent_rules::{Mode, Policy, Violation, rule};
use serde_json::value::RawValue;

use super::time;
use crate::any::{AnyEvent, Data};
use crate::extension::ExtensionValueBuf;
use crate::format::Report;
use crate::format::json::{self, Envelope};
use crate::value::{Binary, Uri, UriRef};

const VARINT: u8 = 0;
const LEN: u8 = 2;

/// The names the wire types have in the Protobuf encoding guide.
fn wire_type_name(wire_type: u8) -> &'static str {
    match wire_type {
        0 => "VARINT",
        1 => "I64",
        2 => "LEN",
        3 => "SGROUP",
        4 => "EGROUP",
        5 => "I32",
        _ => "an invalid wire type",
    }
}

fn malformed(
    attribute: impl Into<Cow<'static, str>>,
    problem: impl Into<Cow<'static, str>>,
) -> Violation {
    Violation::error(rule::CE_PROTOBUF, attribute, "", problem)
}

/// A cursor over one message's bytes.
struct Wire<'a> {
    bytes: &'a [u8],
    /// What the message is, for messages about it (`event`, an attribute's name).
    context: &'a str,
}

impl<'a> Wire<'a> {
    /// One varint. Keys, lengths and small values are one byte; that path is inlined into
    /// every caller, the rest is out of line.
    #[inline(always)]
    fn varint(&mut self) -> Result<u64, Violation> {
        if let Some((&byte, rest)) = self.bytes.split_first()
            && byte < 0x80
        {
            self.bytes = rest;
            return Ok(u64::from(byte));
        }
        self.varint_slow()
    }

    #[inline(never)]
    fn varint_slow(&mut self) -> Result<u64, Violation> {
        let mut value = 0_u64;
        for (i, byte) in self.bytes.iter().take(10).enumerate() {
            // The tenth byte may carry only the 64th bit.
            if i == 9 && *byte > 1 {
                break;
            }
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                self.bytes = &self.bytes[i + 1..];
                return Ok(value);
            }
        }
        Err(
            if self.bytes.len() < 10 && self.bytes.iter().all(|b| b & 0x80 != 0) {
                truncated(self.context)
            } else {
                malformed(
                    self.context.to_owned(),
                    "holds a varint longer than 64 bits",
                )
            },
        )
    }

    /// The next field's number and wire type, or `None` at the end of the message.
    #[inline(always)]
    fn key(&mut self) -> Result<Option<(u64, u8)>, Violation> {
        if self.bytes.is_empty() {
            return Ok(None);
        }
        let key = self.varint()?;
        let field = key >> 3;
        if field == 0 || field > u64::from(u32::MAX >> 3) {
            return Err(bad_field_number(self.context, field));
        }
        Ok(Some((field, (key & 7) as u8)))
    }

    #[inline(always)]
    fn len_delimited(&mut self) -> Result<&'a [u8], Violation> {
        let len = self.varint()?;
        match usize::try_from(len)
            .ok()
            .filter(|len| *len <= self.bytes.len())
        {
            Some(len) => {
                let (value, rest) = self.bytes.split_at(len);
                self.bytes = rest;
                Ok(value)
            }
            None => Err(truncated(self.context)),
        }
    }
}

#[cold]
#[inline(never)]
fn bad_field_number(context: &str, field: u64) -> Violation {
    malformed(
        context.to_owned(),
        format!("has a field number {field}, outside 1 to 536870911"),
    )
}

#[cold]
#[inline(never)]
fn truncated(context: &str) -> Violation {
    malformed(
        context.to_owned(),
        "ends in the middle of a field (truncated input)",
    )
}

/// Checks that field `field` has the wire type the schema gives it.
#[inline(always)]
fn expect(context: &str, field: u64, name: &str, found: u8, expected: u8) -> Result<(), Violation> {
    if found == expected {
        Ok(())
    } else {
        Err(wrong_wire_type(context, field, name, found, expected))
    }
}

#[cold]
#[inline(never)]
fn wrong_wire_type(context: &str, field: u64, name: &str, found: u8, expected: u8) -> Violation {
    Violation::error(
        rule::CE_PROTOBUF,
        context.to_owned(),
        format!("field {field} with wire type {}", wire_type_name(found)),
        format!(
            "field {field} (`{name}`) has wire type {}; the schema gives it {}",
            wire_type_name(found),
            wire_type_name(expected)
        ),
    )
}

#[cold]
#[inline(never)]
fn unknown(context: &str, message: &str, field: u64, wire_type: u8) -> Violation {
    Violation::error(
        rule::CE_PROTOBUF,
        context.to_owned(),
        format!("field {field} with wire type {}", wire_type_name(wire_type)),
        format!("field {field} is not a field of `{message}`; unknown fields are refused"),
    )
    .with_hint("both sides must use the CloudEvents Protobuf schema (io.cloudevents.v1)")
}

#[cold]
fn twice(attribute: impl Into<Cow<'static, str>>) -> Violation {
    Violation::error(
        rule::INTG_R7,
        attribute,
        "",
        "appears more than once in the Protobuf message",
    )
    .with_hint("a message must carry each attribute once")
}

#[inline(always)]
fn utf8<'a>(attribute: &str, bytes: &'a [u8]) -> Result<&'a str, Violation> {
    std::str::from_utf8(bytes).map_err(|error| not_utf8(attribute, bytes, error))
}

#[cold]
#[inline(never)]
fn not_utf8(attribute: &str, bytes: &[u8], error: std::str::Utf8Error) -> Violation {
    Violation::error(
        rule::CE_TYPE_SYSTEM,
        attribute.to_owned(),
        format!("{} bytes", bytes.len()),
        format!("is not a String: not UTF-8 ({error})"),
    )
}

/// One `CloudEventAttributeValue`, borrowed from the input.
enum AttributeValue<'a> {
    Boolean(bool),
    Integer(i32),
    String(&'a str),
    Binary(&'a [u8]),
    Uri(&'a str),
    UriReference(&'a str),
    Timestamp(crate::Timestamp),
}

impl AttributeValue<'_> {
    fn member(&self) -> &'static str {
        match self {
            AttributeValue::Boolean(_) => "ce_boolean",
            AttributeValue::Integer(_) => "ce_integer",
            AttributeValue::String(_) => "ce_string",
            AttributeValue::Binary(_) => "ce_bytes",
            AttributeValue::Uri(_) => "ce_uri",
            AttributeValue::UriReference(_) => "ce_uri_ref",
            AttributeValue::Timestamp(_) => "ce_timestamp",
        }
    }

    fn into_extension(self) -> ExtensionValueBuf {
        match self {
            AttributeValue::Boolean(b) => ExtensionValueBuf::Boolean(b),
            AttributeValue::Integer(i) => ExtensionValueBuf::Integer(i),
            AttributeValue::String(s) => ExtensionValueBuf::String(s.to_owned()),
            AttributeValue::Binary(b) => ExtensionValueBuf::Binary(Binary::new(b)),
            // The policy checks URIs and URI-references where it checks every extension.
            AttributeValue::Uri(u) => ExtensionValueBuf::Uri(Uri::new_unchecked(u.to_owned())),
            AttributeValue::UriReference(u) => {
                ExtensionValueBuf::UriReference(UriRef::new_unchecked(u.to_owned()))
            }
            AttributeValue::Timestamp(t) => ExtensionValueBuf::Timestamp(t),
        }
    }
}

const ATTRIBUTE_VALUE: &str = "CloudEventAttributeValue";

fn attribute_value<'a>(name: &'a str, bytes: &'a [u8]) -> Result<AttributeValue<'a>, Violation> {
    let mut wire = Wire {
        bytes,
        context: name,
    };
    let mut value = None;
    while let Some((field, wire_type)) = wire.key()? {
        let member = match field {
            1 => "ce_boolean",
            2 => "ce_integer",
            3 => "ce_string",
            4 => "ce_bytes",
            5 => "ce_uri",
            6 => "ce_uri_ref",
            7 => "ce_timestamp",
            _ => return Err(unknown(name, ATTRIBUTE_VALUE, field, wire_type)),
        };
        expect(
            name,
            field,
            member,
            wire_type,
            if field <= 2 { VARINT } else { LEN },
        )?;
        let read = match field {
            1 => match wire.varint()? {
                0 => AttributeValue::Boolean(false),
                1 => AttributeValue::Boolean(true),
                other => {
                    return Err(Violation::error(
                        rule::CE_TYPE_SYSTEM,
                        name.to_owned(),
                        other.to_string(),
                        "is not a Boolean: ce_boolean must be 0 or 1",
                    ));
                }
            },
            // An int32 is sent as a 64-bit varint, negative values sign-extended.
            2 => {
                let wide = wire.varint()? as i64;
                AttributeValue::Integer(
                    cloudevent_rules::check_integer_value(name, wide.into())
                        .map_err(|violation| *violation)?,
                )
            }
            3 => AttributeValue::String(utf8(name, wire.len_delimited()?)?),
            4 => AttributeValue::Binary(wire.len_delimited()?),
            5 => AttributeValue::Uri(utf8(name, wire.len_delimited()?)?),
            6 => AttributeValue::UriReference(utf8(name, wire.len_delimited()?)?),
            _ => AttributeValue::Timestamp(timestamp(name, wire.len_delimited()?)?),
        };
        if let Some(first) = value.replace(read) {
            return Err(Violation::error(
                rule::CE_TYPE_SYSTEM,
                name.to_owned(),
                format!("{} and {member}", AttributeValue::member(&first)),
                "holds more than one value; an attribute has one value of one type",
            ));
        }
    }
    value.ok_or_else(|| {
        Violation::error(
            rule::CE_TYPE_SYSTEM,
            name.to_owned(),
            "",
            "holds no value (an empty CloudEventAttributeValue)",
        )
        .with_hint("leave an unset attribute out of the map")
    })
}

fn timestamp(name: &str, bytes: &[u8]) -> Result<crate::Timestamp, Violation> {
    let mut wire = Wire {
        bytes,
        context: name,
    };
    let (mut seconds, mut nanos) = (None, None);
    while let Some((field, wire_type)) = wire.key()? {
        let (slot, member) = match field {
            1 => (&mut seconds, "seconds"),
            2 => (&mut nanos, "nanos"),
            _ => return Err(unknown(name, "google.protobuf.Timestamp", field, wire_type)),
        };
        expect(name, field, member, wire_type, VARINT)?;
        let value = wire.varint()? as i64;
        if slot.replace(value).is_some() {
            return Err(twice(format!("{name}.{member}")));
        }
    }
    let nanos = nanos.unwrap_or(0);
    // `nanos` is an int32: a wider value is out of range before it is a nanosecond count.
    let nanos = if i32::try_from(nanos).is_ok() {
        nanos
    } else {
        -1
    };
    time::from_wire(name, seconds.unwrap_or(0), nanos)
}

/// The Any of `proto_data`: its type URL and the message's bytes.
fn any(bytes: &[u8]) -> Result<(&str, &[u8]), Violation> {
    let mut wire = Wire {
        bytes,
        context: "data",
    };
    let (mut type_url, mut value) = (None, None);
    while let Some((field, wire_type)) = wire.key()? {
        match field {
            1 => {
                expect("data", field, "type_url", wire_type, LEN)?;
                let text = utf8("data", wire.len_delimited()?)?;
                if type_url.replace(text).is_some() {
                    return Err(twice("data.type_url"));
                }
            }
            2 => {
                expect("data", field, "value", wire_type, LEN)?;
                if value.replace(wire.len_delimited()?).is_some() {
                    return Err(twice("data.value"));
                }
            }
            _ => return Err(unknown("data", "google.protobuf.Any", field, wire_type)),
        }
    }
    match type_url {
        Some(url) if !url.is_empty() => Ok((url, value.unwrap_or_default())),
        _ => Err(malformed(
            "data",
            "proto_data has no type URL; a google.protobuf.Any names its message type",
        )),
    }
}

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
    fn push(&mut self, violation: Violation) -> Result<(), Violation> {
        if self.strict && violation.is_error() {
            return Err(violation);
        }
        self.list.push(violation);
        Ok(())
    }
}

/// Reads one `CloudEvent` message's fields into an envelope (all but `time`, which the
/// caller borrows from `time`) and its data, before any CloudEvents check.
fn read_wire<'a>(
    bytes: &'a [u8],
    time: &mut Option<crate::Timestamp>,
    sink: &mut Found,
) -> Result<(Envelope<'a>, Option<WireData<'a>>), Violation> {
    let mut wire = Wire {
        bytes,
        context: "event",
    };
    let mut envelope = Envelope::default();
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
                match utf8(name, wire.len_delimited()?) {
                    Ok(_) if slot.is_some() => sink.push(twice(name))?,
                    Ok(text) => *slot = Some(Cow::Borrowed(text)),
                    Err(violation) => sink.push(violation)?,
                }
            }
            5 => {
                expect("event", field, "attributes", wire_type, LEN)?;
                if let Err(violation) = attribute(&mut envelope, time, wire.len_delimited()?) {
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
                    _ => any(bytes).map(|(type_url, value)| WireData::Proto(type_url, value)),
                };
                match read {
                    Ok(_) if data.is_some() => sink.push(Violation::error(
                        rule::INTG_R7,
                        "data",
                        "",
                        "is present more than once (binary_data, text_data, proto_data); an event carries one data",
                    ))?,
                    Ok(read) => data = Some(read),
                    Err(violation) => sink.push(violation)?,
                }
            }
            _ => return Err(unknown("event", "CloudEvent", field, wire_type)),
        }
    }
    Ok((envelope, data))
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
) -> Result<(Option<Data>, Option<String>), Violation> {
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
) -> Result<AnyEvent, Violation> {
    // `time` arrives as seconds and nanos; its text lives here, for the envelope to borrow.
    let mut time = None;
    let mut sink = Found {
        strict: true,
        list: Vec::new(),
    };
    let (mut envelope, data) = read_wire(bytes, &mut time, &mut sink)?;
    envelope.time = time
        .as_ref()
        .map(|t: &crate::Timestamp| Cow::Borrowed(t.as_str()));
    if let (Some(json::Expected { ty: expected, .. }), Some(found)) =
        (expected_type, envelope.ty.as_deref())
    {
        if found != expected {
            return Err(json::type_mismatch(expected, found));
        }
    }
    // The JSON reader's policy check, over the one view of the attributes.
    let attributes = cloudevent_rules::Envelope {
        data: data_size(data.as_ref()),
        ..envelope.view()
    };
    let found = json::check_envelope(policy, &attributes, Mode::FirstError, expected_type, memo);
    if let Some(error) = found.into_iter().find(Violation::is_error) {
        return Err(error);
    }
    let (data, type_url) = into_data(envelope.datacontenttype.as_deref(), data)?;
    let mut event = AnyEvent::from_envelope(envelope, data);
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
    let (mut envelope, data) = match read_wire(bytes, &mut time, &mut sink) {
        Ok(read) => read,
        Err(structural) => {
            sink.list.push(structural);
            return (R::refused(profile, sink.list), None);
        }
    };
    envelope.time = time
        .as_ref()
        .map(|t: &crate::Timestamp| Cow::Borrowed(t.as_str()));
    let mut found = sink.list;
    let view = cloudevent_rules::Envelope {
        data: data_size(data.as_ref()),
        ..envelope.view()
    };
    found.extend(policy.check_envelope(&view, Mode::Collect));
    let (data, type_url) = match into_data(envelope.datacontenttype.as_deref(), data) {
        Ok(read) => read,
        Err(violation) => {
            found.push(violation);
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
fn text_data(datacontenttype: Option<&str>, text: &str) -> Result<Data, Violation> {
    if !json::is_json(datacontenttype) {
        return Ok(Data::Text(text.to_owned()));
    }
    match RawValue::from_string(text.to_owned()) {
        Ok(raw) => Ok(Data::Json(raw)),
        Err(_) if datacontenttype.is_none() => Ok(Data::Text(text.to_owned())),
        Err(error) => Err(json::data_violation(format!(
            "text_data is not JSON, but datacontenttype `{}` is JSON: {error}",
            datacontenttype.unwrap_or_default()
        ))),
    }
}

/// One entry of the `attributes` map, into its slot of the envelope.
fn attribute<'a>(
    envelope: &mut Envelope<'a>,
    time: &mut Option<crate::Timestamp>,
    bytes: &'a [u8],
) -> Result<(), Violation> {
    let mut wire = Wire {
        bytes,
        context: "attributes",
    };
    let (mut key, mut value) = (None, None);
    while let Some((field, wire_type)) = wire.key()? {
        match field {
            1 => {
                expect("attributes", field, "key", wire_type, LEN)?;
                let text = utf8("attributes", wire.len_delimited()?)?;
                if key.replace(text).is_some() {
                    return Err(twice("attributes.key"));
                }
            }
            2 => {
                expect("attributes", field, "value", wire_type, LEN)?;
                if value.replace(wire.len_delimited()?).is_some() {
                    return Err(twice("attributes.value"));
                }
            }
            _ => {
                return Err(unknown(
                    "attributes",
                    "CloudEvent.AttributesEntry",
                    field,
                    wire_type,
                ));
            }
        }
    }
    let name = key.unwrap_or_default();
    let value = attribute_value(name, value.unwrap_or_default())?;
    let core = |slot: &mut Option<Cow<'a, str>>, text: &'a str| {
        if slot.replace(Cow::Borrowed(text)).is_some() {
            Err(twice(name.to_owned()))
        } else {
            Ok(())
        }
    };
    match (name, value) {
        ("id" | "source" | "specversion" | "type", _) => Err(Violation::error(
            rule::INTG_R7,
            name.to_owned(),
            "",
            "is a field of the CloudEvent message and cannot also be in `attributes`",
        )),
        ("datacontenttype", AttributeValue::String(text)) => {
            core(&mut envelope.datacontenttype, text)
        }
        ("subject", AttributeValue::String(text)) => core(&mut envelope.subject, text),
        ("dataschema", AttributeValue::Uri(text)) => core(&mut envelope.dataschema, text),
        ("time", AttributeValue::Timestamp(value)) => {
            if time.replace(value).is_some() {
                return Err(twice("time"));
            }
            Ok(())
        }
        (
            "datacontenttype" | "subject" | "dataschema" | "time",
            other @ (AttributeValue::Boolean(_)
            | AttributeValue::Integer(_)
            | AttributeValue::String(_)
            | AttributeValue::Binary(_)
            | AttributeValue::Uri(_)
            | AttributeValue::UriReference(_)
            | AttributeValue::Timestamp(_)),
        ) => {
            let expected = match name {
                "dataschema" => "ce_uri",
                "time" => "ce_timestamp",
                _ => "ce_string",
            };
            Err(Violation::error(
                rule::CE_TYPE_SYSTEM,
                name.to_owned(),
                other.member(),
                format!(
                    "is {}; the Protobuf format carries `{name}` as {expected}",
                    other.member()
                ),
            ))
        }
        (_, value) => {
            if envelope
                .extensions
                .try_insert_new(name.to_owned(), value.into_extension())
            {
                Ok(())
            } else {
                Err(twice(name.to_owned()))
            }
        }
    }
}

/// Hands `each` the events of a `CloudEventBatch` message, each still encoded, until it
/// returns `false`; the rest are checked and counted. The number of events.
pub(super) fn each_in_batch<'a>(
    bytes: &'a [u8],
    each: &mut dyn FnMut(&'a [u8]) -> bool,
) -> Result<usize, Violation> {
    let mut wire = Wire {
        bytes,
        context: "batch",
    };
    let mut count = 0;
    let mut going = true;
    while let Some((field, wire_type)) = wire.key()? {
        if field != 1 {
            return Err(unknown("batch", "CloudEventBatch", field, wire_type));
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
