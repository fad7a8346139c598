//! The envelope attributes a payload fills itself (`#[cloudevent(subject)]`,
//! `#[cloudevent(extension)]` fields), read through [`CloudEventData::visit_extensions`].

use cloudevent_rules::Violation;

use crate::data::CloudEventData;
use crate::extension::{ExtensionValue, ExtensionValueBuf, ExtensionVisitor, Extensions};

/// The first control character in a String the payload copies into the envelope (its
/// subject, its String extensions): such an event could be read but never written again
/// (CE 1.0.2 type system), so a typed reader refuses it as any reader refuses the attribute.
pub(super) fn payload_string_violation<T: CloudEventData>(data: &T) -> Option<Violation> {
    if let Some(subject) = data.subject() {
        if let Some(violation) = cloudevent_rules::check_string_value("subject", subject).pop() {
            return Some(violation);
        }
    }
    let mut found = None;
    let _ = data.visit_extensions(&mut Visit {
        skip: &Extensions::new(),
        f: |name: &str, value: ExtensionValue<'_>| {
            if let (None, ExtensionValue::String(text)) = (&found, value) {
                found = cloudevent_rules::check_string_value(name, text).pop();
            }
            Ok::<(), std::convert::Infallible>(())
        },
    });
    found
}

/// One extension of a payload, owned.
pub(super) fn payload_extension<T: CloudEventData>(
    data: &T,
    name: &str,
) -> Option<ExtensionValueBuf> {
    if !T::EXTENSIONS.contains(&name) {
        return None;
    }
    let mut found = None;
    let _ = data.visit_extensions(&mut Visit {
        skip: &Extensions::new(),
        f: |visited: &str, value: ExtensionValue<'_>| {
            if visited == name {
                found = Some(value.to_owned_value());
            }
            Ok::<(), std::convert::Infallible>(())
        },
    });
    found
}

/// An [`ExtensionVisitor`] from a closure, skipping names set on the event itself.
pub(super) struct Visit<'a, F> {
    pub(super) skip: &'a Extensions,
    pub(super) f: F,
}

impl<F, E> ExtensionVisitor for Visit<'_, F>
where
    F: FnMut(&str, ExtensionValue<'_>) -> Result<(), E>,
{
    type Error = E;

    fn visit(&mut self, name: &'static str, value: ExtensionValue<'_>) -> Result<(), E> {
        if self.skip.contains(name) {
            return Ok(());
        }
        (self.f)(name, value)
    }
}
