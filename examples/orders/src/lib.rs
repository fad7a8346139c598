//! The order/payment example: payload types generated from `schemas/` by
//! `cargo xtask codegen` (in [`generated`], one module a schema file), used by a producer and
//! a consumer.

pub mod generated;
