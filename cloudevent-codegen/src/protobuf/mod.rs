//! Registry entries whose data is a Protobuf message: `schemas/<type>/v<major>.proto`.
//!
//! The file is proto3; its CloudEvents metadata is a JSON object in a block comment that
//! starts with `x-cloudevent:`, the members of a JSON schema's `x-cloudevent` plus `message`
//! (the event's message, by its name in the file) and `dataschema` (the URI the `.proto` file
//! is published at, as a JSON schema's `$id`):
//!
//! ```proto
//! /* x-cloudevent: {
//!   "type": "com.example.order.packed",
//!   "message": "OrderPacked",
//!   "dataschema": "https://schemas.example.com/events/com.example.order.packed/v1.proto",
//!   "source": "https://warehouse.example.com/packing",
//!   "subject": "order_id"
//! } */
//! syntax = "proto3";
//! package example.warehouse.v1;
//! message OrderPacked { string order_id = 1; uint32 parcels = 2; }
//! ```
//!
//! Events of the type carry the message in the Protobuf format's `proto_data`, a
//! `google.protobuf.Any` whose type URL is `type.googleapis.com/<package>.<message>`;
//! `datacontenttype` is `application/protobuf`.

use std::path::{Path, PathBuf};

use cloudevent_rules::{AttributeKind, Declaration, Policy, Severity, rule};
use serde_json::Value;

use crate::error::{CodegenError, Finding};
use crate::meta::{ContentMode, EventMeta, METADATA_KEY};

pub(crate) mod catalog;
mod parse;

pub(crate) use parse::{Label, ProtoEnum, ProtoField, ProtoMessage, ProtoSchema, Reserved, parse};

/// The `datacontenttype` of an event whose data is a Protobuf message.
pub(crate) const PROTOBUF_CONTENT_TYPE: &str = "application/protobuf";

/// The media type of one event in the CloudEvents Protobuf format (CE Protobuf format 4).
pub(crate) const PROTOBUF_EVENT_MEDIA_TYPE: &str = "application/cloudevents+protobuf";

/// The host part of the type URLs codegen writes (`type.googleapis.com/<full name>`), the one
/// `google.protobuf.Any` documents.
pub(crate) const TYPE_URL_PREFIX: &str = "type.googleapis.com/";

/// One `schemas/<type>/v<major>.proto` file of a registry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ProtoFile {
    /// The file as found.
    pub path: PathBuf,
    /// `<type>/v<major>.proto`, with `/` separators.
    pub relative: String,
    /// The directory name: the event type without its version suffix.
    pub type_dir: String,
    /// The `<major>` of the file name.
    pub major: u64,
    /// The metadata (`dataschema` from the comment's `dataschema` member).
    pub meta: EventMeta,
    /// The event's message, as named in the file (`OrderPacked`).
    pub message: String,
    /// The file's messages and enums.
    pub schema: ProtoSchema,
    /// The `x-cloudevent` object as written (its `compatibility` chooses the type's mode).
    pub metadata: serde_json::Map<String, Value>,
}

impl ProtoFile {
    /// Parses a `.proto` text found at `relative` (`<type>/v<major>.proto`) below `root`.
    ///
    /// # Errors
    /// [`CodegenError::Findings`]: a misnamed file, missing or mistyped metadata, a message
    /// that is not in the file, or a construct outside what codegen reads (rule
    /// `CE-Protobuf 1.0`, with the line).
    pub fn parse(root: &Path, relative: &str, text: &str) -> Result<ProtoFile, CodegenError> {
        let path = root.join(relative);
        let found = |pointer: &str, message: String| {
            CodegenError::Findings(vec![Finding::new(&path, pointer, message)])
        };
        let (type_dir, major) = split_relative(relative).ok_or_else(|| {
            CodegenError::Findings(vec![
                Finding::new(
                    &path,
                    "",
                    "a Protobuf registry file must be named `<type>/v<major>.proto`",
                )
                .with_fix("move it to e.g. `com.example.order.packed/v1.proto`"),
            ])
        })?;
        let schema = parse(text).map_err(|e| {
            CodegenError::Findings(vec![
                Finding::new(&path, format!("line {}", e.line), e.message)
                    .with_rule(rule::CE_PROTOBUF),
            ])
        })?;
        let object = metadata_object(text).map_err(|message| {
            CodegenError::Findings(vec![
                Finding::new(&path, "/x-cloudevent", message).with_fix(
                    "open the file with `/* x-cloudevent: {\"type\": \"com.example.<entity>.<action>\", \"message\": \"<Message>\", \"dataschema\": \"https://.../v1.proto\"} */`",
                ),
            ])
        })?;
        let mut wrapper = serde_json::Map::new();
        if let Some(dataschema) = object.get("dataschema") {
            wrapper.insert("$id".into(), dataschema.clone());
        }
        wrapper.insert(METADATA_KEY.into(), Value::Object(object.clone()));
        let mut meta = EventMeta::from_schema(&Value::Object(wrapper)).map_err(|findings| {
            CodegenError::Findings(
                findings
                    .into_iter()
                    .map(|f| Finding {
                        file: path.clone(),
                        pointer: f.pointer.replace("/$id", "/x-cloudevent/dataschema"),
                        ..f
                    })
                    .collect(),
            )
        })?;
        match meta.datacontenttype.as_deref() {
            None => meta.datacontenttype = Some(PROTOBUF_CONTENT_TYPE.into()),
            Some(PROTOBUF_CONTENT_TYPE) => {}
            Some(other) => {
                return Err(found(
                    "/x-cloudevent/datacontenttype",
                    format!(
                        "datacontenttype `{other}`: the data of a `.proto` entry is `{PROTOBUF_CONTENT_TYPE}`"
                    ),
                ));
            }
        }
        if meta.contentmode == ContentMode::Binary {
            return Err(found(
                "/x-cloudevent/contentmode",
                "a `.proto` entry travels in the Protobuf event format's structured mode (`proto_data`); `binary` is not supported".into(),
            ));
        }
        let message = match object.get("message") {
            Some(Value::String(name)) => name.clone(),
            _ => {
                return Err(found(
                    "/x-cloudevent/message",
                    "`x-cloudevent.message` is missing or not a string: name the event's message"
                        .into(),
                ));
            }
        };
        let local = message
            .strip_prefix(&format!("{}.", schema.package))
            .filter(|_| !schema.package.is_empty())
            .unwrap_or(&message)
            .to_owned();
        if !schema.messages.iter().any(|m| m.name == local) {
            let names: Vec<&str> = schema.messages.iter().map(|m| m.name.as_str()).collect();
            return Err(found(
                "/x-cloudevent/message",
                format!(
                    "message `{message}` is not a top-level message of the file (found: {})",
                    names.join(", ")
                ),
            ));
        }
        Ok(ProtoFile {
            path,
            relative: relative.to_owned(),
            type_dir,
            major,
            meta,
            message: local,
            schema,
            metadata: object,
        })
    }

    /// The message's full name, `<package>.<message>`.
    pub fn full_name(&self) -> String {
        if self.schema.package.is_empty() {
            self.message.clone()
        } else {
            format!("{}.{}", self.schema.package, self.message)
        }
    }

    /// The type URL its events carry in `proto_data`.
    pub fn type_url(&self) -> String {
        format!("{TYPE_URL_PREFIX}{}", self.full_name())
    }

    /// The event's message.
    pub fn event_message(&self) -> &ProtoMessage {
        self.schema
            .messages
            .iter()
            .find(|m| m.name == self.message)
            .expect("checked by ProtoFile::parse")
    }
}

/// Checks a `.proto` entry before code is generated: its declared names through the one
/// envelope check (`Policy::check_declaration`, as for JSON schemas), the `.vN` suffix
/// against the file's major, and the fields `subject` and the extensions name (each must be a
/// singular `string` field of the event's message). Errors only; see
/// [`check_proto_warnings`] for broken SHOULDs.
pub(crate) fn check_proto(file: &ProtoFile, policy: &Policy) -> Vec<Finding> {
    let mut findings: Vec<Finding> = declaration_findings(file, policy)
        .into_iter()
        .filter(|(severity, _)| *severity == Severity::Error)
        .map(|(_, f)| f)
        .collect();
    let version = cloudevent_rules::type_version(&file.meta.event_type).unwrap_or(1);
    if version != file.major || file.meta.base_type() != file.type_dir {
        findings.push(
            Finding::new(
                &file.path,
                "/x-cloudevent/type",
                format!(
                    "type `{}` does not belong in `{}`",
                    file.meta.event_type, file.relative
                ),
            )
            .with_rule(rule::INTG_R4)
            .with_fix(
                "a `<type>/v<N>.proto` file holds the type `<type>` (N = 1) or `<type>.v<N>`",
            ),
        );
    }
    let message = file.event_message();
    let mut named: Vec<(&str, String)> = file
        .meta
        .extensions
        .iter()
        .map(|(name, field)| (field.as_str(), format!("/x-cloudevent/extensions/{name}")))
        .collect();
    if let Some(subject) = &file.meta.subject {
        named.push((subject.as_str(), "/x-cloudevent/subject".into()));
    }
    for (field, pointer) in named {
        let ok = message
            .fields
            .iter()
            .any(|f| f.name == field && f.type_name == "string" && f.label == Label::Singular);
        if !ok {
            findings.push(Finding::new(
                &file.path,
                pointer,
                format!(
                    "`{field}` is not a singular `string` field of message `{}`",
                    message.name
                ),
            ));
        }
    }
    findings
}

/// The broken SHOULDs of a `.proto` entry's names.
pub(crate) fn check_proto_warnings(file: &ProtoFile, policy: &Policy) -> Vec<Finding> {
    declaration_findings(file, policy)
        .into_iter()
        .filter(|(severity, _)| *severity == Severity::Warning)
        .map(|(_, f)| f)
        .collect()
}

fn declaration_findings(file: &ProtoFile, policy: &Policy) -> Vec<(Severity, Finding)> {
    let meta = &file.meta;
    let extensions: Vec<(&str, Option<AttributeKind>)> = meta
        .extensions
        .keys()
        .map(|name| (name.as_str(), Some(AttributeKind::String)))
        .collect();
    let declaration = Declaration {
        ty: Some(&meta.event_type),
        source: meta.source.as_deref(),
        datacontenttype: meta.datacontenttype.as_deref(),
        dataschema: Some(meta.dataschema.as_str()),
        subject: None,
        extensions: &extensions,
    };
    policy
        .check_declaration(&declaration)
        .into_iter()
        .map(|v| {
            let pointer = format!("/x-cloudevent/{}", v.attribute);
            let mut message = format!("{} `{}`", v.attribute, v.value);
            if let Some(part) = &v.part {
                message.push(' ');
                message.push_str(part);
            }
            message.push_str(": ");
            message.push_str(&v.problem);
            let mut finding = Finding::new(&file.path, pointer, message).with_rule(v.rule);
            if let Some(hint) = &v.hint {
                finding = finding.with_fix(hint.clone());
            }
            (v.severity, finding)
        })
        .collect()
}

/// The JSON object after `x-cloudevent:` in a block comment.
fn metadata_object(text: &str) -> Result<serde_json::Map<String, Value>, String> {
    let marker = "x-cloudevent:";
    let start = text.find(marker).ok_or(
        "no `/* x-cloudevent: {...} */` comment: the file's CloudEvents metadata is missing",
    )?;
    if !text[..start].trim_end().ends_with("/*") {
        return Err("`x-cloudevent:` must open a `/* ... */` comment".into());
    }
    let rest = &text[start + marker.len()..];
    let end = rest
        .find("*/")
        .ok_or("the `x-cloudevent` comment is never closed")?;
    match serde_json::from_str(rest[..end].trim()) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err("`x-cloudevent:` must be followed by a JSON object".into()),
        Err(e) => Err(format!(
            "the `x-cloudevent` comment is not a JSON object: {e}"
        )),
    }
}

/// `("com.example.order.packed", 1)` for `com.example.order.packed/v1.proto`.
fn split_relative(relative: &str) -> Option<(String, u64)> {
    let (dir, file) = relative.split_once('/')?;
    let digits = file.strip_prefix('v')?.strip_suffix(".proto")?;
    if dir.is_empty() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((dir.to_owned(), digits.parse().ok()?))
}

#[cfg(test)]
mod tests;
