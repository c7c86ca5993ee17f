//! Test support for the Direct3D 9 rules: raw Shader Model 2/3 token streams built
//! instruction by instruction (instruction token = opcode | controls << 16 | length << 24
//! | predicated << 28; parameter tokens with bit 31 set, the register number in bits
//! 0–10 and the type in bits 28–30 and 11–12; Microsoft's "Instruction Token",
//! "Destination Parameter Token", "Source Parameter Token").
#![allow(dead_code)]

use validate::{Caps9, Code, Report, Target};

pub const VS_2_0: u32 = 0xfffe_0200;
pub const VS_2_X: u32 = 0xfffe_0201;
pub const VS_2_SW: u32 = 0xfffe_02ff;
pub const VS_3_0: u32 = 0xfffe_0300;
pub const VS_3_SW: u32 = 0xfffe_03ff;
pub const PS_2_0: u32 = 0xffff_0200;
pub const PS_2_X: u32 = 0xffff_0201;
pub const PS_3_0: u32 = 0xffff_0300;

/// The five vertex profiles of Microsoft's Flow Control Nesting Limits page (vertex shaders), with their names.
pub const VS_PROFILES: [(&str, u32); 5] =
    [("vs_2_0", VS_2_0), ("vs_2_x", VS_2_X), ("vs_2_sw", VS_2_SW), ("vs_3_0", VS_3_0), ("vs_3_sw", VS_3_SW)];

// Register types (D3DSPR_*).
pub const TEMP: u8 = 0;
pub const INPUT: u8 = 1;
pub const CONST: u8 = 2;
pub const ADDR: u8 = 3;
pub const TEXTURE: u8 = 3;
pub const RASTOUT: u8 = 4;
pub const OUTPUT: u8 = 6;
pub const CONSTINT: u8 = 7;
pub const COLOROUT: u8 = 8;
pub const SAMPLER: u8 = 10;
pub const CONSTBOOL: u8 = 14;
pub const LOOP: u8 = 15;
pub const MISC: u8 = 17;
pub const LABEL: u8 = 18;
pub const PREDICATE: u8 = 19;

/// Swizzles.
pub const XYZW: u8 = 0xe4;
pub const XXXX: u8 = 0x00;

// Opcodes (D3DSIO_*).
pub const MOV: u16 = 1;
pub const ADD: u16 = 2;
pub const CALL: u16 = 25;
pub const CALLNZ: u16 = 26;
pub const LOOP_OP: u16 = 27;
pub const RET: u16 = 28;
pub const ENDLOOP: u16 = 29;
pub const LABEL_OP: u16 = 30;
pub const DCL: u16 = 31;
pub const REP: u16 = 38;
pub const ENDREP: u16 = 39;
pub const IF: u16 = 40;
pub const IFC: u16 = 41;
pub const ELSE: u16 = 42;
pub const ENDIF: u16 = 43;
pub const BREAK: u16 = 44;
pub const BREAKC: u16 = 45;
pub const TEX: u16 = 66;
pub const SETP: u16 = 94;
pub const BREAKP: u16 = 96;

fn ty_bits(ty: u8) -> u32 {
    ((ty as u32 & 7) << 28) | ((ty as u32 & 0x18) << 8)
}

/// A source parameter token.
pub fn src(ty: u8, num: u16, swizzle: u8) -> u32 {
    0x8000_0000 | ty_bits(ty) | (num as u32 & 0x7ff) | (swizzle as u32) << 16
}

/// A source with a modifier (bits 24–27).
pub fn src_mod(ty: u8, num: u16, swizzle: u8, modifier: u8) -> u32 {
    src(ty, num, swizzle) | (modifier as u32 & 15) << 24
}

/// A destination parameter token writing `mask`.
pub fn dst(ty: u8, num: u16, mask: u8) -> u32 {
    0x8000_0000 | ty_bits(ty) | (num as u32 & 0x7ff) | (mask as u32 & 15) << 16
}

/// A program being built.
#[derive(Debug, Clone)]
pub struct Prog {
    pub version: u32,
    pub tokens: Vec<u32>,
    /// Instructions so far.
    pub count: usize,
    /// Token index of each instruction.
    pub token_of: Vec<usize>,
}

impl Prog {
    pub fn new(version: u32) -> Prog {
        Prog { version, tokens: vec![version], count: 0, token_of: Vec::new() }
    }

    /// Appends an instruction; returns its index.
    pub fn op(&mut self, opcode: u16, controls: u8, params: &[u32]) -> usize {
        self.token_of.push(self.tokens.len());
        // Shader Model 1 instruction tokens have no length field.
        let length = if self.version >> 8 & 0xff >= 2 { (params.len() as u32) << 24 } else { 0 };
        self.tokens.push(opcode as u32 | (controls as u32) << 16 | length);
        self.tokens.extend_from_slice(params);
        self.count += 1;
        self.count - 1
    }

    /// Appends a predicated instruction (`(p0.x) opcode dst, srcs`).
    pub fn predicated(&mut self, opcode: u16, d: u32, srcs: &[u32]) -> usize {
        let mut params = vec![d, src(PREDICATE, 0, XXXX)];
        params.extend_from_slice(srcs);
        let i = self.op(opcode, 0, &params);
        let t = self.token_of[i];
        self.tokens[t] |= 1 << 28;
        i
    }

    pub fn if_b(&mut self) -> usize {
        self.op(IF, 0, &[src(CONSTBOOL, 0, XXXX)])
    }
    /// `if_gt c0.x, r1.x` (one constant: c# has one read port from 2_0 on).
    pub fn if_c(&mut self) -> usize {
        self.op(IFC, 1, &[src(CONST, 0, XXXX), src(TEMP, 1, XXXX)])
    }
    /// `if p0.x`.
    pub fn if_p(&mut self) -> usize {
        self.op(IF, 0, &[src(PREDICATE, 0, XXXX)])
    }
    pub fn else_(&mut self) -> usize {
        self.op(ELSE, 0, &[])
    }
    pub fn endif(&mut self) -> usize {
        self.op(ENDIF, 0, &[])
    }
    pub fn rep(&mut self) -> usize {
        self.op(REP, 0, &[src(CONSTINT, 0, XYZW)])
    }
    pub fn endrep(&mut self) -> usize {
        self.op(ENDREP, 0, &[])
    }
    pub fn loop_(&mut self) -> usize {
        self.op(LOOP_OP, 0, &[src(LOOP, 0, XYZW), src(CONSTINT, 0, XYZW)])
    }
    pub fn endloop(&mut self) -> usize {
        self.op(ENDLOOP, 0, &[])
    }
    pub fn break_(&mut self) -> usize {
        self.op(BREAK, 0, &[])
    }
    /// `break_gt c0.x, r1.x`.
    pub fn break_c(&mut self) -> usize {
        self.op(BREAKC, 1, &[src(CONST, 0, XXXX), src(TEMP, 1, XXXX)])
    }
    /// `breakp p0.x`.
    pub fn break_p(&mut self) -> usize {
        self.op(BREAKP, 0, &[src(PREDICATE, 0, XXXX)])
    }
    pub fn call(&mut self, label: u16) -> usize {
        self.op(CALL, 0, &[src(LABEL, label, XYZW)])
    }
    /// `callnz l#, b0`.
    pub fn callnz_b(&mut self, label: u16) -> usize {
        self.op(CALLNZ, 0, &[src(LABEL, label, XYZW), src(CONSTBOOL, 0, XXXX)])
    }
    /// `callnz l#, p0.x`.
    pub fn callnz_p(&mut self, label: u16) -> usize {
        self.op(CALLNZ, 0, &[src(LABEL, label, XYZW), src(PREDICATE, 0, XXXX)])
    }
    pub fn ret(&mut self) -> usize {
        self.op(RET, 0, &[])
    }
    pub fn label(&mut self, label: u16) -> usize {
        self.op(LABEL_OP, 0, &[src(LABEL, label, XYZW)])
    }
    /// `setp_gt p0, c0, r1`.
    pub fn setp(&mut self) -> usize {
        self.op(SETP, 1, &[dst(PREDICATE, 0, 0xf), src(CONST, 0, XYZW), src(TEMP, 1, XYZW)])
    }
    /// `mov r0, c0`.
    pub fn mov(&mut self) -> usize {
        self.op(MOV, 0, &[dst(TEMP, 0, 0xf), src(CONST, 0, XYZW)])
    }

    /// The bytes, with the end token.
    pub fn bytes(&self) -> Vec<u8> {
        let mut b: Vec<u8> = self.tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
        b.extend_from_slice(&0x0000_ffffu32.to_le_bytes());
        b
    }

    /// Byte offset of instruction `i`.
    pub fn offset(&self, i: usize) -> usize {
        self.token_of[i] * 4
    }
}

/// Validates `p` as a raw program with `caps`.
pub fn run(p: &Prog, caps: &Caps9) -> Report {
    let bytes = p.bytes();
    validate::validate_with_d3d9_caps(&bytes, bytes.len(), &Target::d3d9(), caps)
}

/// The codes of `p`'s report.
pub fn codes(p: &Prog, caps: &Caps9) -> Vec<Code> {
    run(p, caps).diagnostics.iter().map(|d| d.code).collect()
}

/// Asserts that `p` is accepted.
#[track_caller]
pub fn accepted(p: &Prog, caps: &Caps9) {
    let r = run(p, caps);
    assert!(r.is_valid(), "expected no diagnostics, got {:#?}", r.diagnostics);
}

/// Asserts that `p` is refused with exactly one diagnostic, of `code`, at instruction
/// `index` (index, token, byte offset and mnemonic checked); returns its message.
#[track_caller]
pub fn refused_at(p: &Prog, caps: &Caps9, code: Code, index: usize, mnemonic: &str) -> String {
    let r = run(p, caps);
    assert_eq!(r.diagnostics.len(), 1, "expected one {code} at {index}, got {:#?}", r.diagnostics);
    let d = &r.diagnostics[0];
    assert_eq!(d.code, code, "{d}");
    match &d.location {
        validate::Location::Instruction { index: i, token, offset, mnemonic: m } => {
            assert_eq!((*i, *token, *offset, *m), (index, p.token_of[index], p.offset(index), mnemonic), "{d}");
        }
        other => panic!("expected an instruction location, got {other:?} ({d})"),
    }
    d.message.clone()
}
