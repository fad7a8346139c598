//! Typed dispatch for consumers: match on typed events instead of `type` strings.

/// Declares an enum of the event types a consumer handles, with an `Other(AnyEvent)` variant
/// for every other type (an unknown type is not an error: the consumer decides).
///
/// The enum gets `from_slice(&[u8])`, `TryFrom<AnyEvent>` and a `TYPES` list.
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
                $(
                    if event.ty() == <$payload as $crate::CloudEventData>::TYPE {
                        return ::core::result::Result::map(
                            event.into_typed::<$payload>(),
                            $name::$variant,
                        );
                    }
                )+
                ::core::result::Result::Ok($name::Other(event))
            }
        }
    };
}
