//! The default layout, `<type>/v<major>.json` (and `.proto`) files with `x-cloudevent`
//! metadata, and the shared definitions beside them (`_defs/`, files another file `$ref`s).
//! Here, not in `registry.rs`, so that which file a `$ref` reaches is decided by the bundler's
//! resolver, the one that resolves it later.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::error::CodegenError;
use crate::folder::{Folder, Links};
use crate::registry::{Registry, SHARED_DEFINITIONS_DIR, SchemaFile};

impl Registry {
    /// Loads every `<type>/v<major>.json` below `root`, and every `<type>/v<major>.proto`
    /// (types whose data is a Protobuf message, which the generator, the catalog and the
    /// compatibility check take from here). Other files at the top level (the
    /// generated catalog) are ignored; any other file inside a type directory is an error, so
    /// a misnamed schema is not silently skipped.
    ///
    /// # Errors
    /// Unreadable files, invalid JSON, misnamed files and missing metadata.
    pub fn load(root: impl AsRef<Path>) -> Result<Registry, CodegenError> {
        Registry::load_with(root.as_ref(), Links::Refuse)
    }

    /// [`Registry::load`], with symbolic links refused or followed inside the root.
    pub(crate) fn load_with(root: &Path, links: Links) -> Result<Registry, CodegenError> {
        let mut files = Vec::new();
        let mut protobuf = Vec::new();
        let mut findings = Vec::new();
        let mut candidates: Vec<(String, String, Value)> = Vec::new();
        let mut folder = Folder::new(root, links);
        for dir in folder.entries(root)? {
            if !dir.is_dir {
                continue;
            }
            let dir = dir.path;
            let dir_name = file_name(&dir);
            for file in folder.entries(&dir)? {
                let file = file.path;
                let relative = format!("{dir_name}/{}", file_name(&file));
                let text = fs::read_to_string(&file).map_err(|e| CodegenError::io(&file, e))?;
                if relative.ends_with(".proto") {
                    match crate::protobuf::ProtoFile::parse(root, &relative, &text) {
                        Ok(proto) => protobuf.push(proto),
                        Err(CodegenError::Findings(found)) => findings.extend(found),
                        Err(other) => return Err(other),
                    }
                    continue;
                }
                // A JSON file without `x-cloudevent`, or any JSON file of a `_defs` folder,
                // may be a shared definition (kept if a `$ref` reaches it, below).
                if relative.ends_with(".json")
                    && let Ok(value) = serde_json::from_str::<Value>(&text)
                    && (dir_name == SHARED_DEFINITIONS_DIR || value.get("x-cloudevent").is_none())
                {
                    candidates.push((relative, text, value));
                    continue;
                }
                match SchemaFile::parse(root, &relative, &text) {
                    Ok(schema) => files.push(schema),
                    Err(CodegenError::Findings(found)) => findings.extend(found),
                    Err(other) => return Err(other),
                }
            }
        }
        // Shared definitions beside the event schemas: the files of `_defs/`, and the files
        // without `x-cloudevent` that a `$ref` of another file reaches. Any other file without
        // metadata is still an error (a misnamed or unfinished event schema is not skipped).
        // Which file a `$ref` reaches is the bundler's verdict, which later resolves it.
        let reached = crate::bundle::referenced(
            root,
            files
                .iter()
                .map(|f| (f.relative.as_str(), &f.schema))
                .chain(candidates.iter().map(|(r, _, v)| (r.as_str(), v))),
            crate::bundle::Reach::Any,
        );
        let mut documents = BTreeMap::new();
        for (relative, text, value) in candidates {
            if relative.starts_with(&format!("{SHARED_DEFINITIONS_DIR}/"))
                || reached.contains(&relative)
            {
                documents.insert(relative, value);
                continue;
            }
            match SchemaFile::parse(root, &relative, &text) {
                Ok(schema) => files.push(schema),
                Err(CodegenError::Findings(found)) => findings.extend(found),
                Err(other) => return Err(other),
            }
        }
        findings.append(&mut folder.findings);
        if !findings.is_empty() {
            return Err(CodegenError::Findings(findings));
        }
        if files.is_empty() && protobuf.is_empty() {
            return Err(CodegenError::NoEventSchemas {
                root: root.to_path_buf(),
                looked_for: "`<type>/v<major>.json` (or `.proto`) files with an `x-cloudevent` object (for a folder whose schemas hold the type at a JSON pointer, use `--type-pointer` / `Builder::type_pointer`)".to_owned(),
            });
        }
        files.sort_by(|a, b| (&a.type_dir, a.major).cmp(&(&b.type_dir, b.major)));
        Ok(Registry {
            root: root.to_path_buf(),
            files,
            documents,
            protobuf,
            mapping: None,
            skipped: Vec::new(),
        })
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
