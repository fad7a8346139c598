//! Issue 24: the messages a person reads, snapshot at each door. One form everywhere: where
//! (the attribute, its value in backticks when there is one, the part), what, the rule id
//! once, the fix. The library's report (`ValidationReport`'s `Display`), a binding's error,
//! the axum rejection (its JSON body's `message` and its `Display`) and a typed read's
//! `data` that does not fit its payload (named by the member's JSON pointer).

use cloudevent_runtime::Validate;
use cloudevent_runtime::{Json, Profile, Validator};

const VALID: &str = r#"{"specversion":"1.0","id":"m-1","source":"https://orders.example.com","type":"com.example.order.created","time":"2026-03-28T14:22:31Z"}"#;

#[test]
fn a_report_line_names_the_rule_once() {
    let strict = Validator::new(Profile::IntgStd015);
    let report = strict.validate_bytes::<Json>(
        VALID
            .replace("com.example.order.created", "com.example.Order.created")
            .replace(r#""time""#, r#""userEmail":"a","time""#)
            .as_bytes(),
    );
    assert_eq!(
        report.to_string(),
        "error INTG-STD-015 R-4: type `com.example.Order.created` segment `Order`: must be lowercase; e.g. `com.example.order.created`\n\
         error CE 1.0.2 naming: extension `userEmail` character `E` at byte 4: must be lowercase; only `a-z` and `0-9` are allowed\n\
         error INTG-STD-015 R-14: extension `userEmail` word `email`: announces personal data; extensions must not carry credentials, tokens, session identifiers or personal data; leave it out of the envelope: credentials belong to the transport's authentication, personal data to the access-controlled `data`"
    );
    for finding in report.findings() {
        let line = finding.report_line().to_string();
        assert_eq!(
            line.matches(finding.rule.as_str()).count(),
            1,
            "the rule id once: {line}"
        );
        assert!(!line.contains("``"), "no empty backticks: {line}");
    }
}

#[test]
fn a_too_large_binding_message_names_its_rule_once() {
    use cloudevent_runtime::binding::BindingError;
    let error = BindingError::TooLarge {
        size: 300_420,
        limit: 262_144,
    };
    assert_eq!(
        error.to_string(),
        "message: is 300420 bytes, over the 262144-byte limit (INTG-STD-015 R-11); store the data elsewhere and send a reference to it in `data` (the claim-check pattern)"
    );
    assert_eq!(
        error.violation().report_line().to_string(),
        "error INTG-STD-015 R-11: message: is 300420 bytes, over the 262144-byte limit; store the data elsewhere and send a reference to it in `data` (the claim-check pattern)"
    );
    // Over the batch limit, the batch's rule.
    let batch = BindingError::TooLarge {
        size: 2 << 20,
        limit: 1 << 20,
    };
    assert_eq!(batch.rule().as_str(), "INTG-STD-015 R-10");
}

/// A `data` that does not fit the payload type names the member by its JSON pointer, the form
/// `validate --registry` gives a schema's findings, and not the parser's line and column.
#[cfg(feature = "derive")]
#[test]
fn data_that_does_not_fit_names_the_member() {
    #[derive(Debug, serde::Serialize, serde::Deserialize, cloudevent_runtime::CloudEvent)]
    #[cloudevent(
        type = "com.example.order.created",
        source = "https://orders.example.com"
    )]
    struct OrderCreated {
        lines: Vec<Line>,
    }
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    struct Line {
        sku: String,
        quantity: i64,
    }
    let event = VALID.replace(
        r#""time""#,
        r#""data":{"lines":[{"sku":"a","quantity":1},{"sku":"b","quantity":"two"}]},"time""#,
    );
    use cloudevent_runtime::Event;
    let error = Event::<OrderCreated>::from_slice(event.as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "data/lines/1/quantity: does not fit the payload of `com.example.order.created`: invalid type: string \"two\", expected i64 (CE-JSON 3.1)"
    );
    // `data` before `datacontenttype` is read once the content type is known: the same.
    let late = event.replace(
        r#""specversion""#,
        r#""data":{"lines":[{"sku":"a","quantity":"x"}]},"datacontenttype":"application/json","specversion""#,
    );
    let late = late.replacen(
        r#","data":{"lines":[{"sku":"a","quantity":1},{"sku":"b","quantity":"two"}]}"#,
        "",
        1,
    );
    let error = Event::<OrderCreated>::from_slice(late.as_bytes()).unwrap_err();
    assert_eq!(error.attribute(), Some("data/lines/0/quantity"), "{error}");
    // The whole `data` of the wrong shape is `data` itself.
    let whole = VALID.replace(r#""time""#, r#""data":"lines","time""#);
    let error = Event::<OrderCreated>::from_slice(whole.as_bytes()).unwrap_err();
    assert_eq!(error.attribute(), Some("data"), "{error}");
    assert!(!error.to_string().contains("line 1 column"), "{error}");
}

#[cfg(feature = "axum")]
mod axum_door {
    use super::*;
    use axum::body::Body;
    use axum::extract::{FromRequest, Request};
    use axum::response::IntoResponse;
    use cloudevent_runtime::binding::axum::Checked;
    use cloudevent_runtime::{AnyEvent, Policy};
    use http::StatusCode;

    fn post(content_type: &str, body: Vec<u8>) -> Request {
        http::Request::builder()
            .method("POST")
            .header(http::header::CONTENT_TYPE, content_type)
            .header(http::header::CONTENT_LENGTH, body.len())
            .body(Body::from(body))
            .unwrap()
    }

    async fn refuse(request: Request) -> (StatusCode, String, serde_json::Value) {
        refuse_under(request, Profile::IntgStd015).await
    }

    async fn refuse_under(
        request: Request,
        profile: Profile,
    ) -> (StatusCode, String, serde_json::Value) {
        let policy = Policy::new(profile);
        let rejection = Checked::<AnyEvent>::from_request(request, &policy)
            .await
            .expect_err("refused");
        let display = rejection.to_string();
        let response = rejection.into_response();
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, display, serde_json::from_slice(&body).unwrap())
    }

    #[tokio::test]
    async fn an_oversized_body_is_413_with_one_rule_and_the_fix() {
        let big = VALID.replace(
            r#""time""#,
            &format!(r#""data":"{}","time""#, "x".repeat(300_000)),
        );
        let (status, display, body) =
            refuse(post("application/cloudevents+json", big.into_bytes())).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        let size = VALID.len() + 300_000 + r#""data":"","#.len();
        assert_eq!(
            body["findings"][0]["message"],
            format!(
                "message: is {size} bytes, over the 262144-byte limit (INTG-STD-015 R-11); store the data elsewhere and send a reference to it in `data` (the claim-check pattern)"
            )
        );
        assert_eq!(
            display,
            format!(
                "413 Payload Too Large; error INTG-STD-015 R-11: message: is {size} bytes, over the 262144-byte limit; store the data elsewhere and send a reference to it in `data` (the claim-check pattern)"
            )
        );
    }

    /// Issue 41: the rule a binding's refusal cites follows the route's policy. Under the
    /// `cloudevents` profile the 415 and the 413 cite the CloudEvents rules (both cited
    /// INTG-STD-015 R-8 and R-11 under every profile before).
    #[tokio::test]
    async fn a_refusal_cites_the_rule_of_the_routes_profile() {
        let (status, display, body) = refuse_under(
            post("application/json", VALID.as_bytes().to_vec()),
            Profile::CloudEvents,
        )
        .await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert_eq!(body["findings"][0]["rule"], "CE binding 1.3");
        assert!(
            display.starts_with("415 Unsupported Media Type; error CE binding 1.3: content type `application/json`: names no CloudEvents format"),
            "{display}"
        );
        let big = VALID.replace(
            r#""time""#,
            &format!(r#""data":"{}","time""#, "x".repeat(300_000)),
        );
        let (status, _, body) = refuse_under(
            post("application/cloudevents+json", big.into_bytes()),
            Profile::CloudEvents,
        )
        .await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        let size = VALID.len() + 300_000 + r#""data":"","#.len();
        assert_eq!(
            body["findings"][0]["message"],
            format!(
                "message: is {size} bytes, over the 262144-byte limit (CE 1.0.2 size limits); store the data elsewhere and send a reference to it in `data` (the claim-check pattern)"
            )
        );
    }

    /// A structured event POSTed as `application/json` is no CloudEvent to the binding (no
    /// `ce-` header, no CloudEvents format): 415, saying what to send instead.
    #[tokio::test]
    async fn a_structured_event_as_application_json_is_415_saying_what_to_send() {
        let (status, display, body) =
            refuse(post("application/json", VALID.as_bytes().to_vec())).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert_eq!(
            body["findings"][0]["message"],
            "content type `application/json`: names no CloudEvents format and the message carries no CloudEvents attribute headers (INTG-STD-015 R-8); send the event as `application/cloudevents+json` (structured mode), or its attributes as `ce-` headers beside the data (binary mode; `ce_` over Kafka, `cloudEvents:` over AMQP, user properties over MQTT 5)"
        );
        assert!(display.starts_with("415 Unsupported Media Type; error INTG-STD-015 R-8: content type `application/json`: "), "{display}");
    }
}

/// Issue 24, the literal-header tolerance: what a person reads when a sender does not
/// percent-encode: the refusal (strict), the warning (tolerated), the refusal under
/// INTG-STD-015 with the tolerance asked for, and Python's Boolean at a typed reader.
#[cfg(all(feature = "http", feature = "derive"))]
mod literal_headers {
    use cloudevent_runtime::binding::http;
    use cloudevent_runtime::{AnyEvent, CloudEvent, Event, Policy, Profile};

    fn headers(subject: &[u8]) -> ::http::HeaderMap {
        let mut headers = ::http::HeaderMap::new();
        for (name, value) in [
            ("ce-specversion", "1.0"),
            ("ce-id", "m-1"),
            ("ce-source", "https://orders.example.com"),
            ("ce-type", "com.example.order.noted"),
        ] {
            headers.insert(name, value.parse().unwrap());
        }
        headers.insert(
            "ce-subject",
            ::http::HeaderValue::from_bytes(subject).unwrap(),
        );
        headers
    }

    fn lines(subject: &[u8], policy: &Policy) -> String {
        match http::structured_document(&headers(subject), b"", policy) {
            Ok((_, _, warnings)) => warnings
                .iter()
                .map(|w| w.report_line().to_string())
                .collect::<Vec<_>>()
                .join("\n"),
            Err(error) => error.violation().report_line().to_string(),
        }
    }

    #[test]
    fn each_form_strict_tolerated_and_under_intg_std_015() {
        let strict = AnyEvent::DEFAULT_POLICY;
        let lenient = Policy::new(Profile::CloudEvents).with_literal_headers(true);
        let mut out = String::new();
        for subject in [&b"100%"[..], b"\"a\" b", "ünï".as_bytes()] {
            out.push_str(&lines(subject, &strict));
            out.push('\n');
            out.push_str(&lines(subject, &lenient));
            out.push('\n');
        }
        assert_eq!(
            out,
            "error INTG-STD-015 R-8: ce-subject `100%`: `%` at byte 3 is not followed by two hex digits; percent-encode `%`, `\"`, space and every non-ASCII byte as `%XY` (CE HTTP binding 3.1.3.2)\n\
             warning CE HTTP binding 3.1.3.2: subject `100%`: read literally (the policy tolerates literal headers): a `%` not followed by two hex digits, as sdk-go v2.15 (issue #1331), the JavaScript SDK and cloudevents-sdk send `%` unencoded; percent-encode `%`, `\"`, space and every non-ASCII byte as `%XY` (CE HTTP binding 3.1.3.2)\n\
             error INTG-STD-015 R-8: ce-subject `\"a\" b`: text after the closing quote of a quoted string (RFC 7230 3.2.6); percent-encode the whole value instead of quoting it\n\
             warning CE HTTP binding 3.1.3.2: subject `\"a\" b`: read literally (the policy tolerates literal headers): a leading `\"` that opens no whole quoted string, as the JavaScript SDK sends `\"` unencoded; percent-encode `%`, `\"`, space and every non-ASCII byte as `%XY` (CE HTTP binding 3.1.3.2)\n\
             error INTG-STD-015 R-8: ce-subject: value is not visible US-ASCII text (RFC 7230 3.2); percent-encode every other byte as `%XY` (CE HTTP binding 3.1.3.2)\n\
             warning CE HTTP binding 3.1.3.2: subject `\u{fc}n\u{ef}`: read literally (the policy tolerates literal headers): raw non-ASCII UTF-8, as the JavaScript SDK and legacy Python SDKs send text unencoded; percent-encode `%`, `\"`, space and every non-ASCII byte as `%XY` (CE HTTP binding 3.1.3.2)\n"
        );
        // Asked for under INTG-STD-015: refused as strictly, and the rules say why.
        let gateway = Policy::new(Profile::IntgStd015).with_literal_headers(true);
        assert_eq!(lines(b"100%", &gateway), lines(b"100%", &strict));
        assert_eq!(
            gateway.literal_header(
                cloudevent_runtime::rules::LiteralHeader::BarePercent,
                "subject",
                "100%"
            ),
            Err(Some(
                "the tolerance of literal headers (`with_literal_headers`) is never granted under the INTG-STD-015 gateway profile, which forwards only what the binding allows"
            ))
        );
    }

    #[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
    #[cloudevent(
        type = "com.example.order.created",
        source = "https://orders.example.com",
        profile = "cloudevents"
    )]
    struct Flagged {
        #[cloudevent(extension)]
        express: bool,
    }

    #[test]
    fn python_boolean_at_a_typed_reader() {
        let mut headers = headers(b"o-1");
        headers.insert("ce-type", "com.example.order.created".parse().unwrap());
        headers.insert("content-type", "application/json".parse().unwrap());
        headers.insert("ce-express", "True".parse().unwrap());
        let error =
            http::read_event::<Event<Flagged>>(&headers, br#"{"express":true}"#).unwrap_err();
        let line = error.violation().report_line().to_string();
        assert_eq!(
            line,
            "error CE 1.0.2 type system: express `True`: is not a Boolean: extension `express` is declared Boolean (by the schema registry or the event type); send `true` or `false` (lowercase; a JSON boolean in the JSON format)"
        );
    }
}

/// Issue 41: messages that name the right rule, each seen on real peer traffic.
mod issue_41 {
    use cloudevent_runtime::{AnyEvent, Json, Profile, Validate, Validator};

    const EVENT: &str =
        r#""id":"m-1","source":"https://orders.example.com","type":"com.example.order.created""#;

    /// `data` that is not a string under a non-JSON content type names CE-JSON 3.1 once.
    #[test]
    fn non_text_data_names_its_rule_once() {
        let bytes =
            format!(r#"{{"specversion":"1.0",{EVENT},"datacontenttype":"text/plain","data":5}}"#);
        let error = AnyEvent::from_slice(bytes.as_bytes()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "data: is a number, but datacontenttype `text/plain` is not JSON, so `data` must be a string (CE-JSON 3.1)"
        );
    }

    /// A JSON `1.0` is quoted as written, and a number for `specversion` is one finding, not
    /// also "required but absent".
    #[test]
    fn a_number_for_specversion_is_one_finding_quoted_as_written() {
        let report = Validator::new(Profile::CloudEvents)
            .validate_bytes::<Json>(format!(r#"{{"specversion":1.0,{EVENT}}}"#).as_bytes());
        assert_eq!(
            report.to_string(),
            "error CE 1.0.2 type system: specversion `1.0`: is a number with a fraction or exponent; expected a string"
        );
    }

    /// The `data` property cites the AMQP binding's section for the body, 3.1.2 (1.0.2 has
    /// no 2.2).
    #[cfg(feature = "amqp")]
    #[test]
    fn a_data_property_cites_amqp_3_1_2() {
        use cloudevent_runtime::binding::amqp::{AmqpMessage, AmqpValue, from_message};
        let property = |n: &str, v: &str| (format!("cloudEvents:{n}"), AmqpValue::String(v.into()));
        let message = AmqpMessage {
            content_type: Some("application/json".into()),
            application_properties: vec![
                property("specversion", "1.0"),
                property("id", "m-1"),
                property("source", "/s"),
                property("type", "com.example.order.created"),
                property("data", "x"),
            ],
            body: Some(b"{}".to_vec()),
        };
        let error = from_message::<AnyEvent>(&message).unwrap_err();
        assert_eq!(
            error.to_string(),
            "cloudEvents:data: `data` is not a context attribute; in binary mode the data is the message body, never a header (CE AMQP binding 3.1.2) (CE 1.0.2 naming); send the data as the body"
        );
    }

    /// An AMQP `time` sent as a `long` is refused with the Timestamp's advice, not the
    /// Integer's.
    #[cfg(feature = "amqp")]
    #[test]
    fn an_amqp_time_as_long_names_the_timestamp() {
        use cloudevent_runtime::binding::amqp::{AmqpMessage, AmqpValue, from_message};
        let property = |n: &str, v: &str| (format!("cloudEvents:{n}"), AmqpValue::String(v.into()));
        for millis in [1_774_708_951_000_i64, 1_000] {
            let message = AmqpMessage {
                content_type: Some("application/json".into()),
                application_properties: vec![
                    property("specversion", "1.0"),
                    property("id", "m-1"),
                    property("source", "/s"),
                    property("type", "com.example.order.created"),
                    ("cloudEvents:time".into(), AmqpValue::Long(millis)),
                ],
                body: Some(b"{}".to_vec()),
            };
            let error = from_message::<AnyEvent>(&message).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!(
                    "time `{millis}`: is an AMQP long, but a Timestamp travels as an AMQP `timestamp` or an RFC 3339 string (CE AMQP binding 3.1.3.2) (CE 1.0.2 type system); send an AMQP `timestamp`, or a string such as `2026-03-28T14:22:31Z`"
                )
            );
            assert_eq!(error.rule().as_str(), "CE 1.0.2 type system");
        }
    }

    /// MQTT reports a user property whose name is no valid attribute name (`ext_a`) as the
    /// other bindings report such a header, instead of dropping it.
    #[cfg(feature = "mqtt")]
    #[test]
    fn an_mqtt_property_with_an_invalid_name_is_reported() {
        use cloudevent_runtime::binding::mqtt::{MqttPublish, MqttVersion, from_publish};
        let property = |n: &str, v: &str| (n.to_owned(), v.to_owned());
        let publish = MqttPublish {
            content_type: Some("application/json".into()),
            user_properties: vec![
                property("specversion", "1.0"),
                property("id", "m-1"),
                property("source", "/s"),
                property("type", "com.example.order.created"),
                property("ext_a", "1"),
            ],
            payload: b"{}".to_vec(),
        };
        let error = from_publish::<AnyEvent>(&publish, MqttVersion::V5).unwrap_err();
        assert_eq!(
            error.to_string(),
            "extension `ext_a` character `_` at byte 3: only lowercase `a-z` and `0-9` are allowed (CE 1.0.2 naming); e.g. `exta`"
        );
    }

    /// A binding's refusal cites the rule of the profile in force (`rule_under`): INTG-STD-015's
    /// R-8, R-10 and R-11 only under INTG-STD-015; the CloudEvents bindings' content modes
    /// (1.3) and the core spec's size limits otherwise.
    #[test]
    fn a_binding_error_cites_the_rule_of_the_profile_in_force() {
        use cloudevent_runtime::Policy;
        use cloudevent_runtime::binding::BindingError;
        let not_cloudevents = BindingError::NotCloudEvents {
            content_type: Some("application/json".into()),
        };
        let too_large = BindingError::TooLarge {
            size: 300_420,
            limit: 262_144,
        };
        let batch = BindingError::TooLarge {
            size: 2 << 20,
            limit: 1 << 20,
        };
        let rules = |policy: &Policy| {
            [&not_cloudevents, &too_large, &batch].map(|e| e.rule_under(policy).as_str())
        };
        assert_eq!(
            rules(&Policy::new(Profile::IntgStd015)),
            ["INTG-STD-015 R-8", "INTG-STD-015 R-11", "INTG-STD-015 R-10"]
        );
        for profile in [Profile::CloudEvents, Profile::NlGov] {
            assert_eq!(
                rules(&Policy::new(profile)),
                [
                    "CE binding 1.3",
                    "CE 1.0.2 size limits",
                    "CE 1.0.2 size limits"
                ]
            );
        }
        assert_eq!(
            too_large
                .violation_under(&Policy::new(Profile::CloudEvents))
                .to_string(),
            "message: is 300420 bytes, over the 262144-byte limit (CE 1.0.2 size limits); store the data elsewhere and send a reference to it in `data` (the claim-check pattern)"
        );
        // Without a policy, the default profile's (INTG-STD-015), as before.
        assert_eq!(not_cloudevents.rule().as_str(), "INTG-STD-015 R-8");
    }

    /// A transport reader's refusal, reported under the reader's policy: an `AnyEvent` reader
    /// (the CloudEvents profile) cites the CloudEvents bindings' content modes, a reader of a
    /// type on INTG-STD-015 cites R-8 (before, every binding refusal cited INTG-STD-015).
    #[cfg(all(feature = "kafka", feature = "derive"))]
    #[test]
    fn a_kafka_refusal_is_reported_under_the_readers_profile() {
        use cloudevent_runtime::binding::kafka::{KafkaRecord, from_record, report_refusal};
        use cloudevent_runtime::{CloudEvent, Event};

        #[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
        #[cloudevent(
            type = "com.example.order.created",
            source = "https://orders.example.com",
            profile = "intg-std-015"
        )]
        struct OrderCreated {}

        let plain = KafkaRecord {
            key: None,
            headers: vec![("content-type".into(), Some(b"application/json".to_vec()))],
            value: Some(br#"{"a": 1}"#.to_vec()),
        };
        let refusal = from_record::<AnyEvent>(&plain).unwrap_err();
        assert_eq!(
            report_refusal::<AnyEvent>(&plain, &refusal).to_string(),
            "error CE binding 1.3: content type `application/json`: names no CloudEvents format and the message carries no CloudEvents attribute headers; send the event as `application/cloudevents+json` (structured mode), or its attributes as `ce-` headers beside the data (binary mode; `ce_` over Kafka, `cloudEvents:` over AMQP, user properties over MQTT 5)"
        );
        let refusal = from_record::<Event<OrderCreated>>(&plain).unwrap_err();
        assert_eq!(
            report_refusal::<Event<OrderCreated>>(&plain, &refusal).findings()[0]
                .rule
                .as_str(),
            "INTG-STD-015 R-8"
        );
    }

    /// The MQTT binding has no batched mode: under the CloudEvents profile the refusal cites
    /// the bindings' content modes, once.
    #[cfg(feature = "mqtt")]
    #[test]
    fn an_mqtt_refusal_is_reported_under_the_readers_profile() {
        use cloudevent_runtime::binding::mqtt::{
            MqttPublish, MqttVersion, from_publish, report_refusal,
        };
        let publish = MqttPublish {
            content_type: Some("application/cloudevents-batch+json".into()),
            user_properties: Vec::new(),
            payload: b"[]".to_vec(),
        };
        let refusal = from_publish::<AnyEvent>(&publish, MqttVersion::V5).unwrap_err();
        let report = report_refusal::<AnyEvent>(&publish, MqttVersion::V5, &refusal);
        assert_eq!(
            report
                .findings()
                .iter()
                .map(|f| f.rule.as_str())
                .collect::<Vec<_>>(),
            ["CE binding 1.3"]
        );
    }
}
