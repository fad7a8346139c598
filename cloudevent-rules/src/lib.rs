//! The CloudEvents naming and format rules, each with a stable rule id.
//!
//! This crate is the single source of truth for every rule in the table of the repository's `docs/rules.md` that
//! concerns a name or a format. The derive calls these functions at compile time, the runtime
//! at run time and codegen on schema files, so a rule is written exactly once.
//!
//! Every check returns the [`Violation`]s it found (empty when the value is fine). A violation
//! names the rule id, whether it is an error (a MUST) or a warning (a SHOULD), the attribute,
//! the offending part, and how to fix it.
//!
//! ```
//! use cloudevent_rules::{check_type, Policy, Profile, Severity};
//!
//! let policy = Policy::new(Profile::IntgStd015);
//! assert!(check_type("com.example.order.created", &policy).is_empty());
//!
//! let found = check_type("com.Example.order", &policy);
//! assert_eq!(found[0].severity, Severity::Error);
//! assert_eq!(found[0].rule.as_str(), "INTG-STD-015 R-4");
//! ```
//!
//! The crate uses `std` only.
//!
//! # Changing a rule on purpose
//!
//! The verdict of every check on about 2,800 inputs is recorded in `tests/golden/*.jsonl`, and
//! `cargo test` fails when one changes. After changing a rule on purpose, re-record with
//! `GOLDEN=overwrite cargo test -p cloudevent-rules --test golden` and review the diff of
//! `cloudevent-rules/tests/golden/` as part of the change.

mod violation;
pub use violation::{RuleId, Severity, Violation};

mod profile;
pub use profile::{BindingConcern, LiteralHeader, Policy, Profile, UnknownProfile};

/// Stable rule ids quoted in every violation, error and document.
pub mod rule;

mod uri;

mod envelope;
pub use envelope::{
    AttributeName, ContextAttributes, Envelope, ExtensionAttributes, Mode, Prechecked, has_error,
    shorten,
};

mod declaration;
pub use declaration::Declaration;

mod type_name;
pub use type_name::{check_type, check_type_prefix, split_type_version, type_version};

mod declared;
pub use declared::check_declared_extension;

mod extension;
pub use extension::{
    CORE_ATTRIBUTES, DOCUMENTED_EXTENSIONS, DocumentedExtension, JSON_FORMAT_MEMBERS,
    MAX_EXTENSION_NAME_LEN, RESERVED_NAMES, check_extension_name, core_attribute_kind,
    documented_extension,
};

mod source;
pub use source::check_source;

mod dataschema;
pub use dataschema::{check_dataschema, check_type_schema_agreement, schema_major};

mod time;
pub use time::{check_time, unix_seconds};

mod data_members;
pub use data_members::MAX_REPEATED_MEMBERS;

mod scan;
pub use scan::json_plain_run;

mod template;
pub use template::{TemplatePart, expand_template_variable, parse_source_template, sample_source};

mod media_type;
pub use media_type::{check_media_type, is_json_media_type};

mod value;
pub use value::{
    AttributeKind, ExtensionValue, check_id, check_integer_value, check_specversion,
    check_string_value, check_subject, check_uri, check_uri_reference,
};

mod sequence;
pub use sequence::{SEQUENCE_TYPE_INTEGER, SequenceStep, SequenceValue, check_sequence};

mod trace;
pub use trace::{MAX_TRACESTATE_LEN, MAX_TRACESTATE_MEMBERS, check_traceparent, check_tracestate};

mod verifiability;
pub use verifiability::{
    DIGEST_ATTRIBUTES, DSSE_PAYLOAD_TYPE, DSSEMATERIAL, SIGNEDEXTATTRS, SignedExtensionProblem,
    canonical_value, check_signed_extensions, signed_extension_problems, utc_seconds,
};

pub mod limits;

pub mod cesql;
