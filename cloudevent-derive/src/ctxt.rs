//! Collects every error of one derive, so a user learns about all of them in one build.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;

/// The errors found so far. Checks push into it and carry on; [`Ctxt::finish`] hands them
/// back as one `syn::Error` whose `into_compile_error` emits one `compile_error!` each.
#[derive(Default)]
pub(crate) struct Ctxt {
    errors: RefCell<Option<syn::Error>>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Ctxt::default()
    }

    /// Records an error at the user's token.
    pub(crate) fn error_spanned(&self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    /// Records an error made elsewhere (a parse error, for instance).
    pub(crate) fn push(&self, error: syn::Error) {
        let mut errors = self.errors.borrow_mut();
        match errors.as_mut() {
            Some(all) => all.combine(error),
            None => *errors = Some(error),
        }
    }

    /// All errors, or `Ok` when there were none.
    pub(crate) fn finish(self) -> Result<(), syn::Error> {
        match self.errors.into_inner() {
            Some(errors) => Err(errors),
            None => Ok(()),
        }
    }
}
