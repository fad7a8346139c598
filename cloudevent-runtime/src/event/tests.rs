use super::*;
use crate::extension::ExtensionVisitor;

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct Order {
    id: String,
    region: Option<String>,
}

impl crate::HasSource for Order {}

impl CloudEventData for Order {
    const TYPE: &'static str = "com.example.order.created";
    const DATASCHEMA: Option<&'static str> = None;
    const SOURCE: Option<&'static str> = Some("https://orders.example.com");
    const DATACONTENTTYPE: &'static str = "application/json";
    const EXTENSIONS: &'static [&'static str] = &["region"];

    fn subject(&self) -> Option<&str> {
        Some(&self.id)
    }

    fn visit_extensions<V: ExtensionVisitor>(&self, visitor: &mut V) -> Result<(), V::Error> {
        if let Some(region) = &self.region {
            visitor.visit("region", ExtensionValue::String(region))?;
        }
        Ok(())
    }
}

fn order() -> Order {
    Order {
        id: "o-1".into(),
        region: Some("eu".into()),
    }
}

#[test]
fn subject_follows_the_payload_unless_set_or_removed() {
    let mut event = Event::new(order());
    assert_eq!(event.subject(), Some("o-1"));
    event.data_mut().id = "o-2".into();
    assert_eq!(event.subject(), Some("o-2"));
    let event = event.with_subject("custom").unwrap();
    assert_eq!(event.subject(), Some("custom"));
    assert_eq!(event.without_subject().subject(), None);
}

#[test]
fn extensions_set_on_the_event_override_the_payloads() {
    let event = Event::new(order()).with_extension("region", "us").unwrap();
    let mut seen = Vec::new();
    event.for_each_extension(|name, value| {
        seen.push((name.to_owned(), crate::ExtensionValueBuf::from(value)));
    });
    let regions: Vec<_> = seen.iter().filter(|(n, _)| n == "region").collect();
    assert_eq!(regions.len(), 1);
    assert_eq!(regions[0].1, ExtensionValueBuf::from("us"));
    let json = String::from_utf8(event.to_vec().unwrap()).unwrap();
    assert_eq!(
        json.matches("\"region\"").count(),
        2,
        "payload field + one extension: {json}"
    );
}

#[test]
fn builder_sets_id_time_and_leaves_out_traceability_on_request() {
    let time = Timestamp::try_from("2026-03-28T14:22:31Z").unwrap();
    let event = Event::builder(order())
        .id("fixed-id")
        .time(time.clone())
        .without_traceability()
        .build()
        .unwrap();
    assert_eq!(event.id(), "fixed-id");
    assert_eq!(event.time(), Some(&time));
    assert_eq!(event.correlationid(), None);
    let untimed = Event::builder(order()).time(None).build().unwrap();
    assert_eq!(untimed.time(), None);
}

#[test]
fn received_copies_of_payload_extensions_are_not_kept_twice() {
    let json = br#"{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created","region":"eu","data":{"id":"o-1","region":"eu"}}"#;
    let event = Event::<Order>::from_slice(json).unwrap();
    assert!(event.extensions().is_empty());
    assert!(
        matches!(event.source, Cow::Borrowed(_)),
        "the constant is reused"
    );
}

#[test]
fn leaf_deserializer_sees_through_newtypes_and_options() {
    use serde::Deserialize as _;
    #[derive(serde::Deserialize, PartialEq, Debug)]
    struct Text(Option<String>);
    assert_eq!(
        Text::deserialize(Leaf::Str("hi")).unwrap(),
        Text(Some("hi".into()))
    );
    assert!(u32::deserialize(Leaf::Str("hi")).is_err());
}

/// `to_vec` sizes its buffer from a guess (issue 40); the bytes are serde_json's own, whether
/// the guess holds the text or not.
#[test]
fn to_vec_writes_what_serde_json_writes() {
    let long = Order {
        id: "o-\"1\"\\".repeat(200),
        region: Some("eu\u{e9}".into()),
    };
    let events = [
        Event::new(order()),
        Event::new(Order {
            id: "o-1".into(),
            region: None,
        })
        .with_new_id(IdKind::UuidV4),
        Event::new(long)
            .with_extension("hop", 7)
            .and_then(|e| e.with_extension("sampled", true))
            .and_then(|e| e.with_extension("blob", crate::value::Binary::from(&[0u8, 1, 2][..])))
            .and_then(|e| e.with_time(None))
            .unwrap(),
    ];
    for event in events {
        let bytes = event.to_vec().unwrap();
        assert_eq!(bytes, serde_json::to_vec(&event).unwrap());
        let room = event.json_len_hint();
        if bytes.len() < 1000 {
            assert!(bytes.len() <= room, "{} > {room}", bytes.len());
        }
    }
}

/// `Event::new` reads the clock once: the `id` and the `correlationid` are ULIDs of the same
/// millisecond (their first ten characters), and the `causationid` is the id.
#[test]
fn a_new_events_ids_name_one_instant() {
    let event = Event::new(order());
    let correlation = event.correlationid().unwrap();
    assert_eq!(event.id().len(), 26);
    assert_eq!(correlation[..10], event.id()[..10]);
    assert_ne!(*correlation, *event.id());
    assert_eq!(event.causationid().as_deref(), Some(event.id()));
}
