//! Hand-laid streams for the paths the corpus does not reach: Shader Model 1 (no
//! instruction lengths, co-issue, implicit `a0.x` relative addressing, pixel 1.x
//! operand layouts), predication, relative address tokens, comparisons.

use d3dbc::{decode, encode, Body, Comparison, FlowClass, FlowOp, Opcode, RegisterType, Relative, SrcModifier};

/// Bit 31 and the register type over bits 28–30 and 11–12.
fn reg(ty: u32, n: u32) -> u32 {
    0x8000_0000 | (ty & 7) << 28 | (ty & 0x18) << 8 | n
}
fn dst(ty: u32, n: u32, mask: u32) -> u32 {
    reg(ty, n) | mask << 16
}
fn src(ty: u32, n: u32, swz: u32, m: u32) -> u32 {
    reg(ty, n) | swz << 16 | m << 24
}
fn bytes(tokens: &[u32]) -> Vec<u8> {
    tokens.iter().flat_map(|t| t.to_le_bytes()).collect()
}
const TEMP: u32 = 0;
const INPUT: u32 = 1;
const CONST: u32 = 2;
const TEXTURE: u32 = 3;
const OUTPUT: u32 = 6;
const CONSTINT: u32 = 7;
const CONSTBOOL: u32 = 14;
const LOOP: u32 = 15;
const LABEL: u32 = 18;
const PRED: u32 = 19;

#[test]
fn pixel_1_1_layouts_and_coissue() {
    let stream = bytes(&[
        0xffff_0101,
        0x51,
        dst(CONST, 0, 0xf),
        0x3f80_0000,
        0,
        0,
        0x3f80_0000, // def c0, 1, 0, 0, 1
        0x42,
        dst(TEXTURE, 0, 0xf), // tex t0
        0x40,
        dst(TEXTURE, 1, 0xf), // texcoord t1
        0x43,
        dst(TEXTURE, 2, 0xf),
        src(TEXTURE, 1, 0xe4, 0), // texbem t2, t1
        0x05,
        dst(TEMP, 0, 0x7),
        src(TEXTURE, 0, 0xe4, 0),
        src(CONST, 0, 0xe4, 4), // mul r0.rgb, t0, c0_bx2
        0x4000_0001,
        dst(TEMP, 0, 0x8),
        src(TEXTURE, 2, 0xff, 0), // +mov r0.a, t2.a
        0x50,
        dst(TEMP, 0, 0xf),
        src(TEMP, 0, 0xff, 0),
        src(TEMP, 0, 0xe4, 0),
        src(CONST, 0, 0xe4, 1), // cnd
        0x0000_ffff,
    ]);
    let prog = decode(&stream).unwrap();
    assert_eq!(encode(&prog).unwrap(), stream);
    let ins: Vec<_> = prog.instructions().collect();
    assert_eq!(ins.len(), 7);
    assert_eq!(ins[0].body, Body::Def([0x3f80_0000, 0, 0, 0x3f80_0000]));
    assert_eq!((ins[1].opcode, ins[1].srcs.len()), (Opcode::Tex, 0));
    assert_eq!(ins[1].mnemonic(prog.version).to_string(), "tex");
    assert_eq!(ins[2].mnemonic(prog.version).to_string(), "texcoord");
    assert_eq!(ins[3].srcs.len(), 1);
    assert_eq!(ins[4].srcs[1].modifier, SrcModifier::Sign);
    assert!(ins[5].coissue);
    assert_eq!(ins[6].srcs.len(), 3);
    // The same tex in 1.4 takes a source, and prints as texld.
    let v14 = d3dbc::Profile::Ps1_4.version();
    assert_eq!(ins[1].mnemonic(v14).to_string(), "texld");
}

#[test]
fn vertex_1_1_relative_addressing_has_no_token() {
    let stream = bytes(&[
        0xfffe_0101,
        0x1f,
        0x8000_0000,
        dst(INPUT, 0, 0xf), // dcl_position v0
        0x01,
        dst(3, 0, 0x1),
        src(INPUT, 0, 0x00, 0), // mov a0.x, v0.x
        0x01,
        dst(OUTPUT, 0, 0xf),
        src(CONST, 4, 0xe4, 0) | 0x2000, // mov oT0, c4[a0.x]
        0x0000_ffff,
    ]);
    let prog = decode(&stream).unwrap();
    assert_eq!(encode(&prog).unwrap(), stream);
    let ins: Vec<_> = prog.instructions().collect();
    assert_eq!(ins[2].srcs[0].rel, Relative::Implicit);
}

#[test]
fn shader_model_3_predication_relative_tokens_and_flow() {
    let stream = bytes(&[
        0xfffe_0300,
        0x0300_005e | 1 << 16,
        dst(PRED, 0, 0xf),
        src(TEMP, 0, 0xe4, 0),
        src(CONST, 0, 0xe4, 0), // setp_gt p0, r0, c0
        0x1400_0002,
        dst(TEMP, 1, 0xf),
        src(PRED, 0, 0x00, 13),
        src(TEMP, 1, 0xe4, 0),
        src(TEMP, 2, 0xe4, 0), // (!p0.x) add
        0x0200_001b,
        src(LOOP, 0, 0xe4, 0),
        src(CONSTINT, 0, 0xe4, 0), // loop aL, i0
        0x0300_0001,
        dst(OUTPUT, 0, 0xf) | 0x2000,
        src(LOOP, 0, 0x00, 0),
        src(INPUT, 0, 0xe4, 0), // mov o[aL.x], v0
        0x0000_001d,            // endloop
        0x0100_0028,
        src(PRED, 0, 0x55, 0), // if p0.y
        0x0000_002b,           // endif
        0x0200_001a,
        src(LABEL, 1, 0xe4, 0),
        src(CONSTBOOL, 0, 0xe4, 0), // callnz l1, b0
        0x0000_001c,                // ret
        0x0100_001e,
        src(LABEL, 1, 0xe4, 0), // label l1
        0x0000_001c,
        0x0000_ffff,
    ]);
    let prog = decode(&stream).unwrap();
    assert_eq!(encode(&prog).unwrap(), stream);
    let ins: Vec<_> = prog.instructions().collect();
    assert_eq!(ins[0].comparison(), Some(Comparison::Gt));
    assert_eq!(ins[0].mnemonic(prog.version).to_string(), "setp_gt");
    assert_eq!(ins[0].flow_class(), FlowClass::Op(FlowOp::SetpComp));
    let p = ins[1].predicate.unwrap();
    assert_eq!((p.reg.ty, p.modifier), (RegisterType::Predicate, SrcModifier::Not));
    assert_eq!(ins[1].srcs.len(), 2);
    assert_eq!(ins[2].flow_class(), FlowClass::Op(FlowOp::Loop));
    match ins[3].dst.unwrap().rel {
        Relative::Token(a) => assert_eq!(a.reg.ty, RegisterType::Loop),
        r => panic!("{r:?}"),
    }
    assert_eq!(ins[5].flow_class(), FlowClass::Op(FlowOp::IfPred));
    assert_eq!(ins[7].flow_class(), FlowClass::Op(FlowOp::CallnzBool));
    // The stated length is followed: a `setp` stating 2 tokens has one source, and the
    // token after it is read as an instruction token (here a `nop` with reserved bits).
    let mut short = stream.clone();
    short[4..8].copy_from_slice(&0x0200_005eu32.to_le_bytes());
    let p2 = decode(&short).unwrap();
    let i2: Vec<_> = p2.instructions().collect();
    assert_eq!(i2[0].srcs.len(), 1);
    assert_eq!((i2[1].opcode, i2[1].reserved), (Opcode::Nop, 0xa000_0000));
    assert_eq!(encode(&p2).unwrap(), short);
    // A length running past the end is an error.
    let n = stream.len();
    let mut bad = stream.clone();
    bad[n - 8..n - 4].copy_from_slice(&0x0300_001cu32.to_le_bytes());
    assert!(matches!(decode(&bad).unwrap_err().kind, d3dbc::DecodeErrorKind::InstructionPastEnd { .. }));
}

#[test]
fn comments_are_kept_and_the_end_token_is_strict() {
    let stream = bytes(&[0xffff_0200, 0x0002_fffe, 0x4241_5443, 0x1234_5678, 0x0000_ffff]);
    let prog = decode(&stream).unwrap();
    assert_eq!(prog.comment_with(b"CTAB"), Some(&stream[8..16]));
    assert_eq!(encode(&prog).unwrap(), stream);
    let bad = bytes(&[0xffff_0200, 0x0001_ffff]);
    assert!(decode(&bad).is_err());
    assert!(decode(&bytes(&[0xffff_0200])).is_err());
    assert!(decode(&bytes(&[0x0000_0200, 0x0000_ffff])).is_err());
}
