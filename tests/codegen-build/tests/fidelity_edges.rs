//! Issue 26: data at the edges of JSON Schema survives a typed round trip. Every instance
//! of `cloudevent-codegen/tests/fixtures/fidelity-edges/instances/edge.json`, and every
//! instance proptest generates from the schema itself, is checked valid with the `jsonschema`
//! crate, read as the `data` of a CloudEvent by the generated type, and written back: the same
//! JSON value, with the same text once both are written sorted.

use codegen_build_test::edges::RegistryEvent;
use proptest::prelude::*;
use serde_json::{Map, Number, Value, json};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../cloudevent-codegen/tests/fixtures/fidelity-edges"
);

fn read(path: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn schema() -> Value {
    read(&format!("{FIXTURE}/schemas/edge.json"))
}

/// The instance as `data` of an event, read by the generated type and written back.
fn written_back(instance: &Value) -> Result<Value, String> {
    let bytes = serde_json::to_vec(&json!({
        "specversion": "1.0",
        "id": "1",
        "source": "https://edges.example.com",
        "type": "com.example.fidelity.edge",
        "data": instance,
    }))
    .unwrap();
    match RegistryEvent::from_slice(&bytes).map_err(|e| e.to_string())? {
        RegistryEvent::FidelityEdge(event) => {
            // Through text, as an event is sent, and through `serde_json::Value`.
            let text = serde_json::to_string(event.data()).map_err(|e| e.to_string())?;
            let value = serde_json::to_value(event.data()).map_err(|e| e.to_string())?;
            let reread: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            if reread != value {
                return Err(format!("text {text} and value {value} differ"));
            }
            Ok(value)
        }
        RegistryEvent::Other(_) => Err("read as `Other`".into()),
    }
}

fn assert_kept(instance: &Value) -> Result<(), TestCaseError> {
    let back =
        written_back(instance).map_err(|e| TestCaseError::fail(format!("{instance}: {e}")))?;
    prop_assert_eq!(&back, instance);
    prop_assert_eq!(
        serde_json::to_string(&back).unwrap(),
        serde_json::to_string(instance).unwrap()
    );
    Ok(())
}

#[test]
fn nulls_empty_objects_in_branches_and_integers_at_the_edges_are_kept() {
    let schema = schema();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let instances = read(&format!("{FIXTURE}/instances/edge.json"));
    let instances = instances.as_array().unwrap();
    assert_eq!(instances.len(), 3);
    for (index, instance) in instances.iter().enumerate() {
        assert!(
            validator.is_valid(instance),
            "[{index}] is not valid under its schema, so it proves nothing: {instance}"
        );
        assert_kept(instance).unwrap_or_else(|e| panic!("[{index}]: {e}"));
    }
}

#[test]
fn a_fraction_for_an_integer_is_refused_naming_the_member() {
    let instance = json!({"always_null": null, "choice": {"kind": "tags"}, "count": 1.5});
    assert!(
        !jsonschema::validator_for(&schema())
            .unwrap()
            .is_valid(&instance)
    );
    let error = written_back(&instance).unwrap_err();
    assert!(error.contains("/count"), "{error}");
    assert!(error.contains("1.5"), "{error}");
}

/// An integer: small, at the 64-bit edges, beyond them, or spelled with a zero fraction.
fn integer(non_negative: bool) -> BoxedStrategy<Value> {
    let spelled = |f: f64| Value::Number(Number::from_f64(f).unwrap());
    let any = prop_oneof![
        any::<i32>().prop_map(|i| json!(i)),
        Just(json!(i64::MIN)),
        Just(json!(u64::MAX)),
        (1_u32..1000).prop_map(move |i| spelled(f64::from(i) * 1.0e20)),
        (-1000_i32..1000).prop_map(move |i| spelled(f64::from(i))),
        (-1000_i32..-1).prop_map(move |i| spelled(f64::from(i) * 1.0e19)),
    ];
    if non_negative {
        any.prop_filter("minimum: 0", |v| v.as_f64().is_some_and(|f| f >= 0.0))
            .boxed()
    } else {
        any.boxed()
    }
}

/// Any JSON value, a few levels deep: what `{}` and unknown members hold.
fn any_json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| json!(i)),
        (-1.0e6_f64..1.0e6).prop_map(|f| json!(f)),
        "[a-z]{0,4}".prop_map(Value::String),
        Just(json!({})),
        Just(json!([])),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,3}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

/// Instances of `schema` (the subset of JSON Schema the fixture uses): required members always,
/// optional ones or not, and unknown members in open objects.
fn instance(schema: &Value, root: &Value) -> BoxedStrategy<Value> {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let target = root.pointer(reference.trim_start_matches('#')).unwrap();
        return instance(target, root);
    }
    if let Some(constant) = schema.get("const") {
        return Just(constant.clone()).boxed();
    }
    if let Some(branches) = schema.get("oneOf").and_then(Value::as_array) {
        let strategies: Vec<BoxedStrategy<Value>> =
            branches.iter().map(|b| instance(b, root)).collect();
        return proptest::strategy::Union::new(strategies).boxed();
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("null") => Just(Value::Null).boxed(),
        Some("integer") => integer(schema.get("minimum").is_some()),
        Some("number") => prop_oneof![
            (-1.0e9_f64..1.0e9).prop_map(|f| json!(f)),
            any::<i64>().prop_map(|i| json!(i)),
            integer(false),
        ]
        .boxed(),
        Some("string") => "[a-z ]{0,6}".prop_map(Value::String).boxed(),
        Some("boolean") => any::<bool>().prop_map(Value::Bool).boxed(),
        Some("array") => {
            let items = instance(&schema["items"], root);
            prop::collection::vec(items, 0..3)
                .prop_map(Value::Array)
                .boxed()
        }
        Some("object") => object(schema, root),
        _ => any_json(),
    }
}

fn object(schema: &Value, root: &Value) -> BoxedStrategy<Value> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut members: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
    for (name, property) in schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let name = name.clone();
        let value = instance(property, root);
        members.push(if required.contains(&name.as_str()) {
            value.prop_map(move |v| Some((name.clone(), v))).boxed()
        } else {
            prop::option::of(value.prop_map(move |v| (name.clone(), v))).boxed()
        });
    }
    let named: Vec<String> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    // Members the schema does not name (an open object): never one it names.
    let unknown = prop::collection::btree_map("zz[a-z]{0,2}", any_json(), 0..2);
    (members, unknown)
        .prop_map(move |(members, unknown)| {
            let mut object: Map<String, Value> = members.into_iter().flatten().collect();
            for (name, value) in unknown {
                if !named.contains(&name) {
                    object.insert(name, value);
                }
            }
            Value::Object(object)
        })
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_valid_instance_round_trips(instance in instance(&schema(), &schema())) {
        let validator = jsonschema::validator_for(&schema()).unwrap();
        prop_assume!(validator.is_valid(&instance));
        assert_kept(&instance)?;
    }
}
