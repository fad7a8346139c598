//! Batches: `Batch::from_slice` and the batch validator never panic; a parsed batch round-trips.
#![no_main]

use cloudevent_runtime::{Batch, Json, Profile, Validate, Validator};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = Validator::new(Profile::CloudEvents).validate_batch_bytes::<Json>(data);
    let Ok(batch) = Batch::from_slice(data) else {
        return;
    };
    let json = batch.to_vec();
    let again = Batch::from_slice(&json).unwrap_or_else(|e| {
        panic!(
            "own output does not parse: {e}\n{}",
            String::from_utf8_lossy(&json)
        )
    });
    assert_eq!(again, batch, "round trip changed the batch");
});
