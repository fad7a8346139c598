//! The messages of the CloudEvents Protobuf format, derived with `prost` by hand from our copy
//! of the specification's schema (`cloudevent-runtime/proto/cloudevents.proto`; source noted
//! there): package `io.cloudevents.v1`, the same field numbers and types. No build script
//! and no `protoc` are needed.
//!
//! The runtime's own reader and writer ([`AnyEvent::decode`](crate::AnyEvent::decode) and
//! [`AnyEvent::encode`](crate::AnyEvent::encode)`::<Protobuf>`) work on the wire directly, so
//! they can refuse what `prost` would accept silently (an unknown field, a field given twice,
//! an `int32` outside its range); these messages are the reference they are tested against,
//! and the types for code that wants the plain message.
//!
//! ```
//! use cloudevent_runtime::{AnyEvent, Protobuf};
//! use cloudevent_runtime::protobuf::messages::CloudEvent;
//! use prost::Message as _;
//!
//! let event = AnyEvent::new("1", "/orders", "com.example.order.created");
//! let message = CloudEvent::decode(event.encode::<Protobuf>().unwrap().as_slice()).unwrap();
//! assert_eq!(message.spec_version, "1.0");
//! assert_eq!(message.r#type, "com.example.order.created");
//! ```

use std::collections::BTreeMap;

/// `io.cloudevents.v1.CloudEvent`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CloudEvent {
    /// `id`, field 1.
    #[prost(string, tag = "1")]
    pub id: String,
    /// `source` (URI-reference), field 2.
    #[prost(string, tag = "2")]
    pub source: String,
    /// `specversion`, field 3.
    #[prost(string, tag = "3")]
    pub spec_version: String,
    /// `type`, field 4.
    #[prost(string, tag = "4")]
    pub r#type: String,
    /// Optional attributes and extensions, field 5.
    #[prost(btree_map = "string, message", tag = "5")]
    pub attributes: BTreeMap<String, cloud_event::CloudEventAttributeValue>,
    /// The data, fields 6 to 8.
    #[prost(oneof = "cloud_event::Data", tags = "6, 7, 8")]
    pub data: Option<cloud_event::Data>,
}

/// The messages and oneofs nested in [`CloudEvent`].
pub mod cloud_event {
    /// `io.cloudevents.v1.CloudEvent.CloudEventAttributeValue`: one value of the CloudEvents
    /// type system.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct CloudEventAttributeValue {
        /// The value, fields 1 to 7.
        #[prost(
            oneof = "cloud_event_attribute_value::Attr",
            tags = "1, 2, 3, 4, 5, 6, 7"
        )]
        pub attr: Option<cloud_event_attribute_value::Attr>,
    }

    /// The oneof of [`CloudEventAttributeValue`].
    pub mod cloud_event_attribute_value {
        /// `oneof attr`.
        #[derive(Clone, PartialEq, prost::Oneof)]
        pub enum Attr {
            /// Boolean.
            #[prost(bool, tag = "1")]
            CeBoolean(bool),
            /// Integer.
            #[prost(int32, tag = "2")]
            CeInteger(i32),
            /// String.
            #[prost(string, tag = "3")]
            CeString(String),
            /// Binary.
            #[prost(bytes = "vec", tag = "4")]
            CeBytes(Vec<u8>),
            /// URI.
            #[prost(string, tag = "5")]
            CeUri(String),
            /// URI-reference.
            #[prost(string, tag = "6")]
            CeUriRef(String),
            /// Timestamp.
            #[prost(message, tag = "7")]
            CeTimestamp(super::super::Timestamp),
        }
    }

    /// `oneof data`.
    #[derive(Clone, PartialEq, prost::Oneof)]
    pub enum Data {
        /// Bytes.
        #[prost(bytes = "vec", tag = "6")]
        BinaryData(Vec<u8>),
        /// Text.
        #[prost(string, tag = "7")]
        TextData(String),
        /// A Protobuf message.
        #[prost(message, tag = "8")]
        ProtoData(super::Any),
    }
}

/// `io.cloudevents.v1.CloudEventBatch`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CloudEventBatch {
    /// The events, field 1.
    #[prost(message, repeated, tag = "1")]
    pub events: Vec<CloudEvent>,
}

/// `google.protobuf.Timestamp`.
#[derive(Clone, Copy, PartialEq, Eq, prost::Message)]
pub struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z.
    #[prost(int64, tag = "1")]
    pub seconds: i64,
    /// Nanoseconds, 0 to 999,999,999.
    #[prost(int32, tag = "2")]
    pub nanos: i32,
}

/// `google.protobuf.Any`.
#[derive(Clone, PartialEq, Eq, prost::Message)]
pub struct Any {
    /// The type URL, `type.googleapis.com/<package>.<Message>`.
    #[prost(string, tag = "1")]
    pub type_url: String,
    /// The message's bytes.
    #[prost(bytes = "vec", tag = "2")]
    pub value: Vec<u8>,
}
