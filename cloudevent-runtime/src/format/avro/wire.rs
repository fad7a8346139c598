//! Avro binary encoding (Avro 1.9.0 specification, "Binary Encoding") of the few types the
//! CloudEvents record uses: zig-zag varints, length-prefixed strings and bytes, doubles,
//! booleans, union indexes, and map and array blocks.
//!
//! The reader borrows strings and bytes from the input and never allocates by a length or
//! count the input claims: a length longer than the bytes left, or a block count that the
//! bytes left cannot hold, is refused before anything is reserved, so memory stays bounded by
//! the input, which R-11 bounds before decoding starts.

use cloudevent_rules::{RuleId, Violation, rule};

/// What a malformed input is refused with: the field being read, where, and what was wrong.
pub(super) fn malformed(
    rule: RuleId,
    field: &str,
    offset: usize,
    problem: String,
) -> Box<Violation> {
    Box::new(
        Violation::error(rule, field.to_owned(), format!("byte {offset}"), problem).with_hint(
            "encode the event with the CloudEvents Avro schema (application/cloudevents+avro)",
        ),
    )
}

/// A cursor over an Avro datum.
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, offset: 0 }
    }

    pub(super) fn offset(&self) -> usize {
        self.offset
    }

    pub(super) fn remaining(&self) -> usize {
        self.bytes.len() - self.offset
    }

    fn error(&self, field: &str, problem: impl Into<String>) -> Box<Violation> {
        malformed(rule::CE_AVRO_2_4, field, self.offset, problem.into())
    }

    fn truncated(&self, field: &str, wanted: usize) -> Box<Violation> {
        self.error(
            field,
            format!(
                "the input ends: {wanted} more bytes expected, {} left (truncated)",
                self.remaining()
            ),
        )
    }

    fn take(&mut self, field: &str, len: usize) -> Result<&'a [u8], Box<Violation>> {
        if len > self.remaining() {
            return Err(self.truncated(field, len));
        }
        let slice = &self.bytes[self.offset..self.offset + len];
        self.offset += len;
        Ok(slice)
    }

    /// A zig-zag varint of at most 10 bytes (Avro `long`).
    pub(super) fn long(&mut self, field: &str) -> Result<i64, Box<Violation>> {
        let start = self.offset;
        let mut value: u64 = 0;
        for shift in (0..70).step_by(7) {
            let Some(&byte) = self.bytes.get(self.offset) else {
                self.offset = start;
                return Err(self.truncated(field, 1));
            };
            self.offset += 1;
            if shift == 63 && byte > 1 {
                self.offset = start;
                return Err(self.error(field, "a varint longer than 64 bits"));
            }
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(((value >> 1) as i64) ^ -((value & 1) as i64));
            }
        }
        self.offset = start;
        Err(self.error(field, "a varint longer than 10 bytes"))
    }

    /// An Avro `int`: a varint whose value is a CloudEvents Integer, checked by the rules
    /// crate's one Integer check (the JSON and Protobuf readers' rule id and message).
    pub(super) fn int(&mut self, field: &str) -> Result<i32, Box<Violation>> {
        let value = self.long(field)?;
        cloudevent_rules::check_integer_value(field, value.into())
    }

    /// A length or count: non-negative and no more than `unit`-byte items in what is left.
    fn length(&mut self, field: &str, unit: usize) -> Result<usize, Box<Violation>> {
        let start = self.offset;
        let value = self.long(field)?;
        let len = usize::try_from(value).map_err(|_| {
            self.offset = start;
            self.error(field, format!("a negative length {value}"))
        })?;
        if len.saturating_mul(unit) > self.remaining() {
            let left = self.remaining();
            self.offset = start;
            return Err(self.error(
                field,
                format!("a length of {len} exceeds the {left} bytes left (truncated or forged)"),
            ));
        }
        Ok(len)
    }

    pub(super) fn bytes(&mut self, field: &str) -> Result<&'a [u8], Box<Violation>> {
        let len = self.length(field, 1)?;
        self.take(field, len)
    }

    /// An Avro `string`: UTF-8 (CE 1.0.2 type system, String).
    pub(super) fn string(&mut self, field: &str) -> Result<&'a str, Box<Violation>> {
        let start = self.offset;
        let bytes = self.bytes(field)?;
        std::str::from_utf8(bytes).map_err(|error| {
            Box::new(Violation::error(
                rule::CE_TYPE_SYSTEM,
                field.to_owned(),
                format!("byte {start}"),
                format!("is not a UTF-8 string: {error}"),
            ))
        })
    }

    pub(super) fn boolean(&mut self, field: &str) -> Result<bool, Box<Violation>> {
        match self.take(field, 1)? {
            [0] => Ok(false),
            [1] => Ok(true),
            [other] => {
                self.offset -= 1;
                Err(self.error(field, format!("a boolean byte {other}, neither 0 nor 1")))
            }
            _ => unreachable!("take(1) returns one byte"),
        }
    }

    pub(super) fn double(&mut self, field: &str) -> Result<f64, Box<Violation>> {
        let bytes = self.take(field, 8)?;
        let mut array = [0; 8];
        array.copy_from_slice(bytes);
        Ok(f64::from_le_bytes(array))
    }

    /// A union's branch index, below `branches`.
    pub(super) fn union(&mut self, field: &str, branches: usize) -> Result<usize, Box<Violation>> {
        let start = self.offset;
        let index = self.long(field)?;
        match usize::try_from(index) {
            Ok(index) if index < branches => Ok(index),
            _ => {
                self.offset = start;
                Err(self.error(
                    field,
                    format!("union branch {index} is not one of the schema's {branches}"),
                ))
            }
        }
    }

    /// The item count of the next map or array block (0 ends the map or array). A negative
    /// count is followed by the block's size in bytes, which is read and checked.
    /// `unit` is the fewest bytes one item takes.
    pub(super) fn block(&mut self, field: &str, unit: usize) -> Result<usize, Box<Violation>> {
        let start = self.offset;
        let count = self.long(field)?;
        if count >= 0 {
            self.offset = start;
            return self.length(field, unit);
        }
        let count = count.unsigned_abs();
        let size = self.length(field, 1)?;
        match usize::try_from(count) {
            Ok(count) if count.saturating_mul(unit) <= size => Ok(count),
            _ => {
                self.offset = start;
                Err(self.error(
                    field,
                    format!("a block of {count} items cannot fit in its {size} bytes"),
                ))
            }
        }
    }
}

/// Appends a zig-zag varint.
pub(super) fn write_long(out: &mut Vec<u8>, value: i64) {
    let mut n = ((value << 1) ^ (value >> 63)) as u64;
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

pub(super) fn write_len(out: &mut Vec<u8>, len: usize) {
    write_long(out, i64::try_from(len).unwrap_or(i64::MAX));
}

pub(super) fn write_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    write_len(out, bytes.len());
    out.extend_from_slice(bytes);
}

pub(super) fn write_double(out: &mut Vec<u8>, value: f64) {
    out.extend_from_slice(&value.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_at_the_edges() {
        for value in [
            0,
            -1,
            1,
            63,
            -64,
            64,
            i64::from(i32::MAX),
            i64::from(i32::MIN),
            i64::MAX,
            i64::MIN,
        ] {
            let mut out = Vec::new();
            write_long(&mut out, value);
            let mut reader = Reader::new(&out);
            assert_eq!(reader.long("n").unwrap(), value);
            assert_eq!(reader.remaining(), 0);
        }
    }

    #[test]
    fn an_int_outside_i32_names_the_type_system() {
        let mut out = Vec::new();
        write_long(&mut out, i64::from(i32::MAX) + 1);
        let err = Reader::new(&out).int("hops").unwrap_err();
        assert_eq!(err.rule, rule::CE_TYPE_SYSTEM);
        assert_eq!(err.attribute, "hops");
        assert_eq!(err.value, "2147483648");
    }

    #[test]
    fn an_eleven_byte_varint_is_refused() {
        let err = Reader::new(&[0xff; 11]).long("n").unwrap_err();
        assert_eq!(err.rule, rule::CE_AVRO_2_4);
    }

    #[test]
    fn a_length_past_the_end_is_refused_before_reading() {
        let mut out = Vec::new();
        write_long(&mut out, 1 << 40);
        out.extend_from_slice(b"abc");
        let err = Reader::new(&out).bytes("id").unwrap_err();
        assert!(err.problem.contains("exceeds"), "{err}");
    }
}
