//! The verifier on hostile verification material (issue 42): the bytes as `dssematerial`
//! (Binary and Base64 text), and as the DSSE payload of an envelope validly signed by an
//! accepted key, so the material's JSON and `signedextattrs` are parsed past the signature.
//! Never panics; an event verifies only when its digest is the one signed.
#![no_main]

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use cloudevent_runtime::verify::{SigningKey, TrustedKeys, material, verify};
use cloudevent_runtime::{AnyEvent, Binary};
use ed25519_dalek::Signer as _;
use libfuzzer_sys::fuzz_target;

const PAYLOAD_TYPE: &str = "https://cloudevents.io/verifiability/dsse/v0.1";

/// A DSSE envelope over `body`, signed with the accepted key's secret.
fn signed(body: &[u8]) -> Vec<u8> {
    let mut pae = format!(
        "DSSEv1 {} {PAYLOAD_TYPE} {} ",
        PAYLOAD_TYPE.len(),
        body.len()
    )
    .into_bytes();
    pae.extend_from_slice(body);
    let sig = ed25519_dalek::SigningKey::from_bytes(&[7; 32]).sign(&pae);
    serde_json::to_vec(&serde_json::json!({
        "payloadType": PAYLOAD_TYPE,
        "payload": BASE64.encode(body),
        "signatures": [{"keyid": "k", "sig": BASE64.encode(sig.to_bytes())}],
    }))
    .unwrap()
}

fuzz_target!(|data: &[u8]| {
    let key = SigningKey::ed25519("k", &[7; 32]);
    let keys = TrustedKeys::new().with_key("k", key.verifying_key());
    let mut event = AnyEvent::new("1", "/s", "t");
    event.extensions_mut().insert("exta", "v");

    event
        .extensions_mut()
        .insert("dssematerial", Binary::from(data.to_vec()));
    let _ = verify(&event, &keys)
        .map(|v| v.event().clone())
        .map_err(|e| e.to_string());
    if let Ok(text) = std::str::from_utf8(data) {
        event.extensions_mut().insert("dssematerial", text);
        let _ = verify(&event, &keys).map_err(|e| e.to_string());
    }

    // The bytes as a signed payload: only the event's own digest may verify.
    let envelope = signed(data);
    event
        .extensions_mut()
        .insert("dssematerial", BASE64.encode(envelope));
    if let Ok(verified) = verify(&event, &keys) {
        let names = verified.material().signed_extensions();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(&material(&event, &names).unwrap(), verified.material());
    }
});
