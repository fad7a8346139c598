// A hand-written impl cannot tell the typed readers to skip checking a `type` it never
// checked: only `#[derive(CloudEvent)]`, which ran the policy on it, can say so.
use cloudevent_runtime::rules::Prechecked;
use cloudevent_runtime::{CheckedByDerive, CloudEventData, ExtensionVisitor};

struct OrderCreated;

impl CloudEventData for OrderCreated {
    const TYPE: &'static str = "Not A Valid Type";
    const DATASCHEMA: Option<&'static str> = None;
    const SOURCE: Option<&'static str> = None;
    const DATACONTENTTYPE: &'static str = "application/json";
    const EXTENSIONS: &'static [&'static str] = &[];
    const PRECHECKED: CheckedByDerive = CheckedByDerive(Prechecked {
        ty: Some("Not A Valid Type"),
        ..Prechecked::NONE
    });
    fn subject(&self) -> Option<&str> {
        None
    }
    fn visit_extensions<V: ExtensionVisitor>(&self, _: &mut V) -> Result<(), V::Error> {
        Ok(())
    }
}

fn main() {}
