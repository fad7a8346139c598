//! The README-path reads of issue 13 on a loaded machine: criterion's medians move by tens of
//! percent when other builds share the cores, so this alternates the contestants in short
//! rounds and compares each one's fastest round (the round least disturbed by the load), as
//! `protobuf_ratio` does for the Protobuf rows.
//!
//! `cargo run --release -p cloudevent-bench --example readme_ratio [rounds]`

use std::hint::black_box;
use std::time::{Duration, Instant};

use cloudevent_bench::{
    OrderPlaced, PlainPlaced, PlainRootEvent, ours_root, root_batch_json, root_json,
};
use cloudevent_runtime::binding::{ContentMode, http as binding};
use cloudevent_runtime::{Batch, Event};

#[path = "../benches/sdk/mod.rs"]
#[allow(dead_code, reason = "the bench's SDK helpers; this example uses a few")]
mod sdk;

/// The fastest of `rounds` rounds of `iterations` calls of each contestant, the contestants
/// taking turns round by round.
fn fastest(rounds: usize, iterations: u32, contestants: &mut [&mut dyn FnMut()]) -> Vec<Duration> {
    let mut best = vec![Duration::MAX; contestants.len()];
    for _ in 0..rounds {
        for (f, best) in contestants.iter_mut().zip(&mut best) {
            let start = Instant::now();
            for _ in 0..iterations {
                f();
            }
            *best = (*best).min(start.elapsed() / iterations);
        }
    }
    best
}

fn main() {
    let rounds = std::env::args()
        .nth(1)
        .and_then(|r| r.parse().ok())
        .unwrap_or(200);

    let json = root_json();
    let times = fastest(
        rounds,
        1_000,
        &mut [
            &mut || {
                drop(black_box(
                    Event::<OrderPlaced>::from_slice(black_box(&json)).expect("parses"),
                ))
            },
            &mut || {
                drop(black_box(
                    serde_json::from_slice::<PlainRootEvent>(black_box(&json)).expect("parses"),
                ))
            },
            &mut || {
                drop(black_box(sdk::sdk_parse_as::<PlainPlaced>(black_box(
                    &json,
                ))))
            },
        ],
    );
    println!(
        "typed parse          ours {:>9.2?}  plain {:>9.2?}  sdk {:>9.2?}  ours/plain {:.2}x  sdk/ours {:.2}x",
        times[0],
        times[1],
        times[2],
        ratio(times[0], times[1]),
        ratio(times[2], times[0]),
    );

    let request =
        binding::event_request("http://127.0.0.1/events", &ours_root(), ContentMode::Binary)
            .expect("encodes");
    let times = fastest(
        rounds,
        1_000,
        &mut [
            &mut || {
                drop(black_box(
                    binding::from_request::<Event<OrderPlaced>, _>(black_box(&request))
                        .expect("decodes"),
                ))
            },
            &mut || {
                let request = black_box(&request);
                let mut event =
                    cloudevents::binding::http::to_event(request.headers(), request.body().clone())
                        .expect("SDK decodes");
                let (_, _, data) = event.take_data();
                drop(black_box((event, sdk::sdk_payload_as::<PlainPlaced>(data))));
            },
        ],
    );
    println!(
        "HTTP binary decode   ours {:>9.2?}  sdk {:>9.2?}  sdk/ours {:.2}x",
        times[0],
        times[1],
        ratio(times[1], times[0]),
    );

    let batch = root_batch_json(100);
    let times = fastest(
        rounds / 10,
        20,
        &mut [
            &mut || {
                drop(black_box(
                    Batch::from_slice(black_box(&batch)).expect("parses"),
                ))
            },
            &mut || {
                let events: Vec<cloudevents::Event> =
                    serde_json::from_slice(black_box(&batch)).expect("parses");
                let read: Vec<_> = events
                    .into_iter()
                    .map(|mut event| {
                        let (_, _, data) = event.take_data();
                        (event, sdk::sdk_payload_as::<PlainPlaced>(data))
                    })
                    .collect();
                drop(black_box(read));
            },
        ],
    );
    println!(
        "AnyEvent batch of 100 ours {:>9.2?}  sdk {:>9.2?}  sdk/ours {:.2}x",
        times[0],
        times[1],
        ratio(times[1], times[0]),
    );
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}
