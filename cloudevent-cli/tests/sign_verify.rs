//! `cloudevent sign` and `cloudevent verify`, run as the binary. The keys under
//! `tests/data/verify/` are test keys only: `vectors-p256` is the P-256 key the
//! verifiability extension publishes with its test vectors (as PKCS#8 and SPKI PEM),
//! `ed25519` one made with `openssl genpkey -algorithm ed25519`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/verify")
        .join(name)
}

fn cloudevent(args: &[&str], file: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .args(args)
        .arg(file)
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Case 5 of the extension's vectors, the `dssematerial` it publishes.
const CASE_5: &str = "eyJwYXlsb2FkVHlwZSI6Imh0dHBzOi8vY2xvdWRldmVudHMuaW8vdmVyaWZpYWJpbGl0eS9kc3NlL3YwLjEiLCJwYXlsb2FkIjoiZXlKamIzSmxJam9pY1VOVFpXbGFhMU1yYUVnNVYybERiR1p4Tm5Cc1puRlpUbFo1TW10MmVGZFNabTlDY2t4RmVtOUVhejBpZlE9PSIsInNpZ25hdHVyZXMiOlt7ImtleWlkIjoidGVzdGtleSIsInNpZyI6IkYyaXAweG1nSlgzdWdIWkM2dE1ycjdBMkVxYWkwOHJhR3JUd2R5aC9PR0RJSXJGN0J5TTJ5SVRMS3FOckYzZHpaR1IybzBDczlmRUJGZEx4Uk9VeUVRPT0ifV19";

#[test]
fn sign_reproduces_the_vector_and_verify_accepts_it() {
    let key = data("vectors-p256.pem");
    let signed = cloudevent(
        &[
            "sign",
            "--key",
            key.to_str().unwrap(),
            "--key-id",
            "testkey",
        ],
        &data("case5.json"),
    );
    assert!(
        signed.status.success(),
        "{}",
        String::from_utf8_lossy(&signed.stderr)
    );
    let event: serde_json::Value = serde_json::from_slice(&signed.stdout).unwrap();
    assert_eq!(event["dssematerial"], CASE_5);

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("signed.json");
    std::fs::write(&file, &signed.stdout).unwrap();
    let public = data("vectors-p256.pub.pem");
    let verified = cloudevent(
        &[
            "verify",
            "--key",
            public.to_str().unwrap(),
            "--key-id",
            "testkey",
        ],
        &file,
    );
    assert_eq!(verified.status.code(), Some(0));
    assert_eq!(stdout(&verified), format!("ok {} 1\n", file.display()));

    // Another key id: no acceptable key (step 7.1), exit 1.
    let other = cloudevent(
        &[
            "verify",
            "--key",
            public.to_str().unwrap(),
            "--key-id",
            "other",
        ],
        &file,
    );
    assert_eq!(other.status.code(), Some(1));
    assert!(
        stdout(&other).contains("error CE verifiability: no signature"),
        "{}",
        stdout(&other)
    );
}

#[test]
fn ed25519_signs_extensions_and_a_change_is_the_finding() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("event.json");
    std::fs::write(
        &input,
        br#"{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created","region":"eu","data":{"n":1}}"#,
    )
    .unwrap();
    let key = data("ed25519.pem");
    let signed = cloudevent(
        &[
            "sign",
            "--key",
            key.to_str().unwrap(),
            "--key-id",
            "ed-1",
            "--extensions",
            "region",
        ],
        &input,
    );
    assert!(
        signed.status.success(),
        "{}",
        String::from_utf8_lossy(&signed.stderr)
    );
    let file = dir.path().join("signed.json");
    let public = data("ed25519.pub.pem");
    let verify = |bytes: &[u8]| {
        std::fs::write(&file, bytes).unwrap();
        cloudevent(
            &[
                "verify",
                "--key",
                public.to_str().unwrap(),
                "--key-id",
                "ed-1",
            ],
            &file,
        )
    };
    assert_eq!(verify(&signed.stdout).status.code(), Some(0));

    let changed = String::from_utf8(signed.stdout.clone())
        .unwrap()
        .replace(r#""region":"eu""#, r#""region":"us""#);
    let refused = verify(changed.as_bytes());
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stdout(&refused).contains("step 9.1"),
        "{}",
        stdout(&refused)
    );

    let not_an_event = verify(b"{}");
    assert_eq!(not_an_event.status.code(), Some(1));

    // A refused list: the signer refuses to produce material (exit 2).
    let refused = cloudevent(
        &[
            "sign",
            "--key",
            key.to_str().unwrap(),
            "--key-id",
            "ed-1",
            "--extensions",
            "region,id",
        ],
        &input,
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("MUST refuse"));
}

#[test]
fn protobuf_is_signed_and_verified_in_its_own_format() {
    let dir = tempfile::tempdir().unwrap();
    let key = data("vectors-p256.pem");
    let public = data("vectors-p256.pub.pem");
    let json = cloudevent(
        &[
            "sign",
            "--key",
            key.to_str().unwrap(),
            "--key-id",
            "testkey",
        ],
        &data("case5.json"),
    );
    // The JSON event, re-encoded as Protobuf by a relay, keeps verifying: same digest.
    let event = cloudevent_runtime::AnyEvent::from_slice(&json.stdout).unwrap();
    let wire = event.encode::<cloudevent_runtime::Protobuf>().unwrap();
    let file = dir.path().join("event.pb");
    std::fs::write(&file, wire).unwrap();
    let verified = cloudevent(
        &[
            "verify",
            "--format",
            "protobuf",
            "--key",
            public.to_str().unwrap(),
            "--key-id",
            "testkey",
        ],
        &file,
    );
    assert_eq!(verified.status.code(), Some(0), "{}", stdout(&verified));
    // A wrong key file is a usage error.
    let bad = cloudevent(
        &[
            "verify",
            "--key",
            key.to_str().unwrap(),
            "--key-id",
            "testkey",
        ],
        &file,
    );
    assert_eq!(bad.status.code(), Some(2));
}
