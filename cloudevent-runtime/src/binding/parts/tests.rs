use proptest::prelude::*;

use super::*;
use crate::Binary;
use crate::Data;
use crate::binding::BindingEvent;

fn parts(attributes: &[(&str, &str)], content_type: Option<&str>, body: &[u8]) -> BinaryParts {
    BinaryParts {
        attributes: attributes
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect(),
        datacontenttype: content_type.map(str::to_owned),
        data: (!body.is_empty()).then(|| body.to_vec()),
    }
}

const REQUIRED: [(&str, &str); 4] = [
    ("specversion", "1.0"),
    ("id", "1"),
    ("source", "/s"),
    ("type", "com.example.order.created"),
];

#[test]
fn body_becomes_json_text_or_bytes_by_content_type() {
    let any =
        AnyEvent::from_binary(parts(&REQUIRED, Some("application/json"), b"{\"a\":1}")).unwrap();
    assert_eq!(any.data(), Some(&Data::json("{\"a\":1}").unwrap()));
    let any = AnyEvent::from_binary(parts(&REQUIRED, Some("text/plain"), b"hi")).unwrap();
    assert_eq!(any.data(), Some(&Data::Text("hi".into())));
    let any = AnyEvent::from_binary(parts(
        &REQUIRED,
        Some("application/octet-stream"),
        b"\x00\xff",
    ))
    .unwrap();
    assert_eq!(any.data(), Some(&Data::Binary(vec![0, 0xff])));
    let any = AnyEvent::from_binary(parts(&REQUIRED, None, b"[1]")).unwrap();
    assert_eq!(any.data(), Some(&Data::json("[1]").unwrap()));
}

#[test]
fn json_content_type_with_non_json_body_is_an_error() {
    let err =
        AnyEvent::from_binary(parts(&REQUIRED, Some("application/json"), b"nope")).unwrap_err();
    assert!(matches!(err, BindingError::DataNotJson { .. }), "{err}");
}

#[test]
fn missing_or_wrong_specversion_is_rejected() {
    assert!(AnyEvent::from_binary(parts(&REQUIRED[1..], None, b"")).is_err());
    let mut wrong = REQUIRED;
    wrong[0] = ("specversion", "0.3");
    assert!(AnyEvent::from_binary(parts(&wrong, None, b"")).is_err());
}

#[test]
fn extensions_round_trip_as_canonical_strings() {
    let mut event = AnyEvent::new("1", "/s", "com.example.order.created");
    event.extensions_mut().insert("priority", 5);
    event.extensions_mut().insert("flag", true);
    let parts = event.to_binary().unwrap();
    assert_eq!(parts.attribute("priority"), Some("5"));
    assert_eq!(parts.attribute("flag"), Some("true"));
    // A receiver without a schema sees the canonical strings (§3.1.3.2).
    let back = AnyEvent::from_binary(parts).unwrap();
    assert_eq!(
        back.extensions().get("priority").and_then(|v| v.as_str()),
        Some("5")
    );
}

#[test]
fn the_size_limit_is_the_documents_to_the_byte() {
    // A subject that fills the document to exactly the limit, then one byte more: the same
    // verdict as the JSON reader's on the document (INTG-STD-015 R-11).
    let base = parts(&REQUIRED, Some("text/plain"), b"a\"b");
    let without =
        structured_document(&base.borrowed(), &[]).unwrap().len() + r#","subject":"""#.len();
    for extra in [0, 1] {
        let mut big = base.clone();
        let room = crate::limits::MAX_EVENT_BYTES - without + extra;
        let subject = "\u{e9}".repeat(room / 2) + &"x".repeat(room % 2);
        big.attributes.push(("subject".into(), subject));
        let document = structured_document(&big.borrowed(), &[]).unwrap();
        let view = big.borrowed();
        assert_eq!(
            document_len(&view, &[], body_data(&view).unwrap().as_ref()),
            document.len()
        );
        let fast = AnyEvent::from_binary(big.clone());
        let slow = AnyEvent::from_slice(&document);
        assert_eq!(fast.is_ok(), slow.is_ok(), "{fast:?} / {slow:?}");
        assert_eq!(document.len(), crate::limits::MAX_EVENT_BYTES + extra);
        if extra == 1 {
            assert!(matches!(
                fast,
                Err(BindingError::Event(FormatError::TooLarge { .. }))
            ));
        }
    }
}

#[test]
fn typed_values_from_the_transport_and_the_payload_come_back_typed() {
    let mut parts = parts(
        &REQUIRED,
        Some("application/json"),
        br#"{"id":"o-1","priority":5}"#,
    );
    parts.attributes.push(("priority".into(), "5".into()));
    parts.attributes.push(("flag".into(), "true".into()));
    let typed = [("flag".to_owned(), ExtensionValueBuf::Boolean(true))];
    let event = read_typed::<Order>(&parts.borrowed(), &typed).unwrap();
    assert_eq!(
        event.extensions().get("flag"),
        Some(&ExtensionValueBuf::Boolean(true))
    );
    assert_eq!(event.data().priority, Some(5));
    let any = read_any(&parts.borrowed(), &typed).unwrap();
    assert_eq!(any.extensions().get("priority"), Some(&"5".into()));
}

// ------------------------------------------------------------ the two paths, side by side

/// A payload with extensions of two types, so the typed reader's hints are exercised.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct Order {
    id: String,
    priority: Option<i32>,
}

impl CloudEventData for Order {
    const TYPE: &'static str = "com.example.order.created";
    const DATASCHEMA: Option<&'static str> = None;
    const SOURCE: Option<&'static str> = Some("https://orders.example.com");
    const DATACONTENTTYPE: &'static str = "application/json";
    const EXTENSIONS: &'static [&'static str] = &["priority"];

    fn subject(&self) -> Option<&str> {
        Some(&self.id)
    }

    fn visit_extensions<V: ExtensionVisitor>(&self, visitor: &mut V) -> Result<(), V::Error> {
        if let Some(priority) = self.priority {
            visitor.visit("priority", ExtensionValue::Integer(priority))?;
        }
        Ok(())
    }
}

/// What a reader says: the event, or the first error's rule id and attribute.
fn verdict<E: std::fmt::Debug>(
    result: Result<E, BindingError>,
) -> Result<String, (String, String)> {
    result.map(|event| format!("{event:?}")).map_err(|error| {
        let violation = error.violation();
        (violation.rule.to_string(), violation.attribute.to_string())
    })
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "specversion", "id", "source", "type", "subject", "time", "dataschema",
            "priority", "flag", "region", "ExtA", "ext-a", "", "data", "data_base64",
            "datacontenttype", "partitionkey", "token",
        ])
        .prop_map(str::to_owned),
        1 => "[a-z0-9]{1,22}",
    ]
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "1.0", "0.3", "", "1", "/s", "https://orders.example.com/eu",
            "http://localhost:8080/x", "com.example.order.created", "com.example.other",
            "2026-03-28T14:22:31Z", "2026-03-28T14:22:31+01:00", "yesterday", "true", "5",
            "-5", "2147483648", "a\u{0}b", "q\"b\\c\n", "https://schemas.example.com/v1.json",
            "urn:x", "caf\u{e9} \u{2615}", "AQI=",
        ])
        .prop_map(str::to_owned),
        1 => any::<String>(),
    ]
}

fn content_type() -> impl Strategy<Value = Option<String>> {
    prop::option::of(
        prop::sample::select(vec![
            "application/json",
            "Application/JSON; charset=utf-8",
            "application/vnd.example+json",
            "text/plain",
            "text/xml; charset=utf-8",
            "application/octet-stream",
            "application/avro",
            "application/xml; charset=latin1",
            "not a media type",
            "",
        ])
        .prop_map(str::to_owned),
    )
}

fn body() -> impl Strategy<Value = Option<Vec<u8>>> {
    prop::option::of(prop_oneof![
        3 => prop::sample::select(vec![
            &br#"{"id":"o-1","priority":5}"#[..],
            br#"{"id":"o-1"}"#,
            br#" {"a": [1, 2.5, null]} "#,
            b"[1]",
            b"null",
            b"\"text\"",
            br#""\ud800""#,
            b"nope",
            b"",
            b"\xff\x00\x01",
            b"caf\xc3\xa9",
        ])
        .prop_map(<[u8]>::to_vec),
        1 => prop::collection::vec(any::<u8>(), 0..24),
        1 => any::<String>().prop_map(String::into_bytes),
    ])
}

fn typed_value() -> impl Strategy<Value = ExtensionValueBuf> {
    prop_oneof![
        any::<bool>().prop_map(ExtensionValueBuf::Boolean),
        prop::sample::select(vec![5, -5, 0, i32::MAX]).prop_map(ExtensionValueBuf::Integer),
        value().prop_map(ExtensionValueBuf::String),
        prop::collection::vec(any::<u8>(), 0..4)
            .prop_map(|bytes| ExtensionValueBuf::Binary(Binary::from(bytes))),
    ]
}

fn binary_parts() -> impl Strategy<Value = BinaryParts> {
    (
        any::<bool>(),
        prop::collection::vec((name(), value()), 0..6),
        content_type(),
        body(),
    )
        .prop_map(|(required, extra, datacontenttype, data)| {
            let mut attributes: Vec<(String, String)> = if required {
                REQUIRED
                    .iter()
                    .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                    .collect()
            } else {
                Vec::new()
            };
            // An extra attribute replaces a required one of its name half the time, so
            // every required attribute is also seen wrong, and is otherwise a duplicate.
            for (index, (name, value)) in extra.into_iter().enumerate() {
                match attributes.iter_mut().find(|(n, _)| *n == name) {
                    Some(slot) if index % 2 == 0 => slot.1 = value,
                    _ => attributes.push((name, value)),
                }
            }
            BinaryParts {
                attributes,
                datacontenttype,
                data,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1024,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// The R-11 size of a header value is the length serde_json writes it in, whatever it
    /// holds: the word-at-a-time scan for characters to escape misses none.
    #[test]
    fn a_string_measures_as_serde_json_writes_it(
        text in prop_oneof![
            any::<String>(),
            "[ -~\\x00-\\x1f\"\\\\\u{7f}\u{e9}\u{20ac}]{0,40}",
        ],
    ) {
        prop_assert_eq!(json_string_len(&text), serde_json::to_string(&text).unwrap().len());
    }

    /// Reading the parts and parsing the document they stand for give one verdict: the
    /// same event, or the same first error (rule id and attribute), for `AnyEvent` and a
    /// typed event, with typed values from the transport.
    #[test]
    fn reading_parts_agrees_with_parsing_their_document(
        parts in binary_parts(),
        typed in prop::collection::vec((name(), typed_value()), 0..2),
    ) {
        let view = parts.borrowed();
        let any_hints = hints(&typed);
        let document = structured_document(&view, &any_hints);
        if let Ok(document) = &document {
            let data = body_data(&view).unwrap();
            prop_assert_eq!(document_len(&view, &any_hints, data.as_ref()), document.len());
            prop_assert!(document_len_bound(&view, &any_hints, data.as_ref()) >= document.len());
            prop_assert!(document_len_bound(&view, &[], data.as_ref()) >= document_len(&view, &[], data.as_ref()));
        }
        let slow = document.and_then(|document| Ok(AnyEvent::from_slice(&document)?));
        prop_assert_eq!(verdict(read_any(&view, &typed)), verdict(slow));

        let mut typed_hints = typed_extensions::<Order>(&view);
        typed_hints.extend(hints(&typed));
        let slow = structured_document(&view, &typed_hints)
            .and_then(|document| Ok(Event::<Order>::from_slice(&document)?));
        prop_assert_eq!(verdict(read_typed::<Order>(&view, &typed)), verdict(slow));
    }
}

// ------------------------------------------- the direct reading and the general one (issue 40)

/// The direct reading's verdict beside the general one's: the direct reading gives the same
/// event or gives up (`None`), never an event the general reading refuses or reads otherwise.
fn direct_and_general(parts: &BinaryParts) -> (Option<String>, Result<String, (String, String)>) {
    let view = parts.borrowed();
    let named = view
        .attributes
        .iter()
        .any(|(name, _)| Order::EXTENSIONS.contains(name));
    let direct = read_typed_direct::<Order>(&view, named).map(|event| format!("{event:?}"));
    let general = verdict(read_typed_general::<Order>(&view, &[], named));
    (direct, general)
}

/// Parts of a valid `Order` event, with `extra` attributes after the required ones.
fn order_parts(extra: &[(&str, &str)], content_type: Option<&str>, body: &[u8]) -> BinaryParts {
    let mut attributes = REQUIRED.to_vec();
    attributes[2] = ("source", "https://orders.example.com");
    attributes.extend_from_slice(extra);
    parts(&attributes, content_type, body)
}

#[test]
fn the_direct_reading_reads_the_usual_message_and_leaves_the_rest() {
    const JSON: Option<&str> = Some("application/json");
    const BODY: &[u8] = br#"{"id":"o-1"}"#;
    let read = [
        order_parts(&[], JSON, BODY),
        order_parts(&[("region", "eu"), ("subject", "o-1")], JSON, BODY),
        order_parts(&[("time", "2026-03-28T14:22:31Z")], JSON, BODY),
        order_parts(&[("priority", "high")], JSON, BODY),
        order_parts(
            &[],
            Some("application/vnd.example+json"),
            b" {\"id\":\"o-1\"} ",
        ),
    ];
    for parts in &read {
        let (direct, general) = direct_and_general(parts);
        assert!(direct.is_some(), "{parts:?}: {general:?}");
        assert_eq!(Ok(direct.unwrap()), general, "{parts:?}");
    }
    let mut missing_specversion = order_parts(&[], JSON, BODY);
    missing_specversion.attributes.remove(0);
    let mut upper_case = order_parts(&[("Region", "eu")], JSON, BODY);
    upper_case.attributes.swap(0, 4);
    let given_up = [
        missing_specversion,
        upper_case,
        order_parts(&[("subject", "")], JSON, BODY),
        order_parts(&[("time", "yesterday")], JSON, BODY),
        order_parts(&[("time", "2026-03-28T14:22:31+01:00")], JSON, BODY),
        order_parts(&[("id", "2")], JSON, BODY),
        order_parts(&[("region", "eu"), ("region", "us")], JSON, BODY),
        order_parts(&[("type", "com.example.other")], JSON, BODY),
        order_parts(&[("data", "{}")], JSON, BODY),
        order_parts(&[("datacontenttype", "application/json")], None, BODY),
        order_parts(&[("token", "secret")], JSON, BODY),
        order_parts(&[("ExtA", "1")], JSON, BODY),
        // The payload's Integer extension: the general reading reads it typed.
        order_parts(&[("priority", "5")], JSON, br#"{"id":"o-1","priority":5}"#),
        order_parts(&[], None, BODY),
        // `Order` takes data; an event without any is refused.
        order_parts(&[], JSON, b""),
        order_parts(&[], Some("text/plain"), b"hi"),
        order_parts(&[], JSON, b"nope"),
        order_parts(&[], JSON, br#"{"id":"o-1","priority":"5"}"#),
        parts(&[], JSON, BODY),
    ];
    for parts in &given_up {
        let (direct, general) = direct_and_general(parts);
        assert_eq!(direct, None, "{parts:?}: {general:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2048,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Issue 40: on any parts, the direct reading gives the general reading's event or gives
    /// up; the valid `Order` messages mutated one attribute at a time reach it often.
    #[test]
    fn the_direct_reading_is_the_general_one(
        parts in prop_oneof![
            binary_parts(),
            (
                prop::collection::vec((name(), value()), 0..4),
                prop::sample::select(vec![
                    &br#"{"id":"o-1"}"#[..],
                    br#"{"id":"o-1","priority":5}"#,
                    br#"{"id":"x","priority":null}"#,
                    b"",
                ]),
            )
                .prop_map(|(extra, body)| {
                    let mut parts = order_parts(&[], Some("application/json"), body);
                    parts.attributes.extend(extra);
                    parts
                }),
        ],
    ) {
        let (direct, general) = direct_and_general(&parts);
        if let Some(direct) = direct {
            prop_assert_eq!(Ok(direct), general);
        }
    }
}

// ------------------------------ the payload's String extensions, held aside (issue 40)

/// A payload filling String extensions from its fields (as `#[cloudevent(extension)]` on a
/// `String` does), more of them than the direct reading holds aside, and an Integer one.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct Placed {
    id: String,
    region: Option<String>,
    zone: Option<String>,
    a: Option<String>,
    b: Option<String>,
    c: Option<String>,
    priority: Option<i32>,
}

impl CloudEventData for Placed {
    const TYPE: &'static str = "com.example.order.created";
    const DATASCHEMA: Option<&'static str> = None;
    const SOURCE: Option<&'static str> = Some("https://orders.example.com");
    const DATACONTENTTYPE: &'static str = "application/json";
    const EXTENSIONS: &'static [&'static str] = &["region", "zone", "a", "b", "c", "priority"];

    fn subject(&self) -> Option<&str> {
        Some(&self.id)
    }

    fn visit_extensions<V: ExtensionVisitor>(&self, visitor: &mut V) -> Result<(), V::Error> {
        for (name, value) in [
            ("region", &self.region),
            ("zone", &self.zone),
            ("a", &self.a),
            ("b", &self.b),
            ("c", &self.c),
        ] {
            if let Some(value) = value {
                visitor.visit(name, ExtensionValue::String(value))?;
            }
        }
        if let Some(priority) = self.priority {
            visitor.visit("priority", ExtensionValue::Integer(priority))?;
        }
        Ok(())
    }
}

/// [`direct_and_general`] for [`Placed`].
fn placed_direct_and_general(
    parts: &BinaryParts,
) -> (Option<String>, Result<String, (String, String)>) {
    let view = parts.borrowed();
    let named = view
        .attributes
        .iter()
        .any(|(name, _)| Placed::EXTENSIONS.contains(name));
    let direct = read_typed_direct::<Placed>(&view, named).map(|event| format!("{event:?}"));
    let general = verdict(read_typed_general::<Placed>(&view, &[], named));
    (direct, general)
}

#[test]
fn the_payloads_string_extensions_are_held_aside_and_written_back() {
    const JSON: Option<&str> = Some("application/json");
    const BODY: &[u8] = br#"{"id":"o-1","region":"eu","zone":"z1","a":"1","b":"2","c":"3"}"#;
    let read = [
        order_parts(&[("region", "eu")], JSON, BODY),
        order_parts(
            &[("zone", "z1"), ("region", "eu"), ("flag", "x")],
            JSON,
            BODY,
        ),
        order_parts(
            &[("aa", "x"), ("region", "eu"), ("a", "1"), ("ab", "y")],
            JSON,
            BODY,
        ),
        // More than the four held: the fifth is kept, and removed as the payload's own.
        order_parts(
            &[
                ("c", "3"),
                ("region", "eu"),
                ("b", "2"),
                ("zone", "z1"),
                ("a", "1"),
            ],
            JSON,
            BODY,
        ),
        order_parts(&[("region", "eu"), ("priority", "high")], JSON, BODY),
        // None to write back: the attribute is the envelope's own.
        order_parts(
            &[("region", "eu"), ("zone", "z2")],
            JSON,
            br#"{"id":"o-1"}"#,
        ),
    ];
    for parts in &read {
        let (direct, general) = placed_direct_and_general(parts);
        assert!(direct.is_some(), "{parts:?}: {general:?}");
        assert_eq!(Ok(direct.unwrap()), general, "{parts:?}");
    }
    let given_up = [
        // Another value than the payload's: R-7, from the general reading.
        order_parts(&[("region", "us")], JSON, BODY),
        order_parts(&[("region", "eu"), ("region", "eu")], JSON, BODY),
        order_parts(
            &[
                ("c", "3"),
                ("region", "eu"),
                ("b", "2"),
                ("zone", "z1"),
                ("a", "1"),
                ("c", "3"),
            ],
            JSON,
            BODY,
        ),
        order_parts(
            &[("region", "eu"), ("priority", "5")],
            JSON,
            br#"{"id":"o-1","region":"eu","priority":5}"#,
        ),
    ];
    for parts in &given_up {
        let (direct, general) = placed_direct_and_general(parts);
        assert_eq!(direct, None, "{parts:?}: {general:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2048,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Issue 40: with the payload's String extensions held aside, the direct reading still
    /// gives the general reading's event or gives up, whatever the attributes, their order
    /// and values, and whatever the payload writes back.
    #[test]
    fn the_direct_reading_with_held_extensions_is_the_general_one(
        extra in prop::collection::vec(
            (
                prop_oneof![
                    3 => prop::sample::select(vec![
                        "region", "zone", "a", "b", "c", "priority", "aa", "0", "zz", "flag",
                        "Region", "subject", "time",
                    ])
                    .prop_map(str::to_owned),
                    1 => name(),
                ],
                prop_oneof![
                    3 => prop::sample::select(vec![
                        "eu", "z1", "1", "2", "3", "", "5", "o-1", "a\u{7}b",
                    ])
                        .prop_map(str::to_owned),
                    1 => value(),
                ],
            ),
            0..8,
        ),
        fields in prop::collection::vec(
            prop::option::of(prop::sample::select(vec![
                "eu", "z1", "1", "2", "3", "", "x", "a\u{7}b",
            ])),
            5,
        ),
        priority in prop::option::of(prop::sample::select(vec![5, -5])),
        id in prop::sample::select(vec!["o-1", "a\u{7}b", ""]),
    ) {
        let payload = Placed {
            id: id.to_owned(),
            region: fields[0].map(str::to_owned),
            zone: fields[1].map(str::to_owned),
            a: fields[2].map(str::to_owned),
            b: fields[3].map(str::to_owned),
            c: fields[4].map(str::to_owned),
            priority,
        };
        let body = serde_json::to_vec(&payload).unwrap();
        let mut parts = order_parts(&[], Some("application/json"), &body);
        parts.attributes.extend(extra);
        let (direct, general) = placed_direct_and_general(&parts);
        if let Some(direct) = direct {
            prop_assert_eq!(Ok(direct), general);
        }
    }
}
