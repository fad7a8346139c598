//! The bundled registry's payload types, generated at build time by
//! `cloudevent_codegen::Builder` (see `build.rs`).

include!(concat!(env!("OUT_DIR"), "/cloudevents.rs"));

/// The types of the CDEvents-shaped schema folder of `cloudevent-codegen`'s tests, read with
/// `--type-pointer /properties/context/properties/type` and carrying the `cloudevents` profile.
pub mod cdevents {
    include!(concat!(env!("OUT_DIR"), "/cdevents.rs"));
}

/// One type for each schema shape codegen rewrites before typify sees it (keyword beside
/// `$ref`, scalar `anyOf`/`oneOf`, presence-only `anyOf`, non-object roots).
pub mod shapes {
    include!(concat!(env!("OUT_DIR"), "/shapes.rs"));
}

/// The CloudEvents messages of the xRegistry catalog of `cloudevent-codegen`'s tests, carrying
/// the `cloudevents` profile.
pub mod xregistry {
    include!(concat!(env!("OUT_DIR"), "/xregistry.rs"));
}

/// The webhook-shaped schema folder of `cloudevent-codegen`'s fidelity tests (nulls, empty
/// arrays, defaults, offsets, open objects), read with `--type-pointer /x-cloudevent-type`.
pub mod webhook {
    include!(concat!(env!("OUT_DIR"), "/webhook.rs"));
}

/// A registry whose one type is deprecated with a sunset: the generated type is
/// `#[deprecated]`, and nothing inside the generated code warns.
pub mod deprecated {
    include!(concat!(env!("OUT_DIR"), "/deprecated.rs"));
}

/// Extensions filled from members below the payload's root (`--extension tenantid=/context/tenant/id`,
/// through an optional object: `/context/site/zone`), read with `--type-pointer
/// /x-cloudevent-type` (`cloudevent-codegen/tests/fixtures/nested-extensions`).
pub mod nested {
    include!(concat!(env!("OUT_DIR"), "/nested.rs"));
}

/// Data at the edges of JSON Schema (`cloudevent-codegen/tests/fixtures/fidelity-edges`): a
/// member typed only `null`, `{}` in a `oneOf` branch, integers beyond `u64` or spelled `2.0`.
pub mod edges {
    include!(concat!(env!("OUT_DIR"), "/edges.rs"));
}

/// `date-time` members under type mappings (`cloudevent-codegen/tests/fixtures/date-time`):
/// the published-set layout (`--type-template`, `--types-pointer`), read as the runtime's
/// `Timestamp`, checked on read and written back as received.
pub mod date_time_published {
    include!(concat!(env!("OUT_DIR"), "/date_time_published.rs"));
}

/// `date-time` members of a registry of one's own (`x-cloudevent` with a `time` pointer and a
/// `date-time` extension) read with `--type-template '{dir}'`.
pub mod date_time_own {
    include!(concat!(env!("OUT_DIR"), "/date_time_own.rs"));
}
