//! Reading the JSON event format (CE-JSON) in one pass: a hand-written serde visitor over the
//! event object, shared by [`Event<T>`](crate::Event), [`AnyEvent`](crate::AnyEvent) and the
//! validator. What differs between them is how `data` is kept ([`DataSlot`]).
//!
//! The visitor reports what serde_json would otherwise hide: duplicate keys (serde_json keeps
//! the last one silently), `data` and `data_base64` together, extension values outside the
//! type system. Then the policy's one envelope check ([`cloudevent_rules::Policy::check_envelope`]) runs.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use cloudevent_rules::{Mode, Policy, Violation, rule};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

pub(crate) use crate::extension::truncate;
use crate::extension::{ExtensionValueBuf, Extensions, Vacancy};
pub(crate) use crate::payload::{data_violation, type_mismatch};

pub(crate) mod fast;
mod member;
mod scalar;
mod strings;

use member::{Member, Members};
pub(crate) use scalar::{CowStr, JsonScalar, ScalarSeed};
pub(crate) use strings::{Held, read_strings};

/// Where violations go while parsing: in strict mode the first one stops the parse, in
/// lenient mode (the validator) all are collected and parsing goes on.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    strict: bool,
    pub(crate) list: Vec<Violation>,
    /// The validator's read: the walk for members named twice in JSON `data` (RFC 8259 4) is
    /// left to the validator, which skips it when a later step read `data` as a tree that
    /// refuses a repeated name (`validate::Validator::read_event`).
    defers_members: bool,
    /// Where the walk's findings go in [`Findings::list`] when it was left to the validator.
    pub(crate) members_at: Option<usize>,
}

/// Returned by [`Findings::report`] when a strict parse must stop.
pub(crate) struct Stop;

impl Findings {
    pub(crate) fn strict() -> Self {
        Findings {
            strict: true,
            ..Findings::default()
        }
    }

    pub(crate) fn lenient() -> Self {
        Findings::default()
    }

    /// [`Findings::lenient`], leaving the walk for members named twice in JSON `data` to the
    /// caller when `data` stays JSON text (its findings' place is [`Findings::members_at`]).
    pub(crate) fn lenient_deferring_members() -> Self {
        Findings {
            defers_members: true,
            ..Findings::default()
        }
    }

    /// Records a violation. Warnings never stop a parse.
    pub(crate) fn report(&mut self, violation: Violation) -> Result<(), Stop> {
        let stop = self.strict && violation.is_error();
        self.list.push(violation);
        if stop { Err(Stop) } else { Ok(()) }
    }

    /// Records every violation of a rules check.
    pub(crate) fn report_all(&mut self, violations: Vec<Violation>) -> Result<(), Stop> {
        // Usually none: an empty list's iterator still cost its build and drop.
        if violations.is_empty() {
            return Ok(());
        }
        violations.into_iter().try_for_each(|v| self.report(v))
    }

    /// Whether the first error stops the parse (every error found so far stopped it).
    pub(crate) fn is_strict(&self) -> bool {
        self.strict
    }

    /// The error that stopped a strict parse.
    pub(crate) fn take_error(&mut self) -> Option<Violation> {
        let index = self.list.iter().position(Violation::is_error)?;
        Some(self.list.swap_remove(index))
    }
}

/// Turns a stop into the deserializer's error, whose text serde users see.
// Cold and out of line, as every path that reaches a finding: a valid event runs none of
// it, and inlined at each of the visitor's call sites it spread the visitor's hot code over
// more cache lines (issue 40, L1i).
#[cold]
#[inline(never)]
pub(crate) fn stop<E: de::Error>(findings: &Findings) -> E {
    match findings.list.iter().rev().find(|v| v.is_error()) {
        Some(violation) => E::custom(violation),
        None => E::custom("invalid CloudEvent"),
    }
}

/// Whether `data` is JSON under this `datacontenttype`; an absent one means
/// `application/json` (CE-JSON 3.1).
pub(crate) fn is_json(datacontenttype: Option<&str>) -> bool {
    datacontenttype.is_none_or(cloudevent_rules::is_json_media_type)
}

/// What the visitor knows about `datacontenttype` when it reaches `data`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ContentType<'a> {
    /// The member came earlier (or was `null`, which is the same as absent).
    Seen(Option<&'a str>),
    /// Not seen yet: it may still follow `data`.
    NotYet,
}

/// How one reader keeps `data`.
pub(crate) trait DataSlot<'de> {
    /// The kept data.
    type Data;

    /// Reads the `data` member's value.
    fn data<A: MapAccess<'de>>(
        &mut self,
        map: &mut A,
        content_type: ContentType<'_>,
        findings: &mut Findings,
    ) -> Result<(), A::Error>;

    /// Takes the decoded `data_base64` bytes.
    fn data_base64(&mut self, bytes: Vec<u8>, findings: &mut Findings) -> Result<(), Stop>;

    /// The size in bytes of the data read so far (for the R-11 data size warning); 0 when
    /// the slot cannot tell without extra work.
    fn size(&self) -> usize {
        0
    }

    /// The JSON text of `data` when the slot kept it as written, for the checks that read
    /// inside it (members named twice, RFC 8259 4); `None` when it was read in place.
    fn json_text(&self) -> Option<&str> {
        None
    }

    /// Finishes once the whole object is read, its envelope (and the extensions a typed
    /// reader held aside, `held`) final and checked.
    fn finish(
        self,
        envelope: &Envelope<'_>,
        held: &[(&str, &str)],
        findings: &mut Findings,
    ) -> Result<Self::Data, Stop>;
}

/// The attributes of an event object as read, before any profile check: the storage the
/// one view of them ([`Envelope::view`]) borrows.
#[derive(Debug, Default)]
pub(crate) struct Envelope<'de> {
    pub(crate) specversion: Option<Cow<'de, str>>,
    pub(crate) id: Option<Cow<'de, str>>,
    pub(crate) source: Option<Cow<'de, str>>,
    pub(crate) ty: Option<Cow<'de, str>>,
    pub(crate) datacontenttype: Option<Cow<'de, str>>,
    pub(crate) dataschema: Option<Cow<'de, str>>,
    pub(crate) subject: Option<Cow<'de, str>>,
    pub(crate) time: Option<Cow<'de, str>>,
    pub(crate) extensions: Extensions,
    /// The context attributes refused for their JSON type (`"specversion": 1.0`): their slot
    /// stays empty, and the envelope check's "absent" about them would be a second, wrong
    /// finding beside the type error.
    pub(crate) refused: Vec<Member>,
    /// Set by a typed slot's finish ([`DataSlot::finish`]) when every extension its payload
    /// writes is one of the held ones (`held` there), a String of the same text: bit `i`
    /// for the `i`-th held one. The event's assembly then knows what its own walk of the
    /// payload's extensions would find (`Event::from_envelope_holding`).
    pub(crate) payload_writes_held: std::cell::Cell<Option<u32>>,
}

impl<'de> Envelope<'de> {
    /// The attributes as the rules crate's envelope, the one view every check and report
    /// reads; `data` is left unknown (`None`) for the caller to fill.
    pub(crate) fn view(&self) -> cloudevent_rules::Envelope<'_> {
        cloudevent_rules::Envelope {
            specversion: self.specversion.as_deref(),
            id: self.id.as_deref(),
            source: self.source.as_deref(),
            ty: self.ty.as_deref(),
            datacontenttype: self.datacontenttype.as_deref(),
            dataschema: self.dataschema.as_deref(),
            subject: self.subject.as_deref(),
            time: self.time.as_deref(),
            extensions: &self.extensions,
            data: None,
            data_type_url: None,
        }
    }

    /// The slot of a context attribute; `None` for `data` and `data_base64`.
    fn attribute_mut(&mut self, member: Member) -> Option<&mut Option<Cow<'de, str>>> {
        Some(match member {
            Member::SpecVersion => &mut self.specversion,
            Member::Id => &mut self.id,
            Member::Source => &mut self.source,
            Member::Type => &mut self.ty,
            Member::DataContentType => &mut self.datacontenttype,
            Member::DataSchema => &mut self.dataschema,
            Member::Subject => &mut self.subject,
            Member::Time => &mut self.time,
            Member::Data | Member::DataBase64 => return None,
        })
    }
}

/// Reads one event object: a seed so the findings, the data slot and the envelope come from
/// the caller. The attributes are read into the caller's `envelope` (left at its default
/// before), not returned: returned, the envelope was copied out through each function
/// between the visitor and its caller (`memmove`, 7 % of a typed parse's time).
pub(crate) struct EventSeed<'f, 'de, S> {
    pub(crate) envelope: &'f mut Envelope<'de>,
    pub(crate) findings: &'f mut Findings,
    /// The policy the attributes are checked against, once the object is read.
    pub(crate) policy: &'f Policy,
    pub(crate) slot: S,
    /// A typed reader's `T::TYPE` and the constants its derive checked.
    pub(crate) expected_type: Option<Expected>,
    /// A batch reader's memory of the attributes its previous event passed with.
    pub(crate) memo: Option<&'f mut BatchMemo>,
    /// A typed reader's place for the extensions its payload fills, held aside as the
    /// input's strings instead of kept in the envelope's map ([`Held`]); the reader hands
    /// them to [`Event::from_envelope_holding`](crate::Event), which keeps those the
    /// payload does not write back.
    pub(crate) held: Option<&'f mut Held<'de>>,
}

/// The `source`, `type`, `datacontenttype` and `dataschema` of the last event of one batch
/// read whose envelope check found nothing at all. The rules are pure functions of a value
/// and the policy, so the next event's byte-equal values need not be checked again; the
/// memory lives for one batch read under one policy (nothing global, nothing kept).
#[derive(Default)]
pub(crate) struct BatchMemo {
    source: Option<String>,
    ty: Option<String>,
    datacontenttype: Option<String>,
    dataschema: Option<String>,
}

impl BatchMemo {
    pub(crate) fn prechecked(&self) -> cloudevent_rules::Prechecked<'_> {
        cloudevent_rules::Prechecked {
            source: self.source.as_deref(),
            ty: self.ty.as_deref(),
            datacontenttype: self.datacontenttype.as_deref(),
            dataschema: self.dataschema.as_deref(),
            extension_names: &[],
            time: None,
        }
    }

    /// Remembers the values of an event whose check found nothing; a value equal to the one
    /// held is not copied again.
    pub(crate) fn remember(&mut self, envelope: &cloudevent_rules::Envelope<'_>) {
        for (slot, value) in [
            (&mut self.source, envelope.source),
            (&mut self.ty, envelope.ty),
            (&mut self.datacontenttype, envelope.datacontenttype),
            (&mut self.dataschema, envelope.dataschema),
        ] {
            if slot.as_deref() != value {
                *slot = value.map(str::to_owned);
            }
        }
    }
}

/// The policy's one envelope check of an event as read, the same for every reader: a typed
/// reader skips the constants its derive checked (`expected`), a batch reader what its
/// previous event passed with (`memo`, which keeps this event's values when it passes
/// without a finding), a reader that wrote `time`'s text itself from an in-range instant
/// (`written_time`, the Protobuf reader) the `time` checks, which find nothing on such text
/// under any profile ([`cloudevent_rules::Prechecked::time`]).
pub(crate) fn check_envelope(
    policy: &Policy,
    attributes: &cloudevent_rules::Envelope<'_>,
    mode: Mode,
    expected: Option<Expected>,
    memo: Option<&mut BatchMemo>,
    written_time: Option<&str>,
) -> Vec<Violation> {
    let known = match (&memo, expected) {
        (Some(memo), _) => memo.prechecked(),
        (None, Some(expected)) => expected.prechecked,
        (None, None) => cloudevent_rules::Prechecked::NONE,
    };
    let known = cloudevent_rules::Prechecked {
        time: written_time,
        ..known
    };
    let found = policy.check_envelope_prechecked(attributes, mode, &known);
    if let (Some(memo), true) = (memo, found.is_empty()) {
        memo.remember(attributes);
    }
    found
}

/// What a typed reader of `Event<T>` knows before reading: the `type` it accepts, and the
/// constants `#[derive(CloudEvent)]` checked under `T`'s policy at compile time
/// ([`CloudEventData::PRECHECKED`](crate::CloudEventData::PRECHECKED)).
#[derive(Clone, Copy)]
pub(crate) struct Expected {
    pub(crate) ty: &'static str,
    pub(crate) prechecked: cloudevent_rules::Prechecked<'static>,
}

impl Expected {
    pub(crate) fn of<T: crate::CloudEventData>() -> Expected {
        Expected {
            ty: T::TYPE,
            prechecked: T::PRECHECKED.confirmed(T::PROFILE),
        }
    }
}

impl<'de, S: DataSlot<'de>> DeserializeSeed<'de> for EventSeed<'_, 'de, S> {
    type Value = S::Data;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, S: DataSlot<'de>> Visitor<'de> for EventSeed<'_, 'de, S> {
    type Value = S::Data;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a CloudEvents JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let EventSeed {
            envelope,
            findings,
            policy,
            mut slot,
            expected_type,
            memo,
            mut held,
        } = self;
        let mut seen = Members::default();
        // Extensions given as `null` are unset but still count for duplicate detection. A set,
        // not a list: an event of ~18,000 `null` members fits in 256 KiB, and a linear scan
        // per member made that a quadratic (quarter-second) parse.
        // This set and `repeated` below are made on first use: an empty B-tree still walks
        // itself to be dropped or consumed, three walks for a valid event (issue 40: 81
        // instructions of a typed parse).
        let mut null_extensions: Option<BTreeSet<String>> = None;
        let mut has_data = false;
        let mut has_data_base64 = false;
        // A repeated member is one finding, with its count: where its finding is in the list
        // and how often the member appeared. An event repeating a member 25,000 times made a
        // 6.7 MB report before.
        let mut repeated: Option<std::collections::BTreeMap<String, (usize, usize)>> = None;

        while let Some(CowStr(key)) = map.next_key::<CowStr<'de>>()? {
            let member = Member::of(&key);
            // An extension's place in the map, found once: the duplicate check's search, and
            // where `extension` sets it (nothing is set between the two).
            let mut vacancy = None;
            let duplicate = match member {
                Some(member) => !seen.insert(member),
                None => {
                    vacancy = envelope.extensions.vacancy(&key);
                    vacancy.is_none()
                        || held.as_deref().is_some_and(|held| held.get(&key).is_some())
                        || null_extensions
                            .as_ref()
                            .is_some_and(|set| set.contains(key.as_ref()))
                }
            };
            if duplicate {
                repeated_member(&mut map, &key, &mut repeated, findings)?;
                continue;
            }
            match member {
                // The second of `data` and `data_base64` is refused as it arrives, before any
                // reader tries to decode it into its payload: the verdict is R-7 whichever
                // reader, typed or not, reads it.
                Some(Member::Data) if has_data_base64 => {
                    data_after_data_base64(&mut map, findings)?;
                    has_data = true;
                }
                Some(Member::DataBase64) if has_data => {
                    has_data_base64 |= data_base64_after_data(&mut map, findings)?;
                }
                Some(Member::Data) => {
                    let content_type = if seen.contains(Member::DataContentType) {
                        ContentType::Seen(envelope.datacontenttype.as_deref())
                    } else {
                        ContentType::NotYet
                    };
                    slot.data(&mut map, content_type, findings)?;
                    has_data = true;
                }
                Some(Member::DataBase64) => {
                    let value = map.next_value::<JsonScalar<'de>>()?;
                    has_data_base64 |=
                        data_base64(&mut slot, value, findings).map_err(|Stop| stop(findings))?;
                }
                Some(attribute) => {
                    member_value(&mut map, &key, findings, |value, findings| {
                        context_attribute(envelope, attribute, value, expected_type, findings)
                    })?
                    .map_err(|Stop| stop(findings))?;
                }
                None => {
                    let name = key.clone();
                    member_value(&mut map, &key, findings, |value, findings| {
                        // A payload's own extension, an unescaped string: held aside.
                        if let (
                            Some(held),
                            Cow::Borrowed(name),
                            JsonScalar::Str(Cow::Borrowed(text)),
                        ) = (held.as_deref_mut(), &name, &value)
                            && held.hold(name, text) == Some(true)
                        {
                            return Ok(());
                        }
                        extension(
                            envelope,
                            &mut null_extensions,
                            vacancy,
                            name,
                            value,
                            findings,
                        )
                    })?
                    .map_err(|Stop| stop(findings))?;
                }
            }
        }

        if let Some(repeated) = repeated {
            count_repeats(repeated, findings);
        }

        end_of_object(
            envelope,
            findings,
            policy,
            slot,
            expected_type,
            memo,
            has_data || has_data_base64,
            held.as_deref().map_or(&[], Held::as_slice),
        )
        .map_err(|Stop| stop(findings))
    }
}

/// What follows an event object's last member, for every reader of one: the policy's one
/// envelope check, the walk of JSON `data` for members named twice, and the slot's finish.
/// `held`: the extensions a typed reader held aside (`strings::Held`: the JSON reader's and
/// the binary-mode reader's), which the check sees among the envelope's own.
// Inlined: the JSON reader's visitor and the binary-mode reader of string members
// (`strings::read_strings`) each call it once per event.
#[inline]
#[allow(
    clippy::too_many_arguments,
    reason = "the state of a reader at the end of an object, one argument each; private, inlined"
)]
fn end_of_object<'de, S: DataSlot<'de>>(
    envelope: &Envelope<'de>,
    findings: &mut Findings,
    policy: &Policy,
    slot: S,
    expected_type: Option<Expected>,
    memo: Option<&mut BatchMemo>,
    has_data: bool,
    held: &[(&str, &str)],
) -> Result<S::Data, Stop> {
    // The attributes first: a missing `id` says more than the `data` it leaves unread.
    // The one envelope check of `cloudevent-rules`, the same for every door: a strict
    // reader stops at its first error, the validator collects them all.
    let mode = if findings.strict {
        Mode::FirstError
    } else {
        Mode::Collect
    };
    let merged;
    let extensions: &dyn cloudevent_rules::ExtensionAttributes = if held.is_empty() {
        &envelope.extensions
    } else {
        merged = strings::Merged {
            kept: &envelope.extensions,
            held,
        };
        &merged
    };
    let attributes = cloudevent_rules::Envelope {
        data: has_data.then_some(slot.size()),
        extensions,
        ..envelope.view()
    };
    let mut found = check_envelope(policy, &attributes, mode, expected_type, memo, None);
    if !envelope.refused.is_empty() {
        found.retain(|v| !envelope.refused.iter().any(|m| m.name() == v.attribute));
    }
    findings.report_all(found)?;
    if let Some(text) = slot.json_text() {
        if findings.defers_members && is_json(envelope.datacontenttype.as_deref()) {
            // `data` stays this JSON text (`DataSlot::finish`): the validator walks it,
            // or skips the walk where a tree read it (lenient: nothing below stops).
            findings.members_at = Some(findings.list.len());
        } else {
            findings.report_all(policy.check_data_members(text))?;
        }
    }
    slot.finish(envelope, held, findings)
}

/// Reads the value of an attribute member (a context attribute or an extension) and hands it
/// to `apply` inside serde's visitor ([`ScalarSeed`]: no copy of the scalar through memory).
// Always inlined, as `context_attribute` and `Member::of`: every member of every event passes
// here, and as calls of their own they cost the typed parse about 4 % (callgrind).
#[inline(always)]
fn member_value<'de, A: MapAccess<'de>, V>(
    map: &mut A,
    name: &str,
    findings: &mut Findings,
    apply: impl FnOnce(JsonScalar<'de>, &mut Findings) -> V,
) -> Result<V, A::Error> {
    let value = map.next_value_seed(ScalarSeed(|scalar| apply(scalar, &mut *findings)));
    if let Err(error) = &value {
        note_lone_surrogate(error, name, findings);
    }
    value
}

/// serde_json stops at a lone surrogate escape; say which attribute held it, under the
/// String rule, then stop.
#[cold]
#[inline(never)]
fn note_lone_surrogate(error: &impl fmt::Display, name: &str, findings: &mut Findings) {
    if let Some(violation) = lone_surrogate(&error.to_string(), name) {
        let _ = findings.report(violation);
    }
}

/// A member named again (RFC 8259 4 leaves it open; CloudEvents names each attribute once):
/// one finding, its count kept in `repeated`; the value is skipped.
#[cold]
#[inline(never)]
fn repeated_member<'de, A: MapAccess<'de>>(
    map: &mut A,
    key: &str,
    repeated: &mut Option<std::collections::BTreeMap<String, (usize, usize)>>,
    findings: &mut Findings,
) -> Result<(), A::Error> {
    let repeated = repeated.get_or_insert_with(Default::default);
    if let Some((_, count)) = repeated.get_mut(key) {
        *count += 1;
        map.next_value::<IgnoredAny>()?;
        return Ok(());
    }
    repeated.insert(key.to_string(), (findings.list.len(), 2));
    findings
        .report(
            Violation::error(
                rule::INTG_R7,
                key.to_string(),
                "",
                "appears more than once in the event object",
            )
            .with_hint("a JSON object must name each attribute once"),
        )
        .map_err(|Stop| stop(findings))?;
    map.next_value::<IgnoredAny>()?;
    Ok(())
}

/// `data` after a `data_base64` that was not `null`: skipped, and refused.
#[cold]
#[inline(never)]
fn data_after_data_base64<'de, A: MapAccess<'de>>(
    map: &mut A,
    findings: &mut Findings,
) -> Result<(), A::Error> {
    map.next_value::<IgnoredAny>()?;
    findings.report(both_data()).map_err(|Stop| stop(findings))
}

/// `data_base64` after `data`: refused unless `null`; `true` when it was not `null`.
#[cold]
#[inline(never)]
fn data_base64_after_data<'de, A: MapAccess<'de>>(
    map: &mut A,
    findings: &mut Findings,
) -> Result<bool, A::Error> {
    if matches!(map.next_value::<JsonScalar<'de>>()?, JsonScalar::Null) {
        return Ok(false);
    }
    findings
        .report(both_data())
        .map_err(|Stop| stop(findings))?;
    Ok(true)
}

/// The count of each member given more than twice, into its finding.
#[cold]
#[inline(never)]
fn count_repeats(
    repeated: std::collections::BTreeMap<String, (usize, usize)>,
    findings: &mut Findings,
) {
    for (index, count) in repeated.into_values().filter(|(_, count)| *count > 2) {
        if let Some(finding) = findings.list.get_mut(index) {
            finding.problem = format!("appears {count} times in the event object").into();
        }
    }
}

/// Hands the decoded `data_base64` to the slot; `true` when the event has data from it
/// (`null` is absent).
fn data_base64<'de, S: DataSlot<'de>>(
    slot: &mut S,
    value: JsonScalar<'_>,
    findings: &mut Findings,
) -> Result<bool, Stop> {
    match value {
        JsonScalar::Null => Ok(false),
        JsonScalar::Bytes(bytes) => slot
            .data_base64(bytes.into_owned(), findings)
            .map(|()| true),
        JsonScalar::Str(text) => match BASE64.decode(text.as_bytes()) {
            Ok(bytes) => slot.data_base64(bytes, findings).map(|()| true),
            Err(err) => findings
                .report(
                    Violation::error(
                        rule::CE_JSON_3_1,
                        "data_base64",
                        truncate(&text),
                        format!("is not valid base64 (RFC 4648 section 4): {err}"),
                    )
                    .with_hint("use the standard alphabet with `=` padding"),
                )
                .map(|()| false),
        },
        other => findings
            .report(wrong_json_type(
                Member::DataBase64.name(),
                &other,
                "a base64 string",
            ))
            .map(|()| false),
    }
}

/// Keeps one context attribute's value, or reports why it is not a string. A typed reader
/// stops at a foreign `type` before it reads `data`.
#[inline(always)]
fn context_attribute<'de>(
    envelope: &mut Envelope<'de>,
    attribute: Member,
    value: JsonScalar<'de>,
    expected_type: Option<Expected>,
    findings: &mut Findings,
) -> Result<(), Stop> {
    match value {
        JsonScalar::Null => Ok(()),
        JsonScalar::Str(text) => {
            if let (Member::Type, Some(Expected { ty: expected, .. })) = (attribute, expected_type)
                && text != expected
            {
                foreign_type(expected, &text, findings)?;
            }
            if let Some(slot) = envelope.attribute_mut(attribute) {
                *slot = Some(text);
            }
            Ok(())
        }
        other => refuse_attribute(envelope, attribute, &other, findings),
    }
}

/// A typed reader's `type` is another event's.
#[cold]
#[inline(never)]
fn foreign_type(expected: &str, found: &str, findings: &mut Findings) -> Result<(), Stop> {
    findings.report(type_mismatch(expected, found))
}

/// A context attribute whose JSON value is not a string: its slot stays empty.
#[cold]
#[inline(never)]
fn refuse_attribute(
    envelope: &mut Envelope<'_>,
    attribute: Member,
    value: &JsonScalar<'_>,
    findings: &mut Findings,
) -> Result<(), Stop> {
    envelope.refused.push(attribute);
    findings.report(wrong_json_type(attribute.name(), value, "a string"))
}

fn both_data() -> Violation {
    Violation::error(
        rule::INTG_R7,
        "data_base64",
        "",
        "is present together with `data`; an event carries one or the other",
    )
}

/// Keeps one extension member, or reports why its value is not in the type system.
/// `vacancy`: its place in the map, which the duplicate check found.
fn extension(
    envelope: &mut Envelope<'_>,
    null_extensions: &mut Option<BTreeSet<String>>,
    vacancy: Option<Vacancy>,
    name: Cow<'_, str>,
    value: JsonScalar<'_>,
    findings: &mut Findings,
) -> Result<(), Stop> {
    let owned = match value {
        JsonScalar::Null => {
            null_extensions
                .get_or_insert_with(BTreeSet::new)
                .insert(name.into_owned());
            return Ok(());
        }
        JsonScalar::Bool(b) => ExtensionValueBuf::Boolean(b),
        JsonScalar::Int(i) => match cloudevent_rules::check_integer_value(&name, i.into()) {
            Ok(i) => ExtensionValueBuf::Integer(i),
            Err(violation) => return findings.report(*violation),
        },
        JsonScalar::UInt(u) => match cloudevent_rules::check_integer_value(&name, u.into()) {
            Ok(i) => ExtensionValueBuf::Integer(i),
            Err(violation) => return findings.report(*violation),
        },
        JsonScalar::Str(text) => ExtensionValueBuf::String(text.into_owned()),
        // Never from JSON text (Binary is a base64 string there); the Avro reader hands an
        // attribute of Avro type `bytes` over as bytes (CE-Avro 2.1).
        JsonScalar::Bytes(bytes) => {
            ExtensionValueBuf::Binary(crate::Binary::from(bytes.into_owned()))
        }
        other @ (JsonScalar::Float(_) | JsonScalar::Composite(_)) => {
            return findings.report(wrong_json_type(
                &name,
                &other,
                "a string, a boolean or an integer in the i32 range",
            ));
        }
    };
    match vacancy {
        Some(at) => envelope
            .extensions
            .insert_vacant(at, name.into_owned(), owned),
        None => {
            envelope.extensions.try_insert_new(name.into_owned(), owned);
        }
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn wrong_json_type(name: &str, found: &JsonScalar<'_>, expected: &str) -> Violation {
    Violation::error(
        rule::CE_TYPE_SYSTEM,
        name.to_owned(),
        truncate(&found.describe()),
        format!("is {}; expected {expected}", found.json_type()),
    )
}

/// Parses one event from a byte slice, strictly or leniently, checking nothing is left over.
/// The attributes go into `envelope` (see [`EventSeed`]), read as far as the parse got.
pub(crate) fn parse_slice<'de, S: DataSlot<'de>>(
    bytes: &'de [u8],
    envelope: &mut Envelope<'de>,
    slot: S,
    expected_type: Option<Expected>,
    policy: &Policy,
    findings: &mut Findings,
) -> Result<S::Data, serde_json::Error> {
    parse_slice_in_batch(
        bytes,
        envelope,
        slot,
        expected_type,
        policy,
        findings,
        None,
        None,
    )
}

/// [`parse_slice`] for one event of a batch, remembering what passed in `memo`, and for a
/// typed reader holding its payload's extensions aside in `held` ([`EventSeed::held`]).
#[allow(
    clippy::too_many_arguments,
    reason = "the reader's state, one argument each; private"
)]
pub(crate) fn parse_slice_in_batch<'de, S: DataSlot<'de>>(
    bytes: &'de [u8],
    envelope: &mut Envelope<'de>,
    slot: S,
    expected_type: Option<Expected>,
    policy: &Policy,
    findings: &mut Findings,
    memo: Option<&mut BatchMemo>,
    held: Option<&mut Held<'de>>,
) -> Result<S::Data, serde_json::Error> {
    // Valid UTF-8 as a whole (one pass, eight bytes at a time over ASCII) is read as a `str`:
    // serde_json then skips the UTF-8 check it makes of every string it returns, one call
    // per member name and value (16 % of a typed parse, callgrind). Those checks cannot fail
    // on a piece of valid UTF-8 cut at quotes, so the reading and every error are the same
    // (`tests::property::str_and_slice_readers_give_one_verdict`). Anything else is read as
    // bytes, exactly as before, so invalid UTF-8 meets the same error at the same place.
    match std::str::from_utf8(bytes) {
        Ok(text) => read_all(
            serde_json::Deserializer::from_str(text),
            envelope,
            slot,
            expected_type,
            policy,
            findings,
            memo,
            held,
        ),
        Err(_) => read_all(
            serde_json::Deserializer::from_slice(bytes),
            envelope,
            slot,
            expected_type,
            policy,
            findings,
            memo,
            held,
        ),
    }
}

/// Reads one event and checks nothing is left over, from either reader of serde_json.
#[allow(
    clippy::too_many_arguments,
    reason = "the reader's state, one argument each; private"
)]
fn read_all<'de, R: serde_json::de::Read<'de>, S: DataSlot<'de>>(
    mut deserializer: serde_json::Deserializer<R>,
    envelope: &mut Envelope<'de>,
    slot: S,
    expected_type: Option<Expected>,
    policy: &Policy,
    findings: &mut Findings,
    memo: Option<&mut BatchMemo>,
    held: Option<&mut Held<'de>>,
) -> Result<S::Data, serde_json::Error> {
    let parsed = EventSeed {
        envelope,
        findings,
        policy,
        slot,
        expected_type,
        memo,
        held,
    }
    .deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(parsed)
}

/// Reads one event strictly from any source of members: the JSON reader's visitor, its
/// findings and its policy check over `deserializer`, which is the JSON text's or the
/// binary-mode reader's (`binding::parts`), so both readers give one verdict.
/// The attributes go into `envelope` (see [`EventSeed`]).
pub(crate) fn read_event<'de, D, S>(
    deserializer: D,
    envelope: &mut Envelope<'de>,
    slot: S,
    expected_type: Option<Expected>,
    policy: &Policy,
) -> Result<S::Data, crate::FormatError>
where
    D: Deserializer<'de, Error = serde_json::Error>,
    S: DataSlot<'de>,
{
    let mut findings = Findings::strict();
    EventSeed {
        envelope,
        findings: &mut findings,
        policy,
        slot,
        expected_type,
        memo: None,
        held: None,
    }
    .deserialize(deserializer)
    .map_err(|error| into_format_error(error, &mut findings))
}

/// Turns a failed strict parse into the error the caller returns.
pub(crate) fn into_format_error(
    error: serde_json::Error,
    findings: &mut Findings,
) -> crate::FormatError {
    match findings.take_error().or_else(|| string_violation(&error)) {
        Some(violation) => crate::FormatError::from(violation),
        None => crate::FormatError::Json(error),
    }
}

/// A JSON string holding a lone surrogate escape (`"\ud800"`) is valid JSON text to some
/// parsers, but not a CloudEvents String: surrogates are allowed only in pairs (CE 1.0.2 type
/// system). serde_json refuses it while parsing; this names the rule instead of "not JSON".
pub(crate) fn string_violation(error: &serde_json::Error) -> Option<Violation> {
    lone_surrogate(&error.to_string(), "string")
}

/// The String-rule violation for a parser error that is a lone surrogate escape, naming the
/// attribute that held it; `None` for any other error.
fn lone_surrogate(text: &str, attribute: &str) -> Option<Violation> {
    // serde_json's words for a lone leading surrogate, and for one not followed by `\u`.
    let lone = text.contains("surrogate") || text.contains("end of hex escape");
    lone.then(|| {
        Violation::error(
            rule::CE_TYPE_SYSTEM,
            attribute.to_owned(),
            "",
            format!("a lone surrogate escape is not allowed in a String (surrogates only in pairs): {text}"),
        )
    })
}

#[cfg(test)]
mod tests;
