//! The walk over two schemas side by side, following `$ref`s on both.
//!
//! Linear in the size of the two documents (issue 27): enum values, `required` names, `type`
//! lists and composition branches are matched through hash sets, never list against list, and
//! a schema is borrowed, not copied, unless a `$ref` with sibling keywords has to be merged.
//! What remains above linear is bounded by nesting depth (an equal subtree is compared once at
//! each level above it), and the reader caps that depth.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use serde_json::{Map, Value};

use super::{Change, ChangeKind};
use crate::error::pointer_segment;

/// Bounds where a larger value is stricter.
const LOWER_BOUNDS: [&str; 5] = [
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
];
/// Bounds where a smaller value is stricter.
const UPPER_BOUNDS: [&str; 5] = [
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
];
/// The composition keywords, compared branch by branch.
const COMPOSITIONS: [&str; 3] = ["allOf", "anyOf", "oneOf"];
/// Keywords whose change the differ does not classify (treated as breaking both ways).
const UNCLASSIFIED: [&str; 8] = [
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependentRequired",
    "patternProperties",
    "unevaluatedProperties",
];
/// How deep `$ref`s are followed before the walk gives up (a guard, not a limit real
/// schemas reach: cycles are caught by the stack of pairs being compared).
const MAX_DEPTH: usize = 64;

/// Where the walk is: the keyword location in the new schema, and the definition site when a
/// `$ref` led there.
#[derive(Debug, Clone)]
struct Loc {
    at: String,
    site: Option<String>,
}

impl Loc {
    fn child(&self, segment: &str) -> Loc {
        let segment = pointer_segment(segment);
        Loc {
            at: format!("{}/{segment}", self.at),
            site: self.site.as_ref().map(|s| format!("{s}/{segment}")),
        }
    }
}

pub(super) fn diff(old: &Value, new: &Value, origins: &BTreeMap<String, String>) -> Vec<Change> {
    let mut differ = Differ {
        old_root: old,
        new_root: new,
        origins,
        out: Vec::new(),
        stack: Vec::new(),
    };
    differ.schema(
        old,
        new,
        &Loc {
            at: String::new(),
            site: None,
        },
    );
    differ.out
}

struct Differ<'a> {
    old_root: &'a Value,
    new_root: &'a Value,
    origins: &'a BTreeMap<String, String>,
    out: Vec<Change>,
    /// The `$ref` targets (old, new) being compared, so a recursive definition is compared once.
    stack: Vec<(String, String)>,
}

/// A schema with its `$ref` followed: the target, with the ref's sibling keywords added.
struct Deref<'a> {
    schema: Cow<'a, Value>,
    /// The last target followed (`#/$defs/x`), `None` when there was no ref.
    target: Option<String>,
}

impl Differ<'_> {
    fn push(&mut self, loc: &Loc, kind: ChangeKind) {
        self.out.push(Change {
            pointer: loc.at.clone(),
            definition: loc.site.clone(),
            kind,
        });
    }

    /// Follows `$ref`s inside `root` (at most [`MAX_DEPTH`] in a row).
    fn deref<'a>(root: &'a Value, schema: &'a Value) -> Result<Deref<'a>, String> {
        let mut current = Cow::Borrowed(schema);
        let mut target = None;
        for _ in 0..MAX_DEPTH {
            let Some(reference) = current
                .get("$ref")
                .and_then(Value::as_str)
                .map(str::to_owned)
            else {
                return Ok(Deref {
                    schema: current,
                    target,
                });
            };
            let found = reference
                .strip_prefix('#')
                .and_then(|pointer| root.pointer(&percent_decode(pointer)))
                .ok_or_else(|| reference.clone())?;
            let siblings = current.as_object().filter(|o| o.len() > 1);
            current = match (siblings, found.as_object()) {
                (Some(siblings), Some(object)) => {
                    let mut next = object.clone();
                    for (key, value) in siblings {
                        if key != "$ref" && !next.contains_key(key) {
                            next.insert(key.clone(), value.clone());
                        }
                    }
                    Cow::Owned(Value::Object(next))
                }
                _ => Cow::Borrowed(found),
            };
            target = Some(reference);
        }
        Err(format!("{} (a cycle of refs)", target.unwrap_or_default()))
    }

    /// The definition site of a ref target of the new schema.
    fn site_of(&self, target: &str) -> String {
        if let Some(rest) = target.strip_prefix("#/$bundled/") {
            let (name, tail) = rest.split_once('/').unwrap_or((rest, ""));
            let name = name.replace("~1", "/").replace("~0", "~");
            if let Some(origin) = self.origins.get(&name) {
                return if tail.is_empty() {
                    origin.clone()
                } else {
                    format!("{origin}/{tail}")
                };
            }
        }
        target.to_owned()
    }

    fn schema(&mut self, old: &Value, new: &Value, loc: &Loc) {
        if self.stack.len() > MAX_DEPTH {
            return;
        }
        let (o, n) = match (
            Self::deref(self.old_root, old),
            Self::deref(self.new_root, new),
        ) {
            (Ok(o), Ok(n)) => (o, n),
            // The same ref to another document on both sides (a schema diffed unbundled):
            // nothing to compare it with, and nothing changed here.
            (Err(_), Err(_)) if old == new => return,
            (Err(reference), _) => {
                let kind = ChangeKind::UnresolvedReference {
                    side: "old",
                    reference,
                };
                self.push(&loc.child("$ref"), kind);
                return;
            }
            (_, Err(reference)) => {
                let kind = ChangeKind::UnresolvedReference {
                    side: "new",
                    reference,
                };
                self.push(&loc.child("$ref"), kind);
                return;
            }
        };
        let loc = match &n.target {
            Some(target) => Loc {
                at: format!("{}/$ref", loc.at),
                site: Some(self.site_of(target)),
            },
            None => loc.clone(),
        };
        let pair = (
            o.target.clone().unwrap_or_default(),
            n.target.clone().unwrap_or_default(),
        );
        let followed = o.target.is_some() || n.target.is_some();
        if followed {
            // Comparing the same two definitions again (a recursive schema): already under way.
            if self.stack.contains(&pair) {
                return;
            }
            self.stack.push(pair);
        }
        self.compare(&o.schema, &n.schema, &loc);
        if followed {
            self.stack.pop();
        }
    }

    fn compare(&mut self, old: &Value, new: &Value, loc: &Loc) {
        if old == new && !has_ref(new) {
            return;
        }
        let empty = Map::new();
        let (o, n) = match (old, new) {
            (Value::Object(o), Value::Object(n)) => (o, n),
            (Value::Bool(a), Value::Bool(b)) if a == b => return,
            (Value::Bool(false), _) => return self.push(loc, ChangeKind::AnythingAllowed),
            (_, Value::Bool(false)) => return self.push(loc, ChangeKind::NothingAllowed),
            // `true` is `{}`.
            (Value::Bool(true), Value::Object(n)) => (&empty, n),
            (Value::Object(o), Value::Bool(true)) => (o, &empty),
            _ => return self.push(loc, ChangeKind::Unclassified("schema".into())),
        };
        if ["description", "title"]
            .iter()
            .any(|k| o.get(*k) != n.get(*k))
        {
            self.push(loc, ChangeKind::DescriptionChanged);
        }
        self.types(o.get("type"), n.get("type"), loc);
        self.properties(o, n, loc);
        self.required(o, n, loc);
        self.enums(o.get("enum"), n.get("enum"), loc);
        self.additional(
            o.get("additionalProperties"),
            n.get("additionalProperties"),
            loc,
        );
        self.bounds(o, n, loc);
        self.text_constraint("pattern", o.get("pattern"), n.get("pattern"), loc);
        self.text_constraint("format", o.get("format"), n.get("format"), loc);
        match (o.get("const"), n.get("const")) {
            (a, Some(b)) if a != Some(b) => self.push(
                &loc.child("const"),
                ChangeKind::ConstChanged {
                    old: a.cloned(),
                    new: b.clone(),
                },
            ),
            (Some(a), None) => self.push(&loc.child("const"), ChangeKind::ConstRemoved(a.clone())),
            _ => {}
        }
        for keyword in ["items", "additionalItems", "contains", "propertyNames"] {
            let child = loc.child(keyword);
            match (o.get(keyword), n.get(keyword)) {
                (Some(a), Some(b)) => self.schema(a, b, &child),
                (None, Some(b)) => self.schema(&Value::Bool(true), b, &child),
                (Some(a), None) => self.schema(a, &Value::Bool(true), &child),
                (None, None) => {}
            }
        }
        for keyword in COMPOSITIONS {
            self.composition(keyword, o.get(keyword), n.get(keyword), loc);
        }
        match (
            o.get("prefixItems").and_then(Value::as_array),
            n.get("prefixItems").and_then(Value::as_array),
        ) {
            (Some(a), Some(b)) if a.len() == b.len() => {
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    self.schema(x, y, &loc.child("prefixItems").child(&i.to_string()));
                }
            }
            (a, b) if a != b => self.push(
                &loc.child("prefixItems"),
                ChangeKind::Unclassified("prefixItems".into()),
            ),
            _ => {}
        }
        for keyword in UNCLASSIFIED {
            let (a, b) = (o.get(keyword), n.get(keyword));
            let changed = match (a, b) {
                (None, None) => false,
                (Some(a), Some(b)) if a == b => self.changes_behind_refs(keyword, a, b, loc),
                _ => true,
            };
            if changed {
                self.push(
                    &loc.child(keyword),
                    ChangeKind::Unclassified(keyword.into()),
                );
            }
        }
    }

    /// Whether an unclassified keyword of equal text changed behind its refs. Its changes are
    /// not reported one by one (`not` would turn their directions around): the keyword is.
    fn changes_behind_refs(&mut self, keyword: &str, a: &Value, b: &Value, loc: &Loc) -> bool {
        if !has_ref(a) {
            return false;
        }
        let before = self.out.len();
        let here = loc.child(keyword);
        match (a, b) {
            // Maps of name (or pattern) to schema.
            (Value::Object(x), Value::Object(y))
                if matches!(keyword, "patternProperties" | "dependentSchemas") =>
            {
                for (name, schema) in x {
                    if let Some(other) = y.get(name) {
                        self.schema(schema, other, &here.child(name));
                    }
                }
            }
            _ if keyword == "dependentRequired" => {}
            _ => self.schema(a, b, &here),
        }
        let changed = self.out.len() > before;
        self.out.truncate(before);
        changed
    }

    /// `anyOf`/`oneOf`/`allOf`: branches of equal text are paired first, the rest by position;
    /// what is left over was added or removed.
    fn composition(&mut self, keyword: &str, old: Option<&Value>, new: Option<&Value>, loc: &Loc) {
        let here = loc.child(keyword);
        let (a, b) = match (old.and_then(Value::as_array), new.and_then(Value::as_array)) {
            (None, None) => return,
            (None, Some(_)) => {
                return self.push(&here, ChangeKind::CompositionAdded(keyword.into()));
            }
            (Some(_), None) => {
                return self.push(&here, ChangeKind::CompositionRemoved(keyword.into()));
            }
            (Some(a), Some(b)) => (a, b),
        };
        let mut paired: Vec<Option<usize>> = vec![None; a.len()];
        let mut taken = vec![false; b.len()];
        // Each new branch's position, by its text, in order: a branch pairs with the first
        // equal one not taken yet.
        let mut by_text: HashMap<&Value, VecDeque<usize>> = HashMap::with_capacity(b.len());
        for (j, y) in b.iter().enumerate() {
            by_text.entry(y).or_default().push_back(j);
        }
        for (i, x) in a.iter().enumerate() {
            if let Some(j) = by_text.get_mut(x).and_then(VecDeque::pop_front) {
                paired[i] = Some(j);
                taken[j] = true;
            }
        }
        let mut free = (0..b.len())
            .filter(|&j| !taken[j])
            .collect::<Vec<_>>()
            .into_iter();
        for slot in paired.iter_mut().filter(|s| s.is_none()) {
            match free.next() {
                Some(j) => *slot = Some(j),
                None => break,
            }
        }
        for (i, slot) in paired.iter().enumerate() {
            match slot {
                Some(j) => self.schema(&a[i], &b[*j], &here.child(&j.to_string())),
                None => self.push(
                    &here.child(&i.to_string()),
                    ChangeKind::BranchRemoved {
                        keyword: keyword.into(),
                    },
                ),
            }
        }
        for j in free {
            self.push(
                &here.child(&j.to_string()),
                ChangeKind::BranchAdded {
                    keyword: keyword.into(),
                },
            );
        }
    }

    fn types(&mut self, old: Option<&Value>, new: Option<&Value>, at: &Loc) {
        let set = |v: Option<&Value>| -> Option<Vec<String>> {
            match v? {
                Value::String(s) => Some(vec![s.clone()]),
                Value::Array(list) => Some(
                    list.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect(),
                ),
                _ => None,
            }
        };
        let (old_set, new_set) = (set(old), set(new));
        if old_set == new_set {
            return;
        }
        let show =
            |s: &Option<Vec<String>>| s.as_ref().map_or_else(|| "any".to_owned(), |s| s.join("|"));
        // `number` admits every `integer`; no `type` admits everything.
        let admits = |wide: &Option<HashSet<&str>>, t: &str| match wide {
            None => true,
            Some(wide) => wide.contains(t) || (t == "integer" && wide.contains("number")),
        };
        let all = |narrow: &Option<Vec<String>>, wide: &Option<Vec<String>>| {
            let wide = wide
                .as_ref()
                .map(|w| w.iter().map(String::as_str).collect::<HashSet<_>>());
            match narrow {
                None => wide.is_none(),
                Some(narrow) => narrow.iter().all(|t| admits(&wide, t)),
            }
        };
        let (old_text, new_text) = (show(&old_set), show(&new_set));
        let kind = if all(&old_set, &new_set) {
            ChangeKind::TypeWidened {
                old: old_text,
                new: new_text,
            }
        } else if all(&new_set, &old_set) {
            ChangeKind::TypeNarrowed {
                old: old_text,
                new: new_text,
            }
        } else {
            ChangeKind::TypeChanged {
                old: old_text,
                new: new_text,
            }
        };
        self.push(&at.child("type"), kind);
    }

    fn properties(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, at: &Loc) {
        let empty = Map::new();
        let old_props = o
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let new_props = n
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let new_required = required_set(n);
        let closed =
            |m: &Map<String, Value>| m.get("additionalProperties") == Some(&Value::Bool(false));
        for (name, old_schema) in old_props {
            let here = at.child("properties").child(name);
            match new_props.get(name) {
                Some(new_schema) => self.schema(old_schema, new_schema, &here),
                None => self.push(
                    &here,
                    ChangeKind::PropertyRemoved {
                        name: name.clone(),
                        closed: closed(n),
                    },
                ),
            }
        }
        for name in new_props.keys().filter(|k| !old_props.contains_key(*k)) {
            self.push(
                &at.child("properties").child(name),
                ChangeKind::PropertyAdded {
                    name: name.clone(),
                    required: new_required.contains(name),
                    closed: closed(o),
                },
            );
        }
    }

    fn required(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, at: &Loc) {
        let (old_required, new_required) = (required_set(o), required_set(n));
        let old_props = o.get("properties").and_then(Value::as_object);
        let here = at.child("required");
        for name in &new_required.order {
            // A new property that is required is already reported as such.
            let existed = old_props.is_some_and(|p| p.contains_key(*name));
            if !old_required.contains(name) && existed {
                self.push(&here, ChangeKind::NewlyRequired((*name).to_owned()));
            }
        }
        for name in &old_required.order {
            if !new_required.contains(name) {
                self.push(&here, ChangeKind::NoLongerRequired((*name).to_owned()));
            }
        }
    }

    fn enums(&mut self, old: Option<&Value>, new: Option<&Value>, at: &Loc) {
        let here = at.child("enum");
        match (old.and_then(Value::as_array), new.and_then(Value::as_array)) {
            (Some(a), Some(b)) => {
                let (in_a, in_b) = (
                    a.iter().collect::<HashSet<_>>(),
                    b.iter().collect::<HashSet<_>>(),
                );
                for v in a.iter().filter(|v| !in_b.contains(v)) {
                    self.push(&here, ChangeKind::EnumValueRemoved(v.clone()));
                }
                for v in b.iter().filter(|v| !in_a.contains(v)) {
                    self.push(&here, ChangeKind::EnumValueAdded(v.clone()));
                }
            }
            (None, Some(_)) => self.push(&here, ChangeKind::EnumAdded),
            (Some(_), None) => self.push(&here, ChangeKind::EnumRemoved),
            (None, None) => {}
        }
    }

    fn additional(&mut self, old: Option<&Value>, new: Option<&Value>, at: &Loc) {
        let here = at.child("additionalProperties");
        let open = |v: Option<&Value>| v.is_none() || v == Some(&Value::Bool(true));
        match (old, new) {
            (a, b) if a == b && !a.is_some_and(has_ref) => {}
            (a, Some(Value::Bool(false))) if a != Some(&Value::Bool(false)) => {
                self.push(&here, ChangeKind::AdditionalPropertiesClosed)
            }
            (Some(Value::Bool(false)), b) if open(b) => {
                self.push(&here, ChangeKind::AdditionalPropertiesOpened)
            }
            (a, b) => {
                let a = a.cloned().unwrap_or(Value::Bool(true));
                let b = b.cloned().unwrap_or(Value::Bool(true));
                self.schema(&a, &b, &here);
            }
        }
    }

    fn bounds(
        &mut self,
        o: &serde_json::Map<String, Value>,
        n: &serde_json::Map<String, Value>,
        at: &Loc,
    ) {
        let tighter = |keyword: &str, a: f64, b: f64| {
            if LOWER_BOUNDS.contains(&keyword) {
                b > a
            } else {
                b < a
            }
        };
        for keyword in LOWER_BOUNDS
            .iter()
            .chain(UPPER_BOUNDS.iter())
            .chain(["multipleOf"].iter())
        {
            let pointer = at.child(keyword);
            let keyword = (*keyword).to_owned();
            match (o.get(&keyword), n.get(&keyword)) {
                (None, Some(b)) => self.push(
                    &pointer,
                    ChangeKind::BoundTightened {
                        keyword,
                        old: None,
                        new: b.clone(),
                    },
                ),
                (Some(a), None) => self.push(
                    &pointer,
                    ChangeKind::BoundLoosened {
                        keyword,
                        old: a.clone(),
                        new: None,
                    },
                ),
                (Some(a), Some(b)) if a != b => {
                    let (x, y) = (
                        a.as_f64().unwrap_or(f64::NAN),
                        b.as_f64().unwrap_or(f64::NAN),
                    );
                    let breaking = if keyword == "multipleOf" {
                        // Loosened only when the old step is a multiple of the new one.
                        y == 0.0 || (x / y).fract() != 0.0
                    } else {
                        tighter(&keyword, x, y) || x.is_nan() || y.is_nan()
                    };
                    if breaking {
                        self.push(
                            &pointer,
                            ChangeKind::BoundTightened {
                                keyword,
                                old: Some(a.clone()),
                                new: b.clone(),
                            },
                        );
                    } else {
                        self.push(
                            &pointer,
                            ChangeKind::BoundLoosened {
                                keyword,
                                old: a.clone(),
                                new: Some(b.clone()),
                            },
                        );
                    }
                }
                _ => {}
            }
        }
    }

    fn text_constraint(
        &mut self,
        keyword: &str,
        old: Option<&Value>,
        new: Option<&Value>,
        at: &Loc,
    ) {
        let pointer = at.child(keyword);
        let text =
            |v: Option<&Value>| v.map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned));
        let (a, b) = (text(old), text(new));
        let kind = match (a, b) {
            (a, b) if a == b => return,
            (a, Some(b)) if keyword == "pattern" => ChangeKind::PatternChanged { old: a, new: b },
            (a, Some(b)) => ChangeKind::FormatChanged { old: a, new: b },
            (Some(a), None) if keyword == "pattern" => ChangeKind::PatternRemoved(a),
            (Some(a), None) => ChangeKind::FormatRemoved(a),
            (None, None) => return,
        };
        self.push(&pointer, kind);
    }
}

/// The names `required` lists, in order (a name listed twice once).
fn required_set(object: &Map<String, Value>) -> Required<'_> {
    let mut required = Required::default();
    for name in object
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if required.set.insert(name) {
            required.order.push(name);
        }
    }
    required
}

/// `required`'s names in order and as a set (looked up once a property).
#[derive(Default)]
struct Required<'a> {
    order: Vec<&'a str>,
    set: HashSet<&'a str>,
}

impl Required<'_> {
    fn contains(&self, name: &str) -> bool {
        self.set.contains(name)
    }
}

/// Whether a schema holds a `$ref` anywhere (then equal text is not equal meaning).
fn has_ref(value: &Value) -> bool {
    match value {
        Value::Object(object) => object.iter().any(|(k, v)| {
            k == "$ref"
                || (!matches!(k.as_str(), "enum" | "const" | "default" | "examples") && has_ref(v))
        }),
        Value::Array(items) => items.iter().any(has_ref),
        _ => false,
    }
}

/// RFC 6901 pointers inside URI fragments may be percent-encoded (`%24defs`).
fn percent_decode(pointer: &str) -> String {
    if !pointer.contains('%') {
        return pointer.to_owned();
    }
    let bytes = pointer.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && pointer.is_char_boundary(i + 3)
            && let Ok(b) = u8::from_str_radix(&pointer[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
