//! [`Event<T>`] as serde data: the writer (the JSON event format's members, in its order),
//! and what every typed reader refuses of `T` (another `type`, data that does not fit) with the
//! [`Leaf`] deserializer for text or bytes data. The readers themselves are the formats'
//! (`format/typed.rs`).

use super::*;

impl<T: CloudEventData> Event<T> {
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
        // `serde_json::to_vec` is this with 128 bytes, which a README-sized event (about 550)
        // outgrew three times, each a reallocation and a copy of what was written.
        let mut out = Vec::with_capacity(self.json_len_hint());
        serde_json::to_writer(&mut out, self).map_err(|e| BuildError::Payload(e.to_string()))?;
        Ok(out)
    }

    /// The JSON text's length, guessed without serializing: every envelope attribute the event
    /// holds at its unescaped length with its member name, and [`DATA_ROOM`] for `data` and
    /// the payload's extensions, which only serializing them would measure.
    pub(super) fn json_len_hint(&self) -> usize {
        let texts = [
            self.id.as_str(),
            &self.source,
            T::TYPE,
            &self.datacontenttype,
            self.dataschema.as_deref().unwrap_or_default(),
            self.time.as_ref().map_or("", Timestamp::as_str),
        ];
        let extensions: usize = self
            .extensions
            .iter()
            .map(|(name, value)| name.len() + value.as_str().map_or(EXTENSION_VALUE, str::len))
            .sum();
        CORE_MEMBERS
            + texts.iter().map(|text| text.len()).sum::<usize>()
            + self.subject().map_or(0, str::len)
            + extensions
            + self.extensions.len() * MEMBER
            + DATA_ROOM
    }
}

/// The member names, quotes, colons and commas of every core attribute and `data`, and the
/// braces: `{"specversion":"1.0","id":"",...,"data":}` is 119 bytes.
const CORE_MEMBERS: usize = 128;
/// A member's quotes, colon and comma.
const MEMBER: usize = 6;
/// The longest text a Boolean, Integer or Binary extension is likely to take (an `i32` is 11).
const EXTENSION_VALUE: usize = 16;
/// Room for `data` and the payload's extensions: a small payload (the README's is about 140
/// bytes) is written without growing the buffer; a larger one doubles from there.
const DATA_ROOM: usize = 256;

impl<T: CloudEventData + Serialize> Serialize for Event<T> {
    /// The JSON event format: `specversion`, `id`, `source`, `type`, `datacontenttype`,
    /// `dataschema`, `subject`, `time`, then extensions (the payload's, then the event's),
    /// then `data` or `data_base64`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Some(violation) = &self.invalid {
            return Err(ser::Error::custom(violation));
        }
        let kind = if cloudevent_rules::is_json_media_type(&self.datacontenttype) {
            None
        } else {
            Some(payload::probe(&self.data).map_err(ser::Error::custom)?)
        };
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("specversion", "1.0")?;
        map.serialize_entry("id", self.id.as_str())?;
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

pub(crate) fn type_mismatch<T: CloudEventData>(found: &str) -> Violation {
    payload::type_mismatch(T::TYPE, found)
}

pub(crate) fn payload_mismatch<T: CloudEventData>(error: impl fmt::Display) -> Violation {
    payload_mismatch_at::<T>("", error)
}

/// `data` does not fit `T` at `pointer` (a JSON pointer into `data`, empty for the whole of
/// it): the attribute is `data` followed by the pointer, the form `validate --registry` gives
/// a schema's findings, and the parser's position (`at line 1 column 386`, a place in a
/// document the reader of a report does not have) is left out.
fn payload_mismatch_at<T: CloudEventData>(pointer: &str, error: impl fmt::Display) -> Violation {
    let message = error.to_string();
    let mut violation = payload::data_violation(format_args!(
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
struct Tracked<'p, T> {
    at: &'p mut String,
    payload: std::marker::PhantomData<T>,
}

impl<'p, T> Tracked<'p, T> {
    fn new(at: &'p mut String) -> Self {
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
///
/// The pointer is looked for only when `T` refused the text: tracking it costs an allocation
/// per member read, which a valid event must not pay (`tests/alloc_budget.rs`).
pub(crate) fn from_json_text<T: CloudEventData + DeserializeOwned>(
    text: &str,
) -> Result<T, Box<Violation>> {
    serde_json::from_str::<T>(text).map_err(|error| {
        let mut at = String::new();
        // Only a member of the wrong type or shape has a place worth naming; a syntax error
        // (the recursion limit of hostile nesting among them) is not read a second time.
        if error.is_data() {
            let mut deserializer = serde_json::Deserializer::from_str(text);
            let _ = de::DeserializeSeed::deserialize(Tracked::<T>::new(&mut at), &mut deserializer);
        }
        Box::new(payload_mismatch_at::<T>(&at, error))
    })
}

/// `error` with the JSON pointer of the member of `data` that did not fit `T`, when the
/// reader that produced it read `data` in place (which does not track members, for speed):
/// `data` is found again in `bytes` and read once more, tracked. Costs nothing when the event
/// was valid or failed for another reason.
pub(crate) fn with_data_pointer<T: CloudEventData + DeserializeOwned>(
    bytes: &[u8],
    error: FormatError,
) -> FormatError {
    #[derive(serde::Deserialize)]
    struct DataOnly<'a> {
        #[serde(borrow)]
        data: Option<&'a serde_json::value::RawValue>,
    }
    if !is_untracked_mismatch(&error) {
        return error;
    }
    match serde_json::from_slice::<DataOnly<'_>>(bytes) {
        Ok(DataOnly { data: Some(raw) }) => with_data_pointer_in::<T>(raw.get(), error),
        _ => error,
    }
}

/// [`with_data_pointer`] when `data`'s JSON text is at hand (a binary-mode body).
pub(crate) fn with_data_pointer_in<T: CloudEventData + DeserializeOwned>(
    data: &str,
    error: FormatError,
) -> FormatError {
    if !is_untracked_mismatch(&error) {
        return error;
    }
    match from_json_text::<T>(data) {
        Err(tracked) if tracked.attribute != "data" => FormatError::Invalid(tracked),
        _ => error,
    }
}

/// `data` did not fit `T`, and the error does not name the member yet.
fn is_untracked_mismatch(error: &FormatError) -> bool {
    matches!(error, FormatError::Invalid(violation)
        if violation.attribute == "data"
            && violation.problem.starts_with("does not fit the payload"))
}

/// A payload for an event without `data`: whatever `T` makes of JSON `null` (a unit struct,
/// an `Option`), else an error.
pub(crate) fn from_absent<T: CloudEventData + DeserializeOwned>() -> Option<T> {
    serde_json::from_str("null").ok()
}

pub(crate) fn absent_violation<T: CloudEventData>() -> Violation {
    payload::data_violation(format_args!(
        "is absent, but the payload of `{}` cannot be empty",
        T::TYPE
    ))
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
