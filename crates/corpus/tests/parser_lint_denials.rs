//! The modules that read untrusted input (parsers, decoders, readers) deny unchecked
//! arithmetic and unchecked indexing: `clippy::arithmetic_side_effects` and
//! `clippy::indexing_slicing` (docs/FUZZING.md, "Limits"). Clippy enforces the lints
//! (`.ci/run`); this test keeps the denials from being dropped: each module listed
//! here must carry them, for the whole module or, where a module also writes output,
//! on its reader items (`READER_ITEMS`).

use std::path::Path;

/// Modules denied as a whole (`#![deny(...)]`; a `mod.rs` or crate root covers its
/// submodules).
const WHOLE_MODULES: &[&str] = &[
    "crates/d3dbc/src/decode.rs",
    "crates/d3dbc/src/rules/data.rs",
    "crates/dxbc/src/aon9.rs",
    "crates/dxbc/src/checksum.rs",
    "crates/dxbc/src/chunks.rs",
    "crates/dxbc/src/container.rs",
    "crates/dxbc/src/fourcc.rs",
    "crates/dxbc/src/ifce.rs",
    "crates/dxbc/src/rdef.rs",
    "crates/dxbc/src/sfi0.rs",
    "crates/dxbc/src/signature.rs",
    "crates/dxbc/src/stat.rs",
    "crates/dxbc/src/util.rs",
    "crates/inputs/src/binding.rs",
    "crates/inputs/src/shader.rs",
    "crates/inputs/src/so.rs",
    "crates/inputs/src/texture.rs",
    "crates/inputs/src/vertices.rs",
    "crates/listing/src/asm.rs",
    "crates/listing/src/fxh.rs",
    "crates/listing/src/header/mod.rs",
    "crates/listing/src/level9_listing.rs",
    "crates/listing/src/stat.rs",
    "crates/listing/src/text.rs",
    "crates/tpf/src/decode.rs",
    "crates/tpf/src/words.rs",
    "crates/validate/src/d3d9/mod.rs",
    // The crate root: the denial covers every module of the validator.
    "crates/validate/src/lib.rs",
    "crates/validate/src/program.rs",
];

/// Modules that read and write: the denial is on the reader's items (`#[deny(...)]`),
/// exactly this many of them (a new reader item is listed here on purpose).
const READER_ITEMS: &[(&str, usize)] = &[("crates/d3dbc/src/ctab.rs", 2), ("crates/d3dbc/src/dbug.rs", 2)];

const LINTS: &str = "deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)";

/// The same denial with `clippy::string_slice` added, for the text parsers: slicing a
/// `&str` at a byte position inside a multi-byte character panics, which the two
/// lints above do not catch.
const TEXT_LINTS: &str = "deny(clippy::arithmetic_side_effects, clippy::indexing_slicing, clippy::string_slice)";

/// Modules that parse text: denied as a whole with [`TEXT_LINTS`].
const TEXT_MODULES: &[&str] = &[
    "crates/diagnostic/src/cursor.rs",
    "crates/tpf/src/parse.rs",
    "crates/d3dbc/src/parse.rs",
    "crates/d3dbc/src/parse/header.rs",
    "crates/d3dbc/src/parse/source.rs",
    "crates/d3dbc/src/preprocess.rs",
    "crates/d3dbc/src/rules.rs",
    "crates/inputs/src/binding.rs",
    "crates/listing/src/level9.rs",
    "crates/listing/src/reflect/mod.rs",
    "crates/streamout/src/lib.rs",
    "crates/validate/src/so.rs",
];

fn read(rel: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn whole_modules_deny_unchecked_arithmetic_and_indexing() {
    for rel in WHOLE_MODULES {
        let text = read(rel);
        let denied = if TEXT_MODULES.contains(rel) { TEXT_LINTS } else { LINTS };
        assert!(text.contains(&format!("#![{denied}]")), "{rel} lacks `#![{denied}]`");
    }
}

#[test]
fn reader_items_deny_unchecked_arithmetic_and_indexing() {
    for &(rel, expected) in READER_ITEMS {
        let n = read(rel).matches(&format!("#[{LINTS}]")).count();
        assert_eq!(n, expected, "{rel}: `#[{LINTS}]` on {n} items, expected {expected}");
    }
}

#[test]
fn text_parsers_deny_string_slicing() {
    for rel in TEXT_MODULES {
        let text = read(rel);
        assert!(text.contains(&format!("#![{TEXT_LINTS}]")), "{rel} lacks `#![{TEXT_LINTS}]`");
    }
}
