//! Issue 27 §4: the documented gateway stays up. Before, a client sending a byte a second
//! kept its connection forever (no header or body read timeout) and connections had no cap.
//! Each test runs a real server on loopback (`binding::gateway::serve_with`, short limits)
//! and a raw TCP client, and is bounded in time.
#![cfg(feature = "gateway")]

use std::time::{Duration, Instant};

use axum::{Router, routing::post};
use cloudevent_runtime::binding::axum::Checked;
use cloudevent_runtime::binding::gateway::{ServeLimits, serve_with};
use cloudevent_runtime::{AnyEvent, Policy, Profile};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

async fn accepted(Checked(_event): Checked<AnyEvent>) -> &'static str {
    "accepted"
}

/// A gateway as the README builds it, served with `limits`; its address.
async fn gateway(limits: ServeLimits) -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    let app = Router::new()
        .route("/events", post(accepted))
        .with_state(Policy::new(Profile::CloudEvents));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let _ = serve_with(listener, app, limits).await;
    });
    (address, server)
}

const EVENT: &str = r#"{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created"}"#;

/// Everything the server sends until it closes the connection, within `within`.
async fn until_closed(stream: &mut TcpStream, within: Duration) -> Option<String> {
    let mut answer = Vec::new();
    tokio::time::timeout(within, stream.read_to_end(&mut answer))
        .await
        .ok()?
        .ok()?;
    Some(String::from_utf8_lossy(&answer).into_owned())
}

#[tokio::test]
async fn a_well_behaved_client_is_answered() {
    let (address, server) = gateway(ServeLimits::default()).await;
    let mut client = TcpStream::connect(address).await.unwrap();
    let request = format!(
        "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/cloudevents+json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{EVENT}",
        EVENT.len()
    );
    client.write_all(request.as_bytes()).await.unwrap();
    let answer = until_closed(&mut client, Duration::from_secs(10))
        .await
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    server.abort();
}

#[tokio::test]
async fn a_client_trickling_its_headers_is_disconnected() {
    let limits = ServeLimits {
        header_read_timeout: Duration::from_millis(300),
        ..ServeLimits::default()
    };
    let (address, server) = gateway(limits).await;
    let mut client = TcpStream::connect(address).await.unwrap();
    let started = Instant::now();
    let head =
        b"POST /events HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    let mut closed = false;
    for byte in head {
        if client.write_all(&[*byte]).await.is_err() {
            closed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        if started.elapsed() > Duration::from_secs(5) {
            break;
        }
    }
    if !closed {
        closed = until_closed(&mut client, Duration::from_secs(5))
            .await
            .is_some();
    }
    assert!(closed, "the connection outlived the header read timeout");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    server.abort();
}

#[tokio::test]
async fn a_client_trickling_its_body_gets_408() {
    let limits = ServeLimits {
        request_timeout: Duration::from_millis(500),
        ..ServeLimits::default()
    };
    let (address, server) = gateway(limits).await;
    let mut client = TcpStream::connect(address).await.unwrap();
    let started = Instant::now();
    let head = format!(
        "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/cloudevents+json\r\nContent-Length: {}\r\n\r\n",
        EVENT.len()
    );
    client.write_all(head.as_bytes()).await.unwrap();
    // Two bytes of the body, then nothing.
    client.write_all(&EVENT.as_bytes()[..2]).await.unwrap();
    let answer = until_closed(&mut client, Duration::from_secs(5)).await;
    let answer = answer.expect("the server answered and closed within 5 s");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    server.abort();
}

/// A request whose headers are in and whose body is still coming: the connection is busy.
async fn busy(address: std::net::SocketAddr) -> TcpStream {
    let mut stream = TcpStream::connect(address).await.unwrap();
    let head = format!(
        "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/cloudevents+json\r\nContent-Length: {}\r\n\r\n{{",
        EVENT.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream
}

async fn post_event(address: std::net::SocketAddr) -> Option<String> {
    let mut client = TcpStream::connect(address).await.unwrap();
    let request = format!(
        "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/cloudevents+json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{EVENT}",
        EVENT.len()
    );
    client.write_all(request.as_bytes()).await.ok()?;
    until_closed(&mut client, Duration::from_secs(10)).await
}

#[tokio::test]
async fn connections_past_a_cap_of_busy_ones_are_closed_at_once() {
    let limits = ServeLimits {
        max_connections: 2,
        ..ServeLimits::default()
    };
    let (address, server) = gateway(limits).await;
    // Two connections in the middle of a request take both places.
    let held = [busy(address).await, busy(address).await];
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut third = TcpStream::connect(address).await.unwrap();
    let answer = until_closed(&mut third, Duration::from_secs(5)).await;
    assert_eq!(
        answer.as_deref(),
        Some(""),
        "the third connection was closed unanswered"
    );
    // Once one leaves, a new client is served again.
    drop(held);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let answer = post_event(address).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    server.abort();
}

/// Issue 38 item 8: idle connections that filled the cap refused every other client until
/// the 10 s header read timeout closed them. The idlest connection is now shed for a new
/// one, so a client's request is answered at once; the busy connections are kept.
#[tokio::test]
async fn idle_connections_filling_the_cap_do_not_keep_a_client_out() {
    let limits = ServeLimits {
        max_connections: 8,
        ..ServeLimits::default()
    };
    let (address, server) = gateway(limits).await;
    let mut held = vec![busy(address).await, busy(address).await];
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut idle = Vec::new();
    for _ in 0..6 {
        idle.push(TcpStream::connect(address).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    for round in 0..3 {
        let started = Instant::now();
        let answer = post_event(address).await;
        let answer = answer.unwrap_or_default();
        assert!(
            answer.starts_with("HTTP/1.1 200"),
            "round {round}: {answer:?} after {:?}",
            started.elapsed()
        );
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "round {round}: answered after {:?}",
            started.elapsed()
        );
        // The flood goes on: another idle connection for each client.
        idle.push(TcpStream::connect(address).await.unwrap());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The connections in the middle of a request were not shed: they finish.
    for stream in &mut held {
        stream.write_all(&EVENT.as_bytes()[1..]).await.unwrap();
        let mut answer = [0u8; 12];
        tokio::time::timeout(Duration::from_secs(5), stream.read_exact(&mut answer))
            .await
            .expect("answered")
            .unwrap();
        assert_eq!(&answer, b"HTTP/1.1 200");
    }
    server.abort();
}
