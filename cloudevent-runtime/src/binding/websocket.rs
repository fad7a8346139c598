//! The WebSockets binding (CloudEvents WebSockets Protocol Binding 1.0.2), on
//! `tokio-tungstenite`: full-duplex streams of events, one event a message.
//!
//! - **Handshake** (binding 1.4): the client offers one or more CloudEvents subprotocols in
//!   `Sec-WebSocket-Protocol`; the server answers with the one it chose. A server offered
//!   none it supports refuses the upgrade (`400`, without a `Sec-WebSocket-Protocol`
//!   header, as 1.4 asks); a client whose server chose none, or one it did not offer, fails
//!   with a [`WebSocketError`]. The format is fixed for the stream.
//! - **Messages** (binding 1.5, 3): structured mode only (INTG-STD-015 R-7), one event a
//!   message in the agreed format, in the format's frame type: `cloudevents.json` in text
//!   frames, `cloudevents.proto` (feature `protobuf`) and `cloudevents.avro` (feature `avro`)
//!   in binary frames. A received message is read by the same reader as every other entry
//!   point (the format's reader of [`super::StructuredFormat`] under the event type's policy,
//!   or a gateway's through [`EventStream::receive_any_with`]), so it gets the same verdict;
//!   a frame of the wrong type, a batch (the binding does not carry the batch formats) and a
//!   message over 256 KiB (R-11, refused by the WebSocket layer before it is buffered) are
//!   typed errors too.
//!
//! [`Subprotocol`] lists the formats this build implements, one variant a format.
//!
//! ```
//! # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use cloudevent_runtime::binding::websocket::{self, Subprotocol};
//! use cloudevent_runtime::Event;
//! # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, cloudevent_runtime::CloudEvent)]
//! # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
//! # struct OrderCreated { #[cloudevent(subject)] order_id: String }
//!
//! // Consumer: accept a connection, read typed events until the producer closes.
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let url = format!("ws://{}/events", listener.local_addr()?);
//! let consumer = tokio::spawn(async move {
//!     let (tcp, _) = listener.accept().await.unwrap();
//!     let mut stream = websocket::accept(tcp, &[Subprotocol::Json]).await.unwrap();
//!     let mut received = Vec::new();
//!     while let Some(event) = stream.receive::<Event<OrderCreated>>().await {
//!         match event {
//!             Ok(event) => received.push(event),
//!             Err(refused) => eprintln!("{refused}"), // the rule id and what was found
//!         }
//!     }
//!     received
//! });
//!
//! // Producer: offer `cloudevents.json`, send an event, close.
//! let mut stream = websocket::connect(url.as_str(), &[Subprotocol::Json]).await?;
//! let event = Event::new(OrderCreated { order_id: "order-1".into() });
//! stream.send(&event).await?;
//! stream.close().await?;
//! assert_eq!(consumer.await?, [event]);
//! # Ok(()) }
//! ```

use std::fmt;

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::error::{CapacityError, ProtocolError, SubProtocolError};
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::{HeaderMap, HeaderValue, StatusCode, header};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::{BindingError, BindingEvent};
use crate::{AnyEvent, Policy, limits};

/// A CloudEvents WebSocket subprotocol: the event format of a stream (CE WebSockets binding
/// 1.5). New formats are added as variants; match with a wildcard arm.
///
/// ```
/// use cloudevent_runtime::binding::websocket::{FrameType, Subprotocol};
///
/// assert_eq!(Subprotocol::Json.to_string(), "cloudevents.json");
/// assert_eq!(Subprotocol::Json.frame_type(), FrameType::Text);
/// assert!(Subprotocol::ALL.contains(&Subprotocol::Json));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Subprotocol {
    /// `cloudevents.json`: the JSON event format, in text frames. Every implementation
    /// supports it (CE WebSockets binding 1.5).
    Json,
    /// `cloudevents.proto`: the Protobuf event format, in binary frames (feature `protobuf`).
    #[cfg(feature = "protobuf")]
    Protobuf,
    /// `cloudevents.avro`: the Avro event format, in binary frames (feature `avro`).
    #[cfg(feature = "avro")]
    Avro,
}

impl Subprotocol {
    /// Every subprotocol this build implements, in the order a client offers them.
    pub const ALL: &'static [Subprotocol] = &[
        Subprotocol::Json,
        #[cfg(feature = "protobuf")]
        Subprotocol::Protobuf,
        #[cfg(feature = "avro")]
        Subprotocol::Avro,
    ];

    /// The subprotocol's name in `Sec-WebSocket-Protocol` (its `Display`).
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Subprotocol::Json => "cloudevents.json",
            #[cfg(feature = "protobuf")]
            Subprotocol::Protobuf => "cloudevents.proto",
            #[cfg(feature = "avro")]
            Subprotocol::Avro => "cloudevents.avro",
        }
    }

    /// The frame type senders MUST use for it (CE WebSockets binding 1.5).
    pub const fn frame_type(self) -> FrameType {
        match self {
            Subprotocol::Json => FrameType::Text,
            #[cfg(feature = "protobuf")]
            Subprotocol::Protobuf => FrameType::Binary,
            #[cfg(feature = "avro")]
            Subprotocol::Avro => FrameType::Binary,
        }
    }

    /// The event format the subprotocol carries.
    pub(crate) const fn format(self) -> super::StructuredFormat {
        match self {
            Subprotocol::Json => super::StructuredFormat::Json,
            #[cfg(feature = "protobuf")]
            Subprotocol::Protobuf => super::StructuredFormat::Protobuf,
            #[cfg(feature = "avro")]
            Subprotocol::Avro => super::StructuredFormat::Avro,
        }
    }

    /// The subprotocol of that name, if this build implements it (names are compared
    /// exactly, as RFC 6455 4.1 compares them).
    pub(crate) fn from_name(name: &str) -> Option<Subprotocol> {
        Subprotocol::ALL.iter().copied().find(|p| p.name() == name)
    }
}

impl fmt::Display for Subprotocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A WebSocket data frame type (RFC 6455 5.6).
///
/// ```
/// use cloudevent_runtime::binding::websocket::FrameType;
/// assert_eq!(FrameType::Text.to_string(), "text");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrameType {
    /// Text: UTF-8.
    Text,
    /// Binary.
    Binary,
}

impl fmt::Display for FrameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FrameType::Text => "text",
            FrameType::Binary => "binary",
        })
    }
}

/// What can go wrong on a CloudEvents WebSocket stream.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::websocket::{self, FrameType, Subprotocol, WebSocketError};
///
/// let err = websocket::decode::<AnyEvent>(Subprotocol::Json, FrameType::Binary, b"{}").unwrap_err();
/// assert!(matches!(err, WebSocketError::FrameType { .. }));
/// assert_eq!(err.rule().as_str(), "INTG-STD-015 R-7");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WebSocketError {
    /// The other side offered (client) or chose (server) no CloudEvents subprotocol this
    /// side supports.
    #[error(
        "no CloudEvents subprotocol agreed: the peer {peer} {}, this side supports {} (CE WebSockets binding 1.4)",
        if offered.is_empty() { "none".to_owned() } else { format!("`{}`", offered.join(", ")) },
        supported.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
    )]
    NoSubprotocol {
        /// `offered` (the client's list) or `chose` (the server's answer).
        peer: &'static str,
        /// What the peer's `Sec-WebSocket-Protocol` named.
        offered: Vec<String>,
        /// What this side supports.
        supported: Vec<Subprotocol>,
    },
    /// A data frame of the other type than the stream's format uses.
    #[error(
        "a {found} frame on a `{subprotocol}` stream, whose events travel in {} frames (CE WebSockets binding 1.5)",
        subprotocol.frame_type()
    )]
    FrameType {
        /// The stream's subprotocol.
        subprotocol: Subprotocol,
        /// The frame type received.
        found: FrameType,
    },
    /// A JSON array in one message: the binding carries one event a message.
    #[error(
        "a JSON batch in one message: the WebSockets binding carries one event a message and does not support the JSON batch format (CE WebSockets binding 1.5, INTG-STD-015 R-7)"
    )]
    Batch,
    /// A message over the size limit, refused before it was buffered.
    #[error("message of {size} bytes exceeds the {limit}-byte limit (INTG-STD-015 R-11)")]
    TooLarge {
        /// The size the frame announced.
        size: usize,
        /// [`limits::MAX_EVENT_BYTES`].
        limit: usize,
    },
    /// The event in the message: what every reader refuses, with its rule id.
    #[error(transparent)]
    Event(#[from] BindingError),
    /// The WebSocket connection itself (I/O, protocol).
    #[error("WebSocket: {0}")]
    WebSocket(#[source] Box<tungstenite::Error>),
}

impl WebSocketError {
    /// The rule broken: the event's own for [`WebSocketError::Event`], R-11 for the size,
    /// R-7 (structured mode, one JSON object a message) for the binding's framing.
    pub fn rule(&self) -> cloudevent_rules::RuleId {
        use cloudevent_rules::rule;
        match self {
            WebSocketError::Event(error) => error.rule(),
            WebSocketError::TooLarge { .. } => rule::INTG_R11,
            _ => rule::INTG_R7,
        }
    }
}

impl From<tungstenite::Error> for WebSocketError {
    fn from(error: tungstenite::Error) -> Self {
        match error {
            tungstenite::Error::Capacity(CapacityError::MessageTooLong { size, .. }) => {
                WebSocketError::TooLarge {
                    size,
                    limit: limits::MAX_EVENT_BYTES,
                }
            }
            other => WebSocketError::WebSocket(Box::new(other)),
        }
    }
}

/// The payload of the message carrying `event` under `subprotocol`, to be sent in a
/// [`Subprotocol::frame_type`] frame. For a WebSocket library other than the one
/// [`EventStream`] uses (say, axum's).
///
/// # Errors
/// [`BindingError::TooLarge`] over 256 KiB (R-11), or a payload that cannot be serialized.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::websocket::{self, FrameType, Subprotocol};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let payload = websocket::encode(&event, Subprotocol::Json).unwrap();
/// assert!(payload.starts_with(br#"{"specversion":"1.0""#));
/// let back: AnyEvent = websocket::decode(Subprotocol::Json, FrameType::Text, &payload).unwrap();
/// assert_eq!(back, event);
/// ```
pub fn encode<E: BindingEvent>(
    event: &E,
    subprotocol: Subprotocol,
) -> Result<Vec<u8>, BindingError> {
    match subprotocol {
        Subprotocol::Json => event.to_structured(),
        #[cfg(any(feature = "protobuf", feature = "avro"))]
        other => super::structured_body(event, other.format()),
    }
}

/// The event in a received message's payload, read by `E`'s reader under its policy (the
/// one every entry point shares).
///
/// # Errors
/// [`WebSocketError::FrameType`] for a frame of the other type, [`WebSocketError::Batch`]
/// for a JSON array, [`WebSocketError::Event`] with the reader's verdict otherwise.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::websocket::{self, FrameType, Subprotocol};
///
/// let err = websocket::decode::<AnyEvent>(Subprotocol::Json, FrameType::Text, br#"{"specversion":"1.0"}"#).unwrap_err();
/// assert!(err.to_string().contains("id"));
/// ```
pub fn decode<E: BindingEvent>(
    subprotocol: Subprotocol,
    frame: FrameType,
    payload: &[u8],
) -> Result<E, WebSocketError> {
    decode_with(subprotocol, frame, payload, |bytes| {
        super::format::event_from::<E>(subprotocol.format(), bytes)
    })
}

fn decode_with<E>(
    subprotocol: Subprotocol,
    frame: FrameType,
    payload: &[u8],
    read: impl FnOnce(&[u8]) -> Result<E, BindingError>,
) -> Result<E, WebSocketError> {
    if frame != subprotocol.frame_type() {
        return Err(WebSocketError::FrameType {
            subprotocol,
            found: frame,
        });
    }
    match subprotocol {
        Subprotocol::Json => {
            if payload.trim_ascii_start().starts_with(b"[") {
                return Err(WebSocketError::Batch);
            }
            Ok(read(payload)?)
        }
        // The binary formats' batches have their own media types, which no subprotocol
        // names: a frame is read as one event, and a batch message fails that read.
        #[cfg(any(feature = "protobuf", feature = "avro"))]
        _ => Ok(read(payload)?),
    }
}

/// The WebSocket limits every stream here runs with: a message or frame over 256 KiB
/// (R-11) is refused by the WebSocket layer before it is buffered.
fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(limits::MAX_EVENT_BYTES))
        .max_frame_size(Some(limits::MAX_EVENT_BYTES))
}

/// Every subprotocol named in `Sec-WebSocket-Protocol` headers (comma-separated, possibly
/// repeated), in order.
fn named_subprotocols(headers: &HeaderMap) -> Vec<String> {
    let mut names = Vec::new();
    for value in headers.get_all(header::SEC_WEBSOCKET_PROTOCOL) {
        // A name that is not a token (RFC 6455 4.1) matches no subprotocol; it is kept,
        // lossily, to be named in the refusal.
        let value = String::from_utf8_lossy(value.as_bytes());
        names.extend(
            value
                .split(',')
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .map(str::to_owned),
        );
    }
    names
}

/// The first subprotocol in the client's order of preference that the server supports.
pub(crate) fn choose(offered: &[String], supported: &[Subprotocol]) -> Option<Subprotocol> {
    offered
        .iter()
        .filter_map(|name| Subprotocol::from_name(name))
        .find(|p| supported.contains(p))
}

/// Opens a client stream: offers `subprotocols` (in order of preference) and checks the
/// server's choice. Plain `ws://` over TCP; for TLS, connect the stream yourself and use
/// [`client`].
///
/// # Errors
/// [`WebSocketError::NoSubprotocol`] when the server chose none of them, or one not
/// offered; [`WebSocketError::WebSocket`] when the connection or handshake fails.
pub async fn connect(
    request: impl IntoClientRequest + Unpin,
    subprotocols: &[Subprotocol],
) -> Result<EventStream<MaybeTlsStream<TcpStream>>, WebSocketError> {
    let request = offer(request, subprotocols)?;
    let result = tokio_tungstenite::connect_async_with_config(request, Some(config()), true).await;
    handshake_done(result, subprotocols)
}

/// [`connect`] over a stream the caller opened (TLS, a proxy tunnel).
///
/// # Errors
/// As for [`connect`].
pub async fn client<S>(
    request: impl IntoClientRequest + Unpin,
    stream: S,
    subprotocols: &[Subprotocol],
) -> Result<EventStream<S>, WebSocketError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let request = offer(request, subprotocols)?;
    let result = tokio_tungstenite::client_async_with_config(request, stream, Some(config())).await;
    handshake_done(result, subprotocols)
}

fn offer(
    request: impl IntoClientRequest,
    subprotocols: &[Subprotocol],
) -> Result<tungstenite::handshake::client::Request, WebSocketError> {
    let mut request = request.into_client_request()?;
    let names: Vec<&str> = subprotocols.iter().map(|p| p.name()).collect();
    // Subprotocol names are tokens (RFC 6455 4.1), always a valid header value.
    let value = HeaderValue::from_str(&names.join(", "))
        .map_err(|error| tungstenite::Error::HttpFormat(error.into()))?;
    request
        .headers_mut()
        .insert(header::SEC_WEBSOCKET_PROTOCOL, value);
    Ok(request)
}

fn handshake_done<S>(
    result: Result<
        (WebSocketStream<S>, tungstenite::handshake::client::Response),
        tungstenite::Error,
    >,
    subprotocols: &[Subprotocol],
) -> Result<EventStream<S>, WebSocketError> {
    let refused = |offered: Vec<String>| WebSocketError::NoSubprotocol {
        peer: "chose",
        offered,
        supported: subprotocols.to_vec(),
    };
    let (ws, response) = match result {
        Ok(done) => done,
        // tungstenite checks the answer against the offer (RFC 6455 4.1); its verdicts are
        // ours, with the binding's words.
        Err(tungstenite::Error::Protocol(ProtocolError::SecWebSocketSubProtocolError(
            SubProtocolError::NoSubProtocol,
        ))) => return Err(refused(Vec::new())),
        Err(tungstenite::Error::Protocol(ProtocolError::SecWebSocketSubProtocolError(_))) => {
            return Err(refused(vec![
                "a subprotocol this client did not offer".to_owned(),
            ]));
        }
        Err(other) => return Err(other.into()),
    };
    let chosen = named_subprotocols(response.headers());
    match chosen.as_slice() {
        [one] => match Subprotocol::from_name(one).filter(|p| subprotocols.contains(p)) {
            Some(subprotocol) => Ok(EventStream { ws, subprotocol }),
            None => Err(refused(chosen)),
        },
        _ => Err(refused(chosen)),
    }
}

/// Accepts a client stream on a connection the server accepted: chooses the first
/// subprotocol the client offers that is in `supported`, and answers with it. A client that
/// offers none of them gets `400 Bad Request` without a `Sec-WebSocket-Protocol` header
/// (CE WebSockets binding 1.4) and a body naming what is supported.
///
/// # Errors
/// [`WebSocketError::NoSubprotocol`] after refusing such a client;
/// [`WebSocketError::WebSocket`] when the handshake fails.
pub async fn accept<S>(
    stream: S,
    supported: &[Subprotocol],
) -> Result<EventStream<S>, WebSocketError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut offered = Vec::new();
    let mut chosen = None;
    #[allow(
        clippy::result_large_err,
        reason = "tungstenite's handshake callback type, not ours"
    )]
    let callback = |request: &Request, mut response: Response| -> Result<Response, ErrorResponse> {
        offered = named_subprotocols(request.headers());
        chosen = choose(&offered, supported);
        let Some(subprotocol) = chosen else {
            let names: Vec<&str> = supported.iter().map(|p| p.name()).collect();
            let mut refusal = ErrorResponse::new(Some(format!(
                "no supported CloudEvents subprotocol offered in Sec-WebSocket-Protocol; supported: {} (CE WebSockets binding 1.4)",
                names.join(", ")
            )));
            *refusal.status_mut() = StatusCode::BAD_REQUEST;
            return Err(refusal);
        };
        response.headers_mut().insert(
            header::SEC_WEBSOCKET_PROTOCOL,
            HeaderValue::from_static(subprotocol.name()),
        );
        Ok(response)
    };
    let result =
        tokio_tungstenite::accept_hdr_async_with_config(stream, callback, Some(config())).await;
    match (result, chosen) {
        (Ok(ws), Some(subprotocol)) => Ok(EventStream { ws, subprotocol }),
        // The callback refused the upgrade (the only way to get here without a choice).
        (Ok(_) | Err(tungstenite::Error::Http(_)), None) => Err(WebSocketError::NoSubprotocol {
            peer: "offered",
            offered,
            supported: supported.to_vec(),
        }),
        (Err(error), _) => Err(error.into()),
    }
}

/// A CloudEvents WebSocket stream, client or server side, with its agreed subprotocol.
#[derive(Debug)]
pub struct EventStream<S> {
    ws: WebSocketStream<S>,
    subprotocol: Subprotocol,
}

impl<S: AsyncRead + AsyncWrite + Unpin> EventStream<S> {
    /// The subprotocol agreed in the handshake.
    pub fn subprotocol(&self) -> Subprotocol {
        self.subprotocol
    }

    /// Sends one event as one message in the stream's format and frame type.
    ///
    /// # Errors
    /// [`WebSocketError::Event`] for an event that cannot be written (over 256 KiB, R-11),
    /// [`WebSocketError::WebSocket`] when the connection fails.
    pub async fn send<E: BindingEvent>(&mut self, event: &E) -> Result<(), WebSocketError> {
        let payload = encode(event, self.subprotocol)?;
        let message = match self.subprotocol.frame_type() {
            FrameType::Text => Message::text(
                String::from_utf8(payload).expect("the JSON event format writes UTF-8"),
            ),
            FrameType::Binary => Message::binary(payload),
        };
        Ok(self.ws.send(message).await?)
    }

    /// The next event, read by `E`'s reader under its policy; `None` once the stream has
    /// closed (the peer's close is answered first). Pings are answered and skipped. A
    /// refused message is an `Err`, and the stream stays usable for the next one.
    pub async fn receive<E: BindingEvent>(&mut self) -> Option<Result<E, WebSocketError>> {
        let format = self.subprotocol.format();
        self.receive_with(|bytes| super::format::event_from::<E>(format, bytes))
            .await
    }

    /// [`EventStream::receive`] for a dynamic event under a given policy (a gateway's),
    /// through [`AnyEvent::decode_with`].
    pub async fn receive_any_with(
        &mut self,
        policy: &Policy,
    ) -> Option<Result<AnyEvent, WebSocketError>> {
        let format = self.subprotocol.format();
        self.receive_with(|bytes| Ok(super::format::any_event_from(format, bytes, policy)?))
            .await
    }

    async fn receive_with<E>(
        &mut self,
        read: impl FnOnce(&[u8]) -> Result<E, BindingError>,
    ) -> Option<Result<E, WebSocketError>> {
        loop {
            let (frame, payload) = match self.ws.next().await? {
                Ok(Message::Text(text)) => (FrameType::Text, text.into()),
                Ok(Message::Binary(bytes)) => (FrameType::Binary, bytes),
                // Pings are answered by tungstenite; a close is answered on the next poll,
                // which then ends the stream.
                Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_) | Message::Close(_)) => {
                    continue;
                }
                Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
                    return None;
                }
                Err(error) => return Some(Err(error.into())),
            };
            return Some(decode_with(self.subprotocol, frame, &payload, read));
        }
    }

    /// Closes the stream (normal closure) and waits for the peer's close. Messages the peer
    /// sent after this side's close are not read (RFC 6455 5.5.1).
    ///
    /// # Errors
    /// [`WebSocketError::WebSocket`] when the connection fails while closing.
    pub async fn close(mut self) -> Result<(), WebSocketError> {
        match self.ws.close(None).await {
            Ok(()) | Err(tungstenite::Error::ConnectionClosed) => {}
            Err(error) => return Err(error.into()),
        }
        while let Some(message) = self.ws.next().await {
            match message {
                Ok(_) => {}
                Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
                    break;
                }
                Err(error) => return Err(error.into()),
            }
        }
        Ok(())
    }

    /// The underlying `tokio-tungstenite` stream, e.g. to split it into a sink and a stream
    /// and use [`encode`] and [`decode`] on each side.
    pub fn into_inner(self) -> WebSocketStream<S> {
        self.ws
    }
}
