//! The catalog's view of `.proto` entries: a Markdown section and AsyncAPI messages that name
//! the data format (a Protobuf message, its full name and the `proto_data` type URL).

use serde_json::{Value, json};

use super::ProtoFile;

/// The AsyncAPI `schemaFormat` of a Protobuf 3 schema (AsyncAPI 3.0, Multi Format Schema
/// Object).
pub(crate) const PROTOBUF_SCHEMA_FORMAT: &str = "application/vnd.google.protobuf;version=3";

/// The Markdown section listing the registry's `.proto` entries; empty when there is none.
pub(crate) fn markdown_section(files: &[ProtoFile]) -> String {
    if files.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n## Events with Protobuf data\n\n\
         Their data is a Protobuf message, not JSON: events travel in the CloudEvents Protobuf \
         format (`application/cloudevents+protobuf`, INTG-STD-015 R-16) with the message in \
         `proto_data`, a `google.protobuf.Any` of the type URL below; `datacontenttype` is \
         `application/protobuf`. The `.proto` file is the schema; `dataschema` is where it is \
         published.\n\n\
         | type | version | data format | message | type URL | dataschema | source | subject | content mode | schema |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    for file in files {
        let meta = &file.meta;
        let quoted = |s: Option<&str>| s.map_or_else(|| "–".to_owned(), |s| format!("`{s}`"));
        out.push_str(&format!(
            "| `{}` | {} | Protobuf message | `{}` | `{}` | `{}` | {} | {} | structured (`application/cloudevents+protobuf`, `proto_data`) | [{}]({}) |\n",
            meta.event_type,
            file.major,
            file.full_name(),
            file.type_url(),
            meta.dataschema,
            quoted(meta.source.as_deref()),
            quoted(meta.subject.as_deref()),
            file.relative,
            file.relative,
        ));
    }
    out
}

/// The AsyncAPI message of a `.proto` entry: the Protobuf event format as content type, the
/// `.proto` file as payload schema (`schemaFormat` Protobuf 3); the attributes are inside the
/// Protobuf event, so they are named in the description and in `x-cloudevent-*` members.
pub(crate) fn asyncapi_message(file: &ProtoFile) -> Value {
    let meta = &file.meta;
    let mut description = format!(
        "CloudEvents Protobuf format; `type` `{}`, `dataschema` `{}`, `datacontenttype` `{}`; data: the Protobuf message `{}` in `proto_data` (type URL `{}`).",
        meta.event_type,
        meta.dataschema,
        super::PROTOBUF_CONTENT_TYPE,
        file.full_name(),
        file.type_url()
    );
    if let Some(source) = &meta.source {
        description.push_str(&format!(" Source `{source}`."));
    }
    if let Some(subject) = &meta.subject {
        description.push_str(&format!(" Subject: the message's `{subject}`."));
    }
    json!({
        "name": meta.event_type,
        "title": format!("{} v{}", meta.event_type, file.major),
        "description": description,
        "contentType": super::PROTOBUF_EVENT_MEDIA_TYPE,
        "payload": {
            "schemaFormat": PROTOBUF_SCHEMA_FORMAT,
            "schema": {"$ref": format!("./{}", file.relative)},
        },
        "x-cloudevent-contentmode": "structured",
        "x-cloudevent-dataformat": "protobuf",
        "x-cloudevent-message": file.full_name(),
        "x-cloudevent-typeurl": file.type_url(),
    })
}
