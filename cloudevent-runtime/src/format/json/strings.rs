//! The visitor's own steps for an event whose attributes are all strings, taken one after
//! the other without serde's map between them: a binary-mode message's headers (issue 40).
//!
//! The members are what the visitor is handed for such a message (`binding::parts`), in the
//! same order: the attributes, `datacontenttype`, then `data`, which the caller has already
//! read into its slot. Each goes through the visitor's functions (`context_attribute`,
//! `extension`, `end_of_object`), so an event read here is the one the visitor reads. Where
//! the visitor could refuse or read differently, this gives up (`None`) and the caller reads
//! the message through the visitor, which gives the verdict: no refusal is written here.

use std::borrow::Cow;

use cloudevent_rules::Policy;

use super::{
    DataSlot, Envelope, Expected, Findings, JsonScalar, Member, Members, context_attribute,
    end_of_object, extension,
};

/// Reads string-valued attributes and an optional `datacontenttype` into `envelope`, then
/// runs the end of the object over `slot` (holding `data` when `has_data`).
///
/// `None` for anything the visitor refuses, and for members it reads another way: `data`,
/// `data_base64` or `datacontenttype` among the attributes, or a member named twice.
// Inlined into its one caller, the typed binary-mode reader (`binding::parts`).
#[inline]
pub(crate) fn read_strings<'de, S: DataSlot<'de>>(
    attributes: impl Iterator<Item = (&'de str, &'de str)>,
    datacontenttype: Option<&'de str>,
    slot: S,
    has_data: bool,
    envelope: &mut Envelope<'de>,
    expected_type: Option<Expected>,
    policy: &Policy,
) -> Option<S::Data> {
    let mut findings = Findings::strict();
    let mut seen = Members::default();
    // An extension named twice is kept once (`Extensions::try_insert_new`): counted here and
    // compared once at the end, rather than looked up before each is kept.
    let mut extensions = 0_usize;
    for (name, value) in attributes {
        let value = JsonScalar::Str(Cow::Borrowed(value));
        match Member::of(name) {
            Some(Member::Data | Member::DataBase64 | Member::DataContentType) => return None,
            Some(member) => {
                if !seen.insert(member) {
                    return None;
                }
                context_attribute(envelope, member, value, expected_type, &mut findings).ok()?;
            }
            None => {
                extensions += 1;
                extension(
                    envelope,
                    &mut None,
                    Cow::Borrowed(name),
                    value,
                    &mut findings,
                )
                .ok()?;
            }
        }
    }
    if envelope.extensions.len() != extensions {
        return None;
    }
    if let Some(content_type) = datacontenttype {
        let value = JsonScalar::Str(Cow::Borrowed(content_type));
        context_attribute(
            envelope,
            Member::DataContentType,
            value,
            expected_type,
            &mut findings,
        )
        .ok()?;
    }
    end_of_object(
        envelope,
        &mut findings,
        policy,
        slot,
        expected_type,
        None,
        has_data,
    )
    .ok()
}
