//! The stream filter over a real NATS subscription (nats-server on 127.0.0.1): the
//! subscriber's messages read by the NATS binding's reader, then `.select(filter)`; only the
//! selected events and the broken message come out.

#![cfg(feature = "nats")]

use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use cloudevent_runtime::EventStreamExt;
use cloudevent_runtime::binding::nats;
use cloudevent_runtime::filter::Expression;
use cloudevent_runtime::{AnyEvent, Attributes};
use futures_util::StreamExt;

#[path = "support/ports.rs"]
mod ports;
use ports::free_port;

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start() -> (Server, String) {
    let binary = std::env::var_os("NATS_SERVER_BIN")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            ["/usr/sbin", "/usr/bin", "/usr/local/bin"]
                .iter()
                .map(|d| std::path::Path::new(d).join("nats-server"))
                .find(|p| p.is_file())
        })
        .expect("nats-server installed (cargo xtask test installs it)");
    let port = free_port();
    let child = Command::new(binary)
        .args(["-a", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nats-server starts");
    let server = Server(child);
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_err() {
        assert!(Instant::now() < deadline, "nats-server did not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    (server, format!("nats://127.0.0.1:{port}"))
}

async fn connect(url: &str) -> async_nats::Client {
    for _ in 0..25 {
        if let Ok(client) = async_nats::connect(url).await {
            return client;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("connect to {url}");
}

#[tokio::test]
async fn a_nats_subscription_filtered_by_cesql() {
    let (_server, url) = start();
    tokio::time::timeout(Duration::from_secs(30), async {
        let client = connect(&url).await;
        let subscriber = client.subscribe("orders").await.unwrap();
        let filter =
            Expression::parse("type LIKE 'com.example.order.%' AND partitionkey = 'k1'").unwrap();
        let mut selected = subscriber
            .map(|message| nats::from_message::<AnyEvent>(&message))
            .select(filter);

        for (id, ty, key) in [
            ("1", "com.example.order.created", "k1"),
            ("2", "com.example.order.created", "k2"),
            ("3", "org.other.thing", "k1"),
            ("4", "com.example.order.shipped", "k1"),
        ] {
            let mut event = AnyEvent::new(id, "/orders", ty);
            event.extensions_mut().insert("partitionkey", key);
            nats::publish(
                &client,
                "orders",
                &event,
                cloudevent_runtime::binding::ContentMode::Binary,
            )
            .await
            .unwrap();
        }
        client
            .publish("orders", "not an event".into())
            .await
            .unwrap();
        client.flush().await.unwrap();

        let mut seen = Vec::new();
        for _ in 0..3 {
            match selected.next().await.unwrap() {
                Ok(event) => seen.push(event.id().to_owned()),
                Err(error) => seen.push(format!("error: {}", error.rule())),
            }
        }
        assert_eq!(seen[..2], ["1", "4"]);
        assert!(seen[2].starts_with("error"), "{seen:?}");
    })
    .await
    .expect("bounded");
}
