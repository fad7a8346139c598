//! `cargo xtask demo`: the library's promise on the bundled registry, in four sections.
//!
//! 1. The generated types are up to date with `schemas/` (the check `cargo xtask codegen
//!    --check` runs: both directions, the compatibility gate, every generated file).
//! 2. A compile-time refusal: the declaration of `tests/ui/type/uppercase_segment.rs` goes
//!    through `Policy::check_declaration`, the check `#[derive(CloudEvent)]` calls, and the
//!    derive's error message is printed (trybuild holds the compiler's output to the same
//!    text in `tests/ui/type/uppercase_segment.stderr`; no nested build here).
//! 3. Events produced from a generated type (`orders_example::generated`): structured-mode
//!    JSON and an HTTP binary-mode request, read back typed.
//! 4. A gateway refusing a bad event: an HTTP binary-mode request with a bad `type` and a
//!    private-IP `source`, checked under the `intg-std-015` profile as
//!    `binding::axum::Checked<AnyEvent>` checks it; the rule ids and the 400 body it answers.
//!
//! Every section writes into one `String`, so a test holds the sections to what they show.

use cloudevent_runtime::Validate;
use std::fmt::Write as _;
use std::path::Path;

use cloudevent_runtime::binding::{ContentMode, http};
use cloudevent_runtime::rules::Declaration;
use cloudevent_runtime::{Event, Json, Policy, Profile, Validator};
use orders_example::generated::order_created_v1::OrderCreated;

/// The UI test whose declaration section 2 checks, relative to the workspace root.
pub(crate) const REFUSED_DECLARATION: &str = "tests/ui/type/uppercase_segment.rs";

/// Runs the demo and prints it.
pub(crate) fn run(args: &[String], root: &Path) -> Result<(), String> {
    if let Some(arg) = args.first() {
        return Err(format!("`demo` takes no arguments, found `{arg}`"));
    }
    let mut out = String::new();
    let result = demo(root, &mut out);
    print!("{out}");
    result
}

/// The four sections, written to `out` (also when one fails).
pub(crate) fn demo(root: &Path, out: &mut String) -> Result<(), String> {
    heading(
        out,
        1,
        "generated types are up to date with schemas/ (cargo xtask codegen --check)",
    );
    crate::codegen::codegen(&["--check".to_owned()], root, out)?;

    heading(out, 2, "a compile-time refusal, explained");
    refusal(root, out)?;

    heading(out, 3, "events produced from a generated type");
    let request = produce(out)?;

    heading(out, 4, "a gateway refusing a bad event");
    gateway(&request, out)
}

fn heading(out: &mut String, number: u8, title: &str) {
    let _ = writeln!(out, "\n== {number}. {title} ==\n");
}

/// The declaration of the UI test `REFUSED_DECLARATION` through the derive's check.
fn refusal(root: &Path, out: &mut String) -> Result<(), String> {
    let path = root.join(REFUSED_DECLARATION);
    let source = std::fs::read_to_string(&path)
        .map_err(|e| format!("could not read {}: {e}", path.display()))?;
    let ty = declared_type(&source)
        .ok_or_else(|| format!("{REFUSED_DECLARATION} declares no `type = \"...\"`"))?;
    let _ = writeln!(out, "{REFUSED_DECLARATION}:\n");
    for line in source
        .lines()
        .filter(|l| l.starts_with('#') || l.starts_with("struct"))
    {
        let _ = writeln!(out, "    {line}");
    }
    let _ = writeln!(
        out,
        "\n`cargo build` stops here. The derive checks the literal with cloudevent-rules'\n\
         Policy::check_declaration under the crate's profile (intg-std-015, the default of\n\
         [package.metadata.cloudevent]) and reports each broken MUST at the literal. The\n\
         derive's message, as the compiler prints it:\n"
    );
    let declaration = Declaration {
        ty: Some(ty),
        ..Declaration::default()
    };
    let errors: Vec<_> = Policy::new(Profile::IntgStd015)
        .check_declaration(&declaration)
        .into_iter()
        .filter(|v| v.is_error())
        .collect();
    if errors.is_empty() {
        return Err(format!(
            "the declaration of {REFUSED_DECLARATION} was accepted"
        ));
    }
    for violation in &errors {
        let _ = writeln!(out, "error: {violation}");
    }
    let _ = writeln!(
        out,
        "\n(trybuild holds the compiler's output to this text: {}.)",
        REFUSED_DECLARATION.replace(".rs", ".stderr")
    );
    Ok(())
}

/// The literal of `type = "..."` in a UI test's source.
pub(crate) fn declared_type(source: &str) -> Option<&str> {
    let start = source.find("type = \"")? + "type = \"".len();
    let len = source[start..].find('"')?;
    Some(&source[start..start + len])
}

/// An `OrderCreated` event (generated from `schemas/com.example.order.created/v1.json`) as
/// JSON and as an HTTP binary-mode request; returns the request.
fn produce(out: &mut String) -> Result<::http::Request<Vec<u8>>, String> {
    // Built as every producer should build a generated payload: its builder, so a schema
    // change the gate calls compatible needs no change to this code.
    let order = orders_example::producer::first_order()
        .map_err(|e| format!("the example order does not fit its generated type: {e}"))?;
    let event = Event::new(order);
    let json = serde_json::to_string_pretty(&event)
        .map_err(|e| format!("the event does not serialize: {e}"))?;
    let _ = writeln!(
        out,
        "Event::new(OrderCreated::try_from(OrderCreated::builder().order_id(..) ..)?)\n\
         (examples/orders/src/producer.rs, first_order; the type is generated in\n\
         examples/orders/src/generated/order_created_v1.rs):\n\
         a fresh id, the time now, type, source, dataschema from the schema, subject and the\n\
         `tenant` extension from the payload, ADR-0003 traceability. Structured mode:\n\n{json}\n"
    );
    let request = http::event_request(
        "https://gateway.example.com/orders",
        &event,
        ContentMode::Binary,
    )
    .map_err(|e| format!("the event does not fit an HTTP request: {e}"))?;
    let _ = writeln!(out, "The same event as an HTTP binary-mode request:\n");
    write_request(&request, out);
    let back: Event<OrderCreated> =
        http::from_request(&request).map_err(|e| format!("the request does not read back: {e}"))?;
    let bytes =
        serde_json::to_vec(&back).map_err(|e| format!("the event does not serialize: {e}"))?;
    let report = Validator::new(
        cloudevent_runtime::Policy::new(Profile::IntgStd015).with_required_traceability(true),
    )
    .validate_bytes::<Json>(&bytes);
    let verdict = if report.is_valid() {
        "valid".to_owned()
    } else {
        report.to_string()
    };
    let _ = writeln!(
        out,
        "\nRead back typed with http::from_request::<Event<OrderCreated>>: order {}, {} item(s);\n\
         the intg-std-015 validator with traceability required: {verdict}.",
        back.data().order_id,
        back.data().items.len(),
    );
    if report.is_valid() {
        Ok(request)
    } else {
        Err(format!("the produced event is not valid: {report}"))
    }
}

/// The request as it would go on the wire (HTTP/1.1), body as text.
fn write_request(request: &::http::Request<Vec<u8>>, out: &mut String) {
    let _ = writeln!(out, "{} {} HTTP/1.1", request.method(), request.uri());
    for (name, value) in request.headers() {
        let _ = writeln!(
            out,
            "{name}: {}",
            value.to_str().unwrap_or("(not visible ASCII)")
        );
    }
    let _ = writeln!(out, "\n{}", String::from_utf8_lossy(request.body()));
}

/// The type and source the gateway refuses in section 4.
const BAD_TYPE: &str = "com.example.Order.created";
const BAD_SOURCE: &str = "https://10.0.0.7/orders";

/// The request of section 3 with a bad `type` and a private-IP `source`, checked under
/// `intg-std-015`: the verdict and the 400 body of `binding::axum::Checked<AnyEvent>`.
fn gateway(request: &::http::Request<Vec<u8>>, out: &mut String) -> Result<(), String> {
    let mut bad = request.clone();
    for (name, value) in [("ce-type", BAD_TYPE), ("ce-source", BAD_SOURCE)] {
        let value = value
            .parse()
            .map_err(|e| format!("`{value}` is not a header value: {e}"))?;
        bad.headers_mut().insert(name, value);
    }
    let _ = writeln!(
        out,
        "The request of section 3 with `ce-type: {BAD_TYPE}` and `ce-source: {BAD_SOURCE}`,\n\
         received by a gateway that takes `binding::axum::Checked<AnyEvent>` with\n\
         `Policy::new(Profile::IntgStd015)` in its router state. The extractor reads the\n\
         message, and the policy's report on the event it stands for is the answer:\n"
    );
    let policy = Policy::new(Profile::IntgStd015);
    let (_, document, _) = http::structured_document(bad.headers(), bad.body(), &policy)
        .map_err(|e| format!("the binding refused the message itself: {e}"))?;
    let report = Validator::new(policy).validate_bytes::<Json>(&document);
    if report.is_valid() {
        return Err("the gateway accepted an event with a bad type and source".to_owned());
    }
    let _ = writeln!(out, "{report}\n");
    let body = serde_json::to_string_pretty(&report)
        .map_err(|e| format!("the report does not serialize: {e}"))?;
    let _ = writeln!(
        out,
        "HTTP/1.1 400 Bad Request\ncontent-type: application/json\n\n{body}\n\n\
         (The body is the report `cloudevent validate --output json` writes; shown indented.\n\
         The request body, the order, is never echoed.)"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The demo runs on this repository and shows every section; the refusal it prints is the
    /// compiler's message that trybuild records for the same declaration.
    #[test]
    fn the_demo_shows_the_whole_promise() {
        let root = crate::workspace_root();
        let mut out = String::new();
        let result = demo(&root, &mut out);
        assert!(result.is_ok(), "{result:?}\n{out}");

        for section in [
            "== 1. generated types are up to date",
            "generated files are up to date",
            "== 2. a compile-time refusal, explained",
            "== 3. events produced from a generated type",
            "\"type\": \"com.example.order.created\"",
            "POST https://gateway.example.com/orders HTTP/1.1",
            "ce-type: com.example.order.created",
            "validator with traceability required: valid.",
            "== 4. a gateway refusing a bad event",
            "error INTG-STD-015 R-4: type `com.example.Order.created`",
            "error INTG-STD-015 R-14: source `https://10.0.0.7/orders`",
            "HTTP/1.1 400 Bad Request",
            "\"valid\": false",
        ] {
            assert!(out.contains(section), "missing {section:?} in:\n{out}");
        }

        let stderr =
            std::fs::read_to_string(root.join(REFUSED_DECLARATION.replace(".rs", ".stderr")))
                .unwrap();
        let compiler = stderr.lines().next().unwrap();
        assert!(
            out.lines().any(|line| line == compiler),
            "the demo's refusal differs from the compiler's `{compiler}`:\n{out}"
        );
    }

    #[test]
    fn the_declared_type_is_the_literal() {
        let source = "#[cloudevent(type = \"com.Example.order\")]\nstruct A;";
        assert_eq!(declared_type(source), Some("com.Example.order"));
        assert_eq!(declared_type("struct A;"), None);
    }
}
