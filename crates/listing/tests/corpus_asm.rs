//! Every corpus listing assembles back into its blob: the program chunk, the signature
//! chunks and the whole container (where the listing carries everything the container
//! holds) are compared byte for byte. Every entry's outcome (`exact`, the assembler's
//! error, or the chunks that differ) is checked against `tests/expect/corpus_asm.txt`.

mod common;

use dxbc::{Container, FourCc};
use listing::asm::{assemble, AsmOptions};

#[test]
fn corpus_listings_assemble_to_their_blobs() {
    let Some(entries) = corpus::dxbc_entries("corpus_listings_assemble_to_their_blobs") else { return };
    let (mut program_ok, mut signatures_ok, mut container_ok, mut total) = (0, 0, 0, 0);
    let mut sig_total = 0;
    let (mut level9, mut level9_programs) = (0, 0);
    let mut level9_chunks: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    let mut by_chunks: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    let mut outcomes = std::collections::BTreeMap::new();
    for e in &entries {
        total += 1;
        let blob = e.bytes();
        let original = Container::parse(&blob).unwrap();
        let assembled = match assemble(&e.listing(), &AsmOptions::default()) {
            Ok(a) => a,
            Err(errors) => {
                failures.push(format!("{}: {}", e.id(), errors[0]));
                outcomes.insert(e.id(), corpus::expect::one_line(&format!("assemble error: {}", errors[0])));
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
        let differing: Vec<String> =
            original.chunks().iter().filter(|c| !same(c.fourcc)).map(|c| c.fourcc.to_string()).collect();
        let mut outcome = if assembled.bytes == blob {
            "exact".to_string()
        } else if differing.is_empty() {
            "chunks equal, container bytes differ".to_string()
        } else {
            format!("differs in {}", differing.join("+"))
        };
        if assembled.bytes == blob {
            container_ok += 1;
        } else if e.is_level9() {
            level9 += 1;
            let theirs: Vec<String> = original.chunks().iter().map(|c| c.fourcc.to_string()).collect();
            let mine: Vec<String> = ours.chunks().iter().map(|c| c.fourcc.to_string()).collect();
            assert_eq!(theirs, mine, "{}: chunk list or order differs", e.id());
            let a = dxbc::Aon9::parse(original.chunk(FourCc::AON9).unwrap().data).unwrap();
            let b = dxbc::Aon9::parse(ours.chunk(FourCc::AON9).unwrap().data).unwrap();
            assert_eq!(a.mappings, b.mappings, "{}: Level9 mapping tables differ", e.id());
            if instructions(a.program) == instructions(b.program) {
                level9_programs += 1;
            } else {
                failures.push(format!("{}: Level9 program differs", e.id()));
                outcome += ", Level9 program differs";
            }
            *level9_chunks.entry(differing.join("+")).or_insert(0) += 1;
        } else {
            let theirs: Vec<String> = original.chunks().iter().map(|c| c.fourcc.to_string()).collect();
            let mine: Vec<String> = ours.chunks().iter().map(|c| c.fourcc.to_string()).collect();
            assert_eq!(theirs, mine, "{}: chunk list or order differs", e.id());
            *by_chunks.entry(differing.join("+")).or_insert(0) += 1;
        }
        outcomes.insert(e.id(), outcome);
    }
    println!("assembled from listings: program chunk {program_ok}/{total}, signature chunks {signatures_ok}/{sig_total}, whole container {container_ok}/{total}");
    println!(
        "  Level9 containers that differ: {level9}; their Aon9 mapping tables all equal, their Level9 program's \
         instructions equal in {level9_programs}/{level9} (the DBUG block is rebuilt from what \
         the listing shows; its types, struct members, unprinted lines and creator are not in the listing)"
    );
    for (chunks, n) in &level9_chunks {
        println!("    {n:4} Level9 containers differ in {chunks}");
    }
    println!("  the other containers differ in chunks the listing cannot fully give (six-decimal floats in SHDR/SHEX,");
    println!("  RDEF compile flags and user-packed flags, IFCE's uninitialised header words, STAT counts fxc takes");
    println!("  from the HLSL source rather than the bytecode):");
    for (chunks, n) in &by_chunks {
        println!("    {n:4} differ in {chunks}");
    }
    for f in failures.iter().take(30) {
        println!("FAIL {f}");
    }
    assert_eq!(signatures_ok, sig_total);
    assert_eq!(level9_programs, level9, "Level9 programs");
    // Program-chunk and whole-container results, entry by entry, both ways.
    corpus::expect::check(corpus::expect_file!("corpus_asm.txt"), &outcomes);
}

/// A Shader Model 2 program's instruction tokens, without its comment blocks.
fn instructions(program: &[u8]) -> Vec<u8> {
    let mut p = d3dbc::decode(program).unwrap();
    p.items.retain(|i| !matches!(i, d3dbc::Item::Comment(_)));
    d3dbc::encode(&p).unwrap()
}

/// `dxref asm` then `dxref disasm` gives back the listing it started from (with the
/// disassembler's allowances: dxref's name on the `Generated by` line of blobs without a
/// creator, trailing spaces where the corpus stripped them, fxc 9.29's command-line
/// comment).
#[test]
fn assembled_listings_disassemble_to_the_same_text() {
    let Some(entries) = corpus::dxbc_entries("assembled_listings_disassemble_to_the_same_text") else { return };
    let (mut same, mut level9_same, mut plain, mut level9) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for e in &entries {
        let listing = e.listing();
        let assembled = assemble(&listing, &AsmOptions::default()).unwrap();
        let text =
            common::normalise(e, &listing::disassemble(&assembled.bytes, &listing::Options::default()).unwrap().text);
        // Without fxc 9.29's command-line comment, which the blob does not store.
        let (want, _) = common::without_command_line(&common::normalise(e, &common::with_dxref_creator(&listing)));
        if e.is_level9() {
            level9 += 1;
            if text == want {
                level9_same += 1;
            } else {
                failures.push(format!("{} (Level9) {}", e.id(), common::first_difference(&text, &want)));
            }
            continue;
        }
        plain += 1;
        if text == want {
            same += 1;
        } else {
            failures.push(format!("{} {}", e.id(), common::first_difference(&text, &want)));
        }
    }
    println!("asm then disasm: {same}/{plain} listings reproduced; Level9: {level9_same}/{level9} (whole listings)");
    for f in failures.iter().take(20) {
        println!("FAIL {f}");
    }
    assert_eq!((same, level9_same), (plain, level9), "{failures:#?}");
}
