//! The CloudEvents Avro record (CE-Avro 2.4) in and out: the writer, and the reader that
//! decodes the record's structure and then hands its members to the JSON reader's own
//! visitor ([`crate::format::json::read_event`]), as the binary-mode reader does
//! (`binding/parts.rs`): one set of checks, one policy check, one first error.

use serde::de::value::{
    BoolDeserializer, BorrowedBytesDeserializer, BorrowedStrDeserializer, I32Deserializer,
    MapAccessDeserializer, UnitDeserializer,
};
use serde::de::{self, DeserializeSeed, MapAccess};

use cloudevent_rules::{Policy, Violation, rule};

use super::data;
use super::wire::{self, Reader};
use crate::any::{AnyEvent, Data};
use crate::extension::ExtensionValue;
use crate::format::RawData;
use crate::format::json::{self, DataSlot, Envelope, EventSeed, Findings};

/// The branches of the `attribute` map's value union, in the schema's order.
const ATTRIBUTE_BRANCHES: usize = 5;
const A_BOOLEAN: i64 = 1;
const A_INT: i64 = 2;
const A_STRING: i64 = 3;
const A_BYTES: i64 = 4;

/// The branches of the `data` union, in the schema's order: bytes, null, boolean, map,
/// array, double, string.
const DATA_BRANCHES: usize = 7;
const D_BYTES: i64 = 0;
const D_NULL: i64 = 1;
const D_STRING: i64 = 6;

/// One value of the `attribute` map.
#[derive(Debug, Clone, Copy)]
enum AttributeValue<'a> {
    Null,
    Bool(bool),
    Int(i32),
    Str(&'a str),
    Bytes(&'a [u8]),
}

/// The `data` field as decoded.
enum DataValue<'a> {
    Absent,
    Bytes(&'a [u8]),
    Str(&'a str),
    /// The JSON text of the schema's representation of a JSON value.
    Json(String),
}

/// The record as decoded, before any CloudEvents check.
pub(crate) struct Record<'a> {
    attributes: Vec<(&'a str, AttributeValue<'a>)>,
    data: DataValue<'a>,
}

/// Decodes the record's structure: the whole input, nothing after it.
pub(crate) fn parse(bytes: &[u8]) -> Result<Record<'_>, Box<Violation>> {
    let mut reader = Reader::new(bytes);
    let mut attributes = Vec::new();
    loop {
        // An entry takes at least two bytes: its name's length and a union index.
        let count = reader.block("attribute", 2)?;
        if count == 0 {
            break;
        }
        for _ in 0..count {
            let name = reader.string("attribute")?;
            let value = match reader.union(name, ATTRIBUTE_BRANCHES)? {
                0 => AttributeValue::Null,
                1 => AttributeValue::Bool(reader.boolean(name)?),
                2 => AttributeValue::Int(reader.int(name)?),
                3 => AttributeValue::Str(reader.string(name)?),
                _ => AttributeValue::Bytes(reader.bytes(name)?),
            };
            attributes.push((name, value));
        }
    }
    let data = match reader.union("data", DATA_BRANCHES)? {
        0 => DataValue::Bytes(reader.bytes("data")?),
        1 => DataValue::Absent,
        6 => DataValue::Str(reader.string("data")?),
        branch => DataValue::Json(data::read_json(&mut reader, branch)?),
    };
    if reader.remaining() > 0 {
        return Err(wire::malformed(
            rule::CE_AVRO_2_4,
            "data",
            reader.offset(),
            format!(
                "{} bytes follow the event (trailing bytes); one message holds one event",
                reader.remaining()
            ),
        ));
    }
    Ok(Record { attributes, data })
}

/// One member's value as the visitor is handed it.
#[derive(Clone, Copy)]
enum Value<'r> {
    Attribute(AttributeValue<'r>),
    /// JSON text, read by serde_json.
    Json(&'r str),
}

/// The members of the event: the attributes in the writer's order, then `data` (or
/// `data_base64` for bytes, the JSON reader's name for binary data).
struct Members<'r> {
    attributes: std::slice::Iter<'r, (&'r str, AttributeValue<'r>)>,
    data: Option<(&'static str, Value<'r>)>,
    value: Option<Value<'r>>,
}

impl<'r> MapAccess<'r> for Members<'r> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'r>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let (name, value) = if let Some((name, value)) = self.attributes.next() {
            (*name, Value::Attribute(*value))
        } else if let Some(data) = self.data.take() {
            data
        } else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(BorrowedStrDeserializer::new(name))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'r>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        match self.value.take() {
            Some(Value::Attribute(value)) => match value {
                AttributeValue::Null => seed.deserialize(UnitDeserializer::new()),
                AttributeValue::Bool(b) => seed.deserialize(BoolDeserializer::new(b)),
                AttributeValue::Int(i) => seed.deserialize(I32Deserializer::new(i)),
                AttributeValue::Str(s) => seed.deserialize(BorrowedStrDeserializer::new(s)),
                AttributeValue::Bytes(b) => seed.deserialize(BorrowedBytesDeserializer::new(b)),
            },
            Some(Value::Json(text)) => {
                let mut deserializer = serde_json::Deserializer::from_str(text);
                let value = seed.deserialize(&mut deserializer)?;
                deserializer.end()?;
                Ok(value)
            }
            None => Err(de::Error::custom(
                "a member's value was asked for before its name",
            )),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.attributes.len() + usize::from(self.data.is_some()))
    }
}

/// The JSON text of a string under a JSON `datacontenttype`, checked, or the refusal.
fn json_text(text: &str) -> Result<&str, Box<Violation>> {
    match serde_json::from_str::<&serde_json::value::RawValue>(text) {
        Ok(_) => Ok(text),
        Err(error) => Err(Box::new(
            Violation::error(
                rule::CE_AVRO_3,
                "data",
                crate::extension::truncate(text),
                format!("is a string under a JSON datacontenttype but not JSON text: {error}"),
            )
            .with_hint("send text under a text/* datacontenttype, or JSON text"),
        )),
    }
}

/// The record's members as the visitor takes them; refuses what cannot be a member (an
/// attribute named like the payload, data that does not fit its `datacontenttype`).
fn members<'r>(
    record: &'r Record<'_>,
    quoted: &'r mut Option<String>,
    policy: &Policy,
) -> Result<Members<'r>, crate::FormatError> {
    // `data` and `data_base64` are the event's payload, never attributes (CE 1.0.2 naming):
    // the rules' own check says so, before the visitor could take one for the payload.
    if let Some((name, _)) = record
        .attributes
        .iter()
        .find(|(name, _)| cloudevent_rules::RESERVED_NAMES.contains(name))
        && let Some(violation) = cloudevent_rules::check_extension_name(name, policy.profile())
            .into_iter()
            .next()
    {
        return Err(violation.into());
    }
    let content_type = record
        .attributes
        .iter()
        .find_map(|(name, value)| match value {
            AttributeValue::Str(text) if *name == "datacontenttype" => Some(*text),
            _ => None,
        });
    let data = match &record.data {
        DataValue::Absent => None,
        DataValue::Bytes(bytes) => Some((
            "data_base64",
            Value::Attribute(AttributeValue::Bytes(bytes)),
        )),
        // Text under a non-JSON type; JSON text under a JSON one; without a type, the JSON
        // string the schema's `string` branch stands for (CE-Avro 3).
        DataValue::Str(text) => match content_type {
            Some(ct) if !cloudevent_rules::is_json_media_type(ct) => {
                Some(("data", Value::Attribute(AttributeValue::Str(text))))
            }
            Some(_) => Some((
                "data",
                Value::Json(json_text(text).map_err(crate::FormatError::Invalid)?),
            )),
            None => {
                let text =
                    quoted.insert(serde_json::to_string(text).map_err(crate::FormatError::Json)?);
                Some(("data", Value::Json(text)))
            }
        },
        DataValue::Json(text) => match content_type {
            Some(ct) if !cloudevent_rules::is_json_media_type(ct) => {
                return Err(Violation::error(
                    rule::CE_AVRO_3,
                    "data",
                    crate::extension::truncate(text),
                    format!(
                        "is a JSON value, but datacontenttype `{ct}` is not JSON; such data travels as bytes or a string"
                    ),
                )
                .into());
            }
            _ => Some(("data", Value::Json(text))),
        },
    };
    Ok(Members {
        attributes: record.attributes.iter(),
        data,
        value: None,
    })
}

/// Reads a decoded record with the JSON reader's visitor under `policy`, stopping at the
/// first error.
pub(super) fn read<'r, S: DataSlot<'r>>(
    record: &'r Record<'_>,
    quoted: &'r mut Option<String>,
    slot: S,
    expected_type: Option<json::Expected>,
    policy: &Policy,
) -> Result<(Envelope<'r>, S::Data), crate::FormatError> {
    let members = members(record, quoted, policy)?;
    let mut envelope = Envelope::default();
    let data = json::read_event(
        MapAccessDeserializer::new(members),
        &mut envelope,
        slot,
        expected_type,
        policy,
    )?;
    Ok((envelope, data))
}

/// Reads a decoded record for the validator: every finding into `findings`, the envelope
/// back when the visitor got to the end.
pub(crate) fn read_lenient<'r>(
    record: &'r Record<'_>,
    quoted: &'r mut Option<String>,
    policy: &Policy,
    findings: &mut Findings,
) -> Option<(Envelope<'r>, Option<Data>)> {
    let members = match members(record, quoted, policy) {
        Ok(members) => members,
        Err(error) => {
            findings.list.extend(error.violation().cloned());
            return None;
        }
    };
    let mut envelope = Envelope::default();
    let data = EventSeed {
        envelope: &mut envelope,
        findings,
        policy,
        slot: RawData::default(),
        expected_type: None,
        memo: None,
        held: None,
    }
    .deserialize(MapAccessDeserializer::new(members))
    .ok()?;
    Some((envelope, data))
}

/// Writes an event as the record. Fails only for JSON data without a `datacontenttype` that
/// the schema's JSON representation cannot hold (see [`data`]).
pub(super) fn write(event: &AnyEvent) -> Result<Vec<u8>, Box<Violation>> {
    let mut out = Vec::with_capacity(
        64 + event.id.len()
            + event.source.len()
            + event.ty.len()
            + match &event.data {
                Some(Data::Json(raw)) => raw.get().len(),
                Some(Data::Text(text)) => text.len(),
                Some(Data::Binary(bytes)) => bytes.len(),
                None => 0,
            },
    );
    let dataschema = event.written_dataschema();
    let optional = [
        ("datacontenttype", event.datacontenttype.as_deref()),
        ("dataschema", dataschema.as_deref()),
        ("subject", event.subject.as_deref()),
        ("time", event.time.as_ref().map(crate::Timestamp::as_str)),
    ];
    let count = 4 + optional.iter().filter(|(_, v)| v.is_some()).count() + event.extensions.len();
    wire::write_len(&mut out, count);
    let string = |out: &mut Vec<u8>, name: &str, value: &str| {
        wire::write_bytes(out, name.as_bytes());
        wire::write_long(out, A_STRING);
        wire::write_bytes(out, value.as_bytes());
    };
    string(&mut out, "specversion", "1.0");
    string(&mut out, "id", &event.id);
    string(&mut out, "source", &event.source);
    string(&mut out, "type", &event.ty);
    for (name, value) in optional {
        if let Some(value) = value {
            string(&mut out, name, value);
        }
    }
    for (name, value) in &event.extensions {
        match value.as_value() {
            ExtensionValue::Boolean(b) => {
                wire::write_bytes(&mut out, name.as_bytes());
                wire::write_long(&mut out, A_BOOLEAN);
                out.push(u8::from(b));
            }
            ExtensionValue::Integer(i) => {
                wire::write_bytes(&mut out, name.as_bytes());
                wire::write_long(&mut out, A_INT);
                wire::write_long(&mut out, i64::from(i));
            }
            ExtensionValue::Binary(bytes) => {
                wire::write_bytes(&mut out, name.as_bytes());
                wire::write_long(&mut out, A_BYTES);
                wire::write_bytes(&mut out, bytes);
            }
            // URI, URI-reference and Timestamp are strings in Avro (CE-Avro 2.1).
            ExtensionValue::String(text)
            | ExtensionValue::Uri(text)
            | ExtensionValue::UriReference(text)
            | ExtensionValue::Timestamp(text) => string(&mut out, name, text),
        }
    }
    wire::write_long(&mut out, 0);
    match &event.data {
        None => wire::write_long(&mut out, D_NULL),
        Some(Data::Binary(bytes)) => {
            wire::write_long(&mut out, D_BYTES);
            wire::write_bytes(&mut out, bytes);
        }
        Some(Data::Text(text)) => {
            wire::write_long(&mut out, D_STRING);
            wire::write_bytes(&mut out, text.as_bytes());
        }
        // Under a JSON datacontenttype the JSON text travels as a string; without one, as
        // the schema's representation of the JSON value (CE-Avro 3).
        Some(Data::Json(raw)) if event.datacontenttype.is_some() => {
            wire::write_long(&mut out, D_STRING);
            wire::write_bytes(&mut out, raw.get().as_bytes());
        }
        Some(Data::Json(raw)) => data::write_json(&mut out, raw.get())?,
    }
    Ok(out)
}
