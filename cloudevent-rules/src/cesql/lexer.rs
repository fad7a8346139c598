//! The CESQL lexer (CESQL v1 section 2): every token with its byte span in the source, so a
//! parse error points at the token that broke it.

use super::{ParseError, Span};

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Token {
    /// Digits only, without a sign (the sign is the unary `-`; the parser folds it into the
    /// literal so `-2147483648` is in range).
    Digits,
    /// A string literal, its escapes resolved.
    Str(String),
    /// A run of `[A-Za-z0-9_]`: a keyword, a boolean, a value identifier or a function name;
    /// the parser decides by what follows.
    Word,
    LParen,
    RParen,
    Comma,
    Star,
    Slash,
    Percent,
    Plus,
    Minus,
    Eq,
    NotEq,
    /// `<>`.
    Diamond,
    Less,
    LessEq,
    Greater,
    GreaterEq,
    End,
}

impl Token {
    /// How a message names the token.
    pub(crate) fn describe(&self, text: &str) -> String {
        match self {
            Token::End => "the end of the expression".to_owned(),
            Token::Str(_) => format!("string literal {text}"),
            Token::Digits => format!("integer `{text}`"),
            _ => format!("`{text}`"),
        }
    }
}

/// A token and where it is.
#[derive(Debug, Clone)]
pub(crate) struct Spanned {
    pub(crate) token: Token,
    pub(crate) span: Span,
}

/// Reads `source` one token at a time, then [`Token::End`] for ever. The parser asks for
/// tokens as it needs them: 10 MB of `(` is refused at the depth limit after 65 tokens,
/// where a list of every token first took 403 MB (issue 38).
pub(crate) struct Lexer<'s> {
    source: &'s str,
    at: usize,
}

impl<'s> Lexer<'s> {
    pub(crate) fn new(source: &'s str) -> Lexer<'s> {
        Lexer { source, at: 0 }
    }

    /// Whether every token of `source` reads: the lexer's errors come before the parser's,
    /// as when the whole input was split first. Holds one token at a time.
    pub(crate) fn check(source: &str) -> Result<(), ParseError> {
        let mut lexer = Lexer::new(source);
        while lexer.next_token()?.token != Token::End {}
        Ok(())
    }

    pub(crate) fn next_token(&mut self) -> Result<Spanned, ParseError> {
        let source = self.source;
        let bytes = source.as_bytes();
        let mut at = self.at;
        while at < bytes.len() && matches!(bytes[at], b' ' | b'\t' | b'\r' | b'\n') {
            at += 1;
        }
        if at == bytes.len() {
            self.at = at;
            return Ok(Spanned {
                token: Token::End,
                span: Span::new(at, at),
            });
        }
        let start = at;
        let b = bytes[at];
        let token = match b {
            b'(' => single(&mut at, Token::LParen),
            b')' => single(&mut at, Token::RParen),
            b',' => single(&mut at, Token::Comma),
            b'*' => single(&mut at, Token::Star),
            b'/' => single(&mut at, Token::Slash),
            b'%' => single(&mut at, Token::Percent),
            b'+' => single(&mut at, Token::Plus),
            b'-' => single(&mut at, Token::Minus),
            b'=' => single(&mut at, Token::Eq),
            b'!' if bytes.get(at + 1) == Some(&b'=') => {
                at += 2;
                Token::NotEq
            }
            b'<' => match bytes.get(at + 1) {
                Some(b'>') => {
                    at += 2;
                    Token::Diamond
                }
                Some(b'=') => {
                    at += 2;
                    Token::LessEq
                }
                _ => single(&mut at, Token::Less),
            },
            b'>' => {
                if bytes.get(at + 1) == Some(&b'=') {
                    at += 2;
                    Token::GreaterEq
                } else {
                    single(&mut at, Token::Greater)
                }
            }
            b'\'' | b'"' => string(source, &mut at)?,
            b if b.is_ascii_alphanumeric() || b == b'_' => {
                while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
                    at += 1;
                }
                if bytes[start..at].iter().all(u8::is_ascii_digit) {
                    Token::Digits
                } else {
                    Token::Word
                }
            }
            _ => {
                let c = source[at..].chars().next().unwrap_or('\u{FFFD}');
                return Err(ParseError::new(
                    Span::new(at, at + c.len_utf8()),
                    format!("unexpected character {c:?}"),
                ));
            }
        };
        self.at = at;
        Ok(Spanned {
            token,
            span: Span::new(start, at),
        })
    }
}

fn single(at: &mut usize, token: Token) -> Token {
    *at += 1;
    token
}

/// A `'...'` or `"..."` literal (CESQL v1 2.2): the delimiter is written `\'` (or `\"`) or
/// doubled inside; any other backslash stays as written, so a `LIKE` pattern keeps its `\%`
/// and `\_` escapes for the pattern to read.
fn string(source: &str, at: &mut usize) -> Result<Token, ParseError> {
    let start = *at;
    let quote = source.as_bytes()[start] as char;
    let mut text = String::new();
    let mut chars = source[start + 1..].char_indices().peekable();
    while let Some((offset, c)) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some((_, next)) if next == quote => text.push(quote),
                Some((_, next)) => {
                    text.push('\\');
                    text.push(next);
                }
                None => break,
            }
        } else if c == quote {
            if chars.peek().is_some_and(|&(_, next)| next == quote) {
                chars.next();
                text.push(quote);
            } else {
                *at = start + 1 + offset + 1;
                return Ok(Token::Str(text));
            }
        } else {
            text.push(c);
        }
    }
    Err(ParseError::new(
        Span::new(start, source.len()),
        format!("string literal opened with {quote} is never closed"),
    ))
}
