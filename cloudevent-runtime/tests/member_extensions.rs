//! Extensions filled from a member inside a field's value
//! (`#[cloudevent(extension(name = "tenantid", member = "context.tenant"))]`): `Event::new`
//! writes them, an `Option` on the path or at the end leaves the extension out, and the typed
//! reader treats them exactly as it treats an extension filled from a root field (a received
//! copy with the same value is not kept twice, a different value is refused under
//! INTG-STD-015 R-7, a received extension the payload does not fill is kept).

use cloudevent_runtime::Attributes;
use cloudevent_runtime::{CloudEvent, CloudEventData, Event, ExtensionValueBuf};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Context {
    id: String,
    tenant: String,
    site: Option<Site>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Site {
    zone: Option<String>,
    rack: i32,
}

/// One root field feeds four extensions at three depths; `region` is a root field, for
/// comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.device.reading.taken",
    source = "https://devices.example.com"
)]
struct ReadingTaken {
    #[cloudevent(
        extension(name = "tenantid", member = "tenant"),
        extension(name = "zone", member = "site?.zone"),
        extension(name = "rack", member = "site?.rack")
    )]
    #[cloudevent(id = "id")]
    context: Context,
    #[cloudevent(extension)]
    region: Option<String>,
    #[cloudevent(extension(name = "owner", member = "name"))]
    owner: Option<Owner>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Owner {
    name: String,
}

fn reading() -> ReadingTaken {
    ReadingTaken {
        context: Context {
            id: "r-1".into(),
            tenant: "acme".into(),
            site: Some(Site {
                zone: Some("north".into()),
                rack: 7,
            }),
        },
        region: Some("eu".into()),
        owner: Some(Owner { name: "ops".into() }),
    }
}

#[test]
fn event_new_writes_extensions_from_nested_members() {
    let event = Event::new(reading());
    assert_eq!(event.extension("tenantid"), Some("acme".into()));
    assert_eq!(event.extension("zone"), Some("north".into()));
    assert_eq!(
        event.extension("rack"),
        Some(ExtensionValueBuf::Integer(7)),
        "an integer member stays an Integer extension"
    );
    assert_eq!(event.extension("owner"), Some("ops".into()));
    assert_eq!(event.id(), "r-1");
    let json: serde_json::Value = serde_json::from_slice(&event.to_vec().unwrap()).unwrap();
    assert_eq!(json["tenantid"], "acme");
    assert_eq!(json["zone"], "north");
    assert_eq!(json["rack"], 7);
    assert_eq!(json["owner"], "ops");
    assert_eq!(
        json["data"]["context"]["tenant"], "acme",
        "the member stays in the data"
    );
    assert_eq!(
        ReadingTaken::EXTENSIONS,
        ["tenantid", "zone", "rack", "region", "owner"]
    );
    assert_eq!(
        ReadingTaken::EXTENSION_PROPERTIES,
        [
            ("tenantid", "context.tenant"),
            ("zone", "context.site.zone"),
            ("rack", "context.site.rack"),
            ("region", "region"),
            ("owner", "owner.name"),
        ]
    );
}

#[test]
fn a_none_on_the_path_or_at_the_end_leaves_the_extension_out() {
    let mut payload = reading();
    payload.context.site.as_mut().unwrap().zone = None;
    payload.owner = None;
    let event = Event::new(payload);
    assert_eq!(event.extension("zone"), None, "`None` at the end");
    assert_eq!(event.extension("rack"), Some(ExtensionValueBuf::Integer(7)));
    assert_eq!(event.extension("owner"), None, "the root field is `None`");
    let mut payload = reading();
    payload.context.site = None;
    let event = Event::new(payload);
    assert_eq!(event.extension("zone"), None, "`None` on the path");
    assert_eq!(event.extension("rack"), None);
    let json: serde_json::Value = serde_json::from_slice(&event.to_vec().unwrap()).unwrap();
    assert!(
        json.get("zone").is_none() && json.get("rack").is_none(),
        "{json}"
    );
}

fn received(extensions: &str, site: &str) -> Vec<u8> {
    format!(
        r#"{{"specversion":"1.0","id":"r-1","source":"https://devices.example.com","type":"com.example.device.reading.taken"{extensions},"data":{{"context":{{"id":"r-1","tenant":"acme","site":{site}}},"region":"eu","owner":null}}}}"#
    )
    .into_bytes()
}

#[test]
fn a_received_copy_with_the_same_value_is_not_kept_twice() {
    let bytes = received(
        r#","tenantid":"acme","zone":"north","rack":7,"region":"eu""#,
        r#"{"zone":"north","rack":7}"#,
    );
    let event = Event::<ReadingTaken>::from_slice(&bytes).unwrap();
    assert!(event.extensions().is_empty(), "{:?}", event.extensions());
    let out = String::from_utf8(event.to_vec().unwrap()).unwrap();
    let (envelope, _data) = out.split_once("\"data\":").unwrap();
    for name in ["\"tenantid\"", "\"zone\"", "\"rack\"", "\"region\""] {
        assert_eq!(envelope.matches(name).count(), 1, "{name} in {out}");
    }
}

#[test]
fn a_nested_extension_that_disagrees_is_refused_as_a_root_one_is() {
    let site = r#"{"zone":"north","rack":7}"#;
    let root = Event::<ReadingTaken>::from_slice(&received(r#","region":"us""#, site)).unwrap_err();
    let nested =
        Event::<ReadingTaken>::from_slice(&received(r#","tenantid":"globex""#, site)).unwrap_err();
    let integer = Event::<ReadingTaken>::from_slice(&received(r#","rack":8"#, site)).unwrap_err();
    for (err, name) in [(&root, "region"), (&nested, "tenantid"), (&integer, "rack")] {
        assert_eq!(
            err.rule().map(|r| r.as_str()),
            Some("INTG-STD-015 R-7"),
            "{err}"
        );
        assert_eq!(err.attribute(), Some(name), "{err}");
        assert!(err.to_string().contains("given twice"), "{err}");
    }
    assert!(nested.to_string().contains("`globex`"), "{nested}");
}

#[test]
fn a_received_extension_whose_member_is_absent_is_kept_as_a_root_one_is() {
    // `owner` is `null` in the data: the event's own `owner` extension is kept, as
    // `zone` is when `site` is `null`.
    let bytes = received(r#","owner":"ops","zone":"south""#, "null");
    let event = Event::<ReadingTaken>::from_slice(&bytes).unwrap();
    assert_eq!(event.extension("owner"), Some("ops".into()));
    assert_eq!(event.extension("zone"), Some("south".into()));
    assert_eq!(event.extension("rack"), None);
}

/// `id`, `time` and `source` paths go through `Option`s the same way: absent, the default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.device.reading.logged",
    source = "https://devices.example.com"
)]
struct ReadingLogged {
    #[cloudevent(source = "site?.zone")]
    context: Option<Context>,
}

#[test]
fn an_attribute_path_through_options_takes_the_default_when_absent() {
    let event = Event::new(ReadingLogged {
        context: Some(reading().context),
    });
    assert_eq!(event.source(), "north");
    let event = Event::new(ReadingLogged { context: None });
    assert_eq!(event.source(), "https://devices.example.com");
    let mut context = reading().context;
    context.site = None;
    let event = Event::new(ReadingLogged {
        context: Some(context),
    });
    assert_eq!(event.source(), "https://devices.example.com");
}
