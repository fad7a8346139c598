use super::report::write_finding;
use super::*;
use cloudevent_runtime::Violation;
use cloudevent_runtime::rules::rule;

#[test]
fn clean_escapes_control_characters() {
    assert_eq!(clean("a\nb\u{1b}[2J"), "a\\nb\\u{1b}[2J");
    assert_eq!(clean("plain ü"), "plain ü");
}

#[test]
fn clean_escapes_bidirectional_overrides_and_isolates() {
    // `abc<RLO>gnp.exe` displays as `abcexe.png` when printed raw.
    assert_eq!(clean("abc\u{202e}gnp.exe"), "abc\\u{202e}gnp.exe");
    for c in [
        '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{2066}', '\u{2067}', '\u{2068}',
        '\u{2069}',
    ] {
        assert!(!clean(&format!("a{c}b")).contains(c), "{c:?}");
    }
    // The marks that only hint a direction (U+200E, U+200F) stay: they cannot reorder text.
    assert_eq!(clean("a\u{200e}b"), "a\u{200e}b");
}

#[test]
fn a_finding_line_names_the_rule_once_and_leaves_out_empty_values() {
    let mut out = Vec::new();
    let finding = Violation::error(rule::INTG_R2, "time", "", "is absent").with_hint("set it");
    write_finding(&mut out, "a.json", &finding).unwrap();
    let finding = Violation::warning(rule::INTG_R4, "type", "Com.x", "must be lowercase")
        .with_part("segment `Com`");
    write_finding(&mut out, "a.json#1", &finding).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "a.json: error INTG-STD-015 R-2: time: is absent; set it\n\
         a.json#1: warning INTG-STD-015 R-4: type `Com.x` segment `Com`: must be lowercase\n"
    );
}
