//! The order oracle of issue 38 (item 1), shared by `tests/order.rs`' property tests and the
//! `ordering` fuzz target (which includes this file by path): what an `OrderingStage` hands on
//! must be, per (source, partitionkey) group, one chain in the stage's own order.
//!
//! - A group's `Integer` deliveries follow on by one from its first; a [`Ordered::Gap`] starts
//!   exactly at the number expected next, is of at least one number and less than half the
//!   circle (more would put the number it resumes at behind the last delivered, by the
//!   half-circle rule of `SequenceValue::step`), and the group's next delivery is the number
//!   it resumes at.
//! - Without `Integer`, each delivery is greater than the last one as strings.
//! - Every event pushed comes out exactly once (delivered, late or unsequenced).

use std::collections::HashMap;

use cloudevent_runtime::Attributes;
use cloudevent_runtime::order::Ordered;
use cloudevent_runtime::rules::{SequenceStep, SequenceValue};

#[derive(Default)]
pub struct OrderOracle {
    /// The number each group delivers next (`Integer`), once it is known.
    next: HashMap<(String, Option<String>), i32>,
    /// The last string each group delivered (without `Integer`).
    last_text: HashMap<(String, Option<String>), String>,
    /// How many times each event id came out.
    out: HashMap<String, usize>,
    from_start: bool,
}

fn text<E: Attributes>(event: &E, name: &str) -> Option<String> {
    event
        .extension_value(name)
        .and_then(|v| v.as_str().map(str::to_owned))
}

impl OrderOracle {
    /// For a stage made with `.from_start()`: every group's first number is 1.
    pub fn starting_at_one(mut self) -> Self {
        self.from_start = true;
        self
    }

    /// Checks one thing the stage handed on, in the order it was handed on.
    pub fn take<E: Attributes>(&mut self, ordered: Ordered<E>) {
        match ordered {
            Ordered::Deliver(event) => {
                let key = (event.source().to_owned(), text(&event, "partitionkey"));
                let sequence = text(&event, "sequence").expect("a delivered event has a sequence");
                let sequencetype = text(&event, "sequencetype");
                match SequenceValue::read(&sequence, sequencetype.as_deref()) {
                    Ok(SequenceValue::Integer(number)) => {
                        let expected = match self.next.get(&key) {
                            Some(&next) => Some(next),
                            None if self.from_start => Some(1),
                            None => None,
                        };
                        if let Some(expected) = expected {
                            assert_eq!(
                                number,
                                expected,
                                "{key:?}: delivered {number}, expected {expected} (step {:?})",
                                SequenceValue::step(expected, number)
                            );
                        }
                        self.next.insert(key, SequenceValue::successor(number));
                    }
                    Ok(SequenceValue::Lexicographic(text)) => {
                        if let Some(last) = self.last_text.get(&key) {
                            assert!(text > last.as_str(), "{key:?}: {text:?} after {last:?}");
                        }
                        self.last_text.insert(key, text.to_owned());
                    }
                    Err(refused) => panic!("delivered a refused sequence: {refused:?}"),
                }
                self.came_out(event.id());
            }
            Ordered::Gap {
                source,
                partitionkey,
                first_missing,
                missing,
                resumes_at,
            } => {
                let key = (source, partitionkey);
                assert!(missing > 0, "{key:?}: a gap of nothing");
                assert!(
                    missing < 1 << 31,
                    "{key:?}: a gap of {missing} resumes behind {first_missing}"
                );
                let expected = match self.next.get(&key) {
                    Some(&next) => next,
                    None if self.from_start => 1,
                    None => panic!("{key:?}: a gap before the group's first delivery"),
                };
                assert_eq!(first_missing, expected, "{key:?}: the gap starts elsewhere");
                assert_eq!(
                    SequenceValue::step(first_missing, resumes_at),
                    SequenceStep::Ahead { missing },
                    "{key:?}: the gap's numbers do not add up"
                );
                self.next.insert(key, resumes_at);
            }
            Ordered::Late(event) | Ordered::Unsequenced(event) => self.came_out(event.id()),
        }
    }

    fn came_out(&mut self, id: &str) {
        let count = self.out.entry(id.to_owned()).or_default();
        *count += 1;
        assert_eq!(*count, 1, "{id} came out twice");
    }

    /// After the final flush: every one of the `pushed` events came out.
    pub fn assert_all_out(&self, pushed: usize) {
        assert_eq!(self.out.len(), pushed, "every event pushed comes out");
    }
}
