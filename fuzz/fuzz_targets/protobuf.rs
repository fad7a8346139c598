//! The Protobuf reader on arbitrary bytes: never panic; whatever it reads as an event or a
//! batch writes back and reads to the same value; `prost` reads every message we accept (our
//! reader is stricter, never looser).
#![no_main]

use cloudevent_runtime::protobuf::messages::{CloudEvent, CloudEventBatch};
use cloudevent_runtime::{AnyEvent, Batch, Policy, Profile, Protobuf, Validate, Validator};
use libfuzzer_sys::fuzz_target;
use prost::Message as _;

fuzz_target!(|data: &[u8]| {
    let strict = Policy::new(Profile::IntgStd015);
    let _ = AnyEvent::decode_with::<Protobuf>(data, &strict).map_err(|e| e.to_string());
    // The validator's reader goes on past what the strict one stops at: it must not panic.
    let _ = Validator::new(strict.clone()).validate_bytes::<Protobuf>(data);
    let _ = Validator::new(strict.clone()).validate_batch_bytes::<Protobuf>(data);
    if let Ok(event) = AnyEvent::decode::<Protobuf>(data) {
        assert!(
            CloudEvent::decode(data).is_ok(),
            "prost refuses what we accept"
        );
        let again = AnyEvent::decode::<Protobuf>(&event.encode::<Protobuf>().unwrap())
            .unwrap_or_else(|e| panic!("own output does not read back: {e}"));
        assert_eq!(again, event, "round trip changed the event");
    }
    if let Ok(batch) = Batch::decode::<Protobuf>(data) {
        assert!(
            CloudEventBatch::decode(data).is_ok(),
            "prost refuses a batch we accept"
        );
        let again = Batch::decode::<Protobuf>(&batch.encode::<Protobuf>().unwrap())
            .unwrap_or_else(|e| panic!("own batch does not read back: {e}"));
        assert_eq!(&again[..], &batch[..]);
    }
});
