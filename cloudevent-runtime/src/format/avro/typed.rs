//! `Event<T>` into the Avro format without an `AnyEvent` in between: the event's own JSON
//! writer (its checks included) writes the JSON document, and its members are transcoded as
//! they stand. The document is our own writer's, so it is not checked again; the result
//! reads as the event [`super::encode`] writes for `event.to_any()`, extensions in
//! `Event<T>`'s order (a test holds the two together).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use cloudevent_rules::{Violation, rule};
use serde_json::value::RawValue;

use super::data::Members;
use super::wire;

fn problem(text: String) -> Box<Violation> {
    Box::new(Violation::error(rule::CE_AVRO_2_4, "event", "", text))
}

/// A member's value as written: a string, a boolean, an integer, or other JSON.
enum Member {
    Str(String),
    Bool(bool),
    Int(i32),
    Null,
}

fn member(name: &str, raw: &RawValue) -> Result<Member, Box<Violation>> {
    let text = raw.get();
    let parsed = match text.as_bytes().first() {
        Some(b'"') => serde_json::from_str(text).map(Member::Str),
        Some(b't' | b'f') => serde_json::from_str(text).map(Member::Bool),
        Some(b'n') => Ok(Member::Null),
        _ => serde_json::from_str(text).map(Member::Int),
    };
    parsed.map_err(|e| problem(format!("attribute `{name}`: {e}")))
}

/// Transcodes one event object in the JSON format, as `Event<T>` writes it, to the record.
pub(super) fn transcode(json: &[u8]) -> Result<Vec<u8>, Box<Violation>> {
    let members: Members<'_> = serde_json::from_slice(json).map_err(|e| problem(e.to_string()))?;
    let mut attributes = Vec::with_capacity(members.0.len());
    let mut data = None;
    let mut content_type = None;
    for (name, raw) in &members.0 {
        match name.as_str() {
            "data" | "data_base64" => data = Some((name.as_str(), *raw)),
            _ => match member(name, raw)? {
                Member::Null => {}
                value => {
                    if let ("datacontenttype", Member::Str(text)) = (name.as_str(), &value) {
                        content_type = Some(text.clone());
                    }
                    attributes.push((name.as_str(), value));
                }
            },
        }
    }
    let mut out = Vec::with_capacity(json.len());
    wire::write_len(&mut out, attributes.len());
    for (name, value) in &attributes {
        wire::write_bytes(&mut out, name.as_bytes());
        match value {
            Member::Str(text) => {
                wire::write_long(&mut out, 3);
                wire::write_bytes(&mut out, text.as_bytes());
            }
            Member::Bool(b) => {
                wire::write_long(&mut out, 1);
                out.push(u8::from(*b));
            }
            Member::Int(i) => {
                wire::write_long(&mut out, 2);
                wire::write_long(&mut out, i64::from(*i));
            }
            Member::Null => {}
        }
    }
    wire::write_long(&mut out, 0);
    let json_type = content_type
        .as_deref()
        .is_none_or(cloudevent_rules::is_json_media_type);
    match data {
        None => wire::write_long(&mut out, 1),
        Some(("data_base64", raw)) => {
            let text: String =
                serde_json::from_str(raw.get()).map_err(|e| problem(e.to_string()))?;
            let bytes = BASE64.decode(text).map_err(|e| problem(e.to_string()))?;
            wire::write_long(&mut out, 0);
            wire::write_bytes(&mut out, &bytes);
        }
        // JSON without a datacontenttype: the schema's representation (never from `Event<T>`,
        // which always names its datacontenttype; kept for completeness).
        Some((_, raw)) if content_type.is_none() => super::data::write_json(&mut out, raw.get())?,
        Some((_, raw)) if json_type => {
            wire::write_long(&mut out, 6);
            wire::write_bytes(&mut out, raw.get().as_bytes());
        }
        // Text under a non-JSON type: the JSON string's text (anything else as written, as
        // `AnyEvent` keeps it).
        Some((_, raw)) => {
            wire::write_long(&mut out, 6);
            match serde_json::from_str::<String>(raw.get()) {
                Ok(text) => wire::write_bytes(&mut out, text.as_bytes()),
                Err(_) => wire::write_bytes(&mut out, raw.get().as_bytes()),
            }
        }
    }
    Ok(out)
}
