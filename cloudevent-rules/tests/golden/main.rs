//! The rules' golden verdicts: every input in `tests/golden/*.jsonl`, one case a line, with the
//! verdict the rules give it today: `"ok"`, or each finding (rule id, severity, attribute,
//! value, part, problem, hint). The test fails on any difference and lists the cases whose
//! verdict changed.
//!
//! Changing a rule on purpose is one command, and the diff of the corpus is its review:
//!
//! ```text
//! GOLDEN=overwrite cargo test -p cloudevent-rules --test golden
//! git diff cloudevent-rules/tests/golden
//! ```
//!
//! Adding a case: append a line with `check`, `profile` (when the check takes one) and
//! `input`, without `verdict`, and re-record; the files are rewritten sorted by input.
//!
//! The families: `uri` (`check_uri`, `check_uri_reference`, `check_source`), `dataschema`
//! (`check_dataschema`, `schema_major`, `check_type_schema_agreement`), `extension_name`,
//! `string_value` and `envelope` (`Policy::check_envelope` in [`Mode::Collect`]; that
//! [`Mode::FirstError`] gives the same findings cut after the first error is checked on every
//! envelope too).
//!
//! The inputs were drawn once, with fixed seeds, from the grammars of the property tests that
//! held the rules to their pre-optimization copy (`src/oracle.rs`, removed after this corpus
//! was recorded; `write_golden_inputs` in its last version drew the inputs), plus events one
//! to three changes away from a valid one. Of 20,000 draws a family, the shortest input
//! showing each kind of finding was kept, then others up to a budget. The copy gave the
//! recorded verdict on every case.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::{fs, io};

use cloudevent_rules::{
    Envelope, ExtensionValue, Mode, Policy, Profile, Violation, check_dataschema,
    check_extension_name, check_source, check_string_value, check_type_schema_agreement, check_uri,
    check_uri_reference, schema_major,
};
use serde::{Deserialize, Serialize};

/// The corpus files, one a rule family, in `tests/golden/`.
const FAMILIES: &[&str] = &[
    "uri",
    "dataschema",
    "extension_name",
    "string_value",
    "envelope",
];

/// The one command that re-records every verdict.
const RERECORD: &str = "GOLDEN=overwrite cargo test -p cloudevent-rules --test golden";

/// How many changed cases a failure lists before it only counts them.
const SHOWN: usize = 25;

/// One line of a corpus file.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Case {
    /// The function checked, by its name in `cloudevent-rules`.
    check: String,
    /// The profile it is checked under, for checks that take one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    profile: Option<String>,
    input: Input,
    /// `None` for a case added by hand and not recorded yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    verdict: Option<Verdict>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(untagged)]
enum Input {
    Text(String),
    TypeAndSchema(TypeAndSchema),
    Envelope(Box<EnvelopeInput>),
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct TypeAndSchema {
    #[serde(rename = "type")]
    ty: String,
    dataschema: String,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct EnvelopeInput {
    policy: PolicyInput,
    event: EventInput,
}

/// A [`Policy`] besides its profile (the case's `profile`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct PolicyInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    type_prefix: Option<String>,
    traceability: bool,
}

/// An [`Envelope`]: absent attributes are left out.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(deny_unknown_fields)]
struct EventInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    specversion: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    ty: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    datacontenttype: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dataschema: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    subject: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    extensions: Vec<(String, Value)>,
    /// The size of `data` in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    data: Option<usize>,
}

/// An extension value, tagged with its CloudEvents type.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Value {
    Boolean(bool),
    Integer(i32),
    String(String),
    Binary(Vec<u8>),
    Uri(String),
    UriReference(String),
    Timestamp(String),
}

impl Value {
    fn view(&self) -> ExtensionValue<'_> {
        match self {
            Value::Boolean(b) => ExtensionValue::Boolean(*b),
            Value::Integer(i) => ExtensionValue::Integer(*i),
            Value::String(s) => ExtensionValue::String(s),
            Value::Binary(b) => ExtensionValue::Binary(b),
            Value::Uri(s) => ExtensionValue::Uri(s),
            Value::UriReference(s) => ExtensionValue::UriReference(s),
            Value::Timestamp(s) => ExtensionValue::Timestamp(s),
        }
    }
}

/// `"ok"` (or what `schema_major` says), or the findings in the order the rules give them.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(untagged)]
enum Verdict {
    Said(String),
    Findings(Vec<Finding>),
}

/// A [`Violation`], every field of it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Finding {
    rule: String,
    severity: String,
    attribute: String,
    value: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    part: Option<String>,
    problem: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hint: Option<String>,
}

impl Verdict {
    fn of(found: &[Violation]) -> Verdict {
        if found.is_empty() {
            return Verdict::Said("ok".to_owned());
        }
        Verdict::Findings(
            found
                .iter()
                .map(|v| Finding {
                    rule: v.rule.as_str().to_owned(),
                    severity: v.severity.to_string(),
                    attribute: v.attribute.clone().into_owned(),
                    value: v.value.clone(),
                    part: v.part.clone(),
                    problem: v.problem.clone().into_owned(),
                    hint: v.hint.clone(),
                })
                .collect(),
        )
    }
}

impl Verdict {
    /// One line a finding (or the one thing said), text escaped as in the corpus files; a
    /// finding's value is left out when it is the case's input.
    fn lines(&self, input: Option<&str>) -> Vec<String> {
        match self {
            Verdict::Said(said) => vec![said.clone()],
            Verdict::Findings(found) => found
                .iter()
                .map(|v| {
                    let mut line = format!("{} ({}) {}", v.severity, v.rule, v.attribute);
                    if input != Some(v.value.as_str()) {
                        let _ = write!(line, " {}", to_json(&v.value));
                    }
                    if let Some(part) = &v.part {
                        let _ = write!(line, " {}", escaped(part));
                    }
                    let _ = write!(line, ": {}", escaped(&v.problem));
                    if let Some(hint) = &v.hint {
                        let _ = write!(line, "; {}", escaped(hint));
                    }
                    line
                })
                .collect(),
        }
    }
}

/// What changed between two verdicts: the findings gone (`-`) and new (`+`); every finding of
/// both when only their order changed.
fn difference(input: Option<&str>, was: Option<&Verdict>, now: &Verdict) -> String {
    let was = was.map_or_else(|| vec!["(not recorded)".to_owned()], |v| v.lines(input));
    let now = now.lines(input);
    let mut gone = was.clone();
    let mut new = Vec::new();
    for line in &now {
        match gone.iter().position(|g| g == line) {
            Some(i) => {
                gone.remove(i);
            }
            None => new.push(line),
        }
    }
    let mut out = String::new();
    if gone.is_empty() && new.is_empty() {
        out.push_str("  the same findings in another order; was:\n");
        for line in &was {
            let _ = writeln!(out, "    {line}");
        }
        out.push_str("  now:\n");
        for line in &now {
            let _ = writeln!(out, "    {line}");
        }
        return out;
    }
    for line in gone {
        let _ = writeln!(out, "  - {line}");
    }
    for line in new {
        let _ = writeln!(out, "  + {line}");
    }
    out
}

/// The verdict the rules give a case today.
fn verdict(case: &Case) -> Result<Verdict, String> {
    let profile = match case.profile.as_deref() {
        Some(name) => Some(
            name.parse::<Profile>()
                .map_err(|_| format!("unknown profile `{name}`"))?,
        ),
        None => None,
    };
    let profile = || profile.ok_or_else(|| format!("`{}` needs a `profile`", case.check));
    let found = match (case.check.as_str(), &case.input) {
        ("check_uri", Input::Text(s)) => check_uri("dataref", s),
        ("check_uri_reference", Input::Text(s)) => check_uri_reference("dataref", s),
        ("check_source", Input::Text(s)) => check_source(s, profile()?),
        ("check_dataschema", Input::Text(s)) => check_dataschema(s, profile()?),
        ("schema_major", Input::Text(s)) => {
            return Ok(Verdict::Said(match schema_major(s) {
                Some(major) => format!("major {major}"),
                None => "no version".to_owned(),
            }));
        }
        ("check_type_schema_agreement", Input::TypeAndSchema(pair)) => {
            check_type_schema_agreement(&pair.ty, &pair.dataschema, profile()?)
        }
        ("check_extension_name", Input::Text(s)) => check_extension_name(s, profile()?),
        ("check_string_value", Input::Text(s)) => check_string_value("region", s),
        ("check_envelope", Input::Envelope(input)) => check_envelope(input, profile()?)?,
        (check, _) => return Err(format!("no check `{check}` takes this input")),
    };
    Ok(Verdict::of(&found))
}

/// `Policy::check_envelope` in [`Mode::Collect`], after checking that [`Mode::FirstError`]
/// gives the same findings up to and including the first error.
fn check_envelope(input: &EnvelopeInput, profile: Profile) -> Result<Vec<Violation>, String> {
    let mut policy = Policy::new(profile).with_required_traceability(input.policy.traceability);
    if let Some(prefix) = &input.policy.type_prefix {
        policy = policy.with_type_prefix(prefix.as_str());
    }
    let event = &input.event;
    let extensions: Vec<(&str, ExtensionValue<'_>)> = event
        .extensions
        .iter()
        .map(|(name, value)| (name.as_str(), value.view()))
        .collect();
    let envelope = Envelope {
        specversion: event.specversion.as_deref(),
        id: event.id.as_deref(),
        source: event.source.as_deref(),
        ty: event.ty.as_deref(),
        datacontenttype: event.datacontenttype.as_deref(),
        dataschema: event.dataschema.as_deref(),
        subject: event.subject.as_deref(),
        time: event.time.as_deref(),
        extensions: &extensions,
        data: event.data,
        data_type_url: None,
    };
    let all = policy.check_envelope(&envelope, Mode::Collect);
    let first = policy.check_envelope(&envelope, Mode::FirstError);
    let cut = all
        .iter()
        .position(Violation::is_error)
        .map_or(all.len(), |i| i + 1);
    if first != all[..cut] {
        return Err(format!(
            "Mode::FirstError differs from Mode::Collect cut after its first error:\n{}",
            difference(None, Some(&Verdict::of(&all[..cut])), &Verdict::of(&first))
        ));
    }
    Ok(all)
}

/// Writes JSON strings with every character that does not show itself escaped as `\uXXXX`:
/// controls, noncharacters, spaces other than U+0020, symbols. Letters of any script stay.
struct Escaping;

impl serde_json::ser::Formatter for Escaping {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        for c in fragment.chars() {
            if c.is_ascii_graphic() || c == ' ' || c.is_alphabetic() {
                writer.write_all(c.encode_utf8(&mut [0; 4]).as_bytes())?;
            } else {
                for unit in c.encode_utf16(&mut [0; 2]) {
                    write!(writer, "\\u{unit:04x}")?;
                }
            }
        }
        Ok(())
    }
}

/// A text as it reads inside a corpus file's string, without the quotes.
fn escaped(text: &str) -> String {
    let quoted = to_json(&text);
    quoted[1..quoted.len() - 1].to_owned()
}

fn to_json(value: &impl Serialize) -> String {
    let mut out = Vec::new();
    value
        .serialize(&mut serde_json::Serializer::with_formatter(
            &mut out, Escaping,
        ))
        .expect("a corpus case serializes: strings, numbers and lists only");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// The file as it should read: one case a line, sorted by input, then check, then profile.
fn canonical(cases: &[Case]) -> String {
    let mut keyed: Vec<(String, &Case)> = cases.iter().map(|c| (to_json(&c.input), c)).collect();
    let order = |p: &Option<String>| {
        Profile::ALL
            .iter()
            .position(|q| p.as_deref() == Some(q.name()))
    };
    keyed.sort_by(|(a, x), (b, y)| {
        (a, &x.check, order(&x.profile)).cmp(&(b, &y.check, order(&y.profile)))
    });
    keyed.dedup_by(|(a, x), (b, y)| a == b && x.check == y.check && x.profile == y.profile);
    keyed.iter().fold(String::new(), |mut text, (_, case)| {
        text.push_str(&to_json(case));
        text.push('\n');
        text
    })
}

#[test]
fn the_rules_give_the_recorded_verdicts() {
    let overwrite = std::env::var("GOLDEN").is_ok_and(|v| v == "overwrite");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut report = String::new();
    let mut tally = Vec::new();
    let mut changes = Vec::new();
    let mut changed = 0;
    let mut total = 0;
    for family in FAMILIES {
        let file = format!("{family}.jsonl");
        let path = dir.join(&file);
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let changed_before = changed;
        let mut recorded = Vec::new();
        let mut now = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let case: Case = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{file} line {}: not a corpus case: {e}", n + 1));
            let fresh =
                verdict(&case).unwrap_or_else(|e| panic!("{file} line {}: {e}\n  {line}", n + 1));
            total += 1;
            if case.verdict.as_ref() != Some(&fresh) {
                changed += 1;
                let profile = case
                    .profile
                    .as_deref()
                    .map_or(String::new(), |p| format!(" ({p})"));
                let input = to_json(&case.input);
                let text_input = match &case.input {
                    Input::Text(text) => Some(text.as_str()),
                    _ => None,
                };
                let text = format!(
                    "\n{file} line {}: {}{profile} {input}\n{}",
                    n + 1,
                    case.check,
                    difference(text_input, case.verdict.as_ref(), &fresh)
                );
                changes.push((input.len(), text));
            }
            recorded.push(case.clone());
            now.push(Case {
                verdict: Some(fresh),
                ..case
            });
        }
        if changed > changed_before {
            tally.push(format!("{file}: {}", changed - changed_before));
        }
        let want = canonical(&now);
        if want == text {
            continue;
        }
        if overwrite {
            fs::write(&path, want)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
            eprintln!("re-recorded {}", path.display());
        } else if changed == changed_before && canonical(&recorded) != text {
            let _ = writeln!(
                report,
                "\n{file} is not in canonical form (sorted by input, one case a line, no duplicates)"
            );
        }
    }
    // The shortest inputs first: they show a change most plainly.
    changes.sort_by_key(|(len, _)| *len);
    for (_, text) in changes.iter().take(SHOWN) {
        report.push_str(text);
    }
    if changed > SHOWN {
        let _ = writeln!(report, "\n... and {} more", changed - SHOWN);
    }
    assert!(
        overwrite || report.is_empty(),
        "{changed} of {total} golden verdicts changed ({}):\n{report}\n\
         If the change is on purpose, re-record with\n\n    {RERECORD}\n\n\
         and review the diff of cloudevent-rules/tests/golden/ as part of the change.",
        tally.join(", ")
    );
}
