//! One attribute-reading trait, implemented once per event type: `AnyEvent` and `Event<T>`
//! holding the same event read the same through `Attributes`, and everything built on it
//! (traceability, the R-15 receipt, the claim check) answers the same for both.

use std::borrow::Cow;

use cloudevent_runtime::claimcheck::Dataref;
use cloudevent_runtime::receipt::Receivable;
use cloudevent_runtime::{
    AnyEvent, Attributes, BuildError, CloudEvent, Event, ExtensionValueBuf, Traceable, UriRef,
};

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com",
    dataschema = "https://schemas.example.com/order/created/v1.json"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension)]
    region: String,
}

const DOCUMENT: &str = r#"{"specversion":"1.0","id":"01J0EVENT","source":"https://orders.example.com",
    "type":"com.example.order.created","subject":"o-1","time":"2026-03-28T14:22:31Z",
    "datacontenttype":"application/json",
    "dataschema":"https://schemas.example.com/order/created/v1.json",
    "region":"eu","correlationid":"wf-1","causationid":"01J0PARENT",
    "data":{"order_id":"o-1","region":"eu"}}"#;

/// Everything `Attributes` says about an event, as owned text.
fn read(event: &dyn Attributes) -> Vec<(String, Option<String>)> {
    let text = |value: Option<Cow<'_, ExtensionValueBuf>>| {
        value.and_then(|v| v.as_str().map(str::to_owned))
    };
    vec![
        ("id".into(), Some(event.id().to_owned())),
        ("source".into(), Some(event.source().to_owned())),
        ("type".into(), Some(event.ty().to_owned())),
        ("subject".into(), event.subject().map(str::to_owned)),
        ("time".into(), event.time().map(|t| t.as_str().to_owned())),
        (
            "datacontenttype".into(),
            event.datacontenttype().map(str::to_owned),
        ),
        ("dataschema".into(), event.dataschema().map(str::to_owned)),
        ("region".into(), text(event.extension_value("region"))),
        (
            "correlationid".into(),
            text(event.extension_value("correlationid")),
        ),
        ("missing".into(), text(event.extension_value("missing"))),
    ]
}

#[test]
fn any_event_and_typed_event_read_the_same_attributes() {
    let any = AnyEvent::from_slice(DOCUMENT.as_bytes()).unwrap();
    let typed = Event::<OrderCreated>::from_slice(DOCUMENT.as_bytes()).unwrap();
    assert_eq!(read(&any), read(&typed));
    // The payload's extension is read from the payload, not from a copy on the envelope.
    assert!(!typed.extensions().contains("region"));
    assert_eq!(
        read(&typed)[7],
        ("region".to_owned(), Some("eu".to_owned()))
    );
}

#[test]
fn traceability_receipt_and_dataref_answer_the_same_for_both_types() {
    let any = AnyEvent::from_slice(DOCUMENT.as_bytes()).unwrap();
    let typed = Event::<OrderCreated>::from_slice(DOCUMENT.as_bytes()).unwrap();

    assert_eq!(any.correlationid().as_deref(), Some("wf-1"));
    assert_eq!(typed.correlationid(), any.correlationid());
    assert_eq!(typed.causationid(), any.causationid());
    assert!(!typed.is_root());
    // A payload extension is visible to the traceability reader too.
    assert_eq!(typed.extension_str("region").as_deref(), Some("eu"));

    assert_eq!(any.receipt(), typed.receipt());
    assert_eq!(
        typed.receipt().to_string(),
        "id=01J0EVENT source=https://orders.example.com type=com.example.order.created \
         time=2026-03-28T14:22:31Z"
    );

    let blob = UriRef::try_from("https://blobs.example.com/orders/o-1").unwrap();
    let any = any.with_dataref(blob.clone()).unwrap();
    let typed = typed.with_dataref(blob).unwrap();
    assert_eq!(any.dataref().unwrap(), typed.dataref().unwrap());
    assert_eq!(
        typed.dataref().unwrap().unwrap().as_str(),
        "https://blobs.example.com/orders/o-1"
    );
}

#[test]
fn setting_an_extension_keeps_each_types_own_checks() {
    let mut typed = Event::new(OrderCreated {
        order_id: "o-1".into(),
        region: "eu".into(),
    });
    // `Event<T>` checks the name against T's profile (CE 1.0.2 section 3.1.1 naming)...
    let refused = typed.set_extension("Priority", ExtensionValueBuf::from(3));
    assert!(
        matches!(&refused, Err(BuildError::Invalid(v))
            if v.iter().any(|v| v.value == "Priority" && v.rule.as_str() == "CE 1.0.2 naming")),
        "{refused:?}"
    );
    assert!(typed.extension_value("Priority").is_none());
    typed
        .set_extension("priority", ExtensionValueBuf::from(3))
        .unwrap();
    assert_eq!(
        typed.extension_value("priority").map(Cow::into_owned),
        Some(ExtensionValueBuf::from(3))
    );

    // ...`AnyEvent` stores what it is given, like its other setters; the readers and the
    // validator judge it.
    let mut any = AnyEvent::new("1", "/orders", "com.example.order.created");
    any.set_extension("priority", ExtensionValueBuf::from(3))
        .unwrap();
    assert_eq!(
        any.extension_value("priority").map(Cow::into_owned),
        Some(ExtensionValueBuf::from(3))
    );
}
