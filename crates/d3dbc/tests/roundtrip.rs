//! Every SM1–3 program of the corpus decodes and re-encodes byte for byte.

mod common;

use d3dbc::{decode, encode, Decoder, Instruction, Item, Opcode};

#[test]
fn corpus_programs_round_trip() {
    let Some(programs) = common::programs("corpus_programs_round_trip") else { return };
    let (mut raw, mut level9, mut instructions) = (0, 0, 0);
    for p in &programs {
        let prog = decode(&p.bytes).unwrap_or_else(|e| panic!("{}: {}", p.id, e.rebased(p.offset)));
        let again = encode(&prog).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        assert!(again == p.bytes, "{}: re-encoded bytes differ", p.id);
        instructions += prog.instructions().count();
        if p.level9 {
            level9 += 1;
        } else {
            raw += 1;
        }
    }
    println!("round trip: {raw} raw d3dbc programs and {level9} Level9 programs ({instructions} instructions)");
    assert_eq!(raw, 21);
    assert_eq!(level9, 129);
}

/// The streaming decoder sees the same items as `decode`, and every instruction has the
/// shape its table row gives for the program's version.
#[test]
fn streaming_decoder_agrees_with_decode() {
    let Some(programs) = common::programs("streaming_decoder_agrees_with_decode") else { return };
    for p in &programs {
        let prog = decode(&p.bytes).unwrap();
        let mut dec = Decoder::new(&p.bytes).unwrap();
        let mut ins = Instruction::new(Opcode::Nop);
        let mut items = prog.items.iter();
        while let Some(step) = dec.next_into(&mut ins) {
            match (step.unwrap(), items.next()) {
                (d3dbc::decode::Step::Instruction(_), Some(Item::Instruction(i))) => assert_eq!(&ins, i, "{}", p.id),
                (d3dbc::decode::Step::Comment(_, c), Some(Item::Comment(c2))) => assert_eq!(&c, c2, "{}", p.id),
                (s, i) => panic!("{}: {s:?} against {i:?}", p.id),
            }
        }
        assert!(items.next().is_none());
        assert_eq!(dec.end_offset(), Some(p.bytes.len()));
        let v = prog.version;
        for ins in prog.instructions() {
            let info = ins.opcode.info();
            assert!(info.exists_in(v.kind, v.ver()), "{}: {:?} in {}", p.id, ins.opcode, v.name());
            if let Some((dst, n)) = info.operands(v.kind, v.ver()) {
                assert_eq!(ins.dst.is_some(), dst, "{}: {:?}", p.id, ins.opcode);
                assert_eq!(ins.srcs.len(), n as usize, "{}: {:?}", p.id, ins.opcode);
            }
        }
    }
}
