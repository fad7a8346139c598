//! The JSON-Schema-Test-Suite's groups as generated types (see `build.rs`), and a reader for
//! each: the test in `tests/suite.rs` runs every test's instance through them.

use cloudevent_runtime::{CloudEventData, Event};

#[allow(
    missing_docs,
    unreachable_pub,
    dead_code,
    reason = "generated from the suite's schemas"
)]
mod d7 {
    include!(concat!(env!("OUT_DIR"), "/suite_types_d7.rs"));
}

#[allow(
    missing_docs,
    unreachable_pub,
    dead_code,
    reason = "generated from the suite's schemas"
)]
mod d2020 {
    include!(concat!(env!("OUT_DIR"), "/suite_types_d2020.rs"));
}

/// Reads one event with a group's type and writes its data back: `Ok(data written back)` or
/// `Err(the reader's message)`.
pub type Reader = fn(&[u8]) -> Result<serde_json::Value, String>;

fn read<T>(bytes: &[u8]) -> Result<serde_json::Value, String>
where
    T: CloudEventData + serde::de::DeserializeOwned + serde::Serialize,
{
    let event = Event::<T>::from_slice(bytes).map_err(|e| e.to_string())?;
    serde_json::to_value(event.data()).map_err(|e| format!("write back: {e}"))
}

include!(concat!(env!("OUT_DIR"), "/suite_cases.rs"));

/// The refusals of the groups codegen left out, as JSON (`group`, `pointer`, `message`).
pub const REFUSED: &str = include_str!(concat!(env!("OUT_DIR"), "/refused.json"));
