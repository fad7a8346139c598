//! Every shape the derive accepts: named, tuple, newtype, unit, enum, generic.
use std::borrow::Cow;

use cloudevent_runtime::{Binary, CloudEvent, CloudEventData};

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct Named {
    #[cloudevent(subject)]
    id: Box<str>,
    #[cloudevent(extension)]
    flag: Option<bool>,
    #[cloudevent(extension)]
    small: i8,
    #[cloudevent(extension)]
    blob: Binary,
}

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct Tuple(#[cloudevent(subject)] Cow<'static, str>, #[cloudevent(extension = "region")] String);

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct Newtype(#[cloudevent(subject)] Option<String>);

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct Unit;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
enum Either {
    Left(u64),
    Right { value: f64 },
}

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct Generic<'a, T, const N: usize> {
    #[cloudevent(subject)]
    id: &'a str,
    #[cloudevent(extension = "partitionkey")]
    key: T,
    buffer: [u8; N],
}

fn assert_event<T: CloudEventData>() {}

fn main() {
    assert_event::<Named>();
    assert_event::<Tuple>();
    assert_event::<Newtype>();
    assert_event::<Unit>();
    assert_event::<Either>();
    assert_event::<Generic<'static, String, 4>>();
}
