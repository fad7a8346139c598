//! The validator's read of an HTTP message: what it reads (the structured body as sent, or
//! the document a binary-mode message stands for), and the full report on a message a typed
//! reader refused. The axum extractors' one read (`Checked`, `Registered`) and the typed
//! routes' report both start here, so both list the same findings (issue 41).

use std::borrow::Cow;

use http::HeaderMap;

use super::super::format::WithFormat;
use super::super::{BindingError, BindingEvent, ContentMode, StructuredFormat};
use crate::validate::{Then, TreeRead};
use crate::{EventFormat, FormatError, Policy, ValidationReport, Validator, Violation};

/// What the validator reads, in which format, and the warnings of the binding's reading.
pub(crate) type ToRead<'b> = (StructuredFormat, Cow<'b, [u8]>, Vec<Violation>);

/// What the validator reads from a message, and in which format: a structured event or batch
/// as sent, in the format its content type names (JSON without one), or the JSON document a
/// binary-mode message stands for ([`structured_document`](super::structured_document)).
///
/// # Errors
/// What the binding refuses before any event is read: an unsupported format, another mode
/// than the reader takes (`batch`), a bad or repeated header, no CloudEvent at all, JSON
/// data that is not JSON, a binary-mode event whose document is over the size limit.
pub(crate) fn validator_input<'b>(
    headers: &HeaderMap,
    body: &'b [u8],
    batch: bool,
    policy: &Policy,
) -> Result<ToRead<'b>, BindingError> {
    let mode = super::content_mode(headers)?;
    let unexpected = match (mode, batch) {
        (ContentMode::Batch, false) => Some(("one event", "a batch")),
        (ContentMode::Structured, true) => Some(("a batch", "a structured-mode event")),
        (ContentMode::Binary, true) => Some(("a batch", "a binary-mode event")),
        _ => None,
    };
    if let Some((expected, found)) = unexpected {
        return Err(BindingError::UnexpectedMode {
            expected,
            found,
            content_type: super::content_type(headers)?.unwrap_or_default().to_owned(),
        });
    }
    if mode == ContentMode::Binary {
        let (_, document, warnings) = super::structured_document(headers, body, policy)?;
        if document.len() > crate::limits::MAX_EVENT_BYTES {
            return Err(BindingError::Event(FormatError::TooLarge {
                what: "event",
                found: document.len(),
                limit: crate::limits::MAX_EVENT_BYTES,
                rule: crate::rules::rule::INTG_R11,
            }));
        }
        return Ok((StructuredFormat::Json, Cow::Owned(document), warnings));
    }
    let format = super::content_type(headers)?
        .and_then(StructuredFormat::from_media_type)
        .map_or(StructuredFormat::Json, |(format, _)| format);
    Ok((format, Cow::Borrowed(body), Vec::new()))
}

/// The warnings of the binding's reading (a header read literally under
/// `Policy::with_literal_headers`) in the event's report, before what `then` adds.
pub(crate) struct WithWarnings<'a, T> {
    pub(crate) warnings: Vec<Violation>,
    pub(crate) then: &'a T,
}

impl<T: Then> Then for WithWarnings<'_, T> {
    fn read_data(&self, report: &ValidationReport, data: Option<&crate::Data>) -> TreeRead {
        self.then.read_data(report, data)
    }
    fn then(&self, report: &mut ValidationReport, data: Option<&crate::Data>, tree: TreeRead) {
        report.findings.extend(self.warnings.iter().cloned());
        self.then.then(report, data, tree);
    }
}

/// The full report on one event that [`read_event`](super::read_event) (or a typed axum
/// extractor) refused with `refusal`: every finding of the validator's read under `policy`
/// (the read the `Checked` extractor makes), with the event's id and attributes, and the
/// typed reader's refusal after them when it is not one of them (what only the type checks:
/// the event type it takes, its payload). `None` when the binding refuses the message before
/// any event is read (a bad header, another mode): its refusal is then the whole report.
pub(crate) fn full_report(
    headers: &HeaderMap,
    body: &[u8],
    policy: &Policy,
    refusal: &BindingError,
) -> Option<ValidationReport> {
    let (format, bytes, warnings) = validator_input(headers, body, false, policy).ok()?;
    let validator = Validator::new(policy.clone());
    let mut report = format.with(ReportIn {
        validator: &validator,
        bytes: &bytes,
        then: &WithWarnings {
            warnings,
            then: &(),
        },
    });
    report.list_refusal(refusal.violation_under(policy));
    Some(report)
}

/// [`full_report`] for a batch a typed batch reader refused: the report of the validator's
/// read that `Checked<Batch>` makes (it stops at the first event with an error), the typed
/// reader's refusal listed in the report of the event it names when it is not among its
/// findings. `None` when the binding refuses the message before any event is read.
#[cfg(feature = "axum")]
pub(crate) fn full_batch_report(
    headers: &HeaderMap,
    body: &[u8],
    policy: &Policy,
    refusal: &BindingError,
) -> Option<crate::BatchReport> {
    let (format, bytes, warnings) = validator_input(headers, body, true, policy).ok()?;
    let validator = Validator::new(policy.clone());
    let mut report = format.with(BatchReportIn {
        validator: &validator,
        bytes: &bytes,
        then: &WithWarnings {
            warnings,
            then: &(),
        },
    });
    match refusal {
        BindingError::Event(FormatError::InBatch { index, source }) => {
            report.list_refusal(Some(*index), super::super::error::format_violation(source))
        }
        _ => report.list_refusal(None, refusal.violation_under(policy)),
    }
    Some(report)
}

/// The validator's report on a batch in the format a message names, as a gateway reads it.
#[cfg(feature = "axum")]
struct BatchReportIn<'a, T> {
    validator: &'a Validator,
    bytes: &'a [u8],
    then: &'a T,
}

#[cfg(feature = "axum")]
impl<T: Then> WithFormat for BatchReportIn<'_, T> {
    type Output = crate::BatchReport;
    fn call<F: EventFormat>(self) -> crate::BatchReport {
        self.validator
            .read_batch_then::<F>(self.bytes, self.then)
            .report
    }
}

/// The validator's report on one event in the format a message names.
struct ReportIn<'a, T> {
    validator: &'a Validator,
    bytes: &'a [u8],
    then: &'a T,
}

impl<T: Then> WithFormat for ReportIn<'_, T> {
    type Output = ValidationReport;
    fn call<F: EventFormat>(self) -> ValidationReport {
        self.validator.bytes_then::<F>(self.bytes, self.then)
    }
}

/// The full report on a message [`read_event`](super::read_event) refused with `refusal`,
/// under `E`'s policy: every finding the validator lists (what the axum `Checked<AnyEvent>`
/// extractor answers), with the event's id and attributes, then the typed reader's refusal
/// when it is not among them (the event type `E` takes, its payload). A message the binding
/// refuses before any event is read (a bad header, a batch) reports that refusal alone.
///
/// ```
/// use cloudevent_runtime::{CloudEvent, Event};
/// use cloudevent_runtime::binding::http::{read_event, report_refusal};
///
/// #[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
/// struct OrderCreated { note: String }
///
/// let mut headers = ::http::HeaderMap::new();
/// headers.insert("content-type", "application/cloudevents+json".parse().unwrap());
/// let body = br#"{"specversion":"1.0","id":"evt-1","source":"https://localhost:8443/orders",
///     "type":"com.example.order.created","time":"2026-03-28T14:22:31+01:00","data":{"note":"n"}}"#;
/// let refusal = read_event::<Event<OrderCreated>>(&headers, body).unwrap_err();
/// let report = report_refusal::<Event<OrderCreated>>(&headers, body, &refusal);
/// assert_eq!(report.id(), Some("evt-1"));
/// assert_eq!(report.attribute("type"), Some("com.example.order.created"));
/// // Every finding, not only the first: the source's port and host, the time's offset.
/// let attributes: Vec<&str> = report.errors().map(|f| f.attribute.as_ref()).collect();
/// assert_eq!(attributes, ["source", "source", "time"]);
/// ```
pub fn report_refusal<E: BindingEvent>(
    headers: &HeaderMap,
    body: &[u8],
    refusal: &BindingError,
) -> ValidationReport {
    let policy = E::policy();
    full_report(headers, body, &policy, refusal).unwrap_or_else(|| {
        ValidationReport::refused(policy.profile(), vec![refusal.violation_under(&policy)])
    })
}
