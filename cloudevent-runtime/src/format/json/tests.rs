use super::*;
use crate::format::RawData;

#[test]
fn strict_findings_stop_at_the_first_error_lenient_ones_collect() {
    let warning = Violation::warning(rule::INTG_R2, "time", "", "absent");
    let error = Violation::error(rule::INTG_R2, "id", "", "absent");
    let mut strict = Findings::strict();
    assert!(strict.report(warning.clone()).is_ok());
    assert!(strict.report(error.clone()).is_err());
    assert_eq!(strict.take_error(), Some(error.clone()));

    let mut lenient = Findings::lenient();
    assert!(lenient.report(error.clone()).is_ok());
    assert!(lenient.report(error).is_ok());
    assert_eq!(lenient.list.len(), 2);
}

#[test]
fn lenient_parse_reports_every_structural_problem() {
    let input = br#"{"id":"1","id":"2","x":1.5,"y":[1],"data":{},"data_base64":"??"}"#;
    let mut findings = Findings::lenient();
    let mut envelope = Envelope::default();
    parse_slice(
        input,
        &mut envelope,
        RawData::default(),
        None,
        &crate::AnyEvent::DEFAULT_POLICY,
        &mut findings,
    )
    .unwrap();
    let attributes: Vec<&str> = findings.list.iter().map(|v| &*v.attribute).collect();
    // The structural problems as they are read, then the envelope check's findings.
    assert_eq!(
        attributes,
        [
            "id",
            "x",
            "y",
            "data_base64",
            "specversion",
            "source",
            "type"
        ]
    );
    assert_eq!(
        envelope.id.as_deref(),
        Some("1"),
        "the first of duplicates is kept"
    );
}

#[test]
fn keys_and_values_borrow_from_the_input_when_unescaped() {
    let input = br#"{"specversion":"1.0","id":"a\"b","source":"/s","type":"t"}"#;
    let mut findings = Findings::strict();
    let mut envelope = Envelope::default();
    parse_slice(
        input,
        &mut envelope,
        RawData::default(),
        None,
        &crate::AnyEvent::DEFAULT_POLICY,
        &mut findings,
    )
    .unwrap();
    assert!(matches!(envelope.source, Some(Cow::Borrowed("/s"))));
    assert!(matches!(envelope.id, Some(Cow::Owned(ref id)) if id == "a\"b"));
}

#[test]
fn truncate_cuts_long_values_on_a_char_boundary() {
    assert_eq!(truncate("short"), "short");
    let long = "é".repeat(100);
    let cut = truncate(&long);
    assert!(cut.ends_with("...") && cut.len() <= 83, "{cut}");
}

#[test]
fn integers_outside_the_i32_range_are_refused_with_the_number_as_written() {
    // serde_json hands a negative number over as an i64 and any other as a u64: both
    // reach the rules crate's one Integer range check with their value intact.
    for (number, fits) in [
        ("2147483647", true),
        ("-2147483648", true),
        ("2147483648", false),
        ("-2147483649", false),
        ("18446744073709551615", false),
        ("-9223372036854775808", false),
    ] {
        let input =
            format!(r#"{{"specversion":"1.0","id":"1","source":"/s","type":"t","hops":{number}}}"#);
        let mut findings = Findings::lenient();
        let mut envelope = Envelope::default();
        parse_slice(
            input.as_bytes(),
            &mut envelope,
            RawData::default(),
            None,
            &crate::AnyEvent::DEFAULT_POLICY,
            &mut findings,
        )
        .unwrap();
        let refused: Vec<_> = findings
            .list
            .iter()
            .filter(|v| v.attribute == "hops")
            .collect();
        if fits {
            assert!(refused.is_empty(), "{number}: {refused:?}");
            let kept = envelope.extensions.get("hops").map(|v| v.as_value());
            let kept = kept.map(|v| crate::extension::canonical(v).into_owned());
            assert_eq!(kept.as_deref(), Some(number));
        } else {
            assert_eq!(refused.len(), 1, "{number}");
            assert_eq!(refused[0].rule, rule::CE_TYPE_SYSTEM);
            assert_eq!(refused[0].value, number);
            assert_eq!(envelope.extensions.get("hops"), None);
        }
    }
}

/// Issue 25: valid UTF-8 is read through serde_json's `str` reader, which skips the UTF-8
/// check of each string; every other input through its byte reader, as before. The oracle
/// is the byte reader alone (what `parse_slice` did before): both must give the same
/// envelope, data, findings and error, for the typed reader and the validator's.
#[cfg(feature = "derive")]
mod property {
    use super::*;
    use crate::format::typed::TypedData;
    use proptest::prelude::*;

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, crate::CloudEvent)]
    #[cloudevent(
        crate = "crate",
        type = "com.example.order.placed",
        source = "https://orders.example.com/checkout",
        dataschema = "https://schemas.example.com/orders/placed/v1.json"
    )]
    struct Placed {
        #[cloudevent(subject)]
        order_id: String,
        customer_id: String,
        quantity: i64,
        #[cloudevent(extension)]
        region: String,
    }

    /// An event both readers accept, with non-ASCII text and escapes in it.
    const EVENT: &str = r#"{"specversion":"1.0","id":"01JD4Z","source":"https://orders.example.com/checkout","type":"com.example.order.placed","time":"2026-11-27T02:00:00.000Z","subject":"order-8842","datacontenttype":"application/json","dataschema":"https://schemas.example.com/orders/placed/v1.json","region":"eu-west-1","correlationid":"wf-ünïcode","causationid":"01JD4Z","data":{"order_id":"order-8842","customer_id":"kündé \"7731\" \u00e9","quantity":3,"region":"eu-west-1"}}"#;

    /// What one reader made of `bytes`, rendered: the result and every finding.
    fn typed(bytes: &[u8], str_reader: bool) -> String {
        let mut findings = Findings::strict();
        let (slot, expected, policy) = (
            TypedData::<Placed>::default(),
            Some(Expected::of::<Placed>()),
            &crate::Event::<Placed>::POLICY,
        );
        let mut envelope = Envelope::default();
        let result = if str_reader {
            parse_slice(bytes, &mut envelope, slot, expected, policy, &mut findings)
        } else {
            let reader = serde_json::Deserializer::from_slice(bytes);
            read_all(
                reader,
                &mut envelope,
                slot,
                expected,
                policy,
                &mut findings,
                None,
            )
        };
        let result = result.map(|data| (envelope, data));
        format!("{result:?} {:?}", findings.list)
    }

    fn lenient(bytes: &[u8], str_reader: bool) -> String {
        let mut findings = Findings::lenient();
        let (slot, policy) = (RawData::default(), &crate::AnyEvent::DEFAULT_POLICY);
        let mut envelope = Envelope::default();
        let result = if str_reader {
            parse_slice(bytes, &mut envelope, slot, None, policy, &mut findings)
        } else {
            let reader = serde_json::Deserializer::from_slice(bytes);
            read_all(
                reader,
                &mut envelope,
                slot,
                None,
                policy,
                &mut findings,
                None,
            )
        };
        let result = result.map(|data| (envelope, data.map(|d| format!("{d:?}"))));
        format!("{result:?} {:?}", findings.list)
    }

    /// Bytes that matter to a JSON string reader: quotes, escapes, multi-byte UTF-8 lead and
    /// continuation bytes, bytes never valid in UTF-8, an encoded surrogate, control bytes.
    fn piece() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            prop::sample::select(vec![
                b"\"".to_vec(),
                b"\\".to_vec(),
                b"\\u".to_vec(),
                b"\\ud800".to_vec(),
                b"\\ud83d\\ude00".to_vec(),
                "é".as_bytes().to_vec(),
                "😀".as_bytes().to_vec(),
                vec![0xC3],
                vec![0xA9],
                vec![0x80],
                vec![0xFF],
                vec![0xED, 0xA0, 0x80],
                vec![0x01],
                b"\n".to_vec(),
                b",".to_vec(),
                b"{".to_vec(),
                b"}".to_vec(),
                b":".to_vec(),
            ]),
            prop::collection::vec(any::<u8>(), 1..4),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 2000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn str_and_slice_readers_give_one_verdict(
            edits in prop::collection::vec(
                (any::<prop::sample::Index>(), piece(), any::<bool>()),
                0..4,
            ),
        ) {
            let mut bytes = EVENT.as_bytes().to_vec();
            for (at, piece, replace) in edits {
                let at = at.index(bytes.len());
                if replace {
                    let end = (at + piece.len()).min(bytes.len());
                    bytes.splice(at..end, piece);
                } else {
                    bytes.splice(at..at, piece);
                }
            }
            prop_assert_eq!(typed(&bytes, true), typed(&bytes, false));
            prop_assert_eq!(lenient(&bytes, true), lenient(&bytes, false));
        }
    }

    #[test]
    fn the_unchanged_event_is_read_by_both() {
        assert!(typed(EVENT.as_bytes(), true).starts_with("Ok("));
        assert_eq!(
            typed(EVENT.as_bytes(), true),
            typed(EVENT.as_bytes(), false)
        );
        assert_eq!(
            lenient(EVENT.as_bytes(), true),
            lenient(EVENT.as_bytes(), false)
        );
        // Invalid UTF-8 inside a member value: the byte reader's error, at the same place.
        let mut bad = EVENT.as_bytes().to_vec();
        let at = bad.iter().position(|&b| b == 0xC3).unwrap();
        bad[at] = 0xFF;
        assert!(
            typed(&bad, true).contains("invalid unicode code point"),
            "{}",
            typed(&bad, true)
        );
        assert_eq!(typed(&bad, true), typed(&bad, false));
    }
}
