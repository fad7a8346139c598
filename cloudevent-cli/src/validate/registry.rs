//! `cloudevent validate --registry DIR [--type-pointer PTR]`, `--xregistry FILE`,
//! `--openapi FILE`, `--asyncapi FILE`, `--registry-snapshot FILE`: the profile's checks, then the schema registry's (the
//! runtime's `RegistryValidator`), for every input format the command reads.

use cloudevent_runtime::Validate;
use std::path::PathBuf;

use cloudevent_runtime::registry::{Registry, RegistryValidator, UnknownType};
use cloudevent_runtime::rules::LiteralHeader;
use cloudevent_runtime::{
    AnyEvent, BatchReport, Document, EventFormat, Profile, Timestamp, ValidationReport, Validator,
};

use super::Args;
use crate::snapshot::{Source, load_entries};

/// The schema registry options of `cloudevent validate`.
#[derive(Debug, clap::Args)]
pub(super) struct RegistryArgs {
    /// Also check each event against this schema registry (`<type>/v<major>.json` files,
    /// or with `--type-pointer` any folder of schemas): an unknown `type`, `data` that fails
    /// the type's schema (every failing member's JSON pointer and keyword), an extension of
    /// another type than declared, a type past its deprecation sunset.
    #[arg(long, value_name = "DIR", help_heading = "Schema registry")]
    registry: Option<PathBuf>,
    /// With `--registry`: how the folder's schemas name their event types, as for
    /// `cloudevent codegen`.
    #[command(flatten, next_help_heading = "Schema registry")]
    layout: crate::layout::LayoutArgs,
    /// Check against the CloudEvents messages of an xRegistry document instead.
    #[arg(long, value_name = "FILE", help_heading = "Schema registry")]
    xregistry: Option<PathBuf>,
    /// Check against the schemas of an OpenAPI 2 or 3 document instead, typed as
    /// `cloudevent codegen --openapi` types them (`--type-template`, or `x-cloudevent.type`).
    #[arg(long, value_name = "FILE", help_heading = "Schema registry")]
    openapi: Option<PathBuf>,
    /// Check against the messages of an AsyncAPI 2 or 3 document instead, typed as
    /// `cloudevent codegen --asyncapi` types them (the CloudEvents header, or
    /// `--type-template`).
    #[arg(long, value_name = "FILE", help_heading = "Schema registry")]
    asyncapi: Option<PathBuf>,
    /// Check against a registry snapshot (`cloudevent-registry/1` JSON, as
    /// `cloudevent_codegen::registry_snapshot` writes it) instead.
    #[arg(long, value_name = "FILE", help_heading = "Schema registry")]
    registry_snapshot: Option<PathBuf>,
    /// What an event whose type the registry does not hold gets.
    #[arg(long, value_enum, default_value_t = UnknownTypeArg::Error, help_heading = "Schema registry")]
    unknown_type: UnknownTypeArg,
    /// Compare deprecation sunsets with this RFC 3339 instant instead of the clock.
    #[arg(long, value_name = "TIMESTAMP", value_parser = parse_instant, help_heading = "Schema registry")]
    at: Option<Timestamp>,
}

/// `--unknown-type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum UnknownTypeArg {
    /// The event is refused (exit 1).
    Error,
    /// The event passes with a warning.
    Warning,
}

/// The validator the command runs: the profile's alone, or with a registry.
pub(super) enum Checker {
    Profile(Validator),
    Registry(RegistryValidator),
}

impl Checker {
    /// The checker the arguments ask for; the error says why a registry could not be read
    /// (exit 2: the input to the check is unreadable, not the events).
    pub(super) fn from_args(args: &Args) -> Result<Checker, String> {
        let policy = cloudevent_runtime::Policy::new(args.profile.into())
            .with_required_traceability(args.require_traceability)
            .with_literal_headers(args.tolerate_literal_headers);
        // The rules say where the tolerance is never granted, and why (one verdict).
        if let Err(Some(why)) = policy.literal_header(LiteralHeader::NonAscii, "", "") {
            return Err(format!(
                "`--tolerate-literal-headers` with `--profile {}`: {why}; choose `--profile cloudevents` or `--profile nl-gov`",
                policy.profile()
            ));
        }
        let validator = Validator::new(policy);
        let args = &args.registry;
        let sources = [
            args.registry.as_deref().map(Source::Folder),
            args.xregistry.as_deref().map(Source::XRegistry),
            args.openapi.as_deref().map(Source::OpenApi),
            args.asyncapi.as_deref().map(Source::AsyncApi),
        ];
        let mut sources = sources.into_iter().flatten();
        let entries = match (sources.next(), sources.next(), &args.registry_snapshot) {
            (None, _, None) => {
                if args.layout.is_given() {
                    return Err("`--type-pointer`, `--type-template`, `--types-pointer` and `--dataschema-base` need `--registry DIR`, `--openapi FILE` or `--asyncapi FILE`".to_owned());
                }
                return Ok(Checker::Profile(validator));
            }
            (Some(Source::XRegistry(_)), None, None) if args.layout.is_given() => {
                return Err("`--xregistry` types its messages by their envelope metadata; `--type-pointer`, `--type-template`, `--types-pointer` and `--dataschema-base` do not apply to it".to_owned());
            }
            (Some(source), None, None) => load_entries(source, &args.layout.mapping())?,
            (None, _, Some(file)) => {
                let bytes = std::fs::read(file)
                    .map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
                let registry = Registry::from_snapshot(&bytes)
                    .map_err(|e| format!("{}: {e}", file.display()))?;
                return Ok(Checker::with_registry(validator, registry, args));
            }
            _ => {
                return Err(
                    "give one of `--registry`, `--xregistry`, `--openapi`, `--asyncapi` and `--registry-snapshot`".to_owned(),
                );
            }
        };
        let registry = Registry::new(entries).map_err(|e| e.to_string())?;
        Ok(Checker::with_registry(validator, registry, args))
    }

    fn with_registry(validator: Validator, registry: Registry, args: &RegistryArgs) -> Checker {
        let mut checker =
            RegistryValidator::new(validator, registry).unknown_type(match args.unknown_type {
                UnknownTypeArg::Error => UnknownType::Error,
                UnknownTypeArg::Warning => UnknownType::Warning,
            });
        if let Some(at) = &args.at {
            checker = checker.at(at);
        }
        Checker::Registry(checker)
    }

    /// The policy every input is read and checked under.
    pub(super) fn policy(&self) -> &cloudevent_runtime::Policy {
        match self {
            Checker::Profile(v) => v.policy(),
            Checker::Registry(v) => v.validator().policy(),
        }
    }

    pub(super) fn profile(&self) -> Profile {
        match self {
            Checker::Profile(v) => v.policy().profile(),
            Checker::Registry(v) => v.validator().policy().profile(),
        }
    }

    pub(super) fn validate(&self, event: &AnyEvent) -> ValidationReport {
        match self {
            Checker::Profile(v) => v.validate(event),
            Checker::Registry(v) => v.validate(event),
        }
    }

    pub(super) fn validate_bytes<F: EventFormat>(&self, bytes: &[u8]) -> ValidationReport {
        match self {
            Checker::Profile(v) => v.validate_bytes::<F>(bytes),
            Checker::Registry(v) => v.validate_bytes::<F>(bytes),
        }
    }

    /// `each` sees every event's report, those the batch's report only counts included.
    pub(super) fn validate_batch_bytes_each<F: EventFormat>(
        &self,
        bytes: &[u8],
        each: &mut dyn FnMut(&ValidationReport),
    ) -> BatchReport {
        match self {
            Checker::Profile(v) => v.validate_batch_bytes_each::<F>(bytes, each),
            Checker::Registry(v) => v.validate_batch_bytes_each::<F>(bytes, each),
        }
    }

    /// `each` sees the event's report, or every event's of a batch.
    pub(super) fn validate_document_each(
        &self,
        bytes: &[u8],
        each: &mut dyn FnMut(&ValidationReport),
    ) -> Document {
        match self {
            Checker::Profile(v) => v.validate_document_each(bytes, each),
            Checker::Registry(v) => v.validate_document_each(bytes, each),
        }
    }
}

/// `--at`: an RFC 3339 instant.
pub(super) fn parse_instant(text: &str) -> Result<Timestamp, String> {
    Timestamp::try_from(text).map_err(|e| e.to_string())
}
