//! The NATS binding against a real `nats-server -js` on 127.0.0.1, started and stopped here.
//!
//! The server binary must be installed (`apt-get install -y nats-server`; `cargo xtask test`
//! does it). A missing binary fails the tests with that instruction: a skipped integration
//! test would hide a broken binding in CI.
#![cfg(feature = "nats")]

use cloudevent_runtime::Attributes;
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use async_nats::jetstream;
use async_nats::jetstream::consumer::{AckPolicy, PullConsumer, pull};
use cloudevent_runtime::binding::ContentMode;
use cloudevent_runtime::binding::nats::{self, Handled};
use cloudevent_runtime::dedupe::InMemoryDeduplicator;
use cloudevent_runtime::{AnyEvent, CloudEvent, Event, ExtensionValueBuf};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

#[path = "support/ports.rs"]
mod ports;
use ports::free_port;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.shipped",
    source = "https://orders.example.com/shipping"
)]
struct OrderShipped {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension)]
    parcels: i32,
}

fn shipped(order_id: &str) -> Event<OrderShipped> {
    Event::new(OrderShipped {
        order_id: order_id.into(),
        parcels: 2,
    })
}

/// A `nats-server` child process with JetStream in a fresh store directory; killed on drop.
struct NatsServer {
    child: Child,
    url: String,
    store: PathBuf,
}

fn nats_server_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("NATS_SERVER_BIN") {
        return PathBuf::from(path);
    }
    let candidates = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .chain([
            "/usr/sbin".into(),
            "/usr/bin".into(),
            "/usr/local/bin".into(),
        ])
        .map(|dir| dir.join("nats-server"));
    for candidate in candidates {
        if candidate.is_file() {
            return candidate;
        }
    }
    panic!(
        "nats-server not found (PATH, /usr/sbin, /usr/bin, /usr/local/bin, or NATS_SERVER_BIN): \
         install it with `apt-get install -y nats-server` (cargo xtask test does this)"
    );
}

impl NatsServer {
    fn start() -> Self {
        let port = free_port();
        let store =
            std::env::temp_dir().join(format!("cloudevent-nats-{}-{port}", std::process::id()));
        let child = Command::new(nats_server_binary())
            .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
            .arg(&store)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server starts");
        let server = NatsServer {
            child,
            url: format!("nats://127.0.0.1:{port}"),
            store,
        };
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_err() {
            assert!(
                Instant::now() < deadline,
                "nats-server did not listen on {address} within 10 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    /// A connected client. The server listens before it is ready to talk: on a loaded machine
    /// (CI with the other core busy) a first connection was once reset by the server, so a
    /// few attempts, bounded to about 5 s, are made before giving up.
    async fn client(&self) -> async_nats::Client {
        let mut attempt = 1;
        loop {
            match async_nats::connect(&self.url).await {
                Ok(client) => return client,
                Err(error) if attempt < 25 => {
                    attempt += 1;
                    eprintln!("connect to nats-server, attempt {attempt}: {error}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(error) => panic!(
                    "connect to nats-server {} after {attempt} attempts: {error}",
                    self.url
                ),
            }
        }
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.store);
    }
}

async fn bounded<F: std::future::Future<Output = ()>>(test: F) {
    tokio::time::timeout(Duration::from_secs(60), test)
        .await
        .expect("test took longer than 60 s");
}

async fn orders_stream(context: &jetstream::Context) -> jetstream::stream::Stream {
    context
        .get_or_create_stream(jetstream::stream::Config {
            name: "ORDERS".into(),
            subjects: vec!["orders.>".into()],
            duplicate_window: Duration::from_secs(120),
            ..Default::default()
        })
        .await
        .expect("stream")
}

async fn consumer(stream: &jetstream::stream::Stream, ack_wait: Duration) -> PullConsumer {
    stream
        .get_or_create_consumer(
            "billing",
            pull::Config {
                durable_name: Some("billing".into()),
                ack_policy: AckPolicy::Explicit,
                ack_wait,
                ..Default::default()
            },
        )
        .await
        .expect("consumer")
}

async fn fetch_one(consumer: &PullConsumer, wait: Duration) -> Option<jetstream::Message> {
    let mut batch = consumer
        .fetch()
        .max_messages(1)
        .expires(wait)
        .messages()
        .await
        .expect("fetch");
    batch.next().await.map(|m| m.expect("message"))
}

#[tokio::test]
async fn typed_and_dynamic_events_round_trip_over_core_nats() {
    bounded(async {
        let server = NatsServer::start();
        let client = server.client().await;
        let mut subscriber = client.subscribe("orders.shipped").await.unwrap();
        client.flush().await.unwrap();

        let sent = shipped("order-7");
        nats::publish(&client, "orders.shipped", &sent, nats::DEFAULT_MODE)
            .await
            .unwrap();
        let message = subscriber.next().await.unwrap();
        assert_eq!(
            message
                .headers
                .as_ref()
                .unwrap()
                .get("Content-Type")
                .unwrap()
                .as_str(),
            "application/cloudevents+json; charset=utf-8"
        );
        let received: Event<OrderShipped> = nats::from_message(&message).unwrap();
        assert_eq!(received.id(), sent.id());
        assert_eq!(received.data(), sent.data());
        assert_eq!(received.to_vec().unwrap(), sent.to_vec().unwrap());

        let mut any = AnyEvent::new(
            "dyn-1",
            "https://orders.example.com",
            "com.example.order.noted",
        );
        any.extensions_mut().insert("region", "eu west");
        nats::publish(&client, "orders.shipped", &any, nats::DEFAULT_MODE)
            .await
            .unwrap();
        let message = subscriber.next().await.unwrap();
        assert_eq!(nats::from_message::<AnyEvent>(&message).unwrap(), any);
        // The typed reader refuses an event of another type.
        assert!(nats::from_message::<Event<OrderShipped>>(&message).is_err());
    })
    .await;
}

#[tokio::test]
async fn jetstream_round_trip_and_duplicate_publish_is_dropped() {
    bounded(async {
        let server = NatsServer::start();
        let context = jetstream::new(server.client().await);
        let mut stream = orders_stream(&context).await;

        let event = shipped("order-8");
        let first = nats::publish_jetstream(&context, "orders.shipped", &event, nats::DEFAULT_MODE)
            .await
            .unwrap();
        assert!(!first.duplicate);
        let second =
            nats::publish_jetstream(&context, "orders.shipped", &event, nats::DEFAULT_MODE)
                .await
                .unwrap();
        assert!(
            second.duplicate,
            "the server must drop a second publish with the same Nats-Msg-Id"
        );
        assert_eq!(second.sequence, first.sequence);
        assert_eq!(stream.info().await.unwrap().state.messages, 1);

        // A new emission (new id, ADR-0003) is a new message.
        let again = nats::publish_jetstream(
            &context,
            "orders.shipped",
            &shipped("order-8"),
            nats::DEFAULT_MODE,
        )
        .await
        .unwrap();
        assert!(!again.duplicate);
        assert_eq!(stream.info().await.unwrap().state.messages, 2);

        let consumer = consumer(&stream, Duration::from_secs(5)).await;
        let message = fetch_one(&consumer, Duration::from_secs(5))
            .await
            .expect("a message");
        let received: Event<OrderShipped> = nats::from_message(&message).unwrap();
        assert_eq!(received.id(), event.id());
        assert_eq!(received.data(), event.data());
        message.ack().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn consumer_dying_before_ack_gets_the_event_again_and_the_side_effect_happens_once() {
    bounded(async {
        let server = NatsServer::start();
        let context = jetstream::new(server.client().await);
        let stream = orders_stream(&context).await;
        let ack_wait = Duration::from_secs(1);
        let event = shipped("order-9");
        nats::publish_jetstream(&context, "orders.shipped", &event, nats::DEFAULT_MODE)
            .await
            .unwrap();

        // The deduplicator outlives the consumer, as a shared store would.
        let seen = Arc::new(InMemoryDeduplicator::new(1000, Duration::from_secs(600)));
        let side_effects = Arc::new(AtomicU32::new(0));

        // Consumer 1 does the side effect, then dies before it can ack.
        {
            let consumer = consumer(&stream, ack_wait).await;
            let message = fetch_one(&consumer, Duration::from_secs(5))
                .await
                .expect("first delivery");
            assert_eq!(message.info().unwrap().delivered, 1);
            let (seen, side_effects) = (seen.clone(), side_effects.clone());
            let (done_tx, done_rx) = tokio::sync::oneshot::channel();
            let task = tokio::spawn(async move {
                let _ = nats::handle_once::<Event<OrderShipped>, _, _, _, ()>(
                    &message,
                    &*seen,
                    |_event| async {
                        side_effects.fetch_add(1, Ordering::SeqCst);
                        let _ = done_tx.send(());
                        std::future::pending::<()>().await; // the process dies here
                        Ok(())
                    },
                )
                .await;
            });
            done_rx.await.unwrap();
            task.abort();
            let _ = task.await;
            drop(consumer);
        }
        assert_eq!(side_effects.load(Ordering::SeqCst), 1);

        // Consumer 2 (same durable) gets the unacknowledged event again after ack_wait.
        let consumer = consumer(&stream, ack_wait).await;
        let message = fetch_one(&consumer, Duration::from_secs(10))
            .await
            .expect("redelivery");
        assert_eq!(
            message.info().unwrap().delivered,
            2,
            "JetStream redelivers at least once"
        );
        let handled = nats::handle_once::<Event<OrderShipped>, _, _, _, ()>(
            &message,
            &*seen,
            |_event| async {
                side_effects.fetch_add(1, Ordering::SeqCst);
                Ok(())
            },
        )
        .await
        .unwrap();
        match handled {
            Handled::Duplicate(received) => assert_eq!(received.id(), event.id()),
            other => panic!("expected a duplicate, got {other:?}"),
        }
        assert_eq!(
            side_effects.load(Ordering::SeqCst),
            1,
            "the side effect happens once"
        );

        // Acknowledged now: nothing more comes after another ack_wait.
        tokio::time::sleep(ack_wait + Duration::from_millis(200)).await;
        assert!(
            fetch_one(&consumer, Duration::from_millis(500))
                .await
                .is_none()
        );
    })
    .await;
}

#[tokio::test]
async fn failed_handler_is_retried_and_invalid_event_terminated() {
    bounded(async {
        let server = NatsServer::start();
        let client = server.client().await;
        let context = jetstream::new(client.clone());
        let stream = orders_stream(&context).await;
        let consumer = consumer(&stream, Duration::from_secs(1)).await;
        let seen = InMemoryDeduplicator::new(1000, Duration::from_secs(600));

        nats::publish_jetstream(
            &context,
            "orders.shipped",
            &shipped("order-10"),
            nats::DEFAULT_MODE,
        )
        .await
        .unwrap();
        let message = fetch_one(&consumer, Duration::from_secs(5)).await.unwrap();
        let handled =
            nats::handle_once::<Event<OrderShipped>, _, _, _, &str>(&message, &seen, |_| async {
                Err("db down")
            })
            .await
            .unwrap();
        assert!(matches!(handled, Handled::Retry(_, "db down")));
        // Nak'd and forgotten: it comes again and is processed this time.
        let message = fetch_one(&consumer, Duration::from_secs(5)).await.unwrap();
        let handled =
            nats::handle_once::<Event<OrderShipped>, _, _, _, &str>(&message, &seen, |_| async {
                Ok(())
            })
            .await
            .unwrap();
        assert!(matches!(handled, Handled::Processed(_)));

        // Not an event: terminated, reported, never redelivered.
        context
            .publish("orders.junk", "not json".into())
            .await
            .unwrap()
            .await
            .unwrap();
        let message = fetch_one(&consumer, Duration::from_secs(5)).await.unwrap();
        let result =
            nats::handle_once::<AnyEvent, _, _, _, ()>(&message, &seen, |_| async { Ok(()) }).await;
        assert!(result.is_err());
        tokio::time::sleep(Duration::from_millis(1300)).await;
        assert!(
            fetch_one(&consumer, Duration::from_millis(500))
                .await
                .is_none()
        );
    })
    .await;
}

#[tokio::test]
async fn binary_mode_round_trips_typed_and_dynamic_events_over_core_nats() {
    bounded(async {
        let server = NatsServer::start();
        let client = server.client().await;
        let mut subscriber = client.subscribe("orders.shipped").await.unwrap();
        client.flush().await.unwrap();

        let typed = shipped("order-11");
        let mut dynamic = AnyEvent::new(
            "dyn-2",
            "https://orders.example.com",
            "com.example.order.noted",
        );
        dynamic
            .extensions_mut()
            .insert("region", "eu west ☕ \"quoted\" 100%");
        dynamic.set_datacontenttype(Some("text/plain; charset=utf-8".into()));
        dynamic.set_data(Some(cloudevent_runtime::Data::Text("note".into())));
        nats::publish(&client, "orders.shipped", &typed, ContentMode::Binary)
            .await
            .unwrap();
        nats::publish(&client, "orders.shipped", &dynamic, ContentMode::Binary)
            .await
            .unwrap();
        nats::publish(&client, "orders.shipped", &typed, ContentMode::Structured)
            .await
            .unwrap();

        // Binary: every attribute a `ce-` header as the server delivered it, no Content-Type.
        let message = subscriber.next().await.unwrap();
        let headers = message.headers.as_ref().expect("binary mode has headers");
        assert_eq!(headers.get("ce-id").unwrap().as_str(), typed.id());
        assert_eq!(headers.get("ce-subject").unwrap().as_str(), "order-11");
        assert_eq!(headers.get("ce-parcels").unwrap().as_str(), "2");
        assert_eq!(
            headers.get("ce-datacontenttype").unwrap().as_str(),
            "application/json"
        );
        assert!(headers.get("Content-Type").is_none());
        let received: Event<OrderShipped> = nats::from_message(&message).unwrap();
        assert_eq!(received.id(), typed.id());
        assert_eq!(received.data(), typed.data());
        assert_eq!(
            received.extension("parcels"),
            Some(ExtensionValueBuf::Integer(2))
        );
        assert_eq!(received.to_vec().unwrap(), typed.to_vec().unwrap());

        let message = subscriber.next().await.unwrap();
        let headers = message.headers.as_ref().unwrap();
        assert_eq!(
            headers.get("ce-region").unwrap().as_str(),
            "eu%20west%20%E2%98%95%20%22quoted%22%20100%25"
        );
        assert_eq!(&message.payload[..], b"note");
        assert_eq!(nats::from_message::<AnyEvent>(&message).unwrap(), dynamic);
        assert!(nats::from_message::<Event<OrderShipped>>(&message).is_err());

        // The same reader takes structured mode from the same subscription.
        let message = subscriber.next().await.unwrap();
        let received: Event<OrderShipped> = nats::from_message(&message).unwrap();
        assert_eq!(received.to_vec().unwrap(), typed.to_vec().unwrap());
    })
    .await;
}

#[tokio::test]
async fn jetstream_binary_mode_dedupes_publishes_and_redeliveries() {
    bounded(async {
        let server = NatsServer::start();
        let context = jetstream::new(server.client().await);
        let mut stream = orders_stream(&context).await;
        let event = shipped("order-12");
        let first =
            nats::publish_jetstream(&context, "orders.shipped", &event, ContentMode::Binary)
                .await
                .unwrap();
        let second =
            nats::publish_jetstream(&context, "orders.shipped", &event, ContentMode::Binary)
                .await
                .unwrap();
        assert!(!first.duplicate);
        assert!(
            second.duplicate,
            "Nats-Msg-Id = event id in binary mode too"
        );
        assert_eq!(stream.info().await.unwrap().state.messages, 1);

        let consumer = consumer(&stream, Duration::from_secs(1)).await;
        let seen = InMemoryDeduplicator::new(1000, Duration::from_secs(600));
        let message = fetch_one(&consumer, Duration::from_secs(5)).await.unwrap();
        assert_eq!(
            message
                .headers
                .as_ref()
                .unwrap()
                .get("ce-id")
                .unwrap()
                .as_str(),
            event.id()
        );
        // The handler fails: Nak'd, redelivered in binary mode, processed once.
        let handled =
            nats::handle_once::<Event<OrderShipped>, _, _, _, &str>(&message, &seen, |_| async {
                Err("db down")
            })
            .await
            .unwrap();
        assert!(matches!(handled, Handled::Retry(_, "db down")));
        let message = fetch_one(&consumer, Duration::from_secs(5)).await.unwrap();
        assert_eq!(message.info().unwrap().delivered, 2);
        let handled =
            nats::handle_once::<Event<OrderShipped>, _, _, _, &str>(&message, &seen, |_| async {
                Ok(())
            })
            .await
            .unwrap();
        match handled {
            Handled::Processed(received) => {
                assert_eq!(received.id(), event.id());
                assert_eq!(received.data(), event.data());
            }
            other => panic!("expected processing, got {other:?}"),
        }
    })
    .await;
}
