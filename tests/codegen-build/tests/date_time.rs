//! Issue 26, one verdict for `date-time`: under a type mapping a `date-time` member is the
//! runtime's `Timestamp`. Each instance of `cloudevent-codegen/tests/fixtures/date-time`
//! (`examples/cases.json`) is read by its generated type: refused where a `date-time` does not
//! hold, the error naming that member's JSON pointer; accepted otherwise, its data written
//! back identical (offsets, fractions and lower-case `t`/`z` as received).
//! `cloudevent-codegen/tests/date_time.rs` gives the same instances to the registry validator.

use cloudevent_runtime::{Attributes, CloudEventData, Event, Timestamp};
use serde_json::Value;

fn cases() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../cloudevent-codegen/tests/fixtures/date-time/examples/cases.json"
    );
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn event(case: &Value) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({"specversion": "1.0", "id": "1",
        "source": "https://rota.example.com/shifts", "type": case["type"], "data": case["data"]}))
    .unwrap()
}

/// `Ok(data written back)`, or `Err(the error's attribute, its text)`.
fn read<T>(bytes: &[u8]) -> Result<Value, (String, String)>
where
    T: CloudEventData + serde::Serialize + serde::de::DeserializeOwned,
{
    match Event::<T>::from_slice(bytes) {
        Ok(event) => Ok(serde_json::to_value(event.data()).unwrap()),
        Err(error) => Err((
            error.attribute().unwrap_or_default().to_owned(),
            error.to_string(),
        )),
    }
}

#[test]
fn every_date_time_is_checked_with_its_pointer_and_written_back_as_received() {
    use codegen_build_test::date_time_own::shift_started::ShiftStarted;
    use codegen_build_test::date_time_published::app_event_created::AppEventCreated;
    use codegen_build_test::date_time_published::storage_object_v1_finalized::StorageObjectV1Finalized;
    let cases = cases();
    assert_eq!(cases.len(), 10);
    for case in &cases {
        let bytes = event(case);
        let read = match case["type"].as_str().unwrap() {
            "com.example.app_event.created" => read::<AppEventCreated>(&bytes),
            "com.example.storage.object.v1.finalized" => read::<StorageObjectV1Finalized>(&bytes),
            "com.example.shift.started" => read::<ShiftStarted>(&bytes),
            other => panic!("no case for {other}"),
        };
        match (case["refused_at"].as_str(), read) {
            (None, Ok(data)) => assert_eq!(data, case["data"], "written back as received"),
            (Some(at), Err((attribute, message))) => {
                assert_eq!(attribute, format!("data{at}"), "{message}");
                assert!(message.contains("CE 1.0.2"), "the rule is named: {message}");
            }
            (expected, read) => panic!("{case}: expected refused at {expected:?}, read {read:?}"),
        }
    }
}

#[test]
fn a_date_time_member_is_a_timestamp_that_fills_time_and_an_extension() {
    use codegen_build_test::date_time_own::shift_started::ShiftStarted;
    let case = &cases()[6];
    let event = Event::<ShiftStarted>::from_slice(&event(case)).unwrap();
    let started: &Timestamp = &event.data().started_at;
    assert_eq!(started.as_str(), "2026-03-28T08:00:00+01:00");
    // A new event from the data: `time` from `/started_at`, the `deadline` extension a
    // Timestamp from `/deadline`, both the text received.
    let again = Event::try_new(event.data().clone()).unwrap();
    assert_eq!(
        again.time().map(Timestamp::as_str),
        Some("2026-03-28T08:00:00+01:00")
    );
    let json: Value = serde_json::from_slice(&again.to_vec().unwrap()).unwrap();
    assert_eq!(json["deadline"], "2026-03-28T17:00:00.5Z");
    assert_eq!(json["data"], case["data"]);
}
