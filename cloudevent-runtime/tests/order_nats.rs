//! Issue 22: the JetStream KV sequence store against a real `nats-server -js` on 127.0.0.1,
//! started and stopped here (install it with `apt-get install -y nats-server`; `cargo xtask
//! test` does it). Two replicas share a group: compare-and-set keeps their numbers unique and
//! contiguous; a server outage is a typed error and the event stays unstamped. Three
//! consumer replicas share one `JetStreamDeduplicator` bucket: each event is new to exactly
//! one of them.
#![cfg(feature = "nats")]

mod common;

use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use async_nats::jetstream::{self, kv::Store as Bucket, stream::StorageType};
use cloudevent_runtime::order::{JetStreamSequenceStore, SequenceError, SequenceStore, Sequencer};
use cloudevent_runtime::{AnyEvent, Attributes as _};

#[path = "support/ports.rs"]
mod ports;
use ports::free_port;

struct NatsServer {
    child: Child,
    url: String,
    store: PathBuf,
}

impl NatsServer {
    fn start() -> Self {
        let port = free_port();
        let store = std::env::temp_dir().join(format!(
            "cloudevent-order-nats-{}-{port}",
            std::process::id()
        ));
        let binary = std::env::var_os("NATS_SERVER_BIN").unwrap_or_else(|| "nats-server".into());
        let child = Command::new(binary)
            .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
            .arg(&store)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server starts (apt-get install -y nats-server)");
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_err() {
            assert!(Instant::now() < deadline, "nats-server did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        NatsServer {
            child,
            url: format!("nats://127.0.0.1:{port}"),
            store,
        }
    }

    async fn bucket(&self) -> Bucket {
        let mut attempt = 0;
        let client = loop {
            match async_nats::connect(&self.url).await {
                Ok(client) => break client,
                Err(error) if attempt < 25 => {
                    attempt += 1;
                    eprintln!("connect: {error}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(error) => panic!("connect: {error}"),
            }
        };
        // The bucket's stream made as `create_key_value` makes it: that call first asks for
        // the account's limits, whose reply from Debian's nats-server 2.9 async-nats 0.51
        // cannot parse.
        let context = jetstream::new(client);
        context
            .get_or_create_stream(jetstream::stream::Config {
                name: "KV_sequences".into(),
                subjects: vec!["$KV.sequences.>".into()],
                max_messages_per_subject: 1,
                storage: StorageType::File,
                allow_rollup: true,
                deny_delete: true,
                allow_direct: true,
                discard: jetstream::stream::DiscardPolicy::New,
                ..Default::default()
            })
            .await
            .expect("bucket stream");
        context.get_key_value("sequences").await.expect("bucket")
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.store);
    }
}

fn event() -> AnyEvent {
    let mut event = AnyEvent::new(
        "e",
        "https://orders.example.com/checkout",
        "com.example.order.updated",
    );
    event
        .set_extension("partitionkey", "order-7".into())
        .unwrap();
    event
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_never_issue_one_number_twice() {
    tokio::time::timeout(Duration::from_secs(90), async {
        let server = NatsServer::start();
        // Two clients, two stores, one bucket: two producer replicas.
        let replicas = [
            Sequencer::new(JetStreamSequenceStore::new(server.bucket().await)),
            Sequencer::new(JetStreamSequenceStore::new(server.bucket().await)),
        ];
        let mut tasks = Vec::new();
        for sequencer in replicas {
            tasks.push(tokio::spawn(async move {
                let mut numbers = Vec::new();
                for _ in 0..150 {
                    let mut event = event();
                    numbers.push(sequencer.stamp(&mut event).await.unwrap());
                }
                numbers
            }));
        }
        let mut all = Vec::new();
        for task in tasks {
            let numbers = task.await.unwrap();
            // Each replica's own numbers grow.
            assert!(numbers.windows(2).all(|w| w[0] < w[1]));
            all.extend(numbers);
        }
        all.sort_unstable();
        assert_eq!(all, (1..=300).collect::<Vec<i32>>());
        // Another key counts on its own.
        let store = JetStreamSequenceStore::new(server.bucket().await);
        assert_eq!(
            store
                .reserve("https://orders.example.com/checkout", None)
                .await
                .unwrap(),
            1
        );
    })
    .await
    .expect("bounded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_is_a_typed_error_and_nothing_is_stamped() {
    tokio::time::timeout(Duration::from_secs(90), async {
        let mut server = NatsServer::start();
        let sequencer = Sequencer::new(JetStreamSequenceStore::new(server.bucket().await));
        let mut first = event();
        assert_eq!(sequencer.stamp(&mut first).await.unwrap(), 1);
        server.stop();
        let mut second = event();
        let error = sequencer.stamp(&mut second).await.unwrap_err();
        assert!(matches!(error, SequenceError::Unavailable(_)), "{error:?}");
        assert!(second.extension_value("sequence").is_none());
    })
    .await
    .expect("bounded");
}

#[test]
fn three_replicas_share_one_dedupe_window() {
    use cloudevent_runtime::dedupe::{Deduplicator, Delivery, JetStreamDeduplicator};
    let server = NatsServer::start();
    let replicas: Vec<JetStreamDeduplicator> = (0..3)
        .map(|_| {
            JetStreamDeduplicator::connect(&server.url, "dedupe", Duration::from_secs(1)).unwrap()
        })
        .collect();
    let news: Vec<usize> = std::thread::scope(|scope| {
        let handles: Vec<_> = replicas
            .iter()
            .map(|replica| {
                scope.spawn(move || {
                    (0..100)
                        .filter(|n| {
                            replica.check("/orders", &format!("e{n}")).unwrap() == Delivery::New
                        })
                        .count()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    // Every one of the 100 events is new to exactly one replica.
    assert_eq!(news.iter().sum::<usize>(), 100, "{news:?}");
    // A failed handler forgets: the redelivery is processed, by whichever replica gets it.
    replicas[0].forget("/orders", "e7").unwrap();
    assert_eq!(replicas[2].check("/orders", "e7").unwrap(), Delivery::New);
    assert_eq!(
        replicas[1].check("/orders", "e7").unwrap(),
        Delivery::Duplicate
    );
    // The bucket's max_age is the window.
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(replicas[1].check("/orders", "e8").unwrap(), Delivery::New);
}

#[test]
fn a_claim_holds_for_its_lease_and_an_expired_one_is_taken_over_once() {
    use cloudevent_runtime::dedupe::{Claim, Deduplicator, JetStreamDeduplicator};
    let server = NatsServer::start();
    let window = Duration::from_secs(60);
    let replicas: Vec<JetStreamDeduplicator> = (0..3)
        .map(|_| JetStreamDeduplicator::connect(&server.url, "claims", window).unwrap())
        .collect();
    let lease = Duration::from_millis(600);
    // A is killed after its claim (no commit); B gets the redelivery while the lease holds.
    assert_eq!(
        replicas[0].claim("/s", "e1", lease).unwrap(),
        Claim::Claimed
    );
    assert_eq!(
        replicas[1].claim("/s", "e1", lease).unwrap(),
        Claim::InFlight
    );
    std::thread::sleep(Duration::from_millis(800));
    // The lease ran out: B and C race to take it over; the compare-and-set lets one win.
    let taken: Vec<Claim> = std::thread::scope(|scope| {
        let handles: Vec<_> = replicas[1..]
            .iter()
            .map(|replica| scope.spawn(move || replica.claim("/s", "e1", lease).unwrap()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(
        taken.iter().filter(|c| **c == Claim::Claimed).count(),
        1,
        "{taken:?}"
    );
    replicas[2].commit("/s", "e1").unwrap();
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(replicas[0].claim("/s", "e1", lease).unwrap(), Claim::Done);
    // forget releases a claim at once.
    assert_eq!(
        replicas[0].claim("/s", "e2", window).unwrap(),
        Claim::Claimed
    );
    replicas[0].forget("/s", "e2").unwrap();
    assert_eq!(
        replicas[1].claim("/s", "e2", window).unwrap(),
        Claim::Claimed
    );
}

#[derive(
    Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, cloudevent_runtime::CloudEvent,
)]
#[cloudevent(
    type = "com.example.order.updated",
    source = "https://orders.example.com/checkout"
)]
struct OrderUpdated {
    #[cloudevent(subject)]
    order_id: String,
}

/// The ordering stage over NATS subscriptions (issue 22): a producer stamps `sequence`
/// through the JetStream KV store; on the way in 2 and 3 are swapped and 5 is dropped. Two
/// subscribers on the subject read through the binding's reader, one as `Event<T>`, one as
/// `AnyEvent`, each into `.ordered(stage)`: sequence order out, the swap put back, the gap
/// before 6 reported.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nats_subscriptions_put_in_sequence_order() {
    use cloudevent_runtime::Event;
    use cloudevent_runtime::EventStreamExt;
    use cloudevent_runtime::binding::{ContentMode, nats};
    use common::ordering::{SENT, assert_put_in_order, label, stage, stamped};
    use futures_util::StreamExt;

    tokio::time::timeout(Duration::from_secs(60), async {
        let server = NatsServer::start();
        let sequencer = Sequencer::new(JetStreamSequenceStore::new(server.bucket().await));
        let client = async_nats::connect(&server.url).await.expect("connect");
        let typed_in = client.subscribe("orders.ordered").await.unwrap();
        let any_in = client.subscribe("orders.ordered").await.unwrap();
        client.flush().await.unwrap();
        let stamped = stamped(&sequencer, "order-7", |n| {
            Event::new(OrderUpdated {
                order_id: format!("o-{n}"),
            })
        })
        .await;
        for i in SENT {
            nats::publish(&client, "orders.ordered", &stamped[i], ContentMode::Binary)
                .await
                .unwrap();
        }
        client.flush().await.unwrap();
        let typed: Vec<String> = typed_in
            .take(5)
            .map(|m| nats::from_message::<Event<OrderUpdated>>(&m))
            .ordered(stage())
            .map(|out| label(out.unwrap()))
            .collect()
            .await;
        let any: Vec<String> = any_in
            .take(5)
            .map(|m| nats::from_message::<AnyEvent>(&m))
            .ordered(stage())
            .map(|out| label(out.unwrap()))
            .collect()
            .await;
        assert_put_in_order(&typed, &any);
    })
    .await
    .expect("bounded");
}

/// Issue 38 item 3: a 3 KB `id` or `source` once went raw (base64) into the KV subject; past
/// the server's 4,096-byte control line the server dropped the connection, the call timed
/// out after 15 s and the event could never be deduplicated or sequenced. Long pairs are
/// now hashed into a short key: each call answers at once, and the pair is still one key.
#[test]
fn a_3_kb_id_is_deduplicated_at_once() {
    use cloudevent_runtime::dedupe::{Claim, Deduplicator, Delivery, JetStreamDeduplicator};
    let server = NatsServer::start();
    let seen =
        JetStreamDeduplicator::connect(&server.url, "long", Duration::from_secs(60)).unwrap();
    let long_id = "i".repeat(3 * 1024);
    let long_source = format!("https://orders.example.com/{}", "s".repeat(3 * 1024));
    let bound = Duration::from_secs(3);
    for (source, id) in [("/orders", long_id.as_str()), (long_source.as_str(), "e1")] {
        let started = Instant::now();
        assert_eq!(seen.check(source, id).unwrap(), Delivery::New);
        assert_eq!(seen.check(source, id).unwrap(), Delivery::Duplicate);
        assert!(started.elapsed() < bound, "{:?}", started.elapsed());
    }
    // Another long id that shares the first 3 KB is another event.
    let longer = format!("{long_id}x");
    assert_eq!(seen.check("/orders", &longer).unwrap(), Delivery::New);
    // The claim path takes the same key.
    let started = Instant::now();
    let lease = Duration::from_secs(30);
    assert_eq!(seen.claim("/c", &long_id, lease).unwrap(), Claim::Claimed);
    assert_eq!(seen.claim("/c", &long_id, lease).unwrap(), Claim::InFlight);
    seen.commit("/c", &long_id).unwrap();
    assert_eq!(seen.claim("/c", &long_id, lease).unwrap(), Claim::Done);
    seen.forget("/c", &long_id).unwrap();
    assert_eq!(seen.claim("/c", &long_id, lease).unwrap(), Claim::Claimed);
    assert!(started.elapsed() < bound, "{:?}", started.elapsed());
    // The connection survived: a short pair still answers.
    assert_eq!(seen.check("/orders", "short").unwrap(), Delivery::New);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_3_kb_source_is_sequenced_at_once() {
    tokio::time::timeout(Duration::from_secs(60), async {
        let server = NatsServer::start();
        let store = JetStreamSequenceStore::new(server.bucket().await);
        let long_source = format!("https://orders.example.com/{}", "s".repeat(3 * 1024));
        let long_key = "k".repeat(3 * 1024);
        let started = Instant::now();
        for (source, partitionkey) in [
            (long_source.as_str(), None),
            (long_source.as_str(), Some("order-7")),
            ("https://orders.example.com", Some(long_key.as_str())),
        ] {
            let first =
                tokio::time::timeout(Duration::from_secs(3), store.reserve(source, partitionkey))
                    .await
                    .expect("answered within 3 s")
                    .unwrap();
            assert_eq!(first, 1);
            assert_eq!(store.reserve(source, partitionkey).await.unwrap(), 2);
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        // The client's connection survived: a short group still counts.
        assert_eq!(
            store
                .reserve("https://orders.example.com", Some("order-7"))
                .await
                .unwrap(),
            1
        );
    })
    .await
    .expect("bounded");
}
