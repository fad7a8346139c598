// A hand-written impl cannot write a claim into `CheckedByDerive`: its fields are private.
// (A claim made through the derive's hidden constructor is confirmed by the rules at run
// time and refused when broken: `cloudevent-runtime/tests/prechecked_forged.rs`.)
use cloudevent_runtime::rules::Prechecked;
use cloudevent_runtime::{CheckedByDerive, CloudEventData, ExtensionVisitor};

struct OrderCreated;

impl CloudEventData for OrderCreated {
    const TYPE: &'static str = "Not A Valid Type";
    const DATASCHEMA: Option<&'static str> = None;
    const SOURCE: Option<&'static str> = None;
    const DATACONTENTTYPE: &'static str = "application/json";
    const EXTENSIONS: &'static [&'static str] = &[];
    const PRECHECKED: CheckedByDerive = CheckedByDerive {
        claims: Prechecked {
            ty: Some("Not A Valid Type"),
            ..Prechecked::NONE
        },
        ..CheckedByDerive::NOTHING
    };
    fn subject(&self) -> Option<&str> {
        None
    }
    fn visit_extensions<V: ExtensionVisitor>(&self, _: &mut V) -> Result<(), V::Error> {
        Ok(())
    }
}

fn main() {}
