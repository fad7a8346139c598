//! The consumer's ordering stage (issue 22, `order::OrderingStage`): any stream of events
//! (a few sources and partition keys, `sequence` values near the `Integer` wrap, strings,
//! garbage, a missing `sequencetype`), interleaved with time passing, `expire` and `flush`.
//! Never panics; every event pushed comes out exactly once (delivered, late or unsequenced)
//! by the final flush; a group never holds more than its bound; a group's `Integer` events
//! are delivered in order, a gap resuming exactly where it says.
//!
//! The order is the oracle of the runtime's tests (issue 38 item 1), included by path so the
//! fuzzer and the property tests judge with one copy: per group, deliveries form one chain in
//! the stage's order (a gap starts at the number expected next, is of something and of less
//! than half the circle, and the next delivery is where it resumes), strings only ascend.
#![no_main]

#[path = "../../cloudevent-runtime/tests/common/order_oracle.rs"]
mod order_oracle;

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use cloudevent_runtime::order::OrderingStage;
use cloudevent_runtime::{AnyEvent, Attributes as _};
use libfuzzer_sys::fuzz_target;
use order_oracle::OrderOracle;

const MAX_HELD: usize = 4;

fn event(n: usize, op: &[u8]) -> AnyEvent {
    let source = ["/a", "/b", "/c"][usize::from(op[0] % 3)];
    let mut event = AnyEvent::new(format!("e{n}"), source, "com.example.order.updated");
    match op[1] % 4 {
        0 => {}
        key => event
            .set_extension("partitionkey", format!("k{key}").into())
            .unwrap(),
    }
    let number = i32::from_le_bytes([op[2], op[3], op[4], op[5]]);
    let sequence = match op[6] % 8 {
        // Near the wrap, near the start, anywhere.
        0 | 1 => (i32::MAX - i32::from(op[2] % 8)).to_string(),
        2 => (i32::MIN + i32::from(op[2] % 8)).to_string(),
        3 | 4 => i32::from(op[2] % 16).to_string(),
        5 => number.to_string(),
        6 => String::from_utf8_lossy(&op[2..6]).into_owned(),
        _ => String::new(),
    };
    if !sequence.is_empty() {
        let _ = event.set_extension("sequence", sequence.into());
    }
    if op[7] % 4 != 0 {
        let _ = event.set_extension("sequencetype", "Integer".into());
    }
    event
}

fuzz_target!(|data: &[u8]| {
    let now = Rc::new(Cell::new(Instant::now()));
    let clock = {
        let now = Rc::clone(&now);
        move || now.get()
    };
    let mut stage = OrderingStage::with_clock(MAX_HELD, Duration::from_secs(5), clock);
    let mut oracle = OrderOracle::default();
    if data.first().is_some_and(|b| b % 2 == 0) {
        stage = stage.from_start();
        oracle = oracle.starting_at_one();
    }
    let mut pushed = 0;
    for op in data.chunks_exact(8) {
        match op[0] >> 5 {
            0 => now.set(now.get() + Duration::from_millis(u64::from(op[1]) * 50)),
            1 => stage.expire().for_each(|o| oracle.take(o)),
            _ => {
                let event = event(pushed, op);
                pushed += 1;
                stage.push(event).for_each(|o| oracle.take(o));
            }
        }
        // 3 sources x 4 keys: no group holds more than its bound.
        assert!(stage.held() <= MAX_HELD * 12, "held {}", stage.held());
    }
    stage.flush().for_each(|o| oracle.take(o));
    assert_eq!(stage.held(), 0);
    oracle.assert_all_out(pushed);
});
