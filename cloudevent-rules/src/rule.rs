//! The rule ids. Each constant is quoted verbatim in violations, compile errors and docs.
//!
//! `INTG-STD-015 R-n` are the standard's rules, `INTG-STD-015 gateway n` its gateway
//! enforcement list, `CE 1.0.2 ...` the core spec, `CE-JSON n.n` the JSON event format,
//! `CE-Avro n.n` the Avro event format, `CE-Protobuf 1.0` the Protobuf event format, `NL-GOV ...`
//! the Dutch government profile, `ADR-0003` the traceability decision and `W3C trace-context`
//! the trace headers.

use crate::RuleId;

/// INTG-STD-015 R-1: `specversion` is exactly `"1.0"`.
pub const INTG_R1: RuleId = RuleId("INTG-STD-015 R-1");
/// INTG-STD-015 R-2: required context attributes and their constraints.
pub const INTG_R2: RuleId = RuleId("INTG-STD-015 R-2");
/// INTG-STD-015 R-4: event type naming.
pub const INTG_R4: RuleId = RuleId("INTG-STD-015 R-4");
/// INTG-STD-015 R-5: source formatting.
pub const INTG_R5: RuleId = RuleId("INTG-STD-015 R-5");
/// INTG-STD-015 R-6: extension attribute names.
pub const INTG_R6: RuleId = RuleId("INTG-STD-015 R-6");
/// INTG-STD-015 R-7: structured content mode (`data` vs `data_base64`).
pub const INTG_R7: RuleId = RuleId("INTG-STD-015 R-7");
/// INTG-STD-015 R-8: binary content mode.
pub const INTG_R8: RuleId = RuleId("INTG-STD-015 R-8");
/// INTG-STD-015 R-10: batch delivery.
pub const INTG_R10: RuleId = RuleId("INTG-STD-015 R-10");
/// INTG-STD-015 R-11: event size constraints and claim-check.
pub const INTG_R11: RuleId = RuleId("INTG-STD-015 R-11");
/// INTG-STD-015 R-12: HTTP protocol binding.
pub const INTG_R12: RuleId = RuleId("INTG-STD-015 R-12");
/// INTG-STD-015 R-13: Kafka protocol binding.
pub const INTG_R13: RuleId = RuleId("INTG-STD-015 R-13");
/// INTG-STD-015 R-14: metadata hygiene (no infrastructure details, no credentials or PII).
pub const INTG_R14: RuleId = RuleId("INTG-STD-015 R-14");
/// INTG-STD-015 R-15: auditability (consumer logging).
pub const INTG_R15: RuleId = RuleId("INTG-STD-015 R-15");
/// INTG-STD-015 gateway enforcement rule 4: `time` in RFC 3339 UTC.
pub const INTG_GATEWAY_4: RuleId = RuleId("INTG-STD-015 gateway 4");
/// INTG-STD-015 gateway enforcement rule 5: `^[a-z][a-z0-9]{0,19}$` extension names.
pub const INTG_GATEWAY_5: RuleId = RuleId("INTG-STD-015 gateway 5");

/// CloudEvents 1.0.2 attribute naming: `[a-z0-9]` only.
pub const CE_NAMING: RuleId = RuleId("CE 1.0.2 naming");
/// CloudEvents 1.0.2 type system: Boolean, Integer (i32), String, Binary, URI,
/// URI-reference, Timestamp.
pub const CE_TYPE_SYSTEM: RuleId = RuleId("CE 1.0.2 type system");
/// CloudEvents 1.0.2 REQUIRED attributes (`id`, `source`, `specversion`, `type`).
pub const CE_REQUIRED: RuleId = RuleId("CE 1.0.2 required");
/// CloudEvents 1.0.2 `type`: non-empty, SHOULD be prefixed with a reverse-DNS name.
pub const CE_TYPE: RuleId = RuleId("CE 1.0.2 type");
/// CloudEvents 1.0.2 `source`: non-empty URI-reference.
pub const CE_SOURCE: RuleId = RuleId("CE 1.0.2 source");
/// CloudEvents 1.0.2 `dataschema`: non-empty absolute URI.
pub const CE_DATASCHEMA: RuleId = RuleId("CE 1.0.2 dataschema");
/// CloudEvents 1.0.2 `datacontenttype`: RFC 2046 media type.
pub const CE_DATACONTENTTYPE: RuleId = RuleId("CE 1.0.2 datacontenttype");
/// CloudEvents 1.0.2 `time`: RFC 3339.
pub const CE_TIME: RuleId = RuleId("CE 1.0.2 time");
/// CloudEvents 1.0.2 `subject`: non-empty when present.
pub const CE_SUBJECT: RuleId = RuleId("CE 1.0.2 subject");
/// CloudEvents 1.0.2 `specversion`.
pub const CE_SPECVERSION: RuleId = RuleId("CE 1.0.2 specversion");

/// CloudEvents JSON format 3.1: `data` and `data_base64` handling.
pub const CE_JSON_3_1: RuleId = RuleId("CE-JSON 3.1");
/// CloudEvents JSON format 4: batch format.
pub const CE_JSON_4: RuleId = RuleId("CE-JSON 4");

/// CloudEvents Avro format 2.4: a message's binary encoding is the one the format's record
/// schema describes (an `attribute` map of the value union, a `data` union).
pub const CE_AVRO_2_4: RuleId = RuleId("CE-Avro 2.4");
/// CloudEvents Avro format 3: `data` is `bytes` when binary, else the JSON value's
/// representation in the schema's union.
pub const CE_AVRO_3: RuleId = RuleId("CE-Avro 3");
/// CloudEvents Protobuf format 1.0: the wire form of the `CloudEvent` and `CloudEventBatch`
/// messages (field numbers, wire types, the type system's mapping to Protobuf types).
pub const CE_PROTOBUF: RuleId = RuleId("CE-Protobuf 1.0");

/// The CloudEvents protocol bindings' section 1.3 "Content Modes" (HTTP, Kafka, AMQP, MQTT,
/// NATS alike): structured mode carries an event format's media type, binary mode the
/// attributes as the transport's headers. What INTG-STD-015 are under that
/// profile, for a binding's refusal under the CloudEvents and NL GOV profiles.
pub const CE_BINDING_MODES: RuleId = RuleId("CE binding 1.3");

/// CloudEvents 1.0.2 "Size Limits": a consumer may refuse an event over the size it
/// accepts (it should accept 64 KiB); what INTG-STD-015 are under that
/// profile, for a message over the limit under the CloudEvents and NL GOV profiles.
pub const CE_SIZE_LIMITS: RuleId = RuleId("CE 1.0.2 size limits");

/// CloudEvents HTTP Protocol Binding 1.0.2 3.1.3.2 "HTTP Header Values": space, `"`, `%`
/// and every non-ASCII byte of an attribute's value are percent-encoded (the NATS binding
/// refers to it for its headers).
pub const CE_HTTP_HEADER_VALUE: RuleId = RuleId("CE HTTP binding 3.1.3.2");

/// NL GOV profile, `type`: reverse domain name notation, semver version suffix.
pub const NL_GOV_TYPE: RuleId = RuleId("NL-GOV type");
/// NL GOV profile, `source`: SHOULD be a URN with the `nld` namespace.
pub const NL_GOV_SOURCE: RuleId = RuleId("NL-GOV source");

/// The CloudEvents Sequence extension (`sequence`, `sequencetype`), carried by the NL GOV
/// profile: `sequence` a non-empty orderable string; under `sequencetype: Integer` a
/// string-encoded i32 from 1, +1 each event, wrapping from 2147483647 to -2147483648.
pub const CE_SEQUENCE: RuleId = RuleId("CE sequence");

/// ADR-0003: `correlationid` and `causationid` on every event, new `id` per emission.
pub const ADR_0003: RuleId = RuleId("ADR-0003");
/// W3C Trace Context: `traceparent` / `tracestate` formats.
pub const W3C_TRACE_CONTEXT: RuleId = RuleId("W3C trace-context");
/// RFC 6570 URI Template, level 1 (`{var}`): the form of a `source` filled from the payload.
pub const RFC_6570: RuleId = RuleId("RFC 6570 level 1");
/// RFC 8259 4: the names within a JSON object SHOULD be unique; a repeated name in `data` is
/// read differently by different parsers (an error under the strict profile).
pub const RFC_8259_4: RuleId = RuleId("RFC 8259 4");

/// Registry, event type: the event's `type` is one the schema registry holds (a gateway that
/// owns the registry refuses, or warns about, types it does not know).
pub const REGISTRY_TYPE: RuleId = RuleId("registry type");
/// Registry, data: `data` conforms to the schema the registry holds for the event's type
/// (CE 1.0.2 `dataschema`: "the schema that data adheres to").
pub const REGISTRY_DATA: RuleId = RuleId("registry data");
/// The CloudEvents Deprecation extension (`deprecated`, `deprecationfrom`,
/// `deprecationsunset`, `deprecationmigration`): producers SHOULD stop emitting a type after
/// its `deprecationsunset`.
pub const CE_DEPRECATION: RuleId = RuleId("CE deprecation");
/// The CloudEvents verifiability extension (`dssematerial`, DSSE v1.0.2): what a signer
/// refuses to sign and what a verifier MUST discard.
pub const CE_VERIFIABILITY: RuleId = RuleId("CE verifiability");
