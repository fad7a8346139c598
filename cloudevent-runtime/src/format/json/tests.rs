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
                b"\\/".to_vec(),
                b"\\u00E9".to_vec(),
                b"\\u+0e9".to_vec(),
                b"\\n".to_vec(),
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
            // The direct reading's events and errors are the serde_json reader's.
            let (read, reference) = from_slice_and_reference(&bytes);
            prop_assert_eq!(read, reference);
        }
    }

    /// What the direct reader (`fast`) made of `bytes`, rendered as [`reference`] renders
    /// serde_json's reading; `None` where it gave up.
    fn direct(bytes: &[u8]) -> Option<String> {
        let text = std::str::from_utf8(bytes).ok()?;
        let mut findings = Findings::strict();
        let mut envelope = Envelope::default();
        let mut held = Held::new(<Placed as crate::CloudEventData>::EXTENSIONS);
        let data = super::super::fast::read(
            text,
            &mut envelope,
            TypedData::<Placed>::default(),
            Some(Expected::of::<Placed>()),
            &crate::Event::<Placed>::POLICY,
            &mut findings,
            Some(&mut held),
        )
        .ok()?;
        Some(format!(
            "Ok({:?}) {:?} {:?}",
            (envelope, data),
            held.as_slice(),
            findings.list
        ))
    }

    /// How the direct reader ended on `bytes`: `None` when it read the event.
    fn direct_end(bytes: &[u8]) -> Option<super::super::fast::Bail> {
        let text = std::str::from_utf8(bytes).ok()?;
        let mut held = Held::new(<Placed as crate::CloudEventData>::EXTENSIONS);
        super::super::fast::read(
            text,
            &mut Envelope::default(),
            TypedData::<Placed>::default(),
            Some(Expected::of::<Placed>()),
            &crate::Event::<Placed>::POLICY,
            &mut Findings::strict(),
            Some(&mut held),
        )
        .err()
    }

    /// serde_json's reading of `bytes` by the typed reader, the extensions held aside.
    fn reference(bytes: &[u8]) -> String {
        let mut findings = Findings::strict();
        let mut envelope = Envelope::default();
        let mut held = Held::new(<Placed as crate::CloudEventData>::EXTENSIONS);
        let result = parse_slice_in_batch(
            bytes,
            &mut envelope,
            TypedData::<Placed>::default(),
            Some(Expected::of::<Placed>()),
            &crate::Event::<Placed>::POLICY,
            &mut findings,
            None,
            Some(&mut held),
        );
        match result {
            Ok(data) => format!(
                "Ok({:?}) {:?} {:?}",
                (envelope, data),
                held.as_slice(),
                findings.list
            ),
            Err(error) => format!("Err({error}) {:?}", findings.list),
        }
    }

    /// `Event::from_slice` (the direct reading first) and the serde_json reader alone, each
    /// result rendered whole: the event, or the error with its finding.
    fn from_slice_and_reference(bytes: &[u8]) -> (String, String) {
        (
            format!("{:?}", crate::Event::<Placed>::from_slice(bytes)),
            format!(
                "{:?}",
                crate::format::json_format::read_typed_through_serde_json::<Placed>(bytes)
            ),
        )
    }

    /// What JSON allows between tokens (the edits below add bytes it does not).
    fn gap() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec!["", "", "", " ", "\n", "\t\r", "  \n "])
    }

    /// The members of a valid event in some order, with whitespace, escaped and non-ASCII
    /// strings, extensions of every JSON type and `data` anywhere.
    fn member_list() -> impl Strategy<Value = Vec<String>> {
        // Each member as written plainly, and as a writer that escapes writes it: every `/`
        // escaped (PHP's `json_encode`), letters as `\u` escapes of either case, a key escaped.
        let members: Vec<(&str, &str)> = vec![
            (r#""specversion":"1.0""#, r#""specversion":"1\u002E0""#),
            (r#""id":"01JD4Z""#, r#""\u0069d":"01JD\u0034Z""#),
            (
                r#""source":"https://orders.example.com/checkout""#,
                r#""source":"https:\/\/orders.example.com\/checkout""#,
            ),
            (
                r#""type":"com.example.order.placed""#,
                r#""t\u0079pe":"com.ex\u0061mple.order.placed""#,
            ),
            (
                r#""time":"2026-11-27T02:00:00.000Z""#,
                r#""time":"2026-11-27T02:00:00.000\u005a""#,
            ),
            (
                r#""subject":"order-8842""#,
                r#""subject":"order-88\u00342""#,
            ),
            (
                r#""datacontenttype":"application/json""#,
                r#""datacontenttype":"application\/json""#,
            ),
            (
                r#""dataschema":"https://schemas.example.com/orders/placed/v1.json""#,
                r#""dataschema":"https:\/\/schemas.example.com\/orders\/placed\/v1.json""#,
            ),
            (r#""region":"eu-west-1""#, r#""region":"eu\u002Dwest-1""#),
            (
                r#""data":{"order_id":"order-8842","customer_id":"c \"7\" é","quantity":3,"region":"eu-west-1"}"#,
                r#""d\u0061ta":{"order_id":"order-8842","customer_id":"c \/7","quantity":3,"region":"eu-west-1"}"#,
            ),
        ];
        let spellings = prop::collection::vec(any::<bool>(), members.len());
        let extras = prop::sample::subsequence(
            vec![
                r#""correlationid":"wf-ünïcode""#,
                r#""causationid":"01JD\u0034Z""#,
                r#""attempt":42"#,
                r#""flag":true"#,
                r#""gone":null"#,
                r#""big":1.5"#,
                r#""tree":{"a":[1,{"b":"}"}]}"#,
                r#""sp\u0061ce":"x""#,
                r#""region":"eu-west-1""#,
                r#""time":null"#,
                // Every escape JSON has, and ones it does not: read alike or refused alike.
                r#""note":"a\/b \"q\" \\ \b\f\n\r\t \u00e9\u00C9 \u20AC \u0000""#,
                r#""emoji":"\ud83d\ude00""#,
                r#""lone":"\udc00 \ud800""#,
                r#""\ud83d\ude00":"a key that pairs surrogates""#,
                r#""sign":"\u+0e9""#,
                r#""short":"\u0e""#,
                r#""other":"\x41""#,
                r#""ctl\u0001":"a key with a control character""#,
            ],
            0..4,
        );
        (Just(members), spellings, extras).prop_flat_map(|(members, spellings, extras)| {
            let mut members: Vec<String> = members
                .iter()
                .zip(spellings)
                .map(|(&(plain, escaped), escape)| if escape { escaped } else { plain }.to_owned())
                .collect();
            members.extend(extras.into_iter().map(str::to_owned));
            Just(members).prop_shuffle()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 3000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// Wherever the direct reader reads an event (the members in any order, whitespace
        /// anywhere between tokens, values of every JSON type), serde_json's reader reads
        /// the same event with the same findings and holds the same extensions aside.
        #[test]
        fn the_direct_reader_reads_what_serde_json_reads(
            members in member_list(),
            gaps in prop::collection::vec(gap(), 64),
            edits in prop::collection::vec(
                (any::<prop::sample::Index>(), piece(), any::<bool>()),
                0..2,
            ),
        ) {
            // Whitespace around every token of the object's own structure.
            let mut gaps = gaps.into_iter().cycle();
            let mut gap = || gaps.next().unwrap_or(" ");
            let mut text = format!("{}{{", gap());
            for (i, member) in members.iter().enumerate() {
                if i > 0 {
                    text.push_str(gap());
                    text.push(',');
                }
                let (name, value) = member.split_once(':').unwrap_or((member, ""));
                text.push_str(&format!("{}{name}{}:{}{value}", gap(), gap(), gap()));
            }
            text.push_str(&format!("{}}}{}", gap(), gap()));
            let mut bytes = text.into_bytes();
            for (at, piece, replace) in edits {
                let at = at.index(bytes.len());
                if replace {
                    let end = (at + piece.len()).min(bytes.len());
                    bytes.splice(at..end, piece);
                } else {
                    bytes.splice(at..at, piece);
                }
            }
            if let Some(direct) = direct(&bytes) {
                prop_assert_eq!(direct, reference(&bytes), "{}", String::from_utf8_lossy(&bytes));
            }
            let (read, reference) = from_slice_and_reference(&bytes);
            prop_assert_eq!(read, reference, "{}", String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn escaped_strings_are_read_directly_as_serde_json_decodes_them() {
        use super::super::fast::Bail;
        // As PHP's `json_encode` writes it (every `/` escaped), with escaped keys, every
        // escape JSON has and `\u` in either case: read directly, the event serde_json reads.
        let escaped = r#"{"specversion":"1.0","\u0069d":"01JD4Z","source":"https:\/\/orders.example.com\/checkout","t\u0079pe":"com.example.order.placed","datacontenttype":"application\/json","dataschema":"https:\/\/schemas.example.com\/orders\/placed\/v1.json","region":"eu-west-1","note":"a\/b \"q\" \\ \u00e9\u00C9 \u20ac \ud83d\ude00 \uD83D\uDE00","d\u0061ta":{"order_id":"o-1","customer_id":"c","quantity":3,"region":"eu-west-1"}}"#;
        let read = direct(escaped.as_bytes())
            .unwrap_or_else(|| panic!("read directly: {}", reference(escaped.as_bytes())));
        assert_eq!(read, reference(escaped.as_bytes()));
        assert!(
            read.contains("https://orders.example.com/checkout"),
            "{read}"
        );
        assert!(read.contains(r#"a/b \"q\" \\ éÉ € 😀 😀"#), "{read}");
        // A control character decoded into a String is the finding serde_json's reader
        // stops at (CE 1.0.2 type system), each escape of one.
        for control in [r"\b", r"\f", r"\n", r"\r", r"\t", r"\u0000", r"\u001F"] {
            let text = escaped.replace(r"\\ ", control);
            assert_eq!(direct_end(text.as_bytes()), Some(Bail::Stopped), "{text}");
            let (read, serde_json_read) = from_slice_and_reference(text.as_bytes());
            assert!(read.starts_with("Err("), "{read}");
            assert_eq!(read, serde_json_read);
        }
        // An escaped `data` key is `data`: a string there is read by serde_json (kept as its
        // text, then refused as a `Placed`: the finding serde_json's reader stops at).
        let data_string = r#"{"specversion":"1.0","\u0069d":"1","source":"https:\/\/orders.example.com\/checkout","t\u0079pe":"com.example.order.placed","region":"eu-west-1","d\u0061ta":"o-1"}"#;
        assert_eq!(
            direct_end(data_string.as_bytes()),
            Some(Bail::Stopped),
            "{data_string}"
        );
        let (read, serde_json_read) = from_slice_and_reference(data_string.as_bytes());
        assert!(read.starts_with("Err("), "{read}");
        assert_eq!(read, serde_json_read);
        // A lone surrogate, a pair in the wrong order, and escapes JSON does not have:
        // serde_json's verdict.
        for value in [
            r#"\ud800"#,
            r#"\udc00"#,
            r#"\ud800 "#,
            r#"\ud800\n"#,
            r#"\ud800\u0041"#,
            r#"\ude00\ud83d"#,
            r#"\ud83d\ude0"#,
            r#"\u+0e9"#,
            r#"\u0e"#,
            r#"\x41"#,
            r#"\U00e9"#,
        ] {
            let text = escaped.replace("a\\/b", value);
            assert_eq!(direct_end(text.as_bytes()), Some(Bail::Reader), "{text}");
            let (read, serde_json_read) = from_slice_and_reference(text.as_bytes());
            assert_eq!(read, serde_json_read, "{text}");
        }
    }

    /// A payload read from a JSON string, refusing some through `TryFrom` (serde's `custom`
    /// error, raised by the payload's own `Deserialize`, not by the event's visitor).
    #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, crate::CloudEvent)]
    #[cloudevent(
        crate = "crate",
        type = "com.example.code.issued",
        source = "https://codes.example.com"
    )]
    #[serde(try_from = "String", into = "String")]
    struct Code {
        text: String,
    }

    impl TryFrom<String> for Code {
        type Error = &'static str;
        fn try_from(text: String) -> Result<Self, Self::Error> {
            if text.starts_with('C') {
                Ok(Code { text })
            } else {
                Err("a code starts with C")
            }
        }
    }

    impl From<Code> for String {
        fn from(code: Code) -> String {
            code.text
        }
    }

    #[test]
    fn a_payloads_own_refusal_is_the_serde_json_readers_error() {
        for (text, accepted) in [("C-1", true), ("X-1", false)] {
            let event = format!(
                r#"{{"specversion":"1.0","id":"1","source":"https://codes.example.com","type":"com.example.code.issued","datacontenttype":"application/json","data":"{text}"}}"#
            );
            let read = crate::Event::<Code>::from_slice(event.as_bytes());
            assert_eq!(read.is_ok(), accepted, "{read:?}");
            let reference =
                crate::format::json_format::read_typed_through_serde_json::<Code>(event.as_bytes());
            assert_eq!(format!("{read:?}"), format!("{reference:?}"));
            if !accepted {
                assert!(
                    format!("{read:?}").contains("a code starts with C"),
                    "{read:?}"
                );
            }
        }
    }

    #[test]
    fn the_direct_reader_reads_the_usual_event_and_leaves_the_rest() {
        // Escapes and non-ASCII text in values, `data` last: read directly.
        let read = direct(EVENT.as_bytes()).expect("read directly");
        assert!(read.starts_with("Ok("), "{read}");
        assert_eq!(read, reference(EVENT.as_bytes()));
        // `data` first, whitespace, an integer extension: still read directly.
        let reordered = r#" { "data" : {"order_id":"order-8842","customer_id":"c","quantity":3,"region":"eu-west-1"} ,
            "specversion":"1.0","id":"01JD4Z","source":"https://orders.example.com/checkout",
            "type":"com.example.order.placed","region":"eu-west-1","attempt":7} "#;
        let read = direct(reordered.as_bytes())
            .unwrap_or_else(|| panic!("read directly: {}", reference(reordered.as_bytes())));
        assert_eq!(read, reference(reordered.as_bytes()));
        // `data` last and long, nested 60 deep inside (its depth counted, under the margin):
        // read directly; 101 deep: left to serde_json, which reads it (inside its limit).
        for (depth, directly) in [(60, true), (101, false)] {
            let deep = format!(
                r#"{{"specversion":"1.0","id":"01JD4Z","source":"https://orders.example.com/checkout","type":"com.example.order.placed","region":"eu-west-1","data":{{"order_id":"o-1","customer_id":"c","quantity":3,"region":"eu-west-1","deep":{}1{}}}}}"#,
                "[".repeat(depth),
                "]".repeat(depth)
            );
            assert_eq!(direct(deep.as_bytes()).is_some(), directly, "{depth}");
            assert!(reference(deep.as_bytes()).starts_with("Ok("), "{depth}");
            if let Some(read) = direct(deep.as_bytes()) {
                assert_eq!(read, reference(deep.as_bytes()));
            }
        }
        // Refused: stopped by the finding the serde_json reader stops at (the same error),
        // or left to it where a value's own deserializer refused.
        use super::super::fast::Bail;
        let head = r#"{"specversion":"1.0","source":"https://orders.example.com/checkout","type":"com.example.order.placed","#;
        let data =
            r#""data":{"order_id":"o-1","customer_id":"c","quantity":3,"region":"eu-west-1"}"#;
        for (members, end) in [
            (format!(r#""id":"a\u0001b","region":"eu-west-1",{data}}}"#), Some(Bail::Stopped)),
            (format!(r#""id":"1","region":"eu-west-1","time":"x2026",{data}}}"#), Some(Bail::Stopped)),
            (format!(r#""id":"1","id":"2",{data}}}"#), Some(Bail::Stopped)),
            (format!(r#""id":"","region":"eu-west-1",{data}}}"#), Some(Bail::Stopped)),
            // `data` before `datacontenttype` is known is kept as text and read at the end
            // (a finding); after it, read in place by the payload's `Deserialize`.
            (r#""id":"1","region":"eu-west-1","data":"not an object"}"#.to_owned(), Some(Bail::Stopped)),
            (r#""id":"1","region":"eu-west-1","data":{"order_id":7}}"#.to_owned(), Some(Bail::Stopped)),
            (r#""id":"1","region":"eu-west-1","datacontenttype":"application/json","data":"not an object"}"#.to_owned(), Some(Bail::Reader)),
            (r#""id":"1","region":"eu-west-1","datacontenttype":"application/json","data":{"order_id":7}}"#.to_owned(), Some(Bail::Reader)),
            // Read, then refused by the event's assembly (the payload's `region` is not the
            // envelope's): the same error.
            (r#""id":"1","region":"eu-west-1","data":{"order_id":"o","customer_id":"c","quantity":3,"region":"eu-west-2"}}"#.to_owned(), None),
        ] {
            let text = format!("{head}{members}");
            assert_eq!(direct_end(text.as_bytes()), end, "{text}");
            let (read, serde_json_read) = from_slice_and_reference(text.as_bytes());
            assert!(read.starts_with("Err("), "{text}: {read}");
            assert_eq!(read, serde_json_read, "{text}");
        }
        let foreign =
            format!(r#"{{"specversion":"1.0","id":"1","type":"com.example.other",{data}}}"#);
        assert_eq!(direct_end(foreign.as_bytes()), Some(Bail::Stopped));
        let (read, serde_json_read) = from_slice_and_reference(foreign.as_bytes());
        assert_eq!(read, serde_json_read);
        // Left to serde_json: a refusal, malformed text, text after the
        // object, data nested deeper than the margin kept under serde_json's limit.
        let deep = format!(
            r#"{{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.placed","x":{}1{}}}"#,
            "[".repeat(101),
            "]".repeat(101)
        );
        for text in [
            r#"{"specversion":"1.0","id":"1"}"#,
            r#"{"specversion":"1.0","id":"1","id":"2"}"#,
            r#"{"specversion":"1.0","id":"1","data":{"order_id":"o"},"x":{"b":2}}"#,
            r#"{"specversion":"1.0","id":"1","data":{"order_id":"o"}]}"#,
            r#"{"specversion":"1.0","id":"1",}"#,
            r#"{"specversion":"1.0"} x"#,
            r#"{"specversion":"1.0","id":"1""#,
            deep.as_str(),
        ] {
            assert_eq!(direct(text.as_bytes()), None, "{text}");
            assert!(reference(text.as_bytes()).starts_with("Err("), "{text}");
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

    /// The typed reader as it was before it held its payload's extensions aside (issue 40,
    /// `Held`) and before it skipped the String rule for the payload's Strings that the
    /// envelope carries with the same text: every extension kept in the map, every payload
    /// String checked in the slot's finish, the event assembled from the map alone.
    struct EveryString(TypedData<Placed, false>);

    impl<'de> DataSlot<'de> for EveryString {
        type Data = Placed;

        fn data<A: MapAccess<'de>>(
            &mut self,
            map: &mut A,
            content_type: ContentType<'_>,
            findings: &mut Findings,
        ) -> Result<(), A::Error> {
            self.0.data(map, content_type, findings)
        }

        fn data_base64(&mut self, bytes: Vec<u8>, findings: &mut Findings) -> Result<(), Stop> {
            self.0.data_base64(bytes, findings)
        }

        fn finish(
            self,
            envelope: &Envelope<'_>,
            held: &[(&str, &str)],
            findings: &mut Findings,
        ) -> Result<Placed, Stop> {
            let value = self.0.finish(envelope, held, findings)?;
            if let Some(violation) = crate::event::payload_string_violation(&value) {
                findings.report(violation)?;
            }
            Ok(value)
        }
    }

    /// [`crate::Event::from_slice`] as it read before: the oracle.
    fn from_slice_before(bytes: &[u8]) -> Result<crate::Event<Placed>, crate::FormatError> {
        let mut findings = Findings::strict();
        let mut envelope = Envelope::default();
        match parse_slice(
            bytes,
            &mut envelope,
            EveryString(TypedData::holding(None)),
            Some(Expected::of::<Placed>()),
            &crate::Event::<Placed>::POLICY,
            &mut findings,
        ) {
            Ok(data) => {
                crate::Event::from_envelope(envelope, data).map_err(crate::FormatError::Invalid)
            }
            Err(error) => Err(crate::event::with_data_pointer::<Placed>(
                bytes,
                into_format_error(error, &mut findings),
            )),
        }
    }

    /// `Event<T>`'s `Deserialize` as it read before: the oracle.
    fn deserialize_before(bytes: &[u8]) -> Result<crate::Event<Placed>, serde_json::Error> {
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        let mut findings = Findings::strict();
        let mut envelope = Envelope::default();
        let data = EventSeed {
            envelope: &mut envelope,
            findings: &mut findings,
            policy: &crate::Event::<Placed>::POLICY,
            slot: EveryString(TypedData::holding(None)),
            expected_type: Some(Expected::of::<Placed>()),
            memo: None,
            held: None,
        }
        .deserialize(&mut deserializer)?;
        let event = crate::Event::from_envelope(envelope, data).map_err(de::Error::custom)?;
        deserializer.end()?;
        Ok(event)
    }

    /// A JSON string member's value as written: plain, escaped (serde_json then hands an
    /// owned string over, which is never held), with a control character, or not a string.
    fn value() -> impl Strategy<Value = Option<&'static str>> {
        prop::sample::select(vec![
            None,
            Some(r#""eu-west-1""#),
            Some(r#""eu-west-2""#),
            Some(r#""eu-\u0077est-1""#),
            Some(r#""eu\u0007""#),
            Some(r#""""#),
            Some("null"),
            Some("5"),
            Some("true"),
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 3000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// Holding the payload's extensions aside and skipping the String rule for what the
        /// envelope carries give the verdict and the event of the reader that did neither:
        /// the payload's `region` and `order_id` against the envelope's `region` (given once,
        /// twice, as `null`, escaped, of another JSON type) and `subject`, with other
        /// extensions around it, members in several orders, trailing text.
        #[test]
        fn held_extensions_give_the_verdict_of_the_map(
            region in value(),
            again in value(),
            subject in value(),
            payload_region in prop::sample::select(vec!["eu-west-1", "eu-west-2", "eu\u{7}", ""]),
            order_id in prop::sample::select(vec!["order-8842", "o\u{1}", ""]),
            others in prop::sample::select(vec![
                "",
                r#""correlationid":"wf-1","causationid":"01JD4Z","#,
                r#""aaa":"x","zzz":"y","#,
                r#""regio":"x","regionx":"y","#,
            ]),
            order in 0_usize..3,
            trailing in prop::sample::select(vec!["", " ", " x"]),
        ) {
            let data = serde_json::json!({
                "order_id": order_id,
                "customer_id": "c-1",
                "quantity": 3,
                "region": payload_region,
            });
            let head = r#""specversion":"1.0","id":"01JD4Z","source":"https://orders.example.com/checkout","type":"com.example.order.placed","dataschema":"https://schemas.example.com/orders/placed/v1.json","#;
            let member = |name: &str, value: Option<&str>| {
                value.map_or_else(String::new, |v| format!(r#""{name}":{v},"#))
            };
            let (region, again, subject) =
                (member("region", region), member("region", again), member("subject", subject));
            let data = format!(r#""data":{data},"#);
            let body = match order {
                0 => format!("{head}{region}{others}{subject}{again}{data}"),
                1 => format!("{data}{others}{again}{head}{subject}{region}"),
                _ => format!("{region}{head}{data}{subject}{others}{again}"),
            };
            let json = format!("{{{}}}{trailing}", body.trim_end_matches(','));
            let bytes = json.as_bytes();
            prop_assert_eq!(
                format!("{:?}", crate::Event::<Placed>::from_slice(bytes)),
                format!("{:?}", from_slice_before(bytes)),
                "{}", json
            );
            prop_assert_eq!(
                format!("{:?}", serde_json::from_slice::<crate::Event<Placed>>(bytes)),
                format!("{:?}", deserialize_before(bytes)),
                "{}", json
            );
        }
    }

    /// The cases the property test must reach, each read as before: the payload's own
    /// `region` held and dropped, one that disagrees refused, one the payload does not
    /// write kept, a control character in the payload's subject refused.
    #[test]
    fn held_extensions_cover_the_usual_and_the_refused() {
        let event = |region: &str, subject: &str, payload_region: &str, order_id: &str| {
            let data = serde_json::json!({
                "order_id": order_id,
                "customer_id": "c",
                "quantity": 1,
                "region": payload_region,
            });
            format!(
                r#"{{"specversion":"1.0","id":"1","source":"https://orders.example.com/checkout","type":"com.example.order.placed","dataschema":"https://schemas.example.com/orders/placed/v1.json",{region}{subject}"data":{data}}}"#
            )
        };
        let same = event(r#""region":"eu","#, r#""subject":"o-1","#, "eu", "o-1");
        let read = crate::Event::<Placed>::from_slice(same.as_bytes()).unwrap();
        assert!(read.extensions().is_empty(), "{read:?}");
        assert_eq!(
            format!("{read:?}"),
            format!("{:?}", from_slice_before(same.as_bytes()).unwrap())
        );
        for json in [
            event(r#""region":"us","#, "", "eu", "o-1"),
            event("", r#""subject":"o-1","#, "eu", "o\u{1}"),
            event(r#""region":"eu","#, "", "eu", "o\u{1}"),
            event(
                r#""region":"e\u0075","#,
                r#""subject":"o-1","#,
                "e\u{7}",
                "o-1",
            ),
        ] {
            let got = crate::Event::<Placed>::from_slice(json.as_bytes());
            assert!(got.is_err(), "{json}: {got:?}");
            assert_eq!(
                format!("{got:?}"),
                format!("{:?}", from_slice_before(json.as_bytes())),
                "{json}"
            );
        }
    }

    /// What the slot tells the event's assembly (`Envelope::payload_writes_held`): which held
    /// extensions the payload wrote, only when every extension it writes is a held String of
    /// the same text; a payload extension of another type, or one not held, leaves the
    /// assembly its own walk.
    #[test]
    fn the_slot_tells_the_held_ones_written_only_when_it_saw_them_all() {
        #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, crate::CloudEvent)]
        #[cloudevent(
            crate = "crate",
            type = "com.example.order.ranked",
            source = "https://orders.example.com/checkout"
        )]
        struct Ranked {
            #[cloudevent(extension)]
            region: String,
            #[cloudevent(extension)]
            zone: String,
            #[cloudevent(extension)]
            priority: Option<i32>,
        }
        let ranked = |priority| Ranked {
            region: "eu".into(),
            zone: "a".into(),
            priority,
        };
        let held = [("region", "eu"), ("zone", "a")];
        let map = crate::Extensions::default();
        let written = crate::event::payload_strings_in_envelope;
        assert_eq!(written(&ranked(None), None, &map, &held), Some(Some(0b11)));
        assert_eq!(written(&ranked(Some(5)), None, &map, &held), Some(None));
        assert_eq!(written(&ranked(None), None, &map, &held[..1]), None);
        let mut kept = crate::Extensions::default();
        kept.insert("zone", "a");
        assert_eq!(written(&ranked(None), None, &kept, &held[..1]), Some(None));
        assert_eq!(
            written(
                &ranked(None),
                None,
                &map,
                &[("region", "eu"), ("zone", "b")]
            ),
            None
        );
        // And the events read are the ones the map alone makes.
        for json in [
            r#"{"specversion":"1.0","id":"1","source":"https://orders.example.com/checkout","type":"com.example.order.ranked","region":"eu","zone":"a","data":{"region":"eu","zone":"a","priority":null}}"#,
            r#"{"specversion":"1.0","id":"1","source":"https://orders.example.com/checkout","type":"com.example.order.ranked","region":"eu","zone":"a","priority":5,"data":{"region":"eu","zone":"a","priority":5}}"#,
            r#"{"specversion":"1.0","id":"1","source":"https://orders.example.com/checkout","type":"com.example.order.ranked","region":"eu","zone":"a","priority":6,"data":{"region":"eu","zone":"a","priority":5}}"#,
            r#"{"specversion":"1.0","id":"1","source":"https://orders.example.com/checkout","type":"com.example.order.ranked","zone":"a","priority":"5","data":{"region":"eu","zone":"a","priority":5}}"#,
        ] {
            let event = crate::Event::<Ranked>::from_slice(json.as_bytes());
            let any = crate::AnyEvent::from_slice(json.as_bytes())
                .map_err(|e| e.to_string())
                .and_then(|any| any.into_typed::<Ranked>().map_err(|e| e.to_string()));
            assert_eq!(event.map_err(|e| e.to_string()), any, "{json}");
        }
    }
}
