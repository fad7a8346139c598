//! Reads structured-mode CloudEvents, one a line, validates each against INTG-STD-015 and
//! dispatches it by type to a typed handler ([`Inbox`], made with
//! `cloudevent_runtime::dispatch!`). A type the consumer does not know arrives as an
//! [`AnyEvent`] in [`Inbox::Other`]; a line that is not a valid event is rejected with the
//! reason and the rest goes on.

use std::io::{self, BufRead, Write};

use cloudevent_runtime::{
    AnyEvent, Attributes, Profile, SchemaInteger, Traceable, Validate, Validator, dispatch,
};

use crate::exported::{OrderReturned, PaymentFailed};
use crate::generated::{
    order_cancelled_v1, order_created_v1, order_created_v2, order_shipped_v1,
    payment_authorized_v1, payment_captured_v1, payment_refunded_v1,
};

dispatch! {
    /// Every event type the order consumer handles, generated (schema → Rust) and
    /// Rust-first (Rust → schema) alike.
    pub enum Inbox {
        /// An order from the v1 checkout.
        OrderCreated(order_created_v1::OrderCreated),
        /// An order from the v2 checkout (type suffix `.v2`).
        OrderCreatedV2(order_created_v2::OrderCreated),
        /// An order was cancelled.
        OrderCancelled(order_cancelled_v1::OrderCancelled),
        /// An order left the warehouse.
        OrderShipped(order_shipped_v1::OrderShipped),
        /// An order came back.
        OrderReturned(OrderReturned),
        /// A payment was authorised.
        PaymentAuthorized(payment_authorized_v1::PaymentAuthorized),
        /// A payment was captured.
        PaymentCaptured(payment_captured_v1::PaymentCaptured),
        /// A payment failed.
        PaymentFailed(PaymentFailed),
        /// A payment was refunded.
        PaymentRefunded(payment_refunded_v1::PaymentRefunded),
    }
}

/// What a run of the consumer did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Events handled by a typed handler.
    pub typed: usize,
    /// Valid events of a type the consumer does not know, kept as [`AnyEvent`].
    pub other: usize,
    /// Lines that were not a valid event, or whose data did not fit its type.
    pub rejected: usize,
}

/// One line about a typed event.
fn describe(event: &Inbox) -> String {
    // A schema `integer` is read as received (`SchemaInteger`): one beyond `u64` is printed
    // as it came.
    let euros = |minor: &SchemaInteger| match minor.as_u64() {
        Some(minor) => format!("{}.{:02}", minor / 100, minor % 100),
        None => format!("{minor} minor units"),
    };
    match event {
        Inbox::OrderCreated(e) => format!(
            "order created (v1): {} line(s), total {} {}",
            e.data().items.len(),
            euros(&e.data().total.amount_minor),
            e.data().total.currency
        ),
        Inbox::OrderCreatedV2(e) => format!(
            "order created (v2): {} line(s), gross {} {}, {} customer",
            e.data().items.len(),
            euros(&e.data().totals.gross.amount_minor),
            e.data().totals.gross.currency,
            e.data().customer.segment
        ),
        Inbox::OrderCancelled(e) => format!("order cancelled: {}", e.data().reason),
        Inbox::OrderShipped(e) => format!(
            "order shipped with {}: {} parcel(s)",
            e.data().carrier,
            e.data().parcels.len()
        ),
        Inbox::OrderReturned(e) => format!(
            "order returned: {:?}, {} line(s)",
            e.data().reason,
            e.data().items.len()
        ),
        Inbox::PaymentAuthorized(e) => format!(
            "payment authorized: {} {} by {}",
            euros(&e.data().amount.amount_minor),
            e.data().amount.currency,
            e.data().method
        ),
        Inbox::PaymentCaptured(e) => format!(
            "payment captured: {} {}",
            euros(&e.data().amount.amount_minor),
            e.data().amount.currency
        ),
        Inbox::PaymentFailed(e) => format!(
            "payment failed at {}: {:?}, retryable {}",
            e.source(),
            e.data().code,
            e.data().retryable
        ),
        Inbox::PaymentRefunded(e) => format!(
            "payment refunded: {} {}{}",
            euros(&e.data().amount.amount_minor),
            e.data().amount.currency,
            if e.data().partial { " (partial)" } else { "" }
        ),
        Inbox::Other(e) => format!("unknown type `{}`, kept as AnyEvent", e.ty()),
    }
}

/// Handles one line: `Ok((description, typed))`, or `Err(reason)` when it is rejected.
fn handle(validator: &Validator, line: &[u8]) -> Result<(String, bool), String> {
    let any = AnyEvent::from_slice(line).map_err(|e| e.to_string())?;
    let report = validator.validate(&any);
    if !report.is_valid() {
        return Err(report.to_string());
    }
    let subject = any.subject().unwrap_or("-").to_owned();
    let causation = any
        .causationid()
        .map(|c| c.into_owned())
        .unwrap_or_default();
    let event = Inbox::try_from(any).map_err(|e| e.to_string())?;
    let typed = !matches!(event, Inbox::Other(_));
    Ok((
        format!("{subject} {} (caused by {causation})", describe(&event)),
        typed,
    ))
}

/// Reads events from `input`, one a line, and writes one line about each to `out`.
///
/// ```
/// use orders_example::{consumer, producer};
///
/// let input = producer::produce().unwrap().join("\n");
/// let mut out = Vec::new();
/// let summary = consumer::consume(input.as_bytes(), &mut out).unwrap();
/// assert_eq!((summary.typed, summary.other, summary.rejected), (9, 1, 0));
/// ```
///
/// # Errors
/// Only reading `input` or writing `out`; bad events are counted and reported, not errors.
pub fn consume(input: impl BufRead, mut out: impl Write) -> io::Result<Summary> {
    let validator = Validator::new(Profile::IntgStd015);
    let mut summary = Summary::default();
    for (number, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match handle(&validator, line.as_bytes()) {
            Ok((text, true)) => {
                summary.typed += 1;
                writeln!(out, "ok {text}")?;
            }
            Ok((text, false)) => {
                summary.other += 1;
                writeln!(out, "other {text}")?;
            }
            Err(reason) => {
                summary.rejected += 1;
                writeln!(out, "rejected line {}: {reason}", number + 1)?;
            }
        }
    }
    Ok(summary)
}
