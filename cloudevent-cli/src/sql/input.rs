//! Reading the inputs of `cloudevent sql --event` and `cloudevent filter` within the limits
//! `cloudevent validate` keeps (issue 38): one event at most `limits::MAX_EVENT_BYTES`
//! (INTG-STD-015 R-11), a batch at most `limits::MAX_BATCH_BYTES`, never read past
//! them; JSON Lines streamed a line at a time, each line its own event, so a bad line is
//! reported by its number and the others are still read.

use std::io::{self, BufRead, Read};

use cloudevent_runtime::rules::rule;
use cloudevent_runtime::{AnyEvent, Batch, Violation, limits};

/// Reads at most `limit` bytes; `Ok(None)` when there are more (nothing past `limit + 1` is
/// read).
pub(super) fn read_at_most(reader: &mut dyn Read, limit: usize) -> io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    let limit_plus_one = u64::try_from(limit).map_or(u64::MAX, |l| l.saturating_add(1));
    reader.take(limit_plus_one).read_to_end(&mut bytes)?;
    Ok((bytes.len() <= limit).then_some(bytes))
}

/// The finding for an event past the event limit, read no further.
pub(super) fn event_too_large() -> Violation {
    let limit = limits::MAX_EVENT_BYTES;
    Violation::error(
        rule::INTG_R11,
        "event size",
        format!("more than {limit} bytes"),
        format!("an event must not exceed {limit} bytes; it was not read further"),
    )
    .with_hint("move large payloads out with the claim-check pattern")
}

/// The finding for a batch past the batch limit, read no further.
fn batch_too_large() -> Violation {
    let limit = limits::MAX_BATCH_BYTES;
    Violation::error(
        rule::INTG_R10,
        "batch size",
        format!("more than {limit} bytes"),
        format!("a batch must not exceed {limit} bytes; it was not read further"),
    )
    .with_hint("split the batch")
}

/// One input's events, in order, as they are read; an event that cannot be read is an
/// `Err` naming where it is (`line 3: ...`), and reading goes on after it.
pub(super) fn for_each_event(
    reader: &mut dyn BufRead,
    mut each: impl FnMut(Result<AnyEvent, String>),
) -> io::Result<()> {
    skip_blank(reader)?;
    if reader.fill_buf()?.first() == Some(&b'[') {
        match read_at_most(reader, limits::MAX_BATCH_BYTES)? {
            Some(bytes) => match Batch::from_slice(&bytes) {
                Ok(batch) => Vec::from(batch).into_iter().for_each(|e| each(Ok(e))),
                Err(error) => each(Err(error.to_string())),
            },
            None => each(Err(batch_too_large().to_string())),
        }
        return Ok(());
    }
    let mut number = 0;
    let mut line = Vec::new();
    let mut first = true;
    while let Some(fits) = next_line(reader, &mut line)? {
        number += 1;
        if !fits {
            each(Err(format!("line {number}: {}", event_too_large())));
            continue;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if std::mem::take(&mut first) && opens_a_document(&line) {
            // A pretty-printed event: the whole input is that one event.
            let rest_limit = limits::MAX_EVENT_BYTES.saturating_sub(line.len() + 1);
            match read_at_most(reader, rest_limit)? {
                Some(rest) => {
                    line.push(b'\n');
                    line.extend_from_slice(&rest);
                    each(AnyEvent::from_slice(&line).map_err(|e| e.to_string()));
                }
                None => each(Err(event_too_large().to_string())),
            }
            return Ok(());
        }
        each(AnyEvent::from_slice(&line).map_err(|e| format!("line {number}: {e}")));
    }
    Ok(())
}

/// Whether a first line is the start of a JSON document that goes on past it (`{` of a
/// pretty-printed event), not a whole value or a line that is wrong on its own.
fn opens_a_document(line: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(line).is_err_and(|e| e.is_eof())
}

fn skip_blank(reader: &mut dyn BufRead) -> io::Result<()> {
    loop {
        let buffer = reader.fill_buf()?;
        let blank = buffer
            .iter()
            .take_while(|b| b.is_ascii_whitespace() && **b != b'\n')
            .count();
        if blank == 0 {
            return Ok(());
        }
        reader.consume(blank);
    }
}

/// The next line into `line` (without its `\n` or `\r\n`): `Some(true)`, or `Some(false)`
/// when it is longer than the event limit (its rest is skipped unread into memory), `None`
/// at the end of the input.
fn next_line(reader: &mut dyn BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let mut fits = true;
    let mut any = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            break;
        }
        any = true;
        let (chunk, ends) = match buffer.iter().position(|b| *b == b'\n') {
            Some(at) => (&buffer[..at], Some(at + 1)),
            None => (buffer, None),
        };
        if fits && line.len() + chunk.len() <= limits::MAX_EVENT_BYTES + 1 {
            line.extend_from_slice(chunk);
        } else {
            fits = false;
            line.clear();
        }
        let used = ends.unwrap_or(buffer.len());
        reader.consume(used);
        if ends.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    // The `+ 1` above keeps a `\r` of a line exactly at the limit; without it, over.
    if line.len() > limits::MAX_EVENT_BYTES {
        fits = false;
        line.clear();
    }
    Ok(Some(fits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Option<String>> {
        let mut reader = io::BufReader::with_capacity(7, input);
        let mut line = Vec::new();
        let mut out = Vec::new();
        while let Some(fits) = next_line(&mut reader, &mut line).unwrap() {
            out.push(fits.then(|| String::from_utf8(line.clone()).unwrap()));
        }
        out
    }

    #[test]
    fn lines_end_at_newlines_and_long_ones_are_skipped() {
        assert_eq!(
            lines(b"ab\r\n\ncd"),
            [Some("ab".into()), Some(String::new()), Some("cd".into())]
        );
        let mut input = vec![b'x'; limits::MAX_EVENT_BYTES];
        input.extend_from_slice(b"\r\n");
        input.extend(vec![b'y'; limits::MAX_EVENT_BYTES + 1]);
        input.extend_from_slice(b"\nz\n");
        let found = lines(&input);
        assert_eq!(found.len(), 3);
        assert_eq!(
            found[0].as_ref().map(String::len),
            Some(limits::MAX_EVENT_BYTES)
        );
        assert_eq!(found[1], None);
        assert_eq!(found[2].as_deref(), Some("z"));
    }

    #[test]
    fn a_pretty_printed_event_opens_a_document() {
        assert!(opens_a_document(b"{"));
        assert!(opens_a_document(b"  {\"id\": \"1\","));
        assert!(!opens_a_document(b"{}"));
        assert!(!opens_a_document(b"{not json"));
    }
}
