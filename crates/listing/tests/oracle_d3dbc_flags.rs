//! Microsoft's Shader Model 1–3 listings under the disassembly flags read back: for
//! every raw SM1–3 stream and Level9 blob of the oracle archives whose default listing
//! assembles, its listing under instruction numbering (`/Ni`), byte offsets (`/No`) and
//! hex literals (`/Lx`) assembles to the same bytes as the default listing (the raw
//! stream, or the `Aon9` chunk; whether those are the blob's is the `assemble` check of
//! `oracle_microsoft.rs`), and every archive has such listings: the parser reads past the number and offset columns
//! and reads `def` values written as their bits.

use corpus::oracle::{DISASM_HEX, DISASM_NUMBERING, DISASM_OFFSETS};
use dxbc::{Container, FourCc};
use listing::asm::{assemble, AsmOptions};

/// The program bytes the listing assembles to: the raw stream, or the `Aon9` chunk.
fn program_of(text: &str) -> Option<Vec<u8>> {
    let bytes = assemble(text, &AsmOptions::default()).ok()?.bytes;
    if listing::is_d3dbc(&bytes) {
        return Some(bytes);
    }
    Some(Container::parse(&bytes).ok()?.chunk(FourCc::AON9)?.data.to_vec())
}

fn blob_program(blob: &[u8]) -> Option<Vec<u8>> {
    if listing::is_d3dbc(blob) {
        return Some(blob.to_vec());
    }
    Some(Container::parse(blob).ok()?.chunk(FourCc::AON9)?.data.to_vec())
}

#[test]
fn listings_under_the_disassembly_flags_assemble_to_the_same_program() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (archive, records) in corpus::oracle::archives() {
        let sm1_3 = ["vs_2_", "vs_3_", "ps_2_", "ps_3_", "_level_9_"].iter().any(|p| archive.contains(p));
        if !sm1_3 {
            continue;
        }
        let before = checked;
        for r in &records {
            // The text under each flag must assemble to what the default text assembles
            // to (whether that is the blob is the `assemble` check of oracle_microsoft).
            if blob_program(&r.blob).is_none() {
                continue;
            }
            let Some(default) = r.text(0).filter(|t| t.hr == 0) else { continue };
            let Some(want) = program_of(&default.text) else { continue };
            for flags in [DISASM_NUMBERING, DISASM_OFFSETS, DISASM_HEX] {
                let Some(t) = r.text(flags).filter(|t| t.hr == 0) else { continue };
                checked += 1;
                if program_of(&t.text).as_ref() != Some(&want) {
                    failures.push(format!("{archive} {} under 0x{flags:x}", r.name));
                }
            }
        }
        assert!(checked > before, "{archive}: no listing under a disassembly flag was checked");
    }
    println!("{checked} listings under a disassembly flag checked, {} differ", failures.len());
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} listings under a disassembly flag assemble differently", failures.len());
}
