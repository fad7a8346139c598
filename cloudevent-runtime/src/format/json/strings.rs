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

use cloudevent_rules::{ExtensionAttributes, ExtensionValue, Policy};

use super::{
    DataSlot, Envelope, Expected, Findings, JsonScalar, Member, Members, context_attribute,
    end_of_object, extension,
};
use crate::extension::Extensions;

/// How many extensions [`Held`] holds aside; any more are kept in the envelope's map.
const HELD: usize = 4;

/// The extension attributes named like one the typed reader's payload fills
/// (`CloudEventData::EXTENSIONS`), held aside as the message's strings instead of being kept
/// in the envelope's map: the payload writes such an extension itself, so a kept copy was
/// allocated only to be removed again when the event is assembled (`Event::assemble`; issue
/// 40: about 900 instructions of an HTTP binary decode). The envelope check still sees them,
/// merged into the kept ones in name order ([`Merged`]), so it finds what it finds with them
/// kept. The binary-mode reader must then find each one written back by the payload (a
/// String of the same text, [`Held::get`]), or read the message the general way; the JSON
/// reader's visitor holds them too (`EventSeed::held`), and the event's assembly keeps those
/// the payload does not write (`Event::from_envelope_holding`).
pub(crate) struct Held<'de> {
    /// The payload's extension names.
    names: &'static [&'static str],
    /// `(name, value)`, sorted by name (the map's order), each name once.
    list: [(&'de str, &'de str); HELD],
    len: usize,
}

impl<'de> Held<'de> {
    /// Nothing held yet, for a payload filling the extensions `names`.
    pub(crate) fn new(names: &'static [&'static str]) -> Self {
        Held {
            names,
            list: [("", ""); HELD],
            len: 0,
        }
    }

    /// The held `(name, value)` pairs, in name order.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[(&'de str, &'de str)] {
        &self.list[..self.len]
    }

    /// Where the held extension `name` is in [`Held::as_slice`], and its value.
    // Inlined: the JSON reader asks it of every extension member (a member named twice).
    #[inline]
    pub(crate) fn get(&self, name: &str) -> Option<(usize, &'de str)> {
        self.as_slice()
            .iter()
            .position(|(held, _)| *held == name)
            .map(|at| (at, self.list[at].1))
    }

    /// Holds `name` when the payload fills it and there is room: `Some(true)` when held,
    /// `Some(false)` when the envelope must keep it, `None` when it is held already (a
    /// member named twice, which the visitor reads: see [`read_strings`]).
    pub(super) fn hold(&mut self, name: &'de str, value: &'de str) -> Option<bool> {
        if !self.names.contains(&name) {
            return Some(false);
        }
        let at = match self
            .as_slice()
            .binary_search_by(|(held, _)| (*held).cmp(name))
        {
            Ok(_) => return None,
            Err(at) => at,
        };
        if self.len == HELD {
            return Some(false);
        }
        self.list.copy_within(at..self.len, at + 1);
        self.list[at] = (name, value);
        self.len += 1;
        Some(true)
    }
}

/// The kept extensions and the held ones, as one set in name order: what the envelope check
/// sees of an event read with extensions held aside.
pub(super) struct Merged<'a> {
    pub(super) kept: &'a Extensions,
    pub(super) held: &'a [(&'a str, &'a str)],
}

/// `a < b`, told by the first bytes where they differ: the rules walk the extensions several
/// times an event (the checks, the attributes' size), and a `memcmp` call per kept name each
/// time cost the typed JSON read, which holds its payload's extensions aside too, about as
/// much as the copies held aside saved (issue 40).
#[inline]
fn before(a: &str, b: &str) -> bool {
    match (a.as_bytes().first(), b.as_bytes().first()) {
        (Some(x), Some(y)) if x != y => x < y,
        _ => a < b,
    }
}

impl ExtensionAttributes for Merged<'_> {
    fn for_each_extension(&self, f: &mut dyn FnMut(&str, ExtensionValue<'_>)) {
        // The held ones not yet handed over, as a slice: a `Peekable` kept its peeked item
        // in memory and tested it on every step of the rules' two walks an event.
        let mut held = self.held;
        for (name, value) in self.kept {
            while let [(held_name, held_value), rest @ ..] = held
                && before(held_name, name)
            {
                f(held_name, ExtensionValue::String(held_value));
                held = rest;
            }
            f(name, value.as_value());
        }
        for (name, value) in held {
            f(name, ExtensionValue::String(value));
        }
    }

    fn extension(&self, name: &str) -> Option<ExtensionValue<'_>> {
        match self.held.iter().find(|(held, _)| *held == name) {
            Some((_, value)) => Some(ExtensionValue::String(value)),
            None => self.kept.extension(name),
        }
    }
}

/// Reads string-valued attributes and an optional `datacontenttype` into `envelope`, then
/// runs the end of the object over `slot` (holding `data` when `has_data`).
///
/// `None` for anything the visitor refuses, and for members it reads another way: `data`,
/// `data_base64` or `datacontenttype` among the attributes, or a member named twice.
/// Extensions the payload fills are held aside in `held` (see [`Held`]).
// Inlined into its one caller, the typed binary-mode reader (`binding::parts`).
#[inline]
#[allow(
    clippy::too_many_arguments,
    reason = "the message's members and the reader's state, one argument each; one caller"
)]
pub(crate) fn read_strings<'de, S: DataSlot<'de>>(
    attributes: impl Iterator<Item = (&'de str, &'de str)>,
    datacontenttype: Option<&'de str>,
    slot: S,
    has_data: bool,
    envelope: &mut Envelope<'de>,
    held: &mut Held<'de>,
    expected_type: Option<Expected>,
    policy: &Policy,
) -> Option<S::Data> {
    let mut findings = Findings::strict();
    let mut seen = Members::default();
    // An extension named twice is kept once (`Extensions::try_insert_new`): counted here and
    // compared once at the end, rather than looked up before each is kept.
    let mut extensions = 0_usize;
    for (name, value_text) in attributes {
        let value = JsonScalar::Str(Cow::Borrowed(value_text));
        match Member::of(name) {
            Some(Member::Data | Member::DataBase64 | Member::DataContentType) => return None,
            Some(member) => {
                if !seen.insert(member) {
                    return None;
                }
                context_attribute(envelope, member, value, expected_type, &mut findings).ok()?;
            }
            None => {
                if held.hold(name, value_text)? {
                    continue;
                }
                extensions += 1;
                extension(
                    envelope,
                    &mut None,
                    None,
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
        held.as_slice(),
    )
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the rules see of the kept and the held extensions is the map holding them all:
    /// the same extensions in the same order (a strict check stops at the first error), for
    /// every split of names that share first bytes or differ in them.
    #[test]
    fn merged_is_the_map_holding_every_extension() {
        let names = ["", "a", "aa", "ab", "b", "region", "z", "\u{e9}t\u{e9}"];
        for split in 0..(1_u32 << names.len()) {
            let (mut all, mut kept, mut held) =
                (Extensions::default(), Extensions::default(), Vec::new());
            for (at, name) in names.iter().enumerate() {
                all.insert(*name, *name);
                if split & (1 << at) == 0 {
                    kept.insert(*name, *name);
                } else {
                    held.push((*name, *name));
                }
            }
            held.sort_unstable();
            let merged = Merged {
                kept: &kept,
                held: &held,
            };
            let walk = |extensions: &dyn ExtensionAttributes| {
                let mut seen = Vec::new();
                extensions.for_each_extension(&mut |name, value| {
                    seen.push(format!("{name}={value:?}"));
                });
                seen
            };
            assert_eq!(walk(&merged), walk(&all), "split {split:b}");
            for name in names.iter().chain(&["c", "regio"]) {
                assert_eq!(merged.extension(name), all.extension(name), "{name}");
            }
        }
    }
}
