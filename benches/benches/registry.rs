//! The cost of checking `data` against the registry's schema (issue 12): one real-shaped
//! event of this repository's registry (`com.example.order.created`, 1 KiB, nested objects,
//! an array, `$defs` refs) through the profile's validator alone and through the
//! registry-aware validator, which adds the type lookup, the extension types and the
//! compiled schema's validation of `data`. The difference is the data validation's cost.
//!
//! Groups are the cases, functions the contestants: `profile` (`Validator::validate_slice`,
//! INTG-STD-015), `registry` (`RegistryValidator::validate_slice`, the same plus the
//! registry), on a valid event (as bytes, and parsed into an `AnyEvent`) and on one whose
//! `data` misses a required member.

use cloudevent_runtime::Validate;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use cloudevent_runtime::registry::{Registry, RegistryEntry, RegistryValidator};
use cloudevent_runtime::{Json, Profile, Validator};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn validators() -> (Validator, RegistryValidator) {
    // The schema's refs are local (`#/$defs/...`), so the file is its own entry; registries
    // with external refs go through `cloudevent_codegen::registry_snapshot`.
    let schema: Value =
        serde_json::from_slice(&read("schemas/com.example.order.created/v1.json")).unwrap();
    let registry = Registry::new(vec![RegistryEntry::new(
        "com.example.order.created",
        schema,
    )])
    .unwrap();
    let profile = Validator::new(Profile::IntgStd015);
    (profile.clone(), RegistryValidator::new(profile, registry))
}

fn validate(c: &mut Criterion) {
    let good = read("cloudevent-cli/tests/data/registry/order-created.json");
    let mut bad: Value = serde_json::from_slice(&good).unwrap();
    bad["data"].as_object_mut().unwrap().remove("total");
    let bad = serde_json::to_vec(&bad).unwrap();
    let (profile, registry) = validators();
    assert!(
        registry.validate_bytes::<Json>(&good).is_valid(),
        "{}",
        registry.validate_bytes::<Json>(&good)
    );
    assert!(!registry.validate_bytes::<Json>(&bad).is_valid());

    let mut group = c.benchmark_group("registry_validate");
    group.bench_function("profile", |b| {
        b.iter(|| profile.validate_bytes::<Json>(black_box(&good)))
    });
    group.bench_function("registry", |b| {
        b.iter(|| registry.validate_bytes::<Json>(black_box(&good)))
    });
    group.finish();

    // A parsed event (what a gateway's extractor holds): no re-read of the bytes.
    let event = cloudevent_runtime::AnyEvent::from_slice(&good).unwrap();
    let mut group = c.benchmark_group("registry_validate_event");
    group.bench_function("profile", |b| {
        b.iter(|| profile.validate(black_box(&event)))
    });
    group.bench_function("registry", |b| {
        b.iter(|| registry.validate(black_box(&event)))
    });
    group.finish();

    let mut group = c.benchmark_group("registry_validate_failing");
    group.bench_function("profile", |b| {
        b.iter(|| profile.validate_bytes::<Json>(black_box(&bad)))
    });
    group.bench_function("registry", |b| {
        b.iter(|| registry.validate_bytes::<Json>(black_box(&bad)))
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = config();
    targets = validate
}
criterion_main!(benches);
