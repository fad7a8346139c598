//! This crate's `[package.metadata.cloudevent]` names a profile that does not exist, so
//! every `#[derive(CloudEvent)]` in it fails with an error naming the Cargo.toml key (see
//! `ui/`). The library itself derives nothing so that it builds.
