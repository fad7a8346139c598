//! The axum guard on a real server on 127.0.0.1 and a real HTTP client: selected events reach
//! the handler, ignored ones are answered 202 (or the 4xx chosen) without reaching it, and an
//! invalid event is still the extractor's 400.

#![cfg(feature = "axum")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::extract::FromRef;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Router, extract::State};
use cloudevent_runtime::filter::{EventFilter, Expression, Selected, SubscriptionFilter};
use cloudevent_runtime::{AnyEvent, Attributes};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[derive(Clone)]
struct App {
    filter: EventFilter,
    handled: Arc<AtomicUsize>,
}

impl FromRef<App> for EventFilter {
    fn from_ref(app: &App) -> EventFilter {
        app.filter.clone()
    }
}

async fn handle(State(app): State<App>, Selected(event): Selected<AnyEvent>) -> String {
    app.handled.fetch_add(1, Ordering::SeqCst);
    event.id().to_owned()
}

async fn serve(filter: EventFilter) -> (String, Arc<AtomicUsize>) {
    let handled = Arc::new(AtomicUsize::new(0));
    let app = Router::new()
        .route("/events", post(handle))
        .with_state(App {
            filter,
            handled: handled.clone(),
        });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (address, handled)
}

/// One HTTP/1.1 POST of a structured event over a fresh connection; the status code.
async fn post_event(address: &str, body: &str) -> u16 {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!(
        "POST /events HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/cloudevents+json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    response.split(' ').nth(1).unwrap().parse().unwrap()
}

fn event(id: &str, ty: &str) -> String {
    format!(
        r#"{{"specversion":"1.0","id":"{id}","source":"/orders","type":"{ty}","partitionkey":"k1"}}"#
    )
}

#[tokio::test]
async fn ignored_events_are_acknowledged_or_refused_without_reaching_the_handler() {
    tokio::time::timeout(Duration::from_secs(30), async {
        let sql =
            Expression::parse("type LIKE 'com.example.order.%' AND partitionkey = 'k1'").unwrap();
        let (address, handled) = serve(EventFilter::new(sql.clone())).await;
        assert_eq!(
            post_event(&address, &event("1", "com.example.order.created")).await,
            200
        );
        assert_eq!(
            post_event(&address, &event("2", "org.other.thing")).await,
            202
        );
        assert_eq!(
            post_event(&address, r#"{"specversion":"1.0"}"#).await,
            400,
            "invalid: the extractor's verdict"
        );
        assert_eq!(handled.load(Ordering::SeqCst), 1);

        let (address, handled) =
            serve(EventFilter::new(sql).reject_with(StatusCode::UNPROCESSABLE_ENTITY)).await;
        assert_eq!(
            post_event(&address, &event("3", "org.other.thing")).await,
            422
        );
        assert_eq!(handled.load(Ordering::SeqCst), 0);

        let subscription =
            SubscriptionFilter::from_json(&serde_json::json!({ "suffix": { "type": ".created" } }))
                .unwrap();
        let (address, handled) = serve(EventFilter::new(subscription)).await;
        assert_eq!(
            post_event(&address, &event("4", "com.example.order.created")).await,
            200
        );
        assert_eq!(
            post_event(&address, &event("5", "com.example.order.shipped")).await,
            202
        );
        assert_eq!(handled.load(Ordering::SeqCst), 1);
    })
    .await
    .expect("bounded");
}

/// Issue 38: a subscription's `sql` held a gateway worker 78 s (a long `LIKE` pattern over a
/// large subject), past the 30 s request timeout, while an ordinary request waited 26 s.
/// The costliest filter the default limits admit now answers a 255 KB event, and the
/// ordinary request beside it, within a few seconds in a debug build.
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn the_costliest_admitted_filter_does_not_hold_a_worker() {
    tokio::time::timeout(Duration::from_secs(60), async {
        let run = "s_".repeat(500);
        let sql = vec![format!("subject LIKE '%{run}b%'"); 60].join(" OR ");
        let filter = SubscriptionFilter::from_json(&serde_json::json!({ "sql": sql })).unwrap();
        let (address, handled) = serve(EventFilter::new(filter)).await;
        let large = format!(
            r#"{{"specversion":"1.0","id":"big","source":"/orders","type":"com.example.order.created","subject":"{}"}}"#,
            "s".repeat(255 * 1024)
        );
        let small = event("small", "com.example.order.created");
        let started = std::time::Instant::now();
        let (large, small) = tokio::join!(post_event(&address, &large), post_event(&address, &small));
        let took = started.elapsed();
        assert_eq!((large, small), (202, 202));
        assert_eq!(handled.load(Ordering::SeqCst), 0);
        assert!(took < Duration::from_secs(10), "{took:?}");
    })
    .await
    .expect("bounded");
}
