//! The support library of the `cloudevent` command, not a stable API.
//!
//! The binary (`src/main.rs`) is the product; this library holds the parts of it that tests
//! and the fuzz targets (`fuzz/fuzz_targets/cli_http_message.rs`) reach directly. Its items
//! may change in any release. Applications depend on `cloudevent-runtime` (events, formats,
//! bindings, the validator) and `cloudevent-codegen` (schemas), never on this crate.
//!
//! - [`http_message`]: a raw HTTP/1.1 message read into an `http::Request`, for
//!   `cloudevent validate --format http` (and `sign`, `verify`), and written again for
//!   `cloudevent sign`.

pub mod http_message;
