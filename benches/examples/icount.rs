//! One bench row, `n` times, for an instruction counter: wall-clock medians move by tens of
//! percent when other builds share the cores, an instruction count does not. The row's input
//! is built and the row run 10 times first; a run with `n = 0` does exactly that, so its count
//! subtracted from a run with `n` leaves `n` operations:
//!
//! ```text
//! cargo build --release -p cloudevent-bench --example icount
//! valgrind --tool=callgrind --callgrind-out-file=row.N target/release/examples/icount ROW N
//! valgrind --tool=callgrind --callgrind-out-file=row.0 target/release/examples/icount ROW 0
//! (Ir of row.N - Ir of row.0) / N
//! ```
//!
//! Rows are the cases of `benches/events.rs` and `benches/protobuf.rs`, and the filters of
//! `benches/filter.rs` (`filter/...`, issue 23), `group/contestant`
//! (`ours`, `plain`, `sdk`, `prost`, ...); `icount --list` prints them. The API calls that
//! changed between versions of the runtime sit in `ours`, so this file runs at an older
//! commit with only that module adapted.

use cloudevent_runtime::Validate;
use std::hint::black_box;

use cloudevent_bench::{
    OrderCreated, OrderPlaced, PlainEvent, PlainPlaced, PlainRootEvent, ours as reference,
    ours_root, placed, plain_new, plain_placed, reference_batch_json, reference_json, root_json,
};
use cloudevent_runtime::binding::{ContentMode, http as binding};
use cloudevent_runtime::{AnyEvent, Batch, Event};
use prost::Message as _;

#[path = "../benches/loopback/mod.rs"]
mod loopback;
#[path = "../benches/sdk/mod.rs"]
#[allow(dead_code, reason = "the bench's SDK helpers; this driver uses a few")]
mod sdk;

/// The runtime calls whose spelling changed with issue 21 (the format trait, the policy).
mod ours {
    use cloudevent_runtime::{AnyEvent, Json, Policy, Profile, Protobuf, Validate, Validator};

    pub fn validator() -> Validator {
        Validator::new(Policy::new(Profile::IntgStd015).with_type_prefix("com.example"))
    }

    pub fn validate_slice(validator: &Validator, json: &[u8]) -> impl Sized {
        validator.validate_bytes::<Json>(json)
    }

    pub fn to_protobuf(event: &AnyEvent) -> Vec<u8> {
        event.encode::<Protobuf>().expect("encodes")
    }

    pub fn from_protobuf(bytes: &[u8]) -> AnyEvent {
        AnyEvent::decode::<Protobuf>(bytes).expect("reads")
    }
}

type Row = Box<dyn FnMut()>;

const ROWS: &[&str] = &[
    "new_serialize/ours",
    "new_serialize/plain",
    "new_serialize/sdk",
    "root_parse/ours",
    "root_parse/plain",
    "root_parse/sdk",
    "parse/ours",
    "parse/plain",
    "parse/sdk",
    "any_validate/ours",
    "any_validate/ours_slice",
    "any_validate/sdk",
    "root_http_decode/ours",
    "root_http_decode/sdk",
    "http_encode/ours",
    "http_encode/sdk",
    "http_decode/ours",
    "http_decode/ours_any",
    "http_decode/sdk",
    "batch_parse/ours",
    "batch_parse/ours_any",
    "batch_parse/plain",
    "batch_parse/sdk",
    "protobuf_decode/ours",
    "protobuf_decode/prost",
    "protobuf_decode/json",
    "filter/cesql_any",
    "filter/cesql_typed",
    "filter/subscription_any",
    "filter/subscription_typed",
    "filter/typical_any",
    "filter/typical_typed",
    "filter/exact_any",
    "filter/prefix_any",
    "filter/suffix_any",
    "filter/likein_any",
    "nats_read/ours",
    "nats_read/plain",
    "order/build",
    "order/in_order",
    "order/pairs_swapped",
    "order/build_typed",
    "order/in_order_typed",
    "order/pairs_swapped_typed",
];

/// The ordering stage rows (issue 22): one event per call, made with `partitionkey`,
/// `sequencetype: Integer` and `sequence` over 16 groups round-robin. `build`: the event made
/// and dropped (subtract it from the others); `in_order`: made and pushed into an
/// `OrderingStage` (`from_start`), every group in order, nothing held; `pairs_swapped`: each
/// pair of numbers within a group swapped, so every other event waits for one. Without a
/// suffix the event is an `AnyEvent`; `_typed`: an `Event<OrderCreated>` (the reference
/// payload, the three extensions set through the builder).
fn order_row(case: &str) -> Row {
    match case.strip_suffix("_typed") {
        Some(case) => order_stage_row(case, |key, n| {
            Event::builder(cloudevent_bench::payload())
                .id("e")
                .without_traceability()
                .extension("partitionkey", key)
                .extension("sequencetype", "Integer")
                .extension("sequence", n.to_string())
                .build()
                .expect("the reference payload with a sequence is valid")
        }),
        None => order_stage_row(case, |key, n| {
            let mut event = AnyEvent::new(
                "e",
                "https://orders.example.com/checkout",
                "com.example.order.updated",
            );
            let extensions = event.extensions_mut();
            extensions.insert("partitionkey", key);
            extensions.insert("sequencetype", "Integer");
            extensions.insert("sequence", n.to_string());
            event
        }),
    }
}

/// The in-process read of the e2e bench's NATS consume case (`loopback::nats::read_ns`): one
/// structured-mode message as JetStream delivers it (`Content-Type`, `Nats-Msg-Id`), read by
/// `nats::from_parts::<Event<OrderCreated>>` and checked by an `InMemoryDeduplicator` (ours),
/// or parsed by serde into the plain struct (plain). The calls cycle over 4,096 messages with
/// fresh ids and the deduplicator holds 1,024, so every check is a new key that evicts the
/// oldest: the steady state of a long-running consumer.
fn nats_read_row(ours: bool) -> Row {
    use cloudevent_runtime::Attributes;
    use cloudevent_runtime::binding::nats;
    use cloudevent_runtime::dedupe::{Deduplicator, Delivery, InMemoryDeduplicator};
    use loopback::nats::{PlainTracedEvent, event_messages};
    use std::time::Duration;
    let messages = event_messages(4096, true);
    let seen = InMemoryDeduplicator::new(1024, Duration::from_secs(3600));
    let mut call = 0;
    Box::new(move || {
        let (headers, payload) = &messages[call % messages.len()];
        call += 1;
        if ours {
            let event: Event<OrderCreated> =
                nats::from_parts(black_box(headers.as_ref()), black_box(payload))
                    .expect("a valid event");
            let new = seen.check(event.source(), event.id()).expect("in memory");
            assert_eq!(new, Delivery::New);
            drop(black_box(event));
        } else {
            let event: PlainTracedEvent =
                serde_json::from_slice(black_box(payload)).expect("the event");
            drop(black_box(event));
        }
    })
}

fn order_stage_row<E: cloudevent_runtime::Attributes + 'static>(
    case: &str,
    make: fn(&str, i32) -> E,
) -> Row {
    use cloudevent_runtime::order::OrderingStage;
    use std::time::Duration;
    const GROUPS: u32 = 16;
    let keys: Vec<String> = (0..GROUPS).map(|g| format!("order-{g}")).collect();
    let swap = case == "pairs_swapped";
    let mut stage =
        (case != "build").then(|| OrderingStage::new(1024, Duration::from_secs(3600)).from_start());
    let mut call = 0u32;
    Box::new(move || {
        let group = (call % GROUPS) as usize;
        let mut n = (call / GROUPS) as i32 + 1;
        if swap {
            n += if n % 2 == 1 { 1 } else { -1 };
        }
        call += 1;
        let event = make(keys[group].as_str(), n);
        match stage.as_mut() {
            Some(stage) => stage
                .push(black_box(event))
                .for_each(|out| drop(black_box(out))),
            None => drop(black_box(event)),
        }
    })
}

/// The filter rows (issue 23 §6): `filter/<what>_<event>`. `cesql`: `type LIKE
/// 'com.example.%' AND EXISTS subject`; `subscription`: the Subscriptions API `all` of two
/// `prefix` filters (`type`, `subject`); `typical`: the issue's `type LIKE
/// 'com.example.order.%' AND partitionkey = 'k1'`. Issue 40's rows: `exact`, `prefix`,
/// `suffix`: one Subscriptions API filter of that dialect on `type`; `likein`: `type LIKE
/// 'com.example.%' AND source IN (two others, the event's) AND EXISTS subject`. `any`: the
/// README-path event as an `AnyEvent` (read from its JSON); `typed`: the same as
/// `Event<OrderPlaced>` (`region` filled from the payload). Each row passes.
/// Issue 40's `cesql!` row: `LIKE`, `IN` and `EXISTS` joined by `AND`, no `data`.
const LIKE_IN: &str = "type LIKE 'com.example.%' AND source IN ('/orders', 'urn:shop:orders', \
    'https://orders.example.com/checkout') AND EXISTS subject";

fn filter_row(what: &str, typed: bool) -> Row {
    use cloudevent_runtime::filter::{Expression, Filter, SubscriptionFilter};
    let filter: Box<dyn Filter> = match what {
        "cesql" => Box::new(
            Expression::parse("type LIKE 'com.example.%' AND EXISTS subject").expect("parses"),
        ),
        "subscription" => Box::new(
            SubscriptionFilter::from_json(&serde_json::json!({ "all": [
                { "prefix": { "type": "com.example." } },
                { "prefix": { "subject": "order-" } },
            ]}))
            .expect("reads"),
        ),
        "exact" | "prefix" | "suffix" => {
            let value = match what {
                "exact" => cloudevent_bench::ROOT_TYPE,
                "prefix" => "com.example.",
                _ => ".placed",
            };
            Box::new(
                SubscriptionFilter::from_json(&serde_json::json!({ what: { "type": value } }))
                    .expect("reads"),
            )
        }
        "likein" => Box::new(Expression::parse(LIKE_IN).expect("parses")),
        _ => Box::new(
            Expression::parse("type LIKE 'com.example.order.%' AND partitionkey = 'k1'")
                .expect("parses"),
        ),
    };
    let mut any = AnyEvent::from_slice(&root_json()).expect("reads");
    let mut ours = ours_root();
    if what == "typical" {
        any.extensions_mut().insert("partitionkey", "k1");
        ours = ours.with_extension("partitionkey", "k1").expect("valid");
    }
    let event: Box<dyn cloudevent_runtime::filter::Filterable> =
        if typed { Box::new(ours) } else { Box::new(any) };
    assert!(filter.accepts(&*event), "the {what} row's event passes");
    Box::new(move || {
        black_box(filter.accepts(black_box(&*event)));
    })
}

fn row(name: &str) -> Option<Row> {
    let json = reference_json();
    let root = root_json();
    Some(match name {
        "new_serialize/ours" => Box::new(|| {
            drop(black_box(
                serde_json::to_vec(&Event::new(black_box(placed()))).expect("serializes"),
            ))
        }),
        "new_serialize/plain" => Box::new(|| {
            drop(black_box(
                serde_json::to_vec(&plain_new(black_box(plain_placed()))).expect("serializes"),
            ))
        }),
        "new_serialize/sdk" => Box::new(|| {
            drop(black_box(
                serde_json::to_vec(&sdk::sdk_new(black_box(placed()))).expect("serializes"),
            ))
        }),
        "root_parse/ours" => Box::new(move || {
            drop(black_box(
                Event::<OrderPlaced>::from_slice(black_box(&root)).expect("parses"),
            ))
        }),
        "root_parse/plain" => Box::new(move || {
            drop(black_box(
                serde_json::from_slice::<PlainRootEvent>(black_box(&root)).expect("parses"),
            ))
        }),
        "root_parse/sdk" => Box::new(move || {
            drop(black_box(sdk::sdk_parse_as::<PlainPlaced>(black_box(
                &root,
            ))))
        }),
        "parse/ours" => Box::new(move || {
            drop(black_box(
                Event::<OrderCreated>::from_slice(black_box(&json)).expect("parses"),
            ))
        }),
        "parse/plain" => Box::new(move || {
            drop(black_box(
                serde_json::from_slice::<PlainEvent>(black_box(&json)).expect("parses"),
            ))
        }),
        "parse/sdk" => Box::new(move || drop(black_box(sdk::sdk_parse(black_box(&json))))),
        "any_validate/ours" => {
            let validator = ours::validator();
            Box::new(move || {
                let event = AnyEvent::from_slice(black_box(&json)).expect("parses");
                let report = validator.validate(&event);
                drop(black_box((event, report)))
            })
        }
        "any_validate/ours_slice" => {
            let validator = ours::validator();
            Box::new(move || {
                drop(black_box(ours::validate_slice(
                    &validator,
                    black_box(&json),
                )))
            })
        }
        "any_validate/sdk" => Box::new(move || {
            drop(black_box(
                serde_json::from_slice::<cloudevents::Event>(black_box(&json)).expect("parses"),
            ))
        }),
        "root_http_decode/ours" => {
            let request = binding::event_request(
                "http://127.0.0.1/events",
                &cloudevent_bench::ours_root(),
                ContentMode::Binary,
            )
            .expect("encodes");
            Box::new(move || {
                drop(black_box(
                    binding::from_request::<Event<OrderPlaced>, _>(black_box(&request))
                        .expect("decodes"),
                ))
            })
        }
        "root_http_decode/sdk" => {
            let request = binding::event_request(
                "http://127.0.0.1/events",
                &cloudevent_bench::ours_root(),
                ContentMode::Binary,
            )
            .expect("encodes");
            Box::new(move || {
                let request = black_box(&request);
                let mut event =
                    cloudevents::binding::http::to_event(request.headers(), request.body().clone())
                        .expect("SDK decodes");
                let (_, _, data) = event.take_data();
                drop(black_box((event, sdk::sdk_payload_as::<PlainPlaced>(data))))
            })
        }
        "http_encode/ours" => {
            let event = reference();
            Box::new(move || {
                drop(black_box(
                    binding::event_request(
                        "http://127.0.0.1/events",
                        black_box(&event),
                        ContentMode::Binary,
                    )
                    .expect("encodes"),
                ))
            })
        }
        "http_encode/sdk" => {
            let event = sdk::sdk_build();
            Box::new(move || drop(black_box(sdk::sdk_request(black_box(&event).clone()))))
        }
        "http_decode/ours" | "http_decode/ours_any" => {
            let request = binding::event_request(
                "http://127.0.0.1/events",
                &reference(),
                ContentMode::Binary,
            )
            .expect("encodes");
            if name.ends_with("any") {
                Box::new(move || {
                    drop(black_box(
                        binding::from_request::<AnyEvent, _>(black_box(&request)).expect("decodes"),
                    ))
                })
            } else {
                Box::new(move || {
                    drop(black_box(
                        binding::from_request::<Event<OrderCreated>, _>(black_box(&request))
                            .expect("decodes"),
                    ))
                })
            }
        }
        "http_decode/sdk" => {
            let request = sdk::sdk_request(sdk::sdk_build());
            Box::new(move || {
                let request = black_box(&request);
                let mut event =
                    cloudevents::binding::http::to_event(request.headers(), request.body().clone())
                        .expect("SDK decodes");
                let (_, _, data) = event.take_data();
                drop(black_box((event, sdk::sdk_payload(data))))
            })
        }
        "batch_parse/ours" => {
            let batch = reference_batch_json(100);
            Box::new(move || {
                drop(black_box(
                    serde_json::from_slice::<Vec<Event<OrderCreated>>>(black_box(&batch))
                        .expect("parses"),
                ))
            })
        }
        "batch_parse/ours_any" => {
            let batch = reference_batch_json(100);
            Box::new(move || {
                drop(black_box(
                    Batch::from_slice(black_box(&batch)).expect("parses"),
                ))
            })
        }
        "batch_parse/plain" => {
            let batch = reference_batch_json(100);
            Box::new(move || {
                drop(black_box(
                    serde_json::from_slice::<Vec<PlainEvent>>(black_box(&batch)).expect("parses"),
                ))
            })
        }
        "batch_parse/sdk" => {
            let batch = reference_batch_json(100);
            Box::new(move || {
                let events: Vec<cloudevents::Event> =
                    serde_json::from_slice(black_box(&batch)).expect("parses");
                let read: Vec<_> = events
                    .into_iter()
                    .map(|mut event| {
                        let (_, _, data) = event.take_data();
                        (event, sdk::sdk_payload(data))
                    })
                    .collect();
                drop(black_box(read))
            })
        }
        "protobuf_decode/ours" | "protobuf_decode/prost" | "protobuf_decode/json" => {
            let bytes = ours::to_protobuf(&AnyEvent::from_slice(&json).expect("parses"));
            match name {
                "protobuf_decode/ours" => {
                    Box::new(move || drop(black_box(ours::from_protobuf(black_box(&bytes)))))
                }
                "protobuf_decode/prost" => Box::new(move || {
                    drop(black_box(
                        cloudevent_runtime::protobuf::messages::CloudEvent::decode(black_box(
                            bytes.as_slice(),
                        ))
                        .expect("reads"),
                    ))
                }),
                _ => Box::new(move || {
                    drop(black_box(
                        AnyEvent::from_slice(black_box(&json)).expect("reads"),
                    ))
                }),
            }
        }
        "nats_read/ours" | "nats_read/plain" => nats_read_row(name == "nats_read/ours"),
        order if order.starts_with("order/") && ROWS.contains(&order) => {
            order_row(&order["order/".len()..])
        }
        filter if filter.starts_with("filter/") => {
            let rest = &filter["filter/".len()..];
            let (what, event) = rest.rsplit_once('_')?;
            if !ROWS.contains(&name) {
                return None;
            }
            filter_row(what, event == "typed")
        }
        _ => return None,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--list") {
        ROWS.iter().for_each(|row| println!("{row}"));
        return;
    }
    let (Some(name), Some(n)) = (
        args.first(),
        args.get(1).and_then(|n| n.parse::<u64>().ok()),
    ) else {
        eprintln!("usage: icount ROW N (icount --list prints the rows)");
        std::process::exit(2);
    };
    let Some(mut f) = row(name) else {
        eprintln!("no row `{name}`; icount --list prints them");
        std::process::exit(2);
    };
    for _ in 0..10 {
        f();
    }
    for _ in 0..n {
        f();
    }
}

/// Every row name `ROWS` lists is a row, and only those.
#[test]
fn rows_are_listed() {
    for name in ROWS {
        assert!(row(name).is_some(), "{name}");
    }
    assert!(row("nope/ours").is_none());
}
