//! A reader for the part of the proto3 language an event payload needs: `syntax`, `package`,
//! file `option`s, top-level `message`s of scalar, string, bytes, enum and message fields
//! (`repeated`, `optional`), `reserved`, and top-level `enum`s. Everything else (imports,
//! nested declarations, `oneof`, `map`, field options, services, proto2) is refused by name,
//! so a file is never half-read: such a file is compiled with `prost-build` by its owner (see
//! the crate's README).

use std::fmt;

/// A `.proto` file as codegen understands it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct ProtoSchema {
    /// The `package`, empty when the file has none.
    pub package: String,
    /// The top-level messages, in file order.
    pub messages: Vec<ProtoMessage>,
    /// The top-level enums, in file order.
    pub enums: Vec<ProtoEnum>,
}

/// One `message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProtoMessage {
    /// Its name, as written.
    pub name: String,
    /// Its fields, in file order.
    pub fields: Vec<ProtoField>,
    /// Its `reserved` field numbers and names, which no later version may use again.
    pub reserved: Reserved,
}

/// The `reserved` statements of a message or an enum.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Reserved {
    /// Inclusive ranges of numbers (`reserved 2, 9 to 11;`; `max` is the largest number).
    pub numbers: Vec<(i64, i64)>,
    /// Names (`reserved "foo";`).
    pub names: Vec<String>,
}

/// One field of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProtoField {
    /// The field's name, as written.
    pub name: String,
    /// The type as written: a scalar keyword, or a message or enum name.
    pub type_name: String,
    /// `repeated`, `optional` or neither.
    pub label: Label,
    /// The field number.
    pub tag: u32,
    /// The line it starts on, for findings.
    pub line: usize,
}

/// A field's label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Label {
    /// No label: proto3's implicit presence.
    Singular,
    /// `optional`: explicit presence.
    Optional,
    /// `repeated`.
    Repeated,
}

/// One top-level `enum`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProtoEnum {
    /// Its name, as written.
    pub name: String,
    /// `(value name, number)`, in file order.
    pub values: Vec<(String, i32)>,
    /// Its `reserved` numbers and names.
    pub reserved: Reserved,
}

/// Why a `.proto` text was refused: the line and what was found there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParseError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Text(String),
    Symbol(char),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Word(w) => write!(f, "`{w}`"),
            Token::Text(t) => write!(f, "\"{t}\""),
            Token::Symbol(c) => write!(f, "`{c}`"),
        }
    }
}

const UNSUPPORTED: &str = "codegen reads proto3 files of top-level messages and enums; compile this file with prost-build and declare the event on its message yourself";

fn tokens(text: &str) -> Result<Vec<(Token, usize)>, ParseError> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            c if c.is_whitespace() => {}
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let start = line;
                let mut previous = ' ';
                loop {
                    match chars.next() {
                        Some('/') if previous == '*' => break,
                        Some(c) => {
                            if c == '\n' {
                                line += 1;
                            }
                            previous = c;
                        }
                        None => {
                            return Err(ParseError {
                                line: start,
                                message: "a `/*` comment is never closed".into(),
                            });
                        }
                    }
                }
            }
            '"' | '\'' => {
                let mut text = String::new();
                loop {
                    match chars.next() {
                        Some(end) if end == c => break,
                        Some('\n') | None => {
                            return Err(ParseError {
                                line,
                                message: "a string is never closed".into(),
                            });
                        }
                        Some(other) => text.push(other),
                    }
                }
                out.push((Token::Text(text), line));
            }
            c if c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-' => {
                let mut word = String::from(c);
                while let Some(&next) = chars.peek() {
                    if next.is_ascii_alphanumeric() || next == '_' || next == '.' {
                        word.push(next);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push((Token::Word(word), line));
            }
            c => out.push((Token::Symbol(c), line)),
        }
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<(Token, usize)>,
    at: usize,
}

impl Parser {
    fn line(&self) -> usize {
        self.tokens
            .get(self.at)
            .or_else(|| self.tokens.last())
            .map_or(1, |(_, line)| *line)
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line(),
            message: message.into(),
        }
    }

    fn next(&mut self, expected: &str) -> Result<Token, ParseError> {
        let token = self
            .tokens
            .get(self.at)
            .map(|(t, _)| t.clone())
            .ok_or_else(|| self.error(format!("the file ends where {expected} was expected")))?;
        self.at += 1;
        Ok(token)
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at).map(|(t, _)| t)
    }

    fn word(&mut self, expected: &str) -> Result<String, ParseError> {
        match self.next(expected)? {
            Token::Word(w) => Ok(w),
            other => {
                self.at -= 1;
                Err(self.error(format!("expected {expected}, found {other}")))
            }
        }
    }

    fn symbol(&mut self, symbol: char) -> Result<(), ParseError> {
        match self.next(&format!("`{symbol}`"))? {
            Token::Symbol(c) if c == symbol => Ok(()),
            other => {
                self.at -= 1;
                Err(self.error(format!("expected `{symbol}`, found {other}")))
            }
        }
    }

    fn number(&mut self, what: &str) -> Result<i64, ParseError> {
        let word = self.word(what)?;
        word.parse::<i64>().map_err(|_| {
            self.at -= 1;
            self.error(format!("expected {what}, found `{word}`"))
        })
    }

    /// Skips a constant up to the `;` that ends an `option` statement.
    fn skip_statement(&mut self) -> Result<(), ParseError> {
        loop {
            if self.next("`;`")? == Token::Symbol(';') {
                return Ok(());
            }
        }
    }
}

/// Reads a `.proto` text.
///
/// # Errors
/// The first construct outside the supported subset, or a syntax error, with its line.
pub(crate) fn parse(text: &str) -> Result<ProtoSchema, ParseError> {
    let mut parser = Parser {
        tokens: tokens(text)?,
        at: 0,
    };
    let mut schema = ProtoSchema::default();
    let mut syntax = false;
    while parser.peek().is_some() {
        let keyword = parser.word("a declaration")?;
        match keyword.as_str() {
            "syntax" => {
                parser.symbol('=')?;
                match parser.next("a syntax name")? {
                    Token::Text(t) if t == "proto3" => syntax = true,
                    other => {
                        parser.at -= 1;
                        return Err(parser.error(format!(
                            "syntax {other}: only \"proto3\" is read; {UNSUPPORTED}"
                        )));
                    }
                }
                parser.symbol(';')?;
            }
            "package" => {
                schema.package = parser.word("a package name")?;
                parser.symbol(';')?;
            }
            "option" => parser.skip_statement()?,
            "message" => schema.messages.push(message(&mut parser)?),
            "enum" => schema.enums.push(enumeration(&mut parser)?),
            other => {
                parser.at -= 1;
                return Err(parser.error(format!("`{other}` is not supported; {UNSUPPORTED}")));
            }
        }
    }
    if !syntax {
        return Err(ParseError {
            line: 1,
            message: "`syntax = \"proto3\";` is missing (without it a file is proto2)".into(),
        });
    }
    Ok(schema)
}

const NESTED: [&str; 6] = ["message", "enum", "oneof", "map", "extensions", "extend"];

fn message(parser: &mut Parser) -> Result<ProtoMessage, ParseError> {
    let name = parser.word("a message name")?;
    parser.symbol('{')?;
    let mut fields = Vec::new();
    let mut reserved = Reserved::default();
    loop {
        let line = parser.line();
        match parser.next("a field or `}`")? {
            Token::Symbol('}') => break,
            Token::Symbol(';') => {}
            Token::Word(w) if w == "reserved" => {
                reserved_statement(parser, &mut reserved, 536_870_911)?
            }
            Token::Word(w) if w == "option" => parser.skip_statement()?,
            Token::Word(w) if NESTED.contains(&w.as_str()) || w.starts_with("map") => {
                parser.at -= 1;
                return Err(parser.error(format!(
                    "`{w}` inside message `{name}` is not supported; {UNSUPPORTED}"
                )));
            }
            Token::Word(first) => {
                let (label, type_name) = match first.as_str() {
                    "repeated" => (Label::Repeated, parser.word("a field type")?),
                    "optional" => (Label::Optional, parser.word("a field type")?),
                    "required" => {
                        parser.at -= 1;
                        return Err(parser.error("`required` is proto2; only proto3 is read"));
                    }
                    _ => (Label::Singular, first),
                };
                let field_name = parser.word("a field name")?;
                parser.symbol('=')?;
                let tag = parser.number("a field number")?;
                if parser.peek() == Some(&Token::Symbol('[')) {
                    return Err(parser.error(format!(
                        "field options on `{name}.{field_name}` are not supported; {UNSUPPORTED}"
                    )));
                }
                parser.symbol(';')?;
                let tag = u32::try_from(tag)
                    .ok()
                    .filter(|t| (1..=536_870_911).contains(t) && !(19_000..=19_999).contains(t))
                    .ok_or_else(|| ParseError {
                        line,
                        message: format!(
                            "field `{name}.{field_name}` has number {tag}: field numbers are 1 to 536870911, without 19000-19999"
                        ),
                    })?;
                fields.push(ProtoField {
                    name: field_name,
                    type_name,
                    label,
                    tag,
                    line,
                });
            }
            other => {
                parser.at -= 1;
                return Err(parser.error(format!("expected a field of `{name}`, found {other}")));
            }
        }
    }
    Ok(ProtoMessage {
        name,
        fields,
        reserved,
    })
}

fn enumeration(parser: &mut Parser) -> Result<ProtoEnum, ParseError> {
    let name = parser.word("an enum name")?;
    parser.symbol('{')?;
    let mut values = Vec::new();
    let mut reserved = Reserved::default();
    loop {
        match parser.next("an enum value or `}`")? {
            Token::Symbol('}') => break,
            Token::Symbol(';') => {}
            Token::Word(w) if w == "reserved" => {
                reserved_statement(parser, &mut reserved, i64::from(i32::MAX))?;
            }
            Token::Word(w) if w == "option" => parser.skip_statement()?,
            Token::Word(value) => {
                parser.symbol('=')?;
                let number = parser.number("an enum number")?;
                let number = i32::try_from(number).map_err(|_| {
                    parser.error(format!("enum value `{value}` = {number} is outside int32"))
                })?;
                if parser.peek() == Some(&Token::Symbol('[')) {
                    return Err(parser.error(format!(
                        "options on enum value `{value}` are not supported; {UNSUPPORTED}"
                    )));
                }
                parser.symbol(';')?;
                values.push((value, number));
            }
            other => {
                parser.at -= 1;
                return Err(parser.error(format!("expected a value of `{name}`, found {other}")));
            }
        }
    }
    if values.first().map(|(_, n)| *n) != Some(0) {
        return Err(parser.error(format!(
            "enum `{name}`: the first value must be 0 in proto3"
        )));
    }
    Ok(ProtoEnum {
        name,
        values,
        reserved,
    })
}

/// The rest of a `reserved` statement: numbers and ranges (`2, 9 to 11, 20 to max`) or
/// quoted names (proto3), up to its `;`. `max` is `largest`.
fn reserved_statement(
    parser: &mut Parser,
    reserved: &mut Reserved,
    largest: i64,
) -> Result<(), ParseError> {
    loop {
        match parser.next("a reserved number or name")? {
            Token::Text(name) => reserved.names.push(name),
            Token::Word(_) => {
                parser.at -= 1;
                let low = parser.number("a reserved number")?;
                let high = if parser.peek() == Some(&Token::Word("to".into())) {
                    parser.at += 1;
                    if parser.peek() == Some(&Token::Word("max".into())) {
                        parser.at += 1;
                        largest
                    } else {
                        parser.number("the end of a reserved range")?
                    }
                } else {
                    low
                };
                if high < low {
                    return Err(parser.error(format!("reserved range {low} to {high} is empty")));
                }
                reserved.numbers.push((low, high));
            }
            other => {
                parser.at -= 1;
                return Err(
                    parser.error(format!("expected a reserved number or name, found {other}"))
                );
            }
        }
        match parser.next("`,` or `;`")? {
            Token::Symbol(',') => {}
            Token::Symbol(';') => return Ok(()),
            other => {
                parser.at -= 1;
                return Err(
                    parser.error(format!("expected `,` or `;` in `reserved`, found {other}"))
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_messages_enums_and_labels() {
        let schema = parse(
            "syntax = \"proto3\";\npackage example.v1;\noption java_package = \"x\";\n\
             // a comment\nenum Size { SIZE_UNSPECIFIED = 0; SIZE_LARGE = 2; }\n\
             message Parcel { /* inline */ string id = 1; repeated uint32 weights = 2; optional Size size = 3; reserved 4, 5; }\n",
        )
        .unwrap();
        assert_eq!(schema.package, "example.v1");
        assert_eq!(schema.enums[0].values[1], ("SIZE_LARGE".into(), 2));
        let fields = &schema.messages[0].fields;
        assert_eq!(fields.len(), 3);
        assert_eq!(fields[1].label, Label::Repeated);
        assert_eq!(fields[2].label, Label::Optional);
        assert_eq!(fields[2].line, 6);
        assert_eq!(schema.messages[0].reserved.numbers, [(4, 4), (5, 5)]);
    }

    #[test]
    fn reads_reserved_numbers_ranges_and_names() {
        let schema = parse(
            "syntax = \"proto3\";\nenum E { E_A = 0; reserved 2, 5 to 7; reserved \"E_OLD\"; }\n\
             message M { reserved 3, 9 to 11, 100 to max; reserved \"gone\", \"older\"; }\n",
        )
        .unwrap();
        let m = &schema.messages[0].reserved;
        assert_eq!(m.numbers, [(3, 3), (9, 11), (100, 536_870_911)]);
        assert_eq!(m.names, ["gone", "older"]);
        let e = &schema.enums[0].reserved;
        assert_eq!(e.numbers, [(2, 2), (5, 7)]);
        assert_eq!(e.names, ["E_OLD"]);
        let err = parse("syntax = \"proto3\";\nmessage M { reserved 5 to 2; }").unwrap_err();
        assert!(err.message.contains("empty"), "{err}");
    }

    #[test]
    fn refuses_what_it_cannot_read_by_name_and_line() {
        let cases = [
            ("syntax = \"proto2\";", 1, "proto3"),
            ("syntax = \"proto3\";\nimport \"x.proto\";", 2, "`import`"),
            (
                "syntax = \"proto3\";\nmessage A {\n oneof x { string a = 1; } }",
                3,
                "`oneof`",
            ),
            (
                "syntax = \"proto3\";\nmessage A { map<string, string> m = 1; }",
                2,
                "`map",
            ),
            (
                "syntax = \"proto3\";\nmessage A { string a = 1 [deprecated = true]; }",
                2,
                "field options",
            ),
            (
                "syntax = \"proto3\";\nmessage A { string a = 0; }",
                2,
                "field numbers",
            ),
            (
                "syntax = \"proto3\";\nmessage A { string a = 19500; }",
                2,
                "19000",
            ),
            ("syntax = \"proto3\";\nenum E { A = 1; }", 2, "must be 0"),
            ("message A {}", 1, "syntax"),
            ("syntax = \"proto3\";\nmessage A { string a = 1;", 2, "ends"),
            ("syntax = \"proto3\";\n/* open", 2, "never closed"),
        ];
        for (text, line, needle) in cases {
            let err = parse(text).unwrap_err();
            assert_eq!(err.line, line, "{text}: {err}");
            assert!(err.message.contains(needle), "{text}: {err}");
        }
    }
}
