//! Regression inputs the `d3dbc_roundtrip` fuzz target found (docs/FUZZING.md), each a
//! token stream that decodes: it re-encodes to its bytes, its printed listing parses,
//! printing the parsed program gives the same text, and the parsed program encodes.
//! They were definitions and declarations with result modifiers or a shift
//! (`def_sat_pp_centroid`, `defi_pp`, `dcl_texcoord_x4`) that the printer printed and
//! the parser read but dropped.

use std::path::Path;

#[test]
fn found_streams_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_found");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 24, "{}: the 24 found streams", dir.display());
    for p in &files {
        let name = p.display();
        let data = std::fs::read(p).unwrap_or_else(|e| panic!("{name}: {e}"));
        let program = d3dbc::decode(&data).unwrap_or_else(|e| panic!("{name}: no longer decodes: {e}"));
        let bytes = d3dbc::encode(&program).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(bytes, data, "{name}: re-encoding differs");
        let text = d3dbc::print::print_program(&program);
        let parsed = d3dbc::parse::parse_program(&text).unwrap_or_else(|e| panic!("{name}: {e:?}\n{text}"));
        assert_eq!(d3dbc::print::print_program(&parsed.program), text, "{name}: print(parse(print(p))) differs");
        d3dbc::encode(&parsed.program).unwrap_or_else(|e| panic!("{name}: the parsed program does not encode: {e}"));
    }
}
