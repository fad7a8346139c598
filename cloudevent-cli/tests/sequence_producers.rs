//! Issue 22: two producer processes (this test binary run again as `child_producer`) stamp
//! `sequence` through one JetStream KV sequence store, on one partition key, and publish into
//! one JetStream stream on a real `nats-server -js` on 127.0.0.1 (started and stopped here;
//! `cargo xtask test` installs it). The stream is captured as JSON Lines and judged by the
//! real `cloudevent validate --sequence`:
//!
//! - the capture in stream order has no gap and no duplicate (two producers racing on one key
//!   may publish a pair the other way round: at most an `out of order` finding);
//! - the capture as a consumer's ordering stage hands it on exits 0;
//! - the same capture with one event removed exits 1 and names the gap.
//!
//! Bounded: each child stops itself after 30 s, the whole test after 60 s.

use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use async_nats::jetstream::{self, consumer::pull, stream};
use cloudevent_runtime::binding::{ContentMode, nats};
use cloudevent_runtime::order::{JetStreamSequenceStore, Ordered, OrderingStage, Sequencer};
use cloudevent_runtime::{AnyEvent, Attributes as _};
use futures_util::StreamExt as _;

const PER_PRODUCER: usize = 60;
const KEY: &str = "order-7";

struct NatsServer(Child);

impl Drop for NatsServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_nats(store: &Path) -> (NatsServer, String) {
    let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let binary = std::env::var_os("NATS_SERVER_BIN").unwrap_or_else(|| "nats-server".into());
    let child = Command::new(binary)
        .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
        .arg(store)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nats-server starts (apt-get install -y nats-server)");
    let server = NatsServer(child);
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_err() {
        assert!(Instant::now() < deadline, "nats-server did not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    (server, format!("nats://127.0.0.1:{port}"))
}

async fn connect(url: &str) -> async_nats::Client {
    for _ in 0..50 {
        if let Ok(client) = async_nats::connect(url).await {
            return client;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("connect to {url}");
}

/// The sequence store's bucket stream, made as `create_key_value` makes it (that call first
/// reads the account's limits, a reply Debian's nats-server 2.9 gives in a shape async-nats
/// 0.51 cannot read).
async fn sequence_bucket(context: &jetstream::Context) -> jetstream::kv::Store {
    context
        .get_or_create_stream(stream::Config {
            name: "KV_sequences".into(),
            subjects: vec!["$KV.sequences.>".into()],
            max_messages_per_subject: 1,
            storage: stream::StorageType::File,
            allow_rollup: true,
            deny_delete: true,
            allow_direct: true,
            discard: stream::DiscardPolicy::New,
            ..Default::default()
        })
        .await
        .expect("bucket stream");
    context.get_key_value("sequences").await.expect("bucket")
}

async fn orders_stream(context: &jetstream::Context) -> stream::Stream {
    context
        .get_or_create_stream(stream::Config {
            name: "ORDERS".into(),
            subjects: vec!["orders.>".into()],
            storage: stream::StorageType::File,
            ..Default::default()
        })
        .await
        .expect("stream")
}

/// One producer process: stamps and publishes `PER_PRODUCER` events on `KEY`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn child_producer() {
    let Ok(replica) = std::env::var("SEQUENCE_PRODUCER") else {
        return;
    };
    let url = std::env::var("SEQUENCE_NATS").expect("the server's url");
    tokio::time::timeout(Duration::from_secs(30), async {
        let context = jetstream::new(connect(&url).await);
        let sequencer =
            Sequencer::new(JetStreamSequenceStore::new(sequence_bucket(&context).await));
        for n in 0..PER_PRODUCER {
            let mut event = AnyEvent::new(
                format!("p{replica}-{n}"),
                "https://orders.example.com/checkout",
                "com.example.order.updated",
            );
            event.set_extension("partitionkey", KEY.into()).unwrap();
            sequencer.stamp(&mut event).await.expect("a number");
            nats::publish_jetstream(
                &context,
                format!("orders.{KEY}"),
                &event,
                ContentMode::Structured,
            )
            .await
            .expect("published");
        }
    })
    .await
    .expect("the producer finished in 30 s");
}

fn spawn_producer(url: &str, replica: usize) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_producer", "--test-threads=1"])
        .env("SEQUENCE_PRODUCER", replica.to_string())
        .env("SEQUENCE_NATS", url)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("a producer process")
}

fn validate(dir: &Path, file: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .args(["validate", "--profile", "cloudevents", "--sequence", file])
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn findings(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|l| l.contains(": error "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn two_producer_processes_through_one_kv_store_leave_no_gap_and_no_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let (server, url) = start_nats(&dir.path().join("nats"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let context = jetstream::new(connect(&url).await);
        sequence_bucket(&context).await;
        orders_stream(&context).await;
    });

    let producers: Vec<Child> = (0..2)
        .map(|replica| spawn_producer(&url, replica))
        .collect();
    let deadline = Instant::now() + Duration::from_secs(40);
    for mut producer in producers {
        loop {
            if let Some(status) = producer.try_wait().unwrap() {
                assert!(status.success(), "a producer failed: {status}");
                break;
            }
            if Instant::now() > deadline {
                let _ = producer.kill();
                let _ = producer.wait();
                panic!("a producer did not finish in 40 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    // The capture: every message of the stream, in stream order, as JSON Lines (structured
    // mode: each payload is the event), and the same events as an ordering stage hands them on.
    let total = 2 * PER_PRODUCER;
    let (raw, ordered) = runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(20), async {
            let context = jetstream::new(connect(&url).await);
            let stream = orders_stream(&context).await;
            let consumer = stream
                .create_consumer(pull::Config {
                    ack_policy: jetstream::consumer::AckPolicy::None,
                    ..Default::default()
                })
                .await
                .expect("a consumer");
            let mut messages = consumer.messages().await.expect("messages");
            let mut stage = OrderingStage::new(total, Duration::from_secs(60)).from_start();
            let (mut raw, mut ordered) = (String::new(), String::new());
            for _ in 0..total {
                let message = messages.next().await.expect("a message").expect("read");
                raw.push_str(std::str::from_utf8(&message.payload).unwrap());
                raw.push('\n');
                let event: AnyEvent = nats::from_message(&message.message).expect("an event");
                for out in stage.push(event) {
                    match out {
                        Ordered::Deliver(e) | Ordered::Late(e) => {
                            ordered.push_str(&String::from_utf8(e.to_vec()).unwrap());
                            ordered.push('\n');
                        }
                        other => panic!("{other:?}"),
                    }
                }
            }
            assert_eq!(stage.held(), 0, "every number arrived");
            (raw, ordered)
        })
        .await
        .expect("the capture took longer than 20 s")
    });
    drop(server);

    std::fs::write(dir.path().join("raw.jsonl"), &raw).unwrap();
    let output = validate(dir.path(), "raw.jsonl");
    let found = findings(&output);
    assert!(
        found.iter().all(|l| l.contains("out of order")),
        "no gap, no duplicate in the stream as published: {found:#?}"
    );
    let producers: Vec<char> = raw
        .lines()
        .map(|l| {
            let at = l.find(r#""id":"p"#).expect("an id") + r#""id":"p"#.len();
            l[at..].chars().next().unwrap()
        })
        .collect();
    assert_eq!(
        producers.iter().filter(|&&p| p == '0').count(),
        PER_PRODUCER
    );
    eprintln!(
        "{total} events from 2 producer processes, {} switches between them in the stream; \
         pairs published the other way round: {}",
        producers.windows(2).filter(|w| w[0] != w[1]).count(),
        found.len()
    );

    std::fs::write(dir.path().join("ordered.jsonl"), &ordered).unwrap();
    let output = validate(dir.path(), "ordered.jsonl");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );

    // One event taken out (number 17): the checker names the gap on the event after it.
    let missing: String = ordered
        .lines()
        .filter(|l| !l.contains(r#""sequence":"17""#))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(missing.lines().count(), total - 1);
    std::fs::write(dir.path().join("missing.jsonl"), &missing).unwrap();
    let output = validate(dir.path(), "missing.jsonl");
    assert_eq!(output.status.code(), Some(1));
    let found = findings(&output);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("missing.jsonl#17: error CE sequence:")
            && found[0].contains(&format!(
                "gap before this event in source `https://orders.example.com/checkout`, partitionkey `{KEY}`: missing 17"
            )),
        "{found:#?}"
    );
}
