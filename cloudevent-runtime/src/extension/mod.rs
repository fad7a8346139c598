//! Extension attribute values and the field types allowed to carry them.
//!
//! ```
//! use cloudevent_runtime::extension::{ExtensionField, ExtensionValue};
//! use cloudevent_runtime::Binary;
//!
//! assert_eq!(Binary::from(*b"hi").extension_value(), Some(ExtensionValue::Binary(b"hi")));
//! assert_eq!(String::from("eu").extension_value(), Some(ExtensionValue::String("eu")));
//! ```

use std::borrow::Cow;

use cloudevent_rules::AttributeKind;

use crate::value::{Binary, Timestamp, Uri, UriRef};

mod findings;
mod map;

pub(crate) use findings::{canonical, extension_findings, truncate};
pub use map::{ExtensionValueBuf, Extensions, ExtensionsIter};
pub(crate) use map::{JsonValue, Vacancy, is_carried_by};

/// A borrowed extension value, typed per the CloudEvents type system: the one value type,
/// owned by `cloudevent-rules` (whose checks take it) and re-exported here under the name
/// users know. Its owned form is [`ExtensionValueBuf`] (`ExtensionValueBuf::from(value)`).
///
/// ```
/// use cloudevent_runtime::{AnyEvent, ExtensionValue};
/// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/s",
///     "type":"com.example.order.created","hop":2,"express":true,"region":"eu"}"#).unwrap();
/// let values: Vec<ExtensionValue<'_>> = event.extensions().iter().map(|(_, v)| v.as_value()).collect();
/// assert_eq!(values, [ExtensionValue::Boolean(true), ExtensionValue::Integer(2), ExtensionValue::String("eu")]);
///
/// // The rules' checks take it as it is: one type, no conversion.
/// let policy = cloudevent_runtime::rules::Policy::new(cloudevent_runtime::Profile::CloudEvents);
/// assert!(policy.check_extension("hop", values[1]).is_empty());
/// let same: cloudevent_runtime::rules::ExtensionValue<'_> = values[1];
/// assert_eq!(same, ExtensionValue::Integer(2));
/// ```
#[doc(inline)]
pub use cloudevent_rules::ExtensionValue;

/// Receives the extension values of a [`crate::CloudEventData`] payload.
///
/// ```
/// use cloudevent_runtime::{CloudEvent, CloudEventData, ExtensionValue, ExtensionVisitor};
///
/// #[derive(serde::Serialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
/// struct OrderCreated { #[cloudevent(extension)] region: String, #[cloudevent(extension)] priority: i32 }
///
/// struct Names(Vec<&'static str>);
/// impl ExtensionVisitor for Names {
///     type Error = std::convert::Infallible;
///     fn visit(&mut self, name: &'static str, _: ExtensionValue<'_>) -> Result<(), Self::Error> {
///         self.0.push(name);
///         Ok(())
///     }
/// }
///
/// let mut names = Names(Vec::new());
/// OrderCreated { region: "eu".into(), priority: 1 }.visit_extensions(&mut names).unwrap();
/// assert_eq!(names.0, ["region", "priority"]);
/// ```
pub trait ExtensionVisitor {
    /// What visiting can fail with (a serializer's error, for instance).
    type Error;

    /// Called once per present extension.
    ///
    /// # Errors
    /// Implementation-defined.
    fn visit(&mut self, name: &'static str, value: ExtensionValue<'_>) -> Result<(), Self::Error>;
}

/// A field type that can be copied into an extension attribute: the CloudEvents type system.
///
/// `bool`; `i8`, `i16`, `i32`, `u8`, `u16` (they fit an Integer); `String`, `&str`,
/// `Cow<str>`; [`Timestamp`]; [`Uri`]; [`UriRef`]; [`Binary`]; and `Option` of any of these
/// (absent when `None`). Wider integers, floats, maps and vectors are not in the type system.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a CloudEvents extension value (CE 1.0.2 type system)",
    label = "not a CloudEvents extension type",
    note = "allowed: bool, i8, i16, i32, u8, u16, String, &str, Cow<str>, Timestamp, Uri, UriRef, Binary, or an Option of one of these"
)]
///
/// ```
/// use cloudevent_runtime::{ExtensionField, ExtensionValue};
/// assert_eq!(7u8.extension_value(), Some(ExtensionValue::Integer(7)));
/// assert_eq!(None::<bool>.extension_value(), None);
/// ```
pub trait ExtensionField {
    /// The CloudEvents type of every value this field type carries, when it is one type
    /// (`i32`: Integer); `None` (the default, for a hand-written impl) when not declared.
    /// `#[derive(CloudEvent)]` publishes it per extension, and `cesql!(T, "...")` type-checks
    /// the expression's comparisons against it (an Integer `priority` is never `'high'`).
    ///
    /// ```
    /// use cloudevent_runtime::{ExtensionField, rules::AttributeKind};
    /// assert_eq!(<Option<u16> as ExtensionField>::KIND, Some(AttributeKind::Integer));
    /// assert_eq!(<&str as ExtensionField>::KIND, Some(AttributeKind::String));
    /// ```
    const KIND: Option<AttributeKind> = None;

    /// The value, or `None` when the extension is absent.
    fn extension_value(&self) -> Option<ExtensionValue<'_>>;
}

/// A field type for an extension that its documenting spec types as String
/// (`partitionkey`, `sequence`, `sequencetype`, `traceparent`, `tracestate`, `correlationid`,
/// `causationid`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot carry this documented extension, which is a String",
    label = "must be String, &str, Cow<str> or an Option of one",
    note = "documented extensions keep their documented type (INTG-STD-015 R-6: custom extensions MUST NOT redefine semantics of documented extensions)"
)]
///
/// ```
/// use cloudevent_runtime::extension::StringExtensionField;
/// fn string_extension<T: StringExtensionField>(_: &T) {}
/// string_extension(&String::from("p-1"));
/// string_extension(&Some("p-1"));
/// ```
pub trait StringExtensionField: ExtensionField {}

/// A field type for an extension documented as URI-reference (`dataref`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot carry `dataref`, which is a URI-reference",
    label = "must be UriRef, Uri, String, &str or an Option of one",
    note = "documented extensions keep their documented type (INTG-STD-015 R-6)"
)]
///
/// ```
/// use cloudevent_runtime::{UriRef, extension::UriReferenceExtensionField};
/// fn dataref<T: UriReferenceExtensionField>(_: &T) {}
/// dataref(&UriRef::try_from("/blobs/1").unwrap());
/// ```
pub trait UriReferenceExtensionField: ExtensionField {}

/// A field type that can be the event's `subject`: a string.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the event's subject, which is a String (CE 1.0.2 subject)",
    label = "must be String, &str, Cow<str> or an Option of one"
)]
///
/// ```
/// use cloudevent_runtime::extension::SubjectField;
/// assert_eq!(String::from("order-1").subject(), Some("order-1"));
/// assert_eq!(None::<String>.subject(), None);
/// ```
pub trait SubjectField {
    /// The subject, or `None` when absent.
    fn subject(&self) -> Option<&str>;
}

macro_rules! integer_field {
    ($($t:ty),*) => {$(
        impl ExtensionField for $t {
            const KIND: Option<AttributeKind> = Some(AttributeKind::Integer);
            fn extension_value(&self) -> Option<ExtensionValue<'_>> {
                Some(ExtensionValue::Integer(i32::from(*self)))
            }
        }
    )*};
}
integer_field!(i8, i16, i32, u8, u16);

impl ExtensionField for bool {
    const KIND: Option<AttributeKind> = Some(AttributeKind::Boolean);
    fn extension_value(&self) -> Option<ExtensionValue<'_>> {
        Some(ExtensionValue::Boolean(*self))
    }
}

macro_rules! string_field {
    ($($t:ty),*) => {$(
        impl ExtensionField for $t {
            const KIND: Option<AttributeKind> = Some(AttributeKind::String);
            fn extension_value(&self) -> Option<ExtensionValue<'_>> {
                Some(ExtensionValue::String(self.as_ref()))
            }
        }
        impl StringExtensionField for $t {}
        impl UriReferenceExtensionField for $t {}
        impl SubjectField for $t {
            fn subject(&self) -> Option<&str> {
                Some(self.as_ref())
            }
        }
    )*};
}
string_field!(String, &str, Cow<'_, str>, Box<str>);

impl ExtensionField for Timestamp {
    const KIND: Option<AttributeKind> = Some(AttributeKind::Timestamp);
    fn extension_value(&self) -> Option<ExtensionValue<'_>> {
        Some(ExtensionValue::Timestamp(self.as_str()))
    }
}

impl ExtensionField for Uri {
    const KIND: Option<AttributeKind> = Some(AttributeKind::Uri);
    fn extension_value(&self) -> Option<ExtensionValue<'_>> {
        Some(ExtensionValue::Uri(self.as_str()))
    }
}
impl UriReferenceExtensionField for Uri {}

impl ExtensionField for UriRef {
    const KIND: Option<AttributeKind> = Some(AttributeKind::UriReference);
    fn extension_value(&self) -> Option<ExtensionValue<'_>> {
        Some(ExtensionValue::UriReference(self.as_str()))
    }
}
impl UriReferenceExtensionField for UriRef {}

impl ExtensionField for Binary {
    const KIND: Option<AttributeKind> = Some(AttributeKind::Binary);
    fn extension_value(&self) -> Option<ExtensionValue<'_>> {
        Some(ExtensionValue::Binary(self.as_bytes()))
    }
}

impl<T: ExtensionField> ExtensionField for Option<T> {
    const KIND: Option<AttributeKind> = T::KIND;
    fn extension_value(&self) -> Option<ExtensionValue<'_>> {
        self.as_ref().and_then(ExtensionField::extension_value)
    }
}
impl<T: StringExtensionField> StringExtensionField for Option<T> {}
impl<T: UriReferenceExtensionField> UriReferenceExtensionField for Option<T> {}
impl<T: SubjectField> SubjectField for Option<T> {
    fn subject(&self) -> Option<&str> {
        self.as_ref().and_then(SubjectField::subject)
    }
}

impl<T: ExtensionField + ?Sized> ExtensionField for &T
where
    T: NotStr,
{
    const KIND: Option<AttributeKind> = T::KIND;
    fn extension_value(&self) -> Option<ExtensionValue<'_>> {
        (**self).extension_value()
    }
}

/// Keeps the blanket `&T` impl from overlapping `&str`.
#[doc(hidden)]
pub trait NotStr {}
impl NotStr for Timestamp {}
impl NotStr for Uri {}
impl NotStr for UriRef {}
impl NotStr for Binary {}

/// A field type whose value fills a String-typed context attribute as text: `id`,
/// `source`, `time` (its RFC 3339 text, parsed as a Timestamp when the event is made), or a
/// variable of a `source_template`. Strings are taken as they are; integers in decimal (the
/// integer-to-string conversion a binding such as CDEvents' needs for a numeric id); a
/// [`Timestamp`], [`Uri`] or [`UriRef`] as its text. `None` means the payload gives no value,
/// and the event falls back to a fresh id, the current time or the type's default source.
///
/// The value is checked against the event type's profile by `cloudevent-rules` when the
/// event is built or written, like a value set by hand.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot fill a String-typed context attribute (`id`, `time`, `source`)",
    label = "must be a string, an integer, a Timestamp, a Uri or UriRef, or an Option of one"
)]
///
/// ```
/// use cloudevent_runtime::extension::TextField;
/// assert_eq!(String::from("evt-1").text().as_deref(), Some("evt-1"));
/// assert_eq!(42_u64.text().as_deref(), Some("42"));
/// assert_eq!(None::<u32>.text(), None);
/// ```
pub trait TextField {
    /// The value as text, or `None` when absent.
    fn text(&self) -> Option<Cow<'_, str>>;
}

macro_rules! text_field_borrowed {
    ($($t:ty),*) => {$(
        impl TextField for $t {
            fn text(&self) -> Option<Cow<'_, str>> {
                let text: &str = self.as_ref();
                Some(Cow::Borrowed(text))
            }
        }
    )*};
}
text_field_borrowed!(String, &str, Cow<'_, str>, Box<str>);

impl TextField for Timestamp {
    fn text(&self) -> Option<Cow<'_, str>> {
        Some(Cow::Borrowed(self.as_str()))
    }
}

impl TextField for Uri {
    fn text(&self) -> Option<Cow<'_, str>> {
        Some(Cow::Borrowed(self.as_str()))
    }
}

impl TextField for UriRef {
    fn text(&self) -> Option<Cow<'_, str>> {
        Some(Cow::Borrowed(self.as_str()))
    }
}

macro_rules! text_field_integer {
    ($($t:ty),*) => {$(
        impl TextField for $t {
            fn text(&self) -> Option<Cow<'_, str>> {
                Some(Cow::Owned(self.to_string()))
            }
        }
    )*};
}
text_field_integer!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

impl<T: TextField> TextField for Option<T> {
    fn text(&self) -> Option<Cow<'_, str>> {
        self.as_ref().and_then(TextField::text)
    }
}
