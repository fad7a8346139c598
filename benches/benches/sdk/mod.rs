//! The `cloudevents-sdk` 0.9 side of the comparison, shared by the bench and the tests
//! (`#[path]`-included: the SDK is a dev-dependency only).

use cloudevent_bench::{
    CORRELATIONID, DATACONTENTTYPE, DATASCHEMA, EXTENSION, EXTENSION_VALUE, ID, OrderPlaced,
    PlainPayload, ROOT_DATASCHEMA, ROOT_TIME, ROOT_TYPE, SOURCE, SUBJECT, TIME, TYPE, payload,
};
use cloudevents::{EventBuilder, EventBuilderV10};
use serde::de::DeserializeOwned;

/// The reference event, built with `EventBuilderV10` (the payload goes through
/// `serde_json::Value`, the SDK's JSON data type).
pub fn sdk_build() -> cloudevents::Event {
    let data = serde_json::to_value(payload()).expect("the payload serializes");
    EventBuilderV10::new()
        .id(ID)
        .source(SOURCE)
        .ty(TYPE)
        .time(TIME)
        .subject(SUBJECT)
        .extension(EXTENSION, EXTENSION_VALUE)
        .data_with_schema(DATACONTENTTYPE, DATASCHEMA, data)
        .build()
        .expect("the reference event is valid for the SDK")
}

/// The README-path event (issue 13) as an SDK producer builds it: a fresh ULID for `id` and
/// `correlationid`, `causationid` = `id`, `time` now, the payload through `serde_json::Value`
/// (the SDK's JSON data type), subject and extension copied out of it.
pub fn sdk_new(data: OrderPlaced) -> cloudevents::Event {
    let id = ulid::Ulid::generate().to_string();
    let (subject, region) = (data.order_id.clone(), data.region.clone());
    let data = serde_json::to_value(data).expect("the payload serializes");
    EventBuilderV10::new()
        .id(id.clone())
        .source(SOURCE)
        .ty(ROOT_TYPE)
        .time(chrono::Utc::now())
        .subject(subject)
        .extension(EXTENSION, region)
        .extension("correlationid", ulid::Ulid::generate().to_string())
        .extension("causationid", id)
        .data_with_schema(DATACONTENTTYPE, ROOT_DATASCHEMA, data)
        .build()
        .expect("the README-path event is valid for the SDK")
}

/// The fixed README-path event, by the SDK.
#[allow(
    dead_code,
    reason = "the bench reads our request; tests/same_event.rs compares this"
)]
pub fn sdk_root() -> cloudevents::Event {
    let data = serde_json::to_value(cloudevent_bench::placed()).expect("the payload serializes");
    EventBuilderV10::new()
        .id(ID)
        .source(SOURCE)
        .ty(ROOT_TYPE)
        .time(ROOT_TIME)
        .subject(SUBJECT)
        .extension(EXTENSION, EXTENSION_VALUE)
        .extension("correlationid", CORRELATIONID)
        .extension("causationid", ID)
        .data_with_schema(DATACONTENTTYPE, ROOT_DATASCHEMA, data)
        .build()
        .expect("the README-path event is valid for the SDK")
}

/// [`sdk_parse`] into any payload type.
pub fn sdk_parse_as<P: DeserializeOwned>(bytes: &[u8]) -> (cloudevents::Event, P) {
    let mut event: cloudevents::Event = serde_json::from_slice(bytes).expect("SDK parses");
    let (_, _, data) = event.take_data();
    let payload = sdk_payload_as(data);
    (event, payload)
}

/// What an SDK consumer does to get the payload: parse the event (through
/// `serde_json::Value`), take `data` and convert it to the struct.
pub fn sdk_parse(bytes: &[u8]) -> (cloudevents::Event, PlainPayload) {
    sdk_parse_as(bytes)
}

/// Builds an `http::Request` from the SDK's binary-mode serializer (the SDK ships this only
/// for its reqwest/axum/... integrations; this is what they do).
pub struct SdkRequest(Option<http::request::Builder>);

impl cloudevents::binding::http::builder::Builder<http::Request<Vec<u8>>> for SdkRequest {
    fn header(&mut self, key: &str, value: http::HeaderValue) {
        self.0 = self.0.take().map(|builder| builder.header(key, value));
    }

    fn body(&mut self, bytes: Vec<u8>) -> cloudevents::message::Result<http::Request<Vec<u8>>> {
        let builder = self.0.take().expect("one body per request");
        Ok(builder.body(bytes).expect("valid request"))
    }

    fn finish(&mut self) -> cloudevents::message::Result<http::Request<Vec<u8>>> {
        self.body(Vec::new())
    }
}

/// The reference event as an HTTP binary-mode request, by the SDK.
pub fn sdk_request(event: cloudevents::Event) -> http::Request<Vec<u8>> {
    use cloudevents::message::BinaryDeserializer;
    let builder = http::Request::builder()
        .method(http::Method::POST)
        .uri("http://127.0.0.1/events");
    event
        .deserialize_binary(cloudevents::binding::http::Serializer::new(SdkRequest(
            Some(builder),
        )))
        .expect("SDK encodes")
}

/// The payload out of the SDK's data, whichever variant it arrived as.
pub fn sdk_payload(data: Option<cloudevents::Data>) -> PlainPayload {
    sdk_payload_as(data)
}

/// [`sdk_payload`] into any payload type.
pub fn sdk_payload_as<P: DeserializeOwned>(data: Option<cloudevents::Data>) -> P {
    match data {
        Some(cloudevents::Data::Json(value)) => serde_json::from_value(value),
        Some(cloudevents::Data::Binary(bytes)) => serde_json::from_slice(&bytes),
        Some(cloudevents::Data::String(text)) => serde_json::from_str(&text),
        None => panic!("the reference event has data"),
    }
    .expect("payload converts")
}
