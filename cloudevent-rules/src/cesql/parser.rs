//! The CESQL parser (CESQL v1 sections 2 and 3.6): precedence climbing over the lexer's
//! tokens. From loosest to tightest: `AND`/`OR`/`XOR`; comparisons; `+`/`-`; `*`/`/`/`%`;
//! `LIKE`/`IN` (and their `NOT` forms); the unary `NOT` and `-`; function calls, `EXISTS`,
//! parentheses, literals and attributes. Operators of equal precedence are evaluated left to
//! right (section 3.6).

use std::collections::VecDeque;
use std::sync::Arc;

use super::ast::{BinaryOp, Kind, Link, Node};
use super::function::Functions;
use super::lexer::{Lexer, Spanned, Token};
use super::like::Pattern;
use super::{Limits, ParseError, Span};

/// Deeper nesting is refused: evaluation recurses, and a hostile expression must not
/// exhaust the stack. A chain of operators of one precedence (`a OR b OR c`) is a loop,
/// not nesting, and does not count.
pub(crate) const MAX_DEPTH: usize = 64;

pub(crate) fn parse(
    source: &str,
    functions: &Functions,
    limits: &Limits,
) -> Result<Node, ParseError> {
    if source.len() > limits.max_expression_bytes {
        let mut cut = limits.max_expression_bytes;
        while !source.is_char_boundary(cut) {
            cut -= 1;
        }
        return Err(ParseError::new(
            Span::new(cut, source.len()),
            format!(
                "the expression is {} bytes, longer than the limit of {} bytes (cesql::Limits::max_expression_bytes)",
                source.len(),
                limits.max_expression_bytes
            ),
        ));
    }
    Lexer::check(source)?;
    let mut parser = Parser {
        source,
        lexer: Lexer::new(source),
        ahead: VecDeque::new(),
        depth: 0,
        functions,
        limits,
    };
    let node = parser.logic()?;
    if parser.peek().token != Token::End {
        return Err(parser.unexpected("an operator or the end of the expression"));
    }
    Ok(node)
}

struct Parser<'s, 'f> {
    source: &'s str,
    lexer: Lexer<'s>,
    /// The tokens read and not consumed yet: as many as a decision looks ahead (three).
    ahead: VecDeque<Spanned>,
    depth: usize,
    functions: &'f Functions,
    limits: &'f Limits,
}

impl<'s> Parser<'s, '_> {
    /// Reads tokens until `ahead + 1` are waiting.
    fn fill(&mut self, ahead: usize) {
        while self.ahead.len() <= ahead {
            // `parse` read every token once already (`Lexer::check`): none fails here, and
            // the end stands in for one that would.
            let next = self.lexer.next_token().unwrap_or_else(|error| Spanned {
                token: Token::End,
                span: error.span,
            });
            self.ahead.push_back(next);
        }
    }

    fn peek(&mut self) -> &Spanned {
        self.peek_at(0)
    }

    fn peek_at(&mut self, ahead: usize) -> &Spanned {
        self.fill(ahead);
        &self.ahead[ahead]
    }

    fn bump(&mut self) -> Spanned {
        self.fill(0);
        let token = self.ahead.pop_front();
        token.unwrap_or(Spanned {
            token: Token::End,
            span: Span::new(self.source.len(), self.source.len()),
        })
    }

    fn text(&self, span: Span) -> &'s str {
        &self.source[span.start..span.end]
    }

    /// Whether the next token is the keyword `word` (keywords are case-insensitive, 2).
    fn is_keyword(&mut self, ahead: usize, word: &str) -> bool {
        let next = self.peek_at(ahead);
        let (is_word, span) = (next.token == Token::Word, next.span);
        is_word && self.text(span).eq_ignore_ascii_case(word)
    }

    fn unexpected(&mut self, expected: &str) -> ParseError {
        let next = self.peek().clone();
        ParseError::new(
            next.span,
            format!(
                "expected {expected}, found {}",
                next.token.describe(self.text(next.span))
            ),
        )
    }

    fn expect(&mut self, token: Token, expected: &str) -> Result<Span, ParseError> {
        if self.peek().token == token {
            Ok(self.bump().span)
        } else {
            Err(self.unexpected(expected))
        }
    }

    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ParseError::new(
                self.peek().span,
                format!("the expression nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(())
    }

    /// A chain of the operators `op` recognises, over operands `next` parses: one flat
    /// [`Kind::Chain`], however long (issue 38: 64 `OR` operands were refused as nesting).
    fn binary(
        &mut self,
        next: fn(&mut Self) -> Result<Node, ParseError>,
        op: fn(&mut Self) -> Option<BinaryOp>,
    ) -> Result<Node, ParseError> {
        let first = next(self)?;
        let mut links = Vec::new();
        while let Some(op) = op(self) {
            self.bump();
            let right = next(self)?;
            links.push(Link { op, right });
        }
        let Some(last) = links.last() else {
            return Ok(first);
        };
        let span = first.span.to(last.right.span);
        Ok(Node {
            kind: Kind::Chain(Box::new(first), links),
            span,
        })
    }

    fn logic(&mut self) -> Result<Node, ParseError> {
        self.binary(Self::comparison, |p: &mut Self| {
            if p.is_keyword(0, "AND") {
                Some(BinaryOp::And)
            } else if p.is_keyword(0, "OR") {
                Some(BinaryOp::Or)
            } else if p.is_keyword(0, "XOR") {
                Some(BinaryOp::Xor)
            } else {
                None
            }
        })
    }

    fn comparison(&mut self) -> Result<Node, ParseError> {
        self.binary(Self::additive, |p: &mut Self| match p.peek().token {
            Token::Eq => Some(BinaryOp::Eq),
            Token::NotEq | Token::Diamond => Some(BinaryOp::NotEq),
            Token::Less => Some(BinaryOp::Less),
            Token::LessEq => Some(BinaryOp::LessEq),
            Token::Greater => Some(BinaryOp::Greater),
            Token::GreaterEq => Some(BinaryOp::GreaterEq),
            _ => None,
        })
    }

    fn additive(&mut self) -> Result<Node, ParseError> {
        self.binary(Self::multiplicative, |p: &mut Self| match p.peek().token {
            Token::Plus => Some(BinaryOp::Add),
            Token::Minus => Some(BinaryOp::Sub),
            _ => None,
        })
    }

    fn multiplicative(&mut self) -> Result<Node, ParseError> {
        self.binary(Self::postfix, |p: &mut Self| match p.peek().token {
            Token::Star => Some(BinaryOp::Mul),
            Token::Slash => Some(BinaryOp::Div),
            Token::Percent => Some(BinaryOp::Rem),
            _ => None,
        })
    }

    /// `x [NOT] LIKE 'pattern'`, `x [NOT] IN (a, b, ...)`.
    fn postfix(&mut self) -> Result<Node, ParseError> {
        let mut node = self.unary()?;
        let outer = self.depth;
        loop {
            self.enter()?;
            let negated = self.is_keyword(0, "NOT")
                && (self.is_keyword(1, "LIKE") || self.is_keyword(1, "IN"));
            let ahead = usize::from(negated);
            if self.is_keyword(ahead, "LIKE") {
                for _ in 0..=ahead {
                    self.bump();
                }
                let next = self.peek().clone();
                let Token::Str(text) = next.token else {
                    return Err(self.unexpected(
                        "a string literal as the LIKE pattern (CESQL v1 3.4.3: the pattern is a literal, never cast)",
                    ));
                };
                // The matcher is linear in the text; the pattern's length is bounded too, as
                // what it costs a character grows with it.
                if text.len() > self.limits.max_pattern_bytes {
                    return Err(ParseError::new(
                        next.span,
                        format!(
                            "the LIKE pattern is {} bytes, longer than the limit of {} bytes (cesql::Limits::max_pattern_bytes)",
                            text.len(),
                            self.limits.max_pattern_bytes
                        ),
                    ));
                }
                self.bump();
                let span = node.span.to(next.span);
                node = Node {
                    kind: Kind::Like {
                        operand: Box::new(node),
                        pattern: Pattern::new(&text),
                        negated,
                    },
                    span,
                };
            } else if self.is_keyword(ahead, "IN") {
                for _ in 0..=ahead {
                    self.bump();
                }
                self.expect(Token::LParen, "`(` opening the IN set")?;
                let mut set = Vec::new();
                loop {
                    self.enter()?;
                    set.push(self.logic()?);
                    self.depth -= 1;
                    if self.peek().token == Token::Comma {
                        self.bump();
                    } else {
                        break;
                    }
                }
                let end = self.expect(Token::RParen, "`,` or `)` closing the IN set")?;
                let span = node.span.to(end);
                node = Node {
                    kind: Kind::In {
                        operand: Box::new(node),
                        set,
                        negated,
                    },
                    span,
                };
            } else {
                self.depth = outer;
                return Ok(node);
            }
        }
    }

    fn unary(&mut self) -> Result<Node, ParseError> {
        let start = self.peek().span;
        if self.is_keyword(0, "NOT") {
            self.bump();
            self.enter()?;
            let operand = self.unary()?;
            self.depth -= 1;
            let span = start.to(operand.span);
            return Ok(Node {
                kind: Kind::Not(Box::new(operand)),
                span,
            });
        }
        if self.peek().token == Token::Minus {
            self.bump();
            // `-` directly before digits is a negative literal, so -2147483648 fits.
            if self.peek().token == Token::Digits {
                let digits = self.bump();
                let span = start.to(digits.span);
                return Ok(Node {
                    kind: Kind::Integer(self.integer(span, true)?),
                    span,
                });
            }
            self.enter()?;
            let operand = self.unary()?;
            self.depth -= 1;
            let span = start.to(operand.span);
            return Ok(Node {
                kind: Kind::Negate(Box::new(operand)),
                span,
            });
        }
        self.primary()
    }

    fn integer(&self, span: Span, negative: bool) -> Result<i32, ParseError> {
        let digits = self.text(span).trim_start_matches('-');
        let parsed = digits
            .parse::<i64>()
            .ok()
            .map(|n| if negative { -n } else { n })
            .and_then(|n| i32::try_from(n).ok());
        parsed.ok_or_else(|| {
            ParseError::new(
                span,
                format!(
                    "integer literal `{}` is outside the 32-bit signed range (CESQL v1 2.2)",
                    self.text(span)
                ),
            )
        })
    }

    fn primary(&mut self) -> Result<Node, ParseError> {
        let next = self.peek().clone();
        match next.token {
            Token::Digits => {
                self.bump();
                Ok(Node {
                    kind: Kind::Integer(self.integer(next.span, false)?),
                    span: next.span,
                })
            }
            Token::Str(text) => {
                self.bump();
                Ok(Node {
                    kind: Kind::String(text.into()),
                    span: next.span,
                })
            }
            Token::LParen => {
                self.bump();
                self.enter()?;
                let inner = self.logic()?;
                self.depth -= 1;
                let end = self.expect(Token::RParen, "`)` closing the sub-expression")?;
                Ok(Node {
                    kind: inner.kind,
                    span: next.span.to(end),
                })
            }
            Token::Word => self.word(next.span),
            _ => Err(self.unexpected("an expression")),
        }
    }

    fn word(&mut self, span: Span) -> Result<Node, ParseError> {
        let text = self.text(span);
        if self.peek_at(1).token == Token::LParen {
            return self.call(span, text);
        }
        if text.eq_ignore_ascii_case("true") || text.eq_ignore_ascii_case("false") {
            self.bump();
            return Ok(Node {
                kind: Kind::Boolean(text.eq_ignore_ascii_case("true")),
                span,
            });
        }
        if text.eq_ignore_ascii_case("EXISTS") {
            self.bump();
            let name = self.peek().clone();
            if name.token != Token::Word || self.is_reserved(self.text(name.span)) {
                return Err(self.unexpected("an attribute name after EXISTS"));
            }
            let attribute = self.attribute(name.span)?;
            self.bump();
            return Ok(Node {
                kind: Kind::Exists(attribute),
                span: span.to(name.span),
            });
        }
        if self.is_reserved(text) {
            return Err(self.unexpected("an expression"));
        }
        let attribute = self.attribute(span)?;
        self.bump();
        Ok(Node {
            kind: Kind::Attribute(attribute),
            span,
        })
    }

    fn is_reserved(&self, word: &str) -> bool {
        [
            "AND", "OR", "XOR", "NOT", "LIKE", "IN", "EXISTS", "TRUE", "FALSE",
        ]
        .iter()
        .any(|k| word.eq_ignore_ascii_case(k))
    }

    /// A value identifier (CESQL v1 2.2: the attribute naming convention, `[a-z0-9]`; the
    /// letters are read case-insensitively, as the TCK's `EXISTS SOURCE` asks).
    fn attribute(&self, span: Span) -> Result<crate::AttributeName, ParseError> {
        let text = self.text(span);
        if text.contains('_') {
            return Err(ParseError::new(
                span,
                format!(
                    "`{text}` is not an attribute name: only letters and digits (CESQL v1 2.2); a function call needs `(`"
                ),
            ));
        }
        Ok(crate::AttributeName::new(&text.to_ascii_lowercase()))
    }

    fn call(&mut self, name_span: Span, text: &str) -> Result<Node, ParseError> {
        if !text.as_bytes()[0].is_ascii_alphabetic() || text.bytes().any(|b| b.is_ascii_digit()) {
            return Err(ParseError::new(
                name_span,
                format!(
                    "`{text}` is not a function name: a letter, then letters and `_` (CESQL v1 2.4)"
                ),
            ));
        }
        self.bump();
        self.bump();
        let mut args = Vec::new();
        if self.peek().token != Token::RParen {
            loop {
                self.enter()?;
                args.push(self.logic()?);
                self.depth -= 1;
                if self.peek().token == Token::Comma {
                    self.bump();
                } else {
                    break;
                }
            }
        }
        let end = self.expect(Token::RParen, "`,` or `)` closing the argument list")?;
        let name: Box<str> = text.to_ascii_uppercase().into();
        let callee = self.functions.resolve(&name, args.len()).map(Arc::clone);
        Ok(Node {
            kind: Kind::Call {
                name,
                name_span,
                args,
                callee,
            },
            span: name_span.to(end),
        })
    }
}
