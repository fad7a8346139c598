//! `#[derive(CloudEvent)]`. Use it through `cloudevent_runtime`, which re-exports it.

use proc_macro::TokenStream;

/// Derives `cloudevent_runtime::CloudEventData`; see the runtime's documentation.
#[proc_macro_derive(CloudEvent, attributes(cloudevent))]
pub fn derive_cloud_event(input: TokenStream) -> TokenStream {
    let _ = input;
    TokenStream::new()
}
