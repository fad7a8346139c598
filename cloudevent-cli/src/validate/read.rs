//! What `cloudevent validate` does with each part of an input the one reader
//! ([`crate::input::read`]) finds: check it, giving the input's [`Checked`] report.

use cloudevent_runtime::binding::kafka;
use cloudevent_runtime::{AnyEvent, Avro, Json, Protobuf, ValidationReport};

use super::registry::Checker;
use super::report::{Checked, EventResult, EveryEvent};
use crate::input::{self, Body, Encoding, Format, Single};

/// Reads `bytes` in `format` and checks every event it carries.
pub(super) fn check(validator: &Checker, format: Format, bytes: &[u8]) -> Checked {
    Checked::of_input(
        format,
        bytes,
        validator.policy(),
        &mut |body| check_body(validator, body),
        &mut |index, single| match single {
            Single::Event(encoding, bytes) => {
                EventResult::from_report(index, &check_event(validator, encoding, bytes))
            }
            Single::KafkaBinary(record) => match kafka::from_record::<AnyEvent>(record) {
                Ok(event) => EventResult::from_report(index, &validator.validate(&event)),
                Err(error) => {
                    EventResult::refused(index, vec![error.violation_under(validator.policy())])
                }
            },
        },
    )
}

/// One event in an event format: the format's reader collecting every finding (the wire's,
/// the attributes' and the chosen profile's).
fn check_event(validator: &Checker, encoding: Encoding, bytes: &[u8]) -> ValidationReport {
    match encoding {
        Encoding::Json => validator.validate_bytes::<Json>(bytes),
        Encoding::Protobuf => validator.validate_bytes::<Protobuf>(bytes),
        Encoding::Avro => validator.validate_bytes::<Avro>(bytes),
    }
}

/// The whole input, or an HTTP message's body: a JSON document, an event or a batch in an
/// event format, every finding listed; binary mode is read into an event first, so a broken
/// header stops at the first problem, and the event read is then validated in full.
fn check_body(validator: &Checker, body: Body<'_>) -> Checked {
    match body {
        Body::Document(bytes) => {
            let mut every = EveryEvent::default();
            let document = validator.validate_document_each(bytes, &mut |e| every.see(e));
            Checked::document(&document, every)
        }
        Body::Event(encoding, bytes) => Checked::event(&check_event(validator, encoding, bytes)),
        Body::Batch(encoding, bytes) => {
            let mut every = EveryEvent::default();
            let mut see = |e: &ValidationReport| every.see(e);
            let report = match encoding {
                Encoding::Protobuf => {
                    validator.validate_batch_bytes_each::<Protobuf>(bytes, &mut see)
                }
                Encoding::Avro => validator.validate_batch_bytes_each::<Avro>(bytes, &mut see),
                Encoding::Json => validator.validate_batch_bytes_each::<Json>(bytes, &mut see),
            };
            Checked::batch(&report, every)
        }
        // The headers are read under the checker's policy: a literal reading it tolerates
        // (`--tolerate-literal-headers`) is a warning in the event's report.
        Body::HttpBinary(headers, body) => {
            match input::http_binary(headers, body, validator.policy()) {
                Ok((event, warnings)) => {
                    let mut report = validator.validate(&event);
                    report.extend(warnings);
                    Checked::event(&report)
                }
                Err(error) => Checked::refused_with(error.violation_under(validator.policy())),
            }
        }
    }
}
