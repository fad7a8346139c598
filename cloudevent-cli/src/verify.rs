//! `cloudevent sign` and `cloudevent verify`: the CloudEvents verifiability extension on the
//! events of an input, through the runtime's `verify` module (the same digest, envelope and
//! verdict as the library), over every input `validate` reads ([`crate::input`], the one
//! reader of the three commands).
//!
//! `sign --key PRIVATE.pem --key-id ID [--extensions a,b] FILE` prints the input with every
//! event's `dssematerial` set, in the form it was read in: a JSON event or batch as JSON,
//! JSON Lines as JSON Lines, an HTTP message as an HTTP message in its content mode (binary,
//! structured or batched; Protobuf and Avro bodies stay so), a Kafka record (or an array of
//! them) as records in their mode, Protobuf and Avro as themselves. Each event of a batch,
//! each line and each record is signed on its own.
//!
//! `verify --key PUBLIC.pem --key-id ID FILE` verifies every event of the input on its own
//! and reports as `validate` does, in its shapes: `ok <file>[#<n>] <id>` for an event that
//! verifies, `<file>[#<n>]: error CE verifiability: dssematerial step <step>: <message>` for
//! one that does not (the step of the extension's Verification Protocol that discards it),
//! and with `--output json` `validate`'s JSON report (each finding's `part` is `step
//! <step>`). An input or event that cannot be read is a finding too, as `validate` reports
//! it.
//!
//! Keys are PEM: PKCS#8 private keys and SPKI public keys, P-256 or Ed25519 (what `openssl
//! genpkey` and `openssl pkey -pubout` write). Exit status: `verify` 0 when every event
//! verifies, 1 when one does not; both 2 for usage errors, an unreadable file or key, and
//! (for `sign`) an input with an event that cannot be read or signed (nothing is printed).

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cloudevent_runtime::binding::{BindingError, ContentMode, http, kafka};
use cloudevent_runtime::verify::{
    SigningKey, TrustedKeys, VerifyError, VerifyingKey, sign, verify,
};
use cloudevent_runtime::{
    AnyEvent, Attributes, Avro, Batch, FormatError, Json, Policy, Profile, Protobuf, Validate,
    Validator, Violation,
};

use crate::input::{self, Body, Encoding, Format, Holder, Part, RecordValue, Single};
use crate::validate::Output;
use crate::validate::report::{Checked, EventResult, JsonReport, Outcome, clean, write_text};

mod write;

/// Arguments of `cloudevent sign`.
#[derive(Debug, clap::Args)]
pub struct SignArgs {
    /// The private key, PKCS#8 PEM (P-256 or Ed25519).
    #[arg(long, value_name = "PRIVATE.pem")]
    key: PathBuf,
    /// The DSSE key id the signature carries (what consumers resolve to your public key).
    #[arg(long = "key-id", value_name = "ID")]
    key_id: String,
    /// The extensions to sign, comma-separated, in the order their digests are taken.
    #[arg(long, value_delimiter = ',', value_name = "a,b")]
    extensions: Vec<String>,
    /// How the input is encoded, as `validate --format` reads it; the signed input is
    /// written the same way.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    format: Format,
    /// The input (`-` for standard input).
    file: PathBuf,
}

/// Arguments of `cloudevent verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The public key, SPKI PEM (P-256 or Ed25519).
    #[arg(long, value_name = "PUBLIC.pem")]
    key: PathBuf,
    /// The key id the key is accepted under; a signature naming another id is not checked.
    #[arg(long = "key-id", value_name = "ID")]
    key_id: String,
    /// How the input is encoded, as `validate --format` reads it.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    format: Format,
    /// `text`: one line per finding and per verified event; `json`: `validate`'s JSON report.
    #[arg(long, value_enum, default_value_t = Output::Text)]
    output: Output,
    /// The input (`-` for standard input).
    file: PathBuf,
}

/// Exit status for usage errors and unreadable input.
const USAGE: u8 = 2;

/// The policy the events are read under: `AnyEvent`'s, the CloudEvents MUSTs, strictly.
fn policy() -> Policy {
    Policy::new(Profile::CloudEvents)
}

/// `cloudevent sign`.
pub fn run_sign(args: SignArgs) -> ExitCode {
    let key = match read_text(&args.key)
        .and_then(|pem| SigningKey::from_pkcs8_pem(&args.key_id, &pem).map_err(|e| e.to_string()))
    {
        Ok(key) => key,
        Err(error) => return usage(&args.key, &error),
    };
    let bytes = match read_input(&args.file) {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(finding)) => return usage(&args.file, &finding.to_string()),
        Err(error) => return usage(&args.file, &error),
    };
    let extensions: Vec<&str> = args.extensions.iter().map(String::as_str).collect();
    // A refusal names the event by its id, so a batch's names which of its events.
    let signer = |event: &mut AnyEvent| {
        sign(event, &key, &extensions)
            .map_err(|error| format!("event `{}`: {error}", clean(event.id())))
    };
    match sign_input(args.format, &bytes, &signer) {
        Ok(signed) => {
            let mut out = io::stdout().lock();
            match out.write_all(&signed).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => usage(
                    &args.file,
                    &format!("writing the signed input failed: {error}"),
                ),
            }
        }
        Err(error) => usage(&args.file, &error),
    }
}

/// Signs every event `bytes` carries and writes the input again in the form it was read in.
fn sign_input(
    format: Format,
    bytes: &[u8],
    signer: &dyn Fn(&mut AnyEvent) -> Result<(), String>,
) -> Result<Vec<u8>, String> {
    let policy = policy();
    let mut out = Vec::new();
    let mut records = Vec::new();
    let mut failed = None;
    let holder = input::read(format, bytes, &policy, &mut |part| {
        if failed.is_some() {
            return;
        }
        let written = match part {
            Part::Whole(body) => sign_body(body, &policy, signer).map(|mut body_bytes| {
                if is_json(body) {
                    body_bytes.push(b'\n');
                }
                body_bytes
            }),
            Part::Http { message, body } => sign_http(message, body, &policy, signer),
            Part::Line { line, bytes, .. } => read_event(Encoding::Json, bytes, &policy)
                .map_err(|finding| finding.to_string())
                .and_then(|mut event| {
                    signer(&mut event)?;
                    let mut line = event.to_vec();
                    line.push(b'\n');
                    Ok(line)
                })
                .map_err(|error| format!("line {line}: {error}")),
            Part::Record {
                index,
                record,
                value,
            } => match sign_record(record, value, &policy, signer) {
                Ok(record) => {
                    records.push(write::record_json(&record));
                    Ok(Vec::new())
                }
                Err(error) => Err(match index {
                    Some(index) => format!("record #{index}: {error}"),
                    None => error,
                }),
            },
            Part::NotARecord { index, findings } => Err(format!(
                "{}{}",
                index.map(|i| format!("record #{i}: ")).unwrap_or_default(),
                findings
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            )),
        };
        match written {
            Ok(bytes) => out.extend_from_slice(&bytes),
            Err(error) => failed = Some(error),
        }
    });
    let holder = holder.map_err(|finding| finding.to_string())?;
    if let Some(error) = failed {
        return Err(error);
    }
    match holder {
        Holder::Record => {
            for record in &records {
                out.extend_from_slice(record.as_bytes());
                out.push(b'\n');
            }
        }
        Holder::Records => out.extend_from_slice(write::record_array(&records).as_bytes()),
        Holder::Input | Holder::Lines | Holder::Message => {}
    }
    Ok(out)
}

/// Whether a whole input is JSON text, written with a final newline.
fn is_json(body: Body<'_>) -> bool {
    matches!(
        body,
        Body::Document(_) | Body::Event(Encoding::Json, _) | Body::Batch(Encoding::Json, _)
    )
}

/// The events a body holds: one, or a batch.
enum Events {
    One(Box<AnyEvent>),
    Batch(Vec<AnyEvent>),
}

/// Reads what a body holds, strictly under `policy` (the CloudEvents MUSTs, to the first
/// error): a finding as `validate` words it when it is not an event or a batch.
fn read_body(body: Body<'_>, policy: &Policy) -> Result<Events, Box<Violation>> {
    match body {
        Body::Document(bytes) => {
            if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
                read_batch(Encoding::Json, bytes, policy).map(Events::Batch)
            } else {
                read_event(Encoding::Json, bytes, policy).map(|e| Events::One(Box::new(e)))
            }
        }
        Body::Event(encoding, bytes) => {
            read_event(encoding, bytes, policy).map(|e| Events::One(Box::new(e)))
        }
        Body::Batch(encoding, bytes) => read_batch(encoding, bytes, policy).map(Events::Batch),
        Body::HttpBinary(headers, body) => input::http_binary(headers, body, policy)
            .map(|(event, _)| Events::One(Box::new(event)))
            .map_err(|error| Box::new(error.violation_under(policy))),
    }
}

/// One event in an event format.
fn read_event(
    encoding: Encoding,
    bytes: &[u8],
    policy: &Policy,
) -> Result<AnyEvent, Box<Violation>> {
    let event = match encoding {
        Encoding::Json => AnyEvent::decode::<Json>(bytes),
        Encoding::Protobuf => AnyEvent::decode::<Protobuf>(bytes),
        Encoding::Avro => AnyEvent::decode::<Avro>(bytes),
    };
    event.map_err(|error| format_finding(error, policy))
}

/// A batch in an event format's batch format.
fn read_batch(
    encoding: Encoding,
    bytes: &[u8],
    policy: &Policy,
) -> Result<Vec<AnyEvent>, Box<Violation>> {
    let batch = match encoding {
        Encoding::Json => Batch::decode::<Json>(bytes),
        Encoding::Protobuf => Batch::decode::<Protobuf>(bytes),
        Encoding::Avro => Batch::decode::<Avro>(bytes),
    };
    batch
        .map(Vec::from)
        .map_err(|error| format_finding(error, policy))
}

/// One event as a line or a record carries it.
fn read_single(single: Single<'_>, policy: &Policy) -> Result<AnyEvent, Box<Violation>> {
    match single {
        Single::Event(encoding, bytes) => read_event(encoding, bytes, policy),
        Single::KafkaBinary(record) => kafka::from_record::<AnyEvent>(record)
            .map_err(|error| Box::new(error.violation_under(policy))),
    }
}

/// A format's refusal as the finding the bindings give it (the event's index leading the
/// attribute for a batch).
fn format_finding(error: FormatError, policy: &Policy) -> Box<Violation> {
    Box::new(BindingError::Event(error).violation_under(policy))
}

/// Writes one event in an event format.
fn write_event(encoding: Encoding, event: &AnyEvent) -> Result<Vec<u8>, String> {
    let written = match encoding {
        Encoding::Json => event.encode::<Json>(),
        Encoding::Protobuf => event.encode::<Protobuf>(),
        Encoding::Avro => event.encode::<Avro>(),
    };
    written.map_err(|error| error.to_string())
}

/// Signs what a body holds and writes it again in the same format.
fn sign_body(
    body: Body<'_>,
    policy: &Policy,
    signer: &dyn Fn(&mut AnyEvent) -> Result<(), String>,
) -> Result<Vec<u8>, String> {
    let encoding = match body {
        Body::Document(_) | Body::HttpBinary(..) => Encoding::Json,
        Body::Event(encoding, _) | Body::Batch(encoding, _) => encoding,
    };
    match read_body(body, policy).map_err(|finding| finding.to_string())? {
        Events::One(mut event) => {
            signer(&mut event)?;
            write_event(encoding, &event)
        }
        Events::Batch(mut events) => {
            for (index, event) in events.iter_mut().enumerate() {
                signer(event).map_err(|error| format!("batch event #{index}: {error}"))?;
            }
            let batch = Batch::from(events);
            let written = match encoding {
                Encoding::Json => batch.encode::<Json>(),
                Encoding::Protobuf => batch.encode::<Protobuf>(),
                Encoding::Avro => batch.encode::<Avro>(),
            };
            written.map_err(|error| error.to_string())
        }
    }
}

/// Signs the event of an HTTP message and writes the message again in its content mode: in
/// binary mode the `ce-` headers and `Content-Type` are written anew, in the other modes the
/// body; the start line and the other header fields stay.
fn sign_http(
    message: &input::Message<'_>,
    body: Body<'_>,
    policy: &Policy,
    signer: &dyn Fn(&mut AnyEvent) -> Result<(), String>,
) -> Result<Vec<u8>, String> {
    let mut headers = message.request.headers().clone();
    let written = match body {
        Body::HttpBinary(headers_read, body) => {
            let (mut event, _) = input::http_binary(headers_read, body, policy)
                .map_err(|error| error.violation_under(policy).to_string())?;
            signer(&mut event)?;
            write::clear_binary_headers(&mut headers);
            http::write_event(&event, ContentMode::Binary, &mut headers)
                .map_err(|error| error.to_string())?
        }
        _ => sign_body(body, policy, signer)?,
    };
    Ok(cloudevent_cli::http_message::write_http_message(
        message.start_line,
        &headers,
        &written,
    ))
}

/// Signs the event of a Kafka record and gives the record again in its mode: a structured
/// record's value is written anew in its format, a binary one's `ce_` headers,
/// `content-type` and value; the key and the other headers stay.
fn sign_record(
    record: &kafka::KafkaRecord,
    value: RecordValue<'_>,
    policy: &Policy,
    signer: &dyn Fn(&mut AnyEvent) -> Result<(), String>,
) -> Result<kafka::KafkaRecord, String> {
    let mut event =
        read_single(Single::of_record(record, value), policy).map_err(|f| f.to_string())?;
    signer(&mut event)?;
    let mut signed = record.clone();
    match value {
        RecordValue::Event(encoding, _) => signed.value = Some(write_event(encoding, &event)?),
        RecordValue::Binary => {
            let binary =
                kafka::to_record(&event, ContentMode::Binary).map_err(|error| error.to_string())?;
            signed
                .headers
                .retain(|(name, _)| !write::is_binary_kafka_header(name));
            signed.headers.extend(binary.headers);
            signed.value = binary.value;
        }
    }
    Ok(signed)
}

/// `cloudevent verify`.
pub fn run_verify(args: VerifyArgs) -> ExitCode {
    let key = match read_text(&args.key)
        .and_then(|pem| VerifyingKey::from_public_key_pem(&pem).map_err(|e| e.to_string()))
    {
        Ok(key) => key,
        Err(error) => return usage(&args.key, &error),
    };
    let keys = TrustedKeys::new().with_key(args.key_id, key);
    let name = display_name(&args.file);
    let outcome = match read_input(&args.file) {
        Ok(Ok(bytes)) => Outcome::Checked(verify_input(args.format, &bytes, &keys)),
        Ok(Err(too_large)) => Outcome::Checked(Checked::refused_with(too_large)),
        Err(error) => Outcome::Unreadable(error),
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = match args.output {
        Output::Text => write_text(&mut out, &name, &outcome),
        Output::Json => {
            let mut json = JsonReport::new(Profile::CloudEvents);
            json.begin(&mut out)
                .and_then(|()| json.input(&mut out, &name, &outcome))
                .and_then(|()| json.finish(&mut out))
        }
    };
    if let Err(error) = written.and_then(|()| out.flush()) {
        eprintln!("cloudevent verify: writing the report failed: {error}");
        return ExitCode::from(USAGE);
    }
    match outcome {
        Outcome::Unreadable(reason) => {
            eprintln!("cloudevent verify: {}: {}", clean(&name), clean(&reason));
            ExitCode::from(USAGE)
        }
        Outcome::Checked(checked) => ExitCode::from(u8::from(!checked.is_valid())),
    }
}

/// Verifies every event `bytes` carries, each on its own, into `validate`'s report on one
/// input.
fn verify_input(format: Format, bytes: &[u8], keys: &TrustedKeys) -> Checked {
    let policy = policy();
    // The id and attributes each event's report shows, as `validate` reads them.
    let validator = Validator::new(policy.clone());
    let judge = |index: Option<usize>, event: &AnyEvent| {
        let findings = match verify(event, keys) {
            Ok(_) => Vec::new(),
            Err(error) => vec![finding(&error)],
        };
        EventResult::judged(index, &validator.validate(event), findings)
    };
    Checked::of_input(
        format,
        bytes,
        &policy,
        &mut |body| match read_body(body, &policy) {
            Err(finding) => Checked::refused_with(*finding),
            Ok(Events::One(event)) => {
                let mut checked = Checked::listing("event");
                checked.add(|| judge(None, &event));
                checked
            }
            Ok(Events::Batch(events)) => {
                let mut checked = Checked::listing("batch");
                for (index, event) in events.iter().enumerate() {
                    checked.add(|| judge(Some(index), event));
                }
                checked
            }
        },
        &mut |index, single| match read_single(single, &policy) {
            Ok(event) => judge(index, &event),
            Err(finding) => EventResult::refused(index, vec![*finding]),
        },
    )
}

/// A verification finding in `validate`'s shape: rule `CE verifiability`, attribute
/// `dssematerial`, the step of the Verification Protocol as its part.
fn finding(error: &VerifyError) -> Violation {
    error
        .violation()
        .with_part(format!("step {}", error.step()))
}

fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}

fn usage(path: &Path, error: &str) -> ExitCode {
    eprintln!(
        "cloudevent: {}: {}",
        clean(&display_name(path)),
        clean(error)
    );
    ExitCode::from(USAGE)
}

/// Reads an input as `validate` does: at most the batch limit; past it, the finding.
fn read_input(path: &Path) -> Result<Result<Vec<u8>, Violation>, String> {
    let read = if path == Path::new("-") {
        input::read_bounded(&mut io::stdin().lock())
    } else {
        std::fs::File::open(path).and_then(|mut file| input::read_bounded(&mut file))
    };
    read.map_err(|error| format!("cannot read: {error}"))
}

/// A key file (`-` for standard input).
fn read_text(path: &Path) -> Result<String, String> {
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        io::stdin().lock().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|mut file| file.read_to_end(&mut bytes))
    };
    read.map_err(|error| format!("cannot read: {error}"))?;
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_owned())
}
