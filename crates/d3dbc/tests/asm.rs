//! The assembler on the corpus: every raw Shader Model 1–3 listing assembles to its
//! blob, and the Level9 part of every Level9 listing to the instructions of its `Aon9`
//! program.

mod common;

use d3dbc::ctab::ConstantTable;
use d3dbc::parse::{assemble, assemble_with, level9_part, parse_program, parse_program_at, AsmOptions, Severity};
use d3dbc::{decode, encode, Item, Program};

/// The program without its comment blocks.
fn instructions_only(p: &Program<'_>) -> Program<'static> {
    Program {
        version: p.version,
        items: p
            .items
            .iter()
            .filter(|i| matches!(i, Item::Instruction(_)))
            .cloned()
            .map(|i| match i {
                Item::Instruction(ins) => Item::Instruction(ins),
                Item::Comment(c) => Item::Comment(c.into_owned()),
            })
            .collect(),
    }
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    let i = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    format!("first difference at byte {i} (token {}); lengths {} and {}", i / 4, a.len(), b.len())
}

#[test]
fn corpus_raw_listings_assemble_byte_for_byte() {
    let Some(entries) = corpus::entries("corpus_raw_listings_assemble_byte_for_byte") else { return };
    let (mut total, mut exact, mut with_options) = (0, 0, 0);
    let (mut program_exact, mut stray) = (0, 0);
    let mut misses = Vec::new();
    for e in entries.iter().filter(|e| e.container == corpus::Container::D3dbc) {
        total += 1;
        let id = e.id();
        let listing = e.listing();
        let bin = e.bytes();
        let parsed = parse_program(&listing).unwrap_or_else(|d| panic!("{id}: {}", d[0]));
        for w in &parsed.warnings {
            // Some repositories stripped fxc's command-line comment and left a `/`.
            assert_eq!(w.severity, Severity::Warning);
            assert!(w.message.starts_with("stray `/`"), "{id}: {w}");
            stray += 1;
        }
        assert!(parsed.slots.is_some(), "{id}: the slot line is read");
        let bytes = assemble(&listing).unwrap_or_else(|d| panic!("{id}: {}", d[0]));
        // The instructions, without the constant table, always match.
        let want = decode(&bin).unwrap();
        let got = decode(&bytes).unwrap_or_else(|err| panic!("{id}: assembled bytes do not decode: {err}"));
        assert_eq!(instructions_only(&got), instructions_only(&want), "{id}: instructions differ");
        assert_eq!(
            encode(&instructions_only(&got)).unwrap(),
            encode(&instructions_only(&want)).unwrap(),
            "{id}: instruction tokens differ"
        );
        program_exact += 1;
        if bytes == bin {
            exact += 1;
        } else {
            misses.push(id.clone());
            // What the listing does not carry: the table's flags and target and the
            // records' `Reserved` field. Read them from the blob; then the bytes match.
            let t = ConstantTable::parse_comment(want.comment_with(b"CTAB").unwrap()).unwrap();
            let options = AsmOptions {
                ctab_flags: Some(t.flags),
                ctab_target: Some(t.target.to_string()),
                ctab_reserved_from_index: t.constants.iter().any(|c| c.reserved != 0),
            };
            let again = assemble_with(&listing, &options).unwrap();
            assert!(
                again == bin,
                "{id}: with the blob's table flags, target and reserved style: {}",
                first_difference(&again, &bin)
            );
            with_options += 1;
        }
    }
    println!(
        "raw d3dbc listings: {total}; instructions identical {program_exact}/{total}; whole blob byte for byte \
         from the listing alone {exact}/{total}; with the CTAB flags/target/reserved the listing does not show \
         {}/{total} (needed: {})",
        exact + with_options,
        misses.join(", ")
    );
    println!("warnings: {stray} stray `/` lines");
    assert_eq!(total, 21);
    assert_eq!(exact + with_options, total);
}

#[test]
fn corpus_level9_listings_assemble_to_the_aon9_instructions() {
    let Some(entries) = corpus::entries("corpus_level9_listings_assemble_to_the_aon9_instructions") else { return };
    let Some(programs) = common::programs("corpus_level9_listings_assemble_to_the_aon9_instructions") else { return };
    let (mut total, mut exact) = (0, 0);
    for p in programs.iter().filter(|p| p.level9) {
        total += 1;
        let e = entries.iter().find(|e| e.id() == p.id).unwrap();
        let listing = e.listing();
        let (text, first) = level9_part(&listing).unwrap_or_else(|| panic!("{}: no Level9 part", p.id));
        let parsed = parse_program_at(text, first).unwrap_or_else(|d| panic!("{}: {}", p.id, d[0]));
        let want = decode(&p.bytes).unwrap();
        let want = instructions_only(&want);
        assert_eq!(parsed.program, want, "{}: instructions differ", p.id);
        let a = encode(&parsed.program).unwrap();
        assert_eq!(a, encode(&want).unwrap(), "{}", p.id);
        assert_eq!(parsed.debug.len(), parsed.program.items.len());
        assert!(parsed.warnings.is_empty(), "{}: {}", p.id, parsed.warnings[0]);
        assert!(parsed.slots.is_some(), "{}: the slot line is read", p.id);
        exact += 1;
    }
    println!("Level9 listings: {exact}/{total} programs assembled to the Aon9 program's instruction tokens");
    assert_eq!(total, 129);
}

#[test]
fn fxc_930_slash_before_the_version_line_is_read_silently() {
    let text = "//\n// Generated by Microsoft (R) HLSL Shader Compiler 9.30.9200.20499\n//\n/    vs_2_x\n    dcl_position v0\n    mov oPos, v0\n\n// approximately 1 instruction slot used\n";
    let parsed = parse_program(text).unwrap();
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    // Elsewhere a lone `/` is still reported.
    let damaged = "    vs_2_0\n/    mov oPos, v0\n";
    let parsed = parse_program(damaged).unwrap();
    assert_eq!(parsed.warnings.len(), 1);
    assert!(parsed.warnings[0].message.starts_with("stray `/`"));
}
