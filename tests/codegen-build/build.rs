//! Generates the payload types of the bundled registry into `OUT_DIR`, as a user's build
//! script would.

fn main() {
    if let Err(error) = cloudevent_codegen::Builder::new()
        .schemas("../../schemas")
        .generate_to_out_dir()
    {
        // A build script reports by failing; the message names file, pointer, rule and fix.
        eprintln!("{error}");
        std::process::exit(1);
    }
}
