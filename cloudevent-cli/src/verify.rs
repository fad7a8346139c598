//! `cloudevent sign` and `cloudevent verify`: the CloudEvents verifiability extension on one
//! event in a file, through the runtime's `verify` module (the same digest, envelope and
//! verdict as the library).
//!
//! `sign --key PRIVATE.pem --key-id ID [--extensions a,b] FILE` prints the event with
//! `dssematerial` set, in the format it was read in. `verify --key PUBLIC.pem --key-id ID
//! FILE` prints `ok <file> <id>` and exits 0 when the event verifies under that key, or
//! prints the finding as `validate` does (`<file>: error CE verifiability: <message>`) and
//! exits 1. Keys are PEM: PKCS#8 private keys and SPKI public keys, P-256 or Ed25519 (what
//! `openssl genpkey` and `openssl pkey -pubout` write).
//!
//! Formats: one event in the JSON event format (the default), the Protobuf format or the Avro
//! format. `verify` reports an input that is not an event as a finding (exit 1); exit status
//! 2 for usage errors, an unreadable file or key, and (for `sign`) an event that cannot be
//! read or signed.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cloudevent_runtime::verify::{SigningKey, TrustedKeys, VerifyingKey, sign, verify};
use cloudevent_runtime::{AnyEvent, Attributes, Avro, FormatError, Json, Protobuf};

/// The event formats `sign` and `verify` read and write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The JSON event format, one event.
    Json,
    /// The CloudEvents Protobuf format, one `CloudEvent` message.
    Protobuf,
    /// The CloudEvents Avro format, one event.
    Avro,
}

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
    /// The event's format.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    format: Format,
    /// The event (`-` for standard input).
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
    /// The event's format.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    format: Format,
    /// The event (`-` for standard input).
    file: PathBuf,
}

/// `cloudevent sign`.
pub fn run_sign(args: SignArgs) -> ExitCode {
    let key = match read_text(&args.key)
        .and_then(|pem| SigningKey::from_pkcs8_pem(&args.key_id, &pem).map_err(|e| e.to_string()))
    {
        Ok(key) => key,
        Err(error) => return usage(&args.key, &error),
    };
    let mut event = match read_event(&args.file, args.format) {
        Ok(event) => event,
        Err(error) => return usage(&args.file, &error),
    };
    let extensions: Vec<&str> = args.extensions.iter().map(String::as_str).collect();
    if let Err(error) = sign(&mut event, &key, &extensions) {
        return usage(&args.file, &error.to_string());
    }
    let written = match args.format {
        Format::Json => event.encode::<Json>(),
        Format::Protobuf => event.encode::<Protobuf>(),
        Format::Avro => event.encode::<Avro>(),
    };
    match written {
        Ok(bytes) => {
            let mut out = io::stdout().lock();
            let newline: &[u8] = if args.format == Format::Json {
                b"\n"
            } else {
                b""
            };
            match out.write_all(&bytes).and_then(|()| out.write_all(newline)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::from(2),
            }
        }
        Err(error) => usage(&args.file, &error.to_string()),
    }
}

/// `cloudevent verify`.
pub fn run_verify(args: VerifyArgs) -> ExitCode {
    let key = match read_text(&args.key)
        .and_then(|pem| VerifyingKey::from_public_key_pem(&pem).map_err(|e| e.to_string()))
    {
        Ok(key) => key,
        Err(error) => return usage(&args.key, &error),
    };
    let name = args.file.display().to_string();
    let bytes = match read_bytes(&args.file) {
        Ok(bytes) => bytes,
        Err(error) => return usage(&args.file, &error),
    };
    // An input that is not an event is a finding, as `validate` reports it.
    let event = match decode(&bytes, args.format) {
        Ok(event) => event,
        Err(error) => {
            println!("{name}: error {error}");
            return ExitCode::from(1);
        }
    };
    let keys = TrustedKeys::new().with_key(args.key_id, key);
    match verify(&event, &keys) {
        Ok(verified) => {
            println!("ok {name} {}", verified.event().id());
            ExitCode::SUCCESS
        }
        Err(error) => {
            println!("{name}: error {}: {error}", error.rule());
            ExitCode::from(1)
        }
    }
}

fn usage(path: &Path, error: &str) -> ExitCode {
    eprintln!("cloudevent: {}: {error}", path.display());
    ExitCode::from(2)
}

fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        io::stdin().lock().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::File::open(path).and_then(|mut file| file.read_to_end(&mut bytes).map(|_| ()))
    };
    read.map(|()| bytes).map_err(|e| e.to_string())
}

fn read_text(path: &Path) -> Result<String, String> {
    String::from_utf8(read_bytes(path)?).map_err(|_| "not UTF-8 text".to_owned())
}

fn read_event(path: &Path, format: Format) -> Result<AnyEvent, String> {
    decode(&read_bytes(path)?, format).map_err(|e| e.to_string())
}

/// One event, read strictly under the CloudEvents MUSTs (`AnyEvent`'s default policy).
fn decode(bytes: &[u8], format: Format) -> Result<AnyEvent, FormatError> {
    match format {
        Format::Json => AnyEvent::decode::<Json>(bytes),
        Format::Protobuf => AnyEvent::decode::<Protobuf>(bytes),
        Format::Avro => AnyEvent::decode::<Avro>(bytes),
    }
}
