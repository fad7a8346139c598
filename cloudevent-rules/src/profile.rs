use std::fmt;
use std::str::FromStr;

use crate::{Violation, rule};

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
    literal_headers: bool,
}

impl Policy {
    /// The policy of a profile with no organisation prefix.
    pub const fn new(profile: Profile) -> Self {
        Policy {
            profile,
            type_prefix: None,
            require_traceability: false,
            literal_headers: false,
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

    /// The rule a protocol binding's refusal breaks under this profile: INTG-STD-015's
    /// R-7, R-8, R-10 or R-11, or the CloudEvents rules they sharpen
    /// ([`rule::CE_BINDING_MODES`](crate::rule::CE_BINDING_MODES),
    /// [`rule::CE_SIZE_LIMITS`](crate::rule::CE_SIZE_LIMITS)) under the other profiles.
    ///
    /// ```
    /// use cloudevent_rules::{BindingConcern, Policy, Profile};
    /// let strict = Policy::new(Profile::IntgStd015);
    /// assert_eq!(strict.binding_rule(BindingConcern::BinaryMode).as_str(), "INTG-STD-015 R-8");
    /// let cloudevents = Policy::new(Profile::CloudEvents);
    /// assert_eq!(cloudevents.binding_rule(BindingConcern::BinaryMode).as_str(), "CE binding 1.3");
    /// assert_eq!(cloudevents.binding_rule(BindingConcern::EventSize).as_str(), "CE 1.0.2 size limits");
    /// ```
    pub fn binding_rule(&self, concern: BindingConcern) -> crate::RuleId {
        use crate::rule;
        match (self.profile, concern) {
            (Profile::IntgStd015, BindingConcern::StructuredMode) => rule::INTG_R7,
            (Profile::IntgStd015, BindingConcern::BinaryMode) => rule::INTG_R8,
            (Profile::IntgStd015, BindingConcern::BatchSize) => rule::INTG_R10,
            (Profile::IntgStd015, BindingConcern::EventSize) => rule::INTG_R11,
            (
                Profile::CloudEvents | Profile::NlGov,
                BindingConcern::StructuredMode | BindingConcern::BinaryMode,
            ) => rule::CE_BINDING_MODES,
            (
                Profile::CloudEvents | Profile::NlGov,
                BindingConcern::EventSize | BindingConcern::BatchSize,
            ) => rule::CE_SIZE_LIMITS,
        }
    }
}

/// What a protocol binding refuses a message for, so that [`Policy::binding_rule`] names
/// the rule of the profile in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BindingConcern {
    /// The content type names a mode or event format the reader does not take (structured
    /// mode, INTG-STD-015 R-7).
    StructuredMode,
    /// The transport's attribute headers (binary mode, INTG-STD-015 R-8).
    BinaryMode,
    /// One event over the size limit (INTG-STD-015 R-11).
    EventSize,
    /// A batch over the size limit (INTG-STD-015 R-10).
    BatchSize,
}

impl Policy {
    /// Asks a receiver to read the header forms of senders that do not percent-encode
    /// (the [`LiteralHeader`] forms) literally, each with a warning naming the peer's known
    /// behaviour, instead of refusing the message. Off by default; never granted under
    /// [`Profile::IntgStd015`], the gateway profile, which forwards only what the binding
    /// allows ([`Policy::literal_header`] says why). `const`, so a type's or a server's
    /// policy can be a constant.
    ///
    /// ```
    /// use cloudevent_rules::{LiteralHeader, Policy, Profile};
    /// const LENIENT: Policy = Policy::new(Profile::CloudEvents).with_literal_headers(true);
    /// assert!(LENIENT.literal_header(LiteralHeader::BarePercent, "subject", "100%").is_ok());
    /// ```
    #[must_use]
    pub const fn with_literal_headers(mut self, tolerate: bool) -> Self {
        self.literal_headers = tolerate;
        self
    }

    /// The one verdict on a header in a form a sender that does not percent-encode writes:
    /// `Ok(warning)` to read it literally and report the warning (CE HTTP binding 3.1.3.2,
    /// or CE 1.0.2 type system for a Boolean, naming the peer); `Err(None)` when the policy
    /// did not ask for the tolerance (the binding's own refusal stands); `Err(Some(why))`
    /// when it asked but the profile never grants it (INTG-STD-015), for the refusal's hint.
    ///
    /// # Errors
    /// The tolerance is off, or the profile is INTG-STD-015.
    ///
    /// ```
    /// use cloudevent_rules::{LiteralHeader, Policy, Profile, Severity};
    ///
    /// let lenient = Policy::new(Profile::CloudEvents).with_literal_headers(true);
    /// let warning = lenient.literal_header(LiteralHeader::NonAscii, "subject", "ünï").unwrap();
    /// assert_eq!(warning.severity, Severity::Warning);
    /// assert_eq!(warning.rule.as_str(), "CE HTTP binding 3.1.3.2");
    /// assert!(warning.problem.contains("JavaScript SDK"));
    ///
    /// assert_eq!(Policy::new(Profile::CloudEvents).literal_header(LiteralHeader::NonAscii, "subject", "ünï"), Err(None));
    /// let gateway = Policy::new(Profile::IntgStd015).with_literal_headers(true);
    /// let why = gateway.literal_header(LiteralHeader::NonAscii, "subject", "ünï").unwrap_err().unwrap();
    /// assert!(why.contains("INTG-STD-015"));
    /// ```
    pub fn literal_header(
        &self,
        form: LiteralHeader,
        attribute: &str,
        value: &str,
    ) -> Result<Violation, Option<&'static str>> {
        if !self.literal_headers {
            return Err(None);
        }
        if self.profile == Profile::IntgStd015 {
            return Err(Some(
                "the tolerance of literal headers (`with_literal_headers`) is never granted under \
                 the INTG-STD-015 gateway profile, which forwards only what the binding allows",
            ));
        }
        Ok(form.warning(attribute, value))
    }
}

/// A header value as a sender that does not percent-encode writes it, which the binding
/// refuses (CE HTTP binding 3.1.3.2) and [`Policy::with_literal_headers`] can read literally.
/// Every other malformed value (bytes that are not UTF-8, a control character) is refused
/// whatever the policy.
///
/// ```
/// use cloudevent_rules::LiteralHeader;
/// assert_eq!(LiteralHeader::of(b"100%"), Some(LiteralHeader::BarePercent));
/// assert_eq!(LiteralHeader::of(b"\"a\" b"), Some(LiteralHeader::Quote));
/// assert_eq!(LiteralHeader::of("caf\u{e9}".as_bytes()), Some(LiteralHeader::NonAscii));
/// assert_eq!(LiteralHeader::of(b"caf\xe9"), None); // Latin-1, not UTF-8
/// assert_eq!(LiteralHeader::of(b"a%20b"), None); // encoded: nothing to tolerate
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LiteralHeader {
    /// A `%` not followed by two hex digits (`100%`): sdk-go v2.15 (issue #1331), the
    /// JavaScript SDK and cloudevents-sdk (Rust) send `%` unencoded.
    BarePercent,
    /// A leading `"` that does not open a whole quoted string (`"a" b`, `"open`): the
    /// JavaScript SDK sends `"` unencoded.
    Quote,
    /// Raw non-ASCII UTF-8 bytes (`ünï`): the JavaScript SDK and legacy Python SDKs send
    /// the text unencoded.
    NonAscii,
    /// `True` or `False` for a Boolean (CE 1.0.2 type system: `true`, `false`): the Python
    /// SDK writes Python's spelling in binary mode.
    PythonBoolean,
}

impl LiteralHeader {
    /// The form of a header value's raw bytes the strict reading refused, if it is one a
    /// literal reading can take: valid UTF-8, no control character, and a raw non-ASCII
    /// character, a leading `"` or a `%` without two hex digits. A value that is
    /// percent-encoded correctly, or none of these, is `None`.
    pub fn of(raw: &[u8]) -> Option<LiteralHeader> {
        let text = std::str::from_utf8(raw).ok()?;
        if text.chars().any(|c| c.is_control() && c != '\t') {
            return None;
        }
        let bytes = text.as_bytes();
        if !text.is_ascii() {
            Some(LiteralHeader::NonAscii)
        } else if text.trim_start_matches([' ', '\t']).starts_with('"') {
            Some(LiteralHeader::Quote)
        } else if (0..bytes.len()).any(|at| {
            bytes[at] == b'%'
                && !bytes
                    .get(at + 1..at + 3)
                    .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
        }) {
            Some(LiteralHeader::BarePercent)
        } else {
            None
        }
    }

    /// The peer behaviour the form is known from.
    pub const fn peer(self) -> &'static str {
        match self {
            LiteralHeader::BarePercent => {
                "a `%` not followed by two hex digits, as sdk-go v2.15 (issue #1331), the JavaScript SDK and cloudevents-sdk send `%` unencoded"
            }
            LiteralHeader::Quote => {
                "a leading `\"` that opens no whole quoted string, as the JavaScript SDK sends `\"` unencoded"
            }
            LiteralHeader::NonAscii => {
                "raw non-ASCII UTF-8, as the JavaScript SDK and legacy Python SDKs send text unencoded"
            }
            LiteralHeader::PythonBoolean => {
                "Python's `True`/`False` for a Boolean, as the Python SDK writes it in binary mode"
            }
        }
    }

    /// The warning a literal reading reports.
    fn warning(self, attribute: &str, value: &str) -> Violation {
        let (rule, hint) = match self {
            LiteralHeader::PythonBoolean => (
                rule::CE_TYPE_SYSTEM,
                "send `true` or `false` (lowercase; CE 1.0.2 type system)",
            ),
            _ => (
                rule::CE_HTTP_HEADER_VALUE,
                "percent-encode `%`, `\"`, space and every non-ASCII byte as `%XY` (CE HTTP binding 3.1.3.2)",
            ),
        };
        Violation::warning(
            rule,
            attribute.to_owned(),
            value,
            format!(
                "read literally (the policy tolerates literal headers): {}",
                self.peer()
            ),
        )
        .with_hint(hint)
    }
}

impl From<Profile> for Policy {
    fn from(profile: Profile) -> Self {
        Policy::new(profile)
    }
}
