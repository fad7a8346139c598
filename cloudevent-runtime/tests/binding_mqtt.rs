//! The MQTT binding through a real `mosquitto` broker on 127.0.0.1 with the rumqttc MQTT 5
//! client, in binary and structured mode.
//!
//! The broker must be installed (`apt-get install -y mosquitto`; `cargo xtask test` does it);
//! a missing binary fails the test with that instruction.
#![cfg(feature = "mqtt")]

mod common;

use cloudevent_runtime::Attributes;
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use cloudevent_runtime::binding::ContentMode;
use cloudevent_runtime::binding::mqtt::{MqttPublish, MqttVersion, from_publish, to_publish};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event, ExtensionValueBuf};
use rumqttc::v5::mqttbytes::QoS;
use rumqttc::v5::mqttbytes::v5::{Packet, PublishProperties};
use rumqttc::v5::{AsyncClient, Event as MqttEvent, MqttOptions};
use serde::{Deserialize, Serialize};

#[path = "support/ports.rs"]
mod ports;
use ports::free_port;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.sensor.reading.taken",
    source = "https://sensors.example.com/hall"
)]
struct ReadingTaken {
    #[cloudevent(subject)]
    sensor: String,
    #[cloudevent(extension)]
    floor: i32,
    celsius: f64,
}

/// A `mosquitto` child with a private config on a free port; killed on drop.
struct Mosquitto {
    child: Child,
    port: u16,
    dir: PathBuf,
}

fn mosquitto_binary() -> PathBuf {
    let dirs = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default();
    dirs.into_iter()
        .chain(["/usr/sbin".into(), "/usr/bin".into(), "/usr/local/sbin".into()])
        .map(|dir| dir.join("mosquitto"))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| {
            panic!("mosquitto not found (PATH, /usr/sbin, /usr/bin): install it with `apt-get install -y mosquitto` (cargo xtask test does this)")
        })
}

impl Mosquitto {
    fn start() -> Self {
        let port = free_port();
        let dir =
            std::env::temp_dir().join(format!("cloudevent-mqtt-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config = dir.join("mosquitto.conf");
        std::fs::write(
            &config,
            format!("listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"),
        )
        .unwrap();
        let child = Command::new(mosquitto_binary())
            .arg("-c")
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("mosquitto starts");
        let broker = Mosquitto { child, port, dir };
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_err() {
            assert!(
                Instant::now() < deadline,
                "mosquitto did not listen on {address} within 10 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        broker
    }
}

impl Drop for Mosquitto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Subscribes to `topic`, publishes every message, and returns what came back, in order.
async fn round_trip(port: u16, topic: &str, messages: Vec<MqttPublish>) -> Vec<MqttPublish> {
    let mut options = MqttOptions::new("cloudevent-test", "127.0.0.1", port);
    options.set_keep_alive(Duration::from_secs(5));
    let (client, mut eventloop) = AsyncClient::new(options, 16);
    client.subscribe(topic, QoS::AtLeastOnce).await.unwrap();
    let expected = messages.len();
    let mut received = Vec::new();
    let mut subscribed = false;
    let mut to_send = Some(messages);
    let mut connected = false;
    let mut attempts = 0;
    while received.len() < expected {
        // The broker listens before it is ready to talk; on a loaded machine the first
        // connection can be refused or reset, so connecting is retried, bounded to about 5 s.
        let event = match eventloop.poll().await {
            Ok(event) => event,
            Err(error) if !connected && attempts < 25 => {
                attempts += 1;
                eprintln!("connect to mosquitto, attempt {attempts}: {error}");
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
            Err(error) => panic!("MQTT connection: {error}"),
        };
        match event {
            MqttEvent::Incoming(Packet::ConnAck(_)) => connected = true,
            MqttEvent::Incoming(Packet::SubAck(_)) if !subscribed => {
                subscribed = true;
                for message in to_send.take().unwrap_or_default() {
                    let properties = PublishProperties {
                        content_type: message.content_type,
                        user_properties: message.user_properties,
                        ..PublishProperties::default()
                    };
                    client
                        .publish_with_properties(
                            topic,
                            QoS::AtLeastOnce,
                            false,
                            message.payload,
                            properties,
                        )
                        .await
                        .unwrap();
                }
            }
            MqttEvent::Incoming(Packet::Publish(publish)) => {
                let properties = publish.properties.unwrap_or_default();
                received.push(MqttPublish {
                    content_type: properties.content_type,
                    user_properties: properties.user_properties,
                    payload: publish.payload.to_vec(),
                });
            }
            _ => {}
        }
    }
    let _ = client.disconnect().await;
    received
}

#[tokio::test]
async fn typed_and_dynamic_events_round_trip_through_mosquitto_with_mqtt5() {
    tokio::time::timeout(Duration::from_secs(30), async {
        let broker = Mosquitto::start();
        let typed = Event::new(ReadingTaken {
            sensor: "hall-3".into(),
            floor: 2,
            celsius: 21.5,
        });
        let mut dynamic = AnyEvent::new(
            "dyn-1",
            "https://sensors.example.com",
            "com.example.sensor.battery.low",
        );
        dynamic.extensions_mut().insert("region", "eu west ☕");
        let sent = vec![
            to_publish(&typed, MqttVersion::V5, ContentMode::Binary).unwrap(),
            to_publish(&typed, MqttVersion::V5, ContentMode::Structured).unwrap(),
            to_publish(&dynamic, MqttVersion::V5, ContentMode::Binary).unwrap(),
            to_publish(&dynamic, MqttVersion::V3_1_1, ContentMode::Structured).unwrap(),
        ];
        let received = round_trip(broker.port, "sensors/readings", sent.clone()).await;
        assert_eq!(received.len(), 4);
        // Binary mode: attributes travelled as user properties, datacontenttype as Content Type.
        assert!(
            received[0]
                .user_properties
                .contains(&("subject".into(), "hall-3".into()))
        );
        assert_eq!(
            received[0].content_type.as_deref(),
            Some("application/json")
        );
        for (index, publish) in received[..2].iter().enumerate() {
            let event: Event<ReadingTaken> = from_publish(publish, MqttVersion::V5).unwrap();
            assert_eq!(event.id(), typed.id(), "#{index}");
            assert_eq!(event.data(), typed.data(), "#{index}");
            assert_eq!(
                event.extension("floor"),
                Some(ExtensionValueBuf::Integer(2)),
                "#{index}"
            );
            assert_eq!(event.to_vec().unwrap(), typed.to_vec().unwrap(), "#{index}");
        }
        assert_eq!(
            from_publish::<AnyEvent>(&received[2], MqttVersion::V5).unwrap(),
            dynamic
        );
        assert_eq!(received[3].content_type, None);
        assert_eq!(
            from_publish::<AnyEvent>(&received[3], MqttVersion::V3_1_1).unwrap(),
            dynamic
        );
    })
    .await
    .expect("test took longer than 30 s");
}

/// A client subscribed to `topic` whose received PUBLISHes come out of the returned channel,
/// once the broker has acknowledged the subscription. Connecting is retried, bounded to
/// about 5 s, as in [`round_trip`].
async fn mqtt5_subscriber(
    port: u16,
    id: &str,
    topic: &str,
) -> (
    AsyncClient,
    tokio::sync::mpsc::UnboundedReceiver<MqttPublish>,
) {
    let mut options = MqttOptions::new(id, "127.0.0.1", port);
    options.set_keep_alive(Duration::from_secs(5));
    let (client, mut eventloop) = AsyncClient::new(options, 16);
    client.subscribe(topic, QoS::AtLeastOnce).await.unwrap();
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let (subscribed_tx, subscribed_rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let (mut subscribed_tx, mut attempts) = (Some(subscribed_tx), 0);
        loop {
            match eventloop.poll().await {
                Ok(MqttEvent::Incoming(Packet::SubAck(_))) => {
                    subscribed_tx.take().map(|tx| tx.send(()));
                }
                Ok(MqttEvent::Incoming(Packet::Publish(publish))) => {
                    let properties = publish.properties.unwrap_or_default();
                    let _ = tx.send(MqttPublish {
                        content_type: properties.content_type,
                        user_properties: properties.user_properties,
                        payload: publish.payload.to_vec(),
                    });
                }
                Ok(_) => {}
                Err(error) if subscribed_tx.is_some() && attempts < 25 => {
                    attempts += 1;
                    eprintln!("MQTT 5 connect, attempt {attempts}: {error}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(_) => return,
            }
        }
    });
    subscribed_rx
        .await
        .expect("MQTT 5 subscription acknowledged");
    (client, rx)
}

/// [`mqtt5_subscriber`] on MQTT 3.1.1 (rumqttc's v4 API): payloads only, no properties.
async fn mqtt3_subscriber(
    port: u16,
    id: &str,
    topic: &str,
) -> (
    rumqttc::AsyncClient,
    tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>,
) {
    let mut options = rumqttc::MqttOptions::new(id, "127.0.0.1", port);
    options.set_keep_alive(Duration::from_secs(5));
    let (client, mut eventloop) = rumqttc::AsyncClient::new(options, 16);
    client
        .subscribe(topic, rumqttc::QoS::AtLeastOnce)
        .await
        .unwrap();
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let (subscribed_tx, subscribed_rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let (mut subscribed_tx, mut attempts) = (Some(subscribed_tx), 0);
        loop {
            match eventloop.poll().await {
                Ok(rumqttc::Event::Incoming(rumqttc::Packet::SubAck(_))) => {
                    subscribed_tx.take().map(|tx| tx.send(()));
                }
                Ok(rumqttc::Event::Incoming(rumqttc::Packet::Publish(publish))) => {
                    let _ = tx.send(publish.payload.to_vec());
                }
                Ok(_) => {}
                Err(error) if subscribed_tx.is_some() && attempts < 25 => {
                    attempts += 1;
                    eprintln!("MQTT 3.1.1 connect, attempt {attempts}: {error}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(_) => return,
            }
        }
    });
    subscribed_rx
        .await
        .expect("MQTT 3.1.1 subscription acknowledged");
    (client, rx)
}

#[tokio::test]
async fn mixed_fleet_of_mqtt3_and_mqtt5_clients_through_mosquitto() {
    tokio::time::timeout(Duration::from_secs(30), async {
        let broker = Mosquitto::start();
        let topic = "sensors/mixed";
        let (_v5, mut at_v5) = mqtt5_subscriber(broker.port, "sub-v5", topic).await;
        let (v3, mut at_v3) = mqtt3_subscriber(broker.port, "sub-v3", topic).await;
        let typed = Event::new(ReadingTaken {
            sensor: "hall-4".into(),
            floor: 1,
            celsius: 19.0,
        });

        // A 3.1.1 publisher: structured mode, no properties on the wire.
        let structured = to_publish(&typed, MqttVersion::V3_1_1, ContentMode::Structured).unwrap();
        v3.publish(topic, rumqttc::QoS::AtLeastOnce, false, structured.payload)
            .await
            .unwrap();
        let from_v3_at_v5 = at_v5.recv().await.unwrap();
        assert_eq!(from_v3_at_v5.content_type, None);
        assert!(from_v3_at_v5.user_properties.is_empty());
        let event: Event<ReadingTaken> = from_publish(&from_v3_at_v5, MqttVersion::V5).unwrap();
        assert_eq!(event.to_vec().unwrap(), typed.to_vec().unwrap());
        let from_v3_at_v3 = MqttPublish {
            payload: at_v3.recv().await.unwrap(),
            ..MqttPublish::default()
        };
        let event: Event<ReadingTaken> = from_publish(&from_v3_at_v3, MqttVersion::V3_1_1).unwrap();
        assert_eq!(event.to_vec().unwrap(), typed.to_vec().unwrap());

        // A 5.0 publisher in binary mode: the 5.0 subscriber reads it; the broker strips the
        // properties for the 3.1.1 subscriber, whose reader refuses the bare data instead of
        // taking it for an event (R-9: MQTT 3.1.1 is structured only).
        let binary = to_publish(&typed, MqttVersion::V5, ContentMode::Binary).unwrap();
        let (v5_publisher, mut v5_loop) =
            AsyncClient::new(MqttOptions::new("pub-v5", "127.0.0.1", broker.port), 16);
        let properties = PublishProperties {
            content_type: binary.content_type.clone(),
            user_properties: binary.user_properties.clone(),
            ..PublishProperties::default()
        };
        v5_publisher
            .publish_with_properties(topic, QoS::AtLeastOnce, false, binary.payload, properties)
            .await
            .unwrap();
        let driver = tokio::spawn(async move { while v5_loop.poll().await.is_ok() {} });
        let binary_at_v5 = at_v5.recv().await.unwrap();
        let event: Event<ReadingTaken> = from_publish(&binary_at_v5, MqttVersion::V5).unwrap();
        assert_eq!(event.to_vec().unwrap(), typed.to_vec().unwrap());
        let binary_at_v3 = MqttPublish {
            payload: at_v3.recv().await.unwrap(),
            ..MqttPublish::default()
        };
        assert!(
            from_publish::<AnyEvent>(&binary_at_v3, MqttVersion::V3_1_1).is_err(),
            "bare data over MQTT 3.1.1 is no event"
        );
        driver.abort();
    })
    .await
    .expect("test took longer than 30 s");
}

/// The stream filter over an MQTT 5 subscription: the subscriber's PUBLISHes as a `Stream`
/// (rumqttc's event loop is not one; the channel `mqtt5_subscriber` feeds becomes one with
/// `unfold`), each read by the binding's reader (`from_publish`), then `.select(filter)` with
/// a `cesql!` checked against the payload type (`floor` an Integer). Only the selected
/// readings come out, in order, and the broken message as its error.
#[tokio::test]
async fn an_mqtt5_subscription_stream_filtered_by_cesql() {
    use cloudevent_runtime::EventStreamExt;
    use cloudevent_runtime::cesql;
    use futures_util::StreamExt;

    tokio::time::timeout(Duration::from_secs(30), async {
        let broker = Mosquitto::start();
        let topic = "sensors/filtered";
        let (client, at_subscriber) = mqtt5_subscriber(broker.port, "sub-filtered", topic).await;
        let mut publishes = Vec::new();
        for (sensor, floor) in [("hall-1", 2), ("hall-2", 0), ("yard-1", 3), ("hall-3", 5)] {
            let event = Event::new(ReadingTaken {
                sensor: sensor.into(),
                floor,
                celsius: 20.0,
            });
            publishes.push(to_publish(&event, MqttVersion::V5, ContentMode::Binary).unwrap());
        }
        publishes.push(MqttPublish {
            content_type: None,
            user_properties: Vec::new(),
            payload: b"not an event".to_vec(),
        });
        for message in publishes {
            let properties = PublishProperties {
                content_type: message.content_type,
                user_properties: message.user_properties,
                ..PublishProperties::default()
            };
            client
                .publish_with_properties(
                    topic,
                    QoS::AtLeastOnce,
                    false,
                    message.payload,
                    properties,
                )
                .await
                .unwrap();
        }

        let messages = futures_util::stream::unfold(at_subscriber, |mut rx| async move {
            rx.recv().await.map(|publish| (publish, rx))
        });
        let filter = cesql!(ReadingTaken, "floor >= 2 AND subject LIKE 'hall-%'");
        let selected: Vec<_> = Box::pin(
            messages.map(|publish| from_publish::<Event<ReadingTaken>>(&publish, MqttVersion::V5)),
        )
        .select(filter)
        .take(3)
        .collect()
        .await;
        let sensors: Vec<&str> = selected
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .map(|e| e.data().sensor.as_str())
            .collect();
        assert_eq!(sensors, ["hall-1", "hall-3"]);
        assert!(
            selected[2].is_err(),
            "the broken message passes as its error"
        );
    })
    .await
    .expect("test took longer than 30 s");
}

/// The ordering stage over an MQTT 5 subscription (issue 22): a producer stamps `sequence`
/// with a `Sequencer`; on the way in 2 and 3 are swapped and 5 is dropped. The subscriber's
/// PUBLISHes, read by the binding's reader as `Event<T>` and then as `AnyEvent`, go through
/// `.ordered(stage)`: sequence order out, the swap put back, the gap before 6 reported.
#[tokio::test]
async fn an_mqtt5_subscription_stream_put_in_sequence_order() {
    use cloudevent_runtime::EventStreamExt;
    use cloudevent_runtime::order::{FileSequenceStore, Sequencer};
    use common::ordering::{SENT, assert_put_in_order, label, stage, stamped};
    use futures_util::StreamExt;

    tokio::time::timeout(Duration::from_secs(30), async {
        let broker = Mosquitto::start();
        let topic = "sensors/ordered";
        let (client, at_subscriber) = mqtt5_subscriber(broker.port, "sub-ordered", topic).await;
        let dir = tempfile::tempdir().unwrap();
        let sequencer =
            Sequencer::new(FileSequenceStore::open(dir.path().join("seq.log")).unwrap());
        let stamped = stamped(&sequencer, "hall", |n| {
            Event::new(ReadingTaken {
                sensor: format!("hall-{n}"),
                floor: 1,
                celsius: 20.0,
            })
        })
        .await;
        // Sent twice: read once as `Event<T>`, once as `AnyEvent`.
        for _ in 0..2 {
            for i in SENT {
                let message =
                    to_publish(&stamped[i], MqttVersion::V5, ContentMode::Binary).unwrap();
                let properties = PublishProperties {
                    content_type: message.content_type,
                    user_properties: message.user_properties,
                    ..PublishProperties::default()
                };
                client
                    .publish_with_properties(
                        topic,
                        QoS::AtLeastOnce,
                        false,
                        message.payload,
                        properties,
                    )
                    .await
                    .unwrap();
            }
        }
        let messages = futures_util::stream::unfold(at_subscriber, |mut rx| async move {
            rx.recv().await.map(|publish| (publish, rx))
        });
        let mut messages = Box::pin(messages);
        let typed: Vec<String> = messages
            .by_ref()
            .take(5)
            .map(|p| from_publish::<Event<ReadingTaken>>(&p, MqttVersion::V5))
            .ordered(stage())
            .map(|out| label(out.unwrap()))
            .collect()
            .await;
        let any: Vec<String> = messages
            .by_ref()
            .take(5)
            .map(|p| from_publish::<AnyEvent>(&p, MqttVersion::V5))
            .ordered(stage())
            .map(|out| label(out.unwrap()))
            .collect()
            .await;
        assert_put_in_order(&typed, &any);
    })
    .await
    .expect("test took longer than 30 s");
}
