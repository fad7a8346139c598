use super::*;
use crate::{Data, Profile};

fn event() -> AnyEvent {
    AnyEvent::from_slice(
        br#"{"specversion":"1.0","id":"1","source":"https://orders.example.com",
        "type":"com.example.order.created","subject":"order-1","time":"2026-03-28T14:22:31Z",
        "region":"eu","hops":3,"express":true}"#,
    )
    .unwrap()
}

#[test]
fn every_extension_type_round_trips() {
    let mut event = event();
    event
        .extensions_mut()
        .insert("blob", crate::Binary::new(*b"\x00\xff"));
    let back = decode(&encode(&event).unwrap(), &AnyEvent::DEFAULT_POLICY).unwrap();
    assert_eq!(back, event);
}

#[test]
fn every_data_form_round_trips() {
    let with = |ct: Option<&str>, data: Data| {
        let mut event = event();
        event.datacontenttype = ct.map(str::to_owned);
        event.data = Some(data);
        event
    };
    let raw = |text: &str| serde_json::value::RawValue::from_string(text.to_owned()).unwrap();
    for event in [
        with(
            Some("application/octet-stream"),
            Data::Binary(vec![0, 1, 255]),
        ),
        with(None, Data::Binary(vec![])),
        with(Some("text/plain"), Data::Text("héllo".into())),
        with(
            Some("application/json"),
            Data::Json(raw(r#"[1,{"a":null}]"#)),
        ),
        with(
            None,
            Data::Json(raw(
                r#"{"n":1,"f":1.5,"s":"x","b":false,"z":null,"o":{"k":"v","deep":{"x":{"y":[]}}}}"#,
            )),
        ),
        with(None, Data::Json(raw(r#"[{"a":1},{}]"#))),
        with(None, Data::Json(raw(r#""just a string""#))),
        with(None, Data::Json(raw("true"))),
        with(None, Data::Json(raw("-2.5"))),
    ] {
        let bytes = encode(&event).unwrap();
        assert_eq!(
            decode(&bytes, &AnyEvent::DEFAULT_POLICY).unwrap(),
            event,
            "{event:?}"
        );
    }
}

#[test]
fn the_policy_decides_as_for_json() {
    let mut event = event();
    event.source = "https://localhost:8080/orders".into();
    let bytes = encode(&event).unwrap();
    let json =
        AnyEvent::from_slice_with(&event.to_vec(), &Policy::new(Profile::IntgStd015)).unwrap_err();
    let avro = decode(&bytes, &Policy::new(Profile::IntgStd015)).unwrap_err();
    assert_eq!(avro.violation(), json.violation());
}
