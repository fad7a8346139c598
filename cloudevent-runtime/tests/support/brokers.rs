//! The brokers the broker tests start on 127.0.0.1 and our side of each (`interop_brokers.rs`,
//! `verify_brokers.rs`, which include this file with `#[path]`, beside `rabbitmq.rs`):
//! `mosquitto` and `nats-server` as child processes (a missing binary fails the test with the
//! command that installs it; `cargo xtask test` installs them), Kafka as librdkafka's mock
//! cluster (`rdkafka::mocking::MockCluster`) and RabbitMQ with its AMQP 1.0 plugin
//! (`rabbitmq.rs`), each killed on drop; every wait is bounded by [`CELL_TIMEOUT`].

use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use cloudevent_runtime::binding::mqtt::MqttPublish;
use cloudevent_runtime::binding::rdkafka::{base_record, from_message};
use cloudevent_runtime::binding::{ContentMode, kafka};
use fe2o3_amqp::{Connection, Session};
use rdkafka::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::mocking::MockCluster;
use rdkafka::producer::{BaseProducer, Producer};
use rumqttc::v5::mqttbytes::QoS;
use rumqttc::v5::mqttbytes::v5::{Packet, PublishProperties};
use rumqttc::v5::{AsyncClient, Event as MqttEvent, MqttOptions};

use crate::rabbitmq::RabbitMq;

/// How long one cell (a peer process, a subscription, a poll) may take.
pub const CELL_TIMEOUT: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------------------------------
// The brokers and their content modes.

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Broker {
    Mqtt5,
    Mqtt311,
    Nats,
    Kafka,
    Amqp,
}

impl Broker {
    pub fn arg(self) -> &'static str {
        match self {
            Broker::Mqtt5 => "mqtt5",
            Broker::Mqtt311 => "mqtt311",
            Broker::Nats => "nats",
            Broker::Kafka => "kafka",
            Broker::Amqp => "amqp",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Broker::Mqtt5 => "mosquitto, MQTT 5",
            Broker::Mqtt311 => "mosquitto, MQTT 3.1.1",
            Broker::Nats => "nats-server",
            Broker::Kafka => "Kafka (librdkafka mock cluster)",
            Broker::Amqp => "RabbitMQ, AMQP 1.0",
        }
    }

    /// The content modes the binding has (MQTT 3.1.1: structured only, MQTT binding 3.1).
    pub fn modes(self) -> &'static [ContentMode] {
        match self {
            Broker::Mqtt311 => &[ContentMode::Structured],
            _ => &[ContentMode::Binary, ContentMode::Structured],
        }
    }
}

pub fn mode_arg(mode: ContentMode) -> &'static str {
    match mode {
        ContentMode::Binary => "binary",
        _ => "structured",
    }
}

// ---------------------------------------------------------------------------------------
// The brokers, started as the binding tests start them.

use crate::ports::free_port;

pub fn find_binary(name: &str, dirs: &[&str], install: &str) -> PathBuf {
    std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .chain(dirs.iter().map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| {
            panic!("{name} not found (PATH, {}): install it with `{install}` (cargo xtask test does this)", dirs.join(", "))
        })
}

pub fn wait_listening(name: &str, port: u16) {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_err() {
        assert!(
            Instant::now() < deadline,
            "{name} did not listen on {address} within 10 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A broker child process with its private directory; killed on drop.
pub struct Server {
    child: Child,
    pub port: u16,
    dir: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn start_mosquitto() -> Server {
    let port = free_port();
    let dir = std::env::temp_dir().join(format!(
        "cloudevent-brokers-mqtt-{}-{port}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("mosquitto.conf");
    std::fs::write(
        &config,
        format!("listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"),
    )
    .unwrap();
    let binary = find_binary(
        "mosquitto",
        &["/usr/sbin", "/usr/bin", "/usr/local/sbin"],
        "apt-get install -y mosquitto",
    );
    let child = Command::new(binary)
        .arg("-c")
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("mosquitto starts");
    let server = Server { child, port, dir };
    wait_listening("mosquitto", port);
    server
}

pub fn start_nats() -> Server {
    let port = free_port();
    let dir = std::env::temp_dir().join(format!(
        "cloudevent-brokers-nats-{}-{port}",
        std::process::id()
    ));
    let binary = match std::env::var_os("NATS_SERVER_BIN") {
        Some(path) => PathBuf::from(path),
        None => find_binary(
            "nats-server",
            &["/usr/sbin", "/usr/bin", "/usr/local/bin"],
            "apt-get install -y nats-server",
        ),
    };
    let child = Command::new(binary)
        .args(["-a", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nats-server starts");
    let server = Server { child, port, dir };
    wait_listening("nats-server", port);
    server
}

// ---------------------------------------------------------------------------------------
// Our side of each broker.

/// An MQTT 5 subscription whose PUBLISHes come out of the channel once the broker acknowledged
/// it. Connecting is retried, bounded to about 5 s (the broker listens before it talks).
pub async fn mqtt5_subscriber(
    port: u16,
    topic: &str,
) -> (
    AsyncClient,
    tokio::sync::mpsc::UnboundedReceiver<MqttPublish>,
) {
    let mut options = MqttOptions::new("ours-sub-v5", "127.0.0.1", port);
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
    tokio::time::timeout(CELL_TIMEOUT, subscribed_rx)
        .await
        .expect("MQTT 5 subscription acknowledged in time")
        .expect("MQTT 5 subscription acknowledged");
    (client, rx)
}

/// [`mqtt5_subscriber`] on MQTT 3.1.1 (rumqttc's v4 API): payloads only.
pub async fn mqtt311_subscriber(
    port: u16,
    topic: &str,
) -> (
    rumqttc::AsyncClient,
    tokio::sync::mpsc::UnboundedReceiver<MqttPublish>,
) {
    let mut options = rumqttc::MqttOptions::new("ours-sub-v3", "127.0.0.1", port);
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
                    let _ = tx.send(MqttPublish {
                        payload: publish.payload.to_vec(),
                        ..MqttPublish::default()
                    });
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
    tokio::time::timeout(CELL_TIMEOUT, subscribed_rx)
        .await
        .expect("MQTT 3.1.1 subscription acknowledged in time")
        .expect("MQTT 3.1.1 subscription acknowledged");
    (client, rx)
}

/// Publishes with QoS 1 and waits until the broker acknowledged every PUBLISH.
pub async fn mqtt_publish(broker: Broker, port: u16, topic: &str, publishes: Vec<MqttPublish>) {
    let expected = publishes.len();
    if broker == Broker::Mqtt5 {
        let (client, mut eventloop) =
            AsyncClient::new(MqttOptions::new("ours-pub-v5", "127.0.0.1", port), 16);
        for publish in publishes {
            let properties = PublishProperties {
                content_type: publish.content_type,
                user_properties: publish.user_properties,
                ..PublishProperties::default()
            };
            client
                .publish_with_properties(
                    topic,
                    QoS::AtLeastOnce,
                    false,
                    publish.payload,
                    properties,
                )
                .await
                .unwrap();
        }
        let mut acked = 0;
        while acked < expected {
            if let MqttEvent::Incoming(Packet::PubAck(_)) =
                eventloop.poll().await.expect("MQTT 5 publisher")
            {
                acked += 1;
            }
        }
        let _ = client.disconnect().await;
    } else {
        let (client, mut eventloop) = rumqttc::AsyncClient::new(
            rumqttc::MqttOptions::new("ours-pub-v3", "127.0.0.1", port),
            16,
        );
        for publish in publishes {
            client
                .publish(topic, rumqttc::QoS::AtLeastOnce, false, publish.payload)
                .await
                .unwrap();
        }
        let mut acked = 0;
        while acked < expected {
            if let rumqttc::Event::Incoming(rumqttc::Packet::PubAck(_)) =
                eventloop.poll().await.expect("MQTT 3.1.1 publisher")
            {
                acked += 1;
            }
        }
        let _ = client.disconnect().await;
    }
}

pub fn kafka_consume(bootstrap: &str, topic: &str, count: usize) -> Vec<kafka::KafkaRecord> {
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("group.id", format!("ours-{topic}"))
        .set("auto.offset.reset", "earliest")
        .set("enable.auto.commit", "false")
        .set("session.timeout.ms", "6000")
        .create()
        .expect("consumer");
    consumer.subscribe(&[topic]).expect("subscribed");
    let deadline = Instant::now() + CELL_TIMEOUT;
    let mut records = Vec::new();
    while records.len() < count && Instant::now() < deadline {
        if let Some(message) = consumer.poll(Duration::from_millis(200)) {
            records.push(from_message(&message.expect("consume")));
        }
    }
    records
}

pub fn kafka_produce(bootstrap: &str, topic: &str, records: &[kafka::KafkaRecord]) {
    let producer: BaseProducer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("message.timeout.ms", "10000")
        .create()
        .expect("producer");
    for record in records {
        producer
            .send(base_record(topic, record))
            .map_err(|(error, _)| error)
            .expect("queued");
    }
    producer
        .flush(Duration::from_secs(10))
        .expect("every record acknowledged within 10 s");
}

// ---------------------------------------------------------------------------------------
// All of them, for one test.

/// Every broker the tests start: mosquitto, nats-server, the Kafka mock cluster, and a
/// RabbitMQ node starting meanwhile; each stopped when this is dropped.
pub struct Brokers {
    pub mosquitto: Server,
    nats: Server,
    pub kafka: MockCluster<'static, rdkafka::producer::DefaultProducerContext>,
    kafka_bootstrap: String,
    /// RabbitMQ takes seconds to boot: it starts on its own thread while the other cells run.
    rabbitmq_starting: Mutex<Option<std::thread::JoinHandle<RabbitMq>>>,
    rabbitmq: OnceLock<RabbitMq>,
}

impl Brokers {
    /// Starts them all; RabbitMQ on a thread of its own (`Brokers::rabbitmq` waits for it).
    pub fn start() -> Brokers {
        let kafka = MockCluster::new(1).expect("librdkafka's mock cluster starts");
        let kafka_bootstrap = kafka.bootstrap_servers();
        let (mosquitto, nats) = (start_mosquitto(), start_nats());
        // Spawned last: from here on `Brokers` owns it and its drop stops the node.
        let rabbitmq_starting = std::thread::spawn(RabbitMq::start);
        Brokers {
            mosquitto,
            nats,
            kafka,
            kafka_bootstrap,
            rabbitmq_starting: Mutex::new(Some(rabbitmq_starting)),
            rabbitmq: OnceLock::new(),
        }
    }

    /// The address a client of `broker` connects to.
    pub fn address(&self, broker: Broker) -> String {
        match broker {
            Broker::Mqtt5 | Broker::Mqtt311 => format!("127.0.0.1:{}", self.mosquitto.port),
            Broker::Nats => format!("127.0.0.1:{}", self.nats.port),
            Broker::Kafka => self.kafka_bootstrap.clone(),
            Broker::Amqp => format!("127.0.0.1:{}", self.rabbitmq().amqp_port),
        }
    }

    /// The RabbitMQ node, once its start (bounded to 90 s by `RabbitMq::start`) is done.
    pub fn rabbitmq(&self) -> &RabbitMq {
        self.rabbitmq.get_or_init(|| {
            let starting = self.rabbitmq_starting.lock().unwrap().take();
            let starting = starting.expect("RabbitMQ is started once");
            tokio::task::block_in_place(|| starting.join())
                .expect("rabbitmq-server starts (see the panic above)")
        })
    }
}

impl Drop for Brokers {
    /// A node still starting is waited for, so that its drop stops it: a test that fails
    /// before the AMQP cells leaves no broker behind.
    fn drop(&mut self) {
        if let Some(starting) = self
            .rabbitmq_starting
            .lock()
            .ok()
            .and_then(|mut s| s.take())
        {
            let _ = starting.join();
        }
    }
}

/// Receives `count` items from `rx` within [`CELL_TIMEOUT`] (fewer if they do not come).
pub async fn receive<T>(rx: &mut tokio::sync::mpsc::UnboundedReceiver<T>, count: usize) -> Vec<T> {
    let mut received = Vec::new();
    let deadline = tokio::time::Instant::now() + CELL_TIMEOUT;
    while received.len() < count {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some(item)) => received.push(item),
            _ => break,
        }
    }
    received
}

/// An AMQP 1.0 connection and session to RabbitMQ for one cell, and the cell's queue address
/// (`/queue/NAME`: RabbitMQ's AMQP 1.0 plugin declares the queue when a link attaches).
pub struct AmqpLink {
    connection: fe2o3_amqp::connection::ConnectionHandle<()>,
    pub session: fe2o3_amqp::session::SessionHandle<()>,
    pub address: String,
}

impl AmqpLink {
    pub async fn open(rabbitmq: &RabbitMq, topic: &str) -> AmqpLink {
        let url = rabbitmq.url();
        let mut connection = tokio::time::timeout(
            CELL_TIMEOUT,
            Connection::open(format!("ours-{topic}"), url.as_str()),
        )
        .await
        .expect("AMQP connection opened in time")
        .expect("AMQP connection to RabbitMQ");
        let session = Session::begin(&mut connection).await.expect("AMQP session");
        AmqpLink {
            connection,
            session,
            address: format!("/queue/{topic}"),
        }
    }

    /// Ends the session and the connection. RabbitMQ 3.x answers a closing detach with a
    /// non-closing one, so the cell's link was detached, not closed, before.
    pub async fn close(mut self) {
        let _ = self.session.end().await;
        let _ = self.connection.close().await;
    }
}

/// A connected NATS client; connecting is retried, bounded to about 5 s.
pub async fn nats_client(address: &str) -> async_nats::Client {
    let url = format!("nats://{address}");
    let mut attempt = 1;
    loop {
        match async_nats::connect(&url).await {
            Ok(client) => return client,
            Err(error) if attempt < 25 => {
                attempt += 1;
                eprintln!("connect to nats-server, attempt {attempt}: {error}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(error) => panic!("connect to nats-server {url}: {error}"),
        }
    }
}
