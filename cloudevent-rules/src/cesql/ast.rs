//! The parsed expression: one node per construct of CESQL v1 section 2, each with its span.

use std::sync::Arc;

use super::Span;
use super::function::Callee;
use super::like::Pattern;
use crate::AttributeName;

/// A node and the source it was parsed from.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) kind: Kind,
    pub(crate) span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinaryOp {
    And,
    Or,
    Xor,
    Eq,
    NotEq,
    Less,
    LessEq,
    Greater,
    GreaterEq,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinaryOp {
    /// The operator's return type (CESQL v1 3.4).
    pub(crate) fn returns(self) -> super::Type {
        match self {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => {
                super::Type::Integer
            }
            _ => super::Type::Boolean,
        }
    }

    pub(crate) fn symbol(self) -> &'static str {
        match self {
            BinaryOp::And => "AND",
            BinaryOp::Or => "OR",
            BinaryOp::Xor => "XOR",
            BinaryOp::Eq => "=",
            BinaryOp::NotEq => "!=",
            BinaryOp::Less => "<",
            BinaryOp::LessEq => "<=",
            BinaryOp::Greater => ">",
            BinaryOp::GreaterEq => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
        }
    }
}

/// One operator of a [`Kind::Chain`] and its right operand.
#[derive(Debug, Clone)]
pub(crate) struct Link {
    pub(crate) op: BinaryOp,
    pub(crate) right: Node,
}

/// The source of the chain `first` up to and including `link`: the left operand of the
/// link after it, the span a finding or an error of that operator points at.
pub(crate) fn partial_span(first: &Node, link: &Link) -> Span {
    first.span.to(link.right.span)
}

#[derive(Debug, Clone)]
pub(crate) enum Kind {
    Boolean(bool),
    Integer(i32),
    String(Box<str>),
    /// Resolved once when parsed, so evaluation compares no names.
    Attribute(AttributeName),
    Exists(AttributeName),
    Not(Box<Node>),
    Negate(Box<Node>),
    /// A chain of binary operators of one precedence, `a OR b OR c`, `1 + 2 - 3`: the first
    /// operand, then each operator with its right operand, applied left to right (CESQL v1
    /// 3.6). Held flat, not as a left-deep tree: a chain of any length is evaluated,
    /// checked and dropped in a loop, and is no nesting (issue 38).
    Chain(Box<Node>, Vec<Link>),
    Like {
        operand: Box<Node>,
        pattern: Pattern,
        negated: bool,
    },
    In {
        operand: Box<Node>,
        set: Vec<Node>,
        negated: bool,
    },
    Call {
        /// Upper case, as the spec's tables write it.
        name: Box<str>,
        name_span: Span,
        args: Vec<Node>,
        /// `None`: no function of that name and arity (a MissingFunctionError when evaluated).
        callee: Option<Arc<Callee>>,
    },
}

impl Node {
    /// Every node of the tree, this one first.
    pub(crate) fn walk<'n>(&'n self, f: &mut dyn FnMut(&'n Node)) {
        f(self);
        match &self.kind {
            Kind::Not(x) | Kind::Negate(x) => x.walk(f),
            Kind::Chain(first, links) => {
                first.walk(f);
                for link in links {
                    link.right.walk(f);
                }
            }
            Kind::Like { operand, .. } => operand.walk(f),
            Kind::In { operand, set, .. } => {
                operand.walk(f);
                for node in set {
                    node.walk(f);
                }
            }
            Kind::Call { args, .. } => {
                for node in args {
                    node.walk(f);
                }
            }
            Kind::Boolean(_)
            | Kind::Integer(_)
            | Kind::String(_)
            | Kind::Attribute(_)
            | Kind::Exists(_) => {}
        }
    }
}
