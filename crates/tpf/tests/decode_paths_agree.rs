//! The two decoders agree: [`tpf::Decoder`] (one instruction at a time, in its own
//! buffers) and [`tpf::decode`] (the whole program into its arenas) give equal
//! instructions, and the same error at the same place, for every corpus program, for
//! thousands of mutated ones, and for instructions with relative indices of every
//! representation (whose registers the two store differently).

mod common;
use common::{mutate, shader_chunk};

use corpus::Rng;
use tpf::{ComponentCount, Index, Mask, Opcode, Operand, OperandType, Program, ProgramType, Selection, Version};

/// Decodes `code` both ways and checks that they agree; true when it decodes.
fn agree(code: &[u8], what: &str) -> bool {
    let whole = tpf::decode(code);
    let mut decoder = match tpf::Decoder::new(code) {
        Ok(d) => d,
        Err(e) => {
            assert_eq!(whole.err(), Some(e), "{what}: the header errors differ");
            return false;
        }
    };
    let mut streamed = 0usize;
    let mut stream_error = None;
    while let Some(next) = decoder.next_instruction() {
        match next {
            Ok((_, ins)) => {
                if let Ok(program) = &whole {
                    let same = program.get(streamed);
                    assert_eq!(same, Some(ins), "{what}: instruction {streamed} differs");
                }
                streamed += 1;
            }
            Err(e) => stream_error = Some(e),
        }
    }
    match whole {
        Ok(program) => {
            assert_eq!(stream_error, None, "{what}: only the streaming decoder fails");
            assert_eq!(streamed, program.len(), "{what}: instruction counts differ");
            true
        }
        Err(e) => {
            assert_eq!(stream_error, Some(e), "{what}: the errors differ");
            false
        }
    }
}

#[test]
fn streaming_and_whole_program_decoding_agree_on_the_corpus_and_mutations() {
    let Some(entries) = corpus::dxbc_entries("streaming_and_whole_program_decoding_agree") else {
        return;
    };
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut decoded, mut rejected) = (0, 0);
    for e in &entries {
        let blob = e.bytes();
        let code = shader_chunk(&blob).unwrap();
        assert!(agree(code, &e.id()), "{}: a corpus program does not decode", e.id());
        for round in 0..8 {
            if agree(&mutate(&mut rng, code), &format!("{} mutation {round}", e.id())) {
                decoded += 1;
            } else {
                rejected += 1;
            }
        }
    }
    println!("mutated programs: {decoded} decoded alike, {rejected} rejected alike");
    assert!(decoded > 0 && rejected > 0);
}

/// `r<n>.<c>`, a relative index's register.
fn component(n: u32, c: u8) -> Operand {
    Operand::new(OperandType::Temp, ComponentCount::Four, Selection::Select1(c), &[n])
}

#[test]
fn relative_indices_of_every_representation_decode_alike() {
    let mut p = Program::new(Version::new(ProgramType::Pixel, 5, 0));
    let dst = Operand::new(OperandType::Temp, ComponentCount::Four, Selection::Mask(Mask(1)), &[0]);
    let r1 = p.add_operand(component(1, 0));
    let r2 = p.add_operand(component(2, 1));
    let r3 = p.add_operand(component(3, 2));
    let r4 = p.add_operand(component(4, 3));
    let mut x = Operand::new(OperandType::IndexableTemp, ComponentCount::Four, Selection::Select1(0), &[]);
    x.set_indices(&[Index::Imm32(0), Index::Imm32Relative(2, r1)]);
    let mut cb = Operand::new(OperandType::ConstantBuffer, ComponentCount::Four, Selection::Select1(1), &[]);
    cb.set_indices(&[Index::Imm64(7), Index::Relative(r2)]);
    let mut wide = Operand::new(OperandType::ConstantBuffer, ComponentCount::Four, Selection::Select1(2), &[]);
    wide.set_indices(&[Index::Relative(r3), Index::Imm64Relative(u64::MAX - 3, r4)]);
    // Relative indices in the first, the middle and the last operand, then none.
    p.push_op(Opcode::Mad, &[dst, x, cb, wide]);
    p.push_op(Opcode::Mov, &[dst, wide]);
    p.push_op(Opcode::Add, &[dst, component(5, 0), x]);
    p.push_op(Opcode::Mov, &[dst, component(6, 3)]);
    p.push_op(Opcode::Ret, &[]);
    let tokens = tpf::encode(&p).unwrap();
    let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    assert!(agree(&bytes, "relative indices"));
    let decoded = tpf::decode(&bytes).unwrap();
    assert_eq!(decoded, p);
    // The instruction's own operands come first in the arena, then the registers.
    let first = decoded.get(0).unwrap();
    let own = first.operands();
    assert_eq!(own.len(), 4);
    assert_eq!(own[1].indices()[1], Index::Imm32Relative(2, tpf::OperandId(4)));
    assert_eq!(first.operand(tpf::OperandId(4)), &component(1, 0));
    assert_eq!(tpf::encode(&decoded).unwrap(), tokens);
    let mut decoder = tpf::Decoder::new(&bytes).unwrap();
    let (_, streamed) = decoder.next_instruction().unwrap().unwrap();
    assert_eq!(streamed.operands()[3].indices()[1], Index::Imm64Relative(u64::MAX - 3, tpf::OperandId(7)));
    assert_eq!(streamed.operand(tpf::OperandId(7)), &component(4, 3));
}
