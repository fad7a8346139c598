//! The AMQP 1.0 binding through a real broker: RabbitMQ (Debian's `rabbitmq-server`, which
//! `cargo xtask test` installs) with its AMQP 1.0 plugin, started on free loopback ports in a
//! fresh directory and stopped when the test ends; the `fe2o3-amqp` client on both sides.
#![cfg(feature = "fe2o3-amqp")]

mod common;

use cloudevent_runtime::Attributes;
use std::time::{Duration, Instant};

use cloudevent_runtime::binding::ContentMode;
use cloudevent_runtime::binding::amqp::PropertyPrefix;
use cloudevent_runtime::binding::fe2o3_amqp::{self as amqp, AmqpError, Body};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event};
use fe2o3_amqp::types::messaging::{AmqpValue, Message};
use fe2o3_amqp::types::primitives::{SimpleValue, Value};
use fe2o3_amqp::{Connection, Receiver, Sender, Session};
use serde::{Deserialize, Serialize};

#[path = "support/ports.rs"]
mod ports;
#[path = "support/rabbitmq.rs"]
mod rabbitmq;
use rabbitmq::RabbitMq;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com/checkout"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension)]
    priority: i32,
    #[cloudevent(extension)]
    express: bool,
    total_cents: i64,
}

fn order(n: i64) -> Event<OrderCreated> {
    Event::new(OrderCreated {
        order_id: format!("order-{n}"),
        priority: 7,
        express: true,
        total_cents: n,
    })
}

/// A connection, one session and a sender and receiver on one queue. RabbitMQ 3.x answers
/// a closing detach with a non-closing one, so the links are detached, not closed.
struct Queue {
    connection: fe2o3_amqp::connection::ConnectionHandle<()>,
    session: fe2o3_amqp::session::SessionHandle<()>,
    sender: Sender,
    receiver: Receiver,
}

impl Queue {
    async fn open(broker: &RabbitMq, name: &str) -> Queue {
        let mut connection = Connection::open(format!("cloudevent-{name}"), broker.url().as_str())
            .await
            .unwrap();
        let mut session = Session::begin(&mut connection).await.unwrap();
        let address = format!("/queue/{name}");
        let sender = Sender::attach(&mut session, format!("{name}-out"), address.as_str())
            .await
            .unwrap();
        let receiver = Receiver::attach(&mut session, format!("{name}-in"), address.as_str())
            .await
            .unwrap();
        Queue {
            connection,
            session,
            sender,
            receiver,
        }
    }

    /// The next message, accepted.
    async fn next(&mut self) -> Message<Body> {
        let delivery = tokio::time::timeout(Duration::from_secs(10), self.receiver.recv::<Body>())
            .await
            .expect("a message within 10 s")
            .unwrap();
        self.receiver.accept(&delivery).await.unwrap();
        delivery.into_message()
    }

    async fn close(mut self) {
        self.sender.detach().await.unwrap();
        self.receiver.detach().await.unwrap();
        self.session.end().await.unwrap();
        self.connection.close().await.unwrap();
    }
}

fn property<'m>(message: &'m Message<Body>, name: &str) -> Option<&'m SimpleValue> {
    message.application_properties.as_ref()?.get(name)
}

async fn typed_and_dynamic_events_in_binary_mode(broker: &RabbitMq) {
    let mut queue = Queue::open(broker, "binary").await;
    let sent = order(14999);
    amqp::send(
        &mut queue.sender,
        &sent,
        amqp::DEFAULT_MODE,
        PropertyPrefix::Colon,
    )
    .await
    .unwrap();
    let message = queue.next().await;
    // On the wire: `cloudEvents:` application properties, native types where the
    // CloudEvents type is Boolean or Integer (CE AMQP binding 3.1.3.2), the JSON payload
    // as the data section with its media type in `content-type`.
    assert_eq!(
        property(&message, "cloudEvents:id"),
        Some(&SimpleValue::String(sent.id().to_owned()))
    );
    assert_eq!(
        property(&message, "cloudEvents:priority"),
        Some(&SimpleValue::Long(7))
    );
    assert_eq!(
        property(&message, "cloudEvents:express"),
        Some(&SimpleValue::Bool(true))
    );
    let content_type = message
        .properties
        .as_ref()
        .and_then(|p| p.content_type.as_ref());
    assert_eq!(content_type.map(|c| c.0.as_str()), Some("application/json"));
    let received: Event<OrderCreated> = amqp::read(&message).unwrap();
    assert_eq!(received, sent);

    // A dynamic event without data, and with the underscore prefix.
    let mut dynamic = AnyEvent::new(
        "dyn-1",
        "https://gateway.example.com",
        "com.example.note.added",
    );
    dynamic.extensions_mut().insert("vendorext", "kept");
    amqp::send(
        &mut queue.sender,
        &dynamic,
        ContentMode::Binary,
        PropertyPrefix::Underscore,
    )
    .await
    .unwrap();
    let message = queue.next().await;
    assert!(property(&message, "cloudEvents_vendorext").is_some());
    assert_eq!(amqp::read::<AnyEvent>(&message).unwrap(), dynamic);
    queue.close().await;
}

async fn typed_and_dynamic_events_in_structured_mode(broker: &RabbitMq) {
    let mut queue = Queue::open(broker, "structured").await;
    let sent = order(1);
    amqp::send(
        &mut queue.sender,
        &sent,
        ContentMode::Structured,
        PropertyPrefix::Colon,
    )
    .await
    .unwrap();
    let message = queue.next().await;
    assert!(message.application_properties.is_none());
    let content_type = message
        .properties
        .as_ref()
        .and_then(|p| p.content_type.as_ref());
    assert_eq!(
        content_type.map(|c| c.0.as_str()),
        Some("application/cloudevents+json; charset=utf-8")
    );
    assert_eq!(amqp::read::<Event<OrderCreated>>(&message).unwrap(), sent);
    assert_eq!(
        amqp::read::<AnyEvent>(&message).unwrap().id(),
        sent.id(),
        "the same message read dynamically"
    );
    queue.close().await;
}

async fn refused_messages_get_typed_errors_and_are_rejected(broker: &RabbitMq) {
    let mut queue = Queue::open(broker, "refused").await;
    // An event of another type for a typed reader, and one with a property type
    // CloudEvents has no use for: sent as they are, refused on receipt.
    let other = AnyEvent::new(
        "x-1",
        "https://orders.example.com",
        "com.example.order.shipped",
    );
    amqp::send(
        &mut queue.sender,
        &other,
        ContentMode::Binary,
        PropertyPrefix::Colon,
    )
    .await
    .unwrap();
    let mut message = amqp::to_amqp(&order(2), ContentMode::Binary, PropertyPrefix::Colon).unwrap();
    if let Some(properties) = message.application_properties.as_mut() {
        properties.0.insert(
            "cloudEvents:priority".into(),
            SimpleValue::Double(7.5.into()),
        );
    }
    queue.sender.send(message).await.unwrap();
    let mut value = amqp::into_amqp(Default::default());
    value.body = Body::Value(AmqpValue(Value::String("not an event".into())));
    queue.sender.send(value).await.unwrap();

    let mut verdicts = Vec::new();
    for _ in 0..3 {
        let delivery = tokio::time::timeout(Duration::from_secs(10), queue.receiver.recv::<Body>())
            .await
            .expect("a message within 10 s")
            .unwrap();
        let verdict = amqp::read::<Event<OrderCreated>>(delivery.message());
        let refused = verdict.expect_err("every message here is refused");
        queue
            .receiver
            .reject(&delivery, amqp::rejection(&refused))
            .await
            .unwrap();
        verdicts.push(refused);
    }
    let text: Vec<String> = verdicts.iter().map(ToString::to_string).collect();
    assert!(text[0].contains("com.example.order.shipped"), "{}", text[0]);
    assert!(
        text[1].contains("cloudEvents:priority") && text[1].contains("double"),
        "{}",
        text[1]
    );
    assert!(matches!(verdicts[2], AmqpError::Body { .. }), "{}", text[2]);
    assert_eq!(verdicts[1].rule().unwrap().as_str(), "INTG-STD-015 R-8");
    queue.close().await;
}

/// The stream filter over an AMQP receiver: its messages as a `Stream` (a `Receiver` is not
/// one; `unfold` makes it one), each read by the binding's reader (`fe2o3_amqp::read`), then
/// `.select(filter)` with a `cesql!` checked against the payload type (`priority` an Integer,
/// `express` a Boolean). Only the selected events come out, in order, and the broken message
/// as its error.
async fn a_receiver_stream_filtered_by_cesql(broker: &RabbitMq) {
    use cloudevent_runtime::EventStreamExt;
    use cloudevent_runtime::cesql;
    use futures_util::StreamExt;

    let mut queue = Queue::open(broker, "filtered").await;
    let mut sent = Vec::new();
    for (n, priority, express) in [(1, 7, true), (2, 3, true), (3, 9, false), (4, 8, true)] {
        let event = Event::new(OrderCreated {
            order_id: format!("order-{n}"),
            priority,
            express,
            total_cents: n,
        });
        amqp::send(
            &mut queue.sender,
            &event,
            amqp::DEFAULT_MODE,
            PropertyPrefix::Colon,
        )
        .await
        .unwrap();
        sent.push(event);
    }
    let mut broken = amqp::into_amqp(Default::default());
    broken.body = Body::Value(AmqpValue(Value::String("not an event".into())));
    queue.sender.send(broken).await.unwrap();

    let filter = cesql!(OrderCreated, "priority > 5 AND express");
    let selected: Vec<Result<Event<OrderCreated>, AmqpError>> = {
        let messages = futures_util::stream::unfold(&mut queue, |queue| async move {
            let message = queue.next().await;
            Some((amqp::read::<Event<OrderCreated>>(&message), queue))
        });
        Box::pin(messages).select(filter).take(3).collect().await
    };
    let ids: Vec<&str> = selected
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .map(|e| e.data().order_id.as_str())
        .collect();
    assert_eq!(ids, ["order-1", "order-4"]);
    assert_eq!(selected[0].as_ref().unwrap(), &sent[0]);
    assert!(
        matches!(selected[2], Err(AmqpError::Body { .. })),
        "the broken message passes as its error: {:?}",
        selected[2]
    );
    queue.close().await;
}

/// The ordering stage over an AMQP receiver (issue 22): a producer stamps `sequence` with a
/// `Sequencer`; on the way in 2 and 3 are swapped and 5 is dropped. The receiver's messages,
/// read by the binding's reader as `Event<T>` and then as `AnyEvent`, go through
/// `.ordered(stage)`: sequence order out, the swap put back, the gap before 6 reported.
async fn a_receiver_stream_put_in_sequence_order(broker: &RabbitMq) {
    use cloudevent_runtime::EventStreamExt;
    use cloudevent_runtime::order::{FileSequenceStore, Sequencer};
    use common::ordering::{SENT, assert_put_in_order, label, stage, stamped};
    use futures_util::StreamExt;

    let dir = tempfile::tempdir().unwrap();
    let sequencer = Sequencer::new(FileSequenceStore::open(dir.path().join("seq.log")).unwrap());
    let stamped = stamped(&sequencer, "o-1", order).await;
    let mut queue = Queue::open(broker, "ordered").await;
    // Sent twice: read once as `Event<T>`, once as `AnyEvent`.
    for _ in 0..2 {
        for i in SENT {
            amqp::send(
                &mut queue.sender,
                &stamped[i],
                amqp::DEFAULT_MODE,
                PropertyPrefix::Colon,
            )
            .await
            .unwrap();
        }
    }
    let (typed, any) = {
        let messages = futures_util::stream::unfold(&mut queue, |queue| async move {
            let message = queue.next().await;
            Some((message, queue))
        });
        let mut messages = Box::pin(messages);
        let typed: Vec<String> = messages
            .by_ref()
            .take(5)
            .map(|m| amqp::read::<Event<OrderCreated>>(&m))
            .ordered(stage())
            .map(|out| label(out.unwrap()))
            .collect()
            .await;
        let any: Vec<String> = messages
            .by_ref()
            .take(5)
            .map(|m| amqp::read::<AnyEvent>(&m))
            .ordered(stage())
            .map(|out| label(out.unwrap()))
            .collect()
            .await;
        (typed, any)
    };
    assert_put_in_order(&typed, &any);
    queue.close().await;
}

#[tokio::test]
async fn events_round_trip_through_rabbitmq_over_amqp_1_0() {
    let started = Instant::now();
    let broker = RabbitMq::start();
    tokio::time::timeout(Duration::from_secs(60), async {
        typed_and_dynamic_events_in_binary_mode(&broker).await;
        typed_and_dynamic_events_in_structured_mode(&broker).await;
        refused_messages_get_typed_errors_and_are_rejected(&broker).await;
        a_receiver_stream_filtered_by_cesql(&broker).await;
        a_receiver_stream_put_in_sequence_order(&broker).await;
    })
    .await
    .expect("the AMQP scenarios took longer than 60 s");
    drop(broker);
    eprintln!(
        "AMQP broker test, start to stop: {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

mod hostile {
    use super::*;
    use fe2o3_amqp::types::messaging::{ApplicationProperties, Batch, Data, Properties};
    use fe2o3_amqp::types::primitives::{Binary, OrderedMap, Symbol, Timestamp};
    use proptest::prelude::*;

    fn name() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(vec![
                "cloudEvents:specversion",
                "cloudEvents:id",
                "cloudEvents:source",
                "cloudEvents:type",
                "cloudEvents:time",
                "cloudEvents:data",
                "cloudEvents:datacontenttype",
                "cloudEvents_id",
                "cloudEvents:ExtA",
                "cloudEvents:",
                "x-opt-other",
            ])
            .prop_map(str::to_owned),
            "(cloudEvents[:_])?[a-zA-Z0-9_:.-]{0,12}",
        ]
    }

    fn value() -> impl Strategy<Value = SimpleValue> {
        prop_oneof![
            prop_oneof![
                Just("1.0".to_owned()),
                Just("https://a.example.com".to_owned()),
                Just("com.example.order.created".to_owned()),
                any::<String>(),
            ]
            .prop_map(SimpleValue::String),
            any::<i64>().prop_map(SimpleValue::Long),
            any::<i32>().prop_map(SimpleValue::Int),
            any::<bool>().prop_map(SimpleValue::Bool),
            any::<i64>().prop_map(|t| SimpleValue::Timestamp(Timestamp::from_milliseconds(t))),
            proptest::collection::vec(any::<u8>(), 0..16)
                .prop_map(|b| SimpleValue::Binary(Binary::from(b))),
            any::<f64>().prop_map(|d| SimpleValue::Double(d.into())),
            any::<u64>().prop_map(SimpleValue::Ulong),
            Just(SimpleValue::Null),
            "[a-z]{0,5}".prop_map(|s| SimpleValue::Symbol(Symbol::from(s))),
        ]
    }

    fn body() -> impl Strategy<Value = Body> {
        prop_oneof![
            Just(Body::Empty),
            Just(Body::Value(AmqpValue(Value::Null))),
            any::<String>().prop_map(|s| Body::Value(AmqpValue(Value::String(s)))),
            proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..64), 1..3)
                .prop_map(|sections| Body::Data(Batch::new(
                    sections.into_iter().map(|b| Data(Binary::from(b))).collect::<Vec<_>>()
                ))),
            Just(r#"{"specversion":"1.0","id":"1","source":"https://a.example.com","type":"com.example.order.created"}"#)
                .prop_map(|s| Body::Data(Batch::new(vec![Data(Binary::from(s.as_bytes().to_vec()))]))),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

        /// Any message a broker could hand over: reading it never panics, and an event that
        /// is read comes back the same after writing it out again in either mode.
        #[test]
        fn hostile_messages_never_panic_and_accepted_events_round_trip(
            properties in proptest::collection::vec((name(), value()), 0..8),
            content_type in proptest::option::of(prop_oneof![
                Just("application/json".to_owned()),
                Just("application/cloudevents+json".to_owned()),
                Just("application/cloudevents-batch+json".to_owned()),
                Just("text/plain".to_owned()),
                any::<String>(),
            ]),
            body in body(),
        ) {
            let mut map = OrderedMap::new();
            for (name, value) in properties {
                map.insert(name, value);
            }
            let message = Message {
                header: None,
                delivery_annotations: None,
                message_annotations: None,
                properties: content_type.map(|c| Properties::builder().content_type(Symbol::from(c)).build()),
                application_properties: Some(ApplicationProperties(map)),
                body,
                footer: None,
            };
            let _ = amqp::read::<Event<OrderCreated>>(&message);
            if let Ok(event) = amqp::read::<AnyEvent>(&message) {
                for mode in [ContentMode::Binary, ContentMode::Structured] {
                    let again = amqp::to_amqp(&event, mode, PropertyPrefix::Colon).unwrap();
                    prop_assert_eq!(&amqp::read::<AnyEvent>(&again).unwrap(), &event);
                }
            }
        }
    }
}
