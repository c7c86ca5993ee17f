//! Thousands of mutated corpus programs go through the decoder and the printer:
//! nothing panics or hangs, and whatever decodes re-encodes to exactly its input.

mod common;
use common::{mutate, shader_chunk};

use corpus::Rng;
use tpf::print::print_program;
use tpf::Style;

#[test]
fn mutated_programs_never_panic_and_round_trip() {
    let Some(entries) = corpus::dxbc_entries("mutated_programs_never_panic_and_round_trip") else {
        return;
    };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut decoded, mut rejected) = (0, 0);
    let mut text = String::new();
    for round in 0..12 {
        for e in &entries {
            let blob = e.bytes();
            let code = shader_chunk(&blob).unwrap();
            let m = mutate(&mut rng, code);
            match tpf::decode(&m) {
                Ok(program) => {
                    decoded += 1;
                    text.clear();
                    print_program(&program, Style::default(), &mut text);
                    let bytes = tpf::encode(&program).unwrap_or_else(|err| panic!("{} round {round}: {err}", e.id()));
                    assert_eq!(
                        bytes,
                        m[..bytes.len()],
                        "{} round {round}: decoded program re-encodes differently",
                        e.id()
                    );
                }
                Err(err) => {
                    rejected += 1;
                    // The error names a position inside the input.
                    assert!(err.offset <= m.len(), "{err}");
                    assert!(!err.to_string().is_empty());
                }
            }
        }
    }
    println!("mutated programs: {decoded} decoded (and re-encoded exactly), {rejected} rejected with an error");
    assert!(decoded > 0 && rejected > 0);
}

#[test]
fn errors_name_their_position() {
    use tpf::DecodeErrorKind as K;
    // Too short for the version and length tokens.
    let e = tpf::decode(&[0x40, 0x00, 0x01, 0x00]).unwrap_err();
    assert_eq!((e.offset, e.kind), (0, K::MissingHeader));
    // The length token claims more tokens than there are.
    let e = tpf::decode(&[0x40, 0, 1, 0, 9, 0, 0, 0]).unwrap_err();
    assert_eq!((e.offset, e.token), (4, 1));
    assert!(matches!(e.kind, K::LengthPastEnd { declared: 9, available: 2 }));
    // An unknown opcode (107 is reserved) at token 2.
    let mut p: Vec<u8> = Vec::new();
    for t in [0x0001_0040u32, 3, 0x0100_006b] {
        p.extend_from_slice(&t.to_le_bytes());
    }
    let e = tpf::decode(&p).unwrap_err();
    assert_eq!((e.offset, e.token, e.kind), (8, 2, K::UnknownOpcode(107)));
    // `mov` (3 tokens long) whose operand runs past the instruction's length.
    let mut p: Vec<u8> = Vec::new();
    for t in [0x0001_0040u32, 4, 0x0200_0036, 0x0010_0012] {
        p.extend_from_slice(&t.to_le_bytes());
    }
    let e = tpf::decode(&p).unwrap_err();
    assert_eq!(e.token, 4);
    assert_eq!(e.kind, K::InstructionTruncated("mov"));
    // An instruction whose length runs past the program.
    let mut p: Vec<u8> = Vec::new();
    for t in [0x0001_0040u32, 3, 0x0500_003e] {
        p.extend_from_slice(&t.to_le_bytes());
    }
    let e = tpf::decode(&p).unwrap_err();
    assert_eq!(e.token, 2);
    assert!(matches!(e.kind, K::InstructionPastEnd { mnemonic: "ret", length: 5, remaining: 1 }));
}
