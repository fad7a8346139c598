//! An adapter from the broker-neutral AMQP mapping ([`super::amqp`]) to `fe2o3-amqp`, a
//! pure-Rust AMQP 1.0 client: events onto sender links and off receiver links, in binary
//! mode by default (INTG-STD-015 R-9) with `cloudEvents:` application properties
//! (CE AMQP binding 3.1.3.1), or in structured mode.
//!
//! Only the message conversion lives here; the binding's rules (modes, property names,
//! value types, the checks every reader makes) are [`super::amqp`]'s and the shared receive
//! path's, so an event read off a link gets the verdict every other entry point gives.
//!
//! Tested against RabbitMQ 3.10 (Debian bookworm) with its AMQP 1.0 plugin. That broker
//! answers a closing detach with a non-closing one, which `fe2o3-amqp` takes as an error:
//! end links to it with `detach()`, not `close()`.
//!
//! ```no_run
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use cloudevent_runtime::binding::{ContentMode, fe2o3_amqp as amqp};
//! use cloudevent_runtime::binding::amqp::PropertyPrefix;
//! use cloudevent_runtime::Event;
//! use fe2o3_amqp::{Connection, Receiver, Sender, Session};
//! # #[derive(serde::Serialize, serde::Deserialize, cloudevent_runtime::CloudEvent)]
//! # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
//! # struct OrderCreated { #[cloudevent(subject)] order_id: String }
//!
//! let mut connection = Connection::open("orders", "amqp://guest:guest@127.0.0.1:5672").await?;
//! let mut session = Session::begin(&mut connection).await?;
//!
//! // Producer: binary mode, R-9's default for AMQP.
//! let mut sender = Sender::attach(&mut session, "orders-out", "/queue/orders").await?;
//! let event = Event::new(OrderCreated { order_id: "order-1".into() });
//! amqp::send(&mut sender, &event, amqp::DEFAULT_MODE, PropertyPrefix::Colon).await?;
//!
//! // Consumer: read with the shared reader, then settle.
//! let mut receiver = Receiver::attach(&mut session, "orders-in", "/queue/orders").await?;
//! let delivery = receiver.recv::<amqp::Body>().await?;
//! match amqp::read::<Event<OrderCreated>>(delivery.message()) {
//!     Ok(event) => receiver.accept(&delivery).await?,
//!     Err(refused) => receiver.reject(&delivery, amqp::rejection(&refused)).await?,
//! }
//! # Ok(()) }
//! ```

use fe2o3_amqp::link::{SendError, Sender};
use fe2o3_amqp_types::definitions;
use fe2o3_amqp_types::messaging::{
    AmqpValue, ApplicationProperties, Batch, Data, Message, Outcome, Properties,
};
use fe2o3_amqp_types::primitives::{Binary, OrderedMap, SimpleValue, Symbol, Timestamp, Value};

use super::amqp::{self, AmqpMessage, PropertyPrefix, from_message, to_message};
use super::{BindingError, BindingEvent, ContentMode};

pub use super::amqp::DEFAULT_MODE;

/// The message body type events travel in: `fe2o3-amqp`'s body of any section kind, so a
/// message with an `amqp-value` or `amqp-sequence` body is received and refused by name
/// instead of failing to decode.
pub type Body = fe2o3_amqp_types::messaging::Body<Value>;

/// What can go wrong sending an event, or reading one off a link.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AmqpError {
    /// The event cannot be written, or the message read is not a valid event.
    #[error(transparent)]
    Binding(#[from] BindingError),
    /// The body is not data sections (CE AMQP binding 3.1.1, 3.2: the event or its data is
    /// the application data).
    #[error(
        "message body is {found}: CloudEvents travel in the application data, as data sections (CE AMQP binding 3.1.1, 3.2)"
    )]
    Body {
        /// The body's section kind.
        found: &'static str,
    },
    /// The link refused or failed the transfer.
    #[error("AMQP send: {0}")]
    Send(#[from] SendError),
    /// The broker did not accept the message.
    #[error("AMQP send: the broker settled the message as {0:?}")]
    NotAccepted(Box<Outcome>),
}

impl AmqpError {
    /// The rule broken, for a refused event or body (INTG-STD-015 R-8/R-7 and the event's
    /// own rules); `None` for a link failure.
    pub fn rule(&self) -> Option<cloudevent_rules::RuleId> {
        match self {
            AmqpError::Binding(error) => Some(error.rule()),
            AmqpError::Body { .. } => Some(cloudevent_rules::rule::INTG_R8),
            AmqpError::Send(_) | AmqpError::NotAccepted(_) => None,
        }
    }
}

/// The `fe2o3-amqp` message for an event in `mode` ([`DEFAULT_MODE`]: binary).
///
/// # Errors
/// As [`super::amqp::to_message`]: batched mode, or a payload that cannot be written.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::amqp::PropertyPrefix;
/// use cloudevent_runtime::binding::fe2o3_amqp::{self as amqp, DEFAULT_MODE};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let message = amqp::to_amqp(&event, DEFAULT_MODE, PropertyPrefix::Colon).unwrap();
/// let properties = message.application_properties.as_ref().unwrap();
/// assert!(properties.get("cloudEvents:id").is_some());
/// assert_eq!(amqp::read::<AnyEvent>(&message).unwrap(), event);
/// ```
pub fn to_amqp<E: BindingEvent>(
    event: &E,
    mode: ContentMode,
    prefix: PropertyPrefix,
) -> Result<Message<Body>, BindingError> {
    Ok(into_amqp(to_message(event, mode, prefix)?))
}

/// The broker-neutral message as an `fe2o3-amqp` message: `content-type` in the properties,
/// the attributes in the application properties, the body as one data section (empty when
/// the event has no data).
pub fn into_amqp(message: AmqpMessage) -> Message<Body> {
    let properties = message.content_type.map(|content_type| {
        Properties::builder()
            .content_type(Symbol::from(content_type))
            .build()
    });
    let mut map = OrderedMap::new();
    for (name, value) in message.application_properties {
        map.insert(name, simple_value(value));
    }
    // AMQP 1.0 3.2 wants at least one body section: an event without data gets an empty
    // data section, which every reader takes as no data.
    let body = Body::Data(Batch::new(vec![Data(Binary::from(
        message.body.unwrap_or_default(),
    ))]));
    Message {
        header: None,
        delivery_annotations: None,
        message_annotations: None,
        properties,
        application_properties: (!map.is_empty()).then_some(ApplicationProperties(map)),
        body,
        footer: None,
    }
}

fn simple_value(value: amqp::AmqpValue) -> SimpleValue {
    match value {
        amqp::AmqpValue::Boolean(b) => SimpleValue::Bool(b),
        amqp::AmqpValue::Long(l) => SimpleValue::Long(l),
        amqp::AmqpValue::String(s) => SimpleValue::String(s),
        amqp::AmqpValue::Binary(bytes) => SimpleValue::Binary(Binary::from(bytes)),
        amqp::AmqpValue::Timestamp(millis) => {
            SimpleValue::Timestamp(Timestamp::from_milliseconds(millis))
        }
        // The writer never produces another type; a null is what it would mean.
        amqp::AmqpValue::Other(_) => SimpleValue::Null,
    }
}

/// A received `fe2o3-amqp` message as the broker-neutral mapping reads it.
///
/// # Errors
/// [`AmqpError::Body`] for a body that is not data sections.
pub(crate) fn from_amqp(message: &Message<Body>) -> Result<AmqpMessage, AmqpError> {
    let content_type = message
        .properties
        .as_ref()
        .and_then(|properties| properties.content_type.as_ref())
        .map(|symbol| symbol.0.clone());
    let application_properties = message
        .application_properties
        .iter()
        .flat_map(|properties| properties.0.iter())
        .map(|(name, value)| (name.clone(), amqp_value(value)))
        .collect();
    let body = match &message.body {
        // No body section, or the `amqp-value` null that RabbitMQ and Proton put where a
        // sender gave none: no application data.
        Body::Empty | Body::Value(AmqpValue(Value::Null)) => None,
        // Several data sections are one application data, concatenated (AMQP 1.0 3.2.6).
        Body::Data(sections) => Some(
            sections
                .iter()
                .flat_map(|Data(bytes)| bytes.iter().copied())
                .collect(),
        ),
        Body::Value(_) => {
            return Err(AmqpError::Body {
                found: "an amqp-value section",
            });
        }
        Body::Sequence(_) => {
            return Err(AmqpError::Body {
                found: "amqp-sequence sections",
            });
        }
    };
    Ok(AmqpMessage {
        content_type,
        application_properties,
        body,
    })
}

/// The mapping's view of a property value. The signed integer types widen to `long`
/// losslessly; every other type is named, and refused if it carries an attribute.
fn amqp_value(value: &SimpleValue) -> amqp::AmqpValue {
    match value {
        SimpleValue::Bool(b) => amqp::AmqpValue::Boolean(*b),
        SimpleValue::Long(l) => amqp::AmqpValue::Long(*l),
        SimpleValue::Int(i) => amqp::AmqpValue::Long((*i).into()),
        SimpleValue::Short(s) => amqp::AmqpValue::Long((*s).into()),
        SimpleValue::Byte(b) => amqp::AmqpValue::Long((*b).into()),
        SimpleValue::String(s) => amqp::AmqpValue::String(s.clone()),
        SimpleValue::Binary(bytes) => amqp::AmqpValue::Binary(bytes.to_vec()),
        SimpleValue::Timestamp(t) => amqp::AmqpValue::Timestamp(t.milliseconds()),
        SimpleValue::Null => amqp::AmqpValue::Other("null"),
        SimpleValue::Ubyte(_) => amqp::AmqpValue::Other("ubyte"),
        SimpleValue::Ushort(_) => amqp::AmqpValue::Other("ushort"),
        SimpleValue::Uint(_) => amqp::AmqpValue::Other("uint"),
        SimpleValue::Ulong(_) => amqp::AmqpValue::Other("ulong"),
        SimpleValue::Float(_) => amqp::AmqpValue::Other("float"),
        SimpleValue::Double(_) => amqp::AmqpValue::Other("double"),
        SimpleValue::Decimal32(_) | SimpleValue::Decimal64(_) | SimpleValue::Decimal128(_) => {
            amqp::AmqpValue::Other("decimal")
        }
        SimpleValue::Char(_) => amqp::AmqpValue::Other("char"),
        SimpleValue::Uuid(_) => amqp::AmqpValue::Other("uuid"),
        SimpleValue::Symbol(_) => amqp::AmqpValue::Other("symbol"),
        SimpleValue::Described(_) => amqp::AmqpValue::Other("described"),
    }
}

/// Reads an event from a received message, in the mode its `content-type` names, with `E`'s
/// reader and policy.
///
/// # Errors
/// [`AmqpError::Body`] for a body that is not data sections, [`AmqpError::Binding`] with
/// the reader's verdict.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::amqp::{AmqpMessage, AmqpValue};
/// use cloudevent_runtime::binding::fe2o3_amqp::{into_amqp, read};
///
/// let property = |name: &str, value: &str| (format!("cloudEvents:{name}"), AmqpValue::String(value.into()));
/// let message = into_amqp(AmqpMessage {
///     application_properties: vec![property("specversion", "1.0"), property("id", "1"), property("type", "com.example.order.created")],
///     ..Default::default()
/// });
/// let refused = read::<AnyEvent>(&message).unwrap_err();
/// assert!(refused.to_string().contains("source"));
/// ```
pub fn read<E: BindingEvent>(message: &Message<Body>) -> Result<E, AmqpError> {
    Ok(from_message(&from_amqp(message)?)?)
}

/// Sends an event on a sender link and waits for the broker's outcome.
///
/// # Errors
/// [`AmqpError::Binding`] before anything is sent (batched mode, an event over 256 KiB),
/// [`AmqpError::Send`] for a link failure, [`AmqpError::NotAccepted`] when the broker
/// rejects, releases or modifies the message.
pub async fn send<E: BindingEvent>(
    sender: &mut Sender,
    event: &E,
    mode: ContentMode,
    prefix: PropertyPrefix,
) -> Result<(), AmqpError> {
    let message = to_amqp(event, mode, prefix)?;
    match sender.send(message).await? {
        Outcome::Accepted(_) => Ok(()),
        other => Err(AmqpError::NotAccepted(Box::new(other))),
    }
}

/// The AMQP error to reject a delivery with when its event is refused: `amqp:decode-error`
/// with the refusal (its rule id and what was found) as the description.
///
/// ```
/// use cloudevent_runtime::binding::fe2o3_amqp::{AmqpError, rejection};
///
/// let error = rejection(&AmqpError::Body { found: "an amqp-value section" });
/// assert!(error.description.unwrap().contains("CE AMQP binding"));
/// ```
pub fn rejection(refused: &AmqpError) -> definitions::Error {
    definitions::Error::new(
        definitions::AmqpError::DecodeError,
        Some(refused.to_string()),
        None,
    )
}
