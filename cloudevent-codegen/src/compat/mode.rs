//! The compatibility modes, and where a registry or a type chooses one.

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use crate::diff::Breaks;
use crate::error::Finding;
use crate::registry::{METADATA_KEY, Registry, SchemaFile};

/// Which readers a new version of a schema must keep working for. The names and meanings are
/// those of the schema registries (Confluent's, xRegistry's `compatibility` attribute).
///
/// ```
/// use cloudevent_codegen::{Breaks, Compat};
///
/// assert_eq!(Compat::default(), Compat::Forward);
/// assert_eq!("full-transitive".parse::<Compat>(), Ok(Compat::FullTransitive));
/// assert_eq!("BACKWARD_TRANSITIVE".parse::<Compat>(), Ok(Compat::BackwardTransitive));
/// assert!(Compat::Forward.is_broken_by(Breaks::FORWARD));
/// assert!(!Compat::Forward.is_broken_by(Breaks::BACKWARD));
/// assert!(Compat::Full.is_broken_by(Breaks::BACKWARD));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Compat {
    /// No check (xRegistry's `none`).
    None,
    /// A consumer generated from the new schema reads events of the previous version.
    Backward,
    /// A consumer generated from the previous schema reads the new producer's events: the
    /// default, because consumers are upgraded after producers.
    #[default]
    Forward,
    /// Both [`Compat::Backward`] and [`Compat::Forward`].
    Full,
    /// [`Compat::Backward`] against every earlier version in the baseline.
    BackwardTransitive,
    /// [`Compat::Forward`] against every earlier version in the baseline.
    ForwardTransitive,
    /// [`Compat::Full`] against every earlier version in the baseline.
    FullTransitive,
}

impl Compat {
    /// Every mode, in the order of their names in messages.
    pub const ALL: [Compat; 7] = [
        Compat::None,
        Compat::Backward,
        Compat::Forward,
        Compat::Full,
        Compat::BackwardTransitive,
        Compat::ForwardTransitive,
        Compat::FullTransitive,
    ];

    /// The name used on the command line and in `x-cloudevent.compatibility`.
    pub const fn name(self) -> &'static str {
        match self {
            Compat::None => "none",
            Compat::Backward => "backward",
            Compat::Forward => "forward",
            Compat::Full => "full",
            Compat::BackwardTransitive => "backward-transitive",
            Compat::ForwardTransitive => "forward-transitive",
            Compat::FullTransitive => "full-transitive",
        }
    }

    /// Whether a change breaking `breaks` is refused under this mode.
    pub const fn is_broken_by(self, breaks: Breaks) -> bool {
        match self {
            Compat::None => false,
            Compat::Backward | Compat::BackwardTransitive => breaks.backward,
            Compat::Forward | Compat::ForwardTransitive => breaks.forward,
            Compat::Full | Compat::FullTransitive => breaks.backward || breaks.forward,
        }
    }

    /// Whether the new schema is compared with every earlier version, not only the last.
    pub const fn is_transitive(self) -> bool {
        matches!(
            self,
            Compat::BackwardTransitive | Compat::ForwardTransitive | Compat::FullTransitive
        )
    }

    /// The earlier versions a new one is compared with under this mode, oldest first: every
    /// one when the mode is transitive, else the last (none of none).
    ///
    /// ```
    /// use cloudevent_codegen::Compat;
    /// let versions = [1, 2, 3];
    /// assert_eq!(Compat::Forward.baseline(&versions), &[3]);
    /// assert_eq!(Compat::FullTransitive.baseline(&versions), &[1, 2, 3]);
    /// assert!(Compat::Backward.baseline::<u8>(&[]).is_empty());
    /// ```
    pub fn baseline<T>(self, versions: &[T]) -> &[T] {
        if self.is_transitive() {
            versions
        } else {
            &versions[versions.len().saturating_sub(1)..]
        }
    }

    /// Who is broken when a change breaks this mode, for messages.
    pub(crate) const fn who(self) -> &'static str {
        match self {
            Compat::None => "nobody",
            Compat::Backward | Compat::BackwardTransitive => {
                "consumers generated from the new schema would refuse events of the earlier version"
            }
            Compat::Forward | Compat::ForwardTransitive => {
                "consumers generated from the earlier schema would refuse the new producer's events"
            }
            Compat::Full | Compat::FullTransitive => {
                "consumers of one version would refuse events of the other"
            }
        }
    }
}

impl fmt::Display for Compat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Compat {
    type Err = String;

    fn from_str(s: &str) -> Result<Compat, String> {
        let wanted = s.trim().to_ascii_lowercase().replace('_', "-");
        Compat::ALL
            .into_iter()
            .find(|c| c.name() == wanted)
            .ok_or_else(|| {
                format!(
                    "`{s}` is no compatibility mode; expected one of {}",
                    Compat::ALL.map(Compat::name).join(", ")
                )
            })
    }
}

/// The mode of one event type: `x-cloudevent.compatibility` in its schema, else the
/// `compatibility` attribute of its schema (or schema group) in an xRegistry document, else
/// `default` (the registry's).
///
/// # Errors
/// A finding at the attribute when its value names no mode.
pub(crate) fn compat_of(
    file: &SchemaFile,
    registry: &Registry,
    default: Compat,
) -> Result<Compat, Finding> {
    let declared = file
        .schema
        .get(METADATA_KEY)
        .and_then(|m| m.get("compatibility"))
        .map(|v| (format!("/{METADATA_KEY}/compatibility"), v))
        .or_else(|| xregistry_attribute(file, registry));
    let Some((pointer, value)) = declared else {
        return Ok(default);
    };
    let path = file.path.to_string_lossy();
    declared_mode(path.split('#').next().unwrap_or_default(), pointer, value)
}

/// The mode a `compatibility` member names.
///
/// # Errors
/// A finding at `pointer` of `path` when it names none.
pub(crate) fn declared_mode(path: &str, pointer: String, value: &Value) -> Result<Compat, Finding> {
    value
        .as_str()
        .ok_or_else(|| format!("`compatibility` must be a string, found {value}"))
        .and_then(str::parse)
        .map_err(|message| {
            Finding::new(path, pointer, message).with_fix(
                "write one of backward, forward, full, their `-transitive` forms, or none",
            )
        })
}

/// The `compatibility` of the xRegistry schema resource (or its group) a message's schema was
/// taken from: `path` is `<document>#/schemagroups/<g>/schemas/<s>[/versions/<v>]/schema`.
fn xregistry_attribute<'a>(
    file: &SchemaFile,
    registry: &'a Registry,
) -> Option<(String, &'a Value)> {
    let document = registry.documents.get("xregistry.json")?;
    let path = file.path.to_string_lossy();
    let (_, pointer) = path.split_once('#')?;
    let segments: Vec<&str> = pointer.split('/').collect();
    // ["", "schemagroups", g, "schemas", s, ...]
    if segments.len() < 5 || segments[1] != "schemagroups" || segments[3] != "schemas" {
        return None;
    }
    let resource = segments[..5].join("/");
    let group = segments[..3].join("/");
    [resource, group].into_iter().find_map(|at| {
        let value = document.pointer(&at)?.get("compatibility")?;
        Some((format!("{at}/compatibility"), value))
    })
}
