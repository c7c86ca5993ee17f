//! `dxref disasm --exact-floats` then `dxref asm` gives back every corpus program chunk
//! byte for byte, and the listing assembles without an ambiguous-float warning.

use dxbc::{Container, FourCc};
use listing::asm::{assemble, AsmOptions};

#[test]
fn exact_float_listings_assemble_to_the_same_program() {
    let Some(entries) = corpus::dxbc_entries("exact_float_listings_assemble_to_the_same_program") else { return };
    let options = listing::Options { exact_floats: true, ..Default::default() };
    let mut failures = Vec::new();
    for e in &entries {
        let blob = e.bytes();
        let original = Container::parse(&blob).unwrap();
        let code = original.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).unwrap();
        let text = listing::disassemble(&blob, &options).unwrap().text;
        match assemble(&text, &AsmOptions::default()) {
            Ok(a) => {
                let ours = Container::parse(&a.bytes).unwrap();
                let mine = ours.chunk(code.fourcc).map(|c| c.data);
                if mine != Some(code.data) {
                    failures.push(format!("{}: the program chunk differs", e.id()));
                }
                let ambiguous: Vec<String> =
                    a.warnings.iter().map(|w| w.to_string()).filter(|w| w.contains("more than one float")).collect();
                if !ambiguous.is_empty() {
                    failures.push(format!("{}: {ambiguous:?}", e.id()));
                }
            }
            Err(errors) => failures.push(format!("{}: {}", e.id(), errors[0])),
        }
    }
    println!("exact floats: {}/{} program chunks", entries.len() - failures.len(), entries.len());
    assert!(failures.is_empty(), "{failures:#?}");
}
