//! The opcode-token fields of `tpf::layout` are what the decoder reads: for every
//! instruction of the hand-written listings (which use every opcode and declaration),
//! each bit 23:11 that the instruction's layout names changes a decoded field, and each
//! bit it does not name lands in the instruction's `reserved` bits, unchanged otherwise.

use std::path::Path;

use tpf::table::Shape;

/// The bits 23:11 of the opcode token a row's layout describes.
fn described(opcode: tpf::Opcode) -> Option<u32> {
    let row = opcode.info();
    match row.shape {
        Shape::Ops => Some(row.controls.mask()),
        Shape::Decl(kind) => Some(kind.layout().mask()),
        // The custom-data class and `fcall` have no opcode-token fields of a layout.
        Shape::CustomData | Shape::InterfaceCall => None,
    }
}

#[test]
fn every_opcode_token_bit_is_a_field_or_reserved() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/listings");
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let mut checked = 0usize;
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let program = tpf::parse::parse_program(&std::fs::read_to_string(path).unwrap()).unwrap().program;
        let bytes = tpf::encode(&program).unwrap();
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        // The version and length tokens, then one instruction after another.
        let mut pos = 2;
        for (i, ins) in program.iter().enumerate() {
            let tok0 = words[pos];
            let length = match (tok0 >> 24) & 0x7f {
                0 => words[pos + 1] as usize,
                n => n as usize,
            };
            if let Some(mask) = described(ins.opcode) {
                assert_eq!(ins.reserved, 0, "{name}: instruction {i} has reserved bits");
                for bit in 11..=23u32 {
                    let mut flipped = bytes.clone();
                    flipped[pos * 4..pos * 4 + 4].copy_from_slice(&(tok0 ^ (1 << bit)).to_le_bytes());
                    let decoded = tpf::decode(&flipped).unwrap_or_else(|e| panic!("{name}: {i} bit {bit}: {e}"));
                    let got = decoded.get(i).unwrap();
                    let what = format!("{name}: {} (instruction {i}) bit {bit}", ins.opcode.mnemonic());
                    if mask & (1 << bit) != 0 {
                        assert_eq!(got.reserved, 0, "{what}: a field of the layout, read as reserved");
                        assert_ne!(got, ins, "{what}: a field of the layout that no field reads");
                    } else {
                        assert_eq!(got.reserved, 1 << bit, "{what}: outside the layout, not kept as reserved");
                        let mut back = *got.instruction();
                        back.reserved = 0;
                        let back = tpf::InstructionRef::new(&back, decoded.pool());
                        assert_eq!(back, ins, "{what}: outside the layout, yet a field changed");
                    }
                    checked += 1;
                }
            }
            pos += length;
        }
        assert_eq!(pos, words.len(), "{name}: the walk ends at the end of the program");
    }
    assert!(checked > 13 * 200, "checked {checked} bits");
}
