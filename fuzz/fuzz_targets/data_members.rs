//! Members named twice inside JSON `data` (issue 27, `Policy::check_data_members`, the rules
//! crate's scan without recursion): any text. Never panics; the report is bounded; and on
//! text serde_json accepts, it lists the same repeated members (object pointer, name, count,
//! in the order the objects close) as a walk over serde_json's own reading.
#![no_main]

use std::collections::HashMap;
use std::fmt;

use cloudevent_runtime::rules::{MAX_REPEATED_MEMBERS, Policy, Profile};
use libfuzzer_sys::fuzz_target;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

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

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let found = Policy::new(Profile::IntgStd015).check_data_members(text);
    assert!(found.len() <= MAX_REPEATED_MEMBERS + 1);
    let mut expected = Vec::new();
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let read = Walk {
        pointer: String::new(),
        found: &mut expected,
    }
    .deserialize(&mut deserializer)
    .and_then(|()| deserializer.end());
    if read.is_err() {
        return;
    }
    let listed = found.len().min(MAX_REPEATED_MEMBERS);
    assert_eq!(listed, expected.len().min(MAX_REPEATED_MEMBERS), "{text}");
    // The listed findings only: past the bound, `found` ends with the one counting the rest.
    for (finding, (pointer, name, count)) in found.iter().zip(&expected).take(MAX_REPEATED_MEMBERS)
    {
        assert_eq!(&finding.value, pointer, "{text}");
        let shown: String = name.chars().take(64).collect();
        assert_eq!(
            finding.part.as_deref(),
            Some(format!("member `{shown}`").as_str())
        );
        let times = if *count == 2 {
            "twice".to_owned()
        } else {
            format!("{count} times")
        };
        assert!(
            finding.problem.ends_with(&times),
            "{}: {text}",
            finding.problem
        );
    }
    if expected.len() > MAX_REPEATED_MEMBERS {
        let more = expected.len() - MAX_REPEATED_MEMBERS;
        assert!(
            found[MAX_REPEATED_MEMBERS]
                .problem
                .starts_with(&format!("{more} more")),
            "{text}"
        );
    }
});
