//! What several integration tests share. Each test file that needs it says `mod common;`
//! (a folder, so cargo does not build it as a test of its own).

pub mod ordering;
