//! Every corpus listing assembles back into its blob: the program chunk, the signature
//! chunks and the whole container (where the listing carries everything the container
//! holds) are compared byte for byte, and the three pass counts printed.

use dxbc::{Container, FourCc};
use listing::asm::{assemble, AsmOptions};

#[test]
fn corpus_listings_assemble_to_their_blobs() {
    let Some(entries) = corpus::dxbc_entries("corpus_listings_assemble_to_their_blobs") else { return };
    let (mut program_ok, mut signatures_ok, mut container_ok, mut total) = (0, 0, 0, 0);
    let mut sig_total = 0;
    let mut level9 = 0;
    let mut failures: Vec<String> = Vec::new();
    for e in &entries {
        total += 1;
        let blob = e.bytes();
        let original = Container::parse(&blob).unwrap();
        let assembled = match assemble(&e.listing(), &AsmOptions::default()) {
            Ok(a) => a,
            Err(errors) => {
                failures.push(format!("{}: {}", e.id(), errors[0]));
                continue;
            }
        };
        let ours = Container::parse(&assembled.bytes).expect("the assembler writes valid containers");
        assert!(ours.checksum_ok(), "{}: bad checksum", e.id());
        let same = |f: FourCc| match (original.chunk(f), ours.chunk(f)) {
            (Some(a), Some(b)) => a.data == b.data,
            (None, None) => true,
            _ => false,
        };
        let code = original.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).unwrap().fourcc;
        if same(code) {
            program_ok += 1;
        }
        let sigs: Vec<FourCc> = original
            .chunks()
            .iter()
            .map(|c| c.fourcc)
            .filter(|f| dxbc::SignatureFormat::for_fourcc(*f).is_some())
            .collect();
        sig_total += 1;
        if sigs.iter().all(|f| same(*f)) {
            signatures_ok += 1;
        } else {
            failures.push(format!("{}: signature chunk differs", e.id()));
        }
        if assembled.bytes == blob {
            container_ok += 1;
        } else if e.is_level9() {
            // The Aon9 chunk (the Level9 program) is assembled by the Shader Model 1-3 work.
            level9 += 1;
        } else {
            let theirs: Vec<String> = original.chunks().iter().map(|c| c.fourcc.to_string()).collect();
            let mine: Vec<String> = ours.chunks().iter().map(|c| c.fourcc.to_string()).collect();
            let differing: Vec<String> =
                original.chunks().iter().filter(|c| !same(c.fourcc)).map(|c| c.fourcc.to_string()).collect();
            failures.push(format!("{}: container differs (chunks {theirs:?} vs {mine:?}; differing: {differing:?})", e.id()));
        }
    }
    println!("assembled from listings: program chunk {program_ok}/{total}, signature chunks {signatures_ok}/{sig_total}, whole container {container_ok}/{total} ({level9} Level9 containers lack their Aon9 chunk)");
    for f in failures.iter().take(30) {
        println!("FAIL {f}");
    }
    assert!(program_ok >= 398, "program chunks: {program_ok}/{total}");
    assert_eq!(signatures_ok, sig_total);
    assert!(container_ok >= 59, "containers: {container_ok}/{total}");
}
