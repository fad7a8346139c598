//! The options that say how a folder of schemas maps to CloudEvents types, one set for
//! `codegen`, `validate --registry`, `diff` and `snapshot` (`cloudevent_codegen::TypeMapping`).

use cloudevent_codegen::TypeMapping;

/// How the schemas of a folder name their event types (default: `<type>/v<major>.json` files
/// with `x-cloudevent` metadata, or, when there are none, every `*.json` below that names its
/// type in `x-cloudevent.type`, read in any layout). The registry's `cloudevent-registry.toml`
/// may say the same.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct LayoutArgs {
    /// Read every `*.json` below the folder (any depth) and take the event type at this JSON
    /// pointer, as a plain string member, a `const`, a one-value `enum` or a `default`, e.g.
    /// `/properties/context/properties/type` for the CDEvents schemas. Files without it are
    /// documents that `$ref`s may reach.
    #[arg(long, value_name = "PTR")]
    pub(crate) type_pointer: Option<String>,
    /// Type each schema from a template, tried in order (repeatable): `{dir}` the folder
    /// holding the file, `{file}` its name without `.schema.json`/`.json`, `{/json/pointer}`
    /// the one value the schema has there (a plain string member such as
    /// `x-amazon-events-source`, a `const` or a one-value `enum`). GitHub webhooks:
    /// `--type-template 'com.github.{dir}.{/properties/action}' --type-template
    /// 'com.github.{dir}'`. Files other files `$ref` are shared definitions, not events.
    #[arg(long = "type-template", value_name = "TEMPLATE")]
    pub(crate) type_templates: Vec<String>,
    /// Each schema serves every type listed in the array at this JSON pointer (or the one type
    /// string there), e.g. `/cloudeventTypes` for Google's CloudEvents schemas.
    #[arg(long, value_name = "PTR")]
    pub(crate) types_pointer: Option<String>,
    /// The absolute URI relative `$id`s are resolved against to give `dataschema`; without
    /// it a type whose schema has a relative `$id` gets no `dataschema`.
    #[arg(long, value_name = "URI")]
    pub(crate) dataschema_base: Option<String>,
    /// Files matching this glob are events, even when another file `$ref`s their root
    /// (repeatable). A glob without `/` matches a file or folder name at any depth, one with
    /// `/` a path from the folder; `*`, `**`, `?` as in a shell. Without it a file is an
    /// event unless other files `$ref` its root (its `$defs` alone do not count).
    #[arg(long = "events", value_name = "GLOB")]
    pub(crate) events: Vec<String>,
    /// Files matching this glob are shared definitions, never events (repeatable).
    #[arg(long = "shared", value_name = "GLOB")]
    pub(crate) shared: Vec<String>,
    /// Files matching this glob are not read (repeatable): example payloads, catalogs. JSON
    /// that holds no schema keyword is skipped without it, with one warning naming the files.
    #[arg(long = "exclude", value_name = "GLOB")]
    pub(crate) exclude: Vec<String>,
}

impl LayoutArgs {
    /// The mapping these options give.
    pub(crate) fn mapping(&self) -> TypeMapping {
        TypeMapping {
            type_pointer: self.type_pointer.clone(),
            type_templates: self.type_templates.clone(),
            types_pointer: self.types_pointer.clone(),
            dataschema_base: self.dataschema_base.clone(),
            events: self.events.clone(),
            shared: self.shared.clone(),
            exclude: self.exclude.clone(),
        }
    }

    /// Whether any option was given.
    pub(crate) fn is_given(&self) -> bool {
        self.mapping() != TypeMapping::default()
    }

    /// The options as command-line flags, for a generated file's header.
    pub(crate) fn flags(&self) -> String {
        let mut out = String::new();
        if let Some(pointer) = &self.type_pointer {
            out.push_str(&format!(" --type-pointer {pointer}"));
        }
        for template in &self.type_templates {
            out.push_str(&format!(" --type-template '{template}'"));
        }
        if let Some(pointer) = &self.types_pointer {
            out.push_str(&format!(" --types-pointer {pointer}"));
        }
        if let Some(base) = &self.dataschema_base {
            out.push_str(&format!(" --dataschema-base {base}"));
        }
        for (flag, globs) in [
            ("--events", &self.events),
            ("--shared", &self.shared),
            ("--exclude", &self.exclude),
        ] {
            for glob in globs {
                out.push_str(&format!(" {flag} '{glob}'"));
            }
        }
        out
    }
}
