//! `data` checked against a registry's schema (issue 40's compiled text check,
//! `registry/text_check.rs`, in front of `jsonschema`): the first byte picks one of the
//! schemas below (this repository's registry and schemas written to reach every keyword the
//! text check compiles), the rest is `data`'s JSON text, put as written into an event.
//!
//! Never panics; and whenever `data` is JSON serde_json reads and names no member twice, the
//! registry's verdict (a `registry data` finding or none) is `jsonschema`'s own on that
//! value, under the CloudEvents and the INTG-STD-015 profile alike. The text check may only
//! shorten the way to "valid": an input it lets through that `jsonschema` refuses fails here.
#![no_main]

use std::sync::OnceLock;

use cloudevent_runtime::registry::{Registry, RegistryEntry, RegistryValidator};
use cloudevent_runtime::rules::{Policy, Profile};
use cloudevent_runtime::{AnyEvent, Json, Timestamp, Validate, Validator};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

/// This repository's registry schemas, as `cloudevent validate --registry schemas` reads them.
const REPOSITORY: [&str; 9] = [
    include_str!("../../schemas/com.example.order.created/v1.json"),
    include_str!("../../schemas/com.example.order.created/v2.json"),
    include_str!("../../schemas/com.example.order.cancelled/v1.json"),
    include_str!("../../schemas/com.example.order.shipped/v1.json"),
    include_str!("../../schemas/com.example.order.returned/v1.json"),
    include_str!("../../schemas/com.example.payment.authorized/v1.json"),
    include_str!("../../schemas/com.example.payment.captured/v1.json"),
    include_str!("../../schemas/com.example.payment.failed/v1.json"),
    include_str!("../../schemas/com.example.payment.refunded/v1.json"),
];

/// Schemas that reach each keyword the text check compiles, under both drafts it reads.
fn written() -> Vec<Value> {
    let object = json!({
        "type": "object",
        "required": ["id", "kind"],
        "properties": {
            "id": {"type": "string", "minLength": 2, "maxLength": 8},
            "kind": {"enum": ["a", "b\"q", "é"]},
            "tag": {"const": "x"},
            "level": {"oneOf": [{"const": "low"}, {"const": "high"}]},
            "mode": {"anyOf": [{"const": "on"}, {"const": "off"}]},
            "at": {"type": "string", "format": "date-time"},
            "n": {"type": "integer", "minimum": -5, "maximum": 100},
            "m": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10},
            "u": {"type": "integer", "format": "uint32", "minimum": 0},
            "f": {"type": "number"},
            "b": {"type": "boolean"},
            "z": {"type": "null"},
            "any": {},
            "never": false,
            "list": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3, "uniqueItems": false},
            "nested": {"$ref": "#/$defs/inner"},
            "multi": {"type": ["string", "integer"]}
        },
        "additionalProperties": false,
        "minProperties": 2,
        "maxProperties": 6,
        "$defs": {
            "inner": {
                "type": "object",
                "properties": {"k": {"type": "integer"}, "self": {"$ref": "#/$defs/inner"}},
                "required": ["k"],
                "additionalProperties": {"type": "string"}
            }
        }
    });
    let mut draft7 = object.clone();
    let defs = draft7
        .as_object_mut()
        .and_then(|o| o.remove("$defs"))
        .unwrap_or_default();
    draft7["definitions"] = defs;
    draft7["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    let text = serde_json::to_string(&draft7).unwrap_or_default();
    let draft7: Value =
        serde_json::from_str(&text.replace("#/$defs/", "#/definitions/")).unwrap_or_default();
    let mut draft2020 = object;
    draft2020["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    vec![
        draft2020,
        draft7,
        json!({"type": "array", "items": {"$ref": "#"}, "maxItems": 4}),
        json!({"type": "object", "required": ["only"], "additionalProperties": false}),
        json!({"type": "object", "required": ["a"], "additionalProperties": {"type": "integer"}}),
        json!({"type": "string", "format": "date-time"}),
        json!({"type": "integer", "maximum": 9007199254740993_i64}),
        json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"maxLength": 1}}}}}),
        json!(true),
    ]
}

/// `jsonschema`'s validator of `schema` with the registry's documented `format` policy
/// (`registry/schema.rs`): `date-time` asserted under every draft with the check a
/// [`Timestamp`] makes; the other formats as the draft says (asserted in drafts 4 to 7,
/// annotations in 2019-09 and 2020-12).
fn oracle(schema: &Value) -> jsonschema::Validator {
    let options = jsonschema::options()
        .with_format("date-time", |text: &str| Timestamp::try_from(text).is_ok());
    let annotations = matches!(
        jsonschema::Draft::default().detect(schema),
        jsonschema::Draft::Draft201909 | jsonschema::Draft::Draft202012
    );
    let options = if annotations {
        // Told to assert formats for `date-time`'s sake; every other one accepts all.
        [
            "date",
            "time",
            "email",
            "uri",
            "uri-reference",
            "uuid",
            "hostname",
            "ipv4",
            "ipv6",
        ]
        .iter()
        .fold(options.should_validate_formats(true), |options, name| {
            options.with_format(*name, |_: &str| true)
        })
    } else {
        options
    };
    options.build(schema).expect("every schema compiles")
}

struct Setup {
    types: Vec<String>,
    /// `jsonschema`'s own validator of each schema: the oracle.
    oracles: Vec<jsonschema::Validator>,
    validators: [RegistryValidator; 2],
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let mut schemas: Vec<Value> = REPOSITORY
            .iter()
            .map(|text| serde_json::from_str(text).expect("a repository schema is JSON"))
            .collect();
        schemas.extend(written());
        let types: Vec<String> = (0..schemas.len())
            .map(|n| {
                format!(
                    "com.example.fuzz.case{}.created",
                    char::from(b'a' + n as u8)
                )
            })
            .collect();
        let registry = || {
            Registry::new(
                types
                    .iter()
                    .zip(&schemas)
                    .map(|(ty, schema)| RegistryEntry::new(ty.clone(), schema.clone())),
            )
            .expect("every schema compiles")
        };
        Setup {
            validators: [
                RegistryValidator::new(Validator::new(Profile::CloudEvents), registry()),
                RegistryValidator::new(Validator::new(Profile::IntgStd015), registry()),
            ],
            oracles: schemas.iter().map(oracle).collect(),
            types,
        }
    })
}

fuzz_target!(|input: &[u8]| {
    let Some((&pick, data)) = input.split_first() else {
        return;
    };
    let Ok(data) = std::str::from_utf8(data) else {
        return;
    };
    let setup = setup();
    let at = usize::from(pick) % setup.types.len();
    let event = format!(
        r#"{{"specversion":"1.0","id":"a1","source":"https://orders.example.com/checkout","type":"{}","datacontenttype":"application/json","data":{data}}}"#,
        setup.types[at]
    );
    let verdicts: Vec<bool> = setup
        .validators
        .iter()
        .map(|validator| {
            !validator
                .validate_bytes::<Json>(event.as_bytes())
                .has_rule("registry data")
        })
        .collect();
    // The oracle: serde_json's reading, members named once, `jsonschema`'s verdict. An
    // event our reader refuses (a limit) has no `data` to check.
    let Ok(value) = serde_json::from_str::<Value>(data) else {
        return;
    };
    if AnyEvent::from_slice(event.as_bytes()).is_err() {
        return;
    }
    if !Policy::new(Profile::IntgStd015)
        .check_data_members(data)
        .is_empty()
    {
        return;
    }
    let expected = setup.oracles[at].is_valid(&value);
    for (verdict, profile) in verdicts.iter().zip(["cloudevents", "intg-std-015"]) {
        assert_eq!(
            *verdict, expected,
            "schema {at}, {profile}: the registry says valid = {verdict}, jsonschema {expected}, for data {data}"
        );
    }
});
