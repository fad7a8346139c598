//! Consumer and producer patterns built on events: claim-check (INTG-STD-015 R-11), dedupe
//! on `id` (ADR-0003) and receipt logging (INTG-STD-015 R-15).
//!
//! Each is public at the crate root (`cloudevent_runtime::claimcheck`, `::dedupe`,
//! `::receipt`).

pub mod claimcheck;
pub mod dedupe;
pub mod receipt;
