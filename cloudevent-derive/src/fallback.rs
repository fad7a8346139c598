//! The stub impl emitted beside errors.
//!
//! Without it, one mistake in `#[cloudevent(...)]` would also fail every use of the type as
//! an event (`Event::new(order)`, `OrderCreated::TYPE`): the user would read a wall of
//! "trait not implemented" errors below the one that matters. The stub keeps those uses
//! compiling, so one mistake gives one error.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

/// Impls with empty metadata and the user's generics unchanged.
///
/// Like `expand.rs`, it reaches the runtime through `__private_v1`, whose suffix is bumped on
/// any breaking change to what generated code reaches; the runtime's exact pin on this crate
/// makes that safe.
pub(crate) fn stub(input: &DeriveInput, runtime: &syn::Path) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        const _: () = {
            use #runtime as __cloudevent;

            #[automatically_derived]
            impl #impl_generics __cloudevent::__private_v1::CloudEventData for #ident #ty_generics #where_clause {
                const TYPE: &'static str = "";
                const DATASCHEMA: ::core::option::Option<&'static str> = ::core::option::Option::None;
                const SOURCE: ::core::option::Option<&'static str> = ::core::option::Option::None;
                const DATACONTENTTYPE: &'static str = "application/json";
                const EXTENSIONS: &'static [&'static str] = &[];

                fn subject(&self) -> ::core::option::Option<&str> {
                    ::core::option::Option::None
                }

                fn visit_extensions<__V: __cloudevent::__private_v1::ExtensionVisitor>(
                    &self,
                    __visitor: &mut __V,
                ) -> ::core::result::Result<(), __V::Error> {
                    ::core::result::Result::Ok(())
                }
            }

            // `Event::new(value)` keeps compiling too: the error that matters is the one above.
            #[automatically_derived]
            impl #impl_generics __cloudevent::__private_v1::HasSource for #ident #ty_generics #where_clause {}
        };
    }
}
