//! The modules that read untrusted input (parsers, decoders, readers) deny unchecked
//! arithmetic and unchecked indexing: `clippy::arithmetic_side_effects` and
//! `clippy::indexing_slicing` (docs/FUZZING.md, "Limits"). Clippy enforces the lints
//! (`.ci/run`); this test keeps the denials from being dropped: each module listed
//! here must carry them, for the whole module or, where a module also writes output,
//! on its reader items (`READER_ITEMS`).

use std::path::Path;

/// Modules denied as a whole (`#![deny(...)]`).
const WHOLE_MODULES: &[&str] = &[
    "crates/d3dbc/src/decode.rs",
    "crates/d3dbc/src/preprocess.rs",
    "crates/d3dbc/src/parse/header.rs",
    "crates/validate/src/program.rs",
    "crates/validate/src/so.rs",
];

/// Modules that read and write: the denial is on the reader's items (`#[deny(...)]`),
/// at least this many times.
const READER_ITEMS: &[(&str, usize)] = &[("crates/d3dbc/src/ctab.rs", 2), ("crates/d3dbc/src/dbug.rs", 2)];

const LINTS: &str = "deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)";

fn read(rel: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn whole_modules_deny_unchecked_arithmetic_and_indexing() {
    for rel in WHOLE_MODULES {
        let text = read(rel);
        assert!(text.contains(&format!("#![{LINTS}]")), "{rel} lacks `#![{LINTS}]`");
    }
}

#[test]
fn reader_items_deny_unchecked_arithmetic_and_indexing() {
    for &(rel, at_least) in READER_ITEMS {
        let n = read(rel).matches(&format!("#[{LINTS}]")).count();
        assert!(n >= at_least, "{rel}: `#[{LINTS}]` on {n} items, expected at least {at_least}");
    }
}
