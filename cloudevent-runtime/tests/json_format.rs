//! The CloudEvents JSON event format (CE-JSON 1.0.2) at its corners, through the public API.

use cloudevent_runtime::Attributes;
use cloudevent_runtime::Json;
use cloudevent_runtime::Validate;
use cloudevent_runtime::{
    AnyEvent, Binary, CloudEvent, Data, Event, ExtensionValueBuf, FormatError, Timestamp,
    Traceable, dispatch,
};

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
    region: String,
    total_cents: i64,
}

fn order() -> OrderCreated {
    OrderCreated {
        order_id: "order-8842".into(),
        customer_id: "cust-1029".into(),
        region: "eu-west".into(),
        total_cents: 14_999,
    }
}

/// A text payload: serializes as a string, so it goes to `data` as a JSON string.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.report.exported",
    source = "https://reports.example.com",
    datacontenttype = "text/csv"
)]
struct CsvReport(String);

/// A binary payload: serializes as bytes, so it goes to `data_base64`.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.image.thumbnail.created",
    source = "https://images.example.com",
    datacontenttype = "image/png"
)]
struct Thumbnail(Binary);

/// A JSON payload that is a plain string.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.note.text.added",
    source = "https://notes.example.com"
)]
struct Note(String);

fn event_json(extra: &str) -> String {
    format!(
        r#"{{"specversion":"1.0","id":"A234-1234-1234","source":"/mycontext","type":"com.example.order.created"{extra}}}"#
    )
}

fn parse_err(json: &str) -> FormatError {
    match AnyEvent::from_slice(json.as_bytes()) {
        Ok(event) => panic!("accepted {json}: {event:?}"),
        Err(err) => err,
    }
}

fn rule_of(err: &FormatError) -> &'static str {
    err.rule().map_or("", |r| r.as_str())
}

/// The keys of a JSON object in document order (`serde_json::Value` would sort them).
struct Keys(Vec<String>);

impl<'de> serde::Deserialize<'de> for Keys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeysVisitor;
        impl<'de> serde::de::Visitor<'de> for KeysVisitor {
            type Value = Keys;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some((key, serde::de::IgnoredAny)) = map.next_entry::<String, _>()? {
                    keys.push(key);
                }
                Ok(Keys(keys))
            }
        }
        deserializer.deserialize_map(KeysVisitor)
    }
}

#[test]
fn typed_event_serializes_core_then_extensions_then_data() {
    let json = serde_json::to_string(&Event::new(order())).unwrap();
    let keys = serde_json::from_str::<Keys>(&json).unwrap().0;
    assert_eq!(
        keys,
        [
            "specversion",
            "id",
            "source",
            "type",
            "datacontenttype",
            "dataschema",
            "subject",
            "time",
            "partitionkey",
            "region",
            "causationid",
            "correlationid",
            "data"
        ],
        "{json}"
    );
}

#[test]
fn typed_event_round_trips() {
    let event = Event::new(order());
    let bytes = serde_json::to_vec(&event).unwrap();
    let back: Event<OrderCreated> = Event::from_slice(&bytes).unwrap();
    assert_eq!(back, event);
    assert_eq!(back.extension("partitionkey"), Some("cust-1029".into()));
    // The same through serde's Deserialize.
    let again: Event<OrderCreated> = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(again, event);
}

#[test]
fn every_emission_gets_a_new_id() {
    let a = Event::new(order());
    let b = Event::new(order());
    assert_ne!(a.id(), b.id());
    assert_eq!(a.id().len(), 26);
}

#[test]
fn wrong_type_names_expected_and_found() {
    let json = r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.shipped","data":{}}"#;
    let err = Event::<OrderCreated>::from_slice(json.as_bytes()).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("com.example.order.created"), "{text}");
    assert!(text.contains("com.example.order.shipped"), "{text}");
    assert_eq!(err.attribute(), Some("type"));
}

#[test]
fn specversion_must_be_exactly_1_0() {
    let json = r#"{"specversion":"0.3","id":"1","source":"/s","type":"com.example.order.created"}"#;
    let err = parse_err(json);
    // `AnyEvent` reads under the CloudEvents profile: the spec's own rule id.
    assert_eq!(rule_of(&err), "CE 1.0.2 specversion");
    assert!(err.to_string().contains("0.3"), "{err}");
    let strict = AnyEvent::decode_with::<Json>(
        json.as_bytes(),
        &cloudevent_runtime::Policy::new(cloudevent_runtime::Profile::IntgStd015),
    )
    .unwrap_err();
    assert_eq!(rule_of(&strict), "INTG-STD-015 R-1");

    let err = parse_err(r#"{"id":"1","source":"/s","type":"t"}"#);
    assert_eq!(err.attribute(), Some("specversion"));
    let err = parse_err(r#"{"specversion":1.0,"id":"1","source":"/s","type":"t"}"#);
    assert_eq!(err.attribute(), Some("specversion"));
}

#[test]
fn required_attributes_present_and_non_empty() {
    for (json, attribute) in [
        (r#"{"specversion":"1.0","source":"/s","type":"t"}"#, "id"),
        (
            r#"{"specversion":"1.0","id":"","source":"/s","type":"t"}"#,
            "id",
        ),
        (r#"{"specversion":"1.0","id":"1","type":"t"}"#, "source"),
        (
            r#"{"specversion":"1.0","id":"1","source":null,"type":"t"}"#,
            "source",
        ),
        (
            r#"{"specversion":"1.0","id":"1","source":"/s","type":""}"#,
            "type",
        ),
    ] {
        let err = parse_err(json);
        assert_eq!(err.attribute(), Some(attribute), "{json}: {err}");
        assert!(err.to_string().contains("CE 1.0.2 required"), "{err}");
    }
}

#[test]
fn null_means_unset_for_attributes() {
    let event = AnyEvent::from_slice(
        event_json(r#","subject":null,"time":null,"datacontenttype":null,"comexampleext":null"#)
            .as_bytes(),
    )
    .unwrap();
    assert_eq!(event.subject(), None);
    assert_eq!(event.time(), None);
    assert_eq!(event.datacontenttype(), None);
    assert!(event.extensions().is_empty());
    assert!(!String::from_utf8(event.to_vec()).unwrap().contains("null"));
}

#[test]
fn null_data_differs_from_absent_data() {
    let absent = AnyEvent::from_slice(event_json("").as_bytes()).unwrap();
    assert_eq!(absent.data(), None);
    let null = AnyEvent::from_slice(event_json(r#","data":null"#).as_bytes()).unwrap();
    assert_eq!(null.data(), Some(&Data::json("null").unwrap()));
    // Each re-emits as it came.
    assert!(!String::from_utf8(absent.to_vec()).unwrap().contains("data"));
    assert!(
        String::from_utf8(null.to_vec())
            .unwrap()
            .ends_with(r#""data":null}"#)
    );
}

#[test]
fn data_base64_without_datacontenttype_stays_without() {
    let json = event_json(r#","data_base64":"eyAieHl6IjogMTIzIH0=""#);
    let event = AnyEvent::from_slice(json.as_bytes()).unwrap();
    assert_eq!(event.datacontenttype(), None);
    assert_eq!(
        event.data(),
        Some(&Data::Binary(br#"{ "xyz": 123 }"#.to_vec()))
    );
    let out = String::from_utf8(event.to_vec()).unwrap();
    assert!(!out.contains("datacontenttype"), "{out}");
    assert!(
        out.contains(r#""data_base64":"eyAieHl6IjogMTIzIH0=""#),
        "{out}"
    );
}

#[test]
fn data_base64_must_be_valid_base64() {
    let err = parse_err(&event_json(r#","data_base64":"not*base64""#));
    assert_eq!(err.attribute(), Some("data_base64"));
    let err = parse_err(&event_json(r#","data_base64":42"#));
    assert_eq!(err.attribute(), Some("data_base64"));
}

#[test]
fn data_and_data_base64_never_both() {
    let err = parse_err(&event_json(r#","data":{},"data_base64":"AA==""#));
    assert_eq!(rule_of(&err), "INTG-STD-015 R-7");
}

#[test]
fn string_data_under_a_json_type_is_not_parsed_twice() {
    let json = event_json(r#","datacontenttype":"application/json","data":"{\"a\":1}""#);
    let event = AnyEvent::from_slice(json.as_bytes()).unwrap();
    assert_eq!(event.data(), Some(&Data::json(r#""{\"a\":1}""#).unwrap()));

    // A typed string payload gets the string itself, escapes resolved once.
    let note = r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.note.text.added","data":"{\"a\":1}"}"#;
    let typed: Event<Note> = Event::from_slice(note.as_bytes()).unwrap();
    assert_eq!(typed.data().0, r#"{"a":1}"#);
    // A struct payload does not accept a string that happens to hold JSON.
    let order = r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.created","data":"{\"order_id\":\"o\",\"customer_id\":\"c\",\"region\":\"r\",\"total_cents\":1}"}"#;
    let err = Event::<OrderCreated>::from_slice(order.as_bytes()).unwrap_err();
    assert_eq!(err.attribute(), Some("data"));
}

#[test]
fn json_suffix_types_with_parameters_are_json() {
    for content_type in [
        "application/vnd.example.order+json; charset=utf-8",
        "application/json;charset=UTF-8",
        "text/json",
        "APPLICATION/JSON",
    ] {
        let json = event_json(&format!(
            r#","datacontenttype":"{content_type}","data":{{"a":[1,2]}}"#
        ));
        let event = AnyEvent::from_slice(json.as_bytes()).unwrap();
        assert_eq!(
            event.data(),
            Some(&Data::json(r#"{"a":[1,2]}"#).unwrap()),
            "{content_type}"
        );
    }
    let xml = event_json(r#","datacontenttype":"application/xml","data":"<much wow=\"xml\"/>""#);
    let event = AnyEvent::from_slice(xml.as_bytes()).unwrap();
    assert_eq!(
        event.data(),
        Some(&Data::Text(r#"<much wow="xml"/>"#.into()))
    );
}

#[test]
fn non_json_data_must_be_a_string_whatever_the_member_order() {
    let before = r#"{"specversion":"1.0","id":"1","source":"/s","type":"t","datacontenttype":"text/plain","data":{"a":1}}"#;
    assert_eq!(parse_err(before).attribute(), Some("data"));
    let after = r#"{"specversion":"1.0","id":"1","source":"/s","type":"t","data":{"a":1},"datacontenttype":"text/plain"}"#;
    assert_eq!(parse_err(after).attribute(), Some("data"));
    let text_after = r#"{"specversion":"1.0","id":"1","source":"/s","type":"t","data":"hi","datacontenttype":"text/plain"}"#;
    let event = AnyEvent::from_slice(text_after.as_bytes()).unwrap();
    assert_eq!(event.data(), Some(&Data::Text("hi".into())));
}

#[test]
fn text_payload_goes_to_data_as_a_string() {
    let event = Event::new(CsvReport("a,b\n1,2".into()));
    let json = serde_json::to_string(&event).unwrap();
    assert!(json.ends_with(r#""data":"a,b\n1,2"}"#), "{json}");
    assert!(json.contains(r#""datacontenttype":"text/csv""#));
    let back: Event<CsvReport> = Event::from_slice(json.as_bytes()).unwrap();
    assert_eq!(back.data(), event.data());

    // `data` before `datacontenttype` is buffered, then read as text.
    let reordered = r#"{"data":"x,y","specversion":"1.0","id":"1","source":"/s","type":"com.example.report.exported","datacontenttype":"text/csv"}"#;
    let back: Event<CsvReport> = Event::from_slice(reordered.as_bytes()).unwrap();
    assert_eq!(back.data().0, "x,y");
}

#[test]
fn binary_payload_goes_to_data_base64() {
    let event = Event::new(Thumbnail(Binary::from(*b"\x89PNG\r\n")));
    let json = serde_json::to_string(&event).unwrap();
    assert!(json.contains(r#""data_base64":"iVBORw0K""#), "{json}");
    assert!(!json.contains(r#""data":"#));
    let back: Event<Thumbnail> = Event::from_slice(json.as_bytes()).unwrap();
    assert_eq!(back.data(), event.data());
    let any = AnyEvent::from_slice(json.as_bytes()).unwrap();
    assert_eq!(any.data(), Some(&Data::Binary(b"\x89PNG\r\n".to_vec())));
    let typed: Event<Thumbnail> = any.into_typed().unwrap();
    assert_eq!(typed.data(), event.data());
}

#[test]
fn integer_extensions_at_the_i32_bounds() {
    for (value, expected) in [
        ("2147483647", i32::MAX),
        ("-2147483648", i32::MIN),
        ("0", 0),
    ] {
        let event =
            AnyEvent::from_slice(event_json(&format!(r#","comexampleint":{value}"#)).as_bytes())
                .unwrap();
        assert_eq!(
            event.extensions().get("comexampleint"),
            Some(&ExtensionValueBuf::Integer(expected))
        );
        assert!(String::from_utf8(event.to_vec()).unwrap().contains(value));
    }
    for value in ["2147483648", "-2147483649", "18446744073709551615"] {
        let err = parse_err(&event_json(&format!(r#","comexampleint":{value}"#)));
        assert_eq!(err.attribute(), Some("comexampleint"));
        assert_eq!(rule_of(&err), "CE 1.0.2 type system");
        assert!(err.to_string().contains(value), "{err}");
    }
}

#[test]
fn extension_values_outside_the_type_system_are_refused() {
    for value in ["1.5", "1e3", r#"{"a":1}"#, "[1,2]"] {
        let err = parse_err(&event_json(&format!(r#","comexampleext":{value}"#)));
        assert_eq!(err.attribute(), Some("comexampleext"), "{value}");
        assert_eq!(rule_of(&err), "CE 1.0.2 type system");
    }
    let ok = AnyEvent::from_slice(event_json(r#","flag":true,"label":"x""#).as_bytes()).unwrap();
    assert_eq!(
        ok.extensions().get("flag"),
        Some(&ExtensionValueBuf::Boolean(true))
    );
    assert_eq!(
        ok.extensions().get("label"),
        Some(&ExtensionValueBuf::from("x"))
    );
}

#[test]
fn duplicate_keys_are_an_error() {
    for extra in [
        r#","id":"2""#,
        r#","comexampleext":"a","comexampleext":"b""#,
        r#","data":{},"data":{}"#,
        r#","subject":null,"subject":"x""#,
    ] {
        let err = parse_err(&event_json(extra));
        assert!(err.to_string().contains("more than once"), "{extra}: {err}");
        assert_eq!(rule_of(&err), "INTG-STD-015 R-7");
    }
    // Escaped spelling of the same key is the same key.
    let err = parse_err(r#"{"specversion":"1.0","id":"1","\u0069d":"2","source":"/s","type":"t"}"#);
    assert_eq!(err.attribute(), Some("id"));
    // Typed events too.
    let json = r#"{"specversion":"1.0","id":"1","id":"2","source":"/s","type":"com.example.order.created"}"#;
    assert!(Event::<OrderCreated>::from_slice(json.as_bytes()).is_err());
}

/// A `null` extension is unset but still counts for duplicates, in either order, and a
/// member repeated more often is one finding with its count (the reader's sets for both are
/// made on first use, issue 40).
#[test]
fn null_extensions_and_repeated_members_are_tracked() {
    for extra in [
        r#","comexampleext":null,"comexampleext":"b""#,
        r#","comexampleext":"b","comexampleext":null"#,
        r#","comexampleext":null,"comexampleext":null"#,
    ] {
        let err = parse_err(&event_json(extra));
        assert!(err.to_string().contains("more than once"), "{extra}: {err}");
        assert_eq!(rule_of(&err), "INTG-STD-015 R-7");
    }
    let json = event_json(r#","comexampleext":"a","comexampleext":"b","comexampleext":null"#);
    let report = cloudevent_runtime::Validator::new(cloudevent_runtime::Profile::CloudEvents)
        .validate_bytes::<Json>(json.as_bytes());
    let repeated: Vec<_> = report
        .findings()
        .iter()
        .filter(|f| f.attribute == "comexampleext")
        .collect();
    assert_eq!(repeated.len(), 1, "{report}");
    assert!(
        repeated[0].to_string().contains("appears 3 times"),
        "{}",
        repeated[0]
    );
}

#[test]
fn control_characters_are_refused() {
    for extra in [r#","subject":"a\u0000b""#, r#","comexampleext":"x\u009fy""#] {
        let err = parse_err(&event_json(extra));
        assert!(err.rule().is_some(), "{extra}");
    }
    let err = parse_err(r#"{"specversion":"1.0","id":"a\nb","source":"/s","type":"t"}"#);
    assert_eq!(err.attribute(), Some("id"));
}

#[test]
fn time_must_be_rfc3339() {
    let err = parse_err(&event_json(r#","time":"yesterday""#));
    assert_eq!(err.attribute(), Some("time"));
    let ok =
        AnyEvent::from_slice(event_json(r#","time":"2018-04-05T17:31:00Z""#).as_bytes()).unwrap();
    assert_eq!(
        ok.time(),
        Some(&Timestamp::try_from("2018-04-05T17:31:00Z").unwrap())
    );
}

#[test]
fn unknown_extensions_are_forwarded_unchanged() {
    let json =
        event_json(r#","comexampleextension1":"value","comexampleothervalue":5,"data":{"x":1}"#);
    let event = AnyEvent::from_slice(json.as_bytes()).unwrap();
    let out: serde_json::Value = serde_json::from_slice(&event.to_vec()).unwrap();
    let input: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(out, input);

    // Also when received typed.
    let typed = r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.created","comexampleflag":true,"data":{"order_id":"o","customer_id":"c","region":"r","total_cents":1}}"#;
    let event: Event<OrderCreated> = Event::from_slice(typed.as_bytes()).unwrap();
    let out = String::from_utf8(event.to_vec().unwrap()).unwrap();
    assert!(out.contains(r#""comexampleflag":true"#), "{out}");
}

#[test]
fn an_envelope_subject_that_differs_from_the_payload_is_kept() {
    let json = r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.created","subject":"other","data":{"order_id":"o","customer_id":"c","region":"r","total_cents":1}}"#;
    let event: Event<OrderCreated> = Event::from_slice(json.as_bytes()).unwrap();
    assert_eq!(event.subject(), Some("other"));
    assert_eq!(event.extension("region"), Some("r".into()));
    let out = String::from_utf8(event.to_vec().unwrap()).unwrap();
    assert_eq!(out.matches("\"subject\"").count(), 1, "{out}");
}

#[test]
fn an_envelope_extension_that_a_payload_field_fills_with_another_value_is_refused() {
    // Kept, both would be sent on: one attribute, two values (the issue's `ce-priority: 7`
    // next to a payload `priority: -3`).
    let json = r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.created","partitionkey":"p-9","data":{"order_id":"o","customer_id":"c","region":"r","total_cents":1}}"#;
    let err = Event::<OrderCreated>::from_slice(json.as_bytes()).unwrap_err();
    assert_eq!(err.attribute(), Some("partitionkey"), "{err}");
    assert_eq!(rule_of(&err), "INTG-STD-015 R-7");
    assert!(
        err.to_string().contains("`p-9`") && err.to_string().contains("`c`"),
        "{err}"
    );
    // The same value in both places is one value.
    let same = json.replace("p-9", "c");
    let event: Event<OrderCreated> = Event::from_slice(same.as_bytes()).unwrap();
    let out = String::from_utf8(event.to_vec().unwrap()).unwrap();
    assert_eq!(out.matches("partitionkey").count(), 1, "{out}");
}

#[test]
fn oversized_events_are_refused_before_parsing() {
    let mut big = event_json(r#","data":""#).into_bytes();
    big.truncate(big.len() - 1);
    big.extend(std::iter::repeat_n(b'a', 256 * 1024));
    big.extend(b"\"}");
    let err = AnyEvent::from_slice(&big).unwrap_err();
    assert!(
        matches!(err, FormatError::TooLarge { limit: 262_144, .. }),
        "{err}"
    );
    assert_eq!(rule_of(&err), "INTG-STD-015 R-11");
    let err = Event::<OrderCreated>::from_slice(&big).unwrap_err();
    assert!(matches!(err, FormatError::TooLarge { .. }));
    let err = AnyEvent::from_reader(&big[..], 256 * 1024).unwrap_err();
    assert!(matches!(err, FormatError::TooLarge { found: 262_145, .. }));
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    let inputs: [&[u8]; 10] = [
        b"",
        b"null",
        b"[]",
        b"\"event\"",
        b"{",
        b"{\"specversion\":",
        b"{\"data\":{\"a\":",
        b"\xff\xfe",
        b"{\"specversion\":\"1.0\"} trailing",
        b"{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]}",
    ];
    for input in inputs {
        assert!(AnyEvent::from_slice(input).is_err(), "{input:?}");
        assert!(
            Event::<OrderCreated>::from_slice(input).is_err(),
            "{input:?}"
        );
    }
}

#[test]
fn absent_data_for_a_payload_that_needs_one_is_an_error() {
    let json = r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.created"}"#;
    let err = Event::<OrderCreated>::from_slice(json.as_bytes()).unwrap_err();
    assert_eq!(err.attribute(), Some("data"));
}

dispatch! {
    /// What the test consumer handles.
    #[derive(Debug)]
    enum Inbox {
        Order(OrderCreated),
        Report(CsvReport),
    }
}

#[test]
fn dispatch_gives_typed_events_and_keeps_unknown_ones() {
    let order = serde_json::to_vec(&Event::new(order())).unwrap();
    assert!(
        matches!(Inbox::from_slice(&order), Ok(Inbox::Order(e)) if e.data().total_cents == 14_999)
    );
    let report = serde_json::to_vec(&Event::new(CsvReport("a".into()))).unwrap();
    assert!(matches!(Inbox::from_slice(&report), Ok(Inbox::Report(_))));
    let other = event_json(r#","type2":"x""#)
        .replace("com.example.order.created", "com.example.order.lost");
    assert!(
        matches!(Inbox::from_slice(other.as_bytes()), Ok(Inbox::Other(e)) if e.ty() == "com.example.order.lost")
    );
    assert_eq!(
        Inbox::TYPES,
        ["com.example.order.created", "com.example.report.exported"]
    );
}

#[test]
fn caused_by_carries_correlation_and_trace_context() {
    let root = Event::new(order())
        .with_extension(
            "traceparent",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        )
        .unwrap();
    assert!(root.is_root());
    assert_eq!(root.causationid().as_deref(), Some(root.id()));
    let root_correlation = root.correlationid().map(|c| c.into_owned()).unwrap();
    assert_ne!(root_correlation, root.id());

    let child = Event::new(CsvReport("x".into())).caused_by(&root);
    assert!(!child.is_root());
    assert_eq!(child.causationid().as_deref(), Some(root.id()));
    assert_eq!(
        child.correlationid().as_deref(),
        Some(root_correlation.as_str())
    );
    assert_eq!(child.traceparent(), root.traceparent());

    // Through the wire: a consumer parses the parent dynamically and answers.
    let parent = AnyEvent::from_slice(&root.to_vec().unwrap()).unwrap();
    let grandchild = Event::builder(CsvReport("y".into()))
        .caused_by(&parent)
        .build()
        .unwrap();
    assert_eq!(grandchild.causationid().as_deref(), Some(root.id()));
    assert_eq!(
        grandchild.correlationid().as_deref(),
        Some(root_correlation.as_str())
    );

    // A parent without correlationid becomes the workflow's root.
    let bare = AnyEvent::new("01PARENT", "/s", "com.example.order.created");
    let child = Event::new(CsvReport("z".into())).caused_by(&bare);
    assert_eq!(child.correlationid().as_deref(), Some("01PARENT"));
}

#[test]
fn new_id_for_a_new_emission_keeps_the_root_convention() {
    let first = Event::new(order());
    let again = first
        .clone()
        .with_new_id(cloudevent_runtime::IdKind::UuidV4);
    assert_ne!(again.id(), first.id());
    assert_eq!(again.id().len(), 36);
    assert!(again.is_root());
    assert_eq!(again.correlationid(), first.correlationid());
}

/// A payload whose extensions cover the type system.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.parcel.shipment.sent",
    source = "https://parcels.example.com"
)]
struct Shipment {
    #[cloudevent(subject)]
    parcel_id: String,
    #[cloudevent(extension)]
    priority: i32,
    #[cloudevent(extension)]
    express: bool,
    #[cloudevent(extension)]
    callback: cloudevent_runtime::Uri,
    #[cloudevent(extension = "dataref")]
    label: cloudevent_runtime::UriRef,
    #[cloudevent(extension)]
    promised: Timestamp,
    #[cloudevent(extension)]
    checksum: Binary,
}

fn shipment() -> Shipment {
    Shipment {
        parcel_id: "parcel-1".into(),
        priority: -7,
        express: true,
        callback: cloudevent_runtime::Uri::try_from("https://parcels.example.com/hooks/1").unwrap(),
        label: cloudevent_runtime::UriRef::try_from("/labels/1.pdf").unwrap(),
        promised: Timestamp::try_from("2026-04-01T09:00:00Z").unwrap(),
        checksum: Binary::from(*b"sum"),
    }
}

/// A Binary, URI, URI-reference or Timestamp extension arrives as a JSON string, and a
/// binary-mode binding hands over an Integer as `"-7"` and a Boolean as `"true"`: the typed
/// event comes back equal to the one sent, its extensions typed, not doubled as Strings.
#[test]
fn typed_extensions_come_back_typed_from_their_string_forms() {
    let event = Event::new(shipment());
    let json = String::from_utf8(event.to_vec().unwrap()).unwrap();
    assert!(json.contains(r#""checksum":"c3Vt""#), "{json}");
    // The envelope's members come first; the payload keeps its own typed fields.
    let stringly = json
        .replacen(r#""priority":-7"#, r#""priority":"-7""#, 1)
        .replacen(r#""express":true"#, r#""express":"true""#, 1);
    assert_ne!(stringly, json);
    for input in [&json, &stringly] {
        let direct: Event<Shipment> = Event::from_slice(input.as_bytes()).unwrap();
        assert_eq!(direct, event, "{input}");
        let via_any: Event<Shipment> = AnyEvent::from_slice(input.as_bytes())
            .unwrap()
            .into_typed()
            .unwrap();
        assert_eq!(via_any, event, "{input}");
        assert_eq!(
            direct.extension("priority"),
            Some(ExtensionValueBuf::Integer(-7))
        );
        assert_eq!(
            direct.extension("express"),
            Some(ExtensionValueBuf::Boolean(true))
        );
        assert!(matches!(
            direct.extension("checksum"),
            Some(ExtensionValueBuf::Binary(_))
        ));
        assert!(matches!(
            direct.extension("callback"),
            Some(ExtensionValueBuf::Uri(_))
        ));
        assert!(matches!(
            direct.extension("dataref"),
            Some(ExtensionValueBuf::UriReference(_))
        ));
        assert!(matches!(
            direct.extension("promised"),
            Some(ExtensionValueBuf::Timestamp(_))
        ));
        // Written back typed, byte for byte.
        assert_eq!(String::from_utf8(direct.to_vec().unwrap()).unwrap(), json);
    }
    // A string that is not the canonical form says another value than the payload field:
    // one attribute, two values, refused.
    let padded = json.replacen(r#""priority":-7"#, r#""priority":"-07""#, 1);
    let err = Event::<Shipment>::from_slice(padded.as_bytes()).unwrap_err();
    assert_eq!(err.attribute(), Some("priority"), "{err}");
    let other = json.replacen(r#""checksum":"c3Vt""#, r#""checksum":"c3Vu""#, 1);
    let err = Event::<Shipment>::from_slice(other.as_bytes()).unwrap_err();
    assert_eq!(err.attribute(), Some("checksum"), "{err}");
}

/// A payload whose fields are not in alphabetical order.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.line.added",
    source = "https://orders.example.com"
)]
struct LineAdded {
    zone: String,
    amount: u32,
}

thread_local! {
    static SEEN: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Records which serializer and deserializer it is handed.
#[derive(Debug, PartialEq)]
struct Probe;

impl serde::Serialize for Probe {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SEEN.with(|seen| seen.borrow_mut().push(std::any::type_name::<S>()));
        serializer.serialize_u8(1)
    }
}

impl<'de> serde::Deserialize<'de> for Probe {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        SEEN.with(|seen| seen.borrow_mut().push(std::any::type_name::<D>()));
        serde::de::IgnoredAny::deserialize(deserializer).map(|_| Probe)
    }
}

impl cloudevent_runtime::HasSource for Probe {}

impl cloudevent_runtime::CloudEventData for Probe {
    const TYPE: &'static str = "com.example.probe.value.seen";
    const DATASCHEMA: Option<&'static str> = None;
    const SOURCE: Option<&'static str> = Some("https://probe.example.com");
    const DATACONTENTTYPE: &'static str = "application/json";
    const EXTENSIONS: &'static [&'static str] = &[];
    fn subject(&self) -> Option<&str> {
        None
    }
    fn visit_extensions<V: cloudevent_runtime::ExtensionVisitor>(
        &self,
        _: &mut V,
    ) -> Result<(), V::Error> {
        Ok(())
    }
}

#[test]
fn serialize_and_deserialize_go_straight_through_serde_json() {
    // The payload is handed serde_json's own serializer and deserializer, never a
    // `serde_json::Value` one.
    let json = serde_json::to_vec(&Event::new(Probe)).unwrap();
    let _: Event<Probe> = Event::from_slice(&json).unwrap();
    let seen = SEEN.with(|seen| seen.borrow().clone());
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(seen.iter().all(|name| !name.contains("value")), "{seen:?}");
    assert!(seen[0].contains("serde_json::ser::Serializer"), "{seen:?}");
    assert!(seen[1].contains("serde_json::de::Deserializer"), "{seen:?}");

    // Field order survives (a `Value` map would sort it), and AnyEvent keeps data byte for byte.
    let event = Event::new(LineAdded {
        zone: "b".into(),
        amount: 1,
    });
    let out = String::from_utf8(event.to_vec().unwrap()).unwrap();
    assert!(out.ends_with(r#""data":{"zone":"b","amount":1}}"#), "{out}");
    let raw = event_json(r#","data":{"z": 1,  "a":[ 2 ]}"#);
    let any = AnyEvent::from_slice(raw.as_bytes()).unwrap();
    assert!(
        String::from_utf8(any.to_vec())
            .unwrap()
            .ends_with(r#""data":{"z": 1,  "a":[ 2 ]}}"#)
    );
}

#[test]
fn any_event_writes_keys_in_a_fixed_order() {
    let json = r#"{"data":{"x":1},"zeta":"z","time":"2026-03-28T14:22:31Z","alpha":1,"subject":"s","dataschema":"https://schemas.example.com/v1.json","datacontenttype":"application/json","type":"com.example.order.created","source":"/s","id":"1","specversion":"1.0"}"#;
    let event = AnyEvent::from_slice(json.as_bytes()).unwrap();
    let keys = serde_json::from_slice::<Keys>(&event.to_vec()).unwrap().0;
    assert_eq!(
        keys,
        [
            "specversion",
            "id",
            "source",
            "type",
            "datacontenttype",
            "dataschema",
            "subject",
            "time",
            "alpha",
            "zeta",
            "data"
        ]
    );
    // The same output however the input was ordered.
    let again = AnyEvent::from_slice(&event.to_vec()).unwrap();
    assert_eq!(again.to_vec(), event.to_vec());
}

#[test]
fn duplicate_keys_are_an_error_for_every_kind_of_member() {
    for extra in [
        r#","data_base64":"AA==","data_base64":"AA==""#,
        r#","data":null,"data":{}"#,
        r#","comexampleext":null,"comexampleext":"b""#,
        r#","comexampleext":1,"comexampleext":null"#,
        r#","time":"2026-03-28T14:22:31Z","time":"2026-03-28T14:22:31Z""#,
        r#","dataschema":null,"dataschema":null"#,
    ] {
        let err = parse_err(&event_json(extra));
        assert_eq!(rule_of(&err), "INTG-STD-015 R-7", "{extra}: {err}");
        assert!(err.to_string().contains("more than once"), "{extra}: {err}");
    }
    let typed = [
        r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.created","region":"a","region":"b","data":{"order_id":"o","customer_id":"c","region":"r","total_cents":1}}"#,
        r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.created","data":{"order_id":"o","customer_id":"c","region":"r","total_cents":1},"data":{"order_id":"o","customer_id":"c","region":"r","total_cents":2}}"#,
    ];
    for json in typed {
        let err = Event::<OrderCreated>::from_slice(json.as_bytes()).unwrap_err();
        assert_eq!(rule_of(&err), "INTG-STD-015 R-7", "{err}");
        let via_serde = serde_json::from_str::<Event<OrderCreated>>(json).unwrap_err();
        assert!(
            via_serde.to_string().contains("more than once"),
            "{via_serde}"
        );
    }
}

#[test]
fn null_means_unset_for_every_optional_attribute() {
    let json = event_json(
        r#","datacontenttype":null,"dataschema":null,"subject":null,"time":null,"partitionkey":null,"data_base64":null"#,
    );
    let any = AnyEvent::from_slice(json.as_bytes()).unwrap();
    assert_eq!(
        any,
        AnyEvent::new("A234-1234-1234", "/mycontext", "com.example.order.created")
    );

    // Typed: null attributes are absent, null extensions leave the payload's in place.
    let typed = r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.created","datacontenttype":null,"dataschema":null,"subject":null,"time":null,"region":null,"comexampleext":null,"data":{"order_id":"o","customer_id":"c","region":"r","total_cents":1}}"#;
    let event: Event<OrderCreated> = Event::from_slice(typed.as_bytes()).unwrap();
    assert_eq!(event.dataschema(), None);
    assert_eq!(event.time(), None);
    assert_eq!(event.subject(), None);
    assert!(event.extensions().is_empty());
    assert_eq!(event.extension("region"), Some("r".into()));

    // A required attribute given as null is missing.
    for name in ["specversion", "id", "source", "type"] {
        let json = event_json("").replacen(
            &format!(r#""{name}":"#),
            &format!(r#""{name}":null,"was{name}":"#),
            1,
        );
        let err = parse_err(&json);
        assert_eq!(err.attribute(), Some(name), "{json}: {err}");
    }
}

#[test]
fn empty_optional_attributes_are_refused() {
    for (extra, attribute, rule) in [
        (r#","subject":"""#, "subject", "CE 1.0.2 subject"),
        (r#","dataschema":"""#, "dataschema", "CE 1.0.2 dataschema"),
        (
            r#","datacontenttype":"""#,
            "datacontenttype",
            "CE 1.0.2 datacontenttype",
        ),
    ] {
        let err = parse_err(&event_json(extra));
        assert_eq!(err.attribute(), Some(attribute), "{err}");
        assert_eq!(rule_of(&err), rule);
    }
    assert!(Event::new(order()).with_subject("").is_err());
    // An empty subject field in the payload means no subject.
    let event = Event::new(OrderCreated {
        order_id: String::new(),
        ..order()
    });
    assert_eq!(event.subject(), None);
    let back: Event<OrderCreated> = Event::from_slice(&event.to_vec().unwrap()).unwrap();
    assert_eq!(back, event);
}

#[test]
fn data_base64_without_datacontenttype_reads_into_a_typed_payload() {
    let json = r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.image.thumbnail.created","data_base64":"iVBORw0K"}"#;
    let event: Event<Thumbnail> = Event::from_slice(json.as_bytes()).unwrap();
    assert_eq!(event.data().0.as_bytes(), b"\x89PNG\r\n");
    let any: Event<Thumbnail> = AnyEvent::from_slice(json.as_bytes())
        .unwrap()
        .into_typed()
        .unwrap();
    assert_eq!(any.data(), event.data());
}

/// A JSON payload under a vendor `+json` type with parameters.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.vendor.thing.made",
    source = "https://vendor.example.com",
    datacontenttype = "application/vnd.foo+json; charset=utf-8"
)]
struct VendorThing {
    size: u32,
}

#[test]
fn json_suffix_types_with_parameters_carry_typed_json_inline() {
    let event = Event::new(VendorThing { size: 3 });
    let json = String::from_utf8(event.to_vec().unwrap()).unwrap();
    assert!(
        json.contains(r#""datacontenttype":"application/vnd.foo+json; charset=utf-8""#),
        "{json}"
    );
    assert!(json.ends_with(r#""data":{"size":3}}"#), "{json}");
    let back: Event<VendorThing> = Event::from_slice(json.as_bytes()).unwrap();
    assert_eq!(back, event);
    // `data` before `datacontenttype` too.
    let reordered = r#"{"data":{"size":4},"specversion":"1.0","id":"1","source":"/s","type":"com.example.vendor.thing.made","datacontenttype":"application/vnd.foo+json; charset=utf-8"}"#;
    let back: Event<VendorThing> = Event::from_slice(reordered.as_bytes()).unwrap();
    assert_eq!(back.data().size, 4);
}

#[test]
fn integer_extensions_at_the_i32_bounds_in_typed_events() {
    let base = r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.created","comexampleint":VALUE,"data":{"order_id":"o","customer_id":"c","region":"r","total_cents":1}}"#;
    for (value, expected) in [("2147483647", i32::MAX), ("-2147483648", i32::MIN)] {
        let event: Event<OrderCreated> =
            Event::from_slice(base.replace("VALUE", value).as_bytes()).unwrap();
        assert_eq!(
            event.extension("comexampleint"),
            Some(ExtensionValueBuf::Integer(expected))
        );
    }
    for value in ["2147483648", "-2147483649"] {
        let err =
            Event::<OrderCreated>::from_slice(base.replace("VALUE", value).as_bytes()).unwrap_err();
        assert_eq!(err.attribute(), Some("comexampleint"));
        assert_eq!(rule_of(&err), "CE 1.0.2 type system");
    }
    for value in ["0.5", "1e3", "-0.0", r#"{}"#, "[]"] {
        let err =
            Event::<OrderCreated>::from_slice(base.replace("VALUE", value).as_bytes()).unwrap_err();
        assert_eq!(err.attribute(), Some("comexampleint"), "{value}");
    }
}

#[test]
fn control_characters_are_refused_in_every_string_attribute() {
    let attributes = [
        ("id", r#""id":"A234-1234-1234""#, r#""id":"A234X""#),
        (
            "source",
            r#""source":"/mycontext""#,
            r#""source":"/myXcontext""#,
        ),
        (
            "type",
            r#""type":"com.example.order.created""#,
            r#""type":"com.exampleX.order.created""#,
        ),
    ];
    let optional = [
        ("subject", r#","subject":"aXb""#),
        ("datacontenttype", r#","datacontenttype":"text/plainX""#),
        ("dataschema", r#","dataschema":"https://s.example.com/v1X""#),
        ("time", r#","time":"2026-03-28T14:22:31ZX""#),
        ("comexampleext", r#","comexampleext":"aXb""#),
        ("partitionkey", r#","partitionkey":"aXb""#),
    ];
    for c in ["\\u0000", "\\u001f", "\\n", "\\u007f", "\\u0080", "\\u009f"] {
        for (name, keep, bad) in attributes {
            let json = event_json("").replace(keep, &bad.replace('X', c));
            let err = parse_err(&json);
            assert_eq!(err.attribute(), Some(name), "{json}: {err}");
        }
        for (name, member) in optional {
            let json = event_json(&member.replace('X', c));
            let err = parse_err(&json);
            assert_eq!(err.attribute(), Some(name), "{json}: {err}");
            let report =
                cloudevent_runtime::Validator::new(cloudevent_runtime::Profile::CloudEvents)
                    .validate_bytes::<Json>(json.as_bytes());
            assert!(report.errors().any(|f| f.attribute == name), "{report}");
        }
    }
    // Just outside the ranges is fine.
    for c in [" ", "~", "\\u00a0", "\\u2028"] {
        let json = event_json(&r#","subject":"aXb","comexampleext":"aXb""#.replace('X', c));
        assert!(AnyEvent::from_slice(json.as_bytes()).is_ok(), "{json}");
    }
    // Values set at run time, and payload fields copied into the envelope.
    assert!(Event::new(order()).with_subject("a\u{85}b").is_err());
    assert!(
        Event::new(order())
            .with_extension("note", "a\u{7f}")
            .is_err()
    );
    let tab_region = Event::new(OrderCreated {
        region: "eu\twest".into(),
        ..order()
    });
    let err = serde_json::to_string(&tab_region).unwrap_err().to_string();
    assert!(
        err.contains("region") && err.contains("CE 1.0.2 type system"),
        "{err}"
    );
    let tab_subject = Event::new(OrderCreated {
        order_id: "o\u{0}1".into(),
        ..order()
    });
    assert!(tab_subject.to_vec().is_err());
}

/// A reader that counts what is taken from it.
struct Counting<R> {
    inner: R,
    read: usize,
}

impl<R: std::io::Read> std::io::Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n;
        Ok(n)
    }
}

#[test]
fn bounded_reading_stops_an_endless_reader_at_the_limit() {
    use cloudevent_runtime::{Batch, limits};

    let mut endless = Counting {
        inner: std::io::repeat(b' '),
        read: 0,
    };
    let err = AnyEvent::from_reader(&mut endless, limits::MAX_EVENT_BYTES).unwrap_err();
    assert!(matches!(err, FormatError::TooLarge { .. }), "{err}");
    assert_eq!(endless.read, limits::MAX_EVENT_BYTES + 1);
    assert_eq!(
        err.to_string(),
        "event of 262145 bytes or more exceeds the limit of 262144 bytes (INTG-STD-015 R-11)"
    );

    let err = Event::<OrderCreated>::from_reader(std::io::repeat(b'{'), limits::MAX_EVENT_BYTES)
        .unwrap_err();
    assert_eq!(rule_of(&err), "INTG-STD-015 R-11");

    let mut endless = Counting {
        inner: std::io::repeat(b'['),
        read: 0,
    };
    let err = Batch::from_reader(&mut endless).unwrap_err();
    assert_eq!(rule_of(&err), "INTG-STD-015 R-10");
    assert_eq!(endless.read, limits::MAX_BATCH_BYTES + 1);

    // At the limit exactly, the event is read and parsed.
    let json = event_json("");
    let padded = format!("{json}{}", " ".repeat(limits::MAX_EVENT_BYTES - json.len()));
    assert!(AnyEvent::from_reader(padded.as_bytes(), limits::MAX_EVENT_BYTES).is_ok());
}

#[test]
fn error_messages_name_the_attribute_the_rule_and_what_was_found() {
    let cases = [
        (
            event_json(r#","comexampleint":2147483648"#),
            "comexampleint `2147483648`: is outside the Integer range (-2147483648 to 2147483647) (CE 1.0.2 type system); send it as a string",
        ),
        (
            event_json(r#","ratio":0.5"#),
            "ratio `0.5`: is a number with a fraction or exponent; expected a string, a boolean or an integer in the i32 range (CE 1.0.2 type system)",
        ),
        (
            event_json(r#","tags":["a"]"#),
            "tags `an array`: is an array; expected a string, a boolean or an integer in the i32 range (CE 1.0.2 type system)",
        ),
        (
            event_json("").replace(r#""specversion":"1.0""#, r#""specversion":"0.3""#),
            "specversion `0.3`: must be exactly `1.0`, the CloudEvents version in use (CE 1.0.2 specversion); e.g. `1.0`",
        ),
        (
            event_json(r#","id":"2""#),
            "id: appears more than once in the event object (INTG-STD-015 R-7); a JSON object must name each attribute once",
        ),
        (
            event_json(r#","data_base64":"**""#),
            "data_base64 `**`: is not valid base64 (RFC 4648 section 4): Invalid symbol 42, offset 0. (CE-JSON 3.1); use the standard alphabet with `=` padding",
        ),
        (
            event_json(r#","subject":"a\nb""#),
            "subject `a\nb` character U+000A at byte 1: control characters (U+0000-001F, U+007F-009F) are not allowed in a String (CE 1.0.2 type system)",
        ),
    ];
    for (json, expected) in cases {
        assert_eq!(parse_err(&json).to_string(), expected, "{json}");
    }
    let wrong = r#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.shipped","data":{}}"#;
    assert_eq!(
        Event::<OrderCreated>::from_slice(wrong.as_bytes())
            .unwrap_err()
            .to_string(),
        "type `com.example.order.shipped`: this reader expects type `com.example.order.created` (CE 1.0.2 type); read it as an `AnyEvent` or dispatch on the type"
    );
    let err = cloudevent_runtime::Batch::from_slice(
        format!("[{},{}]", event_json(""), event_json(r#","x":1.5"#)).as_bytes(),
    )
    .unwrap_err();
    assert!(
        err.to_string().starts_with("batch event #1: x `1.5`"),
        "{err}"
    );
}

/// Fuzz finding 2 (tests/hostile_input.rs): a control character in a payload field that
/// becomes an attribute was accepted on parse, giving an event that could not be written.
#[test]
fn control_characters_in_payload_attributes_are_refused_on_parse() {
    for data in [
        r#"{"order_id":"o-1","customer_id":"c","region":"eu\u007fwest","total_cents":1}"#,
        r#"{"order_id":"o\u0001","customer_id":"c","region":"eu","total_cents":1}"#,
    ] {
        let json = format!(
            r#"{{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.created","data":{data}}}"#
        );
        let err = Event::<OrderCreated>::from_slice(json.as_bytes()).unwrap_err();
        assert_eq!(rule_of(&err), "CE 1.0.2 type system", "{err}");
        let err = AnyEvent::from_slice(json.as_bytes())
            .unwrap()
            .into_typed::<OrderCreated>()
            .unwrap_err();
        assert_eq!(rule_of(&err), "CE 1.0.2 type system", "{err}");
        assert!(serde_json::from_str::<Event<OrderCreated>>(&json).is_err());
    }
}
