//! CloudEvents SQL v1 (CESQL): the one parser, type checker and evaluator. The derive's
//! `cesql!` runs [`Expression::parse`] and [`Expression::check`] at compile time; the
//! runtime's `filter` module runs the same functions on expressions from configuration, so
//! both give the same messages.
//!
//! An expression evaluates over the one attribute view, [`Envelope`]: context attributes by
//! name, extensions through [`ExtensionAttributes::extension`](crate::ExtensionAttributes),
//! each [`ExtensionValue`](crate::ExtensionValue) read as CESQL's type (CESQL v1 3.2).
//!
//! ```
//! use cloudevent_rules::{Envelope, ExtensionValue};
//! use cloudevent_rules::cesql::{ErrorKind, Expression, Value};
//!
//! let filter = Expression::parse("type LIKE 'com.example.order.%' AND partitionkey = 'k1'").unwrap();
//! let extensions = [("partitionkey", ExtensionValue::String("k1"))];
//! let event = Envelope {
//!     specversion: Some("1.0"),
//!     id: Some("1"),
//!     source: Some("/orders"),
//!     ty: Some("com.example.order.created"),
//!     extensions: &extensions,
//!     ..Envelope::default()
//! };
//! assert!(filter.matches(&event));
//!
//! let missing = Expression::parse("missing * 5").unwrap();
//! let result = missing.evaluate(&event);
//! assert_eq!(result.value, Value::Integer(0));
//! assert_eq!(result.errors[0].kind, ErrorKind::MissingAttribute);
//! ```

use std::fmt;

mod ast;
mod check;
mod eval;
mod flat;
mod function;
mod lexer;
mod like;
mod limits;
mod parser;
mod value;

pub use check::{Finding, Schema};
pub use function::{FunctionError, Functions, UserFunction};
pub use limits::Limits;
pub use value::{Type, Value};

use crate::Envelope;

/// A byte range of the expression's source.
///
/// ```
/// use cloudevent_rules::cesql::Expression;
/// let error = Expression::parse("a = = b").unwrap_err();
/// assert_eq!((error.span.start, error.span.end), (4, 5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    pub(crate) const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub(crate) fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A ParseError (CESQL v1 3.3): the expression does not follow the grammar. The span is the
/// offending token.
///
/// ```
/// use cloudevent_rules::cesql::Expression;
/// let error = Expression::parse("x LIKE 123").unwrap_err();
/// assert_eq!(error.to_string(),
///     "CESQL parse error at 7..10: expected a string literal as the LIKE pattern (CESQL v1 3.4.3: the pattern is a literal, never cast), found integer `123`");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The offending token.
    pub span: Span,
    /// What was expected and what was found.
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(span: Span, message: String) -> ParseError {
        ParseError { span, message }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CESQL parse error at {}: {}", self.span, self.message)
    }
}

impl std::error::Error for ParseError {}

/// The error types of CESQL v1 3.3, named as the TCK names them.
///
/// ```
/// use cloudevent_rules::cesql::ErrorKind;
/// assert_eq!(ErrorKind::MissingAttribute.as_str(), "missingAttribute");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The expression does not parse.
    Parse,
    /// A division by zero or an overflow.
    Math,
    /// An implicit or explicit cast failed.
    Cast,
    /// The event does not carry an attribute the expression reads.
    MissingAttribute,
    /// No function of that name takes that many arguments.
    MissingFunction,
    /// A function failed on its arguments.
    FunctionEvaluation,
    /// Any other error.
    Generic,
}

impl ErrorKind {
    /// The TCK's name: `parse`, `math`, `cast`, `missingAttribute`, `missingFunction`,
    /// `functionEvaluation`, `generic`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Parse => "parse",
            ErrorKind::Math => "math",
            ErrorKind::Cast => "cast",
            ErrorKind::MissingAttribute => "missingAttribute",
            ErrorKind::MissingFunction => "missingFunction",
            ErrorKind::FunctionEvaluation => "functionEvaluation",
            ErrorKind::Generic => "generic",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error raised while evaluating, with the sub-expression that raised it.
///
/// ```
/// use cloudevent_rules::{Envelope, cesql::{ErrorKind, Expression}};
/// let division = Expression::parse("5 / 0").unwrap();
/// let result = division.evaluate(&Envelope::default());
/// assert_eq!(result.errors[0].kind, ErrorKind::Math);
/// assert_eq!(result.errors[0].to_string(), "math error at 0..5: 5 / 0: division by zero; the value is 0");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalError {
    /// The error type.
    pub kind: ErrorKind,
    /// The sub-expression.
    pub span: Span,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} error at {}: {}", self.kind, self.span, self.message)
    }
}

/// The value of an expression and the errors raised while computing it (CESQL v1 3.3: every
/// operator is total, so there always is a value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluation<'a> {
    /// The value.
    pub value: Value<'a>,
    /// The errors, in the order they were raised; empty when none.
    pub errors: Vec<EvalError>,
}

/// A parsed CESQL v1 expression: built once, evaluated on many events.
///
/// ```
/// use cloudevent_rules::{Envelope, cesql::{Expression, Value}};
/// let e = Expression::parse("CONCAT_WS('-', 'a', LOWER('B'))").unwrap();
/// assert_eq!(e.evaluate(&Envelope::default()).value, Value::from("a-b"));
/// ```
#[derive(Debug, Clone)]
pub struct Expression {
    source: Box<str>,
    root: ast::Node,
    /// What [`Expression::matches`] reads when the expression is a filter of the usual
    /// shapes: compiled from `root`, which decides the rest (`flat.rs`).
    flat: Option<flat::Flat>,
    limits: Limits,
}

impl Expression {
    /// Parses an expression with the built-in functions, held to [`Limits::DEFAULT`].
    ///
    /// # Errors
    /// A [`ParseError`] at the offending token, or past a limit.
    ///
    /// ```
    /// use cloudevent_rules::cesql::Expression;
    /// assert!(Expression::parse("EXISTS subject AND subject LIKE 'order-%'").is_ok());
    /// assert!(Expression::parse("ABC(").is_err());
    /// ```
    pub fn parse(source: &str) -> Result<Expression, ParseError> {
        Expression::parse_with(source, Functions::builtin())
    }

    /// Parses an expression whose calls resolve against `functions` (built-ins and the
    /// user-defined functions registered there), held to [`Limits::DEFAULT`].
    ///
    /// # Errors
    /// A [`ParseError`] at the offending token, or past a limit.
    ///
    /// ```
    /// use cloudevent_rules::cesql::{Expression, Functions};
    /// assert!(Expression::parse_with("UPPER(type) = 'X'", &Functions::new()).is_ok());
    /// ```
    pub fn parse_with(source: &str, functions: &Functions) -> Result<Expression, ParseError> {
        Expression::parse_with_limits(source, functions, Limits::DEFAULT)
    }

    /// Parses an expression held to `limits`: its length and its `LIKE` patterns' when
    /// parsed, the strings it makes and what it scans when evaluated. For expressions from
    /// outside (a subscription's `sql` filter, a gateway's configuration) whose bounds are
    /// not the defaults.
    ///
    /// # Errors
    /// A [`ParseError`] at the offending token, or past a limit.
    ///
    /// ```
    /// use cloudevent_rules::{Envelope, cesql::{ErrorKind, Expression, Functions, Limits}};
    ///
    /// let limits = Limits { max_string_bytes: 8, ..Limits::DEFAULT };
    /// let e = Expression::parse_with_limits("CONCAT(subject, subject)", &Functions::new(), limits).unwrap();
    /// assert_eq!(e.limits(), limits);
    /// let event = Envelope { subject: Some("order-1"), ..Envelope::default() };
    /// let result = e.evaluate(&event);
    /// assert_eq!(result.errors[0].kind, ErrorKind::FunctionEvaluation);
    /// assert!(result.errors[0].message.contains("past the limit of 8 bytes"), "{}", result.errors[0]);
    /// ```
    pub fn parse_with_limits(
        source: &str,
        functions: &Functions,
        limits: Limits,
    ) -> Result<Expression, ParseError> {
        // Parsed before the source is copied: an expression refused costs no copy of it.
        let root = parser::parse(source, functions, &limits)?;
        Ok(Expression {
            source: source.into(),
            flat: flat::Flat::compile(&root),
            root,
            limits,
        })
    }

    /// The limits the expression was parsed with and is evaluated under.
    ///
    /// ```
    /// use cloudevent_rules::cesql::{Expression, Limits};
    /// assert_eq!(Expression::parse("true").unwrap().limits(), Limits::DEFAULT);
    /// ```
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The source text.
    ///
    /// ```
    /// use cloudevent_rules::cesql::Expression;
    /// assert_eq!(Expression::parse("true").unwrap().source(), "true");
    /// ```
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Evaluates the expression over an event, collecting every error (CESQL v1 4.1's
    /// complete evaluation, with the propagation rule of this module's evaluator).
    ///
    /// ```
    /// use cloudevent_rules::{Envelope, cesql::{Expression, Value}};
    /// let event = Envelope { subject: Some("order-1"), ..Envelope::default() };
    /// let e = Expression::parse("SUBSTRING(subject, 7)").unwrap();
    /// assert_eq!(e.evaluate(&event).value, Value::from("1"));
    /// ```
    pub fn evaluate<'a>(&'a self, event: &Envelope<'a>) -> Evaluation<'a> {
        let mut sink = eval::Sink::new(true, &self.limits);
        let value = self.root.eval(event, &mut sink);
        Evaluation {
            value,
            errors: sink.list.unwrap_or_default(),
        }
    }

    /// Whether the event passes the expression as a filter (CESQL v1 1.2): the value is
    /// `true` and no error was raised. Allocates nothing for attribute comparisons, `LIKE`,
    /// `EXISTS` and `IN`.
    ///
    /// ```
    /// use cloudevent_rules::{Envelope, cesql::Expression};
    /// let e = Expression::parse("subject = 'a' OR missing = 'b'").unwrap();
    /// assert!(e.matches(&Envelope { subject: Some("a"), ..Envelope::default() }));
    /// assert!(!e.matches(&Envelope { subject: Some("z"), ..Envelope::default() }));
    /// ```
    pub fn matches(&self, event: &Envelope<'_>) -> bool {
        match self.flat_verdict(event) {
            Some(verdict) => verdict,
            None => self.tree_verdict(event),
        }
    }

    /// [`Expression::matches`] on an event read one attribute at a time: a filter of the
    /// usual shapes (attributes compared with string literals, `EXISTS`, `AND`, `OR`, `NOT`)
    /// reads only the attributes it names, and `envelope` builds the whole view only for
    /// the others. The same verdict as `matches(&envelope())`.
    ///
    /// ```
    /// use cloudevent_rules::{Envelope, cesql::Expression};
    ///
    /// let event = Envelope { ty: Some("com.example.order.created"), subject: Some("o-1"), ..Envelope::default() };
    /// let e = Expression::parse("type LIKE 'com.example.%' AND EXISTS subject").unwrap();
    /// assert!(e.matches_attributes(&event, || event));
    /// assert_eq!(e.matches_attributes(&event, || event), e.matches(&event));
    /// ```
    pub fn matches_attributes<'a>(
        &self,
        event: &impl crate::ContextAttributes<'a>,
        envelope: impl FnOnce() -> Envelope<'a>,
    ) -> bool {
        match self.flat_verdict(event) {
            Some(verdict) => verdict,
            None => self.tree_verdict(&envelope()),
        }
    }

    /// The flat form's verdict (`flat.rs`); `None` when the tree decides.
    #[inline(always)]
    fn flat_verdict<'a>(&self, event: &impl crate::ContextAttributes<'a>) -> Option<bool> {
        let mut budget = self.limits.max_evaluation_cost;
        match self.flat.as_ref()?.eval(event, &mut budget) {
            Ok(value) => Some(value),
            Err(flat::Stop::Error(_)) => Some(false),
            Err(flat::Stop::Tree) => None,
        }
    }

    fn tree_verdict(&self, event: &Envelope<'_>) -> bool {
        let mut sink = eval::Sink::new(false, &self.limits);
        let value = self.root.eval(event, &mut sink);
        sink.count == 0 && value == Value::Boolean(true)
    }

    /// The attributes the expression reads (by value or `EXISTS`), in order, each once.
    ///
    /// ```
    /// use cloudevent_rules::cesql::Expression;
    /// let e = Expression::parse("type = 'x' AND EXISTS region AND TYPE <> 'y'").unwrap();
    /// assert_eq!(e.attributes(), ["type", "region"]);
    /// ```
    pub fn attributes(&self) -> Vec<&str> {
        // A set beside the list: linear in the names, where a search of the list for each
        // was quadratic (100,000 names took 17.9 s, issue 38).
        let mut seen = std::collections::HashSet::new();
        let mut names: Vec<&str> = Vec::new();
        self.root.walk(&mut |node| {
            if let ast::Kind::Attribute(a) | ast::Kind::Exists(a) = &node.kind
                && seen.insert(a.name())
            {
                names.push(a.name());
            }
        });
        names
    }
}

#[cfg(test)]
mod tests;
