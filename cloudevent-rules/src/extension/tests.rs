use super::*;
use crate::Severity;

#[test]
fn the_letter_prefilter_finds_what_the_plain_scan_finds() {
    let scan = |name: &str| {
        SENSITIVE_WORDS
            .iter()
            .find(|(word, how, _)| match how {
                Match::Anywhere => contains_ignore_case(name, word),
                Match::Affix => {
                    starts_with_ignore_case(name, word) || ends_with_ignore_case(name, word)
                }
                Match::Whole => name.eq_ignore_ascii_case(word),
            })
            .map(|&(word, _, what)| (word, what))
    };
    let mut names: Vec<String> = SENSITIVE_WORDS
        .iter()
        .flat_map(|(word, _, _)| {
            [
                (*word).to_owned(),
                word.to_ascii_uppercase(),
                format!("x{word}"),
                format!("{word}9"),
                format!("my{}id", word.to_ascii_uppercase()),
            ]
        })
        .collect();
    names.extend(
        [
            "region",
            "correlationid",
            "causationid",
            "classname",
            "shipping",
            "Ünïcode",
            "",
        ]
        .map(str::to_owned),
    );
    for name in &names {
        assert_eq!(sensitive_word(name), scan(name), "{name}");
    }
    assert!(names.iter().filter(|n| scan(n).is_some()).count() > SENSITIVE_WORDS.len());
}

fn summary(found: &[Violation]) -> Vec<(&'static str, Severity, Option<&str>)> {
    found
        .iter()
        .map(|v| (v.rule.as_str(), v.severity, v.part.as_deref()))
        .collect()
}

#[test]
fn accepts_in_every_profile() {
    for name in [
        "region",
        "a",
        "x1",
        "tenantid",
        "abcdefghijklmnopqrst",
        "author",
        "shipping",
        "classname",
        "inside",
        "microphone",
        "partitionkey",
        "dataref",
        "correlationid",
        "causationid",
        "traceparent",
        "tracestate",
        "sequence",
        "sequencetype",
    ] {
        for profile in Profile::ALL {
            assert!(
                check_extension_name(name, profile).is_empty(),
                "{name} in {profile}: {:?}",
                check_extension_name(name, profile)
            );
        }
    }
}

#[test]
fn rejects_characters_in_every_profile() {
    for (name, part, hint) in [
        (
            "tenant_id",
            "character `_` at byte 6",
            Some("e.g. `tenantid`"),
        ),
        ("Region", "character `R` at byte 0", Some("e.g. `region`")),
        ("région", "character `é` at byte 1", Some("e.g. `rgion`")),
        ("x٣", "character `٣` at byte 1", Some("e.g. `x`")),
        ("my-ext", "character `-` at byte 2", Some("e.g. `myext`")),
        ("a b", "character ` ` (space) at byte 1", Some("e.g. `ab`")),
        ("__", "character `_` at byte 0", None),
    ] {
        for profile in Profile::ALL {
            let found = check_extension_name(name, profile);
            assert_eq!(found[0].rule, rule::CE_NAMING, "{name}");
            assert_eq!(found[0].severity, Severity::Error);
            assert_eq!(found[0].part.as_deref(), Some(part), "{name}");
            assert_eq!(found[0].hint.as_deref(), hint, "{name}");
        }
    }
}

#[test]
fn rejects_reserved_and_core_names() {
    for name in [
        "data",
        "data_base64",
        "specversion",
        "id",
        "source",
        "type",
        "datacontenttype",
        "dataschema",
        "subject",
        "time",
    ] {
        for profile in Profile::ALL {
            let found = check_extension_name(name, profile);
            assert_eq!(
                summary(&found),
                [("CE 1.0.2 naming", Severity::Error, None)],
                "{name}"
            );
        }
    }
    assert!(
        check_extension_name("", Profile::CloudEvents)[0]
            .problem
            .contains("empty")
    );
}

#[test]
fn length_and_first_character() {
    let long = "abcdefghijklmnopqrstu";
    assert_eq!(
        summary(&check_extension_name(long, Profile::CloudEvents)),
        [("CE 1.0.2 naming", Severity::Warning, Some("21 characters"))]
    );
    assert_eq!(
        summary(&check_extension_name(long, Profile::NlGov)),
        [("CE 1.0.2 naming", Severity::Warning, Some("21 characters"))]
    );
    assert_eq!(
        summary(&check_extension_name(long, Profile::IntgStd015)),
        [(
            "INTG-STD-015 gateway 5",
            Severity::Error,
            Some("21 characters")
        )]
    );
    assert!(check_extension_name("1region", Profile::CloudEvents).is_empty());
    assert_eq!(
        check_extension_name("1region", Profile::IntgStd015)[0]
            .hint
            .as_deref(),
        Some("e.g. `region1`")
    );
    assert_eq!(
        check_extension_name("123", Profile::IntgStd015)[0]
            .hint
            .as_deref(),
        Some("e.g. `n123`")
    );
    assert_eq!(
        check_extension_name(long, Profile::IntgStd015)[0]
            .hint
            .as_deref(),
        Some("e.g. `abcdefghijklmnopqrst`")
    );
    assert_eq!(
        summary(&check_extension_name("1region", Profile::IntgStd015)),
        [(
            "INTG-STD-015 gateway 5",
            Severity::Error,
            Some("first character `1`")
        )]
    );
}

#[test]
fn r14_refuses_sensitive_names_in_intg_only() {
    for (name, word) in [
        ("token", "token"),
        ("accesstoken", "token"),
        ("userpassword", "password"),
        ("passwd", "passwd"),
        ("clientsecret", "secret"),
        ("apikey", "apikey"),
        ("credentials", "credential"),
        ("sessionid", "session"),
        ("cookie", "cookie"),
        ("auth", "auth"),
        ("ssn", "ssn"),
        ("customerssn", "ssn"),
        ("ssnlast4", "ssn"),
        ("bsn", "bsn"),
        ("email", "email"),
        ("useremail", "email"),
        ("phone", "phone"),
        ("phonenumber", "phonenumber"),
        ("sid", "sid"),
        ("iban", "iban"),
        ("dateofbirth", "dateofbirth"),
        ("jwt", "jwt"),
        ("bearer", "bearer"),
        ("ipaddress", "ipaddress"),
    ] {
        let found = check_extension_name(name, Profile::IntgStd015);
        let word_part = format!("word `{word}`");
        assert_eq!(
            summary(&found),
            [(
                "INTG-STD-015 R-14",
                Severity::Error,
                Some(word_part.as_str())
            )],
            "{name}"
        );
        assert!(
            check_extension_name(name, Profile::CloudEvents).is_empty(),
            "{name}"
        );
    }
    // Still caught when the name is also malformed.
    let found = check_extension_name("Session_Token", Profile::IntgStd015);
    assert_eq!(found.len(), 2);
    assert_eq!(found[1].rule, rule::INTG_R14);
}

/// `Policy::check_extension` skips the name check of a documented extension: every
/// documented name must pass it under every profile.
#[test]
fn documented_names_pass_every_profile() {
    for documented in DOCUMENTED_EXTENSIONS {
        for profile in Profile::ALL {
            assert_eq!(
                check_extension_name(documented.name, profile),
                [],
                "{} under {profile:?}",
                documented.name
            );
        }
    }
}

#[test]
fn documented_extensions() {
    for (name, kind) in [
        ("partitionkey", AttributeKind::String),
        ("sequence", AttributeKind::String),
        ("sequencetype", AttributeKind::String),
        ("traceparent", AttributeKind::String),
        ("tracestate", AttributeKind::String),
        ("correlationid", AttributeKind::String),
        ("causationid", AttributeKind::String),
        ("dataref", AttributeKind::UriReference),
    ] {
        assert_eq!(
            documented_extension(name).map(|e| e.kind),
            Some(kind),
            "{name}"
        );
    }
    assert_eq!(
        documented_extension("correlationid").map(|e| e.documented_by),
        Some("ADR-0003")
    );
    assert!(documented_extension("PartitionKey").is_none());
}

/// A suggested fix is itself checked: `userEmail` is not told to write `useremail`, which
/// R-14 refuses as personal data (issue 24); where the fix passes, it is suggested.
#[test]
fn suggests_only_a_fix_that_passes() {
    let found = check_extension_name("userEmail", Profile::IntgStd015);
    assert_eq!(found[0].rule, rule::CE_NAMING);
    assert_eq!(found[0].hint, None, "{found:#?}");
    assert!(found.iter().any(|v| v.rule == rule::INTG_R14));
    // Under the CloudEvents profile `useremail` passes, so it is suggested there.
    let found = check_extension_name("userEmail", Profile::CloudEvents);
    assert_eq!(found[0].hint.as_deref(), Some("e.g. `useremail`"));
    // Truncating a long name is suggested only when the short name passes.
    let found = check_extension_name("customerregionandcountry", Profile::IntgStd015);
    assert_eq!(
        found[0].hint.as_deref(),
        Some("e.g. `customerregionandcou`")
    );
    let found = check_extension_name("1sessionidentifierforuser", Profile::IntgStd015);
    assert!(
        found
            .iter()
            .all(|v| v.hint.as_deref().is_none_or(|h| !h.contains("session"))),
        "{found:#?}"
    );
}

/// Issue 27: cheap evasions of the R-14 word list.
#[test]
fn digits_for_letters_and_stems_do_not_evade_the_word_list() {
    for name in [
        "passw0rd",
        "t0ken",
        "s3cret",
        "userpassw0rd",
        "acc3sst0ken",
        "privkey",
        "sshprivkey",
        "sessid",
        "phpsessid",
        "passcode",
        "creds",
        "awscreds",
        "credsfile",
        "c00kie",
        "5ession",
        "emai1",
    ] {
        let found = check_extension_name(name, Profile::IntgStd015);
        assert!(
            found.iter().any(|f| f.rule == rule::INTG_R14),
            "{name}: {found:?}"
        );
    }
    // Digits that stand for nothing, and words that only look alike, still pass.
    for name in [
        "region1",
        "shard2",
        "ipv4",
        "sha256",
        "x509",
        "http2",
        "k8s",
        "tier3",
        "accredited",
        "incredible",
        "v2",
    ] {
        let found = check_extension_name(name, Profile::IntgStd015);
        assert!(
            !found.iter().any(|f| f.rule == rule::INTG_R14),
            "{name}: {found:?}"
        );
    }
}
