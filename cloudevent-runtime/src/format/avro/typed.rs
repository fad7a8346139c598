//! `Event<T>` into the Avro format without an `AnyEvent` or a JSON document in between: the
//! event's own serde `Serialize` (the JSON format's writer, its checks included) drives
//! [`AvroEvent`], a serde serializer that writes each member as the record's attribute map
//! entry and `data` as the record's data union, as they are handed over. The result is the
//! record [`super::encode`] writes for `event.to_any()`, extensions in `Event<T>`'s order (a
//! test holds the two together); [`transcode`], the first version (the JSON document written,
//! then parsed and transcoded), is kept as the tests' oracle.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
#[cfg(test)]
use cloudevent_rules::{Violation, rule};
use serde::ser::{self, Impossible, Serialize, SerializeMap, Serializer};
#[cfg(test)]
use serde_json::value::RawValue;

#[cfg(test)]
use super::data::Members;
use super::wire;

/// The `Serializer` methods a writer refuses: anything that is not an event (for
/// [`AvroEvent`]) or not an attribute value (for [`ScalarWriter`]).
macro_rules! not_an_event {
    ($($name:ident)*) => { $(not_an_event!(@ $name);)* };
    (@ bool) => { fn serialize_bool(self, _: bool) -> Result<Self::Ok, WriteError> { Err(unsupported("a boolean")) } };
    (@ i8) => { fn serialize_i8(self, _: i8) -> Result<Self::Ok, WriteError> { Err(unsupported("an integer")) } };
    (@ i16) => { fn serialize_i16(self, _: i16) -> Result<Self::Ok, WriteError> { Err(unsupported("an integer")) } };
    (@ i32) => { fn serialize_i32(self, _: i32) -> Result<Self::Ok, WriteError> { Err(unsupported("an integer")) } };
    (@ i64) => { fn serialize_i64(self, _: i64) -> Result<Self::Ok, WriteError> { Err(unsupported("an integer")) } };
    (@ u8) => { fn serialize_u8(self, _: u8) -> Result<Self::Ok, WriteError> { Err(unsupported("an integer")) } };
    (@ u16) => { fn serialize_u16(self, _: u16) -> Result<Self::Ok, WriteError> { Err(unsupported("an integer")) } };
    (@ u32) => { fn serialize_u32(self, _: u32) -> Result<Self::Ok, WriteError> { Err(unsupported("an integer")) } };
    (@ u64) => { fn serialize_u64(self, _: u64) -> Result<Self::Ok, WriteError> { Err(unsupported("an integer")) } };
    (@ f32) => { fn serialize_f32(self, _: f32) -> Result<Self::Ok, WriteError> { Err(unsupported("a number with a fraction")) } };
    (@ f64) => { fn serialize_f64(self, _: f64) -> Result<Self::Ok, WriteError> { Err(unsupported("a number with a fraction")) } };
    (@ char) => { fn serialize_char(self, _: char) -> Result<Self::Ok, WriteError> { Err(unsupported("a character")) } };
    (@ str) => { fn serialize_str(self, _: &str) -> Result<Self::Ok, WriteError> { Err(unsupported("a string")) } };
    (@ bytes) => { fn serialize_bytes(self, _: &[u8]) -> Result<Self::Ok, WriteError> { Err(unsupported("a byte array")) } };
    (@ none) => { fn serialize_none(self) -> Result<Self::Ok, WriteError> { Err(unsupported("null")) } };
    (@ some) => { fn serialize_some<V: Serialize + ?Sized>(self, _: &V) -> Result<Self::Ok, WriteError> { Err(unsupported("an option")) } };
    (@ unit) => { fn serialize_unit(self) -> Result<Self::Ok, WriteError> { Err(unsupported("null")) } };
    (@ unit_struct) => { fn serialize_unit_struct(self, _: &'static str) -> Result<Self::Ok, WriteError> { Err(unsupported("a unit struct")) } };
    (@ unit_variant) => { fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<Self::Ok, WriteError> { Err(unsupported("an enum variant")) } };
    (@ newtype_struct) => { fn serialize_newtype_struct<V: Serialize + ?Sized>(self, _: &'static str, _: &V) -> Result<Self::Ok, WriteError> { Err(unsupported("a newtype")) } };
    (@ newtype_variant) => { fn serialize_newtype_variant<V: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &V) -> Result<Self::Ok, WriteError> { Err(unsupported("an enum variant")) } };
    (@ seq) => { fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, WriteError> { Err(unsupported("an array")) } };
    (@ tuple) => { fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, WriteError> { Err(unsupported("a tuple")) } };
    (@ tuple_struct) => { fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, WriteError> { Err(unsupported("a tuple")) } };
    (@ tuple_variant) => { fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeTupleVariant, WriteError> { Err(unsupported("an enum variant")) } };
    (@ map) => { fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, WriteError> { Err(unsupported("an object")) } };
    (@ struct) => { fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, WriteError> { Err(unsupported("an object")) } };
    (@ struct_variant) => { fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeStructVariant, WriteError> { Err(unsupported("an enum variant")) } };
}

/// Writes one event, as its `Serialize` hands it over, in the Avro format.
///
/// # Errors
/// What the event's own writer refuses (a payload that cannot be serialized, a String
/// attribute with a control character), as the JSON writer reports it.
pub(super) fn write<E: Serialize>(event: &E) -> Result<Vec<u8>, WriteError> {
    let mut writer = AvroEvent::default();
    event.serialize(&mut writer)?;
    let mut out = Vec::with_capacity(writer.entries.len() + writer.data.len() + 4);
    wire::write_len(&mut out, writer.count);
    out.extend_from_slice(&writer.entries);
    wire::write_long(&mut out, 0);
    match writer.data_written {
        true => out.extend_from_slice(&writer.data),
        // No data: the union's `null` branch.
        false => wire::write_long(&mut out, 1),
    }
    Ok(out)
}

/// Why an event could not be written: the message its writer gave.
#[derive(Debug)]
pub(super) struct WriteError(pub(super) String);

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WriteError {}

impl ser::Error for WriteError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        WriteError(message.to_string())
    }
}

fn unsupported(what: &str) -> WriteError {
    WriteError(format!(
        "{what} is not a CloudEvents attribute value (CE-Avro 2.4)"
    ))
}

/// The record as it is written: the attribute entries (counted, written out once the last
/// is known) and the data union.
#[derive(Default)]
struct AvroEvent {
    count: usize,
    entries: Vec<u8>,
    data: Vec<u8>,
    data_written: bool,
    /// The member being written, reused for every key.
    key: String,
    /// `datacontenttype` as written; `None` until then.
    content_type: Option<String>,
    /// An attribute's text, reused for every attribute.
    scratch: String,
}

impl AvroEvent {
    fn attribute(&mut self, value: Scalar<'_>) {
        // A `null` member is an unset attribute: no entry.
        if let Scalar::Null = value {
            return;
        }
        self.count += 1;
        wire::write_bytes(&mut self.entries, self.key.as_bytes());
        match value {
            Scalar::Str(text) => {
                if self.key == "datacontenttype" {
                    self.content_type = Some(text.to_owned());
                }
                wire::write_long(&mut self.entries, 3);
                wire::write_bytes(&mut self.entries, text.as_bytes());
            }
            Scalar::Bool(b) => {
                wire::write_long(&mut self.entries, 1);
                self.entries.push(u8::from(b));
            }
            Scalar::Int(i) => {
                wire::write_long(&mut self.entries, 2);
                wire::write_long(&mut self.entries, i64::from(i));
            }
            Scalar::Null => {}
        }
    }

    fn data<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), WriteError> {
        let json_type = self
            .content_type
            .as_deref()
            .is_none_or(cloudevent_rules::is_json_media_type);
        let mut json = Vec::with_capacity(128);
        serde_json::to_writer(&mut json, value).map_err(|e| WriteError(e.to_string()))?;
        if json_type && self.content_type.is_some() {
            wire::write_long(&mut self.data, 6);
            wire::write_bytes(&mut self.data, &json);
            self.data_written = true;
            return Ok(());
        }
        let text = String::from_utf8(json).map_err(|e| WriteError(e.to_string()))?;
        if self.content_type.is_none() {
            // JSON without a datacontenttype: the schema's representation (never from
            // `Event<T>`, which always names its datacontenttype; kept for completeness).
            super::data::write_json(&mut self.data, &text)
                .map_err(|v| WriteError(v.to_string()))?;
        } else {
            // Text under a non-JSON type: the JSON string's text (anything else as written,
            // as `AnyEvent` keeps it).
            wire::write_long(&mut self.data, 6);
            match serde_json::from_str::<String>(&text) {
                Ok(inner) => wire::write_bytes(&mut self.data, inner.as_bytes()),
                Err(_) => wire::write_bytes(&mut self.data, text.as_bytes()),
            }
        }
        self.data_written = true;
        Ok(())
    }

    fn data_base64<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), WriteError> {
        let mut text = String::new();
        let Scalar::Str(text) = value.serialize(ScalarWriter(&mut text))? else {
            return Err(unsupported("data_base64 other than a string"));
        };
        let bytes = BASE64.decode(text).map_err(|e| WriteError(e.to_string()))?;
        wire::write_long(&mut self.data, 0);
        wire::write_bytes(&mut self.data, &bytes);
        self.data_written = true;
        Ok(())
    }
}

impl Serializer for &mut AvroEvent {
    type Ok = ();
    type Error = WriteError;
    type SerializeSeq = Impossible<(), WriteError>;
    type SerializeTuple = Impossible<(), WriteError>;
    type SerializeTupleStruct = Impossible<(), WriteError>;
    type SerializeTupleVariant = Impossible<(), WriteError>;
    type SerializeMap = Self;
    type SerializeStruct = Impossible<(), WriteError>;
    type SerializeStructVariant = Impossible<(), WriteError>;

    fn serialize_map(self, _len: Option<usize>) -> Result<Self, WriteError> {
        Ok(self)
    }

    not_an_event! {
        bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str bytes none some unit unit_struct
        unit_variant newtype_struct newtype_variant seq tuple tuple_struct tuple_variant
        struct struct_variant
    }
}

impl SerializeMap for &mut AvroEvent {
    type Ok = ();
    type Error = WriteError;

    fn serialize_key<K: Serialize + ?Sized>(&mut self, key: &K) -> Result<(), WriteError> {
        self.key.clear();
        match key.serialize(ScalarWriter(&mut self.key))? {
            Scalar::Str(_) => Ok(()),
            _ => Err(unsupported("a member name other than a string")),
        }
    }

    fn serialize_value<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), WriteError> {
        match self.key.as_str() {
            "data" => self.data(value),
            "data_base64" => self.data_base64(value),
            _ => {
                let mut text = std::mem::take(&mut self.scratch);
                text.clear();
                let scalar = value.serialize(ScalarWriter(&mut text))?;
                self.attribute(scalar);
                self.scratch = text;
                Ok(())
            }
        }
    }

    fn end(self) -> Result<(), WriteError> {
        Ok(())
    }
}

/// An attribute's value as handed over.
enum Scalar<'a> {
    Str(&'a str),
    Bool(bool),
    Int(i32),
    Null,
}

/// Takes one scalar; a string is copied into the buffer it holds, so the value lives as long
/// as the buffer.
struct ScalarWriter<'b>(&'b mut String);

impl ScalarWriter<'_> {
    fn int(value: impl TryInto<i32>) -> Result<Scalar<'static>, WriteError> {
        value
            .try_into()
            .map(Scalar::Int)
            .map_err(|_| unsupported("an integer outside the Integer range"))
    }
}

impl<'b> Serializer for ScalarWriter<'b> {
    type Ok = Scalar<'b>;
    type Error = WriteError;
    type SerializeSeq = Impossible<Scalar<'b>, WriteError>;
    type SerializeTuple = Impossible<Scalar<'b>, WriteError>;
    type SerializeTupleStruct = Impossible<Scalar<'b>, WriteError>;
    type SerializeTupleVariant = Impossible<Scalar<'b>, WriteError>;
    type SerializeMap = Impossible<Scalar<'b>, WriteError>;
    type SerializeStruct = Impossible<Scalar<'b>, WriteError>;
    type SerializeStructVariant = Impossible<Scalar<'b>, WriteError>;

    fn serialize_str(self, v: &str) -> Result<Scalar<'b>, WriteError> {
        self.0.push_str(v);
        Ok(Scalar::Str(self.0.as_str()))
    }
    fn serialize_char(self, v: char) -> Result<Scalar<'b>, WriteError> {
        self.0.push(v);
        Ok(Scalar::Str(self.0.as_str()))
    }
    fn serialize_bool(self, v: bool) -> Result<Scalar<'b>, WriteError> {
        Ok(Scalar::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Scalar<'b>, WriteError> {
        Self::int(v)
    }
    fn serialize_i16(self, v: i16) -> Result<Scalar<'b>, WriteError> {
        Self::int(v)
    }
    fn serialize_i32(self, v: i32) -> Result<Scalar<'b>, WriteError> {
        Self::int(v)
    }
    fn serialize_i64(self, v: i64) -> Result<Scalar<'b>, WriteError> {
        Self::int(v)
    }
    fn serialize_u8(self, v: u8) -> Result<Scalar<'b>, WriteError> {
        Self::int(v)
    }
    fn serialize_u16(self, v: u16) -> Result<Scalar<'b>, WriteError> {
        Self::int(v)
    }
    fn serialize_u32(self, v: u32) -> Result<Scalar<'b>, WriteError> {
        Self::int(v)
    }
    fn serialize_u64(self, v: u64) -> Result<Scalar<'b>, WriteError> {
        Self::int(v)
    }
    fn serialize_none(self) -> Result<Scalar<'b>, WriteError> {
        Ok(Scalar::Null)
    }
    fn serialize_unit(self) -> Result<Scalar<'b>, WriteError> {
        Ok(Scalar::Null)
    }
    fn serialize_some<V: Serialize + ?Sized>(self, value: &V) -> Result<Scalar<'b>, WriteError> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &V,
    ) -> Result<Scalar<'b>, WriteError> {
        value.serialize(self)
    }

    not_an_event! {
        f32 f64 bytes unit_struct unit_variant newtype_variant seq tuple tuple_struct
        tuple_variant map struct struct_variant
    }
}

#[cfg(test)]
fn problem(text: String) -> Box<Violation> {
    Box::new(Violation::error(rule::CE_AVRO_2_4, "event", "", text))
}

/// A member's value as written: a string, a boolean, an integer, or other JSON.
#[cfg(test)]
enum Member {
    Str(String),
    Bool(bool),
    Int(i32),
    Null,
}

#[cfg(test)]
fn member(name: &str, raw: &RawValue) -> Result<Member, Box<Violation>> {
    let text = raw.get();
    let parsed = match text.as_bytes().first() {
        Some(b'"') => serde_json::from_str(text).map(Member::Str),
        Some(b't' | b'f') => serde_json::from_str(text).map(Member::Bool),
        Some(b'n') => Ok(Member::Null),
        _ => serde_json::from_str(text).map(Member::Int),
    };
    parsed.map_err(|e| problem(format!("attribute `{name}`: {e}")))
}

/// Transcodes one event object in the JSON format, as `Event<T>` writes it, to the record.
#[cfg(test)]
pub(super) fn transcode(json: &[u8]) -> Result<Vec<u8>, Box<Violation>> {
    let members: Members<'_> = serde_json::from_slice(json).map_err(|e| problem(e.to_string()))?;
    let mut attributes = Vec::with_capacity(members.0.len());
    let mut data = None;
    let mut content_type = None;
    for (name, raw) in &members.0 {
        match name.as_str() {
            "data" | "data_base64" => data = Some((name.as_str(), *raw)),
            _ => match member(name, raw)? {
                Member::Null => {}
                value => {
                    if let ("datacontenttype", Member::Str(text)) = (name.as_str(), &value) {
                        content_type = Some(text.clone());
                    }
                    attributes.push((name.as_str(), value));
                }
            },
        }
    }
    let mut out = Vec::with_capacity(json.len());
    wire::write_len(&mut out, attributes.len());
    for (name, value) in &attributes {
        wire::write_bytes(&mut out, name.as_bytes());
        match value {
            Member::Str(text) => {
                wire::write_long(&mut out, 3);
                wire::write_bytes(&mut out, text.as_bytes());
            }
            Member::Bool(b) => {
                wire::write_long(&mut out, 1);
                out.push(u8::from(*b));
            }
            Member::Int(i) => {
                wire::write_long(&mut out, 2);
                wire::write_long(&mut out, i64::from(*i));
            }
            Member::Null => {}
        }
    }
    wire::write_long(&mut out, 0);
    let json_type = content_type
        .as_deref()
        .is_none_or(cloudevent_rules::is_json_media_type);
    match data {
        None => wire::write_long(&mut out, 1),
        Some(("data_base64", raw)) => {
            let text: String =
                serde_json::from_str(raw.get()).map_err(|e| problem(e.to_string()))?;
            let bytes = BASE64.decode(text).map_err(|e| problem(e.to_string()))?;
            wire::write_long(&mut out, 0);
            wire::write_bytes(&mut out, &bytes);
        }
        // JSON without a datacontenttype: the schema's representation (never from `Event<T>`,
        // which always names its datacontenttype; kept for completeness).
        Some((_, raw)) if content_type.is_none() => super::data::write_json(&mut out, raw.get())?,
        Some((_, raw)) if json_type => {
            wire::write_long(&mut out, 6);
            wire::write_bytes(&mut out, raw.get().as_bytes());
        }
        // Text under a non-JSON type: the JSON string's text (anything else as written, as
        // `AnyEvent` keeps it).
        Some((_, raw)) => {
            wire::write_long(&mut out, 6);
            match serde_json::from_str::<String>(raw.get()) {
                Ok(text) => wire::write_bytes(&mut out, text.as_bytes()),
                Err(_) => wire::write_bytes(&mut out, raw.get().as_bytes()),
            }
        }
    }
    Ok(out)
}

#[cfg(all(test, feature = "derive"))]
mod tests {
    use super::*;
    use crate::{Binary, Event};

    #[derive(serde::Serialize, crate::CloudEvent)]
    #[cloudevent(
        crate = "crate",
        type = "com.example.order.created",
        source = "https://orders.example.com",
        dataschema = "https://schemas.example.com/orders/created/v1.json"
    )]
    struct OrderCreated {
        #[cloudevent(subject)]
        order_id: String,
        #[cloudevent(extension)]
        region: String,
        #[cloudevent(extension)]
        express: bool,
        #[cloudevent(extension)]
        hops: i32,
        #[cloudevent(extension)]
        note: Option<String>,
        lines: Vec<f64>,
    }

    #[derive(serde::Serialize, crate::CloudEvent)]
    #[cloudevent(
        crate = "crate",
        type = "com.example.document.archived",
        source = "https://archive.example.com",
        datacontenttype = "application/pdf"
    )]
    struct Archived(Binary);

    #[derive(serde::Serialize, crate::CloudEvent)]
    #[cloudevent(
        crate = "crate",
        type = "com.example.report.written",
        source = "https://reports.example.com",
        datacontenttype = "text/csv"
    )]
    struct Report(String);

    /// The writer and its first version, the JSON document transcoded, agree byte for byte.
    #[test]
    fn the_serializer_writes_what_the_transcoder_wrote() {
        let order = |note: Option<&str>, hops| OrderCreated {
            order_id: "order-1".into(),
            region: "eu-west-1".into(),
            express: hops % 2 == 0,
            hops,
            note: note.map(str::to_owned),
            lines: vec![1.5, -2.0, 1e300],
        };
        let (mut typed, mut transcoded) = (Vec::new(), Vec::new());
        // Fresh ids and times differ between two events: each event is compared with itself.
        for event in [Event::new(order(None, 3)), Event::new(order(Some("x"), 0))] {
            typed.push(write(&event).unwrap());
            transcoded.push(transcode(&event.to_vec().unwrap()).unwrap());
        }
        let archived = Event::new(Archived(Binary::from(vec![0, 1, 2, 255])));
        typed.push(write(&archived).unwrap());
        transcoded.push(transcode(&archived.to_vec().unwrap()).unwrap());
        let report = Event::new(Report("a,b\n1,2\n".into()));
        typed.push(write(&report).unwrap());
        transcoded.push(transcode(&report.to_vec().unwrap()).unwrap());
        assert_eq!(typed, transcoded);
    }

    #[test]
    fn what_the_json_writer_refuses_is_refused_with_its_message() {
        let event = Event::new(OrderCreated {
            order_id: "order\u{7}1".into(),
            region: "eu".into(),
            express: false,
            hops: 0,
            note: None,
            lines: vec![],
        });
        let json = event.to_vec().unwrap_err().to_string();
        let avro = write(&event).unwrap_err().to_string();
        assert!(json.contains(&avro), "{json} / {avro}");
        assert!(avro.contains("subject"), "{avro}");
    }
}
