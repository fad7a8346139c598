//! The walk held to serde_json's own reading (the fuzz target `data_members` does the same on
//! any bytes): on generated JSON with repeated members at every depth, the same findings
//! (object pointer, member, count, in the order objects close), bounded the same way.

use std::collections::HashMap;
use std::fmt;

use proptest::prelude::*;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::MAX_REPEATED_MEMBERS;
use crate::{Policy, Profile};

/// (object pointer, name, count) in the order objects close, by serde_json's reading.
struct Walk<'w> {
    pointer: String,
    found: &'w mut Vec<(String, String, usize)>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        loop {
            let pointer = format!("{}/{index}", self.pointer);
            let child = Walk {
                pointer,
                found: &mut *self.found,
            };
            if seq.next_element_seed(child)?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut counts: HashMap<String, usize> = HashMap::new();
        let mut repeated = Vec::new();
        while let Some(name) = map.next_key::<String>()? {
            let count = counts.entry(name.clone()).or_insert(0);
            *count += 1;
            if *count == 2 {
                repeated.push(name.clone());
            }
            let pointer = format!(
                "{}/{}",
                self.pointer,
                name.replace('~', "~0").replace('/', "~1")
            );
            map.next_value_seed(Walk {
                pointer,
                found: &mut *self.found,
            })?;
        }
        for name in repeated {
            let count = counts[&name];
            self.found.push((self.pointer.clone(), name, count));
        }
        Ok(())
    }
}

/// JSON text with members named from a small set (so repeats are common), names needing
/// pointer escapes (`~`, `/`) and JSON escapes (`\u0061` is `a`).
fn json() -> impl Strategy<Value = String> {
    // Names and strings longer than 8 bytes, with quotes and backslashes on both sides of an
    // 8-byte block, for the walk's scan of a block at a time.
    let name = prop::sample::select(vec![
        "a",
        "b",
        "\\u0061",
        "a~/b",
        "c/d",
        "é",
        "k",
        "long_member_name_1",
        "long_member_name_\\u0031",
        "lo\\\"ng_é_\\\\_name",
        "lo\\u0022ng_é_\\u005c_name",
    ]);
    let leaf = prop::sample::select(vec![
        "1",
        "null",
        "\"x\"",
        "\"{\\\"a\\\": 1}\"",
        "[]",
        "{}",
        "\"a longer value: {\\\"a\\\": [1, 2]}, \\\\\\\" and é, then more text\"",
        "\"0123456\\\\\\\"89abcdef\\\"\"",
    ])
    .prop_map(str::to_owned);
    leaf.prop_recursive(4, 64, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6)
                .prop_map(|items| format!("[{}]", items.join(", "))),
            prop::collection::vec((name.clone(), inner), 0..8).prop_map(|members| {
                let members: Vec<String> = members
                    .into_iter()
                    .map(|(name, value)| format!("\"{name}\": {value}"))
                    .collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_walk_finds_what_serde_json_reads(text in json()) {
        let found = Policy::new(Profile::IntgStd015).check_data_members(&text);
        let mut expected = Vec::new();
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        Walk { pointer: String::new(), found: &mut expected }
            .deserialize(&mut deserializer)
            .expect("generated JSON parses");
        let listed: Vec<(String, String, String)> = found
            .iter()
            .take(MAX_REPEATED_MEMBERS)
            .map(|f| (f.value.to_string(), f.part.as_deref().unwrap_or_default().to_owned(), f.problem.to_string()))
            .collect();
        let wanted: Vec<(String, String, String)> = expected
            .iter()
            .take(MAX_REPEATED_MEMBERS)
            .map(|(pointer, name, count)| {
                let times = if *count == 2 { "twice".to_owned() } else { format!("{count} times") };
                (pointer.clone(), format!("member `{name}`"), format!("an object of `data` names a member {times}"))
            })
            .collect();
        prop_assert_eq!(listed, wanted, "{}", text);
        prop_assert_eq!(found.len(), expected.len().min(MAX_REPEATED_MEMBERS + 1));
    }
}
