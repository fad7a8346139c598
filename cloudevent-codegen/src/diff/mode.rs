//! The compatibility modes: which of the directions a change breaks ([`Breaks`]) each mode
//! refuses. It sits beside the rule table so that `diff` never reaches up into `compat`.

use std::fmt;
use std::str::FromStr;

use super::Breaks;

/// Which readers a new version of a schema must keep working for. The names and meanings are
/// those of the schema registries (Confluent's, xRegistry's `compatibility` attribute).
///
/// ```
/// use cloudevent_codegen::{Compat, diff_schemas};
/// use serde_json::json;
///
/// assert_eq!(Compat::default(), Compat::Forward);
/// assert_eq!("full-transitive".parse::<Compat>(), Ok(Compat::FullTransitive));
/// assert_eq!("BACKWARD_TRANSITIVE".parse::<Compat>(), Ok(Compat::BackwardTransitive));
/// // A new enum value breaks forward (old consumers), not backward.
/// let old = json!({"enum": ["x"]});
/// let new = json!({"enum": ["x", "y"]});
/// let change = &diff_schemas(&old, &new)[0];
/// assert!(change.breaks_mode(Compat::Forward));
/// assert!(!change.breaks_mode(Compat::Backward));
/// assert!(change.breaks_mode(Compat::Full));
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
