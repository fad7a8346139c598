//! Size limits of INTG-STD-015 R-10 and R-11, re-exported from `cloudevent-rules` (their one
//! home) so users of the runtime need not depend on the rules crate.
//!
//! ```
//! use cloudevent_runtime::limits;
//!
//! assert_eq!(limits::MAX_EVENT_BYTES, 256 * 1024);
//! assert_eq!(limits::MAX_BATCH_BYTES, 1024 * 1024);
//! ```

pub use cloudevent_rules::limits::{
    MAX_ATTRIBUTES_BYTES, MAX_BATCH_BYTES, MAX_BATCH_EVENTS, MAX_DATA_BYTES, MAX_EVENT_BYTES,
};
