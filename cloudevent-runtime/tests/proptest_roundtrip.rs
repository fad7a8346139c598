//! Round trips over the whole attribute space: serialize → parse → equal, for `AnyEvent` and
//! typed `Event<T>` (issue 3 §7), and through every protocol binding (issue 6 §4). 256 cases a
//! property keep CI fast.

use cloudevent_runtime::Attributes;
use cloudevent_runtime::{
    AnyEvent, Binary, CloudEvent, Data, Event, ExtensionValueBuf, Timestamp, Uri, UriRef,
};
use proptest::prelude::*;
use serde_json::Value;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        // Failures are reported with the shrunk input; no persistence files in the tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Unicode text without control characters (U+0000–001F, U+007F–009F) or noncharacters, which the
/// CE 1.0.2 type system refuses; the empty string included.
fn text() -> impl Strategy<Value = String> {
    "[^\\p{Cc}\\p{Noncharacter_Code_Point}]{0,24}"
}

fn non_empty_text() -> impl Strategy<Value = String> {
    "[^\\p{Cc}\\p{Noncharacter_Code_Point}]{1,24}"
}

fn timestamp() -> impl Strategy<Value = Timestamp> {
    // 0000-01-01 .. 9999-12-31, with 0, 3, 6 or 9 fraction digits.
    (
        -62_167_219_200_i64..253_402_300_799,
        prop_oneof![
            Just(0_u32),
            (1_u32..1000).prop_map(|ms| ms * 1_000_000),
            (1_u32..1_000_000).prop_map(|us| us * 1000),
            0_u32..1_000_000_000,
        ],
    )
        .prop_filter_map("year within 0000-9999", |(secs, nanos)| {
            Timestamp::from_unix(secs, nanos)
        })
}

fn uri() -> impl Strategy<Value = Uri> {
    ("(https|urn|mailto)", "[a-z0-9]{1,8}", "[a-z0-9/._~-]{0,16}").prop_map(
        |(scheme, host, path)| {
            let text = match scheme.as_str() {
                "https" => format!("https://{host}.example.com/{path}"),
                "urn" => format!("urn:{host}:{}", path.replace('/', ":")),
                _ => format!("mailto:{host}@example.com"),
            };
            Uri::try_from(text).expect("generated URIs are valid")
        },
    )
}

fn uri_ref() -> impl Strategy<Value = UriRef> {
    prop_oneof![
        uri().prop_map(UriRef::from),
        "/[a-z0-9._~-]{0,8}(/[a-z0-9._~-]{1,8}){0,3}"
            .prop_map(|path| UriRef::try_from(path).expect("generated paths are valid")),
    ]
}

fn extension_value() -> impl Strategy<Value = ExtensionValueBuf> {
    prop_oneof![
        any::<bool>().prop_map(ExtensionValueBuf::Boolean),
        prop_oneof![
            Just(i32::MIN),
            Just(i32::MAX),
            Just(0),
            Just(-1),
            any::<i32>()
        ]
        .prop_map(ExtensionValueBuf::Integer),
        text().prop_map(ExtensionValueBuf::String),
        proptest::collection::vec(any::<u8>(), 0..24)
            .prop_map(|bytes| ExtensionValueBuf::Binary(Binary::from(bytes))),
        uri().prop_map(ExtensionValueBuf::Uri),
        uri_ref().prop_map(ExtensionValueBuf::UriReference),
        timestamp().prop_map(ExtensionValueBuf::Timestamp),
    ]
}

/// Extension names from hexadecimal digits after an `x`: valid under every profile, never a
/// core attribute or a documented extension, and none the naming rules refuse: R-14's word
/// list reads digits as the letters they stand for (`x5d08` holds `dob`), so the rules
/// themselves decide.
fn hex_extension_name() -> impl Strategy<Value = String> {
    "x[a-f0-9]{0,12}".prop_filter("a name the naming rules accept", |name| {
        cloudevent_runtime::rules::check_extension_name(
            name,
            cloudevent_runtime::Profile::IntgStd015,
        )
        .is_empty()
    })
}

fn extensions() -> impl Strategy<Value = Vec<(String, ExtensionValueBuf)>> {
    proptest::collection::btree_map(hex_extension_name(), extension_value(), 0..6)
        .prop_map(|map| map.into_iter().collect())
}

/// Extensions JSON tells apart (Boolean, Integer, String): set on a typed event they parse
/// back as the same variant, so the event compares equal. The other kinds ride on the
/// payload's fields, which the derive types.
fn plain_extensions() -> impl Strategy<Value = Vec<(String, ExtensionValueBuf)>> {
    let value = prop_oneof![
        any::<bool>().prop_map(ExtensionValueBuf::Boolean),
        any::<i32>().prop_map(ExtensionValueBuf::Integer),
        text().prop_map(ExtensionValueBuf::String),
    ];
    proptest::collection::btree_map(hex_extension_name(), value, 0..4)
        .prop_map(|map| map.into_iter().collect())
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        // Integral doubles print without loss; arbitrary ones are the float parser's business.
        (-1_000_000_i32..1_000_000).prop_map(|n| Value::from(f64::from(n) / 4.0)),
        // JSON strings may hold any character, escaped.
        ".{0,16}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::btree_map(".{0,8}", inner, 0..6)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// A payload with the content type it travels under.
fn payload() -> impl Strategy<Value = (Option<String>, Option<Data>)> {
    let json_type = prop_oneof![
        Just(None),
        Just(Some("application/json".to_owned())),
        Just(Some(
            "application/vnd.example.order+json; charset=utf-8".to_owned()
        )),
        Just(Some("text/json".to_owned())),
    ];
    prop_oneof![
        // No data at all, with or without a content type.
        json_type
            .clone()
            .prop_map(|content_type| (content_type, None)),
        (json_type, json_value()).prop_map(|(content_type, value)| {
            let raw = serde_json::to_string(&value).expect("a Value serializes");
            (
                content_type,
                Some(Data::json(raw).expect("serde_json wrote JSON")),
            )
        }),
        (
            prop_oneof![
                Just("text/plain"),
                Just("text/csv; charset=utf-8"),
                Just("application/xml")
            ],
            ".{0,64}"
        )
            .prop_map(|(content_type, text)| (
                Some(content_type.to_owned()),
                Some(Data::Text(text))
            )),
        (
            prop_oneof![
                Just(None),
                Just(Some("application/octet-stream".to_owned())),
                Just(Some("image/png".to_owned()))
            ],
            proptest::collection::vec(any::<u8>(), 0..64)
        )
            .prop_map(|(content_type, bytes)| (content_type, Some(Data::Binary(bytes)))),
    ]
}

prop_compose! {
    fn any_event()(
        id in non_empty_text(),
        source in uri_ref(),
        ty in non_empty_text(),
        (datacontenttype, data) in payload(),
        dataschema in proptest::option::of(uri()),
        // An empty subject is not allowed (CE 1.0.2 subject): absent is `None`.
        subject in proptest::option::of(non_empty_text()),
        time in proptest::option::of(timestamp()),
        extensions in extensions(),
    ) -> AnyEvent {
        let mut event = AnyEvent::new(id, source.as_str(), ty);
        event.set_datacontenttype(datacontenttype);
        event.set_dataschema(dataschema.map(|uri| uri.as_str().to_owned()));
        event.set_subject(subject);
        event.set_time(time);
        event.set_data(data);
        for (name, value) in extensions {
            event.extensions_mut().insert(name, value);
        }
        event
    }
}

/// The JSON a value writes: a URI and a String of the same text are the same on the wire
/// (CE-JSON 2.2), so a parsed event holds them as String.
fn wire(value: &ExtensionValueBuf) -> String {
    serde_json::to_string(value).expect("extension values serialize")
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_event_round_trips(event in any_event()) {
        let bytes = event.to_vec();
        let parsed = AnyEvent::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&bytes)));

        prop_assert_eq!(parsed.id(), event.id());
        prop_assert_eq!(parsed.source(), event.source());
        prop_assert_eq!(parsed.ty(), event.ty());
        prop_assert_eq!(parsed.datacontenttype(), event.datacontenttype());
        prop_assert_eq!(parsed.dataschema(), event.dataschema());
        prop_assert_eq!(parsed.subject(), event.subject());
        prop_assert_eq!(parsed.time(), event.time());
        prop_assert_eq!(parsed.data(), event.data());
        prop_assert_eq!(parsed.extensions().len(), event.extensions().len());
        for (name, value) in event.extensions().iter() {
            let got = parsed.extensions().get(name);
            prop_assert!(got.is_some(), "extension {} lost", name);
            prop_assert_eq!(got.map(wire), Some(wire(value)), "extension {}", name);
            // Booleans, integers and strings come back as themselves.
            if matches!(value, ExtensionValueBuf::Boolean(_) | ExtensionValueBuf::Integer(_) | ExtensionValueBuf::String(_)) {
                prop_assert_eq!(got, Some(value));
            }
        }
        // Serializing again writes the same bytes: output is deterministic.
        prop_assert_eq!(String::from_utf8(parsed.to_vec()), String::from_utf8(bytes));
    }

    #[test]
    fn any_event_without_typed_strings_is_equal_after_a_round_trip(mut event in any_event()) {
        // With only the kinds JSON tells apart, the parsed event is equal as a whole.
        let typed: Vec<String> = event
            .extensions()
            .iter()
            .filter(|(_, v)| !matches!(v, ExtensionValueBuf::Boolean(_) | ExtensionValueBuf::Integer(_) | ExtensionValueBuf::String(_)))
            .map(|(name, _)| name.to_owned())
            .collect();
        for name in typed {
            event.extensions_mut().remove(&name);
        }
        let parsed = AnyEvent::from_slice(&event.to_vec()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(parsed, event);
    }
}

/// A typed payload touching every extension kind, a subject, optional fields and nesting.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    dataschema = "https://schemas.example.com/orders/created/v1.json",
    source = "https://orders.example.com/checkout"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension = "partitionkey")]
    customer_id: String,
    #[cloudevent(extension)]
    priority: i32,
    #[cloudevent(extension)]
    express: bool,
    #[cloudevent(extension)]
    region: Option<String>,
    #[cloudevent(extension)]
    callback: Option<Uri>,
    #[cloudevent(extension = "dataref")]
    attachment: Option<UriRef>,
    #[cloudevent(extension)]
    promised: Option<Timestamp>,
    #[cloudevent(extension)]
    checksum: Option<Binary>,
    lines: Vec<Line>,
    note: Option<String>,
    total_cents: i64,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct Line {
    sku: String,
    quantity: u32,
}

prop_compose! {
    fn order()(
        order_id in non_empty_text(),
        customer_id in non_empty_text(),
        priority in any::<i32>(),
        express in any::<bool>(),
        region in proptest::option::of(text()),
        callback in proptest::option::of(uri()),
        attachment in proptest::option::of(uri_ref()),
        promised in proptest::option::of(timestamp()),
        checksum in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..16).prop_map(Binary::from)),
        lines in proptest::collection::vec((text(), any::<u32>()).prop_map(|(sku, quantity)| Line { sku, quantity }), 0..4),
        note in proptest::option::of(".{0,32}"),
        total_cents in any::<i64>(),
    ) -> OrderCreated {
        OrderCreated { order_id, customer_id, priority, express, region, callback, attachment, promised, checksum, lines, note, total_cents }
    }
}

prop_compose! {
    fn order_event()(
        payload in order(),
        time in proptest::option::of(timestamp()),
        subject in proptest::option::of(non_empty_text()),
        extensions in plain_extensions(),
    ) -> Event<OrderCreated> {
        let mut event = Event::new(payload);
        event = event.with_time(time).expect("generated times are UTC");
        if let Some(subject) = subject {
            event = event.with_subject(subject).expect("generated subjects are valid");
        }
        for (name, value) in extensions {
            event = event.with_extension(name, value).expect("generated extensions are valid");
        }
        event
    }
}

/// Text payload under a non-JSON content type: written to `data` as a string.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.report.rendered",
    source = "https://reports.example.com",
    datacontenttype = "text/plain; charset=utf-8"
)]
struct Rendered(String);

/// Binary payload: written to `data_base64`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.report.archived",
    source = "https://reports.example.com",
    datacontenttype = "application/pdf"
)]
struct Archived(Binary);

proptest! {
    #![proptest_config(config())]

    #[test]
    fn typed_event_round_trips(event in order_event()) {
        let bytes = serde_json::to_vec(&event).expect("the event serializes");
        let parsed: Event<OrderCreated> = Event::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&bytes)));
        let as_value = |bytes: &[u8]| serde_json::from_slice::<Value>(bytes).expect("JSON");
        let again = serde_json::to_vec(&parsed).expect("serializes");
        prop_assert_eq!(&parsed, &event);
        prop_assert_eq!(String::from_utf8(again), String::from_utf8(bytes.clone()));

        // The same bytes through AnyEvent and back to the typed event.
        let any = AnyEvent::from_slice(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        // AnyEvent orders extensions by name, Event<T> writes the payload's first: the same
        // members, maybe in another order.
        prop_assert_eq!(as_value(&any.to_vec()), as_value(&bytes));
        let typed: Event<OrderCreated> = any.into_typed().map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&typed, &event);
    }

    #[test]
    fn text_payload_round_trips(text in ".{0,64}") {
        let event = Event::new(Rendered(text));
        let bytes = serde_json::to_vec(&event).expect("the event serializes");
        let parsed: Event<Rendered> = Event::from_slice(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(parsed, event);
    }

    #[test]
    fn binary_payload_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..128)) {
        let event = Event::new(Archived(Binary::from(bytes)));
        let json = serde_json::to_vec(&event).expect("the event serializes");
        let written: Value = serde_json::from_slice(&json).expect("JSON");
        prop_assert!(written.get("data_base64").is_some() && written.get("data").is_none());
        let parsed: Event<Archived> = Event::from_slice(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(parsed, event);
    }
}

/// Parsing a typed event (`Event::from_slice`, `AnyEvent::into_typed`) recognises the base64
/// text of a Binary extension that the payload carries, instead of keeping it as an extra
/// event-level String extension (a bug once: the parsed event differed from the one written).
#[test]
fn parsing_keeps_payload_binary_extension_in_the_payload() {
    let event = Event::new(OrderCreated {
        order_id: "order-1".into(),
        customer_id: "customer-1".into(),
        priority: 1,
        express: false,
        region: None,
        callback: None,
        attachment: None,
        promised: None,
        checksum: Some(Binary::from(*b"sum")),
        lines: Vec::new(),
        note: None,
        total_cents: 100,
    });
    let bytes = serde_json::to_vec(&event).unwrap();
    let direct: Event<OrderCreated> = Event::from_slice(&bytes).unwrap();
    let via_any: Event<OrderCreated> = AnyEvent::from_slice(&bytes).unwrap().into_typed().unwrap();
    assert_eq!(direct, event);
    assert!(direct.extensions().get("checksum").is_none());
    assert_eq!(via_any, direct);
}

/// The protocol bindings (issue 6 §4): percent-encoding is the identity over arbitrary
/// Unicode, and an event written to each binding's headers or properties reads back equal, in
/// every mode the binding has.
#[cfg(all(
    feature = "http",
    feature = "kafka",
    feature = "amqp",
    feature = "mqtt"
))]
mod bindings {
    use cloudevent_runtime::binding::amqp::{self, PropertyPrefix};
    use cloudevent_runtime::binding::mqtt::{self, MqttVersion};
    use cloudevent_runtime::binding::{ContentMode, http, kafka, percent};
    use serde_json::value::RawValue;

    use super::*;

    /// Extension names: `[a-z0-9]`, at most 20 characters, none a core attribute takes (the
    /// prefix `x`), and none the naming rules refuse: R-14's word list reads digits as the
    /// letters they stand for (`x02fa5ad0b` holds `dob`), so the rules themselves decide.
    fn extension_name() -> impl Strategy<Value = String> {
        "x[a-z0-9]{0,19}".prop_filter("a name the naming rules accept", |name| {
            cloudevent_runtime::rules::check_extension_name(
                name,
                cloudevent_runtime::Profile::IntgStd015,
            )
            .is_empty()
        })
    }

    fn extension_value() -> impl Strategy<Value = ExtensionValueBuf> {
        prop_oneof![
            non_empty_text().prop_map(ExtensionValueBuf::String),
            any::<i32>().prop_map(ExtensionValueBuf::Integer),
            any::<bool>().prop_map(ExtensionValueBuf::Boolean),
        ]
    }

    /// `data` with the content type that goes with it: JSON, text, or bytes.
    fn payload() -> impl Strategy<Value = (Option<String>, Option<Data>)> {
        prop_oneof![
            Just((None, None)),
            non_empty_text().prop_map(|t| (
                Some("application/json".to_owned()),
                Some(Data::Json(
                    RawValue::from_string(serde_json::to_string(&t).unwrap()).unwrap()
                ))
            )),
            non_empty_text().prop_map(|t| (
                Some("text/plain; charset=utf-8".to_owned()),
                Some(Data::Text(t))
            )),
            proptest::collection::vec(any::<u8>(), 0..48).prop_map(|bytes| (
                Some("application/octet-stream".to_owned()),
                Some(Data::Binary(bytes))
            )),
        ]
    }

    prop_compose! {
        fn event()(
            id in non_empty_text(),
            source in "/[a-z0-9/]{0,16}",
            ty in non_empty_text(),
            subject in proptest::option::of(non_empty_text()),
            (datacontenttype, data) in payload(),
            time in proptest::option::of(
                (0_i64..253_402_300_799).prop_filter_map("in range", |s| Timestamp::from_unix(s, 0))
            ),
            extensions in proptest::collection::btree_map(extension_name(), extension_value(), 0..4),
        ) -> AnyEvent {
            let mut event = AnyEvent::new(id, source, ty);
            event.set_subject(subject);
            event.set_datacontenttype(datacontenttype);
            event.set_data(data);
            event.set_time(time);
            for (name, value) in extensions {
                event.extensions_mut().insert(name, value);
            }
            event
        }
    }

    /// HTTP and MQTT: empty binary data is an empty body, which reads as no data (Kafka's null
    /// value and AMQP's absent body tell the two apart).
    const EMPTY_BODY_IS_NO_DATA: bool = true;

    /// What a binary-mode reader without type information gives back: a header or property is
    /// text, so Integer and Boolean extensions come back as their canonical strings (CE 1.0.2
    /// type system: "the canonical string encoding"); a typed `Event<T>` restores the types.
    fn read_back(event: &AnyEvent, mode: ContentMode, empty_body_is_no_data: bool) -> AnyEvent {
        let mut expected = event.clone();
        if mode != ContentMode::Binary {
            return expected;
        }
        if empty_body_is_no_data
            && matches!(expected.data(), Some(Data::Binary(bytes)) if bytes.is_empty())
        {
            expected.set_data(None);
        }
        let typed: Vec<(String, String)> = event
            .extensions()
            .iter()
            .filter_map(|(name, value)| match value {
                ExtensionValueBuf::Integer(i) => Some((name.to_owned(), i.to_string())),
                ExtensionValueBuf::Boolean(b) => Some((name.to_owned(), b.to_string())),
                _ => None,
            })
            .collect();
        for (name, text) in typed {
            expected.extensions_mut().insert(name, text);
        }
        expected
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn percent_encode_then_decode_is_the_identity(value in any::<String>()) {
            let encoded = percent::encode(&value);
            // What goes on the wire is printable ASCII without space, `"` or `%` unescaped.
            prop_assert!(
                encoded.bytes().all(|b| (0x21..=0x7e).contains(&b) && b != b'"'),
                "{:?} encoded as {:?}", value, encoded
            );
            prop_assert_eq!(percent::decode(&encoded).map_err(|e| TestCaseError::fail(e.to_string()))?, value.as_str());
        }

        #[test]
        fn http_binary_and_structured_headers_round_trip(event in event()) {
            for mode in [ContentMode::Binary, ContentMode::Structured] {
                let mut headers = ::http::HeaderMap::new();
                let body = http::write_event(&event, mode, &mut headers)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(http::content_mode(&headers).ok(), Some(mode));
                let read: AnyEvent = http::read_event(&headers, &body)
                    .map_err(|e| TestCaseError::fail(format!("{mode:?}: {e}")))?;
                prop_assert_eq!(&read, &read_back(&event, mode, EMPTY_BODY_IS_NO_DATA), "{:?}", mode);
            }
        }

        #[test]
        fn kafka_records_round_trip(event in event()) {
            for mode in [ContentMode::Binary, ContentMode::Structured] {
                let record = kafka::to_record(&event, mode).map_err(|e| TestCaseError::fail(e.to_string()))?;
                // the key is `subject` when the event has no `partitionkey`.
                prop_assert_eq!(record.key.as_deref(), event.subject().map(str::as_bytes));
                let read: AnyEvent = kafka::from_record(&record)
                    .map_err(|e| TestCaseError::fail(format!("{mode:?}: {e}")))?;
                // An empty value is no data in every binding, as HTTP's empty body is (a null
                // value would be a tombstone, so no data is written as an empty one).
                prop_assert_eq!(&read, &read_back(&event, mode, EMPTY_BODY_IS_NO_DATA), "{:?}", mode);
            }
        }

        #[test]
        fn amqp_application_properties_round_trip(event in event()) {
            for prefix in [PropertyPrefix::Colon, PropertyPrefix::Underscore] {
                for mode in [ContentMode::Binary, ContentMode::Structured] {
                    let message = amqp::to_message(&event, mode, prefix)
                        .map_err(|e| TestCaseError::fail(e.to_string()))?;
                    let read: AnyEvent = amqp::from_message(&message)
                        .map_err(|e| TestCaseError::fail(format!("{mode:?} {prefix:?}: {e}")))?;
                    // AMQP carries booleans and integers natively (binding 3.1.3.2): types kept;
                    // an empty body is no data, as in every binding.
                    let mut expected = event.clone();
                    if mode == ContentMode::Binary
                        && matches!(expected.data(), Some(Data::Binary(bytes)) if bytes.is_empty())
                    {
                        expected.set_data(None);
                    }
                    prop_assert_eq!(&read, &expected, "{:?} {:?}", mode, prefix);
                }
            }
        }

        /// CE NATS binding 1.0.3-wip: `ce-` headers, percent-encoded, in binary mode; the JSON
        /// format with its `Content-Type` in structured mode.
        #[cfg(feature = "nats")]
        #[test]
        fn nats_headers_round_trip(event in event()) {
            use cloudevent_runtime::binding::nats;
            for mode in [ContentMode::Binary, ContentMode::Structured] {
                let (headers, payload) = nats::to_message(&event, mode)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                let read: AnyEvent = nats::from_parts(Some(&headers), &payload)
                    .map_err(|e| TestCaseError::fail(format!("{mode:?}: {e}")))?;
                prop_assert_eq!(&read, &read_back(&event, mode, EMPTY_BODY_IS_NO_DATA), "{:?}", mode);
            }
        }

        #[test]
        fn mqtt_user_properties_round_trip(event in event()) {
            for (version, mode) in [
                (MqttVersion::V5, ContentMode::Binary),
                (MqttVersion::V5, ContentMode::Structured),
                (MqttVersion::V3_1_1, ContentMode::Structured),
            ] {
                let publish = mqtt::to_publish(&event, version, mode)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                let read: AnyEvent = mqtt::from_publish(&publish, version)
                    .map_err(|e| TestCaseError::fail(format!("{version:?} {mode:?}: {e}")))?;
                prop_assert_eq!(&read, &read_back(&event, mode, EMPTY_BODY_IS_NO_DATA), "{:?} {:?}", version, mode);
            }
        }
    }
}

/// The Protobuf format keeps every attribute's type, so any event comes back equal; `prost`
/// reads our bytes as the same message we read, and we read `prost`'s bytes of that message
/// as the same event (the writer and reader against the reference implementation).
#[cfg(feature = "protobuf")]
mod protobuf_format {
    use super::*;
    use cloudevent_runtime::protobuf::messages::{CloudEvent, CloudEventBatch};
    use cloudevent_runtime::{Batch, Protobuf};
    use prost::Message as _;

    /// A `google.protobuf.Timestamp` starts at 0001-01-01; the generator reaches year 0.
    fn fits_protobuf(event: &AnyEvent) -> bool {
        let year_zero = |t: &Timestamp| t.as_str().starts_with("0000");
        !event.time().is_some_and(year_zero)
            && event
                .extensions()
                .iter()
                .all(|(_, value)| !matches!(value, ExtensionValueBuf::Timestamp(t) if year_zero(t)))
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn any_event_round_trips_through_protobuf(event in any_event()) {
            prop_assume!(fits_protobuf(&event));
            let bytes = event.encode::<Protobuf>().unwrap();
            let parsed = AnyEvent::decode::<Protobuf>(&bytes).unwrap_or_else(|e| panic!("{e}"));
            prop_assert_eq!(&parsed, &event);

            let message = CloudEvent::decode(bytes.as_slice()).expect("prost reads our bytes");
            let from_prost = AnyEvent::decode::<Protobuf>(&message.encode_to_vec())
                .unwrap_or_else(|e| panic!("{e}"));
            prop_assert_eq!(&from_prost, &event);
        }

        #[test]
        fn batch_round_trips_through_protobuf(events in proptest::collection::vec(any_event(), 0..4)) {
            prop_assume!(events.iter().all(fits_protobuf));
            let batch = Batch::from(events);
            let bytes = batch.encode::<Protobuf>().unwrap();
            let parsed = Batch::decode::<Protobuf>(&bytes).unwrap_or_else(|e| panic!("{e}"));
            prop_assert_eq!(&parsed[..], &batch[..]);
            let message = CloudEventBatch::decode(bytes.as_slice()).expect("prost reads our bytes");
            prop_assert_eq!(message.events.len(), batch.len());
        }
    }
}
