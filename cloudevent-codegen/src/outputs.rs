use std::fs;
use std::path::{Path, PathBuf};

use cloudevent_rules::Policy;

use crate::catalog::{asyncapi_yaml, catalog_markdown};
use crate::error::CodegenError;
use crate::generate::generate_rust;
use crate::import::RustOptions;
use crate::registry::Registry;

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
    /// The naming policy.
    pub policy: Policy,
    /// How generated code reaches the runtime.
    pub options: RustOptions,
}

/// Every file generated from the registry: the Rust modules, the Markdown catalog and the
/// AsyncAPI document.
///
/// # Errors
/// See [`generate_rust`].
pub fn render_outputs(layout: &Layout, registry: &Registry) -> Result<Vec<Output>, CodegenError> {
    let rust = generate_rust(registry, &layout.policy, &layout.options)?;
    let mut outputs: Vec<Output> = rust
        .module_files()
        .into_iter()
        .map(|(name, contents)| Output {
            path: layout.rust_dir.join(name),
            contents,
        })
        .collect();
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
    let mut changed = Vec::new();
    for path in leftovers(&layout.rust_dir, outputs) {
        fs::remove_file(&path).map_err(|e| CodegenError::io(&path, e))?;
        changed.push(path);
    }
    for output in outputs {
        if fs::read_to_string(&output.path).ok().as_deref() == Some(output.contents.as_str()) {
            continue;
        }
        if let Some(parent) = output.path.parent() {
            fs::create_dir_all(parent).map_err(|e| CodegenError::io(parent, e))?;
        }
        fs::write(&output.path, &output.contents).map_err(|e| CodegenError::io(&output.path, e))?;
        changed.push(output.path.clone());
    }
    Ok(changed)
}
