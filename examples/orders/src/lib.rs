//! The order/payment example: payload types generated from `schemas/` by
//! `cargo xtask codegen` (in [`generated`], one module a schema file) and the hand-written
//! Rust-first types of [`orders_exported`] (whose schemas `cargo xtask codegen` exports),
//! used by a [`producer`] and a [`consumer`].
//!
//! ```text
//! cargo run -p orders-example --bin producer | cargo run -p orders-example --bin consumer
//! ```
//!
//! The producer writes one structured-mode CloudEvent a line (JSON Lines); the consumer reads
//! them back, validates each against INTG-STD-015 and dispatches it to a typed handler.

pub mod consumer;
pub mod generated;
pub mod producer;

pub use orders_exported as exported;
