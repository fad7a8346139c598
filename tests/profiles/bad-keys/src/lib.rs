//! This crate's `[package.metadata.cloudevent]` misspells `profile` and gives a `type-prefix`
//! that is not lowercase reverse-DNS, so every `#[derive(CloudEvent)]` in it fails with both
//! errors, each naming its Cargo.toml key (see `ui/`). The library derives nothing so that it
//! builds.
