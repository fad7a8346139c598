//! The README's quick start lives in `quickstart.rs`, an example of this package so that
//! `cargo run --example quickstart` builds only `cloudevent-runtime` with its default features,
//! serde and serde_json (the runtime's own examples also build its test-only dependencies).
