//! The type checker (CESQL v1 3.3: "some error checks SHOULD be done at compile time"): what
//! every evaluation of the expression would raise, found before any event. `cesql!` refuses
//! the expression on a finding; [`Expression::check`](super::Expression::check) reports them
//! for expressions from configuration.

use std::fmt;

use super::ast::{BinaryOp, Kind, Node, partial_span};
use super::value::{Type, parse_boolean, parse_integer};
use super::{Expression, Span};
use crate::AttributeKind;

/// What the checker knows about the event's attributes: the CloudEvents type of an attribute
/// (a core attribute's from the spec, an extension's from the event type's declaration), or
/// `None` when unknown.
///
/// ```
/// use cloudevent_rules::{AttributeKind, cesql::Schema};
/// let schema = Schema::core().with("priority", AttributeKind::Integer);
/// assert_eq!(schema.kind("priority"), Some(AttributeKind::Integer));
/// assert_eq!(schema.kind("time"), Some(AttributeKind::Timestamp));
/// assert_eq!(schema.kind("region"), None);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Schema {
    kinds: Vec<(String, AttributeKind)>,
}

impl Schema {
    /// The core attributes (CE 1.0.2 section 3) and the documented extensions, with their
    /// types.
    pub fn core() -> Schema {
        let mut schema = Schema::default();
        for name in crate::CORE_ATTRIBUTES {
            if let Some(kind) = crate::core_attribute_kind(name) {
                schema = schema.with(name, kind);
            }
        }
        for documented in crate::DOCUMENTED_EXTENSIONS {
            schema = schema.with(documented.name, documented.kind);
        }
        schema
    }

    /// The schema with one more attribute.
    ///
    /// ```
    /// use cloudevent_rules::{AttributeKind, cesql::Schema};
    /// assert_eq!(Schema::default().with("a", AttributeKind::Boolean).kind("a"), Some(AttributeKind::Boolean));
    /// ```
    pub fn with(mut self, name: &str, kind: AttributeKind) -> Schema {
        self.kinds.retain(|(n, _)| n != name);
        self.kinds.push((name.to_owned(), kind));
        self
    }

    /// The type of `name`, when known.
    pub fn kind(&self, name: &str) -> Option<AttributeKind> {
        self.kinds.iter().find(|(n, _)| n == name).map(|(_, k)| *k)
    }
}

/// Something every evaluation of the expression would raise, at the token that causes it.
///
/// ```
/// use cloudevent_rules::cesql::{Expression, Schema};
/// let found = Expression::parse("LENGTH('a', 'b') = 1").unwrap().check(&Schema::core());
/// assert_eq!(found[0].to_string(),
///     "CESQL check at 0..6: no function LENGTH takes 2 argument(s) (a MissingFunctionError, CESQL v1 3.5); known: LENGTH(String) -> Integer");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The offending token.
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CESQL check at {}: {}", self.span, self.message)
    }
}

impl Expression {
    /// Checks the expression against what `schema` says about the attributes: calls no
    /// function takes, string literals that can never be cast to the type their operator
    /// needs, and comparisons of an attribute with a literal its type can never equal (an
    /// Integer extension against `'high'`).
    ///
    /// ```
    /// use cloudevent_rules::{AttributeKind, cesql::{Expression, Schema}};
    /// let schema = Schema::core().with("priority", AttributeKind::Integer);
    /// let found = Expression::parse("priority = 'high'").unwrap().check(&schema);
    /// assert!(found[0].message.contains("never equal"), "{}", found[0]);
    /// assert!(Expression::parse("priority = '2'").unwrap().check(&schema).is_empty());
    /// ```
    pub fn check(&self, schema: &Schema) -> Vec<Finding> {
        let mut found = Vec::new();
        self.root
            .walk(&mut |node| check_node(node, schema, &self.source, &mut found));
        // A literal an attribute's type never equals is also one that never casts to it:
        // one finding a token, the one naming the attribute.
        found.dedup_by(|later, first| later.span == first.span);
        found
    }
}

fn static_type(node: &Node, schema: &Schema) -> Option<Type> {
    match &node.kind {
        Kind::Attribute(a) => schema.kind(a.name()).map(Type::of_attribute),
        _ => node.static_type(),
    }
}

/// A string literal that the operator will have to cast to `to`, and cannot.
fn literal_cast(node: &Node, to: Type, what: &str, found: &mut Vec<Finding>) {
    if let Kind::String(text) = &node.kind {
        let ok = match to {
            Type::Integer => parse_integer(text).is_some(),
            Type::Boolean => parse_boolean(text).is_some(),
            Type::String => true,
        };
        if !ok {
            found.push(Finding {
                span: node.span,
                message: format!(
                    "'{}' is not a valid {to}, which {what} needs (a CastError on every event, CESQL v1 3.7)",
                    crate::shorten(text)
                ),
            });
        }
    }
}

/// The other side of a comparison: a node, or the part of a chain before an operator.
struct Side<'n> {
    ty: Option<Type>,
    /// The text of a string literal.
    text: Option<&'n str>,
    span: Span,
}

impl<'n> Side<'n> {
    fn of(node: &'n Node) -> Side<'n> {
        Side {
            ty: node.static_type(),
            text: match &node.kind {
                Kind::String(text) => Some(text),
                _ => None,
            },
            span: node.span,
        }
    }
}

/// `attribute = 'literal'` where the attribute's type can never give that text.
fn never_equal(
    attribute: &Node,
    literal: Side<'_>,
    schema: &Schema,
    what: &str,
    found: &mut Vec<Finding>,
) {
    let Kind::Attribute(a) = &attribute.kind else {
        return;
    };
    let Some(kind) = schema.kind(a.name()) else {
        return;
    };
    if kind == AttributeKind::Timestamp
        && let Some(ty @ (Type::Integer | Type::Boolean)) = literal.ty
    {
        found.push(Finding {
                span: literal.span,
                message: format!(
                    "`{}` is a Timestamp, never equal to {} {ty} in {what} (a CastError on every event, CESQL v1 3.7)",
                    a.name(),
                    if ty == Type::Integer { "an" } else { "a" }
                ),
            });
        return;
    }
    let Some(text) = literal.text else {
        return;
    };
    let possible = match Type::of_attribute(kind) {
        Type::Integer => parse_integer(text).is_some_and(|i| i.to_string() == text),
        Type::Boolean => matches!(text, "true" | "false"),
        Type::String => true,
    };
    let possible_as_cast = match Type::of_attribute(kind) {
        Type::Integer => parse_integer(text).is_some(),
        Type::Boolean => parse_boolean(text).is_some(),
        Type::String => true,
    };
    if !possible && !possible_as_cast {
        found.push(Finding {
            span: literal.span,
            message: format!(
                "`{}` is {}, never equal to '{}' in {what}: compare with {}",
                attribute_name(a),
                article(kind),
                crate::shorten(text),
                match Type::of_attribute(kind) {
                    Type::Integer => "an integer such as 2",
                    _ => "true or false",
                }
            ),
        });
    }
}

fn article(kind: AttributeKind) -> &'static str {
    match kind {
        AttributeKind::Integer => "an Integer",
        AttributeKind::Boolean => "a Boolean",
        _ => "a String",
    }
}

fn attribute_name(a: &crate::AttributeName) -> &str {
    a.name()
}

fn check_node(node: &Node, schema: &Schema, _source: &str, found: &mut Vec<Finding>) {
    match &node.kind {
        Kind::Not(x) => literal_cast(x, Type::Boolean, "NOT", found),
        Kind::Negate(x) => literal_cast(x, Type::Integer, "unary -", found),
        Kind::Chain(first, links) => {
            // Last operator first: the order the left-deep tree this chain replaced was
            // walked in, so findings keep their order (and their de-duplication).
            for (i, link) in links.iter().enumerate().rev() {
                let r = &link.right;
                let symbol = link.op.symbol();
                // The left operand is `first` for the first operator, the chain so far
                // (a value of the operator before's type) for the others.
                let left = (i == 0).then_some(&**first);
                let left_side = match (i, left) {
                    (_, Some(l)) => Side::of(l),
                    (i, None) => Side {
                        ty: Some(links[i - 1].op.returns()),
                        text: None,
                        span: partial_span(first, &links[i - 1]),
                    },
                };
                match link.op {
                    BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                        if let Some(l) = left {
                            literal_cast(l, Type::Boolean, symbol, found);
                        }
                        literal_cast(r, Type::Boolean, symbol, found);
                    }
                    BinaryOp::Eq | BinaryOp::NotEq => {
                        if let Some(l) = left {
                            never_equal(l, Side::of(r), schema, symbol, found);
                        }
                        never_equal(r, left_side, schema, symbol, found);
                        if let (Some(l), Some(target)) = (left, static_type(r, schema)) {
                            literal_cast(l, target, symbol, found);
                        }
                    }
                    _ => {
                        if let Some(l) = left {
                            literal_cast(l, Type::Integer, symbol, found);
                        }
                        literal_cast(r, Type::Integer, symbol, found);
                    }
                }
            }
        }
        Kind::In { operand, set, .. } => {
            if let Some(target) = static_type(operand, schema) {
                for element in set {
                    never_equal(operand, Side::of(element), schema, "IN", found);
                    literal_cast(element, target, "IN", found);
                }
            }
        }
        Kind::Call {
            name,
            name_span,
            args,
            callee: None,
        } => {
            let known = super::function::Functions::builtin().overloads_of(name);
            found.push(Finding {
                span: *name_span,
                message: format!(
                    "no function {name} takes {} argument(s) (a MissingFunctionError, CESQL v1 3.5); {}",
                    args.len(),
                    if known.is_empty() {
                        "no function has that name".to_owned()
                    } else {
                        format!("known: {}", known.join(", "))
                    }
                ),
            });
        }
        Kind::Call {
            name,
            args,
            callee: Some(callee),
            ..
        } => {
            for (index, arg) in args.iter().enumerate() {
                if let super::function::Param::Typed(t) = callee.param(index) {
                    literal_cast(arg, t, name, found);
                }
            }
        }
        _ => {}
    }
}
