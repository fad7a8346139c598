//! [`KafkaRecord`] to and from rust-rdkafka's types: [`OwnedHeaders`], [`FutureRecord`], and
//! any [`Message`] (a consumer's `BorrowedMessage`, or an `OwnedMessage`).
//!
//! rdkafka links librdkafka dynamically (Debian's `librdkafka-dev`), so this feature needs
//! the system library at build time.

use rdkafka::message::{Header, Headers, Message, OwnedHeaders};
use rdkafka::producer::{BaseRecord, FutureRecord};

use super::kafka::KafkaRecord;

/// The record's headers as rdkafka headers (null values stay null).
pub(crate) fn to_owned_headers(record: &KafkaRecord) -> OwnedHeaders {
    record.headers.iter().fold(
        OwnedHeaders::new_with_capacity(record.headers.len()),
        |headers, (key, value)| {
            headers.insert(Header {
                key,
                value: value.as_deref(),
            })
        },
    )
}

/// A producer record for `topic` borrowing the record's key and value.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::{ContentMode, kafka, rdkafka::future_record};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let record = kafka::to_record(&event, ContentMode::Structured).unwrap();
/// let future = future_record("orders", &record);
/// assert_eq!(future.topic, "orders");
/// assert!(future.payload.is_some());
/// ```
pub fn future_record<'a>(topic: &'a str, record: &'a KafkaRecord) -> FutureRecord<'a, [u8], [u8]> {
    let mut future = FutureRecord::to(topic).headers(to_owned_headers(record));
    if let Some(key) = record.key.as_deref() {
        future = future.key(key);
    }
    if let Some(value) = record.value.as_deref() {
        future = future.payload(value);
    }
    future
}

/// A record for rdkafka's `BaseProducer` (the polling producer, which needs no async
/// runtime) for `topic`, borrowing the record's key and value.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::{ContentMode, kafka, rdkafka::base_record};
/// use rdkafka::message::Headers;
///
/// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// event.set_subject(Some("order-1".into()));
/// let record = kafka::to_record(&event, ContentMode::Binary).unwrap();
/// let base = base_record("orders", &record);
/// assert_eq!(base.key, Some(&b"order-1"[..]));
/// assert_eq!(base.headers.unwrap().get(0).key, "ce_specversion");
/// ```
pub fn base_record<'a>(topic: &'a str, record: &'a KafkaRecord) -> BaseRecord<'a, [u8], [u8]> {
    let mut base = BaseRecord::to(topic).headers(to_owned_headers(record));
    if let Some(key) = record.key.as_deref() {
        base = base.key(key);
    }
    if let Some(value) = record.value.as_deref() {
        base = base.payload(value);
    }
    base
}

/// The record a consumed message holds. Header values that are null stay `None`; reading
/// them as an event reports the header (never a panic).
pub fn from_message<M: Message>(message: &M) -> KafkaRecord {
    let headers = message
        .headers()
        .map(|headers| {
            headers
                .iter()
                .map(|header| (header.key.to_owned(), header.value.map(<[u8]>::to_vec)))
                .collect()
        })
        .unwrap_or_default();
    KafkaRecord {
        key: message.key().map(<[u8]>::to_vec),
        headers,
        value: message.payload().map(<[u8]>::to_vec),
    }
}

#[cfg(test)]
mod tests {
    use rdkafka::Timestamp;
    use rdkafka::message::OwnedMessage;

    use super::*;
    use crate::AnyEvent;
    use crate::binding::kafka::{from_record, to_record};
    use crate::binding::{BindingError, ContentMode};

    fn consumed(record: &KafkaRecord) -> OwnedMessage {
        OwnedMessage::new(
            record.value.clone(),
            record.key.clone(),
            "orders".into(),
            Timestamp::NotAvailable,
            0,
            42,
            Some(to_owned_headers(record)),
        )
    }

    #[test]
    fn event_survives_an_rdkafka_message_in_both_modes() {
        let mut event = AnyEvent::new(
            "1",
            "https://orders.example.com",
            "com.example.order.created",
        );
        event.set_subject(Some("order-1".into()));
        event.set_datacontenttype(Some("application/json".into()));
        event.set_data(Some(crate::Data::json(r#"{"n":1}"#).unwrap()));
        for mode in [ContentMode::Binary, ContentMode::Structured] {
            let record = to_record(&event, mode).unwrap();
            let future = future_record("orders", &record);
            assert_eq!(future.key, Some(&b"order-1"[..]));
            let back = from_message(&consumed(&record));
            assert_eq!(back, record);
            assert_eq!(from_record::<AnyEvent>(&back).unwrap(), event);
        }
    }

    #[test]
    fn null_header_from_the_broker_is_an_error() {
        let record = KafkaRecord {
            headers: vec![
                ("ce_specversion".into(), Some(b"1.0".to_vec())),
                ("ce_id".into(), None),
            ],
            ..KafkaRecord::default()
        };
        let back = from_message(&consumed(&record));
        assert_eq!(back.headers[1].1, None);
        assert!(matches!(
            from_record::<AnyEvent>(&back),
            Err(BindingError::NullHeader { .. })
        ));
    }
}
