//! A data schema compiled, once per type when the registry is built, into a check that runs
//! on `data`'s JSON text while it is scanned: no tree, no allocation (issue 40, the registry
//! row). It answers one question: "is this text valid under the schema, with no object naming
//! a member twice?" Only its "yes" is taken. Anything else (invalid data, and every value it
//! does not decide itself) goes on to the borrowed tree and `jsonschema`, which give the
//! verdict and list the failures (`schema.rs`), so this check can make the registry faster but
//! never change what it decides.
//!
//! A schema compiles only when every keyword in it is one of: `type`, `enum` and `const` of
//! strings (and `oneOf`/`anyOf` of string `const`s, an `enum` documented value by value),
//! `minLength`, `maxLength`, `format` (`date-time`, with the registry's own check; the
//! other formats only where the draft makes them annotations, and the number formats of
//! schema generators, `uint32` and the like), `minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum` (integer bounds, drafts 6 and later), `items` (one
//! schema), `minItems`, `maxItems`, `uniqueItems: false`, `properties`, `required`,
//! `additionalProperties`, `minProperties`, `maxProperties`, `$ref` to `#`, `#/$defs/…` or
//! `#/definitions/…` (with annotations beside it only), boolean schemas, and the annotations
//! (`title`, `description`, `$comment`, `examples`, `default`, `deprecated`, `readOnly`,
//! `writeOnly`, `x-…`). Any other keyword, draft 4 or an unknown `$schema` give no check: the
//! registry uses the tree for that type, as before.
//!
//! While scanning, a value is left undecided (the tree decides) when deciding it would take
//! more than the text as written: a string with an escape where its text matters (`enum`,
//! lengths, `format`; a `\u` escape anywhere, a member name with an escape), a number that is
//! not an integer of up to 18 digits where its value or integer-ness matters, nesting deeper
//! than [`MAX_DEPTH`], or an object with more than [`MAX_OTHER`] members the schema does not
//! name. Every object's member names are compared as it is scanned, so a "yes" also means no
//! member is named twice: the profile's walk for repeated members (RFC 8259 4) is skipped
//! exactly as it is after the tree reads (`Validator::walk_members`).
//!
//! The tests hold its "yes" to `jsonschema`'s verdict: on this repository's registry schemas
//! with their data mutated member by member (`schema.rs`), and in `text_check/tests.rs` on the
//! JSON-Schema-Test-Suite's draft 7 and 2020-12 groups, on generated schemas and instances,
//! keyword by keyword, and on generated text with repeated and escaped member names.

use std::collections::HashMap;

use jsonschema::Draft;
use serde_json::{Map, Value};

use super::lex::Lex;
use super::schema::{OTHER_FORMATS, is_date_time};

/// Nesting deeper than this is left to the tree (which leaves it to the `Value` path).
const MAX_DEPTH: usize = 100;

/// Members one object may have that its schema does not name (compared with each other for
/// repeats); an object with more is left to the tree.
const MAX_OTHER: usize = 32;

/// Names one schema object may declare in `properties` and `required` together (a bit each).
const MAX_NAMES: usize = 64;

/// The `format`s schema generators write for Rust's number types (schemars: `"format":
/// "uint32"` beside `"minimum": 0`). `jsonschema` knows none of them, so under every draft
/// they assert nothing (`these_number_formats_assert_nothing` pins that).
pub(super) const NUMBER_FORMATS: [&str; 12] = [
    "int8", "int16", "int32", "int64", "int", "uint8", "uint16", "uint32", "uint64", "uint",
    "float", "double",
];

/// The JSON types, as bits of [`Check::types`].
const NULL: u8 = 1;
const BOOLEAN: u8 = 1 << 1;
const INTEGER: u8 = 1 << 2;
const NUMBER: u8 = 1 << 3;
const STRING: u8 = 1 << 4;
const ARRAY: u8 = 1 << 5;
const OBJECT: u8 = 1 << 6;
const ALL: u8 = (1 << 7) - 1;

/// The checks every program starts with: the schema `true` and the schema `false`.
const ANY: u32 = 0;
const NEVER: u32 = 1;

/// A schema compiled for [`TextCheck::accepts`].
#[derive(Debug)]
pub(crate) struct TextCheck {
    checks: Vec<Check>,
    root: u32,
}

/// One schema object: what a value must be. The defaults (`Check::any`) accept every value.
#[derive(Debug)]
struct Check {
    types: u8,
    /// `enum` or `const`: the strings a value may be (then only a string is valid).
    strings: Option<Box<[Box<str>]>>,
    min_length: usize,
    max_length: usize,
    date_time: bool,
    /// Integer bounds, each with whether it is exclusive.
    minimum: Vec<(i128, bool)>,
    maximum: Vec<(i128, bool)>,
    items: u32,
    min_items: usize,
    max_items: usize,
    /// The names of `properties` and `required`, each with its check (a name only
    /// `required` gives has `additional`'s).
    names: Box<[(Box<str>, u32)]>,
    /// The bits of `names` that are required.
    required: u64,
    additional: u32,
    min_properties: usize,
    max_properties: usize,
}

impl Check {
    fn any() -> Self {
        Check {
            types: ALL,
            strings: None,
            min_length: 0,
            max_length: usize::MAX,
            date_time: false,
            minimum: Vec::new(),
            maximum: Vec::new(),
            items: ANY,
            min_items: 0,
            max_items: usize::MAX,
            names: Box::default(),
            required: 0,
            additional: ANY,
            min_properties: 0,
            max_properties: usize::MAX,
        }
    }

    fn never() -> Self {
        Check {
            types: 0,
            ..Check::any()
        }
    }

    /// Whether a value of JSON type `kind` can be valid here.
    fn allows(&self, kind: u8) -> Option<()> {
        (self.types & kind != 0 && (self.strings.is_none() || kind == STRING)).then_some(())
    }

    /// Whether a string's text takes part in the check.
    fn reads_text(&self) -> bool {
        self.strings.is_some()
            || self.min_length > 0
            || self.max_length < usize::MAX
            || self.date_time
    }
}

impl TextCheck {
    /// `schema` compiled, or `None` when it has a keyword or draft outside the module's list.
    pub(crate) fn compile(schema: &Value) -> Option<TextCheck> {
        let modern = match Draft::default().detect(schema) {
            Draft::Draft201909 | Draft::Draft202012 => true,
            Draft::Draft6 | Draft::Draft7 => false,
            _ => return None,
        };
        let mut compiler = Compiler {
            root: schema,
            modern,
            checks: vec![Check::any(), Check::never()],
            refs: HashMap::new(),
        };
        let root = match schema {
            Value::Bool(true) => ANY,
            Value::Bool(false) => NEVER,
            Value::Object(members) if !members.contains_key("$ref") => {
                compiler.refs.insert("#", compiler.next());
                compiler.object(members, true)?
            }
            _ => return None,
        };
        Some(TextCheck {
            checks: compiler.checks,
            root,
        })
    }

    /// Whether `text` is valid under the schema and names no member of an object twice;
    /// `false` also when this check leaves it undecided (see the module docs).
    pub(crate) fn accepts(&self, text: &str) -> bool {
        let mut scan = Scan {
            text,
            at: 0,
            checks: &self.checks,
            others: Vec::new(),
        };
        scan.value(self.root, MAX_DEPTH).is_some() && {
            scan.skip_blanks();
            scan.at == text.len()
        }
    }
}

/// Compiles the schema objects reached from the root.
struct Compiler<'s> {
    root: &'s Value,
    /// Draft 2019-09 or 2020-12 (formats other than `date-time` are annotations).
    modern: bool,
    checks: Vec<Check>,
    /// `$ref` targets compiled so far (a recursive schema refers back to its own check).
    refs: HashMap<&'s str, u32>,
}

impl<'s> Compiler<'s> {
    /// The check of a subschema.
    fn schema(&mut self, schema: &'s Value) -> Option<u32> {
        match schema {
            Value::Bool(true) => Some(ANY),
            Value::Bool(false) => Some(NEVER),
            Value::Object(members) => match members.get("$ref") {
                Some(reference) => {
                    let only_annotations =
                        members.keys().all(|key| key == "$ref" || annotation(key));
                    only_annotations.then_some(())?;
                    self.reference(reference.as_str()?)
                }
                None => self.object(members, false),
            },
            _ => None,
        }
    }

    /// The check a local `$ref` names: `#`, `#/$defs/NAME` or `#/definitions/NAME`.
    fn reference(&mut self, reference: &'s str) -> Option<u32> {
        if let Some(&check) = self.refs.get(reference) {
            return Some(check);
        }
        let mut parts = reference.strip_prefix("#/")?.split('/');
        let (container, name) = (parts.next()?, parts.next()?);
        let plain = |name: &str| {
            !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        };
        if parts.next().is_some() || !matches!(container, "$defs" | "definitions") || !plain(name) {
            return None;
        }
        let target = self.root.get(container)?.get(name)?;
        match target {
            Value::Bool(true) => Some(ANY),
            Value::Bool(false) => Some(NEVER),
            Value::Object(members) if !members.contains_key("$ref") => {
                // Known before it is compiled, so a reference back to it inside it resolves.
                self.refs.insert(reference, self.next());
                self.object(members, false)
            }
            _ => None,
        }
    }

    /// The index the next compiled object gets.
    fn next(&self) -> u32 {
        u32::try_from(self.checks.len()).unwrap_or(u32::MAX)
    }

    /// Compiles a schema object without `$ref`; its check's index is [`Self::next`] as it
    /// starts.
    fn object(&mut self, members: &'s Map<String, Value>, root: bool) -> Option<u32> {
        let index = self.next();
        self.checks.push(Check::any());
        let mut check = Check::any();
        let mut properties: Vec<(Box<str>, u32)> = Vec::new();
        let mut required: Vec<&str> = Vec::new();
        for (key, value) in members {
            match key.as_str() {
                "type" => check.types = types(value)?,
                "enum" => {
                    check.strings.is_none().then_some(())?;
                    let strings = value.as_array()?.iter().map(|v| v.as_str().map(Box::from));
                    check.strings = Some(strings.collect::<Option<_>>()?);
                }
                "const" => {
                    check.strings.is_none().then_some(())?;
                    check.strings = Some(Box::new([Box::from(value.as_str()?)]));
                }
                "oneOf" | "anyOf" => {
                    check.strings.is_none().then_some(())?;
                    check.strings = Some(documented_enum(value, key == "oneOf")?);
                }
                "minLength" => check.min_length = count(value)?,
                "maxLength" => check.max_length = count(value)?,
                "format" => match value.as_str()? {
                    "date-time" => check.date_time = true,
                    format if self.modern && OTHER_FORMATS.contains(&format) => {}
                    format if NUMBER_FORMATS.contains(&format) => {}
                    _ => return None,
                },
                "minimum" => check.minimum.push((bound(value)?, false)),
                "exclusiveMinimum" => check.minimum.push((bound(value)?, true)),
                "maximum" => check.maximum.push((bound(value)?, false)),
                "exclusiveMaximum" => check.maximum.push((bound(value)?, true)),
                "items" => check.items = self.schema(value)?,
                "minItems" => check.min_items = count(value)?,
                "maxItems" => check.max_items = count(value)?,
                "uniqueItems" => (value == &Value::Bool(false)).then_some(())?,
                "properties" => {
                    for (name, schema) in value.as_object()? {
                        properties.push((Box::from(name.as_str()), self.schema(schema)?));
                    }
                }
                "required" => {
                    for name in value.as_array()? {
                        required.push(name.as_str()?);
                    }
                }
                "additionalProperties" => check.additional = self.schema(value)?,
                "minProperties" => check.min_properties = count(value)?,
                "maxProperties" => check.max_properties = count(value)?,
                // Reached through `$ref` only.
                "$defs" | "definitions" => {}
                "$schema" | "$id" if root => {}
                key if annotation(key) => {}
                _ => return None,
            }
        }
        // A required name that `properties` does not declare is an additional member.
        for name in required {
            if !properties.iter().any(|(declared, _)| **declared == *name) {
                properties.push((Box::from(name), check.additional));
            }
        }
        // A declared name is compared with the text as written (`Scan::declared`).
        let plain = |name: &str| !name.bytes().any(|b| matches!(b, b'"' | b'\\' | 0..=0x1f));
        (properties.len() <= MAX_NAMES && properties.iter().all(|(name, _)| plain(name)))
            .then_some(())?;
        for name in members
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let position = properties
                .iter()
                .position(|(declared, _)| Some(&**declared) == name.as_str())?;
            check.required |= 1 << position;
        }
        check.names = properties.into_boxed_slice();
        *self.checks.get_mut(index as usize)? = check;
        Some(index)
    }
}

/// `oneOf` or `anyOf` whose every branch is a string `const` (with `type: "string"` and
/// annotations at most): an `enum` whose values are documented one by one, the form schema
/// generators write. Under `oneOf` a value two branches name would match both, so is never
/// valid: such a list gets no check.
fn documented_enum(branches: &Value, one: bool) -> Option<Box<[Box<str>]>> {
    let mut strings: Vec<Box<str>> = Vec::new();
    for branch in branches.as_array()? {
        let mut constant = None;
        for (key, value) in branch.as_object()? {
            match key.as_str() {
                "const" => constant = Some(value.as_str()?),
                "type" if value == "string" => {}
                key if annotation(key) => {}
                _ => return None,
            }
        }
        let constant = constant?;
        if strings.iter().any(|s| **s == *constant) {
            (!one).then_some(())?;
        } else {
            strings.push(Box::from(constant));
        }
    }
    Some(strings.into_boxed_slice())
}

/// Keywords that assert nothing.
fn annotation(key: &str) -> bool {
    matches!(
        key,
        "title"
            | "description"
            | "$comment"
            | "examples"
            | "default"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
    ) || key.starts_with("x-")
}

/// `type`: one name or a list of names.
fn types(value: &Value) -> Option<u8> {
    let bit = |name: &Value| match name.as_str()? {
        "null" => Some(NULL),
        "boolean" => Some(BOOLEAN),
        "integer" => Some(INTEGER),
        // A JSON number whose value is an integer is a `number` too.
        "number" => Some(NUMBER | INTEGER),
        "string" => Some(STRING),
        "array" => Some(ARRAY),
        "object" => Some(OBJECT),
        _ => None,
    };
    match value {
        Value::Array(names) => names
            .iter()
            .try_fold(0, |bits, name| Some(bits | bit(name)?)),
        name => bit(name),
    }
}

/// A count keyword (`minLength`, `maxItems`, ...): a non-negative integer.
fn count(value: &Value) -> Option<usize> {
    usize::try_from(value.as_u64()?).ok()
}

/// A bound keyword, when it is an integer.
fn bound(value: &Value) -> Option<i128> {
    value
        .as_i64()
        .map(i128::from)
        .or_else(|| value.as_u64().map(i128::from))
}

/// A string as it is written between its quotes.
enum Text<'a> {
    Plain(&'a str),
    /// With `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r` or `\t` in it.
    Escaped,
}

/// The scan of one `data` text against a compiled schema.
struct Scan<'a> {
    text: &'a str,
    at: usize,
    checks: &'a [Check],
    /// The member names of the open objects that their schemas do not declare, compared
    /// for repeats; allocated only when there is one.
    others: Vec<&'a str>,
}

impl<'a> Lex<'a> for Scan<'a> {
    fn text(&self) -> &'a str {
        self.text
    }

    fn at(&mut self) -> &mut usize {
        &mut self.at
    }
}

impl<'a> Scan<'a> {
    fn value(&mut self, check: u32, depth: usize) -> Option<()> {
        let check = self.checks.get(check as usize)?;
        self.skip_blanks();
        match self.peek()? {
            b'"' => {
                check.allows(STRING)?;
                self.string_value(check)
            }
            b'{' => {
                check.allows(OBJECT)?;
                self.object(check, depth.checked_sub(1)?)
            }
            b'[' => {
                check.allows(ARRAY)?;
                self.array(check, depth.checked_sub(1)?)
            }
            b't' => {
                check.allows(BOOLEAN)?;
                self.literal("true")
            }
            b'f' => {
                check.allows(BOOLEAN)?;
                self.literal("false")
            }
            b'n' => {
                check.allows(NULL)?;
                self.literal("null")
            }
            b'-' | b'0'..=b'9' => self.number_value(check),
            _ => None,
        }
    }

    /// The string at `"`, stepped over.
    fn string(&mut self) -> Option<Text<'a>> {
        let bytes = self.text.as_bytes();
        let start = self.at + 1;
        let mut at = cloudevent_rules::json_plain_run(bytes, start);
        let mut escaped = false;
        loop {
            match *bytes.get(at)? {
                b'"' => break,
                b'\\' => {
                    // `\u` (and a surrogate pair's halves) is left to serde_json.
                    bytes
                        .get(at + 1)
                        .is_some_and(|b| {
                            matches!(b, b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't')
                        })
                        .then_some(())?;
                    escaped = true;
                    at += 2;
                }
                0..=0x1f => return None,
                _ => at += 1,
            }
        }
        self.at = at + 1;
        if escaped {
            Some(Text::Escaped)
        } else {
            self.text.get(start..at).map(Text::Plain)
        }
    }

    fn string_value(&mut self, check: &Check) -> Option<()> {
        let text = match self.string()? {
            Text::Plain(text) => text,
            Text::Escaped if check.reads_text() => return None,
            Text::Escaped => return Some(()),
        };
        if let Some(strings) = &check.strings {
            strings.iter().any(|s| **s == *text).then_some(())?;
        }
        if check.min_length > 0 || check.max_length < usize::MAX {
            let length = text.chars().count();
            (check.min_length <= length && length <= check.max_length).then_some(())?;
        }
        if check.date_time {
            is_date_time(text).then_some(())?;
        }
        Some(())
    }

    /// A number: decided when it is an integer of up to 18 digits (its value read here), or,
    /// where neither its value nor its integer-ness matters, any finite number.
    fn number_value(&mut self, check: &Check) -> Option<()> {
        let (integer, text) = self.number();
        let Some(value) = integer else {
            // Not a short integer: valid only as a `number` nothing bounds, and only when
            // serde_json reads it (a finite double).
            check.allows(NUMBER)?;
            let finite = text.parse::<f64>().is_ok_and(f64::is_finite);
            let grammar = json_number(text.as_bytes());
            return (finite && grammar && check.minimum.is_empty() && check.maximum.is_empty())
                .then_some(());
        };
        check.allows(INTEGER)?;
        let value = i128::from(value);
        let above = check.minimum.iter().all(|&(bound, exclusive)| {
            if exclusive {
                value > bound
            } else {
                value >= bound
            }
        });
        let below = check.maximum.iter().all(|&(bound, exclusive)| {
            if exclusive {
                value < bound
            } else {
                value <= bound
            }
        });
        (above && below).then_some(())
    }

    fn array(&mut self, check: &Check, depth: usize) -> Option<()> {
        self.at += 1;
        self.skip_blanks();
        let mut count = 0;
        if self.peek()? == b']' {
            self.at += 1;
        } else {
            loop {
                self.value(check.items, depth)?;
                count += 1;
                self.skip_blanks();
                match self.peek()? {
                    b',' => self.at += 1,
                    b']' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        (check.min_items <= count && count <= check.max_items).then_some(())
    }

    fn object(&mut self, check: &Check, depth: usize) -> Option<()> {
        self.at += 1;
        self.skip_blanks();
        let mut seen = 0_u64;
        // The names this object gives that its schema does not: `others[base..]`.
        let base = self.others.len();
        let mut count = 0;
        // Members are usually written in the schema's order: the name after the last one
        // found is tried first.
        let mut next = 0;
        if self.peek()? == b'}' {
            self.at += 1;
        } else {
            loop {
                self.skip_blanks();
                if self.peek()? != b'"' {
                    return None;
                }
                let member = match self.declared(check, next) {
                    Some(position) => {
                        let bit = 1_u64 << position;
                        (seen & bit == 0).then_some(())?;
                        seen |= bit;
                        next = position + 1;
                        check.names[position].1
                    }
                    None => {
                        let Text::Plain(name) = self.string()? else {
                            return None;
                        };
                        let known = self.others.get(base..)?;
                        (known.len() < MAX_OTHER && !known.contains(&name)).then_some(())?;
                        self.others.push(name);
                        check.additional
                    }
                };
                self.expect(b':')?;
                self.value(member, depth)?;
                count += 1;
                self.skip_blanks();
                match self.peek()? {
                    b',' => self.at += 1,
                    b'}' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.others.truncate(base);
        (seen & check.required == check.required
            && check.min_properties <= count
            && count <= check.max_properties)
            .then_some(())
    }

    /// The position in `check.names` of the member name at `"`, stepped over when found:
    /// compared as written, which is exact because a declared name holds no `"`, `\` or
    /// control character (`Compiler::object`), so a name written with an escape is never
    /// taken for one (and is left undecided by [`Self::string`]).
    fn declared(&mut self, check: &Check, next: usize) -> Option<usize> {
        let rest = self.text.as_bytes().get(self.at + 1..)?;
        let is = |name: &str| {
            rest.len() > name.len() && rest[name.len()] == b'"' && rest.starts_with(name.as_bytes())
        };
        let position = match check.names.get(next) {
            Some((name, _)) if is(name) => next,
            _ => check.names.iter().position(|(name, _)| is(name))?,
        };
        self.at += check.names[position].0.len() + 2;
        Some(position)
    }
}

/// Whether `bytes` is a number as RFC 8259 6 writes one.
fn json_number(bytes: &[u8]) -> bool {
    let mut at = usize::from(bytes.first() == Some(&b'-'));
    let digits = |at: &mut usize| {
        let start = *at;
        while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - start
    };
    let whole = at;
    match digits(&mut at) {
        0 => return false,
        n if n > 1 && bytes[whole] == b'0' => return false,
        _ => {}
    }
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        if digits(&mut at) == 0 {
            return false;
        }
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        if digits(&mut at) == 0 {
            return false;
        }
    }
    at == bytes.len()
}

#[cfg(test)]
mod tests;
