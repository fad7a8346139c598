//! `source` templates (RFC 6570 level 1, the rules crate's one parser for the derive,
//! codegen and the runtime): any text. Never panics; what parses is the text again when its
//! parts are written back; the sample source and an expansion with any value never hold a
//! brace, and an expanded value adds no `/`, `?` or `#` to the source.
#![no_main]

use cloudevent_runtime::rules::{
    TemplatePart, expand_template_variable, parse_source_template, sample_source,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (template, value) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &b""[..]),
    };
    let (Ok(template), Ok(value)) = (std::str::from_utf8(template), std::str::from_utf8(value))
    else {
        return;
    };
    let Ok(parts) = parse_source_template(template) else {
        return;
    };
    let mut written = String::new();
    let mut expanded = String::new();
    for part in &parts {
        match part {
            TemplatePart::Literal(text) => {
                written.push_str(text);
                expanded.push_str(text);
            }
            TemplatePart::Variable(name) => {
                written.push('{');
                written.push_str(name);
                written.push('}');
                let before = expanded.len();
                expand_template_variable(&mut expanded, value);
                let added = &expanded[before..];
                assert!(!added.contains(['/', '?', '#', '{', '}', ' ']), "{added}");
            }
        }
    }
    assert_eq!(written, template);
    assert!(!sample_source(&parts).contains(['{', '}']));
});
