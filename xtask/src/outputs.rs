//! The generated files of this repository and where they live, for `cargo xtask codegen`:
//! which registry file goes which way (schema → Rust or Rust → schema), every output rendered
//! in memory, the stale ones found, the changed ones written.
//!
//! This is the repository's plumbing, built on `cloudevent-codegen`'s public API
//! ([`Builder::generate_from`], [`export_file`](cloudevent_codegen::export_file),
//! [`catalog_markdown`], [`asyncapi_yaml`]); a user's build script uses
//! [`Builder::generate_to_out_dir`] instead.

use std::fs;
use std::path::{Path, PathBuf};

use cloudevent_codegen::{
    Builder, CodegenError, Registry, SchemaFile, asyncapi_yaml, catalog_markdown, check_schema,
};
use cloudevent_rules::Policy;

/// One generated file and what it must contain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Where it lives.
    pub path: PathBuf,
    /// Its full text.
    pub contents: String,
}

/// Where a repository keeps its generated files.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The registry directory; `README.md` and `asyncapi.yaml` are written into it.
    pub schemas: PathBuf,
    /// The directory of generated Rust modules (one file a schema plus `mod.rs`).
    pub rust_dir: PathBuf,
    /// The AsyncAPI document's title.
    pub title: String,
    /// The naming policy (the generated code reaches the runtime as `::cloudevent_runtime`,
    /// [`Builder`]'s default).
    pub policy: Policy,
    /// Schema files exported from Rust types ([`cloudevent_codegen::export_file`]). They are written into
    /// the registry and listed in the catalog, but never generated back into Rust modules
    /// here: the Rust type is their source, and a second, generated copy of it would be a
    /// duplicate. Every other file goes the other way (schema → Rust).
    pub exported: Vec<SchemaFile>,
}

/// Which view of an event is the source and which is generated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// The schema file is written by hand; Rust is generated from it.
    SchemaToRust,
    /// The Rust type is written by hand; the schema file is exported from it.
    RustToSchema,
}

impl Direction {
    /// `schema → Rust` or `Rust → schema`, as the xtask table shows it.
    pub const fn arrow(self) -> &'static str {
        match self {
            Direction::SchemaToRust => "schema → Rust",
            Direction::RustToSchema => "Rust → schema",
        }
    }
}

impl Layout {
    /// The direction of the registry file `<type>/v<major>.json`.
    pub fn direction(&self, relative: &str) -> Direction {
        if self.exported.iter().any(|f| f.relative == relative) {
            Direction::RustToSchema
        } else {
            Direction::SchemaToRust
        }
    }

    /// The registry as it must be after generation: the files on disk, with each exported file
    /// in its freshly exported form (added when new), so compatibility checks and the catalog
    /// see what the Rust types say now, before anything is written.
    ///
    /// # Errors
    /// See [`Registry::load`].
    pub fn registry(&self) -> Result<Registry, CodegenError> {
        let mut registry = Registry::load(&self.schemas)?;
        for file in &self.exported {
            registry.files.retain(|f| f.relative != file.relative);
            registry.files.push(file.clone());
        }
        registry
            .files
            .sort_by(|a, b| (&a.type_dir, a.major).cmp(&(&b.type_dir, b.major)));
        Ok(registry)
    }
}

/// Every file generated from the registry (see [`Layout::registry`]): the Rust modules of
/// the schema → Rust files, the exported schema files, the Markdown catalog and the AsyncAPI
/// document.
///
/// # Errors
/// See [`Builder::generate_from`]; exported files are checked with [`check_schema`] too.
pub fn render_outputs(layout: &Layout, registry: &Registry) -> Result<Vec<Output>, CodegenError> {
    let findings: Vec<_> = layout
        .exported
        .iter()
        .flat_map(|file| check_schema(file, &layout.policy))
        .collect();
    if !findings.is_empty() {
        return Err(CodegenError::Findings(findings));
    }
    let mut schema_first = registry.clone();
    schema_first
        .files
        .retain(|f| layout.direction(&f.relative) == Direction::SchemaToRust);
    let rust = Builder::new()
        .policy(layout.policy.clone())
        .generate_from(&schema_first)?;
    let mut outputs: Vec<Output> = rust
        .module_files()
        .into_iter()
        .map(|(name, contents)| Output {
            path: layout.rust_dir.join(name),
            contents,
        })
        .collect();
    outputs.extend(layout.exported.iter().map(|file| Output {
        path: layout.schemas.join(&file.relative),
        contents: file.text(),
    }));
    outputs.push(Output {
        path: layout.schemas.join("README.md"),
        contents: catalog_markdown(registry),
    });
    outputs.push(Output {
        path: layout.schemas.join("asyncapi.yaml"),
        contents: asyncapi_yaml(registry, &layout.title),
    });
    Ok(outputs)
}

/// The outputs whose file is missing or differs, plus generated Rust files no schema produces
/// any more.
pub fn stale_outputs(layout: &Layout, outputs: &[Output]) -> Vec<PathBuf> {
    let mut stale: Vec<PathBuf> = outputs
        .iter()
        .filter(|o| fs::read_to_string(&o.path).ok().as_deref() != Some(o.contents.as_str()))
        .map(|o| o.path.clone())
        .collect();
    stale.extend(leftovers(&layout.rust_dir, outputs));
    stale
}

fn leftovers(dir: &Path, outputs: &[Output]) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter(|p| !outputs.iter().any(|o| &o.path == p))
        .collect();
    out.sort();
    out
}

/// Writes the outputs that changed and removes leftover generated Rust files. Returns the
/// paths written or removed.
///
/// # Errors
/// A file that cannot be written or removed.
pub fn write_outputs(layout: &Layout, outputs: &[Output]) -> Result<Vec<PathBuf>, CodegenError> {
    let io = |path: &Path, source| CodegenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut changed = Vec::new();
    for path in leftovers(&layout.rust_dir, outputs) {
        fs::remove_file(&path).map_err(|e| io(&path, e))?;
        changed.push(path);
    }
    for output in outputs {
        if fs::read_to_string(&output.path).ok().as_deref() == Some(output.contents.as_str()) {
            continue;
        }
        if let Some(parent) = output.path.parent() {
            fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
        }
        fs::write(&output.path, &output.contents).map_err(|e| io(&output.path, e))?;
        changed.push(output.path.clone());
    }
    Ok(changed)
}
