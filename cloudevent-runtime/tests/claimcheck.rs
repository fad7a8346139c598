//! The claim-check pattern (INTG-STD-015 R-11) and `dataref` (NL GOV).

use cloudevent_runtime::Attributes;
use std::sync::Arc;

use cloudevent_runtime::claimcheck::{
    ClaimCheck, ClaimCheckError, ClaimCheckStore, ClaimChecker, Dataref, FsStore, InMemoryStore,
    StoreError,
};
use cloudevent_runtime::{AnyEvent, Binary, CloudEvent, Data, Event, UriRef, limits};

fn report(data: Data, content_type: Option<&str>) -> AnyEvent {
    let mut event = AnyEvent::new(
        "01J0A8X5Y6Z7",
        "https://reports.example.com",
        "com.example.report.generated",
    );
    event.set_datacontenttype(content_type.map(str::to_owned));
    event.set_dataschema(Some(
        "https://schemas.example.com/reports/v1.json".to_owned(),
    ));
    event.set_data(Some(data));
    event
}

fn big_json() -> Data {
    let rows: Vec<String> = (0..30_000).map(|i| format!("\"row-{i}\"")).collect();
    Data::json(format!("{{\"rows\":[{}]}}", rows.join(","))).unwrap()
}

#[test]
fn an_event_within_the_limit_is_left_alone() {
    let checker = ClaimChecker::new(InMemoryStore::new());
    let event = report(
        Data::json(r#"{"rows":[]}"#).unwrap(),
        Some("application/json"),
    );
    assert_eq!(checker.offload(event.clone()).unwrap(), event);
    assert!(checker.store().is_empty());
}

#[test]
fn a_large_json_event_carries_a_claim_check_and_comes_back_whole() {
    let checker = ClaimChecker::new(InMemoryStore::new());
    let event = report(big_json(), Some("application/json"));
    assert!(event.to_vec().len() > limits::MAX_EVENT_BYTES);

    let sent = checker.offload(event.clone()).unwrap();
    let wire = sent.to_vec();
    assert!(wire.len() <= limits::MAX_EVENT_BYTES);
    let json: serde_json::Value = serde_json::from_slice(&wire).unwrap();
    let uri = json["data"]["claimCheckUri"].as_str().unwrap();
    assert_eq!(json["data"]["claimCheckContentType"], "application/json");
    assert_eq!(json["datacontenttype"], "application/json");
    assert_eq!(json["dataref"], uri);
    // The attributes describing the occurrence stay.
    assert_eq!(
        json["dataschema"],
        "https://schemas.example.com/reports/v1.json"
    );
    assert_eq!(json["id"], "01J0A8X5Y6Z7");

    // The consumer parses the wire bytes and resolves through the same store.
    let received = AnyEvent::from_slice(&wire).unwrap();
    assert_eq!(checker.resolve(received).unwrap(), event);
}

#[test]
fn text_and_binary_payloads_keep_their_content_type() {
    let checker = ClaimChecker::new(InMemoryStore::new()).with_limit(1024);
    let text = report(Data::Text("a,b\n".repeat(1000)), Some("text/csv"));
    let binary = report(Data::Binary(vec![0xff; 4000]), Some("application/pdf"));
    let untyped = report(Data::Binary(vec![1; 4000]), None);
    for event in [text, binary] {
        let sent = checker.offload(event.clone()).unwrap();
        let claim = ClaimCheck::from_event(&sent).unwrap();
        assert_eq!(Some(claim.content_type.as_str()), event.datacontenttype());
        assert_eq!(checker.resolve(sent).unwrap(), event);
    }
    // Bytes without a content type are stored as application/octet-stream, and come back so.
    let sent = checker.offload(untyped.clone()).unwrap();
    assert_eq!(
        ClaimCheck::from_event(&sent).unwrap().content_type,
        "application/octet-stream"
    );
    let back = checker.resolve(sent).unwrap();
    assert_eq!(back.data(), untyped.data());
    assert_eq!(back.datacontenttype(), Some("application/octet-stream"));
}

#[test]
fn events_without_a_claim_check_pass_resolve_unchanged() {
    let checker = ClaimChecker::new(InMemoryStore::new());
    for data in [
        Data::json(r#"{"claimCheckUri":"memory:claimcheck/0"}"#).unwrap(),
        Data::json(r#"{"claimCheckUri":"memory:claimcheck/0","claimCheckContentType":"text/csv","extra":1}"#).unwrap(),
        Data::json(r#"[1,2]"#).unwrap(),
        Data::Text(r#"{"claimCheckUri":"memory:claimcheck/0","claimCheckContentType":"text/csv"}"#.into()),
    ] {
        let event = report(data, None);
        assert_eq!(checker.resolve(event.clone()).unwrap(), event);
    }
}

#[test]
fn a_claim_check_with_a_bad_uri_is_refused_naming_the_member() {
    let checker = ClaimChecker::new(InMemoryStore::new());
    let event = report(
        Data::json(r#"{"claimCheckUri":"not a uri","claimCheckContentType":"text/csv"}"#).unwrap(),
        Some("application/json"),
    );
    let err = checker.resolve(event).unwrap_err();
    let ClaimCheckError::Invalid(violation) = &err else {
        panic!("{err:?}");
    };
    assert_eq!(violation.attribute, "claimCheckUri");
    assert!(err.to_string().contains("not a uri"), "{err}");
}

#[test]
fn a_missing_payload_is_a_store_error() {
    let checker = ClaimChecker::new(InMemoryStore::new());
    let event = report(
        Data::json(
            r#"{"claimCheckUri":"memory:claimcheck/42","claimCheckContentType":"text/csv"}"#,
        )
        .unwrap(),
        Some("application/json"),
    );
    let err = checker.resolve(event).unwrap_err();
    assert!(matches!(err, ClaimCheckError::Store(_)), "{err:?}");
    assert!(err.to_string().contains("memory:claimcheck/42"), "{err}");
    assert!(err.to_string().contains("R-11"), "{err}");
}

#[test]
fn a_fetched_json_payload_that_is_not_json_is_refused() {
    let store = InMemoryStore::new();
    let uri = store.put(b"not json", "application/json").unwrap();
    let event = report(
        Data::json(format!(
            r#"{{"claimCheckUri":"{uri}","claimCheckContentType":"application/json"}}"#
        ))
        .unwrap(),
        Some("application/json"),
    );
    let err = ClaimChecker::new(&store).resolve(event).unwrap_err();
    assert!(matches!(err, ClaimCheckError::Payload(_)), "{err:?}");
}

#[test]
fn huge_attributes_cannot_be_claim_checked() {
    let checker = ClaimChecker::new(InMemoryStore::new()).with_limit(500);
    let mut event = report(Data::Text("x".repeat(600)), Some("text/plain"));
    event.set_subject(Some("s".repeat(600)));
    let err = checker.offload(event).unwrap_err();
    assert!(
        matches!(err, ClaimCheckError::StillTooLarge { limit: 500, .. }),
        "{err:?}"
    );
    // Without data there is nothing to move.
    let mut bare = AnyEvent::new("1", "/s", "com.example.report.generated");
    bare.set_subject(Some("s".repeat(600)));
    assert!(matches!(
        checker.offload(bare),
        Err(ClaimCheckError::StillTooLarge { .. })
    ));
}

#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.report.generated",
    source = "https://reports.example.com"
)]
struct ReportGenerated {
    #[cloudevent(subject)]
    report_id: String,
    rows: Vec<String>,
}

#[test]
fn a_typed_event_is_offloaded_and_resolved_back_to_its_type() {
    let checker = ClaimChecker::new(InMemoryStore::new());
    let event = Event::new(ReportGenerated {
        report_id: "r-1".into(),
        rows: (0..30_000).map(|i| format!("row-{i}")).collect(),
    });
    let sent = checker.offload(event.to_any().unwrap()).unwrap();
    assert!(ClaimCheck::from_event(&sent).is_some());
    assert!(sent.to_vec().len() <= limits::MAX_EVENT_BYTES);
    let back: Event<ReportGenerated> = checker
        .resolve(AnyEvent::from_slice(&sent.to_vec()).unwrap())
        .unwrap()
        .into_typed()
        .unwrap();
    assert_eq!(back.data(), event.data());
    assert_eq!(back.id(), event.id());
    assert_eq!(back.dataref().unwrap(), None);
}

#[test]
fn fs_store_round_trips_and_names_files_itself() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path().join("claims")).unwrap();
    let a = store.put(b"first", "text/plain").unwrap();
    let b = store.put(b"second", "text/plain").unwrap();
    assert_ne!(a, b);
    assert!(a.as_str().starts_with("file:///"), "{a}");
    assert_eq!(store.get(a.as_str()).unwrap(), b"first");
    assert_eq!(store.get(b.as_str()).unwrap(), b"second");
    let files: Vec<_> = std::fs::read_dir(dir.path().join("claims"))
        .unwrap()
        .collect();
    assert_eq!(files.len(), 2, "no partial files left behind");
}

#[test]
fn fs_store_refuses_uris_that_are_not_its_own() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("secret"), b"do not read").unwrap();
    let store = FsStore::new(dir.path().join("claims")).unwrap();
    let base = store.put(b"x", "text/plain").unwrap();
    let base = base.as_str().rsplit_once('/').unwrap().0.to_owned();
    for hostile in [
        "file:///etc/passwd".to_owned(),
        format!("{base}/../secret"),
        format!("{base}/%2e%2e/secret"),
        format!("{base}/..%2fsecret"),
        format!("{base}/"),
        format!("{base}/0123456789abcdef0123456789abcdef/../../secret"),
        format!("{base}/0123456789ABCDEF0123456789ABCDEF"),
        "https://evil.example.com/0123456789abcdef0123456789abcdef".to_owned(),
        format!("{base}/.0123456789abcdef0123456789abcdef.partial"),
    ] {
        let err = store.get(&hostile).unwrap_err();
        assert!(
            matches!(err, StoreError::ForeignUri { .. }),
            "{hostile}: {err:?}"
        );
    }
    // A well-formed name that was never stored.
    let err = store
        .get(&format!("{base}/0123456789abcdef0123456789abcdef"))
        .unwrap_err();
    assert!(matches!(err, StoreError::NotFound { .. }), "{err:?}");
}

/// Issue 27: a symbolic link planted under a well-formed object name is not followed.
#[cfg(unix)]
#[test]
fn fs_store_does_not_follow_a_planted_symlink() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("secret"), b"do not read").unwrap();
    let store = FsStore::new(dir.path().join("claims")).unwrap();
    let base = store.put(b"x", "text/plain").unwrap();
    let base = base.as_str().rsplit_once('/').unwrap().0.to_owned();
    let name = "0123456789abcdef0123456789abcdef";
    std::os::unix::fs::symlink(
        dir.path().join("secret"),
        dir.path().join("claims").join(name),
    )
    .unwrap();
    let err = store.get(&format!("{base}/{name}")).unwrap_err();
    assert!(matches!(err, StoreError::ForeignUri { .. }), "{err:?}");
    assert!(err.to_string().contains("symbolic link"), "{err}");
}

/// Issue 27: a FIFO planted under a well-formed object name is refused at once (opening it
/// for reading used to block until a writer came, that is forever).
#[cfg(unix)]
#[test]
fn fs_store_refuses_a_planted_fifo_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path().join("claims")).unwrap();
    let base = store.put(b"x", "text/plain").unwrap();
    let base = base.as_str().rsplit_once('/').unwrap().0.to_owned();
    let name = "0123456789abcdef0123456789abcdef";
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("claims").join(name))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let (sender, receiver) = std::sync::mpsc::channel();
    let uri = format!("{base}/{name}");
    std::thread::spawn(move || {
        let _ = sender.send(store.get(&uri).map(|bytes| bytes.len()));
    });
    let answer = receiver
        .recv_timeout(std::time::Duration::from_secs(5))
        .expect("get on a FIFO returns within 5 s");
    assert!(
        matches!(answer, Err(StoreError::ForeignUri { .. })),
        "{answer:?}"
    );
}

#[test]
fn fs_store_bounds_what_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path()).unwrap().with_max_bytes(10);
    let exact = store.put(&[1; 10], "application/octet-stream").unwrap();
    let over = store.put(&[1; 11], "application/octet-stream").unwrap();
    assert_eq!(store.get(exact.as_str()).unwrap().len(), 10);
    assert!(matches!(
        store.get(over.as_str()),
        Err(StoreError::TooLarge { limit: 10, .. })
    ));
}

#[test]
fn fs_store_percent_encodes_its_directory() {
    let dir = tempfile::tempdir().unwrap();
    let store = FsStore::new(dir.path().join("with space")).unwrap();
    let uri = store.put(b"x", "text/plain").unwrap();
    assert!(uri.as_str().contains("with%20space"), "{uri}");
    assert_eq!(store.get(uri.as_str()).unwrap(), b"x");
}

#[test]
fn producer_and_consumer_share_an_fs_store() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(FsStore::new(dir.path()).unwrap());
    let producer = ClaimChecker::new(Arc::clone(&store));
    let consumer = ClaimChecker::new(FsStore::new(dir.path()).unwrap());
    let event = report(big_json(), Some("application/json"));
    let wire = producer.offload(event.clone()).unwrap().to_vec();
    let back = consumer
        .resolve(AnyEvent::from_slice(&wire).unwrap())
        .unwrap();
    assert_eq!(back, event);
}

#[test]
fn dataref_is_a_uri_reference_on_both_event_kinds() {
    let uri = UriRef::try_from("https://blobs.example.com/reports/1").unwrap();
    let any = AnyEvent::new("1", "/reports", "com.example.report.generated")
        .with_dataref(uri.clone())
        .unwrap();
    assert_eq!(any.dataref().unwrap(), Some(uri.clone()));
    // Survives the JSON format, where it is a plain string.
    let parsed = AnyEvent::from_slice(&any.to_vec()).unwrap();
    assert_eq!(parsed.dataref().unwrap(), Some(uri.clone()));

    let typed = Event::new(ReportGenerated {
        report_id: "r-1".into(),
        rows: Vec::new(),
    });
    assert_eq!(typed.dataref().unwrap(), None);
    let typed = typed.with_dataref(uri.clone()).unwrap();
    assert_eq!(typed.dataref().unwrap(), Some(uri));
}

#[test]
fn a_received_dataref_that_is_not_a_uri_reference_is_an_error() {
    let mut event = AnyEvent::new("1", "/reports", "com.example.report.generated");
    event.extensions_mut().insert("dataref", "not a reference");
    let err = event.dataref().unwrap_err();
    assert_eq!(err.violations()[0].attribute, "dataref");
    event.extensions_mut().insert("dataref", 7);
    assert!(event.dataref().is_err());
    event
        .extensions_mut()
        .insert("dataref", Binary::from(*b"x"));
    assert!(event.dataref().is_err());
}
