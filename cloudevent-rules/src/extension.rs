use crate::uri::describe_char;
use crate::{AttributeKind, Profile, Violation, rule};

/// The core context attribute names an extension may not take.
pub const CORE_ATTRIBUTES: [&str; 8] = [
    "specversion",
    "id",
    "source",
    "type",
    "datacontenttype",
    "dataschema",
    "subject",
    "time",
];

/// The type of a core context attribute (CE 1.0.2 section 3.1), `None` for any other name:
/// the one table a reader of typed transport values (AMQP's `long`, `timestamp`) and the
/// CESQL checker consult.
///
/// ```
/// use cloudevent_rules::{AttributeKind, core_attribute_kind};
///
/// assert_eq!(core_attribute_kind("time"), Some(AttributeKind::Timestamp));
/// assert_eq!(core_attribute_kind("source"), Some(AttributeKind::UriReference));
/// assert_eq!(core_attribute_kind("region"), None);
/// ```
pub const fn core_attribute_kind(name: &str) -> Option<AttributeKind> {
    Some(match name.as_bytes() {
        b"specversion" | b"id" | b"type" | b"datacontenttype" | b"subject" => AttributeKind::String,
        b"source" => AttributeKind::UriReference,
        b"dataschema" => AttributeKind::Uri,
        b"time" => AttributeKind::Timestamp,
        _ => return None,
    })
}

/// Names the JSON event format keeps for the payload (CE-JSON 3.1); never extensions.
pub const RESERVED_NAMES: [&str; 2] = ["data", "data_base64"];

/// The members the JSON event format names itself: [`CORE_ATTRIBUTES`] in their order, then
/// [`RESERVED_NAMES`]. Everything else in an event object is an extension.
///
/// ```
/// use cloudevent_rules::JSON_FORMAT_MEMBERS;
/// assert_eq!(JSON_FORMAT_MEMBERS[0], "specversion");
/// assert_eq!(JSON_FORMAT_MEMBERS[9], "data_base64");
/// ```
pub const JSON_FORMAT_MEMBERS: [&str; 10] = {
    let mut out = [""; 10];
    let mut i = 0;
    while i < CORE_ATTRIBUTES.len() {
        out[i] = CORE_ATTRIBUTES[i];
        i += 1;
    }
    out[8] = RESERVED_NAMES[0];
    out[9] = RESERVED_NAMES[1];
    out
};

/// The recommended maximum length of an extension name (CE 1.0.2 naming, INTG-STD-015 R-6);
/// a MUST in `intg-std-015` (gateway 5: `^[a-z][a-z0-9]{0,19}$`).
pub const MAX_EXTENSION_NAME_LEN: usize = 20;

/// An extension documented by CloudEvents or ADR-0003, with the type it must keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocumentedExtension {
    /// The extension's name, e.g. `partitionkey`.
    pub name: &'static str,
    /// The type the documenting spec gives it.
    pub kind: AttributeKind,
    /// Where it is documented, e.g. "CloudEvents Partitioning extension".
    pub documented_by: &'static str,
}

/// Every documented extension, in the order [`documented_extension`] knows them.
pub const DOCUMENTED_EXTENSIONS: [DocumentedExtension; 8] = [
    documented(
        "partitionkey",
        AttributeKind::String,
        "CloudEvents Partitioning extension",
    ),
    documented(
        "sequence",
        AttributeKind::String,
        "CloudEvents Sequence extension",
    ),
    documented(
        "sequencetype",
        AttributeKind::String,
        "CloudEvents Sequence extension",
    ),
    documented(
        "traceparent",
        AttributeKind::String,
        "CloudEvents Distributed Tracing extension",
    ),
    documented(
        "tracestate",
        AttributeKind::String,
        "CloudEvents Distributed Tracing extension",
    ),
    documented("correlationid", AttributeKind::String, "ADR-0003"),
    documented("causationid", AttributeKind::String, "ADR-0003"),
    documented(
        "dataref",
        AttributeKind::UriReference,
        "CloudEvents Dataref extension",
    ),
];

const fn documented(
    name: &'static str,
    kind: AttributeKind,
    documented_by: &'static str,
) -> DocumentedExtension {
    DocumentedExtension {
        name,
        kind,
        documented_by,
    }
}

/// The documented extension of that name: `partitionkey`, `sequence`, `sequencetype`,
/// `traceparent`, `tracestate`, `correlationid`, `causationid` (strings) and `dataref`
/// (URI-reference).
///
/// ```
/// use cloudevent_rules::{documented_extension, AttributeKind};
///
/// assert_eq!(documented_extension("dataref").map(|e| e.kind), Some(AttributeKind::UriReference));
/// assert_eq!(documented_extension("partitionkey").map(|e| e.kind), Some(AttributeKind::String));
/// assert!(documented_extension("region").is_none());
/// ```
pub fn documented_extension(name: &str) -> Option<DocumentedExtension> {
    // By reference: `into_iter` on the const array copied all of it on every call (a profile
    // of the typed parse showed the copy).
    DOCUMENTED_EXTENSIONS
        .iter()
        .find(|e| e.name == name)
        .copied()
}

/// How a refused word must appear in a name for R-14 to apply.
#[derive(Clone, Copy)]
enum Match {
    /// Anywhere in the name: long, distinctive words (`token`, `password`).
    Anywhere,
    /// The whole name, its start or its end: short abbreviations that hide inside innocent
    /// words when matched anywhere (`ssn` in `classname`).
    Affix,
    /// The whole name only: abbreviations that are ordinary words elsewhere (`pin` in
    /// `shipping`, `auth` in `author`, `sid` in `inside`).
    Whole,
}

/// The words INTG-STD-015 R-14 refuses in an extension name, because the name announces a
/// credential, a token, a session identifier or personal data.
///
/// Names are `[a-z0-9]` without separators, so words cannot be split out; each word is
/// matched in the way that catches real names without refusing absurd ones. The accepted
/// false positives are `secretary` (`secret`) and `possession` (`session`), rare as
/// extension names and easy to rename.
const SENSITIVE_WORDS: &[(&str, Match, &str)] = &[
    // Credentials and tokens.
    ("token", Match::Anywhere, "a token"),
    ("password", Match::Anywhere, "a credential"),
    ("passwd", Match::Anywhere, "a credential"),
    ("passphrase", Match::Anywhere, "a credential"),
    ("pwd", Match::Anywhere, "a credential"),
    ("secret", Match::Anywhere, "a credential"),
    ("apikey", Match::Anywhere, "a credential"),
    ("accesskey", Match::Anywhere, "a credential"),
    ("privatekey", Match::Anywhere, "a credential"),
    ("privkey", Match::Anywhere, "a credential"),
    ("passcode", Match::Anywhere, "a credential"),
    ("creds", Match::Affix, "a credential"),
    ("signingkey", Match::Anywhere, "a credential"),
    ("credential", Match::Anywhere, "a credential"),
    ("bearer", Match::Anywhere, "a token"),
    ("jwt", Match::Anywhere, "a token"),
    ("authorization", Match::Anywhere, "a credential"),
    ("authheader", Match::Anywhere, "a credential"),
    ("authcode", Match::Anywhere, "a credential"),
    ("auth", Match::Whole, "a credential"),
    ("authn", Match::Whole, "a credential"),
    ("authz", Match::Whole, "a credential"),
    ("otp", Match::Affix, "a credential"),
    ("pin", Match::Whole, "a credential"),
    ("csrf", Match::Anywhere, "a token"),
    ("xsrf", Match::Anywhere, "a token"),
    // Session identifiers.
    ("session", Match::Anywhere, "a session identifier"),
    ("cookie", Match::Anywhere, "a session identifier"),
    ("sid", Match::Whole, "a session identifier"),
    ("sessid", Match::Anywhere, "a session identifier"),
    // Personal data.
    ("email", Match::Anywhere, "personal data"),
    ("mailaddress", Match::Anywhere, "personal data"),
    ("phone", Match::Whole, "personal data"),
    ("phonenumber", Match::Anywhere, "personal data"),
    ("telephone", Match::Anywhere, "personal data"),
    ("mobilephone", Match::Anywhere, "personal data"),
    ("mobilenumber", Match::Anywhere, "personal data"),
    ("msisdn", Match::Anywhere, "personal data"),
    ("ssn", Match::Affix, "personal data"),
    ("bsn", Match::Affix, "personal data"),
    ("socialsecurity", Match::Anywhere, "personal data"),
    ("nationalid", Match::Anywhere, "personal data"),
    ("passport", Match::Anywhere, "personal data"),
    ("driverslicense", Match::Anywhere, "personal data"),
    ("iban", Match::Affix, "personal data"),
    ("creditcard", Match::Anywhere, "personal data"),
    ("cardnumber", Match::Anywhere, "personal data"),
    ("cvv", Match::Anywhere, "personal data"),
    ("firstname", Match::Anywhere, "personal data"),
    ("lastname", Match::Anywhere, "personal data"),
    ("surname", Match::Anywhere, "personal data"),
    ("fullname", Match::Anywhere, "personal data"),
    ("givenname", Match::Anywhere, "personal data"),
    ("familyname", Match::Anywhere, "personal data"),
    ("birthdate", Match::Anywhere, "personal data"),
    ("dateofbirth", Match::Anywhere, "personal data"),
    ("dob", Match::Affix, "personal data"),
    ("homeaddress", Match::Anywhere, "personal data"),
    ("streetaddress", Match::Anywhere, "personal data"),
    ("ipaddress", Match::Anywhere, "personal data"),
    ("clientip", Match::Anywhere, "personal data"),
];

/// The refused word a name announces, and what it announces (R-14). Case-insensitive, so a
/// name already refused for its case is still checked for its meaning; digits standing for
/// the letters they look like (`passw0rd`, `t0ken`, `s3cret`) are read as those letters.
fn sensitive_word(name: &str) -> Option<(&'static str, &'static str)> {
    if let Some(found) = sensitive_word_as_written(name) {
        return Some(found);
    }
    // Only a name with a digit can read differently; most names have none.
    if !name.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let fold = |one: char| -> String {
        name.bytes()
            .map(|b| match b {
                b'0' => 'o',
                b'1' => one,
                b'3' => 'e',
                b'4' => 'a',
                b'5' => 's',
                b'7' => 't',
                b'8' => 'b',
                other => char::from(other),
            })
            .collect()
    };
    // `1` stands for `i` as often as for `l`.
    sensitive_word_as_written(&fold('i')).or_else(|| {
        if name.contains('1') {
            sensitive_word_as_written(&fold('l'))
        } else {
            None
        }
    })
}

/// [`sensitive_word`] on the name as written.
fn sensitive_word_as_written(name: &str) -> Option<(&'static str, &'static str)> {
    const ALPHABET: u32 = (1 << 26) - 1;
    // A word can only match a name holding every one of its letters: comparing letter sets
    // first skips most of the 57 words with one AND instead of a case-folding scan each
    // (the scan was the largest single cost of a typed parse with three extensions).
    let letters = letter_set(name.as_bytes());
    // Rather than test 57 sets, leave out the words needing a letter the name lacks: one
    // OR a missing letter (bit `i` of `WORDS_NEEDING[letter]` is word `i`).
    let mut missing = !((letters >> b'a') as u32) & ALPHABET;
    let mut ruled_out = 0u64;
    while missing != 0 {
        ruled_out |= WORDS_NEEDING[missing.trailing_zeros() as usize];
        missing &= missing - 1;
    }
    // The words left, in list order; the letter set check stays for any non-letter byte.
    let mut candidates = !ruled_out & (u64::MAX >> (64 - SENSITIVE_WORDS.len()));
    while candidates != 0 {
        let i = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let (word, how, what) = SENSITIVE_WORDS[i];
        let found = SENSITIVE_LETTERS[i] & !letters == 0
            && match how {
                Match::Anywhere => contains_ignore_case(name, word),
                Match::Affix => {
                    starts_with_ignore_case(name, word) || ends_with_ignore_case(name, word)
                }
                Match::Whole => name.eq_ignore_ascii_case(word),
            };
        if found {
            return Some((word, what));
        }
    }
    None
}

/// The ASCII bytes of `text`, lowercased, as a set (bit `b` for byte `b`); other bytes are
/// left out, as ASCII case folding never matches them to a word's letter.
const fn letter_set(text: &[u8]) -> u128 {
    let mut set = 0u128;
    let mut i = 0;
    while i < text.len() {
        let byte = text[i].to_ascii_lowercase();
        if byte < 128 {
            set |= 1 << byte;
        }
        i += 1;
    }
    set
}

/// For each letter `a..=z`, the words of [`SENSITIVE_WORDS`] holding it, as bits by index.
const WORDS_NEEDING: [u64; 26] = {
    assert!(SENSITIVE_WORDS.len() <= 64);
    let mut masks = [0u64; 26];
    let mut letter = 0;
    while letter < 26 {
        let mut i = 0;
        while i < SENSITIVE_WORDS.len() {
            if SENSITIVE_LETTERS[i] & (1 << (b'a' + letter as u8)) != 0 {
                masks[letter] |= 1 << i;
            }
            i += 1;
        }
        letter += 1;
    }
    masks
};

/// [`letter_set`] of each of [`SENSITIVE_WORDS`], in the same order.
const SENSITIVE_LETTERS: [u128; SENSITIVE_WORDS.len()] = {
    let mut sets = [0u128; SENSITIVE_WORDS.len()];
    let mut i = 0;
    while i < sets.len() {
        sets[i] = letter_set(SENSITIVE_WORDS[i].0.as_bytes());
        i += 1;
    }
    sets
};

fn contains_ignore_case(haystack: &str, needle: &str) -> bool {
    haystack
        .as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

fn starts_with_ignore_case(haystack: &str, needle: &str) -> bool {
    haystack
        .as_bytes()
        .get(..needle.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(needle.as_bytes()))
}

fn ends_with_ignore_case(haystack: &str, needle: &str) -> bool {
    let bytes = haystack.as_bytes();
    bytes.len() >= needle.len()
        && bytes[bytes.len() - needle.len()..].eq_ignore_ascii_case(needle.as_bytes())
}

/// A name that starts with a letter: leading digits move to the end (`1abc` → `abc1`), and an
/// all-digit name gets an `n` in front.
fn letter_first(name: &str) -> String {
    let split = name
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(name.len());
    let (digits, rest) = name.split_at(split);
    if rest.is_empty() {
        format!("n{digits}")
    } else {
        format!("{rest}{digits}")
    }
}

/// Checks an extension attribute name.
///
/// All profiles (CE 1.0.2 naming): `[a-z0-9]` only (ASCII, not Unicode digits), not `data` or
/// `data_base64`, not a core attribute name; a name over 20 characters warns.
/// `intg-std-015` (INTG-STD-015 R-6, gateway 5): `^[a-z][a-z0-9]{0,19}$`, and R-14: names that
/// announce credentials, tokens, session identifiers or personal data are refused.
///
/// The R-14 words, matched case-insensitively:
/// - anywhere in the name: `token`, `password`, `passwd`, `passphrase`, `pwd`, `secret`,
///   `apikey`, `accesskey`, `privatekey`, `signingkey`, `credential`, `bearer`, `jwt`,
///   `privkey`, `passcode`, `sessid`, `authorization`, `authheader`, `authcode`, `csrf`,
///   `xsrf`, `session`, `cookie`, `email`,
///   `mailaddress`, `phonenumber`, `telephone`, `mobilephone`, `mobilenumber`, `msisdn`,
///   `socialsecurity`, `nationalid`, `passport`, `driverslicense`, `creditcard`, `cardnumber`,
///   `cvv`, `firstname`, `lastname`, `surname`, `fullname`, `givenname`, `familyname`,
///   `birthdate`, `dateofbirth`, `homeaddress`, `streetaddress`, `ipaddress`, `clientip`;
/// - as the whole name, its start or its end: `ssn`, `bsn` (Dutch citizen service number),
///   `iban`, `otp`, `dob`, `creds` — anywhere they would hit innocent words (`classname`);
/// - as the whole name only: `auth`, `authn`, `authz`, `pin`, `sid`, `phone` — elsewhere they
///   are parts of `author`, `shipping`, `inside`, `microphone`.
///
/// Digits standing for the letters they look like are read as those letters (`0` `o`, `1`
/// `i` or `l`, `3` `e`, `4` `a`, `5` `s`, `7` `t`, `8` `b`): `passw0rd` and `t0ken` are
/// refused as `password` and `token`.
///
/// So `accesstoken`, `userpassword`, `sessionid` and `customerssn` are refused while
/// `author`, `shipping` and `classname` pass. A valid name returns an empty `Vec` without
/// allocating.
///
/// ```
/// use cloudevent_rules::{check_extension_name, Profile, Severity};
///
/// assert!(check_extension_name("region", Profile::IntgStd015).is_empty());
/// assert!(check_extension_name("partitionkey", Profile::IntgStd015).is_empty());
///
/// let found = check_extension_name("tenant_id", Profile::CloudEvents);
/// assert_eq!(
///     found[0].to_string(),
///     "extension `tenant_id` character `_` at byte 6: only lowercase `a-z` and `0-9` are allowed \
///      (CE 1.0.2 naming); e.g. `tenantid`"
/// );
///
/// let found = check_extension_name("accesstoken", Profile::IntgStd015);
/// assert_eq!(found[0].rule.as_str(), "INTG-STD-015 R-14");
///
/// let long = "averyveryverylongextension";
/// assert_eq!(check_extension_name(long, Profile::CloudEvents)[0].severity, Severity::Warning);
/// assert_eq!(check_extension_name(long, Profile::IntgStd015)[0].severity, Severity::Error);
/// ```
pub fn check_extension_name(name: &str, profile: Profile) -> Vec<Violation> {
    let mut found = Vec::new();
    let error = |id, problem: &'static str| Violation::error(id, "extension", name, problem);
    if name.is_empty() {
        found.push(error(rule::CE_NAMING, "must not be empty").with_hint("e.g. `region`"));
        return found;
    }
    if RESERVED_NAMES.contains(&name) {
        found.push(
            error(
                rule::CE_NAMING,
                "is reserved for the event payload and cannot name an extension",
            )
            .with_hint("choose another name, e.g. `payloadkind`"),
        );
        return found;
    }
    if CORE_ATTRIBUTES.contains(&name) {
        found.push(
            error(
                rule::CE_NAMING,
                "is a core context attribute, not an extension; set the attribute itself",
            )
            .with_hint(format!("e.g. `{name}ext` if this is a different value")),
        );
        return found;
    }

    // Every allowed character is one ASCII byte, so the first byte that is not one starts
    // the first character that is not one, at the same offset.
    let bad = name
        .bytes()
        .position(|b| !(b.is_ascii_lowercase() || b.is_ascii_digit()));
    if let Some((at, c)) = bad.and_then(|at| Some((at, name[at..].chars().next()?))) {
        let problem = if c.is_ascii_uppercase() {
            "must be lowercase; only `a-z` and `0-9` are allowed"
        } else {
            "only lowercase `a-z` and `0-9` are allowed"
        };
        let mut violation = error(rule::CE_NAMING, problem)
            .with_part(format!("character {} at byte {at}", describe_char(c)));
        let fixed: String = name
            .chars()
            .map(|c| c.to_ascii_lowercase())
            .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            .collect();
        if !fixed.is_empty() {
            violation = violation.with_fix(&fixed, |fix| check_extension_name(fix, profile));
        }
        found.push(violation);
    }

    // A name of allowed characters is ASCII: its length in characters is its length in bytes.
    let length = match bad {
        None => name.len(),
        Some(_) => name.chars().count(),
    };
    match profile {
        Profile::IntgStd015 => {
            if name.as_bytes()[0].is_ascii_digit() {
                found.push(
                    error(
                        rule::INTG_GATEWAY_5,
                        "must start with a letter (`^[a-z][a-z0-9]{0,19}$`)",
                    )
                    .with_part(format!("first character `{}`", &name[..1]))
                    .with_fix(&letter_first(name), |fix| {
                        check_extension_name(fix, profile)
                    }),
                );
            }
            if length > MAX_EXTENSION_NAME_LEN {
                found.push(
                    error(
                        rule::INTG_GATEWAY_5,
                        "must be at most 20 characters (`^[a-z][a-z0-9]{0,19}$`)",
                    )
                    .with_part(format!("{length} characters"))
                    .with_fix(
                        &name
                            .chars()
                            .take(MAX_EXTENSION_NAME_LEN)
                            .collect::<String>(),
                        |fix| check_extension_name(fix, profile),
                    ),
                );
            }
            if let Some((word, what)) = sensitive_word(name) {
                found.push(
                    Violation::error(
                        rule::INTG_R14,
                        "extension",
                        name,
                        format!("announces {what}; extensions must not carry credentials, tokens, session identifiers or personal data"),
                    )
                    .with_part(format!("word `{word}`"))
                    .with_hint(
                        "leave it out of the envelope: credentials belong to the transport's authentication, personal data to the access-controlled `data`",
                    ),
                );
            }
        }
        Profile::CloudEvents | Profile::NlGov => {
            if length > MAX_EXTENSION_NAME_LEN {
                found.push(
                    Violation::warning(
                        rule::CE_NAMING,
                        "extension",
                        name,
                        "should not exceed 20 characters",
                    )
                    .with_part(format!("{length} characters")),
                );
            }
        }
    }
    found
}

#[cfg(test)]
mod tests;
