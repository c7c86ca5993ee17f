//! The grammar of hand-written Shader Model 1–3 assembly source
//! ([`d3dbc::parse::assemble_source`]), one test per construct, each checked against the
//! tokens Microsoft's `D3DAssemble` wrote for the same text (recorded in
//! `tests/asm-oracle/asm-grammar.dxo`; these are the forms its grammar cases use).

use d3dbc::parse::{assemble_source, parse_source, SourceOptions};
use d3dbc::preprocess::MemoryInclude;

fn words(text: &str) -> Vec<u32> {
    let (bytes, _) = assemble_source(text, &SourceOptions::default()).unwrap_or_else(|e| {
        panic!("refused:\n{}\n{}", text, e.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))
    });
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn refused(text: &str) -> Vec<String> {
    match assemble_source(text, &SourceOptions::default()) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.iter().map(|d| d.to_string()).collect(),
    }
}

#[test]
fn dotted_versions() {
    assert_eq!(words("vs.1.1\nmov oPos, v0\n"), [0xfffe0101, 0x00000001, 0xc00f0000, 0x90e40000, 0x0000ffff]);
    assert_eq!(words("vs.2.x\nmov oPos, c0\n")[0], 0xfffe0201);
    assert_eq!(words("ps.1.4\nmov r0, c0\n")[0], 0xffff0104);
    assert_eq!(words("ps.3.0\nmov oC0, c0\n")[0], 0xffff0300);
    // Microsoft's grammar: lower case, no blanks inside the version.
    refused("VS.1.1\nmov oPos, v0\n");
    refused("vs . 1 . 1\nmov oPos, v0\n");
}
