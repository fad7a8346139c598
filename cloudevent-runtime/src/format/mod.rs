//! The event formats: JSON and the JSON batch format (CloudEvents JSON Event Format 1.0.2),
//! Protobuf and Avro behind their features.
//!
//! [`json`] is the one reader every entry point shares; [`batch`] reads and writes arrays of
//! events; `avro` (feature `avro`) is the Avro event format, read through the JSON reader's
//! visitor; `protobuf` (feature `protobuf`) the CloudEvents Protobuf event and batch formats.

use std::io::Read;

use crate::error::FormatError;

mod any;
#[cfg(feature = "avro")]
pub mod avro;
pub(crate) mod batch;
pub(crate) mod json;
#[cfg(feature = "protobuf")]
pub mod protobuf;

pub(crate) use any::RawData;

/// Reads at most `limit` bytes, failing when there are more.
pub(crate) fn read_bounded(
    reader: impl Read,
    limit: usize,
    what: &'static str,
    rule: cloudevent_rules::RuleId,
) -> Result<Vec<u8>, FormatError> {
    let mut bytes = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    reader.take(cap).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(FormatError::TooLarge {
            what,
            found: bytes.len(),
            limit,
            rule,
        });
    }
    Ok(bytes)
}
