//! Signed events through real brokers on 127.0.0.1 (issue 42, "round trips through real
//! brokers"): the README's `OrderCreated`, signed over its context attributes, its data and
//! its `partitionkey`, is published with our binding's writer, received from the broker with
//! our binding's reader and verified; every content mode the binding has. Beside it, in each
//! cell, two copies tampered in transit are refused with their step: one byte of the data
//! changed in the message as written (binary mode: the payload is the data; structured mode:
//! it is inside the JSON event), and the signed `partitionkey` changed by a relay that re-wrote
//! the event.
//!
//! The brokers are the ones `interop_brokers.rs` starts, through the same code
//! (`support/brokers.rs`, `support/rabbitmq.rs`): mosquitto (MQTT 5 both modes, MQTT 3.1.1
//! structured), nats-server (core NATS, both modes), librdkafka's mock cluster (Kafka, both
//! modes) and RabbitMQ with its AMQP 1.0 plugin (both modes). With feature `websocket` the same
//! three events go over a real loopback WebSocket connection (no broker). Every wait is bounded.
//!
//! `cargo test -p cloudevent-runtime --all-features --test verify_brokers -- --nocapture`
//! prints the counts per broker and mode.
#![cfg(all(
    feature = "verify",
    feature = "derive",
    feature = "mqtt",
    feature = "nats",
    feature = "rdkafka",
    feature = "fe2o3-amqp"
))]

#[path = "support/brokers.rs"]
mod brokers;
#[path = "support/ports.rs"]
mod ports;
#[path = "support/rabbitmq.rs"]
mod rabbitmq;

use brokers::{
    AmqpLink, Broker, Brokers, CELL_TIMEOUT, kafka_consume, kafka_produce, mode_arg, mqtt_publish,
    mqtt5_subscriber, mqtt311_subscriber, nats_client, receive,
};
use cloudevent_runtime::binding::amqp::{self as amqp_message, PropertyPrefix};
use cloudevent_runtime::binding::fe2o3_amqp::{self as amqp, Body};
use cloudevent_runtime::binding::mqtt::{MqttVersion, from_publish, to_publish};
use cloudevent_runtime::binding::{ContentMode, kafka, nats};
use cloudevent_runtime::verify::{
    Material, SigningKey, TrustedKeys, VerifyError, material, sign_declared, verify,
};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event};
use fe2o3_amqp::types::messaging::Outcome;
use fe2o3_amqp::{Receiver, Sender};
use futures_util::StreamExt;

/// The README's event, its `partitionkey` signed.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    dataschema = "https://schemas.example.com/orders/created/v1.json",
    source = "https://orders.example.com/checkout",
    sign(extensions = "partitionkey")
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension = "partitionkey")]
    customer_id: String,
    total_cents: i64,
}

const SIGNED: [&str; 1] = ["partitionkey"];

fn producer() -> SigningKey {
    SigningKey::p256("orders-2026", &[0x42; 32]).unwrap()
}

fn keys() -> TrustedKeys {
    TrustedKeys::new().with_key_for_source(
        "orders-2026",
        producer().verifying_key(),
        "https://orders.example.com/checkout",
    )
}

/// The signed event, as its producer builds it (fresh id, time, traceability extensions).
fn signed(customer_id: &str) -> Event<OrderCreated> {
    let mut event = Event::new(OrderCreated {
        order_id: "order-8842".into(),
        customer_id: customer_id.into(),
        total_cents: 14999,
    });
    sign_declared(&mut event, &producer()).unwrap();
    event
}

/// The three events of a cell: the signed one, the same with a relay's change to the signed
/// extension (its `dssematerial` kept), and the signed one again, to be changed on the wire.
struct Sent {
    good: Event<OrderCreated>,
    relayed: AnyEvent,
    digest: Material,
}

fn sent() -> Sent {
    let good = signed("cust-1029");
    let mut relayed = AnyEvent::from_slice(&serde_json::to_vec(&good).unwrap()).unwrap();
    relayed.extensions_mut().insert("partitionkey", "cust-1030");
    let digest = material(&good, &SIGNED).unwrap();
    Sent {
        good,
        relayed,
        digest,
    }
}

/// One byte of the data changed in a message's payload (`14999` becomes `14998`), as a
/// broker or a proxy that corrupts or edits the message would.
fn tamper_data(payload: &mut [u8]) {
    let at = payload
        .windows(5)
        .position(|w| w == b"14999")
        .expect("the data is in the payload");
    payload[at + 4] = b'8';
}

/// How many of a cell's messages verified and were refused.
#[derive(Debug)]
struct Outcomes {
    verified: usize,
    refused: usize,
}

/// Verifies what arrived: the good event verifies with the digest signed, the two tampered
/// ones are refused (the signed extension at step 9.1, the data byte at 8.1).
fn check(cell: &str, sent: &Sent, received: Vec<Result<AnyEvent, String>>) -> Outcomes {
    assert_eq!(received.len(), 3, "{cell}: 3 messages sent, {received:?}");
    let events: Vec<AnyEvent> = received
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{cell}: our reader refused the message: {e}")))
        .collect();
    let results: Vec<_> = events.iter().map(|event| verify(event, &keys())).collect();
    let verified = results[0]
        .as_ref()
        .unwrap_or_else(|e| panic!("{cell}: {e}"));
    assert_eq!(verified.material(), &sent.digest, "{cell}: digest");
    assert_eq!(
        material(&events[0], &SIGNED).unwrap(),
        sent.digest,
        "{cell}"
    );
    assert_eq!(
        verified
            .event()
            .extensions()
            .get("partitionkey")
            .and_then(|v| v.as_str()),
        Some("cust-1029"),
        "{cell}"
    );
    assert_eq!(
        results[1].as_ref().err(),
        Some(&VerifyError::ExtMismatch {
            signed: vec!["partitionkey".into()]
        }),
        "{cell}: the relay's change"
    );
    assert_eq!(
        results[2].as_ref().err(),
        Some(&VerifyError::CoreMismatch),
        "{cell}: the data byte"
    );
    Outcomes {
        verified: results.iter().filter(|r| r.is_ok()).count(),
        refused: results.iter().filter(|r| r.is_err()).count(),
    }
}

/// Publishes the cell's three messages through `broker` in `mode` and reads them back.
async fn round_trip(
    brokers: &Brokers,
    broker: Broker,
    mode: ContentMode,
    sent: &Sent,
) -> Vec<Result<AnyEvent, String>> {
    let topic = format!("verify{}{}", broker.arg(), mode_arg(mode));
    let address = brokers.address(broker);
    match broker {
        Broker::Mqtt5 | Broker::Mqtt311 => {
            let version = if broker == Broker::Mqtt5 {
                MqttVersion::V5
            } else {
                MqttVersion::V3_1_1
            };
            let mut publishes = vec![
                to_publish(&sent.good, version, mode).unwrap(),
                to_publish(&sent.relayed, version, mode).unwrap(),
                to_publish(&sent.good, version, mode).unwrap(),
            ];
            tamper_data(&mut publishes[2].payload);
            let port = brokers.mosquitto.port;
            let received = if broker == Broker::Mqtt5 {
                let (_client, mut rx) = mqtt5_subscriber(port, &topic).await;
                publish_mqtt(broker, port, &topic, publishes).await;
                receive(&mut rx, 3).await
            } else {
                let (_client, mut rx) = mqtt311_subscriber(port, &topic).await;
                publish_mqtt(broker, port, &topic, publishes).await;
                receive(&mut rx, 3).await
            };
            received
                .iter()
                .map(|p| from_publish::<AnyEvent>(p, version).map_err(|e| e.to_string()))
                .collect()
        }
        Broker::Nats => {
            let client = nats_client(&address).await;
            let mut subscription = client.subscribe(topic.clone()).await.expect("subscribe");
            client.flush().await.expect("flush");
            let mut messages = vec![
                nats::to_message(&sent.good, mode).unwrap(),
                nats::to_message(&sent.relayed, mode).unwrap(),
                nats::to_message(&sent.good, mode).unwrap(),
            ];
            let mut payload = messages[2].1.to_vec();
            tamper_data(&mut payload);
            messages[2].1 = payload.into();
            for (headers, payload) in messages {
                client
                    .publish_with_headers(topic.clone(), headers, payload)
                    .await
                    .expect("published");
            }
            client.flush().await.expect("flush");
            let mut reads = Vec::new();
            let deadline = tokio::time::Instant::now() + CELL_TIMEOUT;
            while reads.len() < 3 {
                match tokio::time::timeout_at(deadline, subscription.next()).await {
                    Ok(Some(message)) => reads
                        .push(nats::from_message::<AnyEvent>(&message).map_err(|e| e.to_string())),
                    _ => break,
                }
            }
            reads
        }
        Broker::Kafka => {
            brokers
                .kafka
                .create_topic(&topic, 1, 1)
                .expect("topic created");
            let mut records = vec![
                kafka::to_record(&sent.good, mode).unwrap(),
                kafka::to_record(&sent.relayed, mode).unwrap(),
                kafka::to_record(&sent.good, mode).unwrap(),
            ];
            tamper_data(records[2].value.as_mut().expect("a record value"));
            tokio::task::block_in_place(|| {
                kafka_produce(&address, &topic, &records);
                kafka_consume(&address, &topic, 3)
            })
            .iter()
            .map(|record| kafka::from_record::<AnyEvent>(record).map_err(|e| e.to_string()))
            .collect()
        }
        Broker::Amqp => {
            let mut link = AmqpLink::open(brokers.rabbitmq(), &topic).await;
            let mut receiver = Receiver::attach(
                &mut link.session,
                format!("{topic}-in"),
                link.address.as_str(),
            )
            .await
            .expect("our AMQP receiver attached");
            let mut sender = Sender::attach(
                &mut link.session,
                format!("{topic}-out"),
                link.address.as_str(),
            )
            .await
            .expect("our AMQP sender attached");
            let prefix = PropertyPrefix::Colon;
            let mut messages = vec![
                amqp_message::to_message(&sent.good, mode, prefix).unwrap(),
                amqp_message::to_message(&sent.relayed, mode, prefix).unwrap(),
                amqp_message::to_message(&sent.good, mode, prefix).unwrap(),
            ];
            tamper_data(messages[2].body.as_mut().expect("a body"));
            for message in messages {
                let outcome =
                    tokio::time::timeout(CELL_TIMEOUT, sender.send(amqp::into_amqp(message)))
                        .await
                        .expect("our AMQP message settled in time")
                        .expect("our AMQP message sent");
                assert!(matches!(outcome, Outcome::Accepted(_)), "{outcome:?}");
            }
            let mut reads = Vec::new();
            let deadline = tokio::time::Instant::now() + CELL_TIMEOUT;
            while reads.len() < 3 {
                match tokio::time::timeout_at(deadline, receiver.recv::<Body>()).await {
                    Ok(Ok(delivery)) => {
                        receiver.accept(&delivery).await.expect("accepted");
                        reads.push(
                            amqp::read::<AnyEvent>(delivery.message()).map_err(|e| e.to_string()),
                        );
                    }
                    _ => break,
                }
            }
            let _ = sender.detach().await;
            let _ = receiver.detach().await;
            link.close().await;
            reads
        }
    }
}

async fn publish_mqtt(
    broker: Broker,
    port: u16,
    topic: &str,
    publishes: Vec<cloudevent_runtime::binding::mqtt::MqttPublish>,
) {
    tokio::time::timeout(CELL_TIMEOUT, mqtt_publish(broker, port, topic, publishes))
        .await
        .expect("our PUBLISHes acknowledged in time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_event_verifies_after_every_broker_and_a_tampered_one_does_not() {
    let brokers = Brokers::start();
    let mut counts = Vec::new();
    for broker in [
        Broker::Mqtt5,
        Broker::Mqtt311,
        Broker::Nats,
        Broker::Kafka,
        Broker::Amqp,
    ] {
        for &mode in broker.modes() {
            let cell = format!("{} {}", broker.label(), mode_arg(mode));
            let sent = sent();
            let received = round_trip(&brokers, broker, mode, &sent).await;
            let outcomes = check(&cell, &sent, received);
            counts.push(format!(
                "{cell}: {} verified, {} refused",
                outcomes.verified, outcomes.refused
            ));
        }
    }
    eprintln!("{}", counts.join("\n"));
    assert_eq!(counts.len(), 9);
}

/// The same three events over a real WebSocket connection on loopback (our client and our
/// server, `cloudevents.json`): one verified, two refused.
#[cfg(feature = "websocket")]
#[tokio::test]
async fn a_signed_event_verifies_after_a_websocket_connection() {
    use cloudevent_runtime::binding::websocket::{self, Subprotocol};
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;

    let test = async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/events", listener.local_addr().unwrap());
        let consumer = tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.unwrap();
            let mut stream = websocket::accept(tcp, &[Subprotocol::Json]).await.unwrap();
            let mut received = Vec::new();
            while let Some(event) = stream.receive::<AnyEvent>().await {
                received.push(event.map_err(|e| e.to_string()));
            }
            received
        });
        let sent = sent();
        let mut stream = websocket::connect(url.as_str(), &[Subprotocol::Json])
            .await
            .unwrap();
        stream.send(&sent.good).await.unwrap();
        stream.send(&sent.relayed).await.unwrap();
        // The third message changed on the wire: written, edited, sent as a raw text frame.
        let mut payload = websocket::encode(&sent.good, Subprotocol::Json).unwrap();
        tamper_data(&mut payload);
        let mut raw = stream.into_inner();
        raw.send(Message::text(String::from_utf8(payload).unwrap()))
            .await
            .unwrap();
        raw.close(None).await.unwrap();
        let outcomes = check("WebSocket", &sent, consumer.await.unwrap());
        eprintln!(
            "WebSocket cloudevents.json: {} verified, {} refused",
            outcomes.verified, outcomes.refused
        );
    };
    tokio::time::timeout(CELL_TIMEOUT, test)
        .await
        .expect("within the cell's time");
}
