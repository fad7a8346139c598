//! [`Event<T>`] in the JSON event format: the typed reader (with its data slot) and the
//! writer.

use super::*;

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

    /// The event in the JSON format.
    ///
    /// # Errors
    /// When the payload cannot be serialized (e.g. a map with non-string keys, or a payload
    /// that is neither text nor bytes under a non-JSON datacontenttype), or a subject or
    /// String extension taken from it holds a control character (CE 1.0.2 type system).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping;
    /// let json = String::from_utf8(Event::new(Ping).to_vec().unwrap()).unwrap();
    /// assert!(json.starts_with(r#"{"specversion":"1.0","id":"#));
    /// assert!(json.ends_with(r#","data":null}"#));
    /// ```
    pub fn to_vec(&self) -> Result<Vec<u8>, BuildError>
    where
        T: Serialize,
    {
        serde_json::to_vec(self).map_err(|e| BuildError::Payload(e.to_string()))
    }
}

impl<T: CloudEventData + Serialize> Serialize for Event<T> {
    /// The JSON event format: `specversion`, `id`, `source`, `type`, `datacontenttype`,
    /// `dataschema`, `subject`, `time`, then extensions (the payload's, then the event's),
    /// then `data` or `data_base64`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Some(violation) = &self.invalid {
            return Err(ser::Error::custom(violation));
        }
        let kind = if json::is_json(Some(&self.datacontenttype)) {
            None
        } else {
            Some(payload::probe(&self.data).map_err(ser::Error::custom)?)
        };
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("specversion", "1.0")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("source", &*self.source)?;
        map.serialize_entry("type", T::TYPE)?;
        map.serialize_entry("datacontenttype", &*self.datacontenttype)?;
        if let Some(dataschema) = &self.dataschema {
            map.serialize_entry("dataschema", &**dataschema)?;
        }
        if let Some(subject) = self.subject() {
            checked_string::<S::Error>("subject", subject)?;
            map.serialize_entry("subject", subject)?;
        }
        if let Some(time) = &self.time {
            map.serialize_entry("time", time.as_str())?;
        }
        self.data.visit_extensions(&mut Visit {
            skip: &self.extensions,
            f: |name: &str, value: ExtensionValue<'_>| {
                if let ExtensionValue::String(text) = value {
                    checked_string::<S::Error>(name, text)?;
                }
                map.serialize_entry(name, &crate::extension::JsonValue(value))
            },
        })?;
        for (name, value) in &self.extensions {
            map.serialize_entry(name, value)?;
        }
        match kind {
            Some(PayloadKind::Binary) => {
                map.serialize_entry("data_base64", &AsBase64(&self.data))?
            }
            None | Some(PayloadKind::Text) => map.serialize_entry("data", &self.data)?,
        }
        map.end()
    }
}

/// Checks a String taken from the payload as it is written: the derive cannot see run-time
/// values, and a control character makes the event invalid (CE 1.0.2 type system), so the
/// producer learns it rather than every consumer. Allocates nothing when the value is fine.
fn checked_string<E: ser::Error>(attribute: &str, value: &str) -> Result<(), E> {
    match cloudevent_rules::check_string_value(attribute, value).first() {
        Some(violation) => Err(E::custom(violation)),
        None => Ok(()),
    }
}

impl<'de, T: CloudEventData + DeserializeOwned> de::Deserialize<'de> for Event<T> {
    /// Strict and in one pass, like [`Event::from_slice`] without the size check.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut findings = Findings::strict();
        let (envelope, data) = json::EventSeed {
            findings: &mut findings,
            policy: &Self::POLICY,
            slot: TypedData::<T>::default(),
            expected_type: Some(json::Expected::of::<T>()),
            memo: None,
        }
        .deserialize(deserializer)?;
        Event::from_envelope(envelope, data).map_err(<D::Error as de::Error>::custom)
    }
}

pub(super) fn type_mismatch<T: CloudEventData>(found: &str) -> Violation {
    json::type_mismatch(T::TYPE, found)
}

pub(super) fn payload_mismatch<T: CloudEventData>(error: impl fmt::Display) -> Violation {
    payload_mismatch_at::<T>("", error)
}

/// `data` does not fit `T` at `pointer` (a JSON pointer into `data`, empty for the whole of
/// it): the attribute is `data` followed by the pointer, the form `validate --registry` gives
/// a schema's findings, and the parser's position (`at line 1 column 386`, a place in a
/// document the reader of a report does not have) is left out.
pub(super) fn payload_mismatch_at<T: CloudEventData>(
    pointer: &str,
    error: impl fmt::Display,
) -> Violation {
    let message = error.to_string();
    let mut violation = json::data_violation(format_args!(
        "does not fit the payload of `{}`: {}",
        T::TYPE,
        without_position(&message)
    ));
    if !pointer.is_empty() {
        violation.attribute = format!("data{pointer}").into();
    }
    violation
}

/// A serde_json message without its trailing ` at line L column C`.
fn without_position(message: &str) -> &str {
    match message.rsplit_once(" at line ") {
        Some((head, tail))
            if tail.split_once(" column ").is_some_and(|(line, column)| {
                !line.is_empty()
                    && !column.is_empty()
                    && line.bytes().all(|b| b.is_ascii_digit())
                    && column.bytes().all(|b| b.is_ascii_digit())
            }) =>
        {
            head
        }
        _ => message,
    }
}

/// The JSON pointer (RFC 6901) of a serde path: `/items/0/qty`.
fn json_pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path {
        pointer.push('/');
        match segment {
            Segment::Seq { index } => pointer.push_str(&index.to_string()),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Segment::Unknown => pointer.push('-'),
        }
    }
    pointer
}

/// Reads `T`, noting in `at` the JSON pointer of the member that did not fit, for
/// [`payload_mismatch_at`].
pub(super) struct Tracked<'p, T> {
    pub(super) at: &'p mut String,
    pub(super) payload: std::marker::PhantomData<T>,
}

impl<'p, T> Tracked<'p, T> {
    pub(super) fn new(at: &'p mut String) -> Self {
        Tracked {
            at,
            payload: std::marker::PhantomData,
        }
    }
}

impl<'de, T: de::Deserialize<'de>> de::DeserializeSeed<'de> for Tracked<'_, T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        serde_path_to_error::deserialize(deserializer).map_err(|error| {
            *self.at = json_pointer(error.path());
            error.into_inner()
        })
    }
}

/// `T` from JSON text, with the pointer of what did not fit in the error.
pub(super) fn from_json_text<T: CloudEventData + DeserializeOwned>(
    text: &str,
) -> Result<T, Box<Violation>> {
    let mut at = String::new();
    let mut deserializer = serde_json::Deserializer::from_str(text);
    de::DeserializeSeed::deserialize(Tracked::<T>::new(&mut at), &mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value))
        .map_err(|error| Box::new(payload_mismatch_at::<T>(&at, error)))
}

/// A payload for an event without `data`: whatever `T` makes of JSON `null` (a unit struct,
/// an `Option`), else an error.
pub(super) fn from_absent<T: CloudEventData + DeserializeOwned>() -> Option<T> {
    serde_json::from_str("null").ok()
}

pub(super) fn absent_violation<T: CloudEventData>() -> Violation {
    json::data_violation(format_args!(
        "is absent, but the payload of `{}` cannot be empty",
        T::TYPE
    ))
}

/// Reads `data` into `T`: in place once `datacontenttype` is known, else kept raw until the
/// end of the object decides how to read it (a non-JSON type requires a string, CE-JSON 3.1).
pub(crate) struct TypedData<T> {
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

impl<T: CloudEventData + DeserializeOwned> TypedData<T> {
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

impl<'de, T: CloudEventData + DeserializeOwned> DataSlot<'de> for TypedData<T> {
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
            Some(true) => {
                let mut at = String::new();
                match map.next_value_seed(Tracked::<T>::new(&mut at)) {
                    Ok(value) => self.value = Some(value),
                    Err(error) => {
                        let _ = findings.report(payload_mismatch_at::<T>(&at, &error));
                        return Err(error);
                    }
                }
            }
            Some(false) => match map.next_value::<json::JsonScalar<'de>>()? {
                json::JsonScalar::Str(text) => self
                    .keep(T::deserialize(Leaf::Str(&text)), findings)
                    .map_err(|Stop| json::stop(findings))?,
                json::JsonScalar::Null => self
                    .keep(serde_json::from_str("null"), findings)
                    .map_err(|Stop| json::stop(findings))?,
                _ => findings
                    .report(json::data_violation(
                        "is not a string, but datacontenttype is not JSON (CE-JSON 3.1)",
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

    fn finish(mut self, datacontenttype: Option<&str>, findings: &mut Findings) -> Result<T, Stop> {
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
                            "is not a string, but datacontenttype is not JSON (CE-JSON 3.1)",
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
        if let Some(violation) = payload_string_violation(&value) {
            findings.report(violation)?;
        }
        Ok(value)
    }
}

/// A text or bytes payload as a deserializer, so `T` reads non-JSON data; newtypes and
/// `Option` see through to the leaf (serde's value deserializers would refuse them).
#[derive(Clone, Copy)]
pub(crate) enum Leaf<'a> {
    Str(&'a str),
    Bytes(&'a [u8]),
}

impl<'de> Deserializer<'de> for Leaf<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self {
            Leaf::Str(text) => visitor.visit_str(text),
            Leaf::Bytes(bytes) => visitor.visit_bytes(bytes),
        }
    }

    fn deserialize_newtype_struct<V: de::Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_option<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}
