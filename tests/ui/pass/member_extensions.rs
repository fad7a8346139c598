//! Extensions from members of a field's value: one field feeds several, through `Option`s;
//! an attribute (`source`) through an `Option` too.
use cloudevent_runtime::{CloudEvent, Event};

#[derive(serde::Serialize)]
struct Context {
    tenant: String,
    site: Option<Site>,
    r#type: String,
}

#[derive(serde::Serialize)]
struct Site {
    zone: Option<String>,
    rack: u16,
}

#[derive(serde::Serialize, CloudEvent)]
#[cloudevent(type = "com.example.device.reading.taken", source = "https://devices.example.com")]
struct ReadingTaken {
    #[cloudevent(source = "site?.zone")]
    #[cloudevent(
        extension(name = "tenantid", member = "tenant"),
        extension(name = "zone", member = "site?.zone"),
        extension(name = "rack", member = "site?.rack"),
        extension(name = "kind", member = "r#type")
    )]
    context: Context,
    #[cloudevent(extension = "partitionkey", extension(name = "region"))]
    region: String,
    #[cloudevent(extension(name = "owner", member = "name"))]
    owner: Option<Owner>,
}

#[derive(serde::Serialize)]
struct Owner {
    name: String,
}

// A tuple struct's field takes the `extension(...)` form with a name.
#[derive(serde::Serialize, CloudEvent)]
#[cloudevent(type = "com.example.device.reading.logged", source = "https://devices.example.com")]
struct ReadingLogged(#[cloudevent(extension(name = "tenantid", member = "tenant"))] Context);

fn main() {
    let context = Context { tenant: "acme".into(), site: None, r#type: "oven".into() };
    let _ = Event::new(ReadingTaken { context, region: "eu".into(), owner: None });
}
