//! The reader's refusals, one hostile input each, and the writer against `prost`.

use crate::Attributes;
use crate::Validate;
use prost::Message as _;

use super::messages::cloud_event::cloud_event_attribute_value::Attr;
use super::messages::cloud_event::{CloudEventAttributeValue, Data as MessageData};
use super::messages::{self, CloudEvent};
use crate::{AnyEvent, Batch, Data, FormatError, Protobuf, Timestamp};

fn message() -> CloudEvent {
    CloudEvent {
        id: "1".into(),
        source: "https://orders.example.com".into(),
        spec_version: "1.0".into(),
        r#type: "com.example.order.created".into(),
        attributes: Default::default(),
        data: None,
    }
}

fn value(attr: Attr) -> CloudEventAttributeValue {
    CloudEventAttributeValue { attr: Some(attr) }
}

fn refused(bytes: &[u8]) -> (String, String) {
    let err = AnyEvent::decode::<Protobuf>(bytes).unwrap_err();
    (
        err.attribute().unwrap_or_default().to_owned(),
        err.rule()
            .map(|r| r.as_str().to_owned())
            .unwrap_or_default(),
    )
}

fn attr(name: &str, attr: Attr) -> Vec<u8> {
    let mut event = message();
    event.attributes.insert(name.into(), value(attr));
    event.encode_to_vec()
}

#[test]
fn every_attribute_type_and_core_attribute_reads_back() {
    let mut event = message();
    for (name, attr) in [
        ("flag", Attr::CeBoolean(true)),
        ("hop", Attr::CeInteger(-7)),
        ("region", Attr::CeString("eu".into())),
        ("blob", Attr::CeBytes(vec![0, 255])),
        ("origin", Attr::CeUri("https://example.com/a".into())),
        ("dataref", Attr::CeUriRef("/blobs/1".into())),
        (
            "seen",
            Attr::CeTimestamp(messages::Timestamp {
                seconds: 1,
                nanos: 500_000_000,
            }),
        ),
        ("datacontenttype", Attr::CeString("text/plain".into())),
        (
            "dataschema",
            Attr::CeUri("https://schemas.example.com/orders/v1.json".into()),
        ),
        ("subject", Attr::CeString("order-1".into())),
        (
            "time",
            Attr::CeTimestamp(messages::Timestamp {
                seconds: 1_774_707_751,
                nanos: 0,
            }),
        ),
    ] {
        event.attributes.insert(name.into(), value(attr));
    }
    event.data = Some(MessageData::TextData("hello".into()));
    let any = AnyEvent::decode::<Protobuf>(&event.encode_to_vec()).unwrap();
    assert_eq!(any.datacontenttype(), Some("text/plain"));
    assert_eq!(any.subject(), Some("order-1"));
    assert_eq!(
        any.time().map(Timestamp::as_str),
        Some("2026-03-28T14:22:31Z")
    );
    assert_eq!(any.data(), Some(&Data::Text("hello".into())));
    let seen = any.extensions().get("seen").unwrap().as_value();
    assert_eq!(
        seen,
        crate::ExtensionValue::Timestamp("1970-01-01T00:00:01.500Z")
    );
    assert_eq!(
        any.extensions().get("blob").unwrap().as_value(),
        crate::ExtensionValue::Binary(&[0, 255])
    );
    // What we write, prost reads as the same message.
    assert_eq!(
        CloudEvent::decode(any.encode::<Protobuf>().unwrap().as_slice()).unwrap(),
        event
    );
}

#[test]
fn json_text_data_is_json_and_must_parse_under_a_json_type() {
    let mut event = message();
    event.attributes.insert(
        "datacontenttype".into(),
        value(Attr::CeString("application/json".into())),
    );
    event.data = Some(MessageData::TextData(r#"{"n":1}"#.into()));
    let any = AnyEvent::decode::<Protobuf>(&event.encode_to_vec()).unwrap();
    assert_eq!(any.data(), Some(&Data::json(r#"{"n":1}"#).unwrap()));

    event.data = Some(MessageData::TextData("{".into()));
    let (attribute, rule) = refused(&event.encode_to_vec());
    assert_eq!((attribute.as_str(), rule.as_str()), ("data", "CE-JSON 3.1"));
}

#[test]
fn proto_data_keeps_its_type_url() {
    let mut event = message();
    event.data = Some(MessageData::ProtoData(messages::Any {
        type_url: "type.googleapis.com/example.Order".into(),
        value: vec![8, 1],
    }));
    let any = AnyEvent::decode::<Protobuf>(&event.encode_to_vec()).unwrap();
    assert_eq!(
        any.protobuf_type_url(),
        Some("type.googleapis.com/example.Order")
    );
    assert_eq!(
        CloudEvent::decode(any.encode::<Protobuf>().unwrap().as_slice()).unwrap(),
        event
    );
}

/// Issue 24: `dataschema` set to the type URL of `proto_data`, as the CloudEvents Protobuf
/// format (3. Data) asks, is accepted for that event (a warning under INTG-STD-015, naming
/// both documents); the same value beside any other data is still a relative reference.
/// Relayed to JSON it is written in its absolute form.
#[test]
fn a_dataschema_that_is_the_type_url_of_proto_data_is_accepted() {
    use crate::{Profile, Validator};
    const URL: &str = "type.googleapis.com/example.v1.Order";
    let with = |data: MessageData| {
        let mut event = message();
        event
            .attributes
            .insert("dataschema".into(), value(Attr::CeUri(URL.into())));
        event.data = Some(data);
        event.encode_to_vec()
    };
    let proto = |url: &str| {
        MessageData::ProtoData(messages::Any {
            type_url: url.into(),
            value: vec![8, 1],
        })
    };
    let bytes = with(proto(URL));
    let any = AnyEvent::decode::<Protobuf>(&bytes).unwrap();
    assert_eq!(any.dataschema(), Some(URL));
    assert_eq!(any.protobuf_type_url(), Some(URL));
    // Written back in Protobuf as read.
    assert_eq!(any.encode::<Protobuf>().unwrap(), bytes);
    // The batch door.
    let batch = Batch::from(vec![any.clone()]).encode::<Protobuf>().unwrap();
    assert_eq!(Batch::decode::<Protobuf>(&batch).unwrap().len(), 1);
    // Binary data, or proto_data of another message type: a relative reference, refused.
    for other in [
        with(MessageData::BinaryData(vec![8, 1])),
        with(proto("type.googleapis.com/example.v1.Invoice")),
    ] {
        assert_eq!(
            refused(&other),
            ("dataschema".into(), "CE 1.0.2 dataschema".into())
        );
    }
    // The validator: nothing under CloudEvents, a warning naming both specs under the strict
    // profile, whose other findings about this minimal event are not about dataschema.
    let lenient = Validator::new(Profile::CloudEvents).validate_bytes::<Protobuf>(&bytes);
    assert!(lenient.findings().is_empty(), "{:?}", lenient.findings());
    let strict = Validator::new(Profile::IntgStd015).validate_bytes::<Protobuf>(&bytes);
    let dataschema: Vec<_> = strict
        .findings()
        .iter()
        .filter(|f| f.attribute == "dataschema")
        .collect();
    assert_eq!(dataschema.len(), 1, "{dataschema:?}");
    assert!(!dataschema[0].is_error());
    assert_eq!(dataschema[0].rule.as_str(), "INTG-STD-015 R-2");
    assert!(
        dataschema[0]
            .problem
            .contains("CloudEvents Protobuf format")
    );
    assert!(dataschema[0].problem.contains("CE 1.0.2 dataschema"));
    // Relayed to JSON: the bytes as data_base64, the type URL as an absolute dataschema,
    // which the JSON reader accepts.
    let json = String::from_utf8(any.to_vec()).unwrap();
    assert!(
        json.contains(r#""dataschema":"https://type.googleapis.com/example.v1.Order""#),
        "{json}"
    );
    assert!(json.contains(r#""data_base64":"CAE=""#), "{json}");
    let relayed = AnyEvent::from_slice(json.as_bytes()).unwrap();
    assert_eq!(relayed.data(), Some(&Data::Binary(vec![8, 1])));
    // With no dataschema, the type URL still travels.
    let mut bare = message();
    bare.data = Some(proto(URL));
    let bare = AnyEvent::decode::<Protobuf>(&bare.encode_to_vec()).unwrap();
    assert_eq!(bare.dataschema(), None);
    assert!(
        String::from_utf8(bare.to_vec())
            .unwrap()
            .contains(r#""dataschema":"https://type.googleapis.com/example.v1.Order""#)
    );
}

/// Issue 24: a producer on a newer `cloudevents.proto` is not refused outright: an unknown
/// field is skipped (Protobuf's rule), at every level, and the INTG-STD-015 validator lists it
/// as a warning; the CloudEvents profile passes it silently. A group is still refused.
#[test]
fn an_unknown_field_is_skipped_and_reported_under_the_strict_profile() {
    use crate::{Profile, Validator};
    let mut bytes = message().encode_to_vec();
    bytes.extend_from_slice(&[0x4a, 0x01, b'x']); // field 9, LEN
    bytes.extend_from_slice(&[0x50, 0x01]); // field 10, VARINT
    bytes.extend_from_slice(&[0x5d, 1, 2, 3, 4]); // field 11, I32
    let read = AnyEvent::decode::<Protobuf>(&bytes).unwrap();
    assert_eq!(
        read,
        AnyEvent::decode::<Protobuf>(&message().encode_to_vec()).unwrap()
    );
    let strict = Validator::new(Profile::IntgStd015).validate_bytes::<Protobuf>(&bytes);
    let skipped: Vec<_> = strict
        .warnings()
        .filter(|w| w.rule.as_str() == "CE-Protobuf 1.0")
        .map(|w| w.value.as_str())
        .collect();
    assert_eq!(
        skipped,
        [
            "field 9 with wire type LEN",
            "field 10 with wire type VARINT",
            "field 11 with wire type I32"
        ]
    );
    let lenient = Validator::new(Profile::CloudEvents).validate_bytes::<Protobuf>(&bytes);
    assert!(
        lenient
            .findings()
            .iter()
            .all(|f| f.rule.as_str() != "CE-Protobuf 1.0")
    );
    // A group is never skipped: field 9 SGROUP.
    let mut group = message().encode_to_vec();
    group.push(0x4b);
    assert_eq!(refused(&group), ("event".into(), "CE-Protobuf 1.0".into()));
    // Truncated inside a skipped field.
    let mut cut = message().encode_to_vec();
    cut.extend_from_slice(&[0x59, 1, 2]); // field 11, I64, 2 of 8 bytes
    assert_eq!(refused(&cut), ("event".into(), "CE-Protobuf 1.0".into()));
}

#[test]
fn an_unknown_field_inside_an_attribute_value_is_skipped() {
    // attributes entry: key "hop", value { field 8 varint 1, ce_integer 5 }
    let mut bytes = message().encode_to_vec();
    bytes.extend_from_slice(&[
        0x2a, 0x0b, 0x0a, 0x03, b'h', b'o', b'p', 0x12, 0x04, 0x40, 0x01, 0x10, 0x05,
    ]);
    let read = AnyEvent::decode::<Protobuf>(&bytes).unwrap();
    assert_eq!(read.extensions().get("hop"), Some(&5.into()));
}

#[test]
fn a_wrong_wire_type_is_refused() {
    // field 1 (`id`) as a varint
    let (attribute, rule) = refused(&[0x08, 0x01]);
    assert_eq!(
        (attribute.as_str(), rule.as_str()),
        ("event", "CE-Protobuf 1.0")
    );
    let err = AnyEvent::decode::<Protobuf>(&[0x08, 0x01]).unwrap_err();
    assert!(err.to_string().contains("`id`"), "{err}");
    // ce_integer as LEN
    let bytes = [
        0x2a, 0x09, 0x0a, 0x03, b'h', b'o', b'p', 0x12, 0x02, 0x12, 0x00,
    ];
    assert_eq!(refused(&bytes), ("hop".into(), "CE-Protobuf 1.0".into()));
}

#[test]
fn an_integer_outside_i32_is_refused() {
    // ce_integer = 2^31, written as the 64-bit varint a careless writer sends
    let mut value = Vec::new();
    value.push(0x10);
    let mut n: u64 = 1 << 31;
    while n >= 0x80 {
        value.push((n as u8) | 0x80);
        n >>= 7;
    }
    value.push(n as u8);
    let mut entry = vec![0x0a, 0x03, b'h', b'o', b'p', 0x12, value.len() as u8];
    entry.extend_from_slice(&value);
    let mut bytes = message().encode_to_vec();
    bytes.push(0x2a);
    bytes.push(entry.len() as u8);
    bytes.extend_from_slice(&entry);
    assert_eq!(
        refused(&bytes),
        ("hop".into(), "CE 1.0.2 type system".into())
    );
    // A negative int32 is sign-extended to ten bytes and is fine.
    let bytes = attr("hop", Attr::CeInteger(i32::MIN));
    let any = AnyEvent::decode::<Protobuf>(&bytes).unwrap();
    assert_eq!(any.extensions().get("hop"), Some(&i32::MIN.into()));
}

#[test]
fn a_timestamp_out_of_range_is_refused() {
    for (seconds, nanos) in [(253_402_300_800, 0), (-62_135_596_801, 0), (0, -1)] {
        let bytes = attr(
            "time",
            Attr::CeTimestamp(messages::Timestamp { seconds, nanos }),
        );
        assert_eq!(
            refused(&bytes),
            ("time".into(), "CE 1.0.2 type system".into())
        );
    }
}

#[test]
fn both_data_forms_are_refused() {
    let mut bytes = message().encode_to_vec();
    bytes.extend_from_slice(&[0x32, 0x01, 0x00]); // binary_data
    bytes.extend_from_slice(&[0x3a, 0x01, b'x']); // text_data
    assert_eq!(refused(&bytes), ("data".into(), "INTG-STD-015 R-7".into()));
}

/// Issue 24: a scalar field given twice keeps its last value (Protobuf's merge rule); an
/// attribute twice in the map is still refused.
#[test]
fn a_scalar_given_twice_keeps_the_last_but_an_attribute_twice_is_refused() {
    let mut bytes = message().encode_to_vec();
    bytes.extend_from_slice(&[0x0a, 0x01, b'2']); // id again
    assert_eq!(AnyEvent::decode::<Protobuf>(&bytes).unwrap().id(), "2");

    let mut bytes = attr("hop", Attr::CeInteger(1));
    bytes.extend_from_slice(&[
        0x2a, 0x09, 0x0a, 0x03, b'h', b'o', b'p', 0x12, 0x02, 0x10, 0x02,
    ]);
    assert_eq!(refused(&bytes), ("hop".into(), "INTG-STD-015 R-7".into()));

    // A required attribute also in the map.
    let bytes = attr("id", Attr::CeString("2".into()));
    assert_eq!(refused(&bytes), ("id".into(), "INTG-STD-015 R-7".into()));
}

#[test]
fn an_attribute_value_with_two_members_or_none_is_refused() {
    // value { ce_boolean 1, ce_integer 1 }
    let bytes = [
        0x2a, 0x0b, 0x0a, 0x03, b'h', b'o', b'p', 0x12, 0x04, 0x08, 0x01, 0x10, 0x01,
    ];
    assert_eq!(
        refused(&bytes),
        ("hop".into(), "CE 1.0.2 type system".into())
    );
    let bytes = [0x2a, 0x07, 0x0a, 0x03, b'h', b'o', b'p', 0x12, 0x00];
    assert_eq!(
        refused(&bytes),
        ("hop".into(), "CE 1.0.2 type system".into())
    );
}

#[test]
fn a_core_attribute_of_another_type_is_refused() {
    let bytes = attr("time", Attr::CeString("2026-03-28T14:22:31Z".into()));
    assert_eq!(
        refused(&bytes),
        ("time".into(), "CE 1.0.2 type system".into())
    );
    let bytes = attr("subject", Attr::CeInteger(1));
    assert_eq!(
        refused(&bytes),
        ("subject".into(), "CE 1.0.2 type system".into())
    );
}

#[test]
fn the_policy_check_runs_on_every_event() {
    let mut event = message();
    event.spec_version = "0.3".into();
    assert_eq!(
        refused(&event.encode_to_vec()).1,
        "CE 1.0.2 specversion".to_owned()
    );
    let mut event = message();
    event.id = String::new(); // prost leaves an empty id out: `id` is missing
    assert_eq!(refused(&event.encode_to_vec()).0, "id");
    // A bad extension name: the same verdict as the JSON reader's, attribute and rule.
    let json = br#"{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created","Bad_Name":true}"#;
    let err = AnyEvent::from_slice(json).unwrap_err();
    let expected = (
        err.attribute().unwrap_or_default().to_owned(),
        err.rule()
            .map(|r| r.as_str().to_owned())
            .unwrap_or_default(),
    );
    assert_eq!(refused(&attr("Bad_Name", Attr::CeBoolean(true))), expected);
    // JSON reads these members as data; in the map they are extensions the policy refuses.
    for name in ["data", "data_base64"] {
        assert!(AnyEvent::decode::<Protobuf>(&attr(name, Attr::CeBoolean(true))).is_err());
    }
}

#[test]
fn truncated_input_is_refused_at_every_length() {
    let mut event = message();
    event
        .attributes
        .insert("hop".into(), value(Attr::CeInteger(300)));
    event.data = Some(MessageData::BinaryData(vec![1, 2, 3]));
    let bytes = event.encode_to_vec();
    for len in 1..bytes.len() {
        let result = AnyEvent::decode::<Protobuf>(&bytes[..len]);
        // A cut at a field boundary leaves a shorter, valid message; anywhere else the
        // reader says where the input ends.
        if let Err(err) = &result {
            assert!(err.rule().is_some(), "{len}: {err}");
        }
        // The validator's reader, which reads past what the strict one stops at, agrees:
        // whatever the strict reader refuses, it reports as an error.
        let report = crate::Validator::new(crate::Profile::CloudEvents)
            .validate_bytes::<Protobuf>(&bytes[..len]);
        assert_eq!(report.is_valid(), result.is_ok(), "{len}: {report}");
    }
    assert_eq!(refused(&bytes[..bytes.len() - 1]).1, "CE-Protobuf 1.0");
}

#[test]
fn oversized_input_is_refused_before_decoding() {
    let bytes = vec![0xff; crate::limits::MAX_EVENT_BYTES + 1];
    assert!(matches!(
        AnyEvent::decode::<Protobuf>(&bytes),
        Err(FormatError::TooLarge { what: "event", .. })
    ));
    let bytes = vec![0xff; crate::limits::MAX_BATCH_BYTES + 1];
    assert!(matches!(
        Batch::decode::<Protobuf>(&bytes),
        Err(FormatError::TooLarge { what: "batch", .. })
    ));
}

#[test]
fn deep_nesting_is_refused_without_recursion() {
    // 100,000 nested groups and length prefixes in an unknown field: refused at the first.
    let bytes: Vec<u8> = std::iter::repeat_n(0x4b_u8, 100_000).collect(); // field 9 SGROUP
    assert_eq!(refused(&bytes).1, "CE-Protobuf 1.0");
    let mut nested = Vec::new();
    for _ in 0..10_000 {
        nested.extend_from_slice(&[0x2a, 0x7f]);
    }
    assert!(AnyEvent::decode::<Protobuf>(&nested).is_err());
}

#[test]
fn a_batch_names_the_bad_event() {
    let good = message();
    let mut bad = message();
    bad.spec_version = "2.0".into();
    let batch = messages::CloudEventBatch {
        events: vec![good.clone(), bad],
    };
    let err = Batch::decode::<Protobuf>(&batch.encode_to_vec()).unwrap_err();
    assert!(
        matches!(err, FormatError::InBatch { index: 1, .. }),
        "{err}"
    );
    let batch = messages::CloudEventBatch {
        events: vec![good.clone(), good],
    };
    let read = Batch::decode::<Protobuf>(&batch.encode_to_vec()).unwrap();
    assert_eq!(read.len(), 2);
    assert_eq!(
        messages::CloudEventBatch::decode(read.encode::<Protobuf>().unwrap().as_slice()).unwrap(),
        batch
    );
}

#[test]
fn the_validator_lists_every_finding_of_a_protobuf_event() {
    use crate::{Policy, Profile, Validator};
    // Two attributes of the wrong Protobuf type, and two the profile refuses.
    let mut event = message();
    event.source = "https://localhost:8080/orders".into();
    event.r#type = "Order".into();
    event
        .attributes
        .insert("subject".into(), value(Attr::CeBoolean(true)));
    event.attributes.insert(
        "time".into(),
        value(Attr::CeString("2026-03-28T14:22:31Z".into())),
    );
    let bytes = event.encode_to_vec();

    let report = Validator::new(Profile::IntgStd015).validate_bytes::<Protobuf>(&bytes);
    let mut attributes: Vec<&str> = report.errors().map(|f| &*f.attribute).collect();
    attributes.sort_unstable();
    attributes.dedup();
    assert_eq!(
        attributes,
        ["source", "subject", "time", "type"],
        "{report}"
    );
    assert_eq!(report.id(), Some("1"));

    // The strict reader stops at the first of them, which is the validator's first.
    let err =
        AnyEvent::decode_with::<Protobuf>(&bytes, &Policy::new(Profile::IntgStd015)).unwrap_err();
    assert_eq!(
        err.attribute(),
        report.errors().next().map(|f| &*f.attribute),
        "{report}"
    );

    // What cannot be read past (truncated input) ends the reading: the findings so far,
    // then that one, and no event.
    let report =
        Validator::new(Profile::IntgStd015).validate_bytes::<Protobuf>(&bytes[..bytes.len() - 1]);
    let last = report.findings().last().map(|f| f.rule.as_str());
    assert_eq!(last, Some("CE-Protobuf 1.0"), "{report}");
    assert_eq!(report.id(), None, "{report}");
}

#[test]
fn the_validator_reads_a_protobuf_batch_event_by_event() {
    use crate::{Profile, Validator};
    let mut bad = message();
    bad.source = "https://localhost/x".into();
    let batch = messages::CloudEventBatch {
        events: vec![message(), bad],
    };
    let report = Validator::new(Profile::IntgStd015)
        .validate_batch_bytes::<Protobuf>(&batch.encode_to_vec());
    assert_eq!(report.events().len(), 2);
    assert!(report.events()[0].is_valid(), "{}", report.events()[0]);
    assert!(report.events()[1].has_rule("INTG-STD-015 R-14"));
}
