//! The Avro event format (issue 14 §2): round trips, the same verdicts as the JSON reader,
//! hostile input (truncated, oversized, forged lengths, deep nesting, wrong types), and
//! agreement with an independent Avro implementation (`apache-avro`) on the spec's schema.

#![cfg(feature = "avro")]

use cloudevent_runtime::Attributes;
use cloudevent_runtime::Validate;
use std::collections::HashMap;

use apache_avro::types::Value as AvroValue;
use cloudevent_runtime::Avro;
use cloudevent_runtime::Json;
use cloudevent_runtime::{
    AnyEvent, Binary, CloudEvent, Data, Event, ExtensionValueBuf, FormatError, Policy, Profile,
    avro, limits,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// Hand-made datums: the Avro binary encoding, for inputs no well-behaved writer produces.

fn long(out: &mut Vec<u8>, value: i64) {
    let mut n = ((value << 1) ^ (value >> 63)) as u64;
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn string(out: &mut Vec<u8>, text: &[u8]) {
    long(out, text.len() as i64);
    out.extend_from_slice(text);
}

/// An attribute value as (union branch, encoded value).
enum A<'a> {
    Int(i64),
    Str(&'a str),
    Bytes(&'a [u8]),
}

/// A datum: these attributes in this order, then `data` as given (already encoded, branch
/// index included).
fn datum(attributes: &[(&str, A<'_>)], data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    long(&mut out, attributes.len() as i64);
    for (name, value) in attributes {
        string(&mut out, name.as_bytes());
        match value {
            A::Int(i) => {
                long(&mut out, 2);
                long(&mut out, *i);
            }
            A::Str(s) => {
                long(&mut out, 3);
                string(&mut out, s.as_bytes());
            }
            A::Bytes(b) => {
                long(&mut out, 4);
                string(&mut out, b);
            }
        }
    }
    long(&mut out, 0);
    out.extend_from_slice(data);
    out
}

const NO_DATA: &[u8] = &[2]; // branch 1, null

fn required<'a>() -> Vec<(&'a str, A<'a>)> {
    vec![
        ("specversion", A::Str("1.0")),
        ("id", A::Str("1")),
        ("source", A::Str("https://orders.example.com")),
        ("type", A::Str("com.example.order.created")),
    ]
}

fn decode(bytes: &[u8]) -> Result<AnyEvent, FormatError> {
    AnyEvent::decode_with::<Avro>(bytes, &AnyEvent::DEFAULT_POLICY)
}

fn rule(error: &FormatError) -> &'static str {
    error.rule().map_or("", |r| r.as_str())
}

// ---------------------------------------------------------------------------------------
// Wrong types and values: the JSON reader's verdicts.

#[test]
fn an_id_that_is_an_int_is_a_type_system_error_naming_id() {
    let mut attributes = required();
    attributes[1] = ("id", A::Int(7));
    let err = decode(&datum(&attributes, NO_DATA)).unwrap_err();
    assert_eq!(rule(&err), "CE 1.0.2 type system");
    assert_eq!(err.attribute(), Some("id"));
}

#[test]
fn a_time_that_is_no_timestamp_is_the_time_rule() {
    let mut attributes = required();
    attributes.push(("time", A::Str("yesterday")));
    let err = decode(&datum(&attributes, NO_DATA)).unwrap_err();
    assert_eq!(rule(&err), "CE 1.0.2 time");
    assert_eq!(err.attribute(), Some("time"));
}

#[test]
fn an_int_outside_i32_names_the_extension() {
    let mut attributes = required();
    attributes.push(("hops", A::Int(i64::from(i32::MAX) + 1)));
    let err = decode(&datum(&attributes, NO_DATA)).unwrap_err();
    assert_eq!(rule(&err), "CE 1.0.2 type system");
    assert_eq!(err.attribute(), Some("hops"));
    assert!(err.to_string().contains("2147483648"), "{err}");
}

#[test]
fn an_int_outside_i32_is_refused_with_the_json_readers_rule_and_text() {
    for value in [i64::from(i32::MAX) + 1, i64::from(i32::MIN) - 1, i64::MAX] {
        let mut attributes = required();
        attributes.push(("hops", A::Int(value)));
        let avro = decode(&datum(&attributes, NO_DATA)).unwrap_err();
        let json = AnyEvent::from_slice(
            format!(
                r#"{{"specversion":"1.0","id":"1","source":"https://orders.example.com",
                "type":"com.example.order.created","hops":{value}}}"#
            )
            .as_bytes(),
        )
        .unwrap_err();
        assert_eq!(rule(&avro), rule(&json), "{avro} / {json}");
        assert_eq!(avro.attribute(), json.attribute());
        assert_eq!(avro.to_string(), json.to_string());
    }
}

#[test]
fn a_missing_required_attribute_is_the_policys_error() {
    let attributes: Vec<_> = required()
        .into_iter()
        .filter(|(n, _)| *n != "source")
        .collect();
    let err = decode(&datum(&attributes, NO_DATA)).unwrap_err();
    assert_eq!(err.attribute(), Some("source"));
    let json = AnyEvent::from_slice(
        br#"{"specversion":"1.0","id":"1","type":"com.example.order.created"}"#,
    )
    .unwrap_err();
    assert_eq!(err.violation(), json.violation());
}

#[test]
fn a_repeated_attribute_is_refused_not_dropped() {
    let mut attributes = required();
    attributes.push(("id", A::Str("2")));
    let err = decode(&datum(&attributes, NO_DATA)).unwrap_err();
    assert_eq!(rule(&err), "INTG-STD-015 R-7");
    assert_eq!(err.attribute(), Some("id"));
}

#[test]
fn an_attribute_named_data_is_the_naming_rule() {
    for name in ["data", "data_base64"] {
        let mut attributes = required();
        attributes.push((name, A::Str("x")));
        let err = decode(&datum(&attributes, NO_DATA)).unwrap_err();
        assert_eq!(rule(&err), "CE 1.0.2 naming", "{name}");
    }
}

#[test]
fn a_bytes_core_attribute_is_a_type_system_error() {
    let mut attributes = required();
    attributes[2] = ("source", A::Bytes(b"/s"));
    let err = decode(&datum(&attributes, NO_DATA)).unwrap_err();
    assert_eq!(rule(&err), "CE 1.0.2 type system");
    assert_eq!(err.attribute(), Some("source"));
}

#[test]
fn a_stricter_policy_gives_the_json_readers_error() {
    let event = AnyEvent::new(
        "1",
        "https://localhost:8080/orders",
        "com.example.Order.created",
    );
    let gateway = Policy::new(Profile::IntgStd015);
    let json = AnyEvent::decode_with::<Json>(&event.to_vec(), &gateway).unwrap_err();
    let avro =
        AnyEvent::decode_with::<Avro>(&event.encode::<Avro>().unwrap(), &gateway).unwrap_err();
    assert_eq!(avro.violation(), json.violation());
}

// ---------------------------------------------------------------------------------------
// Data.

#[test]
fn text_that_is_not_json_under_a_json_type_is_refused() {
    let mut attributes = required();
    attributes.push(("datacontenttype", A::Str("application/json")));
    let mut data = Vec::new();
    long(&mut data, 6);
    string(&mut data, b"{not json");
    let err = decode(&datum(&attributes, &data)).unwrap_err();
    assert_eq!(rule(&err), "CE-Avro 3");
    assert_eq!(err.attribute(), Some("data"));
}

#[test]
fn a_json_value_under_a_text_type_is_refused() {
    let mut attributes = required();
    attributes.push(("datacontenttype", A::Str("text/plain")));
    let err = decode(&datum(&attributes, &[4, 1])).unwrap_err(); // boolean true
    assert_eq!(rule(&err), "CE-Avro 3");
}

#[test]
fn a_string_without_a_type_is_a_json_string() {
    let mut data = Vec::new();
    long(&mut data, 6);
    string(&mut data, b"hi \"there\"");
    let event = decode(&datum(&required(), &data)).unwrap();
    assert_eq!(
        event.data(),
        Some(&Data::json(r#""hi \"there\"""#).unwrap())
    );
}

#[test]
fn a_double_that_is_no_json_number_is_refused() {
    let mut data = vec![10]; // branch 5, double
    data.extend_from_slice(&f64::NAN.to_le_bytes());
    let err = decode(&datum(&required(), &data)).unwrap_err();
    assert_eq!(rule(&err), "CE-Avro 3");
}

#[test]
fn a_member_named_twice_is_refused() {
    let mut data = Vec::new();
    long(&mut data, 3); // map
    long(&mut data, 2);
    for _ in 0..2 {
        string(&mut data, b"k");
        long(&mut data, 0); // null
    }
    long(&mut data, 0);
    let err = decode(&datum(&required(), &data)).unwrap_err();
    assert_eq!(rule(&err), "CE-Avro 3");
    assert!(err.to_string().contains("more than once"), "{err}");
}

/// `{"":{"":{"":...}}}` as nested records, `levels` deep.
fn nested(levels: usize) -> Vec<u8> {
    let mut data = Vec::new();
    long(&mut data, 3); // top-level map
    long(&mut data, 1);
    string(&mut data, b"");
    long(&mut data, 2); // a member record
    for _ in 0..levels {
        long(&mut data, 1); // its value map: one member
        string(&mut data, b"");
        long(&mut data, 2); // a map of records
        long(&mut data, 1);
        string(&mut data, b"");
    }
    long(&mut data, 0);
    for _ in 0..levels {
        long(&mut data, 0);
        long(&mut data, 0);
    }
    long(&mut data, 0);
    data
}

#[test]
fn deep_nesting_is_refused_without_overflowing_the_stack() {
    let ok = decode(&datum(&required(), &nested(20))).unwrap();
    assert!(ok.data().is_some());
    let err = decode(&datum(&required(), &nested(200))).unwrap_err();
    assert_eq!(rule(&err), "CE-Avro 3");
    assert!(err.to_string().contains("deeper"), "{err}");
    // As deep as 256 KiB allows: refused at the limit, long before the stack.
    let bomb = datum(&required(), &nested(30_000));
    assert!(bomb.len() <= limits::MAX_EVENT_BYTES);
    assert!(decode(&bomb).is_err());
}

// ---------------------------------------------------------------------------------------
// Structure: truncated, trailing, oversized, forged lengths, unknown branches.

#[test]
fn every_truncation_is_an_error_never_a_panic() {
    let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
    event.extensions_mut().insert("hops", 2);
    event.extensions_mut().insert("blob", Binary::from(*b"xyz"));
    event.set_data(Some(
        Data::json(r#"{"a":1,"o":{"b":[{"c":true}]}}"#).unwrap(),
    ));
    let bytes = event.encode::<Avro>().unwrap();
    for len in 0..bytes.len() {
        let err = decode(&bytes[..len]).unwrap_err();
        assert!(rule(&err).starts_with("CE"), "{len}: {err}");
    }
    assert_eq!(decode(&bytes).unwrap(), event);
}

#[test]
fn trailing_bytes_are_refused() {
    let mut bytes = datum(&required(), NO_DATA);
    bytes.push(0);
    let err = decode(&bytes).unwrap_err();
    assert_eq!(rule(&err), "CE-Avro 2.4");
    assert!(err.to_string().contains("trailing"), "{err}");
}

#[test]
fn oversized_input_is_refused_before_decoding() {
    let mut bytes = datum(&required(), &[0]);
    bytes.resize(limits::MAX_EVENT_BYTES + 1, 0);
    let err = decode(&bytes).unwrap_err();
    assert!(matches!(err, FormatError::TooLarge { .. }), "{err}");
    assert_eq!(rule(&err), "INTG-STD-015 R-11");
}

#[test]
fn forged_lengths_and_counts_are_refused_without_allocating() {
    // A map claiming 2^40 entries, a string of 2^62 bytes, a negative length, a block whose
    // byte size cannot hold its count.
    let mut count = Vec::new();
    long(&mut count, 1 << 40);
    let mut name = Vec::new();
    long(&mut name, 1);
    long(&mut name, 1 << 62);
    let mut negative = Vec::new();
    long(&mut negative, 1);
    long(&mut negative, -5);
    let mut block = Vec::new();
    long(&mut block, -1000);
    long(&mut block, 3);
    for bytes in [count, name, negative, block] {
        let err = decode(&bytes).unwrap_err();
        assert_eq!(rule(&err), "CE-Avro 2.4", "{err}");
    }
}

#[test]
fn unknown_union_branches_are_refused() {
    let mut attributes = datum(&required(), &[]);
    attributes.push(14); // data branch 7
    assert_eq!(rule(&decode(&attributes).unwrap_err()), "CE-Avro 2.4");
    let mut bad = Vec::new();
    long(&mut bad, 1);
    string(&mut bad, b"id");
    long(&mut bad, 5); // attribute branch 5
    assert_eq!(rule(&decode(&bad).unwrap_err()), "CE-Avro 2.4");
}

// ---------------------------------------------------------------------------------------
// Typed events.

#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension)]
    region: String,
    lines: Vec<u32>,
}

#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.report.rendered",
    source = "https://reports.example.com",
    datacontenttype = "text/csv"
)]
struct Report(String);

#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.document.archived",
    source = "https://archive.example.com",
    datacontenttype = "application/pdf"
)]
struct Archived(Binary);

#[test]
fn a_typed_binary_payload_travels_as_avro_bytes() {
    let event = Event::new(Archived(Binary::from(vec![0, 1, 2, 255])));
    let bytes = event.encode::<Avro>().unwrap();
    assert_eq!(bytes, event.to_any().unwrap().encode::<Avro>().unwrap());
    let any = AnyEvent::decode::<Avro>(&bytes).unwrap();
    assert_eq!(any.data(), Some(&Data::Binary(vec![0, 1, 2, 255])));
    let back = Event::<Archived>::decode::<Avro>(&bytes).unwrap();
    assert_eq!(back.data(), event.data());
}

#[test]
fn a_typed_event_round_trips() {
    let order = OrderCreated {
        order_id: "order-1".into(),
        region: "eu".into(),
        lines: vec![1, 2],
    };
    let event = Event::new(order);
    // Written straight from `Event<T>`: the event `AnyEvent` writes for the same event
    // (extensions in `Event<T>`'s order, so the bytes may differ in that order).
    let direct = AnyEvent::decode::<Avro>(&event.encode::<Avro>().unwrap()).unwrap();
    assert_eq!(direct, event.to_any().unwrap());
    let back = Event::<OrderCreated>::decode::<Avro>(&event.encode::<Avro>().unwrap()).unwrap();
    assert_eq!(back.data(), event.data());
    assert_eq!(back.id(), event.id());
    let report = Event::new(Report("a,b\n1,2\n".into()));
    assert_eq!(
        report.encode::<Avro>().unwrap(),
        report.to_any().unwrap().encode::<Avro>().unwrap()
    );
    assert_eq!(
        AnyEvent::decode::<Avro>(&report.encode::<Avro>().unwrap()).unwrap(),
        report.to_any().unwrap()
    );
    let back = Event::<Report>::decode::<Avro>(&report.encode::<Avro>().unwrap()).unwrap();
    assert_eq!(back.data(), report.data());
}

#[test]
fn a_typed_reader_refuses_another_type() {
    let report = Event::new(Report("x".into())).encode::<Avro>().unwrap();
    let err = Event::<OrderCreated>::decode::<Avro>(&report).unwrap_err();
    assert_eq!(rule(&err), "CE 1.0.2 type");
}

// ---------------------------------------------------------------------------------------
// An independent implementation: apache-avro on the spec's schema.

fn schema() -> apache_avro::Schema {
    apache_avro::Schema::parse_str(avro::SCHEMA).expect("the transcribed schema is valid Avro")
}

#[test]
fn apache_avro_reads_what_we_write() {
    let mut event = AnyEvent::from_slice(
        br#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.created",
        "time":"2026-03-28T14:22:31Z","hops":2,"express":true,"region":"eu",
        "data":{"n":1.5,"o":{"k":null}}}"#,
    )
    .unwrap();
    event
        .extensions_mut()
        .insert("blob", Binary::from(*b"\x01\x02"));
    let bytes = event.encode::<Avro>().unwrap();
    let mut reader = &bytes[..];
    let value = apache_avro::from_avro_datum(&schema(), &mut reader, None).unwrap();
    assert!(reader.is_empty());
    let AvroValue::Record(fields) = value else {
        panic!("a record")
    };
    let AvroValue::Map(attributes) = &fields[0].1 else {
        panic!("a map")
    };
    let at = |name: &str| attributes.get(name).cloned().unwrap();
    assert_eq!(
        at("specversion"),
        AvroValue::Union(3, Box::new(AvroValue::String("1.0".into())))
    );
    assert_eq!(at("hops"), AvroValue::Union(2, Box::new(AvroValue::Int(2))));
    assert_eq!(
        at("express"),
        AvroValue::Union(1, Box::new(AvroValue::Boolean(true)))
    );
    assert_eq!(
        at("blob"),
        AvroValue::Union(4, Box::new(AvroValue::Bytes(vec![1, 2])))
    );
    let AvroValue::Union(3, data) = &fields[1].1 else {
        panic!("data as a map: {:?}", fields[1])
    };
    let AvroValue::Map(members) = &**data else {
        panic!("a map")
    };
    assert_eq!(
        members["n"],
        AvroValue::Union(3, Box::new(AvroValue::Double(1.5)))
    );
}

#[test]
fn we_read_what_apache_avro_writes() {
    let attr = |branch, value| AvroValue::Union(branch, Box::new(value));
    let attributes: HashMap<String, AvroValue> = [
        ("specversion", attr(3, AvroValue::String("1.0".into()))),
        ("id", attr(3, AvroValue::String("42".into()))),
        ("source", attr(3, AvroValue::String("/orders".into()))),
        (
            "type",
            attr(3, AvroValue::String("com.example.order.created".into())),
        ),
        (
            "datacontenttype",
            attr(3, AvroValue::String("application/octet-stream".into())),
        ),
        ("hops", attr(2, AvroValue::Int(-7))),
        ("flag", attr(1, AvroValue::Boolean(false))),
        ("blob", attr(4, AvroValue::Bytes(vec![0, 255]))),
        ("unset", attr(0, AvroValue::Null)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let record = AvroValue::Record(vec![
        ("attribute".into(), AvroValue::Map(attributes)),
        (
            "data".into(),
            AvroValue::Union(0, Box::new(AvroValue::Bytes(vec![9, 8, 7]))),
        ),
    ]);
    let bytes = apache_avro::to_avro_datum(&schema(), record).unwrap();
    let event = decode(&bytes).unwrap();
    assert_eq!(event.id(), "42");
    assert_eq!(
        event.extensions().get("hops"),
        Some(&ExtensionValueBuf::Integer(-7))
    );
    assert_eq!(
        event.extensions().get("flag"),
        Some(&ExtensionValueBuf::Boolean(false))
    );
    assert_eq!(
        event.extensions().get("blob"),
        Some(&ExtensionValueBuf::Binary(Binary::from(vec![0, 255])))
    );
    assert_eq!(event.extensions().get("unset"), None);
    assert_eq!(event.data(), Some(&Data::Binary(vec![9, 8, 7])));
}

// ---------------------------------------------------------------------------------------
// Properties.

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn text() -> impl Strategy<Value = String> {
    "[^\\p{Cc}\\p{Noncharacter_Code_Point}]{0,24}"
}

fn non_empty_text() -> impl Strategy<Value = String> {
    "[^\\p{Cc}\\p{Noncharacter_Code_Point}]{1,24}"
}

/// The values Avro tells apart; URI, URI-reference and Timestamp travel as strings.
fn extension_value() -> impl Strategy<Value = ExtensionValueBuf> {
    prop_oneof![
        any::<bool>().prop_map(ExtensionValueBuf::Boolean),
        any::<i32>().prop_map(ExtensionValueBuf::Integer),
        text().prop_map(ExtensionValueBuf::String),
        proptest::collection::vec(any::<u8>(), 0..24)
            .prop_map(|bytes| ExtensionValueBuf::Binary(Binary::from(bytes))),
    ]
}

fn number() -> impl Strategy<Value = String> + Clone {
    // An integral double comes back as the integer it is, as serde_json writes an i64.
    (-1_000_000_i32..1_000_000).prop_map(|n| {
        if n % 4 == 0 {
            (n / 4).to_string()
        } else {
            serde_json::to_string(&(f64::from(n) / 4.0)).unwrap()
        }
    })
}

fn scalar() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        Just("null".to_owned()),
        any::<bool>().prop_map(|b| b.to_string()),
        number(),
        ".{0,12}".prop_map(|s| serde_json::to_string(&s).unwrap()),
    ]
}

fn object(members: impl Strategy<Value = String> + Clone) -> impl Strategy<Value = String> + Clone {
    proptest::collection::btree_map("[a-z]{0,6}", members, 0..4).prop_map(|map| {
        let members: Vec<String> = map
            .into_iter()
            .map(|(k, v)| format!("{}:{v}", serde_json::to_string(&k).unwrap()))
            .collect();
        format!("{{{}}}", members.join(","))
    })
}

/// JSON the schema's representation holds (see `format::avro::data`), in serde_json's
/// spelling so that the text comes back the same.
fn representable_json() -> impl Strategy<Value = String> {
    let record = object(scalar());
    prop_oneof![
        scalar().prop_filter("null is no data", |s| s != "null"),
        object(prop_oneof![scalar(), record.clone()]),
        proptest::collection::vec(record, 0..3).prop_map(|items| format!("[{}]", items.join(","))),
    ]
}

fn payload() -> impl Strategy<Value = (Option<String>, Option<Data>)> {
    prop_oneof![
        Just((None, None)),
        representable_json().prop_map(|json| (None, Some(Data::json(json).unwrap()))),
        (
            prop_oneof![
                Just("application/json"),
                Just("application/cloudevents+json")
            ],
            scalar(),
        )
            .prop_map(|(ct, json)| (Some(ct.to_owned()), Some(Data::json(json).unwrap()))),
        (
            prop_oneof![Just("text/plain"), Just("application/xml")],
            ".{0,32}"
        )
            .prop_map(|(ct, text)| (Some(ct.to_owned()), Some(Data::Text(text)))),
        (
            proptest::option::of(Just("application/octet-stream".to_owned())),
            proptest::collection::vec(any::<u8>(), 0..32),
        )
            .prop_map(|(ct, bytes)| (ct, Some(Data::Binary(bytes)))),
    ]
}

prop_compose! {
    fn any_event()(
        id in non_empty_text(),
        ty in non_empty_text(),
        (datacontenttype, data) in payload(),
        subject in proptest::option::of(non_empty_text()),
        extensions in proptest::collection::btree_map("x[a-f0-9]{0,12}", extension_value(), 0..6),
    ) -> AnyEvent {
        let mut event = AnyEvent::new(id, "/orders", ty);
        event.set_datacontenttype(datacontenttype);
        event.set_subject(subject);
        event.set_data(data);
        for (name, value) in extensions {
            event.extensions_mut().insert(name, value);
        }
        event
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_event_round_trips_through_avro(event in any_event()) {
        let bytes = event.encode::<Avro>().unwrap();
        prop_assert_eq!(AnyEvent::decode::<Avro>(&bytes).unwrap(), event.clone());
        // And apache-avro reads every datum we write, to its end.
        let mut reader = &bytes[..];
        apache_avro::from_avro_datum(&schema(), &mut reader, None).unwrap();
        prop_assert!(reader.is_empty());
    }

    #[test]
    fn mangled_datums_are_errors_never_panics(
        event in any_event(),
        cut in any::<prop::sample::Index>(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let mut bytes = event.encode::<Avro>().unwrap();
        for (at, byte) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= byte;
        }
        let _ = AnyEvent::decode::<Avro>(&bytes);
        let _ = AnyEvent::decode::<Avro>(&bytes[..cut.index(bytes.len() + 1)]);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = AnyEvent::decode::<Avro>(&bytes);
    }
}

#[test]
fn the_validator_lists_what_it_lists_for_the_same_event_in_json() {
    let mut event = AnyEvent::new("", "https://localhost:8080/orders", "Order");
    event.set_subject(Some("order-1".into()));
    event.extensions_mut().insert("Bad_Name", "x");
    event.extensions_mut().insert("password", "hunter2");
    let validator = cloudevent_runtime::Validator::new(Profile::IntgStd015);
    let json = validator.validate_bytes::<Json>(&event.to_vec());
    let avro = validator.validate_bytes::<Avro>(&event.encode::<Avro>().unwrap());
    assert!(json.errors().count() >= 4, "{json}");
    assert_eq!(avro.to_string(), json.to_string());
    let truncated = validator.validate_bytes::<Avro>(&event.encode::<Avro>().unwrap()[..10]);
    assert!(truncated.has_rule("CE-Avro 2.4"), "{truncated}");
}
