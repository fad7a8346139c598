//! An HTTP producer and consumer in one process: an axum server on 127.0.0.1 receives typed
//! events (structured, binary and batched mode), the reqwest sender posts them with the
//! INTG-STD-015 R-12 retry rules. Exits by itself.
//!
//! ```text
//! cargo run -p cloudevent-runtime --example http_roundtrip --features axum,reqwest
//! ```

use cloudevent_runtime::Attributes;
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use axum::routing::post;
use cloudevent_runtime::binding::ContentMode;
use cloudevent_runtime::binding::axum::{Events, WebHook};
use cloudevent_runtime::binding::http::{batch_request, event_request};
use cloudevent_runtime::binding::reqwest::{RetryPolicy, Sender};
use cloudevent_runtime::{CloudEvent, Event};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

#[derive(Debug, Clone, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com/checkout"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    total_cents: u64,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Consumer: the extractor answers 400/413/415 by itself; the handler sees valid events.
    let (received, mut inbox) = mpsc::unbounded_channel::<String>();
    let single = received.clone();
    let app = Router::new()
        .route(
            "/orders",
            post(move |event: Event<OrderCreated>| async move {
                let line = format!(
                    "{} {} total {}",
                    event.ty(),
                    event.id(),
                    event.data().total_cents
                );
                let _ = single.send(line);
                StatusCode::ACCEPTED
            })
            .options(WebHook::allow_any_origin().with_rate(600).handler()),
        )
        .route(
            "/orders/batch",
            post(
                move |Events(events): Events<Event<OrderCreated>>| async move {
                    let _ = received.send(format!("batch of {}", events.len()));
                    StatusCode::ACCEPTED
                },
            ),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });

    // Producer.
    let sender = Sender::new(reqwest::Client::new(), RetryPolicy::default());
    let order = |id: &str, total_cents| {
        Event::new(OrderCreated {
            order_id: id.into(),
            total_cents,
        })
    };
    for (mode, event) in [
        (ContentMode::Structured, order("order-1", 1250)),
        (ContentMode::Binary, order("order-2", 990)),
    ] {
        let delivered = sender
            .send(event_request(format!("{base}/orders"), &event, mode)?)
            .await?;
        println!(
            "sent {mode:?}: {} after {} attempt(s)",
            delivered.status, delivered.attempts
        );
    }
    let batch = [order("order-3", 100), order("order-4", 200)];
    sender
        .send(batch_request(format!("{base}/orders/batch"), &batch)?)
        .await?;

    for _ in 0..3 {
        let line = tokio::time::timeout(Duration::from_secs(5), inbox.recv())
            .await?
            .ok_or("server stopped")?;
        println!("received {line}");
    }
    let _ = stop.send(());
    server.await??;
    Ok(())
}
