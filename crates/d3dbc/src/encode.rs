//! IR to tokens: the exact inverse of [`decode`](crate::decode()).
//!
//! Shader Model 2+ instruction lengths (bits 24–27) and the predicated bit (28) are
//! computed from the parameters; in Shader Model 1 streams those bits are whatever the
//! instruction's `reserved` field holds. Every other bit comes from a typed or
//! `reserved` field, so `encode(decode(x)) == x` for every stream that decodes.

use crate::error::EncodeError;
use crate::ir::*;
use crate::table::{Layout, Opcode};

/// Encodes a whole program: version token, items, end token.
pub fn encode(program: &Program<'_>) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(16 + program.items.len() * 16);
    encode_into(program, &mut out)?;
    Ok(out)
}

/// Encodes a whole program, appending its bytes to `out` (on error, `out` may hold
/// part of the program).
pub fn encode_into(program: &Program<'_>, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let put = |out: &mut Vec<u8>, w: u32| out.extend_from_slice(&w.to_le_bytes());
    put(out, program.version.token());
    let mut words = Vec::with_capacity(16);
    for (index, item) in program.items.iter().enumerate() {
        match item {
            Item::Comment(c) => {
                if !c.data.len().is_multiple_of(4) {
                    return Err(EncodeError::CommentNotAligned { index, length: c.data.len() });
                }
                let n = c.data.len() / 4;
                if n > 0x7fff {
                    return Err(EncodeError::CommentTooLong { index, length: n });
                }
                put(out, 0xfffe | (n as u32) << 16 | (c.reserved as u32) << 31);
                out.extend_from_slice(&c.data);
            }
            Item::Instruction(ins) => {
                words.clear();
                encode_instruction(ins, program.version, index, &mut words)?;
                for &w in &words {
                    put(out, w);
                }
            }
        }
    }
    put(out, 0x0000_ffff);
    Ok(())
}

/// The token of a register (number and type bits).
fn reg_bits(reg: Register, index: usize, mnemonic: &'static str) -> Result<u32, EncodeError> {
    if reg.num > 0x7ff {
        return Err(EncodeError::RegisterNumber { index, mnemonic, num: reg.num });
    }
    Ok(reg.num as u32 | reg.ty.token_bits())
}

/// The address token after a relatively addressed parameter.
pub fn addr_token(a: &AddrToken) -> u32 {
    (a.reg.num as u32 & 0x7ff)
        | a.reg.ty.token_bits()
        | (a.swizzle.0 as u32) << 16
        | (a.modifier.to_u8() as u32) << 24
        | (a.reserved & 0xe000)
        | ((a.reserved & 0x8000_0000) ^ 0x8000_0000)
}

#[inline]
fn reserved_bits(r: u32) -> u32 {
    (r & 0xc000) | ((r & 0x8000_0000) ^ 0x8000_0000)
}

struct Ctx {
    index: usize,
    mnemonic: &'static str,
    sm1: bool,
}

impl Ctx {
    fn rel(&self, rel: &Relative, out: &mut Vec<u32>) -> Result<u32, EncodeError> {
        match (rel, self.sm1) {
            (Relative::None, _) => Ok(0),
            (Relative::Implicit, true) => Ok(0x2000),
            (Relative::Token(a), false) => {
                out.push(addr_token(a));
                Ok(0x2000)
            }
            _ => Err(EncodeError::RelativeMismatch { index: self.index, mnemonic: self.mnemonic }),
        }
    }

    fn dst(&self, d: &DstParam, out: &mut Vec<u32>) -> Result<(), EncodeError> {
        let at = out.len();
        out.push(0);
        let rel = self.rel(&d.rel, out)?;
        out[at] = reg_bits(d.reg, self.index, self.mnemonic)?
            | rel
            | (d.mask.0 as u32 & 0xf) << 16
            | (d.modifiers.0 as u32 & 0xf) << 20
            | (d.shift as u32 & 0xf) << 24
            | reserved_bits(d.reserved);
        Ok(())
    }

    fn src(&self, s: &SrcParam, out: &mut Vec<u32>) -> Result<(), EncodeError> {
        let at = out.len();
        out.push(0);
        let rel = self.rel(&s.rel, out)?;
        out[at] = reg_bits(s.reg, self.index, self.mnemonic)?
            | rel
            | (s.swizzle.0 as u32) << 16
            | (s.modifier.to_u8() as u32) << 24
            | reserved_bits(s.reserved);
        Ok(())
    }
}

/// Encodes one instruction of a program of `version` (`index` names it in errors),
/// appending its tokens to `out`.
pub fn encode_instruction(
    ins: &Instruction,
    version: Version,
    index: usize,
    out: &mut Vec<u32>,
) -> Result<(), EncodeError> {
    let info = ins.opcode.info();
    let mnemonic = info.mnemonic;
    let sm1 = version.is_sm1();
    let cx = Ctx { index, mnemonic, sm1 };
    if matches!(ins.opcode, Opcode::Comment | Opcode::End) {
        return Err(EncodeError::NotAnInstruction { index, mnemonic });
    }
    if sm1 && ins.predicate.is_some() {
        return Err(EncodeError::PredicateInSm1 { index, mnemonic });
    }
    let start = out.len();
    out.push(0);
    let mismatch = || EncodeError::BodyMismatch { index, mnemonic };
    let dst_then_pred = |out: &mut Vec<u32>| -> Result<(), EncodeError> {
        let d = ins.dst.as_ref().ok_or_else(mismatch)?;
        cx.dst(d, out)?;
        if let Some(p) = &ins.predicate {
            cx.src(p, out)?;
        }
        Ok(())
    };
    match (info.layout, &ins.body) {
        (Layout::Dcl, Body::Dcl(t)) => {
            out.push(t.token());
            dst_then_pred(out)?;
        }
        (Layout::Def, Body::Def(v)) | (Layout::DefI, Body::DefI(v)) => {
            dst_then_pred(out)?;
            out.extend_from_slice(v);
        }
        (Layout::DefB, Body::DefB(v)) => {
            dst_then_pred(out)?;
            out.push(*v);
        }
        (Layout::Dcl | Layout::Def | Layout::DefI | Layout::DefB, _) => return Err(mismatch()),
        (_, Body::None) => {
            let (has_dst, nsrc) = info.operands(version.kind, version.ver()).unwrap_or((false, 0));
            if has_dst != ins.dst.is_some() || (sm1 && nsrc as usize != ins.srcs.len()) {
                return Err(EncodeError::OperandCount {
                    index,
                    mnemonic,
                    found: ins.srcs.len(),
                    expected: nsrc as usize,
                });
            }
            if let Some(d) = &ins.dst {
                cx.dst(d, out)?;
            }
            if let Some(p) = &ins.predicate {
                cx.src(p, out)?;
            }
            for s in &ins.srcs {
                cx.src(s, out)?;
            }
        }
        _ => return Err(mismatch()),
    }
    let len = out.len() - start - 1;
    let mut tok = ins.opcode as u32 | (ins.controls as u32) << 16 | (ins.coissue as u32) << 30;
    if sm1 {
        tok |= ins.reserved & 0xbf00_0000;
    } else {
        if len > 15 {
            return Err(EncodeError::InstructionTooLong { index, mnemonic, length: len });
        }
        tok |= (len as u32) << 24 | (ins.predicate.is_some() as u32) << 28 | (ins.reserved & 0xa000_0000);
    }
    out[start] = tok;
    Ok(())
}
