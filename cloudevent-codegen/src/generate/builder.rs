//! [`Builder`]: the pipeline's first and last stages around [`generate_rust`]. Read: the
//! registry folder (or xRegistry document), its settings file and the consuming crate's
//! policy. Gate: the compatibility gate against the lock file (or a baseline given), which
//! writes the lock. Write: the code into `OUT_DIR`, or returned. What a build script,
//! `cloudevent codegen` and `cargo xtask codegen` call.

use std::path::{Path, PathBuf};

use cloudevent_rules::{Policy, Profile};

use super::{GeneratedRust, generate_rust};
use crate::api_document::ApiKind;
use crate::compat::{Baseline, Compat, GateReport, Lock, LockWrite, gate};
use crate::error::{CodegenError, Finding};
use crate::folder::Links;
use crate::import::RustOptions;
use crate::registry::{Registry, TypeMapping};

/// Generates Rust from a schema registry in a build script.
///
/// In `build.rs`:
///
/// ```no_run
/// cloudevent_codegen::Builder::new()
///     .schemas("schemas")
///     .generate_to_out_dir()
///     .unwrap_or_else(|e| panic!("{e}"));
/// ```
///
/// and in `src/lib.rs`: `include!(concat!(env!("OUT_DIR"), "/cloudevents.rs"));`.
///
/// For a schema set published by others, where each schema holds its event type (the
/// CDEvents specification's schemas) and whose types follow their publisher's naming, not
/// yours:
///
/// ```no_run
/// use cloudevent_codegen::{Builder, Profile};
///
/// Builder::new()
///     .schemas("cdevents/schemas")
///     .type_pointer("/properties/context/properties/type")
///     .profile(Profile::CloudEvents) // the generated types carry it: they compile in any crate
///     .file_name("cdevents.rs")
///     .generate_to_out_dir()
///     .unwrap_or_else(|e| panic!("{e}"));
/// ```
///
/// Before generating, [`Builder::generate_to_out_dir`] compares the registry with its lock file
/// (`cloudevent.lock.json` beside the registry, written on the first build) under
/// [`Builder::compat`] (default `forward`) and fails the build on a breaking change with the
/// message `cloudevent diff` prints; see `docs/compatibility.md`.
///
/// The generated code needs `cloudevent-runtime`, `serde` and `serde_json` as dependencies of
/// the crate that includes it (a `pattern` is checked with `regress` through the runtime), and
/// nothing else, in every layout: a `date-time` is the runtime's `Timestamp` (the text
/// received, checked as `validate --registry` checks it), and `date`, `uuid` and IP addresses
/// stay text, so data is written back as received.
#[derive(Debug, Clone)]
pub struct Builder {
    schemas: PathBuf,
    mapping: TypeMapping,
    /// What `schemas` names: a folder, an xRegistry, OpenAPI or AsyncAPI document.
    source: Source,
    policy: Policy,
    /// Whether the policy was chosen here (`policy`, `profile`), so neither the registry's
    /// settings file nor the crate's `[package.metadata.cloudevent]` replaces it.
    policy_set: bool,
    options: RustOptions,
    file_name: String,
    compat: Compat,
    /// Whether [`Builder::compat`] was called (else the settings file's mode applies).
    compat_set: bool,
    lock_file: Option<PathBuf>,
    update_lock: bool,
    /// What the gate compares with instead of the lock file.
    baseline: Option<Baseline>,
    links: Links,
}

/// What a [`Builder`] reads its registry from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Folder,
    XRegistry,
    Document(ApiKind),
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// A builder for `schemas/`, the `intg-std-015` profile and `cloudevents.rs`.
    pub fn new() -> Builder {
        Builder {
            schemas: PathBuf::from("schemas"),
            mapping: TypeMapping::default(),
            source: Source::Folder,
            policy: Policy::new(Profile::IntgStd015),
            policy_set: false,
            options: RustOptions::default(),
            file_name: "cloudevents.rs".to_owned(),
            compat: Compat::default(),
            compat_set: false,
            lock_file: None,
            update_lock: false,
            baseline: None,
            links: Links::Refuse,
        }
    }

    /// Follows symbolic links inside the registry folder when their canonical path stays
    /// under the folder's canonical path (a link leading outside is still refused). By
    /// default every link is refused and reported: a link can make a `$ref` that stays inside
    /// the folder textually read a file outside it.
    ///
    /// ```
    /// # #[cfg(unix)] {
    /// use cloudevent_codegen::{Builder, CodegenError};
    ///
    /// let dir = tempfile::tempdir().unwrap();
    /// let schemas = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/com.example.order.cancelled");
    /// std::os::unix::fs::symlink(schemas, dir.path().join("com.example.order.cancelled")).unwrap();
    /// // Refused by default; followed on request only inside the folder (this one leads out).
    /// for follow in [false, true] {
    ///     let err = Builder::new().schemas(dir.path()).follow_symlinks(follow).generate().unwrap_err();
    ///     assert!(matches!(err, CodegenError::Findings(f) if f[0].message.contains("symbolic link")));
    /// }
    /// # }
    /// ```
    #[must_use]
    pub fn follow_symlinks(mut self, follow: bool) -> Builder {
        self.links = if follow {
            Links::FollowInside
        } else {
            Links::Refuse
        };
        self
    }

    /// The registry directory, relative to the crate's manifest directory.
    #[must_use]
    pub fn schemas(mut self, dir: impl Into<PathBuf>) -> Builder {
        self.schemas = dir.into();
        self
    }

    /// The profile (and organisation prefix) names are checked against.
    #[must_use]
    pub fn policy(mut self, policy: impl Into<Policy>) -> Builder {
        self.policy = policy.into();
        self.policy_set = true;
        self
    }

    /// Reads the registry as a folder (flat or nested) of `*.json` schemas whose event type
    /// sits at this JSON pointer, as a `const`, a one-value `enum` or a `default` (see
    /// [`Registry::load_type_pointer`]), instead of `<type>/v<major>.json` files.
    #[must_use]
    pub fn type_pointer(mut self, pointer: impl Into<String>) -> Builder {
        self.mapping.type_pointer = Some(pointer.into());
        self
    }

    /// Types each schema of the folder from a template, tried in order (repeat the call):
    /// `{dir}` is the folder holding the file, `{file}` its name without `.schema.json` /
    /// `.json`, `{/json/pointer}` the one value the schema fixes there (see [`TypeMapping`]).
    ///
    /// ```
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sets/github-webhooks/payload-schemas/api.github.com");
    /// let rust = cloudevent_codegen::Builder::new()
    ///     .schemas(dir)
    ///     .type_template("com.github.{dir}.{/properties/action}")
    ///     .type_template("com.github.{dir}")
    ///     .profile(cloudevent_codegen::Profile::CloudEvents);
    /// # let _ = rust;
    /// ```
    #[must_use]
    pub fn type_template(mut self, template: impl Into<String>) -> Builder {
        self.mapping.type_templates.push(template.into());
        self
    }

    /// Reads the array of type strings at this JSON pointer of each schema: the schema serves
    /// every type listed (`/cloudeventTypes` for Google's CloudEvents; see [`TypeMapping`]).
    #[must_use]
    pub fn types_pointer(mut self, pointer: impl Into<String>) -> Builder {
        self.mapping.types_pointer = Some(pointer.into());
        self
    }

    /// Takes the files matching this glob for events (repeat the call), even when another
    /// file `$ref`s their root; each must be typed by the mapping or its `x-cloudevent.type`
    /// (see [`TypeMapping::events`] for the glob syntax).
    ///
    /// ```
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/vendor-annotated");
    /// let rust = cloudevent_codegen::Builder::new()
    ///     .schemas(dir)
    ///     .type_template("{/x-amazon-events-source}.{file}")
    ///     .events("ec2")
    ///     .shared("s3")
    ///     .exclude("examples")
    ///     .profile(cloudevent_codegen::Profile::CloudEvents)
    ///     .lock_file(std::env::temp_dir().join("cloudevent-doctest-events.lock.json"))
    ///     .generate()
    ///     .unwrap();
    /// let text = rust.single_file().unwrap();
    /// assert!(text.contains("aws.ec2.instance-state-change"));
    /// assert!(!text.contains("aws.s3.object-created"), "s3 is shared, not an event");
    /// ```
    #[must_use]
    pub fn events(mut self, glob: impl Into<String>) -> Builder {
        self.mapping.events.push(glob.into());
        self
    }

    /// Takes the files matching this glob for shared definitions, never events, whatever
    /// types them (repeat the call; see [`TypeMapping::events`] for the glob syntax).
    ///
    /// ```
    /// let builder = cloudevent_codegen::Builder::new().schemas("schemas").shared("common/**");
    /// # let _ = builder;
    /// ```
    #[must_use]
    pub fn shared(mut self, glob: impl Into<String>) -> Builder {
        self.mapping.shared.push(glob.into());
        self
    }

    /// Leaves the files matching this glob unread (repeat the call): example payloads,
    /// catalogs, drafts (see [`TypeMapping::events`] for the glob syntax). JSON that holds no
    /// schema keyword is skipped without it, with one warning naming the files.
    ///
    /// ```
    /// let builder = cloudevent_codegen::Builder::new().schemas("spec").exclude("spec/tests/**");
    /// # let _ = builder;
    /// ```
    #[must_use]
    pub fn exclude(mut self, glob: impl Into<String>) -> Builder {
        self.mapping.exclude.push(glob.into());
        self
    }

    /// The absolute URI relative `$id`s are resolved against to give each type's
    /// `dataschema`; without it, a type whose schema's `$id` is relative gets no `dataschema`
    /// (and codegen warns).
    #[must_use]
    pub fn dataschema_base(mut self, base: impl Into<String>) -> Builder {
        self.mapping.dataschema_base = Some(base.into());
        self
    }

    /// Reads the registry from an xRegistry document (relative to the crate's manifest
    /// directory) instead of a folder: its messages with `envelope: CloudEvents/1.0`, each
    /// typed by its envelope metadata's `type`, its payload schema the default (or latest)
    /// version its `dataschemauri` names in the document (see [`Registry::load_xregistry`]).
    #[must_use]
    pub fn xregistry(mut self, file: impl Into<PathBuf>) -> Builder {
        self.schemas = file.into();
        self.source = Source::XRegistry;
        self
    }

    /// Reads the registry from an OpenAPI 2 or 3 document (JSON, or YAML with the `yaml`
    /// feature; relative to the crate's manifest directory) instead of a folder: each schema
    /// of `definitions` / `components/schemas` is a file `schemas/<name>.json` of a folder
    /// read with this builder's type mapping (see [`Registry::load_openapi`]), e.g.
    /// `.type_template(r"{/description|for an? (\S+) event}")` for Azure Event Grid.
    #[must_use]
    pub fn openapi(mut self, file: impl Into<PathBuf>) -> Builder {
        self.schemas = file.into();
        self.source = Source::Document(ApiKind::OpenApi);
        self
    }

    /// Reads the registry from an AsyncAPI 2 or 3 document (JSON, or YAML with the `yaml`
    /// feature): one event a message with a JSON Schema payload, typed by its CloudEvents
    /// header or this builder's type mapping (`{file}` is the message's name; see
    /// [`Registry::load_asyncapi`]).
    #[must_use]
    pub fn asyncapi(mut self, file: impl Into<PathBuf>) -> Builder {
        self.schemas = file.into();
        self.source = Source::Document(ApiKind::AsyncApi);
        self
    }

    /// Checks names under `profile` and gives every generated type that profile
    /// (`#[cloudevent(profile = "...")]`), so the code compiles and reads events under it in
    /// any crate, whatever the crate's `[package.metadata.cloudevent]`: for imported types.
    #[must_use]
    pub fn profile(mut self, profile: Profile) -> Builder {
        self.policy = Policy::new(profile);
        self.policy_set = true;
        self.options.profile = Some(profile);
        self
    }

    /// Fills `subject` from the payload at this JSON pointer (one or two members deep, e.g.
    /// `/subject/id`, as the CDEvents binding asks) for every schema that does not name its
    /// subject in `x-cloudevent`.
    #[must_use]
    pub fn subject_pointer(mut self, pointer: impl Into<String>) -> Builder {
        self.options.subject_pointer = Some(pointer.into());
        self
    }

    /// Fills `id` from the payload at this JSON pointer (a string or integer member, through
    /// object members, e.g. `/context/id` for the CDEvents binding; an optional object that
    /// is absent gives no id, so a fresh one), for every schema whose
    /// `x-cloudevent.attributes` does not name its own (the schema's wins; so for `time`
    /// and `source`).
    #[must_use]
    pub fn id_pointer(mut self, pointer: impl Into<String>) -> Builder {
        self.options.id_pointer = Some(pointer.into());
        self
    }

    /// Fills `time` from the payload at this JSON pointer (`/context/timestamp`); the text is
    /// kept as received.
    #[must_use]
    pub fn time_pointer(mut self, pointer: impl Into<String>) -> Builder {
        self.options.time_pointer = Some(pointer.into());
        self
    }

    /// Fills `source` from the payload at this JSON pointer (`/context/source`).
    #[must_use]
    pub fn source_pointer(mut self, pointer: impl Into<String>) -> Builder {
        self.options.source_pointer = Some(pointer.into());
        self
    }

    /// Fills `source` from a URI template (RFC 6570 level 1) whose variables name root
    /// members of the payload, e.g. `/tenants/{tenantid}/devices/{deviceid}`.
    #[must_use]
    pub fn source_template(mut self, template: impl Into<String>) -> Builder {
        self.options.source_template = Some(template.into());
        self
    }

    /// Fills extension `name` from the payload member at `pointer`, at any depth (`/region`,
    /// `/context/tenant/id`; an optional object on the way, absent, leaves the extension
    /// out). The extension has the member's type: a string is a String, a boolean a
    /// Boolean, an integer typed within 32 bits an Integer (no conversion to text, unlike
    /// [`Builder::id_pointer`]; a wider integer is a finding). A schema that maps the same
    /// name in `x-cloudevent.extensions` keeps its own mapping.
    #[must_use]
    pub fn extension_pointer(
        mut self,
        name: impl Into<String>,
        pointer: impl Into<String>,
    ) -> Builder {
        self.options
            .extension_pointers
            .push((name.into(), pointer.into()));
        self
    }

    /// Generates every type that can be and leaves out the refused ones, listed in
    /// [`GeneratedRust::refused`] (each schema, JSON pointer and keyword named; `cargo:warning`
    /// lines in a build script), instead of refusing the whole registry. Without it, the
    /// error lists every refusal of the registry and says how many types could be generated.
    ///
    /// ```
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
    /// let rust = cloudevent_codegen::Builder::new().schemas(dir).skip_refused(true).generate().unwrap();
    /// assert!(rust.refused.is_empty());
    /// ```
    #[must_use]
    pub fn skip_refused(mut self, skip: bool) -> Builder {
        self.options.skip_refused = skip;
        self
    }

    /// The command the generated file's header names for regenerating it.
    #[must_use]
    pub fn command(mut self, command: impl Into<String>) -> Builder {
        self.options.command = Some(command.into());
        self
    }

    /// The path of `cloudevent_runtime` in the generated code (default `::cloudevent_runtime`).
    #[must_use]
    pub fn runtime_crate(mut self, path: impl Into<String>) -> Builder {
        self.options.runtime_crate = path.into();
        self
    }

    /// The name of the generated file in `OUT_DIR` (default `cloudevents.rs`).
    #[must_use]
    pub fn file_name(mut self, name: impl Into<String>) -> Builder {
        self.file_name = name.into();
        self
    }

    /// The compatibility mode of the gate (default [`Compat::Forward`]); a type's own
    /// `x-cloudevent.compatibility` (or xRegistry `compatibility`) wins. See
    /// `docs/compatibility.md`.
    #[must_use]
    pub fn compat(mut self, compat: Compat) -> Builder {
        self.compat = compat;
        self.compat_set = true;
        self
    }

    /// The lock file the gate compares with (relative to the crate's manifest directory);
    /// default `cloudevent.lock.json` beside the registry folder or document.
    #[must_use]
    pub fn lock_file(mut self, path: impl Into<PathBuf>) -> Builder {
        self.lock_file = Some(path.into());
        self
    }

    /// Records the registry's current schemas in the lock file after a passing check (what
    /// `cloudevent codegen --update-lock` does); otherwise the lock is only written when absent
    /// (by [`Builder::generate_to_out_dir`]).
    #[must_use]
    pub fn update_lock(mut self, update: bool) -> Builder {
        self.update_lock = update;
        self
    }

    /// What the gate compares the registry with instead of the lock file: a git revision or
    /// a folder ([`Baseline`]), as `cargo xtask codegen --base` does. The lock file is still
    /// written as [`Builder::update_lock`] says, when nothing breaks.
    #[must_use]
    pub fn baseline(mut self, baseline: Baseline) -> Builder {
        self.baseline = Some(baseline);
        self
    }

    /// Generates the code as one string (what [`Builder::generate_to_out_dir`] writes),
    /// after the same compatibility gate as [`Builder::generate`]: the registry is compared
    /// with its lock file (or [`Builder::baseline`]) under [`Builder::compat`], and a breaking
    /// change is refused. Unlike [`Builder::generate_to_out_dir`] it never writes an absent
    /// lock file (only [`Builder::update_lock`] does); the gate's notes and the warnings are
    /// dropped, use [`Builder::generate`] to print them.
    ///
    /// ```
    /// use cloudevent_codegen::{Baseline, Builder};
    /// use std::fs;
    ///
    /// let v1 = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/com.example.order.cancelled/v1.json");
    /// let original: serde_json::Value = serde_json::from_str(&fs::read_to_string(v1).unwrap()).unwrap();
    /// let root = std::env::temp_dir().join(format!("generate-string-gate-{}", std::process::id()));
    /// let (old, new) = (root.join("old/com.example.order.cancelled"), root.join("new/com.example.order.cancelled"));
    /// fs::create_dir_all(&old).unwrap();
    /// fs::create_dir_all(&new).unwrap();
    /// fs::write(old.join("v1.json"), original.to_string()).unwrap();
    /// // `comment` removed from an open object: breaking under `forward`, so refused here too.
    /// let mut edited = original.clone();
    /// edited["properties"].as_object_mut().unwrap().remove("comment");
    /// fs::write(new.join("v1.json"), edited.to_string()).unwrap();
    ///
    /// let builder = Builder::new().schemas(root.join("new")).baseline(Baseline::Dir(root.join("old")));
    /// let refused = builder.generate_string().unwrap_err().to_string();
    /// assert!(refused.contains("property `comment` removed"), "{refused}");
    /// fs::write(new.join("v1.json"), original.to_string()).unwrap();
    /// assert!(builder.generate_string().is_ok());
    /// fs::remove_dir_all(&root).unwrap();
    /// ```
    ///
    /// # Errors
    /// See [`Builder::generate_from`]; a breaking change the gate refuses.
    pub fn generate_string(&self) -> Result<String, CodegenError> {
        self.generate()?.single_file()
    }

    /// Generates the code and returns it with its warnings (broken SHOULDs), for callers that
    /// print them, such as the CLI.
    ///
    /// # Errors
    /// See [`Builder::generate_from`].
    ///
    /// Before generating, the registry is compared with its lock file under the
    /// [`Builder::compat`] mode (the lock is written only with [`Builder::update_lock`]); notes
    /// about the lock come back among the warnings.
    pub fn generate(&self) -> Result<GeneratedRust, CodegenError> {
        let builder = self.resolved(&self.schemas)?;
        let registry = builder.load(&self.schemas)?;
        let lock = self.lock_path(&self.schemas);
        let notes = builder
            .gate_at(&registry, &lock, LockWrite::Never)?
            .verdict()?;
        let mut rust = generate_rust(&registry, &builder.policy, &builder.options)?;
        rust.warnings
            .extend(notes.into_iter().map(|note| Finding::new(&lock, "", note)));
        Ok(rust)
    }

    /// Runs the compatibility gate on a registry already in memory (as `cargo xtask codegen`
    /// does before [`Builder::generate_from`]): each type compared under [`Builder::compat`]
    /// with [`Builder::baseline`], else with the lock file ([`Builder::lock_file`], default
    /// `cloudevent.lock.json` beside [`Builder::schemas`]), which is written as
    /// [`Builder::update_lock`] says when nothing breaks. No settings file is read.
    ///
    /// ```
    /// use cloudevent_codegen::{Baseline, Builder, Registry};
    ///
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
    /// let registry = Registry::load(dir).unwrap();
    /// // The registry compared with itself: every type unchanged, nothing refused.
    /// let report = Builder::new().baseline(Baseline::Dir(dir.into())).gate(&registry).unwrap();
    /// assert!(report.rows.iter().all(|r| r.compatibility.status() == "unchanged"));
    /// assert_eq!(report.verdict().unwrap(), Vec::<String>::new());
    /// ```
    ///
    /// # Errors
    /// An unreadable baseline or lock file, an unwritable lock file. A breaking change is no
    /// error here: it is in [`GateReport::refusals`], and [`GateReport::verdict`] refuses it.
    pub fn gate(&self, registry: &Registry) -> Result<GateReport, CodegenError> {
        self.gate_at(registry, &self.lock_path(&self.schemas), LockWrite::Never)
    }

    /// The gate against the lock at `lock` (or [`Builder::baseline`]); with
    /// [`Builder::update_lock`] the lock is updated, else written only as `otherwise` says.
    fn gate_at(
        &self,
        registry: &Registry,
        lock: &Path,
        otherwise: LockWrite,
    ) -> Result<GateReport, CodegenError> {
        let write = if self.update_lock {
            LockWrite::Update
        } else {
            otherwise
        };
        gate(registry, (lock, write), self.baseline.as_ref(), self.compat)
    }

    /// Generates the code of a registry already in memory (loaded with [`Registry::load`] and
    /// its siblings, or assembled, as `cargo xtask codegen` does for its schema-first files)
    /// under this builder's policy and options. No lock gate and no settings file: both
    /// belong to a folder; run [`Builder::gate`] first if you need the gate.
    ///
    /// ```
    /// use cloudevent_codegen::{Builder, Profile, Registry};
    ///
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/cdevents-shaped/schemas");
    /// let registry = Registry::load_type_pointer(dir, "/properties/context/properties/type").unwrap();
    /// let rust = Builder::new().profile(Profile::CloudEvents).generate_from(&registry).unwrap();
    /// // External `$ref`s become one shared module.
    /// assert!(rust.module_files().iter().any(|(name, _)| name == "shared.rs"));
    /// ```
    ///
    /// # Errors
    /// [`CodegenError::Findings`] listing every problem of the registry, each with file, JSON
    /// pointer and fix.
    pub fn generate_from(&self, registry: &Registry) -> Result<GeneratedRust, CodegenError> {
        generate_rust(registry, &self.policy, &self.options)
    }

    fn lock_path(&self, schemas: &Path) -> PathBuf {
        match (&self.lock_file, std::env::var_os("CARGO_MANIFEST_DIR")) {
            (Some(file), Some(dir))
                if file.is_relative() && std::env::var_os("OUT_DIR").is_some() =>
            {
                Path::new(&dir).join(file)
            }
            (Some(file), _) => file.clone(),
            (None, _) => Lock::default_path(schemas),
        }
    }

    /// This builder with what it was not told taken from the registry's settings file
    /// (`cloudevent-registry.toml` in the schemas folder, or beside an xRegistry document)
    /// and, for the policy, from the crate's `[package.metadata.cloudevent]` (the
    /// `Cargo.toml` of `CARGO_MANIFEST_DIR`), which the derive applies to the generated types
    /// that carry no profile of their own.
    fn resolved(&self, dir: &Path) -> Result<Builder, CodegenError> {
        let mut builder = self.clone();
        let config_dir = if self.source != Source::Folder {
            dir.parent()
        } else {
            Some(dir)
        };
        if let Some(config) = config_dir
            .map(crate::config::read_registry_config)
            .transpose()?
            .flatten()
        {
            let mapping = &mut builder.mapping;
            if builder.source != Source::XRegistry && mapping.is_default_layout() {
                mapping.type_pointer = config.mapping.type_pointer;
                mapping.type_templates = config.mapping.type_templates;
                mapping.types_pointer = config.mapping.types_pointer;
            }
            for (mine, theirs) in [
                (&mut mapping.events, config.mapping.events),
                (&mut mapping.shared, config.mapping.shared),
                (&mut mapping.exclude, config.mapping.exclude),
            ] {
                if mine.is_empty() {
                    *mine = theirs;
                }
            }
            if mapping.dataschema_base.is_none() {
                mapping.dataschema_base = config.mapping.dataschema_base;
            }
            if let (Some(compat), false) = (config.compatibility, builder.compat_set) {
                builder.compat = compat;
            }
            if let (Some(profile), false) = (config.profile, builder.policy_set) {
                builder = builder.profile(profile);
            }
            let options = &mut builder.options;
            for (slot, value) in [
                (&mut options.subject_pointer, config.subject),
                (&mut options.id_pointer, config.id),
                (&mut options.time_pointer, config.time),
                (&mut options.source_pointer, config.source),
                (&mut options.source_template, config.source_template),
            ] {
                if slot.is_none() {
                    *slot = value;
                }
            }
            if options.extension_pointers.is_empty() {
                options.extension_pointers = config.extensions;
            }
        }
        if !builder.policy_set
            && let Some(policy) = crate::config::crate_policy()?
        {
            builder.policy = policy;
        }
        Ok(builder)
    }

    fn load(&self, dir: &Path) -> Result<Registry, CodegenError> {
        match self.source {
            Source::Folder => Registry::load_mapped_with(dir, &self.mapping, self.links.clone()),
            Source::XRegistry => Registry::load_xregistry(dir),
            Source::Document(kind) => crate::api_document::load(dir, &self.mapping, kind),
        }
    }

    /// Writes the code to `$OUT_DIR/<file name>` and tells cargo to rerun when the registry
    /// changes. Warnings become `cargo:warning` lines. Returns the written path.
    ///
    /// # Errors
    /// `OUT_DIR` unset (not in a build script), unreadable or invalid schemas, broken rules.
    pub fn generate_to_out_dir(&self) -> Result<PathBuf, CodegenError> {
        let out_dir = std::env::var_os("OUT_DIR").ok_or_else(|| {
            CodegenError::io(
                "OUT_DIR",
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "OUT_DIR is not set; call this from build.rs",
                ),
            )
        })?;
        let schemas = match std::env::var_os("CARGO_MANIFEST_DIR") {
            Some(dir) if self.schemas.is_relative() => Path::new(&dir).join(&self.schemas),
            _ => self.schemas.clone(),
        };
        println!("cargo:rerun-if-changed={}", schemas.display());
        let resolved = self.resolved(&schemas)?;
        let registry = resolved.load(&schemas)?;
        // The compatibility gate: a breaking change fails the build with the message
        // `cloudevent diff` prints; the lock is written on the first build.
        let lock = self.lock_path(&schemas);
        println!("cargo:rerun-if-changed={}", lock.display());
        let notes = resolved
            .gate_at(&registry, &lock, LockWrite::WhenAbsent)?
            .verdict()?;
        for note in notes {
            println!("cargo:warning={note}");
        }
        for file in &registry.files {
            println!("cargo:rerun-if-changed={}", file.path.display());
        }
        for file in &registry.protobuf {
            println!("cargo:rerun-if-changed={}", file.path.display());
        }
        for relative in registry.documents.keys() {
            println!(
                "cargo:rerun-if-changed={}",
                schemas.join(relative).display()
            );
        }
        let mut options = resolved.options.clone();
        if options.command.is_none() {
            let package = std::env::var("CARGO_PKG_NAME").unwrap_or_default();
            options.command = Some(format!(
                "`cargo build -p {package}` (its build.rs runs `cloudevent_codegen::Builder` on `{}`)",
                self.schemas.display()
            ));
        }
        let rust = generate_rust(&registry, &resolved.policy, &options)?;
        for warning in &rust.warnings {
            println!("cargo:warning={warning}");
        }
        for refusal in &rust.refused {
            println!("cargo:warning=left out (skip_refused): {refusal}");
        }
        let path = Path::new(&out_dir).join(&self.file_name);
        let text = rust.single_file()?;
        std::fs::write(&path, text).map_err(|e| CodegenError::io(&path, e))?;
        Ok(path)
    }
}
