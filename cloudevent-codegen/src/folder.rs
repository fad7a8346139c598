//! Reading the registry folder's entries without leaving it. Textual `$ref` containment holds
//! (refs resolve among the files loaded), but a symbolic link inside the folder once let a
//! ref that stays inside textually read any file outside (its content landed in generated
//! code, `validate --registry` findings and `snapshot` output), a link loop was walked 41
//! times, and a FIFO named `*.json` blocked the read forever. Codegen runs on pull requests,
//! and git stores symbolic links.
//!
//! So a link is refused and reported, unless the caller asks to follow links
//! ([`Links::FollowInside`]): then a link is followed only when its canonical path stays
//! under the canonical root, and a folder already walked is not walked again. Anything that
//! is neither a regular file nor a folder (a FIFO, a socket, a device) is refused.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{CodegenError, Finding};

/// What the loader does with a symbolic link in the registry folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) enum Links {
    /// Refuse it with a finding (the default).
    #[default]
    Refuse,
    /// Follow it when its canonical path stays under the canonical root.
    FollowInside,
}

/// One entry of a folder that the loader may read.
pub(crate) struct Entry {
    pub(crate) path: PathBuf,
    pub(crate) is_dir: bool,
}

/// The walk of one registry folder: its canonical root (when links are followed) and the
/// folders already walked.
pub(crate) struct Folder {
    links: Links,
    canonical_root: Option<PathBuf>,
    walked: BTreeSet<PathBuf>,
    /// The entries refused, one finding each.
    pub(crate) findings: Vec<Finding>,
}

const FOLLOW_FIX: &str = "replace the link with the file or folder it names; or, to follow links that stay inside the registry folder, pass `--follow-symlinks` (`Builder::follow_symlinks(true)`)";

impl Folder {
    pub(crate) fn new(root: &Path, links: Links) -> Folder {
        let canonical_root = match links {
            Links::Refuse => None,
            Links::FollowInside => fs::canonicalize(root).ok(),
        };
        Folder {
            links,
            canonical_root,
            walked: BTreeSet::new(),
            findings: Vec::new(),
        }
    }

    /// The entries of `dir`, sorted: regular files and folders; a link is refused, or
    /// followed inside the root; anything else is refused. A folder reached twice (through
    /// a link) gives no entries the second time.
    pub(crate) fn entries(&mut self, dir: &Path) -> Result<Vec<Entry>, CodegenError> {
        if let Ok(canonical) = fs::canonicalize(dir)
            && !self.walked.insert(canonical)
        {
            return Ok(Vec::new());
        }
        let mut paths = fs::read_dir(dir)
            .map_err(|e| CodegenError::io(dir, e))?
            .map(|entry| entry.map(|e| e.path()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| CodegenError::io(dir, e))?;
        paths.sort();
        let mut entries = Vec::with_capacity(paths.len());
        for path in paths {
            let meta = fs::symlink_metadata(&path).map_err(|e| CodegenError::io(&path, e))?;
            let meta = if meta.file_type().is_symlink() {
                match self.follow(&path) {
                    Some(meta) => meta,
                    None => continue,
                }
            } else {
                meta
            };
            if meta.is_dir() {
                entries.push(Entry { path, is_dir: true });
            } else if meta.is_file() {
                entries.push(Entry {
                    path,
                    is_dir: false,
                });
            } else {
                self.findings.push(Finding::new(
                    &path,
                    "",
                    "is neither a regular file nor a folder (a FIFO, a socket or a device): the registry loader reads only regular files",
                ));
            }
        }
        Ok(entries)
    }

    /// The metadata of what the link at `path` names, when it may be followed; else a
    /// finding.
    fn follow(&mut self, path: &Path) -> Option<fs::Metadata> {
        let refuse = |problem: String| Finding::new(path, "", problem).with_fix(FOLLOW_FIX);
        match (&self.links, &self.canonical_root) {
            (Links::FollowInside, Some(root)) => match fs::canonicalize(path) {
                Ok(target) if target.starts_with(root) => match fs::metadata(&target) {
                    Ok(meta) => Some(meta),
                    Err(error) => {
                        self.findings.push(refuse(format!(
                            "is a symbolic link that cannot be read: {error}"
                        )));
                        None
                    }
                },
                Ok(target) => {
                    self.findings.push(refuse(format!(
                        "is a symbolic link to `{}`, outside the registry folder `{}`: not followed",
                        target.display(),
                        root.display()
                    )));
                    None
                }
                Err(error) => {
                    self.findings.push(refuse(format!(
                        "is a symbolic link that leads nowhere readable ({error}): a loop or a missing target"
                    )));
                    None
                }
            },
            _ => {
                self.findings.push(refuse(
                    "is a symbolic link: the registry loader follows no link by default, since one can lead outside the registry folder".to_owned(),
                ));
                None
            }
        }
    }
}

/// Whether a file of the folder (its `/`-separated path below the root) matches a glob of
/// `--events`, `--shared` or `--exclude`: `*` any text within one path segment, `**` any text
/// across segments, `?` one character. A glob without `/` matches a file or folder name at
/// any depth (`*.example.json`, `examples`); one with `/` matches from the root
/// (`spec/tests/**`). A glob matching a folder matches every file below it.
pub(crate) fn glob_matches(glob: &str, relative: &str) -> bool {
    let glob = glob.trim_start_matches("./").trim_end_matches('/');
    let segments: Vec<&str> = relative.split('/').collect();
    // The file itself and each folder holding it, as a path from the root.
    let prefixes = (1..=segments.len()).map(|n| segments[..n].join("/"));
    if glob.contains('/') {
        prefixes
            .into_iter()
            .any(|p| wildcard(glob.as_bytes(), p.as_bytes()))
    } else {
        segments
            .iter()
            .any(|s| wildcard(glob.as_bytes(), s.as_bytes()))
    }
}

fn wildcard(glob: &[u8], text: &[u8]) -> bool {
    match glob {
        [] => text.is_empty(),
        [b'*', b'*', rest @ ..] => {
            let rest = rest.strip_prefix(b"/").unwrap_or(rest);
            (0..=text.len()).any(|i| wildcard(rest, &text[i..]))
        }
        [b'*', rest @ ..] => (0..=text.len())
            .take_while(|&i| i == 0 || text[i - 1] != b'/')
            .any(|i| wildcard(rest, &text[i..])),
        [b'?', rest @ ..] => {
            matches!(text, [c, tail @ ..] if *c != b'/' && wildcard(rest, tail))
        }
        [c, rest @ ..] => matches!(text, [t, tail @ ..] if t == c && wildcard(rest, tail)),
    }
}

#[cfg(test)]
mod glob_tests {
    use super::glob_matches;

    #[test]
    fn globs_match_names_anywhere_and_paths_from_the_root() {
        assert!(glob_matches("examples", "examples/a.json"));
        assert!(glob_matches("examples/**", "examples/deep/a.json"));
        assert!(glob_matches("*.example.json", "billing/x.example.json"));
        assert!(glob_matches("spec/tests/**", "spec/tests/a/b.json"));
        assert!(glob_matches("common/*.json", "common/money.json"));
        assert!(glob_matches("**/money.json", "common/money.json"));
        assert!(glob_matches("**/money.json", "money.json"));
        assert!(glob_matches("v?.json", "a/v1.json"));
        assert!(!glob_matches("common/*.json", "common/deep/money.json"));
        assert!(!glob_matches("spec/tests/**", "other/spec/tests/a.json"));
        assert!(!glob_matches("examples", "billing/examples.json"));
    }
}
