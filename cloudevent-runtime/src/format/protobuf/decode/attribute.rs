//! The messages inside a `CloudEvent`: an entry of the `attributes` map, its
//! `CloudEventAttributeValue`, a `google.protobuf.Timestamp` and the `google.protobuf.Any` of
//! `proto_data`. A scalar field given twice keeps its last value (Protobuf's merge rule); an
//! attribute twice in the map, or a value with two members, is refused.

use std::borrow::Cow;

use cloudevent_rules::{Violation, rule};

use super::super::time;
use super::wire::{LEN, Refusal, VARINT, Wire, expect, malformed, twice, utf8};
use crate::extension::ExtensionValueBuf;
use crate::format::json::Envelope;
use crate::value::{Binary, Uri, UriRef};

/// One `CloudEventAttributeValue`, borrowed from the input.
pub(super) enum AttributeValue<'a> {
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
            AttributeValue::String(s) => ExtensionValueBuf::String(s.to_owned()),
            other => other.into_other_extension(),
        }
    }

    /// [`AttributeValue::into_extension`] of every kind but String, out of line: most
    /// extensions are Strings, and the other kinds' code stays out of the reader's loop.
    #[inline(never)]
    fn into_other_extension(self) -> ExtensionValueBuf {
        match self {
            AttributeValue::Boolean(b) => ExtensionValueBuf::Boolean(b),
            AttributeValue::Integer(i) => ExtensionValueBuf::Integer(i),
            AttributeValue::String(s) => ExtensionValueBuf::String(s.to_owned()),
            AttributeValue::Binary(b) => ExtensionValueBuf::Binary(Binary::from(b)),
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

pub(super) fn attribute_value<'a>(
    name: &'a str,
    bytes: &'a [u8],
    skipped: &mut Vec<Violation>,
) -> Result<AttributeValue<'a>, Refusal> {
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
            _ => {
                wire = wire.skip(ATTRIBUTE_VALUE, field, wire_type, skipped)?;
                continue;
            }
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
                other => return Err(not_boolean(name, other)),
            },
            // An int32 is sent as a 64-bit varint, negative values sign-extended.
            2 => {
                let wide = wire.varint()? as i64;
                AttributeValue::Integer(cloudevent_rules::check_integer_value(name, wide.into())?)
            }
            3 => AttributeValue::String(utf8(name, wire.len_delimited()?)?),
            4 => AttributeValue::Binary(wire.len_delimited()?),
            5 => AttributeValue::Uri(utf8(name, wire.len_delimited()?)?),
            6 => AttributeValue::UriReference(utf8(name, wire.len_delimited()?)?),
            _ => AttributeValue::Timestamp(timestamp(name, wire.len_delimited()?, skipped)?),
        };
        if let Some(first) = value.replace(read) {
            return Err(two_values(name, first.member(), member));
        }
    }
    value.ok_or_else(|| no_value(name))
}

// The refusals of an attribute value, out of line: never on a valid event's path.

#[cold]
#[inline(never)]
fn not_boolean(name: &str, found: u64) -> Refusal {
    Box::new(Violation::error(
        rule::CE_TYPE_SYSTEM,
        name.to_owned(),
        found.to_string(),
        "is not a Boolean: ce_boolean must be 0 or 1",
    ))
}

#[cold]
#[inline(never)]
fn two_values(name: &str, first: &str, member: &str) -> Refusal {
    Box::new(Violation::error(
        rule::CE_TYPE_SYSTEM,
        name.to_owned(),
        format!("{first} and {member}"),
        "holds more than one value; an attribute has one value of one type",
    ))
}

#[cold]
#[inline(never)]
fn no_value(name: &str) -> Refusal {
    Box::new(
        Violation::error(
            rule::CE_TYPE_SYSTEM,
            name.to_owned(),
            "",
            "holds no value (an empty CloudEventAttributeValue)",
        )
        .with_hint("leave an unset attribute out of the map"),
    )
}

#[cold]
#[inline(never)]
fn twice_named(name: &str) -> Refusal {
    twice(name.to_owned())
}

#[cold]
#[inline(never)]
fn a_field_in_attributes(name: &str) -> Refusal {
    Box::new(Violation::error(
        rule::INTG_R7,
        name.to_owned(),
        "",
        "is a field of the CloudEvent message and cannot also be in `attributes`",
    ))
}

#[cold]
#[inline(never)]
fn wrong_kind(name: &str, found: &'static str) -> Refusal {
    let expected = match name {
        "dataschema" => "ce_uri",
        "time" => "ce_timestamp",
        _ => "ce_string",
    };
    Box::new(Violation::error(
        rule::CE_TYPE_SYSTEM,
        name.to_owned(),
        found,
        format!("is {found}; the Protobuf format carries `{name}` as {expected}"),
    ))
}

fn timestamp(
    name: &str,
    bytes: &[u8],
    skipped: &mut Vec<Violation>,
) -> Result<crate::Timestamp, Refusal> {
    let mut wire = Wire {
        bytes,
        context: name,
    };
    let (mut seconds, mut nanos) = (None, None);
    while let Some((field, wire_type)) = wire.key()? {
        let (slot, member) = match field {
            1 => (&mut seconds, "seconds"),
            2 => (&mut nanos, "nanos"),
            _ => {
                wire = wire.skip("google.protobuf.Timestamp", field, wire_type, skipped)?;
                continue;
            }
        };
        expect(name, field, member, wire_type, VARINT)?;
        *slot = Some(wire.varint()? as i64);
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
pub(super) fn any<'a>(
    bytes: &'a [u8],
    skipped: &mut Vec<Violation>,
) -> Result<(&'a str, &'a [u8]), Refusal> {
    let mut wire = Wire {
        bytes,
        context: "data",
    };
    let (mut type_url, mut value) = (None, None);
    while let Some((field, wire_type)) = wire.key()? {
        match field {
            1 => {
                expect("data", field, "type_url", wire_type, LEN)?;
                type_url = Some(utf8("data", wire.len_delimited()?)?);
            }
            2 => {
                expect("data", field, "value", wire_type, LEN)?;
                value = Some(wire.len_delimited()?);
            }
            _ => wire = wire.skip("google.protobuf.Any", field, wire_type, skipped)?,
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

/// One entry of the `attributes` map, into its slot of the envelope.
pub(super) fn attribute<'a>(
    envelope: &mut Envelope<'a>,
    time: &mut Option<crate::Timestamp>,
    bytes: &'a [u8],
    skipped: &mut Vec<Violation>,
) -> Result<(), Refusal> {
    let mut wire = Wire {
        bytes,
        context: "attributes",
    };
    let (mut key, mut value) = (None, None);
    while let Some((field, wire_type)) = wire.key()? {
        match field {
            1 => {
                expect("attributes", field, "key", wire_type, LEN)?;
                key = Some(utf8("attributes", wire.len_delimited()?)?);
            }
            2 => {
                expect("attributes", field, "value", wire_type, LEN)?;
                value = Some(wire.len_delimited()?);
            }
            _ => wire = wire.skip("CloudEvent.AttributesEntry", field, wire_type, skipped)?,
        }
    }
    let name = key.unwrap_or_default();
    let value = attribute_value(name, value.unwrap_or_default(), skipped)?;
    let core = |slot: &mut Option<Cow<'a, str>>, text: &'a str| {
        if slot.replace(Cow::Borrowed(text)).is_some() {
            Err(twice_named(name))
        } else {
            Ok(())
        }
    };
    match (name, value) {
        ("id" | "source" | "specversion" | "type", _) => Err(a_field_in_attributes(name)),
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
        ) => Err(wrong_kind(name, other.member())),
        (_, value) => {
            if envelope
                .extensions
                .try_insert_new(name.to_owned(), value.into_extension())
            {
                Ok(())
            } else {
                Err(twice_named(name))
            }
        }
    }
}
