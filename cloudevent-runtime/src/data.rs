use std::borrow::Cow;
use std::mem::ManuallyDrop;
use std::sync::OnceLock;

use crate::extension::ExtensionVisitor;

/// A payload type that knows its CloudEvents metadata.
///
/// Implemented by `#[derive(CloudEvent)]`; the derive has already checked every name against
/// `cloudevent-rules` when the code compiled, so the constants here are valid for the crate's
/// profile.
///
/// ```
/// use cloudevent_runtime::{Attributes, CloudEvent, CloudEventData};
///
/// #[derive(serde::Serialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com/checkout")]
/// struct OrderCreated {
///     #[cloudevent(subject)]
///     order_id: String,
/// }
///
/// assert_eq!(OrderCreated::TYPE, "com.example.order.created");
/// let order = OrderCreated { order_id: "order-1".into() };
/// assert_eq!(order.subject(), Some("order-1"));
/// ```
pub trait CloudEventData {
    /// The event `type`.
    const TYPE: &'static str;
    /// What `#[derive(CloudEvent)]` declared, in one constant the constants below default
    /// from (one item a type costs the compiler less than one each). Not a public API: a
    /// hand-written impl sets the constants themselves, and the runtime reads only those.
    #[doc(hidden)]
    const __DECLARED: Declared = Declared::NOTHING;
    /// The `dataschema` URI, when the derive named one (none by default).
    const DATASCHEMA: Option<&'static str> = Self::__DECLARED.dataschema;
    /// The default `source`, when the derive named one (none by default).
    const SOURCE: Option<&'static str> = Self::__DECLARED.source;
    /// The `datacontenttype`; `application/json` unless the derive said otherwise.
    const DATACONTENTTYPE: &'static str = Self::__DECLARED.datacontenttype;
    /// The names of the extensions this type fills from its fields, in declaration order
    /// (none by default).
    const EXTENSIONS: &'static [&'static str] = Self::__DECLARED.extensions;
    /// The payload property (as serialized, after serde renames) that fills `subject`.
    /// Schema export writes it as `x-cloudevent.subject`.
    const SUBJECT_PROPERTY: Option<&'static str> = Self::__DECLARED.subject_property;
    /// `(extension name, payload property)` pairs, in declaration order. Schema export
    /// writes them as `x-cloudevent.extensions`. A member below the root
    /// (`#[cloudevent(extension(name = "..", member = ".."))]`) is named by its path: the
    /// field's property, then Rust member names.
    ///
    /// ```
    /// use cloudevent_runtime::{CloudEvent, CloudEventData, Event};
    ///
    /// #[derive(serde::Serialize)]
    /// struct Context { tenant: String, site: Option<Site> }
    /// #[derive(serde::Serialize)]
    /// struct Site { zone: String }
    ///
    /// #[derive(serde::Serialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.device.reading.taken", source = "https://devices.example.com")]
    /// struct ReadingTaken {
    ///     // One field feeds two extensions; `site?` looks inside an `Option`.
    ///     #[cloudevent(extension(name = "tenantid", member = "tenant"),
    ///                  extension(name = "zone", member = "site?.zone"))]
    ///     context: Context,
    /// }
    ///
    /// assert_eq!(
    ///     ReadingTaken::EXTENSION_PROPERTIES,
    ///     [("tenantid", "context.tenant"), ("zone", "context.site.zone")]
    /// );
    /// let event = Event::new(ReadingTaken {
    ///     context: Context { tenant: "acme".into(), site: None },
    /// });
    /// assert_eq!(event.extension("tenantid"), Some("acme".into()));
    /// assert_eq!(event.extension("zone"), None, "no site: no zone extension");
    /// ```
    const EXTENSION_PROPERTIES: &'static [(&'static str, &'static str)] =
        Self::__DECLARED.extension_properties;
    /// The profile the derive checked this type's names against (the crate's
    /// `[package.metadata.cloudevent] profile`). Values set at run time through
    /// [`crate::Event`]'s setters are checked against the same profile, so they get the same
    /// messages as the derive.
    const PROFILE: cloudevent_rules::Profile = Self::__DECLARED.profile;
    /// Whether this type's readers take the header forms of senders that do not
    /// percent-encode (a bare `%`, a leading `"`, raw non-ASCII UTF-8, Python's `True`/`False`
    /// for a Boolean extension) literally, each with a warning, instead of refusing the
    /// message: `#[cloudevent(literal_headers)]` sets it, and [`crate::Event::POLICY`] carries
    /// it ([`cloudevent_rules::Policy::with_literal_headers`]; never granted under
    /// INTG-STD-015, where the derive refuses the key). Off by default.
    ///
    /// ```
    /// use cloudevent_runtime::{CloudEvent, CloudEventData};
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.order.noted", source = "https://orders.example.com",
    ///     profile = "cloudevents", literal_headers)]
    /// struct Noted;
    /// assert!(Noted::LITERAL_HEADERS);
    /// ```
    const LITERAL_HEADERS: bool = Self::__DECLARED.literal_headers;
    /// The extensions `#[cloudevent(sign(extensions = ".."))]` declares, in order, `Some(&[])`
    /// for a bare `#[cloudevent(sign)]`: the list `verify::sign_declared` (feature `verify`)
    /// signs besides the core attributes and data. The derive refuses at compile time a list
    /// the verifiability extension refuses (a name twice, a core attribute, `dssematerial`,
    /// `signedextattrs`) and a name the type does not fill from a field. `None` when the type
    /// declares no signing.
    ///
    /// ```
    /// use cloudevent_runtime::{CloudEvent, CloudEventData};
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com",
    ///     sign(extensions = "region"))]
    /// struct OrderCreated { #[cloudevent(extension)] region: String }
    ///
    /// assert_eq!(OrderCreated::SIGNED_EXTENSIONS, Some(&["region"][..]));
    /// ```
    const SIGNED_EXTENSIONS: Option<&'static [&'static str]> = Self::__DECLARED.signed_extensions;
    /// The constants above that were checked under [`Self::PROFILE`] when the type was
    /// declared: `#[derive(CloudEvent)]` checks its `type`, `source`, `dataschema` and
    /// `datacontenttype` at compile time (a MUST broken there does not compile), so a typed
    /// reader need not check an incoming value byte-equal to one of them again
    /// ([`cloudevent_rules::Policy::check_envelope_prechecked`]).
    ///
    /// The contract: this is the derive's to fill. A hand-written impl keeps the default,
    /// nothing, and every value is checked at run time. A claim filled by hand anyway is not
    /// trusted: the rules confirm it under [`Self::PROFILE`] on first use (cached per type)
    /// and what they refuse is checked as if unclaimed ([`CheckedByDerive`]), so a forged
    /// claim for a broken `type` still gets that `type`'s error at every door.
    const PRECHECKED: CheckedByDerive = match Self::__DECLARED.confirmation {
        Some(slot) => CheckedByDerive::of::<Self>(slot),
        None => CheckedByDerive::NOTHING,
    };
    /// The payload property that fills `id` (`#[cloudevent(id)]`), when one does.
    const ID_PROPERTY: Option<&'static str> = Self::__DECLARED.id_property;
    /// The payload property that fills `time` (`#[cloudevent(time)]`), when one does.
    const TIME_PROPERTY: Option<&'static str> = Self::__DECLARED.time_property;
    /// What fills `source` from the payload: the property of the field marked
    /// `#[cloudevent(source)]`, or the `source_template` (`/tenants/{tenantid}`) whose
    /// variables name payload properties.
    const SOURCE_PROPERTY: Option<&'static str> = Self::__DECLARED.source_property;
    /// `(extension name, CloudEvents type)` of each extension in [`Self::EXTENSIONS`], the
    /// type being its field's [`ExtensionField::KIND`](crate::ExtensionField::KIND): what
    /// `cesql!(T, "...")` type-checks comparisons against. Filled by the derive; not a public
    /// API (a hand-written impl keeps the default, no types: comparisons go unchecked).
    #[doc(hidden)]
    const EXTENSION_KINDS: &'static [(&'static str, Option<cloudevent_rules::AttributeKind>)] = &[];

    /// The `subject` taken from the field marked `#[cloudevent(subject)]`, if any.
    fn subject(&self) -> Option<&str>;

    /// The `id` the payload gives (`#[cloudevent(id)]`), as text; `None`: a fresh one.
    fn payload_id(&self) -> Option<Cow<'_, str>> {
        None
    }

    /// The `time` the payload gives (`#[cloudevent(time)]`), as RFC 3339 text; `None`: now.
    fn payload_time(&self) -> Option<Cow<'_, str>> {
        None
    }

    /// The `source` the payload gives (`#[cloudevent(source)]`, or `source_template` filled
    /// from its fields); `None` (a variable absent): the type's default source.
    fn payload_source(&self) -> Option<Cow<'_, str>> {
        None
    }

    /// Hands each extension value taken from a marked field to the visitor, in declaration
    /// order. A field holding `None` is skipped (the extension is absent). A type without
    /// extensions visits none (the default).
    ///
    /// # Errors
    /// Whatever the visitor returns.
    fn visit_extensions<V: ExtensionVisitor>(&self, visitor: &mut V) -> Result<(), V::Error> {
        let _ = visitor;
        Ok(())
    }

    /// What the payload's data schema says of this value beyond what its Rust type
    /// expresses: the first failure, or `None`. Every typed reader calls it on the payload it
    /// read (JSON, the bindings, Protobuf, `Event::try_from(AnyEvent)`), so a type generated
    /// from a schema refuses exactly what the schema refuses. The derive fills it from
    /// `#[cloudevent(check_schema = "DATA_SCHEMA")]` (the path of a `&'static str` holding
    /// the schema; needs the runtime's `registry` feature), which `cloudevent-codegen` writes
    /// for a schema with keywords the type cannot hold (`const`, `uniqueItems`, `not`, bounds;
    /// `docs/schema-fidelity.md`); a type without it checks nothing more than its type.
    ///
    /// ```
    /// use cloudevent_runtime::{CloudEvent, CloudEventData};
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.order.noted", source = "https://orders.example.com")]
    /// struct Noted { note: String }
    /// assert!(Noted { note: "any".into() }.check_data().is_none());
    /// ```
    fn check_data(&self) -> Option<cloudevent_rules::Violation> {
        None
    }
}

/// A payload type that always gives [`Event::new`](crate::Event::new) a `source`: a default
/// (`#[cloudevent(source = "...")]`), a `source_template`, or a field marked
/// `#[cloudevent(source)]`. `#[derive(CloudEvent)]` implements it when the type has one of
/// them, so `Event::new` on a type without any is refused by `cargo check` at the call;
/// [`Event::builder`](crate::Event::builder) sets a source at run time instead.
///
/// ```
/// use cloudevent_runtime::{CloudEvent, Event, HasSource};
///
/// #[derive(serde::Serialize, CloudEvent)]
/// #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
/// struct Ping;
///
/// fn emit<T: HasSource + serde::Serialize>(payload: T) -> Vec<u8> {
///     Event::new(payload).to_vec().unwrap()
/// }
/// assert!(!emit(Ping).is_empty());
/// ```
///
/// Without a source, `Event::new` does not compile:
///
/// ```compile_fail
/// use cloudevent_runtime::{CloudEvent, Event};
///
/// #[derive(serde::Serialize, CloudEvent)]
/// #[cloudevent(type = "com.example.health.ping.sent")]
/// struct Ping;
///
/// let _ = Event::new(Ping);
/// ```
///
/// A hand-written impl promises that [`CloudEventData::SOURCE`] or
/// [`CloudEventData::SOURCE_PROPERTY`] is set; `Event::new` fails to compile (when the
/// constants are evaluated) on a type that breaks the promise.
#[diagnostic::on_unimplemented(
    message = "`Event::new` needs a source, and `{Self}` names none",
    label = "`{Self}` has no default `source`",
    note = "add `source = \"https://...\"` (or a `source_template`) to `#[cloudevent(...)]` on `{Self}`, or mark a field `#[cloudevent(source)]`",
    note = "or set the source at run time: `Event::builder(payload).source(\"https://...\").build()`"
)]
pub trait HasSource: CloudEventData {}

/// What `#[derive(CloudEvent)]` checked under a payload type's policy when the type was
/// declared ([`CloudEventData::PRECHECKED`]): the typed readers skip re-checking an incoming
/// value byte-equal to one of these constants.
///
/// A claim is not taken on trust. A proc macro cannot hold a secret, so the constructor the
/// derive calls is reachable by hand too; instead, the first time a typed reader uses a
/// claim, `cloudevent-rules` confirms it under the type's policy
/// ([`cloudevent_rules::Policy::confirm_prechecked`], the rules' own checks) and keeps the
/// verdict in a `static` the derive emits beside the impl. Every later read pays one atomic
/// load. A claimed value the rules refuse is dropped from the claim and checked as if it
/// had never been claimed, so a forged claim costs its author the shortcut, never a check.
///
/// ```
/// use cloudevent_runtime::{CheckedByDerive, CloudEvent, CloudEventData};
/// use cloudevent_runtime::rules::Prechecked;
///
/// #[derive(serde::Serialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.created")]
/// struct OrderCreated;
///
/// // The type's own constants, the default `datacontenttype` among them.
/// assert_eq!(
///     OrderCreated::PRECHECKED,
///     Prechecked {
///         ty: Some("com.example.order.created"),
///         datacontenttype: Some("application/json"),
///         ..Prechecked::NONE
///     }
/// );
/// assert_eq!(CheckedByDerive::NOTHING, Prechecked::NONE);
/// ```
///
/// Its fields are private, so a hand-written impl writes no claim by accident:
///
/// ```compile_fail
/// use cloudevent_runtime::{CheckedByDerive, rules::Prechecked};
/// const CLAIM: CheckedByDerive = CheckedByDerive(Prechecked {
///     ty: Some("Not A Type"),
///     ..Prechecked::NONE
/// });
/// ```
#[derive(Clone, Copy)]
pub struct CheckedByDerive {
    claims: cloudevent_rules::Prechecked<'static>,
    /// Where the rules' verdict on `claims` is kept, filled on first use; one per derived
    /// type.
    confirmed: Verdict,
}

/// The `static` a claim's verdict is kept in: the derive's [`Confirmation`], or the
/// `OnceLock` that `__private_v1::checked_by_derive` has taken since the first release.
#[derive(Clone, Copy)]
enum Verdict {
    Lock(&'static OnceLock<Confirmed>),
    Slot(&'static Confirmation),
}

/// The part of a claim the rules confirmed, and the profile they confirmed it under. Only
/// this crate makes one (its fields are private), so a `static` of it starts empty whoever
/// declares it.
#[doc(hidden)]
#[derive(Debug)]
pub struct Confirmed {
    profile: cloudevent_rules::Profile,
    claims: cloudevent_rules::Prechecked<'static>,
}

impl Confirmed {
    /// The rules' verdict on `claims` under `profile`.
    fn of(
        claims: &cloudevent_rules::Prechecked<'static>,
        profile: cloudevent_rules::Profile,
    ) -> Self {
        Confirmed {
            profile,
            claims: cloudevent_rules::Policy::new(profile).confirm_prechecked(claims),
        }
    }

    /// The confirmed claim when it was confirmed under `profile`; nothing otherwise (a
    /// verdict cached under another profile, by a `static` two hand-written impls share).
    fn under(&self, profile: cloudevent_rules::Profile) -> cloudevent_rules::Prechecked<'static> {
        if self.profile == profile {
            self.claims
        } else {
            cloudevent_rules::Prechecked::NONE
        }
    }
}

/// What `#[derive(CloudEvent)]` declares of a type: the value of its hidden
/// `CloudEventData::__DECLARED`, which every constant of the trait but `TYPE` defaults from
/// (`EXTENSION_KINDS` aside, built from the field types). The derive sets this one
/// constant instead of one each: every associated constant costs the compiler about the
/// same whatever its value, so a derive of 100 types paid for 400 of them (issue 40, `cargo
/// xtask compile-cost`). The runtime reads the trait's constants, never this one, so a
/// hand-written impl that sets them directly means what it says. Only generated code names it.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Declared {
    /// `CloudEventData::DATASCHEMA`.
    pub dataschema: Option<&'static str>,
    /// `CloudEventData::SOURCE`.
    pub source: Option<&'static str>,
    /// `CloudEventData::DATACONTENTTYPE`.
    pub datacontenttype: &'static str,
    /// `CloudEventData::EXTENSIONS`.
    pub extensions: &'static [&'static str],
    /// `CloudEventData::SUBJECT_PROPERTY`.
    pub subject_property: Option<&'static str>,
    /// `CloudEventData::EXTENSION_PROPERTIES`.
    pub extension_properties: &'static [(&'static str, &'static str)],
    /// `CloudEventData::PROFILE`.
    pub profile: cloudevent_rules::Profile,
    /// `CloudEventData::LITERAL_HEADERS`.
    pub literal_headers: bool,
    /// `CloudEventData::SIGNED_EXTENSIONS`.
    pub signed_extensions: Option<&'static [&'static str]>,
    /// `CloudEventData::ID_PROPERTY`.
    pub id_property: Option<&'static str>,
    /// `CloudEventData::TIME_PROPERTY`.
    pub time_property: Option<&'static str>,
    /// `CloudEventData::SOURCE_PROPERTY`.
    pub source_property: Option<&'static str>,
    /// Where the verdict on the type's claim is kept: with one, `PRECHECKED` claims the
    /// type's constants (`CheckedByDerive`); without, it claims nothing.
    pub confirmation: Option<&'static Confirmation>,
}

impl Declared {
    /// Nothing declared: the trait's defaults.
    pub const NOTHING: Declared = Declared {
        dataschema: None,
        source: None,
        datacontenttype: "application/json",
        extensions: &[],
        subject_property: None,
        extension_properties: &[],
        profile: cloudevent_rules::Profile::IntgStd015,
        literal_headers: false,
        signed_extensions: None,
        id_property: None,
        time_property: None,
        source_property: None,
        confirmation: None,
    };
}

/// The `static` the derive emits for each type to keep the rules' verdict on its claim
/// ([`CheckedByDerive`]): empty until the first typed read fills it.
///
/// A `OnceLock<Confirmed>` without its destructor (a `static` never drops): a type with
/// drop glue costs the compiler more in every `static` of it, and a derive of 100 types
/// paid that 100 times (issue 40, `cargo xtask compile-cost`: 25 M instructions). The
/// verdict is the confirmed values themselves, not a mask over the reader's claim, so a slot
/// shared by two hand-written impls can hand one of them values the rules confirmed for the
/// other, never a value they did not confirm.
#[doc(hidden)]
pub struct Confirmation(ManuallyDrop<OnceLock<Confirmed>>);

impl Confirmation {
    /// An empty slot.
    #[allow(clippy::new_without_default, reason = "only `static`s hold one")]
    pub const fn new() -> Self {
        Confirmation(ManuallyDrop::new(OnceLock::new()))
    }

    /// The verdict on `claims`: made by the first caller, then one atomic load.
    fn get_or_confirm(
        &self,
        claims: &cloudevent_rules::Prechecked<'static>,
        profile: cloudevent_rules::Profile,
    ) -> &Confirmed {
        self.0.get_or_init(|| Confirmed::of(claims, profile))
    }
}

/// The verdict of the hand-written impls that keep [`CheckedByDerive::NOTHING`].
static NOTHING_CONFIRMED: OnceLock<Confirmed> = OnceLock::new();

impl CheckedByDerive {
    /// Nothing was checked when the type was declared: every value is checked at run time.
    pub const NOTHING: CheckedByDerive = CheckedByDerive {
        claims: cloudevent_rules::Prechecked::NONE,
        confirmed: Verdict::Lock(&NOTHING_CONFIRMED),
    };

    /// The first release's constructor (see `__private_v1::checked_by_derive`).
    pub(crate) const fn new(
        claims: cloudevent_rules::Prechecked<'static>,
        confirmed: &'static OnceLock<Confirmed>,
    ) -> Self {
        CheckedByDerive {
            claims,
            confirmed: Verdict::Lock(confirmed),
        }
    }

    /// The derive's constructor (see `__private_v1::checked_by_derive_of`): the claim is the
    /// type's own constants, `type`, `source`, `datacontenttype`, `dataschema` and the
    /// extension names, as the derive checked them.
    pub(crate) const fn of<T: CloudEventData + ?Sized>(confirmed: &'static Confirmation) -> Self {
        CheckedByDerive {
            claims: cloudevent_rules::Prechecked {
                source: T::SOURCE,
                ty: Some(T::TYPE),
                datacontenttype: Some(T::DATACONTENTTYPE),
                dataschema: T::DATASCHEMA,
                extension_names: T::EXTENSIONS,
                time: None,
            },
            confirmed: Verdict::Slot(confirmed),
        }
    }

    /// The claim as `cloudevent-rules` confirmed it under `profile` (the payload type's):
    /// checked once, on first use, then one atomic load. A verdict cached under another
    /// profile (a `static` shared by two hand-written impls) confirms nothing.
    pub(crate) fn confirmed(
        &self,
        profile: cloudevent_rules::Profile,
    ) -> cloudevent_rules::Prechecked<'static> {
        match self.confirmed {
            Verdict::Slot(slot) => slot.get_or_confirm(&self.claims, profile).under(profile),
            Verdict::Lock(lock) => lock
                .get_or_init(|| Confirmed::of(&self.claims, profile))
                .under(profile),
        }
    }
}

impl std::fmt::Debug for CheckedByDerive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("CheckedByDerive")
            .field(&self.claims)
            .finish()
    }
}

/// Two claims are equal when they claim the same values.
impl PartialEq for CheckedByDerive {
    fn eq(&self, other: &Self) -> bool {
        self.claims == other.claims
    }
}

impl Eq for CheckedByDerive {}

/// Compares the claim with the values it holds, so a test can write the expected
/// [`cloudevent_rules::Prechecked`] out.
impl PartialEq<cloudevent_rules::Prechecked<'_>> for CheckedByDerive {
    fn eq(&self, other: &cloudevent_rules::Prechecked<'_>) -> bool {
        self.claims == *other
    }
}
