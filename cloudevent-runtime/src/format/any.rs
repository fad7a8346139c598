//! [`AnyEvent`] in the JSON event format: the strict reader with `data` kept raw, and the
//! writer.

use std::io::Read;

use cloudevent_rules::{ContextAttributes, ExtensionAttributes};
use serde::de::{Deserialize, DeserializeSeed, Deserializer, MapAccess};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::json::{self, ContentType, DataSlot, Findings, Stop};
use super::read_bounded;
use crate::any::{AnyEvent, Data};
use crate::error::FormatError;
use crate::value::Timestamp;
use crate::{Policy, Profile};

/// Keeps `data` raw for [`AnyEvent`].
#[derive(Default)]
pub(crate) struct RawData {
    json: Option<Box<RawValue>>,
    text: Option<String>,
    binary: Option<Vec<u8>>,
}

impl<'de> DataSlot<'de> for RawData {
    type Data = Option<Data>;

    fn data<A: MapAccess<'de>>(
        &mut self,
        map: &mut A,
        content_type: ContentType<'_>,
        findings: &mut Findings,
    ) -> Result<(), A::Error> {
        // Text is read as text directly when the content type is known to be non-JSON;
        // otherwise the raw member is kept and decided on at the end.
        match content_type {
            ContentType::Seen(content_type) if !json::is_json(content_type) => {
                match map.next_value::<json::JsonScalar<'de>>()? {
                    json::JsonScalar::Str(text) => self.text = Some(text.into_owned()),
                    json::JsonScalar::Null => {
                        self.json = RawValue::from_string("null".to_owned()).ok();
                    }
                    other => findings
                        .report(json::data_violation(non_text_data(
                            content_type.unwrap_or_default(),
                            other_type(&other),
                        )))
                        .map_err(|Stop| json::stop(findings))?,
                }
            }
            _ => self.json = Some(map.next_value::<Box<RawValue>>()?),
        }
        Ok(())
    }

    fn data_base64(&mut self, bytes: Vec<u8>, _findings: &mut Findings) -> Result<(), Stop> {
        self.binary = Some(bytes);
        Ok(())
    }

    fn json_text(&self) -> Option<&str> {
        self.json.as_deref().map(RawValue::get)
    }

    fn size(&self) -> usize {
        self.json.as_ref().map_or(0, |raw| raw.get().len())
            + self.text.as_ref().map_or(0, String::len)
            + self.binary.as_ref().map_or(0, Vec::len)
    }

    fn finish(
        self,
        envelope: &json::Envelope<'_>,
        _held: &[(&str, &str)],
        findings: &mut Findings,
    ) -> Result<Self::Data, Stop> {
        let datacontenttype = envelope.datacontenttype.as_deref();
        if let Some(text) = self.text {
            return Ok(Some(Data::Text(text)));
        }
        if let Some(raw) = self.json {
            if json::is_json(datacontenttype) || raw.get() == "null" {
                return Ok(Some(Data::Json(raw)));
            }
            // `data` came before a non-JSON `datacontenttype`: it must be a JSON string.
            return match serde_json::from_str::<String>(raw.get()) {
                Ok(text) => Ok(Some(Data::Text(text))),
                Err(_) => {
                    findings.report(json::data_violation(non_text_data(
                        datacontenttype.unwrap_or_default(),
                        "not a string",
                    )))?;
                    Ok(Some(Data::Json(raw)))
                }
            };
        }
        Ok(self.binary.map(Data::Binary))
    }
}

fn other_type(value: &json::JsonScalar<'_>) -> &'static str {
    match value {
        json::JsonScalar::Composite(kind) => kind,
        json::JsonScalar::Bool(_) => "a boolean",
        _ => "a number",
    }
}

fn non_text_data(content_type: &str, found: &str) -> String {
    format!(
        "is {found}, but datacontenttype `{content_type}` is not JSON, so `data` must be a string"
    )
}

impl AnyEvent {
    /// Parses one event in the JSON format ([`AnyEvent::decode`]`::<`[`Json`](super::Json)`>`), refusing more than
    /// [`limits::MAX_EVENT_BYTES`](crate::limits::MAX_EVENT_BYTES) before reading anything (INTG-STD-015 R-11).
    ///
    /// # Errors
    /// The first thing that makes the input not a valid event: see [`FormatError`].
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Attributes};
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.subject(), Some("order-1"));
    /// let err = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","id":"2"}"#).unwrap_err();
    /// assert_eq!(err.rule().map(|r| r.as_str()), Some("INTG-STD-015 R-7"));
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<Self, FormatError> {
        Self::decode::<super::Json>(bytes)
    }

    /// The policy [`AnyEvent::from_slice`] and every binding's `AnyEvent` reader enforce:
    /// the CloudEvents 1.0.2 MUSTs (profile `cloudevents`). A gateway chooses a stricter one
    /// with [`AnyEvent::decode_with::<Json>`] or the axum `Checked` extractor.
    pub const DEFAULT_POLICY: Policy = Policy::new(Profile::CloudEvents);

    pub(crate) fn read(bytes: &[u8], limit: usize, policy: &Policy) -> Result<Self, FormatError> {
        Self::read_in_batch(bytes, limit, policy, None)
    }

    /// Reads one event of a batch: [`AnyEvent::read`] with the batch's memory of what the
    /// previous event passed with.
    pub(crate) fn read_in_batch(
        bytes: &[u8],
        limit: usize,
        policy: &Policy,
        memo: Option<&mut json::BatchMemo>,
    ) -> Result<Self, FormatError> {
        if bytes.len() > limit {
            return Err(FormatError::TooLarge {
                what: "event",
                found: bytes.len(),
                limit,
                rule: cloudevent_rules::rule::INTG_R11,
            });
        }
        let mut findings = Findings::strict();
        let mut envelope = json::Envelope::default();
        match json::parse_slice_in_batch(
            bytes,
            &mut envelope,
            RawData::default(),
            None,
            policy,
            &mut findings,
            memo,
            None,
        ) {
            Ok(data) => Ok(AnyEvent::from_envelope(envelope, data)),
            Err(error) => Err(json::into_format_error(error, &mut findings)),
        }
    }

    /// Reads one event, at most `limit` bytes: the reader is not drained past the limit, so
    /// an oversized event costs no more than the limit (bounded reading, R-11). A slice is a
    /// reader, so this is also [`AnyEvent::from_slice`] with another size limit (a bilateral
    /// agreement, a test): `AnyEvent::from_reader(bytes, 1024)`.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, FormatError};
    ///
    /// let big = vec![b' '; 1000];
    /// let err = AnyEvent::from_reader(&big[..], 100).unwrap_err();
    /// assert!(matches!(err, FormatError::TooLarge { found: 101, limit: 100, .. }));
    /// ```
    ///
    /// # Errors
    /// See [`FormatError`]; reading errors are [`FormatError::Io`].
    pub fn from_reader(reader: impl Read, limit: usize) -> Result<Self, FormatError> {
        let bytes = read_bounded(reader, limit, "event", cloudevent_rules::rule::INTG_R11)?;
        Self::read(&bytes, limit, &Self::DEFAULT_POLICY)
    }

    pub(crate) fn from_envelope(envelope: json::Envelope<'_>, data: Option<Data>) -> Self {
        let owned = |value: Option<std::borrow::Cow<'_, str>>| value.map(|v| v.into_owned());
        AnyEvent {
            id: owned(envelope.id).unwrap_or_default(),
            source: owned(envelope.source).unwrap_or_default(),
            ty: owned(envelope.ty).unwrap_or_default(),
            datacontenttype: owned(envelope.datacontenttype),
            dataschema: owned(envelope.dataschema),
            subject: owned(envelope.subject),
            time: envelope.time.map(Timestamp::from_checked),
            extensions: envelope.extensions,
            data,
            protobuf_type_url: None,
        }
    }

    /// The event in the JSON format.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// event.extensions_mut().insert("region", "eu");
    /// assert_eq!(
    ///     String::from_utf8(event.to_vec()).unwrap(),
    ///     r#"{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created","region":"eu"}"#
    /// );
    /// ```
    pub fn to_vec(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect(
            "an AnyEvent always serializes to a Vec: its keys are strings and its raw data is JSON by construction",
        )
    }

    /// The attributes as the rules crate's envelope, `data` with its size: what the
    /// validator checks and reports.
    #[inline(always)]
    pub(crate) fn view(&self) -> cloudevent_rules::Envelope<'_> {
        let fields = Fields(self);
        cloudevent_rules::Envelope {
            specversion: fields.specversion(),
            id: fields.id(),
            source: fields.source(),
            ty: fields.ty(),
            datacontenttype: fields.datacontenttype(),
            dataschema: fields.dataschema(),
            subject: fields.subject(),
            time: fields.time(),
            extensions: &self.extensions,
            data: self.data.as_ref().map(Data::len),
            data_type_url: self.protobuf_type_url.as_deref(),
        }
    }
}

/// An [`AnyEvent`]'s context attributes read field by field: what a filter reads one
/// attribute of (`AttributeName::read`), and what [`AnyEvent::view`] is built from.
#[derive(Clone, Copy)]
pub(crate) struct Fields<'a>(pub(crate) &'a AnyEvent);

impl<'a> ContextAttributes<'a> for Fields<'a> {
    #[inline(always)]
    fn specversion(&self) -> Option<&'a str> {
        Some("1.0")
    }
    #[inline(always)]
    fn id(&self) -> Option<&'a str> {
        Some(&self.0.id)
    }
    #[inline(always)]
    fn source(&self) -> Option<&'a str> {
        Some(&self.0.source)
    }
    #[inline(always)]
    fn ty(&self) -> Option<&'a str> {
        Some(&self.0.ty)
    }
    #[inline(always)]
    fn datacontenttype(&self) -> Option<&'a str> {
        self.0.datacontenttype.as_deref()
    }
    #[inline(always)]
    fn dataschema(&self) -> Option<&'a str> {
        self.0.dataschema.as_deref()
    }
    #[inline(always)]
    fn subject(&self) -> Option<&'a str> {
        self.0.subject.as_deref()
    }
    #[inline(always)]
    fn time(&self) -> Option<&'a str> {
        self.0.time.as_ref().map(Timestamp::as_str)
    }
    #[inline(always)]
    fn extension(&self, name: &str) -> Option<cloudevent_rules::ExtensionValue<'a>> {
        self.0.extensions.extension(name)
    }
}

impl Serialize for AnyEvent {
    /// The JSON format, attributes in the same order as [`Event<T>`](crate::Event): core, extensions, data.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("specversion", "1.0")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("source", &self.source)?;
        map.serialize_entry("type", &self.ty)?;
        if let Some(value) = &self.datacontenttype {
            map.serialize_entry("datacontenttype", value)?;
        }
        if let Some(value) = self.written_dataschema() {
            map.serialize_entry("dataschema", &*value)?;
        }
        if let Some(value) = &self.subject {
            map.serialize_entry("subject", value)?;
        }
        if let Some(value) = &self.time {
            map.serialize_entry("time", value.as_str())?;
        }
        for (name, value) in &self.extensions {
            map.serialize_entry(name, value)?;
        }
        match &self.data {
            Some(Data::Json(raw)) => map.serialize_entry("data", raw)?,
            Some(Data::Text(text)) => map.serialize_entry("data", text)?,
            Some(Data::Binary(bytes)) => {
                map.serialize_entry("data_base64", &crate::payload::Base64Str(bytes))?
            }
            None => {}
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for AnyEvent {
    /// Strict, like [`AnyEvent::from_slice`] but without the size check; JSON only (raw
    /// `data` needs serde_json).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut findings = Findings::strict();
        let mut envelope = json::Envelope::default();
        let data = json::EventSeed {
            envelope: &mut envelope,
            findings: &mut findings,
            policy: &AnyEvent::DEFAULT_POLICY,
            slot: RawData::default(),
            expected_type: None,
            memo: None,
            held: None,
        }
        .deserialize(deserializer)?;
        Ok(AnyEvent::from_envelope(envelope, data))
    }
}
