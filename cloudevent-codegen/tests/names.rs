//! One naming of everything generated: two definitions never share a Rust name in a module.
//! A name typify would give twice (a shared definition named as another's inline member, two
//! files with one stem, a definition named as an inline member of the event) is renamed,
//! deterministically, qualified by the schema's folder and file; nothing is refused for it.
//! `tests/sets.rs` compiles this output (`the_readme_dependency_block_builds_generated_code`).

use cloudevent_codegen::Builder;
use std::env;

fn fixture() -> String {
    format!(
        "{}/tests/fixtures/name-collision",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn generate() -> cloudevent_codegen::GeneratedRust {
    Builder::new()
        .schemas(fixture())
        .lock_file(env::temp_dir().join("cloudevent-names-unused.lock.json"))
        .generate()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn colliding_names_are_renamed_not_refused() {
    let rust = generate();
    assert!(rust.refused.is_empty(), "{:?}", rust.refused);
    let text = rust.single_file().unwrap();
    // Every type name is defined once in its module: the file parses, and each module's
    // struct/enum/type names are distinct.
    let file: syn::File = syn::parse_str(&text).unwrap();
    fn check(items: &[syn::Item], at: &str) {
        let mut seen = std::collections::BTreeSet::new();
        for item in items {
            let ident = match item {
                syn::Item::Struct(s) => s.ident.to_string(),
                syn::Item::Enum(e) => e.ident.to_string(),
                syn::Item::Type(t) => t.ident.to_string(),
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        check(inner, &format!("{at}::{}", m.ident));
                    }
                    continue;
                }
                _ => continue,
            };
            assert!(seen.insert(ident.clone()), "`{ident}` twice in `{at}`");
        }
    }
    check(&file.items, "crate");
    // The shared `order_line.json` is qualified by its file (typify names `order.json`'s
    // inline `line` `OrderLine`); two files of one stem get their folders' names.
    assert!(text.contains("pub struct CommonOrderLine"), "{text}");
    assert!(text.contains("pub struct OrderLine"), "{text}");
    assert!(text.contains("pub struct Address") && text.contains("pub struct DefsAddress"));
    // The event's own definition `ShopOrderedLine` gives way to its inline `line`.
    assert!(
        text.contains("pub struct ShopOrderedLineDefinition"),
        "{text}"
    );
    assert!(
        text.contains("pub extra: ::std::option::Option<ShopOrderedLineDefinition>"),
        "{text}"
    );
}

#[test]
fn the_renaming_is_deterministic() {
    assert_eq!(
        generate().single_file().unwrap(),
        generate().single_file().unwrap()
    );
}
