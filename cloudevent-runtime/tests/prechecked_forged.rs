//! `CloudEventData::PRECHECKED` is the derive's to fill, but a proc macro holds no secret:
//! a hand-written impl can call the derive's constructor and claim that a broken `type` was
//! checked. The claim is confirmed by `cloudevent-rules` under the type's policy on first
//! use, so the forged value is checked as if never claimed, and refused, at every door.
#![cfg(feature = "http")]

use cloudevent_runtime::__private_v1::{
    Confirmation, Confirmed, Declared, OnceLock, checked_by_derive, checked_by_derive_of,
};
use cloudevent_runtime::binding::http;
use cloudevent_runtime::rules::Prechecked;
use cloudevent_runtime::{
    CheckedByDerive, CloudEvent, CloudEventData, Event, ExtensionVisitor, FormatError, Json,
};

/// Breaks INTG-STD-015 R-4 (segments are lowercase): the derive would not compile it.
const BROKEN_TYPE: &str = "Com.Example.Order.Created";
const BROKEN_SOURCE: &str = "https://localhost:8080/orders";

#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Forged {
    n: u32,
}

static FORGED_CONFIRMED: OnceLock<Confirmed> = OnceLock::new();

impl CloudEventData for Forged {
    const TYPE: &'static str = BROKEN_TYPE;
    const DATASCHEMA: Option<&'static str> = None;
    const SOURCE: Option<&'static str> = Some(BROKEN_SOURCE);
    const DATACONTENTTYPE: &'static str = "application/json";
    const EXTENSIONS: &'static [&'static str] = &[];
    const PRECHECKED: CheckedByDerive = checked_by_derive(
        Prechecked {
            ty: Some(BROKEN_TYPE),
            source: Some(BROKEN_SOURCE),
            datacontenttype: Some("application/json"),
            ..Prechecked::NONE
        },
        &FORGED_CONFIRMED,
    );
    fn subject(&self) -> Option<&str> {
        None
    }
    fn visit_extensions<V: ExtensionVisitor>(&self, _: &mut V) -> Result<(), V::Error> {
        Ok(())
    }
}

/// A derived type, whose claim a hand-written impl of another profile copies.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com"
)]
struct Derived {
    n: u32,
}

fn json(ty: &str, source: &str) -> Vec<u8> {
    format!(
        r#"{{"specversion":"1.0","id":"01JD6Z3Q8Y7K2M4N5P6R7S8T9V","source":"{source}","type":"{ty}","datacontenttype":"application/json","time":"2026-11-22T10:15:30Z","correlationid":"c","causationid":"01JD6Z3Q8Y7K2M4N5P6R7S8T9V","data":{{"n":1}}}}"#
    )
    .into_bytes()
}

fn binary_request(ty: &str, source: &str) -> ::http::Request<Vec<u8>> {
    ::http::Request::builder()
        .method("POST")
        .uri("/events")
        .header("ce-specversion", "1.0")
        .header("ce-id", "01JD6Z3Q8Y7K2M4N5P6R7S8T9V")
        .header("ce-source", source)
        .header("ce-type", ty)
        .header("ce-time", "2026-11-22T10:15:30Z")
        .header("ce-correlationid", "c")
        .header("ce-causationid", "01JD6Z3Q8Y7K2M4N5P6R7S8T9V")
        .header("content-type", "application/json")
        .body(br#"{"n":1}"#.to_vec())
        .unwrap()
}

fn refused_attribute(error: &FormatError) -> Option<&str> {
    error.attribute()
}

#[test]
fn a_forged_type_claim_is_refused_by_from_slice() {
    let error = Event::<Forged>::from_slice(&json(BROKEN_TYPE, "https://orders.example.com"))
        .expect_err("a type that breaks R-4 is refused, claim or not");
    assert_eq!(refused_attribute(&error), Some("type"), "{error}");
    assert!(error.to_string().contains("INTG-STD-015 R-4"), "{error}");
    let error = Event::<Forged>::decode::<Json>(&json(BROKEN_TYPE, "https://orders.example.com"))
        .expect_err("the generic door too");
    assert_eq!(refused_attribute(&error), Some("type"), "{error}");
}

#[test]
fn a_forged_type_claim_is_refused_by_the_http_binary_door() {
    let request = binary_request(BROKEN_TYPE, "https://orders.example.com");
    let error = http::from_request::<Event<Forged>, _>(&request)
        .expect_err("a type that breaks R-4 is refused in binary mode too");
    let text = error.to_string();
    assert!(
        text.contains("type") && text.contains("INTG-STD-015 R-4"),
        "{text}"
    );
    assert_eq!(
        http::read_event::<Event<Forged>>(request.headers(), request.body())
            .unwrap_err()
            .to_string(),
        text
    );
}

/// A hand-written impl that copies a derived type's claim (and its `static`) under another
/// profile gets nothing from it: the verdict was cached under the derived type's profile.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Copied {
    n: u32,
}

impl CloudEventData for Copied {
    const TYPE: &'static str = "com.example.order.created";
    const DATASCHEMA: Option<&'static str> = None;
    const SOURCE: Option<&'static str> = Some("https://orders.example.com");
    const DATACONTENTTYPE: &'static str = "application/json";
    const EXTENSIONS: &'static [&'static str] = &[];
    const PROFILE: cloudevent_runtime::Profile = cloudevent_runtime::Profile::CloudEvents;
    const PRECHECKED: CheckedByDerive = <Derived as CloudEventData>::PRECHECKED;
    fn subject(&self) -> Option<&str> {
        None
    }
    fn visit_extensions<V: ExtensionVisitor>(&self, _: &mut V) -> Result<(), V::Error> {
        Ok(())
    }
}

#[test]
fn valid_events_still_read_whoever_made_the_claim() {
    let body = json("com.example.order.created", "https://orders.example.com");
    assert_eq!(
        Event::<Derived>::from_slice(&body).unwrap().data(),
        &Derived { n: 1 }
    );
    assert_eq!(
        Event::<Copied>::from_slice(&body).unwrap().data(),
        &Copied { n: 1 }
    );
    let request = binary_request("com.example.order.created", "https://orders.example.com");
    assert!(http::from_request::<Event<Derived>, _>(&request).is_ok());
    assert!(http::from_request::<Event<Copied>, _>(&request).is_ok());
}

/// The derive's constructor, `checked_by_derive_of`, called by hand: the claim is the type's
/// own constants, a broken `type` among them, and a slot two hand-written impls share.
static SHARED_SLOT: Confirmation = Confirmation::new();

macro_rules! hand_impl_of {
    ($name:ident, $ty:expr, $slot:expr) => {
        #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        struct $name {
            n: u32,
        }

        impl CloudEventData for $name {
            const TYPE: &'static str = $ty;
            const SOURCE: Option<&'static str> = Some("https://orders.example.com");
            const PRECHECKED: CheckedByDerive = checked_by_derive_of::<Self>($slot);
            fn subject(&self) -> Option<&str> {
                None
            }
            fn visit_extensions<V: ExtensionVisitor>(&self, _: &mut V) -> Result<(), V::Error> {
                Ok(())
            }
        }
    };
}

static ALONE_SLOT: Confirmation = Confirmation::new();
hand_impl_of!(ForgedAlone, BROKEN_TYPE, &ALONE_SLOT);
hand_impl_of!(SharingGood, "com.example.order.created", &SHARED_SLOT);
hand_impl_of!(SharingForged, BROKEN_TYPE, &SHARED_SLOT);

#[test]
fn a_forged_claim_through_the_derives_constructor_is_refused() {
    let body = json(BROKEN_TYPE, "https://orders.example.com");
    let error = Event::<ForgedAlone>::from_slice(&body).expect_err("R-4, claim or not");
    assert_eq!(refused_attribute(&error), Some("type"), "{error}");
    assert!(error.to_string().contains("INTG-STD-015 R-4"), "{error}");
    let request = binary_request(BROKEN_TYPE, "https://orders.example.com");
    assert!(http::from_request::<Event<ForgedAlone>, _>(&request).is_err());
}

#[test]
fn a_slot_shared_with_a_valid_claim_confirms_nothing_for_a_forged_one() {
    // The valid impl fills the shared slot first: the rules confirmed its `type`.
    let good = json("com.example.order.created", "https://orders.example.com");
    assert!(Event::<SharingGood>::from_slice(&good).is_ok());
    // The forged impl reads the same slot: its own broken `type` is still checked.
    let body = json(BROKEN_TYPE, "https://orders.example.com");
    let error = Event::<SharingForged>::from_slice(&body).expect_err("R-4 through a shared slot");
    assert_eq!(refused_attribute(&error), Some("type"), "{error}");
    let request = binary_request(BROKEN_TYPE, "https://orders.example.com");
    assert!(http::from_request::<Event<SharingForged>, _>(&request).is_err());
}

/// The derive's one constant, `__DECLARED`, written by hand: a slot and a broken `source`
/// the trait's `SOURCE` and `PRECHECKED` default from. The claim is confirmed like any other.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct ForgedDeclared {
    n: u32,
}

static DECLARED_SLOT: Confirmation = Confirmation::new();

impl CloudEventData for ForgedDeclared {
    const TYPE: &'static str = "com.example.order.created";
    const __DECLARED: Declared = Declared {
        source: Some(BROKEN_SOURCE),
        confirmation: Some(&DECLARED_SLOT),
        ..Declared::NOTHING
    };
    fn subject(&self) -> Option<&str> {
        None
    }
}

#[test]
fn a_forged_declaration_claims_the_constants_and_is_refused() {
    assert_eq!(ForgedDeclared::SOURCE, Some(BROKEN_SOURCE));
    assert_eq!(
        ForgedDeclared::PRECHECKED,
        Prechecked {
            ty: Some("com.example.order.created"),
            source: Some(BROKEN_SOURCE),
            datacontenttype: Some("application/json"),
            ..Prechecked::NONE
        }
    );
    let body = json("com.example.order.created", BROKEN_SOURCE);
    let error = Event::<ForgedDeclared>::from_slice(&body).expect_err("the source, claim or not");
    assert_eq!(refused_attribute(&error), Some("source"), "{error}");
    let request = binary_request("com.example.order.created", BROKEN_SOURCE);
    assert!(http::from_request::<Event<ForgedDeclared>, _>(&request).is_err());
    // The same type with a valid source reads: the slot confirmed the type, not the source.
    let body = json("com.example.order.created", "https://orders.example.com");
    assert!(Event::<ForgedDeclared>::from_slice(&body).is_ok());
}
