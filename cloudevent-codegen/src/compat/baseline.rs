//! Where the previous versions come from: a git revision, another folder, or the lock file.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::lock::Lock;
use crate::error::CodegenError;
use crate::registry::Registry;

/// Where the previous version of each schema file comes from.
///
/// ```
/// use cloudevent_codegen::{Baseline, Compat, Registry, check_compatibility};
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
/// let registry = Registry::load(dir).unwrap();
/// // Another folder holding the previous versions (here: the same one).
/// let baseline = Baseline::Dir(dir.into());
/// assert!(baseline.read("com.example.order.created/v1.json").unwrap().is_some());
/// assert!(baseline.read("com.example.order.created/v9.json").unwrap().is_none());
/// let (_, findings) = check_compatibility(&registry, &baseline, Compat::Full).unwrap();
/// assert!(findings.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Baseline {
    /// The file as committed at a git revision (`HEAD` by default), read with `git show`.
    Git {
        /// The revision, e.g. `HEAD` or `origin/main`.
        rev: String,
        /// The registry directory relative to the repository root, with `/` separators.
        registry_in_repo: String,
        /// Where to run git.
        repo: PathBuf,
    },
    /// Another registry directory (or xRegistry document) holding the previous versions.
    Dir(PathBuf),
    /// A lock file ([`crate::Lock`]) holding the previous versions of every type, oldest first:
    /// what a build script compares against, with no git needed.
    Lock(PathBuf),
}

impl Baseline {
    /// The previous text of `<type>/v<major>.json`, or `None` when the file is new.
    ///
    /// # Errors
    /// git failing for another reason than a missing file, or an unreadable file.
    pub fn read(&self, relative: &str) -> Result<Option<String>, CodegenError> {
        match self {
            Baseline::Lock(path) => Err(CodegenError::io(
                path,
                std::io::Error::new(
                    std::io::ErrorKind::Unsupported,
                    "a lock file holds resolved schemas, not files; use `Baseline::previous`",
                ),
            )),
            Baseline::Dir(dir) => {
                let path = dir.join(relative);
                match std::fs::read_to_string(&path) {
                    Ok(text) => Ok(Some(text)),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(e) => Err(CodegenError::io(path, e)),
                }
            }
            Baseline::Git {
                rev,
                registry_in_repo,
                repo,
            } => {
                let spec = if registry_in_repo.is_empty() {
                    format!("{rev}:{relative}")
                } else {
                    format!("{rev}:{registry_in_repo}/{relative}")
                };
                let output = Command::new("git")
                    .args(["show", &spec])
                    .current_dir(repo)
                    .output()
                    .map_err(|e| CodegenError::Git {
                        args: format!("show {spec}"),
                        message: e.to_string(),
                    })?;
                if output.status.success() {
                    return Ok(Some(String::from_utf8_lossy(&output.stdout).into_owned()));
                }
                let stderr = String::from_utf8_lossy(&output.stderr);
                // A file that is new since `rev` has no baseline; that is not an error.
                if stderr.contains("does not exist")
                    || stderr.contains("exists on disk, but not in")
                {
                    Ok(None)
                } else {
                    Err(CodegenError::Git {
                        args: format!("show {spec}"),
                        message: stderr.trim().to_owned(),
                    })
                }
            }
        }
    }

    /// The git baseline at `rev` for a registry directory inside a git work tree.
    ///
    /// # Errors
    /// When `git rev-parse --show-toplevel` fails (not a git work tree).
    pub fn git(rev: impl Into<String>, registry: &Path) -> Result<Baseline, CodegenError> {
        let output = Command::new("git")
            .args(["rev-parse", "--show-prefix"])
            .current_dir(registry)
            .output()
            .map_err(|e| CodegenError::Git {
                args: "rev-parse --show-prefix".into(),
                message: e.to_string(),
            })?;
        if !output.status.success() {
            return Err(CodegenError::Git {
                args: "rev-parse --show-prefix".into(),
                message: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
            });
        }
        let prefix = String::from_utf8_lossy(&output.stdout)
            .trim()
            .trim_end_matches('/')
            .to_owned();
        Ok(Baseline::Git {
            rev: rev.into(),
            registry_in_repo: prefix,
            repo: registry.to_path_buf(),
        })
    }

    /// The previous versions of every type of `registry`, read in the registry's own layout
    /// (a folder of `<type>/v<major>.json`, a `--type-pointer` folder or an xRegistry document)
    /// with every `$ref` resolved. A baseline without the registry is empty: every type new.
    ///
    /// # Errors
    /// An unreadable baseline; refs of the baseline that name nothing.
    pub fn previous(&self, registry: &Registry) -> Result<Lock, CodegenError> {
        match self {
            Baseline::Lock(path) => Ok(Lock::read(path)?.unwrap_or_default()),
            Baseline::Dir(dir) => Lock::of_registry(&load_like(registry, dir)?),
            Baseline::Git { rev, repo, .. } => {
                let scratch = Scratch::new()?;
                if !materialize(rev, repo, &scratch.0)? {
                    return Ok(Lock::default());
                }
                match load_like(registry, &scratch.0) {
                    Ok(old) => Lock::of_registry(&old),
                    Err(CodegenError::NoEventSchemas { .. }) => Ok(Lock::default()),
                    Err(other) => Err(other),
                }
            }
        }
    }
}

/// Loads `dir` in the layout `registry` was read in.
fn load_like(registry: &Registry, dir: &Path) -> Result<Registry, CodegenError> {
    if let Some(mapping) = &registry.mapping {
        return Registry::load_mapped(dir, mapping);
    }
    let first = registry.files.first();
    match first.and_then(|f| f.type_pointer.as_deref()) {
        Some(_) if first.is_some_and(|f| f.relative == "xregistry.json") => {
            let path = first
                .map(|f| f.path.to_string_lossy().into_owned())
                .unwrap_or_default();
            let document = path.split('#').next().unwrap_or_default();
            let name = Path::new(document).file_name().unwrap_or_default();
            if dir.is_file() {
                Registry::load_xregistry(dir)
            } else {
                Registry::load_xregistry(dir.join(name))
            }
        }
        Some(pointer) => Registry::load_type_pointer(dir, pointer),
        None => Registry::load(dir),
    }
}

/// A scratch folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, CodegenError> {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "cloudevent-baseline-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).map_err(|e| CodegenError::io(&dir, e))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes the files of the folder `repo` as committed at `rev` into `into`; `false` when the
/// folder has no file at `rev`.
fn materialize(rev: &str, repo: &Path, into: &Path) -> Result<bool, CodegenError> {
    let git = |args: &[&str]| -> Result<Vec<u8>, CodegenError> {
        let output = Command::new("git")
            .args(args)
            .current_dir(repo)
            .output()
            .map_err(|e| CodegenError::Git {
                args: args.join(" "),
                message: e.to_string(),
            })?;
        if output.status.success() {
            Ok(output.stdout)
        } else {
            Err(CodegenError::Git {
                args: args.join(" "),
                message: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
            })
        }
    };
    let listing = git(&["ls-tree", "-r", "-z", "--name-only", rev])?;
    let mut any = false;
    for name in listing.split(|b| *b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name);
        if !name.ends_with(".json") && !name.ends_with(".proto") {
            continue;
        }
        let text = git(&["show", &format!("{rev}:./{name}")])?;
        let path = into.join(name.as_ref());
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| CodegenError::io(parent, e))?;
        }
        std::fs::write(&path, text).map_err(|e| CodegenError::io(&path, e))?;
        any = true;
    }
    Ok(any)
}
