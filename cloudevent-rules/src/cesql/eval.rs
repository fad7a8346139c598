//! Evaluation (CESQL v1 3.3 to 3.7) over the one attribute view, [`Envelope`].
//!
//! Every operator is total. An operator whose operand raised an error returns the zero value
//! of its own return type without computing (so `missing / 0` is a MissingAttributeError
//! only, and `true AND (1 != 1 / 0)` is `false`, as the TCK asks); the errors an operator
//! raises itself (a cast, a division by zero, a function's own failure) come with the value
//! the spec defines for them.

use std::borrow::Cow;

use super::ast::{Attribute, BinaryOp, Kind, Node};
use super::function::{self, Param};
use super::value::{Type, Value, cast};
use super::{ErrorKind, EvalError, Span};
use crate::Envelope;

/// Collects the errors, or only counts them (a filter needs to know whether any occurred,
/// not which: counting allocates nothing).
pub(crate) struct Sink {
    pub(crate) list: Option<Vec<EvalError>>,
    pub(crate) count: usize,
}

impl Sink {
    fn push(&mut self, kind: ErrorKind, span: Span, message: impl FnOnce() -> String) {
        self.count += 1;
        if let Some(list) = &mut self.list {
            list.push(EvalError {
                kind,
                span,
                message: message(),
            });
        }
    }
}

/// The value of an attribute, `None` when the event does not carry it.
pub(crate) fn lookup<'a>(event: &Envelope<'a>, attribute: &Attribute) -> Option<Value<'a>> {
    let text = match attribute {
        Attribute::Specversion => event.specversion,
        Attribute::Id => event.id,
        Attribute::Source => event.source,
        Attribute::Type => event.ty,
        Attribute::Datacontenttype => event.datacontenttype,
        Attribute::Dataschema => event.dataschema,
        Attribute::Subject => event.subject,
        Attribute::Time => event.time,
        Attribute::Extension(name) => {
            return event.extensions.extension(name).map(Value::of_attribute);
        }
    };
    text.map(|t| Value::String(Cow::Borrowed(t)))
}

fn exists(event: &Envelope<'_>, attribute: &Attribute) -> bool {
    match attribute {
        Attribute::Extension(name) => event.extensions.extension(name).is_some(),
        core => lookup(event, core).is_some(),
    }
}

/// Casts for an operator: a failure is a CastError naming the operator, and gives the zero
/// value of the target type.
fn cast_for<'a>(value: Value<'a>, to: Type, node: &Node, what: &str, sink: &mut Sink) -> Value<'a> {
    match cast(value, to, false) {
        Ok(v) => v,
        Err((zero, _)) => {
            sink.push(ErrorKind::Cast, node.span, || {
                format!("{what}: the operand is not a valid {to}")
            });
            zero
        }
    }
}

fn boolean(value: Value<'_>) -> bool {
    matches!(value, Value::Boolean(true))
}

fn integer(value: Value<'_>) -> i32 {
    match value {
        Value::Integer(i) => i,
        _ => 0,
    }
}

impl Node {
    /// The node's static return type, where the syntax fixes it (`None`: an attribute).
    pub(crate) fn static_type(&self) -> Option<Type> {
        match &self.kind {
            Kind::Boolean(_)
            | Kind::Exists(_)
            | Kind::Not(_)
            | Kind::Like { .. }
            | Kind::In { .. } => Some(Type::Boolean),
            Kind::Integer(_) | Kind::Negate(_) => Some(Type::Integer),
            Kind::String(_) => Some(Type::String),
            Kind::Attribute(_) => None,
            Kind::Binary(op, _, _) => Some(match op {
                BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => {
                    Type::Integer
                }
                _ => Type::Boolean,
            }),
            Kind::Call { callee, .. } => Some(callee.as_ref().map_or(Type::Boolean, |c| c.returns)),
        }
    }

    /// The zero value of the node's return type; `false` where the type depends on the event
    /// (CESQL v1 3.2: the engine assumes Boolean).
    fn zero(&self) -> Value<'static> {
        self.static_type().unwrap_or(Type::Boolean).zero()
    }

    pub(crate) fn eval<'a>(&'a self, event: &Envelope<'a>, sink: &mut Sink) -> Value<'a> {
        match &self.kind {
            Kind::Boolean(b) => Value::Boolean(*b),
            Kind::Integer(i) => Value::Integer(*i),
            Kind::String(s) => Value::String(Cow::Borrowed(s)),
            Kind::Attribute(attribute) => match lookup(event, attribute) {
                Some(value) => value,
                None => {
                    sink.push(ErrorKind::MissingAttribute, self.span, || {
                        format!("the event has no attribute `{}`", attribute.name())
                    });
                    Value::Boolean(false)
                }
            },
            Kind::Exists(attribute) => Value::Boolean(exists(event, attribute)),
            Kind::Not(operand) => {
                let Some(v) = self.operand(operand, event, sink) else {
                    return self.zero();
                };
                Value::Boolean(!boolean(cast_for(v, Type::Boolean, operand, "NOT", sink)))
            }
            Kind::Negate(operand) => {
                let Some(v) = self.operand(operand, event, sink) else {
                    return self.zero();
                };
                let x = integer(cast_for(v, Type::Integer, operand, "unary -", sink));
                match x.checked_neg() {
                    Some(n) => Value::Integer(n),
                    None => {
                        sink.push(ErrorKind::Math, self.span, || {
                            format!(
                                "-({x}) overflows a 32-bit integer; the value is {}",
                                i32::MAX
                            )
                        });
                        Value::Integer(i32::MAX)
                    }
                }
            }
            Kind::Binary(op, left, right) => self.binary(*op, left, right, event, sink),
            Kind::Like {
                operand,
                pattern,
                negated,
            } => {
                let Some(v) = self.operand(operand, event, sink) else {
                    return self.zero();
                };
                let matched = match &v {
                    Value::String(s) => pattern.matches(s),
                    other => pattern.matches(&other.to_string()),
                };
                Value::Boolean(matched != *negated)
            }
            Kind::In {
                operand,
                set,
                negated,
            } => {
                let Some(x) = self.operand(operand, event, sink) else {
                    return self.zero();
                };
                let target = x.ty();
                let mut found = false;
                for element in set {
                    let Some(y) = self.operand(element, event, sink) else {
                        return self.zero();
                    };
                    let before = sink.count;
                    let y = cast_for(y, target, element, "IN", sink);
                    if sink.count == before && y == x {
                        found = true;
                        break;
                    }
                }
                Value::Boolean(found != *negated)
            }
            Kind::Call {
                name,
                name_span,
                args,
                callee,
            } => {
                let Some(callee) = callee else {
                    sink.push(ErrorKind::MissingFunction, *name_span, || {
                        format!("no function {name} taking {} argument(s)", args.len())
                    });
                    return Value::Boolean(false);
                };
                let mut values: Vec<Value<'a>> = Vec::with_capacity(args.len());
                for (index, arg) in args.iter().enumerate() {
                    let Some(v) = self.operand(arg, event, sink) else {
                        return callee.returns.zero();
                    };
                    values.push(match callee.param(index) {
                        Param::Typed(t) => cast_for(v, t, arg, name, sink),
                        Param::Any => v,
                    });
                }
                let (value, failure) = function::call(callee, &values);
                if let Some((kind, message)) = failure {
                    sink.push(kind, self.span, || message);
                }
                value
            }
        }
    }

    /// Evaluates an operand: `None` when it raised an error, the operator then returning its
    /// zero value.
    fn operand<'a>(
        &'a self,
        operand: &'a Node,
        event: &Envelope<'a>,
        sink: &mut Sink,
    ) -> Option<Value<'a>> {
        let before = sink.count;
        let value = operand.eval(event, sink);
        (sink.count == before).then_some(value)
    }

    fn binary<'a>(
        &'a self,
        op: BinaryOp,
        left: &'a Node,
        right: &'a Node,
        event: &Envelope<'a>,
        sink: &mut Sink,
    ) -> Value<'a> {
        let symbol = op.symbol();
        let Some(x) = self.operand(left, event, sink) else {
            return self.zero();
        };
        match op {
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                let x = boolean(cast_for(x, Type::Boolean, left, symbol, sink));
                // Short-circuit (CESQL v1 3.4.2): the right operand is not evaluated.
                if op == BinaryOp::And && !x {
                    return Value::Boolean(false);
                }
                if op == BinaryOp::Or && x {
                    return Value::Boolean(true);
                }
                let Some(y) = self.operand(right, event, sink) else {
                    return self.zero();
                };
                let y = boolean(cast_for(y, Type::Boolean, right, symbol, sink));
                Value::Boolean(if op == BinaryOp::Xor { x != y } else { y })
            }
            BinaryOp::Eq | BinaryOp::NotEq => {
                let Some(y) = self.operand(right, event, sink) else {
                    return self.zero();
                };
                // `=` is ambiguous (CESQL v1 3.7): the right operand's type decides, the left
                // is cast to it; a failed cast gives `false`.
                let before = sink.count;
                let x = cast_for(x, y.ty(), left, symbol, sink);
                if sink.count != before {
                    return Value::Boolean(false);
                }
                Value::Boolean((x == y) == (op == BinaryOp::Eq))
            }
            _ => {
                let Some(y) = self.operand(right, event, sink) else {
                    return self.zero();
                };
                let a = integer(cast_for(x, Type::Integer, left, symbol, sink));
                let b = integer(cast_for(y, Type::Integer, right, symbol, sink));
                self.arithmetic(op, a, b, sink)
            }
        }
    }

    fn arithmetic<'a>(&self, op: BinaryOp, a: i32, b: i32, sink: &mut Sink) -> Value<'a> {
        let symbol = op.symbol();
        let checked = match op {
            BinaryOp::Less => return Value::Boolean(a < b),
            BinaryOp::LessEq => return Value::Boolean(a <= b),
            BinaryOp::Greater => return Value::Boolean(a > b),
            BinaryOp::GreaterEq => return Value::Boolean(a >= b),
            BinaryOp::Div | BinaryOp::Rem if b == 0 => {
                sink.push(ErrorKind::Math, self.span, || {
                    format!("{a} {symbol} 0: division by zero; the value is 0")
                });
                return Value::Integer(0);
            }
            BinaryOp::Add => a.checked_add(b),
            BinaryOp::Sub => a.checked_sub(b),
            BinaryOp::Mul => a.checked_mul(b),
            BinaryOp::Div => a.checked_div(b),
            BinaryOp::Rem => Some(a.wrapping_rem(b)),
            _ => None,
        };
        match checked {
            Some(n) => Value::Integer(n),
            None => {
                let wide = match op {
                    BinaryOp::Add => i64::from(a) + i64::from(b),
                    BinaryOp::Sub => i64::from(a) - i64::from(b),
                    BinaryOp::Mul => i64::from(a) * i64::from(b),
                    _ => i64::from(a) / i64::from(b),
                };
                let clamped = if wide < 0 { i32::MIN } else { i32::MAX };
                sink.push(ErrorKind::Math, self.span, || {
                    format!("{a} {symbol} {b} overflows a 32-bit integer; the value is {clamped}")
                });
                Value::Integer(clamped)
            }
        }
    }
}
