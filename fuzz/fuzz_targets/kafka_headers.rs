//! Kafka records: header decoding in binary mode (null and non-UTF-8 values, repeated and
//! mixed-case names), structured mode, and the CLI's JSON record form. Never panics; an event
//! read from a record writes back to a binary record that reads to the same event.
#![no_main]

use cloudevent_runtime::AnyEvent;
use cloudevent_runtime::binding::ContentMode;
use cloudevent_runtime::binding::kafka::{self, KafkaRecord};
use libfuzzer_sys::fuzz_target;

type Input = (
    Vec<(String, Option<Vec<u8>>)>,
    Option<Vec<u8>>,
    Option<Vec<u8>>,
);

fuzz_target!(|input: (Input, Vec<u8>)| {
    let ((headers, key, value), json) = input;
    let _ = KafkaRecord::from_json(&json);
    let record = KafkaRecord {
        key,
        headers,
        value,
    };
    let _ = kafka::structured_document(&record);
    let Ok(event) = kafka::from_record::<AnyEvent>(&record) else {
        return;
    };
    let _ = kafka::record_key(&event);
    let written = kafka::to_record(&event, ContentMode::Binary).expect("a read event writes");
    let again = kafka::from_record::<AnyEvent>(&written)
        .unwrap_or_else(|e| panic!("own record does not read: {e}\n{written:?}"));
    assert_eq!(again, event, "record round trip changed the event");
});
