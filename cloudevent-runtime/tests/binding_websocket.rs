//! The WebSockets binding end to end on 127.0.0.1: our client and server helpers with each
//! other, and with a bare `tokio-tungstenite` peer for what our helpers never send.
#![cfg(feature = "websocket")]

mod common;

use cloudevent_runtime::Attributes;
use std::time::Duration;

use cloudevent_runtime::binding::websocket::{
    self, EventStream, FrameType, Subprotocol, WebSocketError,
};
use cloudevent_runtime::{AnyEvent, CloudEvent, Data, Event, Policy, Profile};
use futures_util::{SinkExt, StreamExt};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{self, Message};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com/checkout"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    total_cents: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.shipped",
    source = "https://orders.example.com/shipping"
)]
struct OrderShipped {
    #[cloudevent(subject)]
    order_id: String,
}

fn order(n: i64) -> Event<OrderCreated> {
    Event::new(OrderCreated {
        order_id: format!("order-{n}"),
        total_cents: n,
    })
}

/// Every test runs under this bound, so a hung peer fails the test instead of CI.
async fn bounded<F: std::future::Future<Output = ()>>(test: F) {
    tokio::time::timeout(Duration::from_secs(30), test)
        .await
        .expect("test took longer than 30 s");
}

/// A listener on a free loopback port and its `ws://` URL.
async fn listen() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/events", listener.local_addr().unwrap());
    (listener, url)
}

/// Accepts one connection with our server helper.
async fn accept_one(listener: &TcpListener) -> Result<EventStream<TcpStream>, WebSocketError> {
    let (tcp, _) = listener.accept().await.unwrap();
    websocket::accept(tcp, &[Subprotocol::Json]).await
}

/// A bare tungstenite client offering `protocols` (none: no header at all).
async fn raw_client(
    url: &str,
    protocols: Option<&str>,
) -> Result<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
    tungstenite::Error,
> {
    let mut request = url.into_client_request().unwrap();
    if let Some(protocols) = protocols {
        request
            .headers_mut()
            .insert("sec-websocket-protocol", protocols.parse().unwrap());
    }
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(ws, _)| ws)
}

#[tokio::test]
async fn typed_and_dynamic_events_travel_both_ways_and_the_stream_closes_cleanly() {
    bounded(async {
        let (listener, url) = listen().await;
        let server = tokio::spawn(async move {
            let mut stream = accept_one(&listener).await.unwrap();
            assert_eq!(stream.subprotocol(), Subprotocol::Json);
            // Client -> server: typed, then dynamic.
            let typed: Event<OrderCreated> = stream.receive().await.unwrap().unwrap();
            let dynamic: AnyEvent = stream.receive().await.unwrap().unwrap();
            // Server -> client: a typed answer caused by the order, and the dynamic echo.
            let shipped = Event::new(OrderShipped {
                order_id: typed.data().order_id.clone(),
            })
            .caused_by(&typed);
            stream.send(&shipped).await.unwrap();
            stream.send(&dynamic).await.unwrap();
            // The client closes; the stream ends cleanly.
            assert!(stream.receive::<AnyEvent>().await.is_none());
            (typed, dynamic, shipped)
        });

        let mut client = websocket::connect(url.as_str(), &[Subprotocol::Json])
            .await
            .unwrap();
        assert_eq!(client.subprotocol(), Subprotocol::Json);
        let sent_typed = order(14999);
        let mut sent_dynamic = AnyEvent::new(
            "dyn-1",
            "https://gateway.example.com",
            "com.example.note.added",
        );
        sent_dynamic.extensions_mut().insert("vendorext", "kept");
        sent_dynamic.set_datacontenttype(Some("text/plain".into()));
        sent_dynamic.set_data(Some(Data::Text("hello over a socket".into())));
        client.send(&sent_typed).await.unwrap();
        client.send(&sent_dynamic).await.unwrap();
        let shipped: Event<OrderShipped> = client.receive().await.unwrap().unwrap();
        let echoed: AnyEvent = client.receive().await.unwrap().unwrap();
        client.close().await.unwrap();

        let (typed, dynamic, sent_shipped) = server.await.unwrap();
        assert_eq!(typed, sent_typed);
        assert_eq!(dynamic, sent_dynamic);
        assert_eq!(echoed, sent_dynamic);
        assert_eq!(shipped, sent_shipped);
        assert_eq!(
            shipped.extension("causationid").unwrap().as_str(),
            Some(sent_typed.id())
        );
    })
    .await;
}

#[tokio::test]
async fn bad_messages_get_typed_errors_and_the_stream_goes_on() {
    bounded(async {
        let (listener, url) = listen().await;
        let server = tokio::spawn(async move {
            let mut stream = accept_one(&listener).await.unwrap();
            let mut verdicts = Vec::new();
            while let Some(result) = stream.receive::<Event<OrderCreated>>().await {
                verdicts.push(result.map(|event| event.data().total_cents));
            }
            verdicts
        });

        let mut raw = raw_client(&url, Some("cloudevents.json")).await.unwrap();
        let shipped = serde_json::to_string(&Event::new(OrderShipped {
            order_id: "order-1".into(),
        }))
        .unwrap();
        let good = serde_json::to_string(&order(7)).unwrap();
        for message in [
            Message::text(r#"{"specversion":"1.0","source":"https://a.example.com","type":"com.example.order.created"}"#),
            Message::text("not json"),
            Message::text(format!("[{good}]")),
            Message::binary(good.clone().into_bytes()),
            Message::text(shipped),
            Message::Ping(vec![1, 2, 3].into()),
            Message::text(good),
        ] {
            raw.send(message).await.unwrap();
        }
        raw.close(None).await.unwrap();
        while raw.next().await.is_some() {}

        let verdicts = server.await.unwrap();
        assert_eq!(verdicts.len(), 6, "{verdicts:?}");
        let errors: Vec<String> = verdicts[..5]
            .iter()
            .map(|v| v.as_ref().unwrap_err().to_string())
            .collect();
        let rules: Vec<&str> = verdicts[..5]
            .iter()
            .map(|v| v.as_ref().unwrap_err().rule().as_str())
            .collect();
        assert!(errors[0].contains("id"), "{}", errors[0]);
        assert!(errors[1].contains("INTG-STD-015 R-7"), "{}", errors[1]);
        assert!(matches!(
            verdicts[2],
            Err(WebSocketError::Batch)
        ));
        assert!(matches!(
            verdicts[3],
            Err(WebSocketError::FrameType {
                subprotocol: Subprotocol::Json,
                found: FrameType::Binary
            })
        ));
        assert!(errors[3].contains("CE WebSockets binding 1.5"), "{}", errors[3]);
        assert!(errors[4].contains("com.example.order.shipped"), "{}", errors[4]);
        assert_eq!(rules[2], "INTG-STD-015 R-7");
        assert_eq!(*verdicts[5].as_ref().unwrap(), 7);
    })
    .await;
}

#[tokio::test]
async fn a_gateway_reads_dynamic_events_under_its_own_policy() {
    bounded(async {
        let (listener, url) = listen().await;
        let server = tokio::spawn(async move {
            let mut stream = accept_one(&listener).await.unwrap();
            let policy = Policy::new(Profile::IntgStd015);
            let first = stream.receive_any_with(&policy).await.unwrap();
            let second = stream.receive_any_with(&policy).await.unwrap();
            assert!(stream.receive_any_with(&policy).await.is_none());
            (first, second)
        });
        let mut client = websocket::connect(url.as_str(), &[Subprotocol::Json])
            .await
            .unwrap();
        // Valid under the CloudEvents MUSTs, refused by INTG-STD-015 R-14 (localhost source).
        let local = AnyEvent::new("1", "https://localhost/orders", "com.example.order.created");
        client.send(&local).await.unwrap();
        client.send(&order(1)).await.unwrap();
        client.close().await.unwrap();
        let (first, second) = server.await.unwrap();
        let refused = first.unwrap_err();
        assert_eq!(refused.rule().as_str(), "INTG-STD-015 R-14", "{refused}");
        assert_eq!(second.unwrap().id().len(), 26);
    })
    .await;
}

#[tokio::test]
async fn a_client_offering_no_cloudevents_subprotocol_is_refused_with_400() {
    bounded(async {
        let (listener, url) = listen().await;
        let server = tokio::spawn(async move {
            let mut verdicts = Vec::new();
            for _ in 0..3 {
                verdicts.push(accept_one(&listener).await.map(|s| s.subprotocol()));
            }
            verdicts
        });
        for offer in [None, Some("chat, superchat"), Some("cloudevents.avro")] {
            match raw_client(&url, offer).await {
                Err(tungstenite::Error::Http(response)) => {
                    assert_eq!(response.status(), 400, "{offer:?}");
                    assert!(
                        response.headers().get("sec-websocket-protocol").is_none(),
                        "{offer:?}: CE WebSockets binding 1.4: no Sec-WebSocket-Protocol"
                    );
                    let body = String::from_utf8(response.into_body().unwrap()).unwrap();
                    assert!(body.contains("cloudevents.json"), "{body}");
                }
                other => panic!("{offer:?}: expected a 400 refusal, got {other:?}"),
            }
        }
        let verdicts = server.await.unwrap();
        let offered: Vec<Vec<String>> = verdicts
            .into_iter()
            .map(|v| match v {
                Err(WebSocketError::NoSubprotocol { peer, offered, .. }) => {
                    assert_eq!(peer, "offered");
                    offered
                }
                other => panic!("expected NoSubprotocol, got {other:?}"),
            })
            .collect();
        assert_eq!(
            offered,
            [
                vec![],
                vec!["chat".to_owned(), "superchat".to_owned()],
                vec!["cloudevents.avro".to_owned()]
            ]
        );
    })
    .await;
}

/// A server that answers `cloudevents.avro`, whatever the client offered.
#[allow(clippy::result_large_err, reason = "tungstenite's callback type")]
fn choose_avro(
    _: &tungstenite::handshake::server::Request,
    mut response: tungstenite::handshake::server::Response,
) -> Result<tungstenite::handshake::server::Response, tungstenite::handshake::server::ErrorResponse>
{
    response.headers_mut().insert(
        "sec-websocket-protocol",
        "cloudevents.avro".parse().unwrap(),
    );
    Ok(response)
}

#[tokio::test]
async fn a_server_choosing_no_subprotocol_or_another_is_refused_by_the_client() {
    bounded(async {
        let (listener, url) = listen().await;
        let (done, finished) = oneshot::channel::<()>();
        tokio::spawn(async move {
            // First a server that ignores the offer, then one that answers a protocol the
            // client did not offer.
            let (tcp, _) = listener.accept().await.unwrap();
            let _plain = tokio_tungstenite::accept_async(tcp).await;
            let (tcp, _) = listener.accept().await.unwrap();
            let _other = tokio_tungstenite::accept_hdr_async(tcp, choose_avro).await;
            let _ = finished.await;
        });
        for expected in ["none", "did not offer"] {
            match websocket::connect(url.as_str(), &[Subprotocol::Json]).await {
                Err(err @ WebSocketError::NoSubprotocol { .. }) => {
                    let text = err.to_string();
                    assert!(text.contains("CE WebSockets binding 1.4"), "{text}");
                    assert!(text.contains(expected), "{text}");
                }
                other => panic!("expected NoSubprotocol, got {:?}", other.map(|_| ())),
            }
        }
        let _ = done.send(());
    })
    .await;
}

#[tokio::test]
async fn a_message_over_256_kib_is_refused_before_it_is_buffered() {
    bounded(async {
        let (listener, url) = listen().await;
        let server = tokio::spawn(async move {
            let mut stream = accept_one(&listener).await.unwrap();
            stream.receive::<AnyEvent>().await
        });
        let mut raw = raw_client(&url, Some("cloudevents.json")).await.unwrap();
        let _ = raw.send(Message::text("x".repeat(300 * 1024))).await;
        let verdict = server.await.unwrap().unwrap().unwrap_err();
        assert!(
            matches!(verdict, WebSocketError::TooLarge { limit: 262_144, .. }),
            "{verdict:?}"
        );
        assert_eq!(verdict.rule().as_str(), "INTG-STD-015 R-11");

        // The sender refuses to write one too (R-11), before anything is sent.
        let mut big = AnyEvent::new("1", "https://a.example.com", "com.example.blob.stored");
        big.set_datacontenttype(Some("text/plain".into()));
        big.set_data(Some(Data::Text("y".repeat(300 * 1024))));
        assert!(websocket::encode(&big, Subprotocol::Json).is_err());
    })
    .await;
}

/// Hostile bytes on the wire after a good handshake: the server's `receive` answers with an
/// error or the end of the stream, never a panic or a hang.
#[tokio::test]
async fn hostile_bytes_after_the_handshake_never_panic() {
    bounded(async {
        let (listener, url) = listen().await;
        let hostile: Vec<Vec<u8>> = vec![
            vec![0xff; 64],
            vec![0x81, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], // 2^64-1 length
            vec![0x81, 0x05, b'h', b'i'],                                     // unmasked, short
            vec![0x81, 0x85, 1, 2, 3, 4, 0xff, 0xfe, 0xfd, 0xfc, 0xfb],       // masked, not UTF-8
            vec![0x88, 0x80, 0, 0, 0, 0],                                     // bare close
            vec![0x0f, 0x80, 0, 0, 0, 0],                                     // reserved opcode
            b"GET / HTTP/1.1\r\n\r\n".to_vec(),
        ];
        let count = hostile.len();
        let server = tokio::spawn(async move {
            let mut outcomes = Vec::new();
            for _ in 0..count {
                let mut stream = accept_one(&listener).await.unwrap();
                let outcome = stream.receive::<AnyEvent>().await;
                outcomes.push(outcome.map(|r| r.map(|e| e.id().to_owned())));
            }
            outcomes
        });
        for bytes in hostile {
            let ws = raw_client(&url, Some("cloudevents.json")).await.unwrap();
            let tokio_tungstenite::MaybeTlsStream::Plain(mut tcp) = ws.into_inner() else {
                panic!("plain TCP expected on ws://");
            };
            tcp.write_all(&bytes).await.unwrap();
            tcp.shutdown().await.unwrap();
        }
        for outcome in server.await.unwrap() {
            assert!(!matches!(outcome, Some(Ok(_))), "{outcome:?}");
        }
    })
    .await;
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// Any payload in either frame type: `decode` never panics, and for a text frame it
    /// gives the one reader's verdict (`AnyEvent::from_slice`, `Event::<T>::from_slice`).
    #[test]
    fn hostile_frames_never_panic_and_text_frames_get_the_readers_verdict(
        payload in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..512),
            "\\{\"specversion\":\"1\\.0\",\"id\":\"[a-z]{0,3}\",\"source\":\"[a-z:/.]{0,12}\",\"type\":\"[a-z.]{0,24}\"(,\"[a-z]{1,6}\":[0-9a-z\"]{1,5})?\\}".prop_map(String::into_bytes),
        ],
        binary in any::<bool>(),
    ) {
        let frame = if binary { FrameType::Binary } else { FrameType::Text };
        let any = websocket::decode::<AnyEvent>(Subprotocol::Json, frame, &payload);
        let typed = websocket::decode::<Event<OrderCreated>>(Subprotocol::Json, frame, &payload);
        if binary {
            prop_assert!(matches!(any, Err(WebSocketError::FrameType { .. })), "{:?}", any);
            prop_assert!(matches!(typed, Err(WebSocketError::FrameType { .. })), "{:?}", typed);
        } else if payload.trim_ascii_start().starts_with(b"[") {
            prop_assert!(matches!(any, Err(WebSocketError::Batch)), "{:?}", any);
        } else {
            let reader = AnyEvent::from_slice(&payload);
            prop_assert_eq!(any.is_ok(), reader.is_ok());
            if let (Err(ours), Err(theirs)) = (&any, &reader) {
                prop_assert_eq!(ours.to_string(), theirs.to_string());
            }
            prop_assert_eq!(typed.is_ok(), Event::<OrderCreated>::from_slice(&payload).is_ok());
        }
    }
}

/// The binary subprotocols: `cloudevents.proto` and `cloudevents.avro` carry each event in a
/// binary frame, read back typed and dynamic; a text frame is refused on them.
#[cfg(all(feature = "protobuf", feature = "avro"))]
#[tokio::test]
async fn the_protobuf_and_avro_subprotocols_carry_events_in_binary_frames() {
    bounded(async {
        for subprotocol in [Subprotocol::Protobuf, Subprotocol::Avro] {
            assert_eq!(subprotocol.frame_type(), FrameType::Binary);
            let (listener, url) = listen().await;
            let server = tokio::spawn(async move {
                let (tcp, _) = listener.accept().await.unwrap();
                let mut stream = websocket::accept(tcp, &[Subprotocol::Json, subprotocol])
                    .await
                    .unwrap();
                assert_eq!(stream.subprotocol(), subprotocol);
                let typed: Event<OrderCreated> = stream.receive().await.unwrap().unwrap();
                let policy = Policy::new(Profile::CloudEvents);
                let dynamic = stream.receive_any_with(&policy).await.unwrap().unwrap();
                stream.send(&typed).await.unwrap();
                assert!(stream.receive::<AnyEvent>().await.is_none());
                (typed, dynamic)
            });
            // The client prefers the binary format; the server picks the client's first.
            let mut client = websocket::connect(url.as_str(), &[subprotocol, Subprotocol::Json])
                .await
                .unwrap();
            assert_eq!(client.subprotocol(), subprotocol);
            let sent = order(7);
            client.send(&sent).await.unwrap();
            client.send(&sent).await.unwrap();
            let echoed: Event<OrderCreated> = client.receive().await.unwrap().unwrap();
            client.close().await.unwrap();
            let (typed, dynamic) = server.await.unwrap();
            assert_eq!(typed, sent);
            assert_eq!(echoed, sent);
            assert_eq!(dynamic.id(), sent.id());
            assert_eq!(dynamic.ty(), "com.example.order.created");

            let payload = websocket::encode(&sent, subprotocol).unwrap();
            assert!(matches!(
                websocket::decode::<AnyEvent>(subprotocol, FrameType::Text, &payload),
                Err(WebSocketError::FrameType { .. })
            ));
            let back: Event<OrderCreated> =
                websocket::decode(subprotocol, FrameType::Binary, &payload).unwrap();
            assert_eq!(back, sent);
        }
    })
    .await;
}

/// The stream filter over a WebSocket: the server's `EventStream` read as a `Stream` (`unfold`
/// over `receive`), then `.select(filter)` with a `cesql!` checked against the payload type.
/// Only the selected orders come out, in order, and the event of another type as its error;
/// the stream ends when the client closes.
#[tokio::test]
async fn a_websocket_stream_filtered_by_cesql() {
    use cloudevent_runtime::EventStreamExt;
    use cloudevent_runtime::cesql;

    bounded(async {
        let (listener, url) = listen().await;
        let server = tokio::spawn(async move {
            let stream = accept_one(&listener).await.unwrap();
            let events = futures_util::stream::unfold(stream, |mut stream| async move {
                let next = stream.receive::<Event<OrderCreated>>().await?;
                Some((next, stream))
            });
            let filter = cesql!(OrderCreated, "subject IN ('order-1', 'order-3')");
            Box::pin(events).select(filter).collect::<Vec<_>>().await
        });
        let mut client = websocket::connect(url.as_str(), &[Subprotocol::Json])
            .await
            .unwrap();
        for n in 1..=4 {
            client.send(&order(n)).await.unwrap();
        }
        let shipped = Event::new(OrderShipped {
            order_id: "order-1".into(),
        });
        client.send(&shipped).await.unwrap();
        client.close().await.unwrap();

        let selected = server.await.unwrap();
        let ids: Vec<&str> = selected
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .map(|e| e.data().order_id.as_str())
            .collect();
        assert_eq!(ids, ["order-1", "order-3"]);
        assert_eq!(selected.len(), 3, "the shipped event passes as its error");
        assert!(selected[2].is_err());
    })
    .await;
}

/// The ordering stage over a WebSocket (issue 22): a producer stamps `sequence` with a
/// `Sequencer`; on the way in 2 and 3 are swapped and 5 is dropped. The server's
/// `EventStream`, read as `Event<T>` on one connection and as `AnyEvent` on a second, goes
/// through `.ordered(stage)`: sequence order out, the swap put back, and when the client
/// closes, the gap before 6 reported and 6 delivered.
#[tokio::test]
async fn a_websocket_stream_put_in_sequence_order() {
    use cloudevent_runtime::EventStreamExt;
    use cloudevent_runtime::order::{FileSequenceStore, Sequencer};
    use common::ordering::{SENT, assert_put_in_order, label, stage, stamped};

    bounded(async {
        let (listener, url) = listen().await;
        let server = tokio::spawn(async move {
            let stream = accept_one(&listener).await.unwrap();
            let events = futures_util::stream::unfold(stream, |mut stream| async move {
                let next = stream.receive::<Event<OrderCreated>>().await?;
                Some((next, stream))
            });
            let typed: Vec<String> = Box::pin(events)
                .ordered(stage())
                .map(|out| label(out.unwrap()))
                .collect()
                .await;
            let stream = accept_one(&listener).await.unwrap();
            let events = futures_util::stream::unfold(stream, |mut stream| async move {
                let next = stream.receive::<AnyEvent>().await?;
                Some((next, stream))
            });
            let any: Vec<String> = Box::pin(events)
                .ordered(stage())
                .map(|out| label(out.unwrap()))
                .collect()
                .await;
            (typed, any)
        });
        let dir = tempfile::tempdir().unwrap();
        let sequencer =
            Sequencer::new(FileSequenceStore::open(dir.path().join("seq.log")).unwrap());
        let stamped = stamped(&sequencer, "o-1", order).await;
        for _ in 0..2 {
            let mut client = websocket::connect(url.as_str(), &[Subprotocol::Json])
                .await
                .unwrap();
            for i in SENT {
                client.send(&stamped[i]).await.unwrap();
            }
            client.close().await.unwrap();
        }
        let (typed, any) = server.await.unwrap();
        assert_put_in_order(&typed, &any);
    })
    .await;
}
