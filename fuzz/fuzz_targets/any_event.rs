//! `AnyEvent` from JSON and the strict validator: never panic; whatever parses writes back and
//! parses to the same event; validating the parsed event and the raw bytes agree on validity
//! of the parse.
#![no_main]

use cloudevent_runtime::{AnyEvent, Json, Profile, Validate, Validator};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let validator = Validator::new(Profile::IntgStd015);
    let report = validator.validate_bytes::<Json>(data);
    let _ = report.to_string();
    let Ok(event) = AnyEvent::from_slice(data) else {
        return;
    };
    let _ = validator.validate(&event);
    let json = event.to_vec();
    let again = AnyEvent::from_slice(&json).unwrap_or_else(|e| {
        panic!(
            "own output does not parse: {e}\n{}",
            String::from_utf8_lossy(&json)
        )
    });
    assert_eq!(again, event, "round trip changed the event");
});
