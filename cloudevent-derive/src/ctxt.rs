//! Collects every error of one derive, so a user learns about all of them in one build.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;

/// The errors found so far. Checks push into it and carry on; [`Ctxt::finish`] hands them
/// back as one `syn::Error` whose `into_compile_error` emits one `compile_error!` each.
#[derive(Default)]
pub(crate) struct Ctxt {
    errors: RefCell<Option<syn::Error>>,
    warnings: RefCell<Vec<(Span, String)>>,
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
    /// A broken SHOULD: reported as a compiler warning at `span`, never failing the build.
    pub(crate) fn warning_spanned(&self, span: Span, message: impl Display) {
        self.warnings.borrow_mut().push((span, message.to_string()));
    }

    /// The warnings collected so far, in the order found.
    pub(crate) fn take_warnings(&self) -> Vec<(Span, String)> {
        std::mem::take(&mut self.warnings.borrow_mut())
    }

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
