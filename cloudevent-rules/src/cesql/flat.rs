//! The flat form of an expression (issue 40): what filters are made of (an attribute compared
//! with string literals by `=`, `<>`, `LIKE`, `IN`; `EXISTS`; `TRUE`, `FALSE`; `AND`, `OR`,
//! `XOR` and `NOT` over those), compiled from the parsed tree when the expression is parsed
//! and read by [`Expression::matches`](super::Expression::matches).
//!
//! One tree, one verdict. The flat form is derived from the [`Node`]s the parser made (never
//! parsed anew), only where every node below is one of those shapes; any other expression
//! has none, and the tree evaluates it. It applies the evaluator's rules (`eval.rs`): the
//! same order, the same short-circuits, the same charges against
//! [`Limits::max_evaluation_cost`](super::Limits::max_evaluation_cost), a MissingAttributeError
//! for an attribute the event does not carry. A filter asks only whether the value is `true`
//! without an error, and errors only accumulate, so the flat form stops at the first one.
//! Where the event holds what it does not read (a Boolean, Integer or Binary attribute where
//! a String is compared: a cast, or base64 text made for the event) it says so and the tree
//! evaluates the expression: a shortcut, never a second set of rules. The tests below hold
//! the two to the same value or error on generated expressions and events.
//!
//! What it saves: the tree's evaluator is entered for every node, and its frame is that of
//! a function that matches every operator; the flat form's nodes are the few a filter has,
//! an `IN` set is a list of strings and a `LIKE` pattern is read as compiled (`com.example.%`
//! is `starts_with`).

use super::ErrorKind;
use super::ast::{BinaryOp, Kind, Link, Node};
use super::like::Pattern;
use crate::{AttributeName, ContextAttributes, ExtensionValue};

/// A Boolean node of the flat form.
#[derive(Debug, Clone)]
pub(crate) enum Flat {
    Boolean(bool),
    Exists(AttributeName),
    /// `attribute [NOT] LIKE 'pattern'`.
    Like {
        attribute: AttributeName,
        pattern: Pattern,
        negated: bool,
    },
    /// `attribute [NOT] IN ('a', 'b', ...)`, every element a string literal.
    In {
        attribute: AttributeName,
        set: Box<[Box<str>]>,
        negated: bool,
    },
    /// `attribute = 'literal'`; `attribute <> 'literal'` when `negated`.
    Equals {
        attribute: AttributeName,
        literal: Box<str>,
        negated: bool,
    },
    Not(Box<Flat>),
    /// A chain of `AND`, `OR` and `XOR`, applied left to right as [`Kind::Chain`] is.
    Chain(Box<Flat>, Box<[(Logic, Flat)]>),
}

/// The operators of a [`Flat::Chain`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Logic {
    And,
    Or,
    Xor,
}

/// Why the flat form gives no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The first error the tree raises too: the event does not pass.
    Error(ErrorKind),
    /// The event holds a value the flat form does not read: the tree decides.
    Tree,
}

/// An attribute operand.
fn attribute(node: &Node) -> Option<AttributeName> {
    match &node.kind {
        Kind::Attribute(attribute) => Some(attribute.clone()),
        _ => None,
    }
}

/// A string literal operand.
fn literal(node: &Node) -> Option<Box<str>> {
    match &node.kind {
        Kind::String(text) => Some(text.clone()),
        _ => None,
    }
}

/// The attribute's text, as the tree reads a String, URI, URI-reference or Timestamp
/// attribute (borrowed, nothing charged).
#[inline(always)]
fn text<'a>(
    event: &impl ContextAttributes<'a>,
    attribute: &AttributeName,
) -> Result<&'a str, Stop> {
    match attribute.read(event) {
        Some(
            ExtensionValue::String(text)
            | ExtensionValue::Uri(text)
            | ExtensionValue::UriReference(text)
            | ExtensionValue::Timestamp(text),
        ) => Ok(text),
        Some(
            ExtensionValue::Boolean(_) | ExtensionValue::Integer(_) | ExtensionValue::Binary(_),
        ) => Err(Stop::Tree),
        None => Err(Stop::Error(ErrorKind::MissingAttribute)),
    }
}

/// Spends `bytes` of what the evaluation may still scan, as the tree's `Sink::charge` does;
/// past the budget, the GenericError it raises.
#[inline(always)]
fn charge(budget: &mut usize, bytes: usize) -> Result<(), Stop> {
    match budget.checked_sub(bytes) {
        Some(left) => {
            *budget = left;
            Ok(())
        }
        None => Err(Stop::Error(ErrorKind::Generic)),
    }
}

impl Flat {
    /// The flat form of `node`; `None` when a node below is not one it holds.
    pub(crate) fn compile(node: &Node) -> Option<Flat> {
        Some(match &node.kind {
            Kind::Boolean(b) => Flat::Boolean(*b),
            Kind::Exists(name) => Flat::Exists(name.clone()),
            Kind::Like {
                operand,
                pattern,
                negated,
            } => Flat::Like {
                attribute: attribute(operand)?,
                pattern: pattern.clone(),
                negated: *negated,
            },
            Kind::In {
                operand,
                set,
                negated,
            } => Flat::In {
                attribute: attribute(operand)?,
                set: set.iter().map(literal).collect::<Option<_>>()?,
                negated: *negated,
            },
            Kind::Not(operand) => Flat::Not(Box::new(Flat::compile(operand)?)),
            Kind::Chain(first, links) => match links.as_slice() {
                [
                    Link {
                        op: op @ (BinaryOp::Eq | BinaryOp::NotEq),
                        right,
                    },
                ] => Flat::Equals {
                    attribute: attribute(first)?,
                    literal: literal(right)?,
                    negated: *op == BinaryOp::NotEq,
                },
                _ => Flat::Chain(
                    Box::new(Flat::compile(first)?),
                    links
                        .iter()
                        .map(|link| {
                            let op = match link.op {
                                BinaryOp::And => Logic::And,
                                BinaryOp::Or => Logic::Or,
                                BinaryOp::Xor => Logic::Xor,
                                _ => return None,
                            };
                            Some((op, Flat::compile(&link.right)?))
                        })
                        .collect::<Option<_>>()?,
                ),
            },
            Kind::Integer(_)
            | Kind::String(_)
            | Kind::Attribute(_)
            | Kind::Negate(_)
            | Kind::Call { .. } => return None,
        })
    }

    /// The value on `event` with `budget` bytes to scan, or why there is none. Reads the
    /// attributes one at a time: an event kept in its own fields builds no [`Envelope`](crate::Envelope).
    pub(crate) fn eval<'a>(
        &self,
        event: &impl ContextAttributes<'a>,
        budget: &mut usize,
    ) -> Result<bool, Stop> {
        match self {
            Flat::Not(operand) => Ok(!operand.operand(event, budget)?),
            Flat::Chain(first, links) => {
                let mut x = first.operand(event, budget)?;
                for (op, right) in links {
                    // Short-circuit (CESQL v1 3.4.2): the right operand is not evaluated.
                    x = match op {
                        Logic::And if !x => false,
                        Logic::Or if x => true,
                        Logic::Xor => x != right.operand(event, budget)?,
                        Logic::And | Logic::Or => right.operand(event, budget)?,
                    };
                }
                Ok(x)
            }
            leaf => leaf.operand(event, budget),
        }
    }

    /// An operand of `NOT` or a chain: a comparison evaluated in place, a `NOT` or a chain by
    /// a call of [`Flat::eval`] (a chain's leaves entered the recursive `eval` once each,
    /// about 40 instructions before any work, issue 40).
    #[inline(always)]
    fn operand<'a>(
        &self,
        event: &impl ContextAttributes<'a>,
        budget: &mut usize,
    ) -> Result<bool, Stop> {
        match self {
            Flat::Boolean(b) => Ok(*b),
            Flat::Exists(name) => Ok(name.read(event).is_some()),
            Flat::Like {
                attribute,
                pattern,
                negated,
            } => {
                let text = text(event, attribute)?;
                charge(budget, pattern.cost(text))?;
                Ok(pattern.matches(text) != *negated)
            }
            Flat::In {
                attribute,
                set,
                negated,
            } => {
                let text = text(event, attribute)?;
                let mut found = false;
                for element in set {
                    charge(budget, element.len().min(text.len()))?;
                    if **element == *text {
                        found = true;
                        break;
                    }
                }
                Ok(found != *negated)
            }
            Flat::Equals {
                attribute,
                literal,
                negated,
            } => {
                let text = text(event, attribute)?;
                charge(budget, literal.len().min(text.len()))?;
                Ok((**literal == *text) != *negated)
            }
            Flat::Not(_) | Flat::Chain(..) => self.eval(event, budget),
        }
    }
}

#[cfg(test)]
mod tests;
