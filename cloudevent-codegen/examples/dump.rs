//! Prints the Rust generated from a registry directory (default `schemas/`).
fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "schemas".to_owned());
    match cloudevent_codegen::Builder::new()
        .schemas(dir)
        .generate_string()
    {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
