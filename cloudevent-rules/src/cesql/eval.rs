//! Evaluation (CESQL v1 3.3 to 3.7) over the one attribute view, [`Envelope`].
//!
//! Every operator is total. An operator whose operand raised an error returns the zero value
//! of its own return type without computing (so `missing / 0` is a MissingAttributeError
//! only, and `true AND (1 != 1 / 0)` is `false`, as the TCK asks); the errors an operator
//! raises itself (a cast, a division by zero, a function's own failure) come with the value
//! the spec defines for them.

use std::borrow::Cow;

use super::ast::{BinaryOp, Kind, Link, Node, partial_span};
use super::function::{self, Param};
use super::value::{Type, Value, cast};
use super::{ErrorKind, EvalError, Limits, Span};
use crate::{AttributeName, Envelope};

/// Collects the errors, or only counts them (a filter needs to know whether any occurred,
/// not which: counting allocates nothing); and keeps the evaluation inside its [`Limits`].
pub(crate) struct Sink {
    pub(crate) list: Option<Vec<EvalError>>,
    pub(crate) count: usize,
    /// What the evaluation may still scan and produce, in bytes
    /// ([`Limits::max_evaluation_cost`]).
    budget: usize,
    /// The budget ran out: every node still to evaluate gives its zero value at once.
    exhausted: bool,
    max_string: usize,
}

impl Sink {
    pub(crate) fn new(collect: bool, limits: &Limits) -> Sink {
        Sink {
            list: collect.then(Vec::new),
            count: 0,
            budget: limits.max_evaluation_cost,
            exhausted: false,
            max_string: limits.max_string_bytes,
        }
    }

    /// Spends `bytes` of the budget before the work they stand for; `false` (with one
    /// GenericError, at `span`) when the budget cannot pay for it.
    #[inline]
    fn charge(&mut self, bytes: usize, span: Span) -> bool {
        if self.exhausted {
            return false;
        }
        if let Some(left) = self.budget.checked_sub(bytes) {
            self.budget = left;
            return true;
        }
        self.spent(span)
    }

    /// The budget ran out: one GenericError, and `false`.
    #[cold]
    #[inline(never)]
    fn spent(&mut self, span: Span) -> bool {
        self.exhausted = true;
        self.push(ErrorKind::Generic, span, || {
            "the evaluation stopped: it would scan or produce more bytes than its budget \
             allows (cesql::Limits::max_evaluation_cost); the value is the zero value"
                .to_owned()
        });
        false
    }

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
fn lookup<'a>(event: &Envelope<'a>, attribute: &AttributeName) -> Option<Value<'a>> {
    event.attribute(attribute).map(Value::of_attribute)
}

/// The bytes reading `value` costs.
fn size(value: &Value<'_>) -> usize {
    match value {
        Value::String(s) => s.len(),
        Value::Boolean(_) | Value::Integer(_) => 0,
    }
}

/// Casts for an operator: a failure is a CastError naming the operator, and gives the zero
/// value of the target type. `span` is the operand's.
#[inline]
fn cast_for<'a>(value: Value<'a>, to: Type, span: Span, what: &str, sink: &mut Sink) -> Value<'a> {
    if value.ty() == to {
        // The identity cast, decided here so the operators of a filter (`AND` of two
        // Booleans, `IN` over Strings) do not call `cast`: it succeeds with the value, after
        // a charge of nothing for a Boolean or an Integer, which fails only once the budget
        // is spent.
        return if to != Type::String && sink.exhausted {
            to.zero()
        } else {
            value
        };
    }
    cast_other(value, to, span, what, sink)
}

/// [`cast_for`] to another type.
#[inline(never)]
fn cast_other<'a>(
    value: Value<'a>,
    to: Type,
    span: Span,
    what: &str,
    sink: &mut Sink,
) -> Value<'a> {
    if to != Type::String && !sink.charge(size(&value), span) {
        return to.zero();
    }
    match cast(value, to, false) {
        Ok(v) => v,
        Err((zero, _)) => {
            sink.push(ErrorKind::Cast, span, || {
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
            Kind::Chain(_, links) => links.last().map(|link| link.op.returns()),
            Kind::Call { callee, .. } => Some(callee.as_ref().map_or(Type::Boolean, |c| c.returns)),
        }
    }

    /// The zero value of the node's return type; `false` where the type depends on the event
    /// (CESQL v1 3.2: the engine assumes Boolean).
    fn zero(&self) -> Value<'static> {
        self.static_type().unwrap_or(Type::Boolean).zero()
    }

    pub(crate) fn eval<'a>(&'a self, event: &Envelope<'a>, sink: &mut Sink) -> Value<'a> {
        if sink.exhausted {
            return self.zero();
        }
        // What a filter evaluates (attributes, literals, `AND`, `LIKE`, `IN`, `EXISTS`) is
        // written here; the other operators are functions of their own, so this one, entered
        // for every node, stays small (issue 40: its register saves and frame were a third of
        // a filter's cost).
        match &self.kind {
            Kind::Boolean(b) => Value::Boolean(*b),
            Kind::Integer(i) => Value::Integer(*i),
            Kind::String(s) => Value::String(Cow::Borrowed(s)),
            Kind::Attribute(attribute) => match lookup(event, attribute) {
                // A Binary extension is read as base64 text, made here.
                Some(value @ Value::String(Cow::Owned(_))) => {
                    if sink.charge(size(&value), self.span) {
                        value
                    } else {
                        self.zero()
                    }
                }
                Some(value) => value,
                None => {
                    self.missing(attribute, sink);
                    Value::Boolean(false)
                }
            },
            Kind::Exists(attribute) => Value::Boolean(event.attribute(attribute).is_some()),
            Kind::Not(operand) => self.not(operand, event, sink),
            Kind::Negate(operand) => self.negate(operand, event, sink),
            Kind::Chain(first, links) => self.chain(first, links, event, sink),
            Kind::Like {
                operand,
                pattern,
                negated,
            } => {
                let Some(v) = Node::operand(operand, event, sink) else {
                    return self.zero();
                };
                let matched = match &v {
                    Value::String(s) => {
                        if !sink.charge(pattern.cost(s), self.span) {
                            return self.zero();
                        }
                        pattern.matches(s)
                    }
                    other => pattern.matches(&other.to_string()),
                };
                Value::Boolean(matched != *negated)
            }
            Kind::In {
                operand,
                set,
                negated,
            } => {
                let Some(x) = Node::operand(operand, event, sink) else {
                    return self.zero();
                };
                let target = x.ty();
                let mut found = false;
                for element in set {
                    let Some(y) = Node::operand(element, event, sink) else {
                        return self.zero();
                    };
                    let before = sink.count;
                    let y = cast_for(y, target, element.span, "IN", sink);
                    if sink.count == before
                        && sink.charge(size(&y).min(size(&x)), element.span)
                        && y == x
                    {
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
            } => self.call(name, *name_span, args, callee.as_deref(), event, sink),
        }
    }

    /// An attribute the event does not carry: a MissingAttributeError.
    #[cold]
    #[inline(never)]
    fn missing(&self, attribute: &AttributeName, sink: &mut Sink) {
        sink.push(ErrorKind::MissingAttribute, self.span, || {
            format!("the event has no attribute `{}`", attribute.name())
        });
    }

    #[inline(never)]
    fn not<'a>(&'a self, operand: &'a Node, event: &Envelope<'a>, sink: &mut Sink) -> Value<'a> {
        let Some(v) = Node::operand(operand, event, sink) else {
            return self.zero();
        };
        Value::Boolean(!boolean(cast_for(
            v,
            Type::Boolean,
            operand.span,
            "NOT",
            sink,
        )))
    }

    #[inline(never)]
    fn negate<'a>(&'a self, operand: &'a Node, event: &Envelope<'a>, sink: &mut Sink) -> Value<'a> {
        let Some(v) = Node::operand(operand, event, sink) else {
            return self.zero();
        };
        let x = integer(cast_for(v, Type::Integer, operand.span, "unary -", sink));
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

    #[inline(never)]
    fn call<'a>(
        &'a self,
        name: &'a str,
        name_span: Span,
        args: &'a [Node],
        callee: Option<&'a function::Callee>,
        event: &Envelope<'a>,
        sink: &mut Sink,
    ) -> Value<'a> {
        let Some(callee) = callee else {
            sink.push(ErrorKind::MissingFunction, name_span, || {
                format!("no function {name} taking {} argument(s)", args.len())
            });
            return Value::Boolean(false);
        };
        let mut values: Vec<Value<'a>> = Vec::with_capacity(args.len());
        for (index, arg) in args.iter().enumerate() {
            let Some(v) = Node::operand(arg, event, sink) else {
                return callee.returns.zero();
            };
            values.push(match callee.param(index) {
                Param::Typed(t) => cast_for(v, t, arg.span, name, sink),
                Param::Any => v,
            });
        }
        // What a call reads and makes is paid for when it returns: a built-in's work is
        // linear in its arguments, and finds a result past the string limit before making
        // it, so one call overshoots the budget by at most its arguments.
        let (value, failure) = function::call(callee, &values, sink.max_string);
        if let Some((kind, message)) = failure {
            sink.push(kind, self.span, || message);
            return value;
        }
        let read = values
            .iter()
            .map(size)
            .fold(size(&value), usize::saturating_add);
        if !sink.charge(read, self.span) {
            return callee.returns.zero();
        }
        value
    }

    /// Evaluates an operand: `None` when it raised an error, the operator then returning its
    /// zero value. A string literal (an `IN` list's element, a comparison's right side) is
    /// its value, as [`Node::eval`] gives it, without the call.
    #[inline]
    fn operand<'a>(operand: &'a Node, event: &Envelope<'a>, sink: &mut Sink) -> Option<Value<'a>> {
        if let Kind::String(s) = &operand.kind
            && !sink.exhausted
        {
            return Some(Value::String(Cow::Borrowed(s)));
        }
        let before = sink.count;
        let value = operand.eval(event, sink);
        (sink.count == before).then_some(value)
    }

    /// A chain, left to right: each operator takes the value so far as its left operand.
    /// Once an operand raised an error, every operator after it gives its zero value
    /// without computing (the propagation rule above), the chain's the last one's.
    fn chain<'a>(
        &'a self,
        first: &'a Node,
        links: &'a [Link],
        event: &Envelope<'a>,
        sink: &mut Sink,
    ) -> Value<'a> {
        let before = sink.count;
        let mut x = first.eval(event, sink);
        let mut left = first.span;
        for link in links {
            if sink.count != before {
                return self.zero();
            }
            let span = partial_span(first, link);
            x = Node::binary(link.op, x, left, &link.right, span, event, sink);
            left = span;
        }
        x
    }

    /// `x op right`, `x` being the left operand's value (`left` its span) and `span` the
    /// operation's.
    fn binary<'a>(
        op: BinaryOp,
        x: Value<'a>,
        left: Span,
        right: &'a Node,
        span: Span,
        event: &Envelope<'a>,
        sink: &mut Sink,
    ) -> Value<'a> {
        let symbol = op.symbol();
        let zero = op.returns().zero();
        let operand = |sink: &mut Sink| Node::operand(right, event, sink);
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
                let Some(y) = operand(sink) else {
                    return zero;
                };
                let y = boolean(cast_for(y, Type::Boolean, right.span, symbol, sink));
                Value::Boolean(if op == BinaryOp::Xor { x != y } else { y })
            }
            BinaryOp::Eq | BinaryOp::NotEq => {
                let Some(y) = operand(sink) else {
                    return zero;
                };
                // `=` is ambiguous (CESQL v1 3.7): the right operand's type decides, the left
                // is cast to it; a failed cast gives `false`.
                let before = sink.count;
                let x = cast_for(x, y.ty(), left, symbol, sink);
                if sink.count != before || !sink.charge(size(&x).min(size(&y)), span) {
                    return Value::Boolean(false);
                }
                Value::Boolean((x == y) == (op == BinaryOp::Eq))
            }
            _ => {
                let Some(y) = operand(sink) else {
                    return zero;
                };
                let a = integer(cast_for(x, Type::Integer, left, symbol, sink));
                let b = integer(cast_for(y, Type::Integer, right.span, symbol, sink));
                arithmetic(op, a, b, span, sink)
            }
        }
    }
}

fn arithmetic<'a>(op: BinaryOp, a: i32, b: i32, span: Span, sink: &mut Sink) -> Value<'a> {
    let symbol = op.symbol();
    let checked = match op {
        BinaryOp::Less => return Value::Boolean(a < b),
        BinaryOp::LessEq => return Value::Boolean(a <= b),
        BinaryOp::Greater => return Value::Boolean(a > b),
        BinaryOp::GreaterEq => return Value::Boolean(a >= b),
        BinaryOp::Div | BinaryOp::Rem if b == 0 => {
            sink.push(ErrorKind::Math, span, || {
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
            sink.push(ErrorKind::Math, span, || {
                format!("{a} {symbol} {b} overflows a 32-bit integer; the value is {clamped}")
            });
            Value::Integer(clamped)
        }
    }
}
