//! The validator: an event (or a batch) checked against a profile, every finding reported.
//!
//! Parsing ([`AnyEvent::decode`]) stops at the first problem; validating goes on and lists
//! them all, so a build pipeline or a gateway log shows everything wrong with an event at once
//! (INTG-STD-015 "Producer Enforcement": a CloudEvents linting step).

use cloudevent_rules::{Mode, Policy, Profile, Violation};

use crate::any::{AnyEvent, Data};
use crate::format::batch::Batch;
use crate::format::json::Envelope;
use crate::format::{EventFormat, Json};
use cloudevent_rules::limits;

mod report;
use report::OmittedEvents;
pub use report::{BatchReport, Document, FindingJson, ValidationReport};

/// Checks events against a profile.
///
/// ```
/// use cloudevent_runtime::{Json, Profile, Validate, Validator};
///
/// let validator = Validator::new(cloudevent_runtime::Policy::new(Profile::IntgStd015).with_required_traceability(true));
/// let report = validator.validate_bytes::<Json>(br#"{"id":"evt-100","type":"OrderCreated","data":{}}"#);
/// assert!(!report.is_valid());
/// // Every finding is listed: specversion, source, the type's naming, traceability, ...
/// let rules: Vec<&str> = report.errors().map(|f| f.rule.as_str()).collect();
/// assert!(rules.contains(&"INTG-STD-015 R-1"));
/// assert!(rules.contains(&"INTG-STD-015 R-2"));
/// assert!(rules.contains(&"INTG-STD-015 R-4"));
/// assert!(rules.contains(&"ADR-0003"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validator {
    policy: Policy,
}

impl Default for Validator {
    fn default() -> Self {
        Validator::new(Profile::default())
    }
}

impl Validator {
    /// A validator for a policy: a profile alone (no type prefix, no traceability
    /// requirement), or a profile with the organisation's settings.
    ///
    /// ```
    /// use cloudevent_runtime::{Policy, Profile, Validator};
    /// assert_eq!(Validator::new(Profile::NlGov).policy().profile(), Profile::NlGov);
    /// let validator = Validator::new(Policy::new(Profile::IntgStd015).with_type_prefix("com.example"));
    /// assert_eq!(validator.policy().type_prefix(), Some("com.example"));
    /// ```
    pub fn new(policy: impl Into<Policy>) -> Self {
        Validator {
            policy: policy.into(),
        }
    }

    /// The policy (profile and type prefix).
    ///
    /// ```
    /// use cloudevent_runtime::{Profile, Validator};
    /// assert_eq!(Validator::new(Profile::CloudEvents).policy().type_prefix(), None);
    /// ```
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// [`Validate::validate`], then what `then` adds (a registry's findings).
    pub(crate) fn event_then(&self, event: &AnyEvent, then: &impl Then) -> ValidationReport {
        let view = event.view();
        let findings = self.policy.check_envelope(&view, Mode::Collect);
        let members_at = findings.len();
        let mut report = ValidationReport::new(self.policy.profile(), &view, findings);
        // JSON `data` read from a document or a binary-mode body: its repeated members, as
        // the JSON reader reports them (RFC 8259 4), after the envelope's findings.
        let tree = then.read_data(&report, event.data());
        self.walk_members(&mut report, event.data(), Some(members_at), tree);
        then.then(&mut report, event.data(), tree);
        report.bound();
        report
    }

    /// The walk for members named twice in JSON `data` (RFC 8259 4) that the reader left at
    /// `at` (`None`: walked by the reader already, or no JSON `data`), its findings put where
    /// the reader would have put them. Skipped when a later step read the same text as a
    /// tree ([`TreeRead::Read`]): the borrowed tree refuses an object naming a member twice
    /// (after decoding escapes, as serde_json compares names), so the walk would find
    /// nothing (`registry::borrowed::tests::property::a_tree_that_reads_has_no_repeated_member`).
    fn walk_members(
        &self,
        report: &mut ValidationReport,
        data: Option<&Data>,
        at: Option<usize>,
        tree: TreeRead,
    ) {
        let (Some(at), Some(Data::Json(raw))) = (at, data) else {
            return;
        };
        if matches!(tree, TreeRead::Read { .. }) && !crate::format::walks_members_in_reader() {
            return;
        }
        report.insert_findings(at, self.policy.check_data_members(raw.get()));
    }

    /// [`Validate::validate_bytes`], then what `then` adds (a registry's findings).
    pub(crate) fn bytes_then<F: EventFormat>(
        &self,
        bytes: &[u8],
        then: &impl Then,
    ) -> ValidationReport {
        self.read_event::<F, ValidationReport>(bytes, then).report
    }

    #[cfg(feature = "axum")]
    /// The one read of an event that a gateway accepts or refuses on (the axum extractors):
    /// [`Validator::bytes_then`]'s report, and the event that same read built, present
    /// exactly when the report has no error. Nothing is read twice.
    pub(crate) fn read_event_then<F: EventFormat>(
        &self,
        bytes: &[u8],
        then: &impl Then,
    ) -> Reading<AnyEvent, ValidationReport> {
        self.read_event::<F, Kept>(bytes, then)
    }

    /// The validator's read of one event, keeping the event when `K` does.
    fn read_event<F: EventFormat, K: Keep>(
        &self,
        bytes: &[u8],
        then: &impl Then,
    ) -> Reading<AnyEvent, ValidationReport> {
        let too_large = limits::check_event_size(bytes.len());
        if !too_large.is_empty() {
            return Reading::refused(ValidationReport::refused(self.policy.profile(), too_large));
        }
        let (read, data, members_at) = F::validate::<K>(bytes, &self.policy);
        let (mut report, envelope, type_url) = read.split();
        let tree = then.read_data(&report, data.as_ref());
        self.walk_members(&mut report, data.as_ref(), members_at, tree);
        let profile_valid = report.is_valid();
        then.then(&mut report, data.as_ref(), tree);
        report.bound();
        let event = envelope.filter(|_| report.is_valid()).map(|envelope| {
            let mut event = AnyEvent::from_envelope(envelope, data);
            event.protobuf_type_url = type_url;
            event
        });
        Reading {
            report,
            profile_valid,
            read: event,
        }
    }

    /// [`Validate::validate_batch_bytes`], then what `then` adds to each event's report.
    /// `each` sees every event's report, in order, the events the batch's report only
    /// counts included.
    pub(crate) fn batch_bytes_then<F: EventFormat>(
        &self,
        bytes: &[u8],
        then: &impl Then,
        each: &mut dyn FnMut(&ValidationReport),
    ) -> BatchReport {
        self.read_batch::<F, ValidationReport>(bytes, then, each)
            .report
    }

    #[cfg(feature = "axum")]
    /// [`Validator::read_event_then`] for a batch: the batch's report, and its events when
    /// neither the batch nor any event has an error.
    pub(crate) fn read_batch_then<F: EventFormat>(
        &self,
        bytes: &[u8],
        then: &impl Then,
    ) -> Reading<Vec<AnyEvent>, BatchReport> {
        self.read_batch::<F, Kept>(bytes, then, &mut |_| {})
    }

    /// The validator's read of a batch, keeping the events when `K` does.
    fn read_batch<F: EventFormat, K: Keep>(
        &self,
        bytes: &[u8],
        then: &impl Then,
        each: &mut dyn FnMut(&ValidationReport),
    ) -> Reading<Vec<AnyEvent>, BatchReport> {
        if bytes.len() > limits::MAX_BATCH_BYTES {
            return Reading::refused(BatchReport {
                findings: limits::check_batch(bytes.len(), 0),
                events: Vec::new(),
                omitted: OmittedEvents::default(),
            });
        }
        let mut profile_valid = true;
        let mut listing = Listing::default();
        let mut events = Some(Vec::new());
        let mut unread_from = None;
        let scanned = F::each_in_batch(bytes, &mut |element| {
            let reading = self.read_event::<F, K>(element, then);
            profile_valid &= reading.profile_valid;
            let valid = reading.report.is_valid();
            each(&reading.report);
            listing.add(reading.report);
            events = events.take().zip(reading.read).map(|(mut events, event)| {
                events.push(event);
                events
            });
            // A gateway goes on with a batch only when every event is valid: it stops at the
            // first invalid one, and what follows is neither read nor reported.
            if K::KEEPS && !valid {
                unread_from = Some(listing.events.len() + listing.omitted.count);
                return false;
            }
            true
        });
        let total = match scanned {
            Some(Ok(total)) => total,
            Some(Err(violation)) => return Reading::refused(BatchReport::refused(*violation)),
            None => return Reading::refused(BatchReport::refused(crate::format::no_batch::<F>())),
        };
        if let Some(read) = unread_from {
            listing.omitted.count += total - read;
            listing.omitted.invalid = None;
        }
        let findings = limits::check_batch(bytes.len(), total);
        profile_valid &= !findings.iter().any(Violation::is_error);
        let report = BatchReport {
            findings,
            events: listing.events,
            omitted: listing.omitted,
        };
        let read = events.filter(|_| report.is_valid() && K::KEEPS);
        Reading {
            report,
            profile_valid,
            read,
        }
    }

    /// [`Validate::validate_batch`], then what `then` adds to each event's report.
    pub(crate) fn batch_then(&self, batch: &Batch, then: &impl Then) -> BatchReport {
        // Sized once, as a `collect` would: a batch in memory is already held whole (at most
        // 1,024 reports up front, the rest grown if listed).
        let mut listing = Listing {
            events: Vec::with_capacity(batch.len().min(1024)),
            ..Listing::default()
        };
        for event in batch.iter() {
            listing.add(self.event_then(event, then));
        }
        BatchReport {
            // The size the batch takes when sent, counted without writing it out.
            findings: limits::check_batch(batch.serialized_len(), batch.len()),
            events: listing.events,
            omitted: listing.omitted,
        }
    }

    /// [`Validate::validate_document`], then what `then` adds to each event's report.
    /// `each` sees the event's report, or every event's of a batch.
    pub(crate) fn document_then(
        &self,
        bytes: &[u8],
        then: &impl Then,
        each: &mut dyn FnMut(&ValidationReport),
    ) -> Document {
        match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'[') => Document::Batch(self.batch_bytes_then::<Json>(bytes, then, each)),
            _ => {
                let report = self.bytes_then::<Json>(bytes, then);
                each(&report);
                Document::Event(report)
            }
        }
    }
}

/// The events a batch's report lists: in order, until their findings reach
/// [`limits::MAX_REPORTED_FINDINGS`](crate::limits::MAX_REPORTED_FINDINGS); the events after
/// them are counted, so the report stays bounded by the input however long the batch.
/// Validation, written once for every validator: the plain [`Validator`] (the profile's
/// findings) and, with the feature `registry`, `registry::RegistryValidator` (the
/// profile's, then the schema registry's). Sealed; `use cloudevent_runtime::Validate` (or
/// the prelude) to call its methods.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Profile, Validate, Validator};
///
/// fn lint(validator: &impl Validate, event: &AnyEvent) -> bool {
///     validator.validate(event).is_valid()
/// }
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// assert!(lint(&Validator::new(Profile::CloudEvents), &event));
/// ```
pub trait Validate: sealed::Validates {
    /// Validates a parsed event.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Profile, Validate, Validator};
    ///
    /// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// let report = Validator::new(Profile::CloudEvents).validate(&event);
    /// assert!(report.is_valid(), "{report}");
    /// ```
    fn validate(&self, event: &AnyEvent) -> ValidationReport {
        self.checker().event_then(event, self)
    }

    /// Reads and validates one event in the format `F`: the format's own reader, collecting
    /// every finding (the format's and the policy's) instead of stopping at the first. An
    /// event over the size limit is reported without being read (INTG-STD-015 R-11,
    /// gateway 3); input that cannot be read as an event at all is refused with what stopped
    /// the reader.
    ///
    /// ```
    /// use cloudevent_runtime::{Json, Profile, Validate, Validator};
    /// let good = br#"{"specversion":"1.0","id":"1","source":"https://orders.example.com",
    ///     "type":"com.example.order.created","time":"2026-03-28T14:22:31Z"}"#;
    /// assert!(Validator::new(Profile::IntgStd015).validate_bytes::<Json>(good).is_valid());
    /// let too_big = vec![b' '; 256 * 1024 + 1];
    /// let report = Validator::new(Profile::IntgStd015).validate_bytes::<Json>(&too_big);
    /// assert!(report.has_rule("INTG-STD-015 R-11"));
    /// ```
    fn validate_bytes<F: EventFormat>(&self, bytes: &[u8]) -> ValidationReport {
        self.checker().bytes_then::<F>(bytes, self)
    }

    /// Reads and validates a batch in `F`'s batch format (`application/cloudevents-batch+json`
    /// for [`Json`](crate::Json)): `[]` allowed, each event validated on its own as
    /// [`Validate::validate_bytes`] validates it (INTG-STD-015 R-10). A batch over the
    /// batch size limit is reported without being read; a format without a batch format
    /// (Avro) is refused.
    ///
    /// ```
    /// use cloudevent_runtime::{Json, Profile, Validate, Validator};
    ///
    /// let report = Validator::new(Profile::CloudEvents).validate_batch_bytes::<Json>(b"[]");
    /// assert!(report.is_valid());
    /// assert!(report.events().is_empty());
    /// ```
    fn validate_batch_bytes<F: EventFormat>(&self, bytes: &[u8]) -> BatchReport {
        self.checker()
            .batch_bytes_then::<F>(bytes, self, &mut |_| {})
    }

    /// [`Validate::validate_batch_bytes`], calling `each` with every event's report in order
    /// as it is read, before the batch's report bounds what it lists: the events past that
    /// bound are only counted in the batch's report, and a caller that follows the whole
    /// stream (`cloudevent validate --sequence` checks the order of every event) sees them
    /// here.
    ///
    /// ```
    /// use cloudevent_runtime::{Json, Profile, Validate, Validator};
    ///
    /// // No `time`: one warning each under INTG-STD-015 (R-2), so the report lists the first
    /// // hundred and counts the rest.
    /// let event = |n: usize| format!(r#"{{"specversion":"1.0","id":"{n}","source":"https://orders.example.com","type":"com.example.order.created"}}"#);
    /// let batch = format!("[{}]", (0..300).map(event).collect::<Vec<_>>().join(","));
    /// let mut ids = Vec::new();
    /// let report = Validator::new(Profile::IntgStd015)
    ///     .validate_batch_bytes_each::<Json>(batch.as_bytes(), &mut |event| {
    ///         ids.push(event.id().unwrap_or_default().to_owned())
    ///     });
    /// assert_eq!(ids.len(), 300);
    /// assert!(report.omitted() > 0, "the report lists fewer");
    /// ```
    fn validate_batch_bytes_each<F: EventFormat>(
        &self,
        bytes: &[u8],
        each: &mut dyn FnMut(&ValidationReport),
    ) -> BatchReport {
        self.checker().batch_bytes_then::<F>(bytes, self, each)
    }

    /// Validates every event of a parsed batch, each on its own (R-10), and the batch's size
    /// as written in the JSON batch format ([`Batch::serialized_len`]). For bytes received,
    /// [`Validate::validate_batch_bytes`] measures the bytes themselves.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Batch, Profile, Validate, Validator};
    ///
    /// let batch = Batch::from(vec![AnyEvent::new("1", "https://localhost/x", "com.example.order.created")]);
    /// assert!(Validator::new(Profile::CloudEvents).validate_batch(&batch).is_valid());
    /// assert!(!Validator::new(Profile::IntgStd015).validate_batch(&batch).is_valid());
    /// ```
    fn validate_batch(&self, batch: &Batch) -> BatchReport {
        self.checker().batch_then(batch, self)
    }

    /// Validates a JSON document that is either one event (an object) or a batch (an array),
    /// as a command-line linter reads files.
    ///
    /// ```
    /// use cloudevent_runtime::{Document, Profile, Validate, Validator};
    ///
    /// let validator = Validator::new(Profile::CloudEvents);
    /// assert!(matches!(validator.validate_document(b" [ ] "), Document::Batch(_)));
    /// assert!(matches!(validator.validate_document(b"{}"), Document::Event(_)));
    /// ```
    fn validate_document(&self, bytes: &[u8]) -> Document {
        self.checker().document_then(bytes, self, &mut |_| {})
    }

    /// [`Validate::validate_document`], calling `each` with the event's report, or with every
    /// event's of a batch in order, as [`Validate::validate_batch_bytes_each`] does.
    ///
    /// ```
    /// use cloudevent_runtime::{Profile, Validate, Validator};
    ///
    /// let mut seen = 0;
    /// let _ = Validator::new(Profile::CloudEvents)
    ///     .validate_document_each(br#"[{"id":"1"},{"id":"2"}]"#, &mut |_| seen += 1);
    /// assert_eq!(seen, 2);
    /// ```
    fn validate_document_each(
        &self,
        bytes: &[u8],
        each: &mut dyn FnMut(&ValidationReport),
    ) -> Document {
        self.checker().document_then(bytes, self, each)
    }
}

impl Validate for Validator {}

/// The crate-private half of [`Validate`]: the validator that reads, and (the supertrait
/// [`Then`]) what the wrapper adds to each report. Private, so it seals the trait.
#[allow(
    private_bounds,
    reason = "the sealed trait is unnameable outside the crate, so `Then` never leaves it"
)]
pub(crate) mod sealed {
    pub trait Validates: super::Then + Sized {
        /// The validator whose reader reads and whose policy checks.
        fn checker(&self) -> &super::Validator;
    }
}

impl sealed::Validates for Validator {
    fn checker(&self) -> &Validator {
        self
    }
}

/// The plain validator adds nothing.
impl Then for Validator {
    fn then(&self, _report: &mut ValidationReport, _data: Option<&Data>, _tree: TreeRead) {}
}

#[derive(Default)]
struct Listing {
    events: Vec<ValidationReport>,
    findings: usize,
    omitted: OmittedEvents,
}

impl Listing {
    fn add(&mut self, report: ValidationReport) {
        if self.omitted.count == 0 && self.findings < crate::limits::MAX_REPORTED_FINDINGS {
            self.findings += report.findings().len();
            self.events.push(report);
        } else {
            self.omitted.count += 1;
            if !report.is_valid() {
                self.omitted.invalid = self.omitted.invalid.map(|n| n + 1);
            }
        }
    }
}

/// One read's verdict: the report, whether the profile alone found no error (a gateway
/// answers 400 for the profile's refusals, 422 for a registry's), and what was read,
/// present exactly when the report has no error (`report.is_valid()`).
#[derive(Debug)]
pub(crate) struct Reading<T, R> {
    pub(crate) report: R,
    pub(crate) profile_valid: bool,
    pub(crate) read: Option<T>,
}

impl<T, R> Reading<T, R> {
    /// A report on input that was not read (too large, not a batch): the profile refused it.
    fn refused(report: R) -> Self {
        Reading {
            report,
            profile_valid: false,
            read: None,
        }
    }
}

/// What the validator's read keeps besides its report: nothing ([`ValidationReport`], for
/// `validate_bytes`), or the attributes it read ([`Kept`], for a gateway that goes on with
/// the event).
trait Keep: crate::format::Report {
    /// Whether the read keeps what it read.
    const KEEPS: bool;
    /// The report, and what was read: the attributes and a Protobuf type URL.
    fn split(self) -> (ValidationReport, Option<Envelope<'static>>, Option<String>);
}

impl Keep for ValidationReport {
    const KEEPS: bool = false;
    fn split(self) -> (ValidationReport, Option<Envelope<'static>>, Option<String>) {
        (self, None, None)
    }
}

#[cfg(feature = "axum")]
/// A report and the attributes the same read read, to build the event from.
struct Kept {
    report: ValidationReport,
    envelope: Option<Envelope<'static>>,
    type_url: Option<String>,
}

#[cfg(all(test, feature = "axum"))]
thread_local! {
    /// How many reads the validator made on this thread that kept the event: the axum
    /// extractors' tests count one per request.
    pub(crate) static KEPT_READS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(feature = "axum")]
impl crate::format::Report for Kept {
    fn read(
        profile: Profile,
        view: &cloudevent_rules::Envelope<'_>,
        findings: Vec<Violation>,
    ) -> Self {
        #[cfg(test)]
        KEPT_READS.with(|reads| reads.set(reads.get() + 1));
        let owned = |value: Option<&str>| value.map(|v| std::borrow::Cow::Owned(v.to_owned()));
        let mut extensions = crate::extension::Extensions::default();
        view.extensions.for_each_extension(&mut |name, value| {
            extensions.insert(name, value);
        });
        let envelope = Envelope {
            specversion: owned(view.specversion),
            id: owned(view.id),
            source: owned(view.source),
            ty: owned(view.ty),
            datacontenttype: owned(view.datacontenttype),
            dataschema: owned(view.dataschema),
            subject: owned(view.subject),
            time: owned(view.time),
            extensions,
            refused: Vec::new(),
            payload_writes_held: std::cell::Cell::default(),
        };
        Kept {
            report: ValidationReport::new(profile, view, findings),
            envelope: Some(envelope),
            type_url: None,
        }
    }

    fn protobuf_type_url(&mut self, url: Option<String>) {
        self.type_url = url;
    }

    fn refused(profile: Profile, mut findings: Vec<Violation>) -> Self {
        #[cfg(test)]
        KEPT_READS.with(|reads| reads.set(reads.get() + 1));
        // A refusal always says why: a report without an error would read as valid.
        if !findings.iter().any(Violation::is_error) {
            findings.push(Violation::error(
                cloudevent_rules::rule::INTG_R7,
                "event",
                "",
                "is not a CloudEvent in this format",
            ));
        }
        Kept {
            report: ValidationReport::refused(profile, findings),
            envelope: None,
            type_url: None,
        }
    }
}

#[cfg(feature = "axum")]
impl Keep for Kept {
    const KEEPS: bool = true;
    fn split(self) -> (ValidationReport, Option<Envelope<'static>>, Option<String>) {
        (self.report, self.envelope, self.type_url)
    }
}

/// What a validator that wraps [`Validator`] adds to each event's report, once the profile's
/// findings are in: the registry's (`registry::RegistryValidator`). Given the data the
/// event's reader read, so the data is not read twice.
pub(crate) trait Then {
    /// Reads the event's JSON `data` as the step will check it, before the profile's walk
    /// for members named twice: what [`Then::then`] is then given. Nothing by default.
    fn read_data(&self, _report: &ValidationReport, _data: Option<&Data>) -> TreeRead {
        TreeRead::Untried
    }
    /// Adds the step's findings; `tree` is what [`Then::read_data`] read.
    fn then(&self, report: &mut ValidationReport, data: Option<&Data>, tree: TreeRead);
}

/// What a step after the profile's ([`Then::read_data`]) read of JSON `data` as a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TreeRead {
    /// Not read: no registry, no schema for the type or one that accepts everything, no JSON
    /// `data`.
    Untried,
    /// Not read as a tree (a member named twice, an object over 32 members, 128 levels): left
    /// to the `Value` path.
    #[cfg_attr(
        not(feature = "registry"),
        allow(dead_code, reason = "only a registry reads a tree")
    )]
    Left,
    /// Read as a tree, whose objects name each member once; whether the schema accepts it.
    #[cfg_attr(
        not(feature = "registry"),
        allow(dead_code, reason = "only a registry reads a tree")
    )]
    Read {
        /// The schema's verdict on the tree.
        valid: bool,
    },
}

impl crate::format::Report for ValidationReport {
    fn read(
        profile: Profile,
        view: &cloudevent_rules::Envelope<'_>,
        findings: Vec<Violation>,
    ) -> Self {
        ValidationReport::new(profile, view, findings)
    }

    fn refused(profile: Profile, findings: Vec<Violation>) -> Self {
        ValidationReport::refused(profile, findings)
    }
}

/// The plain validator adds nothing.
impl Then for () {
    fn then(&self, _report: &mut ValidationReport, _data: Option<&Data>, _tree: TreeRead) {}
}
