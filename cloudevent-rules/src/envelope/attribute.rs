//! An attribute named once and read from many events: what a CESQL expression and a
//! Subscriptions API filter hold for each attribute they read.

use super::Envelope;
use crate::ExtensionValue;

/// A context attribute's name, resolved once: a core attribute's name (CE 1.0.2 3.1) to its
/// field of [`Envelope`], any other to an extension's. Reading it from an event with
/// [`Envelope::attribute`] compares no names for a core attribute and searches the
/// extensions once for any other. Names are case-sensitive (`Type` is an extension).
///
/// ```
/// use cloudevent_rules::{AttributeName, Envelope, ExtensionValue};
///
/// let ty = AttributeName::new("type");
/// let region = AttributeName::from("region");
/// assert_eq!((ty.name(), ty.is_core()), ("type", true));
/// assert!(!region.is_core());
///
/// let extensions = [("region", ExtensionValue::String("eu"))];
/// let event = Envelope { ty: Some("com.example.order.created"), extensions: &extensions, ..Envelope::default() };
/// assert_eq!(event.attribute(&ty), Some(ExtensionValue::String("com.example.order.created")));
/// assert_eq!(event.attribute(&region), Some(ExtensionValue::String("eu")));
/// assert_eq!(event.attribute(&AttributeName::new("subject")), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AttributeName(Name);

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Name {
    Specversion,
    Id,
    Source,
    Type,
    Datacontenttype,
    Dataschema,
    Subject,
    Time,
    Extension(Box<str>),
}

impl AttributeName {
    /// The attribute called `name`.
    pub fn new(name: &str) -> AttributeName {
        AttributeName(match name {
            "specversion" => Name::Specversion,
            "id" => Name::Id,
            "source" => Name::Source,
            "type" => Name::Type,
            "datacontenttype" => Name::Datacontenttype,
            "dataschema" => Name::Dataschema,
            "subject" => Name::Subject,
            "time" => Name::Time,
            other => Name::Extension(other.into()),
        })
    }

    /// The name as an event writes it.
    pub fn name(&self) -> &str {
        match &self.0 {
            Name::Specversion => "specversion",
            Name::Id => "id",
            Name::Source => "source",
            Name::Type => "type",
            Name::Datacontenttype => "datacontenttype",
            Name::Dataschema => "dataschema",
            Name::Subject => "subject",
            Name::Time => "time",
            Name::Extension(name) => name,
        }
    }

    /// Whether it is a core context attribute (one of [`crate::CORE_ATTRIBUTES`]).
    pub fn is_core(&self) -> bool {
        !matches!(self.0, Name::Extension(_))
    }
}

impl From<&str> for AttributeName {
    fn from(name: &str) -> AttributeName {
        AttributeName::new(name)
    }
}

/// An event's context attributes read one at a time: what [`AttributeName::read`] reads.
/// An event kept in its own fields (the runtime's `AnyEvent`) implements it so that reading
/// one attribute reads that field alone; building the whole [`Envelope`] first loads and
/// keeps every field (issue 40: a third of a Subscriptions API `prefix` filter).
/// [`Envelope`] implements it.
///
/// ```
/// use cloudevent_rules::{AttributeName, ContextAttributes, ExtensionValue};
///
/// struct Order { id: String, source: String }
/// struct Fields<'a>(&'a Order);
/// impl<'a> ContextAttributes<'a> for Fields<'a> {
///     fn specversion(&self) -> Option<&'a str> { Some("1.0") }
///     fn id(&self) -> Option<&'a str> { Some(&self.0.id) }
///     fn source(&self) -> Option<&'a str> { Some(&self.0.source) }
///     fn ty(&self) -> Option<&'a str> { Some("com.example.order.created") }
///     fn datacontenttype(&self) -> Option<&'a str> { None }
///     fn dataschema(&self) -> Option<&'a str> { None }
///     fn subject(&self) -> Option<&'a str> { None }
///     fn time(&self) -> Option<&'a str> { None }
///     fn extension(&self, _name: &str) -> Option<ExtensionValue<'a>> { None }
/// }
/// let order = Order { id: "1".into(), source: "/orders".into() };
/// let source = AttributeName::new("source");
/// assert_eq!(source.read(&Fields(&order)), Some(ExtensionValue::UriReference("/orders")));
/// assert_eq!(AttributeName::new("region").read(&Fields(&order)), None);
/// ```
pub trait ContextAttributes<'a> {
    /// `specversion`.
    fn specversion(&self) -> Option<&'a str>;
    /// `id`.
    fn id(&self) -> Option<&'a str>;
    /// `source`.
    fn source(&self) -> Option<&'a str>;
    /// `type`.
    fn ty(&self) -> Option<&'a str>;
    /// `datacontenttype`.
    fn datacontenttype(&self) -> Option<&'a str>;
    /// `dataschema`.
    fn dataschema(&self) -> Option<&'a str>;
    /// `subject`.
    fn subject(&self) -> Option<&'a str>;
    /// `time`, as RFC 3339 text.
    fn time(&self) -> Option<&'a str>;
    /// The extension called `name`.
    fn extension(&self, name: &str) -> Option<ExtensionValue<'a>>;
}

impl<'a> ContextAttributes<'a> for Envelope<'a> {
    #[inline(always)]
    fn specversion(&self) -> Option<&'a str> {
        self.specversion
    }
    #[inline(always)]
    fn id(&self) -> Option<&'a str> {
        self.id
    }
    #[inline(always)]
    fn source(&self) -> Option<&'a str> {
        self.source
    }
    #[inline(always)]
    fn ty(&self) -> Option<&'a str> {
        self.ty
    }
    #[inline(always)]
    fn datacontenttype(&self) -> Option<&'a str> {
        self.datacontenttype
    }
    #[inline(always)]
    fn dataschema(&self) -> Option<&'a str> {
        self.dataschema
    }
    #[inline(always)]
    fn subject(&self) -> Option<&'a str> {
        self.subject
    }
    #[inline(always)]
    fn time(&self) -> Option<&'a str> {
        self.time
    }
    #[inline(always)]
    fn extension(&self, name: &str) -> Option<ExtensionValue<'a>> {
        self.extensions.extension(name)
    }
}

impl AttributeName {
    /// The value of the attribute on `event`, `None` when the event does not carry it: a
    /// core attribute typed as CE 1.0.2 3.1 types it (`source` a URI-reference, `dataschema`
    /// a URI, `time` a Timestamp, the others Strings), an extension as the event holds it.
    /// The one place a name meets its field; [`Envelope::attribute`] is this on an
    /// [`Envelope`].
    ///
    /// ```
    /// use cloudevent_rules::{AttributeName, Envelope, ExtensionValue};
    /// let event = Envelope { dataschema: Some("urn:s:v1"), ..Envelope::default() };
    /// assert_eq!(AttributeName::new("dataschema").read(&event), Some(ExtensionValue::Uri("urn:s:v1")));
    /// ```
    #[inline(always)]
    pub fn read<'a>(&self, event: &impl ContextAttributes<'a>) -> Option<ExtensionValue<'a>> {
        match &self.0 {
            Name::Specversion => event.specversion().map(ExtensionValue::String),
            Name::Id => event.id().map(ExtensionValue::String),
            Name::Source => event.source().map(ExtensionValue::UriReference),
            Name::Type => event.ty().map(ExtensionValue::String),
            Name::Datacontenttype => event.datacontenttype().map(ExtensionValue::String),
            Name::Dataschema => event.dataschema().map(ExtensionValue::Uri),
            Name::Subject => event.subject().map(ExtensionValue::String),
            Name::Time => event.time().map(ExtensionValue::Timestamp),
            Name::Extension(name) => event.extension(name),
        }
    }
}

impl<'a> Envelope<'a> {
    /// The value of `attribute`, `None` when the event does not carry it: a core attribute
    /// typed as CE 1.0.2 3.1 types it (`source` a URI-reference, `dataschema` a URI, `time`
    /// a Timestamp, the others Strings), an extension as the event holds it.
    ///
    /// ```
    /// use cloudevent_rules::{AttributeName, Envelope, ExtensionValue};
    /// let event = Envelope { source: Some("/orders"), ..Envelope::default() };
    /// assert_eq!(event.attribute(&AttributeName::new("source")), Some(ExtensionValue::UriReference("/orders")));
    /// ```
    #[inline(always)]
    pub fn attribute(&self, attribute: &AttributeName) -> Option<ExtensionValue<'a>> {
        attribute.read(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AttributeKind, CORE_ATTRIBUTES, core_attribute_kind};

    /// The core names are the core attribute list's, each typed as the one kind table says.
    #[test]
    fn core_names_are_the_core_attributes() {
        let event = Envelope {
            specversion: Some("1.0"),
            id: Some("1"),
            source: Some("/s"),
            ty: Some("t"),
            datacontenttype: Some("text/plain"),
            dataschema: Some("urn:s:v1"),
            subject: Some("s"),
            time: Some("2026-01-01T00:00:00Z"),
            ..Envelope::default()
        };
        for (name, value) in event.core() {
            let attribute = AttributeName::new(name);
            assert!(attribute.is_core(), "{name}");
            assert_eq!(attribute.name(), name);
            let read = event.attribute(&attribute).expect("set above");
            assert_eq!(read.as_str(), value, "{name}");
            assert_eq!(Some(read.kind()), core_attribute_kind(name), "{name}");
        }
        assert_eq!(CORE_ATTRIBUTES.len(), 8);
        for name in ["Type", "region", "data", ""] {
            let attribute = AttributeName::new(name);
            assert!(!attribute.is_core(), "{name}");
            assert_eq!(attribute.name(), name);
            assert_eq!(event.attribute(&attribute), None);
        }
        let extensions = [("n", ExtensionValue::Integer(3))];
        let event = Envelope {
            extensions: &extensions,
            ..Envelope::default()
        };
        let n = event.attribute(&AttributeName::new("n"));
        assert_eq!(n.map(ExtensionValue::kind), Some(AttributeKind::Integer));
    }
}
