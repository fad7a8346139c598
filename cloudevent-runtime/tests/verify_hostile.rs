//! The verifier on hostile verification material never panics (issue 42; the fuzz target
//! `verify` does the same with libFuzzer): arbitrary bytes as `dssematerial`, and arbitrary
//! JSON-ish payloads inside an envelope validly signed by an accepted key, so the material's
//! parsing (`core`, `ext`, `signedextattrs`) is reached past the signature check.
#![cfg(feature = "verify")]

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use cloudevent_runtime::verify::{SigningKey, TrustedKeys, VerifyError, material, verify};
use cloudevent_runtime::{AnyEvent, Binary};
use ed25519_dalek::Signer as _;
use proptest::prelude::*;

const PAYLOAD_TYPE: &str = "https://cloudevents.io/verifiability/dsse/v0.1";

fn keys() -> TrustedKeys {
    TrustedKeys::new().with_key("k", SigningKey::ed25519("k", &[7; 32]).verifying_key())
}

fn event() -> AnyEvent {
    let mut event = AnyEvent::new("1", "/s", "t");
    event.extensions_mut().insert("exta", "v");
    event
}

/// A DSSE envelope over `body`, signed by the accepted key.
fn signed(body: &[u8]) -> String {
    let mut pae = format!(
        "DSSEv1 {} {PAYLOAD_TYPE} {} ",
        PAYLOAD_TYPE.len(),
        body.len()
    )
    .into_bytes();
    pae.extend_from_slice(body);
    let sig = ed25519_dalek::SigningKey::from_bytes(&[7; 32]).sign(&pae);
    let envelope = serde_json::json!({
        "payloadType": PAYLOAD_TYPE,
        "payload": BASE64.encode(body),
        "signatures": [{"keyid": "k", "sig": BASE64.encode(sig.to_bytes())}],
    });
    BASE64.encode(serde_json::to_vec(&envelope).unwrap())
}

/// Material-like JSON: the members the extension names, with values of any shape.
fn material_json() -> impl Strategy<Value = String> {
    let digest = prop_oneof![
        Just(BASE64.encode([0u8; 32])),
        (0usize..40).prop_map(|n| BASE64.encode(vec![1u8; n])),
        "[A-Za-z0-9+/=]{0,48}",
    ];
    let names = prop::collection::vec(
        prop_oneof![
            Just("exta".to_owned()),
            Just("id".to_owned()),
            Just("dssematerial".to_owned()),
            "[a-z ]{0,6}"
        ],
        0..4,
    );
    (
        digest.clone(),
        prop::option::of(digest),
        prop::option::of(names),
        any::<bool>(),
    )
        .prop_map(|(core, ext, names, garbage)| {
            let mut out = format!(r#"{{"core":"{core}""#);
            if let Some(ext) = ext {
                out.push_str(&format!(r#","ext":"{ext}""#));
            }
            if let Some(names) = names {
                out.push_str(&format!(
                    r#","signedextattrs":{}"#,
                    serde_json::to_string(&names).unwrap()
                ));
            }
            out.push('}');
            if garbage {
                out.push('=');
            }
            out
        })
}

proptest! {
    #[test]
    fn arbitrary_material_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let mut event = event();
        event.extensions_mut().insert("dssematerial", Binary::from(bytes.clone()));
        let _ = verify(&event, &keys()).map_err(|e| e.to_string());
        event.extensions_mut().insert("dssematerial", String::from_utf8_lossy(&bytes).into_owned());
        let _ = verify(&event, &keys()).map_err(|e| e.to_string());
        event.extensions_mut().insert("dssematerial", signed(&bytes));
        prop_assert!(verify(&event, &keys()).is_err());
    }

    #[test]
    fn signed_material_of_any_shape_is_parsed_to_a_named_step(json in material_json()) {
        let mut event = event();
        event.extensions_mut().insert("dssematerial", signed(json.as_bytes()));
        match verify(&event, &keys()) {
            Ok(verified) => {
                let names: Vec<&str> = verified.material().signed_extensions().iter().map(String::as_str).collect();
                prop_assert_eq!(&material(&event, &names).unwrap(), verified.material());
            }
            Err(err) => {
                // The signature verified: every refusal is about the material or the digest.
                prop_assert!(!matches!(err, VerifyError::BadSignature { .. } | VerifyError::NoAcceptableKey { .. }), "{}", err);
                prop_assert!(!err.to_string().is_empty());
            }
        }
    }
}
