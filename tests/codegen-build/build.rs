//! Generates the payload types of the bundled registry into `OUT_DIR`, as a user's build
//! script would; and the types of a schema set published by others (the CDEvents-shaped
//! fixture of `cloudevent-codegen`), whose types carry their own profile; and the shapes
//! typify mishandles on its own (`cloudevent-codegen/tests/fixtures/shapes`); and an xRegistry
//! message catalog (`cloudevent-codegen/tests/fixtures/xregistry`); and a registry whose type
//! is deprecated (`cloudevent-codegen/tests/fixtures/deprecated`); and extensions filled from
//! nested members (`cloudevent-codegen/tests/fixtures/nested-extensions`).

use cloudevent_codegen::Profile;

fn main() {
    if let Err(error) = cloudevent_codegen::Builder::new()
        .schemas("../../schemas")
        .generate_to_out_dir()
    {
        // A build script reports by failing; the message names file, pointer, rule and fix.
        eprintln!("{error}");
        std::process::exit(1);
    }
    if let Err(error) = cloudevent_codegen::Builder::new()
        .schemas("../../cloudevent-codegen/tests/fixtures/shapes/schemas")
        .file_name("shapes.rs")
        .generate_to_out_dir()
    {
        eprintln!("{error}");
        std::process::exit(1);
    }
    if let Err(error) = cloudevent_codegen::Builder::new()
        .schemas("../../cloudevent-codegen/tests/fixtures/cdevents-shaped/schemas")
        .type_pointer("/properties/context/properties/type")
        .subject_pointer("/subject/id")
        .id_pointer("/context/id")
        .time_pointer("/context/timestamp")
        .source_pointer("/context/source")
        // A nested, optional member: every CDEvents context has an optional `chainId`.
        .extension_pointer("chainid", "/context/chainId")
        .profile(Profile::CloudEvents)
        .file_name("cdevents.rs")
        .generate_to_out_dir()
    {
        eprintln!("{error}");
        std::process::exit(1);
    }
    if let Err(error) = cloudevent_codegen::Builder::new()
        .schemas("../../cloudevent-codegen/tests/fixtures/deprecated/schemas")
        .file_name("deprecated.rs")
        .generate_to_out_dir()
    {
        eprintln!("{error}");
        std::process::exit(1);
    }
    if let Err(error) = cloudevent_codegen::Builder::new()
        .xregistry("../../cloudevent-codegen/tests/fixtures/xregistry/catalog.json")
        .profile(Profile::CloudEvents)
        .file_name("xregistry.rs")
        .generate_to_out_dir()
    {
        eprintln!("{error}");
        std::process::exit(1);
    }
    // Extensions from members at any depth, through optional objects.
    if let Err(error) = cloudevent_codegen::Builder::new()
        .schemas("../../cloudevent-codegen/tests/fixtures/nested-extensions/schemas")
        .type_pointer("/x-cloudevent-type")
        .extension_pointer("tenantid", "/context/tenant/id")
        .extension_pointer("zone", "/context/site/zone")
        .extension_pointer("rack", "/context/site/rack")
        .profile(Profile::CloudEvents)
        .file_name("nested.rs")
        .generate_to_out_dir()
    {
        eprintln!("{error}");
        std::process::exit(1);
    }
    // Fidelity: a webhook-shaped folder whose events must re-emit their data unchanged.
    if let Err(error) = cloudevent_codegen::Builder::new()
        .schemas("../../cloudevent-codegen/tests/fixtures/webhook-shaped/schemas")
        .type_pointer("/x-cloudevent-type")
        .profile(Profile::CloudEvents)
        .file_name("webhook.rs")
        .generate_to_out_dir()
    {
        eprintln!("{error}");
        std::process::exit(1);
    }
    // Fidelity at the edges: members typed only `null`, `{}` in a `oneOf` branch, integers
    // beyond `u64` and spelled `2.0` (issue 26).
    if let Err(error) = cloudevent_codegen::Builder::new()
        .schemas("../../cloudevent-codegen/tests/fixtures/fidelity-edges/schemas")
        .type_pointer("/x-cloudevent-type")
        .profile(Profile::CloudEvents)
        .file_name("edges.rs")
        .generate_to_out_dir()
    {
        eprintln!("{error}");
        std::process::exit(1);
    }
    // `date-time` under type mappings (issue 26, one verdict): the published-set layout
    // (templates, a types pointer) and a registry of one's own read with a template.
    let fixture = "../../cloudevent-codegen/tests/fixtures/date-time";
    if let Err(error) = cloudevent_codegen::Builder::new()
        .schemas(format!("{fixture}/published"))
        .type_template("com.example.{dir}.{/properties/action}")
        .types_pointer("/cloudeventTypes")
        .dataschema_base("https://schemas.example.com/published/")
        .profile(Profile::CloudEvents)
        .lock_file(format!("{fixture}/published.lock.json"))
        .file_name("date_time_published.rs")
        .generate_to_out_dir()
    {
        eprintln!("{error}");
        std::process::exit(1);
    }
    if let Err(error) = cloudevent_codegen::Builder::new()
        .schemas(format!("{fixture}/own"))
        .type_template("{dir}")
        .profile(Profile::CloudEvents)
        .lock_file(format!("{fixture}/own.lock.json"))
        .file_name("date_time_own.rs")
        .generate_to_out_dir()
    {
        eprintln!("{error}");
        std::process::exit(1);
    }
}
