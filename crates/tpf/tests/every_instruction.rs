//! Hand-written listings (`tests/listings/*.asm`) that together use every opcode of the
//! instruction table: each parses, encodes, decodes and prints back to its own text,
//! and re-encodes to identical bytes.

use std::collections::BTreeSet;
use std::path::Path;

use tpf::parse::parse_program;
use tpf::print::print_program;
use tpf::{Opcode, Style, TABLE};

#[test]
fn every_instruction_round_trips_through_text_and_bytes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/listings");
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let mut seen: BTreeSet<Opcode> = BTreeSet::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        let parsed = parse_program(&text).unwrap_or_else(|errors| {
            panic!("{name}:\n{}", errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))
        });
        let bytes = tpf::encode(&parsed.program).unwrap_or_else(|e| panic!("{name}: {e}"));
        let decoded = tpf::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(decoded, parsed.program, "{name}: decode(encode(parse(text))) differs from parse(text)");
        let mut printed = String::new();
        print_program(&decoded, Style::default(), &mut printed);
        for (i, (a, b)) in printed.lines().zip(text.lines()).enumerate() {
            assert_eq!(a, b, "{name} line {}", i + 1);
        }
        assert_eq!(printed, text, "{name}: printed text differs");
        assert_eq!(tpf::encode(&tpf::parse::parse_program(&printed).unwrap().program).unwrap(), bytes, "{name}");
        seen.extend(decoded.instructions.iter().map(|i| i.opcode));
    }
    let missing: Vec<&str> = TABLE.iter().filter(|r| !seen.contains(&r.opcode)).map(|r| r.mnemonic).collect();
    assert!(missing.is_empty(), "opcodes no listing uses: {missing:?}");
    println!("{} listings use all {} opcodes of the table", paths.len(), TABLE.len());
}
