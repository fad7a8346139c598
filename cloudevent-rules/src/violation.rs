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

impl Violation {
    /// Adds `fix` as the hint (``e.g. `fix` ``) only when `check` finds no error in it: a
    /// suggestion is itself checked before it is suggested, so a user who follows it is not
    /// refused by the next rule (`userEmail` is not told to write `useremail`, which
    /// INTG-STD-015 R-14 refuses as personal data). Every rule that proposes a corrected
    /// value goes through here: the derive, the validator and codegen print the hints the
    /// rules wrote.
    ///
    /// ```
    /// use cloudevent_rules::{check_extension_name, rule, Profile, Violation};
    ///
    /// let strict = |name: &str| check_extension_name(name, Profile::IntgStd015);
    /// let v = Violation::error(rule::CE_NAMING, "extension", "Region", "must be lowercase")
    ///     .with_fix("region", strict);
    /// assert_eq!(v.hint.as_deref(), Some("e.g. `region`"));
    /// let v = Violation::error(rule::CE_NAMING, "extension", "userEmail", "must be lowercase")
    ///     .with_fix("useremail", strict);
    /// assert_eq!(v.hint, None);
    /// ```
    #[must_use]
    pub fn with_fix(mut self, fix: &str, check: impl FnOnce(&str) -> Vec<Violation>) -> Self {
        if fix != self.value && !check(fix).iter().any(Violation::is_error) {
            self.hint = Some(format!("e.g. `{fix}`"));
        }
        self
    }

    /// The finding as one line of a report: severity and rule id first, then where, what and
    /// the fix, the rule id once: ``error INTG-STD-015 R-4: type `com.Example.order` segment
    /// `Example`: must be lowercase; e.g. `com.example.order.created` ``. Every report's text
    /// form (the library's, the axum rejection's, `cloudevent validate`) writes this line.
    ///
    /// ```
    /// use cloudevent_rules::{rule, Violation};
    ///
    /// let v = Violation::error(rule::INTG_R11, "message", "", "is 300420 bytes, over the 262144-byte limit")
    ///     .with_hint("move the data out of the event and send a `dataref` (INTG-STD-015 R-12)");
    /// assert_eq!(
    ///     v.report_line().to_string(),
    ///     "error INTG-STD-015 R-11: message: is 300420 bytes, over the 262144-byte limit; \
    ///      move the data out of the event and send a `dataref` (INTG-STD-015 R-12)"
    /// );
    /// ```
    pub fn report_line(&self) -> impl fmt::Display + '_ {
        ReportLine(self)
    }

    /// `attribute`, the value in backticks when there is one, and the part.
    fn write_where(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.attribute)?;
        if !self.value.is_empty() {
            write!(f, " `{}`", self.value)?;
        }
        if let Some(part) = &self.part {
            write!(f, " {part}")?;
        }
        Ok(())
    }
}

struct ReportLine<'a>(&'a Violation);

impl fmt::Display for ReportLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        write!(f, "{} {}: ", v.severity, v.rule)?;
        v.write_where(f)?;
        write!(f, ": {}", v.problem)?;
        if let Some(hint) = &v.hint {
            write!(f, "; {hint}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Violation {
    /// ``where `value` part: problem (rule); hint``; the backticks only around a value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_where(f)?;
        write!(f, ": {} ({})", self.problem, self.rule)?;
        if let Some(hint) = &self.hint {
            write!(f, "; {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Violation {}
