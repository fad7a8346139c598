//! Typed dispatch for consumers: match on typed events instead of `type` strings.

/// Declares an enum of the event types a consumer handles, with an `Other(AnyEvent)` variant
/// for every other type (an unknown type is not an error: the consumer decides).
///
/// The enum gets `from_slice(&[u8])`, `TryFrom<AnyEvent>` and a `TYPES` list. A payload
/// may be a serde type (its data read with serde) or, with feature `protobuf`, a Protobuf
/// message (`protobuf::ProtobufData`: read from `proto_data`, or from
/// binary data under its `datacontenttype`); an event in any format is dispatched with
/// `Inbox::decode::<F>(&bytes)` (trait [`FromFormat`](crate::FromFormat)).
///
/// ```
/// use cloudevent_runtime::{dispatch, CloudEvent, Event};
///
/// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
/// struct OrderCreated { #[cloudevent(subject)] order_id: String }
///
/// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.shipped", source = "https://orders.example.com")]
/// struct OrderShipped { #[cloudevent(subject)] order_id: String }
///
/// dispatch! {
///     /// What the order consumer receives.
///     enum Inbox {
///         Created(OrderCreated),
///         Shipped(OrderShipped),
///     }
/// }
///
/// let bytes = serde_json::to_vec(&Event::new(OrderShipped { order_id: "o-1".into() })).unwrap();
/// match Inbox::from_slice(&bytes).unwrap() {
///     Inbox::Shipped(event) => assert_eq!(event.data().order_id, "o-1"),
///     Inbox::Created(_) | Inbox::Other(_) => panic!("wrong variant"),
/// }
///
/// let other = br#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.lost"}"#;
/// assert!(matches!(Inbox::from_slice(other), Ok(Inbox::Other(_))));
/// ```
#[macro_export]
macro_rules! dispatch {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident($payload:ty)),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $(
                $(#[$variant_meta])*
                #[doc = concat!("A `", stringify!($payload), "` event.")]
                $variant($crate::Event<$payload>),
            )+
            /// An event of a type not listed above, kept whole.
            Other($crate::AnyEvent),
        }

        impl $name {
            /// The event types dispatched to a typed variant.
            #[allow(dead_code)] // part of the generated API, used or not
            pub const TYPES: &'static [&'static str] =
                &[$(<$payload as $crate::CloudEventData>::TYPE),+];

            /// Parses one event and dispatches it on its type.
            ///
            /// # Errors
            /// When the input is not a valid event, or a listed type's data does not fit.
            #[allow(dead_code)] // part of the generated API, used or not
            pub fn from_slice(
                bytes: &[u8],
            ) -> ::core::result::Result<Self, $crate::FormatError> {
                <Self as ::core::convert::TryFrom<$crate::AnyEvent>>::try_from(
                    $crate::AnyEvent::from_slice(bytes)?,
                )
            }
        }

        impl ::core::convert::TryFrom<$crate::AnyEvent> for $name {
            type Error = $crate::FormatError;

            fn try_from(
                event: $crate::AnyEvent,
            ) -> ::core::result::Result<Self, $crate::FormatError> {
                #[allow(unused_imports)] // one of the two is used for each payload
                use $crate::__dispatch::{ViaProtobuf as _, ViaSerde as _};
                $(
                    if event.ty() == <$payload as $crate::CloudEventData>::TYPE {
                        return ::core::result::Result::map(
                            (&&$crate::__dispatch::Typed::<$payload>::new()).typed(event),
                            $name::$variant,
                        );
                    }
                )+
                ::core::result::Result::Ok($name::Other(event))
            }
        }
    };
}

/// How a [`dispatch!`](crate::dispatch) enum turns an [`AnyEvent`](crate::AnyEvent) into a typed event, by the
/// payload's kind: a Protobuf message (preferred when a type is both) or a serde type. The
/// macro calls `(&&Typed::<T>::new()).typed(event)`; method resolution picks `ViaProtobuf`
/// when `T` is a Protobuf message and falls back to `ViaSerde`. Not a public API.
#[doc(hidden)]
pub mod typed {
    use core::marker::PhantomData;

    use crate::{AnyEvent, CloudEventData, Event, FormatError};

    /// The payload type, as a value to call a method on.
    pub struct Typed<T>(PhantomData<T>);

    impl<T> Typed<T> {
        /// The marker.
        pub const fn new() -> Self {
            Typed(PhantomData)
        }
    }

    impl<T> Default for Typed<T> {
        fn default() -> Self {
            Typed::new()
        }
    }

    /// A serde payload: [`AnyEvent::into_typed`].
    pub trait ViaSerde<T> {
        /// The typed event.
        ///
        /// # Errors
        /// See [`AnyEvent::into_typed`].
        fn typed(&self, event: AnyEvent) -> Result<Event<T>, FormatError>;
    }

    impl<T: CloudEventData + serde::de::DeserializeOwned> ViaSerde<T> for Typed<T> {
        fn typed(&self, event: AnyEvent) -> Result<Event<T>, FormatError> {
            event.into_typed()
        }
    }

    /// A Protobuf payload: `protobuf::message_from_any` (implemented with feature `protobuf`).
    pub trait ViaProtobuf<T> {
        /// The typed event.
        ///
        /// # Errors
        /// See `protobuf::message_from_any`.
        fn typed(&self, event: AnyEvent) -> Result<Event<T>, FormatError>;
    }

    #[cfg(feature = "protobuf")]
    impl<T: crate::protobuf::ProtobufData> ViaProtobuf<T> for &Typed<T> {
        fn typed(&self, event: AnyEvent) -> Result<Event<T>, FormatError> {
            crate::protobuf::message_from_any(&event)
        }
    }
}
