//! What to publish instead of a breaking change: the next major version of the type, named
//! in the type's own versioning scheme.

use crate::protobuf::ProtoFile;
use crate::registry::SchemaFile;
use cloudevent_rules::split_type_version;

/// The next major version of an event type, in its own scheme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NextVersion {
    /// The new event type: `.vN` types get `.v(N+1)`, `v1.2.3` types `v2.0.0`, bare semver
    /// types (`0.3.0`, `0.6.0-draft`) the next major `1.0.0`, an unversioned type `.v2`.
    pub event_type: String,
    /// The new `dataschema`: the old one with its version token moved on, when it has one.
    pub dataschema: Option<String>,
    /// For a `<type>/v<major>.json` registry, the new file.
    pub file: Option<String>,
}

/// The next major version of `event_type` (with its `dataschema`).
pub(crate) fn next_version(event_type: &str, dataschema: &str) -> NextVersion {
    let (base, version) = split_type_version(event_type);
    let (old_token, new_token, new_type) = match version.as_deref() {
        None => ("v1".to_owned(), "v2".to_owned(), format!("{event_type}.v2")),
        Some(version) => {
            let prefix = if version.starts_with(['v', 'V']) {
                &version[..1]
            } else {
                ""
            };
            let numbers = &version[prefix.len()..];
            let major: u64 = numbers
                .split(['.', '-'])
                .next()
                .and_then(|m| m.parse().ok())
                .unwrap_or(0);
            let next = if numbers.contains('.') {
                format!("{prefix}{}.0.0", major + 1)
            } else {
                format!("{prefix}{}", major + 1)
            };
            (version.to_owned(), next.clone(), format!("{base}.{next}"))
        }
    };
    let dataschema = if dataschema.is_empty() {
        None
    } else {
        let old_bare = old_token.trim_start_matches(['v', 'V']);
        let new_bare = new_token.trim_start_matches(['v', 'V']);
        [
            (old_token.as_str(), new_token.as_str()),
            (old_bare, new_bare),
        ]
        .into_iter()
        .find_map(|(old, new)| {
            let at = token_at(dataschema, old)?;
            Some(format!(
                "{}{new}{}",
                &dataschema[..at],
                &dataschema[at + old.len()..]
            ))
        })
    };
    NextVersion {
        event_type: new_type,
        dataschema,
        file: None,
    }
}

/// The last place `token` stands as a whole path or name part of `uri` (not inside `v10`).
fn token_at(uri: &str, token: &str) -> Option<usize> {
    let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_ascii_alphanumeric());
    uri.rmatch_indices(token).map(|(at, _)| at).find(|&at| {
        boundary(uri[..at].chars().next_back()) && boundary(uri[at + token.len()..].chars().next())
    })
}

/// The next version of a registry file, with the new file name for the `<type>/v<major>.json`
/// layout.
pub(crate) fn next_of(file: &SchemaFile) -> NextVersion {
    let mut next = next_version(&file.meta.event_type, &file.meta.dataschema);
    if file.type_pointer.is_none() && file.relative.ends_with(&format!("/v{}.json", file.major)) {
        next.file = Some(format!("{}/v{}.json", file.type_dir, file.major + 1));
    }
    next
}

/// The fix text of a breaking change.
pub(crate) fn fix_text(file: &SchemaFile) -> String {
    if file.meta.event_type.is_empty() {
        return format!(
            "revert it here and publish it as a new major version of the event type (a new type name and a new `$id`); keep `{}` as it was",
            file.relative
        );
    }
    let next = next_of(file);
    let id = match &next.dataschema {
        Some(id) => format!("`$id` `{id}`"),
        None => "a new `$id` (dataschema URI) naming the new version".to_owned(),
    };
    match &next.file {
        Some(new_file) => format!(
            "revert it here and publish it as a new major version: add `{new_file}` with type `{}` and {id}; keep `v{}.json` as it was",
            next.event_type, file.major
        ),
        None => format!(
            "revert it here and publish it as a new major version: a schema with type `{}` and {id}; keep `{}` (type `{}`) as it was",
            next.event_type, file.relative, file.meta.event_type
        ),
    }
}

/// The fix text of a breaking change to a `.proto` entry: the next major version as
/// `<type>/v<major + 1>.proto`.
pub(crate) fn proto_fix_text(file: &ProtoFile) -> String {
    let next = next_version(&file.meta.event_type, &file.meta.dataschema);
    let dataschema = match &next.dataschema {
        Some(uri) => format!("`dataschema` `{uri}`"),
        None => "a new `dataschema` URI naming the new version".to_owned(),
    };
    format!(
        "revert it here and publish it as a new major version: add `{}/v{}.proto` with type `{}` and {dataschema}; keep `v{}.proto` as it was",
        file.type_dir,
        file.major + 1,
        next.event_type,
        file.major
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_version_example() {
        let next = next_version(
            "dev.cdevents.artifact.packaged.0.3.0",
            "https://cdevents.dev/0.3.0/schema/artifact-packaged-event",
        );
        assert_eq!(next.event_type, "dev.cdevents.artifact.packaged.1.0.0");
        assert_eq!(
            next.dataschema.as_deref(),
            Some("https://cdevents.dev/1.0.0/schema/artifact-packaged-event")
        );
        assert_eq!(
            next_version("com.example.order.created.v2", "").event_type,
            "com.example.order.created.v3"
        );
        assert_eq!(
            next_version("nl.vng.zaak-aangemaakt.v1.2.3", "").event_type,
            "nl.vng.zaak-aangemaakt.v2.0.0"
        );
        assert_eq!(
            next_version("com.example.order.created", "").event_type,
            "com.example.order.created.v2"
        );
    }
}
