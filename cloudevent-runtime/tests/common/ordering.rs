//! The ordering check every reader's test runs (issue 22): a producer stamps six events of one
//! (source, partitionkey) group with a `Sequencer`; on the way in 2 and 3 are swapped and 5 is
//! dropped ([`SENT`]); the consumer's stage, on `Event<T>` and on `AnyEvent`, must hand on
//! `1 2 3 4`, the gap before 6, then 6 ([`assert_put_in_order`]).

use std::time::Duration;

use cloudevent_runtime::Attributes;
use cloudevent_runtime::order::{Ordered, OrderingStage, SequenceStore, Sequencer};

/// The indexes of the stamped events in the order they are sent: 2 and 3 swapped, 5 left out.
pub const SENT: [usize; 5] = [0, 2, 1, 3, 5];

/// Six events `make(1..=6)` put in the group `partitionkey` and stamped in that order.
pub async fn stamped<E: Attributes, S: SequenceStore>(
    sequencer: &Sequencer<S>,
    partitionkey: &str,
    make: impl Fn(i64) -> E,
) -> Vec<E> {
    let mut stamped = Vec::new();
    for n in 1..=6 {
        let mut event = make(n);
        event
            .set_extension("partitionkey", partitionkey.into())
            .unwrap();
        sequencer.stamp(&mut event).await.unwrap();
        stamped.push(event);
    }
    stamped
}

/// The stage the tests use: room for 8 events, 30 s (more than a test runs, so only the
/// count bound or the end of the stream releases a gap).
pub fn stage<E: Attributes>() -> OrderingStage<E> {
    OrderingStage::new(8, Duration::from_secs(30))
}

/// What the stage handed on, as one line: a delivered event's `sequence`, a gap's numbers.
pub fn label<E: Attributes>(out: Ordered<E>) -> String {
    match out {
        Ordered::Deliver(e) => e
            .extension_value("sequence")
            .unwrap()
            .as_str()
            .unwrap()
            .to_owned(),
        Ordered::Gap {
            first_missing,
            missing,
            resumes_at,
            ..
        } => format!("gap {first_missing}+{missing}->{resumes_at}"),
        Ordered::Late(e) => format!("late {}", e.id()),
        Ordered::Unsequenced(e) => format!("unsequenced {}", e.id()),
    }
}

/// The [`SENT`] stream came out in sequence order for the typed and the dynamic reader alike:
/// the swap put back, the gap before 6 reported, 6 delivered.
pub fn assert_put_in_order(typed: &[String], any: &[String]) {
    assert_eq!(typed, ["1", "2", "3", "4", "gap 5+1->6", "6"]);
    assert_eq!(any, typed);
}
