//! Every check takes any text without panicking, and a reader ([`Mode::FirstError`]) finds
//! what a validator ([`Mode::Collect`]) finds, cut after the first error. What each check says
//! is held by the golden corpus (`tests/golden/`); this explores inputs beyond it.

use cloudevent_rules::{
    Envelope, ExtensionValue, Mode, Policy, Profile, Violation, check_dataschema,
    check_extension_name, check_media_type, check_source, check_string_value, check_time,
    check_type, check_type_schema_agreement, check_uri, check_uri_reference, schema_major,
};
use proptest::prelude::*;

/// Any text, or text made of the characters URIs, types and times are built from.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z0-9:/?#\\[\\]@%.+_~!$&'()*,;= -]{0,40}",
        "(https?://|urn:)?[a-z0-9.:\\[\\]%-]{0,20}(/[a-zA-Z0-9._-]{0,10}){0,4}",
        "[a-z]{1,6}(\\.[a-zA-Z0-9_-]{0,8}){0,6}",
        "[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,10})?(Z|[+-][0-9]{2}:[0-9]{2})?",
    ]
}

fn value(text: &str, kind: u8, number: i32) -> ExtensionValue<'_> {
    match kind % 7 {
        0 => ExtensionValue::Boolean(number % 2 == 0),
        1 => ExtensionValue::Integer(number),
        2 => ExtensionValue::String(text),
        3 => ExtensionValue::Binary(text.as_bytes()),
        4 => ExtensionValue::Uri(text),
        5 => ExtensionValue::UriReference(text),
        _ => ExtensionValue::Timestamp(text),
    }
}

proptest! {
    #[test]
    fn single_checks_never_panic(s in text(), t in text()) {
        for profile in Profile::ALL {
            let policy = Policy::new(profile).with_type_prefix(t.as_str());
            let _ = check_source(&s, profile);
            let _ = check_dataschema(&s, profile);
            let _ = check_type_schema_agreement(&t, &s, profile);
            let _ = check_extension_name(&s, profile);
            let _ = check_time(&s, profile);
            let _ = check_type(&s, &policy);
        }
        let _ = (check_uri("dataref", &s), check_uri_reference("dataref", &s));
        let _ = (check_media_type(&s), check_string_value("region", &s), schema_major(&s));
    }

    #[test]
    fn a_reader_stops_where_a_validator_finds_its_first_error(
        core in prop::collection::vec(prop::option::of(text()), 8),
        extensions in prop::collection::vec((text(), text(), any::<u8>(), any::<i32>()), 0..4),
        data in prop::option::of(0usize..(1 << 20)),
        profile in prop::sample::select(&Profile::ALL[..]),
        traceability in any::<bool>(),
    ) {
        let extensions: Vec<(&str, ExtensionValue<'_>)> = extensions
            .iter()
            .map(|(name, text, kind, number)| (name.as_str(), value(text, *kind, *number)))
            .collect();
        let envelope = Envelope {
            specversion: core[0].as_deref(),
            id: core[1].as_deref(),
            source: core[2].as_deref(),
            ty: core[3].as_deref(),
            datacontenttype: core[4].as_deref(),
            dataschema: core[5].as_deref(),
            subject: core[6].as_deref(),
            time: core[7].as_deref(),
            extensions: &extensions,
            data,
            // Now and then the dataschema is proto_data's type URL (issue 24).
            data_type_url: core[5].as_deref().filter(|_| data.is_some_and(|d| d % 2 == 0)),
        };
        let policy = Policy::new(profile).with_required_traceability(traceability);
        let all = policy.check_envelope(&envelope, Mode::Collect);
        let first = policy.check_envelope(&envelope, Mode::FirstError);
        let cut = all.iter().position(Violation::is_error).map_or(all.len(), |i| i + 1);
        prop_assert_eq!(first, &all[..cut]);
    }
}
