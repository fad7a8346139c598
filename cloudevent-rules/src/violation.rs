use std::borrow::Cow;
use std::fmt;

/// A stable rule id such as `INTG-STD-015 R-4` or `CE 1.0.2 naming`.
///
/// The ids are listed in [`crate::rule`]; errors and documents quote them verbatim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleId(pub &'static str);

impl RuleId {
    /// The id as quoted in messages, e.g. `"INTG-STD-015 R-4"`.
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// How bad a violation is: a MUST broken is an error, a SHOULD broken a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// A SHOULD of the source document is not met; the event is still accepted.
    Warning,
    /// A MUST of the source document is broken; the event is rejected.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One broken rule, with everything a person needs to fix it.
///
/// `Display` renders it as
/// ``type `com.Example.order` segment `Example`: must be lowercase (INTG-STD-015 R-4); e.g. `com.example.order.created` ``.
///
/// ```
/// use cloudevent_rules::{rule, Severity, Violation};
///
/// let v = Violation::error(rule::INTG_R4, "type", "com.Example.order", "must be lowercase")
///     .with_part("segment `Example`")
///     .with_hint("e.g. `com.example.order.created`");
/// assert_eq!(
///     v.to_string(),
///     "type `com.Example.order` segment `Example`: must be lowercase (INTG-STD-015 R-4); e.g. `com.example.order.created`"
/// );
/// assert_eq!(v.severity, Severity::Error);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule that is broken.
    pub rule: RuleId,
    /// Error for a MUST, warning for a SHOULD.
    pub severity: Severity,
    /// The attribute checked: `type`, `source`, an extension's name, ...
    pub attribute: Cow<'static, str>,
    /// The whole value that was checked, as found.
    pub value: String,
    /// The offending part, when narrower than the value: "segment `Example`",
    /// "character `_` at byte 3", "host `localhost`".
    pub part: Option<String>,
    /// What is wrong, in a short sentence without the rule id.
    pub problem: Cow<'static, str>,
    /// How to fix it, usually a corrected example.
    pub hint: Option<String>,
}

impl Violation {
    /// A broken MUST.
    pub fn error(
        rule: RuleId,
        attribute: impl Into<Cow<'static, str>>,
        value: impl Into<String>,
        problem: impl Into<Cow<'static, str>>,
    ) -> Self {
        Violation {
            rule,
            severity: Severity::Error,
            attribute: attribute.into(),
            value: value.into(),
            part: None,
            problem: problem.into(),
            hint: None,
        }
    }

    /// A broken SHOULD.
    pub fn warning(
        rule: RuleId,
        attribute: impl Into<Cow<'static, str>>,
        value: impl Into<String>,
        problem: impl Into<Cow<'static, str>>,
    ) -> Self {
        Violation {
            severity: Severity::Warning,
            ..Violation::error(rule, attribute, value, problem)
        }
    }

    /// Names the offending part of the value.
    #[must_use]
    pub fn with_part(mut self, part: impl Into<String>) -> Self {
        self.part = Some(part.into());
        self
    }

    /// Adds how to fix it.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Renames the attribute, e.g. when an extension rule is reported for a named extension.
    #[must_use]
    pub fn for_attribute(mut self, attribute: impl Into<Cow<'static, str>>) -> Self {
        self.attribute = attribute.into();
        self
    }

    /// Whether this violation rejects the event.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} `{}`", self.attribute, self.value)?;
        if let Some(part) = &self.part {
            write!(f, " {part}")?;
        }
        write!(f, ": {} ({})", self.problem, self.rule)?;
        if let Some(hint) = &self.hint {
            write!(f, "; {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Violation {}
