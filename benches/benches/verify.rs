//! The cost of signing and verifying an event with the CloudEvents verifiability extension
//! (issue 42, feature `verify`), beside the bare signature check it is held to.
//!
//! Two events: the README-path event (`root_json()`, about 420 bytes) and the same event with
//! its `data` grown until the JSON document is 1 KiB. Two keys: ECDSA P-256 (deterministic,
//! RFC 6979, the extension's test vectors' key type) and Ed25519. Rows:
//!
//! - `digest/*`: `verify::material`, the SHA-256 over the digests of the attributes and `data`
//!   (the extension's Signing Protocol steps 2 to 6); target ≤ 2 µs per KiB.
//! - `sign/*`: `verify::sign`, digest plus envelope plus signature.
//! - `verify/*`: `verify::verify` of the signed event: `dssematerial` decoded, envelope read,
//!   signature checked, digests compared.
//! - `bare/*`: the peer: the same signature over the same DSSE PAE checked by the RustCrypto
//!   crate itself (`p256::ecdsa::VerifyingKey::verify`, `ed25519_dalek::VerifyingKey::verify_strict`),
//!   nothing else; the target is verify ≤ 1.2x bare.
//!
//! Run: `cargo bench -p cloudevent-bench --bench verify`.

use std::hint::black_box;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use cloudevent_runtime::verify::{SigningKey, TrustedKeys, VerifyingKey, material, sign, verify};
use cloudevent_runtime::{AnyEvent, ExtensionValueBuf};
use criterion::{Criterion, criterion_group, criterion_main};
use p256::ecdsa::signature::Verifier;
use serde_json::Value;

/// The README-path event as an `AnyEvent`.
fn readme() -> AnyEvent {
    AnyEvent::from_slice(&cloudevent_bench::root_json()).expect("the README event reads")
}

/// The README-path event with a `note` member in `data` so that the document is 1 024 bytes.
fn one_kib() -> AnyEvent {
    let mut document: Value = serde_json::from_slice(&cloudevent_bench::root_json()).unwrap();
    document["data"]["note"] = Value::String(String::new());
    let short = serde_json::to_vec(&document).unwrap().len();
    document["data"]["note"] = Value::String("n".repeat(1024 - short));
    let bytes = serde_json::to_vec(&document).unwrap();
    assert_eq!(bytes.len(), 1024);
    AnyEvent::from_slice(&bytes).expect("the 1 KiB event reads")
}

/// The DSSE pre-authentication encoding (DSSE v1.0.2) and the first signature of a signed
/// event, decoded here with serde_json and base64 so the bare row shares no code with ours.
fn pae_and_signature(event: &AnyEvent) -> (Vec<u8>, Vec<u8>) {
    let Some(ExtensionValueBuf::Binary(material)) = event.extensions().get("dssematerial") else {
        panic!("signed events carry dssematerial as Binary");
    };
    let envelope: Value = serde_json::from_slice(material.as_bytes()).unwrap();
    let payload_type = envelope["payloadType"].as_str().unwrap();
    let body = STANDARD
        .decode(envelope["payload"].as_str().unwrap())
        .unwrap();
    let signature = STANDARD
        .decode(envelope["signatures"][0]["sig"].as_str().unwrap())
        .unwrap();
    let mut pae = format!(
        "DSSEv1 {} {} {} ",
        payload_type.len(),
        payload_type,
        body.len()
    )
    .into_bytes();
    pae.extend_from_slice(&body);
    (pae, signature)
}

fn keys() -> [(&'static str, SigningKey); 2] {
    [
        (
            "p256",
            SigningKey::p256("producer", &[0x2a; 32]).expect("a P-256 scalar"),
        ),
        ("ed25519", SigningKey::ed25519("producer", &[0x2a; 32])),
    ]
}

/// The bare check of the same signature over the same PAE by the cryptography crate.
fn bare(algorithm: &str, key: &VerifyingKey, pae: &[u8], signature: &[u8]) -> bool {
    let bytes = key.to_bytes();
    match algorithm {
        "p256" => {
            let key = p256::ecdsa::VerifyingKey::from_sec1_bytes(&bytes).unwrap();
            let signature = p256::ecdsa::Signature::from_slice(signature).unwrap();
            key.verify(pae, &signature).is_ok()
        }
        _ => {
            let key = ed25519_dalek::VerifyingKey::from_bytes(&bytes.try_into().unwrap()).unwrap();
            let signature = ed25519_dalek::Signature::from_slice(signature).unwrap();
            key.verify_strict(pae, &signature).is_ok()
        }
    }
}

fn bench(c: &mut Criterion) {
    let events = [("readme", readme()), ("1kib", one_kib())];

    let mut group = c.benchmark_group("digest");
    for (name, event) in &events {
        group.bench_function(*name, |b| b.iter(|| material(black_box(event), &[])));
    }
    group.finish();

    for (algorithm, key) in keys() {
        let trusted = TrustedKeys::new().with_key("producer", key.verifying_key());
        for (name, event) in &events {
            let mut signed = event.clone();
            sign(&mut signed, &key, &[]).expect("the event signs");
            assert!(verify(&signed, &trusted).is_ok());
            let (pae, signature) = pae_and_signature(&signed);
            let verifying = key.verifying_key();
            // Parse the bare contestant's key once, as a consumer holding its key would.
            assert!(bare(algorithm, &verifying, &pae, &signature));
            let row = format!("{algorithm}/{name}");

            c.bench_function(&format!("sign/{row}"), |b| {
                b.iter(|| {
                    let mut event = event.clone();
                    sign(&mut event, &key, &[]).unwrap();
                    event
                })
            });
            c.bench_function(&format!("verify/{row}"), |b| {
                b.iter(|| verify(black_box(&signed), &trusted).is_ok())
            });
            match algorithm {
                "p256" => {
                    let key =
                        p256::ecdsa::VerifyingKey::from_sec1_bytes(&verifying.to_bytes()).unwrap();
                    c.bench_function(&format!("bare/{row}"), |b| {
                        b.iter(|| {
                            let signature =
                                p256::ecdsa::Signature::from_slice(black_box(&signature)).unwrap();
                            key.verify(black_box(&pae), &signature).is_ok()
                        })
                    });
                }
                _ => {
                    let bytes: [u8; 32] = verifying.to_bytes().try_into().unwrap();
                    let key = ed25519_dalek::VerifyingKey::from_bytes(&bytes).unwrap();
                    c.bench_function(&format!("bare/{row}"), |b| {
                        b.iter(|| {
                            let signature =
                                ed25519_dalek::Signature::from_slice(black_box(&signature))
                                    .unwrap();
                            key.verify_strict(black_box(&pae), &signature).is_ok()
                        })
                    });
                }
            }
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
