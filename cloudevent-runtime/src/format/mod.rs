//! The JSON event format and the JSON batch format (CloudEvents JSON Event Format 1.0.2).
//!
//! [`json`] is the one reader every entry point shares; [`batch`] reads and writes arrays of
//! events.

pub(crate) mod batch;
pub(crate) mod json;
