use std::fmt;
use std::str::FromStr;

/// The document an event is checked against.
///
/// ```
/// use cloudevent_rules::Profile;
///
/// assert_eq!("nl-gov".parse::<Profile>(), Ok(Profile::NlGov));
/// assert_eq!(Profile::default(), Profile::IntgStd015);
/// assert_eq!(Profile::IntgStd015.to_string(), "intg-std-015");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Profile {
    /// CloudEvents 1.0.2 core and JSON format: the spec's MUSTs only.
    CloudEvents,
    /// INTG-STD-015 "Event Envelope", the strictest profile and the default.
    #[default]
    IntgStd015,
    /// The NL GOV profile for CloudEvents.
    NlGov,
}

impl Profile {
    /// Every profile, in documentation order.
    pub const ALL: [Profile; 3] = [Profile::CloudEvents, Profile::IntgStd015, Profile::NlGov];

    /// The name used in `Cargo.toml`, on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Profile::CloudEvents => "cloudevents",
            Profile::IntgStd015 => "intg-std-015",
            Profile::NlGov => "nl-gov",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A profile name that is not one of `cloudevents`, `intg-std-015`, `nl-gov`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProfile(pub String);

impl UnknownProfile {
    /// The profile the name was most likely meant to be: the same letters and digits,
    /// ignoring case and punctuation (`nlgov`, `INTG-STD-015`, `cloud_events`).
    ///
    /// ```
    /// use cloudevent_rules::{Profile, UnknownProfile};
    /// assert_eq!(UnknownProfile("nlgov".into()).did_you_mean(), Some(Profile::NlGov));
    /// assert_eq!(UnknownProfile("INTG-STD-015".into()).did_you_mean(), Some(Profile::IntgStd015));
    /// assert_eq!(UnknownProfile("strict".into()).did_you_mean(), None);
    /// ```
    pub fn did_you_mean(&self) -> Option<Profile> {
        let folded = |s: &str| -> String {
            s.chars()
                .filter(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_lowercase())
                .collect()
        };
        let wanted = folded(&self.0);
        Profile::ALL
            .into_iter()
            .find(|p| folded(p.name()) == wanted)
    }
}

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown profile `{}`: ", self.0)?;
        if let Some(profile) = self.did_you_mean() {
            write!(f, "did you mean `{profile}`? ")?;
        }
        f.write_str("expected one of `cloudevents`, `intg-std-015`, `nl-gov`")
    }
}

impl std::error::Error for UnknownProfile {}

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownProfile(s.to_owned()))
    }
}

/// A profile plus the organisation's settings, as read from
/// `[package.metadata.cloudevent]` or given to the validator.
///
/// ```
/// use cloudevent_rules::{Policy, Profile};
///
/// let policy = Policy::new(Profile::IntgStd015).with_type_prefix("com.example");
/// assert_eq!(policy.type_prefix(), Some("com.example"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Policy {
    profile: Profile,
    type_prefix: Option<String>,
    require_traceability: bool,
}

impl Policy {
    /// The policy of a profile with no organisation prefix.
    pub const fn new(profile: Profile) -> Self {
        Policy {
            profile,
            type_prefix: None,
            require_traceability: false,
        }
    }

    /// Requires every `type` to start with this reverse-DNS prefix (INTG-STD-015 R-4:
    /// "rooted at the organization domain").
    #[must_use]
    pub fn with_type_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.type_prefix = Some(prefix.into());
        self
    }

    /// Requires `correlationid` and `causationid` on every event (ADR-0003 decision 4).
    ///
    /// ```
    /// use cloudevent_rules::{Policy, Profile};
    /// assert!(Policy::new(Profile::IntgStd015).with_required_traceability(true).requires_traceability());
    /// ```
    #[must_use]
    pub fn with_required_traceability(mut self, required: bool) -> Self {
        self.require_traceability = required;
        self
    }

    /// Whether every event must carry ADR-0003's `correlationid` and `causationid`.
    pub fn requires_traceability(&self) -> bool {
        self.require_traceability
    }

    /// The profile.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The required type prefix, if any.
    pub fn type_prefix(&self) -> Option<&str> {
        self.type_prefix.as_deref()
    }

    /// Whether a validator reports a field of a binary event format that its schema does
    /// not define and the reader skipped (a Protobuf producer on a newer `cloudevents.proto`):
    /// every reader skips it, as the format's own rules do; the strict INTG-STD-015 gateway
    /// profile lists it as a warning (`CE-Protobuf 1.0`), so a gateway sees what it did not
    /// read, while the CloudEvents and NL GOV profiles pass it silently.
    ///
    /// ```
    /// use cloudevent_rules::{Policy, Profile};
    /// assert!(Policy::new(Profile::IntgStd015).reports_skipped_fields());
    /// assert!(!Policy::new(Profile::CloudEvents).reports_skipped_fields());
    /// ```
    pub fn reports_skipped_fields(&self) -> bool {
        self.profile == Profile::IntgStd015
    }
}

impl From<Profile> for Policy {
    fn from(profile: Profile) -> Self {
        Policy::new(profile)
    }
}
