use std::fmt;
use std::path::PathBuf;

use cloudevent_rules::RuleId;

/// One problem found in a schema file, with everything needed to fix it: the file, the JSON
/// pointer of the offending value, the rule id (when a named rule is broken) and a fix.
///
/// ```
/// use cloudevent_codegen::Finding;
///
/// let finding = Finding::new("schemas/com.example.order.created/v1.json", "/if", "`if` is not supported")
///     .with_fix("express the condition with `oneOf`");
/// assert_eq!(
///     finding.to_string(),
///     "schemas/com.example.order.created/v1.json#/if: `if` is not supported; fix: express the condition with `oneOf`"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The schema file, as given to the loader.
    pub file: PathBuf,
    /// The JSON pointer (RFC 6901) of the offending value inside the file; empty for the root.
    pub pointer: String,
    /// The broken rule, when a named rule is broken.
    pub rule: Option<RuleId>,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub fix: Option<String>,
}

impl Finding {
    /// A finding without rule id or fix.
    pub fn new(
        file: impl Into<PathBuf>,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Finding {
            file: file.into(),
            pointer: pointer.into(),
            rule: None,
            message: message.into(),
            fix: None,
        }
    }

    /// Names the broken rule.
    #[must_use]
    pub fn with_rule(mut self, rule: RuleId) -> Self {
        self.rule = Some(rule);
        self
    }

    /// Says how to fix it.
    #[must_use]
    pub fn with_fix(mut self, fix: impl Into<String>) -> Self {
        self.fix = Some(fix.into());
        self
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}#{}: {}",
            self.file.display(),
            self.pointer,
            self.message
        )?;
        if let Some(rule) = self.rule {
            write!(f, " ({rule})")?;
        }
        if let Some(fix) = &self.fix {
            write!(f, "; fix: {fix}")?;
        }
        Ok(())
    }
}

/// Why a registry could not be loaded, checked or turned into code.
///
/// ```
/// use cloudevent_codegen::{CodegenError, Registry};
///
/// let missing = Registry::load("no/such/folder").unwrap_err();
/// assert!(matches!(missing, CodegenError::Io { .. }), "{missing}");
/// assert!(missing.to_string().starts_with("no/such/folder"), "{missing}");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodegenError {
    /// A file or directory could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A schema file is not JSON.
    #[error("{}: not valid JSON: {source}", path.display())]
    Json {
        /// The schema file.
        path: PathBuf,
        /// The parser's error.
        source: serde_json::Error,
    },
    /// One or more schema files break a rule or use something codegen cannot handle.
    #[error("{}", render_findings(.0))]
    Findings(Vec<Finding>),
    /// typify rejected a schema that passed our checks.
    #[error("{}: typify could not convert the schema: {message}", path.display())]
    Typify {
        /// The schema file.
        path: PathBuf,
        /// typify's message.
        message: String,
    },
    /// The Rust code typify produced could not be parsed, which is a bug in codegen.
    #[error("{}: generated code does not parse: {message}", path.display())]
    GeneratedCode {
        /// The schema file.
        path: PathBuf,
        /// syn's message.
        message: String,
    },
    /// The registry folder holds no event schema in the layout it was read as.
    #[error("{}: no event schema found; looked for {looked_for}", root.display())]
    NoEventSchemas {
        /// The registry folder.
        root: PathBuf,
        /// What a file needs to be an event schema in that layout.
        looked_for: String,
    },
    /// A git command for the baseline failed.
    #[error("git {args}: {message}")]
    Git {
        /// The arguments given to git.
        args: String,
        /// git's stderr or the spawn error.
        message: String,
    },
}

fn render_findings(findings: &[Finding]) -> String {
    let mut out = format!("{} problem(s) in the schema registry:", findings.len());
    for finding in findings {
        out.push_str("\n  - ");
        out.push_str(&finding.to_string());
    }
    out
}

impl CodegenError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        CodegenError::Io {
            path: path.into(),
            source,
        }
    }
}

/// Escapes one JSON pointer segment (RFC 6901: `~` → `~0`, `/` → `~1`).
pub(crate) fn pointer_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}
