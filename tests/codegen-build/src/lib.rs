//! The bundled registry's payload types, generated at build time by
//! `cloudevent_codegen::Builder` (see `build.rs`).

include!(concat!(env!("OUT_DIR"), "/cloudevents.rs"));
