//! Distinct Rust names for members whose JSON names are one Rust name once converted
//! (issue 37, item 2). typify turns `foo bar`, `foo\nbar`, `foo"bar`, `foo-bar` and `foo_bar`
//! all into `foo_bar` (and `$ref`, `ref`, `ref_` into `ref_`), keeps each JSON name in
//! `#[serde(rename)]`, and writes the struct with the field declared several times, which
//! does not compile (E0124); their schema defaults become functions of one name (E0428).
//!
//! This pass over typify's output keeps the name for the member whose JSON name it is
//! (`foo_bar`), else for the first, and numbers the others in the struct's order
//! (`foo_bar_2`, `foo_bar_3`; `ref_2` beside `ref_`); every renamed field keeps its JSON name in
//! `#[serde(rename = "...")]`, so the data read and written is unchanged. A renamed member's
//! default function and its place in a hand-written `impl Default` follow the field.

use std::collections::{BTreeMap, BTreeSet};

use quote::{ToTokens, format_ident};

use crate::mapping::property_name;

/// Gives every field of every struct, and of every struct-like enum variant, of one
/// generated module a name of its own.
pub(crate) fn distinct_members(syntax: &mut syn::File) {
    // Default functions by name, each use in the order the fields name them, so the n-th
    // function of a name given twice is the n-th field's.
    let mut renamed_defaults: Vec<(String, Option<String>)> = Vec::new();
    let mut renamed_fields: BTreeMap<String, Vec<Option<Renamed>>> = BTreeMap::new();
    for item in &mut syntax.items {
        match item {
            syn::Item::Struct(item) => {
                if let syn::Fields::Named(fields) = &mut item.fields {
                    let type_name = item.ident.to_string();
                    let renames = distinct_fields(fields, &type_name, &mut renamed_defaults);
                    if renames.iter().any(Option::is_some) {
                        renamed_fields.insert(type_name, renames);
                    }
                }
            }
            syn::Item::Enum(item) => {
                let type_name = item.ident.to_string();
                for variant in &mut item.variants {
                    if let syn::Fields::Named(fields) = &mut variant.fields {
                        distinct_fields(fields, &type_name, &mut renamed_defaults);
                    }
                }
            }
            _ => {}
        }
    }
    if renamed_fields.is_empty() && renamed_defaults.iter().all(|(_, new)| new.is_none()) {
        return;
    }
    for item in &mut syntax.items {
        match item {
            syn::Item::Impl(item) => default_impl(item, &renamed_fields),
            syn::Item::Mod(module) if module.ident == "defaults" => {
                rename_default_functions(module, &renamed_defaults);
            }
            _ => {}
        }
    }
}

/// A field given a name of its own: the name, and its default function's old and new names.
struct Renamed {
    ident: syn::Ident,
    default: Option<(String, String)>,
}

/// Renames the fields whose name an earlier one holds; returns, field by field, the new
/// name of those renamed. `defaults` gets one entry a field with a default function: its
/// name, and its new name when the field was renamed.
fn distinct_fields(
    fields: &mut syn::FieldsNamed,
    type_name: &str,
    defaults: &mut Vec<(String, Option<String>)>,
) -> Vec<Option<Renamed>> {
    let names: Vec<String> = fields
        .named
        .iter()
        .map(|f| {
            f.ident
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default()
        })
        .collect();
    let mut taken: BTreeSet<String> = names.iter().cloned().collect();
    // Which field keeps a name given several times: the one whose JSON name it is.
    let mut keeper: BTreeMap<&str, usize> = BTreeMap::new();
    for (index, field) in fields.named.iter().enumerate() {
        let name = names[index].as_str();
        let exact = property_name(field) == name;
        match keeper.get(name) {
            None => {
                keeper.insert(name, index);
            }
            Some(_) if exact => {
                keeper.insert(name, index);
            }
            Some(_) => {}
        }
    }
    let mut out = Vec::with_capacity(names.len());
    for (index, field) in fields.named.iter_mut().enumerate() {
        let name = names[index].as_str();
        let default = default_function(field);
        if keeper.get(name) == Some(&index) {
            if let Some(default) = default {
                defaults.push((default, None));
            }
            out.push(None);
            continue;
        }
        // `ref_` (typify's escape of a keyword) becomes `ref_2`, not `ref__2`.
        let stem = match name.trim_end_matches('_') {
            "" => name,
            stem => stem,
        };
        let new = (2..)
            .map(|n| format!("{stem}_{n}"))
            .find(|candidate| !taken.contains(candidate))
            .unwrap_or_else(|| format!("{name}_{index}"));
        taken.insert(new.clone());
        let json = property_name(field);
        if !field.attrs.iter().any(has_rename) {
            field
                .attrs
                .push(syn::parse_quote!(#[serde(rename = #json)]));
        }
        let ident = format_ident!("{}", new);
        field.ident = Some(ident.clone());
        let default = default.map(|old| {
            let function = format!("{}_{new}", heck::ToSnakeCase::to_snake_case(type_name));
            rename_default_attr(field, &old, &function);
            defaults.push((old.clone(), Some(function.clone())));
            (old, function)
        });
        out.push(Some(Renamed { ident, default }));
    }
    out
}

/// The function of `#[serde(default = "defaults::x")]`, `x`.
fn default_function(field: &syn::Field) -> Option<String> {
    let mut function = None;
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|nested| {
            if nested.path.is_ident("default") && nested.input.peek(syn::Token![=]) {
                let literal: syn::LitStr = nested.value()?.parse()?;
                if let Some(name) = literal.value().strip_prefix("defaults::") {
                    function = Some(name.to_owned());
                }
            } else if nested.input.peek(syn::Token![=]) {
                let _: syn::Expr = nested.value()?.parse()?;
            } else if nested.input.peek(syn::token::Paren) {
                let _: proc_macro2::TokenStream = nested.input.parse()?;
            }
            Ok(())
        });
    }
    function
}

fn has_rename(attr: &syn::Attribute) -> bool {
    let mut found = false;
    if attr.path().is_ident("serde") {
        let _ = attr.parse_nested_meta(|nested| {
            found |= nested.path.is_ident("rename");
            if nested.input.peek(syn::Token![=]) {
                let _: syn::Expr = nested.value()?.parse()?;
            } else if nested.input.peek(syn::token::Paren) {
                let _: proc_macro2::TokenStream = nested.input.parse()?;
            }
            Ok(())
        });
    }
    found
}

fn rename_default_attr(field: &mut syn::Field, old: &str, new: &str) {
    let from = format!("\"defaults::{old}\"");
    let to = format!("\"defaults::{new}\"");
    for attr in field
        .attrs
        .iter_mut()
        .filter(|a| a.path().is_ident("serde"))
    {
        let text = attr.meta.to_token_stream().to_string();
        if text.contains(&from)
            && let Ok(meta) = syn::parse_str::<syn::Meta>(&text.replacen(&from, &to, 1))
        {
            attr.meta = meta;
        }
    }
}

/// typify writes the default functions of a name in the order its fields name them; the
/// n-th function of a name is renamed as the n-th field using it was.
fn rename_default_functions(module: &mut syn::ItemMod, renamed: &[(String, Option<String>)]) {
    let Some((_, items)) = &mut module.content else {
        return;
    };
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for item in items {
        let syn::Item::Fn(function) = item else {
            continue;
        };
        let name = function.sig.ident.to_string();
        let nth = seen.entry(name.clone()).or_default();
        let new = renamed
            .iter()
            .filter(|(old, _)| *old == name)
            .nth(*nth)
            .and_then(|(_, new)| new.clone());
        *nth += 1;
        if let Some(new) = new {
            function.sig.ident = format_ident!("{}", new);
        }
    }
}

/// typify's `impl Default` of a struct whose members all have defaults names every field in
/// the struct's order: the renamed ones follow, and so do the default functions they call.
fn default_impl(item: &mut syn::ItemImpl, renamed: &BTreeMap<String, Vec<Option<Renamed>>>) {
    let is_default = item
        .trait_
        .as_ref()
        .is_some_and(|(path, _)| path.segments.last().is_some_and(|s| s.ident == "Default"));
    let syn::Type::Path(self_type) = item.self_ty.as_ref() else {
        return;
    };
    let Some(renames) = self_type
        .path
        .get_ident()
        .and_then(|ident| renamed.get(&ident.to_string()))
    else {
        return;
    };
    if !is_default {
        return;
    }
    for impl_item in &mut item.items {
        let syn::ImplItem::Fn(function) = impl_item else {
            continue;
        };
        for statement in &mut function.block.stmts {
            if let syn::Stmt::Expr(syn::Expr::Struct(literal), _) = statement
                && literal.fields.len() == renames.len()
            {
                for (value, new) in literal.fields.iter_mut().zip(renames) {
                    let (syn::Member::Named(name), Some(new)) = (&mut value.member, new) else {
                        continue;
                    };
                    *name = new.ident.clone();
                    if let Some((old, function)) = &new.default {
                        let text = value.expr.to_token_stream().to_string().replacen(
                            &format!("defaults :: {old} ("),
                            &format!("defaults :: {function} ("),
                            1,
                        );
                        if let Ok(expr) = syn::parse_str(&text) {
                            value.expr = expr;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(source: &str) -> String {
        let mut file: syn::File = syn::parse_str(source).unwrap();
        distinct_members(&mut file);
        prettyplease::unparse(&file)
    }

    #[test]
    fn clashing_fields_are_numbered_and_keep_their_json_names() {
        let out = rewritten(
            r#"
            pub struct X {
                #[serde(rename = "a b", default = "defaults::x_a_b")]
                pub a_b: String,
                #[serde(default = "defaults::x_a_b")]
                pub a_b: String,
                #[serde(rename = "a-b")]
                pub a_b: String,
            }
            impl ::std::default::Default for X {
                fn default() -> Self {
                    Self { a_b: defaults::x_a_b(), a_b: defaults::x_a_b(), a_b: Default::default() }
                }
            }
            pub mod defaults {
                pub(super) fn x_a_b() -> String { "x".to_string() }
                pub(super) fn x_a_b() -> String { "y".to_string() }
            }
            "#,
        );
        // `a_b` stays the member named `a_b`; the others are numbered in order.
        assert!(
            out.contains(
                "#[serde(rename = \"a b\", default = \"defaults::x_a_b_2\")]\n    pub a_b_2: String"
            ),
            "{out}"
        );
        assert!(
            out.contains("#[serde(default = \"defaults::x_a_b\")]\n    pub a_b: String"),
            "{out}"
        );
        assert!(
            out.contains("#[serde(rename = \"a-b\")]\n    pub a_b_3: String"),
            "{out}"
        );
        assert!(
            out.contains("fn x_a_b_2() -> String {\n        \"x\""),
            "{out}"
        );
        assert!(
            out.contains("fn x_a_b() -> String {\n        \"y\""),
            "{out}"
        );
        assert!(out.contains("a_b_2: defaults::x_a_b_2()"), "{out}");
        assert!(out.contains("a_b: defaults::x_a_b()"), "{out}");
        assert!(out.contains("a_b_3: Default::default()"), "{out}");
    }

    #[test]
    fn distinct_fields_are_left_alone() {
        let source = "pub struct X {\n    pub a: String,\n    #[serde(rename = \"b c\")]\n    pub b_c: String,\n}\n";
        assert_eq!(rewritten(source), source);
    }
}
